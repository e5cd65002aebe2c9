"""Notebook 03's section 10 (across draws), moved out of its cells: the replicates of the
simulation and the draws of the random second assessor U2, each run, shown and saved.

The computation is :mod:`helpers.replicates.prm`'s (:func:`~helpers.replicates.prm.simulated`,
:func:`~helpers.replicates.prm.draws`, :func:`~helpers.replicates.prm.p_draws`); these functions
print what the notebook printed before, in the same order, and write the same tables, figure and
metrics (Demeester et al., IRJ 19, 2016, Tables 2-7 and Fig. 2 over draws).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence

import numpy as np
import pandas as pd

from ..notebook import claims, reports
from ..replicates import prm as prm_replicates
from . import prm as prm_findings, prm_values

__all__ = ["replicates_section", "draws_section"]


def replicates_section(replicates: int, seed: int, *, dataset: str, level_names: Sequence[str], variants,
                       variant_note: str, mark: Callable, out, metrics: MutableMapping, scheduler=None,
                       progress: bool = False, **study) -> prm_replicates.Simulated | None:
    """The simulation redrawn ``replicates`` times (``study``: the keyword arguments of
    :func:`helpers.replicates.prm.simulated` after ``names``): its Tables 2, 5-7, Fig. 2 and UDM
    summaries shown, saved as ``replicates_summary`` and in ``metrics["replicates"]``, with Table 6's
    figure. ``None`` (and one line saying why) when ``replicates < 2`` or the data are not simulated."""
    if replicates < 2:
        print("replicates: 1 -- the single draw above is the whole study")
        return None
    if dataset != "simulated":
        print(f"dataset {dataset!r}: the collection is fixed; the cells below redraw the random second assessor")
        return None
    import matplotlib.pyplot as plt

    from ..notebook import plots, style

    name = lambda i: level_names[i] + ("*" if i in variants else "")  # noqa: E731  the variant star
    sim_rep = prm_replicates.simulated(replicates, seed, names=level_names, scheduler=scheduler, progress=progress,
                                       details=True, udm_reps=20, **study)
    iv = prm_values.spread_name(replicates) + " of single replicates"
    reports.show(prm_findings.replicate_view(sim_rep.summary, ("estimate", "6", "7"), label=mark),
                 caption=f"Tables 6 and 7 over {replicates} replicates: mean [{iv}]")
    reports.show(prm_findings.replicate_view(sim_rep.summary, ("eq", "fig2", "5", "udm"), runs=study["n_runs"],
                                             label=mark),
                 caption=f"Table 2 (theta = top), Fig. 2's sd / sigma, Table 5 and the UDM analysis: mean [{iv}]")
    print(prm_findings.wins_line(sim_rep.wins, sim_rep.defined, name, losses=sim_rep.losses)
          + (f"\n* {variant_note}" if variants else ""))
    out.save_table(sim_rep.summary, "replicates_summary", float_format="%.4f",
                   caption=f"Every value over {replicates} replicates of the simulation (mean, {iv})")
    metrics["replicates"] = {"R": replicates, "summary": sim_rep.summary,
                             "prm_more_robust_count": {f"theta={th}": v for th, v in sim_rep.wins.items()},
                             "tests": {a: {f"theta={th}": c.numbers for th, c in by.items()}
                                       for a, by in prm_findings.robustness_replicates(sim_rep).claims.items()}}
    t6 = sim_rep.summary[sim_rep.summary["table"] == "6"]
    fig, ax = plt.subplots(figsize=style.figsize("full", height=2.4))
    ypos = np.arange(len(t6))
    plots.mean_and_interval(ax, ypos, t6["mean"], t6["low"], t6["high"], horizontal=True)
    ax.set_yticks(ypos, [mark(c) for c in t6["comparison"]])
    ax.invert_yaxis()
    ax.set(xlabel=f"τ, U1 vs U2 orderings (mean, {iv}, {replicates} replicates)", title="Table 6 across replicates")
    out.save_fig(fig, "replicates_table6")
    plt.show()
    return sim_rep


def _p_lines(src: str, s: pd.DataFrame, replicates: int, method: str, variants) -> None:
    """U2's p(R|i) over the draws: mean, sd, [min, max], this notebook's draw and its distance."""
    print(f"{src}: p(R|i) ({method}) over {replicates} draws -- mean, sd, "
          "[min, max]; this notebook's draw and its distance from the mean in sd")
    for t, g in s.groupby("theta", sort=False):
        print(f"  theta = {t}{'*' if t in variants else ''}: " + "; ".join(
            f"p(R|{r.level}) {claims.number(r.mean)} sd {claims.number(r.sd)} [{claims.number(r.vmin)}, "
            f"{claims.number(r.vmax)}] this {claims.number(r.this_run)} ({prm_values.draw_position(r)})"
            for r in g.sort_values("level", ascending=False).itertuples()))


def draws_section(replicates: int, seed: int, *, dataset: str, qrels_u1, reannotation, runs, other, variants,
                  method: str, out, metrics: MutableMapping, scheduler=None, progress: bool = False,
                  **study: Mapping) -> tuple:
    """The random second assessor redrawn ``replicates`` times on real data (``reannotation``: the
    ratings U2 is drawn from; ``other``: :func:`helpers.replicates.prm.other_sources`, whose RF10
    crowd worker is redrawn too; ``study``: the remaining keyword arguments of
    :func:`helpers.replicates.prm.draws`). Prints U2's p(R|i) over the draws and where this
    notebook's draw is atypical, saves ``draws_summary`` and ``metrics["draws"]``. Returns
    ``(u2_draws, rf_rep)``, each ``None`` when not drawn."""
    u2_draws = rf_rep = None
    if replicates < 2 or dataset == "simulated":
        print("draws of U2: none here (U2 is redrawn only on real data with several raters per item)")
        return u2_draws, rf_rep
    if reannotation is not None:
        u2_draws = prm_replicates.draws(replicates, seed, qrels_u1=qrels_u1, ratings=reannotation, runs=runs,
                                        scheduler=scheduler, progress=progress, method=method, details=True,
                                        udm_reps=100, **study)
    if other.rf is not None:   # RF10: the crowd worker per item (its spread: the draws_summary table, A.3)
        rf_rep = prm_replicates.p_draws(replicates, seed, qrels_u1=other.rf[0], ratings=other.rf[1],
                                        thresholds=other.rf[2], T=2, method="eq4", progress=progress)
    if u2_draws is None and rf_rep is None:
        print(f"dataset {dataset!r}: U2 is given as qrels, no random choice to redraw")
    tables = {}
    if u2_draws is not None:
        tables["U2 = one rater per item"] = u2_draws.p_table
        _p_lines("U2 = one rater per item", u2_draws.p_table, replicates, method, variants)
        star = lambda t: "*" if t in variants else ""  # noqa: E731
        if prm_values.atypical_line(u2_draws.p_table):
            print(prm_values.atypical_line(u2_draws.p_table, star))
    if rf_rep is not None:
        tables["RF10: one crowd worker per item"] = prm_replicates.rf_over_draws(rf_rep, other.rows, other.rf[2])
    if u2_draws is not None:
        tables["table6"] = u2_draws.table6
    if tables:
        all_draws = pd.concat([t.assign(source=n) for n, t in tables.items()], ignore_index=True)
        out.save_table(all_draws, "draws_summary", float_format="%.4f",
                       caption=f"Spread over {replicates} draws of the random second assessor")
        metrics["draws"] = {"R": replicates, "tables": tables}
    return u2_draws, rf_rep
