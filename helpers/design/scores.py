"""Multi-assessor pilots as G-study inputs: one measure per (system, topic, assessor) through the
measure engine, and the check of GT's average over assessors for measures not linear in gains.

Inputs are the per-assessor ratings every reader of :mod:`helpers.io.readers` gives
(``query_id, doc_id, assessor, rating``): one qrels file per assessor
(``read_ratings(..., layout="qrels")``), long ratings (``layout="long"``), trec_eval's judgment
groups (``layout="qrels_jg"`` or :func:`helpers.io.readers.judgment_group_ratings`), or a
dataset of :func:`helpers.data.datasets.load_ratings`.

Conventions
-----------
* Each assessor's labels are that assessor's qrels; :func:`helpers.measures.evaluate` scores every
  run against them, so a document the assessor did not judge is non-relevant (the engine's
  convention), unless ``fill`` names an assessor whose label it then takes (e.g. ``"NIST"``), or
  ``common_items=True`` keeps only the items every assessor of the topic judged (the others are
  then unjudged for everyone).  The choice changes the assessor variance: filling from one
  assessor makes the others look like it on the items they skipped.
* A topic without a relevant document for an assessor scores 0 (``no_relevant="zero"``, as
  trec_eval), so that every cell of the design has a score; pass ``no_relevant=`` to change it.
* GT averages a measure over assessors.  For a measure linear in the gains (``MSDCG@k``, ``G``,
  ``RBP`` with a fixed ``gmax``) that average is the measure of the mean gains; for nDCG, AP,
  ERR it is not (the ideal ranking, the number of relevant documents and the stopping
  probabilities change with the gains): :func:`linearity_check` measures the difference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import measures
from ..io import coerce
from ..io.ids import require_columns

__all__ = ["judgment_sets", "scores_by_assessor", "mean_gain_qrels", "linearity_check"]

RATING_COLUMNS = ("query_id", "doc_id", "assessor", "rating")


def _check_ratings(ratings: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(ratings, pd.DataFrame):
        raise ValueError(f"ratings must be a DataFrame with columns {list(RATING_COLUMNS)} (as "
                         f"helpers.io.readers.read_ratings returns), got {type(ratings).__name__}")
    require_columns(ratings, "ratings", list(RATING_COLUMNS))
    dup = ratings.duplicated(["query_id", "doc_id", "assessor"])
    if dup.any():
        r = ratings[dup].iloc[0]
        raise ValueError(f"ratings: assessor {r['assessor']!r} rated topic {r['query_id']!r}, "
                         f"document {r['doc_id']!r} more than once")
    return ratings


def judgment_sets(ratings: pd.DataFrame, *, keep: Sequence[str] = (), n_sets: int = 2,
                  prefix: str = "R") -> pd.DataFrame:
    """Relabel the assessors of each item as judgment sets ``R1..Rn`` (assessors nested in topics).

    When different people judged different items of a topic (DL-19's re-annotation: a pair of
    annotators per topic, other pairs on a few items), the facet "assessor" of the design is a
    judgment set: the first label of every item (assessors in sorted order of their ids) goes
    to ``R1``, the second to ``R2``, and so on.  Assessors in ``keep`` (e.g. ``"NIST"``) keep
    their own id.  Items with fewer than ``n_sets`` other labels leave those sets without a label
    there; labels beyond ``n_sets`` are dropped.  ``attrs["excluded"]`` counts both.
    """
    _check_ratings(ratings)
    if isinstance(n_sets, bool) or not isinstance(n_sets, (int, np.integer)) or n_sets < 1:
        raise ValueError(f"n_sets must be a positive integer, got {n_sets!r}")
    kept = ratings["assessor"].isin(list(keep))
    other = ratings[~kept].sort_values(["query_id", "doc_id", "assessor"], kind="stable").copy()
    pos = other.groupby(["query_id", "doc_id"], sort=False).cumcount().to_numpy()
    items = other.groupby(["query_id", "doc_id"], sort=False).ngroups
    other["assessor"] = [f"{prefix}{i + 1}" for i in pos]
    out = pd.concat([ratings[kept], other[pos < n_sets]], ignore_index=True)
    out = out.sort_values(["query_id", "doc_id", "assessor"], kind="stable").reset_index(drop=True)
    out.attrs = {"excluded": {"labels_beyond_n_sets": int((pos >= n_sets).sum()),
                              "item_sets_without_label": int(n_sets * items - (pos < n_sets).sum())}}
    return out


def _restricted(ratings: pd.DataFrame, fill: str | None, common_items: bool) -> pd.DataFrame:
    """Each assessor's labels after ``fill`` / ``common_items`` (see the module docstring)."""
    if fill is not None and common_items:
        raise ValueError("fill and common_items exclude each other: choose one treatment of "
                         "the items an assessor did not judge")
    df = ratings[list(RATING_COLUMNS)]
    topic_assessors = df.groupby("query_id")["assessor"].nunique()
    if common_items:
        n = df.groupby(["query_id", "doc_id"])["assessor"].transform("nunique")
        df = df[n.to_numpy() == df["query_id"].map(topic_assessors).to_numpy()]
        if df.empty:
            raise ValueError("common_items=True: no item was judged by every assessor of its topic")
    elif fill is not None:
        if fill not in set(df["assessor"]):
            raise ValueError(f"fill={fill!r} is not an assessor of the ratings; assessors: "
                             f"{sorted(map(str, pd.unique(df['assessor'])))[:10]}")
        base = df[df["assessor"] == fill]
        pairs = df[["query_id", "assessor"]].drop_duplicates()
        pairs = pairs[pairs["assessor"] != fill]
        filled = base.drop(columns="assessor").merge(pairs, on="query_id")
        have = df.set_index(["query_id", "doc_id", "assessor"]).index
        new = filled[~filled.set_index(["query_id", "doc_id", "assessor"]).index.isin(have)]
        df = pd.concat([df, new[list(RATING_COLUMNS)]], ignore_index=True)
    return df


def scores_by_assessor(ratings: pd.DataFrame, runs, measure: str, *, fill: str | None = None,
                       common_items: bool = False, no_relevant: str = "zero", **evaluate_kw) -> pd.DataFrame:
    """One measure per (system, topic, assessor): the long input of :func:`g_study`.

    Parameters
    ----------
    ratings : pandas.DataFrame
        ``query_id, doc_id, assessor, rating`` (any reader of :mod:`helpers.io.readers`).
    runs : DataFrame, path, glob or list of paths
        What :func:`helpers.measures.evaluate` accepts.
    measure : str
        One measure name (``"nDCG@10"``, ``"AP(rel=2)"``).
    fill, common_items
        Treatment of the items an assessor did not judge (module docstring).
    no_relevant : str
        Passed to the engine (default ``"zero"``: every topic of every assessor scored).
    **evaluate_kw
        Further options of :func:`helpers.measures.evaluate` (``gains``, ``gmax``, ``depth``...).

    Returns
    -------
    pandas.DataFrame
        ``system, topic, assessor, score``; ``attrs["items"]`` counts the labels used per assessor.
    """
    _check_ratings(ratings)
    if not isinstance(measure, str):
        raise ValueError(f"measure must be one measure name (a str), got {measure!r}")
    df = _restricted(ratings, fill, common_items)
    run = coerce.as_run(runs)
    frames = []
    for assessor, labels in df.groupby("assessor", sort=True):
        qrels = labels[["query_id", "doc_id", "rating"]].rename(columns={"rating": "relevance"})
        # only the assessor's topics: the others are no cell of the design, not a warning
        mine = run[run["query_id"].astype(str).isin(set(qrels["query_id"].astype(str)))]
        res = measures.evaluate(qrels, mine, [measure], no_relevant=no_relevant, **evaluate_kw)
        frames.append(pd.DataFrame({"system": res["run_id"].to_numpy(), "topic": res["query_id"].to_numpy(),
                                    "assessor": assessor, "score": res["value"].to_numpy(dtype=float)}))
    out = pd.concat(frames, ignore_index=True)
    out.attrs = {"measure": measure, "items": df.groupby("assessor").size().to_dict()}
    return out


def mean_gain_qrels(ratings: pd.DataFrame) -> pd.DataFrame:
    """Qrels whose ``gain`` is the mean rating over the assessors of each item."""
    _check_ratings(ratings)
    g = ratings.groupby(["query_id", "doc_id"], sort=False)["rating"].mean()
    return g.rename("gain").reset_index()


def linearity_check(ratings: pd.DataFrame, runs, measure: str, *, d_max: int,
                    fill: str | None = None, common_items: bool = False, **evaluate_kw) -> pd.DataFrame:
    """GT's mean over assessors of a measure vs the measure of the mean gains, per system.

    Both are computed with ``gmax = d_max`` (the top of the rating scale), so that ERR/RBP use
    the same stopping probabilities in both.  For a measure linear in the gains the columns agree
    to rounding; for nDCG, AP, ERR they do not.  Binary measures read a mean gain > 0 as
    relevant (any assessor's positive label), so for them the comparison says how far the
    average of binary verdicts is from "relevant to someone".

    Returns
    -------
    pandas.DataFrame
        ``system``, ``mean_over_assessors``, ``of_mean_gains``, ``difference``; ``attrs``:
        ``max_abs_difference`` and ``kendall_tau`` between the two orders of the systems.
    """
    from scipy.stats import kendalltau

    df = _restricted(_check_ratings(ratings), fill, common_items)
    per = scores_by_assessor(df, runs, measure, gmax=d_max, **evaluate_kw)
    topics = per.groupby(["system", "topic"], sort=False)["score"].mean()
    avg = topics.groupby(level="system", sort=False).mean()
    qrels = mean_gain_qrels(df)
    kw = dict(evaluate_kw)
    kw.setdefault("no_relevant", "zero")
    run = coerce.as_run(runs)
    run = run[run["query_id"].astype(str).isin(set(qrels["query_id"].astype(str)))]
    res = measures.evaluate(qrels, run, [measure], gmax=d_max, **kw)
    of_mean = res.groupby("run_id", sort=False)["value"].mean().reindex(avg.index)
    out = pd.DataFrame({"system": avg.index, "mean_over_assessors": avg.to_numpy(),
                        "of_mean_gains": of_mean.to_numpy()})
    out["difference"] = out["mean_over_assessors"] - out["of_mean_gains"]
    out.attrs = {"measure": measure, "max_abs_difference": float(out["difference"].abs().max()),
                 "kendall_tau": float(kendalltau(out["mean_over_assessors"], out["of_mean_gains"])[0])}
    return out
