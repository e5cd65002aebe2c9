"""A results file ranked as trec_eval ranks it and matched with a qrels file, straight from their
bytes (:class:`~helpers.io.trec_eval_files.ResultsFile`, :class:`~helpers.io.trec_eval_files.QrelsFile`),
with numpy only: the path of ``python -m helpers trec_eval -R qrels``.

trec_eval (``form_res_rels.c``) sorts a topic's retrieved documents by decreasing score (C
``double``; ``-0.0`` equals ``0.0``) and breaks ties by decreasing document id (``strcmp``, byte
order), ignoring the rank field; ``-M n`` keeps the first ``n``; a document retrieved twice among
them, or judged twice for the topic, stops it ("duplicate docs"), as it stops this reader (with
both lines named; :func:`refuse_repeated_results` is the same check for ``-R qrels_jg`` and
``prefs``); ``-J`` then drops the documents without a judgment. Only the lines of the
evaluated topics are read beyond their fields (their scores parsed, their documents sorted).
"""

from __future__ import annotations

import numpy as np

from ...io.trec_eval_files import QrelsFile, ResultsFile
from .lists import LevelLists, level_histogram, level_lists, relevance_values

__all__ = ["topic_codes", "ranked_lists", "refuse_repeated_results"]


def topic_codes(ids: list, topics: list) -> np.ndarray:
    """Position of each id in ``topics`` (-1 when absent), as int64."""
    index = {t: i for i, t in enumerate(topics)}
    return np.fromiter(map(index.get, ids, [-1] * len(ids)), dtype=np.int64, count=len(ids)) if ids else \
        np.zeros(0, dtype=np.int64)


def _byte_codes(items: list) -> np.ndarray:
    """Codes of byte strings in byte order (equal strings, equal codes)."""
    if not items:
        return np.zeros(0, dtype=np.int64)
    _, code = np.unique(np.array(items, dtype=bytes), return_inverse=True)
    return code.ravel().astype(np.int64)


def _refuse_repeat(path: str, what: str, lines, rows_a: np.ndarray, rows_b: np.ndarray, key: bytes, topic: bytes):
    a, b = sorted((int(lines.numbers[rows_a]), int(lines.numbers[rows_b])))
    raise ValueError(f"{path}:{b}: expected each document at most once per topic {what}, got doc_id "
                     f"{_text(key)!r} of topic {_text(topic)!r} again (first on line {a}); trec_eval stops there too "
                     "('duplicate docs')")


def _text(ident: bytes) -> str:
    return ident.decode("utf-8", "surrogateescape") if isinstance(ident, bytes) else str(ident)


def _order(tcode: np.ndarray, dcode: np.ndarray, score: np.ndarray, ties: str) -> tuple[np.ndarray, np.ndarray]:
    """trec_eval's order of result rows (topic, decreasing score, document id decreasing or, for the
    preference measures, increasing: ``ties``) and each row's 0-based position in its topic."""
    order = np.lexsort((-dcode if ties == "decreasing" else dcode, -score, tcode))
    t = tcode[order]
    first = np.searchsorted(t, t) if len(t) else np.zeros(0, dtype=np.int64)
    return order, np.arange(len(t)) - first


def refuse_repeated_results(results: ResultsFile, topics: list, tcode: np.ndarray, *, max_ret: int | None = None,
                            ties: str = "decreasing") -> None:
    """Refuse a document retrieved twice among the first ``max_ret`` of an evaluated topic, as
    :func:`ranked_lists` does for ``-R qrels``: the check of the judgment-group and preference
    measures (trec_eval 10's ``form_res_rels_jg.c`` and ``form_prefs_counts.c`` stop with
    "duplicate docs" after ``-M``; the preference measures break score ties by increasing id,
    ``ties="increasing"``, which decides which documents ``-M`` keeps).

    ``tcode``: each results line's position in ``topics`` (-1: not evaluated).

    Raises
    ------
    ValueError
        Naming the file, both lines, the document and the topic.
    """
    rows = np.flatnonzero(tcode >= 0)
    if len(rows) < 2:
        return
    t = tcode[rows]
    dcode = _byte_codes([results.doc[i] for i in rows.tolist()])
    order, pos = _order(t, dcode, results.scores(rows), ties)
    t, dcode, rows = t[order], dcode[order], rows[order]
    if max_ret is not None:
        keep = pos < max(max_ret, 0)
        t, dcode, rows = t[keep], dcode[keep], rows[keep]
    n_codes = int(dcode.max()) + 1 if len(dcode) else 1
    _check_unique(t * n_codes + dcode, rows, results, "in the results", topics, t, n_codes)


def ranked_lists(qrels: QrelsFile, results: ResultsFile, topics: list, *, max_ret: int | None = None,
                 judged_only: bool = False, tcode: np.ndarray | None = None) -> tuple[LevelLists, np.ndarray]:
    """One list per topic of ``topics`` (bytes, the evaluated topics in output order): the ranked
    documents' relevance values and the topic's judged levels.

    Returns
    -------
    (LevelLists, numpy.ndarray of bool)
        The lists, and whether the run answered each topic.

    Raises
    ------
    ValueError
        For a score that is not a number on an evaluated topic's line, or a document retrieved
        (among the first ``max_ret``) or judged twice for an evaluated topic, naming file and lines.

    ``tcode``: each results line's position in ``topics`` (-1: not evaluated), when the caller has it.
    """
    n_topics = len(topics)
    tcode = topic_codes(results.query, topics) if tcode is None else tcode
    rows = np.flatnonzero(tcode >= 0)
    tcode = tcode[rows]
    score = results.scores(rows)
    docs = [results.doc[i] for i in rows.tolist()]
    qt = topic_codes(qrels.query, topics)
    qrows = np.flatnonzero(qt >= 0)
    qt = qt[qrows]
    qdocs = [qrels.doc[i] for i in qrows.tolist()]
    codes = _byte_codes(qdocs + docs)          # one code space for judged and retrieved documents
    qcode, dcode = codes[: len(qdocs)], codes[len(qdocs):]
    # trec_eval's order: topic, decreasing score, decreasing document id
    order, pos = _order(tcode, dcode, score, "decreasing")
    tcode, dcode, rows = tcode[order], dcode[order], rows[order]
    answered = np.bincount(tcode, minlength=n_topics) > 0
    if max_ret is not None:
        keep = pos < max(max_ret, 0)
        tcode, dcode, rows, pos = tcode[keep], dcode[keep], rows[keep], pos[keep]
    n_codes = int(codes.max()) + 1 if len(codes) else 1
    r_key = tcode * n_codes + dcode
    _check_unique(r_key, rows, results, "in the results", topics, tcode, n_codes)
    q_key = qt * n_codes + qcode
    _check_unique(q_key, qrows, qrels, "in the qrels", topics, qt, n_codes)
    q_sorted = np.argsort(q_key, kind="stable")
    at = np.searchsorted(q_key[q_sorted], r_key)
    at = np.minimum(at, max(len(q_key) - 1, 0))
    hit = (q_key[q_sorted][at] == r_key) if len(q_key) else np.zeros(len(r_key), dtype=bool)
    q_level = qrels.rel[qrows]
    level = np.where(hit, q_level[q_sorted][at] if len(q_key) else 0, 0)
    values = relevance_values(level, hit)
    hist = level_histogram(qt, q_level, n_topics)
    lists = level_lists(tcode, pos, values, n_topics, np.arange(n_topics), hist, judged_only=judged_only)
    return lists, answered


def _check_unique(key: np.ndarray, rows: np.ndarray, source, what: str, topics: list, tcode: np.ndarray,
                  n_codes: int) -> None:
    if len(key) < 2:
        return
    order = np.argsort(key, kind="stable")
    same = key[order][1:] == key[order][:-1]
    if same.any():
        j = int(np.flatnonzero(same)[0])
        a, b = order[j], order[j + 1]
        lines = source.lines
        doc = (source.doc[int(rows[a])])
        _refuse_repeat(source.path, what, lines, rows[a], rows[b], doc, topics[int(tcode[a])])
