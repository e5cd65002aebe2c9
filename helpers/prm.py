"""The Predicted Relevance Model (PRM) of Demeester et al. (2016).

Reference: T. Demeester, R. Aly, D. Hiemstra, D. Nguyen, C. Develder, "Predicting relevance based
on assessor disagreement: analysis and practical applications for search evaluation",
Information Retrieval Journal 19 (2016). Equation numbers below refer to that paper.

Conventions used throughout this module
---------------------------------------
* Assessment levels are integers ``0..T``; ``0`` is non-relevant and ``T`` the top level
  (paper, Definition 2). ``T`` is inferred from the data unless given explicitly, in which case
  levels that nobody used still appear in the results (with a count of 0 and ``p = NaN``).
* A *random user* finds a result relevant (``R``) when a second, independent assessor puts it on
  or above the threshold ``theta`` (Sect. 3.1.5); ``theta`` must lie in ``1..T``.
* Double judgments are a table with columns ``u1`` and ``u2`` (the two assessors' levels) and,
  for the topic bootstrap, ``query_id``. Every row must carry both levels: a row with a missing
  ``u1`` or ``u2`` is not a double judgment and is rejected.
* ``p_{R|i}`` is estimated with Eq. (4) (one-sided: U2's verdict given U1's level) or Eq. (5)
  (both directions pooled). Its standard deviation is the binomial one the paper gives under
  Table 2, ``sigma = sqrt(p (1 - p) / N_D)`` with ``N_D`` the denominator of Eq. (4)/(5).
* A level with no judgments in the denominator gets ``p = NaN`` and ``sigma = NaN`` with
  ``denominator = 0``; nothing raises.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from . import measures, stats
from .io.readers import pairs_from_qrels

__all__ = [
    "METHODS",
    "estimate",
    "expected_relevant",
    "binary_relevant",
    "prm_gains",
    "binary_gains",
    "udm_weights",
    "bootstrap_topics",
    "annotation_rounds",
    "relevant_in_top_k",
    "table5",
    "pairs_from_qrels",
    "one_rating_per_item",
    "pairs_within_items",
    "gain_qrels",
    "mean_scores",
    "scheme_matrices",
    "scheme_means",
    "robustness_difference",
    "bootstrap_p",
    "robustness_tables",
]

METHODS = ("eq4", "eq5")
Method = Literal["eq4", "eq5"]

#: Sentinel for "no assessment" in :func:`expected_relevant` / :func:`binary_relevant`.
UNJUDGED = -1


# ----------------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------------
def _as_levels(values, name: str) -> np.ndarray:
    """Convert a column of levels to int64, rejecting missing and fractional values."""
    raw = pd.Series(values).reset_index(drop=True)
    arr = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    missing = raw.isna().to_numpy()
    if missing.any():
        rows = np.flatnonzero(missing)[:5].tolist()
        raise ValueError(
            f"unpaired double judgments: column {name!r} is missing a level in "
            f"{int(missing.sum())} row(s) (first positions {rows}); every row needs both u1 and u2"
        )
    bad = ~np.isfinite(arr) | (arr != np.round(arr))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"column {name!r} must hold integer levels; row position {i} has {raw.iloc[i]}"
        )
    return arr.astype(np.int64)


def _validate_pairs(pairs: pd.DataFrame, T: int | None, threshold: int | None,
                    need_query: bool = False) -> tuple[np.ndarray, np.ndarray, int]:
    if not isinstance(pairs, pd.DataFrame):
        raise ValueError(f"pairs must be a pandas DataFrame with columns u1, u2; got "
                         f"{type(pairs).__name__}")
    required = ["u1", "u2"] + (["query_id"] if need_query else [])
    missing = [c for c in required if c not in pairs.columns]
    if missing:
        raise ValueError(f"pairs is missing column(s) {missing}; expected {required} "
                         f"(got {list(pairs.columns)})")
    u1 = _as_levels(pairs["u1"], "u1")
    u2 = _as_levels(pairs["u2"], "u2")
    if T is None:
        if len(u1) == 0:
            raise ValueError("pairs is empty and T was not given: cannot infer the top level")
        T = int(max(u1.max(), u2.max()))
    else:
        if isinstance(T, bool) or int(T) != T or T < 1:
            raise ValueError(f"T (the top level) must be an integer >= 1, got {T!r}")
        T = int(T)
    for name, arr in (("u1", u1), ("u2", u2)):
        out = (arr < 0) | (arr > T)
        if out.any():
            i = int(np.flatnonzero(out)[0])
            raise ValueError(f"level {int(arr[i])} in column {name!r} (row position {i}) is "
                             f"outside 0..{T}")
    if threshold is not None:
        _check_threshold(threshold, T)
    return u1, u2, T


def _check_threshold(threshold, T: int) -> int:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise ValueError(f"threshold must be an integer level in 1..{T}, got {threshold!r}")
    if not 1 <= threshold <= T:
        raise ValueError(f"threshold theta={threshold} is outside 1..{T}: users must need at "
                         f"least level 1 and at most the top level {T}")
    return int(threshold)


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return method


# ----------------------------------------------------------------------------------------------
# counting core (vectorised)
# ----------------------------------------------------------------------------------------------
def _contributions(u1: np.ndarray, u2: np.ndarray, threshold: int, T: int,
                   method: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-pair contributions to the numerators and denominators of Eq. (4)/(5).

    Returns two ``(n_pairs, T + 1)`` arrays ``num`` and ``den`` such that summing over any
    multiset of pairs gives that multiset's ``N_N`` and ``N_D`` per level.
    """
    levels = np.arange(T + 1)
    one1 = (u1[:, None] == levels).astype(np.int64)
    num = one1 * (u2 >= threshold)[:, None]
    den = one1.copy()
    if method == "eq5":
        one2 = (u2[:, None] == levels).astype(np.int64)
        num = num + one2 * (u1 >= threshold)[:, None]
        den = den + one2
    return num, den


def _ratio(num: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        sigma = np.where(den > 0, np.sqrt(p * (1.0 - p) / np.where(den > 0, den, 1.0)), np.nan)
    return p, sigma


# ----------------------------------------------------------------------------------------------
# estimation
# ----------------------------------------------------------------------------------------------
def estimate(pairs: pd.DataFrame, threshold: int, method: Method = "eq4", *,
             T: int | None = None) -> pd.DataFrame:
    """Estimate the disagreement parameters ``p_{R|i}`` from double judgments.

    Demeester et al. (2016), Eq. (4) (``method="eq4"``)::

        p_{R|i} = N_{U2=R, U1=i} / N_{U1=i}

    and Eq. (5) (``method="eq5"``), which pools both directions::

        p_{R|i} = (N_{U1=R, U2=i} + N_{U2=R, U1=i}) / (N_{U2=i} + N_{U1=i})

    where ``R`` means "level >= threshold". The standard deviation is the binomial one given below
    Table 2 of the paper, ``sqrt(p (1 - p) / N_D)``.

    Parameters
    ----------
    pairs : DataFrame
        Double judgments, one row per (topic, document) judged by both assessors, with integer
        columns ``u1`` and ``u2`` (levels ``0..T``). Other columns are ignored.
    threshold : int
        ``theta`` in ``1..T``: a random user finds a result relevant when the other assessor's
        level is ``>= theta`` (``theta = T``: top relevance; ``theta = 1``: marginal relevance).
    method : {"eq4", "eq5"}
        Estimator. Eq. (4) uses U1's level as the condition only; Eq. (5) is only valid when both
        assessors judged the same unbiased pool (paper, Sect. 5.2.1).
    T : int, optional
        Top level. Defaults to the largest level in the data; give it so that levels absent
        from the data still appear (with ``denominator = 0`` and ``p = NaN``).

    Returns
    -------
    DataFrame
        One row per level ``0..T`` with columns ``level``, ``numerator`` (``N_N``),
        ``denominator`` (``N_D``), ``p`` and ``sigma``. ``attrs`` records ``threshold``,
        ``method`` and ``T``.

    Raises
    ------
    ValueError
        If a column is missing, a row lacks ``u1`` or ``u2``, a level is not an integer in
        ``0..T``, ``threshold`` is not in ``1..T`` or ``method`` is unknown.

    Examples
    --------
    Table 1 of the paper (20 pairs of 3-level judgments), top relevance ``theta = 2``:
    Eq. (4) gives 1/6, 3/10, 2/4 and Eq. (5) 1/13, 5/17, 4/10 for levels 0, 1, 2.
    """
    _check_method(method)
    u1, u2, T = _validate_pairs(pairs, T, threshold)
    num, den = _contributions(u1, u2, threshold, T, method)
    n_num, n_den = num.sum(axis=0), den.sum(axis=0)
    p, sigma = _ratio(n_num, n_den)
    out = pd.DataFrame({"level": np.arange(T + 1), "numerator": n_num, "denominator": n_den,
                        "p": p, "sigma": sigma})
    out.attrs.update(threshold=int(threshold), method=method, T=T)
    return out


def _p_array(p, name: str = "p") -> np.ndarray:
    """Accept an :func:`estimate` frame, a {level: p} mapping, a Series or a sequence."""
    if isinstance(p, pd.DataFrame):
        if not {"level", "p"} <= set(p.columns):
            raise ValueError(f"{name} as a DataFrame needs columns 'level' and 'p' (from estimate())")
        levels = p["level"].to_numpy()
        if not np.array_equal(np.sort(levels), np.arange(len(levels))):
            raise ValueError(f"{name} must list every level 0..T exactly once, got {levels.tolist()}")
        arr = p.sort_values("level")["p"].to_numpy(dtype=float)
    elif isinstance(p, Mapping):
        keys = sorted(int(k) for k in p)
        if keys != list(range(len(keys))):
            raise ValueError(f"{name} must have keys 0..T, got {sorted(p)}")
        arr = np.array([float(p[k]) for k in keys])
    elif isinstance(p, pd.Series):
        arr = p.sort_index().to_numpy(dtype=float)
    else:
        arr = np.asarray(p, dtype=float)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{name} must give one probability for each level 0..T (T >= 1), "
                         f"got shape {arr.shape}")
    if np.isnan(arr).any():
        lv = np.flatnonzero(np.isnan(arr)).tolist()
        raise ValueError(f"{name} is NaN for level(s) {lv} (no double judgments there); fill "
                         f"them explicitly before using them as gains")
    if ((arr < 0) | (arr > 1)).any():
        raise ValueError(f"{name} must be probabilities in [0, 1], got {arr.tolist()}")
    return arr


def _level_array(levels, T: int, name: str = "levels") -> np.ndarray:
    arr = np.asarray(levels)
    if arr.dtype.kind == "f":
        if np.isnan(arr).any():
            raise ValueError(f"{name} contains NaN; mark unjudged results with {UNJUDGED}")
        if (arr != np.round(arr)).any():
            raise ValueError(f"{name} must be integer levels")
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integer levels, got dtype {arr.dtype}")
    bad = (arr != UNJUDGED) & ((arr < 0) | (arr > T))
    if bad.any():
        raise ValueError(f"{name} contains level {int(arr[bad].flat[0])}, outside 0..{T} "
                         f"(use {UNJUDGED} for unjudged)")
    return arr


def expected_relevant(levels, p, *, axis: int = -1) -> np.ndarray:
    """Expected number of relevant results for a random user, Eq. (2).

    ``N_R^PRM = sum_i n_i p_{R|i}``: each result assessed with level ``i`` is relevant to a random
    user with probability ``p_{R|i}`` (paper, Sect. 3.2).

    Parameters
    ----------
    levels : array_like of int
        Assessed levels of the results, any shape; ``-1`` marks an unjudged result, which counts
        0 (the usual "unjudged is non-relevant" convention, without ``p_{R|0}``).
    p : DataFrame, mapping, Series or sequence
        ``p_{R|i}`` for ``i = 0..T`` (e.g. the output of :func:`estimate`); NaN is rejected.
    axis : int
        Axis to sum over (default: the last, e.g. ranks).

    Returns
    -------
    ndarray of float
    """
    parr = _p_array(p)
    arr = _level_array(levels, len(parr) - 1)
    gains = np.where(arr == UNJUDGED, 0.0, parr[np.clip(arr, 0, None)])
    return gains.sum(axis=axis)


def binary_relevant(levels, threshold: int, T: int, *, axis: int = -1) -> np.ndarray:
    """Number of results assessed on or above the threshold, Eq. (1): ``sum_{i>=theta} n_i``.

    ``levels`` as in :func:`expected_relevant` (``-1`` = unjudged, counts 0).
    """
    _check_threshold(threshold, int(T))
    arr = _level_array(levels, int(T))
    return (arr >= threshold).sum(axis=axis).astype(float)


def prm_gains(p) -> dict[int, float]:
    """PRM gains ``g(i) = p_{R|i}`` for graded measures such as nDCG (paper, Sect. 3.3.2).

    Returns a ``{level: gain}`` dict for :func:`helpers.measures.evaluate` (``gains=``).
    NaN estimates are rejected: decide explicitly how to fill a level without judgments.
    """
    parr = _p_array(p)
    return {i: float(v) for i, v in enumerate(parr)}


def binary_gains(threshold: int, T: int) -> dict[int, float]:
    """Binary gains at threshold theta, ``g(i) = 1[i >= theta]`` (paper, Sect. 3.3.2)."""
    _check_threshold(threshold, int(T))
    return {i: float(i >= threshold) for i in range(int(T) + 1)}


def udm_weights(p) -> dict[int, float]:
    """Weights of the older User Disagreement Model (Demeester et al. 2014; paper Sect. 3.4).

    The UDM gives the top level weight 1, levels ``0 < i < T`` the weight ``p_{T|i}`` and the
    lowest level 0 (Sect. 3.4.1 and 3.4.5). ``p`` must be estimated for top relevance
    (``theta = T``); when it comes from :func:`estimate` this is checked.
    """
    if isinstance(p, pd.DataFrame) and "threshold" in p.attrs:
        if p.attrs["threshold"] != p.attrs.get("T"):
            raise ValueError(f"UDM weights need p_(T|i) for top relevance (theta = T = "
                             f"{p.attrs.get('T')}), got theta = {p.attrs['threshold']}")
    parr = _p_array(p)
    w = parr.copy()
    w[0] = 0.0
    w[-1] = 1.0
    return {i: float(v) for i, v in enumerate(w)}


# ----------------------------------------------------------------------------------------------
# resampling
# ----------------------------------------------------------------------------------------------
def _check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    return rng


def _check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def bootstrap_topics(pairs: pd.DataFrame, threshold: int, B: int = 300, *,
                     rng: np.random.Generator, method: Method = "eq5",
                     T: int | None = None) -> pd.DataFrame:
    """Topic bootstrap of ``p_{R|i}`` (paper, Sect. 6.2 and Fig. 2).

    Draws ``B`` samples of the topics that have double judgments, with replacement, and
    re-estimates ``p_{R|i}`` from all double judgments of the drawn topics, each topic counted as
    many times as it was drawn. Vectorised: per-topic counts are computed once and each replicate
    is a multinomial weighting of them.

    Parameters
    ----------
    pairs : DataFrame
        Double judgments with ``query_id``, ``u1`` and ``u2`` (see :func:`estimate`).
    threshold, method, T
        As in :func:`estimate`.
    B : int
        Number of bootstrap samples (300 in the paper).
    rng : numpy.random.Generator
        Source of randomness; the result is a deterministic function of its state.

    Returns
    -------
    DataFrame
        Long format, ``B * (T + 1)`` rows: ``replicate`` (0..B-1), ``level``, ``numerator``,
        ``denominator``, ``p`` (NaN when a replicate has no judgment at that level).
    """
    _check_method(method)
    B = _check_positive_int(B, "B")
    rng = _check_rng(rng)
    u1, u2, T = _validate_pairs(pairs, T, threshold, need_query=True)
    if len(u1) == 0:
        raise ValueError("pairs is empty: nothing to bootstrap")
    codes, topics = pd.factorize(pairs["query_id"], sort=True)
    if (codes < 0).any():  # factorize codes a missing id as -1, which would index the last topic
        i = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"pairs 'query_id' is missing at row position {i}: every double judgment "
                         "needs its topic for a topic bootstrap")
    num, den = _contributions(u1, u2, threshold, T, method)
    n_topics = len(topics)
    per_topic_num = np.zeros((n_topics, T + 1), dtype=np.int64)
    per_topic_den = np.zeros((n_topics, T + 1), dtype=np.int64)
    np.add.at(per_topic_num, codes, num)
    np.add.at(per_topic_den, codes, den)
    weights = rng.multinomial(n_topics, np.full(n_topics, 1.0 / n_topics), size=B)
    bnum = weights @ per_topic_num
    bden = weights @ per_topic_den
    p, _ = _ratio(bnum, bden)
    return pd.DataFrame({
        "replicate": np.repeat(np.arange(B), T + 1),
        "level": np.tile(np.arange(T + 1), B),
        "numerator": bnum.ravel(),
        "denominator": bden.ravel(),
        "p": p.ravel(),
    })


#: Largest rounds x size x levels array :func:`annotation_rounds` builds (about 1.3 GB of int64
#: cumulative sums); beyond it the request is refused rather than left to a MemoryError.
_MAX_DRAWN = 80_000_000


def annotation_rounds(pairs: pd.DataFrame, sizes: Sequence[int], rounds: int = 50, *,
                      rng: np.random.Generator, threshold: int, method: Method = "eq5",
                      T: int | None = None) -> pd.DataFrame:
    """Simulated annotation rounds: ``p_{R|i}`` versus the number of double judgments (Fig. 3).

    Each round draws ``max(sizes)`` double judgments from ``pairs`` with replacement, in order,
    and records the estimate on the first ``n`` of them for every ``n`` in ``sizes`` (a growing
    set of judgments, as in the paper's Sect. 6.3). Vectorised with cumulative sums.

    Parameters
    ----------
    pairs : DataFrame
        Double judgments with ``u1`` and ``u2``.
    sizes : sequence of int
        Numbers of double judgments at which to record the estimate (positive, any order).
    rounds : int
        Number of simulated annotation rounds (50 in the paper).
    rng : numpy.random.Generator
    threshold, method, T
        As in :func:`estimate` (Eq. (5) by default, as in the paper's Fig. 3).

    Returns
    -------
    DataFrame
        Long format: ``round``, ``size``, ``level``, ``p`` (NaN while no judgment at that level
        has been drawn).
    """
    _check_method(method)
    rounds = _check_positive_int(rounds, "rounds")
    rng = _check_rng(rng)
    sizes_arr = np.unique(np.asarray([_check_positive_int(s, "each size") for s in sizes]
                                     if len(sizes) else [], dtype=np.int64))
    if sizes_arr.size == 0:
        raise ValueError("sizes must contain at least one positive integer")
    u1, u2, T = _validate_pairs(pairs, T, threshold)
    if len(u1) == 0:
        raise ValueError("pairs is empty: nothing to sample")
    num, den = _contributions(u1, u2, threshold, T, method)
    n_max = int(sizes_arr[-1])
    if rounds * n_max * (T + 1) > _MAX_DRAWN:
        raise ValueError(f"rounds x max(sizes) x levels = {rounds} x {n_max} x {T + 1} exceeds "
                         f"{_MAX_DRAWN:,} draws held in memory at once; use fewer rounds or smaller "
                         f"sizes (the data hold {len(u1)} double judgments)")
    idx = rng.integers(0, len(u1), size=(rounds, n_max))
    cnum = np.cumsum(num[idx], axis=1)[:, sizes_arr - 1, :]  # rounds x sizes x levels
    cden = np.cumsum(den[idx], axis=1)[:, sizes_arr - 1, :]
    p, _ = _ratio(cnum, cden)
    R, S, L = p.shape
    return pd.DataFrame({
        "round": np.repeat(np.arange(R), S * L),
        "size": np.tile(np.repeat(sizes_arr, L), R),
        "level": np.tile(np.arange(L), R * S),
        "p": p.ravel(),
    })


# ----------------------------------------------------------------------------------------------
# counting relevant results of runs (Table 5)
# ----------------------------------------------------------------------------------------------
def relevant_in_top_k(run: pd.DataFrame, qrels: pd.DataFrame, k: int, *, threshold: int,
                      p, T: int) -> pd.DataFrame:
    """Per run and topic, the binary (Eq. 1) and PRM-expected (Eq. 2) relevant results in the top k.

    Parameters
    ----------
    run : DataFrame
        ``run_id, query_id, doc_id, rank`` (rank 1 = top). Only ranks ``<= k`` are used.
    qrels : DataFrame
        ``query_id, doc_id, relevance`` with integer levels ``0..T``. Retrieved documents absent
        from the qrels are unjudged and count 0 in both counts (they have no assessment to
        predict from).
    k : int
        Cutoff.
    threshold : int
        ``theta`` for the binary count.
    p
        ``p_{R|i}`` (see :func:`expected_relevant`).
    T : int
        Top level.

    Returns
    -------
    DataFrame
        ``run_id, query_id, binary, prm`` for every (run, topic) pair present in ``run`` on a topic
        that appears in ``qrels`` (runs on unjudged topics are dropped).
    """
    k = _check_positive_int(k, "k")
    _check_threshold(threshold, T)
    parr = _p_array(p)
    if len(parr) != T + 1:
        raise ValueError(f"p has {len(parr)} levels but T = {T} needs {T + 1}")
    for name, df, cols in (("run", run, ["run_id", "query_id", "doc_id", "rank"]),
                           ("qrels", qrels, ["query_id", "doc_id", "relevance"])):
        miss = [c for c in cols if c not in df.columns]
        if miss:
            raise ValueError(f"{name} is missing column(s) {miss}")
    rel = _as_levels(qrels["relevance"], "relevance")
    if ((rel < 0) | (rel > T)).any():
        raise ValueError(f"qrels relevance outside 0..{T}: {sorted(set(rel[(rel < 0) | (rel > T)]))}")
    q = qrels[["query_id", "doc_id"]].copy()
    q["level"] = rel
    top = run.loc[run["rank"] <= k, ["run_id", "query_id", "doc_id"]]
    top = top[top["query_id"].isin(q["query_id"].unique())]
    merged = top.merge(q, on=["query_id", "doc_id"], how="left")
    lv = merged["level"].to_numpy(dtype=float)
    judged = ~np.isnan(lv)
    lvi = np.where(judged, lv, 0).astype(np.int64)
    merged["binary"] = (judged & (lvi >= threshold)).astype(float)
    merged["prm"] = np.where(judged, parr[lvi], 0.0)
    return (merged.groupby(["run_id", "query_id"], sort=True, observed=True)[["binary", "prm"]]
            .sum().reset_index())


def table5(runs: pd.DataFrame, qrels: pd.DataFrame, k: int, p_gain: Mapping[int, pd.Series],
           thresholds: Sequence[int], T: int, *, tau_level: float = 0.95) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Demeester et al. (2016), Table 5: binary (Eq. 1) and PRM-expected (Eq. 2) relevant results in
    the top ``k`` per run (:func:`relevant_in_top_k`; mean and standard error over topics), per threshold.

    Returns ``(table, summary)``: ``table`` indexed by ``run_id`` with ``{prm,binary}_{mean,sem}_theta<th>``;
    ``summary`` one row per threshold: ``theta``, Kendall's ``tau, low, high`` between the two orderings,
    the median relative standard error (SE / mean) of each count, and the shares of runs whose PRM
    count has the smaller relative SE (``share_prm_more_precise``) and is the smaller count
    (``share_prm_smaller``).
    """
    parts, rows = [], []
    for th in thresholds:
        counts = relevant_in_top_k(runs, qrels, k, threshold=th, p=pd.Series(p_gain[th]).fillna(0.0), T=T)
        agg = counts.groupby("run_id")[["prm", "binary"]].agg(["mean", "sem"])
        rse = {w: agg[(w, "sem")] / agg[(w, "mean")] for w in ("prm", "binary")}
        t = stats.tau_or_undefined(agg[("prm", "mean")], agg[("binary", "mean")], level=tau_level)
        rows.append({"theta": int(th), "tau": t.tau, "low": t.low, "high": t.high,
                     "median_rse_prm": float(rse["prm"].median()), "median_rse_binary": float(rse["binary"].median()),
                     "share_prm_more_precise": float(np.mean(rse["prm"] < rse["binary"])),
                     "share_prm_smaller": float(np.mean(agg[("prm", "mean")] < agg[("binary", "mean")])), "runs": len(agg)})
        agg.columns = [f"{a}_{b}_theta{th}" for a, b in agg.columns]
        parts.append(agg)
    return pd.concat(parts, axis=1), pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------
# building double judgments from qrels / multi-assessor ratings
# ----------------------------------------------------------------------------------------------
def _shuffled_ranks(ratings: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    miss = [c for c in ("query_id", "doc_id", "rating") if c not in ratings.columns]
    if miss:
        raise ValueError(f"ratings is missing column(s) {miss} (expected query_id, doc_id, "
                         f"assessor, rating)")
    rng = _check_rng(rng)
    shuffled = ratings.iloc[rng.permutation(len(ratings))]
    shuffled = shuffled.sort_values(["query_id", "doc_id"], kind="stable")
    return shuffled.assign(_k=shuffled.groupby(["query_id", "doc_id"], sort=False).cumcount())


def one_rating_per_item(ratings: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Pick one rating per item uniformly at random: ``query_id, doc_id, relevance`` (+ ``assessor``).

    Turns multi-assessor ratings (tidy ``query_id, doc_id, assessor, rating``) into one qrels, so
    that every item counts once in Eq. (4)/(5) however many assessors rated it.
    """
    r = _shuffled_ranks(ratings, rng)
    first = r[r["_k"] == 0].drop(columns="_k").rename(columns={"rating": "relevance"}).reset_index(drop=True)
    first.attrs = {k: ratings.attrs[k] for k in ("what", "files") if k in ratings.attrs}  # messages name the input
    return first


def pairs_within_items(ratings: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Double judgments from two different assessors of the same item, drawn at random.

    For every item with at least two ratings, two of them are drawn without replacement and
    assigned to ``u1``/``u2`` in random order; items with a single rating are left out.
    Returns ``query_id, doc_id, u1, u2``.
    """
    r = _shuffled_ranks(ratings, rng)
    keys = ["query_id", "doc_id"]
    a = r.loc[r["_k"] == 0, keys + ["rating"]].rename(columns={"rating": "u1"})
    b = r.loc[r["_k"] == 1, keys + ["rating"]].rename(columns={"rating": "u2"})
    return a.merge(b, on=keys, how="inner").reset_index(drop=True)


def gain_qrels(qrels: pd.DataFrame, gains: Mapping[int, float]) -> pd.DataFrame:
    """Qrels with a real-valued ``gain`` column from a ``{level: gain}`` mapping.

    :func:`helpers.measures.evaluate` accepts such qrels as they are. This is the way to use PRM
    gains with it: a level mapping there must give L0 gain 0 and every other level a positive
    gain, whereas the PRM gives level 0 the (possibly non-zero) gain ``p_{R|0}`` (paper,
    Sect. 3.4.5) and binary gains give levels below ``theta`` gain 0. A document with gain 0
    is non-relevant; unjudged documents (absent from ``qrels``) keep gain 0.

    Raises
    ------
    ValueError
        If ``relevance`` is missing, holds a level the mapping lacks, or a gain is negative or NaN.
    """
    if "relevance" not in qrels.columns:
        raise ValueError(f"qrels needs a 'relevance' column of levels, has {list(qrels.columns)}")
    out = qrels.drop(columns="relevance").copy()
    out["gain"] = _gain_vector(_as_levels(qrels["relevance"], "relevance"), gains)
    return out


def _gain_vector(lv: np.ndarray, gains: Mapping[int, float]) -> np.ndarray:
    """The gain of every level of ``lv`` under a level -> gain mapping (checked: finite, >= 0, complete)."""
    g = {int(k): float(v) for k, v in gains.items()}
    bad = [k for k, v in g.items() if not np.isfinite(v) or v < 0]
    if bad:
        raise ValueError(f"gains must be finite and >= 0; level(s) {bad} are not")
    missing = sorted(set(lv.tolist()) - set(g))
    if missing:
        raise ValueError(f"qrels has level(s) {missing} that the gain mapping {sorted(g)} lacks")
    return np.array([g.get(i, 0.0) for i in range(int(lv.max(initial=0)) + 1)])[lv]


def mean_scores(qrels: pd.DataFrame, run: pd.DataFrame, gains: Mapping[int, float],
                measure: str = "MSnDCG@10", **evaluate_kw) -> pd.Series:
    """Mean score per run over the qrels' topics, with level gains applied by :func:`gain_qrels`.

    Thin wrapper: :func:`helpers.measures.evaluate` on ``gain_qrels(qrels, gains)`` (topics without
    a positive gain score 0, ``no_relevant="zero"``, unless overridden), pivoted with
    :func:`helpers.measures.to_matrix` and averaged over topics. Returns a Series indexed by
    ``run_id``, sorted by run id.
    """
    evaluate_kw.setdefault("no_relevant", "zero")
    res = measures.evaluate(gain_qrels(qrels, gains), run, [measure], **evaluate_kw)
    return measures.to_matrix(res, measure).mean(axis=0).sort_index()


def scheme_matrices(qrels: pd.DataFrame, run: pd.DataFrame, schemes: Sequence[Mapping[int, float]],
                    measure: str = "MSnDCG@10") -> list[pd.DataFrame]:
    """Topics x runs scores of ``measure`` under several level -> gain mappings, the run matched once.

    Every topic of ``qrels`` is a row (a topic without a positive gain scores 0, as in
    :func:`mean_scores`); rows and columns in the order of :func:`helpers.measures.to_matrix`.
    The gains are gathered per judged item and scored by :class:`helpers.unanimity.GainScorer`;
    mappings are checked as :func:`gain_qrels` checks them.
    """
    from .unanimity import GainScorer

    if "relevance" not in qrels.columns:
        raise ValueError(f"qrels needs a 'relevance' column of levels, has {list(qrels.columns)}")
    lv = _as_levels(qrels["relevance"], "relevance")
    vectors = [_gain_vector(lv, gains) for gains in schemes]
    scorer = GainScorer(qrels[["query_id", "doc_id"]], run, [measure], no_relevant="zero")
    return [m[measure] for m in scorer.matrices(np.stack(vectors, axis=1))]


def scheme_means(qrels: pd.DataFrame, run: pd.DataFrame, schemes: Sequence[Mapping[int, float]],
                 measure: str = "MSnDCG@10") -> list[pd.Series]:
    """:func:`mean_scores` of several level -> gain mappings (:func:`scheme_matrices`), equal to
    ``mean_scores(qrels, run, gains, measure)`` for each mapping (same bits; tested)."""
    # the mean over topics of C-ordered rows, as pandas takes it for evaluate + to_matrix
    return [pd.Series(np.ascontiguousarray(m.to_numpy()).mean(axis=0), index=m.columns).sort_index()
            for m in scheme_matrices(qrels, run, schemes, measure)]


def _same_items(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame):
    """Both assessors' labels of the items both judged, and the runs on those items' topics (Table 6)."""
    common = pairs_from_qrels(qrels_u1, qrels_u2)[["query_id", "doc_id"]]
    qa = common.merge(qrels_u1, on=["query_id", "doc_id"])[["query_id", "doc_id", "relevance"]]
    qb = common.merge(qrels_u2, on=["query_id", "doc_id"])[["query_id", "doc_id", "relevance"]]
    return qa, qb, runs[runs["query_id"].isin(common["query_id"].unique())]


def _tau_b_rows(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of each row of X with the same row of Y (ties count 0; NaN for a constant row)."""
    i, j = np.triu_indices(X.shape[1], k=1)
    sx, sy = np.sign(X[:, i] - X[:, j]), np.sign(Y[:, i] - Y[:, j])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sx * sy).sum(axis=1) / np.sqrt((sx * sx).sum(axis=1) * (sy * sy).sum(axis=1))


def robustness_difference(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame, p_gain,
                          threshold: int, T: int, *, k: int = 10, B: int = 300,
                          rng: np.random.Generator) -> np.ndarray:
    """Paired topic bootstrap of Table 6's PRM-vs-binary difference at one threshold.

    Table 6 (Demeester et al. 2016) sets tau(U1 ordering, U2 ordering) under PRM gains against the
    same tau under binary gains; both come from the *same* topics and runs, so their difference is
    tested paired: each of ``B`` resamples draws the topics with replacement (multinomial weights,
    as :func:`bootstrap_topics`) and computes both taus on that resample. Returns the ``B`` values of
    ``tau_PRM - tau_binary`` (NaN where a resample leaves an ordering constant); their percentile
    interval, and the share on either side of 0, are the test (two-sided bootstrap p-value
    ``min(1, 2 min(P(d <= 0), P(d >= 0)))``). Runs are scored with MSnDCG@k on the items both
    assessors judged, as in :func:`robustness_tables`.
    """
    B, rng = _check_positive_int(B, "B"), _check_rng(rng)
    qa, qb, runs_common = _same_items(qrels_u1, qrels_u2, runs)
    schemes = [binary_gains(threshold, T), prm_gains(pd.Series(p_gain).fillna(0.0))]
    ma = scheme_matrices(qa, runs_common, schemes, f"MSnDCG@{k}")
    mb = [m.reindex(index=ma[0].index, columns=ma[0].columns)
          for m in scheme_matrices(qb, runs_common, schemes, f"MSnDCG@{k}")]
    n = len(ma[0])
    w = rng.multinomial(n, np.full(n, 1.0 / n), size=B).astype(float)
    tau = [_tau_b_rows(w @ a.to_numpy(), w @ b.to_numpy()) for a, b in zip(ma, mb)]
    return tau[1] - tau[0]


def bootstrap_p(diffs) -> float:
    """Two-sided bootstrap p-value of "the difference is 0" over the finite ``diffs`` (NaN if none):
    ``min(1, 2 (min(#d <= 0, #d >= 0) + 1) / (n + 1))``; the +1 (Phipson & Smyth, as for the randomised
    tests) keeps it at or above its resolution 2/(n + 1), never 0."""
    d = np.asarray(diffs, dtype=float)
    d = d[np.isfinite(d)]
    if not len(d):
        return float("nan")
    return float(min(1.0, 2 * (min(int((d <= 0).sum()), int((d >= 0).sum())) + 1) / (len(d) + 1)))


def robustness_tables(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame,
                      p_gain: Mapping[int, pd.Series], thresholds: Sequence[int], T: int, *, k: int = 10,
                      k_table7: int = 20, tau_level: float = 0.95, names: Sequence[str] | None = None,
                      table7: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Demeester et al. (2016), Tables 6 and 7: robustness to the assessor, and PRM vs other gains.

    Table 6: each run is scored with MSnDCG@k from U1's and from U2's judgments of the *same* items
    (those both judged, on the topics U2 judged; a document only one side judged counts as
    unjudged under both); Kendall's tau between the two run orderings, for binary and PRM gains at
    every threshold of ``thresholds`` and for linear gains ``g(i) = i``. The PRM gains of a
    threshold (``p_gain[theta]``, level -> p_{R|i}) are used for *both* assessors' labels.

    Table 7: runs ranked by mean MSnDCG@k_table7 on U1's judgments under PRM gains against binary,
    linear and exponential (2^i - 1) gains, per threshold.

    Parameters
    ----------
    qrels_u1, qrels_u2 : DataFrame
        ``query_id, doc_id, relevance`` of the two assessors.
    runs : DataFrame
        ``run_id, query_id, doc_id, rank``.
    p_gain : mapping threshold -> Series (level -> p)
        PRM gains per threshold (NaN levels count 0).
    thresholds : sequence of int
        Thresholds in ``1..T``, in display order.
    names : sequence of str, optional
        Level names for the labels (default ``"0".."T"``).
    table7 : bool
        Also compute Table 7 (default True).

    Returns
    -------
    (table6, table7) : DataFrames
        ``gains, theta, tau, low, high, runs`` and ``theta, comparison, tau, low, high`` (empty when
        ``table7`` is False).
    """
    names = [str(i) for i in range(T + 1)] if names is None else list(names)
    if len(names) != T + 1:
        raise ValueError(f"names must hold T + 1 = {T + 1} level names, got {names}")
    for th in thresholds:
        _check_threshold(th, T)
        if th not in p_gain:
            raise ValueError(f"p_gain has no estimates for threshold {th}")
    qa, qb, runs_common = _same_items(qrels_u1, qrels_u2, runs)
    linear = {i: float(i) for i in range(T + 1)}
    exponential = {i: float(2 ** i - 1) for i in range(T + 1)}
    gains_of = {th: pd.Series(p_gain[th]).fillna(0.0) for th in thresholds}
    schemes = []
    for th in thresholds:
        schemes.append((f"binary, theta={names[th]}", th, binary_gains(th, T)))
        schemes.append((f"PRM, theta={names[th]}", th, prm_gains(gains_of[th])))
    schemes.append(("linear", np.nan, linear))
    measure = f"MSnDCG@{k}"
    means_a = scheme_means(qa, runs_common, [g for _, _, g in schemes], measure)
    means_b = scheme_means(qb, runs_common, [g for _, _, g in schemes], measure)
    rows6 = []
    for (label, th, _), a, b in zip(schemes, means_a, means_b):
        t = stats.tau_or_undefined(a, b.reindex(a.index), level=tau_level)
        rows6.append({"gains": label, "theta": th, "tau": t.tau, "low": t.low, "high": t.high, "runs": len(a)})
    rows7 = []
    if table7:
        measure7 = f"MSnDCG@{k_table7}"
        per = [(th, [prm_gains(gains_of[th]), binary_gains(th, T), linear, exponential]) for th in thresholds]
        means7 = scheme_means(qrels_u1, runs, [g for _, gs in per for g in gs], measure7)
        for j, (th, _) in enumerate(per):
            prm_mean = means7[4 * j]
            for other, m in zip(("binary", "linear", "exponential"), means7[4 * j + 1:4 * j + 4]):
                t = stats.tau_or_undefined(prm_mean, m.reindex(prm_mean.index), level=tau_level)
                rows7.append({"theta": names[th], "comparison": f"PRM vs {other}", "tau": t.tau,
                              "low": t.low, "high": t.high})
    return (pd.DataFrame(rows6, columns=["gains", "theta", "tau", "low", "high", "runs"]),
            pd.DataFrame(rows7, columns=["theta", "comparison", "tau", "low", "high"]))
