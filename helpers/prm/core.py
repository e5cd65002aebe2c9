"""The Predicted Relevance Model's estimators and counts (Demeester et al. 2016, Eq. 1-5, Tables 1-5).

Estimation of ``p_{R|i}`` (Eq. 4 and 5) with its binomial sigma, the topic bootstrap (Fig. 2), the
annotation rounds (Fig. 3), the expected and binary numbers of relevant results (Eq. 1-2, Table 5),
and double judgments built from qrels or multi-assessor ratings. The conventions are those of
:mod:`helpers.prm`. The checks named without an underscore (:func:`check_rng`, ...) are shared
with the sibling modules :mod:`helpers.prm.robustness` and :mod:`helpers.prm.crossfit`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .. import stats
from ..io.readers import pairs_from_qrels

__all__ = ["METHODS", "UNJUDGED", "estimate", "expected_relevant", "binary_relevant", "prm_gains", "binary_gains",
           "udm_weights", "bootstrap_topics", "annotation_rounds", "relevant_in_top_k", "table5", "pairs_from_qrels",
           "one_rating_per_item", "pairs_within_items", "as_levels", "check_threshold", "check_method", "check_rng",
           "check_positive_int", "contributions", "estimator_gap", "reversed_estimate", "marginal_tests"]

METHODS = ("eq4", "eq5")
Method = Literal["eq4", "eq5"]

#: Sentinel for "no assessment" in :func:`expected_relevant` / :func:`binary_relevant`.
UNJUDGED = -1


# ----------------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------------
def as_levels(values, name: str) -> np.ndarray:
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
    u1 = as_levels(pairs["u1"], "u1")
    u2 = as_levels(pairs["u2"], "u2")
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
        check_threshold(threshold, T)
    return u1, u2, T


def check_threshold(threshold, T: int) -> int:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise ValueError(f"threshold must be an integer level in 1..{T}, got {threshold!r}")
    if not 1 <= threshold <= T:
        raise ValueError(f"threshold theta={threshold} is outside 1..{T}: users must need at "
                         f"least level 1 and at most the top level {T}")
    return int(threshold)


def check_method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return method


# ----------------------------------------------------------------------------------------------
# counting core (vectorised)
# ----------------------------------------------------------------------------------------------
def contributions(u1: np.ndarray, u2: np.ndarray, threshold: int, T: int,
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
    check_method(method)
    u1, u2, T = _validate_pairs(pairs, T, threshold)
    num, den = contributions(u1, u2, threshold, T, method)
    n_num, n_den = num.sum(axis=0), den.sum(axis=0)
    p, sigma = _ratio(n_num, n_den)
    out = pd.DataFrame({"level": np.arange(T + 1), "numerator": n_num, "denominator": n_den,
                        "p": p, "sigma": sigma})
    out.attrs.update(threshold=int(threshold), method=method, T=T)
    return out


def reversed_estimate(pairs: pd.DataFrame, threshold: int, *, T: int | None = None) -> pd.DataFrame:
    """Eq. (4) the other way round: U1's verdict given U2's level, ``N_{U1=R, U2=i} / N_{U2=i}``
    (:func:`estimate` with the two columns swapped).

    Beside Eq. (4) it shows whether the disagreement depends on who judged first: the two agree in
    expectation only when U2 re-judged an unbiased sample of U1's judgments *and* both assessors
    label with the same marginals (paper, Sect. 5.2.1, after Carterette & Soboroff 2010)."""
    return estimate(pairs.rename(columns={"u1": "u2", "u2": "u1"}), threshold, "eq4", T=T)


def estimator_gap(pairs: pd.DataFrame, threshold: int, *, T: int | None = None) -> pd.DataFrame:
    """Eq. (4) against Eq. (5) per level (the paper's Table 2 sets them side by side).

    Returns one row per level ``0..T``: ``level``, ``eq4``, ``eq5``, ``gap`` (``|eq4 - eq5|``) and
    ``z`` (the gap in Eq. 4's binomial sigmas; NaN where that sigma is 0 or undefined). Eq. (4)
    and (5) estimate the same ``p_{R|i}`` only when U2 re-judged an unbiased sample of U1's
    judgments and the two assessors have the same marginals (:func:`reversed_estimate`)."""
    e4, e5 = estimate(pairs, threshold, "eq4", T=T), estimate(pairs, threshold, "eq5", T=T)
    gap = (e4["p"] - e5["p"]).abs()
    sigma = e4["sigma"].where(e4["sigma"] > 0)
    return pd.DataFrame({"level": e4["level"], "eq4": e4["p"], "eq5": e5["p"], "gap": gap, "z": gap / sigma})


def marginal_tests(pairs: pd.DataFrame, *, T: int | None = None) -> dict:
    """Whether U1 and U2 label alike: the condition under which Eq. (4) and Eq. (5) agree.

    Eq. (5) pools Eq. (4) with its reverse (U1's verdict given U2's level). The two agree in
    expectation when the joint table ``N[U1 = i, U2 = j]`` is symmetric; that needs both assessors
    to label with the same marginals (paper, Sect. 5.2.1, after Carterette & Soboroff 2010).
    Two chi-square tests on the ``(T+1) x (T+1)`` table of the double judgments:

    * ``stuart_maxwell``: marginal homogeneity (Stuart 1955, Maxwell 1970),
      ``d' S^-1 d`` with ``d`` the row minus column totals and ``S`` their covariance, on the
      levels either assessor used (pseudo-inverse, ``df`` its rank);
    * ``bowker``: symmetry (Bowker 1948), ``sum_{i<j} (n_ij - n_ji)^2 / (n_ij + n_ji)`` over the
      cells with ``n_ij + n_ji > 0`` (statsmodels' ``SquareTable.symmetry`` counts every pair in
      ``df``, empty ones too; the statistic is the same).

    Both treat the double judgments as independent (no clustering by topic). Returns, for each,
    ``{"stat", "df", "p"}`` (``p`` NaN with ``df`` 0), with the shares of each level for U1 and U2
    (``u1_share``, ``u2_share``). Tested against statsmodels' ``SquareTable``."""
    from scipy import stats as sps

    u1, u2, T = _validate_pairs(pairs, T, None)
    n = np.zeros((T + 1, T + 1))
    np.add.at(n, (u1, u2), 1.0)
    rows, cols = n.sum(axis=1), n.sum(axis=0)
    used = (rows + cols) > 0
    m = n[np.ix_(used, used)]
    d = m.sum(axis=1) - m.sum(axis=0)
    S = -(m + m.T)
    np.fill_diagonal(S, m.sum(axis=1) + m.sum(axis=0) - 2 * np.diag(m))
    df_sm = int(np.linalg.matrix_rank(S)) if len(m) else 0
    stat_sm = float(d @ np.linalg.pinv(S) @ d) if df_sm else 0.0
    iu = np.triu_indices(T + 1, 1)
    off, tot = (n - n.T)[iu], (n + n.T)[iu]
    keep = tot > 0
    stat_b, df_b = float((off[keep] ** 2 / tot[keep]).sum()), int(keep.sum())
    p = lambda stat, df: float(sps.chi2.sf(stat, df)) if df else float("nan")  # noqa: E731
    total = max(n.sum(), 1.0)
    return {"stuart_maxwell": {"stat": stat_sm, "df": df_sm, "p": p(stat_sm, df_sm)},
            "bowker": {"stat": stat_b, "df": df_b, "p": p(stat_b, df_b)},
            "u1_share": rows / total, "u2_share": cols / total}


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
    check_threshold(threshold, int(T))
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
    check_threshold(threshold, int(T))
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
def check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    return rng


def check_positive_int(value, name: str) -> int:
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
    check_method(method)
    B = check_positive_int(B, "B")
    rng = check_rng(rng)
    u1, u2, T = _validate_pairs(pairs, T, threshold, need_query=True)
    if len(u1) == 0:
        raise ValueError("pairs is empty: nothing to bootstrap")
    codes, topics = pd.factorize(pairs["query_id"], sort=True)
    if (codes < 0).any():  # factorize codes a missing id as -1, which would index the last topic
        i = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"pairs 'query_id' is missing at row position {i}: every double judgment "
                         "needs its topic for a topic bootstrap")
    num, den = contributions(u1, u2, threshold, T, method)
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
    check_method(method)
    rounds = check_positive_int(rounds, "rounds")
    rng = check_rng(rng)
    sizes_arr = np.unique(np.asarray([check_positive_int(s, "each size") for s in sizes]
                                     if len(sizes) else [], dtype=np.int64))
    if sizes_arr.size == 0:
        raise ValueError("sizes must contain at least one positive integer")
    u1, u2, T = _validate_pairs(pairs, T, threshold)
    if len(u1) == 0:
        raise ValueError("pairs is empty: nothing to sample")
    num, den = contributions(u1, u2, threshold, T, method)
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
    k = check_positive_int(k, "k")
    check_threshold(threshold, T)
    parr = _p_array(p)
    if len(parr) != T + 1:
        raise ValueError(f"p has {len(parr)} levels but T = {T} needs {T + 1}")
    for name, df, cols in (("run", run, ["run_id", "query_id", "doc_id", "rank"]),
                           ("qrels", qrels, ["query_id", "doc_id", "relevance"])):
        miss = [c for c in cols if c not in df.columns]
        if miss:
            raise ValueError(f"{name} is missing column(s) {miss}")
    rel = as_levels(qrels["relevance"], "relevance")
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
    rng = check_rng(rng)
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
