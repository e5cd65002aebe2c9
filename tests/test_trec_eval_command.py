"""``python -m helpers trec_eval`` against trec_eval's own test suite (tests/data/trec_eval, NIST's
files with their notice), and its command line on bad input.

Every command of trec_eval's ``quicktest.make`` is run through the command; every line trec_eval
prints must be printed (same measure, topic, order), every value within 1e-4, and at least 99% of
the lines byte-identical (the share is printed with ``-s``).
"""

from __future__ import annotations

import functools
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.measures.treceval import command
from helpers.paths import ROOT

SUITE = ROOT / "tests" / "data" / "trec_eval"


def _quicktest() -> list[tuple[list[str], str]]:
    cases = []
    for line in (SUITE / "quicktest.make").read_text().splitlines():
        if "./trec_eval" not in line:
            continue
        cmd, expected = line.split("|")
        args = [a.replace("test/", f"{SUITE}/") for a in shlex.split(cmd.strip())[1:]]
        cases.append((args, expected.split()[-1].removeprefix("test/")))
    return cases


CASES = _quicktest()


@functools.lru_cache(maxsize=None)
def _output(key: tuple[str, ...]) -> list[str]:
    return command.run(command.parse_args(list(key)))


def _value(field: str) -> float | str:
    try:
        return float(field)
    except ValueError:
        return field


def test_suite_is_complete():
    assert len(CASES) == 15 and (SUITE / "LICENSE.md").read_text().startswith("The code for the original trec_eval")


@pytest.mark.parametrize("args, expected", CASES, ids=[f"{i:02d}-{e}" for i, (_, e) in enumerate(CASES)])
def test_quicktest_command(args, expected):
    got = _output(tuple(args))
    want = (SUITE / expected).read_text().splitlines()
    assert len(got) == len(want), f"{len(got)} lines printed, trec_eval prints {len(want)}"
    for g, w in zip(got, want):
        gf, wf = g.split("\t"), w.split("\t")
        assert gf[:2] == wf[:2], f"printed {g!r} where trec_eval prints {w!r}"
        a, b = _value(gf[2]), _value(wf[2])
        if isinstance(a, float) and isinstance(b, float):
            assert abs(a - b) <= 1e-4 + 1e-12, f"{g!r} vs trec_eval's {w!r}"
        else:
            assert a == b, f"{g!r} vs trec_eval's {w!r}"


def test_quicktest_lines_byte_identical():
    same = total = 0
    for args, expected in CASES:
        want = (SUITE / expected).read_text().splitlines()
        got = _output(tuple(args))
        same += sum(g == w for g, w in zip(got, want))
        total += len(want)
    print(f"byte-identical lines: {same} of {total} ({same / total:.4%})")
    assert same / total >= 0.99


def _files():
    return str(SUITE / "qrels.test"), str(SUITE / "results.test")


def test_module_entry_point_and_stdin():
    q, r = _files()
    proc = subprocess.run([sys.executable, "-m", "helpers", "trec_eval", "-m", "map", q, "-"],
                          input=Path(r).read_bytes(), capture_output=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().splitlines() == _output(("-m", "map", q, r))


def test_no_summary_and_one_topic():
    q, r = _files()
    full = _output(("-q", "-m", "P.5", q, r))
    assert command.run(command.parse_args(["-q", "-n", "-m", "P.5", q, r])) == [x for x in full if "\tall\t" not in x]
    only = command.run(command.parse_args(["-q", "-D", "1.302", "-m", "P.5", q, r]))
    assert [x for x in only if "\tall\t" not in x] == [x for x in full if "\t302\t" in x]


def test_judged_only_equals_dropping_unjudged_documents(tmp_path):
    q, r = _files()
    judged = {tuple(line.split()[::2][:2]) for line in Path(q).read_text().splitlines()}
    kept = [line for line in Path(r).read_text().splitlines() if (line.split()[0], line.split()[2]) in judged]
    (tmp_path / "judged.run").write_text("\n".join(kept) + "\n")
    a = command.run(command.parse_args(["-q", "-J", "-m", "all_trec", q, r]))
    b = command.run(command.parse_args(["-q", "-m", "all_trec", q, str(tmp_path / "judged.run")]))
    assert len(kept) < len(Path(r).read_text().splitlines()) and a == b


def test_collection_size_enters_utility():
    q, r = _files()
    def values(lines):
        return {x.split("\t")[0].strip(): float(x.split("\t")[2]) for x in lines if "\tall\t" in x}

    base = values(_output(("-m", "utility.0,0,0,1", q, r)))
    big = values(command.run(command.parse_args(["-N", "1000", "-m", "utility.0,0,0,1", q, r])))
    assert big["utility_0,0,0,1"] - base["utility_0,0,0,1"] == pytest.approx(1000.0)


@pytest.mark.parametrize("args, status, message", [
    (["-m", "bogus"], 1, "illegal measure 'bogus'"),
    (["-m", "P."], 1, "improper measure in parameter 'P'"),
    (["-l", "x"], 1, "-l takes an integer"),
    (["-l", "-1"], 1, "-l (the lowest relevant level) must be >= 0"),
    (["--bogus"], 1, "option --bogus not recognized"),
    (["-m", "P.5,5"], 2, "cutoffs must be distinct"),
    (["-m", "P.0,5"], 2, "cutoffs are ranks from 1, got 0 in '0,5' (trec_eval refuses it too)"),
    (["-m", "P.-5"], 2, "cutoffs are ranks from 1, got -5 in '-5'"),
    (["-l", "99999999999999999999"], 1, "-l 99999999999999999999 is beyond the range of trec_eval's integers"),
    (["-M", "-9223372036854775809"], 1, "-M -9223372036854775809 is beyond the range of trec_eval's integers"),
    (["-m", "ndcg_cut.9223372036854775808"], 2, "cutoff '9223372036854775808' in '9223372036854775808' is beyond"),
    (["-m", "utility.1,2,3"], 2, "utility needs four coefficients"),
    (["-m", "ndcg.1"], 2, "malformed pair parameters"),
    (["-m", "11pt_avg..5,.2"], 2, "recall points must be in increasing order"),
    (["-R", "qrels_jg", "-m", "map"], 4, "measure 'map' needs -R qrels"),      # trec_eval: Can't calculate, 4
    (["-m", "prefs_simp"], 4, "measure 'prefs_simp' needs -R prefs or -R qrels_prefs"),
    (["-R", "bogus"], 2, "Illegal rel_format 'bogus'"),
    (["-T", "bogus"], 2, "Illegal retrieval results format 'bogus'"),
])
def test_bad_command_lines(capsys, args, status, message):
    q, r = _files()
    assert command.main(args + [q, r]) == status
    assert message in capsys.readouterr().err


def test_a_zero_cutoff_is_not_called_negative(capsys):
    """Issue 40 (round 3): `-m success.0` said "cutoffs must be positive (Negative cutoff detected)"."""
    q, r = _files()
    assert command.main(["-m", "success.0", q, r]) == 2
    err = capsys.readouterr().err
    assert err == "trec_eval: cutoffs are ranks from 1, got 0 in '0' (trec_eval refuses it too)\n"
    assert "egative" not in err


def test_limits_of_trec_eval_integers_are_kept_inside_a_c_long(capsys):
    """The largest C long is read; one more is refused (atol is undefined beyond it; glibc clamps,
    so `P.99999999999999999999` printed P_99999999999999999999 where trec_eval prints P_9223372036854775807)."""
    q, r = _files()
    assert command.main(["-M", "9223372036854775807", "-l", "9223372036854775807", "-m", "P.9223372036854775807",
                         q, r]) == 0
    assert capsys.readouterr().out == "P_9223372036854775807 \tall\t0.0000\n"   # NIST's bytes
    assert command.main(["-m", "P.99999999999999999999", q, r]) == 2
    assert "beyond the range of trec_eval's integers (a C long, up to 9223372036854775807)" in capsys.readouterr().err


def test_wrong_number_of_files_and_help(capsys):
    assert command.main(["-m", "map", "only-one-file"]) == 1
    assert "expected two files" in capsys.readouterr().err
    assert command.main(["-h"]) == 0
    out = capsys.readouterr().out
    assert "iprec_at_recall" in out and "all_trec" in out
    assert command.main(["-v"]) == 0 and "trec_eval" in capsys.readouterr().err


@pytest.mark.parametrize("qrels, results, message", [
    ("1 0 d1 1\n", "2 Q0 d1 1 1.0 r\n", "No queries with both results and relevance info"),
    ("1 0 d1 1\n1 0 d2 x\n", "1 Q0 d1 1 1.0 r\n", "qrels:2: expected"),
    ("1 0 d1 1\n", "1 Q0 d1 1 1.0 r\n1 Q0 d2 2 high r\n", "run:2: expected"),
    ("1 0 d1 1\n", "1 Q0 d1 1 1.0 r\n1 Q0 d1 2 0.5 r\n", "run:2: expected each document at most once"),
])
def test_bad_files(tmp_path, capsys, qrels, results, message):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(results)
    status = 7 if message.startswith("No queries") else 2          # trec_eval's exit status there: 7
    assert command.main(["-m", "map", str(tmp_path / "qrels"), str(tmp_path / "run")]) == status
    assert message in capsys.readouterr().err


def test_missing_file(tmp_path, capsys):
    q, _ = _files()
    assert command.main([q, str(tmp_path / "absent")]) == 2
    assert f"cannot read '{tmp_path / 'absent'}'" in capsys.readouterr().err


def test_contradictory_preferences_are_refused(tmp_path, capsys):
    (tmp_path / "prefs").write_text("1 u a d1 2\n1 u a d2 1\n1 u b d2 2\n1 u b d1 1\n")
    (tmp_path / "run").write_text("1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n")
    assert command.main(["-R", "prefs", "-m", "prefs_simp", str(tmp_path / "prefs"), str(tmp_path / "run")]) == 2
    assert "contradictory preferences" in capsys.readouterr().err
    (tmp_path / "prefs").write_text("1 u a d1 2\n1 u a d2 0\n1 u b d2 1\n1 u b d3 0\n")
    assert command.main(["-R", "prefs", "-m", "prefs_simp", str(tmp_path / "prefs"), str(tmp_path / "run")]) == 2
    assert "both rel_level 0 and a rel_level > 0" in capsys.readouterr().err


def test_topic_without_a_judgment_at_level_zero_or_above(tmp_path):
    """trec_eval's ndcg_cut loops forever on a topic whose every judgment is negative; here every
    value is finite and nothing relevant means 0."""
    (tmp_path / "qrels").write_text("1 0 d1 -1\n1 0 d2 -1\n2 0 d1 1\n")
    (tmp_path / "run").write_text("1 Q0 d1 1 2.0 r\n1 Q0 d3 2 1.0 r\n2 Q0 d1 1 1.0 r\n")
    lines = command.run(command.parse_args(["-q", "-m", "all_trec", str(tmp_path / "qrels"), str(tmp_path / "run")]))
    topic1 = {x.split("\t")[0].strip(): x.split("\t")[2] for x in lines if "\t1\t" in x}
    assert topic1["ndcg_cut_10"] == "0.0000" and topic1["map"] == "0.0000" and topic1["relstring"] == "'.-'"
    assert topic1["num_ret"] == "2" and topic1["unj_5"] == "0.4000"
