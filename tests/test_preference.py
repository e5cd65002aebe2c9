"""Tests for helpers.preference: pair filter, measure preferences, agreement rates, MAR, letters.

Expected values are computed by hand in the comments, never copied from the code's output.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import preference as pref

L, R, E, NA = "LEFT", "RIGHT", "EQUAL", None


@pytest.fixture
def judged():
    # 3 pairs x 4 assessors; D did not judge p2 (p2 has 3 assessors)
    return pd.DataFrame({"A": [L, E, R], "B": [L, E, L], "C": [R, L, R], "D": [E, NA, R]},
                        index=pd.Index(["p1", "p2", "p3"], name="pair_id"))


@pytest.fixture
def measures():
    # m1 from scores with a difference, m2 includes an EQUAL from a tie
    left = pd.DataFrame({"m1": [0.5, 0.3, 0.1], "m2": [0.2, 0.9, 0.8]}, index=["p1", "p2", "p3"])
    right = pd.DataFrame({"m1": [0.4, 0.3, 0.2], "m2": [0.2, 0.1, 0.7]}, index=["p1", "p2", "p3"])
    return pref.measure_preferences(left, right, tie_tolerance=0.0)


def test_measure_preferences_labels_and_tolerance(measures):
    assert measures["m1"].tolist() == [L, E, R]
    assert measures["m2"].tolist() == [E, L, L]
    lab = pref.measure_preferences(np.array([0.30, 0.30, 0.5]), np.array([0.3004, 0.2996, 0.1]), tie_tolerance=0.001)
    assert lab.tolist() == [E, E, L]
    lab0 = pref.measure_preferences(np.array([0.30, 0.30]), np.array([0.3004, 0.2996]), tie_tolerance=0.0)
    assert lab0.tolist() == [R, L]


def test_agreement_rates_and_mar_hand_computed(judged, measures):
    rates = pref.agreement_rates(measures, judged)
    # m1: p1 LEFT vs (L, L, R, E) -> 2/4; p2 EQUAL vs (E, E, L) -> 2/3; p3 RIGHT vs (R, L, R, R) -> 3/4
    np.testing.assert_allclose(rates["m1"], [0.5, 2 / 3, 0.75])
    # m2: p1 EQUAL -> 1/4 (only D); p2 LEFT -> 1/3 (only C); p3 LEFT -> 1/4 (only B)
    np.testing.assert_allclose(rates["m2"], [0.25, 1 / 3, 0.25])
    mar = pref.mean_agreement_rate(rates)
    assert mar["m1"] == pytest.approx((0.5 + 2 / 3 + 0.75) / 3)   # 0.638889
    assert mar["m2"] == pytest.approx((0.25 + 1 / 3 + 0.25) / 3)  # 0.277778


def test_leave_one_out_assessor_rates_hand_computed(judged):
    rates = pref.assessor_agreement_rates(judged)
    # A: p1 L vs (B L, C R, D E) 1/3; p2 E vs (B E, C L) 1/2; p3 R vs (B L, C R, D R) 2/3
    np.testing.assert_allclose(rates["A"], [1 / 3, 1 / 2, 2 / 3])
    # D: p1 E vs (L, L, R) 0; p2 not judged -> NaN; p3 R vs (A R, B L, C R) 2/3
    assert rates["D"].iloc[0] == 0 and np.isnan(rates["D"].iloc[1]) and rates["D"].iloc[2] == pytest.approx(2 / 3)
    mar = pref.mean_agreement_rate(rates)
    assert mar["A"] == pytest.approx(0.5)
    assert mar["B"] == pytest.approx(5 / 18)   # (1/3 + 1/2 + 0) / 3
    assert mar["C"] == pytest.approx(2 / 9)    # (0 + 0 + 2/3) / 3
    assert mar["D"] == pytest.approx(1 / 3)    # NaN pair left out: (0 + 2/3) / 2
    groups = pref.assessor_groups(mar)
    # descending: A .500, D .333, B .278, C .222 -> median is position (4 - 1) // 2 = 1
    assert groups == {"best": "A", "median": "D", "worst": "C"}


def test_median_position_for_15_and_30():
    mar15 = pd.Series(np.linspace(0.9, 0.5, 15), index=[f"a{k:02d}" for k in range(15)])
    assert pref.assessor_groups(mar15)["median"] == "a07"  # 8th of 15
    mar30 = pd.Series(np.linspace(0.9, 0.5, 30), index=[f"a{k:02d}" for k in range(30)])
    assert pref.assessor_groups(mar30)["median"] == "a14"  # 15th of 30


def test_consistent_labels_and_both_analysis(judged):
    div = judged.copy()
    div.loc["p1", "A"] = R      # A inconsistent on p1
    div.loc["p3", "B"] = E      # B inconsistent on p3
    both = pref.consistent_labels(judged, div)
    assert pd.isna(both.loc["p1", "A"]) and pd.isna(both.loc["p3", "B"]) and pd.isna(both.loc["p2", "D"])
    assert both.loc["p1", "B"] == L
    # candidates: the relevance labels, owner = same assessor in the "both" reference
    rates = pref.assessor_agreement_rates(judged, reference=both, owners={c: c for c in judged.columns})
    # A's relevance label on p1 (L) vs both-labels of B, C, D = (L, R, E): 1/3
    assert rates.loc["p1", "A"] == pytest.approx(1 / 3)
    # B's relevance label on p3 (L) vs both of A, C, D = (R, R, R): 0
    assert rates.loc["p3", "B"] == 0
    # A on p3 (R): others in both = (B missing, C R, D R) -> 2/2
    assert rates.loc["p3", "A"] == 1.0


def test_preference_counts(judged):
    counts = pref.preference_counts(judged)
    assert counts.loc["p1"].tolist() == [2, 1, 1, 4, 1]
    assert counts.loc["p2"].tolist() == [1, 0, 2, 3, 1]
    assert counts.loc["p3"].tolist() == [1, 3, 0, 4, -2]


def test_agreement_matrix(judged, measures):
    mat = pref.agreement_matrix(measures, judged, assessors={"best": "A", "worst": "C"})
    assert list(mat.columns) == ["m1", "m2", "best", "worst"]
    np.testing.assert_allclose(mat["worst"], [0, 0, 2 / 3])
    with pytest.raises(ValueError, match="no rate for some assessor"):
        pref.agreement_matrix(measures, judged, assessors=["D"])
    assert len(pref.agreement_matrix(measures, judged, assessors=["D"], dropna=True)) == 2
    with pytest.raises(ValueError, match="unknown candidate"):
        pref.agreement_matrix(measures, judged, assessors=["Z"])


def test_bad_labels_and_inputs(judged, measures):
    bad = judged.copy()
    bad.loc["p1", "A"] = "left"
    with pytest.raises(ValueError, match="unknown preference labels 'left'"):
        pref.agreement_rates(measures, bad)
    m = measures.copy()
    m.loc["p2", "m1"] = None
    with pytest.raises(ValueError, match="missing label"):
        pref.agreement_rates(m, judged)
    nobody = judged.copy()
    nobody.loc["p2"] = None
    with pytest.raises(ValueError, match="judged by no assessor"):
        pref.agreement_rates(measures, nobody)
    with pytest.raises(ValueError, match="empty"):
        pref.agreement_rates(measures, judged.iloc[:0])
    with pytest.raises(ValueError, match="empty"):
        pref.mean_agreement_rate(pd.DataFrame())
    with pytest.raises(ValueError, match="same pairs"):
        pref.agreement_rates(measures.iloc[:2], judged)
    with pytest.raises(ValueError, match="tie_tolerance"):
        pref.measure_preferences(np.ones(2), np.ones(2), tie_tolerance=-1)
    with pytest.raises(ValueError, match="finite"):
        pref.measure_preferences(np.array([np.nan]), np.ones(1))
    with pytest.raises(ValueError, match="shape"):
        pref.measure_preferences(np.ones(2), np.ones(3))
    with pytest.raises(ValueError, match="owners"):
        pref.assessor_agreement_rates(judged, reference=judged, owners={"A": "A"})
    with pytest.raises(ValueError, match="same assessor columns"):
        pref.consistent_labels(judged, judged.rename(columns={"A": "Z"}))
    with pytest.raises(ValueError, match="non-empty"):
        pref.assessor_groups(pd.Series(dtype=float))


def _summaries():
    # one topic, three runs: precision and intent recall
    return pd.DataFrame({"run_id": ["r1", "r2", "r3"], "query_id": ["q1"] * 3,
                         "precision": [0.5, 0.6, 0.5], "intent_recall": [0.5, 0.75, 1.0]})


def test_sample_pairs_filter_hand_computed():
    pairs = pref.sample_pairs(_summaries(), np.random.default_rng(0), min_difference=0.1, target=None)
    # (r1, r2): |dP| = 0.1 (float 0.0999..) and |dI| = 0.25 -> kept; (r1, r3): dP = 0 -> dropped;
    # (r2, r3): dP = 0.1, dI = 0.25 -> kept
    kept = {frozenset((a, b)) for a, b in zip(pairs.run_left, pairs.run_right)}
    assert kept == {frozenset(("r1", "r2")), frozenset(("r2", "r3"))}
    assert pairs.attrs["n_candidates"] == 3 and pairs.attrs["n_passed"] == 2
    # the diff columns are left minus right
    s = _summaries().set_index("run_id")
    for _, row in pairs.iterrows():
        assert row.diff_precision == pytest.approx(s.precision[row.run_left] - s.precision[row.run_right])


def test_sample_pairs_target_and_determinism():
    rng = np.random.default_rng(5)
    rows = [{"run_id": f"r{k:02d}", "query_id": q, "precision": k / 10, "intent_recall": k / 10}
            for q in ("q1", "q2") for k in range(8)]
    df = pd.DataFrame(rows)
    all_pairs = pref.sample_pairs(df, rng, target=None)
    assert len(all_pairs) == 2 * 28  # every pair differs by >= 0.1 in both
    a = pref.sample_pairs(df, np.random.default_rng(1), target=10)
    b = pref.sample_pairs(df, np.random.default_rng(1), target=10)
    assert len(a) == 10 and a.equals(b)
    # the coin puts both orders on the left
    assert (a.diff_precision > 0).any() and (a.diff_precision < 0).any()
    tidy = df.melt(id_vars=["run_id", "query_id"], var_name="measure", value_name="value")
    c = pref.sample_pairs(tidy, np.random.default_rng(1), target=10)
    assert c[["query_id", "run_left", "run_right"]].equals(a[["query_id", "run_left", "run_right"]])
    with pytest.raises(ValueError, match="no pair passes"):
        pref.sample_pairs(df, rng, min_difference=5)
    with pytest.raises(ValueError, match="lacks"):
        pref.sample_pairs(df.drop(columns="precision"), rng)
    with pytest.raises(ValueError, match="target"):
        pref.sample_pairs(df, rng, target=0)


def test_serp_summaries_hand_computed():
    dqrels = pd.DataFrame({"query_id": ["q"] * 4, "intent_id": ["i1", "i1", "i2", "i2"],
                           "doc_id": ["d1", "d2", "d1", "d3"], "relevance": [1, 0, 0, 2]})
    intents = pd.DataFrame({"query_id": ["q", "q"], "intent_id": ["i1", "i2"], "prob": [0.5, 0.5]})
    runs = pd.DataFrame({"run_id": ["a", "a", "a", "b"], "query_id": ["q"] * 4,
                         "doc_id": ["d1", "d2", "x", "d3"], "rank": [1, 2, 3, 1]})
    s = pref.serp_summaries(dqrels, intents, runs, cutoff=2).set_index("run_id")
    # run a top 2 = d1 (relevant to i1), d2 (L0) -> precision 1/2, I-rec 1/2
    # run b top 2 = d3 (relevant to i2) only -> precision 1/2 (short run still over 2), I-rec 1/2
    assert s.loc["a", "precision"] == 0.5 and s.loc["a", "intent_recall"] == 0.5
    assert s.loc["b", "precision"] == 0.5 and s.loc["b", "intent_recall"] == 0.5


def test_pair_scores():
    scores = pd.DataFrame({"run_id": ["a", "b", "a", "b"], "query_id": ["q"] * 4,
                           "measure": ["m", "m", "n", "n"], "value": [0.1, 0.2, 0.3, 0.4]})
    pairs = pd.DataFrame({"pair_id": ["P1"], "query_id": ["q"], "run_left": ["b"], "run_right": ["a"]})
    left, right = pref.pair_scores(scores, pairs)
    assert left.loc["P1"].tolist() == [0.2, 0.4] and right.loc["P1"].tolist() == [0.1, 0.3]
    pairs.loc[0, "run_left"] = "c"
    with pytest.raises(ValueError, match="lack 1 SERP"):
        pref.pair_scores(scores, pairs)


def test_compact_letter_display():
    means = pd.Series({"x": 0.9, "y": 0.8, "z": 0.7})
    # x > z only: {x, y} share a, {y, z} share b
    letters = pref.compact_letter_display(means, [("x", "z")])
    assert letters.to_dict() == {"x": "a", "y": "ab", "z": "b"}
    assert pref.compact_letter_display(means, []).tolist() == ["a", "a", "a"]
    assert pref.compact_letter_display(means, [("x", "y"), ("x", "z"), ("y", "z")]).tolist() == ["a", "b", "c"]
    with pytest.raises(ValueError, match="not in means"):
        pref.compact_letter_display(means, [("x", "w")])


# ---------------------------------------------------------------------------------------------
# issue 17 helpers
# ---------------------------------------------------------------------------------------------

def test_topic_means_and_missing_topics():
    m = pd.DataFrame({"a": [1.0, 0.0, 0.5], "b": [0.0, 1.0, 1.0]}, index=pd.Index(["p1", "p2", "p3"], name="pair_id"))
    t = pd.Series({"p1": "q1", "p2": "q1", "p3": "q2"})
    out = pref.topic_means(m, t)
    assert out.loc["q1", "a"] == 0.5 and out.loc["q2", "b"] == 1.0 and list(out.index) == ["q1", "q2"]
    with pytest.raises(ValueError, match="lacks 1 pair"):
        pref.topic_means(m, t.drop("p3"))


def test_normaliser_shift_counts_flips():
    labels = pd.DataFrame({"A1": ["LEFT", "LEFT", "RIGHT"], "A2": ["LEFT", "RIGHT", "RIGHT"]},
                          index=pd.Index(["p1", "p2", "p3"], name="pair_id"))
    a = pd.DataFrame({"m": ["LEFT", "LEFT", "LEFT"]}, index=labels.index)
    b = pd.DataFrame({"m": ["LEFT", "RIGHT", "RIGHT"]}, index=labels.index)
    out = pref.normaliser_shift(a, b, labels)
    assert out.loc["m", "flipped"] == pytest.approx(2 / 3)
    assert out.loc["m", "mar_a"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert out.loc["m", "mar_b"] == pytest.approx((1 + 0.5 + 1) / 3)
    assert out.loc["m", "delta"] == pytest.approx(1 / 3)


def test_cross_fitted_roles_are_chosen_on_other_topics():
    rng = np.random.default_rng(0)
    n = 40
    labels = pd.DataFrame(rng.choice(["LEFT", "RIGHT", "EQUAL"], size=(n, 5)),
                          index=pd.Index([f"p{i}" for i in range(n)], name="pair_id"),
                          columns=[f"A{i}" for i in range(5)])
    topics = pd.Series([f"q{i % 8}" for i in range(n)], index=labels.index)
    res = pref.cross_fitted_roles(labels, labels, topics, np.random.default_rng(1))
    assert res["topics"] == (4, 4)
    assert list(res["rates"].columns) == ["best assessor", "median assessor", "worst assessor"]
    rates = pref.assessor_agreement_rates(labels)
    half_a = set(sorted(topics.unique())[k] for k in np.random.default_rng(1).permutation(8)[:4])
    in_a = topics.isin(half_a).to_numpy()
    chosen_on_b = res["selection"]["B"]["best"]
    # a pair of half A carries the rate of the assessor chosen on half B, and vice versa
    assert np.allclose(res["rates"]["best assessor"][in_a], rates[chosen_on_b][in_a])
    chosen_on_a = res["selection"]["A"]["worst"]
    assert np.allclose(res["rates"]["worst assessor"][~in_a], rates[chosen_on_a][~in_a])
    # in sample the best is the best by construction; the optimism is that gap
    assert res["mar_in_sample"]["best"] == pytest.approx(pref.mean_agreement_rate(rates).max())
    assert res["optimism"]["best"] == pytest.approx(res["mar_in_sample"]["best"] - res["mar"]["best"])
    with pytest.raises(ValueError, match="two topics"):
        pref.cross_fitted_roles(labels, labels, pd.Series("q", index=labels.index), np.random.default_rng(1))


def test_cross_fitted_roles_remove_the_winners_curse():
    """Exchangeable assessors (every label a fair coin): in sample the 'best' looks better than the
    others, out of sample it is no better than the median (on average over draws)."""
    gaps_in, gaps_out = [], []
    for seed in range(30):
        rng = np.random.default_rng(seed)
        labels = pd.DataFrame(rng.choice(["LEFT", "RIGHT"], size=(200, 9)),
                              index=pd.Index([f"p{i}" for i in range(200)], name="pair_id"),
                              columns=[f"A{i}" for i in range(9)])
        topics = pd.Series([f"q{i % 20}" for i in range(200)], index=labels.index)
        res = pref.cross_fitted_roles(labels, labels, topics, rng)
        gaps_in.append(res["mar_in_sample"]["best"] - res["mar_in_sample"]["median"])
        gaps_out.append(res["mar"]["best"] - res["mar"]["median"])
    assert np.mean(gaps_in) > 0.012
    assert abs(np.mean(gaps_out)) < 3 * np.std(gaps_out) / np.sqrt(len(gaps_out)) + 1e-9


def test_chance_agreement():
    # a measure that never says EQUAL: half the share of non-EQUAL labels (0.45 at 10% EQUAL)
    assert pref.chance_agreement({"LEFT": 0.45, "RIGHT": 0.45, "EQUAL": 0.1}) == pytest.approx(0.45)
    assert pref.chance_agreement({"LEFT": 0.3, "RIGHT": 0.3, "EQUAL": 0.4}, 1.0) == pytest.approx(0.4)
    assert pref.chance_agreement({"LEFT": 0.5, "RIGHT": 0.5}) == pytest.approx(0.5)
    # by simulation: random sides against fixed labels
    rng = np.random.default_rng(0)
    labels = rng.choice(["LEFT", "RIGHT", "EQUAL"], p=[0.4, 0.35, 0.25], size=200_000)
    guess = rng.choice(["LEFT", "RIGHT"], size=labels.size)
    assert (guess == labels).mean() == pytest.approx(pref.chance_agreement({"LEFT": 0.4, "RIGHT": 0.35,
                                                                             "EQUAL": 0.25}), abs=0.005)
    with pytest.raises(ValueError, match="sum"):
        pref.chance_agreement({"LEFT": 0.5, "EQUAL": 0.1})


def test_dsharp_irec_bound_matches_the_engine():
    """D#-RBP(p=0.99)@10 cannot overturn a 0.1 difference in I-rec@10; D#-RBP(p=0.85) can."""
    from helpers.measures import diversity

    assert pref.dsharp_irec_bound(0.99, 10, 0.1) == {"max_d_rbp": pytest.approx(1 - 0.99 ** 10), "can_differ": False}
    assert pref.dsharp_irec_bound(0.85, 10, 0.1)["can_differ"]
    # a topic with two intents: SERP a covers both with L1 documents low down, SERP b one intent with L4 on top
    qrels = pd.DataFrame([("q", "i1", f"x{k}", 4) for k in range(10)] + [("q", "i1", "y", 1), ("q", "i2", "z", 1)],
                         columns=["query_id", "intent_id", "doc_id", "relevance"])
    intents = pd.DataFrame({"query_id": "q", "intent_id": ["i1", "i2"], "prob": [0.9, 0.1]})
    run_a = [f"n{k}" for k in range(8)] + ["y", "z"]
    run_b = [f"x{k}" for k in range(10)]
    runs = pd.DataFrame({"run_id": ["a"] * 10 + ["b"] * 10, "query_id": "q", "doc_id": run_a + run_b,
                         "rank": list(range(1, 11)) * 2})
    for norm in ("fixed", "ideal"):
        v = diversity.evaluate(qrels, intents, runs, ["I-rec@10", "D#-RBP(p=0.85)@10", "D#-RBP(p=0.99)@10"],
                               normaliser=norm).pivot(index="measure", columns="run_id", values="value")
        assert v.loc["I-rec@10", "a"] > v.loc["I-rec@10", "b"]
        assert v.loc["D#-RBP(p=0.99)@10", "a"] > v.loc["D#-RBP(p=0.99)@10", "b"]   # the bound holds
        assert v.loc["D#-RBP(p=0.85)@10", "a"] < v.loc["D#-RBP(p=0.85)@10", "b"]   # and can be overturned



def test_assessor_groups_treat_float_noise_as_a_tie():
    """Two MARs that are the same fraction summed in another order differ in the last bits; the
    roles must not depend on that (ties broken by name)."""
    a = sum([1 / 3] * 10 + [1 / 7] * 5) / 15
    b = sum([1 / 7] * 5 + [1 / 3] * 10) / 15
    assert a != b and abs(a - b) < 1e-15
    for x, y in ((a, b), (b, a)):
        g = pref.assessor_groups(pd.Series({"A02": x, "A01": y, "A03": 0.1}))
        assert g["best"] == "A01" and g["worst"] == "A03"


def test_chance_levels_use_each_measures_own_equal_share():
    """A measure that says EQUAL on some pairs has its own chance level (notebook 05's null check:
    I-rec saying EQUAL on a third of the pairs sits near 0.334, not at the never-EQUAL 0.366)."""
    rng = np.random.default_rng(3)
    P, A = 4000, 11
    labels = pd.DataFrame(rng.choice(list(pref.LABELS), p=[0.37, 0.37, 0.26], size=(P, A)),
                          index=pd.Index(range(P), name="pair_id"))
    t = {"never": 0.0, "third": 1 / 3, "always": 1.0}
    prefs = pd.DataFrame({m: np.where(rng.random(P) < s, "EQUAL", rng.choice(["LEFT", "RIGHT"], size=P))
                          for m, s in t.items()}, index=labels.index)
    ch = pref.chance_levels(prefs, labels)
    e = (labels == "EQUAL").to_numpy().mean()
    tt = (prefs == "EQUAL").mean()
    for m in t:   # the formula, with the measure's realised EQUAL share
        assert ch[m] == pytest.approx(tt[m] * e + (1 - tt[m]) * (1 - e) / 2)
    assert ch["never"] == pytest.approx(pref.chance_agreement(
        (labels.stack().value_counts(normalize=True)).to_dict()))
    assert ch["third"] < ch["never"] and ch["always"] == pytest.approx(e)
    # a labeller that ignores the SERPs reaches its own chance level, not the never-EQUAL one
    mar = pref.mean_agreement_rate(pref.agreement_rates(prefs, labels))
    assert np.allclose(mar, ch, atol=0.01)
    assert abs(mar["third"] - ch["never"]) > 0.02


def test_chance_levels_weigh_pairs_equally_with_missing_labels():
    # pair 1: 1 assessor (EQUAL); pair 2: 4 assessors (no EQUAL): per-pair mean e = 0.5, pooled 0.2
    labels = pd.DataFrame([["EQUAL", None, None, None], ["LEFT", "RIGHT", "LEFT", "RIGHT"]],
                          index=pd.Index(["p1", "p2"], name="pair_id"))
    prefs = pd.DataFrame({"m": ["LEFT", "LEFT"]}, index=labels.index)
    assert pref.chance_levels(prefs, labels)["m"] == pytest.approx(0.25)
    with pytest.raises(ValueError, match="same pairs"):
        pref.chance_levels(prefs.iloc[:1], labels)


def test_identical_preferences_groups_measures_that_never_disagree():
    prefs = pd.DataFrame({"a": ["LEFT", "RIGHT", "EQUAL"], "b": ["LEFT", "RIGHT", "EQUAL"],
                          "c": ["LEFT", "LEFT", "EQUAL"], "d": ["LEFT", "RIGHT", "EQUAL"], "e": ["RIGHT", "RIGHT", "LEFT"]})
    assert pref.identical_preferences(prefs) == [["a", "b", "d"]]
    assert pref.identical_preferences(prefs[["c", "e"]]) == []
