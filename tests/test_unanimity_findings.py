"""Notebook 02's parameters and findings (helpers.findings.unanimity): bad values stop with the
parameter's name; each verdict follows its rule (Table 2 cell by cell against chance, the Table 3
total, power before a negative result); the conclusion keeps the length rules."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from helpers import paths
from helpers.findings import unanimity as F
from helpers.findings import unanimity_real as UR
from helpers.notebook.findings import problems


def _defaults() -> dict:
    nb = json.loads((paths.ROOT / "notebooks" / "02_unanimity_evaluation.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    ns: dict = {}
    exec("".join(cell["source"]), {}, ns)
    return ns


def test_defaults_pass_and_normalise():
    cfg = F.check_parameters({**_defaults(), "n_list": [5.0, 10], "measure_names": ["nG@1", "ndcg_cut_10", "AP"]})
    assert cfg.n_list == [5, 10] and cfg.theta == 1 and cfg.measure_names == ["nG@1", "MSnDCG@10", "AP"]
    assert cfg.blind == ["AP"] and cfg.graded == ["nG@1", "MSnDCG@10"]
    assert cfg.notes[0] == "measures: ndcg_cut_10 = MSnDCG@10"
    assert "AP only sees whether a gain is > 0" in cfg.notes[1]
    assert cfg.metrics["conventions"] == "ntcireval" and cfg.metrics["team_skill_sd"] == _defaults()["team_skill_sd"]


@pytest.mark.parametrize("change, message", [
    ({"replicates": 0}, "replicates must be an integer >= 1"),
    ({"dataset": "stc"}, "dataset must be 'stc-like', 'dl19' or 'files'"),
    ({"p": 1.5}, r"p must lie in \[0, 1\]"),
    ({"n_list": [1, 5]}, "n_list must hold integers >= 2"),
    ({"conventions": "trec_eval"}, "conventions must be 'ntcireval'"),
    ({"team_skill_sd": 0.0}, "team_skill_sd must be a number > 0"),
    ({"B": 50}, "B must be an integer >= 100"),
    ({"alpha": 0.0}, r"alpha must lie in \(0, 1\)"),
    ({"best_run_by": "best"}, "best_run_by must be 'official' or 'rawg'"),
    ({"real_ratings": True}, "real_ratings needs dataset='dl19'"),
    ({"relevance_threshold": 3}, r"relevance_threshold must be 0 .* 1..2"),
    ({"measure_names": ["nope"]}, "unknown measure 'nope'"),
])
def test_bad_parameters_name_themselves(change, message):
    with pytest.raises(ValueError, match=message):
        F.check_parameters({**_defaults(), **change})


def test_chance_outside():
    assert [F.chance_outside(n) for n in (45, 15, 3)] == [5, 2, 1]
    assert F.chance_outside(28, 39 / 41) == 3 and F.chance_outside(28, 19 / 21) == 5


def _t2(inside: int, cells: int = 45, same: int = 0) -> pd.DataFrame:
    ok = np.arange(cells) < inside
    return pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": 5, "paper": 0.99, "mean": 0.985, "low": 0.97,
                         "high": 0.995, "inside": ok, "side": np.where(ok, "", "above"), "draws": 40,
                         "informative": np.arange(cells) >= same, "ug_equals_rawg": np.arange(cells) < same,
                         "coverage": 39 / 41})


@pytest.mark.parametrize("inside, fitted, verdict", [(45, True, "by construction"), (40, True, "by construction"),
                                                     (40, False, "agrees"), (39, True, "differs")])
def test_table2_row_against_chance(inside, fitted, verdict):
    # with the stand-in fitted to Table 2, agreement there follows from the fit: "by construction"
    row = F._table2_row(_t2(inside), fit_sd=0.5, fitted=fitted)
    assert F.chance_outside(45, 39 / 41) == 5       # the 95th percentile of Binomial(45, 2/41)
    assert row.verdict == verdict and row.caveats == (("calibrated",) if fitted else ())
    assert row.run.startswith(f"inside in {inside} of 45 informative (cell, measure) pairs")
    # the allowance assumes independent cells (they share collection and runs): the row says so where it prints it
    assert "chance allows 5 outside if they were independent;" in row.run and "coverage" not in row.run


def test_cells_where_ug_equals_rawg_have_nothing_to_test():
    t2 = _t2(45, same=5)
    row = F._table2_row(t2, fit_sd=None)
    assert row.run.startswith("inside in 40 of 40 informative (cell, measure) pairs") and row.run.endswith(", 5 with UG = RawG")
    lines = F.table2_lines(t2)
    assert lines[0] == "5 of 45 (cell, measure) pairs have UG = RawG on every item in every replicate: nothing to test"
    assert lines[1].startswith("0 of 45 (cell, measure) pairs are not informative")
    assert "(the smallest and largest of 40 draws: 39/41)" in lines[3]
    assert lines[-1].endswith("a τ within 0.0005 of a range (its rounding) counts as inside")
    view = F.table2_view(t2.assign(d_max=np.arange(45)), "nG@1", ranges=True)
    assert view.iloc[0, 0] == ".990 | UG = RawG: nothing to test" and view.iloc[5, 0].endswith(" in")
    assert F.table2_view(t2.assign(d_max=np.arange(45)), "nG@1").iloc[0, 0] == ".990 | UG = RawG"


def _conj(part_tau: str, part_disc: str, power_low: float, draws: int = 50) -> dict:
    return {"measure": "nG@1", "draws": draws, "nothing": False, "dtau": -0.02, "dtau_low": -0.04,
            "dtau_high": -0.01, "ddisc": 1.5, "ddisc_low": 1, "ddisc_high": 3, "tau_part": part_tau,
            "disc_part": part_disc, "tau_power": power_low + 0.05, "tau_power_low": power_low,
            "tau_power_high": power_low + 0.1, "disc_power": power_low + 0.05, "disc_power_low": power_low,
            "disc_power_high": power_low + 0.1}


@pytest.mark.parametrize("tau, disc, power_low, verdict, caveats", [
    ("holds", "holds", 0.1, "holds", ()),
    ("holds", "not shown", 0.1, "holds in part", ()),
    ("not shown", "other way", 0.9, "does not hold", ("doubled",)),
    ("not shown", "not shown", 0.5, "cannot tell", ("low_power", "doubled")),
])
def test_conjecture_verdict_needs_power(tau, disc, power_low, verdict, caveats):
    row = F._conjecture_row("nG@1", _conj(tau, disc, power_low), 50, ())
    assert row.verdict == verdict and row.caveats == caveats
    assert "power 0." in row.run and "τ real − uniform: mean -0.020, -0.040 to -0.010 (range over 50 draws)" in row.run
    assert "discrepancies: mean +1.50, +1 to +3, power" in row.run
    assert F.range_text(-0.3, -1, 0, 50, "draws", signed=True) == "mean -0.30, -1 to 0 (range over 50 draws)"


def test_conjecture_of_few_draws_is_not_read():
    row = F._conjecture_row("nG@1", _conj("holds", "holds", 0.9, draws=1), 1, ())
    assert row.verdict == "cannot tell" and row.caveats == ("one_draw",)
    assert row.run == "one draw: τ real − uniform -0.020, discrepancies real − uniform +2; no interval, no power"
    row = F._conjecture_row("nG@1", _conj("holds", "holds", 0.9, draws=10), 10, ())
    assert row.verdict == "cannot tell" and row.caveats == ("ranges",)


def test_findings_of_one_draw_keep_the_length_rules():
    cfg = F.check_parameters({**_defaults(), "replicates": 1, "d_max_list": [2], "n_list": [5]})
    tau = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "tau": [0.97, 0.98, 1.0],
                        "low": 0.9, "high": 1.0})
    counts = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "discrepancies": [2, 0, 1]})
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, fragile={"k": 1, "n": 3}, off_paper=["replicates"],
                       fit=None)
    t = found.table()
    assert list(t["verdict"]) == ["not shown", "cannot tell (a, b, c, d)"]   # d: the team-skill sd record
    assert t["this run"].iloc[0] == "one draw: τ < 1 in 2 of 3 (cell, measure) pairs; CI excludes 1 in 0, 0 after Holm"
    assert t["this run"].iloc[1] == ("one draw: 3 of 360 pair decisions (0.83%); 1 of them fragile (33%); the placebo "
                                     "comparison needs `replicates` ≥ 2")
    assert found.answer.startswith("Answer: this run has one draw, so UG cannot be set against a placebo")
    assert "over the team pairs of one cell" in found.limitations()
    assert problems(found) == []
    assert max(len(str(v).split()) for v in t.to_numpy().ravel()) <= 35   # table cells: at most 35 words
    assert "needs real ratings" in found.markdown()


@pytest.mark.parametrize("small, verdict", [([5, 6, 4, 7], "by construction"), ([0, 1, 0, 0], "by construction")])
def test_the_n_trend_is_by_construction_whatever_the_run_shows(small, verdict):
    from helpers.replicates.unanimity import summarise_grid

    rep = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 4,
                        "tau": 1.0, "discrepancies": [v for s in small for v in (s, 0)]})
    row = F._n_row(summarise_grid(rep), 5, 80, ())
    assert row.verdict == verdict and "by_construction" in row.caveats   # from the model, not the run's outcome
    assert row.caveats[0] == "ranges"   # 4 replicates: a range, called so


def _tau(taus, lows, highs):
    return pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": 5, "tau": taus, "low": lows, "high": highs})


def test_tau_tests_holm_over_the_cells():
    # se = 0.01 / 1.96 per cell: z = (1 - tau) / se; p = 2 * sf(z)
    se = 0.01 / 1.959963984540054
    t = _tau([0.985, 0.97, 1.0, 0.99], [0.975, 0.96, 1.0, 0.98], [0.995, 0.98, 1.0, 1.0])
    r = F.tau_tests(t, ["nG@1"])
    from scipy.stats import norm
    p = [2 * norm.sf(0.015 / se), 2 * norm.sf(0.03 / se), 1.0, 2 * norm.sf(0.01 / se)]
    assert r["excludes"] == 2 and r["cells"] == 4
    assert round(r["p_min"], 10) == round(p[1], 10)
    assert round(r["p_holm_min"], 10) == round(4 * p[1], 10)
    assert r["holm"] == 2                   # 4 * 1.9e-9 and 3 * 0.0033 = 0.0098 < 0.05; 2 * 0.05 is not
    assert round(p[0], 4) == 0.0033 and round(p[3], 4) == 0.05


def test_two_of_45_uncorrected_is_not_shown_after_holm():
    # the referee's case: 2 of 45 intervals exclude 1, the smallest p 0.011 -> Holm 0.49
    from scipy.stats import norm
    z = norm.isf(0.011 / 2)
    se = 0.01 / 1.959963984540054
    taus = [1 - z * se, 1 - norm.isf(0.04 / 2) * se] + [1.0] * 43
    t = _tau(taus, [x - 0.01 for x in taus], [min(1.0 + 0.01, x + 0.01) if x < 1 else 1.0 for x in taus])
    t.loc[2:, ["low", "high"]] = 1.0
    r = F.tau_tests(t, ["nG@1"])
    assert r["excludes"] == 2 and r["holm"] == 0 and round(r["p_holm_min"], 3) == 0.495
    row = F._ranking_row(t, None, ["nG@1"], ())
    assert row.verdict == "not shown" and row.caveats == ()
    assert "0 after Holm" in row.run
    line = F.tau_holm_line(r)
    assert "uncorrected" in line and "over the 45 pairs at α = 0.05 rejects τ = 1 in 0" in line


def _control(diff_low: float, diff_high: float, verdict: str) -> dict:
    return {"ug": 2.0, "placebo": 1.5, "diff": (diff_low + diff_high) / 2, "low": diff_low, "high": diff_high,
            "replicates": 40, "cells": 1, "verdict": verdict}


def test_significance_rows_rest_on_the_placebo():
    from helpers.replicates.unanimity import summarise_grid

    rep = pd.DataFrame({"replicate": np.arange(40), "measure": "nG@1", "d_max": 2, "n": 5, "tau": 0.99,
                        "discrepancies": 2})
    grid = summarise_grid(rep)
    one, over = F._significance_rows(grid, 2, 120, 40, ["nG@1"], (), {"k": 1, "n": 2},
                                     placebo={"ug": 2, "placebo": 3, "cells": 1},
                                     control=_control(-0.2, 1.2, "not shown"), scope="all 1 cells")
    # a share of the pair decisions, the fragile share and the placebo's count beside it; no verdict from one draw
    assert one.run == ("one draw: 2 of 120 pair decisions (1.7%); 1 of them fragile (50%); a placebo of UG's size: 3; "
                       "the placebo comparison needs `replicates` ≥ 2")
    assert one.verdict == "cannot tell" and one.caveats == ("one_draw", "hsd_family", "fragile")
    # UG's count in every replicate is > 0, yet the verdict is the placebo comparison's, not "shown"
    assert over.run.startswith("UG: 2 of 120 (1.7%) in every one of 40. On all 1 cells, UG 2.0 vs placebo 1.5: +0.5 "
                               "[-0.2, +1.2] (95% CI of the mean over 40 replicates)")
    # the row gives its numbers' verdict; findings() labels it by construction when the bonus is unlinked
    assert over.verdict == "not shown" and over.paper == "— (the paper has no placebo)"
    assert over.caveats == ("hsd_family",)   # fragility is the single draw's, not the replicates' mean
    real = F._significance_rows(grid, 2, 120, 40, ["nG@1"], (), None, control=_control(-0.2, 1.2, "not shown"),
                                scope="x", simulated=False)[1]
    assert real.verdict == "not shown" and real.caveats == ("hsd_family",)
    shown = F._significance_rows(grid, 2, 120, 40, ["nG@1"], (), None, control=_control(0.3, 1.2, "shown"),
                                 scope="x")[1]
    assert shown.verdict == "shown"
    bare = F._significance_rows(grid, 2, 120, 40, ["nG@1"], (), None)[1]
    assert bare.verdict == "cannot tell" and bare.run.endswith("; no placebo tested")
    assert F.pct(30, 5400) == "0.56%" and F.pct(24, 5400) == "0.44%" and F.pct(26.4, 5400) == "0.49%"


def test_placebo_prose_follows_the_verdict_and_names_its_cells():
    c = _control(-0.2, 1.2, "not shown")
    assert F.placebo_prose(c, "the 6 cells with N ≤ 10", False) == (
        "UG changes no more significance calls than a placebo of its size: no difference shown (on the 6 cells with "
        "N ≤ 10; profile `paper` tests all cells).")
    assert F.placebo_prose({**c, "verdict": "shown"}, "all 15 cells", True).endswith(": shown (on all 15 cells).")
    assert F.placebo_prose(None, "", True) == ""


def test_paper_column_only_beside_the_papers_setting():
    base = F.check_parameters(_defaults())
    assert F.paper_cell(base, F.PAPER_T3_SHARE, 3) == F.PAPER_T3_SHARE
    assert F.paper_cell(base, F.PAPER_T2, 2) == F.PAPER_T2
    # alpha changes Table 3's counts but not Table 2's τ
    a = F.check_parameters({**_defaults(), "alpha": 0.2})
    assert F.paper_cell(a, F.PAPER_T3_SHARE, 3) == "— (paper: α 0.05)" and F.paper_cell(a, F.PAPER_T2, 2) == F.PAPER_T2
    # the referee's set B: alpha 0.01, B 500, other grid and measures, best run by RawG, cutoff 1
    b = F.check_parameters({**_defaults(), "alpha": 0.01, "B": 500, "d_max_list": [2, 10], "n_list": [3, 4, 8],
                            "measure_names": ["nDCG@5", "nG@1", "AP"], "cutoff": 1, "best_run_by": "rawg"})
    assert F.paper_cell(b, F.PAPER_T3_SHARE, 3) == "— (paper: cutoff 10, its 3 measures, Dmax 2, 4, 8, ...)"
    assert F.paper_cell(F.check_parameters({**_defaults(), "n_list": [80, 40, 20, 10, 5]}), "v", 3) == "v"


def test_n_row_of_few_replicates_prints_a_range():
    from helpers.replicates.unanimity import summarise_grid

    rep = pd.DataFrame({"replicate": np.repeat(np.arange(3), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 3,
                        "tau": 1.0, "discrepancies": [4, 0, 6, 0, 5, 0]})
    row = F._n_row(summarise_grid(rep), 5, 80, ())
    assert row.run.endswith("mean difference +5.0, range +4.0 to +6.0 over 3 replicates")
    assert "95%" not in row.run and row.verdict == "by construction"
    # the range governs the verdict: its caveat comes first, before the depth warning passed in
    assert F._n_row(summarise_grid(rep), 5, 80, ("cut",)).caveats == ("ranges", "by_construction", "cut")


def test_power_prints_three_digits_and_its_lower_bound():
    c = _conj("not shown", "not shown", 0.7965)
    row = F._conjecture_row("nG@1", c, 50, ())
    # a power of 0.847 whose lower bound 0.796 falls just short of 0.8: said to be below the threshold
    assert "power 0.847 (lower bound 0.796, below the 0.8 threshold)" in row.run and row.verdict == "cannot tell"
    low = F._conjecture_row("nG@1", _conj("not shown", "not shown", 0.5), 50, ())
    assert "(lower bound 0.500)" in low.run and "threshold" not in low.run


def _real_found(power_low: float, nothing: bool = False):
    cfg = F.check_parameters({**_defaults(), "real_replicates": 50})
    premise = {k: type("C", (), {"numbers": {"differs": True, "a": 0.1, "b": 0.2, "interval_b": (0.19, 0.21)}})()
               for k in ("share_full_spread", "mean_spread")}
    conj = {m: {**_conj("not shown", "not shown", power_low), "measure": m, "nothing": nothing}
            for m in cfg.measure_names}
    rows, prose, caveats = [], [], {}
    F._real_rows(rows, prose, (premise, conj), cfg, 3, 3, (), (), caveats)
    return rows, prose, caveats


def test_conjecture_family_is_named_uncorrected_and_the_threshold_said():
    rows, prose, caveats = _real_found(0.7965)
    assert caveats["conj_family"] == ("The conjecture's 6 tests (3 measures × τ and discrepancies) are uncorrected, "
                                      "with ranges over uniform draws against one real data set.")
    assert "conj_family" in rows[1].caveats and "conj_family" not in rows[0].caveats
    # one conjecture row for the three measures; the near miss (lower bound 0.796) is said in section 6, not here
    assert len(rows) == 2 and rows[1].question == UR.CONJ_Q and not any("threshold" in p for p in prose)
    assert rows[1].verdict == "cannot tell" and rows[1].run.endswith("cannot tell for all 3 (ranges and power: section 6)")
    assert not F._at_threshold({"tau_power": 0.896, "tau_power_low": 0.688}, "tau")   # well below: not "at" it
    assert "doubled" not in caveats and "Clopper" not in F.OWN_CAVEATS["doubled"]   # the bounds: the methods note
    rows, prose, caveats = _real_found(0.5)
    assert "conj_family" in caveats and not any("threshold" in p for p in prose)
    rows, prose, caveats = _real_found(0.5, nothing=True)
    assert caveats == {} and all("conj_family" not in r.caveats for r in rows)
    assert rows[1].verdict == "not tested" and rows[1].run.startswith("UG = RawG on every real")


@pytest.mark.parametrize("verdicts, combined", [(["cannot tell"] * 3, "cannot tell"), (["holds", "cannot tell"], "holds in part"),
                                                (["holds in part", "does not hold"], "holds in part"),
                                                (["does not hold", "cannot tell"], "cannot tell"),
                                                (["does not hold", "does not hold"], "does not hold")])
def test_conjecture_verdict_over_the_measures(verdicts, combined):
    assert UR.combine_verdicts(verdicts) == combined


def test_conjecture_row_is_compact_and_names_each_measure():
    conj = {m: {**_conj("not shown", "not shown", 0.5), "nothing": False, "dtau": d, "ddisc": e}
            for m, d, e in [("nG@1", -0.014, -0.32), ("P+", 0.020, -0.12)]}
    per = {"nG@1": F.Finding("q", "p", "r", "cannot tell", ("low_power", "doubled")),
           "P+": F.Finding("q", "p", "r", "holds", ("conj_family",))}
    row = UR.conjecture_row(per, conj, 50)
    assert row.run == ("real − uniform (mean over 50 uniform draws), τ / discrepancies: nG@1 -0.014 / -0.32, "
                       "P+ +0.020 / -0.12; cannot tell for nG@1; holds for P+ (ranges and power: section 6)")
    assert row.verdict == "holds in part" and row.caveats == ("low_power", "doubled", "conj_family")
    with pytest.raises(ValueError, match="no measure"):
        UR.conjecture_row({}, {}, 50)


@pytest.mark.parametrize("rule, said", [("official", "The significance tests compare these runs"),
                                        ("rawg", "the tests did not compare these runs")])
def test_hsd_runs_line_follows_best_run_by(rule, said):
    assert said in F.hsd_runs_line(rule, "nG@1")


def test_table2_inside_within_the_papers_rounding():
    from helpers.replicates.unanimity import table2

    rep = pd.DataFrame({"replicate": np.arange(40), "measure": "nG@1", "d_max": 2, "n": 5,
                        "tau": np.linspace(0.990, 0.9958, 40), "discrepancies": 0})
    paper = pd.DataFrame({"measure": "nG@1", "d_max": [2], "n": [5], "tau": [0.996]})
    assert bool(table2(rep, paper)["inside"].iloc[0])           # .996 printed: within 0.0005 of 0.9958
    paper["tau"] = 0.9964
    assert not bool(table2(rep, paper)["inside"].iloc[0])
    assert table2(rep, paper)["side"].iloc[0] == "above"


def test_clip_tau_keeps_tau_in_range_and_the_test_unchanged():
    # the asymptotic CI .985 ± 0.017 passes 1: printed cut at 1; the test of τ = 1 keeps the uncut SE
    t = _tau([0.985, 1.0, 0.97], [0.968, 1.0, 0.951], [1.002, 1.0, 0.989])
    cut = F.clip_tau(t)
    assert cut["high"].tolist() == [1.0, 1.0, 0.989] and cut["low"].tolist() == [0.968, 1.0, 0.951]
    assert round(cut["se"].iloc[0], 6) == round(0.034 / (2 * 1.959963984540054), 6) and cut["se"].iloc[1] == 0
    assert F.tau_tests(cut, ["nG@1"]) == F.tau_tests(t, ["nG@1"])
    assert F.clip_tau(cut).equals(cut)                          # cutting twice changes nothing
    assert F.clip_tau(_tau([-0.99], [-1.004], [-0.976]))["low"].iloc[0] == -1.0


@pytest.mark.parametrize("rule", ["official", "rawg"])
def test_runs_picked_by_rawg_are_a_limitation_once(rule):
    cfg = F.check_parameters({**_defaults(), "replicates": 1, "d_max_list": [2], "n_list": [5], "best_run_by": rule})
    tau = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "tau": [0.97, 0.98, 1.0],
                        "low": 0.9, "high": 1.0})
    counts = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "discrepancies": [2, 0, 1]})
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, fragile=None, off_paper=["best_run_by"], fit=None)
    sig = found.rows[1]
    assert ("rawg_pick" in sig.caveats) == (rule == "rawg") and "rawg_pick" not in found.rows[0].caveats
    assert found.limitations().count("favours RawG") == (rule == "rawg")


def test_the_fade_with_n_is_an_appendix_row():
    # it follows from UG's bonus p·N·(Dmax − D): a check of the simulation, never a row of the findings table
    from helpers.replicates.unanimity import summarise_grid

    cfg = F.check_parameters({**_defaults(), "replicates": 4, "d_max_list": [2], "n_list": [5, 80]})
    rep = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 4,
                        "tau": 1.0, "discrepancies": [5, 0, 6, 0, 4, 0, 7, 0]})
    tau = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80], "tau": [0.97, 1.0], "low": [0.95, 1.0],
                        "high": [0.99, 1.0]})
    counts = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80], "discrepancies": [2, 0]})
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, fragile=None, grid=summarise_grid(rep),
                       off_paper=["replicates"], fit=None)
    assert not any("fade" in r.question for r in found.rows) and "by construction" not in found.table()["verdict"].str.cat()
    app = found.appendix_findings()
    assert [r.verdict for r in app.rows if "fade" in r.question] == ["by construction"] and len(app.rows) == 1
    # the replicates' placebo rows answer the questions in the findings table, first; the single draw's rows are gone
    assert [("placebo" in r.question, r.question.startswith("Over 4 "), r.verdict) for r in found.rows] == [
        (True, True, "cannot tell")] * 2
    assert found.rows[1].run.endswith("(range over 4 replicates); no placebo tested")
    assert found.answer.startswith("Answer, over 4 simulated replicates against a placebo of UG's size: cannot tell")
    # the fade comes from the independent uniform ratings (D reaches Dmax as N grows), not from UG's formula
    assert "Appendix A's table checks the simulation: the fade with N." in found.prose
    assert not any("formula" in x for x in found.prose + (found.appendix_findings().table().to_string(),))
    assert "follow from how the simulation was built" in app.limitations() and problems(found) == []


def test_range_text_names_the_range_over_the_draws():
    assert F.range_text(26.4, 17, 37, 40) == "mean 26.4, 17 to 37 (range over 40 replicates)"
    assert F.range_text(26.4, 17, 37, 100) == "mean 26.4, 17 to 37 (range of the middle 98 of 100 replicates)"
    assert F.range_text(2.0, 2, 2, 40) == "2 in every one of 40 replicates"
    assert F.range_text(0.221, 0.212, 0.233, 50, "draws", digits=3) == "mean 0.221, 0.212 to 0.233 (range over 50 draws)"
    assert F.range_text(-0.014, -0.033, 0.018, 50, "draws", 3, True) == (
        "mean -0.014, -0.033 to +0.018 (range over 50 draws)")


def test_table2_is_by_construction_at_any_value_the_fit_tried():
    # the label follows the fit, not the value 0.65: 1.05 (the fit's smallest RMS gap) is calibrated too
    fit = pd.DataFrame({"skill_sd": [0.25, 0.65, 1.05, 1.2], "rmse": 0.003, "mean_gap": 0.0, "noise_floor": 0.004,
                        "best": [False, True, False, False]})
    assert F.calibrated(fit, 0.65) and F.calibrated(fit, 1.05) and F.calibrated(fit, 0.25)
    assert not F.calibrated(fit, 2.0) and not F.calibrated(None, 0.65) and not F.calibrated(fit, float("nan"))
    assert F._table2_row(_t2(45), fit_sd=fit, fitted=F.calibrated(fit, 1.05)).verdict == "by construction"
    assert F._table2_row(_t2(45), fit_sd=fit, fitted=F.calibrated(fit, 2.0)).verdict == "agrees"
    cfg = F.check_parameters({**_defaults(), "team_skill_sd": 1.05})
    assert "is one of the spreads the fit to Table 2 tried (0.25, 0.65, 1.05, 1.2; it picks 0.65)" in F._fit_prose(cfg, fit)[0]
    cfg = F.check_parameters({**_defaults(), "team_skill_sd": 2.0})
    assert "not one of the spreads" in F._fit_prose(cfg, fit)[0]


#: The committed fit's grid (tools/calibrate_stc_like.py): 0.25 to 0.75 by 0.1, then 0.9 to 1.2 by 0.15.
_GRID = [0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.9, 1.05, 1.2]


@pytest.mark.parametrize("sd, state", [(0.36, "untried"), (0.76, "untried"), (0.35, "tried"),
                                       (0.35 + 1e-12, "tried"), (0.65, "picked"), (0.1 + 0.2 + 0.35, "picked")])
def test_a_value_between_two_tried_spreads_is_not_one_the_fit_tried(sd, state):
    from helpers.findings import unanimity_text as T

    fit = pd.DataFrame({"skill_sd": _GRID, "rmse": 0.003, "mean_gap": 0.0, "noise_floor": 0.004,
                        "best": [v == 0.65 for v in _GRID]})
    assert T.fit_state(fit, sd) == state
    assert F.calibrated(fit, sd) is (state != "untried")
    line, note = T.skill_sd_line(fit, sd), T.fit_line(fit, sd)
    cfg = F.check_parameters({**_defaults(), "team_skill_sd": sd})
    head = F.sensitivity_caveat(cfg, None, fitted=state)["skill_sd"]
    if state == "untried":
        assert "NOT a value the fit tried" in note and "not fitted to Table 2's τ" in line
        assert "not fitted to the paper in this run's setting" in head and "fitted to Table 2" not in head
        assert "not one of the spreads" in F._fit_prose(cfg, fit)[0]
    elif state == "tried":
        assert "not the fit's pick, but a value it tried" in note and "a value the fit to Table 2's τ tried" in line
        assert "one of the spreads the fit to Table 2's τ tried (not its pick)" in head
    else:
        assert note.endswith(f"this run: {sd:g}") and "the value fitted to Table 2's τ" in line
        assert "which is fitted to Table 2's τ, not to Table 3" in head


def test_ug_equal_to_rawg_rows_state_the_papers_tables():
    # p = 0: both questions "not tested"; the paper's numbers are at p = 0.2, so the paper column says so
    cfg = F.check_parameters({**_defaults(), "replicates": 1, "p": 0.0})
    tau = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "tau": 1.0, "low": 1.0, "high": 1.0})
    counts = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "discrepancies": 0})
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, fragile=None, identical=True, off_paper=["p"], fit=None)
    assert [r.paper for r in found.rows] == ["— (paper: p 0.2)"] * 2
    assert [r.verdict for r in found.rows] == ["not tested", "not tested"]
    assert [r.question for r in found.rows] == [F.RANK_Q, F.SIG_Q]
    assert "every item with RawG > 0 has ratings spanning 0..Dmax" in " ".join(found.prose)
    assert "skill_sd" not in found.caveats


def test_identical_cells_at_p_zero_are_every_cell():
    from helpers.replicates.unanimity import identical_cells, summarise_grid

    rep = pd.DataFrame({"replicate": np.repeat(np.arange(2), 2), "measure": "RR", "d_max": [3, 5] * 2, "n": 40,
                        "tau": 1.0, "discrepancies": 0, "share_full_spread": [1.0, 0.98] * 2})
    assert identical_cells(rep) == {(3, 40)} and identical_cells(rep, 0.0) == {(3, 40), (5, 40)}
    assert summarise_grid(rep, p=0.0).cells["ug_equals_rawg"].all()
    view, _ = F.cell_view(summarise_grid(rep, p=0.0).cells, "RR", ranges=True)
    assert (view == F.SAME).all().all()
    assert (F.cell_view(summarise_grid(rep, p=0.0).cells, "RR")[0] == "UG = RawG").all().all()


def test_sensitivity_caveat_reads_the_record():
    cfg = F.check_parameters(_defaults())
    rec = pd.DataFrame({"skill_sd": [1.05, 0.65], "mean": [19.1, 26.4], "low": [9, 17], "high": [31, 37],
                        "replicates": 40, "seed": 20170901, "B": 5000})
    text = F.sensitivity_caveat(cfg, rec)["skill_sd"]
    assert text.endswith("not to Table 3: Appendix A gives the counts at other spreads.")   # the numbers: Appendix A
    assert F.sensitivity_caveat(F.check_parameters({**_defaults(), "dataset": "dl19"}), rec) == {}
    t3 = {"paper": 24, "mean": 26.375, "low": 17.0, "high": 37.0, "inside": True, "cells": 45, "replicates": 40}
    assert F.sensitivity_prose(cfg, t3, rec) == [
        "Discrepancies per replicate by team-skill sd: mean 26.4 at 0.65 and 19.1 at 1.05 (seed 20170901, "
        "40 replicates each). The ranges at sd 1.05 (9 to 31) hold 24 too: this check cannot tell these team-skill "
        "spreads apart."]
    assert F.sensitivity_prose(F.check_parameters({**_defaults(), "seed": 1}), t3, rec) == []   # another run's numbers


def test_table3_row_says_when_it_cannot_tell_team_skill_spreads_apart():
    cfg = F.check_parameters(_defaults())
    rec = pd.DataFrame({"skill_sd": [1.05, 0.65, 1.2], "mean": [19.1, 26.4, 16.1], "low": [9, 17, 8],
                        "high": [31, 37, 30], "replicates": 40, "seed": 20170901, "B": 5000})
    t3 = {"paper": 24, "mean": 26.375, "low": 17.0, "high": 37.0, "inside": True, "cells": 45, "replicates": 40}
    text = F.table3_spread(cfg, t3, rec)
    assert text == (". The ranges at sd 1.05 (9 to 31) and 1.2 (8 to 30) hold 24 too: this check cannot tell these "
                    "team-skill spreads apart")
    assert text in F._table3_row(t3, spread=text).run
    assert F.table3_spread(cfg, {**t3, "paper": 33}, rec) == ". Ranges at sd 1.05 (9 to 31) and 1.2 (8 to 30)"
    from helpers.notebook.findings import long_sentences
    row = F._table3_row(t3, spread=text)   # printed as one line with the paper's cell: under 50 words a sentence
    assert long_sentences(" | ".join([row.question, F.PAPER_T3, row.run, row.verdict]), lines_break=True) == []
    for other in ({"seed": 1}, {"B": 1000}, {"team_skill_sd": 0.9}, {"dataset": "dl19"}):   # another run: no numbers
        assert F.table3_spread(F.check_parameters({**_defaults(), **other}), t3, rec) == ""


@pytest.mark.parametrize("change", [{"seed": 1}, {"replicates": 1}, {"alpha": 0.2}, {"B": 1000}, {"p": 0.656},
                                    {"n_list": [2, 4, 15]}, {"team_skill_sd": 0.9}, {"measure_names": ["nERR@10"]}])
def test_sensitivity_caveat_prints_no_number_of_another_configuration(change):
    # the record's numbers belong to the default configuration: any other run says so and prints none of them
    rec = pd.DataFrame({"skill_sd": [1.05, 0.65], "mean": [19.1, 26.4], "low": [9, 17], "high": [31, 37],
                        "replicates": 40, "seed": 20170901, "B": 5000})
    text = F.sensitivity_caveat(F.check_parameters({**_defaults(), **change}), rec)["skill_sd"]
    assert not any(x in text for x in ("26.4", "19.1", "20170901", "40 replicates")), text
    assert text.endswith("records the default configuration's.")
    # a team-skill sd the fit did not try is not called fitted
    other = F.sensitivity_caveat(F.check_parameters({**_defaults(), "team_skill_sd": 1.23}), rec, fitted=False)
    assert "here 1.23, not fitted to the paper" in other["skill_sd"] and "fitted to Table 2" not in other["skill_sd"]


def test_notebook_reads_no_divisor_and_moves_its_secondary_tables_and_methods_out():
    from helpers.findings import unanimity_text

    nb = json.loads((paths.ROOT / "notebooks" / "02_unanimity_evaluation.ipynb").read_text(encoding="utf-8"))
    text = "".join("".join(c["source"]) for c in nb["cells"])
    # no line reads the paper's ES_HSD divisor from the stand-in's matrices
    assert not hasattr(unanimity_text, "divisor_reading") and "divisor_lines" not in text and "Appendix E" not in text
    # the secondary tables are saved, not shown, and the methods of sections 6 and 7 live in docs/
    assert '"best_runs"' in text and "reports.show(shown" not in text
    assert (paths.ROOT / "docs" / "02-unanimity-methods.md").is_file() and "../docs/02-unanimity-methods.md" in text
    intro = {c.get("id"): "".join(c["source"]) for c in nb["cells"]}
    assert len(intro["c19"].splitlines()) <= 12 and len(intro["replicates-intro"].splitlines()) <= 10


def _control_tau(low: float, high: float, verdict: str) -> dict:
    return {"ug": 0.9896, "placebo": 0.9892, "diff": (low + high) / 2, "low": low, "high": high, "every_ug": 1,
            "every_placebo": 0, "pairs": 1, "replicates": 40, "cells": 1, "verdict": verdict}


def test_reorder_row_rests_on_the_placebo():
    from helpers.replicates.unanimity import summarise_grid

    rep = pd.DataFrame({"replicate": np.arange(40), "measure": "nG@1", "d_max": 2, "n": 5, "tau": 0.99,
                        "discrepancies": 2})
    grid = summarise_grid(rep)
    # τ < 1 in every replicate, yet the verdict is the placebo comparison's, not "shown"
    row = F._reorder_row(grid, ["nG@1"], (), _control_tau(-0.0001, 0.0009, "not shown"), "all 1 cells")
    assert row.question == "Over 40 replicates: does UG reorder runs more than a placebo of its size?"
    assert row.run == ("On all 1 cells, mean τ UG 0.9896 vs "
                       "placebo 0.9892: +0.0004 [-0.0001, +0.0009] (95% CI of the mean over 40 replicates)")
    assert row.verdict == "not shown" and row.paper == "— (the paper has no placebo)"
    assert row.numbers["placebo"]["every_placebo"] == 0 and row.caveats == ()
    assert F._reorder_row(grid, ["nG@1"], (), _control_tau(-0.0001, 0.0009, "not shown"), "x",
                          simulated=False).verdict == "not shown"
    assert F._reorder_row(grid, ["nG@1"], (), _control_tau(-0.002, -0.001, "shown"), "x").verdict == "shown"
    bare = F._reorder_row(grid, ["nG@1"], ())
    assert bare.verdict == "cannot tell" and bare.run.endswith("; no placebo tested")
    few = F._reorder_row(grid, ["nG@1"], (), {**_control_tau(np.nan, np.nan, "cannot tell"), "replicates": 2}, "x")
    assert few.verdict == "cannot tell" and few.run.endswith(
        "(mean of 2 replicates: too few for the placebo comparison, which needs 40)")


def test_ranking_row_sets_the_placebos_count_beside_ugs():
    tau = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 10], "tau": [0.98, 1.0], "low": [0.96, 1.0],
                        "high": [1.0, 1.0]})
    one = {"tau_below_ug": 1, "tau_below_placebo": 2, "tau_pairs": 2}
    row = F._ranking_row(tau, None, ["nG@1"], (), placebo=one)
    assert row.run.startswith("one draw: τ < 1 in 1 of 2 (cell, measure) pairs (a placebo of UG's size: 2); CI excludes 1 in 0")
    part = F._ranking_row(tau, None, ["nG@1"], (), placebo={**one, "tau_pairs": 1, "tau_below_placebo": 0})
    assert "(a placebo of UG's size: 0 of 1, UG 1)" in part.run
    assert "placebo" not in F._ranking_row(tau, None, ["nG@1"], ()).run


def test_placebo_prose_with_tau_states_both_comparisons_once():
    c, where = _control(-0.2, 1.2, "not shown"), "the 6 cells with N ≤ 10"
    assert F.placebo_prose(c, where, False, _control_tau(-0.1, 0.1, "not shown")) == (
        "Against a placebo of UG's size, on the 6 cells with N ≤ 10 (profile `paper`: all cells): no difference "
        "shown in reordering or in significance calls.")
    assert F.placebo_prose(c, "all 15 cells", True, _control_tau(-0.2, -0.1, "shown")) == (
        "Against a placebo of UG's size, on all 15 cells: UG reorders runs more; no difference shown in "
        "significance calls.")
    assert F.placebo_prose({**c, "verdict": "shown"}, "x", True, _control_tau(0, 0, "shown")).endswith(
        ": UG reorders runs more and changes more significance calls.")
    assert F.placebo_prose(None, where, False, _control_tau(0, 0, "shown")) == ""


def test_a_rows_letters_read_in_order_and_keep_their_letters():
    from helpers.notebook.findings import Finding, Findings

    rows = [Finding("q1", "p", "r", "holds", ("x",)), Finding("q2", "p", "r", "holds", ("y", "z", "x", "g"))]
    cav = {"x": "X.", "y": "Y.", "z": "Z.", "g": "G."}
    before = Findings("nb", rows, [], caveats=cav, general=["g"])
    after = Findings("nb", F.in_letter_order(rows, ["g"]), [], caveats=cav, general=["g"])
    assert list(before.table()["verdict"]) == ["holds (a)", "holds (b, c, a)"]
    assert list(after.table()["verdict"]) == ["holds (a)", "holds (a, b, c)"]
    assert before.letters() == after.letters() and before.limitations() == after.limitations()


def test_hsd_floor_is_the_smallest_attainable_p_when_it_cannot_reject():
    from helpers.findings import unanimity_placebo as P

    # significance is p < alpha; the smallest p with B trials is 1/(B + 1)
    assert P.hsd_floor(5000, 0.05) is None and P.hsd_floor(100, 0.01) is None     # 1/101 = 0.0099 < 0.01
    assert P.hsd_floor(100, 0.005) == pytest.approx(0.0099, abs=1e-4)
    assert P.hsd_floor(199, 0.005) == pytest.approx(0.005)                         # equal: p < alpha never holds
    assert P.floor_caveat(5000, 0.05) == {}
    assert P.floor_caveat(100, 0.005)["hsd_floor"] == (
        "With B = 100 trials the HSD's smallest p-value, 1/(B + 1) = 0.0099, is not below α = 0.005: no pair can be "
        "significant, so every discrepancy count is 0.")


def _floor_findings(alpha: float, simulated: bool = True):
    from helpers.replicates.unanimity import summarise_grid

    cfg = F.check_parameters({**_defaults(), "replicates": 40, "B": 100, "alpha": alpha, "d_max_list": [2],
                              "n_list": [5, 80]})
    rep = pd.DataFrame({"replicate": np.repeat(np.arange(40), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 40,
                        "tau": 0.99, "discrepancies": np.tile([1, 0], 40) * (np.arange(80) % 3)})
    tau = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80], "tau": [0.97, 1.0], "low": [0.95, 1.0],
                        "high": [0.99, 1.0]})
    counts = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80], "discrepancies": [0, 0]})
    return F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                      pairs=120, tau=tau, counts=counts, fragile=None, grid=summarise_grid(rep), off_paper=["x"],
                      fit=None, control=_control(0.3, 1.2, "shown"), simulated_ratings=simulated)


def test_no_verdict_from_an_hsd_that_cannot_reject():
    # B = 100 at alpha = 0.005: no p-value can fall below alpha, so every HSD-based row cannot tell and says why
    low = _floor_findings(0.005, simulated=False)
    hsd_rows = [r for r in low.rows if "calls" in r.question]
    assert [r.verdict for r in hsd_rows] == ["cannot tell"]   # the replicates' row; the single draw's is dropped
    assert all("hsd_floor" in r.caveats for r in hsd_rows) and "hsd_floor" in low.caveats
    fade = [r for r in low.appendix_findings().rows if "fade" in r.question]   # by the model, the floor said
    assert [r.verdict for r in fade] == ["by construction"] and "hsd_floor" in fade[0].caveats
    ok = _floor_findings(0.01, simulated=False)   # 1/101 < 0.01: the test can reject; the placebo's verdict stands
    assert [r.verdict for r in ok.rows if "calls" in r.question] == ["shown"]
    assert "hsd_floor" not in ok.caveats and not any("hsd_floor" in r.caveats for r in ok.rows)


def test_placebo_rows_answer_the_questions_on_simulated_and_real_ratings():
    sim, real = _floor_findings(0.05), _floor_findings(0.05, simulated=False)
    def over(rows):   # the replicates' placebo rows (the single draw's row asks about a placebo too)
        return sum(r.question.startswith("Over ") and "placebo" in r.question for r in rows)
    assert over(sim.rows) == 2 and over(sim.appendix_findings().rows) == 0 and over(real.rows) == 2
    assert [r.question.startswith("Over ") for r in sim.rows[:2]] == [True, True]   # first: the answer
    assert F.SIG_Q not in [r.question for r in sim.rows]   # the single draw's row: only without replicates
    assert "placebo_sim" not in sim.rows[1].caveats and "placebo_sim" not in real.rows[1].caveats   # no link given
    assert sim.answer == ("Answer, over 40 simulated replicates against a placebo of UG's size: cannot tell for "
                          "reordering; UG changes more significance calls (calls per replicate: UG 2.0, placebo 1.5).")


def test_conjecture_row_sets_the_real_ci_beside_the_uniform_draws():
    c = {**_conj("not shown", "not shown", 0.5), "tau_real": 0.958, "tau_real_ci_low": 0.9166,
         "tau_real_ci_high": 0.99942, "tau_sim_ci_excludes_1": 31}
    row = F._conjecture_row("nERR@10", c, 50, ())
    assert row.run.startswith("τ real .958 [.917, .999] (95% CI) excludes 1; so do the uniform draws' CIs in 31 of 50. ")
    c["tau_real_ci_high"] = 1.0
    row = F._conjecture_row("nERR@10", c, 50, ())
    assert row.run.startswith("τ real .958 [.917, 1] (95% CI) includes 1; the uniform draws' CIs exclude it in 31 of 50. ")
    assert F._ci_text(_conj("holds", "holds", 0.9), 50) == ""   # without the CI numbers: nothing said


@pytest.mark.parametrize("measures, cut_on_rows", [(["nG@1", "P@10"], False), (["nG@1", "nERR@10"], True)])
def test_cut_caveat_only_on_rows_of_measures_they_count(measures, cut_on_rows):
    # P@10 only sees whether a gain is > 0: left out of every count, so its cut to 5 documents concerns no row
    cfg = F.check_parameters({**_defaults(), "replicates": 1, "d_max_list": [2], "n_list": [5],
                              "measure_names": measures, "cutoff": 5})
    assert cfg.too_deep and ("cut" in F._cut_caveat(cfg)) == cut_on_rows
    tau = pd.DataFrame({"measure": measures, "d_max": 2, "n": 5, "tau": [0.97, 0.98], "low": 0.9, "high": 1.0})
    counts = pd.DataFrame({"measure": measures, "d_max": 2, "n": 5, "discrepancies": [2, 1]})
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, fragile=None, off_paper=["cutoff"], fit=None)
    assert any("cut" in r.caveats for r in found.rows) == cut_on_rows
    assert ("cut to its top 5" in found.limitations()) == cut_on_rows


def test_placebo_rows_are_by_construction_when_the_bonus_carries_nothing_that_orders_runs():
    # the referee's point, decided by a number: under uniform ratings UG's bonus is unrelated to the level and
    # to the runs (bonus_link ~0), so "UG no different from its placebo" is what the simulation predicts
    unlinked = {"level": 0.012, "level_se": 0.008, "level_pairs": 733, "runs": 0.010, "runs_se": 0.008,
                "runs_pairs": 757, "linked": False}
    cav = F.link_caveat(unlinked)["placebo_sim"]
    assert ("r ± standard error over 733 (cell, topic) pairs: with the official level +0.012 ± 0.008, "
            "with the number of runs returning the item +0.010 ± 0.008" in cav)
    assert "what uniform ratings predict" in cav and "nan" not in F.link_caveat({**unlinked, "level": np.nan})["placebo_sim"]
    assert all(len(x.split()) <= 40 for x in cav.split(". "))
    assert "linked to what orders" in F.link_caveat({**unlinked, "level": 0.3, "linked": True})["placebo_sim"]
    assert F.link_caveat(None) == {} and "placebo_sim" not in F.OWN_CAVEATS
    sim = _floor_findings(0.05)
    row = F.by_construction(sim.rows[1])
    assert row.verdict == "by construction" and row.caveats[0] == "placebo_sim"
    assert row.numbers["test_verdict"] == "shown" and row.run.endswith("; the test alone: shown")


def _link_findings(link):
    # differing replicates (the placebo rows exist) with a given single-draw link
    from helpers.replicates.unanimity import summarise_grid

    cfg = F.check_parameters({**_defaults(), "B": 100, "replicates": 40, "d_max_list": [2], "n_list": [5, 80],
                              "measure_names": ["nG@1"]})
    rep = pd.DataFrame({"replicate": np.repeat(np.arange(40), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 40,
                        "tau": 0.99, "discrepancies": np.tile([1, 0], 40) * (np.arange(80) % 3)})
    tau = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80], "tau": [1.0, 1.0], "low": 1.0, "high": 1.0})
    counts = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80], "discrepancies": [0, 0]})
    return F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                      pairs=120, tau=tau, counts=counts, fragile=None, grid=summarise_grid(rep), off_paper=["x"],
                      fit=None, control=_control(0.3, 1.2, "shown"), link=link)


@pytest.mark.parametrize("level, pairs, state", [(np.nan, 0, "none"), (0.012, 7, "few"), (0.3, 7, "few"),
                                                 (0.012, 30, "unlinked"), (0.3, 30, "linked")])
def test_every_attached_link_caveat_has_its_sentence(level, pairs, state):
    # the r1 crash: a single draw with UG = RawG everywhere (NaN link) but differing replicates attached
    # 'placebo_sim' without a sentence; with too few (cell, topic) pairs the link cannot be judged either
    link = {"level": level, "level_se": np.nan if pairs < 2 else 0.05, "level_pairs": pairs, "runs": level,
            "runs_se": np.nan if pairs < 2 else 0.05, "runs_pairs": pairs, "linked": state == "linked"}
    assert F.link_state(link) == state
    found = _link_findings(link)
    placebo = [r for r in found.rows if r.question.startswith("Over ") and "placebo" in r.question]
    assert len(placebo) == 2 and all(k in found.caveats for r in found.rows for k in r.caveats)
    assert all(("placebo_sim" in r.caveats) == (state != "linked") for r in placebo)
    assert all((r.verdict == "by construction") == (state == "unlinked") for r in placebo)
    cav = found.caveats["placebo_sim"]
    assert ("cannot be" in cav) == (state in ("none", "few")) and "nan" not in cav
    assert ("needs 30 pairs" in cav) == (state == "few")


def test_bonus_link_is_zero_under_uniform_ratings_and_sees_a_planted_link():
    from helpers.replicates.unanimity_placebo import bonus_link

    rng = np.random.default_rng(3)
    topics = np.repeat([f"q{i}" for i in range(60)], 40)
    level = np.tile(np.r_[np.zeros(10), np.ones(15), 2 * np.ones(15)], 60).astype(int)
    qrels = pd.DataFrame({"query_id": topics, "doc_id": [f"d{i}" for i in range(len(topics))], "relevance": level})
    run = qrels[qrels["relevance"] > 0].sample(frac=0.5, random_state=1).assign(run_id="r1", rank=1)
    ratings = rng.integers(0, 3, (len(qrels), 5)).astype(float)
    ratings[level == 0] = 0
    link = bonus_link(qrels, run, [ratings], [{"d_max": 2, "n": 5}], 0.2)
    assert abs(link["level"]) < 0.05 and abs(link["runs"]) < 0.05 and not link["linked"] and link["judged"]
    assert link["level_pairs"] == 60 and 0 < link["level_se"] < 0.05
    planted = ratings.copy()
    planted[level == 2] = 2   # level-2 items unanimous: the bonus follows the level
    assert bonus_link(qrels, run, [planted], [{"d_max": 2, "n": 5}], 0.2)["linked"]
    few = bonus_link(qrels[qrels["query_id"].isin(["q1", "q2"])], run, [planted[:80]], [{"d_max": 2, "n": 5}], 0.2)
    assert few["level_pairs"] == 2 and not few["judged"] and not few["linked"]   # a large r over 2 pairs is not read
    none = bonus_link(qrels, run, [np.full_like(ratings, 2.0)], [{"d_max": 2, "n": 5}], 0.2)   # no bonus anywhere
    assert np.isnan(none["level"]) and none["level_pairs"] == 0 and not none["judged"]


@pytest.mark.parametrize("small, large, verdict", [([3, 3, 3, 3], [0, 0, 0, 0], "by construction"),
                                                   ([0, 0, 0, 0], [2, 2, 2, 2], "by construction"),
                                                   ([0, 1, 0, 0], [4, 5, 6, 7], "by construction")])
def test_the_fade_with_n_is_by_construction_in_every_configuration(small, large, verdict):
    # uniform ratings make UG's relative bonus shrink with N: the label comes from the model, the numbers from the run
    from helpers.replicates.unanimity import summarise_grid

    rep = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 4,
                        "tau": 1.0, "discrepancies": [v for a, b in zip(small, large) for v in (a, b)]})
    row = F._n_row(summarise_grid(rep), 5, 80, ())
    assert row.verdict == verdict and "by_construction" in row.caveats
    assert row.numbers["mean"] == np.mean(small) - np.mean(large)   # the run's numbers, whatever they show


@pytest.mark.parametrize("measures, p, rows", [(["AP"], 0.18, 1), (["AP", "P@10"], 0.2, 1), (["nG@1"], 0.0, 2),
                                               (["nG@1", "AP"], 0.2, 2)])
def test_no_findings_table_without_rows(measures, p, rows):
    # the referee's config B (gain-blind measures only, Dmax [1], N [2, 15, 20], cutoff 5): one row, not a bare header
    cfg = F.check_parameters({**_defaults(), "seed": 423113, "d_max_list": [1], "n_list": [2, 15, 20], "p": p,
                              "measure_names": measures, "cutoff": 5, "B": 1000, "alpha": 0.01, "replicates": 1,
                              "team_skill_sd": 1.19, "best_run_by": "rawg", "placebo_cells": "all"})
    cells = pd.MultiIndex.from_product([measures, [1], [2, 15, 20]], names=["measure", "d_max", "n"]).to_frame(index=False)
    graded = cells["measure"].isin(cfg.graded)
    tau = cells.assign(tau=np.where(graded, 0.98, 1.0), low=np.where(graded, 0.95, 1.0), high=1.0)
    counts = cells.assign(discrepancies=np.where(graded, 1, 0))
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, fragile=None, off_paper=["d_max_list"], fit=None,
                       identical=p == 0)
    assert len(found.rows) == rows and len(found.table()) == rows
    if not cfg.graded:
        row = found.rows[0]
        assert row.verdict == "by construction" and row.caveats == ("by_construction",)
        assert row.run.endswith(f"τ = 1 in {len(cells)} of {len(cells)} (cell, measure) pairs, 0 discrepancies")
        assert row.run.startswith("AP sees only" if measures == ["AP"] else "AP and P@10 see only")
        assert not any("cannot differ" in s for s in found.prose)   # said once, in the row


def test_no_appendix_gives_the_true_reason():
    from helpers.findings.unanimity import _no_appendix

    assert _no_appendix([], False, True).startswith("no graded measure")
    assert _no_appendix(["nERR@10"], True, True).startswith("UG = RawG")
    assert _no_appendix(["nERR@10"], False, False).endswith("it has one replicate")
    assert _no_appendix(["nERR@10"], False, True).endswith("it has one N")
