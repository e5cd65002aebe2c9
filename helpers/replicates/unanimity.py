"""Notebook 02's replicate plumbing: Sakai's Table 2 against the stand-in, its calibration, the
replicates' summaries (order-statistic intervals: integers for counts, a stated chance of holding a
new draw) and the like-for-like contrast of real ratings, with the power of its test against an
impact twice the uniform ratings'.

Sakai (EVIA 2017, Sec. 4-5) simulated ratings on the NTCIR-12 STC Chinese collection, which is
licensed; notebook 02 runs the same procedure on a stand-in collection
(:func:`helpers.simulate.ratings.stc_like_collection`). How much the RawG and UG rankings differ
(Kendall's tau, Table 2) depends on how close the runs' mean scores lie, which the stand-in sets
through the spread of its teams' skills. :func:`calibrate` fits that spread to the paper's 45 tau
cells (``data/raw/sakai2017_table2.csv``), :func:`table2` sets the paper's cells against a run's
replicates, cell by cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import gains, measures, paths, stats, unanimity
from . import runner

__all__ = ["PAPER_MEASURE", "PAPER_GRID", "paper_table2", "tau_cells", "skill_spread_taus", "calibrate", "choose",
           "GAP_TOLERANCE", "read_fit", "table2", "identical_cells", "order_interval", "range_name", "summarise_order",
           "doubled_power", "power_reach", "conjecture", "FIT_SETTING", "fit_for", "setting_differences", "STAND_IN_DEPTH"]

#: This run's measure name -> the paper's (Sakai 2017, Tables 2 and 3: nG@1, P+, nERR on the top 10).
PAPER_MEASURE = {"nG@1": "nG@1", "P+": "P+", "nERR@10": "nERR"}
#: The paper's (Dmax, N) cells (Sec. 4).
PAPER_GRID = {"d_max": (2, 4, 8), "n": (5, 10, 20, 40, 80)}
#: Where the calibration's record lives (written by tools/calibrate_stc_like.py).
FIT_FILE = "stc_like_table2_fit.csv"


def order_interval(values, level: float = 0.95) -> dict:
    """The interval of ``values`` (R draws) from order statistics: the ``k``-th smallest and the
    ``k``-th largest draw, ``k = max(1, floor((1 - level) / 2 * (R + 1)))``.

    Such an interval holds a new draw from the same distribution with probability
    ``coverage = (R + 1 - 2k) / (R + 1)`` (exact for continuous values, at least that with ties),
    and its bounds are draws, so a count's bounds are integers. 40 draws give ``k = 1`` (minimum
    and maximum, coverage 39/41 = 95.1%); numpy's interpolated 2.5% and 97.5% quantiles of 40
    draws hold a new one only about 90% of the time. With fewer draws than the interval rule of
    :mod:`helpers.stats.summary` needs (40 for 95%), it is still the range, and its coverage is
    below ``level``. ``name`` calls it what it is (:func:`range_name`: a range over the draws,
    not a percentile interval). Returns ``low, high, k, draws, coverage, name`` (NaN bounds and
    coverage for no finite value; coverage 0 for one draw).
    """
    x = np.sort(np.asarray(values, dtype=float))
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return {"low": np.nan, "high": np.nan, "k": 0, "draws": 0, "coverage": np.nan, "name": "range"}
    k = max(1, int(np.floor((1 - level) / 2 * (n + 1) + 1e-9)))
    return {"low": float(x[k - 1]), "high": float(x[n - k]), "k": k, "draws": n,
            "coverage": (n + 1 - 2 * k) / (n + 1), "name": range_name(n, "draws", level)}


def range_name(draws: int, unit: str = "replicates", level: float = 0.95) -> str:
    """What :func:`order_interval` over ``draws`` draws is: ``"range over 40 replicates"`` (``k = 1``:
    the smallest to the largest draw) or ``"range of the middle 98 of 100 replicates"`` (``k = 2``: the smallest and largest left out)."""
    n = int(draws)
    k = max(1, int(np.floor((1 - level) / 2 * (n + 1) + 1e-9)))
    return f"range over {n} {unit}" if k == 1 else f"range of the middle {n + 2 - 2 * k} of {n} {unit}"


def summarise_order(df: pd.DataFrame, value: str, by: Sequence[str] = ()) -> pd.DataFrame:
    """Per group of ``by``: ``mean`` of ``value`` and its :func:`order_interval` (``low, high,
    draws, coverage, interval``), groups in order of first appearance."""
    groups = df.groupby(list(by), sort=False)[value] if by else [((), df[value])]
    rows = []
    for key, x in groups:
        key = key if isinstance(key, tuple) else (key,)
        iv = order_interval(x)
        rows.append({**dict(zip(by, key)), "mean": float(np.nanmean(x)) if iv["draws"] else np.nan,
                     "low": iv["low"], "high": iv["high"], "draws": iv["draws"], "coverage": iv["coverage"],
                     "interval": iv["name"]})
    return pd.DataFrame(rows, columns=[*by, "mean", "low", "high", "draws", "coverage", "interval"])


def paper_table2() -> pd.DataFrame:
    """Sakai's Table 2 as printed (``measure, d_max, n, tau, low, high``), measures named as this
    engine names them (``nERR`` -> ``nERR@10``)."""
    t = pd.read_csv(paths.DATA_RAW / "sakai2017_table2.csv")
    back = {v: k for k, v in PAPER_MEASURE.items()}
    return t.assign(measure=t["measure"].map(back))


def tau_cells(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, cells: Sequence[Mapping],
              p: float, measures: Sequence[str], threshold: int = 1, scorer=None) -> pd.DataFrame:
    """One replicate of Table 2 alone: Kendall's tau between the RawG and UG rankings of every run,
    per (Dmax, N) cell and measure, from ratings drawn in grid order (no significance test).

    The ratings are drawn as :func:`helpers.replicates.studies.unanimity_grid` draws them (same
    order from the same ``rng``), so the taus equal that study's. Returns ``d_max, n, measure, tau``.
    """
    from ..simulate.ratings import simulate_ratings

    measures = list(measures)
    scorer = scorer or unanimity.GainScorer(qrels, run, measures)
    cells = [(int(c["d_max"]), int(c["n"])) for c in cells]
    vectors = []
    for d_max, n in cells:
        values = simulate_ratings(qrels, n, d_max, rng, threshold=threshold)
        vectors += [gains.raw_gain(values, d_max), gains.unanimity_aware_gain(values, d_max, p)]
    mats = scorer.matrices(np.stack(vectors, axis=1))
    rows = []
    for i, (d_max, n) in enumerate(cells):
        for m in measures:
            raw = mats[2 * i][m].mean()
            ug = mats[2 * i + 1][m].mean().reindex(raw.index)
            rows.append({"d_max": d_max, "n": n, "measure": m,
                         "tau": float(stats.kendall_tau_ci(raw.to_numpy(), ug.to_numpy(), 0.95).tau)})
    return pd.DataFrame(rows)


def skill_spread_taus(rng: np.random.Generator, *, skill_sd: float, collection_seed: int, replicates: int,
                      p: float = 0.2, cutoff: int = 10) -> pd.DataFrame:
    """Mean tau per paper cell over ``replicates`` draws of the ratings on the stand-in collection
    drawn from ``collection_seed`` with team skills ``Normal(0.5, skill_sd)`` (every other setting
    the stand-in's default). A study for :func:`helpers.replicates.runner.run_replicates`."""
    from ..simulate.ratings import stc_like_collection

    coll = stc_like_collection(np.random.default_rng(collection_seed), team_skill=(0.5, float(skill_sd)))
    run = unanimity.top_k(coll.run, cutoff)
    cells = [{"d_max": d, "n": n} for d in PAPER_GRID["d_max"] for n in PAPER_GRID["n"]]
    measures = list(PAPER_MEASURE)
    scorer = unanimity.GainScorer(coll.qrels, run, measures)
    draws = pd.concat([tau_cells(rng, qrels=coll.qrels, run=run, cells=cells, p=p, measures=measures, scorer=scorer)
                       for _ in range(int(replicates))], ignore_index=True)
    return (draws.groupby(["measure", "d_max", "n"], sort=False)["tau"].agg(tau="mean", var=lambda t: t.var(ddof=1))
            .reset_index())


def calibrate(values: Sequence[float], *, collection_seeds: Sequence[int], replicates: int, seed: int,
              scheduler: str | None = None, progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fit the spread of the stand-in's team skills to Sakai's Table 2.

    For every candidate ``skill_sd`` of ``values`` and every collection of ``collection_seeds``,
    the mean tau of each of the paper's 45 cells over ``replicates`` draws of the ratings
    (:func:`skill_spread_taus`); averaged over the collections, the mean tau of a cell estimates
    what the stand-in gives in expectation. The fit is the value with the smallest root mean
    squared gap to the paper's printed tau over the 45 cells, and the fitted value is chosen by
    :func:`choose`.

    Returns ``(fit, cells)``: ``fit`` has one row per value (``skill_sd, rmse, mean_gap`` (paper
    minus stand-in, averaged over cells), ``noise_floor``, ``best`` (:func:`choose`)); ``cells`` the mean tau per
    value and cell and the variance of one draw around it (within collections plus between their
    means). ``noise_floor`` is the root mean squared gap expected if the paper's cells were one draw
    of the stand-in at that value (the root of the mean variance): a fit near it is as close as one
    draw can be. Deterministic given ``seed`` (:func:`helpers.replicates.runner.run_replicates`).
    """
    grid = [{"skill_sd": float(v), "collection_seed": int(s)} for v in values for s in collection_seeds]
    raw = runner.run_replicates(skill_spread_taus, 1, seed, grid=grid, common={"replicates": int(replicates)},
                                scheduler=scheduler, progress=progress)
    by = raw.groupby(["skill_sd", "measure", "d_max", "n"], sort=False)
    # the spread of one draw around the stand-in's mean: within collections, plus between their means
    cells = by["tau"].mean().reset_index().assign(var=(by["var"].mean() + by["tau"].var(ddof=1).fillna(0)).to_numpy())
    merged = cells.merge(paper_table2()[["measure", "d_max", "n", "tau"]].rename(columns={"tau": "paper"}),
                         on=["measure", "d_max", "n"])
    merged["gap"] = merged["paper"] - merged["tau"]
    fit = (merged.groupby("skill_sd", sort=False)
           .agg(rmse=("gap", lambda g: float(np.sqrt(np.mean(g ** 2)))), mean_gap=("gap", "mean"),
                noise_floor=("var", lambda v: float(np.sqrt(np.mean(v))))).reset_index())
    return choose(fit), cells


#: A mean gap to Table 2 below the paper's printed precision (three decimals) is no systematic gap.
GAP_TOLERANCE = 0.001


def choose(fit: pd.DataFrame) -> pd.DataFrame:
    """Mark the fitted spread (``best``): the smallest ``skill_sd`` at which the stand-in matches
    Table 2 -- no systematic gap (``|mean_gap| <= GAP_TOLERANCE``, the paper's printed precision)
    and a scatter no larger than one draw's (``rmse <= noise_floor``). Larger spreads fit no
    better than one draw can tell, and give ever more teams a skill below zero (runs that rank
    relevant items below chance). Without such a value, the smallest ``rmse``."""
    fit = fit.copy()
    ok = (fit["mean_gap"].abs() <= GAP_TOLERANCE) & (fit["rmse"] <= fit["noise_floor"])
    pick = fit.loc[ok, "skill_sd"].min() if ok.any() else fit.loc[fit["rmse"].idxmin(), "skill_sd"]
    fit["best"] = fit["skill_sd"] == pick
    return fit


def read_fit() -> pd.DataFrame:
    """The committed calibration record (``data/raw/stc_like_table2_fit.csv``)."""
    return pd.read_csv(paths.DATA_RAW / FIT_FILE)


#: The keys of :data:`PAPER_SETTING` that set the τ the fit to Table 2 matched (not alpha, best_run_by).
FIT_SETTING = ("dataset", "cutoff", "p", "relevance threshold")


def fit_for(setting: Mapping) -> pd.DataFrame | None:
    """:func:`read_fit` for a run of ``setting`` (:data:`PAPER_SETTING`'s keys) at the fit's own
    :data:`FIT_SETTING`; else ``None`` (no spread was fitted for another dataset, cutoff, p or θ)."""
    return read_fit() if all(setting[k] == PAPER_SETTING[k] for k in FIT_SETTING) else None


#: Half a unit of the paper's printed τ (3 digits): a printed .996 stands for any value in [.9955, .9965).
PRINTED = 0.0005


def table2(rep: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Sakai's Table 2 against this run's replicates, cell by cell.

    ``rep``: the replicates' rows (``measure, d_max, n, tau`` per replicate). For every cell of the
    paper that this run also has: the paper's tau (one draw on the real data), the replicates'
    mean and their :func:`order_interval` (which holds one new draw with probability
    ``coverage``), ``inside`` (the paper's tau within it, or within :data:`PRINTED` of it: the
    paper's rounding), ``side`` (``"above"``, ``"below"`` or
    ``""``), ``ug_equals_rawg`` (the cell is one of :func:`identical_cells`: nothing to test) and
    ``informative``: False in those cells and where the paper's tau is 1 and the interval ends at
    1, so that the paper's value lies inside whatever the stand-in does. Returns ``measure, d_max,
    n, paper, mean, low, high, inside, side, informative, ug_equals_rawg, draws, coverage``.
    """
    paper = paper_table2() if paper is None else paper
    s = summarise_order(rep, "tau", by=["measure", "d_max", "n"])
    out = paper[["measure", "d_max", "n", "tau"]].rename(columns={"tau": "paper"}).merge(
        s[["measure", "d_max", "n", "mean", "low", "high", "draws", "coverage"]], on=["measure", "d_max", "n"])
    same = identical_cells(rep)
    out["ug_equals_rawg"] = [(d, n) in same for d, n in zip(out["d_max"], out["n"])]
    # the paper prints tau to 3 digits: a value within its rounding (PRINTED) of the interval is inside
    out["inside"] = (out["paper"] >= out["low"] - PRINTED) & (out["paper"] <= out["high"] + PRINTED)
    out["side"] = np.where(out["inside"], "", np.where(out["paper"] > out["high"], "above", "below"))
    out["informative"] = ~((out["paper"] >= 1 - 1e-12) & (out["high"] >= 1 - 1e-12)) & ~out["ug_equals_rawg"]
    return out[["measure", "d_max", "n", "paper", "mean", "low", "high", "inside", "side", "informative",
                "ug_equals_rawg", "draws", "coverage"]]


def identical_cells(rep: pd.DataFrame, p: float | None = None) -> set[tuple[int, int]]:
    """The (Dmax, N) cells where UG equals RawG on every item in every replicate: ``p = 0`` (every
    cell), or every item with RawG > 0 has ratings spanning 0..Dmax (``share_full_spread`` 1), so
    the bonus p·N·(Dmax − D) is 0 and there is nothing to test. Empty when ``p`` is not 0 and
    ``rep`` has no ``share_full_spread`` column."""
    if p is not None and float(p) == 0.0:
        return {(int(d), int(n)) for d, n in rep[["d_max", "n"]].drop_duplicates().itertuples(index=False)}
    if "share_full_spread" not in rep.columns:
        return set()
    full = rep.groupby(["d_max", "n"])["share_full_spread"].min() >= 1.0
    return {(int(d), int(n)) for (d, n), ok in full.items() if ok}


# ---------------------------------------------------------------------------------------------
# the studies of one replicate (moved here from helpers.replicates.studies, which re-exports them)

def unanimity_variant(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, d_max: int, n: int,
                      p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float, threshold: int = 1,
                      ratings=None, scorer=None) -> pd.DataFrame:
    """One (Dmax, N) cell of notebook 02: simulated ratings, RawG vs UG.

    Returns one row per measure: ``measure, tau, low, high, discrepancies, significant_RawG,
    significant_UG, share_full_spread, mean_spread`` (the last two over the items with RawG > 0:
    the share whose spread reaches ``d_max`` and the mean spread; :func:`helpers.unanimity.
    compare_gains` on ratings from :func:`helpers.simulate.ratings.simulate_ratings`, items below
    ``threshold`` -- the collection's lowest relevant level -- rated all zeros).

    With ``ratings`` given (an items x ``n`` array of real ratings) nothing is simulated: the
    replicate redraws only the HSD permutations. ``scorer``: a :class:`helpers.unanimity.GainScorer`
    of ``qrels``, ``run`` and ``measures`` (built per call when not given). Notebook 02 runs
    :func:`unanimity_grid` (all cells of a replicate at once); this one-cell study is kept for
    ``benchmarks/bench_sweep.py``.
    """
    from ..simulate.ratings import simulate_ratings

    if ratings is None:
        values = simulate_ratings(qrels, int(n), int(d_max), rng, threshold=threshold)
    else:
        values = np.asarray(ratings, dtype=float)
        if values.shape != (len(qrels), int(n)):
            raise ValueError(f"ratings must be a (len(qrels) = {len(qrels)}) x n = {n} array, got {values.shape}")
    res = unanimity.compare_gains(qrels, run, values, int(d_max), p, list(measures), hsd_runs, B, alpha, rng,
                                  scorer=scorer)
    return _variant_rows(res, values, int(d_max))


def _variant_rows(res: dict, values: np.ndarray, d_max: int) -> pd.DataFrame:
    """One row per measure of a :func:`helpers.unanimity.compare_gains` result."""
    sig = res["significant"].set_index("measure")
    disc = res["discrepancies"]["measure"].value_counts()
    # values were validated by compare_gains (helpers.gains); NaN-aware reductions only when needed
    full = not np.isnan(values).any()
    relevant = (values.sum(axis=1) if full else np.nansum(values, axis=1)) > 0  # as helpers.unanimity.spread_shares
    if not relevant.any():
        raise ValueError("no item has a positive raw gain; nothing to summarise")
    d = ((values.max(axis=1) - values.min(axis=1)) if full else
         (np.nanmax(values, axis=1) - np.nanmin(values, axis=1)))[relevant]
    full, mean_spread = float(np.mean(d == d_max)), float(d.mean())
    rows = []
    placebo = res["placebo"].set_index("measure") if "placebo" in res else None
    for t in res["tau"].itertuples():
        rows.append({"measure": t.measure, "tau": float(t.tau), "low": float(t.low), "high": float(t.high),
                     "discrepancies": int(disc.get(t.measure, 0)),
                     "significant_RawG": int(sig.loc[t.measure, "RawG"]),
                     "significant_UG": int(sig.loc[t.measure, "UG"]), "share_full_spread": full,
                     "mean_spread": mean_spread}
                    | ({} if placebo is None else {"placebo_discrepancies": int(placebo.at[t.measure, "discrepancies"]),
                                                   "placebo_tau": float(placebo.at[t.measure, "tau"])}))
    return pd.DataFrame(rows)


ROW = ["measure", "tau", "low", "high", "discrepancies", "significant_RawG", "significant_UG", "share_full_spread",
       "mean_spread"]


def unanimity_grid(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, cells: Sequence[Mapping],
                   p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float, threshold: int = 1,
                   scorer=None, placebo=False) -> pd.DataFrame:
    """One replicate of notebook 02's simulation: every (Dmax, N) cell, RawG vs UG.

    Draws the simulated ratings of each cell of ``cells`` (mappings with ``d_max`` and ``n``) in
    order from ``rng`` (:func:`helpers.simulate.ratings.simulate_ratings`, items below
    ``threshold`` rated all zeros), then runs every HSD of the replicate -- all cells, measures and
    both gains -- on one set of permutations drawn next from ``rng``
    (:func:`helpers.unanimity.compare_gains_many`: common random numbers across cells, so the
    cells are compared without Monte Carlo noise between them; each cell's distribution over
    replicates is still that of an independent run of the cell). One task per replicate keeps a
    dask task near a second of work.

    Returns the rows of :func:`unanimity_variant` with ``d_max`` and ``n`` in front (one row per
    cell and measure). ``scorer``: a :class:`helpers.unanimity.GainScorer` of ``qrels``, ``run``
    and ``measures`` (built here when not given). ``placebo``: ``True`` (every cell) or the
    ``(d_max, n)`` cells that also test :func:`helpers.unanimity.placebo_gain` on the same
    permutations (columns ``placebo_discrepancies`` and ``placebo_tau``, NaN in the other cells); its shuffles come
    from a child of ``rng`` (``rng.spawn``), so the ratings and permutations, hence every other
    column, are those of a run without it.
    """
    from ..simulate.ratings import simulate_ratings

    cells = [(int(c["d_max"]), int(c["n"])) for c in cells]
    chosen = set(cells) if placebo is True else {(int(d), int(n)) for d, n in (placebo or ())}
    placebo_rng = rng.spawn(1)[0] if chosen else None   # spawning leaves rng's own stream as it is
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    values = [simulate_ratings(qrels, n, d_max, rng, threshold=threshold) for d_max, n in cells]
    results = unanimity.compare_gains_many(qrels, run, [(v, d) for v, (d, _) in zip(values, cells)], p,
                                           list(measures), hsd_runs, B, alpha, rng, scorer=scorer,
                                           placebo_rng=placebo_rng, placebo_for=[c in chosen for c in cells])
    frames = [_variant_rows(res, v, d).assign(d_max=d, n=n) for res, v, (d, n) in zip(results, values, cells)]
    out = pd.concat(frames, ignore_index=True)
    return out[["d_max", "n", *ROW] + (["placebo_discrepancies", "placebo_tau"] if chosen else [])]


def unanimity_real_contrast(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, ratings,
                            d_max: int, p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float,
                            scorer=None) -> pd.DataFrame:
    """Notebook 02, Sakai's conjecture like for like: real ratings against uniform ones of the same RawG.

    The simulated ratings of a draw are independent uniform ratings conditioned on each item's
    real raw gain (:func:`helpers.simulate.ratings.uniform_ratings_given_sum`): same items, N, Dmax
    and RawG as the real ``ratings`` (items x N), so the RawG scores, rankings and significance
    calls are *identical* and the two sets differ only in how the ratings spread -- what UG
    rewards. Both are compared with :func:`helpers.unanimity.compare_gains_many` on the same HSD
    permutations (drawn from ``rng`` after the simulated ratings), so across draws the real
    ratings' result varies only by the Monte Carlo noise of the test.

    Returns the rows of :func:`unanimity_variant` with a ``ratings`` column (``"real"``,
    ``"simulated"``) in front: one row per ratings set and measure.
    """
    from ..simulate.ratings import uniform_ratings_given_sum

    real = np.asarray(ratings, dtype=float)
    if real.ndim != 2 or real.shape[0] != len(qrels) or np.isnan(real).any():
        raise ValueError(f"ratings must be a complete (len(qrels) = {len(qrels)}) x N array of ratings")
    sim = uniform_ratings_given_sum(gains.raw_gain(real, d_max), real.shape[1], d_max, rng)
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    sets = [(real, "real"), (sim, "simulated")]
    res = unanimity.compare_gains_many(qrels, run, [(v, d_max) for v, _ in sets], p, list(measures), hsd_runs, B,
                                       alpha, rng, scorer=scorer)
    frames = [_variant_rows(r, v, int(d_max)).assign(ratings=lab) for r, (v, lab) in zip(res, sets)]
    return pd.concat(frames, ignore_index=True)[["ratings", *ROW]]


# ---------------------------------------------------------------------------------------------
# the collection of a run (notebook 02, section 1)

#: The paper's setting (Sakai 2017, Sec. 4-5): its counts and taus are set against a run only in it.
PAPER_SETTING = {"dataset": "stc-like", "cutoff": 10, "p": 0.2, "alpha": 0.05, "relevance threshold": 1,
                 "best_run_by": "official"}
#: How the paper's dataset is named beside this run's.
_PAPER_SHOWN = {"dataset": "NTCIR-12 STC Chinese, whose stand-in here is 'stc-like'"}


def off_paper(setting: Mapping) -> list[str]:
    """How a run's ``setting`` (the keys of :data:`PAPER_SETTING`) differs from the paper's, one
    phrase per difference (empty: the paper's setting). Any of these keeps the paper's tables
    from being set against the run (:func:`setting_differences` adds measures and grid)."""
    return [f"{k} = {setting[k]!r} (the paper's: {_PAPER_SHOWN.get(k, repr(v))})" for k, v in PAPER_SETTING.items()
            if setting[k] != v]


def setting_differences(measures: Sequence[str], d_max_list: Sequence[int], n_list: Sequence[int]) -> list[str]:
    """How a run's measures and (Dmax, N) grid differ from the paper's (nG@1, P+, nERR@10;
    Dmax 2, 4, 8 x N 5..80), one phrase each; empty when they are the paper's. These do not keep
    the paper's tables from being set against the run: only the shared measures and cells are."""
    out = []
    if list(measures) != list(PAPER_MEASURE):
        shared = [m for m in measures if m in PAPER_MEASURE]
        out.append(f"measures = {', '.join(measures)} (the paper's: {', '.join(PAPER_MEASURE)}; shared: "
                   + (", ".join(shared) if shared else "none") + ")")
    for key, given in (("d_max", d_max_list), ("n", n_list)):
        if sorted(int(v) for v in given) != list(PAPER_GRID[key]):
            name = {"d_max": "Dmax", "n": "N"}[key]
            out.append(f"{name} = {', '.join(str(int(v)) for v in given)} (the paper's: "
                       f"{', '.join(map(str, PAPER_GRID[key]))})")
    return out


#: The stand-in's ranked lists and pool hold at least this many documents (the paper's top 10);
#: a deeper ``cutoff`` builds deeper lists and pools.
STAND_IN_DEPTH = 10


@dataclass
class Collection:
    """A run's test collection: judged items, runs (cut to the evaluation depth), teams, and what
    the notebook prints about them (``lines``) and saves (``metrics``)."""

    qrels: pd.DataFrame
    run: pd.DataFrame
    full_run: pd.DataFrame
    teams: dict
    official_qrels: pd.DataFrame | None
    official_gains: str | None
    lines: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)


def load_collection(dataset: str, rng: np.random.Generator, *, theta: int, cutoff: int, skill_sd: float = 0.25,
                    qrels_path: str = "", runs_glob: str = "", levels: tuple[int, int] = (0, 3),
                    team_table: str = "", team_overrides: Mapping | None = None) -> Collection:
    """The collection of notebook 02: the stand-in (``"stc-like"``, team skills
    ``Normal(0.5, skill_sd)``), TREC DL 2019 passage (``"dl19"``) or the user's files (``"files"``).

    Topics without an item at level ``theta`` or above are left out; runs are cut to their top
    ``cutoff`` (:func:`helpers.unanimity.top_k`). The stand-in's runs (and pool) hold
    ``max(10, cutoff)`` documents, so a cutoff above 10 reads what its name says. Teams: the stand-in's own, a team table
    (``team_table``: ``"dl19"`` or a CSV path; DL-19 by default) or the run-name rule
    (:func:`helpers.unanimity.team_of_run` with ``team_overrides``).
    """
    from ..data import datasets
    from ..io import readers
    from ..simulate.ratings import stc_like_collection

    lines, official_qrels = [], None
    if dataset == "stc-like":
        depth = max(STAND_IN_DEPTH, int(cutoff))   # the lists (and pool) are as deep as the cutoff reads
        coll = stc_like_collection(rng, team_skill=(0.5, float(skill_sd)), depth=depth)
        if depth > STAND_IN_DEPTH:
            lines.append(f"stand-in lists and pool: top {depth} per run (cutoff {cutoff}; the paper's: top 10)")
        qrels, full_run, teams, official_gains = coll.qrels, coll.run, coll.teams, "1:3"
    else:
        if dataset == "files":
            qrels = readers.read_graded_qrels(qrels_path, levels=levels, what="qrels_path")
            full_run = readers.read_runs(runs_glob, what="runs_glob")
            readers.check_topics(qrels, "qrels_path", full_run, "runs_glob")
            lines.append(readers.describe(qrels=qrels, runs=full_run))
        else:
            qrels, full_run = datasets.load_qrels("dl19-nist"), datasets.load_runs("dl19")
        official_qrels, official_gains = qrels, None   # linear gains: L1 -> 1, L2 -> 2, L3 -> 3
        full_run = full_run[full_run["query_id"].isin(qrels["query_id"])].reset_index(drop=True)
        run_ids = sorted(full_run["run_id"].unique())
        table = team_table or ("dl19" if dataset == "dl19" else "")
        if table:
            source = "data/raw/dl19_teams.csv" if table == "dl19" else f"team_table {Path(table).name}"
            frame = datasets.load_teams() if table == "dl19" else datasets.load_teams(path=table)
            teams = unanimity.teams_from_table(frame, run_ids, source)
            lines.append(f"teams from {source}")
        else:
            teams = unanimity.team_of_run(run_ids, team_overrides)
    qrels = qrels[qrels["query_id"].isin(qrels.loc[qrels["relevance"] >= theta, "query_id"])].reset_index(drop=True)
    run = unanimity.top_k(full_run[full_run["query_id"].isin(qrels["query_id"])], cutoff)
    deepest = int(run.groupby(["run_id", "query_id"]).size().max()) if len(run) else 0
    if deepest < cutoff:   # nothing silent: a cutoff deeper than every list reads what the lists hold
        lines.append(f"cutoff {cutoff}: no list holds more than {deepest} documents, so at most {deepest} are scored")
    if dataset != "stc-like":   # said once: a rank column that orders lists otherwise than trec_eval
        note = measures.order_note(full_run, topics=qrels["query_id"].unique())
        if note:
            lines.append(note)
    out = Collection(qrels, run, full_run, teams, official_qrels, official_gains, lines)
    _describe(out, dataset, theta, cutoff)
    return out


def _describe(c: Collection, dataset: str, theta: int, cutoff: int) -> None:
    """The collection's summary lines and metrics, near-duplicate runs included."""
    judged = pd.MultiIndex.from_frame(c.qrels[["query_id", "doc_id"]])
    share_judged = float(pd.MultiIndex.from_frame(c.run[["query_id", "doc_id"]]).isin(judged).mean())
    sizes = pd.Series(c.teams).value_counts()
    levels = c.qrels["relevance"].value_counts().sort_index()
    c.lines += [f"dataset {dataset}: relevance threshold {theta} (levels >= {theta} relevant); "
                f"{c.qrels['query_id'].nunique()} topics with a relevant item",
                f"{c.run['run_id'].nunique()} runs from {len(sizes)} teams ({sizes.min()}-{sizes.max()} runs each)",
                f"{len(c.qrels)} judged items; levels: " + ", ".join(f"L{k}: {v}" for k, v in levels.items()),
                f"share of top-{cutoff} documents that are judged: {share_judged:.3f}"]
    dups = unanimity.near_duplicates(c.run, cutoff, min_share=0.5)
    dups["same_team"] = [c.teams[a] == c.teams[b] for a, b in zip(dups["run_a"], dups["run_b"])]
    cross = dups[~dups["same_team"]]
    c.lines.append(f"near-duplicate runs (same ordered top {cutoff} on >= 50% of topics): "
                   f"{len(dups)} pair{'' if len(dups) == 1 else 's'}, {int(dups['same_team'].sum())} within a team, "
                   f"{len(cross)} across teams")
    for r in dups.itertuples():
        c.lines.append(f"  {r.run_a} / {r.run_b}: identical on {r.identical:.0%} of {r.topics} topics, {r.shared:.0%} "
                       f"of top-{cutoff} documents shared -> "
                       + (f"same team ({c.teams[r.run_a]})" if r.same_team else "DIFFERENT teams"))
    if len(cross):
        c.lines.append("WARNING: near-duplicate runs count as different teams; the HSD then compares a system with itself")
    c.metrics = {"topics": int(c.qrels["query_id"].nunique()), "runs": int(c.run["run_id"].nunique()),
                 "teams": int(len(sizes)), "judged_items": int(len(c.qrels)), "share_top_judged": share_judged,
                 "relevance_threshold": theta, "near_duplicates": dups, "near_duplicates_across_teams": int(len(cross))}


# ---------------------------------------------------------------------------------------------
# across replicates (notebook 02, section 7)

@dataclass
class GridSummary:
    """The replicates of :func:`unanimity_grid`, summarised: ``cells`` (per measure and cell: mean
    tau and discrepancies with their intervals, the share of replicates with a discrepancy, the
    distribution of counts), ``by_n`` (discrepancies summed over measures and Dmax, per N:
    ``mean, low, high, zero``), ``sums`` (that sum per replicate and N)."""

    rep: pd.DataFrame
    cells: pd.DataFrame
    by_n: pd.DataFrame
    sums: pd.DataFrame

    @property
    def replicates(self) -> int:
        return int(self.rep["replicate"].nunique())


def summarise_grid(rep: pd.DataFrame, p: float | None = None) -> GridSummary:
    """:class:`GridSummary` of the rows of :func:`unanimity_grid` over replicates. Intervals are
    :func:`order_interval`'s (a count's bounds are counts); ``ug_equals_rawg`` marks the cells of
    :func:`identical_cells` (every cell with ``p = 0``)."""
    keys = ["measure", "d_max", "n"]
    tau = summarise_order(rep, "tau", by=keys)[keys + ["mean", "low", "high"]]
    disc = summarise_order(rep, "discrepancies", by=keys)[keys + ["mean", "low", "high"]]
    some = runner.share(rep, rep["discrepancies"] > 0, by=keys)[keys + ["share"]]
    dist = (rep.groupby(keys, sort=False)["discrepancies"]
            .apply(lambda s: " ".join(f"{k}x{v}" for k, v in s.value_counts().sort_index().items()))
            .rename("disc_distribution").reset_index())
    cells = (tau.rename(columns={"mean": "tau_mean", "low": "tau_low", "high": "tau_high"})
             .merge(disc.rename(columns={"mean": "disc_mean", "low": "disc_low", "high": "disc_high"}), on=keys)
             .merge(some.rename(columns={"share": "share_any_discrepancy"}), on=keys).merge(dist, on=keys))
    same = identical_cells(rep, p)
    cells["ug_equals_rawg"] = [(d, n) in same for d, n in zip(cells["d_max"], cells["n"])]
    sums = rep.groupby(["replicate", "n"])["discrepancies"].sum().reset_index()
    by_n = summarise_order(sums, "discrepancies", by=["n"]).set_index("n")[["mean", "low", "high"]]
    by_n["zero"] = sums.groupby("n")["discrepancies"].apply(lambda s: int((s == 0).sum()))
    return GridSummary(rep, cells, by_n, sums)


def paper_table3(cells: pd.DataFrame) -> pd.DataFrame:
    """Sakai's Table 3 counts per cell (real STC data) against this run's interval of the same
    cell: ``measure, d_max, n, paper, disc_mean, disc_low, disc_high, inside`` for the paper's
    measures and cells that this run has."""
    t3 = pd.read_csv(paths.DATA_RAW / "sakai2017_table3.csv").groupby(["measure", "d_max", "n"]).size()
    out = cells[cells["measure"].isin(list(PAPER_MEASURE)) & cells["d_max"].isin(PAPER_GRID["d_max"])
                & cells["n"].isin(PAPER_GRID["n"])].copy()
    out["paper"] = [int(t3.get((PAPER_MEASURE[m], d, n), 0)) for m, d, n in zip(out["measure"], out["d_max"], out["n"])]
    out["inside"] = out["paper"].between(out["disc_low"], out["disc_high"])
    return out[["measure", "d_max", "n", "paper", "disc_mean", "disc_low", "disc_high", "inside"]].reset_index(drop=True)


def table3_total(rep: pd.DataFrame) -> dict:
    """Sakai's total of discrepancies over the cells and measures this run shares with his Table 3,
    against the distribution of the same total over this run's replicates (``paper``, ``mean``,
    ``low``, ``high``: :func:`order_interval`, ``inside``, ``cells``, ``replicates``, ``interval``,
    ``coverage``); ``None`` when the run shares no cell."""
    shared = rep[rep["measure"].isin(list(PAPER_MEASURE)) & rep["d_max"].isin(PAPER_GRID["d_max"])
                 & rep["n"].isin(PAPER_GRID["n"])]
    if shared.empty:
        return None
    t3 = pd.read_csv(paths.DATA_RAW / "sakai2017_table3.csv")
    keys = set(zip(shared["measure"].map(PAPER_MEASURE), shared["d_max"], shared["n"]))
    paper = int(sum((m, d, n) in keys for m, d, n in zip(t3["measure"], t3["d_max"], t3["n"])))
    total = shared.groupby("replicate")["discrepancies"].sum().rename("total").reset_index()
    s = summarise_order(total, "total").iloc[0]
    return {"paper": paper, "mean": float(s["mean"]), "low": float(s["low"]), "high": float(s["high"]),
            "inside": bool(s["low"] <= paper <= s["high"]), "cells": len(keys), "replicates": int(s["draws"]),
            "interval": str(s["interval"]), "coverage": float(s["coverage"])}


# ---------------------------------------------------------------------------------------------
# real ratings against uniform ones of the same RawG (notebook 02, section 6)

@dataclass
class RealSet:
    """The items rated by the official assessor and the others, as one ratings matrix (official
    label first), the condensed runs over them, and what the notebook prints (``lines``)."""

    qrels: pd.DataFrame
    values: np.ndarray
    run: pd.DataFrame
    d_max: int
    n: int
    lines: list
    copies: object = None


def real_set(dataset: str, official_qrels: pd.DataFrame, full_run: pd.DataFrame, *, theta: int, cutoff: int,
             ratings_path: str = "", layout: str = "long", d_max: int = 3) -> RealSet:
    """Real multi-assessor ratings of the official items: DL-19's re-annotation (``"dl19"``:
    ``dl19-main``, Dmax 3) or the user's ``ratings_path``.

    An assessor whose labels are the official qrels (:func:`helpers.io.assessors.find_official_copies`)
    would count the official assessor twice: their ratings of the topics where they are the
    official one are left out, and a line says so. Every item then gets the official label and the
    others' ratings (:func:`helpers.unanimity.with_official`: the items with the most common N);
    topics without an item at level ``theta`` or above are left out, and the runs are condensed
    to the rated items (:func:`helpers.unanimity.condense`).
    """
    from ..data import datasets
    from ..io import assessors, readers

    lines = []
    if dataset == "dl19":
        other = datasets.load_ratings("dl19-main")
        what = "the re-annotation"
    else:
        other = readers.read_ratings(ratings_path, layout=layout, d_max=d_max, what="ratings_path")
        readers.check_topics(official_qrels, "qrels_path", other, "ratings_path")
        lines.append(readers.describe(ratings=other))
        what = "ratings_path"
    other, copies = assessors.without_official_copies(official_qrels, other)
    if copies.found:
        lines += [f"{what}: {copies.summary('the official qrels')}.",
                  "Those ratings are left out: the official label already counts that person once.",
                  f"Rule: {assessors.COPY_RULE}."]
        if copies.others():
            lines.append(f"For contrast, {copies.others()}.")
    qrels, values, info = unanimity.with_official(official_qrels, other)
    n_full = len(qrels)
    keep = qrels.loc[qrels["relevance"] >= theta, "query_id"].unique()
    mask = qrels["query_id"].isin(keep).to_numpy()
    qrels, values = qrels[mask].reset_index(drop=True), values[mask]
    run = unanimity.condense(full_run[full_run["query_id"].isin(keep)], qrels, cutoff)
    rawg = gains.raw_gain(values, int(d_max))
    n = int(info["n"])
    answered = run.groupby("run_id")["query_id"].nunique().reindex(sorted(full_run["run_id"].unique()), fill_value=0)
    short = answered[answered < len(keep)]
    if len(short):
        lines.append(f"condensed to the rated items, {len(short)} of {len(answered)} runs "
                     f"{'has' if len(short) == 1 else 'have'} no list on some topics "
                     f"({', '.join(f'{r}: {len(keep) - k} of {len(keep)}' for r, k in short.head(3).items())}"
                     f"{', ...' if len(short) > 3 else ''}); such a list scores 0 in every mean")
    lines += [f"{info['rated_items']} items rated; {n_full} rated by the official assessor and {n - 1} others "
              f"(N = {n}, the most common count)",
              f"{len(qrels)} items on {len(keep)} topics with an officially relevant item (level >= {theta}) are used",
              f"held fixed in every draw: each item's RawG (0..{n * int(d_max)}), hence its mean rating and the "
              f"{int((rawg > 0).sum()):,} items with RawG > 0 (of {len(rawg):,}); N = {n}, Dmax = {int(d_max)}"]
    return RealSet(qrels, values, run, int(d_max), n, lines, copies)


@dataclass
class RealContrast:
    """Section 6's result: the draws, their summary per ratings set and measure (``table``), the
    spread of the items with RawG > 0 per ratings set (``spread``: ``quantity`` share_full_spread or
    mean_spread, with mean, low, high over the draws) and the conjecture's test per measure
    (``tests``: :func:`conjecture`). The words are :func:`helpers.findings.unanimity.read_real`'s."""

    draws: pd.DataFrame
    table: pd.DataFrame
    spread: pd.DataFrame
    tests: pd.DataFrame


def real_contrast(rs: RealSet, *, p: float, measures: Sequence[str], graded: Sequence[str], hsd_runs, B: int,
                  alpha: float, draws: int, seed: int, scheduler: str | None, progress: bool = False) -> RealContrast:
    """Real ratings against uniform ones with the same RawG (:func:`unanimity_real_contrast`),
    summarised over ``draws`` draws (:func:`order_interval`), and the conjecture's test per graded
    measure (:func:`conjecture`)."""
    scorer = unanimity.GainScorer(rs.qrels, rs.run, list(measures))
    out = runner.run_replicates(
        unanimity_real_contrast, draws, seed,
        common={"qrels": rs.qrels, "run": rs.run, "ratings": rs.values, "d_max": rs.d_max, "p": p,
                "measures": list(measures), "hsd_runs": hsd_runs, "B": B, "alpha": alpha, "scorer": scorer},
        scheduler=scheduler, progress=progress)
    keys = ["ratings", "measure"]
    summ = lambda col, pre: summarise_order(out, col, by=keys)[keys + ["mean", "low", "high"]].rename(  # noqa: E731
        columns={"mean": f"{pre}_mean", "low": f"{pre}_low", "high": f"{pre}_high"})
    table = (summ("tau", "tau").merge(summ("discrepancies", "disc"), on=keys)
             .merge(out.groupby(keys, sort=False).agg(
                 draws_with_disc=("discrepancies", lambda s: int((s > 0).sum())),
                 significant_RawG=("significant_RawG", "mean"), significant_UG=("significant_UG", "mean"),
                 tau_ci_low=("low", "mean"), tau_ci_high=("high", "mean")).reset_index(), on=keys))
    # τ's asymptotic CI passes 1 near τ = 1: cut to [-1, 1], the range τ can take (no coverage lost)
    table[["tau_ci_low", "tau_ci_high"]] = table[["tau_ci_low", "tau_ci_high"]].clip(-1.0, 1.0)
    once = out.drop_duplicates(["replicate", "ratings"])
    spread = pd.concat([summarise_order(once, col, by=["ratings"]).assign(quantity=col)
                        for col in ("share_full_spread", "mean_spread")], ignore_index=True)
    return RealContrast(out, table, spread, conjecture(out, graded))


def fixed(row, prefix: str = "") -> float:
    """The mean of ``row``, or its one value when every draw gave the same (the real ratings' tau: a
    fixed value carries no interval, and a mean of equal floats may differ from them in the last bit)."""
    low, high = row[f"{prefix}low"], row[f"{prefix}high"]
    return float(low) if low == high else float(row[f"{prefix}mean"])


#: The effect the conjecture's test must be able to see: an impact this many times the uniform one.
EFFECT = 2


def doubled_power(sim, bound: float, *, tau: bool, level: float = 0.95) -> dict:
    """Power of the one-data-set test of the conjecture against an impact twice the uniform one.

    ``sim``: the uniform ratings' tau (``tau=True``) or discrepancy count over R draws; ``bound``:
    what one real data set must pass (below the uniform tau interval's low end, above the count
    interval's high end). An impact twice the uniform one is the impact of two independent uniform
    draws added: for tau, ``1 - tau_alt = (1 - tau_i) + (1 - tau_j)``; for a count, ``c_i + c_j``
    (Sakai names no size for "a larger impact"; twice is this notebook's pre-specified effect, set
    before the real data were looked at). The power is the share of the R(R - 1)/2 pairs of draws
    whose sum passes ``bound``; ``low``/``high``: APPROXIMATE ``level`` bounds, Clopper-Pearson's for
    ``round(power * m)`` of m = R // 2 disjoint pairs (a count not observed; the all-pairs U-statistic
    varies no more than their mean, Hoeffding 1963); their reach: :func:`power_reach`. NaN below 2 draws.
    """
    from scipy.stats import binomtest

    x = np.asarray(sim, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < 2:
        return {"power": np.nan, "low": np.nan, "high": np.nan, "pairs": 0}
    i, j = np.triu_indices(len(x), 1)
    alt = x[i] + x[j] - (1.0 if tau else 0.0)
    power = float(np.mean(alt < bound - 1e-12 if tau else alt > bound + 1e-12))
    m = len(x) // 2
    ci = binomtest(int(round(power * m)), m).proportion_ci(level, method="exact")
    return {"power": power, "low": float(ci.low), "high": float(ci.high), "pairs": m}


def power_reach(draws: int, need: float = 0.8, level: float = 0.95) -> float:
    """The power :func:`doubled_power` must exceed for its lower bound to reach ``need``: (k - 1/2)/m,
    k the smallest of m = draws // 2 with that bound (50 draws: 0.98); NaN if none (< 34 draws at 0.8)."""
    from scipy.stats import binomtest

    m = int(draws) // 2
    for k in range(m + 1):
        if m and binomtest(k, m).proportion_ci(level, method="exact").low >= need:
            return (k - 0.5) / m
    return float("nan")


def _part(diff: dict, expected_up: bool) -> str:
    """"holds" when the interval of real - uniform excludes 0 in the conjecture's direction, "other
    way" when it excludes 0 in the other, else "not shown"."""
    if diff["low"] > 0 or diff["high"] < 0:
        return "holds" if (diff["low"] > 0) == expected_up else "other way"
    return "not shown"


def conjecture(out: pd.DataFrame, graded: Sequence[str]) -> pd.DataFrame:
    """Per graded measure, the conjecture's two parts on one real data set against R uniform draws.

    For each draw, real - uniform: ``dtau`` (tau of the RawG and UG rankings; the conjecture
    expects it below 0) and ``ddisc`` (HSD discrepancies, same permutations; expected above 0).
    Their :func:`order_interval` over the draws (the real ratings are one data set, so they are
    set against single uniform draws, not against the uniform mean); a part ``holds`` when its
    interval excludes 0 in the expected direction, goes the ``other way`` when it excludes 0 in
    the other, else is ``not shown``; ``*_power``: :func:`doubled_power` of that part.
    ``tau_real_ci_low``/``high``: the real ratings' τ CI (cut to [-1, 1]); ``tau_sim_ci_excludes_1``:
    the uniform draws whose τ CI excludes 1.
    """
    rows = []
    for m in graded:
        w = {k: out[(out["ratings"] == k) & (out["measure"] == m)].set_index("replicate").sort_index()
             for k in ("real", "simulated")}
        row = {"measure": m, "draws": len(w["simulated"])}
        for col, pre, up in (("tau", "tau", False), ("discrepancies", "disc", True)):
            real, sim = w["real"][col], w["simulated"][col]
            d = order_interval(real - sim)
            s = order_interval(sim)
            pw = doubled_power(sim, s["low"] if pre == "tau" else s["high"], tau=pre == "tau")
            row.update({f"{pre}_real": float(real.mean()), f"{pre}_real_fixed": bool(real.nunique() == 1),
                        f"{pre}_sim": float(sim.mean()), f"{pre}_sim_low": s["low"], f"{pre}_sim_high": s["high"],
                        f"d{pre}": float((real - sim).mean()), f"d{pre}_low": d["low"], f"d{pre}_high": d["high"],
                        f"{pre}_part": _part(d, up), f"{pre}_power": pw["power"], f"{pre}_power_low": pw["low"],
                        f"{pre}_power_high": pw["high"]})
        row["coverage"] = order_interval(w["simulated"]["tau"])["coverage"]
        # τ's own 95% CI (cut to [-1, 1]): the real ratings' (one data set: the same in every draw) and how
        # many uniform draws' CIs exclude 1 too, so a CI off 1 is read beside what uniform ratings give
        if {"low", "high"} <= set(out.columns):
            row.update({"tau_real_ci_low": float(np.clip(w["real"]["low"].mean(), -1.0, 1.0)),
                        "tau_real_ci_high": float(np.clip(w["real"]["high"].mean(), -1.0, 1.0)),
                        "tau_sim_ci_excludes_1": int((w["simulated"]["high"].round(9) < 1).sum())})
        rows.append(row)
    return pd.DataFrame(rows)
