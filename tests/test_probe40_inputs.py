"""Issue 40's fresh adversarial round: each class it found, with an example of its own (cheap: no
subprocess, no notebook). The behaviours are rows of docs/bad-input.md."""

from __future__ import annotations

import re
import warnings

import pandas as pd
import pytest

from helpers import measures
from helpers.io import qrels as qrels_io
from helpers.io import trec as trec_io

QRELS = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "relevance": [2, 0, 1]})
RUN = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "rank": [1, 2, 1],
                    "score": [3.0, 2.0, 1.0]})


@pytest.mark.parametrize("level", ["2.0", "1e3", "+1.", "3_0", "9223372036854775808"])
def test_a_level_written_as_a_float_is_refused_with_its_line(tmp_path, level):
    # pandas' int64 parser alone read 2.0 as 2 and 1e3 as 1000 (trec_eval's atol reads 1)
    p = tmp_path / "q.txt"
    p.write_text(f"q1 0 d1 1\nq1 0 d2 {level}\n")
    with pytest.raises(ValueError, match=rf"q.txt:2: expected .*field 4 is not an integer.*d2 {re.escape(level)}"):
        trec_io.read_qrels(p)
    with pytest.raises(ValueError, match=r"q.txt:2: expected"):
        qrels_io.read_graded_qrels(p)


def test_integer_levels_of_every_spelling_trec_eval_reads_are_kept(tmp_path):
    p = tmp_path / "q.txt"
    p.write_text("q1 0 d1 +2\nq1 0 d2 -1\nq1 0 d3 9223372036854775807\nq1 0 d4 007\n")
    assert trec_io.read_qrels(p)["relevance"].tolist() == [2, -1, 9223372036854775807, 7]


def test_diversity_qrels_level_written_as_a_float_is_refused(tmp_path):
    p = tmp_path / "d.txt"
    p.write_text("q1 1 d1 1\nq1 2 d1 1.0\n")
    with pytest.raises(ValueError, match=r"d.txt:2: expected .*not an integer"):
        trec_io.read_diversity_qrels(p)


@pytest.mark.parametrize("run", [iter([]), [], {}, {"sysA": {}}], ids=["generator", "list", "dict", "nested"])
def test_a_run_without_rows_in_any_shape_is_refused(run):
    # a DataFrame without rows was refused; an exhausted generator or {} scored every topic 0
    with pytest.raises(ValueError, match=r"run has no rows \(a (list_iterator|list|dict)\)"):
        measures.evaluate(QRELS, run, ["AP"])


def test_multiindex_columns_are_refused_not_an_attribute_error():
    q = QRELS.set_axis(pd.MultiIndex.from_tuples([(c, "x") for c in QRELS.columns]), axis=1)
    with pytest.raises(ValueError, match=r"qrels has 2 levels of column names \(a MultiIndex"):
        measures.evaluate(q, RUN, ["AP"])
    r = RUN.set_axis(pd.MultiIndex.from_tuples([(c, "y") for c in RUN.columns]), axis=1)
    with pytest.raises(ValueError, match=r"run has 2 levels of column names"):
        measures.evaluate(QRELS, r, ["AP"])


@pytest.mark.parametrize("depth", [True, False])
def test_depth_given_as_a_boolean_is_refused(depth):
    # True was read as depth 1
    with pytest.raises(ValueError, match=r"depth must be a positive integer, got (True|False)"):
        measures.evaluate(QRELS, RUN, ["AP"], depth=depth)


def test_a_rel_threshold_above_a_topics_levels_is_said_not_left_as_silent_nan():
    with pytest.warns(UserWarning, match=r"P\(rel=2\)@2: 1 of 2 topic\(s\) have no document at level >= 2 "
                                         r"\(e.g. \['2'\]\), so P\(rel=2\)@2 is NaN on them"):
        res = measures.evaluate(QRELS, RUN, ["P(rel=2)@2"], conventions="ntcireval")
    assert res["value"].isna().tolist() == [False, True]
    with warnings.catch_warnings():
        warnings.simplefilter("error")    # trec_eval -l: 0, nothing to say
        res = measures.evaluate(QRELS, RUN, ["P(rel=2)@2"], conventions="ntcireval", no_relevant="zero")
    assert res["value"].tolist() == [0.5, 0.0]
