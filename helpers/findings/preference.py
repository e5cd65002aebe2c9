"""Notebook 05's findings: can MAR recover a planted user model, and what this run's data say.

Zeng & Sakai (Sakai & Zeng, SIGIR 2019) ask which diversity measures agree with users, through the
mean agreement rate (MAR) of every measure with 15 assessors' SERP-pair preferences. Those labels
are licensed; no public set pairs real SERP preferences with intent judgments. So the questions
depend on the run's data:

* simulated assessors (the default and ``real`` profiles): **can MAR recover a planted user
  model?** In one study of the run's size, and on average over replicated studies; and does every
  measure stay at its own chance level with null assessors? (:mod:`helpers.findings.preference_recovery`,
  whose names are re-exported here.) Besides: do the pair-level
  HSD differences survive with topics as blocks; must D#-RBP (p = 0.99) prefer what I-rec prefers.
  Whether the labels reach the alpha targets they are calibrated to, and how the two questions
  correlate (set by the simulator's question correlation), hold by construction: the appendix
  table (:class:`PreferenceFindings`), or the findings table when a target is missed;
* the user's own files (``data: files``, e.g. the licensed 1,127-pair labels): **which measure
  agrees best with the assessors**, alpha and r as measured;
* the THUIR image-search set (``real_dataset``): do single-intent measures agree with real users'
  page preferences more often than chance.

:func:`check_parameters` validates the notebook's parameters; :func:`findings` builds the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..notebook import claims, params
from ..notebook.findings import AppendixFindings, Finding, Findings
from ..preference import questions as pq
from ..simulate import users
from .preference_recovery import COVERAGE_IS
from .preference_recovery import CAVEATS as PLANTED_CAVEATS
from .preference_recovery import (MIN_REPLICATES, NEAR_FORMULA, NOISE, NULL_QUESTION, Recovery,  # noqa: F401
                                  family_table, mixture_note, one_study_bullet,
                                  planted_metrics, planted_rows, recovery, recovery_lines, recovery_narrow,
                                  recovery_parts, recovery_table, PART_TITLES)
from .preference_misses import coverage_bullet, miss_bullets  # noqa: F401
from .preference_power import ONE_STUDY_PREFIX, appendix_row, contrast_caveat, power_row, unseparated_text  # noqa: F401
from .preference_thuir import baseline_row, measures_row, p_text, thuir_view  # noqa: F401
from .preference_thuir import section as thuir_section
from .preference_thuir import design_lines as thuir_design_lines

__all__ = ["Setup", "check_parameters", "measure_names", "Recovery", "recovery", "recovery_table", "recovery_parts",
           "recovery_lines",
           "planted_metrics", "mixture_note", "hsd_counts", "mc_text", "findings", "PAPER", "CAVEATS", "alpha_text",
           "filter_line", "same_preference_line", "shift_sentence", "replay_table", "appendix_intro", "involving", "APPENDIX_NAMES", "survive_verdict", "HSD_QUESTION", "assessors_note", "top_lines", "p_text", "PreferenceFindings",
           "consistent_text", "pearson_line", "consistent_line", "APPENDIX_QUESTIONS", "users_caveat", "thuir_view",
           "thuir_design_lines", "thuir_section",
           "families_caveat"]

#: The caveats of the rows built here (the planted rows' are :data:`helpers.findings.preference_recovery.CAVEATS`).
CAVEATS: dict[str, str] = {
    "thuir_precision": "Precision counts relevant images and ignores their rank; over the whole page it also "
                       "reads images the measures do not score, so only its measures'-depth variant compares "
                       "with them.",
}

#: The paper's central claim (the D#-measures lead; Table 3 counts its significant differences): no
#: simulated run tests it, since no planted user mixes coverage with another model and only the paper's
#: labels (licensed) could; a row says so in the table, not only in prose.
DSHARP_QUESTION = "Do the D♯-measures agree best with users (the paper's Tables 2, 3 and 5)?"


def dsharp_row() -> Finding:
    """The paper's central claim, not tested by a simulated run (verdict "not tested")."""
    return Finding(DSHARP_QUESTION, "D♯-nDCG leads diversity and both (Tables 2, 5)",
                   "not tested: needs the paper's labels", "not tested")


def pass_rate_text(pairs: Mapping | None) -> str:
    """This run's filter pass rate, ``"51.2%"``, from ``{"candidates", "passed"}`` (the metrics'
    ``pairs``); empty without them (a user's files)."""
    if not pairs or not pairs.get("candidates") or "passed" not in pairs:
        return ""
    return f"{pairs['passed'] / pairs['candidates']:.1%}"


def paper_pass_rate_text() -> str:
    """The paper's filter pass rate, ``"11.9% (1,247 of 10,500)"`` (:data:`PAPER_FILTER`)."""
    c0, p0 = PAPER_FILTER
    return f"{p0 / c0:.1%} ({p0:,} of {c0:,})"

#: The rows that go to the appendix when their verdict is "by construction": a reached alpha target and
#: r set by the simulator (the planted rows stay in the table, labelled, since they answer the question).
ALPHA_QUESTION = "Are the simulated labels calibrated to their α targets (within 0.01)?"
R_QUESTION = "Do the two questions' preference counts correlate (95% CI of r above 0)?"
APPENDIX_QUESTIONS = (ALPHA_QUESTION, R_QUESTION)

#: What the paper reports (Zeng & Sakai; Sakai & Zeng, SIGIR 2019).
PAPER = {"alpha": {"relevance": 0.406, "diversity": 0.356}, "r": (0.898, 0.886, 0.909), "consistent": 13.10,
         "judges": 15,
         "leader": {"relevance": "D-Q 0.7345 (Table 4)", "diversity": "D♯-nDCG 0.7347 (Table 5)",
                    "both": "D♯-nDCG 0.7484 (Table 2)"}}

def measure_names(cutoff: int) -> dict[str, str]:
    """The 21 measures of the paper's tables plus alpha-nDCG at ``cutoff``: display name (as in the
    paper) -> engine name (:mod:`helpers.measures.diversity`)."""
    c = int(cutoff)
    names = {"D#-nDCG": "D#-nDCG", "D#-RBP (p=0.85)": "D#-RBP(p=0.85)", "D#-RBP (p=0.99)": "D#-RBP(p=0.99)",
             "D#-Q": "D#-Q", "D#-EBR": "D#-EBR", "D#-ERR": "D#-nERR", "I-rec": "I-rec",
             "RBU (p=0.99)": "RBU(p=0.99)", "RBU (p=0.85)": "RBU(p=0.85)", "D-nDCG": "D-nDCG", "D-Q": "D-Q",
             "D-RBP (p=0.85)": "D-RBP(p=0.85)", "D-RBP (p=0.99)": "D-RBP(p=0.99)", "D-EBR": "D-EBR",
             "D-ERR": "D-nERR", "nDCG-IA": "IA-nDCG", "Q-IA": "IA-Q", "RBP-IA (p=0.85)": "IA-RBP(p=0.85)",
             "RBP-IA (p=0.99)": "IA-RBP(p=0.99)", "EBR-IA": "IA-EBR", "ERR-IA": "IA-nERR", "alpha-nDCG": "alpha-nDCG"}
    return {k: f"{v}@{c}" for k, v in names.items()}


#: The caption of this notebook's appendix table (``preference``'s ``appendix_findings``).
_APPENDIX_TITLE = ("Appendix of notebook 05: results that hold by construction of the simulation or are set by it, "
                   "checks of the machinery rather than findings.")


@dataclass(frozen=True)
class Setup:
    """The checked parameters: the planted models of the experiment, the measures (display ->
    engine name) and the parameter record of the metrics file."""

    planted: list
    measures: dict
    parameters: dict = field(default_factory=dict)


def _check_numbers(v: Mapping) -> None:
    if int(v["replicates"]) != v["replicates"] or v["replicates"] < 1:
        raise ValueError(f"replicates must be an integer >= 1, got {v['replicates']!r}")
    if not v["scheduler"]:
        raise ValueError("scheduler must be 'local', 'serial' or a dask scheduler address such as tcp://host:8786")
    for name, lo in [("n_topics", 2), ("n_runs", 2), ("n_pairs", 10), ("n_assessors", 3), ("cutoff", 1), ("B", 100)]:
        if int(v[name]) != v[name] or v[name] < lo:
            raise ValueError(f"{name} must be an integer >= {lo}, got {v[name]}")
    for name in ("alpha_relevance", "alpha_diversity"):
        if not -1 < v[name] < 1:
            raise ValueError(f"{name} must lie in (-1, 1), got {v[name]}")
    if not 0 < v["p_equal"] < 1:
        raise ValueError(f"p_equal must lie in (0, 1), got {v['p_equal']}")
    if v["min_difference"] < 0 or v["tie_tolerance"] < 0:
        raise ValueError("min_difference and tie_tolerance must be >= 0")
    if not 0 < v["significance"] < 1:
        raise ValueError(f"significance must lie in (0, 1), got {v['significance']}")


def _check_choices(v: Mapping) -> None:
    if v["real_dataset"] not in ("", "thuir-image"):
        raise ValueError(f"real_dataset must be '' or 'thuir-image', got {v['real_dataset']!r}")
    if int(v["real_cutoff"]) != v["real_cutoff"] or v["real_cutoff"] < 0:
        raise ValueError(f"real_cutoff must be an integer >= 0 (0: the shorter page's length), got {v['real_cutoff']}")
    if not 0 <= v["real_threshold"] <= 100:
        raise ValueError(f"real_threshold must lie in [0, 100], got {v['real_threshold']}")
    if v["real_gain_map"] not in ("exponential", "linear", "binary"):
        raise ValueError(f"real_gain_map must be 'exponential', 'linear' or 'binary', got {v['real_gain_map']!r}")
    if v["normaliser"] not in ("fixed", "ideal"):
        raise ValueError(f"normaliser must be 'fixed' or 'ideal', got {v['normaliser']!r}")
    if v["data"] not in ("simulated", "files"):
        raise ValueError(f"data must be 'simulated' or 'files', got {v['data']!r}")


def check_parameters(values: Mapping) -> Setup:
    """Validate notebook 05's parameters (``values``: the notebook's namespace); a bad value
    raises ``ValueError`` naming the parameter, the rule and the value."""
    v = values
    _check_numbers(v)
    _check_choices(v)
    users.parse_mixture(v["user_models"])   # a malformed mixture stops here
    planted_models = [m.strip() for m in v["planted_models"].split(",") if m.strip()]
    for m in planted_models:
        if m not in users.USER_MODELS:
            raise ValueError(f"planted_models: unknown user model {m!r}; known: {', '.join(users.USER_MODELS)}")
    if len(set(planted_models)) != len(planted_models):
        raise ValueError(f"planted_models names a model twice: {v['planted_models']!r}")
    params.check_file_inputs(v, mode=v["data"] == "files", required=["preferences_path", "diversity_qrels_path",
                                                                      "runs_glob"],
                             optional=["intents_path", "intent_types_path"], switch='data: "files"')
    record = {k: v[k] for k in ("seed", "data", "n_topics", "n_runs", "n_pairs", "n_assessors", "cutoff",
                                "min_difference")}
    record["alpha_target"] = [v["alpha_relevance"], v["alpha_diversity"]]
    record.update({k: v[k] for k in ("p_equal", "tie_tolerance", "B", "significance", "real_dataset", "real_cutoff",
                                     "real_threshold", "real_gain_map", "normaliser", "user_models")})
    record.update(planted_models=planted_models, replicates=v["replicates"])
    return Setup(planted_models, measure_names(v["cutoff"]), record)


# ---------------------------------------------------------------------------------------------
# Printed lines of the notebook's cells
# ---------------------------------------------------------------------------------------------

#: The paper's pair filter (Sec. 4): candidates and pairs passing it.
PAPER_FILTER = (10500, 1247)


class Notes:
    """The lines of the one-study cells (notebook 05, section 2), kept for the Appendix: ``notes(key,
    line)`` keeps ``line`` under ``key`` and ``notes.show(key)`` prints them there, so the main path
    prints nothing that the simulated mixture sets by construction."""

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = {}

    def __call__(self, key: str, line: object) -> None:
        self.lines.setdefault(key, []).append(str(line))

    def show(self, *keys: str) -> None:
        for key in keys:
            for line in self.lines.get(key, ()):
                print(line)


def alpha_text(alpha: float, target: float, tol: float = 0.01) -> str:
    """``" (calibrated to the target 0.406)"``, or, when the simulation could not reach it,
    ``" (not calibrated: target 0.599, missed by 0.113)"``: a missed calibration is never called calibrated."""
    if abs(alpha - target) <= tol:
        return f" (calibrated to the target {target:.3f})"
    return f" (not calibrated: target {target:.3f}, missed by {abs(alpha - target):.3f})"


def filter_line(candidates: int, passed: int, kept: int, target: int | None = None) -> str:
    """The pair filter's counts beside the paper's (1,247 of 10,500 passed), whether this run's
    filter passes a larger or smaller share than the paper's, and, with ``target`` (``n_pairs``),
    whether the passing pairs were sampled down to it or fell short of it (never silently)."""
    c0, p0 = PAPER_FILTER
    share, paper = passed / candidates if candidates else float("nan"), p0 / c0
    than = ("a larger share than" if round(share, 3) > round(paper, 3) else "a smaller share than"
            if round(share, 3) < round(paper, 3) else "the same share as")
    line = (f"{candidates} candidate run pairs, {passed} pass the filter ({share:.1%}; {than} the paper's "
            f"{p0:,} of {c0:,}, {paper:.1%}), {kept} kept")
    if target is not None and passed < target:
        line += f"; fewer than n_pairs = {target} pass, so all are kept and the target is missed"
    elif target is not None and passed > kept:
        line += f" (sampled down to n_pairs = {target})"
    return line


def same_preference_line(prefs: Mapping[str, pd.DataFrame], a: str, b: str, ps: Sequence[float] = (0.85, 0.99)) -> str:
    """How often measure ``a`` and ``b`` (e.g. D-RBP and RBP-IA) prefer the same SERP at each p,
    under each normaliser of ``prefs`` (normaliser -> pairs x measures)."""
    parts = [f"{nm!r} " + " / ".join(f"{(pr[f'{a} (p={p})'] == pr[f'{b} (p={p})']).mean():.3f}" for p in ps)
             for nm, pr in prefs.items()]
    return (f"{a} and {b} (p = {' / '.join(f'{p:g}' for p in ps)}) prefer the same SERP on: {'; '.join(parts)} of the "
            "pairs (the paper's tables give them different MARs)")


def assessors_note(models: Sequence[str]) -> str:
    """What the construction of the simulated assessors sets, and what it does not: which user models
    they follow (how many near a measure's formula,
    :data:`helpers.findings.preference_recovery.NEAR_FORMULA`), not which measure leads, so the
    leaders describe this simulation, not real users."""
    near = [m for m in dict.fromkeys(models) if m in NEAR_FORMULA]
    k = sum(m in NEAR_FORMULA for m in models)
    tail = "; the leaders describe this simulation, not real users"
    if not k:
        return "the simulation sets the assessors' user models, not which measure leads" + tail
    formulas = claims.listing([NEAR_FORMULA[m] + "'s" for m in near])
    return (f"the simulation sets the assessors' user models ({k} of {len(models)} "
            f"{claims.listing(near, 'or')} users, near {formulas} {'formula' if len(near) == 1 else 'formulas'}), "
            "not which measure leads" + tail)


def top_lines(question: str, mar: pd.Series, blocked: Mapping, twins: Sequence[Sequence[str]],
              significance: float, per_line: int = 5) -> list[str]:
    """A question's top measures as the HSD group the topic-blocked test does not separate from the
    highest MAR (:func:`helpers.preference.questions.top_group`), never one leader out of it, and
    exactly the distinct measures outside it, the ones the HSD separates from the highest MAR (none
    when the top group is every measure)."""
    g = pq.top_group(mar, blocked["result"], twins, significance)
    same = {grp[0]: [x for x in grp[1:] if x in mar.index] for grp in twins}
    members = [f"{x}{' (= ' + ', '.join(same[x]) + ')' if same.get(x) else ''} {mar[x]:.4f}" for x in g["group"]]
    if len(g["group"]) == g["distinct"]:   # every measure in the top group: no bottom group to name
        return [f"{question}: the HSD with topics as blocks separates none of the {g['distinct']} distinct measures "
                "from the highest MAR"] + ["  " + ", ".join(members[k:k + per_line])
                                          for k in range(0, len(members), per_line)]
    lines = [f"{question}: top group, not separated from the highest MAR by the HSD with topics as blocks: "
             f"{len(g['group'])} of {g['distinct']} distinct measures"]
    lines += ["  " + ", ".join(members[k:k + per_line]) for k in range(0, len(members), per_line)]
    outside = g["outside"]
    named = [f"{x}{' (= ' + ', '.join(same[x]) + ')' if same.get(x) else ''} {mar[x]:.4f}" for x in outside]
    head = f"  separated from the highest MAR ({len(outside)}): "
    lines += [("  " if k else head) + ", ".join(named[k:k + per_line]) for k in range(0, len(named), per_line)]
    return lines


# ---------------------------------------------------------------------------------------------
# The HSD counts
# ---------------------------------------------------------------------------------------------

def _mc_masks(p_values, significance: float, B: int) -> tuple[np.ndarray, np.ndarray]:
    """Per comparison: (surely, possibly) significant. Each p-value is read back as its count of the
    ``B`` trials and given its exact (Clopper-Pearson) interval, *simultaneous* over the ``m``
    comparisons (Bonferroni: each at the two-sided level ``0.05 / m``), as
    :func:`helpers.replicates.diversity.power_interval` does for the shares; surely: the upper bound
    lies below the level; possibly: the lower bound does."""
    from scipy.stats import beta

    p = np.asarray(p_values, dtype=float)
    if not len(p):
        return np.zeros(0, bool), np.zeros(0, bool)
    tail, B = 0.025 / len(p), int(B)
    c = np.clip(np.rint(p * (B + 1)) - 1, 0, B)
    with np.errstate(invalid="ignore"):
        low = np.where(c > 0, beta.ppf(tail, c, B - c + 1), 0.0)
        high = np.where(c < B, beta.ppf(1 - tail, c + 1, B - c), 1.0)
    return high < significance, low < significance


def _mc(p_values, significance: float, B: int) -> tuple[int, int]:
    """(surely, possibly) significant counts of one question's comparisons (:func:`_mc_masks`): the
    range holds the count another run of the B trials would give with 95% probability or more;
    per-comparison 95% intervals (1.96 standard errors each) miss some of the many p-values near the
    level and under-cover the count."""
    sure, maybe = _mc_masks(p_values, significance, B)
    return int(sure.sum()), int(maybe.sum())


def _survivor_bounds(pair_level: pd.DataFrame, topic_level: pd.DataFrame, significance: float,
                     B: int) -> dict[str, int]:
    """The counts that bound the share of pair-level differences that survive topic blocking over
    the Monte Carlo ranges of both tests (:func:`_mc_masks`): ``a_min`` / ``a_max`` survivors (surely
    or possibly significant in both), ``b_max`` / ``b_min`` pair-level differences lost (possibly
    significant over pairs and not surely over topics / surely over pairs and not possibly over
    topics). The share ``a / (a + b)`` then lies in ``[a_min / (a_min + b_max), a_max / (a_max + b_min)]``."""
    key = lambda d: [frozenset(x) for x in zip(d.higher, d.lower)]  # noqa: E731
    sp, mp = _mc_masks(pair_level.p_value, significance, B)
    st, mt = _mc_masks(topic_level.p_value, significance, B)
    sure_t = {k for k, v in zip(key(topic_level), st) if v}
    maybe_t = {k for k, v in zip(key(topic_level), mt) if v}
    kp = key(pair_level)
    sure_p = {k for k, v in zip(kp, sp) if v}
    maybe_p = {k for k, v in zip(kp, mp) if v}
    return {"a_min": len(sure_p & sure_t), "a_max": len(maybe_p & maybe_t), "b_max": len(maybe_p - sure_t),
            "b_min": len(sure_p - maybe_t)}


def mc_text(k: int, lo_hi: Sequence[int]) -> str:
    """``"63 (simultaneous Monte Carlo range 62-63)"``, or ``"49 (Monte Carlo range: the same)"``: the
    range of :func:`_mc`, simultaneous over the question's comparisons."""
    return (f"{k} (simultaneous Monte Carlo range {lo_hi[0]}-{lo_hi[1]})" if lo_hi[0] != lo_hi[1] else
            f"{k} (Monte Carlo range: the same)")


def hsd_counts(results: Mapping[str, pd.DataFrame], blocked: Mapping[str, dict], *, significance: float,
               B: int) -> dict[str, dict]:
    """Per question: significant comparisons with topics and with pairs as blocks, each with its
    Monte Carlo range, the number of comparisons and of pair-level differences that survive."""
    out = {}
    for q, res in results.items():
        t = blocked[q]
        out[q] = {"topics": t["significant"], "topics_mc": _mc(t["result"].p_value, significance, B),
                  "pairs": int((res.p_value < significance).sum()), "pairs_mc": _mc(res.p_value, significance, B),
                  "comparisons": len(res), "n_topics": t["topics"], "survive": t["survive"],
                  "survive_bounds": _survivor_bounds(res, t["result"], significance, B)}
    return out


# ---------------------------------------------------------------------------------------------
# The findings table
# ---------------------------------------------------------------------------------------------

#: The share of pair-level differences that must survive topic blocking for Table 3's counts to
#: hold: "most" of :data:`helpers.notebook.claims.SHARE_SCALE`.
SURVIVE_SHARE = 0.75
HSD_QUESTION = (f"Do at least {SURVIVE_SHARE:.0%} of Table 3's pair-level differences survive topic blocking (so "
                "its counts mostly read as topic-level ones)?")


def _with_range(k: int, lo_hi: Sequence[int]) -> str:
    """``"45 (41–46)"``: a count and its Monte Carlo range, the count alone when the range is one value."""
    lo, hi = int(lo_hi[0]), int(lo_hi[1])
    return f"{k}" if lo == hi else f"{k} ({lo}–{hi})"


def survive_verdict(lo: float, hi: float) -> str:
    """The verdict of :data:`HSD_QUESTION` from the share of survivors and its Monte Carlo range
    ``[lo, hi]``: "holds" when the whole range is at least :data:`SURVIVE_SHARE` ("most"), "does not
    hold" when it is all below, "cannot tell" when it straddles it (a few more trials could move it)."""
    return "holds" if lo >= SURVIVE_SHARE else "does not hold" if hi < SURVIVE_SHARE else "cannot tell"


def _hsd_row(counts: Mapping[str, dict]) -> Finding:
    """Do most (:data:`SURVIVE_SHARE`) of the pair-level significant differences (Table 3's design)
    survive with topics as blocks? The share of survivors, over every question, and its range over
    the Monte Carlo ranges of both tests (:func:`_survivor_bounds`; the point share alone when the
    counts carry no bounds); every count with its Monte Carlo range when that is wider than one value."""
    qs = list(counts)
    comps = {c["comparisons"] for c in counts.values()}
    of = f" of {comps.pop()}" if len(comps) == 1 else ""
    n_pairs, survive = sum(c["pairs"] for c in counts.values()), sum(c["survive"] for c in counts.values())
    pairs_topics = ", ".join(f"{_with_range(c['topics'], c['topics_mc'])} / {_with_range(c['pairs'], c['pairs_mc'])}"
                             + ("" if of else f" of {c['comparisons']}") for c in counts.values())
    run = f"topics / pairs as blocks{of}: {pairs_topics} ({', '.join(qs)})"
    bounds = [c.get("survive_bounds") for c in counts.values()]
    lo = hi = survive / n_pairs if n_pairs else float("nan")
    if n_pairs and all(bounds):
        a_min, a_max = sum(b["a_min"] for b in bounds), sum(b["a_max"] for b in bounds)
        b_max, b_min = sum(b["b_max"] for b in bounds), sum(b["b_min"] for b in bounds)
        lo = a_min / (a_min + b_max) if a_min + b_max else 0.0
        hi = a_max / (a_max + b_min) if a_max + b_min else 1.0
    if n_pairs:
        span = "" if round(lo, 3) == round(hi, 3) else f"; {lo:.1%}–{hi:.1%} over the Monte Carlo ranges"
        run = f"{claims.share(survive, n_pairs, within=(lo, hi))} survive{span}; " + run
        verdict = survive_verdict(lo, hi)
    else:
        verdict = "cannot tell"
    return Finding(HSD_QUESTION, "pairs as blocks", run, verdict,
                   numbers={"questions": qs, "survive": survive, "pair_level": n_pairs, "share_range": [lo, hi],
                            "counts": dict(counts)})


def _bound_row(bound: Mapping, same: float, n_pairs: int, cutoff: int, min_difference: float) -> Finding:
    """Must D#-RBP (p = 0.99) prefer the SERP I-rec prefers? "Always" only when the bound proves it
    (``1 - 0.99^l`` below ``min_difference``, the smallest I-rec difference of a kept pair, which the
    1/N steps of I-rec can push above the filter's: :func:`helpers.replicates.preference.smallest_gap`,
    :func:`helpers.preference.dsharp_irec_bound`):
    "holds". When the bound lets them differ, the draw gives the observed share: a pair where they
    part refutes "always" ("does not hold"); none in this draw proves nothing ("cannot tell")."""
    k = int(round(same * n_pairs))
    why = (f"1 − 0.99^{cutoff} = {bound['max_d_rbp']:.4f} {'<' if not bound['can_differ'] else '≥'} "
           f"{min_difference:.4g}")
    if not bound["can_differ"]:
        question = "Does D♯-RBP (p = 0.99) always prefer the SERP I-rec prefers?"
        run, verdict = f"{why}, so always (the same SERP on {k:,} of {n_pairs:,} pairs)", "holds"
    else:
        question = "How often does D♯-RBP (p = 0.99) prefer the SERP I-rec prefers?"
        run = f"{claims.share(k, n_pairs, 'pairs')} in this draw; {why}, so they can differ"
        verdict = "does not hold" if k < n_pairs else "cannot tell"
    return Finding(question, "the same MAR, 0.7330 (Table 2)", run, verdict,
                   numbers={"same": k, "pairs": n_pairs, **{key: bound[key] for key in ("max_d_rbp", "can_differ")}})


def _alpha_row(alphas: Mapping[str, float], targets: Mapping[str, float] | None, off_target) -> Finding | None:
    """Krippendorff's alpha per question. With the user's files (``targets`` None) it is measured and
    compared with the paper's ("reproduced" at its three digits). With simulated labels it is compared
    with the target this run calibrated to, within 0.01, as are the planted panels (``off_target``):
    "by construction" when every target is reached (a row of the appendix), else "holds in part" or
    "does not hold"; the paper column shows the paper's α as a reference (a target set to it is no test of it)."""
    known = [q for q in ("relevance", "diversity") if q in alphas]
    if not known:
        return None
    paper = ", ".join(f"{PAPER['alpha'][q]:.3f} ({q})" for q in known)
    run = ", ".join(f"{alphas[q]:.3f} ({q})" for q in known)
    if targets is None:   # real labels: alpha is measured, and compared with the paper's
        same = all(round(alphas[q], 3) == PAPER["alpha"][q] for q in known)
        return Finding("Krippendorff's α of the assessors: the paper's, to 3 decimals?", paper, run, "reproduced" if same else "not reproduced",
                       numbers={"alpha": {q: alphas[q] for q in known}})
    # simulated labels: alpha against the target this run calibrated to (the paper's alpha only when it is the target)
    missed = [q for q in known if abs(alphas[q] - targets[q]) > 0.01]   # the paper's α is shown, not tested
    run = "; ".join(f"{alphas[q]:.3f} ({q}), {'not ' if q in missed else ''}calibrated to its target {targets[q]:.3f}"
                    for q in known)
    panels = int(len(off_target)) if off_target is not None else 0
    if off_target is not None:
        run += "; planted panels: " + (f"{claims.plural(panels, 'panel-question')} below target" if panels else "all within 0.01")
    parts = [q not in missed for q in known] + ([not panels] if off_target is not None else [])
    verdict = "by construction" if all(parts) else "holds in part" if any(parts) else "does not hold"
    return Finding(ALPHA_QUESTION, paper, run, verdict,
                   numbers={"alpha": {q: alphas[q] for q in known}, "targets": {q: targets[q] for q in known},
                            "missed": missed, "panels_below": panels})


def consistent_text(mean: float, judges: int) -> str:
    """``"81.4% of 15 assessors (12.21)"``: consistent assessors per pair as a share of the panel, the
    panel's size named; the mean count only beside a share, so counts from panels of different sizes
    are never compared as counts."""
    return f"{mean / judges:.1%} of {judges} assessors ({mean:.2f})"


def _r_row(pearson: Sequence[float], consistent: Sequence[float], simulated: bool) -> Finding:
    """The two questions' preference balances (Pearson r over pairs) and the consistent assessors per
    pair (a share of each panel, :func:`consistent_text`). With simulated labels r follows from the
    simulator's question correlation (:data:`helpers.findings.preference_recovery.NOISE`): "by
    construction", a row of the appendix, the paper's values beside it for reference; with the user's files "agrees" when the paper's r lies
    inside this run's 95% interval, "differs" when not."""
    r, lo, hi = pearson
    mean, judges = consistent
    inside = lo <= PAPER["r"][0] <= hi
    paper = (f"r = {PAPER['r'][0]:.3f} [{PAPER['r'][1]:.3f}, {PAPER['r'][2]:.3f}]; consistent: "
             f"{consistent_text(PAPER['consistent'], PAPER['judges'])}")
    run = f"r = {r:.3f} [{lo:.3f}, {hi:.3f}]; consistent: {consistent_text(mean, judges)}"
    if simulated:   # set by the simulator: the paper's r is no reference for it
        run += "; set by the simulator's question correlation, attenuated by the labels' noise"
        return Finding(R_QUESTION, paper, run, "by construction",
                       numbers={"r": r, "low": lo, "high": hi, "consistent": mean, "judges": judges,
                                "question_correlation": NOISE["question_correlation"]})
    return Finding("Do the two questions' preference counts correlate as in the paper (its r in the 95% CI)?", paper, run,
                   "agrees" if inside else "differs", numbers={"r": r, "low": lo, "high": hi, "consistent": mean,
                                                              "judges": judges})


def pearson_line(r: float, lo: float, hi: float, n: int, simulated: bool,
                 alphas: Mapping[str, float] | None = None) -> str:
    """Section 3's printed r: beside the paper's for the user's labels; with simulated labels it says
    that r is set by the simulator (by construction, so no paper value beside it) and attenuated by
    the labels' noise, whose size this run's ``alphas`` (question -> Krippendorff's alpha) state; the
    latent question correlation is not printed beside the observed r (the noise separates them)."""
    line = (f"Pearson r of (#LEFT - #RIGHT), relevance vs diversity: {r:.3f} (95% CI [{lo:.3f}, {hi:.3f}], "
            f"n = {n})")
    if simulated:
        noise = ("" if not alphas else " (α " + ", ".join(f"{a:.3f} ({q})" for q, a in alphas.items()
                                                           if q in ("relevance", "diversity")) + ")")
        return line + f"; by construction: set by the simulator, attenuated by the labels' noise{noise}"
    return line + f"; paper {PAPER['r'][0]:.3f}"


def consistent_line(counts: pd.Series, judges: int, simulated: bool = False) -> str:
    """Section 3's consistent assessors per pair (``counts``) as a share of this run's panel, the
    counts' range and the pairs with fewer than two (left out of "both"); beside the paper's share of
    its 15 (:func:`consistent_text`) for the user's labels, "by construction" for simulated ones."""
    ref = ("by construction" if simulated else
           f"paper {consistent_text(PAPER['consistent'], PAPER['judges'])}, 5-15")
    return (f"assessors consistent across the two questions per pair: mean {consistent_text(counts.mean(), judges)}, "
            f"min {int(counts.min())}, max {int(counts.max())}; {ref}; pairs with fewer than 2: {int((counts < 2).sum())}")


def users_caveat(models: Sequence[str]) -> str:
    """The conclusion's general caveat when planted users ran: the measure each planted model is built
    near (:data:`NEAR_FORMULA`, the planted ``models`` only), so a recovery checks the code, e.g.
    ``"Planted users are built near RBP (position) and I-rec (coverage, smoothed), so a recovery checks
    the code, not real assessors."``"""
    near = [f"{NEAR_FORMULA[m]} ({m}{', smoothed' if m == 'coverage' else ''})" for m in NEAR_FORMULA if m in models]
    return f"Planted users are built near {claims.listing(near)}, so a recovery checks the code, not real assessors."


def families_caveat(models: Sequence[str], compared: float | None = None) -> str:
    """Limitation "families" from the run: every family check compares all ``compared`` measures, and a
    D♯-measure (half I-rec) counts in coverage's family and in its other half's; the aligned models
    this run did not plant (``planted_models``), whose families no check tests; and that no planted
    user mixes coverage with another model is said by the table's row :data:`DSHARP_QUESTION`."""
    n = f" {int(compared)}" if compared is not None and np.isfinite(compared) else ""
    out = [f"Every family check compares all{n} measures, a D♯-measure (half I-rec) in two families."]
    missing = [m for m in NEAR_FORMULA if m not in models]
    if missing:
        names = claims.listing(missing)
        out.append(f"{names[0].upper() + names[1:]} {'was' if len(missing) == 1 else 'were'} not planted, so "
                   f"{'its family is' if len(missing) == 1 else 'their families are'} not tested.")
    return " ".join(out)


def _leader_rows(mar: Mapping[str, pd.Series], blocked: Mapping[str, dict], twins: Sequence[Sequence[str]],
                 significance: float) -> list[Finding]:
    """The user's own labels: per question the measure(s) with the highest MAR, and whether the
    topic-blocked HSD separates the first of them from every other distinct measure."""
    twin_of = {x: g[0] for g in twins for x in g}
    rows = []
    for q, m in mar.items():
        lead = claims.leaders(m.to_dict(), digits=4, what="MAR")
        top = twin_of.get(lead.numbers["leaders"][0], lead.numbers["leaders"][0])
        res = blocked[q]["result"]
        hits = res[((res.higher == top) | (res.lower == top)) & (res.p_value >= significance)]
        others = {twin_of.get(x, x) for x in m.index} - {top}
        close = [x for x in np.where(hits.higher == top, hits.lower, hits.higher) if x in others]
        run = (f"{lead}; topics as blocks: " + (f"not separated from {len(close)} of the {len(others)} other measures"
                                                if close else "separated from every other measure"))
        rows.append(Finding(f"Which measure agrees best with these assessors ({q}; HSD at {significance:g})?",
                            PAPER["leader"].get(q, "—"), run, "not shown" if close else "shown", ("in_sample",),
                            numbers={"leaders": lead.numbers["leaders"], "not_separated": close}))
    return rows


def shift_sentence(max_move: float, gap: float, other: str | None = None) -> str:
    """``"Under 'fixed' MAR moves by up to 0.0227 in this draw, more than the median gap between
    adjacent measures (0.0020)."``: the normaliser check of one draw, no hint beyond it."""
    where = f" '{other}'" if other else " the other normaliser"
    than = ("most adjacent measures tie in MAR here" if round(gap, 4) == 0 else
            f"{'more' if max_move > gap else 'no more'} than the median gap between adjacent measures ({gap:.4f})")
    return f"Under{where} MAR moves by up to {max_move:.4f} in this draw, {than}."


def replay_table(counts: Mapping[str, dict], pairs_used: Mapping[str, int]) -> pd.DataFrame:
    """The paper's Table 3 replayed beside the topic-blocked test (:func:`hsd_counts`): per question
    the comparisons, the significant ones with topics as blocks and with pairs as blocks (each with
    its simultaneous Monte Carlo range) and the pair-level ones that survive topic blocking."""
    return pd.DataFrame([{"question": q, "comparisons": c["comparisons"],
                          "topics as blocks": f"{c['n_topics']} topics: {mc_text(c['topics'], c['topics_mc'])}",
                          "pairs as blocks (the paper)": f"{pairs_used[q]} pairs: {mc_text(c['pairs'], c['pairs_mc'])}",
                          "pair-level surviving": c["survive"]} for q, c in counts.items()])


def _prose(*, rec: Recovery | None, simulated: bool, shift: Mapping | None, significance: float = 0.05,
           appendix: int = 0, real: bool = False) -> list[str]:
    prose = []
    if rec is None and simulated:   # the one-study power and the misses are read in the appendix (appendix_prose)
        prose.append(f"The planted-truth check did not run: it needs 2 replicates, and {MIN_REPLICATES} for a verdict.")
    if shift:
        prose.append(shift_sentence(shift["max_move"], shift["gap"], shift.get("other")))
    if appendix:
        prose.append(f"The appendix holds {appendix} {'results' if appendix > 1 else 'result'} set by the simulation.")
    return prose


@dataclass(frozen=True)
class PreferenceFindings(Findings):
    """The findings of notebook 05 with an ``appendix``: the rows that hold by construction of the
    simulation (a reached alpha target, r set by the simulator's question correlation), shown after
    the conclusion by :meth:`show_appendix`, never in the findings table."""

    appendix: tuple = ()
    appendix_prose: tuple = ()

    def appendix_findings(self) -> Findings:
        """The appendix rows as a table of their own, with the caveats they point to, the planted users'
        general caveat (when a planted model is near a formula) and the bullets on the one-study power
        and the planted families not shown first on average (:mod:`.preference_misses`)."""
        general = ("planted_users",) if "planted_users" in self.caveats else ()
        return AppendixFindings(self.notebook, self.appendix, self.appendix_prose, caveats=self.caveats,
                                general=general, title=_APPENDIX_TITLE)

    def show_appendix(self, out=None) -> None:
        """Display the appendix (saved as ``05_findings_appendix.{csv,tex}`` with ``out``)."""
        self.appendix_findings().show_or_say(out, empty="appendix: no result of this run holds by construction of the simulation")


#: How the appendix intro names each by-construction row (:data:`APPENDIX_QUESTIONS`).
APPENDIX_NAMES = {ALPHA_QUESTION: "the labels' α, calibrated to its targets",
                  R_QUESTION: "the two questions' correlation r, which follows from the simulator",
                  NULL_QUESTION: "the null users' chance levels (they ignore the documents)",
                  HSD_QUESTION: "the share of Table 3's pair-level differences that survive topic blocking, set by "
                                "the simulated topics"}


#: The planted families' check on average: its question starts so (the level follows the run), and
#: the appendix intro names it so. Every planted model with a family is built near a measure's formula
#: (:data:`NEAR_FORMULA`), so its recovery is set by the simulation's design: an appendix row.
AVERAGE_PREFIX = "On average, is each planted family"
AVERAGE_NAME = ("the planted families' recovery on average, set by users built near RBP, nDCG, I-rec and "
                "RBU/ERR")


#: The one-study power row (:func:`helpers.findings.preference_power.power_row`): its question starts so,
#: and the appendix intro names it so (set by the simulator's noise constants and built-in contrast).
POWER_PREFIX = "In one study of"
POWER_NAME = ("each planted family's power in one study, set by the simulator's noise constants and built-in "
              "contrast (not calibrated to the paper)")


def _appendix_name(question: str) -> str:
    """How :func:`appendix_intro` names an appendix row (:data:`APPENDIX_NAMES`)."""
    if question.startswith(POWER_PREFIX):
        return POWER_NAME
    return AVERAGE_NAME if question.startswith(AVERAGE_PREFIX) else APPENDIX_NAMES.get(question, question)


def appendix_intro(found: Findings, tables: Sequence[str], extra: Sequence[str] = (),
                   lines: str = "") -> list[str]:
    """The appendix's opening sentences, from what this run put there: the rows that hold by
    construction (named by :data:`APPENDIX_NAMES`, or that none does), ``lines`` (what printed
    lines follow them, e.g. section 1's replicates), how many longer tables follow, and ``extra``
    (what later appendix cells show), so no sentence names a result the run did not give (a missed
    α target stays in the findings table, not here)."""
    rows = list(getattr(found, "appendix", ()))
    if rows:
        out = ["First what this run's simulation builds in or sets, checks of the machinery rather than findings:"]
        out += [f"  - {_appendix_name(r.question)}" for r in rows]   # one to a line
    else:
        out = ["No result of this run holds by construction of the simulation, so no findings appendix follows."]
    if lines:
        out.append(f"Then {lines}.")
    if tables:
        out.append(f"Then {len(tables)} longer {'table' if len(tables) == 1 else 'tables'} of the sections above, each "
                   "under its caption and saved under `reports/tables/05_*`.")
    out += [f"Last, {x}." for x in extra[:1]] + [f"Then {x}." for x in extra[1:]]
    return out


def involving(sig: pd.DataFrame, top: Sequence[str], significance: float) -> pd.DataFrame:
    """The differences significant with topics as blocks (``p_topics`` below ``significance``, the
    test section 6 recommends) that involve an assessor role or a measure with the highest MAR
    (``top``), with the pair-level p beside; ``sig``: :func:`helpers.preference.questions.with_topic_p`."""
    roles = list(pq.ROLE_COLUMNS)
    keep = (sig.p_topics < significance) & (sig.higher.isin(roles) | sig.lower.isin(roles) | sig.higher.isin(top))
    return sig[keep].sort_values(["higher", "delta_mar"], ascending=[True, False], kind="stable")


def _in_appendix(row: Finding, simulated: bool) -> bool:
    """Whether a row holds by construction of the simulation or is set by it, so belongs to the
    appendix: a reached α target and r set by the question correlation; the null users' chance levels
    unless a measure departs (null assessors ignore the documents); the planted families' check on
    average (every planted user with a family is built near a measure's formula); and, with simulated labels, the
    share of pair-level differences that survive topic blocking (set by the simulator's within-topic
    dependence, so it says nothing about the paper's Table 3). The one-study power goes there too
    (:func:`helpers.findings.preference_power.power_row`): it is decided by the simulator's fixed noise
    constants and built-in contrast, which are not calibrated to the paper's pairs."""
    if row.question in APPENDIX_QUESTIONS:
        return row.verdict == "by construction"
    if row.question == NULL_QUESTION:
        return row.verdict != "does not hold"
    if row.question.startswith((AVERAGE_PREFIX, POWER_PREFIX)):   # planted users near formulas: decided by the design
        return True
    return simulated and row.question == HSD_QUESTION


def _by_construction(row: Finding) -> Finding:
    """An appendix row with the verdict that answers its question and the ``by_construction`` caveat
    (:func:`helpers.findings.preference_power.appendix_row`); r: "holds" when its 95% CI is above 0."""
    if row.question != R_QUESTION:
        return appendix_row(row)
    lo, hi = row.numbers["low"], row.numbers["high"]
    return appendix_row(row, "holds" if lo > 0 else "does not hold" if hi <= 0 else "cannot tell")


#: The order of the findings table: what the data answer and what is no artefact of the simulation first
#: (real users, the D#/I-rec bound, the method check on average), then the rest in the order built.
_FIRST = ("THUIR users:", "Does D♯-RBP", "How often does D♯-RBP", "Do the D♯-measures", "In one study of")


def _rank(row: Finding) -> int:
    return next((i for i, head in enumerate(_FIRST) if row.question.startswith(head)), len(_FIRST))


def findings(*, simulated: bool, alphas: Mapping[str, float], alpha_target: Mapping[str, float] | None,
             counts: Mapping[str, dict], bound: Mapping, same_as_irec: float, n_pairs: int, cutoff: int,
             min_difference: float, significance: float, rec: Recovery | None = None,
             pearson: Sequence[float] | None = None, consistent: Sequence[float] | None = None,
             mar: Mapping[str, pd.Series] | None = None, blocked: Mapping[str, dict] | None = None,
             twins: Sequence[Sequence[str]] = (), shift: Mapping | None = None,
             real_table: pd.DataFrame | None = None, real_sens: pd.DataFrame | None = None,
             pairs: Mapping | None = None, footer: str = "") -> Findings:
    """The findings of notebook 05 (see the module docstring for the questions).

    Parameters
    ----------
    simulated : whether the labels are simulated (else the user's files).
    alphas, alpha_target : Krippendorff's alpha per question, and the simulation's targets (None for files).
    counts : :func:`hsd_counts`. bound, same_as_irec : :func:`helpers.preference.dsharp_irec_bound` at
        p = 0.99, and the share of pairs on which D#-RBP (p = 0.99) and I-rec prefer the same SERP.
    rec : :func:`recovery` (None when the planted-truth experiment did not run).
    pearson, consistent : (r, low, high) of the two questions' preference balances and (mean consistent
        assessors per pair, assessors), when there are both questions.
    mar, blocked, twins : per question MAR and :func:`helpers.preference.questions.topic_blocked`, and
        the groups of measures with identical preferences (files only: the leader rows).
    shift : ``{"max_move", "gap", "other"}`` of the normaliser check (``other``: the normaliser compared).
    real_table, real_sens : the THUIR tables.
    pairs : ``{"candidates", "passed"}`` of the pair filter (simulated collections), printed beside the
        paper's pass rate in the one-study power row and its Limitation.
    """
    rows = planted_rows(rec) if rec is not None else []
    one = [r for r in rows if r.question.startswith(ONE_STUDY_PREFIX)]   # one row on single-study power
    rate = pass_rate_text(pairs)
    # the row's cell stays short: the pass rate is said once, in the noise_model caveat; this study's top
    # group (set by the simulated mixture) is printed in Appendix A.4
    power = power_row(one, n_pairs)
    rows = [r for r in rows if not r.question.startswith(ONE_STUDY_PREFIX)] + ([power] if power is not None else [])
    if not simulated and mar is not None:
        rows += _leader_rows(mar, blocked, twins, significance)
    rows.append(_hsd_row(counts))
    if simulated:   # the bound speaks of pairs filtered on I-rec; a file's pairs need not be
        rows.append(_bound_row(bound, same_as_irec, n_pairs, cutoff, min_difference))
    alpha_row = _alpha_row(alphas, alpha_target, rec.off_target if rec is not None else None)
    if alpha_row is not None:
        rows.append(alpha_row)
    if pearson is not None:
        rows.append(_r_row(pearson, consistent, simulated))
    if real_table is not None:
        rows += [measures_row(real_table, real_sens, significance), baseline_row(real_table, significance)]
    if simulated:   # the paper's central claim: a row, so the table says it is not tested
        rows.append(dsharp_row())
    keep = [not _in_appendix(r, simulated) for r in rows]
    appendix = tuple(_by_construction(r) for r, k in zip(rows, keep) if not k)
    rows = sorted((r for r, k in zip(rows, keep) if k), key=_rank)   # what holds by construction is no finding
    prose = _prose(rec=rec, simulated=simulated, shift=shift, significance=significance, appendix=len(appendix),
                  real=real_table is not None)
    caveats, general = {**PLANTED_CAVEATS, **CAVEATS}, ("simulated",) if simulated else ()
    if rec is not None:
        models = list(dict.fromkeys(m for m, _ in rec.cases))
        compared = rec.single["compared"].max() if "compared" in rec.single.columns and len(rec.single) else None
        cases = sum(len(qs) for qs in rec.by_model().values())
        caveats.update(noise_model=contrast_caveat(rec, rate, paper_pass_rate_text()),
                       families=families_caveat(models, compared),
                       rates_uncorrected=f"Each rate's 95% CI stands alone, uncorrected over the {cases} "
                                         "model-question cases.")
        if any(m in NEAR_FORMULA for m in models):   # the planted users near a formula qualify every planted row
            caveats["planted_users"] = users_caveat(models)   # said in the appendix, where the planted rows are
    misses = (tuple(one_study_bullet(rec, significance) + coverage_bullet(rec) + miss_bullets(rec))
              if rec is not None else ())
    return PreferenceFindings("05_preference_agreement", rows, prose, caveats=caveats, general=general,
                              footer=footer, appendix=appendix, appendix_prose=misses)
