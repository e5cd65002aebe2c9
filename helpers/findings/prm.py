"""Notebook 03's findings: the Predicted Relevance Model of Demeester et al. (IRJ 2016).

The question first: are PRM gains more robust to the choice of assessor than binary gains
(Table 6) -- tested with gains estimated on other topics (cross-fitted), the in-sample test
beside it, on real data also with U2's labels given gains conditioned on U2's level, and against
linear gains. Then: do Eq. 4 and 5 give Table 1; do they agree (Table 2; only expected when U2
re-judged an unbiased sample and both assessors have the same marginals); does the topic
bootstrap spread p(T|T) more than its binomial sigma (Fig. 2); is the PRM count of relevant
results the more precise (Table 5); how close PRM orderings are to binary ones (Table 7); and
whether the PRM, unlike the UDM, gives two indistinguishable levels the same gain (Sect. 3.4.3).

On the calibrated simulation the assessors are exchangeable and disagree by level only, as the
PRM assumes: its Table 6 (against binary and linear gains), Table 2, Fig. 2, calibration and UDM rows are checks of
the machinery, shown in an appendix table whatever their verdict. A second simulated collection,
whose U2 is shifted (lenient or strict) by topic, breaks those assumptions: its Table 6
comparisons are findings, with linear − binary as the reference for what any graded gain does.

Every row reads the replicates or the draws of U2 where the run has them
(:mod:`helpers.findings.prm_values`), and names its interval. One multiplicity rule: every test
whose verdict a table shows is Holm-adjusted over every test of that table, one family per table
(:func:`_families`, :func:`helpers.findings.prm_tests.table_holm`); verdicts read the adjusted p.
On the simulation PRM against linear gains is a check too: one latent relevance drives the runs
and both exchangeable assessors, so that comparison is set by how the simulation was built.
"""

from __future__ import annotations

from collections.abc import Mapping
import dataclasses
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import prm
from ..notebook import claims
from ..notebook.findings import AppendixFindings, Finding, Findings
from . import prm_values
from .prm_values import Value, bootstrap_ratio, sim_mean, spread, tau_text
from .prm_tests import (HOLM, PAIRS, SUMMARIES, Robustness, across_rows, all_tests, diff_text,  # noqa: F401
                        draws_views, holm_claims, over, p_text, replicate_view, star_label, robustness_draws, robustness_replicates,
                        robustness_single, signed, table_holm, tests_table, wins_line)
from .prm_tests import coverage_test, joint_note, graded_note as _graded_text

__all__ = ["Setup", "check_parameters", "HOLM", "holm_claims", "calibration", "ratio_reading", "bootstrap_ratio",
           "Robustness", "Value", "spread", "tau_text", "MIN_RESAMPLES", "MIN_RANGE", "run_values",
           "robustness_single", "robustness_replicates", "robustness_draws", "tests_table", "all_tests", "wins_line",
           "findings", "marginal_tests_line", "SELECTED_POOL", "replicate_view", "star_label", "lenience_phrase", "p_text", "PrmFindings", "PAIRS", "few", "verdict_counts"]


#: Paper values quoted in the table (Demeester et al. 2016).
TABLE1 = {"eq4": {2: (2, 4), 1: (3, 10), 0: (1, 6)}, "eq5": {2: (4, 10), 1: (5, 17), 0: (1, 13)}}
PAPER_TABLE7_TOP = 0.75   # PRM vs binary, top relevance, FedWeb13 Results Merging
PAPER_FIG2 = "sd 0.06 vs σ 0.02 for p(Key|Key) (FedWeb13 pages)"


#: The caption of this notebook's appendix table (``prm``'s ``appendix_findings``).
_APPENDIX_TITLE = ("Appendix of notebook 03: checks of the estimators (Tables 1-2, Fig. 2, Sect. 3.4.3) and, on "
                   "simulated data, results the simulation settles by how it was built (verdicts from the run's "
                   "numbers).")


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
    for name, lo, hi in (("u2_lenience", -3.0, 3.0), ("lenience_sd", 0.0, 3.0)):
        v = g[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            raise ValueError(f"{name} must be a number in [{lo:g}, {hi:g}] (latent units), got {v!r}")
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


def calibration(estimates: pd.DataFrame, method: str, level_names, sim=None) -> dict:
    """The simulated estimates against the model's exact p(R|i) and the model's largest gap to the
    paper's Table 3 (:func:`helpers.simulate.judgments.expected_p`). With ``sim`` (replicates of
    :func:`helpers.replicates.prm.prm_robustness` run with ``details``): how many exact values lie
    in the interval of the estimates over the replicates; else this collection's estimates in
    binomial sigmas."""
    from ..simulate import judgments

    exact = judgments.expected_p().set_index(["threshold", "level"])["p"]
    gap = max(abs(exact[(th, i)] - v) for th, row in judgments.FEDWEB13_TABLE3.items() for i, v in enumerate(row))
    if sim is not None and (sim.rep["table"] == "p").any():
        inside = []
        for (th, i), v in exact.items():
            val = sim_mean(sim, "p", f"theta={level_names[th]}, level={level_names[i]}")
            inside.append(bool(val.low <= v <= val.high))
        return {"gap": float(gap), "inside": int(sum(inside)), "n": len(inside), "label": val.label.split(" over ")[0],
                "replicates": sim.replicates}
    own = estimates[estimates["method"] == method]
    # sigma = 0 (p of 0 or 1): the band is the point itself, so an estimate off the exact value is outside it
    zs = {(int(r.threshold), int(r.level)): ((r.p - exact[(int(r.threshold), int(r.level))]) / r.sigma if r.sigma > 0
                                             else 0.0 if r.p == exact[(int(r.threshold), int(r.level))] else np.inf)
          for r in own.itertuples()}
    finite = {k: z for k, z in zs.items() if np.isfinite(z)} or {k: 0.0 for k in zs}
    at = max(finite, key=lambda key: abs(finite[key]))
    return {"gap": float(gap), "within_2": int(sum(abs(z) <= 2 for z in zs.values())), "n": len(zs),
            "zero_sigma_off": int(sum(not np.isfinite(z) for z in zs.values())),
            "max": float(abs(finite[at])), "where": f"p(R|{level_names[at[1]]}) at θ = {level_names[at[0]]}"}


#: How the bootstrap sd / binomial sigma ratio reads: above 1, below 1, or 1 within its interval.
READ_RATIO = {"above": "the topic bootstrap spreads p(T|T) more than its binomial σ: topics add variation",
              "below": "the topic bootstrap spreads p(T|T) less than its binomial σ, the more cautious of the two",
              "about": "no difference shown between the topic bootstrap sd and the binomial σ"}

#: Fig. 2's verdict needs this many topic resamples: the Monte Carlo noise of a bootstrap sd is
#: about ±1.96 / sqrt(2 (B - 1)) of it (±20% at 50 resamples, ±10% at 200), and at 50 the verdict
#: on a ratio near 1 depends on the bootstrap's seed. Fewer give "cannot tell".
MIN_RESAMPLES = 200


def ratio_reading(mean: float, low: float, high: float) -> str:
    """``"above"``, ``"below"`` or ``"about"``: where 1 lies against the ratio's interval."""
    c = claims.compare("ratio", mean, "1", 1.0, interval_a=(low, high), interval_b=(1.0, 1.0), digits=2)
    return "about" if not c.numbers["differs"] else "above" if mean > 1 else "below"


# -- the findings table ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PrmFindings(Findings):
    """The findings of notebook 03 with an ``appendix``: the checks of the machinery (questions a
    simulation settles by how it was built, whatever the verdict), shown after the conclusion
    (:meth:`show_appendix`)."""

    appendix: tuple = ()
    adjusted: Mapping = field(default_factory=dict)   # Table 6's tests as the tables correct them

    def appendix_findings(self) -> Findings:
        """The appendix rows as a table of their own, with the caveats they point to."""
        general = tuple(k for k in ("brackets_appendix", "holm_appendix") if self.caveats.get(k))
        return AppendixFindings(self.notebook, self.appendix, (), caveats=self.caveats, general=general,
                                title=_APPENDIX_TITLE)

    def show_appendix(self, out=None) -> None:
        """Display the appendix (saved as ``03_findings_appendix.{csv,tex}`` with ``out``)."""
        self.appendix_findings().show_or_say(out, empty="appendix: no check of the machinery in this run")


_CAVEATS = {
    "sim_design": "Both simulated assessors follow one latent-relevance model calibrated to the paper's Table 3, so "
                  "they disagree exactly as the PRM assumes; its topic spread is set, not fitted.",
    "other_data": "The paper's values are from licensed FedWeb13 and INTENT-2 data: a gap to them is no failure "
                  "to reproduce.",
    "eq_same": "Eq. 4 and Eq. 5 agree only when U2 re-judged an unbiased sample of U1's judgments with the same "
               "marginals (Sect. 5.2.1).",
    "eq5_biased": "Here U2 re-judged U1's levels in different shares: the paper predicts Eq. 5 is biased "
                  "then, and the selection alone makes the marginals differ, so the design cannot test the agreement.",
    "no_test": "Counts of runs carry no test.",
    "se_floor": "Relative SE favours any gain vector with a floor (p(R|0), p(R|1) > 0), not the PRM's alone.",
    "u2_draw": "Intervals over draws of U2 (one rater per item, at random) cover that choice, not topic "
               "sampling.",
    "in_sample": "Gains estimated and scored on the same topics are optimistic.",
    "shared_order": "One latent relevance drives the simulated runs and both assessors, so a graded gain can beat "
                    "binary gains for that reason alone; linear − binary is given as that reference.",
    "graded_too": "Linear gains beat binary gains wherever the PRM's do, and the PRM's do not beat linear ones "
                  "(appendix tests): that gain is not the PRM's own.",
}

_PAPER6 = "yes: τ rises in 3 of 4 INTENT-2 sets (0.84 → 0.93 Japanese inf.)"

#: Table 6's rows: analysis -> (question, what the paper reports).
_QUESTIONS = {
    "cross-fitted": ("Table 6, gains estimated on the other half of the topics (cross-fitted): are PRM gains more "
                     "robust to the assessor than binary gains?", "in sample only: τ rises in 3 of 4 INTENT-2 sets"),
    "in sample": ("Table 6, gains estimated on the same topics (the paper's way): are PRM gains more robust than "
                  "binary gains?", _PAPER6),
    "own level": ("Table 6, U2's labels given gains conditioned on U2's level (Eq. 4 both ways): are PRM gains "
                  "more robust than binary gains?", "not reported: one set of gains for both"),
    "vs linear": ("Table 6, in sample: are PRM gains more robust to the assessor than linear gains?",
                  "no: linear τ is the higher in 3 of 4 INTENT-2 sets"),
}


#: A verdict over replicates or draws needs this many of them, in every row; fewer: "cannot tell".
MIN_RANGE = 20


def few(n: int) -> bool:
    """Whether ``n`` replicates or draws (0: this collection alone) are too few for a verdict
    (:data:`MIN_RANGE`, the one replicate-count rule of every row)."""
    return 0 < n < MIN_RANGE


def _bracket_head(rob: Robustness) -> str:
    """``" [unadjusted 95% interval], Holm p"``: what the brackets beside a Holm-corrected verdict are,
    said where they stand (an unadjusted bracket may exclude 0 while the adjusted test does not)."""
    if rob.interval.startswith("no interval") or not rob.interval:
        return ", Holm p"
    return f" [unadjusted {'range' if 'range' in rob.interval else '95% interval'}], Holm p"


def _table6_run(rob: Robustness, analysis: str, name) -> str:
    """``"PRM − binary τ [unadjusted 95% interval], Holm p: θ = 3 +0.098 [+0.009, +0.282], p = 0.106;
    ... Significant after correction at θ = 3."``: each row says its brackets are unadjusted and its p
    Holm-adjusted; the kind of interval and the family are named once, in the Limitations."""
    parts, sig = [], []
    for th, c in rob.claims[analysis].items():
        mean, lo, hi = rob.diffs[analysis][th]
        test = f", p {p_text(c.numbers['p_holm'])}" if np.isfinite(c.numbers["p_holm"]) else ""
        parts.append(f"θ = {name(th)} {diff_text(mean, lo, hi)}{test}")
        sig += [f"θ = {name(th)}"] if c.numbers["differs"] else []
    first, other = PAIRS[analysis]
    tail = f" Significant after correction at {claims.listing(sig)}." if sig else ""
    return f"{first} − {other} τ{_bracket_head(rob)}: " + "; ".join(parts) + "." + tail


def _brackets(rob: Robustness) -> str:
    """The Limitations' sentence that names Table 6's brackets once."""
    where = "" if rob.scope in rob.interval or rob.scope == "this collection" else f" over {rob.scope}"
    return f"Table 6's brackets{where}: {rob.interval}."


def _table6_verdict(rob: Robustness, analysis: str) -> str:
    n, ok, bad = len(rob.claims[analysis]), rob.supported(analysis), rob.against(analysis)
    if few(rob.n):
        return "cannot tell"
    if n and len(ok) == n:
        return "shown"
    if ok:
        return "holds in part"
    return "does not hold" if bad else "not shown"   # no threshold shown, some the other way: no part holds


def _table6_rows(rob: Robustness, name, base: tuple, *, sim: bool = False) -> tuple[list, list]:
    """(rows, checks): one row per analysis the run has, the verdict always from the tests. On the
    calibrated simulation the assessors disagree as the PRM assumes, so PRM against binary gains
    (cross-fitted or in sample) checks the machinery whatever its outcome: those rows are
    ``checks`` for the appendix (caveat ``by_construction`` when they hold, ``simulated`` when
    not). PRM against linear gains is not settled by that construction: a row (caveat ``simulated``)."""
    rows, checks = [], []
    for analysis, (q, paper) in _QUESTIONS.items():
        if rob.claims.get(analysis):
            extra = ("in_sample",) if analysis in ("in sample", "own level", "vs linear") else ()
            verdict = _table6_verdict(rob, analysis)
            if analysis != "vs linear" and verdict in _HOLDING and _graded_too(rob, analysis):
                extra += ("graded_too",)   # what linear gains get too is no gain of the PRM's own
            # on the simulation one latent relevance drives runs and assessors, exchangeable as the PRM
            # assumes: PRM against binary *and* against linear gains is set by that construction
            first = ((("by_construction",) if verdict in _HOLDING else ("simulated",))
                     + (("shared_order",) if analysis == "vs linear" else ())) if sim else ()
            # own-level gains are fitted in sample to predict one assessor from the other: a check (appendix)
            if sim:   # visibly another question than the findings table's (about assessors that are not built)
                q = q.replace("Table 6, ", "Table 6 on the simulated assessors (a check of the code), ", 1)
            (checks if sim or analysis == "own level" else rows).append(
                Finding(q, paper,
                        _table6_run(rob, analysis, name), verdict, caveats=first + base + extra,
                        numbers={"analysis": analysis, **{str(th): c.numbers for th, c in rob.claims[analysis].items()}}))
    return rows, checks


#: Verdicts that say a claim holds (a by-construction caveat applies only to these).
_HOLDING = ("shown", "holds", "holds in part", "agrees", "reproduced")

#: The notebook's question, as the first row of a simulated run asks it (:func:`_question_row_simulated`).
QUESTION = "Are PRM gains more robust than binary gains when estimated on other topics?"


def _question_row_simulated() -> Finding:
    """The notebook's question on the calibrated simulation: its assessors disagree exactly as the
    PRM assumes, so its cross-fitted Table 6 checks the machinery (appendix) and cannot answer the
    question about assessors; real data (profile ``real``) or the user's own (``files``) can."""
    return Finding(QUESTION, "in sample only: τ rises in 3 of 4 INTENT-2 sets",
                   "cannot tell on simulated data (its test is an appendix check); profile `real` or your own data "
                   "(`files`) answer it",
                   "cannot tell", numbers={"analysis": "question"})


def verdict_counts(rows) -> str:
    """``"shown 2, holds 3, cannot tell 2"``: how many ``rows`` carry each verdict word, every word
    counted separately (a "cannot tell" is never a "did not hold"), in the vocabulary's order."""
    from ..notebook.findings import VERDICTS

    n = {v: sum(r.verdict == v for r in rows) for v in VERDICTS}
    return ", ".join(f"{v} {k}" for v, k in n.items() if k)


def lenience_phrase(u2_lenience: float, lenience_sd: float, shares: tuple | None = None) -> str:
    """How the simulated U2 of the stress collections reads, from the run's own top-level shares
    ``(U1's, U2's)`` (means over the replicates): ``"a lenient U2, by topic"`` only when U2 gives
    the top level more often than U1 and the shift is positive, ``"a strict U2"`` only when both
    point the other way. Otherwise (a negative mean shift whose topic spread still raises U2's top
    share, say) it names no direction: ``"a U2 shifted by topic"``; A.4's table prints the shares."""
    by = ", by topic" if lenience_sd > 0 else ""
    u1, u2 = (tuple(shares[:2]) if shares is not None and len(shares) >= 2 else (np.nan, np.nan))
    known = np.isfinite(u1) and np.isfinite(u2)
    if u2_lenience > 0 and (not known or u2 > u1):
        return "a lenient U2" + by
    if u2_lenience < 0 and (not known or u2 < u1):
        return "a strict U2" + by
    return "a U2 shifted by topic" if lenience_sd > 0 or u2_lenience else "a U2 whose lenience varies"


def _graded_too(rob: Robustness, analysis: str) -> bool:
    """Whether a PRM-over-binary result is one that linear gains get too: linear − binary is shown
    at every threshold where PRM − binary is, and PRM − linear at none of them."""
    ok = rob.supported(analysis)
    if not ok or not rob.claims.get("linear vs binary"):
        return False
    vs = "cross-fitted vs linear" if analysis == "cross-fitted" and rob.claims.get("cross-fitted vs linear") \
        else "vs linear"
    lin, beyond = set(rob.supported("linear vs binary")), set(rob.supported(vs))
    return all(th in lin and th not in beyond for th in ok)


def _stress_rows(rob: Robustness, name, shares: tuple, phrase: str = "a lenient U2") -> tuple[list, list]:
    """Table 6 on simulated collections where the PRM's assumptions fail: ``(rows, checks)``. The
    row asks what the PRM adds: PRM − linear (cross-fitted). PRM − binary, with linear − binary
    beside it, is a check for the appendix: one latent order drives runs and assessors (caveat
    ``shared_order``), so a gain over binary that linear gains get too is built in
    (``by_construction``); its verdict is still the tests' (a strict U2 can make it negative)."""
    rows, checks, nums = [], [], lambda a: {str(th): c.numbers for th, c in rob.claims[a].items()}  # noqa: E731
    q = f"Table 6 where the PRM's assumptions fail ({phrase}): are cross-fitted PRM gains more robust than {{}} gains?"
    if rob.claims.get("cross-fitted vs linear"):
        verdict = _table6_verdict(rob, "cross-fitted vs linear")
        rows.append(Finding(q.format("linear"), "not studied",
                            _table6_run(rob, "cross-fitted vs linear", name), verdict, caveats=("simulated",),
                            numbers=nums("cross-fitted vs linear")))
    if rob.claims.get("cross-fitted"):
        run = _table6_run(rob, "cross-fitted", name)
        verdict = _table6_verdict(rob, "cross-fitted")
        built = verdict in _HOLDING and _graded_too(rob, "cross-fitted")
        checks.append(Finding(q.format("binary"), "not studied", run, verdict,
                              caveats=("by_construction" if built else "simulated", "shared_order"),
                              numbers=nums("cross-fitted")))
    if rob.claims.get("linear vs binary"):   # the reference the row above is read against: a row of its own
        checks.append(Finding(f"Table 6 where the PRM's assumptions fail ({phrase}), the reference: are linear gains "
                              "more robust than binary gains?", "not studied", _table6_run(rob, "linear vs binary", name),
                              _table6_verdict(rob, "linear vs binary"), caveats=("simulated", "shared_order"),
                              numbers={"analysis": "linear vs binary", **nums("linear vs binary")}))
    return rows, checks


def _marginals_text(m: Mapping, unit: str) -> str:
    """The condition of Eq. 4 = Eq. 5 tested: ``"marginals differ (Stuart–Maxwell p < 0.05) in 3 of
    40 replicates (2 expected if equal)"`` -- the count beside the 5% of the
    replicates a true null gives -- or one collection's p-value."""
    if m["n"] == 1 and np.isfinite(m.get("p", np.nan)):
        return (f"Marginals {'differ' if m['differ'] else 'not shown to differ'} "
                f"(Stuart–Maxwell p {p_text(m['p'])})")
    chance = claims.number(0.05 * m["n"], 1)   # the count a true null gives at the 5% level
    return (f"Marginals differ (Stuart–Maxwell p < 0.05) in {m['differ']} of {m['n']} {unit}s "
            f"({chance} expected if equal)")


#: Why a marginal-homogeneity test says nothing on a pool U2 re-judged by U1's level (Sect. 5.2.1).
SELECTED_POOL = ("cannot tell how the assessors label: the pool is selected on U1's level, which makes "
                 "the marginals differ even for exchangeable assessors")


def marginal_tests_line(marg: Mapping, eq5_valid: bool) -> str:
    """Section 2's line of the Stuart–Maxwell and Bowker tests (:func:`helpers.prm.marginal_tests`),
    with :data:`SELECTED_POOL` appended where U2's pool was chosen by U1's level (``eq5_valid`` false)."""
    line = "; ".join(f"{what} ({name}): chi2 = {marg[key]['stat']:.1f}, df {marg[key]['df']}, p {p_text(marg[key]['p'])}"
                     for what, name, key in (("same marginals", "Stuart-Maxwell", "stuart_maxwell"),
                                             ("symmetric table", "Bowker", "bowker")))
    return line if eq5_valid else f"{line}\n  {SELECTED_POOL[0].upper()}{SELECTED_POOL[1:]}"


def _coverage_text(coverage: Mapping, name) -> str:
    """``"U2 re-judged 7.9% of U1's level 0, 100% of levels 1, 2 and 3"``: equal shares grouped."""
    groups: dict = {}
    for i, v in sorted(coverage.items()):
        groups.setdefault(round(float(v), 3), []).append(name(int(i)))
    parts = [f"{v:.1%} of level{'s' if len(ls) > 1 else ''} {claims.listing(ls)}" for v, ls in groups.items()]
    return "U2 re-judged " + ", ".join(parts) + " of U1's judgments"


def _eq_row(gap: Value, z: Value, name_T: str, *, sim: bool, eq5_valid: bool, base: tuple = (),
            marginals: Mapping | None = None, coverage: str = "") -> Finding:
    """Table 2: Eq. 4 against Eq. 5 at theta = T (largest gap and largest z over the levels, over
    the draws or replicates when the run has them), with the condition under which they agree
    tested (``marginals``: :func:`helpers.findings.prm_values.marginals`). Where U2 re-judged U1's
    levels in different shares (``eq5_valid`` false; ``coverage`` says how) the paper predicts Eq. 5
    is biased (Sect. 5.2.1): the data's design cannot test the agreement, so "cannot tell"."""
    q = "Table 2: do Eq. 4 and Eq. 5 give the same p(R|i)?"
    if gap.n:
        run = (f"θ = {name_T}: largest gap {claims.bracket(gap.mean, gap.low, gap.high)}; largest z "
               f"{prm_values.one_format(z.mean, z.low, z.high, 1)} in Eq. 4's σ ({gap.label}).")
        verdict = ("cannot tell" if few(z.n) else "holds" if z.high <= 2 else "does not hold" if z.low > 2
                   else "cannot tell")
    else:
        run = f"θ = {name_T}: largest gap {claims.number(gap.mean)}; up to {z.mean:.1f} of Eq. 4's σ."
        verdict = "holds" if z.mean <= 2 else "does not hold"
    if not np.isfinite(z.mean) or (not sim and not eq5_valid):
        verdict = "cannot tell"
    if marginals and marginals["n"]:
        run += f" {_marginals_text(marginals, gap.unit if gap.n else 'collection')}."   # a selected pool: eq5_biased
    if sim:   # exchangeable simulated assessors: agreement is built in, a gap is not
        caveats = ("by_construction",) if verdict in _HOLDING else ("simulated",)
    else:
        caveats = ("eq_same",) + (() if eq5_valid else ("eq5_biased",)) + base
    return Finding(q, "yes: differences small; Eq. 5 has the smaller σ", run, verdict,
                   caveats=caveats,
                   numbers={"gap": gap.mean, "z_max": z.mean, "z_low": z.low, "z_high": z.high, "eq5_valid": eq5_valid,
                            "marginals": dict(marginals or {})})


def _ratio_row(ratio: Value, base: tuple, *, sim: bool, B: int) -> Finding:
    q = "Fig. 2: does the topic bootstrap spread p(T|T) more than its binomial σ?"
    paper = f"yes: {PAPER_FIG2}"
    if not np.isfinite(ratio.mean):
        return Finding(q, paper, "no ratio: σ of p(T|T) is 0 or undefined", "cannot tell", numbers={"mean": ratio.mean})
    reading = ratio_reading(ratio.mean, ratio.low, ratio.high) if ratio.finite else "about"
    run = f"sd / σ = {ratio.text(2)}"
    if few(ratio.n):
        verdict, caveats = "cannot tell", base
    elif B < MIN_RESAMPLES:   # the stated rule (section 4, MIN_RESAMPLES), on every data set
        verdict, caveats = "cannot tell", base
        run += f"; {B} resamples, a verdict needs {MIN_RESAMPLES}"
    elif sim:   # the simulation's topic spread is set: a spread that holds is built in, one that fails is not
        verdict = {"above": "holds", "below": "does not hold", "about": "not shown"}[reading]
        caveats = (("by_construction",) if verdict in _HOLDING else ("simulated",)) + base
    else:
        verdict, caveats = {"above": "holds", "below": "does not hold", "about": "not shown"}[reading], base
    return Finding(q, paper, run, verdict, caveats=caveats,
                   numbers={"mean": ratio.mean, "low": ratio.low, "high": ratio.high, "reading": reading, "B": B})


def _table5_row(shares: Mapping, n: int, name, base: tuple, over_what: str = "") -> Finding:
    """``shares[th]``: the share of the ``n`` runs whose PRM count has the smaller relative SE (with
    ``over_what``, e.g. ``"50 draws of U2"``, its mean over them)."""
    if over_what:
        held = [th for th, s in shares.items() if s > 0.75]
        if few(int(over_what.split()[0])):
            held = None
        run = "; ".join(f"θ = {name(th)}: {s:.0%} of {n} runs" for th, s in shares.items()) + f" (mean over {over_what})"
    else:
        held = [th for th, s in shares.items() if claims.share_word(round(s * n), n) in ("most", "all")]
        run = "; ".join(f"θ = {name(th)}: {claims.share_of(round(s * n), n, 'run')}" for th, s in shares.items())
    below = [th for th, s in shares.items() if s < 0.5]   # the rule of caveat se_floor
    # its second part never holds: relative SE favours any gain vector with a floor (caveat se_floor),
    # so the PRM's gains are not singled out and the claim holds at most in part
    verdict = ("cannot tell" if held is None else "does not hold" if below or not held else "holds in part")
    return Finding("Table 5: is the PRM count of relevant results the more precise by SE / mean (the reading that "
                   "decides here), and is that due to the PRM alone?",
                   "yes, by SE itself, at both θ (FedWeb13, top 3)", run, verdict,
                   caveats=base + ("no_test", "se_floor"),
                   numbers={str(th): float(s) for th, s in shares.items()})


def _table7_row(tau: Value, T_name: str, base: tuple, mean_over: Value | None = None,
                below: tuple | None = None) -> Finding:
    """Is tau between the PRM and the binary orderings at theta = T the paper's 0.75 (FedWeb13
    Results Merging)? "τ below 1" is not asked: any two different gain vectors give it. Verdict
    ``agrees`` when 0.75 lies inside tau's interval (Kendall's asymptotic CI of one collection, the
    CI of the mean over replicates, or on real data the median [range] over the draws of U2),
    ``differs`` when outside; a fixed tau (no interval) agrees only when it is 0.75. ``below =
    (k, n[, level])``: how many of the ``n`` draws have Kendall's CI below 1, reported as before, no
    longer a verdict. ``mean_over`` (older callers): a mean over draws, reported, not tested."""
    t, lo, hi = tau.mean, tau.low, tau.high
    paper = PAPER_TABLE7_TOP
    if not np.isfinite(t) or few(tau.n):
        verdict = "cannot tell"
    elif lo == hi:
        verdict = "agrees" if t == paper else "differs"
    else:
        verdict = "agrees" if lo <= paper <= hi else "differs"
    if tau.n and below is not None:   # a median and range over draws, never a zero-width bracket
        run = f"τ = {prm_values.spread(t, lo, hi)}" + (f" ({tau.label})" if tau.label and lo != hi else
                                                        f" ({tau.n} draws of U2)")
    else:
        run = f"τ = {tau_text(t, lo, hi)}" + (f" ({tau.label})" if tau.label and lo != hi else "")
    if mean_over is not None and np.isfinite(mean_over.mean):
        run += f"; mean τ over {mean_over.n} {mean_over.unit}s of U2 {claims.number(mean_over.mean)}"
    return Finding(f"Table 7: at top relevance (θ = {T_name}), is τ between the PRM and binary orderings of the "
                   f"runs the paper's {paper}?",
                   f"τ = {paper} (FedWeb13 Results Merging)", run, verdict, caveats=base,
                   numbers={"tau": t, "low": lo, "high": hi, "n": tau.n, "paper": paper,
                            "mean_over_draws": mean_over.mean if mean_over is not None else float("nan"),
                            "draws_below": below[0] if below else float("nan")})


def _udm_row(prm_ratio: str, udm_ratio: str, numbers: Mapping, base: tuple = ()) -> Finding:
    """``by construction`` in every configuration with intervals over enough draws: the coin flips that
    make the levels indistinguishable are simulated, so the answer is settled by how they are built (a
    check of the code, never a finding); the ratios are still printed, and a PRM interval wholly above
    1 is named as the small-sample upward bias of a ratio of means. Otherwise: cannot tell."""
    lo_p, hi_p, hi_u = (numbers.get(key, np.nan) for key in ("prm_low", "prm_high", "udm_high"))
    ok = not few(int(numbers.get("n", 0))) and all(np.isfinite(v) for v in (lo_p, hi_p, hi_u))
    bias = " (above 1: a ratio of means is biased upward in small samples)" if ok and lo_p > 1 else ""
    return Finding("Sect. 3.4.3: with the top two levels made indistinguishable by coin flips (a check of the code), "
                   "does the PRM give them equal gains, unlike the UDM?", "yes, argued, not measured",
                   f"gain ratio PRM {prm_ratio}{bias}, UDM {udm_ratio}", "by construction" if ok else "cannot tell",
                   caveats=tuple(base), numbers=dict(numbers))


def _calibration_row(cal: Mapping, method: str) -> Finding:
    if "inside" in cal:
        run = (f"{cal['inside']} of {cal['n']} exact values inside the {cal['label']} of the {method} estimates over "
               f"{cal['replicates']} replicates")
    else:
        off = cal.get("zero_sigma_off", 0)
        run = (f"{cal['within_2']} of {cal['n']} {method} estimates within 2 σ"
               + (f" ({off} with σ = 0 off the exact value, counted outside)" if off else "")
               + f"; largest finite |z| {cal['max']:.1f} ({cal['where']})")
    inside, n = (cal["inside"], cal["n"]) if "inside" in cal else (cal["within_2"], cal["n"])
    verdict, p, text = coverage_test(inside, n, 0.95 if "inside" in cal else 0.9545)   # misses vs chance
    run, verdict = f"{run}: {text}", ("cannot tell" if few(int(cal.get("replicates", 0))) else verdict)
    return Finding("Do the estimates recover the simulation's exact p(R|i)?",
                   f"Table 3 (the model lies within {cal['gap']:.3f} of it)", run, verdict,
                   caveats=("by_construction",) if verdict in _HOLDING else ("simulated",), numbers={**cal, "p_misses": p})


def _prose(rob: Robustness, name, *, sim: bool, method: str, eq5_valid: bool, nonmono, p_top: str,
           nonmono_label: str = "") -> list[str]:
    out = []   # which Table 6 row to read (cross-fitted, not in sample) is its order and caveat in_sample
    if few(rob.n):
        out.append(f"Every verdict over replicates or draws needs {MIN_RANGE} of them; with fewer it cannot tell.")
    if p_top:
        out.append(p_top)
    if method == "eq5" and not eq5_valid:
        out.append("The PRM gains are Eq. 5 estimates, biased on these data: rerun with `method: eq4`.")
    for th, falls in (nonmono or {}).items():   # only falls whose intervals do not overlap
        more = f" ({claims.plural(len(falls) - 1, 'more pair')} likewise)" if len(falls) > 1 else ""
        out.append(f"At θ = {name(th)} the PRM gains fall as the level rises: {falls[0].text}{more}; intervals: "
                   f"{nonmono_label}.")
    return out


def findings(*, dataset: str, method: str, level_names, table1_ok: bool, eq_gap: tuple, eq5_valid: bool,
             ratio: Value, B: int, table5_shares: Mapping, n_runs: int, robustness: Robustness, table7: Value,
             udm: Mapping, marginals: Mapping | None = None, table7_draws: Value | None = None,
             calibration: Mapping | None = None, stress: tuple | None = None, over_what: str = "",
             nonmono=(), nonmono_label: str = "", p_top: str = "", variants=(), footer: str = "",
             coverage: Mapping | None = None, topics: int = 0, table7_below: tuple | None = None) -> Findings:
    """The findings of notebook 03 (see the module docstring for the questions). Table 6 leads.

    Parameters
    ----------
    dataset, method, level_names : the run's data set, estimator and level names.
    table1_ok : whether Eq. 4 and 5 give every fraction of the paper's Table 1.
    eq_gap : Table 2 at theta = T: (largest gap, largest z), two :class:`Value`.
    eq5_valid : whether U2 re-judged U1's levels in equal shares (:func:`helpers.prm.inputs.coverage`).
    ratio, B : topic-bootstrap sd of p(T|T) over its binomial sigma (:class:`Value`), and the resamples.
    table5_shares, n_runs : per threshold, the share of the ``n_runs`` runs whose PRM count has the
        smaller relative SE (a mean over ``over_what`` when given).
    robustness : Table 6's tests (:func:`robustness_single`, :func:`robustness_replicates`,
        :func:`robustness_draws`).
    table7 : PRM vs binary tau at theta = T (:class:`Value`) with an interval that covers the ranking's
        uncertainty; on real data with draws of U2, its median [range] over the draws.
    table7_draws : a mean of that tau over the draws of U2, reported, not tested (older callers).
    table7_below : ``(k, n, level)``: in how many of the ``n`` draws of U2 Kendall's ``level`` CI lies
        below 1, kept in the row's numbers only (the verdict compares ``table7`` with the paper's 0.75).
    udm : ``prm_ratio``, ``udm_ratio`` (text) and their numbers.
    marginals : in how many replicates or draws U1's and U2's marginals differ (Stuart-Maxwell,
        :func:`helpers.findings.prm_values.marginals`), or this collection's p-value.
    calibration : :func:`calibration` (simulated runs).
    stress : (:func:`robustness_replicates` with ``stress``, (U1's, U2's share of the top level, and
        the marginals' test as ``marginals``), and
        :func:`lenience_phrase`).
    over_what : the draws or replicates the values summarise (``"40 replicates"``), or ``""``.
    nonmono, nonmono_label : per threshold, the falls of the PRM gains as the level rises whose
        intervals do not overlap (:func:`helpers.findings.prm_values.nonmonotone`), and what the
        intervals are.
    p_top : a sentence on p(T|T) for real data.
    variants : thresholds shown as labelled variants (below the collection's relevance threshold).
    coverage : the share of U1's judgments U2 re-judged, per U1 level (:func:`helpers.prm.inputs.coverage`).
    topics : the topics the bootstrap of Fig. 2 resamples (its sd understates the spread by about
        sqrt((n - 1) / n), stated once as the Fig. 2 row's caveat; 0: not stated).

    Every Table 6 test is Holm-adjusted over the tests of the table that shows it (:func:`_families`).
    """
    name = lambda i: level_names[i]  # noqa: E731
    T = len(level_names) - 1
    sim = dataset == "simulated"
    paper_gap = ("stand_in",) if sim else ("other_data",)
    drawn = ("u2_draw",) if "draws of U2" in over_what else ()
    vname = lambda i: name(i) + (" (variant)" if i in variants else "")  # noqa: E731
    stressed = stress is not None and bool(stress[0].claims.get("cross-fitted"))
    adjusted = _families(robustness, stress[0] if stressed else None, sim=sim)
    robustness = adjusted["main"]
    keep = [th for th in {th for a in robustness.claims.values() for th in a} if th not in variants]
    rows, _ = _table6_rows(_only(robustness, keep), vname, (), sim=sim)   # resamples cover topic sampling too
    _, checks = _table6_rows(robustness, vname, (), sim=sim)   # the appendix's Table 6 rows keep every θ
    moved = _table6_rows(_only(robustness, variants), vname, (), sim=sim)[0] if variants else []
    if sim:   # the notebook's question leads, answered as far as simulated data can
        rows.insert(0, _question_row_simulated())
    if stressed:
        more, built = _stress_rows(_only(adjusted["stress"], keep), vname, *stress[1:])
        # a stress test of the method on a simulation: the appendix's (the table answers the notebook's question)
        checks = checks + more + _stress_rows(adjusted["stress"], vname, *stress[1:])[1]
        moved += _stress_rows(_only(adjusted["stress"], variants), vname, *stress[1:])[0] if variants else []
    # a row's θ = 1 variants go to the appendix, in the findings table's Holm family (no p-value changes)
    moved = [dataclasses.replace(r, question=r.question.replace("Table 6", f"Table 6 at the variant θ = "
                                                                f"{claims.listing([name(v) for v in variants])}", 1))
             for r in moved]
    checks.append(Finding("Table 1: do Eq. 4 and Eq. 5 give the paper's fractions?",
                        "Eq. 4: 2/4, 3/10, 1/6; Eq. 5: 4/10, 5/17, 1/13", "6 of 6 fractions equal" if table1_ok
                        else "some fractions differ (section 1)", "holds" if table1_ok else "does not hold",
                        numbers={"ok": table1_ok}))
    if calibration is not None:
        checks.append(_calibration_row(calibration, method))
    # Tables 1-2 and Fig. 2 check the estimators (on the simulation by construction): the appendix's, so
    # that the findings table holds the question (Table 6) and the gains' use (Tables 5 and 7)
    checks.append(_eq_row(*eq_gap, name(T), sim=sim, eq5_valid=eq5_valid, base=drawn, marginals=marginals,
                          coverage=_coverage_text(coverage, name) if coverage else ""))
    checks.append(_ratio_row(ratio, paper_gap + drawn + (("few_topics",) if topics >= 2 else ()), sim=sim, B=B))
    rows.append(_table5_row(table5_shares, n_runs, name, paper_gap + drawn, over_what))
    # Table 7 against the paper's 0.75 on stand-in data: a comparison, the appendix's
    checks.append(_table7_row(table7, name(T), paper_gap + drawn, table7_draws, table7_below))
    checks.append(_udm_row(udm["prm_ratio"], udm["udm_ratio"], udm.get("numbers", {}), drawn))  # coin flips: simulated
    refs = _reference_rows(robustness, vname, sim)   # linear − binary, read by caveat graded_too: an appendix row
    prose = _prose(robustness, name, sim=sim, method=method, eq5_valid=eq5_valid, nonmono=nonmono, p_top=p_top,
                   nonmono_label=nonmono_label)
    among = ("" if not any(r.question.startswith("Table 6") for r in checks) else
             ", Table 6 on simulated data" if sim else ", own-level gains")
    among += f", θ = {claims.listing([name(v) for v in variants])} variants" if moved else ""
    prose.append(f"Appendix: {claims.plural(len(checks + moved + refs), 'row')} (estimators, Table 7{among}); verdicts: "
                 f"{verdict_counts(checks + moved + refs)}.")
    rows, checks = _lettered(rows), _lettered(checks + moved + refs)
    outside = moved + ([] if sim else refs)   # appendix rows in the findings table's Holm family
    holm_note = across_rows(rows + outside, "findings table",   # stated once, in the Limitations
                            claims.listing([name(v) for v in variants]) if moved else "", also=bool(refs) and not sim)
    holm_note = f"{holm_note} {joint_note(robustness, vname)}".strip() if holm_note else ""   # own level beside it
    t6 = [r for r in rows if r.question.startswith("Table 6")]
    brackets = _brackets(adjusted.get("stress") if stressed and sim else robustness) if t6 else ""
    general = (("sim_design",) if sim else ()) + (("brackets",) if brackets else ()) + \
        (("holm_family",) if holm_note else ())
    app6 = [r for r in checks if r.question.startswith("Table 6")]
    extra = {"brackets_appendix": _brackets(robustness) if app6 else "",
             "holm_appendix": ((f"The {'variant' if moved else ''}{' and ' * (len(outside) > len(moved) > 0)}"
                                f"{'reference' if len(outside) > len(moved) else ''} rows' p-values are in the findings "
                                "table's family. " if outside else "")
             + across_rows([r for r in checks if not any(r is o or r.question == o.question for o in outside)],
                           "appendix table")
             .replace("Every p-value in the appendix", "Every other p-value in the appendix" if outside else "Every "
                      "p-value in the appendix")).strip()}
    few_topics = (f"With {topics} topics a topic bootstrap's sd understates the spread by about √((n − 1)/n) "
                  f"= {np.sqrt((topics - 1) / topics):.2f}; the ratio is not corrected.") if topics >= 2 else ""
    where = "the appendix's reference row" if refs else "A.1"   # where the linear − binary tests are printed
    graded = _graded_text(robustness, rows + checks, name, where)
    return PrmFindings("03_prm_estimation", rows, prose, caveats={**_CAVEATS, "holm_family": holm_note,
                                                                  **({"graded_too": graded} if graded else {}),
                                                                  **_biased_note(coverage, name, sim, eq5_valid),
                                                                  "few_topics": few_topics,
                                                                  "brackets": brackets, **extra},
                       general=general, footer=footer, appendix=tuple(checks), adjusted=adjusted)


def _reference_rows(rob: Robustness, name, sim: bool) -> list:
    """The linear − binary tests (the reference caveat ``graded_too`` reads, Holm-adjusted in the family
    of the PRM tests it is read against) as one appendix row, not a Limitations sentence; ``[]`` without."""
    if not rob.claims.get("linear vs binary"):
        return []
    q = ("Table 6 on the simulated assessors (a check of the code), the reference" if sim else "Table 6, the reference")
    return [Finding(f"{q}, in sample: are linear gains more robust than binary gains?", "not tested (Table 6 prints "
                    "both τ)", _table6_run(rob, "linear vs binary", name), _table6_verdict(rob, "linear vs binary"),
                    caveats=("simulated", "shared_order") if sim else ("in_sample",),
                    numbers={"analysis": "linear vs binary", **{str(th): c.numbers for th, c in
                                                                 rob.claims["linear vs binary"].items()}})]


def _biased_note(coverage, name, sim: bool, eq5_valid: bool) -> dict:
    """Caveat ``eq5_biased`` with the shares U2 re-judged, by U1 level (stated once, not in the row)."""
    if sim or eq5_valid or not coverage:
        return {}
    text = _coverage_text(coverage, name)
    return {"eq5_biased": f"Here {text}: " + _CAVEATS["eq5_biased"].split(": ", 1)[1]}


def _only(rob: Robustness, thetas) -> Robustness:
    """``rob`` with the tests at ``thetas`` only (their Holm adjustment, made over the whole family,
    kept): the findings table shows a row's thresholds, the appendix its variants."""
    return dataclasses.replace(rob, claims={a: {th: c for th, c in d.items() if th in thetas} for a, d in rob.claims.items()},
                               diffs={a: {th: v for th, v in d.items() if th in thetas} for a, d in rob.diffs.items()})


def _families(main: Robustness, stress: Robustness | None, *, sim: bool) -> dict:
    """Table 6's tests, each Holm-adjusted over the table that shows its verdict (one family per
    table, :func:`helpers.findings.prm_tests.table_holm`): on real data the four Table 6 rows are
    findings; on the simulation they are checks of the machinery (appendix), and so are the stressed
    collection's tests (a stress test of the method, simulated: one appendix family). The linear − binary references (read against the
    PRM tests by the caveat ``graded_too``) are in the family of those tests, so that both rest on
    one correction. Tests in neither table keep the correction over their thresholds. Returns
    ``{"main", "stress"}``."""
    robs = {"main": main} | ({"stress": stress} if stress is not None else {})
    mine = [("main", a) for a in _QUESTIONS if main.claims.get(a)]
    # the linear − binary reference joins the family of the PRM tests it is read against (caveat graded_too)
    mine += [("main", "linear vs binary")] if mine and main.claims.get("linear vs binary") else []
    own = [m for m in mine if m[1] == "own level"]   # in sample, criterion-tailored: the appendix's in every profile
    fams: dict = {"findings table": [] if sim else [m for m in mine if m not in own],
                  "appendix table": mine if sim else own}
    if stress is not None:   # the stress rows are the appendix's (a stress test of the method, simulated)
        fams["appendix table"] += [("stress", a) for a in ("cross-fitted vs linear", "cross-fitted", "linear vs binary")
                                   if stress.claims.get(a)]
    return table_holm(robs, {f: pairs for f, pairs in fams.items() if pairs})


def _lettered(rows: list) -> list:
    """Each row's caveats in the order of their letters (first use over the table): ``(a, b, c)``,
    never ``(a, c, b)``."""
    first = list(dict.fromkeys(k for r in rows for k in r.caveats))
    return [dataclasses.replace(r, caveats=tuple(sorted(r.caveats, key=first.index))) for r in rows]


def run_values(*, sim=None, draws=None, names, thetas, all_thetas, tau_level: float, method: str,
               collection: Mapping | None = None, robustness: Robustness | None = None,
               lenience: tuple = (0.0, 0.0)) -> dict:
    """The values the findings rows read, as keyword arguments of :func:`findings`: over the
    replicates of the simulation (``sim``; ``lenience``: its stress collections' ``u2_lenience,
    lenience_sd``), else over the draws of U2 (``draws``), else this collection (``collection``:
    the arguments of :func:`helpers.findings.prm_values.this_collection`, with Table 6's
    ``robustness`` from :func:`robustness_single`)."""
    T = len(names) - 1
    if sim is not None:
        v = prm_values.over_replicates(sim, names=names, thetas=thetas, all_thetas=all_thetas)
        shares = v.pop("stress_shares")
        v["robustness"] = robustness_replicates(sim)
        v["stress"] = (robustness_replicates(sim, stress=True), shares, lenience_phrase(*lenience, shares)) if shares else None
    elif draws is not None:
        v = prm_values.over_draws(draws, names=names, thetas=thetas, tau_level=tau_level,
                                  p_sigma=(collection or {}).get("p_sigma"))
        if v.get("table7_below"):   # Table 7: median [range] over the draws, judged on every draw's Kendall CI
            v["table7_below"] = v["table7_below"][:2] + (prm_values.level_text(tau_level),)
        v["robustness"], v["p_top"] = robustness_draws(draws), p_top(draws, T)
    else:
        v = prm_values.this_collection(**{"names": names, **collection})
        v["robustness"] = robustness
    return v


def p_top(draws, T: int) -> str:
    """One sentence on p(T|T) over the draws of U2 (real data)."""
    s = draws.p_table
    r = s[(s["theta"] == T) & (s["level"] == str(T))].iloc[0]
    return (f"Another assessor gives a top-level result the top level with p = {spread(r['mean'], r['low'], r['high'])} "
            f"(mean [{prm_values.spread_name(draws.replicates)}], {draws.replicates} draws of U2).")
