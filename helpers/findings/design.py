"""Notebook 06's findings: how many topics, how many assessors (:mod:`helpers.design`).

Questions asked of every run: do Sakai's approximations give his published topic-set sizes, and
does the exact F at m = 2 equal the two-sample t; do the G- and D-studies give gt4ireval's and
Brennan's published values; for each sizing question (paired t-test, CI width, Eρ²) how many
topics, with the methods side by side: Sakai's 2 V_E1 against the paired-difference variance
2 V_E2, and for Eρ² the cheapest number of assessors per topic with the designs tied with it
(Bodoff, IPM 2008); do the D-study's predictions hold on disjoint halves of the pilot, out of
sample (Urbano et al., SIGIR 2013; the normal-theory relation). With planted components: do the
intervals on n cover the truth, and does the n each simulated pilot recommends reach the power
asked for. With real or file data: is GT's mean over assessors the measure of the mean gains.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["PUBLISHED", "check_parameters", "findings", "cheapest_sentence", "sizes_sentence", "summarise_planted",
           "planted_lines", "split_lines", "linearity_line"]

#: Sakai's published sizes (alpha .05, beta .20) as STUDY-DESIGN's table pins them: label -> n.
PUBLISHED = {"paired t, σt² = .10, minDt = .05": 316, "paired t, σt² = .05, minDt = .10": 42,
             "ANOVA m = 10, σ² = .10, minD = .10": 313, "ANOVA m = 2, σ² = .10, minD = .05": 614,
             "CI, σt² = .10, δ = .10": 156}

CAVEATS = {
    "rough_map": "Urbano et al.'s maps from Eρ² to τ and conflicts are fits over TREC collections, not laws.",
    "conditional": "The halves and the topics that predict them are disjoint in each split, but every split "
                   "reuses the pilot's topics: these checks are conditional on this pilot.",
    "bootstrap": "Intervals on the t-test and CI sizes carry the topic bootstrap's uncertainty of the variance "
                 "(and, with crossed assessors, the chi² interval of their bias).",
    "satterthwaite": "With crossed assessors Feldt's interval takes Satterthwaite's degrees of freedom: approximate.",
}
NORMAL_PLANTED = ("Feldt's and Arteaga et al.'s intervals assume normal effects, and the planted pilots draw "
                  "them normal: their coverage is not checked for bounded, skewed scores.")
NORMAL_REAL = "Feldt's and Arteaga et al.'s intervals assume normal effects; scores bounded in [0, 1] are not."


def check_parameters(g: Mapping) -> None:
    """Check notebook 06's parameters (``g``: the notebook's namespace); ``ValueError`` names the parameter."""
    from ..design import planted
    from ..notebook import params

    if g["data"] not in ("simulated", "dl19", "files"):
        raise ValueError(f"data must be 'simulated', 'dl19' or 'files', got {g['data']!r}")
    if g["facets"] not in ("s x (a:t)", "s x t x a"):
        raise ValueError(f"facets must be 's x (a:t)' or 's x t x a', got {g['facets']!r}")
    if g["unjudged"] not in ("common", "fill"):
        raise ValueError(f"unjudged must be 'common' or 'fill', got {g['unjudged']!r}")
    if not g["measures"] or not all(isinstance(m, str) for m in g["measures"]):
        raise ValueError(f"measures must be a non-empty list of measure names, got {g['measures']!r}")
    for name in ("alpha", "beta", "target"):
        if not 0 < g[name] < 1:
            raise ValueError(f"{name} must lie strictly between 0 and 1, got {g[name]}")
    if min(g["min_diff"], g["ci_width"], *g["min_diff_grid"]) <= 0 or min(g["cost_topic"], g["cost_judgment"]) < 0:
        raise ValueError("min_diff, ci_width and min_diff_grid must be positive, costs >= 0")
    if g["cost_topic"] + g["cost_judgment"] == 0:
        raise ValueError("cost_topic and cost_judgment are both 0: every design would be free")
    for name, low in (("max_assessors", 1), ("split_draws", 2), ("replicates", 2), ("experiments", 1),
                      ("n_systems", 2), ("n_topics", 2), ("n_assessors", 2), ("n_boot", 10), ("cost_boot", 10)):
        if isinstance(g[name], bool) or not isinstance(g[name], int) or g[name] < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {g[name]!r}")
    if g["data"] == "simulated":
        planted.planted_g(g["components"], g["facets"], g["n_systems"], g["n_topics"], g["n_assessors"])
    params.check_file_inputs(g, mode=g["data"] == "files", required=["ratings_path", "runs_path"],
                             switch='data: "files"')


# --------------------------------------------------------------------------------------------
# numbers as printed
# --------------------------------------------------------------------------------------------

def _missing(v) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _n(v) -> str:
    return "unreachable" if _missing(v) else f"{int(v):,}"


def _end(v) -> str:
    return "unbounded" if _missing(v) else f"{int(v):,}"


def _n_ci(n, lo, hi) -> str:
    """``"107 [96, 119]"``; ``"unbounded"`` for an end no number of topics reaches."""
    if _missing(n):
        return "unreachable"
    if _missing(lo) and _missing(hi):
        return _n(n)
    return f"{_n(n)} [{_end(lo)}, {_end(hi)}]"


def _pct(x: float) -> str:
    """A proportion as a percentage with one decimal (an interval bound beside a share)."""
    return f"{100 * x:.1f}%"


def _proportion_ci(k: int, n: int, method: str) -> tuple[float, float]:
    """95% interval of a binomial proportion (scipy's ``binomtest``: Wilson, or exact Clopper-Pearson)."""
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(0.95, method=method)
    return float(ci.low), float(ci.high)


# --------------------------------------------------------------------------------------------
# sentences the notebook prints
# --------------------------------------------------------------------------------------------

def sizes_sentence(sizes: pd.DataFrame) -> str:
    """Exact against approximate (Sakai's V_E1 sizes), naming every case at the largest gap."""
    gap = (sizes["n_exact"] - sizes["n_approx"]).abs()
    if gap.max() == 0:
        return "Exact and approximate topic counts agree for every measure and method."
    at = sizes[gap == gap.max()]
    cases = [f"{r.measure}, {r.method}: {int(r.n_approx)} vs {int(r.n_exact)}" for r in at.itertuples()]
    shown = cases if len(cases) <= 3 else cases[:2] + [f"{len(cases) - 2} more"]
    return (f"Exact and approximate topic counts differ by at most {claims.plural(int(gap.max()), 'topic')} "
            f"({claims.plural(len(cases), 'case')}: {'; '.join(shown)}).")


def cheapest_sentence(curve: pd.DataFrame | None, *, target: float, measure: str, cost_topic: float,
                      cost_judgment: float, max_assessors: int) -> str:
    """The cheapest design for Eρ² >= target with every design within noise of it (``curve`` from
    :func:`helpers.design.cost.trade_off_bootstrap`; ``None`` when no design reaches the target)."""
    if curve is None:
        return (f"No design reaches Eρ² ≥ {target} ({measure}) with at most max_assessors = {max_assessors} per topic: "
                "the error that does not shrink with topics is too large.")
    best = curve[curve["n_assessors"] == curve.attrs["best"]].iloc[0]
    head = (f"The cheapest design for Eρ² ≥ {target} ({measure}) at {cost_topic:g} per topic and {cost_judgment:g} "
            f"per judgment set is {_design(best)}.")
    if len(curve) == 1:
        return head + " No other number of assessors was considered."
    tied = curve[curve["within_noise"] & (curve["n_assessors"] != best["n_assessors"])]
    never = [str(int(a)) for a, c in zip(curve["n_assessors"], curve["cost"]) if _missing(c)]
    tail = f" With n_a = {claims.listing(never)} the target is unreachable." if never else ""
    if tied.empty:
        return head + " No other design is within noise of it." + tail
    return head + " Within noise of it: " + "; ".join(
        f"n_a = {int(r.n_assessors)} (cost {r.cost:,.0f})" for r in tied.itertuples()) + "." + tail


def _design(r: pd.Series) -> str:
    """``"n_a = 3, n_t = 37 [17, 68] (cost 703)"``: assessors per topic, topics with their interval."""
    return f"n_a = {int(r['n_assessors'])}, n_t = {_n_ci(r['n_topics'], r['n_low'], r['n_high'])} (cost {r['cost']:,.0f})"


def linearity_line(measure: str, attrs) -> str:
    """The printed line of the non-linearity check (``attrs``: the check's, or why it was not run)."""
    if isinstance(attrs, str):
        return f"{measure}: {attrs.split(' (')[0]}"
    return (f"{measure}: largest |mean over assessors − measure of mean gains| {_difference(attrs['max_abs_difference'])}, "
            f"Kendall τ between the two orders of the systems {attrs['kendall_tau']:.3f}")


def _difference(d: float) -> str:
    return "below 10⁻⁶ (rounding)" if d < 5e-7 else claims.number(d, 4)


# --------------------------------------------------------------------------------------------
# the planted truth
# --------------------------------------------------------------------------------------------

def summarise_planted(rep: pd.DataFrame, *, beta: float, level: float = 0.95) -> dict:
    """The replicates of :func:`helpers.design.planted.planted_check` as the findings read them."""
    truth = rep["true_n"].iloc[0]
    reach = not pd.isna(truth)
    t_truth = rep["t_true"].iloc[0]
    tested = rep[rep["experiments"] > 0]
    ns = tested["t_n"].astype(float)
    return {
        "erho2": {"covered": int(rep["covered"].fillna(False).astype(bool).sum()) if reach else None,
                  "pilots": len(rep), "level": level, "true_n": int(truth) if reach else None},
        "t": {"covered": int(rep["t_covered"].fillna(False).astype(bool).sum()) if not pd.isna(t_truth) else None,
              "pilots": len(rep), "level": level, "true_n": None if pd.isna(t_truth) else int(t_truth)},
        "power": {"rejections": int(rep["rejections"].sum()), "wrong_sign": int(rep["wrong_sign"].sum()),
                  "experiments": int(rep["experiments"].sum()), "target": 1 - beta,
                  "pilots_tested": len(tested), "pilots": len(rep),
                  "n_min": None if tested.empty else int(ns.min()), "n_max": None if tested.empty else int(ns.max()),
                  "sakai_rejections": int(rep["sakai_rejections"].sum()),
                  "sakai_experiments": int(rep["sakai_experiments"].sum()),
                  "sakai_n_min": int(rep["sakai_n"].min()), "sakai_n_max": int(rep["sakai_n"].max())}}


def _coverage_text(cov: Mapping) -> str:
    k, n = int(cov["covered"]), int(cov["pilots"])
    lo, hi = _proportion_ci(k, n, "wilson")
    return f"{claims.share(k, n, 'pilots').text}; Wilson 95% [{_pct(lo)}, {_pct(hi)}]"


def _range(lo, hi) -> str:
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"


def planted_lines(p: Mapping, *, target: float, n_assessors: int) -> list[str]:
    """The printed lines of the planted-truth checks."""
    e, t, pw = p["erho2"], p["t"], p["power"]
    lines = [(f"topics for Erho2 >= {target}: the planted truth is unreachable with "
              f"{claims.plural(n_assessors, 'assessor')}; no coverage to check") if e["true_n"] is None else
             f"topics for Erho2 >= {target}: planted truth {e['true_n']}; the 95% interval covers it in {_coverage_text(e)}"]
    lines.append("topics for the t-test: the planted truth is unreachable (the crossed assessors' bias); no coverage "
                 "to check" if t["true_n"] is None else
                 f"topics for the t-test: planted truth {t['true_n']}; the 95% interval covers it in {_coverage_text(t)}")
    if pw["experiments"]:
        k, n = pw["rejections"], pw["experiments"]
        lo, hi = _proportion_ci(k, n, "exact")
        lines.append(f"power at each pilot's n ({_range(pw['n_min'], pw['n_max'])} topics): {k / n:.3f} [{lo:.3f}, {hi:.3f}] "
                     f"over {n:,} simulated tests; {claims.plural(pw['wrong_sign'], 'rejection')} of the wrong sign; "
                     f"target {pw['target']:.2f}")
    else:
        lines.append("no pilot recommended a reachable number of topics: no power to measure")
    s_k, s_n = pw["sakai_rejections"], pw["sakai_experiments"]
    lines.append(f"power at Sakai's n from 2 V_E1 ({_range(pw['sakai_n_min'], pw['sakai_n_max'])} topics): "
                 f"{s_k / s_n:.3f} over {s_n:,} simulated tests")
    return lines


def _planted_rows(p: Mapping, target: float, n_assessors: int, crossed: bool) -> tuple[list[Finding], list[str]]:
    rows, prose = [], []
    for key, question, interval in (
            ("erho2", f"Does the interval on the topics for Eρ² ≥ {target} cover the planted truth", "Feldt's interval"),
            ("t", "Does the interval on the topics for the t-test cover the planted truth", "topic bootstrap of V_E2")):
        cov = p[key]
        if cov["true_n"] is None:
            prose.append(f"With {claims.plural(n_assessors, 'assessor')} per topic the planted truth for "
                         f"{'Eρ²' if key == 'erho2' else 'the t-test'} is unreachable: there is no coverage to check.")
            continue
        k, n = int(cov["covered"]), int(cov["pilots"])
        lo, hi = _proportion_ci(k, n, "wilson")
        cav = ("simulated", "satterthwaite") if crossed and key == "erho2" else ("simulated",)
        rows.append(Finding(f"{question} ({cov['true_n']})?", f"{cov['level']:.0%} ({interval})", _coverage_text(cov),
                            "agrees" if lo <= cov["level"] <= hi else "differs", caveats=cav, numbers=dict(cov)))
    pw = p["power"]
    if pw["experiments"]:
        k, n = pw["rejections"], pw["experiments"]
        lo, hi = _proportion_ci(k, n, "exact")
        s = pw["sakai_rejections"] / pw["sakai_experiments"]
        rows.append(Finding("Does the n each simulated pilot recommends reach the power asked for?",
                            f"1 − β = {pw['target']:.2f}",
                            f"{k / n:.3f} [{lo:.3f}, {hi:.3f}] over {n:,} tests at {_range(pw['n_min'], pw['n_max'])} topics "
                            f"({claims.plural(pw['wrong_sign'], 'rejection')} of the wrong sign); at Sakai's n: {s:.3f}",
                            "agrees" if lo <= pw["target"] <= hi else "differs", caveats=("simulated",), numbers=dict(pw)))
    return rows, prose


# --------------------------------------------------------------------------------------------
# the sizing questions
# --------------------------------------------------------------------------------------------

def _conservative(sizes: pd.DataFrame, lead: str) -> tuple[str, str, dict]:
    """(verdict, phrase, numbers): whether V_E1 / V_E2 exceeds 1 for the lead measure (its interval),
    with the count of the other measures whose interval lies above 1."""
    r = sizes.drop_duplicates("measure")
    above = [m for m, lo in zip(r["measure"], r["ratio_low"]) if lo > 1]
    below = [m for m, hi in zip(r["measure"], r["ratio_high"]) if hi < 1]
    n = len(r)
    nums = {"above": above, "below": below, "measures": n}
    row = r[r["measure"] == lead].iloc[0]
    if pd.isna(row.ratio_low):
        return "cannot tell", "no interval of V_E1 / V_E2 (no bootstrap)", nums
    verdict = "holds" if lead in above else "does not hold" if lead in below else "cannot tell"
    phrase = f"V_E1 / V_E2 {claims.bracket(row.ratio, row.ratio_low, row.ratio_high, 2)}"
    if n > 1:
        phrase += f"; interval above 1 for {claims.share(len(above), n, 'measures').text}"
    return verdict, phrase, nums


def _sizing_rows(sizes: pd.DataFrame, *, lead: str, min_diff: float, beta: float, ci_width: float) -> list[Finding]:
    verdict, ratio, nums = _conservative(sizes, lead)
    rows = []
    for method, question in (("paired t", f"Topics for a paired t-test (minD = {min_diff:g}, power {1 - beta:.2f}; {lead})?"),
                             ("CI width", f"Topics for a CI of width ≤ {ci_width:g} on a mean difference ({lead})?")):
        r = sizes[(sizes["measure"] == lead) & (sizes["method"] == method)].iloc[0]
        run = (f"Sakai, 2 V_E1: {_n_ci(r.n_exact, r.n_exact_low, r.n_exact_high)}; paired differences, 2 V_E2: "
               f"{_n_ci(r.n_paired, r.n_paired_low, r.n_paired_high)}; {ratio}")
        rows.append(Finding(question, "2 V_E1 is conservative (Sakai 2016)", run, verdict, caveats=("bootstrap",),
                            numbers={**nums, "n_sakai": r.n_exact, "n_paired": None if pd.isna(r.n_paired) else int(r.n_paired)}))
    return rows


def _cheapest_row(curve: pd.DataFrame | None, *, target: float, lead: str, pilot_row: Mapping,
                  max_assessors: int) -> Finding:
    question = f"Topics for Eρ² ≥ {target} ({lead}); is one assessor per topic (n_a = 1) the cheapest design?"
    paper = "more topics beat more assessors (Bodoff 2008, TREC)"
    pilot = f"n_t = {_n_ci(pilot_row['n'], pilot_row['low'], pilot_row['high'])} with the pilot's n_a = {pilot_row['n_a']}"
    if curve is None:
        return Finding(question, paper, f"{pilot}; no design with at most max_assessors = {max_assessors} per topic reaches it",
                       "cannot tell")
    best = curve[curve["n_assessors"] == curve.attrs["best"]].iloc[0]
    tied = curve[curve["within_noise"]]
    names = [f"{int(a)}" for a in tied["n_assessors"]]
    run = f"{pilot}; cheapest: {_design(best)}"
    if len(curve) == 1:
        return Finding(question, paper, run + " (the only design considered)", "not tested")
    others = tied[tied["n_assessors"] != best["n_assessors"]]
    run += ("; none within noise" if others.empty else
            "; within noise: " + ", ".join(f"n_a = {int(r.n_assessors)} ({r.cost:,.0f})" for r in others.itertuples()))
    never = [str(int(a)) for a, c in zip(curve["n_assessors"], curve["cost"]) if _missing(c)]
    if never:
        run += f"; unreachable with n_a = {claims.listing(never)}"
    one = "1" in names
    verdict = "holds" if names == ["1"] else "does not hold" if not one else "cannot tell"
    return Finding(question, paper, run, verdict, numbers={"within_noise": names, "best": int(best["n_assessors"])})


# --------------------------------------------------------------------------------------------
# split halves
# --------------------------------------------------------------------------------------------

def _inside(obs, lo, hi) -> bool | None:
    """Whether ``obs`` lies in [lo, hi]; ``None`` when a value is missing (nothing to judge)."""
    if not all(np.isfinite(float(v)) for v in (obs, lo, hi)):
        return None
    return bool(lo <= obs <= hi)


def _parts_verdict(parts: Mapping[str, list]) -> str:
    flat = [v for vs in parts.values() for v in vs if v is not None]
    if not flat:
        return "cannot tell"
    return "holds" if all(flat) else "does not hold" if not any(flat) else "holds in part"


def _count(ok: list, what: str) -> str:
    judged = [v for v in ok if v is not None]
    text = (f"inside the predicted interval at {sum(judged)} of {len(judged)} sizes" if len(judged) != 1 else
            f"{'inside' if judged[0] else 'outside'} the predicted interval at the one size")
    return text + (f" (not judged at {claims.plural(len(ok) - len(judged), 'size')}: {what})" if len(judged) < len(ok) else "")


def _tau_text(split: pd.DataFrame, key: str) -> tuple[str, list]:
    ok = [_inside(o, lo, hi) for o, lo, hi in zip(split["tau_observed"], split[f"{key}_low"], split[f"{key}_high"])]
    judged = split[[v is not None for v in ok]]
    above = int((judged["tau_observed"] > judged[key]).sum())
    where = f"at {above} of {len(judged)}" if len(judged) != 1 else ("there" if above else "not there")
    return (f"τ {_count(ok, 'no τ')}, above the point prediction {where}", ok)


def _size(r) -> str:
    return f"{int(r['n_topics'])} topics × {claims.plural(int(r['n_assessors']), 'assessor')}"


def split_lines(split: pd.DataFrame) -> list[str]:
    """One printed line per size: observed against the two predictions, and the conflicts."""
    out = []
    for _, r in split.iterrows():
        out.append(f"{_size(r)} (G-study of {int(r['rest'])} other topics): τ {claims.number(r['tau_observed'])}; "
                   f"Urbano {claims.bracket(r['tau_predicted'], r['tau_predicted_low'], r['tau_predicted_high'])}, normal "
                   f"{claims.bracket(r['tau_normal'], r['tau_normal_low'], r['tau_normal_high'])}; major conflicts "
                   f"{claims.number(r['conflicts_observed'])} vs {claims.bracket(r['conflicts_predicted'], r['conflicts_predicted_low'], r['conflicts_predicted_high'])}")
    return out


def _split_rows(split: pd.DataFrame) -> list[Finding]:
    tau, ok_tau = _tau_text(split, "tau_predicted")
    ok_c = [_inside(o, lo, hi) for o, lo, hi in zip(split["conflicts_observed"], split["conflicts_predicted_low"],
                                                    split["conflicts_predicted_high"])]
    conflicts = f"major conflicts {_count(ok_c, 'no significant pair')}"
    outside = split[[v is False for v in ok_c]]
    if not outside.empty:
        worst = outside.loc[(outside["conflicts_observed"] - outside["conflicts_predicted"]).abs().idxmax()]
        conflicts += (f" (outside: e.g. {claims.number(worst['conflicts_observed'])} vs "
                      f"{claims.bracket(worst['conflicts_predicted'], worst['conflicts_predicted_low'], worst['conflicts_predicted_high'])}"
                      f" at {_size(worst)})")
    rows = [Finding("Do Urbano et al.'s maps of the D-study's Eρ² predict τ and major conflicts between disjoint halves?",
                    "τ ≈ Eρ²^2.85, conflicts ≈ (1 − Eρ²)^2.63 (rough fits)", f"{tau}; {conflicts}",
                    _parts_verdict({"tau": ok_tau, "conflicts": ok_c}), caveats=("rough_map", "conditional"),
                    numbers={"cells": split.to_dict(orient="records")})]
    normal, ok_n = _tau_text(split, "tau_normal")
    rows.append(Finding("Does the D-study's Eρ² predict τ between disjoint halves as (2/π)·arcsin Eρ²?",
                        "exact for normal scores (Greiner's relation)", normal, _parts_verdict({"tau": ok_n}),
                        caveats=("conditional",)))
    return rows


def _linear_rows(linearity: Mapping[str, Mapping]) -> list[Finding]:
    rows = []
    for measure, v in linearity.items():
        if isinstance(v, str):
            continue
        diff = v["max_abs_difference"]
        rows.append(Finding(f"{measure}: is GT's mean over assessors the measure of the mean gains?",
                            "only for measures linear in the gains",
                            f"largest |difference| over systems {_difference(diff)}; τ between the two orders "
                            f"{v['kendall_tau']:.3f}", "holds" if diff < 1e-9 else "does not hold", numbers=dict(v)))
    return rows


def findings(*, published: Mapping[str, int], anova_m2: tuple[int, int], gt: pd.DataFrame, sizes: pd.DataFrame,
             lead: str, settings: Mapping, cheapest: pd.DataFrame | None, pilot_erho2: Mapping,
             split: pd.DataFrame | None, planted: Mapping | None, linearity: Mapping, unjudged: str,
             notes=(), footer: str = "") -> Findings:
    """The findings of notebook 06.

    Parameters
    ----------
    published : Sakai's published label -> this run's recomputed n (approximate).
    anova_m2 : (exact ANOVA n at m = 2, exact two-sample t n) for the pinned case.
    gt : :func:`helpers.design.published.gt_reproductions`.
    sizes : :func:`helpers.design.study.sizes_by_measure` (with a bootstrap: ``ratio_low/high``).
    lead : the measure the sizing rows read; settings: ``min_diff, beta, ci_width, target, max_assessors``
        and ``design`` (the facets).
    cheapest : :func:`helpers.design.cost.trade_off_bootstrap` of the lead measure, or None (unreachable).
    pilot_erho2 : ``{"n", "low", "high", "n_a"}``: topics for the target with the pilot's assessors.
    split : :func:`helpers.design.study.split_half_check`, or None when the pilot is too small.
    planted : :func:`summarise_planted`, or None (real or file data).
    linearity : measure -> :func:`helpers.design.linearity_check`'s attrs, or why it was not run.
    unjudged : how unjudged items were treated; notes: further bullets.
    """
    s = settings
    ok = all(published[k] == v for k, v in PUBLISHED.items())
    same = int(gt["same"].sum())
    rows = [Finding("Do Sakai's approximations give his published topic-set sizes?",
                    ", ".join(str(v) for v in PUBLISHED.values()),
                    ", ".join(str(published[k]) for k in PUBLISHED), "reproduced" if ok else "not reproduced",
                    numbers=dict(published)),
            Finding("With the exact F, does the ANOVA at m = 2 need the topics of the two-sample t?",
                    "629 = two-sample t (exact); the approximation gives 614",
                    f"{anova_m2[0]} and {anova_m2[1]}", "reproduced" if anova_m2 == (629, 629) else "not reproduced"),
            Finding("Do the G- and D-studies give gt4ireval's and Brennan's published values?",
                    f"{len(gt)} values (adhoc3, synthetic4, Brennan No. 3 and No. 4)",
                    f"{same} of {len(gt)} at the printed digits" + ("" if same == len(gt) else "; differ: " + ", ".join(
                        f"{r.data}: {r.quantity}" for r in gt[~gt["same"]].itertuples())),
                    "reproduced" if same == len(gt) else "not reproduced")]
    sim = planted is not None          # the pilot is simulated: its answers follow from the planted components
    sizing = _sizing_rows(sizes, lead=lead, min_diff=s["min_diff"], beta=s["beta"], ci_width=s["ci_width"])
    sizing.append(_cheapest_row(cheapest, target=s["target"], lead=lead, pilot_row=pilot_erho2,
                                max_assessors=s["max_assessors"]))
    rows += [_with(r, "by_construction") for r in sizing] if sim else sizing
    prose = [_RECONCILE, unjudged, sizes_sentence(sizes), *notes]
    if split is not None and len(split):
        rows += [_with(r, "simulated") for r in _split_rows(split)] if sim else _split_rows(split)
    if planted is not None:
        more, said = _planted_rows(planted, s["target"], pilot_erho2["n_a"], s.get("design") == "s x t x a")
        rows += more
        prose += said
    rows += _linear_rows(linearity)
    if not linearity:
        prose.append("Simulated scores carry no gains, so the check of non-linear measures needs real or file data.")
    caveats = {**CAVEATS, "normal": NORMAL_PLANTED if planted is not None else NORMAL_REAL}
    return Findings("06_study_design", rows, prose, caveats=caveats, general=("normal",), footer=footer)


def _with(row: Finding, caveat: str) -> Finding:
    return Finding(row.question, row.paper, row.run, row.verdict, (*row.caveats, caveat), row.numbers)


#: Why the sizing rows differ (said once).
_RECONCILE = ("Sakai's 2 V_E1 keeps the topic variance, which cancels in a paired difference; 2 V_E2 equals the "
              "G-study's 2(σ²_st + σ²_e/n_a) at the pilot's assessors. Eρ² asks for a stable ranking of all systems, "
              "not for power against minD.")
