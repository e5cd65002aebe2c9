"""Relevance thresholds that test collections define for binary measures.

Graded qrels say how relevant a document is; binary measures (AP, RR, P, R, Hit) need a yes/no.
trec_eval and ir_measures count level >= 1 as relevant unless told otherwise (``-l``, ``rel=``),
and some collections define another threshold. :func:`relevance_threshold` looks it up, so that
notebooks and the command line (``python -m helpers evaluate --rel dl19-passage``) use the
collection's own definition instead of a number typed by hand.

=========================  =====  ============================================================
collection                 rel    source
=========================  =====  ============================================================
``dl19-passage``           2      NIST, TREC 2019 Deep Learning track data page
                                  (trec.nist.gov/data/deep2019.html): passages judged 0-3,
                                  where "Related (1) is actually NOT relevant"; binary measures
                                  use ``trec_eval -l 2``. Also Craswell et al., *Overview of the
                                  TREC 2019 Deep Learning Track*, arXiv:2003.07820.
``dl19-document``          1      same page: "Levels 1--3 are considered to be relevant".
=========================  =====  ============================================================

A run on one's own files (the notebooks' ``dataset: files``) must say its threshold: the files do
not, unless they are a collection this table knows, recognised by the sha256 of the registry's
pinned copy (:func:`recognise`, :func:`for_run`).

Aliases: ``dl19``, ``dl19-nist`` (the :func:`helpers.data.datasets.load_qrels` name) and
``dl19-nist-qrels`` (the registry entry of the passage qrels) mean ``dl19-passage``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["Threshold", "THRESHOLDS", "ALIASES", "relevance_threshold", "recognise", "for_run"]


class Threshold(NamedTuple):
    """A collection's binary-relevance threshold and where it is defined."""

    rel: int
    source: str


_DL19_PAGE = "NIST, TREC 2019 Deep Learning track data page, https://trec.nist.gov/data/deep2019.html"

#: Collections that define a threshold (levels below ``rel`` are non-relevant).
THRESHOLDS: dict[str, Threshold] = {
    "dl19-passage": Threshold(2, _DL19_PAGE + " (passage task: trec_eval -l 2)"),
    "dl19-document": Threshold(1, _DL19_PAGE + " (document task: levels 1-3 relevant)"),
}

#: Other names of the same collections (the dataset names of :mod:`helpers.data.datasets`).
ALIASES: dict[str, str] = {
    "dl19": "dl19-passage",
    "dl19-nist": "dl19-passage",
    "dl19-nist-qrels": "dl19-passage",
}


def relevance_threshold(dataset: str) -> int:
    """The binary-relevance threshold ``rel`` a collection defines (level >= rel is relevant).

    Parameters
    ----------
    dataset : str
        A name of :data:`THRESHOLDS` or :data:`ALIASES` (case-insensitive), e.g. ``"dl19"``.

    Returns
    -------
    int
        The threshold, e.g. 2 for TREC DL-19 passage ranking.

    Raises
    ------
    ValueError
        For a name the table does not hold (the message lists the known ones). No default is
        guessed: a collection without a published threshold uses trec_eval's level >= 1 only
        when the caller says so.

    Examples
    --------
    >>> relevance_threshold("dl19")
    2
    """
    if not isinstance(dataset, str):
        raise ValueError(f"dataset must be a collection name, got {type(dataset).__name__}: {dataset!r}")
    key = dataset.strip().lower()
    key = ALIASES.get(key, key)
    if key not in THRESHOLDS:
        known = sorted([*THRESHOLDS, *ALIASES])
        raise ValueError(f"no relevance threshold is recorded for collection {dataset!r}; known: "
                         f"{', '.join(known)} (without one, level >= 1 is relevant, trec_eval's default)")
    return THRESHOLDS[key].rel


def recognise(qrels_path: str) -> str | None:
    """The collection of :data:`THRESHOLDS` a qrels file (file, folder or glob, as the notebooks'
    ``qrels_path``) is a copy of, recognised by the sha256 of the registry's pinned file; ``None``
    for any other file (one's own qrels)."""
    import hashlib

    from .registry import REGISTRY
    from ..io.textfiles import resolve_paths

    if not qrels_path:
        return None
    known = {f.sha256: ALIASES.get(d.id, d.id) for d in REGISTRY.values() for f in d.files
             if ALIASES.get(d.id, d.id) in THRESHOLDS}
    try:
        files = resolve_paths(qrels_path, what="qrels_path")
    except ValueError:
        return None
    found = {known.get(hashlib.sha256(f.read_bytes()).hexdigest()) for f in files}
    return found.pop() if len(found) == 1 and None not in found else None


def for_run(threshold: int, dataset: str, *, qrels_path: str = "",
            collections: Mapping[str, int] | None = None) -> int:
    """The relevance threshold a notebook run uses: ``threshold`` (the notebook's
    ``relevance_threshold`` parameter) when it is set (>= 1);
    with 0, the collection's own definition: ``collections`` (the notebook's simulated or named
    data sets, e.g. ``{"dl19": 2}``), and for ``dataset == "files"`` the threshold of the
    collection the qrels file is a copy of (:func:`recognise`). One's own files do not say which
    level is relevant, so 0 is then refused with what to set: guessing trec_eval's level >= 1 would
    silently count TREC DL's "related" passages (level 1) as relevant.
    """
    if threshold:
        return int(threshold)
    if collections and dataset in collections:
        return int(collections[dataset])
    if dataset == "files":
        name = recognise(qrels_path)
        if name is not None:
            return THRESHOLDS[name].rel
        raise ValueError(
            "relevance_threshold: 0 takes the collection's definition, but with dataset 'files' the files do not say "
            "which level is relevant (qrels_path is not a collection this project knows); set relevance_threshold to "
            "the lowest relevant level of your qrels, e.g. 2 for TREC Deep Learning passage ranking (level 1 "
            "'related' is not relevant), 1 for trec_eval's default and most other TREC tracks")
    return relevance_threshold(dataset)
