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

Wording rules kept here: the table opens with the answer (:func:`answer_sentence`, a design at the
searched range's edge never called the cheapest); answers that follow from planted components, and the checks of the machinery, go to the appendix
table; a tie is named whole; every cell and sentence stays under 50 words.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..design.study import cluster_rate
from ..stats.summary import min_draws
from ..notebook import claims
from ..notebook.findings import Finding, Findings
from .design_split import coefficient_lines, inside as _inside, interval_method, missing as _missing, n_ci as _n_ci, \
    never_text as _never, unreachable_text as _unreachable_text, split_header, split_lines, split_rows as _split_rows, \
    who_text as _who
from .design_cost import span as _span, answer_rows as _answer_rows, design_question as _design_q, \
    topics_question as _topics_q, reach_verdict as _reach, reach_part as _part, beside_answer as _beside, ties_caveat as _ties_caveat, drop_caveat as _drop, break_even_lines, break_even_row as _break_even_row, \
    break_even_text, cheapest_lines, edge_note, tied, undecided, unreachable, every_design as _every, paired_label, topics_paper
from .design_rule import beside, equality_verdict, planted_truths, ses_from, side, t_interval
from .design_pilot import DL19_SCOPE, judgment_sets_note, pilot_note, scored as _scored, truncated as _truncated, \
    crossed_line, crossed_t_test, crossed_t_text, t_inside as _t_inside
from .design_published import PUBLISHED, SAKAI_CASES, DesignFindings, gt_line, published_lines, published_rows, \
    sakai_published

NOTEBOOK = "06_study_design"

__all__ = ["PUBLISHED", "SAKAI_CASES", "sakai_published", "READ_BY", "check_parameters", "ignored_parameters", "pilot_note", "findings",
           "answer_sentence", "published_lines", "break_even_lines", "break_even_text", "judgment_sets_note", "at_lines", "recommended_assessors", "edge_note", "crossed_reading", "crossed_line", "cheapest_lines", "coefficient_lines", "sizes_sentence", "summarise_planted", "planted_lines", "planted_truths", "split_header",
           "split_lines", "linearity_line", "interval_method", "gt_line", "DesignFindings"]

CAVEATS = {
    "rough_map": "Urbano et al.'s maps are TREC fits, not laws.",
    "conditional": "Splits reuse the pilot's topics: conditional on it.",
    "satterthwaite": "Crossed: the Satterthwaite intervals (Feldt's formula on composite mean squares) are approximate.",
    "same_variance": "Planted checks draw from the variance defining their truth: only estimation noise can fail them.",
    "ties": "'Within noise': uncorrected 95% comparisons, the cheapest chosen on the same pilot.",
    "clustered": "Power intervals are clustered by pilot: a pilot's tests share its n.",
    "identity": "m(n−1)·V_E1 = SS_topics + (m−1)(n−1)·V_E2, so V_E1 exceeds V_E2 whenever topics vary more than the "
                "residual: Sakai's 2 V_E1 is then conservative by definition.",
}
BOOTSTRAP = "t-test and CI sizes: topic-bootstrap intervals, G-study-scaled to other assessor counts."
BOOTSTRAP_CROSSED = (" Crossed: the t-test adds the assessors' bias (chi² interval); the bias shifts a CI, not its "
                     "width, so its coverage of the population difference falls below 95%.")
NORMAL_PLANTED = "The Eρ² and Φ intervals assume normal effects (as planted), not bounded scores."
NORMAL_REAL = "The Eρ² and Φ intervals assume normal effects; scores bounded in [0, 1] are not."


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
    from ..design.sakai import MIN_BOOT

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
    boot = MIN_BOOT                # resamples of a 95% percentile interval: five beyond each end
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

def _n(v) -> str:
    return "unreachable" if _missing(v) else f"{int(v):,}"


def _end(v) -> str:
    return "unbounded" if _missing(v) else f"{int(v):,}"


def _pct(x: float, target: float | None = None) -> str:
    """A proportion as a percentage with one decimal (an interval bound beside a share); compared with a
    ``target`` proportion, more decimals while it would round to it (:func:`beside`)."""
    return f"{100 * x:.1f}%" if target is None else f"{beside(100 * x, 100 * target, 1)}%"


def _proportion_ci(k: int, n: int, method: str, level: float = 0.95) -> tuple[float, float]:
    """``level`` interval of a binomial proportion (scipy's ``binomtest``: Wilson, or exact Clopper-Pearson)."""
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(level, method=method)
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
    cases = [f"{r.measure}, {r.method}: {int(r.n_approx):,} vs {int(r.n_exact):,}" for r in at.itertuples()]
    shown = cases if len(cases) <= 3 else cases[:2] + [f"{len(cases) - 2} more"]
    return (f"Exact and approximate topic counts differ by at most {claims.plural(int(gap.max()), 'topic')} "
            f"({claims.plural(len(cases), 'case')}: {'; '.join(shown)}).")


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
    # each pilot's tests share its n: the pilot is the cluster of the power's interval
    rate, se, lo, hi = cluster_rate(tested["rejections"].to_numpy(dtype=float),
                                    tested["experiments"].to_numpy(dtype=float), level)
    few = len(tested) < min_draws(level)          # too few pilots for a 95% interval: the SE only
    # the verdicts read Bonferroni intervals over the checks this run makes (coverage x 2, power)
    checks = int(not pd.isna(truth)) + int(not pd.isna(t_truth)) + int(not tested.empty)
    adj = 1 - (1 - level) / max(checks, 1)
    _, _, adj_lo, adj_hi = cluster_rate(tested["rejections"].to_numpy(dtype=float),
                                        tested["experiments"].to_numpy(dtype=float), adj)
    return {"checks": checks, "verdict_level": adj,
        "erho2": {"covered": int(rep["covered"].fillna(False).astype(bool).sum()) if reach else None,
                  "pilots": len(rep), "level": level, "verdict_level": adj, "true_n": int(truth) if reach else None},
        "t": {"covered": int(rep["t_covered"].fillna(False).astype(bool).sum()) if not pd.isna(t_truth) else None,
              "pilots": len(rep), "level": level, "verdict_level": adj,
              "true_n": None if pd.isna(t_truth) else int(t_truth)},
        "power": {"rejections": int(rep["rejections"].sum()), "wrong_sign": int(rep["wrong_sign"].sum()),
                  "experiments": int(rep["experiments"].sum()), "target": 1 - beta,
                  "pilots_tested": len(tested), "pilots": len(rep),
                  "low": None if few or np.isnan(lo) else lo, "high": None if few or np.isnan(hi) else hi,
                  "cluster_se": None if np.isnan(se) else se, "verdict_level": adj,
                  "verdict_low": None if few or np.isnan(adj_lo) else adj_lo,
                  "verdict_high": None if few or np.isnan(adj_hi) else adj_hi,
                  "n_min": None if tested.empty else int(ns.min()), "n_max": None if tested.empty else int(ns.max()),
                  "sakai_rejections": int(rep["sakai_rejections"].sum()),
                  "sakai_experiments": int(rep["sakai_experiments"].sum()),
                  "sakai_n_min": int(rep["sakai_n"].min()), "sakai_n_max": int(rep["sakai_n"].max())}}


#: Fewest simulated pilots a coverage verdict is read from (the help of ``replicates``): with fewer the
#: Wilson interval is wider than the 90-99% band the check asks about.
MIN_COVERAGE_PILOTS = 100


def _coverage_text(cov: Mapping) -> str:
    k, n = int(cov["covered"]), int(cov["pilots"])
    lo, hi = _proportion_ci(k, n, "wilson")
    v_lo, v_hi = _proportion_ci(k, n, "wilson", cov.get("verdict_level", cov["level"]))   # the verdict's (Bonferroni)
    few = (f"; too few replicates ({n} < {MIN_COVERAGE_PILOTS}) for a verdict"
           if n < MIN_COVERAGE_PILOTS else "")
    way = {"above": "over-covers (conservative; its whole-topic ends, rounded outward, widen it)",
           "below": "under-covers (anti-conservative)"}.get(
        side(v_lo, v_hi, cov["level"]), f"covers at {cov['level']:.0%} within noise")
    return (f"{way}: {k:,} of {n:,} pilots ({_pct(k / n)}); Wilson 95% [{_pct(lo, cov['level'])}, "
            f"{_pct(hi, cov['level'])}]{few}")


def _bonferroni(p: Mapping) -> str:
    """The multiple-testing caveat of the planted checks, with the run's count of checks and level."""
    return (f"Coverage and power verdicts: one test each over the run's replicates, Bonferroni-corrected over its "
            f"{p.get('checks', 3)} checks (each verdict reads a {100 * p.get('verdict_level', 0.95):.1f}% interval; "
            "the printed intervals are 95%).")


def _range(lo, hi) -> str:
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"


def planted_lines(p: Mapping, *, target: float, n_assessors: int) -> list[str]:
    """The printed lines of the planted-truth checks."""
    e, t, pw = p["erho2"], p["t"], p["power"]
    lines = [(f"topics for Erho2 >= {target}: the planted truth is unreachable with "
              f"{claims.plural(n_assessors, 'assessor')}; no coverage to check") if e["true_n"] is None else
             f"topics for Erho2 >= {target}: planted truth {e['true_n']}; the 95% interval {_coverage_text(e)}"]
    lines.append("topics for the t-test: the planted truth is unreachable (the crossed assessors' bias); no coverage "
                 "to check" if t["true_n"] is None else
                 f"topics for the t-test: planted truth {t['true_n']}; the 95% interval {_coverage_text(t)}")
    if pw["experiments"]:
        lines.append(f"power at each pilot's n ({_range(pw['n_min'], pw['n_max'])} topics): {_power_text(pw)}; "
                     f"{claims.plural(pw['wrong_sign'], 'rejection')} of the wrong sign; target {pw['target']:.2f}")
        lines.append(f"  {_tested_text(pw)}; the interval (or SE) treats each pilot's tests as one cluster")
    else:
        lines.append("no pilot recommended a reachable number of topics: no power to measure")
    s_k, s_n = pw["sakai_rejections"], pw["sakai_experiments"]
    lines.append(f"simulated power at each pilot's Sakai n from 2 V_E1 ({_range(pw['sakai_n_min'], pw['sakai_n_max'])} topics): "
                 f"{s_k / s_n:.3f} over {s_n:,} simulated tests")
    return lines


def _planted_rows(p: Mapping, target: float, n_assessors: int, crossed: bool) -> tuple[list[Finding], list[str]]:
    rows, prose, never = [], [], []
    for key, question, interval in (
            ("erho2", f"Does the interval on the topics for Eρ² ≥ {target} cover the planted truth",
             f"{'Satterthwaite' if crossed else 'Feldt'}'s interval"),
            ("t", "Does the interval on the topics for the t-test cover the planted truth", "topic bootstrap of V_E2")):
        cov = p[key]
        if cov["true_n"] is None:
            never.append("Eρ²" if key == "erho2" else "the t-test")
            continue
        k, n = int(cov["covered"]), int(cov["pilots"])
        lo, hi = _proportion_ci(k, n, "wilson", cov.get("verdict_level", cov["level"]))   # Bonferroni
        cav = ("simulated", "same_variance", "bonferroni", *(("satterthwaite",) if crossed and key == "erho2" else ()))
        rows.append(Finding(f"{question} ({cov['true_n']})?", f"{cov['level']:.0%} ({interval})", _coverage_text(cov),
                            "cannot tell" if n < MIN_COVERAGE_PILOTS else
                            equality_verdict(lo, hi, cov["level"], inside="by construction"), caveats=cav,
                            numbers=dict(cov)))
    if never:
        prose.append(f"Planted truth for {claims.listing(never)} unreachable with "
                     f"{claims.plural(n_assessors, 'assessor')} per topic: no coverage to check.")
    pw = p["power"]
    if pw["experiments"]:
        s = pw["sakai_rejections"] / pw["sakai_experiments"]
        at = f" at {_range(pw['n_min'], pw['n_max'])} topics"
        lo, hi = _power_interval(pw)
        rows.append(Finding("Does the n each simulated pilot recommends reach the power asked for?",
                            f"1 − β = {pw['target']:.2f}",
                            f"{_power_text(pw, at)}; {_wrong_sign_text(pw)}; {_tested_text(pw)}; simulated power at Sakai's n: {s:.3f}",
                            equality_verdict(lo, hi, pw["target"], inside="by construction"),
                            caveats=("simulated", "same_variance", "clustered", "bonferroni"), numbers=dict(pw)))
    return rows, prose


def _power_interval(pw: Mapping) -> tuple[float, float]:
    """The interval the power's verdict reads (:mod:`helpers.findings.design_rule`): the pilot-clustered
    95% interval, or over fewer than 40 pilots Student's t about the rate from its SE."""
    if pw.get("verdict_low") is not None and pw.get("verdict_high") is not None:
        return pw["verdict_low"], pw["verdict_high"]
    se, level = pw.get("cluster_se"), pw.get("verdict_level", 0.95)
    return t_interval(pw["rejections"] / pw["experiments"], se, pw["pilots_tested"], level) if se else (np.nan, np.nan)


def _wrong_sign_text(pw: Mapping) -> str:
    """``"29 of the 131 rejections (22%) of the wrong sign"`` (``"0 rejections of the wrong sign"``):
    of every significant test, those whose sign is not the true difference's."""
    k, n = pw["wrong_sign"], pw["rejections"] + pw["wrong_sign"]
    if not k:
        return "0 rejections of the wrong sign"
    return f"{k:,} of the {n:,} rejections ({100 * k / n:.0f}%) of the wrong sign"


def _power_text(pw: Mapping, where: str = "") -> str:
    """``"0.798 [0.785, 0.810] over 4,000 tests"`` (+ ``where``) with the pilot-clustered interval, or
    its SE over fewer than 40 pilots (no 95% interval over so few clusters)."""
    k, n = pw["rejections"], pw["experiments"]
    if pw.get("low") is not None and pw.get("high") is not None:
        t = pw["target"]
        return f"{k / n:.3f} [{beside(pw['low'], t, 3)}, {beside(pw['high'], t, 3)}] over {n:,} tests{where}"
    se = pw.get("cluster_se")
    far = f" ({ses_from(k / n, se, pw['target'])})" if se else ""
    return (f"{k / n:.3f} over {n:,} tests{where}; " + ("" if se is None else f"SE {se:.3f}{far}, ")
            + f"too few pilots ({pw['pilots_tested']}) for a 95% interval")


def _tested_text(pw: Mapping) -> str:
    """Which simulated pilots the power rests on: every one, or those whose n was reachable."""
    if pw["pilots_tested"] == pw["pilots"]:
        return f"tests in all {pw['pilots']:,} pilots"
    return f"tests in the {pw['pilots_tested']:,} of {pw['pilots']:,} pilots whose n was reachable"


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
    verdict = {"above": "holds", "below": "does not hold"}.get(side(row.ratio_low, row.ratio_high, 1.0), "cannot tell")
    phrase = f"V_E1 / V_E2 {claims.bracket(row.ratio, row.ratio_low, row.ratio_high, 1)}"  # ends: ±0.05 MC noise
    if n > 1:
        phrase += f", above 1 for {len(above)} of {n} measures"
    return verdict, phrase, nums


def _sakai_power(r, power: float, said: bool = False) -> tuple[str | None, str]:
    """(verdict override, text) of the paired t-test's power at Sakai's n when the crossed assessors'
    bias caps the power (``r``: the lead's t-test row of :func:`helpers.design.study.sizes_by_measure`).
    "does not hold" when the power's interval lies below ``power`` (1 - beta), "cannot tell" when it
    straddles it; ``(None, "")`` without a bias.  ``said``: the cap at the pilot's assessors is already
    in the row (not repeated)."""
    cap = float(r.get("power_cap", 1.0)) if not _missing(r.get("power_cap", 1.0)) else 1.0
    if cap >= 1.0 or _missing(r.get("power_sakai")):
        return None, ""
    p, lo, hi = (r.get(k) for k in ("power_sakai", "power_sakai_low", "power_sakai_high"))
    has = not (_missing(lo) or _missing(hi))
    clash = has and any(f"{float(v):.3f}" == f"{power:.3f}" and float(v) != power for v in (p, lo, hi))
    d = max(len(beside(v, power, 3).split(".")[-1]) for v in (p, lo, hi)) if clash else 3   # one precision
    shown = (f"{p:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]" if clash else claims.bracket(p, lo, hi) if has else f"{p:.3f}")
    text = f"analytic power at this pilot's Sakai n {shown}" + (
        f" (bias cap {beside(cap, power)}: no n reaches {power:.2f})" if cap <= power and not said else "")
    if not has:
        return ("cannot tell" if p < power else None), text
    return {"below": "does not hold", "inside": "cannot tell"}.get(side(lo, hi, power)), text


def _sizing_rows(sizes: pd.DataFrame, *, lead: str, min_diff: float, beta: float, ci_width: float,
                 at: pd.DataFrame | None = None, n_a: int | None = None, ks=(), crossed: bool = False) -> list[Finding]:
    """Topics for the t-test and the CI: 2 V_E2 at the recommended assessors (``at``), then Sakai's
    2 V_E1 (and 2 V_E2 when the pilot's ``n_a`` is not among the recommended ``ks``).  With crossed
    assessors the t-test row states the power reached at Sakai's n and, when the assessors' bias
    caps the power below 1 - beta, that no n reaches it: Sakai's n is then not conservative (the
    verdict follows the power, and the paper column does not call it so)."""
    verdict, ratio, nums = _conservative(sizes, lead)
    rows, power = [], 1 - beta     # crossed: the t-test's n adds the assessors' bias, and its label says so
    # asked as Sakai's claim, so that the verdict answers the question; the topics are the run's cell
    for method, question in (("paired t", f"Is Sakai's 2 V_E1 conservative for a paired t-test (minD = {min_diff:g}, "
                                          f"power {power:.2f}; {lead})?"),
                             ("CI width", f"Is Sakai's 2 V_E1 conservative for a CI of width ≤ {ci_width:g} on a mean "
                                          f"difference ({lead})?")):
        r = sizes[(sizes["measure"] == lead) & (sizes["method"] == method)].iloc[0]
        v2 = paired_label(crossed and method == "paired t")
        paired = f"{v2}: {_n_ci(r.n_paired, r.n_paired_low, r.n_paired_high)}"
        run, own = f"2 V_E1: {_n_ci(r.n_exact, r.n_exact_low, r.n_exact_high)}; {paired}", ""
        never = {}
        if at is not None and n_a is not None:
            mine = {k: v for k, v in _at_k(at, method).items() if k in ks}
            reach = {k: v for k, v in mine.items() if not _unreached(v)}
            never = ({k: c for k, c in _caps(at).items() if k in mine and _unreached(mine[k])}
                     if method == "paired t" else {})
            nas = _span(reach)
            parts = ([f"{v2}: {_per_k(reach, 'topics', short=True)} (n_a = {nas})"] if reach else []) + (
                [f"{v2} with {_who(never)}: no n reaches power {power:.2f} (bias cap "
                 f"{claims.listing([beside(c, power) for c in never.values()])}{_within(_lows(at), never, True)})"]
                if never else [])
            run = "; ".join(parts) + f"; pilot's {n_a} sets: 2 V_E1 {_n_ci(r.n_exact, r.n_exact_low, r.n_exact_high)}"
            # the pilot's own 2 V_E2, unless the t-test's power text below says no n reaches it (the cap)
            own = "" if n_a in mine or (method == "paired t" and pd.isna(r.n_paired)) else \
                f", {v2} {_n_ci(r.n_paired, r.n_paired_low, r.n_paired_high)}"
        row_verdict, paper = verdict, "Sakai: 2 V_E1, conservative"
        if method == "paired t":
            said = at is not None and n_a is not None and n_a in never
            override, power_text = _sakai_power(r, power, said)
            if power_text:
                run += f"{own}. A{power_text[1:]}"     # its own sentence: the row stays under 50 words a sentence
                paper = "Sakai: 2 V_E1 (his model has no assessor bias)"
                row_verdict = override if override is not None and (override == "does not hold" or verdict == "holds") \
                    else verdict
            # the pilot's own 2 V_E2 as in the CI row, then the ratio; crossed: the ratio stays in the sizes
            # table (row length)
            run += "" if power_text else f"{own}; {ratio}"
        else:
            run += own
        identity = row_verdict == verdict == "holds"     # V_E1 > V_E2 alone: the identity of CAVEATS["identity"]
        rows.append(Finding(question, paper, run, "by definition" if identity else row_verdict,
                            caveats=("bootstrap", *(("identity",) if identity else ())),
                            numbers={**nums, "n_sakai": r.n_exact, "n_paired": None if pd.isna(r.n_paired) else int(r.n_paired),
                                     **({k: r.get(k) for k in ("power_sakai", "power_cap")} if method == "paired t" else {})}))
    return rows


def recommended_assessors(curve: pd.DataFrame | None, n_a: int) -> list[int]:
    """The assessors per topic the answer is given at: every design tied as the cheapest
    (:func:`_tied`), or the pilot's ``n_a`` when no design reaches the target."""
    return [n_a] if curve is None else [int(a) for a in tied(curve)["n_assessors"]]


def _at_k(at: pd.DataFrame, method: str) -> dict[int, str]:
    """``k -> "143 [110, 180]"``: topics of ``method`` at each number of assessors of ``at``."""
    r = at[at["method"] == method]
    return {int(x.n_assessors): _n_ci(x.n_paired, x.n_paired_low, x.n_paired_high) for x in r.itertuples()}


def _caps(at: pd.DataFrame) -> dict[int, float]:
    """``k -> power cap`` of the paired t-test at each number of assessors of ``at`` (1 without a bias)."""
    r = at[at["method"] == "paired t"]
    if "power_cap" not in r:
        return {int(k): 1.0 for k in r["n_assessors"]}
    return {int(x.n_assessors): float(x.power_cap) for x in r.itertuples()}


def _unreached(text: str) -> bool:
    """Whether a topics text of :func:`_n_ci` says no n at the point estimate (with or without an interval)."""
    return text.startswith("unreachable")


def _lows(at: pd.DataFrame) -> dict[int, int]:
    """``k -> lower end`` of the t-test's topics where the point estimate reaches no n but the interval does."""
    r = at[at["method"] == "paired t"]
    return {int(x.n_assessors): int(x.n_paired_low) for x in r.itertuples()
            if _missing(x.n_paired) and not _missing(x.n_paired_low)}


def _within(lows: Mapping[int, int], ks, short: bool = False) -> str:
    """``"; within the 95% interval from 62 topics"`` for the counts ``ks`` whose interval reaches the power
    (``short``, a table cell: ``"; 95% interval from 62"``)."""
    got = claims.listing([f"{lows[k]:,}" for k in ks if k in lows])
    return "" if not got else f"; 95% interval from {got}" if short else f"; within the 95% interval from {got} topics"


def _reachable(at: pd.DataFrame, ks) -> tuple[dict[int, str], dict[int, float]]:
    """The t-test's topics at the assessors ``ks``: (k -> "143 [110, 180]" where some n reaches the
    power at the point estimate, k -> the power cap where none does)."""
    t, caps = _at_k(at, "paired t"), _caps(at)
    return ({k: v for k, v in t.items() if k in ks and not _unreached(v)},
            {k: caps.get(k, np.nan) for k, v in t.items() if k in ks and _unreached(v)})


def _per_k(texts: Mapping[int, str], noun: str = "", short: bool = False) -> str:
    """``"143 [110, 180] topics with 1 assessor and 125 [96, 160] with 2"`` (``noun``: after the first value);
    over more than two counts the first and the last, ``"from ... with 1 assessor to ... with 5"``.
    ``short`` (a table cell whose assessors are named before it): ``"143 [110, 180] or 125 [96, 160] topics"``."""
    items = list(texts.items())
    ends = items if len(items) <= 2 else [items[0], items[-1]]
    if short:      # a table cell: the values in the order of the assessors named before it, numbers only
        joined = ends[0][1] if len(ends) == 1 else f"{ends[0][1]} {'or' if len(items) == 2 else 'to'} {ends[1][1]}"
        return f"{joined} {noun}".rstrip()
    parts = [f"{v}{' ' + noun if noun and i == 0 else ''} with {claims.plural(k, 'assessor') if i == 0 else k}"
             for i, (k, v) in enumerate(ends)]
    if len(items) <= 2:
        return claims.listing(parts)
    return f"from {parts[0]} to {parts[1]}" if noun else f"from {ends[0][1]} to {ends[1][1]}"


def at_lines(at: pd.DataFrame, lead: str, power: float | None = None, crossed: bool = False) -> list[str]:
    """One printed line per number of assessors of ``at`` (:func:`helpers.design.study.sizes_at_assessors`):
    topics for the paired t-test and the CI width from 2 V_E2 at that many assessors per topic; a
    t-test no n powers (``power``: 1 - beta) is said so, with the cap the assessors' bias sets (``crossed``:
    the label says the t-test's n adds that bias, :func:`paired_label`)."""
    t, ci, caps = _at_k(at, "paired t"), _at_k(at, "CI width"), _caps(at)
    out = []
    for k in t:
        head = f"{lead}, n_a = {k} per topic ({'2 V_E2; t-test: + assessor bias' if crossed else '2 V_E2'}): "     # not "3 assessors": read as the pilot's count
        if _unreached(t[k]):
            out.append(f"{head}CI width {ci[k]} topics; "
                       + _never({k: caps.get(k, np.nan)}, power, "gives the paired t-test") + _within(_lows(at), [k]))
        else:
            out.append(f"{head}paired t-test {t[k]} topics; CI width {ci[k]}")
    return out


def _t_clause(at: pd.DataFrame, ks, power: float | None, who: bool = True, noun: bool = True,
              short: bool = False) -> str:
    """What the paired t-test needs at the assessors ``ks``: ``"a paired t-test needs 143 [110, 180] topics
    with 1 assessor (bootstrap)"`` (``noun``: False drops "topics", said before), and for the counts no n
    powers, :func:`_never`'s sentence part."""
    reach, never = _reachable(at, ks)
    parts = []
    if reach and short:
        parts.append(f"paired t-test: {_per_k(reach, 'topics', short=True)} (bootstrap)")
    elif reach:
        parts.append(f"a paired t-test needs {_per_k(reach, 'topics' if noun and len(reach) <= 2 else '')} (bootstrap)")
    if never:
        parts.append(_never(never, power, "gives a paired t-test", who) + _within(_lows(at), never))
    return "; ".join(parts)


def answer_sentence(at: pd.DataFrame, *, lead: str, target: float, curve: pd.DataFrame | None, n_a: int,
                    power: float | None = None, design: str | None = None, max_assessors: int | None = None,
                    pilot: Mapping | None = None, scope: str = "", row: bool = False, t_test: bool = True,
                    needed: int | None = None) -> str:
    """The answer in one sentence (``scope``: what was scored, e.g. :data:`DL19_SCOPE`) at the recommended
    assessors per topic (:func:`recommended_assessors`, every design of a tie): topics for the paired t-test
    (``at``: :func:`helpers.design.study.sizes_at_assessors`; where no n reaches ``power``, the crossed bias's
    cap) and for Eρ² (the cost curve's; a design at the searched range's edge, :func:`edge_note`, is never the
    cheapest).  ``row``: the findings table's two cells (design, topics: :func:`_cell`) instead; ``t_test``:
    False leaves the t-test out; ``needed``: the assessors per topic that would reach the target when none does."""
    ks = recommended_assessors(curve, n_a)
    t = _t_clause(at, ks, power, noun=False, short=row)
    head = f"Answer for {lead}{' ' + scope if scope else ''}"
    if curve is None:   # only the searched range is known not to reach it (max_assessors), and the pilot's n_a
        searched = ("no number of assessors per topic" if max_assessors is None else
                    f"no design with at most max_assessors = {max_assessors} per topic")
        own = ("" if not pilot else
               f" (the pilot's {pilot['n_a']} assessors: {_unreachable_text(pilot.get('low'))})" if _missing(pilot.get("n"))
               else f"; with the pilot's {pilot['n_a']} it needs {_n_ci(pilot['n'], pilot['low'], pilot['high'])} topics")
        if row:     # the table's two cells, design and topics, no nested parentheses (the pilot's n_a: ks)
            return (f"{searched[0].upper()}{searched[1:]} reaches Eρ² ≥ {target}" + ("" if needed is None else
                    f"; from the estimated components, n_a ≥ {needed} would"), _pilot_cell(at, ks, power, pilot, t_test))
        would = "" if needed is None else f" (n_a ≥ {needed} would, from the estimated components)"
        said = f"{searched} reaches Eρ² ≥ {target}{would}{own}" + (f"; {_t_clause(at, ks, power)}" if t_test else "")
        return f"{head}: {said}."     # the t clause names the pilot's assessors
    rows = curve.set_index("n_assessors")
    e = _per_k({k: _n_ci(rows.loc[k, "n_topics"], rows.loc[k, "n_low"], rows.loc[k, "n_high"]) for k in ks}, "topics")
    edge = edge_note(curve) is not None
    last = int(curve["n_assessors"].max())
    tie = (f"max_assessors = {last}, cost still falling: more may be cheaper" if edge and len(ks) == 1 else
           f"tied; {last} = max_assessors: more may be cheaper" if edge else
           f"the only design searched, set by max_assessors = {len(curve)}" if len(curve) == 1 else
           "the cheapest" if len(ks) == 1 else "tied cheapest")
    how = (f"{claims.plural(ks[0], 'assessor')} per topic ({tie})" if len(ks) == 1 else
           f"{ks[0]} or {ks[1]} assessors per topic ({tie})" if len(ks) == 2 else
           f"{ks[0]} to {ks[-1]} assessors per topic ({tie})")
    said = f"Eρ² ≥ {target} needs {e} ({interval_method(design)})" + (f"; {t}" if t_test else "")
    if row:      # the cell: each number beside the n_a it belongs to
        return _cell(at, ks, rows, tie=tie, target=target, design=design, power=power, t_test=t_test)
    return f"{head}{',' if scope else ''} with {how}: {said}."


def _cell(at: pd.DataFrame, ks, rows: pd.DataFrame, *, tie: str, target: float, design: str | None,
          power: float | None, t_test: bool = True) -> tuple[str, str]:
    """The findings table's two answer cells, no nested parentheses: the design (``"n_a = 1 or 2: tied
    cheapest"``) and its topics (``"n_a = 1: Eρ² 26 [15, 39], t-test 143 [109, 185]; n_a = 2: ..."``), each
    number beside the assessors per topic it belongs to (every tied design, :func:`every_design`: the
    point-cheapest first and the others compactly past 35 words); a t-test no n powers says its bias cap.
    The question names the intervals' methods."""
    reach, never = _reachable(at, ks)
    def one(k):
        e = _n_ci(rows.loc[k, "n_topics"], rows.loc[k, "n_low"], rows.loc[k, "n_high"])
        t = reach.get(k) or (f"none, bias cap {beside(never[k], power) if power else f'{never[k]:.2f}'}"
                             if k in never else "none")
        return (f"n_a = {k}: " if len(ks) > 1 else "") + f"Eρ² {e}" + (f", t-test {t}" if t_test else "")
    named = (f"n_a = {ks[0]}" if len(ks) == 1 else f"n_a = {ks[0]} or {ks[1]}" if len(ks) == 2 else
             f"n_a = {ks[0]} to {ks[-1]}")
    return f"{named}: {tie}", _every(rows, at, ks, {k: one(k) for k in ks}, t_test)


def _pilot_cell(at: pd.DataFrame, ks, power: float | None, pilot: Mapping | None, t_test: bool) -> str:
    """The topics cell when no design reaches the target: Eρ² and the t-test at the pilot's assessors ``ks``."""
    reach, never = _reachable(at, ks)
    k = ks[0]
    e = ("" if not pilot else _unreachable_text(pilot.get("low")) if _missing(pilot.get("n"))
         else _n_ci(pilot["n"], pilot["low"], pilot["high"]))
    t = reach.get(k) or (f"none, bias cap {beside(never[k], power) if power else f'{never[k]:.2f}'}"
                         + _within(_lows(at), [k], short=True) if k in never else "none")
    said = [x for x in ((f"Eρ² {e}" if e else ""), (f"t-test {t}" if t_test else "")) if x]
    return f"with the pilot's {claims.plural(k, 'assessor')}: {', '.join(said)}" if said else "none to give"


#: Measures linear in the gains (a fixed gmax, no ideal to divide by): GT's mean over assessors is
#: their value of the mean gains.  Every other measure of gains is expected to differ (section 6).
LINEAR_IN_GAINS = ("RBP", "DCG")


def _linear_rows(linearity: Mapping[str, Mapping]) -> list[Finding]:
    """One row for every measure of gains (none without one): is GT's mean over assessors the measure
    of the mean gains exactly for the measures linear in the gains?  Each measure agrees with the
    expectation or not; "by definition" when all do (the mean of a measure linear in the gains is the
    measure of the mean gains: a check of the code, shown in the appendix), "does not hold" when none
    does, "holds in part" between."""
    checked = {m: v for m, v in linearity.items() if not isinstance(v, str)}
    if not checked:
        return []
    linear = {m: m.split("@")[0] in LINEAR_IN_GAINS for m in checked}
    met = {m: (v["max_abs_difference"] < 1e-9) == linear[m] for m, v in checked.items()}
    parts = [f"{m} {'equal' if d < 1e-9 else 'differs by up to ' + (_difference(d) if d >= 5e-7 else f'{d:.1e}')} (τ {v['kendall_tau']:.3f})"
             for m, v in checked.items() for d in [v["max_abs_difference"]]]
    verdict = "by definition" if all(met.values()) else "does not hold" if not any(met.values()) else "holds in part"
    return [Finding("Is GT's mean over assessors the measure of the mean gains for linear measures only?",
                    "equal only if linear in the gains (RBP, DCG)",
                    ", ".join(parts) + "; τ between the two orders of the systems", verdict,
                    numbers={m: {**dict(v), "linear": linear[m]} for m, v in checked.items()})]


def crossed_reading(gd: pd.DataFrame, crossed: Mapping) -> dict:
    """DL-19's judgment sets read both ways, as plain numbers: ``{"nested"|"crossed": {measure: (n, low, high)}}``
    (``gd``: the G- and D-study table, nested; ``crossed``: measure -> :func:`helpers.design.topics_needed`
    of the s × t × a G-study).  ``None`` for an unreachable n or an unbounded end."""
    def num(v):
        return None if _missing(v) else int(v)
    return {"nested": {r.measure: (num(r.topics_needed), num(r.topics_low), num(r.topics_high)) for r in gd.itertuples()},
            "crossed": {m: (num(t.n), num(t.ci[0]), num(t.ci[1])) for m, t in crossed.items()}}


def _crossed_row(reading: Mapping, target: float) -> Finding:
    """Is the nested reading of DL-19's judgment sets within the crossed reading's interval?"""
    ms = list(reading["nested"])
    ok = [_inside(reading["nested"][m][0], *(np.inf if v is None else v for v in reading["crossed"][m][1:]))
          if reading["nested"][m][0] is not None and reading["crossed"][m][1] is not None else None for m in ms]
    t = reading.get("t_test")     # the t-test sizes read crossed too: NIST's bias shared across topics caps power
    ok_t = [] if t is None else [_t_inside(t["nested"][k][0], t["crossed"][k]) for k in t["nested"]]
    judged = [v for v in ok + ok_t if v is not None]
    verdict = ("cannot tell" if not judged else "agrees" if all(judged) else "differs" if not any(judged)
               else "holds in part")
    run = (f"Eρ² crossed {', '.join(_n(reading['crossed'][m][0]) for m in ms)} vs nested "
           f"{', '.join(_n(reading['nested'][m][0]) for m in ms)} ({', '.join(ms)}); "
           f"nested inside the crossed 95% interval: {sum(v is True for v in ok)} of {len(ok)}"
           + ("" if t is None else f". Paired {crossed_t_text(t)}; nested inside: {sum(v is True for v in ok_t)} of {len(ok_t)}"))
    what = f"Eρ² ≥ {target}" + ("" if t is None else " and the t-test")
    return Finding(f"Do DL-19's topics for {what} survive reading its judgment sets as crossed?",
                   "each annotator pair judged its own topics: neither reading is exact", run, verdict, numbers=dict(reading))


def findings(*, published: Mapping[str, int], anova_m2: tuple[int, int], gt: pd.DataFrame, sizes: pd.DataFrame,
             lead: str, settings: Mapping, cheapest: pd.DataFrame | None, pilot_erho2: Mapping, at: pd.DataFrame,
             split: pd.DataFrame | None, planted: Mapping | None, linearity: Mapping, unjudged: str,
             notes=(), footer: str = "", crossed: Mapping | None = None,
             break_even: pd.DataFrame | None = None, components: Mapping | None = None) -> Findings:
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
    at : :func:`helpers.design.study.sizes_at_assessors` of the lead measure at
        :func:`recommended_assessors`: the sizing rows and the answer give their topics at those counts.
    split : :func:`helpers.design.study.split_half_check`, or None when the pilot is too small.
    planted : :func:`summarise_planted`, or None (real or file data).
    linearity : measure -> :func:`helpers.design.linearity_check`'s attrs, or what holds instead (a string).
    unjudged : :func:`pilot_note` (what was scored); notes: further bullets.
    crossed : :func:`crossed_reading` (DL-19: the judgment sets read crossed as a sensitivity row), or None.
    break_even : :func:`helpers.design.cost.break_even_bootstrap` of the lead measure (settings then hold
        ``cost_topic`` and ``cost_judgment``), or None.
    components : the planted variance components of a simulated pilot (settings' ``design``; its sizes:
        ``n_systems, n_topics, n_assessors`` of ``settings``): rows whose verdict they decide are labelled
        "by construction" with the planted value (:func:`planted_truths`).

    The table keeps what the pilot answers; the appendix (:class:`DesignFindings`) the published
    values, the split halves' detail and, with a simulated pilot (``planted`` given), the answers
    whose truth the planted components set (each with its rule's verdict, marked "(simulated pilot)") and the
    coverage and power checks.
    """
    s = settings
    appendix = published_rows(published, anova_m2, gt)     # checks of the machinery: the appendix table
    sim = planted is not None          # the pilot is simulated: its answers follow from the planted components
    design, power = s.get("design"), 1 - s["beta"]
    ks = recommended_assessors(cheapest, pilot_erho2["n_a"])
    sizing = _sizing_rows(sizes, lead=lead, min_diff=s["min_diff"], beta=s["beta"], ci_width=s["ci_width"], at=at,
                          n_a=pilot_erho2["n_a"], ks=ks, crossed=design == "s x t x a")
    bodoff = None
    if break_even is not None:     # Bodoff's claim at equal cost, answered as a break-even cost ratio
        ratio = s["cost_topic"] / s["cost_judgment"] if s["cost_judgment"] else np.inf
        bodoff = _break_even_row(break_even, cheapest, ratio=ratio, target=s["target"], lead=lead,
                                 costs=f"{s['cost_topic']:g} : {s['cost_judgment']:g}", max_assessors=s["max_assessors"],
                                 needed=s.get("assessors_needed"))
    answer = dict(lead=lead, target=s["target"], curve=cheapest, n_a=pilot_erho2["n_a"], power=power, design=design,
                  max_assessors=s["max_assessors"], pilot=pilot_erho2, row=True, needed=s.get("assessors_needed"))
    costs = f"topic : judgment costs {s.get('cost_topic', 1):g} : {s.get('cost_judgment', 1):g}"
    ties = ("ties",) if len(ks) > 1 else ()
    cells = answer_sentence(at, **answer)      # two cells: the design, its topics
    if sim:   # the answer stays in the table, its verdicts the planted components' (caveat "planted_answer")
        rows = [Finding(_design_q(s["target"], costs, lead), "the pilot's D-study", cells[0], "by construction",
                        caveats=("planted_answer", *ties)),
                Finding(_topics_q(s["target"], interval_method(design)), topics_paper(design == "s x t x a"), cells[1],
                        "by construction", caveats=("planted_answer",))]
        truths = planted_truths(components, design, n_a=pilot_erho2["n_a"], target=s["target"],
                                ratio=None if bodoff is None else bodoff.numbers["ratio"])
        appendix += [_built(r, truths) for r in sizing + ([bodoff] if bodoff is not None else [])]
    else:     # the answer first, with Bodoff's claim (one assessor per topic is cheapest) as its verdict
        n_t = s.get("n_topics")
        rows = _answer_rows(cells, bodoff, break_even, lead=lead, target=s["target"], costs=costs, crossed=design == "s x t x a",
                            method=interval_method(design), n_t=n_t, reach=_reach(cheapest, at, ks, pilot_erho2, n_t),
                            part=_part(cheapest, at, ks, pilot_erho2, n_t),
                            scope=DL19_SCOPE if unjudged.startswith("DL-19:") else "",
                            truncated=("truncated",) if unjudged.startswith("DL-19:") else ())
        appendix += [] if bodoff is None else [_beside(bodoff, rows[0])]   # the break-even, naming the answer's verdict
        rows += [r for r in sizing if r.verdict != "by definition"]          # true by an identity: the appendix
        appendix += [r for r in sizing if r.verdict == "by definition"]
    if crossed is not None:    # a sensitivity check of the answer, not an answer: the appendix table
        appendix.append(_crossed_row(crossed, s["target"]))
    binary = [m for m, v in linearity.items() if isinstance(v, str)]
    prose = [_RECONCILE, *([] if sim else [_scored(unjudged)]), *notes]
    if split is not None and len(split):     # three predictions, three verdicts: the appendix, not one combined row
        appendix += _split_rows(split, simulated=sim)
    if planted is not None:
        more, said = _planted_rows(planted, s["target"], pilot_erho2["n_a"], design == "s x t x a")
        appendix += more
        prose += said
    for r in _linear_rows(linearity):       # an identity when it holds: the appendix
        (appendix if r.verdict == "by definition" else rows).append(r)
    if binary:
        prose.append(f"{claims.listing(binary)} {'reads' if len(binary) == 1 else 'read'} binary labels, not gains: "
                     "section 5 says what holds instead of comparing with the mean gains.")
    if not linearity:
        prose.append("Real assessors (DL-19) answer in profile `real`; linearity needs real or file data.")
    what = ("published values, rows whose truth the simulation planted, split-half detail" if sim else
            "published values, " + ("rows true by definition, " if any(r.verdict == "by definition" for r in appendix)
                                    else "") + ("the break-even, " if bodoff is not None else "")
            + ("the crossed reading, " if crossed is not None else "") + "split-half detail")
    prose.append(f"The appendix table after the conclusion holds {len(appendix)} more rows ({what}).")
    tied_text = None if break_even is None else _ties_caveat(break_even, cheapest)   # from what the run compared
    if break_even is not None and tied_text is None:
        rows, appendix = _drop(rows, "ties"), _drop(appendix, "ties")
    caveats = {**CAVEATS, "planted_answer": "In a simulation the planted components decide the sizing answer.",
               "normal": NORMAL_PLANTED if sim else NORMAL_REAL,
               **({} if break_even is None or tied_text is None else {"ties": tied_text}),
               "bootstrap": BOOTSTRAP + (BOOTSTRAP_CROSSED if design == "s x t x a" else ""),
               "truncated": _truncated(unjudged),
               **({} if planted is None else {"bonferroni": _bonferroni(planted)})}
    return DesignFindings(NOTEBOOK, rows, prose, caveats=caveats, general=("normal",), footer=footer,
                          appendix=tuple(appendix))


def _built(row: Finding, truths: Mapping[str, tuple[str, str, float]] | None = None) -> Finding:
    """A row of a simulated pilot whose truth the planted components set (:func:`planted_truths`): its run
    cell says "(simulated pilot)" and the planted value, and it points to the caveat that planted
    components, not real assessors, decide it.  Its verdict is "by construction" when the rule's own
    verdict agrees with the planted one; a rule that disagrees keeps its verdict (never hidden)."""
    key = "break_even" if row.question.startswith("Up to which") else "conservative"
    truth = (truths or {}).get(key)
    if truth is None:
        return Finding(row.question, row.paper, f"{row.run} (simulated pilot)", row.verdict,
                       (*row.caveats, "simulated"), row.numbers)
    verdict = "by construction" if row.verdict == truth[0] else row.verdict
    return Finding(row.question, row.paper, f"{row.run}; {truth[1]} (simulated pilot)", verdict,
                   (*row.caveats, "simulated"), {**dict(row.numbers), "planted": truth[2], "planted_verdict": truth[0]})


#: Why the sizing rows differ (said once).
_RECONCILE = ("Sakai's 2 V_E1 keeps the topic variance, which paired differences cancel; Eρ² asks for a "
              "stable ranking, not power.")
