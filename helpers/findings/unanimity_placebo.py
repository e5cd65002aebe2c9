"""Notebook 02's rows on significance calls and on UG against a placebo of its size.

Split from :mod:`helpers.findings.unanimity` (the module limit): the single draw's row on Table 3's
question, the replicates' rows that set UG against a placebo (RawG plus UG's own bonuses shuffled
within topics; :mod:`helpers.replicates.unanimity_placebo`), and the rule that keeps a verdict from
an HSD whose Monte Carlo p-value cannot fall below its level (:func:`hsd_floor`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding
from .unanimity_text import count_digits, mean_count, placebo_verdict as _placebo_verdict

__all__ = ["SIG_Q", "PAPER_T3_SHARE", "pct", "hsd_floor", "floor_caveat", "few", "placebo_tau", "range_label",
           "reorder_row", "significance_rows"]

#: Sakai's Table 3 as a share of his pair decisions (120 team pairs x 45 cells).
PAPER_T3_SHARE = "24 of 5,400 pair decisions (0.44%)"
#: The question of the single draw's significance row: what its verdict answers (UG against a
#: placebo of its size, i.e. against Monte Carlo and reordering noise), not Table 3's raw count.
from .unanimity_text import SIG_Q  # noqa: E402,F401


def few(replicates: int) -> tuple[str, ...]:
    """The caveat ``ranges`` for a range over fewer draws than a 95% interval needs."""
    return ("ranges",) if 1 < replicates < claims.min_draws() else ()


def hsd_floor(B: int, alpha: float) -> float | None:
    """The smallest p-value the randomised Tukey HSD can give with ``B`` trials, 1/(B + 1)
    (:func:`helpers.stats.randomised_tukey_hsd`: (count + 1)/(B + 1); Phipson & Smyth 2010),
    when it is not below ``alpha`` (significance is ``p < alpha``, strict): then no pair can be
    significant under either gain, and every count of discrepancies is 0 whatever the gains do.
    ``None`` when the test can reject."""
    smallest = 1.0 / (int(B) + 1)
    return smallest if smallest >= float(alpha) else None


def floor_caveat(B: int, alpha: float) -> dict:
    """The caveat ``hsd_floor`` when :func:`hsd_floor` says the HSD cannot reject; else empty."""
    smallest = hsd_floor(B, alpha)
    if smallest is None:
        return {}
    return {"hsd_floor": f"With B = {int(B):,} trials the HSD's smallest p-value, 1/(B + 1) = {smallest:.4f}, is not "
                         f"below α = {float(alpha):g}: no pair can be significant, so every discrepancy count is 0."}


def reorder_row(grid, graded, cav: tuple, control: Mapping | None = None, scope: str = "",
                 simulated: bool = True) -> Finding:
    """The replicates' side of Table 2: cells whose τ is below 1 in every replicate, then the
    verdict, which rests on UG's τ against the placebo's (``control``:
    :func:`helpers.replicates.unanimity_placebo.compare_tau`, on the cells ``scope`` names): any
    change of the scores of UG's size reorders runs that nearly tie, so only more reordering than
    the placebo's is UG's."""
    rep = grid.rep[grid.rep["measure"].isin(graded)]
    below = rep.groupby(["measure", "d_max", "n"])["tau"].max() < 1 - 1e-12
    every, same = int(below.sum()), int(grid.cells.loc[grid.cells["measure"].isin(graded), "ug_equals_rawg"].sum())
    run = f"τ < 1 in every one of {grid.replicates} replicates: {every} of {len(below)} (cell, measure) pairs" + (
        f"; UG = RawG in {same}" if same else "")
    nums = {"tau_below_1_every_replicate": every, "cells": len(below), "ug_equals_rawg": same}
    if control is None:
        run, verdict = run + "; no placebo tested", "cannot tell"
    else:   # the answer only: the τ < 1 counts are section 7's (control_tau_line)
        run = (f"On {scope}, mean τ UG {claims.number(control['ug'], 4)} vs placebo "
                f"{claims.number(control['placebo'], 4)}" + (
                    f": {claims.mean_ci(control['diff'], control['low'], control['high'], control['replicates'], digits=4).text}"
                    if np.isfinite(control["low"]) else _too_few(control)))
        p, verdict, more = _placebo_verdict(control, simulated)
        run, cav = run + p, more + cav
        nums["placebo"] = {k: v for k, v in control.items() if k != "verdict"}
    return Finding(f"Over {grid.replicates} replicates: does UG reorder runs more than a placebo of its size?",
                   "— (the paper has no placebo)", run, verdict, few(grid.replicates) + cav, nums)


def _too_few(control: Mapping) -> str:
    """What a placebo row says when its replicates are too few for the comparison's interval."""
    return (f" (mean of {control['replicates']} replicates: too few for the placebo comparison, which needs "
            f"{claims.min_draws()})")


def pct(k: float, n: float) -> str:
    """A small share as a percentage with two significant digits (30 of 5,400: ``"0.56%"``)."""
    v = 100.0 * float(k) / float(n) if n else math.nan
    return f"{v:.2g}%" if 0 < v < 10 else f"{v:.0f}%"


def significance_rows(grid, total: int, decisions: int, replicates: int, graded, cav: tuple,
                       fragile: Mapping | None = None, paper: str = PAPER_T3_SHARE, placebo: Mapping | None = None,
                       control: Mapping | None = None, scope: str = "", simulated: bool = True,
                       floor: bool = False) -> list[Finding]:
    """Table 3's question, as a share of the pair decisions (team pairs × graded cells): the single
    draw with its fragile share and the placebo's count on the same cells (``placebo``:
    :func:`helpers.replicates.unanimity_placebo.single_draw`; one draw: no verdict of its own),
    then the replicates, whose verdict rests on UG against the placebo (``control``:
    :func:`helpers.replicates.unanimity_placebo.compare`, on the cells ``scope`` names): a call
    flips under any change of the scores near α, so only more flips than the placebo's are UG's.
    ``floor``: the HSD cannot reject (:func:`hsd_floor`): every verdict is "cannot tell", with the
    caveat ``hsd_floor`` saying why."""
    k = int((fragile or {}).get("k", 0) or 0)
    cav = ("hsd_family",) + (("fragile",) if k else ()) + (("hsd_floor",) if floor else ()) + cav
    frag = f"; {k} of them fragile ({pct(k, total)})" if k else ""
    pl = (f"; a placebo of UG's size: {placebo['placebo']}" + ("" if placebo["ug"] == total else
                                                                f" on {placebo['cells']} cells (UG {placebo['ug']})")
          if placebo and placebo["cells"] else "")
    one = Finding(SIG_Q, paper,
                  f"one draw: {total} of {decisions:,} pair decisions ({pct(total, decisions)}){frag}{pl}; the "
                  "placebo comparison needs `replicates` ≥ 2", "cannot tell",
                  ("one_draw",) + cav, {"total": total, "fragile": k, "decisions": decisions,
                                        "placebo": (placebo or {}).get("placebo")})
    if grid is None:
        return [one]
    from ..replicates.unanimity import order_interval

    per = grid.rep[grid.rep["measure"].isin(graded)].groupby("replicate")["discrepancies"].sum()
    iv = order_interval(per)
    lo, hi = int(round(iv["low"])), int(round(iv["high"]))
    run = (f"UG: {lo} of {decisions:,} ({pct(lo, decisions)}) in every one of {replicates}" if lo == hi else
           f"UG: mean {mean_count(per.mean())} of {decisions:,} ({pct(per.mean(), decisions)})" + (
               "" if control is not None else f", {lo} to {hi} ({range_label(replicates)})"))   # the range: Table 3's row, section 7
    nums = {"mean": float(per.mean()), "low": iv["low"], "high": iv["high"], "zero": int((per == 0).sum()),
            "fragile": k, "total": total, "decisions": decisions}
    if control is None:
        run, verdict = run + "; no placebo tested", "cannot tell"
    else:
        d = count_digits(control["ug"], control["placebo"])
        run += (f". On {scope}, UG {claims.number(control['ug'], d)} vs placebo {claims.number(control['placebo'], d)}"
                + (f": {claims.mean_ci(control['diff'], control['low'], control['high'], control['replicates'], digits=d).text}"
                   if np.isfinite(control["low"]) else _too_few(control)))
        p, verdict, more = _placebo_verdict(control, simulated)
        run, cav = run + p, more + cav
        nums["placebo"] = {k2: v for k2, v in control.items() if k2 != "verdict"}
    if floor:   # every count is 0 whatever the gains do: nothing to read
        verdict = "cannot tell"
    return [one, Finding(f"Over {replicates} replicates: does UG change more calls than a placebo of its size?",
                         "— (the paper has no placebo)", run, verdict,   # fragility: the single draw's count only
                         few(replicates) + tuple(c for c in cav if c != "fragile"), nums)]


def placebo_tau(rep: pd.DataFrame, graded) -> dict | None:
    from ..replicates.unanimity_placebo import compare_tau

    return compare_tau(rep, graded, claims.min_draws())


def range_label(replicates: int) -> str:
    from ..replicates.unanimity import range_name

    return range_name(replicates)


def link_state(link: Mapping | None) -> str | None:
    """What :func:`helpers.replicates.unanimity_placebo.bonus_link` lets the placebo rows say: None
    (no measurement given), ``"none"`` (no finite r: the draw has no bonus), ``"few"`` (a finite r
    over fewer than :data:`~helpers.replicates.unanimity_placebo.LINK_MIN_PAIRS` (cell, topic)
    pairs: the link cannot be judged), ``"linked"`` or ``"unlinked"``."""
    from ..replicates.unanimity_placebo import LINK_BOUND, LINK_MIN_PAIRS

    if link is None:
        return None
    live = [k for k in ("level", "runs") if np.isfinite(link[k])]
    if not live:
        return "none"
    if min(link[f"{k}_pairs"] for k in live) < LINK_MIN_PAIRS:
        return "few"
    return "linked" if any(abs(link[k]) > LINK_BOUND for k in live) else "unlinked"


def link_caveat(link: Mapping | None) -> dict:
    """Caveat ``placebo_sim``: what UG's bonus carries of what orders the runs in the simulated
    ratings (:func:`helpers.replicates.unanimity_placebo.bonus_link`), each mean r with its standard
    error; when the draw has no bonus, or too few (cell, topic) pairs, it says the link cannot be
    judged (:func:`link_state`). Empty without a measurement."""
    from ..replicates.unanimity_placebo import LINK_MIN_PAIRS

    state = link_state(link)
    if state is None:
        return {}
    if state == "none":
        return {"placebo_sim": "The single draw has no bonus (UG = RawG on every item), so its link to what orders "
                               "the runs cannot be measured: the placebo rows keep their test's verdict."}
    live = [(k, what) for k, what in (("level", "with the official level"),
                                      ("runs", "with the number of runs returning the item"))
            if np.isfinite(link[k])]   # a single relevant level (θ at the top) leaves no r with the level
    pairs = min(link[f"{k}_pairs"] for k, _ in live)
    r = (f"Its mean within-topic r ± standard error over {pairs} (cell, topic) pairs: "
         + ", ".join(f"{what} {link[k]:+.3f} ± {_se(link.get(f'{k}_se'))}" for k, what in live) + ".")
    if state == "few":
        return {"placebo_sim": f"Whether UG's bonus carries what orders the runs cannot be judged. {r} "
                               f"That needs {LINK_MIN_PAIRS} pairs: the placebo rows keep their test's verdict."}
    if state == "linked":
        return {"placebo_sim": f"In the simulated ratings UG's bonus is linked to what orders the runs. {r}"}
    return {"placebo_sim": f"In the simulated ratings UG's bonus carries nothing that orders the runs. {r} "
                           "So UG matching its placebo is what uniform ratings predict; real ratings answer the question."}


def _se(se) -> str:
    return f"{se:.3f}" if se is not None and np.isfinite(se) else "n/a"


def with_link_caveat(row):
    """A simulated placebo row whose reading the link cannot decide (:func:`link_state` ``"none"`` or
    ``"few"``): its test's verdict kept, caveat ``placebo_sim`` saying why it is not "by construction"."""
    import dataclasses

    return dataclasses.replace(row, caveats=("placebo_sim",) + tuple(c for c in row.caveats if c != "placebo_sim"))


def by_construction(row):
    """A simulated placebo row whose answer the uniform ratings predict (:func:`link_caveat`): verdict
    "by construction", its test's own verdict kept in the run column, caveat ``placebo_sim``."""
    import dataclasses

    nums = {**row.numbers, "test_verdict": row.verdict}
    return dataclasses.replace(row, run=f"{row.run}; the test alone: {row.verdict}", verdict="by construction",
                               caveats=("placebo_sim",) + tuple(c for c in row.caveats if c != "placebo_sim"),
                               numbers=nums)
