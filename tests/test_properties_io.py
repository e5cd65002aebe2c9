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

from helpers import measures
from helpers.io import trec as trec_io

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


# --------------------------------------------------------------------------------------------
# helpers.io.readers: per-assessor ratings (long layout) and SERP-pair preferences
# --------------------------------------------------------------------------------------------

@st.composite
def ratings_rows(draw):
    items = draw(st.lists(st.tuples(ID, ID), min_size=1, max_size=6, unique=True))
    assessors = draw(st.lists(ID, min_size=1, max_size=3, unique=True))
    rows = [(q, d, a, draw(st.integers(0, 3))) for q, d in items for a in assessors]
    return rows, assessors


@SETTINGS
@given(data=ratings_rows(), sep=st.sampled_from([",", "\t"]))
def test_wellformed_ratings_round_trip(tmp_path_factory, data, sep):
    from helpers.io import readers

    rows, _ = data
    text = sep.join(["query_id", "doc_id", "assessor", "rating"]) + "\n"
    text += "".join(sep.join(map(str, r)) + "\n" for r in rows)
    path = tmp_path_factory.mktemp("r") / "ratings.csv"
    path.write_text(text)
    df = readers.read_ratings(path, d_max=3)
    assert sorted(df.itertuples(index=False, name=None)) == sorted(rows)


@SETTINGS
@given(data=ratings_rows(), mutation=st.sampled_from(["drop_field", "add_field", "out_of_range", "word",
                                                      "duplicate", "nul"]), pick=st.data())
def test_malformed_ratings_name_file_and_line(tmp_path_factory, data, mutation, pick):
    from helpers.io import readers

    rows, _ = data
    lines = [",".join(map(str, r)) for r in rows]
    k = pick.draw(st.integers(0, len(lines) - 1))
    fields = lines[k].split(",")
    if mutation == "drop_field":
        lines[k] = ",".join(fields[:-1])
    elif mutation == "add_field":
        lines[k] += ",x"
    elif mutation == "out_of_range":
        lines[k] = ",".join(fields[:-1] + ["4"])
    elif mutation == "word":
        lines[k] = ",".join(fields[:-1] + ["high"])
    elif mutation == "duplicate":
        lines.insert(k + 1, lines[k])
    else:
        lines[k] = lines[k][:1] + "\x00" + lines[k][1:]
    path = tmp_path_factory.mktemp("r") / "ratings.csv"
    path.write_text("query_id,doc_id,assessor,rating\n" + "\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"ratings.csv:\d+: expected"):
        readers.read_ratings(path, d_max=3)


@SETTINGS
@given(n_pairs=st.integers(1, 4), assessors=st.lists(ID, min_size=1, max_size=3, unique=True),
       labels=st.lists(st.sampled_from(["LEFT", "RIGHT", "EQUAL", "left", "0", "1", "2"]), min_size=12, max_size=12),
       bad=st.sampled_from([None, "MAYBE", "3", ""]), pick=st.data())
def test_preferences_right_labels_or_file_line_error(tmp_path_factory, n_pairs, assessors, labels, bad, pick):
    from helpers.io import readers

    codes = {"0": "LEFT", "1": "RIGHT", "2": "EQUAL"}
    rows = [(f"p{i}", f"q{i}", "r1", "r2", a) for i in range(n_pairs) for a in assessors]
    chosen = labels[:len(rows)] + labels[:max(0, len(rows) - len(labels))]
    lines = [f"{p}\t{q}\t{rl}\t{rr}\t{a}\t{lab}" for (p, q, rl, rr, a), lab in zip(rows, chosen)]
    if bad is not None:
        k = pick.draw(st.integers(0, len(lines) - 1))
        lines[k] = lines[k].rsplit("\t", 1)[0] + "\t" + bad
    path = tmp_path_factory.mktemp("p") / "prefs.tsv"
    path.write_text("pair_id\tquery_id\trun_left\trun_right\tassessor\tlabel\n" + "\n".join(lines) + "\n")
    if bad is None:
        df = readers.read_preferences(path)
        want = [codes.get(lab, lab.upper()) for lab in chosen]
        assert sorted(zip(df["pair_id"], df["assessor"], df["label"])) == sorted(
            (p, a, w) for (p, _, _, _, a), w in zip(rows, want))
    else:
        with pytest.raises(ValueError, match=r"prefs.tsv:\d+: expected"):
            readers.read_preferences(path)
