"""Simulated multi-assessor ratings, following Sakai (EVIA 2017, Sec. 4).

Sakai replaced each judged item of the NTCIR-12 STC Chinese qrels by ``N`` simulated ratings:
an L0 item gets ``N`` zeros, an item at level 1 or above gets ``N`` integers drawn uniformly from
``0..D_max``. The ratings are therefore independent across assessors, which the paper notes
probably *under*-states the effect of unanimity (real assessors agree more).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import gains

__all__ = ["uniform_ratings", "uniform_ratings_like", "uniform_ratings_given_sum", "simulate_ratings", "spread_grid", "grid_vs_exact", "spread_distribution", "real_vs_uniform_spreads", "STCLikeCollection",
           "stc_like_collection", "STC_TEAM_SIZES"]


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

def uniform_ratings_like(n_per_item, d_max: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform ratings on ``0..d_max`` with ``n_per_item[i]`` ratings for item ``i``: an
    ``items x max(N)`` array, NaN beyond an item's own N (the layout of
    :func:`helpers.gains.comparable_items`). With one N for every item it is exactly
    ``uniform_ratings(len(n_per_item), N, d_max, rng)`` (the same draws)."""
    n = np.asarray(n_per_item)
    if n.ndim != 1 or n.size == 0 or not np.issubdtype(n.dtype, np.integer) or (n < 1).any():
        raise ValueError(f"n_per_item must be a non-empty list of positive integers, got {n_per_item!r}")
    if (n == n[0]).all():
        return uniform_ratings(len(n), int(n[0]), d_max, rng)
    _check(int(n.max()), d_max, rng)
    values = rng.integers(0, int(d_max) + 1, size=(len(n), int(n.max()))).astype(float)
    values[np.arange(int(n.max()))[None, :] >= n[:, None]] = np.nan
    return values



def uniform_ratings_given_sum(sums, n, d_max: int, rng: np.random.Generator) -> np.ndarray:
    """Independent uniform ratings conditioned on each item's sum: Sakai's model with RawG held fixed.

    Sakai (EVIA 2017, Sec. 4) draws ``n`` ratings of an item independently and uniformly from
    ``0..d_max``. Conditioned on their sum (the item's raw gain RawG, Eq. 1) every tuple with that
    sum is equally likely, so this draws, for item ``i``, one of the tuples in ``{0..d_max}^n`` with
    sum ``sums[i]`` uniformly at random. Used to contrast real ratings with uniform ones that
    differ *only* in how they spread: same items, same N and Dmax, same RawG (hence the same
    per-item mean rating and the same items with a positive gain), so RawG-based evaluation is
    identical and only the spread ``D = max - min`` -- what UG adds to RawG (Eq. 2) -- differs.

    Sampling is sequential and exact: with ``c_k(t)`` the number of ``k``-tuples on ``0..d_max``
    summing to ``t`` (``c_0(0) = 1``, ``c_k(t) = sum_v c_{k-1}(t - v)``), the next rating is ``v``
    with probability ``c_{k-1}(t - v) / c_k(t)``; the product of these over the ``n`` ratings is
    ``1 / c_n(s)`` for every tuple. Counts are kept as floats (exact while below 2^53, relative
    error 1e-16 beyond). Vectorised over items: ``n`` steps of one uniform draw per item.

    Parameters
    ----------
    sums : array_like of int, shape (items,)
        Each item's sum of ratings, in ``0..n * d_max``.
    n : int or array_like of int, shape (items,)
        Ratings per item: one N for every item, or each item's own N (items rated by different
        numbers of assessors). With several N the items of each N are drawn together, in
        increasing order of N, and the result is ``items x max(N)`` with NaN beyond an item's own
        N (the layout of :func:`helpers.gains.comparable_items`).
    d_max : int
        The highest rating.
    rng : numpy.random.Generator

    Returns
    -------
    ``items x n`` float array of integer ratings whose rows sum to ``sums``.
    """
    if np.ndim(n) == 0:
        return _given_sum(sums, int(n), d_max, rng)
    per_item = np.asarray(n)
    s = np.asarray(sums, dtype=float)
    if per_item.ndim != 1 or not np.issubdtype(per_item.dtype, np.integer) or len(per_item) != len(s) \
            or (per_item < 1).any():
        raise ValueError(f"n must be one positive integer or one per item ({len(s)}), got {n!r}")
    if len(per_item) == 0 or (per_item == per_item[0]).all():
        return _given_sum(s, int(per_item[0]) if len(per_item) else 1, d_max, rng)
    out = np.full((len(s), int(per_item.max())), np.nan)
    for k in np.unique(per_item):
        rows = per_item == k
        out[rows, :k] = _given_sum(s[rows], int(k), d_max, rng)
    return out


def _given_sum(sums, n: int, d_max: int, rng: np.random.Generator) -> np.ndarray:
    """:func:`uniform_ratings_given_sum` for one ``n`` (the sequential exact sampler)."""
    _check(n, d_max, rng)
    n, d_max = int(n), int(d_max)
    s = np.asarray(sums, dtype=float)
    if s.ndim != 1 or (len(s) and (~np.isfinite(s) | (s != np.round(s)) | (s < 0) | (s > n * d_max)).any()):
        raise ValueError(f"sums must be integers in 0..n * d_max = {n * d_max}, one per item")
    t = s.astype(np.int64)
    counts = np.zeros((n + 1, n * d_max + 1))
    counts[0, 0] = 1.0
    for k in range(1, n + 1):
        for v in range(d_max + 1):
            counts[k, v:] += counts[k - 1, :n * d_max + 1 - v]
    out = np.empty((len(t), n))
    v = np.arange(d_max + 1)
    for j in range(n):
        k = n - j  # ratings still to draw, this one included
        rest = t[:, None] - v[None, :]
        ok = (rest >= 0) & (rest <= (k - 1) * d_max)
        w = np.where(ok, counts[k - 1][np.clip(rest, 0, n * d_max)], 0.0)
        cdf = np.cumsum(w, axis=1)
        u = rng.random(len(t)) * cdf[:, -1]
        pick = np.minimum((cdf <= u[:, None]).sum(axis=1), d_max)
        out[:, j] = pick
        t = t - pick
    return out


def simulate_ratings(qrels: pd.DataFrame, n: int, d_max: int, rng: np.random.Generator, *,
                     threshold: int = 1) -> np.ndarray:
    """Sakai's (2017) simulated ratings for every judged item of ``qrels``.

    Parameters
    ----------
    qrels : DataFrame with a ``relevance`` column (integer levels; 0 = judged non-relevant)
    n : int
        Ratings per item (the paper: 5, 10, 20, 40, 80).
    d_max : int
        Highest rating (the paper: 2, 4, 8).
    rng : numpy.random.Generator
    threshold : int, default 1
        Lowest level that counts as relevant, by the collection's own definition. Sakai's NTCIR
        data has L0/L1/L2 with L1 relevant (threshold 1); on TREC DL 2019 passages level 1
        ("related") is not relevant and the threshold is 2
        (:data:`helpers.data.datasets.DL19_RELEVANCE_THRESHOLD`).

    Returns
    -------
    ``len(qrels) x n`` float array aligned with the rows of ``qrels``: zeros for rows below
    ``threshold``, uniform integers on ``0..d_max`` for rows at ``threshold`` or above. Note
    that a relevant item can still draw all zeros and so get zero gain, exactly as in the paper's
    procedure.
    """
    _check(n, d_max, rng)
    if "relevance" not in qrels.columns:
        raise ValueError(f"qrels needs a 'relevance' column of integer levels, has {list(qrels.columns)}")
    levels = qrels["relevance"].to_numpy()
    if len(levels) and (pd.isna(levels).any() or (np.asarray(levels, dtype=float) < 0).any()):
        raise ValueError("qrels 'relevance' must hold non-negative integer levels (no NaN)")
    if isinstance(threshold, bool) or int(threshold) != threshold or threshold < 1:
        raise ValueError(f"threshold (lowest relevant level) must be an integer >= 1, got {threshold!r}")
    draws = rng.integers(0, int(d_max) + 1, size=(len(levels), int(n))).astype(float)
    draws[np.asarray(levels, dtype=float) < int(threshold)] = 0.0
    return draws


def spread_grid(d_max_list, n_list, n_items: int, p: float, rng: np.random.Generator) -> pd.DataFrame:
    """Sakai's uniform-rating simulation summarised over a grid of ``d_max`` x ``N``.

    For every cell, ``n_items`` items get ``N`` uniform ratings on ``0..d_max`` (the paper's
    procedure for L1/L2 items) and :func:`helpers.gains.unanimity_summary` is computed over the
    items with ``RawG > 0`` (``items`` of them, as UG leaves the others at 0). Next to the simulated
    share of those items at ``D = d_max`` stands the probability it estimates, like for like:
    ``P(D = d_max | RawG > 0)`` (:func:`helpers.gains.prob_full_spread_given_relevant`), and its
    binomial standard error over ``items`` draws (``se_full_spread``; 0 for a probability of 0 or 1,
    which the exact value is clipped to). Beside the simulated share of RawG ties UG breaks stand its
    jackknife standard error (``se_ties_broken``, :func:`helpers.gains.ties_broken_se`; NaN when
    fewer than :data:`helpers.gains.RARE_TIES` items break a tie, where it would collapse) and its exact
    value (``p_ties_broken``, :func:`helpers.gains.prob_ties_broken`). The simulated items have no
    topics, so ties are counted over all pairs of items. Cells are drawn in grid order
    from the one ``rng``, so the table is reproducible per seed.
    """
    rows = []
    for d_max in d_max_list:
        for n in n_list:
            values = uniform_ratings(n_items, n, d_max, rng)
            summary = gains.unanimity_summary(values, d_max, p)
            raw = gains.raw_gain(values, d_max)
            exact = gains.prob_full_spread_given_relevant(n, d_max)
            rows.append({"d_max": int(d_max), "n": int(n),
                         "share_full_spread": summary["share_full_spread"],
                         "p_full_spread_given_relevant": exact,
                         "se_full_spread": float(np.sqrt(max(0.0, exact * (1 - exact)) / summary["items"])),
                         "mean_spread": summary["mean_spread"],
                         "mean_bonus": summary["mean_bonus"],
                         "share_ties_broken": summary["share_broken"],
                         "se_ties_broken": gains.ties_broken_se(raw, gains.unanimity_aware_gain(values, d_max, p)),
                         "p_ties_broken": gains.prob_ties_broken(n, d_max, p),
                         "items": summary["items"]})
    return pd.DataFrame(rows)


def grid_vs_exact(grid: pd.DataFrame, family_alpha: float = 0.001) -> dict:
    """How far the simulated shares of a :func:`spread_grid` lie from the exact conditional
    probabilities: ``worst`` (largest absolute difference), ``worst_z`` (largest difference in
    binomial standard errors; a cell whose exact probability is 0 or 1 counts 0 when it matches,
    infinity when it does not), ``cells``, ``z_limit`` and ``agrees``: whether every cell lies within
    ``z_limit`` standard errors of its exact probability. The limit is two-sided and Bonferroni-
    corrected over the cells at the family-wise level ``family_alpha`` (0.001: a correct simulation
    is called off in at most 1 run of 1,000, whatever the number of cells; the rule a sentence
    "agrees within ..." rests on)."""
    from scipy.stats import norm

    diff = (grid["share_full_spread"] - grid["p_full_spread_given_relevant"]).abs().to_numpy(dtype=float)
    se = grid["se_full_spread"].to_numpy(dtype=float)
    worst_z = float(np.max(np.where(se > 0, diff / np.where(se > 0, se, 1.0), np.where(diff > 1e-12, np.inf, 0.0))))
    z = float(norm.isf(family_alpha / (2 * len(grid))))
    return {"worst": float(diff.max()), "worst_z": worst_z, "cells": int(len(grid)), "z_limit": z,
            "family_alpha": family_alpha, "agrees": bool(worst_z <= z)}


# --------------------------------------------------------------------------------------------
# an STC-like test collection (stands in for the licensed NTCIR-12 STC Chinese data)

#: Runs per team of the default collection: 16 teams, 44 runs, 1-4 runs per team (the size of
#: the NTCIR-12 STC Chinese subtask, Sakai 2017 Sec. 4; the per-team split is ours).
STC_TEAM_SIZES: tuple[int, ...] = (4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 1, 1, 1)

_TEAM_NAMES = ("Alder", "Birch", "Cedar", "Daphne", "Elm", "Fir", "Ginkgo", "Hazel", "Ivy",
               "Juniper", "Kapok", "Larch", "Maple", "Nutmeg", "Olive", "Pine", "Quince", "Rowan",
               "Sage", "Teak", "Umbra", "Vetch", "Willow", "Yew", "Zelkova")


@dataclass(frozen=True)
class STCLikeCollection:
    """A simulated test collection: graded qrels of the pooled documents, runs and teams.

    Attributes
    ----------
    qrels : DataFrame
        ``query_id, doc_id, relevance`` (levels 0, 1, 2 = L0, L1, L2), one row per pooled item.
    run : DataFrame
        ``run_id, query_id, doc_id, rank`` (ranks 1..depth), every run answers every topic.
    teams : dict
        ``run_id -> team``.
    quality : dict
        ``run_id -> latent effectiveness`` used to generate the run (for documentation/tests).
    """

    qrels: pd.DataFrame
    run: pd.DataFrame
    teams: dict = field(default_factory=dict)
    quality: dict = field(default_factory=dict)


def _positive_int(name: str, value) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def stc_like_collection(rng: np.random.Generator, *, n_topics: int = 100,
                        team_sizes=STC_TEAM_SIZES, depth: int = 10, n_candidates: int = 200,
                        relevant_share: tuple[float, float] = (1.0, 4.0),
                        l2_share: tuple[float, float] = (2.0, 3.0),
                        team_skill: tuple[float, float] = (0.5, 0.25), run_spread: float = 0.1,
                        team_correlation: float = 0.5) -> STCLikeCollection:
    """Seeded stand-in for the NTCIR-12 STC Chinese collection used by Sakai (EVIA 2017, Sec. 4).

    The real data (100 topics, 44 runs from 16 teams, L0/L1/L2 judgments of the pooled runs) is
    licensed by NTCIR, so notebooks default to this simulation of the same shape:

    1. **Topics and candidates.** Each of ``n_topics`` topics has ``n_candidates`` candidate
       documents. A topic's share of relevant candidates is drawn from
       ``Beta(*relevant_share)`` (topics differ in difficulty); each relevant candidate is L2 with
       a per-topic probability drawn from ``Beta(*l2_share)``, else L1; the rest are L0.
    2. **Teams and runs.** Team ``k`` has ``team_sizes[k]`` runs (default
       :data:`STC_TEAM_SIZES`: 16 teams, 44 runs, 1-4 runs each). A team's skill is drawn from
       ``Normal(*team_skill)``, and each of its runs adds ``Normal(0, run_spread)``, so runs of a
       team are similar while teams differ: some pairs of teams are far apart (significantly
       different), many are close.
    3. **Rankings.** Run ``r`` scores candidate ``d`` of topic ``t`` as
       ``quality_r * level_td + e_rtd`` and returns the ``depth`` highest (ranks 1..depth). The
       noise is standard normal, mixed from a component shared by the team and one of the run
       (``corr(e_r, e_r') = team_correlation`` for runs of the same team), so runs of a team
       also retrieve similar documents.
    4. **Pooling.** The qrels hold exactly the union of every run's top ``depth`` per topic (the
       pooled items), with their levels. A topic whose pool happens to contain no relevant item
       gets its best-scored pooled item (by the best run) promoted to L1, so that every topic
       can be evaluated (NTCIREVAL skips topics without relevant items).

    Everything is vectorised over runs x topics x candidates (well under a second for the
    defaults) and depends only on ``rng``'s state.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of all randomness (e.g. ``np.random.default_rng(seed)``).
    n_topics : int, default 100
    team_sizes : sequence of int, default :data:`STC_TEAM_SIZES`
        Runs per team (each >= 1); at most 25 teams (team names are fixed words).
    depth : int, default 10
        Length of every ranked list, which is also the pool depth.
    n_candidates : int, default 200
        Candidate documents per topic; must be at least ``depth``.
    relevant_share, l2_share : (float, float)
        Beta parameters (both > 0) of the per-topic share of relevant candidates and of L2 among
        them.
    team_skill : (float, float)
        Mean and standard deviation (>= 0) of the team skills.
    run_spread : float
        Standard deviation (>= 0) of a run's quality around its team's skill.
    team_correlation : float in [0, 1]
        Correlation of the ranking noise of two runs of the same team.

    Returns
    -------
    STCLikeCollection
        ``qrels`` (``query_id, doc_id, relevance``), ``run`` (``run_id, query_id, doc_id,
        rank``), ``teams`` (``run_id -> team``) and ``quality`` (``run_id -> latent quality``).
        Topic ids are ``q001``..; document ids ``q001-d017`` (unique over the collection); run ids
        ``<Team>-C-R<k>`` in the style of STC (e.g. ``Birch-C-R2``).

    Examples
    --------
    >>> c = stc_like_collection(np.random.default_rng(0))
    >>> c.run["run_id"].nunique(), c.qrels["query_id"].nunique(), len(set(c.teams.values()))
    (44, 100, 16)
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    n_topics = _positive_int("n_topics", n_topics)
    depth = _positive_int("depth", depth)
    n_candidates = _positive_int("n_candidates", n_candidates)
    if n_candidates < depth:
        raise ValueError(f"n_candidates ({n_candidates}) must be at least depth ({depth})")
    sizes = list(team_sizes) if not isinstance(team_sizes, (str, bytes)) else None
    if not sizes or any(isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1
                        for k in sizes):
        raise ValueError(f"team_sizes must be a non-empty sequence of positive integers, got {team_sizes!r}")
    if len(sizes) > len(_TEAM_NAMES):
        raise ValueError(f"team_sizes lists {len(sizes)} teams; at most {len(_TEAM_NAMES)} are supported")
    for name, (a, b) in (("relevant_share", relevant_share), ("l2_share", l2_share)):
        if not (np.isfinite([a, b]).all() and a > 0 and b > 0):
            raise ValueError(f"{name} must be two Beta parameters > 0, got {(a, b)!r}")
    mu, sd = team_skill
    if not (np.isfinite([mu, sd]).all() and sd >= 0):
        raise ValueError(f"team_skill must be (mean, sd) with finite mean and sd >= 0, got {team_skill!r}")
    if not (np.isfinite(run_spread) and run_spread >= 0):
        raise ValueError(f"run_spread must be a finite number >= 0, got {run_spread!r}")
    if not 0.0 <= team_correlation <= 1.0:
        raise ValueError(f"team_correlation must lie in [0, 1], got {team_correlation!r}")

    n_teams = len(sizes)
    team_of = np.repeat(np.arange(n_teams), sizes)  # team index of every run
    n_runs = team_of.size
    # 1. candidates' levels
    share = rng.beta(*relevant_share, size=(n_topics, 1))
    p_l2 = rng.beta(*l2_share, size=(n_topics, 1))
    u = rng.random((n_topics, n_candidates))
    relevant = u < share
    level = np.where(relevant, 1 + (rng.random((n_topics, n_candidates)) < p_l2), 0).astype(np.int64)
    # 2. run qualities
    skill = rng.normal(mu, sd, size=n_teams)
    quality = skill[team_of] + rng.normal(0.0, run_spread, size=n_runs)
    # 3. rankings: scores (runs, topics, candidates), top `depth` in decreasing score
    shared = rng.standard_normal((n_teams, n_topics, n_candidates))
    own = rng.standard_normal((n_runs, n_topics, n_candidates))
    noise = np.sqrt(team_correlation) * shared[team_of] + np.sqrt(1.0 - team_correlation) * own
    score = quality[:, None, None] * level[None] + noise
    top = np.argpartition(-score, depth - 1, axis=2)[:, :, :depth]
    order = np.argsort(-np.take_along_axis(score, top, axis=2), axis=2, kind="stable")
    ranked = np.take_along_axis(top, order, axis=2)  # (runs, topics, depth) candidate indices
    # 4. pooling
    pooled = np.zeros((n_topics, n_candidates), dtype=bool)
    t_idx = np.broadcast_to(np.arange(n_topics)[None, :, None], ranked.shape)
    pooled[t_idx.ravel(), ranked.ravel()] = True
    no_rel = ~(pooled & (level > 0)).any(axis=1)
    if no_rel.any():
        best = int(np.argmax(quality))
        level[no_rel, ranked[best, no_rel, 0]] = 1

    width = max(3, len(str(n_topics)))
    topic_ids = np.array([f"q{t + 1:0{width}d}" for t in range(n_topics)], dtype=object)
    cwidth = max(3, len(str(n_candidates)))
    cand_ids = np.array([f"d{c:0{cwidth}d}" for c in range(n_candidates)], dtype=object)
    run_no = np.concatenate([np.arange(1, k + 1) for k in sizes])
    run_ids = np.array([f"{_TEAM_NAMES[t]}-C-R{k}" for t, k in zip(team_of, run_no)], dtype=object)

    qt, qc = np.nonzero(pooled)
    qrels = pd.DataFrame({"query_id": pd.Series(topic_ids[qt], dtype="str"),
                          "doc_id": pd.Series(topic_ids[qt] + "-" + cand_ids[qc], dtype="str"),
                          "relevance": level[qt, qc]})
    r_idx, t_i, k_i = np.indices(ranked.shape).reshape(3, -1)
    c_i = ranked.reshape(-1)
    run = pd.DataFrame({"run_id": pd.Series(run_ids[r_idx], dtype="str"),
                        "query_id": pd.Series(topic_ids[t_i], dtype="str"),
                        "doc_id": pd.Series(topic_ids[t_i] + "-" + cand_ids[c_i], dtype="str"),
                        "rank": k_i + 1})
    teams = {str(r): _TEAM_NAMES[t] for r, t in zip(run_ids, team_of)}
    return STCLikeCollection(qrels=qrels, run=run, teams=teams,
                             quality={str(r): float(q) for r, q in zip(run_ids, quality)})


def spread_distribution(d_max_list, n_list, n_items: int, rng: np.random.Generator) -> pd.DataFrame:
    """Notebook 01's figure of spreads: per ``(d_max, N)`` in grid order, ``n_items`` items of ``N``
    uniform ratings from ``rng`` and the share of the items with ``RawG > 0`` at each spread ``D``
    (columns ``d_max, n, D, share``)."""
    rows = []
    for d_max in d_max_list:
        for n in n_list:
            r = uniform_ratings(n_items, n, d_max, rng)
            d = gains.spread(r, d_max)[gains.raw_gain(r) > 0]
            counts = np.bincount(d.astype(int), minlength=int(d_max) + 1)
            rows += [{"d_max": d_max, "n": n, "D": k, "share": c / len(d)} for k, c in enumerate(counts)]
    return pd.DataFrame(rows)


def real_vs_uniform_spreads(values, d_max: int, seed: int) -> pd.DataFrame:
    """Notebook 01's figure of a real set: the spread ``D`` of every item with ``RawG > 0`` (column
    ``source`` = ``"real"``) beside one draw of each uniform model of section 6 (each from
    ``default_rng(seed)``): Sakai's (relevant items get uniform ratings, zeros stay 0) and the one
    with the same RawG per item (:func:`uniform_ratings_like`, :func:`uniform_ratings_given_sum`)."""
    raw, n = gains.raw_gain(values), gains.n_ratings(values)
    keep = raw > 0
    d_real = gains.spread(values[keep], d_max)
    sim = uniform_ratings_like(n[keep], d_max, np.random.default_rng(seed))
    d_sim = gains.spread(sim[gains.raw_gain(sim) > 0], d_max)
    d_same = gains.spread(uniform_ratings_given_sum(raw, n, d_max, np.random.default_rng(seed))[keep], d_max)
    return pd.DataFrame({"D": np.r_[d_real, d_sim, d_same].astype(int),
                         "source": ["real"] * len(d_real) + ["uniform"] * len(d_sim) + ["uniform, same RawG"] * len(d_same)})
