"""Judgment groups: trec_eval's ``-R qrels_jg`` measures, any trec_eval measure averaged over the
assessors of a topic (trec_eval 10, ``form_res_rels_jg.c``, ``m_map_avgjg.c``, ``m_P_avgjg.c``,
``m_Rprec_mult_avgjg.c``).

A topic's qrels come in several judgment groups (one per assessor, or per assessor and time). The
ranked list is scored against every group's qrels as if each were the only qrels (its own ``R``,
its own unjudged documents), and the scores are averaged over the topic's groups: trec_eval's
``map_avgjg`` is ``AP``, ``P_avgjg_K`` is ``P@K`` and ``Rprec_mult_avgjg_x`` is ``Rprec(mult=x)``
so averaged; :func:`evaluate_groups` averages any measure of :mod:`.kernels` the same way. A group
that judges nothing relevant scores 0 and still counts in the average, as in trec_eval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .kernels import evaluate_levels
from .lists import level_histogram, level_lists, relevance_values
from .ranking import Ranked

__all__ = ["evaluate_groups", "judgment_group_scores", "tidy_scores"]


def evaluate_groups(qrels_jg: pd.DataFrame, ranked: Ranked, topics: list[str], measures, *, rel: int = 1,
                    judged_only: bool = False) -> dict[str, np.ndarray]:
    """Score ranked lists against every judgment group of their topic and average over groups.

    Parameters
    ----------
    qrels_jg : pandas.DataFrame
        ``query_id``, ``jg``, ``doc_id``, ``relevance`` (:func:`helpers.io.judgment_groups.read_qrels_jg`).
    ranked : Ranked
        The results of ``topics`` in trec_eval's order (:func:`.ranking.rank_results`).
    topics : list of str
    measures : list of str or MeasureSpec
        Engine names of :mod:`.kernels` (``"AP"``, ``"P@10"``, ``"Rprec(mult=0.2)"``).
    rel : int
        trec_eval ``-l``.
    judged_only : bool
        trec_eval ``-J`` (each group drops the documents it did not judge).

    Returns
    -------
    dict of str to numpy.ndarray
        Per measure (canonical label), one value per topic: the mean over its judgment groups
        (groups in byte order of their ids, summed in that order).
    """
    q_topic = pd.Index(topics).get_indexer(qrels_jg["query_id"].to_numpy(dtype=object))
    sel = q_topic >= 0
    frame = pd.DataFrame({"t": q_topic[sel], "jg": qrels_jg["jg"].to_numpy(dtype=object)[sel],
                          "doc": qrels_jg["doc_id"].to_numpy(dtype=object)[sel],
                          "level": qrels_jg["relevance"].to_numpy(dtype=np.int64)[sel]})
    groups = frame[["t", "jg"]].drop_duplicates().sort_values(["t", "jg"], kind="stable").reset_index(drop=True)
    n_groups = np.bincount(groups["t"].to_numpy(), minlength=len(topics))
    gid = pd.MultiIndex.from_frame(groups).get_indexer(pd.MultiIndex.from_frame(frame[["t", "jg"]]))
    # every ranked row once per judgment group of its topic
    reps = n_groups[ranked.topic]
    row = np.repeat(np.arange(len(ranked.topic)), reps)
    first_group = np.concatenate([[0], np.cumsum(n_groups)[:-1]]) if len(topics) else np.zeros(0, dtype=np.int64)
    offset = np.arange(len(row)) - np.repeat(np.cumsum(reps) - reps, reps)
    r_group = first_group[ranked.topic[row]] + offset
    codes, _ = pd.factorize(np.concatenate([frame["doc"].to_numpy(dtype=object), ranked.doc[row]]))
    n_docs = int(codes.max()) + 1 if len(codes) else 1
    q_key = gid.astype(np.int64) * n_docs + codes[: len(frame)]
    r_key = r_group.astype(np.int64) * n_docs + codes[len(frame):]
    hit = pd.Index(q_key).get_indexer(r_key) if len(q_key) else np.full(len(r_key), -1)
    levels = frame["level"].to_numpy()
    values = relevance_values(np.append(levels, 0)[hit], hit >= 0)
    hist = level_histogram(gid.astype(np.int64), levels, len(groups))
    lists = level_lists(r_group, ranked.pos[row], values, len(groups), np.arange(len(groups)), hist,
                        judged_only=judged_only)
    scores = evaluate_levels(lists, measures, rel=rel)
    out = {}
    for label, per_group in scores.items():
        # trec_eval adds the groups of a topic in order, then divides when there is more than one
        total = np.zeros(len(topics))
        for k in range(int(n_groups.max()) if len(topics) else 0):
            has = n_groups > k
            total[has] += per_group[first_group[has] + k]
        out[label] = np.where(n_groups > 1, total / np.maximum(n_groups, 1), total)
    return out


def _run_frames(run: pd.DataFrame):
    """(run_id, frame) pairs of a run table with ``query_id, doc_id, score`` and maybe ``run_id``."""
    missing = [c for c in ("query_id", "doc_id", "score") if c not in run.columns]
    if missing:
        raise ValueError(f"run needs the columns query_id, doc_id and score; missing {missing}")
    if "run_id" not in run.columns:
        return [("run", run)]
    return [(str(rid), g) for rid, g in run.groupby("run_id", sort=False)]


def tidy_scores(per_run: list[tuple[str, list[str], dict[str, np.ndarray]]]) -> pd.DataFrame:
    """``run_id, query_id, measure, value`` rows from (run, topics, {measure: values}) triples."""
    rows = [(rid, t, label, float(v)) for rid, topics, scores in per_run for label, values in scores.items()
            for t, v in zip(topics, values)]
    out = pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "value"])
    return out.astype({"run_id": "str", "query_id": "str", "measure": "str"})


def judgment_group_scores(qrels_jg: pd.DataFrame, run: pd.DataFrame, measures, *, rel: int = 1) -> pd.DataFrame:
    """Any trec_eval measure averaged over the judgment groups of each topic, for one or many runs.

    Parameters
    ----------
    qrels_jg : pandas.DataFrame
        ``query_id``, ``jg``, ``doc_id``, ``relevance`` (:func:`helpers.io.readers.read_qrels_jg`).
    run : pandas.DataFrame
        ``query_id``, ``doc_id``, ``score`` and optionally ``run_id``; ranked as trec_eval ranks
        (decreasing score, ties by decreasing document id).
    measures : list of str
        Engine names of :func:`.kernels.evaluate_levels` (``"AP"`` is trec_eval's ``map_avgjg``,
        ``"P@10"`` its ``P_avgjg_10``, ``"Rprec(mult=0.2)"`` its ``Rprec_mult_avgjg_0.20``).
    rel : int
        Relevance threshold (trec_eval ``-l``).

    Returns
    -------
    pandas.DataFrame
        ``run_id, query_id, measure, value`` for every judged topic the run answered (trec_eval's
        topics, in byte order of their ids).
    """
    from .ranking import rank_results

    per_run = []
    for rid, frame in _run_frames(run):
        answered = set(frame["query_id"].astype(str))
        topics = sorted(t for t in pd.unique(qrels_jg["query_id"].astype(str)) if t in answered)
        ranked = rank_results(frame.astype({"query_id": "str", "doc_id": "str"}), topics)
        per_run.append((rid, topics, evaluate_groups(qrels_jg, ranked, topics, measures, rel=rel)))
    return tidy_scores(per_run)
