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

from ..io.coerce import order_values
from ..io.ids import check_id_dtype, factorize_ids, number_spelling_twins, require_columns, str_ids
from .notices import plain, warn_caller

__all__ = ["TopicKeys", "RankedRows", "positions", "natural_order", "dense_codes", "order_rows",
           "report_topic_mismatch", "topic_keys", "check_run_columns", "run_order_keys", "run_side",
           "list_ids", "doc_strings", "tie_break", "drop_duplicates", "qrels_row_of", "DUPLICATE_CHUNK", "QRELS_CHUNK"]


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
    # one coercion (helpers.io.coerce.order_values): integers float64 cannot tell apart would tie
    # (and reorder) without a word, in whatever form they come
    values = {col: order_values(run[col], f"run '{col}'") for col in ("rank", "score") if col in run.columns}
    if "rank" in run.columns and order_by == "rank":
        rank = values["rank"]
        if np.isnan(rank).any():
            i = int(np.flatnonzero(np.isnan(rank))[0])
            raise ValueError(f"run 'rank' must be numeric; row {i} has {plain(run['rank'].iloc[i])!r}")
    if "score" in run.columns:
        score = values["score"]
        if np.isnan(score).any():
            i = int(np.flatnonzero(np.isnan(score))[0])
            raise ValueError(f"run 'score' must be numeric; row {i} has {plain(run['score'].iloc[i])!r}")
        if score_precision == "single":
            with np.errstate(over="ignore"):  # beyond float's range: +-inf, as in trec_eval
                score = score.astype(np.float32).astype(np.float64)
    elif order_by == "score":
        raise ValueError("order_by='score' needs a 'score' column in the run")
    return rank, score


_PROBE = "subjeval: is this process's str hash the one the hashes were made with?"


@dataclass
class RankedRows:
    """The run's rows that belong to a qrels topic, grouped into ranked lists and ordered."""

    run_ids: np.ndarray           # run ids, order of first appearance
    list_id: np.ndarray           # run code * n_topics + topic code of each row
    docs: np.ndarray              # document id of each row (str)
    present: np.ndarray           # (n_runs * n_topics,) the run answered the topic
    _hashes: np.ndarray | None = None
    _probe: int | None = None

    @property
    def n_runs(self) -> int:
        return len(self.run_ids)

    def hashes(self) -> np.ndarray:
        """Python's hash of every row's document id (uint64), made once per process: str hashes
        are salted per interpreter, so rows unpickled in another process hash again."""
        if self._hashes is None or self._probe != hash(_PROBE) or len(self._hashes) != len(self.docs):
            self._hashes = np.fromiter(map(hash, self.docs), dtype=np.int64, count=len(self.docs)).view(np.uint64)
            self._probe = hash(_PROBE)
        return self._hashes

    def forget_hashes(self) -> None:
        self._hashes = None

    def select(self, keep: np.ndarray) -> None:
        self.list_id, self.docs = self.list_id[keep], self.docs[keep]
        if self._hashes is not None:
            self._hashes = self._hashes[keep]


def run_side(run: pd.DataFrame, topics: TopicKeys, order_by: str, duplicates: str,
             score_precision: str = "double") -> RankedRows:
    """Rows of the run grouped by (run, topic), ranked, with duplicates refused or dropped.

    Cost is linear in the rows but for a sort of the rows out of order: the run and topic ids are
    read block by block (a run file lists each ranked list in one block), document ids are hashed
    once (duplicates, qrels look-up), and only the documents tied on every ordering key are
    sorted by id (trec_eval's tie-break)."""
    check_run_columns(run)
    run_ids, list_id, keep, rq_uniques = list_ids(run, topics)
    rank, score = run_order_keys(run, order_by)  # every row checked; single precision below, kept rows only
    if keep is not None:  # topics not in the qrels are ignored (trec_eval, NTCIREVAL) -- but not silently
        report_topic_mismatch(rq_uniques, topics.index)
    present = np.zeros(len(run_ids) * topics.n, dtype=bool)
    present[list_id] = True
    docs = doc_strings(run["doc_id"], "run 'doc_id'", keep)
    keys = [(k if keep is None else k[keep], asc) for k, asc in ((rank, True), (score, False)) if k is not None]
    if score is not None and score_precision == "single":
        with np.errstate(over="ignore"):  # beyond float's range: +-inf, as in trec_eval
            keys[-1] = (keys[-1][0].astype(np.float32).astype(np.float64), False)
    del rank, score
    order = order_rows(list_id, keys)
    if order is not None:
        list_id, docs, keys = list_id[order], docs[order], [(k[order], asc) for k, asc in keys]
    order = tie_break(list_id, keys, docs)
    if order is not None:
        list_id, docs = list_id[order], docs[order]
    rows = RankedRows(run_ids, list_id, docs, present)
    drop_duplicates(rows, topics, duplicates)
    return rows


def list_ids(run: pd.DataFrame, topics: TopicKeys
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """Run ids, the list (run code * n_topics + topic code) of every row of a qrels topic, which
    rows those are (None: all) and the run's topic ids. A run file lists each ranked list in one
    block, so the ids are read once per block when blocks are long (missing ids refused with
    their row either way)."""
    n = len(run)
    qa = _id_array(run["query_id"], "run 'query_id'")
    ra = _id_array(run["run_id"], "run 'run_id'") if "run_id" in run.columns else None
    starts = None
    if n > 1024:
        try:
            change = np.empty(n, dtype=bool)
            change[0] = True
            change[1:] = qa[1:] != qa[:-1]
            if ra is not None:
                change[1:] |= ra[1:] != ra[:-1]
            starts = np.flatnonzero(change)
        except (TypeError, ValueError):  # pd.NA cannot be compared: the row by row path names it
            starts = None
    if starts is None or len(starts) * 8 >= n:
        starts = np.arange(n)
    lengths = np.diff(np.append(starts, n))
    q_codes, rq_uniques = _block_codes(qa, starts, "run 'query_id'")
    if ra is None:
        r_codes, run_ids = np.zeros(len(starts), dtype=np.int64), np.array(["run"], dtype=object)
    else:
        r_codes, run_ids = _block_codes(ra, starts, "run 'run_id'")
    tcode = topics.index.get_indexer(rq_uniques)[q_codes] if n else q_codes
    keep_b = tcode >= 0
    lists = r_codes * topics.n + tcode
    if keep_b.all():
        return run_ids, np.repeat(lists, lengths), None, rq_uniques
    return run_ids, np.repeat(lists[keep_b], lengths[keep_b]), np.repeat(keep_b, lengths), rq_uniques


def _id_array(series: pd.Series, what: str) -> np.ndarray:
    check_id_dtype(series, what)
    return series.to_numpy(dtype=object)


def _block_codes(arr: np.ndarray, starts: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Codes of the blocks' ids (ids compared as strings) and the ids in order of first appearance."""
    values = arr[starts]
    missing = pd.isna(values)
    if missing.any():
        raise ValueError(f"{what} has a missing value at row {int(starts[np.argmax(missing)])}")
    _refuse_blank_rows(values, starts, what)
    return factorize_ids(pd.Series(values, dtype=object), what, blocky=False)


def _refuse_blank_rows(values: np.ndarray, rows: np.ndarray | None, what: str) -> None:
    """Refuse an empty or whitespace-only id (a missing id), naming its row of the frame."""
    blank = np.fromiter((isinstance(x, str) and (not x or x.isspace()) for x in values), dtype=bool,
                        count=len(values))
    if blank.any():
        i = int(np.argmax(blank))
        raise ValueError(f"{what} has an empty or whitespace-only id {values[i]!r} at row "
                         f"{int(rows[i]) if rows is not None else i}: a missing id, refused like an "
                         "empty cell or NaN")


def doc_strings(series: pd.Series, what: str, keep: np.ndarray | None) -> np.ndarray:
    """The document ids of the rows ``keep`` selects, as str (ids are compared as strings),
    missing ones refused with their row."""
    arr = _id_array(series, what)
    if keep is not None:
        arr = arr[keep]
    _refuse_blank_rows(arr, np.flatnonzero(keep) if keep is not None else None, what)
    if pd.api.types.infer_dtype(arr, skipna=False) == "string":  # all str: nothing missing
        return arr
    missing = pd.isna(arr)
    if missing.any():
        i = int(np.argmax(missing))
        raise ValueError(f"{what} has a missing value at row {int(np.flatnonzero(keep)[i]) if keep is not None else i}")
    return np.array([x if isinstance(x, str) else str(x) for x in arr], dtype=object)


def tie_break(list_id: np.ndarray, keys: list[tuple[np.ndarray, bool]], docs: np.ndarray) -> np.ndarray | None:
    """Permutation putting rows tied on every key of their list in decreasing doc_id order
    (trec_eval's order; string order of the ids), or None when they already are. Rows must be
    grouped by list and sorted by the keys; only the tied rows' ids are sorted."""
    if len(list_id) < 2:
        return None
    tied = list_id[1:] == list_id[:-1]
    for k, _ in keys:
        tied &= k[1:] == k[:-1]
    if not tied.any():
        return None
    member = np.zeros(len(list_id), dtype=bool)
    member[:-1] |= tied
    member[1:] |= tied
    idx = np.flatnonzero(member)
    new_group = np.ones(len(idx), dtype=bool)
    new_group[1:] = ~((idx[1:] == idx[:-1] + 1) & tied[idx[:-1]])
    group = np.cumsum(new_group)
    tied_docs = docs[idx].tolist()  # Python's sort of str (code-point order) beats numpy's on objects
    code = np.empty(len(idx), dtype=np.int64)
    code[np.fromiter(sorted(range(len(idx)), key=tied_docs.__getitem__), dtype=np.int64, count=len(idx))] = \
        np.arange(len(idx))
    local = np.lexsort((-code, group))
    if (local == np.arange(len(idx))).all():
        return None
    order = np.arange(len(list_id))
    order[idx] = idx[local]
    return order


#: Rows per hash table of the duplicate check: tables that fit in cache (whole lists per table).
DUPLICATE_CHUNK = 1 << 16
#: Rows looked up in the qrels at a time.
QRELS_CHUNK = 1 << 20


def drop_duplicates(rows: RankedRows, topics: TopicKeys, duplicates: str) -> None:
    """A (list, document) pair twice: refuse it naming run, topic and document, or keep the first
    (highest-ranked) copy. The (list, hash of the id) keys of a few lists at a time are checked
    for repeats (a duplicate is always inside one list); repeated keys are then compared exactly."""
    n = len(rows.docs)
    if n < 2:
        return
    key = rows.hashes() ^ (rows.list_id.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    starts = np.flatnonzero(np.r_[True, rows.list_id[1:] != rows.list_id[:-1]])
    bounds = np.r_[starts, n]   # a chunk ends at the first list start at or after each multiple of the size
    cuts = np.unique(np.r_[bounds[np.searchsorted(starts, np.arange(0, n, DUPLICATE_CHUNK))], n])
    repeated = [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if not pd.Index(key[a:b]).is_unique]
    if not repeated:  # the usual case
        return
    cand = np.concatenate([a + np.flatnonzero(pd.Index(key[a:b]).duplicated(keep=False)) for a, b in repeated])
    dup = pd.DataFrame({"l": rows.list_id[cand], "d": rows.docs[cand]}).duplicated(keep="first").to_numpy()
    if not dup.any():  # equal hashes of different ids
        return
    if duplicates == "error":
        i = cand[np.argmax(dup)]
        rid, tid = divmod(int(rows.list_id[i]), topics.n)
        raise ValueError(f"run {rows.run_ids[rid]!r} retrieves document {rows.docs[i]!r} more "
                         f"than once for topic {topics.topics[tid]!r} (pass duplicates='keep_first' to "
                         "keep the highest-ranked copy)")
    keep = np.ones(n, dtype=bool)
    keep[cand[dup]] = False
    rows.select(keep)


def qrels_row_of(rows: RankedRows, keys: TopicKeys, sel: np.ndarray | None = None) -> np.ndarray:
    """For every run row (or the rows ``sel`` selects), the qrels row that judges its (topic,
    document), or -1 (unjudged). The rows' id hashes are looked up among the judged documents'
    (a table of integers that fits in cache), and every hit is confirmed by comparing the ids;
    rows are taken a million at a time, so the temporaries stay small."""
    docs, list_id, hashes = ((rows.docs, rows.list_id, rows.hashes()) if sel is None else
                             (rows.docs[sel], rows.list_id[sel], rows.hashes()[sel]))
    q_doc, q_docs = pd.factorize(keys.doc)
    q_docs = np.asarray(q_docs, dtype=object)
    q_hash = pd.Index(np.fromiter(map(hash, q_docs), dtype=np.int64, count=len(q_docs)).view(np.uint64))
    by_hash = q_hash.is_unique   # else two judged ids share a hash: look the ids up themselves
    q_pair = pd.Index(keys.tcode.astype(np.int64) * len(q_docs) + q_doc)
    out = np.full(len(docs), -1, dtype=np.int64)
    for a in range(0, len(docs), QRELS_CHUNK):
        b = min(len(docs), a + QRELS_CHUNK)
        if by_hash:
            row_doc = q_hash.get_indexer(hashes[a:b])
            hit = np.flatnonzero(row_doc >= 0)
            row_doc[hit[docs[a:b][hit] != q_docs[row_doc[hit]]]] = -1
        else:
            row_doc = pd.Index(q_docs).get_indexer(docs[a:b])
        ok = np.flatnonzero(row_doc >= 0)
        if len(ok):
            out[a + ok] = q_pair.get_indexer(list_id[a:b][ok] % keys.n * len(q_docs) + row_doc[ok])
    return out
