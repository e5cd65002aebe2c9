"""Notebook 04's reading of discriminative power (split from :mod:`helpers.findings.diversity`, which
re-exports every name): each measure counted once (:func:`count_once`), measures with a cutoff ranked
together and whole-list ones apart (:func:`at_cutoff`, :func:`leader_lines`), the leaders with the
measures within Monte Carlo noise, each read from its own interval (:func:`power_leaders`), and the
printed form of a power with its Monte Carlo interval (:func:`mc_text`, :func:`mc_interval`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..notebook import claims
from ..replicates.diversity import MIN_LEAD_PAIRS
from .diversity_text import pct, short_leaders

__all__ = ["MC_LEVEL", "MIN_LEAD_PAIRS", "pairs_ahead", "power_verdict", "count_once", "at_cutoff", "leader_intervals", "power_leaders", "leader_lines", "mc_text",
           "mc_floor", "mc_interval", "near_extreme", "leaders_head"]

#: The level of every Monte Carlo interval of discriminative power (:func:`helpers.replicates.diversity.power_interval`):
#: 95% whatever the tests' ``significance``, since it measures the error of the B trials, not a test.
MC_LEVEL = 0.95


def pairs_ahead(lead: Sequence[float], other: Sequence[float], n_pairs: int) -> int:
    """By how many run pairs the lowest power of ``lead``'s Monte Carlo interval exceeds the highest of
    ``other``'s (``(low, high)`` shares of ``n_pairs``); 0 or less when the intervals meet."""
    return int(round((float(lead[0]) - float(other[1])) * int(n_pairs)))


def power_verdict(a: Sequence[float], b: Sequence[float], n_pairs: int) -> str:
    """The rule of every power comparison of notebook 04 (``a``, ``b``: Monte Carlo intervals of two
    powers over ``n_pairs`` run pairs; a power without p-value near the level has an interval without
    width). ``"holds"`` (a out-discriminates b): a's lowest power is at least :data:`MIN_LEAD_PAIRS`
    pairs above b's highest; ``"does not hold"``: a's highest is at most b's lowest (a finds no more
    pairs than b, equal powers known exactly included); else ``"cannot tell"`` (the intervals overlap,
    or a is ahead by a single pair)."""
    if pairs_ahead(a, b, n_pairs) >= MIN_LEAD_PAIRS:
        return "holds"
    if float(a[1]) * n_pairs <= float(b[0]) * n_pairs + 1e-9:
        return "does not hold"
    return "cannot tell"


def count_once(names, twins) -> list[str]:
    """``names`` without the second and later names of each group of ``twins`` (one measure under
    several names: :func:`helpers.measures.results.affine_measures`), order kept."""
    later = {x for g in twins for x in list(g)[1:]}
    return [x for x in names if x not in later]


def leader_intervals(values: Mapping[str, float], mc: Mapping[str, Sequence[float]], *, higher: bool = True,
                     digits: int = 3) -> dict[str, tuple[float, float]]:
    """The Monte Carlo intervals to read "within Monte Carlo noise" of the LEADING VALUE with
    :func:`helpers.notebook.claims.leaders`: ``mc`` with each leader's interval (the values tied at
    the best as printed to ``digits``) replaced by the leaders' common interval, the values every
    leader's interval holds. A measure is then within noise when its interval overlaps that common
    interval, not merely one tied leader's wider interval (a leader whose interval reaches down must
    not pull in measures the exactly known leaders exclude). An empty intersection (leaders tied only
    as printed) falls back to the best value itself."""
    clean = {k: float(v) for k, v in values.items() if v is not None and np.isfinite(float(v))}
    best = (max if higher else min)(clean.values())
    tied = [k for k in clean if f"{clean[k]:.{digits}f}" == f"{best:.{digits}f}"]
    lo = max(float(mc[k][0]) for k in tied)
    hi = min(float(mc[k][1]) for k in tied)
    common = (lo, hi) if lo <= hi else (best, best)
    return {k: (common if k in tied else (float(mc[k][0]), float(mc[k][1]))) for k in clean if k in mc}


def near_extreme(values: Mapping[str, float], mc: Mapping[str, Sequence[float]], n_pairs: int, *,
                 higher: bool = True, digits: int = 3) -> tuple[claims.Claim, dict[str, int], list[str]]:
    """The measures the rule of :func:`power_verdict` cannot tell from the highest (``higher``) or
    lowest power: ``(c, gap, near)`` with ``c`` the :func:`helpers.notebook.claims.leaders` claim read
    with :func:`leader_intervals`, ``gap`` each other measure's distance in run pairs from the
    leaders' common interval, and ``near`` those fewer than :data:`MIN_LEAD_PAIRS` pairs from it
    (overlapping intervals, or one pair apart), in ``values`` order. Section 7 and the findings' lead
    row count this one set ("N more within noise or 1 pair below")."""
    common = leader_intervals(values, mc, higher=higher, digits=digits)
    c = claims.leaders(values, higher=higher, intervals=common, digits=digits)
    lead = common[c.numbers["leaders"][0]]
    gap = {m: pairs_ahead(lead, mc[m], n_pairs) if higher else pairs_ahead(mc[m], lead, n_pairs)
           for m in values if m not in c.numbers["leaders"] and m in mc}
    return c, gap, [m for m in values if m in gap and gap[m] < MIN_LEAD_PAIRS]


def leaders_head(c: claims.Claim, digits: int = 3) -> str:
    """The leaders of ``c`` as the findings' lead row and section 7 name them: up to 3 names, else a count."""
    n = c.numbers
    lead = claims.listing(n["leaders"]) if len(n["leaders"]) <= 3 else f"{len(n['leaders'])} measures tied"
    return f"{lead} ({n['best']:.{digits}f})"


def power_leaders(values: Mapping[str, float], mc: Mapping[str, Sequence[float]], n_pairs: int, *,
                  higher: bool = True, limit: int = 6, digits: int = 3) -> str:
    """The highest (``higher``) or lowest power. When no other measure is within
    :data:`MIN_LEAD_PAIRS` pairs of it (:func:`near_extreme`), the leaders (``"ERR-IA@10 (0.371)"``);
    else no single name: ``"tied within Monte Carlo noise: D-nDCG@10 (0.629) and 3 more within noise
    or 1 pair below: IA-Q@10 0.619 [...], D-RBP@10 0.619 exact, ..."`` (named up to ``limit``), the
    count the findings' lead row prints. Measures printed at the same value as one of those but read
    from ITS OWN interval as outside (at least :data:`MIN_LEAD_PAIRS` pairs away) are noted: "short
    of it" (an interval) or "without Monte Carlo interval, so outside it" (an exact power)."""
    c, gap, near = near_extreme(values, mc, n_pairs, higher=higher, digits=digits)
    if not near:
        text = short_leaders(c, limit=limit, digits=digits, term="within Monte Carlo noise")
        shown = set()
    else:
        exact = lambda m: float(mc[m][0]) == float(mc[m][1])  # noqa: E731
        side = "below" if higher else "above"
        text = (f"tied within Monte Carlo noise: {leaders_head(c, digits)} and {len(near)} more within noise or "
                f"1 pair {side}")
        if len(near) <= limit:
            text += ": " + claims.listing([f"{m} {claims.number(values[m], digits)} exact" if exact(m) else
                                           f"{m} {mc_text(values[m], *mc[m], digits=digits)}" for m in near])
        shown = {f"{values[m]:.{digits}f}" for m in near}
    alike = [m for m in values if m in gap and m not in near and f"{values[m]:.{digits}f}" in shown]
    if not alike:
        return text
    exact = lambda m: float(mc[m][0]) == float(mc[m][1])  # noqa: E731
    wide = [m for m in alike if not exact(m)]
    far = [m for m in alike if exact(m)]
    notes = []
    if len(wide) > limit:
        notes.append(f"{len(wide)} more at the same value, their Monte Carlo intervals short of it")
    elif wide:
        notes.append(", ".join(f"{m} also {mc_text(values[m], *mc[m], digits=digits)}" for m in wide) + ", short of it")
    if far:
        at = claims.listing(sorted({f"{values[m]:.{digits}f}" for m in far}))
        notes.append(f"{claims.listing(far)} also {at} without Monte Carlo interval, so outside it"
                     if len(far) <= limit else f"{len(far)} more at {at} without Monte Carlo interval, so outside it")
    return f"{text} ({'; '.join(notes)})"


def leader_lines(power: pd.Series, mc: Mapping[str, Sequence[float]], n_pairs: int, twins=()) -> list[str]:
    """Section 7's lines: the highest and the lowest discriminative power among the measures with a
    cutoff (each counted once, :func:`count_once`; :func:`power_leaders` over ``n_pairs`` run pairs), then the whole-list measures
    (NRBP, nNRBP: every document counts) apart, since they are not scored at the cutoff."""
    keep = count_once(list(power.index), twins)
    cut = at_cutoff(keep)
    values = {m: power[m] for m in cut}
    lines = [f"highest discriminative power: {power_leaders(values, mc, n_pairs)}",
             f"lowest discriminative power: {power_leaders(values, mc, n_pairs, higher=False)}"]
    whole = [m for m in keep if m not in cut]
    if whole:
        lines.append("ranked apart (whole list, no cutoff): " + "; ".join(
            f"{m} {mc_text(power[m], *mc[m]) if float(mc[m][0]) != float(mc[m][1]) else claims.number(power[m])}"
            for m in whole))
    return lines


def _no_width(near: int | None) -> str:
    """What a Monte Carlo interval without width says about the p-values near the level: with
    ``near`` (:func:`helpers.replicates.diversity.near_level`) the count within 3 Monte Carlo SEs."""
    if near is None:
        return "no p-value near the level"
    if not near:
        return "no p-value within 3 Monte Carlo SEs of the level"
    return f"{claims.plural(int(near), 'p-value')} within 3 Monte Carlo SEs of the level, none in the 95% interval"


def mc_text(value: float, low: float, high: float, digits: int = 3, near: int | None = None) -> str:
    """A discriminative power with its Monte Carlo interval, ``"0.457 [0.448, 0.476]"``; when no
    p-value's Monte Carlo interval holds the level the interval has no width and only the value is
    printed, with what :func:`_no_width` says (no ``[v, v]`` interval)."""
    if float(low) == float(high):
        return f"{claims.number(value, digits)} ({_no_width(near)})"
    return f"{claims.number(value, digits)} [{claims.number(low, digits)}, {claims.number(high, digits)}]"


def mc_floor(B: int, significance: float, level: float) -> str:
    """``""``, or the sentence saying that with ``B`` trials no p-value can lie surely below
    ``significance`` at ``level`` (:func:`helpers.replicates.diversity.power_interval`: even a p-value
    from 0 exceedances has an upper bound ``1 - ((1 - level) / 2) ** (1 / B)`` at or above the level),
    so every power's lower bound is 0."""
    top = 1 - ((1 - level) / 2) ** (1 / int(B))
    if top < significance:
        return ""
    return (f"With B = {int(B):,}, no p-value is surely below {significance:g} at {pct(level)}: every power "
            "interval starts at 0.")


def mc_interval(low: float, high: float, digits: int = 3, near: int | None = None) -> str:
    """The Monte Carlo interval column of a power table: ``"[0.448, 0.476]"``, or ``"none: no p-value
    within 3 Monte Carlo SEs of the level"`` when it has no width (no ``[v, v]``; :func:`_no_width`:
    with ``near`` the count of p-values within 3 SEs, so the label holds for the run's B)."""
    if float(low) == float(high):
        return f"none: {_no_width(near)}"
    return f"[{claims.number(low, digits)}, {claims.number(high, digits)}]"


def at_cutoff(names: Sequence[str]) -> list[str]:
    """The measures of ``names`` with a cutoff (``"@l"``), ranked together; the whole-list measures
    (NRBP, nNRBP) see every document and are ranked apart. All of ``names`` when none has a cutoff."""
    cut = [m for m in names if "@" in m]
    return cut or list(names)
