"""The double judgments of notebook 03: read, checked and summarised (Demeester et al. 2016).

:func:`load` gives the first assessor's qrels (U1), the second's (U2), the raters U2 is drawn
from, the runs cut to the depth the notebook reads, and the lines the notebook prints about them:

* ``simulated``: a FedWeb13-calibrated collection (:func:`helpers.simulate.judgments.double_judgments`);
* ``dl19``: the NIST qrels against the re-annotators of Parry et al. (SIGIR 2025), the 37 runs;
* ``files``: the user's qrels and runs, with U2 as a second qrels or drawn from a ratings file.

A second assessor is never the first one: a rater whose labels are U1's qrels
(:func:`helpers.io.assessors.find_official_copies`) is left out of the raters U2 is drawn from,
and a second qrels that *is* U1's stops the run, naming ``second_qrels_path``. Where the runs'
rank column and trec_eval's score order disagree, one line says so
(:func:`helpers.measures.ordering.order_note`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .core import one_rating_per_item

__all__ = ["Inputs", "load", "level_shares", "coverage", "EQ5_TOLERANCE"]

#: The largest spread of U2's re-judged shares over U1's levels at which Eq. 5 is taken as valid.
EQ5_TOLERANCE = 0.05


@dataclass
class Inputs:
    """What :func:`load` read: ``qrels_u1``, ``qrels_u2``, ``ratings`` (the raters U2 is drawn
    from, or None), ``runs`` (cut at ``depth``), ``level_names`` and the ``lines`` to print."""

    qrels_u1: pd.DataFrame
    qrels_u2: pd.DataFrame
    ratings: pd.DataFrame | None
    runs: pd.DataFrame
    level_names: list[str]
    depth: int
    lines: list[str] = field(default_factory=list)
    copies: object = None

    @property
    def T(self) -> int:
        return len(self.level_names) - 1


def _without_copies(qrels_u1: pd.DataFrame, ratings: pd.DataFrame, lines: list[str],
                    parameter: str = "ratings_path") -> tuple[pd.DataFrame, object]:
    """The raters without any whose labels are U1's qrels, with a line saying who was left out."""
    from ..io import assessors

    kept, found = assessors.without_official_copies(qrels_u1, ratings, on_copy="exclude", parameter=parameter)
    if found.found:
        lines += [f"{line}: left out of the raters U2 is drawn from (a double judgment never pairs an assessor "
                  "with themselves)" for line in found.lines("qrels_path")]
        if found.others():
            lines.append(found.others())
        if kept.empty:
            raise ValueError(f"{parameter}: every rating is a copy of qrels_path's labels, so no second assessor "
                             "is left. Give the ratings of other assessors.")
    elif len(found.cells):
        lines.append("no rater's labels are U1's qrels: " + found.others().replace("the other assessors", "the raters", 1))
    return kept, found


def _second_qrels(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame) -> None:
    """Stop when the second qrels are the first assessor's labels."""
    from ..io import assessors

    as_ratings = qrels_u2.rename(columns={"relevance": "rating"}).assign(assessor="U2")
    assessors.find_official_copies(qrels_u1, as_ratings).stop("second_qrels_path")


def _files(rng, *, qrels_path, second_qrels_path, ratings_path, ratings_layout, d_max):
    """U1, U2, the raters (or None), what was found of copies, and the lines said about them."""
    from ..io import readers

    lines: list[str] = []
    qrels_u1 = readers.read_graded_qrels(qrels_path, levels=(0, d_max), what="qrels_path")
    ratings, copies = None, None
    if second_qrels_path:
        qrels_u2 = readers.read_graded_qrels(second_qrels_path, levels=(0, d_max), what="second_qrels_path")
        readers.check_topics(qrels_u1, "qrels_path", qrels_u2, "second_qrels_path")
        _second_qrels(qrels_u1, qrels_u2)
    else:
        ratings = readers.read_ratings(ratings_path, layout=ratings_layout, d_max=d_max, what="ratings_path")
        readers.check_topics(qrels_u1, "qrels_path", ratings, "ratings_path")
        ratings, copies = _without_copies(qrels_u1, ratings, lines)
        qrels_u2 = one_rating_per_item(ratings, rng)
    return qrels_u1, qrels_u2, ratings, copies, lines


def _runs_line(runs: pd.DataFrame, depth: int, name: str = "runs") -> str:
    """The runs as read, with the cut said on the same line."""
    from ..io import readers

    line = readers.describe(**{name: runs})
    return line.replace(f"{name}: ", f"{name} (each list cut at rank {depth}, the deepest cutoff read): ", 1)


def load(dataset: str, rng: np.random.Generator, *, depth: int, n_topics: int = 50, n_docs: int = 250,
         n_runs: int = 20, qrels_path: str = "", second_qrels_path: str = "", ratings_path: str = "",
         ratings_layout: str = "long", runs_glob: str = "", d_max: int = 3) -> Inputs:
    """The double judgments and runs of ``dataset`` (``"simulated"``, ``"dl19"`` or ``"files"``).

    The runs are cut at ``depth`` (the deepest cutoff the notebook reads: ``max(k, k_table7)``) and
    kept on U1's topics. ``rng`` draws the simulation, or U2's rater per item. Raters whose labels
    are U1's qrels are left out (``lines`` say so); a ``second_qrels_path`` that is U1's stops.
    ``lines`` also describe what was read (files) and, where the runs' rank column and trec_eval's
    score order disagree, say so once.
    """
    from ..measures import ordering

    copies, ratings, lines = None, None, []
    if dataset == "simulated":
        from ..simulate import judgments

        sim = judgments.double_judgments(rng, n_topics=n_topics, n_docs=n_docs, n_runs=n_runs, depth=depth)
        return Inputs(sim.qrels_u1, sim.qrels_u2, None, sim.runs, list(judgments.LEVEL_NAMES), int(depth))
    if dataset == "files":
        from ..io import readers

        q1, q2, ratings, copies, lines = _files(rng, qrels_path=qrels_path, second_qrels_path=second_qrels_path,
                                                ratings_path=ratings_path, ratings_layout=ratings_layout,
                                                d_max=d_max)
        runs = readers.read_runs(runs_glob, depth=depth, what="runs_glob")
        readers.check_topics(q1, "qrels_path", runs, "runs_glob")
        lines.insert(0, readers.describe(qrels=q1, ratings=ratings if ratings is not None else q2))
        lines.insert(1, _runs_line(runs, depth))
        names = [str(i) for i in range(int(d_max) + 1)]
    elif dataset == "dl19":
        from ..data import datasets

        q1 = datasets.load_qrels("dl19-nist")
        ratings, copies = _without_copies(q1, datasets.load_ratings("dl19-main"), lines)
        q2 = one_rating_per_item(ratings, rng)
        runs = datasets.load_runs("dl19", depth=depth)
        lines.insert(0, _runs_line(runs, depth))
        names = ["0", "1", "2", "3"]
    else:
        raise ValueError(f"dataset must be 'simulated', 'dl19' or 'files', got {dataset!r}")
    topics = q1["query_id"].unique()
    note = ordering.order_note(runs, topics=topics, where="notebook")
    if note:
        lines.append(note)
    runs = runs[runs["query_id"].isin(topics)].reset_index(drop=True)
    return Inputs(q1, q2, ratings, runs, names, int(depth), lines, copies)


def level_shares(pairs: pd.DataFrame, level_names) -> pd.DataFrame:
    """The share of each level among the double judgments, for U1 and U2 (a row per level)."""
    T = len(level_names) - 1
    out = pd.DataFrame({who: pairs[who].value_counts(normalize=True).reindex(range(T + 1), fill_value=0.0)
                        for who in ("u1", "u2")})
    return out.assign(level=list(level_names))[["level", "u1", "u2"]]


def coverage(qrels_u1: pd.DataFrame, pairs: pd.DataFrame, T: int) -> tuple[pd.Series, bool]:
    """The share of U1's judgments (on the topics with double judgments) that U2 re-judged, per U1
    level, and whether it is the same for every level (spread under :data:`EQ5_TOLERANCE`): Eq. 5
    is valid only then (Demeester et al. 2016, Sect. 5.2.1)."""
    on = qrels_u1[qrels_u1["query_id"].isin(pairs["query_id"].unique())]
    share = (pairs["u1"].value_counts() / on["relevance"].value_counts()).reindex(range(T + 1))
    return share, bool(np.ptp(share.fillna(0).to_numpy()) < EQ5_TOLERANCE)
