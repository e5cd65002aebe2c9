"""Notebook 05's planted-truth experiment, read: can MAR recover a planted user model?

For each planted model aligned with a measure family (:mod:`helpers.simulate.users`) the
replicates of :func:`helpers.replicates.preference.preference_recovery` are read two ways:

* **in one study** of the run's size (each replicate alone): is the family's best measure first
  by MAR, and significantly ahead of every measure outside it (Tukey's HSD with topics as blocks,
  :mod:`helpers.preference.recovery`)? The findings row asks for a power of :data:`POWER_TARGET`;
* **on average** over the replicates: does the family's best measure lead the best measure outside
  it (:func:`helpers.replicates.planted.family_check`, the two picked on half of the replicates and
  compared on the other half, Holm over the model-question cases)?

Every measure is compared: a D#-measure (half I-rec, half another measure) counts in coverage's
family and in its other half's (:func:`helpers.replicates.preference.study_families`), so no family
verdict depends on which measures are left out. Null assessors must leave every measure at its own
chance level. The one-study rows follow the exact (Clopper-Pearson) interval of the rate at any
number of replicates; the held-out and null checks need :data:`MIN_REPLICATES` replicates, and
with fewer they say "cannot tell" and print means and ranges. The rows are built here (:func:`planted_rows`; the bullets on misses in :mod:`.preference_misses`) and joined
to the rest of the notebook's table by :func:`helpers.findings.preference.findings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding
from ..replicates import planted, runner, studies
from ..replicates import preference as rep_pref
from ..simulate import users
from ..stats import holm

__all__ = ["MIN_REPLICATES", "POWER_TARGET", "family_table", "USERS_DO", "NEAR_FORMULA", "CAVEATS", "Recovery", "recovery",
           "recovery_table", "recovery_lines", "mixture_note", "planted_metrics", "planted_rows",
           "one_study_bullet", "NULL_QUESTION", "rate_interval", "power_reading", "power_limits", "recovery_parts", "RECOVERY_PARTS", "PART_TITLES", "recovery_narrow", "signed", "where"]

#: What each planted model's assessors do (:mod:`helpers.simulate.users`), for :func:`family_table`.
USERS_DO = {"position": "read down with persistence p", "graded": "graded relevance, log rank discount",
            "coverage": "each intent satisfied by some document, intents weighted uniformly: a smoothed I-rec",
            "first-hit": "p^(r−1) at the first document ≥ L2", "null": "ignore the documents",
            "mixture": "the mixture `user_models`"}


def family_table(models, measures: Sequence[str]) -> pd.DataFrame:
    """Each planted model, what its assessors do and the run's measures of its aligned family,
    generated from :func:`helpers.replicates.preference.study_families` (the families every check and
    figure of section 1 counts), never typed by hand: whole members, then the half members (the
    D#-measures, half I-rec, in coverage's family and in their other half's) marked "(half)"."""
    rows = []
    for m in models:
        fam = rep_pref.study_families(m, list(measures))[0] if m in users.BY_DEFINITION else []
        half = set(users.partial_members(m, fam, families=users.BY_DEFINITION))
        names = [x for x in fam if x not in half] + [f"{x} (half)" for x in fam if x in half]
        rows.append({"model": m, "the assessors": USERS_DO.get(m, m), "aligned family": ", ".join(names) or "none"})
    return pd.DataFrame(rows)


#: The planted models whose users are close to a measure's formula (:mod:`helpers.simulate.users`):
#: position users sum p^(r-1) x(r) (RBP's), graded users x(r)/log2(r+1) (nDCG's), first-hit users take
#: p^(r-1) at the first document of level L2 or above (RBU's discount with an ERR-style stop), and
#: coverage users average 1 - prod_r (1 - c x_i(r)) over the intents with uniform weights: a smoothed
#: I-rec (intent recall, graded and with diminishing returns), so I-rec and the measures built on it
#: (the D#-measures' I-rec half) are close to them by construction.
NEAR_FORMULA = {"position": "RBP", "graded": "nDCG", "coverage": "I-rec", "first-hit": "RBU/ERR"}

#: What the coverage user is, in the words of every bullet that names it.
COVERAGE_IS = "a smoothed I-rec"


# ---------------------------------------------------------------------------------------------
# The planted-truth experiment, read
# ---------------------------------------------------------------------------------------------

#: Fewest replicates for a planted-truth verdict: the family check tests on the held-out half, so
#: 40 replicates leave 20 for its t-test, and the null check and the single-study rates read all 40
#: (the 40 draws :mod:`helpers.notebook.claims` asks of a 95% interval). With fewer, every planted
#: row says "cannot tell" and prints means and ranges, no interval.
MIN_REPLICATES = 40
#: Power asked of one study: the family is significantly first in at least this share of studies.
POWER_TARGET = 0.8


@dataclass(frozen=True)
class Recovery:
    """The planted-truth experiment read (:func:`recovery`)."""

    summary: pd.DataFrame            # MAR per model, question, system: mean, low, high over replicates
    cases: dict                      # (model, question) -> the reading of that panel
    holm: dict                       # (model, question) -> recovered after Holm (None: too few replicates)
    null: pd.DataFrame | None        # the null panel: MAR minus own chance per measure and question
    null_family: int                 # distinct tests Holm corrects over in the null check
    off_target: pd.DataFrame         # panel-questions whose alpha stayed more than 0.01 below its target
    noise_free: pd.DataFrame         # per panel: the measures nearest the planted user, rho
    replicates: int
    single: pd.DataFrame = field(default_factory=pd.DataFrame)   # one study's reading per model, question
    level: float = 0.05              # the familywise level of the Holm-corrected checks
    holm_with_shared: dict = field(default_factory=dict)   # (model, question) -> recovered after Holm with the
    # members shared by two families in (``holm`` also asks it of the family's own members)

    @property
    def enough(self) -> bool:
        """Whether the run has the :data:`MIN_REPLICATES` a verdict needs."""
        return self.replicates >= MIN_REPLICATES

    def by_model(self) -> dict[str, dict[str, bool | None]]:
        """Model -> {question: recovered after Holm (None below :data:`MIN_REPLICATES`)}, for the
        models with a family."""
        out: dict[str, dict[str, bool | None]] = {}
        for (m, q), ok in self.holm.items():
            out.setdefault(m, {})[q] = ok
        return out

    def one_study(self, model: str) -> dict[str, dict]:
        """Question -> ``{"first", "ahead", "replicates", "own", "lead", "lead_sd", "q_max", "chance_first",
        "measures"}`` (NaN where the rows lack them) of one model: in how many
        replicates (each one study) the family's best measure was first by MAR and significantly ahead
        (:mod:`helpers.preference.recovery`); empty when the replicates hold no single-study rows."""
        if not len(self.single):
            return {}
        s = self.single[self.single.model == model]
        return {r.question: {"first": int(r.first), "ahead": int(r.ahead), "replicates": int(r.replicates),
                             "own": float(r.own), "own_ahead": float(r.own_ahead), "compared": float(r.compared),
                             "lead": float(r.lead), "lead_sd": float(r.lead_sd), "q_max": float(r.q_max),
                             "chance_first": float(r.chance_first), "measures": float(r.measures)}
                for r in s.itertuples()}


def _wide(rows: pd.DataFrame, model: str, question: str, measures: Sequence[str]) -> pd.DataFrame:
    """Replicates x measures of one panel and question (empty when the rows hold none)."""
    w = rows[(rows.model == model) & (rows.question == question) & rows.name.isin(list(measures))]
    if w.empty:
        return pd.DataFrame(columns=list(measures))
    return w.pivot(index="replicate", columns="name", values="value")[list(measures)]


def _families(model: str, wide: pd.DataFrame, measures: Sequence[str]) -> tuple[list[str], list[str]]:
    """``model``'s family among ``measures`` and its own members
    (:func:`helpers.replicates.preference.study_families`: half members, the D#-measures, count in
    both families; a measure equal to a member in every replicate counts as a member), so every
    measure of ``wide`` is compared and none is left out."""
    return rep_pref.study_families(model, list(measures), wide)


def _held_out_range(wide: pd.DataFrame, ck: Mapping) -> tuple[float, float]:
    """Smallest and largest difference ``best_in - best_out`` over the replicates the family check
    tested on (the odd rows when it split them, else all)."""
    test = wide.iloc[1::2] if ck["selection"] == "split" else wide
    d = (test[ck["best_in"]] - test[ck["best_out"]]).dropna()
    return (float(d.min()), float(d.max())) if len(d) else (float("nan"), float("nan"))


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
    fam, own = _families(model, w, measures) if model in users.BY_DEFINITION else ([], [])
    # every measure is compared: half members count in both families, a measure identical to a member
    # in every replicate counts as a member (a measure is not compared with itself)
    ck = planted.family_check(w, fam, means=means, leader_set=named) if fam else None
    shared = [x for x in fam if x not in own]
    ck_own = (planted.family_check(w.drop(columns=shared), own,
                                   means={k: v for k, v in means.items() if k not in shared})
              if shared and own else None)
    ck_free = planted.family_check(free, fam) if fam and len(free) else None
    verdict = lambda c: None if c is None else c["verdict"] == "recovered"  # noqa: E731
    for c, frame in ((ck, w), (ck_free, free)):   # the held-out differences' range, printed below 40 replicates
        if c is not None and c["verdict"] != "not testable":
            c["range"] = _held_out_range(frame, c)
    return {"claim": lead, "check": ck, "shared": shared, "family": fam, "own": own, "check_noise_free": ck_free,
            "aligned_lead": None if ck is None or ck["verdict"] == "not testable" else verdict(ck),
            "check_unshared": ck_own,
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
    R = int(rep["replicate"].nunique())
    p_holm = holm([cases[k]["check"]["p"] for k in testable]) if testable else []
    holm_ok = {k: (bool(cases[k]["check"]["diff"] > 0 and ph < significance) if R >= MIN_REPLICATES else None)
               for k, ph in zip(testable, p_holm)}
    # a family whose best member is shared with another family (RBU, a D#-measure) is recovered only if
    # its own members (of no other family) also lead the best outside, Holm over those checks: it decides
    own = [k for k in testable if cases[k]["check_unshared"] is not None
           and cases[k]["check_unshared"]["verdict"] != "not testable"]
    p_own = holm([cases[k]["check_unshared"]["p"] for k in own]) if own else []
    own_ok = {k: bool(cases[k]["check_unshared"]["diff"] > 0 and ph < significance) for k, ph in zip(own, p_own)}
    with_shared = dict(holm_ok)
    holm_ok = {k: (v and own_ok.get(k, True)) if v is not None else None for k, v in holm_ok.items()}
    alpha = rep[rep.quantity == "alpha"].groupby(["model", "question"])["value"].agg(["min", "max"])
    off = alpha[alpha["min"] < np.array([alpha_target[q] for _, q in alpha.index]) - 0.01]
    null, family = None, 0
    if "null" in panel_models:
        null = rep_pref.above_own_chance(rep, "null")
        dep = planted.departures(null["mean"], null["sd"], null["replicates"], null=0.0, alpha=significance)
        null = null.assign(p_holm=dep["p_holm"].to_numpy(), departs=dep["departs"].to_numpy())
        family = int(dep["family"].iloc[0])
    near = rep_pref.noise_free_leaders(rep, list(measures))
    return Recovery(summary, cases, holm_ok, null, family, off, near, R, _one_study(rep), significance, with_shared)


def _one_study(rep: pd.DataFrame) -> pd.DataFrame:
    """Per model and question, over the replicates: how many put the family's best measure first and
    significantly ahead in that one study, the mean and sd of its lead, and, when the rows carry them,
    the largest studentized range ``q_max``, the chance that a random order puts a family member
    first (``chance_first``, the mean of family / measures) and the most distinct ``measures``
    (:func:`helpers.replicates.preference.preference_recovery`'s ``"single"`` rows)."""
    s = rep[rep.quantity == "single"]
    cols = ["model", "question", "replicates", "first", "ahead", "own", "own_ahead", "lead", "lead_sd", "q_max", "chance_first",
            "measures", "compared"]
    if s.empty:
        return pd.DataFrame(columns=cols)
    w = s.pivot_table(index=["model", "question", "replicate"], columns="name", values="value", sort=False)
    g = w.groupby(level=["model", "question"], sort=False)
    nan = pd.Series(np.nan, index=g.size().index)
    out = pd.DataFrame({"replicates": g.size(), "first": g["first"].sum().astype(int),
                        "ahead": g["ahead"].sum().astype(int),
                        "own": g["own"].sum().astype(int) if "own" in w else nan,
                        "own_ahead": g["own_ahead"].sum().astype(int) if "own_ahead" in w else nan,
                        "lead": g["lead"].mean(),
                        "lead_sd": g["lead"].std(ddof=1), "q_max": g["q"].max() if "q" in w else nan,
                        "chance_first": (w["family"] / w["measures"]).groupby(level=["model", "question"],
                                                                              sort=False).mean()
                        if "family" in w and "measures" in w else nan,
                        "measures": g["measures"].max() if "measures" in w else nan,
                        "compared": g["compared"].max() if "compared" in w else nan})
    return out.reset_index()[cols]


def rate_interval(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson (exact) ``level`` interval of a rate of ``k`` successes in ``n`` studies
    (``scipy.stats.binomtest``); 0 of 40 gives (0, 0.088)."""
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def power_reading(k: int, n: int, target: float = POWER_TARGET) -> str:
    """Whether ``k`` of ``n`` studies show a power of ``target``, read from the Clopper-Pearson 95%
    interval of the rate (:func:`rate_interval`), never from the point estimate: ``"holds"`` when the
    lower bound is at least ``target``, ``"does not hold"`` when the upper bound is below it, else
    ``"cannot tell"``. 36 of 40 ([0.763, 0.972]) cannot tell; 38 of 40 ([0.831, 0.994]) holds."""
    lo, hi = rate_interval(k, n)
    return "holds" if lo >= target else "does not hold" if hi < target else "cannot tell"


def power_limits(n: int, target: float = POWER_TARGET) -> tuple[int, int]:
    """``(shown, ruled_out)``: the fewest of ``n`` studies whose 95% interval shows the power
    ``target`` (:func:`power_reading` "holds") and the most whose interval rules it out; 40 studies
    give (38, 26). ``shown`` is ``n + 1`` when no count can show it."""
    reads = [power_reading(k, n, target) for k in range(n + 1)]
    shown = next((k for k, r in enumerate(reads) if r == "holds"), n + 1)
    ruled = max((k for k, r in enumerate(reads) if r == "does not hold"), default=-1)
    return shown, ruled


def _ci3(k: int, n: int) -> str:
    lo, hi = rate_interval(k, n)
    return f"[{lo:.3f}, {hi:.3f}]".replace("[0.000,", "[0,").replace(", 1.000]", ", 1]")


def signed(v: float, digits: int = 3) -> str:
    """``v`` with a sign, with more digits (up to 6) where ``digits`` would print a non-zero as 0."""
    d = digits
    while d < 6 and v != 0 and float(f"{v:.{d}f}") == 0:
        d += 1
    return f"{v:+.{d}f}"


def _ci(ck: Mapping, enough: bool = True) -> str:
    """``+0.004 [+0.002, +0.005]``: a family check's mean paired difference and its 95% CI; below
    :data:`MIN_REPLICATES` replicates the mean and the range of the held-out differences
    (``+0.002 (range −0.016 to +0.020)``), no interval."""
    if not enough:
        lo, hi = ck.get("range", (float("nan"), float("nan")))
        return f"{signed(ck['diff'])} (range {signed(lo)} to {signed(hi)})" if np.isfinite(lo) else signed(ck["diff"])
    return claims.mean_ci(ck["diff"], ck["low"], ck["high"], ck["replicates"]).text.split(" (")[0]


def _free_text(ck: Mapping | None, enough: bool = True) -> str:
    """The noise-free family check as a table cell: ``"I-rec − D#-Q −0.006 [−0.008, −0.004]"``."""
    if ck is None or ck["verdict"] == "not testable":
        return ""
    return f"{ck['best_in']} − {ck['best_out']} {_ci(ck, enough)}"


def recovery_table(rec: Recovery) -> pd.DataFrame:
    """One row per panel with a family and question: in how many single studies (replicates) the
    family's best measure was first by MAR and significantly ahead, its lead in one study (mean and
    sd over the studies), the pair the held-out family check compared with its mean paired difference
    (95% CI, or the range below :data:`MIN_REPLICATES`), the verdict (uncorrected and after Holm), the
    *random-set rate* (the chance that a random set of measures of the leader set's size holds a
    family member; not a chance level of MAR), and the measure nearest
    the planted user without noise."""
    near = rec.noise_free.set_index(["model", "question"]) if len(rec.noise_free) else None
    rows = []
    diff_col = "held-out mean difference [95% CI]" if rec.enough else "held-out mean difference (range)"
    for (m, q), c in rec.cases.items():
        ck = c["check"]
        if c["aligned_lead"] is None:
            continue
        nf = near.loc[(m, q)] if near is not None and (m, q) in near.index else None
        one = rec.one_study(m).get(q)
        row = {"model": m, "question": q}
        if one is not None:
            row.update({"first in one study": f"{one['first']} of {one['replicates']}",
                        "significantly ahead in one study": f"{one['ahead']} of {one['replicates']}",
                        "lead in one study, mean (sd)": f"{signed(one['lead'])} ({one['lead_sd']:.4f})"})
        row.update({"family's best − best outside": f"{ck['best_in']} − {ck['best_out']}",
                    diff_col: _ci(ck, rec.enough),
                    "95% CI alone": ck["verdict"] if rec.enough else "cannot tell",
                    "after Holm": ("recovered" if rec.holm[(m, q)] else "not shown") if rec.enough else "cannot tell",
                    "random-set rate": claims.number(ck["chance_random_set"], 3),
                    "nearest without noise": "" if nf is None else ", ".join(nf["closest"]),
                    "without noise": _free_text(c["check_noise_free"], rec.enough)})
        rows.append(row)
    return pd.DataFrame(rows)


#: The saved parts of :func:`recovery_table` (each fits a two-column paper): name -> its columns
#: besides model and question (a column the table lacks is left out).
RECOVERY_PARTS = {
    "planted_recovery": ["first in one study", "significantly ahead in one study", "lead in one study, mean (sd)"],
    "planted_recovery_average": ["family's best − best outside", "held-out mean difference [95% CI]",
                                 "held-out mean difference (range)", "95% CI alone", "after Holm"],
    "planted_recovery_noise_free": ["random-set rate", "nearest without noise", "without noise"]}
#: The Appendix's caption of each part (the full table cut into parts a two-column page holds).
PART_TITLES = {"planted_recovery": "first and significantly ahead in one study",
               "planted_recovery_average": "the held-out check on average",
               "planted_recovery_noise_free": "the random-set rate and the check without noise"}


#: The columns of :func:`recovery_narrow`, the table the main text shows (a column the table lacks is left out).
NARROW = ["significantly ahead in one study", "held-out mean difference [95% CI]", "held-out mean difference (range)",
          "after Holm"]


def recovery_narrow(table: pd.DataFrame) -> pd.DataFrame:
    """The narrow part of :func:`recovery_table` the main text shows: per model and question, in how
    many single studies the family is significantly first, the held-out mean difference and the
    verdict after Holm (the full table goes to the appendix)."""
    return table[["model", "question", *[c for c in NARROW if c in table.columns]]]


def recovery_parts(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """:func:`recovery_table` cut into the parts of :data:`RECOVERY_PARTS` (one study, on average,
    without noise), each with model and question; a part with none of its columns is left out."""
    out = {}
    for name, cols in RECOVERY_PARTS.items():
        have = [c for c in cols if c in table.columns]
        if have:
            out[name] = table[["model", "question", *have]]
    return out


def _counts_line(rec: Recovery) -> list[str]:
    keys = [k for k, c in rec.cases.items() if c["aligned_lead"] is not None]
    if not keys:
        return ["no planted model with an aligned family ran"]
    if not rec.enough:
        return [f"{rec.replicates} replicates: fewer than the {MIN_REPLICATES} a planted-truth verdict needs, so the "
                "checks below give means and ranges, not tests (cannot tell)"]
    ok = sum(rec.cases[k]["aligned_lead"] for k in keys)
    held = sum(bool(v) for v in rec.holm.values())
    out = [f"held-out check on average: the 95% CI alone excludes 0 in the planted direction for {ok} of {len(keys)} "
           f"model-question cases; {held} recovered after Holm over the {len(keys)} at {rec.level:g}"]
    lost = [f"{m} ({q})" for (m, q) in keys if rec.holm_with_shared.get((m, q)) and not rec.holm.get((m, q))]
    if lost:
        out.append("without the measures shared by two families (RBU, the D#-measures): no longer shown after Holm "
                   "for " + claims.listing(lost))
    return out


def _single_lines(rec: Recovery, significance: float) -> list[str]:
    """How one study of the run's size reads each planted family (the table's first columns)."""
    if not len(rec.single):
        return []
    s = rec.single
    lo, hi, R = int(s["ahead"].min()), int(s["ahead"].max()), int(s["replicates"].max())
    counts = (f"{hi} of {R} studies in each of the {len(s)}" if lo == hi else
              f"{lo} to {hi} of {R} studies across the {len(s)}")
    return [f"one study of this size (each replicate alone): the family's best measure first by MAR, and significantly "
            f"ahead of every measure outside the family (Tukey's HSD, topics as blocks, familywise {significance:g})",
            f"  significantly ahead: {counts} model-question cases",
            "  " + _power_rule(R)] + _first_lines(s)


def _power_rule(R: int) -> str:
    """How the power of :data:`POWER_TARGET` is read from ``R`` studies (:func:`power_limits`)."""
    shown, ruled = power_limits(R)
    head = f"{POWER_TARGET:.0%} power is read from the 95% Clopper-Pearson CI of the rate: "
    out = f"ruled out at {ruled} or fewer" if ruled >= 0 else "none can rule it out"
    if shown > R:
        out = ("none can rule it out" if ruled < 0 else "only 0 rules it out" if ruled == 0
               else f"{ruled} or fewer rule it out")
        return head + f"no count of {R} studies can show it, {out}"
    return head + f"shown at {shown} or more of {R} (lower bound >= {POWER_TARGET:.2f}), {out}, else cannot tell"


def _first_lines(s: pd.DataFrame) -> list[str]:
    """First by MAR in how many studies per model (questions joined by " / "), beside the
    *random-order rate*: the chance that a random order of the measures puts a family member first
    (family size over distinct measures, averaged over the studies)."""
    parts, own = [], []
    for m, g in s.groupby("model", sort=False):
        rate = g["chance_first"]
        tail = f" ({_slash(_pct(c) for c in rate)})" if np.isfinite(rate).all() else ""
        parts.append(f"{m} {_slash(int(k) for k in g['first'])}{tail}")
        if np.isfinite(g["own"]).all() and (g["own"] != g["first"]).any():
            own.append(f"{m} {_slash(int(k) for k in g['own'])}")
    qs = _slash(dict.fromkeys(s["question"]))
    n = int(s["compared"].max()) if np.isfinite(s["compared"]).all() else None
    k = int(s["measures"].max()) if np.isfinite(s["measures"]).all() else None
    lines = [f"  first by MAR ({qs}), with the random-order rate in brackets"
             + (f", all {n} measures compared ({k} distinct)" if n and k else "") + ": " + ", ".join(parts)]
    lines.append("  random-order rate: the family's distinct members over the distinct measures (measures with the same "
                 "preference on every pair counted once), in each study, averaged over the studies")
    if own:   # the family's best was a measure it shares (a D#-measure, RBU) in some studies
        lines.append("  of which by a measure of no other family (not a D#-measure or RBU): " + ", ".join(own))
    return lines


def mixture_note(mixture: str) -> str:
    """What the construction of a mixture of simulated users sets (its users, not its leader): the share of its users
    whose model is near a measure's formula (:data:`NEAR_FORMULA`), e.g. ``"70% of these users are
    position or first-hit users, near RBP's and RBU/ERR's formulas"``; coverage users count as near
    I-rec's (a smoothed I-rec)."""
    mix = users.parse_mixture(mixture)
    near = {m: w for m, w in mix.items() if m in NEAR_FORMULA and w > 0}
    if not near:
        return "none of these users is near a measure's formula"
    share = sum(near.values())
    formulas = claims.listing([NEAR_FORMULA[m] + "'s" for m in near])
    noun = "formula" if len(near) == 1 else "formulas"
    return f"{share:.0%} of these users are {claims.listing(list(near), 'or')} users, near {formulas} {noun}"


def recovery_lines(rec: Recovery, panel_models: Mapping[str, str], significance: float = 0.05) -> list[str]:
    """The printed lines of the planted-truth section: alpha reached, one study's reading, the
    counts, the null check, the leaders of the mixture panel (no family planted), and how MAR follows
    the noise-free order."""
    lines = ["alpha reached: " + ("every panel within 0.01 of its target" if rec.off_target.empty else
                                  "more than 0.01 below target in " + ", ".join(
                                      f"{m}/{q} (min {r['min']:.3f})" for (m, q), r in rec.off_target.iterrows()))]
    lines += _single_lines(rec, significance)
    lines += _counts_line(rec)
    if rec.null is not None:
        lines += _null_lines(rec)
    for m, mix in panel_models.items():
        if m == "mixture":   # no family: its leaders are set by the mixture planted
            lines.append(f"mixture panel, no family planted ({mixture_note(mix)}): the mixture sets the users, not "
                         "which measure leads")
            if rec.enough:
                lines.append("  within noise: the uncorrected paired 95% CI of the difference to the leader includes 0")
            lines += [f"  {q}: {_leader_text(rec.cases[(m, q)]['claim'], rec.replicates)}" for q in ("relevance", "diversity")]
    if len(rec.noise_free):
        rho = rec.noise_free["rho"].dropna()
        if len(rho):
            lines.append(f"MAR order vs the order without noise, Spearman's rho over the measures: "
                         f"{rho.min():.2f} to {rho.max():.2f} across the {claims.plural(len(rho), 'panel-question')}")
    return lines


def _leader_text(claim: claims.Claim, replicates: int, most: int = 4) -> str:
    """The leaders as :func:`helpers.notebook.claims.leaders` words them, or, when more than ``most``
    measures are within noise, the leaders and how many are within noise. Below the draws a 95%
    interval needs (:func:`helpers.notebook.claims.min_draws`) no measure is said within noise: the
    leaders and ``"too few replicates (2 < 40) to tell measures apart"``."""
    n = claim.numbers
    need = claims.min_draws(0.95)
    if replicates < need:
        head = str(claim).split("; within noise")[0]
        head += ")" if head != str(claim) else ""
        return f"{head}; too few replicates ({replicates} < {need}) to tell measures apart"
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
            "aligned_lead": {key(m, q): {"every_measure_compared": v["aligned_lead"],
                                         "family": v["family"], "own": v["own"],
                                         "without_shared_measures": v["aligned_lead_unshared"],
                                         "after_holm": rec.holm.get((m, q)),
                                         "after_holm_with_shared": rec.holm_with_shared.get((m, q))}
                             for (m, q), v in rec.cases.items()},
            "null_minus_own_chance": None if rec.null is None else rec.null[
                ["question", "system", "mean", "low", "high", "chance", "includes_chance", "p_holm", "departs"]],
            "noise_free": rec.noise_free, "one_study": rec.single, "enough_replicates": rec.enough,
            "min_replicates": MIN_REPLICATES, "power_target": POWER_TARGET}


def chance_by_question(null: pd.DataFrame) -> str:
    """The null panel's own chance levels per question: ``"0.450 (relevance), 0.439-0.450 (diversity)"``
    (a range where the measures' EQUAL shares give them different levels)."""
    parts = []
    for q, g in null.groupby("question", sort=False):
        lo, hi = g["chance"].min(), g["chance"].max()
        parts.append((f"{lo:.3f}" if round(lo, 3) == round(hi, 3) else f"{lo:.3f}-{hi:.3f}") + f" ({q})")
    return ", ".join(parts)


def _null_lines(rec: Recovery) -> list[str]:
    n = rec.null
    off, off_unc = n[n.departs], n[~n.includes_chance]
    chance = chance_by_question(n)
    if not rec.enough:
        return [f"null panel: own chance levels {chance}; MAR minus own chance, mean over {rec.replicates} replicates, "
                f"{signed(n['mean'].min(), 4)} to {signed(n['mean'].max(), 4)} across the {len(n)} measure-question "
                "cases (too few replicates for a test)"]
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


def _noise_constants() -> dict[str, float]:
    """The noise-model constants of :func:`helpers.simulate.preferences.preference_judgments` the
    planted-truth replicates use (its defaults: neither the replicates nor the notebook set them)."""
    import inspect

    from ..simulate.preferences import preference_judgments

    sig = inspect.signature(preference_judgments).parameters
    return {k: float(sig[k].default) for k in ("pair_effect", "question_correlation", "assessor_spread")}


#: The noise-model constants the one-study power depends on.
NOISE = _noise_constants()

CAVEATS = {
    "noise_model": ("One-study power rests on the simulator's noise (per-pair effect "
                    f"{NOISE['pair_effect']:g}, question correlation {NOISE['question_correlation']:g}, assessor "
                    f"spread {NOISE['assessor_spread']:g}) and on its built-in contrast between the families."),
    "few_replicates": f"The held-out and null checks need at least {MIN_REPLICATES} replicated studies (half of them "
                      "held out for the family check); with fewer they read 'cannot tell'.",
    "families": "Every family check compares all measures, a D♯-measure (half I-rec) in two families.",
    "rates_uncorrected": "Each rate's 95% CI stands alone, uncorrected over the model-question cases.",
}


def _nearest(rec: Recovery, model: str) -> list[str]:
    nf = rec.noise_free
    if not len(nf):
        return []
    return list(dict.fromkeys(x for lst in nf[nf.model == model]["closest"] for x in lst))


def _slash(values) -> str:
    return " / ".join(str(v) for v in values)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


#: How each power reading is said in a one-study row's question and verdict.
_READINGS = (("holds", "shown"), ("cannot tell", "cannot tell"), ("does not hold", "ruled out"))


def _one_study_rows(rec: Recovery) -> list[Finding]:
    """In one study of the run's size, is a planted family significantly first (Tukey's HSD, topics as
    blocks) with the power :data:`POWER_TARGET`, read from each model-question rate's 95%
    Clopper-Pearson interval (:func:`power_reading`)? One row per reading (shown, cannot tell, ruled
    out), each naming its cases, so a "cannot tell" never hides cases that are ruled out; the power
    rule is in the question. A family built into its users and shown is "by construction" (every
    model with a family is near a measure's formula, :data:`NEAR_FORMULA`). Below
    :data:`MIN_REPLICATES` one row, "cannot tell"."""
    by = rec.by_model()
    models = [m for m, qs in by.items() if all(q in rec.one_study(m) for q in qs)]
    if not models:
        return []
    one = {m: rec.one_study(m) for m in models}
    R = max(one[m][q]["replicates"] for m in models for q in by[m])
    powered = {m: {q: power_reading(one[m][q]["ahead"], one[m][q]["replicates"]) for q in by[m]} for m in models}
    rule = f"with {POWER_TARGET:.0%} power (95% CI ≥ {POWER_TARGET:.2f})"
    # the exact interval needs no minimum of replicates: every reading follows it
    groups = [(word, said, [(m, q) for m in models for q in by[m] if powered[m][q] == word]) for word, said in _READINGS]
    rows = []
    for word, said, cases in groups:
        if not cases:
            continue
        ms = list(dict.fromkeys(m for m, _ in cases))
        qs_of = {m: [q for m2, q in cases if m2 == m] for m in ms}
        same_qs = len({tuple(v) for v in qs_of.values()}) == 1
        counts = ", ".join(f"{m} {_slash(one[m][q]['ahead'] for q in qs_of[m])}"
                           + ("" if same_qs else f" ({_slash(qs_of[m])})") for m in ms)
        ks = sorted({one[m][q]["ahead"] for m, q in cases})
        own = [f"{_slash(int(one[m][q]['own_ahead']) for q in qs_of[m])} by a measure of {m} alone" for m in ms
               if any(np.isfinite(one[m][q]["own_ahead"]) and one[m][q]["own_ahead"] != one[m][q]["ahead"]
                      for q in qs_of[m])]
        n = max(one[m][q]["compared"] for m, q in cases)
        run = (f"{counts} of {R} studies" + (f" ({_slash(qs_of[ms[0]])})" if same_qs else "")
               + (f", {', '.join(own)}" if own else "")
               + f"; 95% CIs {', '.join(f'{k}: {_ci3(k, R)}' for k in ks)}")
        verdict = word
        if word == "holds" and all(m in NEAR_FORMULA for m in ms):
            verdict = "by construction"
        caveats = ("families", "rates_uncorrected", "noise_model")   # near a formula: the conclusion's general caveat
        question = f"In one study, is the family of {where(cases)} significantly first {rule}?"
        rows.append(Finding(question, "—", run, verdict, caveats,
                            {"reading": said, "one_study": {m: {q: one[m][q] for q in qs_of[m]} for m in ms},
                             "power_target": POWER_TARGET, "powered": {m: dict(powered[m]) for m in ms},
                             "compared": int(n) if np.isfinite(n) else None}))
    return rows


def _average_row(rec: Recovery) -> Finding:
    """Over the replicates: does the held-out family check rank each planted family first (Holm)?"""
    by = rec.by_model()
    n_cases = sum(len(v) for v in by.values())
    question = f"On average, is each planted family first (held out, Holm at {rec.level:g})?"
    if not rec.enough:
        held = max(rec.cases[(m, q)]["check"]["replicates"] for m, qs in by.items() for q in qs)
        return Finding(question, "—", f"{held} held-out replicates: too few for a test",
                       "cannot tell", ("few_replicates",), {"held_out": held})
    parts = [f"{m} {sum(bool(v) for v in qs.values())} of {len(qs)}" for m, qs in by.items()]
    ok = [bool(v) for qs in by.values() for v in qs.values()]
    run = (f"recovered (Holm over {n_cases} at {rec.level:g}; members of no other family decide): "
           f"{', '.join(parts)}")
    lost = [m for m, qs in by.items() if any(rec.holm_with_shared.get((m, q)) and not v for q, v in qs.items())]
    if lost:   # recovered only through a member shared with another family (RBU, a D#-measure)
        run += f"; {claims.listing(lost)} only by a measure shared with another family"
    verdict = "holds" if all(ok) else "holds in part" if any(ok) else "does not hold"
    checks = {f"{m} | {q}": {k: rec.cases[(m, q)]["check"][k] for k in ("best_in", "best_out", "diff", "low", "high",
                                                                       "p", "replicates", "verdict")}
              for m, qs in by.items() for q in qs}
    return Finding(question, "—", run, verdict, ("families",),
                   {"recovered_after_holm": {m: dict(qs) for m, qs in by.items()}, "checks": checks})


def _null_row(rec: Recovery) -> Finding:
    n = rec.null
    question = NULL_QUESTION
    if not rec.enough:
        run = (f"MAR − own chance, mean over {rec.replicates} replicates: {signed(n['mean'].min(), 4)} to "
               f"{signed(n['mean'].max(), 4)}; own chance {chance_by_question(n)}")
        return Finding(question, "—", run, "cannot tell", ("few_replicates",),
                       {"cases": len(n), "replicates": rec.replicates})
    inside = int(n["includes_chance"].sum())
    off = n[n.departs]
    run = (f"own chance {chance_by_question(n)}; MAR − chance: 95% CI includes 0 in {inside} of {len(n)} cases; "
           + ("none departs" if off.empty else f"{len(off)} {'departs' if len(off) == 1 else 'depart'}")
           + f" (Holm over {rec.null_family} at {rec.level:g})")
    return Finding(question, "—", run, "by construction" if off.empty else "does not hold",
                   numbers={"inside": inside, "cases": len(n), "depart": len(off), "family": rec.null_family})


#: The null users' question: they ignore the documents, so every measure stays at its chance level by
#: construction (a row of the appendix unless a measure departs).
NULL_QUESTION = "Null users: does every measure stay at its chance level?"


def planted_rows(rec: Recovery) -> list[Finding]:
    by = rec.by_model()
    rows = _one_study_rows(rec)
    if by:
        rows.append(_average_row(rec))
    if rec.null is not None:
        rows.append(_null_row(rec))
    return rows


def where(cases: Sequence[tuple[str, str]]) -> str:
    """``"graded and first-hit (relevance and diversity), position (diversity)"``: model-question
    cases, the models with the same questions named together (one bracket for each set of questions)."""
    by: dict[str, list[str]] = {}
    for m, q in cases:
        by.setdefault(m, []).append(q)
    groups: dict[tuple[str, ...], list[str]] = {}
    for m, qs in by.items():
        groups.setdefault(tuple(qs), []).append(m)
    return ", ".join(f"{claims.listing(ms)} ({claims.listing(list(qs))})" for qs, ms in groups.items())


def one_study_bullet(rec: Recovery, significance: float) -> list[str]:
    """Why one study of the run's size singles no family out, when none is significantly first in any
    study: how far the largest studentized range stays below the least critical value
    (:func:`helpers.preference.recovery.critical_q`), said only when it does stay below. Nothing below
    :data:`MIN_REPLICATES` or without single-study rows."""
    from ..preference.recovery import critical_q

    s = rec.single
    if not rec.enough or not len(s):
        return []
    if int(s["ahead"].max()) == 0:
        out = "No planted family is significantly first in any study of this size"
        q, k = s["q_max"].max(), s["measures"].max()
        if np.isfinite(q) and np.isfinite(k) and q < critical_q(int(k), significance):
            out += (f": Tukey's statistic reached {q:.2f} at most, and {int(k)} measures need "
                    f"{critical_q(int(k), significance):.2f}")
        return [out + "."]
    return []   # which families one study singles out: the one-study rows, one per reading
