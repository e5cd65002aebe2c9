"""Notebook 02's placebo control: does UG change more significance calls, or reorder more runs, than any
bonus of its size?

A randomised Tukey HSD call near α flips under any small change of the scores, so a count of
discrepancies between RawG and UG (Sakai, EVIA 2017, Table 3) says little on its own. The placebo
(:func:`helpers.unanimity.placebo_gain`) adds UG's own bonuses p·N·(Dmax − D) to RawG, shuffled
among the items of each topic with RawG > 0: the same sizes and support as UG, but unrelated to how
unanimous each item's raters were. Its discrepancies with RawG are counted on the same cells and
the same HSD permutations as UG's (:func:`helpers.unanimity.compare_gains_many`), and
:func:`compare` sets the two counts side by side over the replicates. Any perturbation of UG's size
also reorders runs whose mean scores nearly tie, so :func:`compare_tau` does the same for Kendall's τ
with RawG's ranking (the placebo's scores of the same cells; no extra test).

Testing the placebo costs about a third of a replicate's time, so by default (``scope``
``"small_n"``) only the cells with the two smallest N of the grid test it, where UG's bonus and the
discrepancies are largest; ``"all"`` (profile ``paper``) tests every cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["SCOPES", "placebo_cells", "scope_text", "single_draw", "compare", "compare_tau", "holm_family", "bonus_link", "LINK_BOUND", "LINK_MIN_PAIRS"]

#: Which cells test the placebo: the two smallest N of the grid, or all cells.
SCOPES = ("small_n", "all")


def placebo_cells(cells: Sequence[Mapping], scope: str) -> list[tuple[int, int]]:
    """The ``(d_max, n)`` cells of ``cells`` that test the placebo under ``scope`` (:data:`SCOPES`)."""
    if scope not in SCOPES:
        raise ValueError(f"placebo_cells must be one of {SCOPES}, got {scope!r}")
    pairs = [(int(c["d_max"]), int(c["n"])) for c in cells]
    if scope == "all":
        return pairs
    small = sorted({n for _, n in pairs})[:2]
    return [(d, n) for d, n in pairs if n in small]


def scope_text(chosen: Sequence[tuple[int, int]], cells: Sequence[Mapping]) -> str:
    """The placebo's cells in words: ``"all 15 cells"`` or ``"the 6 cells with N ≤ 10"``."""
    if len(chosen) == len(cells):
        return f"all {len(cells)} cells" if len(cells) > 1 else "the one cell"
    return f"the {len(chosen)} cells with N ≤ {max(n for _, n in chosen)}"


def single_draw(results: Sequence[dict], graded: Sequence[str]) -> dict:
    """UG's and the placebo's discrepancies with RawG in one draw, summed over the graded measures
    of the variants that tested the placebo (``results``: :func:`helpers.unanimity.compare_gains_many`);
    ``cells`` counts those variants (0: none tested it). ``tau_below_ug`` and ``tau_below_placebo``
    count the (cell, graded measure) pairs of those variants whose Kendall's τ with RawG's ranking
    is below 1 (``tau_pairs`` of them in all)."""
    ug = pl = cells = below_ug = below_pl = pairs = 0
    for res in results:
        if "placebo" not in res:
            continue
        cells += 1
        d = res["discrepancies"]
        ug += int(d["measure"].isin(graded).sum())
        p = res["placebo"]
        pl += int(p.loc[p["measure"].isin(graded), "discrepancies"].sum())
        t = res["tau"]
        below_ug += int(_below_one(t.loc[t["measure"].isin(graded), "tau"]).sum())
        below_pl += int(_below_one(p.loc[p["measure"].isin(graded), "tau"]).sum())
        pairs += int(t["measure"].isin(graded).sum())
    return {"ug": ug, "placebo": pl, "cells": cells, "tau_below_ug": below_ug, "tau_below_placebo": below_pl,
            "tau_pairs": pairs}


def _p(d: np.ndarray, min_draws: int) -> float:
    """Two-sided p of Student's one-sample t-test of mean(d) = 0 (the test the 95% CI inverts); NaN
    below ``min_draws`` draws; with no spread, 1 for a mean of 0 and 0 otherwise."""
    from scipy import stats

    if len(d) < min_draws:
        return float("nan")
    if np.ptp(d) == 0:
        return 1.0 if d[0] == 0 else 0.0
    return float(stats.ttest_1samp(d, 0.0).pvalue)


def holm_family(control: Mapping | None, control_tau: Mapping | None, alpha: float = 0.05) -> tuple:
    """One configuration's two comparisons with the placebo, significance calls (``control``,
    :func:`compare`) and reordering (``control_tau``, :func:`compare_tau`), as one family: Holm's
    step-down over their p (:func:`_p`; :func:`helpers.stats.paired.holm`) at ``alpha``. Returns copies with ``p_holm``, ``family``
    (how many had a p) and the verdict read from ``p_holm`` < ``alpha`` and the sign of ``diff``
    (significance calls: UG − placebo > 0 is "shown"; τ: < 0 is "shown"). A "cannot tell" stays."""
    from ..stats.paired import holm

    out = [dict(c) if c is not None else None for c in (control, control_tau)]
    live = [c for c in out if c is not None and np.isfinite(c.get("p", np.nan))]
    adj = holm([c["p"] for c in live]) if live else []
    for c, q in zip(live, adj):
        c["p_holm"], c["family"] = float(q), len(live)
    for c, more in ((out[0], 1.0), (out[1], -1.0)):
        if c is None or c["verdict"] == "cannot tell" or "p_holm" not in c:
            continue
        c["verdict"] = ("not shown" if c["p_holm"] >= alpha else
                        "shown" if more * c["diff"] > 0 else "does not hold")
    return out[0], out[1]


def _below_one(tau) -> np.ndarray:
    """τ below 1 beyond rounding (the rule of notebook 02's counts of identical rankings)."""
    return ~np.isclose(np.asarray(tau, dtype=float), 1.0, rtol=0, atol=1e-12)


def compare(rep: pd.DataFrame, graded: Sequence[str], min_draws: int = 40) -> dict | None:
    """UG's discrepancies against the placebo's over the replicates (rows of
    :func:`helpers.replicates.unanimity.unanimity_grid` with ``placebo_discrepancies``), summed per
    replicate over the graded measures and the cells that tested the placebo.

    Returns ``ug``, ``placebo`` (mean per replicate), ``diff`` (mean of UG − placebo), ``low``,
    ``high`` (its 95% CI of the mean, Student's t, :func:`helpers.stats.summary.mean_interval`;
    NaN below ``min_draws`` replicates, where no interval is read), ``replicates``, ``cells`` and
    ``verdict``: "shown" (the CI lies above 0: UG flips more calls than its placebo), "does not
    hold" (below 0: fewer), "not shown" (the CI holds 0) or "cannot tell" (fewer than
    ``min_draws`` replicates, or no discrepancy under either gain in any replicate). ``None``
    when no cell tested the placebo.
    """
    from ..stats.summary import mean_interval

    if "placebo_discrepancies" not in rep.columns:
        return None
    tested = rep[rep["measure"].isin(graded) & rep["placebo_discrepancies"].notna()]
    if tested.empty:
        return None
    per = tested.groupby("replicate")[["discrepancies", "placebo_discrepancies"]].sum()
    d = (per["discrepancies"] - per["placebo_discrepancies"]).to_numpy(dtype=float)
    r = len(per)
    low, high = mean_interval(d)[:2] if r >= min_draws else (np.nan, np.nan)
    if r < min_draws or not (per.to_numpy() > 0).any():
        verdict = "cannot tell"
    else:
        verdict = "shown" if low > 0 else "does not hold" if high < 0 else "not shown"
    return {"ug": float(per["discrepancies"].mean()), "placebo": float(per["placebo_discrepancies"].mean()),
            "diff": float(d.mean()), "low": float(low), "high": float(high), "p": _p(d, min_draws), "replicates": r,
            "cells": int(tested.groupby(["d_max", "n"]).ngroups), "verdict": verdict}


def compare_tau(rep: pd.DataFrame, graded: Sequence[str], min_draws: int = 40) -> dict | None:
    """UG's reordering of the runs against the placebo's over the replicates (rows of
    :func:`helpers.replicates.unanimity.unanimity_grid` with ``placebo_tau``): per replicate, the
    mean over the graded measures and the cells that tested the placebo of τ(RawG, UG) −
    τ(RawG, placebo), Kendall's τ between the rankings of all runs by mean score. Both τ come from
    the same draw of ratings, so the difference is paired.

    Returns ``ug``, ``placebo`` (mean τ), ``diff`` (mean of UG − placebo; below 0: UG reorders
    more), ``low``, ``high`` (its 95% CI of the mean, Student's t; NaN below ``min_draws``
    replicates), ``every_ug``, ``every_placebo`` (the (cell, measure) pairs with τ < 1 in every
    replicate, of ``pairs``), ``replicates``, ``cells`` and ``verdict``: "shown" (the CI lies
    below 0: UG reorders runs more than its placebo), "does not hold" (above 0: less), "not shown"
    (the CI holds 0) or "cannot tell" (fewer than ``min_draws`` replicates, or τ = 1 under both
    gains everywhere). ``None`` when no cell tested the placebo.
    """
    from ..stats.summary import mean_interval

    if "placebo_tau" not in rep.columns:
        return None
    tested = rep[rep["measure"].isin(graded) & rep["placebo_tau"].notna()]
    if tested.empty:
        return None
    per = tested.groupby("replicate")[["tau", "placebo_tau"]].mean()
    d = (per["tau"] - per["placebo_tau"]).to_numpy(dtype=float)
    r = len(per)
    low, high = mean_interval(d)[:2] if r >= min_draws else (np.nan, np.nan)
    moved = _below_one(tested["tau"]).any() or _below_one(tested["placebo_tau"]).any()
    if r < min_draws or not moved:
        verdict = "cannot tell"
    else:
        verdict = "shown" if high < 0 else "does not hold" if low > 0 else "not shown"
    every = tested.assign(ug=_below_one(tested["tau"]), pl=_below_one(tested["placebo_tau"])).groupby(
        ["d_max", "n", "measure"])[["ug", "pl"]].all()
    return {"ug": float(per["tau"].mean()), "placebo": float(per["placebo_tau"].mean()), "diff": float(d.mean()),
            "low": float(low), "high": float(high), "p": _p(d, min_draws), "every_ug": int(every["ug"].sum()),
            "every_placebo": int(every["pl"].sum()), "pairs": len(every), "replicates": r,
            "cells": int(tested.groupby(["d_max", "n"]).ngroups), "verdict": verdict}



#: Largest mean per-topic |r| between UG's bonus and what orders the runs that still reads "no link":
#: under uniform ratings the expectation is 0, and a few hundred (cell, topic) pairs give a standard
#: error near 0.01.
LINK_BOUND = 0.1

#: Fewest (cell, topic) pairs over which a mean r of :func:`bonus_link` is read at all: below it (a
#: standard error of 0.2 / sqrt(30) ~ 0.04 or more against :data:`LINK_BOUND`) the link cannot be judged.
LINK_MIN_PAIRS = 30


def _topic_r(x: np.ndarray, y: np.ndarray, topics: np.ndarray) -> np.ndarray:
    """Pearson's r between ``x`` and ``y`` within each topic (topics where either is constant are
    left out)."""
    df = pd.DataFrame({"t": topics, "x": x, "y": y})
    g = df.groupby("t", sort=False)
    dx, dy = df["x"] - g["x"].transform("mean"), df["y"] - g["y"].transform("mean")
    sums = pd.DataFrame({"t": topics, "xy": dx * dy, "xx": dx * dx, "yy": dy * dy}).groupby("t", sort=False).sum()
    ok = (sums["xx"] > 1e-12) & (sums["yy"] > 1e-12)
    return (sums.loc[ok, "xy"] / np.sqrt(sums.loc[ok, "xx"] * sums.loc[ok, "yy"])).to_numpy(dtype=float)


def bonus_link(qrels: pd.DataFrame, run: pd.DataFrame, sims: Sequence[np.ndarray], cells: Sequence[Mapping],
               p: float) -> dict:
    """How much UG's bonus p·N·(Dmax − D) (Sakai 2017, Eq. 2) carries of what orders the runs, in
    simulated ratings: Pearson's r within each topic, over the items with RawG > 0 (the placebo's
    support), between the bonus and (``level``) the item's official level, and (``runs``) the number
    of runs that return it in their (cut) lists; the mean over the (cell, topic) pairs where both
    vary, with its standard error. Under Sakai's uniform ratings both are 0 in expectation (every
    relevant item draws i.i.d. ratings whatever its level), so UG against its placebo is expected to
    show no difference.

    Returns ``{"level", "level_se", "level_pairs", "runs", "runs_se", "runs_pairs", "judged", "linked"}``:
    ``judged`` when some mean is finite and every finite one rests on at least :data:`LINK_MIN_PAIRS`
    pairs; ``linked`` when judged and either mean exceeds :data:`LINK_BOUND` in size (NaN, not judged
    and not linked when no pair varies, e.g. a draw where UG = RawG on every item)."""
    from .. import gains

    counts = run.groupby(["query_id", "doc_id"]).size()
    key = pd.MultiIndex.from_frame(qrels[["query_id", "doc_id"]])
    returned = counts.reindex(key, fill_value=0).to_numpy(dtype=float)
    level, topics = qrels["relevance"].to_numpy(dtype=float), qrels["query_id"].to_numpy()
    found = {"level": [], "runs": []}
    for ratings, c in zip(sims, cells):
        raw = gains.raw_gain(ratings, c["d_max"])
        bonus = gains.unanimity_aware_gain(ratings, c["d_max"], p) - raw
        m = raw > 0
        found["level"].append(_topic_r(bonus[m], level[m], topics[m]))
        found["runs"].append(_topic_r(bonus[m], returned[m], topics[m]))
    out = {}
    for k, v in found.items():
        v = np.concatenate(v) if v else np.array([])
        out[k] = float(v.mean()) if len(v) else float("nan")
        out[f"{k}_se"] = float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")
        out[f"{k}_pairs"] = int(len(v))
    live = [k for k in ("level", "runs") if np.isfinite(out[k])]
    out["judged"] = bool(live) and all(out[f"{k}_pairs"] >= LINK_MIN_PAIRS for k in live)
    out["linked"] = out["judged"] and any(abs(out[k]) > LINK_BOUND for k in live)
    return out
