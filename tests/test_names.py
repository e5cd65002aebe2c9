"""trec_eval / ir_measures names mapped onto the engine's measures (issue 19)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers import measures as M
from helpers.measures import names as measure_names


@pytest.mark.parametrize("name,engine", [
    ("map", "AP"), ("map_cut_10", "AP(norm=R)@10"), ("map_cut.100", "AP(norm=R)@100"),
    ("recip_rank", "RR"), ("P_10", "P@10"), ("P.5", "P@5"), ("recall_100", "R@100"),
    ("success_1", "Hit@1"), ("ndcg", "MSnDCG"), ("ndcg_cut_10", "MSnDCG@10"), ("ndcg_cut.10", "MSnDCG@10"),
    ("nDCG@10", "MSnDCG@10"), ("nDCG", "MSnDCG"), ("AP", "AP"), ("AP@10", "AP(norm=R)@10"),
    ("AP(rel=2)", "AP(rel=2)"), ("AP(rel=2)@100", "AP(norm=R,rel=2)@100"), ("RR(rel=2)", "RR(rel=2)"),
    ("RR@10", "RR@10"), ("P(rel=2)@10", "P(rel=2)@10"), ("R@1000", "R@1000"), ("Success@10", "Hit@10"),
    ("Q@10", "Q@10"), ("MSnDCG@10", "MSnDCG@10"), ("nERR@10", "nERR@10"),
])
def test_translate(name, engine):
    assert str(measure_names.translate(name)) == engine
    assert str(measure_names.translate(name, "ir_measures")) == engine


def test_ntcireval_scheme_keeps_engine_names():
    assert str(measure_names.translate("nDCG@10", "ntcireval")) == "nDCG@10"


@pytest.mark.parametrize("name,message", [
    ("ERR@10", "gdeval"), ("RBP(p=0.8)", "binary unless rel="), ("nDCG(dcg=exp-log2)@10", "not supported"),
    ("bogus_measure", "unknown trec_eval/ir_measures measure"), ("gm_bpref", "geometric mean"), ("P", "needs a cutoff"), ("map_5", "takes no cutoff"),
    ("ndcg_cut", "needs a cutoff"),
])
def test_translate_refuses(name, message):
    with pytest.raises(ValueError, match=message):
        measure_names.translate(name)


def test_bad_scheme():
    with pytest.raises(ValueError, match="names must be one of"):
        measure_names.translate("map", "trec")


def test_translations_agree_with_ir_measures_on_a_toy_collection():
    ir_measures = pytest.importorskip("ir_measures")
    qrels = pd.DataFrame({"query_id": ["1"] * 6 + ["2"] * 3, "doc_id": list("abcdef") + list("xyz"),
                          "relevance": [3, 2, 1, 0, 2, 1, 1, 2, 0]})
    run = pd.DataFrame({"query_id": ["1"] * 6 + ["2"] * 3, "doc_id": list("fdacbz") + list("zyx"),
                        "score": [9.0, 8, 7, 6, 5, 4, 3, 2, 1]})
    names = ["nDCG@3", "nDCG", "AP", "AP@3", "AP(rel=2)", "RR", "RR(rel=2)", "P@3", "P(rel=2)@3",
             "R@3", "Success@1", "Success(rel=3)@1"]
    ours = M.evaluate(qrels, run, [measure_names.translate(n) for n in names], order_by="score",
                      no_relevant="zero")
    per = {(r.query_id, r.measure): r.value for r in ours.itertuples()}
    theirs = ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names], qrels,
                                   run.assign(doc_id=run["doc_id"]))
    n = 0
    for m in theirs:
        engine = str(measure_names.translate(str(m.measure)))
        assert per[(m.query_id, engine)] == pytest.approx(m.value, abs=1e-12), (m.measure, m.query_id)
        n += 1
    assert n == len(names) * 2
