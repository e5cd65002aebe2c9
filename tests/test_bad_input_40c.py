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
                                         ({"one": 1}, "keys must be integer relevance levels.*'one'"),
                                         ({None: 1}, "keys must be integer relevance levels.*None")])
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
