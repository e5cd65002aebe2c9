"""Tests for helpers.preference.recovery: one study's reading of a measure family (first by MAR, and
significantly first by Tukey's HSD with topics as blocks).

Expected values are computed by hand in the comments, or with scipy's studentized range directly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import studentized_range

from helpers import stats
from helpers.preference import recovery

L, R, E = "LEFT", "RIGHT", "EQUAL"


def test_distinct_measures_keep_a_family_member_for_its_group():
    prefs = pd.DataFrame({"I-rec": [L, R, L], "D#-RBP": [L, R, L], "D#-Q": [L, L, R], "alpha": [R, R, L]})
    assert recovery.distinct_measures(prefs) == ["I-rec", "D#-Q", "alpha"]
    # the group is kept by its family member even when another name comes first
    assert recovery.distinct_measures(prefs[["D#-RBP", "I-rec", "D#-Q"]], prefer=["I-rec"]) == ["I-rec", "D#-Q"]
    # known groups are used as given (names not in prefs ignored)
    assert recovery.distinct_measures(prefs, groups=[["D#-Q", "alpha", "gone"]]) == ["I-rec", "D#-RBP", "D#-Q"]


def test_blocked_tukey_by_hand():
    # 3 topics x 3 measures; means a 0.6, b 0.4, c 0.3; residuals of the two-way ANOVA without replication:
    # x - row mean - column mean + grand mean
    per_topic = pd.DataFrame({"a": [0.7, 0.5, 0.6], "b": [0.4, 0.4, 0.4], "c": [0.2, 0.3, 0.4]})
    x = per_topic.to_numpy()
    resid = x - x.mean(1, keepdims=True) - x.mean(0) + x.mean()
    ve = (resid ** 2).sum() / ((3 - 1) * (3 - 1))
    assert stats.residual_variance(per_topic) == pytest.approx(ve)
    q, p = recovery.blocked_tukey(per_topic, "a", ["b", "c"])
    assert q == pytest.approx(0.2 / np.sqrt(ve / 3))
    assert p == pytest.approx(studentized_range.sf(q, 3, 4))
    # not ahead of the best other: p = 1
    assert recovery.blocked_tukey(per_topic, "b", ["a", "c"])[1] == 1.0
    # below the critical value at infinite df, the exact tail is skipped (p > 0.05 for every df)
    small = per_topic.assign(a=[0.45, 0.40, 0.44])
    q_s, p_s = recovery.blocked_tukey(small, "a", ["b", "c"], significance=0.05)
    assert np.isnan(p_s) and recovery.blocked_tukey(small, "a", ["b", "c"])[1] > 0.05
    # a residual variance of 0 with a lead: p = 0; one topic: nothing to test
    exact = pd.DataFrame({"a": [0.7, 0.6], "b": [0.5, 0.4]})
    assert recovery.blocked_tukey(exact, "a", ["b"]) == (float("inf"), 0.0)
    assert all(np.isnan(recovery.blocked_tukey(per_topic.iloc[:1], "a", ["b"])))


@pytest.mark.parametrize("seed,p_classic", [(1, 0.6739), (3, 0.0131)])
def test_blocked_tukey_agrees_with_the_randomised_test(seed, p_classic):
    """The exact studentized range stands in for the randomised Tukey HSD's trials: on a topics x
    systems table like a study's (90 topics, 12 measures, one leading by 0.03, the rest within noise)
    the leader-vs-runner-up p-values agree within the Monte Carlo error, the classical one no larger."""
    rng = np.random.default_rng(seed)
    T, k = 90, 12
    eff = np.r_[0.03, np.zeros(k - 1)] + rng.normal(0, 0.002, k)
    per_topic = pd.DataFrame(rng.normal(0, 0.05, (T, 1)) + rng.normal(0, 0.06, (T, k)) + eff,
                             columns=[f"m{j}" for j in range(k)])
    others = [f"m{j}" for j in range(1, k)]
    q, p = recovery.blocked_tukey(per_topic, "m0", others)
    assert p == pytest.approx(p_classic, abs=1e-4)
    res = stats.randomised_tukey_hsd(per_topic, B=4000, rng=np.random.default_rng(1))
    b = per_topic.mean()[others].idxmax()
    row = res[((res.system_a == "m0") & (res.system_b == b)) | ((res.system_b == "m0") & (res.system_a == b))]
    p_rand = float(row.p_value.iloc[0])
    assert abs(p - p_rand) < 0.03 and p <= p_rand + 0.01, (p, p_rand)


def test_single_study_first_and_significantly_ahead():
    # 4 pairs of 2 topics; the family {a} leads b by 0.25 in MAR; b's twin c enters once
    idx = pd.Index(["p1", "p2", "p3", "p4"], name="pair_id")
    rates = pd.DataFrame({"a": [0.9, 0.8, 0.9, 0.8], "b": [0.6, 0.6, 0.6, 0.6], "c": [0.6, 0.6, 0.6, 0.6]}, index=idx)
    prefs = pd.DataFrame({"a": [L, L, R, R], "b": [L, R, R, E], "c": [L, R, R, E]}, index=idx)
    topics = pd.Series(["t1", "t1", "t2", "t2"], index=idx)
    s = recovery.single_study(rates, prefs, topics, ["a"], 0.05)
    assert (s["best_in"], s["best_out"], s["measures"], s["topics"]) == ("a", "b", 2, 2)
    assert s["lead"] == pytest.approx(0.25) and s["first"]
    # topic means a 0.85, 0.85; b 0.6, 0.6: no residual variance, so the lead is significant
    assert s["ahead"] and s["p"] == 0.0
    behind = recovery.single_study(rates, prefs, topics, ["b"], 0.05)
    assert behind["best_in"] == "b" and not behind["first"] and not behind["ahead"] and behind["p"] == 1.0
    assert recovery.single_study(rates, prefs, topics, ["a", "b", "c"], 0.05) is None   # nothing outside


def test_critical_q_is_the_studentized_range_at_infinite_df():
    assert recovery.critical_q(21, 0.05) == pytest.approx(studentized_range.ppf(0.95, 21, np.inf))
    assert 4.9 < recovery.critical_q(21, 0.05) < 5.1   # Tukey's table: q(0.05; 20, inf) = 5.01, 21 a little above
    # finite degrees of freedom only raise it: a study of 94 topics x 21 measures needs more
    assert studentized_range.ppf(0.95, 21, 93 * 20) > recovery.critical_q(21, 0.05)
