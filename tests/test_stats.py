"""Tests for helpers.stats.

Reference values come from independent brute-force enumerators written here (exact integer
arithmetic, itertools), from scipy/statsmodels, or from published examples (Krippendorff 2011);
never from helpers.stats' own output.
"""

from __future__ import annotations

import math
from itertools import permutations, product

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from helpers import stats as st
from helpers.stats import correlation, hsd

# ------------------------------------------------------------------------------------------
# independent reference implementations
# ------------------------------------------------------------------------------------------


def brute_tukey_p(int_scores: np.ndarray) -> dict[tuple[int, int], float]:
    """Exact randomised-Tukey p-values by enumerating *all* (m!)^n within-topic permutations.

    Works on integer scores, so ties are exact (no float tolerance involved).
    """
    n, m = int_scores.shape
    rows = [[tuple(int(int_scores[t, j]) for j in perm) for perm in permutations(range(m))]
            for t in range(n)]
    obs = int_scores.sum(axis=0)
    ranges = []
    for combo in product(*rows):
        sums = [sum(r[j] for r in combo) for j in range(m)]
        ranges.append(max(sums) - min(sums))
    ranges = np.array(ranges)
    total = ranges.size
    return {
        (a, b): np.count_nonzero(ranges >= abs(int(obs[a]) - int(obs[b]))) / total
        for a in range(m)
        for b in range(a + 1, m)
    }


def brute_signflip_p(int_d: np.ndarray) -> float:
    obs = abs(int(int_d.sum()))
    hits = 0
    for signs in product((1, -1), repeat=int_d.size):
        if abs(sum(s * int(v) for s, v in zip(signs, int_d))) >= obs:
            hits += 1
    return hits / 2 ** int_d.size


def hwc_tau_ci_loops(x, y, level):
    """Hollander-Wolfe-Chicken (8.37)-(8.39), written with plain loops."""
    n = len(x)
    c = []
    for i in range(n):
        ci = 0
        for j in range(n):
            if j != i:
                prod_ = (x[j] - x[i]) * (y[j] - y[i])
                ci += 1 if prod_ > 0 else (-1 if prod_ < 0 else 0)
        c.append(ci)
    cbar = sum(c) / n
    var_c = sum((ci - cbar) ** 2 for ci in c) / (n - 1)
    tau = sps.kendalltau(x, y).statistic
    s2 = (2 * (n - 2) * var_c / (n * (n - 1)) + 1 - tau**2) * 2 / (n * (n - 1))
    z = sps.norm.ppf(1 - (1 - level) / 2)
    return tau, tau - z * math.sqrt(s2), tau + z * math.sqrt(s2)


def alpha_nominal_by_hand(table) -> float:
    """Nominal Krippendorff alpha from the coincidence matrix (Krippendorff 2011, Sec. C)."""
    labels = sorted({v for row in table for v in row if v is not None})
    idx = {v: i for i, v in enumerate(labels)}
    k = len(labels)
    o = np.zeros((k, k))
    for row in table:
        vals = [v for v in row if v is not None]
        mu = len(vals)
        if mu < 2:
            continue
        for i, a in enumerate(vals):
            for j, b in enumerate(vals):
                if i != j:
                    o[idx[a], idx[b]] += 1.0 / (mu - 1)
    nc = o.sum(axis=1)
    n = nc.sum()
    d_o = o.sum() - np.trace(o)
    d_e = (n * n - np.sum(nc * nc)) / (n - 1)
    return 1.0 - d_o / d_e


# ------------------------------------------------------------------------------------------
# fixtures
# ------------------------------------------------------------------------------------------

# Discrete scores in tenths: sums of k/10 that are equal in exact arithmetic are often not
# equal in float64 (0.1 + 0.2 != 0.3), which is exactly the tie problem the tolerance solves.
INT_MATRICES = [
    np.array([[3, 1, 2], [7, 7, 1], [0, 4, 4], [2, 9, 5], [6, 1, 6]]),
    np.array([[1, 2, 3], [3, 3, 3], [1, 2, 6], [7, 1, 2], [3, 5, 4], [2, 2, 9]]),  # a flat topic
    np.array([[1, 0, 0], [1, 0, 0], [1, 0, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]]),  # binary
    np.array([[3, 6, 1], [1, 3, 2], [7, 2, 3], [3, 3, 1], [1, 2, 7]]),
]


@pytest.fixture(params=range(len(INT_MATRICES)), ids=lambda i: f"matrix{i}")
def int_matrix(request):
    return INT_MATRICES[request.param]


def _p_by_pair(res: pd.DataFrame) -> dict[tuple, float]:
    return {(a, b): p for a, b, p in zip(res.system_a, res.system_b, res.p_value)}


# ------------------------------------------------------------------------------------------
# randomised Tukey HSD
# ------------------------------------------------------------------------------------------


def test_exact_tukey_matches_brute_force(int_matrix):
    expected = brute_tukey_p(int_matrix)
    res = st.randomised_tukey_hsd(int_matrix / 10.0, method="exact")
    got = _p_by_pair(res)
    assert set(got) == set(expected)
    for pair, p in expected.items():
        assert got[pair] == pytest.approx(p, rel=1e-12, abs=0), pair
    assert res.attrs["method"] == "exact"


def test_tolerance_is_needed_for_discrete_float_ties():
    # At least one fixture has ties that float rounding breaks: without the tolerance the
    # exact enumeration would disagree with integer arithmetic there.
    mismatches = 0
    for mat in INT_MATRICES:
        expected = brute_tukey_p(mat)
        got = _p_by_pair(st.randomised_tukey_hsd(mat / 10.0, method="exact", rtol=0.0))
        mismatches += sum(got[k] != pytest.approx(v, rel=1e-12) for k, v in expected.items())
    assert mismatches > 0


@pytest.mark.parametrize("engine", ["sort", "permuted"])
@pytest.mark.parametrize("kind", ["phipson_smyth", "discpower"])
def test_monte_carlo_agrees_with_exact_within_binomial_error(kind, engine):
    mat = INT_MATRICES[1] / 10.0
    exact = _p_by_pair(st.randomised_tukey_hsd(mat, method="exact"))
    B = 20000
    mc = _p_by_pair(
        st.randomised_tukey_hsd(mat, B=B, rng=np.random.default_rng(2017), p_value=kind, engine=engine)
    )
    for pair, p in exact.items():
        se = math.sqrt(p * (1 - p) / B)
        assert abs(mc[pair] - p) <= 4.5 * se + 2.0 / B, (pair, mc[pair], p)


def test_monte_carlo_large_matrix_against_exact_two_system_case():
    # With 2 systems, randomised Tukey HSD is the sign-flip test; 14 topics -> 2^14 exact.
    rng = np.random.default_rng(5)
    ints = rng.integers(0, 5, size=(14, 2))
    p_exact = brute_signflip_p(ints[:, 0] - ints[:, 1])
    B = 20000
    p_mc = st.randomised_tukey_hsd(ints / 4.0, B=B, rng=np.random.default_rng(9)).p_value.iloc[0]
    assert abs(p_mc - p_exact) <= 4.5 * math.sqrt(p_exact * (1 - p_exact) / B) + 2.0 / B
    p_ex = st.randomised_tukey_hsd(ints / 4.0, method="exact").p_value.iloc[0]
    assert p_ex == pytest.approx(p_exact, rel=1e-12)


@pytest.mark.parametrize("engine", ["sort", "permuted"])
@pytest.mark.parametrize("m", [3, 4])
def test_engines_draw_uniform_permutations(engine, m):
    # rows 0..m-1 in every topic: the permuted row *is* the permutation; all m! equally likely
    n, k = 50, 200
    x = np.tile(np.arange(m, dtype=float), (n, 1))
    out = hsd._permuted_block(x, np.random.default_rng(1), engine, np.empty((k, n, m)))
    rows = out.reshape(-1, m).astype(int)
    assert (np.sort(rows, axis=1) == np.arange(m)).all()  # each row is a permutation
    codes = rows @ (m ** np.arange(m))
    perm_codes = [sum(p[i] * m**i for i in range(m)) for p in permutations(range(m))]
    counts = np.array([np.count_nonzero(codes == c) for c in perm_codes])
    assert counts.sum() == n * k
    assert sps.chisquare(counts).pvalue > 1e-4
    # topics are permuted independently: joint law of two topics' first entries is uniform
    pair = out[:, 0, 0].astype(int) * m + out[:, 1, 0].astype(int)
    assert sps.chisquare(np.bincount(pair, minlength=m * m)).pvalue > 1e-4


def test_sort_engine_gathers_from_the_right_topic():
    x = np.arange(12.0).reshape(4, 3) * 10.0
    out = hsd._permuted_block(x, np.random.default_rng(0), "sort", np.empty((5, 4, 3)))
    np.testing.assert_array_equal(np.sort(out, axis=2), np.broadcast_to(x, (5, 4, 3)))


def test_p_value_definitions_are_consistent():
    mat = np.random.default_rng(1).random((8, 4))
    B = 999
    ps = st.randomised_tukey_hsd(mat, B=B, rng=np.random.default_rng(3))
    dp = st.randomised_tukey_hsd(mat, B=B, rng=np.random.default_rng(3), p_value="discpower")
    np.testing.assert_allclose(ps.p_value, (dp.p_value * B + 1) / (B + 1), rtol=1e-12)
    counts = dp.p_value * B
    np.testing.assert_allclose(counts, np.round(counts), atol=1e-9)


def test_p_values_in_unit_interval_and_extremes():
    rng = np.random.default_rng(0)
    mat = rng.random((30, 5))
    mat[:, 0] += 10.0  # system 0 dominates every topic by far
    B = 500
    res = st.randomised_tukey_hsd(mat, B=B, rng=np.random.default_rng(1))
    assert ((res.p_value > 0) & (res.p_value <= 1)).all()
    dominated = res[res.system_a == 0]
    np.testing.assert_array_equal(dominated.p_value, 1.0 / (B + 1))
    zero = st.randomised_tukey_hsd(mat, B=B, rng=np.random.default_rng(1), p_value="discpower")
    assert (zero[zero.system_a == 0].p_value == 0).all()
    flat = st.randomised_tukey_hsd(np.full((6, 3), 0.3), B=B, rng=np.random.default_rng(1))
    assert (flat.p_value == 1.0).all()


def test_identical_systems_get_p_one():
    col = np.random.default_rng(4).random(12)
    mat = np.column_stack([col, col, col + 0.5])
    res = st.randomised_tukey_hsd(mat, B=300, rng=np.random.default_rng(0))
    assert res.loc[(res.system_a == 0) & (res.system_b == 1), "p_value"].item() == 1.0


def test_symmetry_swapping_systems_exact():
    mat = INT_MATRICES[0] / 10.0
    base = _p_by_pair(st.randomised_tukey_hsd(mat, method="exact"))
    swapped = st.randomised_tukey_hsd(mat[:, [2, 0, 1]], method="exact")
    names = {0: 2, 1: 0, 2: 1}  # new column index -> original system
    for a, b, p in zip(swapped.system_a, swapped.system_b, swapped.p_value):
        key = tuple(sorted((names[a], names[b])))
        assert p == base[key]


def test_symmetry_swapping_systems_monte_carlo():
    rng = np.random.default_rng(11)
    df = pd.DataFrame(rng.random((25, 4)), columns=["A", "B", "C", "D"])
    B = 4000
    r1 = st.randomised_tukey_hsd(df, B=B, rng=np.random.default_rng(1))
    r2 = st.randomised_tukey_hsd(df[["D", "C", "B", "A"]], B=B, rng=np.random.default_rng(2))
    p1 = {frozenset(k): v for k, v in _p_by_pair(r1).items()}
    p2 = {frozenset(k): v for k, v in _p_by_pair(r2).items()}
    assert p1.keys() == p2.keys()
    for k in p1:
        assert abs(p1[k] - p2[k]) <= 4.5 * math.sqrt(2 * 0.25 / B)
    d1 = dict(zip(map(frozenset, zip(r1.system_a, r1.system_b)), r1["diff"]))
    d2 = dict(zip(map(frozenset, zip(r2.system_a, r2.system_b)), r2["diff"]))
    for k in d1:
        assert abs(d1[k]) == pytest.approx(abs(d2[k]), rel=1e-12)


def test_invariance_to_topic_order():
    mat = INT_MATRICES[3] / 10.0
    perm = [4, 2, 0, 3, 1]
    a = st.randomised_tukey_hsd(mat, method="exact")
    b = st.randomised_tukey_hsd(mat[perm], method="exact")
    np.testing.assert_allclose(a.p_value, b.p_value, rtol=1e-12)
    np.testing.assert_allclose(a.es_hsd, b.es_hsd, rtol=1e-12)
    rng = np.random.default_rng(8)
    big = rng.random((40, 5))
    B = 4000
    c = st.randomised_tukey_hsd(big, B=B, rng=np.random.default_rng(1))
    d = st.randomised_tukey_hsd(big[rng.permutation(40)], B=B, rng=np.random.default_rng(1))
    assert np.all(np.abs(c.p_value - d.p_value) <= 4.5 * math.sqrt(2 * 0.25 / B))


def test_constant_topic_does_not_change_p_values():
    mat = INT_MATRICES[0] / 10.0
    with_flat = np.vstack([mat, np.full((1, 3), 0.4)])
    a = st.randomised_tukey_hsd(mat, method="exact")
    b = st.randomised_tukey_hsd(with_flat, method="exact")
    np.testing.assert_allclose(a.p_value, b.p_value, rtol=1e-12)


@pytest.mark.parametrize("engine", ["sort", "permuted"])
def test_reproducible_and_independent_of_chunk_size(engine):
    mat = np.random.default_rng(3).random((17, 6))
    kw = dict(B=777, engine=engine)
    a = st.randomised_tukey_hsd(mat, rng=np.random.default_rng(42), **kw)
    b = st.randomised_tukey_hsd(mat, rng=np.random.default_rng(42), **kw)
    pd.testing.assert_frame_equal(a, b)
    # chunks of 1 trial and of everything consume the generator in the same order
    c = st.randomised_tukey_hsd(mat, rng=np.random.default_rng(42), chunk_bytes=1, **kw)
    d = st.randomised_tukey_hsd(mat, rng=np.random.default_rng(42), chunk_bytes=10**9, **kw)
    pd.testing.assert_frame_equal(a, c)
    pd.testing.assert_frame_equal(a, d)
    e = st.randomised_tukey_hsd(mat, rng=np.random.default_rng(43), **kw)
    assert not np.array_equal(a.p_value, e.p_value)


def test_output_layout_dataframe_and_array():
    df = pd.DataFrame(np.random.default_rng(0).random((5, 3)), columns=["sysX", "sysY", "sysZ"])
    res = st.randomised_tukey_hsd(df, B=50, rng=np.random.default_rng(0))
    assert list(res.columns) == ["system_a", "system_b", "mean_a", "mean_b", "diff", "p_value", "es_hsd"]
    assert list(zip(res.system_a, res.system_b)) == [("sysX", "sysY"), ("sysX", "sysZ"), ("sysY", "sysZ")]
    np.testing.assert_allclose(res.mean_a, df.mean()[res.system_a].to_numpy())
    np.testing.assert_allclose(res["diff"], res.mean_a - res.mean_b)
    arr = st.randomised_tukey_hsd(df.to_numpy(), B=50, rng=np.random.default_rng(0))
    assert list(zip(arr.system_a, arr.system_b)) == [(0, 1), (0, 2), (1, 2)]
    np.testing.assert_array_equal(arr.p_value, res.p_value)
    assert res.attrs["B"] == 50 and res.attrs["n_topics"] == 5 and res.attrs["n_systems"] == 3


def test_progress_bar_runs(capsys):
    mat = np.random.default_rng(0).random((5, 3))
    a = st.randomised_tukey_hsd(mat, B=100, rng=np.random.default_rng(1), progress=True, chunk_bytes=800)
    b = st.randomised_tukey_hsd(mat, B=100, rng=np.random.default_rng(1))
    pd.testing.assert_frame_equal(a, b)
    assert "randomised Tukey HSD" in capsys.readouterr().err


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.array([[0.1, np.nan], [0.2, 0.3]]), "finite"),
        (np.array([[0.1, np.inf], [0.2, 0.3]]), "finite"),
        (np.array([[0.1, 0.2, 0.3]]), "at least 2 topics"),
        (np.array([[0.1], [0.2]]), "at least 2 systems"),
        (np.array([0.1, 0.2, 0.3]), "2-D"),
        (pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], columns=["A", "A"]), "duplicate system names"),
        (pd.DataFrame([["a", "b"], ["c", "d"]]), "numeric"),
    ],
)
def test_tukey_bad_scores(bad, match):
    with pytest.raises(ValueError, match=match):
        st.randomised_tukey_hsd(bad, B=10, rng=np.random.default_rng(0))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(B=0), "B must be >= 1"),
        (dict(B=-5), "B must be >= 1"),
        (dict(B=2.5), "positive integer"),
        (dict(B=True), "positive integer"),
        (dict(rng=None), "explicit rng"),
        (dict(rng=np.random.RandomState(0)), "numpy.random.Generator"),
        (dict(method="perm"), "method must be"),
        (dict(engine="argsort"), "engine must be"),
        (dict(p_value="naive"), "p_value must be"),
        (dict(rtol=-1.0), "rtol"),
        (dict(chunk_bytes=0), "chunk_bytes"),
    ],
)
def test_tukey_bad_arguments(kwargs, match):
    args = dict(B=10, rng=np.random.default_rng(0))
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        st.randomised_tukey_hsd(np.random.default_rng(0).random((4, 3)), **args)


def test_exact_validates_B_too():
    with pytest.raises(ValueError, match="B must be >= 1"):
        st.randomised_tukey_hsd(INT_MATRICES[0], method="exact", B=0)
    with pytest.raises(ValueError, match="B must be >= 1"):
        st.paired_randomisation_test([0.1, 0.2, 0.3], [0.3, 0.1, 0.2], method="exact", B=0)


def test_exact_refuses_large_enumeration():
    with pytest.raises(ValueError, match="max_exact"):
        st.randomised_tukey_hsd(np.random.default_rng(0).random((12, 4)), method="exact")


def test_exact_needs_no_rng():
    res = st.randomised_tukey_hsd(INT_MATRICES[0] / 10.0, method="exact", rng=None)
    assert res.attrs["B"] == 6**4


# ------------------------------------------------------------------------------------------
# residual variance and ES_HSD
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed, shape", [(0, (7, 4)), (1, (20, 3)), (2, (5, 9))])
def test_residual_variance_matches_statsmodels(seed, shape):
    smf = pytest.importorskip("statsmodels.formula.api")
    sm_stats = pytest.importorskip("statsmodels.stats.anova")
    rng = np.random.default_rng(seed)
    mat = rng.random(shape) + rng.random((shape[0], 1))  # topic effects
    long = pd.DataFrame(
        {
            "score": mat.ravel(),
            "topic": np.repeat(np.arange(shape[0]), shape[1]).astype(str),
            "system": np.tile(np.arange(shape[1]), shape[0]).astype(str),
        }
    )
    fit = smf.ols("score ~ C(topic) + C(system)", data=long).fit()
    table = sm_stats.anova_lm(fit)
    ve_sm = table.loc["Residual", "mean_sq"]
    assert st.residual_variance(mat) == pytest.approx(ve_sm, rel=1e-10)
    assert st.residual_variance(pd.DataFrame(mat)) == pytest.approx(ve_sm, rel=1e-10)
    res = st.randomised_tukey_hsd(mat, B=10, rng=np.random.default_rng(0))
    np.testing.assert_allclose(res.es_hsd, np.abs(res["diff"]) / math.sqrt(ve_sm), rtol=1e-10)
    assert res.attrs["residual_variance"] == pytest.approx(ve_sm, rel=1e-10)


def test_residual_variance_zero_for_additive_matrix():
    mat = np.add.outer([1, 5, 2], [0, 3, 6, 3]) / 4.0  # exact in binary floating point
    assert st.residual_variance(mat) == 0.0
    res = st.randomised_tukey_hsd(mat, method="exact")
    pair_equal = (res.system_a == 1) & (res.system_b == 3)  # columns 1 and 3 are identical
    assert np.isnan(res.loc[pair_equal, "es_hsd"]).all()
    assert np.isinf(res.loc[~pair_equal, "es_hsd"]).all()


def test_residual_variance_bad_input():
    with pytest.raises(ValueError, match="finite"):
        st.residual_variance([[0.1, 0.2], [np.nan, 0.3]])
    with pytest.raises(ValueError, match="at least 2 topics"):
        st.residual_variance([[0.1, 0.2]])


# ------------------------------------------------------------------------------------------
# paired tests
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paired_randomisation_exact_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    xi, yi = rng.integers(0, 4, size=10), rng.integers(0, 4, size=10)
    res = st.paired_randomisation_test(xi / 10.0, yi / 10.0, method="exact")
    assert res.p_value == pytest.approx(brute_signflip_p(xi - yi), rel=1e-12)
    assert res.n_resamples == 2**10
    assert res.statistic == pytest.approx(np.mean(xi - yi) / 10.0)
    auto = st.paired_randomisation_test(xi / 10.0, yi / 10.0)  # n=10 <= 16: auto is exact
    assert auto.p_value == res.p_value and auto.method == res.method


def test_paired_randomisation_monte_carlo_vs_exact():
    rng = np.random.default_rng(7)
    xi, yi = rng.integers(0, 6, size=15), rng.integers(0, 5, size=15)
    p = brute_signflip_p(xi - yi)
    B = 20000
    mc = st.paired_randomisation_test(xi, yi, B=B, rng=np.random.default_rng(1), method="monte_carlo")
    assert abs(mc.p_value - p) <= 4.5 * math.sqrt(p * (1 - p) / B) + 2.0 / B
    assert 0 < mc.p_value <= 1
    dp = st.paired_randomisation_test(
        xi, yi, B=B, rng=np.random.default_rng(1), method="monte_carlo", p_value="discpower"
    )
    assert mc.p_value == pytest.approx((dp.p_value * B + 1) / (B + 1), rel=1e-12)


def test_paired_randomisation_equals_two_system_tukey():
    rng = np.random.default_rng(3)
    mat = rng.integers(0, 5, size=(9, 2)) / 4.0
    tukey = st.randomised_tukey_hsd(mat, method="exact").p_value.item()
    flip = st.paired_randomisation_test(mat[:, 0], mat[:, 1], method="exact").p_value
    assert tukey == pytest.approx(flip, rel=1e-12)


def test_paired_randomisation_identical_and_large_n():
    x = np.random.default_rng(0).random(40)
    assert st.paired_randomisation_test(x, x, rng=np.random.default_rng(0)).p_value == 1.0
    res = st.paired_randomisation_test(x + 1.0, x, B=200, rng=np.random.default_rng(0))
    assert res.method.startswith("Monte Carlo") and res.p_value == pytest.approx(1 / 201)


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (([0.1, 0.2], [0.1]), {}, "same length"),
        (([0.1, np.nan], [0.1, 0.2]), {}, "x must be finite"),
        (([0.1, 0.2], [0.1, np.inf]), {}, "y must be finite"),
        (([0.1], [0.2]), {}, "at least 2"),
        (([[0.1, 0.2]], [[0.1, 0.2]]), {}, "1-D"),
        (([0.1] * 20, [0.2] * 20), {"B": 0}, "B must be >= 1"),
        (([0.1] * 20, [0.2] * 20), {"rng": None}, "explicit rng"),
        (([0.1, 0.2], [0.2, 0.1]), {"method": "bogus"}, "method must be"),
        (([0.1] * 40, [0.2] * 40), {"method": "exact"}, "infeasible"),
    ],
)
def test_paired_randomisation_bad_input(args, kwargs, match):
    kw = dict(B=10, rng=np.random.default_rng(0))
    kw.update(kwargs)
    with pytest.raises(ValueError, match=match):
        st.paired_randomisation_test(*args, **kw)


def test_paired_t_test_matches_scipy_and_degenerate_cases():
    rng = np.random.default_rng(1)
    x, y = rng.random(20), rng.random(20)
    ref = sps.ttest_rel(x, y)
    res = st.paired_t_test(x, y)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    same = st.paired_t_test(x, x)
    assert (same.statistic, same.p_value) == (0.0, 1.0)
    exact_shift = st.paired_t_test(np.full(5, 0.5), np.full(5, 0.25))
    assert exact_shift.statistic == math.inf and exact_shift.p_value == 0.0
    neg_shift = st.paired_t_test(np.full(5, 0.25), np.full(5, 0.5))
    assert neg_shift.statistic == -math.inf and neg_shift.p_value == 0.0
    with pytest.raises(ValueError, match="at least 2"):
        st.paired_t_test([1.0], [2.0])
    with pytest.raises(ValueError, match="same length"):
        st.paired_t_test([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="finite"):
        st.paired_t_test([1.0, np.nan], [1.0, 2.0])


# ------------------------------------------------------------------------------------------
# bootstrap CI
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_bootstrap_ci_sanity(method):
    rng = np.random.default_rng(0)
    x = rng.normal(0.5, 0.2, size=200)
    y = x - rng.normal(0.05, 0.1, size=200)
    res = st.bootstrap_ci(x, y, method=method, B=4000, rng=np.random.default_rng(1))
    d = x - y
    assert res.estimate == pytest.approx(d.mean())
    assert res.low < res.estimate < res.high
    # close to the t interval for a large, near-normal sample
    half_t = sps.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size)
    assert (res.high - res.low) / 2 == pytest.approx(half_t, rel=0.1)
    again = st.bootstrap_ci(x, y, method=method, B=4000, rng=np.random.default_rng(1))
    assert again == res
    narrow = st.bootstrap_ci(x, y, method=method, level=0.5, B=4000, rng=np.random.default_rng(1))
    assert res.low < narrow.low < narrow.high < res.high


def test_bootstrap_ci_percentile_matches_manual_resampling():
    x = np.random.default_rng(2).random(30)
    res = st.bootstrap_ci(x, B=3000, rng=np.random.default_rng(5))
    means = x[np.random.default_rng(6).integers(0, 30, size=(20000, 30))].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    se = x.std(ddof=1) / math.sqrt(30)
    assert abs(res.low - lo) < 0.1 * se and abs(res.high - hi) < 0.1 * se


def test_bootstrap_ci_degenerate_and_bad_input():
    res = st.bootstrap_ci([0.3, 0.3, 0.3], rng=np.random.default_rng(0))
    assert (res.low, res.high) == (0.3, 0.3)
    for kw, match in [
        (dict(level=1.0), "strictly between 0 and 1"),
        (dict(level=0), "strictly between 0 and 1"),
        (dict(method="basic"), "method must be"),
        (dict(B=0), "B must be >= 1"),
        (dict(rng=None), "explicit rng"),
    ]:
        args = dict(rng=np.random.default_rng(0))
        args.update(kw)
        with pytest.raises(ValueError, match=match):
            st.bootstrap_ci([0.1, 0.2, 0.4], **args)


# ------------------------------------------------------------------------------------------
# Kendall's tau CI
# ------------------------------------------------------------------------------------------


def test_tau_identical_and_reversed():
    x = np.random.default_rng(0).random(30)
    assert tuple(st.kendall_tau_ci(x, x)) == (1.0, 1.0, 1.0, 30)
    r = st.kendall_tau_ci(x, -x)
    assert (r.tau, r.low, r.high) == (-1.0, -1.0, -1.0)


@pytest.mark.parametrize("seed, ties", [(0, False), (1, True), (2, True)])
def test_tau_asymptotic_matches_loop_formula(seed, ties):
    rng = np.random.default_rng(seed)
    x = rng.random(25)
    y = x + rng.normal(0, 0.3, 25)
    if ties:
        x, y = np.round(x * 5), np.round(y * 5)
    tau, lo, hi = hwc_tau_ci_loops(list(x), list(y), 0.9)
    res = st.kendall_tau_ci(x, y, level=0.9)
    assert res.tau == pytest.approx(sps.kendalltau(x, y).statistic, rel=1e-12)
    assert (res.tau, res.low, res.high) == pytest.approx((tau, lo, hi), rel=1e-10)


def test_tau_interval_not_clipped():
    x = np.arange(44.0)
    y = x.copy()
    y[[10, 11]] = y[[11, 10]]  # one adjacent swap among 44 systems
    res = st.kendall_tau_ci(x, y)
    assert res.tau < 1 and res.high > 1.0


def test_tau_asymptotic_coverage_simulation():
    rng = np.random.default_rng(20170807)
    rho, n, reps = 0.6, 40, 200
    tau_true = 2 / math.pi * math.asin(rho)
    cov = [[1, rho], [rho, 1]]
    hits = 0
    for _ in range(reps):
        xy = rng.multivariate_normal([0, 0], cov, size=n)
        r = st.kendall_tau_ci(xy[:, 0], xy[:, 1])
        hits += r.low <= tau_true <= r.high
    # nominal 0.95; binomial sd over 200 reps is ~0.015
    assert 0.88 <= hits / reps <= 0.99


def test_tau_bootstrap():
    rng = np.random.default_rng(3)
    x = rng.random(30)
    y = x + rng.normal(0, 0.2, 30)
    a = st.kendall_tau_ci(x, y, method="bootstrap", rng=np.random.default_rng(1), B=3000)
    b = st.kendall_tau_ci(x, y, method="bootstrap", rng=np.random.default_rng(1), B=3000)
    assert a == b
    assert a.low < a.tau < a.high
    asym = st.kendall_tau_ci(x, y)
    assert abs((a.high - a.low) - (asym.high - asym.low)) < 0.5 * (asym.high - asym.low)


def test_tau_b_batch_matches_scipy():
    rng = np.random.default_rng(4)
    X = np.round(rng.random((6, 12)) * 4)
    Y = np.round(rng.random((6, 12)) * 4)
    got = correlation._tau_b_batch(X, Y)
    ref = [sps.kendalltau(X[i], Y[i]).statistic for i in range(6)]
    np.testing.assert_allclose(got, ref, rtol=1e-12)


@pytest.mark.parametrize(
    "x, y, kwargs, match",
    [
        ([1, 2, 3], [1, 2], {}, "same length"),
        ([1, 2, np.nan], [1, 2, 3], {}, "finite"),
        ([1, 1, 1], [1, 2, 3], {}, "constant"),
        ([1], [1], {}, "at least 2"),
        ([1, 2, 3], [1, 3, 2], {"level": 1.5}, "strictly between 0 and 1"),
        ([1, 2, 3], [1, 3, 2], {"method": "exact"}, "method must be"),
        ([1, 2, 3], [1, 3, 2], {"method": "bootstrap"}, "explicit rng"),
        ([1, 2, 3], [1, 3, 2], {"method": "bootstrap", "rng": np.random.default_rng(0), "B": 0}, "B must"),
    ],
)
def test_tau_bad_input(x, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        st.kendall_tau_ci(x, y, **kwargs)


# ------------------------------------------------------------------------------------------
# Krippendorff's alpha
# ------------------------------------------------------------------------------------------

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", reliability data with
# missing values (4 coders x 12 units, shown here as units x coders); published alphas:
# nominal .743, ordinal .815, interval .849.
_N = np.nan
KRIPP_2011 = np.array(
    [
        [1, 1, _N, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
        [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [_N, 5, 5, 5], [_N, _N, 1, 1], [_N, _N, _N, _N],
    ]
)


@pytest.mark.parametrize("level, published", [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_krippendorff_published_example(level, published):
    assert round(st.krippendorff_alpha(KRIPP_2011, level), 3) == published


def test_krippendorff_string_labels_hand_computed():
    table = [
        ["LEFT", "LEFT", "EQUAL"],
        ["RIGHT", "RIGHT", "RIGHT"],
        ["LEFT", None, "LEFT"],
        ["EQUAL", "RIGHT", "EQUAL"],
        ["LEFT", "RIGHT", None],
        [None, None, "RIGHT"],
    ]
    expected = alpha_nominal_by_hand(table)
    df = pd.DataFrame(table, columns=["a1", "a2", "a3"])
    assert st.krippendorff_alpha(df, "nominal") == pytest.approx(expected, rel=1e-12)
    # nominal alpha does not depend on the label names or their order
    recoded = df.replace({"LEFT": "L", "RIGHT": "R", "EQUAL": "E"})
    assert st.krippendorff_alpha(recoded) == pytest.approx(expected, rel=1e-12)
    # numeric codes with NaN for missing give the same value
    codes = df.replace({"LEFT": 0, "EQUAL": 1, "RIGHT": 2}).astype(float)
    assert st.krippendorff_alpha(codes.to_numpy()) == pytest.approx(expected, rel=1e-12)


def test_krippendorff_ordinal_strings_need_order():
    df = pd.DataFrame([["LEFT", "EQUAL"], ["RIGHT", "RIGHT"], ["EQUAL", "LEFT"], ["LEFT", "LEFT"]])
    order = ["LEFT", "EQUAL", "RIGHT"]
    with pytest.raises(ValueError, match="ordered labels"):
        st.krippendorff_alpha(df, "ordinal")
    coded = df.replace({k: i for i, k in enumerate(order)}).astype(float).to_numpy()
    assert st.krippendorff_alpha(df, "ordinal", categories=order) == pytest.approx(
        st.krippendorff_alpha(coded, "ordinal"), rel=1e-12
    )


@pytest.mark.parametrize(
    "data, kwargs, match",
    [
        ([["a", "b"], ["a", "a"]], {"level": "interval"}, "no interval distances"),
        ([["a", 1.0], ["a", "a"]], {}, "mixes"),
        ([[1.0], [2.0]], {}, "at least 2 coders"),
        ([1.0, 2.0], {}, "2-D"),
        ([["a", "b"], ["a", "c"]], {"categories": ["a", "b"]}, "outside categories"),
        ([[1.0, 1.0], [1.0, 1.0]], {}, "same value"),
        ([[1.0, np.nan], [np.nan, 2.0]], {}, "at least two coders"),
        ([[1.0, 2.0], [2.0, 2.0]], {"level": "cardinal"}, "level must be"),
        ([[1.0, np.inf], [2.0, 2.0]], {}, "infinite"),
        ([[1.0, 2.0], [2.0, 2.0]], {"categories": [1, 1, 2]}, "duplicates"),
    ],
)
def test_krippendorff_bad_input(data, kwargs, match):
    arr = np.array(data, dtype=object)
    with pytest.raises(ValueError, match=match):
        st.krippendorff_alpha(arr, **kwargs)


# ------------------------------------------------------------------------------------------
# discrepancies (Sakai 2017 Table 3)
# ------------------------------------------------------------------------------------------


def _fake(rows):
    return pd.DataFrame(rows, columns=["system_a", "system_b", "diff", "p_value", "es_hsd"])


def test_discrepancies_picks_one_sided_significance():
    a = _fake([("X", "Y", 0.14, 0.064, 1.8), ("X", "Z", 0.2, 0.01, 2.5), ("Y", "Z", 0.1, 0.03, 1.6),
               ("Z", "W", -0.05, 0.5, 0.4)])
    b = _fake([("Y", "X", -0.13, 0.034, 2.0), ("X", "Z", 0.2, 0.02, 2.4), ("Y", "Z", 0.09, 0.05, 1.5),
               ("Z", "W", -0.05, 0.6, 0.4)])
    out = st.discrepancies(a, b, alpha=0.05)
    assert list(out.columns) == [
        "system_a", "system_b", "p_value_RawG", "abs_diff_RawG", "es_hsd_RawG",
        "p_value_UG", "abs_diff_UG", "es_hsd_UG", "significant_in",
    ]
    assert list(zip(out.system_a, out.system_b)) == [("X", "Y"), ("Y", "Z")]  # p = alpha is not < alpha
    assert list(out.significant_in) == ["UG", "RawG"]
    assert out.loc[0, "abs_diff_UG"] == pytest.approx(0.13)
    assert out.loc[0, "p_value_UG"] == pytest.approx(0.034)
    none = st.discrepancies(a, a)
    assert none.empty and list(none.columns) == list(out.columns)
    labelled = st.discrepancies(a, b, labels=("nG@1", "UnG@1"))
    assert "p_value_UnG@1" in labelled.columns


def test_discrepancies_on_real_results():
    rng = np.random.default_rng(12)
    base = rng.random((30, 5)) + np.linspace(0, 0.3, 5)
    ra = st.randomised_tukey_hsd(base, B=500, rng=np.random.default_rng(0))
    rb = st.randomised_tukey_hsd(base + rng.normal(0, 0.2, base.shape), B=500, rng=np.random.default_rng(0))
    out = st.discrepancies(ra, rb, alpha=0.05)
    expected = ((ra.p_value < 0.05) != (rb.p_value < 0.05)).sum()
    assert len(out) == expected


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(alpha=0.0), "strictly between 0 and 1"),
        (dict(labels=("A", "A")), "two distinct"),
        (dict(labels=("A",)), "two distinct"),
    ],
)
def test_discrepancies_bad_arguments(kwargs, match):
    a = _fake([("X", "Y", 0.1, 0.01, 1.0)])
    with pytest.raises(ValueError, match=match):
        st.discrepancies(a, a, **kwargs)


def test_discrepancies_bad_results():
    a = _fake([("X", "Y", 0.1, 0.01, 1.0), ("X", "Z", 0.1, 0.01, 1.0)])
    b = _fake([("X", "Y", 0.1, 0.01, 1.0), ("Y", "Z", 0.1, 0.01, 1.0)])
    with pytest.raises(ValueError, match="different system pairs"):
        st.discrepancies(a, b)
    with pytest.raises(ValueError, match="lacks columns"):
        st.discrepancies(a.drop(columns="es_hsd"), a)
    with pytest.raises(ValueError, match="more than once"):
        st.discrepancies(_fake([("X", "Y", 0.1, 0.01, 1.0), ("Y", "X", 0.1, 0.01, 1.0)]), a)
    with pytest.raises(ValueError, match="must be a DataFrame"):
        st.discrepancies({"p_value": [0.1]}, a)


def test_pearson_ci_is_fisher_z():
    from helpers.stats import pearson_ci
    rng = np.random.default_rng(3)
    x = rng.normal(size=30)
    y = x + rng.normal(size=30)
    r = np.corrcoef(x, y)[0, 1]
    z, half = np.arctanh(r), 1.959963984540054 / np.sqrt(30 - 3)
    assert pearson_ci(x, y) == pytest.approx((np.tanh(z - half), np.tanh(z + half)), rel=1e-9)
    with pytest.raises(ValueError, match="4 pairs"):
        pearson_ci([1, 2, 3], [1, 2, 4])
    with pytest.raises(ValueError, match="constant"):
        pearson_ci([1, 1, 1, 1], [1, 2, 3, 4])


def test_tau_or_undefined_clips_and_says_undefined():
    from helpers.stats import kendall_tau_ci, tau_or_undefined
    x, y = [1, 2, 3, 4, 5], [1, 2, 3, 5, 4]
    raw = kendall_tau_ci(x, y)
    assert raw.high > 1  # the paper's convention: not clipped
    t = tau_or_undefined(x, y)
    assert (t.tau, t.low, t.high) == (raw.tau, raw.low, 1.0)
    u = tau_or_undefined([1, 1, 1], [1, 2, 3])
    assert np.isnan(u.tau) and np.isnan(u.low) and u.n == 3


@pytest.mark.parametrize("shape,discrete", [((30, 9), False), ((12, 5), True), ((4, 3), True)])
def test_hsd_many_sparse_sum_is_bit_identical_to_the_gathers(shape, discrete, monkeypatch):
    """From SPARSE_FROM matrices on, the permuted sums come from one sparse product; the p-values
    must be exactly those of the per-matrix gathers (same permutations, same order of addition)."""


    rng = np.random.default_rng(5)
    xs = [(rng.integers(0, 4, shape) / 3 if discrete else rng.random(shape)) for _ in range(6)]
    xs.append(xs[0].copy())  # ties between matrices too
    monkeypatch.setattr(hsd, "SPARSE_FROM", 2)
    sparse = st.randomised_tukey_hsd_many(xs, 700, np.random.default_rng(3), chunk_bytes=4096)
    monkeypatch.setattr(hsd, "SPARSE_FROM", 10**9)
    gathered = st.randomised_tukey_hsd_many(xs, 700, np.random.default_rng(3), chunk_bytes=4096)
    for a, b in zip(sparse, gathered):
        np.testing.assert_array_equal(a["p_value"].to_numpy(), b["p_value"].to_numpy())
    np.testing.assert_array_equal(sparse[0]["p_value"].to_numpy(), sparse[-1]["p_value"].to_numpy())


def test_holm_matches_statsmodels_and_thuir_reexport():
    from statsmodels.stats.multitest import multipletests

    from helpers import thuir

    p = np.array([0.009, 0.098, 0.053, np.nan])
    got = st.holm(p)
    ref = multipletests(p[:3], method="holm")[1]
    assert np.allclose(got[:3], ref) and np.isnan(got[3])
    assert got[0] == pytest.approx(0.027)  # three thresholds tested: 3 x 0.009
    assert st.holm([0.009, 0.098])[0] == pytest.approx(0.018)
    assert thuir.holm is st.holm
    assert np.isnan(st.holm([np.nan])).all()


def test_sd_interval_covers_the_true_sd():
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(400):
        x = rng.normal(0, 2.0, 300)
        lo, hi = st.sd_interval(x.std(ddof=1), 300)
        hits += lo <= 2.0 <= hi
    assert 0.92 <= hits / 400 <= 0.98
    lo, hi = st.sd_interval(1.0, 300)
    assert lo < 1 < hi and hi - lo == pytest.approx(0.16, abs=0.01)
    with pytest.raises(ValueError, match="n >= 2"):
        st.sd_interval(1.0, 1)


def test_kendall_tau_ties_equal_means_that_differ_only_by_rounding_noise():
    from helpers.stats.correlation import kendall_tau_ci
    a = 0.1 + 0.2          # 0.30000000000000004
    b = 0.3                # the same mean, summed another way
    x = np.array([a, b, 0.5, 0.7])
    y = np.array([0.3, 0.3, 0.5, 0.7])
    exact = kendall_tau_ci(np.array([0.3, 0.3, 0.5, 0.7]), y).tau
    assert kendall_tau_ci(x, y).tau == pytest.approx(exact, abs=0) == 1.0
    # a real difference is still a difference
    assert kendall_tau_ci(np.array([0.3, 0.3001, 0.5, 0.7]), y).tau < 1.0
