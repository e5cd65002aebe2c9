"""The record of how notebook 02's Table 3 total depends on the stand-in's team-skill sd
(data/raw/stc_like_table3_sensitivity.csv, tools/table3_sensitivity_stc_like.py): its row at the
fitted value is what the notebook's default run reports, at the notebook's seed; the fit's smallest
RMS gap is in it."""

from __future__ import annotations

import json

from helpers import paths
from helpers.replicates import unanimity as study
from helpers.replicates import unanimity_sensitivity as sens


def test_record_row_at_the_fit_is_the_notebooks_default_total():
    rec = sens.read_sensitivity().set_index("skill_sd")
    fit = study.read_fit()
    best = float(fit.loc[fit["best"], "skill_sd"].iloc[0])
    rmse_best = float(fit.loc[fit["rmse"].idxmin(), "skill_sd"])
    assert best in rec.index and rmse_best in rec.index
    metrics = json.loads((paths.ROOT / "reports" / "metrics" / "02_unanimity_evaluation.json").read_text())
    total = metrics["paper_table3"]["total"]
    row = rec.loc[best]
    assert (round(row["mean"], 3), row["low"], row["high"]) == (round(total["mean"], 3), total["low"], total["high"])
    assert int(row["replicates"]) == total["replicates"]
    assert int(row["seed"]) == metrics["parameters"]["seed"] and int(row["B"]) == metrics["parameters"]["B"]
    assert (rec["decisions"] == rec["pairs"] * 45).all()
