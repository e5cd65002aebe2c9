"""Significance tests, effect sizes, confidence intervals and agreement statistics.

What lives here and where it comes from
---------------------------------------
* :func:`randomised_tukey_hsd` -- the randomised (blocked) Tukey HSD test that Sakai's Discpower
  toolkit runs over a topic-by-system score matrix (Carterette 2012, TOIS 30(1), the algorithm;
  Sakai 2017, "Unanimity-aware gain for highly subjective assessments", Section 5, which applies
  it with B = 5,000 trials and reports p-values, |d| and ES_HSD in Table 3).  No maintained Python
  package implements it (scipy's ``tukey_hsd`` and ranx's "tukey" are the classical *unpaired*
  one-way test), so it is written here by hand.
* :func:`residual_variance` -- V_E of the two-way ANOVA without replication (topic and system
  effects), the denominator of ES_HSD = |d| / sqrt(V_E) (Sakai 2014, "Statistical reform in
  information retrieval?", SIGIR Forum 48(1); Sakai 2017, Table 3).
* :func:`paired_t_test`, :func:`paired_randomisation_test`, :func:`bootstrap_ci` -- two-system
  comparisons (scipy.stats where it does the job).
* :func:`kendall_tau_ci` -- Kendall's tau-b with a confidence interval of the kind Sakai 2017
  reports in Table 2 (e.g. ".987 [.968, 1.007]": not clipped to [-1, 1]).
* :func:`krippendorff_alpha` -- thin, validating wrapper around the ``krippendorff`` package.
* :func:`discrepancies` -- Sakai 2017 Table 3: system pairs significant under one condition only.

Conventions shared by every function
------------------------------------
* Randomness only through an explicit ``rng: numpy.random.Generator``; a Monte Carlo call
  without one raises ``ValueError`` (results must be reproducible, so there is no hidden
  ``default_rng()``).
* p-values are two-sided.  Monte Carlo p-values default to ``(count + 1) / (B + 1)`` (Phipson &
  Smyth 2010, "Permutation p-values should never be zero", SAGMB 9(1)), which lies in (0, 1];
  ``p_value="discpower"`` gives Discpower's / Carterette's ``count / B``.  Exact (enumerated)
  p-values are ``count / N`` over all N re-arrangements, the observed one included, so they are
  also in (0, 1].
* "At least as extreme" is decided with a tolerance: a resampled statistic T counts when
  ``T >= observed - rtol * scale`` (scale: the largest absolute score).  Discrete scores make
  re-arranged sums that are equal in exact arithmetic differ in the last bits of a float, and
  dropping such ties would move p-values materially.
* Bad input raises ``ValueError`` with a message naming the argument and what was expected.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any, NamedTuple, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sps

__all__ = [
    "BootstrapCI",
    "KendallTauCI",
    "PairedTestResult",
    "bootstrap_ci",
    "discrepancies",
    "kendall_tau_ci",
    "krippendorff_alpha",
    "paired_randomisation_test",
    "paired_t_test",
    "randomised_tukey_hsd",
    "residual_variance",
]

#: Default relative tolerance for "at least as extreme" comparisons (see module docstring).
#: The rounding error of a re-ordered float64 mean of n values bounded by M is below
#: n * eps * M (about 2.5e-13 * M for n = 1,127 topics); 1e-10 leaves a wide margin while
#: staying far below any difference between means that is not a float artefact.
DEFAULT_RTOL = 1e-10

#: Memory budget for one chunk of Monte Carlo trials (bytes).  Small chunks keep the keys and
#: the permuted block in the CPU's L2 cache between the sort, the gather and the reduction;
#: on the benchmark machine 512 KiB ran the "sort" engine twice as fast as 1-4 MiB chunks.
DEFAULT_CHUNK_BYTES = 512 * 2**10

_P_VALUE_KINDS = ("phipson_smyth", "discpower")


# --------------------------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------------------------


def _check_B(B: Any, name: str = "B") -> int:
    if isinstance(B, (bool, np.bool_)) or not isinstance(B, (int, np.integer)):
        raise ValueError(f"{name} must be a positive integer number of trials, got {B!r}")
    if B < 1:
        raise ValueError(f"{name} must be >= 1, got {B}")
    return int(B)


def _check_level(level: Any, name: str = "level") -> float:
    try:
        lv = float(level)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got {level!r}") from None
    if not (0.0 < lv < 1.0):
        raise ValueError(f"{name} must be strictly between 0 and 1, got {level!r}")
    return lv


def _check_rng(rng: Any, what: str) -> np.random.Generator:
    if rng is None:
        raise ValueError(
            f"{what} needs an explicit rng for reproducibility: pass "
            "rng=numpy.random.default_rng(<seed>)"
        )
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _check_p_kind(p_value: str) -> str:
    if p_value not in _P_VALUE_KINDS:
        raise ValueError(f"p_value must be one of {_P_VALUE_KINDS}, got {p_value!r}")
    return p_value


def _check_rtol(rtol: Any) -> float:
    r = float(rtol)
    if not (math.isfinite(r) and r >= 0):
        raise ValueError(f"rtol must be a finite number >= 0, got {rtol!r}")
    return r


def _mc_p(count: np.ndarray, B: int, kind: str) -> np.ndarray:
    count = np.asarray(count, dtype=np.float64)
    if kind == "phipson_smyth":
        return (count + 1.0) / (B + 1.0)
    return count / B


def _score_matrix(scores: Any) -> tuple[np.ndarray, list[Any], list[Any]]:
    """Validate a topics x systems matrix; return (float array, system names, topic names)."""
    if isinstance(scores, pd.DataFrame):
        cols = list(scores.columns)
        if scores.columns.has_duplicates:
            dup = sorted({str(c) for c in scores.columns[scores.columns.duplicated()]})
            raise ValueError(f"scores has duplicate system names (columns): {dup}")
        topics = list(scores.index)
        try:
            arr = scores.to_numpy(dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"scores must be numeric: {exc}") from None
    else:
        try:
            arr = np.asarray(scores, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"scores must be a numeric 2-D array: {exc}") from None
        if arr.ndim != 2:
            raise ValueError(
                f"scores must be 2-D (topics x systems), got an array with {arr.ndim} dimension(s)"
            )
        cols = list(range(arr.shape[1]))
        topics = list(range(arr.shape[0]))
    if arr.ndim != 2:
        raise ValueError("scores must be 2-D (topics x systems)")
    n, m = arr.shape
    if n < 2:
        raise ValueError(f"scores needs at least 2 topics (rows), got {n}")
    if m < 2:
        raise ValueError(f"scores needs at least 2 systems (columns), got {m}")
    bad = ~np.isfinite(arr)
    if bad.any():
        t, s = np.argwhere(bad)[0]
        raise ValueError(
            f"scores must be finite: {int(bad.sum())} NaN/infinite value(s), first at "
            f"topic {topics[t]!r}, system {cols[s]!r} ({arr[t, s]})"
        )
    return np.ascontiguousarray(arr), cols, topics


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


def _paired_vectors(x: Any, y: Any | None) -> np.ndarray:
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


# --------------------------------------------------------------------------------------------
# two-way ANOVA residual variance
# --------------------------------------------------------------------------------------------


def residual_variance(scores: Any) -> float:
    """Residual variance V_E of the two-way ANOVA without replication.

    Model: ``x[t, j] = mu + topic_t + system_j + e[t, j]`` (no interaction; one score per
    cell).  With n topics and m systems,

    .. math::

        V_E = \\frac{\\sum_{t,j} (x_{tj} - \\bar x_{t\\cdot} - \\bar x_{\\cdot j} + \\bar x)^2}
                    {(n - 1)(m - 1)}

    This is the pooled variance that Sakai uses for ES_HSD = |d| / sqrt(V_E) (Sakai 2014,
    SIGIR Forum 48(1); Sakai 2017, Table 3 and footnote 7).

    Parameters
    ----------
    scores : pandas.DataFrame or array_like, shape (n_topics, n_systems)
        Finite scores, at least 2 topics and 2 systems.

    Returns
    -------
    float
        V_E (0.0 when the matrix is additive, i.e. every score is a topic effect plus a system
        effect; values below the float rounding floor ``(16 * eps * max|x|)^2`` are reported
        as 0.0 rather than as rounding noise, so that ES_HSD becomes inf instead of ~1e15).
    """
    x, _, _ = _score_matrix(scores)
    return _residual_variance(x)


def _residual_variance(x: np.ndarray) -> float:
    n, m = x.shape
    r = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    ve = float(np.sum(r * r) / ((n - 1) * (m - 1)))
    # residuals of an exactly additive matrix are pure rounding noise (~eps * max|x|)
    floor = (16 * np.finfo(np.float64).eps * float(np.max(np.abs(x)))) ** 2
    return 0.0 if ve <= floor else ve


# --------------------------------------------------------------------------------------------
# randomised Tukey HSD
# --------------------------------------------------------------------------------------------


def _iter_chunks(total: int, size: int, progress: bool, desc: str):
    starts = range(0, total, size)
    if progress:
        from helpers import optional

        tqdm = optional("tqdm", "a progress bar (progress=True)").tqdm  # lazily: no I/O unless asked

        starts = tqdm(starts, total=math.ceil(total / size), desc=desc, unit="chunk")
    for s in starts:
        yield s, min(size, total - s)


def _permuted_block(x: np.ndarray, rng: np.random.Generator, engine: str, out: np.ndarray) -> np.ndarray:
    """Fill ``out`` (shape (k, n, m)) with k copies of x, each row independently permuted.

    ``engine="sort"``: one random 64-bit key per cell with the column index in its low
    ceil(log2 m) bits; sorting each row of keys gives a uniform random permutation (up to
    ties among the random high bits, broken by column order).  ``engine="permuted"``: numpy's
    Fisher-Yates ``Generator.permuted`` along the last axis.  Both consume the generator in
    C order (trial by trial), so splitting trials into chunks does not change the draws.
    """
    k, (n, m) = out.shape[0], x.shape
    if engine == "permuted":
        out[...] = x
        return rng.permuted(out, axis=2, out=out)
    bits = max(1, (m - 1).bit_length())
    low = np.uint64((1 << bits) - 1)
    keys = rng.integers(0, np.iinfo(np.uint64).max, size=(k, n, m), dtype=np.uint64, endpoint=True)
    keys &= ~low
    keys |= np.arange(m, dtype=np.uint64)
    keys.sort(axis=2)
    keys &= low
    idx = keys.view(np.int64)
    idx += (np.arange(n, dtype=np.int64) * m)[:, None]
    np.take(x.ravel(), idx, out=out)
    return out


def randomised_tukey_hsd(
    scores: Any,
    B: int = 5000,
    rng: np.random.Generator | None = None,
    progress: bool = False,
    *,
    method: str = "monte_carlo",
    p_value: str = "phipson_smyth",
    engine: str = "sort",
    rtol: float = DEFAULT_RTOL,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    max_exact: int = 2_000_000,
) -> pd.DataFrame:
    """Randomised (blocked) Tukey HSD test for all pairs of systems.

    Implements the algorithm of Carterette (2012, TOIS 30(1)) as run by Sakai's Discpower
    toolkit and used in Sakai (2017), Section 5 and Table 3.  Under the null hypothesis that all
    systems are equivalent, a system's label within a topic is exchangeable, so each trial
    permutes every topic's scores across systems *independently* (topics are blocks), takes the
    system means, and records the range ``T = max_j mean_j - min_j mean_j``.  The p-value of the
    pair (X, Y) is the share of trials whose range is at least ``|mean_X - mean_Y|``.  Comparing
    every pair with the distribution of the *largest* difference is what controls the
    familywise error rate.

    Parameters
    ----------
    scores : pandas.DataFrame or array_like, shape (n_topics, n_systems)
        One row per topic, one column per system; column labels are the system names (a 2-D
        array names systems 0..m-1 by column index).  Scores must be finite; at least 2 topics
        and 2 systems; system names unique.  A topic whose scores are all equal is fine (it
        contributes nothing to any difference).
    B : int, default 5000
        Number of Monte Carlo trials (Sakai 2017 uses B = 5,000).  Ignored when
        ``method="exact"``.
    rng : numpy.random.Generator
        Required for ``method="monte_carlo"``; a missing rng raises ``ValueError``.
    progress : bool, default False
        Show a tqdm bar over chunks of trials (keep it off in checked notebook cells).
    method : {"monte_carlo", "exact"}
        ``"exact"`` enumerates every combination of within-topic permutations.  Relabelling all
        systems at once leaves T unchanged, so topic 1 is held fixed and (m!)^(n-1)
        arrangements are enumerated; feasible only for tiny matrices (see ``max_exact``).
    p_value : {"phipson_smyth", "discpower"}
        Monte Carlo p-value.  ``"phipson_smyth"`` (default): ``(count + 1) / (B + 1)``, an
        exact-level test whose p-value is never 0 (Phipson & Smyth 2010).  ``"discpower"``:
        ``count / B`` as in Discpower/Carterette (can be 0).  Exact mode always gives
        ``count / N`` over the N enumerated arrangements (observed one included).
    engine : {"sort", "permuted"}
        How the Monte Carlo permutations are drawn (both are vectorised over a chunk of trials x
        topics x systems).  ``"sort"`` (default, about 1.5-2x faster): one random 64-bit key per
        cell whose low ceil(log2 m) bits are replaced by the column index; sorting each row
        (numpy's SIMD sort) yields a uniform random permutation, up to ties among the random
        high bits (probability below m^2 / 2^(65 - ceil(log2 m)) per row, about 5e-15 for m = 51;
        a tie is broken by column order).  ``"permuted"``: numpy's Fisher-Yates
        ``rng.permuted(..., axis=2)``, exactly uniform.  The engines consume the generator
        differently, so the same seed gives different (equally valid) p-values.
    rtol : float, default 1e-10
        Tolerance for ties: a trial counts when ``T >= |d| - rtol * max|score|``.  Discrete
        scores give ranges that equal |d| in exact arithmetic but differ from it in the last
        float bits; without the tolerance those ties would be dropped at random.
    chunk_bytes : int, default 512 KiB
        Memory budget of one chunk of trials (``chunk * n_topics * n_systems * 8`` bytes; the
        ``"sort"`` engine holds a second array of that size for the keys); at least one trial
        per chunk.
    max_exact : int, default 2,000,000
        Refuse ``method="exact"`` when (m!)^(n-1) exceeds this.

    Returns
    -------
    pandas.DataFrame
        One row per pair (a, b) with a before b in column order: ``system_a, system_b,
        mean_a, mean_b, diff`` (= mean_a - mean_b), ``p_value`` (two-sided, familywise) and
        ``es_hsd`` = |diff| / sqrt(V_E) (:func:`residual_variance`; ``inf`` if V_E = 0 and
        diff != 0, ``nan`` if both are 0).  ``DataFrame.attrs`` records ``B`` (trials or
        enumerated arrangements), ``method``, ``p_value_definition``, ``residual_variance``,
        ``n_topics`` and ``n_systems``.

    Notes
    -----
    Implementation: each chunk draws one independent permutation per (trial, topic) for all
    its trials at once (see ``engine``), gathers the permuted scores into a (chunk, n, m) block,
    sums over topics and takes max - min; sums rather than means are compared (the 1/n factor
    cancels).  All pairs are counted at once by sorting the thresholds |d| and using
    ``searchsorted`` on each chunk's ranges.  The generator is consumed trial by trial, so the
    result does not depend on ``chunk_bytes``.  The cost is dominated by generating the
    permutations themselves (``benchmarks/bench_stats.py``).
    """
    x, systems, _ = _score_matrix(scores)
    if method not in ("monte_carlo", "exact"):
        raise ValueError(f"method must be 'monte_carlo' or 'exact', got {method!r}")
    if engine not in ("sort", "permuted"):
        raise ValueError(f"engine must be 'sort' or 'permuted', got {engine!r}")
    _check_p_kind(p_value)
    rtol = _check_rtol(rtol)
    B = _check_B(B)
    if isinstance(chunk_bytes, (bool, np.bool_)) or not isinstance(chunk_bytes, (int, np.integer)) or chunk_bytes < 1:
        raise ValueError(f"chunk_bytes must be a positive integer, got {chunk_bytes!r}")
    n, m = x.shape
    sums = x.sum(axis=0)
    scale = float(np.max(np.abs(x)))
    tol = rtol * scale * n  # on the scale of sums
    ia, ib = np.triu_indices(m, k=1)
    absd = np.abs(sums[ia] - sums[ib])
    thresholds = absd - tol
    # Count trials with T >= threshold for every pair at once: sort the thresholds and use
    # searchsorted on each chunk's ranges (O(trials log pairs) instead of trials x pairs).
    order = np.argsort(thresholds, kind="stable")
    thr_sorted = thresholds[order]
    counts_sorted = np.zeros(ia.size, dtype=np.int64)

    def accumulate(ranges: np.ndarray) -> None:
        # number of thresholds <= each range -> those pairs are "as extreme" in that trial
        k = np.searchsorted(thr_sorted, ranges, side="right")
        hist = np.bincount(k, minlength=ia.size + 1)
        # pair at sorted position i is counted by every trial with k > i
        counts_sorted[:] += np.cumsum(hist[::-1])[::-1][1:]

    if method == "monte_carlo":
        rng = _check_rng(rng, "randomised_tukey_hsd(method='monte_carlo')")
        chunk = max(1, min(B, int(chunk_bytes) // (n * m * 8)))
        buf = np.empty((chunk, n, m), dtype=np.float64)
        for _, size in _iter_chunks(B, chunk, progress, "randomised Tukey HSD"):
            blk = _permuted_block(x, rng, engine, buf[:size])
            s = blk.sum(axis=1)
            accumulate(s.max(axis=1) - s.min(axis=1))
        total = B
        counts = np.empty_like(counts_sorted)
        counts[order] = counts_sorted
        p = _mc_p(counts, B, p_value)
        p_def = (
            "(count + 1) / (B + 1)  [Phipson & Smyth 2010]"
            if p_value == "phipson_smyth"
            else "count / B  [Discpower / Carterette 2012]"
        )
    else:
        perms = np.array(list(permutations(range(m))), dtype=np.intp)  # (m!, m)
        f = perms.shape[0]
        total_f = float(f) ** (n - 1)
        if total_f > max_exact:
            raise ValueError(
                f"exact enumeration needs (m!)^(n-1) = {m}!^{n - 1} = {total_f:.3g} arrangements, "
                f"more than max_exact={max_exact}; use method='monte_carlo'"
            )
        total = int(round(total_f))
        rows = x[1:, perms]  # (n-1, m!, m): every arrangement of every topic but the first
        chunk = max(1, min(total, int(chunk_bytes) // (max(n, 2) * m * 8)))
        for start, size in _iter_chunks(total, chunk, progress, "exact Tukey HSD"):
            k = np.arange(start, start + size, dtype=np.int64)
            s = np.broadcast_to(x[0], (size, m)).copy()
            for t in range(n - 1):  # loop over topics (<= ~12), vectorised over arrangements
                s += rows[t, k % f]
                k //= f
            accumulate(s.max(axis=1) - s.min(axis=1))
        counts = np.empty_like(counts_sorted)
        counts[order] = counts_sorted
        p = counts / total
        p_def = "count / N over all (m!)^(n-1) arrangements (exact)"

    ve = _residual_variance(x)
    means = sums / n
    diff = means[ia] - means[ib]
    with np.errstate(divide="ignore", invalid="ignore"):
        es = np.abs(diff) / math.sqrt(ve)
    out = pd.DataFrame(
        {
            "system_a": [systems[i] for i in ia],
            "system_b": [systems[j] for j in ib],
            "mean_a": means[ia],
            "mean_b": means[ib],
            "diff": diff,
            "p_value": p,
            "es_hsd": es,
        }
    )
    out.attrs.update(
        {
            "B": int(total),
            "method": method if method == "exact" else f"monte_carlo ({engine})",
            "p_value_definition": p_def,
            "residual_variance": ve,
            "n_topics": n,
            "n_systems": m,
        }
    )
    return out


# --------------------------------------------------------------------------------------------
# two-system comparisons
# --------------------------------------------------------------------------------------------


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
    d = _paired_vectors(x, y)
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
    d = _paired_vectors(x, y)
    if method not in ("auto", "exact", "monte_carlo"):
        raise ValueError(f"method must be 'auto', 'exact' or 'monte_carlo', got {method!r}")
    _check_p_kind(p_value)
    rtol = _check_rtol(rtol)
    B = _check_B(B)
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
        for start, size in _iter_chunks(total, chunk, False, ""):
            k = np.arange(start, start + size, dtype=np.int64)
            signs = 1.0 - 2.0 * ((k[:, None] >> bits) & 1)
            count += int(np.count_nonzero(np.abs(signs @ d) >= thr))
        return PairedTestResult(float(d.mean()), count / total, n, "exact sign-flip", total)
    rng = _check_rng(rng, "paired_randomisation_test(Monte Carlo)")
    chunk = max(1, min(B, int(chunk_bytes) // (n * 8)))
    count = 0
    for _, size in _iter_chunks(B, chunk, False, ""):
        signs = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
        signs *= 2.0
        signs -= 1.0
        count += int(np.count_nonzero(np.abs(signs @ d) >= thr))
    p = float(_mc_p(count, B, p_value))
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
    d = _paired_vectors(x, y)
    if method not in ("percentile", "bca"):
        raise ValueError(f"method must be 'percentile' or 'bca', got {method!r}")
    level = _check_level(level)
    B = _check_B(B)
    rng = _check_rng(rng, "bootstrap_ci")
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


# --------------------------------------------------------------------------------------------
# Kendall's tau with a confidence interval
# --------------------------------------------------------------------------------------------


class KendallTauCI(NamedTuple):
    """Kendall's tau-b with a two-sided confidence interval."""

    tau: float
    low: float
    high: float
    n: int


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
) -> KendallTauCI:
    """Kendall's tau-b between two score vectors, with a confidence interval.

    The point estimate is ``scipy.stats.kendalltau`` (tau-b: ties adjusted in both variables).
    It compares e.g. the system rankings induced by two gain definitions (Sakai 2017, Table 2).

    ``method="asymptotic"`` (default) uses the consistent variance estimator of Hollander,
    Wolfe & Chicken (Nonparametric Statistical Methods, 3rd ed., Section 8.3; Noether 1967).
    With ``Q_ij = sign(x_i - x_j) * sign(y_i - y_j)`` (0 for a tie),
    ``C_i = sum_{j != i} Q_ij`` and ``Cbar`` their mean,

    .. math::

        \\hat\\sigma^2 = \\frac{2}{n(n-1)}\\left[\\frac{2(n-2)}{n(n-1)^2}
                         \\sum_{i=1}^n (C_i - \\bar C)^2 + 1 - \\hat\\tau^2\\right],
        \\qquad \\hat\\tau \\pm z_{(1+\\text{level})/2}\\,\\hat\\sigma .

    The interval is *not* clipped to [-1, 1] (Sakai's Table 2 reports e.g. .987 [.968, 1.007]);
    identical rankings give [1, 1] and reversed rankings [-1, -1].  With ties, tau-b replaces the
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
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
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
    level = _check_level(level)
    if method not in ("asymptotic", "bootstrap"):
        raise ValueError(f"method must be 'asymptotic' or 'bootstrap', got {method!r}")
    tau = float(_sps.kendalltau(xa, ya).statistic)
    sx = np.sign(xa[:, None] - xa[None, :])
    sy = np.sign(ya[:, None] - ya[None, :])
    q = sx * sy
    # Perfect (dis)agreement, detected in exact integer counts: snap scipy's 0.9999999999999999
    # to +/-1 so that identical rankings give exactly [1, 1].
    s_q, n_x, n_y = int(q.sum()), int(np.abs(sx).sum()), int(np.abs(sy).sum())
    if n_x == n_y and abs(s_q) == n_x:
        tau = math.copysign(1.0, s_q)
    z = float(_sps.norm.ppf(0.5 + level / 2))
    if method == "asymptotic":
        c = q.sum(axis=1)  # diagonal is 0
        ss = float(np.sum((c - c.mean()) ** 2))
        var = 2.0 / (n * (n - 1)) * (2.0 * (n - 2) / (n * (n - 1) ** 2) * ss + 1.0 - tau * tau)
        half = z * math.sqrt(max(var, 0.0))
        return KendallTauCI(tau, tau - half, tau + half, n)
    B = _check_B(B)
    rng = _check_rng(rng, "kendall_tau_ci(method='bootstrap')")
    chunk = max(1, min(B, DEFAULT_CHUNK_BYTES // (4 * n * n * 8)))
    taus = np.empty(B)
    for start, size in _iter_chunks(B, chunk, False, ""):
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


# --------------------------------------------------------------------------------------------
# Krippendorff's alpha
# --------------------------------------------------------------------------------------------


def krippendorff_alpha(
    data: Any,
    level: str = "nominal",
    categories: Sequence[Any] | None = None,
) -> float:
    """Krippendorff's alpha for a units x coders table (``krippendorff`` package).

    alpha = 1 - D_o / D_e (observed over expected disagreement on the pairable values;
    Krippendorff 2004, Content Analysis, ch. 11; Krippendorff 2011, "Computing Krippendorff's
    alpha-reliability").  The computation is delegated to the maintained ``krippendorff``
    package; this wrapper fixes the orientation, missing values and string labels.

    Parameters
    ----------
    data : pandas.DataFrame or array_like, shape (n_units, n_coders)
        One row per unit (item, document, preference pair), one column per coder (assessor).
        Missing judgements are NaN/None.  Values are numbers or string labels (e.g. "LEFT",
        "RIGHT", "EQUAL" for preference judgements).  Units judged by fewer than two coders are
        not pairable and do not contribute.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Level of measurement (distance metric).
    categories : sequence, optional
        The ordered value domain.  Required for ``"ordinal"`` with string labels (their order
        cannot be guessed); optional otherwise.  String labels on an interval/ratio scale are
        rejected.  Any observed value outside ``categories`` raises ``ValueError``.

    Returns
    -------
    float
        alpha (1 = perfect agreement, 0 = chance level, negative = systematic disagreement).
    """
    from helpers import optional

    _kd = optional("krippendorff", "Krippendorff's alpha")

    levels = ("nominal", "ordinal", "interval", "ratio")
    if level not in levels:
        raise ValueError(f"level must be one of {levels}, got {level!r}")
    if isinstance(data, pd.DataFrame):
        arr = data.to_numpy(dtype=object)
    else:
        arr = np.asarray(data, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"data must be 2-D (units x coders), got {arr.ndim} dimension(s)")
    if arr.shape[1] < 2:
        raise ValueError(f"data needs at least 2 coders (columns), got {arr.shape[1]}")
    missing = pd.isna(arr)
    present = arr[~missing]
    is_str = np.array([isinstance(v, str) for v in present], dtype=bool)
    if is_str.any() and not is_str.all():
        raise ValueError("data mixes string labels and numbers; use one kind of value")
    strings = bool(is_str.any())
    if not strings:
        for v in present:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ValueError(f"data values must be numbers or string labels, got {v!r}")
        vals = present.astype(np.float64)
        if not np.isfinite(vals).all():
            raise ValueError("data contains infinite values (use NaN for missing judgements)")
    if strings and level in ("interval", "ratio"):
        raise ValueError(f"string labels have no {level} distances; map them to numbers first")
    if strings and level == "ordinal" and categories is None:
        raise ValueError("ordinal alpha on string labels needs categories=<ordered labels>")

    if strings:
        domain = list(categories) if categories is not None else sorted(set(present))
        if len(set(domain)) != len(domain):
            raise ValueError("categories contains duplicates")
        lookup = {c: i for i, c in enumerate(domain)}
        unknown = sorted({v for v in present if v not in lookup})
        if unknown:
            raise ValueError(f"data contains labels outside categories: {unknown}")
        codes_present = np.asarray([lookup[v] for v in present], dtype=np.float64)
        value_domain = np.arange(len(domain), dtype=np.float64)
    else:
        codes_present = present.astype(np.float64)
        if categories is None:
            value_domain = np.unique(codes_present)
        else:
            try:
                value_domain = np.asarray([float(c) for c in categories])
            except (TypeError, ValueError):
                raise ValueError("categories must be numbers when data values are numbers") from None
            if np.unique(value_domain).size != value_domain.size:
                raise ValueError("categories contains duplicates")
            unknown = np.setdiff1d(codes_present, value_domain)
            if unknown.size:
                raise ValueError(f"data contains values outside categories: {unknown.tolist()}")

    codes = np.full(arr.shape, np.nan)
    codes[~missing] = codes_present
    pairable = np.sum(~missing, axis=1) >= 2
    if not pairable.any():
        raise ValueError("no unit has judgements from at least two coders; alpha is undefined")
    pv = codes[pairable]
    if np.unique(pv[~np.isnan(pv)]).size < 2:
        raise ValueError(
            "alpha is undefined when all pairable judgements have the same value "
            "(no expected disagreement)"
        )
    return float(
        _kd.alpha(reliability_data=codes.T, value_domain=value_domain, level_of_measurement=level)
    )


# --------------------------------------------------------------------------------------------
# discrepancies between two Tukey HSD results (Sakai 2017, Table 3)
# --------------------------------------------------------------------------------------------


def discrepancies(
    result_a: pd.DataFrame,
    result_b: pd.DataFrame,
    alpha: float = 0.05,
    labels: tuple[str, str] = ("RawG", "UG"),
) -> pd.DataFrame:
    """System pairs significant under one condition and not under the other.

    Reproduces the layout of Sakai (2017), Table 3: for each such pair, the p-value, |d| and
    ES_HSD under condition (I) and condition (II).  A pair is significant when ``p < alpha``
    (strictly; Sakai marks p-values *below* alpha).

    Parameters
    ----------
    result_a, result_b : pandas.DataFrame
        Outputs of :func:`randomised_tukey_hsd` (columns ``system_a, system_b, diff, p_value,
        es_hsd``) over the same set of systems; pairs are matched regardless of orientation
        (a pair listed as (X, Y) in one and (Y, X) in the other is the same pair).
    alpha : float in (0, 1), default 0.05
    labels : (str, str), default ("RawG", "UG")
        Names of the two conditions; used as column suffixes.

    Returns
    -------
    pandas.DataFrame
        Columns ``system_a, system_b`` (orientation of ``result_a``), then for each label L:
        ``p_value_L, abs_diff_L, es_hsd_L``, then ``significant_in`` (the label under which the
        pair is significant).  Rows keep ``result_a``'s order; empty (same columns) if there is
        no discrepancy.
    """
    alpha = _check_level(alpha, "alpha")
    if (
        not isinstance(labels, (tuple, list))
        or len(labels) != 2
        or not all(isinstance(s, str) and s for s in labels)
        or labels[0] == labels[1]
    ):
        raise ValueError(f"labels must be two distinct non-empty strings, got {labels!r}")
    need = ("system_a", "system_b", "diff", "p_value", "es_hsd")
    keyed = []
    for name, res in (("result_a", result_a), ("result_b", result_b)):
        if not isinstance(res, pd.DataFrame):
            raise ValueError(f"{name} must be a DataFrame from randomised_tukey_hsd")
        missing = [c for c in need if c not in res.columns]
        if missing:
            raise ValueError(f"{name} lacks columns {missing}")
        keys = [frozenset((a, b)) for a, b in zip(res["system_a"], res["system_b"])]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{name} lists some system pair more than once")
        keyed.append(dict(zip(keys, range(len(keys)))))
    ka, kb = keyed
    if set(ka) != set(kb):
        only_a = sorted(tuple(sorted(map(str, k))) for k in set(ka) - set(kb))
        only_b = sorted(tuple(sorted(map(str, k))) for k in set(kb) - set(ka))
        raise ValueError(
            f"result_a and result_b compare different system pairs: only in result_a {only_a[:5]}, "
            f"only in result_b {only_b[:5]}"
        )
    la, lb = labels
    rows_b = [kb[k] for k in ka]  # result_b rows in result_a's order
    pa = result_a["p_value"].to_numpy(dtype=float)
    pb = result_b["p_value"].to_numpy(dtype=float)[rows_b]
    sig_a, sig_b = pa < alpha, pb < alpha
    keep = sig_a != sig_b
    out = pd.DataFrame(
        {
            "system_a": result_a["system_a"].to_numpy()[keep],
            "system_b": result_a["system_b"].to_numpy()[keep],
            f"p_value_{la}": pa[keep],
            f"abs_diff_{la}": np.abs(result_a["diff"].to_numpy(dtype=float))[keep],
            f"es_hsd_{la}": result_a["es_hsd"].to_numpy(dtype=float)[keep],
            f"p_value_{lb}": pb[keep],
            f"abs_diff_{lb}": np.abs(result_b["diff"].to_numpy(dtype=float)[rows_b])[keep],
            f"es_hsd_{lb}": result_b["es_hsd"].to_numpy(dtype=float)[rows_b][keep],
            "significant_in": np.where(sig_a[keep], la, lb),
        }
    )
    return out.reset_index(drop=True)
