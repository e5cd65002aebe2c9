"""trec_eval's measures as engine measures: names, parameters and their checks, the conventions
inside ``measures.evaluate``, judgment groups and preferences from Python, on tiny literal cases
worked by hand (as ir_measures tests its measures)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.io import readers
from helpers.measures.treceval.groups import judgment_group_scores
from helpers.measures.treceval.prefs import preference_scores

# topic 1: d1 (2), d2 (0), d3 (1), d4 (1, not retrieved), d5 (-1: pooled, not judged)
QRELS = pd.DataFrame({"query_id": ["1"] * 5 + ["2"], "doc_id": ["d1", "d2", "d3", "d4", "d5", "x"],
                      "relevance": [2, 0, 1, 1, -1, 0]})
# ranking of topic 1: d1, d9 (not in the qrels), d5, d2, d3; topic 2: x
RUN = pd.DataFrame({"query_id": ["1"] * 5 + ["2"], "doc_id": ["d1", "d9", "d5", "d2", "d3", "x"],
                    "score": [5.0, 4.0, 3.0, 2.0, 1.0, 1.0]})


def ev(measures, **kw) -> dict[tuple[str, str], float]:
    kw = {"order_by": "score", "no_relevant": "zero", **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = M.evaluate(QRELS, RUN, measures, **kw)
    labels = {str(M.MeasureSpec.parse(m)): m for m in measures}      # canonical label -> as written
    return {(q, labels[m]): v for q, m, v in res[["query_id", "measure", "value"]].itertuples(index=False)}


def test_hand_worked_topic():
    v = ev(["NumRet", "NumRel", "NumRelRet", "NumNonrelJudgedRet", "Rprec", "Bpref", "infAP", "relP@2",
            "SetP", "SetF", "Unjudged@5", "IPrec(recall=0.5)", "utility", "binG", "yaap"])
    t = lambda m: v[("1", m)]  # noqa: E731
    assert (t("NumRet"), t("NumRel"), t("NumRelRet"), t("NumNonrelJudgedRet")) == (5, 3, 2, 1)
    assert t("Rprec") == pytest.approx(1 / 3)                      # top 3: d1 only
    # bpref: d1 (no non-relevant above): 1; d3 (d2 above): 1 - min(1, 3)/min(1, 3) = 0
    assert t("Bpref") == pytest.approx(1 / 3)
    e = 0.00001      # infAP: d1 at rank 1 adds 1; d3 at 0-based rank 4: a = 1, b = 1 (d2), u = 1 (d5)
    assert t("infAP") == pytest.approx((1 + 1 / 5 + 4 / 5 * (3 / 4) * ((1 + e) / (2 + 2 * e))) / 3)
    assert t("relP@2") == pytest.approx(1 / 2) and t("SetP") == pytest.approx(2 / 5)
    assert t("SetF") == pytest.approx(2 * (2 / 5) * (2 / 3) / (2 / 5 + 2 / 3))
    assert t("Unjudged@5") == pytest.approx(2 / 5)                 # d9 (not pooled) and d5 (pooled)
    # IPrec at recall 0.5: round(1.5) = 2nd relevant (rank 5): max precision from rank 5 on = 2/5
    assert t("IPrec(recall=0.5)") == pytest.approx(2 / 5)
    assert t("utility") == pytest.approx(2 - 3)                    # 1 x relevant + -1 x non-relevant retrieved
    assert t("binG") == pytest.approx((1 / math.log2(2) + 1 / math.log2(2 + 3)) / 3)
    ap_sum = 1 + 2 / 5
    assert t("yaap") == pytest.approx(math.log((1 + ap_sum) / (1 + 3 - ap_sum)))


def test_rel_threshold_and_v9_rounding():
    v = ev(["Bpref(rel=2)", "NumRel(rel=2)", "IPrec(recall=0.5,rounding=v9)", "IPrec(recall=0.5)"])
    # at rel=2 only d1 is relevant; d2 and d3 (levels 0, 1) are judged non-relevant: bpref 1
    assert v[("1", "NumRel(rel=2)")] == 1 and v[("1", "Bpref(rel=2)")] == 1.0
    # v9: (long)(0.5 * 3 + 0.9) = 2, nearest: round(1.5) = 2: equal here, unlike recall 0.4 below
    assert v[("1", "IPrec(recall=0.5,rounding=v9)")] == v[("1", "IPrec(recall=0.5)")]
    # recall 0.4 of R = 3: trec_eval 10 rounds 1.2 to the 1st relevant, trec_eval 9 takes (long)2.1 = 2nd
    w = ev(["IPrec(recall=0.4,rounding=v9)", "IPrec(recall=0.4)"])
    assert w[("1", "IPrec(recall=0.4)")] == 1.0 and w[("1", "IPrec(recall=0.4,rounding=v9)")] == pytest.approx(2 / 5)


def test_gains_families():
    v = ev(["MSnDCG", "MSnDCGg(gains=levels)", "MSnDCGg(gains=2:4)", "MSDCG(gains=levels)", "RBPg(p=0.5,gains=levels)"])
    assert v[("1", "MSnDCG")] == pytest.approx(v[("1", "MSnDCGg(gains=levels)")])
    ideal = 4 + 1 / math.log2(3) + 1 / math.log2(4)
    assert v[("1", "MSnDCGg(gains=2:4)")] == pytest.approx((4 + 1 / math.log2(6)) / ideal)
    assert v[("1", "MSDCG(gains=levels)")] == pytest.approx(2 + 1 / math.log2(6))
    # rbp: gains rescaled by the topic's largest gain (2): d1 -> 1, d3 -> 1/2
    assert v[("1", "RBPg(p=0.5,gains=levels)")] == pytest.approx(0.5 * (1 + 0.5 * 0.5 ** 4))


def test_conventions_inside_evaluate():
    # topic 2 has no relevant document: trec_eval's own values are kept under no_relevant="zero"
    v = ev(["NumRet", "AP", "utility"])
    assert v[("2", "NumRet")] == 1 and v[("2", "AP")] == 0 and v[("2", "utility")] == -1
    assert ("2", "NumRet") not in ev(["NumRet"], no_relevant="skip")
    # condensed=True is trec_eval's -J: unjudged (d9) and pooled-unjudged (d5) documents leave the list
    assert ev(["NumRet"], condensed=True)[("1", "NumRet")] == 3
    # an unanswered topic is an empty ranking (trec_eval -c), its utility 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = M.evaluate(QRELS, RUN[RUN["query_id"] == "2"], ["NumRel", "utility(a=1,b=-1,c=-1,d=0)"],
                         order_by="score", missing="zero", no_relevant="zero")
    got = dict(zip(zip(res["query_id"], res["measure"]), res["value"]))
    assert got[("1", "NumRel")] == 3 and got[("1", "utility(a=1,b=-1,c=-1,d=0)")] == 0
    # answered, but nothing judged once -J drops the unjudged: utility is computed (-3 unfound relevant)
    lone = pd.DataFrame({"query_id": ["1"], "doc_id": ["d9"], "score": [1.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = M.evaluate(QRELS, lone, ["utility(a=1,b=-1,c=-1,d=0)"], order_by="score", condensed=True)
    assert res["value"].tolist() == [-3.0]


def test_gain_qrels_and_array_engine_refuse_trec_measures():
    gains = QRELS.rename(columns={"relevance": "gain"}).assign(gain=lambda d: d["gain"].clip(lower=0).astype(float))
    with pytest.raises(ValueError, match="trec_eval's measures read relevance levels"):
        M.evaluate(gains, RUN, ["infAP"], order_by="score")
    with pytest.raises(ValueError, match="a trec_eval measure"):
        M.evaluate_arrays(np.array([[1.0, 0.0]]), np.array([[1.0]]), ["infAP"])


@pytest.mark.parametrize("name, message", [
    ("IPrec", "IPrec needs a recall level"),
    ("IPrec(recall=0.1,rounding=up)", "rounding must be 'nearest'"),
    ("IPrecAvg(recall=0.5:0.2)", "increasing order"),
    ("IPrecAvg(recall=0.5:x)", "recall points must be numbers"),
    ("Rprec(mult=-1)", "mult"),
    ("utility(docs=-1)", "docs"),
    ("SetF(beta=-1)", "beta"),
    ("RBPg(p=1)", "persistence p"),
    ("G(gains=1:x)", "must be an integer"),
    ("G(gains=1:2;1:3)", "given twice"),
    ("G(gains=12)", "level:gain pairs"),
    ("relP", "needs a cutoff"),
    ("G(rel=2)", "rel="),
])
def test_bad_parameters(name, message):
    with pytest.raises(ValueError, match=message):
        M.MeasureSpec.parse(name)


def test_judgment_groups_and_preferences_from_python():
    qjg = pd.DataFrame({"query_id": ["1"] * 4, "jg": ["a", "a", "b", "b"], "doc_id": ["d1", "d2", "d1", "d2"],
                        "relevance": [1, 0, 0, 1]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["d1", "d2"], "score": [2.0, 1.0]})
    got = judgment_group_scores(qjg, run, ["AP", "P@1"])
    values = dict(zip(got["measure"], got["value"]))
    assert values["AP"] == pytest.approx((1 + 1 / 2) / 2) and values["P@1"] == pytest.approx(1 / 2)
    prefs = pd.DataFrame({"query_id": ["1"] * 4, "jg": ["a", "a", "b", "b"], "jsg": ["0"] * 4,
                          "doc_id": ["d1", "d2", "d1", "d2"], "rel_level": [2.0, 1.0, 1.0, 2.0]})
    got = preference_scores(prefs, run, ["prefs_simp", "prefs_pair", "prefs_num_prefs_poss"])
    values = dict(zip(got["measure"], got["value"]))
    # group a prefers d1 > d2 (fulfilled), group b d2 > d1 (not): 1 of 2; per pair, 1 of 2 groups
    assert values == {"prefs_simp": 0.5, "prefs_pair": 0.5, "prefs_num_prefs_poss": 2.0}


def test_judgment_groups_are_a_ratings_source(tmp_path):
    path = tmp_path / "jg.txt"
    path.write_text("1 a d1 1\n1 b d1 0\n1 a d2 2\n")
    ratings = readers.read_ratings(path, layout="qrels_jg")
    assert ratings[["doc_id", "assessor", "rating"]].values.tolist() == [["d1", "a", 1], ["d1", "b", 0], ["d2", "a", 2]]
    assert "qrels_jg" in readers.RATING_LAYOUTS
