"""Readers for TREC-style text files: qrels, runs and ndeval diversity qrels.

All readers return tidy :class:`pandas.DataFrame` objects with the column names of
``ir_measures`` (``query_id``, ``doc_id``, ``relevance``, ``run_id``, ``rank``, ``score``;
``intent_id`` for the subtopic of a diversity judgment). Identifiers are always strings
(``"19335"``, never ``19335``), so that topic ``"01"`` and ``"1"`` stay distinct and joins between
qrels and runs never silently fail on a dtype mismatch.

Speed and errors
----------------
The happy path is a single :func:`pandas.read_csv` call with the C engine (whitespace separated,
no quoting, gzip detected from the file's magic bytes, not its name). Only when that call fails,
or when a vectorised check finds a bad value, is the file scanned line by line in Python to name
the first offending line. Every error is a :class:`ValueError` whose message starts with
``"<file>:<line>: expected ..., got ..."``. Blank (whitespace-only) lines are skipped, as
``trec_eval`` does; line numbers in messages count every physical line, blank ones included.

The 37 official TREC DL 2019 passage runs (6.6 M lines, 85 MB gzipped) are read in about 4 s of CPU
time (see ``data/README.md`` for the measurements).
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import os
import re
import warnings
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "read_qrels",
    "read_run",
    "read_diversity_qrels",
    "read_delimited",
    "row_line",
    "malformed",
    "sort_run",
    "is_int",
    "is_finite",
    "is_gzip",
    "numbered_lines",
]

QRELS_FORMAT = "4 whitespace-separated fields 'query_id iteration doc_id relevance' (integer relevance)"
GAIN_QRELS_FORMAT = "4 whitespace-separated fields 'query_id iteration doc_id gain' (numeric gain)"
RUN_FORMAT = ("6 whitespace-separated fields 'query_id Q0 doc_id rank score run_id' "
              "(integer rank, finite numeric score)")
DIVERSITY_FORMAT = ("4 whitespace-separated fields 'query_id intent_id doc_id relevance' "
                    "(ndeval format, integer relevance)")

_EXTRA = "__surplus_field__"

#: Gzipped files up to this size (compressed) are decompressed in memory once; larger ones stream.
_IN_MEMORY = 256 << 20

# A field check takes the field's text and returns True when it is acceptable.
FieldCheck = Callable[[str], bool]


_INT_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")
_FLOAT_TEXT = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")


def is_int(text: str) -> bool:
    """True when ``text`` is an integer the file parser reads into int64: digits with an optional
    sign (no ``3_0``, which Python's ``int()`` would take) and within int64's range."""
    if not _INT_TEXT.fullmatch(text):
        return False
    return -(2 ** 63) <= int(text) < 2 ** 63


def is_finite(text: str) -> bool:
    """True when ``text`` is a finite decimal number as the file parser reads it (no ``3_0``,
    ``inf``, ``nan`` or ``0x1p3``)."""
    return bool(_FLOAT_TEXT.fullmatch(text)) and math.isfinite(float(text))


def is_gzip(path: Path) -> bool:
    """True when the file starts with gzip's magic bytes (compression is read from the content)."""
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def _open_binary(path: Path):
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def malformed(path: os.PathLike | str, line: int | None, expected: str, got: object) -> ValueError:
    """Build the project's standard error for a malformed input line.

    Parameters
    ----------
    path : path-like
        File that holds the bad line.
    line : int or None
        1-based physical line number (``None`` when the problem concerns the whole file).
    expected : str
        What a well-formed line looks like.
    got : object
        What was found (a line is shown with :func:`repr`, so tabs and spaces are visible).

    Returns
    -------
    ValueError
        With the message ``"<file>:<line>: expected <expected>, got <got>"``.
    """
    where = f"{path}:{line}" if line is not None else f"{path}"
    shown = repr(got) if isinstance(got, str) else str(got)
    return ValueError(f"{where}: expected {expected}, got {shown}")


def numbered_lines(path: Path, *, skip: int = 0) -> Iterator[tuple[int, str | bytes]]:
    """Yield ``(line_number, text)`` for non-blank lines after ``skip`` header lines.

    Undecodable lines are yielded as ``bytes`` so that the caller can report them.
    """
    with _open_binary(path) as fh:
        number = 0
        try:
            for number, raw in enumerate(fh, start=1):
                if number <= skip:
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    yield number, raw
                    continue
                text = text.rstrip("\r\n")
                if _C_SPACE.sub("", text):
                    yield number, text
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise ValueError(f"{path}:{number + 1}: expected a complete gzip file, got a truncated or "
                             f"corrupt one ({exc}); download it again") from None


_C_SPACE = re.compile(r"[ \t\n\r\x0b\x0c]+")


def c_fields(text: str) -> list[str]:
    """The whitespace-separated fields of a line as trec_eval and the API read them: split on C's
    ``isspace`` bytes only, so U+00A0, U+3000, U+2028, U+0085 or ``\x1c`` stay inside an id
    (``str.split()`` would split there). The one tokenizer of the text readers."""
    return [f for f in _C_SPACE.split(text) if f]


def _split(text: str, sep: str | None) -> list[str]:
    """Fields of a line: with ``sep=None`` split on what C's ``isspace`` calls space (trec_eval's
    rule: a no-break space or U+2028 is part of an id, as in :mod:`helpers.io.fields`)."""
    return [f for f in _C_SPACE.split(text) if f] if sep is None else text.split(sep)


def _locate(path: Path, *, n_fields: int, checks: dict[int, FieldCheck], expected: str,
            sep: str | None, skip: int) -> None:
    """Scan ``path`` and raise :func:`malformed` for the first line that breaks the format."""
    for number, text in numbered_lines(path, skip=skip):
        if isinstance(text, bytes):
            raise malformed(path, number, f"UTF-8 text: {expected}", text)
        fields = _split(text, sep)
        if len(fields) != n_fields:
            raise malformed(path, number, f"{expected}; found {len(fields)} fields", text)
        for index, check in checks.items():
            if not check(fields[index]):
                raise malformed(path, number, f"{expected}; field {index + 1} is invalid", text)


def row_line(path: os.PathLike | str, row: int, *, skip: int = 0) -> int:
    """Physical 1-based line number of the ``row``-th (0-based) data row of ``path``.

    Blank lines are not data rows (they are skipped by the readers), and ``skip`` header lines
    come first. Used to turn a vectorised check's failing row into a ``file:line`` message.

    Parameters
    ----------
    path : path-like
        Text file, optionally gzip-compressed.
    row : int
        0-based index of the data row, as in the DataFrame a reader returned.
    skip : int
        Number of header lines before the first data row.

    Returns
    -------
    int
        The line number.
    """
    for index, (number, _) in enumerate(numbered_lines(Path(path), skip=skip)):
        if index == row:
            return number
    raise IndexError(f"{path} has no data row {row}")


def read_delimited(path: os.PathLike | str, names: Sequence[str], *, dtypes: dict[str, object],
                   expected: str, checks: dict[int, FieldCheck] | None = None,
                   sep: str | None = None, header: bool = False,
                   usecols: Sequence[int] | None = None, exact_ints: bool = True) -> pd.DataFrame:
    """Read a delimited text file into typed columns, with line-accurate errors.

    The workhorse of the readers in this module (and of the loaders in
    :mod:`helpers.data.datasets`): one C-engine :func:`pandas.read_csv` call; on any parse error, or when a
    field is missing, the file is scanned to report the first malformed line.

    Parameters
    ----------
    path : path-like
        Text file, UTF-8, optionally gzip-compressed (detected from its content).
    names : sequence of str
        One name per field; every line must have exactly ``len(names)`` fields.
    dtypes : dict
        ``read_csv`` dtypes by name (``str``, ``"int64"``, ``"float64"``).
    expected : str
        Description of a well-formed line, used in error messages.
    checks : dict of int to callable, optional
        Per-field (0-based) validators used by the line scan; they should reject whatever the
        dtypes reject (e.g. ``int`` for an ``"int64"`` column).
    sep : str, optional
        Field separator; ``None`` (default) means runs of whitespace.
    header : bool
        Whether the first line is a header to skip.
    usecols : sequence of int, optional
        Fields to keep (all are still counted and validated).
    exact_ints : bool
        ``"int64"`` fields must be written as integers (digits with an optional sign), as their
        check says: pandas' parser alone reads ``2.0`` as 2 and ``1e3`` as 1000 (trec_eval's
        ``atol`` reads 2 and 1), so such a level would be taken silently. False keeps the parser's
        reading (a run's rank column, which only orders, in files of millions of lines).

    Returns
    -------
    pandas.DataFrame
        One row per non-blank data line, in file order.

    Raises
    ------
    ValueError
        ``"<file>:<line>: expected ..., got ..."`` for a malformed line; ``"<file>: expected ...,
        got an empty file"`` when there is no data line.
    """
    path = Path(path)
    checks = dict(checks or {})
    skip = 1 if header else 0
    names = list(names)
    # A sentinel column catches lines with one field too many (read_csv would otherwise drop it
    # silently); more than one surplus field is a tokenizer error or a ParserWarning (made an error).
    keep = list(range(len(names))) if usecols is None else list(usecols)
    exact = [n for n in names if exact_ints and dtypes.get(n) == "int64"]
    gz = is_gzip(path)
    kwargs = dict(
        sep=r"\s+" if sep is None else sep, header=None, names=names + [_EXTRA], index_col=False,
        dtype={**dtypes, **{n: str for n in exact}, _EXTRA: str}, engine="c", encoding="utf-8",
        quoting=csv.QUOTE_NONE, keep_default_na=False, na_values=[], skip_blank_lines=True,
        skiprows=skip,
    )
    data = None
    try:
        # a gzipped file is decompressed once, in memory, for both the parser and the byte scan
        # below (unless it is large: then both stream it)
        if gz and path.stat().st_size <= _IN_MEMORY:
            data = gzip.decompress(path.read_bytes())
        raw = data if data is not None else (path.read_bytes() if not gz and sep is None and not skip else None)
        tokens = raw is not None and sep is None and not skip and _FIELD_BYTES.search(raw) is not None
        if not tokens:
            with warnings.catch_warnings():
                warnings.simplefilter("error", pd.errors.ParserWarning)
                df = pd.read_csv(io.BytesIO(data) if data is not None else path,
                                 compression="gzip" if gz and data is None else None, **kwargs)
    except pd.errors.EmptyDataError:
        raise malformed(path, None, expected, "an empty file") from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise ValueError(f"{path}: expected a complete gzip file, got a truncated or corrupt one "
                         f"({exc}); download it again") from None
    except (ValueError, pd.errors.ParserError, pd.errors.ParserWarning, UnicodeDecodeError,
            OverflowError) as exc:
        _locate(path, n_fields=len(names), checks=checks, expected=expected, sep=sep, skip=skip)
        raise ValueError(f"{path}: expected {expected}, but the file could not be parsed: {exc}") from exc
    if tokens:
        # bytes the C parser does not split on (\v, \f) or splits lines at (a bare CR), where
        # trec_eval does otherwise: the one tokenizer of helpers.io.fields decides every byte
        return _read_tokens(path, raw, names, dtypes, expected, checks, keep)
    if len(df) == 0:
        raise malformed(path, None, expected, "an empty file")
    # With keep_default_na=False a missing trailing text field reads as "" (numeric ones raise
    # above): an empty text field or a non-empty sentinel means a line with the wrong field count.
    # Whitespace-separated fields can only be missing at the end of a line, so checking the last
    # field suffices there; with an explicit separator any field can be empty.
    if sep is not None:
        # "a, b, c": the header's names are read without the spaces around them, so are the values
        # (" d1" and "d1" would otherwise be two items, " A1" another assessor)
        for name in names:
            if df[name].dtype == "str" or df[name].dtype == object:
                df[name] = df[name].str.strip()
    bad = df[_EXTRA].to_numpy() != ""
    for name in (names if sep is not None else names[-1:]):
        if pd.api.types.is_string_dtype(df[name].dtype):  # "str" (pandas 3) or object (pandas 2.2)
            bad |= (df[name] == "").to_numpy()
    if bad.any():
        _locate(path, n_fields=len(names), checks=checks, expected=expected, sep=sep, skip=skip)
        _check_rows(path, bad, f"{expected} (no empty field)", skip=skip)
    # A byte-order mark after the first byte (two files concatenated) or a NUL byte would otherwise
    # become part of an identifier and create phantom topics or documents.
    stray = np.zeros(len(df), dtype=bool)
    has_stray = _has_stray_bytes(path, data)
    for name in (names if has_stray else []):
        if df[name].dtype == "str" or df[name].dtype == object:
            col = df[name].astype(str)
            stray |= (col.str.contains("\ufeff", regex=False) | col.str.contains("\x00", regex=False)).to_numpy()
    stray_text = f"{expected}, without a byte-order mark (U+FEFF) or NUL byte inside the file (two files " \
                 "concatenated, or a binary file?)"
    if stray.any():
        _check_rows(path, stray, stray_text, skip=skip)
    elif has_stray:  # pandas 2.2's parser cuts a field at a NUL byte: the line is found in the text
        for number, text in numbered_lines(path, skip=skip):
            if "\x00" in str(text):
                raise malformed(path, number, stray_text, text)
    for name in exact:
        df[name] = _exact_int(path, df[name], names.index(name), expected, skip)
    return df[[names[i] for i in keep]]


def _exact_int(path: Path, text: pd.Series, k: int, expected: str, skip: int) -> pd.Series:
    """An int64 column from its text, refusing what :func:`is_int` refuses (``2.0``, ``1e3``, ``3_0``,
    beyond int64) with the file and line; vectorised, the per-value check runs only on a failure."""
    ok = text.str.fullmatch(r"[+-]?[0-9]{1,18}").to_numpy(dtype=bool, copy=True)
    if not ok.all():
        ok |= np.fromiter((is_int(t) for t in text), dtype=bool, count=len(text))  # 19 digits within int64
        _check_rows(path, ~ok, f"{expected}; field {k + 1} is not an integer (digits with an optional sign)",
                    skip=skip)
    return text.astype("int64")


_FIELD_BYTES = re.compile(rb"[\x0b\x0c]|\r(?!\n)")


def _read_tokens(path: Path, raw: bytes, names: list[str], dtypes: dict, expected: str,
                 checks: dict[int, FieldCheck], keep: list[int]) -> pd.DataFrame:
    """:func:`read_delimited` for whitespace-separated files through :func:`helpers.io.fields.split_lines`."""
    from .fields import split_lines

    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]                 # one leading byte-order mark is accepted here, as by the C parser
    lines = split_lines(raw, path, len(names), expected, comments=None, blank=True, keep=keep)
    cols = {}
    for k, name in zip(keep, [names[i] for i in keep]):
        try:
            text = b"\n".join(lines.fields[keep.index(k)]).decode("utf-8").split("\n")
        except UnicodeDecodeError:
            bad = [i for i, t in enumerate(lines.fields[keep.index(k)]) if not _utf8(t)]
            raise lines.error(bad[0], f"UTF-8 text: {expected}") from None
        check = checks.get(k)
        if check is not None:
            bad = [i for i, t in enumerate(text) if not check(t)]
            if bad:
                raise lines.error(bad[0], f"{expected}; field {k + 1} is invalid")
        dtype = dtypes.get(name, str)
        cols[name] = pd.Series(text, dtype="str") if dtype is str else pd.Series(text).astype(dtype)
    return pd.DataFrame(cols)


def _utf8(t: bytes) -> bool:
    try:
        t.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _has_stray_bytes(path: Path, data: bytes | None = None, chunk: int = 1 << 24) -> bool:
    """Whether the (decompressed) file holds a NUL byte or a UTF-8 byte-order mark after its first
    byte: one fast byte scan, so the per-field search that names the line runs only when needed.
    ``data``: the file's decompressed content when the caller already has it."""
    bom, tail, offset = b"\xef\xbb\xbf", b"", 0
    if data is not None:
        return b"\x00" in data or data.find(bom, 1) >= 0
    with _open_binary(path) as fh:
        while True:
            block = fh.read(chunk)
            if not block:
                return False
            data = tail + block
            if b"\x00" in block:
                return True
            start = 1 if offset == 0 else 0  # a leading BOM is allowed (and dropped by the parser)
            if data.find(bom, start) >= 0:
                return True
            offset += len(block)
            tail = data[-2:]


def _check_rows(path: Path, bad: np.ndarray, expected: str, skip: int = 0) -> None:
    """Raise for the first True entry of the boolean row mask ``bad``."""
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        number = row_line(path, row, skip=skip)
        text = next(t for n, t in numbered_lines(path, skip=skip) if n == number)
        raise malformed(path, number, expected, text)


def read_qrels(path: os.PathLike | str, *, gain_values: bool = False) -> pd.DataFrame:
    """Read a TREC qrels file (``query_id iteration doc_id relevance``).

    Parameters
    ----------
    path : path-like
        Qrels file, optionally gzip-compressed. The iteration field is read and discarded.
    gain_values : bool
        If False (default), the fourth field must be an integer and is returned as an ``int64``
        ``relevance`` column (negative levels such as ``-2`` are kept as they are). If True, it
        may be any finite number and is returned as a ``float64`` ``gain`` column.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str) and ``relevance`` (int64) or ``gain``
        (float64), one row per line, in file order.

    Raises
    ------
    ValueError
        ``"<file>:<line>: expected ..., got ..."`` for a line with the wrong number of fields,
        a non-integer (non-numeric) label, or a (query_id, doc_id) pair judged twice.
    """
    path = Path(path)
    value = "gain" if gain_values else "relevance"
    expected = GAIN_QRELS_FORMAT if gain_values else QRELS_FORMAT
    df = read_delimited(
        path, ["query_id", "iteration", "doc_id", value],
        dtypes={"query_id": str, "iteration": str, "doc_id": str,
                value: "float64" if gain_values else "int64"},
        expected=expected, checks={3: is_finite if gain_values else is_int},
        usecols=[0, 2, 3],
    )
    if gain_values:
        _check_rows(path, ~np.isfinite(df[value].to_numpy()), expected)
        _check_rows(path, df[value].to_numpy() < 0, f"{expected} >= 0 (a gain is never negative: label "
                    "non-relevant documents 0; negative relevance levels are read as levels, without --gain-values)")
    _check_rows(path, df.duplicated(["query_id", "doc_id"]).to_numpy(),
                "each (query_id, doc_id) pair judged once")
    return df


def read_diversity_qrels(path: os.PathLike | str) -> pd.DataFrame:
    """Read ndeval-format diversity qrels (``topic subtopic docid level``).

    Parameters
    ----------
    path : path-like
        Qrels file, optionally gzip-compressed, as distributed by the TREC Web Track.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``intent_id`` (str), ``doc_id`` (str), ``relevance`` (int64;
        the level as written, negative spam levels included), in file order.

    Raises
    ------
    ValueError
        For a line without exactly four fields, a non-integer level, or a duplicated
        (query_id, intent_id, doc_id) triple.
    """
    path = Path(path)
    df = read_delimited(
        path, ["query_id", "intent_id", "doc_id", "relevance"],
        dtypes={"query_id": str, "intent_id": str, "doc_id": str, "relevance": "int64"},
        expected=DIVERSITY_FORMAT, checks={3: is_int},
    )
    _check_rows(path, df.duplicated(["query_id", "intent_id", "doc_id"]).to_numpy(),
                "each (query_id, intent_id, doc_id) triple judged once")
    return df


def read_run(path: os.PathLike | str, *, run_id: str | None = None, duplicates: str = "error") -> pd.DataFrame:
    """Read a TREC run file (``query_id Q0 doc_id rank score run_id``), plain or gzipped.

    Parameters
    ----------
    path : path-like
        Run file; gzip compression is detected from the content, whatever the file's name.
    run_id : str, optional
        Name to give the run instead of the sixth field (useful when several files share a tag,
        e.g. the TREC Web 2012 baselines are all tagged ``indri``). The sixth field must still
        be present.
    duplicates : {"error", "keep_first"}
        A document twice for one (run_id, query_id): refused with its line (default), or kept
        (every copy; :func:`helpers.measures.evaluate` with ``duplicates="keep_first"`` keeps the
        highest-ranked one, as it does for frames).

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id`` (str), ``query_id`` (str), ``doc_id`` (str), ``rank`` (int64, as
        written in the file) and ``score`` (float64), in file order. Ranks are not recomputed:
        ``trec_eval`` ignores them and sorts by decreasing score (ties by decreasing doc_id);
        measure code should do its own ordering.

    Raises
    ------
    ValueError
        For a line without exactly six fields, a non-integer rank, a missing or non-finite
        score, or a document retrieved twice for the same query by the same run.
    """
    path = Path(path)
    names = ["query_id", "q0", "doc_id", "rank", "score", "run_id"]
    df = read_delimited(
        path, names,
        dtypes={"query_id": str, "q0": str, "doc_id": str, "rank": "int64",
                "score": "float64", "run_id": str},
        expected=RUN_FORMAT, checks={3: is_int, 4: is_finite}, usecols=[0, 2, 3, 4, 5],
        exact_ints=False,  # a rank written 2.0 is read as 2 (it only orders; trec_eval ignores it)
    )
    _check_rows(path, ~np.isfinite(df["score"].to_numpy()), RUN_FORMAT)
    if run_id is not None:
        df["run_id"] = pd.Series(run_id, index=df.index, dtype="str")
    tags = df["run_id"].to_numpy(dtype=object)
    single = bool((tags == tags[0]).all()) if len(tags) else True
    if not single:
        _warn_several_tags(path, df["run_id"])
    key = ["query_id", "doc_id"] if single else ["run_id", "query_id", "doc_id"]
    if duplicates != "keep_first":
        _check_rows(path, df.duplicated(key).to_numpy(),
                    "each document at most once per (run_id, query_id) (duplicates='keep_first', "
                    "--duplicates keep_first, keeps the highest-ranked copy)")
    return df[["run_id", "query_id", "doc_id", "rank", "score"]]


def _warn_several_tags(path: Path, tags: pd.Series) -> None:
    """A run file whose lines carry more than one run tag is read as several runs; trec_eval reads
    a file as one run. Often a stray line (an edited or concatenated file): say so, with the line."""
    counts = tags.value_counts(sort=True)
    first_other = int(np.flatnonzero((tags != tags.iloc[0]).to_numpy())[0])
    number = row_line(path, first_other)
    shown = ", ".join(f"{t!r} ({n:,} line{'s' if n != 1 else ''})" for t, n in counts.head(4).items())
    warnings.warn(f"{path}:{number}: the file holds {len(counts)} run tags ({shown}{', ...' if len(counts) > 4 else ''}) "
                  f"and is read as {len(counts)} runs; trec_eval reads one file as one run: pass run_id= "
                  "(CLI: --name-by-file) to read it so", UserWarning, stacklevel=3)


def sort_run(run: pd.DataFrame) -> pd.DataFrame:
    """Order a run as ``trec_eval`` does and renumber ``rank`` from 1.

    ``trec_eval`` ignores the rank field: within each (run_id, query_id) it sorts documents by
    decreasing score and breaks ties by decreasing ``doc_id`` (string order). Files that are already
    in that order (the common case) are only renumbered, which is cheap; the others are sorted.

    Parameters
    ----------
    run : pandas.DataFrame
        Columns ``run_id, query_id, doc_id, rank, score`` as returned by :func:`read_run`.

    Returns
    -------
    pandas.DataFrame
        Same rows, grouped by (run_id, query_id) in order of first appearance, each group in
        ``trec_eval`` order, with ``rank`` = 1, 2, ... and a fresh RangeIndex.
    """
    if len(run) == 0:
        return run.reset_index(drop=True)
    run = run.reset_index(drop=True)
    runs = run["run_id"].to_numpy(dtype=object)
    queries = run["query_id"].to_numpy(dtype=object)
    score = run["score"].to_numpy()
    same = (runs[1:] == runs[:-1]) & (queries[1:] == queries[:-1])
    starts = np.r_[0, np.flatnonzero(~same) + 1]
    contiguous = len(set(zip(runs[starts], queries[starts]))) == len(starts)
    scores_sorted = contiguous and not (same & (score[1:] > score[:-1])).any()
    if scores_sorted:
        # Only tied scores may be out of order: re-sort each block of ties by decreasing doc_id.
        ties = same & (score[1:] == score[:-1])
        if ties.any():
            docs = run["doc_id"].to_numpy(dtype=object)
            tie_at = np.flatnonzero(ties)
            if not (docs[tie_at] > docs[tie_at + 1]).all():
                member = np.zeros(len(run), dtype=bool)
                member[tie_at] = True
                member[tie_at + 1] = True
                rows = np.flatnonzero(member)
                # a new block starts at a member row that is not tied to its predecessor
                tied_to_prev = np.r_[False, ties][rows]
                block = np.cumsum(~tied_to_prev)
                keyed = pd.DataFrame({"b": block, "d": docs[rows]})
                within = keyed.sort_values(["b", "d"], ascending=[True, False],
                                           kind="stable").index.to_numpy()
                order = np.arange(len(run))
                order[rows] = rows[within]
                run = run.take(order).reset_index(drop=True)
    else:
        run_codes = pd.factorize(runs)[0].astype(np.int64)
        query_codes = pd.factorize(queries)[0].astype(np.int64)
        group = run_codes * (int(query_codes.max()) + 1) + query_codes
        position = pd.factorize(group)[0]  # groups numbered in order of first appearance
        keyed = pd.DataFrame({"g": position, "s": score, "d": run["doc_id"].to_numpy(dtype=object)})
        order = keyed.sort_values(["g", "s", "d"], ascending=[True, False, False],
                                  kind="stable").index.to_numpy()
        run = run.take(order).reset_index(drop=True)
        position = position[order]
        starts = np.flatnonzero(np.r_[True, position[1:] != position[:-1]])
    lengths = np.diff(np.r_[starts, len(run)])
    run["rank"] = np.arange(len(run), dtype=np.int64) - np.repeat(starts, lengths) + 1
    return run
