"""Notebook 02's plumbing (helpers.replicates.unanimity): Sakai's Table 2 as transcribed, the
cell-by-cell comparison (informative cells, intervals from order statistics with their coverage),
the calibration of the stand-in, the Table 3 total, the conjecture's test and its power against an
impact twice the uniform one, and real ratings whose official assessor is also among the others
(issue 41)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import paths
from helpers.io import readers
from helpers.replicates import runner
from helpers.replicates import unanimity as U
from helpers.simulate import ratings as sim

CASE = paths.ROOT / "tests" / "data" / "official_copy"


def test_table2_as_printed_in_the_paper():
    t = U.paper_table2()
    assert len(t) == 45 and set(t["measure"]) == {"nG@1", "P+", "nERR@10"}
    cell = t.set_index(["measure", "d_max", "n"])
    # spot checks against Sakai (2017), Table 2
    assert tuple(cell.loc[("nG@1", 2, 5), ["tau", "low", "high"]]) == (0.987, 0.968, 1.007)
    assert tuple(cell.loc[("P+", 4, 5), ["tau", "low", "high"]]) == (0.983, 0.965, 1.002)
    assert tuple(cell.loc[("nERR@10", 8, 40), ["tau", "low", "high"]]) == (0.998, 0.990, 1.005)
    assert (t["high"] >= 1).all()                        # every CI reaches 1 (the paper's remark)
    assert int((t["tau"] < 1).sum()) == 28 and round(t["tau"].mean(), 5) == 0.99518


def _rep(values: dict[tuple, list[float]]) -> pd.DataFrame:
    rows = [{"replicate": r, "measure": m, "d_max": d, "n": n, "tau": v}
            for (m, d, n), vs in values.items() for r, v in enumerate(vs)]
    return pd.DataFrame(rows)


def test_table2_comparison_cell_by_cell():
    paper = pd.DataFrame({"measure": ["nG@1", "nG@1", "P+", "P+"], "d_max": [2, 2, 2, 4], "n": [5, 10, 5, 5],
                          "tau": [0.987, 0.95, 1.0, 1.0], "low": 0, "high": 1})
    rep = _rep({("nG@1", 2, 5): [0.98, 0.99], ("nG@1", 2, 10): [0.97, 0.99], ("P+", 2, 5): [0.96, 0.97],
                ("P+", 4, 5): [0.99, 1.0]})
    out = U.table2(rep, paper).set_index(["measure", "d_max", "n"])
    assert out.loc[("nG@1", 2, 5), "inside"] and out.loc[("nG@1", 2, 5), "side"] == ""
    assert out.loc[("nG@1", 2, 10), "side"] == "below" and out.loc[("P+", 2, 5), "side"] == "above"
    assert out.loc[("nG@1", 2, 5), "mean"] == pytest.approx(0.985) and (out["draws"] == 2).all()
    # the paper's tau of 1 against an interval that ends at 1 lies inside whatever: not informative
    assert out["informative"].tolist() == [True, True, True, False]
    assert out["coverage"].iloc[0] == pytest.approx(1 / 3)          # the range of 2 draws holds a third draw 1/3
    from helpers.findings.unanimity import table2_lines, table2_view

    view = table2_view(out.reset_index(), "nG@1", ranges=True)
    assert list(view.columns) == ["N = 5", "N = 10"]
    assert view.loc[2, "N = 5"] == ".987 | 0.985 [0.980, 0.990] in"
    assert view.loc[2, "N = 10"] == ".950 | 0.980 [0.970, 0.990] below"
    assert table2_view(out.reset_index(), "P+", ranges=True).loc[4, "N = 5"] == "1 | 0.995 [0.990, 1.000] in (τ = 1)"
    # the printed view: the mean and where the paper lies; the ranges stay in the saved table
    narrow = table2_view(out.reset_index(), "nG@1")
    assert narrow.loc[2].tolist() == [".987 | 0.985 in", ".950 | 0.980 below"]
    assert table2_view(out.reset_index(), "P+").loc[4, "N = 5"] == "1 | 0.995 (in)"
    lines = table2_lines(out.reset_index())
    assert lines[0].startswith("1 of 4 (cell, measure) pairs are not informative")
    assert lines[1] == ("informative (cell, measure) pairs with the paper's τ inside: 1 of 3; outside: nG@1 Dmax=2 N=10 (below), "
                        "P+ Dmax=2 N=5 (above)")


def test_order_interval_holds_a_new_draw_with_its_stated_chance():
    x = np.arange(1, 41, dtype=float)[::-1]
    iv = U.order_interval(x)                                   # 40 draws: minimum and maximum, 39/41
    assert (iv["low"], iv["high"], iv["k"], iv["name"]) == (1.0, 40.0, 1, "range over 40 draws")
    assert iv["coverage"] == pytest.approx(39 / 41)
    iv = U.order_interval(np.arange(100.0))                    # 100 draws: the 2nd smallest and largest, 97/101
    assert (iv["low"], iv["high"], iv["k"]) == (1.0, 98.0, 2) and iv["coverage"] == pytest.approx(97 / 101)
    assert iv["name"] == "range of the middle 98 of 100 draws" and U.range_name(40) == "range over 40 replicates"
    iv = U.order_interval([3.0, 1.0, 2.0, np.nan])             # few draws: the range, with its lower coverage
    assert (iv["low"], iv["high"], iv["name"], iv["draws"]) == (1.0, 3.0, "range over 3 draws", 3) and iv["coverage"] == 0.5
    # the claim itself: over many sets of 40 draws, a 41st falls inside about 39/41 of the time
    rng = np.random.default_rng(0)
    draws = rng.normal(size=(20000, 41))
    inside = (draws[:, 40] >= draws[:, :40].min(axis=1)) & (draws[:, 40] <= draws[:, :40].max(axis=1))
    assert abs(inside.mean() - 39 / 41) < 0.005
    s = U.summarise_order(pd.DataFrame({"g": ["a", "a", "b"], "v": [1.0, 3.0, 5.0]}), "v", by=["g"])
    assert s[["g", "mean", "low", "high", "draws"]].values.tolist() == [["a", 2.0, 1.0, 3.0, 2], ["b", 5.0, 5.0, 5.0, 1]]


def test_tau_cells_equal_the_grid_study_taus():
    c = sim.stc_like_collection(np.random.default_rng(3), n_topics=20, team_sizes=(2, 1, 1, 1))
    from helpers import unanimity

    run = unanimity.top_k(c.run, 10)
    cells = [{"d_max": 2, "n": 3}, {"d_max": 4, "n": 40}]
    a = U.tau_cells(np.random.default_rng(1), qrels=c.qrels, run=run, cells=cells, p=0.2, measures=["nG@1", "P+"])
    b = U.unanimity_grid(np.random.default_rng(1), qrels=c.qrels, run=run, cells=cells, p=0.2, measures=["nG@1", "P+"],
                         hsd_runs=sorted(c.teams)[:4], B=100, alpha=0.05)
    np.testing.assert_array_equal(a["tau"].to_numpy(), b["tau"].to_numpy())


def test_calibrate_is_deterministic_and_ranks_by_the_gap():
    f1, cells = U.calibrate([0.25, 0.6], collection_seeds=[1], replicates=1, seed=5)
    f2, _ = U.calibrate([0.25, 0.6], collection_seeds=[1], replicates=1, seed=5)
    pd.testing.assert_frame_equal(f1, f2, check_exact=True)
    assert len(cells) == 2 * 45 and f1["best"].sum() == 1
    merged = cells.merge(U.paper_table2()[["measure", "d_max", "n", "tau"]].rename(columns={"tau": "paper"}))
    rmse = merged.assign(g=lambda f: f.paper - f.tau).groupby("skill_sd")["g"].apply(lambda g: np.sqrt((g ** 2).mean()))
    np.testing.assert_allclose(f1.set_index("skill_sd")["rmse"], rmse)
    # a wider spread of team skills leaves the runs further apart: UG reorders them less
    taus = cells.groupby("skill_sd")["tau"].mean()
    assert taus[0.6] > taus[0.25]


def test_the_committed_fit_is_what_the_notebook_runs_with():
    import json

    fit = U.read_fit()
    assert {"skill_sd", "rmse", "mean_gap", "best", "collections", "replicates", "seed"} <= set(fit.columns)
    assert fit["best"].sum() == 1
    np.testing.assert_array_equal(U.choose(fit.drop(columns="best"))["best"], fit["best"])   # the record's rule
    nb = json.loads((paths.ROOT / "notebooks" / "02_unanimity_evaluation.ipynb").read_text(encoding="utf-8"))
    source = "".join(next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))["source"])
    line = next(ln for ln in source.splitlines() if ln.startswith("team_skill_sd:"))
    assert float(line.split("=")[1].split("#")[0]) == pytest.approx(fit.loc[fit["best"], "skill_sd"].iloc[0])


def test_table3_total_and_cells():
    rep = pd.DataFrame({"replicate": [0, 0, 0, 1, 1, 1], "measure": ["nG@1", "P+", "nERR@10"] * 2,
                        "d_max": [2, 2, 8] * 2, "n": [5, 5, 10] * 2, "discrepancies": [3, 3, 0, 1, 0, 0]})
    t = U.table3_total(rep)
    # the paper: nG@1 (2, 5) has 3 discrepant pairs, P+ (2, 5) 2 and nERR (8, 10) 1
    assert (t["paper"], t["cells"], t["mean"], t["low"], t["high"]) == (6, 3, 3.5, 1.0, 6.0)
    assert t["inside"] and t["interval"] == "range over 2 draws" and t["replicates"] == 2 and t["coverage"] == pytest.approx(1 / 3)
    assert U.table3_total(rep.assign(d_max=3)) is None
    cells = U.summarise_grid(rep.assign(tau=1.0)).cells
    t3 = U.paper_table3(cells).set_index("measure")
    assert t3["paper"].to_dict() == {"nG@1": 3, "P+": 2, "nERR@10": 1}
    assert t3["inside"].to_dict() == {"nG@1": True, "P+": True, "nERR@10": False}


def test_off_paper_names_each_difference():
    same = dict(U.PAPER_SETTING)
    assert U.off_paper(same) == []
    diff = U.off_paper({**same, "dataset": "dl19", "p": 0.1})
    assert diff == ["dataset = 'dl19' (the paper's: NTCIR-12 STC Chinese, whose stand-in here is 'stc-like')",
                    "p = 0.1 (the paper's: 0.2)"]


def test_setting_differences_name_measures_and_grid():
    assert U.setting_differences(["nG@1", "P+", "nERR@10"], [2, 4, 8], [5, 10, 20, 40, 80]) == []
    assert U.setting_differences(["nG@1", "Q"], [8, 2, 4], [5, 80]) == [
        "measures = nG@1, Q (the paper's: nG@1, P+, nERR@10; shared: nG@1)", "N = 5, 80 (the paper's: 5, 10, 20, 40, 80)"]
    assert U.setting_differences(["RBP"], [1, 3], [5, 10, 20, 40, 80])[0].endswith("shared: none)")


def test_the_stand_in_is_as_deep_as_the_cutoff():
    deep = U.load_collection("stc-like", np.random.default_rng(0), theta=1, cutoff=13)
    assert deep.run.groupby(["run_id", "query_id"]).size().max() == 13
    assert deep.lines[0] == "stand-in lists and pool: top 13 per run (cutoff 13; the paper's: top 10)"
    ten = U.load_collection("stc-like", np.random.default_rng(0), theta=1, cutoff=10)
    short = U.load_collection("stc-like", np.random.default_rng(0), theta=1, cutoff=5)
    assert ten.run.groupby(["run_id", "query_id"]).size().max() == 10 and len(short.qrels) == len(ten.qrels)
    assert not any("stand-in lists" in ln for ln in ten.lines)


def test_real_contrast_rows():
    """Real and uniform ratings of the same RawG on the same permutations: RawG's calls agree."""
    from helpers import unanimity

    c = sim.stc_like_collection(np.random.default_rng(3), n_topics=20, team_sizes=(2, 1, 1, 1))
    run = unanimity.top_k(c.run, 10)
    real = sim.simulate_ratings(c.qrels, 3, 3, np.random.default_rng(9))
    out = U.unanimity_real_contrast(np.random.default_rng(1), qrels=c.qrels, run=run, ratings=real, d_max=3, p=0.2,
                                    measures=["nG@1"], hsd_runs=sorted(c.teams)[:4], B=200, alpha=0.05)
    assert out["ratings"].tolist() == ["real", "simulated"]
    assert out["significant_RawG"].nunique() == 1                        # RawG is the same for both


def test_doubled_power_on_literal_draws():
    # tau: pairs (i, j) give tau_i + tau_j - 1; the bound is the uniform interval's low end, 0.93
    pw = U.doubled_power([0.95, 0.97, 0.99, 0.93], 0.93, tau=True)
    assert pw["power"] == pytest.approx(4 / 6) and pw["pairs"] == 2
    assert (pw["low"], pw["high"]) == pytest.approx((0.0126, 0.9874), abs=1e-4)   # 1 of 2 disjoint pairs
    # counts: c_i + c_j above the interval's high end, 2: only 1 + 2 of the six pairs
    assert U.doubled_power([0, 1, 0, 2], 2, tau=False)["power"] == pytest.approx(1 / 6)
    assert np.isnan(U.doubled_power([0.9], 0.9, tau=True)["power"])


def test_power_reach_is_what_the_approximate_bound_lets_a_verdict_reach():
    # 50 draws: 25 pairs; 24 of 25 give a lower bound 0.7965 < 0.8, 25 of 25 give 0.8628: power above 24.5/25
    assert U.power_reach(50) == pytest.approx(0.98)
    assert U.power_reach(40) == pytest.approx(0.975) and U.power_reach(100) == pytest.approx(0.91)
    assert np.isnan(U.power_reach(33))   # 16 pairs: even 16 of 16 give 0.7941 < 0.8
    every = U.doubled_power(np.full(50, 0.9), 0.85, tau=True)   # every pair passes: power 1 > 0.98, bound 0.8628
    assert every["power"] == 1 and every["low"] == pytest.approx(0.8628, abs=1e-4)
    most = U.doubled_power(np.r_[np.full(49, 0.9), 0.99], 0.85, tau=True)   # 49 of 1,225 pairs fail: 0.96 < 0.98
    assert most["power"] == pytest.approx(0.96) and most["low"] == pytest.approx(0.7965, abs=1e-4)


def test_conjecture_reads_each_part_against_single_uniform_draws():
    tau_sim = [0.95, 0.96, 0.94, 0.97]
    out = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1",
                        "ratings": ["real", "simulated"] * 4,
                        "tau": [v for t in tau_sim for v in (0.90, t)],
                        "discrepancies": [0, 1, 0, 0, 1, 0, 0, 2]})
    c = U.conjecture(out, ["nG@1"]).iloc[0]
    assert c["tau_part"] == "holds" and c["dtau_high"] == pytest.approx(0.90 - 0.94)   # below every draw
    assert c["disc_part"] == "not shown" and (c["ddisc_low"], c["ddisc_high"]) == (-2, 1)
    assert c["tau_real_fixed"] and c["tau_sim_low"] == 0.94 and c["draws"] == 4
    other = U.conjecture(out.assign(tau=np.where(out["ratings"] == "real", 0.99, out["tau"])), ["nG@1"]).iloc[0]
    assert other["tau_part"] == "other way"
    assert "tau_real_ci_high" not in c   # no CI columns given: none read


def test_conjecture_sets_the_real_ci_beside_the_uniform_draws():
    # the real τ's CI [.85, .95] excludes 1; of the 4 uniform draws' CIs, 2 end below 1 (1.0001 is cut to 1)
    out = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1",
                        "ratings": ["real", "simulated"] * 4, "tau": [0.90, 0.95, 0.90, 0.96, 0.90, 0.94, 0.90, 0.97],
                        "low": [0.85, 0.9, 0.85, 0.91, 0.85, 0.89, 0.85, 0.93],
                        "high": [0.95, 0.9999999999, 0.95, 1.0001, 0.95, 0.99, 0.95, 0.995],
                        "discrepancies": [0, 1, 0, 0, 1, 0, 0, 2]})
    c = U.conjecture(out, ["nG@1"]).iloc[0]
    assert (c["tau_real_ci_low"], c["tau_real_ci_high"]) == pytest.approx((0.85, 0.95))
    assert c["tau_sim_ci_excludes_1"] == 2


def _runs_over(qrels: pd.DataFrame) -> pd.DataFrame:
    """Two runs over the judged items: by official level, and in reverse."""
    rows = []
    for q, g in qrels.groupby("query_id"):
        for name, order in (("good-1", g.sort_values("relevance", ascending=False)), ("bad-1", g.sort_values("relevance"))):
            rows += [{"run_id": name, "query_id": q, "doc_id": d, "rank": k} for k, d in enumerate(order["doc_id"], 1)]
    return pd.DataFrame(rows)


def test_real_set_counts_the_official_assessor_once():
    """The new user's case: qrels = assessor A1, ratings_path holds A1, A2, A3 (issue 41, item 1)."""
    qrels = readers.read_graded_qrels(CASE / "qrels_A1.txt", levels=(0, 3))
    rs = U.real_set("files", qrels, _runs_over(qrels), theta=2, cutoff=10, ratings_path=str(CASE / "trio"),
                    layout="qrels", d_max=3)
    assert rs.n == 3 and rs.values.shape[1] == 3                # official + A2 + A3, not N = 4
    assert rs.copies.found and set(rs.copies.copies()["assessor"]) == {"A1"}
    text = "\n".join(rs.lines)
    assert "assessor A1 gives the official qrels' labels on 20 topics (600 of 600 shared items identical)" in text
    assert "RawG (0..9)" in text and "1 others" not in text
    independent = readers.read_graded_qrels(CASE / "qrels_independent.txt", levels=(0, 3))
    rs = U.real_set("files", independent, _runs_over(independent), theta=2, cutoff=10,
                    ratings_path=str(CASE / "trio"), layout="qrels", d_max=3)
    assert rs.n == 4 and not rs.copies.found and not any("gives the official" in ln for ln in rs.lines)


def test_summarise_grid_by_n():
    rep = pd.DataFrame({"replicate": [0, 0, 1, 1], "measure": "nG@1", "d_max": 2, "n": [5, 80, 5, 80],
                        "tau": [0.9, 1.0, 0.95, 1.0], "discrepancies": [2, 0, 4, 0]})
    g = U.summarise_grid(rep)
    assert g.replicates == 2 and g.by_n.loc[5, "mean"] == 3 and g.by_n.loc[80, "zero"] == 2
    from helpers.findings.unanimity import cell_view

    view, skewed = cell_view(g.cells, "nG@1", ranges=True)
    assert view.loc[2, "N = 5"] == "0.925 [0.900, 0.950] | 3.0 [2, 4]" and not skewed   # counts: integer bounds
    assert view.loc[2, "N = 80"] == "1.000 | 0"          # every draw gave the same: no zero-width interval
    narrow, _ = cell_view(g.cells, "nG@1")                # the printed view: the means only
    assert narrow.loc[2].tolist() == ["0.925 | 3.0", "1.000 | 0"]
    assert runner.summarise(rep, "tau", by=["n"])["interval"].iloc[0] == "range"


def test_choose_takes_the_smallest_spread_without_a_gap_and_within_one_draw():
    fit = pd.DataFrame({"skill_sd": [0.25, 0.45, 0.65, 1.05], "rmse": [0.0077, 0.0041, 0.0032, 0.0027],
                        "mean_gap": [0.0044, 0.0016, 0.0006, 0.0002], "noise_floor": [0.0055, 0.0043, 0.0037, 0.0039]})
    assert U.choose(fit)["best"].tolist() == [False, False, True, False]
    # no candidate meets both: the smallest rmse
    assert U.choose(fit.assign(mean_gap=0.01))["best"].tolist() == [False, False, False, True]


def test_the_input_summary_says_a_rank_column_against_trec_eval_order_once(monkeypatch):
    """Issue 41, item 2: the case of tests/data/rank_order (ties broken by increasing doc id, and a
    reranked run), as a loader that keeps the files' rank column gives it (DL-19's does)."""
    from helpers.io import readers, trec

    case = paths.ROOT / "tests" / "data" / "rank_order"
    kw = dict(theta=2, cutoff=10, qrels_path=str(case / "qrels.txt"), runs_glob=str(case / "runs"), levels=(0, 3))
    # readers.read_runs puts TREC runs in trec_eval's order itself: nothing then disagrees, nothing is said
    coll = U.load_collection("files", np.random.default_rng(0), **kw)
    assert not any("trec_eval's score order disagree" in ln for ln in coll.lines)
    raw = pd.concat([trec.read_run(p) for p in sorted((case / "runs").glob("*.txt"))], ignore_index=True)
    monkeypatch.setattr(readers, "read_runs", lambda *a, **k: raw)
    coll = U.load_collection("files", np.random.default_rng(0), **kw)
    notes = [ln for ln in coll.lines if "trec_eval's score order disagree" in ln]
    assert len(notes) == 1 and "12 of 18 ranked lists" in notes[0]
    stc = U.load_collection("stc-like", np.random.default_rng(0), theta=1, cutoff=10)
    assert not any("trec_eval" in ln for ln in stc.lines)     # simulated runs have no scores to disagree with


def test_identical_cells_are_those_where_every_item_spans_0_to_dmax():
    rep = pd.DataFrame({"replicate": [0, 1, 0, 1], "measure": "nG@1", "d_max": 2, "n": [5, 5, 80, 80],
                        "tau": [0.98, 1.0, 1.0, 1.0], "discrepancies": [1, 0, 0, 0],
                        "share_full_spread": [0.4, 0.5, 1.0, 1.0]})
    assert U.identical_cells(rep) == {(2, 80)}
    assert U.identical_cells(rep.assign(share_full_spread=[0.4, 0.5, 1.0, 0.9999])) == set()
    assert U.identical_cells(rep.drop(columns="share_full_spread")) == set()
    assert U.summarise_grid(rep).cells["ug_equals_rawg"].tolist() == [False, True]
    paper = pd.DataFrame({"measure": "nG@1", "d_max": [2, 2], "n": [5, 80], "tau": [0.99, 1.0]})
    t2 = U.table2(rep, paper)
    assert t2["ug_equals_rawg"].tolist() == [False, True] and t2["informative"].tolist() == [True, False]


def test_the_fit_to_table2_applies_only_in_the_setting_it_was_made_in():
    paper = dict(U.PAPER_SETTING)
    assert U.fit_for(paper) is not None and U.fit_for({**paper, "alpha": 0.01, "best_run_by": "rawg"}) is not None
    for change in ({"relevance threshold": 2}, {"cutoff": 20}, {"p": 0.5}, {"dataset": "dl19"}):
        assert U.fit_for({**paper, **change}) is None
    from helpers.findings.unanimity_text import no_fit_line

    assert no_fit_line({**paper, "relevance threshold": 2, "cutoff": 20}) == (
        "the fit of the team-skill sd to Table 2 was made in the paper's setting, not at this run's cutoff 20, "
        "relevance threshold 2: no fit to show")
    assert no_fit_line({**paper, "dataset": "dl19"}).startswith("the stand-in is not used by this run")
