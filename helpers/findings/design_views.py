"""Notebook 06's printed tables, narrow enough to read: each estimate with its interval in one cell.

The notebook saves the full tables (``reports/tables/06_*.csv``, every column); what it prints
joins an estimate and its 95% interval into one text cell (``"321 [229, 445]"``) and leaves out the
columns only a program reads (the ``point_inside`` flag, split-half test counts).  Nothing is
recomputed here: the cells are the saved values, formatted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .design_split import missing as _missing, n_ci as _n_ci

__all__ = ["with_interval", "sizes_view", "g_and_d_view", "cost_view", "coinciding"]


def with_interval(value, low, high, fmt: str = "{:.4f}") -> str:
    """``"0.9394 [0.8937, 0.9718]"``: an estimate and its interval in one cell (``""`` without an
    estimate; an end without a value reads ``unbounded``)."""
    if _missing(value):
        return ""
    def end(v):
        return "unbounded" if _missing(v) or not np.isfinite(float(v)) else fmt.format(float(v))
    if _missing(low) and _missing(high):
        return fmt.format(float(value))
    return f"{fmt.format(float(value))} [{end(low)}, {end(high)}]"


def _topics(value, low, high) -> str:
    return _n_ci(value, low, high)


#: The sizes table's column of paired sizes: crossed assessors add their bias to the t-test's n.
PAIRED_COLUMN = {False: "n exact (2 V_E2)", True: "n exact (2 V_E2; t-test: + assessor bias)"}


def sizes_view(sizes: pd.DataFrame, crossed: bool = False) -> pd.DataFrame:
    """:func:`helpers.design.study.sizes_by_measure` as printed: Sakai's approximate n, the exact n from
    2 V_E1 and from 2 V_E2 with their bootstrap intervals, V_E1 / V_E2 and the power at Sakai's n.
    ``crossed`` (s x t x a): the t-test's n adds the assessors' bias, and the column's name says so."""
    out = pd.DataFrame({
        "measure": sizes["measure"], "method": sizes["method"],
        "V_E1": sizes["V_E1"].map(lambda v: f"{v:.4f}"), "n approx": sizes["n_approx"].map(lambda v: _n_ci(v, None, None)),
        "n exact (from V_E1)": [_topics(*r) for r in sizes[["n_exact", "n_exact_low", "n_exact_high"]].itertuples(index=False)],
        "V_E2": sizes["V_E2"].map(lambda v: f"{v:.4f}"),
        PAIRED_COLUMN[crossed]: ["" if m.startswith("ANOVA") else _topics(*r) for m, *r in       # the ANOVA does not pair
                             sizes[["method", "n_paired", "n_paired_low", "n_paired_high"]].itertuples(index=False)],
        "V_E1 / V_E2": [with_interval(*r, fmt="{:.1f}") for r in sizes[["ratio", "ratio_low", "ratio_high"]].itertuples(index=False)]})
    if "power_sakai" in sizes:
        out["analytic power at Sakai's n"] = sizes["power_sakai"].map(lambda v: "" if _missing(v) else f"{float(v):.4f}")
    return out


def g_and_d_view(gd: pd.DataFrame) -> pd.DataFrame:
    """The G- and D-study table as printed: the variance components, Eρ² and Φ with their intervals and
    the topics for the target with theirs."""
    out = gd[["measure"] + [c for c in gd if c.startswith("var_")]].copy()
    out["Erho2"] = [with_interval(*r) for r in gd[["erho2", "erho2_low", "erho2_high"]].itertuples(index=False)]
    out["Phi"] = [with_interval(*r) for r in gd[["phi", "phi_low", "phi_high"]].itertuples(index=False)]
    out["topics"] = [_topics(*r) for r in gd[["topics_needed", "topics_low", "topics_high"]].itertuples(index=False)]
    return out


def cost_view(curve: pd.DataFrame) -> pd.DataFrame:
    """:func:`helpers.design.cost.trade_off_bootstrap`'s curve as printed: topics with their interval,
    the cost and its difference to the cheapest with the bootstrap's intervals, the share of resamples
    in which the design is cheapest, and whether it is within noise of the cheapest."""
    def money(v):
        return "unbounded" if not np.isfinite(float(v)) else f"{float(v):,.0f}"

    def cost(v, lo, hi):
        if _missing(v):
            return "unreachable"
        return money(v) if _missing(lo) or _missing(hi) else f"{money(v)} [{money(lo)}, {money(hi)}]"
    best = float(pd.to_numeric(curve["cost"], errors="coerce").min())
    return pd.DataFrame({
        "n_a": curve["n_assessors"].astype(int),
        "topics": [_topics(*r) for r in curve[["n_topics", "n_low", "n_high"]].itertuples(index=False)],
        "cost": [cost(*r) for r in curve[["cost", "cost_low", "cost_high"]].itertuples(index=False)],
        "minus cheapest": [cost(None if _missing(c) else float(c) - best, lo, hi)
                           for c, lo, hi in curve[["cost", "diff_low", "diff_high"]].itertuples(index=False)],
        "cheapest share": curve["cheapest_share"].map(lambda v: f"{float(v):.3f}"),
        "within noise": curve["within_noise"].astype(bool)})


def coinciding(curve: pd.DataFrame, label: str, rel: float = 0.02) -> str | None:
    """``"nDCG@10 and ERR@10 overlap (2 V_E1): within 2% at every minD"``: measures whose curves of
    :func:`helpers.design.study.sizes_against_difference` differ by at most ``rel`` of the larger value at
    every minD (on the figure's log axis one line hides the other), or None."""
    ns = {str(m): c["n_exact"].to_numpy(dtype=float) for m, c in curve.groupby("measure", sort=False)}
    names, said, out = list(ns), set(), []
    for i, a in enumerate(names):
        if a in said:
            continue
        near = [b for b in names[i + 1:] if b not in said and len(ns[b]) == len(ns[a]) and np.all(
            np.abs(ns[a] - ns[b]) <= rel * np.fmax(ns[a], ns[b]))]
        if near:
            said.update(near)
            out.append(f"{' and '.join([a, *near])} overlap ({label}): within {rel:.0%} at every minD")
    return "; ".join(out) or None
