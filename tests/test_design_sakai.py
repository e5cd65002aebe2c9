"""Topic-set-size design (Sakai, IRJ 2016; book 2018): the published sizes, the exact sizes
against statsmodels' power classes, the properties n must have, the pilot variance, bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as hs

from helpers.design import pilot_variance, power, topic_set_size, topic_set_size_interval
from helpers.design.sakai import PilotVariance

smp = pytest.importorskip("statsmodels.stats.power")


# --- the table of STUDY-DESIGN notes (alpha = .05, beta = .20) ------------------------------------
# sigma2 is the within-system variance: the paired methods use sigma_t^2 = 2 sigma2, so the rows
# "sigma_t^2 = .10" pass sigma2 = .05.

@pytest.mark.parametrize("kwargs, approx, exact", [
    (dict(method="t", sigma2=.05, min_diff=.05), 316, 316),
    (dict(method="t", sigma2=.025, min_diff=.10), 42, 42),
    (dict(method="anova", sigma2=.10, min_diff=.10, n_systems=10), 313, 314),
    (dict(method="anova", sigma2=.10, min_diff=.05, n_systems=2), 614, 629),
    (dict(method="ci", sigma2=.05, width=.10), 156, 156),
])
def test_published_topic_set_sizes(kwargs, approx, exact):
    method = kwargs.pop("method")
    assert topic_set_size(method, exact=False, **kwargs) == approx
    assert topic_set_size(method, exact=True, **kwargs) == exact


def test_anova_approximation_gives_fewer_topics_at_two_systems():
    """The approximation gives 614 where the exact F (= the two-sample t) needs 629: 2.4% fewer."""
    a = topic_set_size("anova", sigma2=.1, min_diff=.05, n_systems=2)
    e = topic_set_size("anova", sigma2=.1, min_diff=.05, n_systems=2, exact=True)
    assert round(100 * (e - a) / e, 1) == 2.4


# --- exact sizes vs statsmodels -----------------------------------------------------------------

GRID = [(s2, d, a, b) for s2 in (.01, .05, .2) for d in (.05, .1, .2) for a in (.01, .05) for b in (.1, .2)]


@pytest.mark.parametrize("sigma2, d, alpha, beta", GRID)
def test_exact_t_agrees_with_statsmodels(sigma2, d, alpha, beta):
    paired = smp.TTestPower().solve_power(effect_size=d / math.sqrt(2 * sigma2), alpha=alpha, power=1 - beta)
    unpaired = smp.TTestIndPower().solve_power(effect_size=d / math.sqrt(sigma2), alpha=alpha, power=1 - beta)
    n_p = topic_set_size("t", sigma2=sigma2, min_diff=d, alpha=alpha, beta=beta, exact=True)
    n_u = topic_set_size("t", sigma2=sigma2, min_diff=d, alpha=alpha, beta=beta, exact=True, paired=False)
    assert n_p == max(2, math.ceil(paired - 1e-9))
    assert n_u == max(2, math.ceil(unpaired - 1e-9))


@pytest.mark.parametrize("m", [2, 3, 5, 10, 20])
@pytest.mark.parametrize("sigma2, d", [(.1, .1), (.05, .2), (.2, .05)])
def test_exact_anova_agrees_with_statsmodels(m, sigma2, d):
    """statsmodels' nobs is the total over the m groups; the effect is Cohen's f of Sakai's worst
    case (two systems +-minD/2 from the others): f^2 = minD^2 / (2 m sigma2)."""
    f = math.sqrt(d * d / (2 * m * sigma2))
    total = smp.FTestAnovaPower().solve_power(effect_size=f, alpha=.05, power=.8, k_groups=m)
    assert topic_set_size("anova", sigma2=sigma2, min_diff=d, n_systems=m, exact=True) == math.ceil(total / m - 1e-9)


@settings(max_examples=40, deadline=None)
@given(sigma2=hs.floats(.005, .5), d=hs.floats(.02, .5), alpha=hs.sampled_from([.01, .05, .1]),
       beta=hs.sampled_from([.1, .2, .3]))
def test_anova_with_two_systems_is_the_two_sample_t(sigma2, d, alpha, beta):
    kw = dict(sigma2=sigma2, min_diff=d, alpha=alpha, beta=beta, exact=True)
    assert topic_set_size("anova", n_systems=2, **kw) == topic_set_size("t", paired=False, **kw)


@settings(max_examples=40, deadline=None)
@given(s2=hs.floats(.005, .3), factor=hs.floats(1.0, 3.0), d=hs.floats(.03, .3),
       method=hs.sampled_from(["t", "anova", "ci"]), exact=hs.booleans(), paired=hs.booleans())
def test_n_grows_with_sigma2_and_shrinks_with_min_diff(s2, factor, d, method, exact, paired):
    if method == "anova":
        kw, paired = dict(min_diff=d, n_systems=5), True
    else:
        kw = dict(width=d) if method == "ci" else dict(min_diff=d)
    kw.update(exact=exact, paired=paired)
    n = topic_set_size(method, sigma2=s2, **kw)
    assert topic_set_size(method, sigma2=s2 * factor, **kw) >= n
    key = "width" if method == "ci" else "min_diff"
    assert topic_set_size(method, sigma2=s2, **{**kw, key: d * factor}) <= n


@pytest.mark.parametrize("method, kw", [("t", dict(min_diff=.07)), ("anova", dict(min_diff=.1, n_systems=4))])
@pytest.mark.parametrize("exact", [False, True])
def test_n_is_the_smallest_with_enough_power(method, kw, exact):
    n = topic_set_size(method, sigma2=.08, exact=exact, **kw)
    assert power(method, n, sigma2=.08, exact=exact, **kw) >= .8 > power(method, n - 1, sigma2=.08, exact=exact, **kw)


def test_approximate_power_is_close_to_the_exact():
    for n in (10, 50, 200):
        a = power("t", n, sigma2=.05, min_diff=.05)
        e = power("t", n, sigma2=.05, min_diff=.05, exact=True)
        assert abs(a - e) < .01


def test_interval_of_n_follows_the_interval_of_sigma2():
    pv = PilotVariance("E1", .05, 100, .95, (.04, .07), None)
    n, lo, hi = topic_set_size_interval("t", pv, min_diff=.05)
    assert (n, lo, hi) == tuple(topic_set_size("t", sigma2=v, min_diff=.05) for v in (.05, .04, .07))
    assert lo < n < hi
    assert topic_set_size_interval("ci", (.05, .04, .07), width=.1) == tuple(
        topic_set_size("ci", sigma2=v, width=.1) for v in (.05, .04, .07))


# --- pilot variance -----------------------------------------------------------------------------

def _pilot(seed, n=20, m=5):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.random((n, m)) * .3 + rng.random((n, 1)) * .5 + np.linspace(0, .2, m),
                        index=[f"q{i}" for i in range(n)], columns=[f"r{j}" for j in range(m)])


def test_pilot_variances_by_hand_and_pooled():
    a, b = _pilot(1), _pilot(2, n=30, m=4)
    x = a.to_numpy()
    v1 = ((x - x.mean(axis=0)) ** 2).sum() / (5 * 19)
    assert pilot_variance(a).value == pytest.approx(v1) and pilot_variance(a).df == 95
    # V_E2 is the two-way residual: the same as helpers.stats' (checked there against statsmodels)
    from helpers import stats
    assert pilot_variance(a, "E2").value == pytest.approx(stats.residual_variance(a))
    both = pilot_variance([a, b], "E2")
    va, vb = pilot_variance(a, "E2"), pilot_variance(b, "E2")
    assert both.df == va.df + vb.df == 4 * 19 + 3 * 29
    assert both.value == pytest.approx((va.value * va.df + vb.value * vb.df) / both.df)


def test_chi2_interval_covers_at_its_level():
    """Normal, independent scores: the chi^2 interval of V_E1 covers sigma^2 about 95% of the time."""
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(400):
        pv = pilot_variance(rng.normal(0, .2, (15, 6)))
        hits += pv.chi2_ci[0] <= .04 <= pv.chi2_ci[1]
    assert .92 <= hits / 400 <= .98


def test_topic_bootstrap_is_reproducible_and_needs_an_rng():
    a = _pilot(3)
    one = pilot_variance(a, rng=np.random.default_rng(5), n_boot=200)
    two = pilot_variance(a, rng=np.random.default_rng(5), n_boot=200)
    assert one.boot_ci == two.boot_ci and one.boot_ci[0] < one.value < one.boot_ci[1]
    assert pilot_variance(a).boot_ci is None
    assert "no bootstrap" in str(pilot_variance(a))


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    (dict(method="z", sigma2=.1, min_diff=.1), "method must be one of"),
    (dict(method="t", sigma2=-.1, min_diff=.1), "sigma2 must be a positive finite number"),
    (dict(method="t", sigma2=.1), "min_diff must be a positive number"),
    (dict(method="t", sigma2=.1, min_diff=0), "min_diff must be a positive finite number"),
    (dict(method="t", sigma2=.1, min_diff=.1, alpha=1.5), "alpha must be strictly between 0 and 1"),
    (dict(method="t", sigma2=.1, min_diff=.1, beta=0), "beta must be strictly between 0 and 1"),
    (dict(method="t", sigma2=.1, min_diff=.1, n_systems=3), "n_systems is for the ANOVA method only"),
    (dict(method="t", sigma2=.1, width=.1, min_diff=.1), "width= is for the CI method"),
    (dict(method="anova", sigma2=.1, min_diff=.1), "needs n_systems"),
    (dict(method="anova", sigma2=.1, min_diff=.1, n_systems=1), "needs n_systems"),
    (dict(method="anova", sigma2=.1, min_diff=.1, n_systems=3, paired=False), "independent groups"),
    (dict(method="ci", sigma2=.1, min_diff=.1), "takes width= only"),
    (dict(method="ci", sigma2=.1), "width must be a positive number"),
    (dict(method="t", sigma2=.1, min_diff=.1, exact="yes"), "exact must be True or False"),
    (dict(method="t", sigma2=1e6, min_diff=1e-6), "more than 10,000,000 topics"),
])
def test_topic_set_size_refuses_bad_input(kwargs, message):
    method = kwargs.pop("method")
    with pytest.raises(ValueError, match=message):
        topic_set_size(method, **kwargs)


def test_pilot_variance_refuses_bad_input():
    with pytest.raises(ValueError, match="method must be one of"):
        pilot_variance(_pilot(1), "E3")
    bad = _pilot(1)
    bad.iloc[3, 2] = np.nan
    with pytest.raises(ValueError, match="q3"):
        pilot_variance(bad)
    with pytest.raises(ValueError, match="pilot 1: .*at least 2 topics"):
        pilot_variance([_pilot(1), _pilot(2).iloc[:1]])
    with pytest.raises(ValueError, match="rng must be a numpy.random.Generator"):
        pilot_variance(_pilot(1), rng=5)
    with pytest.raises(ValueError, match="n_boot must be an integer >= 200"):
        pilot_variance(_pilot(1), rng=np.random.default_rng(0), n_boot=3)
    with pytest.raises(ValueError, match="low <= value <= high"):
        topic_set_size_interval("t", (.05, .06, .07), min_diff=.1)
    with pytest.raises(ValueError, match="power"):
        power("ci", 10, sigma2=.1, min_diff=.1)
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        power("t", 1, sigma2=.1, min_diff=.1)


def test_sakai_book_table_5_1_residual_variance():
    """Sakai's book (2015), Table 5.1 (3 systems x 20 topics): the published V_E = 0.0219 is the
    two-way residual V_E2 (and not V_E1, which is 0.0326 on the same data)."""
    import pandas as pd

    from helpers import paths
    from helpers.design import sakai as _sakai

    x = pd.read_csv(paths.ROOT / "tests" / "data" / "sakai_book" / "table5_1.csv", index_col="topic")
    assert x.shape == (20, 3)
    v2 = _sakai.pilot_variance(x, "E2")
    assert round(v2.value, 4) == 0.0219 and v2.df == 38
    assert round(_sakai.pilot_variance(x, "E1").value, 4) == 0.0326


def test_exact_t_power_with_a_large_effect_is_finite():
    """scipy's noncentral t gives NaN at n = 3, effect 6.5; the exact t is taken through the
    noncentral F, so ANOVA at m = 2 and the two-sample t still agree there (found by hypothesis)."""
    from helpers.design import sakai as _sakai

    kw = dict(sigma2=0.005859375, min_diff=0.5, alpha=0.01)
    assert _sakai.power("t", 3, paired=False, exact=True, **kw) == pytest.approx(
        _sakai.power("anova", 3, n_systems=2, exact=True, **kw), rel=1e-9)
    assert (_sakai.topic_set_size("t", paired=False, exact=True, beta=0.1, **kw)
            == _sakai.topic_set_size("anova", n_systems=2, exact=True, beta=0.1, **kw) == 3)
