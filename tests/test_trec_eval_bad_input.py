"""The third adversarial round's findings on ``python -m helpers trec_eval``, its readers and the
API (issue 40, section 2), each with an example of its own; docs/bad-input.md states each
behaviour (section "The trec_eval command")."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.io import trec, trec_eval_files
from helpers.measures.treceval import command
from helpers.paths import ROOT


def _files(tmp_path: Path, qrels: bytes, results: bytes) -> tuple[str, str]:
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(results)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def _run(capsysbinary, args: list[str]) -> tuple[int, bytes, str]:
    status = command.main(args)
    out = capsysbinary.readouterr()
    return status, out.out, out.err.decode("utf-8", "replace")


@pytest.mark.parametrize("inside", ["\u00a0", "\x1e", "\u2028", "\x1c", "\x1f"])
def test_ids_with_non_c_space_bytes_are_one_id_whatever_else_the_file_holds(tmp_path, capsysbinary, inside):
    """Two readers used to disagree: a comment line or an extra field sent the file to a slow path
    that split on U+00A0; now one tokenizer decides (C isspace only) for the command and the API."""
    doc = f"p{inside}7".encode()
    qrels = b"t9 0 " + doc + b" 2\nt9 0 p8 0\n"
    plain = b"t9 Q0 p8 1 4 tag\nt9 Q0 " + doc + b" 2 3 tag\n"
    variants = [plain, b"# a comment\n" + plain, plain.replace(b" tag\n", b" tag extra\n", 1)]
    outputs = set()
    for results in variants:
        q, r = _files(tmp_path, qrels, results)
        status, out, err = _run(capsysbinary, ["-m", "map", "-m", "num_rel_ret", q, r])
        assert status == 0, err
        outputs.add(out)
    assert outputs == {b"num_rel_ret           \tall\t1\nmap                   \tall\t0.5000\n"}
    # the API's readers keep the same id
    df = trec.read_qrels(q)
    assert df["doc_id"].tolist() == [doc.decode(), "p8"]
    run = trec.read_run(_files(tmp_path, qrels, plain)[1])
    assert run["doc_id"].tolist() == ["p8", doc.decode()]


def test_vertical_tab_and_form_feed_split_fields_in_both_readers(tmp_path, capsysbinary):
    """``\\v`` and ``\\f`` are C whitespace: trec_eval splits on them, so does every reader here (the
    API's C parser did not, and read ``d1\\vx`` as one id)."""
    q, r = _files(tmp_path, b"k1\x0b0\x0cd4 1\n", b"k1 Q0\x0bd4\x0c1 2.5 tag\n")
    status, out, _ = _run(capsysbinary, ["-m", "num_rel_ret", q, r])
    assert status == 0 and out == b"num_rel_ret           \tall\t1\n"
    assert trec.read_qrels(q)["doc_id"].tolist() == ["d4"]
    assert trec.read_run(r)["doc_id"].tolist() == ["d4"]


def test_topic_ids_that_differ_in_number_spelling_are_refused_by_command_and_api(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"7 0 a 1\n8 0 a 1\n", b"007 Q0 a 1 1 t\n8 Q0 a 1 1 t\n")
    status, out, err = _run(capsysbinary, ["-c", q, r])
    assert status == 2 and out == b""
    assert "results topic '007' and relevance topic '7'" in err and "differ only in how the number is written" in err
    with pytest.raises(ValueError, match="differ only in how the number is written"):
        M.evaluate(trec.read_qrels(q), trec.read_run(r), ["AP"])


@pytest.mark.parametrize("flag, value, what", [("-M", "-3", "-M (the documents kept per topic"),
                                               ("-N", "-2", "-N (the number of documents"),
                                               ("-M", "4.5", "-M takes an integer")])
def test_negative_or_non_integer_counts_are_usage_errors(tmp_path, capsysbinary, flag, value, what):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 t\n")
    status, out, err = _run(capsysbinary, [flag, value, q, r])
    lines = err.strip().split("\n")
    assert status == 1 and out == b"" and len(lines) == 2
    assert lines[0].startswith(f"trec_eval: {what}") and lines[1].startswith("usage: python -m helpers trec_eval")


@pytest.mark.parametrize("measure, message", [
    ("ndcg.2=y", "value of 2 'y' in '2=y' is not a number"),
    ("utility.1,0,q,0", "parameter 'q' in '1,0,q,0' is not a number"),
    ("ndcg.lvl=3", "parameter name 'lvl' in 'lvl=3' is not an integer level"),
    ("rbp.q=0.5", "parameter name 'q' in 'q=0.5' is not an integer level or p"),
    ("ndcg.2=inf", "value of 2 'inf' in '2=inf' is not a finite number"),
    ("recall.3,,7", "an empty cutoff in '3,,7'"),
    ("success.2e1", "cutoff '2e1' in '2e1' is not an integer (trec_eval's atol would read it as 2)"),
])
def test_measure_parameters_that_are_not_numbers_are_refused(tmp_path, capsysbinary, measure, message):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 t\n")
    status, out, err = _run(capsysbinary, ["-m", measure, q, r])
    assert status == 2 and out == b"" and message in err and err.count("\n") == 1


def test_decimal_cutoff_is_cut_as_trec_eval_cuts_it(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 t\n")
    status, out, _ = _run(capsysbinary, ["-m", "P.3.9", q, r])
    assert status == 0 and out == b"P_3                   \tall\t0.3333\n"


def test_a_measure_named_twice_with_other_parameters_is_refused(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 t\n")
    status, out, err = _run(capsysbinary, ["-m", "ndcg_cut.5", "-m", "ndcg_cut.20", q, r])
    assert status == 1 and out == b""
    assert "would use the first one only and drop '20'" in err and "-m ndcg_cut.5,20" in err
    status, out, _ = _run(capsysbinary, ["-m", "ndcg_cut.5", "-m", "ndcg_cut.5", "-m", "ndcg_cut", q, r])
    assert status == 0 and out == b"ndcg_cut_5            \tall\t1.0000\n"


def test_an_empty_run_frame_is_refused():
    qrels = pd.DataFrame({"query_id": ["u"], "doc_id": ["d"], "relevance": [1]})
    empty = pd.DataFrame({"query_id": pd.Series([], dtype=str), "doc_id": pd.Series([], dtype=str),
                          "score": pd.Series([], dtype=float)})
    with pytest.raises(ValueError, match="run has no rows"):
        M.evaluate(qrels, empty, ["AP", "P@5"])


def test_huge_relevance_levels_cost_what_small_ones_cost(tmp_path, capsysbinary):
    """A level of 123,456,789,012 sized a per-level table (1.8 TiB); the histogram now has a column
    per level that occurs. Same values as levels {0, 1} (binary measures) and peak memory within
    a small factor of the level-2 run, in the command and in the API."""
    def peak(level: int):
        qrels = b"".join(f"w{t} 0 d{i} {level if i % 3 == 0 else 0}\n".encode() for t in range(5) for i in range(30))
        results = b"".join(f"w{t} Q0 d{i} {i} {100 - i} tag\n".encode() for t in range(5) for i in range(40))
        q, r = _files(tmp_path, qrels, results)
        tracemalloc.start()
        status, out, err = _run(capsysbinary, ["-m", "map", "-m", "P.10", "-m", "ndcg_cut.10", q, r])
        api = M.evaluate(trec.read_qrels(q), trec.read_run(r), ["AP", "MSnDCG@10"], conventions="trec_eval")
        used = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert status == 0, err
        return used, out, api

    small, out_small, api_small = peak(1)
    huge, out_huge, api_huge = peak(123_456_789_012)
    assert out_huge == out_small           # map, P, ndcg with one relevant level do not see its value
    assert np.allclose(api_huge["value"].to_numpy(), api_small["value"].to_numpy())
    assert huge < 2 * small + (8 << 20), (small, huge)


def test_out_of_memory_is_one_line_naming_what(tmp_path, capsysbinary, monkeypatch):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 t\n")

    def boom(*args, **kwargs):
        raise MemoryError("Unable to allocate 1.46 TiB for an array with shape (199999999999,)")

    from helpers.measures.treceval import evaluation, quick

    for module, name in ((quick, "evaluate_quick"), (evaluation, "evaluate")):   # both engines of the command
        with monkeypatch.context() as patch:
            patch.setattr(module, name, boom)
            status, out, err = _run(capsysbinary, [q, r] if module is quick else ["-m", "infAP", q, r])
        assert status == 2 and out == b"" and err.startswith("trec_eval: out of memory") and err.count("\n") == 1
    # and `python -m helpers evaluate` (its net in helpers.__main__)
    import helpers.__main__ as entry
    from helpers.measures import cli

    monkeypatch.setattr(cli, "main", boom)
    assert entry.main(["evaluate", "--qrels", q, "--run", r]) == 2
    err = capsysbinary.readouterr().err.decode()
    assert err.startswith("python -m helpers evaluate: error: out of memory") and "1.46 TiB" in err
    assert "Traceback" not in err


def test_output_closed_early_exits_2_with_one_line(tmp_path):
    """``... | head -1``: the reader goes away; trec_eval dies of SIGPIPE (141), the command says so
    in one line and exits 2 (the output is larger than a pipe holds, so the write must notice)."""
    qrels = b"".join(f"v{t} 0 d{i} {i % 2}\n".encode() for t in range(300) for i in range(20))
    results = b"".join(f"v{t} Q0 d{i} {i} {50 - i} tag\n".encode() for t in range(300) for i in range(20))
    q, r = _files(tmp_path, qrels, results)
    proc = subprocess.Popen([sys.executable, "-m", "helpers", "trec_eval", "-q", "-m", "all_trec", q, r],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 2 and first.startswith(b"num_ret")
    assert err.strip() == "python -m helpers trec_eval: note: output closed early (broken pipe); stopped"


def test_cr_only_line_ends_with_a_comment_get_their_own_message(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"# judged by A3\rz 0 e1 1\rz 0 e2 0\r", b"z Q0 e1 1 2 tag\n")
    status, out, err = _run(capsysbinary, [q, r])
    assert status == 2 and out == b""
    assert f"{q}:1: expected lines that end with LF or CR LF, got a carriage return (CR) followed by more text" in err
    assert "CR-only line ends" in err and "without a data line" not in err
    with pytest.raises(ValueError, match="CR-only line ends"):
        trec.read_qrels(q)


def test_nbsp_id_beside_a_comment_is_read_not_miscounted(tmp_path, capsysbinary):
    q, r = _files(tmp_path, "z 0 e\u00a0k 1\n".encode(), "#run of team B\nz Q0 e\u00a0k 1 2 tag\n".encode())
    status, out, err = _run(capsysbinary, ["-m", "map", q, r])
    assert status == 0 and out == b"map                   \tall\t1.0000\n" and "fields" not in err


def test_negative_gain_value_names_file_and_line(tmp_path, capsys):
    from helpers.measures import cli

    q, r = _files(tmp_path, b"h 0 x1 1.5\nh 0 x2 -0.5\n", b"h Q0 x1 1 2 tag\n")
    assert cli.main(["--qrels", q, "--run", r, "--gain-values"]) == 2
    err = capsys.readouterr().err
    assert f"{q}:2: expected" in err and "gain) >= 0" in err and "'h 0 x2 -0.5'" in err and "np.float64" not in err


def test_complex_scores_and_two_score_columns_are_refused():
    qrels = pd.DataFrame({"query_id": ["h"], "doc_id": ["x1"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["h", "h"], "doc_id": ["x1", "x2"], "score": [2 + 0j, 1 + 1j]})
    with pytest.raises(ValueError, match=r"run 'score' must hold real numbers; row 0 has \(2\+0j\) \(a complex"):
        M.evaluate(qrels, run, ["AP"])
    two = pd.DataFrame([["h", "x1", 1.0, 3.0]], columns=["query_id", "doc_id", "score", "score"])
    with pytest.raises(ValueError, match="run has 2 columns named 'score'"):
        M.evaluate(qrels, two, ["AP"])


def test_usage_errors_exit_1_with_the_problem_then_the_usage(tmp_path, capsysbinary):
    """Chosen: trec_eval's status for a bad command line (1, as NIST's program: scripts test it),
    the problem on one line and the usage on the next (docs/bad-input.md says so)."""
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 t\n")
    for args in (["--bogus", q, r], ["-l", "high", q, r], [q], ["--out-dir", str(tmp_path), q, r]):
        status, out, err = _run(capsysbinary, args)
        lines = err.rstrip("\n").split("\n")
        assert status == 1 and out == b"" and len(lines) == 2, (args, err)
        assert lines[0].startswith("trec_eval: ") and lines[1].startswith("usage: ")


def test_many_runs_prints_each_files_output(tmp_path, capsysbinary):
    q, r1 = _files(tmp_path, b"u 0 d 1\nu 0 e 0\n", b"u Q0 d 1 1 one\n")
    r2 = tmp_path / "run2"
    r2.write_bytes(b"u Q0 e 1 2 two\nu Q0 d 2 1 two\n")
    bad = tmp_path / "bad"
    bad.write_bytes(b"u Q0 d 1 x two\n")
    single = [_run(capsysbinary, ["-m", "map", q, r])[1] for r in (r1, str(r2))]
    status, out, err = _run(capsysbinary, ["-m", "map", "--many-runs", q, r1, str(bad), str(r2)])
    assert status == 2 and f"{bad}:1: expected" in err
    assert out == f"==> {r1} <==\n".encode() + single[0] + f"==> {r2} <==\n".encode() + single[1]
    folder = tmp_path / "out"
    folder.mkdir()
    status, out, _ = _run(capsysbinary, ["-m", "map", "--many-runs", "--out-dir", str(folder), q, r1, str(r2)])
    assert status == 0 and out == b""
    assert [(folder / f"{Path(r).name}.trec_eval").read_bytes() for r in (r1, r2)] == single


def test_trec_eval_readers_need_no_pandas():
    """The command's path imports numpy only (start-up): checked in a fresh interpreter."""
    code = ("import sys; from helpers.measures.treceval import command; "
            "print(sorted(m for m in ('pandas', 'scipy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr
    assert trec_eval_files.qrels_file.__module__ == "helpers.io.trec_eval_files"


@pytest.mark.parametrize("fmt, rel, measure", [
    ("qrels", b"u 0 d1 1\nu 0 d2 0\n", "map"),
    ("qrels_jg", b"u A d1 1\nu A d2 0\n", "map_avgjg"),
    ("prefs", b"u A s d1 1\nu A s d2 0\n", "prefs_simp"),
    ("qrels_prefs", b"u 0 d1 1\nu 0 d2 0\n", "prefs_simp"),
])
def test_a_document_retrieved_twice_is_refused_in_every_rel_format(tmp_path, capsysbinary, fmt, rel, measure):
    """trec_eval stops on a document retrieved twice among a topic's first -M ("duplicate docs")
    whatever -R says; -R qrels_jg and prefs printed numbers here (map_avgjg 1.0000 for d1 twice),
    or a pandas traceback when the document was judged. Which documents -M keeps depends on the
    tie order: decreasing id for qrels and qrels_jg, increasing for the preference measures."""
    twice = b"u Q0 d1 1 1 t\nu Q0 d2 2 1 t\nu Q0 d1 3 1 t\n"      # one score: tie order decides -M 2
    q, r = _files(tmp_path, rel, twice)
    status, out, err = _run(capsysbinary, ["-R", fmt, "-m", measure, q, r])
    assert status == 2 and out == b""
    assert err == (f"trec_eval: {r}:3: expected each document at most once per topic in the results, got doc_id "
                   "'d1' of topic 'u' again (first on line 1); trec_eval stops there too ('duplicate docs')\n")
    status, out, err = _run(capsysbinary, ["-M", "2", "-R", fmt, "-m", measure, q, r])
    prefs = fmt.endswith("prefs")         # keeps d1, d1 (refused); the others keep d2, d1 (scored)
    assert (status, out == b"") == ((2, True) if prefs else (0, False)), err
    assert ("'d1' of topic 'u' again" in err) == prefs


def test_a_document_ranked_twice_is_refused_by_the_api():
    """The API's judgment-group and preference scores refused nothing: AP 2.0 for a document
    ranked twice, or pandas' 'Reindexing only valid with uniquely valued Index objects'."""
    from helpers.measures.treceval.groups import judgment_group_scores
    from helpers.measures.treceval.prefs import preference_scores

    run = pd.DataFrame({"query_id": ["u", "u"], "doc_id": ["d1", "d1"], "score": [1.0, 0.5]})
    qrels_jg = pd.DataFrame({"query_id": ["u"], "jg": ["A"], "doc_id": ["d1"], "relevance": [1]})
    prefs = pd.DataFrame({"query_id": ["u", "u"], "jg": ["A", "A"], "jsg": ["s", "s"], "doc_id": ["d1", "d2"],
                          "rel_level": [1.0, 0.0]})
    message = "expected each document at most once per topic, got doc_id 'd1' of topic 'u' 2 times"
    with pytest.raises(ValueError, match=message):
        judgment_group_scores(qrels_jg, run, ["AP"])
    with pytest.raises(ValueError, match=message):
        preference_scores(prefs, run)


def test_rbp_beside_other_measures_says_trec_eval_reads_unset_memory(tmp_path, capsysbinary, nist):
    """trec_eval 10's rbp rescales gains outside [0, 1] with min and max it never sets (m_rbp.c):
    beside ndcg it printed 0.1019 for topic A (levels 0..3), alone 0.1233. The command prints the
    definition, the same with or without other measures, and one note per call (not per file)."""
    q, r = _files(tmp_path, b"A 0 d1 0\nA 0 d2 3\nA 0 d3 1\nB 0 d1 1\nB 0 d2 0\n",
                  b"A Q0 d3 1 3 r\nA Q0 d2 2 2 r\nB Q0 d1 1 3 r\n")

    def rbp_lines(out: bytes) -> list[bytes]:
        return [x for x in out.split(b"\n") if x.startswith(b"rbp ")]

    alone = subprocess.run([str(nist), "-q", "-m", "rbp", q, r], capture_output=True, check=True).stdout
    status, out, err = _run(capsysbinary, ["-q", "-m", "rbp", q, r])
    assert status == 0 and out == alone and err == ""          # alone: no note, trec_eval's bytes
    assert rbp_lines(out)[0].endswith(b"\tA\t0.1233")
    status, out, err = _run(capsysbinary, ["-q", "-m", "ndcg", "-m", "rbp", q, r])
    assert status == 0 and rbp_lines(out) == rbp_lines(alone)
    assert err.count("\n") == 1 and err.startswith("trec_eval: note: rbp: ") and "(1 here)" in err, err
    # topic B's gains (0, 1) stay in [0, 1]: no note when only such topics are evaluated
    (tmp_path / "b").mkdir()
    qb, rb = _files(tmp_path / "b", b"B 0 d1 1\nB 0 d2 0\n", b"B Q0 d1 1 3 r\n")
    assert _run(capsysbinary, ["-m", "ndcg", "-m", "rbp", qb, rb])[2] == ""
    status, out, err = _run(capsysbinary, ["-m", "ndcg", "-m", "rbp", "--many-runs", q, r, r])
    assert status == 0 and err.count("note: rbp") == 1, err


@pytest.mark.parametrize("args", [["-m", "rbp.0=2"], ["-m", "rbp.0=-1"], ["-m", "rbp.0=0.5,1=3"], ["-l", "0", "-m", "Rndcg"]])
def test_a_topic_whose_gains_are_all_equal_prints_trec_evals_bytes(tmp_path, capsysbinary, nist, args):
    """Gains all 2 (rbp.0=2, one judged level): the range of the gains alone is 0/0 (nan, and a
    nan mean over every topic); trec_eval's min and max start at 0, so the range is 0..2 and the
    value 0.1000. Rndcg with -l 0 is 0/0 in trec_eval too: printed '-nan' (x86-64's sign), not 'nan'."""
    q, r = _files(tmp_path, b"3 0 x 0\n4 0 y 1\n4 0 z 0\n", b"3 Q0 x 1 1 r\n4 Q0 z 1 2 r\n4 Q0 y 2 1 r\n")
    theirs = subprocess.run([str(nist), "-q", *args, q, r], capture_output=True, check=True).stdout
    status, out, err = _run(capsysbinary, ["-q", *args, q, r])
    assert status == 0 and out == theirs, (out, theirs)
    assert b" nan" not in out


def test_out_dir_refuses_two_results_files_that_would_write_one_output(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 one\n")
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "run.txt").write_bytes(b"u Q0 d 1 1 " + sub.encode() + b"\n")
    folder = tmp_path / "out"
    for files in ([str(tmp_path / "a" / "run.txt"), str(tmp_path / "b" / "run.txt")], [r, r]):
        status, out, err = _run(capsysbinary, ["--many-runs", "--out-dir", str(folder), q, *files])
        assert status == 1 and out == b"" and "would both write" in err and not folder.exists(), err
    afile = tmp_path / "afile"
    afile.write_bytes(b"keep")
    status, _, err = _run(capsysbinary, ["--many-runs", "--out-dir", str(afile), q, r])
    assert status == 1 and "not a folder" in err and afile.read_bytes() == b"keep", err


def test_a_level_the_gain_mapping_misses_is_named_by_file_and_line(tmp_path):
    """`evaluate --gains 1` on a qrels with a level 2: the message names qrels:line (it said 'row 1')."""
    q, r = _files(tmp_path, b"q 0 a 1\nq 0 b 0\nq 0 c 2\n", b"q Q0 a 1 3 r\nq Q0 c 2 2 r\n")
    done = subprocess.run([sys.executable, "-m", "helpers", "evaluate", "--qrels", q, "--run", r, "--gains", "1",
                           "--measures", "nDCG@10"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and f"{q}:3: qrels relevance level L2 (topic 'q', document 'c')" in done.stderr, \
        done.stderr


@pytest.mark.parametrize("ids", [pd.to_datetime(["2020-01-01"] * 3), pd.Series([True, True, False], dtype=object),
                                 pd.Series([1.0, 1.0, 2.0], dtype=object), pd.Series([1.0, 1.0, 2.0])])
def test_id_columns_that_are_not_strings_or_integers_are_refused(ids):
    """A datetime column was spelled '2020-01-01 00:00:00' in one frame and '2020-01-01' in the
    other ("shares no topic"); object columns of booleans or floats passed the dtype check."""
    qrels = pd.DataFrame({"query_id": ids, "doc_id": ["a", "b", "c"], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query_id": ids, "doc_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match="only strings and integers are ids"):
        M.evaluate(qrels, run, ["AP"], conventions="trec_eval")
    ok = pd.Series(["1", "1", "2"], dtype="category")
    assert len(M.evaluate(qrels.assign(query_id=ok), run.assign(query_id=ok), ["AP"], conventions="trec_eval"))


# --- the fifth probe round (issue 40): each class with an example of its own ----------------------------------

@pytest.mark.parametrize("args, status, said", [
    (["-m", "bpref.5"], 2, "measure 'bpref' takes no parameters, got '.5'"),       # trec_eval prints 'bpref'
    (["-m", "map.5"], 2, "(cutoffs: map_cut.5)"),
    (["-m", "rbp.p=0.9,p=0.5"], 2, "p given twice"),                                  # trec_eval uses the last
    (["-m", "ndcg.1=2", "-m", "ndcg.1=3"], 1, "each level or name once"),           # no cutoff hint for gains
    (["-R", "qrels_jg", "-m", "map"], 4, "needs -R qrels"),                          # trec_eval: exit 4
])
def test_parameters_trec_eval_would_ignore_or_reread_are_refused(tmp_path, capsysbinary, args, status, said):
    q, r = _files(tmp_path, b"u 0 d 1\nu 0 e 0\n", b"u Q0 d 1 1 one\n")
    got, out, err = _run(capsysbinary, args + [q, r])
    assert got == status and out == b"" and said in err, err


def test_no_evaluated_topic_exits_as_trec_eval_does(tmp_path, capsysbinary, nist):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 one\n")
    theirs = subprocess.run([str(nist), "-D", "0.zz", q, r], capture_output=True).returncode
    assert _run(capsysbinary, ["-D", "0.zz", q, r])[0] == theirs == 7


def test_a_missing_z_score_is_said_not_averaged_silently(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"A 0 d 1\nB 0 d 1\n", b"A Q0 d 1 1 one\nB Q0 d 1 1 one\n")
    (tmp_path / "z").write_bytes(b"A map 0.5 0.25\n")
    status, out, err = _run(capsysbinary, ["-q", "-Z", str(tmp_path / "z"), "-m", "map", q, r])
    assert status == 0 and b"\tB\t-1000000.0000" in out
    assert "note: -Z: 1 value(s) have no usable z-score entry (first: topic 'B', map)" in err


def test_out_dir_never_writes_over_an_input(tmp_path, capsysbinary):
    q, r = _files(tmp_path, b"u 0 d 1\n", b"u Q0 d 1 1 one\n")
    (tmp_path / "run.trec_eval").write_bytes(b"u 0 d 1\n")          # the qrels, named like an output
    status, _, err = _run(capsysbinary, ["--many-runs", "--out-dir", str(tmp_path), str(tmp_path / "run.trec_eval"), r])
    assert status == 1 and "which is the input file" in err and (tmp_path / "run.trec_eval").read_bytes() == b"u 0 d 1\n"


def test_integer_scores_float64_cannot_order_are_refused():
    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "relevance": [1, 2, 0]})
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"],
                        "score": np.array([2**53 + 2, 2**53 + 1, 2**53], dtype="int64")})
    with pytest.raises(ValueError, match=r"run 'score' holds integers beyond 2\*\*53 \(row 0 has 9007199254740994\)"):
        M.evaluate(qrels, run, ["AP"], conventions="trec_eval")
    small = run.assign(score=np.array([3, 2, 1], dtype="uint64"))
    assert M.evaluate(qrels, small, ["AP"], conventions="trec_eval")["value"].tolist() == [1.0]


@pytest.mark.parametrize("qrels, run", [(b"1 0 d1 \xe0\xbc\xa1\n1 0 d2 1\n", b"1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n"),
                                        (b"1 0 d1 1\n1 0 d2 1\n", b"1 Q0 d1 \xd9\xa1 1 r\n1 Q0 d2 2 1 r\n")])
def test_digits_of_other_scripts_are_not_numbers(tmp_path, qrels, run):
    """U+0F21 and U+0661 are digits to Python's \\d and int(); trec_eval's atol reads them as 0."""
    q, r = _files(tmp_path, qrels, run)
    done = subprocess.run([sys.executable, "-m", "helpers", "evaluate", "--qrels", q, "--run", r, "--measures", "AP"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and ":1: expected" in done.stderr and "field 4" in done.stderr, done.stderr


def test_a_negative_rel_is_a_level_not_a_collection(tmp_path):
    q, r = _files(tmp_path, b"1 0 d1 1\n", b"1 Q0 d1 1 2 r\n")
    done = subprocess.run([sys.executable, "-m", "helpers", "evaluate", "--qrels", q, "--run", r, "--rel", "-1"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "--rel must be an integer level >= 1" in done.stderr, done.stderr


# --- the fourth probe round (issue 40): each class with an example of its own ---

def test_gains_given_as_a_measure_parameter_are_checked_for_overflow_like_gains(tmp_path, capsysbinary):
    """Every path by which gains reach a measure refuses sums past GAIN_TOTAL_LIMIT: trec_eval's
    ``gains=`` parameter (API and command), diversity gains and evaluate_arrays (was 0.0 after a
    numpy overflow warning for ``MSnDCGg(gains=1:1e308)``)."""
    import warnings

    from helpers.measures import diversity
    from helpers.measures.kernels import evaluate_arrays

    qrels = pd.DataFrame({"query_id": ["k"] * 2, "doc_id": ["u", "v"], "relevance": [2, 2]})
    run = pd.DataFrame({"query_id": ["k"] * 2, "doc_id": ["v", "w"], "score": [2.0, 1.0], "run_id": ["z"] * 2})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for spec in ("G(gains=2:7e299)", "MSnDCGg(gains=1:1;2:-7e299)"):
            with pytest.raises(ValueError, match=r"sum to more than 1e\+300 .*divide every gain"):
                M.evaluate(qrels, run, measures=[spec])
        assert M.evaluate(qrels, run, measures=["G(gains=2:4e299)"])["value"].notna().all()
        dq = qrels.assign(intent_id="i")
        intents = pd.DataFrame({"query_id": ["k"], "intent_id": ["i"], "prob": [1.0], "kind": ["inf"]})
        with pytest.raises(ValueError, match=r"dqrels gain 6e\+299 .*doc_id='u'"):
            diversity.evaluate(dq, intents, run, ["D-nDCG@5"], gains={2: 6e299})
        with pytest.raises(ValueError, match=r"ideal_gains\[1\] \(list 1\)"):
            evaluate_arrays(np.ones((2, 2)), np.array([[1.0, 1.0], [9e299, 9e299]]), ["nDCG@2"])
    q, r = _files(tmp_path, b"k 0 u 2\nk 0 v 2\n", b"k Q0 v 1 2 z\nk Q0 w 2 1 z\n")
    status, out, err = _run(capsysbinary, ["-m", "ndcg.2=7e299", q, r])
    assert status == 2 and out == b"" and "-m ndcg.2=7e+299" in err and "Warning" not in err, err


def test_trec_eval_misorder_refusal_names_the_cause_that_applies(tmp_path, capsysbinary):
    """The refusal said 'differ by less than 1' for integer gains past 2^31 too; it names each cause."""
    q, r = _files(tmp_path, b"s 0 a 1\ns 0 b 3\n", b"s Q0 a 1 2 z\ns Q0 b 2 1 z\n")
    status, _, err = _run(capsysbinary, ["-q", "-m", "ndcg.1=5000000000,3=2", q, r])
    assert status == 2 and "differ by 2^31 or more" in err and "less than 1" not in err, err
    assert "--measures 'MSnDCGg(gains=1:5000000000.0;3:2.0)'" in err


def test_an_empty_topic_after_the_debug_dot_selects_no_topic(tmp_path, capsysbinary, nist):
    """``-D 2.`` names the empty topic (trec_eval: no query, status 7); it was read as no -D topic."""
    q, r = _files(tmp_path, b"w 0 d 1\n", b"w Q0 d 1 1 one\n")
    theirs = subprocess.run([str(nist), "-D", "2.", q, r], capture_output=True)
    status, out, err = _run(capsysbinary, ["-D", "2.", q, r])
    assert status == theirs.returncode == 7 and out == theirs.stdout == b""
    assert "No queries with both results and relevance info" in err


def test_a_self_contradicting_preference_group_is_named_by_file_lines_and_documents(tmp_path, capsysbinary):
    """Both refusals of a judgment group name the file, the lines and the documents (was 'internal
    documents 0 and 1', and a topic/group/document without file:line), in the command and the API."""
    from helpers.io import judgment_groups
    from helpers.measures.treceval.prefs import preference_scores

    cyclic = b"# comment\nT jA a x 3\nT jA a y 1\nT jA b y 2\nT jA b z 1\nT jA c z 5\nT jA c x 0.5\nT jB a w 1\n"
    q, r = _files(tmp_path, cyclic, b"T Q0 x 1 3 one\nT Q0 y 2 2 one\n")
    status, out, err = _run(capsysbinary, ["-R", "prefs", "-m", "prefs_simp", q, r])
    assert status == 2 and out == b"", err
    assert f"{q}: lines 2, 3, 4, 5, 6, 7: topic 'T', judgment group 'jA'" in err
    assert "documents " in err and "internal" not in err and "status 134" in err
    mixed = b"T g s1 p 0\nT g s2 p 4\nT g s2 o 1\n"
    (tmp_path / "m").write_bytes(mixed)
    run = pd.DataFrame({"query_id": ["T"], "doc_id": ["p"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"m: lines 1, 2: topic 'T', judgment group 'g': document 'p' has both"):
        preference_scores(judgment_groups.read_prefs(tmp_path / "m"), run)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_standard_output_is_named_with_the_program(tmp_path):
    """``> /dev/full``: one line naming the program and standard output (was ``error: No space left
    on device``), status 2, for both commands."""
    q, r = _files(tmp_path, b"h 0 e 1\n", b"h Q0 e 1 1 x\n")
    for args in (["trec_eval", q, r], ["evaluate", "--qrels", q, "--run", r, "--measures", "AP"]):
        with open("/dev/full", "wb") as full:
            done = subprocess.run([sys.executable, "-m", "helpers", *args], stdout=full, stderr=subprocess.PIPE,
                                  cwd=ROOT, timeout=120)
        last = done.stderr.decode().strip().splitlines()[-1]
        assert done.returncode == 2, done.stderr
        assert last == f"python -m helpers {args[0]}: error: standard output: No space left on device", done.stderr
        assert "Exception ignored" not in done.stderr.decode()
