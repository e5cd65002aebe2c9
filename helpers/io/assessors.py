"""An assessor of a ratings file whose labels are the official qrels: found, said, left out.

A user's multi-assessor ratings often hold the official assessor too: the qrels are the topic
author's labels, and the ratings file has every assessor, the author included. Counted as one
more assessor, that person rates every item twice (notebook 02 would read N = 4 where there are 3
people, and RawG on 0..12), and a double judgment drawn from the same file pairs an assessor with
themselves (notebook 03). :func:`find_official_copies` finds such an assessor, per topic and over
all their topics, by the rule :data:`COPY_RULE`; :meth:`OfficialCopies.exclude` leaves their
ratings out, :meth:`OfficialCopies.stop` raises an error naming the parameter to change.

The rule
--------
An assessor's labels *are the qrels* on a topic when, over the items of that topic judged in both
(the *shared* items):

* there are at least ``min_items`` of them (default :data:`MIN_ITEMS` = 20),
* they carry at least two distinct official labels (identical labels on items all judged 0 say
  nothing about who judged them), and
* the assessor's label equals the official one on at least ``min_identical`` of them (default
  :data:`MIN_IDENTICAL` = 0.98: all of 20-49 shared items, all but one of 50-99, ...).

The same rule over all of an assessor's shared items (every topic together) marks the assessor
as a copy on every topic they judged: a copy whose topics are each too small for the per-topic
rule is still found. Independent assessors rarely agree that closely: exact agreement between
different people on graded scales is typically 40-80% (Voorhees 2000; the DL-19 re-annotation);
the tests check both a copy with one label changed and genuinely different assessors.

Only exact label equality counts (no tolerance for neighbouring levels): a copy is a copy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["MIN_ITEMS", "MIN_IDENTICAL", "COPY_RULE", "OfficialCopies", "find_official_copies",
           "without_official_copies"]

#: Shared items needed before the rule says anything (per topic, and over all topics).
MIN_ITEMS = 20
#: Share of shared items with the official label at which an assessor is the official one.
MIN_IDENTICAL = 0.98
#: The rule in words (printed by the notebooks beside what it found).
COPY_RULE = (f"an assessor is the official one on a topic when their label equals the qrels' on at least "
             f"{MIN_IDENTICAL:.0%} of at least {MIN_ITEMS} items judged in both, with two or more distinct "
             "official labels among them; the same over all their topics marks every topic")

_KEYS = ["query_id", "doc_id"]


@dataclass(frozen=True)
class OfficialCopies:
    """What :func:`find_official_copies` found.

    Attributes
    ----------
    cells : DataFrame
        One row per (assessor, topic) with shared items: ``assessor, query_id, items, identical,
        share, levels, copy`` (``copy``: this topic by the rule, or the assessor over all topics).
    assessors : DataFrame
        One row per assessor with shared items: ``assessor, topics, items, identical, share,
        copy_topics, whole`` (``whole``: the rule holds over all their topics together).
    min_items, min_identical : the rule's thresholds.
    """

    cells: pd.DataFrame
    assessors: pd.DataFrame
    min_items: int = MIN_ITEMS
    min_identical: float = MIN_IDENTICAL

    @property
    def found(self) -> bool:
        """Whether any assessor is the official one on any topic."""
        return bool(self.cells["copy"].any()) if len(self.cells) else False

    def copies(self) -> pd.DataFrame:
        """The (assessor, query_id) pairs whose ratings are the official labels."""
        return self.cells.loc[self.cells["copy"], ["assessor", "query_id"]].reset_index(drop=True)

    def exclude(self, ratings: pd.DataFrame) -> pd.DataFrame:
        """``ratings`` without the ratings of an assessor on a topic where they are the official one
        (``attrs`` kept, with ``attrs["official_copies"]`` = the pairs left out)."""
        pairs = self.copies()
        if pairs.empty:
            return ratings
        key = pd.MultiIndex.from_frame(ratings[["assessor", "query_id"]].astype(str))
        drop = key.isin(pd.MultiIndex.from_frame(pairs.astype(str)))
        out = ratings[~drop].reset_index(drop=True)
        out.attrs = {**ratings.attrs, "official_copies": pairs}
        return out

    def lines(self, qrels_name: str = "the qrels") -> list[str]:
        """What was found, one short line per assessor (empty when nothing was)."""
        out = []
        for a in self.assessors.itertuples():
            cells = self.cells[(self.cells["assessor"] == a.assessor) & self.cells["copy"]]
            if cells.empty:
                continue
            items, same = int(cells["items"].sum()), int(cells["identical"].sum())
            where = ("on every topic they judged" if a.whole or len(cells) == a.topics
                     else f"on {len(cells)} of their {a.topics} topics")
            out.append(f"assessor {a.assessor} gives {qrels_name}' labels {where}: "
                       f"{same} of {items} shared items identical")
        return out

    def summary(self, qrels_name: str = "the qrels") -> str:
        """One sentence on what was found (empty when nothing was)."""
        hit = self.cells[self.cells["copy"]]
        if hit.empty:
            return ""
        names = sorted(hit["assessor"].unique())
        items, same = int(hit["items"].sum()), int(hit["identical"].sum())
        if len(names) == 1:
            who = f"assessor {names[0]}"
        else:
            who = f"{len(names)} assessors ({', '.join(names[:4])}{', ...' if len(names) > 4 else ''})"
        return (f"{who} give{'s' if len(names) == 1 else ''} {qrels_name}' labels on "
                f"{hit['query_id'].nunique()} topic{'s' if hit['query_id'].nunique() != 1 else ''} "
                f"({same} of {items} shared items identical)")

    def others(self) -> str:
        """The agreement of the assessors that are not copies, for contrast (a range of shares)."""
        rest = self.cells[~self.cells["copy"]]
        if rest.empty:
            return ""
        share = rest["identical"].sum() / rest["items"].sum()
        by = rest.groupby("assessor")[["identical", "items"]].sum()
        lo, hi = (by["identical"] / by["items"]).min(), (by["identical"] / by["items"]).max()
        span = f"{lo:.0%}" if round(lo, 2) == round(hi, 2) else f"{lo:.0%}–{hi:.0%}"
        return f"the other assessors give the official label on {span} of their shared items ({share:.0%} overall)"

    def stop(self, parameter: str, qrels_parameter: str = "qrels_path") -> None:
        """Raise ``ValueError`` naming ``parameter`` when any copy was found (else nothing)."""
        if self.found:
            raise ValueError(
                f"{parameter}: " + "; ".join(self.lines(qrels_parameter)) + f". By the rule ({COPY_RULE}) "
                f"this assessor is the official one of {qrels_parameter}, so counting them would count one person "
                f"twice. Remove their ratings from {parameter}, or let the notebook leave them out.")


def _rule(items, identical, min_items: int, min_identical: float):
    """Whether ``identical`` of ``items`` shared labels pass the rule (arrays or Series)."""
    need = np.ceil(np.asarray(items, dtype=float) * min_identical - 1e-9)
    return (np.asarray(items) >= min_items) & (np.asarray(identical) >= need)


def find_official_copies(qrels: pd.DataFrame, ratings: pd.DataFrame, *, min_items: int = MIN_ITEMS,
                         min_identical: float = MIN_IDENTICAL) -> OfficialCopies:
    """Assessors of ``ratings`` whose labels are the official ``qrels``, by :data:`COPY_RULE`.

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, doc_id, relevance``: the official labels, one per item.
    ratings : DataFrame
        ``query_id, doc_id, assessor, rating`` (:func:`helpers.io.readers.read_ratings`).
    min_items : int
        Shared items needed for the rule (per topic; and over all of an assessor's topics).
    min_identical : float in (0, 1]
        Share of shared items with the official label at which an assessor is a copy.

    Returns
    -------
    OfficialCopies
        Per (assessor, topic) and per assessor: shared items, identical labels, their share and
        the verdict. Ids are compared as strings; labels as numbers.

    Examples
    --------
    >>> q = pd.DataFrame({"query_id": "q1", "doc_id": [f"d{i}" for i in range(30)], "relevance": [0, 1, 2] * 10})
    >>> r = pd.concat([q.rename(columns={"relevance": "rating"}).assign(assessor="A"),
    ...                q.rename(columns={"relevance": "rating"}).assign(assessor="B", rating=2)])
    >>> find_official_copies(q, r).copies()
      assessor query_id
    0        A       q1
    """
    for name, df, cols in (("qrels", qrels, ["query_id", "doc_id", "relevance"]),
                           ("ratings", ratings, ["query_id", "doc_id", "assessor", "rating"])):
        missing = [c for c in cols if c not in getattr(df, "columns", [])]
        if missing:
            raise ValueError(f"{name} is missing column(s) {missing}")
    if isinstance(min_items, bool) or int(min_items) != min_items or min_items < 1:
        raise ValueError(f"min_items must be a positive integer, got {min_items!r}")
    if not 0.0 < float(min_identical) <= 1.0:
        raise ValueError(f"min_identical must lie in (0, 1], got {min_identical!r}")
    q = qrels[_KEYS + ["relevance"]].astype({"query_id": str, "doc_id": str})
    if q.duplicated(_KEYS).any():
        first = q[q.duplicated(_KEYS, keep=False)].iloc[0]
        raise ValueError(f"qrels judge item ({first['query_id']}, {first['doc_id']}) more than once: "
                         "official labels must be one per item")
    r = ratings[_KEYS + ["assessor", "rating"]].astype({"query_id": str, "doc_id": str, "assessor": str})
    both = r.merge(q, on=_KEYS, how="inner")
    both["same"] = both["rating"].to_numpy(dtype=float) == both["relevance"].to_numpy(dtype=float)
    cells = (both.groupby(["assessor", "query_id"], sort=True)
             .agg(items=("same", "size"), identical=("same", "sum"), levels=("relevance", "nunique"))
             .reset_index())
    cells["identical"] = cells["identical"].astype(int)
    cells["share"] = cells["identical"] / cells["items"]
    pooled = (both.groupby("assessor", sort=True)
              .agg(topics=("query_id", "nunique"), items=("same", "size"), identical=("same", "sum"),
                   levels=("relevance", "nunique")).reset_index())
    pooled["identical"] = pooled["identical"].astype(int)
    pooled["share"] = pooled["identical"] / pooled["items"]
    pooled["whole"] = _rule(pooled["items"], pooled["identical"], int(min_items), float(min_identical)) \
        & (pooled["levels"] >= 2)
    own = _rule(cells["items"], cells["identical"], int(min_items), float(min_identical)) & (cells["levels"] >= 2)
    whole = cells["assessor"].map(dict(zip(pooled["assessor"], pooled["whole"]))).fillna(False).astype(bool)
    cells["copy"] = (own | whole).astype(bool)
    pooled["copy_topics"] = pooled["assessor"].map(cells.groupby("assessor")["copy"].sum()).fillna(0).astype(int)
    return OfficialCopies(cells=cells[["assessor", "query_id", "items", "identical", "share", "levels", "copy"]],
                          assessors=pooled[["assessor", "topics", "items", "identical", "share", "copy_topics",
                                            "whole"]],
                          min_items=int(min_items), min_identical=float(min_identical))


def without_official_copies(qrels: pd.DataFrame, ratings: pd.DataFrame, *, on_copy: str = "exclude",
                            parameter: str = "ratings_path", qrels_parameter: str = "qrels_path",
                            **rule) -> tuple[pd.DataFrame, OfficialCopies]:
    """``ratings`` without the official assessor's copies, and what was found.

    ``on_copy="exclude"`` leaves the copies out (say so with :meth:`OfficialCopies.lines`);
    ``on_copy="stop"`` raises ``ValueError`` naming ``parameter`` when there is one. ``rule``:
    ``min_items`` and ``min_identical`` of :func:`find_official_copies`.
    """
    if on_copy not in ("exclude", "stop"):
        raise ValueError(f"on_copy must be 'exclude' or 'stop', got {on_copy!r}")
    found = find_official_copies(qrels, ratings, **rule)
    if on_copy == "stop":
        found.stop(parameter, qrels_parameter)
    return found.exclude(ratings), found
