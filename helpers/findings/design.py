"""Notebook 06's findings: how many topics, how many assessors (:mod:`helpers.design`).

Questions asked of every run: do Sakai's approximations give his published topic-set sizes, and
does the exact F at m = 2 equal the two-sample t; does more topics help more than more assessors
(Bodoff, IPM 2008), at the pilot's sizes; does the D-study's projection hold on disjoint halves
of the pilot (Urbano et al., SIGIR 2013); with planted components, does the interval on the
topics needed cover the truth and does the recommended n reach the power asked for. With real
or file data: is GT's mean over assessors the measure of the mean gains (only for linear measures).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["PUBLISHED", "findings", "cheapest_sentence"]

#: Sakai's published sizes (alpha .05, beta .20) as STUDY-DESIGN's table pins them: label -> n.
PUBLISHED = {"paired t, σt² = .10, minDt = .05": 316, "paired t, σt² = .05, minDt = .10": 42,
             "ANOVA m = 10, σ² = .10, minD = .10": 313, "ANOVA m = 2, σ² = .10, minD = .05": 614,
             "CI, σt² = .10, δ = .10": 156}


def _coverage_row(cov: Mapping) -> Finding:
    k, n = int(cov["covered"]), int(cov["pilots"])
    lo, hi = _proportion_ci(k, n, "wilson")
    ok = lo <= cov["level"] <= hi
    return Finding("Does the interval on the topics needed cover the planted truth?",
                   f"{cov['level']:.0%} (Feldt's interval)",
                   f"{claims.share(k, n, 'pilots').text}; Wilson 95% [{lo:.3f}, {hi:.3f}]",
                   "agrees" if ok else "differs", caveats=("simulated",), numbers=dict(cov))


def _proportion_ci(k: int, n: int, method: str) -> tuple[float, float]:
    """95% interval of a binomial proportion (scipy's ``binomtest``: Wilson, or exact Clopper-Pearson)."""
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(0.95, method=method)
    return float(ci.low), float(ci.high)


def _power_row(pw: Mapping) -> Finding:
    k, n = int(pw["rejections"]), int(pw["experiments"])
    lo, hi = _proportion_ci(k, n, "exact")
    return Finding(f"Does the recommended n ({pw['n_topics']} topics) reach the power asked for?",
                   f"1 − β = {pw['target']:.2f}", f"{k / n:.3f} [{lo:.3f}, {hi:.3f}] over {n:,} simulated tests",
                   "agrees" if lo <= pw["target"] <= hi else "differs", caveats=("simulated",), numbers=dict(pw))


def cheapest_sentence(best, *, target: float, measure: str, cost_topic: float, cost_judgment: float,
                      max_assessors: int) -> str:
    """The sentence on the cheapest design (``best`` from :func:`helpers.design.cheapest_design`,
    ``None`` when no design with up to ``max_assessors`` assessors reaches the target)."""
    if best is None:
        return (f"No design with up to {max_assessors} assessors per topic reaches Eρ² ≥ {target} ({measure}): "
                "the error that does not shrink with topics is too large.")
    return (f"The cheapest design for Eρ² ≥ {target} ({measure}) is {best.n_topics} topics × "
            f"{claims.plural(best.n_assessors, 'assessor')} per topic. It costs {best.cost:,.0f} at {cost_topic:g} "
            f"per topic and {cost_judgment:g} per judgment set.")


def _split_row(split: pd.DataFrame) -> Finding:
    inside = [(r.n_topics, r.n_assessors) for r in split.itertuples()
              if math.isfinite(r.tau_predicted) and r.tau_low <= r.tau_predicted <= r.tau_high]
    finite = split[split["tau_predicted"].notna()]
    cells = ""
    if not finite.empty:
        above = int((finite["tau_observed"] > finite["tau_predicted"]).sum())
        worst = finite.loc[(finite["tau_observed"] - finite["tau_predicted"]).abs().idxmax()]
        cells = (f"predicted inside the range of the splits at {len(inside)} of {len(finite)} sizes; observed above "
                 f"predicted at {above}; largest gap {worst['tau_observed']:.3f} vs {worst['tau_predicted']:.3f} "
                 f"({int(worst['n_topics'])} topics × {claims.plural(int(worst['n_assessors']), 'assessor')})")
    if finite.empty:
        verdict = "cannot tell"
    else:
        verdict = "holds" if len(inside) == len(finite) else "holds in part" if inside else "does not hold"
    return Finding("Does the D-study predict the τ between disjoint halves of the pilot?",
                   "τ ≈ Eρ²^2.85 (Urbano et al. 2013, a rough fit)",
                   cells or "no size with 0 < Eρ² < 1", verdict,
                   caveats=("rough_map",), numbers={"cells": split.to_dict(orient="records")})


def _linear_rows(linearity: Mapping[str, Mapping]) -> list[Finding]:
    rows = []
    for measure, v in linearity.items():
        diff = v["max_abs_difference"]
        same = diff < 1e-9
        rows.append(Finding(f"{measure}: is GT's mean over assessors the measure of the mean gains?",
                            "only for measures linear in the gains",
                            f"largest |difference| over systems {claims.number(diff, 4)}; τ between the two "
                            f"orders {v['kendall_tau']:.3f}", "holds" if same else "does not hold",
                            numbers=dict(v)))
    return rows


def _sizes_sentence(sizes: pd.DataFrame) -> str:
    gap = (sizes["n_exact"] - sizes["n_approx"]).abs()
    i = int(gap.idxmax())
    r = sizes.loc[i]
    widest = sizes.loc[int((sizes["n_exact_high"] - sizes["n_exact_low"]).idxmax())]
    head = ("Exact and approximate topic counts agree for every measure and method" if gap.max() == 0 else
            f"Exact and approximate topic counts differ by at most {claims.plural(int(gap.max()), 'topic')} "
            f"({r['measure']}, {r['method']}: {int(r['n_approx'])} vs {int(r['n_exact'])})")
    return (f"{head}; the interval of V_E1 "
            f"alone spans {int(widest['n_exact_low'])} to {int(widest['n_exact_high'])} topics "
            f"({widest['measure']}, {widest['method']}).")


def findings(*, published: Mapping[str, int], anova_m2: tuple[int, int], sizes: pd.DataFrame, bodoff: Mapping,
             split: pd.DataFrame | None,
             coverage: Mapping | None, power: Mapping | None, linearity: Mapping[str, Mapping],
             cheapest: str, unjudged: str, footer: str = "") -> Findings:
    """The findings of notebook 06.

    Parameters
    ----------
    published : Sakai's published label -> this run's recomputed n (approximate).
    anova_m2 : (exact ANOVA n at m = 2, exact two-sample t n) for the pinned case.
    sizes : :func:`helpers.design.study.sizes_by_measure`.
    bodoff : ``{"measure", "n_topics", "n_assessors", "more_topics", "more_assessors"}``: Erho2
        with the pilot's topics doubled, and with its assessors doubled.
    split : :func:`helpers.design.study.split_half_check`, or None when the pilot is too small.
    coverage : ``{"covered", "pilots", "level", "true_n"}`` of the planted pilots, or None.
    power : ``{"rejections", "experiments", "target", "n_topics"}``, or None.
    linearity : measure -> :func:`helpers.design.linearity_check`'s attrs (real or file data).
    cheapest, unjudged : one sentence each (the cheapest design; how unjudged items were treated).
    """
    ok = all(published[k] == v for k, v in PUBLISHED.items())
    rows = [Finding("Do Sakai's approximations give his published topic-set sizes?",
                    ", ".join(str(v) for v in PUBLISHED.values()),
                    ", ".join(str(published[k]) for k in PUBLISHED), "reproduced" if ok else "not reproduced",
                    numbers=dict(published)),
            Finding("With the exact F, does the ANOVA at m = 2 need the topics of the two-sample t?",
                    "629 = two-sample t (exact); the approximation gives 614",
                    f"{anova_m2[0]} and {anova_m2[1]}", "reproduced" if anova_m2 == (629, 629) else "not reproduced")]
    more_t, more_a = bodoff["more_topics"], bodoff["more_assessors"]
    if bodoff.get("n_assessors"):
        rows.append(Finding(f"{bodoff['measure']}: do more topics help more than more assessors?",
                            "yes (Bodoff 2008, TREC)",
                            f"Eρ² {more_t:.3f} with {2 * bodoff['n_topics']} topics × {bodoff['n_assessors']} vs "
                            f"{more_a:.3f} with {bodoff['n_topics']} × {2 * bodoff['n_assessors']}",
                            "holds" if more_t > more_a else "does not hold", caveats=("point",), numbers=dict(bodoff)))
    if split is not None:
        rows.append(_split_row(split))
    if coverage is not None:
        rows.append(_coverage_row(coverage))
    if power is not None:
        rows.append(_power_row(power))
    rows += _linear_rows(linearity)
    prose = [cheapest, unjudged, _sizes_sentence(sizes)]
    caveats = {"rough_map": "Urbano et al.'s maps from Eρ² to τ are fits over TREC collections, not exact laws.",
               "point": "Point estimates of the variance components, without their interval.",
               "normal": "Intervals assume normal effects; scores bounded in [0, 1] are not."}
    if not linearity:
        prose.append("Simulated scores carry no gains, so the check of non-linear measures needs real or file data.")
    return Findings("06_study_design", rows, prose, caveats=caveats, general=("normal",), footer=footer)
