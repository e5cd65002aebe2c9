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
from itertools import compress, repeat
from operator import itemgetter
from pathlib import Path

__all__ = ["Lines", "split_lines", "select_lines", "select_lines_vectorised", "read_bytes", "malformed", "SPACE_BYTES"]

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


#: Standard input (``trec_eval q -``) whose first this-many bytes hold no line end (``cat
#: /dev/zero |``) is refused instead of read whole: it is not a results file.
STDIN_LINE_LIMIT = 1 << 20
#: Once a line end has been seen, a later line may be this long (NIST reads any length; the same
#: bytes in a regular file are read whole): only an endless stream without line ends reaches it.
STDIN_RUN_LIMIT = 1 << 30


def read_bytes(path: os.PathLike | str) -> bytes:
    """A file's bytes, gunzipped when it starts with gzip's magic bytes.

    Only a regular file is read (a link to one included): a device (``/dev/zero``, which never
    ends), a named pipe or a folder is refused naming it, as NIST's trec_eval refuses them (it
    seeks to the end to size the file: "Cannot read ... file")."""
    import stat

    mode = os.stat(path).st_mode          # a missing file: the OSError, which the callers name
    if not stat.S_ISREG(mode):
        kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")
        raise ValueError(f"{os.fspath(path)}: expected a regular file, got {kind}; trec_eval cannot read it either "
                         "(it sizes a file by seeking to its end): save the data to a file and give that file")
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
    numbers : sequence of int
        The 1-based physical line number of each data line (a numpy array, a list or a range:
        this module loads numpy only for the files its plain-Python paths do not take, so that
        ``python -m helpers trec_eval`` can run without it).
    data : bytes
        The file's bytes (for messages that quote a line).
    """

    path: str
    fields: list
    numbers: object
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
        import numpy as np

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
                        "of the field would be lost; a binary file?)", Lines(path, [], [], data).line(n))
    at = data.find(_BOM)
    if at >= 0:
        n = _line_number(data, at)
        raise malformed(path, n, f"{expected}, without a byte-order mark (U+FEFF: trec_eval reads it as part of "
                        "the id, which then matches nothing; save the file without BOM)",
                        Lines(path, [], [], data).line(n))
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
        return Lines(path, [toks[k::width] for k in keep], range(1, n_lines + 1), data)
    return _general(toks, data, path, n_fields, expected, more, blank, keep)


def _general(toks: list, data: bytes, path: str, n_fields: int, expected: str, more: bool, blank: bool,
             keep: list[int]) -> Lines:
    import numpy as np

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


#: C ``isspace`` bytes other than space and ``\n`` mapped to a space: fields hold none of them, so
#: a field's bytes are the same after the mapping and the fields of a line are its runs of non-space bytes.
_TO_SPACE = bytes.maketrans(b"\t\r\x0b\x0c", b"    ")


def _one_separator(data: bytes) -> tuple[bytes, bytes]:
    """``(text, sep)``: the file with one blank byte between fields, mapped only when it mixes them."""
    if b"\r" in data or b"\x0b" in data or b"\x0c" in data or (b"\t" in data and b" " in data):
        return data.translate(_TO_SPACE), b" "
    return data, b"\t" if b"\t" in data else b" "


def select_lines(data: bytes, path: os.PathLike | str, n_fields: int, expected: str, wanted: list,
                 keep: list[int]) -> tuple[Lines, set, bytes] | None:
    """The lines of a results file whose first field is one of ``wanted`` (bytes), split into
    fields, with every line of the file checked as :func:`split_lines` checks it (``more=True``,
    results comments, blank lines skipped) but only the wanted ones split, in plain Python (no
    numpy): C-level passes over the lines count each one's separators and read its first field.

    It takes the common file only, whose fields are separated by single blanks (space, tab,
    ``\v``, ``\f``), without blank, indented or comment lines, a blank at a line's end (so no CR
    LF line ends) or a line with fewer than ``n_fields`` fields; for those a line's fields are
    its blank-separated parts, exactly what :func:`split_lines` splits. Any other file gives
    None and goes to :func:`split_lines`, which decides it (and names a bad line).

    Returns
    -------
    (Lines, set, bytes) or None
        The wanted lines (``keep`` fields, physical line numbers), the first fields of all lines
        (the run's topics), and field ``n_fields`` of the file's last line (the run tag).
    """
    path = str(path)
    _refuse_bytes(data, path, expected)
    text, sep = _one_separator(data)
    lines = text.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if not lines or sep + sep in text or sep + b"\n" in text or lines[-1].endswith(sep):
        return None                                  # empty, or fields not separated by single blanks
    firsts = list(map(itemgetter(0), map(bytes.partition, lines, repeat(sep))))
    seen = set(firsts)
    if b"" in seen or any(t.startswith(b"#") for t in seen):
        return None                                  # blank, indented or comment lines
    if min(map(bytes.count, lines, repeat(sep))) < n_fields - 1:
        return None                                  # a line with too few fields: split_lines names it
    rows = list(compress(range(len(lines)), map(set(wanted).__contains__, firsts)))
    picked = [lines[i] for i in rows]
    if text.count(sep) == (n_fields - 1) * len(lines):    # every line has exactly n_fields fields
        flat = sep.join(picked).split(sep) if picked else []
        fields = [flat[k::n_fields] for k in keep]
    else:
        parts = [line.split(sep) for line in picked]
        fields = [[p[k] for p in parts] for k in keep]
    last = lines[-1].split(sep)[n_fields - 1]
    return Lines(path, fields, [i + 1 for i in rows], data), seen, last


#: First fields longer than this send :func:`select_lines_vectorised` to :func:`select_lines`
#: (its padded id matrix is lines x this many bytes).
_MAX_ID_BYTES = 64


def select_lines_vectorised(data: bytes, path: os.PathLike | str, n_fields: int, expected: str, wanted: list,
                            keep: list[int]) -> tuple[Lines, set, bytes] | None:
    """:func:`select_lines` with numpy: the same result (the same files taken, the same lines,
    fields, numbers, topics and tag), found from the positions of the separators instead of a
    Python pass per line. For callers that have loaded numpy already (the vectorised engine,
    ``--many-runs``); the numpy-free path keeps :func:`select_lines`. Memory: a few bytes per
    input byte (boolean masks, separator positions), whatever the values in the file."""
    import numpy as np

    path = str(path)
    _refuse_bytes(data, path, expected)
    text, sep = _one_separator(data)
    if not text or n_fields < 2:
        return None
    arr = np.frombuffer(text, dtype=np.uint8)
    is_sep = arr == sep[0]
    blank = is_sep | (arr == 10)
    if blank[0] or is_sep[-1] or (blank[1:] & blank[:-1]).any():
        return None                  # blank or indented line, two blanks in a row, a blank before a line end
    ends = np.flatnonzero(arr == 10)
    if text[-1:] != b"\n":
        ends = np.append(ends, len(arr))
    starts = np.concatenate(([0], ends[:-1] + 1))
    if (arr[starts] == ord("#")).any():
        return None                  # a comment line
    S = np.flatnonzero(is_sep)
    before_end = np.searchsorted(S, ends)
    j = np.concatenate(([0], before_end[:-1]))               # index in S of each line's first separator
    count = before_end - j
    if int(count.min()) < n_fields - 1:
        return None                  # a line with too few fields: split_lines names it
    first_end = S[j]
    length = first_end - starts
    width = int(length.max())
    if width > _MAX_ID_BYTES:
        return select_lines(data, path, n_fields, expected, wanted, keep)
    at = np.arange(width)
    ids = np.where(at < length[:, None], arr[np.minimum(starts[:, None] + at, len(arr) - 1)], 0)  # no NUL in ids
    change = np.concatenate(([True], (ids[1:] != ids[:-1]).any(axis=1)))
    group_start = np.flatnonzero(change)
    topics = [text[a:b] for a, b in zip(starts[group_start].tolist(), first_end[group_start].tolist())]
    chosen = set(wanted)
    picked_group = np.fromiter((t in chosen for t in topics), dtype=bool, count=len(topics))
    sizes = np.diff(np.append(group_start, len(starts)))
    rows = np.flatnonzero(np.repeat(picked_group, sizes))
    fields = []
    for k in keep:
        a = starts[rows] if k == 0 else S[j[rows] + k - 1] + 1
        last_sep = np.minimum(j[rows] + k, len(S) - 1)
        b = np.where(count[rows] > k, S[last_sep], ends[rows])
        fields.append([text[x:y] for x, y in zip(a.tolist(), b.tolist())])
    last = text[int(starts[-1]): int(ends[-1])].split(sep)[n_fields - 1]
    return Lines(path, fields, (rows + 1).tolist(), data), set(topics), last


def read_stream(stream, what: str = "standard input", chunk: int = 1 << 16, run_limit: int = STDIN_RUN_LIMIT) -> bytes:
    """All of ``stream`` (a binary file object: standard input), read in chunks to its end, as a
    regular file is read (memory proportional to the input; a long line with a line end is read
    like any other). Refused, with a true message: no line end in the first
    :data:`STDIN_LINE_LIMIT` bytes (a stream of zeros is not a results file), or more than
    ``run_limit`` bytes without a line end later on."""
    parts: list[bytes] = []
    since_newline = total = 0
    while True:
        block = stream.read(chunk)
        if not block:
            return b"".join(parts)
        cut = block.rfind(b"\n")
        since_newline = since_newline + len(block) if cut < 0 else len(block) - cut - 1
        total += len(block)
        if since_newline == total and total > STDIN_LINE_LIMIT:
            raise ValueError(f"{what}: a line longer than {STDIN_LINE_LIMIT:,} bytes: no line end in the first "
                             f"{STDIN_LINE_LIMIT:,} bytes; expected lines of a results file")
        if since_newline > run_limit:
            raise ValueError(f"{what}: more than {run_limit:,} bytes without a line end after byte "
                             f"{total - since_newline:,}; expected lines of a results file")
        parts.append(block)
