"""SERP-pair preference judgments (LEFT / RIGHT / EQUAL per assessor, per question)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np
import pandas as pd

from . import trec
from .textfiles import Origins, check_columns, concat, finish, header, resolve_paths, sep_name

__all__ = ["PREFERENCE_CODES", "PREFERENCE_LABELS", "PREFERENCE_COLUMNS", "DEFAULT_QUESTION",
           "read_preferences", "preference_tables"]


#: Numeric preference labels and the label each stands for (0 = left SERP better, 1 = right SERP
#: better, 2 = both equally good).
PREFERENCE_CODES = {"0": "LEFT", "1": "RIGHT", "2": "EQUAL"}

PREFERENCE_LABELS = ("LEFT", "RIGHT", "EQUAL")
PREFERENCE_COLUMNS = ("pair_id", "query_id", "run_left", "run_right", "assessor", "label")
DEFAULT_QUESTION = "relevance"


def read_preferences(path: str | os.PathLike, *, codes: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Read side-by-side SERP preference judgments.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`). Each file is delimited with a
        header (tab-separated if the header has a tab, else comma-separated; no quoting) naming the
        columns ``pair_id, query_id, run_left, run_right, assessor, label`` and optionally
        ``question`` (what was asked, e.g. ``relevance`` or ``diversity``; ``"relevance"`` when
        the column is absent), in any order.
    codes : mapping of str to str, optional
        Numeric labels and what they stand for; default :data:`PREFERENCE_CODES`
        (``0`` = LEFT, ``1`` = RIGHT, ``2`` = EQUAL). Labels ``LEFT``, ``RIGHT``, ``EQUAL`` are
        accepted in any case.

    Returns
    -------
    pandas.DataFrame
        Columns ``pair_id, query_id, run_left, run_right, question, assessor, label`` (all str;
        ``label`` is ``"LEFT"``, ``"RIGHT"`` or ``"EQUAL"``), in file order.

    Raises
    ------
    ValueError
        ``file:line`` for a malformed line, an unknown label (listing the allowed ones), the same
        (pair_id, question, assessor) twice, or a pair_id whose query_id/run_left/run_right differ
        from its first row; a header with missing or unknown columns (naming them).
    """
    codes = dict(PREFERENCE_CODES if codes is None else codes)
    for key, value in list(codes.items()):
        if not isinstance(key, str) or str(value).upper() not in PREFERENCE_LABELS:
            raise ValueError(f"codes: expected str keys mapped to LEFT, RIGHT or EQUAL, got "
                             f"{key!r}: {value!r}")
        codes[key] = str(value).upper()
    files = resolve_paths(path, what="path")
    origins = Origins()
    columns = ["pair_id", "query_id", "run_left", "run_right", "question", "assessor", "label"]
    frames = []
    for p in files:
        names, sep = header(p, "a header line naming the columns " + ", ".join(PREFERENCE_COLUMNS))
        check_columns(p, names, PREFERENCE_COLUMNS, optional=("question",))
        df = trec.read_delimited(p, names, dtypes=dict.fromkeys(names, str), sep=sep, header=True,
                                    expected=f"{len(names)} {sep_name(sep)}-separated fields "
                                             f"{sep.join(names)!r} as in the header")
        if "question" not in df.columns:
            df["question"] = pd.Series(DEFAULT_QUESTION, index=df.index, dtype="str")
        frames.append(origins.tag(df[columns], p, skip=1))
    df = concat(frames)
    upper = df["label"].str.upper()
    word = upper.isin(PREFERENCE_LABELS).to_numpy()
    coded = df["label"].map(codes)
    allowed = ", ".join(PREFERENCE_LABELS) + " (any case)"
    if codes:
        allowed += " or a code " + ", ".join(f"{k}={v}" for k, v in codes.items())
    origins.check(df, ~word & coded.isna().to_numpy(), f"label {allowed}")
    df["label"] = pd.Series(np.where(word, upper.to_numpy(dtype=object), coded.to_numpy(dtype=object)),
                            index=df.index, dtype="str")
    origins.check_unique(df, ["pair_id", "question", "assessor"],
                         "each (pair_id, question, assessor) judged once")
    same = ["query_id", "run_left", "run_right"]
    first = df.groupby("pair_id", sort=False)[same].transform("first")
    origins.check(df, (df[same] != first).any(axis=1).to_numpy(),
                  "the query_id, run_left and run_right of this pair_id's first row")
    return finish(df, columns, files=[str(p) for p in files])


def preference_tables(prefs: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Pairs and per-question label tables (pairs x assessors) from tidy preferences.

    Parameters
    ----------
    prefs : pandas.DataFrame
        As returned by :func:`read_preferences` (without a ``question`` column, every row counts
        as ``"relevance"``).

    Returns
    -------
    pairs : pandas.DataFrame
        One row per pair_id, in order of first appearance: ``pair_id, query_id, run_left,
        run_right``, index ``0..n-1``.
    labels : dict of str to pandas.DataFrame
        For every question (in order of first appearance): a frame indexed by ``pair_id`` (same
        order as ``pairs``) with one column per assessor who answered that question (sorted),
        holding ``"LEFT"``, ``"RIGHT"``, ``"EQUAL"`` or None where the assessor did not judge the
        pair.

    Raises
    ------
    ValueError
        For missing columns or an assessor judging a pair twice for the same question.
    """
    missing = [c for c in PREFERENCE_COLUMNS if c not in prefs.columns]
    if missing:
        raise ValueError(f"prefs is missing column(s) {', '.join(missing)}")
    if "question" not in prefs.columns:
        prefs = prefs.assign(question=DEFAULT_QUESTION)
    twice = prefs.duplicated(["pair_id", "question", "assessor"])
    if twice.any():
        row = prefs[twice].iloc[0]
        raise ValueError(f"prefs: assessor {row['assessor']!r} judges pair {row['pair_id']!r} twice "
                         f"for question {row['question']!r}")
    pairs = (prefs.drop_duplicates("pair_id")[["pair_id", "query_id", "run_left", "run_right"]]
             .reset_index(drop=True))
    order = pd.Index(pairs["pair_id"], name="pair_id")
    labels = {}
    for question in pd.unique(prefs["question"]):
        sub = prefs[prefs["question"] == question]
        table = sub.pivot(index="pair_id", columns="assessor", values="label")
        table = table.reindex(index=order, columns=sorted(sub["assessor"].unique())).astype(object)
        table = table.where(table.notna(), None)
        table.columns.name = None
        labels[str(question)] = table
    return pairs, labels
