"""TREC ndeval's family on binary intent relevance: novelty gains, the greedy and the exact ideal
lists, and alpha-(n)DCG, (n)ERR-IA, (n)NRBP, P-IA and strec (definitions in the package docstring).

Sums over ranks and intents are added from left to right (:func:`helpers.measures.kernels.row_sums`),
not by BLAS or numpy's pairwise sum, whose grouping depends on the arrays' widths: a topic's values
do not depend on which topics are evaluated with it (or on the machine's BLAS)."""

from __future__ import annotations

import numpy as np

from ..kernels import row_sums

__all__ = ["novelty_gain", "greedy_ideal_alpha", "exact_ideal_alpha", "ndeval_measure"]


def novelty_gain(rel: np.ndarray, alpha: float) -> np.ndarray:
    """``sum_i rel_i(r) (1-alpha)^{c_i(r)}`` for binary ``rel`` (..., D, M)."""
    prior = np.cumsum(rel, axis=-2, dtype=np.int32)
    prior -= rel
    pw = (1.0 - alpha) ** np.arange(rel.shape[-2] + 1)
    if alpha == 1.0:
        pw = (np.arange(rel.shape[-2] + 1) == 0).astype(float)
    return row_sums(np.where(rel, pw[prior], 0.0))


def greedy_ideal_alpha(rel: np.ndarray, key: np.ndarray, alpha: float, depth: int) -> np.ndarray:
    """ndeval's greedy ideal list: novelty gains at ranks 1..depth, for all topics at once.

    Parameters
    ----------
    rel : (T, J, M) bool
        Binary relevance of each topic's judged documents to each intent (padding rows all False).
    key : (T, J) int
        Tie-break key: among documents with equal gain the one with the largest key is taken
        (ndeval: the lexicographically largest docno). The rule matters: an early tie decides which
        intents later documents still add to, so the list's discounted gain - alpha-nDCG's
        denominator - can depend on the document ids (notebook 04 measures by how much:
        :func:`helpers.replicates.studies.tie_order_effect`).
    alpha : float
    depth : int

    Returns
    -------
    (T, depth) novelty gains of the greedy list (0 once every relevant document is placed).
    """
    T, J, M = rel.shape
    relf = rel.astype(float)
    w = np.ones((T, M))
    placed = np.zeros((T, J), dtype=bool)
    out = np.zeros((T, depth))
    live = np.ones(T, dtype=bool)
    rows = np.arange(T)
    for r in range(min(depth, J)):
        score = row_sums(relf * w[:, None, :])
        score[placed] = -1.0
        best = score.max(1)
        live &= best > 0
        if not live.any():
            break
        cand = np.where(score == best[:, None], key, -1)
        pick = cand.argmax(1)
        out[:, r] = np.where(live, best, 0.0)
        placed[rows, pick] = True
        hitm = rel[rows, pick]                                  # (T, M)
        w = np.where(hitm & live[:, None], w * (1.0 - alpha), w)
    return out


def exact_ideal_alpha(rel: np.ndarray, alpha: float, disc: np.ndarray, max_docs: int = 14) -> float:
    """Best attainable ``sum_r disc[r] * novelty_gain(r)`` of one topic: the exact ideal list.

    ndeval's greedy ideal is not always optimal (so alpha-nDCG can exceed 1). Because a
    document's novelty gain depends only on the *set* of documents above it, dynamic programming
    over subsets finds the exact optimum: ``best[S] = max_{d in S} best[S - d] + disc[|S|-1]
    gain(d | S - d)``. Cost ``2^J J`` for ``J`` relevant documents, so topics with more than
    ``max_docs`` of them raise ValueError (the problem is NP-hard in general).

    Parameters
    ----------
    rel : (J, M) bool
        Relevance of the topic's relevant documents to its intents.
    alpha : float
    disc : (l,) array
        Rank discounts (``1/log2(r+1)``, ``1/r`` or ``beta^(r-1)``); ranks beyond ``l`` count 0.
    """
    rel = np.asarray(rel, dtype=bool)
    J = rel.shape[0]
    if J > max_docs:
        raise ValueError(f"exact ideal list: a topic has {J} relevant documents, more than max_docs = {max_docs} "
                         "(2^J subsets); use ndeval's greedy ideal")
    if J == 0:
        return 0.0
    n = 1 << J
    depth = min(len(disc), J)
    members = ((np.arange(n)[:, None] >> np.arange(J)[None, :]) & 1).astype(bool)      # (n, J)
    size = members.sum(1)
    counts = members.astype(np.int64) @ rel.astype(np.int64)                            # (n, M) per subset
    w = (1.0 - alpha) ** counts if alpha < 1 else (counts == 0).astype(float)
    best = np.full(n, -np.inf)
    best[0] = 0.0
    for k in range(1, depth + 1):
        for S in np.flatnonzero(size == k):
            cand = -np.inf
            for d in np.flatnonzero(members[S]):
                prev = S & ~(1 << d)
                v = best[prev] + disc[k - 1] * float(row_sums(w[prev] * rel[d]))
                if v > cand:
                    cand = v
            best[S] = cand
    return float(best[size == depth].max())


def ndeval_measure(meas, rel, N, cache, pack, exact=False):
    """One ndeval-family measure; rel (L, D, M) bool over intents with relevant documents."""
    name = meas.name
    D = rel.shape[1]
    l = meas.cutoff if meas.cutoff is not None else D
    l_eff = min(l, D)
    r = rel[:, :l_eff]
    Nf = N.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        if name == "strec":
            return r.any(1).sum(-1) / Nf
        if name == "P-IA":
            return r.sum((1, 2)) / (l * Nf)
        alpha = meas.param("alpha")
        gkey = ("novelty", alpha)
        if gkey not in cache:
            cache[gkey] = novelty_gain(rel, alpha)                      # (L, D), prefix-stable
        gain = cache[gkey][:, :l_eff]
        if name in ("alpha-DCG", "alpha-nDCG", "ERR-IA", "nERR-IA"):
            # alpha-(n)DCG discounts by log2(r + 1), ERR-IA by r; ndeval normalises alpha-DCG and
            # ERR-IA by a list relevant to every intent, alpha-nDCG and nERR-IA by the greedy ideal.
            ranks = np.arange(1, l + 1)
            disc = 1.0 / (np.log2(ranks + 1.0) if "DCG" in name else ranks)
            score = row_sums(gain * disc[:l_eff])
            if name in ("alpha-DCG", "ERR-IA"):
                ii = (1.0 - alpha) ** np.arange(l) * disc
                return score / (Nf * ii.sum())
            if exact:
                iscore = pack(("exact", alpha, l, "DCG" in name))
            else:
                ideal = pack(("greedy", alpha, l))
                iscore = row_sums(ideal * disc[:ideal.shape[1]])
            return np.where(score > 0, score / iscore, 0.0)
        if name in ("NRBP", "nNRBP"):
            beta = meas.param("beta")
            nrbp = row_sums(gain * beta ** np.arange(l_eff))
            if name == "NRBP":
                return nrbp * (1.0 - (1.0 - alpha) * beta) / Nf
            if exact:
                inrbp = pack(("exact", alpha, meas.cutoff, ("beta", beta)))
            else:
                ideal = pack(("greedy", alpha, meas.cutoff))
                inrbp = row_sums(ideal * beta ** np.arange(ideal.shape[1]))
            return nrbp / inrbp
    raise AssertionError(name)

