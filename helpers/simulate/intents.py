"""A documented, seeded NTCIR INTENT-like diversity collection (topics, intents, qrels, runs).

The NTCIR-9/10 INTENT document-ranking data (intent probabilities, navigational/informational
tags, five-level intentwise relevance L0-L4, participating runs) is licensed, so notebook 04
works on a simulation with the same *shape*, following the collection described in Sakai's
NTCIR graded-relevance survey (Sec. 2.2 and 4.x: per-intent graded relevance on L0-L4,
``Pr(i|q)`` estimated from votes, inf/nav tags at INTENT-2) and the setting of Zeng & Sakai
(D#-measures with ``gamma = 0.5``, gains ``2^x - 1``).

Generative model (all defaults are parameters of :func:`intent_collection`)
-----------------------------------------------------------------------------
Topics
    ``n_topics`` topics ``T001, T002, ...``; topic ``q`` gets ``m_q ~ Uniform{min_intents..max_intents}``
    intents ``q.1 .. q.m`` with probabilities ``Pr(.|q) ~ Dirichlet(dirichlet_alpha * 1)`` (so they
    sum to one exactly up to float rounding) and each intent is navigational with probability
    ``p_nav`` (at least one intent per topic stays informational).
Judged pool and intentwise relevance
    ``pool_size`` judged documents per topic. Each document has one *primary* intent, drawn
    uniformly over the topic's intents, and is relevant to it with probability ``p_primary``; a
    navigational intent has only ``1..3`` relevant documents (the rest of its primary documents
    are judged L0 for it), with levels L3-L4; informational intents draw levels L1-L4 with
    probabilities ``level_probs``. A document is in addition relevant to each *other* intent
    with probability ``p_secondary`` (levels L1-L2). Every intent is guaranteed at least one
    relevant document (if the draw produced none, the first document of that intent is set to
    L2), so that no intent probability mass is lost (see :mod:`helpers.measures.diversity`).
    ``dqrels`` holds one row per (topic, intent, judged document), L0 included.
Runs (independent of every measure's formula)
    ``n_runs`` runs ``R01..R15`` rank ``depth`` documents per topic from the judged pool plus
    ``depth`` unjudged documents ``<topic>-u<k>`` (latent level 0 for every intent). A run sees
    the documents only through *retrieval features*: for document ``d`` and intent ``i``,
    ``f_i(d) = x_i(d)/4 + feature_noise * N(0, 1)``, the latent relevance (the level the judges
    recorded, on a linear scale) read through noisy document features that every run shares. A
    run estimates the topic's intent distribution as ``v ~ Dirichlet(1 + knowledge * m * Pr(.|q))``
    (``knowledge = 0``: a random guess; large: close to the truth) and scores
    ``skill * m * sum_i v_i f_i(d) + run_noise * N(0, 1)`` (``m`` intents: a document at L4 for
    one intent of an evenly estimated topic has signal ``skill``); a diversifying run subtracts
    ``diversity * log1p(k)`` from the ``k``-th (0-based) document, in its own score order, whose
    *estimated* main intent ``argmax_i v_i f_i(d)`` is the same. The sort key uses linear
    levels, the run's own intent estimate and observed features - not the global gain
    ``sum_i Pr(i|q) (2^x_i - 1)`` of the D-measures, nor any intentwise gain of the IA-, ndeval
    or RBU measures, nor their novelty discounts - so no measure family's ideal ordering is the
    runs' generating order (``tests/test_simulate_intents.py`` checks it with ``run_noise=0``).
    Run ``k`` gets ``skill`` rising from 0.5 to 3, ``diversity`` cycling over (0, 0.6, 1.2) and
    ``knowledge`` over (4, 0, 1) (``runs="skill"``, the default).
Run styles (``runs="styles"``: runs that the planted users of :mod:`helpers.simulate.users` order differently)
    With ``runs="skill"`` the runs differ mainly in skill, so every user who likes relevant
    documents orders them alike (notebook 04 measured Kendall's tau = 1 between its position and
    graded users and 0.92-0.96 between position, first-hit and a mixture of users). With
    ``runs="styles"`` every run has the same ``knowledge`` (4) and a ``skill`` rising from 2 to 3, and
    runs differ in *style*, :data:`STYLES`, along the three properties the users weigh differently:
    how the run weighs the intents it estimates (``focus``: ``w ∝ v^focus``; 0 = every intent alike,
    1 = as estimated, 3 = the dominant intent), whether it diversifies (``diversity`` as above) and
    which documents it looks for (``level``: ``linear`` reads the features as given; ``high`` a soft
    step at 0.6 of the level scale, documents that look L3-L4; ``any`` a soft step at 0.2, every
    document that looks relevant at all: ``h(f) = 1 / (1 + exp(-(f - step) / 0.08))``). Run ``k``
    takes focus ``(1, 0, 3)[k % 3]`` and strategy ``k % 5`` of :data:`STRATEGIES`, so 15 runs hold
    every combination once. The sort key is still the run's own noisy estimate of linear
    levels and intents - no measure's gains, discounts or ideal list - so the styles make the users
    disagree without ranking by any measure's formula (``tests/test_simulate_intents.py``).

Everything is vectorised over topics x documents; the default collection (100 topics, 15 runs,
depth 100) builds in well under a second. The same seed always gives the same collection.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["IntentCollection", "intent_collection", "RUN_DESIGNS", "STYLES", "STRATEGIES"]

#: How the simulated runs differ: mainly in skill (the original design) or in style (module docstring).
RUN_DESIGNS = ("skill", "styles")
#: The strategies of ``runs="styles"``: name -> (diversity, level preference).
STRATEGIES = {"plain": (0.0, "linear"), "diversify": (1.5, "linear"), "highly relevant": (0.0, "high"),
              "diversify, highly relevant": (1.5, "high"), "any relevance": (0.0, "any")}
#: Intent focus of ``runs="styles"`` (``w ∝ v^focus``): run ``k`` takes ``STYLES[k % 3]``.
STYLES = {"as estimated": 1.0, "every intent alike": 0.0, "dominant intent": 3.0}
#: Where the soft steps of the ``high`` and ``any`` level preferences sit, and their width.
_STEPS = {"high": 0.6, "any": 0.2}
_STEP_WIDTH = 0.08


@dataclass(frozen=True)
class IntentCollection:
    """A simulated diversity test collection.

    Attributes
    ----------
    dqrels : DataFrame
        ``query_id, intent_id, doc_id, relevance`` (integer levels 0-4, one row per judged
        (topic, intent, document), L0 rows included).
    intents : DataFrame
        ``query_id, intent_id, prob, kind`` (``kind`` is ``"inf"`` or ``"nav"``; ``prob`` sums to
        one per topic).
    runs : DataFrame
        ``run_id, query_id, doc_id, rank, score`` (ranks 1..depth, no ties, no duplicates).
    run_params : DataFrame
        ``run_id, skill, diversity, knowledge``: the generating parameters of each run (with
        ``runs="styles"`` also ``focus``, ``level`` and ``style``, the run's style in words).
    params : dict
        The arguments the collection was generated with (for provenance in reports).
    arrays : dict
        The same collection as arrays, for simulations that read SERPs without the tables
        (:mod:`helpers.simulate.users`): ``levels`` (runs x topics x ranks x max_intents, int8 levels
        of the ranked documents, 0 for unjudged ones and padding intents), ``prob`` and ``valid``
        (topics x max_intents: intent probabilities and which intent slots exist), ``nav``
        (navigational intents), ``run_ids`` and ``topic_ids`` (the order of the first two axes).
    """

    dqrels: pd.DataFrame
    intents: pd.DataFrame
    runs: pd.DataFrame
    run_params: pd.DataFrame
    params: dict = field(default_factory=dict)
    arrays: dict = field(default_factory=dict, repr=False)


def _check_int(name: str, value, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {value!r}")
    return int(value)


def _check_prob(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return float(value)


def intent_collection(
    rng: np.random.Generator,
    *,
    n_topics: int = 100,
    min_intents: int = 2,
    max_intents: int = 10,
    dirichlet_alpha: float = 1.0,
    p_nav: float = 0.3,
    pool_size: int = 120,
    p_primary: float = 0.5,
    p_secondary: float = 0.05,
    level_probs: tuple[float, float, float, float] = (0.4, 0.3, 0.2, 0.1),
    n_runs: int = 15,
    depth: int = 100,
    feature_noise: float = 0.3,
    run_noise: float = 1.0,
    keep: int | None = None,
    runs: str = "skill",
) -> IntentCollection:
    """Simulate an NTCIR INTENT-like collection (see the module docstring for the model).

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness (``np.random.default_rng(seed)``).
    n_topics, min_intents, max_intents : int
        Number of topics; intents per topic drawn uniformly from ``min_intents..max_intents``.
    dirichlet_alpha : float
        Concentration of the symmetric Dirichlet the intent probabilities are drawn from.
    p_nav : float
        Probability that an intent is navigational.
    pool_size : int
        Judged documents per topic.
    p_primary, p_secondary : float
        Probability that a document is relevant to its primary intent / to any other intent.
    level_probs : 4 floats
        Probabilities of L1..L4 for a relevant document of an informational intent.
    n_runs, depth : int
        Number of runs and documents retrieved per topic and run.
    feature_noise, run_noise : float
        Standard deviations of the shared feature noise and of each run's own scoring noise
        (``run_noise = 0``: every run ranks by its noise-free sort key).
    keep : int, optional
        Keep only the top ``keep`` ranks of every run (default: all ``depth``). The rankings are
        those of the full collection - the same random draws, the same ``depth`` unjudged
        documents competing for the ranks - so the top ``keep`` documents are identical to the
        first ``keep`` ranks of ``keep=None``; only less is stored. For studies that read the top
        of each run only (SERPs of ``l`` documents).
    runs : {"skill", "styles"}
        How the runs differ (:data:`RUN_DESIGNS`, module docstring): mainly in skill (the default,
        the original design), or in style, so that the planted users order them differently. The
        topics, intents and judgments of one ``rng`` are the same under both.

    Returns
    -------
    IntentCollection
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    params = _checked_params(n_topics=n_topics, min_intents=min_intents, max_intents=max_intents,
                             dirichlet_alpha=dirichlet_alpha, p_nav=p_nav, pool_size=pool_size,
                             p_primary=p_primary, p_secondary=p_secondary, level_probs=level_probs,
                             n_runs=n_runs, depth=depth, feature_noise=feature_noise, run_noise=run_noise,
                             keep=keep, runs=runs)
    T = params["n_topics"]
    qids = np.array([f"T{t + 1:03d}" for t in range(T)], dtype=object)
    m, valid, prob, nav = _draw_intents(rng, params)
    level = _draw_levels(rng, params, m, valid, nav)
    dqrels, intents, doc_ids = _judgment_tables(qids, level, valid, prob, nav)
    draw = _draw_styled_runs if params["runs"] == "styles" else _draw_runs
    runs, run_params, top_k = draw(rng, params, qids, doc_ids, level, valid, m, prob)
    T, N, M = level.shape
    padded = np.concatenate([level.astype(np.int8), np.zeros((T, params["depth"], M), dtype=np.int8)], axis=1)
    arrays = {"levels": padded[np.arange(T)[None, :, None], top_k],       # (R, T, kept ranks, M)
              "prob": prob, "valid": valid, "nav": nav, "run_ids": run_params["run_id"].to_numpy(),
              "topic_ids": qids}
    return IntentCollection(dqrels=dqrels, intents=intents, runs=runs, run_params=run_params, params=params,
                            arrays=arrays)


def _checked_params(*, n_topics, min_intents, max_intents, dirichlet_alpha, p_nav, pool_size, p_primary,
                    p_secondary, level_probs, n_runs, depth, feature_noise, run_noise, keep=None,
                    runs="skill") -> dict:
    """The arguments of :func:`intent_collection`, checked, as the collection's ``params``."""
    n_topics = _check_int("n_topics", n_topics, 1)
    min_intents = _check_int("min_intents", min_intents, 1)
    max_intents = _check_int("max_intents", max_intents, 1)
    if max_intents < min_intents:
        raise ValueError(f"max_intents ({max_intents}) must be >= min_intents ({min_intents})")
    if isinstance(dirichlet_alpha, bool) or not isinstance(dirichlet_alpha, (int, float)) or not dirichlet_alpha > 0:
        raise ValueError(f"dirichlet_alpha must be a positive number, got {dirichlet_alpha!r}")
    p_nav = _check_prob("p_nav", p_nav)
    p_primary = _check_prob("p_primary", p_primary)
    p_secondary = _check_prob("p_secondary", p_secondary)
    pool_size = _check_int("pool_size", pool_size, 1)
    n_runs = _check_int("n_runs", n_runs, 1)
    depth = _check_int("depth", depth, 1)
    keep = depth if keep is None else min(_check_int("keep", keep, 1), depth)
    for name, v in (("feature_noise", feature_noise), ("run_noise", run_noise)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v < 0:
            raise ValueError(f"{name} must be a non-negative number, got {v!r}")
    lp = np.asarray(level_probs, dtype=float)
    if lp.shape != (4,) or (lp < 0).any() or not np.isclose(lp.sum(), 1.0):
        raise ValueError(f"level_probs must be 4 non-negative probabilities of L1..L4 summing to 1, got {level_probs!r}")
    if runs not in RUN_DESIGNS:
        raise ValueError(f"runs must be one of {RUN_DESIGNS} (how the simulated runs differ), got {runs!r}")
    return dict(n_topics=n_topics, min_intents=min_intents, max_intents=max_intents,
                dirichlet_alpha=float(dirichlet_alpha), p_nav=p_nav, pool_size=pool_size,
                p_primary=p_primary, p_secondary=p_secondary, level_probs=tuple(lp.tolist()),
                n_runs=n_runs, depth=depth, feature_noise=float(feature_noise), run_noise=float(run_noise),
                keep=keep, runs=runs)


def _draw_intents(rng: np.random.Generator, params: dict):
    """Intents per topic (``m``, a ``valid`` mask over ``max_intents`` slots), their Dirichlet
    probabilities and which are navigational (never the most probable one)."""
    T, M = params["n_topics"], params["max_intents"]
    m = rng.integers(params["min_intents"], M + 1, size=T)                        # (T,)
    valid = np.arange(M)[None, :] < m[:, None]                                    # (T, M)
    gam = rng.gamma(params["dirichlet_alpha"], 1.0, size=(T, M)) * valid
    gam[:, 0] = np.where(gam.sum(1) > 0, gam[:, 0], 1.0)  # guard against an all-zero draw
    prob = gam / gam.sum(1, keepdims=True)
    nav = (rng.random((T, M)) < params["p_nav"]) & valid
    # keep at least one informational intent per topic: the most probable one
    top = prob.argmax(1)
    nav[np.arange(T), top] = False
    return m, valid, prob, nav


def _draw_levels(rng: np.random.Generator, params: dict, m, valid, nav) -> np.ndarray:
    """Intentwise relevance levels of the judged pool, ``(T, pool_size, max_intents)``."""
    T, M, N = params["n_topics"], params["max_intents"], params["pool_size"]
    lp = np.asarray(params["level_probs"], dtype=float)
    primary = np.floor(rng.random((T, N)) * m[:, None]).astype(int)               # (T, N)
    is_primary = primary[:, :, None] == np.arange(M)[None, None, :]              # (T, N, M)
    inf_level = 1 + (rng.random((T, N, M))[..., None] > np.cumsum(lp)[None, None, None, :]).sum(-1)
    inf_level = np.minimum(inf_level, 4)
    nav_level = 3 + (rng.random((T, N, M)) < 0.5)
    sec_level = 1 + (rng.random((T, N, M)) < 0.3)
    prim_rel = is_primary & (rng.random((T, N, M)) < params["p_primary"])
    sec_rel = ~is_primary & (rng.random((T, N, M)) < params["p_secondary"])
    level = np.where(prim_rel, inf_level, 0) + np.where(sec_rel, sec_level, 0)
    # navigational intents: keep only their first 1..3 relevant documents, at L3-L4
    n_keep = rng.integers(1, 4, size=(T, M))
    rel_rank = np.cumsum(level > 0, axis=1)                                       # (T, N, M)
    nav3 = nav[:, None, :]
    level = np.where(nav3 & (level > 0), np.where(rel_rank <= n_keep[:, None, :], nav_level, 0), level)
    level = level * valid[:, None, :]
    # every valid intent gets at least one relevant document
    empty = valid & ((level > 0).sum(1) == 0)                                     # (T, M)
    tt, ii = np.nonzero(empty)
    if len(tt):
        first = np.argmax(is_primary[tt, :, ii], axis=1)  # first document whose primary intent is i
        has = is_primary[tt, first, ii]
        first = np.where(has, first, 0)
        level[tt, first, ii] = np.where(nav[tt, ii], 3, 2)
    return level


def _judgment_tables(qids, level, valid, prob, nav):
    """The tidy ``dqrels`` and ``intents`` tables, and the judged documents' ids ``(T, N)``."""
    T, N, M = level.shape
    doc_ids = _id_grid(T, N, "-d")
    intent_ids = _id_grid(T, M, ".")
    t_idx, n_idx, i_idx = np.nonzero(np.broadcast_to(valid[:, None, :], (T, N, M)))
    dqrels = pd.DataFrame({
        "query_id": qids[t_idx],
        "intent_id": intent_ids[t_idx, i_idx],
        "doc_id": doc_ids[t_idx, n_idx],
        "relevance": level[t_idx, n_idx, i_idx].astype(np.int64),
    })
    tq, iq = np.nonzero(valid)
    intents = pd.DataFrame({
        "query_id": qids[tq],
        "intent_id": intent_ids[tq, iq],
        "prob": prob[tq, iq],
        "kind": np.where(nav[tq, iq], "nav", "inf"),
    })
    return dqrels, intents, doc_ids


@functools.lru_cache(maxsize=16)
def _id_grid(T: int, n: int, sep: str) -> np.ndarray:
    """Ids ``T001<sep>0001 ...`` (``sep`` "-d", "-u": documents; "."): intents ``T001.1``), (T, n),
    read-only and cached: every collection of the same size has the same ids."""
    if sep == ".":
        ids = np.array([[f"T{t + 1:03d}.{i + 1}" for i in range(n)] for t in range(T)], dtype=object)
    else:
        ids = np.array([[f"T{t + 1:03d}{sep}{i + 1:04d}" for i in range(n)] for t in range(T)], dtype=object)
    ids.flags.writeable = False
    return ids


def _rank_within_group(groups: np.ndarray) -> np.ndarray:
    """For each position ``j`` along the last axis, the number of earlier positions with the same
    group (``groups`` non-negative ints): ``sum_{k<j} [g_k == g_j]``."""
    D = groups.shape[-1]
    small = groups.astype(np.int16) if groups.size and groups.max() < 2 ** 15 else groups
    idx = np.argsort(small, axis=-1, kind="stable")                  # grouped, original order kept (radix sort)
    g = np.take_along_axis(small, idx, axis=-1)
    new = np.ones(g.shape, dtype=bool)
    new[..., 1:] = g[..., 1:] != g[..., :-1]
    pos = np.arange(D)
    start = np.maximum.accumulate(np.where(new, pos, 0), axis=-1)
    out = np.empty_like(groups)
    np.put_along_axis(out, idx, pos - start, axis=-1)
    return out


def _draw_runs(rng: np.random.Generator, params: dict, qids, doc_ids, level, valid, m, prob):
    """Runs ranking noisy features of the latent levels, each with its own intent estimate."""
    T, N, M = level.shape
    n_runs, depth = params["n_runs"], params["depth"]
    feature_noise, run_noise = params["feature_noise"], params["run_noise"]
    U = depth                                                                     # unjudged per topic
    lat = np.concatenate([level / 4.0, np.zeros((T, U, M))], axis=1)              # (T, N+U, M)
    feat = (lat + feature_noise * rng.standard_normal(lat.shape)) * valid[:, None, :]
    k = np.arange(n_runs)
    skill = 0.5 + 2.5 * k / max(n_runs - 1, 1)
    diversity = np.array([0.0, 0.6, 1.2])[k % 3]
    knowledge = np.array([4.0, 0.0, 1.0])[k % 3]
    conc = 1.0 + knowledge[:, None, None] * (m[:, None] * prob)[None]             # (R, T, M)
    v = rng.gamma(conc) * valid[None]
    v = v / v.sum(2, keepdims=True)
    contrib = np.einsum("rtm,tdm->rtdm", v, feat)                                 # (R, T, N+U, M)
    base = skill[:, None, None] * m[None, :, None] * contrib.sum(-1) + run_noise * rng.standard_normal((n_runs, T, N + U))
    est_intent = np.where(valid[None, :, None, :], contrib, -np.inf).argmax(-1)   # (R, T, N+U)
    run_params = pd.DataFrame({"run_id": _run_names(n_runs), "skill": skill, "diversity": diversity,
                               "knowledge": knowledge})
    return _ranked(params, qids, doc_ids, base, est_intent, diversity, run_params)


def _run_names(n_runs: int) -> np.ndarray:
    return np.array([f"R{j + 1:02d}" for j in range(n_runs)], dtype=object)


def _ranked(params: dict, qids, doc_ids, base: np.ndarray, est_intent: np.ndarray, diversity: np.ndarray,
            run_params: pd.DataFrame):
    """The runs' tables from their base scores ``(R, T, N+U)``: a diversifying run subtracts
    ``diversity * log1p(k)`` from its ``k``-th (0-based) document of the same estimated intent
    (in its own base-score order), then every run keeps its top ``keep`` documents."""
    n_runs, T = len(run_params), base.shape[1]
    U = params["depth"]
    # within-estimated-intent rank of each document under the run's own base score
    order = np.argsort(-base, axis=2, kind="stable")
    est_sorted = np.take_along_axis(est_intent, order, axis=2)
    within_sorted = _rank_within_group(est_sorted)                                # 0-based rank
    within = np.empty_like(within_sorted)
    np.put_along_axis(within, order, within_sorted, axis=2)
    scores = base - diversity[:, None, None] * np.log1p(within)                   # (R, T, N+U)
    kept = params["keep"]
    top_k = np.argsort(-scores, axis=2, kind="stable")[:, :, :kept]               # (R, T, kept)
    all_ids = np.concatenate([doc_ids, _id_grid(T, U, "-u")], axis=1)             # (T, N+U)
    r_idx = np.repeat(np.arange(n_runs), T * kept)
    t_rep = np.tile(np.repeat(np.arange(T), kept), n_runs)
    chosen = top_k.reshape(-1)
    runs = pd.DataFrame({
        "run_id": run_params["run_id"].to_numpy()[r_idx],
        "query_id": qids[t_rep],
        "doc_id": all_ids[t_rep, chosen],
        "rank": np.tile(np.arange(1, kept + 1), n_runs * T),
        "score": np.take_along_axis(scores, top_k, axis=2).reshape(-1),
    })
    return runs, run_params, top_k


def _draw_styled_runs(rng: np.random.Generator, params: dict, qids, doc_ids, level, valid, m, prob):
    """Runs that differ in style (``runs="styles"``, module docstring): intent focus, diversity and
    level preference, on the same noisy features as :func:`_draw_runs`."""
    T, N, M = level.shape
    n_runs, depth = params["n_runs"], params["depth"]
    U = depth
    lat = np.concatenate([level / 4.0, np.zeros((T, U, M))], axis=1)              # (T, N+U, M)
    feat = (lat + params["feature_noise"] * rng.standard_normal(lat.shape)) * valid[:, None, :]
    k = np.arange(n_runs)
    skill = 2.0 + 1.0 * k / max(n_runs - 1, 1)
    knowledge = np.full(n_runs, 4.0)
    focus_name = np.array(list(STYLES), dtype=object)[k % len(STYLES)]
    focus = np.array([STYLES[f] for f in focus_name])
    strategy = np.array(list(STRATEGIES), dtype=object)[k % len(STRATEGIES)]
    diversity = np.array([STRATEGIES[s][0] for s in strategy])
    level_pref = np.array([STRATEGIES[s][1] for s in strategy], dtype=object)
    conc = 1.0 + knowledge[:, None, None] * (m[:, None] * prob)[None]             # (R, T, M)
    v = rng.gamma(conc) * valid[None]
    v = v / v.sum(2, keepdims=True)
    w = np.where(valid[None], v, 1.0) ** focus[:, None, None] * valid[None]      # w ∝ v^focus over valid intents
    w = w / w.sum(2, keepdims=True)
    base = np.empty((n_runs, T, N + U))
    est_intent = np.empty((n_runs, T, N + U), dtype=np.int64)
    for name in dict.fromkeys(level_pref):                                         # one transform per preference
        h = feat if name == "linear" else 1.0 / (1.0 + np.exp(-(feat - _STEPS[name]) / _STEP_WIDTH))
        h = h * valid[:, None, :]
        sel = np.flatnonzero(level_pref == name)
        contrib = np.einsum("rtm,tdm->rtdm", w[sel], h)                            # (r, T, N+U, M)
        base[sel] = skill[sel, None, None] * m[None, :, None] * contrib.sum(-1)
        est_intent[sel] = np.where(valid[None, :, None, :], contrib, -np.inf).argmax(-1)
    base += params["run_noise"] * rng.standard_normal((n_runs, T, N + U))
    style = [f"{f}; {s}" for f, s in zip(focus_name, strategy)]
    run_params = pd.DataFrame({"run_id": _run_names(n_runs), "skill": skill, "diversity": diversity,
                               "knowledge": knowledge, "focus": focus, "level": level_pref, "style": style})
    return _ranked(params, qids, doc_ids, base, est_intent, diversity, run_params)
