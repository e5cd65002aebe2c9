"""Table 6 of Demeester et al. (2016) with PRM gains estimated out of sample (cross-fitted).

In-sample Table 6 (:func:`helpers.prm.robustness_tables`) estimates ``p_{R|i}`` from the double
judgments and then scores the agreement of the U1- and U2-based run orderings on those same
judgments; its paired topic bootstrap (:func:`helpers.prm.robustness_difference`) holds the gains
fixed. Both make the PRM look better than it would on new topics. Here the gains are
**cross-fitted**:

* *split*: the topics with double judgments are cut at random into two halves; each half's
  topics are scored with the gains estimated (Eq. 4 or 5) on the *other* half only; Kendall's
  tau between the U1 and U2 orderings (mean MSnDCG@k over all topics, as in Table 6) is then
  computed once over every topic. ``splits`` random splits are averaged.
* *test*: each of ``B`` topic-bootstrap resamples (multinomial weights, as
  :func:`helpers.prm.bootstrap_topics`) draws its own split and re-estimates both halves' gains
  from the resampled topics, so the spread of ``tau_PRM - tau_binary`` over the resamples holds
  topic sampling, the gains' estimation error and the split together. One split per resample
  (the point estimate averages ``splits``) makes the test conservative.

A level that one half never saw gets gain 0 there (as in sample: NaN estimates count 0). Binary
gains need no estimate and are the same as in sample.

The scores are exact MSnDCG@k of the measure engine, computed once per level: a level -> gain
mapping that differs by topic scores a (topic, run) as ``sum_l g_l C_l / IDCG(g)``, with ``C_l``
the discounted count of level-``l`` items in the run's top ``k`` (the engine's score of the
indicator gains of level ``l`` times its ideal, :func:`level_counts`) and ``IDCG`` the ideal list
of those gains over the topic's judged items (:func:`ideal_dcg`). Tested equal to
:func:`helpers.prm.scheme_matrices`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .core import as_levels, binary_gains, check_method, check_positive_int, check_rng, check_threshold, contributions
from .robustness import same_items, tau_b_rows

__all__ = ["LevelCounts", "level_counts", "discounts", "ideal_dcg", "msndcg", "crossfit_robustness",
           "crossfit_summary"]


def discounts(k: int) -> np.ndarray:
    """``D[m] = sum_{r=1..m} 1/log2(r + 1)`` for ``m = 0..k`` (MSnDCG's discount, cumulated)."""
    return np.r_[0.0, np.cumsum(1.0 / np.log2(np.arange(2, int(k) + 2)))]


@dataclass(frozen=True)
class LevelCounts:
    """The runs' top ``k`` of one assessor's labels, level by level.

    ``C``: topics x runs x levels discounted counts; ``n``: topics x levels judged items;
    ``topics``, ``runs``: the engine's order; ``k``: the cutoff.
    """

    C: np.ndarray
    n: np.ndarray
    topics: pd.Index
    runs: pd.Index
    k: int


def level_counts(items: pd.DataFrame, labels: Sequence[np.ndarray], runs: pd.DataFrame, T: int,
                 k: int) -> list[LevelCounts]:
    """:class:`LevelCounts` of each labelling of the same judged ``items`` (``query_id, doc_id``).

    The runs are matched to the items once (:class:`helpers.unanimity.GainScorer`, the engine's
    conventions: order by the rank column, unjudged items gain 0); each level's indicator gains are
    scored with MSnDCG@k (topics without such an item score 0) and multiplied back by their
    ideal ``D[min(n_l, k)]``, which gives the discounted count.
    """
    from ..unanimity import GainScorer

    k = check_positive_int(k, "k")
    L = int(T) + 1
    scorer = GainScorer(items[["query_id", "doc_id"]], runs, [f"MSnDCG@{k}"], no_relevant="zero")
    topic = np.asarray(scorer.item_topic)
    D = discounts(k)
    levels = [as_levels(lv, "relevance") for lv in labels]
    ind = np.concatenate([(lv[:, None] == np.arange(L)).astype(float) for lv in levels], axis=1)
    mats = scorer.matrices(ind)
    out = []
    for j, lv in enumerate(levels):
        n = np.zeros((len(scorer.topics), L))
        ok = topic >= 0
        np.add.at(n, (topic[ok], lv[ok]), 1.0)
        C = np.stack([mats[j * L + lev][f"MSnDCG@{k}"].to_numpy() for lev in range(L)], axis=-1)
        C = C * D[np.minimum(n, k).astype(int)][:, None, :]
        out.append(LevelCounts(C, n, scorer.topics, scorer.runs, k))
    return out


def ideal_dcg(G: np.ndarray, n: np.ndarray, k: int) -> np.ndarray:
    """The ideal DCG@k of level gains ``G`` (``... x topics x levels``) over ``n`` items per level
    (topics x levels): the levels in decreasing gain, each a block of its items, cut at ``k``."""
    D = discounts(k)
    order = np.argsort(-G, axis=-1, kind="stable")
    g = np.take_along_axis(G, order, axis=-1)
    m = np.take_along_axis(np.broadcast_to(n, G.shape), order, axis=-1)
    end = np.cumsum(m, axis=-1)
    block = D[np.minimum(end, k).astype(int)] - D[np.minimum(end - m, k).astype(int)]
    return (np.where(g > 0, g, 0.0) * block).sum(axis=-1)


def msndcg(G: np.ndarray, lc: LevelCounts) -> np.ndarray:
    """MSnDCG@k of every topic and run under level gains ``G`` (``V x topics x levels``, a gain per
    topic and level): ``V x topics x runs``; 0 where the ideal is 0 (no item with a positive gain)."""
    dcg = np.einsum("vtl,trl->vtr", G, lc.C)
    ideal = ideal_dcg(G, lc.n, lc.k)[:, :, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)


def _snap(M: np.ndarray, digits: int = 12) -> np.ndarray:
    """Each row rounded to ``digits`` significant decimals of its largest value (equal means tie,
    as in :func:`helpers.stats.kendall_tau_ci`)."""
    top = np.abs(M).max(axis=1, keepdims=True)
    scale = 10.0 ** (digits - np.ceil(np.log10(np.where(top > 0, top, 1.0))))
    return np.round(M * scale) / scale


def _fold_gains(num: np.ndarray, den: np.ndarray, W: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Per topic, the gains estimated on the other half: ``V x topics x levels``.

    ``num``, ``den``: topics x levels counts of Eq. 4/5; ``W``: V x topics weights; ``half``:
    V x topics booleans (True: the second half)."""
    gains = []
    for side in (False, True):
        w = W * (half == side)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = (w @ num) / (w @ den)
        gains.append(np.nan_to_num(p, nan=0.0))           # V x levels
    # topics of the first half (half False) get the second half's gains, and the reverse
    return np.where(half[:, :, None], gains[0][:, None, :], gains[1][:, None, :])


def _halves(rng: np.random.Generator, V: int, n: int) -> np.ndarray:
    """V random splits of n topics into halves (sizes floor and ceil of n/2): V x n booleans."""
    return rng.permuted(np.tile(np.arange(n) >= n // 2, (V, 1)), axis=1)


def _taus(G_prm: np.ndarray, W: np.ndarray, sides: list[LevelCounts], binary: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """tau(U1 ordering, U2 ordering) under per-topic PRM gains and under binary gains, per row of W."""
    out = []
    for G in (G_prm, np.broadcast_to(binary, G_prm.shape)):
        means = [np.einsum("vt,vtr->vr", W, msndcg(G, lc)) / W.sum(axis=1, keepdims=True) for lc in sides]
        out.append(tau_b_rows(_snap(means[0]), _snap(means[1])))
    return out[0], out[1]


def crossfit_robustness(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame,
                        thresholds: Sequence[int], T: int, *, method: str = "eq4", k: int = 10, splits: int = 20,
                        B: int = 0, rng: np.random.Generator, in_sample: bool = False) -> pd.DataFrame:
    """Table 6's tau under cross-fitted PRM gains, against binary gains, per threshold.

    Parameters
    ----------
    qrels_u1, qrels_u2 : DataFrame
        ``query_id, doc_id, relevance`` of the two assessors; only the items both judged count
        (as in :func:`helpers.prm.robustness_tables`).
    runs : DataFrame
        ``run_id, query_id, doc_id, rank``.
    thresholds : sequence of int
        Thresholds theta in ``1..T``.
    method : {"eq4", "eq5"}
        The estimator of the gains (Eq. 4 or 5).
    k : int
        MSnDCG@k.
    splits : int
        Random half-splits averaged for the point estimate.
    B : int
        Topic-bootstrap resamples for the test (0: none).
    rng : numpy.random.Generator
        Used for the splits, then for the resamples (threshold by threshold).
    in_sample : bool
        Also one row of kind ``"in sample"`` per threshold: the gains estimated on every topic, as
        :func:`helpers.prm.robustness_tables` uses them (the same machinery; draws nothing).

    Returns
    -------
    DataFrame
        ``theta, kind, draw, tau_prm, tau_binary, diff``: ``kind`` ``"split"`` (``splits`` rows
        per threshold, the data as they are), ``"boot"`` (``B`` rows) or ``"in sample"``; ``diff`` =
        ``tau_prm - tau_binary`` (NaN where an ordering ties every run).
    """
    check_method(method)
    splits, rng = check_positive_int(splits, "splits"), check_rng(rng)
    if B:
        B = check_positive_int(B, "B")
    qa, qb, runs_common = same_items(qrels_u1, qrels_u2, runs)  # refuses assessors without a shared item
    sides = level_counts(qa, [qa["relevance"], qb["relevance"]], runs_common, T, k)
    topics = sides[0].topics
    n_t = len(topics)
    if n_t < 2:
        raise ValueError(f"cross-fitting needs at least 2 topics with double judgments and runs, got {n_t}")
    code = pd.Index(topics.astype(str)).get_indexer(qa["query_id"].astype(str))
    keep = code >= 0
    u1, u2 = as_levels(qa["relevance"], "u1")[keep], as_levels(qb["relevance"], "u2")[keep]
    rows = []
    for th in thresholds:
        th = check_threshold(th, T)
        num_i, den_i = contributions(u1, u2, th, T, method)
        num, den = np.zeros((n_t, T + 1)), np.zeros((n_t, T + 1))
        np.add.at(num, code[keep], num_i)
        np.add.at(den, code[keep], den_i)
        binary = np.array([binary_gains(th, T)[i] for i in range(T + 1)])
        W = np.ones((splits, n_t))
        if B:
            W = np.r_[W, rng.multinomial(n_t, np.full(n_t, 1.0 / n_t), size=B).astype(float)]
        half = _halves(rng, len(W), n_t)
        tp, tb = _taus(_fold_gains(num, den, W, half), W, sides, binary)
        kind = ["split"] * splits + ["boot"] * (len(W) - splits)
        draw = np.r_[np.arange(splits), np.arange(len(W) - splits)]
        rows.append(pd.DataFrame({"theta": th, "kind": kind, "draw": draw, "tau_prm": tp, "tau_binary": tb,
                                  "diff": tp - tb}))
        if in_sample:
            with np.errstate(invalid="ignore", divide="ignore"):
                p_all = np.nan_to_num(num.sum(axis=0) / den.sum(axis=0), nan=0.0)
            ones = np.ones((1, n_t))
            tp, tb = _taus(np.broadcast_to(p_all, (1, n_t, T + 1)), ones, sides, binary)
            rows.append(pd.DataFrame({"theta": th, "kind": "in sample", "draw": [0], "tau_prm": tp, "tau_binary": tb,
                                      "diff": tp - tb}))
    return pd.concat(rows, ignore_index=True)


def crossfit_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per threshold: the cross-fitted ``tau_prm`` and the ``diff`` averaged over the splits
    (``splits``), ``tau_binary``, the range of ``diff`` over the splits (``split_low``,
    ``split_high``) and the number of bootstrap resamples (``boot``)."""
    from .robustness import bootstrap_p

    out = []
    for th, g in rows.groupby("theta", sort=False):
        s, b = g[g["kind"] == "split"], g[g["kind"] == "boot"]
        out.append({"theta": int(th), "tau_prm": float(s["tau_prm"].mean()), "tau_binary": float(s["tau_binary"].mean()),
                    "diff": float(s["diff"].mean()), "split_low": float(s["diff"].min()),
                    "split_high": float(s["diff"].max()), "boot": len(b),
                    "p": bootstrap_p(b["diff"]) if len(b) else float("nan")})
    return pd.DataFrame(out)
