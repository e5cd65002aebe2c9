"""Tests of ``python -m helpers evaluate`` (helpers.measures.cli)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.measures import cli as measures_cli

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
    assert names[:13] == ["RR", "O-measure", "P-measure", "P+", "AP", "Q", "NCU(stop=gu,util=P)",
                          "NCU(stop=gu,util=BR)", "NCU(stop=rb,util=P)", "NCU(stop=rb,util=BR)",
                          "RBP", "ERR", "EBR"]
    # no duplicate pairs: AP, Q, RBP, ERR, EBR are not repeated at @1000 (issue 19)
    assert names[13:] == ["nDCG@1000", "MSnDCG@1000", "P@1000", "nERR@1000", "Hit@1000"]
    assert not {n.split("@")[0] for n in names if "@" in n} & {n for n in names if "@" not in n}
    # at a cutoff below the run depth the whole-list families are reported at the cutoff too
    specs = [str(s) for s in measures_cli.expand_measures(None, [10])]
    assert "AP@10" in specs and "AP" in specs and len(specs) == 23


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
    (["--measures", "ndcg@10"], "unknown measure 'ndcg@10': neither a name of this engine"),
    (["--measures", "infAPx"], "helpers.measures.names.translate"),
    (["--conventions", "trec"], "invalid choice"),
    (["--conventions", "trec_eval", "--measures", "infAPx"], "helpers.measures.names.translate"),
    (["--cutoffs", "10,x"], "cutoffs must be positive integers"),
    (["--gains", "3:2"], "must not decrease"),
    (["--gains", "1:2", "--gain-values"], "--gains maps levels"),
    (["--digits", "-1"], "--digits"),
    (["--order", "bogus"], "invalid choice"),
    (["--rel", "0"], "--rel must be an integer level >= 1"),
    (["--rel", "dl99"], "no relevance threshold is recorded for collection 'dl99'"),
    (["--measures", "Q(rel=2)"], "rel= (the binary relevance threshold"),
    (["--names", "trec_eval", "--measures", "gm_map"], "geometric mean of AP over topics"),
    (["--names", "trec_eval", "--measures", "bogus_measure"], "unknown trec_eval/ir_measures measure 'bogus_measure'"),
    (["--names", "trec_eval", "--measures", "ERR@10"], "gdeval"),
    (["--names", "trec_eval", "--cutoffs", "10"], "--cutoffs expands NTCIREVAL names"),
    (["--output-format", "csv"], "invalid choice"),
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


def test_closed_stdout_ascii_terminal_and_huge_levels_give_messages_not_tracebacks(tmp_path):
    q = tmp_path / "q.txt"
    q.write_text("1 0 a 1\n1 0 b 0\n")
    r = tmp_path / "r.txt"
    r.write_text("1 Q0 a 1 2.0 評価\n1 Q0 b 2 1.0 評価\n", encoding="utf-8")
    argv = [sys.executable, "-m", "helpers", "evaluate", "--qrels", str(q), "--run", str(r), "--measures", "AP"]
    closed = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            timeout=120, preexec_fn=lambda: os.close(1))
    assert closed.returncode == 2 and "standard output is closed" in closed.stderr
    assert "Traceback" not in closed.stderr
    ascii_env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(argv, capture_output=True, cwd=ROOT, timeout=120, env=ascii_env)
    assert done.returncode == 0, done.stderr
    assert b"\\u8a55\\u4fa1\tall\tAP\t1.0000" in done.stdout          # the run id, escaped
    huge = tmp_path / "huge.txt"
    huge.write_text("1 a L99999999999999999999\n")
    bad = subprocess.run(argv[:5] + [str(huge)] + argv[6:], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and f"{huge}:1: expected a relevance level" in bad.stderr and "18 digits" in bad.stderr
    assert "Traceback" not in bad.stderr


# ---- issue 19: trec_eval order, names, --rel, output formats ---------------------------------

TIED = "T Q0 c 1 2.0 s\nT Q0 b 2 2.0 s\nT Q0 a 3 1.0 s\n"  # c and b tie on score


def _means(argv, capsys):
    assert measures_cli.main(argv) == 0, capsys.readouterr().err
    return table(capsys.readouterr().out)


@pytest.mark.parametrize("order,rr", [
    (None, 1 / 2),          # trec_eval: score desc, ties by doc id desc -> c, b, a; b is relevant at 2
    ("trec_eval", 1 / 2),
    ("score", 1 / 2),
    ("rank", 1 / 2),        # rank column: c, b, a
    ("file", 1 / 2),
])
def test_order_choices(tmp_path, capsys, order, rr):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("T 0 a 1\nT 0 b 1\nT 0 c 0\n")
    r.write_text(TIED)
    argv = ["--qrels", str(q), "--run", str(r), "--measures", "RR", "--digits", "6"]
    t = _means(argv + (["--order", order] if order else []), capsys)
    assert t[("s", "all", "RR")] == pytest.approx(rr)


def test_order_rank_and_file_differ_from_trec_eval(tmp_path, capsys):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("T 0 a 1\nT 0 b 0\nT 0 c 0\n")
    # file order a, b, c; ranks say c, b, a; scores say b (3), then a/c tied at 1 -> c before a
    r.write_text("T Q0 a 3 1.0 s\nT Q0 b 2 3.0 s\nT Q0 c 1 1.0 s\n")
    base = ["--qrels", str(q), "--run", str(r), "--measures", "RR", "--digits", "6", "--order"]
    assert _means(base + ["trec_eval"], capsys)[("s", "all", "RR")] == pytest.approx(1 / 3)
    assert _means(base + ["rank"], capsys)[("s", "all", "RR")] == pytest.approx(1 / 3)
    assert _means(base + ["file"], capsys)[("s", "all", "RR")] == pytest.approx(1.0)


def test_trec_eval_order_compares_scores_in_single_precision(tmp_path, capsys):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("T 0 a 1\nT 0 b 0\n")
    # 1.00000001 and 1.0 are equal as C floats: trec_eval then puts b (larger doc id) first
    r.write_text("T Q0 a 1 1.00000001 s\nT Q0 b 2 1.0 s\n")
    base = ["--qrels", str(q), "--run", str(r), "--measures", "RR", "--digits", "6"]
    assert _means(base + ["--conventions", "trec_eval"], capsys)[("s", "all", "RR")] == pytest.approx(0.5)
    assert _means(base + ["--order", "trec_eval"], capsys)[("s", "all", "RR")] == pytest.approx(0.5)
    assert _means(base + ["--order", "score"], capsys)[("s", "all", "RR")] == pytest.approx(1.0)
    # the default (ntcireval) follows the rank column: a first
    assert _means(base, capsys)[("s", "all", "RR")] == pytest.approx(1.0)
    assert _means(base + ["--conventions", "trec_eval", "--order", "rank"], capsys)[("s", "all", "RR")] == 1.0


def test_names_trec_eval_translate_and_say_so(files, capsys):
    q, r = files
    assert measures_cli.main(["--qrels", str(q), "--run", str(r), "--names", "trec_eval", "--measures",
                              "ndcg_cut_10", "nDCG@10", "map", "AP(rel=2)", "P_5", "--digits", "6"]) == 0
    cap = capsys.readouterr()
    t = table(cap.out)
    assert "ndcg_cut_10 = MSnDCG@10" in cap.err and "nDCG@10 = MSnDCG@10" in cap.err
    assert measures_cli.main(["--qrels", str(q), "--run", str(r), "--measures", "MSnDCG@10", "AP",
                              "AP(rel=2)", "P@5", "--digits", "6"]) == 0
    ours = table(capsys.readouterr().out)
    assert t[("sysA", "all", "ndcg_cut_10")] == ours[("sysA", "all", "MSnDCG@10")]
    assert t[("sysA", "all", "nDCG@10")] == ours[("sysA", "all", "MSnDCG@10")]
    assert t[("sysA", "all", "map")] == ours[("sysA", "all", "AP")]
    assert t[("sysA", "all", "AP(rel=2)")] == ours[("sysA", "all", "AP(rel=2)")]
    assert t[("sysA", "all", "P_5")] == ours[("sysA", "all", "P@5")]


def test_rel_flag_applies_to_binary_measures_only(files, capsys):
    q, r = files
    t = _means(["--qrels", str(q), "--run", str(r), "--measures", "AP", "RR", "MSnDCG@10",
                "--rel", "2", "--digits", "6"], capsys)
    # relevant at >= 2: a (rank 2), b (rank 5), e (not retrieved): AP = (1/2 + 2/5) / 3
    assert t[("sysA", "all", "AP(rel=2)")] == pytest.approx((1 / 2 + 2 / 5) / 3, abs=1e-6)
    assert t[("sysA", "all", "RR(rel=2)")] == pytest.approx(0.5, abs=1e-6)
    assert ("sysA", "all", "MSnDCG@10") in t  # graded: unaffected, label unchanged
    coll = _means(["--qrels", str(q), "--run", str(r), "--measures", "AP", "--rel", "dl19-passage",
                   "--digits", "6"], capsys)
    assert coll[("sysA", "all", "AP(rel=2)")] == t[("sysA", "all", "AP(rel=2)")]


def test_output_format_trec_eval(files, capsys):
    q, r = files
    assert measures_cli.main(["--qrels", str(q), "--run", str(r), "--names", "trec_eval", "--measures",
                              "map", "P_5", "--per-topic", "--output-format", "trec_eval"]) == 0
    lines = [l.split("\t") for l in capsys.readouterr().out.splitlines()]
    assert [f[0].strip() for f in lines] == ["runid", "num_q", "map", "P_5", "map", "P_5"]
    assert lines[0][1:] == ["all", "sysA"] and lines[1][1:] == ["all", "1"]
    assert lines[2][1] == "T" and lines[4][1] == "all"
    assert float(lines[4][2]) == pytest.approx(AP_A, abs=5e-5) and float(lines[5][2]) == pytest.approx(0.6)


def test_output_format_jsonl(files, capsys):
    import json

    q, r = files
    assert measures_cli.main(["--qrels", str(q), "--run", str(r), "--measures", "AP", "--gains", "1:2:3",
                              "--per-topic", "--output-format", "jsonl"]) == 0
    rows = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert rows[0] == {"run_id": "sysA", "query_id": "T", "measure": "AP", "value": AP_A}
    assert rows[1] == {"run_id": "sysA", "query_id": "all", "measure": "AP", "value": AP_A, "n_topics": 1}


def test_help_explains_order_and_names(capsys):
    assert measures_cli.main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--conventions {ntcireval,trec_eval}" in text and "single precision" in text
    assert "The settings in force are printed on stderr" in text
    assert "ndcg_cut_K | nDCG@K = MSnDCG@K" in text and "file order" in text


# The official DL-19 passage numbers from flags only, equal to pytrec_eval's to the last bit: see
# tests/test_conventions.py::test_dl19_api_cli_and_pytrec_eval_agree_exactly.


def test_several_runs_after_one_flag_and_same_named_files(tmp_path, capsys):
    q = tmp_path / "q.txt"
    q.write_text("1 0 a 1\n1 0 b 0\n")
    for folder in ("x", "y"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "r").write_text(f"1 Q0 a 1 2.0 {folder}\n1 Q0 b 2 1.0 {folder}\n")
    runs = [str(tmp_path / "x" / "r"), str(tmp_path / "y" / "r")]
    assert measures_cli.main(["--qrels", str(q), "--run", *runs, "--measures", "AP"]) == 0
    assert {line.split("\t")[0] for line in capsys.readouterr().out.splitlines()[1:]} == {"x", "y"}
    assert measures_cli.main(["--qrels", str(q), "--run", *runs, "--measures", "AP", "--name-by-file"]) == 2
    err = capsys.readouterr().err
    assert "run id 'r' appears in both" in err and "the two files have the same name" in err
    assert "use --name-by-file" not in err


def test_rank_column_against_trec_eval_order_is_one_stderr_line_naming_the_flags(capsys):
    """Issue 41, item 2: the rank-order case of tests/data/rank_order (tools/make_rank_order_case.py)."""
    case = ROOT / "tests" / "data" / "rank_order"
    argv = ["--qrels", str(case / "qrels.txt"), "--run", *map(str, sorted((case / "runs").glob("*.txt"))),
            "--measures", "AP(rel=2)", "RR(rel=2)"]
    assert measures_cli.main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    notes = [ln for ln in err if "rank column" in ln]
    assert len(notes) == 1 and notes[0].startswith("python -m helpers evaluate: warning: The run's rank column")
    assert "12 of 18 ranked lists (6 of 6 topics, 2 of 3 runs" in notes[0]
    assert "--conventions trec_eval" in notes[0] and "conventions='trec_eval'" not in notes[0]
    for extra in (["--conventions", "trec_eval"], ["--conventions", "ntcireval"], ["--order", "rank"],
                  ["--order", "file"], ["--order", "trec_eval"]):
        assert measures_cli.main(argv + extra) == 0
        assert "rank column" not in capsys.readouterr().err, extra
