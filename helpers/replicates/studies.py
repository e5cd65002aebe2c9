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

from helpers import preference, prm, stats, unanimity
from helpers.measures import diversity

__all__ = ["unanimity_variant", "unanimity_grid", "unanimity_real_contrast", "uniform_contrast", "prm_robustness", "prm_u2_draw", "diversity_power",
           "preference_mar", "mixture_sensitivity", "significant_pair_cover", "power_interval"]


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
    from helpers.simulate.ratings import simulate_ratings

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
    from helpers.simulate.ratings import simulate_ratings

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
    from helpers import gains
    from helpers.simulate.ratings import uniform_ratings_given_sum

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
    from helpers import gains
    from helpers.simulate.ratings import uniform_ratings, uniform_ratings_given_sum, uniform_ratings_like

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


def prm_robustness(rng: np.random.Generator, *, n_topics: int, n_docs: int, n_runs: int, k: int, k_table7: int,
                   method: str, tau_level: float = 0.95, thresholds: Sequence[int] | None = None) -> pd.DataFrame:
    """Notebook 03's Tables 6 and 7 on a fresh simulated double-judged collection.

    Returns rows ``table, comparison, tau``: Table 6 (``tau`` between the U1- and U2-based run
    orderings by MSnDCG@k for binary and PRM gains at every threshold of ``thresholds`` -- levels
    in 1..T, default ``(T, 1)`` -- and linear gains) and Table 7
    (PRM vs binary, linear and exponential gains on U1, MSnDCG@k_table7), both from
    :func:`helpers.prm.robustness_tables`, plus the estimated ``p(R|T)`` at theta = T
    (``table = "estimate"``).
    """
    from helpers.simulate import judgments

    sim = judgments.double_judgments(rng, n_topics=n_topics, n_docs=n_docs, n_runs=n_runs, depth=max(k, k_table7))
    T = len(judgments.LEVEL_NAMES) - 1
    pairs = prm.pairs_from_qrels(sim.qrels_u1, sim.qrels_u2)
    thresholds = list(dict.fromkeys(int(t) for t in (thresholds if thresholds is not None else (T, 1))))
    p_gain = {th: prm.estimate(pairs, threshold=th, method=method, T=T).set_index("level")["p"].fillna(0.0)
              for th in thresholds}
    t6, t7 = prm.robustness_tables(sim.qrels_u1, sim.qrels_u2, sim.runs, p_gain, thresholds, T, k=k, k_table7=k_table7,
                                   tau_level=tau_level)
    top = p_gain[T] if T in p_gain else prm.estimate(pairs, threshold=T, method=method, T=T).set_index("level")["p"]
    rows = [{"table": "estimate", "comparison": f"p(R|{T}), theta={T}", "tau": float(top[T])}]
    rows += [{"table": "6", "comparison": r.gains, "tau": float(r.tau)} for r in t6.itertuples()]
    rows += [{"table": "7", "comparison": f"theta={r.theta}, {r.comparison}", "tau": float(r.tau)}
             for r in t7.itertuples()]
    return pd.DataFrame(rows)


def prm_u2_draw(rng: np.random.Generator, *, qrels_u1: pd.DataFrame, ratings: pd.DataFrame, thresholds: Sequence[int],
                T: int, method: str, runs: pd.DataFrame | None = None, k: int = 10, k_table7: int = 20,
                tau_level: float = 0.95, names: Sequence[str] | None = None, B: int = 0, udm_reps: int = 0) -> pd.DataFrame:
    """Notebook 03 on real data: one draw of the second assessor U2 (one rating per item, drawn
    at random among its raters, :func:`helpers.prm.one_rating_per_item`), and every analysis that
    depends on it (Demeester et al. 2016).

    Returns rows ``quantity, theta, level, value``:

    * ``p``: the ``method`` estimate of p_{R|i} for every threshold and level;
    * with ``runs``: ``tau`` (Table 6 of :func:`helpers.prm.robustness_tables`, ``level`` = the gain
      scheme, ``theta`` -1 for linear gains), ``table7`` (``level`` = the comparison), and the Table 5
      summary of :func:`helpers.prm.table5` (``table5_tau``, ``table5_share_prm_more_precise``,
      ``table5_share_prm_smaller``; ``level`` empty);
    * with ``B`` > 0: ``boot_ratio`` (topic-bootstrap sd of p_{T|T} over its binomial sigma,
      :func:`helpers.prm.bootstrap_topics`, theta = T) and, with ``runs``, ``tau_diff_boot``: the ``B``
      paired topic-bootstrap values of tau_PRM - tau_binary of Table 6 per threshold
      (:func:`helpers.prm.robustness_difference`; ``level`` = the resample number);
    * with ``udm_reps`` > 0: ``udm`` (``level`` ``prm_ratio`` / ``udm_ratio``,
      :func:`helpers.simulate.judgments.udm_vs_prm`).

    The generator is used in that order: U2, the paired bootstraps (threshold by threshold), the
    topic bootstrap, the coin flips of the UDM analysis.
    """
    from helpers.simulate.judgments import udm_vs_prm

    q2 = prm.one_rating_per_item(ratings, rng)
    pairs = prm.pairs_from_qrels(qrels_u1, q2)
    rows, p_gain = [], {}
    for th in thresholds:
        est = prm.estimate(pairs, threshold=th, method=method, T=T).set_index("level")
        p_gain[th] = est["p"]
        rows += [{"quantity": "p", "theta": int(th), "level": str(int(i)), "value": float(v)} for i, v in est["p"].items()]
        if th == T:
            top_sigma = float(est["sigma"][T])
    if runs is not None:
        t6, t7 = prm.robustness_tables(qrels_u1, q2, runs, p_gain, thresholds, T, k=k, k_table7=k_table7,
                                       tau_level=tau_level, names=names)
        rows += [{"quantity": "tau", "theta": -1 if pd.isna(r.theta) else int(r.theta), "level": r.gains,
                  "value": float(r.tau)} for r in t6.itertuples()]
        lv = list(names) if names is not None else [str(i) for i in range(T + 1)]
        rows += [{"quantity": "table7", "theta": lv.index(r.theta), "level": r.comparison, "value": float(r.tau)}
                 for r in t7.itertuples()]
        _, t5 = prm.table5(runs, qrels_u1, k, p_gain, thresholds, T, tau_level=tau_level)
        rows += [{"quantity": f"table5_{c}", "theta": int(r["theta"]), "level": "", "value": float(r[c])}
                 for _, r in t5.iterrows() for c in ("tau", "share_prm_more_precise", "share_prm_smaller")]
        if B:
            for th in thresholds:
                d = prm.robustness_difference(qrels_u1, q2, runs, p_gain[th], th, T, k=k, B=B, rng=rng)
                rows += [{"quantity": "tau_diff_boot", "theta": int(th), "level": str(b), "value": float(v)}
                         for b, v in enumerate(d)]
    if B and T in thresholds:
        boot = prm.bootstrap_topics(pairs, T, B=B, rng=rng, method=method, T=T)
        sd = float(boot.loc[boot["level"] == T, "p"].std())
        rows.append({"quantity": "boot_ratio", "theta": int(T), "level": str(T), "value": sd / top_sigma})
    if udm_reps:
        u = udm_vs_prm(pairs, rng, T=T, method=method, reps=udm_reps)
        rows += [{"quantity": "udm", "theta": int(T), "level": key, "value": float(u[key])} for key in ("prm_ratio", "udm_ratio")]
    return pd.DataFrame(rows)


def diversity_power(rng: np.random.Generator, *, n_topics: int, n_runs: int, depth: int, measures: Sequence[str],
                    B: int, significance: float, tau_pairs: Sequence[tuple[str, str]],
                    normaliser: str | None = "ideal") -> pd.DataFrame:
    """Notebook 04 on a fresh simulated INTENT-like collection.

    Returns rows ``quantity, measure, value``: discriminative power (share of run pairs
    significant under the randomised Tukey HSD at ``significance``) of every measure, and Kendall's
    tau between the run rankings of the measure pairs ``tau_pairs`` (``measure`` = ``"a | b"``).
    ``normaliser`` is :func:`helpers.measures.diversity.evaluate`'s (``"ideal"``: NTCIREVAL gcompute).
    """
    from helpers.simulate.intents import intent_collection

    coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs, depth=depth)
    results = diversity.evaluate(coll.dqrels, coll.intents, coll.runs, list(measures),
                                 normaliser=normaliser).dropna(subset=["value"])
    means = results.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")
    mats = {m: results[results["measure"] == m].pivot(index="query_id", columns="run_id", values="value").dropna()
            for m in measures}
    rows = []
    for m, hsd in stats.randomised_tukey_hsd_each(mats, B=B, rng=rng).items():
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
