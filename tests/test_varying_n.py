"""Items rated by different numbers of assessors (each topic with its own assessors): notebook 01's
file mode keeps every item with at least two ratings, each with its own N, and contrasts it with
uniform ratings drawn with the same N per item."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import gains
from helpers.replicates import runner, studies
from helpers.simulate import ratings as sim_ratings


def _per_topic_design(seed: int = 3) -> pd.DataFrame:
    """Six topics, each judged by its own 2-4 assessors (the common design notebook 01 refused)."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(6):
        assessors = [f"T{t}A{k}" for k in range(2 + t % 3)]
        for d in range(20):
            for a in assessors:
                rows.append({"query_id": f"q{t}", "doc_id": f"d{d}", "assessor": a, "rating": int(rng.integers(0, 4))})
    return pd.DataFrame(rows)


def test_comparable_items_keep_items_with_two_or_more_ratings():
    matrix = gains.ratings_matrix(_per_topic_design())
    assert len(matrix.dropna()) == 0                         # no item is rated by all 18 assessors
    kept = gains.comparable_items(matrix)
    assert len(kept) == 120 and kept.shape[1] == matrix.shape[1]
    assert sorted(set(gains.n_ratings(kept))) == [2, 3, 4]
    single = matrix.copy()
    single.iloc[:, 1:] = np.nan                              # one rating per item: no spread to compare
    with pytest.raises(ValueError, match=r"your ratings: 0 item\(s\) rated by at least 2 assessors .*two items"):
        gains.comparable_items(single.dropna(how="all"), what="your ratings")


def test_n_label_and_note():
    assert gains.n_label([10, 10, 10]) == 10 and isinstance(gains.n_label([10, 10]), int)
    assert gains.n_label([2, 4, 3]) == "2–4"
    assert gains.varying_n_note([5, 5]) == ""
    note = gains.varying_n_note([2, 3, 4, 3])
    assert "2–4, mean 3.00" in note and "own N" in note and "same N per item" in note


def test_ug_uses_each_items_own_n():
    ratings = np.array([[2, 2, np.nan, np.nan], [2, 2, 2, 2]])      # both unanimous, N = 2 and 4
    ug = gains.unanimity_aware_gain(ratings, d_max=3, p=0.2)
    assert ug.tolist() == pytest.approx([4 + 0.2 * 2 * 3, 8 + 0.2 * 4 * 3])


def test_uniform_ratings_like_has_each_items_n_and_equals_the_fixed_n_draw():
    n = np.array([2, 4, 3, 2])
    values = sim_ratings.uniform_ratings_like(n, 3, np.random.default_rng(1))
    assert values.shape == (4, 4) and gains.n_ratings(values).tolist() == n.tolist()
    fixed = sim_ratings.uniform_ratings_like([5] * 7, 2, np.random.default_rng(9))
    assert np.array_equal(fixed, sim_ratings.uniform_ratings(7, 5, 2, np.random.default_rng(9)))
    with pytest.raises(ValueError, match="positive integers"):
        sim_ratings.uniform_ratings_like([2, 0], 3, np.random.default_rng(1))


def test_uniform_contrast_with_per_item_n():
    kept = gains.comparable_items(gains.ratings_matrix(_per_topic_design()))
    n_item = gains.n_ratings(kept).tolist()
    draws = runner.run_replicates(studies.uniform_contrast, 40, 5, common={"n_items": len(n_item), "n": n_item,
                                                                           "d_max": 3, "p": 0.2}, scheduler=None)
    # the exact share of full spread among the items with RawG > 0: P(D = Dmax) summed item by item
    # over the expected number of items with RawG > 0
    exact = (np.sum([gains.prob_full_spread(k, 3) for k in n_item])
             / np.sum([1 - 4.0 ** -k for k in n_item]))
    assert draws["share_full_spread"].mean() == pytest.approx(exact, abs=0.03)
    fixed = runner.run_replicates(studies.uniform_contrast, 3, 5, common={"n_items": 50, "n": [4] * 50, "d_max": 3,
                                                                          "p": 0.2}, scheduler=None)
    same = runner.run_replicates(studies.uniform_contrast, 3, 5, common={"n_items": 50, "n": 4, "d_max": 3, "p": 0.2},
                                 scheduler=None)
    pd.testing.assert_frame_equal(fixed, same)          # one N for all: the draws of before
    with pytest.raises(ValueError, match="n lists 2 items"):
        studies.uniform_contrast(np.random.default_rng(0), n_items=3, n=[2, 3], d_max=3, p=0.2)


def test_given_sum_with_per_item_n_keeps_each_items_sum_and_n():
    n = np.array([2, 3, 2, 4, 3])
    sums = np.array([1, 5, 4, 0, 2])
    values = sim_ratings.uniform_ratings_given_sum(sums, n, 2, np.random.default_rng(3))
    assert values.shape == (5, 4)
    assert (np.isnan(values).sum(axis=1) == 4 - n).all()
    assert (np.nansum(values, axis=1) == sums).all()
    same = sim_ratings.uniform_ratings_given_sum(sums[[0, 2]], np.array([2, 2]), 2, np.random.default_rng(3))
    assert same.shape == (2, 2) and (same.sum(axis=1) == sums[[0, 2]]).all()
    with pytest.raises(ValueError, match="one per item"):
        sim_ratings.uniform_ratings_given_sum(sums, np.array([2, 3]), 2, np.random.default_rng(3))
