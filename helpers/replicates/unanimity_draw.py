"""Notebook 02's single draw (Sakai, EVIA 2017, Sec. 4): the per-cell results of
:func:`helpers.unanimity.compare_gains_many` gathered into the tables sections 4 and 5 read
(τ per cell, discrepant pairs, significant pairs, discrepancy counts) and the spread of the
simulated ratings (Appendix D)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import gains, unanimity

__all__ = ["SingleDraw", "collect"]


@dataclass(frozen=True)
class SingleDraw:
    """The single draw's tables: ``tau`` (τ and its CI per measure and cell, not yet cut to [-1, 1]),
    ``disc`` (the discrepant pairs), ``sig`` (significant pairs under each gain), ``counts``
    (discrepancies per measure and cell, 0 where none, with the significant pairs), ``spread``
    (shares at D = 0 and D = Dmax and UG's mean bonus over items with RawG > 0) and ``selected``
    ((Dmax, N) -> the runs the HSD compared)."""

    tau: pd.DataFrame
    disc: pd.DataFrame
    sig: pd.DataFrame
    counts: pd.DataFrame
    spread: pd.DataFrame
    selected: dict


def collect(cells: Sequence[Mapping], sims: Sequence[pd.DataFrame], results: Sequence[Mapping], p: float,
            measure_names: Sequence[str], d_max_list: Sequence[int], n_list: Sequence[int]) -> SingleDraw:
    """Gather the results of each cell (``cells``: ``{"d_max", "n"}``; ``sims``: its simulated
    ratings; ``results``: :func:`helpers.unanimity.compare_gains_many`'s, in the same order)."""
    if not (len(cells) == len(sims) == len(results)):
        raise ValueError(f"collect: {len(cells)} cells, {len(sims)} ratings and {len(results)} results differ")
    tau_rows, disc_rows, sig_rows, spread_rows, selected = [], [], [], [], {}
    for key, sim, res in zip(cells, sims, results):
        tau_rows.append(res["tau"].assign(**key))
        disc_rows.append(res["discrepancies"].assign(**key))
        sig_rows.append(res["significant"].assign(**key))
        selected[(key["d_max"], key["n"])] = res["hsd_runs"]
        shares = unanimity.spread_shares(sim, key["d_max"])
        raw = gains.raw_gain(sim)
        spread_rows.append({**key, "share_D0": shares.iloc[0], "share_Dmax": shares.iloc[-1],
                            "mean_bonus": float(np.mean((gains.unanimity_aware_gain(sim, key["d_max"], p) - raw)[raw > 0]))})
    disc = pd.concat(disc_rows, ignore_index=True)
    sig = pd.concat(sig_rows, ignore_index=True)
    counts = (disc.groupby(["measure", "d_max", "n"]).size()
              .reindex(pd.MultiIndex.from_product([list(measure_names), list(d_max_list), list(n_list)],
                                                  names=["measure", "d_max", "n"]), fill_value=0)
              .rename("discrepancies").reset_index())
    counts = counts.merge(sig.rename(columns={"RawG": "significant_RawG", "UG": "significant_UG"}),
                          on=["measure", "d_max", "n"])
    return SingleDraw(pd.concat(tau_rows, ignore_index=True), disc, sig, counts, pd.DataFrame(spread_rows), selected)
