"""helpers.design after the review of notebook 06: the paired t-test with crossed assessors' bias,
the paired-difference variance beside Sakai's V_E1, the bias-corrected topic bootstrap, split
halves out of sample with disjoint assessors, the cost curve's bootstrap, the published values in
one table, multi-measure scores, and the findings' verdict rules."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from helpers.design import (bootstrap_variances, d_study, g_study, paired, pilot_variance, planted, study,
                            topic_set_size, topics_needed, trade_off)
from helpers.design.cost import trade_off_bootstrap
from helpers.design.dstudy import erho2_interval, topics_needed_point
from helpers.design.gstudy import score_array
from helpers.design.published import FIXTURES, gt_reproductions
from helpers.design.sakai import _t_power_exact, _variance

NESTED = {"s": .01, "t": .02, "a:t": .015, "st": .01, "sa:t": .02}
CROSSED = {"s": .01, "t": .02, "a": .005, "st": .01, "sa": .002, "ta": .005, "sta": .02}


# --- the paired t-test with and without the crossed assessors' bias ------------------------------

def test_correct_sign_power_without_bias_is_the_upper_tail_of_the_exact_power():
    for n in (5, 40, 300):
        both = paired.correct_sign_power(n, sigma2=.02, min_diff=.05, both_signs=True)
        assert both == pytest.approx(_t_power_exact(n, .05 / np.sqrt(.04), True, .05), rel=1e-9)
        one = paired.correct_sign_power(n, sigma2=.02, min_diff=.05)
        assert one == pytest.approx(st.nct.sf(st.t.isf(.025, n - 1), n - 1, np.sqrt(n) * .05 / np.sqrt(.04)))
    assert paired.topics_for_power(sigma2=.05, min_diff=.05) == 316 == topic_set_size("t", sigma2=.05, min_diff=.05,
                                                                                       exact=True)


def test_correct_sign_power_with_a_bias_matches_a_simulation():
    rng = np.random.default_rng(1)
    s2, md, b2, n, e = .02, .05, .0005, 60, 40_000
    d = md + np.sqrt(b2) * rng.standard_normal((e, 1)) + np.sqrt(2 * s2) * rng.standard_normal((e, n))
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / np.sqrt(n))
    sig = 2 * st.t.sf(np.abs(t), n - 1) < .05
    right, wrong = (sig & (t > 0)).mean(), (sig & (t < 0)).mean()
    assert paired.correct_sign_power(n, sigma2=s2, min_diff=md, bias2=b2) == pytest.approx(right, abs=.008)
    both = paired.correct_sign_power(n, sigma2=s2, min_diff=md, bias2=b2, both_signs=True)
    assert both - paired.correct_sign_power(n, sigma2=s2, min_diff=md, bias2=b2) == pytest.approx(wrong, abs=.002)


def test_a_bias_needs_more_topics_and_can_forbid_the_power():
    plain = paired.topics_for_power(sigma2=.02, min_diff=.05)
    biased = paired.topics_for_power(sigma2=.02, min_diff=.05, bias2=.0005)
    assert biased > plain
    assert paired.correct_sign_power(biased, sigma2=.02, min_diff=.05, bias2=.0005) >= .8
    assert paired.correct_sign_power(biased - 1, sigma2=.02, min_diff=.05, bias2=.0005) < .8
    # Phi(minD / sqrt(bias2)) <= 1 - beta: no number of topics
    assert paired.power_limit(min_diff=.05, bias2=.05 ** 2 / st.norm.ppf(.8) ** 2 * 1.01) < .8
    assert paired.topics_for_power(sigma2=.02, min_diff=.05, bias2=.004) is None
    assert paired.correct_sign_power(10**9, sigma2=.02, min_diff=.05, bias2=.004) == pytest.approx(
        paired.power_limit(min_diff=.05, bias2=.004), abs=1e-3)


def test_recommended_topics_of_a_crossed_design_count_the_system_by_assessor_bias():
    no_sa = {**CROSSED, "sa": 0.0}
    base = planted.recommended_topics(no_sa, "s x t x a", 3, min_diff=.05)
    assert base == topic_set_size("t", sigma2=.01 + .02 / 3, min_diff=.05, exact=True)
    assert planted.recommended_topics(CROSSED, "s x t x a", 3, min_diff=.05) > base
    assert planted.recommended_topics({**CROSSED, "sa": .01}, "s x t x a", 1, min_diff=.05) is None


def test_power_reached_at_the_recommended_n_of_a_crossed_design_counts_the_right_sign():
    n = planted.recommended_topics(CROSSED, "s x t x a", 2, min_diff=.05)
    hits = planted.power_reached(np.random.default_rng(3), variance=CROSSED, design="s x t x a", n_topics=n,
                                 n_assessors=2, min_diff=.05, experiments=4000)
    p = hits["rejections"] / hits["experiments"]
    assert abs(p - .8) < 3 * np.sqrt(.8 * .2 / 4000) + .01
    kw = dict(sigma2=.01 + .02 / 2, min_diff=.05, bias2=2 * .002 / 2)
    wrong = paired.correct_sign_power(n, both_signs=True, **kw) - paired.correct_sign_power(n, **kw)
    assert wrong > .05                                   # the bias: many significant results the wrong way
    assert abs(hits["wrong_sign"] / 4000 - wrong) < 3 * np.sqrt(wrong * (1 - wrong) / 4000)


def test_planted_check_recommends_from_the_pilot_and_skips_an_unreachable_truth():
    row = planted.planted_check(np.random.default_rng(5), variance=NESTED, design="s x (a:t)", n_systems=10,
                                n_topics=15, n_assessors=2, target=.9, min_diff=.05, experiments=5, n_boot=200)
    assert row["t_true"] == planted.recommended_topics(NESTED, "s x (a:t)", 2, min_diff=.05)
    assert row["t_low"] <= row["t_n"] <= row["t_high"] and row["experiments"] == 5
    assert row["sakai_n"] > row["t_n"]                   # V_E1 keeps the topic variance
    far = planted.planted_check(np.random.default_rng(5), variance={**CROSSED, "sa": .05}, design="s x t x a",
                                n_systems=10, n_topics=15, n_assessors=2, target=.95, min_diff=.05, experiments=5,
                                n_boot=200)
    assert far["true_n"] is None and far["covered"] is None
    assert far["t_true"] is None and far["t_covered"] is None


# --- the variances and the bootstrap ------------------------------------------------------------

def test_two_v_e2_is_the_mean_variance_of_the_paired_differences():
    x = np.array([[.2, .5, .4, .1], [.3, .4, .6, .2], [.1, .2, .3, .0], [.6, .5, .9, .4], [.4, .6, .5, .3]])
    i, j = np.triu_indices(4, 1)
    mean_var = np.mean([np.var(x[:, a] - x[:, b], ddof=1) for a, b in zip(i, j)])
    assert 2 * _variance(x, "E2")[0] == pytest.approx(mean_var, rel=1e-12)
    assert f"{2 * _variance(x, 'E2')[0]:.4f}" == f"{mean_var:.4f}"


@pytest.mark.parametrize("design, v", [("s x (a:t)", NESTED), ("s x t x a", CROSSED)])
def test_v_e2_of_assessor_means_is_the_g_studys_paired_variance(design, v):
    long = planted.simulate_scores(v, design, 6, 9, 3, np.random.default_rng(2))
    g = g_study(long, design)
    means = study.assessor_means(long, design).to_numpy()
    raw = g.mean_squares["st"] / 3                          # st + e / n_a before any zeroing
    assert _variance(means, "E2")[0] == pytest.approx(raw, rel=1e-12)


def test_bootstrap_draws_are_pilot_variances_resamples_scaled_by_n_over_n_minus_1():
    x = np.random.default_rng(0).normal(size=(12, 5))
    draws = bootstrap_variances(x, np.random.default_rng(7), 300)
    pv = pilot_variance(x, "E2", rng=np.random.default_rng(7), n_boot=300)
    assert pv.boot_ci == pytest.approx(tuple(np.quantile(draws["E2"], [.025, .975])), rel=1e-12)
    idx = np.random.default_rng(7).integers(0, 12, (300, 12))
    first = _variance(x[idx[0]], "E1")[0] * 12 / 11
    assert draws["E1"][0] == pytest.approx(first, rel=1e-12)
    many = bootstrap_variances(x, np.random.default_rng(1), 20_000)["E1"]
    assert many.mean() == pytest.approx(_variance(x, "E1")[0], rel=.01)   # unbiased once scaled
    with pytest.raises(ValueError, match="one pilot"):
        bootstrap_variances([x, x], np.random.default_rng(0), 20)


def test_sizes_by_measure_puts_the_paired_difference_variance_beside_sakais():
    long = planted.simulate_scores(NESTED, "s x (a:t)", 8, 14, 2, np.random.default_rng(4))
    sizes = study.sizes_by_measure({"m": long}, "s x (a:t)", alpha=.05, beta=.2, min_diff=.05, width=.1, n_systems=8,
                                   rng=np.random.default_rng(1), n_boot=200)
    t = sizes[sizes["method"] == "paired t"].iloc[0]
    ci = sizes[sizes["method"] == "CI width"].iloc[0]
    assert t["n_paired"] == topic_set_size("t", sigma2=t["V_E2"], min_diff=.05, exact=True)
    assert t["n_paired_high"] == topic_set_size("t", sigma2=t["V_E2_high"], min_diff=.05, exact=True)
    assert ci["n_paired"] == topic_set_size("ci", sigma2=t["V_E2"], width=.1)
    assert t["ratio"] == pytest.approx(t["V_E1"] / t["V_E2"]) and t["ratio_low"] < t["ratio"] < t["ratio_high"]
    assert pd.isna(sizes[sizes["method"].str.startswith("ANOVA")]["n_paired"]).all()
    crossed = planted.simulate_scores({**CROSSED, "sa": .02}, "s x t x a", 8, 14, 2, np.random.default_rng(4))
    cs = study.sizes_by_measure({"m": crossed}, "s x t x a", alpha=.05, beta=.2, min_diff=.05, width=.1,
                                n_systems=8, rng=np.random.default_rng(1), n_boot=200)
    g = g_study(crossed, "s x t x a")
    row = cs[cs["method"] == "paired t"].iloc[0]
    want = paired.topics_for_power(sigma2=row["V_E2"], min_diff=.05, bias2=2 * g.variance["sa"] / 2)
    assert (pd.isna(row["n_paired"]) and want is None) or row["n_paired"] == want


# --- the D-study's fast paths --------------------------------------------------------------------

def test_fast_paths_equal_the_d_study_and_topics_needed():
    g = g_study(planted.simulate_scores(NESTED, "s x (a:t)", 8, 10, 3, np.random.default_rng(6)), "s x (a:t)")
    d = d_study(g, 13, 2, .9)
    assert erho2_interval(g, 13, 2, .9) == pytest.approx((d.erho2, *d.erho2_ci), rel=1e-12)
    for coef in ("erho2", "phi"):
        for na in (1, 3, 5):
            assert topics_needed_point(g, .9, coef, na) == topics_needed(g, .9, coef, na).n


# --- split halves ------------------------------------------------------------------------------

def test_crossed_halves_never_share_an_assessor():
    """Two assessors who order the systems in reverse, no other noise: halves that shared an
    assessor would agree (tau = 1) in some splits; with disjoint assessors every split gives -1."""
    ns, nt = 5, 9
    x = np.empty((ns, nt, 2))
    x[:, :, 0] = np.arange(ns)[:, None]
    x[:, :, 1] = -np.arange(ns)[:, None]
    s, t, a = np.meshgrid(range(ns), range(nt), range(2), indexing="ij")
    long = pd.DataFrame({"system": s.ravel(), "topic": t.ravel(), "assessor": a.ravel(), "score": x.ravel()})
    out = study.split_half_check(long, "s x t x a", [2, 3], [1], np.random.default_rng(0), draws=10)
    assert (out["tau_observed"] == -1).all() and (out["tau_low"] == -1).all()
    with pytest.raises(ValueError, match="crossed halves need 2 k assessors"):
        study.split_half_check(long, "s x t x a", [2], [2], np.random.default_rng(0), draws=2)


def test_split_sizes_and_out_of_sample_predictions():
    assert study.split_sizes(30, 3, "s x (a:t)", [4, 10, 11], [1, 3, 4]) == ([4, 10], [1, 3])
    assert study.split_sizes(30, 3, "s x t x a", [4], [1, 2]) == ([4], [1])
    long = planted.simulate_scores(NESTED, "s x (a:t)", 8, 12, 2, np.random.default_rng(4))
    split = study.split_half_check(long, "s x (a:t)", [3, 4], [1, 2], np.random.default_rng(2), draws=4)
    assert len(split) == 4 and (split["rest"] == [6, 6, 4, 4]).all()
    assert split["tau_observed"].between(-1, 1).all()
    for col in ("tau_predicted", "tau_normal", "erho2"):
        assert (split[f"{col}_low"] <= split[col]).all() and (split[col] <= split[f"{col}_high"]).all()
    assert (split["conflicts_predicted_low"] <= split["conflicts_predicted_high"]).all()
    with pytest.raises(ValueError, match="need 3 nt topics"):
        study.split_half_check(long, "s x (a:t)", [5], [1], np.random.default_rng(2), draws=2)


def test_kendall_tau_b_is_scipys():
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.integers(0, 4, 9).astype(float), rng.integers(0, 4, 9).astype(float)
        assert study.kendall_tau_b(a, b) == pytest.approx(st.kendalltau(a, b)[0], rel=1e-12, nan_ok=True)
    assert np.isnan(study.kendall_tau_b([1, 1, 1], [1, 2, 3]))


# --- the cost curve's bootstrap ------------------------------------------------------------------

def test_trade_off_bootstrap_reads_differences_on_the_same_resample():
    long = planted.simulate_scores(NESTED, "s x (a:t)", 12, 20, 3, np.random.default_rng(8))
    g = g_study(long, "s x (a:t)")
    curve = trade_off(g, "erho2", .9, cost_topic=10, cost_judgment=3, max_assessors=4)
    x = score_array(long, "s x (a:t)")[0]
    a = trade_off_bootstrap(x, "s x (a:t)", curve, np.random.default_rng(1), cost_topic=10, cost_judgment=3, n_boot=200)
    b = trade_off_bootstrap(x, "s x (a:t)", curve, np.random.default_rng(1), cost_topic=10, cost_judgment=3, n_boot=200)
    pd.testing.assert_frame_equal(a, b)
    best = a[a["n_assessors"] == a.attrs["best"]].iloc[0]
    assert best["cost"] == a["cost"].min() and best["diff_low"] == best["diff_high"] == 0 and best["within_noise"]
    assert abs(a["cheapest_share"].sum() - 1) < 1e-12          # a tie of k designs counts 1/k for each
    assert (a["cost_low"] <= a["cost_high"]).all()
    with pytest.raises(ValueError, match="coefficient target"):
        trade_off_bootstrap(x, "s x (a:t)", trade_off(g, "power", .8, min_diff=.05), np.random.default_rng(1),
                            cost_topic=10, cost_judgment=3)


def test_power_target_of_a_crossed_design_carries_the_bias():
    g = planted.planted_g(CROSSED, "s x t x a", 10, 20, 3)
    curve = trade_off(g, "power", .8, min_diff=.05, max_assessors=3)
    for na, n in zip(curve["n_assessors"], curve["n_topics"]):
        want = planted.recommended_topics(CROSSED, "s x t x a", int(na), min_diff=.05)
        assert (pd.isna(n) and want is None) or n == want


# --- published values ---------------------------------------------------------------------------

def test_every_published_value_is_reproduced_and_a_changed_fixture_is_caught(tmp_path):
    table = gt_reproductions()
    # one row per published value (STUDY-DESIGN's table): adhoc3 3 components, Eρ²(50) at 95% and 99%,
    # Φ(50), Eρ²(100), topics for 4 targets, gt2tau; synthetic4 3 components, Eρ², Φ; No. 3 7 components,
    # Eρ², Φ, 3 (t, a) designs; No. 4 5 components, Eρ², Φ
    expected = {"adhoc3": 3 + 2 + 1 + 1 + 4 + 1, "synthetic4": 3 + 2, "Brennan No. 3": 7 + 2 + 3, "Brennan No. 4": 5 + 2}
    assert table.groupby("data", sort=False).size().to_dict() == expected and len(table) == sum(expected.values())
    assert table["same"].all()
    # one value a cell: no "a/b/c" or "x; y" strings, short labels (the table fits a two-column paper)
    assert not table["published"].str.contains("/|;").any() and table["data"].str.len().max() <= 13
    shutil.copytree(FIXTURES / "gt4ireval", tmp_path / "gt4ireval")
    shutil.copytree(FIXTURES / "brennan", tmp_path / "brennan")
    f = tmp_path / "brennan" / "synthetic4_p_x_r_in_t.csv"
    df = pd.read_csv(f)
    df.loc[0, "score"] += 1
    df.to_csv(f, index=False)
    other = gt_reproductions(tmp_path)
    assert not other["same"].all() and other[~other["same"]]["data"].str.contains("No. 4").all()
    with pytest.raises(ValueError, match="fixtures are not there"):
        gt_reproductions(tmp_path / "nowhere")


def test_the_scaled_bootstrap_covers_the_planted_paired_variance():
    """The n/(n-1) scaling of bootstrap_variances: on planted pilots of 30 topics the percentile
    interval of V_E2 covers the planted st + e/n_a about as often as it says; unscaled it does not."""
    truth = paired.difference_variance(NESTED, "s x (a:t)", 3)
    scaled = unscaled = 0
    pilots = 200
    for i in range(pilots):
        rng = np.random.default_rng(1000 + i)
        means = planted.simulate_array(NESTED, "s x (a:t)", 20, 30, 3, rng).mean(axis=2).T
        lo, hi = np.quantile(bootstrap_variances(means, rng, 200, ("E2",))["E2"], [.025, .975])
        scaled += lo <= truth <= hi
        unscaled += lo * 29 / 30 <= truth <= hi * 29 / 30
    assert scaled / pilots >= .91 and unscaled / pilots <= .9 and scaled > unscaled + 10


def _nb06_defaults() -> dict:
    from helpers.notebook import params
    return params.notebook_defaults("06_study_design")


def test_notebook_06_parameters_are_checked_by_name():
    from helpers.findings.design import check_parameters
    nb = _nb06_defaults()
    check_parameters(nb)
    for name, bad, match in (("facets", "s x a", "facets must be"), ("beta", 1.0, "beta must lie"),
                             ("cost_topic", 0.0, None), ("n_boot", 199, "n_boot must be an integer >= 200"),
                             ("cost_boot", 40, "cost_boot must be an integer >= 200"),
                             ("components", {**NESTED, "a": .1}, "unknown \\['a'\\]"),
                             ("ratings_path", "x.tsv", "only read with")):
        changed = {**nb, name: bad}
        if name == "cost_topic":
            changed["cost_judgment"] = 0.0
            match = "both 0"
        with pytest.raises(ValueError, match=match):
            check_parameters(changed)


#: A valid value other than the default for every parameter a data mode may not read.
OTHER_VALUE = {"components": {**NESTED, "t": .03}, "n_systems": 5, "n_topics": 12, "n_assessors": 2, "replicates": 100,
               "experiments": 5, "scheduler": "serial", "progress": True, "measures": ["RBP"], "rel": 1,
               "unjudged": "fill", "fill_assessor": "A1", "ratings_layout": "qrels", "d_max": 2, "facets": "s x t x a"}


def test_every_notebook_06_parameter_is_read_or_refused():
    """No parameter is silently ignored: each is read by a code cell of the notebook (or by
    check_parameters), and a data mode that does not read it refuses a value off its default."""
    import ast
    import json

    from helpers import paths
    from helpers.findings.design import READ_BY, check_parameters
    nb = json.loads((paths.NOTEBOOKS / "06_study_design.ipynb").read_text(encoding="utf-8"))
    code = [("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code"
            and "parameters" not in c["metadata"].get("tags", [])]
    read = {n.id for src in code for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name)}
    defaults = _nb06_defaults()
    assert not [p for p in defaults if p not in read], "parameters no code cell reads"
    mode_only = {n for names in READ_BY.values() for n in names}
    assert mode_only <= set(OTHER_VALUE) and mode_only <= set(defaults)
    files = {"ratings_path": "data/examples/ratings.tsv", "runs_path": "data/examples/runs"}
    for data in ("simulated", "dl19", "files"):
        base = {**defaults, "data": data, **(files if data == "files" else {})}
        check_parameters(base)
        for name in mode_only:
            modes = ("simulated", "files") if name == "facets" else next(
                ("dl19", "files") if k == "pilot" else (k,) for k, v in READ_BY.items() if name in v)
            changed = {**base, name: OTHER_VALUE[name]}
            if name == "fill_assessor" and data != "simulated":
                with pytest.raises(ValueError, match="not read with unjudged 'common'"):
                    check_parameters(changed)                 # read with unjudged: "fill" only
                changed["unjudged"] = "fill"
            if data in modes:
                if not (data == "simulated" and name == "facets"):   # (the simulated facets need their components)
                    check_parameters(changed)
            else:
                with pytest.raises(ValueError, match=f"parameter '{name}' .* is set but not read with data '{data}'"):
                    check_parameters(changed)


def test_n_boot_acts_on_the_sizing_table_and_on_every_simulated_pilot():
    """n_boot reaches both places that bootstrap a variance (section 3 and the planted check)."""
    from helpers.design import study
    long = planted.simulate_scores(NESTED, "s x (a:t)", 8, 20, 2, np.random.default_rng(4))
    kw = dict(alpha=.05, beta=.2, min_diff=.05, width=.1, n_systems=8)
    a, b = (study.sizes_by_measure({"m": long}, "s x (a:t)", rng=np.random.default_rng(0), n_boot=n, **kw)
            for n in (200, 1000))
    assert not np.allclose(a["ratio_low"], b["ratio_low"])
    one = dict(variance=NESTED, design="s x (a:t)", n_systems=8, n_topics=20, n_assessors=2, target=.9, min_diff=.1,
               experiments=2)
    c, d = (planted.planted_check(np.random.default_rng(5), n_boot=n, **one) for n in (200, 1000))
    assert c["t_n"] == d["t_n"] and (c["t_low"], c["t_high"]) != (d["t_low"], d["t_high"])


def test_bias_interval_of_crossed_assessors():
    crossed = g_study(planted.simulate_scores({**CROSSED, "sa": .01}, "s x t x a", 10, 16, 4,
                                              np.random.default_rng(3)), "s x t x a")
    b, lo, hi = paired.bias_interval(crossed, 4)
    assert b == pytest.approx(2 * crossed.variance["sa"] / 4) and 0 <= lo <= b <= hi
    ms, df = crossed.mean_squares, crossed.df["sa"]
    assert hi == pytest.approx(2 * (ms["sa"] * df / st.chi2.ppf(.025, df) - ms["sta"]) / 16 / 4)
    nested = g_study(planted.simulate_scores(NESTED, "s x (a:t)", 5, 6, 2, np.random.default_rng(3)), "s x (a:t)")
    assert paired.bias_interval(nested, 2) == (0.0, 0.0, 0.0)


def test_cost_bootstrap_leaves_unreachable_designs_out_of_the_tie():
    long = planted.simulate_scores(CROSSED, "s x t x a", 12, 24, 4, np.random.default_rng(0))   # 1, 2: unreachable
    g = g_study(long, "s x t x a")
    curve = trade_off(g, "erho2", .9, cost_topic=5, cost_judgment=2, max_assessors=4)
    assert curve["cost"].isna().any() and curve["cost"].notna().any()
    out = trade_off_bootstrap(score_array(long, "s x t x a")[0], "s x t x a", curve, np.random.default_rng(1),
                              cost_topic=5, cost_judgment=2, n_boot=200)
    assert not out.loc[out["cost"].isna(), "within_noise"].any()
    assert out["cheapest_share"].sum() <= 1 + 1e-12
    bounds = out[["cost_low", "cost_high", "diff_low", "diff_high"]].to_numpy(dtype=float)
    never = out["cost"].isna().to_numpy()
    assert np.isnan(bounds[never]).all() and not np.isnan(bounds[~never]).any()   # missing exactly where unreachable
    assert out.loc[never, ["n_low", "n_high"]].isna().all().all()


def test_percentile_intervals_refuse_fewer_than_200_resamples():
    """A 95% percentile interval from 40 resamples rests on one draw per tail: every bootstrap that
    returns one refuses fewer than MIN_BOOT (the cost curve, the sizing table, each planted pilot)."""
    from helpers.design import study
    from helpers.design.sakai import MIN_BOOT
    assert MIN_BOOT == 200
    long = planted.simulate_scores(NESTED, "s x (a:t)", 6, 12, 2, np.random.default_rng(4))
    g = g_study(long, "s x (a:t)")
    curve = trade_off(g, "erho2", .9, cost_topic=10, cost_judgment=3, max_assessors=2)
    with pytest.raises(ValueError, match="n_boot must be an integer >= 200"):
        trade_off_bootstrap(score_array(long, "s x (a:t)")[0], "s x (a:t)", curve, np.random.default_rng(1),
                            cost_topic=10, cost_judgment=3, n_boot=199)
    with pytest.raises(ValueError, match="n_boot must be an integer >= 200"):
        study.sizes_by_measure({"m": long}, "s x (a:t)", alpha=.05, beta=.2, min_diff=.05, width=.1, n_systems=6,
                               rng=np.random.default_rng(0), n_boot=40)
    with pytest.raises(ValueError, match="n_boot must be an integer >= 200"):
        planted.planted_check(np.random.default_rng(5), variance=NESTED, design="s x (a:t)", n_systems=6, n_topics=12,
                              n_assessors=2, target=.9, min_diff=.1, experiments=2, n_boot=40)


def test_sakai_published_cases_print_the_exact_answer_beside_the_approximation():
    from helpers.findings.design import PUBLISHED, sakai_published
    approx, exact = sakai_published()
    assert approx == PUBLISHED
    assert list(exact.values()) == [316, 42, 314, 629, 156]


def test_cheapest_share_splits_a_tied_resample_between_its_designs():
    """Identical assessors (sigma2_sa:t = 0) and free judgments: every design needs the same topics at
    the same cost in every resample, so each of the 3 designs is cheapest in a third of them (the
    shares sum to 1; counting a tie for every tied design summed them to 3)."""
    from helpers.design.gstudy import g_study_array
    one = score_array(planted.simulate_scores(NESTED, "s x (a:t)", 10, 20, 1, np.random.default_rng(3)), "s x (a:t)")[0]
    x = np.repeat(one, 3, axis=2)
    curve = trade_off(g_study_array(x, "s x (a:t)"), "erho2", .9, cost_topic=1, cost_judgment=0, max_assessors=3)
    out = trade_off_bootstrap(x, "s x (a:t)", curve, np.random.default_rng(2), cost_topic=1, cost_judgment=0, n_boot=200)
    assert np.allclose(out["cheapest_share"], 1 / 3) and out["within_noise"].all()


def test_assessors_needed_is_the_bound_of_the_error_topics_do_not_shrink():
    """Crossed: Erho2 -> sigma2_s / (sigma2_s + sigma2_sa / n_a) with topics, so the target needs
    n_a >= sigma2_sa / (sigma2_s (1 / target - 1)) = 2.94 here: 3, the first count trade_off reaches it with."""
    from helpers.design.cost import assessors_needed
    g = g_study(planted.simulate_scores(CROSSED, "s x t x a", 12, 24, 4, np.random.default_rng(0)), "s x t x a")
    v = g.variance
    assert round(v["sa"] / (v["s"] * (1 / .9 - 1)), 4) == 2.9419 and assessors_needed(g, .9) == 3
    curve = trade_off(g, "erho2", .9, max_assessors=3)
    assert curve["n_topics"].isna().tolist() == [True, True, False]
    nested = g_study(planted.simulate_scores(NESTED, "s x (a:t)", 12, 20, 3, np.random.default_rng(8)), "s x (a:t)")
    assert assessors_needed(nested, .9) == 1                       # nested: topics shrink every error
    with pytest.raises(ValueError, match="target must be one of"):
        assessors_needed(g, .9, "power")
