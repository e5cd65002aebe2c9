"""helpers.stats.tau_topic_bootstrap: Kendall's tau between two measures' system rankings with a
percentile bootstrap interval over topics (notebook 04)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from helpers import stats


def test_point_estimate_interval_and_determinism():
    rng = np.random.default_rng(0)
    a = rng.random((60, 8)) + np.linspace(0, 1, 8)
    b = a + rng.normal(0, 0.3, a.shape)
    t = stats.tau_topic_bootstrap(a, b, np.random.default_rng(1), B=500)
    assert t.tau == pytest.approx(scipy.stats.kendalltau(a.mean(0), b.mean(0)).statistic)
    assert -1 <= t.low <= t.tau <= t.high <= 1 and t.n == 8
    assert t == stats.tau_topic_bootstrap(a, b, np.random.default_rng(1), B=500)


def test_identical_measures_and_more_topics():
    rng = np.random.default_rng(2)
    a = rng.random((40, 6))
    same = stats.tau_topic_bootstrap(a, a, rng, B=200)
    assert (same.tau, same.low, same.high) == (1.0, 1.0, 1.0)
    # the interval narrows with more topics from the same population
    def width(T):
        r = np.random.default_rng(3)
        base = np.linspace(0, 0.3, 6)
        x = base + r.normal(0, 1, (T, 6))
        y = base + r.normal(0, 1, (T, 6))
        t = stats.tau_topic_bootstrap(x, y, np.random.default_rng(4), B=400)
        return t.high - t.low
    assert width(400) < width(20)


def test_bad_input():
    with pytest.raises(ValueError, match="one shape"):
        stats.tau_topic_bootstrap(np.zeros((5, 3)), np.zeros((5, 4)), np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        stats.tau_topic_bootstrap(np.ones((5, 3)), np.ones((5, 3)), None)
    t = stats.tau_topic_bootstrap(np.ones((5, 3)), np.random.default_rng(0).random((5, 3)), np.random.default_rng(0))
    assert np.isnan(t.tau)   # a measure that ties every system orders nothing
