"""Notebook 04's replicated studies and analyses: diversity measures on simulated and real runs.

* :func:`diversity_recovery` -- one replicate of the planted-truth experiment (section 7): a fresh
  simulated INTENT-like collection (:func:`helpers.simulate.intents.intent_collection`), every
  measure's run means, and what each planted user model (:mod:`helpers.simulate.users`) makes of
  the same runs; :func:`planted_truth` and :func:`recovery` pool and score the replicates;
  :func:`planted_analysis` runs the whole section's checks (which truths the runs can tell apart,
  leaders, the family checks of :mod:`helpers.replicates.planted`, the null check) for the
  notebook and its findings (:mod:`helpers.findings.diversity`).
* :func:`significant_pair_cover`, :func:`power_interval` -- what discriminative power rests on
  (section 6); :func:`tie_order_effect` -- ndeval's greedy ideal and its tie rule (section 3).

These functions moved here from :mod:`helpers.replicates.studies`, which still exports them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..measures import diversity

__all__ = ["MIN_LEAD_PAIRS", "pairs_apart", "discriminative_power", "correlation_without", "diversity_recovery", "planted_truth", "order_agreement", "recovery", "significant_pair_cover",
           "power_interval", "near_level", "NEAR_SE", "reversed_id_order", "tie_order_effect", "relevant_rows", "TELL_APART",
           "truth_order_tau", "told_apart", "planted_analysis", "significant_vs_truth", "load_collection",
           "drop_empty_intents", "outside_exclusions"]


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


def power_interval(p_values: np.ndarray, significance: float, B: int, z: float = 1.96,
                   level: float | None = None) -> tuple[float, float]:
    """Monte Carlo interval of discriminative power from the randomised test's own error.

    Each p-value is read back as its count of ``B`` trials (``p = (count + 1) / (B + 1)``, the
    Phipson-Smyth p-value of :func:`helpers.stats.randomised_tukey_hsd`), and the exact
    (Clopper-Pearson) interval of the true p at the two-sided ``level`` (default: the level that
    ``z`` stands for, 1.96: 95%; notebook 04 passes ``1 - significance``) says whether another run of the B trials could put it on the other side of
    ``significance``. Returns (share of pairs surely significant: upper bound below the level,
    share possibly significant: lower bound below it). An exact interval, not the normal one: with
    few trials and a small level (B = 500, 0.01) the normal half-width exceeds the smallest p-value
    the test can give, and nothing would count as surely significant.
    """
    from scipy.stats import beta, norm

    p = np.asarray(p_values, dtype=float)
    B = int(B)
    tail = (1 - float(level)) / 2 if level is not None else float(norm.sf(z))   # 0.025 for z = 1.96
    c = np.clip(np.rint(p * (B + 1)) - 1, 0, B)
    with np.errstate(invalid="ignore"):
        low = np.where(c > 0, beta.ppf(tail, c, B - c + 1), 0.0)
        high = np.where(c < B, beta.ppf(1 - tail, c + 1, B - c), 1.0)
    return float((high < significance).mean()), float((low < significance).mean())


#: The fewest run pairs by which a measure must find more significant pairs than another, beyond Monte
#: Carlo error, for a power verdict "holds" (notebook 04, :func:`helpers.findings.diversity.power_verdict`)
#: and for a change in power to exceed Monte Carlo error: a difference of one pair is the granularity of
#: the share (one pair more or less on these topics), not a difference in discriminative power.
MIN_LEAD_PAIRS = 2


def pairs_apart(a, b, n_pairs: int) -> int:
    """How many run pairs lie between two Monte Carlo intervals of power (``(low, high)`` shares of
    ``n_pairs``), whichever is higher; 0 or less when they meet or overlap. A change of power counts as
    beyond Monte Carlo error at :data:`MIN_LEAD_PAIRS` or more."""
    return int(round(max(float(a[0]) - float(b[1]), float(b[0]) - float(a[1])) * int(n_pairs)))


#: How many Monte Carlo standard errors of a p-value at the level, ``sqrt(a (1 - a) / B)``, count as
#: "near the level" (:func:`near_level`): at 3, another draw of the B trials rarely moves a p-value
#: from outside the band across the level.
NEAR_SE = 3.0


def near_level(p_values: np.ndarray, significance: float, B: int, k: float = NEAR_SE) -> int:
    """How many p-values lie within ``k`` Monte Carlo standard errors of ``significance`` at ``B``
    trials (the binomial SE of a p-value equal to the level, ``sqrt(a (1 - a) / B)``): the p-values
    another draw of the B trials could put on the other side of the level. A label "no p-value near
    the level" is honest for the run's B only when this is 0."""
    a = float(significance)
    se = np.sqrt(a * (1 - a) / int(B))
    return int((np.abs(np.asarray(p_values, dtype=float) - a) <= k * se).sum())


def discriminative_power(results: pd.DataFrame, measures: Sequence[str], *, B: int, rng: np.random.Generator,
                         significance: float, level: float = 0.95) -> dict:
    """Notebook 04's section 6: one randomised Tukey HSD per measure (topics as blocks; measures with
    the same topics share the permutations, :func:`helpers.stats.randomised_tukey_hsd_each`), the
    discriminative power (share of run pairs with p < ``significance``), its Monte Carlo interval at
    ``level`` (:func:`power_interval`; 95% whatever ``significance`` is) and which runs the leading
    measure's significant pairs involve (:func:`significant_pair_cover`).

    ``results``: ``run_id, query_id, measure, value`` without NaN. Returns ``{"hsd_by", "asl" (sorted
    p-values per measure), "n_pairs", "power" (descending, stable), "mc", "near" (:func:`near_level`),
    "cover"}``.
    """
    from .. import stats

    mats = {m: results[results["measure"] == m].pivot(index="query_id", columns="run_id", values="value").dropna()
            for m in measures}
    hsd_by = stats.randomised_tukey_hsd_each(mats, B=B, rng=rng)
    asl = {m: np.sort(hsd_by[m]["p_value"].to_numpy()) for m in measures}
    power = pd.Series({m: float((p < significance).mean()) for m, p in asl.items()}).sort_values(
        ascending=False, kind="stable")
    return {"hsd_by": hsd_by, "asl": asl, "n_pairs": len(next(iter(asl.values()))), "power": power,
            "mc": {m: power_interval(asl[m], significance, B, level=level) for m in power.index},
            "near": {m: near_level(asl[m], significance, B) for m in power.index},
            "cover": significant_pair_cover(hsd_by[power.index[0]], significance)}


def correlation_without(means: pd.DataFrame, cover: Mapping, x: str, y: str) -> dict | None:
    """Pearson's r of the run means of ``x`` and ``y`` without the runs of ``cover``
    (:func:`significant_pair_cover`) when every significant pair sets exactly those runs against the
    rest: ``{"r", "runs", "without"}``, or None (no such cover, fewer than 4 runs left, or a constant
    side). No interval: the runs left out were chosen from the tests on these same data, so an
    interval computed afterwards would not have its nominal coverage (a post-hoc value)."""
    if not (cover.get("exactly_cover_vs_rest") and cover.get("cover")):
        return None
    rest = [r for r in means.index if r not in cover["cover"]]
    xr, yr = means.loc[rest, x], means.loc[rest, y]
    if len(rest) <= 3 or np.ptp(xr) == 0 or np.ptp(yr) == 0:
        return None
    return {"r": float(np.corrcoef(xr, yr)[0, 1]), "runs": len(rest), "without": list(cover["cover"])}


def relevant_rows(dqrels: pd.DataFrame) -> pd.DataFrame:
    """The relevant rows of intentwise qrels: a judged L0 row changes no diversity measure (every
    one treats judged non-relevant and unjudged documents alike; the same values, tested), and the
    simulated collections hold ten times more L0 rows than relevant ones."""
    return dqrels[dqrels["relevance"] > 0]


def diversity_recovery(rng: np.random.Generator, *, n_topics: int, n_runs: int, depth: int, measures: Sequence[str],
                       normaliser: str | None = "ideal", models: Sequence[str] | None = None,
                       mixture: str | None = None, runs: str = "skill") -> pd.DataFrame:
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
    runs : {"skill", "styles"}
        How the simulated runs differ (:data:`helpers.simulate.intents.RUN_DESIGNS`): ``"styles"``
        gives runs that the planted users order differently.

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
    coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs, depth=depth, keep=min(l, depth), runs=runs)
    res = diversity.evaluate(relevant_rows(coll.dqrels), coll.intents, coll.runs, measures, normaliser=normaliser)
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



# --------------------------------------------------------------------------------------------
# Notebook 04's inputs (section 2)
# --------------------------------------------------------------------------------------------

def load_collection(data: str, rng: np.random.Generator | None = None, *, n_topics: int = 100, n_runs: int = 15,
                    depth: int = 100, run_design: str = "skill", diversity_qrels_path: str = "",
                    intents_path: str = "", intent_types_path: str = "", runs_glob: str = "") -> dict:
    """The collection notebook 04 evaluates: ``dqrels, intents, runs`` and ``run_info`` (the simulated
    runs' parameters, else None), with the intents that have no relevant document dropped
    (:func:`drop_empty_intents`; ``dropped`` lists them).

    ``data``: ``"simulated"`` (:func:`helpers.simulate.intents.intent_collection` with ``rng``,
    ``n_topics``, ``n_runs``, ``depth`` and ``runs=run_design``), ``"trec-web-2012"`` (the TREC Web
    2012 diversity qrels, uniform intents typed by the topic XML, and the 8 Indri baseline runs,
    :mod:`helpers.data.datasets`) or ``"files"`` (the paths; topics checked against each other).
    """
    run_info = None
    if data == "simulated":
        from ..simulate.intents import intent_collection

        coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs, depth=depth, runs=run_design)
        dqrels, intents, runs = coll.dqrels, coll.intents, coll.runs
        run_info = coll.run_params.set_index("run_id")
    elif data == "files":
        from ..io import readers

        dqrels = readers.read_diversity_qrels(diversity_qrels_path)
        read = readers.read_intents(intents_path) if intents_path else diversity.uniform_intents(dqrels)
        intents = readers.with_intent_types(read, readers.read_intent_types(intent_types_path) if intent_types_path
                                            else None)
        runs = readers.read_runs(runs_glob, what="runs_glob")
        readers.check_topics(dqrels, "diversity_qrels_path", runs, "runs_glob")
        readers.check_topics(dqrels, "diversity_qrels_path", intents, "intents_path" if intents_path else
                             "(uniform intents)")
    elif data == "trec-web-2012":
        from ..data import datasets

        dqrels, intents = datasets.load_diversity_qrels(data), datasets.load_intents(data)
        runs = datasets.load_runs(data)
    else:
        raise ValueError(f"data must be 'simulated', 'trec-web-2012' or 'files', got {data!r}")
    dqrels, intents, dropped = drop_empty_intents(dqrels, intents)
    return {"dqrels": dqrels, "intents": intents, "runs": runs, "run_info": run_info, "dropped": dropped}


def drop_empty_intents(dqrels: pd.DataFrame, intents: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Drop the intents of judged topics that have no relevant document and renormalise the topic's
    probabilities over the rest: ``(dqrels, intents, dropped)``.

    ndeval's qrels only know subtopics with judged documents, and :mod:`helpers.measures.diversity`
    ignores such intents for I-rec, IA and ndeval measures anyway; but a D-measure's global gain
    would lose their probability mass (Sakai's survey, Eq. 7), so they are dropped first.
    """
    has_rel = dqrels[dqrels["relevance"] > 0][["query_id", "intent_id"]].drop_duplicates()
    known = intents.merge(has_rel, on=["query_id", "intent_id"], how="left", indicator=True)
    dropped = known[(known["_merge"] == "left_only") & known["query_id"].isin(dqrels["query_id"])]
    dropped = dropped.drop(columns="_merge").reset_index(drop=True)
    if len(dropped):
        intents = known[known["_merge"] == "both"].drop(columns="_merge").reset_index(drop=True)
        intents["prob"] = intents["prob"] / intents.groupby("query_id")["prob"].transform("sum")
        dqrels = dqrels.merge(has_rel, on=["query_id", "intent_id"])
    return dqrels, intents, dropped


# --------------------------------------------------------------------------------------------
# Section 7 as one analysis: which truths the runs tell apart, leaders, family checks, the null
# --------------------------------------------------------------------------------------------

#: The runs tell two planted users apart when Kendall's tau between their run orders is below this
#: (at or above it the two orders differ in a few run pairs only, and so would their families').
TELL_APART = 0.8


def truth_order_tau(truth: Mapping) -> pd.DataFrame:
    """Kendall's tau-b between the run orders of every two planted truths of :func:`planted_truth`
    (a square table, models in its order)."""
    means = pd.DataFrame({m: t["mean"] for m, t in truth.items()}, index=truth[next(iter(truth))]["runs"])
    return means.corr(method="kendall")


def told_apart(tau: pd.DataFrame, models: Sequence[str], threshold: float = TELL_APART) -> pd.DataFrame:
    """Every pair of ``models`` (in order) with its tau and whether the runs tell the two users
    apart (``tau < threshold``): columns ``a, b, tau, told_apart``."""
    rows = [{"a": a, "b": b, "tau": float(tau.loc[a, b]), "told_apart": bool(tau.loc[a, b] < threshold)}
            for i, a in enumerate(models) for b in models[i + 1:]]
    return pd.DataFrame(rows, columns=["a", "b", "tau", "told_apart"])


def planted_analysis(rep: pd.DataFrame, *, threshold: float = TELL_APART, z: float = 2.0,
                     alpha: float = 0.05, twins: Sequence[Sequence[str]] = ()) -> dict:
    """Notebook 04's section 7 on the replicates of :func:`diversity_recovery`.

    ``alpha`` is the run's significance level: every interval is a ``1 - alpha`` interval and every
    verdict a test at ``alpha``, Holm-corrected over all the checks read.

    * ``truth`` (:func:`planted_truth`), ``truth_tau`` (:func:`truth_order_tau`), ``pairs``
      (:func:`told_apart` over the models aligned with a family) and ``coinciding`` (tau = 1);
    * ``twins``: the groups of ``twins`` (one measure under several names, e.g.
      :func:`helpers.measures.results.affine_measures` of the single draw) whose recovery is the same
      in every replicate and model; each counts once, under its first name, in everything below;
    * ``recovery`` (:func:`recovery`), ``summary`` (mean and ``1 - alpha`` interval per model and
      measure, :func:`helpers.replicates.runner.summarise`), ``wide`` (replicates x (model, measure));
    * ``leaders``: empty here; :func:`helpers.findings.diversity.with_leaders` names them (the
      wording rules live above this layer) and the chance level of the leader-set check;
    * ``checks``: per aligned model the family check (:func:`helpers.replicates.planted.family_check`)
      against the measures outside the family, *leaving out* every measure of the families of the
      models whose truth the runs do not tell apart from this one (``not_told_apart``, ``left_out``),
      the model's own members included: a measure of both families cannot say which of two users
      who order the runs alike it follows. A family whose best measure (picked on half of the
      replicates) is a member of two families (RBU, iRBU: :func:`helpers.simulate.users.shared_members`)
      is checked again without those members (``without_shared``). ``p_holm``: Holm's correction over every check read (each model's and
      each ``without_shared``; ``holm_family`` counts them) and ``verdict`` the one verdict it gives:
      ``recovered`` (the family ahead, ``p_holm < alpha``), ``outside ahead``, ``not shown`` or
      ``not testable``, or ``too few`` (no verdict) when the run has fewer replicates than the
      verdict rule needs at its level (:func:`helpers.replicates.planted.verdict_replicates`: 40, or
      the interval rule's :func:`helpers.stats.summary.min_draws` when larger; ``min_replicates``;
      ``enough`` says whether it has them);
    * ``null``: :func:`helpers.replicates.planted.departures` of every measure's mean recovery of the
      random order from one half, Holm over the distinct measures (``None`` without a null model).
    """
    from ..simulate import users
    from . import planted, runner

    rec, truth = recovery(rep, z), planted_truth(rep, z)
    rec, twins = _count_twins_once(rec, twins)
    tau = truth_order_tau(truth)
    summary = runner.summarise(rec, "recovery", by=["model", "measure"], level=1 - alpha)
    # every (model, measure) keeps its column, all-NaN when no pair was resolved (tiny collections)
    wide = rec.pivot_table(index="replicate", columns=["model", "measure"], values="recovery", dropna=False)
    models = list(dict.fromkeys(rec["model"]))
    aligned = [m for m in truth if users.BY_DEFINITION.get(m, ("", ()))[1]]
    pairs = told_apart(tau, aligned, threshold)
    close = {m: [b if a == m else a for a, b, _, apart in pairs.itertuples(index=False) if m in (a, b) and not apart]
             for m in aligned}
    checks = {}
    for m in models:
        means_m = summary[summary.model == m].set_index("measure")["mean"].to_dict()
        if any(users.aligned_family(m, x, families=users.BY_DEFINITION) for x in means_m):
            checks[m] = _family_check(m, wide[m], means_m, close.get(m, []), 1 - alpha)
    n_rep, needs = int(rec["replicate"].nunique()), planted.verdict_replicates(1 - alpha)
    family = _holm_verdicts(checks, alpha, enough=n_rep >= needs)
    return {"truth": truth, "truth_tau": tau, "pairs": pairs, "coinciding": planted.coinciding(tau),
            "recovery": rec, "summary": summary, "wide": wide, "models": models, "leaders": {},
            "checks": checks, "null": _null_check(summary, wide, alpha, enough=n_rep >= needs) if "null" in models
            else None, "threshold": threshold, "replicates": n_rep, "alpha": alpha,
            "holm_family": family, "twins": twins, "min_replicates": needs, "enough": n_rep >= needs, "z": z}


def _count_twins_once(rec: pd.DataFrame, twins: Sequence[Sequence[str]]) -> tuple[pd.DataFrame, list[list[str]]]:
    """``rec`` without the second and later names of each group of ``twins`` whose recovery is the
    same in every replicate and model, and those groups (first name first)."""
    kept = []
    for g in twins:
        g = [x for x in g if x in set(rec["measure"])]
        if len(g) < 2:
            continue
        cols = [rec.loc[rec["measure"] == x, "recovery"].to_numpy(float) for x in g]
        if all(np.array_equal(cols[0], c, equal_nan=True) for c in cols[1:]):
            kept.append(list(g))
    drop = {x for g in kept for x in g[1:]}
    return rec[~rec["measure"].isin(drop)].reset_index(drop=True), kept


def _holm_verdicts(checks: Mapping[str, dict], alpha: float, enough: bool = True) -> int:
    """Holm over every check read (each model's and each ``without_shared``); sets ``p_holm`` and the
    one ``verdict`` of each (the uncorrected call is not kept). A check of a truth the runs do not tell
    apart from another (``not_told_apart``) is not tested: its verdict is ``"truths coincide"`` (no
    measure can recover one of two run orders that agree and not the other), outside the Holm family. With too few replicates for the
    verdict rule (``enough`` False: fewer than :func:`helpers.replicates.planted.verdict_replicates` at the run's
    level) every tested check's verdict is ``"too few"``: no verdict. Returns the number of checks
    corrected."""
    from ..stats.paired import holm

    for c in checks.values():   # truths the runs do not tell apart: no measure can separate them, nothing to test
        if c.get("not_told_apart") and c["verdict"] != "not testable":
            c["verdict"] = "truths coincide"
            c.pop("without_shared", None)
    tested = [ck for c in checks.values() for ck in (c, c.get("without_shared"))
              if ck and ck["verdict"] not in ("not testable", "truths coincide")]
    adjusted = holm([ck["p"] for ck in tested]) if tested else []
    for ck, p in zip(tested, adjusted):
        ck["p_holm"] = float(p)
        ck["verdict"] = ("too few" if not enough else "not shown" if not p < alpha else
                         "recovered" if ck["diff"] > 0 else "outside ahead")
    for c in checks.values():
        for ck in (c, c.get("without_shared")):
            if ck:
                ck.setdefault("p_holm", float("nan"))
    return len(tested)


def _families():
    """The family definitions of notebook 04 (:data:`helpers.simulate.users.BY_DEFINITION`)."""
    from ..simulate import users

    return users.BY_DEFINITION


def outside_exclusions(model: str, w: pd.DataFrame, family: Sequence[str], candidates: Sequence[str],
                       families=None) -> tuple[list[str], list[str]]:
    """The measures a family check leaves out of its "best outside" comparison although they are not
    in ``model``'s family: ``partial`` (half a member, :func:`helpers.simulate.users.partial_members`)
    and ``coincide`` (recovery equal to a member's in every replicate, at 12 digits: on this
    collection the same measure, e.g. P+Q and IA-Q when no intent is navigational)."""
    from ..simulate import users

    families = _families() if families is None else families
    outside = [x for x in candidates if x not in set(family)]
    partial = users.partial_members(model, outside, families=families)
    cols = {x: np.round(w[x].to_numpy(float), 12) for x in list(family) + outside if x in w.columns}
    coincide = [x for x in outside if x not in partial and x in cols and any(
        np.array_equal(cols[x], cols[f], equal_nan=True) for f in family if f in cols)]
    return partial, coincide


def _family_check(model: str, w: pd.DataFrame, means_m: Mapping, close: Sequence[str], level: float) -> dict:
    """One model's family check of :func:`planted_analysis`, without every measure of the families of
    ``close`` (its own members among them) and without the measures that are half a member or
    coincide with one (:func:`outside_exclusions`), at ``level``; families by
    :data:`helpers.simulate.users.BY_DEFINITION`."""
    from ..simulate import users
    from . import planted

    fams = _families()
    left_out = [x for x in means_m if any(users.aligned_family(o, x, families=fams) for o in close)]
    keep = {k: v for k, v in means_m.items() if k not in left_out}
    family = [x for x in keep if users.aligned_family(model, x, families=fams)]
    partial, coincide = outside_exclusions(model, w, family, list(keep), fams)
    keep = {k: v for k, v in keep.items() if k not in partial + coincide}
    drop = left_out + partial + coincide
    ck = planted.family_check(w.drop(columns=drop), family, means=keep, level=level)
    ck.update(not_told_apart=list(close), left_out=left_out, partial=partial, coincide=coincide, level=level)
    shared = users.shared_members(model, family, families=fams)
    own = [x for x in family if x not in shared]
    # checked again only when the pair tested (picked on the other half) rests on a shared member:
    # otherwise the same pair would be tested twice
    if ck["verdict"] != "not testable" and own and ck["best_in"] in shared:
        rest = {k: v for k, v in keep.items() if k not in shared}
        ck_own = planted.family_check(w.drop(columns=drop + shared), own, means=rest, level=level)
        ck["without_shared"] = {"shared": shared, "level": level,
                                **{k: ck_own.get(k, float("nan")) for k in ("verdict", "diff", "low", "high", "p", "picks",
                                                                            "replicates", "selection", "measures",
                                                                            "family_size")}}
    return ck


def _null_check(summary: pd.DataFrame, wide: pd.DataFrame, alpha: float = 0.05, enough: bool = True) -> dict:
    """Does any measure recover the random planted order? Every measure's mean recovery against one
    half, Holm over the distinct measures at ``alpha`` (:func:`helpers.replicates.planted.departures`),
    and the uncorrected count of ``1 - alpha`` CIs of the mean that exclude one half (about one in
    ``1 / alpha`` by chance). With too few replicates (``enough`` False) nothing is tested:
    ``tested`` False, ``departs`` empty, ``uncorrected`` None."""
    from . import planted

    nulls = summary[summary.model == "null"]
    w = wide["null"][list(nulls["measure"])]
    dep = planted.departures(w.mean(), w.std(ddof=1), w.count(), null=0.5, alpha=alpha)
    dep.index = list(nulls["measure"])
    ci = {x: planted.mean_interval(w[x].dropna().to_numpy(float), 1 - alpha)[:2] for x in nulls["measure"]}
    return {"lowest": float(nulls["mean"].min()), "highest": float(nulls["mean"].max()),
            "family": int(dep["family"].iloc[0]), "departs": list(dep.index[dep["departs"]]) if enough else [],
            "uncorrected": int(sum(lo > 0.5 or hi < 0.5 for lo, hi in ci.values())) if enough else None,
            "measures": len(nulls), "level": 1 - alpha, "tested": bool(enough)}


def significant_vs_truth(hsd_by: Mapping[str, pd.DataFrame], truth: Mapping, significance: float) -> pd.DataFrame:
    """The significant run pairs of each measure's randomised Tukey HSD (notebook 04, section 6)
    against each planted truth (:func:`planted_truth`): ``measure, model, significant, in planted order,
    against it, unresolved`` (a pair the truth does not resolve is neither for nor against it)."""
    rows = []
    for m, h in hsd_by.items():
        sig = h[h["p_value"] < significance]
        for model, t in truth.items():
            pos = {r: k for k, r in enumerate(t["runs"])}
            a = sig["system_a"].map(pos).to_numpy(dtype=np.int64)
            b = sig["system_b"].map(pos).to_numpy(dtype=np.int64)
            res = t["resolved"][a, b]
            same = np.sign(sig["diff"].to_numpy()) == np.sign(t["mean"][a] - t["mean"][b])
            rows.append({"measure": m, "model": model, "significant": len(sig), "in planted order": int((res & same).sum()),
                         "against it": int((res & ~same).sum()), "unresolved": int((~res).sum())})
    return pd.DataFrame(rows, columns=["measure", "model", "significant", "in planted order", "against it", "unresolved"])
