"""trec_eval's measures inside :func:`helpers.measures.evaluate`: from the engine's aligned rows
(a run matched to qrels once) to :class:`~helpers.measures.treceval.lists.LevelLists`.

The engine's :class:`~helpers.measures.adhoc.Alignment` already ranks every run and finds the
qrels row of every retrieved document; this module turns that into trec_eval's relevance values
(the qrels level, -2 for a negative level, -1 when not judged) and scores the trec_eval families
with :func:`~helpers.measures.treceval.kernels.evaluate_levels`. Conventions inside ``evaluate``:
the run order is ``evaluate``'s ``order_by``; ``condensed=True`` is trec_eval's ``-J``; a topic the
run did not answer is scored as an empty ranking, as trec_eval ``-c`` scores it (utility 0); and a
topic without relevant documents keeps trec_eval's value (``no_relevant`` only decides whether it
is reported).
"""

from __future__ import annotations

import numpy as np

from .kernels import evaluate_levels
from .lists import level_histogram, level_lists, relevance_values

__all__ = ["score_aligned_rows"]


def score_aligned_rows(list_id: np.ndarray, pos: np.ndarray, qrow: np.ndarray, q_topic: np.ndarray,
                       q_level: np.ndarray | None, n_lists: int, list_topic: np.ndarray, n_topics: int,
                       specs, *, judged_only: bool = False) -> dict[str, np.ndarray]:
    """Score trec_eval measures on ranked rows aligned with qrels.

    Parameters
    ----------
    list_id, pos : numpy.ndarray of int
        List (run x topic) and 0-based rank of every retrieved row.
    qrow : numpy.ndarray of int
        The qrels row that judges each retrieved row, -1 if none.
    q_topic, q_level : numpy.ndarray
        Topic code and relevance level of every qrels row; ``q_level`` None when the qrels hold
        real-valued gains (refused: trec_eval's measures read levels).
    n_lists, list_topic, n_topics
        Number of lists, topic of each list, number of topics.
    specs : list of MeasureSpec
        trec_eval families (and MSnDCG/RBP with ``gains=``).
    judged_only : bool
        trec_eval ``-J`` (the engine's ``condensed=True``).

    Raises
    ------
    ValueError
        When the qrels hold gains instead of levels.
    """
    if q_level is None:
        raise ValueError(f"{specs[0]}: trec_eval's measures read relevance levels, but the qrels hold real-valued "
                         "gains (a 'gain' column); pass levels in a 'relevance' column")
    q_level = np.asarray(q_level, dtype=np.int64)
    values = relevance_values(np.append(q_level, 0)[qrow], qrow >= 0)
    hist = level_histogram(np.asarray(q_topic, dtype=np.int64), q_level, n_topics)
    answered = np.bincount(np.asarray(list_id, dtype=np.int64), minlength=n_lists) > 0
    lists = level_lists(list_id, pos, values, n_lists, list_topic, hist, judged_only=judged_only)
    scores = evaluate_levels(lists, specs)
    for s in specs:
        if s.name == "utility":    # trec_eval -c resets utility on an unanswered topic
            scores[str(s)][~answered] = 0.0
    return scores
