"""Bounded memory (issue 26): lists of very different lengths are scored in blocks whose dense
matrices stay proportional to their rows, with the values of one dense matrix."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.measures import adhoc, ragged
from helpers.measures import diversity
from helpers.measures.cli import ntcireval_default_measures

ROOT = Path(__file__).resolve().parent.parent

EVERY = ntcireval_default_measures([1, 3, 10, 100], gap=True, condensed=True, rbup=0.99) + [
    "nG@1", "nCG@10", "R@10", "nDCG", "MSnDCG", "nERR", "iRBU(e=0.01)@10", "AP(norm=R)@10", "Q(norm=R)@3",
    "AP(rel=2)", "RR(rel=2)", "P(rel=3)@10", "Hit(rel=2)@3", "R(rel=2)@100", "r1", "rp"]


def skewed_collection(seed: int, gain_column: bool = False):
    """Many short lists and topics with few relevant documents beside a few long ones."""
    rng = np.random.default_rng(seed)
    q_rows, r_rows = [], []
    for t in range(60):
        n_judged = int(rng.choice([2, 3, 5, 400]))
        docs = [f"d{t}_{i}" for i in range(n_judged + 50)]
        levels = rng.choice(4, size=n_judged, p=[0.4, 0.3, 0.2, 0.1])
        levels[0], levels[1] = 0, 1 + t % 3                  # one non-relevant, one relevant at least
        q_rows += [(f"t{t}", d, int(v)) for d, v in zip(docs, levels)]
        for run in ("A", "B", "C"):
            depth = int(rng.choice([1, 2, 4, 600 if run == "A" else 3]))
            for rank, d in enumerate(rng.permutation(docs)[:depth]):
                r_rows.append((run, f"t{t}", d, rank + 1, float(-rank)))
    qrels = pd.DataFrame(q_rows, columns=["query_id", "doc_id", "relevance"])
    if gain_column:
        qrels = qrels.assign(gain=qrels["relevance"] * 0.73 + rng.random(len(qrels)) * (qrels["relevance"] > 0))
        qrels = qrels.drop(columns="relevance")
    run = pd.DataFrame(r_rows, columns=["run_id", "query_id", "doc_id", "rank", "score"])
    return qrels, run


def _dense(monkeypatch):
    monkeypatch.setattr(ragged, "DENSE_SLACK_CELLS", 1 << 62)


def _grouped(monkeypatch):
    monkeypatch.setattr(ragged, "DENSE_FACTOR", 0)
    monkeypatch.setattr(ragged, "DENSE_SLACK_CELLS", 0)


def _count_blocks(monkeypatch) -> list:
    seen = []
    original = adhoc.blocks

    def spy(*args):
        out = list(original(*args))
        seen.append(len(out))
        return iter(out)

    monkeypatch.setattr(adhoc, "blocks", spy)
    return seen


# ---- the pieces ----------------------------------------------------------------------------------

def test_ragged_rows():
    r = ragged.Ragged.sorted_by_row(np.array([2, 0, 2, 2, 0]), np.array([1.0, 3.0, 0.0, 2.0, 5.0]), 4)
    assert r.length.tolist() == [2, 0, 2, 0] and r.first().tolist() == [5.0, 0.0, 2.0, 0.0]
    assert r.dense(np.array([2, 1, 0])).tolist() == [[2.0, 1.0], [0.0, 0.0], [5.0, 3.0]]
    assert r.dense(np.array([0]), width=1).tolist() == [[5.0]]
    assert r.dense(np.array([1, 3])).shape == (2, 1)


def test_blocks_partition_rows_and_bound_the_padding():
    length = np.r_[np.ones(1000, dtype=np.int64), [5000]]
    list_id = np.repeat(np.arange(len(length)), length)
    ideal = np.r_[np.ones(1000, dtype=np.int64), [3000]]
    (one,) = list(ragged.blocks(list_id[:1000], 1000, ideal[:1000]))  # similar lists: one dense block
    assert one[0] == slice(None) and one[3] == 1
    out = list(ragged.blocks(list_id, len(length), ideal))
    assert len(out) == 2
    rows = np.concatenate([np.arange(len(list_id))[sel] for _, sel, _, _ in out])
    assert sorted(rows.tolist()) == list(range(len(list_id)))
    cells = 0
    for lists, sel, local, width in out:
        assert (np.asarray(lists)[local] == list_id[sel]).all()
        cells += len(lists) * (width + int(ideal[lists].max()))
    assert cells <= 2 * (len(list_id) + ideal.sum())           # not 1001 x 8000


# ---- the values do not depend on the blocks ------------------------------------------------------

@pytest.mark.parametrize("gains,condensed", [("1:2:3", False), (None, True), ("1:3:3", False)])
def test_blocks_give_the_values_of_one_dense_matrix(monkeypatch, gains, condensed):
    qrels, run = skewed_collection(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seen = _count_blocks(monkeypatch)
        _dense(monkeypatch)
        a = M.evaluate(qrels, run, EVERY, gains=gains, condensed=condensed, conventions="ntcireval")
        dense_blocks = list(seen)
        seen.clear()
        _grouped(monkeypatch)
        b = M.evaluate(qrels, run, EVERY, gains=gains, condensed=condensed, conventions="ntcireval")
        grouped_blocks = list(seen)
    assert set(dense_blocks) == {1} and min(grouped_blocks) >= 4   # both paths were taken
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_blocks_with_real_valued_gains(monkeypatch):
    qrels, run = skewed_collection(2, gain_column=True)
    names = [m for m in EVERY if "rel=" not in m]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _dense(monkeypatch)
        a = M.evaluate(qrels, run, names, conventions="ntcireval")
        _grouped(monkeypatch)
        b = M.evaluate(qrels, run, names, conventions="ntcireval")
    # GAP and rpref count dominance per distinct value or per pair, whichever is smaller for the
    # block: with real-valued gains the two orders of addition can differ in the last bit
    quadratic = a["measure"].str.startswith(("GAP", "rpref"))
    pd.testing.assert_frame_equal(a[~quadratic], b[~quadratic], check_exact=True)
    np.testing.assert_allclose(a.loc[quadratic, "value"], b.loc[quadratic, "value"], rtol=1e-14, atol=0)


def test_dominance_counts_in_column_chunks_are_exact(monkeypatch):
    from helpers.measures import kernels

    rng = np.random.default_rng(3)
    g = np.where(rng.random((4, 300)) < 0.5, rng.random((4, 300)), 0.0)
    ideal = np.sort(np.r_[g.ravel(), rng.random(50)])[::-1][None, :].repeat(4, 0)
    names = ["GAP", "rpref_N", "rpref_relative", "rpref_relative2"]
    a = kernels.evaluate_arrays(g, ideal, names, n_nonrel=np.full(4, 400))
    monkeypatch.setattr(kernels, "_DOMINANCE_ELEMENTS", 1000)   # 3 columns x 300 per chunk
    b = kernels.evaluate_arrays(g, ideal, names, n_nonrel=np.full(4, 400))
    for k in a:
        assert a[k].tolist() == b[k].tolist(), k


# ---- the case, under a memory limit --------------------------------------------------------

LIMIT_SCRIPT = textwrap.dedent("""
    import resource, sys, tracemalloc, warnings
    resource.setrlimit(resource.RLIMIT_AS, ({limit} << 20, {limit} << 20))
    import numpy as np, pandas as pd
    from helpers import measures as M
    from helpers.measures import diversity
    warnings.simplefilter("ignore")
    n, big = 20000, 50000
    q = [f"t{{i}}" for i in range(n)]
    qrels = pd.DataFrame({{"query_id": q + q + ["big"] * big,
                          "doc_id": ["d0"] * n + ["d1"] * n + [f"d{{i}}" for i in range(big)],
                          "relevance": [1] * n + [0] * n + [(i % 3) + 1 if i % 2 else 0 for i in range(big)]}})
    run = pd.DataFrame({{"query_id": q + ["big"] * big, "doc_id": ["d0"] * n + [f"d{{i}}" for i in range(big)],
                        "score": np.r_[np.ones(n), np.linspace(1, 0, big)]}})
    tracemalloc.start()
    if sys.argv[1] == "adhoc":
        res = M.evaluate(qrels, run, sys.argv[2:])
    else:
        dq = qrels.assign(intent_id=np.where(np.arange(len(qrels)) % 2, "1", "2"))
        res = diversity.evaluate(dq, diversity.uniform_intents(dq), run, sys.argv[2:])
    print(len(res), tracemalloc.get_traced_memory()[1] >> 20)
""")


@pytest.mark.parametrize("kind,names", [
    ("adhoc", EVERY),
    ("diversity", ["alpha-nDCG@10", "D#-nDCG@10", "NRBP", "IA-nERR@10", "RBU@10", "P+Q#@10"]),
])
def test_twenty_thousand_short_topics_and_one_long_one_under_a_memory_limit(kind, names):
    """One dense matrix would take 20,001 x 50,000 cells (7.5 GiB of gains alone); the limit is
    1 GiB of address space for the whole process, imports included."""
    proc = subprocess.run([sys.executable, "-c", LIMIT_SCRIPT.format(limit=1024), kind, *names],
                          capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1",
                               "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows, peak_mib = map(int, proc.stdout.split())
    assert rows == 20001 * len(names)
    assert peak_mib < 200, peak_mib            # 70,000 run rows: a few KiB per row and measure at most


# ---- diversity -------------------------------------------------------------------------------

def test_diversity_topic_groups_give_the_values_of_one_evaluation(monkeypatch):
    qrels, run = skewed_collection(4)
    rng = np.random.default_rng(4)
    dq = qrels.assign(intent_id=rng.choice(["a", "b", "c"], size=len(qrels)))
    dq = dq.drop_duplicates(["query_id", "intent_id", "doc_id"])
    intents = diversity.uniform_intents(dq)
    names = ["alpha-nDCG@10", "alpha-nDCG(alpha=0.3)@5", "nERR-IA@10", "ERR-IA@10", "NRBP", "nNRBP", "P-IA@10",
             "strec@10", "I-rec@10", "D-nDCG@10", "D#-nDCG@10", "DIN-nDCG@10", "DIN#-Q@10", "P+Q#@10",
             "IA-nDCG@10", "IA-nERR@10", "D-RBP@10", "RBU(p=0.99)@10", "alpha-nDCG@100000"]
    _dense(monkeypatch)
    a = diversity.evaluate(dq, intents, run, names)
    _grouped(monkeypatch)
    b = diversity.evaluate(dq, intents, run, names)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_diversity_runs_with_topics_outside_the_qrels_retrieving_one_document():
    dq = pd.DataFrame({"query_id": ["1"], "intent_id": ["a"], "doc_id": ["x"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["1", "7", "8"], "doc_id": ["x", "d", "d"], "rank": [1, 1, 1]})
    res = diversity.evaluate(dq, diversity.uniform_intents(dq), run, ["alpha-nDCG@10"])
    assert res["value"].tolist() == [1.0]      # topics 7 and 8 are ignored, not one topic retrieving d twice
    with pytest.raises(ValueError, match="retrieves a document twice"):
        diversity.evaluate(dq, diversity.uniform_intents(dq), pd.concat([run, run.iloc[:1]]), ["alpha-nDCG@10"])
