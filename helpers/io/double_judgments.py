"""Double judgments (two assessors per item) for the Predicted Relevance Model: two qrels files,
or two assessors of a ratings file, joined on the items both judged."""

from __future__ import annotations

import os

import pandas as pd

from .qrels import read_graded_qrels
from .ratings import read_ratings
from .textfiles import finish, level_range, source

__all__ = ["pairs_from_qrels", "read_double_judgments"]


def _check_unique(df: pd.DataFrame, name: str) -> None:
    dup = df.duplicated(["query_id", "doc_id"])
    if dup.any():
        row = df.loc[dup].iloc[0]
        raise ValueError(f"{name} has {int(dup.sum())} repeated (query_id, doc_id) item(s), e.g. "
                         f"({row['query_id']}, {row['doc_id']}); one level per item expected")


def pairs_from_qrels(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, *,
                     names: tuple[str, str] | None = None) -> pd.DataFrame:
    """Double judgments from two qrels tables: the items both judged, as ``query_id, doc_id, u1, u2``.

    Each table needs ``query_id, doc_id, relevance`` with one row per item. Items judged by only
    one side are left out (they are not double judgments). Rows are sorted by topic and document.
    Two non-empty tables without a common item are an error naming both inputs (``names``, else
    their parameter and files from the readers' ``attrs``): there would be nothing to estimate from.
    """
    for name, df in (("qrels_u1", qrels_u1), ("qrels_u2", qrels_u2)):
        miss = [c for c in ("query_id", "doc_id", "relevance") if c not in df.columns]
        if miss:
            raise ValueError(f"{name} is missing column(s) {miss}")
        _check_unique(df, name)
    a = qrels_u1[["query_id", "doc_id", "relevance"]].rename(columns={"relevance": "u1"})
    b = qrels_u2[["query_id", "doc_id", "relevance"]].rename(columns={"relevance": "u2"})
    out = a.merge(b, on=["query_id", "doc_id"], how="inner")
    if out.empty and len(a) and len(b):
        name_a, name_b = names or (source(qrels_u1, "qrels_u1"), source(qrels_u2, "qrels_u2"))
        topics = sorted(set(a["query_id"].astype(str)) & set(b["query_id"].astype(str)))
        if topics:
            t = topics[0]
            docs = [sorted(df.loc[df["query_id"].astype(str) == t, "doc_id"].astype(str))[:3] for df in (a, b)]
            example = f"on topic {t!r} {name_a} judged {docs[0]} ..., {name_b} {docs[1]} ..."
        else:
            example = (f"they share no topic ({sorted(set(a['query_id'].astype(str)))[:3]} ... vs "
                       f"{sorted(set(b['query_id'].astype(str)))[:3]} ...)")
        raise ValueError(f"no item is judged by both {name_a} and {name_b} (the same topic and document), so "
                         f"there is no double judgment: {example}; topic and document ids are compared as exact "
                         "strings")
    return out.sort_values(["query_id", "doc_id"], kind="stable").reset_index(drop=True)


def read_double_judgments(first: str | os.PathLike, second: str | os.PathLike | None = None, *,
                          ratings_layout: str = "long", assessors: tuple[str, str] | None = None,
                          levels: tuple[int, int] | None = None) -> pd.DataFrame:
    """Read double judgments (two assessors per item) for the Predicted Relevance Model.

    Parameters
    ----------
    first : str or path-like
        With ``second``: the qrels of assessor 1 (any format of :func:`~helpers.io.qrels.read_graded_qrels`).
        Without: a ratings file (or folder/glob) read by :func:`~helpers.io.ratings.read_ratings`.
    second : str or path-like, optional
        The qrels of assessor 2.
    ratings_layout : {"long", "wide", "qrels", "qrels_jg"}
        Layout of the ratings when ``second`` is None (``"qrels_jg"``: trec_eval's judgment groups,
        two of which are then paired by ``assessors``).
    assessors : tuple of str, optional
        ``(id1, id2)``: the two assessors of the ratings whose labels become ``u1`` and ``u2``
        (required when ``second`` is None, refused otherwise).
    levels : tuple of int, optional
        ``(lo, hi)``: refuse labels outside ``lo..hi`` (``file:line`` for qrels; for ratings
        ``hi`` is passed as ``d_max``).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str), ``u1``, ``u2`` (int64): only the items judged by
        both, sorted by ``query_id, doc_id`` (joined by :func:`pairs_from_qrels`).
        ``attrs``: ``files``, ``assessors`` (the two ids, or the two qrels paths).

    Raises
    ------
    ValueError
        For malformed input (see the readers), an unknown assessor id (listing the known ones),
        the same assessor twice, or no item judged by both (naming the files).
    """
    bounds = None if levels is None else level_range(levels)
    if second is not None:
        if assessors is not None:
            raise ValueError("assessors: only used with a ratings file (second=None); with two qrels "
                             "files, first is assessor 1 and second is assessor 2")
        q1 = read_graded_qrels(first, levels=bounds, what="first")
        q2 = read_graded_qrels(second, levels=bounds, what="second")
        files = q1.attrs["files"] + q2.attrs["files"]
        ids = (os.fspath(first), os.fspath(second))
    else:
        if assessors is None or isinstance(assessors, str) or len(assessors) != 2:
            raise ValueError(f"assessors: expected (id1, id2), the two assessors of the ratings in "
                             f"{os.fspath(first)!r} to pair, got {assessors!r}")
        ratings = read_ratings(first, layout=ratings_layout, d_max=None if bounds is None else bounds[1],
                               what="first")
        files = ratings.attrs["files"]
        known = sorted(ratings["assessor"].unique())
        unknown = [a for a in assessors if a not in known]
        if unknown:
            raise ValueError(f"{', '.join(files)}: unknown assessor id(s) {', '.join(map(repr, unknown))}"
                             f"; known: {', '.join(map(repr, known))}")
        if assessors[0] == assessors[1]:
            raise ValueError(f"assessors: expected two different assessor ids, got {assessors!r}")
        if bounds is not None and (ratings["rating"] < bounds[0]).any():
            row = ratings[ratings["rating"] < bounds[0]].iloc[0]
            raise ValueError(f"{', '.join(files)}: expected ratings {bounds[0]}..{bounds[1]}, got "
                             f"{row['rating']} by {row['assessor']!r} for ({row['query_id']}, "
                             f"{row['doc_id']})")
        q1, q2 = (ratings.loc[ratings["assessor"] == a, ["query_id", "doc_id", "rating"]]
                  .rename(columns={"rating": "relevance"}) for a in assessors)
        ids = tuple(assessors)
    pairs = pairs_from_qrels(q1, q2, names=(f"{ids[0]!r}", f"{ids[1]!r} (files: {', '.join(files)})"))
    pairs = pairs.astype({"u1": "int64", "u2": "int64"})
    return finish(pairs, ["query_id", "doc_id", "u1", "u2"], files=files, assessors=ids)
