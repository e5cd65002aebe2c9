"""Several assessors' judgments in trec_eval's formats: judgment groups and preference files.

trec_eval's only multi-assessor evaluation reads one of three formats (trec_eval 10,
``get_qrels_jg.c``, ``get_prefs.c``, ``get_qrels_prefs.c``):

==================  ==============================================  =====================================
``-R``              line                                            meaning
==================  ==============================================  =====================================
``qrels_jg``        ``query_id judgment_group doc_id relevance``    qrels, one set per judgment group (an
                                                                    assessor, or one assessor at one time)
``prefs``           ``query_id jg jsg doc_id rel_level``            preferences: within a judgment
                                                                    subgroup (jsg) a higher rel_level is
                                                                    preferred; 0 means non-relevant
``qrels_prefs``     ``query_id jg doc_id relevance``                a qrels file read as preferences (one
                                                                    subgroup ``"0"`` per judgment group)
==================  ==============================================  =====================================

:func:`read_qrels_jg` keeps the judgment group as a column; :func:`judgment_group_ratings` turns it
into the per-assessor ratings every other multi-assessor reader of :mod:`helpers.io.readers`
returns (``query_id, doc_id, assessor, rating``), and ``read_ratings(..., layout="qrels_jg")``
reads such a file directly. Negative levels mean "in the pool but not judged" in trec_eval: they
are kept by the judgment-group readers (trec_eval's measures need them) and left out of the
ratings (counted in ``attrs["excluded"]["unjudged"]``).
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from .fields import read_bytes, split_lines
from .trec_eval_files import utf8_strings, decimal_values, first_repeated, read_trec_eval_qrels

__all__ = ["QRELS_JG_FORMAT", "PREFS_FORMAT", "QRELS_PREFS_FORMAT", "read_qrels_jg", "read_prefs",
           "read_qrels_prefs", "judgment_group_ratings"]

QRELS_JG_FORMAT = ("4 whitespace-separated fields 'query_id judgment_group doc_id relevance' "
                   "(trec_eval -R qrels_jg; integer relevance)")
PREFS_FORMAT = ("5 whitespace-separated fields 'query_id judgment_group judgment_subgroup doc_id rel_level' "
                "(trec_eval -R prefs; numeric rel_level)")
QRELS_PREFS_FORMAT = ("4 whitespace-separated fields 'query_id judgment_group doc_id relevance' "
                      "(trec_eval -R qrels_prefs; numeric relevance)")
PREFS_COLUMNS = ("query_id", "jg", "jsg", "doc_id", "rel_level")


def read_qrels_jg(path: os.PathLike | str) -> pd.DataFrame:
    """Read qrels with judgment groups (trec_eval ``-R qrels_jg``).

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``jg``, ``doc_id`` (str) and ``relevance`` (int64) in file order. Each
        judgment group is a complete set of qrels for its topics; trec_eval's ``*_avgjg`` measures
        score a run against each group and average over the groups of a topic.

    Raises
    ------
    ValueError
        ``<file>:<line>: expected ...`` for a line without four fields, a relevance that is not an
        integer, or a document judged twice by one group for one topic.
    """
    return read_trec_eval_qrels(path, group_column="jg", expected=QRELS_JG_FORMAT)


def _digits(t: bytes) -> int:
    """Significant digits of a decimal's text (leading zeros, and trailing ones after a point, not counted)."""
    mantissa = t.lower().split(b"e")[0].lstrip(b"+-")
    if b"." in mantissa:
        mantissa = mantissa.rstrip(b"0")
    return len(mantissa.replace(b".", b"").lstrip(b"0"))


def _levels(lines, k: int, fmt: str, field: str) -> np.ndarray:
    """The levels of field ``k`` as doubles (trec_eval's ``atof``), refusing what would lose an
    order there: a level of more than 18 digits (the bound of ``-R qrels`` and ``-R qrels_jg``),
    and two different levels that are one double (``12345678901234567`` and ``...68``)."""
    column = lines.fields[k]
    values = decimal_values(lines, column, None, f"{fmt}; {field} is not a finite number", finite=True)
    expected = f"{fmt}; {field}"
    digits = [_digits(t) for t in column]
    long = [i for i, n in enumerate(digits) if n > 15]     # a double tells every 15-digit decimal apart
    if not long:
        return values
    at = next((i for i in long if digits[i] > 18), None)
    if at is not None:
        raise lines.error(at, f"{expected} is a level of at most 18 digits (it has {digits[at]}: as a double it would "
                              "be rounded, and levels that differ could tie)")
    _refuse_tied_levels(lines, column, values, long, expected)
    return values


def _refuse_tied_levels(lines, column: list, values: np.ndarray, long: list, expected: str) -> None:
    from decimal import Decimal

    exact: dict = {}
    for i in sorted(set(long) | set(np.flatnonzero(np.isin(values, values[long])).tolist())):
        d = Decimal(column[i].decode("ascii"))
        j = exact.setdefault(float(values[i]), (d, i))
        if j[0] != d:
            raise lines.error(i, f"{expected} a level no other level equals as a double (trec_eval's atof): line "
                                 f"{int(lines.numbers[j[1]])}'s {column[j[1]].decode('ascii')} is a different number but "
                                 "the same double, so their order would be lost; give levels of at most 15 significant "
                                 "digits")


def _repeated(lines, keys: list, expected: str) -> None:
    again = first_repeated(keys)
    if again is not None:
        raise lines.error(again[1], f"{expected} (already on line {int(lines.numbers[again[0]])})")


def _text(lines, k: int, what: str) -> pd.Series:
    return pd.Series(utf8_strings(lines, lines.fields[k], what), dtype="str")


def read_prefs(path: os.PathLike | str) -> pd.DataFrame:
    """Read a trec_eval preference file (``-R prefs``).

    Within one judgment subgroup (jsg) of a judgment group (jg) every document is preferred to
    every document with a lower ``rel_level``; the subgroups of a group together give a partial
    order (trec_eval closes it transitively). ``rel_level`` 0 means non-relevant.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``jg``, ``jsg``, ``doc_id`` (str) and ``rel_level`` (float64), file order.

    Raises
    ------
    ValueError
        ``<file>:<line>: expected ...`` for a line without five fields, a ``rel_level`` that is not
        a finite number, or a document listed twice in one subgroup.
    """
    lines = split_lines(read_bytes(path), path, 5, PREFS_FORMAT, comments="qrels")
    level = _levels(lines, 4, PREFS_FORMAT, "field 5 (rel_level)")
    _repeated(lines, lines.fields[:4], "each document once per (query_id, judgment_group, judgment_subgroup)")
    out = pd.DataFrame({"query_id": _text(lines, 0, "query_id"), "jg": _text(lines, 1, "jg"),
                        "jsg": _text(lines, 2, "jsg"), "doc_id": _text(lines, 3, "doc_id"), "rel_level": level})
    out.attrs["files"] = [str(path)]   # messages about a group found later name file and lines
    return out


def read_qrels_prefs(path: os.PathLike | str) -> pd.DataFrame:
    """Read a qrels file as preferences (trec_eval ``-R qrels_prefs``): the second field is the
    judgment group, every group has the one subgroup ``"0"``, and a document is preferred to every
    document with a lower relevance in its group.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`read_prefs`.

    Raises
    ------
    ValueError
        For a line without four fields, a relevance that is not a finite number, or a document
        judged twice by one group for one topic.
    """
    lines = split_lines(read_bytes(path), path, 4, QRELS_PREFS_FORMAT, comments="qrels")
    level = _levels(lines, 3, QRELS_PREFS_FORMAT, "field 4 (relevance)")
    _repeated(lines, lines.fields[:3], "each document judged once per (query_id, judgment_group)")
    out = pd.DataFrame({"query_id": _text(lines, 0, "query_id"), "jg": _text(lines, 1, "jg"),
                        "jsg": pd.Series("0", index=range(len(level)), dtype="str"),
                        "doc_id": _text(lines, 2, "doc_id"), "rel_level": level})
    out.attrs["files"] = [str(path)]
    return out


def judgment_group_ratings(qrels_jg: pd.DataFrame) -> pd.DataFrame:
    """Judgment groups as per-assessor ratings: each group is an assessor.

    Parameters
    ----------
    qrels_jg : pandas.DataFrame
        As :func:`read_qrels_jg` returns it.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id``, ``assessor`` (the judgment group) and ``rating`` (the level),
        sorted by ``query_id, doc_id, assessor``; negative levels (trec_eval: pooled but not
        judged) are left out and counted in ``attrs["excluded"]["unjudged"]``.
    """
    keep = qrels_jg["relevance"].to_numpy() >= 0
    out = pd.DataFrame({"query_id": qrels_jg["query_id"].to_numpy(dtype=object)[keep],
                        "doc_id": qrels_jg["doc_id"].to_numpy(dtype=object)[keep],
                        "assessor": qrels_jg["jg"].to_numpy(dtype=object)[keep],
                        "rating": qrels_jg["relevance"].to_numpy()[keep].astype(np.int64)})
    out = out.astype({"query_id": "str", "doc_id": "str", "assessor": "str"})
    out = out.sort_values(["query_id", "doc_id", "assessor"], kind="stable").reset_index(drop=True)
    out.attrs = {"excluded": {"unjudged": int((~keep).sum())}}
    return out
