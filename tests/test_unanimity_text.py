"""Notebook 02's printed lines (helpers.findings.unanimity_text): what sections 6-8 and Appendix A
print, from literal inputs."""

from __future__ import annotations

import types

import numpy as np
import pandas as pd

from helpers.findings import unanimity_text as T


def test_table3_lines_name_the_range_and_the_cells_that_cannot_fail():
    total = {"cells": 45, "paper": 24, "mean": 26.4, "low": 17.0, "high": 37.0, "inside": True, "replicates": 40}
    cells = pd.DataFrame({"disc_low": [0, 0, 1], "inside": [True, True, False]})
    lines = T.table3_lines(total, cells)
    assert lines[0] == ("Table 3 total over the 45 shared (cell, measure) pairs: paper 24; stand-in 26.4 [17, 37] (range over 40 "
                        "replicates): inside")
    assert lines[1].endswith("; 2 of the 3 ranges start at 0 (little power there)")
    assert T.table3_lines(None, None) == ["none of the paper's Table 3 (cell, measure) pairs is in this run's grid: nothing to set "
                                          "against it"]


def test_variant_metrics_and_summary_lines():
    s = pd.DataFrame({"measure": ["nG@1", "nG@1", "AP"], "d_max": 2, "n": [5, 10, 5], "tau": [0.985, 1.0, 1.0],
                      "low": [0.97, 1.0, 1.0], "high": [1.0, 1.0, 1.0], "discrepancies": [2, 0, 0],
                      "significant_RawG": [60, 61, 50], "significant_UG": [61, 61, 50]})
    m = T.variant_metrics(s)
    assert m["nG@1"]["Dmax=2"]["N=5"] == {"tau": 0.985, "ci": [0.97, 1.0], "discrepancies": 2,
                                          "significant_RawG": 60, "significant_UG": 61}
    assert T.summary_lines(s, ["nG@1", "AP"], ["AP"]) == [
        "one draw (no replicates: its Monte Carlo spread is not measured)",
        "nG@1: tau 0.985..1.000, discrepancies 2",
        "AP: tau 1.000..1.000, discrepancies 0 (by construction: it only sees whether a gain is > 0)"]
    # with replicates, the single draw's count gets their spread beside it (mean, sd, range)
    rep = pd.DataFrame({"replicate": [0, 0, 1, 1, 2], "measure": ["nG@1", "nG@1", "nG@1", "AP", "nG@1"],
                        "discrepancies": [1, 2, 5, 0, 0]})
    lines = T.summary_lines(s, ["nG@1", "AP"], ["AP"], grid=types.SimpleNamespace(rep=rep))
    assert lines[0] == "one draw (its spread over the replicates beside it)"
    assert lines[1] == "nG@1: tau 0.985..1.000, discrepancies 2 (over 3 replicates: mean 2.7, sd 2.5, 0 to 5)"
    assert lines[2].endswith("discrepancies 0 (by construction: it only sees whether a gain is > 0)")
    two = T.summary_lines(s, ["nG@1", "AP"], [], grid=types.SimpleNamespace(rep=rep))
    assert two[-1] == "total of the graded measures: discrepancies 2 (over 3 replicates: mean 2.7, sd 2.5, 0 to 5)"


def test_fit_line_says_whether_the_fit_tried_the_value():
    fit = pd.DataFrame({"skill_sd": [0.25, 0.65, 1.05], "rmse": [0.007, 0.0032, 0.0027],
                        "best": [False, True, False]})
    assert T.fit_line(fit, 0.65) == "fitted team_skill_sd: 0.65 (smallest RMS gap at 1.05); this run: 0.65"
    assert T.fit_line(fit, 1.05).endswith("this run: 1.05 (not the fit's pick, but a value it tried)")
    assert T.fit_line(fit, 2.0).endswith("this run: 2 (NOT a value the fit tried)")


def test_real_lines_premise_then_tests():
    premise = {"share_full_spread": "real 0.100, simulated 0.221", "mean_spread": "real 1.45, simulated 1.76"}
    conj = {"nG@1": {"tau_text": "τ text", "disc_text": "disc text"}}
    lines = T.real_lines(premise, conj, ["AP"], 50)
    assert lines[0] == ("PREMISE (simulated: mean [range over 50 draws]) - share of items with RawG > 0 at D = Dmax: "
                        "real 0.100, simulated 0.221")
    assert lines[3].startswith("  AP: only sees whether a gain is > 0") and lines[-2:] == ["  nG@1: τ text",
                                                                                           "  nG@1: disc text"]


def test_control_line_states_no_default_replicate_count():
    # SUBJEVAL_FUZZ_SEED=11, config 0: a 2-replicate run printed "fewer than 40 replicates", read as a stale default
    c = {"ug": 3.0, "placebo": 0.5, "diff": 2.5, "low": float("nan"), "high": float("nan"), "replicates": 2}
    assert T.control_line(c, "all 4 cells") == ("placebo on all 4 cells: discrepancies per replicate, UG 3.0, placebo 0.5; "
                                               "UG - placebo +2.5 (too few replicates for an interval)")
    assert "40" not in T.control_line(c, "x")


def test_control_tau_line_and_the_single_draws_placebo_tau():
    c = {"ug": 0.9896, "placebo": 0.9892, "diff": 0.0004, "low": -0.0001, "high": 0.0009, "replicates": 40,
         "every_ug": 12, "every_placebo": 9, "pairs": 18}
    assert T.control_tau_line(c, "the 6 cells with N ≤ 10") == (
        "placebo on the 6 cells with N ≤ 10: mean τ with RawG's ranking, UG 0.9896, placebo 0.9892; UG - placebo "
        "+0.0004 [-0.0001, +0.0009] (95% CI of the mean over 40 replicates); τ < 1 in every replicate: UG 12, "
        "placebo 9 of 18 (cell, measure) pairs")
    few = {**c, "low": float("nan"), "high": float("nan"), "replicates": 2}
    assert "(too few replicates for an interval)" in T.control_tau_line(few, "x") and "40" not in T.control_tau_line(few, "x")
    assert T.control_tau_line(None, "x") == "placebo: no cell tested it, or no graded measure"
    one = {"tau_below_ug": 26, "tau_below_placebo": 22, "tau_pairs": 45}
    assert T.placebo_tau_line(one).endswith("same draw: τ with RawG's ranking < 1 in 22 of 45 (cell, measure) pairs; UG: 26 (one draw each, with Monte Carlo "
                                          "spread: with `replicates` ≥ 2, section 7 compares them)")
    assert T.placebo_tau_line({"tau_pairs": 0}) == "placebo: not tested in this draw"


def test_skill_sd_line_says_whether_the_table3_check_is_of_the_fitted_stand_in():
    # the markdown before the Table 3 check cannot know the run's sd: the printed line says it
    fit = pd.DataFrame({"skill_sd": [0.25, 0.65, 1.2], "rmse": [0.007, 0.0032, 0.0029],
                        "best": [False, True, False]})
    assert T.skill_sd_line(fit, 0.65) == ("team_skill_sd 0.65: the value fitted to Table 2's τ, so this checks the "
                                          "calibrated stand-in, not an independent one")
    assert T.skill_sd_line(fit, 1.2).startswith("team_skill_sd 1.2: not the fit's pick (0.65) but a value")
    assert T.skill_sd_line(fit, 1.23) == ("team_skill_sd 1.23: not fitted to Table 2's τ (the fit picks 0.65; it "
                                          "tried 0.25, 0.65, 1.2)")
    assert T.skill_sd_line(None, 1.37) == "team_skill_sd: not the stand-in's fitted one (no fit record for this run)"


def test_dropped_topics_are_said_only_when_a_cell_drops_one():
    tau = pd.DataFrame({"d_max": [2, 2, 4, 4], "n": [5, 5, 5, 5], "measure": ["a", "b"] * 2, "topics": [89, 89, 90, 90]})
    assert T.dropped_topics_line(tau, 90) == (
        "1 cell of 2 leaves out a topic whose simulated ratings are all 0 in this draw (fewest topics: 89 of 90; "
        "column topics of the saved 02_table2_tau.csv)")
    assert T.dropped_topics_line(tau.assign(topics=90), 90) == ""


def _grid(same: list[bool]):
    from types import SimpleNamespace

    cells = pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": [5, 80][:len(same)], "tau_mean": 0.99, "tau_low": 0.98,
                          "tau_high": 1.0, "disc_mean": 1.0, "disc_low": 0.0, "disc_high": 2.0, "ug_equals_rawg": same})
    by_n = pd.DataFrame({"mean": [1.0], "low": [0.0], "high": [2.0], "zero": [3]}, index=pd.Index([5], name="n"))
    return SimpleNamespace(cells=cells, by_n=by_n)


def test_replicates_legend_only_when_a_cell_is_marked(capsys):
    T.show_replicates(_grid([False, True]), ["nG@1"], [], 40)
    text = capsys.readouterr().out
    assert "entries marked UG = RawG: UG equals RawG on every item of that (cell, measure) pair in every replicate" in text
    T.show_replicates(_grid([False, False]), ["nG@1"], [], 40)
    assert "entries marked" not in capsys.readouterr().out


def test_answer_sentence_covers_every_row_and_names_a_model_set_direction():
    from helpers.findings.unanimity_text import BLIND_Q, CONJ_Q, MODEL_SET, answer_sentence, placebo_verdict
    from helpers.notebook.findings import Finding

    reorder = Finding("Over 40 replicates: does UG reorder runs more than a placebo of its size?", "—", "x",
                      "not shown", ("placebo_holm", "placebo_sim"))
    calls = Finding("Over 40 replicates: does UG change more calls than a placebo of its size?", "—", "x", "not shown")
    spread = Finding("Do the real ratings (N = 3, Dmax = 3) spread less than uniform ones?", "assumed", "x", "holds")
    conj = Finding(CONJ_Q, "expected", "x", "cannot tell")
    said = answer_sentence([reorder, calls, spread, conj], 40, {"ug": 9.3, "placebo": 9.25}, True)
    assert said == ("Answer, over 40 simulated replicates against a placebo of UG's size: no difference shown in reordering "
                    "or in significance calls (calls per replicate: UG 9.3, placebo 9.2). Real ratings spread less "
                    "than uniform ones: holds; Sakai's conjecture (real ratings move τ and calls more than uniform "
                    "ones): cannot tell.")
    assert all(len(s.split()) <= 50 for s in said.split(". "))
    less = Finding(reorder.question, "—", "x", "by construction", ("placebo_sim",), {"test_verdict": "does not hold"})
    assert "(the rating model sets the direction (by construction)" in answer_sentence([less, calls], 40, None, True)
    # by construction (the bonus carries nothing that orders runs): said, and the paper's rows follow in a sentence
    same = [Finding(r.question, "—", "x", "by construction", ("placebo_sim",), {"test_verdict": "not shown"})
            for r in (reorder, calls)]
    t2 = Finding("Does the stand-in give Table 2's τ, cell by cell?", "p", "x", "by construction", (),
                 {"inside": 27, "informative": 28})
    t3 = Finding("Is the paper's Table 3 total inside the stand-in's range over replicates?", "p", "x", "agrees", (),
                 {"paper": 24, "low": 17.0, "high": 37.0})
    assert answer_sentence([t2, t3, *same], 40, {"ug": 22.6, "placebo": 22.5}, True) == (
        "Answer, over 40 simulated replicates against a placebo of UG's size: no difference shown in reordering or in "
        "significance calls (calls per replicate: UG 22.6, placebo 22.5), as uniform ratings predict (by "
        "construction). The stand-in matches Table 2's τ in 27 of 28 informative (cell, measure) pairs: by calibration; Table 3's total, 24, "
        "against the stand-in's range 17 to 37: agrees.")
    p, verdict, _ = placebo_verdict({"p_holm": 1e-4, "verdict": "does not hold"}, simulated=True)
    assert verdict == "does not hold" and p.endswith(MODEL_SET)
    assert MODEL_SET not in placebo_verdict({"p_holm": 1e-4, "verdict": "does not hold"}, simulated=False)[0]
    blind = answer_sentence([Finding(BLIND_Q, "—", "x", "by construction")], 40, None, True)
    assert blind == ("Answer: the selected measures are gain-blind, so UG changes neither their ranking of runs "
                     "nor their significance calls (by construction).")


def test_control_lines_give_one_true_reason_when_no_placebo_was_tested():
    assert T.control_lines(None, None, "", ["AP"]) == "placebo: not tested, no cell tested it"
    assert T.control_lines(None, None, "", []) == ("placebo: not tested, no graded measure (the selected measures "
                                                   "cannot see UG's bonus)")


def test_every_section_pointer_of_notebook_02_names_a_section_about_it():
    # a pointer such as "(spread over replicates: section 7)" must lead to the section that holds it
    import json
    import re
    from pathlib import Path

    import helpers.findings.unanimity as F
    import helpers.findings.unanimity_text as T

    nb = json.loads((Path(__file__).resolve().parents[1] / "notebooks" / "02_unanimity_evaluation.ipynb").read_text())
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    heads = dict(re.findall(r"^## (\d+)\. (.+)$", text, flags=re.M))
    apps = set(re.findall(r"^## Appendix ([A-Z])\.", text, flags=re.M))
    code = text + Path(F.__file__).read_text() + Path(T.__file__).read_text()
    assert heads and apps
    for n in re.findall(r"[Ss]ections? (\d+)", text):
        assert n in heads, n
    for a in re.findall(r"Appendix ([A-Z])\b", text):
        assert a in apps, a
    for n in re.findall(r"(?:spread over replicates: |[Ss]ection )(\d+)(?: compares them| redraws)?\)?", code):
        assert n in heads or n == "0", n
    for n in re.findall(r"spread over replicates: section (\d+)|section (\d+) compares them|section (\d+) redraws", code):
        k = next(x for x in n if x)
        assert "replicates" in heads[k].lower(), (k, heads[k])


def test_mean_counts_share_one_rounding_rule_so_parts_and_totals_agree():
    # fix02h item 5: per-cell means 0.025 + 0.025 printed "0.03" each beside a total "0.1"
    assert T.count_digits(22.6, 22.5, 0.11) == 1 and T.count_digits(0.5, 0.0) == 1
    assert T.count_digits(0.05, 0.075) == 3 and T.count_digits(0.0004) == 4
    assert [T.mean_count(v) for v in (0.025, 0.05, 26.4, 0.0)] == ["0.025", "0.050", "26.4", "0.0"]
    assert T.count_bracket(0.025, 0, 1) == "0.025 [0, 1]"
    assert "UG 22.6, placebo 22.5; UG - placebo +0.1 [" in T.control_line(   # the default: as before
        {"ug": 22.55, "placebo": 22.475, "diff": 0.075, "low": -1.75, "high": 1.9, "replicates": 40}, "x")
    line = T.control_line({"ug": 0.05, "placebo": 0.075, "diff": -0.025, "low": -0.07, "high": 0.02,
                           "replicates": 40}, "all 2 cells")
    assert "UG 0.050, placebo 0.075; UG - placebo -0.025 [" in line
