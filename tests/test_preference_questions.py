"""Tests for helpers.preference.questions: notebook 05's per-question MAR tables and the HSD with pairs
and with topics as blocks.

Expected values are computed by hand in the comments.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.preference import questions as pq

L, R, E = "LEFT", "RIGHT", "EQUAL"
PAIRS = pd.Index(["p1", "p2", "p3", "p4"], name="pair_id")
TOPICS = pd.Series(["t1", "t1", "t2", "t2"], index=PAIRS)


@pytest.fixture
def qs():
    rel = pd.DataFrame({"A": [L, L, R, E], "B": [L, R, R, L], "C": [L, L, L, E]}, index=PAIRS)
    div = pd.DataFrame({"A": [L, R, R, E], "B": [L, R, R, L], "C": [R, L, L, E]}, index=PAIRS)
    return pq.Questions.of({"relevance": rel, "diversity": div})


@pytest.fixture
def prefs():
    return pd.DataFrame({"m1": [L, R, R, E], "m2": [L, L, L, L]}, index=PAIRS)


def test_questions_and_the_consistent_labels(qs):
    assert qs.names == ["relevance", "diversity", "both"]
    # same label on both questions: p1 A, B; p2 B, C; p3 and p4 everyone
    assert qs.n_consistent.tolist() == [2, 2, 3, 3]
    ref, cand, owners = qs.setup("both")
    assert ref.loc["p1"].tolist()[:2] == [L, L] and pd.isna(ref.loc["p1", "C"])
    assert list(cand.columns) == ["Arel", "Brel", "Crel", "Adiv", "Bdiv", "Cdiv"] and owners["Cdiv"] == "C"
    ref, cand, owners = qs.setup("relevance")
    assert ref is cand and owners is None
    one = pq.Questions.of({"diversity": qs.labels["diversity"]})
    assert one.names == ["diversity"] and one.n_consistent is None


def test_mar_tables_hand_computed(qs, prefs):
    t = pq.mar_tables(qs, prefs)
    # relevance, m1: p1 1, p2 1/3, p3 2/3, p4 2/3 -> 0.666667; m2: 1, 2/3, 1/3, 1/3 -> 0.583333
    assert t["relevance"].mar.round(6).to_dict() == {"m1": 0.666667, "m2": 0.583333}
    # both (consistent labels only), m1: 1, 1/2, 2/3, 2/3 -> 0.708333; m2: 1, 1/2, 1/3, 1/3 -> 0.541667
    assert t["both"].mar.round(6).to_dict() == {"m1": 0.708333, "m2": 0.541667}
    # leave-one-out, relevance: A (1 + 1/2 + 1/2 + 1/2) / 4 = 0.625, C 0.5, B 0.375
    a = t["relevance"].assessors
    assert a.round(4).to_dict() == {"A": 0.625, "C": 0.5, "B": 0.375}
    assert t["relevance"].groups == {"best": "A", "median": "C", "worst": "B"} and t["relevance"].pairs == 4
    table = t["relevance"].table
    assert list(table.columns) == ["measure", "MAR", "assessor", "assessor MAR"]
    assert table["assessor"].tolist() == ["A (best)", "C (median)", "B (worst)"] and table["measure"].tolist()[-1] == ""
    assert pq.mar_of(prefs, qs.labels["relevance"]).index.tolist() == ["m1", "m2"]


def test_hsd_matrices_enter_twins_once_and_add_the_roles(qs, prefs):
    twin = prefs.assign(m3=prefs["m1"])
    groups = {q: t.groups for q, t in pq.mar_tables(qs, twin).items()}
    m = pq.hsd_matrices(qs, twin, {}, groups, twins=[["m1", "m3"]])
    assert list(m["relevance"].columns) == ["m1", "m2", "best assessor", "median assessor", "worst assessor"]
    # the in-sample best assessor of relevance is A: its leave-one-out rates 1, 1/2, 1/2, 1/2
    np.testing.assert_allclose(m["relevance"]["best assessor"], [1, 0.5, 0.5, 0.5])
    np.testing.assert_allclose(m["relevance"]["m1"], [1, 1 / 3, 2 / 3, 2 / 3])
    assert len(m["both"]) == 4   # every pair keeps at least two consistent assessors


def _matrix(rng, n_pairs=60, shift=0.3):
    base = rng.uniform(0.3, 0.7, size=(n_pairs, 1))
    noise = rng.normal(0, 0.05, size=(n_pairs, 3))
    return pd.DataFrame(base + noise + np.array([shift, 0.0, 0.01]), columns=["a", "b", "c"],
                        index=pd.Index([f"p{k}" for k in range(n_pairs)], name="pair_id"))


def test_hsd_rows_are_oriented_and_topic_blocking_counts_survivors():
    rng = np.random.default_rng(5)
    mats = {"x": _matrix(rng), "y": _matrix(rng, shift=0.0)}
    res = pq.hsd(mats, B=200, rng=np.random.default_rng(1))
    for q, r in res.items():
        means = mats[q].mean()
        assert (r.delta_mar >= 0).all() and len(r) == 3
        assert all(means[h] >= means[lo] for h, lo in zip(r.higher, r.lower))
        assert r.p_value.is_monotonic_increasing and r.attrs["matrix"] is mats[q] and r.attrs["ve"] > 0
    # a is far above b and c in x: both its comparisons are significant; b vs c (0.01 apart) is not
    sig = {frozenset(p) for p, pv in zip(zip(res["x"].higher, res["x"].lower), res["x"].p_value) if pv < 0.05}
    assert sig == {frozenset("ab"), frozenset("ac")}
    topics = pd.Series([f"t{k // 6}" for k in range(60)], index=mats["x"].index)   # 10 topics of 6 pairs
    blocked = pq.topic_blocked(res, topics, B=200, rng=np.random.default_rng(2), significance=0.05)
    bx = blocked["x"]
    assert bx["topics"] == 10 and bx["comparisons"] == 3 and bx["pair_level"] == 2
    assert bx["significant"] == int((bx["result"].p_value < 0.05).sum()) and bx["survive"] <= bx["significant"]
    assert blocked["y"]["pair_level"] == 0 and blocked["y"]["survive"] == 0
    with pytest.raises(ValueError, match="topics lacks"):
        pq.topic_blocked(res, topics.iloc[:30], B=10, rng=np.random.default_rng(2), significance=0.05)


def test_with_topic_p_keeps_what_either_blocking_finds():
    pairs = pd.DataFrame({"higher": ["a", "a", "b"], "lower": ["b", "c", "c"], "delta_mar": [0.3, 0.2, 0.1],
                          "p_value": [0.001, 0.2, 0.04], "es_hsd": [1.0, 0.5, 0.2]})
    topics = pd.DataFrame({"higher": ["c", "a", "a"], "lower": ["b", "c", "b"], "delta_mar": [0.1, 0.2, 0.3],
                           "p_value": [0.3, 0.01, 0.02], "es_hsd": [0.2, 0.5, 1.0]})
    out = pq.with_topic_p(pairs, topics, 0.05)
    # a-b significant both ways, a-c over topics only, b-c over pairs only: all three kept, by topic p
    assert list(zip(out.higher, out.lower)) == [("a", "c"), ("a", "b"), ("b", "c")]
    assert out.p_topics.tolist() == [0.01, 0.02, 0.3]
    assert pq.with_topic_p(pairs, topics, 0.001).empty


def test_never_equal_chance_uses_each_questions_own_equal_share(qs):
    chance = pq.never_equal_chance(qs)
    # relevance: EQUAL shares per pair 0, 0, 0, 2/3 -> e = 1/6, chance 0.5 (1 - 1/6) = 0.4167;
    # diversity: 0, 0, 0, 2/3 -> the same; both: consistent labels p1 (L, L), p2 (R, L), p3 (R, R, L),
    # p4 (E, L, E) -> EQUAL shares 0, 0, 0, 2/3 -> e = 1/6
    assert chance["relevance"]["chance"] == pytest.approx(0.5 * (1 - 1 / 6))
    assert chance["relevance"]["equal_share"] == pytest.approx(1 / 6)
    assert set(chance) == {"relevance", "diversity", "both"}


def test_top_group_names_the_measures_the_hsd_does_not_separate():
    mar = pd.Series({"a": 0.70, "b": 0.69, "b2": 0.69, "c": 0.60, "d": 0.65})
    res = pd.DataFrame({"higher": ["a", "a", "a", "b"], "lower": ["b", "c", "d", "c"],
                        "p_value": [0.40, 0.001, 0.06, 0.01]})
    g = pq.top_group(mar, res, [["b", "b2"]], 0.05)
    # b (= b2) and d are not separated from a (p 0.40, 0.06); c is (p 0.001)
    assert g == {"top": "a", "group": ["a", "b", "d"], "distinct": 4, "outside": ["c"]}   # exactly the rest
    assert pq.top_group(mar, res.assign(p_value=0.0), [["b", "b2"]], 0.05)["group"] == ["a"]


def test_a_role_is_unstable_when_its_optimism_exceeds_its_gap_to_the_nearest_role():
    # rand2's 'both': the median falls from 0.6734 in sample to 0.5379 cross-fitted (+0.1355), far more than its
    # gap to the best or the worst role; the best and worst move less than their gaps
    r = {"mar_in_sample": {"best": 0.7000, "median": 0.6734, "worst": 0.6000},
         "optimism": {"best": 0.0200, "median": 0.1355, "worst": -0.0100}}
    assert pq.unstable_roles(r) == ["median"]
    # the default run's 'both': best +0.0230 against a gap of 0.0263 to the median: stable
    d = {"mar_in_sample": {"best": 0.7080, "median": 0.6817, "worst": 0.5976},
         "optimism": {"best": 0.0230, "median": 0.0, "worst": -0.0211}}
    assert pq.unstable_roles(d) == []
    # a fall of exactly the gap (as printed) is not over it; a negative optimism counts by its size
    e = {"mar_in_sample": {"best": 0.70, "median": 0.68, "worst": 0.60},
         "optimism": {"best": 0.02, "median": -0.03, "worst": 0.0}}
    assert pq.unstable_roles(e) == ["median"]


def test_every_listing_of_an_unstable_role_carries_the_flag():
    t = pd.DataFrame({"higher": ["D-Q", "median assessor", "best assessor"],
                      "lower": ["median assessor", "worst assessor", "median assessor"], "p_value": [0.01] * 3})
    f = pq.flag_unstable(t, ["median"])
    assert f.higher.tolist() == ["D-Q", "median assessor (unstable)", "best assessor"]
    assert f.lower.tolist() == ["median assessor (unstable)", "worst assessor", "median assessor (unstable)"]
    assert pq.flag_unstable(t, []) is t
    r = {"topics": (10, 11), "mar": {"best": 0.70, "median": 0.5379, "worst": 0.60},
         "mar_in_sample": {"best": 0.72, "median": 0.6734, "worst": 0.59},
         "optimism": {"best": 0.02, "median": 0.1355, "worst": -0.01}, "out_of_order": True, "unstable": ["median"]}
    lines = pq.role_lines("both", r, 16)
    assert lines[0].startswith("both     : roles cross-fitted over 10 + 11 topics;") and "median 0.5379 (0.6734, +0.1355)" in lines[0]
    assert "nearest role): median" in lines[2] and "'<role> assessor (unstable)'" in lines[3]
    assert len(pq.role_lines("both", {**r, "out_of_order": False, "unstable": []}, 16)) == 1


def test_top_table_and_line_name_the_group_not_a_leader():
    mar = pd.Series({"A": 0.70, "B": 0.69, "C": 0.60, "A2": 0.70})
    res = pd.DataFrame({"higher": ["A", "A", "B"], "lower": ["B", "C", "C"], "p_value": [0.40, 0.001, 0.01]})
    t = pq.top_table("both", mar, res, [["A", "A2"]], 0.05)
    assert t.measure.tolist() == ["A", "B", "C"] and t["top group"].tolist() == [True, True, False]
    assert t["same preference"].tolist() == ["A2", "", ""]
    assert pq.top_line("both", t) == ("both: 2 of 3 distinct measures in the top group (not separated from the "
                                      "highest MAR by the HSD with topics as blocks), 1 separated")
    none = pq.top_table("both", mar, res.assign(p_value=0.5), [["A", "A2"]], 0.05)
    assert pq.top_line("both", none).startswith("both: the HSD with topics as blocks separates none of the 3")
