"""Cross-checks of helpers.measures against independent implementations.

* pytrec_eval (trec_eval 9.x): ``ndcg_cut``, ``map``, ``recip_rank``, ``P`` with linear gains and
  trec_eval's ordering (score descending, ties by doc_id descending).
* pyNTCIREVAL (Python port of NTCIREVAL): Q, P+, AP, AP@l, Q@l, nERR@l, MSnDCG@l, nDCG@l, RR, P@l,
  Hit@l, RBP, ERR, on lists built with its own ``Labeler``.
* ``_ntcireval_port``: a line-by-line transcription of the loops of NTCIREVAL's C
  ``eval_compute``/``eval_gcompute`` (ntcir_eval.c, version 190111), used for the measures
  pyNTCIREVAL lacks (EBR, iRBU, RBP@l, ERR@l) and for real-valued gains.

Random cases are seeded and cover L0-L4 levels, real-valued gains, unjudged documents, relevant
documents never retrieved, lists of length 1-200, empty lists and condensed lists.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")
pyNTCIREVAL = pytest.importorskip("pyNTCIREVAL")
from pyNTCIREVAL import Labeler  # noqa: E402
from pyNTCIREVAL.metrics import (AP, ERR, MSnDCG, QMeasure, RBP, RR, Hit,  # noqa: E402
                                 PPlusMeasure, Precision, nDCG, nERR)

from helpers import measures as M  # noqa: E402
from _ntcireval_port import compute  # noqa: E402

TOL = 1e-9


# ---------------------------------------------------------------------------------------------
# random collections
# ---------------------------------------------------------------------------------------------

def random_collection(seed: int, *, n_topics=12, n_runs=3, max_level=4, real_gains=False,
                      max_len=200, ties=False):
    """Qrels and runs with unjudged docs, never-retrieved relevant docs, short/empty lists."""
    rng = np.random.default_rng(seed)
    qrows, rrows = [], []
    pool = [f"d{i:03d}" for i in range(300)]
    for t in range(n_topics):
        qid = f"T{t}"
        judged = rng.choice(pool, size=int(rng.integers(1, 60)), replace=False)
        for d in judged:
            if real_gains:
                g = float(rng.choice([0.0, 0.0, rng.uniform(0.05, 3.0)]))
                qrows.append((qid, d, round(g, 3)))
            else:
                qrows.append((qid, d, int(rng.integers(0, max_level + 1))))
        for r in range(n_runs):
            if rng.random() < 0.08:
                continue  # topic missing from this run
            n = int(rng.integers(1, max_len + 1)) if rng.random() < 0.9 else 1
            docs = rng.choice(pool, size=min(n, len(pool)), replace=False)
            if ties:
                scores = rng.integers(0, 5, size=len(docs)).astype(float)
            else:
                scores = np.sort(rng.random(len(docs)))[::-1]
            for i, (d, s) in enumerate(zip(docs, scores)):
                rrows.append((f"R{r}", qid, d, i + 1, float(s)))
    col = "gain" if real_gains else "relevance"
    qrels = pd.DataFrame(qrows, columns=["query_id", "doc_id", col])
    run = pd.DataFrame(rrows, columns=["run_id", "query_id", "doc_id", "rank", "score"])
    return qrels, run


def ranked_lists(run):
    """{(run_id, query_id): [doc, ...]} in rank order."""
    run = run.sort_values(["run_id", "query_id", "rank"])
    return {k: list(g["doc_id"]) for k, g in run.groupby(["run_id", "query_id"], sort=False)}


def scores_of(res):
    return {(r.run_id, r.query_id, r.measure): r.value for r in res.itertuples()}


# ---------------------------------------------------------------------------------------------
# pytrec_eval
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("ties", [False, True])
def test_matches_pytrec_eval(seed, ties):
    qrels, run = random_collection(seed, ties=ties)
    qd = {}
    for q, d, rel in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(rel)
    measures = ["MSnDCG@5", "MSnDCG@10", "MSnDCG@100", "AP", "RR", "P@5", "P@10", "AP(norm=R)@10"]
    res = M.evaluate(qrels, run, measures, order_by="score", no_relevant="zero", missing="skip")
    ours = scores_of(res)
    ev = pytrec_eval.RelevanceEvaluator(
        qd, {"ndcg_cut.5,10,100", "map", "recip_rank", "P.5,10", "map_cut.10"})
    names = {"MSnDCG@5": "ndcg_cut_5", "MSnDCG@10": "ndcg_cut_10", "MSnDCG@100": "ndcg_cut_100",
             "AP": "map", "RR": "recip_rank", "P@5": "P_5", "P@10": "P_10",
             "AP(norm=R)@10": "map_cut_10"}
    n = 0
    for rid, g in run.groupby("run_id"):
        rd = {}
        for q, d, s in g[["query_id", "doc_id", "score"]].itertuples(index=False):
            rd.setdefault(q, {})[d] = s
        for q, vals in ev.evaluate(rd).items():
            for ours_name, te_name in names.items():
                assert ours[(rid, q, ours_name)] == pytest.approx(vals[te_name], abs=TOL), \
                    (rid, q, ours_name)
                n += 1
    assert n > 100


# ---------------------------------------------------------------------------------------------
# pyNTCIREVAL
# ---------------------------------------------------------------------------------------------

def _grades(qrels, real_gains, spec="1:2:3:4"):
    """Per topic: (level dict for Labeler, grades list, xrelnum)."""
    out = {}
    col = "gain" if real_gains else "relevance"
    for q, g in qrels.groupby("query_id"):
        if real_gains:
            distinct = sorted({v for v in g[col] if v > 0})
            lvl = {v: i + 1 for i, v in enumerate(distinct)}
            rels = {d: (lvl[v] if v > 0 else 0) for d, v in zip(g["doc_id"], g[col])}
            grades = distinct
        else:
            rels = dict(zip(g["doc_id"], g[col].astype(int)))
            grades = [float(x) for x in spec.split(":")]  # NTCIREVAL -g, e.g. 1:2:3:4 (L0-L4)
        out[q] = (rels, grades)
    return out


@pytest.mark.parametrize("seed,real_gains,condensed,spec", [
    (10, False, False, "1:2:3:4"), (11, False, True, "1:2:3:4"), (12, True, False, None),
    (13, True, True, None), (14, False, False, "1:3:7:15"), (15, False, False, "1:2:2:5"),
])
def test_matches_pyntcireval(seed, real_gains, condensed, spec):
    """Includes exponential gains and a -g with tied levels (P+ then follows levels)."""
    qrels, run = random_collection(seed, real_gains=real_gains, n_runs=2)
    gains = spec
    cut = [1, 5, 10, 50]
    measures = ["Q", "Q(beta=0.5)", "P+", "AP", "RR", "RBP", "RBP(p=0.8)", "ERR"]
    for c in cut:
        measures += [f"AP@{c}", f"Q@{c}", f"nERR@{c}", f"MSnDCG@{c}", f"nDCG@{c}",
                     f"nDCG(b=3)@{c}", f"P@{c}", f"Hit@{c}"]
    ours = scores_of(M.evaluate(qrels, run, measures, gains=gains, condensed=condensed))
    topics = _grades(qrels, real_gains, spec)
    n = 0
    for (rid, q), docs in ranked_lists(run).items():
        rels, grades = topics[q]
        lab = Labeler(rels, is_condensed=condensed)
        x = lab.compute_per_level_doc_num(len(grades) + 1)
        if lab.compute_rel_num() == 0:
            assert not any(k[:2] == (rid, q) for k in ours)  # skipped, as NTCIREVAL does
            continue
        sysdoclab = lab.label(docs)
        if not sysdoclab:
            continue  # pyNTCIREVAL cannot find the preferred rank of an empty list
        ref = {
            "Q": QMeasure(x, grades, 1.0), "Q(beta=0.5)": QMeasure(x, grades, 0.5),
            "P+": PPlusMeasure(x, grades, 1.0), "AP": AP(x, grades), "RR": RR(),
            "RBP": RBP(x, grades, 0.95), "RBP(p=0.8)": RBP(x, grades, 0.8), "ERR": ERR(x, grades),
        }
        for c in cut:
            ref.update({f"AP@{c}": AP(x, grades, c), f"Q@{c}": QMeasure(x, grades, 1.0, c),
                        f"nERR@{c}": nERR(x, grades, c), f"MSnDCG@{c}": MSnDCG(x, grades, c),
                        f"nDCG@{c}": nDCG(x, grades, 2.0, c),
                        f"nDCG(b=3)@{c}": nDCG(x, grades, 3.0, c),
                        f"P@{c}": Precision(c), f"Hit@{c}": Hit(c)})
        for name, metric in ref.items():
            expected = metric.compute(sysdoclab)
            assert ours[(rid, q, name)] == pytest.approx(expected, abs=TOL), (rid, q, name)
            n += 1
    assert n > 200


@pytest.mark.parametrize("seed,real_gains,condensed", [
    (20, False, False), (21, False, True), (22, True, False), (23, True, True),
])
def test_matches_ntcireval_c_loops(seed, real_gains, condensed):
    qrels, run = random_collection(seed, real_gains=real_gains, n_runs=2)
    cut = [1, 3, 10, 100]
    measures = ["RR", "P+", "AP", "Q", "RBP", "ERR", "EBR"]
    for c in cut:
        measures += [f"AP@{c}", f"Q@{c}", f"nDCG@{c}", f"MSnDCG@{c}", f"P@{c}", f"RBP@{c}",
                     f"ERR@{c}", f"nERR@{c}", f"EBR@{c}", f"iRBU@{c}", f"Hit@{c}"]
    gains = None if real_gains else "1:2:3:4"
    ours = scores_of(M.evaluate(qrels, run, measures, gains=gains, condensed=condensed))
    col = "gain" if real_gains else "relevance"
    lists = ranked_lists(run)
    n = 0
    for q, g in qrels.groupby("query_id"):
        rel = dict(zip(g["doc_id"], g[col].astype(float)))
        ideal = [v for v in rel.values() if v > 0]
        if not ideal:
            continue
        hgain = max(ideal) if real_gains else 4.0
        for rid in run["run_id"].unique():
            docs = lists.get((rid, q), [])  # missing topic: empty result file
            if condensed:
                docs = [d for d in docs if d in rel]
            ref = compute([rel.get(d, 0.0) for d in docs], ideal, hgain, cut)
            for name in measures:
                assert ours[(rid, q, name)] == pytest.approx(ref[name], abs=TOL), (rid, q, name)
                n += 1
    assert n > 500


def test_evaluate_arrays_matches_port_on_rank_dependent_gains():
    """DIN-style input: arbitrary per-rank gains and a separate ideal list (gcompute)."""
    rng = np.random.default_rng(5)
    n, depth = 40, 30
    lengths = rng.integers(0, depth + 1, size=n)
    ranked = rng.choice([0.0, 0.0, 0.3, 1.0, 2.5], size=(n, depth))
    ranked[np.arange(depth)[None, :] >= lengths[:, None]] = np.nan
    ideal = np.sort(rng.choice([0.3, 1.0, 2.5, 3.0], size=(n, 12)), axis=1)[:, ::-1]
    ideal[:, 8:] = 0.0
    cut = [1, 5, 20]
    measures = ["Q", "P+", "AP", "RR", "ERR", "EBR", "RBP"] + [
        f"{m}@{c}" for c in cut for m in ("Q", "nDCG", "MSnDCG", "nERR", "EBR", "iRBU", "P")]
    ours = M.evaluate_arrays(ranked, ideal, measures)
    for i in range(n):
        g = [float(v) for v in ranked[i, : lengths[i]]]
        ref = compute(g, list(ideal[i]), float(ideal[i].max()), cut)
        for name in measures:
            assert ours[name][i] == pytest.approx(ref[name], abs=TOL), (i, name)
