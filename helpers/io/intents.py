"""Diversity inputs: intent probabilities, intent types (text or TREC Web Track XML) and
intentwise diversity qrels."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from . import trec
from .textfiles import Origins, concat, finish, first_line, resolve_paths
from .topics import parse_topics

__all__ = ["INTENTS_FORMAT", "INTENT_TYPES_FORMAT", "read_intents", "read_intent_types", "with_intent_types",
           "read_diversity_qrels"]


INTENTS_FORMAT = "3 whitespace-separated fields 'topic intent probability' (finite number)"
INTENT_TYPES_FORMAT = "3 whitespace-separated fields 'topic intent type'"
_INTENT_KINDS = {"nav": "nav", "navigational": "nav", "inf": "inf", "informational": "inf"}


def read_intents(path: str | os.PathLike) -> pd.DataFrame:
    """Read NTCIR intent probabilities: ``topic intent probability``, whitespace-separated.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``intent_id`` (str), ``prob`` (float64), in file order.

    Raises
    ------
    ValueError
        ``file:line`` for a line without 3 fields, a probability that is not a finite number
        >= 0, or a (topic, intent) pair listed twice; for a topic whose probabilities do not sum
        to 1 within 1e-6, the error names the topic, its first line and the sum.
    """
    files = resolve_paths(path, what="path")
    origins = Origins()
    names = ["query_id", "intent_id", "prob"]
    df = concat([origins.tag(trec.read_delimited(
        p, names, dtypes={"query_id": str, "intent_id": str, "prob": "float64"},
        expected=INTENTS_FORMAT, checks={2: trec.is_finite}), p) for p in files])
    prob = df["prob"].to_numpy()
    origins.check(df, ~np.isfinite(prob) | (prob < 0), f"{INTENTS_FORMAT}, a probability >= 0")
    origins.check_unique(df, ["query_id", "intent_id"], "each (topic, intent) pair once")
    sums = df.groupby("query_id", sort=False)["prob"].sum()
    off = (sums - 1.0).abs() > 1e-6
    if off.any():
        topic = sums.index[off.to_numpy()][0]
        first = int(np.flatnonzero((df["query_id"] == topic).to_numpy())[0])
        origins.check(df, np.arange(len(df)) == first,
                      f"the intent probabilities of topic {topic!r} (first listed on this line) to "
                      "sum to 1 within 1e-6", float(sums[topic]))
    return finish(df, names, files=[str(p) for p in files])


def _types_from_xml(path: Path, origins: Origins) -> pd.DataFrame:
    """Subtopic types of a TREC Web Track topic XML file (topics without subtopics: intent "0")."""
    if trec.is_gzip(path):
        raise ValueError(f"{path}: expected uncompressed topic XML, got a gzip file; decompress it")
    rows, lines = [], []
    for topic in parse_topics(path):
        for intent, kind, line in topic["subtopics"] or [("0", "inf", topic["line"])]:
            if kind not in ("nav", "inf"):
                raise trec.malformed(path, line, f"subtopic type 'nav' or 'inf' (topic "
                                        f"{topic['number']}, subtopic {intent})", kind)
            rows.append((topic["number"], intent, kind))
            lines.append(line)
    df = pd.DataFrame(rows, columns=["query_id", "intent_id", "kind"]).astype("str")
    return origins.tag(df, path, lines=lines)


def read_intent_types(path: str | os.PathLike) -> pd.DataFrame:
    """Read the type (navigational or informational) of each intent.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`). Each file is either
        whitespace-separated ``topic intent type`` lines, where type is ``nav``, ``navigational``,
        ``inf`` or ``informational`` (any case), or TREC Web Track topic XML (recognised by a
        leading ``<``), read with :func:`helpers.io.topics.parse_topics`: the ``type`` attribute
        of each ``<subtopic>`` (``inf`` when absent); a topic without subtopics gets intent
        ``"0"`` of type ``inf``, as in :func:`helpers.data.datasets.load_intents`.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``intent_id``, ``kind`` (``"nav"`` or ``"inf"``), all str.

    Raises
    ------
    ValueError
        ``file:line`` for a malformed line, an unknown type (in XML anything but ``nav``/``inf``,
        whereas the dataset loader falls back to ``inf``), or a (topic, intent) pair given twice.
    """
    files = resolve_paths(path, what="path")
    origins = Origins()
    frames = []
    names = ["query_id", "intent_id", "kind"]
    for p in files:
        first = first_line(p)
        if first is None:
            raise trec.malformed(p, None, f"{INTENT_TYPES_FORMAT} or topic XML", "an empty file")
        if first[1].lstrip().startswith("<"):
            frames.append(_types_from_xml(p, origins))
            continue
        df = origins.tag(trec.read_delimited(p, names, dtypes=dict.fromkeys(names, str),
                                                expected=INTENT_TYPES_FORMAT), p)
        kind = df["kind"].str.lower().map(_INTENT_KINDS)
        origins.check(df, kind.isna().to_numpy(),
                      "intent type nav, navigational, inf or informational (any case)")
        frames.append(df.assign(kind=kind.astype("str")))
    df = concat(frames)
    origins.check_unique(df, ["query_id", "intent_id"], "each (topic, intent) pair typed once")
    return finish(df, names, files=[str(p) for p in files])


def with_intent_types(intents: pd.DataFrame, types: pd.DataFrame | None) -> pd.DataFrame:
    """Add a ``kind`` column (``"nav"``/``"inf"``) to an intents table.

    Parameters
    ----------
    intents : pandas.DataFrame
        Columns ``query_id, intent_id, ...`` (e.g. from :func:`read_intents`); an existing
        ``kind`` column is replaced.
    types : pandas.DataFrame or None
        ``query_id, intent_id, kind`` (from :func:`read_intent_types`); types of intents not in
        ``intents`` are ignored. None: every intent is informational (``"inf"``).

    Returns
    -------
    pandas.DataFrame
        ``intents`` (same rows, order, index and attrs) with ``kind`` (str).

    Raises
    ------
    ValueError
        For an intent without a type (naming it) or an intent typed twice in ``types``.
    """
    out = intents.drop(columns="kind", errors="ignore").copy()
    if types is None:
        out["kind"] = pd.Series("inf", index=out.index, dtype="str")
        return out
    keys = ["query_id", "intent_id"]
    twice = types.duplicated(keys)
    if twice.any():
        row = types[twice].iloc[0]
        raise ValueError(f"types: intent {row['intent_id']!r} of topic {row['query_id']!r} is typed twice")
    merged = intents[keys].merge(types[keys + ["kind"]], on=keys, how="left")
    untyped = merged["kind"].isna().to_numpy()
    if untyped.any():
        shown = ", ".join(f"topic {q!r} intent {i!r}" for q, i in
                          merged.loc[untyped, keys].head(5).itertuples(index=False))
        raise ValueError(f"types: no type (nav/inf) for {int(untyped.sum())} intent(s): {shown}"
                         f"{', ...' if untyped.sum() > 5 else ''}")
    out["kind"] = pd.Series(merged["kind"].to_numpy(), index=out.index, dtype="str")
    return out


def read_diversity_qrels(path: str | os.PathLike) -> pd.DataFrame:
    """Read ndeval diversity qrels (``topic intent doc_id level``) from a file, folder or glob.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`), each read by
        :func:`helpers.io.trec.read_diversity_qrels`.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``intent_id``, ``doc_id`` (str), ``relevance`` (int64), in file order.
        Negative levels (TREC's -2 = spam) are set to 0, as ndeval does; their count is
        ``attrs["excluded"]["negative_set_to_zero"]``.

    Raises
    ------
    ValueError
        ``file:line`` for a malformed line or a (topic, intent, document) judged twice (also
        across files).
    """
    files = resolve_paths(path, what="path")
    origins = Origins()
    df = concat([origins.tag(trec.read_diversity_qrels(p), p) for p in files])
    origins.check_unique(df, ["query_id", "intent_id", "doc_id"],
                         "each (query_id, intent_id, doc_id) triple judged once")
    negative = (df["relevance"] < 0).to_numpy()
    df.loc[negative, "relevance"] = 0
    return finish(df, ["query_id", "intent_id", "doc_id", "relevance"],
                   files=[str(p) for p in files],
                   excluded={"negative_set_to_zero": int(negative.sum())})
