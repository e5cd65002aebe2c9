"""Notebook 02's single draw: the tables gathered from compare_gains_many's results and section 4's lines."""

import numpy as np
import pandas as pd
import pytest

from helpers.findings import unanimity_draw as D
from helpers.replicates import unanimity_draw as R


def _res(m, tau, disc_pairs):
    return {"tau": pd.DataFrame({"measure": [m], "tau": [tau], "low": [tau - 0.05], "high": [min(1.0, tau + 0.05)],
                                 "runs": 10, "topics": 3}),
            "discrepancies": pd.DataFrame({"measure": [m] * disc_pairs, "system_a": "a", "system_b": "b"}),
            "significant": pd.DataFrame({"measure": [m], "RawG": [4], "UG": [5], "pairs": [45]}),
            "hsd_runs": ["a", "b"]}


def test_collect_counts_zero_where_no_pair_and_the_spread_on_literal_ratings():
    # two items rated (2, 2) and (0, 2) on 0..2 with p = 0.5, N = 2: D = 0 and 2; UG bonus p*N*(Dmax - D) = 2 and 0
    sim = pd.DataFrame([[2, 2], [0, 2]])
    cells = [{"d_max": 2, "n": 2}, {"d_max": 2, "n": 4}]
    draw = R.collect(cells, [sim, sim], [_res("nG@1", 0.9, 2), _res("nG@1", 1.0, 0)], 0.5, ["nG@1"], [2], [2, 4])
    assert draw.counts["discrepancies"].tolist() == [2, 0]
    assert draw.counts[["significant_RawG", "significant_UG"]].to_numpy().tolist() == [[4, 5], [4, 5]]
    assert draw.spread.loc[0, ["share_D0", "share_Dmax", "mean_bonus"]].tolist() == [0.5, 0.5, 1.0]
    assert draw.selected == {(2, 2): ["a", "b"], (2, 4): ["a", "b"]} and draw.tau["n"].tolist() == [2, 4]
    with pytest.raises(ValueError, match="2 cells, 1 ratings and 2 results differ"):
        R.collect(cells, [sim], [_res("nG@1", 0.9, 2)] * 2, 0.5, ["nG@1"], [2], [2, 4])


def test_tau_lines_count_graded_cells_and_leave_blind_measures_out():
    tau = pd.DataFrame({"measure": ["nG@1", "nG@1", "AP", "AP"], "d_max": 2, "n": [5, 80, 5, 80], "tau": [0.97, 1.0, 1.0, 1.0],
                        "low": [0.94, 1.0, 1.0, 1.0], "high": [0.99, 1.0, 1.0, 1.0], "runs": 10, "topics": 3})
    placebo = {"tau_pairs": 0}
    lines = D.tau_lines(tau, ["nG@1"], ["AP"], False, [5, 80], 0.05, placebo, 3)
    assert lines[0].startswith("AP: tau = 1 in every cell by construction (only sees")
    assert "(1 of 2, 50%)" in lines[1] and "smallest tau 0.970" in lines[1]
    assert lines[2].startswith("95% CI excludes 1 in") and "all with N <= 5" in lines[2]
    assert D.identical_cells(tau, ["nG@1"]) == 1
    assert D.tau_lines(tau, [], ["AP"], False, [5, 80], 0.05, placebo, 3)[-1].startswith("no selected measure")
    assert D.tau_lines(tau, ["nG@1"], [], True, [5, 80], 0.05, placebo, 3)[0].startswith("UG = RawG on every item")
