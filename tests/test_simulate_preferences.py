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
    pj = preference_judgments(np.random.default_rng(4), col, pairs, alpha_target=(0.42, 0.2))
    assert stats.krippendorff_alpha(pj.relevance) == pytest.approx(0.42, abs=ALPHA_TOL)
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
    with pytest.warns(UserWarning, match="out of reach"):  # said, and the noise-free labels are used
        out = preference_judgments(rng, col, pairs.iloc[:100], alpha_target=(0.99, 0.3), interpretation_concentration=0.5)
    assert out.calibration.set_index("question").loc["relevance", "alpha"] < 0.99
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


# ---------------------------------------------------------------------------------------------
# issue 17: the assessors' generating utilities are no engine measure
# ---------------------------------------------------------------------------------------------

ENGINE = ["D-nDCG@10", "D-Q@10", "D-nERR@10", "D-RBP(p=0.85)@10", "D-RBP(p=0.99)@10", "D-EBR@10", "D#-nDCG@10",
          "D#-nERR@10", "DIN-nDCG@10", "P+Q@10", "IA-nDCG@10", "IA-Q@10", "IA-nERR@10", "IA-RBP(p=0.85)@10",
          "IA-EBR@10", "alpha-nDCG@10", "ERR-IA@10", "nERR-IA@10", "NRBP", "P-IA@10", "I-rec@10",
          "iRBU(p=0.85)@10", "iRBU(p=0.99)@10", "RBU(p=0.85)@10"]


@pytest.mark.parametrize("normaliser", ["fixed", "ideal"])
def test_no_measure_matches_any_user_model(setup, normaliser):
    """For every default user model, noise-free, with the population's intent weights Pr(i|q)
    and the middle persistence, no engine measure prefers the same SERP on (nearly) every pair,
    and none orders the SERPs like the utility (rank-equivalence would give tau = 1)."""
    import scipy.stats

    from helpers.measures import diversity
    from helpers.simulate import users
    from helpers.simulate.preferences import PERSISTENCE, RELEVANCE_SHARPEN, USER_MODELS, serp_levels

    col, pairs = setup
    levels, tq, prob, valid = serp_levels(col, pairs, 10)
    scores = diversity.evaluate(col.dqrels, col.intents, col.runs, ENGINE, normaliser=normaliser)
    left, right = pref.pair_scores(scores, pairs)
    m_delta = (left - right).to_numpy()
    w = prob[tq]
    sharp = w ** RELEVANCE_SHARPEN
    sharp /= sharp.sum(-1, keepdims=True)
    worst = 0.0
    for model in USER_MODELS:
        if model == "null":
            continue  # no utility at all: nothing a measure could match
        for weights in (w, sharp):
            util = users.serp_utility(levels, model, weights[:, None, :], valid[tq][:, None, :],
                                      float(np.mean(PERSISTENCE)))               # (P, 2)
            u_delta = util[:, 0] - util[:, 1]
            for k, m in enumerate(ENGINE):
                agree = np.mean(np.sign(m_delta[:, k]) == np.sign(u_delta))
                tau = scipy.stats.kendalltau(np.r_[left.iloc[:, k], right.iloc[:, k]], util.T.ravel()).statistic
                assert agree < 0.97, (model, m, agree)
                assert tau < 0.95, (model, m, tau)
                worst = max(worst, agree)
    assert worst > 0.6   # the measures do track the users: the check is not vacuous


def test_user_models_by_hand():
    from helpers.simulate.preferences import user_utility

    x = np.array([[[0.0, 1.0], [0.5, 0.0], [0.25, 1.0]]])                    # (1 SERP, 3 ranks, 2 intents)
    assert np.allclose(user_utility(x, "position", 0.5), [[0 + 0.5 * 0.5 + 0.25 * 0.25, 1 + 0.25]])
    assert np.allclose(user_utility(x, "coverage"), [[1 - 1 * 0.7 * 0.85, 1 - 0.4 * 1 * 0.4]])
    assert np.allclose(user_utility(x, "first-hit", 0.5), [[0.5, 1.0]])
    assert np.allclose(user_utility(np.zeros((1, 3, 1)), "first-hit", 0.5), [[0.0]])


def test_mixture_sets_assessor_models(setup):
    col, pairs = setup
    pj = preference_judgments(np.random.default_rng(3), col, pairs.iloc[:300], n_assessors=10,
                              user_models="position:0.5,coverage:0.25,first-hit:0.25", alpha_target=None)
    assert pj.assessors["model"].value_counts().to_dict() == {"position": 5, "coverage": 3, "first-hit": 2} or \
        pj.assessors["model"].value_counts().to_dict() == {"position": 5, "coverage": 2, "first-hit": 3}
    one = preference_judgments(np.random.default_rng(3), col, pairs.iloc[:300], user_models="coverage:1",
                               alpha_target=None)
    assert set(one.assessors["model"]) == {"coverage"}


@pytest.mark.parametrize("mix,msg", [
    ("position:0.5,coverage:0.4", "sum to 1"),
    ("position:0.5,cascade:0.5", "unknown user model 'cascade'"),
    ("position=1", "must look like 'model:share'"),
    ("position:x", "must be a number"),
    ("position:1.5,coverage:-0.5", "must be a number >= 0"),
    ("position:0.5,position:0.5", "twice"),
    ("", "non-empty"),
])
def test_bad_mixture(setup, mix, msg):
    col, pairs = setup
    with pytest.raises(ValueError, match=msg):
        preference_judgments(np.random.default_rng(0), col, pairs.iloc[:50], user_models=mix)


def test_noise_free_labels_follow_the_utilities(setup):
    """Noise-free labels are the sign of each assessor's utility difference; the noisy labels agree
    with them more often than chance but not always; a null panel's are all EQUAL."""
    from helpers.simulate.preferences import noise_free_labels

    col, pairs = setup
    pj = preference_judgments(np.random.default_rng(3), col, pairs.iloc[:300], n_assessors=6, user_models="coverage:1")
    for q in ("relevance", "diversity"):
        clean = noise_free_labels(pj, q)
        delta = pj.utility_difference[q]
        assert clean.shape == (300, 6) and list(clean.columns) == list(pj.relevance.columns)
        assert clean.index.equals(pj.relevance.index)
        assert (clean.to_numpy() == np.where(delta > 0, "LEFT", np.where(delta < 0, "RIGHT", "EQUAL"))).all()
        noisy = getattr(pj, q).to_numpy()
        same = (noisy == clean.to_numpy()).mean()
        assert 0.5 < same < 0.99, same            # noise flips some labels, the signal keeps most
    # coverage weighs intents uniformly in both questions: the same utilities
    assert np.array_equal(pj.utility_difference["relevance"], pj.utility_difference["diversity"])
    # a hand-checked pair: LEFT where U(left) > U(right)
    d = pj.utility_difference["relevance"]
    i, a = np.unravel_index(np.argmax(d), d.shape)
    assert d[i, a] > 0 and noise_free_labels(pj, "relevance").iat[i, a] == "LEFT"
    null = preference_judgments(np.random.default_rng(3), col, pairs.iloc[:100], n_assessors=4, user_models="null:1")
    assert (noise_free_labels(null, "diversity").to_numpy() == "EQUAL").all()
    with pytest.raises(ValueError, match="no utilities for question 'both'"):
        noise_free_labels(pj, "both")
