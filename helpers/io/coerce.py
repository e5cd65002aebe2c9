"""Common input shapes of IR tools, converted once to the tidy tables :mod:`helpers.measures` reads.

:func:`helpers.measures.evaluate` calls :func:`as_qrels` and :func:`as_run` on its inputs, so
besides DataFrames it accepts what pytrec_eval, ranx, ir_measures and ir_datasets users have:

=================================================  ===========================================
input                                              becomes
=================================================  ===========================================
``pandas.DataFrame``                               itself (checked by ``evaluate``)
``{qid: {docid: level}}`` (pytrec_eval, ranx)      qrels ``query_id, doc_id, relevance``
iterable of ``Qrel`` / ``TrecQrel`` namedtuples    the same (ir_measures, ir_datasets)
(fields ``query_id, doc_id, relevance``)
TREC qrels path (str or ``os.PathLike``)           :func:`helpers.io.trec.read_qrels`
``{qid: {docid: score}}`` (pytrec_eval, ranx)      run ``query_id, doc_id, score``
``{run_id: {qid: {docid: score}}}``                the same with ``run_id`` (several runs)
iterable of ``ScoredDoc`` namedtuples              run ``query_id, doc_id, score``
(fields ``query_id, doc_id, score``)
TREC run path, folder, glob, or a list of them     :func:`read_run_files`: every file one run
(``"runs/*.txt"``; NTCIREVAL ``.res`` lists too)   (TREC files as written, ranks as written)
=================================================  ===========================================

The conversion only reshapes: identifiers keep their Python type, so the DataFrame checks of
``evaluate`` apply unchanged (float ids refused, ints compared as strings, duplicates and NaN
scores refused). Dict and namedtuple runs have no rank column, so they are ordered as trec_eval
orders them (score descending, then doc_id descending). Relevance levels must be integers
(pytrec_eval's qrels are ``int``); for real-valued gains pass a DataFrame with a ``gain`` column.
ranx ``Qrels``/``Run`` objects convert with their ``to_dict()``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import pandas as pd

from . import trec
from .runs import read_runs
from .textfiles import plain_name, resolve_paths

__all__ = ["as_qrels", "as_run", "read_run_files", "is_ranked_list"]

_QREL_FIELDS = ("query_id", "doc_id", "relevance")
_RUN_FIELDS = ("query_id", "doc_id", "score")


def _read_file(what: str, path, shapes: str) -> pd.DataFrame:
    """A TREC qrels or run file given by path, read by :mod:`helpers.io.trec` (file:line errors)."""
    if not os.path.isfile(path):
        raise ValueError(f"{what} must be a pandas DataFrame (or a {shapes} or the path of a TREC file); "
                         f"{path!r} is no such file")
    return trec.read_qrels(path) if what == "qrels" else trec.read_run(path)


def as_qrels(qrels) -> pd.DataFrame:
    """Qrels in any shape of the module docstring as a DataFrame (a DataFrame is returned as is).

    Raises
    ------
    ValueError
        For an unsupported type, a nested dict whose values are not ``{docid: level}`` dicts,
        a non-integer level (naming topic and document), namedtuples without the fields
        ``query_id, doc_id, relevance``, or (from :mod:`helpers.io.trec`) a malformed file.
    """
    if isinstance(qrels, pd.DataFrame):
        _check_frame(qrels, "qrels", ("relevance", "gain"))
        return qrels
    if isinstance(qrels, (str, os.PathLike)):
        return _read_file("qrels", qrels, "{qid: {docid: level}} dict, Qrel namedtuples")
    if isinstance(qrels, Mapping):
        q, d, v = _flatten("qrels", qrels, "level")
        for qid, did, x in zip(q, d, v):
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, Integral):
                raise ValueError(f"qrels[{qid!r}][{did!r}] = {x!r}: relevance levels must be integers "
                                 "(pytrec_eval's convention); for real-valued gains pass a DataFrame "
                                 "with a 'gain' column")
        return _frame(q, d, "relevance", np.asarray(v, dtype=np.int64) if v else np.zeros(0, np.int64))
    if isinstance(qrels, Iterable) and not isinstance(qrels, (bytes, bytearray)):
        return _from_tuples("qrels", qrels, _QREL_FIELDS, "ir_measures Qrel / ir_datasets TrecQrel")
    raise ValueError(f"qrels must be a DataFrame, a {{qid: {{docid: level}}}} dict, an iterable of "
                     f"Qrel namedtuples or a TREC qrels path; got {type(qrels).__name__}")


def as_run(run, *, duplicates: str = "error") -> pd.DataFrame:
    """A run (or several) in any shape of the module docstring as a DataFrame (``duplicates``:
    for files, as :func:`read_run_files`).

    Raises
    ------
    ValueError
        For an unsupported type, dicts nested unevenly (some topics ``{docid: score}``, others
        one level deeper), a score that is not a real number (naming run, topic and document),
        namedtuples without ``query_id, doc_id, score``, or a malformed file.
    """
    frame = _as_run(run, duplicates)
    if len(frame) == 0:
        # any shape: a DataFrame, {} / {run: {}}, an empty list or an exhausted generator
        given = f"columns {list(frame.columns)}" if isinstance(run, pd.DataFrame) else f"a {type(run).__name__}"
        raise ValueError(f"run has no rows ({given}): no retrieved document at all, so "
                         "no topic has a ranked list; a filter or a read that dropped every row? (a run that "
                         "retrieved nothing would score 0 on every topic)")
    return frame


def _as_run(run, duplicates: str = "error") -> pd.DataFrame:
    """:func:`as_run` before its check for a run without rows."""
    if isinstance(run, pd.DataFrame):
        _check_frame(run, "run", ("score", "rank"))
        return run
    if isinstance(run, (str, os.PathLike)) or _is_path_list(run):
        return read_run_files(run, duplicates=duplicates)
    if isinstance(run, Mapping):
        nested = [isinstance(v, Mapping) and any(isinstance(x, Mapping) for x in v.values())
                  for v in run.values()]
        if any(nested) and not all(nested):
            key = list(run)[nested.index(False)]
            raise ValueError(f"run dict mixes shapes: {key!r} is not {{qid: {{docid: score}}}} while "
                             "other entries are; pass {qid: {docid: score}} for one run or "
                             "{run_id: {qid: {docid: score}}} for several")
        if nested and all(nested):
            parts = []
            for rid, one in run.items():
                q, d, v = _flatten(f"run[{rid!r}]", one, "score")
                _check_scores(f"run[{rid!r}]", q, d, v)
                parts.append((rid, q, d, v))
            qs, ds = [x for _, q, _, _ in parts for x in q], [x for _, _, d, _ in parts for x in d]
            rids = [rid for rid, q, _, _ in parts for _ in q]
            frame = _frame(qs, ds, "score", order_values([x for *_, v in parts for x in v], "run 'score'",
                                                         lambda i: f"run[{rids[i]!r}][{qs[i]!r}][{ds[i]!r}]"))
            frame.insert(0, "run_id", pd.Series([rid for rid, q, _, _ in parts for _ in q], dtype=object))
            return frame
        q, d, v = _flatten("run", run, "score")
        _check_scores("run", q, d, v)
        return _frame(q, d, "score", order_values(v, "run 'score'", lambda i: f"run[{q[i]!r}][{d[i]!r}]"))
    if isinstance(run, Iterable) and not isinstance(run, (bytes, bytearray)):
        return _from_tuples("run", run, _RUN_FIELDS, "ir_measures / ir_datasets ScoredDoc")
    raise ValueError(f"run must be a DataFrame, a {{qid: {{docid: score}}}} dict, an iterable of "
                     f"ScoredDoc namedtuples or a TREC run path; got {type(run).__name__}")


def _check_frame(df: pd.DataFrame, what: str, numeric: tuple[str, ...]) -> None:
    """Refuse a frame with two columns of one name (pandas then hands a frame where a column is
    expected) and a numeric column holding complex numbers (cast to real with a warning)."""
    if isinstance(df.columns, pd.MultiIndex) or df.columns.nlevels > 1:
        raise ValueError(f"{what} has {df.columns.nlevels} levels of column names (a MultiIndex, e.g. "
                         f"{df.columns[0]!r}); expected one level of plain names such as 'query_id', 'doc_id' "
                         "(flatten them, e.g. df.columns = df.columns.get_level_values(0))")
    names = [str(c) for c in df.columns]
    twice = sorted({c for c in names if names.count(c) > 1})
    if twice:
        raise ValueError(f"{what} has {names.count(twice[0])} columns named {twice[0]!r} (columns {names}); "
                         "expected each column once: drop or rename the extra one")
    for name in numeric:
        if name in df.columns:
            col = df[name]
            values = col.to_numpy()
            complex_kind = values.dtype.kind == "c" or (values.dtype == object and any(
                isinstance(x, (complex, np.complexfloating)) for x in values))
            if complex_kind:
                i = next(i for i, x in enumerate(values) if isinstance(x, (complex, np.complexfloating)))
                raise ValueError(f"{what} '{name}' must hold real numbers; row {i} has {complex(values[i])} "
                                 "(a complex number)")
            refuse_booleans(values, f"{what} '{name}'")


#: Integers at or beyond this magnitude are not all exact in float64 (2**53 + 1 becomes 2**53).
EXACT_INT_LIMIT = 2 ** 53
_INT_TEXT = re.compile(r"\s*[+-]?\d+\s*")


def order_values(values, what: str, where: Callable[[int], str] | None = None) -> np.ndarray:
    """A score or rank column as float64, the one coercion every path uses (frames, pytrec_eval
    dicts and namedtuples, :mod:`helpers.measures.diversity`, ``evaluate``): text is parsed, what is
    not a number becomes NaN (the caller names it). Refused with the row (``where(i)``, default
    ``row i``): an integer of magnitude >= 2**53 -- in an integer column of any kind, an object
    column of Python or numpy ints, integer text (``'9007199254740993'``) or a categorical of
    them -- and exact values (``Decimal``, ``Fraction``) two of which become one float: float64
    would tie them and the tie would be broken by doc_id without a word."""
    series = values if isinstance(values, pd.Series) else pd.Series(values, dtype=object if isinstance(
        values, list) else None)
    if isinstance(series.dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(series.dtype):
        series = series.astype(object)
    where = where or (lambda i: f"row {i}")
    if pd.api.types.is_integer_dtype(series.dtype):
        ints = series.to_numpy(dtype=np.float64, na_value=np.nan)
        big = np.flatnonzero(np.abs(np.nan_to_num(ints)) >= EXACT_INT_LIMIT)
        if len(big):
            _refuse_big(what, where(int(big[0])), int(series.iloc[big[0]]))
        return ints
    if series.dtype == object:
        exact: dict[float, object] = {}
        for i, x in enumerate(series.to_numpy()):
            if isinstance(x, str) and _INT_TEXT.fullmatch(x):
                x = int(x)
            if isinstance(x, (Integral, np.integer)) and not isinstance(x, (bool, np.bool_)):
                if abs(int(x)) >= EXACT_INT_LIMIT:
                    _refuse_big(what, where(i), int(x))
            elif isinstance(x, (Real, Decimal)) and not isinstance(x, (float, np.floating, bool, np.bool_)):
                f = float(x)
                if exact.setdefault(f, x) != x:
                    raise ValueError(f"{what} {where(i)} has {x!r}, which float64 holds as {f!r}, as it holds "
                                     f"{exact[f]!r}: the two would tie and be reordered by doc_id; rescale the "
                                     "values (e.g. subtract the smallest) or give floats")
    return pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)


def _refuse_big(what: str, row: str, value: int) -> None:
    raise ValueError(f"{what} holds integers beyond 2**53 ({row} has {value}), which float64 cannot order "
                     "exactly: neighbouring values would tie and be reordered by doc_id; rescale them (e.g. "
                     "subtract the smallest) or rank them first")


_DATES = (np.datetime64, np.timedelta64, pd.Timestamp, pd.Timedelta)


def refuse_booleans(values, what: str) -> None:
    """Refuse booleans in a numeric column (``True`` was read as 1.0 without a word), as ids and
    ``depth`` refuse them: a bool column, or an object column holding a ``bool``/``numpy.bool_``;
    and dates or durations (``datetime64``, ``timedelta64``, time-zone-aware or ``Timestamp``
    objects), which were read as nanoseconds."""
    if isinstance(values, pd.Series):
        values = values.to_numpy()
    values = np.asarray(values)
    if values.dtype.kind in "mM" or (values.dtype == object and any(isinstance(x, _DATES) for x in values.ravel())):
        flat = values.ravel()
        i = next((i for i, x in enumerate(flat) if isinstance(x, _DATES)), 0)
        shown = pd.Timestamp(flat[i]) if values.dtype.kind == "M" else (
            pd.Timedelta(flat[i]) if values.dtype.kind == "m" else flat[i])
        raise ValueError(f"{what} must hold numbers; row {i} has {str(shown)!r} (a date or duration, which would be "
                         "read as nanoseconds): convert the column to the numbers you mean")
    if values.dtype.kind == "b" or (values.dtype == object and any(isinstance(x, (bool, np.bool_))
                                                                   for x in values.ravel())):
        flat = values.ravel()
        i = next(i for i, x in enumerate(flat) if isinstance(x, (bool, np.bool_)))
        raise ValueError(f"{what} must hold numbers; row {i} has {bool(flat[i])} (a boolean, which would be read "
                         "as 1 or 0): convert the column to the numbers you mean")


def _is_path_list(value) -> bool:
    return (isinstance(value, (list, tuple)) and len(value) > 0
            and all(isinstance(v, (str, os.PathLike)) for v in value))


def is_ranked_list(path: "str | os.PathLike") -> bool:
    """An NTCIREVAL ranked list: a file named ``<topic>.res`` (or ``.res.gz``)."""
    return plain_name(Path(path)).lower().endswith(".res")


def read_run_files(paths, *, name_by_file: bool = False, what: str = "run",
                   duplicates: str = "error") -> pd.DataFrame:
    """TREC run files (and NTCIREVAL ``.res`` ranked lists) as one run table.

    Parameters
    ----------
    paths : str, path-like, or a list of them
        Files, folders (their files) or globs (``"runs/*.txt"``, ``"runs/*/*.res"``), resolved
        by :func:`helpers.io.textfiles.resolve_paths`.
    name_by_file : bool
        Name each TREC file's run after the file instead of its tag (sixth column).
    what : str
        The argument's name in messages (``"run"``, ``"--run"``).
    duplicates : {"error", "keep_first"}
        A document twice in one ranked list: refused with ``file:line`` (default) or kept, for
        :func:`helpers.measures.evaluate` to keep the highest-ranked copy (as for frames).

    Returns
    -------
    pandas.DataFrame
        ``run_id, query_id, doc_id, rank, score``; TREC files as :func:`helpers.io.trec.read_run`
        reads them (file order, ranks as written: the conventions order the lists), ranked lists
        as :func:`helpers.io.runs.read_runs` reads them (rank = line order, run = folder).

    Raises
    ------
    ValueError
        When a path matches no file, a file is malformed (``file:line``), or one run id is in two
        files (naming both, and how to tell them apart).
    """
    files = resolve_paths(paths, what=what)
    frames, source = [], {}
    lists = [p for p in files if is_ranked_list(p)]
    if lists:
        frames.append((read_runs(lists, what=what, duplicates=duplicates), "the ranked lists"))
    trec_files = [p for p in files if not is_ranked_list(p)]

    def one(p: Path) -> pd.DataFrame:
        return trec.read_run(p, run_id=p.name if name_by_file else None, duplicates=duplicates)

    if len(trec_files) > 1:  # parsing and decompressing release the GIL: a few threads read faster
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1, len(trec_files))) as pool:
            frames += list(zip(pool.map(one, trec_files), trec_files))
    else:
        frames += [(one(p), p) for p in trec_files]
    for run, path in frames:
        for rid in pd.unique(run["run_id"]):
            if rid in source:
                hint = ("the two files have the same name: rename or copy one of them" if name_by_file
                        else "name runs after their files (name_by_file, --name-by-file) or edit the tags")
                raise ValueError(f"{what}: run id {rid!r} appears in both {source[rid]} and {path}; {hint}")
            source[rid] = path
    if len(frames) == 1:
        return frames[0][0]
    return pd.concat([f for f, _ in frames], ignore_index=True)


def _flatten(what: str, nested: Mapping, value: str) -> tuple[list, list, list]:
    q, d, v = [], [], []
    for qid, docs in nested.items():
        if not isinstance(docs, Mapping):
            raise ValueError(f"{what}[{qid!r}] must be a {{docid: {value}}} dict, got "
                             f"{type(docs).__name__}: {docs!r}"[:300])
        q.extend([qid] * len(docs))
        d.extend(docs.keys())
        v.extend(docs.values())
    return q, d, v


def _check_scores(what: str, q: list, d: list, v: list) -> None:
    for qid, did, x in zip(q, d, v):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, Real):
            raise ValueError(f"{what}[{qid!r}][{did!r}] = {x!r}: scores must be real numbers")


def _frame(q: list, d: list, column: str, values: np.ndarray) -> pd.DataFrame:
    # object columns keep the ids' Python types, so evaluate's id checks see what the user gave
    return pd.DataFrame({"query_id": _ids(q), "doc_id": _ids(d), column: values})


def _ids(values: list) -> pd.Series:
    s = pd.Series(values, dtype=object)
    return s.infer_objects() if len(s) else pd.Series([], dtype=str)


def _refuse_frames(what: str, container: str, rows: list) -> None:
    """A list of DataFrames is not a list of namedtuples (pandas would print whole columns)."""
    frames = [type(r).__name__ for r in rows if isinstance(r, (pd.DataFrame, pd.Series))]
    if not frames:
        return
    got = (f"a {container} of {len(rows)} {frames[0]}{'s' if len(rows) > 1 else ''}"
           if len(frames) == len(rows) and len(set(frames)) == 1
           else f"a {container} of {len(rows)} elements, {len(frames)} of them DataFrames/Series")
    how = ("evaluate each, or concatenate them (pandas.concat) with a run_id column telling them apart"
           if what == "run" else "concatenate them (pandas.concat) into one table")
    raise ValueError(f"{what} must be one DataFrame (or a path, a list of paths, a mapping or "
                     f"namedtuples), got {got}; {how}")


def _from_tuples(what: str, rows: Iterable, fields: tuple[str, ...], kind: str) -> pd.DataFrame:
    container = type(rows).__name__
    rows = list(rows)
    if not rows:
        return pd.DataFrame({f: pd.Series([], dtype=str if f.endswith("_id") else float) for f in fields})
    _refuse_frames(what, container, rows)
    cols: dict[str, list] = {f: [] for f in fields}
    for i, row in enumerate(rows):
        try:
            for f in fields:
                cols[f].append(getattr(row, f))
        except AttributeError:
            raise ValueError(f"{what} element {i} is {type(row).__name__} {row!r}"[:200] +
                             f": expected namedtuples with fields {', '.join(fields)} ({kind})") from None
    if what == "qrels":
        for i, (qid, did, x) in enumerate(zip(*cols.values())):
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, Integral):
                raise ValueError(f"qrels element {i} ({qid!r}, {did!r}) has relevance {x!r}: levels "
                                 "must be integers")
        return _frame(cols["query_id"], cols["doc_id"], "relevance",
                      np.asarray(cols["relevance"], dtype=np.int64))
    _check_scores("run", cols["query_id"], cols["doc_id"], cols["score"])
    return _frame(cols["query_id"], cols["doc_id"], "score", order_values(cols["score"], "run 'score'",
                                                                          lambda i: f"tuple {i}"))
