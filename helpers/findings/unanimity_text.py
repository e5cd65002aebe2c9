"""Notebook 02's printed text: the brackets and ranges of its numbers, the tables of sections 4-7 in
the paper's layout, the words of the real-ratings contrast (section 6) and the effect sizes of a
draw's discrepancies (metrics only). :mod:`helpers.findings.unanimity` builds the findings table from the same numbers and
re-exports these names.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from .. import unanimity
from ..notebook import claims

__all__ = ["bracket", "count_bracket", "range_text", "SAME", "SAME_SHORT", "cell_view", "table2_view", "chance_outside",
           "table2_lines", "read_real", "effect_sizes", "hsd_runs_line",
           "signed", "signed_count", "show_replicates", "table3_lines", "discrepancy_figure", "real_lines",
           "real_metrics", "variant_metrics", "summary_lines", "fit_line", "placebo_line", "control_line",
           "placebo_tau_line", "control_tau_line", "control_lines", "skill_sd_line", "fit_state", "tried_text",
           "placebo_verdict", "placebo_prose", "dropped_topics_line"]


def bracket(mean: float, low: float, high: float, digits: int = 3, *, note: bool = True) -> str:
    """``"0.520 [0.410, 0.630]"`` (:func:`helpers.notebook.claims.bracket`), or the value alone when
    every draw gave it: an interval of zero width says nothing an interval should. ``note=False``
    leaves out the remark on a mean outside its interval (a table marks it once, with a †)."""
    if low == high and abs(float(mean) - float(low)) <= 1e-12 * max(1.0, abs(float(low))):
        return claims.number(low, digits)
    if not note:
        return f"{claims.number(mean, digits)} [{claims.number(low, digits)}, {claims.number(high, digits)}]"
    return claims.bracket(mean, low, high, digits)


def count_digits(*values: float) -> int:
    """Decimals for mean counts printed together (a difference of two takes theirs): one while every non-zero
    value is 0.1 or more, else two significant digits of the smallest (at most 4), so that parts and
    totals agree ("0.025" and "0.025" beside a total "0.050", never "0.03", "0.03" and "0.1")."""
    v = [abs(float(x)) for x in values if np.isfinite(x) and 0 < abs(float(x)) < 0.1]
    return min(4, 1 - int(np.floor(np.log10(min(v))))) if v else 1


def mean_count(v: float, digits: int | None = None) -> str:
    """A mean count to :func:`count_digits` decimals (``digits`` when given: a shared rule)."""
    return claims.number(v, count_digits(v) if digits is None else digits)


def count_bracket(mean: float, low: float, high: float) -> str:
    """A mean count with the interval of its draws, whose bounds are counts (order statistics):
    ``"1.9 [0, 5]"``; the count alone (``"0"``) when every draw gave it."""
    if low == high and abs(float(mean) - float(low)) < 1e-12:
        return f"{int(round(low))}"
    return f"{mean_count(mean)} [{int(round(low))}, {int(round(high))}]"


def range_text(mean: float, low: float, high: float, draws: int, unit: str = "replicates", digits: int | None = None,
               signed: bool = False) -> str:
    """A mean over draws and the range they span, named as what it is
    (:func:`helpers.replicates.unanimity.range_name`): ``"mean 26.4, 17 to 37 (range over 40
    replicates)"``, or ``"2 in every one of 40 replicates"`` when every draw gave the same. With
    ``digits`` None the bounds are counts (the mean to 1 decimal); else every number to ``digits``
    (``signed``: with its sign, as differences are)."""
    from ..replicates.unanimity import range_name

    if digits is None:
        bound, avg = (lambda v: _signed_count(v) if signed else f"{int(round(v))}"), (
            lambda v: _signed(v, 2) if signed else mean_count(v))
    else:
        bound = avg = (lambda v: _signed(v, digits)) if signed else (lambda v: claims.number(v, digits))
    if low == high and abs(float(mean) - float(low)) <= 1e-12 * max(1.0, abs(float(low))):
        return f"{bound(low)} in every one of {int(draws)} {unit}"
    return f"mean {avg(mean)}, {bound(low)} to {bound(high)} ({range_name(draws, unit)})"


def _signed_count(v: float) -> str:
    """``+2``, ``-1``, ``0`` (a count difference; no sign on 0)."""
    return f"{int(round(v)):+d}" if int(round(v)) else "0"


def _signed(v: float, digits: int = 3) -> str:
    """``+0.020``, ``−0.0004`` (never ``+0.000`` for a value that is not 0)."""
    v = float(v)
    return ("+" if v >= 0 else "-") + claims.number(abs(v), digits, marks=(0.0,))


#: A cell where UG equals RawG on every item in every draw (:func:`helpers.replicates.unanimity.identical_cells`).
SAME = "UG = RawG: nothing to test"


#: :data:`SAME` in the narrow views the notebook prints (a line under the table says what it means).
SAME_SHORT = "UG = RawG"


def _mean_count(mean: float, low: float, high: float) -> str:
    """A mean count (:func:`mean_count`), or the count alone (``"0"``) when every draw gave it."""
    return count_bracket(mean, low, high) if low == high else mean_count(mean)


def cell_view(cells: pd.DataFrame, measure: str, ranges: bool = False) -> tuple[pd.DataFrame, bool]:
    """One measure's cells as the notebook shows them (rows Dmax, columns N): ``"mean τ | mean
    discrepancies"`` over the draws, :data:`SAME_SHORT` where UG equals RawG in every draw
    (``ug_equals_rawg``); the ranges stay in the saved table. With ``ranges``, the wide form
    ``"τ [low, high] | discrepancies [low, high]"`` with a ``†`` where a mean lies outside its
    draws' interval, and :data:`SAME`. Returns the table and whether any cell has a ``†``."""
    mark = lambda m, lo, hi: "†" if m < lo - 1e-12 or m > hi + 1e-12 else ""  # noqa: E731  (a skewed count)
    view = cells[cells["measure"] == measure]
    same = view["ug_equals_rawg"] if "ug_equals_rawg" in view.columns else [False] * len(view)
    cols = (view.tau_mean, view.tau_low, view.tau_high, view.disc_mean, view.disc_low, view.disc_high, same)
    if ranges:
        text = [SAME if u else f"{bracket(a, b, c, note=False)}{mark(a, b, c)} | {count_bracket(d, e, g)}{mark(d, e, g)}"
                for a, b, c, d, e, g, u in zip(*cols)]
    else:
        text = [SAME_SHORT if u else f"{claims.number(a, 3)} | {_mean_count(d, e, g)}"
                for a, b, c, d, e, g, u in zip(*cols)]
    wide = view.assign(cell=text).pivot(index="d_max", columns="n", values="cell")
    wide.columns = [f"N = {n}" for n in wide.columns]
    wide.index.name = "Dmax"
    return wide, any("†" in t for t in text)


def table2_view(comparison: pd.DataFrame, measure: str, ranges: bool = False) -> pd.DataFrame:
    """One measure's Table 2 comparison in the paper's layout: ``"paper | mean in"`` per cell
    (``above``/``below`` where the paper's tau lies outside the stand-in's range, ``(in)`` where it
    lies inside whatever the stand-in does, :data:`SAME_SHORT` where UG = RawG in every draw); the
    ranges stay in the saved table. With ``ranges``: ``"paper | mean [low, high] in"``, ``in (τ = 1)``
    and :data:`SAME`."""
    view = comparison[comparison["measure"] == measure]
    same = view["ug_equals_rawg"] if "ug_equals_rawg" in view.columns else [False] * len(view)
    where = ["in" if ins and inf else ("in (τ = 1)" if ranges else "(in)") if ins else side
             for ins, inf, side in zip(view.inside, view.informative, view.side)]
    shown = (lambda m, lo, hi: bracket(m, lo, hi, note=False)) if ranges else (  # noqa: E731
        lambda m, lo, hi: claims.number(m, 3))
    text = [f"{unanimity.fmt_tau(p)} | " + ((SAME if ranges else SAME_SHORT) if u else f"{shown(m, lo, hi)} {w}")
            for p, m, lo, hi, w, u in zip(view.paper, view["mean"], view.low, view.high, where, same)]
    wide = view.assign(cell=text).pivot(index="d_max", columns="n", values="cell")
    wide.columns = [f"N = {n}" for n in wide.columns]
    wide.index.name = "Dmax"
    return wide


def chance_outside(cells: int, coverage: float = 0.95) -> int:
    """How many of ``cells`` independent intervals, each holding its value with probability
    ``coverage``, may miss by chance: the 95th percentile of Binomial(cells, 1 - coverage)
    (45 cells at 95%: 5; 28 cells at 39/41, the coverage of the extremes of 40 draws: 3)."""
    from scipy.stats import binom

    return int(binom.ppf(0.95, int(cells), 1.0 - float(coverage)))


def table2_lines(t2: pd.DataFrame) -> list[str]:
    """What the notebook prints under the Table 2 comparison: the count of informative cells
    inside, which lie outside, and what chance allows at the intervals' coverage."""
    inf = t2[t2["informative"]]
    out = inf[~inf["inside"]]
    cov = float(t2["coverage"].iloc[0])
    same = int(t2["ug_equals_rawg"].sum()) if "ug_equals_rawg" in t2.columns else 0
    trivial = len(t2) - len(inf) - same
    where = ", ".join(f"{r.measure} Dmax={r.d_max} N={r.n} ({r.side})" for r in out.itertuples()) or "none"
    lines = [f"{same} of {len(t2)} (cell, measure) pairs have UG = RawG on every item in every replicate: nothing to test"] if same else []
    return lines + [
        f"{trivial} of {len(t2)} (cell, measure) pairs are not informative, marked (in): the paper's τ is 1 and the stand-in's "
        "range ends at 1, so it lies inside whatever the stand-in gives",
        f"informative (cell, measure) pairs with the paper's τ inside: {int(inf['inside'].sum())} of {len(inf)}; outside: {where}",
        f"each range holds a new draw with probability {cov:.1%} ({_cover(t2)}): chance allows "
        f"{chance_outside(len(inf), cov)} of {len(inf)} outside (95th percentile, taken as independent)",
        f"mean gap, paper - stand-in, over all {len(t2)} (cell, measure) pairs: {_signed((t2['paper'] - t2['mean']).mean(), 4)}",
        "the paper prints τ to 3 digits: a τ within 0.0005 of a range (its rounding) counts as inside"]


def _cover(t2: pd.DataFrame) -> str:
    """How the intervals' coverage follows from the number of draws R: (R + 1 - 2k) / (R + 1)."""
    from ..replicates.unanimity import order_interval

    r = int(t2["draws"].iloc[0])
    k = order_interval(np.arange(r, dtype=float))["k"]   # k depends on R only
    ends = "the smallest and largest" if k == 1 else f"the {_ordinal(k)} smallest and largest"
    return f"{ends} of {r} draws: {r + 1 - 2 * k}/{r + 1}"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def read_real(real, graded, draws: int, p: float = 0.2) -> tuple[dict, dict]:
    """The words of section 6 (:class:`helpers.replicates.unanimity.RealContrast`): ``premise``
    (per spread quantity, real against uniform ratings with the same RawG, by
    :func:`helpers.notebook.claims.compare`) and ``conjecture`` (per graded measure: the numbers of
    :func:`helpers.replicates.unanimity.conjecture` with the printed lines ``tau_text`` and
    ``disc_text``, and ``nothing``: UG = RawG on every item of the real and the uniform ratings)."""
    from ..replicates.unanimity import fixed

    premise = {}
    sp = real.spread.set_index(["quantity", "ratings"])
    for col in ("share_full_spread", "mean_spread"):
        r, s = sp.loc[(col, "real")], sp.loc[(col, "simulated")]
        premise[col] = claims.compare("real", fixed(r), "simulated", s["mean"], interval_a=(r["low"], r["high"]),
                                      interval_b=(s["low"], s["high"]))
    full = sp.loc[("share_full_spread", "real"), "low"] >= 1 and sp.loc[("share_full_spread", "simulated"), "low"] >= 1
    nothing = float(p) == 0.0 or bool(full)
    conjecture = {}
    for c in real.tests.to_dict(orient="records"):
        if c["measure"] not in graded:
            continue
        tau_real = claims.number(c["tau_real"]) if c["tau_real_fixed"] else claims.number(c["tau_real"], 3)
        power = lambda pre: (f"power {c[pre + '_power']:.3f} (approximate 95% CI {c[pre + '_power_low']:.3f} to "  # noqa: E731
                             f"{c[pre + '_power_high']:.3f})" if np.isfinite(c[pre + "_power"]) else "no power (one draw)")
        if c["draws"] < 2:   # one uniform draw: a difference, no interval, nothing read from it
            c["tau_text"] = (f"one draw: τ real {tau_real}, uniform {claims.number(c['tau_sim'], 3)}; real − uniform "
                             f"{_signed(c['dtau'])}: no interval, so not read")
            c["disc_text"] = (f"one draw: discrepancies real {int(round(c['disc_real']))}, uniform "
                              f"{int(round(c['disc_sim']))}: no interval, so not read")
        else:
            c["tau_text"] = (f"τ real {tau_real}, uniform {bracket(c['tau_sim'], c['tau_sim_low'], c['tau_sim_high'])}; "
                             f"real − uniform {_signed(c['dtau'])} [{_signed(c['dtau_low'])}, "
                             f"{_signed(c['dtau_high'])}]: {_part_word(c, 'tau')}; {power('tau')}")
            c["disc_text"] = (f"discrepancies real {count_bracket(c['disc_real'], *_real_range(real, c['measure']))}, "
                              f"uniform {count_bracket(c['disc_sim'], c['disc_sim_low'], c['disc_sim_high'])}; real − "
                              f"uniform {claims.number(c['ddisc'], 2)} [{int(c['ddisc_low'])}, {int(c['ddisc_high'])}]: "
                              f"{_part_word(c, 'disc')}; {power('disc')}")
        c["nothing"] = nothing
        conjecture[c["measure"]] = c
    return premise, conjecture


#: A part's state (:func:`helpers.replicates.unanimity.conjecture`) as printed.
_PART = {"holds": "real lower/more, as conjectured", "other way": "the other way", "not shown": "no difference shown"}


def _part_word(c: Mapping, pre: str) -> str:
    """A part's state; with fewer draws than a 95% interval needs, the range is not read."""
    if c["draws"] < claims.min_draws():
        return f"a range of {c['draws']} draws, not read"
    return _PART[c[f"{pre}_part"]]


def _real_range(real, measure: str) -> tuple[float, float]:
    t = real.table.set_index(["ratings", "measure"]).loc[("real", measure)]
    return float(t["disc_low"]), float(t["disc_high"])


def effect_sizes(table3: pd.DataFrame) -> dict:
    """The effect sizes of a draw's discrepancies beside Sakai's Table 3 (notebook 02's metrics file;
    from the stand-in's score matrices, they cannot tell which divisor the paper used):
    ``paper_divisor`` and ``paper_es_hsd`` (ranges over the transcribed rows: |d| / ES_HSD and
    ES_HSD) and, when the draw has discrepancies, ``es_hsd`` (|d| / √V_E), ``es_var`` (|d| / V_E),
    ``sqrt_ve`` (√V_E) and ``es_var_overlaps_paper``."""
    from .. import paths

    t3 = pd.read_csv(paths.DATA_RAW / "sakai2017_table3.csv")  # Sakai (2017), Table 3, as printed
    paper_es = np.r_[t3["es_hsd_RawG"], t3["es_hsd_UG"]]
    div = np.r_[t3["abs_diff_RawG"] / t3["es_hsd_RawG"], t3["abs_diff_UG"] / t3["es_hsd_UG"]]
    out = {"paper_divisor": [float(div.min()), float(div.max())],
           "paper_es_hsd": [float(paper_es.min()), float(paper_es.max())], "paper_rows": len(t3)}
    if len(table3):
        es, es_var = np.r_[table3["es_hsd_RawG"], table3["es_hsd_UG"]], np.r_[table3["es_var_RawG"], table3["es_var_UG"]]
        sd_e = np.r_[table3["abs_diff_RawG"], table3["abs_diff_UG"]] / es
        out.update({"es_hsd": [float(es.min()), float(es.max())], "es_var": [float(es_var.min()), float(es_var.max())],
                    "sqrt_ve": [float(sd_e.min()), float(sd_e.max())],
                    "es_var_overlaps_paper": bool(es_var.max() >= paper_es.min() and es_var.min() <= paper_es.max())})
    return out


def hsd_runs_line(best_run_by: str, measure: str) -> str:
    """Appendix E's sentence on the best-run table, from ``best_run_by``: whether the significance
    tests compared these runs."""
    if best_run_by == "official":
        return f"The significance tests compare these runs: each team's best by mean official {measure}, chosen once."
    return (f"For reference only: best_run_by {best_run_by!r} picks each team's run per cell by mean RawG, so the "
            "tests did not compare these runs (the metrics file lists the runs of each cell).")


#: Public names of the signed formats (the findings rows use them).
signed, signed_count = _signed, _signed_count


# ---------------------------------------------------------------------------------------------
# what the notebook's cells of sections 6-8 and Appendix A print (moved out of the cells)

def show_replicates(grid, measure_names, blind, replicates: int) -> None:
    """Section 7: per measure, each cell's mean τ and discrepancies with their ranges over the
    replicates (:func:`cell_view`; UG = RawG cells say so), then the discrepancies per N."""
    from ..notebook import reports
    from ..replicates.unanimity import range_name

    iv = range_name(replicates)
    print(f"per cell: mean tau | mean discrepancies over {replicates} replicates (their ranges: the saved "
          "02_replicates_cells.csv)")
    if "ug_equals_rawg" in grid.cells.columns and grid.cells["ug_equals_rawg"].any():
        print(f"entries marked {SAME_SHORT}: UG equals RawG on every item of that (cell, measure) pair in every replicate, nothing to test")
    for m in measure_names:
        if m in blind:
            print(f"({m}) it cannot tell RawG from UG (only sees whether a gain is > 0)")
            continue
        view, skewed = cell_view(grid.cells, m)
        print(f"({m})")
        reports.show(view, index=True, caption=f"({m}) mean tau and discrepancies over {replicates} replicates")
        if skewed:
            print(f"† the mean lies outside the {iv} (a skewed count: most draws at one end)")
    print(f"discrepancies per N summed over measures and Dmax: mean [{iv}], replicates with none")
    print("\n".join(f"  N = {int(n)}: {count_bracket(r['mean'], r['low'], r['high'])}, none in "
                    f"{int(r['zero'])} of {replicates}" for n, r in grid.by_n.iterrows()))


def dropped_topics_line(tau: pd.DataFrame, topics: int) -> str:
    """Section 4: the cells of the single draw that leave a topic out because its simulated ratings
    are all 0 (no positive gain, so no ideal list; :class:`helpers.unanimity.GainScorer`), from the
    ``topics`` column of ``tau``, against the collection's ``topics``; "" when no cell does."""
    per_cell = tau.groupby(["d_max", "n"])["topics"].min()
    short = per_cell[per_cell < topics]
    if short.empty:
        return ""
    return (f"{claims.plural(len(short), 'cell')} of {len(per_cell)} {'leaves' if len(short) == 1 else 'leave'} out a topic whose simulated ratings are "
            f"all 0 in this draw (fewest topics: {int(short.min())} of {topics}; column topics of the saved "
            "02_table2_tau.csv)")


def table3_lines(total: Mapping | None, cells: pd.DataFrame | None) -> list[str]:
    """Section 7's lines on Table 3: the paper's total against the replicates' range, and the per-cell
    check with how many of its ranges start at 0 (a check that cannot fail there)."""
    from ..replicates.unanimity import range_name

    if total is None:
        return ["none of the paper's Table 3 (cell, measure) pairs is in this run's grid: nothing to set against it"]
    zero = int((cells["disc_low"] <= 0).sum())
    return [f"Table 3 total over the {total['cells']} shared (cell, measure) pairs: paper {total['paper']}; stand-in "
            f"{count_bracket(total['mean'], total['low'], total['high'])} ({range_name(total['replicates'])}): "
            + ("inside" if total["inside"] else "OUTSIDE"),
            f"per (cell, measure) pair: the paper's count inside {claims.share_of(int(cells['inside'].sum()), len(cells), '(cell, measure) pair')}; "
            f"{zero} of the {len(cells)} ranges start at 0 (little power there)"]


def discrepancy_figure(grid, measure_names, d_max_list, n_list, replicates: int):
    """Section 7's figure: mean discrepancies and their range over the replicates against N, one
    panel per measure, a line per Dmax."""
    import matplotlib.pyplot as plt

    from ..notebook import plots, style
    from ..replicates.unanimity import range_name

    fig, axes = plt.subplots(1, len(measure_names), figsize=style.figsize("full", height=2.4), sharey=True,
                             squeeze=False)
    for ax, m in zip(axes[0], measure_names):
        for d in d_max_list:
            g = grid.cells[(grid.cells.measure == m) & (grid.cells.d_max == d)]
            line = ax.plot(g["n"], g["disc_mean"], "-", lw=0.8)[0]
            plots.mean_and_interval(ax, g["n"], g["disc_mean"], g["disc_low"], g["disc_high"], color=line.get_color(),
                                    label=f"$D_{{\\max}}$ = {d}")
        ax.set(xlabel="N (ratings per item)", title=m)   # the measure only: longer titles collide in print
        plots.log_axis(ax, n_list)  # labels at the grid's N only (log-axis minor labels overlap in print)
    fig.suptitle(f"discrepancies: mean and {range_name(replicates)}", fontsize="medium")
    axes[0][0].set_ylabel("discrepancies")
    axes[0][-1].legend()
    return fig


def real_lines(premise: Mapping, conjecture: Mapping, blind, draws: int) -> list[str]:
    """Section 6's lines: the premise (real against uniform spread) and, per measure, the test of
    the conjecture (:func:`read_real`'s texts)."""
    from ..replicates.unanimity import range_name

    iv = range_name(draws, "draws")
    lines = [f"PREMISE (simulated: mean [{iv}]) - share of items with RawG > 0 at D = Dmax: "
             f"{premise['share_full_spread']}", f"PREMISE - mean spread D: {premise['mean_spread']}",
             f"TEST - per measure, real against uniform ratings (mean [{iv}]; power with its approximate 95% CI):"]
    lines += [f"  {m}: only sees whether a gain is > 0, so UG scores ratings of the same RawG alike: nothing to test"
              for m in blind]
    for m, c in conjecture.items():
        lines += [f"  {m}: {c['tau_text']}", f"  {m}: {c['disc_text']}"]
    return lines


def real_metrics(real, real_data, premise: Mapping, draws: int, theta: int) -> dict:
    """Section 6's entry of the metrics file."""
    return {"draws": draws, "relevance_threshold": theta, "items": len(real_data.qrels),
            "held_fixed": "RawG of every item", "premise": {k: v.numbers for k, v in premise.items()},
            "table": real.table, "conjecture": real.tests,
            "official_copies": real_data.copies.copies() if real_data.copies is not None else []}


def variant_metrics(summary: pd.DataFrame) -> dict:
    """Section 8: τ, its CI, the discrepancies and the significant pairs per measure, Dmax and N."""
    return {m: {f"Dmax={d}": {f"N={n}": {"tau": r["tau"], "ci": [r["low"], r["high"]],
                                         "discrepancies": int(r["discrepancies"]),
                                         "significant_RawG": int(r["significant_RawG"]),
                                         "significant_UG": int(r["significant_UG"])}
                              for n, r in g2.set_index("n").iterrows()}
                for d, g2 in g.groupby("d_max")}
            for m, g in summary.groupby("measure", sort=False)}


def summary_lines(summary: pd.DataFrame, measure_names, blind, grid=None) -> list[str]:
    """Section 8's line per measure: the range of τ and the discrepancies over its cells in the single
    draw, one draw of a count whose spread over the replicates (``grid``,
    :class:`helpers.replicates.unanimity.GridSummary`) is printed beside it: mean, sd and range."""
    out = ["one draw (its spread over the replicates beside it)" if grid is not None else
           "one draw (no replicates: its Monte Carlo spread is not measured)"]
    for m in measure_names:
        s = summary[summary.measure == m]
        k = int(s["discrepancies"].sum())
        spread = ""
        if grid is not None and m not in blind:
            per = grid.rep[grid.rep["measure"] == m].groupby("replicate")["discrepancies"].sum()
            spread = (f" (over {len(per)} replicates: mean {mean_count(per.mean())}, sd "
                      f"{claims.number(per.std(ddof=1), 1)}, {int(per.min())} to {int(per.max())})")
        out.append(f"{m}: tau {claims.number(s['tau'].min())}..{claims.number(s['tau'].max())}, discrepancies {k}"
                   + spread + (" (by construction: it only sees whether a gain is > 0)" if m in blind else ""))
    graded = [m for m in measure_names if m not in blind]
    if grid is not None and len(graded) > 1:   # the total the findings table's row reads
        per = grid.rep[grid.rep["measure"].isin(graded)].groupby("replicate")["discrepancies"].sum()
        k = int(summary.loc[summary.measure.isin(graded), "discrepancies"].sum())
        out.append(f"total of the graded measures: discrepancies {k} (over {len(per)} replicates: mean "
                   f"{mean_count(per.mean())}, sd {claims.number(per.std(ddof=1), 1)}, "
                   f"{int(per.min())} to {int(per.max())})")
    return out


def fit_state(fit: pd.DataFrame | None, sd: float) -> str:
    """Whether ``sd`` is the fit's pick (``"picked"``), another spread the fit tried (``"tried"``:
    one of ``fit["skill_sd"]`` within 1e-9, not merely between its smallest and largest) or neither
    (``"untried"``; also without a fit record or a finite ``sd``)."""
    if fit is None or not np.isfinite(sd):
        return "untried"
    best = fit.loc[fit["best"], "skill_sd"].iloc[0]
    if np.isclose(best, sd, rtol=0, atol=1e-9):
        return "picked"
    return "tried" if np.isclose(fit["skill_sd"].to_numpy(dtype=float), float(sd), rtol=0, atol=1e-9).any() else "untried"


_fit_state = fit_state


def tried_text(fit: pd.DataFrame) -> str:
    """The spreads the fit tried, in words (``"0.25, 0.35, ..., 1.2"`` written out in full)."""
    return ", ".join(f"{v:g}" for v in sorted(fit["skill_sd"]))


def skill_sd_line(fit: pd.DataFrame | None, sd: float) -> str:
    """Section 7's line before the Table 3 check: whether this run's team-skill sd is the one fitted
    to Table 2's τ, so whether the check is of the calibrated stand-in (the markdown cannot know)."""
    if fit is None or not np.isfinite(sd):
        return "team_skill_sd: not the stand-in's fitted one (no fit record for this run)"
    state, best = _fit_state(fit, sd), fit.loc[fit["best"], "skill_sd"].iloc[0]
    return {"picked": f"team_skill_sd {sd:g}: the value fitted to Table 2's τ, so this checks the calibrated "
                      "stand-in, not an independent one",
            "tried": f"team_skill_sd {sd:g}: not the fit's pick ({best:g}) but a value the fit to Table 2's τ "
                     "tried, so this checks a calibrated stand-in",
            "untried": f"team_skill_sd {sd:g}: not fitted to Table 2's τ (the fit picks {best:g}; it tried "
                       f"{tried_text(fit)})"}[state]


def no_fit_line(setting: Mapping) -> str:
    """Appendix A's line when :func:`helpers.replicates.unanimity.fit_for` gives no fit: why there is none."""
    from ..replicates.unanimity import FIT_SETTING, PAPER_SETTING

    if setting["dataset"] != PAPER_SETTING["dataset"]:
        return f"the stand-in is not used by this run (dataset {setting['dataset']!r}): no fit to show"
    off = [f"{k} {setting[k]!r}" for k in FIT_SETTING if setting[k] != PAPER_SETTING[k]]
    return ("the fit of the team-skill sd to Table 2 was made in the paper's setting, not at this run's "
            + ", ".join(off) + ": no fit to show")


def fit_line(fit: pd.DataFrame, sd: float) -> str:
    """Appendix A's line under the fit's record: the fitted value, the smallest RMS gap, this run's
    value and whether the fit tried it."""
    best = fit.loc[fit["best"], "skill_sd"].iloc[0]
    note = {"picked": "", "tried": " (not the fit's pick, but a value it tried)",
            "untried": " (NOT a value the fit tried)"}[_fit_state(fit, sd)]
    return (f"fitted team_skill_sd: {best:g} (smallest RMS gap at {fit.loc[fit['rmse'].idxmin(), 'skill_sd']:g}); "
            f"this run: {sd:g}{note}")


def placebo_line(one: Mapping) -> str:
    """Section 5's line on the placebo of the single draw (:func:`helpers.replicates.unanimity_placebo.single_draw`)."""
    if not one["cells"]:
        return "placebo: not tested in this draw"
    return (f"placebo of UG's size (UG's bonuses shuffled within topics), same {one['cells']} cells and permutations: "
            f"{claims.plural(one['placebo'], 'discrepancy', 'discrepancies')}; UG: {one['ug']} (one draw each, with Monte "
            "Carlo spread: with `replicates` ≥ 2, section 7 compares them)")


def control_line(control: Mapping | None, scope: str) -> str:
    """Section 7's line on UG against its placebo over the replicates
    (:func:`helpers.replicates.unanimity_placebo.compare`)."""
    if control is None:
        return "placebo: no cell tested it, or no graded measure"
    d = count_digits(control["ug"], control["placebo"])
    diff = (claims.mean_ci(control["diff"], control["low"], control["high"], control["replicates"], digits=d).text
            if np.isfinite(control["low"]) else f"{_signed(control['diff'], d)} (too few replicates for an interval)")
    return (f"placebo on {scope}: discrepancies per replicate, UG {claims.number(control['ug'], d)}, placebo "
            f"{claims.number(control['placebo'], d)}; UG - placebo {diff}")


def control_lines(control: Mapping | None, control_tau: Mapping | None, scope: str, graded) -> str:
    """Section 7's lines on UG against its placebo (:func:`control_line`, :func:`control_tau_line`),
    or one line saying why neither was tested: no graded measure, or no cell with a placebo."""
    if control is None and control_tau is None:
        return ("placebo: not tested, " + ("no cell tested it" if len(graded) else
                                           "no graded measure (the selected measures cannot see UG's bonus)"))
    return control_line(control, scope) + "\n" + control_tau_line(control_tau, scope)


def placebo_tau_line(one: Mapping) -> str:
    """Section 4's line on the placebo's ranking in the single draw
    (:func:`helpers.replicates.unanimity_placebo.single_draw`)."""
    if not one.get("tau_pairs"):
        return "placebo: not tested in this draw"
    return (f"placebo of UG's size (UG's bonuses shuffled within topics), same draw: τ with RawG's ranking < 1 in "
            f"{one['tau_below_placebo']} of {one['tau_pairs']} (cell, measure) pairs; UG: {one['tau_below_ug']} (one draw each, with Monte "
            "Carlo spread: with `replicates` ≥ 2, section 7 compares them)")


def control_tau_line(control: Mapping | None, scope: str) -> str:
    """Section 7's line on UG's τ with RawG against the placebo's over the replicates
    (:func:`helpers.replicates.unanimity_placebo.compare_tau`)."""
    if control is None:
        return "placebo: no cell tested it, or no graded measure"
    diff = (claims.mean_ci(control["diff"], control["low"], control["high"], control["replicates"], digits=4).text
            if np.isfinite(control["low"]) else f"{_signed(control['diff'], 4)} (too few replicates for an interval)")
    return (f"placebo on {scope}: mean τ with RawG's ranking, UG {claims.number(control['ug'], 4)}, placebo "
            f"{claims.number(control['placebo'], 4)}; UG - placebo {diff}; τ < 1 in every replicate: UG "
            f"{control['every_ug']}, placebo {control['every_placebo']} of {control['pairs']} (cell, measure) pairs")


def placebo_verdict(control: Mapping, simulated: bool) -> tuple[str, str, tuple]:
    """A placebo row's Holm p in words, its verdict and caveats. With simulated ratings (``simulated``)
    the row checks the simulation (caveat ``placebo_sim``) but keeps the verdict its numbers give: the
    placebo's null is not structural there (UG's bonus correlates with an item's distance from its
    topic's mean RawG; the within-topic shuffle removes that)."""
    at = "" if control.get("run_alpha", 0.05) == 0.05 else " (α = 0.05; the HSD's α sets the calls only)"
    p = (f"; Holm p {claims.format_p(control['p_holm'], 0.05)}{at}" if np.isfinite(control.get("p_holm", np.nan)) else "")
    verdict = control["verdict"]
    if simulated and verdict in ("shown", "does not hold"):   # a direction the uniform ratings set
        p += f"; {MODEL_SET}"
    cav = ("placebo_holm",) if p else ()   # by the model or not: helpers.findings.unanimity_placebo.by_construction
    return p, verdict, cav


#: What a placebo row and the answer say when simulated ratings give UG and its placebo different
#: means: the direction follows from the rating model (caveat ``placebo_sim``), not from UG.
MODEL_SET = "the rating model sets its direction (by construction), not a finding about UG"


#: What :func:`placebo_prose` says of each comparison with the placebo, by verdict: (reordering,
#: significance calls) apart, and both at once when their verdicts agree.
_AGAINST = {"shown": ("UG reorders runs more", "UG changes more significance calls",
                      "UG reorders runs more and changes more significance calls"),
            "does not hold": ("UG reorders runs less", "UG changes fewer significance calls",
                              "UG reorders runs less and changes fewer significance calls"),
            "not shown": ("no difference shown in reordering", "no difference shown in significance calls",
                          "no difference shown in reordering or in significance calls"),
            "cannot tell": ("cannot tell for reordering", "cannot tell for significance calls",
                            "cannot tell for reordering or for significance calls")}


def placebo_prose(control: Mapping | None, scope: str, all_cells: bool, control_tau: Mapping | None = None,
                  simulated: bool = False) -> str:
    """The bullet on UG against its placebo: significance calls (``control``,
    :func:`helpers.replicates.unanimity_placebo.compare`) and, when given, the reordering of runs
    (``control_tau``, :func:`helpers.replicates.unanimity_placebo.compare_tau`) in one sentence.
    ``simulated`` (the ratings are simulated) is kept for the callers; the verdicts are the numbers'."""
    if control is None:
        return ""
    all_cells = all_cells or scope.startswith("all ")       # every cell of the grid: nothing more for `paper`

    def v(c):
        return c["verdict"]

    if control_tau is not None:
        vt, vs = v(control_tau), v(control)
        body = _AGAINST[vt][2] if vt == vs else f"{_AGAINST[vt][0]}; {_AGAINST[vs][1]}"
        return (f"Against a placebo of UG's size, on {scope}" + ("" if all_cells else " (profile `paper`: all cells)")
                + f": {body}.")
    where = f" (on {scope}" + ("" if all_cells else "; profile `paper` tests all cells") + ")"
    return {"shown": "UG changes more significance calls than a placebo of its size: shown",
            "not shown": "UG changes no more significance calls than a placebo of its size: no difference shown",
            "does not hold": "UG changes fewer significance calls than a placebo of its size",
            "cannot tell": "Whether UG changes more significance calls than a placebo of its size: cannot tell",
            }[v(control)] + where + "."


def answer_sentence(rows, replicates: int, control: Mapping | None, replicated: bool) -> str:
    """The answer printed above the findings table, from every row's verdict: with replicates, UG
    against a placebo of its size in reordering runs and in significance calls (:data:`_AGAINST`,
    from each test's own verdict, with the calls per replicate of ``control``,
    :func:`helpers.replicates.unanimity_placebo.compare`), said to be what uniform ratings predict
    when the rows read "by construction"; with one draw, that the comparison needs replicates;
    otherwise the first row's answer (:func:`_clause`). The other rows (the stand-in against the
    paper's tables, the real ratings' spread, Sakai's conjecture) follow, a sentence whenever one
    would pass 45 words."""
    if not rows:
        return ""
    placebo = [r for r in rows if r.question.startswith("Over ") and "placebo of its size" in r.question]
    rest = [r for r in rows if r not in placebo]
    if replicated and len(placebo) == 2:
        v = tuple(r.numbers.get("test_verdict", r.verdict) for r in placebo)
        said = (_AGAINST[v[0]][2] if v[0] == v[1] and v[0] in _AGAINST else
                "; ".join(_AGAINST[x][i] if x in _AGAINST else x for i, x in enumerate(v)))
        d = count_digits(control["ug"], control["placebo"]) if control is not None else 1
        calls = (f" (calls per replicate: UG {claims.number(control['ug'], d)}, placebo "
                 f"{claims.number(control['placebo'], d)})" if control is not None else "")
        if placebo[0].verdict == "by construction":
            calls += (f" ({MODEL_SET.replace('its direction', 'the direction')})"
                      if any(x in ("shown", "does not hold") for x in v) else ", as uniform ratings predict (by construction)")
        head = f"Answer, over {replicates} simulated replicates against a placebo of UG's size: {said}{calls}"
    elif not replicated and rows[0].question == RANK_Q:
        head = ("Answer: this run has one draw, so UG cannot be set against a placebo of its size "
                "(that needs `replicates` ≥ 2); the table gives what one draw shows")
        rest = [r for r in rows[1:] if r.question not in (RANK_Q, SIG_Q)]
    else:
        head, rest = f"Answer: {_clause(rows[0])}", rows[1:]
    out = [head]
    for group in ([r for r in rest if "Table" in r.question], [r for r in rest if "Table" not in r.question]):
        extra = [_clause(r) for r in group]
        if not extra:
            continue
        tail = "; ".join(extra)
        if len(tail.split()) <= 45:
            out.append(f"{tail[0].upper()}{tail[1:]}")
        else:
            out += [f"{e[0].upper()}{e[1:]}" for e in extra]
    return ". ".join(out) + "."


#: The rows' questions :func:`_clause` shortens (the builders' constants, kept here to avoid a cycle).
RANK_Q = "Does UG change the ranking of all runs beyond τ's 95% CI (Table 2)?"
SIG_Q = "Does UG change more significance calls between teams than a placebo of its size (Table 3)?"
BLIND_Q = "Can UG change the ranking of runs or the significance calls of the selected measures?"
CONJ_Q = "Do real ratings move τ and significance calls more than uniform ones (Sakai's conjecture)?"


def _clause(row) -> str:
    """One row's question and verdict as a clause of the answer sentence."""
    q, v = row.question, row.verdict
    if q == BLIND_Q:
        return ("the selected measures are gain-blind, so UG changes neither their ranking of runs nor their "
                "significance calls (by construction)")
    if q == CONJ_Q:
        return f"Sakai's conjecture (real ratings move τ and calls more than uniform ones): {v}"
    if "spread less than uniform ones" in q:
        return f"real ratings spread less than uniform ones: {v}"
    if q == RANK_Q:
        return f"UG changes the ranking beyond τ's 95% CI: {v}"
    if "Table 2's τ" in q:
        n = row.numbers
        return (f"the stand-in matches Table 2's τ in {n['inside']} of {n['informative']} informative (cell, measure) pairs: "
                + ("by calibration" if v == "by construction" else v))
    if "Table 3 total" in q:
        n = row.numbers
        return (f"Table 3's total, {n['paper']}, against the stand-in's range {int(n['low'])} to {int(n['high'])}: {v}")
    if q == SIG_Q:
        return f"UG changes more calls than a placebo of its size: {v}"
    return f"to “{q}” the run says {v}"
