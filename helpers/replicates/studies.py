"""Study functions for replicated simulation studies (:func:`helpers.replicates.runner.run_replicates`).

Each notebook's headline analysis on simulated data, as one function of ``rng`` plus keyword
parameters that returns a tidy frame. The notebooks show the paper's single-draw layout (R = 1)
and then run the same study over R independent replicates to report means, intervals and the share
of replicates in which a finding holds. What a replicate redraws is the simulation's randomness and
nothing else:

* notebook 02 (:func:`unanimity_grid`): the simulated ratings of every (Dmax, N) cell and one set of
  HSD permutations shared by the cells, on the fixed collection -- Sakai simulated ratings on fixed
  NTCIR data, so the collection plays the role of that data; (:func:`unanimity_real_contrast`) uniform
  ratings with the real ratings' per-item RawG, and the permutations;
* notebook 03 (:func:`prm_robustness`): the simulated double-judged collection and its runs;
  (:func:`prm_u2_draw`) the second assessor drawn among the real raters, and the resamples that depend on it;
* notebook 04 (:func:`diversity_recovery`, a planted-truth experiment, in
  :mod:`helpers.replicates.diversity` and importable here): the simulated INTENT-like
  collection, whose run orders under every planted user model (:mod:`helpers.simulate.users`) are
  the truths the measures are scored against (:func:`recovery`);
* notebook 05 (:func:`preference_recovery`, a planted-truth experiment, in
  :mod:`helpers.replicates.preference` and importable here): the collection, the sampled SERP pairs
  and, for every planted user model, a panel of simulated assessors.

All randomness comes from ``rng``; every study is deterministic given it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import prm, stats, unanimity
from ..measures import diversity
from .prm import prm_robustness, prm_u2_draw  # noqa: F401  (notebook 03's studies live in helpers.replicates.prm)

__all__ = ["unanimity_variant", "unanimity_grid", "unanimity_real_contrast", "uniform_contrast", "prm_robustness",
           "prm_u2_draw", "diversity_recovery", "planted_truth", "order_agreement", "recovery", "preference_recovery",
           "paired_leader_intervals", "dsharp_irec_disagreement", "reversed_id_order", "tie_order_effect",
           "significant_pair_cover", "power_interval", "above_own_chance"]


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


_ROW = ["measure", "tau", "low", "high", "discrepancies", "significant_RawG", "significant_UG", "share_full_spread",
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
    return pd.concat(frames, ignore_index=True)[["d_max", "n", *_ROW]]


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
    from .. import gains
    from ..simulate.ratings import uniform_ratings_given_sum

    real = np.asarray(ratings, dtype=float)
    if real.ndim != 2 or real.shape[0] != len(qrels) or np.isnan(real).any():
        raise ValueError(f"ratings must be a complete (len(qrels) = {len(qrels)}) x N array of ratings")
    sim = uniform_ratings_given_sum(gains.raw_gain(real, d_max), real.shape[1], d_max, rng)
    if scorer is None:
        scorer = unanimity.GainScorer(qrels, run, list(measures))
    res = unanimity.compare_gains_many(qrels, run, [(real, d_max), (sim, d_max)], p, list(measures), hsd_runs, B,
                                       alpha, rng, scorer=scorer)
    frames = [_variant_rows(r, v, int(d_max)).assign(ratings=lab)
              for r, v, lab in zip(res, (real, sim), ("real", "simulated"))]
    return pd.concat(frames, ignore_index=True)[["ratings", *_ROW]]


def uniform_contrast(rng: np.random.Generator, *, n_items: int, n, d_max: int, p: float,
                     sums=None) -> dict:
    """Notebook 01: one draw of uniform ratings (``n_items`` x ``n`` on ``0..d_max``) summarised
    like real ratings (:func:`helpers.gains.unanimity_summary`): ``items, share_full_spread,
    mean_spread, mean_bonus, share_ties_broken``.

    ``n`` may also list each item's own number of ratings (items rated by different numbers of
    assessors; ``n_items`` is then its length): the draw has the same N per item
    (:func:`helpers.simulate.ratings.uniform_ratings_like`). With ``sums`` (one real raw gain per
    item, ``n_items`` of them) the uniform ratings are conditioned on them
    (:func:`helpers.simulate.ratings.uniform_ratings_given_sum`): the same items with the same
    RawG as the real ratings, differing only in how they spread.
    """
    from .. import gains
    from ..simulate.ratings import uniform_ratings, uniform_ratings_given_sum, uniform_ratings_like

    if np.ndim(n) != 0 and len(n) != int(n_items):
        raise ValueError(f"uniform_contrast: n lists {len(n)} items, n_items is {n_items}")
    if sums is not None and len(sums) != int(n_items):
        raise ValueError(f"sums must hold one raw gain per item ({n_items}), got {len(sums)}")
    if sums is not None:
        values = uniform_ratings_given_sum(sums, n if np.ndim(n) == 0 else np.asarray(n, dtype=int), int(d_max), rng)
    elif np.ndim(n) == 0:
        values = uniform_ratings(int(n_items), int(n), int(d_max), rng)
    else:
        values = uniform_ratings_like(np.asarray(n, dtype=int), int(d_max), rng)
    s = gains.unanimity_summary(values, int(d_max), p)
    return {"items": s["items"], "share_full_spread": s["share_full_spread"], "mean_spread": s["mean_spread"],
            "mean_bonus": s["mean_bonus"], "share_ties_broken": s["share_broken"]}


def paired_leader_intervals(wide: pd.DataFrame, higher: bool = True, level: float = 0.95,
                            means: Mapping[str, float] | None = None, digits: int | None = None) -> tuple[str, dict]:
    """The leader by mean of a replicates x labels table and, for every label, the ``level``
    confidence interval of the *mean* of its paired difference to the leader over the independent
    replicates (Student's t, :func:`helpers.replicates.planted.mean_interval`; not the spread of
    single replicates, which would ask whether a label trails the leader in every replicate).

    Replicates of one study share their collection, so two measures' values move together;
    overlapping marginal intervals would hide differences the paired ones show. Passed as
    ``intervals`` to :func:`helpers.notebook.claims.leaders`, a label whose paired interval
    includes 0 is named "within noise" of the leader (the leader's own interval is ``(0, 0)``).
    ``means`` (label -> mean, default the column means) decides the leader: pass the values given
    to ``claims.leaders``, in the same order, so that both name the same leader.

    ``digits`` (the precision ``claims.leaders`` prints with): every label whose mean equals the
    leader's at that precision is a tied leader and gets ``(0, 0)``; every other label gets its
    paired interval to a tied leader that includes 0 if there is one, else to the first leader, so
    ``claims.leaders`` names it within noise exactly when its paired difference to *some* tied
    leader includes 0. ``None``: the first leader only.
    """
    from .planted import mean_interval

    m = dict(means) if means is not None else wide.mean().to_dict()
    # the first label (in the order of ``means``) with the highest (lowest) mean, as claims.leaders picks it
    lead = max(m, key=lambda k: m[k] if higher else -m[k])
    if digits is None:
        tied = [lead]
    else:
        shown = f"{m[lead]:.{digits}f}"
        tied = [k for k in m if f"{m[k]:.{digits}f}" == shown and k in wide.columns]
    out = {}
    for c in wide.columns:
        if digits is not None and c in tied:
            out[c] = (0.0, 0.0)
            continue
        ivs = [mean_interval((wide[c] - wide[t]).dropna().to_numpy(float), level)[:2] for t in tied]
        out[c] = next((iv for iv in ivs if iv[0] <= 0 <= iv[1]), ivs[0])
    return lead, out


# notebook 04's studies live in helpers.replicates.diversity; their old names stay importable here
from .diversity import (diversity_recovery, order_agreement, planted_truth, power_interval, recovery,  # noqa: E402, F401
                        relevant_rows, reversed_id_order, significant_pair_cover, tie_order_effect)
_relevant = relevant_rows
# notebook 05's studies live in helpers.replicates.preference; their old names stay importable here
from .preference import above_own_chance, dsharp_irec_disagreement, preference_recovery  # noqa: E402, F401
