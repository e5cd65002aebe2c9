"""``python -m helpers evaluate`` as a drop-in for ``ntcir_eval compute``/``gcompute`` (issue 14):
NTCIREVAL's default measure list, its flags, ``--format ntcireval`` and its per-topic files."""

from __future__ import annotations

import pytest

from helpers import measures as M
from helpers.measures import cli as measures_cli
from helpers.io import trec as trec_io
from _ntcireval_port import compute

# the hand-computed example of test_ntcireval_measures.py, plus a topic without judged
# non-relevant documents (U) and one without relevant documents (Z, skipped as NTCIREVAL does)
QRELS = "1 0 d1 2\n1 0 d2 1\n1 0 d3 0\n1 0 d4 1\n1 0 d5 0\nZ 0 z 0\n"
RUN = "1 Q0 d3 1 5 sysA\n1 Q0 d2 2 4 sysA\n1 Q0 u1 3 3 sysA\n1 Q0 d1 4 2 sysA\n1 Q0 d5 5 1 sysA\n"

NTCIR_ORDER_10 = [
    "RR", "O-measure", "P-measure", "P-plus", "AP", "Q-measure", "NCUgu,P", "NCUgu,BR", "NCUrb,P",
    "NCUrb,BR", "GAP", "RBP", "ERR", "EBR", "AP@0010", "Q@0010", "GAP@0010", "nDCG@0010",
    "MSnDCG@0010", "P@0010", "RBP@0010", "ERR@0010", "nERR@0010", "EBR@0010", "iRBU@0010",
    "Hit@0010", "bpref", "bpref_R", "bpref_N", "bpref_relative", "rpref_N", "rpref_relative",
    "rpref_relative2"]


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text(QRELS)
    r.write_text(RUN)
    return str(q), str(r)


def run_cli(capsys, *argv):
    code = measures_cli.main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def parse_ntcir(out):
    """{(prefix, name): value} and the '#' lines."""
    values, comments = {}, []
    for line in out.splitlines():
        prefix, rest = line.split(" ", 1)
        if rest.startswith("#"):
            comments.append(line)
            continue
        name, value = rest.split("=", 1)
        assert rest.index("=") + 1 + len(value) - len(value.lstrip(" ")) == 21 or "@" in name
        values[(prefix, name)] = float(value)
    return values, comments


def test_ntcireval_format_lists_every_measure_in_ntcireval_order(files, capsys):
    q, r = files
    code, out, _ = run_cli(capsys, "--qrels", q, "--run", r, "--output-format", "ntcireval", "--cutoffs",
                           "10", "--gap", "--condensed", "--rbup", "0.9")
    assert code == 0
    lines = out.splitlines()
    # per-topic block of topic 1 (condensed: syslen counts the 4 judged documents), then means
    assert lines[0] == "1 # syslen=4 jrel=3 jnonrel=2"
    assert lines[1] == "1 # r1=2 rp=3"
    assert [l.split(" ", 1)[1].split("=")[0] for l in lines[2:2 + len(NTCIR_ORDER_10)]] == NTCIR_ORDER_10
    assert lines[2] == "1 RR=                  0.5000"       # 21 characters for 'RR=' + padding
    # condensed list d3 d2 d1 d5: AP = (1/2 + 2/3) / 3
    assert lines[2 + NTCIR_ORDER_10.index("AP@0010")] == "1 AP@0010=             0.3889"
    mean_start = 2 + len(NTCIR_ORDER_10)
    assert lines[mean_start] == "sysA # topics=1 (mean over topics)"
    assert [l.split(" ", 1)[1].split("=")[0] for l in lines[mean_start + 1:]] == NTCIR_ORDER_10
    values, _ = parse_ntcir(out)
    assert values[("1", "bpref")] == pytest.approx(0.3333, abs=1e-4)   # hand-computed 1/3
    assert values[("1", "rpref_N")] == pytest.approx(0.4167, abs=1e-4)  # hand-computed 5/12


def test_ntcireval_format_matches_the_c_loops(files, capsys):
    """Every printed value is the C loops' value for the same flags, to the 4 printed digits."""
    q, r = files
    code, out, _ = run_cli(capsys, "--qrels", q, "--run", r, "--output-format", "ntcireval", "--cutoffs",
                           "1,3,10", "--gap", "--beta", "2", "--gamma", "0.8", "--rbp", "0.7",
                           "--gains", "1:3")
    assert code == 0
    values, comments = parse_ntcir(out)
    assert comments[:2] == ["1 # syslen=5 jrel=3 jnonrel=2", "1 # r1=2 rp=4"]
    gains = [0.0, 1.0, 0.0, 3.0, 0.0]                     # d3 d2 u1 d1 d5 with -g 1:3
    ref = compute(gains, [3.0, 1.0, 1.0], 3.0, [1, 3, 10], beta=2.0, gamma=0.8, rbp_p=0.7,
                  sys_levels=[0, 1, 0, 2, 0], ideal_levels=[2, 1, 1])
    names = {"P-plus": "P+", "Q-measure": "Q", "NCUgu,P": "NCU(stop=gu,util=P)",
             "NCUgu,BR": "NCU(stop=gu,util=BR)", "NCUrb,P": "NCU(stop=rb,util=P)",
             "NCUrb,BR": "NCU(stop=rb,util=BR)"}
    checked = 0
    for (prefix, name), v in values.items():
        if prefix != "1":
            continue
        key = names.get(name, name)
        if "@" in key:
            base, c = key.split("@")
            key = f"{base}@{int(c)}"
        assert v == pytest.approx(round(ref[key], 4), abs=1e-12), name
        checked += 1
    assert checked == 14 + 3 * 11


def test_default_list_follows_compute_and_gcompute(tmp_path, files, capsys):
    q, r = files
    specs = measures_cli.ntcireval_default_measures([5])
    assert specs == ["RR", "O-measure", "P-measure", "P+", "AP", "Q", "NCUgu,P", "NCUgu,BR",
                     "NCUrb,P", "NCUrb,BR", "RBP", "ERR", "EBR", "AP@5", "Q@5", "nDCG@5", "MSnDCG@5",
                     "P@5", "RBP@5", "ERR@5", "nERR@5", "EBR@5", "Hit@5"]
    # gcompute prints no graded-uniform NCU and no iRBU
    g = measures_cli.ntcireval_default_measures([5], gain_values=True, rbup=0.9)
    assert not any(m.startswith("NCUgu") or m.startswith("iRBU") for m in g)
    gq = tmp_path / "gq"
    gq.write_text("1 0 d1 2.5\n1 0 d2 0.5\n1 0 d3 0\n")
    code, out, _ = run_cli(capsys, "--qrels", str(gq), "--gain-values", "--run", r, "--output-format",
                           "ntcireval", "--cutoffs", "5")
    assert code == 0 and "NCUgu" not in out and "NCUrb,P=" in out


def test_knobs_set_parameters_not_given_explicitly(files, capsys):
    q, r = files
    code, out, _ = run_cli(capsys, "--qrels", q, "--run", r, "--measures", "Q", "P+", "NCUrb,BR",
                           "NCUgu,P", "RBP", "nDCG@10", "Q(beta=0.5)", "iRBU@10", "--beta", "2",
                           "--gamma", "0.8", "--rbp", "0.7", "--rbup", "0.5", "--logb", "3")
    assert code == 0
    names = [l.split("\t")[2] for l in out.splitlines()[1:]]
    assert names == ["Q(beta=2)", "P+(beta=2)", "NCU(beta=2,gamma=0.8,stop=rb,util=BR)",
                     "NCU(stop=gu,util=P)", "RBP(p=0.7)", "nDCG(b=3)@10", "Q(beta=0.5)",
                     "iRBU(p=0.5)@10"]
    qrels, run = trec_io.read_qrels(q), trec_io.read_run(r)
    res = M.evaluate(qrels, run, names)
    for line in out.splitlines()[1:]:
        _, _, name, value = line.split("\t")
        assert float(value) == pytest.approx(res.loc[res["measure"] == name, "value"].iloc[0], abs=5e-5)


@pytest.mark.parametrize("argv,msg", [
    (["--beta", "-1"], "--beta must be >= 0"), (["--gamma", "1.5"], "--gamma must be in"),
    (["--rbp", "1"], "--rbp must be in"), (["--rbup", "0"], "--rbup must be in"),
    (["--logb", "0"], "--logb must be a number > 1"), (["--measures", "AP", "--gap"], "name GAP"),
    (["--measures", "bpref@10"], "whole-list"), (["--output-format", "xml"], "invalid choice"),
    (["--measures", "Q", "Q(beta=2)", "--output-format", "ntcireval"], "both as 'Q-measure'"),
])
def test_bad_flags(files, capsys, argv, msg):
    q, r = files
    code, _, err = run_cli(capsys, "--qrels", q, "--run", r, *argv)
    assert code == 2 and msg in err


def test_bpref_topic_without_judged_nonrelevant_is_refused(tmp_path, files, capsys):
    q, r = files
    q2 = tmp_path / "q2"
    q2.write_text("1 0 d1 2\n1 0 d2 1\n")
    code, _, err = run_cli(capsys, "--qrels", str(q2), "--run", r, "--condensed")
    assert code == 2 and "no judged non-relevant" in err and "'1'" in err


def test_reads_ntcireval_per_topic_rel_and_res_files(tmp_path, files, capsys):
    """``<topic>.rel`` (doc L<n>) and ``<run>/<topic>.res`` (one document per line) give the
    same numbers as the TREC files."""
    q, r = files
    rel = tmp_path / "rel"
    rel.mkdir()
    (rel / "1.rel").write_text("d1 L2\nd2 L1\nd3 L0\nd4 L1\nd5 L0\n")
    (rel / "Z.rel").write_text("z L0\n")
    (tmp_path / "sysA").mkdir()
    (tmp_path / "sysA" / "1.res").write_text("d3\nd2\nu1\nd1\nd5\n")
    code, trec_out, _ = run_cli(capsys, "--qrels", q, "--run", r, "--cutoffs", "10", "--per-topic")
    assert code == 0
    code, ntcir_out, _ = run_cli(capsys, "--qrels", str(rel), "--run", str(tmp_path / "sysA" / "*.res"),
                                 "--cutoffs", "10", "--per-topic")
    assert code == 0
    assert ntcir_out == trec_out
    flat = tmp_path / "flat.qrels"
    flat.write_text("1 d1 L2\n1 d2 L1\n1 d3 L0\n1 d4 L1\n1 d5 L0\nZ z L0\n")  # topic doc L<n>
    code, flat_out, _ = run_cli(capsys, "--qrels", str(flat), "--run", r, "--cutoffs", "10",
                                "--per-topic")
    assert code == 0 and flat_out == trec_out


def test_format_is_the_same_option_as_output_format(files, capsys):
    """Issue 14 names the option ``--format ntcireval``; issue 19's ``--output-format`` is the same."""
    q, r = files
    code_a, out_a, _ = run_cli(capsys, "--qrels", q, "--run", r, "--format", "ntcireval", "--cutoffs", "10")
    code_b, out_b, _ = run_cli(capsys, "--qrels", q, "--run", r, "--output-format", "ntcireval",
                               "--cutoffs", "10")
    assert code_a == code_b == 0
    assert out_a == out_b and "RR=" in out_a
    code_c, out_c, _ = run_cli(capsys, "--qrels", q, "--run", r, "--format", "trec_eval", "--cutoffs", "10")
    assert code_c == 0 and out_c != out_a and "\tall\t" in out_c
