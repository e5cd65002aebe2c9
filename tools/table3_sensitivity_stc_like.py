"""Record how notebook 02's Table 3 total depends on the stand-in's ``team_skill_sd``
(``python tools/table3_sensitivity_stc_like.py``; a few minutes per value on two cores).

Writes ``data/raw/stc_like_table3_sensitivity.csv``
(:func:`helpers.replicates.unanimity_sensitivity.table3_sensitivity`): the per-replicate total of
discrepancies over the paper's 45 cells, at notebook 02's default seed and 40 replicates, for the
fitted spread (0.65, ``data/raw/stc_like_table2_fit.csv``), the fit's smallest RMS gap (1.05) and the
largest value the fit tried (1.2). ``tests/test_unanimity_sensitivity.py`` checks that the record's
row at the fitted value equals what notebook 02's default run reports.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.notebook.reports import atomic_write_text  # noqa: E402
from helpers.replicates import unanimity_sensitivity as sens  # noqa: E402

VALUES = (0.65, 1.05, 1.2)
SEED = 20170901
REPLICATES = 40


def main() -> None:
    table = sens.table3_sensitivity(VALUES, seed=SEED, replicates=REPLICATES, scheduler="local")
    path = ROOT / "data" / "raw" / sens.SENSITIVITY_FILE
    atomic_write_text(path, table.to_csv(index=False, float_format="%.4f", lineterminator="\n"))
    print(table.to_string(index=False))
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
