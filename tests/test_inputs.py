"""Input shapes of other IR tools give the same results as the DataFrame path (issue 19)."""

from __future__ import annotations

from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.io import coerce as inputs, trec as trec_io

MEASURES = ["AP", "AP(rel=2)", "RR", "P@5", "R@10", "MSnDCG@10", "nDCG@10", "Q", "nERR@10", "RBP"]
TrecQrel = namedtuple("TrecQrel", ["query_id", "doc_id", "relevance", "iteration"])  # ir_datasets' shape
GenericScoredDoc = namedtuple("GenericScoredDoc", ["query_id", "doc_id", "score"])


@pytest.fixture(scope="module")
def collection():
    """Seeded qrels (10 topics, levels 0-3) and three runs with score ties, as DataFrames."""
    rng = np.random.default_rng(19)
    docs = [f"D{i}" for i in range(60)]
    q_rows, r_rows = [], []
    for t in range(1, 11):
        judged = rng.choice(docs, size=25, replace=False)
        q_rows += [(str(t), d, int(rng.integers(0, 4))) for d in judged]
        for run in ("r1", "r2", "r3"):
            ret = rng.choice(docs, size=30, replace=False)
            scores = np.round(rng.normal(size=30), 1)  # rounding makes ties
            r_rows += [(run, str(t), d, float(s)) for d, s in zip(ret, scores)]
    qrels = pd.DataFrame(q_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(r_rows, columns=["run_id", "query_id", "doc_id", "score"])
    return qrels, run


def _dicts(qrels, run):
    qd, rd = {}, {}
    for q, d, r in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = r
    for rid, q, d, s in run.itertuples(index=False):
        rd.setdefault(rid, {}).setdefault(q, {})[d] = s
    return qd, rd


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def test_dicts_equal_dataframes(collection):
    qrels, run = collection
    ref = M.evaluate(qrels, run, MEASURES)
    qd, rd = _dicts(qrels, run)
    _same(M.evaluate(qd, rd, MEASURES), ref)  # {run_id: {qid: {docid: score}}}
    one = run[run["run_id"] == "r2"].drop(columns="run_id")
    _same(M.evaluate(qd, rd["r2"], MEASURES), M.evaluate(qrels, one, MEASURES))  # {qid: {docid: score}}


def test_namedtuples_equal_dataframes(collection):
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = collection
    one = run[run["run_id"] == "r1"].drop(columns="run_id")
    ref = M.evaluate(qrels, one, MEASURES)
    qt = [ir_measures.Qrel(q, d, r) for q, d, r in qrels.itertuples(index=False)]
    st = [ir_measures.ScoredDoc(q, d, s) for q, d, s in one.itertuples(index=False)]
    _same(M.evaluate(qt, st, MEASURES), ref)
    _same(M.evaluate(iter(qt), (x for x in st), MEASURES), ref)  # one-shot iterables
    ids_q = [TrecQrel(q, d, r, "0") for q, d, r in qrels.itertuples(index=False)]
    ids_r = [GenericScoredDoc(q, d, s) for q, d, s in one.itertuples(index=False)]
    _same(M.evaluate(ids_q, ids_r, MEASURES), ref)


def test_paths_and_ir_measures_readers_equal_dataframes(collection, tmp_path):
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = collection
    one = run[run["run_id"] == "r3"]
    qp, rp = tmp_path / "q.txt", tmp_path / "r.txt"
    qp.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, r in qrels.itertuples(index=False)))
    ranked = one.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    ranked = ranked.assign(rank=ranked.groupby("query_id").cumcount() + 1)
    rp.write_text("".join(f"{q} Q0 {d} {k} {s!r} r3\n" for q, d, k, s in
                          ranked[["query_id", "doc_id", "rank", "score"]].itertuples(index=False)))
    frames = (trec_io.read_qrels(qp), trec_io.read_run(rp))
    ref = M.evaluate(*frames, MEASURES)
    _same(M.evaluate(str(qp), str(rp), MEASURES), ref)
    _same(M.evaluate(Path(qp), Path(rp), MEASURES), ref)
    # ir_measures' readers give namedtuples without ranks: same as the frame ordered by score
    # (ScoredDoc has no run tag: the run is called "run")
    ref_score = M.evaluate(*frames, MEASURES, order_by="score").drop(columns="run_id")
    got = M.evaluate(ir_measures.read_trec_qrels(str(qp)), ir_measures.read_trec_run(str(rp)), MEASURES)
    assert set(got["run_id"]) == {"run"}
    _same(got.drop(columns="run_id"), ref_score)


def test_conversion_shapes():
    q = inputs.as_qrels({1: {"a": 2, "b": 0}})
    assert list(q.columns) == ["query_id", "doc_id", "relevance"] and q["relevance"].dtype == np.int64
    r = inputs.as_run({"x": {"1": {"a": 1.5}}, "y": {"1": {"b": 2}}})
    assert list(r.columns) == ["run_id", "query_id", "doc_id", "score"] and list(r["run_id"]) == ["x", "y"]
    frame = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    assert inputs.as_qrels(frame) is frame


@pytest.mark.parametrize("qrels,run,message", [
    ({"1": {"a": 1.5}}, {"1": {"a": 1.0}}, r"qrels\['1'\]\['a'\] = 1.5: relevance levels must be integers"),
    ({"1": {"a": True}}, {"1": {"a": 1.0}}, "relevance levels must be integers"),
    ({"1": [("a", 1)]}, {"1": {"a": 1.0}}, r"qrels\['1'\] must be a \{docid: level\} dict"),
    ({"1": {"a": 1}}, {"1": {"a": "high"}}, r"run\['1'\]\['a'\] = 'high': scores must be real numbers"),
    ({"1": {"a": 1}}, {"r": {"1": {"a": 1.0}}, "1": {"a": 1.0}}, "run dict mixes shapes"),
    ([("1", "a", 1)], {"1": {"a": 1.0}}, "expected namedtuples with fields query_id, doc_id, relevance"),
    ({"1": {"a": 1}}, [GenericScoredDoc("1", "a", None)], "scores must be real numbers"),
    ({"1": {"a": 1}}, [TrecQrel("1", "a", 1, "0")], "fields query_id, doc_id, score"),
    ({1.0: {"a": 1}}, {1.0: {"a": 1.0}}, "identifiers are compared as exact strings"),
    ({"1": {"a": 1}}, 42, "run must be a DataFrame"),
    ("no/such/qrels", {"1": {"a": 1.0}}, "is no such file"),
    ({}, {"1": {"a": 1.0}}, "qrels is empty"),
    ([TrecQrel("1", "a", 1, "0"), TrecQrel("1", "a", 2, "0")], {"1": {"a": 1.0}}, "judge document 'a' twice"),
])
def test_bad_shapes(qrels, run, message):
    with pytest.raises(ValueError, match=message):
        M.evaluate(qrels, run, ["AP"])
