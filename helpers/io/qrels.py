"""Graded relevance judgments: TREC qrels, NTCIREVAL qrels and NTCIREVAL per-topic ``.rel`` files."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from . import trec
from .textfiles import (NTCIR_LEVEL, Origins, concat, finish, first_line, integer_values, level_range,
                                 plain_name, resolve_paths, stem)

__all__ = ["read_graded_qrels", "read_qrels_file"]


_QRELS_FORMATS = ("4 fields 'query_id iteration doc_id level' (TREC), 3 fields 'query_id doc_id "
                  "L<level>' (NTCIREVAL) or 2 fields 'doc_id L<level>' (NTCIREVAL <topic>.rel file)")
_QRELS_FORMATS_ONE_FILE = ("4 fields 'query_id iteration doc_id level' (TREC) or 3 fields 'query_id "
                           "doc_id L<level>' (NTCIREVAL)")



def read_qrels_file(path: Path, origins: Origins, *, per_topic: bool = True) -> pd.DataFrame:
    """One graded qrels file in whichever format its first non-blank line has."""
    formats = _QRELS_FORMATS if per_topic else _QRELS_FORMATS_ONE_FILE
    first = first_line(path)
    if first is None:
        raise trec.malformed(path, None, f"qrels lines with {formats}", "an empty file")
    number, text = first
    n_fields = len(trec.c_fields(text))
    if n_fields == 4:
        try:
            df = trec.read_qrels(path)
        except ValueError as exc:
            raise ValueError(f"{exc} (the file's format, TREC qrels, is taken from its line {number}; "
                             "formats cannot be mixed within a file)") from None
        return origins.tag(df, path)
    if n_fields == 3 or (n_fields == 2 and per_topic):
        names = ["query_id", "doc_id", "level"] if n_fields == 3 else ["doc_id", "level"]
        what = "NTCIREVAL qrels" if n_fields == 3 else "NTCIREVAL per-topic qrels (<topic>.rel)"
        expected = (f"{n_fields} whitespace-separated fields '{' '.join(names[:-1])} L<level>' ({what}, "
                    f"the format of line {number}; formats cannot be mixed within a file)")
        df = trec.read_delimited(path, names, dtypes=dict.fromkeys(names, str), expected=expected)
        if n_fields == 2:
            df.insert(0, "query_id", pd.Series(stem(path), index=df.index, dtype="str"))
        df = origins.tag(df, path)
        df["relevance"] = integer_values(origins, df, "level", NTCIR_LEVEL,
                                          "a relevance level written L<n> (L0, L1, ...) or as an integer, "
                                          "of at most 18 digits")
        return df.drop(columns="level")
    raise trec.malformed(path, number, f"a qrels line with {formats}", text)


def _extension(path: Path) -> str:
    name = plain_name(path)
    return name[len(stem(path)):] if stem(path) != name else ""


def _check_topic_file_names(files: list[Path]) -> None:
    """Per-topic files name their topic by their file name without its extension, so they must share
    one extension: a stray ``q1.rel.orig`` beside ``q1.rel`` would become topic ``q1.rel`` (scored 0
    by every run) and a ``q1.txt`` would merge into ``q1``."""
    per_topic = [p for p in files if (first := first_line(p)) is not None and len(trec.c_fields(first[1])) == 2]
    by_ext: dict[str, list[Path]] = {}
    for p in per_topic:
        by_ext.setdefault(_extension(p), []).append(p)
    if len(by_ext) > 1:
        common = max(by_ext, key=lambda e: len(by_ext[e]))
        odd = next(p for e, ps in by_ext.items() if e != common for p in ps)
        counts = ", ".join(f"{len(ps)} '{e or '(none)'}'" for e, ps in sorted(by_ext.items(), key=lambda kv: -len(kv[1])))
        raise ValueError(f"{odd}: expected a per-topic qrels file named <topic>{common} like the other {len(by_ext[common])} "
                         f"(the topic is the file name without its extension; extensions found: {counts}); "
                         "rename or move the file, or pass a glob such as 'qrels/*" + (common or "") + "'")


def read_graded_qrels(path: str | os.PathLike, *, levels: tuple[int, int] | None = None,
                      what: str = "qrels") -> pd.DataFrame:
    """Read graded relevance judgments in TREC or NTCIREVAL format.

    The format of each file is taken from its first non-blank line:

    - 4 fields ``query_id iteration doc_id level`` (TREC qrels, integer level), read by
      :func:`helpers.io.trec.read_qrels`;
    - 3 fields ``query_id doc_id L<n>`` (NTCIREVAL; ``L0``, ``L1``, ... or a plain integer);
    - 2 fields ``doc_id L<n>`` (NTCIREVAL per-topic file): the topic is the file name without its
      extension(s), e.g. ``0001.rel`` or ``0001.rel.gz`` -> ``"0001"``; pass the folder or a glob
      such as ``"qrels/*.rel"``.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`); the files are concatenated in
        sorted order.
    levels : tuple of int, optional
        ``(lo, hi)``: refuse any level outside ``lo..hi``.
    what : str
        Parameter name shown when ``path`` matches no file.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64), in file order.
        ``attrs["files"]`` lists the files read. For one TREC file the frame equals
        :func:`helpers.io.trec.read_qrels`'s.

    Raises
    ------
    ValueError
        ``"<file>:<line>: expected ..., got ..."`` for a line in another format than the file's
        first line, an unknown level (``L<n>`` or integer expected), a level outside ``levels``,
        or a (query_id, doc_id) pair judged twice (also across files); an empty file is named.
    """
    bounds = None if levels is None else level_range(levels)
    files = resolve_paths(path, what=what)
    origins = Origins()
    df = concat([read_qrels_file(p, origins) for p in files])
    _check_topic_file_names(files)
    if bounds is not None:
        lo, hi = bounds
        rel = df["relevance"].to_numpy()
        origins.check(df, (rel < lo) | (rel > hi), f"relevance level {lo}..{hi}")
    origins.check_unique(df, ["query_id", "doc_id"], "each (query_id, doc_id) pair judged once")
    return finish(df, ["query_id", "doc_id", "relevance"], files=[str(p) for p in files], what=what)
