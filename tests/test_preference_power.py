"""Notebook 05's single-study power row and the D#-RBP / I-rec granularity (literal inputs)."""
import pandas as pd
import pytest

from helpers.preference import dsharp_irec_bound
from helpers.replicates import preference as rep_pref


def test_smallest_gap_reads_the_one_over_n_steps_of_irec():
    # a filter of 0.05 keeps pairs whose I-rec differs by 0.1 at least (steps of 1/10): the bound then holds
    left = pd.DataFrame({"I-rec": [0.5, 0.3, 0.9]}, index=[1, 2, 3])
    right = pd.DataFrame({"I-rec": [0.4, 0.6, 0.7]}, index=[1, 2, 3])
    step = rep_pref.smallest_gap(left, right, "I-rec", 1e-9)
    assert step == pytest.approx(0.1)
    assert not dsharp_irec_bound(0.99, 10, step)["can_differ"]
    assert dsharp_irec_bound(0.99, 10, 0.05)["can_differ"]   # the filter alone would not prove it
    tied = pd.DataFrame({"I-rec": [0.5 + 1e-12, 0.3, 0.9]}, index=[1, 2, 3])
    assert rep_pref.smallest_gap(tied, left, "I-rec", 1e-9) == 0.0   # a tie within the tolerance is a gap of 0
    with pytest.raises(ValueError, match="I-rec"):
        rep_pref.smallest_gap(left.rename(columns={"I-rec": "x"}), right)


def test_power_verdict_and_row_merge_the_one_study_readings():
    from helpers.findings import preference_power as pp
    from helpers.notebook.findings import Finding

    assert pp.power_verdict(["cannot tell", "does not hold"]) == "does not hold"   # the referee's default run
    assert pp.power_verdict(["by construction"]) == "holds"
    assert pp.power_verdict(["by construction", "does not hold"]) == "holds in part"
    assert pp.power_verdict(["cannot tell"]) == "cannot tell" and pp.power_verdict([]) == "cannot tell"
    rows = [Finding("q1", "—", "coverage 35 / 34 of 40 studies", "cannot tell", ("noise_model",), {"powered": {"coverage": {"relevance": "cannot tell"}}}),
            Finding("q2", "—", "position 0 / 0 of 40 studies", "does not hold", ("families",), {})]
    row = pp.power_row(rows, 1127, "this run's study: the HSD leaves 18, 18, 19 of 21 measures unseparated")
    # the power rests on the simulator: the noise-model caveat says so, no second by-construction caveat
    assert row.verdict == "does not hold" and row.caveats == ("noise_model", "families")
    assert row.run == ("Cannot tell: coverage 35 / 34 of 40 studies. Ruled out: position 0 / 0 of 40 studies. "
                       "This run's study: the HSD leaves 18, 18, 19 of 21 measures unseparated")
    assert row.question.startswith("In one study of 1,127 pairs, is each planted family")
    assert pp.power_row([], 1127) is None
    # with the one-study numbers: the counts only, models with equal counts named together, the rule once
    one = {"relevance": {"ahead": 35, "replicates": 40}, "diversity": {"ahead": 34, "replicates": 40}}
    zero = {"relevance": {"ahead": 0, "replicates": 40}, "diversity": {"ahead": 0, "replicates": 40}}
    rows = [Finding("q1", "—", "x", "cannot tell", ("noise_model",), {"one_study": {"coverage": one}}),
            Finding("q2", "—", "y", "does not hold", ("families",),
                    {"one_study": {"position": zero, "graded": zero, "first-hit": zero}})]
    row = pp.power_row(rows, 1127, "this study: 18, 18, 19 of 21 measures in the HSD's top group (relevance, diversity, both)")
    assert row.run == ("Of 40 studies (relevance / diversity): cannot tell: coverage 35 / 34; "
                       "ruled out: position, graded, first-hit 0 / 0 (shown ≥ 38, ruled out ≤ 26). This study: "
                       "18, 18, 19 of 21 measures in the HSD's top group (relevance, diversity, both)")
    from helpers.notebook.findings import words
    assert words(row.run) <= 40
    few = {"relevance": {"ahead": 1, "replicates": 2}}
    assert pp.power_row([Finding("q", "—", "z", "cannot tell", (), {"one_study": {"graded": few}})], 50).run == (
        "Of 2 studies (relevance): cannot tell: graded 1 (no count decides)")
    app = pp.appendix_row(Finding("q", "—", "r", "by construction", ("a",), {}))
    assert app.verdict == "holds" and app.caveats == ("by_construction", "a")
    assert pp.appendix_row(Finding("q", "—", "r", "does not hold", (), {})).verdict == "does not hold"


def test_unseparated_text_counts_each_questions_top_group():
    from helpers.findings import preference_power as pp

    mar = {q: pd.Series({"a": 0.7, "b": 0.65, "c": 0.6}) for q in ("relevance", "diversity")}
    res = {"relevance": pd.DataFrame({"higher": ["a", "a"], "lower": ["b", "c"], "p_value": [0.3, 0.01]}),
           "diversity": pd.DataFrame({"higher": ["a", "a"], "lower": ["b", "c"], "p_value": [0.3, 0.2]})}
    text = pp.unseparated_text(mar, {q: {"result": r} for q, r in res.items()}, [], 0.05)
    assert text == "this study: 2, 3 of 3 measures in the HSD's top group (relevance, diversity)"
    assert pp.unseparated_text({}, {}, [], 0.05) == ""


def test_spread_text_names_the_quantile_range_never_a_95_interval():
    from helpers.findings import preference_power as pp

    assert pp.spread_text(40) == "range of about the middle 38 of 40"
    assert pp.spread_text(200) == "range of about the middle 190 of 200"
    assert pp.spread_text(5) == "range of 5"
