"""Tests of ``python -m helpers evaluate`` (helpers.measures_cli)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import measures_cli

ROOT = Path(__file__).resolve().parent.parent

# Example A of test_measures.py: R = 4, run d(L0) a(L3) x(unjudged) c(L1) b(L2)
QRELS = "T 0 a 3\nT 0 b 2\nT 0 c 1\nT 0 d 0\nT 0 e 2\nU 0 z 0\n"
RUN = "T Q0 d 1 5.0 sysA\nT Q0 a 2 4.0 sysA\nT Q0 x 3 3.0 sysA\nT Q0 c 4 2.0 sysA\nT Q0 b 5 1.0 sysA\n"
AP_A = (1 / 2 + 2 / 4 + 3 / 5) / 4


@pytest.fixture
def files(tmp_path):
    q = tmp_path / "qrels.txt"
    r = tmp_path / "run.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return q, r


def table(text: str) -> dict:
    lines = text.strip().splitlines()
    assert lines[0] == "run_id\tquery_id\tmeasure\tvalue"
    return {tuple(l.split("\t")[:3]): float(l.split("\t")[3]) for l in lines[1:]}


def test_evaluate_prints_means_and_per_topic(files, capsys):
    q, r = files
    code = measures_cli.main(["--qrels", str(q), "--run", str(r), "--gains", "1:2:3",
                              "--measures", "AP", "P", "nG", "--cutoffs", "3,10", "--per-topic",
                              "--digits", "6"])
    assert code == 0
    t = table(capsys.readouterr().out)
    assert list(t) == [("sysA", "T", "AP"), ("sysA", "T", "P@3"), ("sysA", "T", "P@10"),
                       ("sysA", "T", "nG@1"),
                       ("sysA", "all", "AP"), ("sysA", "all", "P@3"), ("sysA", "all", "P@10"),
                       ("sysA", "all", "nG@1")]  # topic U has no relevant doc: skipped
    assert t[("sysA", "all", "AP")] == pytest.approx(AP_A, abs=1e-6)
    assert t[("sysA", "all", "P@10")] == pytest.approx(0.3, abs=1e-6)


def test_default_measure_set_is_ntcireval_compute(files, capsys):
    q, r = files
    assert measures_cli.main(["--qrels", str(q), "--run", str(r)]) == 0
    t = table(capsys.readouterr().out)
    names = [k[2] for k in t]
    assert names[:14] == ["RR", "O-measure", "P-measure", "P+", "AP", "Q", "NCU(stop=gu,util=P)",
                          "NCU(stop=gu,util=BR)", "NCU(stop=rb,util=P)", "NCU(stop=rb,util=BR)",
                          "RBP", "ERR", "EBR", "AP@1000"]
    assert "nERR@1000" in names and "Hit@1000" in names and len(names) == 23


def test_expand_measures_rules():
    specs = measures_cli.expand_measures(["AP", "nDCG", "Q@5", "iRBU(p=0.9)"], [10, 20])
    assert [str(s) for s in specs] == ["AP", "nDCG@10", "nDCG@20", "Q@5",
                                       "iRBU(p=0.9)@10", "iRBU(p=0.9)@20"]
    assert [str(s) for s in measures_cli.expand_measures(["P"], None)] == ["P@1000"]


def test_gain_values_condensed_and_multiple_runs(tmp_path, capsys):
    q = tmp_path / "q.txt"
    q.write_text("q 0 a 0.5\nq 0 b 2.25\nq 0 c 0\n")
    r1, r2 = tmp_path / "r1", tmp_path / "r2"
    r1.write_text("q Q0 b 1 4 one\nq Q0 z 2 3 one\nq Q0 a 3 2 one\n")
    r2.write_text("q Q0 a 1 4 two\n")
    code = measures_cli.main(["--qrels", str(q), "--gain-values", "--run", str(r1), "--run",
                              str(r2), "--measures", "AP", "--condensed", "--digits", "6"])
    assert code == 0
    t = table(capsys.readouterr().out)
    assert t[("one", "all", "AP")] == pytest.approx(1.0)
    assert t[("two", "all", "AP")] == pytest.approx(0.5)


def test_same_tag_in_two_files_needs_name_by_file(tmp_path, files, capsys):
    q, r = files
    r2 = tmp_path / "copy.run"
    r2.write_text(RUN)
    assert measures_cli.main(["--qrels", str(q), "--run", str(r), "--run", str(r2)]) == 2
    assert "run id 'sysA' appears in both" in capsys.readouterr().err
    assert measures_cli.main(["--qrels", str(q), "--run", str(r), "--run", str(r2),
                              "--name-by-file", "--measures", "AP"]) == 0
    t = table(capsys.readouterr().out)
    assert {k[0] for k in t} == {"run.txt", "copy.run"}


def test_malformed_qrels_exit_2_names_file_and_line(tmp_path, files, capsys):
    _, r = files
    bad = tmp_path / "bad.qrels"
    bad.write_text("T 0 a 1\nT 0 b\n")
    assert measures_cli.main(["--qrels", str(bad), "--run", str(r)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:" in err


def test_malformed_run_exit_2_names_file_and_line(tmp_path, files, capsys):
    q, _ = files
    bad = tmp_path / "bad.run"
    bad.write_text("T Q0 a 1 1.0 s\nT Q0 b 2 1.0 s\nT Q0 c x 1.0 s\n")
    assert measures_cli.main(["--qrels", str(q), "--run", str(bad)]) == 2
    assert f"{bad}:3:" in capsys.readouterr().err


@pytest.mark.parametrize("extra,message", [
    (["--measures", "ndcg@10"], "unknown measure 'ndcg'"),
    (["--cutoffs", "10,x"], "cutoffs must be positive integers"),
    (["--gains", "3:2"], "must not decrease"),
    (["--gains", "1:2", "--gain-values"], "--gains maps levels"),
    (["--digits", "-1"], "--digits"),
    (["--order", "file"], "invalid choice"),
])
def test_bad_arguments_exit_2(files, capsys, extra, message):
    q, r = files
    assert measures_cli.main(["--qrels", str(q), "--run", str(r)] + extra) == 2
    assert message in capsys.readouterr().err


def test_missing_file_and_missing_option_exit_2(tmp_path, files, capsys):
    q, _ = files
    assert measures_cli.main(["--qrels", str(q), "--run", str(tmp_path / "nope")]) == 2
    assert "nope" in capsys.readouterr().err
    assert measures_cli.main(["--qrels", str(q)]) == 2
    assert "--run" in capsys.readouterr().err


def test_help_exits_0(capsys):
    assert measures_cli.main(["--help"]) == 0
    assert "NTCIREVAL" in capsys.readouterr().out


def test_dispatcher_runs_the_subcommand(files):
    q, r = files
    proc = subprocess.run([sys.executable, "-m", "helpers", "evaluate", "--qrels", str(q),
                           "--run", str(r), "--measures", "AP", "--gains", "1:2:3"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    t = table(proc.stdout)
    assert math.isclose(t[("sysA", "all", "AP")], round(AP_A, 4))
    bad = subprocess.run([sys.executable, "-m", "helpers", "evaluate", "--qrels", str(r),
                          "--run", str(r)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and f"{r}:1:" in bad.stderr
