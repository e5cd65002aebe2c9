"""The one tokenizer of whitespace-separated TREC files: every byte decided as trec_eval decides it.

trec_eval (``get_qrels.c``, ``get_trec_results.c``, ...) reads a file as bytes: lines end at
``\\n``; fields are separated by runs of what C's ``isspace`` calls space in the C locale -- space,
``\\t``, ``\\r``, ``\\v`` (``\\x0b``), ``\\f`` (``\\x0c``) -- and by nothing else. A no-break space
(U+00A0), ``\\x1c``-``\\x1f``, U+0085 or U+2028 is part of a field, as is any byte that is not one
of those six. Python's ``bytes.split()`` splits on exactly these bytes, so this module splits the
bytes and never the decoded text (``str.split()`` splits on U+00A0 and U+2028 too).

One function, :func:`split_lines`, does it for every caller, with no fast/slow divergence: the
common file (every line with the same number of fields, no comment) takes a shortcut whose result
is checked to be the one the general path would give. It refuses what trec_eval would read into
a wrong number without a word:

* a NUL byte (trec_eval's strings end there: the rest of the field is lost);
* a byte-order mark (trec_eval reads it as part of the first topic id, which then matches nothing);
* a carriage return followed by more text on the same line (lines ending in CR only: trec_eval
  reads the whole file as one line and keeps its first fields).

Comment lines are the format's: ``"results"`` files skip a line whose first non-blank byte is
``#`` (``get_trec_results.c``); ``"qrels"`` files (qrels, qrels_jg, prefs) skip a line whose very
first byte is ``#`` (``get_qrels.c``; trec_eval 10 reads the second of two consecutive comment
lines, and a comment on the last line, as data -- here both are comments); ``None`` has none
(z-score files).
"""

from __future__ import annotations

import gzip
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Lines", "split_lines", "select_lines", "read_bytes", "malformed", "SPACE_BYTES"]

#: What trec_eval splits fields on: C ``isspace`` in the C locale (``\n`` ends a line).
SPACE_BYTES = b" \t\n\r\x0b\x0c"
_SEP = b"\x00\x01"             # a line-end marker token (NUL bytes are refused before splitting)
_COMMENT = b"\x00\x02"         # a comment line, replaced by this one token (line numbers kept)
_BOM = b"\xef\xbb\xbf"
_COMMENT_RE = {"results": re.compile(rb"(?m)^[ \t\r\x0b\x0c]*#[^\n]*"), "qrels": re.compile(rb"(?m)^#[^\n]*")}
_BARE_CR = re.compile(rb"\r[ \t\r\x0b\x0c]*[^ \t\n\r\x0b\x0c]")


def malformed(path: os.PathLike | str, line: int | None, expected: str, got: object) -> ValueError:
    """``<file>:<line>: expected <expected>, got <got>`` (a line shown with ``repr``)."""
    where = f"{path}:{line}" if line is not None else f"{path}"
    shown = repr(got) if isinstance(got, (str, bytes)) else str(got)
    return ValueError(f"{where}: expected {expected}, got {shown}")


def read_bytes(path: os.PathLike | str) -> bytes:
    """A file's bytes, gunzipped when it starts with gzip's magic bytes."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (EOFError, gzip.BadGzipFile, OSError) as exc:
            raise ValueError(f"{path}: expected a complete gzip file, got a truncated or corrupt one ({exc})") from None
    return data


def _text(line: bytes) -> str | bytes:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line


@dataclass
class Lines:
    """The data lines of a file, split into fields.

    Attributes
    ----------
    path : str
    fields : list of list of bytes
        ``fields[k][i]`` is field ``k`` of data line ``i`` (only the fields asked for).
    numbers : numpy.ndarray of int64
        The 1-based physical line number of each data line.
    data : bytes
        The file's bytes (for messages that quote a line).
    """

    path: str
    fields: list
    numbers: np.ndarray
    data: bytes

    def __len__(self) -> int:
        return len(self.numbers)

    def line(self, number: int) -> str | bytes:
        """The text of physical line ``number`` (bytes when it is not UTF-8)."""
        start = 0
        for _ in range(number - 1):
            start = self.data.index(b"\n", start) + 1
        end = self.data.find(b"\n", start)
        return _text(self.data[start: end if end >= 0 else len(self.data)].rstrip(b"\r"))

    def error(self, row: int, expected: str) -> ValueError:
        """The standard error for data line ``row``."""
        number = int(self.numbers[row])
        return malformed(self.path, number, expected, self.line(number))

    def check(self, bad, expected: str) -> None:
        """Raise :meth:`error` for the first row that ``bad`` (bool array) marks."""
        bad = np.asarray(bad, dtype=bool)
        if bad.any():
            raise self.error(int(np.flatnonzero(bad)[0]), expected)


def _line_number(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _refuse_bytes(data: bytes, path: str, expected: str) -> None:
    at = data.find(b"\x00")
    if at >= 0:
        n = _line_number(data, at)
        raise malformed(path, n, f"{expected}, without a NUL byte (trec_eval's ids end at a NUL, so the rest "
                        "of the field would be lost; a binary file?)", Lines(path, [], np.zeros(0), data).line(n))
    at = data.find(_BOM)
    if at >= 0:
        n = _line_number(data, at)
        raise malformed(path, n, f"{expected}, without a byte-order mark (U+FEFF: trec_eval reads it as part of "
                        "the id, which then matches nothing; save the file without BOM)",
                        Lines(path, [], np.zeros(0), data).line(n))
    if b"\r" in data:
        m = _BARE_CR.search(data)
        if m is not None:
            n = _line_number(data, m.start())
            raise ValueError(f"{path}:{n}: expected lines that end with LF or CR LF, got a carriage return (CR) "
                             "followed by more text on the same line (a file with CR-only line ends?): trec_eval "
                             "reads such a file as one line; convert it, e.g. tr '\\r' '\\n'")


def split_lines(data: bytes, path: os.PathLike | str, n_fields: int, expected: str, *, more: bool = False,
                comments: str | None = "qrels", blank: bool = False, keep: list[int] | None = None) -> Lines:
    """Split a TREC file's bytes into fields as trec_eval does (module docstring).

    Parameters
    ----------
    data : bytes
        The file's content (:func:`read_bytes`).
    path : path-like
        For messages.
    n_fields : int
        Fields every data line has.
    expected : str
        What a line looks like, for messages.
    more : bool
        Accept (and ignore) fields after the ``n_fields``-th (trec_eval's results files).
    comments : {"results", "qrels", None}
        Which lines are comments (module docstring).
    blank : bool
        Skip blank (whitespace-only) lines; otherwise a blank line is refused, as trec_eval refuses
        it in qrels files ("Malformed line").
    keep : list of int, optional
        The fields to return (default: all ``n_fields``).

    Raises
    ------
    ValueError
        ``<file>:<line>: expected ..., got ...`` for a line with too few (or, unless ``more``, too
        many) fields, a NUL byte, a byte-order mark, a bare carriage return; ``<file>: expected ...,
        got a file without a data line`` when nothing is left.
    """
    path = str(path)
    keep = list(range(n_fields)) if keep is None else list(keep)
    _refuse_bytes(data, path, expected)
    if comments is not None and b"#" in data:
        data_marked = _COMMENT_RE[comments].sub(_COMMENT, data)
    else:
        data_marked = data
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    toks = data_marked.replace(b"\n", b" " + _SEP + b" ").split()
    if not data.endswith(b"\n") and data:
        toks.append(_SEP)
    width = n_fields + 1
    if (n_lines and len(toks) == width * n_lines and toks[n_fields::width].count(_SEP) == n_lines
            and (data_marked is data or _COMMENT not in toks[::width])):
        # every line has exactly n_fields fields: no blank line, no comment, no extra field
        return Lines(path, [toks[k::width] for k in keep], np.arange(1, n_lines + 1, dtype=np.int64), data)
    return _general(toks, data, path, n_fields, expected, more, blank, keep)


def _general(toks: list, data: bytes, path: str, n_fields: int, expected: str, more: bool, blank: bool,
             keep: list[int]) -> Lines:
    arr = np.array(toks, dtype=object)
    ends = np.flatnonzero(arr == _SEP)                       # one per physical line
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
    counts = ends - starts
    number = np.arange(1, len(ends) + 1, dtype=np.int64)
    first = arr[np.minimum(starts, len(arr) - 1)] if len(arr) else np.zeros(0, dtype=object)
    comment = (counts > 0) & (first == _COMMENT)
    empty = counts == 0
    lines = Lines(path, [], number, data)
    if not blank and empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise malformed(path, int(number[i]), f"{expected}, without blank lines (trec_eval stops at a blank "
                        "line of this file: 'Malformed line')", lines.line(int(number[i])))
    data_rows = ~comment & ~empty
    short = data_rows & ((counts < n_fields) | ((counts > n_fields) & (not more)))
    if short.any():
        i = int(np.flatnonzero(short)[0])
        what = "at least" if more else "exactly"
        raise malformed(path, int(number[i]), f"{expected}; a line needs {what} {n_fields} fields; found "
                        f"{int(counts[i])} fields", lines.line(int(number[i])))
    rows = np.flatnonzero(data_rows)
    if not len(rows):
        raise malformed(path, None, expected, "a file without a data line" + (" (only comment lines)" if comment.any()
                                                                           else ""))
    out = [arr[starts[rows] + k].tolist() for k in keep]
    return Lines(path, out, number[rows], data)


_IS_SPACE = np.zeros(256, dtype=bool)
_IS_SPACE[list(SPACE_BYTES)] = True
_MAX_KEY = 64


def select_lines(data: bytes, path: os.PathLike | str, n_fields: int, expected: str, wanted: list,
                 keep: list[int]) -> tuple[Lines, np.ndarray, bytes] | None:
    """The lines of a results file whose first field is one of ``wanted`` (bytes), split into
    fields, with every line of the file checked as :func:`split_lines` checks it (``more=True``,
    results comments, blank lines skipped) but only the wanted ones split: numpy finds the line
    ends, counts the fields of every line and reads each line's first field at once.

    Returns
    -------
    (Lines, numpy.ndarray, bytes) or None
        The wanted lines (``keep`` fields), the distinct first fields of all lines (sorted,
        fixed-width bytes), and field ``n_fields`` of the file's last line (the run tag); None
        when the file needs :func:`split_lines`: a line that is blank, indented, a comment, has
        too few fields or a first field longer than 64 bytes (the general path names the line).
    """
    path = str(path)
    _refuse_bytes(data, path, expected)
    if not data:
        return None
    buf = np.frombuffer(data if data.endswith(b"\n") else data + b"\n", dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], ends[:-1] + 1])
    if (ends == starts).any() or _IS_SPACE[buf[starts]].any() or (buf[starts] == 35).any():
        return None                                  # blank, indented or comment lines
    space = (buf == 32) | ((buf - np.uint8(9)) <= 4)   # C isspace: 9-13 and 32 (uint8 wraps below 9)
    token = ~space
    token[1:] &= space[:-1]                          # a field starts here
    at = np.searchsorted(np.flatnonzero(token), np.append(starts, len(buf)))
    counts = np.diff(at)                             # fields per line
    if (counts < n_fields).any():
        return None
    gaps = np.flatnonzero(space)
    first_end = gaps[np.searchsorted(gaps, starts)]
    width = int((first_end - starts).max())
    if width > _MAX_KEY:
        return None
    grid = starts[:, None] + np.arange(width)[None, :]
    window = buf[np.minimum(grid, len(buf) - 1)].copy()
    window[grid >= first_end[:, None]] = 0
    keys = window.view(f"S{width}").ravel()          # each line's first field (NULs cannot occur)
    wanted_keys = np.array(sorted(w for w in wanted if len(w) <= width), dtype=f"S{width}")
    if len(wanted_keys):
        at = np.clip(np.searchsorted(wanted_keys, keys), 0, len(wanted_keys) - 1)
        rows = np.flatnonzero(wanted_keys[at] == keys)
    else:
        rows = np.zeros(0, dtype=np.int64)
    picked = b"\n".join([data[a:b] for a, b in zip(starts[rows].tolist(), ends[rows].tolist())]).split()
    offset = (np.cumsum(counts[rows]) - counts[rows]).astype(np.int64)
    fields = [[picked[i] for i in (offset + k).tolist()] for k in keep]
    last = data[starts[-1]: ends[-1]].split()[n_fields - 1]
    return Lines(path, fields, rows.astype(np.int64) + 1, data), np.unique(keys), last
