"""trec_eval's gain-based measures, vectorised over lists x ranks (trec_eval 10, ``m_ndcg.c``,
``m_ndcg_cut.c``, ``m_ndcg_rel.c``, ``m_Rndcg.c``, ``m_G.c``, ``m_rbp.c``, ``m_rbp_resid.c``, ``gain_init.c``).

**Gains** (``gains=``): by default a level's gain is the level (``gains=levels``); trec_eval's
``-m ndcg.1=3,2=9`` is ``gains=1:3;2:9`` here (levels not listed keep gain = level; gains may be 0
or negative, level 0 may get a gain). A retrieved document gets the gain of its level; a document
not in the qrels (or pooled but unjudged) gets 0 unless ``gains=`` names level -1 (-2).
**Ideal list**: the topic's judged documents (levels >= 0) ordered by decreasing gain (equal gains:
higher level first; trec_eval's ``comp_rel_gain`` compares gains truncated to integers, which can
order 4.5 and 4 either way: ``python -m helpers trec_eval`` refuses where that changes a value,
:mod:`.gainorder`), cut at the first gain <= 0; ``P`` is its length, ``g*(i)`` its gains.
``DCG(k) = sum_{i<=k, g(i) != 0} g(i)/log2(i+1)``, ``IDCG(k)`` the same over the ideal list.

====================  =====================================================================
``MSnDCGg(gains=..)``  ``DCG(ret)/IDCG(P)`` (trec_eval ``ndcg``; ``@l``: ``DCG(l)/IDCG(l)``;
                      0 when the ideal is 0). With gains = levels it is the engine's ``MSnDCG``
                      (``MSnDCG@l`` is trec_eval's ``ndcg_cut``, computed here for the command).
``MSDCG``, ``MSIDCG``  ``DCG(ret)`` and ``IDCG(P)`` (trec_eval ``dcg``, ``ideal_dcg``)
``MSnDCGrel``         mean over the ``P`` ideal positions of nDCG at each relevant document
                      retrieved (gain > 0, at rank ``r``: ``DCG(r)/IDCG(min(r, P))``) and, for
                      the ``P`` minus retrieved relevant ones, ``DCG(ret)/IDCG(P)``; 0 if the
                      sum is 0 (trec_eval ``ndcg_rel``)
``RMSnDCG``           mean of ``DCG(min(b, ret))/IDCG(b)`` over the boundaries ``b`` of the
                      ideal list (ranks 1..P where ``g*`` changes, ``P`` included), plus
                      ``DCG(ret)/IDCG(P)`` when ``ret > P + 1``; 0 if ``R = 0`` at ``rel=``
                      (trec_eval ``Rndcg``)
``G``                 ``sum_{g(r) != 0} g(r)/log2(2 + cost(r) - cg(r)) / sum_i g*(i)`` with
                      ``cost(r) = sum_{i<=r} max(g*(i), 1)`` and ``cg`` the cumulative gain
                      (trec_eval ``G``)
``RBPg(p,gains=..)``  ``(1-p) sum_r g(r) p^(r-1)`` with gains rescaled to [0, 1] by the smallest
                      and largest of 0 and the topic's gains when they leave it (trec_eval
                      ``rbp`` alone, whose default p is 0.9; the engine's ``RBP`` divides by gmax)
``RBPresid(p)``       ``p^ret + (1-p) sum_{unjudged r} p^(r-1)`` if some retrieved document is
                      not judged, else 0 (trec_eval ``rbp_resid``)
====================  =====================================================================
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..spec import GAIN_TOTAL_LIMIT, MeasureSpec
from .defs import GAIN_PARAM, LEVEL_GAINS, parse_gain_pairs
from .lists import NONPOOL, UNJUDGED, Block, safe_div

__all__ = ["GRADED", "with_ideal", "rescaled_topics"]


def _pairs(spec: MeasureSpec) -> dict[int, float]:
    value = dict(spec.params).get(GAIN_PARAM, LEVEL_GAINS)
    return parse_gain_pairs(value if isinstance(value, str) else repr(value))


def _refuse_overflow(pairs: dict[int, float], hist, present, levels, gain, g_full) -> None:
    """Refuse gains whose sums (DCG, the ideal DCG, G's cumulative gain) may pass
    :data:`helpers.measures.adhoc.GAIN_TOTAL_LIMIT`, the limit ``--gains``/``gains=`` of the engine
    has: a topic's judged documents or a list's retrieved ones summing more than it in absolute value
    (``ndcg.1=1e308`` with two such documents was inf/inf, printed as 0 after an overflow warning)."""
    if not pairs:
        return
    col_gain = np.abs(np.array([dict(zip(levels.tolist(), gain.tolist())).get(int(lv), 0.0) for lv in present]))
    with np.errstate(over="ignore", invalid="ignore"):
        per_topic = (hist * col_gain[None, :]).sum(axis=1) if hist.size else np.zeros(0)
        per_list = np.abs(g_full).sum(axis=1) if g_full.size else np.zeros(0)
    worst = max(float(per_topic.max(initial=0.0)), float(per_list.max(initial=0.0)))
    if worst > GAIN_TOTAL_LIMIT:
        big = max(pairs.items(), key=lambda kv: abs(kv[1]))
        text = ";".join(f"{lv}:{g:g}" for lv, g in pairs.items())
        trec = ",".join(f"{lv}={g:g}" for lv, g in pairs.items())
        raise ValueError(f"gains={text} (trec_eval's -m ndcg.{trec} and the like): level {big[0]} has gain {big[1]:g}, and the gains of one topic's judged (or "
                         f"one list's retrieved) documents sum to more than {GAIN_TOTAL_LIMIT:g} in absolute value, "
                         "so the sums of gains would overflow (the same limit as --gains); the measures normalised "
                         "by the ideal do not depend on the gains' scale, so divide every gain by the same factor")


class _Gains:
    """One gain assignment applied to a block: results' gains, the ideal lists, per-topic ranges.

    Levels are looked up among the judged levels that occur (``lists.hist_levels``) and the levels
    ``gains=`` names, never in a table indexed by the level: memory does not depend on the levels'
    values (a level of 99,999,999,999 costs what a level of 3 costs).
    """

    def __init__(self, b: Block, pairs: dict[int, float], ideal_runs: list | None = None):
        hist, present = b.lists.hist, b.lists.levels_present
        levels = np.array(sorted(set(present.tolist()) | set(pairs)), dtype=np.int64)
        gain = np.array([pairs.get(int(lv), float(lv) if lv >= 0 else 0.0) for lv in levels])
        self.levels, self.gain = levels, gain
        # the retrieved documents with a non-zero gain, compacted (few per list; most have none)
        g_full = self.gain_of(b.lv)
        _refuse_overflow(pairs, hist, present, levels, gain, g_full)
        rows, cols = np.nonzero(g_full)
        counts_nz = np.bincount(rows, minlength=b.n)
        width = max(int(counts_nz.max()) if b.n else 0, 1)
        first_nz = np.concatenate([[0], np.cumsum(counts_nz)[:-1]]) if b.n else np.zeros(0, dtype=np.int64)
        self.gpos = np.zeros((b.n, width), dtype=np.int64)
        self.gval = np.zeros((b.n, width))
        at = np.arange(len(rows)) - first_nz[rows]
        self.gpos[rows, at], self.gval[rows, at] = cols, g_full[rows, cols]
        self.gvalid = np.arange(width)[None, :] < counts_nz[:, None]
        self.gpos = np.where(self.gvalid, self.gpos, np.iinfo(np.int64).max // 2)   # padding sorts last
        ideal = self._ideal(hist, present, levels, gain) if ideal_runs is None else self._ideal_of(ideal_runs)
        self.ideal = ideal[b.lists.topic]                 # (n, K + 1), 0 past P
        self.P = self.P_topic[b.lists.topic].astype(float)
        self.gmin, self.gmax = (r[b.lists.topic] for r in self._gain_range(hist, present, pairs))

    def _ideal(self, hist, present, levels, gain) -> np.ndarray:
        """The ideal list of every topic: levels by decreasing gain (then level), positive gains only."""
        n_topics = hist.shape[0]
        column = {int(lv): j for j, lv in enumerate(present)}
        order = sorted((i for i, lv in enumerate(levels) if int(lv) in column and gain[i] > 0),
                       key=lambda i: (-gain[i], -levels[i]))
        counts = hist[:, [column[int(levels[i])] for i in order]] if order else np.zeros((n_topics, 0), dtype=np.int64)
        self.P_topic = counts.sum(axis=1)
        K = int(self.P_topic.max()) if n_topics else 0
        ideal = np.zeros((n_topics, K + 1))
        if K:
            t_idx = np.repeat(np.repeat(np.arange(n_topics), len(order)), counts.ravel())
            vals = np.repeat(np.tile(gain[order], n_topics), counts.ravel())
            first = np.searchsorted(t_idx, np.arange(n_topics))
            ideal[t_idx, np.arange(len(t_idx)) - first[t_idx]] = vals
        return ideal

    def _ideal_of(self, runs: list) -> np.ndarray:
        """The ideal lists given as (gain, count) runs per topic (trec_eval's order:
        :func:`helpers.measures.treceval.gainorder.trec_ideal_runs`)."""
        self.P_topic = np.array([sum(n for _, n in r) for r in runs], dtype=np.int64)
        ideal = np.zeros((len(runs), int(self.P_topic.max(initial=0)) + 1))
        for t, r in enumerate(runs):
            if r:
                ideal[t, : self.P_topic[t]] = np.repeat([g for g, _ in r], [n for _, n in r])
        return ideal

    def gain_of(self, values: np.ndarray) -> np.ndarray:
        """The gain of each relevance value (0 for PAD and for values without one)."""
        idx = np.clip(np.searchsorted(self.levels, values), 0, max(len(self.levels) - 1, 0))
        found = (self.levels[idx] == values) if len(self.levels) else np.zeros(np.shape(values), dtype=bool)
        return np.where(found, self.gain[idx] if len(self.levels) else 0.0, 0.0)

    @staticmethod
    def _gain_range(hist: np.ndarray, present: np.ndarray, pairs: dict[int, float]):
        """Per topic, the smallest and largest gain of its gain list (trec_eval's ``gain_init``):
        the levels ``gains=`` names, and every level 0 .. num_rel_levels - 1 (gain = level unless
        named). Computed from the level bounds, not by listing the levels."""
        has = hist > 0
        top = np.where(has.any(axis=1), present[has.shape[1] - 1 - np.argmax(has[:, ::-1], axis=1)]
                       if has.shape[1] else 0, -1)                        # num_rel_levels - 1
        named = np.array(list(pairs.values()), dtype=float)
        lo = np.full(len(top), named.min() if len(named) else np.inf)
        hi = np.full(len(top), named.max() if len(named) else -np.inf)
        paired = {lv for lv in pairs if lv >= 0}
        smallest = next(v for v in range(len(paired) + 1) if v not in paired)   # lowest unnamed level >= 0
        lo = np.where(top >= smallest, np.minimum(lo, smallest), lo)
        largest = top.copy()                                                    # highest unnamed level <= top
        for _ in range(len(paired)):
            named_now = np.isin(largest, list(paired))
            if not named_now.any():
                break
            largest = np.where(named_now, largest - 1, largest)
        hi = np.where(largest >= 0, np.maximum(hi, largest.astype(float)), hi)
        return lo, hi

    @cached_property
    def dcg_c(self) -> np.ndarray:
        """DCG after each non-zero gain (compacted), summed in rank order."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.cumsum(np.where(self.gvalid, self.gval / np.log2(self.gpos + 2.0), 0.0), axis=1)

    def dcg(self, k) -> np.ndarray:
        """``DCG(k)``: the DCG of the top ``k`` ranks (``k`` scalar or one per list)."""
        n = self.gpos.shape[0]
        count = (self.gpos < np.broadcast_to(np.asarray(k), (n,))[:, None]).sum(axis=1)
        return np.where(count > 0, self.dcg_c[np.arange(n), np.maximum(count - 1, 0)], 0.0)

    @cached_property
    def idcg(self) -> np.ndarray:
        K = self.ideal.shape[1]
        return np.cumsum(self.ideal / np.log2(np.arange(2, K + 2, dtype=float)), axis=1)


def _gains(b: Block, spec: MeasureSpec) -> _Gains:
    pairs = _pairs(spec)
    return b.cached(("gains", tuple(sorted(pairs.items()))), lambda: _Gains(b, pairs))


def rescaled_topics(lists, spec: MeasureSpec) -> np.ndarray:
    """Per row of ``lists.hist`` (a topic), whether trec_eval's ``rbp`` rescales its gains
    (the topic's gain list leaves [0, 1]): the topics where trec_eval 10 reads its uninitialised
    ``min``/``max`` (``m_rbp.c``), whose values then depend on the measures computed before."""
    lo, hi = _Gains._gain_range(lists.hist, lists.levels_present, _pairs(spec))
    return (lo < 0) | (hi > 1)


def with_ideal(lists, spec: MeasureSpec, rel: int, ideal_runs: list) -> np.ndarray:
    """``spec``'s values on ``lists`` (a gain-based family) with the ideal list of every topic
    given as (gain, count) runs instead of the correct one: what trec_eval computes from its
    misordered gains (:mod:`.gainorder`)."""
    pairs = _pairs(spec)
    out = np.empty(lists.n)
    for sl in lists.blocks():
        b = Block(lists.rows(sl), spec.rel if spec.rel is not None else rel)
        b.cached(("gains", tuple(sorted(pairs.items()))), lambda: _Gains(b, pairs, ideal_runs))
        out[sl] = GRADED[spec.name](b, spec)
    return out


def _cum_at(cum: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``cum[:, k-1]`` per row (0 where ``k <= 0``), ``k`` clipped to the width."""
    if cum.shape[1] == 0:
        return np.zeros(cum.shape[0])
    idx = np.clip(np.asarray(k, dtype=np.int64), 1, cum.shape[1]) - 1
    return np.where(np.asarray(k) > 0, np.take_along_axis(cum, idx[:, None], axis=1)[:, 0], 0.0)


def _ndcg(b: Block, spec: MeasureSpec) -> np.ndarray:
    g = _gains(b, spec)
    if spec.cutoff is None:
        d, i = g.dcg(b.lists.num_ret), _cum_at(g.idcg, g.P)
    else:
        d, i = g.dcg(spec.cutoff), _cum_at(g.idcg, np.minimum(spec.cutoff, g.P))
    if spec.name == "MSDCG":
        return d
    if spec.name == "MSIDCG":
        return i
    if spec.cutoff is not None and spec.name == "MSnDCG":
        return np.where(i > 0, safe_div(d, i), d)        # ndcg_cut keeps DCG when the ideal is 0
    return safe_div(d, i)


def _ndcg_rel(b: Block, spec: MeasureSpec) -> np.ndarray:
    g = _gains(b, spec)
    P = g.P
    col = np.minimum(g.gpos + 1, P[:, None]).astype(np.int64)     # IDCG(min(r, P)) at each gain
    ideal_at = np.take_along_axis(g.idcg, np.clip(col, 1, g.idcg.shape[1]) - 1, axis=1)
    hit = g.gvalid & (g.gval > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(hit, g.dcg_c / ideal_at, 0.0)
        total = np.cumsum(terms, axis=1)[:, -1]
        final = g.dcg(b.lists.num_ret) / _cum_at(g.idcg, P)
        total = total + (P - hit.sum(axis=1)) * final
    return np.where((P > 0) & (total > 0), safe_div(total, P), 0.0)


def _rndcg(b: Block, spec: MeasureSpec) -> np.ndarray:
    g = _gains(b, spec)
    ideal = g.ideal                                              # (n, K + 1), 0 past P
    K = ideal.shape[1] - 1
    bnd = np.arange(1, K + 1, dtype=float)                      # boundary b = 1..K
    change = (ideal[:, 1:] != ideal[:, :-1]) & (bnd[None, :] <= g.P[:, None])
    rows, cols = np.nonzero(change)                              # few per list: one per gain level
    counts = np.bincount(rows, minlength=b.n)
    width = max(int(counts.max()) if b.n else 0, 1)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]]) if b.n else np.zeros(0, dtype=np.int64)
    at = np.zeros((b.n, width), dtype=np.int64)
    at[rows, np.arange(len(rows)) - first[rows]] = cols + 1      # the boundaries b
    valid = np.arange(width)[None, :] < counts[:, None]
    upto = np.minimum(at, b.lists.num_ret[:, None])
    nz = (g.gpos[:, :, None] < upto[:, None, :]).sum(axis=1)     # non-zero gains above min(b, ret)
    d = np.where(nz > 0, np.take_along_axis(g.dcg_c, np.maximum(nz - 1, 0), axis=1), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(valid, d / np.take_along_axis(g.idcg, np.maximum(at - 1, 0), axis=1), 0.0)
        total = np.cumsum(terms, axis=1)[:, -1]
        count = counts.astype(float)
        extra = b.num_ret > g.P + 1
        total = total + np.where(extra, g.dcg(b.lists.num_ret) / _cum_at(g.idcg, g.P), 0.0)
        count = count + extra
        value = total / count
    return np.where(b.R > 0, value, 0.0)


def _g(b: Block, spec: MeasureSpec) -> np.ndarray:
    g = _gains(b, spec)
    K = g.ideal.shape[1]
    cost_ideal = np.cumsum(np.maximum(g.ideal, 1.0), axis=1)   # max(g*(i), 1); 1 past the ideal's end
    r = np.where(g.gvalid, g.gpos + 1, 1)                      # rank of each non-zero gain
    cost = np.take_along_axis(cost_ideal, np.minimum(r, K) - 1, axis=1) + np.maximum(r - K, 0)
    cg = np.cumsum(g.gval, axis=1)                             # zero gains add nothing to cg
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(g.gvalid, g.gval / np.log2(2.0 + cost - cg), 0.0)
    return safe_div(np.cumsum(terms, axis=1)[:, -1], g.ideal.sum(axis=1))


def _powers(b: Block, p: float) -> np.ndarray:
    """``p^0 .. p^D`` by repeated multiplication, as trec_eval's loops compute them."""
    return b.cached(("pow", p), lambda: np.concatenate([[1.0], np.cumprod(np.full(b.D, p))]))


def _rbp(b: Block, spec: MeasureSpec) -> np.ndarray:
    g = _gains(b, spec)
    p = float(spec["p"])
    # m_rbp.c's min and max are never set: alone, trec_eval's rbp starts them at 0 (a zeroed stack),
    # so the range is that of 0 and the topic's gains (gains 2 only: 0..2, not 0/0)
    gmin, gmax = np.minimum(g.gmin, 0.0), np.maximum(g.gmax, 0.0)
    rescale = (gmin < 0) | (gmax > 1)
    span = np.where(rescale, gmax - gmin, 1.0)
    pw = _powers(b, p)
    if not (rescale & (gmin != 0)).any():
        # rescaling keeps 0 at 0: only the non-zero gains count (compacted)
        gain = np.where(rescale[:, None], g.gval / span[:, None], g.gval)
        terms = np.where(g.gvalid, gain * pw[np.minimum(g.gpos, b.D)], 0.0)
        return (1.0 - p) * np.cumsum(terms, axis=1)[:, -1]
    member = np.isin(b.lv, [lv for lv in g.levels.tolist() if lv < 0]) | (b.lv >= 0)   # in the topic's gain list
    raw = g.gain_of(b.lv)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(rescale[:, None] & member, (raw - gmin[:, None]) / span[:, None], raw)
    gain = np.where(member, gain, 0.0)
    terms = np.where(gain != 0, gain * pw[None, : b.D], 0.0)
    return (1.0 - p) * np.cumsum(terms, axis=1)[:, -1]


def _rbp_resid(b: Block, spec: MeasureSpec) -> np.ndarray:
    p = float(spec["p"])
    pw = _powers(b, p)
    unj = (b.lv == NONPOOL) | (b.lv == UNJUDGED)
    total = np.cumsum(np.where(unj, pw[None, : b.D], 0.0), axis=1)[:, -1]
    return np.where(unj.any(axis=1), pw[b.lists.num_ret] + (1.0 - p) * total, 0.0)


#: Engine family -> function(block, spec) for the gain-based measures.
GRADED = {
    "MSnDCG": _ndcg, "MSnDCGg": _ndcg, "MSDCG": _ndcg, "MSIDCG": _ndcg, "MSnDCGrel": _ndcg_rel, "RMSnDCG": _rndcg, "G": _g,
    "RBPg": _rbp, "RBPresid": _rbp_resid,
}
