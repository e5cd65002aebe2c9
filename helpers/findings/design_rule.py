"""Notebook 06's one verdict rule: an interval against the value a claim names (its target).

Every verdict of the notebook that compares an estimate with a target reads it here: the target
inside the interval is "cannot tell" for a claim about a side (below / above) or the claim's own
word for a claim of equality (coverage at 95%, power at 1 - beta); an interval that excludes the
target gives the side it lies on.  With fewer than :func:`helpers.stats.summary.min_draws` clusters
no 95% interval is printed, but the verdict still reads one: Student's t with ``k - 1`` degrees of
freedom about the mean, from its standard error (:func:`t_interval`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["side", "equality_verdict", "t_interval", "ses_from", "beside", "planted_truths"]


def _finite(*vs) -> bool:
    return all(v is not None and not (isinstance(v, float) and math.isnan(v)) for v in vs)


def side(low, high, target) -> str | None:
    """``"inside"`` when ``low <= target <= high``, ``"below"`` when the interval lies below the
    target (``high < target``), ``"above"`` when above; ``None`` without an interval."""
    if not _finite(low, high, target):
        return None
    low, high, target = float(low), float(high), float(target)
    return "below" if high < target else "above" if low > target else "inside"


def equality_verdict(low, high, target, *, inside: str = "holds") -> str:
    """The verdict of a claim that an estimate equals ``target`` (a coverage of 95%, a power of
    0.80): ``inside`` (the claim's word: "holds", or "by construction" for a planted check) when the
    interval holds the target, "does not hold" when it excludes it, "cannot tell" without one."""
    s = side(low, high, target)
    return "cannot tell" if s is None else inside if s == "inside" else "does not hold"


def t_interval(mean, se, clusters: int, level: float = 0.95) -> tuple[float, float]:
    """``mean -/+ t_{(1+level)/2}(clusters - 1) * se``: the interval a verdict reads where too few
    clusters give no printed 95% interval; NaN ends without an SE or with fewer than 2 clusters."""
    from scipy.stats import t

    if not _finite(mean, se) or clusters < 2 or not math.isfinite(float(se)):
        return math.nan, math.nan
    q = float(t.ppf((1 + level) / 2, clusters - 1))
    return float(mean) - q * float(se), float(mean) + q * float(se)


def ses_from(mean, se, target) -> str:
    """``"3.6 SE below 0.80"``: how far ``mean`` lies from ``target`` in standard errors."""
    z = (float(mean) - float(target)) / float(se)
    return f"{abs(z):.1f} SE {'below' if z < 0 else 'above'} {float(target):.2f}"


def beside(value, target, digits: int = 2) -> str:
    """``value`` as printed beside the ``target`` it is compared with: ``digits`` decimals, more (up to
    4) while it would round to the target (a cap of 0.699 against 0.70 is ``"0.699"``, never ``"0.70"``)."""
    value, target = float(value), float(target)
    for d in range(digits, 5):
        if value == target or f"{value:.{d}f}" != f"{target:.{d}f}":
            return f"{value:.{d}f}"
    return f"{value:.4f}"


def planted_truths(components: Mapping | None, design: str, *, n_a: int, target: float,
                   ratio: float | None) -> dict[str, tuple[str, str, float]]:
    """What the planted components decide, derived from the run's design: ``{"conservative": ...,
    "break_even": ...}``, each ``(planted verdict, text, value)``.

    * Sakai's 2 V_E1 against 2 V_E2: ``V_E1 - V_E2 = σ²_t + σ²_(topic × assessor) / n_a`` (``a:t`` nested,
      ``ta`` crossed); "holds" when it is above 0, "cannot tell" (V_E1 = V_E2) at 0.
    * Bodoff's claim at this run's ``ratio``: the planted break-even of 1 -> 2 assessors
      (:func:`helpers.design.cost.break_even` of the planted G-study; nested: ``2 σ²_st / σ²_sa:t``);
      "holds" below it, "does not hold" above, "cannot tell" at it or without one.
    ``{}`` without planted components."""
    if components is None or design not in ("s x (a:t)", "s x t x a"):
        return {}
    import numpy as np

    from ..design import cost, planted
    from ..notebook import claims
    at = "a:t" if design == "s x (a:t)" else "ta"
    gap = float(components["t"]) + float(components[at]) / n_a
    out = {"conservative": ("holds" if gap > 0 else "cannot tell",
                            f"planted V_E1 − V_E2 = σ²_t + σ²_{at}/n_a = {claims.number(gap, 4)}", gap)}
    g = planted.planted_g(components, design, 2, 2, n_a)
    be = float(cost.break_even(g, target, n_assessors=(1,))[0])
    if ratio is not None:
        verdict = ("cannot tell" if np.isnan(be) else "holds" if ratio < be else
                   "does not hold" if ratio > be else "cannot tell")
        shown = "undefined" if np.isnan(be) else "none" if np.isinf(be) else f"{be:.3g}"
        out["break_even"] = (verdict, f"planted break-even 1 → 2 assessors {shown}", be)
    return out
