"""Study functions for replicated simulation studies (:func:`helpers.sweep.run_replicates`).

Each notebook's headline analysis on simulated data, as one function of ``rng`` plus keyword
parameters that returns a tidy frame. The notebooks show the paper's single-draw layout (R = 1)
and then run the same study over R independent replicates to report means, intervals and the share
of replicates in which a finding holds. What a replicate redraws is the simulation's randomness and
nothing else:

* notebook 02 (:func:`unanimity_variant`): the simulated ratings of one (Dmax, N) cell and the HSD
  permutations, on the fixed collection -- Sakai simulated ratings on fixed NTCIR data, so the
  collection plays the role of that data;
* notebook 03 (:func:`prm_robustness`): the simulated double-judged collection and its runs;
* notebook 04 (:func:`diversity_power`): the simulated INTENT-like collection and the HSD
  permutations;
* notebook 05 (:func:`preference_mar`): the collection, the sampled SERP pairs and the simulated
  assessors.

All randomness comes from ``rng``; every study is deterministic given it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from helpers import diversity, preference, prm, stats, unanimity

__all__ = ["unanimity_variant", "prm_robustness", "diversity_power", "preference_mar", "mixture_sensitivity",
           "significant_pair_cover", "power_interval"]


def unanimity_variant(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, d_max: int, n: int,
                      p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float) -> pd.DataFrame:
    """One (Dmax, N) cell of notebook 02: simulated ratings, RawG vs UG.

    Returns one row per measure: ``measure, tau, low, high, discrepancies, significant_RawG,
    significant_UG`` (:func:`helpers.unanimity.compare_gains` on ratings from
    :func:`helpers.simulate.ratings.simulate_ratings`).
    """
    from helpers.simulate.ratings import simulate_ratings

    sim = simulate_ratings(qrels, int(n), int(d_max), rng)
    res = unanimity.compare_gains(qrels, run, sim, int(d_max), p, list(measures), hsd_runs, B, alpha, rng)
    sig = res["significant"].set_index("measure")
    disc = res["discrepancies"]["measure"].value_counts()
    rows = []
    for t in res["tau"].itertuples():
        rows.append({"measure": t.measure, "tau": float(t.tau), "low": float(t.low), "high": float(t.high),
                     "discrepancies": int(disc.get(t.measure, 0)),
                     "significant_RawG": int(sig.loc[t.measure, "RawG"]),
                     "significant_UG": int(sig.loc[t.measure, "UG"])})
    return pd.DataFrame(rows)


def prm_robustness(rng: np.random.Generator, *, n_topics: int, n_docs: int, n_runs: int, k: int, k_table7: int,
                   method: str, tau_level: float = 0.95) -> pd.DataFrame:
    """Notebook 03's Tables 6 and 7 on a fresh simulated double-judged collection.

    Returns rows ``table, comparison, tau``: Table 6 (``tau`` between the U1- and U2-based run
    orderings by MSnDCG@k for binary and PRM gains at theta = T and 1, and linear gains) and Table 7
    (PRM vs binary, linear and exponential gains on U1, MSnDCG@k_table7), plus the estimated
    ``p(R|T)`` at theta = T (``table = "estimate"``).
    """
    from helpers.simulate import judgments

    sim = judgments.double_judgments(rng, n_topics=n_topics, n_docs=n_docs, n_runs=n_runs, depth=max(k, k_table7))
    q1, q2, runs = sim.qrels_u1, sim.qrels_u2, sim.runs
    T = len(judgments.LEVEL_NAMES) - 1
    pairs = prm.pairs_from_qrels(q1, q2)
    p_gain = {th: prm.estimate(pairs, threshold=th, method=method, T=T).set_index("level")["p"].fillna(0.0)
              for th in (T, 1)}
    rows = [{"table": "estimate", "comparison": f"p(R|{T}), theta={T}", "tau": float(p_gain[T][T])}]
    common = pairs[["query_id", "doc_id"]]
    qa = common.merge(q1, on=["query_id", "doc_id"])[["query_id", "doc_id", "relevance"]]
    qb = common.merge(q2, on=["query_id", "doc_id"])[["query_id", "doc_id", "relevance"]]
    runs_common = runs[runs["query_id"].isin(common["query_id"].unique())]
    linear = {i: float(i) for i in range(T + 1)}
    exponential = {i: float(2 ** i - 1) for i in range(T + 1)}
    schemes = {}
    for th in (T, 1):
        schemes[f"binary, theta={th}"] = prm.binary_gains(th, T)
        schemes[f"PRM, theta={th}"] = prm.prm_gains(p_gain[th])
    schemes["linear"] = linear
    for name, g in schemes.items():
        a = prm.mean_scores(qa, runs_common, g, f"MSnDCG@{k}")
        b = prm.mean_scores(qb, runs_common, g, f"MSnDCG@{k}")
        rows.append({"table": "6", "comparison": name,
                     "tau": float(stats.kendall_tau_ci(a, b.reindex(a.index), level=tau_level).tau)})
    for th in (T, 1):
        prm_mean = prm.mean_scores(q1, runs, prm.prm_gains(p_gain[th]), f"MSnDCG@{k_table7}")
        for other, g in [("binary", prm.binary_gains(th, T)), ("linear", linear), ("exponential", exponential)]:
            o = prm.mean_scores(q1, runs, g, f"MSnDCG@{k_table7}")
            rows.append({"table": "7", "comparison": f"theta={th}, PRM vs {other}",
                         "tau": float(stats.kendall_tau_ci(prm_mean, o.reindex(prm_mean.index), level=tau_level).tau)})
    return pd.DataFrame(rows)


def diversity_power(rng: np.random.Generator, *, n_topics: int, n_runs: int, depth: int, measures: Sequence[str],
                    B: int, significance: float, tau_pairs: Sequence[tuple[str, str]],
                    normaliser: str | None = "ideal") -> pd.DataFrame:
    """Notebook 04 on a fresh simulated INTENT-like collection.

    Returns rows ``quantity, measure, value``: discriminative power (share of run pairs
    significant under the randomised Tukey HSD at ``significance``) of every measure, and Kendall's
    tau between the run rankings of the measure pairs ``tau_pairs`` (``measure`` = ``"a | b"``).
    ``normaliser`` is :func:`helpers.diversity.evaluate`'s (``"ideal"``: NTCIREVAL gcompute).
    """
    from helpers.simulate.intents import intent_collection

    coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs, depth=depth)
    results = diversity.evaluate(coll.dqrels, coll.intents, coll.runs, list(measures),
                                 normaliser=normaliser).dropna(subset=["value"])
    means = results.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")
    rows = []
    for m in measures:
        mat = results[results["measure"] == m].pivot(index="query_id", columns="run_id", values="value").dropna()
        hsd = stats.randomised_tukey_hsd(mat, B=B, rng=rng)
        rows.append({"quantity": "discriminative power", "measure": m,
                     "value": float((hsd["p_value"].to_numpy() < significance).mean())})
    for a, b in tau_pairs:
        rows.append({"quantity": "tau", "measure": f"{a} | {b}",
                     "value": float(stats.kendall_tau_ci(means[a], means[b]).tau)})
    return pd.DataFrame(rows)


def preference_mar(rng: np.random.Generator, *, n_topics: int, n_runs: int, n_pairs: int, n_assessors: int,
                   cutoff: int, min_difference: float, alpha_target: tuple[float, float], p_equal: float,
                   measures: Mapping[str, str], tie_tolerance: float, normaliser: str | None = "fixed",
                   user_models: str = "position:0.4,coverage:0.3,first-hit:0.3") -> pd.DataFrame:
    """Notebook 05 on a fresh collection, pair sample and set of simulated assessors.

    Returns rows ``question, measure, mar`` for every measure (display names, the keys of
    ``measures``) and the best, median and worst assessor (leave-one-out MAR), for the relevance
    and diversity questions.
    """
    from helpers.simulate import intent_collection, preference_judgments

    coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs)
    summaries = preference.serp_summaries(coll.dqrels, coll.intents, coll.runs, cutoff)
    pairs = preference.sample_pairs(summaries, rng, min_difference=min_difference, target=n_pairs)
    judged = preference_judgments(rng, coll, pairs, n_assessors=n_assessors, cutoff=cutoff,
                                  alpha_target=tuple(alpha_target), p_equal=p_equal, user_models=user_models)
    scores = diversity.evaluate(coll.dqrels, coll.intents, coll.runs, list(measures.values()), normaliser=normaliser)
    scores["measure"] = scores["measure"].map({v: k for k, v in measures.items()})
    left, right = preference.pair_scores(scores, pairs)
    prefs = preference.measure_preferences(left, right, tie_tolerance=tie_tolerance)
    rows = []
    for question, labels in (("relevance", judged.relevance), ("diversity", judged.diversity)):
        mar = preference.mean_agreement_rate(preference.agreement_rates(prefs.loc[labels.index], labels))
        rows += [{"question": question, "measure": m, "mar": float(v)} for m, v in mar.items()]
        ma = preference.mean_agreement_rate(preference.assessor_agreement_rates(labels, reference=labels))
        for role, name in preference.assessor_groups(ma).items():
            rows.append({"question": question, "measure": f"{role} assessor", "mar": float(ma[name])})
    return pd.DataFrame(rows)


def mixture_sensitivity(rng: np.random.Generator, *, collection, pairs: pd.DataFrame, measure_prefs: pd.DataFrame,
                        mixtures: Sequence[str], n_assessors: int, cutoff: int,
                        alpha_target: tuple[float, float] | None, p_equal: float) -> pd.DataFrame:
    """Notebook 05's MAR under several assessor mixtures, on one collection and pair sample.

    For each mixture of user models (:func:`helpers.simulate.preferences.preference_judgments`'s
    ``user_models``) a fresh set of assessors is simulated with a generator spawned from ``rng``
    (one per mixture, in order) and calibrated to the same alphas (``alpha_target = None``: the
    default noise, no calibration); the measures' preferences are
    fixed. Returns rows ``mixture, question, measure, mar`` for every measure and the best, median
    and worst assessor (leave-one-out, chosen in sample).
    """
    from helpers.simulate import preference_judgments

    rows = []
    for mix, child in zip(mixtures, rng.spawn(len(mixtures))):
        judged = preference_judgments(child, collection, pairs, n_assessors=n_assessors, cutoff=cutoff,
                                      alpha_target=None if alpha_target is None else tuple(alpha_target),
                                      p_equal=p_equal, user_models=mix)
        for question, labels in (("relevance", judged.relevance), ("diversity", judged.diversity)):
            mar = preference.mean_agreement_rate(preference.agreement_rates(measure_prefs.loc[labels.index], labels))
            rows += [{"mixture": mix, "question": question, "measure": m, "mar": float(v)} for m, v in mar.items()]
            ma = preference.mean_agreement_rate(preference.assessor_agreement_rates(labels, reference=labels))
            for role, name in preference.assessor_groups(ma).items():
                rows.append({"mixture": mix, "question": question, "measure": f"{role} assessor", "mar": float(ma[name])})
    return pd.DataFrame(rows)


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

    A p-value estimated from ``B`` random trials has standard error about
    ``sqrt(a (1 - a) / B)`` near the threshold ``a = significance``; pairs whose p-value lies
    within ``z`` such errors of ``a`` could fall on either side in another run of the test.
    Returns (share of pairs surely significant, share possibly significant).
    """
    p = np.asarray(p_values, dtype=float)
    half = z * np.sqrt(significance * (1 - significance) / B)
    sure = (p < significance - half).mean()
    maybe = (p < significance + half).mean()
    return float(sure), float(maybe)
