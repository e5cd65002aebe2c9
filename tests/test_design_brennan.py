"""Brennan's synthetic data sets No. 3 (p x i x o, crossed) and No. 4 (p x (r:t), nested) as
s x t x a and s x (a:t) G-studies (Brennan, Generalizability Theory, 2001; values as published),
the mean squares cross-checked with statsmodels' ANOVA, and the reductions of the designs.

Fixtures: tests/data/brennan (from GeneralizIT's test fixtures, MIT; see NOTICE.md there).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers.design import d_study, g_study, spearman_brown, topics_needed
from helpers.design.dstudy import error_variance

DATA = Path(__file__).parent / "data" / "brennan"


@pytest.fixture(scope="module")
def no3() -> pd.DataFrame:
    return pd.read_csv(DATA / "synthetic3_p_x_i_x_o.csv", dtype={"score": float})


@pytest.fixture(scope="module")
def no4() -> pd.DataFrame:
    return pd.read_csv(DATA / "synthetic4_p_x_r_in_t.csv", dtype={"score": float})


def test_no3_crossed_components_and_coefficients(no3):
    g = g_study(no3, "s x t x a")
    assert (g.n["s"], g.n["t"], g.n["a"]) == (10, 4, 2)
    got = {k: f"{v:.4f}" for k, v in g.variance.items()}
    assert got == {"s": "0.5528", "t": "0.4417", "a": "0.0074", "st": "0.5750", "sa": "0.1009",
                   "ta": "0.1565", "sta": "0.9352"}
    assert g.negative == {}
    d = d_study(g)
    assert (f"{d.erho2:.2f}", f"{d.phi:.2f}") == ("0.64", "0.55")
    # 8 cells per system: (topics, assessors) = (8, 1), (4, 2), (2, 4)
    got = [f"{d_study(g, t, a).erho2:.3f}" for t, a in ((8, 1), (4, 2), (2, 4))]
    assert got == ["0.656", "0.640", "0.563"]


def test_no4_nested_components_and_coefficients(no4):
    g = g_study(no4, "s x (a:t)")
    assert (g.n["s"], g.n["t"], g.n["a"]) == (10, 3, 4)
    got = {k: f"{v:.4f}" for k, v in g.variance.items()}
    assert got == {"s": "0.4731", "t": "0.3252", "a:t": "0.6475", "st": "0.5596", "sa:t": "2.3802"}
    d = d_study(g)
    assert (f"{d.erho2:.2f}", f"{d.phi:.2f}") == ("0.55", "0.46")


def _statsmodels_ms(long: pd.DataFrame, formula: str) -> dict[str, float]:
    smf = pytest.importorskip("statsmodels.formula.api")
    anova = pytest.importorskip("statsmodels.stats.anova")
    table = anova.anova_lm(smf.ols(formula, data=long).fit(), typ=1)
    return table["mean_sq"].to_dict()


def test_mean_squares_agree_with_statsmodels(no3, no4):
    ms = _statsmodels_ms(no3, "score ~ C(system) * C(topic) + C(system):C(assessor) + C(assessor) "
                              "+ C(topic):C(assessor)")
    g = g_study(no3, "s x t x a")
    for ours, theirs in (("s", "C(system)"), ("t", "C(topic)"), ("a", "C(assessor)"),
                         ("st", "C(system):C(topic)"), ("sa", "C(system):C(assessor)"),
                         ("ta", "C(topic):C(assessor)"), ("sta", "Residual")):
        assert g.mean_squares[ours] == pytest.approx(ms[theirs], rel=1e-10), ours
    # nested raters: their position within the task (labels differ across tasks)
    no4 = no4.assign(slot=no4.groupby("topic")["assessor"].rank(method="dense").astype(int))
    ms = _statsmodels_ms(no4, "score ~ C(system) + C(topic) + C(topic):C(slot) + C(system):C(topic)")
    g = g_study(no4, "s x (a:t)")
    for ours, theirs in (("s", "C(system)"), ("t", "C(topic)"), ("a:t", "C(topic):C(slot)"),
                         ("st", "C(system):C(topic)"), ("sa:t", "Residual")):
        assert g.mean_squares[ours] == pytest.approx(ms[theirs], rel=1e-10), ours


@pytest.mark.parametrize("design, fixture", [("s x t x a", "no3"), ("s x (a:t)", "no4")])
def test_dstudy_at_observed_sizes_is_the_gstudy_coefficient(design, fixture, request):
    """At the G-study's own sizes Erho2 = (MS_s - L_e) / MS_s, the coefficient straight from the
    mean squares (Cronbach's alpha / Hoyt over the topic x assessor cells)."""
    g = g_study(request.getfixturevalue(fixture), design)
    ms = g.mean_squares
    le = ms["st"] + ms["sa"] - ms["sta"] if design == "s x t x a" else ms["st"]
    assert d_study(g).erho2 == pytest.approx((ms["s"] - le) / ms["s"], rel=1e-12)


def test_nested_at_observed_assessors_is_s_x_t_on_assessor_means(no4):
    """s x (a:t) at n'a = n_a is the s x t design of each topic's mean over its assessors:
    same coefficients, same intervals, same topics needed."""
    g = g_study(no4, "s x (a:t)")
    means = no4.groupby(["topic", "system"], sort=False)["score"].mean().unstack("system")
    h = g_study(means, "s x t")
    for level in (.8, .95):
        a, b = d_study(g, 7, level=level), d_study(h, 7, level=level)
        np.testing.assert_allclose([a.erho2, *a.erho2_ci, a.phi, *a.phi_ci],
                                   [b.erho2, *b.erho2_ci, b.phi, *b.phi_ci], rtol=1e-12)
    for coef in ("erho2", "phi"):
        a, b = topics_needed(g, .8, coef), topics_needed(h, .8, coef)
        assert (a.n, a.ci) == (b.n, b.ci)


def test_one_facet_is_spearman_brown(no4):
    """Over topics (and over assessors with one topic) the D-study is Spearman-Brown."""
    g = g_study(no4, "s x (a:t)")
    rho1 = d_study(g, 1, 4).erho2
    for k in (2, 3, 10):
        assert d_study(g, k, 4).erho2 == pytest.approx(spearman_brown(rho1, k), rel=1e-12)
    v = g.variance
    assert d_study(g, 1, 1).erho2 == pytest.approx(v["s"] / (v["s"] + v["st"] + v["sa:t"]))
    # with no topic x system interaction, more assessors per topic is exactly Spearman-Brown
    from helpers.design.planted import planted_g
    p = planted_g({"s": .5, "t": .3, "a:t": .2, "st": 0.0, "sa:t": 2.0}, "s x (a:t)", 10, 1 + 2, 4)
    r1 = d_study(p, 1, 1).erho2
    for k in (2, 5):
        assert d_study(p, 1, k).erho2 == pytest.approx(spearman_brown(r1, k), rel=1e-12)


def test_error_variances_follow_brennan_table(no3):
    g = g_study(no3, "s x t x a")
    v = g.variance
    rel = v["st"] / 5 + v["sa"] / 3 + v["sta"] / 15
    assert error_variance(g, 5, 3) == pytest.approx(rel)
    assert error_variance(g, 5, 3, "absolute") == pytest.approx(rel + v["t"] / 5 + v["a"] / 3 + v["ta"] / 15)


def test_crossed_target_out_of_reach_is_none(no3):
    """sa/n'a does not shrink with topics: with one assessor a high Erho2 is unreachable."""
    g = g_study(no3, "s x t x a")
    v = g.variance
    limit = v["s"] / (v["s"] + v["sa"])
    need = topics_needed(g, min(.999, limit + .01), n_assessors=1)
    assert need.n is None and need.ci[1] is None
    assert topics_needed(g, limit - .05, n_assessors=1).n >= 1
