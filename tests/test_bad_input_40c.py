"""Bad inputs of the third probe round of issue 40 (one new example per class)."""
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import measures
from helpers.measures.kernels import evaluate_arrays

QRELS = pd.DataFrame({"query_id": ["5", "5", "7"], "doc_id": ["a", "b", "c"], "relevance": [2, 1, 1]})
RUN = pd.DataFrame({"query_id": ["5", "5", "7"], "doc_id": ["b", "a", "c"], "score": [2.0, 1.0, 1.0],
                    "run_id": "s"})


def ev(q=QRELS, r=RUN, **kw):
    kw.setdefault("measures", ["AP"])
    kw.setdefault("conventions", "ntcireval")
    return measures.evaluate(q, r, **kw)


# 1. float measure parameters whose arithmetic overflows
@pytest.mark.parametrize("name", ["P+(beta=1e200)", "EBR(beta=-1e300)", "iRBU(e=1e150)@5",
                                  "NCU(stop=rb,util=BR,beta=2e101)"])
def test_overflowing_parameter_refused(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match="at most 1e\\+100"):
            ev(measures=[name])


def test_overflowing_product_refused_in_kernel():
    g = np.array([[1e250, 1e250, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match="overflow double precision"):
            evaluate_arrays(g, g, ["Q(beta=1e99)"])


# 2. empty or whitespace-only ids in any id column of a frame input
@pytest.mark.parametrize("frame,col,values,row", [
    ("qrels", "query_id", ["5", "\t", "7"], 1),
    ("qrels", "doc_id", ["a", "b", ""], 2),
    ("run", "doc_id", ["b", " ", "c"], 1),
    ("run", "run_id", ["s", "s", ""], 2),
])
def test_blank_id_refused_with_row(frame, col, values, row):
    q, r = QRELS, RUN
    if frame == "qrels":
        q = q.assign(**{col: values})
    else:
        r = r.assign(**{col: values})
    with pytest.raises(ValueError, match=f"{frame} '{col}' has an empty or whitespace-only id .* at row {row}"):
        ev(q, r)


# 3. standard error closed: messages must not fall back into the results on standard output
@pytest.mark.parametrize("argv", [["evaluate", "--measures", "AP,nDCG@2"], ["trec_eval", "-m", "map"]])
def test_closed_stderr_keeps_messages_out_of_results(tmp_path, monkeypatch, capsys, argv):
    from helpers.__main__ import main

    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("5 0 a 2\n5 0 b 1\n9 0 z 1\n")           # topic 9 unanswered: a warning
    r.write_text("5 Q0 b 1 2.0 s\n5 Q0 a 2 2.0 s\n8 Q0 c 1 1.0 s\n")  # topic 8 not judged, a tie
    args = argv[:1] + (["--qrels", str(q), "--run", str(r)] + argv[1:] if argv[0] == "evaluate"
                       else argv[1:] + [str(q), str(r)])
    monkeypatch.setattr(sys, "stderr", None)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.strip(), "no results printed"
    assert "warning" not in out and "conventions" not in out and "python -m helpers" not in out, out


# 4. a gains mapping whose value (or level) is not a number
@pytest.mark.parametrize("gains,match", [({1: 1, 2: [3]}, "level 2 must be a number.*\\[3\\]"),
                                         ({1: b"2"}, "level 1 must be a number"),
                                         ({"one": 1}, "keys must be integer levels.*'one'"),
                                         ({None: 1}, "keys must be integer levels.*None")])
def test_gains_mapping_non_number_named(gains, match):
    with pytest.raises(ValueError, match="gains: .*" + match):
        ev(measures=["nDCG@2"], gains=gains)


# 5. a list of DataFrames where one DataFrame is expected
@pytest.mark.parametrize("which,value,match", [
    ("run", lambda: (RUN, RUN.assign(run_id="t"), RUN), "run must be one DataFrame .* got a tuple of 3 DataFrames"),
    ("qrels", lambda: [QRELS], "qrels must be one DataFrame .* got a list of 1 DataFrame; concatenate"),
])
def test_list_of_frames_refused_in_one_line(which, value, match):
    with pytest.raises(ValueError, match=match) as e:
        ev(**{"q": QRELS, "r": RUN, which[0]: value()})
    assert "\n" not in str(e.value)


# 6. parameter files the runner must refuse before a kernel starts
from helpers.notebook.params import ParameterError, check_values  # noqa: E402

DECL_01 = {"seed": int, "d_max_list": list, "n_list": list, "real_datasets": list, "replicates": int}
DECL_06 = {"data": str, "facets": str, "components": dict, "split_topics": list, "replicates": int,
           "measures": list}


@pytest.mark.parametrize("declared,values,match", [
    (DECL_01, {"d_max_list": []}, "d_max_list is an empty list"),
    (DECL_06, {"measures": []}, "measures is an empty list"),
    (DECL_01, {"real_datasets": ["stc-ja", "dl19-agreemnt"]}, "real_datasets must be .*'dl19-agreemnt'.*did you mean"),
    (DECL_06, {"facets": "s x t"}, "facets must be 's x \\(a:t\\)' or 's x t x a'"),
    (DECL_01, {"replicates": 1}, "replicates must be an integer >= 2"),
    (DECL_06, {"split_topics": [1, 4]}, "split_topics must hold integers >= 2"),
    (DECL_06, {"facets": "s x t x a", "components": {"s": 0.1, "t": 0.1, "a": 0.1, "st": 0.1, "sa": 0.1,
                                                    "ta": 0.1, "xyz": 0.1}},
     "components must have exactly the keys of the design 's x t x a'"),
    (DECL_06, {"components": {"s": 0.01, "t": 0.02, "a:t": 0.015, "st": 0.01, "sa:t": -0.5}},
     "components must be variances >= 0, got sa:t: -0.5"),
])
def test_runner_refuses_values_the_kernel_cannot_use(declared, values, match):
    with pytest.raises(ParameterError, match=match):
        check_values(values, declared)


def test_components_of_a_files_run_are_not_checked_and_wider_domains_stay():
    check_values({"data": "files", "facets": "s x t x a"}, DECL_06)
    check_values({"replicates": 1, "n_list": [1]}, {"replicates": int, "n_list": list})  # 03-05 take 1


# 7. trec_eval --many-runs --out-dir that cannot be written names --out-dir and "cannot write"
def test_out_dir_not_writable_is_named(tmp_path, capsys):
    from helpers.__main__ import main

    (tmp_path / "q").write_text("5 0 a 1\n")
    (tmp_path / "run1").write_text("5 Q0 a 1 1.0 s\n")
    (tmp_path / "plain").write_text("")
    out_dir = tmp_path / "plain" / "sub"          # below a file: the folder cannot be made
    assert main(["trec_eval", "--many-runs", "--out-dir", str(out_dir), str(tmp_path / "q"),
                 str(tmp_path / "run1")]) == 2
    err = capsys.readouterr().err
    assert f"--out-dir '{out_dir}': cannot write" in err and "cannot read" not in err, err


# 8. a single-value option of `evaluate` given twice is refused (argparse kept the last one)
@pytest.mark.parametrize("extra,flag", [(["--qrels", "OTHER"], "--qrels"), (["--gains", "1:2", "--gains", "1:3"], "--gains"),
                                        (["--output-format", "table", "--format", "jsonl"], "--output-format")])
def test_evaluate_option_given_twice_refused(tmp_path, capsys, extra, flag):
    from helpers.__main__ import main

    (tmp_path / "q").write_text("5 0 a 1\n")
    (tmp_path / "r").write_text("5 Q0 a 1 1.0 s\n")
    extra = [str(tmp_path / "r") if x == "OTHER" else x for x in extra]
    assert main(["evaluate", "--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--measures", "AP",
                 *extra]) == 2
    captured = capsys.readouterr()
    assert f"argument {flag}" in captured.err and "given twice" in captured.err and not captured.out
