"""Reading the text files users give: paths, lines, headers, and where each row came from.

The machinery every reader of :mod:`helpers.io.readers` shares: :func:`resolve_paths` turns a file,
folder, glob or list into files; :func:`text_lines` yields a file's non-blank UTF-8 lines with
their numbers (BOM and NUL refused); :func:`header` and :func:`check_columns` read and check a
delimited header; :class:`Origins` remembers the file and line of every row of a frame
concatenated from several files, so that checks made later still say ``file:line``.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from . import trec

__all__ = ["resolve_paths", "source", "plain_name", "stem", "text_lines", "first_line", "line_text", "header",
           "check_columns", "sep_name", "Origins", "concat", "finish", "level_range", "integer_values",
           "INTEGER", "NTCIR_LEVEL"]


_GLOB_CHARS = re.compile(r"[*?\[]")

INTEGER = r"[+-]?[0-9]{1,18}"      # 18 digits: every such number fits int64

NTCIR_LEVEL = r"L[0-9]{1,18}|[+-]?[0-9]{1,18}"



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
    if path.exists() and not path.is_dir():
        # /dev/stdin, a named pipe, <(...): read more than once here (its format, then its lines)
        raise ValueError(f"{what}: {shown!r} is not a regular file (a pipe, a device or standard input); "
                         "standard input is not read: save it to a file and give that file")
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if not p.name.startswith("."))
    elif _GLOB_CHARS.search(text):
        found = sorted(Path(p) for p in glob.glob(text, recursive=True))
    else:
        found = [path] if path.is_symlink() else []
    refuse_dangling(found, what=what)
    files = [p for p in found if p.is_file()]
    if not files:
        raise missing
    return files


def refuse_dangling(paths: Sequence[Path], *, what: str) -> None:
    """Refuse a symbolic link whose target does not exist among ``paths`` (a folder's entries or a
    glob's matches): it was left out without a word, so a run went missing from the results."""
    dangling = [p for p in paths if p.is_symlink() and not p.exists()]
    if dangling:
        shown = ", ".join(repr(os.fspath(p)) for p in dangling[:5]) + (" ..." if len(dangling) > 5 else "")
        raise ValueError(f"{what}: {shown} {'is a symbolic link' if len(dangling) == 1 else 'are symbolic links'} "
                         f"to a file that does not exist ({os.readlink(dangling[0])!r}); fix or remove "
                         f"{'it' if len(dangling) == 1 else 'them'}: a file that cannot be read is never left out")


def plain_name(path: Path) -> str:
    """File name without a trailing ``.gz``."""
    name = path.name
    return name[:-3] if name.lower().endswith(".gz") else name


def stem(path: Path) -> str:
    """File name without ``.gz`` and without the extension before it: ``a1-qrels.txt.gz`` -> ``a1-qrels``."""
    name = plain_name(path)
    base, dot, _ = name.rpartition(".")
    return base if dot and base else name


def text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Non-blank lines of a (possibly gzipped) UTF-8 file as ``(line_number, text)``.

    A byte-order mark at the very start is removed; anywhere else, like a NUL byte or an
    undecodable line, it is an error.
    """
    for number, text in trec.numbered_lines(path):
        if isinstance(text, bytes):
            raise trec.malformed(path, number, "UTF-8 text", text)
        if number == 1:
            text = text.removeprefix("\ufeff")
            if not trec.c_fields(text):
                continue
        if "\ufeff" in text or "\x00" in text:
            raise trec.malformed(path, number, "text without a byte-order mark (U+FEFF) or NUL "
                                    "byte inside the file (two files concatenated, or a binary file?)",
                                    text)
        yield number, text


def first_line(path: Path) -> tuple[int, str] | None:
    """The first non-blank line of ``path`` as ``(line_number, text)``, or None for an empty file."""
    return next(text_lines(path), None)


def line_text(path: Path, line: int) -> str | bytes:
    for number, text in trec.numbered_lines(path):
        if number == line:
            return text
    return ""


def header(path: Path, expected: str) -> tuple[list[str], str]:
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


def check_columns(path: Path, names: Sequence[str], required: Sequence[str],
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
                                f"{'; '.join(problems)}", line_text(path, 1))


def sep_name(sep: str) -> str:
    return "tab" if sep == "\t" else "comma"


class Origins:
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
            raise trec.malformed(path, line, expected, line_text(path, line) if got is None else got)

    def check_unique(self, df: pd.DataFrame, keys: Sequence[str], expected: str) -> None:
        """Raise for the first row whose ``keys`` repeat an earlier row, naming both lines."""
        keys = list(keys)
        dup = df.duplicated(keys).to_numpy()
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            same = np.logical_and.reduce([df[k].to_numpy(dtype=object) == df[k].iat[i] for k in keys])
            first_path, first_no = self.where(df, int(np.flatnonzero(same)[0]))
            self.check(df, np.arange(len(df)) == i, f"{expected} (already on {first_path}:{first_no})")


def concat(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].reset_index(drop=True)


def finish(df: pd.DataFrame, columns: Sequence[str], **attrs) -> pd.DataFrame:
    out = df[list(columns)].reset_index(drop=True)
    out.attrs = dict(attrs)
    return out


def source(df: pd.DataFrame, fallback: str) -> str:
    """How a message names the input a frame was read from: its parameter and files
    (``qrels_path (qrels.txt)``, from ``attrs`` set by the readers), else ``fallback``."""
    what = df.attrs.get("what") or fallback
    files = [Path(f).name for f in (df.attrs.get("files") or [])]
    return f"{what} ({', '.join(files[:3])}{', ...' if len(files) > 3 else ''})" if files else what


def row_place(df: pd.DataFrame, i: int) -> str:
    """Where row ``i`` of a frame read from files came from, for a message about a value found
    after reading: ``file:line`` of the first line of ``attrs["files"]`` holding the row's
    ``query_id`` and ``doc_id`` as fields (searched only when a message needs it), else
    ``row i`` (a frame the caller built)."""
    keys = [str(df[c].iat[i]) for c in ("query_id", "doc_id") if c in df.columns]
    for f in (df.attrs.get("files") or []) if keys else []:
        try:
            for number, text in trec.numbered_lines(Path(f)):
                fields = trec.c_fields(text) if isinstance(text, str) else []
                if fields and fields[0] == keys[0] and all(k in fields for k in keys):
                    return f"{f}:{number}"
        except OSError:
            break
    return f"row {i}"


def level_range(levels, name: str = "levels") -> tuple[int, int]:
    try:
        lo, hi = levels
        lo, hi = int(lo), int(hi)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a pair of integers (lo, hi), got {levels!r}") from None
    if lo > hi:
        raise ValueError(f"{name}: expected lo <= hi, got {levels!r}")
    return lo, hi


def integer_values(origins: Origins, df: pd.DataFrame, column: str, pattern: str,
                    expected: str) -> pd.Series:
    """Integer values of a text column, refusing (file:line) any value that is not ``pattern``."""
    text = df[column].astype("str")
    origins.check(df, ~text.str.fullmatch(pattern).to_numpy(dtype=bool), expected)
    return text.str.removeprefix("L").astype("int64")
