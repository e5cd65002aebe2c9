"""The public multi-assessor pilot of notebook 06: TREC DL 2019 passage with its re-annotation.

:func:`dl19_pilot` returns the ratings and runs that :func:`helpers.design.scores_by_assessor`
reads, and the counts that say what was used (:func:`helpers.findings.design.pilot_note` words
them). What the data are (Parry et al., SIGIR 2025, main round, as
:func:`helpers.data.datasets.load_ratings` ``("dl19-main", include_nist=True)`` gives it):

* the re-annotators labelled 4,511 of the 9,260 passages NIST judged on the 43 topics, each item
  by one pair of annotators (four pairs, each on its own topics; one topic has items of all four
  pairs, and 18 items of it only one label);
* NIST's label is joined on exactly those items; NIST's labels of the other passages are **not
  used**: a passage outside the re-annotated items is unjudged for every judgment set, NIST's
  included, so it counts as non-relevant (the engine's convention);
* per item the pair's labels become judgment sets ``R1`` and ``R2`` (the lower annotator id
  first, :func:`helpers.design.judgment_sets`) beside ``NIST``: three judgment sets per topic,
  read as assessors nested in topics (``s x (a:t)``), although each pair judged 8 to 14 topics.
"""

from __future__ import annotations

import pandas as pd

from .scores import judgment_sets

__all__ = ["dl19_pilot"]


def dl19_pilot() -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """DL-19's judgment sets (``NIST``, ``R1``, ``R2``), the official runs on their topics, and counts.

    Returns
    -------
    ratings : pandas.DataFrame
        ``query_id, doc_id, assessor, rating`` with assessors ``NIST``, ``R1``, ``R2``.
    runs : pandas.DataFrame
        The 37 official runs, restricted to the rated topics.
    counts : dict
        ``topics``; ``nist_judged`` (NIST's judged passages on these topics), ``reannotated``
        (items with a re-annotator's label), ``one_label`` (of them, items with one re-annotator's
        label only), ``pairs`` (annotator pairs) and ``topics_per_pair`` (min, max over the pairs
        that own their topics).
    """
    from ..data import datasets

    raw = datasets.load_ratings("dl19-main", include_nist=True)
    ratings = judgment_sets(raw, keep=("NIST",))
    runs = datasets.load_runs("dl19")
    topics = set(ratings["query_id"])
    runs = runs[runs["query_id"].isin(topics)]
    nist = datasets.load_qrels("dl19-nist")
    others = raw[raw["assessor"] != "NIST"]
    labels = others.groupby(["query_id", "doc_id"])["assessor"].nunique()
    by_topic = others.groupby("query_id")["assessor"].unique()
    pairs = by_topic[by_topic.map(len) == 2].map(lambda a: tuple(sorted(a)))
    per_pair = pairs.value_counts()
    counts = {"topics": len(topics), "nist_judged": int(nist["query_id"].isin(topics).sum()),
              "reannotated": len(labels), "one_label": int((labels == 1).sum()),
              "pairs": int(others["assessor"].nunique() // 2),
              "topics_per_pair": (int(per_pair.min()), int(per_pair.max())) if len(per_pair) else (0, 0)}
    return ratings, runs, counts
