"""Tests for helpers.simulate.preferences: calibration to the paper's alphas, determinism, model knobs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import preference as pref
from helpers import stats
from helpers.simulate import intent_collection, preference_judgments
from helpers.simulate.preferences import nominal_alpha

ALPHA_TOL = 0.005  # stated calibration tolerance on Krippendorff's alpha


@pytest.fixture(scope="module")
def setup():
    rng = np.random.default_rng(7)
    col = intent_collection(rng)
    summ = pref.serp_summaries(col.dqrels, col.intents, col.runs, 10)
    pairs = pref.sample_pairs(summ, rng)
    return col, pairs


def test_paper_size_and_calibration(setup):
    col, pairs = setup
    assert len(pairs) == 1127
    pj = preference_judgments(np.random.default_rng(3), col, pairs)
    assert pj.relevance.shape == (1127, 15) and pj.diversity.shape == (1127, 15)
    # alpha measured independently with the krippendorff package, against the paper's values
    assert stats.krippendorff_alpha(pj.relevance) == pytest.approx(0.406, abs=ALPHA_TOL)
    assert stats.krippendorff_alpha(pj.diversity) == pytest.approx(0.356, abs=ALPHA_TOL)
    for q in ("relevance", "diversity"):
        labels = getattr(pj, q).to_numpy()
        assert set(np.unique(labels)) == {"LEFT", "RIGHT", "EQUAL"}
        assert (labels == "EQUAL").mean() == pytest.approx(0.1, abs=0.01)
    # the two questions are strongly but not perfectly related (paper: r = 0.898)
    r = np.corrcoef(pref.preference_counts(pj.relevance)["balance"],
                    pref.preference_counts(pj.diversity)["balance"])[0, 1]
    assert 0.5 < r < 0.99


def test_other_targets_are_reached(setup):
    col, pairs = setup
    pj = preference_judgments(np.random.default_rng(4), col, pairs, alpha_target=(0.6, 0.2))
    assert stats.krippendorff_alpha(pj.relevance) == pytest.approx(0.6, abs=ALPHA_TOL)
    assert stats.krippendorff_alpha(pj.diversity) == pytest.approx(0.2, abs=ALPHA_TOL)


def test_deterministic(setup):
    col, pairs = setup
    a = preference_judgments(np.random.default_rng(11), col, pairs.iloc[:200])
    b = preference_judgments(np.random.default_rng(11), col, pairs.iloc[:200])
    c = preference_judgments(np.random.default_rng(12), col, pairs.iloc[:200])
    assert a.relevance.equals(b.relevance) and a.diversity.equals(b.diversity)
    assert not a.relevance.equals(c.relevance)


def test_more_noise_less_agreement(setup):
    col, pairs = setup
    alphas = [nominal_alpha(pref.label_codes(preference_judgments(
        np.random.default_rng(5), col, pairs, alpha_target=None, sigma=(s, s)).relevance)) for s in (0.2, 1.0, 5.0)]
    assert alphas[0] > alphas[1] > alphas[2]
    assert abs(alphas[2]) < 0.1  # almost pure noise: near chance


def test_nominal_alpha_matches_krippendorff_package():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 3, size=(60, 5))
    codes[rng.random(codes.shape) < 0.2] = -1
    labels = np.where(codes >= 0, np.asarray(pref.LABELS, dtype=object)[np.maximum(codes, 0)], None)
    assert nominal_alpha(codes) == pytest.approx(stats.krippendorff_alpha(pd.DataFrame(labels)), abs=1e-12)
    # perfect agreement -> 1
    assert nominal_alpha(np.array([[0, 0], [1, 1], [2, 2]])) == pytest.approx(1.0)


def test_bad_input(setup):
    col, pairs = setup
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="rng"):
        preference_judgments(0, col, pairs)
    with pytest.raises(ValueError, match="out of reach"):
        preference_judgments(rng, col, pairs.iloc[:100], alpha_target=(0.99, 0.3), interpretation_concentration=0.5)
    with pytest.raises(ValueError, match="p_equal"):
        preference_judgments(rng, col, pairs, p_equal=1.0)
    with pytest.raises(ValueError, match="n_assessors"):
        preference_judgments(rng, col, pairs, n_assessors=1)
    with pytest.raises(ValueError, match="lacks"):
        preference_judgments(rng, col, pairs.drop(columns="run_left"))
    bad = pairs.iloc[:3].copy()
    bad["run_left"] = "R99"
    with pytest.raises(ValueError, match="absent from the collection"):
        preference_judgments(rng, col, bad)
    with pytest.raises(ValueError, match="alpha_target"):
        preference_judgments(rng, col, pairs, alpha_target=(1.5, 0.3))
