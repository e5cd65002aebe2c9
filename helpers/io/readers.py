"""Readers for your own data: the standard file formats of IR evaluation, as tidy frames.

Every reader takes a file, a folder or a glob pattern (see :func:`resolve_paths`) and returns the
tidy :class:`pandas.DataFrame` the analyses use, with the column names of
:mod:`helpers.io.trec` and :mod:`helpers.data.datasets` (``query_id``, ``doc_id``, ``relevance``,
``assessor``, ``rating``, ``run_id``, ``rank``, ``score``, ``intent_id``, ...).

Conventions
-----------
- Identifiers (topics, documents, runs, assessors, intents, pairs) are exact strings: ``"01"`` and
  ``"1"`` are different topics, and nothing is stripped or converted.
- Files may be gzip-compressed; compression is detected from the content, not the name.
- Blank lines are skipped; line numbers in messages count every physical line.
- Every malformed line is refused with a :class:`ValueError` whose message starts with
  ``"<file>:<line>: expected ..., got ..."`` (built by :func:`helpers.io.trec.malformed`); problems
  that concern a whole file name the file. Nothing is dropped silently: whatever a reader leaves
  out on purpose is counted in ``df.attrs["excluded"]``.
- The heavy lifting is done by :mod:`helpers.io.trec` (C-engine parsing, line-accurate errors,
  ``trec_eval`` run order); the format families add format sniffing, multi-file reading and the
  checks that span files: :mod:`.qrels`, :mod:`.ratings`, :mod:`.runs`, :mod:`.double_judgments`,
  :mod:`.intents`, :mod:`.preferences` and :mod:`.judgment_groups` (trec_eval's judgment groups
  and preference files), on the shared machinery of :mod:`.textfiles`. This module is their one
  front: every reader is importable from here, beside :func:`describe` and the checks that compare
  two inputs (:func:`check_topics`, :func:`check_runs`).

``data/README.md`` ("Formats for your own data") shows an example of every format.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd

from .double_judgments import pairs_from_qrels, read_double_judgments
from .ids import number_spelling_twins
from .intents import (INTENT_TYPES_FORMAT, INTENTS_FORMAT, read_diversity_qrels, read_intent_types,
                                read_intents, with_intent_types)
from .preferences import (DEFAULT_QUESTION, PREFERENCE_CODES, PREFERENCE_COLUMNS, PREFERENCE_LABELS,
                                    preference_tables, read_preferences)
from .judgment_groups import judgment_group_ratings, read_prefs, read_qrels_jg, read_qrels_prefs
from .qrels import read_graded_qrels
from .ratings import RATING_COLUMNS, RATING_LAYOUTS, read_ratings
from .runs import rank_order_note, read_runs
from .textfiles import first_line, resolve_paths

__all__ = [
    "RATING_LAYOUTS",
    "PREFERENCE_CODES",
    "resolve_paths",
    "read_graded_qrels",
    "read_ratings",
    "read_runs",
    "pairs_from_qrels",
    "read_double_judgments",
    "read_intents",
    "read_intent_types",
    "with_intent_types",
    "read_diversity_qrels",
    "read_preferences",
    "preference_tables",
    "read_qrels_jg",
    "judgment_group_ratings",
    "read_prefs",
    "read_qrels_prefs",
    "describe",
    "check_topics",
    "check_runs",
    "first_line",
    "RATING_COLUMNS",
    "PREFERENCE_LABELS",
    "PREFERENCE_COLUMNS",
    "DEFAULT_QUESTION",
    "INTENTS_FORMAT",
    "INTENT_TYPES_FORMAT",
]


def describe(**frames: pd.DataFrame) -> str:
    """One line per frame summarising what was read, to print before any analysis.

    Parameters
    ----------
    **frames : pandas.DataFrame
        Frames by the name to show (e.g. ``describe(qrels=qrels, runs=runs)``).

    Returns
    -------
    str
        Lines ``"<name>: <rows> rows, <n> topics, ..."`` with, where the columns exist, the
        number of runs, assessors, intents (distinct topic/intent pairs), pairs and questions,
        the sorted levels of ``relevance``/``rating``/``u1``/``u2``, the kinds of intents, and
        the non-zero counts of ``attrs["excluded"]``.
    """
    lines = []
    for name, df in frames.items():
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"{name}: expected a pandas DataFrame, got {type(df).__name__}")
        parts = [f"{len(df):,} rows"]
        if "query_id" in df.columns:
            parts.append(f"{df['query_id'].nunique():,} topics")
        if "run_id" in df.columns:
            parts.append(f"{df['run_id'].nunique():,} runs")
        if "assessor" in df.columns:
            parts.append(f"{df['assessor'].nunique():,} assessors")
        for column in ("relevance", "rating", "u1", "u2"):
            if column in df.columns:
                values = sorted(pd.unique(df[column].dropna()).tolist())
                label = "levels" if column in ("relevance", "rating") else f"levels {column}"
                parts.append(f"{label} {values}")
        if "intent_id" in df.columns:
            keys = [c for c in ("query_id", "intent_id") if c in df.columns]
            parts.append(f"{len(df[keys].drop_duplicates()):,} intents")
        if "kind" in df.columns:
            counts = df["kind"].value_counts().sort_index()
            parts.append("kinds " + ", ".join(f"{k}={v:,}" for k, v in counts.items()))
        if "pair_id" in df.columns:
            parts.append(f"{df['pair_id'].nunique():,} pairs")
        if "question" in df.columns:
            parts.append(f"questions {sorted(pd.unique(df['question']).tolist())}")
        excluded = {k: v for k, v in dict(df.attrs.get("excluded") or {}).items() if v}
        if excluded:
            parts.append("excluded " + ", ".join(f"{k}={v:,}" for k, v in excluded.items()))
        lines.append(f"{name}: " + ", ".join(parts))
        if rank_order_note(df):
            lines.append(f"{name}: {rank_order_note(df)}")
    return "\n".join(lines)


def _files_of(df: pd.DataFrame) -> str:
    files = [Path(f).name for f in (df.attrs.get("files") or [])]
    if not files:
        return ""
    return f" ({', '.join(files[:3])}{', ...' if len(files) > 3 else ''})"


def check_topics(a: pd.DataFrame, what_a: str, b: pd.DataFrame, what_b: str) -> None:
    """Stop when two inputs share no topic; warn (with counts) when ``b`` has topics ``a`` lacks.

    ``what_a`` and ``what_b`` name the parameters the frames came from; the files read (from
    ``attrs["files"]``) are named too. Topic ids are compared as exact strings; ids that differ only
    in how a number is written (``1`` and ``1.0`` or ``01``) are an error of their own, as in
    :func:`helpers.measures.evaluate`.
    """

    ta, tb = set(a["query_id"].astype(str)), set(b["query_id"].astype(str))
    twins = number_spelling_twins(sorted(tb - ta), sorted(ta))
    if twins:
        t, q = twins[0]
        raise ValueError(f"{what_b}{_files_of(b)} topic {t!r} and {what_a}{_files_of(a)} topic {q!r} differ only in "
                         f"how the number is written ({len(twins)} such topic(s)); ids are compared as exact strings")
    common = ta & tb
    if not common:
        raise ValueError(
            f"{what_a}{_files_of(a)} and {what_b}{_files_of(b)} share no topic: {what_a} has "
            f"{sorted(ta)[:5]}{' ...' if len(ta) > 5 else ''}, {what_b} has {sorted(tb)[:5]}"
            f"{' ...' if len(tb) > 5 else ''} (ids are compared as exact strings)")
    only_b = tb - ta
    if only_b:
        warnings.warn(f"{len(only_b)} of {len(tb)} topic(s) of {what_b} are not in {what_a} and are ignored, "
                      f"e.g. {sorted(only_b)[:3]}", UserWarning, stacklevel=2)


def check_runs(prefs: pd.DataFrame, what_prefs: str, runs: pd.DataFrame, what_runs: str) -> None:
    """Every SERP of a preference pair must be a (run, topic) list of ``runs``: a pair naming a run
    or topic the runs lack would otherwise be scored 0 (an empty SERP) without a word."""
    have = set(zip(runs["run_id"].astype(str), runs["query_id"].astype(str)))
    for side in ("run_left", "run_right"):
        keys = list(zip(prefs[side].astype(str), prefs["query_id"].astype(str)))
        missing = [k for k in dict.fromkeys(keys) if k not in have]
        if missing:
            run, topic = missing[0]
            raise ValueError(
                f"{what_prefs}{_files_of(prefs)}: {len(missing)} ({side}, topic) SERP(s) are not in {what_runs}"
                f"{_files_of(runs)}, e.g. run {run!r} on topic {topic!r}; runs there: "
                f"{sorted(runs['run_id'].astype(str).unique())[:8]}")
