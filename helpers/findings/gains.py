"""Notebook 01's findings: Sakai's gain definitions (EVIA 2017) and the premise of his conjecture.

Questions asked of every run: do Eq. 1 (WG) and Eq. 2 (UG) give the paper's Table 1 and the
STC-2 example (2, 1, 1) -> 4.6, (2, 2, 0) -> 4.0; do Items 5-7 tie at p = 0.2; does the simulated
share of items at D = Dmax agree with its exact probability and grow with N (Sec. 4). With real
ratings (profile ``real`` or ``ratings_path``): do they spread less than uniform ratings with the
same raw gains, the premise of Sakai's Sec. 6 conjecture (:func:`premise`), and does UG break more
of their raw-gain ties (:func:`ties`, a question of its own: it can go either way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["PREMISE", "TIES", "premise_parts", "premise", "ties", "premise_view", "order_with_ties", "rawg_reversals",
           "settings_reading", "findings"]

#: The premise's parts, each a measure of spread: name -> (column, the direction of real against
#: uniform that it predicts).
PREMISE = {"fewer items at D = Dmax": ("share_full_spread", "lower"),
           "a smaller mean D": ("mean_spread", "lower"),
           "a larger mean bonus UG − RawG": ("mean_bonus", "higher")}
#: The share of RawG ties UG breaks is no measure of spread (it needs items of equal RawG to differ
#: in D, which a smaller spread can lower or raise): its own question, column and direction.
TIES = ("share_ties_broken", "higher")

def premise_parts(n) -> dict:
    """The parts of the premise that are separate tests for a set whose N is ``n``.

    With the same N for every item the mean bonus is p·N·(Dmax − mean D), a linear function of
    the mean spread: it is the same test as "a smaller mean D" and is not counted again. With N
    varying between items (``n`` a range such as ``"3–10"``) the bonus weighs each item's spread by
    its own N and is a part of its own.
    """
    varying = isinstance(n, str) and not n.strip().isdigit()
    return {k: v for k, v in PREMISE.items() if varying or v[0] != "mean_bonus"}


#: claims.components' verdict -> the findings table's verdict word.
_VERDICT = {"holds": "holds", "partly": "holds in part", "fails": "does not hold", "not shown": "not shown"}


def _like_for_like(real_table: pd.DataFrame, name: str, col: str) -> claims.Claim:
    """The real value of ``col`` against the interval of uniform ratings with the same RawG."""
    rt = real_table.set_index(["dataset", "source"])
    r, u = rt.loc[(name, "real")], rt.loc[(name, "uniform, same RawG")]
    return claims.compare("real", r[col], "uniform with the same RawG", u[col],
                          interval_a=(r[col], r[col]), interval_b=(u[f"{col}_low"], u[f"{col}_high"]))


def premise(real_table: pd.DataFrame) -> dict:
    """Per real set: ``(verdict claim, {part: (compare claim, direction)})`` over the spread parts
    (:data:`PREMISE`, :func:`premise_parts`), each read as the real value against the interval of
    uniform ratings with the same RawG (:func:`helpers.notebook.claims.compare`,
    :func:`~helpers.notebook.claims.components`)."""
    n_of = real_table.set_index(["dataset", "source"])["N"]
    out = {}
    for name in dict.fromkeys(real_table["dataset"]):
        parts = {part: (_like_for_like(real_table, name, col), direction)
                 for part, (col, direction) in premise_parts(n_of[(name, "real")]).items()}
        out[name] = (claims.components(parts), parts)
    return out


def ties(real_table: pd.DataFrame) -> tuple:
    """``(verdict claim, {set: (compare claim, "higher")})``: does UG break a larger share of RawG
    ties in each real set than in uniform ratings with the same RawG (:data:`TIES`)? Each set is a
    part of :func:`~helpers.notebook.claims.components` ("holds" only when every set shows more)."""
    col, direction = TIES
    parts = {name: (_like_for_like(real_table, name, col), direction) for name in dict.fromkeys(real_table["dataset"])}
    return claims.components(parts, what="more RawG ties broken"), parts


def premise_view(real_table: pd.DataFrame) -> pd.DataFrame:
    """The contrast as printed: real values, and uniform means with their interval."""
    view = real_table[["dataset", "source", "N", "Dmax", "items"]].copy()
    for col in [c for c, _ in PREMISE.values()] + [TIES[0]]:
        view[col] = [claims.number(v) if src == "real" else claims.bracket(v, lo, hi)
                     for src, v, lo, hi in zip(real_table["source"], real_table[col], real_table[f"{col}_low"],
                                               real_table[f"{col}_high"])]
    view["items"] = view["items"].map(lambda v: f"{v:.0f}")
    return view


def order_with_ties(values, labels) -> str:
    """``"Item 7 > Item 6 > Item 5"``: ``labels`` in decreasing order of ``values``, equal values
    (to 1e-9) joined by ``=`` (``"Item 5 = Item 6 = Item 7"``); the first label first among equals."""
    values = np.asarray(values, dtype=float)
    if len(values) != len(labels) or not len(values):
        raise ValueError(f"order_with_ties: {len(values)} values for {len(labels)} labels; expected one each, at least one")
    idx = np.argsort(-values, kind="stable")
    text = labels[idx[0]]
    for a, b in zip(idx[:-1], idx[1:]):
        text += (" = " if abs(values[a] - values[b]) < 1e-9 else " > ") + labels[b]
    return text


def _raw(pattern: str) -> int:
    return sum(int(x) for x in pattern.split())


def rawg_reversals(settings: pd.DataFrame) -> dict:
    """Per setting (column of ``settings``, whose ``ratings`` column holds patterns such as
    ``"1 1 1"``): the pairs ``(a, b)`` whose RawG order it reverses, RawG(a) > RawG(b) but
    gain(a) < gain(b) (by more than 1e-12), the pair with the largest gap in RawG, then in gain, first.
    UG reverses a pair only when b is the more unanimous (smaller D), the effect of Items 5–7."""
    by = settings.set_index("ratings")
    raw = {r: _raw(r) for r in by.index}
    out = {}
    for name in by.columns:
        pairs = [(a, b) for a in by.index for b in by.index
                 if raw[a] > raw[b] and by.at[a, name] < by.at[b, name] - 1e-12]
        out[name] = sorted(pairs, key=lambda ab: (raw[ab[1]] - raw[ab[0]], by.at[ab[0], name] - by.at[ab[1], name]))
    return out


def settings_reading(settings: pd.DataFrame, p: float) -> list[str]:
    """The printed reading of the table of gain settings on every pattern (section 3): which
    settings keep each relevant pattern above ``0 0 0``, the order UG gives three patterns, and for
    every setting shown the pairs of patterns whose RawG order it reverses (:func:`rawg_reversals`)."""
    by = settings.set_index("ratings")
    names = list(by.columns)
    zero = " ".join(["0"] * len(by.index[0].split()))
    relevant = [r for r in by.index if r != zero]
    keeps = [s for s in names if (by.loc[relevant, s] > by.loc[zero, s]).all()]
    lines = [f"keep every relevant pattern above ({zero}): {claims.listing(keeps) or 'none'}; map some relevant "
             f"pattern to the gain of ({zero}): {claims.listing([s for s in names if s not in keeps]) or 'none'}"]
    if "UG" in by.columns and {"2 2 2", "1 2 2", "0 2 2", "1 1 2"} <= set(by.index):
        ug = by["UG"]
        strict = ug["2 2 2"] > ug["1 2 2"] > ug["0 2 2"]
        tie = ug["1 1 2"] - ug["0 2 2"]
        lines.append(f"UG with p = {p:g}: (2 2 2) {ug['2 2 2']:.3f}, (1 2 2) {ug['1 2 2']:.3f}, (0 2 2) "
                     f"{ug['0 2 2']:.3f} -- {'strictly decreasing' if strict else 'NOT strictly decreasing'}; the raw-gain "
                     f"tie (1 1 2) vs (0 2 2) becomes {ug['1 1 2']:.3f} vs {ug['0 2 2']:.3f} ("
                     + ("broken in favour of the more unanimous (1 1 2)" if tie > 1e-12 else "still tied" if abs(tie) <= 1e-12
                        else "broken against the more unanimous (1 1 2)") + ")")
    raw = {r: _raw(r) for r in by.index}
    differ = sum(raw[a] > raw[b] for a in by.index for b in by.index)
    lines.append(f"pairs of patterns whose RawG order a setting reverses (higher RawG, lower gain), of the {differ} "
                 "pairs with different RawG:")
    for name, pairs in rawg_reversals(settings).items():
        if not pairs:
            lines.append(f"  {name}: none")
            continue
        a, b = pairs[0]
        lines.append(f"  {name}: {len(pairs)}, e.g. ({a}) RawG {raw[a]} → {by.at[a, name]:.3f} below ({b}) RawG {raw[b]} → "
                     f"{by.at[b, name]:.3f}" + (" (the more unanimous ranks higher, as Items 5–7 do in section 5)"
                                                if name == "UG" else ""))
    return lines


def _grid_rows(grid: pd.DataFrame, exact: Mapping) -> list[Finding]:
    """Rows 4-5. Under uniform ratings the share at D = Dmax rises with N by its formula
    (:func:`helpers.gains.prob_full_spread_given_relevant`), so row 4 reproduces Sakai's Sec. 4
    remark: its verdict is "by construction", never evidence ("cannot tell" with one N)."""
    g = grid.set_index(["d_max", "n"])
    trends = {d: claims.trend(gd.index.get_level_values("n"), gd["share_full_spread"], x_name="N")
              for d, gd in g.groupby(level="d_max")}
    ns = sorted(grid["n"].unique())
    dips = [d for d, t in trends.items() if t.numbers["word"] not in ("increases", "does not decrease")]
    verdict = "by construction" if len(ns) > 1 else "cannot tell"
    span = f"N = {ns[0]} → {ns[-1]}: " if len(ns) > 1 else f"N = {ns[0]}: "
    run = span + "; ".join(f"{g.loc[(d, ns[0]), 'share_full_spread']:.3f}"
                           + (f" → {g.loc[(d, ns[-1]), 'share_full_spread']:.3f}" if len(ns) > 1 else "")
                           + f" (Dmax = {d})" for d in trends)
    if len(ns) > 1 and dips:   # the exact share rises; a simulated dip is sampling noise (row 5 reads it)
        run += f"; the simulated share dips at Dmax = {claims.listing([str(d) for d in dips])}"
    return [
        Finding("Does the share of items at D = Dmax grow with N under uniform ratings?",
                "yes (a Sec. 4 remark), so UG tends to RawG", run, verdict,
                caveats=("exact_uniform",) if len(ns) > 1 else (),
                numbers={"trends": {str(d): t.numbers for d, t in trends.items()},
                         "exact_rises": bool(len(ns) > 1), "dips": [int(d) for d in dips]}),
        Finding("Does the simulated share at D = Dmax match its exact probability?",
                "— (our check)",
                f"largest gap {claims.number(exact['worst'])}, {exact['worst_z']:.1f} s.e. (limit "
                f"{exact['z_limit']:.1f}: Bonferroni over {exact['cells']} cells, family-wise {exact['family_alpha']:g})",
                "agrees" if exact["agrees"] else "differs", numbers=dict(exact)),
    ]


#: A premise part -> the measure the row's question names.
_MEASURE = {"fewer items at D = Dmax": "share at D = Dmax", "a smaller mean D": "mean D",
            "a larger mean bonus UG − RawG": "mean bonus"}


def _premise_rows(verdicts: Mapping, real_table: pd.DataFrame, replicates: int) -> list[Finding]:
    """One row per real set on its spread parts; its question names each part's measure."""
    rt = real_table.set_index(["dataset", "source"])
    few = ("few_draws",) if replicates < claims.min_draws() else ()
    rows = []
    for name, (verdict, parts) in verdicts.items():
        r = rt.loc[(name, "real")]
        state = verdict.numbers["parts"]
        held = [p for p, s in state.items() if s == "holds"]
        other = [p for p, s in state.items() if s == "other way"]
        run = f"{len(held)} of {len(state)} parts hold"
        if other:
            run += f"; the other way: {claims.listing(other)}"
        n = r["N"] if isinstance(r["N"], str) else f"{float(r['N']):g}"
        measures = ", ".join(_MEASURE[p] for p in parts)
        rows.append(Finding(f"{name} (N = {n}, Dmax = {int(r['Dmax'])}): do real ratings spread less "
                            f"than uniform ones with the same RawG ({measures})?",
                            "conjectured (Sec. 6), not tested", run, _VERDICT[verdict.numbers["verdict"]],
                            caveats=("premise_only", "uncorrected") + few,
                            numbers={"verdict": verdict.numbers, "parts": {p: c.numbers for p, (c, _) in parts.items()}}))
    return rows


def _ties_row(tie: tuple, real_table: pd.DataFrame, replicates: int) -> Finding:
    """The row on RawG ties broken, real against uniform with the same RawG, one part per set."""
    verdict, parts = tie
    col = TIES[0]
    rt = real_table.set_index(["dataset", "source"])
    run = f"real vs uniform mean [{claims.interval_name(replicates)}]: " + "; ".join(f"{name} {claims.number(rt.loc[(name, 'real'), col])} vs "
                    + claims.bracket(*(rt.loc[(name, 'uniform, same RawG'), c] for c in (col, f"{col}_low", f"{col}_high")))
                    for name in parts)
    caveats = (("uncorrected",) if len(parts) > 1 else ()) + (("few_draws",) if replicates < claims.min_draws() else ())
    return Finding("Does UG break more RawG ties in real ratings than in uniform ones with the same RawG?",
                   "— (our check; either way is possible, section 6)", run, _VERDICT[verdict.numbers["verdict"]],
                   caveats=caveats, numbers={"verdict": verdict.numbers, "parts": {p: c.numbers for p, (c, _) in parts.items()}})


def _fixed_sentence(fixed: Mapping, broken: Mapping) -> str:
    """The sentence on the cells where UG can break no tie (Dmax = 1 or N = 1)."""
    ones_d = [n for d, n in fixed if d == 1]
    ones_n = [d for d, n in fixed if n == 1 and d != 1]
    why = " and ".join((["at Dmax = 1 equal RawG forces equal D"] if ones_d else [])
                       + (["with N = 1 D is always 0"] if ones_n else []))
    why = why[0].upper() + why[1:]
    if ones_n:
        where = "Dmax = 1 or N = 1" if ones_d else "N = 1"
    else:
        where = "N = " + claims.listing([str(n) for n in ones_d])
    if not broken:
        return f"{why}, so UG can break no raw-gain tie ({where})."
    k = len(fixed)
    return f"{why}, so UG can break no raw-gain tie: 0 in its {k} cell{'s' if k > 1 else ''} ({where}), left out of the next sentence."


def _ties_sentences(grid: pd.DataFrame, p: float) -> list[str]:
    """What the grid says about the raw-gain ties UG breaks. Cells with Dmax = 1 or N = 1 are named
    and set apart, not dropped: with ratings 0/1 equal RawG (and N) forces equal D, and with one
    rating D is always 0, so UG can break no tie there (their share is 0, or NaN with no tie at all;
    anything else is an error)."""
    g = grid.set_index(["d_max", "n"])["share_ties_broken"]
    fixed = {(d, n): v for (d, n), v in g.items() if d == 1 or n == 1}
    if any(not (v == 0 or pd.isna(v)) for v in fixed.values()):
        raise ValueError(f"grid: UG cannot break a raw-gain tie at Dmax = 1 or N = 1, but the shares are {fixed}")
    broken = {f"Dmax = {d} / N = {n}": v for (d, n), v in g.items() if (d, n) not in fixed}
    out = [_fixed_sentence(fixed, broken)] if fixed else []
    if not broken:
        return out
    bounds = (["Dmax ≥ 2"] if any(d == 1 for d, _ in fixed) else []) + (["N ≥ 2"] if any(n == 1 for _, n in fixed) else [])
    over = " with " + " and ".join(bounds) if bounds else ""
    if max(broken.values()) == 0:
        out.append(f"UG breaks no raw-gain tie in any of the {len(broken)} cells{over}" + (" (p = 0)." if p == 0 else "."))
        return out
    if len(broken) == 1:
        (cell, share), = broken.items()
        out.append(f"{'In the one cell' + over if fixed else 'In its one cell'} ({cell}), UG breaks {share:.3f} of raw-gain ties.")
        return out
    most = claims.leaders(broken, digits=3)
    fewest = claims.leaders(broken, higher=False, digits=3)
    low = fewest.numbers["leaders"]
    if len(low) > 2:   # many cells tie at the bottom: their count, not their names
        exact = len({broken[k] for k in low}) == 1
        fewest = (f"{fewest.numbers['best']:.3f}{'' if exact else ' (to 3 decimals)'} in {len(low)} "
                  f"of the {len(broken)} cells{over}")
    lead = f"Over the cells{over}, UG" if fixed else "UG"
    out.append(f"{lead} breaks the largest share of raw-gain ties at {most}; the smallest share is {fewest}.")
    return out


def findings(*, table1_ok: bool, table1_cells: int, stc2: Sequence[float], tie_p: Sequence[float],
             grid: pd.DataFrame, exact: Mapping, p: float, real_table: pd.DataFrame | None = None,
             verdicts: Mapping | None = None, tie: tuple | None = None, replicates: int = 0,
             footer: str = "") -> Findings:
    """The findings of notebook 01 (see the module docstring for the questions).

    Parameters
    ----------
    table1_ok, table1_cells : whether every recomputed cell of Table 1 equals the published one,
        and how many cells were compared.
    stc2 : UG of (2, 1, 1) and (2, 2, 0) at p = 0.2, Dmax = 2.
    tie_p : the values of p on the grid where Items 5-7 tie.
    grid, exact : :func:`helpers.simulate.ratings.spread_grid` and :func:`~helpers.simulate.ratings.grid_vs_exact`.
    p : the run's p.
    real_table, verdicts, tie, replicates : :func:`helpers.replicates.premise.table`, :func:`premise`,
        :func:`ties` (computed here when not given) and the uniform draws per real set, when the run
        has real ratings.
    """
    stc_ok = [round(float(v), 1) for v in stc2] == [4.6, 4.0]
    tie_ok = any(abs(t - 0.2) < 1e-9 for t in tie_p)
    rows = [
        Finding("Do Eq. 1 and 2 give Table 1 from the ratings alone?",
                "RawG, D, WG, UG (p = 0.2, 0.1) of Items 1–7",
                f"{table1_cells} of {table1_cells} cells equal" if table1_ok else "some cells differ (section 1)",
                "reproduced" if table1_ok else "not reproduced", numbers={"cells": table1_cells, "ok": table1_ok}),
        Finding("Does UG give the STC-2 example?", "(2, 1, 1) → 4.6; (2, 2, 0) → 4.0",
                f"{float(stc2[0]):.1f}; {float(stc2[1]):.1f}", "reproduced" if stc_ok else "not reproduced",
                numbers={"ug": [float(v) for v in stc2]}),
        Finding("Do Items 5–7 tie at the paper's p = 0.2?", "a three-way tie at p = 0.2",
                "tie at p = " + ", ".join(f"{t:g}" for t in tie_p) if tie_p else "no tie on the grid of p",
                "reproduced" if tie_ok else "not reproduced", numbers={"tie_p": [float(t) for t in tie_p]}),
        *_grid_rows(grid, exact),
    ]
    prose = _ties_sentences(grid, p)   # rows 1-3 say whether the published values reproduce
    if tie_ok:
        prose.append("The choice of p matters: above the paper's p = 0.2 the order of Items 5–7 reverses, and Item 7 "
                     "(one rating of 1) ranks first.")
    caveats = {"exact_uniform": "Under uniform ratings the share at D = Dmax rises with N by its formula "
                                "(section 4): such a row reproduces Sakai's remark and is no evidence about "
                                "assessors.",
               "premise_only": "The premise is not the conjecture: notebook 02 tests the effect of UG on "
                               "rankings and significance."}
    if real_table is not None and verdicts:
        rows += _premise_rows(verdicts, real_table, replicates)
        rows.append(_ties_row(tie if tie is not None else ties(real_table), real_table, replicates))
        by = {w: [n for n, (v, _) in verdicts.items() if _VERDICT[v.numbers["verdict"]] == w] for w in _VERDICT.values()}
        said = [f"{w} for {claims.listing(names)}" for w, names in by.items() if names]
        prose.append("The premise of Sakai's conjecture " + "; it ".join(said) + ".")
    else:
        prose.append("The premise of Sakai's conjecture needs real ratings: profile `real` or `ratings_path`.")
    caveats["uniform"] = "Uniform ratings are Sakai's model of many assessors, not real assessors."
    return Findings("01_gain_definitions", rows, prose, caveats=caveats, general=("uniform",), footer=footer)
