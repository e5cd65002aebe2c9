"""The committed metrics JSON says what the committed tables say (a reviewer found notebook 03's
``p_R_given_i`` holding the θ = 1 values under every θ key: a pandas ``query('@th')`` inside a nested
comprehension read the global ``th``)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from helpers import paths


@pytest.mark.parametrize("folder", ["", "real"])
def test_prm_estimates_in_the_metrics_match_the_table_for_every_threshold(folder):
    base = paths.ROOT / "reports" / folder if folder else paths.ROOT / "reports"
    metrics = json.loads((base / "metrics" / "03_prm_estimation.json").read_text(encoding="utf-8"))
    table = pd.read_csv(base / "tables" / "03_prm_estimates.csv")
    thresholds = sorted(table.threshold.unique())
    assert len(thresholds) >= 2   # otherwise the test could not see the bug
    checked = 0
    for row in table.itertuples():
        got = metrics["p_R_given_i"][f"theta={row.threshold}"][row.method][str(row.level)]
        assert got == pytest.approx(row.p, abs=5e-5), (row.threshold, row.method, row.level)
        checked += 1
    assert checked == len(table)
