"""An assessor whose labels are the official qrels is found, said and left out (issue 41, item 1).

The case: tests/data/official_copy/, written by tools/make_official_copy_case.py -- 20 topics x 30
passages; three assessors who judged everything with qrels = one of them, the same with one label
changed, an independent official assessor, and a different trio per topic whose first member is the
topic author (the new user's case).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest

from helpers import paths
from helpers.io import assessors as A
from helpers.io import readers

CASE = paths.ROOT / "tests" / "data" / "official_copy"


def _script():
    spec = importlib.util.spec_from_file_location("make_official_copy_case",
                                                  paths.ROOT / "tools" / "make_official_copy_case.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_case_is_what_the_script_writes():
    made = _script().files()
    assert len(made) == 8
    for rel, text in made.items():
        assert (CASE / rel).read_text(encoding="utf-8") == text, f"{rel}: rerun python tools/make_official_copy_case.py"


@pytest.fixture(scope="module")
def trio():
    return readers.read_ratings(CASE / "trio", layout="qrels", d_max=3)


def _qrels(name):
    return readers.read_graded_qrels(CASE / name, levels=(0, 3))


def test_qrels_that_are_one_assessor_are_found_on_every_topic(trio):
    found = A.find_official_copies(_qrels("qrels_A1.txt"), trio)
    assert found.found
    a = found.assessors.set_index("assessor")
    assert bool(a.loc["A1", "whole"]) and int(a.loc["A1", "copy_topics"]) == 20
    assert (int(a.loc["A1", "identical"]), int(a.loc["A1", "items"])) == (600, 600)
    assert not a.loc[["A2", "A3"], "whole"].any() and (a.loc[["A2", "A3"], "copy_topics"] == 0).all()
    assert found.lines() == ["assessor A1 gives the qrels' labels on every topic they judged: "
                             "600 of 600 shared items identical"]
    assert found.summary() == "assessor A1 gives the qrels' labels on 20 topics (600 of 600 shared items identical)"
    kept = found.exclude(trio)
    assert sorted(kept["assessor"].unique()) == ["A2", "A3"] and len(kept) == 1200
    assert kept.attrs["official_copies"].shape == (20, 2)
    # the others agree with the official labels as different people do
    assert found.others() == "the other assessors give the official label on 56%–59% of their shared items (58% overall)"


def test_a_copy_with_one_label_changed_is_still_a_copy(trio):
    found = A.find_official_copies(_qrels("qrels_A1_one_changed.txt"), trio)
    a = found.assessors.set_index("assessor")
    assert (int(a.loc["A1", "identical"]), bool(a.loc["A1", "whole"])) == (599, True)
    # the topic with the changed label (29 of 30) fails the per-topic rule; the whole-assessor rule marks it
    cell = found.cells.set_index(["assessor", "query_id"]).loc[("A1", "2021")]
    assert (int(cell["identical"]), int(cell["items"]), bool(cell["copy"])) == (29, 30, True)
    assert found.copies()["assessor"].eq("A1").all() and len(found.copies()) == 20


def test_genuinely_different_assessors_are_not_copies(trio):
    found = A.find_official_copies(_qrels("qrels_independent.txt"), trio)
    assert not found.found and found.lines() == [] and found.summary() == ""
    assert found.exclude(trio) is trio
    assert found.assessors["share"].between(0.5, 0.6).all()
    found.stop("ratings_path")   # nothing found: no error


def test_a_different_trio_per_topic_with_the_author_as_qrels(trio):
    ratings = readers.read_ratings(CASE / "by_topic.tsv", layout="long", d_max=3)
    found = A.find_official_copies(_qrels("qrels_by_topic.txt"), ratings)
    copies = found.copies()
    assert len(copies) == 20 and copies["query_id"].is_unique      # one author per topic, each found
    # the author is the first of each topic's trio: P1..P9 in turn (tools/make_official_copy_case.py)
    expected = {f"{2000 + 3 * t}": f"P{t % 9 + 1}" for t in range(20)}
    assert dict(zip(copies["query_id"], copies["assessor"])) == expected
    assert not found.assessors["whole"].any()    # nobody is the author of all their topics
    kept = found.exclude(ratings)
    assert kept.groupby(["query_id", "doc_id"]).size().eq(2).all() and len(kept) == 2 * 600
    assert found.summary().startswith("9 assessors (P1, P2, P3, P4, ...) give the qrels' labels on 20 topics")


def test_stop_names_the_parameter(trio):
    with pytest.raises(ValueError, match=r"^ratings_path: assessor A1 gives qrels_path' labels .* Remove their "
                                         r"ratings from ratings_path"):
        A.without_official_copies(_qrels("qrels_A1.txt"), trio, on_copy="stop")
    kept, found = A.without_official_copies(_qrels("qrels_A1.txt"), trio)
    assert found.found and set(kept["assessor"]) == {"A2", "A3"}


def _frames(official, labels, topic="q1"):
    docs = [f"d{i}" for i in range(len(official))]
    q = pd.DataFrame({"query_id": topic, "doc_id": docs, "relevance": official})
    r = pd.DataFrame({"query_id": topic, "doc_id": docs, "assessor": "X", "rating": labels})
    return q, r


@pytest.mark.parametrize("n, differing, levels, copy", [
    (20, 0, 2, True),      # 20 shared items, all identical
    (19, 0, 2, False),     # too few shared items to say
    (20, 0, 1, False),     # one official label only: identity says nothing
    (20, 1, 2, False),     # 19 of 20 = 95% < 98%
    (50, 1, 2, True),      # 49 of 50 = 98%
    (50, 2, 2, False),     # 48 of 50 = 96%
    (100, 2, 3, True),     # 98 of 100
])
def test_the_rule_at_its_edges(n, differing, levels, copy):
    official = np.arange(n) % levels
    labels = official.copy()
    labels[:differing] = (labels[:differing] + 1) % 4
    found = A.find_official_copies(*_frames(official, labels))
    assert bool(found.cells["copy"].iloc[0]) is copy
    assert int(found.cells["identical"].iloc[0]) == n - differing


def test_ids_compare_as_strings_and_labels_as_numbers():
    q = pd.DataFrame({"query_id": [1] * 20, "doc_id": range(20), "relevance": [0, 1] * 10})
    r = pd.DataFrame({"query_id": ["1"] * 20, "doc_id": [str(i) for i in range(20)], "assessor": "X",
                      "rating": [0.0, 1.0] * 10})
    assert A.find_official_copies(q, r).found


@pytest.mark.parametrize("kwargs, message", [
    ({"min_items": 0}, "min_items must be a positive integer"),
    ({"min_identical": 0}, r"min_identical must lie in \(0, 1\]"),
    ({"min_identical": 1.5}, r"min_identical must lie in \(0, 1\]"),
])
def test_bad_rule(kwargs, message):
    with pytest.raises(ValueError, match=message):
        A.find_official_copies(*_frames([0, 1], [0, 1]), **kwargs)


def test_bad_frames():
    q, r = _frames([0, 1], [0, 1])
    with pytest.raises(ValueError, match=r"ratings is missing column\(s\) \['assessor'\]"):
        A.find_official_copies(q, r.drop(columns="assessor"))
    with pytest.raises(ValueError, match=r"qrels judge item \(q1, d0\) more than once"):
        A.find_official_copies(pd.concat([q, q]), r)
    with pytest.raises(ValueError, match="on_copy must be 'exclude' or 'stop'"):
        A.without_official_copies(q, r, on_copy="keep")
