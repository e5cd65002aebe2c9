"""The randomised (blocked) Tukey HSD test over a topics x systems matrix, its effect size ES_HSD
(residual variance of the two-way ANOVA) and the discrepancies between two HSD results
(Sakai 2017, Table 3)."""

from __future__ import annotations

import math
from itertools import permutations
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .checks import (DEFAULT_CHUNK_BYTES, DEFAULT_RTOL, check_B, check_level, check_p_kind,
                                  check_rng, check_rtol, iter_chunks, mc_p, score_matrix)

__all__ = ["compact_letter_display", "residual_variance", "randomised_tukey_hsd", "randomised_tukey_hsd_many", "randomised_tukey_hsd_each",
           "discrepancies"]


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
    x, _, _ = score_matrix(scores)
    return _residual_variance(x)


def _residual_variance(x: np.ndarray) -> float:
    n, m = x.shape
    r = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    ve = float(np.sum(r * r) / ((n - 1) * (m - 1)))
    # residuals of an exactly additive matrix are pure rounding noise (~eps * max|x|)
    floor = (16 * np.finfo(np.float64).eps * float(np.max(np.abs(x)))) ** 2
    return 0.0 if ve <= floor else ve


def _permutation_index(n: int, m: int, rng: np.random.Generator, engine: str, k: int) -> np.ndarray:
    """Flat indices into a C-ordered (n, m) matrix for k trials, each topic's row permuted
    independently: shape (k, n, m).

    ``engine="sort"``: one random 64-bit key per cell with the column index in its low
    ceil(log2 m) bits; sorting each row of keys gives a uniform random permutation (up to
    ties among the random high bits, broken by column order).  ``engine="permuted"``: numpy's
    Fisher-Yates ``Generator.permuted`` along the last axis (of the column indices; the draws do
    not depend on what is permuted).  Both consume the generator in C order (trial by trial), so
    splitting trials into chunks does not change the draws.
    """
    if engine == "permuted":
        idx = np.broadcast_to(np.arange(m, dtype=np.int64), (k, n, m)).copy()
        rng.permuted(idx, axis=2, out=idx)
    else:
        bits = max(1, (m - 1).bit_length())
        low = np.uint64((1 << bits) - 1)
        keys = rng.integers(0, np.iinfo(np.uint64).max, size=(k, n, m), dtype=np.uint64, endpoint=True)
        keys &= ~low
        keys |= np.arange(m, dtype=np.uint64)
        keys.sort(axis=2)
        keys &= low
        idx = keys.view(np.int64)
    idx += (np.arange(n, dtype=np.int64) * m)[:, None]
    return idx


def _permuted_block(x: np.ndarray, rng: np.random.Generator, engine: str, out: np.ndarray) -> np.ndarray:
    """Fill ``out`` (shape (k, n, m)) with k copies of x, each row independently permuted
    (:func:`_permutation_index`)."""
    n, m = x.shape
    np.take(x.ravel(), _permutation_index(n, m, rng, engine, out.shape[0]), out=out)
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
    return randomised_tukey_hsd_many([scores], B, rng, progress, method=method, p_value=p_value, engine=engine,
                                     rtol=rtol, chunk_bytes=chunk_bytes, max_exact=max_exact)[0]


def randomised_tukey_hsd_many(
    scores_list: Sequence[Any],
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
) -> list[pd.DataFrame]:
    """:func:`randomised_tukey_hsd` of several score matrices of one shape on the *same* trials.

    Every matrix sees the same within-topic permutations (common random numbers): the result for
    each matrix is exactly what :func:`randomised_tukey_hsd` gives for it with a generator in the
    same state, but the permutations -- the expensive part -- are drawn once. Comparing two
    conditions on the same systems and topics (RawG vs UG gains, two measures) this way also
    keeps Monte Carlo noise from creating differences between them.

    Parameters are those of :func:`randomised_tukey_hsd`; ``scores_list`` holds matrices of the
    same shape (topics x systems; their system names may differ).

    Returns
    -------
    list of pandas.DataFrame
        One result per matrix, in order.
    """
    if isinstance(scores_list, (pd.DataFrame, np.ndarray)) or len(scores_list) == 0:
        raise ValueError("scores_list must be a non-empty list of score matrices")
    parsed = [score_matrix(sc) for sc in scores_list]
    shapes = {x.shape for x, _, _ in parsed}
    if len(shapes) > 1:
        raise ValueError(f"the score matrices must have one shape (topics x systems), got {sorted(shapes)}")
    if method not in ("monte_carlo", "exact"):
        raise ValueError(f"method must be 'monte_carlo' or 'exact', got {method!r}")
    if engine not in ("sort", "permuted"):
        raise ValueError(f"engine must be 'sort' or 'permuted', got {engine!r}")
    check_p_kind(p_value)
    rtol = check_rtol(rtol)
    B = check_B(B)
    if isinstance(chunk_bytes, (bool, np.bool_)) or not isinstance(chunk_bytes, (int, np.integer)) or chunk_bytes < 1:
        raise ValueError(f"chunk_bytes must be a positive integer, got {chunk_bytes!r}")
    xs = [x for x, _, _ in parsed]
    counters = [_RangeCounter(x, rtol) for x in xs]
    if method == "monte_carlo":
        rng = check_rng(rng, "randomised_tukey_hsd(method='monte_carlo')")
        _monte_carlo_ranges(xs, B, rng, engine, chunk_bytes, progress, counters)
        total = B
        ps = [mc_p(c.counts(), B, p_value) for c in counters]
        p_def = (
            "(count + 1) / (B + 1)  [Phipson & Smyth 2010]"
            if p_value == "phipson_smyth"
            else "count / B  [Discpower / Carterette 2012]"
        )
    else:
        total = _exact_ranges(xs, chunk_bytes, progress, max_exact, counters)
        ps = [c.counts() / total for c in counters]
        p_def = "count / N over all (m!)^(n-1) arrangements (exact)"
    results = []
    for x, (_, systems, _), counter, p in zip(xs, parsed, counters, ps):
        out = _hsd_table(x, systems, counter, p)
        ve = out.attrs.pop("residual_variance")
        out.attrs.update(
            {
                "B": int(total),
                "method": method if method == "exact" else f"monte_carlo ({engine})",
                "p_value_definition": p_def,
                "residual_variance": ve,
                "n_topics": x.shape[0],
                "n_systems": x.shape[1],
            }
        )
        results.append(out)
    return results


def randomised_tukey_hsd_each(
    matrices: Mapping[str, Any],
    B: int = 5000,
    rng: np.random.Generator | None = None,
    **kwargs: Any,
) -> dict[str, pd.DataFrame]:
    """:func:`randomised_tukey_hsd` of every matrix of a mapping (e.g. one per measure), with common
    random numbers: matrices of the same shape are tested on the same permutations
    (:func:`randomised_tukey_hsd_many`), the groups of shapes in order of first appearance, each
    drawing its trials from ``rng`` in turn.

    This is how discriminative power is compared across measures: each measure's test is the
    randomised Tukey HSD with B trials, and differences between measures are not blurred by each
    one having drawn other permutations. Keyword arguments are those of
    :func:`randomised_tukey_hsd`.
    """
    groups: dict[tuple[int, int], list[str]] = {}
    for name, mat in matrices.items():
        groups.setdefault(score_matrix(mat)[0].shape, []).append(name)
    out: dict[str, pd.DataFrame] = {}
    for names in groups.values():
        for name, res in zip(names, randomised_tukey_hsd_many([matrices[k] for k in names], B, rng, **kwargs)):
            out[name] = res
    return {name: out[name] for name in matrices}


class _RangeCounter:
    """For every pair of systems, the number of trials whose range of system sums is at least the
    pair's observed |difference| (less the tie tolerance).

    All pairs are counted at once: the thresholds are sorted and each trial's range is placed
    among them by ``searchsorted`` (O(trials log pairs) instead of trials x pairs).
    """

    def __init__(self, x: np.ndarray, rtol: float):
        n, m = x.shape
        self.sums = x.sum(axis=0)
        scale = float(np.max(np.abs(x)))
        tol = rtol * scale * n  # on the scale of sums
        self.ia, self.ib = np.triu_indices(m, k=1)
        absd = np.abs(self.sums[self.ia] - self.sums[self.ib])
        thresholds = absd - tol
        self.order = np.argsort(thresholds, kind="stable")
        self.thr_sorted = thresholds[self.order]
        self.counts_sorted = np.zeros(self.ia.size, dtype=np.int64)

    def add(self, ranges: np.ndarray) -> None:
        """Count the trials with these ranges (max - min of the system sums)."""
        # number of thresholds <= each range -> those pairs are "as extreme" in that trial
        k = np.searchsorted(self.thr_sorted, ranges, side="right")
        hist = np.bincount(k, minlength=self.ia.size + 1)
        # pair at sorted position i is counted by every trial with k > i
        self.counts_sorted[:] += np.cumsum(hist[::-1])[::-1][1:]

    def counts(self) -> np.ndarray:
        """Counts in pair order (``np.triu_indices`` of the systems)."""
        counts = np.empty_like(self.counts_sorted)
        counts[self.order] = self.counts_sorted
        return counts


#: From this many matrices on, :func:`_monte_carlo_ranges` sums the permuted scores of all of them
#: with one sparse product instead of one gather per matrix (measured: 6 matrices of 100 x 16 at
#: B = 5,000 take 0.12 s by gathers, 0.05 s by the product; 90 matrices 1.9 s against 0.25 s).
SPARSE_FROM = 4


def _monte_carlo_ranges(xs: list[np.ndarray], B: int, rng: np.random.Generator, engine: str, chunk_bytes: int,
                        progress: bool, counters: list[_RangeCounter]) -> None:
    """B trials, each permuting every topic's scores across systems independently; the same
    permutations for every matrix of ``xs``.

    The system sums of a trial are ``S[j] = sum_t x[t, pi_t(j)]``. For a few matrices they are
    gathered and summed per matrix; for :data:`SPARSE_FROM` or more, the trials of a chunk become
    one 0/1 matrix ``M`` (row ``(trial, j)`` holds a 1 at column ``(t, pi_t(j))`` for every topic
    ``t``) and ``M @ [x_1 ... x_C]`` sums all matrices at once, reading each index once. Both add
    the topics in the same order (t = 0, 1, ...), one term at a time, so the sums -- and hence the
    p-values -- are bit-identical whichever path runs (tested).
    """
    n, m = xs[0].shape
    chunk = max(1, min(B, int(chunk_bytes) // (n * m * 8)))
    sparse = len(xs) >= SPARSE_FROM
    if sparse:
        from scipy.sparse import csr_matrix

        stacked = np.stack([x.ravel() for x in xs], axis=1)  # (n * m, C)
        ones = np.ones(chunk * m * n)
        indptr = np.arange(0, chunk * m * n + 1, n, dtype=np.int64)
        ranges = np.empty((B, len(xs)))  # counted once per matrix at the end (counting is additive)
    else:
        buf = np.empty((chunk, n, m), dtype=np.float64)
    for start, size in iter_chunks(B, chunk, progress, "randomised Tukey HSD"):
        idx = _permutation_index(n, m, rng, engine, size)
        if sparse:
            cols = idx.transpose(0, 2, 1).reshape(-1)  # (trial, j, t) order: a row per (trial, j)
            nnz = size * m * n
            M = csr_matrix((ones[:nnz], cols, indptr[:size * m + 1]), shape=(size * m, n * m))
            s = (M @ stacked).reshape(size, m, len(xs))
            np.subtract(s.max(axis=1), s.min(axis=1), out=ranges[start:start + size])
            continue
        for x, counter in zip(xs, counters):
            blk = np.take(x.ravel(), idx, out=buf[:size])
            s = blk.sum(axis=1)
            counter.add(s.max(axis=1) - s.min(axis=1))
    if sparse:
        for c, counter in enumerate(counters):
            counter.add(ranges[:, c])


def _exact_ranges(xs: list[np.ndarray], chunk_bytes: int, progress: bool, max_exact: int,
                  counters: list[_RangeCounter]) -> int:
    """Every combination of within-topic permutations, topic 1 held fixed; returns their number."""
    n, m = xs[0].shape
    perms = np.array(list(permutations(range(m))), dtype=np.intp)  # (m!, m)
    f = perms.shape[0]
    total_f = float(f) ** (n - 1)
    if total_f > max_exact:
        raise ValueError(
            f"exact enumeration needs (m!)^(n-1) = {m}!^{n - 1} = {total_f:.3g} arrangements, "
            f"more than max_exact={max_exact}; use method='monte_carlo'"
        )
    total = int(round(total_f))
    chunk = max(1, min(total, int(chunk_bytes) // (max(n, 2) * m * 8)))
    for x, counter in zip(xs, counters):
        rows = x[1:, perms]  # (n-1, m!, m): every arrangement of every topic but the first
        for start, size in iter_chunks(total, chunk, progress, "exact Tukey HSD"):
            k = np.arange(start, start + size, dtype=np.int64)
            s = np.broadcast_to(x[0], (size, m)).copy()
            for t in range(n - 1):  # loop over topics (<= ~12), vectorised over arrangements
                s += rows[t, k % f]
                k //= f
            counter.add(s.max(axis=1) - s.min(axis=1))
    return total


def _hsd_table(x: np.ndarray, systems: list, counter: _RangeCounter, p: np.ndarray) -> pd.DataFrame:
    """One row per pair: means, difference, p-value and ES_HSD (V_E in ``attrs``)."""
    n = x.shape[0]
    ia, ib = counter.ia, counter.ib
    ve = _residual_variance(x)
    means = counter.sums / n
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
    out.attrs["residual_variance"] = ve
    return out


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
    alpha = check_level(alpha, "alpha")
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
        keys = [frozenset((a, b)) for a, b in zip(res["system_a"].to_numpy(), res["system_b"].to_numpy())]
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


def compact_letter_display(means: pd.Series, significant: Sequence[tuple[Any, Any]]) -> pd.Series:
    """Letters such that two systems share a letter iff their difference is *not* significant.

    Piepho's (2004, J. Comput. Graph. Stat. 13(2)) insert-and-absorb algorithm: start with one
    group holding every system; for every significant pair, split each group that holds both into
    two (one without either member), then drop groups contained in another group. Groups are
    lettered a, b, ... in order of their best member's mean (descending). No plotting library
    offers this for an arbitrary significance table, hence the hand-written version.

    Parameters
    ----------
    means : Series
        Mean (e.g. MAR) per system; sets the lettering order.
    significant : sequence of (system, system)
        The pairs that differ significantly.

    Returns
    -------
    Series of letter strings indexed like ``means``.
    """
    if not isinstance(means, pd.Series) or len(means) == 0:
        raise ValueError("means must be a non-empty Series")
    names = list(means.index)
    pos = {n: k for k, n in enumerate(names)}
    groups: list[frozenset] = [frozenset(range(len(names)))]
    for a, b in significant:
        if a not in pos or b not in pos:
            raise ValueError(f"significant pair ({a!r}, {b!r}) names a system not in means")
        i, j = pos[a], pos[b]
        if i == j:
            raise ValueError(f"significant pair ({a!r}, {b!r}) compares a system with itself")
        new = []
        for g in groups:
            if i in g and j in g:
                new += [g - {i}, g - {j}]
            else:
                new.append(g)
        uniq = list(dict.fromkeys(new))
        groups = [g for g in uniq if not any(g < h for h in uniq)]
    vals = means.to_numpy(float)
    groups.sort(key=lambda g: (-max(vals[k] for k in g), min(g)))
    letters = {k: "" for k in range(len(names))}
    for idx, g in enumerate(groups):
        letter = _letter(idx)
        for k in sorted(g):
            letters[k] += letter
    return pd.Series([letters[k] for k in range(len(names))], index=means.index, name="group")


def _letter(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s
