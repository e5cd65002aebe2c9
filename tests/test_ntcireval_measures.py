"""The measures of issue 14 (O-measure, P-measure, NCU, GAP, the condensed-list bpref family):
hand-computed values, cross-checks against the transcription of NTCIREVAL's C loops
(``_ntcireval_port``), against pyNTCIREVAL (O-/P-measure, NCU) and against trec_eval's bpref
(pytrec_eval), and the errors.

Hand-computed example used throughout (topic 1, linear gains L1 -> 1, L2 -> 2, gmax = 2)::

    qrels: d1 L2, d2 L1, d4 L1 (R = 3, ideal gains 2, 1, 1), d3 L0, d5 L0 (N = 2)
    run:   d3, d2, u1, d1, d5          (u1 unjudged, d4 never retrieved)

    full list gains g = 0 1 0 2 0, C = 0 1 1 2 2, cg = 0 1 1 3 3, cg* = 2 3 4 4 4
    BR(2) = (C + cg) / (r + cg*) = (1 + 1) / (2 + 3) = 0.4
    BR(4) = (2 + 3) / (4 + 4) = 0.625

    condensed list (judged only): d3 d2 d1 d5, gains 0 1 2 0; relevant at ranks 2 and 3, each
    with one judged non-relevant document above it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from _ntcireval_port import compute

TOL = 1e-9

QRELS = pd.DataFrame({"query_id": ["1"] * 5, "doc_id": ["d1", "d2", "d3", "d4", "d5"],
                      "relevance": [2, 1, 0, 1, 0]})
RUN = pd.DataFrame({"query_id": ["1"] * 5, "doc_id": ["d3", "d2", "u1", "d1", "d5"],
                    "rank": [1, 2, 3, 4, 5]})


def one(measures, qrels=QRELS, run=RUN, **kw):
    res = M.evaluate(qrels, run, measures, **kw)
    return dict(zip(res["measure"], res["value"]))


# ---------------------------------------------------------------------------------------------
# hand-computed values
# ---------------------------------------------------------------------------------------------

def test_o_and_p_measure_by_hand():
    v = one(["O-measure", "P-measure", "O-measure(beta=0)", "P-measure@3", "P-measure@2"])
    assert v["O-measure"] == pytest.approx(0.4)      # BR(r1 = 2)
    assert v["P-measure"] == pytest.approx(0.625)    # rp = 4 (first L2), BR(4) = 5/8
    assert v["O-measure(beta=0)"] == pytest.approx(0.5)  # beta = 0: precision at r1 = 1/2
    # in the top 3 the highest level retrieved is L1, first at rank 2: BR(2)
    assert v["P-measure@3"] == pytest.approx(0.4)
    assert v["P-measure@2"] == pytest.approx(0.4)
    empty = one(["O-measure", "P-measure"], run=RUN.iloc[[0, 2]])  # d3 (L0), u1: nothing relevant
    assert empty == {"O-measure": 0.0, "P-measure": 0.0}


def test_p_measure_preferred_rank_follows_levels_when_gains_tie():
    # -g 1:1 gives L1 and L2 the same gain; compute's rp is still the first L2 document (rank 4):
    # cg = 0 1 1 2, cg* = 1 2 3 3 -> BR(4) = (2 + 2) / (4 + 3) = 4/7; gcompute (gains) would pick
    # rank 2: BR(2) = (1 + 1) / (2 + 2) = 0.5
    assert one(["P-measure"], gains="1:1")["P-measure"] == pytest.approx(4 / 7)


def test_ncu_by_hand():
    v = one(["NCUgu,P", "NCUgu,BR", "NCUrb,P", "NCUrb,BR", "NCUrb,BR(gamma=0.5)"])
    # graded-uniform: stop values = gains, denominator sum of ideal gains 2 + 1 + 1 = 4
    assert v["NCU(stop=gu,util=P)"] == pytest.approx((1 / 2 * 1 + 2 / 4 * 2) / 4)     # 0.375
    assert v["NCU(stop=gu,util=BR)"] == pytest.approx((0.4 * 1 + 0.625 * 2) / 4)     # 0.4125
    # rank-biased: the k-th relevant retrieved weighs gamma^(k-1); denominator sum_{i<R} gamma^i
    den = 1 + 0.95 + 0.95 ** 2                                                          # 2.8525
    assert v["NCU(stop=rb,util=P)"] == pytest.approx((0.5 + 0.5 * 0.95) / den)
    assert v["NCU(stop=rb,util=BR)"] == pytest.approx((0.4 + 0.625 * 0.95) / den)
    assert v["NCU(gamma=0.5,stop=rb,util=BR)"] == pytest.approx((0.4 + 0.625 * 0.5) / 1.75)


def test_gap_by_hand_levels_versus_gains():
    # levels, f(m) = m(m+1): f(1) = 2, f(2) = 6. GAPsum(2) = f(min(1, 0)) + f(1) = 2;
    # GAPsum(4) = 0 + f(min(2, 1)) + 0 + f(2) = 8. GAP = (2/2 + 8/4) / (6 + 2 + 2) = 0.3;
    # GAP@2 = (2/2) / (6 + 2) = 0.125 (cutoff 2 < R: ideal sum to rank 2)
    v = one(["GAP", "GAP@2", "GAP@10"])
    assert v["GAP"] == pytest.approx(0.3)
    assert v["GAP@2"] == pytest.approx(0.125)
    assert v["GAP@10"] == pytest.approx(0.3)
    # compute -gap uses levels whatever -g says
    assert one(["GAP"], gains="1:3")["GAP"] == pytest.approx(0.3)
    # gcompute -gap uses gains: with gains 1 and 3, f(1) = 2, f(3) = 12:
    # (2/2 + (2 + 12)/4) / (12 + 2 + 2) = 4.5 / 16
    gq = QRELS.assign(gain=QRELS["relevance"].map({0: 0.0, 1: 1.0, 2: 3.0})).drop(columns="relevance")
    assert one(["GAP"], qrels=gq)["GAP"] == pytest.approx(4.5 / 16)


def test_condensed_family_by_hand():
    names = ["bpref", "bpref_R", "bpref_N", "bpref_relative", "rpref_N", "rpref_relative",
             "rpref_relative2"]
    v = one(names)
    # R = 3 > N = 2, so bpref divides by min(R, N) = 2: two terms 1 - min(3, 1)/2 = 0.5, over R
    assert v["bpref"] == pytest.approx(1.0 / 3)
    assert v["bpref_R"] == pytest.approx(2 * (1 - 1 / 3) / 3)              # 4/9
    assert v["bpref_N"] == pytest.approx(2 * (1 - 1 / 2) / 3)              # 1/3
    # rank 2: 1 - 1/(2-1) = 0; rank 3: 1 - 1/(3-1) = 0.5
    assert v["bpref_relative"] == pytest.approx(0.5 / 3)
    # rpref penalties: rank 2 (g=1): (1-0)/1 = 1; rank 3 (g=2): (2-0)/2 + (2-1)/2 = 1.5
    # rpref_N divisor R + N - cg*(R)/gmax = 3 + 2 - 4/2 = 3; cg*(R) = 4
    assert v["rpref_N"] == pytest.approx((1 * (1 - 1 / 3) + 2 * (1 - 1.5 / 3)) / 4)  # 5/12
    assert v["rpref_relative"] == pytest.approx((0 + 2 * (1 - 1.5 / 2)) / 4)          # 0.125
    assert v["rpref_relative2"] == pytest.approx((1 * (1 - 1 / 2) + 2 * (1 - 1.5 / 3)) / 4)
    # always on judged documents only: the condensed flag changes nothing for them
    assert one(names, condensed=True) == pytest.approx(v)


def test_bpref_without_judged_nonrelevant_is_an_error():
    qrels = QRELS[QRELS["relevance"] > 0]
    with pytest.raises(ValueError, match=r"topic\(s\) \['1'\] have relevant but no judged non-relevant"):
        one(["bpref"], qrels=qrels)
    assert one(["AP"], qrels=qrels)["AP"] > 0  # the other measures do not need N
    with pytest.raises(ValueError, match="N = 0"):
        M.evaluate_arrays([[1.0, 0.0]], [[1.0]], ["bpref"], n_nonrel=[0])
    with pytest.raises(ValueError, match="need n_nonrel"):
        M.evaluate_arrays([[1.0, 0.0]], [[1.0]], ["bpref"])


def test_names_and_parameter_checks():
    specs = M.parse_measures("NCUgu,P NCUrb,BR(gamma=0.9) AP")
    assert [str(s) for s in specs] == ["NCU(stop=gu,util=P)", "NCU(gamma=0.9,stop=rb,util=BR)", "AP"]
    assert str(M.MeasureSpec.parse("NCUrb,P")) == "NCU(stop=rb,util=P)"
    for bad, msg in [("bpref@10", "whole-list measure"), ("NCU", "needs stop=gu"),
                     ("NCU(stop=rb)", "util=P"), ("NCUgu,P(gamma=0.5)", "only applies to rank-biased"),
                     ("NCUrb,P(beta=2)", "only applies to util=BR"), ("NCUrb,BR(gamma=1.5)", r"\[0, 1\]"),
                     ("O-measure(beta=-1)", "beta"), ("NCUgu,P@10", "whole-list")]:
        with pytest.raises(ValueError, match=msg):
            M.parse_measures(bad)


def test_grades_must_come_in_pairs():
    with pytest.raises(ValueError, match="go together"):
        M.evaluate_arrays([[1.0]], [[1.0]], ["GAP"], grades=[[1.0]])


# ---------------------------------------------------------------------------------------------
# random cases against the C loops, pyNTCIREVAL and trec_eval
# ---------------------------------------------------------------------------------------------

def random_collection(seed, *, real_gains=False, max_level=4, ties=False, n_topics=10, n_runs=2):
    """Unjudged documents, never-retrieved relevant documents, lists of length 1-200, tied gains
    (real-valued gains drawn from few values) and tied scores."""
    rng = np.random.default_rng(seed)
    pool = [f"d{i:03d}" for i in range(300)]
    qrows, rrows = [], []
    for t in range(n_topics):
        qid = f"{t + 1}"
        judged = rng.choice(pool, size=int(rng.integers(2, 80)), replace=False)
        vals = rng.integers(0, max_level + 1, size=len(judged))
        vals[0] = 0  # every topic has a judged non-relevant document (bpref is defined)
        for d, v in zip(judged, vals):
            if real_gains:
                g = 0.0 if v == 0 else float(rng.choice([0.25, 1.0, 1.7, round(rng.uniform(0.05, 3), 3)]))
                qrows.append((qid, d, g))
            else:
                qrows.append((qid, d, int(v)))
        for r in range(n_runs):
            n = int(rng.integers(1, 201)) if rng.random() < 0.85 else 1
            docs = list(rng.choice(pool, size=n, replace=False))
            if rng.random() < 0.5:  # favour judged documents so that lists hold many relevant ones
                docs = list(dict.fromkeys(list(rng.choice(judged, size=min(len(judged), n // 2 + 1),
                                                          replace=False)) + docs))[:n]
            scores = (rng.integers(0, 5, size=len(docs)).astype(float) if ties
                      else np.sort(rng.random(len(docs)))[::-1])
            for i, (d, s) in enumerate(zip(docs, scores)):
                rrows.append((f"R{r}", qid, d, i + 1, float(s)))
    qrels = pd.DataFrame(qrows, columns=["query_id", "doc_id", "gain" if real_gains else "relevance"])
    run = pd.DataFrame(rrows, columns=["run_id", "query_id", "doc_id", "rank", "score"])
    return qrels, run


NEW = ["O-measure", "P-measure", "O-measure(beta=0.5)", "P-measure(beta=2)",
       "NCUgu,P", "NCUgu,BR", "NCUrb,P", "NCUrb,BR", "NCUrb,BR(beta=0.5,gamma=0.8)", "GAP"]
CONDENSED = ["bpref", "bpref_R", "bpref_N", "bpref_relative", "rpref_N", "rpref_relative",
             "rpref_relative2"]
CUTS = [1, 5, 10, 20, 1000]


@pytest.mark.parametrize("seed,real_gains,condensed,spec", [
    (30, False, False, "1:2:3:4"), (31, False, True, "1:2:3:4"), (32, False, False, "1:2:2:5"),
    (33, False, False, "1:3:7:15"), (34, True, False, None), (35, True, True, None),
    (36, False, True, "1:2:2:5"),
])
def test_matches_ntcireval_c_loops(seed, real_gains, condensed, spec):
    qrels, run = random_collection(seed, real_gains=real_gains, ties=seed % 2 == 0)
    measures = NEW + CONDENSED + [f"GAP@{c}" for c in CUTS] + [f"P-measure@{c}" for c in CUTS[:2]]
    res = M.evaluate(qrels, run, measures, gains=spec, condensed=condensed)
    ours = {(r.run_id, r.query_id, r.measure): r.value for r in res.itertuples()}
    labels = {m: str(M.MeasureSpec.parse(m)) for m in measures}
    col = "gain" if real_gains else "relevance"
    gv = None if real_gains else dict(enumerate([0.0] + [float(x) for x in spec.split(":")]))
    run = run.sort_values(["run_id", "query_id", "rank"])
    n_checked = 0
    for q, g in qrels.groupby("query_id"):
        lev = dict(zip(g["doc_id"], g[col]))
        gain = {d: (float(v) if real_gains else gv[int(v)]) for d, v in lev.items()}
        ideal = [x for x in gain.values() if x > 0]
        if not ideal:
            continue
        hgain = max(ideal) if real_gains else max(gv.values())
        n_nonrel = sum(1 for x in gain.values() if x == 0)
        ideal_levels = None if real_gains else [int(v) for v in lev.values() if v > 0]
        for rid in run["run_id"].unique():
            docs = list(run[(run["run_id"] == rid) & (run["query_id"] == q)]["doc_id"])
            judged = [d for d in docs if d in gain]
            main = judged if condensed else docs

            def port(ds, **kw):
                return compute([gain.get(d, 0.0) for d in ds], ideal, hgain, CUTS,
                               sys_levels=None if real_gains else [int(lev.get(d, 0)) for d in ds],
                               ideal_levels=ideal_levels, **kw)

            ref = port(main)
            ref.update({k: v for k, v in port(judged, n_nonrel=n_nonrel).items() if k in CONDENSED})
            ref.update({"O-measure(beta=0.5)": port(main, beta=0.5)["O-measure"],
                        "P-measure(beta=2)": port(main, beta=2.0)["P-measure"],
                        "NCUrb,BR(beta=0.5,gamma=0.8)": port(main, beta=0.5, gamma=0.8)["NCU(stop=rb,util=BR)"]})
            for c in CUTS[:2]:
                ref[f"P-measure@{c}"] = port(main[:c])["P-measure"]
            for m in measures:
                key = labels[m] if labels[m] in ref else m
                assert ours[(rid, q, labels[m])] == pytest.approx(ref[key], abs=TOL), (rid, q, m)
                n_checked += 1
    assert n_checked > 300


def test_long_lists_many_relevant_pairwise_path():
    """Real-valued gains with more distinct values than relevant documents per list take the
    pairwise path of the dominance counts; levels take the one-hot path. Both against the loops."""
    rng = np.random.default_rng(7)
    n, depth = 30, 200
    ranked = np.where(rng.random((n, depth)) < 0.6, rng.uniform(0.01, 5, (n, depth)).round(2), 0.0)
    lengths = rng.integers(1, depth + 1, n)
    ranked[np.arange(depth)[None, :] >= lengths[:, None]] = np.nan
    ideal = np.sort(rng.uniform(0.01, 5, (n, 150)).round(2), axis=1)[:, ::-1]
    measures = ["GAP", "GAP@10", "rpref_N", "rpref_relative", "rpref_relative2", "bpref"]
    ours = M.evaluate_arrays(ranked, ideal, measures, n_nonrel=np.full(n, 40))
    for i in range(n):
        g = [float(v) for v in ranked[i, :lengths[i]]]
        ref = compute(g, list(ideal[i]), float(ideal[i].max()), [10], n_nonrel=40)
        for m in measures:
            assert ours[m][i] == pytest.approx(ref[m], abs=TOL), (i, m)


def test_matches_pyntcireval_o_p_ncu():
    pytest.importorskip("pyNTCIREVAL")
    from pyNTCIREVAL import Labeler
    from pyNTCIREVAL.metrics import NCUguBR, NCUguP, NCUrbBR, NCUrbP, OMeasure, PMeasure

    qrels, run = random_collection(40)
    grades = [1.0, 2.0, 3.0, 4.0]
    measures = ["O-measure", "P-measure", "NCUgu,P", "NCUgu,BR", "NCUrb,P", "NCUrb,BR(gamma=0.8)"]
    res = M.evaluate(qrels, run, measures, gains="1:2:3:4")
    ours = {(r.run_id, r.query_id, r.measure): r.value for r in res.itertuples()}
    run = run.sort_values(["run_id", "query_id", "rank"])
    n_checked = 0
    for (rid, q), g in run.groupby(["run_id", "query_id"]):
        rels = dict(zip(*(qrels[qrels["query_id"] == q][c] for c in ("doc_id", "relevance"))))
        lab = Labeler({d: int(v) for d, v in rels.items()})
        x = lab.compute_per_level_doc_num(len(grades) + 1)
        sysdoclab = lab.label(list(g["doc_id"]))
        if lab.compute_rel_num() == 0 or not sysdoclab:
            continue
        ref = {"O-measure": OMeasure(x, grades, 1.0), "P-measure": PMeasure(x, grades, 1.0),
               "NCU(stop=gu,util=P)": NCUguP(x, grades, grades),
               "NCU(stop=gu,util=BR)": NCUguBR(x, grades, grades, 1.0),
               "NCU(stop=rb,util=P)": NCUrbP(x, grades, 0.95),
               "NCU(gamma=0.8,stop=rb,util=BR)": NCUrbBR(x, grades, 0.8, 1.0)}
        for name, metric in ref.items():
            assert ours[(rid, q, name)] == pytest.approx(metric.compute(sysdoclab), abs=TOL), (rid, q, name)
            n_checked += 1
    assert n_checked > 50


@pytest.mark.parametrize("seed,ties", [(50, False), (51, True)])
def test_bpref_matches_trec_eval(seed, ties):
    """trec_eval's bpref = NTCIREVAL's bpref on the condensed list in trec_eval's order (score
    descending, ties by doc_id descending). They differ only for topics without judged
    non-relevant documents: trec_eval then counts every retrieved relevant document as 1, we
    refuse (as NTCIREVAL does); random_collection always judges one non-relevant document."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = random_collection(seed, ties=ties)
    res = M.evaluate(qrels, run, ["bpref"], order_by="score", missing="skip")
    ours = {(r.run_id, r.query_id): r.value for r in res.itertuples()}
    qd = {}
    for q, d, rel in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(rel)
    ev = pytrec_eval.RelevanceEvaluator(qd, {"bpref"})
    n_checked = 0
    for rid, g in run.groupby("run_id"):
        rd = {}
        for q, d, s in g[["query_id", "doc_id", "score"]].itertuples(index=False):
            rd.setdefault(q, {})[d] = s
        for q, vals in ev.evaluate(rd).items():
            if (rid, q) in ours:
                assert ours[(rid, q)] == pytest.approx(vals["bpref"], abs=TOL), (rid, q)
                n_checked += 1
    assert n_checked >= 15


def test_bpref_difference_with_trec_eval_pinned():
    """Topic without judged non-relevant documents: trec_eval adds 1 for every retrieved relevant
    document (here 2 of R = 3: 2/3); NTCIREVAL and this engine refuse (see the README table)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = QRELS[QRELS["relevance"] > 0]
    ev = pytrec_eval.RelevanceEvaluator(
        {"1": {d: int(v) for d, v in zip(qrels["doc_id"], qrels["relevance"])}}, {"bpref"})
    got = ev.evaluate({"1": {d: float(10 - i) for i, d in enumerate(RUN["doc_id"])}})
    assert got["1"]["bpref"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="no judged non-relevant"):
        one(["bpref"], qrels=qrels)


def test_depth_applies_before_condensing_and_arrays_condense_grades():
    # depth 3 keeps d3 d2 u1; judged only: d3 d2 -> one relevant at rank 2 below one non-relevant:
    # bpref = (1 - min(3, 1)/min(3, 2)) / 3 = 1/6
    assert one(["bpref"], depth=3)["bpref"] == pytest.approx(1 / 6)
    # evaluate_arrays with ranked_judged removes the unjudged rank from gains and grades alike:
    # gains 0 1 . 2 0 with levels 0 1 . 3 0 -> GAP on levels: (2/2 + (2 + 12)/3) / (12 + 2 + 2)
    out = M.evaluate_arrays([[0, 1, 0, 2, 0]], [[2, 1, 1]], ["GAP"],
                            ranked_judged=[[True, True, False, True, True]],
                            grades=[[0, 1, 0, 3, 0]], ideal_grades=[[3, 1, 1]])
    assert out["GAP"][0] == pytest.approx((1 + 14 / 3) / 16)
