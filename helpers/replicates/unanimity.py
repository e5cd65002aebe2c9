"""Notebook 02's replicate plumbing: Sakai's Table 2 against the stand-in, its calibration, the
replicates' summaries and the like-for-like contrast of real ratings, with its power.

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

import numpy as np
import pandas as pd

from .. import gains, paths, stats, unanimity
from . import runner

__all__ = ["PAPER_MEASURE", "PAPER_GRID", "paper_table2", "tau_cells", "skill_spread_taus", "calibrate",
           "read_fit", "table2"]

#: This run's measure name -> the paper's (Sakai 2017, Tables 2 and 3: nG@1, P+, nERR on the top 10).
PAPER_MEASURE = {"nG@1": "nG@1", "P+": "P+", "nERR@10": "nERR"}
#: The paper's (Dmax, N) cells (Sec. 4).
PAPER_GRID = {"d_max": (2, 4, 8), "n": (5, 10, 20, 40, 80)}
#: Where the calibration's record lives (written by tools/calibrate_stc_like.py).
FIT_FILE = "stc_like_table2_fit.csv"


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
    return draws.groupby(["measure", "d_max", "n"], sort=False)["tau"].mean().reset_index()


def calibrate(values: Sequence[float], *, collection_seeds: Sequence[int], replicates: int, seed: int,
              scheduler: str | None = None, progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fit the spread of the stand-in's team skills to Sakai's Table 2.

    For every candidate ``skill_sd`` of ``values`` and every collection of ``collection_seeds``,
    the mean tau of each of the paper's 45 cells over ``replicates`` draws of the ratings
    (:func:`skill_spread_taus`); averaged over the collections, the mean tau of a cell estimates
    what the stand-in gives in expectation. The fit is the value with the smallest root mean
    squared gap to the paper's printed tau over the 45 cells.

    Returns ``(fit, cells)``: ``fit`` has one row per value (``skill_sd, rmse, mean_gap``
    (paper minus stand-in, averaged over cells), ``best``); ``cells`` the mean tau per value and
    cell. Deterministic given ``seed`` (:func:`helpers.replicates.runner.run_replicates`).
    """
    grid = [{"skill_sd": float(v), "collection_seed": int(s)} for v in values for s in collection_seeds]
    raw = runner.run_replicates(skill_spread_taus, 1, seed, grid=grid, common={"replicates": int(replicates)},
                                scheduler=scheduler, progress=progress)
    cells = raw.groupby(["skill_sd", "measure", "d_max", "n"], sort=False)["tau"].mean().reset_index()
    paper = paper_table2()
    merged = cells.merge(paper[["measure", "d_max", "n", "tau"]].rename(columns={"tau": "paper"}),
                         on=["measure", "d_max", "n"])
    merged["gap"] = merged["paper"] - merged["tau"]
    fit = (merged.groupby("skill_sd", sort=False)["gap"]
           .agg(rmse=lambda g: float(np.sqrt(np.mean(g ** 2))), mean_gap="mean").reset_index())
    fit["best"] = fit["rmse"] == fit["rmse"].min()
    return fit, cells


def read_fit() -> pd.DataFrame:
    """The committed calibration record (``data/raw/stc_like_table2_fit.csv``)."""
    return pd.read_csv(paths.DATA_RAW / FIT_FILE)


def table2(rep: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Sakai's Table 2 against this run's replicates, cell by cell.

    ``rep``: the replicates' rows (``measure, d_max, n, tau`` per replicate). For every cell of the
    paper that this run also has: the paper's tau, the replicates' mean and their interval
    (:func:`helpers.replicates.runner.summarise`: a 95% percentile interval from 40 draws, else
    the range), ``inside`` (the paper's tau within it) and ``side`` (``"above"``, ``"below"`` or
    ``""``). Returns ``measure, d_max, n, paper, mean, low, high, inside, side, draws``.
    """
    paper = paper_table2() if paper is None else paper
    s = runner.summarise(rep, "tau", by=["measure", "d_max", "n"])
    out = paper[["measure", "d_max", "n", "tau"]].rename(columns={"tau": "paper"}).merge(
        s[["measure", "d_max", "n", "mean", "low", "high", "replicates"]], on=["measure", "d_max", "n"])
    out["inside"] = (out["paper"] >= out["low"] - 1e-12) & (out["paper"] <= out["high"] + 1e-12)
    out["side"] = np.where(out["inside"], "", np.where(out["paper"] > out["high"], "above", "below"))
    out = out.rename(columns={"replicates": "draws"})
    return out[["measure", "d_max", "n", "paper", "mean", "low", "high", "inside", "side", "draws"]]


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
    for t in res["tau"].itertuples():
        rows.append({"measure": t.measure, "tau": float(t.tau), "low": float(t.low), "high": float(t.high),
                     "discrepancies": int(disc.get(t.measure, 0)),
                     "significant_RawG": int(sig.loc[t.measure, "RawG"]),
                     "significant_UG": int(sig.loc[t.measure, "UG"]), "share_full_spread": full,
                     "mean_spread": mean_spread})
    return pd.DataFrame(rows)


ROW = ["measure", "tau", "low", "high", "discrepancies", "significant_RawG", "significant_UG", "share_full_spread",
       "mean_spread"]


def unanimity_grid(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, cells: Sequence[Mapping],
                   p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float, threshold: int = 1,
                   scorer=None) -> pd.DataFrame:
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
    and ``measures`` (built here when not given).
    """
    from ..simulate.ratings import simulate_ratings

    cells = [(int(c["d_max"]), int(c["n"])) for c in cells]
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    values = [simulate_ratings(qrels, n, d_max, rng, threshold=threshold) for d_max, n in cells]
    results = unanimity.compare_gains_many(qrels, run, [(v, d) for v, (d, _) in zip(values, cells)], p,
                                           list(measures), hsd_runs, B, alpha, rng, scorer=scorer)
    frames = [_variant_rows(res, v, d).assign(d_max=d, n=n) for res, v, (d, n) in zip(results, values, cells)]
    return pd.concat(frames, ignore_index=True)[["d_max", "n", *ROW]]


def shuffle_within_sums(ratings, d_max: int, rng: np.random.Generator) -> np.ndarray:
    """The rows of ``ratings`` (items x N) given to other items with the same raw gain, at random.

    Every item keeps its RawG, and the set of rating tuples is the real one: the spreads are the
    real ratings' own, only which item of a given RawG gets which tuple is drawn. The alternative
    under which :func:`unanimity_real_contrast` measures the power of the conjecture's test.
    """
    real = np.asarray(ratings, dtype=float)
    rawg = gains.raw_gain(real, d_max)
    by_sum = np.argsort(rawg, kind="stable")
    drawn = np.lexsort((rng.random(len(rawg)), rawg))   # items by RawG, in random order within a RawG
    out = np.empty_like(real)
    out[by_sum] = real[drawn]
    return out


def unanimity_real_contrast(rng: np.random.Generator, *, qrels: pd.DataFrame, run: pd.DataFrame, ratings,
                            d_max: int, p: float, measures: Sequence[str], hsd_runs, B: int, alpha: float,
                            scorer=None, alternative: bool = False) -> pd.DataFrame:
    """Notebook 02, Sakai's conjecture like for like: real ratings against uniform ones of the same RawG.

    The simulated ratings of a draw are independent uniform ratings conditioned on each item's
    real raw gain (:func:`helpers.simulate.ratings.uniform_ratings_given_sum`): same items, N, Dmax
    and RawG as the real ``ratings`` (items x N), so the RawG scores, rankings and significance
    calls are *identical* and the two sets differ only in how the ratings spread -- what UG
    rewards. Both are compared with :func:`helpers.unanimity.compare_gains_many` on the same HSD
    permutations (drawn from ``rng`` after the simulated ratings), so across draws the real
    ratings' result varies only by the Monte Carlo noise of the test.

    With ``alternative``, a third set per draw: the real tuples shuffled among items of the same
    RawG (:func:`shuffle_within_sums`, drawn from a child of ``rng`` so the other two sets are
    unchanged), tested on the same permutations -- ratings that spread exactly as the real ones,
    for the power of the test (:func:`conjecture_power`).

    Returns the rows of :func:`unanimity_variant` with a ``ratings`` column (``"real"``,
    ``"simulated"``, and ``"real spread"`` with ``alternative``) in front: one row per ratings set
    and measure.
    """
    from ..simulate.ratings import uniform_ratings_given_sum

    real = np.asarray(ratings, dtype=float)
    if real.ndim != 2 or real.shape[0] != len(qrels) or np.isnan(real).any():
        raise ValueError(f"ratings must be a complete (len(qrels) = {len(qrels)}) x N array of ratings")
    alt = shuffle_within_sums(real, d_max, rng.spawn(1)[0]) if alternative else None
    sim = uniform_ratings_given_sum(gains.raw_gain(real, d_max), real.shape[1], d_max, rng)
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    sets = [(real, "real"), (sim, "simulated")] + ([(alt, "real spread")] if alternative else [])
    res = unanimity.compare_gains_many(qrels, run, [(v, d_max) for v, _ in sets], p, list(measures), hsd_runs, B,
                                       alpha, rng, scorer=scorer)
    frames = [_variant_rows(r, v, int(d_max)).assign(ratings=lab) for r, (v, lab) in zip(res, sets)]
    return pd.concat(frames, ignore_index=True)[["ratings", *ROW]]
