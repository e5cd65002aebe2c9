"""Beside the field's tools (issue 41, item 6): identifiers read the same under pandas 2.2 and 3.x,
the frames of the readers go into ranx and ir_measures as they are (ranx under pandas 3 needs object
columns, as for any pandas-3 frame), and the numbers agree under the trec_eval convention.

Runs in every environment; the ranx part where ranx is installed. tests/test_packaging.py runs this
file in fresh venvs with `pip install . ranx ir_measures` and pandas 2.2 (and, with
SUBJEVAL_SLOW_TESTS=1, pandas 3.x).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers import paths
from helpers.io import trec

CASE = paths.ROOT / "tests" / "data" / "rank_order"
PANDAS_3 = int(pd.__version__.split(".")[0]) >= 3


def _case(tmp_path):
    """The rank-order case's qrels and one run with distinct scores (no tie for tools to break
    their own way), written as TREC files."""
    run = trec.read_run(CASE / "runs" / "ties-descending.txt")
    run["score"] = run["score"] - run["rank"] * 1e-4   # same order, no tie
    path = tmp_path / "run.txt"
    path.write_text("".join(f"{q} Q0 {d} {k} {s:.6f} {r}\n" for q, d, k, s, r in
                            zip(run["query_id"], run["doc_id"], run["rank"], run["score"], run["run_id"])))
    return trec.read_qrels(CASE / "qrels.txt"), trec.read_run(path), CASE / "qrels.txt", path


def test_ids_read_the_same_whatever_the_pandas(tmp_path):
    """'01', '1', '1.0' and 'A1' stay four topics, as strings, under pandas 2.2 (object columns)
    and 3.x (str columns) alike; the evaluation keeps them apart."""
    q = tmp_path / "q"
    q.write_text("01 0 d1 1\n1 0 d1 2\n1.0 0 d1 0\nA1 0 007 1\n")
    r = tmp_path / "r"
    r.write_text("01 Q0 d1 1 1.0 s\n1 Q0 d1 1 1.0 s\n1.0 Q0 d1 1 1.0 s\nA1 Q0 007 1 1.0 s\n")
    qrels, run = trec.read_qrels(q), trec.read_run(r)
    assert qrels["query_id"].tolist() == ["01", "1", "1.0", "A1"] and qrels["doc_id"].tolist()[-1] == "007"
    assert all(type(x) is str for col in ("query_id", "doc_id") for x in qrels[col])
    assert pd.api.types.is_string_dtype(qrels["query_id"].dtype) and pd.api.types.is_string_dtype(run["doc_id"].dtype)
    res = M.evaluate(qrels, run, ["P@1"], conventions="trec_eval", no_relevant="nan")
    assert res["query_id"].tolist() == ["01", "1", "1.0", "A1"]
    np.testing.assert_array_equal(res["value"].to_numpy(), [1.0, 1.0, np.nan, 1.0])   # '1.0' has no relevant document


def test_ir_measures_gives_the_same_numbers_on_the_readers_frames(tmp_path):
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run, qpath, rpath = _case(tmp_path)
    ours = M.aggregate(M.evaluate(qrels, run, ["AP", "nDCG@10", "RR", "P@10"], conventions="trec_eval"))
    ours = dict(zip(ours["measure"], ours["value"]))
    theirs = ir_measures.calc_aggregate([ir_measures.AP, ir_measures.nDCG @ 10, ir_measures.RR, ir_measures.P @ 10],
                                        ir_measures.read_trec_qrels(str(qpath)), ir_measures.read_trec_run(str(rpath)))
    theirs = {str(k): v for k, v in theirs.items()}
    for name in ours:
        assert ours[name] == pytest.approx(theirs[name], abs=1e-12), name


def test_ranx_takes_the_readers_frames_and_agrees(tmp_path):
    ranx = pytest.importorskip("ranx")
    qrels, run, _, _ = _case(tmp_path)
    if PANDAS_3:
        # ranx 0.3 asserts object id columns; pandas 3 reads text as str (any frame, not only ours)
        with pytest.raises(AssertionError, match="dtype must be `object`"):
            ranx.Qrels.from_df(qrels, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance")
        qrels = qrels.astype({"query_id": object, "doc_id": object})
        run = run.astype({"query_id": object, "doc_id": object})
    Q = ranx.Qrels.from_df(qrels, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance")
    R = ranx.Run.from_df(run, q_id_col="query_id", doc_id_col="doc_id", score_col="score")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # numba's type-safety notes inside ranx
        theirs = ranx.evaluate(Q, R, ["map", "ndcg@10"])   # two metrics: numba compiles each one
    ours = M.aggregate(M.evaluate(qrels, run, ["AP", "nDCG@10"], conventions="trec_eval"))
    ours = dict(zip(ours["measure"], ours["value"]))
    for mine, theirs_name in (("AP", "map"), ("nDCG@10", "ndcg@10")):
        assert ours[mine] == pytest.approx(float(theirs[theirs_name]), abs=1e-9), (mine, ours[mine], theirs[theirs_name])
    assert np.isfinite(list(ours.values())).all()
