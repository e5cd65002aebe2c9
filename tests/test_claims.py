"""The claims vocabulary: words from one declared rule, the numbers beside them, and the audit."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from helpers.notebook import claims
from helpers.replicates import runner
from helpers.stats import summary


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_share_word_follows_the_declared_scale(kn):
    k, n = kn
    s = k / n
    word = claims.share_word(k, n)
    expected = ("all" if k == n else "none" if k == 0 else "nearly all" if s >= 0.9 else "most" if s >= 0.75
                else "a majority" if s > 0.5 else "about half" if s >= 0.45 else "a minority")
    assert word == expected
    if s <= 0.5:
        assert word not in ("most", "a majority", "nearly all", "all")
    c = claims.share(k, n, "draws")
    assert c.numbers["k"] == k and c.numbers["n"] == n and c.numbers["word"] == word
    if n > 1:
        assert f"({k:,} of {n:,}," in c.text      # the counts are always printed beside the word
    else:
        assert "(" not in c.text                  # a share over one case is no share (issue 41, item 4)
    assert claims.audit(c.text) == []
    assert claims.audit(claims.holds(k, n).text) == []


def test_share_phrases():
    assert claims.holds(16, 20).text == "in most draws (16 of 20, 80%)"
    assert claims.holds(10, 20).text == "in about half of the draws (10 of 20, 50%)"
    assert claims.share(11, 20, "cells").text == "a majority of the cells (11 of 20, 55%)"
    assert claims.share(0, 20, "cells").text == "no cells (0 of 20, 0%)"
    assert claims.audit("most of the cells (11 of 20, 55%)")  # the audit reads the "of" form too
    assert claims.holds(0, 5, "replicates").text == "in no replicate (0 of 5, 0%)"
    assert claims.share(20, 20, "draws").text == "all 20 draws (20 of 20, 100%)"
    assert claims.share(1999, 2000).text == "nearly all (1,999 of 2,000, 99.95%)"   # never "100%" below all
    assert claims.share(1998, 2000).text == "nearly all (1,998 of 2,000, 99.9%)"
    assert claims.share(1, 2000).text == "a minority (1 of 2,000, 0.1%)"
    with pytest.raises(ValueError):
        claims.share(3, 2)


def test_share_word_holds_over_the_whole_printed_range():
    # a range that reaches below one half (45.3%-56.4%) or spans 0-100% gets no word; one inside a word keeps it
    assert claims.share(135, 206, within=(0.601, 0.685)).text == "a majority (135 of 206, 65.5%)"
    assert claims.share(105, 201, within=(0.453, 0.564)).text == "105 of 201 (52.2%)"
    assert claims.share(3, 5, "pairs", within=(0.0, 1.0)).text == "3 of 5 pairs (60%)"
    c = claims.share(16, 20, within=(0.7, 0.85))
    assert c.text == "16 of 20 (80%)" and c.numbers["word"] is None and c.numbers["within"] == (0.7, 0.85)
    assert claims.share(16, 20, "draws", within=(0.8, 0.8)).text == claims.share(16, 20, "draws").text
    assert claims.audit(claims.share(105, 201, within=(0.453, 0.564)).text) == []
    with pytest.raises(ValueError):
        claims.share(3, 5, within=(0.7, 0.2))


@given(st.floats(0, 1, allow_nan=False), st.sampled_from([0.05, 0.01, 0.1, 0.001]))
def test_printed_p_value_never_contradicts_the_call(p, alpha):
    text = claims.format_p(p, alpha)
    if text.startswith("<"):
        assert p < 0.001 <= alpha
    else:
        shown = float(text)
        assert (shown < alpha) == (p < alpha)
        assert shown != alpha or p == alpha
    assert claims.p_value(p, alpha).numbers["significant"] == (p < alpha)


def test_p_value_examples():
    assert claims.format_p(0.04999) == "0.04999"     # not "0.050", which reads as not significant
    assert claims.format_p(0.05) == "0.0500000000" or float(claims.format_p(0.05)) == 0.05
    assert claims.format_p(0.0501) == "0.0501"
    assert claims.format_p(0.031) == "0.031"
    assert claims.format_p(0.0002) == "< 0.001"
    assert claims.p_value(0.04999).text == "p = 0.04999, significant at α = 0.05"


def test_interval_rule_is_stated_once():
    assert summary.min_draws(0.95) == 40 and summary.min_draws(0.9) == 20
    few = claims.interval([0.1, 0.5, 0.3, 0.2, 0.4])
    assert few.numbers["kind"] == "range" and "range 0.100 to 0.500 over 5 draws" in few.text
    assert "95%" not in few.text
    many = claims.interval(np.linspace(0, 1, 40))
    assert many.numbers["kind"] == "percentile" and "95% interval over 40 draws" in many.text
    assert claims.audit(few.text) == [] and claims.audit(many.text) == []


def test_summarise_uses_the_range_below_the_rule():
    import pandas as pd

    df = pd.DataFrame({"replicate": range(5), "v": [3.0, 1.0, 2.0, 5.0, 4.0]})
    row = runner.summarise(df, "v").iloc[0]
    assert (row["low"], row["high"], row["interval"]) == (1.0, 5.0, "range")
    df = pd.DataFrame({"replicate": range(40), "v": np.arange(40.0)})
    row = runner.summarise(df, "v").iloc[0]
    assert row["interval"] == "95% interval"
    assert row["low"] == pytest.approx(np.quantile(np.arange(40.0), 0.025))


def test_leaders_name_every_tie_and_every_value_within_noise():
    c = claims.leaders({"D-Q": 0.5814, "D-RBP": 0.5812, "I-rec": 0.40})
    assert c.numbers["leaders"] == ["D-Q", "D-RBP"] and c.text == "D-Q and D-RBP (tied at 0.581 to 3 decimals)"
    assert claims.leaders({"a": 0.25, "b": 0.25, "c": 0.1}).text == "a and b (tied at 0.250)"  # exactly equal
    c = claims.leaders({f"m{i}": 1.0 for i in range(14)})
    assert c.text == "all 14 tie at 1.000"
    c = claims.leaders({"a": 0.62, "b": 0.60, "c": 0.50}, intervals={"a": (0.58, 0.66), "b": (0.57, 0.63),
                                                                       "c": (0.45, 0.55)})
    assert c.numbers["leaders"] == ["a"] and c.numbers["within_noise"] == ["b"]
    assert c.text == "a (0.620; within noise: b 0.600)"
    assert claims.leaders({"a": 1.0, "b": 2.0}, higher=False).numbers["leaders"] == ["a"]
    assert claims.leaders({"a": float("nan"), "b": 2.0}).numbers["leaders"] == ["b"]


@settings(max_examples=200)
@given(st.dictionaries(st.sampled_from(list("abcdefgh")), st.floats(0, 1, allow_nan=False), min_size=1))
def test_no_leader_is_picked_out_of_a_printed_tie(values):
    c = claims.leaders(values)
    best = max(values.values())
    tied = {k for k, v in values.items() if f"{v:.3f}" == f"{best:.3f}"}
    assert set(c.numbers["leaders"]) == tied


def test_compare_says_no_difference_when_intervals_overlap_or_the_test_does_not_reject():
    c = claims.compare("PRM", 0.934, "binary", 0.916, interval_a=(0.884, 0.984), interval_b=(0.858, 0.974))
    assert c.numbers["differs"] is False and c.text.startswith("no difference shown")
    c = claims.compare("PRM", 0.934, "binary", 0.916, p=0.03)
    assert c.numbers["differs"] is True and "PRM (0.934) is higher than binary (0.916)" in c.text
    c = claims.compare("a", 1, "b", 2, p=0.2)
    assert c.text.startswith("no difference shown") and "not significant" in c.text


def test_trend_and_ratio():
    assert claims.trend([5, 10, 20], [9.0, 6.5, 1.0], x_name="N").text == "decreases as N grows"
    assert claims.trend([5, 10, 20], [9.0, 9.5, 1.0]).numbers["word"] == "does not move monotonically"
    assert claims.trend([5, 10], [1.0, 1.0]).text == "does not change"
    # flat steps at the printed precision are named, not folded into "increases"
    assert (claims.trend([5, 10, 20, 40, 80], [0.5, 0.8, 0.95, 0.99996, 1.0], x_name="N").text
            == "increases as N grows up to N = 40, then stays at 1.000 (to 3 decimals)")
    assert (claims.trend([5, 10, 20, 40], [0.0, 0.0, 0.1, 0.5], x_name="N").text
            == "stays at 0.000 up to N = 10, then increases as N grows (to 3 decimals)")
    c = claims.trend([5, 10, 20, 40, 80], [0.0, 0.2, 0.2, 0.5, 0.9], x_name="N")
    assert c.text == "never decreases as N grows (flat in places)" and c.numbers["word"] == "does not decrease"
    assert claims.ratio(5.2, 2.0).text == "2.6 times"


@pytest.mark.parametrize("bad", [
    "holds in most draws (10 of 20, 50%)",
    "the leader in a majority of replicates (3 of 6, 50%)",
    "PRM wins in most draws, 50% of them",
    "mean 0.41 [0.30, 0.52] (95% interval over 5 replicates)",
    "p = 0.050 at α = 0.05",
    "tau 0.9 [0.95, 0.91]",
])
def test_audit_finds_each_broken_rule(bad):
    assert claims.audit(bad), bad


def test_audit_passes_what_the_vocabulary_writes():
    text = " ".join(str(c) for c in [
        claims.holds(18, 20), claims.interval(np.arange(50.0)), claims.interval([1.0, 2.0]),
        claims.p_value(0.04999), claims.leaders({"a": 1.0, "b": 1.0, "c": 0.2}),
        claims.compare("a", 0.9, "b", 0.8, interval_a=(0.85, 0.95), interval_b=(0.7, 0.84))])
    assert claims.audit(text) == []
    assert math.isfinite(claims.ratio(1, 3).numbers["ratio"])


def test_audit_reads_no_noun_as_none():
    """share() writes a zero share as "no runs (0 of 4, 0%)": the audit reads that "no" as "none",
    not as the share word of an earlier phrase within reach."""
    text = f"theta = 3: {claims.share(4, 4, 'runs')}, theta = 2: {claims.share(0, 4, 'runs')}"
    assert claims.audit(text) == []
    assert claims.audit("theta = 3: all 4 runs (4 of 4, 100%), theta = 2: no runs (1 of 4, 25%)")


def test_a_bound_never_prints_as_a_mark_it_does_not_reach():
    assert claims.number(0.99996) == "0.99996" and claims.number(1.0) == "1.000"
    assert claims.number(0.00002) == "0.00002" and claims.number(0.5) == "0.500"
    c = claims.interval(mean=0.97, low=0.954, high=0.99996, n=50)
    assert "[0.954, 0.99996]" in c.text


def test_a_mean_outside_its_percentile_interval_is_said_to_be():
    c = claims.interval(mean=0.999, low=1.0, high=1.0, n=50)
    assert "the mean lies outside the interval" in c.text
    assert "outside" not in claims.interval(mean=0.99, low=0.98, high=1.0, n=50).text


def test_within_noise_is_judged_against_every_tied_leader():
    values = {"a": 0.40, "b": 0.40, "c": 0.30}
    intervals = {"a": (0.39, 0.41), "b": (0.25, 0.45), "c": (0.2, 0.35)}
    c = claims.leaders(values, intervals=intervals, digits=2)
    assert set(c.numbers["leaders"]) == {"a", "b"} and c.numbers["within_noise"] == ["c"]


def test_bracket_prints_bounds_honestly_and_flags_a_mean_outside():
    assert claims.bracket(0.52, 0.41, 0.63) == "0.520 [0.410, 0.630]"
    text = claims.bracket(0.9995, 1.0, 1.0)
    assert text.startswith("0.9995 [1.000, 1.000]") and "the mean lies outside the interval" in text
    assert claims.bracket(0.99996, 0.9, 1.0).startswith("0.99996 [")  # never "1.000" for a value below 1
    assert claims.bracket(float("nan"), 0.1, 0.2) == "n/a [0.100, 0.200]"
    assert not claims.audit(text)


def test_bracket_of_a_full_data_estimate_says_the_bootstrap_is_biased_not_the_mean():
    text = claims.bracket(0.964, 0.673, 0.927, estimate=True)
    assert text == ("0.964 [0.673, 0.927] (the estimate lies outside its bootstrap percentile interval: "
                    "the bootstrap is biased here)")
    assert claims.bracket(0.8, 0.673, 0.927, estimate=True) == "0.800 [0.673, 0.927]"
    assert claims.outside(0.964, 0.673, 0.927) and not claims.outside(0.9, 0.673, 0.927)
    assert not claims.outside(float("nan"), 0.1, 0.2)
    assert not claims.audit(text)


def test_compare_holm_words_by_the_adjusted_p_and_names_the_family():
    tests = {3: dict(a_name="PRM", a=0.929, b_name="binary", b=0.824, p=0.009),
             2: dict(a_name="PRM", a=0.938, b_name="binary", b=0.905, p=0.098),
             1: dict(a_name="PRM", a=0.967, b_name="binary", b=0.925, p=0.030)}
    got = claims.compare_holm(tests, family="thresholds")
    assert got[3].numbers["p_holm"] == pytest.approx(0.027) and got[3].numbers["m"] == 3
    assert got[3].numbers["differs"] and "Holm-adjusted p = 0.027 over 3 thresholds, significant" in got[3].text
    assert "unadjusted p = 0.009" in got[3].text
    # 0.030 alone would be significant; Holm over three makes it 2 x 0.030 = 0.060
    assert not got[1].numbers["differs"] and got[1].text.startswith("no difference shown")
    two = claims.compare_holm({k: tests[k] for k in (3, 2)}, family="thresholds")
    assert two[3].numbers["p_holm"] == pytest.approx(0.018)
    one = claims.compare_holm({3: tests[3]}, family="thresholds")
    assert "over 1 threshold," in one[3].text and one[3].numbers["p_holm"] == pytest.approx(0.009)
    assert not claims.audit(" ".join(c.text for c in got.values()))


def test_components_never_says_holds_when_a_part_goes_the_other_way():
    lower = claims.compare("real", 0.15, "uniform", 0.47, interval_a=(0.15, 0.15), interval_b=(0.40, 0.53))
    fewer = claims.compare("real", 0.305, "uniform", 0.438, interval_a=(0.305, 0.305), interval_b=(0.374, 0.494))
    more = claims.compare("real", 0.6, "uniform", 0.438, interval_a=(0.6, 0.6), interval_b=(0.374, 0.494))
    noise = claims.compare("real", 0.45, "uniform", 0.438, interval_a=(0.45, 0.45), interval_b=(0.374, 0.494))
    c = claims.components({"D = Dmax less often": (lower, "lower"), "more ties broken": (fewer, "higher")})
    assert c.numbers["verdict"] == "partly" and "holds only in part" in c.text
    assert "goes the other way for more ties broken" in c.text and c.numbers["parts"]["more ties broken"] == "other way"
    ok = claims.components({"D = Dmax less often": (lower, "lower"), "more ties broken": (more, "higher")})
    assert ok.numbers["verdict"] == "holds" and ok.text.startswith("the premise holds for every part")
    assert claims.components({"a": (noise, "higher")}).numbers["verdict"] == "not shown"
    assert claims.components({"a": (fewer, "higher")}).numbers["verdict"] == "fails"
    with pytest.raises(ValueError, match="expected"):
        claims.components({"a": (lower, "up")})


def test_share_of_counts_nothing_in_words_and_takes_the_noun_in_its_number():
    assert claims.share_of(1, 1, "discrepancy", "discrepancies").text == "the one discrepancy"
    assert claims.share_of(0, 1, "cell").text == "no cell"
    assert claims.holds(0, 1, "real sets").text == "not in the one real set"
    assert claims.share_of(3, 4, "cell").text == claims.share(3, 4, "cells").text
    c = claims.share_of(0, 0, "cell")
    assert c.text == "no cells to count" and c.numbers["word"] == "nothing" and not claims.audit(c.text)
    assert claims.share_of(0, 0, "cell", nothing="no graded measure").text == "no graded measure"
    with pytest.raises(ValueError):
        claims.share_of(1, 0, "cell")


def test_a_bound_that_is_not_zero_never_prints_as_zero():
    c = claims.mean_ci(0.0014, 0.00016, 0.0027, 20)
    assert "[+0.0002, +0.003]" in c.text
    assert "-4.0e-07" in claims.mean_ci(-0.001, -0.003, -0.0000004, 20).text
    assert "[+0.000, +0.000]" in claims.mean_ci(0.0, 0.0, 0.0, 20).text       # true zeros stay zeros
    d = claims.paired_difference("a", "b", [0.0003, 0.0001, 0.0002, 0.0002])
    assert not re.search(r"[+-]0\.000(?!\d)", d.text) and d.numbers["differs"]


def test_share_percentages_are_never_rounded_to_a_whole_number():
    """189 of 200 prints as 94.5%, not as the 94% a half-even rounding gives (a referee read it as
    a rounding of the count); whole percentages stay whole."""
    assert claims.share(189, 200, "pilots").text == "nearly all pilots (189 of 200, 94.5%)"
    assert claims.share(7, 8).text == "most (7 of 8, 87.5%)"
    assert claims.share(16, 20).text == "most (16 of 20, 80%)"
