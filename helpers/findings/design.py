"""Notebook 06's findings: how many topics, how many assessors (:mod:`helpers.design`).

Questions asked of every run: do Sakai's approximations give his published topic-set sizes, and
does the exact F at m = 2 equal the two-sample t; do the G- and D-studies give gt4ireval's and
Brennan's published values; for the paired t-test and the CI width how many topics, Sakai's
2 V_E1 beside the paired-difference variance 2 V_E2; is one assessor per topic the cheapest
design for the target Eρ² (Bodoff, IPM 2008), naming every design tied within the cost
bootstrap's noise; do the D-study's predictions hold on disjoint halves of the pilot, out of
sample (Urbano et al., SIGIR 2013, one row per map; the normal-theory relation). With planted
components: do the intervals on n cover the truth, and does the n each simulated pilot recommends
reach the power asked for. With real or file data: is GT's mean over assessors the measure of the
mean gains (measures of gains; binary measures say what holds instead).

Wording rules kept here: the prose opens with the answer in one sentence (:func:`answer_sentence`);
answers that follow from planted components take the verdict "by construction"; a tie is named
whole, never a single winner out of it; the split-half conflicts say how many uncorrected t-tests
they rest on; every cell and sentence stays under 50 words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings

NOTEBOOK = "06_study_design"

__all__ = ["PUBLISHED", "READ_BY", "check_parameters", "ignored_parameters", "pilot_note", "findings",
           "answer_sentence", "cheapest_lines", "coefficient_lines", "sizes_sentence", "summarise_planted", "planted_lines", "split_header",
           "split_lines", "linearity_line"]

#: Sakai's published sizes (alpha .05, beta .20) as STUDY-DESIGN's table pins them: label -> n.
PUBLISHED = {"paired t, σt² = .10, minDt = .05": 316, "paired t, σt² = .05, minDt = .10": 42,
             "ANOVA m = 10, σ² = .10, minD = .10": 313, "ANOVA m = 2, σ² = .10, minD = .05": 614,
             "CI, σt² = .10, δ = .10": 156}

CAVEATS = {
    "rough_map": "Urbano et al.'s maps from Eρ² to τ and conflicts are TREC fits, not laws.",
    "conditional": "Every split reuses the pilot's topics, so the split-half checks are conditional on this pilot.",
    "satterthwaite": "With crossed assessors Feldt's interval takes Satterthwaite's degrees of freedom: approximate.",
}
BOOTSTRAP = "Intervals on the t-test and CI sizes come from a topic bootstrap of the variance."
BOOTSTRAP_CROSSED = " With crossed assessors their bias's chi² interval is added."
NORMAL_PLANTED = ("Feldt's and Arteaga et al.'s intervals assume normal effects, as the planted pilots draw them: "
                  "untested for bounded, skewed scores.")
NORMAL_REAL = "Feldt's and Arteaga et al.'s intervals assume normal effects; scores bounded in [0, 1] are not."


#: Parameters each data mode reads; in another mode a value other than the default is refused
#: (it would be ignored). ``fill_assessor`` is read only with ``unjudged: "fill"`` besides.
READ_BY = {
    "simulated": ("components", "n_systems", "n_topics", "n_assessors", "replicates", "experiments", "scheduler",
                  "progress"),
    "pilot": ("measures", "rel", "unjudged", "fill_assessor"),           # dl19 and files
    "files": ("ratings_layout", "d_max", "facets"),                    # facets: also simulated
}


def _mode_of(name: str) -> tuple[str, ...] | None:
    """The data modes that read ``name`` (None: every mode)."""
    if name == "facets":
        return ("simulated", "files")
    for key, names in READ_BY.items():
        if name in names:
            return ("dl19", "files") if key == "pilot" else (key,)
    return None


def ignored_parameters(g: Mapping, defaults: Mapping) -> list[str]:
    """Parameters of ``g`` set off their default (``defaults``) that this run's data mode would not read."""
    out = []
    for name, default in defaults.items():
        modes = _mode_of(name)
        unread = (modes is not None and g["data"] not in modes) or (
            name == "fill_assessor" and g.get("unjudged") != "fill")
        if unread and name in g and g[name] != default:
            why = (f"data {g['data']!r}" if modes is not None and g["data"] not in modes else "unjudged 'common'")
            reads = ("unjudged: \"fill\"" if name == "fill_assessor" else
                     "data " + " or ".join(f"\"{m}\"" for m in modes))
            out.append(f"parameter {name!r} = {g[name]!r} is set but not read with {why}; only {reads} reads it")
    return out


def check_parameters(g: Mapping, defaults: Mapping | None = None) -> None:
    """Check notebook 06's parameters (``g``: the notebook's namespace); ``ValueError`` names the parameter.

    Besides ranges: a parameter this run's data mode does not read must keep its default
    (``defaults``: the notebook's, read from its parameters cell when not given), so that no
    setting is silently ignored (:data:`READ_BY`).
    """
    from ..design import planted
    from ..notebook import params
    from ..stats.summary import min_draws

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
    boot = min_draws(0.95)                     # a 95% percentile interval needs this many resamples
    for name, low in (("max_assessors", 1), ("split_draws", 2), ("replicates", 2), ("experiments", 1),
                      ("n_systems", 2), ("n_topics", 2), ("n_assessors", 2), ("n_boot", boot), ("cost_boot", boot),
                      ("rel", 1), ("d_max", 1)):
        if name in g and (isinstance(g[name], bool) or not isinstance(g[name], int) or g[name] < low):
            raise ValueError(f"{name} must be an integer >= {low}, got {g[name]!r}")
    if defaults is None:
        defaults = params.notebook_defaults(NOTEBOOK)
    unread = ignored_parameters(g, defaults)
    if unread:
        raise ValueError("\n".join(unread))
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


def _tied(curve: pd.DataFrame) -> pd.DataFrame:
    """The designs within the cost bootstrap's noise of the cheapest (the cheapest included), by n_a."""
    return curve[curve["within_noise"]].sort_values("n_assessors")


def _unreachable(curve: pd.DataFrame) -> list[str]:
    return [str(int(a)) for a, c in zip(curve["n_assessors"], curve["cost"]) if _missing(c)]


def cheapest_lines(curve: pd.DataFrame | None, *, target: float, measure: str, cost_topic: float,
                   cost_judgment: float, max_assessors: int) -> list[str]:
    """The cheapest design for Eρ² >= target, or every design tied within the cost bootstrap's
    noise (one line each), never one of a tie (``curve`` from
    :func:`helpers.design.cost.trade_off_bootstrap`; ``None`` when no design reaches the target)."""
    if curve is None:
        return [f"No design reaches Eρ² ≥ {target} ({measure}) with at most max_assessors = {max_assessors} per topic: "
                "the error that does not shrink with topics is too large."]
    at = f"for Eρ² ≥ {target} ({measure}) at {cost_topic:g} per topic and {cost_judgment:g} per judgment set"
    tied = _tied(curve)
    never = _unreachable(curve)
    tail = [f"With n_a = {claims.listing(never)} the target is unreachable."] if never else []
    if len(curve) == 1:
        return [f"The only design considered {at} is {_design(tied.iloc[0])}."] + tail
    if len(tied) == 1:
        return [f"The cheapest design {at} is {_design(tied.iloc[0])}; no other is within the cost bootstrap's "
                "noise."] + tail
    every = "All" if len(tied) == len(curve) - len(never) else f"{len(tied)} of the {len(curve) - len(never)}"
    return ([f"{every} designs that reach the target tie as the cheapest {at}, within the cost bootstrap's noise:"]
            + [f"  {_design(r)}" for _, r in tied.iterrows()] + tail)


def _design(r: pd.Series) -> str:
    """``"n_a = 3 (37 [17, 68] topics, cost 703)"``: assessors per topic, topics with their interval, cost."""
    return f"n_a = {int(r['n_assessors'])} ({_n_ci(r['n_topics'], r['n_low'], r['n_high'])} topics, cost {r['cost']:,.0f})"


def linearity_line(measure: str, attrs) -> str:
    """The printed line of the non-linearity check (``attrs``: the check's, or what holds instead)."""
    if isinstance(attrs, str):
        return f"{measure}: {attrs}"
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
    rows, prose, never = [], [], []
    for key, question, interval in (
            ("erho2", f"Does the interval on the topics for Eρ² ≥ {target} cover the planted truth", "Feldt's interval"),
            ("t", "Does the interval on the topics for the t-test cover the planted truth", "topic bootstrap of V_E2")):
        cov = p[key]
        if cov["true_n"] is None:
            never.append("Eρ²" if key == "erho2" else "the t-test")
            continue
        k, n = int(cov["covered"]), int(cov["pilots"])
        lo, hi = _proportion_ci(k, n, "wilson")
        cav = ("simulated", "satterthwaite") if crossed and key == "erho2" else ("simulated",)
        rows.append(Finding(f"{question} ({cov['true_n']})?", f"{cov['level']:.0%} ({interval})", _coverage_text(cov),
                            "agrees" if lo <= cov["level"] <= hi else "differs", caveats=cav, numbers=dict(cov)))
    if never:
        prose.append(f"The planted truth for {claims.listing(never)} is unreachable with "
                     f"{claims.plural(n_assessors, 'assessor')} per topic: no coverage to check.")
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
        phrase += f", above 1 for {claims.share(len(above), n, 'measures').text}"
    return verdict, phrase, nums


def _sizing_rows(sizes: pd.DataFrame, *, lead: str, min_diff: float, beta: float, ci_width: float) -> list[Finding]:
    verdict, ratio, nums = _conservative(sizes, lead)
    rows = []
    for method, question in (("paired t", f"Topics for a paired t-test (minD = {min_diff:g}, power {1 - beta:.2f}; {lead})?"),
                             ("CI width", f"Topics for a CI of width ≤ {ci_width:g} on a mean difference ({lead})?")):
        r = sizes[(sizes["measure"] == lead) & (sizes["method"] == method)].iloc[0]
        run = (f"2 V_E1: {_n_ci(r.n_exact, r.n_exact_low, r.n_exact_high)}; "
               f"2 V_E2: {_n_ci(r.n_paired, r.n_paired_low, r.n_paired_high)}")
        run += f"; {ratio}" if method == "paired t" else ""
        rows.append(Finding(question, "Sakai: 2 V_E1, conservative", run, verdict, caveats=("bootstrap",),
                            numbers={**nums, "n_sakai": r.n_exact, "n_paired": None if pd.isna(r.n_paired) else int(r.n_paired)}))
    return rows


def _cheapest_row(curve: pd.DataFrame | None, *, target: float, lead: str, max_assessors: int) -> Finding:
    """Bodoff's claim at equal cost: is one assessor per topic the cheapest design? Every design tied
    within the cost bootstrap's noise is named; none is picked out of a tie."""
    question = f"Is one assessor per topic the cheapest design for Eρ² ≥ {target} ({lead})?"
    paper = "more topics beat more assessors (Bodoff 2008)"
    if curve is None:
        return Finding(question, paper, f"no design with n_a ≤ {max_assessors} reaches it", "cannot tell")
    tied = _tied(curve)
    names = [f"{int(a)}" for a in tied["n_assessors"]]
    short = [f"n_a = {int(r.n_assessors)} ({_n(r.n_topics)} topics, {r.cost:,.0f})" for r in tied.itertuples()]
    if len(curve) == 1:
        return Finding(question, paper, f"{short[0]}, the only design considered", "not tested")
    never = _unreachable(curve)
    every = len(short) == len(curve) - len(never)
    run = (f"cheapest: {short[0]}" if len(short) == 1 else
           f"{'all ' if every else ''}tied within noise: {'; '.join(short)}")
    if never:
        run += f"; n_a = {claims.listing(never)} unreachable"
    verdict = "holds" if names == ["1"] else "does not hold" if "1" not in names else "cannot tell"
    return Finding(question, paper, run, verdict, numbers={"within_noise": names, "best": int(curve.attrs["best"])})


def answer_sentence(sizes: pd.DataFrame, *, lead: str, target: float, pilot_erho2: Mapping,
                    curve: pd.DataFrame | None) -> str:
    """The answer in one sentence: topics for the t-test (2 V_E2) and for Eρ² at the pilot's
    assessors, and the cheapest number of assessors per topic (every one of a tie)."""
    t = sizes[(sizes["measure"] == lead) & (sizes["method"] == "paired t")].iloc[0]
    e = pilot_erho2
    text = (f"Answer for {lead}: a paired t-test needs {_n_ci(t.n_paired, t.n_paired_low, t.n_paired_high)} topics "
            f"(2 V_E2); Eρ² ≥ {target} needs {_n_ci(e['n'], e['low'], e['high'])} with "
            f"{claims.plural(e['n_a'], 'assessor')} per topic")
    if curve is None:
        return text + "; no number of assessors per topic reaches it at every size of the curve."
    tied = [str(int(a)) for a in _tied(curve)["n_assessors"]]
    if len(tied) == 1:
        return text + f"; {claims.plural(int(tied[0]), 'assessor')} per topic is the cheapest."
    if len(tied) == len(curve) - len(_unreachable(curve)):
        return text + f"; every number of assessors per topic that reaches it ({claims.listing(tied)}) ties as the " \
                      "cheapest, within noise."
    return text + f"; {claims.listing(tied, 'or')} assessors per topic tie as the cheapest, within noise."


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
    return (f"τ {_count(ok, 'no τ or no interval')}; above the point prediction {where}", ok)


def _size(r) -> str:
    return f"{int(r['n_topics'])} topics × {claims.plural(int(r['n_assessors']), 'assessor')}"


def split_header(split: pd.DataFrame, alpha: float) -> str:
    """What the printed split-half lines hold, with the count of uncorrected t-tests behind the conflicts."""
    r = split.iloc[0]
    return (f"Per size: τ observed, the mean over {int(r['draws'])} splits; predicted: point [interval from Feldt's "
            f"interval of Erho2], averaged over the splits. Major conflicts pool {int(r['tests']):,} paired t-tests a "
            f"size at alpha = {alpha:g}, uncorrected for multiple testing.")


def _predicted(v, lo, hi) -> str:
    """A prediction with its interval, or ``(no interval)`` when the G-study gave none."""
    if _missing(lo) or _missing(hi) or not (np.isfinite(float(lo)) and np.isfinite(float(hi))):
        return f"{claims.number(v)} (no interval)"
    return claims.bracket(v, lo, hi)


def coefficient_lines(gd: pd.DataFrame, target: float) -> list[str]:
    """One printed line per measure of the G- and D-study table: Eρ², Φ and the topics for the target."""
    return [f"{r.measure}: Erho2 {_predicted(r.erho2, r.erho2_low, r.erho2_high)}, Phi "
            f"{_predicted(r.phi, r.phi_low, r.phi_high)}; topics for Erho2 >= {target}: "
            f"{_n_ci(r.topics_needed, r.topics_low, r.topics_high)}" for r in gd.itertuples()]


def split_lines(split: pd.DataFrame) -> list[str]:
    """Two printed lines per size: τ observed against the two predictions; the major conflicts."""
    out = []
    for _, r in split.iterrows():
        none = int(r.get("no_interval", 0) or 0)
        out.append(f"{_size(r)} (G-study of {int(r['rest'])} other topics): τ {claims.number(r['tau_observed'])}; "
                   f"Urbano {_predicted(r['tau_predicted'], r['tau_predicted_low'], r['tau_predicted_high'])}; normal "
                   f"{_predicted(r['tau_normal'], r['tau_normal_low'], r['tau_normal_high'])}")
        out.append(f"  major conflicts {claims.number(r['conflicts_observed'])} vs "
                   f"{_predicted(r['conflicts_predicted'], r['conflicts_predicted_low'], r['conflicts_predicted_high'])}"
                   + (f"; {none} of {int(r['draws'])} splits without an interval" if none else ""))
    return out


def _split_rows(split: pd.DataFrame, *, simulated: bool) -> list[Finding]:
    """Urbano et al.'s two maps (τ, major conflicts) and the normal-theory τ, one row each. With a
    simulated pilot the normal-theory τ holds by construction (its scores are drawn normal)."""
    sim = ("simulated",) if simulated else ()
    tau, ok_tau = _tau_text(split, "tau_predicted")
    rows = [Finding("Does Urbano et al.'s map of Eρ² predict τ between disjoint halves?", "τ ≈ Eρ²^2.85 (a TREC fit)",
                    tau, _parts_verdict({"tau": ok_tau}), caveats=("rough_map", "conditional", *sim))]
    ok_c = [_inside(o, lo, hi) for o, lo, hi in zip(split["conflicts_observed"], split["conflicts_predicted_low"],
                                                    split["conflicts_predicted_high"])]
    conflicts = _count(ok_c, "no significant pair or no interval")
    outside = split[[v is False for v in ok_c]]
    if not outside.empty:
        worst = outside.loc[(outside["conflicts_observed"] - outside["conflicts_predicted"]).abs().idxmax()]
        conflicts += (f"; e.g. {claims.number(worst['conflicts_observed'])} vs "
                      f"{claims.bracket(worst['conflicts_predicted'], worst['conflicts_predicted_low'], worst['conflicts_predicted_high'])}"
                      f" at {_size(worst)}")
    tests = int(split["tests"].iloc[0]) if "tests" in split else None
    if tests is not None:
        conflicts += f"; {tests:,} t-tests a size"
    rows.append(Finding("Does Urbano et al.'s map of Eρ² predict the rate of major conflicts?",
                        "conflicts ≈ (1 − Eρ²)^2.63 (a TREC fit)", conflicts, _parts_verdict({"conflicts": ok_c}),
                        caveats=("rough_map", "conditional", *sim, "uncorrected"),
                        numbers={"cells": split.to_dict(orient="records")}))
    normal, ok_n = _tau_text(split, "tau_normal")
    verdict = _parts_verdict({"tau": ok_n})
    built = simulated and verdict == "holds"
    rows.append(Finding("Does the D-study's Eρ² predict τ between disjoint halves as (2/π)·arcsin Eρ²?",
                        "exact for normal scores (Greiner)", normal, "by construction" if built else verdict,
                        caveats=("by_construction", "conditional") if built else ("conditional", *sim)))
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


def pilot_note(data: str, *, unjudged: str, fill_assessor: str, items: Mapping[str, int] | None = None,
               dl19: Mapping | None = None) -> str:
    """What was scored: every cell of a simulated pilot; for real and file data how items an
    assessor did not judge were treated (``items``: labels used per judgment set), and for DL-19
    which of NIST's labels were used (``dl19``: :func:`helpers.design.dl19_pilot`'s counts)."""
    if data == "simulated":
        return "The simulated pilot has a score for every cell: no item is unjudged."
    used = sorted(set((items or {}).values()))
    count = f"{used[0]:,} items" if len(used) == 1 else "items (" + ", ".join(f"{a}: {n:,}" for a, n in items.items()) + ")"
    text = (f"Each judgment set was scored on the {count} all sets of its topic judged." if unjudged == "common" else
            f"Items an assessor did not judge took {fill_assessor}'s label, where {fill_assessor} judged them.")
    if dl19 is None:
        return text
    other = dl19["nist_judged"] - dl19["reannotated"]
    fill = (f" The {dl19['one_label']} items with one re-annotator's label are left out."
            if unjudged == "common" else f" Only the {dl19['one_label']} items with one re-annotator's label are filled.")
    return (f"DL-19: NIST's labels are used on the {dl19['reannotated']:,} re-annotated passages only; its "
            f"{other:,} other judged passages count as unjudged (non-relevant) for every set, NIST's too. " + text + fill)


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
    linearity : measure -> :func:`helpers.design.linearity_check`'s attrs, or what holds instead (a string).
    unjudged : :func:`pilot_note` (what was scored); notes: further bullets.

    With a simulated pilot (``planted`` given) the answers that follow from the planted components
    (V_E1 against V_E2, the cheapest design, the normal-theory τ) take the verdict "by construction";
    the coverage and power checks are checks of the method, which can fail, and keep their verdicts.
    """
    s = settings
    ok = all(published[k] == v for k, v in PUBLISHED.items())
    same = int(gt["same"].sum())
    differ = [f"{r.data}: {r.quantity}" for r in gt[~gt["same"]].itertuples()]
    rows = [Finding("Do Sakai's approximations give his published topic-set sizes?",
                    ", ".join(str(v) for v in PUBLISHED.values()),
                    ", ".join(str(published[k]) for k in PUBLISHED), "reproduced" if ok else "not reproduced",
                    numbers=dict(published)),
            Finding("With the exact F, does the ANOVA at m = 2 need the topics of the two-sample t?",
                    "629 (the approximation: 614)", f"{anova_m2[0]} and {anova_m2[1]}",
                    "reproduced" if anova_m2 == (629, 629) else "not reproduced"),
            Finding("Do the G- and D-studies give gt4ireval's and Brennan's published values?",
                    f"{len(gt)} values of 4 data sets",
                    f"{same} of {len(gt)} at the printed digits" + ("" if not differ else "; differ: " + "; ".join(
                        differ[:3] + ([f"{len(differ) - 3} more"] if len(differ) > 3 else []))),
                    "reproduced" if same == len(gt) else "not reproduced")]
    sim = planted is not None          # the pilot is simulated: its answers follow from the planted components
    sizing = _sizing_rows(sizes, lead=lead, min_diff=s["min_diff"], beta=s["beta"], ci_width=s["ci_width"])
    sizing.append(_cheapest_row(cheapest, target=s["target"], lead=lead, max_assessors=s["max_assessors"]))
    rows += [_built(r) for r in sizing] if sim else sizing
    binary = [m for m, v in linearity.items() if isinstance(v, str)]
    prose = [answer_sentence(sizes, lead=lead, target=s["target"], pilot_erho2=pilot_erho2, curve=cheapest),
             _RECONCILE, *([] if sim else [unjudged]), *notes]
    if split is not None and len(split):
        rows += _split_rows(split, simulated=sim)
    if planted is not None:
        more, said = _planted_rows(planted, s["target"], pilot_erho2["n_a"], s.get("design") == "s x t x a")
        rows += more
        prose += said
    rows += _linear_rows(linearity)
    if binary:
        prose.append(f"{claims.listing(binary)} {'reads' if len(binary) == 1 else 'read'} binary labels, not gains: "
                     "section 6 says what holds instead of comparing with the mean gains.")
    if not linearity:
        prose.append("Simulated scores carry no gains: the linearity check needs real or file data.")
    crossed = s.get("design") == "s x t x a"
    caveats = {**CAVEATS, "normal": NORMAL_PLANTED if sim else NORMAL_REAL,
               "bootstrap": BOOTSTRAP + (BOOTSTRAP_CROSSED if crossed else "")}
    return Findings(NOTEBOOK, rows, prose, caveats=caveats, general=("normal",), footer=footer)


def _built(row: Finding) -> Finding:
    """A row whose answer follows from the planted components: verdict "by construction"."""
    return Finding(row.question, row.paper, row.run, "by construction", (*row.caveats, "by_construction"), row.numbers)


#: Why the sizing rows differ (said once).
_RECONCILE = ("Sakai's 2 V_E1 keeps the topic variance, which cancels in a paired difference; 2 V_E2 is the "
              "G-study's 2(σ²_st + σ²_e/n_a). Eρ² asks for a stable ranking, not for power against minD.")
