"""Results ranked as trec_eval ranks them, matched with qrels, as :class:`LevelLists`.

trec_eval (``form_res_rels.c``) sorts a topic's retrieved documents by decreasing score (C
``double``; trec_eval 9 and pytrec_eval compared ``float``) and breaks ties by decreasing document
id (byte order), ignoring the rank field; ``-M n`` keeps the first ``n``; ``-J`` then drops the
documents without a judgment. Its preference measures break ties by *increasing* document id
(``form_prefs_counts.c``). All of it vectorised: one sort of all rows, one join with the qrels.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .lists import LevelLists, level_histogram, level_lists, relevance_values

__all__ = ["Ranked", "rank_results", "level_histogram", "qrels_level_lists"]


class Ranked:
    """Rows of a results frame restricted to some topics, in trec_eval's order.

    Attributes
    ----------
    topic : numpy.ndarray of int
        Position of each row's topic in the topic list given.
    pos : numpy.ndarray of int
        0-based rank within its topic.
    doc : numpy.ndarray of object
        Document ids.
    """

    def __init__(self, topic: np.ndarray, pos: np.ndarray, doc: np.ndarray):
        self.topic, self.pos, self.doc = topic, pos, doc


def rank_results(results: pd.DataFrame, topics: list[str], *, max_ret: int | None = None,
                 ties: str = "decreasing") -> Ranked:
    """Rank the results of ``topics`` as trec_eval does.

    Parameters
    ----------
    results : pandas.DataFrame
        ``query_id``, ``doc_id``, ``score`` (as :func:`helpers.io.trec_eval_files.read_results`).
    topics : list of str
        The topics to keep, in output order.
    max_ret : int, optional
        trec_eval ``-M``: keep the first ``max_ret`` documents of each topic (0 or less: none).
    ties : {"decreasing", "increasing"}
        Order of document ids among equal scores (the preference measures use increasing).

    Raises
    ------
    ValueError
        For a document ranked twice for a topic among the first ``max_ret`` (trec_eval stops:
        "duplicate docs").
    """
    index = pd.Index(topics)
    tcode = index.get_indexer(results["query_id"].to_numpy(dtype=object))
    keep = tcode >= 0
    tcode = tcode[keep]
    docs = results["doc_id"].to_numpy(dtype=object)[keep]
    score = results["score"].to_numpy(dtype=float)[keep]
    dcode, uniques = pd.factorize(docs, sort=True)
    dkey = -dcode if ties == "decreasing" else dcode
    order = np.lexsort((dkey, -score, tcode))
    tcode, docs = tcode[order], docs[order]
    first = np.searchsorted(tcode, np.arange(len(topics)))
    pos = np.arange(len(tcode)) - first[tcode] if len(tcode) else np.zeros(0, dtype=np.int64)
    dcode = dcode[order]
    if max_ret is not None:
        sel = pos < max(max_ret, 0)
        tcode, pos, docs, dcode = tcode[sel], pos[sel], docs[sel], dcode[sel]
    _refuse_repeats(tcode, dcode, docs, topics)
    return Ranked(tcode.astype(np.int64), pos.astype(np.int64), docs)


def _refuse_repeats(tcode: np.ndarray, dcode: np.ndarray, docs: np.ndarray, topics: list) -> None:
    """A document ranked twice for a topic (among the first ``max_ret``) has no rank of its own:
    trec_eval stops ("duplicate docs"); so does this."""
    if len(tcode) < 2:
        return
    key = tcode.astype(np.int64) * (int(dcode.max()) + 1) + dcode
    repeated = pd.Index(key).duplicated()
    if repeated.any():
        i = int(np.flatnonzero(repeated)[0])
        raise ValueError(f"run: expected each document at most once per topic, got doc_id {docs[i]!r} of topic "
                         f"{topics[int(tcode[i])]!r} {int((key == key[i]).sum())} times; trec_eval stops there too "
                         "('duplicate docs')")


def qrels_level_lists(qrels: pd.DataFrame, ranked: Ranked, topics: list[str], *,
                      judged_only: bool = False) -> LevelLists:
    """One list per topic of ``topics``: the ranked documents' relevance values and the topic's
    judged levels, from qrels with columns ``query_id``, ``doc_id``, ``relevance``."""
    q_topic = pd.Index(topics).get_indexer(qrels["query_id"].to_numpy(dtype=object))
    sel = q_topic >= 0
    q_topic = q_topic[sel]
    q_doc = qrels["doc_id"].to_numpy(dtype=object)[sel]
    q_level = qrels["relevance"].to_numpy(dtype=np.int64)[sel]
    codes, _ = pd.factorize(np.concatenate([q_doc, ranked.doc]))
    n_docs = int(codes.max()) + 1 if len(codes) else 1
    q_key = q_topic.astype(np.int64) * n_docs + codes[: len(q_doc)]
    r_key = ranked.topic * n_docs + codes[len(q_doc):]
    hit = pd.Index(q_key).get_indexer(r_key) if len(q_key) else np.full(len(r_key), -1)
    values = relevance_values(np.append(q_level, 0)[hit], hit >= 0)
    hist = level_histogram(q_topic.astype(np.int64), q_level, len(topics))
    return level_lists(ranked.topic, ranked.pos, values, len(topics), np.arange(len(topics)), hist,
                       judged_only=judged_only)
