"""Public datasets: tidy loaders of the registered sets, their summary and the ``data`` command.

The registry of pinned files is :mod:`helpers.data.registry`; their checksummed download, with an
offline mirror, is :mod:`helpers.data.fetch` (both re-exported here: ``datasets.fetch``,
``datasets.REGISTRY``).

Loaders
-------
Loaders fetch what they need on first use and return tidy frames with ``ir_measures`` column
names. Identifiers are strings. Annotators of the DL-19 re-annotation are named ``A1``..``A8``
(sorted order of the upstream file names of the agreement round, computed at load time; the
names themselves never reach a frame). Every malformed line raises a :class:`ValueError`
``"<file>:<line>: expected ..., got ..."``. Excluded rows (e.g. broken-link labels) are counted in
``df.attrs["excluded"]``.

Command line: ``python -m helpers data fetch --all | fetch ID... | describe [--registry]``.
"""


from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from .. import paths
from .fetch import MIRROR_ENV, ChecksumError, FetchError, fetch, fetch_one
from . import registry
from .registry import REGISTRY, UPSTREAM, Dataset, RemoteFile, registry_table
from ..io import readers, trec
from ..io.topics import parse_topics

__all__ = [
    "MIRROR_ENV", "UPSTREAM", "RemoteFile", "Dataset", "REGISTRY", "FetchError", "ChecksumError",
    "fetch", "load_ratings", "load_qrels", "load_runs", "load_diversity_qrels", "load_intents",
    "load_image_preferences", "ImagePreferences", "describe", "registry_table", "main",
    "RATINGS", "QRELS", "RUNS", "DIVERSITY",
]


# --------------------------------------------------------------------------------------------
# Helpers for validation
# --------------------------------------------------------------------------------------------

def _check_values(path: Path, values: pd.Series, allowed: Iterable, expected: str,
                  skip: int = 0) -> None:
    """Raise ``file:line`` for the first row whose value is not in ``allowed``."""
    bad = ~values.isin(list(allowed)).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        line = trec.row_line(path, row, skip=skip)
        raise trec.malformed(path, line, expected, values.iloc[row])


def _with_attrs(df: pd.DataFrame, **attrs) -> pd.DataFrame:
    df = df.reset_index(drop=True)
    df.attrs.update(attrs)
    return df


# --------------------------------------------------------------------------------------------
# Ratings
# --------------------------------------------------------------------------------------------

_DL19_ROUNDS = {"dl19-agreement": "agreement-round", "dl19-main": "main",
                "dl19-pilot": "pilot-round-01"}
_QRELS_SUFFIX = "-qrels.txt"
_GROUND_TRUTH = "ground-truth"

RATINGS = ("dl19-agreement", "dl19-main", "dl19-pilot", "stc-ja", "stc-ja-dev", "trec-rf10")


def _dl19_annotator_ids() -> dict[str, str]:
    """Map upstream file stems to anonymous ids A1..A8 (sorted order of the agreement round)."""
    ds = REGISTRY["dl19-reannotation"]
    prefix = "judgments/agreement-round/qrels/"
    stems = sorted(rf.path[len(prefix):-len(_QRELS_SUFFIX)] for rf in ds.files
                   if rf.path.startswith(prefix) and rf.path.endswith(_QRELS_SUFFIX))
    ids = {stem: f"A{i + 1}" for i, stem in enumerate(stems)}
    ids[_GROUND_TRUTH] = "GT"
    return ids


def _load_dl19_round(name: str) -> pd.DataFrame:
    ds = REGISTRY["dl19-reannotation"]
    prefix = f"judgments/{_DL19_ROUNDS[name]}/qrels/"
    wanted = [rf.path for rf in ds.files if rf.path.startswith(prefix)]
    local = fetch(ds.id, paths=wanted)
    ids = _dl19_annotator_ids()
    for path in wanted:
        stem = path[len(prefix):]
        if not stem.endswith(_QRELS_SUFFIX) or stem[:-len(_QRELS_SUFFIX)] not in ids:
            raise ValueError(f"{local[path]}: expected an annotator qrels file of the agreement round, "
                             f"got an unknown file name")
    # one qrels file per annotator: the reader users have for their own files
    df = readers.read_ratings([local[p] for p in wanted], layout="qrels", d_max=3, what=name)
    df["assessor"] = df["assessor"].map(lambda a: ids[a.removesuffix(_QRELS_SUFFIX.removesuffix(".txt"))])
    df = df.sort_values(["query_id", "doc_id", "assessor"], kind="stable")
    df.attrs = {}
    return _with_attrs(df, dataset=name, levels=(0, 1, 2, 3), excluded={})


def _load_stc(name: str) -> pd.DataFrame:
    path = "stc1/testset/test-final-labeled.txt.gz" if name == "stc-ja" else "stc1/devset/dev.txt"
    local = fetch_one("stc-ja", path)
    # the STC layout (ids, then ten crowd labels; NA = no label) is the readers' "wide" layout
    long = readers.read_ratings(local, layout="wide", d_max=2, what=name)
    if long["assessor"].nunique() != 10:
        raise trec.malformed(local, None, "10 label columns C1..C10", f"{long['assessor'].nunique()} columns")
    n_na = int(long.attrs.get("excluded", {}).get("missing_labels", 0))
    long = long.sort_values(["query_id", "doc_id", "assessor"], kind="stable",
                            key=lambda s: s.str[1:].astype(int) if s.name == "assessor" else s)
    long.attrs = {}
    return _with_attrs(long[["query_id", "doc_id", "assessor", "rating"]], dataset=name,
                       levels=(0, 1, 2), excluded={"NA_labels": n_na})


def _load_rf10(include_nist: bool) -> pd.DataFrame:
    local = fetch_one("trec-rf10-crowd", "trec-rf10-crowd/trec-rf10-data.txt")
    expected_header = "topicID\tworkerID\tdocID\tgold\tlabel"
    with open(local, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\r\n")
    if header != expected_header:
        raise trec.malformed(local, 1, f"the header {expected_header!r}", header)
    raw = trec.read_delimited(
        local, ["query_id", "assessor", "doc_id", "gold", "rating"], sep="\t", header=True,
        dtypes={"query_id": str, "assessor": str, "doc_id": str, "gold": "int64", "rating": "int64"},
        expected="5 tab-separated fields 'topicID workerID docID gold label' (integer labels)",
        checks={3: trec.is_int, 4: trec.is_int})
    _check_values(local, raw["rating"], (-2, 0, 1, 2), "crowd label -2, 0, 1 or 2", skip=1)
    _check_values(local, raw["gold"], (-2, -1, 0, 1, 2), "gold label -2, -1, 0, 1 or 2", skip=1)
    golds = raw.groupby(["query_id", "doc_id"], sort=False)["gold"].transform("nunique")
    bad = (golds > 1).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(local, trec.row_line(local, row, skip=1),
                                "one gold label per (topic, document)", raw["gold"].iloc[row])
    trap = raw["gold"] == -2
    broken = (raw["rating"] == -2) & ~trap
    valid = ~(trap | broken)
    repeated = pd.Series(False, index=raw.index)
    repeated[valid] = raw.loc[valid].duplicated(["query_id", "assessor", "doc_id"])
    keep = valid & ~repeated
    excluded = {
        "broken_link_labels": int(broken.sum()),
        "planted_broken_link_items": int(raw.loc[trap, ["query_id", "doc_id"]].drop_duplicates().shape[0]),
        "planted_broken_link_labels": int(trap.sum()),
        "repeated_labels": int(repeated.sum()),
    }
    crowd = raw.loc[keep, ["query_id", "doc_id", "assessor", "rating"]]
    frames = [crowd]
    if include_nist:
        gold = raw.loc[raw["gold"] >= 0, ["query_id", "doc_id", "gold"]].drop_duplicates(
            ["query_id", "doc_id"])
        frames.append(pd.DataFrame({"query_id": gold["query_id"], "doc_id": gold["doc_id"],
                                    "assessor": "NIST", "rating": gold["gold"]}))
    df = pd.concat(frames, ignore_index=True)
    return _with_attrs(df, dataset="trec-rf10", levels=(0, 1, 2), excluded=excluded)


def load_ratings(name: str, *, include_nist: bool | None = None) -> pd.DataFrame:
    """Per-assessor relevance ratings, one row per (item, assessor).

    Parameters
    ----------
    name : str
        ``"dl19-agreement"``: TREC DL 2019 passages, 188 items x 8 annotators, levels 0-3 (Parry
        et al. 2025, agreement round). ``"dl19-main"``: the main round, ~4,500 items over the 43
        judged topics, each judged by one pair of annotators (18 by only one). ``"dl19-pilot"``:
        100 items, 6 annotators plus the organisers' reference labels (assessor ``"GT"``).
        ``"stc-ja"``: NTCIR-12 STC Japanese test set, 18,543 (post, reply) pairs x 10 crowd labels
        0-2; ``"stc-ja-dev"``: the 1,959-pair development set (``NA`` labels, given when a worker
        found the post meaningless, are dropped and counted). ``"trec-rf10"``: TREC 2010
        Relevance Feedback crowd labels 0-2.
    include_nist : bool, optional
        Add the NIST label of each item as assessor ``"NIST"``. Default (None): as the source
        ships it, i.e. True for ``trec-rf10`` (its ``gold`` column) and False for the others.
        True for a DL-19 round joins the official NIST qrels (:func:`load_qrels`
        ``("dl19-nist")``) on (query_id, doc_id); STC has no NIST label (ValueError).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str; the post id for STC), ``doc_id`` (str; the reply id for STC),
        ``assessor`` (str) and ``rating`` (int64). ``df.attrs`` holds ``dataset``, ``levels``
        and ``excluded`` (counts of rows left out and why).

    Notes
    -----
    Assessor ids: DL-19 annotators are ``A1``..``A8`` (sorted order of the upstream file names of
    the agreement round; the same person has the same id in every round). STC labels are
    ``C1``..``C10`` by column position: the columns are crowd *slots*, not persons (the source
    does not identify workers, and the labels of a row are often sorted). TREC RF10 keeps the
    source's anonymised worker ids (``w1``...).

    TREC RF10 exclusions: a worker label of -2 ("broken link") is dropped; items whose NIST gold
    is -2 are the organisers' planted broken links (quality control) and are dropped entirely;
    when a worker gave the same item more than one valid label (1,239 repeats), the first in file
    order is kept. Each count is in ``df.attrs["excluded"]``.

    Raises
    ------
    ValueError
        Unknown name, or a malformed source line (``"<file>:<line>: expected ..., got ..."``).
    """
    if name not in RATINGS:
        raise ValueError(f"unknown ratings set {name!r}; expected one of {list(RATINGS)}")
    if name in _DL19_ROUNDS:
        df = _load_dl19_round(name)
        if include_nist:
            nist = load_qrels("dl19-nist")
            items = df[["query_id", "doc_id"]].drop_duplicates()
            joined = items.merge(nist, on=["query_id", "doc_id"], how="inner")
            extra = pd.DataFrame({"query_id": joined["query_id"], "doc_id": joined["doc_id"],
                                  "assessor": "NIST", "rating": joined["relevance"]})
            attrs = dict(df.attrs)
            df = pd.concat([df, extra], ignore_index=True)
            df.attrs.update(attrs)
            df.attrs["excluded"] = {**attrs["excluded"],
                                    "items_without_nist_label": len(items) - len(joined)}
        return df
    if name.startswith("stc-ja"):
        if include_nist:
            raise ValueError(f"{name} has no NIST (official) label; use include_nist=None or False")
        return _load_stc(name)
    return _load_rf10(include_nist is None or include_nist)


# --------------------------------------------------------------------------------------------
# Qrels and runs
# --------------------------------------------------------------------------------------------

#: TREC DL 2019 passage ranking: the lowest NIST level that counts as relevant. NIST judged passages
#: on 0 "irrelevant", 1 "related" (on the topic but does not answer the question), 2 "highly
#: relevant", 3 "perfectly relevant", and level 1 is *not* relevant: binary measures of the passage
#: task use ``trec_eval -l 2`` (Craswell et al., Overview of the TREC 2019 Deep Learning Track,
#: Sect. on passage judgments; NIST's TREC 2019 DL data page). Graded measures (nDCG) keep the
#: gains 0-3 of the levels.
DL19_RELEVANCE_THRESHOLD: int = 2
DL19_LEVEL_NAMES: tuple[str, ...] = ("irrelevant", "related (not relevant)", "highly relevant",
                                     "perfectly relevant")
DL19_THRESHOLD_SOURCE = ("TREC DL 2019 passage levels: 0 irrelevant, 1 related (not relevant), 2 highly "
                         "relevant, 3 perfectly relevant; binary measures use levels >= 2 (trec_eval -l 2) "
                         "[Craswell et al. 2020, Overview of the TREC 2019 Deep Learning Track]")

#: Relevance threshold (lowest relevant level) of every collection with official levels, by the
#: collection's own definition. ``dl19``/``dl19-nist``/the DL-19 re-annotation rounds: 2 (above);
#: ``trec-rf10``: 1 (TREC 2010 RF labels 0 non-relevant, 1 relevant, 2 highly relevant).
RELEVANCE_THRESHOLDS: dict[str, int] = {"dl19": DL19_RELEVANCE_THRESHOLD, "dl19-nist": DL19_RELEVANCE_THRESHOLD,
                                        "dl19-agreement": DL19_RELEVANCE_THRESHOLD,
                                        "dl19-main": DL19_RELEVANCE_THRESHOLD,
                                        "dl19-pilot": DL19_RELEVANCE_THRESHOLD, "trec-rf10": 1}


def relevance_threshold(name: str) -> int:
    """The collection's own relevance threshold (lowest level counted as relevant).

    >>> relevance_threshold("dl19")
    2
    """
    if name not in RELEVANCE_THRESHOLDS:
        raise ValueError(f"no documented relevance threshold for {name!r}; known: {sorted(RELEVANCE_THRESHOLDS)}")
    return RELEVANCE_THRESHOLDS[name]


#: The team of every official DL-19 passage run, with the evidence for each grouping
#: (``data/raw/dl19_teams.csv``; documented in ``data/raw/README.md``).
DL19_TEAMS_FILE = "dl19_teams.csv"


def load_teams(name: str = "dl19", path: str | os.PathLike | None = None) -> pd.DataFrame:
    """Team table of a run collection: ``run_id, team, evidence`` (one row per run).

    Parameters
    ----------
    name : str
        ``"dl19"``: the 37 official TREC DL 2019 passage runs (``data/raw/dl19_teams.csv``).
    path : path-like, optional
        Read this CSV instead (same columns); for tests and other collections.

    Raises
    ------
    ValueError
        ``"<file>:<line>: expected ..."`` for a missing column, an empty field or a run listed twice.
    """
    if path is None:
        if name != "dl19":
            raise ValueError(f"no team table for {name!r}; expected 'dl19'")
        path = paths.DATA_RAW / DL19_TEAMS_FILE
    path = Path(path)
    df = pd.read_csv(path, dtype=str, keep_default_na=False, comment="#")
    need = ["run_id", "team", "evidence"]
    if list(df.columns[:3]) != need:
        raise ValueError(f"{path.name}:1: expected header {','.join(need)}, got {','.join(df.columns)}")
    # line numbers: header is the first non-comment line
    lines = [i + 1 for i, t in enumerate(path.read_text(encoding="utf-8").splitlines())
             if t.strip() and not t.lstrip().startswith("#")][1:]
    for k, row in enumerate(df[need].itertuples(index=False)):
        for col, v in zip(need, row):
            if not v.strip():
                raise ValueError(f"{path.name}:{lines[k]}: expected a non-empty {col}, got {v!r}")
    dup = df["run_id"].duplicated()
    if dup.any():
        k = int(np.flatnonzero(dup.to_numpy())[0])
        raise ValueError(f"{path.name}:{lines[k]}: expected each run once, got {df['run_id'].iloc[k]!r} again")
    return df[need].reset_index(drop=True)


QRELS = ("dl19-nist",)
RUNS = ("dl19", "trec-web-2012")


def load_qrels(name: str) -> pd.DataFrame:
    """Official qrels as ``query_id, doc_id, relevance``.

    Parameters
    ----------
    name : str
        ``"dl19-nist"``: NIST qrels of TREC DL 2019 passage ranking (levels 0-3, 43 topics,
        9,260 judgments).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64).
    """
    if name not in QRELS:
        raise ValueError(f"unknown qrels {name!r}; expected one of {list(QRELS)}")
    local = fetch_one("dl19-nist-qrels", "qrels/qrels.dl19-passage.txt")
    qrels = readers.read_graded_qrels(local, levels=(0, 3), what=name)
    qrels.attrs = {}
    return _with_attrs(qrels, dataset=name, levels=(0, 1, 2, 3))


def load_runs(name: str, depth: int | None = None) -> pd.DataFrame:
    """System runs as ``run_id, query_id, doc_id, rank, score``.

    Parameters
    ----------
    name : str
        ``"dl19"``: the 37 official TREC DL 2019 passage runs (200 queries; run ids from the
        files' sixth field). ``"trec-web-2012"``: the 8 Indri baselines on WT2012 topics
        151-200, named ``{ql,rm}-{cata,catb}[-filtered]`` after their files (all are tagged
        ``indri`` upstream).
    depth : int, optional
        Keep only ranks 1..depth of every (run, query).

    Returns
    -------
    pandas.DataFrame
        Runs in registry order; within a run, queries in file order; within a query, documents in
        ``trec_eval`` order (decreasing score, ties by decreasing doc_id) with ``rank``
        renumbered 1, 2, ... (the files' own rank fields are ignored, as ``trec_eval`` does; some
        DL-19 runs count from 0).
    """
    if name not in RUNS:
        raise ValueError(f"unknown runs {name!r}; expected one of {list(RUNS)}")
    if depth is not None and (isinstance(depth, (bool, np.bool_)) or not isinstance(depth, (int, np.integer)) or depth < 1):
        raise ValueError(f"depth must be a positive integer or None, got {depth!r}")
    dataset_id = "dl19-runs" if name == "dl19" else "trec-web-2012-baselines"
    ds = REGISTRY[dataset_id]
    wanted = [rf.path for rf in ds.files if "/runs/" in f"/{rf.path}"]
    local = fetch(dataset_id, paths=wanted)
    if name == "dl19":  # TREC run files named by their sixth field: the readers' own case
        df = readers.read_runs([local[p] for p in wanted], depth=depth, what=name)
        df.attrs = {}
        return _with_attrs(df, dataset=name, depth=depth)
    frames = []
    for path in wanted:
        run_id = None
        if name == "trec-web-2012":
            model = path.split("/")[-2]
            run_id = f"{model}-{Path(path).stem.removeprefix('results-')}"
        run = trec.sort_run(trec.read_run(local[path], run_id=run_id))
        if depth is not None:
            run = run[run["rank"] <= depth]
        frames.append(run)
    df = pd.concat(frames, ignore_index=True)
    return _with_attrs(df, dataset=name, depth=depth)


# --------------------------------------------------------------------------------------------
# Diversity: qrels and intents
# --------------------------------------------------------------------------------------------

_WEB = {
    "trec-web-2009": ("2009/qrels.diversity", "2009/wt09.topics.full.xml"),
    "trec-web-2010": ("2010/10.diversity-qrels.final.txt", "2010/wt2010-topics.xml"),
    "trec-web-2011": ("2011/qrels.diversity.txt", "2011/full-topics.xml"),
    "trec-web-2012": ("2012/qrels.diversity.txt", "2012/full-topics.xml"),
    "trec-web-2013": ("2013/qrels.all.txt", "2013/trec2013-topics.xml"),
    "trec-web-2014": ("2014/qrels.all.txt", "2014/trec2014-topics.xml"),
}
DIVERSITY = tuple(_WEB)


def _web_files(name: str) -> tuple[Path, Path]:
    if name not in _WEB:
        raise ValueError(f"unknown diversity collection {name!r}; expected one of {list(_WEB)}")
    qrels, topics = _WEB[name]
    local = fetch("trec-web-diversity", paths=[qrels, topics])
    return local[qrels], local[topics]


def load_intents(name: str) -> pd.DataFrame:
    """Intents (subtopics) of the TREC Web Track topics, with uniform probabilities.

    Parameters
    ----------
    name : str
        ``"trec-web-2009"`` .. ``"trec-web-2014"``.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``intent_id`` (str), ``prob`` (float64, 1/number of
        subtopics of the topic: TREC publishes no intent probabilities and the TREC measures
        weight subtopics uniformly) and ``kind`` (``"nav"`` or ``"inf"``, from the topic XML).

    Notes
    -----
    Topics of type ``single`` (2013, 2014) have no subtopics in the XML; their qrels use
    subtopic 0, so they get one intent ``"0"`` with probability 1 and kind ``"inf"``. A subtopic
    without a type, or with a type other than nav/inf (2011 has ``inv`` and ``inav``), gets the
    DTD's default ``"inf"``; such corrections are listed in ``df.attrs["kind_corrections"]``.
    Subtopics that no document is relevant to are kept (they count in the uniform probability).
    """
    _, topics_path = _web_files(name)
    rows, corrections = [], []
    for topic in parse_topics(topics_path):
        subs = topic["subtopics"] or [("0", "inf", topic["line"])]
        seen = set()
        for intent, kind, line in subs:
            if intent in seen:
                raise trec.malformed(topics_path, line, f"distinct subtopic numbers in topic "
                                        f"{topic['number']}", f"subtopic {intent} again")
            seen.add(intent)
            if kind not in ("nav", "inf"):
                corrections.append((topic["number"], intent, kind))
                kind = "inf"
            rows.append((topic["number"], intent, 1.0 / len(subs), kind))
    df = pd.DataFrame(rows, columns=["query_id", "intent_id", "prob", "kind"])
    df = df.astype({"query_id": "str", "intent_id": "str", "kind": "str"})
    return _with_attrs(df, dataset=name, kind_corrections=corrections)


def load_diversity_qrels(name: str) -> pd.DataFrame:
    """Diversity qrels of a TREC Web Track year as ``query_id, intent_id, doc_id, relevance``.

    Parameters
    ----------
    name : str
        ``"trec-web-2009"`` .. ``"trec-web-2014"`` (primary files: ``qrels.diversity`` for
        2009-2012, ``qrels.all.txt`` for 2013-2014).

    Returns
    -------
    pandas.DataFrame
        ``relevance`` is int64 with negative levels (-2 = spam) set to 0, as ndeval requires.
        Levels: 2009 and 2010 binary (2010 lists relevant rows only), 2011-2014 graded 0-4.

    Notes
    -----
    In 2009, subtopic 0 marks documents judged non-relevant to every subtopic; those rows
    (relevance 0, not an intent of :func:`load_intents`) are dropped. In 2013-2014, subtopic 0 is
    the single intent of ``single`` topics and is kept. Counts are in
    ``df.attrs["excluded"]`` (``negative_set_to_zero``, ``subtopic0_rows_dropped``).
    """
    qrels_path, topics_path = _web_files(name)
    qrels = trec.read_diversity_qrels(qrels_path)
    has_subtopics = {t["number"] for t in parse_topics(topics_path) if t["subtopics"]}
    negative = qrels["relevance"] < 0
    qrels.loc[negative, "relevance"] = 0
    drop = (qrels["intent_id"] == "0") & qrels["query_id"].isin(has_subtopics)
    dropped_relevant = int((drop & (qrels["relevance"] > 0)).sum())
    if dropped_relevant:
        row = int(np.flatnonzero((drop & (qrels["relevance"] > 0)).to_numpy())[0])
        raise trec.malformed(qrels_path, trec.row_line(qrels_path, row),
                                "subtopic 0 only with level 0 for topics that have subtopics",
                                int(qrels["relevance"].iloc[row]))
    qrels = qrels[~drop]
    return _with_attrs(qrels, dataset=name, excluded={
        "negative_set_to_zero": int(negative.sum()), "subtopic0_rows_dropped": int(drop.sum())})


# --------------------------------------------------------------------------------------------
# THUIR image search preferences
# --------------------------------------------------------------------------------------------

class ImagePreferences(NamedTuple):
    """Tidy tables of the THUIR image-search preference dataset (Xie et al., SIGIR 2020).

    Attributes
    ----------
    serp : pandas.DataFrame
        ``query_id, preference, preferred``: SERP-level preference between the two engines'
        result pages (``preference`` 0 = Sogou, 1 = tie, 2 = Baidu, as upstream;
        ``preferred`` = ``"sogou"``, ``"tie"``, ``"baidu"``). 102 queries.
    relevance : pandas.DataFrame
        ``query_id, engine, image, doc_id, relevance``: mean relevance (0-100) of three
        assessors per image; ``image`` is the image's index in the engine's result list and
        ``doc_id`` the upstream file name (``engine/query_index.jpg``).
    positions : pandas.DataFrame
        ``query_id, engine, image, row, column, row_size``: grid placement (0-based row and
        column, number of images in that row). Upstream keys engines as ``"0"`` (Sogou) and
        ``"1"`` (Baidu), as the authors' PWP.py reads them.
    pairs : pandas.DataFrame
        ``query_id, left, right, assessor, preference``: image-pair preferences in long form, one
        row per pair and assessor slot ``P1``..``P3`` (slots by column position; the source does
        not identify persons). ``preference`` -2 (definitely left) .. 2 (definitely right).
    """

    serp: pd.DataFrame
    relevance: pd.DataFrame
    positions: pd.DataFrame
    pairs: pd.DataFrame


_ENGINES = ("sogou", "baidu")


def _image_name(path: Path, values: pd.Series, skip: int, what: str) -> pd.DataFrame:
    """Split ``engine/anything_<index>.jpg`` into engine and integer index, validating both."""
    parts = values.str.extract(r"^(sogou|baidu)/.*_(\d+)\.jpg$")
    bad = parts.isna().any(axis=1).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(path, trec.row_line(path, row, skip=skip),
                                f"{what} 'sogou|baidu/<query>_<index>.jpg'", values.iloc[row])
    return pd.DataFrame({"engine": parts[0].astype("str"), "image": parts[1].astype("int64")})


def _check_header(path: Path, expected: str) -> None:
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\r\n")
    if header.split("\t")[0] != "Query":
        raise trec.malformed(path, 1, f"a header line starting 'Query' ({expected})", header)


def _serp_preferences(path: Path) -> pd.DataFrame:
    """SERP_level_preference: the winner of each query (0 Sogou, 1 tie, 2 Baidu)."""
    _check_header(path, "Query, Winner")
    serp = trec.read_delimited(path, ["query_id", "preference"], sep="\t", header=True,
                               dtypes={"query_id": str, "preference": "int64"},
                               expected="2 tab-separated fields 'query winner(0, 1, 2)'",
                               checks={1: trec.is_int})
    _check_values(path, serp["preference"], (0, 1, 2), "winner 0 (Sogou), 1 (tie) or 2 (Baidu)", skip=1)
    serp["preferred"] = serp["preference"].map({0: "sogou", 1: "tie", 2: "baidu"}).astype("str")
    return serp


def _image_relevance(path: Path) -> pd.DataFrame:
    """relevance_data: the average relevance score (0..100) of each image of each SERP."""
    _check_header(path, "Query, Image, Average_Relevance_Score")
    rel = trec.read_delimited(path, ["query_id", "doc_id", "relevance"], sep="\t", header=True,
                              dtypes={"query_id": str, "doc_id": str, "relevance": "float64"},
                              expected="3 tab-separated fields 'query engine/image.jpg score'",
                              checks={2: trec.is_finite})
    bad = ~rel["relevance"].between(0, 100).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(path, trec.row_line(path, row, skip=1), "relevance in [0, 100]",
                             rel["relevance"].iloc[row])
    return pd.concat([rel[["query_id"]], _image_name(path, rel["doc_id"], 1, "image"),
                      rel[["doc_id", "relevance"]]], axis=1)


def _image_positions(path: Path, rel: pd.DataFrame, rel_path: Path) -> pd.DataFrame:
    """Image_position.json: grid row, column and row size of every image; every image with a
    relevance label must have one."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise trec.malformed(path, exc.lineno, "valid JSON", exc.msg) from None
    rows = []
    try:
        for query, engines in raw.items():
            for key, images in engines.items():
                engine = {"0": "sogou", "1": "baidu"}[key]
                for image, (row_, col, size) in images.items():
                    rows.append((query, engine, int(image), int(row_), int(col), int(size)))
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise trec.malformed(path, None, "{query: {'0'|'1': {image: [row, column, row_size]}}}",
                             f"{type(exc).__name__}: {exc}") from None
    positions = pd.DataFrame(rows, columns=["query_id", "engine", "image", "row", "column", "row_size"])
    positions = positions.astype({"query_id": "str", "engine": "str"})
    missing = rel.merge(positions, on=["query_id", "engine", "image"], how="left", indicator=True)
    missing = missing["_merge"].eq("left_only").to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise trec.malformed(rel_path, trec.row_line(rel_path, row, skip=1),
                             "an image with a position in Image_position.json", rel["doc_id"].iloc[row])
    return positions


def _image_pairs(path: Path) -> pd.DataFrame:
    """image_pairs_annotation: three assessors' preference tags (-2..2) per image pair, long."""
    _check_header(path, "Query, Image_pair, three preference tags")
    slots = ["P1", "P2", "P3"]
    wide = trec.read_delimited(
        path, ["query_id", "pair", *slots], sep="\t", header=True,
        dtypes={"query_id": str, "pair": str, **dict.fromkeys(slots, "int64")},
        expected="5 tab-separated fields 'query left.jpg,right.jpg tag tag tag' (tags -2..2)",
        checks={i: trec.is_int for i in (2, 3, 4)},
        # the published file writes some tags as decimals (line 2826: -2.0); every tag is then checked
        # to be one of -2..2 below, so a decimal is taken only when it is one of those integers
        exact_ints=False)
    for slot in slots:
        _check_values(path, wide[slot], range(-2, 3), f"preference tag -2..2 in column {slot}", skip=1)
    split = wide["pair"].str.split(",", expand=True, regex=False)
    if split.shape[1] != 2 or split.isna().any(axis=1).any():
        bad = split.isna().any(axis=1).to_numpy() if split.shape[1] == 2 else \
            (split.notna().sum(axis=1) != 2).to_numpy()
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(path, trec.row_line(path, row, skip=1),
                             "an image pair 'left.jpg,right.jpg'", wide["pair"].iloc[row])
    _image_name(path, split[0], 1, "left image")
    _image_name(path, split[1], 1, "right image")
    wide["left"], wide["right"] = split[0].astype("str"), split[1].astype("str")
    pairs = wide.melt(id_vars=["query_id", "left", "right"], value_vars=slots,
                      var_name="assessor", value_name="preference")
    return pairs.sort_values(["query_id", "left", "right", "assessor"], kind="stable")


def load_image_preferences() -> ImagePreferences:
    """Load the THUIR image-search preference dataset as tidy frames.

    Returns
    -------
    ImagePreferences
        Named tuple of four DataFrames (``serp``, ``relevance``, ``positions``, ``pairs``); see
        :class:`ImagePreferences`. ``query_id`` is the (Chinese or English) query text.

    Raises
    ------
    ValueError
        A malformed line (field count, value out of range, image name) with file and line, or an
        image that has a relevance label but no grid position.
    """
    ds = REGISTRY["thuir-image-preference"]
    local = fetch(ds.id, paths=["SERP_level_preference", "relevance_data", "Image_position.json",
                                "image_pairs_annotation"])
    serp = _serp_preferences(local["SERP_level_preference"])
    rel = _image_relevance(local["relevance_data"])
    positions = _image_positions(local["Image_position.json"], rel, local["relevance_data"])
    pairs = _image_pairs(local["image_pairs_annotation"])
    return ImagePreferences(serp=_with_attrs(serp, dataset="thuir-serp"),
                            relevance=_with_attrs(rel, dataset="thuir-relevance"),
                            positions=_with_attrs(positions, dataset="thuir-positions"),
                            pairs=_with_attrs(pairs, dataset="thuir-pairs"))


# --------------------------------------------------------------------------------------------
# Summaries and command line
# --------------------------------------------------------------------------------------------

def _levels(values: pd.Series) -> str:
    return ",".join(str(v) for v in sorted(values.unique()))


def describe(names: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per judgment set: size, topics, assessors per item, levels and terms.

    Loads (and if needed fetches) every set, so the first call downloads about 30 MB.

    Parameters
    ----------
    names : sequence of str, optional
        Subset of ``RATINGS + QRELS + DIVERSITY`` (default: all of them).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset`` (loader name), ``source`` (registry id), ``items`` (distinct
        (query, document) pairs, or (query, intent, document) triples for diversity qrels),
        ``topics``, ``assessors_per_item`` (mean, NIST rows excluded), ``levels`` (the distinct
        labels, comma separated), ``terms``.
    """
    all_names = list(RATINGS) + list(QRELS) + list(DIVERSITY)
    names = all_names if names is None else list(names)
    rows = []
    for name in names:
        if name in RATINGS:
            df = load_ratings(name, include_nist=False)
            source = {"stc-ja": "stc-ja", "stc-ja-dev": "stc-ja",
                      "trec-rf10": "trec-rf10-crowd"}.get(name, "dl19-reannotation")
            per_item = df.groupby(["query_id", "doc_id"]).size()
            rows.append((name, source, len(per_item), df["query_id"].nunique(),
                         round(float(per_item.mean()), 2), _levels(df["rating"])))
        elif name in QRELS:
            df = load_qrels(name)
            rows.append((name, "dl19-nist-qrels", len(df), df["query_id"].nunique(), 1.0,
                         _levels(df["relevance"])))
        elif name in DIVERSITY:
            df = load_diversity_qrels(name)
            rows.append((name, "trec-web-diversity", len(df), df["query_id"].nunique(), 1.0,
                         _levels(df["relevance"])))
        else:
            raise ValueError(f"unknown dataset {name!r}; expected one of {all_names}")
    out = pd.DataFrame(rows, columns=["dataset", "source", "items", "topics", "assessors_per_item",
                                      "levels"])
    out["terms"] = out["source"].map(lambda s: REGISTRY[s].terms)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``fetch --all``, ``fetch ID...``, ``describe [--registry]``.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments after ``python -m helpers data`` (a leading ``"data"`` is also accepted).

    Returns
    -------
    int
        Exit status: 0 on success, 1 on a download or data error, 2 on a usage error.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "data":
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="python -m helpers data",
                                     description="Download and describe the public datasets.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_fetch = sub.add_parser("fetch", help="download and verify datasets into data/external")
    p_fetch.add_argument("ids", nargs="*", metavar="ID", help=f"dataset ids: {', '.join(registry.REGISTRY)}")
    p_fetch.add_argument("--all", action="store_true", help="every registered dataset")
    p_desc = sub.add_parser("describe", help="summarise every judgment set (downloads if needed)")
    p_desc.add_argument("--registry", action="store_true",
                        help="only list the registry, without downloading")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    try:
        if args.command == "fetch":
            if args.all == bool(args.ids):
                print("error: give dataset ids or --all (not both)", file=sys.stderr)
                return 2
            for dataset_id in (list(registry.REGISTRY) if args.all else args.ids):
                files = fetch(dataset_id)
                print(f"{dataset_id}: {len(files)} files verified")
        else:
            table = registry_table() if args.registry else describe()
            with pd.option_context("display.width", 200, "display.max_colwidth", 60):
                print(table.to_string(index=False))
    except (FetchError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # read-only checkout, disk full while unpacking or describing
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
