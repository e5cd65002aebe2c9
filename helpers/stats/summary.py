"""Summaries of R draws: a percentile interval only when R is large enough for it, else the range.

The rule (used by :func:`helpers.replicates.runner.summarise` and the wording of
:mod:`helpers.notebook.claims`): a ``level`` percentile interval over R draws is reported only when
each tail holds at least one draw beyond the interval, i.e. ``R * (1 - level) / 2 >= 1``
(R >= 40 for 95%, R >= 20 for 90%). With fewer draws the quantiles are interpolations between
the few smallest (largest) draws, which says nothing about a 2.5% tail; the honest summary is
then the minimum and maximum, called "the range over R draws".
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["min_draws", "is_percentile", "interval_bounds", "interval_name", "sd_interval", "mean_interval"]


def min_draws(level: float = 0.95) -> int:
    """Smallest number of draws whose ``level`` percentile interval has a draw beyond each end:
    ``ceil(2 / (1 - level))`` (40 for 0.95)."""
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    return math.ceil(2 / (1 - level) - 1e-9)


def is_percentile(n: int, level: float = 0.95) -> bool:
    """True when ``n`` draws are enough for a ``level`` percentile interval (:func:`min_draws`)."""
    return int(n) >= min_draws(level)


def interval_bounds(values, level: float = 0.95) -> tuple[float, float, str]:
    """``(low, high, kind)`` of finite ``values``: the ``level`` percentile interval (numpy's
    linear interpolation) when there are enough of them, else the minimum and maximum; ``kind``
    is ``"percentile"`` or ``"range"``. NaN bounds and kind ``"range"`` for no value."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return math.nan, math.nan, "range"
    if is_percentile(len(x), level):
        tail = (1 - level) / 2
        lo, hi = np.quantile(x, [tail, 1 - tail])
        return float(lo), float(hi), "percentile"
    return float(x.min()), float(x.max()), "range"


def interval_name(n: int, level: float = 0.95) -> str:
    """How to call the summary of ``n`` draws: ``"95% interval"`` or ``"range"``."""
    return f"{level:.0%} interval" if is_percentile(n, level) else "range"


def sd_interval(sd: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """``level`` interval of a standard deviation ``sd`` estimated from ``n`` draws: the chi-square
    interval ``sd * sqrt((n - 1) / chi2_{1-a/2, n-1})`` to ``sd * sqrt((n - 1) / chi2_{a/2, n-1})``
    (exact for normal draws; an approximation otherwise). It covers the Monte Carlo noise of the
    ``n`` draws only, e.g. of a bootstrap sd from ``B`` resamples."""
    from scipy.stats import chi2

    n = int(n)
    if n < 2:
        raise ValueError(f"sd_interval needs n >= 2 draws, got {n!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    a = 1 - level
    df = n - 1
    return (float(sd * math.sqrt(df / chi2.ppf(1 - a / 2, df))), float(sd * math.sqrt(df / chi2.ppf(a / 2, df))))


def mean_interval(d, level: float = 0.95) -> tuple[float, float, str]:
    """The ``level`` confidence interval of the *mean* of ``d`` over independent draws (Student's t
    with ``len(d) - 1`` degrees of freedom): ``(low, high, "mean CI")``; with fewer than 2 values
    ``(nan, nan, "none")``. A zero spread gives the mean itself as both bounds. Unlike
    :func:`interval_bounds` (where single draws fall), this asks where their *mean* lies: the
    interval for "does A beat B on average over the replicates", given the paired differences."""
    from scipy.stats import t

    d = np.asarray(d, dtype=float)
    if len(d) < 2:
        return math.nan, math.nan, "none"
    mean, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))
    half = float(t.ppf(0.5 + level / 2, len(d) - 1)) * se
    return mean - half, mean + half, "mean CI"
