"""Retrieval runs: TREC run files and NTCIREVAL ranked lists (``<run>/<topic>.res``)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from . import trec
from .textfiles import concat, finish, plain_name, resolve_paths, stem, text_lines

__all__ = ["read_runs", "rank_order_note"]


def _is_ranked_list(path: Path) -> bool:
    return plain_name(path).lower().endswith(".res")


def _read_ranked_list(path: Path, run_id: str, duplicates: str = "error") -> pd.DataFrame:
    """An NTCIREVAL ranked list: one document per line, best first (further fields ignored);
    ``duplicates="keep_first"``: a document's later lines are kept (the measures keep the first)."""
    docs: list[str] = []
    seen: dict[str, int] = {}
    for number, text in text_lines(path):
        doc = trec.c_fields(text)[0]
        if doc in seen and duplicates != "keep_first":
            raise trec.malformed(path, number, f"each document once in a ranked list (already on "
                                    f"line {seen[doc]})", text)
        seen.setdefault(doc, number)
        docs.append(doc)
    rank = np.arange(1, len(docs) + 1, dtype=np.int64)
    return pd.DataFrame({
        "run_id": pd.Series(run_id, index=range(len(docs)), dtype="str"),
        "query_id": pd.Series(stem(path), index=range(len(docs)), dtype="str"),
        "doc_id": pd.Series(docs, dtype="str"),
        "rank": rank,
        "score": -rank.astype(np.float64),
    })


def _read_trec_files(files: list[Path], duplicates: str = "error") -> dict[Path, pd.DataFrame]:
    """TREC run files read and put in trec_eval order, several at once: parsing and decompressing
    release the GIL, so a few threads read a folder of runs faster (the DL-19 runs: 1.3-1.5x on 2
    cores). The first malformed file in file order raises, as a serial loop would."""
    def one(p: Path) -> pd.DataFrame:
        return _in_trec_eval_order(trec.read_run(p, duplicates=duplicates))

    if len(files) < 2:
        return {p: one(p) for p in files}
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1, len(files))) as pool:
        return dict(zip(files, pool.map(one, files)))


def _in_trec_eval_order(run: pd.DataFrame) -> pd.DataFrame:
    """:func:`helpers.io.trec.sort_run`, counting the ranked lists whose rank column orders the
    documents otherwise (``attrs["rank_order"]``: ``lists``, ``reordered`` and the (run, topic)
    keys of the reordered lists). A rank column that never decreases along trec_eval's order
    agrees with it (equal ranks are broken by score, then doc id, as trec_eval breaks ties)."""
    given = run["rank"].to_numpy(copy=True)
    ordered = trec.sort_run(run.assign(_given_rank=given))
    g = ordered.pop("_given_rank").to_numpy()
    runs, queries = ordered["run_id"].to_numpy(dtype=object), ordered["query_id"].to_numpy(dtype=object)
    same = (runs[1:] == runs[:-1]) & (queries[1:] == queries[:-1])
    down = np.flatnonzero(same & (g[1:] < g[:-1]))
    keys = sorted({(str(runs[i]), str(queries[i])) for i in down})
    lists = int(len(runs) and 1 + np.count_nonzero(~same))
    ordered.attrs = {**run.attrs, "rank_order": {"lists": lists, "reordered": keys}}
    return ordered


def rank_order_note(runs: pd.DataFrame) -> str:
    """The input summary's line when files' rank columns disagree with trec_eval's order ('' when
    they agree, or when the frame was not read by :func:`read_runs` from TREC files)."""
    info = runs.attrs.get("rank_order") or {}
    if not info.get("reordered"):
        return ""
    topics = info["topics"]
    return (f"The rank column orders {info['reordered']:,} of {info['lists']:,} ranked lists ({topics:,} "
            f"topic{'' if topics == 1 else 's'}) "
            "otherwise than trec_eval's order: decreasing score, ties by decreasing doc id. They are read in "
            "trec_eval's order, so every measure here matches trec_eval's.")


def read_runs(path: str | os.PathLike, *, depth: int | None = None,
              what: str = "runs_glob", duplicates: str = "error") -> pd.DataFrame:
    """Read retrieval runs: TREC run files or NTCIREVAL ranked lists.

    Parameters
    ----------
    path : str or path-like
        A file, a folder or a glob (see :func:`~helpers.io.textfiles.resolve_paths`), plain or gzipped.
        TREC run files (``query_id Q0 doc_id rank score run_id``) are read with
        :func:`helpers.io.trec.read_run` and put in ``trec_eval`` order by
        :func:`helpers.io.trec.sort_run` (decreasing score, ties by decreasing doc_id, rank
        renumbered from 1). Files whose name ends in ``.res`` (or ``.res.gz``) are NTCIREVAL
        ranked lists: one document per line, best first (the first field is the document id,
        further fields are ignored); rank = line order, score = -rank, topic = the file name
        without extension(s), run id = the name of the folder holding the file (so use a glob
        such as ``"runs/*/*.res"``). An empty ``.res`` file is a topic without retrieved
        documents and contributes no row.
    depth : int, optional
        Keep ranks ``1..depth`` of every (run, topic).
    what : str
        Parameter name shown when ``path`` matches no file.
    duplicates : {"error", "keep_first"}
        A document twice in one ranked list: refused with ``file:line`` (default), or kept for
        the measures to keep its highest-ranked copy (:func:`helpers.measures.evaluate`).

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id``, ``query_id``, ``doc_id`` (str), ``rank`` (int64), ``score`` (float64),
        file by file in sorted file order. ``attrs["files"]`` lists the files read.

    Raises
    ------
    ValueError
        For a malformed line (``file:line``, from :mod:`helpers.io.trec`), a document twice in a
        ranked list (``file:line``), one run id found in two files (TREC) or in two folders /
        a folder and a file (naming both), the same topic twice in one folder of ranked lists,
        or no row at all.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer))
                              or depth < 1):
        raise ValueError(f"depth: expected an integer >= 1 or None, got {depth!r}")
    files = resolve_paths(path, what=what)
    trec_runs = _read_trec_files([p for p in files if not _is_ranked_list(p)], duplicates)
    owners: dict[str, Path] = {}
    topics: dict[tuple[Path, str], Path] = {}
    frames = []
    for p in files:
        if _is_ranked_list(p):
            folder = Path(os.path.abspath(p)).parent
            run_id = folder.name
            if not run_id:
                raise ValueError(f"{p}: a ranked list (.res) must be in a folder named after its run")
            other = topics.setdefault((folder, stem(p)), p)
            if other != p:
                raise ValueError(f"{what}: topic {stem(p)!r} of run {run_id!r} is in two ranked "
                                 f"lists: {other} and {p}")
            owner, run = folder, _read_ranked_list(p, run_id, duplicates)
        else:
            owner, run = p, trec_runs[p]
        for run_id in pd.unique(run["run_id"]):
            other = owners.setdefault(str(run_id), owner)
            if other != owner:
                raise ValueError(f"{what}: run id {run_id!r} is in both {other} and {owner}; give each "
                                 "run one file (or one folder of .res ranked lists)")
        if depth is not None:
            run = run[run["rank"].to_numpy() <= depth]
        frames.append(run)
    df = concat(frames)
    if len(df) == 0:
        raise ValueError(f"{what}: no retrieved document in {', '.join(map(str, files))}")
    reordered = {k for run in trec_runs.values() for k in run.attrs["rank_order"]["reordered"]}
    lists = sum(run.attrs["rank_order"]["lists"] for run in trec_runs.values())
    return finish(df, ["run_id", "query_id", "doc_id", "rank", "score"],
                  files=[str(p) for p in files], what=what,
                  rank_order={"lists": lists, "reordered": len(reordered),
                              "topics": len({q for _, q in reordered})})
