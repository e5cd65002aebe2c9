"""Tests of helpers.io.readers: the readers for your own data, their tidy frames and file:line errors."""

from __future__ import annotations

import gzip
import re

import pandas as pd
import pytest

from helpers.io import readers, trec as trec_io


def write(directory, name, text, *, gz=False):
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def at(path, line):
    """Regex for the standard message of a malformed line: '<file>:<line>: expected'."""
    return re.escape(f"{path}:{line}: expected")


def frame(columns, rows, ints=(), floats=()):
    df = pd.DataFrame(rows, columns=columns)
    return df.astype({c: "int64" if c in ints else "float64" if c in floats else "str"
                      for c in columns})


def assert_frame(actual, expected):
    pd.testing.assert_frame_equal(actual.reset_index(drop=True), expected)


# ------------------------------------------------------------------------------- resolve_paths

def test_resolve_paths_file_folder_glob_and_relative(tmp_path, monkeypatch):
    a = write(tmp_path, "d/a.txt", "x")
    b = write(tmp_path, "d/b.txt", "x")
    write(tmp_path, "d/.hidden", "x")
    (tmp_path / "d" / "sub").mkdir()
    assert readers.resolve_paths(a, what="p") == [a]
    assert readers.resolve_paths(tmp_path / "d", what="p") == [a, b]
    assert readers.resolve_paths(str(tmp_path / "d" / "*.txt"), what="p") == [a, b]
    monkeypatch.chdir(tmp_path)
    assert readers.resolve_paths("d/b.txt", what="p")[0].resolve() == b
    assert [p.name for p in readers.resolve_paths("d/*", what="p")] == ["a.txt", "b.txt"]


@pytest.mark.parametrize("pattern", ["missing.txt", "*.nothing", "empty"])
def test_resolve_paths_nothing_names_parameter_and_pattern(tmp_path, pattern):
    (tmp_path / "empty").mkdir()
    full = str(tmp_path / pattern)
    with pytest.raises(ValueError, match=re.escape(f"runs_glob: no file matches {full!r}")):
        readers.resolve_paths(full, what="runs_glob")


# ------------------------------------------------------------------------------- graded qrels

QRELS_COLS = ["query_id", "doc_id", "relevance"]


def test_graded_qrels_trec_equals_trec_io(tmp_path):
    path = write(tmp_path, "q.txt", "01 0 d1 2\n01 0 d2 0\n\n1 Q0 d1 -2\n")
    df = readers.read_graded_qrels(path)
    pd.testing.assert_frame_equal(df, trec_io.read_qrels(path))
    assert_frame(df, frame(QRELS_COLS, [("01", "d1", 2), ("01", "d2", 0), ("1", "d1", -2)],
                           ints=["relevance"]))
    assert df.attrs["files"] == [str(path)]


def test_graded_qrels_ntcireval_three_fields(tmp_path):
    path = write(tmp_path, "q.rel", "0001 d1 L2\n0001 d2 L0\n0002 d1 1\n")
    assert_frame(readers.read_graded_qrels(path, levels=(0, 2)),
                 frame(QRELS_COLS, [("0001", "d1", 2), ("0001", "d2", 0), ("0002", "d1", 1)],
                       ints=["relevance"]))


def test_graded_qrels_ntcireval_per_topic_folder_and_gzip(tmp_path):
    write(tmp_path, "rel/0001.rel", "d1 L1\nd2 L0\n")
    write(tmp_path, "rel/0002.rel.gz", "d9 L3\n", gz=True)
    df = readers.read_graded_qrels(tmp_path / "rel")
    assert_frame(df, frame(QRELS_COLS, [("0001", "d1", 1), ("0001", "d2", 0), ("0002", "d9", 3)],
                           ints=["relevance"]))
    assert_frame(readers.read_graded_qrels(str(tmp_path / "rel" / "*.rel*")), df)


@pytest.mark.parametrize("stray", ["t1.rel.bak", "t2.txt", "t1"])
def test_a_stray_file_in_a_per_topic_folder_is_refused_by_name(tmp_path, stray):
    """The topic of a per-topic file is its name without the extension: a backup copy would become
    a topic of its own (scored 0 by every run), another extension would merge into a topic."""
    write(tmp_path / "rel", "t1.rel", "d1 L2\nd2 L0\n")
    write(tmp_path / "rel", "t2.rel", "d3 L1\n")
    bad = write(tmp_path / "rel", stray, "d9 L1\n")
    with pytest.raises(ValueError, match=re.escape(f"{bad}: expected a per-topic qrels file named <topic>.rel like the "
                                                   "other 2")):
        readers.read_graded_qrels(tmp_path / "rel")
    assert set(readers.read_graded_qrels(str(tmp_path / "rel" / "*.rel"))["query_id"]) == {"t1", "t2"}


def test_graded_qrels_glob_concatenates_files(tmp_path):
    write(tmp_path, "a.txt", "1 0 d1 1\n")
    write(tmp_path, "b.txt", "2 d1 L2\n")
    assert_frame(readers.read_graded_qrels(str(tmp_path / "*.txt")),
                 frame(QRELS_COLS, [("1", "d1", 1), ("2", "d1", 2)], ints=["relevance"]))


def test_graded_qrels_level_outside_range(tmp_path):
    path = write(tmp_path, "x.rel", "1 d1 L1\n1 d2 L2\n1 d3 L9\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" relevance level 0\.\.3, got '1 d3 L9'"):
        readers.read_graded_qrels(path, levels=(0, 3))


def test_graded_qrels_unknown_label(tmp_path):
    path = write(tmp_path, "x.rel", "1 d1 L1\n\n1 d3 Lx\n")
    with pytest.raises(ValueError, match=at(path, 3) + ".*L<n>"):
        readers.read_graded_qrels(path)


def test_graded_qrels_wrong_field_count(tmp_path):
    path = write(tmp_path, "x.txt", "1 d1\nd2 L1 extra x y\n")
    with pytest.raises(ValueError, match=at(path, 2)):
        readers.read_graded_qrels(path)
    odd = write(tmp_path, "y.txt", "a b c d e\n")
    with pytest.raises(ValueError, match=at(odd, 1) + " a qrels line with 4 fields"):
        readers.read_graded_qrels(odd)


def test_graded_qrels_mixed_formats(tmp_path):
    path = write(tmp_path, "x.txt", "1 0 d1 1\n1 0 d2 0\n1 d3 L1\n")
    with pytest.raises(ValueError, match=at(path, 3) + r".*TREC qrels, is taken from its line 1; "
                                                       "formats cannot be mixed"):
        readers.read_graded_qrels(path)
    path = write(tmp_path, "y.txt", "1 d1 L1\n1 0 d2 1\n")
    with pytest.raises(ValueError, match=at(path, 2) + r" 3 whitespace-separated.*cannot be mixed"):
        readers.read_graded_qrels(path)


def test_graded_qrels_duplicate_within_and_across_files(tmp_path):
    path = write(tmp_path, "x.txt", "1 d1 L1\n1 d2 L0\n1 d1 L2\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" each \(query_id, doc_id\) pair judged once"):
        readers.read_graded_qrels(path)
    write(tmp_path, "g/a.txt", "1 0 d1 1\n")
    b = write(tmp_path, "g/b.txt", "\n1 0 d1 1\n")
    with pytest.raises(ValueError, match=at(b, 2) + r".*already on .*a\.txt:1"):
        readers.read_graded_qrels(tmp_path / "g")


def test_graded_qrels_empty_file_named(tmp_path):
    path = write(tmp_path, "x.txt", "\n \n")
    with pytest.raises(ValueError, match=re.escape(f"{path}: expected") + ".*empty file"):
        readers.read_graded_qrels(path)


# ------------------------------------------------------------------------------- ratings

RATING_COLS = ["query_id", "doc_id", "assessor", "rating"]


def test_ratings_long_any_column_order_tab_and_comma(tmp_path):
    tsv = write(tmp_path, "r.tsv", "assessor\tdoc_id\tquery_id\trating\nb\td1\t1\t2\na\td1\t1\t0\n"
                                   "a\td0\t01\t1\n")
    df = readers.read_ratings(tsv, d_max=2)
    assert_frame(df, frame(RATING_COLS, [("01", "d0", "a", 1), ("1", "d1", "a", 0),
                                         ("1", "d1", "b", 2)], ints=["rating"]))
    assert df.attrs == {"levels": (0, 2), "files": [str(tsv)], "excluded": {}, "what": "ratings_path"}
    csv = write(tmp_path, "r.csv", "query_id,doc_id,assessor,rating\n1,d1,b,2\n1,d1,a,0\n01,d0,a,1\n")
    other = readers.read_ratings(csv)
    assert_frame(other, df)
    assert other.attrs["levels"] == (0, 2)


def test_spaces_after_separators_are_not_part_of_ids(tmp_path):
    """A CSV written "a, b, c": the values lose the spaces the header loses (one item, one assessor)."""
    long = write(tmp_path, "long.csv", "query_id, doc_id, assessor, rating\n1, d1, A1, 2\n1,d1,A2,0\n 1 , d2 , A1 , 1\n")
    df = readers.read_ratings(long, d_max=2)
    assert sorted(set(df.doc_id)) == ["d1", "d2"] and sorted(set(df.assessor)) == ["A1", "A2"]
    assert set(df.query_id) == {"1"} and len(df) == 3
    wide = write(tmp_path, "wide.csv", "query_id, doc_id, A1, A2\n1, d1, 2, 0\n1,d2 ,1, NA\n")
    w = readers.read_ratings(wide, layout="wide", d_max=2)
    assert sorted(set(w.doc_id)) == ["d1", "d2"] and sorted(set(w.assessor)) == ["A1", "A2"]
    with pytest.raises(ValueError, match=at(long.with_name("blank.csv"), 2)):   # a field of spaces is empty
        readers.read_ratings(write(tmp_path, "blank.csv", "query_id,doc_id,assessor,rating\n1,  ,A1,2\n"))


def test_ratings_long_extra_or_missing_columns(tmp_path):
    path = write(tmp_path, "r.tsv", "query_id\tdoc_id\tassessor\trating\tcomment\n1\td1\ta\t1\tok\n")
    with pytest.raises(ValueError, match=at(path, 1) + ".*unknown column.*comment"):
        readers.read_ratings(path)
    path = write(tmp_path, "s.tsv", "query_id\tdoc_id\trating\n1\td1\t1\n")
    with pytest.raises(ValueError, match=at(path, 1) + ".*missing column.*assessor"):
        readers.read_ratings(path)


def test_ratings_long_wrong_field_count(tmp_path):
    path = write(tmp_path, "x.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t1\n1\td2\ta\n")
    with pytest.raises(ValueError, match=at(path, 3)):
        readers.read_ratings(path)


def test_ratings_long_non_integer_rating(tmp_path):
    path = write(tmp_path, "x.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t1\n1\td2\ta\tx\n")
    with pytest.raises(ValueError, match=at(path, 3)):
        readers.read_ratings(path)


def test_ratings_outside_d_max_and_negative(tmp_path):
    path = write(tmp_path, "x.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t1\n1\td2\ta\t3\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" rating 0\.\.2, got '1\\td2\\ta\\t3'"):
        readers.read_ratings(path, d_max=2)
    neg = write(tmp_path, "n.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t-1\n")
    with pytest.raises(ValueError, match=at(neg, 2) + " a rating >= 0"):
        readers.read_ratings(neg)


def test_ratings_duplicate_judgment(tmp_path):
    path = write(tmp_path, "x.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t1\n1\td1\tb\t1\n"
                                    "1\td1\ta\t0\n")
    with pytest.raises(ValueError, match=at(path, 4) + r" each \(query_id, doc_id, assessor\) rated once"):
        readers.read_ratings(path)


def test_ratings_wide_without_header_is_stc_layout(tmp_path):
    path = write(tmp_path, "stc.txt", "p1\tr1\t0\t1\tNA\np1\tr2\t2\t\t2\n", gz=True)
    df = readers.read_ratings(path, layout="wide", d_max=2)
    assert_frame(df, frame(RATING_COLS, [("p1", "r1", "C1", 0), ("p1", "r1", "C2", 1),
                                         ("p1", "r2", "C1", 2), ("p1", "r2", "C3", 2)], ints=["rating"]))
    assert df.attrs["excluded"] == {"missing_labels": 2}
    assert df.attrs["levels"] == (0, 2)


def test_ratings_wide_with_header_names_assessors(tmp_path):
    path = write(tmp_path, "w.csv", "query_id,doc_id,zoe,al\n1,d1,3,NA\n1,d0,,1\n")
    df = readers.read_ratings(path, layout="wide")
    assert_frame(df, frame(RATING_COLS, [("1", "d0", "al", 1), ("1", "d1", "zoe", 3)], ints=["rating"]))
    assert df.attrs["levels"] == (0, 3)


def test_ratings_wide_bad_label_and_field_count(tmp_path):
    path = write(tmp_path, "x.tsv", "query_id\tdoc_id\ta\tb\n1\td1\t1\t0\n1\td2\tx\t1\n")
    with pytest.raises(ValueError, match=at(path, 3) + ".*assessor a, got 'x'"):
        readers.read_ratings(path, layout="wide")
    path = write(tmp_path, "y.tsv", "1\td1\t1\t0\n1\td2\t1\n")
    with pytest.raises(ValueError, match=at(path, 2) + " 4 tab-separated fields.*found 3 fields"):
        readers.read_ratings(path, layout="wide")


def test_ratings_wide_outside_d_max_and_duplicate(tmp_path):
    path = write(tmp_path, "x.tsv", "1\td1\t1\t0\n\n1\td2\t1\t5\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" rating 0\.\.2"):
        readers.read_ratings(path, layout="wide", d_max=2)
    path = write(tmp_path, "y.tsv", "1\td1\t1\t0\n1\td2\t1\t1\n1\td1\tNA\t2\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" each \(query_id, doc_id, assessor\).*y\.tsv:1"):
        readers.read_ratings(path, layout="wide")


def test_ratings_wide_assessor_without_rating(tmp_path):
    path = write(tmp_path, "x.tsv", "query_id\tdoc_id\ta\tb\n1\td1\t1\tNA\n1\td2\t0\t\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}: assessor(s) 'b' have no rating")):
        readers.read_ratings(path, layout="wide")


def test_ratings_qrels_layout_one_file_per_assessor(tmp_path):
    write(tmp_path, "q/a1-qrels.txt.gz", "1 0 d1 2\n1 0 d2 0\n", gz=True)
    write(tmp_path, "q/a2-qrels.txt", "1 0 d1 1\n")
    df = readers.read_ratings(tmp_path / "q", layout="qrels", d_max=3)
    assert_frame(df, frame(RATING_COLS, [("1", "d1", "a1-qrels", 2), ("1", "d1", "a2-qrels", 1),
                                         ("1", "d2", "a1-qrels", 0)], ints=["rating"]))
    assert df.attrs["levels"] == (0, 3)
    assert df.attrs["files"] == [str(tmp_path / "q" / name) for name in ("a1-qrels.txt.gz", "a2-qrels.txt")]


def test_ratings_qrels_layout_errors(tmp_path):
    write(tmp_path, "q/a1.txt", "1 0 d1 2\n")
    empty = write(tmp_path, "q/a2.txt", "\n")
    with pytest.raises(ValueError, match=re.escape(f"{empty}: assessor 'a2' has no rating")):
        readers.read_ratings(tmp_path / "q", layout="qrels")
    empty.unlink()
    write(tmp_path, "q/a1.txt.gz", "1 0 d2 2\n", gz=True)
    with pytest.raises(ValueError, match="two files give assessor id 'a1'"):
        readers.read_ratings(tmp_path / "q", layout="qrels")
    bad = write(tmp_path, "r/a1.txt", "1 0 d1 1\n1 0 d2 4\n")
    with pytest.raises(ValueError, match=at(bad, 2) + r" rating 0\.\.3"):
        readers.read_ratings(tmp_path / "r", layout="qrels", d_max=3)


def test_ratings_empty_glob_and_bad_layout(tmp_path):
    with pytest.raises(ValueError, match="ratings_path: no file matches"):
        readers.read_ratings(str(tmp_path / "*.tsv"))
    with pytest.raises(ValueError, match="layout: expected one of long, wide, qrels"):
        readers.read_ratings(tmp_path, layout="tall")


# ------------------------------------------------------------------------------- runs

RUN_COLS = ["run_id", "query_id", "doc_id", "rank", "score"]


def test_runs_trec_files_in_trec_eval_order_with_depth(tmp_path):
    write(tmp_path, "runs/a.txt", "1 Q0 d1 0 1.0 A\n1 Q0 d2 1 3.0 A\n1 Q0 d3 2 1.0 A\n2 Q0 d1 0 5 A\n")
    write(tmp_path, "runs/b.gz", "1 Q0 d9 1 2.5 B\n", gz=True)
    df = readers.read_runs(tmp_path / "runs")
    assert_frame(df, frame(RUN_COLS, [("A", "1", "d2", 1, 3.0), ("A", "1", "d3", 2, 1.0),
                                      ("A", "1", "d1", 3, 1.0), ("A", "2", "d1", 1, 5.0),
                                      ("B", "1", "d9", 1, 2.5)], ints=["rank"], floats=["score"]))
    top = readers.read_runs(str(tmp_path / "runs" / "*"), depth=1)
    assert top["doc_id"].tolist() == ["d2", "d1", "d9"]


def test_runs_duplicate_run_id_across_files(tmp_path):
    a = write(tmp_path, "runs/a.txt", "1 Q0 d1 1 1.0 same\n")
    b = write(tmp_path, "runs/b.txt", "1 Q0 d1 1 1.0 same\n")
    with pytest.raises(ValueError, match=rf"runs_glob: run id 'same' is in both {re.escape(str(a))} "
                                         rf"and {re.escape(str(b))}"):
        readers.read_runs(tmp_path / "runs")


def test_runs_malformed_line_and_empty_glob(tmp_path):
    path = write(tmp_path, "r.txt", "1 Q0 d1 1 1.0 A\n1 Q0 d2 2 A\n")
    with pytest.raises(ValueError, match=at(path, 2)):
        readers.read_runs(path)
    with pytest.raises(ValueError, match=re.escape(f"runs_glob: no file matches {str(tmp_path / 'x*')!r}")):
        readers.read_runs(str(tmp_path / "x*"))


def test_runs_ntcireval_ranked_lists(tmp_path):
    write(tmp_path, "runs/sysA/0001.res", "d3 9.1\nd1\n\nd2 x y\n")
    write(tmp_path, "runs/sysA/0002.res.gz", "d7\n", gz=True)
    write(tmp_path, "runs/sysB/0001.res", "d1\n")
    df = readers.read_runs(str(tmp_path / "runs" / "*" / "*.res*"))
    assert_frame(df, frame(RUN_COLS, [("sysA", "0001", "d3", 1, -1.0), ("sysA", "0001", "d1", 2, -2.0),
                                      ("sysA", "0001", "d2", 3, -3.0), ("sysA", "0002", "d7", 1, -1.0),
                                      ("sysB", "0001", "d1", 1, -1.0)], ints=["rank"], floats=["score"]))
    assert readers.read_runs(str(tmp_path / "runs" / "*" / "*.res*"), depth=2)["rank"].max() == 2


def test_runs_ntcireval_duplicate_document(tmp_path):
    path = write(tmp_path, "sysA/0001.res", "d1\nd2\nd1\n")
    with pytest.raises(ValueError, match=at(path, 3) + " each document once in a ranked list"):
        readers.read_runs(path)


# ------------------------------------------------------------------------------- double judgments

PAIR_COLS = ["query_id", "doc_id", "u1", "u2"]


def test_double_judgments_from_two_qrels(tmp_path):
    one = write(tmp_path, "u1.txt", "1 0 d2 1\n1 0 d1 2\n2 0 d5 0\n")
    two = write(tmp_path, "u2.rel", "1 d1 L0\n1 d2 L1\n1 d3 L1\n")
    df = readers.read_double_judgments(one, two, levels=(0, 2))
    assert_frame(df, frame(PAIR_COLS, [("1", "d1", 2, 0), ("1", "d2", 1, 1)], ints=["u1", "u2"]))


def test_double_judgments_from_ratings(tmp_path):
    path = write(tmp_path, "r.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t1\n1\td1\tb\t0\n"
                                    "1\td2\ta\t2\n1\td2\tc\t2\n")
    df = readers.read_double_judgments(path, assessors=("b", "a"))
    assert_frame(df, frame(PAIR_COLS, [("1", "d1", 0, 1)], ints=["u1", "u2"]))
    wide = write(tmp_path, "w.tsv", "1\td1\t1\t0\n1\td2\t2\tNA\n")
    assert_frame(readers.read_double_judgments(wide, ratings_layout="wide", assessors=("C1", "C2")),
                 frame(PAIR_COLS, [("1", "d1", 1, 0)], ints=["u1", "u2"]))


def test_double_judgments_unknown_assessor(tmp_path):
    path = write(tmp_path, "r.tsv", "query_id\tdoc_id\tassessor\trating\n1\td1\ta\t1\n1\td1\tb\t0\n")
    with pytest.raises(ValueError, match=r"unknown assessor id\(s\) 'z'; known: 'a', 'b'"):
        readers.read_double_judgments(path, assessors=("a", "z"))
    with pytest.raises(ValueError, match="assessors: expected"):
        readers.read_double_judgments(path)


def test_double_judgments_no_item_judged_by_both(tmp_path):
    one = write(tmp_path, "u1.txt", "1 0 d1 1\n")
    two = write(tmp_path, "u2.txt", "01 0 d1 1\n")
    with pytest.raises(ValueError, match=re.escape("no item is judged by both") + ".*u1.txt.*u2.txt"):
        readers.read_double_judgments(one, two)


def test_double_judgments_levels_checked_per_line(tmp_path):
    one = write(tmp_path, "u1.txt", "1 0 d1 1\n")
    two = write(tmp_path, "u2.txt", "1 0 d0 0\n1 0 d1 4\n")
    with pytest.raises(ValueError, match=at(two, 2) + r" relevance level 0\.\.3"):
        readers.read_double_judgments(one, two, levels=(0, 3))


# ------------------------------------------------------------------------------- intents

def test_intents_happy_path(tmp_path):
    path = write(tmp_path, "intents.txt", "0001 1 0.5\n0001 2 0.5\n\n0002 1 1\n")
    df = readers.read_intents(path)
    assert_frame(df, frame(["query_id", "intent_id", "prob"],
                           [("0001", "1", 0.5), ("0001", "2", 0.5), ("0002", "1", 1.0)], floats=["prob"]))


def test_intents_not_summing_to_one(tmp_path):
    path = write(tmp_path, "x.tsv", "1 a 1.0\n2 a 0.5\n2 b 0.4\n")
    with pytest.raises(ValueError, match=at(path, 2) + r" the intent probabilities of topic '2'.*sum to 1"
                                                       r".*got 0\.9"):
        readers.read_intents(path)


def test_intents_bad_lines(tmp_path):
    path = write(tmp_path, "x.tsv", "1 a 0.5\n1 b\n")
    with pytest.raises(ValueError, match=at(path, 2)):
        readers.read_intents(path)
    path = write(tmp_path, "y.tsv", "1 a 1.5\n1 b -0.5\n")
    with pytest.raises(ValueError, match=at(path, 2) + ".*probability >= 0"):
        readers.read_intents(path)
    path = write(tmp_path, "z.tsv", "1 a 0.5\n1 b 0.25\n1 a 0.25\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" each \(topic, intent\) pair once"):
        readers.read_intents(path)
    path = write(tmp_path, "w.tsv", "1 a nan\n")
    with pytest.raises(ValueError, match=at(path, 1)):
        readers.read_intents(path)


TOPICS_XML = """<webtrack2012>
<topic number="151" type="faceted">
  <query>a</query>
  <subtopic number="1" type="inf">x</subtopic>
  <subtopic number="2" type="nav">y</subtopic>
</topic>
<topic number="152" type="single">
  <query>b</query>
</topic>
</webtrack2012>
"""


def test_intent_types_tsv_and_xml(tmp_path):
    tsv = write(tmp_path, "types.tsv", "151\t1\tInformational\n151\t2\tNAV\n152\t0\tinf\n")
    expected = frame(["query_id", "intent_id", "kind"],
                     [("151", "1", "inf"), ("151", "2", "nav"), ("152", "0", "inf")])
    assert_frame(readers.read_intent_types(tsv), expected)
    xml = write(tmp_path, "topics.xml", TOPICS_XML)
    assert_frame(readers.read_intent_types(xml), expected)


def test_intent_types_unknown_type(tmp_path):
    tsv = write(tmp_path, "x.tsv", "151 1 inf\n151 2 x\n")
    with pytest.raises(ValueError, match=at(tsv, 2) + " intent type nav"):
        readers.read_intent_types(tsv)
    xml = write(tmp_path, "x.xml", TOPICS_XML.replace('type="nav"', 'type="inav"'))
    with pytest.raises(ValueError, match=at(xml, 5) + " subtopic type 'nav' or 'inf'.*got 'inav'"):
        readers.read_intent_types(xml)


def test_with_intent_types(tmp_path):
    intents = readers.read_intents(write(tmp_path, "i.txt", "151 1 0.5\n151 2 0.5\n"))
    types = frame(["query_id", "intent_id", "kind"],
                  [("151", "2", "nav"), ("151", "1", "inf"), ("999", "1", "nav")])
    assert readers.with_intent_types(intents, types)["kind"].tolist() == ["inf", "nav"]
    assert readers.with_intent_types(intents, None)["kind"].tolist() == ["inf", "inf"]
    with pytest.raises(ValueError, match="no type .* topic '151' intent '1'"):
        readers.with_intent_types(intents, types.iloc[[0]])


def test_diversity_qrels_negative_levels_and_glob(tmp_path):
    write(tmp_path, "d/a.txt", "1 1 d1 1\n1 2 d1 -2\n")
    write(tmp_path, "d/b.txt", "2 1 d1 0\n", gz=True)
    df = readers.read_diversity_qrels(tmp_path / "d")
    assert_frame(df, frame(["query_id", "intent_id", "doc_id", "relevance"],
                           [("1", "1", "d1", 1), ("1", "2", "d1", 0), ("2", "1", "d1", 0)],
                           ints=["relevance"]))
    assert df.attrs["excluded"] == {"negative_set_to_zero": 1}
    b = write(tmp_path, "e/b.txt", "1 1 d1 1\n")
    write(tmp_path, "e/a.txt", "1 1 d1 0\n")
    with pytest.raises(ValueError, match=at(b, 1) + r" each \(query_id, intent_id, doc_id\)"):
        readers.read_diversity_qrels(str(tmp_path / "e" / "*.txt"))


# ------------------------------------------------------------------------------- preferences

PREF_COLS = ["pair_id", "query_id", "run_left", "run_right", "question", "assessor", "label"]


def test_preferences_words_codes_and_default_question(tmp_path):
    path = write(tmp_path, "p.csv", "pair_id,query_id,run_left,run_right,assessor,label\n"
                                    "p1,1,A,B,u1,left\np1,1,A,B,u2,2\np2,01,B,C,u1,Right\n")
    df = readers.read_preferences(path)
    assert_frame(df, frame(PREF_COLS, [("p1", "1", "A", "B", "relevance", "u1", "LEFT"),
                                       ("p1", "1", "A", "B", "relevance", "u2", "EQUAL"),
                                       ("p2", "01", "B", "C", "relevance", "u1", "RIGHT")]))


def test_preferences_tab_with_question_and_custom_codes(tmp_path):
    path = write(tmp_path, "p.tsv", "question\tpair_id\tquery_id\trun_left\trun_right\tassessor\tlabel\n"
                                    "diversity\tp1\t1\tA\tB\tu1\ta\nrelevance\tp1\t1\tA\tB\tu1\tb\n")
    df = readers.read_preferences(path, codes={"a": "left", "b": "RIGHT"})
    assert df["question"].tolist() == ["diversity", "relevance"]
    assert df["label"].tolist() == ["LEFT", "RIGHT"]


@pytest.mark.parametrize("label", ["MAYBE", "x", "3"])
def test_preferences_unknown_label(tmp_path, label):
    path = write(tmp_path, "x.tsv", "pair_id\tquery_id\trun_left\trun_right\tassessor\tlabel\n"
                                    f"p1\t1\tA\tB\tu1\tLEFT\np1\t1\tA\tB\tu2\t{label}\n")
    with pytest.raises(ValueError, match=at(path, 3) + r" label LEFT, RIGHT, EQUAL \(any case\) or a code "
                                                       "0=LEFT, 1=RIGHT, 2=EQUAL"):
        readers.read_preferences(path)


def test_preferences_duplicate_and_inconsistent_pairs(tmp_path):
    head = "pair_id\tquery_id\trun_left\trun_right\tassessor\tlabel\n"
    path = write(tmp_path, "x.tsv", head + "p1\t1\tA\tB\tu1\tLEFT\np2\t1\tA\tC\tu1\tLEFT\n"
                                           "p1\t1\tA\tB\tu1\tRIGHT\n")
    with pytest.raises(ValueError, match=at(path, 4) + r" each \(pair_id, question, assessor\) judged once"):
        readers.read_preferences(path)
    path = write(tmp_path, "y.tsv", head + "p1\t1\tA\tB\tu1\tLEFT\np1\t1\tB\tA\tu2\tLEFT\n")
    with pytest.raises(ValueError, match=at(path, 3) + " the query_id, run_left and run_right"):
        readers.read_preferences(path)


def test_preferences_wrong_field_count_and_header(tmp_path):
    head = "pair_id\tquery_id\trun_left\trun_right\tassessor\tlabel\n"
    path = write(tmp_path, "x.tsv", head + "p1\t1\tA\tB\tu1\tLEFT\np1\t1\tA\tB\tu2\n")
    with pytest.raises(ValueError, match=at(path, 3)):
        readers.read_preferences(path)
    path = write(tmp_path, "y.tsv", head.replace("label", "label\tscore"))
    with pytest.raises(ValueError, match=at(path, 1) + ".*unknown column.*score"):
        readers.read_preferences(path)


def test_preference_tables(tmp_path):
    path = write(tmp_path, "p.tsv", "pair_id\tquery_id\trun_left\trun_right\tquestion\tassessor\tlabel\n"
                                    "p2\t1\tA\tB\trelevance\tzed\t0\n"
                                    "p1\t2\tA\tC\trelevance\tann\t1\n"
                                    "p1\t2\tA\tC\tdiversity\tann\tEQUAL\n")
    pairs, labels = readers.preference_tables(readers.read_preferences(path))
    assert_frame(pairs, frame(["pair_id", "query_id", "run_left", "run_right"],
                              [("p2", "1", "A", "B"), ("p1", "2", "A", "C")]))
    assert list(labels) == ["relevance", "diversity"]
    rel = labels["relevance"]
    assert rel.index.name == "pair_id" and rel.index.tolist() == ["p2", "p1"]
    assert rel.columns.tolist() == ["ann", "zed"]
    assert rel.to_dict(orient="index") == {"p2": {"ann": None, "zed": "LEFT"},
                                           "p1": {"ann": "RIGHT", "zed": None}}
    assert labels["diversity"].to_dict(orient="index") == {"p2": {"ann": None}, "p1": {"ann": "EQUAL"}}


# ------------------------------------------------------------------------------- gzip, describe

def test_gzip_detected_from_content_not_name(tmp_path):
    path = write(tmp_path, "qrels.txt", "1 0 d1 1\n1 0 d2 L\n", gz=True)
    with pytest.raises(ValueError, match=at(path, 2)):
        readers.read_graded_qrels(path)
    ok = write(tmp_path, "ok.txt", "1 0 d1 1\n", gz=True)
    assert readers.read_graded_qrels(ok)["relevance"].tolist() == [1]
    prefs = write(tmp_path, "p.tsv", "pair_id\tquery_id\trun_left\trun_right\tassessor\tlabel\n"
                                     "p1\t1\tA\tB\tu1\tleft\n", gz=True)
    assert readers.read_preferences(prefs)["label"].tolist() == ["LEFT"]


def test_describe(tmp_path):
    qrels = readers.read_graded_qrels(write(tmp_path, "q.txt", "1 0 d1 2\n2 0 d1 0\n"))
    runs = readers.read_runs(write(tmp_path, "r.txt", "1 Q0 d1 1 1 A\n1 Q0 d1 1 1 B\n"))
    ratings = readers.read_ratings(write(tmp_path, "w.tsv", "1\td1\t1\tNA\n1\td2\t0\t2\n"), layout="wide")
    text = readers.describe(qrels=qrels, runs=runs, ratings=ratings)
    assert text.splitlines() == [
        "qrels: 2 rows, 2 topics, levels [0, 2]",
        "runs: 2 rows, 1 topics, 2 runs",
        "ratings: 3 rows, 1 topics, 2 assessors, levels [0, 1, 2], excluded missing_labels=1",
    ]
    assert readers.describe() == ""


def test_read_runs_says_when_the_rank_column_disagrees_with_trec_eval_order(tmp_path):
    """Files mode reads TREC runs in trec_eval's order; the input summary says how many ranked
    lists the rank column ordered otherwise (issue 41, item 2), and nothing when it agrees."""
    from helpers.io import readers

    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.9 r\n"      # rank 1 has the lower score
                    "q2 Q0 d1 1 0.9 r\nq2 Q0 d2 2 0.5 r\n"      # agrees
                    "q3 Q0 a 1 0.5 r\nq3 Q0 b 1 0.5 r\n", encoding="utf-8")   # equal ranks, tie by doc id: agrees
    runs = readers.read_runs(path)
    assert runs.attrs["rank_order"] == {"lists": 3, "reordered": 1, "topics": 1}
    assert runs[runs["query_id"] == "q1"]["doc_id"].tolist() == ["d2", "d1"]
    line = readers.describe(runs=runs).splitlines()[1]
    assert line.startswith("runs: The rank column orders 1 of 3 ranked lists (1 topic)") and "trec_eval" in line
    agreeing = tmp_path / "ok.txt"
    agreeing.write_text("q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.5 r\n", encoding="utf-8")
    assert len(readers.describe(runs=readers.read_runs(agreeing)).splitlines()) == 1
