"""Study functions for replicated simulation studies (:func:`helpers.replicates.runner.run_replicates`).

Each notebook's headline analysis on simulated data, as one function of ``rng`` plus keyword
parameters that returns a tidy frame. The notebooks show the paper's single-draw layout (R = 1)
and then run the same study over R independent replicates to report means, intervals and the share
of replicates in which a finding holds. What a replicate redraws is the simulation's randomness and
nothing else:

* notebook 02 (:func:`unanimity_grid`): the simulated ratings of every (Dmax, N) cell and one set of
  HSD permutations shared by the cells, on the fixed collection -- Sakai simulated ratings on fixed
  NTCIR data, so the collection plays the role of that data; (:func:`unanimity_real_contrast`) uniform
  ratings with the real ratings' per-item RawG, and the permutations;
* notebook 03 (:func:`prm_robustness`): the simulated double-judged collection and its runs;
  (:func:`prm_u2_draw`) the second assessor drawn among the real raters, and the resamples that depend on it;
* notebook 04 (:func:`diversity_recovery`, a planted-truth experiment): the simulated INTENT-like
  collection, whose run orders under every planted user model (:mod:`helpers.simulate.users`) are
  the truths the measures are scored against (:func:`recovery`);
* notebook 05 (:func:`preference_recovery`, a planted-truth experiment, in
  :mod:`helpers.replicates.preference` and importable here): the collection, the sampled SERP pairs
  and, for every planted user model, a panel of simulated assessors.

All randomness comes from ``rng``; every study is deterministic given it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import prm, stats, unanimity
from ..measures import diversity
from .prm import prm_robustness, prm_u2_draw  # noqa: F401  (notebook 03's studies live in helpers.replicates.prm)

__all__ = ["unanimity_variant", "unanimity_grid", "unanimity_real_contrast", "uniform_contrast", "prm_robustness",
           "prm_u2_draw", "diversity_recovery", "planted_truth", "order_agreement", "recovery", "preference_recovery",
           "paired_leader_intervals", "dsharp_irec_disagreement", "reversed_id_order", "tie_order_effect",
           "significant_pair_cover", "power_interval", "above_own_chance"]


def unanimity_variant(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, d_max: int, n: int,
                      p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float, threshold: int = 1,
                      ratings=None, scorer=None) -> pd.DataFrame:
    """One (Dmax, N) cell of notebook 02: simulated ratings, RawG vs UG.

    Returns one row per measure: ``measure, tau, low, high, discrepancies, significant_RawG,
    significant_UG, share_full_spread, mean_spread`` (the last two over the items with RawG > 0:
    the share whose spread reaches ``d_max`` and the mean spread; :func:`helpers.unanimity.
    compare_gains` on ratings from :func:`helpers.simulate.ratings.simulate_ratings`, items below
    ``threshold`` -- the collection's lowest relevant level -- rated all zeros).

    With ``ratings`` given (an items x ``n`` array of real ratings) nothing is simulated: the
    replicate redraws only the HSD permutations. ``scorer``: a :class:`helpers.unanimity.GainScorer`
    of ``qrels``, ``run`` and ``measures`` (built per call when not given). Notebook 02 runs
    :func:`unanimity_grid` (all cells of a replicate at once); this one-cell study is kept for
    ``benchmarks/bench_sweep.py``.
    """
    from ..simulate.ratings import simulate_ratings

    if ratings is None:
        values = simulate_ratings(qrels, int(n), int(d_max), rng, threshold=threshold)
    else:
        values = np.asarray(ratings, dtype=float)
        if values.shape != (len(qrels), int(n)):
            raise ValueError(f"ratings must be a (len(qrels) = {len(qrels)}) x n = {n} array, got {values.shape}")
    res = unanimity.compare_gains(qrels, run, values, int(d_max), p, list(measures), hsd_runs, B, alpha, rng,
                                  scorer=scorer)
    return _variant_rows(res, values, int(d_max))


def _variant_rows(res: dict, values: np.ndarray, d_max: int) -> pd.DataFrame:
    """One row per measure of a :func:`helpers.unanimity.compare_gains` result."""
    sig = res["significant"].set_index("measure")
    disc = res["discrepancies"]["measure"].value_counts()
    # values were validated by compare_gains (helpers.gains); NaN-aware reductions only when needed
    full = not np.isnan(values).any()
    relevant = (values.sum(axis=1) if full else np.nansum(values, axis=1)) > 0  # as helpers.unanimity.spread_shares
    if not relevant.any():
        raise ValueError("no item has a positive raw gain; nothing to summarise")
    d = ((values.max(axis=1) - values.min(axis=1)) if full else
         (np.nanmax(values, axis=1) - np.nanmin(values, axis=1)))[relevant]
    full, mean_spread = float(np.mean(d == d_max)), float(d.mean())
    rows = []
    for t in res["tau"].itertuples():
        rows.append({"measure": t.measure, "tau": float(t.tau), "low": float(t.low), "high": float(t.high),
                     "discrepancies": int(disc.get(t.measure, 0)),
                     "significant_RawG": int(sig.loc[t.measure, "RawG"]),
                     "significant_UG": int(sig.loc[t.measure, "UG"]), "share_full_spread": full,
                     "mean_spread": mean_spread})
    return pd.DataFrame(rows)


_ROW = ["measure", "tau", "low", "high", "discrepancies", "significant_RawG", "significant_UG", "share_full_spread",
        "mean_spread"]


def unanimity_grid(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, cells: Sequence[Mapping],
                   p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float, threshold: int = 1,
                   scorer=None) -> pd.DataFrame:
    """One replicate of notebook 02's simulation: every (Dmax, N) cell, RawG vs UG.

    Draws the simulated ratings of each cell of ``cells`` (mappings with ``d_max`` and ``n``) in
    order from ``rng`` (:func:`helpers.simulate.ratings.simulate_ratings`, items below
    ``threshold`` rated all zeros), then runs every HSD of the replicate -- all cells, measures and
    both gains -- on one set of permutations drawn next from ``rng``
    (:func:`helpers.unanimity.compare_gains_many`: common random numbers across cells, so the
    cells are compared without Monte Carlo noise between them; each cell's distribution over
    replicates is still that of an independent run of the cell). One task per replicate keeps a
    dask task near a second of work.

    Returns the rows of :func:`unanimity_variant` with ``d_max`` and ``n`` in front (one row per
    cell and measure). ``scorer``: a :class:`helpers.unanimity.GainScorer` of ``qrels``, ``run``
    and ``measures`` (built here when not given).
    """
    from ..simulate.ratings import simulate_ratings

    cells = [(int(c["d_max"]), int(c["n"])) for c in cells]
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    values = [simulate_ratings(qrels, n, d_max, rng, threshold=threshold) for d_max, n in cells]
    results = unanimity.compare_gains_many(qrels, run, [(v, d) for v, (d, _) in zip(values, cells)], p,
                                           list(measures), hsd_runs, B, alpha, rng, scorer=scorer)
    frames = [_variant_rows(res, v, d).assign(d_max=d, n=n) for res, v, (d, n) in zip(results, values, cells)]
    return pd.concat(frames, ignore_index=True)[["d_max", "n", *_ROW]]


def unanimity_real_contrast(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, ratings,
                            d_max: int, p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float,
                            scorer=None) -> pd.DataFrame:
    """Notebook 02, Sakai's conjecture like for like: real ratings against uniform ones of the same RawG.

    The simulated ratings of a draw are independent uniform ratings conditioned on each item's
    real raw gain (:func:`helpers.simulate.ratings.uniform_ratings_given_sum`): same items, N, Dmax
    and RawG as the real ``ratings`` (items x N), so the RawG scores, rankings and significance
    calls are *identical* and the two sets differ only in how the ratings spread -- what UG
    rewards. Both are compared with :func:`helpers.unanimity.compare_gains_many` on the same HSD
    permutations (drawn from ``rng`` after the simulated ratings), so across draws the real
    ratings' result varies only by the Monte Carlo noise of the test.

    Returns the rows of :func:`unanimity_variant` with a ``ratings`` column (``"real"``,
    ``"simulated"``) in front: one row per ratings set and measure.
    """
    from .. import gains
    from ..simulate.ratings import uniform_ratings_given_sum

    real = np.asarray(ratings, dtype=float)
    if real.ndim != 2 or real.shape[0] != len(qrels) or np.isnan(real).any():
        raise ValueError(f"ratings must be a complete (len(qrels) = {len(qrels)}) x N array of ratings")
    sim = uniform_ratings_given_sum(gains.raw_gain(real, d_max), real.shape[1], d_max, rng)
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    res = unanimity.compare_gains_many(qrels, run, [(real, d_max), (sim, d_max)], p, list(measures), hsd_runs, B,
                                       alpha, rng, scorer=scorer)
    frames = [_variant_rows(r, v, int(d_max)).assign(ratings=lab)
              for r, v, lab in zip(res, (real, sim), ("real", "simulated"))]
    return pd.concat(frames, ignore_index=True)[["ratings", *_ROW]]


def uniform_contrast(rng: np.random.Generator, *, n_items: int, n, d_max: int, p: float,
                     sums=None) -> dict:
    """Notebook 01: one draw of uniform ratings (``n_items`` x ``n`` on ``0..d_max``) summarised
    like real ratings (:func:`helpers.gains.unanimity_summary`): ``items, share_full_spread,
    mean_spread, mean_bonus, share_ties_broken``.

    ``n`` may also list each item's own number of ratings (items rated by different numbers of
    assessors; ``n_items`` is then its length): the draw has the same N per item
    (:func:`helpers.simulate.ratings.uniform_ratings_like`). With ``sums`` (one real raw gain per
    item, ``n_items`` of them) the uniform ratings are conditioned on them
    (:func:`helpers.simulate.ratings.uniform_ratings_given_sum`): the same items with the same
    RawG as the real ratings, differing only in how they spread.
    """
    from .. import gains
    from ..simulate.ratings import uniform_ratings, uniform_ratings_given_sum, uniform_ratings_like

    if np.ndim(n) != 0 and len(n) != int(n_items):
        raise ValueError(f"uniform_contrast: n lists {len(n)} items, n_items is {n_items}")
    if sums is not None and len(sums) != int(n_items):
        raise ValueError(f"sums must hold one raw gain per item ({n_items}), got {len(sums)}")
    if sums is not None:
        values = uniform_ratings_given_sum(sums, n if np.ndim(n) == 0 else np.asarray(n, dtype=int), int(d_max), rng)
    elif np.ndim(n) == 0:
        values = uniform_ratings(int(n_items), int(n), int(d_max), rng)
    else:
        values = uniform_ratings_like(np.asarray(n, dtype=int), int(d_max), rng)
    s = gains.unanimity_summary(values, int(d_max), p)
    return {"items": s["items"], "share_full_spread": s["share_full_spread"], "mean_spread": s["mean_spread"],
            "mean_bonus": s["mean_bonus"], "share_ties_broken": s["share_broken"]}


def significant_pair_cover(hsd: pd.DataFrame, significance: float, max_size: int = 3) -> dict:
    """Which runs the significant pairs of a randomised Tukey HSD are about.

    Finds the smallest set of runs (up to ``max_size``) that every significant pair involves
    (a minimum vertex cover of the significant pairs, by enumeration), and whether the
    significant pairs are *exactly* those between the cover and the other runs (then the test
    separates one group of runs from the rest and detects nothing inside either group).

    Returns ``{"n_significant", "cover" (sorted list, or None if larger than max_size),
    "exactly_cover_vs_rest" (bool)}``.
    """
    from itertools import combinations

    sig = hsd[hsd["p_value"] < significance]
    pairs = {frozenset(p) for p in zip(sig["system_a"], sig["system_b"])}
    runs = sorted(set(hsd["system_a"]) | set(hsd["system_b"]))
    out = {"n_significant": len(pairs), "cover": None, "exactly_cover_vs_rest": False}
    if not pairs:
        out["cover"] = []
        return out
    for k in range(1, max_size + 1):
        for cand in combinations(runs, k):
            c = set(cand)
            if all(p & c for p in pairs):
                rest = [r for r in runs if r not in c]
                out["cover"] = sorted(c)
                out["exactly_cover_vs_rest"] = pairs == {frozenset((a, b)) for a in c for b in rest}
                return out
    return out


def power_interval(p_values: np.ndarray, significance: float, B: int, z: float = 1.96) -> tuple[float, float]:
    """Monte Carlo interval of discriminative power from the randomised test's own error.

    Each p-value is read back as its count of ``B`` trials (``p = (count + 1) / (B + 1)``, the
    Phipson-Smyth p-value of :func:`helpers.stats.randomised_tukey_hsd`), and the exact
    (Clopper-Pearson) interval of the true p at the two-sided level that ``z`` stands for (1.96:
    95%) says whether another run of the B trials could put it on the other side of
    ``significance``. Returns (share of pairs surely significant: upper bound below the level,
    share possibly significant: lower bound below it). An exact interval, not the normal one: with
    few trials and a small level (B = 500, 0.01) the normal half-width exceeds the smallest p-value
    the test can give, and nothing would count as surely significant.
    """
    from scipy.stats import beta, norm

    p = np.asarray(p_values, dtype=float)
    B = int(B)
    tail = float(norm.sf(z))   # 0.025 for z = 1.96
    c = np.clip(np.rint(p * (B + 1)) - 1, 0, B)
    with np.errstate(invalid="ignore"):
        low = np.where(c > 0, beta.ppf(tail, c, B - c + 1), 0.0)
        high = np.where(c < B, beta.ppf(1 - tail, c + 1, B - c), 1.0)
    return float((high < significance).mean()), float((low < significance).mean())


# --------------------------------------------------------------------------------------------
# Planted-truth experiments (notebooks 04 and 05): helpers.simulate.users
# --------------------------------------------------------------------------------------------

def _relevant(dqrels: pd.DataFrame) -> pd.DataFrame:
    """The relevant rows of intentwise qrels: a judged L0 row changes no diversity measure (every
    one treats judged non-relevant and unjudged documents alike; the same values, tested), and the
    simulated collections hold ten times more L0 rows than relevant ones."""
    return dqrels[dqrels["relevance"] > 0]


def diversity_recovery(rng: np.random.Generator, *, n_topics: int, n_runs: int, depth: int, measures: Sequence[str],
                       normaliser: str | None = "ideal", models: Sequence[str] | None = None,
                       mixture: str | None = None) -> pd.DataFrame:
    """Notebook 04's planted-truth experiment, one replicate: a fresh simulated collection, every
    measure's run ranking, and what each planted user model makes of the same runs.

    The runs of :func:`helpers.simulate.intents.intent_collection` are fixed by their parameters
    (skill, diversity, knowledge), so each user model of :mod:`helpers.simulate.users` defines a
    *true* quality of every run: its expected utility over the topic population (the population
    user: intents weighted by ``Pr(i|q)``, uniformly for ``coverage``; persistence
    :data:`~helpers.simulate.users.TRUTH_PERSISTENCE`). A replicate contributes the utilities of
    its topics to that population (as sums, so that replicates pool: :func:`planted_truth`), and
    the measures' means over the same topics, whose run order is then compared with the truth
    estimated from the *other* replicates (:func:`recovery`).

    Parameters
    ----------
    rng : numpy.random.Generator
    n_topics, n_runs, depth : int
        The collection (:func:`~helpers.simulate.intents.intent_collection`); only the top ``l``
        ranks are kept (``keep``), ``l`` the measures' cutoff.
    measures : sequence of str
        Measure names with one common cutoff ``l`` (``"D#-nDCG@10"``); it is also the SERP length
        the users read.
    normaliser : str
        :func:`helpers.measures.diversity.evaluate`'s.
    models : sequence of str, optional
        User models (default: every one of :data:`~helpers.simulate.users.USER_MODELS`).
        ``null`` plants a random run order (``N(0, 1)`` utility per run, drawn from ``rng``): a
        truth nothing in the qrels can recover.
    mixture : str, optional
        A population mixture of models (``"position:0.4,coverage:0.3,first-hit:0.3"``), added as
        model ``"mixture"``: each topic's user is drawn from it, and the utility is divided by the
        mean utility of that model over the replicate's SERPs (so that every model counts in the
        same units).

    Returns
    -------
    DataFrame ``kind, name, run, run_b, value``: ``kind = "measure"`` (``name`` the measure,
    ``value`` its mean over the topics, ``run_b`` empty), ``"sum"`` (``name`` the model: sum over
    topics of the run's utility), ``"cross"`` (sum over topics of ``u_run * u_run_b``, every ordered
    pair incl. ``run = run_b``), ``"topics"`` (number of topics, ``run`` empty) and ``"planted"``
    (``null``: the run's planted utility).
    """
    from ..simulate import users
    from ..simulate.intents import intent_collection

    measures = list(measures)
    cutoffs = {diversity.parse_measure(m).cutoff for m in measures}
    if len(cutoffs) != 1 or None in cutoffs:
        raise ValueError(f"measures must share one cutoff (e.g. 'D#-nDCG@10'), got {sorted(map(str, cutoffs))}")
    l = int(cutoffs.pop())
    models = list(users.USER_MODELS if models is None else models)
    unknown = [m for m in models if m not in users.USER_MODELS]
    if unknown:
        raise ValueError(f"unknown user model(s) {unknown}; known: {', '.join(users.USER_MODELS)}")
    coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs, depth=depth, keep=min(l, depth))
    res = diversity.evaluate(_relevant(coll.dqrels), coll.intents, coll.runs, measures, normaliser=normaliser)
    means = res.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")
    run_ids = [str(r) for r in coll.arrays["run_ids"]]
    R = len(run_ids)
    util = _planted_utilities(rng, coll.arrays, l, models, mixture)
    frames = [pd.DataFrame({"kind": "measure", "name": np.repeat(np.array(measures, dtype=object), R),
                            "run": np.tile(np.array(run_ids, dtype=object), len(measures)), "run_b": "",
                            "value": means.reindex(index=run_ids, columns=measures).to_numpy().T.reshape(-1)})]
    pair_a = np.repeat(np.array(run_ids, dtype=object), R)
    pair_b = np.tile(np.array(run_ids, dtype=object), R)
    for m, u in util.items():   # (R, T) utilities of every run on every topic
        frames.append(pd.DataFrame({"kind": "sum", "name": m, "run": run_ids, "run_b": "", "value": u.sum(1)}))
        frames.append(pd.DataFrame({"kind": "cross", "name": m, "run": pair_a, "run_b": pair_b,
                                    "value": (u @ u.T).reshape(-1)}))
    if "null" in models:
        frames.append(pd.DataFrame({"kind": "planted", "name": "null", "run": run_ids, "run_b": "",
                                    "value": rng.standard_normal(R)}))
    frames.append(pd.DataFrame({"kind": "topics", "name": "", "run": [""], "run_b": "",
                                "value": [float(len(coll.arrays["topic_ids"]))]}))
    return pd.concat(frames, ignore_index=True)


def _planted_utilities(rng: np.random.Generator, arrays: dict, l: int, models: Sequence[str],
                       mixture: str | None) -> dict:
    """(runs, topics) utilities of the top ``l`` ranks under every model but ``null``, and of the
    ``mixture`` population (:func:`diversity_recovery`)."""
    from ..simulate import users

    levels = arrays["levels"][:, :, :l].astype(float) / 4.0                   # (R, T, l, M)
    prob, valid = arrays["prob"][None], arrays["valid"][None]
    util = {m: users.serp_utility(levels, m, prob, valid) for m in models if m != "null"}
    if mixture is not None:
        shares = users.parse_mixture(mixture)
        kinds = list(shares)
        T = levels.shape[1]
        pick = rng.choice(len(kinds), size=T, p=np.array([shares[k] for k in kinds]))
        parts = {k: util[k] if k in util else users.serp_utility(levels, k, prob, valid) for k in kinds}
        scale = {k: float(v.mean()) if v.mean() > 0 else 1.0 for k, v in parts.items()}
        util["mixture"] = np.stack([parts[k] / scale[k] for k in kinds])[pick, :, np.arange(T)].T
    return util


def _truth_arrays(rep: pd.DataFrame) -> dict:
    """:func:`diversity_recovery` replicates as arrays: replicates, runs, models, measures; ``sums``
    (rep, model, run), ``cross`` (rep, model, run, run), ``topics`` (rep), ``means`` (rep, measure,
    run) and ``planted`` (rep, run) or None."""
    reps = np.array(sorted(rep["replicate"].unique()))
    ridx = {r: k for k, r in enumerate(reps)}
    meas = rep[rep["kind"] == "measure"]
    runs = list(dict.fromkeys(meas["run"]))
    measures = list(dict.fromkeys(meas["name"]))
    models = list(dict.fromkeys(rep.loc[rep["kind"] == "sum", "name"]))
    kpos = {r: k for k, r in enumerate(runs)}

    def fill(frame, shape, cols):
        out = np.full(shape, np.nan)
        idx = tuple(frame[c].map(m).to_numpy() for c, m in cols)
        out[idx] = frame["value"].to_numpy(float)
        return out

    R, M, K, Q = len(reps), len(models), len(runs), len(measures)
    mpos, qpos = {m: k for k, m in enumerate(models)}, {m: k for k, m in enumerate(measures)}
    sums = fill(rep[rep["kind"] == "sum"], (R, M, K), [("replicate", ridx), ("name", mpos), ("run", kpos)])
    cross = fill(rep[rep["kind"] == "cross"], (R, M, K, K),
                 [("replicate", ridx), ("name", mpos), ("run", kpos), ("run_b", kpos)])
    means = fill(meas, (R, Q, K), [("replicate", ridx), ("name", qpos), ("run", kpos)])
    top = rep[rep["kind"] == "topics"]
    topics = np.zeros(R)
    topics[top["replicate"].map(ridx).to_numpy()] = top["value"].to_numpy(float)
    pl = rep[rep["kind"] == "planted"]
    planted = fill(pl, (R, K), [("replicate", ridx), ("run", kpos)]) if len(pl) else None
    return {"replicates": reps, "runs": runs, "models": models, "measures": measures, "sums": sums,
            "cross": cross, "topics": topics, "means": means, "planted": planted}


def _pooled_truth(sums: np.ndarray, cross: np.ndarray, n: np.ndarray, z: float):
    """Mean utilities (..., K) and resolved pairs (..., K, K) from pooled sums over ``n`` topics."""
    n = np.asarray(n, dtype=float)[..., None]
    mean = sums / n
    C = cross / n[..., None]
    d = mean[..., :, None] - mean[..., None, :]
    diag = np.diagonal(C, axis1=-2, axis2=-1)
    var = diag[..., :, None] + diag[..., None, :] - 2 * C - d * d          # per-topic variance of u_a - u_b
    se = np.sqrt(np.maximum(var, 0.0) / np.maximum(n[..., None] - 1.0, 1.0))
    resolved = np.abs(d) > z * se
    K = sums.shape[-1]
    resolved &= ~np.eye(K, dtype=bool)
    return mean, resolved


def planted_truth(rep: pd.DataFrame, z: float = 2.0) -> dict:
    """The planted truth of every model, pooled over all replicates of :func:`diversity_recovery`.

    For each model the population mean utility of every run is estimated from the pooled topics
    of the replicates; a pair of runs is *resolved* when the mean of its paired per-topic
    difference is more than ``z`` standard errors from 0 (at this number of topics the truth
    itself cannot order the others). ``null`` has no population (its planted order is drawn anew
    in every replicate) and is left out.

    Returns ``{model: {"runs": [...], "mean": (R,) array, "resolved": (R, R) bool, "topics": int}}``.
    """
    a = _truth_arrays(rep)
    n = a["topics"].sum()
    mean, resolved = _pooled_truth(a["sums"].sum(0), a["cross"].sum(0), np.full(len(a["models"]), n), z)
    return {m: {"runs": a["runs"], "mean": mean[k], "resolved": resolved[k], "topics": int(n)}
            for k, m in enumerate(a["models"])}


def order_agreement(scores: np.ndarray, truth: np.ndarray, resolved: np.ndarray) -> np.ndarray:
    """Share of the resolved run pairs that ``scores`` orders as ``truth`` does (a tie in
    ``scores`` counts one half; NaN without any resolved pair). Broadcasts: ``scores`` (..., K),
    ``truth`` (..., K), ``resolved`` (..., K, K) symmetric."""
    s = np.sign(scores[..., :, None] - scores[..., None, :])
    t = np.sign(truth[..., :, None] - truth[..., None, :])
    K = np.shape(scores)[-1]
    upper = np.triu(np.ones((K, K), dtype=bool), 1) & resolved
    agree = np.where(s == 0, 0.5, (s == t).astype(float))
    n = upper.sum((-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, (agree * upper).sum((-2, -1)) / np.maximum(n, 1), np.nan)


def recovery(rep: pd.DataFrame, z: float = 2.0) -> pd.DataFrame:
    """Which measure recovers which planted truth: for every replicate, model and measure, the
    share of resolved run pairs that the measure's means over the replicate's topics put in the
    order of the truth estimated from the *other* replicates (leave-one-out, so that a replicate is
    never scored against its own topics; :func:`planted_truth`, :func:`order_agreement`). For
    ``null`` the truth is the replicate's own planted order (every pair resolved).

    Returns ``replicate, model, measure, recovery, resolved_pairs`` (models in the order of the
    replicates' table, then ``null``).
    """
    a = _truth_arrays(rep)
    R = len(a["replicates"])
    if R < 2:
        raise ValueError("recovery needs at least 2 replicates (the truth of one replicate comes from the others)")
    sums_out = a["sums"].sum(0)[None] - a["sums"]                              # (R, M, K) leave one out
    cross_out = a["cross"].sum(0)[None] - a["cross"]
    n_out = (a["topics"].sum() - a["topics"])[:, None] * np.ones(len(a["models"]))
    mean, resolved = _pooled_truth(sums_out, cross_out, n_out, z)               # (R, M, K), (R, M, K, K)
    models = list(a["models"])
    if a["planted"] is not None:
        K = len(a["runs"])
        mean = np.concatenate([mean, a["planted"][:, None, :]], axis=1)
        full = np.broadcast_to(~np.eye(K, dtype=bool), (R, 1, K, K))
        resolved = np.concatenate([resolved, full], axis=1)
        models.append("null")
    rec = order_agreement(a["means"][:, None, :, :], mean[:, :, None, :], resolved[:, :, None, :, :])  # (R, M, Q)
    n_res = np.triu(resolved, 1).sum((-2, -1))                                 # (R, M)
    Rr, Mm, Qq = rec.shape
    return pd.DataFrame({"replicate": np.repeat(a["replicates"], Mm * Qq),
                         "model": np.tile(np.repeat(np.array(models, dtype=object), Qq), Rr),
                         "measure": np.tile(np.array(a["measures"], dtype=object), Rr * Mm),
                         "recovery": rec.reshape(-1), "resolved_pairs": np.repeat(n_res.reshape(-1), Qq)})


def paired_leader_intervals(wide: pd.DataFrame, higher: bool = True, level: float = 0.95,
                            means: Mapping[str, float] | None = None, digits: int | None = None) -> tuple[str, dict]:
    """The leader by mean of a replicates x labels table and, for every label, the ``level``
    confidence interval of the *mean* of its paired difference to the leader over the independent
    replicates (Student's t, :func:`helpers.replicates.planted.mean_interval`; not the spread of
    single replicates, which would ask whether a label trails the leader in every replicate).

    Replicates of one study share their collection, so two measures' values move together;
    overlapping marginal intervals would hide differences the paired ones show. Passed as
    ``intervals`` to :func:`helpers.notebook.claims.leaders`, a label whose paired interval
    includes 0 is named "within noise" of the leader (the leader's own interval is ``(0, 0)``).
    ``means`` (label -> mean, default the column means) decides the leader: pass the values given
    to ``claims.leaders``, in the same order, so that both name the same leader.

    ``digits`` (the precision ``claims.leaders`` prints with): every label whose mean equals the
    leader's at that precision is a tied leader and gets ``(0, 0)``; every other label gets its
    paired interval to a tied leader that includes 0 if there is one, else to the first leader, so
    ``claims.leaders`` names it within noise exactly when its paired difference to *some* tied
    leader includes 0. ``None``: the first leader only.
    """
    from .planted import mean_interval

    m = dict(means) if means is not None else wide.mean().to_dict()
    # the first label (in the order of ``means``) with the highest (lowest) mean, as claims.leaders picks it
    lead = max(m, key=lambda k: m[k] if higher else -m[k])
    if digits is None:
        tied = [lead]
    else:
        shown = f"{m[lead]:.{digits}f}"
        tied = [k for k in m if f"{m[k]:.{digits}f}" == shown and k in wide.columns]
    out = {}
    for c in wide.columns:
        if digits is not None and c in tied:
            out[c] = (0.0, 0.0)
            continue
        ivs = [mean_interval((wide[c] - wide[t]).dropna().to_numpy(float), level)[:2] for t in tied]
        out[c] = next((iv for iv in ivs if iv[0] <= 0 <= iv[1]), ivs[0])
    return lead, out


def reversed_id_order(dqrels, runs):
    """``(dqrels, runs)`` with every document id replaced by one whose lexicographic order is the
    reverse of the original's (the same documents, relevance and ranks): evaluated on them, ndeval's
    greedy ideal breaks its ties the other way round (:func:`tie_order_effect`)."""
    ids = pd.Index(sorted(set(dqrels["doc_id"]) | set(runs["doc_id"])))
    width = len(str(len(ids)))
    new = pd.Series([f"r{len(ids) - 1 - k:0{width}d}" for k in range(len(ids))], index=ids)
    return dqrels.assign(doc_id=dqrels["doc_id"].map(new).to_numpy()), runs.assign(doc_id=runs["doc_id"].map(new).to_numpy())


def tie_order_effect(dqrels, intents, runs, measures, **evaluate_kw):
    """How much ndeval's greedy ideal list depends on its tie rule.

    Among documents of equal novelty gain ndeval's greedy ideal takes the lexicographically largest
    document id (:func:`helpers.measures.diversity.ndeval.greedy_ideal_alpha`); which of them comes first can change the gains of
    later ranks, so the ideal's discounted gain -- the denominator of alpha-nDCG, nERR-IA and
    nNRBP -- depends on how the documents happen to be named. Every measure of ``measures`` is
    evaluated as ndeval does and on :func:`reversed_id_order` (ties to the smallest id instead).

    Returns the tidy frame of :func:`helpers.measures.diversity.evaluate` with a second value
    column ``value_reversed``.
    """
    base = diversity.evaluate(dqrels, intents, runs, measures, **evaluate_kw)
    rq, rr = reversed_id_order(dqrels, runs)
    rev = diversity.evaluate(rq, intents, rr, measures, **evaluate_kw)
    return base.assign(value_reversed=rev["value"].to_numpy())


# notebook 05's studies live in helpers.replicates.preference; their old names stay importable here
from .preference import above_own_chance, dsharp_irec_disagreement, preference_recovery  # noqa: E402, F401
