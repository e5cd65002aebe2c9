"""Notebook 02's single draw in words: section 4's lines on Kendall's τ between the RawG and UG
rankings (Sakai, EVIA 2017, Table 2), for the graded measures only (a gain-blind measure sees only
whether a gain is > 0, and UG > 0 exactly when RawG > 0, so its τ is 1 by construction)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..notebook import claims
from .unanimity import tau_holm_line, tau_tests
from .unanimity_text import dropped_topics_line, placebo_tau_line

__all__ = ["tau_lines", "identical_cells"]


def identical_cells(tau: pd.DataFrame, graded: Sequence[str]) -> int:
    """The (measure, Dmax, N) cells of the graded measures whose τ is 1 (identical rankings)."""
    g = tau[tau["measure"].isin(graded)]
    return int(np.isclose(g["tau"], 1.0, rtol=0, atol=1e-12).sum())


def tau_lines(tau: pd.DataFrame, graded: Sequence[str], blind: Sequence[str], gains_equal: bool,
              n_list: Sequence[int], alpha: float, placebo: Mapping, topics: int) -> list[str]:
    """Section 4's lines under the τ tables: gain-blind measures left out, the share of cells with
    τ = 1, the cells whose 95% CI excludes 1 (uncorrected, then Holm), the placebo's count beside
    UG's (``placebo``: :func:`helpers.replicates.unanimity_placebo.single_draw`) and the topics a
    cell dropped (``topics``: the collection's)."""
    lines = []
    g = tau[tau["measure"].isin(graded)]
    if blind:
        lines.append(f"{claims.listing(list(blind))}: tau = 1 in every cell by construction (only "
                     f"{'sees' if len(blind) == 1 else 'see'} whether a gain is > 0); not counted below")
    if gains_equal:
        lines.append("UG = RawG on every item in every cell of this draw (p = 0, or every item with RawG > 0 has "
                     "ratings spanning 0..Dmax): nothing to test")
    elif graded:
        below = g[g["high"].round(9) < 1]
        lines.append(f"tau = 1 (identical rankings) in "
                     f"{claims.share_of(identical_cells(tau, graded), len(g), '(cell, measure) pair')} of "
                     f"{claims.listing(list(graded))}; smallest tau {claims.number(g['tau'].min())}")
        level = "" if alpha == 0.05 else f" (Table 2's level; the tests below use α = {alpha:g})"
        lines.append(f"95% CI{level} excludes 1 in {claims.share_of(len(below), len(g), 'pair')}"
                     + (f", all with N <= {int(below['n'].max())}"
                        if len(below) and int(below["n"].max()) < max(n_list) else ""))
        lines.append(tau_holm_line(tau_tests(tau, graded, alpha), alpha))
        lines.append(placebo_tau_line(placebo))   # the same perturbation's size, unrelated to unanimity
    else:
        lines.append("no selected measure sees how large a gain is: RawG and UG cannot differ, nothing to count")
    dropped = dropped_topics_line(tau, topics)   # a topic whose ratings are all 0 in a cell
    return lines + ([dropped] if dropped else [])
