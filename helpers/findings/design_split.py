"""Notebook 06's split-half rows and lines (:mod:`helpers.findings.design` re-exports them).

Do the D-study's predictions hold on disjoint halves of the pilot, out of sample (Urbano et al.,
SIGIR 2013, one row per map; the normal-theory relation)?  One rule for every row
(:func:`split_verdict`, stated in docs/06-split-half-rule.md as :data:`RULE`): a size is judged inside or
outside the predicted interval unless the observed mean lies within :data:`MC_Z` Monte Carlo standard
errors of a bound or inside an interval that spans more than a factor :data:`WIDE` (or reaches 0).  The
verdict reads the intervals only: "cannot tell" with fewer than two sizes judged, and when none judged is
outside (an observed mean inside a wide predicted interval does not reject the map, nor does it show it
holds: the vocabulary has no "not rejected", so the run cell says "inside at k of k sizes"); "does not
hold" when more than half the judged sizes are outside; "holds in part" between.
Every size's prediction comes from the same pilot, so a point missed on one side at every size is one
pilot's estimation error seen several times, not independent evidence: the rows describe it, the
verdict does not read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding

__all__ = ["interval_method", "MC_Z", "WIDE", "NOT_JUDGED", "ARCSIN", "RULE", "split_header", "split_lines", "coefficient_lines",
           "split_rows", "split_verdict", "who_text", "never_text", "inside", "missing", "n_ci", "unreachable_text"]


def interval_method(design: str | None, coefficient: str = "erho2") -> str:
    """The name of the D-study's interval method: Feldt (Eρ²) and Arteaga et al. (Φ) in s x t and
    s x (a:t); in s x t x a the same formulas on Satterthwaite's composite mean squares, named
    Satterthwaite (:mod:`helpers.design.dstudy`)."""
    if design == "s x t x a":
        return "Satterthwaite"
    return "Feldt" if coefficient == "erho2" else "Arteaga et al."


def who_text(ks) -> str:
    """``"4 assessors"``, ``"1 assessor"``, ``"3 and 4 assessors"``."""
    ks = list(ks)
    return claims.plural(ks[0], "assessor") if len(ks) == 1 else f"{claims.listing([str(k) for k in ks])} assessors"


def never_text(never: Mapping[int, float], power: float | None, what: str = "reaches", who: bool = True) -> str:
    """``"no number of topics reaches power 0.90 with 4 assessors: the assessors' bias caps it at 0.84"``."""
    from ..design.sakai import MAX_TOPICS

    ks, who = list(never), (who_text(never) if who else "")
    asked = f"power {power:.2f}" if power is not None else "the power asked for"
    capped = [c for c in never.values() if np.isfinite(c) and (power is None or c <= power + 1e-12)]
    why = (f": the assessors' bias caps it at {claims.listing([_cap(c, power) for c in never.values()])}"
           if len(capped) == len(ks) else f" within {MAX_TOPICS:,} topics")
    return f"no number of topics {what} {asked}{f' with {who}' if who else ''}{why}"


def _cap(c: float, power: float | None) -> str:
    from .design_rule import beside
    return f"{c:.2f}" if power is None else beside(c, power)


def unreachable_text(lo) -> str:
    """A target unreachable at the point estimate, with the pilot's interval when its lower end is
    reachable: ``"unreachable at the point estimate but within the 95% interval from 23 topics"``."""
    return ("unreachable" if missing(lo) else
            f"unreachable at the point estimate but within the 95% interval from {int(lo):,} topics")


def missing(v) -> bool:
    """None, pandas' NA or a float NaN: a value the tables leave empty."""
    return v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v))


def n_ci(n, lo, hi) -> str:
    """``"107 [96, 119]"``; ``"unbounded"`` for an end no number of topics reaches; for no n,
    ``"unreachable"``, or, when the lower end is reachable, :func:`unreachable_text` (the interval).
    About n >= 100 with an interval over ×:data:`WIDE` (or unbounded), every number to 2 significant
    figures, saying why (``"240,000 [2,700, unbounded] (2 significant figures: ...)"``)."""
    if missing(n):
        return unreachable_text(lo)
    if missing(lo) and missing(hi):
        return f"{int(n):,}"
    # an interval wider than x WIDE (or unbounded) about n >= 100: more than 2 significant figures are noise
    rough = int(n) >= 100 and (missing(lo) or missing(hi) or int(hi) > WIDE * max(int(lo), 1))
    def one(v):
        return "unbounded" if missing(v) else f"{int(float(f'{int(v):.2g}')) if rough else int(v):,}"
    return f"{one(n)} [{one(lo)}, {one(hi)}]" + (" (2 significant figures: the interval spans over ×10)" if rough else "")


#: Monte Carlo z: a verdict whose margin to a bound of the prediction is within this many standard
#: errors of the observed mean is "cannot tell".
MC_Z = 1.96
#: A prediction interval whose upper end exceeds its lower end by more than this factor is too wide
#: to judge against (the conflicts map near Eρ² = 1 spans orders of magnitude).
WIDE = 10.0


def inside(obs, lo, hi, se=0.0) -> bool | None:
    """Whether ``obs`` lies in [lo, hi]; ``None`` when a value is missing (nothing to judge) or
    when ``obs`` lies within ``MC_Z`` Monte Carlo standard errors ``se`` of a bound."""
    vals = [float(v) for v in (obs, lo, hi)]
    if not all(np.isfinite(v) for v in vals):
        return None
    o, l, h = vals
    se = float(se) if se is not None and np.isfinite(float(se)) else 0.0
    if min(abs(o - l), abs(o - h)) <= MC_Z * se:
        return None
    return bool(l <= o <= h)


def _wide(lo, hi) -> bool:
    """An interval too wide to judge against (more than a factor ``WIDE``, or reaching 0)."""
    lo, hi = float(lo), float(hi)
    return np.isfinite(lo) and np.isfinite(hi) and (lo <= 0 or hi / lo > WIDE)


#: Fewest sizes with a prediction a split-half verdict is read from: one size is one comparison, not a pattern.
MIN_JUDGED = 2


def _count(ok: list, what: str) -> str:
    judged = [v for v in ok if v is not None]
    if not judged:
        return f"judged at none of {claims.plural(len(ok), 'size')}"
    text = (f"inside the predicted interval at {sum(judged)} of {len(judged)} sizes" if len(judged) != 1 else
            f"{'inside' if judged[0] else 'outside'} the predicted interval at the one size judged")
    # why a size is not judged (``what``) is said once, in the appendix's rule and header
    return text + (f" (not judged at {len(ok) - len(judged)})" if len(judged) < len(ok) else "")


#: Why a size is not judged (the same rule for every simulated comparison of the split halves).
NOT_JUDGED = (f"observed mean lies within 1.96 MC SE of a bound of its predicted interval, or inside one wider than "
              f"×{WIDE:g} (an observed mean outside it is judged), or the interval is missing")


def _judge(obs, low, high, se) -> list:
    """Per size: inside the predicted interval (True/False), or None (not judged: :data:`NOT_JUDGED`).
    A wide interval (:func:`_wide`) says little when it holds the observed mean, but an observed mean
    outside even it is judged: outside (False)."""
    out = []
    for o, lo, hi, e in zip(obs, low, high, se):
        v = inside(o, lo, hi, e)
        out.append(None if v and _wide(lo, hi) else v)
    return out


def _tau_text(split: pd.DataFrame, key: str) -> tuple[str, list]:
    se = split["tau_se"] if "tau_se" in split else pd.Series(0.0, index=split.index)
    ok = _judge(split["tau_observed"], split[f"{key}_low"], split[f"{key}_high"], se)
    text = (f"τ {_count(ok, NOT_JUDGED)}; "
            f"{_direction(split['tau_observed'], split[key], se, factors=False)}")
    if "tau_se" in split and split["tau_se"].notna().any():
        text += f"; τ's MC SE ≤ {split['tau_se'].max():.3f}"
    return text, ok


def _factor(x: float) -> str:
    """A ratio as the referee reads it: ``1.3``, ``8.1``, ``30``."""
    return f"{x:.1f}" if x < 10 else f"{x:,.0f}"


def _sides(obs: pd.Series, pred: pd.Series, se: pd.Series | None, factors: bool):
    """(observed, predicted, beyond ``MC_Z`` MC SE, below, above) over the sizes with a point prediction."""
    se = pd.Series(0.0, index=obs.index) if se is None else se.reindex(obs.index).astype(float).fillna(0.0)
    ok = obs.notna() & pred.notna() & ((pred > 0) if factors else True)
    o, p, e = obs[ok].astype(float), pred[ok].astype(float), se[ok]
    beyond = (o - p).abs() > MC_Z * e
    return o, p, beyond, int((beyond & (o < p)).sum()), int((beyond & (o > p)).sum())


def _direction(obs: pd.Series, pred: pd.Series, se: pd.Series | None = None, *, factors: bool = True) -> str:
    """``"observed below the point prediction at 8 of 9 sizes (by factors 1.3 to 30; 1 within 1.96 MC SE)"``;
    both sides when both occur (``"below ... at 5 of 9 sizes and above at 3"``).

    A size counts on a side only when the observed mean is more than ``MC_Z`` Monte Carlo standard
    errors ``se`` from the point prediction (the rule of :func:`inside`); the others are said as
    within noise.  ``factors``: the ratios observed / predicted of the sizes counted on the larger
    side (rates > 0)."""
    o, p, beyond, below, above = _sides(obs, pred, se, factors)
    if below == above == 0:
        where = "the one size" if len(o) == 1 else f"all {len(o)} sizes"
        return f"observed within 1.96 MC SE of the point prediction at {where}" if len(o) else "no point prediction"
    side, n = ("below", below) if below >= above else ("above", above)
    other, m = ("above", above) if side == "below" else ("below", below)
    counted = beyond & ((o < p) if side == "below" else (o > p))
    text = f"observed {side} the point prediction at {n} of {len(o)} sizes" + (f" and {other} at {m}" if m else "")
    notes = []
    if factors:
        f = ((p / o) if side == "below" else (o / p))[counted]
        fin = f[np.isfinite(f)]
        if len(fin):
            lo, hi = _factor(fin.min()), _factor(fin.max())
            notes.append(f"by factors {lo} to {hi}" if lo != hi else f"by a factor {lo}")
    within = int((~beyond).sum())
    if within:
        notes.append(f"{within} within 1.96 MC SE of it")
    text += f" ({'; '.join(notes)})" if notes else ""
    zero = int((counted & (o == 0)).sum()) if side == "below" else 0
    return text + (f"; observed 0 at {zero}" if zero else "")


#: The rule every split-half row is read by (:func:`split_verdict`), as docs/06-split-half-rule.md states it.
RULE = ("A size is judged inside or outside the predicted interval unless the observed mean lies within 1.96 Monte Carlo "
        "standard errors of a bound, or inside an interval wider than a factor 10 (or reaching 0). With fewer than two "
        "sizes judged we cannot tell. When no judged size is outside, the map is not rejected, which is not shown to hold: "
        "the verdict is cannot tell and the row says inside at k of k sizes. It does not hold "
        "when more than half the judged sizes are outside. Between these it holds in part. The verdict reads the "
        "intervals only: every size's prediction comes from one pilot, so a point missed on the same side at every size "
        "is that pilot's estimation error seen several times, not independent evidence; the rows describe it.")


def split_verdict(ok: list, obs: pd.Series | None = None, pred: pd.Series | None = None, se: pd.Series | None = None,
                  factors: bool = False) -> str:
    """The one verdict rule of every split-half row (:data:`RULE`), from ``ok`` (per size inside the
    predicted interval, True / False / None: not judged, :func:`_judge`).  The point misses
    (``obs``, ``pred``, ``se``, ``factors``: :func:`_sides`) are accepted for the caller's convenience
    and deliberately not read: every size's prediction comes from one pilot's estimate, so a one-sided
    pattern of points is correlated, not independent evidence.  No judged size outside is "cannot tell"
    (not rejected, the vocabulary's nearest word: inside a wide interval is no evidence the map holds);
    some outside is "holds in part", more than half "does not hold"."""
    judged = [v for v in ok if v is not None]
    if len(judged) < MIN_JUDGED:                       # one size is one comparison, not a pattern
        return "cannot tell"
    outside = judged.count(False)
    if outside == 0:                                   # not rejected: no evidence that it holds either
        return "cannot tell"
    if 2 * outside > len(judged):
        return "does not hold"
    return "holds in part"


def _miss_text(obs: pd.Series, pred: pd.Series, se: pd.Series | None) -> str:
    """``"mean |observed − predicted| 0.039"`` over the sizes with a point prediction."""
    o, p, *_ = _sides(obs, pred, se, False)
    return f"mean |observed − predicted| {claims.number(float((o - p).abs().mean()))}" if len(o) else ""


def _size(r) -> str:
    return f"{int(r['n_topics'])} topics × {claims.plural(int(r['n_assessors']), 'assessor')}"


def split_header(split: pd.DataFrame, alpha: float, design: str | None = None, simulated: bool = False) -> list[str]:
    """What the printed split-half lines hold, with the count of uncorrected t-tests behind the
    conflicts (``alpha``: the level they were counted at, Urbano et al.'s; ``design``: names the
    interval of Erho2, :func:`interval_method`; ``simulated``: a planted pilot, whose rows compare with
    the map of the estimated Erho2, not of the planted one)."""
    r = split.iloc[0]
    sim = (["Simulated pilot: the observed tau and conflicts are compared with the maps of the Erho2 each split's "
            "G-study estimates from the other topics, not with the maps of the planted Erho2."] if simulated else [])
    return sim + [f"Per size: τ observed, the mean over {int(r['draws'])} splits; predicted: point [interval from the "
            f"{interval_method(design)} interval of Erho2], averaged over the splits.",
            f"Major conflicts pool {int(r['tests']):,} paired t-tests a size at alpha = {alpha:g}, the paper's level "
            "(Urbano et al.'s fit), whatever the run's alpha; uncorrected for multiple testing.",
            "Their interval in the table is draw-level (a draw's tests share its topics); all draws reuse the pilot's "
            "topics, so it is still conditional on the pilot.",
            f"A size is not judged (inside or outside) when its {NOT_JUDGED}; the rows give the count."]


def _predicted(v, lo, hi) -> str:
    """A prediction with its interval, or ``(no interval)`` when the G-study gave none."""
    if missing(lo) or missing(hi) or not (np.isfinite(float(lo)) and np.isfinite(float(hi))):
        return f"{claims.number(v)} (no interval)"
    return claims.bracket(v, lo, hi)


def coefficient_lines(gd: pd.DataFrame, target: float) -> list[str]:
    """One printed line per measure of the G- and D-study table: Eρ², Φ and the topics for the target."""
    return [f"{r.measure}: Erho2 {_predicted(r.erho2, r.erho2_low, r.erho2_high)}, Phi "
            f"{_predicted(r.phi, r.phi_low, r.phi_high)}; topics for Erho2 >= {target}: "
            f"{n_ci(r.topics_needed, r.topics_low, r.topics_high)}" for r in gd.itertuples()]


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


#: The normal-theory relation as the rows name it: Greiner's, exact for bivariate-normal pairs only.
ARCSIN = "≈ (2/π)·arcsin Eρ² (Greiner; exact for bivariate-normal pairs only)"


def _se(split: pd.DataFrame, col: str) -> pd.Series:
    return split[col] if col in split else pd.Series(0.0, index=split.index)


def _parts(split: pd.DataFrame) -> dict[str, tuple]:
    """Per part (Urbano τ, conflicts, arcsin τ): (judged per size, observed, point prediction, MC SE, factors)."""
    tse, cse = _se(split, "tau_se"), _se(split, "conflicts_se")
    return {
        "tau": (_judge(split["tau_observed"], split["tau_predicted_low"], split["tau_predicted_high"], tse),
                split["tau_observed"], split["tau_predicted"], tse, False),
        "conflicts": (_judge(split["conflicts_observed"], split["conflicts_predicted_low"],
                             split["conflicts_predicted_high"], cse),
                      split["conflicts_observed"], split["conflicts_predicted"], cse, True),
        "normal": (_judge(split["tau_observed"], split["tau_normal_low"], split["tau_normal_high"], tse),
                   split["tau_observed"], split["tau_normal"], tse, False)}


def split_rows(split: pd.DataFrame, *, simulated: bool) -> list[Finding]:
    """The split-half detail, one row per prediction: Urbano et al.'s two maps (τ, major conflicts)
    and the normal-theory τ, Greiner's relation, every row read by one rule (:func:`split_verdict`),
    a simulated pilot's too (its run cell says "(simulated pilot)").  Greiner's relation is exact for
    the correlation of two bivariate-normal variables; the split-half τ is between system means over
    different topic sets, so even planted normal effects need not meet it: no row is "by construction"."""
    sim = ("simulated",) if simulated else ()
    # with a planted truth, say what the row compares: the estimate's map, not the planted Eρ²'s
    mark = " (simulated pilot; estimated Eρ²)" if simulated else ""      # split_header says it in full
    parts = _parts(split)
    ok_tau, *tau_rest = parts["tau"]
    tau, _ = _tau_text(split, "tau_predicted")
    rows = [Finding("Does Urbano et al.'s map of Eρ² predict τ between disjoint halves?", "τ ≈ Eρ²^2.85 (TREC fit)",
                    f"{tau}; {_miss_text(*tau_rest[:3])}", split_verdict(ok_tau, *tau_rest),
                    caveats=("rough_map", "conditional", *sim))]
    ok_c, *c_rest = parts["conflicts"]
    conflicts = (f"{_direction(split['conflicts_observed'], split['conflicts_predicted'], c_rest[2])}; "
                 + _count(ok_c, NOT_JUDGED))
    rows.append(Finding("Does Urbano et al.'s map of Eρ² predict the rate of major conflicts?",
                        "≈ (1 − Eρ²)^2.63 (TREC fit, α = .05)", conflicts, split_verdict(ok_c, *c_rest),
                        caveats=("rough_map", "conditional", *sim, "uncorrected"),
                        numbers={"cells": split.to_dict(orient="records")}))
    ok_n, *n_rest = parts["normal"]
    normal, _ = _tau_text(split, "tau_normal")
    rows.append(Finding("Does the D-study's Eρ² predict split-half τ as (2/π)·arcsin Eρ²?", ARCSIN,
                        f"{normal}; {_miss_text(*n_rest[:3])}", split_verdict(ok_n, *n_rest),
                        caveats=("conditional", *sim)))
    return [replace(r, run=r.run + mark) for r in rows]
