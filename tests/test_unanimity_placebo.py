"""Notebook 02's placebo control (helpers.unanimity.placebo_gain, compare_gains_many's placebo,
helpers.replicates.unanimity_placebo): the placebo has UG's bonuses and support, is tested on the
same permutations, and leaves every other number of a run unchanged."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from helpers import gains, unanimity
from helpers.replicates import unanimity as study
from helpers.replicates import unanimity_placebo as P


def test_placebo_gain_shuffles_ugs_bonuses_within_topics():
    raw = np.array([0.0, 2.0, 3.0, 1.0, 0.0, 4.0, 5.0])
    bonus = np.array([0.0, 0.4, 0.0, 1.2, 0.0, 0.8, 0.0])
    topics = np.array(["a", "a", "a", "a", "b", "b", "b"])
    seen = set()
    for seed in range(30):
        pl = unanimity.placebo_gain(raw, raw + bonus, topics, np.random.default_rng(seed))
        assert (pl[raw == 0] == 0).all() and ((pl > 0) == (raw > 0)).all()      # UG's support, RawG's zeros
        for t in ("a", "b"):                                                     # UG's bonuses, per topic
            m = topics == t
            assert sorted(np.round(pl[m] - raw[m], 12)) == sorted(bonus[m])
        seen.add(tuple(np.round(pl - raw, 12)))
    assert len(seen) > 3     # the bonuses move between items (topic a: 3! orders, topic b: 2)
    assert len(seen) <= 12
    with pytest.raises(ValueError, match="exactly where raw"):
        unanimity.placebo_gain(raw, raw + 1.0, topics, np.random.default_rng(0))
    with pytest.raises(ValueError, match="one length"):
        unanimity.placebo_gain(raw, raw, topics[:3], np.random.default_rng(0))


def _toy():
    rng = np.random.default_rng(3)
    topics = [f"q{i}" for i in range(12)]
    qrels = pd.DataFrame([(q, f"d{j}", j % 3) for q in topics for j in range(8)],
                         columns=["query_id", "doc_id", "relevance"])
    rows = [(f"r{k}", q, f"d{j}", rank + 1) for k in range(6) for q in topics
            for rank, j in enumerate(rng.permutation(8)[:5])]
    run = pd.DataFrame(rows, columns=["run_id", "query_id", "doc_id", "rank"])
    return qrels, run


def test_the_placebo_leaves_every_other_number_unchanged():
    qrels, run = _toy()
    ratings = [np.random.default_rng(s).integers(0, 3, size=(len(qrels), 3)).astype(float) for s in (1, 2)]
    args = (qrels, run, [(r, 2) for r in ratings], 0.2, ["nG@1", "P+"], [f"r{k}" for k in range(6)], 200, 0.2)
    plain = unanimity.compare_gains_many(*args, np.random.default_rng(7))
    rng = np.random.default_rng(7)
    with_pl = unanimity.compare_gains_many(*args, rng, placebo_rng=np.random.default_rng(9), placebo_for=[True, False])
    for a, b in zip(plain, with_pl):
        for key in ("tau", "discrepancies", "significant"):
            pd.testing.assert_frame_equal(a[key], b[key])
    assert "placebo" in with_pl[0] and "placebo" not in with_pl[1]
    assert list(with_pl[0]["placebo"].columns) == ["measure", "discrepancies", "significant", "tau"]
    # the placebo's τ is Kendall's τ between the runs' mean RawG and mean placebo scores of the same draw
    sc = with_pl[0]["scores"]
    for m, t in zip(with_pl[0]["placebo"]["measure"], with_pl[0]["placebo"]["tau"]):
        expect = kendalltau(sc[("RawG", m)].mean(), sc[("Placebo", m)].mean()[sc[("RawG", m)].columns]).statistic
        assert np.isclose(t, expect)
    # the placebo is tested on the same permutations: placebo scores equal to RawG's give no discrepancy
    same = unanimity.compare_gains_many(qrels, run, [(ratings[0], 2)], 0.0, ["nG@1"], [f"r{k}" for k in range(6)],
                                        200, 0.2, np.random.default_rng(7), placebo_rng=np.random.default_rng(9))
    assert same[0]["placebo"]["discrepancies"].tolist() == [0] and same[0]["placebo"]["tau"].tolist() == [1.0]
    with pytest.raises(ValueError, match="one bool per variant"):
        unanimity.compare_gains_many(*args, np.random.default_rng(7), placebo_rng=rng, placebo_for=[True])


def test_unanimity_grid_with_placebo_keeps_its_other_columns():
    qrels, run = _toy()
    cells = [{"d_max": 2, "n": 3}, {"d_max": 2, "n": 10}]
    kw = dict(qrels=qrels, run=run, cells=cells, p=0.2, measures=["nG@1"], hsd_runs=[f"r{k}" for k in range(6)],
              B=200, alpha=0.2, threshold=1)
    plain = study.unanimity_grid(np.random.default_rng(np.random.SeedSequence(4)), **kw)
    some = study.unanimity_grid(np.random.default_rng(np.random.SeedSequence(4)), placebo=[(2, 3)], **kw)
    pd.testing.assert_frame_equal(plain, some.drop(columns=["placebo_discrepancies", "placebo_tau"]))
    assert some["placebo_discrepancies"].notna().tolist() == [True, False]
    assert some["placebo_tau"].notna().tolist() == [True, False] and some["placebo_tau"].iloc[0] <= 1
    every = study.unanimity_grid(np.random.default_rng(np.random.SeedSequence(4)), placebo=True, **kw)
    assert every["placebo_discrepancies"].notna().all()


def test_placebo_cells_and_their_words():
    cells = [{"d_max": d, "n": n} for d in (2, 4) for n in (80, 5, 10, 20)]
    assert P.placebo_cells(cells, "small_n") == [(2, 5), (2, 10), (4, 5), (4, 10)]
    assert len(P.placebo_cells(cells, "all")) == 8
    assert P.scope_text(P.placebo_cells(cells, "small_n"), cells) == "the 4 cells with N ≤ 10"
    assert P.scope_text(P.placebo_cells(cells, "all"), cells) == "all 8 cells"
    one = [{"d_max": 2, "n": 5}]
    assert P.scope_text(P.placebo_cells(one, "all"), one) == "the one cell"   # never "all 1 cells"
    with pytest.raises(ValueError, match="placebo_cells"):
        P.placebo_cells(cells, "some")


def _rep(ug, placebo):
    r = len(ug)
    return pd.DataFrame({"replicate": np.arange(r), "measure": "nG@1", "d_max": 2, "n": 5,
                         "discrepancies": ug, "placebo_discrepancies": placebo})


def test_compare_reads_the_ci_of_the_mean_difference():
    rng = np.random.default_rng(0)
    ug = rng.integers(0, 6, 40)
    more = P.compare(_rep(ug + 2, ug), ["nG@1"])
    assert more["verdict"] == "shown" and more["diff"] == 2.0 and more["low"] == more["high"] == 2.0
    same = P.compare(_rep(ug, rng.permutation(ug)), ["nG@1"])
    assert same["verdict"] == "not shown" and same["low"] < 0 < same["high"]
    # literal: differences 1, 0, -1, 2 repeated: mean 0.5, sd sqrt(50/39) = 1.1323, se 0.1790, t(39) 2.0227
    # -> CI 0.5 -+ 0.3621
    d = np.tile([1, 0, -1, 2], 10)
    c = P.compare(_rep(d + 3, np.full(40, 3)), ["nG@1"])
    assert round(c["low"], 4) == 0.1379 and round(c["high"], 4) == 0.8621 and c["verdict"] == "shown"
    fewer = P.compare(_rep(ug, ug + 1), ["nG@1"])
    assert fewer["verdict"] == "does not hold"
    few = P.compare(_rep(ug[:10] + 2, ug[:10]), ["nG@1"])
    assert few["verdict"] == "cannot tell" and np.isnan(few["low"])
    none = P.compare(_rep(np.zeros(40, int), np.zeros(40, int)), ["nG@1"])
    assert none["verdict"] == "cannot tell"
    assert P.compare(_rep(ug, ug).drop(columns="placebo_discrepancies"), ["nG@1"]) is None
    assert P.compare(_rep(ug, ug), ["P+"]) is None


def test_single_draw_sums_the_tested_variants():
    res = [{"discrepancies": pd.DataFrame({"measure": ["nG@1", "AP", "nG@1"]}),
            "tau": pd.DataFrame({"measure": ["nG@1", "AP"], "tau": [0.98, 0.9]}),
            "placebo": pd.DataFrame({"measure": ["nG@1", "AP"], "discrepancies": [4, 9], "tau": [1.0, 0.9]})},
           {"discrepancies": pd.DataFrame({"measure": ["nG@1"]}), "tau": pd.DataFrame({"measure": ["nG@1"], "tau": [0.9]})}]
    assert P.single_draw(res, ["nG@1"]) == {"ug": 2, "placebo": 4, "cells": 1, "tau_below_ug": 1,
                                            "tau_below_placebo": 0, "tau_pairs": 1}
    assert P.single_draw(res, ["nG@1", "AP"])["tau_below_placebo"] == 1


def test_placebo_gain_of_ug_from_ratings_keeps_ugs_support():
    ratings = np.random.default_rng(5).integers(0, 3, size=(50, 5)).astype(float)
    raw, ug = gains.raw_gain(ratings, 2), gains.unanimity_aware_gain(ratings, 2, 0.2)
    pl = unanimity.placebo_gain(raw, ug, np.repeat(np.arange(5), 10), np.random.default_rng(1))
    assert ((pl > 0) == (ug > 0)).all() and np.isclose(pl.sum(), ug.sum())


def _rep_tau(ug, placebo, n=5):
    r = len(ug)
    return pd.DataFrame({"replicate": np.arange(r), "measure": "nG@1", "d_max": 2, "n": n, "tau": ug,
                         "placebo_tau": placebo})


def test_compare_tau_reads_the_ci_of_the_mean_difference_of_tau():
    # literal: τ(UG) - τ(placebo) = -0.01, 0, +0.01, -0.02 repeated: mean -0.005, CI -0.005 -+ 0.003621
    d = np.tile([-0.01, 0.0, 0.01, -0.02], 10)
    c = P.compare_tau(_rep_tau(0.98 + d, np.full(40, 0.98)), ["nG@1"])
    assert round(c["diff"], 6) == -0.005 and round(c["low"], 6) == -0.008621 and round(c["high"], 6) == -0.001379
    assert c["verdict"] == "shown" and c["replicates"] == 40 and c["cells"] == 1     # UG's τ lower: it reorders more
    assert round(c["ug"], 4) == 0.975 and round(c["placebo"], 4) == 0.98
    assert c["every_ug"] == 1 and c["every_placebo"] == 1 and c["pairs"] == 1
    assert P.compare_tau(_rep_tau(np.full(40, 0.98), 0.98 + d), ["nG@1"])["verdict"] == "does not hold"
    rng = np.random.default_rng(0)
    t = 0.97 + rng.random(40) / 50
    assert P.compare_tau(_rep_tau(t, rng.permutation(t)), ["nG@1"])["verdict"] == "not shown"
    # τ < 1 in every replicate for UG, not for the placebo (one replicate ties RawG's ranking)
    pl = np.full(40, 0.99)
    pl[3] = 1.0
    assert P.compare_tau(_rep_tau(np.full(40, 0.99), pl), ["nG@1"])["every_placebo"] == 0
    few = P.compare_tau(_rep_tau(np.full(10, 0.97), np.full(10, 0.99)), ["nG@1"])
    assert few["verdict"] == "cannot tell" and np.isnan(few["low"])
    assert P.compare_tau(_rep_tau(np.ones(40), np.ones(40)), ["nG@1"])["verdict"] == "cannot tell"
    # cells without the placebo (NaN) are left out; no placebo column or no graded row: None
    both = pd.concat([_rep_tau(0.98 + d, np.full(40, 0.98)), _rep_tau(np.full(40, 0.5), np.nan, n=80)])
    assert P.compare_tau(both, ["nG@1"])["diff"] == c["diff"]
    assert P.compare_tau(_rep_tau(d, d).drop(columns="placebo_tau"), ["nG@1"]) is None
    assert P.compare_tau(_rep_tau(d, d), ["P+"]) is None


def test_the_two_placebo_comparisons_are_one_holm_family():
    # p 0.03 (calls) and 0.04 (τ): each 95% CI excludes 0, but Holm over the 2 gives 0.06 and 0.06: neither shown
    calls = {"diff": 1.0, "p": 0.03, "verdict": "shown"}
    tau = {"diff": -0.001, "p": 0.04, "verdict": "shown"}
    c, t = P.holm_family(calls, tau)
    assert (round(c["p_holm"], 4), round(t["p_holm"], 4)) == (0.06, 0.06) and c["family"] == t["family"] == 2
    assert c["verdict"] == t["verdict"] == "not shown" and calls["verdict"] == "shown"   # inputs untouched
    # p 0.01 and 0.04: Holm gives 0.02 and 0.04, both below 0.05; the sign sets the direction
    c, t = P.holm_family({**calls, "p": 0.01, "diff": -1.0}, {**tau, "p": 0.04})
    assert (round(c["p_holm"], 4), round(t["p_holm"], 4)) == (0.02, 0.04)
    assert (c["verdict"], t["verdict"]) == ("does not hold", "shown")
    # a "cannot tell" stays, and one comparison alone is a family of 1
    c, t = P.holm_family({**calls, "p": float("nan"), "verdict": "cannot tell"}, {**tau, "p": 0.04})
    assert c["verdict"] == "cannot tell" and t["family"] == 1 and t["p_holm"] == 0.04 and t["verdict"] == "shown"
    assert P.holm_family(None, None) == (None, None)


def test_placebo_p_is_the_t_test_its_interval_inverts():
    from scipy import stats

    d = np.array([1.0, -1.0, 2.0, 0.0, 3.0] * 8)
    assert P._p(d, 40) == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue)
    assert np.isnan(P._p(d[:39], 40)) and P._p(np.zeros(40), 40) == 1.0 and P._p(np.ones(40), 40) == 0.0
