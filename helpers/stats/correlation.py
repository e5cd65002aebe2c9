"""Kendall's tau-b between two rankings, with an asymptotic or bootstrap confidence interval."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy import stats as _sps

from .checks import DEFAULT_CHUNK_BYTES, check_B, check_level, check_rng, iter_chunks
from .paired import align_pair

__all__ = ["KendallTauCI", "kendall_tau_ci", "tau_topic_bootstrap"]


class KendallTauCI(NamedTuple):
    """Kendall's tau-b with a two-sided confidence interval."""

    tau: float
    low: float
    high: float
    n: int


def _snap_ties(v: np.ndarray, digits: int = 12) -> np.ndarray:
    """Values rounded to ``digits`` significant decimals of the largest magnitude, so that two means
    that are equal but were summed in another order (differing in the last bits) tie, as tau-b's tie
    correction intends, instead of being ordered by rounding noise."""
    if v.ndim != 1 or v.size == 0 or not np.isfinite(v).all():
        return v   # the checks below name the problem
    top = float(np.abs(v).max())
    if top == 0.0:
        return v
    return np.round(v, digits - int(math.ceil(math.log10(top))))


def _tau_b_batch(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Vectorised tau-b of each row pair of X, Y (shape (k, n)); NaN when a row is constant."""
    sx = np.sign(X[:, :, None] - X[:, None, :])
    sy = np.sign(Y[:, :, None] - Y[:, None, :])
    num = np.einsum("kij,kij->k", sx, sy)
    den = np.sqrt(np.einsum("kij,kij->k", sx, sx) * np.einsum("kij,kij->k", sy, sy))
    with np.errstate(divide="ignore", invalid="ignore"):
        return num / den


def kendall_tau_ci(
    x: Any,
    y: Any,
    level: float = 0.95,
    method: str = "asymptotic",
    rng: np.random.Generator | None = None,
    B: int = 2000,
    clip: bool = False,
) -> KendallTauCI:
    """Kendall's tau-b between two score vectors, with a confidence interval.

    The point estimate is ``scipy.stats.kendalltau`` (tau-b: ties adjusted in both variables), on
    values rounded to 12 significant decimals of the largest one, so that equal means summed in a
    different order tie instead of being ordered by floating-point noise.
    It compares e.g. the system rankings induced by two gain definitions (Sakai 2017, Table 2).

    ``method="asymptotic"`` (default) uses the consistent variance estimator of Hollander,
    Wolfe & Chicken (Nonparametric Statistical Methods, 3rd ed., Section 8.3; Noether 1967).
    With ``Q_ij = sign(x_i - x_j) * sign(y_i - y_j)`` (0 for a tie),
    ``C_i = sum_{j != i} Q_ij`` and ``Cbar`` their mean,

    .. math::

        \\hat\\sigma^2 = \\frac{2}{n(n-1)}\\left[\\frac{2(n-2)}{n(n-1)^2}
                         \\sum_{i=1}^n (C_i - \\bar C)^2 + 1 - \\hat\\tau^2\\right],
        \\qquad \\hat\\tau \\pm z_{(1+\\text{level})/2}\\,\\hat\\sigma .

    By default the interval is *not* clipped to [-1, 1] (Sakai's Table 2 reports e.g.
    .987 [.968, 1.007]); ``clip=True`` cuts it to [-1, 1], the range tau can take, for text that
    calls it an interval of tau. Identical rankings give [1, 1] and reversed rankings [-1, -1]:
    the asymptotic variance is 0 there, so such an interval states no uncertainty at all (use
    ``method="bootstrap"`` for one that does).  With ties, tau-b replaces the
    tie-free tau in the formula (an approximation; the C_i count ties as 0).

    ``method="bootstrap"``: percentile interval of tau-b over ``B`` resamples of the (x, y)
    pairs (HWC Section 8.4).  Resamples in which x or y is constant (tau-b undefined) are
    dropped; if more than half are, ``ValueError``.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired values (e.g. mean scores of the same n systems under two conditions); finite,
        n >= 2, neither constant.
    level : float in (0, 1), default 0.95
    method : {"asymptotic", "bootstrap"}
    rng : numpy.random.Generator
        Required for ``method="bootstrap"``.
    B : int, default 2000
        Bootstrap resamples.

    Returns
    -------
    KendallTauCI
        ``(tau, low, high, n)``.

    Two :class:`pandas.Series` are paired by label (the same systems in another order give
    the same tau); different label sets raise ``ValueError``.
    """
    x, y = align_pair(x, y)
    xa = _snap_ties(np.asarray(x, dtype=np.float64))
    ya = _snap_ties(np.asarray(y, dtype=np.float64))
    if xa.ndim != 1 or ya.ndim != 1:
        raise ValueError(f"x and y must be 1-D, got shapes {xa.shape} and {ya.shape}")
    if xa.size != ya.size:
        raise ValueError(f"x and y must have the same length, got {xa.size} and {ya.size}")
    n = xa.size
    if n < 2:
        raise ValueError(f"need at least 2 pairs, got {n}")
    if not (np.isfinite(xa).all() and np.isfinite(ya).all()):
        raise ValueError("x and y must be finite (no NaN or infinite values)")
    if np.ptp(xa) == 0 or np.ptp(ya) == 0:
        raise ValueError("tau-b is undefined when x or y is constant (all values tied)")
    level = check_level(level)
    if method not in ("asymptotic", "bootstrap"):
        raise ValueError(f"method must be 'asymptotic' or 'bootstrap', got {method!r}")
    tau = float(_sps.kendalltau(xa, ya).statistic)
    sx = np.sign(xa[:, None] - xa[None, :])
    sy = np.sign(ya[:, None] - ya[None, :])
    q = sx * sy
    # Perfect (dis)agreement, detected in exact integer counts: snap scipy's 0.9999999999999999
    # to +/-1 so that identical rankings give exactly [1, 1].
    s_q, n_x, n_y = int(q.sum()), int(np.abs(sx).sum()), int(np.abs(sy).sum())
    perfect = n_x == n_y and abs(s_q) == n_x
    if perfect:
        tau = math.copysign(1.0, s_q)
    z = float(_sps.norm.ppf(0.5 + level / 2))
    if method == "asymptotic" and perfect:  # identical (or reversed) rankings, ties included: [1, 1] ([-1, -1])
        return KendallTauCI(tau, tau, tau, n)
    if method == "asymptotic":
        c = q.sum(axis=1)  # diagonal is 0
        ss = float(np.sum((c - c.mean()) ** 2))
        var = 2.0 / (n * (n - 1)) * (2.0 * (n - 2) / (n * (n - 1) ** 2) * ss + 1.0 - tau * tau)
        half = z * math.sqrt(max(var, 0.0))
        if clip:
            return KendallTauCI(tau, max(-1.0, tau - half), min(1.0, tau + half), n)
        return KendallTauCI(tau, tau - half, tau + half, n)
    B = check_B(B)
    rng = check_rng(rng, "kendall_tau_ci(method='bootstrap')")
    chunk = max(1, min(B, DEFAULT_CHUNK_BYTES // (4 * n * n * 8)))
    taus = np.empty(B)
    for start, size in iter_chunks(B, chunk, False, ""):
        idx = rng.integers(0, n, size=(size, n))
        taus[start : start + size] = _tau_b_batch(xa[idx], ya[idx])
    ok = np.isfinite(taus)
    if ok.sum() < B / 2:
        raise ValueError(
            f"tau-b is undefined in {B - int(ok.sum())} of {B} bootstrap resamples "
            "(x or y constant); too few pairs for a bootstrap interval"
        )
    alpha = 1.0 - level
    low, high = np.quantile(taus[ok], [alpha / 2, 1 - alpha / 2])
    return KendallTauCI(tau, float(low), float(high), n)


def tau_or_undefined(x: Any, y: Any, level: float = 0.95) -> KendallTauCI:
    """:func:`kendall_tau_ci` (asymptotic, clipped to [-1, 1]) for text and tables, or NaNs when x
    or y ties every item: tau-b is then undefined (a measure that scores every run alike orders
    nothing), which a table prints as NaN and a conclusion as "undefined"."""
    x, y = align_pair(x, y)
    xa, ya = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if xa.size >= 2 and (np.ptp(xa) == 0 or np.ptp(ya) == 0):
        return KendallTauCI(math.nan, math.nan, math.nan, int(xa.size))
    return kendall_tau_ci(x, y, level=level, clip=True)


def pearson_ci(x, y, level: float = 0.95) -> tuple[float, float]:
    """Confidence interval of Pearson's r by Fisher's z transform (scipy's
    ``pearsonr(...).confidence_interval``); needs at least 4 pairs, neither side constant."""
    x, y = align_pair(x, y)
    xa, ya = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if xa.size < 4:
        raise ValueError(f"a Fisher-z interval of Pearson's r needs at least 4 pairs, got {xa.size}")
    if np.ptp(xa) == 0 or np.ptp(ya) == 0:
        raise ValueError("Pearson's r is undefined when x or y is constant")
    ci = _sps.pearsonr(xa, ya).confidence_interval(confidence_level=check_level(level))
    return float(ci.low), float(ci.high)


def tau_topic_bootstrap(a: Any, b: Any, rng: np.random.Generator, B: int = 1000,
                        level: float = 0.95) -> KendallTauCI:
    """Kendall's tau-b between the system rankings of two measures, with a percentile bootstrap
    interval over *topics*.

    The rankings are by mean over topics, so the uncertainty that matters is which topics the
    collection happens to have: each of ``B`` bootstrap samples draws the topics with replacement
    (the same draw for both measures), re-averages every system and recomputes tau-b. The
    percentile interval lies in [-1, 1] by construction (nothing to clip); it is ``[1, 1]`` only
    when every resample orders the systems identically. Samples in which one measure ties every
    system (tau-b undefined) are left out.

    Parameters
    ----------
    a, b : array_like or DataFrame, shape (n_topics, n_systems)
        Per-topic scores of the two measures, the same topics (rows) and systems (columns).
    rng : numpy.random.Generator
    B : int
        Bootstrap samples.
    level : float

    Returns
    -------
    KendallTauCI ``(tau, low, high, n)`` with ``tau`` on the full topic set and ``n`` the number of
    systems; NaN when tau-b is undefined on the full set.
    """
    A, Bm = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if A.shape != Bm.shape or A.ndim != 2 or A.shape[0] < 2 or A.shape[1] < 2:
        raise ValueError(f"a and b must be (topics x systems) arrays of one shape with at least 2 of each, "
                         f"got {A.shape} and {Bm.shape}")
    if not (np.isfinite(A).all() and np.isfinite(Bm).all()):
        raise ValueError("per-topic scores must be finite")
    B = check_B(B)
    level = check_level(level)
    check_rng(rng, "the topic bootstrap")
    T, n = A.shape
    tau = float(_tau_b_batch(A.mean(0)[None], Bm.mean(0)[None])[0])
    if not math.isfinite(tau):
        return KendallTauCI(math.nan, math.nan, math.nan, n)
    taus = []
    step = max(1, int(DEFAULT_CHUNK_BYTES // (8 * n * n)))
    for start in range(0, B, step):
        k = min(step, B - start)
        W = rng.multinomial(T, np.full(T, 1.0 / T), size=k).astype(np.float64)  # topic counts
        taus.append(_tau_b_batch(W @ A / T, W @ Bm / T))
    taus = np.concatenate(taus)
    taus = taus[np.isfinite(taus)]
    alpha = 1.0 - level
    low, high = np.quantile(taus, [alpha / 2, 1 - alpha / 2])
    return KendallTauCI(tau, float(low), float(high), n)
