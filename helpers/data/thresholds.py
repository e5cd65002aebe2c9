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

Aliases: ``dl19``, ``dl19-nist`` (the :func:`helpers.data.datasets.load_qrels` name) and
``dl19-nist-qrels`` (the registry entry of the passage qrels) mean ``dl19-passage``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Threshold", "THRESHOLDS", "ALIASES", "relevance_threshold"]


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
