"""A TREC run whose rank column orders lists otherwise than trec_eval's score order is said once
(issue 41, item 2): in the API (RankOrderWarning, once per evaluate() call), on the command line
(one stderr line, tests/test_measures_cli.py) and as a one-line note for a notebook's input
summary (helpers.measures.order_note).

The case: tests/data/rank_order/, written by tools/make_rank_order_case.py -- the DL-19 passage
runs in miniature (tied scores whose rank column breaks ties by increasing doc id), plus a run in
trec_eval's own order and a reranked run whose ranks go against its scores.
"""

from __future__ import annotations

import importlib.util
import os
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers import paths
from helpers.measures import ordering

CASE = paths.ROOT / "tests" / "data" / "rank_order"
QRELS = CASE / "qrels.txt"
RUNS = sorted((CASE / "runs").glob("*.txt"))
MEASURES = ["AP(rel=2)", "RR(rel=2)", "P(rel=2)@5"]


def _script():
    spec = importlib.util.spec_from_file_location("make_rank_order_case", paths.ROOT / "tools" / "make_rank_order_case.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_case_is_what_the_script_writes():
    made = _script().files()
    assert sorted(made) == ["qrels.txt", "runs/reranked.txt", "runs/ties-ascending.txt", "runs/ties-descending.txt"]
    for rel, text in made.items():
        assert (CASE / rel).read_text(encoding="utf-8") == text, f"{rel}: rerun python tools/make_rank_order_case.py"


def _runs() -> pd.DataFrame:
    from helpers.io import trec
    return pd.concat([trec.read_run(p) for p in RUNS], ignore_index=True)


def test_check_counts_each_kind_of_disagreement_per_run():
    runs = _runs()
    by_run = {rid: ordering.check_rank_order(runs[runs["run_id"] == rid]) for rid in runs["run_id"].unique()}
    assert (by_run["ties-descending"].disagree, by_run["ties-descending"].note()) == (0, "")
    assert (by_run["ties-ascending"].against_scores, by_run["ties-ascending"].tied_only) == (0, 6)
    assert by_run["reranked"].against_scores == 6 and by_run["reranked"].tied_only == 0
    both = ordering.check_rank_order(runs)
    assert (both.lists, both.runs, both.topics, both.disagree, both.runs_affected, both.topics_affected) == \
        (18, 3, 6, 12, 2, 6)
    assert ordering.check_rank_order(runs, topics=["1000", "nope"]).lists == 3
    assert ordering.check_rank_order(runs.drop(columns="score")) is None      # nothing to disagree with
    assert ordering.check_rank_order(runs.drop(columns="rank")) is None


def _naive(run: pd.DataFrame) -> tuple[int, int]:
    """(against scores, tied only) list by list with Python sorts: the engine's rank order (rank,
    then score and doc id decreasing) against trec_eval's (score as a C float, then doc id, both
    decreasing)."""
    from functools import cmp_to_key

    def cmp(key):   # ascending on key(row)'s numbers, then doc id descending
        return cmp_to_key(lambda a, b: (key(a) > key(b)) - (key(a) < key(b)) or (a[2] < b[2]) - (a[2] > b[2]))

    against = tied = 0
    for _, g in run.groupby(["run_id", "query_id"], sort=False):
        rows = list(zip(g["rank"], g["score"], g["doc_id"]))
        engine = sorted(rows, key=cmp(lambda r: (r[0], -r[1])))
        f = [float(np.float32(r[1])) for r in engine]
        trec = sorted(engine, key=cmp(lambda r: -float(np.float32(r[1]))))
        if any(b > a for a, b in zip(f, f[1:])):
            against += 1
        elif [r[2] for r in engine] != [r[2] for r in trec]:
            tied += 1
    return against, tied


def test_check_agrees_with_a_list_by_list_reading_on_random_runs():
    """Shuffled rows, lists split over the file, equal ranks, scores equal only as C floats."""
    rng = np.random.default_rng(41)
    for case in range(60):
        n = int(rng.integers(1, 60))
        run = pd.DataFrame({
            "run_id": rng.choice(["r1", "r2"], n), "query_id": rng.choice(["7", "8", "9"], n),
            "doc_id": [f"d{k}" for k in rng.permutation(n)],
            "rank": rng.integers(1, 8, n), "score": rng.choice([1.0, 1.0 + 1e-9, 2.0, 0.5, 3.25], n)})
        if case % 3 == 0:   # ranks in score order, ties any way: tied-only cases
            run["rank"] = (-run["score"]).rank(method="first").astype(int)
        check = ordering.check_rank_order(run)
        assert (check.against_scores, check.tied_only) == _naive(run), (case, run)


def test_evaluate_warns_once_per_call_with_the_counts_and_how_to_get_trec_eval():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        M.evaluate(QRELS, RUNS, MEASURES)
    notes = [w for w in caught if issubclass(w.category, ordering.RankOrderWarning)]
    assert len(notes) == 1
    text = str(notes[0].message)
    assert "disagree in 12 of 18 ranked lists (6 of 6 topics, 2 of 3 runs" in text
    assert "6 rank a document above one with a higher score" in text and "6 order tied scores" in text
    assert "follows the rank column" in text and "decreasing score as a C float, ties by doc id descending" in text
    assert "conventions='trec_eval'" in text and "\n" not in text
    assert notes[0].message.check.runs_affected == 2
    assert notes[0].filename == __file__                   # the user's line, not the engine's
    for kwargs in ({"conventions": "ntcireval"}, {"conventions": "trec_eval"}, {"order_by": "rank"},
                   {"names": "ntcireval"}):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ordering.RankOrderWarning)   # a chosen order is not second-guessed
            M.evaluate(QRELS, RUNS, MEASURES, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ordering.RankOrderWarning)       # a run in trec_eval's order: nothing to say
        M.evaluate(QRELS, [p for p in RUNS if p.stem == "ties-descending"], MEASURES)


def test_the_numbers_differ_exactly_on_the_runs_the_note_counts_and_trec_eval_matches_pytrec_eval():
    """As on DL-19 (AP(rel=2) off on 18 of 37 runs): here on 2 of 3; conventions='trec_eval' gives
    pytrec_eval's values to the last bit."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ordering.RankOrderWarning)
        rank = M.aggregate(M.evaluate(QRELS, RUNS, MEASURES)).set_index(["run_id", "measure"])["value"]
    trec = M.evaluate(QRELS, RUNS, MEASURES, conventions="trec_eval")
    means = M.aggregate(trec).set_index(["run_id", "measure"])["value"]
    differ = {rid for (rid, m), v in (rank - means).items() if m == "AP(rel=2)" and v != 0}
    assert differ == {"ties-ascending", "reranked"}
    assert all(rank[("ties-descending", m)] == means[("ties-descending", m)] for m in MEASURES)
    from helpers.io import trec as trec_io
    qd: dict = {}
    for q, d, lv in trec_io.read_qrels(QRELS).itertuples(index=False):
        qd.setdefault(q, {})[d] = int(lv)
    ev = pytrec_eval.RelevanceEvaluator(qd, {"map", "recip_rank"}, relevance_level=2)
    runs = _runs()
    for rid, g in runs.groupby("run_id"):
        rd: dict = {}
        for q, d, s in zip(g["query_id"], g["doc_id"], g["score"]):
            rd.setdefault(q, {})[d] = float(s)
        theirs = ev.evaluate(rd)
        for r in trec[trec["run_id"] == rid].itertuples():
            key = {"AP(rel=2)": "map", "RR(rel=2)": "recip_rank"}.get(r.measure)
            if key:
                assert r.value == theirs[r.query_id][key], (rid, r)


def test_order_note_is_one_line_of_short_sentences_for_a_notebook():
    runs = _runs()
    note = ordering.order_note(runs, topics=["1000", "1007"])
    assert note.startswith("The run's rank column and trec_eval's score order disagree in 4 of 6 ranked lists")
    assert "\n" not in note and "helpers.measures.evaluate" in note
    assert max(len(s.split()) for s in note.split(". ")) <= 50     # issue 37: no sentence over ~50 words
    assert ordering.order_note(runs[runs["run_id"] == "ties-descending"]) == ""
    assert ordering.order_note(runs.drop(columns="rank")) == ""
    with pytest.raises(ValueError, match="where must be one of"):
        ordering.check_rank_order(runs).note("paper")


@pytest.mark.skipif(os.environ.get("SUBJEVAL_SLOW_TESTS") != "1",
                    reason="reads the 37 DL-19 runs (~85 MB); set SUBJEVAL_SLOW_TESTS=1")
def test_dl19_the_note_counts_the_runs_whose_ap_differs():
    from helpers.data import datasets
    from helpers.io import trec as trec_io
    qrels = datasets.fetch("dl19-nist-qrels")["qrels/qrels.dl19-passage.txt"]
    runs = pd.concat([trec_io.read_run(p) for p in sorted(datasets.fetch("dl19-runs").values())], ignore_index=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rank = M.aggregate(M.evaluate(qrels, runs, ["AP(rel=2)"])).set_index("run_id")["value"]
    (note,) = [w.message for w in caught if issubclass(w.category, ordering.RankOrderWarning)]
    assert (note.check.runs, note.check.runs_affected, note.check.against_scores) == (37, 33, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trec = M.aggregate(M.evaluate(qrels, runs, ["AP(rel=2)"], conventions="trec_eval")).set_index("run_id")["value"]
    differ = set(rank.index[rank != trec])
    affected = {rid for rid in runs["run_id"].unique()
                if ordering.check_rank_order(runs[runs["run_id"] == rid], topics=trec_io.read_qrels(qrels)["query_id"]).disagree}
    assert differ <= affected and len(differ) >= 18, (len(differ), len(affected))
