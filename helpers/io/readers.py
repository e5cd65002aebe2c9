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
  ``trec_eval`` run order); this module adds format sniffing, multi-file reading and the checks
  that span files.

``data/README.md`` ("Formats for your own data") shows an example of every format.
"""

from __future__ import annotations

import glob
import os
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from helpers.io import trec
from helpers.io.ids import number_spelling_twins
from helpers.io.topics import parse_topics

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
    "describe",
]

RATING_LAYOUTS = ("long", "wide", "qrels")

#: Numeric preference labels and the label each stands for (0 = left SERP better, 1 = right SERP
#: better, 2 = both equally good).
PREFERENCE_CODES = {"0": "LEFT", "1": "RIGHT", "2": "EQUAL"}

PREFERENCE_LABELS = ("LEFT", "RIGHT", "EQUAL")
RATING_COLUMNS = ("query_id", "doc_id", "assessor", "rating")
PREFERENCE_COLUMNS = ("pair_id", "query_id", "run_left", "run_right", "assessor", "label")
DEFAULT_QUESTION = "relevance"

INTENTS_FORMAT = "3 whitespace-separated fields 'topic intent probability' (finite number)"
INTENT_TYPES_FORMAT = "3 whitespace-separated fields 'topic intent type'"
_INTENT_KINDS = {"nav": "nav", "navigational": "nav", "inf": "inf", "informational": "inf"}

_GLOB_CHARS = re.compile(r"[*?\[]")
_INTEGER = r"[+-]?\d+"
_NTCIR_LEVEL = r"L\d+|[+-]?\d+"


# ----------------------------------------------------------------------------------------------
# paths and lines
# ----------------------------------------------------------------------------------------------
def resolve_paths(pattern: str | os.PathLike, *, what: str) -> list[Path]:
    """The files a path parameter stands for.

    Parameters
    ----------
    pattern : str, path-like, or a list of them
        A file; a folder (all regular, non-hidden files directly in it, sorted by name; not
        recursive); a list of such entries (resolved in turn, in the given order); or a glob pattern (``*``, ``?``, ``[...]``; ``**`` matches sub-folders), whose
        matching regular files are returned sorted. Relative paths resolve against the current
        working directory; ``~`` is expanded.
    what : str
        Name of the parameter the pattern came from (e.g. ``"runs_glob"``), used in the error.

    Returns
    -------
    list of pathlib.Path
        At least one file, in sorted order.

    Raises
    ------
    ValueError
        ``"<what>: no file matches '<pattern>'"`` for a missing file, a glob without a match or
        an empty folder.
    """
    if isinstance(pattern, (list, tuple)):
        if not pattern:
            raise ValueError(f"{what}: an empty list of files")
        files: list[Path] = []
        for item in pattern:
            files += [f for f in resolve_paths(item, what=what) if f not in files]
        return files
    shown = os.fspath(pattern)
    missing = ValueError(f"{what}: no file matches {shown!r}")
    text = os.path.expanduser(shown)
    if not text:
        raise missing
    path = Path(text)
    if path.is_file():
        return [path]
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
    elif _GLOB_CHARS.search(text):
        files = sorted(Path(p) for p in glob.glob(text, recursive=True) if os.path.isfile(p))
    else:
        files = []
    if not files:
        raise missing
    return files


def _plain_name(path: Path) -> str:
    """File name without a trailing ``.gz``."""
    name = path.name
    return name[:-3] if name.lower().endswith(".gz") else name


def _stem(path: Path) -> str:
    """File name without ``.gz`` and without the extension before it: ``a1-qrels.txt.gz`` -> ``a1-qrels``."""
    name = _plain_name(path)
    base, dot, _ = name.rpartition(".")
    return base if dot and base else name


def _text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Non-blank lines of a (possibly gzipped) UTF-8 file as ``(line_number, text)``.

    A byte-order mark at the very start is removed; anywhere else, like a NUL byte or an
    undecodable line, it is an error.
    """
    for number, text in trec.numbered_lines(path):
        if isinstance(text, bytes):
            raise trec.malformed(path, number, "UTF-8 text", text)
        if number == 1:
            text = text.removeprefix("\ufeff")
            if not text.strip():
                continue
        if "\ufeff" in text or "\x00" in text:
            raise trec.malformed(path, number, "text without a byte-order mark (U+FEFF) or NUL "
                                    "byte inside the file (two files concatenated, or a binary file?)",
                                    text)
        yield number, text


def first_line(path: Path) -> tuple[int, str] | None:
    """The first non-blank line of ``path`` as ``(line_number, text)``, or None for an empty file."""
    return next(_text_lines(path), None)


def _line_text(path: Path, line: int) -> str | bytes:
    for number, text in trec.numbered_lines(path):
        if number == line:
            return text
    return ""


def _header(path: Path, expected: str) -> tuple[list[str], str]:
    """Column names and separator (tab if the header has a tab, else comma) of line 1."""
    first = first_line(path)
    if first is None:
        raise trec.malformed(path, None, expected, "an empty file")
    number, text = first
    if number != 1:
        raise trec.malformed(path, 1, expected, "a blank line")
    sep = "\t" if "\t" in text else ","
    names = [name.strip() for name in text.split(sep)]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated or "" in names:
        raise trec.malformed(path, 1, f"{expected}, with distinct non-empty column names", text)
    return names, sep


def _check_columns(path: Path, names: Sequence[str], required: Sequence[str],
                   optional: Sequence[str] = ()) -> None:
    """Refuse a header that lacks a required column or has a column not in required + optional."""
    missing = [name for name in required if name not in names]
    extra = [name for name in names if name not in required and name not in optional]
    if missing or extra:
        allowed = ", ".join(list(required) + [f"{name} (optional)" for name in optional])
        problems = []
        if missing:
            problems.append(f"missing column(s) {', '.join(missing)}")
        if extra:
            problems.append(f"unknown column(s) {', '.join(extra)}")
        raise trec.malformed(path, 1, f"a header naming the columns {allowed} (any order); "
                                f"{'; '.join(problems)}", _line_text(path, 1))


def _sep_name(sep: str) -> str:
    return "tab" if sep == "\t" else "comma"


class _Origins:
    """Where each row of a frame concatenated from several files came from.

    Readers tag every file's rows with a source number (``_src``) and a data-row number (``_row``)
    so that checks made after concatenation can still name ``file:line``.
    """

    def __init__(self) -> None:
        self.sources: list[tuple[Path, int, np.ndarray | None]] = []

    def tag(self, df: pd.DataFrame, path: Path, *, skip: int = 0,
            lines: Sequence[int] | None = None) -> pd.DataFrame:
        """``df`` (one row per data line of ``path``, in order) with ``_src`` and ``_row`` columns.

        ``skip`` header lines precede the data; ``lines`` gives the physical line of each row when
        the rows are not simply the non-blank data lines (then ``_row`` indexes ``lines``).
        """
        self.sources.append((Path(path), skip, None if lines is None else np.asarray(lines)))
        return df.assign(_src=len(self.sources) - 1, _row=np.arange(len(df), dtype=np.int64))

    def where(self, df: pd.DataFrame, i: int) -> tuple[Path, int]:
        """File and 1-based line of the ``i``-th (positional) row of ``df``."""
        path, skip, lines = self.sources[int(df["_src"].iat[i])]
        row = int(df["_row"].iat[i])
        return path, int(lines[row]) if lines is not None else trec.row_line(path, row, skip=skip)

    def check(self, df: pd.DataFrame, bad, expected: str, got: object = None) -> None:
        """Raise ``file:line: expected ..., got <the line>`` for the first True entry of ``bad``."""
        bad = np.asarray(bad, dtype=bool)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            path, line = self.where(df, i)
            raise trec.malformed(path, line, expected, _line_text(path, line) if got is None else got)

    def check_unique(self, df: pd.DataFrame, keys: Sequence[str], expected: str) -> None:
        """Raise for the first row whose ``keys`` repeat an earlier row, naming both lines."""
        keys = list(keys)
        dup = df.duplicated(keys).to_numpy()
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            same = np.logical_and.reduce([df[k].to_numpy(dtype=object) == df[k].iat[i] for k in keys])
            first_path, first_no = self.where(df, int(np.flatnonzero(same)[0]))
            self.check(df, np.arange(len(df)) == i, f"{expected} (already on {first_path}:{first_no})")


def _concat(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].reset_index(drop=True)


def _finish(df: pd.DataFrame, columns: Sequence[str], **attrs) -> pd.DataFrame:
    out = df[list(columns)].reset_index(drop=True)
    out.attrs = dict(attrs)
    return out


def _level_range(levels, name: str = "levels") -> tuple[int, int]:
    try:
        lo, hi = levels
        lo, hi = int(lo), int(hi)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a pair of integers (lo, hi), got {levels!r}") from None
    if lo > hi:
        raise ValueError(f"{name}: expected lo <= hi, got {levels!r}")
    return lo, hi


def _integer_values(origins: _Origins, df: pd.DataFrame, column: str, pattern: str,
                    expected: str) -> pd.Series:
    """Integer values of a text column, refusing (file:line) any value that is not ``pattern``."""
    text = df[column].astype("str")
    origins.check(df, ~text.str.fullmatch(pattern).to_numpy(dtype=bool), expected)
    return text.str.removeprefix("L").astype("int64")


# ----------------------------------------------------------------------------------------------
# graded qrels
# ----------------------------------------------------------------------------------------------
_QRELS_FORMATS = ("4 fields 'query_id iteration doc_id level' (TREC), 3 fields 'query_id doc_id "
                  "L<level>' (NTCIREVAL) or 2 fields 'doc_id L<level>' (NTCIREVAL <topic>.rel file)")
_QRELS_FORMATS_ONE_FILE = ("4 fields 'query_id iteration doc_id level' (TREC) or 3 fields 'query_id "
                           "doc_id L<level>' (NTCIREVAL)")


def _read_qrels_file(path: Path, origins: _Origins, *, per_topic: bool = True) -> pd.DataFrame:
    """One graded qrels file in whichever format its first non-blank line has."""
    formats = _QRELS_FORMATS if per_topic else _QRELS_FORMATS_ONE_FILE
    first = first_line(path)
    if first is None:
        raise trec.malformed(path, None, f"qrels lines with {formats}", "an empty file")
    number, text = first
    n_fields = len(text.split())
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
            df.insert(0, "query_id", pd.Series(_stem(path), index=df.index, dtype="str"))
        df = origins.tag(df, path)
        df["relevance"] = _integer_values(origins, df, "level", _NTCIR_LEVEL,
                                          "a relevance level written L<n> (L0, L1, ...) or as an integer")
        return df.drop(columns="level")
    raise trec.malformed(path, number, f"a qrels line with {formats}", text)


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
        A file, a folder or a glob (see :func:`resolve_paths`); the files are concatenated in
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
    bounds = None if levels is None else _level_range(levels)
    files = resolve_paths(path, what=what)
    origins = _Origins()
    df = _concat([_read_qrels_file(p, origins) for p in files])
    if bounds is not None:
        lo, hi = bounds
        rel = df["relevance"].to_numpy()
        origins.check(df, (rel < lo) | (rel > hi), f"relevance level {lo}..{hi}")
    origins.check_unique(df, ["query_id", "doc_id"], "each (query_id, doc_id) pair judged once")
    return _finish(df, ["query_id", "doc_id", "relevance"], files=[str(p) for p in files])


# ----------------------------------------------------------------------------------------------
# multi-assessor ratings
# ----------------------------------------------------------------------------------------------
def _ratings_long(path: Path, origins: _Origins) -> pd.DataFrame:
    expected_header = "a header line 'query_id, doc_id, assessor, rating' (tab- or comma-separated)"
    names, sep = _header(path, expected_header)
    _check_columns(path, names, RATING_COLUMNS)
    df = trec.read_delimited(
        path, names, dtypes={n: "int64" if n == "rating" else str for n in names},
        expected=(f"{len(names)} {_sep_name(sep)}-separated fields {sep.join(names)!r} as in the "
                  "header (integer rating)"),
        checks={names.index("rating"): trec.is_int}, sep=sep, header=True)
    return origins.tag(df[list(RATING_COLUMNS)], path, skip=1)


def _ratings_wide(path: Path, origins: _Origins) -> tuple[pd.DataFrame, int]:
    """STC-style wide ratings: ``query_id doc_id label1 .. labelN``; '' or 'NA' = not rated."""
    lines = _text_lines(path)
    first = next(lines, None)
    if first is None:
        raise trec.malformed(path, None, "wide ratings 'query_id doc_id rating...'", "an empty file")
    number, text = first
    sep = "\t" if "\t" in text else ","
    fields = text.split(sep)
    width = len(fields)
    if width < 3:
        raise trec.malformed(path, number, f"at least 3 {_sep_name(sep)}-separated fields "
                                "'query_id doc_id rating...' (wide ratings)", text)
    if fields[0].strip() == "query_id":
        assessors = [name.strip() for name in fields[2:]]
        if "" in assessors or len(set(assessors)) != len(assessors):
            raise trec.malformed(path, number, "a header 'query_id, doc_id' + distinct non-empty "
                                    "assessor ids", text)
        rows: list[list[str]] = []
        line_numbers: list[int] = []
    else:
        assessors = [f"C{k}" for k in range(1, width - 1)]
        rows, line_numbers = [fields], [number]
    expected = (f"{width} {_sep_name(sep)}-separated fields 'query_id doc_id' + {width - 2} ratings "
                "(integer, or empty/NA when not rated), as on the file's first line")
    for number, text in lines:
        fields = text.split(sep)
        if len(fields) != width:
            raise trec.malformed(path, number, f"{expected}; found {len(fields)} fields", text)
        rows.append(fields)
        line_numbers.append(number)
    if not rows:
        raise trec.malformed(path, None, "at least one data line after the header", "none")
    table = np.array(rows, dtype=object)
    cells = table[:, 2:]
    for k, name in enumerate(("query_id", "doc_id")):
        empty = table[:, k] == ""
        if empty.any():
            at = int(np.flatnonzero(empty)[0])
            raise trec.malformed(path, line_numbers[at], f"{expected}; empty {name}",
                                    sep.join(rows[at]))
    missing = (cells == "") | (cells == "NA")
    numeric = pd.Series(cells.ravel()).str.fullmatch(_INTEGER).to_numpy(dtype=bool).reshape(cells.shape)
    bad = ~missing & ~numeric
    if bad.any():
        at, col = (int(v[0]) for v in np.nonzero(bad))
        raise trec.malformed(path, line_numbers[at], f"an integer rating or empty/NA in the column of "
                                f"assessor {assessors[col]}", cells[at, col])
    counts = (~missing).sum(axis=0)
    if (counts == 0).any():
        silent = [a for a, c in zip(assessors, counts) if c == 0]
        raise ValueError(f"{path}: assessor(s) {', '.join(map(repr, silent))} have no rating (every "
                         "cell empty or NA)")
    row_of, col_of = np.nonzero(~missing)  # row-major: item by item, in file order
    df = pd.DataFrame({
        "query_id": pd.Series(table[row_of, 0], dtype="str"),
        "doc_id": pd.Series(table[row_of, 1], dtype="str"),
        "assessor": pd.Series(np.array(assessors, dtype=object)[col_of], dtype="str"),
        "rating": cells[row_of, col_of].astype(str).astype(np.int64),
    })
    return origins.tag(df, path, lines=np.asarray(line_numbers)[row_of]), int(missing.sum())


def read_ratings(path: str | os.PathLike, *, layout: str = "long", d_max: int | None = None,
                 what: str = "ratings_path") -> pd.DataFrame:
    """Read per-assessor relevance ratings (several assessors per item).

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`resolve_paths`); files are concatenated.
    layout : {"long", "wide", "qrels"}
        ``"long"``: a delimited file whose header names the columns ``query_id, doc_id, assessor,
        rating`` in any order (tab-separated if the header has a tab, else comma-separated; no
        quoting); any other column is an error.
        ``"wide"``: the NTCIR STC layout, tab- (or comma-) separated ``query_id doc_id`` followed by
        one rating column per assessor. If the first field of the first line is ``query_id``, that
        line is a header and the assessor ids are its remaining column names (the second is the
        document column, whatever its name); otherwise there is no header and the assessors are
        ``C1``..``CN`` by column position. Empty cells and ``NA`` mean "not rated": they are
        dropped and counted in ``attrs["excluded"]["missing_labels"]``.
        ``"qrels"``: one qrels file per assessor (TREC 4-field or NTCIREVAL 3-field, see
        :func:`read_graded_qrels`); the assessor id is the file name without its extension(s)
        (``a1-qrels.txt.gz`` -> ``"a1-qrels"``).
    d_max : int, optional
        Highest rating; ratings must then be integers in ``0..d_max``. Negative ratings are
        refused in any case.
    what : str
        Parameter name shown when ``path`` matches no file.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``assessor`` (str) and ``rating`` (int64), sorted by
        ``query_id, doc_id, assessor`` (string order, stable). ``attrs``: ``levels`` = ``(0, d_max)``
        (or ``(0, highest rating)``), ``files`` (paths read), ``excluded`` (counts of left-out
        cells; ``{}`` for the long and qrels layouts).

    Raises
    ------
    ValueError
        ``"<file>:<line>: expected ..., got ..."`` for a malformed line, a rating that is not an
        integer or outside ``0..d_max``, or the same (query_id, doc_id, assessor) twice (also
        across files). Also for an assessor without any rating (naming the assessor and the
        file), two qrels files with the same assessor id, or no rating at all.
    """
    if layout not in RATING_LAYOUTS:
        raise ValueError(f"layout: expected one of {', '.join(RATING_LAYOUTS)}, got {layout!r}")
    if d_max is not None and (isinstance(d_max, bool) or not isinstance(d_max, (int, np.integer))
                              or d_max < 0):
        raise ValueError(f"d_max: expected an integer >= 0 or None, got {d_max!r}")
    files = resolve_paths(path, what=what)
    origins = _Origins()
    frames, excluded = [], {}
    if layout == "long":
        frames = [_ratings_long(p, origins) for p in files]
    elif layout == "wide":
        missing = 0
        for p in files:
            df, n_missing = _ratings_wide(p, origins)
            frames.append(df)
            missing += n_missing
        excluded["missing_labels"] = missing
    else:
        owners: dict[str, Path] = {}
        for p in files:
            assessor = _stem(p)
            if assessor in owners:
                raise ValueError(f"{what}: two files give assessor id {assessor!r} (the file name "
                                 f"without extensions): {owners[assessor]} and {p}")
            owners[assessor] = p
            if first_line(p) is None:
                raise ValueError(f"{p}: assessor {assessor!r} has no rating (empty file)")
            df = _read_qrels_file(p, origins, per_topic=False)
            frames.append(df.rename(columns={"relevance": "rating"})
                          .assign(assessor=pd.Series(assessor, index=df.index, dtype="str")))
    df = _concat(frames)
    if len(df) == 0:
        raise ValueError(f"{what}: no rating in {', '.join(map(str, files))}")
    rating = df["rating"].to_numpy()
    if d_max is None:
        origins.check(df, rating < 0, "a rating >= 0")
    else:
        origins.check(df, (rating < 0) | (rating > d_max), f"rating 0..{d_max}")
    origins.check_unique(df, ["query_id", "doc_id", "assessor"],
                         "each (query_id, doc_id, assessor) rated once")
    df = df.sort_values(["query_id", "doc_id", "assessor"], kind="stable")
    top = d_max if d_max is not None else int(rating.max())
    return _finish(df, RATING_COLUMNS, levels=(0, top), files=[str(p) for p in files],
                   excluded=excluded)


# ----------------------------------------------------------------------------------------------
# runs
# ----------------------------------------------------------------------------------------------
def _is_ranked_list(path: Path) -> bool:
    return _plain_name(path).lower().endswith(".res")


def _read_ranked_list(path: Path, run_id: str) -> pd.DataFrame:
    """An NTCIREVAL ranked list: one document per line, best first (further fields ignored)."""
    docs: list[str] = []
    seen: dict[str, int] = {}
    for number, text in _text_lines(path):
        doc = text.split()[0]
        if doc in seen:
            raise trec.malformed(path, number, f"each document once in a ranked list (already on "
                                    f"line {seen[doc]})", text)
        seen[doc] = number
        docs.append(doc)
    rank = np.arange(1, len(docs) + 1, dtype=np.int64)
    return pd.DataFrame({
        "run_id": pd.Series(run_id, index=range(len(docs)), dtype="str"),
        "query_id": pd.Series(_stem(path), index=range(len(docs)), dtype="str"),
        "doc_id": pd.Series(docs, dtype="str"),
        "rank": rank,
        "score": -rank.astype(np.float64),
    })


def read_runs(path: str | os.PathLike, *, depth: int | None = None,
              what: str = "runs_glob") -> pd.DataFrame:
    """Read retrieval runs: TREC run files or NTCIREVAL ranked lists.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`resolve_paths`), plain or gzipped.
        TREC run files (``query_id Q0 doc_id rank score run_id``) are read with
        :func:`helpers.io.trec.read_run` and put in ``trec_eval`` order by
        :func:`helpers.io.trec.sort_run` (decreasing score, ties by decreasing doc_id, rank
        renumbered from 1). Files whose name ends in ``.res`` (or ``.res.gz``) are NTCIREVAL
        ranked lists: one document per line, best first (the first field is the document id,
        further fields are ignored); rank = line order, score = -rank, topic = the file name
        without extension(s), run id = the name of the folder holding the file (so use a glob
        such as ``"runs/*/*.res"``). An empty ``.res`` file is a topic without retrieved
        documents and contributes no row.
    depth : int, optional
        Keep ranks ``1..depth`` of every (run, topic).
    what : str
        Parameter name shown when ``path`` matches no file.

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id``, ``query_id``, ``doc_id`` (str), ``rank`` (int64), ``score`` (float64),
        file by file in sorted file order. ``attrs["files"]`` lists the files read.

    Raises
    ------
    ValueError
        For a malformed line (``file:line``, from :mod:`helpers.io.trec`), a document twice in a
        ranked list (``file:line``), one run id found in two files (TREC) or in two folders /
        a folder and a file (naming both), the same topic twice in one folder of ranked lists,
        or no row at all.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer))
                              or depth < 1):
        raise ValueError(f"depth: expected an integer >= 1 or None, got {depth!r}")
    files = resolve_paths(path, what=what)
    owners: dict[str, Path] = {}
    topics: dict[tuple[Path, str], Path] = {}
    frames = []
    for p in files:
        if _is_ranked_list(p):
            folder = Path(os.path.abspath(p)).parent
            run_id = folder.name
            if not run_id:
                raise ValueError(f"{p}: a ranked list (.res) must be in a folder named after its run")
            other = topics.setdefault((folder, _stem(p)), p)
            if other != p:
                raise ValueError(f"{what}: topic {_stem(p)!r} of run {run_id!r} is in two ranked "
                                 f"lists: {other} and {p}")
            owner, run = folder, _read_ranked_list(p, run_id)
        else:
            owner, run = p, trec.sort_run(trec.read_run(p))
        for run_id in pd.unique(run["run_id"]):
            other = owners.setdefault(str(run_id), owner)
            if other != owner:
                raise ValueError(f"{what}: run id {run_id!r} is in both {other} and {owner}; give each "
                                 "run one file (or one folder of .res ranked lists)")
        if depth is not None:
            run = run[run["rank"].to_numpy() <= depth]
        frames.append(run)
    df = _concat(frames)
    if len(df) == 0:
        raise ValueError(f"{what}: no retrieved document in {', '.join(map(str, files))}")
    return _finish(df, ["run_id", "query_id", "doc_id", "rank", "score"],
                   files=[str(p) for p in files])


# ----------------------------------------------------------------------------------------------
# double judgments (Predicted Relevance Model)
# ----------------------------------------------------------------------------------------------
def _check_unique(df: pd.DataFrame, name: str) -> None:
    dup = df.duplicated(["query_id", "doc_id"])
    if dup.any():
        row = df.loc[dup].iloc[0]
        raise ValueError(f"{name} has {int(dup.sum())} repeated (query_id, doc_id) item(s), e.g. "
                         f"({row['query_id']}, {row['doc_id']}); one level per item expected")


def pairs_from_qrels(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame) -> pd.DataFrame:
    """Double judgments from two qrels tables: the items both judged, as ``query_id, doc_id, u1, u2``.

    Each table needs ``query_id, doc_id, relevance`` with one row per item. Items judged by only
    one side are left out (they are not double judgments). Rows are sorted by topic and document.
    """
    for name, df in (("qrels_u1", qrels_u1), ("qrels_u2", qrels_u2)):
        miss = [c for c in ("query_id", "doc_id", "relevance") if c not in df.columns]
        if miss:
            raise ValueError(f"{name} is missing column(s) {miss}")
        _check_unique(df, name)
    a = qrels_u1[["query_id", "doc_id", "relevance"]].rename(columns={"relevance": "u1"})
    b = qrels_u2[["query_id", "doc_id", "relevance"]].rename(columns={"relevance": "u2"})
    out = a.merge(b, on=["query_id", "doc_id"], how="inner")
    return out.sort_values(["query_id", "doc_id"], kind="stable").reset_index(drop=True)


def read_double_judgments(first: str | os.PathLike, second: str | os.PathLike | None = None, *,
                          ratings_layout: str = "long", assessors: tuple[str, str] | None = None,
                          levels: tuple[int, int] | None = None) -> pd.DataFrame:
    """Read double judgments (two assessors per item) for the Predicted Relevance Model.

    Parameters
    ----------
    first : str or path-like
        With ``second``: the qrels of assessor 1 (any format of :func:`read_graded_qrels`).
        Without: a ratings file (or folder/glob) read by :func:`read_ratings`.
    second : str or path-like, optional
        The qrels of assessor 2.
    ratings_layout : {"long", "wide", "qrels"}
        Layout of the ratings when ``second`` is None.
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
    bounds = None if levels is None else _level_range(levels)
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
    pairs = pairs_from_qrels(q1, q2)
    if len(pairs) == 0:
        raise ValueError(f"no item is judged by both {ids[0]!r} and {ids[1]!r} (files: "
                         f"{', '.join(files)}); check that topic and document ids are written alike")
    pairs = pairs.astype({"u1": "int64", "u2": "int64"})
    return _finish(pairs, ["query_id", "doc_id", "u1", "u2"], files=files, assessors=ids)


# ----------------------------------------------------------------------------------------------
# intents (diversity)
# ----------------------------------------------------------------------------------------------
def read_intents(path: str | os.PathLike) -> pd.DataFrame:
    """Read NTCIR intent probabilities: ``topic intent probability``, whitespace-separated.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`resolve_paths`).

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
    origins = _Origins()
    names = ["query_id", "intent_id", "prob"]
    df = _concat([origins.tag(trec.read_delimited(
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
    return _finish(df, names, files=[str(p) for p in files])


def _types_from_xml(path: Path, origins: _Origins) -> pd.DataFrame:
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
        A file, a folder or a glob (see :func:`resolve_paths`). Each file is either
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
    origins = _Origins()
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
    df = _concat(frames)
    origins.check_unique(df, ["query_id", "intent_id"], "each (topic, intent) pair typed once")
    return _finish(df, names, files=[str(p) for p in files])


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
        A file, a folder or a glob (see :func:`resolve_paths`), each read by
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
    origins = _Origins()
    df = _concat([origins.tag(trec.read_diversity_qrels(p), p) for p in files])
    origins.check_unique(df, ["query_id", "intent_id", "doc_id"],
                         "each (query_id, intent_id, doc_id) triple judged once")
    negative = (df["relevance"] < 0).to_numpy()
    df.loc[negative, "relevance"] = 0
    return _finish(df, ["query_id", "intent_id", "doc_id", "relevance"],
                   files=[str(p) for p in files],
                   excluded={"negative_set_to_zero": int(negative.sum())})


# ----------------------------------------------------------------------------------------------
# SERP-pair preferences
# ----------------------------------------------------------------------------------------------
def read_preferences(path: str | os.PathLike, *, codes: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Read side-by-side SERP preference judgments.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`resolve_paths`). Each file is delimited with a
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
    origins = _Origins()
    columns = ["pair_id", "query_id", "run_left", "run_right", "question", "assessor", "label"]
    frames = []
    for p in files:
        names, sep = _header(p, "a header line naming the columns " + ", ".join(PREFERENCE_COLUMNS))
        _check_columns(p, names, PREFERENCE_COLUMNS, optional=("question",))
        df = trec.read_delimited(p, names, dtypes=dict.fromkeys(names, str), sep=sep, header=True,
                                    expected=f"{len(names)} {_sep_name(sep)}-separated fields "
                                             f"{sep.join(names)!r} as in the header")
        if "question" not in df.columns:
            df["question"] = pd.Series(DEFAULT_QUESTION, index=df.index, dtype="str")
        frames.append(origins.tag(df[columns], p, skip=1))
    df = _concat(frames)
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
    return _finish(df, columns, files=[str(p) for p in files])


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


# ----------------------------------------------------------------------------------------------
# summary
# ----------------------------------------------------------------------------------------------
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
