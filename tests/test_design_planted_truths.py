"""Rows of a simulated pilot decided by the planted components (findings.design_rule.planted_truths)."""

import pytest

from helpers.findings.design_rule import planted_truths

DEFAULT = {"s": 0.010, "t": 0.020, "a:t": 0.015, "st": 0.010, "sa:t": 0.020}


def test_default_components():
    t = planted_truths(DEFAULT, "s x (a:t)", n_a=3, target=0.95, ratio=10 / 3)
    assert t["break_even"][2] == pytest.approx(2 * 0.010 / 0.020)        # 2 st / sa:t = 1.0
    assert t["break_even"][0] == "does not hold" and "1" in t["break_even"][1]
    assert t["conservative"][2] == pytest.approx(0.020 + 0.015 / 3)
    assert t["conservative"][0] == "holds"
    assert planted_truths(DEFAULT, "s x (a:t)", n_a=3, target=0.95, ratio=0.5)["break_even"][0] == "holds"


def test_zero_components_decide_otherwise():
    v = {**DEFAULT, "t": 0.0, "a:t": 0.0, "st": 0.0}
    t = planted_truths(v, "s x (a:t)", n_a=2, target=0.9, ratio=3.0)
    assert t["conservative"][0] == "cannot tell" and t["conservative"][2] == 0
    assert t["break_even"][2] == 0 and t["break_even"][0] == "does not hold"


def test_crossed_uses_ta_and_none_without_components():
    v = {"s": 0.01, "t": 0.0, "a": 0.01, "st": 0.01, "sa": 0.001, "ta": 0.006, "sta": 0.02}
    t = planted_truths(v, "s x t x a", n_a=3, target=0.9, ratio=3.0)
    assert t["conservative"][2] == pytest.approx(0.006 / 3)
    assert planted_truths(None, "s x (a:t)", n_a=3, target=0.9, ratio=3.0) == {}


def test_coverage_verdict_reads_the_bonferroni_interval_over_the_runs_checks():
    from helpers.findings.design import _planted_rows
    cov = {"covered": 90, "pilots": 100, "level": 0.95, "true_n": 40}
    power = {"experiments": 0}
    alone, _ = _planted_rows({"erho2": {**cov, "verdict_level": 0.95}, "t": {**cov, "true_n": None}, "power": power},
                             0.9, 1, False)
    assert alone[0].verdict == "does not hold" and alone[0].run.startswith("under-covers")   # Wilson 95% [82.6%, 94.5%]
    three, _ = _planted_rows({"erho2": {**cov, "verdict_level": 1 - 0.05 / 3}, "t": {**cov, "true_n": None},
                              "power": power}, 0.9, 1, False)
    assert three[0].verdict == "by construction" and three[0].run.startswith("covers at 95% within noise")
    assert "bonferroni" in three[0].caveats
