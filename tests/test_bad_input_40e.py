"""Bad input of the fifth fresh probe round (issue 40, fix40e): each class refused with one line
naming what is wrong. Cheap: nothing here executes a notebook or builds a book."""
from __future__ import annotations

import importlib.util
import io
import os
import re
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

from helpers import paths
from helpers.measures import evaluate
from helpers.measures.diversity.scoring import evaluate as diversity_evaluate


def _book():
    spec = importlib.util.spec_from_file_location("build_book_40e", paths.ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "rep"))
    (tmp_path / "rep" / "book").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    module = _book()
    # nothing may be built: a refusal must come before the first page
    monkeypatch.setattr(module, "entries_of", lambda profile: pytest.fail("the book was built"))
    return module


def _main(module, capsys, *argv):
    code = module.main(list(argv))
    return code, capsys.readouterr().err


# ---- 1. --profile is a run's name; every folder the builder replaces is checked, links refused ----

@pytest.mark.parametrize("name", ["ABS", "../../victim", "../notebooks", "a/b", ""])
def test_book_profile_is_a_name_not_a_path(book, tmp_path, capsys, name):
    victim = tmp_path / "v"
    victim.mkdir()
    (victim / "thesis.tex").write_text("mine")
    name = str(victim) if name == "ABS" else name
    code, err = _main(book, capsys, "--profile", name, "--no-pdf")
    assert code == 2 and err.count("\n") == 1 and f"--profile {name!r} is not a run's name" in err
    assert (victim / "thesis.tex").read_text() == "mine"


def test_book_folder_through_a_link_out_of_the_reports_root(book, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "rep" / "book").rmdir()
    (tmp_path / "rep" / "book").symlink_to(elsewhere)
    code, err = _main(book, capsys, "--profile", "ci", "--no-pdf")
    assert code == 2 and "a symbolic link to" in err and "outside the reports folder" in err
    assert not any(elsewhere.iterdir())


@pytest.mark.parametrize("target", ["outside", "inside"])
def test_book_folder_itself_a_link(book, tmp_path, capsys, target):
    mine = tmp_path / "mine" if target == "outside" else tmp_path / "rep" / "book" / "other"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    (tmp_path / "rep" / "book" / "ci").symlink_to(mine)
    code, err = _main(book, capsys, "--profile", "ci", "--no-pdf")
    assert code == 2 and err.count("\n") == 1 and "symbolic link" in err
    assert (tmp_path / "rep" / "book" / "ci").is_symlink() and (mine / "keep.txt").read_text() == "mine"
    assert not [p for p in (tmp_path / "rep" / "book").iterdir() if p.name.startswith(".ci")]


def test_book_out_link_refused(book, tmp_path, capsys):
    (tmp_path / "mine").mkdir()
    os.symlink(tmp_path / "mine", tmp_path / "link")
    code, err = _main(book, capsys, "--profile", "ci", "--out", "link", "--no-pdf")
    assert code == 2 and "--out" in err and "is a symbolic link" in err


def test_book_out_under_a_file(book, tmp_path, capsys):
    (tmp_path / "f").write_text("a file")
    code, err = _main(book, capsys, "--profile", "ci", "--out", "f/x/book", "--no-pdf")
    assert code == 2 and err.count("\n") == 1 and "f is a file, not a folder" in err


def test_book_oserror_is_one_line(book, capsys, monkeypatch):
    def fail(*a, **k):
        raise PermissionError(13, "Permission denied", "/nowhere/book")
    monkeypatch.setattr(book, "build", fail)
    code, err = _main(book, capsys, "--profile", "ci")
    assert code == 1 and err == "build_book: /nowhere/book: Permission denied\n"


# ---- 4. every option of build_book once ----

@pytest.mark.parametrize("argv", [["--out", "A", "--out", "B"], ["--profile", "ci", "--profile", "real"],
                                  ["--no-pdf", "--no-pdf"], ["--onecolumn", "--onecolumn"]])
def test_book_repeated_option(book, tmp_path, capsys, argv):
    with pytest.raises(SystemExit) as exc:
        book.main(argv)
    assert exc.value.code == 2 and "given twice" in capsys.readouterr().err
    assert not (tmp_path / "A").exists() and not (tmp_path / "B").exists()


# ---- 2. one coercion of score/rank columns: integers beyond 2**53 and inexact exact values refused ----

BIG = 2 ** 53
Q = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "relevance": [1, 0, 0]})


def _run(column, values):
    return pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], column: values})


@pytest.mark.parametrize("run, row", [
    (_run("score", pd.Series([BIG + 1, BIG, BIG], dtype=object)), "row 0"),
    (_run("score", ["9007199254740993", "9007199254740992", "9007199254740992"]), "row 0"),
    (_run("score", pd.Categorical([BIG + 1, BIG, BIG])), "row 0"),
    (_run("score", pd.Series([np.int64(7), np.uint64(BIG + 3), np.int64(5)], dtype=object)), "row 1"),
    (_run("rank", pd.Series([2 ** 60 + 1, 2 ** 60 + 2, 2 ** 60 + 3], dtype=object)), "row 0"),
    ({"1": {"a": BIG + 1, "b": BIG, "c": BIG}}, "run['1']['a']"),
    ({"r": {"1": {"a": 3, "b": -BIG - 1, "c": 1}}}, "run['r']['1']['b']"),
])
def test_integers_beyond_2_53_refused_in_every_form(run, row):
    with pytest.raises(ValueError, match=rf"holds integers beyond 2\*\*53 \({re.escape(row)} has"):
        evaluate(Q, run, ["AP"])


def test_decimals_that_become_one_float_refused():
    run = _run("score", [Decimal("1.00000000000000001"), Decimal(1), Decimal("0.5")])
    with pytest.raises(ValueError, match=r"row 1 has Decimal\('1'\), which float64 holds as 1.0"):
        evaluate(Q, run, ["AP"])
    fine = evaluate(Q, _run("score", [Decimal("1.5"), Decimal(1), Decimal("0.5")]), ["AP"])
    assert fine["value"].tolist() == [1.0]


def test_exact_integers_below_2_53_still_exact():
    out = evaluate(Q, _run("score", pd.Series([BIG - 1, BIG - 2, BIG - 3], dtype=object)), ["AP"])
    assert out["value"].tolist() == [1.0]


@pytest.mark.parametrize("scores", [np.array([BIG, BIG, BIG + 1], dtype=np.int64),
                                    pd.Series([BIG, BIG, BIG + 1], dtype=object), ["1", "1", "9007199254740993"]])
def test_diversity_refuses_integers_beyond_2_53(scores):
    dq = pd.DataFrame({"query_id": ["1"] * 3, "intent_id": ["i1", "i2", "i2"], "doc_id": ["a", "b", "c"],
                       "relevance": [1, 2, 1]})
    intents = pd.DataFrame({"query_id": ["1", "1"], "intent_id": ["i1", "i2"], "prob": [0.5, 0.5]})
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["c", "b", "a"], "score": scores})
    with pytest.raises(ValueError, match=r"run 'score' holds integers beyond 2\*\*53 \(row [02] has 900719925474099[23]\)"):
        diversity_evaluate(dq, intents, run, ["alpha-nDCG@3"])


# ---- 3. exponential gains of high levels: the GAIN_TOTAL_LIMIT refusal with the row, no OverflowError ----

DQ = pd.DataFrame({"query_id": ["1"] * 3, "intent_id": ["i1", "i2", "i2"], "doc_id": ["a", "b", "c"],
                   "relevance": [1, 2, 1]})
INTENTS = pd.DataFrame({"query_id": ["1", "1"], "intent_id": ["i1", "i2"], "prob": [0.5, 0.5]})
DRUN = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["c", "b", "a"], "score": [3.0, 2.0, 1.0]})


@pytest.mark.parametrize("level", [1100, 1023, 5000])
def test_diversity_default_gain_of_a_high_level_refused(level):
    with pytest.raises(ValueError, match=rf"dqrels relevance level {level} makes the default gain 2\^{level} - 1 .* "
                                         r"row: query_id='1', intent_id='i2', doc_id='b'"):
        diversity_evaluate(DQ.assign(relevance=[1, level, 1]), INTENTS, DRUN, ["alpha-nDCG@3"])
    # the same level with linear gains is scored
    out = diversity_evaluate(DQ.assign(relevance=[1, level, 1]), INTENTS, DRUN, ["alpha-nDCG@3"],
                             gains={1: 1, level: level})
    assert np.isfinite(out["value"]).all()


def test_diversity_level_beyond_2_53_refused():
    with pytest.raises(ValueError, match=r"relevance level beyond the integers .* relevance=9007199254740993"):
        diversity_evaluate(DQ.assign(relevance=pd.Series([1, BIG + 1, 1], dtype=object)), INTENTS, DRUN,
                           ["alpha-nDCG@3"], gains={1: 1})


# ---- 6. diversity messages show Python values ----

@pytest.mark.parametrize("prob, shown", [(np.nan, "prob=nan"), (-0.5, "prob=-0.5")])
def test_diversity_messages_python_reprs(prob, shown):
    with pytest.raises(ValueError) as exc:
        diversity_evaluate(DQ, INTENTS.assign(prob=[prob, 1.0]), DRUN, ["alpha-nDCG@3"])
    assert shown in str(exc.value) and "np." not in str(exc.value)


# ---- 5. standard input is read as a regular file is: a long line with a line end is a line ----

def test_stdin_long_line_with_line_end_is_read():
    from helpers.io.fields import STDIN_LINE_LIMIT, read_stream
    data = b"8 Q0 y 1 0.25 s\n" + b"8 Q0 " + b"y" * (2 * STDIN_LINE_LIMIT) + b" 9 1 s\n"
    assert read_stream(io.BytesIO(data)) == data


def test_stdin_without_line_ends_refused_with_a_true_message():
    from helpers.io.fields import read_stream

    class Endless:
        def __init__(self, head=b""):
            self.head = head

        def read(self, n):
            head, self.head = self.head, b""
            return head or b"\0" * n
    with pytest.raises(ValueError, match=r"no line end in the first 1,048,576 bytes"):
        read_stream(Endless())
    with pytest.raises(ValueError, match=r"more than 4,096 bytes without a line end after byte 16"):
        read_stream(Endless(b"8 Q0 y 1 0.25 s\n"), chunk=1024, run_limit=4096)


# ---- 6. evaluate's messages name what the user wrote ----

@pytest.mark.parametrize("written, shown", [("nDCG(b=0)", "'nDCG(b=0)': the log base b"),
                                            ("Q(beta=-1)", "'Q(beta=-1)': beta must be"),
                                            ("nDCG(b=0)@5", "'nDCG(b=0)@5': the log base b")])
def test_measure_spec_error_names_what_was_written(written, shown):
    from helpers.measures.cli import expand_measures
    with pytest.raises(ValueError) as exc:
        expand_measures([written], None)
    assert str(exc.value).startswith(shown) and "@1000" not in str(exc.value)


def test_measure_cutoff_error_still_names_the_cutoff():
    from helpers.measures.cli import expand_names
    assert expand_names(["nDCG"], [5, 10]) == ["nDCG@5", "nDCG@10"]


@pytest.mark.parametrize("text", ["2.0", "1e3", "nan", "-1.5"])
def test_rel_number_gets_the_integer_level_message(text):
    from helpers.measures.cli import _rel_value
    with pytest.raises(ValueError, match=rf"--rel must be an integer level >= 1 or a collection name, got {re.escape(repr(text))}"):
        _rel_value(text)
