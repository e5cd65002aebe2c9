"""helpers.gains: Sakai (EVIA 2017) Table 1 exactly, the STC-2 example, properties, bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import gains, paths

TABLE1 = [[2, 2, 2, 2, 2], [1, 1, 2, 3, 3], [0, 2, 2, 3, 3], [1, 1, 1, 1, 1],
          [0, 0, 0, 0, 3], [0, 0, 0, 0, 2], [0, 0, 0, 0, 1]]


def test_table1_against_the_paper():
    # Values as printed in Sakai (2017) Table 1 (Dmax = 3, N = 5), not recomputed here.
    assert gains.raw_gain(TABLE1).tolist() == [10, 10, 10, 5, 3, 2, 1]
    assert gains.spread(TABLE1).tolist() == [0, 2, 3, 0, 3, 2, 1]
    assert gains.weighted_gain(TABLE1, 3).round(1).tolist() == [10.0, 3.3, 0.0, 5.0, 0.0, 0.7, 0.7]
    assert np.allclose(gains.unanimity_aware_gain(TABLE1, 3, p=0.2), [13, 11, 10, 8, 3, 3, 3])
    assert np.allclose(gains.unanimity_aware_gain(TABLE1, 3, p=0.1), [11.5, 10.5, 10, 6.5, 3, 2.5, 2])


def test_table1_fixture_matches_the_literal_table():
    published = pd.read_csv(paths.DATA_RAW / "sakai2017_table1.csv", dtype={"ratings": str})
    ratings = [[int(x) for x in r.split()] for r in published["ratings"]]
    assert ratings == TABLE1
    assert np.allclose(gains.unanimity_aware_gain(ratings, 3, 0.2), published["UG_p0.2"])


def test_stc2_example():
    assert np.allclose(gains.unanimity_aware_gain([[2, 1, 1], [2, 2, 0]], d_max=2, p=0.2), [4.6, 4.0])


def test_missing_ratings_use_each_items_own_n():
    r = [[2, 2, np.nan], [2, 2, 2]]
    # item 0: N = 2, RawG = 4, D = 0 -> 4 + 0.2*2*2 = 4.8; item 1: N = 3 -> 6 + 0.2*3*2 = 7.2
    assert np.allclose(gains.unanimity_aware_gain(r, 2), [4.8, 7.2])
    assert gains.n_ratings(r).tolist() == [2, 3]


def test_zero_raw_gain_stays_zero():
    assert gains.unanimity_aware_gain([[0, 0, 0]], 2).tolist() == [0.0]


ratings_st = st.integers(1, 8).flatmap(
    lambda d: st.tuples(st.just(d), st.lists(st.lists(st.integers(0, d), min_size=1, max_size=12),
                                             min_size=1, max_size=20)))


@settings(max_examples=200, deadline=None)
@given(ratings_st, st.floats(0, 1))
def test_properties(case, p):
    d_max, rows = case
    width = max(len(r) for r in rows)
    arr = np.full((len(rows), width), np.nan)
    for i, r in enumerate(rows):
        arr[i, :len(r)] = r
    raw = gains.raw_gain(arr, d_max)
    ug = gains.unanimity_aware_gain(arr, d_max, p)
    d = gains.spread(arr, d_max)
    n = gains.n_ratings(arr)
    assert (ug >= raw - 1e-12).all()
    assert np.allclose(ug[d == d_max], raw[d == d_max])
    assert (ug <= (1 + p) * n * d_max + 1e-9).all()
    wg = gains.weighted_gain(arr, d_max)
    assert (wg <= raw + 1e-12).all() and (wg >= 0).all()


def test_dataframe_labels_in_errors():
    df = pd.DataFrame([[1, 2], [1, 7]], index=["q1/d1", "q1/d2"])
    with pytest.raises(ValueError, match=r"item q1/d2 \(row 1\): rating 7 .* outside 0..3"):
        gains.unanimity_aware_gain(df, 3)


@pytest.mark.parametrize("ratings,kwargs,message", [
    ([[1, 2.5]], {"d_max": 3}, r"item 0 \(row 0\): rating 2.5 of assessor 1 is not an integer"),
    ([[1, 4]], {"d_max": 3}, r"rating 4 of assessor 1 is outside 0..3"),
    ([[1, -1]], {"d_max": 3}, r"rating -1 of assessor 1 is outside 0..3"),
    ([[1, 1], [np.nan, np.nan]], {"d_max": 3}, r"item 1 \(row 1\) has no ratings"),
    ([1, 2, 3], {"d_max": 3}, r"2-D items x assessors"),
    ([[1, np.inf]], {"d_max": 3}, r"infinite"),
    ([[1, 1]], {"d_max": 0}, r"d_max must be an integer >= 1"),
    ([[1, 1]], {"d_max": 2.5}, r"d_max must be an integer >= 1"),
    ([[1, 1]], {"d_max": 3, "p": 1.5}, r"p must lie in \[0, 1\]"),
    ([[1, 1]], {"d_max": 3, "p": -0.1}, r"p must lie in \[0, 1\]"),
    (np.zeros((0, 3)), {"d_max": 3}, r"at least one item"),
    ([["a", "b"]], {"d_max": 3}, r"numeric"),
])
def test_bad_input(ratings, kwargs, message):
    with pytest.raises(ValueError, match=message):
        gains.unanimity_aware_gain(ratings, **kwargs)


def test_bad_input_other_functions():
    with pytest.raises(ValueError, match="outside 0..2"):
        gains.weighted_gain([[3]], 2)
    with pytest.raises(ValueError, match="not an integer"):
        gains.raw_gain([[0.5]])
    with pytest.raises(ValueError, match="unknown gain setting"):
        gains.apply_setting([[1]], "median", 2)
    with pytest.raises(ValueError, match="threshold"):
        gains.binary_gain([[1]], 2, 0)
    with pytest.raises(ValueError, match="non-negative integers"):
        gains.level_gains([1, -1])
    with pytest.raises(ValueError, match="unknown level-gain scheme"):
        gains.level_gains([1], "cubic")


def test_ntcir_settings_on_hand_examples():
    r = np.array([[2, 1, 0], [2, 2, 0], [1, 1, 0], [0, 0, 0]], dtype=float)
    # CECG rule: all three labels differ -> L0; otherwise the majority label.
    assert gains.majority_vote(r, 2).tolist() == [0, 2, 1, 0]
    assert gains.level_gains([0, 1, 2], "exponential").tolist() == [0, 1, 3]
    assert np.allclose(gains.average_gain(r, 2), [1, 4 / 3, 2 / 3, 0])
    # rigid: normalised mean >= 2/3 ; relaxed: >= 1/3 (NTCIR-2 Chinese IR)
    assert gains.binary_gain(r, 2, 2 / 3).tolist() == [0, 1, 0, 0]
    assert gains.binary_gain(r, 2, 1 / 3).tolist() == [1, 1, 1, 0]


def test_ties_broken_counts_pairs():
    raw = np.array([4, 4, 4, 2, 2, 0, 0])
    ug = np.array([4.6, 4.0, 4.0, 2.0, 2.4, 0, 0])
    res = gains.ties_broken(raw, ug)
    # tied pairs under raw among positive items: C(3,2) + C(2,2) = 4; still tied: (4.0, 4.0) = 1
    assert res == {"tied_pairs": 4, "still_tied": 1, "share_broken": 0.75}


def test_prob_full_spread_matches_enumeration():
    import itertools
    for d_max, n in [(2, 3), (3, 4), (4, 2)]:
        hits = sum(1 for t in itertools.product(range(d_max + 1), repeat=n) if max(t) - min(t) == d_max)
        assert gains.prob_full_spread(n, d_max) == pytest.approx(hits / (d_max + 1) ** n)


def test_prob_ties_broken_matches_enumeration_and_the_papers_grid():
    """Exact share of RawG-tied pairs (RawG > 0) UG separates under uniform ratings, by enumeration."""
    import itertools
    from collections import Counter
    for n, d_max in [(2, 2), (3, 2), (4, 3), (3, 4)]:
        joint, sums = Counter(), Counter()
        for r in itertools.product(range(d_max + 1), repeat=n):
            if sum(r):
                joint[(sum(r), max(r) - min(r))] += 1
                sums[sum(r)] += 1
        want = 1 - sum(v * v for v in joint.values()) / sum(v * v for v in sums.values())
        assert gains.prob_ties_broken(n, d_max, 0.2) == pytest.approx(want, abs=1e-12)
    assert round(gains.prob_ties_broken(3, 2, 0.2), 4) == 0.3429
    assert round(gains.prob_ties_broken(5, 8, 0.2), 4) == 0.7926          # the referee's exact value
    assert gains.prob_ties_broken(1, 4, 0.2) == gains.prob_ties_broken(5, 1, 0.2) == gains.prob_ties_broken(5, 4, 0) == 0
    with pytest.raises(ValueError, match="p must be"):
        gains.prob_ties_broken(5, 4, 1.5)


def test_prob_full_spread_given_relevant_is_clipped_at_n_1():
    """With one rating D = 0: the formula is 0 up to rounding, never a negative -0.000."""
    for d_max in range(1, 10):
        v = gains.prob_full_spread_given_relevant(1, d_max)
        assert v == 0.0 and not np.signbit(v)


def test_prob_full_spread_given_relevant_matches_enumeration():
    import itertools
    for d_max, n in [(1, 2), (2, 3), (3, 4), (4, 2)]:
        rel = [t for t in itertools.product(range(d_max + 1), repeat=n) if sum(t) > 0]
        hits = sum(1 for t in rel if max(t) - min(t) == d_max)
        assert gains.prob_full_spread_given_relevant(n, d_max) == pytest.approx(hits / len(rel))
    assert gains.prob_full_spread_given_relevant(2, 1) == pytest.approx(2 / 3)  # vs 1/2 unconditional


def test_ratings_matrix_pivot_and_duplicates():
    tidy = pd.DataFrame({"query_id": ["q", "q", "q"], "doc_id": ["d1", "d1", "d2"],
                         "assessor": ["A1", "A2", "A1"], "rating": [1, 2, 0]})
    m = gains.ratings_matrix(tidy)
    assert m.shape == (2, 2) and np.isnan(m.loc[("q", "d2"), "A2"])
    with pytest.raises(ValueError, match="rated item .* more than once"):
        gains.ratings_matrix(pd.concat([tidy, tidy.iloc[:1]]))
