"""Notebook 03's inputs (helpers.prm.inputs): a second assessor is never the first one.

The new user's case (tests/data/official_copy, tools/make_official_copy_case.py): the qrels are one
of the assessors of the ratings, the same with one label changed, an independent fourth person,
and a different trio per topic whose first member wrote the qrels. Runs are made here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import paths, prm
from helpers.prm import inputs

CASE = paths.ROOT / "tests" / "data" / "official_copy"


@pytest.fixture(scope="module")
def runs_path(tmp_path_factory):
    """Two runs over every document of the case, in random orders (TREC run format)."""
    qrels = pd.read_csv(CASE / "qrels_A1.txt", sep=" ", header=None, names=["q", "z", "d", "r"], dtype=str)
    rng = np.random.default_rng(0)
    folder = tmp_path_factory.mktemp("runs")
    for run in ("r1", "r2"):
        lines = []
        for q, g in qrels.groupby("q"):
            docs = g["d"].to_numpy()[rng.permutation(len(g))]
            lines += [f"{q} Q0 {d} {i + 1} {100 - i} {run}\n" for i, d in enumerate(docs)]
        (folder / f"{run}.txt").write_text("".join(lines))
    return str(folder / "*.txt")


def _load(runs_path, qrels, **kw):
    kw.setdefault("ratings_path", str(CASE / "trio" / "*.txt"))
    kw.setdefault("ratings_layout", "qrels")
    if kw.get("second_qrels_path"):
        kw.pop("ratings_path")
    return inputs.load("files", np.random.default_rng(1), depth=20, qrels_path=str(CASE / qrels), runs_glob=runs_path,
                       d_max=3, **kw)


@pytest.mark.parametrize("qrels", ["qrels_A1.txt", "qrels_A1_one_changed.txt"])
def test_the_official_assessor_is_left_out(runs_path, qrels):
    got = _load(runs_path, qrels)
    left = [line for line in got.lines if "left out of the raters" in line]
    assert len(left) == 1 and left[0].startswith("assessor A1 ")
    assert "A1" not in set(got.ratings["assessor"]) and set(got.ratings["assessor"]) == {"A2", "A3"}
    assert set(got.qrels_u2["assessor"]) <= {"A2", "A3"}   # U2 is never U1
    pairs = prm.pairs_from_qrels(got.qrels_u1, got.qrels_u2)
    assert len(pairs) == 600 and (pairs["u1"] == pairs["u2"]).mean() < 0.8  # different people disagree


def test_an_independent_official_keeps_every_rater(runs_path):
    got = _load(runs_path, "qrels_independent.txt")
    assert not any("left out" in line for line in got.lines)
    assert set(got.ratings["assessor"]) == {"A1", "A2", "A3"}
    assert got.copies is not None and not got.copies.found


def test_a_trio_per_topic_loses_its_author_on_each_topic(runs_path):
    got = _load(runs_path, "qrels_by_topic.txt", ratings_path=str(CASE / "by_topic.tsv"), ratings_layout="long")
    copies = got.copies.copies()
    assert copies["query_id"].nunique() == 20                       # the author of every topic
    kept = got.ratings.merge(copies, on=["assessor", "query_id"], how="inner")
    assert kept.empty
    assert (got.ratings.groupby("query_id")["assessor"].nunique() == 2).all()


def test_a_second_qrels_that_is_the_first_stops(runs_path):
    with pytest.raises(ValueError, match="second_qrels_path"):
        _load(runs_path, "qrels_A1.txt", second_qrels_path=str(CASE / "trio" / "A1.txt"))
    got = _load(runs_path, "qrels_A1.txt", second_qrels_path=str(CASE / "trio" / "A2.txt"))
    assert got.ratings is None and len(got.qrels_u2) == 600


def test_the_runs_line_says_the_cut(runs_path):
    """The files hold 30 documents per list; the notebook reads them to max(k, k_table7)."""
    for depth, rows in ((20, "800"), (30, "1,200")):
        got = inputs.load("files", np.random.default_rng(1), depth=depth, qrels_path=str(CASE / "qrels_independent.txt"),
                          ratings_path=str(CASE / "trio" / "*.txt"), ratings_layout="qrels", runs_glob=runs_path,
                          d_max=3)
        line = next(line for line in got.lines if line.startswith("runs"))
        assert line == (f"runs (each list cut at rank {depth}, the deepest cutoff read): {rows} rows, 20 topics, "
                        "2 runs")


def test_coverage_and_shares():
    q1 = pd.DataFrame({"query_id": "q", "doc_id": list("abcdef"), "relevance": [0, 0, 0, 0, 1, 2]})
    pairs = pd.DataFrame({"query_id": "q", "doc_id": list("aef"), "u1": [0, 1, 2], "u2": [0, 1, 1]})
    share, valid = inputs.coverage(q1, pairs, 2)
    assert share.tolist() == [0.25, 1.0, 1.0] and not valid
    _, valid = inputs.coverage(q1.iloc[[0, 4, 5]], pairs, 2)
    assert valid
    s = inputs.level_shares(pairs, ["0", "1", "2"])
    assert s["u1"].round(4).tolist() == [0.3333, 0.3333, 0.3333] and s["u2"].round(4).tolist() == [0.3333, 0.6667, 0.0]
