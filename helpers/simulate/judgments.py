"""Simulated double relevance judgments calibrated to FedWeb13 (Demeester et al. 2016).

The FedWeb13 double judgments behind Tables 2, 3, 5 and 7 of Demeester et al. (Information
Retrieval Journal 19, 2016) are not public, so notebook 03 runs by default on this documented
latent-relevance model, calibrated so that the *expected* Eq. (5) estimates of ``p_{R|i}`` land
near the paper's Table 3 (pages).

The model
---------
Four levels ``0..3`` (Non, Rel, HRel, Key). For every (topic, document):

1. latent relevance ``z``: with probability ``w_t`` from the "relevant" component
   ``N(mu_rel, sd_rel^2)``, otherwise from ``N(0, 1)``. The topic's share ``w_t`` is drawn from a
   Beta distribution with mean ``w`` and concentration ``topic_concentration``, so topics differ
   in how many relevant documents they have, while the pooled latent distribution (and hence the
   calibration) is that of the mixture with weight ``w``.
2. each assessor observes ``z + e``, ``e ~ N(0, noise_sd^2)`` independently, and reports the level
   of the interval between the cut-points ``c1 < c2 < c3`` it falls in (an ordered-probit
   assessor);
3. with probability ``lapse`` an assessor instead reports a level drawn from the pool's marginal
   level distribution, independent of the document (inattention / idiosyncratic reading).

The two assessors are exchangeable (same model, same cut-points), so Eq. (4) and Eq. (5) have the
same expectation and Eq. (5) the smaller variance, and their disagreement depends on the level
only, as the PRM assumes: results that follow from this are checks of the machinery, not findings.
:func:`expected_p` computes the model's exact ``p_{R|i}`` by numerical integration over ``z``.

Topics differ only through ``w_t`` (``topic_concentration``, 8 by default). That value is a
choice, not fitted: the paper's Fig. 2 shows a topic-bootstrap sd of ``p_{Key|Key}`` about three
times its binomial sigma on FedWeb13 pages, this model about 1.2 times.

Where the PRM's assumptions fail
--------------------------------
``u2_lenience`` and ``lenience_sd`` break them on purpose: U2 then reads every document of topic
``t`` as ``z + s_t`` with ``s_t ~ N(u2_lenience, lenience_sd^2)`` (a positive shift moves U2's
labels up: a lenient U2). The assessors' marginals differ (Eq. 4 and Eq. 5 no longer agree;
paper, Sect. 5.2.1 after Carterette & Soboroff 2010) and the disagreement depends on the topic, not
only on the level. Notebook 03 compares PRM and binary gains on such collections, where the
comparison is not settled by construction.

Calibration
-----------
:data:`FEDWEB13_PARAMS` was fitted (Nelder-Mead, least squares on the 12 values of Table 3:
``theta`` = Key, HRel, Rel x 4 levels) with :func:`expected_p` and then rounded. Expected values
versus Table 3::

    theta = Key  : .004 .051 .262 .534   (paper .01 .04 .27 .53)   for Non, Rel, HRel, Key
    theta = HRel : .016 .214 .661 .858   (paper .02 .22 .65 .87)
    theta = Rel  : .080 .463 .872 .940   (paper .08 .46 .88 .93)

The largest gap is 0.0114 (notebook 03 prints it). A plain ordered probit (normal latent, no lapse) cannot reach these
values (gaps up to 0.1): the mixture gives the confusion between HRel and Key, the lapse term the
7 % of Key results that a second assessor calls Non-relevant.

Runs
----
Run ``r`` scores a document ``q_r z + N(0, 1)`` and returns the ``depth`` best; qualities ``q_r``
are evenly spaced on ``quality_range``, so runs range from near-random to strong. U1 judges
every document of every topic (complete judgments); U2 re-judges a random ``double_fraction``
of the documents on a random half (``double_topics``) of the topics.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["udm_vs_prm", "FEDWEB13_PARAMS", "FEDWEB13_TABLE3", "LEVEL_NAMES", "DoubleJudgments",
           "double_judgments", "expected_p", "confuse_top_levels"]

LEVEL_NAMES = ("Non", "Rel", "HRel", "Key")

#: Table 3 of Demeester et al. (2016): p_{R|i} from FedWeb13 page judgments, Eq. (5),
#: keyed by threshold theta (3 = Key, 2 = HRel, 1 = Rel), values for levels Non, Rel, HRel, Key.
FEDWEB13_TABLE3 = {
    3: (0.01, 0.04, 0.27, 0.53),
    2: (0.02, 0.22, 0.65, 0.87),
    1: (0.08, 0.46, 0.88, 0.93),
}

#: Calibrated latent-model parameters (see the module docstring).
FEDWEB13_PARAMS = {
    "cutpoints": (2.098, 3.615, 5.275),
    "noise_sd": 1.094,
    "w": 0.165,
    "mu_rel": 4.664,
    "sd_rel": 1.138,
    "lapse": 0.034,
}


class DoubleJudgments(NamedTuple):
    """Output of :func:`double_judgments`.

    ``qrels_u1`` / ``qrels_u2``: ``query_id, doc_id, relevance`` (levels 0..3; U2 only where it
    judged); ``pairs``: ``query_id, doc_id, u1, u2`` for the doubly judged documents; ``runs``:
    ``run_id, query_id, doc_id, rank, score``; ``quality``: ``run_id, quality`` (the true
    quality ``q_r``, for checks); ``latent``: ``query_id, doc_id, z``.
    """

    qrels_u1: pd.DataFrame
    qrels_u2: pd.DataFrame
    pairs: pd.DataFrame
    runs: pd.DataFrame
    quality: pd.DataFrame
    latent: pd.DataFrame


def _params(overrides: dict | None) -> dict:
    p = dict(FEDWEB13_PARAMS)
    for key, value in (overrides or {}).items():
        if key not in p:
            raise ValueError(f"unknown model parameter {key!r}; expected one of {sorted(p)}")
        p[key] = value
    c = np.asarray(p["cutpoints"], dtype=float)
    if c.ndim != 1 or c.size < 1 or not np.all(np.diff(c) > 0):
        raise ValueError(f"cutpoints must be a strictly increasing sequence, got {p['cutpoints']!r}")
    for key in ("noise_sd", "sd_rel"):
        if not p[key] > 0:
            raise ValueError(f"{key} must be > 0, got {p[key]!r}")
    for key in ("w", "lapse"):
        if not 0 <= p[key] <= 1:
            raise ValueError(f"{key} must be a probability in [0, 1], got {p[key]!r}")
    p["cutpoints"] = c
    return p


def _level_probs(z: np.ndarray, cut: np.ndarray, noise_sd: float) -> np.ndarray:
    """P(level = i | z) of the ordered-probit assessor, shape ``z.shape + (T + 1,)``."""
    edges = np.r_[-np.inf, cut, np.inf]
    return np.diff(stats.norm.cdf((edges - np.asarray(z)[..., None]) / noise_sd), axis=-1)


def _joint(p: dict) -> np.ndarray:
    """Exact joint distribution P(L1 = i, L2 = j) of two assessors (numerical integration)."""
    z = np.linspace(-8.0, p["mu_rel"] + 8.0 * p["sd_rel"], 6001)
    dz = z[1] - z[0]
    f = (1 - p["w"]) * stats.norm.pdf(z) + p["w"] * stats.norm.pdf(z, p["mu_rel"], p["sd_rel"])
    P = _level_probs(z, p["cutpoints"], p["noise_sd"])
    J = (P * (f * dz)[:, None]).T @ P
    J /= J.sum()
    pi = J.sum(axis=1)
    keep = (1 - p["lapse"]) ** 2
    return keep * J + (1 - keep) * np.outer(pi, pi)


def expected_p(params: dict | None = None) -> pd.DataFrame:
    """Exact ``p_{R|i}`` of the latent model for every threshold (expectation of Eq. 4 and 5).

    Parameters
    ----------
    params : dict, optional
        Overrides of :data:`FEDWEB13_PARAMS`.

    Returns
    -------
    DataFrame
        ``threshold, level, p, share`` where ``share`` is the level's share of the judged pool.
    """
    p = _params(params)
    J = _joint(p)
    T = J.shape[0] - 1
    rows = []
    for th in range(1, T + 1):
        pr = J[:, th:].sum(axis=1) / J.sum(axis=1)
        rows += [{"threshold": th, "level": i, "p": float(pr[i]), "share": float(J[i].sum())}
                 for i in range(T + 1)]
    return pd.DataFrame(rows)


def _check_int(name: str, value, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {value!r}")
    return int(value)


def _assess(z: np.ndarray, p: dict, pi: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One assessor's levels for latent relevances ``z`` (ordered probit + lapse)."""
    levels = np.searchsorted(p["cutpoints"], z + rng.normal(0.0, p["noise_sd"], z.shape),
                             side="right")
    lapse = rng.random(z.shape) < p["lapse"]
    random_level = rng.choice(len(pi), size=z.shape, p=pi)
    return np.where(lapse, random_level, levels).astype(np.int64)


def double_judgments(rng: np.random.Generator, *, n_topics: int = 50, n_docs: int = 250,
                     n_runs: int = 20, depth: int = 100, double_topics: float = 0.5,
                     double_fraction: float = 1.0, quality_range: tuple[float, float] = (0.1, 1.5),
                     topic_concentration: float = 8.0, u2_lenience: float = 0.0, lenience_sd: float = 0.0,
                     params: dict | None = None) -> DoubleJudgments:
    """Simulate a FedWeb13-like collection with double judgments on part of the topics.

    See the module docstring for the model and its calibration to Demeester et al. (2016),
    Table 3. Everything is a deterministic function of ``rng``'s state.

    Parameters
    ----------
    rng : numpy.random.Generator
    n_topics : int
        Topics (50 as in FedWeb13), ids ``t01, t02, ...``.
    n_docs : int
        Judged documents per topic (all judged by U1).
    n_runs : int
        Runs ``run01 ...``, qualities evenly spaced on ``quality_range`` (run01 = worst).
    depth : int
        Documents returned per run and topic (``<= n_docs``).
    double_topics : float
        Share of topics (rounded, at least 1) with double judgments, drawn at random.
    double_fraction : float
        Share of those topics' documents that U2 re-judges, drawn at random (1.0 = all).
    quality_range : (float, float)
        Lowest and highest run quality ``q_r >= 0``.
    topic_concentration : float
        Concentration of the Beta distribution of the topic's share of relevant-component
        documents (larger = topics more alike).
    u2_lenience, lenience_sd : float
        U2 reads topic ``t``'s documents as ``z + s_t``, ``s_t ~ N(u2_lenience, lenience_sd^2)``
        (latent units; the assessors' noise sd is about 1.1): 0 and 0 (the default) keep the two
        assessors exchangeable. ``s_t`` is drawn (just before U2's labels) only when
        ``lenience_sd > 0``, so the default draws are those of the exchangeable model.
    params : dict, optional
        Overrides of :data:`FEDWEB13_PARAMS`.

    Returns
    -------
    DoubleJudgments
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(rng).__name__}")
    n_topics = _check_int("n_topics", n_topics, 1)
    n_docs = _check_int("n_docs", n_docs, 1)
    n_runs = _check_int("n_runs", n_runs, 1)
    depth = _check_int("depth", depth, 1)
    if depth > n_docs:
        raise ValueError(f"depth ({depth}) cannot exceed n_docs ({n_docs})")
    for name, value in (("double_topics", double_topics), ("double_fraction", double_fraction)):
        if not 0 < value <= 1:
            raise ValueError(f"{name} must be in (0, 1], got {value!r}")
    lo, hi = quality_range
    if not 0 <= lo <= hi:
        raise ValueError(f"quality_range must satisfy 0 <= low <= high, got {quality_range!r}")
    if not topic_concentration > 0:
        raise ValueError(f"topic_concentration must be > 0, got {topic_concentration!r}")
    if not (np.isfinite(u2_lenience) and np.isfinite(lenience_sd) and lenience_sd >= 0):
        raise ValueError(f"u2_lenience must be finite and lenience_sd >= 0, got {u2_lenience!r} and {lenience_sd!r}")
    p = _params(params)
    pi = _joint(p).sum(axis=1)

    qids = np.array([f"t{t + 1:02d}" for t in range(n_topics)])
    a = p["w"] * topic_concentration
    b = (1 - p["w"]) * topic_concentration
    w_t = rng.beta(a, b, size=n_topics) if 0 < p["w"] < 1 else np.full(n_topics, p["w"])
    rel = rng.random((n_topics, n_docs)) < w_t[:, None]
    z = np.where(rel, rng.normal(p["mu_rel"], p["sd_rel"], (n_topics, n_docs)),
                 rng.normal(0.0, 1.0, (n_topics, n_docs)))
    u1 = _assess(z, p, pi, rng)
    shift = (rng.normal(u2_lenience, lenience_sd, n_topics) if lenience_sd > 0
             else np.full(n_topics, float(u2_lenience)))
    u2_all = _assess(z + shift[:, None], p, pi, rng)

    n_double = max(1, int(round(double_topics * n_topics)))
    double_t = np.zeros(n_topics, dtype=bool)
    double_t[rng.choice(n_topics, size=n_double, replace=False)] = True
    judged2 = double_t[:, None] & (rng.random((n_topics, n_docs)) < double_fraction)

    doc_ids = np.char.add(np.repeat(qids, n_docs).reshape(n_topics, n_docs),
                          np.char.add("-d", np.char.zfill(np.arange(1, n_docs + 1).astype(str), 4)))
    q_flat = np.repeat(qids, n_docs)
    d_flat = doc_ids.ravel()
    qrels_u1 = pd.DataFrame({"query_id": q_flat, "doc_id": d_flat, "relevance": u1.ravel()})
    m = judged2.ravel()
    qrels_u2 = pd.DataFrame({"query_id": q_flat[m], "doc_id": d_flat[m],
                             "relevance": u2_all.ravel()[m]})
    pairs = pd.DataFrame({"query_id": q_flat[m], "doc_id": d_flat[m],
                          "u1": u1.ravel()[m], "u2": u2_all.ravel()[m]})
    latent = pd.DataFrame({"query_id": q_flat, "doc_id": d_flat, "z": z.ravel()})

    quality = np.linspace(lo, hi, n_runs)
    run_ids = np.array([f"run{r + 1:02d}" for r in range(n_runs)])
    scores = quality[:, None, None] * z[None] + rng.normal(0.0, 1.0, (n_runs, n_topics, n_docs))
    order = np.argsort(-scores, axis=2, kind="stable")[:, :, :depth]   # runs x topics x depth
    top_scores = np.take_along_axis(scores, order, axis=2)
    runs = pd.DataFrame({
        "run_id": np.repeat(run_ids, n_topics * depth),
        "query_id": np.tile(np.repeat(qids, depth), n_runs),
        "doc_id": doc_ids[np.arange(n_topics)[None, :, None], order].ravel(),
        "rank": np.tile(np.arange(1, depth + 1), n_runs * n_topics),
        "score": top_scores.ravel(),
    })
    return DoubleJudgments(qrels_u1, qrels_u2, pairs, runs,
                           pd.DataFrame({"run_id": run_ids, "quality": quality}), latent)


def confuse_top_levels(levels, rng: np.random.Generator, *, T: int = 3) -> np.ndarray:
    """Make the top two levels indistinguishable: each level ``>= T - 1`` becomes ``T - 1`` or ``T``
    by an independent fair coin.

    This builds the situation of Demeester et al. (2016), Sect. 3.4.3 (e.g. "Excellent match"
    versus "Top result"), where ``p_{T|T} ~ p_{T|T-1}``: the PRM then gives both levels about equal
    gains, while the UDM still gives ``T`` weight 1 and ``T - 1`` only ``p_{T|T-1}``
    (:func:`udm_vs_prm`; notebook 03 prints the ratio).
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    arr = np.asarray(levels)
    if arr.dtype.kind not in "iu" or ((arr < 0) | (arr > T)).any():
        raise ValueError(f"levels must be integers in 0..{T}")
    top = arr >= T - 1
    return np.where(top, T - 1 + (rng.random(arr.shape) < 0.5), arr).astype(np.int64)


def udm_vs_prm(pairs: pd.DataFrame, rng: np.random.Generator, *, T: int, method: str = "eq5",
               reps: int = 100) -> dict:
    """Demeester et al. (2016), Sect. 3.4.3: PRM gains and UDM weights when the top two levels are
    indistinguishable.

    Each of ``reps`` repetitions lets both assessors' levels ``>= T - 1`` become ``T - 1`` or ``T`` by
    a fair coin (:func:`confuse_top_levels`, U1's column first, then U2's), re-estimates
    ``p_{T|i}`` at top relevance with ``method`` (:func:`helpers.prm.estimate`), and the estimates are
    averaged over repetitions. Returns ``p`` (mean estimate per level 0..T), ``sd`` (across
    repetitions), ``prm`` and ``udm`` (:func:`helpers.prm.prm_gains` and :func:`helpers.prm.udm_weights`
    of the mean, NaN read as 0) and the ratios of the lower to the top of the two levels under each,
    ``prm_ratio`` and ``udm_ratio``: the paper argues the PRM's approaches 1 and the UDM's cannot.
    """
    from .. import prm
    from ..prm import core

    if int(reps) < 2:
        raise ValueError(f"reps must be an integer >= 2, got {reps!r}")
    core.check_method(method)
    u1, u2 = core.as_levels(pairs["u1"], "u1"), core.as_levels(pairs["u2"], "u2")
    est = []
    for _ in range(int(reps)):   # prm.estimate's counts (Eq. 4 or 5) on the arrays, U1's column first
        a, b = confuse_top_levels(u1, rng, T=T), confuse_top_levels(u2, rng, T=T)
        num, den = (x.sum(axis=0).astype(float) for x in core.contributions(a, b, T, T, method))
        with np.errstate(invalid="ignore", divide="ignore"):
            est.append(np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan))
    est = np.array(est)
    with np.errstate(invalid="ignore"):
        p, sd = np.nanmean(est, axis=0), np.nanstd(est, axis=0, ddof=1)
    g, w = prm.prm_gains(np.nan_to_num(p)), prm.udm_weights(np.nan_to_num(p))
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"p": p, "sd": sd, "prm": g, "udm": w, "prm_ratio": g[T - 1] / g[T] if g[T] else float("nan"),
                "udm_ratio": w[T - 1] / w[T]}
