"""The cheapest (topics, assessors) design for a target, and the trade-off curve behind it.

A design with ``n_t`` topics and ``n_a`` assessors per topic costs
``n_t * cost_topic + n_t * n_a * cost_judgment``: ``cost_topic`` is what a topic costs whoever
judges it (writing it, pooling the runs), ``cost_judgment`` what one assessor's judgments of one
topic's pool cost.  For every ``n_a`` the fewest topics that reach the target follow from the
G-study's variance components; the cheapest pair is the one of least cost (ties: fewer assessors).

Targets
-------
``"erho2"``, ``"phi"``
    A generalizability coefficient (:func:`helpers.design.dstudy.topics_needed`, with its interval).
``"power"``
    Power ``1 - beta`` of the paired t-test to detect ``min_diff`` between two systems
    (:func:`helpers.design.sakai.topic_set_size`, method ``"t"``).
``"width"``
    Expected width of the paired CI of a mean difference at most ``width`` (method ``"ci"``).

For the last two the variance of a per-topic difference between two systems follows from the
components, ``2 (st + e / n_a)`` with ``e`` the error component (``sa:t``, ``sta``; none in
s x t); the topic effect cancels in a paired comparison.  In s x t x a the system x assessor
component ``sa`` does not shrink with topics: the same assessors judge every topic, so it adds a
bias ``b ~ N(0, 2 sa / n_a)`` to the whole comparison, which the power of the t-test averages
over (:mod:`helpers.design.paired`; a power the bias forbids is unreachable).  The CI width does
not depend on it (it moves the interval, not its width).

Uncertainty (:func:`trade_off_bootstrap`): the topics of the pilot are resampled and the curve
recomputed; a design is within noise of the cheapest when the bootstrap interval of its cost
minus the cheapest's includes 0 (the two costs are read on the same resample, so the difference
is not lost in the spread both share).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..stats.checks import check_level
from .dstudy import COEFFICIENTS, topics_needed, topics_needed_point
from .gstudy import GStudy, g_study_array
from .paired import bias_variance, topics_for_power
from .resample import topic_resamples
from .sakai import check_boot, topic_set_size

__all__ = ["TARGETS", "Design", "paired_variance", "trade_off", "cheapest_design", "trade_off_bootstrap", "break_even",
           "assessors_needed",
           "break_even_bootstrap"]

TARGETS = ("erho2", "phi", "power", "width")


def paired_variance(g: GStudy, n_assessors: int | None = None) -> float:
    """Half the variance of a per-topic paired difference: ``st + e / n_a`` (module docstring)."""
    v = g.variance
    if g.design == "s x t":
        return v["st"]
    na = g.n["a"] if n_assessors is None else n_assessors
    return v["st"] + v["sa:t" if g.design == "s x (a:t)" else "sta"] / na


@dataclass(frozen=True)
class Design:
    """The cheapest design and the curve it was picked from."""

    target: str
    value: float
    n_topics: int
    n_assessors: int
    cost: float
    curve: pd.DataFrame

    def __str__(self) -> str:
        return (f"cheapest design for {self.target} {self.value:g}: {self.n_topics} topics x "
                f"{self.n_assessors} assessor(s), cost {self.cost:,.6g}")


def _nonnegative(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number >= 0, got {value!r}") from None
    if not (np.isfinite(v) and v >= 0):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return v


def _row(g: GStudy, target: str, value: float, na: int, kw: dict) -> dict:
    if target in COEFFICIENTS:
        need = topics_needed(g, value, target, None if g.design == "s x t" else na, kw.get("level", 0.95))
        return {"n_topics": need.n, "n_low": need.ci[0], "n_high": need.ci[1]}
    s2 = paired_variance(g, na)
    if s2 <= 0:
        return {"n_topics": 2, "n_low": None, "n_high": None}
    common = dict(sigma2=s2, exact=kw.get("exact", True), alpha=kw.get("alpha", 0.05))
    if target == "power":
        n = topics_for_power(beta=1 - value, min_diff=kw["min_diff"], bias2=bias_variance(g.variance, g.design, na),
                             **common)
    else:
        n = topic_set_size("ci", width=kw["width"], paired=True, **common)
    return {"n_topics": n, "n_low": None, "n_high": None}


def trade_off(g: GStudy, target: str, value: float | None = None, *, cost_topic: float = 1.0,
              cost_judgment: float = 1.0, max_assessors: int = 10, min_diff: float | None = None,
              width: float | None = None, alpha: float = 0.05, exact: bool = True,
              level: float = 0.95) -> pd.DataFrame:
    """Topics needed and cost for 1..``max_assessors`` assessors per topic (one row each).

    ``value`` is the target coefficient (erho2, phi) or the power ``1 - beta`` (power); ``width``
    the CI width (width).  Columns ``n_assessors, n_topics, n_low, n_high, cost`` (``n_topics``
    is ``None`` where the target cannot be reached with that many assessors; ``n_low/n_high``
    the interval where the target has one).
    """
    if not isinstance(g, GStudy):
        raise ValueError(f"g must be the GStudy of g_study(), got {type(g).__name__}")
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}, got {target!r}")
    if target == "width":
        if width is None or value is not None:
            raise ValueError("target 'width' takes width= (the largest CI width), not value=")
    else:
        value = check_level(value, "value")
        if target == "power" and min_diff is None:
            raise ValueError("target 'power' needs min_diff= (the difference to detect)")
    ct, cj = _nonnegative(cost_topic, "cost_topic"), _nonnegative(cost_judgment, "cost_judgment")
    if ct + cj == 0:
        raise ValueError("cost_topic and cost_judgment are both 0: every design would be free")
    if isinstance(max_assessors, bool) or not isinstance(max_assessors, (int, np.integer)) or max_assessors < 1:
        raise ValueError(f"max_assessors must be a positive integer, got {max_assessors!r}")
    kw = dict(min_diff=min_diff, width=width, alpha=alpha, exact=exact, level=level)
    rows = []
    for na in range(1, 2 if g.design == "s x t" else max_assessors + 1):
        r = {"n_assessors": na, **_row(g, target, value, na, kw)}
        if r["n_topics"] is None:      # unreachable: no interval either
            r.update(n_low=None, n_high=None)
        r["cost"] = None if r["n_topics"] is None else r["n_topics"] * (ct + na * cj)
        rows.append(r)
    out = pd.DataFrame(rows).astype({"n_topics": "Int64", "n_low": "Int64", "n_high": "Int64",
                                     "cost": "Float64"})
    out.attrs = {"target": target, "value": width if target == "width" else value}
    return out


def cheapest_design(g: GStudy, target: str, value: float | None = None, **kwargs) -> Design:
    """The least costly (topics, assessors) pair for the target; arguments as :func:`trade_off`.

    Raises
    ------
    ValueError
        Bad arguments (as :func:`trade_off`), or a target no number of assessors up to
        ``max_assessors`` reaches.
    """
    curve = trade_off(g, target, value, **kwargs)
    ok = curve.dropna(subset=["cost"])
    if ok.empty:
        raise ValueError(f"no design with up to {kwargs.get('max_assessors', 10)} assessors per "
                         f"topic reaches {target} {curve.attrs['value']}: the error that does not "
                         "shrink with topics is too large")
    best = ok.sort_values(["cost", "n_assessors"], kind="stable").iloc[0]
    return Design(target, float(curve.attrs["value"]), int(best["n_topics"]), int(best["n_assessors"]),
                  float(best["cost"]), curve)


def trade_off_bootstrap(x: np.ndarray, design: str, curve: pd.DataFrame, rng: np.random.Generator, *,
                        cost_topic: float, cost_judgment: float, n_boot: int = 200,
                        level: float = 0.95) -> pd.DataFrame:
    """The trade-off curve of a coefficient target (:func:`trade_off`, ``erho2`` or ``phi``) with
    the topic bootstrap's uncertainty (module docstring).

    ``x`` is the pilot's systems x topics x assessors array (:func:`helpers.design.gstudy.score_array`);
    its topics are resampled ``n_boot`` times (with replacement; a topic keeps its own assessors;
    at least :data:`helpers.design.sakai.MIN_BOOT`, five draws beyond each end of a 95% interval)
    by :func:`helpers.design.resample.topic_resamples`, each read with ``topic_resample=True``: the
    corrected resampling of every topic bootstrap of variance components (without it sigma2_s sat
    ~6% high and sigma2_st 5-7% low, and the cost differences' intervals below their points).
    Adds to ``curve``: ``cost_low``, ``cost_high`` (the ``level`` percentile interval of the cost;
    ``inf``: the target unreachable in more than the tail; NaN, as the differences, for a design
    unreachable as estimated), ``diff_low``, ``diff_high`` (the interval of
    the cost minus the cheapest design's cost on the same resample), ``cheapest_share`` (the share
    of resamples in which the design is the cheapest, a tie of k designs counting 1/k for each, so
    the column sums to 1 less the share of resamples in which no design reaches the target)
    ``point_inside`` (the point difference of costs lies inside its own interval) and
    ``within_noise`` (``diff_low <= 0`` and ``point_inside``, for designs that reach the target as
    estimated: no tie is read from an interval that misses its own point).
    The bounds are order statistics (numpy's ``lower``/``higher``), since unreachable resamples
    have an infinite cost.
    """
    from ..stats.checks import check_rng

    target, value = curve.attrs.get("target"), curve.attrs.get("value")
    if target not in COEFFICIENTS:
        raise ValueError(f"trade_off_bootstrap reads a curve of a coefficient target {COEFFICIENTS}, got {target!r}")
    rng = check_rng(rng, "trade_off_bootstrap")
    check_boot(n_boot)
    x = np.asarray(x, dtype=float)
    nas = curve["n_assessors"].to_numpy(dtype=int)
    per_topic = cost_topic + nas * cost_judgment
    draws = np.empty((n_boot, len(nas)))
    b = 0
    for stack in topic_resamples(x if x.ndim == 3 else x[:, :, None], design, rng, n_boot):
        for xb in stack:
            g = g_study_array(xb, design, topic_resample=True)
            n = [topics_needed_point(g, value, target, None if design == "s x t" else int(a)) for a in nas]
            draws[b] = [np.inf if v is None else v * c for v, c in zip(n, per_topic)]
            b += 1
    out = curve.copy()
    cost = out["cost"].to_numpy(dtype=float, na_value=np.nan)
    if not np.isfinite(cost).any():
        raise ValueError("no design of the curve reaches the target: nothing to compare")
    best = int(np.nanargmin(np.where(np.isfinite(cost), cost, np.nan)))
    a = (1 - level) / 2
    with np.errstate(invalid="ignore"):
        diff = draws - draws[:, [best]]
    diff[np.isnan(diff)] = 0.0                       # both unreachable in a resample: no difference
    # order statistics, not interpolation: an unreachable resample is an infinite cost
    out["cost_low"], out["cost_high"] = (np.quantile(draws, a, axis=0, method="lower"),
                                         np.quantile(draws, 1 - a, axis=0, method="higher"))
    out["diff_low"], out["diff_high"] = (np.quantile(diff, a, axis=0, method="lower"),
                                         np.quantile(diff, 1 - a, axis=0, method="higher"))
    never = ~np.isfinite(cost)                        # unreachable as estimated: no interval, no difference
    for col in ("cost_low", "cost_high", "diff_low", "diff_high"):
        out[col] = out[col].where(~never, np.nan)
    low = draws.min(axis=1, keepdims=True)
    cheapest = (draws == low) & np.isfinite(low)
    # a resample whose cheapest cost is shared by k designs counts 1/k for each: the shares sum to 1
    # over the resamples in which some design reaches the target
    out["cheapest_share"] = (cheapest / np.maximum(cheapest.sum(axis=1, keepdims=True), 1)).mean(axis=0)
    # a tie is read only from an interval that holds its own point difference (the discrete topic
    # counts can leave the point at or beyond an end): otherwise the comparison is undecided
    point = cost - cost[best]
    out["point_inside"] = (out["diff_low"] <= point) & (point <= out["diff_high"]) & np.isfinite(cost)
    out["within_noise"] = (out["diff_low"] <= 0) & np.isfinite(cost) & out["point_inside"]
    out.attrs = {**curve.attrs, "best": int(nas[best]), "n_boot": int(n_boot), "level": level}
    return out


def _topics_real(g: GStudy, value: float, target: str, na: int) -> float:
    """The topics for the coefficient ``target`` >= ``value`` with ``na`` assessors, as a real number
    (no rounding up: the break-even reads the cost curve, not its integer steps); ``inf`` when no
    number of topics reaches it."""
    from .dstudy import error_variance

    kind = "relative" if target == "erho2" else "absolute"
    one, two = (float(error_variance(g, k, na, kind)) for k in (1, 2))   # per_topic / k + fixed
    per_topic, fixed = 2 * (one - two), 2 * two - one
    den = g.variance["s"] * (1 - value) - value * fixed
    if den <= 0:
        return np.inf
    return max(value * per_topic / den, 0.0)


def break_even(g: GStudy, value: float, target: str = "erho2", n_assessors=(1, 2, 3)) -> np.ndarray:
    """The ratio ``cost_topic / cost_judgment`` above which ``n_a + 1`` assessors per topic cost less
    than ``n_a`` for ``target`` >= ``value`` (one value per ``n_a`` of ``n_assessors``).

    With ``n(k)`` the topics needed with ``k`` assessors (a real number) and ``r`` the ratio, the
    cost is ``n(k) (r + k)`` judgment sets; ``n(a + 1) (r + a + 1) < n(a) (r + a)`` exactly when
    ``r > ((a + 1) n(a + 1) - a n(a)) / (n(a) - n(a + 1))``.  In s x (a:t) ``n(k)`` is proportional
    to ``st + sa:t / k``, so the break-even is ``a (a + 1) st / sa:t``: two variance components,
    whatever the target (algebra; only the components are estimated).  In s x t x a the
    ``sa / k`` error that topics do not shrink makes it depend on the target too.  ``0``: ``a + 1``
    is cheaper at any ratio (``a`` unreachable, or the drop in topics pays for itself); ``inf``: at
    none (no fewer topics with more assessors); NaN: neither reaches the target.
    """
    if not isinstance(g, GStudy) or g.design == "s x t":
        raise ValueError("break_even needs the G-study of a design with assessors (s x (a:t) or s x t x a)")
    if target not in COEFFICIENTS:
        raise ValueError(f"target must be one of {COEFFICIENTS}, got {target!r}")
    value = check_level(value, "value")
    out = []
    for a in n_assessors:
        a = int(a)
        if a < 1:
            raise ValueError(f"n_assessors must be >= 1, got {a}")
        n0, n1 = _topics_real(g, value, target, a), _topics_real(g, value, target, a + 1)
        if not np.isfinite(n1):
            out.append(np.nan if not np.isfinite(n0) else np.inf)
        elif not np.isfinite(n0):
            out.append(0.0)
        elif n0 <= n1:
            out.append(np.inf)
        else:
            out.append(max(((a + 1) * n1 - a * n0) / (n0 - n1), 0.0))
    return np.asarray(out, dtype=float)


def break_even_bootstrap(x: np.ndarray, design: str, value: float, rng: np.random.Generator, *,
                         target: str = "erho2", n_assessors=(1, 2, 3), n_boot: int = 200,
                         level: float = 0.95) -> pd.DataFrame:
    """:func:`break_even` of the pilot ``x`` (systems x topics x assessors) with the topic bootstrap's
    ``level`` percentile interval: the corrected topic resampling every interval of
    :mod:`helpers.design` shares (:func:`helpers.design.resample.topic_resamples`, each resample read
    with ``topic_resample=True``).  Columns ``n_assessors`` (the ``a`` of ``a -> a + 1``),
    ``break_even``, ``low``, ``high`` (order statistics, numpy's ``lower``/``higher``: a resample may
    give ``inf``; NaN ends when resamples reaching neither design leave fewer than half).  ``attrs["unreachable"]``:
    the assessors per topic with which no number of topics reaches the target at the point estimate (a
    break-even against such a design is 0 or inf by definition, not a cost ratio)."""
    from ..stats.checks import check_rng

    rng = check_rng(rng, "break_even_bootstrap")
    check_boot(n_boot)
    x = np.asarray(x, dtype=float)
    x = x if x.ndim == 3 else x[:, :, None]
    nas = [int(a) for a in n_assessors]
    g = g_study_array(x, design)
    point = break_even(g, value, target, nas)
    draws = np.empty((n_boot, len(nas)))
    b = 0
    for stack in topic_resamples(x, design, rng, n_boot):
        for xb in stack:
            draws[b] = break_even(g_study_array(xb, design, topic_resample=True), value, target, nas)
            b += 1
    a = (1 - level) / 2
    low, high = [], []
    for j in range(len(nas)):
        d = draws[:, j][~np.isnan(draws[:, j])]
        ok = len(d) >= n_boot / 2
        low.append(np.quantile(d, a, method="lower") if ok else np.nan)
        high.append(np.quantile(d, 1 - a, method="higher") if ok else np.nan)
    out = pd.DataFrame({"n_assessors": nas, "break_even": point, "low": low, "high": high})
    reach = {k: bool(np.isfinite(_topics_real(g, value, target, k))) for k in sorted({*nas, *(a + 1 for a in nas)})}
    out.attrs = {"target": target, "value": value, "n_boot": int(n_boot), "level": level,
                 "unreachable": [k for k, ok in reach.items() if not ok]}
    return out


def assessors_needed(g: GStudy, value: float, target: str = "erho2", limit: int = 10_000) -> int | None:
    """The fewest assessors per topic with which some number of topics reaches ``target`` >= ``value``,
    from the estimated components: the error that topics do not shrink is ``A / n_a`` (s x t x a:
    ``sigma2_sa`` for Eρ², ``sigma2_a + sigma2_sa`` for Φ), so ``n_a >= A / (sigma2_s (1 / value - 1))``,
    e.g. ``sigma2_sa / (sigma2_s (1 / target - 1))`` for Eρ².  The first ``n_a`` from that bound on
    whose topics :func:`topics_needed_point` finds (it caps the topics) is returned; ``None`` when
    ``sigma2_s`` is 0 or none up to ``limit`` does."""
    if not isinstance(g, GStudy) or g.design == "s x t":
        raise ValueError("assessors_needed needs the G-study of a design with assessors (s x (a:t) or s x t x a)")
    if target not in COEFFICIENTS:
        raise ValueError(f"target must be one of {COEFFICIENTS}, got {target!r}")
    value = check_level(value, "value")
    from .dstudy import error_variance
    s2 = g.variance["s"]
    if s2 <= 0:
        return None
    kind = "relative" if target == "erho2" else "absolute"
    one, two = (float(error_variance(g, k, 1, kind)) for k in (1, 2))
    fixed = max(2 * two - one, 0.0)                   # the error at one assessor that topics do not shrink
    start = max(int(np.floor(fixed / (s2 * (1 / value - 1)))), 1)
    for na in range(start, limit + 1):
        if topics_needed_point(g, value, target, na) is not None:
            return na
    return None

