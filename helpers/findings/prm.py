"""Notebook 03's findings: the Predicted Relevance Model of Demeester et al. (IRJ 2016).

Questions asked of every run: do Eq. 4 and 5 give Table 1; do Eq. 4 and 5 agree (Table 2,
valid only when U2 re-judged an unbiased pool); does the topic bootstrap spread p(T|T) more than
its binomial sigma (Fig. 2); is the PRM count of relevant results the more precise (Table 5); are
PRM gains more robust to the assessor than binary gains (Table 6) -- tested with gains estimated
on other topics (cross-fitted), the in-sample test beside it; how close PRM orderings are to
binary ones (Table 7); and whether the PRM, unlike the UDM, gives two indistinguishable levels
the same gain (Sect. 3.4.3). On the simulation the recovery of the calibrated p(R|i) is a check
of the machinery.

One multiplicity rule: every test over thresholds is Holm-adjusted over the thresholds it tests
(:func:`helpers.notebook.claims.compare_holm`), in Table 6 and across replicates alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import prm
from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["Setup", "check_parameters", "HOLM", "holm_claims", "calibration", "ratio_reading", "bootstrap_ratio",
           "Robustness", "spread", "tau_text",
           "robustness_single", "robustness_replicates", "robustness_draws", "difference_lines", "wins_line", "findings"]

#: The multiplicity rule, named once.
HOLM = "Holm-adjusted over the thresholds tested"

#: Paper values quoted in the table (Demeester et al. 2016).
TABLE1 = {"eq4": {2: (2, 4), 1: (3, 10), 0: (1, 6)}, "eq5": {2: (4, 10), 1: (5, 17), 0: (1, 13)}}
PAPER_TABLE7_TOP = 0.75   # PRM vs binary, top relevance, FedWeb13 Results Merging
PAPER_FIG2 = "sd 0.06 vs σ 0.02 for p(Key|Key) (FedWeb13 pages)"


@dataclass(frozen=True)
class Setup:
    """The run's thresholds: ``T`` (top level), ``theta_rel`` (relevance threshold), ``thetas``
    (shown: T and theta_rel), ``variants`` (theta = 1 as a labelled variant), and the notes that
    label them."""

    T: int
    theta_rel: int
    thetas: list
    variants: list
    theta_note: str
    variant_note: str

    @property
    def all_thetas(self) -> list:
        return self.thetas + self.variants


def _check_ints(g: Mapping) -> None:
    for name, low in [("n_topics", 2), ("n_docs", 10), ("n_runs", 3), ("B", 10), ("rounds", 2), ("n_sizes", 2),
                      ("k", 1), ("k_table7", 1), ("splits", 1), ("replicates", 1), ("d_max", 1)]:
        value = g[name]
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


def check_parameters(g: Mapping) -> Setup:
    """Check notebook 03's parameters (``g``: the notebook's namespace) and derive its thresholds.

    Raises ``ValueError`` (or :class:`helpers.notebook.params.ParameterError`) naming the parameter."""
    from ..data import datasets, thresholds
    from ..io import readers
    from ..notebook import params

    _check_ints(g)
    if not g["scheduler"]:
        raise ValueError("scheduler must be 'local', 'serial' or a dask scheduler address such as tcp://host:8786")
    dataset = g["dataset"]
    if dataset not in ("simulated", "dl19", "files"):
        raise ValueError(f"dataset must be 'simulated', 'dl19' or 'files', got {dataset!r}")
    params.check_file_inputs(g, mode=dataset == "files", required=["qrels_path", "runs_glob"],
                             optional=["second_qrels_path", "ratings_path"], switch='dataset: "files"')
    if dataset == "files" and bool(g["second_qrels_path"]) == bool(g["ratings_path"]):
        raise params.ParameterError("dataset 'files' needs exactly one of second_qrels_path (U2's qrels) and "
                                    f"ratings_path (other assessors' ratings); got {'both' if g['ratings_path'] else 'neither'}")
    if g["ratings_layout"] not in readers.RATING_LAYOUTS:
        raise ValueError(f"ratings_layout must be one of {readers.RATING_LAYOUTS}, got {g['ratings_layout']!r}")
    if g["method"] not in prm.METHODS:
        raise ValueError(f"method must be one of {prm.METHODS}, got {g['method']!r}")
    if dataset == "simulated" and max(g["k"], g["k_table7"]) > g["n_docs"]:
        raise ValueError(f"k ({g['k']}) and k_table7 ({g['k_table7']}) cannot exceed n_docs ({g['n_docs']})")
    if not 0.5 <= g["tau_level"] < 1:
        raise ValueError(f"tau_level must lie in [0.5, 1), got {g['tau_level']}")
    T = 3 if dataset in ("simulated", "dl19") else int(g["d_max"])
    own = {"simulated": 1, "dl19": datasets.DL19_RELEVANCE_THRESHOLD}
    rel = g["relevance_threshold"]
    theta = thresholds.for_run(rel, dataset, qrels_path=g["qrels_path"], collections=own)
    if int(rel) != rel or not 1 <= theta <= T:
        raise ValueError(f"relevance_threshold must be 0 (the collection's definition) or a level in 1..{T}, got {rel!r}")
    variant = {"dl19": "VARIANT: counts NIST's level 1 'related' as relevant; TREC does not"}.get(
        dataset, "VARIANT: below the relevance threshold")
    try:   # the collection's own threshold, to say when relevance_threshold sets another one
        coll = thresholds.for_run(0, dataset, qrels_path=g["qrels_path"], collections=own)
    except ValueError:   # own files: the files do not say; relevance_threshold is the only definition
        coll = theta
    note = ("the collection's relevance threshold" if theta == coll else
            f"the relevance threshold set by relevance_threshold; the collection's is {coll}"
            + (f"; {variant}" if theta < coll else ""))
    return Setup(T, theta, list(dict.fromkeys([T, theta])), [1] if theta > 1 else [], note, variant)


# -- per-section readings used by the printed lines -----------------------------------------------
def holm_claims(means: Mapping, p: Mapping, *, alpha: float = 0.05) -> dict:
    """Per threshold, PRM against binary worded by the Holm-adjusted p-value (:data:`HOLM`).
    ``means[th] = (PRM tau, binary tau)``, ``p[th]`` the raw two-sided p-value."""
    tests = {th: dict(a_name="PRM", a=means[th][0], b_name="binary", b=means[th][1], p=p[th]) for th in p}
    return claims.compare_holm(tests, alpha=alpha, family="thresholds") if tests else {}


def calibration(estimates: pd.DataFrame, method: str, level_names) -> dict:
    """The simulated estimates against the model's exact p(R|i), in binomial sigmas, and the
    model's largest gap to the paper's Table 3 (:func:`helpers.simulate.judgments.expected_p`)."""
    from ..simulate import judgments

    exact = judgments.expected_p().set_index(["threshold", "level"])["p"]
    gap = max(abs(exact[(th, i)] - v) for th, row in judgments.FEDWEB13_TABLE3.items() for i, v in enumerate(row))
    own = estimates[(estimates["method"] == method) & (estimates["sigma"] > 0)]
    zs = {(int(r.threshold), int(r.level)): (r.p - exact[(int(r.threshold), int(r.level))]) / r.sigma
          for r in own.itertuples()}
    at = max(zs, key=lambda key: abs(zs[key]))
    return {"gap": float(gap), "within_2": int(sum(abs(z) <= 2 for z in zs.values())), "n": len(zs),
            "max": float(abs(zs[at])), "where": f"p(R|{level_names[at[1]]}) at θ = {level_names[at[0]]}"}


#: How the bootstrap sd / binomial sigma ratio reads: above 1, below 1, or 1 within its interval.
READ_RATIO = {"above": "the topic bootstrap spreads p(T|T) more than its binomial σ: topics add variation",
              "below": "the topic bootstrap spreads p(T|T) less than its binomial σ, the more cautious of the two",
              "about": "no difference shown between the topic bootstrap sd and the binomial σ"}


def ratio_reading(mean: float, low: float, high: float) -> str:
    """``"above"``, ``"below"`` or ``"about"``: where 1 lies against the ratio's interval."""
    c = claims.compare("ratio", mean, "1", 1.0, interval_a=(low, high), interval_b=(1.0, 1.0), digits=2)
    return "about" if not c.numbers["differs"] else "above" if mean > 1 else "below"


# -- Table 6: PRM against binary gains, in sample and cross-fitted ---------------------------------
@dataclass(frozen=True)
class Robustness:
    """Table 6's paired test per analysis (``"cross-fitted"``, ``"in sample"``) and threshold:
    ``claims`` (Holm-adjusted, :func:`holm_claims`) and ``diffs`` (PRM - binary: mean, low,
    high of its interval); ``scope`` says over what (``"this collection"``, ``"50 draws of U2"``)
    and ``interval`` which interval."""

    scope: str
    claims: dict
    diffs: dict
    interval: str

    def supported(self, analysis: str) -> list:
        return [th for th, c in self.claims.get(analysis, {}).items() if c.numbers["differs"] and
                c.numbers["a"] > c.numbers["b"]]

    def against(self, analysis: str) -> list:
        return [th for th, c in self.claims.get(analysis, {}).items() if c.numbers["differs"] and
                c.numbers["a"] < c.numbers["b"]]


def _percentile(d) -> tuple:
    x = np.asarray(d, dtype=float)
    x = x[np.isfinite(x)]
    c = claims.interval(x) if len(x) else None
    return (float(x.mean()) if len(x) else float("nan"),) + ((c.numbers["low"], c.numbers["high"]) if c else
                                                             (float("nan"), float("nan")))


def robustness_single(table6: pd.DataFrame, boot_in: Mapping, cf_rows: pd.DataFrame, names) -> Robustness:
    """One data set: the in-sample paired bootstrap (``boot_in[th]``: resampled differences,
    :func:`helpers.prm.robustness_difference`) and the cross-fitted one (``cf_rows`` of
    :func:`helpers.prm.crossfit_robustness`), each Holm-adjusted over its thresholds."""
    t6 = table6.set_index("gains")
    tau = lambda g, th: float(t6.loc[f"{g}, theta={names[th]}", "tau"])  # noqa: E731
    means_in = {th: (tau("PRM", th), tau("binary", th)) for th in boot_in}
    p_in = {th: prm.bootstrap_p(d) for th, d in boot_in.items()}
    diffs = {"in sample": {th: (means_in[th][0] - means_in[th][1],) + _percentile(d)[1:] for th, d in boot_in.items()}}
    s = prm.crossfit_summary(cf_rows).set_index("theta")
    boot = cf_rows[cf_rows["kind"] == "boot"]
    means_cf = {int(th): (float(r.tau_prm), float(r.tau_binary)) for th, r in s.iterrows()}
    diffs["cross-fitted"] = {th: (float(s.loc[th, "diff"]),) + _percentile(boot.loc[boot["theta"] == th, "diff"])[1:]
                             for th in means_cf}
    return Robustness("this collection" if len(t6) else "", {
        "cross-fitted": holm_claims(means_cf, {th: float(s.loc[th, "p"]) for th in means_cf}),
        "in sample": holm_claims(means_in, p_in)}, diffs, "percentile interval over the topic resamples")


def robustness_replicates(sim, what: str = "replicates") -> Robustness:
    """Over independent replicates (:class:`helpers.replicates.prm.Simulated`): the CI of the mean
    paired difference (Student's t), its p-value Holm-adjusted over the thresholds."""
    from ..stats.summary import mean_interval

    out, diffs = {}, {}
    for a, by in sim.diffs.items():
        out[a] = holm_claims(sim.means[a], sim.p[a])
        diffs[a] = {th: (float(np.nanmean(d)),) + tuple(mean_interval(np.asarray(d)[np.isfinite(d)], 0.95)[:2])
                    for th, d in by.items()}
    return Robustness(f"{sim.replicates} {what}", out, diffs, "95% CI of the mean over the replicates")


def robustness_draws(d) -> Robustness:
    """Over the draws of U2 (:class:`helpers.replicates.prm.Draws`): the topic resamples of every
    draw pooled, their bootstrap p-value Holm-adjusted over the thresholds."""
    out = {a: holm_claims(d.means[a], d.p[a]) for a in d.p if d.p[a]}
    diffs = {a: {th: (d.means[a][th][0] - d.means[a][th][1],) + _percentile(v)[1:] for th, v in by.items()}
             for a, by in d.pooled.items() if by}
    return Robustness(f"{d.replicates} draws of U2", out, diffs,
                      "percentile interval over the pooled topic resamples")


# -- the findings table ---------------------------------------------------------------------------
_CAVEATS = {
    "sim_prm": "The simulation draws both assessors from one latent relevance calibrated to the paper's Table 3, "
               "so it favours the PRM by construction; the `real` profile speaks about real assessors.",
    "other_data": "The paper's values come from FedWeb13 and INTENT-2, whose judgments are not public; a gap to them "
                  "is no failure to reproduce.",
    "eq5_biased": "U2 re-judged U1's levels in different shares, so Eq. 5 is biased here (Sect. 5.2.1).",
    "no_test": "Counts of runs carry no test.",
    "u2_draw": "U2 is one rater per item drawn at random; the values marked so summarise the draws.",
}


def _sig(v: float) -> str:
    return claims.number(v) if v < 0 else "+" + claims.number(v)


def _diff(mean: float, lo: float, hi: float, what: str = "resample") -> str:
    """A signed difference with its interval; 'undefined' without one, no zero-width interval."""
    if not np.isfinite(mean):
        return "undefined (an ordering ties every run)"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return _sig(mean)
    if lo == hi:
        return f"{_sig(mean)} (every {what}: {_sig(lo)})"
    return f"{_sig(mean)} [{_sig(lo)}, {_sig(hi)}]"


def _table6_run(rob: Robustness, analysis: str, name) -> str:
    parts = []
    for th, c in rob.claims[analysis].items():
        mean, lo, hi = rob.diffs[analysis][th]
        test = f", Holm p {_p(c.numbers['p_holm'])}" if np.isfinite(c.numbers["p_holm"]) else ""
        parts.append(f"θ = {name(th)}: {_diff(mean, lo, hi)}{test}")
    return "; ".join(parts)


def _p(p: float) -> str:
    text = claims.format_p(p)
    return text if text.startswith(("<", ">")) else f"= {text}"


def _table6_verdict(rob: Robustness, analysis: str) -> str:
    n, ok, bad = len(rob.claims[analysis]), rob.supported(analysis), rob.against(analysis)
    if n and len(ok) == n:
        return "shown"
    if ok:
        return "holds in part"
    return "does not hold" if n and len(bad) == n else "not shown"


def _table6_rows(rob: Robustness, name, base: tuple) -> list[Finding]:
    paper = "yes: τ rises in 3 of 4 INTENT-2 sets (0.84 → 0.93 Japanese inf.)"
    rows = []
    for analysis, q, extra in (("cross-fitted", "gains estimated on the other half of the topics", ()),
                               ("in sample", "gains estimated on the same topics (the paper's way)", ("in_sample",))):
        if rob.claims.get(analysis):
            rows.append(Finding(f"Table 6: are PRM gains more robust to the assessor than binary gains, {q}?", paper,
                                f"over {rob.scope}: " + _table6_run(rob, analysis, name),
                                _table6_verdict(rob, analysis), caveats=base + extra,
                                numbers={str(th): c.numbers for th, c in rob.claims[analysis].items()}))
    return rows


def _eq_row(estimates: pd.DataFrame, T: int, name, eq5_valid: bool) -> Finding:
    e = {m: estimates[(estimates["threshold"] == T) & (estimates["method"] == m)].set_index("level")
         for m in ("eq4", "eq5")}
    gap = (e["eq4"]["p"] - e["eq5"]["p"]).abs()
    z = gap / e["eq4"]["sigma"]
    ok = bool((z.dropna() <= 2).all())
    run = f"θ = {name(T)}: largest gap {claims.number(gap.max())}; up to {z.max():.1f} of Eq. 4's σ"
    verdict = "differs" if not eq5_valid else ("agrees" if ok else "differs")
    return Finding("Table 2: do Eq. 4 and Eq. 5 give the same p(R|i)?",
                   "yes: differences small; Eq. 5 has the smaller σ", run, verdict,
                   caveats=() if eq5_valid else ("eq5_biased",),
                   numbers={"gap": float(gap.max()), "z_max": float(z.max()), "eq5_valid": eq5_valid})


def bootstrap_ratio(sd: float, sigma: float, B: int) -> tuple:
    """The topic-bootstrap sd of p(T|T) over its binomial sigma, with the 95% chi-square interval
    for the Monte Carlo noise of ``B`` resamples (:func:`helpers.stats.sd_interval`); NaNs when sigma
    is 0 or undefined (p(T|T) of 0 or 1, or no judgment at the top level)."""
    from .. import stats

    if not (np.isfinite(sigma) and sigma > 0 and np.isfinite(sd)):
        return (float("nan"),) * 3
    return (float(sd / sigma),) + tuple(float(v / sigma) for v in stats.sd_interval(sd, B))


def _ratio_row(ratio: tuple, base: tuple) -> Finding:
    mean, lo, hi = ratio
    q = "Fig. 2: does the topic bootstrap spread p(T|T) more than its binomial σ?"
    if not all(np.isfinite(v) for v in ratio):
        return Finding(q, f"yes: {PAPER_FIG2}", "no ratio: σ of p(T|T) is 0 or undefined", "cannot tell",
                       numbers={"mean": mean})
    reading = ratio_reading(mean, lo, hi)
    return Finding(q, f"yes: {PAPER_FIG2}", f"sd / σ = {claims.bracket(mean, lo, hi, digits=2)}",
                   {"above": "holds", "below": "does not hold", "about": "not shown"}[reading], caveats=base,
                   numbers={"mean": mean, "low": lo, "high": hi, "reading": reading})


def _table5_row(shares: Mapping, n: int, name, base: tuple, draws: int = 0) -> Finding:
    """``shares[th]``: the share of the ``n`` runs whose PRM count has the smaller relative SE (with
    ``draws``, its mean over the draws of U2)."""
    if draws:
        held = [th for th, s in shares.items() if s > 0.75]
        run = "; ".join(f"θ = {name(th)}: {s:.0%} of {n} runs" for th, s in shares.items()) + f" (mean of {draws} draws)"
    else:
        held = [th for th, s in shares.items() if claims.share_word(round(s * n), n) in ("most", "all")]
        run = "; ".join(f"θ = {name(th)}: {claims.share_of(round(s * n), n, 'run')}" for th, s in shares.items())
    verdict = "holds" if len(held) == len(shares) else "holds in part" if held else "does not hold"
    return Finding("Table 5: is the PRM count of relevant results the more precise (smaller SE / mean)?",
                   "yes, at both θ (FedWeb13, top 3)", run, verdict, caveats=base + ("no_test",),
                   numbers={str(th): float(s) for th, s in shares.items()})


def _table7_row(tau: tuple, T_name: str, base: tuple) -> Finding:
    t, lo, hi = tau
    verdict = ("cannot tell" if not np.isfinite(t) or lo == hi else "agrees" if lo <= PAPER_TABLE7_TOP <= hi
               else "differs")
    return Finding(f"Table 7: how close is the PRM ordering to the binary one at top relevance (θ = {T_name})?",
                   f"τ = {PAPER_TABLE7_TOP} (FedWeb13 Results Merging)",
                   f"τ = {tau_text(t, lo, hi)}", verdict, caveats=base,
                   numbers={"tau": t, "low": lo, "high": hi})


def _udm_row(prm_ratio: str, udm_ratio: str, numbers: Mapping) -> Finding:
    return Finding("Sect. 3.4.3: with the top two levels indistinguishable, does the PRM give them equal gains, "
                   "unlike the UDM?", "argued, not measured", f"gain ratio PRM {prm_ratio}, UDM {udm_ratio}",
                   "by construction", caveats=("by_construction",), numbers=dict(numbers))


def _calibration_row(cal: Mapping, method: str) -> Finding:
    return Finding("Do the estimates recover the simulation's exact p(R|i)?",
                   f"Table 3 (the model lies within {cal['gap']:.3f} of it)",
                   f"{cal['within_2']} of {cal['n']} {method} estimates within 2 σ; largest |z| {cal['max']:.1f} "
                   f"({cal['where']})", "by construction", caveats=("by_construction",), numbers=dict(cal))


def _prose(rob: Robustness, name, *, method: str, eq5_valid: bool, nonmono, p_top: str) -> list[str]:
    out = []
    cf, ins = rob.diffs.get("cross-fitted", {}), rob.diffs.get("in sample", {})
    both = [th for th in cf if th in ins]
    if both:
        th = both[0]
        out.append(f"At θ = {name(th)} the PRM's gain in robustness is {_sig(cf[th][0])} with cross-fitted gains and "
                   f"{_sig(ins[th][0])} in sample: the cross-fitted test is the one to read.")
    out.append(f"Every test over thresholds is {HOLM} (one family per test).")
    if p_top:
        out.append(p_top)
    if method == "eq5" and not eq5_valid:
        out.append("The PRM gains are Eq. 5 estimates, biased on these data: rerun with `method: eq4`.")
    if nonmono:
        out.append("The PRM gains are not monotone in the level at θ = " + claims.listing([name(t) for t in nonmono])
                   + ": they rank some lower levels above higher ones.")
    return out


def findings(*, dataset: str, method: str, level_names, table1_ok: bool, estimates: pd.DataFrame, eq5_valid: bool,
             ratio: tuple, table5_shares: Mapping, n_runs: int, robustness: Robustness, table7_tau: tuple,
             udm: Mapping, calibration: Mapping | None = None, draws: int = 0, replicates: int = 0, nonmono=(),
             p_top: str = "", variants=(), footer: str = "") -> Findings:
    """The findings of notebook 03 (see the module docstring for the questions).

    Parameters
    ----------
    dataset, method, level_names : the run's data set, estimator and level names.
    table1_ok : whether Eq. 4 and 5 give every fraction of the paper's Table 1.
    estimates : :func:`helpers.prm.estimate` rows of every threshold and method (``threshold``, ``method``).
    eq5_valid : whether U2 re-judged U1's levels in equal shares (:func:`helpers.prm.inputs.coverage`).
    ratio : topic-bootstrap sd of p(T|T) over its binomial sigma: (value, low, high).
    table5_shares, n_runs : per threshold, the share of the ``n_runs`` runs whose PRM count has the
        smaller relative SE (a mean over the draws of U2 when ``draws``).
    robustness : Table 6's tests (:func:`robustness_single`, :func:`robustness_replicates`,
        :func:`robustness_draws`).
    table7_tau : PRM vs binary tau at theta = T: (tau, low, high).
    udm : ``prm_ratio``, ``udm_ratio`` (text) and their numbers.
    calibration : :func:`calibration` (simulated runs).
    draws, replicates : draws of U2 behind the values (0: none), and replicates of the simulation.
    nonmono : thresholds whose PRM gains are not monotone in the level.
    p_top : a sentence on p(T|T) for real data.
    variants : thresholds shown as labelled variants (below the collection's relevance threshold).
    """
    name = lambda i: level_names[i]  # noqa: E731
    T = len(level_names) - 1
    sim = dataset == "simulated"
    paper_gap = ("stand_in",) if sim else ("other_data",)
    drawn = ("u2_draw",) if draws else ()
    few = ("few_draws",) if 1 < (draws or replicates) < claims.min_draws() else ()
    rows = [Finding("Table 1: do Eq. 4 and Eq. 5 give the paper's fractions?",
                    "Eq. 4: 2/4, 3/10, 1/6; Eq. 5: 4/10, 5/17, 1/13", "6 of 6 fractions equal" if table1_ok
                    else "some fractions differ (section 1)", "reproduced" if table1_ok else "not reproduced",
                    numbers={"ok": table1_ok})]
    if calibration is not None:
        rows.append(_calibration_row(calibration, method))
    rows.append(_eq_row(estimates, T, name, eq5_valid))
    rows.append(_ratio_row(ratio, paper_gap + drawn + few))
    rows.append(_table5_row(table5_shares, n_runs, name, paper_gap + drawn, draws=draws))
    rows += _table6_rows(robustness, lambda i: name(i) + (" (variant)" if i in variants else ""), few)
    rows.append(_table7_row(table7_tau, name(T), paper_gap))
    rows.append(_udm_row(udm["prm_ratio"], udm["udm_ratio"], udm.get("numbers", {})))
    prose = _prose(robustness, name, method=method, eq5_valid=eq5_valid, nonmono=nonmono, p_top=p_top)
    return Findings("03_prm_estimation", rows, prose, caveats=_CAVEATS, general=("sim_prm",) if sim else (),
                    footer=footer)


# -- printed lines of the replicated studies -----------------------------------------------------
def difference_lines(rob: Robustness, name, label=lambda th: "") -> list[str]:
    """One line per analysis and threshold: the difference, its interval and the Holm-worded test."""
    out = []
    for analysis in ("cross-fitted", "in sample"):
        for th, c in rob.claims.get(analysis, {}).items():
            mean, lo, hi = rob.diffs[analysis][th]
            said = f": {c}" if np.isfinite(mean) else ""
            out.append(f"  {analysis:<13} theta = {name(th)}: PRM - binary {_diff(mean, lo, hi)}{said}{label(th)}")
    return out


def wins_line(wins: Mapping, n: Mapping | int, name, what: str = "replicates") -> str:
    """In how many ``what`` the in-sample PRM tau is above the binary one, per threshold (of those
    with both tau defined, ``n``)."""
    def one(th):
        m = n[th] if isinstance(n, Mapping) else n
        if not m:
            return f"theta = {name(th)}: tau undefined in every {what[:-1]} (an ordering ties every run)"
        return f"theta = {name(th)}: {wins[th]} of {m}"   # counts, no share word: a row per threshold reads plainly
    return f"{what} in which in-sample PRM gains are more robust than binary gains: " + ", ".join(one(th) for th in wins)


# -- values over draws, as the table and the printed lines show them ------------------------------
#: The summaries of :class:`helpers.replicates.prm.Draws` printed, with their labels.
SUMMARIES = {"table5_tau": "Table 5, tau of the PRM and binary count orderings",
             "table5_share_prm_more_precise": "Table 5, share of runs whose PRM count has the smaller relative SE",
             "table5_share_prm_smaller": "Table 5, share of runs whose PRM count is the smaller count",
             "table7": "Table 7, tau of PRM against other gains (U1's labels)",
             "boot_ratio": "topic-bootstrap sd of p(T|T) over its binomial sigma",
             "udm": "top two levels made indistinguishable: ratio of their gains"}


def spread(mean: float, low: float, high: float, digits: int = 3, what: str = "draw") -> str:
    """``mean [low, high]`` over draws; no zero-width interval: draws that all agree say so
    (``"1.000 in every draw"``), and an interval of one value beside another mean names it."""
    n = lambda v: claims.number(v, digits)  # noqa: E731
    if not np.isfinite(mean):
        return "undefined"
    if low == high:
        return f"{n(mean)} in every {what}" if mean == low else f"{n(mean)} (the middle {what}s all {n(low)})"
    return claims.bracket(mean, low, high, digits)


def tau_text(tau: float, low: float, high: float) -> str:
    """Kendall's tau with its asymptotic interval; none where the orderings agree (or reverse)
    exactly, since the asymptotic variance is 0 there, and "undefined" where an ordering ties every run."""
    if not np.isfinite(tau):
        return "undefined (an ordering ties every run)"
    if low == high:
        return f"{claims.number(tau)} (no interval: the orderings {'agree' if tau > 0 else 'reverse'} exactly)"
    return claims.bracket(tau, low, high)


def summary_triple(s: pd.DataFrame) -> tuple:
    """(mean, low, high) of a one-row :func:`helpers.replicates.runner.summarise` frame."""
    r = s.iloc[0]
    return float(r["mean"]), float(r["low"]), float(r["high"])


def summary_means(s: pd.DataFrame, thetas) -> dict:
    """Per threshold, the mean over the draws of a summarised quantity."""
    by = s.set_index("theta")["mean"]
    return {th: float(by.loc[th]) for th in thetas}


def udm_view(over_draws: pd.DataFrame | None, single: Mapping) -> dict:
    """The PRM and UDM gain ratios of Sect. 3.4.3 as the findings table shows them: over the draws
    of U2 (``over_draws``, :func:`helpers.replicates.runner.summarise` by level) or this run's."""
    if over_draws is not None:
        u = over_draws.set_index("level")
        return {"prm_ratio": spread(*summary_triple(u.loc[["prm_ratio"]].reset_index())),
                "udm_ratio": spread(*summary_triple(u.loc[["udm_ratio"]].reset_index())),
                "numbers": {k: float(u.loc[k, "mean"]) for k in ("prm_ratio", "udm_ratio")}}
    prm_r, udm_r = float(single["prm_ratio_top_two"]), float(single["udm_ratio_top_two"])
    return {"prm_ratio": f"{prm_r:.2f}", "udm_ratio": f"{udm_r:.2f}", "numbers": {"prm_ratio": prm_r, "udm_ratio": udm_r}}


def p_top(draws, T: int, method: str) -> str:
    """One sentence on p(T|T) over the draws of U2 (real data)."""
    s = draws.p_table
    r = s[(s["theta"] == T) & (s["level"] == str(T))].iloc[0]
    return (f"Another assessor gives a top-level result the top level with p = {spread(r['mean'], r['low'], r['high'])} "
            f"({method}, mean [{claims.interval_name(draws.replicates)}] over {draws.replicates} draws of U2).")
