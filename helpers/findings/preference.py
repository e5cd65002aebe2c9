"""Notebook 05's findings: can MAR recover a planted user model, and what this run's data say.

Zeng & Sakai (Sakai & Zeng, SIGIR 2019) ask which diversity measures agree with users, through the
mean agreement rate (MAR) of every measure with 15 assessors' SERP-pair preferences. Those labels
are licensed; no public set pairs real SERP preferences with intent judgments. So the questions
depend on the run's data:

* simulated assessors (the default and ``real`` profiles): **can MAR recover a planted user
  model?** For each planted model aligned with a measure family (:mod:`helpers.simulate.users`),
  does the family's best measure lead the best measure outside it (:func:`recovery`; the check of
  :func:`helpers.replicates.planted.family_check`, Holm over the model-question cases), and does
  every measure stay at its own chance level with null assessors? Besides: do the pair-level
  HSD differences survive with topics as blocks; must D#-RBP (p = 0.99) prefer what I-rec prefers;
  does the stand-in reach the alpha it is calibrated to, and do its two questions correlate as the
  paper's do;
* the user's own files (``data: files``, e.g. the licensed 1,127-pair labels): **which measure
  agrees best with the assessors**, alpha and r as measured;
* the THUIR image-search set (``real_dataset``): do single-intent measures agree with real users'
  page preferences more often than chance.

:func:`check_parameters` validates the notebook's parameters; :func:`findings` builds the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..notebook import claims, params
from ..notebook.findings import Finding, Findings
from ..replicates import planted, runner, studies
from ..stats import holm
from ..replicates import preference as rep_pref
from ..simulate import users

__all__ = ["Setup", "check_parameters", "measure_names", "Recovery", "recovery", "recovery_table", "recovery_lines",
           "planted_metrics", "hsd_counts", "mc_text", "findings", "PAPER", "CAVEATS"]

#: What the paper reports (Zeng & Sakai; Sakai & Zeng, SIGIR 2019).
PAPER = {"alpha": {"relevance": 0.406, "diversity": 0.356}, "r": (0.898, 0.886, 0.909), "consistent": 13.10,
         "leader": {"relevance": "D-Q 0.7345 (Table 4)", "diversity": "D♯-nDCG 0.7347 (Table 5)",
                    "both": "D♯-nDCG 0.7484 (Table 2)"}}

#: How the findings table names each planted model's aligned family (:data:`helpers.simulate.users.ALIGNED`).
FAMILY = {"position": "RBP-like: D-RBP, RBP-IA, RBU", "graded": "D-nDCG, D-Q, nDCG-IA", "coverage": "I-rec, α-nDCG",
          "first-hit": "ERR-like: D-ERR, ERR-IA, RBU"}

#: The planted models whose users are close to one measure's formula (section 2 of the notebook).
NEAR_FORMULA = {"position": "D-RBP", "graded": "D-nDCG"}


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
# The planted-truth experiment, read
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Recovery:
    """The planted-truth experiment read (:func:`recovery`)."""

    summary: pd.DataFrame            # MAR per model, question, system: mean, low, high over replicates
    cases: dict                      # (model, question) -> the reading of that panel
    holm: dict                       # (model, question) -> recovered after Holm over the cases
    null: pd.DataFrame | None        # the null panel: MAR minus own chance per measure and question
    null_family: int                 # distinct tests Holm corrects over in the null check
    off_target: pd.DataFrame         # panel-questions whose alpha stayed more than 0.01 below its target
    noise_free: pd.DataFrame         # per panel: the measures nearest the planted user, rho
    replicates: int

    def by_model(self) -> dict[str, dict[str, bool]]:
        """Model -> {question: recovered after Holm}, for the models with a family."""
        out: dict[str, dict[str, bool]] = {}
        for (m, q), ok in self.holm.items():
            out.setdefault(m, {})[q] = ok
        return out


def _wide(rows: pd.DataFrame, model: str, question: str, measures: Sequence[str]) -> pd.DataFrame:
    """Replicates x measures of one panel and question (empty when the rows hold none)."""
    w = rows[(rows.model == model) & (rows.question == question) & rows.name.isin(list(measures))]
    if w.empty:
        return pd.DataFrame(columns=list(measures))
    return w.pivot(index="replicate", columns="name", values="value")[list(measures)]


def _without_twins(wide: pd.DataFrame, family: Sequence[str]) -> pd.DataFrame:
    """``wide`` without the measures outside ``family`` whose values equal a family member's in every
    replicate (one measure under two names, e.g. D#-RBP (p = 0.99) and I-rec when the pair filter
    exceeds 1 - 0.99^l): comparing a measure with itself would give a difference of exactly 0."""
    fam = [x for x in family if x in wide.columns]
    same = [c for c in wide.columns if c not in fam and any(wide[c].equals(wide[f]) for f in fam)]
    return wide.drop(columns=same)


def _panel(rep: pd.DataFrame, summary: pd.DataFrame, model: str, question: str, measures: Sequence[str]) -> dict:
    """One panel's reading: leaders (and within noise), the family check, the check without shared
    measures, and the same family check on the noise-free agreement (is a measure outside the family
    nearer the planted user?)."""
    w = _wide(rep[rep.quantity == "mar"], model, question, measures)
    free = _wide(rep[rep.quantity == "noise-free"], model, question, measures)
    s = summary[(summary.model == model) & (summary.question == question)].set_index("system")
    means = s.loc[list(measures), "mean"].to_dict()
    _, paired = studies.paired_leader_intervals(w, means=means)
    lead = claims.leaders(means, intervals=paired, digits=4, what="MAR")
    named = lead.numbers["leaders"] + lead.numbers["within_noise"]
    fam = {how: [x for x in measures if model in users.ALIGNED and users.aligned_family(model, x, through_irec=how)]
           for how in (False, True)}
    # the checks leave out measures identical to a family member in every replicate (a measure is not
    # compared with itself); the leaders above keep every name
    ck = planted.family_check(_without_twins(w, fam[False]), fam[False], means=means, leader_set=named) \
        if fam[False] else None
    ck_irec = planted.family_check(_without_twins(w, fam[True]), fam[True], means=means) if fam[True] else None
    shared = users.shared_members(model, fam[False]) if model in users.ALIGNED else []
    own = [x for x in fam[False] if x not in shared]
    ck_own = (planted.family_check(_without_twins(w.drop(columns=shared), own), own,
                                   means={k: v for k, v in means.items() if k not in shared})
              if shared and own else None)
    ck_free = planted.family_check(_without_twins(free, fam[False]), fam[False]) if fam[False] and len(free) else None
    verdict = lambda c: None if c is None else c["verdict"] == "recovered"  # noqa: E731
    return {"claim": lead, "check": ck, "shared": shared, "family": fam[False], "check_noise_free": ck_free,
            "aligned_lead": None if ck is None or ck["verdict"] == "not testable" else verdict(ck),
            "aligned_lead_through_irec": verdict(ck_irec), "check_unshared": ck_own,
            "aligned_lead_unshared": verdict(ck_own), "lowest": claims.leaders(means, digits=4, higher=False, what="MAR"),
            "median_assessor": s.loc["median assessor"].to_dict() if "median assessor" in s.index else None}


def recovery(rep: pd.DataFrame, measures: Sequence[str], panel_models: Mapping[str, str], *,
             alpha_target: Mapping[str, float], significance: float = 0.05) -> Recovery:
    """Read the replicates of :func:`helpers.replicates.preference.preference_recovery`.

    Per panel and question: the leaders by mean MAR and everything within noise (the 95% CI of the
    mean paired difference to a leader includes 0, uncorrected), and the family check (the family's
    best against the best measure outside it, picked on half of the replicates and compared on the
    other half); per model and question ``holm``: recovered after Holm's correction over the
    model-question cases (``significance``); the null panel's check (MAR minus each measure's own
    chance level, Holm over the distinct cases); the alpha each panel reached against
    ``alpha_target`` (question -> target); the measures nearest each planted user without noise.
    """
    mar_rep = rep[rep.quantity == "mar"]
    summary = runner.summarise(mar_rep, "value", by=["model", "question", "name"]).rename(columns={"name": "system"})
    cases = {(m, q): _panel(rep, summary, m, q, measures)
             for q in ("relevance", "diversity") for m in panel_models}
    testable = [k for k, v in cases.items() if v["aligned_lead"] is not None]
    p_holm = holm([cases[k]["check"]["p"] for k in testable]) if testable else []
    holm_ok = {k: bool(cases[k]["check"]["diff"] > 0 and ph < significance) for k, ph in zip(testable, p_holm)}
    alpha = rep[rep.quantity == "alpha"].groupby(["model", "question"])["value"].agg(["min", "max"])
    off = alpha[alpha["min"] < np.array([alpha_target[q] for _, q in alpha.index]) - 0.01]
    null, family = None, 0
    if "null" in panel_models:
        null = rep_pref.above_own_chance(rep, "null")
        dep = planted.departures(null["mean"], null["sd"], null["replicates"], null=0.0, alpha=significance)
        null = null.assign(p_holm=dep["p_holm"].to_numpy(), departs=dep["departs"].to_numpy())
        family = int(dep["family"].iloc[0])
    near = rep_pref.noise_free_leaders(rep, list(measures))
    return Recovery(summary, cases, holm_ok, null, family, off, near, int(rep["replicate"].nunique()))


def _ci(ck: Mapping) -> str:
    """``+0.004 [+0.002, +0.005]``: a family check's mean paired difference and its 95% CI."""
    return claims.mean_ci(ck["diff"], ck["low"], ck["high"], ck["replicates"]).text.split(" (")[0]


def _free_text(ck: Mapping | None) -> str:
    """The noise-free family check as a table cell: ``"I-rec − D#-Q −0.006 [−0.008, −0.004]"``."""
    if ck is None or ck["verdict"] == "not testable":
        return ""
    return f"{ck['best_in']} − {ck['best_out']} {_ci(ck)}"


def recovery_table(rec: Recovery) -> pd.DataFrame:
    """One row per panel with a family and question: leaders, the pair the family check compared,
    the mean paired difference with its 95% CI, the verdict (uncorrected and after Holm), the
    chance that a random set of the leader set's size holds a family member, and the measure
    nearest the planted user without noise."""
    near = rec.noise_free.set_index(["model", "question"]) if len(rec.noise_free) else None
    rows = []
    for (m, q), c in rec.cases.items():
        ck = c["check"]
        if c["aligned_lead"] is None:
            continue
        nf = near.loc[(m, q)] if near is not None and (m, q) in near.index else None
        rows.append({"model": m, "question": q, "leader(s)": ", ".join(c["claim"].numbers["leaders"]),
                     "family's best − best outside": f"{ck['best_in']} − {ck['best_out']}",
                     "difference [95% CI]": _ci(ck), "verdict": ck["verdict"],
                     "after Holm": "recovered" if rec.holm[(m, q)] else "not shown",
                     "chance of a random leader set": claims.number(ck["chance_random_set"], 3),
                     "nearest without noise": "" if nf is None else ", ".join(nf["closest"]),
                     "without noise [95% CI]": _free_text(c["check_noise_free"])})
    return pd.DataFrame(rows)


def _counts_line(rec: Recovery) -> list[str]:
    keys = [k for k, c in rec.cases.items() if c["aligned_lead"] is not None]
    if not keys:
        return ["no planted model with an aligned family ran"]
    ok = sum(rec.cases[k]["aligned_lead"] for k in keys)
    irec = sum(bool(rec.cases[k]["aligned_lead_through_irec"]) for k in keys)
    held = sum(rec.holm.values())
    out = [f"recovered: {ok} of {len(keys)} model-question cases (each on its own); {held} after Holm's correction "
           f"over the {len(keys)} cases",
           f"with the D#-measures counted as coverage-aligned through their I-rec half: {irec} of {len(keys)}"]
    lost = [f"{m} ({q})" for (m, q) in keys if rec.cases[(m, q)]["aligned_lead"]
            and rec.cases[(m, q)]["aligned_lead_unshared"] is False]
    if lost:
        out.append(f"without the measures shared by two families (RBU): no longer shown for {claims.listing(lost)}")
    return out


def recovery_lines(rec: Recovery, panel_models: Mapping[str, str]) -> list[str]:
    """The printed lines of the planted-truth section: alpha reached, the counts, the null check,
    the leaders of the panels without a family, and how MAR follows the noise-free order."""
    lines = ["alpha reached: " + ("every panel within 0.01 of its target" if rec.off_target.empty else
                                  "more than 0.01 below target in " + ", ".join(
                                      f"{m}/{q} (min {r['min']:.3f})" for (m, q), r in rec.off_target.iterrows()))]
    lines += _counts_line(rec)
    if rec.null is not None:
        lines += _null_lines(rec)
    for m in panel_models:
        if m == "mixture":   # no family: its leaders are set by the mixture planted
            lines += [f"{m} ({q}): leader(s) {_leader_text(rec.cases[(m, q)]['claim'])}" for q in ("relevance", "diversity")]
    if len(rec.noise_free):
        rho = rec.noise_free["rho"].dropna()
        if len(rho):
            lines.append(f"MAR order vs the order without noise, Spearman's rho over the measures: "
                         f"{rho.min():.2f} to {rho.max():.2f} across the {len(rho)} panel-questions")
    return lines


def _leader_text(claim: claims.Claim, most: int = 4) -> str:
    """The leaders as :func:`helpers.notebook.claims.leaders` words them, or, when more than ``most``
    measures are within noise, the leaders and how many are within noise."""
    n = claim.numbers
    if len(n["within_noise"]) <= most:
        return str(claim)
    return (f"{claims.listing(n['leaders'])} ({n['best']:.4f}); {len(n['within_noise'])} more measures within noise "
            "(95% CI of the mean paired difference to the leader includes 0, uncorrected)")


def planted_metrics(rec: Recovery) -> dict:
    """The planted-truth experiment as the metrics file records it."""
    key = lambda m, q: f"{m} | {q}"  # noqa: E731
    return {"R": rec.replicates, "summary": rec.summary,
            "leaders": {key(m, q): v["claim"].numbers for (m, q), v in rec.cases.items()},
            "family_check": {key(m, q): v["check"] for (m, q), v in rec.cases.items()},
            "family_check_noise_free": {key(m, q): v["check_noise_free"] for (m, q), v in rec.cases.items()},
            "aligned_lead": {key(m, q): {"dsharp_in_no_family": v["aligned_lead"],
                                         "dsharp_with_coverage": v["aligned_lead_through_irec"],
                                         "without_shared_measures": v["aligned_lead_unshared"],
                                         "after_holm": rec.holm.get((m, q))} for (m, q), v in rec.cases.items()},
            "null_minus_own_chance": None if rec.null is None else rec.null[
                ["question", "system", "mean", "low", "high", "chance", "includes_chance", "p_holm", "departs"]],
            "noise_free": rec.noise_free}


def _null_lines(rec: Recovery) -> list[str]:
    n = rec.null
    off, off_unc = n[n.departs], n[~n.includes_chance]
    lo, hi = n["chance"].min(), n["chance"].max()
    chance = f"{lo:.3f}" if round(lo, 3) == round(hi, 3) else f"{lo:.3f}-{hi:.3f}"
    out = [f"null panel: own chance levels {chance}; MAR minus own chance, 95% CI of the mean includes 0 for "
           f"{len(n) - len(off_unc)} of {len(n)} measure-question cases (uncorrected)"]
    shown = [f"{x} ({q}) [{a:+.4f}, {b:+.4f}]" for q, x, a, b in
             zip(off_unc.question, off_unc.system, off_unc.low, off_unc.high)]
    for k in range(0, len(shown), 4):   # four to a line
        out.append(("  not for " if k == 0 else "  ") + ", ".join(shown[k:k + 4]))
    out.append(f"  after Holm over the {rec.null_family} distinct cases: "
               + ("none departs from its chance level" if off.empty else
                  "these depart: " + ", ".join(f"{x} ({q})" for q, x in zip(off.question, off.system))))
    return out


# ---------------------------------------------------------------------------------------------
# The HSD counts
# ---------------------------------------------------------------------------------------------

def _mc(p_values, significance: float, B: int) -> tuple[int, int]:
    """(surely, possibly) significant counts: p-values within the Monte Carlo error of the level
    count either way (:func:`helpers.replicates.studies.power_interval`)."""
    p = np.asarray(p_values, dtype=float)
    sure, maybe = studies.power_interval(p, significance, B)
    return int(round(sure * len(p))), int(round(maybe * len(p)))


def mc_text(k: int, lo_hi: Sequence[int]) -> str:
    """``"63 (Monte Carlo 62-63)"``, or ``"49 (Monte Carlo: the same)"``."""
    return f"{k} (Monte Carlo {lo_hi[0]}-{lo_hi[1]})" if lo_hi[0] != lo_hi[1] else f"{k} (Monte Carlo: the same)"


def hsd_counts(results: Mapping[str, pd.DataFrame], blocked: Mapping[str, dict], *, significance: float,
               B: int) -> dict[str, dict]:
    """Per question: significant comparisons with topics and with pairs as blocks, each with its
    Monte Carlo range, the number of comparisons and of pair-level differences that survive."""
    out = {}
    for q, res in results.items():
        t = blocked[q]
        out[q] = {"topics": t["significant"], "topics_mc": _mc(t["result"].p_value, significance, B),
                  "pairs": int((res.p_value < significance).sum()), "pairs_mc": _mc(res.p_value, significance, B),
                  "comparisons": len(res), "n_topics": t["topics"], "survive": t["survive"]}
    return out


# ---------------------------------------------------------------------------------------------
# The findings table
# ---------------------------------------------------------------------------------------------

CAVEATS = {
    "near_formula": "Position and graded users are close to D-RBP's and D-nDCG's formulas by construction, so "
                    "recovering them checks the code, not the measures.",
}


def _nearest(rec: Recovery, model: str) -> list[str]:
    nf = rec.noise_free
    if not len(nf):
        return []
    return list(dict.fromkeys(x for lst in nf[nf.model == model]["closest"] for x in lst))


def _planted_rows(rec: Recovery) -> list[Finding]:
    rows = []
    for m, qs in rec.by_model().items():
        checks = {q: rec.cases[(m, q)]["check"] for q in qs}
        picks = {(c["best_in"], c["best_out"]) for c in checks.values()}
        if len(picks) == 1:
            (a, b), = picks
            run = f"{a} − {b}: " + ", ".join(f"{_ci(c)} ({q})" for q, c in checks.items())
        else:
            run = "; ".join(f"{q}: {c['best_in']} − {c['best_out']} {_ci(c)}" for q, c in checks.items())
        n = max(c["replicates"] for c in checks.values())
        run += f" (95% CIs of the mean over {n} held-out replicates)"
        if _nearest(rec, m):
            run += f"; nearest without noise: {claims.listing(_nearest(rec, m))}"
        ok = list(qs.values())
        verdict = (("by construction" if m in NEAR_FORMULA else "holds") if all(ok) else
                   "holds in part" if any(ok) else "does not hold")
        numbers = {"recovered_after_holm": dict(qs), "nearest_without_noise": _nearest(rec, m),
                   "checks": {q: {k: c[k] for k in ("best_in", "best_out", "diff", "low", "high", "p", "replicates",
                                                    "verdict")} for q, c in checks.items()}}
        rows.append(Finding(f"Planted {m} users: does MAR rank their family ({FAMILY.get(m, users.ALIGNED[m][0])}) first?",
                            "— (a check of the method)", run, verdict,
                            ("near_formula",) if m in NEAR_FORMULA else (), numbers))
    if rec.null is not None:
        n = rec.null
        inside = int(n["includes_chance"].sum())
        off = n[n.departs]
        run = (f"MAR − own chance: the 95% CI includes 0 for {inside} of {len(n)} measure-question cases; "
               + ("none departs" if off.empty else f"{len(off)} {'departs' if len(off) == 1 else 'depart'}")
               + f" after Holm over {rec.null_family}")
        rows.append(Finding("Null users (preferences that ignore the documents): does every measure stay at its own "
                            "chance level?", "— (a check of the method)", run,
                            "holds" if off.empty else "does not hold",
                            numbers={"inside": inside, "cases": len(n), "depart": len(off), "family": rec.null_family}))
    return rows


def _mc_short(k: int, lo_hi: Sequence[int]) -> str:
    return f"{k}" if lo_hi[0] == lo_hi[1] else f"{k} (Monte Carlo {lo_hi[0]}–{lo_hi[1]})"


def _hsd_row(counts: Mapping[str, dict]) -> Finding:
    qs = list(counts)
    comps = {c["comparisons"] for c in counts.values()}
    of = f" of {comps.pop()}" if len(comps) == 1 else ""
    topics = ", ".join(f"{q} {_mc_short(c['topics'], c['topics_mc'])}" + ("" if of else f" of {c['comparisons']}")
                       for q, c in counts.items())
    pairs = ", ".join(_mc_short(c["pairs"], c["pairs_mc"]) for c in counts.values())
    n_pairs, survive = sum(c["pairs"] for c in counts.values()), sum(c["survive"] for c in counts.values())
    n_topics = max(c["n_topics"] for c in counts.values())
    run = f"topics as blocks ({n_topics} topics): {topics}{of}; pairs as blocks: {pairs}"
    if n_pairs:
        run += f"; {claims.share(survive, n_pairs, 'pair-level differences')} survive"
        verdict = "holds" if survive == n_pairs else "holds in part" if survive else "does not hold"
    else:
        verdict = "cannot tell"
    return Finding("Do the HSD's pair-level differences (Table 3's method) survive with topics as blocks?",
                   "pairs as blocks (Table 3)", run, verdict,
                   numbers={"questions": qs, "survive": survive, "pair_level": n_pairs, "counts": dict(counts)})


def _bound_row(bound: Mapping, same: float, n_pairs: int, cutoff: int, min_difference: float) -> Finding:
    k = int(round(same * n_pairs))
    why = (f"1 − 0.99^{cutoff} = {bound['max_d_rbp']:.4f} {'<' if not bound['can_differ'] else '≥'} "
           f"{min_difference:g}")
    run = f"{why}; the same SERP on {k:,} of {n_pairs:,} pairs"
    return Finding("Does D♯-RBP (p = 0.99) prefer the SERP I-rec prefers on every filtered pair?",
                   "the same MAR, 0.7330 (Table 2)", run, "holds" if k == n_pairs else "does not hold",
                   numbers={"same": k, "pairs": n_pairs, **{key: bound[key] for key in ("max_d_rbp", "can_differ")}})


def _alpha_row(alphas: Mapping[str, float], targets: Mapping[str, float] | None, off_target) -> Finding | None:
    known = [q for q in ("relevance", "diversity") if q in alphas]
    if not known:
        return None
    paper = ", ".join(f"{PAPER['alpha'][q]:.3f} ({q})" for q in known)
    run = ", ".join(f"{alphas[q]:.3f} ({q})" for q in known)
    if targets is None:   # real labels: alpha is measured, and compared with the paper's
        same = all(round(alphas[q], 3) == PAPER["alpha"][q] for q in known)
        return Finding("Krippendorff's α of the assessors", paper, run, "reproduced" if same else "not reproduced",
                       numbers={"alpha": {q: alphas[q] for q in known}})
    missed = [q for q in known if abs(alphas[q] - targets[q]) > 0.01]
    run += "; targets " + ", ".join(f"{targets[q]:.3f}" for q in known)
    panels = off_target is not None and len(off_target)
    if off_target is not None:
        run += "; planted panels: " + (f"{len(off_target)} panel-questions below target" if panels else
                                       "all within 0.01")
    return Finding("Do the simulated labels reach the α they are calibrated to?", paper, run,
                   "by construction" if not missed and not panels else "does not hold",
                   numbers={"alpha": {q: alphas[q] for q in known}, "targets": {q: targets[q] for q in known},
                            "missed": missed, "panels_below": int(panels or 0)})


def _r_row(pearson: Sequence[float], consistent: Sequence[float], simulated: bool) -> Finding:
    r, lo, hi = pearson
    mean, judges = consistent
    inside = lo <= PAPER["r"][0] <= hi
    paper = f"r = {PAPER['r'][0]:.3f} [{PAPER['r'][1]:.3f}, {PAPER['r'][2]:.3f}]; {PAPER['consistent']:.2f} of 15 consistent"
    run = f"r = {r:.3f} [{lo:.3f}, {hi:.3f}]; {mean:.2f} of {judges} consistent"
    return Finding("Do the two questions' preference counts correlate as in the paper?", paper, run,
                   "agrees" if inside else "differs", ("stand_in",) if simulated else (),
                   numbers={"r": r, "low": lo, "high": hi, "consistent": mean})


def _thuir_row(real_table: pd.DataFrame, real_sens: pd.DataFrame | None, significance: float) -> Finding:
    dec = real_table[(real_table.scope == "decisive") & (real_table.kind == "measure")]
    best = dec[dec.k == dec.k.max()]
    b = best.sort_values("p_above", kind="stable").iloc[0]
    above = int((dec.p_above_holm < significance).sum())
    p_holm = claims.format_p(b["p_above_holm"], significance)
    run = (f"best: {claims.listing(list(best.system))}, {int(b['k'])} of {int(b['n'])} decisive queries "
           f"(Holm p {'' if p_holm.startswith('<') else '= '}{p_holm}); {above} of {len(dec)} measures above chance")
    if real_sens is not None:
        k = int((real_sens["p above, Holm"] < significance).sum())
        run += f"; {k} of {len(real_sens)} settings (Holm over all their tests)"
    return Finding("Real users (THUIR image search): do single-intent measures agree more often than chance?",
                   "— (not in the paper; Xie et al. 2020)", run, "shown" if above else "not shown", ("low_power",),
                   numbers={"best": list(best.system), "k": int(b["k"]), "n": int(b["n"]), "above": above})


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
        rows.append(Finding(f"Which measure agrees best with these assessors ({q})?",
                            PAPER["leader"].get(q, "—"), run, "not shown" if close else "shown", ("in_sample",),
                            numbers={"leaders": lead.numbers["leaders"], "not_separated": close}))
    return rows


def _coverage_bullet(rec: Recovery) -> str | None:
    """Why MAR does or does not single out the coverage family: the same family check on the
    noise-free agreement says whether a measure outside the family is nearer the planted user."""
    by = rec.by_model().get("coverage")
    if by is None:
        return None
    if all(by.values()):
        return "MAR singles out the coverage family in every question."
    missed = [q for q, ok in by.items() if not ok]
    free = {q: rec.cases[("coverage", q)]["check_noise_free"] for q in missed}
    free = {q: c for q, c in free.items() if c is not None and c["verdict"] != "not testable"}
    head = f"MAR does not single out the coverage family ({claims.listing(missed)})."
    if not free:
        return head
    outside = {q: c for q, c in free.items() if c["verdict"] == "outside ahead"}
    if len(outside) == len(free):
        q, c = next(iter(outside.items()))
        return (head + f" Without noise a measure outside the family is nearer these users: {c['best_in']} − "
                f"{c['best_out']} {_ci(c)} ({q}). Coverage users read graded levels; I-rec reads only whether an "
                "intent is covered. The miss is the family's, not MAR's.")
    if all(c["verdict"] == "recovered" for c in free.values()):
        return head + " Without noise the family is nearest these users, so the miss is one of power at this size."
    return head + " Without noise the family and the best measure outside it are not told apart either."


def _prose(*, rec: Recovery | None, simulated: bool, real: bool, shift: Mapping | None) -> list[str]:
    prose = []
    if rec is not None:
        cov = _coverage_bullet(rec)
        if cov:
            prose.append(cov)
        rho = rec.noise_free["rho"].dropna() if len(rec.noise_free) else pd.Series(dtype=float)
        if len(rho):
            prose.append(f"Across panels, Spearman's ρ between MAR and noise-free agreement is {rho.min():.2f} to "
                         f"{rho.max():.2f}.")
    elif simulated:
        prose.append("The planted-truth check needs at least 2 replicates.")
    if simulated:
        prose.append("Which diversity measure agrees with real users needs the licensed 1,127-pair labels "
                     "(`data: files`); the default and `real` profiles do not have them.")
    if real:
        prose.append("The THUIR set has no intents: it tests single-intent measures only.")
    if shift and round(shift["gap"], 4) == 0:
        prose.append(f"Under the other normaliser a measure's MAR moves by up to {shift['max_move']:.4f}; most "
                     "adjacent measures tie in MAR here.")
    elif shift:
        word = "more" if shift["max_move"] > shift["gap"] else "no more"
        prose.append(f"Under the other normaliser a measure's MAR moves by up to {shift['max_move']:.4f}, {word} than "
                     f"the median gap of {shift['gap']:.4f} between adjacent measures.")
    return prose


def findings(*, simulated: bool, alphas: Mapping[str, float], alpha_target: Mapping[str, float] | None,
             counts: Mapping[str, dict], bound: Mapping, same_as_irec: float, n_pairs: int, cutoff: int,
             min_difference: float, significance: float, rec: Recovery | None = None,
             pearson: Sequence[float] | None = None, consistent: Sequence[float] | None = None,
             mar: Mapping[str, pd.Series] | None = None, blocked: Mapping[str, dict] | None = None,
             twins: Sequence[Sequence[str]] = (), shift: Mapping | None = None,
             real_table: pd.DataFrame | None = None, real_sens: pd.DataFrame | None = None,
             footer: str = "") -> Findings:
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
    shift : ``{"max_move", "gap"}`` of the normaliser check. real_table, real_sens : the THUIR tables.
    """
    rows = _planted_rows(rec) if rec is not None else []
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
        rows.append(_thuir_row(real_table, real_sens, significance))
    prose = _prose(rec=rec, simulated=simulated, real=real_table is not None, shift=shift)
    return Findings("05_preference_agreement", rows, prose, caveats=CAVEATS,
                    general=("simulated",) if simulated else (), footer=footer)
