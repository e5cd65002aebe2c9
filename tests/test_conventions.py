"""One named convention for names, ordering, score precision and empty topics (issue 27), shared by
the Python API and the command line; trec_eval/ir_measures names everywhere; ambiguous names said."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.measures import cli as measures_cli
from helpers.measures import conventions as C
from helpers.measures import names as measure_names

ROOT = Path(__file__).resolve().parent.parent

# Topic 1: a and b tie in single precision (1.00000001 vs 1.0 as C floats); b (the larger doc id)
# is relevant, so trec_eval's order puts it first and double precision puts a first.
# Topic 2 has no relevant document; topic 3 is judged but no run answers it.
QRELS = pd.DataFrame({"query_id": ["1", "1", "1", "2", "3"], "doc_id": ["a", "b", "c", "x", "y"],
                      "relevance": [0, 2, 1, 0, 1]})
RUN = pd.DataFrame({"query_id": ["1", "1", "1", "2"], "doc_id": ["a", "b", "c", "x"],
                    "rank": [1, 2, 3, 1], "score": [1.00000001, 1.0, 0.5, 3.0]})


@pytest.fixture(autouse=True)
def fresh_warnings():
    """Each test sees the once-per-session warnings anew."""
    measure_names.WARNED.clear()
    yield
    measure_names.WARNED.clear()


def _values(res: pd.DataFrame) -> dict:
    return {(r.query_id, r.measure): r.value for r in res.itertuples()}


# ---- the named conventions ---------------------------------------------------------------------

def test_presets_and_overrides():
    assert C.resolve().settings() == C.PRESETS["ntcireval"] and not C.resolve().chosen
    te = C.resolve("trec_eval")
    assert (te.names, te.order_by, te.score_precision, te.no_relevant, te.missing) == (
        "trec_eval", "score", "single", "zero", "skip")
    c = C.resolve("trec_eval", missing="zero")
    assert c.missing == "zero" and c.overrides == ("missing",) and "overridden: missing='zero'" in c.describe()
    assert C.resolve(names="ir_measures").preset == "trec_eval"          # a naming scheme picks its tool
    assert C.resolve(names="ntcireval").chosen                            # ...and counts as a choice
    assert C.resolve(c, no_relevant="nan").overrides == ("no_relevant", "missing")


@pytest.mark.parametrize("kwargs,message", [
    ({"conventions": "trec"}, "conventions must be one of ('ntcireval', 'trec_eval')"),
    ({"order_by": "file"}, "order_by must be one of ('rank', 'score')"),
    ({"score_precision": "half"}, "score_precision must be one of"),
    ({"names": "pyterrier"}, "names must be one of"),
    ({"missing": "nan"}, "missing must be one of"),
])
def test_bad_conventions_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        M.evaluate(QRELS, RUN, ["RR"], **kwargs)


def test_trec_eval_convention_sets_order_precision_and_empty_topics_together():
    te = M.evaluate(QRELS, RUN, ["RR", "P@1"], conventions="trec_eval")
    by_hand = M.evaluate(QRELS, RUN, ["RR", "P@1"], order_by="score", score_precision="single",
                         no_relevant="zero", missing="skip")
    pd.testing.assert_frame_equal(te, by_hand)
    v = _values(te)
    assert v[("1", "RR")] == 1.0                  # b first: tie in single precision, larger doc id
    assert v[("2", "RR")] == 0.0                  # no relevant document: 0
    assert "3" not in set(te["query_id"])         # unanswered topic: left out
    assert te.attrs["conventions"] == {"conventions": "trec_eval", "names": "trec_eval", "order_by": "score",
                                       "score_precision": "single", "no_relevant": "zero", "missing": "skip",
                                       "source": "conventions=", "overrides": []}
    with pytest.warns(UserWarning, match="no ranked list for some qrels topics"):
        nt = M.evaluate(QRELS, RUN, ["RR"], conventions="ntcireval")
    v = _values(nt)
    assert v[("1", "RR")] == 0.5                  # rank column: a first
    assert "2" not in set(nt["query_id"]) and v[("3", "RR")] == 0.0
    assert nt.attrs["conventions"]["order_by"] == "rank"
    double = M.evaluate(QRELS, RUN, ["RR"], conventions="trec_eval", score_precision="double")
    assert _values(double)[("1", "RR")] == 0.5 and double.attrs["conventions"]["overrides"] == ["score_precision"]


def test_alignment_keeps_its_conventions():
    al = M.Alignment(QRELS, RUN, conventions="trec_eval")
    pd.testing.assert_frame_equal(al.evaluate(["RR", "P_1"]), M.evaluate(QRELS, RUN, ["RR", "P_1"],
                                                                          conventions="trec_eval"))
    with pytest.warns(UserWarning, match="no ranked list"):
        res = al.evaluate(["RR"], missing="zero")
    assert _values(res)[("3", "RR")] == 0.0


# ---- names -------------------------------------------------------------------------------------

def test_trec_eval_and_ir_measures_names_in_the_api():
    te = M.evaluate(QRELS, RUN, ["ndcg_cut_10", "nDCG@10", "map", "P_1", "AP(rel=2)", "Success@1"],
                    conventions="trec_eval")
    assert list(pd.unique(te["measure"])) == ["ndcg_cut_10", "nDCG@10", "map", "P_1", "AP(rel=2)", "Success@1"]
    assert te.attrs["measures"]["nDCG@10"] == "MSnDCG@10" and te.attrs["measures"]["map"] == "AP"
    ours = M.evaluate(QRELS, RUN, ["MSnDCG@10", "AP", "P@1", "AP(rel=2)", "Hit@1"], conventions="trec_eval",
                      names="ntcireval")
    a, b = _values(te), _values(ours)
    for q in ("1", "2"):
        assert a[(q, "nDCG@10")] == a[(q, "ndcg_cut_10")] == b[(q, "MSnDCG@10")]
        assert a[(q, "map")] == b[(q, "AP")] and a[(q, "P_1")] == b[(q, "P@1")]
        assert a[(q, "Success@1")] == b[(q, "Hit@1")] and a[(q, "AP(rel=2)")] == b[(q, "AP(rel=2)")]


def test_ndcg_at_10_means_ir_measures_nDCG_under_trec_eval():
    ir_measures = pytest.importorskip("ir_measures")
    run = RUN.assign(score=[3.0, 2.0, 1.0, 3.0])
    ours = M.evaluate(QRELS, run, ["nDCG@10", "nDCG@2"], conventions="trec_eval")
    theirs = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(
        [ir_measures.nDCG @ 10, ir_measures.nDCG @ 2], QRELS, run[["query_id", "doc_id", "score"]])}
    for (q, name), value in _values(ours).items():
        assert value == pytest.approx(theirs[(q, name)], abs=1e-15)


def test_ambiguous_name_warns_once_saying_which_ndcg_and_how_to_ask_for_the_other():
    with pytest.warns(measure_names.AmbiguousNameWarning) as caught:
        res = M.evaluate(QRELS, RUN, ["nDCG@10"])
    (w,) = [x for x in caught if issubclass(x.category, measure_names.AmbiguousNameWarning)]
    text = str(w.message)
    assert "original nDCG" in text and "'MSnDCG@10'" in text and "conventions='trec_eval'" in text
    assert w.filename == __file__                       # points at the user's line
    assert res.attrs["measures"] == {"nDCG@10": "nDCG@10"}
    with warnings.catch_warnings():
        warnings.simplefilter("error", measure_names.AmbiguousNameWarning)
        again = M.evaluate(QRELS, RUN, ["nDCG@10"])    # once per session
        pd.testing.assert_frame_equal(again, res)
    measure_names.WARNED.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", measure_names.AmbiguousNameWarning)
        M.evaluate(QRELS, RUN, ["nDCG@10"], conventions="ntcireval")   # chosen: nothing to say
        M.evaluate(QRELS, RUN, ["Q", "nERR@10", "MSnDCG@10", "AP(norm=R)@10", "nDCG(b=2)@10"])  # unambiguous
    m = M.evaluate(QRELS, RUN, ["MSnDCG@10"])
    assert not np.allclose(m["value"], res["value"])    # the two nDCGs differ on this run


@pytest.mark.parametrize("name,other", [("AP@10", "'AP(norm=R)@10'"), ("ERR@10", "gdeval"),
                                        ("RBP", "counts every relevant document as 1")])
def test_other_ambiguous_names_warn(name, other):
    with pytest.warns(measure_names.AmbiguousNameWarning, match=other.replace("(", r"\(").replace(")", r"\)")):
        M.evaluate(QRELS, RUN, [name])


def test_trec_eval_names_recognised_under_ntcireval_with_a_word_on_the_conventions():
    with pytest.warns(measure_names.AmbiguousNameWarning, match="'map', 'P_1' are trec_eval/ir_measures names"):
        res = M.evaluate(QRELS, RUN, ["map", "P_1", "Q"])
    assert list(pd.unique(res["measure"])) == ["map", "P_1", "Q"]
    ref = M.evaluate(QRELS, RUN, ["AP", "P@1"], conventions="ntcireval")
    assert _values(res)[("1", "map")] == _values(ref)[("1", "AP")]


@pytest.mark.parametrize("kwargs", [{}, {"conventions": "trec_eval"}])
def test_refused_names_point_to_the_translation(kwargs):
    with pytest.raises(ValueError, match=r"helpers\.measures\.names\.translate"):
        M.evaluate(QRELS, RUN, ["infAPx"], **kwargs)


def test_rel_option_is_trec_evals_minus_l():
    a = M.evaluate(QRELS, RUN, ["map", "ndcg_cut_10"], conventions="trec_eval", rel=2)
    b = M.evaluate(QRELS, RUN, ["AP(rel=2)", "MSnDCG@10"], conventions="trec_eval")
    assert a["value"].tolist() == b["value"].tolist()
    assert a.attrs["measures"] == {"map": "AP(rel=2)", "ndcg_cut_10": "MSnDCG@10"}
    c = M.evaluate(QRELS, RUN, ["AP", "RR"], conventions="trec_eval", names="ntcireval", rel="dl19-passage")
    assert list(pd.unique(c["measure"])) == ["AP(rel=2)", "RR(rel=2)"]
    for bad in (0, 1.5, True, "dl99"):
        with pytest.raises(ValueError, match="rel|relevance threshold"):
            M.evaluate(QRELS, RUN, ["AP"], rel=bad)


# ---- runs from paths, lists of paths and globs -----------------------------------------------

def _write_runs(folder: Path) -> list[Path]:
    files = []
    for tag, docs in [("s1", ["b", "a", "c"]), ("s2", ["c", "a", "b"])]:
        f = folder / f"{tag}.txt"
        f.write_text("".join(f"1 Q0 {d} {i + 1} {3 - i}.0 {tag}\n" for i, d in enumerate(docs)))
        files.append(f)
    return files


def test_runs_from_a_path_a_list_or_a_glob(tmp_path):
    files = _write_runs(tmp_path)
    frame = pd.concat([pd.read_csv(f, sep=" ", header=None, names=["query_id", "q0", "doc_id", "rank", "score",
                                                                   "run_id"], dtype={"query_id": str})
                       for f in files], ignore_index=True)
    ref = M.evaluate(QRELS, frame, ["AP", "RR"], conventions="trec_eval")
    for run in (files, [str(f) for f in files], str(tmp_path / "*.txt"), tmp_path):
        pd.testing.assert_frame_equal(M.evaluate(QRELS, run, ["AP", "RR"], conventions="trec_eval"), ref)
    one = M.evaluate(QRELS, files[0], ["AP"], conventions="trec_eval")
    assert set(one["run_id"]) == {"s1"}


def test_bad_run_paths_are_named(tmp_path):
    files = _write_runs(tmp_path)
    with pytest.raises(ValueError, match=r"run: no file matches '.*nothing\*\.txt'"):
        M.evaluate(QRELS, str(tmp_path / "nothing*.txt"), ["AP"])
    twin = tmp_path / "copy.txt"
    twin.write_text(files[0].read_text())
    with pytest.raises(ValueError, match="run id 's1' appears in both .*s1.txt and .*copy.txt"):
        M.evaluate(QRELS, [files[0], twin], ["AP"])
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 a 1 1.0 s9\n1 Q0 b x 0.5 s9\n")
    with pytest.raises(ValueError, match=r"bad.txt:2"):
        M.evaluate(QRELS, [files[0], bad], ["AP"])


# ---- the command line ------------------------------------------------------------------------

def test_cli_reports_the_conventions_and_shares_them_with_the_api(tmp_path, capsys):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{a} 0 {b} {c}\n" for a, b, c in QRELS.itertuples(index=False)))
    r.write_text("".join(f"{a} Q0 {b} {c} {d!r} s\n" for a, b, c, d in RUN.itertuples(index=False)))
    base = ["--qrels", str(q), "--run", str(r), "--per-topic", "--output-format", "jsonl", "--measures"]
    for argv, kwargs in [(["map", "ndcg_cut_10", "--conventions", "trec_eval"], {"conventions": "trec_eval"}),
                         (["map", "ndcg_cut_10", "--names", "trec_eval"], {"names": "trec_eval"}),
                         (["AP", "RR", "--conventions", "trec_eval", "--missing", "zero"],
                          {"conventions": "trec_eval", "missing": "zero"}),
                         (["AP", "nDCG@3"], {})]:
        measure_names.WARNED.clear()
        assert measures_cli.main(base + argv) == 0
        cap = capsys.readouterr()
        conv = C.resolve(**{k: v for k, v in kwargs.items()})
        assert conv.describe() in cap.err
        rows = [json.loads(line) for line in cap.out.splitlines()]
        cli = {(x["query_id"], x["measure"]): x["value"] for x in rows if x["query_id"] != "all"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api = M.evaluate(QRELS.astype({"query_id": str}), r, argv[:2], **kwargs)
        assert cli == {k: (None if np.isnan(v) else v) for k, v in _values(api).items()}
    assert "warning: 'nDCG@3' is NTCIREVAL's original nDCG" in cap.err   # the default: said once


def test_cli_names_trec_eval_alone_selects_trec_eval(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("T 0 a 1\nT 0 b 0\n")
    r.write_text("T Q0 a 1 1.00000001 s\nT Q0 b 2 1.0 s\n")
    proc = subprocess.run([sys.executable, "-m", "helpers", "evaluate", "--qrels", str(q), "--run", str(r),
                           "--names", "trec_eval", "--measures", "recip_rank", "--digits", "6"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "s\tall\trecip_rank\t0.500000" in proc.stdout
    assert "conventions trec_eval (chosen by names='trec_eval')" in proc.stderr


# ---- acceptance: DL-19, all 37 runs, the API, the CLI and pytrec_eval agree exactly ------------

def _dl19():
    import os

    from helpers.data import datasets
    if not os.environ.get("SUBJEVAL_DATA_MIRROR") and not (ROOT / "data" / "external").is_dir():
        pytest.skip("the DL-19 public data is neither downloaded nor mirrored")
    qrels_path = datasets.fetch("dl19-nist-qrels")["qrels/qrels.dl19-passage.txt"]
    runs = sorted(datasets.fetch("dl19-runs").values())
    assert len(runs) == 37
    return qrels_path, runs


def _pytrec(qrels_path, runs, levels) -> dict:
    """pytrec_eval's per-topic values of nDCG@10, and of AP, P@10 and RR at every binary ``level``
    (keys ``(run, topic, name, level)``; each run file is parsed once)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from helpers.io import trec as trec_io

    qrels = trec_io.read_qrels(qrels_path)
    qd: dict = {}
    for q, d, rel in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"]):
        qd.setdefault(q, {})[d] = int(rel)
    graded = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10"})
    binary = {lv: pytrec_eval.RelevanceEvaluator(qd, {"map", "P.10", "recip_rank"}, relevance_level=lv)
              for lv in levels}
    out = {}
    for path in runs:
        run = trec_io.read_run(path)
        (rid,) = run["run_id"].unique()
        rd: dict = {}
        for q, d, s in zip(run["query_id"], run["doc_id"], run["score"]):
            rd.setdefault(q, {})[d] = float(s)
        for ev, lvs in [(graded, [None])] + [(b, [lv]) for lv, b in binary.items()]:
            for q, values in ev.evaluate(rd).items():
                for m, v in values.items():
                    out[(rid, q, m, lvs[0])] = v
    return out


@pytest.mark.slow   # ~55 CPU s over the 37 DL-19 runs: make test-slow (the differential tests cover the command in make test)
def test_dl19_api_cli_and_pytrec_eval_agree_exactly():
    """All 37 DL-19 runs, binary measures at rel=2 (the TREC DL convention) and rel=1: each run file is
    read once by pytrec_eval's side, once by the API and once by the CLI, for both levels."""
    qrels_path, runs = _dl19()
    levels = [2, 1]
    theirs = _pytrec(qrels_path, runs, levels)
    # the API, as an ir_measures user writes it, on the list of run files
    api_names = {"nDCG@10": ("ndcg_cut_10", None)}
    for lv in levels:
        api_names.update({f"AP(rel={lv})": ("map", lv), f"P(rel={lv})@10": ("P_10", lv),
                          f"RR(rel={lv})": ("recip_rank", lv)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # DL-19 runs answer 200 topics, 43 are judged: said, not our point
        api = M.evaluate(qrels_path, runs, list(api_names), conventions="trec_eval")
    # the CLI, as a trec_eval user writes it (trec_eval names with --rel 2), plus the rel=1 measures by name
    cli_names = {"ndcg_cut_10": ("ndcg_cut_10", None), "map": ("map", 2), "P_10": ("P_10", 2),
                 "recip_rank": ("recip_rank", 2), "AP(rel=1)": ("map", 1), "P(rel=1)@10": ("P_10", 1),
                 "RR(rel=1)": ("recip_rank", 1)}
    argv = [sys.executable, "-m", "helpers", "evaluate", "--qrels", str(qrels_path), "--run", *map(str, runs),
            "--conventions", "trec_eval", "--measures", *cli_names, "--rel", "2", "--per-topic",
            "--output-format", "jsonl"]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    cli = {(r["run_id"], r["query_id"], *cli_names[r["measure"]]): r["value"]
           for r in map(json.loads, proc.stdout.splitlines())}
    n = 0
    for r in api.itertuples():
        key = (r.run_id, r.query_id, *api_names[r.measure])
        assert r.value == theirs[key] == cli[key], (r, key)
        n += 1
    assert n == 37 * 43 * 7 == len(theirs) and api["run_id"].nunique() == 37
    means = M.aggregate(api)
    topics = sorted(set(api["query_id"]))
    worst = 0.0
    for r in means.itertuples():  # the CLI's 'all' line is the API's mean (compensated summation) ...
        name, lv = api_names[r.measure]
        assert cli[(r.run_id, "all", name, lv)] == r.value and r.n_topics == 43
        # ... and the mean of pytrec_eval's values to the last bits: the order of additions differs
        worst = max(worst, abs(math.fsum(theirs[(r.run_id, q, name, lv)] for q in topics) / 43 - r.value))
    print(f"levels {levels}: means within {worst:.1e} of pytrec_eval's (per-topic values identical)")
    assert worst <= 1e-15, worst
