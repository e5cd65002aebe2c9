"""Per-assessor ratings (several assessors per item): the long, wide (NTCIR STC) and
one-qrels-file-per-assessor layouts."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from . import trec
from .judgment_groups import read_qrels_jg
from .qrels import read_qrels_file
from .textfiles import (INTEGER, Origins, check_columns, concat, finish, first_line, header,
                                 resolve_paths, sep_name, stem, text_lines)

__all__ = ["RATING_LAYOUTS", "RATING_COLUMNS", "read_ratings"]


RATING_LAYOUTS = ("long", "wide", "qrels", "qrels_jg")
RATING_COLUMNS = ("query_id", "doc_id", "assessor", "rating")


def _ratings_long(path: Path, origins: Origins) -> pd.DataFrame:
    expected_header = "a header line 'query_id, doc_id, assessor, rating' (tab- or comma-separated)"
    names, sep = header(path, expected_header)
    check_columns(path, names, RATING_COLUMNS)
    df = trec.read_delimited(
        path, names, dtypes={n: "int64" if n == "rating" else str for n in names},
        expected=(f"{len(names)} {sep_name(sep)}-separated fields {sep.join(names)!r} as in the "
                  "header (integer rating)"),
        checks={names.index("rating"): trec.is_int}, sep=sep, header=True)
    return origins.tag(df[list(RATING_COLUMNS)], path, skip=1)


def _ratings_wide(path: Path, origins: Origins) -> tuple[pd.DataFrame, int]:
    """STC-style wide ratings: ``query_id doc_id label1 .. labelN``; '' or 'NA' = not rated."""
    lines = text_lines(path)
    first = next(lines, None)
    if first is None:
        raise trec.malformed(path, None, "wide ratings 'query_id doc_id rating...'", "an empty file")
    number, text = first
    sep = "\t" if "\t" in text else ","
    fields = [field.strip() for field in text.split(sep)]
    width = len(fields)
    if width < 3:
        raise trec.malformed(path, number, f"at least 3 {sep_name(sep)}-separated fields "
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
    expected = (f"{width} {sep_name(sep)}-separated fields 'query_id doc_id' + {width - 2} ratings "
                "(integer, or empty/NA when not rated), as on the file's first line")
    for number, text in lines:
        fields = [field.strip() for field in text.split(sep)]
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
    numeric = pd.Series(cells.ravel()).str.fullmatch(INTEGER).to_numpy(dtype=bool).reshape(cells.shape)
    bad = ~missing & ~numeric
    if bad.any():
        at, col = (int(v[0]) for v in np.nonzero(bad))
        raise trec.malformed(path, line_numbers[at], "an integer rating (at most 18 digits) or empty/NA in the "
                                f"column of assessor {assessors[col]}", cells[at, col])
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


def _judgment_group_frame(path: Path, origins: Origins) -> tuple[pd.DataFrame, int]:
    """The rated lines of a qrels_jg file as ratings (tagged with their lines) and the number of
    pooled-but-unjudged (negative) lines left out."""
    df = read_qrels_jg(path)
    keep = df["relevance"].to_numpy() >= 0
    lines = np.array([n for n, t in trec.numbered_lines(path)
                      if isinstance(t, str) and not t.lstrip().lstrip("\ufeff").startswith("#")])
    rated = pd.DataFrame({"query_id": df["query_id"][keep].to_numpy(dtype=object),
                          "doc_id": df["doc_id"][keep].to_numpy(dtype=object),
                          "assessor": df["jg"][keep].to_numpy(dtype=object),
                          "rating": df["relevance"][keep].to_numpy(dtype=np.int64)})
    rated = rated.astype({"query_id": "str", "doc_id": "str", "assessor": "str"})
    return origins.tag(rated, path, lines=lines[keep]), int((~keep).sum())


def read_ratings(path: str | os.PathLike, *, layout: str = "long", d_max: int | None = None,
                 what: str = "ratings_path") -> pd.DataFrame:
    """Read per-assessor relevance ratings (several assessors per item).

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`); files are concatenated.
    layout : {"long", "wide", "qrels", "qrels_jg"}
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
        :func:`~helpers.io.qrels.read_graded_qrels`); the assessor id is the file name without its extension(s)
        (``a1-qrels.txt.gz`` -> ``"a1-qrels"``).
        ``"qrels_jg"``: trec_eval's judgment groups (``query_id judgment_group doc_id level``, read
        by :func:`~helpers.io.judgment_groups.read_qrels_jg`); the judgment group is the assessor.
        Negative levels (trec_eval: pooled but not judged) are not ratings: they are dropped and
        counted in ``attrs["excluded"]["unjudged"]``.
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
    origins = Origins()
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
    elif layout == "qrels_jg":
        unjudged = 0
        for p in files:
            df, n_unjudged = _judgment_group_frame(p, origins)
            frames.append(df)
            unjudged += n_unjudged
        excluded["unjudged"] = unjudged
    else:
        owners: dict[str, Path] = {}
        for p in files:
            assessor = stem(p)
            if assessor in owners:
                raise ValueError(f"{what}: two files give assessor id {assessor!r} (the file name "
                                 f"without extensions): {owners[assessor]} and {p}")
            owners[assessor] = p
            if first_line(p) is None:
                raise ValueError(f"{p}: assessor {assessor!r} has no rating (empty file)")
            df = read_qrels_file(p, origins, per_topic=False)
            frames.append(df.rename(columns={"relevance": "rating"})
                          .assign(assessor=pd.Series(assessor, index=df.index, dtype="str")))
    df = concat(frames)
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
    return finish(df, RATING_COLUMNS, levels=(0, top), files=[str(p) for p in files],
                   excluded=excluded, what=what)
