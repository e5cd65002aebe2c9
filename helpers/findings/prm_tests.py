"""Notebook 03's paired tests of Table 6 (Demeester et al. 2016): PRM against binary or linear
gains and linear against binary gains, on one collection (:func:`robustness_single`), over the
replicates of the simulation (:func:`robustness_replicates`) and over the draws of U2
(:func:`robustness_draws`), each Holm-adjusted over the thresholds it tests (one family per
analysis, :func:`holm_claims`), then re-adjusted over every test of the table that shows their
verdicts (:func:`table_holm`, stated once by :func:`across_rows`); the appendix CSV of every test
(:func:`tests_table`).
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .. import prm
from ..notebook import claims
from . import prm_values
from .prm_values import spread

__all__ = ["HOLM", "PAIRS", "Robustness", "holm_claims", "robustness_single", "robustness_replicates",
           "robustness_draws", "tests_table", "indicator_text", "INDICATORS", "all_tests", "replicate_view", "wins_line", "SUMMARIES",
           "p_text", "signed", "diff_text", "across_rows", "draws_views", "table_holm", "survivors", "star_label",
           "graded_note", "coverage_test", "joint_note"]


def over(values, what: str) -> tuple:
    """(mean, low, high) of ``values`` over draws (:func:`helpers.findings.prm_values.over`)."""
    v = prm_values.over(values, what)
    return v.mean, v.low, v.high


#: The multiplicity rule, named once.
HOLM = "Holm-adjusted over the thresholds tested"

#: The order in which the printed lines list the analyses.
_ORDER = ("cross-fitted", "in sample", "own level", "vs linear", "cross-fitted vs linear", "linear vs binary")

# -- per-section readings used by the printed lines -----------------------------------------------
#: Per analysis of Table 6: the gains set against each other (first minus second).
PAIRS = {"cross-fitted": ("PRM", "binary"), "in sample": ("PRM", "binary"), "own level": ("PRM", "binary"),
         "vs linear": ("PRM", "linear"), "cross-fitted vs linear": ("PRM", "linear"),
         "linear vs binary": ("linear", "binary")}


def holm_claims(means: Mapping, p: Mapping, *, alpha: float = 0.05, other: str = "binary", first: str = "PRM") -> dict:
    """Per threshold, ``first`` (PRM) against ``other`` worded by the Holm-adjusted p-value (:data:`HOLM`).
    ``means[th] = (first tau, other tau)``, ``p[th]`` the raw two-sided p-value."""
    tests = {th: dict(a_name=first, a=means[th][0], b_name=other, b=means[th][1], p=p[th]) for th in p}
    return claims.compare_holm(tests, alpha=alpha, family="thresholds") if tests else {}


# -- Table 6: PRM against binary (or linear) gains ------------------------------------------------
@dataclass(frozen=True)
class Robustness:
    """Table 6's paired tests per analysis (:data:`helpers.replicates.prm.ANALYSES`) and threshold:
    ``claims`` (Holm-adjusted, :func:`holm_claims`) and ``diffs`` (PRM - other: mean, low, high of
    its interval); ``scope`` says over what (``"this collection"``, ``"50 draws of U2"``) and
    ``interval`` what the brackets are."""

    scope: str
    claims: dict
    diffs: dict
    interval: str
    n: int = 0    # replicates or draws behind the tests (0: this collection alone)

    def supported(self, analysis: str) -> list:
        return [th for th, c in self.claims.get(analysis, {}).items() if c.numbers["differs"] and
                c.numbers["a"] > c.numbers["b"]]

    def against(self, analysis: str) -> list:
        return [th for th, c in self.claims.get(analysis, {}).items() if c.numbers["differs"] and
                c.numbers["a"] < c.numbers["b"]]


def _percentile(d) -> tuple:
    """(mean, low, high) of bootstrap differences: the percentile bootstrap interval that agrees
    with their p-value (:func:`helpers.prm.bootstrap_interval`, :func:`helpers.prm.bootstrap_p`)."""
    x = np.asarray(d, dtype=float)
    x = x[np.isfinite(x)]
    return (float(x.mean()) if len(x) else float("nan"),) + prm.bootstrap_interval(x)


def _resamples(n: int, what: str) -> str:
    """``"unadjusted 95% percentile bootstrap interval, B = 1,000 topic resamples"`` (the tests beside
    it are Holm-adjusted), or the range with fewer than 40 resamples."""
    if not n:
        return "no interval"
    kind = "95% percentile bootstrap interval" if n >= claims.min_draws() else "bootstrap range"
    return f"unadjusted {kind}, B = {what}"


def robustness_single(table6: pd.DataFrame, boots: Mapping, cf_rows: pd.DataFrame, names,
                      own: Mapping | None = None) -> Robustness:
    """One data set: the in-sample paired bootstrap (``boots[th]``: :func:`helpers.prm.paired_bootstrap`,
    PRM against binary and against linear gains), the cross-fitted one (``cf_rows`` of
    :func:`helpers.prm.crossfit_robustness`) and, with ``own``, the bootstrap with U2's labels given
    gains conditioned on U2's level; each Holm-adjusted over its thresholds."""
    t6 = table6.set_index("gains")
    tau = lambda g, th: float(t6.loc[g.format(names[th]), "tau"])  # noqa: E731
    out, diffs = {}, {}
    for a, first, other, cols in (("in sample", "PRM, theta={}", "binary, theta={}", ("tau_prm", "tau_binary")),
                                  ("vs linear", "PRM, theta={}", "linear", ("tau_prm", "tau_linear")),
                                  ("linear vs binary", "linear", "binary, theta={}", ("tau_linear", "tau_binary"))):
        means = {th: (tau(first, th), tau(other, th)) for th in boots}
        d = {th: (b[cols[0]] - b[cols[1]]).to_numpy()[1:] for th, b in boots.items()}
        out[a] = holm_claims(means, {th: prm.bootstrap_p(v) for th, v in d.items()}, first=PAIRS[a][0],
                             other=PAIRS[a][1])
        diffs[a] = {th: (means[th][0] - means[th][1],) + _percentile(v)[1:] for th, v in d.items()}
    s = prm.crossfit_summary(cf_rows).set_index("theta")
    boot = cf_rows[cf_rows["kind"] == "boot"]
    means_cf = {int(th): (float(r.tau_prm), float(r.tau_binary)) for th, r in s.iterrows()}
    out["cross-fitted"] = holm_claims(means_cf, {th: float(s.loc[th, "p"]) for th in means_cf})
    diffs["cross-fitted"] = {th: (float(s.loc[th, "diff"]),) + _percentile(boot.loc[boot["theta"] == th, "diff"])[1:]
                             for th in means_cf}
    if own:
        means = {th: (float(b["tau_prm"].iloc[0]), float(b["tau_binary"].iloc[0])) for th, b in own.items()}
        d = {th: (b["tau_prm"] - b["tau_binary"]).to_numpy()[1:] for th, b in own.items()}
        out["own level"] = holm_claims(means, {th: prm.bootstrap_p(v) for th, v in d.items()})
        diffs["own level"] = {th: (means[th][0] - means[th][1],) + _percentile(v)[1:] for th, v in d.items()}
    B = len(next(iter(boots.values()))) - 1 if boots else 0
    return Robustness("this collection" if len(t6) else "", out, diffs,
                      _resamples(B, f"{B:,} topic resamples"))


def _mean_ci(d) -> tuple:
    """(mean, low, high): the 95% CI of the mean of tau differences, cut to [-2, 2], their range."""
    from ..stats.summary import mean_interval

    x = np.asarray(d, dtype=float)
    x = x[np.isfinite(x)]
    lo, hi = mean_interval(x, 0.95)[:2]
    return (float(x.mean()) if len(x) else float("nan"), max(lo, -2.0), min(hi, 2.0))


def robustness_replicates(sim, what: str = "replicates", stress: bool = False) -> Robustness:
    """Over independent replicates (:class:`helpers.replicates.prm.Simulated`; with ``stress`` the
    collections where the PRM's assumptions fail): the CI of the mean paired difference (Student's
    t), its p-value Holm-adjusted over the thresholds."""
    src = sim.stress if stress else {"diffs": sim.diffs, "means": sim.means, "p": sim.p}
    out, diffs = {}, {}
    for a, by in src["diffs"].items():
        out[a] = holm_claims(src["means"][a], src["p"][a], first=PAIRS[a][0], other=PAIRS[a][1])
        diffs[a] = {th: _mean_ci(d) for th, d in by.items()}
    return Robustness(f"{sim.replicates} {what}", out, diffs,
                      f"unadjusted 95% CI of the mean over {sim.replicates} {what}", sim.replicates)


def robustness_draws(d) -> Robustness:
    """Over the draws of U2 (:class:`helpers.replicates.prm.Draws`): the topic resamples of every
    draw pooled, their bootstrap p-value Holm-adjusted over the thresholds."""
    out = {a: holm_claims(d.means[a], d.p[a], first=PAIRS[a][0], other=PAIRS[a][1]) for a in d.p if d.p[a]}
    diffs = {a: {th: (d.means[a][th][0] - d.means[a][th][1],) + _percentile(v)[1:] for th, v in by.items()}
             for a, by in d.pooled.items() if by}
    n = max((len(v) for by in d.pooled.values() for v in by.values()), default=0)
    # "of ... pooled from": an interval named "over N draws" reads as one over the draws themselves
    label = _resamples(n, f"{n:,} topic resamples pooled from {d.replicates} draws of U2")
    return Robustness(f"{d.replicates} draws of U2", out, diffs, label, d.replicates)


def signed(v: float) -> str:
    """``"+0.012"``, ``"-0.003"``; a difference within float noise of 0 (|v| < 1e-9, e.g. two equal
    tau summed in another order) is ``"+0.000"``, not ``"+0.000000"``."""
    v = 0.0 if abs(v) < 1e-9 else v
    return claims.number(v) if v < 0 else "+" + claims.number(v)


def diff_text(mean: float, lo: float, hi: float, what: str = "resample") -> str:
    """A signed difference with its interval; 'undefined' without one, no zero-width interval."""
    if not np.isfinite(mean):
        return "undefined (an ordering ties every run)"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return signed(mean)
    if lo == hi:
        return f"{signed(mean)} (every {what}: {signed(lo)})"
    return f"{signed(mean)} [{signed(lo)}, {signed(hi)}]"


def p_text(p: float) -> str:
    """``"= 0.300"`` or ``"< 0.001"`` (:func:`helpers.notebook.claims.format_p`), to follow a ``p``."""
    text = claims.format_p(p)
    return text if text.startswith(("<", ">")) else f"= {text}"





# -- printed lines of the replicated studies -----------------------------------------------------
def tests_table(robs: Mapping[str, Robustness], name, label=lambda th: "",
                spreads: Mapping | None = None) -> pd.DataFrame:
    """Every paired test of Table 6 as one appendix table: per data set (``robs``: its name ->
    :class:`Robustness`), analysis and threshold, the difference with its unadjusted interval (and,
    with ``spreads[data][analysis][theta] = (low, high)``, the spread of single replicates), the
    Holm-adjusted p-value over that analysis's thresholds (its family) and the raw one, and the
    reading of the adjusted test (:func:`helpers.notebook.claims.compare_holm`)."""
    out = []
    for data, rob in robs.items():
        for analysis in _ORDER:
            first, other = PAIRS[analysis]
            for th, c in rob.claims.get(analysis, {}).items():
                mean, lo, hi = rob.diffs[analysis][th]
                sp = (spreads or {}).get(data, {}).get(analysis, {}).get(th)
                n = c.numbers
                word = ("undefined" if not np.isfinite(mean) else "no difference shown" if not n["differs"]
                        else f"{first} higher" if n["a"] > n["b"] else f"{other} higher")
                out.append({"data": data, "test": analysis, "θ": f"{name(th)}{label(th)}",
                            "difference": f"{first} − {other} {diff_text(mean, lo, hi)}",
                            "single replicates": f"[{signed(sp[0])}, {signed(sp[1])}]" if sp and all(np.isfinite(sp))
                            else "",
                            "Holm p (family)": (f"{claims.format_p(n['p_holm'])} ({n['family']}, {claims.plural(n['m'], 'test')})"
                                                if "family" in n else f"{claims.format_p(n['p_holm'])} ({n['m']} θ)")
                            if np.isfinite(n["p_holm"]) else "", "unadjusted p": claims.format_p(n["p_raw"]) if np.isfinite(n["p_raw"]) else "",
                            "reading at α = 0.05": word})
    t = pd.DataFrame(out)
    return t.drop(columns="single replicates") if len(t) and not t["single replicates"].any() else t


def all_tests(robust1: Robustness | None, name, *, sim=None, draws=None, label=lambda th: "",
              adjusted: Mapping | None = None) -> tuple:
    """``(table, caption)``: :func:`tests_table` of this collection (``robust1``), the replicates of
    the simulation and its second collection (``sim``) or the draws of U2 (``draws``), with the
    spread of single replicates; the caption names every interval. ``adjusted``: the tests the
    findings read, as their tables correct them (``PrmFindings.adjusted``: ``"main"``, ``"stress"``)."""
    robs, spreads, parts = {}, {}, []
    adj = dict(adjusted or {})
    if robust1 is not None and robust1.claims:
        robs["this collection"] = adj["main"] if sim is None and draws is None and "main" in adj else robust1
        parts.append(f"this collection: {robust1.interval}")
    if sim is not None:
        for key, stress in (("replicates", False), ("second collection", True)):
            src = sim.stress.get("diffs") if stress else sim.diffs
            if not src:
                continue
            data = f"{sim.replicates} replicates" if not stress else f"second collection, {sim.replicates} replicates"
            robs[data] = adj.get("stress" if stress else "main") or robustness_replicates(sim, stress=stress)
            spreads[data] = {a: {th: over(d, "replicates")[1:3] for th, d in by.items()} for a, by in src.items()}
        parts.append(f"replicates: 95% CI of the mean (one-sample t-test) and the "
                     f"{prm_values.spread_name(sim.replicates)} of single replicates")
    if draws is not None:
        rob = adj.get("main") or robustness_draws(draws)
        robs[rob.scope] = rob
        parts.append(f"draws: {rob.interval}")
    caption = ("Table 6's paired tests, each Holm-adjusted over the tests of the table that shows its verdict "
               "(else over its thresholds); intervals unadjusted -- " + "; ".join(parts))
    return tests_table(robs, name, label, spreads), caption


def star_label(label: str, starred) -> str:
    """``"binary, theta=1"`` -> ``"binary, theta=1*"`` when ``1`` is in ``starred`` (the names of the
    variant thresholds): every ``theta=<name>`` of a printed label carries the variant star, as the
    tables that print a threshold column do."""
    names = {str(n) for n in starred}
    return re.sub(r"theta=([^,\s*]+)(\*?)", lambda m: m.group(0) + ("*" if m.group(1) in names and not m.group(2)
                                                                     else ""), str(label))


#: Comparisons of a replicate summary that are 0/1 per replicate (their mean is a share of replicates).
INDICATORS = ("marginals differ (Stuart-Maxwell p < 0.05)",)


def indicator_text(share: float, n: int, what: str = "replicate") -> str:
    """A 0/1 indicator over ``n`` replicates as the count that it is: ``"4 of 40 replicates (95%
    Clopper-Pearson [0.028, 0.237])"``; the binomial interval only from 40 replicates on (no
    percentile interval of 0/1 values, which can only be [0, 1] or a point)."""
    from scipy import stats as sps

    k = int(round(share * n))
    text = f"{k} of {n} {what}{'s' if n != 1 else ''}"
    if n >= 40:
        ci = sps.binomtest(k, n).proportion_ci(0.95, method="exact")
        text += f" (95% Clopper-Pearson {claims.bracket(k / n, ci.low, ci.high).split(' ', 1)[1]})"
    return text


def replicate_view(summary: pd.DataFrame, tables, what: str = "replicate", runs: int = 0,
                   label=None) -> pd.DataFrame:
    """Rows of :class:`helpers.replicates.prm.Simulated`'s ``summary`` for ``tables``, the value
    as ``mean [low, high]`` (no zero-width interval). With ``runs``, a share of the runs (Table 5's
    ``share ...`` rows) prints its ends as ``k of runs`` -- the attainable shares just outside the
    interpolated percentile ends -- never an interpolated value such as 0.079 of 6 runs."""
    s = summary[summary["table"].isin(list(tables))]

    def text(r):
        if str(r.comparison) in INDICATORS and np.isfinite(r.mean):
            return indicator_text(r.mean, int(r.replicates), what)
        if runs and str(r.comparison).startswith("share") and r.low != r.high and np.isfinite(r.low):
            lo, hi = int(np.floor(r.low * runs + 1e-9)), int(np.ceil(r.high * runs - 1e-9))
            return f"{claims.number(r.mean)} [{lo} of {runs}, {hi} of {runs} runs]"
        return spread(r.mean, r.low, r.high, what=what)
    s = s.assign(value=[text(r) for r in s.itertuples()])
    if label is not None:   # the variant star (:func:`star_label`)
        s = s.assign(comparison=[label(c) for c in s["comparison"]])
    return s[["table", "comparison", "value"]].reset_index(drop=True)


def wins_line(wins: Mapping, n: Mapping | int, name, what: str = "replicates", losses: Mapping | None = None) -> str:
    """Per threshold, in how many ``what`` the in-sample PRM tau is above, equal to and below the
    binary one: ``wins / ties / losses`` (of those with both tau defined, ``n``); without
    ``losses`` the wins of ``n`` only."""
    def one(th):
        m = n[th] if isinstance(n, Mapping) else n
        if not m:
            return f"theta = {name(th)}: tau undefined in every {what[:-1]} (an ordering ties every run)"
        if losses is None:
            return f"theta = {name(th)}: {wins[th]} of {m}"
        return f"theta = {name(th)}: {wins[th]} / {m - wins[th] - losses[th]} / {losses[th]}"
    head = "wins / ties / losses" if losses is not None else "wins"
    return (f"{what}, in-sample PRM against binary gains ({head}): " + ", ".join(one(th) for th in wins))


# -- values over draws, as the printed lines show them --------------------------------------------
#: The summaries of :class:`helpers.replicates.prm.Draws` printed, with their labels.
SUMMARIES = {"table5_tau": "Table 5, tau of the PRM and binary count orderings",
             "table5_share_prm_more_precise": "Table 5, share of runs whose PRM count has the smaller relative SE",
             "table5_share_prm_smaller": "Table 5, share of runs whose PRM count is the smaller count",
             "table7": "Table 7, tau of PRM against other gains (U1's labels)",
             "boot_ratio": "topic-bootstrap sd of p(T|T) over its binomial sigma",
             "udm": "top two levels made indistinguishable: ratio of their gains",
             "eq_gap": "Table 2, largest |Eq. 4 - Eq. 5| over the levels at theta = top",
             "eq_z": "Table 2, that gap's largest z in Eq. 4's sigma"}


def table_holm(robs: Mapping[str, Robustness], families: Mapping[str, Sequence[tuple[str, str]]]) -> dict:
    """Holm's step-down over every test of a table (one family per table, not per row).

    ``robs`` maps a key to a :class:`Robustness`; ``families`` maps a family's name (``"findings
    table"``) to the ``(key, analysis)`` pairs whose tests it holds, every threshold of each. Returns
    ``robs`` with the claims of those analyses re-worded by the family's adjusted p-values
    (:func:`helpers.notebook.claims.compare_holm`; ``numbers`` add ``family``); analyses in no
    family keep their per-threshold correction. A pair in two families is an error."""
    seen = [pair for pairs in families.values() for pair in pairs]
    if len(seen) != len(set(seen)):
        raise ValueError(f"a test in two families: {sorted({p for p in seen if seen.count(p) > 1})}")
    new = {key: {a: dict(by) for a, by in rob.claims.items()} for key, rob in robs.items()}
    for family, pairs in families.items():
        tests = {(key, a, th): dict(a_name=PAIRS[a][0], a=c.numbers["a"], b_name=PAIRS[a][1], b=c.numbers["b"],
                                    p=c.numbers["p_raw"])
                 for key, a in pairs for th, c in robs[key].claims.get(a, {}).items()}
        for (key, a, th), c in (claims.compare_holm(tests, family="tests") if tests else {}).items():
            new[key][a][th] = claims.Claim(c.text, c.kind, {**c.numbers, "family": family})
    return {key: replace(rob, claims=new[key]) for key, rob in robs.items()}


def survivors(rows, name=str) -> list[str]:
    """The tests of ``rows`` (findings whose ``numbers`` hold claims' numbers by threshold) that
    reject after the correction: ``["own level, θ = 3"]``."""
    return [f"{r.numbers.get('analysis', '?')}, θ = {name(int(th))}" for r in rows for th, v in r.numbers.items()
            if str(th).isdigit() and isinstance(v, Mapping) and v.get("differs")]


def across_rows(rows, table: str = "table", variants: str = "", others: tuple = (0, ""), also: bool = False) -> str:
    """The Limitations' sentence on multiplicity: the p-values of ``rows`` (findings whose
    ``numbers`` hold claims' numbers with ``p_holm``, from :func:`table_holm`) are Holm-adjusted over
    one family of ``m`` tests -- the ``m`` the correction used, read from those same numbers (a
    family may hold tests no row shows, e.g. the linear − binary references; A.1 lists them all).
    ``""`` without such rows; a table whose p-values come from families of different sizes is an
    error (one family per table). ``variants`` (``"1"``): the table's rows at those thresholds are
    shown in the appendix, in this same family (the sentence says so). ``others = (k, text)``: the
    family's ``k`` tests no row shows (the linear − binary references), printed here when ``k`` is
    exactly the number missing, so that every member of the family is named where its size is.
    ``also``: ``rows`` hold the appendix's linear − binary reference row (the sentence says so)."""
    tests = [v for r in rows for v in r.numbers.values() if isinstance(v, Mapping) and "p_holm" in v
             and np.isfinite(v.get("p_raw", np.nan))]
    if not tests:
        return ""
    sizes = {(v.get("family"), int(v["m"])) for v in tests}
    if len(sizes) > 1:
        raise ValueError(f"the {table}'s p-values come from several families: {sorted(sizes, key=str)}")
    (family, m), = sizes
    if m == 1:
        return f"The {table} holds one test: its p-value needs no correction."
    shown = len(tests)
    named = others[1] and others[0] == m - shown > 0   # the rest of the family, printed beside its size
    rest = f" The other {m - shown}: {others[1]}" if named else ""
    if variants:
        ref = " and the linear − binary reference" if also else ""
        return (f"Table 6's p-values: Holm over {m} tests, its θ = {variants} variants{ref} (appendix) included."
                + (rest if named else f" A.1 lists all {m}." if shown != m else ""))
    where = "" if shown == m or named else f" ({shown} shown here, all {m} in A.1)"
    ref = ", the appendix's linear − binary reference included" if also else ""
    return f"Every p-value in the {table} is Holm-adjusted over one family of {m} tests{where}{ref}.{rest}"


def draws_views(d, vname, label=None) -> list[tuple[pd.DataFrame, str]]:
    """The appendix's tables over the draws of U2 (:class:`helpers.replicates.prm.Draws`): Table 6's
    tau per gain scheme, then every summary of :data:`SUMMARIES` (``vname``: a threshold's label),
    each ``(table, caption)`` for :func:`helpers.notebook.reports.show`; mean [spread of single draws].
    ``label``: the gains' labels with the variant star (:func:`star_label`)."""
    iv = prm_values.spread_name(d.replicates)
    t6 = pd.DataFrame({"gains": [label(g) for g in d.table6["gains"]] if label is not None else d.table6["gains"],
                       "τ": [spread(r.mean, r.low, r.high) for r in d.table6.itertuples()]})
    rows = [{"quantity": what, "θ": vname(int(r.theta)), "level": r.level, "value": spread(r.mean, r.low, r.high)}
            for q, what in SUMMARIES.items() if q in d.summaries for r in d.summaries[q].itertuples()]
    return [(t6, f"Table 6 over {d.replicates} draws of U2: mean τ [{iv} of single draws]"),
            (pd.DataFrame(rows), f"Tables 2, 5 and 7, Fig. 2's ratio and the UDM analysis over {d.replicates} draws "
                                 f"of U2: mean [{iv} of single draws]")]


def graded_note(rob: Robustness, rows, name, where: str = "A.1") -> str:
    """Caveat ``graded_too`` computed from the rows it marks: the thresholds where their PRM − binary
    tests reject, at each of which linear − binary rejects too and PRM − linear does not (the rule of
    :func:`helpers.findings.prm._graded_too`); ``""`` when no row carries it."""
    marked = [r for r in rows if "graded_too" in r.caveats and r.numbers.get("analysis") in rob.claims]
    ths = sorted({th for r in marked for th in rob.supported(r.numbers["analysis"])}, reverse=True)
    if not ths:
        return ""
    at = claims.listing([f"θ = {name(th)}" for th in ths])
    return (f"In the rows marked so, linear gains beat binary gains at {at}, where the PRM's do, and the PRM's "
            f"do not beat linear ones there (linear − binary: {where}): that gain is not the PRM's own.")


def coverage_test(inside: int, n: int, level: float = 0.95, alpha: float = 0.05) -> tuple[str, float, str]:
    """Whether ``inside`` of ``n`` intervals of nominal coverage ``level`` covering their exact values
    is consistent with that coverage: the one-sided binomial probability of at least ``n - inside``
    misses when each interval misses with probability ``1 - level``. ``"holds"`` unless that
    probability is below ``alpha`` (too many misses), then ``"does not hold"``. Returns (verdict,
    p, text); the intervals are taken as independent (they are not quite: one simulation)."""
    from scipy.stats import binom

    misses = int(n) - int(inside)
    p = float(binom.sf(misses - 1, int(n), 1 - level)) if misses > 0 else 1.0
    expected = f"{n * (1 - level):.1f} expected at {level * 100:g}% coverage"
    text = (f"no miss ({expected})" if not misses else
            f"{claims.plural(misses, 'miss', 'misses')} ({expected}), binomial P(≥ {misses}) = "
            f"{claims.format_p(p, alpha)} {'<' if p < alpha else '≥'} {alpha:g}")
    return ("does not hold" if p < alpha else "holds"), p, text


def joint_note(rob: Robustness, name=str, own: str = "own level") -> str:
    """One clause for the Limitations beside the findings table's Holm family (real data): the
    own-level tests (appendix) form a family of their own; for each that is significant there, its
    Holm p in one joint family with the findings table's tests. ``rob``: Table 6's tests after
    :func:`table_holm` (their ``numbers["family"]`` name the family). ``""`` without both families."""
    table = [a for a, by in rob.claims.items() if a != own and any(c.numbers.get("family") == "findings table"
                                                                    for c in by.values())]
    sep = rob.claims.get(own) or {}
    if not table or not sep or not all(c.numbers.get("family") for c in sep.values()):
        return ""
    joint = table_holm({"main": rob}, {"joint": [("main", a) for a in table + [own]]})["main"].claims[own]
    m = next(iter(joint.values())).numbers["m"]
    sig = [th for th, c in sep.items() if c.numbers.get("differs")]
    head = f"The own-level rows (appendix) are a Holm family of their own ({claims.plural(len(sep), 'test')})"
    if not sig:
        return f"{head}; none is significant."
    parts = [f"θ = {name(th)} p = {claims.format_p(joint[th].numbers['p_holm'])} "
             f"({'significant' if joint[th].numbers.get('differs') else 'not significant'})" for th in sig]
    return f"{head}; in one family of {m} with this table's, {claims.listing(parts)}."
