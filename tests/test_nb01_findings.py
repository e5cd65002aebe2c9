"""helpers.findings.gains (notebook 01's findings): the grow-with-N row, the tie sentences, the
parameter help that papermill shows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import papermill as pm
import pytest

from helpers import paths
from helpers.findings import gains as gain_findings
from helpers.simulate import ratings as sim_ratings

EXACT = {"worst": 0.004, "worst_z": 1.6, "z_limit": 4.0, "cells": 3, "family_alpha": 0.001, "agrees": True}


def _grid(rows):
    """A literal grid: (d_max, n, share_full_spread, share_ties_broken)."""
    return pd.DataFrame(rows, columns=["d_max", "n", "share_full_spread", "share_ties_broken"])


def _found(grid, p=0.2):
    return gain_findings.findings(table1_ok=True, table1_cells=35, stc2=[4.6, 4.0], tie_p=[0.2], grid=grid,
                                  exact=EXACT, p=p)


def _row(found, start):
    return next(r for r in found.rows if r.question.startswith(start))


def test_growth_with_n_is_by_construction_and_says_it_reproduces_the_remark():
    found = _found(_grid([(2, 5, 0.747, 0.206), (2, 80, 1.0, 0.0), (4, 5, 0.423, 0.590), (4, 80, 1.0, 0.0)]))
    row = _row(found, "Does the share of items at D = Dmax grow")
    assert row.verdict == "by construction"
    assert "Sec. 4 remark" in row.paper
    assert row.run == "N = 5 → 80: 0.747 → 1.000 (Dmax = 2); 0.423 → 1.000 (Dmax = 4)"
    letter = found.letters()["exact_uniform"]
    assert found.table().set_index("question").loc[row.question, "verdict"] == f"by construction ({letter})"
    assert "reproduces Sakai's remark and is no evidence about assessors" in found.limitations()


def test_growth_with_one_n_cannot_tell_and_a_simulated_dip_is_named():
    one = _row(_found(_grid([(2, 5, 0.747, 0.206), (4, 5, 0.423, 0.590)])), "Does the share")
    assert (one.verdict, one.caveats) == ("cannot tell", ())
    dip = _row(_found(_grid([(2, 40, 0.999, 0.0), (2, 80, 0.998, 0.0)])), "Does the share")
    assert dip.verdict == "by construction"
    assert dip.run.endswith("the simulated share dips at Dmax = 2") and dip.numbers["dips"] == [2]


def test_ties_at_dmax_1_are_named_not_dropped():
    """The referee's case: d_max_list [1, 2, 3], N = 10; Dmax = 1 is said, and why it is set apart."""
    grid = _grid([(1, 10, 0.998, 0.0), (2, 10, 0.966, 0.021), (3, 10, 0.90, 0.113)])
    prose = _found(grid).prose
    assert prose[0] == ("At Dmax = 1 equal RawG forces equal D, so UG can break no raw-gain tie: 0 in its 1 cell "
                        "(N = 10), left out of the next sentence.")
    assert prose[1] == ("Over the cells with Dmax ≥ 2, UG breaks the largest share of raw-gain ties at "
                        "Dmax = 3 / N = 10 (0.113); the smallest share is Dmax = 2 / N = 10 (0.021).")


def test_ties_without_dmax_1_read_as_before_and_only_dmax_1_says_so():
    grid = _grid([(2, 5, 0.747, 0.206), (2, 10, 0.966, 0.020), (4, 5, 0.423, 0.590), (4, 10, 0.794, 0.256)])
    assert _found(grid).prose[0] == ("UG breaks the largest share of raw-gain ties at Dmax = 4 / N = 5 (0.590); "
                                     "the smallest share is Dmax = 2 / N = 10 (0.020).")
    only = _found(_grid([(1, 5, 0.97, 0.0), (1, 10, 0.998, float("nan"))])).prose
    assert only[0] == "At Dmax = 1 equal RawG forces equal D, so UG can break no raw-gain tie (N = 5 and 10)."
    assert not any("largest share" in s for s in only)
    zero = _found(_grid([(1, 5, 0.97, 0.0), (2, 5, 0.7, 0.0), (3, 5, 0.6, 0.0)]), p=0.0).prose
    assert zero[1] == "UG breaks no raw-gain tie in any of the 2 cells with Dmax ≥ 2 (p = 0)."


def test_a_broken_tie_at_dmax_1_is_an_error_not_a_sentence():
    with pytest.raises(ValueError, match="Dmax = 1"):
        _found(_grid([(1, 10, 0.998, 0.01), (2, 10, 0.966, 0.021)]))


def test_simulated_dmax_1_breaks_no_tie():
    """On a real simulation (uniform ratings 0/1), the share the sentence calls 0 is 0."""
    grid = sim_ratings.spread_grid([1, 2, 3], [10], 2000, 0.2, np.random.default_rng(7))
    assert grid.loc[grid.d_max == 1, "share_ties_broken"].tolist() == [0.0]
    assert grid.loc[grid.d_max > 1, "share_ties_broken"].gt(0).all()
    assert _found(grid).prose[0].startswith("At Dmax = 1 equal RawG forces equal D")


RANGES = {"profile": 'a name: "default"', "seed": "integer ≥ 0:", "p": "in [0, 1]:", "d_max_list": "integers ≥ 1:",
          "n_list": "integers ≥ 1:", "n_items": "integer ≥ 100:", "real_datasets": '[], "stc-ja" and/or "dl19-agreement":',
          "ratings_path": '"" (none) or a file, folder or glob:',
          "ratings_layout": '"long", "wide", "qrels" or "qrels_jg":', "ratings_d_max": "integer ≥ 1:",
          "replicates": "integer ≥ 2:"}


def test_papermill_help_states_each_range_on_its_first_line():
    """papermill --help-notebook shows only a parameter's first comment line: it opens with the range."""
    info = pm.inspect_notebook(str(paths.NOTEBOOKS / "01_gain_definitions.ipynb"))
    assert set(info) == set(RANGES)
    for name, start in RANGES.items():
        assert info[name]["help"].startswith(start), (name, info[name]["help"])


def _real_table():
    """The real run's dl19-agreement rows (N = 8, Dmax = 3, 200 draws), literal."""
    cols = ["share_full_spread", "mean_spread", "mean_bonus", "share_ties_broken"]
    real = dict(zip(cols, [0.147, 1.877, 1.796, 0.305]))
    same = {"share_full_spread": (0.470, 0.399, 0.528), "mean_spread": (2.290, 2.215, 2.362),
            "mean_bonus": (1.136, 1.021, 1.257), "share_ties_broken": (0.438, 0.374, 0.494)}
    rows = [{"dataset": "dl19-agreement", "source": "real", "N": 8, "Dmax": 3, "items": 163,
             **real, **{f"{c}_low": v for c, v in real.items()}, **{f"{c}_high": v for c, v in real.items()}},
            {"dataset": "dl19-agreement", "source": "uniform, same RawG", "N": 8, "Dmax": 3, "items": 163,
             **{c: v[0] for c, v in same.items()}, **{f"{c}_low": v[1] for c, v in same.items()},
             **{f"{c}_high": v[2] for c, v in same.items()}}]
    return pd.DataFrame(rows)


def test_the_spread_row_asks_only_about_spread_and_ties_have_their_own_row():
    """Referee round 6: both spread measures hold for dl19-agreement; fewer ties broken is its own row."""
    table = _real_table()
    found = gain_findings.findings(table1_ok=True, table1_cells=35, stc2=[4.6, 4.0], tie_p=[0.2],
                                   grid=_grid([(2, 5, 0.747, 0.206)]), exact=EXACT, p=0.2, real_table=table,
                                   verdicts=gain_findings.premise(table), replicates=200)
    spread = _row(found, "dl19-agreement (N = 8, Dmax = 3): do real ratings spread less")
    assert spread.question.endswith("(share at D = Dmax, mean D)?")
    assert (spread.verdict, spread.run) == ("holds", "2 of 2 parts hold")
    tie = _row(found, "Does UG break more RawG ties")
    assert tie.verdict == "does not hold"
    assert tie.run == "real vs uniform mean [95% interval]: dl19-agreement 0.305 vs 0.438 [0.374, 0.494]"
    assert "uncorrected" not in tie.caveats   # one set, one comparison
    assert "The premise of Sakai's conjecture holds for dl19-agreement." in found.prose


def _settings(p):
    from helpers import gains
    patterns = np.array([[a, b, c] for a in range(3) for b in range(a, 3) for c in range(b, 3)], dtype=float)
    table = pd.DataFrame({"ratings": [" ".join(str(int(x)) for x in row) for row in patterns]})
    for name in ("sum (RawG)", "WG", "UG"):
        table[name] = gains.apply_setting(patterns, name, d_max=2, p=p)
    return table


def test_ug_reverses_the_rawg_order_of_1_1_1_and_0_2_2_at_p_0_2_and_the_reading_says_so():
    """Referee round 6: (1 1 1) RawG 3 -> UG 4.2 lies above (0 2 2) RawG 4 -> UG 4.0."""
    rev = gain_findings.rawg_reversals(_settings(0.2))
    assert rev["sum (RawG)"] == [] and rev["UG"] == [("0 2 2", "1 1 1")]
    assert rev["WG"][0] == ("0 2 2", "0 0 1") and len(rev["WG"]) == 8
    lines = gain_findings.settings_reading(_settings(0.2), 0.2)
    assert "  UG: 1, e.g. (0 2 2) RawG 4 → 4.000 below (1 1 1) RawG 3 → 4.200" in lines[-1]
    assert "  sum (RawG): none" in lines and "of the 42 pairs with different RawG" in lines[2]
    assert gain_findings.rawg_reversals(_settings(0.0))["UG"] == []       # p = 0: UG is RawG
    assert "  UG: none" in gain_findings.settings_reading(_settings(0.0), 0.0)


def test_order_with_ties_joins_equal_values():
    labels = ["Item 5", "Item 6", "Item 7"]
    assert gain_findings.order_with_ties([3.0, 3.5, 4.0], labels) == "Item 7 > Item 6 > Item 5"
    assert gain_findings.order_with_ties([3.0, 3.0, 3.0], labels) == "Item 5 = Item 6 = Item 7"
    assert gain_findings.order_with_ties([3.0, 2.5, 3.0], labels) == "Item 5 = Item 7 > Item 6"
    with pytest.raises(ValueError, match="2 values for 3 labels"):
        gain_findings.order_with_ties([1.0, 2.0], labels)


def test_n_1_cells_are_set_apart_as_dmax_1_cells_are():
    """Referee round 6, rB: Dmax {1, 6, 7}, N {1, 4}; with N = 1 D is always 0, no tie can break."""
    grid = _grid([(1, 1, 1.0, 0.0), (1, 4, 0.9, 0.0), (6, 1, 0.0, 0.0), (6, 4, 0.3, 0.41),
                  (7, 1, 0.0, float("nan")), (7, 4, 0.25, 0.45)])
    prose = _found(grid).prose
    assert prose[0] == ("At Dmax = 1 equal RawG forces equal D and with N = 1 D is always 0, so UG can break no "
                        "raw-gain tie: 0 in its 4 cells (Dmax = 1 or N = 1), left out of the next sentence.")
    assert prose[1] == ("Over the cells with Dmax ≥ 2 and N ≥ 2, UG breaks the largest share of raw-gain ties at "
                        "Dmax = 7 / N = 4 (0.450); the smallest share is Dmax = 6 / N = 4 (0.410).")
    one = _found(_grid([(6, 1, 0.0, 0.0), (6, 4, 0.3, 0.41)])).prose
    assert list(one[0:2]) == ["With N = 1 D is always 0, so UG can break no raw-gain tie: 0 in its 1 cell (N = 1), left out "
                        "of the next sentence.", "In the one cell with N ≥ 2 (Dmax = 6 / N = 4), UG breaks "
                        "0.410 of raw-gain ties."]
    with pytest.raises(ValueError, match="N = 1"):
        _found(_grid([(6, 1, 0.0, 0.2), (6, 4, 0.3, 0.41)]))
    sim = sim_ratings.spread_grid([2, 3], [1, 4], 500, 0.2, np.random.default_rng(3))
    assert sim.loc[sim.n == 1, "share_ties_broken"].fillna(0).tolist() == [0.0, 0.0]
