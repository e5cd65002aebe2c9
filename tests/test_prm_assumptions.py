"""The PRM's assumptions and what notebook 03 reads of them: Eq. 4 against Eq. 5 and Eq. 4 the other
way (Demeester et al. 2016, Table 1 by hand), the paired bootstrap against linear gains and with
gains conditioned on U2's level, the simulated lenient U2, and the per-replicate values the
findings rows read (helpers.prm, helpers.simulate.judgments, helpers.replicates.prm)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import prm
from helpers.replicates import prm as rprm
from helpers.simulate import judgments

TABLE1_U1 = [2, 2, 1, 0, 1, 1, 0, 1, 2, 1, 1, 1, 2, 0, 1, 0, 1, 1, 0, 0]
TABLE1_U2 = [1, 2, 1, 1, 2, 0, 0, 1, 2, 2, 0, 2, 1, 0, 1, 2, 0, 1, 0, 0]


@pytest.fixture
def table1() -> pd.DataFrame:
    return pd.DataFrame({"query_id": "q1", "doc_id": [f"d{i}" for i in range(1, 21)], "u1": TABLE1_U1,
                         "u2": TABLE1_U2})


@pytest.fixture(scope="module")
def sim():
    return judgments.double_judgments(np.random.default_rng(5), n_topics=12, n_docs=50, n_runs=6, depth=10)


# -- Eq. 4 and Eq. 5 (Table 1 of the paper, theta = 2) -----------------------------------------------
def test_estimator_gap_on_table1(table1):
    g = prm.estimator_gap(table1, 2, T=2).set_index("level")
    # Eq. 4: 1/6, 3/10, 2/4; Eq. 5: 1/13, 5/17, 4/10; Eq. 4's sigma sqrt(p (1 - p) / N_D)
    assert [round(v, 4) for v in g["gap"]] == [0.0897, 0.0059, 0.1]
    assert [round(v, 4) for v in g["z"]] == [0.5899, 0.0406, 0.4]


def test_reversed_estimate_on_table1(table1):
    # U1's verdict given U2's level: (Eq. 5's counts minus Eq. 4's): 0/7, 2/7, 2/6
    r = prm.reversed_estimate(table1, 2, T=2)
    assert [(int(a), int(b)) for a, b in zip(r["numerator"], r["denominator"])] == [(0, 7), (2, 7), (2, 6)]
    assert [round(v, 4) for v in r["p"]] == [0.0, 0.2857, 0.3333]
    # with the two assessors equal, both directions agree and Eq. 4 equals Eq. 5
    same = table1.assign(u2=table1["u1"])
    assert prm.estimator_gap(same, 2, T=2)["gap"].max() == 0


# -- Table 6's paired bootstrap --------------------------------------------------------------------
def test_paired_bootstrap_holds_the_observed_taus_and_the_old_difference(sim):
    q1, q2, runs = sim.qrels_u1, sim.qrels_u2, sim.runs
    pairs = prm.pairs_from_qrels(q1, q2)
    p3 = prm.estimate(pairs, threshold=3, method="eq4", T=3).set_index("level")["p"]
    d = prm.paired_bootstrap(q1, q2, runs, p3, 3, 3, k=5, B=40, rng=np.random.default_rng(1))
    assert list(d.columns) == ["draw", "tau_binary", "tau_prm", "tau_linear"] and len(d) == 41
    t6, _ = prm.robustness_tables(q1, q2, runs, {3: p3}, [3], 3, k=5, table7=False)
    obs = t6.set_index("gains")["tau"]
    assert d.iloc[0][["tau_binary", "tau_prm", "tau_linear"]].tolist() == pytest.approx(
        [obs["binary, theta=3"], obs["PRM, theta=3"], obs["linear"]])
    old = prm.robustness_difference(q1, q2, runs, p3, 3, 3, k=5, B=40, rng=np.random.default_rng(1))
    np.testing.assert_array_equal(old, (d["tau_prm"] - d["tau_binary"]).to_numpy()[1:])
    # the same gains passed for U2 change nothing; U2's own-level gains change only the PRM column
    same = prm.paired_bootstrap(q1, q2, runs, p3, 3, 3, k=5, B=40, rng=np.random.default_rng(1), p_gain_u2=p3)
    pd.testing.assert_frame_equal(same, d)
    rev = prm.reversed_estimate(pairs, 3, T=3).set_index("level")["p"]
    own = prm.paired_bootstrap(q1, q2, runs, p3, 3, 3, k=5, B=40, rng=np.random.default_rng(1), p_gain_u2=rev)
    pd.testing.assert_frame_equal(own[["tau_binary", "tau_linear"]], d[["tau_binary", "tau_linear"]])


def test_both_sides_equals_two_scorers(sim):
    qa, qb, runs = prm.robustness.same_items(sim.qrels_u1, sim.qrels_u2, sim.runs)
    schemes = [prm.binary_gains(2, 3), {0: 0.02, 1: 0.2, 2: 0.6, 3: 0.9}]
    ma, mb = prm.both_sides(qa, qb, runs, schemes, schemes, "MSnDCG@5")
    for got, q in ((ma, qa), (mb, qb)):
        for g, ref in zip(got, prm.scheme_matrices(q, runs, schemes, "MSnDCG@5")):
            np.testing.assert_array_equal(g.to_numpy(), ref.reindex(index=g.index, columns=g.columns).to_numpy())
    with pytest.raises(ValueError, match="same items in the same order"):
        prm.both_sides(qa, qb.iloc[::-1], runs, schemes, schemes, "MSnDCG@5")


def test_crossfit_in_sample_rows_are_table6_and_draw_nothing(sim):
    q1, q2, runs = sim.qrels_u1, sim.qrels_u2, sim.runs
    kw = dict(method="eq5", k=5, splits=2, B=5)
    plain = prm.crossfit_robustness(q1, q2, runs, [3, 1], 3, rng=np.random.default_rng(4), **kw)
    both = prm.crossfit_robustness(q1, q2, runs, [3, 1], 3, rng=np.random.default_rng(4), in_sample=True, **kw)
    pd.testing.assert_frame_equal(both[both["kind"] != "in sample"].reset_index(drop=True), plain)
    pairs = prm.pairs_from_qrels(q1, q2)
    p_gain = {th: prm.estimate(pairs, threshold=th, method="eq5", T=3).set_index("level")["p"] for th in (3, 1)}
    t6 = prm.robustness_tables(q1, q2, runs, p_gain, [3, 1], 3, k=5, table7=False)[0].set_index("gains")["tau"]
    ins = both[both["kind"] == "in sample"].set_index("theta")
    for th in (3, 1):
        assert ins.loc[th, "tau_prm"] == pytest.approx(t6[f"PRM, theta={th}"], abs=1e-12)
        assert ins.loc[th, "tau_binary"] == pytest.approx(t6[f"binary, theta={th}"], abs=1e-12)


# -- the simulation: exchangeable assessors, or a lenient U2 ------------------------------------------
def test_lenient_u2_moves_u2_only_and_breaks_eq4_equals_eq5():
    kw = dict(n_topics=40, n_docs=200, n_runs=3, depth=5)
    base = judgments.double_judgments(np.random.default_rng(8), **kw)
    zero = judgments.double_judgments(np.random.default_rng(8), u2_lenience=0.0, lenience_sd=0.0, **kw)
    pd.testing.assert_frame_equal(base.pairs, zero.pairs)            # the default draws are the exchangeable model's
    lenient = judgments.double_judgments(np.random.default_rng(8), u2_lenience=1.5, **kw)
    pd.testing.assert_frame_equal(lenient.latent, base.latent)      # the shift draws nothing without an sd
    np.testing.assert_array_equal(lenient.qrels_u1["relevance"], base.qrels_u1["relevance"])
    assert (lenient.pairs["u2"] == 3).mean() > 1.5 * (lenient.pairs["u1"] == 3).mean()
    assert prm.estimator_gap(lenient.pairs, 3, T=3)["z"].max() > 4
    by_topic = judgments.double_judgments(np.random.default_rng(8), u2_lenience=0.0, lenience_sd=1.0, **kw)
    pd.testing.assert_frame_equal(by_topic.latent, base.latent)

    def spread(p):   # how far U2's mean level lies above U1's, topic to topic
        return p.assign(gap=p["u2"] - p["u1"]).groupby("query_id")["gap"].mean().std()
    assert spread(by_topic.pairs) > 3 * spread(base.pairs)
    with pytest.raises(ValueError, match="lenience_sd >= 0"):
        judgments.double_judgments(np.random.default_rng(8), lenience_sd=-1.0, **kw)


def test_udm_vs_prm_counts_as_estimate_does(table1):
    """The vectorised repetitions give prm.estimate's values on the same coin flips."""
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    got = judgments.udm_vs_prm(table1, rng_a, T=2, method="eq4", reps=5)
    est = []
    for _ in range(5):
        flipped = table1.assign(u1=judgments.confuse_top_levels(table1["u1"].to_numpy(), rng_b, T=2),
                                u2=judgments.confuse_top_levels(table1["u2"].to_numpy(), rng_b, T=2))
        est.append(prm.estimate(flipped, threshold=2, method="eq4", T=2)["p"].to_numpy())
    np.testing.assert_array_equal(got["p"], np.nanmean(np.array(est), axis=0))


# -- what the replicates and the draws carry ------------------------------------------------------------
def test_replicate_details_and_stress_come_after_the_tables():
    kw = dict(n_topics=8, n_docs=40, n_runs=5, k=5, k_table7=10, method="eq5", splits=2)
    plain = rprm.prm_robustness(np.random.default_rng(2), **kw)
    full = rprm.prm_robustness(np.random.default_rng(2), details=True, B=20, udm_reps=3, u2_lenience=1.0,
                               lenience_sd=0.5, **kw)
    pd.testing.assert_frame_equal(full.iloc[:len(plain)].reset_index(drop=True), plain)
    extra = full.iloc[len(plain):]
    assert list(dict.fromkeys(extra["table"])) == ["p", "eq", "5", "fig2", "udm", *rprm.STRESS]
    assert len(extra[extra["table"] == "p"]) == 12 and extra.loc[extra["table"] == "fig2", "tau"].iloc[0] > 0
    stress = set(extra.loc[extra["table"] == "stress 6", "comparison"])
    assert {"binary, theta=Key", "PRM, theta=Key", "PRM cross-fitted, theta=Rel"} <= stress


def test_simulated_reduces_the_stress_collections_and_linear_gains():
    s = rprm.simulated(3, 11, tested=[3, 1], names=list(judgments.LEVEL_NAMES), n_topics=6, n_docs=30, n_runs=4,
                       k=5, k_table7=10, method="eq5", splits=2, details=True, B=10, udm_reps=2, u2_lenience=1.0)
    assert set(s.diffs) == {"in sample", "cross-fitted", "vs linear", "linear vs binary"}
    assert set(s.stress["diffs"]) == set(rprm.STRESS_ANALYSES)
    wide = s.rep[s.rep["table"] == "6"].pivot_table(index="replicate", columns="comparison", values="tau")
    np.testing.assert_allclose(s.diffs["vs linear"][3], (wide["PRM, theta=Key"] - wide["linear"]).to_numpy())
    # linear gains on the stress collections: PRM - linear is the comparison not built in
    ws = s.rep[s.rep["table"] == "stress 6"].pivot_table(index="replicate", columns="comparison", values="tau")
    np.testing.assert_allclose(s.stress["diffs"]["cross-fitted vs linear"][3],
                               (ws["PRM cross-fitted, theta=Key"] - ws["linear"]).to_numpy())
    np.testing.assert_allclose(s.stress["diffs"]["linear vs binary"][1], (ws["linear"] - ws["binary, theta=Rel"]).to_numpy())
    d = (wide["PRM, theta=Key"] - wide["binary, theta=Key"]).to_numpy()
    assert (s.wins[3], s.losses[3], s.defined[3]) == ((d > 0).sum(), (d < 0).sum(), np.isfinite(d).sum())
    assert rprm.simulated(2, 11, tested=[3], names=list(judgments.LEVEL_NAMES), n_topics=6, n_docs=30, n_runs=4,
                          k=5, k_table7=10, method="eq5").stress == {}


def test_u2_draw_details_add_rows_and_change_none():
    q1 = pd.DataFrame({"query_id": np.repeat(["a", "b", "c"], 20), "doc_id": [f"d{i}" for i in range(60)],
                       "relevance": np.tile([0, 1, 2, 3], 15)})
    rng = np.random.default_rng(0)
    ratings = pd.concat([q1.rename(columns={"relevance": "rating"}).assign(
        assessor=a, rating=np.clip(q1["relevance"] + rng.integers(-1, 2, 60), 0, 3)) for a in ("A1", "A2")])
    runs = pd.concat([pd.DataFrame({"run_id": f"r{r}", "query_id": t, "doc_id": rng.permutation(
        q1.loc[q1["query_id"] == t, "doc_id"].to_numpy())[:8], "rank": np.arange(1, 9)}) for r in range(4)
        for t in "abc"], ignore_index=True)
    kw = dict(qrels_u1=q1, ratings=ratings, thresholds=[3, 2], T=3, method="eq4", runs=runs, k=5, k_table7=8, B=6,
              udm_reps=2, splits=2)
    plain = rprm.prm_u2_draw(np.random.default_rng(4), **kw)
    full = rprm.prm_u2_draw(np.random.default_rng(4), details=True, **kw)
    new = {"eq_gap", "eq_z", "eq_marginals", "table7_low", "table7_high", "lin_diff_boot", "tau_own", "own_diff_boot"}
    assert set(full["quantity"]) - set(plain["quantity"]) == new
    pd.testing.assert_frame_equal(full[~full["quantity"].isin(new)].reset_index(drop=True), plain)
    assert (full["quantity"] == "own_diff_boot").sum() == 2 * 6 and (full["quantity"] == "lin_diff_boot").sum() == 12
    eq5 = rprm.prm_u2_draw(np.random.default_rng(4), details=True, **{**kw, "method": "eq5"})
    assert "tau_own" not in set(eq5["quantity"])                   # Eq. 5 is one set of gains for both

    # over draws: linear - binary is (PRM - binary) - (PRM - linear) on the same pooled resamples
    kw.pop("B"), kw.pop("udm_reps")
    d = rprm.draws(3, 7, mine={th: {i: 0.5 for i in range(4)} for th in (3, 2)}, names=["0", "1", "2", "3"], B=6,
                   udm_reps=0, details=True, tau_level=0.95, **kw)
    rep = d.rep
    for th in (3, 2):
        prm_bin = rep.loc[(rep["quantity"] == "tau_diff_boot") & (rep["theta"] == th), "value"].to_numpy()
        prm_lin = rep.loc[(rep["quantity"] == "lin_diff_boot") & (rep["theta"] == th), "value"].to_numpy()
        np.testing.assert_allclose(d.pooled["linear vs binary"][th], prm_bin - prm_lin)
        assert d.p["linear vs binary"][th] == prm.bootstrap_p(prm_bin - prm_lin) and len(prm_bin) == 3 * 6
        t6 = d.table6.set_index("gains")["mean"]
        assert d.means["linear vs binary"][th] == (t6["linear"], t6[f"binary, theta={th}"])


# -- the condition of Eq. 4 = Eq. 5: equal marginals, a symmetric joint table --------------------
def _pairs(u1, u2):
    return pd.DataFrame({"query_id": "q", "doc_id": [f"d{i}" for i in range(len(u1))], "u1": u1, "u2": u2})


def test_marginal_tests_by_hand():
    """Table 1 of the paper: n = [[4, 1, 1], [3, 4, 3], [0, 2, 2]] (rows U1 0..2, columns U2)."""
    t1 = _pairs([2, 2, 1, 0, 1, 1, 0, 1, 2, 1, 1, 1, 2, 0, 1, 0, 1, 1, 0, 0],
                [1, 2, 1, 1, 2, 0, 0, 1, 2, 2, 0, 2, 1, 0, 1, 2, 0, 1, 0, 0])
    n = pd.crosstab(t1["u1"], t1["u2"]).to_numpy()
    assert n.tolist() == [[4, 1, 1], [3, 4, 3], [0, 2, 2]]
    got = prm.marginal_tests(t1, T=2)
    # Bowker: (0,1) 1 vs 3 -> 16/4; (0,2) 1 vs 0 -> 1/1; (1,2) 3 vs 2 -> 1/5; 3 pairs
    assert round(got["bowker"]["stat"], 4) == 2.2 and got["bowker"]["df"] == 3
    # Stuart-Maxwell: d = (6 - 7, 10 - 7), S = [[5, -4], [-4, 9]] -> d' S^-1 d = 30/29
    assert round(got["stuart_maxwell"]["stat"], 4) == 1.0345 and got["stuart_maxwell"]["df"] == 2
    assert round(got["stuart_maxwell"]["p"], 4) == round(float(np.exp(-30 / 29 / 2)), 4)   # chi2(2) sf = exp(-x/2)
    assert got["u1_share"].round(2).tolist() == [0.3, 0.5, 0.2] and got["u2_share"].round(2).tolist() == [0.35, 0.35, 0.3]


def test_marginal_tests_match_statsmodels():
    from statsmodels.stats.contingency_tables import SquareTable

    rng = np.random.default_rng(3)
    u1 = rng.integers(0, 4, 500)
    u2 = np.clip(u1 + rng.integers(-1, 3, 500), 0, 3)      # U2 the more lenient
    got = prm.marginal_tests(_pairs(u1, u2), T=3)
    table = pd.crosstab(u1, u2).reindex(index=range(4), columns=range(4), fill_value=0).to_numpy()
    ref = SquareTable(table, shift_zeros=False)
    h, s = ref.homogeneity(), ref.symmetry()
    assert np.isclose(got["stuart_maxwell"]["stat"], h.statistic) and np.isclose(got["stuart_maxwell"]["p"], h.pvalue)
    assert np.isclose(got["bowker"]["stat"], s.statistic)
    assert got["stuart_maxwell"]["p"] < 1e-6                     # the lenient U2 is found


def test_marginal_tests_on_the_simulation():
    """Exchangeable assessors keep equal marginals; a lenient U2 does not."""
    same = judgments.double_judgments(np.random.default_rng(5), n_topics=20, n_docs=100, n_runs=3)
    lenient = judgments.double_judgments(np.random.default_rng(5), n_topics=20, n_docs=100, n_runs=3, u2_lenience=1.0,
                                         lenience_sd=0.5)
    p_same = prm.marginal_tests(prm.pairs_from_qrels(same.qrels_u1, same.qrels_u2), T=3)["stuart_maxwell"]["p"]
    p_len = prm.marginal_tests(prm.pairs_from_qrels(lenient.qrels_u1, lenient.qrels_u2), T=3)["stuart_maxwell"]["p"]
    assert p_same > 0.01 and p_len < 1e-6


def test_marginal_tests_identical_labels_and_bad_input():
    got = prm.marginal_tests(_pairs([0, 1, 2, 2], [0, 1, 2, 2]), T=2)
    assert got["stuart_maxwell"]["df"] == 0 and np.isnan(got["stuart_maxwell"]["p"])
    assert got["bowker"]["df"] == 0 and np.isnan(got["bowker"]["p"])
    with pytest.raises(ValueError, match="outside 0..2"):
        prm.marginal_tests(_pairs([0, 3], [0, 1]), T=2)
