"""trec_eval's input files: results with trailing fields and comments, qrels, judgment groups,
preference files and z-score files, each bad input named with file and line."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from helpers.io import judgment_groups as J
from helpers.io import readers
from helpers.io import trec_eval_files as T


def write(tmp_path, name, text, gz=False):
    path = tmp_path / name
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


def test_results_trailing_fields_comments_and_last_run_tag(tmp_path):
    path = write(tmp_path, "run", "# header\n1 Q0 d1 1 2.5 A more junk\n\n  # indented comment\n"
                                  "1 Q0 d#2 x 1.5 B\n2 Q0 d1 1 3 C tail\n")
    df = T.read_results(path)
    assert df["doc_id"].tolist() == ["d1", "d#2", "d1"]
    assert df["score"].tolist() == [2.5, 1.5, 3.0]
    assert df.attrs["run_id"] == "C"


def test_results_fast_path_plain_and_gzipped(tmp_path):
    text = "1 Q0 d1 1 2.5 A\n1 Q0 d2 2 1.5 A\n"
    for gz in (False, True):
        df = T.read_results(write(tmp_path, f"run{gz}", text, gz=gz))
        assert df["doc_id"].tolist() == ["d1", "d2"] and df.attrs["run_id"] == "A"


@pytest.mark.parametrize("text, line, what", [
    ("1 Q0 d1 1 2.5 A\n1 Q0 d2 2 1.5\n", 2, "found 5 fields"),
    ("1 Q0 d1 1 2.5 A\n1 Q0 d2 2 abc A\n", 2, "score"),
    ("1 Q0 d1 1 2.5 A\n1 Q0 d2 2 inf A\n", 2, "score"),
    ("1 Q0 d1 1 2.5 A\n\n1 Q0 d1 2 1.5 A\n", 3, "already on line 1"),
])
def test_results_bad_lines_are_named(tmp_path, text, line, what):
    path = write(tmp_path, "run", text)
    with pytest.raises(ValueError, match=rf"run:{line}: expected .*") as err:
        T.read_results(path)
    assert what in str(err.value)


def test_empty_results_file(tmp_path):
    with pytest.raises(ValueError, match="expected"):
        T.read_results(write(tmp_path, "run", "# only a comment\n"))


def test_qrels_with_comments_and_negative_levels(tmp_path):
    df = T.read_trec_eval_qrels(write(tmp_path, "q", "# c\n1 0 d#1 1\n1 0 d2 -1\n"))
    assert df["doc_id"].tolist() == ["d#1", "d2"] and df["relevance"].tolist() == [1, -1]


@pytest.mark.parametrize("text, line, what", [
    ("1 0 d1 1\n1 0 d2 1 extra\n", 2, "found 5 fields"),
    ("1 0 d1 1\n1 0 d2 1.5\n", 2, "not an integer"),
    ("1 0 d1 1\n1 0 d1 0\n", 2, "already on line 1"),
])
def test_qrels_bad_lines(tmp_path, text, line, what):
    with pytest.raises(ValueError, match=rf"q:{line}: expected") as err:
        T.read_trec_eval_qrels(write(tmp_path, "q", text))
    assert what in str(err.value)


def test_zscores(tmp_path):
    z = T.read_zscores(write(tmp_path, "z", "1 map 0.5 0.1\n1 P_5 0.2 0\n"))
    assert z.table == {(b"1", "map"): (0.5, 0.1), (b"1", "P_5"): (0.2, 0.0)} and z.topics == {b"1"}
    with pytest.raises(ValueError, match=r"z:2: expected .*mean"):
        T.read_zscores(write(tmp_path, "z", "1 map 0.5 0.1\n1 P_5 x 0\n"))
    with pytest.raises(ValueError, match=r"z:2: expected each \(query_id, measure\) pair once"):
        T.read_zscores(write(tmp_path, "z", "1 map 0.5 0.1\n1 map 0.2 0\n"))


def test_qrels_jg_and_ratings(tmp_path):
    path = write(tmp_path, "jg", "1 a d1 1\n# c\n1 b d1 0\n1 a d2 -1\n1 b d2 2\n")
    df = J.read_qrels_jg(path)
    assert df["jg"].tolist() == ["a", "b", "a", "b"]
    ratings = J.judgment_group_ratings(df)
    assert ratings[["doc_id", "assessor", "rating"]].values.tolist() == [["d1", "a", 1], ["d1", "b", 0], ["d2", "b", 2]]
    assert ratings.attrs["excluded"] == {"unjudged": 1}
    via_layout = readers.read_ratings(path, layout="qrels_jg")
    assert via_layout[["doc_id", "assessor", "rating"]].values.tolist() == ratings[["doc_id", "assessor", "rating"]].values.tolist()
    assert via_layout.attrs["excluded"] == {"unjudged": 1}
    with pytest.raises(ValueError, match=r"jg:3: expected each document judged once per topic and group"):
        J.read_qrels_jg(write(tmp_path, "jg", "1 a d1 1\n1 b d1 0\n1 a d1 0\n"))


def test_ratings_layout_qrels_jg_checks_d_max_with_the_line(tmp_path):
    path = write(tmp_path, "jg", "# c\n1 a d1 1\n1 b d1 5\n")
    with pytest.raises(ValueError, match=r"jg:3: expected rating 0..3"):
        readers.read_ratings(path, layout="qrels_jg", d_max=3)
    with pytest.raises(ValueError, match="qrels_jg"):
        readers.read_ratings(path, layout="jg")


def test_prefs_and_qrels_prefs(tmp_path):
    df = J.read_prefs(write(tmp_path, "p", "# c\nq1 u1 s1 d1 3.0\nq1 u1 s1 d2 0\n"))
    assert list(df.columns) == list(J.PREFS_COLUMNS) and df["rel_level"].tolist() == [3.0, 0.0]
    with pytest.raises(ValueError, match=r"p:2: expected .*rel_level"):
        J.read_prefs(write(tmp_path, "p", "q1 u1 s1 d1 3\nq1 u1 s1 d2 high\n"))
    with pytest.raises(ValueError, match=r"p:2: expected each document once"):
        J.read_prefs(write(tmp_path, "p", "q1 u1 s1 d1 3\nq1 u1 s1 d1 2\n"))
    with pytest.raises(ValueError, match=r"p:1: expected 5 whitespace-separated fields"):
        J.read_prefs(write(tmp_path, "p", "q1 u1 d1 3\n"))
    qp = J.read_qrels_prefs(write(tmp_path, "qp", "1 0 d1 1\n1 0 d2 0\n"))
    assert qp["jsg"].tolist() == ["0", "0"] and np.array_equal(qp["rel_level"], [1.0, 0.0])
    with pytest.raises(ValueError, match=r"qp:2: expected each document judged once"):
        J.read_qrels_prefs(write(tmp_path, "qp", "1 0 d1 1\n1 0 d1 0\n"))


def test_judgment_groups_pair_as_double_judgments(tmp_path):
    path = write(tmp_path, "jg", "1 a d1 1\n1 b d1 0\n1 a d2 2\n1 b d2 2\n1 c d3 1\n")
    pairs = readers.read_double_judgments(path, ratings_layout="qrels_jg", assessors=("a", "b"))
    assert pairs[["doc_id", "u1", "u2"]].values.tolist() == [["d1", 1, 0], ["d2", 2, 2]]


# --- the evaluated-topics reader (helpers.io.fields.select_lines) against the full split ----------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_FIELD = st.text(alphabet="ab01#\u00a0\x1c.", min_size=1, max_size=4).map(lambda s: s.encode())
_SEP = st.sampled_from([b" ", b"\t", b"  ", b"\x0b", b"\x0c \t"])


@st.composite
def _results_bytes(draw):
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        fields = draw(st.lists(_FIELD, min_size=5, max_size=8))
        lead = draw(st.sampled_from([b"", b"", b"", b" "]))
        line = lead + b"".join(f + draw(_SEP) for f in fields[:-1]) + fields[-1] + draw(st.sampled_from([b"", b" "]))
        lines.append(line if draw(st.integers(0, 9)) else draw(st.sampled_from([b"", b"# c", b"  #x"])))
    end = draw(st.sampled_from([b"\n", b"\r\n"]))
    return end.join(lines) + draw(st.sampled_from([end, b""]))


@settings(max_examples=300, deadline=None)
@given(data=_results_bytes(), pick=st.lists(_FIELD, max_size=3), vectorised=st.booleans())
def test_reading_only_the_evaluated_topics_reads_what_the_full_split_reads(tmp_path_factory, data, pick, vectorised):
    """The same lines, fields, line numbers, run tag and errors as splitting every line (the
    plain-Python selection and the numpy one)."""
    path = tmp_path_factory.mktemp("sel") / "run"
    try:
        full = T.results_file(path, data)
    except ValueError as exc:
        with pytest.raises(ValueError) as again:
            T.results_file(path, data, pick, vectorised=vectorised)
        assert str(again.value) == str(exc)
        return
    wanted = set(pick) | ({full.query[0]} if full.query else set())
    part = T.results_file(path, data, sorted(wanted), vectorised=vectorised)   # those lines (or all: general path)
    rows = [i for i, q in enumerate(full.query) if q in wanted]
    mine = [i for i, q in enumerate(part.query) if q in wanted]
    assert [part.query[i] for i in mine] == [full.query[i] for i in rows]
    assert [part.doc[i] for i in mine] == [full.doc[i] for i in rows]
    assert [part.score_text[i] for i in mine] == [full.score_text[i] for i in rows]
    assert [int(part.lines.numbers[i]) for i in mine] == [int(full.lines.numbers[i]) for i in rows]
    assert part.run_id == full.run_id and part.run_topics() == set(full.query)


_TOPIC = st.sampled_from([b"1", b"2", b"10", b"q\xc2\xa0", b"ab", b"x" * 70, b"#", b"a#"])


@st.composite
def _common_results(draw):
    """Mostly the common file (single blanks, >= 6 fields), topics in runs of lines or interleaved,
    now and then a line that sends the selection to the general path."""
    sep = draw(st.sampled_from([b" ", b"\t", b"\x0b"]))
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        topic = draw(_TOPIC)
        for _ in range(draw(st.integers(1, 4))):
            n = draw(st.sampled_from([6, 6, 6, 7, 5]))
            fields = [topic] + [draw(_FIELD) for _ in range(n - 1)]
            lines.append(sep.join(fields) + draw(st.sampled_from([b"", b"", b"", sep])))
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b"", b"\n\n"]))


@settings(max_examples=300, deadline=None)
@given(data=_common_results(), pick=st.lists(_TOPIC, max_size=3))
def test_the_numpy_selection_is_the_plain_one(data, pick):
    """select_lines_vectorised takes the same files as select_lines (None for the others) and
    returns the same lines, fields, line numbers, topics and tag; the same message for a bad file."""
    from helpers.io import fields as F

    args = (data, "run", 6, T.RESULTS_FORMAT, sorted(set(pick)), [0, 2, 4])
    try:
        plain = F.select_lines(*args)
    except ValueError as exc:
        with pytest.raises(ValueError) as again:
            F.select_lines_vectorised(*args)
        assert str(again.value) == str(exc)
        return
    vec = F.select_lines_vectorised(*args)
    assert (plain is None) == (vec is None)
    if plain is not None:
        assert vec[0].fields == plain[0].fields and list(vec[0].numbers) == list(plain[0].numbers)
        assert vec[1:] == plain[1:]
