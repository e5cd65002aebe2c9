"""Notebook 01, section 6: real ratings against uniform ratings of the same N and Dmax.

Sakai's conjecture (EVIA 2017, Sec. 6) that UG matters more with real ratings rests on a premise
he states in Sec. 4: real assessors spread less than independent uniform ones. :func:`contrast` sets one real
multi-assessor set against two kinds of uniform ratings, each redrawn ``replicates`` times through
:func:`helpers.replicates.runner.run_replicates`:

* ``"uniform"`` -- Sakai's model as he ran it (Sec. 4): N independent uniform ratings per item some
  assessor rated relevant (RawG > 0), the others kept at 0 as he kept L0 items;
* ``"uniform, same RawG"`` -- the like-for-like contrast: the same items, uniform ratings
  conditioned on each item's real raw gain, so only the spread around the same sums differs.

Items nobody rated relevant (RawG = 0) are left out on all sides, as UG leaves them at 0. RawG ties
are counted within topics (pairs of items of one query), on all sides: UG can reorder items only
within a topic's ranking. The
verdict on the premise is read from these rows by :func:`helpers.findings.gains.premise`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import gains
from . import runner, studies

__all__ = ["COLUMNS", "TIES_DEFINITION", "Contrast", "sources", "contrast", "table"]

#: The summaries compared, as :func:`helpers.replicates.studies.uniform_contrast` names them.
COLUMNS = ("share_full_spread", "mean_spread", "mean_bonus", "share_ties_broken")

#: The top of the rating scale of each public multi-assessor set.
D_MAX = {"stc-ja": 2, "dl19-agreement": 3}

#: How section 6 counts RawG ties (printed once, where the numbers first appear).
TIES_DEFINITION = ("RawG ties: pairs of items of one topic with equal RawG (UG can reorder items only within a "
                   "topic's ranking), in the real ratings and in both uniform models alike.")

#: The name of the user's own ratings in tables and text.
OWN = "your ratings"


@dataclass(frozen=True)
class Contrast:
    """One real set against both uniform models: ``rows`` (real, uniform, uniform same RawG),
    the items x ratings ``values`` used, ``d_max``, ``n`` (N or its range) and ``notes`` (lines
    the notebook prints)."""

    name: str
    rows: list
    values: np.ndarray
    d_max: int
    n: str
    notes: list


def sources(real_datasets, ratings_path: str = "", layout: str = "long", d_max: int = 3) -> list:
    """``(name, tidy ratings, Dmax, notes)`` of every real set a run asks for: the public sets
    named in ``real_datasets`` (:func:`helpers.data.datasets.load_ratings`) and the user's own
    ratings at ``ratings_path`` (:func:`helpers.io.readers.read_ratings`), in that order."""
    from ..data import datasets
    from ..io import readers

    out = [(name, datasets.load_ratings(name), D_MAX[name], []) for name in real_datasets]
    if ratings_path:
        tidy = readers.read_ratings(ratings_path, layout=layout, d_max=d_max, what="ratings_path")
        out.append((OWN, tidy, int(d_max), [readers.describe(ratings=tidy)]))
    return out


def contrast(name: str, tidy: pd.DataFrame, d_max: int, *, p: float, replicates: int, seed: int,
             notes=()) -> Contrast:
    """Summaries of the real set ``tidy`` and means and intervals of both uniform models.

    Items with fewer than 2 ratings are dropped (:func:`helpers.gains.comparable_items`); items
    may have different numbers of ratings, and each uniform draw keeps every item's own N.
    """
    matrix = gains.ratings_matrix(tidy)
    full = gains.comparable_items(matrix, what=name)
    n_item = gains.n_ratings(full)
    n = gains.n_label(n_item)
    notes = list(notes)
    if gains.varying_n_note(n_item):
        notes.append(f"{name}: {gains.varying_n_note(n_item)}")
    topic = full.index.get_level_values("query_id").to_numpy()
    topics = len(set(topic))
    s = gains.unanimity_summary(full.to_numpy(), d_max, p, groups=topic)
    rows = [{"dataset": name, "source": "real", "N": n, "Dmax": d_max, "topics": topics, "items": s["items"],
             "share_full_spread": s["share_full_spread"], "mean_spread": s["mean_spread"],
             "mean_bonus": s["mean_bonus"], "share_ties_broken": s["share_broken"]}]
    sums = gains.raw_gain(full.to_numpy(), d_max)
    relevant = sums > 0   # Sakai's model: uniform ratings for relevant items only, the rest kept at 0
    for source, extra in (("uniform", {"n_items": int(relevant.sum()), "n": n_item[relevant].tolist(),
                                       "groups": topic[relevant]}),
                          ("uniform, same RawG", {"n_items": len(full), "n": n_item.tolist(), "sums": sums,
                                                  "groups": topic})):
        draws = runner.run_replicates(studies.uniform_contrast, replicates, seed,
                                      common={"d_max": d_max, "p": p, **extra},
                                      scheduler=None, progress=False)
        row = {"dataset": name, "source": source, "N": n, "Dmax": d_max, "topics": topics,
               "items": float(draws["items"].mean())}
        for col in COLUMNS:
            sm = runner.summarise(draws, col)
            row.update({col: float(sm["mean"].iloc[0]), f"{col}_low": float(sm["low"].iloc[0]),
                        f"{col}_high": float(sm["high"].iloc[0]), f"{col}_sd": float(sm["sd"].iloc[0])})
        rows.append(row)
    notes.append(f"{name}: {topics} topics, {len(matrix)} items, {len(full)} with at least 2 ratings, {s['items']} of them "
                 f"with RawG > 0 (used), N = {n}, {s['tied_pairs']} RawG-tied pairs within topics. "
                 f"Both kinds of uniform ratings are redrawn {replicates} times.")
    return Contrast(name, rows, full.to_numpy(), int(d_max), n, notes)


def table(contrasts) -> pd.DataFrame:
    """The rows of every :class:`Contrast` as one frame (real values; uniform means, low, high and the
    draws' standard deviation ``*_sd``, NaN for the real rows)."""
    return pd.DataFrame([row for c in contrasts for row in c.rows])
