"""One figure style for every notebook: print sizes, fonts, colour-blind-safe colours, notation.

Figures go into papers at one of two widths: a single column (3.3 in) or the full text width
(7 in). They are drawn at that size, so the fonts set here (8 pt text, 7 pt ticks and legends)
are the fonts on paper; :func:`check_print_size` verifies a figure against these rules (tests use
it). Colours come from seaborn's ``colorblind`` palette (Wong's eight colours, distinguishable
under the common colour-vision deficiencies); one-signed quantities (shares, τ ≥ 0, counts) use a
sequential map and signed ones a diverging map centred on zero (:func:`cmap_for`). Axis labels
use the papers' notation (:func:`label`: N, D_max, θ, τ) so figures read like the text.

Call :func:`use` once at the top of a notebook (after the imports); it only sets matplotlib's
``rcParams`` and seaborn's palette.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

#: Figure widths in inches: one column of a two-column paper, and the full text width.
SINGLE_COLUMN_IN = 3.3
FULL_WIDTH_IN = 7.0
#: Font sizes in points at print size; nothing smaller than MIN_FONT_PT.
FONT_PT = 8.0
SMALL_FONT_PT = 7.0
MIN_FONT_PT = 7.0
#: Colour-blind-safe categorical palette (seaborn 'colorblind', i.e. Wong 2011).
PALETTE = "colorblind"
#: Sequential map for one-signed quantities, diverging map for signed ones.
SEQUENTIAL = "viridis"
SEQUENTIAL_REVERSED = "rocket_r"
DIVERGING = "vlag"

#: Column names and symbols -> axis labels in the notation of the text.
NOTATION = {
    "n": "N", "N": "N", "d_max": "$D_{\\max}$", "Dmax": "$D_{\\max}$", "D": "D", "theta": "θ",
    "tau": "Kendall's τ", "p": "p", "share": "share", "mar": "MAR", "MAR": "MAR",
}
#: Longer labels for the quantities the notebooks plot.
LABELS = {
    "n": "N (assessors per item)",
    "n_ratings": "N (ratings per item)",
    "d_max": "$D_{\\max}$ (highest rating)",
    "tau": "Kendall's τ",
    "mar": "mean agreement rate (MAR)",
    "discriminative_power": "discriminative power",
}


def width(kind: str | float = "full") -> float:
    """Figure width in inches: ``"single"`` (3.3), ``"full"`` (7) or a number of inches ≤ 7."""
    if kind == "single":
        return SINGLE_COLUMN_IN
    if kind == "full":
        return FULL_WIDTH_IN
    if isinstance(kind, (int, float)) and 0 < kind <= FULL_WIDTH_IN:
        return float(kind)
    raise ValueError(f"width must be 'single', 'full' or inches in (0, {FULL_WIDTH_IN}], got {kind!r}")


def figsize(kind: str | float = "full", *, aspect: float | None = None, height: float | None = None) -> tuple[float, float]:
    """``(width, height)`` in inches for a figure of ``kind`` width; height from ``aspect``
    (height / width, default 0.62) or given in inches."""
    w = width(kind)
    if height is not None:
        return (w, float(height))
    return (w, w * (0.62 if aspect is None else aspect))


def rcparams() -> dict[str, Any]:
    """The ``rcParams`` :func:`use` sets."""
    return {
        "figure.figsize": figsize("single"),
        "figure.dpi": 110,
        "figure.constrained_layout.use": True,
        "savefig.dpi": 300,
        "font.size": FONT_PT,
        "axes.titlesize": FONT_PT,
        "axes.labelsize": FONT_PT,
        "xtick.labelsize": SMALL_FONT_PT,
        "ytick.labelsize": SMALL_FONT_PT,
        "legend.fontsize": SMALL_FONT_PT,
        "legend.title_fontsize": SMALL_FONT_PT,
        "figure.titlesize": FONT_PT + 1,
        "axes.linewidth": 0.6,
        "lines.linewidth": 1.0,
        "lines.markersize": 4,
        "xtick.major.width": 0.6,
        "ytick.major.width": 0.6,
        "grid.linewidth": 0.4,
        "pdf.fonttype": 42,  # TrueType in PDFs: editable text, accepted by publishers
        "ps.fonttype": 42,
        "image.cmap": SEQUENTIAL,
    }


def use() -> None:
    """Apply the style: matplotlib ``rcParams`` and seaborn's colour-blind palette."""
    import matplotlib as mpl
    import seaborn as sns

    mpl.rcParams.update(rcparams())
    sns.set_palette(PALETTE)


def colors(n: int) -> list[tuple[float, float, float]]:
    """``n`` colours of the colour-blind-safe palette (cycled beyond its 10 colours)."""
    import seaborn as sns

    base = sns.color_palette(PALETTE)
    return [base[k % len(base)] for k in range(n)]


def cmap_for(values: Iterable[float] | np.ndarray, *, reverse: bool = False) -> dict[str, Any]:
    """Colour-map arguments (``cmap``, ``vmin``, ``vmax``, ``center``) for ``values``.

    One-signed values (all ≥ 0 or all ≤ 0) get the sequential map over their own range (so a
    τ matrix whose entries are all ≥ 0.10 does not waste half a −1…1 diverging map); values of
    both signs get the diverging map centred on 0 with symmetric limits.
    """
    arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        raise ValueError("cmap_for: no finite value")
    lo, hi = float(arr.min()), float(arr.max())
    if lo >= 0 or hi <= 0:
        return {"cmap": SEQUENTIAL_REVERSED if reverse else SEQUENTIAL, "vmin": lo, "vmax": hi, "center": None}
    bound = max(abs(lo), abs(hi))
    return {"cmap": DIVERGING, "vmin": -bound, "vmax": bound, "center": 0.0}


def label(name: str, *, long: bool = False) -> str:
    """Axis label of a column in the text's notation (``d_max`` -> ``$D_{\\max}$``, ``n`` -> ``N``);
    ``long`` adds what it is (``N (assessors per item)``). Unknown names are returned as given."""
    if long and name in LABELS:
        return LABELS[name]
    return NOTATION.get(name, name)


def _overlapping_ticks(fig, renderer) -> list[str]:
    """Tick labels of one axis that overlap their neighbours (e.g. a log axis labelling its minor
    ticks: ``2×10¹`` over ``3×10¹``)."""
    problems = []
    for k, ax in enumerate(fig.axes):
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            labels = [t for t in axis.get_ticklabels(which="both") if t.get_visible() and t.get_text().strip()]
            boxes = sorted(((t.get_window_extent(renderer), t.get_text()) for t in labels),
                           key=lambda b: b[0].x0 if which == "x" else b[0].y0)
            for (a, ta), (b, tb) in zip(boxes, boxes[1:]):
                overlap = (min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0))
                if overlap[0] > 1 and overlap[1] > 1:
                    problems.append(f"axes {k}: {which} tick labels {ta!r} and {tb!r} overlap")
                    break
    return problems


def _data_points(ax):
    """Display coordinates of the data an axes draws: line vertices, scatter points, bar boxes."""
    import matplotlib.patches as mpatches

    points, boxes = [], []
    for line in ax.lines:
        if line.get_visible() and len(line.get_xydata()):
            points.append(line.get_transform().transform(line.get_xydata()))
    for coll in ax.collections:
        offsets = coll.get_offsets() if hasattr(coll, "get_offsets") else []
        if coll.get_visible() and len(offsets) and coll.get_offset_transform() is not None:
            points.append(coll.get_offset_transform().transform(offsets))
    for patch in ax.patches:
        if patch.get_visible() and isinstance(patch, (mpatches.Rectangle, mpatches.PathPatch)):
            boxes.append(patch.get_window_extent())
    return (np.concatenate(points) if points else np.empty((0, 2))), boxes


def _legends_over_data(fig, renderer) -> list[str]:
    """Legends that cover data (a bar, a point, a line's vertex) of an axes they sit on."""
    problems = []
    legends = [(ax.get_legend(), [ax]) for ax in fig.axes if ax.get_legend() is not None]
    legends += [(leg, fig.axes) for leg in fig.legends]
    for legend, axes in legends:
        if not legend.get_visible():
            continue
        box = legend.get_window_extent(renderer)
        for ax in axes:
            points, patches = _data_points(ax)
            inside = ((points[:, 0] > box.x0 + 1) & (points[:, 0] < box.x1 - 1) & (points[:, 1] > box.y0 + 1)
                      & (points[:, 1] < box.y1 - 1)) if len(points) else np.zeros(0, dtype=bool)
            covered = [p for p in patches if p.width > 0.5 and p.height > 0.5
                       and min(p.x1, box.x1) - max(p.x0, box.x0) > 1 and min(p.y1, box.y1) - max(p.y0, box.y0) > 1]
            if inside.any() or covered:
                title = ax.get_title() or f"axes {fig.axes.index(ax)}"
                problems.append(f"the legend covers data of {title!r} ({int(inside.sum())} point(s), "
                                f"{len(covered)} bar(s)): put it outside (helpers.notebook.plots.legend_below)")
    return problems


def check_print_size(fig, *, min_font_pt: float = MIN_FONT_PT, max_width_in: float = FULL_WIDTH_IN) -> list[str]:
    """Problems of ``fig`` at print size (empty when it is fit for a paper): wider than the
    text, any visible text smaller than ``min_font_pt``, tick labels that overlap, a legend
    that covers data."""
    problems = []
    w, h = fig.get_size_inches()
    if w > max_width_in + 1e-9:
        problems.append(f"figure is {w:.2f} in wide; at most {max_width_in} in")
    fig.canvas.draw()
    tight = fig.get_tightbbox(fig.canvas.get_renderer())  # what savefig(bbox_inches="tight") keeps, in inches
    if tight.width > max(w, 0) + 0.05 or tight.width > max_width_in + 0.05:
        problems.append(f"drawn content is {tight.width:.2f} in wide (figure {w:.2f} in): a legend or label sticks out")
    for text in fig.findobj(lambda a: hasattr(a, "get_fontsize") and hasattr(a, "get_text")):
        if not text.get_visible() or not str(text.get_text()).strip():
            continue
        size = float(text.get_fontsize())
        if size < min_font_pt - 1e-9:
            problems.append(f"text {str(text.get_text())[:30]!r} is {size:g} pt; at least {min_font_pt:g} pt")
    renderer = fig.canvas.get_renderer()
    return problems + _overlapping_ticks(fig, renderer) + _legends_over_data(fig, renderer)
