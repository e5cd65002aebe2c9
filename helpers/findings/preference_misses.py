"""Notebook 05's prose bullets on the planted families MAR does not show first on average
(:func:`helpers.findings.preference_recovery.recovery`): where, at which level, what the held-out
95% CIs say alone, and why, from the same family check on the noise-free agreement (a miss of power,
not told apart, or a measure outside the family nearer the users as modelled)."""

from __future__ import annotations

from collections.abc import Sequence

from ..notebook import claims
from .preference_recovery import COVERAGE_IS, Recovery, where

__all__ = ["UTILITY", "coverage_bullet", "miss_bullets"]

#: Why a planted model's utility can sit nearer a measure outside its family (said when it does).
UTILITY = {"coverage": "their utility reads graded levels."}


def coverage_bullet(rec: Recovery) -> list[str]:
    """Coverage users (a smoothed I-rec, :data:`NEAR_FORMULA`): when MAR does not put their family first
    on average, why (the noise-free check: a measure outside the family nearer the users as modelled,
    or a miss of power). Nothing when it does (the findings table says so; the D#-measures, half I-rec,
    are members, :func:`_families`) or below :data:`MIN_REPLICATES`."""
    by = rec.by_model().get("coverage")
    if not rec.enough or not by:
        return []
    missed = [q for q, v in by.items() if not v]
    if not missed:   # a recovery is in the findings table, near I-rec by construction: nothing to explain
        return []
    free = rec.cases[("coverage", missed[0])]["check_noise_free"]
    kind = "none" if free is None or free["verdict"] == "not testable" else free["verdict"]
    out = (f"Coverage users ({COVERAGE_IS}): their family is not shown first after Holm at {rec.level:g} "
           f"({claims.listing(missed)}){_ci_alone(rec, [('coverage', q) for q in missed])}")
    if kind == "outside ahead":
        out += f": without noise {free['best_out']} is nearer them than {free['best_in']}, since {UTILITY['coverage']}"
    elif kind == "recovered":
        out += ". Without noise their family is nearest, so the miss is one of power at this size."
    else:
        out += ". Without noise their family and the best measure outside it are not told apart either."
    return [out]


def miss_bullets(rec: Recovery) -> list[str]:
    """Why MAR does not single out a planted family on average, for the model-question cases it
    misses other than the coverage users' (:func:`coverage_bullet`): the same family check on the
    noise-free agreement says whether a measure outside the family is nearer the planted user as its
    utility is modelled (:mod:`helpers.simulate.users`), or whether the miss is one of power. One
    bullet; nothing below :data:`MIN_REPLICATES`."""
    if not rec.enough:
        return []
    missed = [(m, q) for m, by in rec.by_model().items() for q, ok in by.items() if not ok and m != "coverage"]
    if not missed:
        return []
    free = {k: rec.cases[k]["check_noise_free"] for k in missed}
    kind = {k: "none" if c is None or c["verdict"] == "not testable" else c["verdict"] for k, c in free.items()}
    why = [f"a miss of power for {where(power)}" for power in [[k for k in missed if kind[k] == "recovered"]] if power]
    why += [f"not told apart for {where(apart)}" for apart in [[k for k in missed if kind[k] in ("not shown", "none")]]
            if apart]
    outside = [k for k in missed if kind[k] == "outside ahead"]
    for m in dict.fromkeys(k[0] for k in outside):
        q = next(q for m2, q in outside if m2 == m)   # the first question's measure stands for the model
        why.append(f"{free[(m, q)]['best_out']} nearer for {m} ({q})")
    head = "Also not shown" if coverage_bullet(rec) else "Not shown"   # after the coverage users' own bullet
    return [f"{head} first on average after Holm at {rec.level:g}: {where(missed)}{_ci_alone(rec, missed)}. "
            f"Without noise: {'; '.join(why)}."]


def _ci_alone(rec: Recovery, cases: Sequence[tuple[str, str]]) -> str:
    """What the held-out 95% CIs say alone (uncorrected) for cases not shown after Holm: where one
    excludes 0 in the planted direction (``"recovered"``) or the other way (``"outside ahead"``), e.g.
    ``"; its 95% CI alone excludes 0 for position (relevance)"``; empty where every CI includes 0."""
    out = ""
    for verdict, said in (("recovered", "its 95% CI alone excludes 0"),
                          ("outside ahead", "a measure outside the family ahead (95% CI)")):
        hit = [k for k in cases if (rec.cases[k]["check"] or {}).get("verdict") == verdict]
        out += f"; {said} for {where(hit)}" if hit else ""
    return out
