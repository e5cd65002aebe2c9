"""Hand-computed cases for helpers.measures (every measure), its conventions and its errors.

The expected values are derived by hand in the comments from the definitions in Sakai's NTCIR
survey (Eq. 1-4), Zeng & Sakai's NCU table and NTCIREVAL's ntcir_eval.c; none is copied from
the engine's own output.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import measures as M
from helpers.io.ids import factorize_ids
from helpers.measures import MeasureSpec, evaluate, evaluate_arrays, lists, to_matrix

# ---------------------------------------------------------------------------------------------
# Example A: levels L0-L3 with gains 1:2:3 (gmax = 3), one topic.
#   qrels: a L3, b L2, c L1, d L0, e L2 (e is relevant but never retrieved)  ->  R = 4
#   run:   1 d (L0)  2 a (L3)  3 x (unjudged)  4 c (L1)  5 b (L2)
#   g = [0, 3, 0, 1, 2], I = [0, 1, 0, 1, 1], C = [0, 1, 1, 2, 3], cg = [0, 3, 3, 4, 6]
#   ideal g* = [3, 2, 2, 1], cg* = [3, 5, 7, 8, 8]
# ---------------------------------------------------------------------------------------------

QRELS_A = pd.DataFrame({"query_id": ["T"] * 5, "doc_id": list("abcde"),
                        "relevance": [3, 2, 1, 0, 2]})
RUN_A = pd.DataFrame({"query_id": ["T"] * 5, "doc_id": ["d", "a", "x", "c", "b"],
                      "rank": [1, 2, 3, 4, 5]})

BR2, BR4, BR5 = (1 + 3) / (2 + 5), (2 + 4) / (4 + 8), (3 + 6) / (5 + 8)
# ERR stop probabilities s = g / (gmax + 1) = [0, 0.75, 0, 0.25, 0.5];
# probabilities of reaching each rank prod_{i<r} (1 - s(i)) = [1, 1, 0.25, 0.25, 0.1875]
IDEAL_ERR = 0.75 + 0.25 * 0.5 / 2 + 0.125 * 0.5 / 3 + 0.0625 * 0.25 / 4
L2_3, L2_5, L3_4, L3_5 = math.log2(3), math.log2(5), math.log(4, 3), math.log(5, 3)

EXPECTED_A = {
    "AP": (1 / 2 + 2 / 4 + 3 / 5) / 4,
    "AP@3": (1 / 2) / 3,                          # divide by min(l, R) = 3
    "AP(norm=R)@3": (1 / 2) / 4,                  # trec_eval map_cut divides by R
    "Q": (BR2 + BR4 + BR5) / 4,
    "Q@3": BR2 / 3,
    "Q(beta=0)": (1 / 2 + 2 / 4 + 3 / 5) / 4,     # beta = 0 reduces Q to AP (survey, Sec. 2.1.1)
    "Q(beta=2)": ((1 + 6) / (2 + 10) + (2 + 8) / (4 + 16) + (3 + 12) / (5 + 16)) / 4,
    "P+": BR2 / 1,                                # rp = 2 (the L3 doc), C(rp) = 1
    "P+@1": 0.0,                                  # no relevant doc in the top 1
    "P+@4": BR2 / 1,
    "RR": 1 / 2,
    "RR@1": 0.0,
    "MSnDCG@3": (3 / L2_3) / (3 + 2 / L2_3 + 2 / 2),
    "MSnDCG@5": (3 / L2_3 + 1 / math.log2(5) + 2 / math.log2(6))
    / (3 + 2 / L2_3 + 2 / 2 + 1 / math.log2(5)),
    "nDCG@5": (3 / 1 + 1 / 2 + 2 / L2_5) / (3 / 1 + 2 / 1 + 2 / L2_3 + 1 / 2),
    "nDCG(b=3)@5": (3 + 1 / L3_4 + 2 / L3_5) / (3 + 2 + 2 + 1 / L3_4),
    "nG@1": 0.0,
    "nCG@2": 3 / 5,
    "nCG@10": 6 / 8,
    "ERR@5": 0.75 / 2 + 0.25 * 0.25 / 4 + 0.5 * 0.1875 / 5,
    "ERR@2": 0.75 / 2,
    "nERR@5": (0.75 / 2 + 0.25 * 0.25 / 4 + 0.5 * 0.1875 / 5) / IDEAL_ERR,
    "nERR@1": 0.0,
    "RBP(p=0.5)": 0.5 * (3 * 0.5 + 1 * 0.5 ** 3 + 2 * 0.5 ** 4) / 3,
    "RBP(p=0.5)@2": 0.5 * (3 * 0.5) / 3,
    "EBR": BR2 * 1 * 0.75 + BR4 * 0.25 * 0.25 + BR5 * 0.1875 * 0.5,
    "EBR@3": BR2 * 0.75,
    "iRBU(p=0.5)@5": 0.5 ** 2 * 0.75 + 0.5 ** 4 * 0.25 * 0.25 + 0.5 ** 5 * 0.1875 * 0.5,
    "iRBU(e=0.01,p=0.5)@5": 0.5 ** 2 * 0.75 + 0.5 ** 4 * 0.25 * 0.25 + 0.5 ** 5 * 0.1875 * 0.5
    - 0.01 * (0.5 + 0.25 + 0.125 + 0.0625 + 0.03125),
    "Hit@1": 0.0,
    "Hit@2": 1.0,
    "P@3": 1 / 3,
    "P@10": 3 / 10,                               # a short list still divides by l
}


@pytest.mark.parametrize("name", sorted(EXPECTED_A))
def test_example_a_every_measure(name):
    res = evaluate(QRELS_A, RUN_A, [name], gains="1:2:3")
    assert res["measure"].tolist() == [name]
    assert res["value"].iloc[0] == pytest.approx(EXPECTED_A[name], abs=1e-12)


def test_example_a_dict_gains_equal_spec_string():
    a = evaluate(QRELS_A, RUN_A, list(EXPECTED_A), gains="1:2:3")
    b = evaluate(QRELS_A, RUN_A, list(EXPECTED_A), gains={1: 1, 2: 2, 3: 3})
    c = evaluate(QRELS_A, RUN_A, list(EXPECTED_A))  # linear default: -g 1:2:3 for L0-L3
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)


def test_nG1_nonzero_and_L0_L4_exponential_gains():
    # L0-L4 with gains 1:3:7:15 (2^L - 1); run: top doc is L2 (gain 3), ideal top is L4 (15).
    qrels = pd.DataFrame({"query_id": "t", "doc_id": ["a", "b", "c", "d", "e"],
                          "relevance": [4, 3, 2, 1, 0]})
    run = pd.DataFrame({"query_id": "t", "doc_id": ["c", "a"], "rank": [1, 2]})
    res = evaluate(qrels, run, ["nG@1", "nCG@2", "ERR@2", "RBP(p=0.5)"], gains="1:3:7:15")
    v = dict(zip(res["measure"], res["value"]))
    assert v["nG@1"] == pytest.approx(3 / 15)
    assert v["nCG@2"] == pytest.approx((3 + 15) / (15 + 7))
    s1, s2 = 3 / 16, 15 / 16                      # gmax + 1 = 16
    assert v["ERR@2"] == pytest.approx(s1 + (1 - s1) * s2 / 2)
    assert v["RBP(p=0.5)"] == pytest.approx(0.5 * (3 + 15 * 0.5) / 15)


# ---------------------------------------------------------------------------------------------
# Example B: real-valued gains, unjudged doc, condensed list, gmax per topic (gcompute)
#   qrels: a 0.5, b 2.25, c 0 (judged non-relevant); run: b, z (unjudged), a, c
# ---------------------------------------------------------------------------------------------

QRELS_B = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c"], "gain": [0.5, 2.25, 0.0]})
RUN_B = pd.DataFrame({"query_id": "q", "doc_id": ["b", "z", "a", "c"], "score": [4, 3, 2, 1.0]})


def test_real_valued_gains_full_list():
    res = evaluate(QRELS_B, RUN_B, ["Q", "AP", "ERR@3", "RBP(p=0.8)", "nG@1", "P+", "MSnDCG@2"])
    v = dict(zip(res["measure"], res["value"]))
    # g = [2.25, 0, 0.5, 0], cg* = [2.25, 2.75, 2.75, ...]
    assert v["Q"] == pytest.approx((1.0 + (2 + 2.75) / (3 + 2.75)) / 2)
    assert v["AP"] == pytest.approx((1 + 2 / 3) / 2)
    s1, s3 = 2.25 / 3.25, 0.5 / 3.25               # gmax = 2.25, the topic's highest gain
    assert v["ERR@3"] == pytest.approx(s1 + (1 - s1) * s3 / 3)
    assert v["RBP(p=0.8)"] == pytest.approx(0.2 * (2.25 + 0.5 * 0.8 ** 2) / 2.25)
    assert v["nG@1"] == pytest.approx(1.0)
    assert v["P+"] == pytest.approx(1.0)            # rp = 1 (highest gain first)
    assert v["MSnDCG@2"] == pytest.approx(2.25 / (2.25 + 0.5 / math.log2(3)))


def test_condensed_list_removes_unjudged_before_ranking():
    res = evaluate(QRELS_B, RUN_B, ["Q", "AP", "P@2", "MSnDCG@2"], condensed=True)
    v = dict(zip(res["measure"], res["value"]))
    # condensed list: b (2.25), a (0.5), c (0): ideal order, so every measure is 1
    assert v == pytest.approx({"Q": 1.0, "AP": 1.0, "P@2": 1.0, "MSnDCG@2": 1.0})


def test_depth_truncates_before_condensing():
    # depth 2 keeps b, z; condensing then drops z: only b remains
    res = evaluate(QRELS_B, RUN_B, ["AP", "P@2"], condensed=True, depth=2)
    v = dict(zip(res["measure"], res["value"]))
    assert v["AP"] == pytest.approx(1 / 2)
    assert v["P@2"] == pytest.approx(1 / 2)


def test_run_of_length_one():
    run = pd.DataFrame({"query_id": ["T"], "doc_id": ["c"], "rank": [1]})  # L1 doc only
    res = evaluate(QRELS_A, run, ["AP", "Q", "RR", "P+", "nERR@10", "P@1", "nG@1"], gains="1:2:3")
    v = dict(zip(res["measure"], res["value"]))
    assert v["AP"] == pytest.approx(1 / 4)
    assert v["Q"] == pytest.approx((1 + 1) / (1 + 3) / 4)     # BR(1) = (1+1)/(1+3)
    assert v["RR"] == 1.0
    assert v["P+"] == pytest.approx((1 + 1) / (1 + 3))
    assert v["nERR@10"] == pytest.approx(0.25 / IDEAL_ERR)
    assert v["P@1"] == 1.0
    assert v["nG@1"] == pytest.approx(1 / 3)


# ---------------------------------------------------------------------------------------------
# Conventions
# ---------------------------------------------------------------------------------------------

QRELS_C = pd.DataFrame({"query_id": ["1", "1", "2", "3"], "doc_id": ["a", "b", "c", "d"],
                        "relevance": [1, 0, 0, 1]})   # topic 2 has no relevant doc
RUN_C = pd.DataFrame({"run_id": "r", "query_id": ["1", "2", "9"], "doc_id": ["a", "c", "z"],
                      "score": [1.0, 1.0, 1.0]})      # topic 3 missing, topic 9 not in qrels


def test_default_conventions_follow_ntcireval():
    """No-relevant topics are skipped, missing topics score 0, unknown topics are ignored."""
    res = evaluate(QRELS_C, RUN_C, ["AP"])
    assert res[["query_id", "value"]].values.tolist() == [["1", 1.0], ["3", 0.0]]


def test_trec_eval_and_ir_measures_conventions():
    trec = evaluate(QRELS_C, RUN_C, ["AP"], no_relevant="zero", missing="skip")
    assert trec[["query_id", "value"]].values.tolist() == [["1", 1.0], ["2", 0.0]]
    irm = evaluate(QRELS_C, RUN_C, ["AP"], no_relevant="zero", missing="zero")
    assert irm[["query_id", "value"]].values.tolist() == [["1", 1.0], ["2", 0.0], ["3", 0.0]]
    nan = evaluate(QRELS_C, RUN_C, ["AP"], no_relevant="nan")
    assert nan["query_id"].tolist() == ["1", "2", "3"] and np.isnan(nan["value"].iloc[1])


def test_score_ties_broken_by_doc_id_descending_like_trec_eval():
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "relevance": [1, 0, 0]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "score": [2.0, 2.0, 2.0]})
    # order: c, b, a -> relevant at rank 3
    assert evaluate(qrels, run, ["RR"])["value"].iloc[0] == pytest.approx(1 / 3)


def test_rank_order_versus_score_order():
    """NTCIREVAL reads lists in file (rank) order; trec_eval re-sorts by score: both offered."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "rank": [1, 2], "score": [0.1, 0.9]})
    assert evaluate(qrels, run, ["RR"])["value"].iloc[0] == 1.0
    assert evaluate(qrels, run, ["RR"], order_by="score")["value"].iloc[0] == 0.5


def test_rank_ties_fall_back_to_score_then_doc_id():
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "relevance": [1, 0, 0]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "rank": [0, 0, 0],
                        "score": [1.0, 3.0, 2.0]})
    assert evaluate(qrels, run, ["RR"])["value"].iloc[0] == pytest.approx(1 / 3)


def test_unsorted_interleaved_run_is_ordered():
    run = RUN_A.sample(frac=1.0, random_state=3)
    a = evaluate(QRELS_A, RUN_A, list(EXPECTED_A), gains="1:2:3")
    b = evaluate(QRELS_A, run, list(EXPECTED_A), gains="1:2:3")
    pd.testing.assert_frame_equal(a, b)


def test_duplicate_document_is_an_error_naming_run_topic_doc():
    run = pd.DataFrame({"run_id": "myrun", "query_id": "T", "doc_id": ["a", "b", "a"],
                        "rank": [1, 2, 3]})
    with pytest.raises(ValueError, match=r"run 'myrun'.*document 'a'.*topic 'T'"):
        evaluate(QRELS_A, run, ["AP"])


def test_duplicate_keep_first():
    run = pd.DataFrame({"query_id": "T", "doc_id": ["c", "a", "c"], "rank": [1, 2, 3]})
    res = evaluate(QRELS_A, run, ["AP", "P@3"], gains="1:2:3", duplicates="keep_first")
    v = dict(zip(res["measure"], res["value"]))
    assert v["AP"] == pytest.approx((1 + 1) / 4)   # c, a: both relevant at ranks 1, 2
    assert v["P@3"] == pytest.approx(2 / 3)


def test_negative_levels_are_judged_nonrelevant():
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "relevance": [-2, 1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "rank": [1, 2]})
    res = evaluate(qrels, run, ["AP", "P@2"], condensed=True)
    assert res["value"].tolist() == pytest.approx([0.5, 0.5])  # a stays (judged), non-relevant


def test_gmax_compute_versus_gcompute():
    """compute uses the top of the -g scale, gcompute the topic's highest gain: both offered."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "rank": [1]})
    scale = evaluate(qrels, run, ["ERR@1", "RBP(p=0.5)"], gains="1:2:3")["value"].tolist()
    topic = evaluate(qrels, run, ["ERR@1", "RBP(p=0.5)"], gains="1:2:3", gmax="topic")
    fixed = evaluate(qrels, run, ["ERR@1"], gains="1:2:3", gmax=9.0)["value"].tolist()
    assert scale == pytest.approx([1 / 4, 0.5 * 1 / 3])
    assert topic["value"].tolist() == pytest.approx([1 / 2, 0.5])
    assert fixed == pytest.approx([1 / 10])


def test_integer_ids_are_compared_as_strings():
    qrels = pd.DataFrame({"query_id": [1], "doc_id": [7], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["7"], "rank": [1]})
    res = evaluate(qrels, run, ["AP"])
    assert res["query_id"].tolist() == ["1"] and res["value"].tolist() == [1.0]


def test_many_runs_and_to_matrix():
    run = pd.concat([RUN_A.assign(run_id="r2"), RUN_A.iloc[[1]].assign(run_id="r1")])
    qrels = pd.concat([QRELS_A, pd.DataFrame({"query_id": ["U"], "doc_id": ["a"],
                                              "relevance": [1]})])
    res = evaluate(qrels, run, ["AP", "Q"], gains="1:2:3")
    assert res["run_id"].unique().tolist() == ["r2", "r1"]  # order of first appearance
    mat = to_matrix(res, "AP")
    assert mat.index.tolist() == ["T", "U"] and mat.columns.tolist() == ["r2", "r1"]
    assert mat.loc["T", "r2"] == pytest.approx(EXPECTED_A["AP"])
    assert mat.loc["T", "r1"] == pytest.approx((1 / 1) / 4)
    assert mat.loc["U", "r1"] == 0.0                       # missing topic scores 0
    skip = to_matrix(evaluate(qrels, run, ["AP"], gains="1:2:3", missing="skip"), "AP")
    assert skip.index.tolist() == ["T"]                    # no run answered U
    part = pd.concat([run, pd.DataFrame({"run_id": ["r2"], "query_id": ["U"], "doc_id": ["a"],
                                         "rank": [1]})])
    skip = to_matrix(evaluate(qrels, part, ["AP"], gains="1:2:3", missing="skip"), "AP")
    assert skip.loc["U", "r2"] == 1.0 and np.isnan(skip.loc["U", "r1"])


def test_to_matrix_errors():
    res = evaluate(QRELS_A, RUN_A, ["AP"])
    with pytest.raises(ValueError, match="not in the results; available: AP"):
        to_matrix(res, "Q")
    with pytest.raises(ValueError, match="twice"):
        to_matrix(pd.concat([res, res]), "AP")
    with pytest.raises(ValueError, match="lacks column"):
        to_matrix(res.drop(columns="value"), "AP")


# ---------------------------------------------------------------------------------------------
# Differences between tools, pinned
# ---------------------------------------------------------------------------------------------

def test_pin_ap_at_l_divisor():
    """NTCIREVAL's AP@l divides by min(l, R) so that a perfect top l scores 1; trec_eval's
    map_cut divides by R."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": list("abc"), "relevance": [1, 1, 1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "rank": [1]})
    v = evaluate(qrels, run, ["AP@1", "AP(norm=R)@1", "Q@1", "Q(norm=R)@1"])["value"].tolist()
    assert v == pytest.approx([1.0, 1 / 3, 1.0, 1 / 3])


def test_pin_err_stop_probability():
    """NTCIREVAL stops with probability g/(gmax+1), not Chapelle's (2^g-1)/2^gmax, so even binary
    ERR is not RR (ntcir_eval.c comment): a relevant doc at rank 1 gives 1/2, not 1."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "rank": [1, 2]})
    v = evaluate(qrels, run, ["ERR@10", "RR", "nERR@10"])["value"].tolist()
    assert v == pytest.approx([0.5, 1.0, 1.0])


def test_pin_ndcg_discounts():
    """Original nDCG (b=2) does not discount rank 2, so swapping ranks 1 and 2 changes nothing;
    MSnDCG (trec_eval's ndcg_cut) discounts every rank."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "relevance": [2, 1]})
    ideal = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "rank": [1, 2]})
    swapped = pd.DataFrame({"query_id": "1", "doc_id": ["b", "a"], "rank": [1, 2]})
    a = evaluate(qrels, ideal, ["nDCG@2", "MSnDCG@2"])["value"].tolist()
    b = evaluate(qrels, swapped, ["nDCG@2", "MSnDCG@2"])["value"].tolist()
    assert a == pytest.approx([1.0, 1.0])
    assert b[0] == pytest.approx(1.0)
    assert b[1] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_pin_natural_log_base_is_spelled_e():
    """NTCIREVAL's '-logb 0' means ln in C but base e with r < e undiscounted in pyNTCIREVAL, so
    b=0 is refused and b=e follows orig_dcglog (no discount for r <= e)."""
    with pytest.raises(ValueError, match="b=e"):
        MeasureSpec.parse("nDCG(b=0)@10")
    qrels = pd.DataFrame({"query_id": "1", "doc_id": list("abc"), "relevance": [1, 1, 1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["x", "y", "a"], "rank": [1, 2, 3]})
    v = evaluate(qrels, run, ["nDCG(b=e)@3"])["value"].iloc[0]
    assert v == pytest.approx((1 / math.log(3)) / (1 + 1 + 1 / math.log(3)))


def test_pin_duplicates_differ_from_ntcireval():
    """NTCIREVAL labels every copy of a duplicated document, so AP can exceed what any valid
    ranking achieves; we refuse duplicates unless told to keep the first copy."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "relevance": [1, 1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "a"], "rank": [1, 2]})
    with pytest.raises(ValueError, match="more than once"):
        evaluate(qrels, run, ["AP"])
    assert evaluate(qrels, run, ["AP"], duplicates="keep_first")["value"].iloc[0] == 0.5


# ---------------------------------------------------------------------------------------------
# evaluate_arrays
# ---------------------------------------------------------------------------------------------

def test_evaluate_arrays_example_a_and_nan_padding():
    ranked = np.array([[0, 3, 0, 1, 2, np.nan], [np.nan] * 6])
    ideal = np.array([[1, 2, 3, 2, 0], [1, 2, 3, 2, 0]])          # unsorted on purpose
    out = evaluate_arrays(ranked, ideal, ["AP", "Q", "P@10", "nERR@5"], gmax=3.0)
    assert list(out) == ["AP", "Q", "P@10", "nERR@5"]
    assert out["AP"] == pytest.approx([EXPECTED_A["AP"], 0.0])
    assert out["Q"] == pytest.approx([EXPECTED_A["Q"], 0.0])
    assert out["P@10"] == pytest.approx([0.3, 0.0])
    assert out["nERR@5"] == pytest.approx([EXPECTED_A["nERR@5"], 0.0])


def test_evaluate_arrays_condensed_via_judged_mask():
    ranked = np.array([[2.25, 0.0, 0.5, 0.0]])
    judged = np.array([[True, False, True, True]])
    out = evaluate_arrays(ranked, [[2.25, 0.5]], ["AP", "Q"], ranked_judged=judged)
    assert out["AP"] == pytest.approx([1.0]) and out["Q"] == pytest.approx([1.0])


def test_evaluate_arrays_rows_without_relevant_are_nan():
    out = evaluate_arrays([[1.0, 0.0]], [[0.0, 0.0]], ["AP", "RBP"])
    assert np.isnan(out["AP"][0]) and np.isnan(out["RBP"][0])


def test_evaluate_arrays_default_gmax_is_ideal_top():
    out = evaluate_arrays([[1.0]], [[3.0, 1.0]], ["ERR@1"])
    assert out["ERR@1"] == pytest.approx([1 / 4])
    out = evaluate_arrays([[1.0], [1.0]], [[3.0, 1.0], [1.0, 0.0]], ["ERR@1"], gmax=[1.0, 1.0])
    assert out["ERR@1"] == pytest.approx([0.5, 0.5])


@pytest.mark.parametrize("kwargs,message", [
    (dict(ranked_gains=np.zeros((2, 2, 2)), ideal_gains=[[1.0]]), "2-D"),
    (dict(ranked_gains=[[1.0]], ideal_gains=[[1.0], [1.0]]), "1 lists but ideal_gains has 2"),
    (dict(ranked_gains=[[-1.0]], ideal_gains=[[1.0]]), "negative"),
    (dict(ranked_gains=[[np.inf]], ideal_gains=[[1.0]]), "infinite"),
    (dict(ranked_gains=[[1.0]], ideal_gains=[[-1.0]]), "ideal_gains.*negative"),
    (dict(ranked_gains=[[np.nan, 1.0]], ideal_gains=[[1.0]]), "NaN may only pad the end"),
    (dict(ranked_gains=[[1.0]], ideal_gains=[[1.0]], gmax=0.0), "gmax must be > 0"),
    (dict(ranked_gains=[[1.0]], ideal_gains=[[1.0]], gmax=np.nan), "gmax must be finite"),
    (dict(ranked_gains=[[5.0]], ideal_gains=[[1.0]], measures=["ERR@1"]), "exceeds gmax"),
    (dict(ranked_gains=[[1.0]], ideal_gains=[[1.0]], ranked_judged=[[True, True]]), "shape"),
    (dict(ranked_gains=[[1.0]], ideal_gains=[[1.0]], ranked_judged=[[1]]), "boolean"),
])
def test_evaluate_arrays_bad_input(kwargs, message):
    kwargs.setdefault("measures", ["AP"])
    with pytest.raises(ValueError, match=message):
        evaluate_arrays(**kwargs)


# ---------------------------------------------------------------------------------------------
# Measure names
# ---------------------------------------------------------------------------------------------

def test_measure_spec_parse_and_label():
    s = MeasureSpec.parse("iRBU(p=0.85, e=0.01)@10")
    assert (s.name, s.cutoff, s["p"], s["e"]) == ("iRBU", 10, 0.85, 0.01)
    assert str(s) == "iRBU(e=0.01,p=0.85)@10"
    assert str(MeasureSpec.parse("Q")) == "Q" and MeasureSpec.parse("Q")["beta"] == 1.0
    assert str(MeasureSpec.parse("nDCG(b=10)@10")) == "nDCG(b=10)@10"
    assert MeasureSpec.parse("RBP(p=0.8)").resolved == {"p": 0.8}
    assert MeasureSpec.parse(MeasureSpec.parse("P+@5")) == MeasureSpec.parse("P+@5")
    with pytest.raises(KeyError):
        MeasureSpec.parse("AP")["beta"]


def test_parse_measures_splits_outside_parentheses_and_dedupes():
    specs = M.parse_measures("AP, Q(beta=0.5)  iRBU(p=0.9,e=0.1)@5 AP")
    assert [str(s) for s in specs] == ["AP", "Q(beta=0.5)", "iRBU(e=0.1,p=0.9)@5"]


def test_custom_registry_for_other_modules():
    reg = {"D#-nDCG": M.MeasureDef("D#-nDCG", {"gamma": 0.5}, "required", "diversity")}
    s = MeasureSpec.parse("D#-nDCG(gamma=0.3)@10", reg)
    assert s["gamma"] == 0.3
    with pytest.raises(ValueError, match="unknown measure 'AP'; supported: D#-nDCG"):
        MeasureSpec.parse("AP", reg)


@pytest.mark.parametrize("name,message", [
    ("ndcg@10", r"unknown measure 'ndcg'; supported: AP\(norm=min\)\[@l\], Q\(beta=1,norm=min\)"),
    ("Q(gamma=1)", "Q has no parameter 'gamma'"),
    ("Q(beta=1,beta=2)", "given twice"),
    ("Q(beta)", "name=value"),
    ("Q(beta=-1)", "beta must be"),
    ("Q(beta=inf)", "finite"),
    ("AP(norm=max)@10", "norm must be"),
    ("P@0", "positive integer"),
    ("P@x", "positive integer"),
    ("P", "needs a cutoff"),
    ("Hit", "needs a cutoff"),
    ("nG@5", "only defined at cutoff 1"),
    ("RBP(p=1)", r"p must be in \(0, 1\)"),
    ("iRBU(p=0)@10", r"p must be in \(0, 1\]"),
    ("iRBU(e=0.01)", "needs a cutoff"),
    ("iRBU(e=-1)@3", "effort e"),
    ("nDCG(b=1)@10", "b must be"),
    ("Q((x", "cannot parse"),
    ("", "cannot parse"),
])
def test_bad_measure_names(name, message):
    with pytest.raises(ValueError, match=message):
        MeasureSpec.parse(name)


def test_bad_measure_type_and_empty_list():
    with pytest.raises(ValueError, match="must be a string"):
        MeasureSpec.parse(3)
    with pytest.raises(ValueError, match="no measure given"):
        M.parse_measures([])
    with pytest.raises(ValueError, match="cutoff policy"):
        M.MeasureDef("X", {}, "sometimes")


# ---------------------------------------------------------------------------------------------
# Bad tables and options
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("gains,message", [
    ("1:x:3", "numbers separated by ':'"),
    ("3:2", "must not decrease"),
    ("0:1", "gain for L1 must be > 0"),
    ({0: 1, 1: 2}, "L0 .* must have gain 0"),
    ({-1: 0, 1: 1}, "levels must be >= 0"),
    ({1.5: 1}, "integer levels"),
    ({1: float("nan")}, "finite"),
    (3, "must be a '1:2:3' string"),
])
def test_bad_gain_specs(gains, message):
    with pytest.raises(ValueError, match=message):
        M.parse_gain_spec(gains)


def test_gain_spec_string():
    assert M.parse_gain_spec("1:2.5:4") == {0: 0.0, 1: 1.0, 2: 2.5, 3: 4.0}


def _qr(**cols):
    base = {"query_id": ["1"], "doc_id": ["a"]}
    base.update(cols)
    return pd.DataFrame(base)


RUN1 = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "rank": [1]})


@pytest.mark.parametrize("qrels,run,kwargs,message", [
    ("not a frame", RUN1, {}, "qrels must be a pandas DataFrame"),
    (pd.DataFrame({"query_id": ["1"], "relevance": [1]}), RUN1, {}, r"qrels lacks column\(s\) \['doc_id'\]"),
    (_qr(), RUN1, {}, "exactly one of the columns 'relevance'"),
    (_qr(relevance=[1], gain=[1.0]), RUN1, {}, "exactly one of the columns"),
    (_qr(relevance=[1.5]), RUN1, {}, "integer levels; row 0"),
    (_qr(relevance=[4]), RUN1, {"gains": "1:2"}, "row 0: qrels relevance level L4 \\(topic .*\\) is one the gain mapping does not cover"),
    (_qr(gain=[-1.0]), RUN1, {}, "finite and >= 0; row 0"),
    (_qr(gain=[np.inf]), RUN1, {}, "finite and >= 0"),
    (_qr(gain=[1.0]), RUN1, {"gains": "1:2"}, "leave gains out"),
    (pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "a"], "relevance": [1, 0]}), RUN1, {},
     "judge document 'a' twice for topic '1'"),
    (pd.DataFrame({"query_id": [None], "doc_id": ["a"], "relevance": [1]}), RUN1, {},
     "qrels 'query_id' has a missing value at row 0"),
    (pd.DataFrame({"query_id": [], "doc_id": [], "relevance": []}), RUN1, {}, "qrels is empty"),
    (_qr(relevance=[1]), pd.DataFrame({"query_id": ["1"], "doc_id": ["a"]}), {},
     "run needs a 'rank' or a 'score' column"),
    (_qr(relevance=[1]), pd.DataFrame({"query_id": ["1"], "rank": [1]}), {},
     r"run lacks column\(s\) \['doc_id'\]"),
    (_qr(relevance=[1]), pd.DataFrame({"query_id": ["1"], "doc_id": [None], "rank": [1]}), {},
     "run 'doc_id' has a missing value"),
    (_qr(relevance=[1]), pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "rank": ["x"]}), {},
     "run 'rank' must be numeric; row 0"),
    (_qr(relevance=[1]), pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [np.nan]}), {},
     "run 'score' must be numeric; row 0"),
    (_qr(relevance=[1]), RUN1, {"order_by": "score"}, "order_by='score' needs a 'score' column"),
    (_qr(relevance=[1]), RUN1, {"order_by": "file"}, "order_by must be one of"),
    (_qr(relevance=[1]), RUN1, {"duplicates": "drop"}, "duplicates must be one of"),
    (_qr(relevance=[1]), RUN1, {"no_relevant": "ignore"}, "no_relevant must be one of"),
    (_qr(relevance=[1]), RUN1, {"missing": "nan"}, "missing must be one of"),
    (_qr(relevance=[1]), RUN1, {"depth": 0}, "depth must be a positive integer"),
    (_qr(relevance=[1]), RUN1, {"condensed": "yes"}, "condensed must be True or False"),
    (_qr(relevance=[1]), RUN1, {"gmax": "max"}, "gmax must be a positive number, 'topic'"),
    (_qr(relevance=[1]), RUN1, {"gmax": -1.0}, "gmax must be a positive number"),
])
def test_evaluate_bad_input(qrels, run, kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate(qrels, run, ["AP"], **kwargs)


# ---------------------------------------------------------------------------------------------
# Large inputs: the fast paths (blockwise id factorisation, already-ordered runs) and the
# general ones must agree
# ---------------------------------------------------------------------------------------------

def _big(seed=0, n_topics=30, depth=60):
    rng = np.random.default_rng(seed)
    qrels = pd.DataFrame({
        "query_id": np.repeat([str(t) for t in range(n_topics)], 40),
        "doc_id": [f"d{i}" for t in range(n_topics) for i in rng.choice(200, 40, replace=False)],
        "relevance": rng.integers(0, 4, n_topics * 40),
    })
    rows = []
    for r in ("A", "B"):
        for t in sorted(str(t) for t in range(n_topics)):  # lexicographic file order: 0, 1, 10, ...
            docs = rng.choice(200, depth, replace=False)
            sc = np.sort(rng.integers(0, 15, depth).astype(float))[::-1]  # many score ties
            rows += [(r, t, f"d{d}", i + 1, s) for i, (d, s) in enumerate(zip(docs, sc))]
    run = pd.DataFrame(rows, columns=["run_id", "query_id", "doc_id", "rank", "score"])
    return qrels, run


BIG_MEASURES = ["AP", "Q", "P+", "RR", "nDCG@10", "nERR@20", "RBP", "P@5"]


@pytest.mark.parametrize("order_by", ["rank", "score"])
def test_large_shuffled_run_equals_ordered_run(order_by):
    qrels, run = _big()
    assert len(run) > 1024  # exercises the blockwise factorisation
    a = evaluate(qrels, run, BIG_MEASURES, order_by=order_by)
    b = evaluate(qrels, run.sample(frac=1.0, random_state=1), BIG_MEASURES, order_by=order_by)
    pd.testing.assert_frame_equal(a, b)
    assert a["query_id"].iloc[: len(BIG_MEASURES) * 3].tolist()[:: len(BIG_MEASURES)] == \
        ["0", "1", "2"]  # natural topic order in the output


def test_score_order_with_ties_matches_a_plain_sort():
    qrels, run = _big(seed=4)
    res = evaluate(qrels, run, ["RR", "P@5"], order_by="score")
    expect = run.sort_values(["run_id", "query_id", "score", "doc_id"],
                             ascending=[True, True, False, False])
    rel = {(q, d) for q, d, l in qrels.itertuples(index=False) if l > 0}
    got = {(r.run_id, r.query_id, r.measure): r.value for r in res.itertuples()}
    for (rid, q), g in expect.groupby(["run_id", "query_id"]):
        flags = [(q, d) in rel for d in g["doc_id"]]
        first = flags.index(True) + 1 if any(flags) else None
        assert got[(rid, q, "RR")] == pytest.approx(1 / first if first else 0.0)
        assert got[(rid, q, "P@5")] == pytest.approx(sum(flags[:5]) / 5)


def test_order_rows_falls_back_to_lexsort_for_wide_keys():
    list_id = np.array([1, 0, 1, 0])
    keys = [(np.array([2 ** 61, 0, -(2 ** 61), 5], dtype=np.int64), True)]
    assert lists.order_rows(list_id, keys).tolist() == [1, 3, 2, 0]
    keys = [(np.array([2 ** 61, 0, -(2 ** 61), 5], dtype=np.int64), False)]
    assert lists.order_rows(list_id, keys).tolist() == [3, 1, 0, 2]
    assert lists.order_rows(np.array([1, 1, 0]), [(np.array([0, 1, 0]), True)]) is None
    assert lists.order_rows(np.array([1, 1, 0]), [(np.array([1, 0, 0]), False)]) is None
    assert lists.order_rows(np.array([1, 0, 1]), [(np.array([0, 0, 1]), True)]) is not None


@pytest.mark.parametrize("bad", [np.nan, None, pd.NA])
def test_missing_ids_in_large_columns(bad):
    qrels, run = _big()
    run = run.astype({"query_id": object})
    run.loc[1500, "query_id"] = bad
    with pytest.raises(ValueError, match="run 'query_id' has a missing value at row 1500"):
        evaluate(qrels, run, ["AP"])


def test_mixed_int_and_str_ids_are_one_id():
    codes, uniq = factorize_ids(pd.Series([1, "1", 2, "2"] * 600, dtype=object), "x")
    assert uniq.tolist() == ["1", "2"] and codes[:4].tolist() == [0, 0, 1, 1]
    codes, uniq = factorize_ids(pd.Series(["b", "a", "c"]), "x", sort=True)
    assert uniq.tolist() == ["a", "b", "c"] and codes.tolist() == [1, 0, 2]


def test_pin_p_plus_preferred_rank_with_tied_gains():
    """NTCIREVAL compute picks P+'s preferred rank by relevance level, gcompute by gain; they
    differ only when two levels share a gain (here -g 1:2:2), and evaluate follows compute."""
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "relevance": [2, 3, 1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["c", "a", "b"], "rank": [1, 2, 3]})
    br1, br2, br3 = (1 + 1) / (1 + 2), (2 + 3) / (2 + 4), (3 + 5) / (3 + 5)
    by_level, by_gain = (br1 + br2 + br3) / 3, (br1 + br2) / 2
    assert evaluate(qrels, run, ["P+"], gains="1:2:2")["value"].iloc[0] == pytest.approx(by_level)
    ranked, ideal = [[1.0, 2.0, 2.0]], [[2.0, 2.0, 1.0]]
    assert evaluate_arrays(ranked, ideal, ["P+"])["P+"] == pytest.approx([by_gain])
    out = evaluate_arrays(ranked, ideal, ["P+", "P+@2"], preference=[[1, 2, 3]])
    assert out["P+"] == pytest.approx([by_level]) and out["P+@2"] == pytest.approx([by_gain])
    with pytest.raises(ValueError, match="preference has shape"):
        evaluate_arrays(ranked, ideal, ["P+"], preference=[[1, 2]])


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

NORMALISED = ["AP", "Q", "Q(beta=3)", "P+", "RR", "nERR@5", "MSnDCG@5", "nDCG@5", "nCG@5",
              "nG@1", "AP@5", "Q@5", "P@5", "Hit@5", "RBP", "ERR@5", "EBR", "iRBU@5"]


@settings(max_examples=60, deadline=None)
@given(gains=st.lists(st.sampled_from([0.0, 0.25, 1.0, 2.0, 3.5]), min_size=1, max_size=25),
       perm_seed=st.integers(0, 10_000), cut=st.integers(0, 25))
def test_ideal_ranking_scores_one_and_every_score_is_in_unit_interval(gains, perm_seed, cut):
    if max(gains) == 0:
        gains = gains + [1.0]
    qrels = pd.DataFrame({"query_id": "t", "doc_id": [f"d{i}" for i in range(len(gains))],
                          "gain": gains})
    ideal = qrels.sort_values("gain", ascending=False, kind="stable")
    run = pd.DataFrame({"query_id": "t", "doc_id": ideal["doc_id"], "rank": range(1, len(gains) + 1)})
    v = dict(zip(*evaluate(qrels, run, NORMALISED)[["measure", "value"]].to_numpy().T))
    for name in ["AP", "Q", "Q(beta=3)", "P+", "RR", "nERR@5", "MSnDCG@5", "nDCG@5", "nCG@5",
                 "nG@1", "AP@5", "Q@5", "Hit@5"]:
        assert v[name] == pytest.approx(1.0), name
    # any other ranking, truncated at a random depth: every measure stays within [0, 1]
    rng = np.random.default_rng(perm_seed)
    shuffled = run.iloc[rng.permutation(len(run))[:cut]].assign(rank=lambda d: range(1, len(d) + 1))
    if cut == 0:            # a run frame without rows is refused (docs/bad-input.md), not an empty table
        with pytest.raises(ValueError, match="run has no rows"):
            evaluate(qrels, shuffled, NORMALISED)
        return
    res = evaluate(qrels, shuffled, NORMALISED)
    assert ((res["value"] >= -1e-12) & (res["value"] <= 1 + 1e-12)).all()


# --- graded or gain-blind: every family of the registry, checked on gains with the same support ---------------

def _same_support_case():
    """Six topics, four runs of eight documents, and two gain vectors positive on the same judged items
    (the second neither proportional to the first nor in its order), as levels and as real gains."""
    rng = np.random.default_rng(1)
    topics, docs = [str(t) for t in range(6)], [f"d{i}" for i in range(12)]
    q = pd.DataFrame([(t, d) for t in topics for d in docs[:9]], columns=["query_id", "doc_id"])
    support = rng.random(len(q)) < 0.45
    lv1 = np.where(support, rng.integers(1, 4, len(q)), 0)
    lv2 = np.where(support, rng.integers(1, 4, len(q)), 0)
    g2 = np.where(support, lv1 * 3.0 + rng.integers(0, 5, len(q)), 0.0)
    run = pd.DataFrame([(f"r{r}", t, d, k + 1, 10.0 - k) for r in range(4) for t in topics
                        for k, d in enumerate(rng.permutation(docs)[:8])],
                       columns=["run_id", "query_id", "doc_id", "rank", "score"])
    return q, run, lv1, lv2, g2


_LABEL = {"IPrec": "IPrec(recall=0.5)", "NCU": "NCU(stop=gu,util=P)"}


@pytest.mark.parametrize("name", sorted(M.MEASURES))
def test_is_graded_matches_what_the_measure_does_with_gains_of_one_support(name):
    """``is_graded`` is False exactly for the families whose scores do not move when the positive gains
    change size but not place (so RawG and UG cannot differ on them: notebook 02)."""
    import warnings

    from helpers.measures.treceval.defs import TREC_FAMILIES

    q, run, lv1, lv2, g2 = _same_support_case()
    d = M.MEASURES[name]
    label = _LABEL.get(name, name + ("@5" if d.cutoff == "required" else "@1" if d.cutoff == "one" else ""))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name in {f.name for f in TREC_FAMILIES}:
            a = evaluate(q.assign(relevance=lv1), run, [label])["value"].to_numpy()   # trec_eval's read levels
            b = evaluate(q.assign(relevance=lv2), run, [label])["value"].to_numpy()
        else:
            al = M.Alignment(q.assign(gain=lv1.astype(float)), run)
            a = al.evaluate([label], gain=lv1.astype(float))["value"].to_numpy()
            b = al.evaluate([label], gain=g2)["value"].to_numpy()
    assert M.is_graded(label) == (not np.allclose(a, b, equal_nan=True)), label


def test_is_graded_depends_on_parameters_where_the_measure_does():
    assert not M.is_graded("NCU(stop=rb,util=P)") and M.is_graded("NCU(stop=rb,util=BR)")
    assert not M.is_graded("AP") and not M.is_graded("AP(rel=2)@10") and not M.is_graded("P@5")
    assert M.is_graded("nERR@10") and M.is_graded("RMSnDCG") and M.is_graded("MSnDCG@10")
    assert not M.is_graded(MeasureSpec.parse("bpref"))
