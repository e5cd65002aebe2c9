"""The input files of trec_eval, read as trec_eval reads them: results, qrels and z-score files.

:mod:`helpers.io.trec` reads TREC runs and qrels for the whole package and is strict (exactly six
fields per run line). trec_eval itself is more lenient, and ``python -m helpers trec_eval`` must
read whatever trec_eval reads; every byte is decided by :func:`helpers.io.fields.split_lines`, the
one tokenizer (fields split on C ``isspace`` only, as trec_eval splits them; a no-break space or
U+2028 is part of an id). The conventions are trec_eval 10's (``get_trec_results.c``,
``get_qrels.c``, ``get_zscores.c``):

* **Comment lines**: in results files a line whose first non-blank byte is ``#``; in qrels files a
  line whose first byte is ``#`` (an indented ``#`` is data there, as in trec_eval). A ``#``
  anywhere else is data: document ids such as ``msmarco_v2.1_doc_00#4`` are common.
* **Trailing fields** after a run line's sixth field (the run tag) are ignored (trec_eval's
  ``results.trunc``); the iteration and rank fields are skipped whatever they hold, since
  trec_eval ranks documents by score.
* The **run id** of a results file is the tag of its *last* line, as trec_eval prints it.
* **Blank lines** are skipped in results files and refused in qrels files, as trec_eval does.
* **Ids are bytes**, compared as trec_eval compares them (``strcmp``: byte order); the command
  prints them as they are. The DataFrame readers decode them as UTF-8 (refusing other bytes).

Everything trec_eval would accept silently but turn into a wrong number is refused with
``<file>:<line>: expected ..., got ...``: a score or relevance that is not a number (trec_eval's
``atof``/``atol`` read ``"abc"`` as 0 and ``"1,5"`` as 1), a NaN score (it sorts nowhere), a
relevance beyond 18 digits, and the bytes :mod:`helpers.io.fields` refuses (NUL, byte-order
mark, CR-only line ends). Scores are checked on the lines of the topics that are evaluated (the
others are not read by trec_eval's measures either); relevance values on every line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .fields import Lines, malformed, read_bytes, select_lines, select_lines_vectorised, split_lines

__all__ = [
    "RESULTS_FORMAT",
    "TREC_EVAL_QRELS_FORMAT",
    "ZSCORES_FORMAT",
    "ResultsFile",
    "QrelsFile",
    "results_file",
    "qrels_file",
    "decimal_values",
    "decimal_list",
    "integer_values",
    "integer_list",
    "qrels_fields",
    "read_results",
    "read_trec_eval_qrels",
    "read_zscores",
    "first_repeated",
    "utf8_strings",
]

RESULTS_FORMAT = ("at least 6 whitespace-separated fields 'query_id iteration doc_id rank score run_id' "
                  "(a numeric score; fields after run_id are ignored)")
TREC_EVAL_QRELS_FORMAT = "4 whitespace-separated fields 'query_id iteration doc_id relevance' (integer relevance)"
ZSCORES_FORMAT = "4 whitespace-separated fields 'query_id measure mean stddev' (finite numbers)"

_DECIMAL_CHARS = b"0123456789.eE+-"
_DECIMAL = re.compile(rb"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)", re.IGNORECASE)
_INTEGER = re.compile(rb"[+-]?\d{1,18}")


def decimal_list(lines: Lines, column: list, rows, expected: str, *, finite: bool = False) -> list[float]:
    """The numbers of a field (``rows`` of it, a sequence of data-line indices, or all) as a list,
    refusing what C's ``strtod`` would not read whole as a decimal number: ``"abc"``, ``"1,5"``,
    ``"1_0"``, ``"0x1p3"``, ``"nan"`` (and ``inf`` when ``finite``). ``1e400`` is ``inf`` as in C.
    The one rule for both paths of the command (:func:`decimal_values` is this as an array)."""
    rows = None if rows is None else [int(i) for i in rows]
    items = column if rows is None else [column[i] for i in rows]
    values = None
    if not b"".join(items).translate(None, _DECIMAL_CHARS):
        try:
            values = list(map(float, items))
        except ValueError:
            values = None
    if values is None:
        at = next((i for i, t in enumerate(items) if _DECIMAL.fullmatch(t) is None), None)
        if at is not None:
            raise lines.error(at if rows is None else rows[at], expected)
        values = list(map(float, items))
    if finite:
        at = next((i for i, v in enumerate(values) if v in _INFINITE), None)
        if at is not None:
            raise lines.error(at if rows is None else rows[at], expected)
    return values


_INFINITE = {float("inf"), float("-inf")}


def decimal_values(lines: Lines, column: list, rows, expected: str, *, finite: bool = False):
    """:func:`decimal_list` as a numpy array of float64."""
    import numpy as np

    return np.array(decimal_list(lines, column, rows, expected, finite=finite), dtype=float)


def integer_list(lines: Lines, column: list, expected: str) -> list[int]:
    """The integers of a field (at most 18 digits, optional sign: every such number fits int64)."""
    if not b"".join(column).translate(None, b"0123456789+-"):
        try:
            values = list(map(int, column))
            if not values or max(map(abs, values)) < 10 ** 18:
                return values
        except ValueError:
            pass
    at = next((i for i, t in enumerate(column) if _INTEGER.fullmatch(t) is None), None)
    if at is not None:
        raise lines.error(at, expected)
    return list(map(int, column))


def integer_values(lines: Lines, column: list, expected: str):
    """:func:`integer_list` as a numpy array of int64."""
    import numpy as np

    return np.array(integer_list(lines, column, expected), dtype=np.int64)


def first_repeated(keys: list[list]) -> tuple[int, int] | None:
    """``(first, again)``: row indices of the first key tuple that repeats an earlier row, or None."""
    seen: dict = {}
    for i, key in enumerate(zip(*keys)):
        j = seen.setdefault(key, i)
        if j != i:
            return j, i
    return None


@dataclass
class ResultsFile:
    """A results file as trec_eval reads it: ``query``, ``doc`` (bytes per data line), the score
    fields' text (:meth:`scores` reads them) and the run id (last line's tag).

    Read for given topics (:func:`results_file`'s ``topics``), it holds the lines of those topics
    only, and ``topics_seen`` the first field of every line (the run's topics)."""

    lines: Lines
    query: list
    doc: list
    score_text: list
    run_id: bytes
    topics_seen: set | None = None

    def run_topics(self) -> set:
        """Every topic the file answers (bytes)."""
        return set(self.query) if self.topics_seen is None else self.topics_seen

    @property
    def path(self) -> str:
        return self.lines.path

    @classmethod
    def from_frame(cls, df, run_id: str = "") -> "ResultsFile":
        """From a frame with ``query_id``, ``doc_id``, ``score`` (row ``i`` reported as line ``i + 1``)."""
        n = len(df)
        enc = [[str(x).encode("utf-8", "surrogateescape") for x in df[c].tolist()] for c in ("query_id", "doc_id")]
        scores = [repr(float(x)).encode() for x in df["score"].tolist()]
        tag = str(df.attrs.get("run_id", run_id)).encode("utf-8", "surrogateescape")
        return cls(Lines("<results frame>", [], range(1, n + 1), b""), enc[0], enc[1], scores, tag)

    def scores(self, rows):
        """The scores of data lines ``rows``, refusing one that is not a number (file:line)."""
        return decimal_values(self.lines, self.score_text, rows,
                              RESULTS_FORMAT + "; field 5 (score) is not a number (trec_eval would read it as "
                              "a different number: atof)")


@dataclass
class QrelsFile:
    """A qrels (or qrels_jg) file as trec_eval reads it: ``query``, ``group`` (the second field),
    ``doc`` (bytes per data line) and ``rel`` (int64)."""

    lines: Lines
    query: list
    group: list
    doc: list
    rel: object

    @classmethod
    def from_frame(cls, df) -> "QrelsFile":
        """From a frame with ``query_id``, ``doc_id``, ``relevance`` (row ``i`` reported as line ``i + 1``)."""
        import numpy as np

        n = len(df)
        enc = [[str(x).encode("utf-8", "surrogateescape") for x in df[c].tolist()] for c in ("query_id", "doc_id")]
        return cls(Lines("<qrels frame>", [], range(1, n + 1), b""), enc[0], [b"0"] * n, enc[1],
                   np.asarray(df["relevance"].to_numpy(), dtype=np.int64))

    @property
    def path(self) -> str:
        return self.lines.path


def results_file(path: os.PathLike | str, data: bytes | None = None, topics: list | None = None, *,
                 vectorised: bool = False) -> ResultsFile:
    """Read a trec_eval results file (module docstring) without interpreting its scores yet.

    With ``topics`` (bytes), only the lines of those topics are split into fields (the others are
    checked, not split: :func:`helpers.io.fields.select_lines`), which is what trec_eval's
    measures read; the same lines, numbers and messages as reading them all. ``vectorised``: find
    them with numpy (:func:`helpers.io.fields.select_lines_vectorised`, the same result; for
    callers that have loaded numpy)."""
    data = read_bytes(path) if data is None else data
    if topics is not None:
        select = select_lines_vectorised if vectorised else select_lines
        picked = select(data, path, 6, RESULTS_FORMAT, topics, keep=[0, 2, 4])
        if picked is not None:
            lines, seen, tag = picked
            q, d, s = lines.fields
            return ResultsFile(lines, q, d, s, tag, seen)
    lines = split_lines(data, path, 6, RESULTS_FORMAT, more=True, comments="results", blank=True, keep=[0, 2, 4, 5])
    q, d, s, tag = lines.fields
    return ResultsFile(lines, q, d, s, tag[-1])


def qrels_fields(path: os.PathLike | str, expected: str = TREC_EVAL_QRELS_FORMAT) -> tuple[Lines, list[int]]:
    """A trec_eval qrels (or qrels_jg) file's lines (module docstring) and relevance values (a
    list): what :func:`qrels_file` holds, without numpy."""
    lines = split_lines(read_bytes(path), path, 4, expected, comments="qrels")
    rel = integer_list(lines, lines.fields[3], expected + "; field 4 (relevance) is not an integer of at most 18 "
                       "digits (trec_eval would read it as a different number: atol)")
    return lines, rel


def qrels_file(path: os.PathLike | str, expected: str = TREC_EVAL_QRELS_FORMAT) -> QrelsFile:
    """Read a trec_eval qrels (or qrels_jg) file (module docstring), relevance as int64."""
    import numpy as np

    lines, rel = qrels_fields(path, expected)
    q, g, d, _ = lines.fields
    return QrelsFile(lines, q, g, d, np.array(rel, dtype=np.int64))


def utf8_strings(lines: Lines, column: list, what: str) -> list:
    """UTF-8 text of a field (the DataFrame readers' ids)."""
    try:
        return [t.decode("utf-8") for t in column]
    except UnicodeDecodeError:
        at = next(i for i, t in enumerate(column) if _is_not_utf8(t))
        raise lines.error(at, f"UTF-8 text in {what}") from None


def _is_not_utf8(t: bytes) -> bool:
    try:
        t.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def read_results(path: os.PathLike | str):
    """Read a trec_eval results (run) file as trec_eval 10 does, into a DataFrame.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str) and ``score`` (float64), in file order;
        ``attrs["run_id"]`` is the run tag of the last line (what trec_eval prints as ``runid``).

    Raises
    ------
    ValueError
        ``<file>:<line>: expected ...`` for a line with fewer than six fields, a score that is not a
        finite number, or a document retrieved twice for one topic (naming both lines).
    """
    import pandas as pd

    res = results_file(path)
    lines = res.lines
    score = decimal_values(lines, res.score_text, None, RESULTS_FORMAT + "; field 5 (score) is not a finite number",
                           finite=True)
    again = first_repeated([res.query, res.doc])
    if again is not None:
        raise lines.error(again[1], f"each document at most once per topic (doc_id {res.doc[again[1]]!r} of "
                          f"topic {res.query[again[1]]!r} is already on line {int(lines.numbers[again[0]])})")
    out = pd.DataFrame({"query_id": pd.Series(utf8_strings(lines, res.query, "query_id"), dtype="str"),
                        "doc_id": pd.Series(utf8_strings(lines, res.doc, "doc_id"), dtype="str"), "score": score})
    out.attrs["run_id"] = res.run_id.decode("utf-8", "backslashreplace")
    out.attrs["path"] = str(path)
    return out


def read_trec_eval_qrels(path: os.PathLike | str, *, group_column: str | None = None,
                         expected: str = TREC_EVAL_QRELS_FORMAT):
    """Read qrels as trec_eval does (``#`` comment lines, negative levels kept), into a DataFrame.

    Parameters
    ----------
    path : path-like
    group_column : str, optional
        Keep the second field under this name (``"jg"`` for judgment groups, where it names the
        assessor); by default it is trec_eval's ignored iteration field and is dropped.
    expected : str
        Line format for messages.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, [``group_column``,] ``doc_id`` (str) and ``relevance`` (int64), in file order.
        trec_eval's conventions for the levels: ``>= 0`` judged (relevant from ``-l``, default 1),
        ``< 0`` in the pool but not judged.

    Raises
    ------
    ValueError
        For a line without exactly four fields, a relevance that is not an integer, or a document
        judged twice for a topic (within one judgment group when ``group_column`` is given).
    """
    import pandas as pd

    qf = qrels_file(path, expected)
    keys = [qf.query] + ([qf.group] if group_column else []) + [qf.doc]
    again = first_repeated(keys)
    if again is not None:
        raise qf.lines.error(again[1], f"each document judged once per topic{' and group' if group_column else ''} "
                             f"(already on line {int(qf.lines.numbers[again[0]])})")
    cols = {"query_id": pd.Series(utf8_strings(qf.lines, qf.query, "query_id"), dtype="str")}
    if group_column:
        cols[group_column] = pd.Series(utf8_strings(qf.lines, qf.group, group_column), dtype="str")
    cols.update({"doc_id": pd.Series(utf8_strings(qf.lines, qf.doc, "doc_id"), dtype="str"), "relevance": qf.rel})
    out = pd.DataFrame(cols)
    out.attrs["path"] = str(path)
    return out


@dataclass
class ZScores:
    """A ``-Z`` file: ``(query_id bytes, measure str) -> (mean, stddev)`` and the topics it has."""

    table: dict
    topics: set


def read_zscores(path: os.PathLike | str) -> ZScores:
    """Read a trec_eval ``-Z`` file (``query_id measure mean stddev`` per line; no comment lines,
    as in trec_eval). A (query_id, measure) pair given twice is refused (trec_eval would use one of
    them, unspecified which)."""
    lines = split_lines(read_bytes(path), path, 4, ZSCORES_FORMAT, comments=None)
    q, m, mu, sd = lines.fields
    mean = decimal_values(lines, mu, None, ZSCORES_FORMAT + "; field 3 (mean) is not a finite number", finite=True)
    std = decimal_values(lines, sd, None, ZSCORES_FORMAT + "; field 4 (stddev) is not a finite number", finite=True)
    again = first_repeated([q, m])
    if again is not None:
        raise lines.error(again[1], f"each (query_id, measure) pair once (already on line "
                          f"{int(lines.numbers[again[0]])})")
    names = [t.decode("utf-8", "surrogateescape") for t in m]
    return ZScores({(a, b): (float(c), float(d)) for a, b, c, d in zip(q, names, mean, std)}, set(q))

