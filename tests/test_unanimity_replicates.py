"""Notebook 02's plumbing (helpers.replicates.unanimity): Sakai's Table 2 as transcribed, the
cell-by-cell comparison, the calibration of the stand-in, the Table 3 total, the power of the
conjecture's test, and real ratings whose official assessor is also among the others (issue 41)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import gains, paths
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
    paper = pd.DataFrame({"measure": ["nG@1", "nG@1", "P+"], "d_max": [2, 2, 2], "n": [5, 10, 5],
                          "tau": [0.987, 0.95, 1.0], "low": 0, "high": 1})
    rep = _rep({("nG@1", 2, 5): [0.98, 0.99], ("nG@1", 2, 10): [0.97, 0.99], ("P+", 2, 5): [0.96, 0.97]})
    out = U.table2(rep, paper).set_index(["measure", "n"])
    assert out.loc[("nG@1", 5), "inside"] and out.loc[("nG@1", 5), "side"] == ""
    assert out.loc[("nG@1", 10), "side"] == "below" and out.loc[("P+", 5), "side"] == "above"
    assert out.loc[("nG@1", 5), "mean"] == pytest.approx(0.985) and (out["draws"] == 2).all()
    from helpers.findings.unanimity import table2_view

    view = table2_view(out.reset_index(), "nG@1")
    assert list(view.columns) == ["N = 5", "N = 10"]
    assert view.loc[2, "N = 5"] == ".987 | 0.985 [0.980, 0.990] in"
    assert view.loc[2, "N = 10"] == ".950 | 0.980 [0.970, 0.990] below"


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
    assert t["inside"] and t["interval"] == "range" and t["replicates"] == 2
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


def test_shuffle_within_sums_keeps_every_raw_gain_and_the_tuples():
    rng = np.random.default_rng(0)
    real = rng.integers(0, 4, size=(300, 3)).astype(float)
    alt = U.shuffle_within_sums(real, 3, np.random.default_rng(1))
    np.testing.assert_array_equal(gains.raw_gain(alt, 3), gains.raw_gain(real, 3))
    key = lambda a: sorted(map(tuple, a))  # noqa: E731
    assert key(alt) == key(real) and not np.array_equal(alt, real)


def test_real_contrast_rows_are_unchanged_by_the_alternative():
    """The shuffled set is drawn from a child of the rng and shares the permutations: the real and
    uniform rows are those of the two-set study."""
    from helpers import unanimity

    c = sim.stc_like_collection(np.random.default_rng(3), n_topics=20, team_sizes=(2, 1, 1, 1))
    run = unanimity.top_k(c.run, 10)
    real = sim.simulate_ratings(c.qrels, 3, 3, np.random.default_rng(9))
    common = {"qrels": c.qrels, "run": run, "ratings": real, "d_max": 3, "p": 0.2, "measures": ["nG@1"],
              "hsd_runs": sorted(c.teams)[:4], "B": 200, "alpha": 0.05}
    two = U.unanimity_real_contrast(np.random.default_rng(1), **common)
    three = U.unanimity_real_contrast(np.random.default_rng(1), **common, alternative=True)
    assert three["ratings"].tolist() == ["real", "simulated", "real spread"]
    pd.testing.assert_frame_equal(three.iloc[:2].reset_index(drop=True), two, check_exact=True)
    assert three["significant_RawG"].nunique() == 1                      # RawG is the same for all three


def test_power_counts_draws_that_meet_the_rule():
    out = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1",
                        "ratings": ["simulated", "real spread"] * 4,
                        "tau": [0.95, 0.90, 0.96, 0.97, 0.94, 0.91, 0.95, 0.92],
                        "discrepancies": [0, 3, 1, 3, 0, 0, 1, 2]})
    table = pd.DataFrame({"ratings": ["simulated"], "measure": ["nG@1"], "tau_low": [0.94], "disc_high": [1.0]})
    p = U._power(out, table, ["nG@1"]).iloc[0]
    # tau below 0.94 in draws 0, 2, 3; more than 1 discrepancy in draws 0, 1, 3: both in 0 and 3
    assert (p["tau_lower"], p["disc_more"], p["both"], p["draws"], p["power"]) == (3, 3, 2, 4, 0.5)
    assert p["power_low"] == pytest.approx(0.0676, abs=1e-4) and p["power_high"] == pytest.approx(0.9324, abs=1e-4)


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

    view, skewed = cell_view(g.cells, "nG@1")
    assert view.loc[2, "N = 5"] == "0.925 [0.900, 0.950] | 3.0 [2.0, 4.0]" and not skewed
    assert view.loc[2, "N = 80"] == "1.000 | 0.0"          # every draw gave the same: no zero-width interval
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
