"""Counts of topics from a ratio: a float just above an integer is that integer (ceil_count)."""

import math

import pytest

from helpers.design import dstudy, planted

RAND_A = {"s": 0.01, "t": 0.02, "a:t": 0.015, "st": 0.01, "sa:t": 0.02}


def test_ceil_count_tolerates_rounding_only():
    assert 0.9 * 0.02 / (0.01 * (1 - 0.9)) > 18          # the float that plain ceil reads as 19
    assert dstudy.ceil_count(0.9 * 0.02 / (0.01 * (1 - 0.9))) == 18
    assert dstudy.ceil_count(18.0) == 18
    assert dstudy.ceil_count(18.000001) == 19
    assert dstudy.ceil_count(17.5) == 18
    assert dstudy.ceil_count(1e-12) == 0


def test_planted_truth_at_an_exact_integer():
    # randA's shape (s x (a:t), 22 x 57 x 2, target 0.9): Erho2 at 18 topics is 0.9 exactly
    g = planted.planted_g(RAND_A, "s x (a:t)", 22, 57, 2)
    need = dstudy.topics_needed(g, 0.9, n_assessors=2)
    assert need.n == 18
    assert dstudy.topics_needed_point(g, 0.9, n_assessors=2) == 18
    e18 = float(dstudy.d_study(g, 18, 2).erho2)
    e17 = float(dstudy.d_study(g, 17, 2).erho2)
    assert e18 == pytest.approx(0.9, abs=1e-12) and e17 < 0.9
    assert math.ceil(0.9 * 0.02 / (0.01 * (1 - 0.9))) == 19           # what a plain ceil gives
