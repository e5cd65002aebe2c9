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
  ``RBP`` with a fixed ``gmax``) that average is the measure of the mean gains; for nDCG and ERR
  it is not (nDCG divides by an ideal that changes with the gains; ERR is not normalised, but its
  stopping probabilities multiply, so it is not linear in them): :func:`linearity_check` measures
  the difference.  Binary measures (AP, P@k, RR ...) read labels at a threshold, not gains: P@k
  averaged over assessors is P@k of each item's share of assessors who call it relevant (linear in
  the labels), AP is not (it divides by each assessor's count of relevant items); neither is
  compared with the measure of the mean gains (:func:`binary_reading`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import measures
from ..io import coerce
from ..io.ids import require_columns

__all__ = ["judgment_sets", "scores_by_assessor", "mean_gain_qrels", "linearity_check", "linearity_checks", "binary_reading"]

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


def _measure_list(measure) -> tuple[list[str], bool]:
    """(names, one): a measure name or a list of distinct names."""
    if isinstance(measure, str):
        return [measure], True
    names = list(measure) if isinstance(measure, (list, tuple)) else None
    if not names or not all(isinstance(m, str) for m in names):
        raise ValueError(f"measure must be a measure name or a non-empty list of names, got {measure!r}")
    dup = sorted({m for m in names if names.count(m) > 1})
    if dup:
        raise ValueError(f"measure names must be distinct; repeated: {dup}")
    return names, False


def scores_by_assessor(ratings: pd.DataFrame, runs, measure, *, fill: str | None = None,
                       common_items: bool = False, no_relevant: str = "zero", **evaluate_kw):
    """One measure per (system, topic, assessor): the long input of :func:`g_study`.

    Parameters
    ----------
    ratings : pandas.DataFrame
        ``query_id, doc_id, assessor, rating`` (any reader of :mod:`helpers.io.readers`).
    runs : DataFrame, path, glob or list of paths
        What :func:`helpers.measures.evaluate` accepts.
    measure : str or list of str
        One measure name (``"nDCG@10"``, ``"AP(rel=2)"``), or several: then every measure is
        computed in one engine call per assessor and a dict ``name -> frame`` is returned.
    fill, common_items
        Treatment of the items an assessor did not judge (module docstring).
    no_relevant : str
        Passed to the engine (default ``"zero"``: every topic of every assessor scored).
    **evaluate_kw
        Further options of :func:`helpers.measures.evaluate` (``gains``, ``gmax``, ``depth``...).

    Returns
    -------
    pandas.DataFrame, or dict of them
        ``system, topic, assessor, score``; ``attrs["items"]`` counts the labels used per assessor.
    """
    _check_ratings(ratings)
    names, one = _measure_list(measure)
    df = _restricted(ratings, fill, common_items)
    run = coerce.as_run(runs)
    frames: dict[str, list] = {m: [] for m in names}
    for assessor, labels in df.groupby("assessor", sort=True):
        qrels = labels[["query_id", "doc_id", "rating"]].rename(columns={"rating": "relevance"})
        # only the assessor's topics: the others are no cell of the design, not a warning
        mine = run[run["query_id"].astype(str).isin(set(qrels["query_id"].astype(str)))]
        res = measures.evaluate(qrels, mine, names, no_relevant=no_relevant, **evaluate_kw)
        labels_out = list(dict.fromkeys(res["measure"]))     # the engine's labels, in the order asked
        for name, label in zip(names, labels_out):
            r = res[res["measure"] == label]
            frames[name].append(pd.DataFrame({"system": r["run_id"].to_numpy(), "topic": r["query_id"].to_numpy(),
                                              "assessor": assessor, "score": r["value"].to_numpy(dtype=float)}))
    items = df.groupby("assessor").size().to_dict()
    out = {}
    for name in names:
        out[name] = pd.concat(frames[name], ignore_index=True)
        out[name].attrs = {"measure": name, "items": items, "gmax": evaluate_kw.get("gmax"),
                           "treatment": _treatment(fill, common_items)}
    return out[names[0]] if one else out


def _treatment(fill: str | None, common_items: bool) -> str:
    return "common items" if common_items else f"fill from {fill}" if fill is not None else "as judged"


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
    to rounding; for nDCG and ERR they do not.  A binary measure (AP, P@k, ...) reads labels, not
    gains, and raises ``ValueError`` (:func:`linearity_checks` says what holds instead:
    :func:`binary_reading`).

    Returns
    -------
    pandas.DataFrame
        ``system``, ``mean_over_assessors``, ``of_mean_gains``, ``difference``; ``attrs``:
        ``max_abs_difference`` and ``kendall_tau`` between the two orders of the systems.
    """
    out = linearity_checks(ratings, runs, [measure], d_max=d_max, fill=fill, common_items=common_items,
                           **evaluate_kw)[measure]
    if isinstance(out, str):
        raise ValueError(f"{measure}: {out}")
    return out


#: Binary measures whose value is linear in the binary labels (a fixed denominator): averaged over
#: assessors they are the measure of each item's share of assessors who call it relevant.
LINEAR_IN_LABELS = ("P", "SetP", "NumRelRet")
#: Binary measures that are not, and why.
NOT_LINEAR_IN_LABELS = {"AP": "it divides by each assessor's count of relevant items",
                        "R": "it divides by each assessor's count of relevant items",
                        "Rprec": "its cutoff is each assessor's count of relevant items",
                        "RR": "it stops at each assessor's first relevant item",
                        "Hit": "it takes a maximum over the top l"}


def _engine_spec(name: str, kw: dict):
    """The engine measure of ``name`` under the naming scheme of ``kw`` (None: not resolvable here)."""
    from ..measures import names as measure_names

    conv = kw.get("conventions")
    scheme = kw.get("names") or (conv if conv in measure_names.NAME_SCHEMES else "ntcireval")
    try:
        return measure_names.resolve([name], scheme)[0][1]
    except ValueError:
        return None


def binary_reading(name: str, rel: int | None = None, *, conventions: str | None = None,
                   names: str | None = None) -> str | None:
    """What holds for a binary measure averaged over assessors, or ``None`` for a measure of gains.

    A binary measure (AP, P@k, RR, ...) reads labels at level >= ``rel`` (its ``rel=``, else
    ``rel``, else 1), not gains, so "the measure of the mean gains" is no average of it: the
    engine would count an item relevant when its mean gain is above 0, i.e. when any assessor
    judged it relevant at any level. For P@k (SetP, NumRelRet) the mean over assessors is exactly
    the measure of each item's share of assessors who call it relevant, since the denominator (k,
    the retrieved count) is the same for every assessor; for AP, R, Rprec, RR and Hit it is not
    (:data:`NOT_LINEAR_IN_LABELS` says why); no check is made for any of them.
    """
    spec = _engine_spec(name, {"conventions": conventions, "names": names})
    if spec is None or not measures.spec.MEASURES[spec.name].binary:
        return None
    level = spec.rel if spec.rel is not None else (rel if rel is not None else 1)
    head = f"not checked: {name} reads binary labels (level >= {level}), not gains"
    share = "each item's share of assessors who call it relevant"
    if spec.name in LINEAR_IN_LABELS:
        return head + f"; its mean over assessors is exactly {name} of {share} (it is linear in the labels)"
    if spec.name in NOT_LINEAR_IN_LABELS:
        return head + f"; its mean over assessors is not {name} of {share}: {NOT_LINEAR_IN_LABELS[spec.name]}"
    return head + f"; its mean over assessors is {name} of {share} only if {name} is linear in the labels"


def _mean_gain_measures(qrels: pd.DataFrame, run: pd.DataFrame, names: list[str], kw: dict) -> dict:
    """Measure name -> its scores on the mean-gain qrels (one engine call), or what holds instead
    for a binary measure (:func:`binary_reading`)."""
    why = {m: text for m in names if (text := binary_reading(m, kw.get("rel"), conventions=kw.get("conventions"),
                                                                          names=kw.get("names"))) is not None}
    ok = [m for m in names if m not in why]
    if ok:
        res = measures.evaluate(qrels, run, ok, **kw)
        for name, label in zip(ok, dict.fromkeys(res["measure"])):
            why[name] = res[res["measure"] == label]
    return why


def linearity_checks(ratings: pd.DataFrame, runs, measure_names, *, d_max: int, per=None,
                     fill: str | None = None, common_items: bool = False, **evaluate_kw) -> dict:
    """:func:`linearity_check` for several measures at once (one engine call for the mean gains).

    ``per`` (optional) holds the per-assessor scores already computed for these ratings, runs and
    treatment with ``gmax=d_max`` (:func:`scores_by_assessor` with a list of measures); without it
    they are computed here.  Returns measure -> the frame of :func:`linearity_check`, or for a
    binary measure the sentence of :func:`binary_reading` (what holds; no mean gains to compare).
    """
    from scipy.stats import kendalltau

    names, _ = _measure_list(list(measure_names))
    df = _restricted(_check_ratings(ratings), fill, common_items)
    if per is None:
        per = scores_by_assessor(df, runs, names, gmax=d_max, **evaluate_kw)
    for m in names:
        attrs = getattr(per.get(m), "attrs", None) if isinstance(per, dict) else None
        if attrs is None or attrs.get("gmax") != d_max or attrs.get("treatment") != _treatment(fill, common_items):
            raise ValueError(f"per[{m!r}] must be scores_by_assessor's scores of {m} with gmax={d_max} and "
                             f"the same treatment ({_treatment(fill, common_items)}); got {attrs}")
    qrels = mean_gain_qrels(df)
    kw = {"no_relevant": "zero", **evaluate_kw, "gmax": d_max}
    run = coerce.as_run(runs)
    run = run[run["query_id"].astype(str).isin(set(qrels["query_id"].astype(str)))]
    results = _mean_gain_measures(qrels, run, names, kw)
    out = {}
    for m in names:
        res = results[m]
        if isinstance(res, str):
            out[m] = res
            continue
        topics = per[m].groupby(["system", "topic"], sort=False)["score"].mean()
        avg = topics.groupby(level="system", sort=False).mean()
        of_mean = res.groupby("run_id", sort=False)["value"].mean().reindex(avg.index)
        frame = pd.DataFrame({"system": avg.index, "mean_over_assessors": avg.to_numpy(),
                              "of_mean_gains": of_mean.to_numpy()})
        frame["difference"] = frame["mean_over_assessors"] - frame["of_mean_gains"]
        frame.attrs = {"measure": m, "max_abs_difference": float(frame["difference"].abs().max()),
                       "kendall_tau": float(kendalltau(frame["mean_over_assessors"], frame["of_mean_gains"])[0])}
        out[m] = frame
    return out
