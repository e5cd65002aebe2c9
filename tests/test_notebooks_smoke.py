"""Papermill smoke runs of every notebook under the `ci` profile and, where it exists, `real`.

Outputs go to a temporary reports folder (conftest); executed copies to reports/executed/<profile>/.
The `real` profile needs the public data: with SUBJEVAL_DATA_MIRROR set (the Makefile does so when
../shared/data/mirror exists) it runs offline.
"""

from __future__ import annotations

import json

import pytest

from helpers import paths, pipeline

CASES = [(nb, profile) for profile in ("ci", "real") for nb in pipeline.discover()
         if pipeline.params_file(nb, profile).exists()]


@pytest.mark.parametrize("notebook,profile", CASES, ids=[f"{p}-{nb.stem}" for nb, p in CASES])
def test_notebook_runs(notebook, profile, tmp_path):
    params = pipeline.load_parameters(notebook, profile)
    out = paths.ROOT / "reports" / "executed" / profile / notebook.name
    pipeline.execute(notebook, params, out)
    executed = json.loads(out.read_text(encoding="utf-8"))
    errors = [o for c in executed["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    metrics = paths.reports_dir(profile) / "metrics" / f"{notebook.stem}.json"
    assert metrics.exists(), f"{notebook.stem} wrote no metrics under profile {profile}"
