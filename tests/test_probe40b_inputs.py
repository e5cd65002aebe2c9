"""Issue 40's second fresh probe round: each class it found, with an example of its own (cheap: the
commands are called in-process; no notebook, no kernel). Each behaviour is a row of docs/bad-input.md."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.measures import cli, diversity
from helpers.measures.kernels import evaluate_arrays
from helpers.measures.treceval import command
from helpers.notebook import params

QRELS = b"t1 0 a 2\nt1 0 b 0\nt1 0 c 1\nt2 0 e 1\n"
RUN = b"t1 Q0 c 1 3 s\nt1 Q0 a 2 2 s\nt1 Q0 z 3 1 s\nt2 Q0 e 1 4 s\n"


def _files(tmp_path: Path, qrels: bytes = QRELS, run: bytes = RUN, name: str = "run") -> tuple[str, str]:
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / name).write_bytes(run)
    return str(tmp_path / "qrels"), str(tmp_path / name)


def _te(capsysbinary, args: list[str]) -> tuple[int, bytes, str]:
    status = command.main(args)
    out = capsysbinary.readouterr()
    return status, out.out, out.err.decode("utf-8", "replace")


@pytest.mark.parametrize("measure", ["rbp.18446744073709551616=1", "Rndcg.-9223372036854775809=2",
                                     "ndcg_rel.1=2,9223372036854775808=1"])
def test_a_gain_level_beyond_a_c_long_is_a_usage_refusal(tmp_path, capsysbinary, measure):
    # was OverflowError from numpy (Python int too large to convert to C long), exit 1
    q, r = _files(tmp_path)
    status, out, err = _te(capsysbinary, ["-m", measure, q, r])
    assert status != 0 and out == b"" and "Traceback" not in err
    assert "gain level" in err and "beyond the range of trec_eval's integers (a C long" in err, err
    with pytest.raises(ValueError, match=r"gains: level '36893488147419103232' is beyond the range"):
        M.evaluate(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]}),
                   pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]}),
                   ["MSnDCGg(gains=36893488147419103232:2)"])


@pytest.mark.parametrize("cutoffs, refused", [("7,4294967303", True), ("2,2147483650", False),
                                              ("5,3000000005,3", True), ("9,2147483656", False)])
def test_cutoffs_trec_eval_sorts_through_a_c_int_are_refused(tmp_path, capsysbinary, cutoffs, refused):
    """trec_eval's comp_long returns the difference of two longs cast to int: 7 and 4294967303
    (difference 2^32) compare equal, 5 and 6442450944 the wrong way; within 2^31 - 1 they sort right."""
    q, r = _files(tmp_path)
    status, out, err = _te(capsysbinary, ["-m", f"recall.{cutoffs}", q, r])
    if refused:
        assert status == 2 and out == b"" and "compares through a C int" in err, err
    else:
        names = [line.split(b"\t")[0].strip() for line in out.splitlines()]
        small, big = sorted(int(x) for x in cutoffs.split(","))
        assert status == 0 and names == [f"recall_{small}".encode(), f"recall_{big}".encode()], (out, err)


def test_a_relstring_length_past_a_c_long_is_refused(tmp_path, capsysbinary):
    # trec_eval's (long) of the double is undefined: '' on x86; the command printed the whole list
    q, r = _files(tmp_path)
    status, out, err = _te(capsysbinary, ["-q", "-m", "relstring.2e19", q, r])
    assert status == 2 and out == b"" and "relstring length '2e19' is beyond a C long" in err, err
    status, out, _ = _te(capsysbinary, ["-q", "-m", "relstring.2", q, r])
    assert status == 0 and b"\tt1\t'12'" in out


def test_a_double_cutoffs_name_keeps_eight_characters_as_trec_eval_and_no_numpy_warning(tmp_path, capsysbinary):
    """append_double writes into strlen(name) + 10 bytes; a multiple past a C long of R is 0, quietly."""
    q, r = _files(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status, out, err = _te(capsysbinary, ["-m", "Rprec_mult.3e20,987654.25", "-m", "iprec_at_recall.12345.678",
                                              q, r])
    assert status == 0 and "Warning" not in err, err
    names = [line.split(b"\t")[0].strip() for line in out.splitlines()]
    assert names == [b"iprec_at_recall_12345.68", b"Rprec_mult_987654.2", b"Rprec_mult_30000000"], out   # as NIST
    # beyond 1e100 a measure parameter is refused (PARAM_LIMIT, tests/test_bad_input_40c.py)
    assert out.splitlines()[-1].endswith(b"\t0.0000")


def test_a_dangling_symlink_among_runs_is_refused_by_name(tmp_path, capsys):
    q, r = _files(tmp_path)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "one").write_bytes(RUN)
    (runs / "gone").symlink_to(tmp_path / "deleted")
    for given in (str(runs), str(runs / "*")):
        assert cli.main(["--qrels", q, "--run", given, "--measures", "AP"]) == 2
        err = capsys.readouterr().err
        assert f"--run: '{runs / 'gone'}' is a symbolic link to a file that does not exist" in err, err


def test_a_dangling_parameter_file_is_refused(tmp_path):
    (tmp_path / "03_mine.yaml").symlink_to(tmp_path / "nowhere.yaml")
    with pytest.raises(ValueError, match=r"03_mine.yaml' is a symbolic link to a file that does not exist"):
        from helpers.notebook.pipeline import parameter_files
        parameter_files(tmp_path, [])


def test_names_with_control_characters_are_refused_where_they_would_split_a_line(tmp_path, capsys):
    q, r = _files(tmp_path, name="a\u2028b")
    for fmt in ("table", "trec_eval", "ntcireval"):
        assert cli.main(["--qrels", q, "--run", r, "--measures", "AP", "--name-by-file", "--output-format", fmt]) == 2
        err = capsys.readouterr().err
        assert "run id 'a\\u2028b' holds a control character" in err and "\u2028" not in err, err
    assert cli.main(["--qrels", q, "--run", r, "--measures", "AP", "--name-by-file", "--output-format", "jsonl"]) == 0
    assert '"run_id": "a\\u2028b"' in capsys.readouterr().out
    q, r = _files(tmp_path, QRELS.replace(b"t2", b"t\x1d2"), RUN.replace(b"t2", b"t\x1d2"))
    assert cli.main(["--qrels", q, "--run", r, "--measures", "AP", "--per-topic"]) == 2
    assert "topic id 't\\x1d2' holds a control character" in capsys.readouterr().err


QR = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["x", "y"], "relevance": [1, 0]})
RN = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["x", "y"], "score": [0.25, 0.5], "rank": [2, 1]})


@pytest.mark.parametrize("frame, column", [("run", "score"), ("run", "rank"), ("qrels", "relevance"),
                                           ("qrels", "gain")])
def test_booleans_in_a_numeric_column_are_refused(frame, column):
    # an object column [0.25, True] was read as [0.25, 1.0] without a word
    qrels, run = QR.copy(), RN.copy()
    target = run if frame == "run" else qrels
    if column == "gain":
        qrels = qrels.drop(columns="relevance")
        target = qrels
    target[column] = pd.Series([target[column].iloc[0] if column in target else 1.0, np.True_], dtype=object)
    with pytest.raises(ValueError, match=rf"{frame} '{column}' must hold numbers; row 1 has True \(a boolean"):
        M.evaluate(qrels, run, ["AP"])


def test_booleans_in_diversity_frames_are_refused():
    dq = pd.DataFrame({"query_id": ["q"] * 2, "intent_id": ["i"] * 2, "doc_id": ["x", "y"], "relevance": [1, 1]})
    intents = pd.DataFrame({"query_id": ["q"], "intent_id": ["i"], "prob": pd.Series([True], dtype=object)})
    with pytest.raises(ValueError, match=r"intents 'prob' must hold numbers; row 0 has True"):
        diversity.evaluate(dq, intents, RN.drop(columns="rank"), ["D-nDCG@5"])


@pytest.mark.parametrize("ranked", [np.array([["0.5", "1"]]), [[1.0, False]], [[0.5, b"1"]], [[0.5, 1j]]])
def test_evaluate_arrays_names_the_argument_of_a_non_numeric_array(ranked):
    with pytest.raises(ValueError, match=r"ranked_gains must be a 2-D array of real numbers \(n_lists x ranks\); got dtype"):
        evaluate_arrays(ranked, np.array([[1.0]]), ["AP"])
    with pytest.raises(ValueError, match=r"ideal_gains must be a 2-D array of real numbers"):
        evaluate_arrays(np.array([[1.0]]), ranked, ["AP"])


def test_a_standard_output_that_cannot_be_written_is_raised_once_for_the_net(tmp_path, monkeypatch):
    """--many-runs said "cannot read 'standard output'" then python -m helpers a second line;
    the write error now reaches python -m helpers, which says it once."""
    q, r = _files(tmp_path)

    class Full:
        def write(self, data):
            raise OSError(28, "No space left on device", "standard output")

        def flush(self):
            pass

    monkeypatch.setattr(command.sys, "stdout", type("S", (), {"buffer": Full()})())
    with pytest.raises(OSError, match="No space left"):
        command.main(["--many-runs", q, r, r])


@pytest.mark.parametrize("name, value", [("min_diff_grid", "[1, .inf]"), ("components", "{a: -.inf}"),
                                         ("n_list", "[2, .NaN]")])
def test_non_finite_members_of_numeric_lists_are_refused(tmp_path, name, value):
    # [0.1, .nan] passed the runner's checks and failed inside the kernel
    p = tmp_path / "06_x.yaml"
    p.write_text(f"{name}: {value}\n")
    problem = params.member_problem(name, params.load_yaml(p)[name])
    assert problem is not None and ("expected finite numbers" in problem or "expected integers" in problem), problem


def test_every_yaml_tag_is_refused_with_its_line(tmp_path):
    p = tmp_path / "06_x.yaml"
    p.write_text("n_topics: 3\nseed: !!int '7'\n")
    with pytest.raises(ValueError, match=r"06_x.yaml:2: expected plain YAML values, got the tag !!int"):
        params.load_yaml(p)


def test_control_characters_in_echoed_values_are_escaped(tmp_path, capsysbinary):
    q, r = _files(tmp_path)
    status, _, err = _te(capsysbinary, ["-m", "ndcg_cut.3\r", q, r])
    assert status == 2 and err.count("\n") == 1 and "'3\\r'" in err, err
    status, _, err = _te(capsysbinary, ["-m", "map", q, r + "\n2"])
    assert status == 2 and err.count("\n") == 1 and "\\n2'" in err, err


def test_the_settings_line_of_order_file_says_one_order(tmp_path, capsys):
    q, r = _files(tmp_path)
    assert cli.main(["--qrels", q, "--run", r, "--order", "file", "--conventions", "trec_eval", "--measures", "P_2"]) == 0
    line = capsys.readouterr().err.splitlines()[0]
    assert "lists in file order" in line and "rank order" not in line and "order_by='rank'" not in line, line
    assert "single precision" not in line and "[overridden: order_by=file order (--order file)]" in line
