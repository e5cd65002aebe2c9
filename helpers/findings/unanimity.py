"""Notebook 02's parameters and findings: does unanimity-aware gain change our conclusions?

Sakai (EVIA 2017, Sec. 4-6) asks whether evaluating with the unanimity-aware gain UG (Eq. 2)
instead of the raw sum of ratings RawG changes the ranking of all runs (Kendall's tau, Table 2)
and the significance of differences between teams (randomised Tukey HSD, Table 3), and
conjectures that real ratings, which spread less than uniform ones, change them more.
:func:`check_parameters` validates a run's parameters; :func:`findings` turns its numbers into the
findings table of the conclusion (:class:`helpers.notebook.findings.Findings`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import unanimity
from ..measures import names as measure_names_mod
from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["Settings", "check_parameters", "CONVENTIONS", "findings", "chance_outside", "bracket", "cell_view",
           "table2_view", "read_real"]

#: The evaluation conventions notebook 02 can run under (:mod:`helpers.measures.conventions`).
CONVENTIONS = ("ntcireval",)


@dataclass
class Settings:
    """A run's checked parameters and what follows from them."""

    dataset: str
    d_max_list: list
    n_list: list
    measure_names: list
    blind: list
    graded: list
    too_deep: list
    cutoff: int
    B: int
    replicates: int
    real_replicates: int
    theta: int
    notes: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)


def _int_at_least(ns: Mapping, name: str, low: int, what: str = "") -> int:
    v = ns[name]
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or int(v) != v or v < low:
        raise ValueError(f"{name} must be an integer >= {low}{what}, got {v!r}")
    return int(v)


def _measures(given, cutoff: int) -> tuple[list, list, list, list]:
    """Engine names of ``given``, the gain-blind ones, those deeper than the lists, and notes."""
    if not given:
        raise ValueError("measure_names must name at least one measure")
    named = measure_names_mod.resolve(given)  # unknown names fail here, before any work
    notes = []
    if any(label != str(spec) for label, spec in named):
        notes.append("measures: " + ", ".join(f"{label} = {spec}" for label, spec in named if label != str(spec)))
    names = [str(spec) for _, spec in named]
    too_deep = unanimity.deeper_than_lists(names, cutoff)
    notes += [f"WARNING: {m} reads the top {depth} documents, but every list is cut to its top {cutoff}. "
              f"So {m} is scored on {cutoff} documents: not the {m} its name promises." for m, depth in too_deep]
    blind = unanimity.gain_blind(names)
    if blind:
        notes.append(f"{claims.listing(blind)} only see{'s' if len(blind) == 1 else ''} whether a gain is > 0, and "
                     "UG > 0 exactly when RawG > 0. RawG and UG cannot differ there (τ = 1, no discrepancy), so the "
                     "counts of cells leave " + ("it" if len(blind) == 1 else "them") + " out.")
    return names, blind, too_deep, notes


def check_parameters(ns: Mapping) -> Settings:
    """Check notebook 02's parameters (``ns``: the notebook's globals) and derive the run's settings.

    A bad value raises ``ValueError`` naming the parameter and what it takes. Returns
    :class:`Settings`: the values normalised (``10.0`` -> ``10``; measure names as the engine's
    names, trec_eval names read as the engine measure they are), the measures that only see
    whether a gain is > 0 (``blind``: RawG and UG cannot differ on them) and the others
    (``graded``), measures that read deeper than the lists (``too_deep``), the relevance threshold
    ``theta``, the lines to print (``notes``) and the parameters for the metrics file.
    """
    from ..data import datasets, thresholds
    from ..io import readers
    from ..notebook import params

    replicates = _int_at_least(ns, "replicates", 1)
    real_replicates = _int_at_least(ns, "real_replicates", 1)
    if not ns["scheduler"]:
        raise ValueError("scheduler must be 'local', 'serial' or a dask scheduler address such as tcp://host:8786")
    dataset = ns["dataset"]
    if dataset not in ("stc-like", "dl19", "files"):
        raise ValueError(f"dataset must be 'stc-like', 'dl19' or 'files', got {dataset!r}")
    params.check_file_inputs(ns, mode=dataset == "files", required=["qrels_path", "runs_glob"],
                             optional=["ratings_path"], switch='dataset: "files"')
    if ns["ratings_layout"] not in readers.RATING_LAYOUTS:
        raise ValueError(f"ratings_layout must be one of {readers.RATING_LAYOUTS}, got {ns['ratings_layout']!r}")
    _int_at_least(ns, "ratings_d_max", 1)
    if not 0.0 <= ns["p"] <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {ns['p']}")
    d_max_list, n_list = ns["d_max_list"], ns["n_list"]
    if not d_max_list or any(int(d) != d or d < 1 for d in d_max_list):
        raise ValueError(f"d_max_list must hold integers >= 1, got {d_max_list}")
    if not n_list or any(int(n) != n or n < 2 for n in n_list):
        raise ValueError(f"n_list must hold integers >= 2 (one rating has no spread), got {n_list}")
    if ns["conventions"] not in CONVENTIONS:
        raise ValueError(
            f"conventions must be 'ntcireval', got {ns['conventions']!r}: this notebook feeds real-valued gains "
            "(UG) to the measures, which NTCIREVAL's conventions define and trec_eval's (integer levels) do not. "
            "trec_eval names in measure_names (ndcg_cut_10, map) are read as the engine measure they are.")
    if not (math.isfinite(ns["team_skill_sd"]) and ns["team_skill_sd"] > 0):
        raise ValueError(f"team_skill_sd must be a number > 0, got {ns['team_skill_sd']!r}")
    cutoff = _int_at_least(ns, "cutoff", 1, " (a positive integer)")
    names, blind, too_deep, notes = _measures(ns["measure_names"], cutoff)
    B = _int_at_least(ns, "B", 100, " HSD trials")
    if not 0.0 < ns["alpha"] < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {ns['alpha']}")
    if ns["best_run_by"] not in ("official", "rawg"):
        raise ValueError(f"best_run_by must be 'official' or 'rawg', got {ns['best_run_by']!r}")
    if ns["real_ratings"] and dataset != "dl19":
        raise ValueError("real_ratings needs dataset='dl19'; with dataset='files' give ratings_path instead")
    table = ns["team_table"]
    if table and table != "dl19" and not Path(table).is_file():
        raise params.ParameterError(f"team_table: no file {table!r} (give 'dl19', a CSV path with run_id, team, "
                                    "evidence, or leave it empty)")
    theta = thresholds.for_run(ns["relevance_threshold"], dataset, qrels_path=ns["qrels_path"],
                               collections={"stc-like": 1, "dl19": datasets.DL19_RELEVANCE_THRESHOLD})
    top = 2 if dataset == "stc-like" else int(ns["ratings_d_max"])
    if int(ns["relevance_threshold"]) != ns["relevance_threshold"] or not 1 <= theta <= top:
        raise ValueError(f"relevance_threshold must be 0 (the collection's definition) or a level in 1..{top}, "
                         f"got {ns['relevance_threshold']!r}")
    d_max_list, n_list = [int(d) for d in d_max_list], [int(n) for n in n_list]
    metrics = {"seed": ns["seed"], "dataset": dataset, "d_max_list": d_max_list, "n_list": n_list, "p": ns["p"],
               "measures": names, "cutoff": cutoff, "B": B, "alpha": ns["alpha"], "best_run_by": ns["best_run_by"],
               "relevance_threshold": theta, "conventions": ns["conventions"]}
    if dataset == "stc-like":
        metrics["team_skill_sd"] = float(ns["team_skill_sd"])
    return Settings(dataset, d_max_list, n_list, names, blind, [m for m in names if m not in blind], too_deep,
                    cutoff, B, replicates, real_replicates, int(theta), notes, metrics)


# ---------------------------------------------------------------------------------------------
# what the notebook prints: the replicates' cells, Table 2 against the paper, the real contrast

def bracket(mean: float, low: float, high: float, digits: int = 3, *, note: bool = True) -> str:
    """``"0.520 [0.410, 0.630]"`` (:func:`helpers.notebook.claims.bracket`), or the value alone when
    every draw gave it: an interval of zero width says nothing an interval should. ``note=False``
    leaves out the remark on a mean outside its interval (a table marks it once, with a †)."""
    if low == high and abs(float(mean) - float(low)) <= 1e-12 * max(1.0, abs(float(low))):
        return claims.number(low, digits)
    if not note:
        return f"{claims.number(mean, digits)} [{claims.number(low, digits)}, {claims.number(high, digits)}]"
    return claims.bracket(mean, low, high, digits)


def cell_view(cells: pd.DataFrame, measure: str) -> tuple[pd.DataFrame, bool]:
    """One measure's cells as the notebook shows them (rows Dmax, columns N): ``"τ [low, high] |
    discrepancies [low, high]"``, a ``†`` where a mean lies outside its draws' interval. Returns
    the table and whether any cell has a ``†``."""
    mark = lambda m, lo, hi: "†" if m < lo or m > hi else ""  # noqa: E731  (a skewed count)
    view = cells[cells["measure"] == measure]
    text = [f"{bracket(a, b, c, note=False)}{mark(a, b, c)} | {bracket(d, e, g, 1, note=False)}{mark(d, e, g)}"
            for a, b, c, d, e, g in zip(view.tau_mean, view.tau_low, view.tau_high, view.disc_mean, view.disc_low,
                                        view.disc_high)]
    wide = view.assign(cell=text).pivot(index="d_max", columns="n", values="cell")
    wide.columns = [f"N = {n}" for n in wide.columns]
    wide.index.name = "Dmax"
    return wide, any("†" in t for t in text)


def table2_view(comparison: pd.DataFrame, measure: str) -> pd.DataFrame:
    """One measure's Table 2 comparison in the paper's layout: ``"paper | mean [low, high] in"``
    per cell (``above``/``below`` where the paper's tau lies outside the interval)."""
    from ..notebook import claims

    view = comparison[comparison["measure"] == measure]
    text = [f"{unanimity.fmt_tau(p)} | {bracket(m, lo, hi, note=False)} " + ("in" if ins else side)
            for p, m, lo, hi, ins, side in zip(view.paper, view["mean"], view.low, view.high, view.inside, view.side)]
    wide = view.assign(cell=text).pivot(index="d_max", columns="n", values="cell")
    wide.columns = [f"N = {n}" for n in wide.columns]
    wide.index.name = "Dmax"
    return wide


def read_real(real, graded, draws: int) -> tuple[dict, dict]:
    """The words of section 6 (:class:`helpers.replicates.unanimity.RealContrast`): ``premise``
    (per spread quantity, real against uniform ratings with the same RawG) and ``conjecture`` (per
    graded measure: tau and discrepancies of real against uniform ratings, by
    :func:`helpers.notebook.claims.compare`; ``tau_lower``/``disc_more`` when the intervals over
    the draws do not overlap in the conjecture's direction; ``supported`` when both hold)."""
    from ..replicates.unanimity import fixed

    premise = {}
    sp = real.spread.set_index(["quantity", "ratings"])
    for col in ("share_full_spread", "mean_spread"):
        r, s = sp.loc[(col, "real")], sp.loc[(col, "simulated")]
        premise[col] = claims.compare("real", fixed(r), "simulated", s["mean"], interval_a=(r["low"], r["high"]),
                                      interval_b=(s["low"], s["high"]))
    t = real.table.set_index(["ratings", "measure"])
    conjecture = {}
    for m in graded:
        r, s = t.loc[("real", m)], t.loc[("simulated", m)]
        t_cmp = claims.compare("real", fixed(r, "tau_"), "simulated", s.tau_mean, interval_a=(r.tau_low, r.tau_high),
                               interval_b=(s.tau_low, s.tau_high))
        d_cmp = claims.compare("real", fixed(r, "disc_"), "simulated", s.disc_mean,
                               interval_a=(r.disc_low, r.disc_high), interval_b=(s.disc_low, s.disc_high), digits=2,
                               higher="more", lower="fewer")
        paired = real.draws[real.draws["measure"] == m].pivot(index="replicate", columns="ratings",
                                                                values="discrepancies")
        more = claims.holds(int((paired["real"] > paired["simulated"]).sum()), draws, "draws")
        tau_lower = bool(t_cmp.numbers["differs"] and r.tau_mean < s.tau_mean)
        disc_more = bool(d_cmp.numbers["differs"] and r.disc_mean > s.disc_mean)
        conjecture[m] = {"tau": t_cmp.numbers, "disc": d_cmp.numbers, "tau_text": t_cmp.text, "disc_text": d_cmp.text,
                         "real_more_disc": more.numbers, "real_more_text": more.text, "tau_lower": tau_lower,
                         "disc_more": disc_more, "supported": tau_lower and disc_more,
                         "significant": {"RawG": float(r.significant_RawG), "UG_real": float(r.significant_UG),
                                         "UG_simulated": float(s.significant_UG)}}
    return premise, conjecture


# ---------------------------------------------------------------------------------------------
# the findings table

#: The notebook's own caveats (besides :data:`helpers.notebook.findings.CAVEATS`).
OWN_CAVEATS = {
    "uniform": "Uniform ratings are Sakai's model of many assessors, not real assessors.",
    "calibrated": "The stand-in's spread of team skills is fitted to Table 2's τ, so agreement there is by calibration.",
    "indicative": "The divisor is read from a stand-in's score matrices, so it is indicative only.",
    "ranges": "With fewer draws than a 95% interval needs, the brackets are ranges (minimum to maximum).",
}
#: Sakai's Table 3: discrepancies over his 45 cells, and per N.
PAPER_T3 = "24 over 45 cells (N = 5: 16, 10: 6, 20: 2, 40 and 80: 0)"


def chance_outside(cells: int, level: float = 0.95) -> int:
    """How many of ``cells`` independent ``level`` intervals may miss their value by chance: the
    95th percentile of Binomial(cells, 1 - level) (45 cells at 95%: 5)."""
    from scipy.stats import binom

    return int(binom.ppf(0.95, int(cells), 1.0 - level))


def _few(replicates: int) -> tuple[str, ...]:
    return ("ranges",) if 1 < replicates < claims.min_draws() else ()


def _ranking_row(tau: pd.DataFrame, grid, graded, replicates: int, n_hi: int) -> Finding:
    paper = "τ < 1 in 28 of 45 cells (.983 at the lowest); every CI reaches 1"
    if grid is None:
        t = tau[tau["measure"].isin(graded)]
        return Finding("Does UG change the ranking of all runs (Table 2)?", paper,
                       f"one draw: τ {claims.number(t['tau'].min())} to {claims.number(t['tau'].max())}",
                       "cannot tell", ("one_draw",), {"low": float(t["tau"].min()), "high": float(t["tau"].max())})
    c = grid.cells[grid.cells["measure"].isin(graded)]
    below = c[c["tau_high"].round(9) < 1]
    iv = claims.interval_name(replicates)
    run = (f"mean τ {claims.number(c['tau_mean'].min())} to {claims.number(c['tau_mean'].max())}; "
           f"{iv} below 1 in {len(below)} of {len(c)} cells")
    if len(below) and int(below["n"].max()) < n_hi:
        run += f" (all at N ≤ {int(below['n'].max())})"
    return Finding("Does UG change the ranking of all runs (Table 2)?", paper, run,
                   "shown" if len(below) else "not shown", ("uncorrected",) + _few(replicates),
                   {"below": len(below), "cells": len(c)})


def _table2_row(t2: pd.DataFrame, fit_sd) -> Finding:
    out = t2[~t2["inside"]]
    allowed = chance_outside(len(t2))
    gap = float((t2["paper"] - t2["mean"]).mean())
    sides = ", ".join(f"{int((out['side'] == s).sum())} {s}" for s in ("above", "below") if (out["side"] == s).any())
    run = (f"inside in {int(t2['inside'].sum())} of {len(t2)} cells" + (f"; outside: {sides}" if len(out) else "")
           + f"; mean gap {gap:+.4f}")
    draws = int(t2["draws"].iloc[0])
    return Finding("Is the paper's τ inside the stand-in's interval, cell by cell?",
                   "Table 2 (real STC data)", run, "agrees" if len(out) <= allowed else "differs",
                   (("calibrated",) if fit_sd is not None else ()) + _few(draws),
                   {"inside": int(t2["inside"].sum()), "cells": len(t2), "allowed_outside": allowed, "mean_gap": gap})


def _significance_row(grid, total: int, replicates: int, graded) -> Finding:
    paper = "24 discrepancies in 45 cells of 120 pairs"
    if grid is None:
        return Finding("Does UG change significance between teams (Table 3)?", paper,
                       f"one draw: {claims.plural(total, 'discrepancy', 'discrepancies')}", "cannot tell",
                       ("one_draw",), {"total": total})
    rep = grid.rep[grid.rep["measure"].isin(graded)]
    per = rep.groupby("replicate")["discrepancies"].sum().rename("total").reset_index()
    from ..replicates import runner

    s = runner.summarise(per, "total").iloc[0]
    zero = int((per["total"] == 0).sum())
    run = (f"{bracket(s['mean'], s['low'], s['high'], 1)} per replicate over all cells; "
           f"replicates without one: {zero} of {replicates}")
    return Finding("Does UG change significance between teams (Table 3)?", paper, run,
                   "shown" if s["low"] > 0 else "not shown", ("uncorrected",) + _few(replicates),
                   {"mean": float(s["mean"]), "low": float(s["low"]), "high": float(s["high"]), "zero": zero})


def _table3_row(t3: Mapping, fit_sd) -> Finding:
    run = f"{bracket(t3['mean'], t3['low'], t3['high'], 1)} over the same {t3['cells']} cells"
    verdict = "agrees" if t3["inside"] else "differs"
    return Finding("Is the paper's Table 3 total inside the stand-in's interval?",
                   PAPER_T3 if t3["cells"] == 45 else f"{t3['paper']} over these {t3['cells']} cells", run, verdict,
                   _few(t3["replicates"]), dict(t3))


def _n_row(grid, n_lo: int, n_hi: int) -> Finding:
    by_rep = grid.sums.pivot(index="replicate", columns="n", values="discrepancies")
    lo, hi = grid.by_n.loc[n_lo], grid.by_n.loc[n_hi]
    cmp = claims.paired_difference(f"N = {n_lo}", f"N = {n_hi}", by_rep[n_lo] - by_rep[n_hi], a=lo["mean"],
                                   b=hi["mean"], digits=1, higher="more", lower="fewer")
    run = (f"discrepancies {claims.number(lo['mean'], 1)} at N = {n_lo}, {claims.number(hi['mean'], 1)} at N = {n_hi}; "
           f"mean difference {cmp.numbers['mean']:+.1f} [{cmp.numbers['low']:+.1f}, {cmp.numbers['high']:+.1f}] (95% CI)")
    fades = bool(cmp.numbers["differs"]) and cmp.numbers["mean"] > 0
    return Finding("Does the effect fade as N grows?", "yes: none at N = 40, 80 (Sec. 4 expects it)", run,
                   "by construction" if fades else "not shown", ("by_construction",) if fades else (),
                   dict(cmp.numbers))


def _divisor_row(es: Mapping) -> Finding | None:
    if "es_hsd" not in es:
        return None
    pd_lo, pd_hi = es["paper_divisor"]
    fits = lambda lo, hi: lo <= pd_hi and hi >= pd_lo  # noqa: E731
    ve = (es["sqrt_ve"][0] ** 2, es["sqrt_ve"][1] ** 2)
    ve_fits, sd_fits = fits(*ve), fits(*es["sqrt_ve"])
    if ve_fits and not sd_fits and es["es_var_overlaps_paper"]:
        verdict = "does not hold"
    elif sd_fits and not ve_fits and not es["es_var_overlaps_paper"]:
        verdict = "holds"
    else:
        verdict = "cannot tell"
    run = (f"√V_E {es['sqrt_ve'][0]:.3f}–{es['sqrt_ve'][1]:.3f}; V_E {ve[0]:.3f}–{ve[1]:.3f}; "
           f"|d|/V_E {es['es_var'][0]:.2f}–{es['es_var'][1]:.2f}")
    return Finding("Is Table 3's ES_HSD |d|/√V_E, as its text says?",
                   f"ES_HSD {es['paper_es_hsd'][0]:.2f}–{es['paper_es_hsd'][1]:.2f}: divisors {pd_lo:.3f}–{pd_hi:.3f}",
                   run, verdict, ("indicative", "one_draw"), {"ve_fits": ve_fits, "sd_fits": sd_fits})


def _premise_row(parts: Mapping, d_real: int, n_real: int, draws: int) -> Finding:
    lower = [k for k, c in parts.items() if c.numbers["differs"] and c.numbers["a"] < c.numbers["b"]]
    verdict = "holds" if len(lower) == len(parts) else "holds in part" if lower else "does not hold"
    sh = parts["share_full_spread"].numbers
    run = f"share at D = Dmax: real {claims.number(sh['a'])}, uniform {bracket(sh['b'], *sh['interval_b'])}"
    return Finding(f"Do the real ratings (N = {n_real}, Dmax = {d_real}) spread less than uniform ones?",
                   "assumed (Sec. 4, 6)", run, verdict, _few(draws), {k: c.numbers for k, c in parts.items()})


def _conjecture_row(m: str, c: Mapping, power: Mapping, draws: int) -> Finding:
    t, d = c["tau"], c["disc"]
    run = (f"τ {claims.number(t['a'])} vs {bracket(t['b'], *t['interval_b'])}; discrepancies "
           f"{claims.number(d['a'], 2)} vs {bracket(d['b'], *d['interval_b'], 2)}; power "
           f"{power['power']:.2f} [{power['power_low']:.2f}, {power['power_high']:.2f}]")
    held = [c["tau_lower"], c["disc_more"]]
    if all(held):
        verdict, cav = "holds", ()
    elif any(held):
        verdict, cav = "holds in part", ()
    elif power["power_low"] >= 0.8:
        verdict, cav = "does not hold", ()
    else:
        verdict, cav = "cannot tell", ("low_power",)
    return Finding(f"{m}: do real ratings move τ and significance more than uniform ones?",
                   "expected (Sec. 6), not tested", run, verdict, cav + _few(draws),
                   {"conjecture": {k: v for k, v in c.items() if not k.endswith("_text")}, "power": dict(power)})


def findings(cfg: Settings, *, collection: Mapping, pairs: int, tau: pd.DataFrame, counts: pd.DataFrame,
             effect_sizes: Mapping, fragile: Mapping | None, grid=None, table2: pd.DataFrame | None = None,
             table3_total: Mapping | None = None, table3_cells: pd.DataFrame | None = None, off_paper=(),
             fit: pd.DataFrame | None = None, real: tuple | None = None, real_n: int = 0, real_d_max: int = 0,
             copies: str = "", footer: str = "") -> Findings:
    """The findings of notebook 02 (see the module docstring for the questions).

    Parameters
    ----------
    cfg : :func:`check_parameters`' settings.
    collection, pairs : the collection's metrics (:class:`helpers.replicates.unanimity.Collection`)
        and the number of team pairs the HSD compares.
    tau, counts, effect_sizes, fragile : the single draw of sections 3-5 (tau per cell, discrepancy
        counts per cell, the effect-size ranges, the fragile share as ``claims.share`` numbers).
    grid : :class:`helpers.replicates.unanimity.GridSummary` (None with one replicate).
    table2, table3_total, table3_cells : the paper's Tables 2 and 3 against the replicates (only in
        the paper's setting, ``off_paper`` empty).
    fit : the calibration record of the stand-in (``stc-like`` only).
    real, real_n, real_d_max : ``(premise, conjecture, power)`` of section 6 (:func:`read_real` and
        :attr:`helpers.replicates.unanimity.RealContrast.power`), and the real ratings' N and Dmax.
    copies : what the official-copy check of the real ratings found (a sentence, or empty).
    """
    graded, reps = cfg.graded, cfg.replicates
    n_lo, n_hi = min(cfg.n_list), max(cfg.n_list)
    rows, prose = [], []
    where = {"stc-like": "the stand-in STC collection", "dl19": "TREC DL 2019 passage"}.get(cfg.dataset, "your files")
    prose.append(f"Data: {where}, {collection['topics']} topics, {collection['runs']} runs from "
                 f"{collection['teams']} teams ({pairs} team pairs); relevance threshold {cfg.theta}.")
    if collection["near_duplicates_across_teams"]:
        prose.append(f"WARNING: {collection['near_duplicates_across_teams']} near-duplicate run pairs cross teams.")
    if not graded:
        prose.append("No selected measure sees how large a gain is, so RawG and UG cannot differ.")
    else:
        total = int(counts.loc[counts["measure"].isin(graded), "discrepancies"].sum())
        rows.append(_ranking_row(tau, grid, graded, reps, n_hi))
        if table2 is not None and len(table2):
            rows.append(_table2_row(table2, fit))
        rows.append(_significance_row(grid, total, reps, graded))
        if table3_total is not None:
            rows.append(_table3_row(table3_total, fit))
        if grid is not None and n_lo != n_hi:
            rows.append(_n_row(grid, n_lo, n_hi))
        if total and not off_paper:
            row = _divisor_row(effect_sizes)
            if row is not None:
                rows.append(row)
        if fragile and fragile.get("n"):
            k, n = fragile["k"], fragile["n"]
            prose.append(f"In the single draw, {claims.share_of(k, n, 'discrepancy', 'discrepancies')} "
                         f"{'lies' if k == 1 else 'lie'} within two Monte Carlo errors of the level: another run of the "
                         "test could undo " + ("it." if k == 1 else "them."))
        if table3_cells is not None and len(table3_cells):
            zero = int((table3_cells["disc_low"] <= 0).sum())
            prose.append(f"Per cell, Table 3's counts lie inside {int(table3_cells['inside'].sum())} of "
                         f"{len(table3_cells)} intervals, but {zero} of them start at 0: that check has little power.")
    if fit is not None:
        best, sd = fit[fit["best"]].iloc[0], cfg.metrics.get("team_skill_sd", float("nan"))
        if np.isclose(best["skill_sd"], sd):
            prose.append(f"The stand-in's team-skill sd, {sd:g}, is fitted to Table 2: RMS gap {best['rmse']:.4f} over "
                         f"45 cells, within one draw's noise ({best['noise_floor']:.4f}).")
        else:
            prose.append(f"This run sets the stand-in's team-skill sd to {sd:g}, not the {best['skill_sd']:g} fitted "
                         "to Table 2.")
    if off_paper:
        prose.append("The paper's tables are not set against this run: its setting differs in "
                     + claims.listing([o.split(" (")[0] for o in off_paper]) + ".")
    if real is not None and real[1]:
        premise, conjecture, power = real[0], real[1], real[2].set_index("measure")
        rows.append(_premise_row(premise, real_d_max, real_n, cfg.real_replicates))
        for m, c in conjecture.items():
            rows.append(_conjecture_row(m, c, power.loc[m], cfg.real_replicates))
        prose.append("Power: the share of draws in which the real tuples, shuffled among items of the same RawG, "
                     "meet the conjecture's rule.")
        if copies:
            prose.append(f"In the real ratings, {copies}: those ratings are left out, so that person counts once.")
    elif real is None:
        prose.append("Sakai's conjecture needs real ratings: profile `real`, or `ratings_path` with your files.")
    caveats = dict(OWN_CAVEATS)
    general = ["uniform"] + (["stand_in"] if cfg.dataset == "stc-like" else [])
    return Findings("02_unanimity_evaluation", rows, prose, caveats=caveats, general=general, footer=footer)
