"""Notebook 03's section 9 (across draws), moved out of its cells: the replicates of the
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
    print(f"{src}: p(R|i) ({method}) over {replicates} draws -- mean, sd, range [min, max] of the draws; "
          "this notebook's draw and its distance from the mean in sd")
    for t, g in s.groupby("theta", sort=False):
        print(f"  theta = {t}{'*' if t in variants else ''}: " + "; ".join(
            f"p(R|{r.level}) {claims.number(r.mean)} sd {claims.number(r.sd)} range [{claims.number(r.vmin)}, "
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


def single_draw_note(dataset: str, random_u2: bool, replicates: int) -> str:
    """Where a single draw's numbers first appear (referee 9): what the sections before the across-draws
    section print is one draw -- of U2 (one rater per item, at random) on real data, of the whole
    collection on the simulation -- and where each value is given over every draw. ``""`` when the run
    has no random draw (U2 given as qrels)."""
    if dataset == "simulated":
        what, unit, this = "one simulated collection", "replicates", "this collection"
    elif random_u2:
        what, unit, this = "one draw of U2 (one rater per item, at random)", "draws of U2", "this draw"
    else:
        return ""
    if replicates < 2:
        return f"Sections 2-8 print {what}; replicates 1 redraws nothing, so every number rests on it."
    return (f"Sections 2-8 print {what}; section 9 and the key numbers give each value over {replicates} {unit} "
            f"first, {this} beside them, and the findings read those.")


def single_draw_tag(dataset: str, random_u2: bool, replicates: int) -> str:
    """A table caption's tail that names its values as one draw's (section 9 gives every draw)."""
    if replicates < 2 or not (dataset == "simulated" or random_u2):
        return ""
    return "; this draw of U2 only (every draw: section 9)" if random_u2 and dataset != "simulated" else \
        "; this simulated collection only (every replicate: section 9)"


def key_numbers(*, names: Sequence[str], all_thetas, variants, p_gain: Mapping, table6: pd.DataFrame, mark: Callable,
                sim=None, draws=None) -> list[str]:
    """Section 10's lines on p(R|T) and Table 6's tau: over the replicates (``sim``) or draws of U2
    (``draws``) first -- mean [spread of single draws] -- and this draw beside them, labelled so
    (referee 9: a single draw outside every redraw was printed alone); this collection's values alone
    when the run has neither."""
    T, name = len(names) - 1, (lambda th: f"{names[th]}{'*' * (th in variants)}")  # noqa: E731
    over_p, over6, n = {}, pd.DataFrame(), 0
    if draws is not None:
        p, this, n = draws.p_table, "this draw", draws.replicates
        over_p = {th: p[(p["theta"] == th) & (p["level"].astype(str) == str(T))].iloc[0] for th in all_thetas}
        over6 = draws.table6.set_index("gains")
    elif sim is not None:
        s, this, n = sim.summary, "this collection", sim.replicates
        est = s[s["table"] == "estimate"].set_index("comparison")
        over_p = {th: est.loc[f"p(R|{names[T]}), theta={names[th]}"] for th in all_thetas
                  if f"p(R|{names[T]}), theta={names[th]}" in est.index}
        over6 = s[s["table"] == "6"].set_index("comparison")
    one = lambda v: f"{claims.number(v)}"  # noqa: E731

    def cell(over, key, v):
        if key not in (over.index if isinstance(over, pd.DataFrame) else over):
            return one(v) + (f" ({this} only)" if n else "")
        r = over.loc[key] if isinstance(over, pd.DataFrame) else over[key]
        return f"{prm_values.spread(r['mean'], r['low'], r['high'])}, {this} {one(v)}"
    head = (f"over {n} {'draws of U2' if draws is not None else 'replicates'}: mean [{prm_values.spread_name(n)} of "
            f"single {'draws' if draws is not None else 'replicates'}], then {this}" if n else "this collection")
    lines = [f"p(R|top), {head}: " + "; ".join(f"theta = {name(th)} {cell(over_p, th, p_gain[th][T])}"
                                               for th in all_thetas)]
    label = lambda g: f", mean [{prm_values.spread_name(n)}]" if n and g in over6.index else ""  # noqa: E731
    lines += [f"robustness tau ({mark(r.gains)}){label(r.gains)}: {cell(over6, r.gains, r.tau)}"
              for r in table6.itertuples()]
    return lines


#: Section 2's description of each collection, printed only for the run's own (a real run reads no
#: simulation paragraph).
DATA_NOTES = {
    "simulated": (
        "Simulated: U1 judges every document of n_topics topics; U2 re-judges every document of a random half "
        "of them. FedWeb13 was sparser: about one result in five was judged twice, over about half of the "
        "topics (paper, Sect. 4.1 and 6.2). Levels Non, Rel, HRel, Key (0-3) come from a latent-relevance "
        "model whose exact p(R|i) lie close to the paper's Table 3 (section 3 prints the largest gap). Both "
        "assessors follow that model with the same cut-points: they are exchangeable, as the PRM assumes. Runs "
        "score documents by a noisy view of the latent relevance, with evenly spaced quality."),
    "dl19": (
        "dl19: U1 = the NIST qrels. U2 = one re-annotator per re-judged item, drawn at random among the "
        "(usually two) re-annotators of Parry et al., so that every item counts once; section 9 redraws that "
        "choice. Levels: 0 irrelevant, 1 'related', 2 highly relevant, 3 perfectly relevant. TREC counts "
        "levels >= 2 as relevant (Craswell et al. 2020), so relevance_threshold 0 takes theta = 2."),
}


def data_note(dataset: str) -> str:
    """Section 2's paragraph on how ``dataset``'s double judgments arise (:data:`DATA_NOTES`), wrapped
    at 100 characters; ``""`` for the user's own files (their parameters say it)."""
    import textwrap

    return textwrap.fill(DATA_NOTES.get(dataset, ""), 100)
