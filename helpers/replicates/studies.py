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

from .. import prm, stats
from ..measures import diversity
from .prm import prm_robustness, prm_u2_draw  # noqa: F401  (notebook 03's studies live in helpers.replicates.prm)
from .unanimity import unanimity_grid, unanimity_real_contrast, unanimity_variant  # noqa: F401  (notebook 02's)

__all__ = ["unanimity_variant", "unanimity_grid", "unanimity_real_contrast", "uniform_contrast", "prm_robustness",
           "prm_u2_draw", "diversity_recovery", "planted_truth", "order_agreement", "recovery", "preference_recovery",
           "paired_leader_intervals", "dsharp_irec_disagreement", "reversed_id_order", "tie_order_effect",
           "significant_pair_cover", "power_interval", "above_own_chance"]


def uniform_contrast(rng: np.random.Generator, *, n_items: int, n, d_max: int, p: float,
                     sums=None, groups=None) -> dict:
    """Notebook 01: one draw of uniform ratings (``n_items`` x ``n`` on ``0..d_max``) summarised
    like real ratings (:func:`helpers.gains.unanimity_summary`): ``items, share_full_spread,
    mean_spread, mean_bonus, share_ties_broken``.

    ``n`` may also list each item's own number of ratings (items rated by different numbers of
    assessors; ``n_items`` is then its length): the draw has the same N per item
    (:func:`helpers.simulate.ratings.uniform_ratings_like`). With ``sums`` (one real raw gain per
    item, ``n_items`` of them) the uniform ratings are conditioned on them
    (:func:`helpers.simulate.ratings.uniform_ratings_given_sum`): the same items with the same
    RawG as the real ratings, differing only in how they spread. With ``groups`` (one topic id per
    item) RawG ties are counted within topics, as for the real ratings.
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
    s = gains.unanimity_summary(values, int(d_max), p, groups=groups)
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
