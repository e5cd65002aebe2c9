"""Property tests (hypothesis) of the file readers and of ``evaluate``: right answer or a clear error.

Well-formed random qrels and run files round-trip to exactly the rows written; malformed ones
(a field dropped or added, a non-integer label, a NUL byte or a byte-order mark inside a line, a
duplicated judgment) raise ``ValueError`` naming the file and the line -- never another exception
type, never a frame with a silently changed row. ``evaluate`` on random inputs returns one finite
value per (run, topic, measure) in [0, 1] for bounded measures, or raises ``ValueError``.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import measures, trec_io

ID = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:", min_size=1,
             max_size=8)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def qrels_rows(draw):
    topics = draw(st.lists(ID, min_size=1, max_size=4, unique=True))
    rows = []
    for t in topics:
        docs = draw(st.lists(ID, min_size=1, max_size=6, unique=True))
        rows += [(t, d, draw(st.integers(-2, 4))) for d in docs]
    return rows


@SETTINGS
@given(rows=qrels_rows(), gz=st.booleans(), sep=st.sampled_from([" ", "\t", "  "]))
def test_wellformed_qrels_round_trip(tmp_path_factory, rows, gz, sep):
    import gzip

    text = "".join(f"{t}{sep}0{sep}{d}{sep}{lv}\n" for t, d, lv in rows)
    path = tmp_path_factory.mktemp("q") / "qrels"
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    df = trec_io.read_qrels(path)
    assert list(df.itertuples(index=False, name=None)) == rows


MUTATIONS = ["drop_field", "add_field", "float_label", "nul", "bom", "duplicate"]


@SETTINGS
@given(rows=qrels_rows(), mutation=st.sampled_from(MUTATIONS), data=st.data())
def test_malformed_qrels_name_file_and_line(tmp_path_factory, rows, mutation, data):
    lines = [f"{t} 0 {d} {lv}" for t, d, lv in rows]
    k = data.draw(st.integers(0, len(lines) - 1))
    fields = lines[k].split(" ")
    if mutation == "drop_field":
        lines[k] = " ".join(fields[:-1])
    elif mutation == "add_field":
        lines[k] = lines[k] + " extra"
    elif mutation == "float_label":
        lines[k] = " ".join(fields[:-1] + [fields[-1] + ".5"])
    elif mutation == "nul":
        lines[k] = " ".join([fields[0], fields[1], fields[2] + "\x00", fields[3]])
    elif mutation == "bom":
        if k == 0:  # a leading BOM is legitimate: put the mark on a later line
            lines.append("\ufeff" + lines[0].replace(fields[2], fields[2] + "x", 1))
            k = len(lines) - 1
        else:
            lines[k] = "\ufeff" + lines[k]
    elif mutation == "duplicate":
        lines.insert(k + 1, lines[k])
        k += 1
    path = tmp_path_factory.mktemp("q") / "bad.qrels"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as err:
        trec_io.read_qrels(path)
    assert re.match(rf"{re.escape(str(path))}:{k + 1}: expected ", str(err.value)), str(err.value)


@st.composite
def eval_case(draw):
    topics = draw(st.lists(st.sampled_from(list("123456")), min_size=1, max_size=4, unique=True))
    docs = [f"d{i}" for i in range(8)]
    q_rows, r_rows = [], []
    for t in topics:
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=8, unique=True))
        levels = draw(st.lists(st.integers(0, 3), min_size=len(judged), max_size=len(judged)))
        q_rows += [(t, d, lv) for d, lv in zip(judged, levels)]
    for run in ("A", "B"):
        for t in draw(st.lists(st.sampled_from(topics), max_size=len(topics), unique=True)):
            retrieved = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=8, unique=True))
            r_rows += [(run, t, d, i + 1) for i, d in enumerate(retrieved)]
    return (pd.DataFrame(q_rows, columns=["query_id", "doc_id", "relevance"]),
            pd.DataFrame(r_rows, columns=["run_id", "query_id", "doc_id", "rank"]))


BOUNDED = ["AP", "Q", "nDCG@5", "MSnDCG@5", "nERR@5", "RR", "P@5", "Hit@3", "iRBU@5"]


@SETTINGS
@given(case=eval_case())
def test_evaluate_is_bounded_or_refuses(case):
    qrels, run = case
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            res = measures.evaluate(qrels, run, BOUNDED, no_relevant="zero")
    except ValueError as exc:  # e.g. an empty run
        assert str(exc)
        return
    assert np.isfinite(res["value"]).all()
    assert ((res["value"] >= -1e-12) & (res["value"] <= 1 + 1e-12)).all()
    n_runs = run["run_id"].nunique()
    assert len(res) == n_runs * qrels["query_id"].nunique() * len(BOUNDED)


@SETTINGS
@given(case=eval_case(), perm=st.randoms(use_true_random=False))
def test_evaluate_ignores_row_order(case, perm):
    qrels, run = case
    if run.empty:
        return
    shuffled = run.sample(frac=1.0, random_state=perm.randint(0, 2 ** 31))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        a = measures.evaluate(qrels, run, BOUNDED, no_relevant="zero")
        b = measures.evaluate(qrels.iloc[::-1], shuffled, BOUNDED, no_relevant="zero")
    key = ["run_id", "query_id", "measure"]
    pd.testing.assert_frame_equal(a.sort_values(key).reset_index(drop=True),
                                  b.sort_values(key).reset_index(drop=True))
