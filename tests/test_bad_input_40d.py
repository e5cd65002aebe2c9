"""Bad inputs of the fourth probe round of issue 40 (one new example per class)."""
import importlib.util
import io
import os

import numpy as np
import pandas as pd
import pytest

from helpers import measures, paths


def _book():
    spec = importlib.util.spec_from_file_location("build_book_40d", paths.ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BOOK = _book()


# 1. `build_book --out DIR` only ever replaces a folder it built itself
@pytest.fixture
def reports(tmp_path, monkeypatch):
    root = tmp_path / "rep"
    (root / "myrun" / "figures").mkdir(parents=True)
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(root))
    return root


def _refused(out, match, **kw):
    with pytest.raises(BOOK.UsageError, match=match) as info:
        BOOK.build("myrun", out, pdf=False, stream=io.StringIO(), **kw)
    assert "\n" not in str(info.value)


def test_book_out_refuses_a_users_folder(tmp_path, reports):
    mine = tmp_path / "papers"
    mine.mkdir()
    (mine / "draft.md").write_text("keep me")
    _refused(mine, "is not empty and is not a book built here")
    assert (mine / "draft.md").read_text() == "keep me"


def test_book_out_refuses_a_file_dot_and_the_folders_of_runs(tmp_path, reports, monkeypatch):
    (tmp_path / "notes.txt").write_text("x")
    _refused(tmp_path / "notes.txt", "is not a folder")
    monkeypatch.chdir(tmp_path)
    _refused("", "names the current folder")
    _refused(".", "names the current folder")
    _refused(tmp_path, "holds .*the current folder|the reports root")
    _refused(reports, "is the reports root")
    _refused(reports / "myrun" / "figures", "inside a run's outputs")
    _refused(reports / "book", "holds every run's book")
    _refused(paths.ROOT, "the checkout")
    params = tmp_path / "params"
    params.mkdir()
    _refused(params, "the parameter files' folder", params=str(params))
    assert (reports / "myrun" / "figures").is_dir() and params.is_dir()


def test_book_replaces_only_its_own_folder_and_keeps_it_when_the_build_fails(tmp_path, reports, monkeypatch):
    out = tmp_path / "book"
    monkeypatch.setattr(BOOK, "entries_of", lambda profile: [])
    BOOK.build("myrun", out, pdf=False, stream=io.StringIO())
    assert (out / BOOK.MARKER).is_file() and (out / "index.html").is_file()
    (out / "stale.html").write_text("old page")
    BOOK.build("myrun", out, pdf=False, stream=io.StringIO())     # its own folder: replaced
    assert not (out / "stale.html").exists() and (out / BOOK.MARKER).is_file()

    def broken(*args, **kw):
        raise RuntimeError("render failed")
    monkeypatch.setattr(BOOK, "_write_book", broken)
    (out / "kept.html").write_text("previous book")
    with pytest.raises(RuntimeError):
        BOOK.build("myrun", out, pdf=False, stream=io.StringIO())
    assert (out / "kept.html").read_text() == "previous book"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book", "rep"]   # no temporary folder left
    assert BOOK.main(["--profile", "myrun", "--out", str(tmp_path / "rep"), "--no-pdf"]) == 2
    assert os.path.isdir(tmp_path / "rep" / "myrun")


# 2. a gain level beyond a 64-bit integer: a ValueError naming it, in every reader of level keys
@pytest.mark.parametrize("gains", [{1: 1, 3: 2, 2**64 + 5: 6}, {1: 1, -(2**63) - 7: 0}, {2: 1, 1e25: 3}])
def test_gain_level_beyond_int64_named(gains):
    import pandas as pd

    from helpers import measures
    q = pd.DataFrame({"query_id": ["t"], "doc_id": ["d"], "relevance": [1]})
    r = pd.DataFrame({"query_id": ["t"], "doc_id": ["d"], "score": [0.5]})
    with pytest.raises(ValueError, match=r"gains: level -?\d+ is beyond the range of relevance levels"):
        measures.evaluate(q, r, ["MSnDCG@5"], gains=gains)


def test_dqrels_gain_level_beyond_int64_named_and_no_table_by_level():
    import pandas as pd

    from helpers.measures.diversity.prepare import _gain_table
    with pytest.raises(ValueError, match=r"gains: level 36893488147419103232 is beyond the range"):
        _gain_table({1: 1.0, 2**65: 2.0}, np.array([1.0]))
    # a level of 10**15 is looked up, not a table of 10**15 entries
    got, top = _gain_table({1: 1.0, 10**15: 7.0}, np.array([10.0**15, 1.0, 0.0]))
    assert got.tolist() == [7.0, 1.0, 0.0] and top == 7.0
    from helpers.measures import diversity
    dq = pd.DataFrame([("q", "i", "a", 1)], columns=["query_id", "intent_id", "doc_id", "relevance"])
    it = pd.DataFrame([("q", "i", 1.0, "inf")], columns=["query_id", "intent_id", "prob", "kind"])
    run = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "score": [1.0], "run_id": "r"})
    with pytest.raises(ValueError, match=r"gains: level 9223372036854775808 is beyond"):
        diversity.evaluate(dq, it, run, ["D-nDCG@3"], gains={1: 1, 2**63: 2})


def test_trec_eval_gain_level_beyond_c_long_refused(tmp_path, capsys):
    from helpers.measures.treceval import command
    (tmp_path / "q").write_text("4 0 x 2\n")
    (tmp_path / "r").write_text("4 Q0 x 1 3.5 s\n")
    status = command.main(["-m", "ndcg.-99999999999999999999=3", str(tmp_path / "q"), str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert status != 0 and "beyond the range of trec_eval's integers" in err and "Traceback" not in err


# 3. trec_eval reads only regular files (qrels, results, -Z), and standard input with a line bound
@pytest.mark.parametrize("slot", ["qrels", "results", "zscores"])
def test_trec_eval_refuses_devices_and_pipes_in_every_file(tmp_path, capsys, slot):
    from helpers.measures.treceval import command
    (tmp_path / "q").write_text("8 0 y 1\n")
    (tmp_path / "r").write_text("8 Q0 y 1 0.25 s\n")
    pipe = tmp_path / "fifo"
    os.mkfifo(pipe)
    for bad, kind in ((str(pipe), "a named pipe"), ("/dev/null", "a device")):
        files = {"qrels": [bad, str(tmp_path / "r")], "results": [str(tmp_path / "q"), bad],
                 "zscores": ["-Z", bad, str(tmp_path / "q"), str(tmp_path / "r")]}[slot]
        assert command.main(["-m", "map", *files]) != 0
        err = capsys.readouterr().err
        assert f"{bad}: expected a regular file, got {kind}" in err and err.count("\n") == 1


def test_trec_eval_standard_input_without_line_ends_is_refused_at_the_bound():
    from helpers.io.fields import STDIN_LINE_LIMIT, read_stream

    class Endless:
        def read(self, n):
            return b"\0" * n
    with pytest.raises(ValueError, match="a line longer than 1,048,576 bytes"):
        read_stream(Endless())
    lines = io.BytesIO(b"8 Q0 y 1 0.25 s\n" * 10 + b"x" * (STDIN_LINE_LIMIT // 2))
    assert read_stream(lines, chunk=7).count(b"\n") == 10


# 4. preference levels that a double cannot keep apart are refused, in both preference readers
@pytest.mark.parametrize("fmt, text, match", [
    ("prefs", "7 j s a 123456789012345678901\n7 j s b 123456789012345678902\n", "at most 18 digits \\(it has 21"),
    ("qrels_prefs", "7 j a -99999999999999999999\n7 j b 3\n", "at most 18 digits \\(it has 20"),
    ("prefs", "7 j s a 98765432109876543\n7 j s b 9.8765432109876544e16\n", "line 1's 98765432109876543 is a different"),
    ("qrels_prefs", "7 j a 3.00000000000000001\n7 j b 3\n", "line 1's 3.00000000000000001 is a different"),
])
def test_preference_levels_that_would_tie_as_doubles_refused(tmp_path, fmt, text, match):
    from helpers.io import judgment_groups as jg
    (tmp_path / "p").write_text(text)
    reader = {"prefs": jg.read_prefs, "qrels_prefs": jg.read_qrels_prefs}[fmt]
    with pytest.raises(ValueError, match=match) as info:
        reader(tmp_path / "p")
    assert f"{tmp_path / 'p'}:" in str(info.value)


def test_preference_levels_with_trailing_zeros_or_short_are_read(tmp_path):
    from helpers.io import judgment_groups as jg
    (tmp_path / "p").write_text("7 j s a 2.50000000000000000000000\n7 j s b 0.000000000000000000001\n7 j s c 2.5\n")
    assert jg.read_prefs(tmp_path / "p")["rel_level"].tolist() == [2.5, 1e-21, 2.5]


# 5. interpolated precision on a topic with nothing retrieved prints trec_eval's -nan (both paths)
def _nist_lines(tmp_path, capsys, args):
    from helpers.measures.treceval import command
    (tmp_path / "q").write_text("4 0 a 1\n4 0 b 1\n4 0 c 0\n6 0 d 1\n9 0 e 1\n9 0 f 0\n")
    (tmp_path / "r").write_text("4 Q0 c 1 5 s\n4 Q0 a 2 4 s\n6 Q0 zz 1 3 s\n")
    assert command.main([*args, str(tmp_path / "q"), str(tmp_path / "r")]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("flags", [["-M", "0"], ["-J"]])
def test_interpolated_precision_without_retrieved_documents_is_nist_nan(tmp_path, capsys, flags):
    out = _nist_lines(tmp_path, capsys, ["-q", *flags, "-m", "11pt_avg.0,0.5,1", "-m", "iprec_at_recall.0,0.6"])
    # trec_eval 10's lines (checked against its build; it stops at topic 9, unanswered, before "all"):
    # the cutoff lround(x R) = 0 is 0/0, the others 0
    if flags == ["-M", "0"]:
        assert out == ["iprec_at_recall_0.00  \t4\t  -nan", "iprec_at_recall_0.60  \t4\t0.0000",
                       "11pt_avg_0,0.5,1      \t4\t  -nan",
                       "iprec_at_recall_0.00  \t6\t  -nan", "iprec_at_recall_0.60  \t6\t0.0000",
                       "11pt_avg_0,0.5,1      \t6\t  -nan",
                       "iprec_at_recall_0.00  \tall\t  -nan", "iprec_at_recall_0.60  \tall\t0.0000",
                       "11pt_avg_0,0.5,1      \tall\t  -nan"]
    else:   # topic 4 keeps its judged documents; topic 6 retrieved only an unjudged one
        assert out[3:6] == ["iprec_at_recall_0.00  \t6\t  -nan", "iprec_at_recall_0.60  \t6\t0.0000",
                            "11pt_avg_0,0.5,1      \t6\t  -nan"] and "nan" not in " ".join(out[:3])


def test_complete_unanswered_topic_is_nan_only_without_trec_evals_placeholder(tmp_path, capsys):
    # -c: trec_eval ranks one placeholder document for topic 9 (0, not -nan) unless -M 0 or -J drops it
    plain = _nist_lines(tmp_path, capsys, ["-q", "-c", "-m", "iprec_at_recall.0"])
    assert "iprec_at_recall_0.00  \t9\t0.0000" in plain
    dropped = _nist_lines(tmp_path, capsys, ["-q", "-c", "-J", "-m", "iprec_at_recall.0"])
    assert "iprec_at_recall_0.00  \t9\t  -nan" in dropped


# 6. --out-dir (our option, not NIST's) given twice is refused, nothing written
def test_trec_eval_out_dir_given_twice_refused(tmp_path, capsys):
    from helpers.measures.treceval import command
    (tmp_path / "q").write_text("3 0 k 1\n")
    (tmp_path / "r").write_text("3 Q0 k 1 2 s\n")
    args = ["--many-runs", "--out-dir", str(tmp_path / "first"), "-m", "map", "--out-dir", str(tmp_path / "second"),
            str(tmp_path / "q"), str(tmp_path / "r")]
    assert command.main(args) != 0
    err = capsys.readouterr().err
    assert "--out-dir given twice" in err and "second" in err
    assert not (tmp_path / "first").exists() and not (tmp_path / "second").exists()


# 7. evaluate reads ids as trec_eval and the API do: only C's isspace separates fields
@pytest.mark.parametrize("inside", ["\u00a0", "\u3000", "\u2028", "\u0085", "\x1c"])
@pytest.mark.parametrize("layout", ["trec", "ntcir"])
def test_evaluate_reads_ids_with_unicode_spaces_as_one_id(tmp_path, capsys, inside, layout):
    from helpers.measures import cli
    doc = f"d{inside}7"
    qrels = f"5 0 {doc} 1\n5 0 e 0\n" if layout == "trec" else f"5 {doc} L1\n5 e L0\n"
    (tmp_path / "q").write_text(qrels, encoding="utf-8")
    (tmp_path / "r").write_text(f"5 Q0 e 1 2 s\n5 Q0 {doc} 2 1 s\n", encoding="utf-8")
    assert cli.main(["--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--measures", "AP",
                     "--conventions", "trec_eval"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("\t0.5000")      # relevant at rank 2: AP 1/2


# 8. -Z with a subnormal standard deviation: trec_eval's inf / -nan, and no raw numpy warning
def test_zscore_subnormal_stddev_prints_inf_without_numpy_warning(tmp_path):
    import subprocess
    import sys
    (tmp_path / "q").write_text("4 0 a 1\n4 0 b 0\n6 0 d 1\n6 0 e 1\n")
    (tmp_path / "r").write_text("4 Q0 a 1 5 s\n6 Q0 x 1 3 s\n6 Q0 d 2 2 s\n")
    (tmp_path / "z").write_text("4 map 0.5 1e-320\n6 map 0.9 2e-322\n")
    done = subprocess.run([sys.executable, "-W", "default", "-m", "helpers", "trec_eval", "-q", "-m", "map", "-Z",
                           str(tmp_path / "z"), str(tmp_path / "q"), str(tmp_path / "r")],
                          capture_output=True, text=True, cwd=paths.ROOT)
    assert done.returncode == 0 and done.stderr == ""
    # trec_eval 10's bytes (checked against its build): +inf, -inf, and their sum 0/0's -nan in the mean
    assert done.stdout == ("Zmap                   \t4\t   inf\nZmap                   \t6\t  -inf\n"
                           "Zmap                   \tall\t  -nan\n")


# 9. names and messages show what the user wrote: integers as integers, no numpy reprs, no added cutoff
def test_rel_beyond_float_integers_refused_and_labels_exact(tmp_path):
    import pandas as pd

    from helpers import measures
    q = pd.DataFrame({"query_id": ["t"], "doc_id": ["d"], "relevance": [3]})
    r = pd.DataFrame({"query_id": ["t"], "doc_id": ["d"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"rel must be a relevance level below 2\*\*53"):
        measures.evaluate(q, r, ["P(rel=18014398509481985)@5"], conventions="trec_eval")
    with pytest.raises(ValueError, match=r"below 2\*\*53 .* got 36028797018963968"):
        measures.with_default_rel(["AP"], 2 ** 55)
    label = measures.evaluate(q, r, ["P(rel=4503599627370497)@5"], conventions="trec_eval")["measure"].iat[0]
    assert label == "P(rel=4503599627370497)@5"


def test_cutoff_before_parameters_echoes_the_name_as_written(capsys):
    from helpers.measures import cli
    assert cli.expand_names(["R@3(rel=2)"], None) == ["R@3(rel=2)"]
    with pytest.raises(ValueError, match=r"^'R@3\(rel=2\)': .*parameters go before '@'"):
        from helpers import measures
        measures.parse_measures(cli.expand_names(["R@3(rel=2)"], None))


def test_numpy_scalars_never_reach_messages():
    import pandas as pd

    from helpers import measures
    q = pd.DataFrame({"query_id": ["t"], "doc_id": ["d"], "relevance": np.array([2 ** 60], dtype=np.int64)})
    r = pd.DataFrame({"query_id": ["t"], "doc_id": ["d"], "score": [1.0]})
    with pytest.raises(ValueError) as info:
        measures.evaluate(q, r, ["AP"], conventions="trec_eval")
    assert "level 1152921504606846976 is beyond" in str(info.value) and "np." not in str(info.value)


@pytest.mark.parametrize("score", [
    pd.to_datetime(["2024-01-02", "2024-01-01"]),
    pd.to_datetime(["2024-01-02", "2024-01-01"]).tz_localize("UTC"),
    pd.to_timedelta([2, 1], unit="s"),
    pd.Series([pd.Timestamp("2024-01-02"), 1.0], dtype=object),
])
def test_dates_in_a_score_column_are_refused_not_read_as_nanoseconds(score):
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": score})
    with pytest.raises(ValueError, match=r"run 'score' must hold numbers; row 0 has '.*' \(a date or duration"):
        measures.evaluate(qrels, run, ["AP"])


def test_dates_refused_by_the_shared_numeric_check_diversity_uses_too():
    from helpers.io.coerce import refuse_booleans

    with pytest.raises(ValueError, match=r"dqrels 'gain' must hold numbers; row 1 has '2024-01-02 00:00:00'"):
        refuse_booleans(pd.Series([1.0, pd.Timestamp("2024-01-02")], dtype=object), "dqrels 'gain'")
    with pytest.raises(ValueError, match=r"intents 'prob' must hold numbers; row 0 has '0 days 00:00:01'"):
        refuse_booleans(pd.to_timedelta([1], unit="s").to_numpy(), "intents 'prob'")
    refuse_booleans(np.array([0.5, 1.0]), "intents 'prob'")   # numbers pass
