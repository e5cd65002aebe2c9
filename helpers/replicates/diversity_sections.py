"""Notebook 04's section computations that are not replicates: Kendall's τ between the measures'
system rankings with bootstrap intervals over topics (section 4, :func:`tau_section`), the other
normaliser's scores, power and ranking (appendix A.3, :func:`normaliser_sensitivity`) and the power
at the second cutoff (appendix A.4, :func:`second_cutoff`).

Split from :mod:`helpers.replicates.diversity` so that the notebook's cells only orchestrate and
print; the lines they print are worded by :mod:`helpers.findings.diversity`. Randomness only through
the ``rng`` passed in; nothing is drawn that no output uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["TAU_PAIRS", "tau_matrix", "lowest_pairs", "tau_section", "normaliser_sensitivity", "second_cutoff",
           "second_cutoff_power"]

#: The measure pairs of section 4 whose τ gets a bootstrap interval (``{l}``: the cutoff): NTCIR's
#: against TREC's official measure, against intent-aware nDCG, relevance against diversity, D♯ against
#: DIN♯, α-nDCG against ERR-IA, D♯-nDCG against RBU.
TAU_PAIRS = (("D#-nDCG", "alpha-nDCG"), ("D#-nDCG", "IA-nDCG"), ("D-nDCG", "I-rec"), ("D#-nDCG", "DIN#-nDCG"),
             ("alpha-nDCG", "ERR-IA"), ("D#-nDCG", "RBU(p=0.99)"))


def tau_matrix(means: pd.DataFrame) -> pd.DataFrame:
    """Kendall's τ-b between the system rankings (run means, one column per measure) of every pair of
    measures, 1 on the diagonal and NaN where τ is undefined (:func:`helpers.stats.tau_or_undefined`)."""
    from .. import stats

    names = list(means.columns)
    tau = pd.DataFrame(np.eye(len(names)), index=names, columns=names)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            tau.loc[a, b] = tau.loc[b, a] = stats.tau_or_undefined(means[a].to_numpy(), means[b].to_numpy()).tau
    return tau


def lowest_pairs(tau: pd.DataFrame, names: Sequence[str]) -> tuple[list[tuple[str, str]], int]:
    """The pairs of ``names`` (each measure once) with the lowest τ in the matrix ``tau``, in row-major
    order (the first is the one section 4 draws resamples for), and how many pairs there are."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    values = {p: float(tau.loc[p[0], p[1]]) for p in pairs if np.isfinite(tau.loc[p[0], p[1]])}
    low = min(values.values())
    return [p for p, v in values.items() if f"{v:.12g}" == f"{low:.12g}"], len(pairs)


def tau_section(results: pd.DataFrame, means: pd.DataFrame, once: Sequence[str], l: int,
                rng: np.random.Generator, *, resamples: int, level: float) -> dict:
    """Section 4 of notebook 04: the τ matrix and bootstrap intervals over topics of the fixed pairs
    (:data:`TAU_PAIRS` at cutoff ``l``) and of the lowest-τ pair when it is not one of them.

    Parameters
    ----------
    results : per run, topic and measure ``value`` (NaN rows dropped).
    means : run means, one column per measure, rows in the notebook's run order.
    once : the measures counted once (one name per measure under several names).
    rng, resamples, level : :func:`helpers.stats.tau_topic_bootstrap`'s generator, resamples and level.

    Returns
    -------
    ``{"tau", "pairs", "tied", "n_once", "picked", "boot", "tau_ci", "topics", "lowest_tau", "pair_tau"}``
    (``pair_tau``: ``"A vs B"`` -> τ for every pair of ``once``; ``lowest_tau``: over every pair):
    ``tied`` holds every pair (of ``once``) at the lowest τ; ``picked`` is True when the first of
    them is not a fixed pair (it gets no interval, chosen on these data, so no resamples are drawn
    for it: its entry in ``boot`` carries τ on the full topic set and NaN bounds); ``boot`` lists
    ``(a, b, result)``, the fixed pairs in drawing order, then the picked pair; ``tau_ci`` maps each
    fixed pair to ``(tau, low, high)`` and holds ``"runs"`` and ``"topics"``. Only the fixed pairs
    draw from ``rng``.
    """
    from .. import stats

    tau = tau_matrix(means)
    per_topic = {m: results[results["measure"] == m].pivot(index="query_id", columns="run_id", values="value")
                 for m in tau.columns}
    topics = sorted(set.intersection(*(set(v.dropna().index) for v in per_topic.values())))
    pairs = [(f"{a}@{l}", f"{b}@{l}") for a, b in TAU_PAIRS]
    tied, n_once = lowest_pairs(tau, once)
    picked = tied[0] not in pairs and tied[0][::-1] not in pairs
    tau_ci, boot = {"runs": len(means), "topics": len(topics)}, []
    for a, b in pairs:
        x, y = (per_topic[m].loc[topics, means.index].to_numpy() for m in (a, b))
        t = stats.tau_topic_bootstrap(x, y, rng, B=resamples, level=level)
        boot.append((a, b, t))
        tau_ci[(a, b)] = (t.tau, t.low, t.high)
    if picked:   # post hoc: printed without interval, so nothing is resampled for it
        a, b = tied[0]
        x, y = (per_topic[m].loc[topics, means.index].to_numpy().mean(0) for m in (a, b))
        boot.append((a, b, stats.KendallTauCI(stats.tau_or_undefined(x, y).tau, float("nan"), float("nan"), len(means))))
    off = tau.where(~np.eye(len(tau), dtype=bool)).stack()
    pair_tau = {f"{a} vs {b}": tau.loc[a, b] for i, a in enumerate(once) for b in once[i + 1:]}
    return {"tau": tau, "pairs": pairs, "tied": tied, "n_once": n_once, "picked": picked, "boot": boot,
            "tau_ci": tau_ci, "topics": len(topics), "lowest_tau": float(off.min()), "pair_tau": pair_tau}


def normaliser_sensitivity(dqrels: pd.DataFrame, intents: pd.DataFrame, runs: pd.DataFrame, results: pd.DataFrame,
                           measures: Sequence[str], *, normaliser: str, power: pd.Series, means: pd.DataFrame,
                           B: int, rng: np.random.Generator, significance: float, gains=None,
                           mc: Mapping[str, Sequence[float]] | None = None) -> tuple[str, pd.DataFrame]:
    """Appendix A.3 of notebook 04: the same runs and topics scored under the other normaliser
    (``"ideal"`` <-> ``"fixed"``: gmax of the ERR/EBR/RBP/RBU-type measures). Returns the other
    normaliser and a table with a row per measure whose scores change (by more than 1e-12 on some
    run and topic): its discriminative power under ``normaliser`` (``power``) and under the other
    (a randomised Tukey HSD with the same ``B``, fresh trials from ``rng``; share of run pairs with
    p < ``significance``), and Kendall's τ between its two system rankings (run means). With ``mc``
    (the 95% Monte Carlo intervals of ``power``, section 6) the table also holds both powers' Monte
    Carlo intervals (the other's from its own B trials, :func:`helpers.replicates.diversity.power_interval`
    at the same level) and whether the change exceeds Monte Carlo error: the two intervals, from
    independent sets of trials, lie at least :data:`~helpers.replicates.diversity.MIN_LEAD_PAIRS` run
    pairs apart (the rule of every power comparison of notebook 04; a one-pair gap cannot tell)."""
    from .diversity import MIN_LEAD_PAIRS, pairs_apart, power_interval
    from .. import stats
    from ..measures import diversity

    other = "fixed" if normaliser == "ideal" else "ideal"
    res_other = diversity.evaluate(dqrels, intents, runs, list(measures), gains=gains, normaliser=other)
    res_other = res_other.dropna(subset=["value"])
    both = results.merge(res_other, on=["run_id", "query_id", "measure"], suffixes=("", "_other"))
    gap = (both["value"] - both["value_other"]).abs().groupby(both["measure"]).max()
    changed = [m for m in measures if gap.get(m, 0.0) > 1e-12]
    columns = ["measure", f"power ({normaliser})", f"power ({other})", "tau between the two rankings"]
    if mc is not None:
        columns += [f"MC low ({normaliser})", f"MC high ({normaliser})", f"MC low ({other})", f"MC high ({other})",
                    "beyond MC error"]
    rows = []
    if changed:
        mats = {m: res_other[res_other["measure"] == m].pivot(index="query_id", columns="run_id", values="value").dropna()
                for m in changed}
        hsd = stats.randomised_tukey_hsd_each(mats, B=B, rng=rng)
        means_o = res_other.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")
        for m in changed:
            t = stats.tau_or_undefined(means[m], means_o.loc[means.index, m]).tau
            p = hsd[m]["p_value"].to_numpy()
            row = [m, power[m], float((p < significance).mean()), t]
            if mc is not None:
                lo, hi = (float(v) for v in mc[m])
                lo2, hi2 = power_interval(p, significance, B, level=0.95)
                row += [lo, hi, lo2, hi2, pairs_apart((lo, hi), (lo2, hi2), len(p)) >= MIN_LEAD_PAIRS]
            rows.append(row)
    return other, pd.DataFrame(rows, columns=columns)


def second_cutoff_power(res2: pd.DataFrame, measures2: Sequence[str], power: pd.Series, l: int, l2: int, *,
                        B: int, rng: np.random.Generator, significance: float, level: float) -> dict:
    """Appendix A.4 of notebook 04 on the scores ``res2`` at the second cutoff ``l2`` (rows of
    :func:`helpers.measures.diversity.evaluate` for ``measures2``, every name ending ``@{l2}``; NaN
    values dropped): one randomised Tukey HSD per measure (``B`` trials from ``rng``, in the order of
    ``measures2``) and the share of run pairs with p < ``significance``.

    The measures that are one measure under several names are found AT ``l2``
    (:func:`helpers.measures.results.affine_measures` on ``res2``), not taken from the first cutoff:
    two measures equal at cutoff 1 (one document) may differ at 10, and the reverse.

    Returns ``{"table", "mc", "twins", "keep"}``: ``table`` has per measure (cutoff dropped) the
    power at ``l`` (``power``, indexed by the ``@{l}`` names), at ``l2`` and the Monte Carlo
    interval at ``l2`` (:func:`helpers.replicates.diversity.power_interval` at ``level``), sorted by
    the power at ``l2``; ``mc`` maps the cutoff-free name to that interval; ``twins`` are the groups
    at ``l2`` (``@{l2}`` names); ``keep`` the cutoff-free names counted once (the first of each group).
    """
    from .diversity import MIN_LEAD_PAIRS, pairs_apart, power_interval
    from .. import stats
    from ..measures.results import affine_measures

    base = lambda m: m.rsplit("@", 1)[0]   # noqa: E731
    mats = {m: res2[res2["measure"] == m].pivot(index="query_id", columns="run_id", values="value").dropna()
            for m in measures2}
    p2 = {m: h["p_value"].to_numpy() for m, h in stats.randomised_tukey_hsd_each(mats, B=B, rng=rng).items()}
    table = pd.DataFrame({"measure": [base(m) for m in measures2],
                          f"power@{l}": [power.get(f"{base(m)}@{l}", np.nan) for m in measures2],
                          f"power@{l2}": [float((p2[m] < significance).mean()) for m in measures2]})
    table = table.sort_values(f"power@{l2}", ascending=False, kind="stable")
    mc = {base(m): power_interval(p2[m], significance, B, level=level) for m in measures2}
    table[f"Monte Carlo low @{l2}"] = [mc[m][0] for m in table["measure"]]
    table[f"Monte Carlo high @{l2}"] = [mc[m][1] for m in table["measure"]]
    twins = affine_measures(res2[res2["measure"].isin(list(measures2))])
    later = {x for g in twins for x in g[1:]}
    keep = [base(m) for m in measures2 if m not in later]
    return {"table": table, "mc": mc, "twins": twins, "keep": keep}


def second_cutoff(dqrels: pd.DataFrame, intents: pd.DataFrame, runs: pd.DataFrame, measures: Sequence[str],
                  power: pd.Series, l: int, l2: int, *, B: int, rng: np.random.Generator, significance: float,
                  level: float, gains=None, normaliser: str = "ideal") -> dict:
    """Appendix A.4 of notebook 04: every measure of ``measures`` with cutoff ``l`` scored at ``l2``
    (same gains and normaliser), then :func:`second_cutoff_power`; its dict with ``"measures"``
    (the ``@{l2}`` names) added."""
    from ..measures import diversity

    measures2 = [m[: -len(f"@{l}")] + f"@{l2}" for m in measures if m.endswith(f"@{l}")]
    res2 = diversity.evaluate(dqrels, intents, runs, measures2, gains=gains, normaliser=normaliser)
    out = second_cutoff_power(res2.dropna(subset=["value"]), measures2, power, l, l2, B=B, rng=rng,
                              significance=significance, level=level)
    return {**out, "measures": measures2}
