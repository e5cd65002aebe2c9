"""Simulated multi-assessor ratings, following Sakai (EVIA 2017, Sec. 4).

Sakai replaced each judged item of the NTCIR-12 STC Chinese qrels by ``N`` simulated ratings:
an L0 item gets ``N`` zeros, an item at level 1 or above gets ``N`` integers drawn uniformly from
``0..D_max``. The ratings are therefore independent across assessors, which the paper notes
probably *under*-states the effect of unanimity (real assessors agree more).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["uniform_ratings", "simulate_ratings", "spread_grid"]


def _check(n, d_max, rng) -> None:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"n (ratings per item) must be a positive integer, got {n!r}")
    if isinstance(d_max, bool) or int(d_max) != d_max or d_max < 1:
        raise ValueError(f"d_max must be an integer >= 1, got {d_max!r}")


def uniform_ratings(n_items: int, n: int, d_max: int, rng: np.random.Generator) -> np.ndarray:
    """``n_items x n`` integer ratings drawn i.i.d. uniformly from ``0..d_max`` (as float array)."""
    _check(n, d_max, rng)
    if int(n_items) != n_items or n_items < 0:
        raise ValueError(f"n_items must be a non-negative integer, got {n_items!r}")
    return rng.integers(0, int(d_max) + 1, size=(int(n_items), int(n))).astype(float)


def simulate_ratings(qrels: pd.DataFrame, n: int, d_max: int, rng: np.random.Generator) -> np.ndarray:
    """Sakai's (2017) simulated ratings for every judged item of ``qrels``.

    Parameters
    ----------
    qrels : DataFrame with a ``relevance`` column (integer levels; 0 = judged non-relevant)
    n : int
        Ratings per item (the paper: 5, 10, 20, 40, 80).
    d_max : int
        Highest rating (the paper: 2, 4, 8).
    rng : numpy.random.Generator

    Returns
    -------
    ``len(qrels) x n`` float array aligned with the rows of ``qrels``: zeros for L0 rows,
    uniform integers on ``0..d_max`` for rows at level 1 or above. Note that a relevant item can
    still draw all zeros and so get zero gain, exactly as in the paper's procedure.
    """
    _check(n, d_max, rng)
    if "relevance" not in qrels.columns:
        raise ValueError(f"qrels needs a 'relevance' column of integer levels, has {list(qrels.columns)}")
    levels = qrels["relevance"].to_numpy()
    if len(levels) and (pd.isna(levels).any() or (np.asarray(levels, dtype=float) < 0).any()):
        raise ValueError("qrels 'relevance' must hold non-negative integer levels (no NaN)")
    draws = rng.integers(0, int(d_max) + 1, size=(len(levels), int(n))).astype(float)
    draws[np.asarray(levels, dtype=float) <= 0] = 0.0
    return draws


def spread_grid(d_max_list, n_list, n_items: int, p: float, rng: np.random.Generator) -> pd.DataFrame:
    """Sakai's uniform-rating simulation summarised over a grid of ``d_max`` x ``N``.

    For every cell, ``n_items`` relevant items get ``N`` uniform ratings on ``0..d_max`` (the
    paper's procedure for L1/L2 items) and :func:`helpers.gains.unanimity_summary` is computed,
    next to the closed-form probability that ``D = d_max`` (:func:`helpers.gains.prob_full_spread`).
    Cells are drawn in grid order from the one ``rng``, so the table is reproducible per seed.
    """
    from helpers import gains

    rows = []
    for d_max in d_max_list:
        for n in n_list:
            summary = gains.unanimity_summary(uniform_ratings(n_items, n, d_max, rng), d_max, p)
            rows.append({"d_max": int(d_max), "n": int(n),
                         "share_full_spread": summary["share_full_spread"],
                         "p_full_spread_exact": gains.prob_full_spread(n, d_max),
                         "mean_spread": summary["mean_spread"],
                         "mean_bonus": summary["mean_bonus"],
                         "share_ties_broken": summary["share_broken"],
                         "items": summary["items"]})
    return pd.DataFrame(rows)
