"""Tests of helpers.prm against Demeester et al. (2016), Table 1, and hand-computed values."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from helpers import prm

# Table 1 of Demeester et al. (2016), transcribed column by column (d1..d20).
TABLE1_U1 = [2, 2, 1, 0, 1, 1, 0, 1, 2, 1, 1, 1, 2, 0, 1, 0, 1, 1, 0, 0]
TABLE1_U2 = [1, 2, 1, 1, 2, 0, 0, 1, 2, 2, 0, 2, 1, 0, 1, 2, 0, 1, 0, 0]


@pytest.fixture
def table1() -> pd.DataFrame:
    return pd.DataFrame({"query_id": "q1", "doc_id": [f"d{i}" for i in range(1, 21)],
                         "u1": TABLE1_U1, "u2": TABLE1_U2})


def _fractions(df: pd.DataFrame) -> dict[int, tuple[int, int]]:
    return {int(r.level): (int(r.numerator), int(r.denominator)) for r in df.itertuples()}


# --------------------------------------------------------------------------- Table 1 exactly
def test_table1_eq4_fractions(table1):
    out = prm.estimate(table1, threshold=2, method="eq4")
    # paper: P(U2=2|U1=2) = 2/4, P(U2=2|U1=1) = 3/10, P(U2=2|U1=0) = 1/6
    assert _fractions(out) == {2: (2, 4), 1: (3, 10), 0: (1, 6)}
    assert out["p"].tolist() == pytest.approx([1 / 6, 3 / 10, 2 / 4])


def test_table1_eq5_fractions(table1):
    out = prm.estimate(table1, threshold=2, method="eq5")
    # paper: P(2|2) = 4/10, P(2|1) = 5/17, P(2|0) = 1/13
    assert _fractions(out) == {2: (4, 10), 1: (5, 17), 0: (1, 13)}
    assert out["p"].tolist() == pytest.approx([1 / 13, 5 / 17, 4 / 10])


def test_table1_sigma_by_hand(table1):
    out = prm.estimate(table1, threshold=2, method="eq4").set_index("level")
    # sigma = sqrt(p(1-p)/N_D): level 2: sqrt(0.5*0.5/4) = 0.25; level 1: sqrt(0.3*0.7/10)
    assert out.loc[2, "sigma"] == pytest.approx(0.25)
    assert out.loc[1, "sigma"] == pytest.approx(math.sqrt(0.021))
    assert out.loc[0, "sigma"] == pytest.approx(math.sqrt((1 / 6) * (5 / 6) / 6))


def test_table1_lenient_threshold_by_hand(table1):
    # theta = 1, Eq. 4: U1=2 -> U2 in {1,2,2,1}: 4/4; U1=1 -> U2 = 1,2,0,1,2,0,2,1,0,1: 7/10;
    # U1=0 -> U2 = 1,0,0,2,0,0: 2/6
    out = prm.estimate(table1, threshold=1, method="eq4")
    assert _fractions(out) == {2: (4, 4), 1: (7, 10), 0: (2, 6)}
    assert out.set_index("level").loc[2, "sigma"] == 0.0


def test_swapping_assessors_leaves_eq5_unchanged(table1):
    swapped = table1.rename(columns={"u1": "u2", "u2": "u1"})
    a = prm.estimate(table1, 2, "eq5")
    b = prm.estimate(swapped, 2, "eq5")
    pd.testing.assert_frame_equal(a, b)
    # ...whereas Eq. 4 changes: with U2 as the condition, level 2 has N_D = 6 (not 4)
    assert prm.estimate(swapped, 2, "eq4").set_index("level").loc[2, "denominator"] == 6


def test_explicit_T_adds_empty_levels_as_nan(table1):
    out = prm.estimate(table1, threshold=2, method="eq5", T=3)
    assert out["level"].tolist() == [0, 1, 2, 3]
    row = out.set_index("level").loc[3]
    assert row["denominator"] == 0 and row["numerator"] == 0
    assert np.isnan(row["p"]) and np.isnan(row["sigma"])
    assert out.attrs == {"threshold": 2, "method": "eq5", "T": 3}


def test_level_without_judgments_in_middle_is_nan():
    pairs = pd.DataFrame({"u1": [0, 2, 2], "u2": [0, 2, 0]})
    out = prm.estimate(pairs, threshold=2, method="eq4").set_index("level")
    assert out.loc[1, "denominator"] == 0 and np.isnan(out.loc[1, "p"])
    assert out.loc[2, "p"] == 0.5


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("threshold", [0, 3, -1])
def test_threshold_outside_range(table1, threshold):
    with pytest.raises(ValueError, match=r"outside 1\.\.2"):
        prm.estimate(table1, threshold=threshold)


def test_threshold_not_integer(table1):
    with pytest.raises(ValueError, match="threshold must be an integer"):
        prm.estimate(table1, threshold=1.5)


def test_level_above_T(table1):
    with pytest.raises(ValueError, match=r"level 2 in column 'u1' \(row position 0\) is outside 0\.\.1"):
        prm.estimate(table1, threshold=1, T=1)


def test_negative_level(table1):
    bad = table1.copy()
    bad.loc[3, "u2"] = -1
    with pytest.raises(ValueError, match=r"level -1 in column 'u2' \(row position 3\)"):
        prm.estimate(bad, threshold=2)


def test_unpaired_row(table1):
    bad = table1.astype({"u2": "float64"})
    bad.loc[5, "u2"] = np.nan
    with pytest.raises(ValueError, match=r"unpaired double judgments: column 'u2'.*positions \[5\]"):
        prm.estimate(bad, threshold=2)


def test_missing_column(table1):
    with pytest.raises(ValueError, match=r"missing column\(s\) \['u2'\]"):
        prm.estimate(table1.drop(columns="u2"), threshold=2)


def test_fractional_level(table1):
    bad = table1.astype({"u1": "float64"})
    bad.loc[0, "u1"] = 1.5
    with pytest.raises(ValueError, match="integer levels; row position 0 has 1.5"):
        prm.estimate(bad, threshold=2)


def test_unknown_method(table1):
    with pytest.raises(ValueError, match="method must be one of"):
        prm.estimate(table1, threshold=2, method="eq6")


def test_not_a_dataframe():
    with pytest.raises(ValueError, match="pandas DataFrame"):
        prm.estimate([(1, 2)], threshold=1)


def test_empty_without_T():
    with pytest.raises(ValueError, match="cannot infer the top level"):
        prm.estimate(pd.DataFrame({"u1": [], "u2": []}), threshold=1)


def test_bad_T(table1):
    with pytest.raises(ValueError, match="T \\(the top level\\) must be an integer >= 1"):
        prm.estimate(table1, threshold=1, T=0)


# --------------------------------------------------------------------------- Eq. 1 / Eq. 2
def test_expected_relevant_eq2_by_hand(table1):
    p = prm.estimate(table1, 2, "eq5")
    # one level-2, two level-1, one level-0 and one unjudged result
    got = prm.expected_relevant([2, 1, 1, 0, -1], p)
    assert got == pytest.approx(float(Fraction(4, 10) + 2 * Fraction(5, 17) + Fraction(1, 13)))


def test_expected_relevant_axis():
    p = [0.0, 0.5, 1.0]
    levels = np.array([[2, 2, 0], [1, 1, -1]])
    assert prm.expected_relevant(levels, p).tolist() == [2.0, 1.0]
    assert prm.expected_relevant(levels, p, axis=0).tolist() == [1.5, 1.5, 0.0]


def test_binary_relevant_eq1():
    assert prm.binary_relevant([2, 1, 1, 0, -1, 2], threshold=2, T=2) == 2.0
    assert prm.binary_relevant([2, 1, 1, 0, -1, 2], threshold=1, T=2) == 4.0


def test_expected_relevant_rejects_bad_levels():
    with pytest.raises(ValueError, match=r"level 3, outside 0\.\.2"):
        prm.expected_relevant([0, 3], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="contains NaN"):
        prm.expected_relevant([0.0, np.nan], [0.1, 0.2, 0.3])


def test_nan_p_rejected_as_gain(table1):
    p = prm.estimate(table1, 2, "eq5", T=3)
    with pytest.raises(ValueError, match=r"NaN for level\(s\) \[3\]"):
        prm.prm_gains(p)


def test_p_out_of_range_rejected():
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        prm.prm_gains([0.1, 1.2])


# --------------------------------------------------------------------------- gains / UDM
def test_prm_gains_from_estimate(table1):
    g = prm.prm_gains(prm.estimate(table1, 2, "eq4"))
    assert g == pytest.approx({0: 1 / 6, 1: 0.3, 2: 0.5})


def test_binary_gains():
    assert prm.binary_gains(2, 3) == {0: 0.0, 1: 0.0, 2: 1.0, 3: 1.0}
    with pytest.raises(ValueError, match="outside 1..3"):
        prm.binary_gains(4, 3)


def test_udm_weights_top_is_one_and_lowest_zero():
    # paper Sect. 3.4.3: top two levels nearly indistinguishable, p_T|T ~ p_T|T-1 ~ 0.5
    p = {0: 0.02, 1: 0.10, 2: 0.48, 3: 0.50}
    assert prm.udm_weights(p) == {0: 0.0, 1: 0.10, 2: 0.48, 3: 1.0}
    assert prm.prm_gains(p) == {0: 0.02, 1: 0.10, 2: 0.48, 3: 0.50}


def test_udm_weights_reject_lenient_estimate(table1):
    with pytest.raises(ValueError, match="top relevance"):
        prm.udm_weights(prm.estimate(table1, 1, "eq5"))


# --------------------------------------------------------------------------- resampling
def _two_topics() -> pd.DataFrame:
    # topic A: one pair (2,2); topic B: one pair (2,0). Eq. 4, theta=2: p_2 = (#A drawn) / 2.
    return pd.DataFrame({"query_id": ["A", "B"], "u1": [2, 2], "u2": [2, 0]})


def test_bootstrap_values_are_the_possible_topic_mixtures():
    out = prm.bootstrap_topics(_two_topics(), 2, B=2000, rng=np.random.default_rng(3),
                               method="eq4")
    p2 = out.loc[out["level"] == 2, "p"].to_numpy()
    assert set(np.unique(p2)) <= {0.0, 0.5, 1.0}
    # draws of 2 topics: P(p=0.5) = 1/2, P(0) = P(1) = 1/4; 2000 draws -> se of a share ~ 0.011
    assert np.mean(p2 == 0.5) == pytest.approx(0.5, abs=0.05)
    assert p2.mean() == pytest.approx(0.5, abs=0.05)
    assert (out.loc[out["level"] == 2, "denominator"] == 2).all()
    assert out.loc[out["level"] < 2, "p"].isna().all()


def test_bootstrap_single_topic_equals_full_estimate(table1):
    full = prm.estimate(table1, 2, "eq5")
    out = prm.bootstrap_topics(table1, 2, B=5, rng=np.random.default_rng(0))
    for _, rep in out.groupby("replicate"):
        assert rep["p"].tolist() == pytest.approx(full["p"].tolist())


def test_bootstrap_reproducible_for_a_seed():
    pairs = pd.DataFrame({"query_id": np.repeat(list("abcdef"), 4),
                          "u1": [0, 1, 2, 3] * 6, "u2": [0, 1, 3, 2, 1, 1, 2, 3] * 3})
    a = prm.bootstrap_topics(pairs, 3, B=50, rng=np.random.default_rng(7))
    b = prm.bootstrap_topics(pairs, 3, B=50, rng=np.random.default_rng(7))
    c = prm.bootstrap_topics(pairs, 3, B=50, rng=np.random.default_rng(8))
    pd.testing.assert_frame_equal(a, b)
    assert not a["p"].equals(c["p"])
    assert len(a) == 50 * 4


def test_bootstrap_needs_query_id(table1):
    with pytest.raises(ValueError, match="query_id"):
        prm.bootstrap_topics(table1.drop(columns="query_id"), 2, B=5,
                             rng=np.random.default_rng(0))


@pytest.mark.parametrize("B", [0, -3, 2.5])
def test_bootstrap_bad_B(table1, B):
    with pytest.raises(ValueError, match="B must be a positive integer"):
        prm.bootstrap_topics(table1, 2, B=B, rng=np.random.default_rng(0))


def test_bootstrap_needs_generator(table1):
    with pytest.raises(ValueError, match="numpy.random.Generator"):
        prm.bootstrap_topics(table1, 2, B=5, rng=42)


def test_annotation_rounds_constant_pairs():
    pairs = pd.DataFrame({"u1": [1] * 5, "u2": [2] * 5})
    out = prm.annotation_rounds(pairs, [1, 3, 10], rounds=4, rng=np.random.default_rng(0),
                                threshold=2, method="eq4", T=2)
    assert len(out) == 4 * 3 * 3
    assert (out.loc[out["level"] == 1, "p"] == 1.0).all()
    assert out.loc[out["level"] != 1, "p"].isna().all()


def test_annotation_rounds_converge_to_full_estimate(table1):
    full = prm.estimate(table1, 2, "eq5").set_index("level")["p"]
    out = prm.annotation_rounds(table1, [5, 4000], rounds=30, rng=np.random.default_rng(1),
                                threshold=2)
    big = out[out["size"] == 4000].groupby("level")["p"]
    # 4000 draws: sd of p_2|2 about sqrt(.24/(2*4000*0.25)) ~ 0.011 per round
    assert big.mean().to_numpy() == pytest.approx(full.to_numpy(), abs=0.02)
    small_sd = out[out["size"] == 5].groupby("level")["p"].std()
    assert (big.std() < small_sd).all()


def test_annotation_rounds_reproducible(table1):
    kw = dict(sizes=[2, 8], rounds=6, threshold=2)
    a = prm.annotation_rounds(table1, rng=np.random.default_rng(5), **kw)
    b = prm.annotation_rounds(table1, rng=np.random.default_rng(5), **kw)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("sizes", [[], [0, 5], [3, -1]])
def test_annotation_rounds_bad_sizes(table1, sizes):
    with pytest.raises(ValueError, match="size"):
        prm.annotation_rounds(table1, sizes, rng=np.random.default_rng(0), threshold=2)


def test_annotation_rounds_bad_rounds(table1):
    with pytest.raises(ValueError, match="rounds must be a positive integer"):
        prm.annotation_rounds(table1, [5], rounds=0, rng=np.random.default_rng(0), threshold=2)


# --------------------------------------------------------------------------- Table 5 counts
def test_relevant_in_top_k_by_hand():
    qrels = pd.DataFrame({"query_id": ["q1"] * 3 + ["q2"],
                          "doc_id": ["a", "b", "c", "a"], "relevance": [2, 1, 0, 2]})
    run = pd.DataFrame({"run_id": "r", "query_id": ["q1"] * 4 + ["q2"] * 2 + ["q3"],
                        "doc_id": ["a", "x", "b", "c", "z", "a", "a"],
                        "rank": [1, 2, 3, 4, 1, 2, 1]})
    p = [0.1, 0.3, 0.5]
    out = prm.relevant_in_top_k(run, qrels, 3, threshold=2, p=p, T=2).set_index("query_id")
    # q1 top 3: a(2), x(unjudged), b(1) -> binary 1, prm .5 + 0 + .3; q2: z(unj), a(2) -> 1, .5
    assert out.loc["q1", "binary"] == 1 and out.loc["q1", "prm"] == pytest.approx(0.8)
    assert out.loc["q2", "binary"] == 1 and out.loc["q2", "prm"] == pytest.approx(0.5)
    assert "q3" not in out.index


def test_relevant_in_top_k_bad_qrels_level():
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "relevance": [4]})
    run = pd.DataFrame({"run_id": "r", "query_id": ["q1"], "doc_id": ["a"], "rank": [1]})
    with pytest.raises(ValueError, match=r"outside 0\.\.2"):
        prm.relevant_in_top_k(run, qrels, 1, threshold=2, p=[0, 0.5, 1], T=2)


def test_relevant_in_top_k_p_length_mismatch():
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"run_id": "r", "query_id": ["q1"], "doc_id": ["a"], "rank": [1]})
    with pytest.raises(ValueError, match="p has 2 levels but T = 2 needs 3"):
        prm.relevant_in_top_k(run, qrels, 1, threshold=2, p=[0, 1], T=2)


# --------------------------------------------------------------------------- building pairs
def test_pairs_from_qrels_keeps_common_items():
    q1 = pd.DataFrame({"query_id": ["a", "a", "b"], "doc_id": ["x", "y", "x"], "relevance": [2, 0, 1]})
    q2 = pd.DataFrame({"query_id": ["a", "b", "b"], "doc_id": ["x", "x", "z"], "relevance": [1, 1, 3]})
    out = prm.pairs_from_qrels(q1, q2)
    assert out.to_dict("list") == {"query_id": ["a", "b"], "doc_id": ["x", "x"], "u1": [2, 1],
                                   "u2": [1, 1]}


def test_pairs_from_qrels_rejects_repeated_items():
    q1 = pd.DataFrame({"query_id": ["a", "a"], "doc_id": ["x", "x"], "relevance": [2, 0]})
    with pytest.raises(ValueError, match=r"qrels_u1 has 1 repeated .*\(a, x\)"):
        prm.pairs_from_qrels(q1, q1.iloc[:1])


def _ratings() -> pd.DataFrame:
    # item (q,1) rated 0,1,2 by A,B,C; item (q,2) rated 3 by A only; item (q,3) rated 1,1 by B,C
    return pd.DataFrame({"query_id": "q", "doc_id": [1, 1, 1, 2, 3, 3],
                         "assessor": ["A", "B", "C", "A", "B", "C"], "rating": [0, 1, 2, 3, 1, 1]})


def test_one_rating_per_item():
    out = prm.one_rating_per_item(_ratings(), np.random.default_rng(0)).set_index("doc_id")
    assert sorted(out.index) == [1, 2, 3]
    assert out.loc[2, "relevance"] == 3 and out.loc[3, "relevance"] == 1
    assert out.loc[1, "relevance"] in {0, 1, 2}
    # every rating of item 1 gets picked sometimes (uniform: 1/3 each over 300 seeds)
    picks = {int(prm.one_rating_per_item(_ratings(), np.random.default_rng(s))
                 .set_index("doc_id").loc[1, "relevance"]) for s in range(300)}
    assert picks == {0, 1, 2}


def test_pairs_within_items():
    out = prm.pairs_within_items(_ratings(), np.random.default_rng(1)).set_index("doc_id")
    assert sorted(out.index) == [1, 3]          # item 2 has a single rating
    assert (out.loc[3, "u1"], out.loc[3, "u2"]) == (1, 1)
    assert out.loc[1, "u1"] != out.loc[1, "u2"]  # two different assessors of item 1


def test_ratings_need_columns():
    with pytest.raises(ValueError, match=r"missing column\(s\) \['rating'\]"):
        prm.one_rating_per_item(_ratings().drop(columns="rating"), np.random.default_rng(0))


# --------------------------------------------------------------------------- gains for measures
def test_gain_qrels_maps_levels():
    q = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c"], "relevance": [0, 3, 1]})
    out = prm.gain_qrels(q, {0: 0.01, 1: 0.04, 2: 0.27, 3: 0.53})
    assert out["gain"].tolist() == [0.01, 0.53, 0.04]
    assert "relevance" not in out.columns


def test_gain_qrels_sparse_mapping():
    q = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b"], "relevance": [0, 4]})
    assert prm.gain_qrels(q, {0: 0.0, 4: 2.0})["gain"].tolist() == [0.0, 2.0]


def test_gain_qrels_rejects_uncovered_level_and_bad_gain():
    q = pd.DataFrame({"query_id": "q", "doc_id": ["a"], "relevance": [3]})
    with pytest.raises(ValueError, match=r"level\(s\) \[3\] that the gain mapping"):
        prm.gain_qrels(q, {0: 0.0, 1: 1.0})
    with pytest.raises(ValueError, match=r"level\(s\) \[1\] are not"):
        prm.gain_qrels(q, {0: 0.0, 1: -1.0, 3: 1.0})


def test_gain_qrels_with_measure_engine():
    measures = pytest.importorskip("helpers.measures")
    # one topic, docs a (level 3), b (level 0); run ranks b then a.
    q = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b"], "relevance": [3, 0]})
    run = pd.DataFrame({"run_id": "r", "query_id": "q", "doc_id": ["b", "a"], "rank": [1, 2]})
    res = measures.evaluate(prm.gain_qrels(q, {0: 0.1, 1: 0.2, 2: 0.3, 3: 0.5}), run, ["MSnDCG@2"])
    # DCG = 0.1/log2(2) + 0.5/log2(3); ideal = 0.5 + 0.1/log2(3)
    expected = (0.1 + 0.5 / np.log2(3)) / (0.5 + 0.1 / np.log2(3))
    assert res["value"].iloc[0] == pytest.approx(expected)


def test_mean_scores_by_hand():
    pytest.importorskip("helpers.measures")
    q = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "a"],
                      "relevance": [3, 1, 1]})
    run = pd.DataFrame({"run_id": ["r1"] * 3 + ["r2"] * 3,
                        "query_id": ["q1", "q1", "q2"] * 2, "doc_id": ["a", "b", "a", "b", "a", "a"],
                        "rank": [1, 2, 1, 1, 2, 1]})
    # binary at theta=3: q1 ideal = [a]; r1 puts a first -> 1, r2 second -> 1/log2(3);
    # q2 has no level-3 document -> 0 for both (no_relevant="zero")
    got = prm.mean_scores(q, run, prm.binary_gains(3, 3), "MSnDCG@2")
    assert got.index.tolist() == ["r1", "r2"]
    assert got.to_numpy() == pytest.approx([0.5, 0.5 / np.log2(3)])


# --------------------------------------------------------------------------- remaining bad inputs
def test_p_frame_needs_level_and_p():
    with pytest.raises(ValueError, match="needs columns 'level' and 'p'"):
        prm.prm_gains(pd.DataFrame({"x": [0.1, 0.2]}))


def test_p_frame_must_list_every_level():
    with pytest.raises(ValueError, match=r"every level 0\.\.T exactly once"):
        prm.prm_gains(pd.DataFrame({"level": [0, 2], "p": [0.1, 0.2]}))


def test_p_mapping_keys_must_be_contiguous():
    with pytest.raises(ValueError, match=r"keys 0\.\.T"):
        prm.prm_gains({0: 0.1, 2: 0.3})


def test_p_needs_two_levels():
    with pytest.raises(ValueError, match=r"one probability for each level"):
        prm.prm_gains([0.5])


def test_levels_must_be_integers():
    with pytest.raises(ValueError, match="integer levels, got dtype"):
        prm.expected_relevant(np.array(["a", "b"]), [0.1, 0.2])
    with pytest.raises(ValueError, match="must be integer levels"):
        prm.expected_relevant([0.5], [0.1, 0.2])


def test_binary_relevant_bad_threshold():
    with pytest.raises(ValueError, match=r"outside 1\.\.2"):
        prm.binary_relevant([0, 1], threshold=3, T=2)


def test_relevant_in_top_k_missing_columns():
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "rank": [1]})
    with pytest.raises(ValueError, match=r"run is missing column\(s\) \['run_id'\]"):
        prm.relevant_in_top_k(run, qrels, 1, threshold=1, p=[0, 1], T=1)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        prm.relevant_in_top_k(run.assign(run_id="r"), qrels, 0, threshold=1, p=[0, 1], T=1)


def test_resampling_empty_pairs():
    empty = pd.DataFrame({"query_id": [], "u1": [], "u2": []})
    with pytest.raises(ValueError, match="nothing to bootstrap"):
        prm.bootstrap_topics(empty, 1, B=5, rng=np.random.default_rng(0), T=2)
    with pytest.raises(ValueError, match="nothing to sample"):
        prm.annotation_rounds(empty, [3], rng=np.random.default_rng(0), threshold=1, T=2)


def test_annotation_rounds_needs_generator(table1):
    with pytest.raises(ValueError, match="numpy.random.Generator"):
        prm.annotation_rounds(table1, [3], rng=np.random.RandomState(0), threshold=2)


def test_pairs_from_qrels_missing_column():
    q = pd.DataFrame({"query_id": ["a"], "doc_id": ["x"], "relevance": [1]})
    with pytest.raises(ValueError, match=r"qrels_u2 is missing column\(s\) \['relevance'\]"):
        prm.pairs_from_qrels(q, q.drop(columns="relevance"))


def test_gain_qrels_needs_relevance():
    with pytest.raises(ValueError, match="needs a 'relevance' column"):
        prm.gain_qrels(pd.DataFrame({"query_id": ["a"], "doc_id": ["x"]}), {0: 0.0})


def test_robustness_tables_same_assessor_gives_tau_one():
    from helpers.simulate import judgments

    sim = judgments.double_judgments(np.random.default_rng(5), n_topics=6, n_docs=40, n_runs=5, depth=10)
    pairs = prm.pairs_from_qrels(sim.qrels_u1, sim.qrels_u2)
    p_gain = {th: prm.estimate(pairs, threshold=th, method="eq5", T=3).set_index("level")["p"] for th in (3, 1)}
    t6, t7 = prm.robustness_tables(sim.qrels_u1, sim.qrels_u1, sim.runs, p_gain, (3, 1), 3, k=5, k_table7=10)
    assert list(t6["gains"]) == ["binary, theta=3", "PRM, theta=3", "binary, theta=1", "PRM, theta=1", "linear"]
    np.testing.assert_allclose(t6["tau"], 1.0)  # U2 = U1: both orderings coincide under every gain scheme
    assert len(t7) == 6 and t7["tau"].between(-1, 1).all()
    t6b, t7b = prm.robustness_tables(sim.qrels_u1, sim.qrels_u2, sim.runs, p_gain, (3,), 3, k=5, table7=False,
                                     names=["N", "R", "H", "K"])
    assert list(t6b["gains"]) == ["binary, theta=K", "PRM, theta=K", "linear"] and t7b.empty
    with pytest.raises(ValueError, match="no estimates for threshold 2"):
        prm.robustness_tables(sim.qrels_u1, sim.qrels_u2, sim.runs, p_gain, (2,), 3)
    with pytest.raises(ValueError, match="names must hold"):
        prm.robustness_tables(sim.qrels_u1, sim.qrels_u2, sim.runs, p_gain, (3,), 3, names=["a"])


# --------------------------------------------------------------------------- the fast path and the paired test
@pytest.fixture(scope="module")
def sim_small():
    from helpers.simulate import judgments

    return judgments.double_judgments(np.random.default_rng(5), n_topics=16, n_docs=60, n_runs=7, depth=20)


def test_scheme_means_equal_mean_scores_bit_for_bit(sim_small):
    """scheme_means (one alignment, numpy gathers) gives exactly mean_scores (evaluate + to_matrix)."""
    q = sim_small.qrels_u1
    q = q[q["doc_id"] != q["doc_id"].iloc[3]]  # a retrieved document nobody judged
    schemes = [prm.binary_gains(2, 3), {0: 0.02, 1: 0.2, 2: 0.6, 3: 0.9}, {i: float(2 ** i - 1) for i in range(4)},
               {0: 0.0, 1: 0.0, 2: 0.0, 3: 0.0}]  # the last: no topic has a positive gain (all score 0)
    got = prm.scheme_means(q, sim_small.runs, schemes, "MSnDCG@10")
    for g, means in zip(schemes, got):
        ref = prm.mean_scores(q, sim_small.runs, g, "MSnDCG@10")
        assert means.index.equals(ref.index)
        np.testing.assert_array_equal(means.to_numpy(), ref.to_numpy())
    with pytest.raises(ValueError, match="lacks"):
        prm.scheme_means(q, sim_small.runs, [{0: 0.0, 1: 1.0}], "MSnDCG@10")


def test_robustness_difference_is_paired_and_centred_on_the_observed_gap(sim_small):
    """With the same gains on both sides of the difference it is exactly 0 in every resample; otherwise
    its resamples scatter around the observed tau_PRM - tau_binary of Table 6."""
    q1, q2, runs = sim_small.qrels_u1, sim_small.qrels_u2, sim_small.runs
    pairs = prm.pairs_from_qrels(q1, q2)
    p3 = prm.estimate(pairs, threshold=3, method="eq5", T=3).set_index("level")["p"]
    binary_as_prm = pd.Series({0: 0.0, 1: 0.0, 2: 0.0, 3: 1.0})  # PRM gains equal to binary gains at theta = 3
    d0 = prm.robustness_difference(q1, q2, runs, binary_as_prm, 3, 3, B=50, rng=np.random.default_rng(0))
    assert np.nanmax(np.abs(d0)) == 0 and prm.bootstrap_p(d0) == 1.0
    d = prm.robustness_difference(q1, q2, runs, p3, 3, 3, B=400, rng=np.random.default_rng(0))
    t6, _ = prm.robustness_tables(q1, q2, runs, {3: p3}, [3], 3, table7=False)
    obs = t6.set_index("gains")["tau"]
    gap = obs["PRM, theta=3"] - obs["binary, theta=3"]
    assert len(d) == 400 and np.nanmin(d) <= gap <= np.nanmax(d)
    again = prm.robustness_difference(q1, q2, runs, p3, 3, 3, B=400, rng=np.random.default_rng(0))
    np.testing.assert_array_equal(d, again)


def test_bootstrap_p_two_sided():
    assert prm.bootstrap_p([0.1, 0.2, 0.3, -0.1]) == pytest.approx(2 * 2 / 5)
    assert prm.bootstrap_p([0.1] * 99 + [0.0]) == pytest.approx(2 * 2 / 101)
    # no resample on the other side of 0: the p-value is its resolution, never 0
    assert prm.bootstrap_p([0.1] * 150) == pytest.approx(2 / 151)
    assert math.isnan(prm.bootstrap_p([np.nan]))
    # identical rankings: differences of tau in the last bits only are ties, not a one-sided result
    # (a referee's random set printed +0.000000 [+0.000000, +0.000000] with p = 0.037)
    noise = [1.1e-16] * 40 + [-1.1e-16] * 10
    assert prm.bootstrap_p(noise) == 1.0


def test_bootstrap_interval_order_statistics_by_hand():
    # n = 300: k = ceil(301 * 0.025) - 1 = 7, the 7th smallest and the 7th largest
    d = np.arange(1, 301) / 100.0
    assert prm.bootstrap_interval(d) == (0.07, 2.94)
    # n = 999: (n + 1) * 0.025 = 25 exactly, k = 24 (a float 25.000000000000004 must not give 25)
    assert prm.bootstrap_interval(np.arange(1, 1000)) == (24.0, 976.0)
    # fewer than 40: the range; ties within 1e-12 of 0 are 0; none finite: nan
    assert prm.bootstrap_interval([0.3, -0.2, 0.1]) == (-0.2, 0.3)
    assert prm.bootstrap_interval([1e-16] * 50) == (0.0, 0.0)
    assert all(math.isnan(v) for v in prm.bootstrap_interval([np.nan]))


def test_bootstrap_interval_excludes_0_exactly_when_p_below_alpha():
    """The referee's case: an interval [+0.0003, ...] beside p = 0.060 (ties at 0 counted both ways)."""
    rng = np.random.default_rng(3)
    for n in (40, 99, 300, 999, 1000):
        for shift in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0):
            d = np.round(rng.normal(shift, 1.0, n), 1)   # rounding makes ties at 0
            d[: n // 20] = 0.0
            lo, hi = prm.bootstrap_interval(d)
            assert (lo > 0 or hi < 0) == (prm.bootstrap_p(d) < 0.05), (n, shift, lo, hi, prm.bootstrap_p(d))
            assert (lo > 0 or hi < 0) == (prm.bootstrap_p(-d) < 0.05)


def test_table5_summary_by_hand():
    """Two runs, one topic, k = 2: binary and PRM counts, their ordering and the shares."""
    qrels = pd.DataFrame({"query_id": "q", "doc_id": ["a", "b", "c", "d"], "relevance": [3, 2, 0, 0]})
    runs = pd.DataFrame({"run_id": ["A", "A", "B", "B"], "query_id": "q", "doc_id": ["a", "b", "c", "d"], "rank": [1, 2, 1, 2]})
    table, summary = prm.table5(runs, qrels, 2, {2: pd.Series({0: 0.1, 1: 0.3, 2: 0.6, 3: 0.9})}, [2], 3)
    assert table.loc["A", "binary_mean_theta2"] == 2 and table.loc["A", "prm_mean_theta2"] == pytest.approx(1.5)
    assert table.loc["B", "binary_mean_theta2"] == 0 and table.loc["B", "prm_mean_theta2"] == pytest.approx(0.2)
    row = summary.iloc[0]
    assert row["theta"] == 2 and row["share_prm_smaller"] == 0.5 and row["runs"] == 2  # B: PRM 0.2 > binary 0
