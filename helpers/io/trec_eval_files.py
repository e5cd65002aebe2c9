"""The input files of trec_eval, read as trec_eval reads them: results, qrels and z-score files.

:mod:`helpers.io.trec` reads TREC runs and qrels for the whole package and is strict (exactly six
fields per run line). trec_eval itself is more lenient, and ``python -m helpers trec_eval`` must
read whatever trec_eval reads (its own test suite depends on it); the differences are the
conventions of trec_eval 10 (``get_trec_results.c``, ``get_qrels.c``, ``get_zscores.c``):

* **Comment lines**: a line whose first character is ``#`` is skipped (in results files also after
  leading blanks). A ``#`` anywhere else is data: document ids such as ``msmarco_v2.1_doc_00#4``
  are common.
* **Trailing fields** after a run line's sixth field (the run tag) are ignored (trec_eval's
  ``results.trunc``); the iteration and rank fields are skipped whatever they hold, since
  trec_eval ranks documents by score.
* The **run id** of a results file is the tag of its *last* line, as trec_eval prints it.
* **Blank lines** are skipped (trec_eval refuses them in qrels files; reading them is harmless).

Everything trec_eval would accept silently but turn into a wrong number is refused with
``<file>:<line>: expected ..., got ...``: a score or relevance that is not a number (trec_eval's
``atof``/``atol`` read ``"abc"`` as 0), a qrels line with other than four fields, a document judged
twice for a topic, or retrieved twice for a topic (trec_eval stops there too, without the line).
"""

from __future__ import annotations

import gzip
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import trec

__all__ = [
    "RESULTS_FORMAT",
    "TREC_EVAL_QRELS_FORMAT",
    "ZSCORES_FORMAT",
    "Records",
    "read_records",
    "read_results",
    "read_trec_eval_qrels",
    "read_zscores",
    "first_of_repeated",
]

RESULTS_FORMAT = ("at least 6 whitespace-separated fields 'query_id iteration doc_id rank score run_id' "
                  "(a finite numeric score; fields after run_id are ignored)")
TREC_EVAL_QRELS_FORMAT = "4 whitespace-separated fields 'query_id iteration doc_id relevance' (integer relevance)"
ZSCORES_FORMAT = "4 whitespace-separated fields 'query_id measure mean stddev' (finite numbers)"

_COMMENT = re.compile(rb"(?:^|\n)[ \t]*#")
_INTEGER = r"[+-]?\d{1,18}"


@dataclass
class Records:
    """The fields of a file's data lines: ``fields[k]`` is the k-th field of every line (str
    array); ``lines`` their 1-based physical line numbers, or None when every non-blank line is a
    data line (then :func:`helpers.io.trec.row_line` finds a row's line when an error needs it)."""

    path: Path
    fields: list[np.ndarray]
    lines: np.ndarray | None

    def line_of(self, row: int) -> int:
        """Physical line number of data row ``row``."""
        return int(self.lines[row]) if self.lines is not None else trec.row_line(self.path, row)

    def check(self, bad: np.ndarray, expected: str) -> None:
        """Raise ``file:line: expected ..., got <line>`` for the first row that ``bad`` marks."""
        if bad.any():
            number = self.line_of(int(np.flatnonzero(bad)[0]))
            raise trec.malformed(self.path, number, expected, _line(self.path, number))


def _line(path: Path, number: int) -> str | bytes:
    for n, text in trec.numbered_lines(path):
        if n == number:
            return text
    return ""


def _fast(path: Path, n_fields: int, expected: str) -> Records | None:
    """One C-engine parse when every data line has exactly ``n_fields`` fields and no line is a
    comment (the common case); None when the line-by-line scan is needed."""
    data = gzip.decompress(path.read_bytes()) if trec.is_gzip(path) else path.read_bytes()
    if _COMMENT.search(data):
        return None
    names = [f"f{k}" for k in range(n_fields)]
    try:
        df = trec.read_delimited(path, names, dtypes=dict.fromkeys(names, str), expected=expected)
    except ValueError:
        return None
    return Records(path, [df[n].to_numpy(dtype=object) for n in names], None)


def read_records(path: os.PathLike | str, n_fields: int, expected: str, *, more: bool = False,
                 indented_comments: bool = False) -> Records:
    """The whitespace-separated fields of a trec_eval input file.

    Parameters
    ----------
    path : path-like
        Text file (UTF-8; gzip detected from the content).
    n_fields : int
        Fields every data line must have.
    expected : str
        What a line looks like, for error messages.
    more : bool
        Accept (and ignore) fields after the ``n_fields``-th (trec_eval's results files).
    indented_comments : bool
        A ``#`` after leading blanks also starts a comment line (trec_eval's results reader).

    Returns
    -------
    Records

    Raises
    ------
    ValueError
        ``<file>:<line>: expected ...`` for a line with too few (or, unless ``more``, too many)
        fields or that is not UTF-8; ``<file>: expected ..., got an empty file`` when no data line
        is left.
    """
    path = Path(path)
    fast = _fast(path, n_fields, expected)
    if fast is not None:
        return fast
    rows: list[list[str]] = []
    lines: list[int] = []
    for number, text in trec.numbered_lines(path):
        if isinstance(text, bytes):
            raise trec.malformed(path, number, f"UTF-8 text: {expected}", text)
        stripped = text.lstrip() if indented_comments else text
        if stripped.startswith("#") or (number == 1 and stripped.startswith("\ufeff#")):
            continue
        fields = text.removeprefix("\ufeff").split() if number == 1 else text.split()
        if len(fields) < n_fields or (len(fields) > n_fields and not more):
            raise trec.malformed(path, number, f"{expected}; found {len(fields)} fields", text)
        rows.append(fields[:n_fields])
        lines.append(number)
    if not rows:
        raise trec.malformed(path, None, expected, "a file without a data line")
    table = np.array(rows, dtype=object)
    return Records(path, [table[:, k] for k in range(n_fields)], np.asarray(lines))


def first_of_repeated(keys: list[np.ndarray]) -> int | None:
    """Index of the first row whose key tuple repeats an earlier row, or None."""
    dup = pd.DataFrame({str(k): v for k, v in enumerate(keys)}).duplicated().to_numpy()
    return int(np.flatnonzero(dup)[0]) if dup.any() else None


def _numbers(rec: Records, k: int, expected: str) -> np.ndarray:
    values = pd.to_numeric(pd.Series(rec.fields[k]), errors="coerce").to_numpy(dtype=float)
    rec.check(~np.isfinite(values), expected)
    return values


def _integers(rec: Records, k: int, expected: str) -> np.ndarray:
    text = pd.Series(rec.fields[k], dtype="str")
    rec.check(~text.str.fullmatch(_INTEGER).to_numpy(dtype=bool), expected)
    return text.astype("int64").to_numpy()


def read_results(path: os.PathLike | str) -> pd.DataFrame:
    """Read a trec_eval results (run) file as trec_eval 10 does.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str) and ``score`` (float64), in file order;
        ``attrs["run_id"]`` is the run tag of the last line (what trec_eval prints as ``runid``). Ranks and iteration fields are not kept: trec_eval orders
        documents by decreasing score, ties by decreasing document id.

    Raises
    ------
    ValueError
        ``<file>:<line>: expected ...`` for a line with fewer than six fields, a score that is not a
        finite number, or a document retrieved twice for one topic (naming both lines).
    """
    rec = read_records(path, 6, RESULTS_FORMAT, more=True, indented_comments=True)
    score = _numbers(rec, 4, RESULTS_FORMAT + "; field 5 (score) is not a finite number")
    at = first_of_repeated([rec.fields[0], rec.fields[2]])
    if at is not None:
        same = np.flatnonzero((rec.fields[0] == rec.fields[0][at]) & (rec.fields[2] == rec.fields[2][at]))
        rec.check(np.arange(len(score)) == at, f"each document at most once per topic (doc_id {rec.fields[2][at]!r} "
                  f"of topic {rec.fields[0][at]!r} is already on line {rec.line_of(int(same[0]))})")
    out = pd.DataFrame({"query_id": pd.Series(rec.fields[0], dtype="str"),
                        "doc_id": pd.Series(rec.fields[2], dtype="str"),
                        "score": score})
    out.attrs["run_id"] = str(rec.fields[5][-1])
    out.attrs["path"] = str(rec.path)
    return out


def read_trec_eval_qrels(path: os.PathLike | str, *, group_column: str | None = None,
                         expected: str = TREC_EVAL_QRELS_FORMAT) -> pd.DataFrame:
    """Read qrels as trec_eval does (``#`` comment lines, negative levels kept).

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
    rec = read_records(path, 4, expected)
    rel = _integers(rec, 3, expected + "; field 4 (relevance) is not an integer")
    keys = [rec.fields[0]] + ([rec.fields[1]] if group_column else []) + [rec.fields[2]]
    at = first_of_repeated(keys)
    if at is not None:
        same = np.logical_and.reduce([k == k[at] for k in keys])
        rec.check(np.arange(len(rel)) == at, f"each document judged once per topic{' and group' if group_column else ''} "
                  f"(already on line {rec.line_of(int(np.flatnonzero(same)[0]))})")
    cols = {"query_id": pd.Series(rec.fields[0], dtype="str")}
    if group_column:
        cols[group_column] = pd.Series(rec.fields[1], dtype="str")
    cols.update({"doc_id": pd.Series(rec.fields[2], dtype="str"), "relevance": rel})
    out = pd.DataFrame(cols)
    out.attrs["path"] = str(rec.path)
    return out


def read_zscores(path: os.PathLike | str) -> pd.DataFrame:
    """Read a trec_eval ``-Z`` file (``query_id measure mean stddev`` per line).

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``measure`` (str), ``mean``, ``stddev`` (float64); a (query_id, measure)
        pair given twice is refused (trec_eval would use one of them, unspecified which).
    """
    rec = read_records(path, 4, ZSCORES_FORMAT)
    mean = _numbers(rec, 2, ZSCORES_FORMAT + "; field 3 (mean) is not a finite number")
    std = _numbers(rec, 3, ZSCORES_FORMAT + "; field 4 (stddev) is not a finite number")
    at = first_of_repeated([rec.fields[0], rec.fields[1]])
    if at is not None:
        rec.check(np.arange(len(mean)) == at, "each (query_id, measure) pair once")
    return pd.DataFrame({"query_id": pd.Series(rec.fields[0], dtype="str"),
                         "measure": pd.Series(rec.fields[1], dtype="str"), "mean": mean, "stddev": std})
