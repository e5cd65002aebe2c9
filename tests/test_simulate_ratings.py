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
    assert (grid["share_full_spread"] - grid["p_full_spread_exact"]).abs().max() < 0.015


@pytest.mark.parametrize("kwargs,message", [
    ({"n": 0}, "positive integer"), ({"d_max": 0}, "d_max"), ({"rng": 1}, "Generator")])
def test_bad_input(kwargs, message):
    args = {"n_items": 3, "n": 2, "d_max": 2, "rng": np.random.default_rng(0)} | kwargs
    with pytest.raises(ValueError, match=message):
        ratings.uniform_ratings(**args)
    with pytest.raises(ValueError, match="relevance"):
        ratings.simulate_ratings(pd.DataFrame({"x": [1]}), 2, 2, np.random.default_rng(0))
