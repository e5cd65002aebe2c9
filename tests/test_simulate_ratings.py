"""helpers.simulate.ratings: Sakai's (2017) rating simulation."""

import numpy as np
import pandas as pd
import pytest

from helpers.simulate import ratings


def test_simulate_ratings_follows_the_paper():
    qrels = pd.DataFrame({"relevance": [0, 1, 2, 0, 2]})
    r = ratings.simulate_ratings(qrels, n=40, d_max=4, rng=np.random.default_rng(0))
    assert r.shape == (5, 40)
    assert (r[[0, 3]] == 0).all()
    assert set(np.unique(r[[1, 2, 4]])) <= set(range(5)) and r[[1, 2, 4]].max() == 4


def test_reproducible_per_seed():
    a = ratings.uniform_ratings(10, 5, 2, np.random.default_rng(3))
    b = ratings.uniform_ratings(10, 5, 2, np.random.default_rng(3))
    assert np.array_equal(a, b)


def test_grid_agrees_with_closed_form():
    grid = ratings.spread_grid([2, 4], [5, 10], 20000, 0.2, np.random.default_rng(1))
    # 20,000 Bernoulli draws: standard error <= 0.0036; allow 4 s.e.
    assert (grid["share_full_spread"] - grid["p_full_spread_given_relevant"]).abs().max() < 0.015
    assert ratings.grid_vs_exact(grid)["worst_z"] < 4


def test_grid_compares_like_with_like_at_small_n():
    """The simulated share counts only items with RawG > 0: at Dmax = 1, N = 2 it estimates
    P(D = 1 | RawG > 0) = (1/2) / (3/4) = 2/3, not the unconditional P(D = 1) = 1/2."""
    grid = ratings.spread_grid([1, 2], [2, 3], 20000, 0.2, np.random.default_rng(20170901))
    cell = grid.set_index(["d_max", "n"])
    assert cell.loc[(1, 2), "p_full_spread_given_relevant"] == pytest.approx(2 / 3)
    assert abs(cell.loc[(1, 2), "share_full_spread"] - 2 / 3) < 4 * cell.loc[(1, 2), "se_full_spread"]
    check = ratings.grid_vs_exact(grid)
    assert check["cells"] == 4 and check["worst"] < 0.015 and check["worst_z"] < 4 and check["agrees"]
    # a share off by far more than its noise is flagged
    off = grid.assign(share_full_spread=grid["share_full_spread"] + 0.1)
    assert ratings.grid_vs_exact(off)["worst_z"] > 10 and not ratings.grid_vs_exact(off)["agrees"]


@pytest.mark.parametrize("kwargs,message", [
    ({"n": 0}, "positive integer"), ({"d_max": 0}, "d_max"), ({"rng": 1}, "Generator")])
def test_bad_input(kwargs, message):
    args = {"n_items": 3, "n": 2, "d_max": 2, "rng": np.random.default_rng(0)} | kwargs
    with pytest.raises(ValueError, match=message):
        ratings.uniform_ratings(**args)
    with pytest.raises(ValueError, match="relevance"):
        ratings.simulate_ratings(pd.DataFrame({"x": [1]}), 2, 2, np.random.default_rng(0))


# --------------------------------------------------------------------------------------------
# stc_like_collection


@pytest.fixture(scope="module")
def stc():
    return ratings.stc_like_collection(np.random.default_rng(20170901))


def test_stc_like_collection_has_the_shape_of_ntcir12_stc_chinese(stc):
    assert stc.qrels["query_id"].nunique() == 100
    assert stc.run["query_id"].nunique() == 100
    assert stc.run["run_id"].nunique() == 44
    assert set(stc.teams) == set(stc.run["run_id"])
    per_team = pd.Series(stc.teams).value_counts()
    assert len(per_team) == 16
    assert per_team.between(1, 4).all() and per_team.sum() == 44
    assert set(stc.qrels["relevance"]) == {0, 1, 2}
    assert list(stc.qrels.columns) == ["query_id", "doc_id", "relevance"]
    assert list(stc.run.columns) == ["run_id", "query_id", "doc_id", "rank"]


def test_stc_like_runs_are_top10_lists_and_the_pool_is_exactly_judged(stc):
    sizes = stc.run.groupby(["run_id", "query_id"]).size()
    assert (sizes == 10).all() and len(sizes) == 44 * 100
    ranks = stc.run.groupby(["run_id", "query_id"])["rank"].apply(lambda r: sorted(r) == list(range(1, 11)))
    assert ranks.all()
    assert not stc.run.duplicated(["run_id", "query_id", "doc_id"]).any()
    pooled = set(zip(stc.run["query_id"], stc.run["doc_id"]))
    judged = set(zip(stc.qrels["query_id"], stc.qrels["doc_id"]))
    assert pooled == judged and len(judged) == len(stc.qrels)
    # every topic has a relevant pooled item, so no topic is skipped by the measures
    assert (stc.qrels.groupby("query_id")["relevance"].max() > 0).all()


def test_stc_like_run_quality_varies_by_team(stc):
    from helpers import measures

    res = measures.evaluate(stc.qrels, stc.run, ["nG@1"], gains="1:3")
    means = measures.to_matrix(res, "nG@1").mean()
    quality = pd.Series(stc.quality)[means.index]
    assert np.corrcoef(means, quality)[0, 1] > 0.8  # better latent quality -> better scores
    team = pd.Series(stc.teams)[means.index]
    between = means.groupby(team.to_numpy()).mean().std()
    within = means.groupby(team.to_numpy()).std().dropna().mean()
    assert between > 1.5 * within  # runs of a team resemble each other


def test_stc_like_collection_is_deterministic_and_fast():
    import time

    start = time.perf_counter()
    a = ratings.stc_like_collection(np.random.default_rng(5))
    assert time.perf_counter() - start < 1.0
    b = ratings.stc_like_collection(np.random.default_rng(5))
    c = ratings.stc_like_collection(np.random.default_rng(6))
    pd.testing.assert_frame_equal(a.qrels, b.qrels)
    pd.testing.assert_frame_equal(a.run, b.run)
    assert a.teams == b.teams and a.quality == b.quality
    assert not a.run["doc_id"].equals(c.run["doc_id"])


def test_stc_like_collection_options():
    c = ratings.stc_like_collection(np.random.default_rng(0), n_topics=7, team_sizes=(1, 2), depth=3,
                                    n_candidates=5)
    assert c.run.shape == (3 * 7 * 3, 4)
    assert sorted(pd.Series(c.teams).value_counts().tolist()) == [1, 2]
    assert c.qrels.groupby("query_id").size().max() <= 5


@pytest.mark.parametrize("kwargs,message", [
    ({"rng": 1}, "Generator"),
    ({"n_topics": 0}, "n_topics"),
    ({"depth": 2.5}, "depth"),
    ({"n_candidates": 5, "depth": 10}, "at least depth"),
    ({"team_sizes": (2, 0)}, "team_sizes"),
    ({"team_sizes": []}, "team_sizes"),
    ({"team_sizes": (1,) * 26}, "at most 25"),
    ({"relevant_share": (0.0, 1.0)}, "relevant_share"),
    ({"l2_share": (1.0, -1.0)}, "l2_share"),
    ({"team_skill": (0.5, -0.1)}, "team_skill"),
    ({"run_spread": -1.0}, "run_spread"),
    ({"team_correlation": 1.5}, "team_correlation"),
])
def test_stc_like_collection_bad_input(kwargs, message):
    args = {"rng": np.random.default_rng(0)} | kwargs
    rng = args.pop("rng")
    with pytest.raises(ValueError, match=message):
        ratings.stc_like_collection(rng, **args)


def test_stc_like_collection_is_reachable_lazily():
    import helpers.simulate as sim

    assert sim.stc_like_collection is ratings.stc_like_collection


def test_simulate_ratings_relevance_threshold():
    sim = ratings
    q = pd.DataFrame({"query_id": "q", "doc_id": [f"d{i}" for i in range(400)], "relevance": [0, 1, 2, 3] * 100})
    r2 = sim.simulate_ratings(q, 6, 3, np.random.default_rng(0), threshold=2)
    lv = q["relevance"].to_numpy()
    assert (r2[lv < 2] == 0).all()          # DL-19: level 1 "related" is not relevant -> zeros
    assert (r2[lv >= 2].sum(axis=1) > 0).mean() > 0.99
    r1 = sim.simulate_ratings(q, 6, 3, np.random.default_rng(0))  # default: level 1 relevant (Sakai)
    assert (r1[lv == 1].sum(axis=1) > 0).mean() > 0.99 and (r1[lv == 0] == 0).all()
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="threshold"):
            sim.simulate_ratings(q, 6, 3, np.random.default_rng(0), threshold=bad)


# --------------------------------------------------------------------------------------------
# uniform ratings conditioned on each item's sum (the like-for-like contrast of notebooks 01-02)


@pytest.mark.parametrize("n,d_max", [(3, 3), (4, 2), (2, 5)])
def test_given_sum_is_uniform_over_the_tuples_with_that_sum(n, d_max):
    """Every tuple of {0..d_max}^n with the sum occurs about equally often (counted by enumeration)."""
    import itertools
    from collections import Counter

    rng = np.random.default_rng(0)
    draws = 40_000
    for s in range(n * d_max + 1):
        r = ratings.uniform_ratings_given_sum(np.full(draws, s), n, d_max, rng)
        assert (r.sum(axis=1) == s).all() and r.min() >= 0 and r.max() <= d_max
        tuples = [t for t in itertools.product(range(d_max + 1), repeat=n) if sum(t) == s]
        seen = Counter(map(tuple, r.astype(int)))
        assert set(seen) == set(tuples)
        expected = draws / len(tuples)
        # every count within 5 binomial standard errors of its expectation
        assert max(abs(c - expected) for c in seen.values()) < 5 * np.sqrt(expected) + 1


def test_given_sum_keeps_the_real_raw_gain_and_changes_only_the_spread():
    from helpers import gains

    rng = np.random.default_rng(1)
    real = np.array([[3, 3, 3], [0, 0, 3], [1, 1, 0], [0, 0, 0], [2, 2, 2]] * 200, dtype=float)
    sim = ratings.uniform_ratings_given_sum(gains.raw_gain(real, 3), 3, 3, rng)
    assert np.array_equal(gains.raw_gain(sim, 3), gains.raw_gain(real, 3))
    d = gains.spread(sim, 3)
    assert (d[::5] == 0).all() and (d[3::5] == 0).all()  # sums 9 and 0 admit one tuple only
    assert (d[4::5] > 0).any() and (d[4::5] == 0).any()    # sum 6: (2, 2, 2) is one of 10 tuples


@pytest.mark.parametrize("sums,message", [([1.5], "integers"), ([-1], "integers"), ([7], "0..n"), ([[1]], "one per")])
def test_given_sum_bad_input(sums, message):
    with pytest.raises(ValueError, match=message):
        ratings.uniform_ratings_given_sum(sums, 3, 2, np.random.default_rng(0))


def test_grid_check_is_corrected_over_the_cells():
    """The exact-probability check is two-sided and Bonferroni-corrected at a family-wise 0.001:
    a maximum over more cells needs a larger z (an uncorrected z > 3 rule called a correct
    simulation off in 1-2% of runs)."""
    from scipy.stats import norm

    grid = ratings.spread_grid([2, 4], [5, 10], 2000, 0.2, np.random.default_rng(5))
    check = ratings.grid_vs_exact(grid)
    assert check["z_limit"] == pytest.approx(norm.isf(0.001 / 8)) and check["family_alpha"] == 0.001
    big = pd.concat([grid] * 4, ignore_index=True)
    assert ratings.grid_vs_exact(big)["z_limit"] > check["z_limit"]
    # a gap of 3.5 s.e. in one of 4 cells is within the corrected limit (3.48 would not be at 1 cell)
    g = grid.copy()
    g.loc[0, "share_full_spread"] = g.loc[0, "p_full_spread_given_relevant"] - 3.5 * g.loc[0, "se_full_spread"]
    g.loc[1:, "share_full_spread"] = g.loc[1:, "p_full_spread_given_relevant"]
    assert ratings.grid_vs_exact(g)["agrees"] and not ratings.grid_vs_exact(g.iloc[:1], family_alpha=0.01)["agrees"]
