"""The notebooks' figures at print size, one function per kind of figure.

Every function draws with :mod:`helpers.notebook.style` (call ``style.use()`` once per notebook), returns
the matplotlib ``Figure`` and leaves saving to ``Reporter.save_fig``, so a notebook cell is::

    fig = plots.tau_matrix(tau, title=...)
    out.save_fig(fig, "kendall_tau_heatmap")
    plt.show()

Widths are the paper's: ``"single"`` (3.3 in) or ``"full"`` (7 in); heights grow with the number
of labelled rows so that 7 pt labels never overlap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from . import style

if TYPE_CHECKING:  # annotations only: matplotlib is imported by the functions that draw
    import matplotlib.figure

#: Vertical space per labelled row (inches) in dot plots and matrices: 7 pt text plus a gap.
ROW_IN = 0.135


def _plt():
    import matplotlib.pyplot as plt

    return plt


def cluster_order(matrix: pd.DataFrame, *, similarity: bool = True) -> list:
    """Row/column order of a symmetric matrix from average-linkage hierarchical clustering with
    optimal leaf ordering (scipy), so that similar items sit next to each other.

    ``similarity``: entries are similarities in [−1, 1] such as Kendall's τ (distance 1 − τ);
    otherwise they are distances already.
    """
    from scipy.cluster.hierarchy import leaves_list, linkage, optimal_leaf_ordering
    from scipy.spatial.distance import squareform

    if list(matrix.index) != list(matrix.columns):
        raise ValueError("cluster_order: the matrix must be square with the same labels on both axes")
    values = matrix.to_numpy(dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError("cluster_order: the matrix has NaN or infinite entries")
    dist = 1.0 - values if similarity else values.copy()
    dist = (dist + dist.T) / 2
    np.fill_diagonal(dist, 0.0)
    dist = np.clip(dist, 0.0, None)
    if len(matrix) < 3:
        return list(matrix.index)
    condensed = squareform(dist, checks=False)
    tree = optimal_leaf_ordering(linkage(condensed, method="average"), condensed)
    return [matrix.index[k] for k in leaves_list(tree)]


def tau_matrix(tau: pd.DataFrame, *, title: str | None = None, cluster: bool = True, annotate: bool | None = None,
               kind: str | float = "full", colorbar_label: str = "Kendall's τ") -> "matplotlib.figure.Figure":
    """A matrix of Kendall's τ between measures (or any symmetric similarity), print-ready.

    Rows and columns are ordered by :func:`cluster_order` (``cluster=True``), so blocks of
    measures that rank systems alike are visible; the colour map is sequential over the observed
    range when every τ has one sign (:func:`helpers.notebook.style.cmap_for`), diverging around 0
    otherwise; the upper triangle (a mirror image) is left blank. Values are written in the
    cells only when they stay legible (``annotate=None``: up to 12 rows). The figure is square,
    ``kind`` wide (full width: 7 in), 7 pt labels.
    """
    import seaborn as sns

    plt = _plt()
    order = cluster_order(tau) if cluster else list(tau.index)
    m = tau.loc[order, order]
    n = len(m)
    if annotate is None:
        annotate = n <= 12
    off = m.to_numpy()[~np.eye(n, dtype=bool)]
    cm = style.cmap_for(off if off.size else m.to_numpy().ravel())
    w = style.width(kind)
    fig, ax = plt.subplots(figsize=(w, min(w * 0.92, max(2.2, n * ROW_IN + 1.4))))
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)
    sns.heatmap(m, mask=mask, cmap=cm["cmap"], vmin=cm["vmin"], vmax=cm["vmax"], center=cm["center"],
                annot=annotate, fmt=".2f", annot_kws={"size": style.SMALL_FONT_PT}, square=True, linewidths=0.3,
                linecolor="white", cbar_kws={"shrink": 0.6, "label": colorbar_label + (" (clustered order)" if cluster else "")},
                xticklabels=True, yticklabels=True, ax=ax)
    ax.tick_params(axis="both", labelsize=style.SMALL_FONT_PT, length=0)
    ax.set(xlabel="", ylabel="")
    if title:
        ax.set_title(title)
    return fig


def tau_dots(tau: pd.DataFrame, reference: str, *, title: str | None = None, kind: str | float = "single",
             groups: Callable[[str], str] | None = None) -> "matplotlib.figure.Figure":
    """τ of every measure against one ``reference`` measure as a sorted dot plot (the compact
    alternative to the full matrix), coloured by family (``groups``: measure -> family name)."""
    plt = _plt()
    s = tau[reference].drop(reference).sort_values()
    fig, ax = plt.subplots(figsize=style.figsize(kind, height=max(1.6, len(s) * ROW_IN + 0.7)))
    fams = [groups(m) for m in s.index] if groups else ["measure"] * len(s)
    palette = dict(zip(dict.fromkeys(fams), style.colors(len(set(fams)))))
    for fam, colour in palette.items():
        sel = [k for k, f in enumerate(fams) if f == fam]
        ax.scatter(s.iloc[sel], sel, color=colour, s=14, label=fam, zorder=3)
    ax.set_yticks(range(len(s)), s.index)
    ax.set(xlabel=f"Kendall's τ with {reference}")
    ax.grid(axis="x")
    if groups:
        ax.legend(title="family", loc="lower right")
    if title:
        ax.set_title(title)
    return fig


def grid_heatmaps(grids: Mapping[str, pd.DataFrame], *, fmt: str = ".2f", vmin: float | None = None,
                  vmax: float | None = None, xlabel: str = "n", ylabel: str = "d_max", kind: str | float = "full",
                  reverse: bool = False, colorbar_label: str | None = None) -> "matplotlib.figure.Figure":
    """Small annotated heatmaps side by side with one shared colour scale (e.g. a (D_max × N)
    grid per measure, notebooks 01 and 02). ``grids`` maps a panel title to a DataFrame (rows
    ``ylabel``, columns ``xlabel``); axis labels use the text's notation (:func:`style.label`).
    The map is sequential when all values share a sign (:func:`style.cmap_for`), one colour bar
    says what the colours mean."""
    import seaborn as sns

    plt = _plt()
    values = np.concatenate([g.to_numpy(dtype=float).ravel() for g in grids.values()])
    cm = style.cmap_for(values, reverse=reverse)
    lo = cm["vmin"] if vmin is None else vmin
    hi = cm["vmax"] if vmax is None else vmax
    k = len(grids)
    fig, axes = plt.subplots(1, k, figsize=style.figsize(kind, height=2.1), sharey=True, squeeze=False)
    for ax, (title, g) in zip(axes[0], grids.items()):
        sns.heatmap(g, annot=True, fmt=fmt, vmin=lo, vmax=hi, cmap=cm["cmap"], center=cm["center"], cbar=False,
                    annot_kws={"size": style.SMALL_FONT_PT}, ax=ax)
        ax.set(title=title, xlabel=style.label(xlabel), ylabel="")
    axes[0][0].set_ylabel(style.label(ylabel))
    mappable = axes[0][-1].collections[0]
    fig.colorbar(mappable, ax=list(axes[0]), shrink=0.9, label=colorbar_label or "")
    return fig


def mean_and_interval(ax, position, mean, low, high, *, horizontal: bool = False, color=None, label: str | None = None,
                      marker: str = "o", ms: float = 3, capsize: float = 4, linewidth: float = 0.8):
    """Draw intervals ``[low, high]`` and, separately, the means at ``position`` (x positions, or y
    positions with ``horizontal=True``).

    Unlike ``ax.errorbar`` this does not express the interval as distances from the mean, so it
    works whatever their order: the mean of a skewed count can lie outside its percentile interval
    (matplotlib refuses negative error bars). ``capsize`` is the size in points of the end marks.
    Returns the line collection of the intervals.
    """
    pos = np.asarray(position, dtype=float)
    lo, hi, mid = (np.asarray(v, dtype=float) for v in (low, high, mean))
    bars = (ax.hlines if horizontal else ax.vlines)(pos, lo, hi, color=color, linewidth=linewidth)
    colour = color if color is not None else bars.get_color()[0]
    cap = "|" if horizontal else "_"
    for end in (lo, hi):
        xy = (end, pos) if horizontal else (pos, end)
        ax.plot(*xy, cap, ms=capsize, mew=linewidth, color=colour, linestyle="none")
    xy = (mid, pos) if horizontal else (pos, mid)
    ax.plot(*xy, marker, ms=ms, color=colour, label=label, linestyle="none")
    return bars


def interval_panels(summary: pd.DataFrame, *, panel: str | None, y: str, mean: str = "mean", low: str = "low",
                    high: str = "high", highlight: Callable[[str], bool] | None = None,
                    highlight_label: str = "assessor", other_label: str = "measure", xlabel: str = "",
                    marks: Mapping[str, Mapping[str, float]] | None = None, marks_label: str = "single draw",
                    kind: str | float = "full", order: Sequence[str] | None = None) -> "matplotlib.figure.Figure":
    """Means with intervals as dot plots, one panel per value of ``panel``, sharing both axes.

    Every panel lists the same ``y`` labels in the same order (``order``, default: by mean over
    the panels, highest on top), so a measure is found at the same height in every panel and the
    x scales compare directly. ``highlight`` marks rows (e.g. assessors) in a second colour,
    named in the legend; ``marks`` adds a second marker per panel and row (e.g. the single-draw
    value next to the replicate mean).
    """
    plt = _plt()
    panels = list(dict.fromkeys(summary[panel])) if panel else [None]
    if order is None:
        order = list(summary.groupby(y)[mean].mean().sort_values(ascending=True).index)
    else:
        order = list(order)[::-1]
    pos = {name: k for k, name in enumerate(order)}
    c_other, c_high, c_mark = style.colors(3)
    w = style.width(kind)
    fig, axes = plt.subplots(1, len(panels), figsize=(w, max(1.8, len(order) * ROW_IN + 0.9)), sharex=True,
                             sharey=True, squeeze=False)
    for ax, p in zip(axes[0], panels):
        s = summary if p is None else summary[summary[panel] == p]
        s = s[s[y].isin(pos)]
        yy = s[y].map(pos).to_numpy()
        flag = np.array([bool(highlight(v)) for v in s[y]]) if highlight else np.zeros(len(s), dtype=bool)
        for sel, colour, lab in ((~flag, c_other, other_label), (flag, c_high, highlight_label)):
            if not sel.any():
                continue
            g = s[sel]
            if low in g and high in g:
                mean_and_interval(ax, yy[sel], g[mean], g[low], g[high], horizontal=True, color=colour, label=lab)
            else:
                ax.plot(g[mean], yy[sel], "o", ms=3, color=colour, label=lab, linestyle="none")
        if marks is not None and p in marks:
            mk = marks[p]
            names = [n for n in order if n in mk]
            ax.scatter([mk[n] for n in names], [pos[n] for n in names], marker="x", s=12, color=c_mark,
                       label=marks_label, zorder=4)
        if p is not None:
            ax.set_title(str(p))
        ax.grid(axis="x")
        ax.set_xlabel(xlabel)
    axes[0][0].set_yticks(range(len(order)), order)
    axes[0][0].set_ylim(-0.7, len(order) - 0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if len(labels) > 1:
        fig.legend(handles, labels, loc="outside lower center", ncol=len(labels) if w >= 5 else 1, frameon=False)
    return fig


def mar_panels(means: Mapping[str, pd.Series], letters: Mapping[str, Mapping[str, str]] | None = None, *,
               highlight: Callable[[str], bool] = lambda name: "assessor" in name, kind: str | float = "full",
               xlabel: str = "mean agreement rate (MAR)") -> "matplotlib.figure.Figure":
    """Notebook 05's MAR figure as shared-axis panels: one panel per question (relevance,
    diversity, both), measures and assessors in the same rows in every panel (ordered by MAR in
    the last panel), a common MAR axis, assessors in a second colour named in the legend, and the
    compact letter display of the Tukey HSD groups at the right of each dot (two systems sharing
    a letter do not differ significantly)."""
    plt = _plt()
    questions = list(means)
    last = means[questions[-1]]
    order = list(last.sort_values(ascending=True).index)
    order += [n for q in questions for n in means[q].index if n not in order]
    order = list(dict.fromkeys(order))
    pos = {name: k for k, name in enumerate(order)}
    c_measure, c_assessor = style.colors(2)
    w = style.width(kind)
    fig, axes = plt.subplots(1, len(questions), figsize=(w, max(2.0, len(order) * ROW_IN + 0.9)), sharex=True,
                             sharey=True, squeeze=False)
    for ax, q in zip(axes[0], questions):
        s = means[q]
        flag = np.array([bool(highlight(n)) for n in s.index])
        for sel, colour, lab in ((~flag, c_measure, "measure"), (flag, c_assessor, "assessor (best/median/worst)")):
            if sel.any():
                ax.scatter(s.to_numpy()[sel], [pos[n] for n in s.index[sel]], color=colour, s=12, zorder=3, label=lab)
        if letters is not None and q in letters:
            for name, value in s.items():
                ax.annotate(letters[q].get(name, ""), (value, pos[name]), xytext=(4, -2.5), textcoords="offset points",
                            fontsize=style.SMALL_FONT_PT)
        ax.set_title(q)
        ax.grid(axis="x")
        ax.set_xlabel(xlabel if len(questions) == 1 else "MAR")
    axes[0][0].set_yticks(range(len(order)), order)
    axes[0][0].set_ylim(-0.7, len(order) - 0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    extra = " Letters: HSD groups (a shared letter = no significant difference)." if letters else ""
    title = "MAR: mean agreement rate with the assessors' preferences." + extra
    if w < 5:
        title = title.replace(". ", ".\n")
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels) if w >= 5 else 1, frameon=False,
               title=title)
    return fig


def family_lines(curves: Mapping[str, np.ndarray], family: Callable[[str], str], *, xlabel: str, ylabel: str,
                 hline: float | None = None, kind: str | float = "full", aspect: float = 0.5,
                 ylim: tuple[float, float] | None = (0.0, 1.0)) -> "matplotlib.figure.Figure":
    """One line per series, coloured by family with one legend entry per family (notebook 04's
    ASL curves: ``curves`` maps a measure to its sorted p-values)."""
    plt = _plt()
    fams = list(dict.fromkeys(family(m) for m in curves))
    palette = dict(zip(fams, style.colors(len(fams))))
    fig, ax = plt.subplots(figsize=style.figsize(kind, aspect=aspect))
    seen = set()
    for m, values in curves.items():
        f = family(m)
        ax.plot(np.arange(1, len(values) + 1), values, color=palette[f], lw=0.9, alpha=0.85,
                label=None if f in seen else f)
        seen.add(f)
    if hline is not None:
        ax.axhline(hline, color="grey", ls="--", lw=0.8)
    ax.set(xlabel=xlabel, ylabel=ylabel)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.legend(title="measure family", ncol=2)
    return fig


def family_facets(curves: Mapping[str, np.ndarray], family: Callable[[str], str], *, xlabel: str, ylabel: str,
                  hline: float | None = None, highlight: Sequence[str] = (), labels: Mapping[str, str] | None = None,
                  ncols: int = 4, kind: str | float = "full") -> "matplotlib.figure.Figure":
    """One panel per family (notebook 04's ASL curves): each family's series in its own colour and line
    style, labelled in the panel's legend (``labels`` renames a series, e.g. ``"I-rec@10 = strec@10"``),
    every other series in light grey behind them for scale; the series in ``highlight`` drawn thicker.
    Panels share both axes, so a family's curves read against all the others at a glance."""
    plt = _plt()
    fams = list(dict.fromkeys(family(m) for m in curves))
    nrows = -(-len(fams) // ncols)
    w = style.width(kind)
    fig, axes = plt.subplots(nrows, ncols, figsize=(w, 1.55 * nrows + 0.5), sharex=True, sharey=True, squeeze=False)
    dashes = ["-", "--", ":", "-."]
    labels = dict(labels or {})
    for ax, f in zip(axes.flat, fams):
        for m, values in curves.items():
            if family(m) != f:
                ax.plot(np.arange(1, len(values) + 1), values, color="0.85", lw=0.6, zorder=1)
        own = [m for m in curves if family(m) == f]
        for k, (m, c) in enumerate(zip(own, style.colors(len(own)))):
            values = curves[m]
            ax.plot(np.arange(1, len(values) + 1), values, color=c, ls=dashes[k % len(dashes)],
                    lw=1.8 if m in highlight else 1.0, zorder=3, label=labels.get(m, m))
        if hline is not None:
            ax.axhline(hline, color="grey", ls="--", lw=0.6, zorder=2)
        ax.set_title(f, fontsize=8)
        ax.legend(fontsize=6, loc="upper left", handlelength=2.2, frameon=False)
    for ax in list(axes.flat)[len(fams):]:
        ax.set_visible(False)
    fig.supxlabel(xlabel, fontsize=8)
    fig.supylabel(ylabel, fontsize=8)
    return fig


def log_axis(ax, ticks: Sequence[float], *, axis: str = "x") -> None:
    """A logarithmic axis labelled at ``ticks`` only (e.g. the N of a grid: 5, 10, 20, 40, 80), in
    plain numbers: matplotlib's default log axis labels minor ticks as ``2×10¹``, ``3×10¹`` ...,
    which overlap at print size."""
    from matplotlib.ticker import NullFormatter, NullLocator

    ticks = sorted({float(t) for t in ticks})
    if not ticks or ticks[0] <= 0:
        raise ValueError(f"log_axis: ticks must be positive numbers, got {ticks}")
    which = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    (ax.set_xticks if axis == "x" else ax.set_yticks)(ticks, [f"{t:g}" for t in ticks])
    which.set_minor_locator(NullLocator())
    which.set_minor_formatter(NullFormatter())


def legend_below(ax, *, ncol: int | None = None, title: str | None = None):
    """Move ``ax``'s legend (or make one from its labelled artists) below the axes, under its
    tick and axis labels, without a frame, so that it covers no data. Keeps the legend's title
    unless ``title`` is given; returns the new legend (``None`` when there is nothing to show)."""
    old = ax.get_legend()
    if old is not None:
        handles, labels = list(old.legend_handles), [t.get_text() for t in old.get_texts()]
        title = title if title is not None else (old.get_title().get_text() or None)
        old.remove()
    else:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    fig = ax.figure
    fig.canvas.draw()
    below = ax.get_tightbbox(fig.canvas.get_renderer()).y0 - 4 * fig.dpi / 72   # 4 pt under the axis label
    y = ax.transAxes.inverted().transform((0.0, below))[1]
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, y), ncol=ncol or min(len(labels), 3),
                     title=title, frameon=False, borderaxespad=0.2)
