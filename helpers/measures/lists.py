"""Ranked lists of runs matched to qrels: identifiers, grouping, ordering, duplicates.

The run side of :func:`helpers.measures.evaluate`: the qrels' topics and documents as exact
strings (:func:`topic_keys`), a run's rows grouped into one ranked list per (run, topic) and put
in order (:func:`run_side`, :func:`order_rows`), and every retrieved row's qrels row
(:func:`qrels_row_of`). Everything is O(rows): sorts and hash look-ups, no per-document loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from helpers.io.ids import factorize_ids, number_spelling_twins, require_columns, str_ids
from helpers.measures.notices import warn_caller

__all__ = ["TopicKeys", "RankedRows", "positions", "natural_order", "dense_codes", "order_rows",
           "report_topic_mismatch", "topic_keys", "check_run_columns", "run_order_keys", "run_side",
           "drop_duplicates", "qrels_row_of"]


def positions(list_id: np.ndarray, n_lists: int) -> np.ndarray:
    """0-based position of each row within its list; rows must be grouped by ``list_id``."""
    first = np.full(n_lists, -1, dtype=np.int64)
    if len(list_id):
        boundary = np.flatnonzero(np.r_[True, list_id[1:] != list_id[:-1]])
        first[list_id[boundary]] = boundary
    return np.arange(len(list_id), dtype=np.int64) - first[list_id]


def natural_order(ids: np.ndarray) -> np.ndarray:
    """Sort topic ids numerically if they all look like integers, else as strings."""
    ids = np.asarray(ids, dtype=object)
    if len(ids) and all(s.isdigit() for s in ids):
        return ids[np.lexsort((ids.astype(str), np.array([int(s) for s in ids])))]
    return np.array(sorted(ids), dtype=object)



def dense_codes(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Ranks 0..k-1 of the values of ``key`` (equal values share a rank) and k."""
    uniq, inv = np.unique(key, return_inverse=True)
    return inv.astype(np.int64), len(uniq)


def order_rows(list_id: np.ndarray, keys: list[tuple[np.ndarray, bool]]) -> np.ndarray | None:
    """Permutation grouping rows by ``list_id`` and sorting each list by ``keys`` (pairs of
    array and ascending flag, most significant first), or None if the rows already are in that
    order (the usual case for TREC runs, checked in O(n): lists contiguous, in any order, and
    sorted within)."""
    n = len(list_id)
    if n < 2:
        return None
    same = list_id[1:] == list_id[:-1]
    n_lists = np.count_nonzero(np.bincount(list_id))
    if n - int(same.sum()) == n_lists:  # each list is one contiguous block
        undecided = same
        wrong = np.zeros(n - 1, dtype=bool)
        for k, ascending in keys:
            a, b = k[:-1], k[1:]
            wrong |= undecided & ((a > b) if ascending else (a < b))
            undecided &= a == b
        if not wrong.any():
            return None
    # one int64 composite key when the dense ranks fit in 63 bits, else lexsort
    parts = [(list_id.astype(np.int64), int(list_id.max()) + 1)]
    for k, ascending in keys:
        codes, size = (dense_codes(k) if k.dtype.kind == "f" else
                       (k - k.min(), int(k.max() - k.min()) + 1))
        parts.append((codes if ascending else size - 1 - codes, size))
    if sum(math.log2(max(size, 2)) for _, size in parts) < 62:
        composite = np.zeros(n, dtype=np.int64)
        for codes, size in parts:
            composite = composite * size + codes
        return np.argsort(composite, kind="stable")
    return np.lexsort(tuple(reversed([codes for codes, _ in parts])))


def report_topic_mismatch(run_topics: np.ndarray, qrels_topics: pd.Index) -> None:
    """Refuse a run that shares no topic with the qrels, or whose topic ids differ only in their
    spelling of a number ("1.0" vs "1"); warn with counts when only some topics are unknown."""
    run_topics = np.asarray(run_topics, dtype=object)
    unknown = [t for t in run_topics if t not in qrels_topics]
    twins = number_spelling_twins(unknown, qrels_topics)
    if twins:
        t, q = twins[0]
        raise ValueError(f"run topic {t!r} and qrels topic {q!r} differ only in how the number is written "
                         f"({len(twins)} such topic(s)); identifiers are compared as exact strings. "
                         "Read both files with string ids, or normalise them the same way")
    if len(unknown) == len(run_topics):
        raise ValueError(f"the run shares no topic with the qrels: run topics {sorted(map(str, run_topics))[:5]}"
                         f"{'...' if len(run_topics) > 5 else ''}, qrels topics "
                         f"{sorted(map(str, qrels_topics))[:5]}{'...' if len(qrels_topics) > 5 else ''}")
    warn_caller(f"{len(unknown)} of {len(run_topics)} run topic(s) are not in the qrels and are ignored "
          f"(e.g. {sorted(map(str, unknown))[:3]})")



@dataclass
class TopicKeys:
    """The qrels' identifiers: topics in natural order, each row's topic code and document."""

    topics: np.ndarray
    index: pd.Index
    tcode: np.ndarray
    doc: np.ndarray

    @property
    def n(self) -> int:
        return len(self.topics)


def topic_keys(qrels: pd.DataFrame) -> TopicKeys:
    """The qrels' topics and documents as exact strings (pairs judged twice and empty qrels refused)."""
    require_columns(qrels, "qrels", ["query_id", "doc_id"])
    q_topic = str_ids(qrels["query_id"], "qrels 'query_id'")
    q_doc = str_ids(qrels["doc_id"], "qrels 'doc_id'")
    dup = pd.DataFrame({"q": q_topic, "d": q_doc}).duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        raise ValueError(f"qrels judge document {q_doc[i]!r} twice for topic {q_topic[i]!r}")
    topics = natural_order(pd.unique(q_topic))
    if len(topics) == 0:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    index = pd.Index(topics)
    return TopicKeys(topics, index, index.get_indexer(q_topic), q_doc)



def check_run_columns(run: pd.DataFrame) -> None:
    require_columns(run, "run", ["query_id", "doc_id"])
    if "rank" not in run.columns and "score" not in run.columns:
        raise ValueError(f"run needs a 'rank' or a 'score' column; it has {list(run.columns)}")


def run_order_keys(run: pd.DataFrame, order_by: str, score_precision: str = "double"
                   ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The run's ranks (when they order it) and scores as floats, NaN refused with the row;
    ``score_precision="single"`` rounds the scores to C ``float``, as trec_eval stores them (so
    scores equal in single precision tie, and the tie is broken by doc_id)."""
    rank = score = None
    if "rank" in run.columns and order_by == "rank":
        rank = pd.to_numeric(run["rank"], errors="coerce").to_numpy(dtype=float)
        if np.isnan(rank).any():
            i = int(np.flatnonzero(np.isnan(rank))[0])
            raise ValueError(f"run 'rank' must be numeric; row {i} has {run['rank'].iloc[i]!r}")
    if "score" in run.columns:
        score = pd.to_numeric(run["score"], errors="coerce").to_numpy(dtype=float)
        if np.isnan(score).any():
            i = int(np.flatnonzero(np.isnan(score))[0])
            raise ValueError(f"run 'score' must be numeric; row {i} has {run['score'].iloc[i]!r}")
        if score_precision == "single":
            with np.errstate(over="ignore"):  # beyond float's range: +-inf, as in trec_eval
                score = score.astype(np.float32).astype(np.float64)
    elif order_by == "score":
        raise ValueError("order_by='score' needs a 'score' column in the run")
    return rank, score


@dataclass
class RankedRows:
    """The run's rows that belong to a qrels topic, grouped into ranked lists and ordered."""

    run_ids: np.ndarray           # run ids, order of first appearance
    list_id: np.ndarray           # run code * n_topics + topic code of each row
    d_codes: np.ndarray           # document code of each row (codes sorted by doc id)
    d_uniques: np.ndarray         # document ids by code
    present: np.ndarray           # (n_runs * n_topics,) the run answered the topic

    @property
    def n_runs(self) -> int:
        return len(self.run_ids)


def run_side(run: pd.DataFrame, topics: TopicKeys, order_by: str, duplicates: str,
             score_precision: str = "double") -> RankedRows:
    """Rows of the run grouped by (run, topic), ranked, with duplicates refused or dropped."""
    check_run_columns(run)
    n_topics = topics.n
    if "run_id" in run.columns:
        r_codes, run_ids = factorize_ids(run["run_id"], "run 'run_id'")
    else:
        r_codes, run_ids = np.zeros(len(run), dtype=np.int64), np.array(["run"], dtype=object)
    rq_codes, rq_uniques = factorize_ids(run["query_id"], "run 'query_id'")
    r_tcode = topics.index.get_indexer(rq_uniques)[rq_codes] if len(run) else rq_codes
    del rq_codes
    rank, score = run_order_keys(run, order_by, score_precision)
    keep = r_tcode >= 0  # topics not in the qrels are ignored (trec_eval, NTCIREVAL) -- but not silently
    all_kept = bool(keep.all())
    if len(run) and not all_kept:
        report_topic_mismatch(rq_uniques, topics.index)
    list_id = np.asarray(r_codes, dtype=np.int64) * n_topics + r_tcode
    del r_codes, r_tcode
    if not all_kept:
        list_id = list_id[keep]
    present = np.zeros(len(run_ids) * n_topics, dtype=bool)
    present[list_id] = True
    d_codes, d_uniques = factorize_ids(run["doc_id"] if all_kept else run["doc_id"][keep],
                                       "run 'doc_id'", sort=True, blocky=False)
    keys = []
    if rank is not None:
        keys.append((rank if all_kept else rank[keep], True))
    if score is not None:
        keys.append((score if all_kept else score[keep], False))
    keys.append((d_codes, False))
    order = order_rows(list_id, keys)
    del keys, rank, score
    if order is not None:
        list_id, d_codes = list_id[order], d_codes[order]
    del order
    rows = RankedRows(run_ids, list_id, d_codes, d_uniques, present)
    drop_duplicates(rows, topics, duplicates)
    return rows


def drop_duplicates(rows: RankedRows, topics: TopicKeys, duplicates: str) -> None:
    """A (list, document) pair twice: refuse it naming run, topic and document, or keep the first."""
    n_docs = max(len(rows.d_uniques), 1)
    pair = rows.list_id * n_docs + rows.d_codes
    sp = np.sort(pair)
    dup = sp[1:] == sp[:-1]
    if dup.any():
        if duplicates == "error":
            lid, dc = divmod(int(sp[1:][dup][0]), n_docs)
            rid, tid = divmod(lid, topics.n)
            raise ValueError(f"run {rows.run_ids[rid]!r} retrieves document {rows.d_uniques[dc]!r} more "
                             f"than once for topic {topics.topics[tid]!r} (pass duplicates='keep_first' to "
                             "keep the highest-ranked copy)")
        first = ~pd.Series(pair).duplicated(keep="first").to_numpy()
        rows.list_id, rows.d_codes = rows.list_id[first], rows.d_codes[first]



def qrels_row_of(rows: RankedRows, keys: TopicKeys) -> np.ndarray:
    """For every run row, the qrels row that judges its (topic, document), or -1 (unjudged)."""
    n_docs = max(len(rows.d_uniques), 1)
    qd = pd.Index(rows.d_uniques).get_indexer(keys.doc)
    qok = qd >= 0
    q_pair = keys.tcode[qok].astype(np.int64) * n_docs + qd[qok]
    hit = (pd.Index(q_pair).get_indexer(rows.list_id % keys.n * n_docs + rows.d_codes) if len(q_pair)
           else np.full(len(rows.list_id), -1))
    return np.where(hit >= 0, np.append(np.flatnonzero(qok), -1)[hit], -1)
