"""Fit the stand-in collection's spread of team skills to Sakai's Table 2 and write the record
``data/raw/stc_like_table2_fit.csv`` (``python tools/calibrate_stc_like.py``; a few minutes on two
cores). Notebook 02 reads the record and uses its best value as the default ``team_skill_sd``;
``tests/test_unanimity_calibration.py`` checks that the two agree.

The fit (:func:`helpers.replicates.unanimity.calibrate`): for every candidate spread, the mean
Kendall's tau between the RawG and UG rankings in each of the paper's 45 (measure, Dmax, N) cells,
over ``REPLICATES`` draws of the ratings on each of ``COLLECTIONS`` stand-in collections, its root
mean squared and mean gap to the paper's printed tau, and the gap one draw would give. The fitted
value (:func:`helpers.replicates.unanimity.choose`) is the smallest spread with no systematic gap
(within the paper's printed precision) and a scatter within one draw's.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.notebook.reports import atomic_write_text  # noqa: E402
from helpers.replicates import unanimity  # noqa: E402

VALUES = (0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.9, 1.05, 1.2)
COLLECTIONS = (1, 2, 3, 4)
REPLICATES = 10
SEED = 20170901


def fit(scheduler: str | None = "local"):
    return unanimity.calibrate(VALUES, collection_seeds=COLLECTIONS, replicates=REPLICATES, seed=SEED,
                               scheduler=scheduler, progress=False)


def record(fit_table) -> str:
    out = fit_table.assign(collections=len(COLLECTIONS), replicates=REPLICATES, seed=SEED)
    return out.to_csv(index=False, float_format="%.6f", lineterminator="\n")


def main() -> None:
    table, _ = fit()
    path = ROOT / "data" / "raw" / unanimity.FIT_FILE
    atomic_write_text(path, record(table))
    print(table.to_string(index=False))
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
