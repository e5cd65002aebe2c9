"""Notebook 02's printed lines (helpers.findings.unanimity_text): what sections 6-8 and Appendix A
print, from literal inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from helpers.findings import unanimity_text as T


def test_table3_lines_name_the_range_and_the_cells_that_cannot_fail():
    total = {"cells": 45, "paper": 24, "mean": 26.4, "low": 17.0, "high": 37.0, "inside": True, "replicates": 40}
    cells = pd.DataFrame({"disc_low": [0, 0, 1], "inside": [True, True, False]})
    lines = T.table3_lines(total, cells)
    assert lines[0] == ("Table 3 total over the 45 shared cells: paper 24; stand-in 26.4 [17, 37] (range over 40 "
                        "replicates): inside")
    assert lines[1].endswith("; 2 of the 3 ranges start at 0 (little power there)")
    assert T.table3_lines(None, None) == ["none of the paper's Table 3 cells is in this run's grid: nothing to set "
                                          "against it"]


def test_variant_metrics_and_summary_lines():
    s = pd.DataFrame({"measure": ["nG@1", "nG@1", "AP"], "d_max": 2, "n": [5, 10, 5], "tau": [0.985, 1.0, 1.0],
                      "low": [0.97, 1.0, 1.0], "high": [1.0, 1.0, 1.0], "discrepancies": [2, 0, 0],
                      "significant_RawG": [60, 61, 50], "significant_UG": [61, 61, 50]})
    m = T.variant_metrics(s)
    assert m["nG@1"]["Dmax=2"]["N=5"] == {"tau": 0.985, "ci": [0.97, 1.0], "discrepancies": 2,
                                          "significant_RawG": 60, "significant_UG": 61}
    assert T.summary_lines(s, ["nG@1", "AP"], ["AP"]) == [
        "nG@1: tau 0.985..1.000, discrepancies 2",
        "AP: tau 1.000..1.000, discrepancies 0 (by construction: it only sees whether a gain is > 0)"]


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
