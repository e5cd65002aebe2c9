"""Notebook 06's cheapest design in words: the designs tied within the cost bootstrap's noise, the
designs whose comparison is undecided (the point difference outside its own interval), the searched
range's edge (:func:`helpers.design.cost.trade_off_bootstrap`'s curve)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..notebook import claims
from .design_split import interval_method, missing as _missing

def _n(v) -> str:
    return "unreachable" if _missing(v) else f"{int(v):,}"


def _end(v) -> str:
    return "unbounded" if _missing(v) else f"{int(v):,}"


__all__ = ["tied", "unreachable", "undecided", "undecided_lines", "edge_note", "cheapest_lines", "design_text", "money"]


def tied(curve: pd.DataFrame) -> pd.DataFrame:
    """The designs within the cost bootstrap's noise of the cheapest (the cheapest included), by n_a."""
    return curve[curve["within_noise"]].sort_values("n_assessors")


def undecided(curve: pd.DataFrame) -> pd.DataFrame:
    """Designs whose point cost difference to the cheapest lies outside its own bootstrap interval
    (``point_inside`` False): neither tied nor beaten."""
    if "point_inside" not in curve:
        return curve.iloc[:0]
    cost = pd.to_numeric(curve["cost"], errors="coerce")
    return curve[~curve["point_inside"].astype(bool) & np.isfinite(cost)]


def undecided_lines(curve: pd.DataFrame) -> list[str]:
    """One line per :func:`undecided` design: its point difference and the interval that misses it."""
    best = float(pd.to_numeric(curve["cost"], errors="coerce").min())
    return [f"n_a = {int(r.n_assessors)}: its cost difference to the cheapest ({r.cost - best:,.0f}) lies outside "
            f"its bootstrap interval [{money(r.diff_low)}, {money(r.diff_high)}]; no tie is read from it."
            for r in undecided(curve).itertuples()]


def unreachable(curve: pd.DataFrame) -> list[str]:
    return [str(int(a)) for a, c in zip(curve["n_assessors"], curve["cost"]) if _missing(c)]


def edge_note(curve: pd.DataFrame | None) -> str | None:
    """Why the searched range bounds the cheapest design, or None: the most assessors searched (the
    curve's last ``n_a``, ``max_assessors``) is within noise of the cheapest, so a design beyond it may
    be cheaper still (``"cost still falls at n_a = 6"`` when it is the cheapest as estimated)."""
    if curve is None or len(curve) < 2:
        return None
    last = curve.sort_values("n_assessors").iloc[-1]
    if not bool(last["within_noise"]):
        return None
    edge = int(last["n_assessors"])
    if edge == int(curve.attrs.get("best", -1)):
        return f"cost still falls at n_a = {edge}, the most searched"
    return f"n_a = {edge}, the most searched, is within noise of the cheapest"


def cheapest_lines(curve: pd.DataFrame | None, *, target: float, measure: str, cost_topic: float,
                   cost_judgment: float, max_assessors: int, design: str | None = None) -> list[str]:
    """The cheapest design for Eρ² >= target, or every design tied within the cost bootstrap's
    noise (one line each), never one of a tie (``curve`` from
    :func:`helpers.design.cost.trade_off_bootstrap`; ``None`` when no design reaches the target).
    When the searched range bounds it (:func:`edge_note`) no design is named the cheapest.  ``design``
    names the topics' interval (:func:`interval_method`: Feldt, Satterthwaite when crossed)."""
    if curve is None:
        return [f"No design reaches Eρ² ≥ {target} ({measure}) with at most max_assessors = {max_assessors} per topic: "
                "the error that does not shrink with topics is too large."]
    at = f"for Eρ² ≥ {target} ({measure}) at {cost_topic:g} per topic and {cost_judgment:g} per judgment set"
    ties = tied(curve)
    never = unreachable(curve)
    tail = [f"With n_a = {claims.listing(never)} the target is unreachable."] if never else []
    how = interval_method(design)
    tail.append(f"Topics: {how}'s 95% interval; cost: the topic bootstrap's, whose difference to the cheapest "
                "decides the tie.")
    if len(curve) == 1:
        return [f"The only design considered {at} is {design_text(ties.iloc[0], how)}."] + tail
    tail = undecided_lines(curve) + tail
    edge = edge_note(curve)
    if edge is not None:
        return ([f"The searched range bounds the cheapest design {at}: {edge}; extend max_assessors. Within noise "
                 "of the cheapest searched:"] + [f"  {design_text(r, how)}" for _, r in ties.iterrows()] + tail)
    if len(ties) == 1:
        others = "no other is" if not len(undecided(curve)) else "no other decided comparison is"
        return [f"The cheapest design {at} is {design_text(ties.iloc[0], how)}; {others} within the cost bootstrap's "
                "noise."] + tail
    every = "All" if len(ties) == len(curve) - len(never) else f"{len(ties)} of the {len(curve) - len(never)}"
    return ([f"{every} designs that reach the target tie as the cheapest {at}, within the cost bootstrap's noise:"]
            + [f"  {design_text(r, how)}" for _, r in ties.iterrows()] + tail)


def design_text(r: pd.Series, how: str = "Feldt") -> str:
    """``"n_a = 3 (37 topics, Feldt [17, 68]; cost 703, bootstrap [494, 836])"``: assessors per topic,
    topics with their interval (``how``: its method), cost with the topic bootstrap's (each labelled
    by its method)."""
    topics = _n(r["n_topics"])
    if not (_missing(r.get("n_low")) and _missing(r.get("n_high"))):
        topics += f" topics, {how} [{_end(r['n_low'])}, {_end(r['n_high'])}]"
    else:
        topics += " topics"
    cost = f"cost {r['cost']:,.0f}"
    lo, hi = r.get("cost_low"), r.get("cost_high")
    if not (_missing(lo) or _missing(hi)):
        cost += f", bootstrap [{money(lo)}, {money(hi)}]"
    return f"n_a = {int(r['n_assessors'])} ({topics}; {cost})"


def money(v) -> str:
    return "unbounded" if not np.isfinite(float(v)) else f"{float(v):,.0f}"
