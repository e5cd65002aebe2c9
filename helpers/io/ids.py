"""Identifier columns: checked, compared as exact strings, factorised.

Topics, documents, runs and assessors are identified by strings everywhere in this package:
``1`` and ``"1"`` are one id, ``"01"`` and ``"1"`` are two. These functions turn an id column into
strings or integer codes once, refuse float and boolean columns (``1.0`` would never match
``"1"``) and missing values, and find ids that differ only in how a number is spelled. (pandas is
imported by the functions that take columns, so that :func:`number_spelling_twins` costs the
trec_eval command no pandas import.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["require_columns", "check_id_dtype", "str_ids", "factorize_ids", "number_spelling_twins"]


def require_columns(df, name: str, required: Sequence[str]) -> None:
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks column(s) {missing}; it has {list(df.columns)}")


#: What ``pandas.api.types.infer_dtype`` may call an id column: strings, integers, or both.
_ID_KINDS = frozenset({"string", "integer", "mixed-integer", "empty"})


def check_id_dtype(series: pd.Series, what: str) -> None:
    """Identifiers are compared as exact strings, so only strings and integers are ids: a float
    column would turn topic 1 into "1.0", a boolean or datetime column (or an object column
    holding them) would be spelled one way in the run and another in the qrels."""
    import pandas as pd

    if not len(series):
        return
    values = series.cat.categories.to_series() if isinstance(series.dtype, pd.CategoricalDtype) else series
    kind = pd.api.types.infer_dtype(values, skipna=True)
    if kind in _ID_KINDS:
        return
    example = values.dropna().iloc[0] if values.notna().any() else None
    example = example.item() if hasattr(example, "item") and not isinstance(example, (str, bytes)) else example
    holding = f" holding {kind} values" if series.dtype == object else ""
    raise ValueError(f"{what} has dtype {series.dtype}{holding} (e.g. {example!r}): identifiers "
                     "are compared as exact strings, so only strings and integers are ids (1.0 would never "
                     "match '1'; a date or True is spelled differently by each file); read ids as strings "
                     "(pandas: dtype=str) or convert them explicitly")


def str_ids(series: pd.Series, what: str) -> np.ndarray:
    check_id_dtype(series, what)
    if series.isna().any():
        i = int(np.flatnonzero(series.isna().to_numpy())[0])
        raise ValueError(f"{what} has a missing value at row {i}")
    out = series.astype(str).to_numpy(dtype=object)
    _refuse_blank(out, np.arange(len(out)), out, what)
    return out


def _refuse_blank(uniques, codes: np.ndarray, values, what: str) -> None:
    """Refuse an empty or whitespace-only id (a missing id, like an empty cell or NaN), naming
    the first row that has one."""
    blank = [k for k, u in enumerate(uniques) if not str(u).strip()]
    if not blank:
        return
    i = int(np.flatnonzero(np.isin(codes, blank))[0])
    raise ValueError(f"{what} has an empty or whitespace-only id {values[i]!r} at row {i}: a "
                     "missing id, refused like an empty cell or NaN")


def factorize_ids(series: pd.Series, what: str, *, sort: bool = False, blocky: bool = True
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes and unique string values of an identifier column.

    Values are compared as strings (``1`` and ``"1"`` are one id). With ``sort=True`` the codes
    follow the string order of the ids (Python's code-point order, which is trec_eval's strcmp
    order for UTF-8). Columns that change rarely (run and topic ids of a sorted run) are
    factorised block by block, which is several times faster than hashing every row.
    """
    import pandas as pd

    check_id_dtype(series, what)
    arr = series.to_numpy(dtype=object)
    n = len(arr)
    codes = uniques = None
    if blocky and n > 1024:
        try:
            change = np.empty(n, dtype=bool)
            change[0] = True
            change[1:] = arr[1:] != arr[:-1]
        except (TypeError, ValueError):  # pd.NA cannot be compared
            change = None
        if change is not None:
            starts = np.flatnonzero(change)
            if len(starts) * 8 < n:
                bcodes, uniques = pd.factorize(arr[starts])
                codes = np.repeat(bcodes, np.diff(np.append(starts, n)))
    if codes is None:
        codes, uniques = pd.factorize(arr)
    codes = np.asarray(codes, dtype=np.int64)
    if (codes < 0).any():
        i = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"{what} has a missing value at row {i}")
    as_str = np.array([u if isinstance(u, str) else str(u) for u in uniques], dtype=object)
    if sort or len(set(as_str)) != len(as_str):
        remap, as_str = pd.factorize(as_str, sort=sort)
        codes = np.asarray(remap, dtype=np.int64)[codes]
        as_str = np.asarray(as_str, dtype=object)
    _refuse_blank(as_str, codes, arr, what)
    return codes, as_str


def _canonical_number(text: str) -> str | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return repr(value) if math.isfinite(value) else None


def number_spelling_twins(ids, reference) -> list[tuple[str, str]]:
    """Pairs ``(id, ref)`` of ``ids`` and ``reference`` ids that differ only in how a number is
    written (``"1.0"`` vs ``"1"``, ``"01"`` vs ``"1"``): the ids that exact-string matching would
    silently miss. Used wherever two inputs' topic sets are compared."""
    numeric: dict = {}
    for q in reference:
        c = _canonical_number(str(q))
        if c is not None:
            numeric.setdefault(c, q)
    return [(t, numeric[c]) for t in ids if (c := _canonical_number(str(t))) is not None and c in numeric]
