"""trec_eval's view of ranked lists: relevance values by rank, and the topic's judged levels.

trec_eval's measures do not see gains but the *relevance value* of each ranked document
(``form_res_rels.c``): its level in the qrels when it is judged (>= 0), -1 when it is not in the
qrels (``RELVALUE_NONPOOL``) and -2 when the qrels list it with a negative level
(``RELVALUE_UNJUDGED``: pooled but not judged, as infAP's sampled pools have); besides, the number
of judged documents of the topic at every level >= 0. :class:`LevelLists` holds these for many
lists at once (one row per run and topic), :func:`level_lists` builds them from tidy frames, and
:class:`Block` derives, once per block of rows and relevance threshold, what the measures read:
the relevant ranks of each list compacted (a few per list instead of the whole depth), counts at
and above them, AP's terms and the interpolated precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["NONPOOL", "UNJUDGED", "PAD", "LevelLists", "Block", "level_lists", "level_histogram", "relevance_values",
           "safe_div"]

NONPOOL = -1          # retrieved, not in the qrels
UNJUDGED = -2         # retrieved, in the qrels with a negative level (pooled, not judged)
PAD = -(1 << 40)      # past the end of a list: below every threshold, never relevant, never unjudged

_BLOCK_ELEMENTS = 1 << 18


def safe_div(a, b) -> np.ndarray:
    """``a / b``, 0 where ``b`` is 0 (trec_eval leaves such values at their initial 0)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b != 0, a / np.where(b != 0, b, 1.0), 0.0)


@dataclass
class LevelLists:
    """Ranked lists as trec_eval's measures see them.

    Attributes
    ----------
    levels : numpy.ndarray of int64, shape (n, depth)
        Relevance value of the document at each rank (>= 0 judged level, :data:`NONPOOL`,
        :data:`UNJUDGED`), :data:`PAD` past each list's end.
    num_ret : numpy.ndarray of int64, shape (n,)
        Documents retrieved (after ``-M`` and ``-J``).
    topic : numpy.ndarray of int64, shape (n,)
        Row of ``hist`` holding each list's topic.
    hist : numpy.ndarray of int64, shape (n_topics, K)
        Judged documents of each topic at each level of ``levels_present`` (trec_eval's
        ``rel_levels``, without the columns of levels no topic has: memory does not grow with the
        levels' values).
    levels_present : numpy.ndarray of int64, shape (K,)
        The judged levels (>= 0) that occur, increasing.
    """

    levels: np.ndarray
    num_ret: np.ndarray
    topic: np.ndarray
    hist: np.ndarray
    levels_present: np.ndarray

    @property
    def n(self) -> int:
        return len(self.num_ret)

    def rows(self, sl: slice) -> "LevelLists":
        return LevelLists(self.levels[sl], self.num_ret[sl], self.topic[sl], self.hist, self.levels_present)

    def blocks(self):
        """Slices of rows that keep a block's working arrays in cache."""
        depth = max(self.levels.shape[1], 1)
        step = max(1, _BLOCK_ELEMENTS // depth)
        for start in range(0, self.n, step):
            yield slice(start, min(self.n, start + step))


class Block:
    """Cumulative quantities of a block of lists at one relevance threshold ``rel`` (trec_eval
    ``-l``), computed on demand and cached."""

    def __init__(self, lists: LevelLists, rel: int):
        self.lists = lists
        self.k = int(rel)
        self.lv = lists.levels
        self.n, self.D = self.lv.shape
        self.num_ret = lists.num_ret.astype(float)
        self._cache: dict = {}

    def cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @cached_property
    def hist(self) -> np.ndarray:
        return self.lists.hist[self.lists.topic]

    @cached_property
    def rel(self) -> np.ndarray:
        """Relevant: a judged level >= rel (trec_eval ``results_rel_list[i] >= relevance_level``)."""
        return self.lv >= max(self.k, 0)

    @cached_property
    def relc(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The relevant ranks, compacted: ``pos[:, j]`` is the 0-based rank of the (j+1)-th relevant
        document (0 padding), ``valid`` marks real entries, ``kk[j] = j + 1`` (``C`` at that rank).
        Most measures only need these, a few per list instead of ``depth``."""
        rows, cols = np.nonzero(self.rel)
        counts = np.bincount(rows, minlength=self.n)
        width = int(counts.max()) if self.n else 0
        first = np.concatenate([[0], np.cumsum(counts)[:-1]]) if self.n else np.zeros(0, dtype=np.int64)
        pos = np.zeros((self.n, max(width, 1)), dtype=np.int64)
        pos[rows, np.arange(len(rows)) - first[rows]] = cols
        valid = np.arange(max(width, 1))[None, :] < counts[:, None]
        return pos, valid, np.arange(1, max(width, 1) + 1, dtype=float)

    @cached_property
    def nrr(self) -> np.ndarray:
        """num_rel_ret."""
        return self.relc[1].sum(axis=1).astype(float)

    def count_rel(self, cutoff) -> np.ndarray:
        """``C(cutoff)``: relevant documents in the top ``cutoff`` (scalar or one per list)."""
        pos, valid, _ = self.relc
        cut = np.broadcast_to(np.asarray(cutoff), (self.n,))[:, None]
        return ((pos < cut) & valid).sum(axis=1).astype(float)

    def cum_at_rel(self, mask: np.ndarray) -> np.ndarray:
        """How many of ``mask`` are at or above each relevant rank (compacted like :attr:`relc`)."""
        pos, valid, _ = self.relc
        if not mask.any():
            return np.zeros(pos.shape)
        cum = np.cumsum(mask, axis=1, dtype=np.int32)
        return np.where(valid, np.take_along_axis(cum, pos, axis=1), 0).astype(float)

    @cached_property
    def R(self) -> np.ndarray:
        """trec_eval's num_rel: judged documents at a level >= rel."""
        return self.hist[:, self.lists.levels_present >= max(self.k, 0)].sum(axis=1).astype(float)

    @cached_property
    def n_nonrel(self) -> np.ndarray:
        """Judged documents below the threshold (what trec_eval's bpref counts as non-relevant)."""
        return self.hist[:, self.lists.levels_present < max(self.k, 0)].sum(axis=1).astype(float)

    @cached_property
    def nonrel(self) -> np.ndarray:
        return (self.lv >= 0) & (self.lv < self.k)

    @cached_property
    def ap_terms(self) -> np.ndarray:
        """``C(r)/r`` at each relevant rank (compacted; 0 padding)."""
        pos, valid, kk = self.relc
        return np.where(valid, kk[None, :] / (pos + 1.0), 0.0)

    @cached_property
    def ap_sum(self) -> np.ndarray:
        """AP's numerator, summed in rank order as trec_eval adds."""
        return np.cumsum(self.ap_terms, axis=1)[:, -1]

    @cached_property
    def interpolated(self) -> np.ndarray:
        """``max_{i >= r_j} C(i)/i`` at each relevant rank ``r_j`` (compacted): trec_eval's
        interpolated precision, whose maxima are at relevant ranks."""
        return np.maximum.accumulate(self.ap_terms[:, ::-1], axis=1)[:, ::-1]


def relevance_values(qrel_level: np.ndarray, judged: np.ndarray) -> np.ndarray:
    """trec_eval's relevance value of retrieved documents: the qrels level when >= 0,
    :data:`UNJUDGED` for a negative level, :data:`NONPOOL` when not in the qrels."""
    return np.where(~judged, NONPOOL, np.where(qrel_level >= 0, qrel_level, UNJUDGED)).astype(np.int64)


def level_lists(list_id: np.ndarray, pos: np.ndarray, values: np.ndarray, n_lists: int,
                list_topic: np.ndarray, hist, *, judged_only: bool = False) -> LevelLists:
    """Assemble :class:`LevelLists` from ranked rows.

    Parameters
    ----------
    list_id, pos : numpy.ndarray of int
        List (0 .. n_lists-1) and 0-based rank of every retrieved row (ranks of a list contiguous
        from 0).
    values : numpy.ndarray of int
        The rows' relevance values (:func:`relevance_values`).
    n_lists : int
    list_topic : numpy.ndarray of int, shape (n_lists,)
        Row of ``hist`` of each list's topic.
    hist : (numpy.ndarray, numpy.ndarray) or numpy.ndarray
        Judged documents per topic and level >= 0, with the levels they count
        (:func:`level_histogram`); a bare ``(n_topics, L)`` array counts levels 0 .. L-1.
    judged_only : bool
        trec_eval ``-J``: drop unjudged rows (negative values) and close the gaps, keeping order.
    """
    list_id, pos, values = np.asarray(list_id), np.asarray(pos), np.asarray(values, dtype=np.int64)
    if judged_only:
        keep = values >= 0
        list_id, pos, values = list_id[keep], pos[keep], values[keep]
        order = np.lexsort((pos, list_id))
        list_id, values = list_id[order], values[order]
        first = np.searchsorted(list_id, np.arange(n_lists))
        pos = np.arange(len(list_id)) - first[list_id]
    num_ret = np.bincount(list_id, minlength=n_lists).astype(np.int64)
    depth = int(num_ret.max()) if n_lists else 0
    levels = np.full((n_lists, max(depth, 1)), PAD, dtype=np.int64)
    levels[list_id, pos] = values
    counts, present = hist if isinstance(hist, tuple) else (hist, np.arange(np.shape(hist)[1]))
    return LevelLists(levels, num_ret, np.asarray(list_topic, dtype=np.int64), np.asarray(counts, dtype=np.int64),
                      np.asarray(present, dtype=np.int64))


def level_histogram(topic: np.ndarray, level: np.ndarray, n_topics: int) -> tuple[np.ndarray, np.ndarray]:
    """Judged documents per topic and level >= 0 (trec_eval's ``rel_levels``) as ``(counts,
    levels)``: ``counts[t, j]`` documents of topic ``t`` at level ``levels[j]``, for the levels that
    occur only (memory grows with the number of distinct levels, never with their values)."""
    topic, level = np.asarray(topic, dtype=np.int64), np.asarray(level, dtype=np.int64)
    judged = level >= 0
    present, code = np.unique(level[judged], return_inverse=True)
    K = max(len(present), 1)
    counts = np.bincount(topic[judged] * K + code.ravel(), minlength=n_topics * K).reshape(n_topics, K)
    return (counts if len(present) else counts[:, :0]).astype(np.int64), present.astype(np.int64)
