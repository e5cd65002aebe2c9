"""Tests of helpers.io.trec: TREC qrels, run and ndeval readers, line-accurate errors, run order."""

from __future__ import annotations

import gzip
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers.io import trec as trec_io


def write(tmp_path, name, text, *, gz=False):
    path = tmp_path / name
    data = text.encode("utf-8") if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def error_at(path, line):
    """Regex for the standard message of a malformed line."""
    return re.escape(f"{path}:{line}: expected")


# ------------------------------------------------------------------------------------- qrels

QRELS = "1 0 d1 2\n1 0 d2 0\n\n2 Q0 d1 -2\n"


def test_read_qrels_tidy_string_ids_and_blank_lines(tmp_path):
    df = trec_io.read_qrels(write(tmp_path, "q.txt", QRELS))
    assert list(df.columns) == ["query_id", "doc_id", "relevance"]
    assert df["query_id"].tolist() == ["1", "1", "2"]
    assert df["doc_id"].tolist() == ["d1", "d2", "d1"]
    assert df["relevance"].tolist() == [2, 0, -2]
    assert df["relevance"].dtype == np.int64
    assert pd.api.types.is_string_dtype(df["query_id"].dtype)   # pandas' text dtype: str (3.x), object (2.2)


def test_read_qrels_keeps_leading_zeros_and_reads_gzip_by_content(tmp_path):
    df = trec_io.read_qrels(write(tmp_path, "q.txt", "007 0 0042 1\n", gz=True))
    assert df.loc[0, "query_id"] == "007" and df.loc[0, "doc_id"] == "0042"


def test_read_qrels_gain_values(tmp_path):
    df = trec_io.read_qrels(write(tmp_path, "q.txt", "1 0 a 0.5\n1 0 b 2\n"), gain_values=True)
    assert list(df.columns) == ["query_id", "doc_id", "gain"]
    assert df["gain"].tolist() == [0.5, 2.0]


@pytest.mark.parametrize("text, line", [
    ("1 0 a 1\n1 0 b\n", 2),                    # missing field
    ("1 0 a 1\n1 0 b 1 extra\n", 2),           # one surplus field
    ("1 0 a 1 x y\n1 0 b 1\n", 1),             # two surplus fields on the first line
    ("1 0 a 1\n\n1 0 b high\n", 3),            # non-integer level, after a blank line
    ("1 0 a 1\n1 0 b 1.5\n", 2),               # float level
    ("1 0 a 1\n1 0 a 2\n", 2),                 # pair judged twice
])
def test_read_qrels_malformed_names_file_and_line(tmp_path, text, line):
    path = write(tmp_path, "q.txt", text)
    with pytest.raises(ValueError, match=error_at(path, line)):
        trec_io.read_qrels(path)


def test_read_qrels_gain_rejects_non_finite(tmp_path):
    path = write(tmp_path, "q.txt", "1 0 a 1\n1 0 b nan\n")
    with pytest.raises(ValueError, match=error_at(path, 2)):
        trec_io.read_qrels(path, gain_values=True)


def test_read_qrels_empty_file(tmp_path):
    path = write(tmp_path, "q.txt", "\n\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}: expected") + ".*empty file"):
        trec_io.read_qrels(path)


def test_read_qrels_invalid_utf8(tmp_path):
    path = write(tmp_path, "q.txt", b"1 0 a 1\n1 0 \xff\xfe 1\n")
    with pytest.raises(ValueError, match=error_at(path, 2) + " UTF-8"):
        trec_io.read_qrels(path)


def test_message_shows_expected_and_got(tmp_path):
    path = write(tmp_path, "q.txt", "1 0 a 1\n1 0 b\n")
    with pytest.raises(ValueError) as info:
        trec_io.read_qrels(path)
    message = str(info.value)
    assert "query_id iteration doc_id relevance" in message
    assert "got '1 0 b'" in message and "found 3 fields" in message


# -------------------------------------------------------------------------------------- runs

RUN = ("q1 Q0 d1 1 3.0 sysA\n"
       "q1 Q0 d2 2 2.5 sysA\n"
       "q2 Q0 d9 1 1e-3 sysA\n")


def test_read_run_columns_types_and_tag(tmp_path):
    df = trec_io.read_run(write(tmp_path, "run.txt", RUN))
    assert list(df.columns) == ["run_id", "query_id", "doc_id", "rank", "score"]
    assert df["run_id"].unique().tolist() == ["sysA"]
    assert df["rank"].dtype == np.int64 and df["score"].dtype == np.float64
    assert df["score"].tolist() == [3.0, 2.5, 0.001]


def test_read_run_gzip_without_gz_suffix_and_run_id_override(tmp_path):
    df = trec_io.read_run(write(tmp_path, "run", RUN, gz=True), run_id="renamed")
    assert len(df) == 3 and set(df["run_id"]) == {"renamed"}


@pytest.mark.parametrize("text, line", [
    (RUN + "q2 Q0 d8 2 0.5\n", 4),              # run tag missing (5 fields)
    ("q1 Q0 d1 1 3.0 sysA x\n" + RUN, 1),       # 7 fields on the first line
    (RUN + "q2 Q0 d8 two 0.5 sysA\n", 4),       # rank not an integer
    (RUN + "q2 Q0 d8 2 high sysA\n", 4),        # score not a number
    (RUN + "q2 Q0 d8 2 nan sysA\n", 4),         # score not finite
    (RUN + "q1 Q0 d1 3 0.1 sysA\n", 4),         # same document twice for a query
])
def test_read_run_malformed_names_file_and_line(tmp_path, text, line):
    path = write(tmp_path, "run.txt", text)
    with pytest.raises(ValueError, match=error_at(path, line)):
        trec_io.read_run(path)


def test_read_run_same_doc_in_two_runs_of_one_file_is_fine(tmp_path):
    with pytest.warns(UserWarning, match=r"run.txt:2: the file holds 2 run tags \('A' \(1 line\), 'B' \(1 line\)\) "
                                         r"and is read as 2 runs; trec_eval reads one file as one run"):
        df = trec_io.read_run(write(tmp_path, "run.txt", "q1 Q0 d1 1 1 A\nq1 Q0 d1 1 1 B\n"))
    assert df["run_id"].tolist() == ["A", "B"]


def test_sort_run_orders_like_trec_eval(tmp_path):
    # Ranks in the file are wrong on purpose; ties must go to the larger doc_id first.
    text = ("q1 Q0 a 5 1.0 R\n"
            "q1 Q0 c 9 1.0 R\n"
            "q1 Q0 b 0 2.0 R\n"
            "q2 Q0 x 1 0.5 R\n")
    df = trec_io.sort_run(trec_io.read_run(write(tmp_path, "run.txt", text)))
    assert df["query_id"].tolist() == ["q1", "q1", "q1", "q2"]
    assert df["doc_id"].tolist() == ["b", "c", "a", "x"]
    assert df["rank"].tolist() == [1, 2, 3, 1]


def test_sort_run_fixes_tie_order_only_when_scores_sorted(tmp_path):
    text = "q1 Q0 a 0 3 R\nq1 Q0 b 1 2 R\nq1 Q0 c 2 2 R\nq1 Q0 d 3 1 R\n"
    df = trec_io.sort_run(trec_io.read_run(write(tmp_path, "run.txt", text)))
    assert df["doc_id"].tolist() == ["a", "c", "b", "d"]
    assert df["rank"].tolist() == [1, 2, 3, 4]


def test_sort_run_matches_a_full_sort_on_shuffled_input():
    rng = np.random.default_rng(7)
    n = 500
    run = pd.DataFrame({
        "run_id": rng.choice(["A", "B"], n), "query_id": rng.choice(["1", "2", "3"], n),
        "doc_id": [f"d{i}" for i in range(n)], "rank": 0,
        "score": rng.integers(0, 20, n).astype(float)}).astype({"run_id": "str", "query_id": "str"})
    out = trec_io.sort_run(run)
    expected = run.sort_values(["run_id", "query_id", "score", "doc_id"],
                               ascending=[True, True, False, False])
    got = out.sort_values(["run_id", "query_id", "rank"])
    assert got["doc_id"].tolist() == expected["doc_id"].tolist()
    assert (out.groupby(["run_id", "query_id"])["rank"].min() == 1).all()


# ---------------------------------------------------------------------------- diversity qrels

def test_read_diversity_qrels(tmp_path):
    df = trec_io.read_diversity_qrels(write(tmp_path, "d.txt", "101 1 docA 0\n101 2 docA -2\n"))
    assert list(df.columns) == ["query_id", "intent_id", "doc_id", "relevance"]
    assert df["intent_id"].tolist() == ["1", "2"]
    assert df["relevance"].tolist() == [0, -2]


@pytest.mark.parametrize("text, line", [
    ("101 1 docA 0\n101 1 docB\n", 2),
    ("101 1 docA 0\n101 1 docB x\n", 2),
    ("101 1 docA 0\n101 2 docA 1\n101 1 docA 1\n", 3),
])
def test_read_diversity_qrels_malformed(tmp_path, text, line):
    path = write(tmp_path, "d.txt", text)
    with pytest.raises(ValueError, match=error_at(path, line)):
        trec_io.read_diversity_qrels(path)


# -------------------------------------------------------------------------- generic pieces

def test_row_line_counts_blank_and_header_lines(tmp_path):
    path = write(tmp_path, "t.txt", "header\na\n\n\nb\n")
    assert trec_io.row_line(path, 0, skip=1) == 2
    assert trec_io.row_line(path, 1, skip=1) == 5
    with pytest.raises(IndexError):
        trec_io.row_line(path, 2, skip=1)


def test_read_delimited_tab_separated_empty_field(tmp_path):
    path = write(tmp_path, "t.tsv", "a\tb\tc\nd\t\tf\n")
    with pytest.raises(ValueError, match=error_at(path, 2)):
        trec_io.read_delimited(path, ["x", "y", "z"], dtypes=dict.fromkeys("xyz", str),
                               expected="3 tab-separated fields", sep="\t")


def test_a_stray_tag_in_a_run_file_is_named_with_its_line(tmp_path):
    lines = [f"q{q} Q0 d{d} {d} {10 - d} main" for q in (1, 2) for d in range(1, 6)]
    lines[7] = lines[7].replace("main", "mian")
    path = write(tmp_path, "run.txt", "\n".join(lines) + "\n")
    with pytest.warns(UserWarning, match=r"run.txt:8: the file holds 2 run tags \('main' \(9 lines\), 'mian' \(1 line\)\)"):
        df = trec_io.read_run(path)
    assert len(df) == 10                                   # nothing lost
    with warnings.catch_warnings():
        warnings.simplefilter("error")                     # one name for the file: one run, no warning
        assert set(trec_io.read_run(path, run_id="mine")["run_id"]) == {"mine"}


@pytest.mark.parametrize("text, line, field", [
    ("q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 3_0 r\n", 2, 5),                       # Python's float() reads 3_0 as 30
    ("q1 Q0 d1 1_0 2.5 r\n", 1, 4),
    ("q1 Q0 d1 1 2.5 r\nq1 Q0 d2 99999999999999999999 1.0 r\n", 2, 4),      # beyond int64
    ("q1 Q0 d1 1 0x1p3 r\n", 1, 5),
])
def test_numbers_the_parser_refuses_are_named_with_their_line(tmp_path, text, line, field):
    path = write(tmp_path, "run.txt", text)
    with pytest.raises(ValueError, match=rf"run.txt:{line}: expected .*; field {field} is invalid"):
        trec_io.read_run(path)
