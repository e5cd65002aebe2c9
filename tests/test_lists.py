"""The run side of the engine (helpers.measures.lists): ranked lists read block by block, ties broken
by document id only where scores tie, duplicates found by hashing -- the same lists as a plain sort."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.measures import lists

NAMES = ["AP", "RR", "P@5", "MSnDCG@10", "Q", "nERR@10", "R@20"]


def random_collection(seed: int, n_runs: int = 4, n_topics: int = 30, depth: int = 60):
    """Runs with many tied scores (also in single precision), doc ids that sort differently as
    strings and as numbers, topics missing from the qrels, and rows in file order."""
    rng = np.random.default_rng(seed)
    docs = np.array([f"{rng.integers(0, 2000)}" for _ in range(3000)] + [f"d{i}" for i in range(300)], dtype=object)
    docs = pd.unique(docs)
    qrels = pd.DataFrame([(f"{t}", d, int(rng.integers(0, 4))) for t in range(n_topics)
                          for d in rng.choice(docs, 40, replace=False)], columns=["query_id", "doc_id", "relevance"])
    rows = []
    for r in range(n_runs):
        for t in range(n_topics + 5):                       # 5 topics the qrels do not judge
            chosen = rng.choice(docs, depth, replace=False)
            base = rng.choice([1.0, 2.0, 3.0, 1.00000001, 0.5], size=depth)   # ties, and ties only in float32
            for d, sc in zip(chosen, base):
                rows.append((f"r{r}", f"{t}", d, sc))
    run = pd.DataFrame(rows, columns=["run_id", "query_id", "doc_id", "score"])
    run["rank"] = run.groupby(["run_id", "query_id"]).cumcount() + 1
    return qrels, run


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal tables, whatever the order of runs (runs come in order of first appearance)."""
    key = ["run_id", "query_id", "measure"]
    pd.testing.assert_frame_equal(a.sort_values(key, kind="stable").reset_index(drop=True),
                                  b.sort_values(key, kind="stable").reset_index(drop=True), check_exact=True)


def reference_order(run: pd.DataFrame, single: bool) -> pd.DataFrame:
    """trec_eval's order by a plain sort: score (in single precision if asked) descending, doc id
    descending, then ranks 1, 2, ... (no score left: the engine follows the ranks)."""
    key = run["score"].to_numpy().astype(np.float32).astype(float) if single else run["score"]
    out = run.assign(_s=key).sort_values(["run_id", "query_id", "_s", "doc_id"], ascending=[True, True, False, False],
                                         kind="stable")
    out["rank"] = out.groupby(["run_id", "query_id"]).cumcount() + 1
    return out.drop(columns=["_s", "score"])


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("conventions", ["trec_eval", "ntcireval"])
def test_ties_and_precision_give_the_plain_sort(seed, conventions):
    qrels, run = random_collection(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if conventions == "trec_eval":
            ref = M.evaluate(qrels, reference_order(run, single=True), NAMES, conventions="trec_eval",
                             order_by="rank")
            shuffled = run.sample(frac=1.0, random_state=seed)        # rows in any order
            for frame in (run, shuffled, run.drop(columns="rank")):
                same(M.evaluate(qrels, frame, NAMES, conventions="trec_eval"), ref)
        else:   # rank column first, then score, then doc id: ties of rank broken like trec_eval's
            tied_ranks = run.assign(rank=(run["rank"] + 1) // 2)
            ref_rows = tied_ranks.assign(_s=run["score"]).sort_values(
                ["run_id", "query_id", "rank", "_s", "doc_id"], ascending=[True, True, True, False, False])
            ref_rows["rank"] = ref_rows.groupby(["run_id", "query_id"]).cumcount() + 1
            ref = M.evaluate(qrels, ref_rows.drop(columns=["_s", "score"]), NAMES)
            same(M.evaluate(qrels, tied_ranks, NAMES), ref)


def test_rows_interleaved_or_in_blocks_are_the_same_lists():
    qrels, run = random_collection(2, n_runs=3, n_topics=20, depth=40)
    assert len(run) > 1024   # the block path
    blocks = M.evaluate(qrels, run, NAMES, conventions="trec_eval")
    interleaved = run.iloc[np.argsort(np.arange(len(run)) % 7, kind="stable")]
    same(M.evaluate(qrels, interleaved, NAMES, conventions="trec_eval"), blocks)
    # one run's last topic equals the next run's first topic: two lists, not one
    a = run[run["run_id"] == "r0"]
    b = run[run["run_id"] == "r1"]
    a_last = a[a["query_id"] == a["query_id"].iloc[-1]]
    joined = pd.concat([a, b[b["query_id"] == a_last["query_id"].iloc[0]], b])
    joined = joined.drop_duplicates(["run_id", "query_id", "doc_id"])
    res = M.evaluate(qrels, joined, NAMES, conventions="trec_eval")
    ref = M.evaluate(qrels, joined.sample(frac=1.0, random_state=1), NAMES, conventions="trec_eval")
    same(res, ref)


def test_ids_that_are_not_strings_are_compared_as_strings():
    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["10", "9", "x"], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query_id": [1, 1, 1], "doc_id": pd.Series([9, 10, "x"], dtype=object), "score": [1.0] * 3})
    res = M.evaluate(qrels, run, ["RR", "AP"], conventions="trec_eval")
    # all tied: doc ids descending as strings: "x", "9", "10"
    assert res["value"].tolist() == [1.0, (1 + 2 / 3) / 2]


def test_duplicates_are_found_in_any_position_and_the_first_copy_is_kept():
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [1, 1]})
    run = pd.DataFrame({"run_id": ["s"] * 4 + ["t"], "query_id": ["1"] * 5, "doc_id": ["c", "a", "b", "a", "a"],
                        "rank": [1, 2, 3, 4, 1]})
    with pytest.raises(ValueError, match="run 's' retrieves document 'a' more than once for topic '1'"):
        M.evaluate(qrels, run, ["AP"])
    res = M.evaluate(qrels, run, ["AP"], duplicates="keep_first")
    assert res["value"].tolist() == [(1 / 2 + 2 / 3) / 2, 1 / 2]
    many = pd.DataFrame({"query_id": "1", "doc_id": [f"d{i}" for i in range(5000)] + ["d17"],
                         "rank": np.arange(5001)})
    with pytest.raises(ValueError, match="'d17' more than once"):
        M.evaluate(qrels, many, ["AP"])


@pytest.mark.parametrize("bad", [None, np.nan, pd.NA])
def test_missing_doc_ids_are_named_with_their_row(bad):
    qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "b"], "relevance": [1, 1]})
    run = pd.DataFrame({"query_id": ["2", "1", "1"], "doc_id": pd.Series(["b", "a", bad], dtype=object),
                        "rank": [1, 1, 2]})
    with pytest.raises(ValueError, match="run 'doc_id' has a missing value at row 2"):
        M.evaluate(qrels, run, ["AP"])


def test_tie_break_only_touches_tied_rows():
    list_id = np.array([0, 0, 0, 1, 1, 1])
    score = np.array([2.0, 1.0, 1.0, 5.0, 5.0, 5.0])
    docs = np.array(["z", "a", "b", "a", "c", "b"], dtype=object)
    order = lists.tie_break(list_id, [(score, False)], docs)
    assert docs[order].tolist() == ["z", "b", "a", "c", "b", "a"]
    assert lists.tie_break(list_id, [(np.arange(6.0), True)], docs) is None


def test_qrels_look_up_of_the_top_rows_only_when_every_measure_has_a_cutoff():
    qrels, run = random_collection(3, n_runs=2, n_topics=10, depth=50)
    full = M.evaluate(qrels, run, ["AP", "P@5", "MSnDCG@10"], conventions="trec_eval")
    cut = M.evaluate(qrels, run, ["P@5", "MSnDCG@10"], conventions="trec_eval")
    pd.testing.assert_frame_equal(full[full["measure"] != "AP"].reset_index(drop=True), cut)
    al = M.Alignment(qrels, run, conventions="trec_eval")
    top = al.qrow(10)
    every = al.qrow()
    assert (top[al.pos < 10] == every[al.pos < 10]).all() and (top[al.pos >= 10] == -1).all()
    assert (every[al.pos >= 10] >= 0).any()
    with pytest.warns(UserWarning, match="no retrieved document in the top 5 of any list is judged"):
        M.evaluate(qrels, run.assign(doc_id="nope" + run["doc_id"]), ["P@5"], conventions="trec_eval")


def test_duplicate_check_in_chunks_of_whole_lists(monkeypatch):
    """A duplicate is found whatever chunk its list falls in, also in a list longer than a chunk."""
    monkeypatch.setattr(lists, "DUPLICATE_CHUNK", 7)
    qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "b"], "relevance": [1, 1]})
    docs = [f"d{i}" for i in range(20)]
    for where in (0, 5, 19):
        run = pd.DataFrame({"query_id": ["1"] * 3 + ["2"] * 21, "doc_id": ["a", "x", "y"] + docs + [docs[where]],
                            "rank": np.arange(24)})
        with pytest.raises(ValueError, match=f"'{docs[where]}' more than once for topic '2'"):
            M.evaluate(qrels, run, ["AP"])
    fine = pd.DataFrame({"query_id": ["1"] * 20 + ["2"] * 20, "doc_id": docs + docs, "rank": np.arange(40)})
    assert len(M.evaluate(qrels, fine, ["AP"])) == 2


def test_an_alignment_unpickled_in_another_process_hashes_again(tmp_path):
    """str hashes are salted per interpreter: an Alignment sent to a worker (another hash seed)
    must not look its documents up with the hashes made here."""
    import ast
    import pickle
    import subprocess
    import sys
    from pathlib import Path

    qrels, run = random_collection(5, n_runs=2, n_topics=8, depth=30)
    al = M.Alignment(qrels, run, conventions="trec_eval")
    al.qrow(5)                                    # hashes made in this process
    here = M.evaluate(qrels, run, ["AP", "P@5"], conventions="trec_eval")
    (tmp_path / "al.pkl").write_bytes(pickle.dumps(al))
    code = ("import pickle, sys; al = pickle.load(open(sys.argv[1], 'rb')); "
            "print(repr(al.evaluate(['AP', 'P@5'])['value'].tolist()))")
    root = Path(__file__).resolve().parent.parent
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "al.pkl")], capture_output=True, text=True,
                             cwd=root, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root), "PYTHONHASHSEED": seed},
                             timeout=120)
        assert out.returncode == 0, out.stderr[-1500:]
        assert ast.literal_eval(out.stdout) == here["value"].tolist()


def test_qrels_look_up_in_chunks_gives_the_same_rows(monkeypatch):
    qrels, run = random_collection(6, n_runs=2, n_topics=10, depth=40)
    ref = M.evaluate(qrels, run, NAMES, conventions="trec_eval")
    monkeypatch.setattr(lists, "QRELS_CHUNK", 37)
    same(M.evaluate(qrels, run, NAMES, conventions="trec_eval"), ref)
    chunked = M.Alignment(qrels, run).qrow()
    monkeypatch.setattr(lists, "QRELS_CHUNK", 1 << 20)
    assert (chunked == M.Alignment(qrels, run).qrow()).all() and (chunked >= 0).any()
