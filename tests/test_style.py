"""helpers.notebook.style and helpers.notebook.plots: print sizes, fonts, colour maps, notation, redrawn figures."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from helpers.notebook import plots, style  # noqa: E402


@pytest.fixture(autouse=True)
def _style():
    with matplotlib.rc_context():
        style.use()
        yield
    plt.close("all")


def _tau(n=29, seed=3):
    """A symmetric τ matrix with two blocks of measures that agree among themselves."""
    rng = np.random.default_rng(seed)
    group = np.arange(n) % 2
    base = np.where(group[:, None] == group[None, :], 0.9, 0.3) + rng.uniform(-0.05, 0.05, (n, n))
    base = (base + base.T) / 2
    np.fill_diagonal(base, 1.0)
    names = [f"m{k:02d}@10" for k in range(n)]
    return pd.DataFrame(base, index=names, columns=names), group


def test_sizes_and_rcparams():
    assert style.figsize("single") == (3.3, pytest.approx(3.3 * 0.62))
    assert style.figsize("full", height=2) == (7.0, 2.0)
    with pytest.raises(ValueError, match="width must be"):
        style.width(9)
    assert matplotlib.rcParams["xtick.labelsize"] >= style.MIN_FONT_PT
    assert matplotlib.rcParams["legend.fontsize"] >= style.MIN_FONT_PT


def test_cmap_for_one_signed_and_signed():
    one = style.cmap_for([0.1, 0.5, 1.0])
    assert one["cmap"] == style.SEQUENTIAL and (one["vmin"], one["vmax"], one["center"]) == (0.1, 1.0, None)
    two = style.cmap_for([-0.2, 0.6])
    assert two["cmap"] == style.DIVERGING and (two["vmin"], two["vmax"], two["center"]) == (-0.6, 0.6, 0.0)
    with pytest.raises(ValueError, match="no finite value"):
        style.cmap_for([np.nan])


def test_notation():
    assert style.label("n") == "N" and style.label("d_max") == "$D_{\\max}$" and style.label("theta") == "θ"
    assert style.label("n", long=True) == "N (assessors per item)" and style.label("other") == "other"


def test_check_print_size_finds_small_text_and_wide_figures():
    fig, ax = plt.subplots(figsize=(15, 6.5))
    ax.set_yticks([0, 1], ["a", "b"], fontsize=5)
    problems = style.check_print_size(fig)
    assert any("15.00 in wide" in p for p in problems) and any("5 pt" in p for p in problems)
    fig, ax = plt.subplots(figsize=style.figsize("single"))
    ax.plot([0, 1], [0, 1], label="a legend entry far too long to fit in a single column of a two-column paper")
    fig.legend(loc="outside lower center", ncol=1)
    assert any("sticks out" in p for p in style.check_print_size(fig))


def test_cluster_order_puts_blocks_together():
    tau, group = _tau()
    order = plots.cluster_order(tau)
    labels = [group[int(name[1:3])] for name in order]
    assert sorted(order) == sorted(tau.index)
    assert sum(a != b for a, b in zip(labels, labels[1:])) == 1, labels  # one switch between the blocks
    with pytest.raises(ValueError, match="square"):
        plots.cluster_order(tau.iloc[:, :5])


def test_tau_matrix_is_print_ready_and_sequential():
    tau, _ = _tau()
    fig = plots.tau_matrix(tau, title="τ")
    assert style.check_print_size(fig) == []
    assert fig.get_size_inches()[0] == pytest.approx(7.0)
    mesh = fig.axes[0].collections[0]
    assert mesh.get_cmap().name == style.SEQUENTIAL and mesh.norm.vmin >= 0.2  # all τ > 0: no −1…1 map
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks == plots.cluster_order(tau)


def test_mar_panels_share_axes_and_rows():
    rng = np.random.default_rng(5)
    names = [f"measure {k}" for k in range(21)] + ["best assessor", "median assessor", "worst assessor"]
    means = {q: pd.Series(rng.uniform(0.5, 0.8, len(names)), index=names) for q in ("relevance", "diversity", "both")}
    letters = {q: {n: "ab" for n in names} for q in means}
    fig = plots.mar_panels(means, letters)
    assert style.check_print_size(fig) == []
    axes = [a for a in fig.axes if a.get_title() in means]
    assert len(axes) == 3
    assert all(a.get_shared_y_axes().joined(axes[0], a) and a.get_shared_x_axes().joined(axes[0], a) for a in axes)
    order = [t.get_text() for t in axes[0].get_yticklabels()]
    assert order[-1] == means["both"].idxmax() and len(order) == len(names)
    legend = fig.legends[0]
    assert [t.get_text() for t in legend.get_texts()] == ["measure", "assessor (best/median/worst)"]


def test_interval_panels_grid_heatmaps_family_lines_are_print_ready():
    rng = np.random.default_rng(7)
    rows = [{"question": q, "measure": f"m{k}", "mean": v, "low": v - 0.02, "high": v + 0.02}
            for q in ("relevance", "diversity") for k, v in enumerate(rng.uniform(0.5, 0.8, 20))]
    fig = plots.interval_panels(pd.DataFrame(rows), panel="question", y="measure", xlabel="MAR",
                                highlight=lambda m: m == "m3")
    assert style.check_print_size(fig) == []
    single = pd.DataFrame(rows[:20])
    fig = plots.interval_panels(single, panel=None, y="measure", kind="single", other_label="mean, 95% interval (10 replicates)",
                                marks={None: dict(zip(single.measure, single["mean"]))}, marks_label="single draw (section 6)")
    assert style.check_print_size(fig) == []
    fig = plots.mar_panels({"both": single.set_index("measure")["mean"]}, kind="single")
    assert style.check_print_size(fig) == []
    grid = pd.DataFrame(rng.uniform(0.9, 1, (3, 5)), index=pd.Index([2, 4, 8], name="d_max"),
                        columns=pd.Index([5, 10, 20, 40, 80], name="n"))
    fig = plots.grid_heatmaps({"nG@1": grid, "P+": grid, "nERR@10": grid}, fmt=".3f", colorbar_label="τ")
    assert style.check_print_size(fig) == []
    assert fig.axes[0].get_xlabel() == "N" and fig.axes[0].get_ylabel() == "$D_{\\max}$"
    fig = plots.family_lines({"D-nDCG": np.sort(rng.uniform(0, 1, 105)), "alpha-nDCG": np.sort(rng.uniform(0, 1, 105))},
                             lambda m: m.split("-")[0], xlabel="run pairs", ylabel="p", hline=0.05)
    assert style.check_print_size(fig) == []


def test_log_axis_labels_the_grid_without_overlap():
    """02's replicates figure: N = 5..80 on a log axis in a third of the text width; matplotlib's
    own labels of the minor ticks overlap (the check finds it), plots.log_axis's do not."""
    n = [5, 10, 20, 40, 80]
    fig, axes = plt.subplots(1, 3, figsize=style.figsize("full", height=2.4), sharey=True)
    for ax in axes:
        ax.plot(n, [1, 0.5, 0.2, 0.1, 0], "o-")
        ax.set(xscale="log", xlabel="N (ratings per item)")
    assert any("tick labels" in p and "overlap" in p for p in style.check_print_size(fig))
    for ax in axes:
        plots.log_axis(ax, n)
    assert style.check_print_size(fig) == []
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["5", "10", "20", "40", "80"]
    with pytest.raises(ValueError, match="positive"):
        plots.log_axis(axes[0], [0, 1])


def test_legend_below_uncovers_the_bars():
    """02's real-vs-simulated figure: a hue legend inside the axes covers a bar (found); moved
    below the axes it covers nothing and keeps its entries and title."""
    import seaborn as sns

    data = pd.DataFrame({"D": [0, 1, 2, 3] * 2, "share": [0.09, 0.47, 0.34, 0.10, 0.05, 0.28, 0.38, 0.29],
                         "ratings": ["real"] * 4 + ["simulated (one draw)"] * 4})
    fig, ax = plt.subplots(figsize=(2.4, 2.4))
    sns.barplot(data=data, x="D", y="share", hue="ratings", ax=ax)
    sns.move_legend(ax, "upper right")
    assert any("legend covers data" in p for p in style.check_print_size(fig))
    legend = plots.legend_below(ax)
    assert style.check_print_size(fig) == [], style.check_print_size(fig)
    assert [t.get_text() for t in legend.get_texts()] == ["real", "simulated (one draw)"]
    assert legend.get_title().get_text() == "ratings"
