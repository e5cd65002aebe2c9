"""helpers.unanimity: the analysis steps of notebook 02 (Sakai 2017, Tables 2 and 3)."""

import numpy as np
import pandas as pd
import pytest

from helpers import gains, unanimity
from helpers.simulate import ratings as sim


def test_team_of_run_rule_and_overrides():
    runs = ["ICT-BERT2", "ICT-CKNRM_B", "TUW19-p1-f", "UNH_bm25", "runid2", "runid5", "bm25base_p",
            "bm25tuned_rm3_p", "test1", "srchvrs_ps_run1"]
    teams = unanimity.team_of_run(runs, {"bm25base": "anserini", "bm25tuned": "anserini"})
    assert teams == {"ICT-BERT2": "ICT", "ICT-CKNRM_B": "ICT", "TUW19-p1-f": "TUW", "UNH_bm25": "UNH",
                     "runid2": "runid", "runid5": "runid", "bm25base_p": "anserini",
                     "bm25tuned_rm3_p": "anserini", "test1": "test", "srchvrs_ps_run1": "srchvrs"}
    # a name made of digits only keeps them rather than becoming empty
    assert unanimity.team_of_run(["42-x"]) == {"42-x": "42"}


def test_team_of_run_bad_input():
    with pytest.raises(ValueError, match="non-empty strings"):
        unanimity.team_of_run(["ok", ""])


def _run():
    return pd.DataFrame({"run_id": ["A"] * 4 + ["B"] * 3,
                         "query_id": ["1", "1", "1", "2", "1", "1", "2"],
                         "doc_id": ["x", "y", "z", "u", "y", "w", "u"],
                         "rank": [3, 1, 2, 1, 1, 2, 1]})


def test_top_k_orders_by_rank_and_renumbers():
    out = unanimity.top_k(_run(), 2)
    a1 = out[(out.run_id == "A") & (out.query_id == "1")]
    assert a1["doc_id"].tolist() == ["y", "z"] and a1["rank"].tolist() == [1, 2]
    assert len(out) == 6  # A/1: 2, A/2: 1, B/1: 2, B/2: 1


def test_condense_drops_unjudged_before_cutting():
    qrels = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["x", "w", "u"], "relevance": [1, 0, 2]})
    out = unanimity.condense(_run(), qrels, 1)
    # A/1 ranks y (unjudged), z (unjudged), x: condensed list starts at x
    assert out.set_index(["run_id", "query_id"])["doc_id"].to_dict() == {
        ("A", "1"): "x", ("A", "2"): "u", ("B", "1"): "w", ("B", "2"): "u"}
    assert (out["rank"] == 1).all()


@pytest.mark.parametrize("depth", [0, 1.5, True])
def test_depth_must_be_positive_int(depth):
    with pytest.raises(ValueError, match="depth"):
        unanimity.top_k(_run(), depth)


def test_run_columns_checked():
    with pytest.raises(ValueError, match="columns"):
        unanimity.top_k(_run().drop(columns="rank"), 3)
    with pytest.raises(ValueError, match="qrels need"):
        unanimity.condense(_run(), pd.DataFrame({"doc_id": ["x"]}))


def test_best_run_per_team():
    scores = pd.DataFrame({"a1": [0.1, 0.3], "a2": [0.4, 0.4], "b1": [0.9, 0.1], "c1": [0.0, 0.0]})
    best = unanimity.best_run_per_team(scores, {"a1": "A", "a2": "A", "b1": "B", "c1": "C"})
    assert best == ["a2", "b1", "c1"]
    with pytest.raises(ValueError, match="no team"):
        unanimity.best_run_per_team(scores, {"a1": "A"})


def test_gain_qrels_checks_length():
    q = pd.DataFrame({"query_id": ["1"], "doc_id": ["x"], "relevance": [1]})
    assert unanimity.gain_qrels(q, [2.5])["gain"].tolist() == [2.5]
    with pytest.raises(ValueError, match="one value per qrels row"):
        unanimity.gain_qrels(q, [1.0, 2.0])


@pytest.fixture(scope="module")
def small():
    c = sim.stc_like_collection(np.random.default_rng(3), n_topics=30, team_sizes=(2, 2, 1, 1, 1))
    run = unanimity.top_k(c.run, 10)
    best = unanimity.best_run_per_team(
        pd.DataFrame({r: [q] for r, q in c.quality.items()}), c.teams)
    return c, run, best


def test_compare_gains_identical_gains_give_tau_one_and_no_discrepancy(small):
    c, run, best = small
    # every relevant item is rated (0, Dmax, L, L): D = Dmax, so UG = RawG item by item
    level = c.qrels["relevance"].to_numpy().astype(float)
    r = np.stack([0 * level, 2.0 * (level > 0), level, level], axis=1)
    assert np.array_equal(gains.unanimity_aware_gain(r, 2, 0.2), gains.raw_gain(r))
    out = unanimity.compare_gains(c.qrels, run, r, 2, 0.2, ["nG@1", "P+", "nERR@10"], best, 200, 0.05,
                                  np.random.default_rng(0))
    assert np.allclose(out["tau"][["tau", "low", "high"]].to_numpy(), 1.0)
    assert out["discrepancies"].empty
    assert (out["significant"]["RawG"] == out["significant"]["UG"]).all()
    assert (out["tau"]["runs"] == 7).all() and (out["tau"]["topics"] == 30).all()
    for m in ["nG@1", "P+", "nERR@10"]:
        pd.testing.assert_frame_equal(out["scores"][("RawG", m)], out["scores"][("UG", m)])


def test_compare_gains_detects_a_reordering(small):
    c, run, best = small
    rng = np.random.default_rng(1)
    r = sim.simulate_ratings(c.qrels, 5, 8, rng)
    out = unanimity.compare_gains(c.qrels, run, r, 8, 1.0, ["nG@1"], best, 200, 0.05, rng)
    raw = out["scores"][("RawG", "nG@1")].mean()
    ug = out["scores"][("UG", "nG@1")].mean()
    assert not np.allclose(raw, ug)
    from scipy.stats import kendalltau

    assert out["tau"]["tau"].iloc[0] == pytest.approx(kendalltau(raw, ug[raw.index]).statistic)
    # UG of every item, recomputed, matches what was fed to the measures
    ug_items = gains.unanimity_aware_gain(r, 8, 1.0)
    assert (ug_items >= gains.raw_gain(r)).all()


def test_compare_gains_selects_best_runs_per_variant_from_a_team_map(small):
    c, run, _ = small
    rng = np.random.default_rng(2)
    r = sim.simulate_ratings(c.qrels, 5, 2, rng)
    out = unanimity.compare_gains(c.qrels, run, r, 2, 0.2, ["nG@1"], c.teams, 50, 0.05, rng)
    expected = unanimity.best_run_per_team(out["scores"][("RawG", "nG@1")], c.teams)
    assert out["hsd_runs"] == expected and len(expected) == 5
    assert out["significant"]["pairs"].iloc[0] == 10


def test_compare_gains_bad_input(small):
    c, run, best = small
    r = np.zeros((len(c.qrels), 3))
    with pytest.raises(ValueError, match="ratings must be"):
        unanimity.compare_gains(c.qrels, run, r[:-1], 2, 0.2, ["nG@1"], best, 10, 0.05, np.random.default_rng(0))
    with pytest.raises(ValueError, match="at least 2 runs"):
        unanimity.compare_gains(c.qrels, run, r, 2, 0.2, ["nG@1"], best[:1], 10, 0.05, np.random.default_rng(0))
    with pytest.raises(ValueError, match="at least one measure"):
        unanimity.compare_gains(c.qrels, run, r, 2, 0.2, [], best, 10, 0.05, np.random.default_rng(0))
    with pytest.raises(ValueError, match="not in the run"):
        unanimity.compare_gains(c.qrels, run, sim.simulate_ratings(c.qrels, 3, 2, np.random.default_rng(0)),
                                2, 0.2, ["nG@1"], best + ["nope"], 10, 0.05, np.random.default_rng(0))


def test_tau_layout_follows_the_paper():
    tau = pd.DataFrame({"measure": ["nG@1"] * 4, "d_max": [2, 2, 4, 4], "n": [5, 10, 5, 10],
                        "tau": [0.987, 1.0, 0.9921, 1.0], "low": [0.968, 1.0, 0.976, 0.995],
                        "high": [1.0071, 1.0, 1.005, 1.005]})
    out = unanimity.tau_layout(tau, ["nG@1"])
    assert out.columns.tolist() == ["measure", "Dmax", "N = 5", "N = 10"]
    assert out.iloc[0].tolist() == ["nG@1", 2, ".987 [.968, 1.007]", "1 [1, 1]"]
    assert out.iloc[1, 2] == ".992 [.976, 1.005]"
    with pytest.raises(ValueError, match="columns"):
        unanimity.tau_layout(tau.drop(columns="low"), ["nG@1"])


def test_spread_shares():
    r = np.array([[0, 0, 0], [2, 2, 2], [0, 1, 2], [1, 2, 2]], dtype=float)
    s = unanimity.spread_shares(r, 2)
    assert s.tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])  # the all-zero item is left out
    with pytest.raises(ValueError, match="positive raw gain"):
        unanimity.spread_shares(np.zeros((2, 2)), 2)


def test_compare_gains_reports_effect_size_over_variance_too(small):
    c, run, best = small
    r = sim.simulate_ratings(c.qrels, 5, 2, np.random.default_rng(4))
    out = unanimity.compare_gains(c.qrels, run, r, 2, 0.2, ["nG@1", "P+"], best, 200, 0.3, np.random.default_rng(1))
    d = out["discrepancies"]
    assert {"es_var_RawG", "es_var_UG"} <= set(d.columns)
    if len(d):  # |d|/V_E = ES_HSD^2 / |d| since ES_HSD = |d| / sqrt(V_E)
        for lab in ("RawG", "UG"):
            np.testing.assert_allclose(d[f"es_var_{lab}"], d[f"es_hsd_{lab}"] ** 2 / d[f"abs_diff_{lab}"], rtol=1e-10)


def _lists(rows):
    return pd.DataFrame([{"run_id": r, "query_id": q, "doc_id": d, "rank": i + 1}
                         for r, q, docs in rows for i, d in enumerate(docs)])


def test_near_duplicates_measures_identical_ordered_lists():
    run = _lists([("a", "q1", "xyz"), ("a", "q2", "uvw"), ("b", "q1", "xyz"), ("b", "q2", "uwv"),
                  ("c", "q1", "zyx"), ("c", "q2", "uvw")])
    out = unanimity.near_duplicates(run, depth=3, min_share=0.0)
    got = {(r.run_a, r.run_b): (r.identical, r.shared, r.topics) for r in out.itertuples()}
    assert got[("a", "b")] == (0.5, 1.0, 2)  # same list on q1, same set but another order on q2
    assert got[("a", "c")] == (0.5, 1.0, 2)
    assert got[("b", "c")] == (0.0, 1.0, 2)
    assert list(unanimity.near_duplicates(run, depth=3, min_share=0.5)[["run_a", "run_b"]].itertuples(index=False, name=None)) \
        == [("a", "b"), ("a", "c")]
    # depth cuts the lists first: the top 1 of b and c differ on q1 only
    top1 = unanimity.near_duplicates(run, depth=1, min_share=0.0).set_index(["run_a", "run_b"])["identical"]
    assert top1[("a", "b")] == 1.0 and top1[("b", "c")] == 0.5


def test_near_duplicates_bad_input():
    run = _lists([("a", "q1", "xy")])
    with pytest.raises(ValueError, match="min_share"):
        unanimity.near_duplicates(run, 2, min_share=1.5)
    with pytest.raises(ValueError, match="run must be a DataFrame"):
        unanimity.near_duplicates(run.drop(columns="rank"))


def test_teams_from_table_names_missing_runs():
    table = pd.DataFrame({"run_id": ["r1", "r2", "extra"], "team": ["A", "A", "B"]})
    assert unanimity.teams_from_table(table, ["r2", "r1"]) == {"r2": "A", "r1": "A"}
    with pytest.raises(ValueError, match=r"teams.csv has no team for run\(s\) \['r3'\]"):
        unanimity.teams_from_table(table, ["r1", "r3"], "teams.csv")
    with pytest.raises(ValueError, match="needs columns run_id and team"):
        unanimity.teams_from_table(table.rename(columns={"team": "group"}), ["r1"])


# --------------------------------------------------------------------------------------------
# GainScorer and compare_gains_many: the fast path of notebook 02's studies

_MANY = ["nG@1", "P+", "nERR@10", "nDCG@5", "MSnDCG@10", "Q", "AP", "RBP", "P@5", "ERR", "nDCG@20", "Q@5",
         "AP@10", "RR", "EBR", "nCG@3", "P+@5", "iRBU", "Hit@3", "O-measure", "P-measure", "R@5", "nERR@30"]


@pytest.mark.parametrize("names", [["nG@1", "P+", "nERR@10"], _MANY])
def test_gain_scorer_equals_the_alignment_path(small, names):
    """Every gain vector scores exactly as Alignment.evaluate + to_matrix (same topics, runs, bits),
    with the ideal lists cut where the measures allow it and kept whole where they need R."""
    from helpers import measures

    c, run, _ = small
    run = run[~((run.run_id == run.run_id.iloc[0]) & (run.query_id == run.query_id.iloc[0]))]  # a missing list
    run = run[~((run.run_id == run.run_id.iloc[-1]) & (run["rank"] > 6))]                       # short lists
    keep = np.random.default_rng(0).random(len(c.qrels)) < 0.8  # unjudged documents in the lists
    c = c._replace(qrels=c.qrels[keep].reset_index(drop=True)) if hasattr(c, "_replace") else \
        type(c)(qrels=c.qrels[keep].reset_index(drop=True), run=c.run, teams=c.teams, quality=c.quality)
    sc = unanimity.GainScorer(c.qrels, run, names)
    assert sc.fast
    assert (sc.ideal_depth is None) == (names != ["nG@1", "P+", "nERR@10"])
    rng = np.random.default_rng(4)
    vectors = []
    for d_max, n in [(2, 5), (8, 20), (1, 2)]:
        r = sim.simulate_ratings(c.qrels, n, d_max, rng)
        vectors += [gains.raw_gain(r, d_max), gains.unanimity_aware_gain(r, d_max, 0.2)]
    got = sc.matrices(np.stack(vectors, axis=1))
    for g, mats in zip(vectors, got):
        res = measures.Alignment(unanimity.gain_qrels(c.qrels, g), run).evaluate(names, gain=g)
        for m in names:
            ref = measures.to_matrix(res, m)
            assert mats[m].index.equals(ref.index) and mats[m].columns.equals(ref.columns)
            np.testing.assert_array_equal(mats[m].to_numpy(), ref.to_numpy())


def test_gain_scorer_skips_topics_without_a_positive_gain(small):
    c, run, _ = small
    sc = unanimity.GainScorer(c.qrels, run, ["nG@1"])
    g = np.where(c.qrels["query_id"] == c.qrels["query_id"].iloc[0], 0.0, 1.0)
    m = sc.matrices(g)[0]["nG@1"]
    assert c.qrels["query_id"].iloc[0] not in m.index and len(m) == c.qrels["query_id"].nunique() - 1
    with pytest.raises(ValueError, match="gains must hold"):
        sc.matrices(g[:-1])


def test_compare_gains_many_is_compare_gains_on_common_permutations(small):
    """Two variants in one call: each result is what compare_gains gives for it, except that all
    tests share one set of permutations; identical ratings give identical p-values."""
    c, run, best = small
    r = sim.simulate_ratings(c.qrels, 5, 2, np.random.default_rng(2))
    ms = ["nG@1", "P+"]
    one = unanimity.compare_gains(c.qrels, run, r, 2, 0.2, ms, best, 300, 0.05, np.random.default_rng(7))
    two = unanimity.compare_gains_many(c.qrels, run, [(r, 2), (r, 2)], 0.2, ms, best, 300, 0.05,
                                       np.random.default_rng(7))
    for out in two:
        pd.testing.assert_frame_equal(out["tau"], one["tau"])
        pd.testing.assert_frame_equal(out["significant"], one["significant"])
        pd.testing.assert_frame_equal(out["discrepancies"], one["discrepancies"])


def test_compare_gains_many_checks_the_scorer(small):
    c, run, best = small
    r = sim.simulate_ratings(c.qrels, 3, 2, np.random.default_rng(2))
    sc = unanimity.GainScorer(c.qrels, run, ["nG@1"])
    with pytest.raises(ValueError, match="scorer was built"):
        unanimity.compare_gains_many(c.qrels, run, [(r, 2)], 0.2, ["P+"], best, 50, 0.05, np.random.default_rng(0),
                                     scorer=sc)


def test_near_alpha_flags_p_values_within_two_standard_errors():
    se = unanimity.mc_standard_error(0.05, 5000)
    assert se == pytest.approx(0.0030822, abs=1e-6)
    p = np.array([0.05 - 2.1 * se, 0.05 - 1.9 * se, 0.05, 0.05 + 1.9 * se, 0.05 + 2.1 * se, 0.5])
    assert unanimity.near_alpha(p, 0.05, 5000).tolist() == [False, True, True, True, False, False]
    with pytest.raises(ValueError, match="alpha"):
        unanimity.near_alpha(p, 1.5, 5000)


def test_sakai_table3_transcription_implies_the_divisor_of_the_review():
    """The 24 discrepant pairs of Sakai (2017), Table 3: |d| / ES_HSD (the divisor the paper used)
    runs from .048 to .100; ES_HSD from 1.629 to 2.447 (printed values)."""
    from helpers import paths

    t3 = pd.read_csv(paths.DATA_RAW / "sakai2017_table3.csv")
    assert len(t3) == 24 and set(t3["measure"]) == {"nG@1", "P+", "nERR"}
    div = np.r_[t3["abs_diff_RawG"] / t3["es_hsd_RawG"], t3["abs_diff_UG"] / t3["es_hsd_UG"]]
    assert round(div.min(), 3) == 0.048 and round(div.max(), 3) == 0.1
    es = np.r_[t3["es_hsd_RawG"], t3["es_hsd_UG"]]
    assert (es.min(), es.max()) == (1.629, 2.447)
    # every listed pair is a discrepancy at alpha = 0.05 (significant on exactly one side)
    assert ((t3["p_value_RawG"] < 0.05) != (t3["p_value_UG"] < 0.05)).all()
    assert len(t3.query("measure == 'nG@1' and d_max == 2 and n == 5")) == 3  # the cell the text discusses


def test_tau_layout_never_prints_a_bound_as_1_or_0_it_does_not_reach():
    """Sakai's "1" means exactly 1: the P+ Dmax=4 N=10 bound 0.99996 must not print as 1 (a reader
    counting cells whose CI excludes 1 would miss it), nor 0.00003 as 0."""
    tau = pd.DataFrame({"measure": ["P+"] * 3, "d_max": [4, 4, 4], "n": [5, 10, 20],
                        "tau": [0.977, 1.0, 0.5], "low": [0.954, 1.0 + 2e-16, 0.00003],
                        "high": [0.99996, 1.0, 0.9995]})
    row = unanimity.tau_layout(tau, ["P+"]).iloc[0].tolist()
    assert row[2:] == [".977 [.954, .99996]", "1 [1, 1]", ".500 [.00003, .9995]"]


def test_gain_blind_names_the_measures_that_cannot_tell_rawg_from_ug():
    assert unanimity.gain_blind(["nG@1", "AP", "P+", "P@5", "bpref", "nERR@10", "RR"]) == ["AP", "P@5", "bpref", "RR"]
    assert unanimity.gain_blind(["Q", "MSnDCG@10"]) == []


def test_gain_blind_measures_score_rawg_and_ug_alike():
    """What gain_blind promises, on simulated ratings: equal scores under RawG and UG, and graded ones differ."""
    c = sim.stc_like_collection(np.random.default_rng(3))
    run = unanimity.top_k(c.run, 10)
    r = sim.simulate_ratings(c.qrels, 5, 4, np.random.default_rng(4), threshold=1)
    scorer = unanimity.GainScorer(c.qrels, run, ["AP", "P@5", "nERR@10"])
    raw, ug = scorer.matrices(np.c_[gains.raw_gain(r), gains.unanimity_aware_gain(r, 4, 0.5)])
    for m in ("AP", "P@5"):
        assert np.allclose(raw[m], ug[m])
    assert not np.allclose(raw["nERR@10"], ug["nERR@10"])


def test_deeper_than_lists_names_measure_and_depth():
    assert unanimity.deeper_than_lists(["MSnDCG@10", "AP", "nG@1", "Q@5"], 5) == [("MSnDCG@10", 10)]
    assert unanimity.deeper_than_lists(["MSnDCG@10", "nERR@10"], 10) == []
    with pytest.raises(ValueError):
        unanimity.deeper_than_lists(["AP"], 0)


def test_best_run_per_team_breaks_exact_ties_by_listing_order_and_names_them():
    """One ulp of summation order is not a lead: means equal to 12 significant digits tie, the
    smallest run id is picked whatever the column order, and team_best_ties lists the tie."""
    scores = pd.DataFrame({"a1": [0.1, 0.7], "a2": [0.7, 0.1], "b1": [0.2, 0.3], "b2": [0.1, 0.1]})
    scores["a2"] = scores["a2"] + np.array([0.0, 1e-17])   # the same mean up to rounding
    teams = {"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
    assert unanimity.best_run_per_team(scores, teams) == ["a1", "b1"]
    assert unanimity.team_best_ties(scores, teams) == {"A": ["a1", "a2"], "B": ["b1"]}
    swapped = scores[["a2", "a1", "b1", "b2"]]
    assert unanimity.best_run_per_team(swapped, teams) == ["a1", "b1"]
