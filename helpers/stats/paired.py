"""Two-system comparisons on paired topic scores: the paired t-test, the paired randomisation
(sign-flip) test and bootstrap intervals of a mean difference, with samples paired by label."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats as _sps

from .checks import (DEFAULT_CHUNK_BYTES, DEFAULT_RTOL, check_B, check_level, check_p_kind,
                                  check_rng, check_rtol, iter_chunks, mc_p)

__all__ = ["holm", "align_pair", "paired_vectors", "PairedTestResult", "paired_t_test", "paired_randomisation_test",
           "BootstrapCI", "bootstrap_ci"]


def align_pair(x: Any, y: Any, names: tuple[str, str] = ("x", "y")) -> tuple[Any, Any]:
    """Pair two labelled samples by label, never by position.

    When both ``x`` and ``y`` are :class:`pandas.Series`, ``y`` is reordered to ``x``'s labels
    (systems, topics): the same labels in another order are paired correctly, and different
    label sets or duplicate labels raise ``ValueError`` naming them. Anything else (arrays,
    lists, or one Series against an array) is paired by position, as the caller gave it.
    """
    if isinstance(x, pd.Series) and isinstance(y, pd.Series):
        for name, s in zip(names, (x, y)):
            if s.index.has_duplicates:
                dup = s.index[s.index.duplicated()][0]
                raise ValueError(f"{name} has the label {dup!r} twice; paired values need unique labels")
        if not x.index.equals(y.index):
            only_x = x.index.difference(y.index)
            only_y = y.index.difference(x.index)
            if len(only_x) or len(only_y):
                raise ValueError(f"{names[0]} and {names[1]} are labelled differently: only in "
                                 f"{names[0]}: {list(only_x[:5])}, only in {names[1]}: {list(only_y[:5])}")
            y = y.reindex(x.index)
    return x, y


def paired_vectors(x: Any, y: Any | None) -> np.ndarray:
    """Validate paired samples and return the differences x - y (or x itself if y is None).

    Two Series are paired by label (:func:`align_pair`)."""
    if y is not None:
        x, y = align_pair(x, y)
    xa = np.asarray(x, dtype=np.float64)
    if xa.ndim != 1:
        raise ValueError(f"x must be 1-D, got shape {xa.shape}")
    if y is None:
        d = xa
    else:
        ya = np.asarray(y, dtype=np.float64)
        if ya.ndim != 1:
            raise ValueError(f"y must be 1-D, got shape {ya.shape}")
        if ya.shape != xa.shape:
            raise ValueError(f"x and y must have the same length, got {xa.size} and {ya.size}")
        if not np.isfinite(ya).all():
            raise ValueError(f"y must be finite: {int((~np.isfinite(ya)).sum())} NaN/infinite value(s)")
        d = xa - ya
    if not np.isfinite(xa).all():
        raise ValueError(f"x must be finite: {int((~np.isfinite(xa)).sum())} NaN/infinite value(s)")
    if d.size < 2:
        raise ValueError(f"need at least 2 paired observations (topics), got {d.size}")
    return d


class PairedTestResult(NamedTuple):
    """Result of a paired two-sample test."""

    statistic: float
    """t statistic (t-test) or mean difference mean(x - y) (randomisation test)."""
    p_value: float
    """Two-sided p-value."""
    n: int
    """Number of pairs (topics)."""
    method: str
    """How the p-value was obtained."""
    n_resamples: int
    """Trials or enumerated sign patterns (0 for the t-test)."""


def paired_t_test(x: Any, y: Any) -> PairedTestResult:
    """Two-sided paired t-test of mean(x - y) = 0 (``scipy.stats.ttest_rel``).

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired scores (same topics, same order), finite, n >= 2.

    Returns
    -------
    PairedTestResult
        ``statistic`` = t with n - 1 degrees of freedom, two-sided ``p_value``.

    Notes
    -----
    Degenerate case handled explicitly instead of scipy's NaN and warning: if all differences
    are equal the standard error is 0; identical systems (all differences 0) give t = 0 and
    p = 1, a constant non-zero difference gives t = +/-inf and p = 0.
    """
    d = paired_vectors(x, y)
    if np.ptp(d) == 0:
        if d[0] == 0:
            return PairedTestResult(0.0, 1.0, d.size, "paired t (degenerate: all differences 0)", 0)
        return PairedTestResult(
            math.copysign(math.inf, d[0]), 0.0, d.size, "paired t (degenerate: constant difference)", 0
        )
    res = _sps.ttest_1samp(d, 0.0)
    return PairedTestResult(float(res.statistic), float(res.pvalue), d.size, "paired t", 0)


def paired_randomisation_test(
    x: Any,
    y: Any,
    B: int = 10000,
    rng: np.random.Generator | None = None,
    *,
    method: str = "auto",
    p_value: str = "phipson_smyth",
    exact_max_n: int = 16,
    rtol: float = DEFAULT_RTOL,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
) -> PairedTestResult:
    """Two-sided paired randomisation (sign-flip) test of mean(x - y) = 0.

    Under the null hypothesis the labels of each topic's two scores are exchangeable, i.e. each
    difference d_t = x_t - y_t keeps or flips its sign with probability 1/2 (Fisher's
    randomisation test; with two systems it coincides with the randomised Tukey HSD test).  The
    p-value is the share of sign patterns whose ``|mean(s * d)|`` is at least ``|mean(d)|``
    (ties within ``rtol * max|d|``, see module docstring).

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired scores, finite, n >= 2.
    B : int, default 10000
        Monte Carlo trials (ignored by the exact method).
    rng : numpy.random.Generator
        Required for the Monte Carlo method.
    method : {"auto", "exact", "monte_carlo"}
        ``"exact"`` enumerates all 2^n sign patterns (p = count / 2^n); ``"auto"`` does so when
        n <= ``exact_max_n`` and otherwise uses Monte Carlo.
    p_value : {"phipson_smyth", "discpower"}
        Monte Carlo p-value: ``(count + 1) / (B + 1)`` (default) or ``count / B``.
    exact_max_n : int, default 16
        Largest n that ``"auto"`` enumerates (2^16 = 65,536 patterns).

    Returns
    -------
    PairedTestResult
        ``statistic`` = mean(x - y).
    """
    d = paired_vectors(x, y)
    if method not in ("auto", "exact", "monte_carlo"):
        raise ValueError(f"method must be 'auto', 'exact' or 'monte_carlo', got {method!r}")
    check_p_kind(p_value)
    rtol = check_rtol(rtol)
    B = check_B(B)
    n = d.size
    obs = abs(d.sum())
    thr = obs - rtol * float(np.max(np.abs(d))) * n
    use_exact = method == "exact" or (method == "auto" and n <= exact_max_n)
    if use_exact:
        if n > 30:
            raise ValueError(f"exact enumeration of 2^{n} sign patterns is infeasible; use method='monte_carlo'")
        total = 1 << n
        chunk = max(1, min(total, int(chunk_bytes) // (n * 8)))
        bits = np.arange(n, dtype=np.int64)
        count = 0
        for start, size in iter_chunks(total, chunk, False, ""):
            k = np.arange(start, start + size, dtype=np.int64)
            signs = 1.0 - 2.0 * ((k[:, None] >> bits) & 1)
            count += int(np.count_nonzero(np.abs(signs @ d) >= thr))
        return PairedTestResult(float(d.mean()), count / total, n, "exact sign-flip", total)
    rng = check_rng(rng, "paired_randomisation_test(Monte Carlo)")
    chunk = max(1, min(B, int(chunk_bytes) // (n * 8)))
    count = 0
    for _, size in iter_chunks(B, chunk, False, ""):
        signs = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
        signs *= 2.0
        signs -= 1.0
        count += int(np.count_nonzero(np.abs(signs @ d) >= thr))
    p = float(mc_p(count, B, p_value))
    return PairedTestResult(float(d.mean()), p, n, f"Monte Carlo sign-flip ({p_value})", B)


class BootstrapCI(NamedTuple):
    """A bootstrap confidence interval for a mean (or mean difference)."""

    estimate: float
    low: float
    high: float
    level: float
    method: str


def bootstrap_ci(
    x: Any,
    y: Any | None = None,
    *,
    method: str = "percentile",
    level: float = 0.95,
    B: int = 10000,
    rng: np.random.Generator | None = None,
) -> BootstrapCI:
    """Bootstrap confidence interval for mean(x), or for mean(x - y) when y is given (paired).

    Resamples topics with replacement via ``scipy.stats.bootstrap`` (Efron & Tibshirani 1993):
    ``method="percentile"`` takes the (1-level)/2 and (1+level)/2 quantiles of the bootstrap
    means; ``method="bca"`` applies the bias-corrected and accelerated adjustment.

    Parameters
    ----------
    x : array_like, shape (n,)
        Scores (or the first system's scores when y is given); finite, n >= 2.
    y : array_like, shape (n,), optional
        Second system's scores on the same topics; the statistic is then the mean difference.
    method : {"percentile", "bca"}
    level : float in (0, 1), default 0.95
    B : int, default 10000
        Bootstrap resamples.
    rng : numpy.random.Generator
        Required.

    Returns
    -------
    BootstrapCI
        ``estimate`` (the observed mean), ``low``, ``high``, ``level``, ``method``.

    Notes
    -----
    If every value (difference) is the same, every resample has the same mean; the interval is
    then returned as [mean, mean] without calling scipy (whose BCa would be undefined).
    """
    d = paired_vectors(x, y)
    if method not in ("percentile", "bca"):
        raise ValueError(f"method must be 'percentile' or 'bca', got {method!r}")
    level = check_level(level)
    B = check_B(B)
    rng = check_rng(rng, "bootstrap_ci")
    est = float(d.mean())
    if np.ptp(d) == 0:
        return BootstrapCI(est, est, est, level, method)
    res = _sps.bootstrap(
        (d,),
        np.mean,
        n_resamples=B,
        vectorized=True,
        confidence_level=level,
        method="BCa" if method == "bca" else "percentile",
        rng=rng,
    )
    ci = res.confidence_interval
    return BootstrapCI(est, float(ci.low), float(ci.high), level, method)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (familywise error over the whole family; Holm 1979,
    Scand. J. Statist. 6(2)): the i-th smallest of m p-values becomes ``max_{j<=i} min(1, (m - j + 1) p_(j))``.
    NaN p-values are left NaN and not counted in m. Written by hand: statsmodels'
    ``multipletests`` does the same but is only a test dependency here (the tests check one against the other)."""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = len(ok)
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out[order] = adj
    return out
