"""How notebook 02's discrepancy count depends on the stand-in's spread of team skills.

The stand-in's ``team_skill_sd`` is fitted to Sakai's Table 2 (τ), not to Table 3
(:func:`helpers.replicates.unanimity.calibrate`), yet it sets how close the team runs lie and so
how many pairs can change their significance call. :func:`table3_sensitivity` reruns the
notebook's replicates in the paper's setting (seeded as the notebook seeds them) for several
spreads and records the per-replicate total of discrepancies over the paper's 45 cells;
``tools/table3_sensitivity_stc_like.py`` writes the record ``data/raw/stc_like_table3_sensitivity.csv``,
which the notebook's Limitations paragraph reads (:func:`read_sensitivity`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import measures, paths, unanimity
from . import runner
from . import unanimity as study

__all__ = ["SENSITIVITY_FILE", "table3_sensitivity", "read_sensitivity"]

#: Where the record lives (written by tools/table3_sensitivity_stc_like.py).
SENSITIVITY_FILE = "stc_like_table3_sensitivity.csv"


def table3_sensitivity(values: Sequence[float], *, seed: int, replicates: int, B: int = 5000, alpha: float = 0.05,
                       p: float = 0.2, scheduler: str | None = None) -> pd.DataFrame:
    """The per-replicate total of discrepancies over the paper's 45 cells (nG@1, P+, nERR@10;
    Dmax 2, 4, 8; N 5..80) for each stand-in ``team_skill_sd`` of ``values``, drawn exactly as
    notebook 02 draws them with ``seed`` (its collection from ``default_rng(seed)``, each team's best
    run by official nG@1, the replicates from ``SeedSequence(seed)``; top 10, θ = 1).

    Returns one row per value: ``skill_sd, mean, low, high`` (the order-statistic range of
    :func:`helpers.replicates.unanimity.table3_total`), ``replicates``, ``pairs`` (team pairs per
    cell), ``decisions`` (pairs × 45 cells), ``seed``, ``B``.
    """
    names = list(study.PAPER_MEASURE)
    cells = [{"d_max": d, "n": n} for d in study.PAPER_GRID["d_max"] for n in study.PAPER_GRID["n"]]
    rows = []
    for sd in values:
        rng = np.random.default_rng(seed)
        coll = study.load_collection("stc-like", rng, theta=1, cutoff=10, skill_sd=float(sd))
        official = measures.evaluate(coll.qrels, coll.run, names, gains=coll.official_gains, conventions="ntcireval")
        hsd_runs = unanimity.best_run_per_team(measures.to_matrix(official, names[0]), coll.teams)
        scorer = unanimity.GainScorer(coll.qrels, coll.run, names)
        rep = runner.run_replicates(
            study.unanimity_grid, replicates, seed,
            common={"qrels": coll.qrels, "run": coll.run, "cells": cells, "p": p, "measures": names,
                    "hsd_runs": hsd_runs, "B": B, "alpha": alpha, "threshold": 1, "scorer": scorer},
            scheduler=scheduler, progress=False)
        t3 = study.table3_total(rep)
        k = len(hsd_runs)
        rows.append({"skill_sd": float(sd), "mean": t3["mean"], "low": t3["low"], "high": t3["high"],
                     "replicates": t3["replicates"], "pairs": k * (k - 1) // 2,
                     "decisions": k * (k - 1) // 2 * t3["cells"], "seed": int(seed), "B": int(B)})
    return pd.DataFrame(rows)


def read_sensitivity() -> pd.DataFrame:
    """The committed record (``data/raw/stc_like_table3_sensitivity.csv``)."""
    return pd.read_csv(paths.DATA_RAW / SENSITIVITY_FILE)
