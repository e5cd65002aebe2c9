"""Notebook 02's placebo control: does UG change more significance calls than any bonus of its size?

A randomised Tukey HSD call near α flips under any small change of the scores, so a count of
discrepancies between RawG and UG (Sakai, EVIA 2017, Table 3) says little on its own. The placebo
(:func:`helpers.unanimity.placebo_gain`) adds UG's own bonuses p·N·(Dmax − D) to RawG, shuffled
among the items of each topic with RawG > 0: the same sizes and support as UG, but unrelated to how
unanimous each item's raters were. Its discrepancies with RawG are counted on the same cells and
the same HSD permutations as UG's (:func:`helpers.unanimity.compare_gains_many`), and
:func:`compare` sets the two counts side by side over the replicates.

Testing the placebo costs about a third of a replicate's time, so by default (``scope``
``"small_n"``) only the cells with the two smallest N of the grid test it, where UG's bonus and the
discrepancies are largest; ``"all"`` (profile ``paper``) tests every cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["SCOPES", "placebo_cells", "scope_text", "single_draw", "compare"]

#: Which cells test the placebo: the two smallest N of the grid, or all cells.
SCOPES = ("small_n", "all")


def placebo_cells(cells: Sequence[Mapping], scope: str) -> list[tuple[int, int]]:
    """The ``(d_max, n)`` cells of ``cells`` that test the placebo under ``scope`` (:data:`SCOPES`)."""
    if scope not in SCOPES:
        raise ValueError(f"placebo_cells must be one of {SCOPES}, got {scope!r}")
    pairs = [(int(c["d_max"]), int(c["n"])) for c in cells]
    if scope == "all":
        return pairs
    small = sorted({n for _, n in pairs})[:2]
    return [(d, n) for d, n in pairs if n in small]


def scope_text(chosen: Sequence[tuple[int, int]], cells: Sequence[Mapping]) -> str:
    """The placebo's cells in words: ``"all 15 cells"`` or ``"the 6 cells with N ≤ 10"``."""
    if len(chosen) == len(cells):
        return f"all {len(cells)} cells"
    return f"the {len(chosen)} cells with N ≤ {max(n for _, n in chosen)}"


def single_draw(results: Sequence[dict], graded: Sequence[str]) -> dict:
    """UG's and the placebo's discrepancies with RawG in one draw, summed over the graded measures
    of the variants that tested the placebo (``results``: :func:`helpers.unanimity.compare_gains_many`);
    ``cells`` counts those variants (0: none tested it)."""
    ug = pl = cells = 0
    for res in results:
        if "placebo" not in res:
            continue
        cells += 1
        d = res["discrepancies"]
        ug += int(d["measure"].isin(graded).sum())
        p = res["placebo"]
        pl += int(p.loc[p["measure"].isin(graded), "discrepancies"].sum())
    return {"ug": ug, "placebo": pl, "cells": cells}


def compare(rep: pd.DataFrame, graded: Sequence[str], min_draws: int = 40) -> dict | None:
    """UG's discrepancies against the placebo's over the replicates (rows of
    :func:`helpers.replicates.unanimity.unanimity_grid` with ``placebo_discrepancies``), summed per
    replicate over the graded measures and the cells that tested the placebo.

    Returns ``ug``, ``placebo`` (mean per replicate), ``diff`` (mean of UG − placebo), ``low``,
    ``high`` (its 95% CI of the mean, Student's t, :func:`helpers.stats.summary.mean_interval`;
    NaN below ``min_draws`` replicates, where no interval is read), ``replicates``, ``cells`` and
    ``verdict``: "shown" (the CI lies above 0: UG flips more calls than its placebo), "does not
    hold" (below 0: fewer), "not shown" (the CI holds 0) or "cannot tell" (fewer than
    ``min_draws`` replicates, or no discrepancy under either gain in any replicate). ``None``
    when no cell tested the placebo.
    """
    from ..stats.summary import mean_interval

    if "placebo_discrepancies" not in rep.columns:
        return None
    tested = rep[rep["measure"].isin(graded) & rep["placebo_discrepancies"].notna()]
    if tested.empty:
        return None
    per = tested.groupby("replicate")[["discrepancies", "placebo_discrepancies"]].sum()
    d = (per["discrepancies"] - per["placebo_discrepancies"]).to_numpy(dtype=float)
    r = len(per)
    low, high = mean_interval(d)[:2] if r >= min_draws else (np.nan, np.nan)
    if r < min_draws or not (per.to_numpy() > 0).any():
        verdict = "cannot tell"
    else:
        verdict = "shown" if low > 0 else "does not hold" if high < 0 else "not shown"
    return {"ug": float(per["discrepancies"].mean()), "placebo": float(per["placebo_discrepancies"].mean()),
            "diff": float(d.mean()), "low": float(low), "high": float(high), "replicates": r,
            "cells": int(tested.groupby(["d_max", "n"]).ngroups), "verdict": verdict}
