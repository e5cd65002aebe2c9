"""Cross-fitted PRM gains for Table 6 (helpers.prm.crossfit) and the replicated studies of notebook 03
(helpers.replicates.prm): exact MSnDCG per level against the engine, literal ideal lists, the fold
estimates, and the properties that make the test honest."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from helpers import prm
from helpers.prm import crossfit as cf
from helpers.replicates import prm as rprm
from helpers.replicates import studies
from helpers.simulate import judgments


@pytest.fixture(scope="module")
def sim():
    return judgments.double_judgments(np.random.default_rng(3), n_topics=16, n_docs=40, n_runs=6, depth=10)


def _same(sim):
    return prm.robustness.same_items(sim.qrels_u1, sim.qrels_u2, sim.runs)


@pytest.mark.parametrize("gains", [{0: 0.01, 1: 0.2, 2: 0.6, 3: 0.9}, {0: 0.3, 1: 0.1, 2: 0.6, 3: 0.5},
                                   {0: 0.0, 1: 0.0, 2: 1.0, 3: 1.0}, {0: 0.0, 1: 0.0, 2: 0.0, 3: 0.0}])
def test_msndcg_per_level_equals_the_engine(sim, gains):
    qa, qb, runs = _same(sim)
    sides = cf.level_counts(qa, [qa["relevance"], qb["relevance"]], runs, 3, 5)
    G = np.broadcast_to(np.array([gains[i] for i in range(4)]), (1, len(sides[0].topics), 4))
    for q, lc in zip((qa, qb), sides):
        ref = prm.scheme_matrices(q, runs, [gains], "MSnDCG@5")[0].reindex(index=lc.topics, columns=lc.runs)
        np.testing.assert_allclose(cf.msndcg(G, lc)[0], ref.to_numpy(), rtol=0, atol=1e-12)


def test_ideal_dcg_literal():
    # gains 0.1, 0.5, 0.9 of levels 0, 1, 2 with 3, 1, 2 items, cut at 3: 0.9 (1 + 1/log2 3) + 0.5 / log2 4
    got = cf.ideal_dcg(np.array([[[0.1, 0.5, 0.9]]]), np.array([[3.0, 1.0, 2.0]]), 3)
    assert round(float(got[0, 0]), 4) == 1.7178
    # a level of gain 0 adds nothing, and the cut at k = 1 keeps the best item only
    assert round(float(cf.ideal_dcg(np.array([[[0.0, 0.5, 0.9]]]), np.array([[3.0, 1.0, 2.0]]), 1)[0, 0]), 4) == 0.9
    assert float(cf.ideal_dcg(np.zeros((1, 1, 3)), np.array([[3.0, 1.0, 2.0]]), 5)[0, 0]) == 0.0
    np.testing.assert_allclose(cf.discounts(3), [0, 1, 1 + 1 / np.log2(3), 1 + 1 / np.log2(3) + 0.5])


def test_fold_gains_come_from_the_other_half():
    # 2 topics, 2 levels; topic 0: num (1, 3) / den (2, 4); topic 1: num (0, 1) / den (4, 2)
    num, den = np.array([[1.0, 3.0], [0.0, 1.0]]), np.array([[2.0, 4.0], [4.0, 2.0]])
    half = np.array([[False, True]])
    G = cf._fold_gains(num, den, np.ones((1, 2)), half)
    np.testing.assert_allclose(G[0, 0], [0 / 4, 1 / 2])      # topic 0 scored with topic 1's estimate
    np.testing.assert_allclose(G[0, 1], [1 / 2, 3 / 4])      # and the reverse
    # a topic drawn twice counts twice; a level the other half never saw gets gain 0
    W = np.array([[2.0, 1.0]])
    G = cf._fold_gains(num, np.array([[2.0, 4.0], [0.0, 2.0]]), W, half)
    np.testing.assert_allclose(G[0, 0], [0.0, 0.5])
    np.testing.assert_allclose(G[0, 1], [2 / 4, 6 / 8])


def _copies_of_one_topic(n_topics: int = 8):
    """Every topic holds the same double judgments: each half estimates the full-data gains."""
    rng = np.random.default_rng(0)
    u1 = rng.integers(0, 4, 40)
    u2 = np.clip(u1 + rng.integers(-1, 2, 40), 0, 3)
    q1, q2, runs = [], [], []
    for t in range(n_topics):
        docs = [f"d{i}" for i in range(40)]
        q1.append(pd.DataFrame({"query_id": f"q{t}", "doc_id": docs, "relevance": u1}))
        q2.append(pd.DataFrame({"query_id": f"q{t}", "doc_id": docs, "relevance": u2}))
        for r in range(5):
            order = rng.permutation(40)[:10]
            runs.append(pd.DataFrame({"run_id": f"r{r}", "query_id": f"q{t}", "doc_id": [docs[i] for i in order],
                                      "rank": np.arange(1, 11)}))
    return pd.concat(q1), pd.concat(q2), pd.concat(runs, ignore_index=True)


@pytest.mark.parametrize("method", ["eq4", "eq5"])
def test_identical_topics_give_the_in_sample_tau(method):
    q1, q2, runs = _copies_of_one_topic()
    pairs = prm.pairs_from_qrels(q1, q2)
    p_gain = {th: prm.estimate(pairs, threshold=th, method=method, T=3).set_index("level")["p"].fillna(0.0)
              for th in (3, 1)}
    t6, _ = prm.robustness_tables(q1, q2, runs, p_gain, [3, 1], 3, k=10, table7=False)
    rows = prm.crossfit_robustness(q1, q2, runs, [3, 1], 3, method=method, k=10, splits=4, rng=np.random.default_rng(1))
    s = prm.crossfit_summary(rows).set_index("theta")
    t6 = t6.set_index("gains")
    for th in (3, 1):
        assert s.loc[th, "tau_prm"] == pytest.approx(t6.loc[f"PRM, theta={th}", "tau"], abs=1e-12)
        assert s.loc[th, "tau_binary"] == pytest.approx(t6.loc[f"binary, theta={th}", "tau"], abs=1e-12)


def test_crossfit_rows_deterministic_and_shaped(sim):
    kw = dict(method="eq5", k=5, splits=3, B=7)
    a = prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, [3, 1], 3, rng=np.random.default_rng(5), **kw)
    b = prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, [3, 1], 3, rng=np.random.default_rng(5), **kw)
    pd.testing.assert_frame_equal(a, b)
    assert a.groupby(["theta", "kind"]).size().to_dict() == {(1, "boot"): 7, (1, "split"): 3, (3, "boot"): 7,
                                                               (3, "split"): 3}
    np.testing.assert_allclose(a["diff"], a["tau_prm"] - a["tau_binary"])
    # the binary tau of the splits does not depend on the split (binary gains need no estimate)
    split = a[a["kind"] == "split"]
    assert split.groupby("theta")["tau_binary"].nunique().max() == 1
    s = prm.crossfit_summary(a)
    assert list(s.columns) == ["theta", "tau_prm", "tau_binary", "diff", "split_low", "split_high", "boot", "p"]
    assert (s["boot"] == 7).all() and ((s["p"] > 0) & (s["p"] <= 1)).all()


def test_crossfit_refuses_bad_input(sim):
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="splits"):
        prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, [3], 3, splits=0, rng=rng)
    with pytest.raises(ValueError, match="method"):
        prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, [3], 3, method="eq6", rng=rng)
    with pytest.raises(ValueError, match="threshold"):
        prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, [4], 3, rng=rng)
    other = sim.qrels_u2.assign(doc_id=lambda f: "x" + f["doc_id"].astype(str))
    with pytest.raises(ValueError, match="no item is judged by both"):
        prm.crossfit_robustness(sim.qrels_u1, other, sim.runs, [3], 3, rng=rng)
    one = sim.qrels_u2[sim.qrels_u2["query_id"] == sim.qrels_u2["query_id"].iloc[0]]
    with pytest.raises(ValueError, match="at least 2 topics"):
        prm.crossfit_robustness(sim.qrels_u1, one, sim.runs, [3], 3, rng=rng)


# -- the replicated studies ------------------------------------------------------------------------
def test_studies_still_export_the_moved_functions():
    assert studies.prm_robustness is rprm.prm_robustness and studies.prm_u2_draw is rprm.prm_u2_draw


def test_u2_draw_cross_fitting_comes_last():
    """Cross-fitting draws after everything else: the rows without it are unchanged."""
    q1, q2, runs = _copies_of_one_topic(6)
    ratings = pd.concat([q2.rename(columns={"relevance": "rating"}).assign(assessor="B"),
                         q2.rename(columns={"relevance": "rating"}).assign(assessor="C",
                                                                         rating=lambda f: np.clip(f["rating"] - 1, 0, 3))])
    kw = dict(qrels_u1=q1, ratings=ratings, thresholds=[3, 2], T=3, method="eq4", runs=runs, k=5, k_table7=10, B=5,
              udm_reps=2)
    before = rprm.prm_u2_draw(np.random.default_rng(9), **kw)
    after = rprm.prm_u2_draw(np.random.default_rng(9), splits=3, **kw)
    pd.testing.assert_frame_equal(after.iloc[:len(before)].reset_index(drop=True), before)
    extra = after.iloc[len(before):]
    assert set(extra["quantity"]) == {"tau_cf", "cf_diff_boot"}
    assert (extra["quantity"] == "cf_diff_boot").sum() == 2 * 5


def test_mean_difference_p_is_the_one_sample_t_test():
    d = np.array([0.1, 0.05, -0.02, 0.08, 0.03, np.nan])
    assert rprm.mean_difference_p(d) == pytest.approx(sps.ttest_1samp(d[:-1], 0.0).pvalue)
    assert np.isnan(rprm.mean_difference_p([0.3]))
    assert rprm.mean_difference_p([0.2, 0.2, 0.2]) == 0.0 and np.isnan(rprm.mean_difference_p([0.0, 0.0]))


def test_simulated_replicates_hold_both_analyses():
    s = rprm.simulated(3, 11, tested=[3, 1], names=list(judgments.LEVEL_NAMES), n_topics=6, n_docs=30, n_runs=4,
                       k=5, k_table7=10, method="eq5", splits=2)
    assert set(s.diffs) == {"in sample", "cross-fitted", "vs linear", "linear vs binary"}
    for a in s.diffs:
        assert set(s.diffs[a]) == {3, 1} and all(len(v) == 3 for v in s.diffs[a].values())
        for th, (mean_prm, mean_bin) in s.means[a].items():
            assert np.nanmean(s.diffs[a][th]) == pytest.approx(mean_prm - mean_bin)
    assert set(s.summary["comparison"]) >= {"PRM cross-fitted, theta=Key", "PRM cross-fitted, theta=Rel"}
    assert all(0 <= w <= 3 for w in s.wins.values())
