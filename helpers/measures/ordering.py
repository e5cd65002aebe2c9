"""Does a TREC run's rank column order its lists as trec_eval would? Said once, with the numbers.

A TREC run line carries both a rank and a score. NTCIREVAL reads a ranked list as given, and this
engine's default convention (``"ntcireval"``) follows the rank column (ties by score, then by
decreasing doc id). trec_eval ignores the rank column: it orders by decreasing score, compared
as a C ``float``, and breaks ties by decreasing doc id (``strcmp``). Where the two orders differ,
AP, RR, P@k and every other rank-sensitive measure can differ from trec_eval's and ir_measures'
for the same files. On the 37 official TREC DL-19 passage runs they differ in 839 of 1,591 lists
(33 runs): never against the scores, always in how tied scores are ordered -- enough to move
AP(rel=2) on 18 runs and RR(rel=2) by up to 0.0116.

:func:`check_rank_order` counts such lists (vectorised: O(rows), plus a sort only when a file is
not already in rank order); :meth:`RankOrderCheck.note` words the finding in one line for the
Python API, the command line or a notebook's input summary; :func:`order_note` does both for a
run frame. :func:`helpers.measures.evaluate` issues :class:`RankOrderWarning` once per call when
the default convention ordered a run whose rank column disagrees with trec_eval's order
(``conventions="ntcireval"`` or ``order_by=`` chosen explicitly keep the order and silence it);
``python -m helpers evaluate`` prints it as one stderr line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .notices import warn_caller

__all__ = ["RankOrderWarning", "RankOrderCheck", "check_rank_order", "order_note", "warn_rank_order"]


class RankOrderWarning(UserWarning):
    """A run's rank column orders some lists differently from trec_eval's score order, and the
    default convention followed the rank column. ``check`` holds the counts
    (:class:`RankOrderCheck`)."""

    def __init__(self, message: str, check: "RankOrderCheck | None" = None):
        super().__init__(message)
        self.check = check


#: How to get trec_eval's numbers, by where the note is read.
_HOW = {
    "api": "For trec_eval's numbers pass conventions='trec_eval' (or order_by='score'); "
           "conventions='ntcireval' keeps the rank order and silences this note.",
    "command": "For trec_eval's numbers add --conventions trec_eval (or --order trec_eval); "
               "--conventions ntcireval keeps the rank order and silences this note.",
    "notebook": "The notebooks follow the rank column (NTCIREVAL's convention); "
                "conventions='trec_eval' in helpers.measures.evaluate gives trec_eval's numbers.",
}


@dataclass(frozen=True)
class RankOrderCheck:
    """Ranked lists (one per run and topic) whose rank column and trec_eval's order disagree.

    ``lists``, ``runs``, ``topics``: what was checked. ``against_scores``: lists where a document
    is ranked above one with a higher score. ``tied_only``: lists where the scores agree with the
    ranks but tied scores are ranked otherwise than by decreasing doc id. ``runs_affected`` and
    ``topics_affected`` count the runs and topics with at least one such list; ``examples`` names
    up to three of them as ``(run_id, query_id)``.
    """

    lists: int
    runs: int
    topics: int
    against_scores: int
    tied_only: int
    runs_affected: int
    topics_affected: int
    examples: tuple[tuple[str, str], ...] = ()

    @property
    def disagree(self) -> int:
        """Lists whose rank order is not trec_eval's order."""
        return self.against_scores + self.tied_only

    def note(self, where: str = "api") -> str:
        """One line (a few short sentences) saying how many lists, topics and runs disagree, how
        each convention orders them and how to get trec_eval's numbers; '' when none disagree.

        ``where``: ``"api"`` (Python keywords), ``"command"`` (``python -m helpers evaluate``
        flags) or ``"notebook"`` (an input summary).
        """
        if where not in _HOW:
            raise ValueError(f"where must be one of {tuple(_HOW)}, got {where!r}")
        if not self.disagree:
            return ""
        kinds = []
        if self.against_scores:
            kinds.append(f"{self.against_scores:,} rank a document above one with a higher score")
        if self.tied_only:
            kinds.append(f"{self.tied_only:,} order tied scores otherwise than by decreasing doc id")
        first = f"; first: run {self.examples[0][0]}, topic {self.examples[0][1]}" if self.examples else ""
        return (f"The run's rank column and trec_eval's score order disagree in {self.disagree:,} of "
                f"{self.lists:,} ranked lists ({self.topics_affected:,} of {self.topics:,} topics, "
                f"{self.runs_affected:,} of {self.runs:,} runs{first}): {' and '.join(kinds)}. "
                "The ntcireval convention (the default) follows the rank column, ties by score, then doc id "
                "descending. trec_eval ignores the rank column: decreasing score as a C float, ties by doc id "
                "descending. So AP, RR and other measures can differ from trec_eval's and ir_measures' "
                f"here. {_HOW[where]}")


def _list_codes(run: pd.DataFrame, topics) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows to check (positions in ``run``), the list code of each, and the run and topic ids
    (codes: ``run * n_topics + topic``). Ids are read once per block of equal (run, topic), as a
    TREC file lists each ranked list in one block; ids are compared as strings."""
    qa = run["query_id"].to_numpy(dtype=object)
    ra = run["run_id"].to_numpy(dtype=object) if "run_id" in run.columns else None
    n = len(qa)
    try:
        change = np.ones(n, dtype=bool)
        change[1:] = qa[1:] != qa[:-1]
        if ra is not None:
            change[1:] |= ra[1:] != ra[:-1]
    except (TypeError, ValueError):  # pd.NA cannot be compared: every row its own block
        change = np.ones(n, dtype=bool)
    starts = np.flatnonzero(change)
    lengths = np.diff(np.append(starts, n))
    qb = pd.Series(qa[starts], dtype=object)
    rb = pd.Series(ra[starts] if ra is not None else np.full(len(starts), "run", dtype=object), dtype=object)
    ok_b = np.array(qb.notna() & rb.notna(), dtype=bool)
    qb, rb = qb.where(ok_b, "").astype(str), rb.where(ok_b, "").astype(str)
    if topics is not None:
        ok_b = ok_b & np.array(qb.isin(pd.Index([str(t) for t in topics])), dtype=bool)
    q_code, q_names = pd.factorize(qb[ok_b])
    r_code, r_names = pd.factorize(rb[ok_b])
    rows = np.flatnonzero(np.repeat(ok_b, lengths))
    lists = np.repeat(r_code.astype(np.int64) * max(len(q_names), 1) + q_code, lengths[ok_b])
    return rows, lists, np.asarray(r_names, dtype=object), np.asarray(q_names, dtype=object)


def check_rank_order(run: pd.DataFrame, *, topics=None) -> "RankOrderCheck | None":
    """Count the ranked lists of ``run`` whose rank column orders documents otherwise than
    trec_eval would (decreasing score as a C ``float``, ties by decreasing doc id).

    Parameters
    ----------
    run : pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``rank``, ``score`` and optionally ``run_id`` (as
        :func:`helpers.io.trec.read_run` and :func:`helpers.measures.evaluate` take them). Rows
        with a rank or score that is not a number, or a missing id, are left out (the evaluation
        refuses them with their row).
    topics : iterable of str, optional
        Only lists of these topics are checked (e.g. the qrels' topics: the others are not
        evaluated).

    Returns
    -------
    RankOrderCheck or None
        None when the run lacks a ``rank`` or a ``score`` column (there is nothing to disagree).

    Notes
    -----
    The engine's rank order is increasing rank, ties by decreasing score, then decreasing doc id
    (:func:`helpers.measures.lists.run_side`); a list agrees when that order is trec_eval's
    (trec_eval 10, ``form_res_rels.c``: ``sim`` descending as a C ``float``, ``docno``
    descending by ``strcmp``). Consecutive pairs of the rank order are compared, so the cost is
    O(rows) and one sort of the rows (of the ``topics`` only).
    """
    if not isinstance(run, pd.DataFrame) or not {"rank", "score", "query_id", "doc_id"} <= set(run.columns):
        return None
    idx, lists, run_names, topic_names = _list_codes(run, topics)
    rank = pd.to_numeric(run["rank"], errors="coerce").to_numpy(dtype=float)[idx]
    score = pd.to_numeric(run["score"], errors="coerce").to_numpy(dtype=float)[idx]
    docs = run["doc_id"].to_numpy(dtype=object)[idx]
    ok = np.isfinite(rank) & ~np.isnan(score) & ~pd.isna(docs)
    if not ok.all():
        lists, rank, score, docs = lists[ok], rank[ok], score[ok], docs[ok]
    order = _rank_order(lists, rank, score, docs)
    if order is not None:
        lists, score, docs = lists[order], score[order], docs[order]
    with np.errstate(over="ignore"):
        score = score.astype(np.float32).astype(np.float64)  # trec_eval's float sim
    same = lists[1:] == lists[:-1]
    higher_below = same & (score[1:] > score[:-1])
    tied = np.flatnonzero(same & (score[1:] == score[:-1]))
    tie_wrong = np.zeros(len(same), dtype=bool)
    if len(tied):
        a, b = docs[tied], docs[tied + 1]
        if pd.api.types.infer_dtype(docs, skipna=False) != "string":  # ids compared as strings
            a, b = (np.array([str(x) for x in v], dtype=object) for v in (a, b))
        tie_wrong[tied] = (a < b).astype(bool)
    bad_against = np.unique(lists[:-1][higher_below])
    bad_tied = np.setdiff1d(np.unique(lists[:-1][tie_wrong]), bad_against)
    bad = np.union1d(bad_against, bad_tied)
    n_q = max(len(topic_names), 1)
    all_lists = np.unique(lists)
    return RankOrderCheck(
        lists=len(all_lists), runs=len(np.unique(all_lists // n_q)), topics=len(np.unique(all_lists % n_q)),
        against_scores=len(bad_against), tied_only=len(bad_tied),
        runs_affected=len(np.unique(bad // n_q)), topics_affected=len(np.unique(bad % n_q)),
        examples=tuple((str(run_names[k // n_q]), str(topic_names[k % n_q])) for k in bad[:3]))


def _rank_order(lists: np.ndarray, rank: np.ndarray, score: np.ndarray, docs: np.ndarray) -> "np.ndarray | None":
    """Permutation putting rows in the engine's rank order (lists contiguous; increasing rank,
    ties by decreasing score, then decreasing doc id), or None when they already are (checked
    in O(n): each list one block, ranks strictly increasing within it)."""
    n = len(lists)
    if n < 2:
        return None
    same = lists[1:] == lists[:-1]
    if n - int(same.sum()) == len(np.unique(lists)) and not (same & (rank[1:] <= rank[:-1])).any():
        return None
    lo, hi = (rank.min(), rank.max()) if n else (0.0, 0.0)
    span = hi - lo + 1
    if np.array_equal(rank, np.round(rank)) and span * (int(lists.max()) + 1) < 2.0 ** 62:
        order = np.argsort(lists * np.int64(span) + (rank - lo).astype(np.int64), kind="stable")
    else:
        order = np.lexsort((rank, lists))
    lo_, r_ = lists[order], rank[order]
    if not ((lo_[1:] == lo_[:-1]) & (r_[1:] == r_[:-1])).any():
        return order
    # equal ranks in a list: the engine orders them by score, then by doc id, both decreasing
    doc_code = pd.factorize(pd.Series(docs, dtype=object).astype(str), sort=True)[0]
    return np.lexsort((-doc_code, -score, rank, lists))


def order_note(run: pd.DataFrame, *, topics=None, where: str = "notebook") -> str:
    """The one-line note of :meth:`RankOrderCheck.note` for ``run`` ('' when its rank column
    agrees with trec_eval's order, or it has no rank or no score column): what a notebook prints
    in its input summary. ``topics`` and ``where`` as for :func:`check_rank_order` and
    :meth:`RankOrderCheck.note`.

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "rank": [1, 2], "score": [1.0, 1.0]})
    >>> order_note(run)[:70]
    "The run's rank column and trec_eval's score order disagree in 1 of 1 "
    """
    check = check_rank_order(run, topics=topics)
    return "" if check is None else check.note(where)


def warn_rank_order(run: pd.DataFrame, topics=None) -> "RankOrderCheck | None":
    """Issue one :class:`RankOrderWarning` (attributed to the caller's line) when ``run``'s rank
    column disagrees with trec_eval's order on lists of ``topics``; return the check. Called by
    :func:`helpers.measures.evaluate` when the default convention orders by the rank column."""
    check = check_rank_order(run, topics=topics)
    if check is not None and check.disagree:
        warn_caller(RankOrderWarning(check.note("api"), check), RankOrderWarning)  # an instance keeps .check
    return check
