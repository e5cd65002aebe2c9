"""What the statistics share: argument checks, Monte Carlo p-values, chunks of trials, score matrices.

The conventions these implement are listed in the :mod:`helpers.stats` docstring.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_RTOL", "DEFAULT_CHUNK_BYTES", "P_VALUE_KINDS", "check_B", "check_level", "check_rng",
           "check_p_kind", "check_rtol", "mc_p", "iter_chunks", "score_matrix"]

#: Default relative tolerance for "at least as extreme" comparisons (see module docstring).
#: The rounding error of a re-ordered float64 mean of n values bounded by M is below
#: n * eps * M (about 2.5e-13 * M for n = 1,127 topics); 1e-10 leaves a wide margin while
#: staying far below any difference between means that is not a float artefact.
DEFAULT_RTOL = 1e-10

#: Memory budget for one chunk of Monte Carlo trials (bytes).  Small chunks keep the keys and
#: the permuted block in the CPU's L2 cache between the sort, the gather and the reduction;
#: on the benchmark machine 512 KiB ran the "sort" engine twice as fast as 1-4 MiB chunks.
DEFAULT_CHUNK_BYTES = 512 * 2**10

P_VALUE_KINDS = ("phipson_smyth", "discpower")


def check_B(B: Any, name: str = "B") -> int:
    """A positive integer number of trials (booleans refused)."""
    if isinstance(B, (bool, np.bool_)) or not isinstance(B, (int, np.integer)):
        raise ValueError(f"{name} must be a positive integer number of trials, got {B!r}")
    if B < 1:
        raise ValueError(f"{name} must be >= 1, got {B}")
    return int(B)


def check_level(level: Any, name: str = "level") -> float:
    """A confidence level or significance threshold strictly between 0 and 1."""
    try:
        lv = float(level)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got {level!r}") from None
    if not (0.0 < lv < 1.0):
        raise ValueError(f"{name} must be strictly between 0 and 1, got {level!r}")
    return lv


def check_rng(rng: Any, what: str) -> np.random.Generator:
    """An explicit ``numpy.random.Generator`` (no hidden ``default_rng()``)."""
    if rng is None:
        raise ValueError(
            f"{what} needs an explicit rng for reproducibility: pass "
            "rng=numpy.random.default_rng(<seed>)"
        )
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def check_p_kind(p_value: str) -> str:
    """One of :data:`P_VALUE_KINDS`."""
    if p_value not in P_VALUE_KINDS:
        raise ValueError(f"p_value must be one of {P_VALUE_KINDS}, got {p_value!r}")
    return p_value


def check_rtol(rtol: Any) -> float:
    """The tie tolerance of "at least as extreme": a finite number >= 0."""
    r = float(rtol)
    if not (math.isfinite(r) and r >= 0):
        raise ValueError(f"rtol must be a finite number >= 0, got {rtol!r}")
    return r


def mc_p(count: np.ndarray, B: int, kind: str) -> np.ndarray:
    """Monte Carlo p-value of ``count`` extreme trials out of ``B``: ``(count + 1) / (B + 1)``
    (Phipson & Smyth 2010) or ``count / B`` (Discpower)."""
    count = np.asarray(count, dtype=np.float64)
    if kind == "phipson_smyth":
        return (count + 1.0) / (B + 1.0)
    return count / B


def score_matrix(scores: Any) -> tuple[np.ndarray, list[Any], list[Any]]:
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


def iter_chunks(total: int, size: int, progress: bool, desc: str):
    """``(start, size)`` of consecutive chunks of ``total`` trials, with a tqdm bar if asked."""
    starts = range(0, total, size)
    if progress:
        from .. import optional

        tqdm = optional("tqdm", "a progress bar (progress=True)").tqdm  # lazily: no I/O unless asked

        starts = tqdm(starts, total=math.ceil(total / size), desc=desc, unit="chunk")
    for s in starts:
        yield s, min(size, total - s)
