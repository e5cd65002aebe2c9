"""Cross-checks of helpers.measures.diversity against TREC ndeval (pyndeval) and a line-by-line port of
NTCIREVAL (ntcir_eval.c 190111: glabel/dinlabel/gcompute/irec/compute and the D-NTCIR-eval,
DIN-NTCIR-eval, D-NTCIR-IAeval2 and DIN-NTCIR-PQeval scripts) on seeded random collections.

The port below is deliberately a literal, loop-based transcription of the C code (one document at
a time, 1-based arrays), so it shares no code or vectorisation with the implementation under test.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from helpers.measures import diversity
from _ntcireval_port import compute  # noqa: E402

pyndeval = pytest.importorskip("pyndeval")


# ---------------------------------------------------------------------------------------------
# literal port of ntcir_eval.c (gcompute, irec, dinlabel, compute's iRBU)
# ---------------------------------------------------------------------------------------------

def gcompute(sys_gains, ideal_gains, cutoff, *, beta=1.0, rbp=0.95):
    """ntcir_eval gcompute on a (truncated) labelled system list and a relv ideal list."""
    r = compute(list(sys_gains), list(ideal_gains), max(ideal_gains), [cutoff], beta=beta, rbp_p=rbp)
    return {"P-plus": r["P+"], "Q": r[f"Q@{cutoff}"], "MSnDCG": r[f"MSnDCG@{cutoff}"],
            "RBP": r[f"RBP@{cutoff}"], "ERR": r[f"ERR@{cutoff}"], "nERR": r[f"nERR@{cutoff}"],
            "EBR": r[f"EBR@{cutoff}"]}


def irec(ranked_docs, rel_sets, cutoff):
    """ntcir_eval irec: rel_sets holds one set of relevant docs per intent (one Irelv file each)."""
    found = [False] * len(rel_sets)
    for d in ranked_docs[:cutoff]:
        for j, s in enumerate(rel_sets):
            if d in s:
                found[j] = True
    return sum(found) / len(rel_sets)


def dinlabel(ranked_docs, din):
    """ntcir_eval dinlabel: din = list of (intent, kind, doc, P*g) rows in file order."""
    found = set()
    out = []
    for d in ranked_docs:
        gg = 0.0
        for intent, kind, doc, val in din:
            if doc == d:
                if kind == "nav":
                    if intent not in found:
                        gg += val
                else:
                    gg += val
                found.add(intent)
        out.append(gg)
    return out


def irbu(sys_gains, gmax, cutoff, p):
    """ntcir_eval compute -rbup p: intentwise RBU at the cutoff (gv[maxrl] = gmax)."""
    val, dsat = 0.0, 1.0
    for i, g in enumerate(sys_gains[:cutoff], start=1):
        val += p ** i * dsat * g / (gmax + 1)
        dsat *= 1 - g / (gmax + 1)
    return val


def ntcireval_topic(docs_ranked, qrels_t, intents_t, cutoff, gain_of, *, rbp=0.95):
    """All NTCIR measures of one topic via the NTCIREVAL scripts' pipeline.

    qrels_t: {(intent, doc): level}; intents_t: {intent: (prob, kind)}.
    """
    irel = {}
    for (i, d), lv in qrels_t.items():
        if lv > 0:
            irel.setdefault(i, {})[d] = gain_of(lv)
    ints = sorted(irel)  # intents with an Irelv file
    din = [(i, intents_t[i][1], d, intents_t[i][0] * irel[i][d]) for i in ints for d in irel[i]]
    grelv = {}
    for i, kind, d, v in din:
        grelv[d] = grelv.get(d, 0.0) + v
    ideal = sorted(grelv.values(), reverse=True)
    truncated = docs_ranked[:cutoff]
    sysg = [grelv.get(d, 0.0) for d in truncated]
    res = {}
    ir = irec(docs_ranked, [set(irel[i]) for i in ints], cutoff)
    res["I-rec"] = ir
    dm = gcompute(sysg, ideal, cutoff, rbp=rbp)
    res.update({"D-nDCG": dm["MSnDCG"], "D-Q": dm["Q"], "D-nERR": dm["nERR"], "D-RBP": dm["RBP"],
                "D-EBR": dm["EBR"]})
    res["D#-nDCG"] = 0.5 * ir + 0.5 * dm["MSnDCG"]
    res["D#-Q"] = 0.5 * ir + 0.5 * dm["Q"]
    dinm = gcompute(dinlabel(truncated, din), ideal, cutoff, rbp=rbp)
    res["DIN-nDCG"], res["DIN-Q"] = dinm["MSnDCG"], dinm["Q"]
    res["DIN#-nDCG"] = 0.5 * ir + 0.5 * dinm["MSnDCG"]
    ia = {"IA-nDCG": 0.0, "IA-Q": 0.0, "IA-nERR": 0.0, "IA-RBP": 0.0, "IA-EBR": 0.0}
    pq = 0.0
    for i in ints:
        prob, kind = intents_t[i]
        m = gcompute([irel[i].get(d, 0.0) for d in truncated], sorted(irel[i].values(), reverse=True),
                     cutoff, rbp=rbp)
        for k, base in (("IA-nDCG", "MSnDCG"), ("IA-Q", "Q"), ("IA-nERR", "nERR"), ("IA-RBP", "RBP"),
                        ("IA-EBR", "EBR")):
            ia[k] += prob * m[base]
        pq += prob * (m["P-plus"] if kind == "nav" else m["Q"])
    res.update(ia)
    res["P+Q"] = pq
    res["P+Q#"] = 0.5 * ir + 0.5 * pq
    return res


# ---------------------------------------------------------------------------------------------
# random collections
# ---------------------------------------------------------------------------------------------

def random_case(seed, *, n_topics=6, max_levels=4, binary=False, uniform=False, depth=15, n_runs=3,
                probs_4dp=True):
    rng = np.random.default_rng(seed)
    dq, it, rn = [], [], []
    for t in range(n_topics):
        q = f"{t + 1:03d}"
        m = int(rng.integers(2, 6))
        p = np.full(m, 1.0 / m) if uniform else rng.dirichlet(np.ones(m))
        if probs_4dp and not uniform:
            p = np.round(p, 4)
            p[-1] = round(1.0 - p[:-1].sum(), 4)
        for i in range(m):
            it.append((q, f"{i + 1}", float(p[i]), "nav" if rng.random() < 0.35 else "inf"))
        docs = [f"doc{t}-{k:03d}" for k in range(25)]
        for d in docs:
            for i in range(m):
                if rng.random() < 0.3:
                    lv = 1 if binary else int(rng.integers(0, max_levels + 1))
                    dq.append((q, f"{i + 1}", d, lv))
                elif rng.random() < 0.2:
                    dq.append((q, f"{i + 1}", d, 0))
        for r in range(n_runs):
            pool = docs + [f"unj{t}-{k}" for k in range(10)]
            order = rng.permutation(len(pool))[:depth]
            for rank, k in enumerate(order, start=1):
                rn.append((f"run{r}", q, pool[k], rank, float(depth - rank) + rng.random() * 0.1))
    dqrels = pd.DataFrame(dq, columns=["query_id", "intent_id", "doc_id", "relevance"])
    intents = pd.DataFrame(it, columns=["query_id", "intent_id", "prob", "kind"])
    runs = pd.DataFrame(rn, columns=["run_id", "query_id", "doc_id", "rank", "score"])
    return dqrels, intents, runs


NTCIR_MEASURES = ["I-rec", "D-nDCG", "D-Q", "D-nERR", "D-RBP", "D-EBR", "D#-nDCG", "D#-Q", "DIN-nDCG",
                  "DIN-Q", "DIN#-nDCG", "IA-nDCG", "IA-Q", "IA-nERR", "IA-RBP", "IA-EBR", "P+Q", "P+Q#"]


def _reference_ntcir(dqrels, intents, runs, cutoff, gain_of):
    rows = []
    for q, qr in dqrels.groupby("query_id"):
        qrels_t = {(r.intent_id, r.doc_id): r.relevance for r in qr.itertuples()}
        if not any(v > 0 for v in qrels_t.values()):
            continue
        it = intents[intents.query_id == q]
        intents_t = {r.intent_id: (r.prob, r.kind) for r in it.itertuples()}
        for run_id, rr in runs[runs.query_id == q].groupby("run_id"):
            docs = list(rr.sort_values("rank").doc_id)
            for k, v in ntcireval_topic(docs, qrels_t, intents_t, cutoff, gain_of).items():
                rows.append((run_id, q, f"{k}@{cutoff}", v))
    return pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "expected"])


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("cutoff", [5, 10, 20])
def test_ntcir_measures_match_ntcireval_port(seed, cutoff):
    dqrels, intents, runs = random_case(seed)
    ref = _reference_ntcir(dqrels, intents, runs, cutoff, lambda lv: float(lv))
    got = diversity.evaluate(dqrels, intents, runs, [f"{m}@{cutoff}" for m in NTCIR_MEASURES],
                             gains="1:2:3:4", prob_sum="keep")
    merged = ref.merge(got, on=["run_id", "query_id", "measure"], how="left")
    assert len(merged) == len(ref) > 0
    bad = merged[~np.isclose(merged.value, merged.expected, atol=1e-9, rtol=0)]
    assert bad.empty, bad.head(10)


@pytest.mark.parametrize("seed", [4, 5])
def test_ntcir_measures_with_exponential_gains(seed):
    dqrels, intents, runs = random_case(seed, max_levels=3)
    ref = _reference_ntcir(dqrels, intents, runs, 10, lambda lv: 2.0 ** lv - 1)
    got = diversity.evaluate(dqrels, intents, runs, [f"{m}@10" for m in NTCIR_MEASURES], prob_sum="keep")
    merged = ref.merge(got, on=["run_id", "query_id", "measure"], how="left")
    assert np.allclose(merged.value, merged.expected, atol=1e-9, rtol=0)


def test_rbu_matches_ntcireval_compute():
    dqrels, intents, runs = random_case(7, max_levels=4)
    gain_of = lambda lv: 2.0 ** lv - 1  # noqa: E731
    got = diversity.evaluate(dqrels, intents, runs, ["iRBU(p=0.85)@10", "RBU(p=0.85)@10", "RBU@10"],
                             prob_sum="keep", gmax=15.0)
    for (run_id, q), rr in runs.groupby(["run_id", "query_id"]):
        qr = dqrels[dqrels.query_id == q]
        docs = list(rr.sort_values("rank").doc_id)
        tot85 = tot99 = 0.0
        for r in intents[intents.query_id == q].itertuples():
            rel = {d: gain_of(lv) for d, lv in zip(qr[qr.intent_id == r.intent_id].doc_id,
                                                    qr[qr.intent_id == r.intent_id].relevance) if lv > 0}
            if not rel:
                continue
            tot85 += r.prob * irbu([rel.get(d, 0.0) for d in docs], 15.0, 10, 0.85)
            tot99 += r.prob * irbu([rel.get(d, 0.0) for d in docs], 15.0, 10, 0.99)
        g = got[(got.run_id == run_id) & (got.query_id == q)].set_index("measure").value
        n = 10  # Zeng & Sakai Eq. 6: effort summed to the cutoff
        assert g["iRBU(p=0.85)@10"] == pytest.approx(tot85, abs=1e-12)
        assert g["RBU(p=0.85)@10"] == pytest.approx(tot85 - 0.01 * sum(0.85 ** r for r in range(1, n + 1)), abs=1e-12)
        assert g["RBU@10"] == pytest.approx(tot99 - 0.01 * sum(0.99 ** r for r in range(1, n + 1)), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# TREC ndeval
# ---------------------------------------------------------------------------------------------

NDEVAL = ["alpha-nDCG@5", "alpha-nDCG@10", "alpha-nDCG@20", "ERR-IA@5", "ERR-IA@10", "ERR-IA@20",
          "nERR-IA@10", "alpha-DCG@10", "NRBP", "nNRBP", "P-IA@5", "P-IA@10", "P-IA@20", "strec@5",
          "strec@10", "strec@20"]


def _pyndeval(dqrels, runs, measures, alpha=0.5, beta=0.5):
    qrels = [(r.query_id, r.intent_id, r.doc_id, int(r.relevance)) for r in dqrels.itertuples()]
    rows = []
    for run_id, rr in runs.groupby("run_id"):
        rr = rr.sort_values(["query_id", "rank"])
        # score = -rank: pyndeval re-sorts by (-score, docno ascending), so tied scores would
        # otherwise be ordered differently from the run's ranks (trec_eval: docno descending)
        res = pyndeval.ndeval(qrels, [(r.query_id, r.doc_id, -float(r.rank)) for r in rr.itertuples()],
                              measures=measures, alpha=alpha, beta=beta)
        for q, vals in res.items():
            for m, v in vals.items():
                rows.append((run_id, q, m, v))
    return pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "expected"])


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_ndeval_measures_match_pyndeval(seed):
    dqrels, intents, runs = random_case(seed, binary=True, uniform=True, depth=25, n_topics=8)
    ref = _pyndeval(dqrels, runs, NDEVAL)
    got = diversity.evaluate(dqrels, intents, runs, NDEVAL)
    merged = ref.merge(got, on=["run_id", "query_id", "measure"], how="inner")
    assert len(merged) == len(ref) > 0
    bad = merged[~np.isclose(merged.value, merged.expected, atol=1e-9, rtol=0)]
    assert bad.empty, bad.head(10)


@pytest.mark.parametrize("alpha,beta", [(0.3, 0.5), (0.8, 0.7)])
def test_ndeval_parameters_match_pyndeval(alpha, beta):
    dqrels, intents, runs = random_case(21, binary=True, uniform=True, depth=20)
    ms = ["alpha-nDCG@10", "ERR-IA@10", "NRBP", "nNRBP", "nERR-IA@20"]
    ref = _pyndeval(dqrels, runs, ms, alpha=alpha, beta=beta)
    ours = [m.replace("@", f"(alpha={alpha})@") if "@" in m else f"{m}(alpha={alpha}, beta={beta})" for m in ms]
    got = diversity.evaluate(dqrels, intents, runs, ours)
    got["measure"] = got.measure.map(dict(zip(ours, ms)))
    merged = ref.merge(got, on=["run_id", "query_id", "measure"])
    assert len(merged) == len(ref) > 0
    assert np.allclose(merged.value, merged.expected, atol=1e-9, rtol=0)


def test_ndeval_graded_levels_are_binarised_like_pyndeval():
    dqrels, intents, runs = random_case(31, uniform=True, depth=20)
    ref = _pyndeval(dqrels, runs, ["alpha-nDCG@10", "ERR-IA@20", "P-IA@10"])
    got = diversity.evaluate(dqrels, intents, runs, ["alpha-nDCG@10", "ERR-IA@20", "P-IA@10"])
    merged = ref.merge(got, on=["run_id", "query_id", "measure"])
    assert np.allclose(merged.value, merged.expected, atol=1e-9, rtol=0)


def test_ndeval_measures_on_trec_web_2012_baselines_match_pyndeval():
    """The real TREC Web 2012 diversity qrels and two Indri baselines (needs the public data)."""
    from helpers.data import datasets

    try:
        dqrels = datasets.load_diversity_qrels("trec-web-2012")
        intents = datasets.load_intents("trec-web-2012")
        runs = datasets.load_runs("trec-web-2012")
    except Exception as exc:  # noqa: BLE001 - offline machine without the mirror
        pytest.skip(f"TREC Web 2012 data unavailable: {exc}")
    runs = runs[runs["run_id"].isin(["ql-cata", "rm-catb-filtered"])]
    ms = ["alpha-nDCG@20", "ERR-IA@20", "nERR-IA@20", "P-IA@20", "strec@20", "NRBP", "nNRBP"]
    ref = _pyndeval(dqrels, runs, ms)
    got = diversity.evaluate(dqrels, intents, runs, ms)
    merged = ref.merge(got, on=["run_id", "query_id", "measure"])
    assert len(merged) == len(ref) > 0
    assert np.allclose(merged.value, merged.expected, atol=1e-9, rtol=0)


# ---------------------------------------------------------------------------------------------
# NTCIREVAL README.diversity (version 190111): the published example, topic 0001 of the sample
# files Dtest.DINprob / Dtest.Dqrels / TRECRUN, evaluated at cutoff 10
# ---------------------------------------------------------------------------------------------

def readme_topic_0001():
    """Topic 0001 of NTCIREVAL's sample data, reduced to what the measures depend on.

    Dtest.DINprob: intent 1 (0.5714, nav), 2 (0.2857, nav), 3 (0.1429, inf). Dtest.Dqrels has 93
    L1-relevant documents (the README's jrel=93): 68 relevant to intents {2, 3}, 13 to {2}, 10
    to {3} and 2 to {1, 3} (counted from the file). TRECRUN's top 10 for 0001 holds judged L0
    documents except rank 3 ({2, 3}), rank 4 ({2}) and rank 5 ({2, 3}). Document names are
    replaced by placeholders; DIN-splitqrels' default gains are linear (L1 -> 1).
    """
    rows = []
    groups = {"23": ("2", "3"), "2": ("2",), "3": ("3",), "13": ("1", "3")}
    counts = {"23": 68, "2": 13, "3": 10, "13": 2}
    for g, n in counts.items():
        for k in range(n):
            rows += [("0001", i, f"rel{g}-{k:02d}", 1) for i in groups[g]]
    nonrel = [f"nonrel-{k}" for k in range(7)]
    rows += [("0001", "1", d, 0) for d in nonrel]
    dqrels = pd.DataFrame(rows, columns=["query_id", "intent_id", "doc_id", "relevance"])
    intents = pd.DataFrame([("0001", "1", 0.5714, "nav"), ("0001", "2", 0.2857, "nav"),
                            ("0001", "3", 0.1429, "inf")], columns=["query_id", "intent_id", "prob", "kind"])
    top10 = nonrel[:2] + ["rel23-00", "rel2-00", "rel23-01"] + nonrel[2:]
    run = pd.DataFrame({"run_id": "TRECRUN", "query_id": "0001", "doc_id": top10, "rank": range(1, 11)})
    return dqrels, intents, run


# (measure, value printed in README.diversity: Dnev file / DINnev file of topic 0001)
README_0001 = [
    ("I-rec@10", 0.6667), ("D-Q@10", 0.1263), ("D-nDCG@10", 0.2085), ("D-RBP@10", 0.0687),
    ("D-nERR@10", 0.2402), ("D-EBR@10", 0.2114), ("D#-Q@10", 0.3965), ("D#-nDCG@10", 0.4376),
    ("DIN-Q@10", 0.0627), ("DIN-nDCG@10", 0.1117), ("DIN#-Q@10", 0.3647), ("DIN#-nDCG@10", 0.3892),
]


@pytest.mark.parametrize("rounding", [False, True])
def test_ntcireval_readme_diversity_example(rounding):
    dqrels, intents, run = readme_topic_0001()
    got = diversity.evaluate(dqrels, intents, run, [m for m, _ in README_0001], gains="1",
                             prob_sum="keep", ntcireval_rounding=rounding)
    got = got.set_index("measure")["value"]
    for m, published in README_0001:
        # printed with %.4f; D# combines the already rounded I-rec and D values
        assert abs(got[m] - published) <= 1e-4, (m, got[m], published)
