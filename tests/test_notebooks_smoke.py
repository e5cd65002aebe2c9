"""Papermill runs of every notebook: smoke runs (`ci`) and the committed profiles (`default`, `real`).

Each notebook is executed once per profile and that execution is checked every way: no error; for
the default profile, nbval's comparison of the checked cells with the committed notebook
(tests/_nbcompare.py: nbval's own marker parsing and sanitize file, without a second execution);
and, for the committed profiles, the reports.

Outputs go to a temporary reports folder (conftest), executed copies under it. For the committed
profiles the run is also the check that the committed files under ``reports/`` are exactly what the
current code produces: every table, metric file and figure the notebook writes must equal the
committed one, and no committed file of that notebook may be left unproduced (stale). "Equal" is
byte for byte, except that a number written as text may differ in its last digits (relative 1e-9):
summation order inside numpy's SIMD kernels depends on the CPU, so another machine can print
0.541045091951429 where this one printed 0.5410450919514289. Any other change fails.
The `real` profile needs the public data: with SUBJEVAL_DATA_MIRROR set (the Makefile does so when
../shared/data/mirror exists) it runs offline.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from helpers import paths
from helpers.notebook import findings, pipeline

from _nbcompare import checked_cell_differences  # noqa: E402  (tests/ is on sys.path)

COMMITTED = ("default", "real")
#: make test runs the profiles users run (default, real, examples); the `ci` profile (R = 2, the
#: smallest sizes) runs with make test-slow: the configuration fuzz already runs small random sets.
SLOW_PROFILES = ("ci",)
CASES = [pytest.param(nb, profile, id=f"{profile}-{nb.stem}",
                      marks=[pytest.mark.slow] if profile in SLOW_PROFILES else [])
         for profile in ("ci", "examples", "default", "real") for nb in pipeline.discover()
         if profile == "default" or pipeline.params_file(nb, profile).exists()]


def _outputs(root: Path, stem: str) -> dict[str, bytes]:
    """Files a notebook writes under a profile's reports folder, keyed by relative path."""
    files = list((root / "tables").glob(f"{stem[:2]}_*")) + list((root / "figures" / stem).glob("*"))
    files += [root / "metrics" / f"{stem}.json"]
    return {str(f.relative_to(root)): f.read_bytes() for f in files if f.is_file()}


_NUMBER = re.compile(rb"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def same_output(a: bytes, b: bytes, rel: float = 1e-9) -> bool:
    """Equal bytes, or equal text whose numbers agree to `rel` (and whose other text is identical)."""
    if a == b:
        return True
    split_a, split_b = _NUMBER.split(a), _NUMBER.split(b)
    nums_a, nums_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if split_a != split_b or len(nums_a) != len(nums_b):
        return False
    return all(x == y or math.isclose(float(x), float(y), rel_tol=rel, abs_tol=1e-300)
               for x, y in zip(nums_a, nums_b))


def test_same_output_tolerates_last_digits_only():
    assert same_output(b'{"x": 0.5410450919514289}', b'{"x": 0.541045091951429}')
    assert not same_output(b'{"x": 0.5164920450135817}', b'{"x": 0.4935361216730038}')
    assert not same_output(b'{"x": 1}', b'{"y": 1}')
    assert not same_output(b"0.25,0.5", b"0.25,0.5,0.75")
    assert not same_output(b"n = 12", b"n = 13")


@pytest.mark.parametrize("notebook,profile", CASES)
def test_notebook_runs(notebook, profile):
    params = pipeline.load_parameters(notebook, profile)
    out = paths.reports_root() / "executed" / profile / notebook.name
    pipeline.execute(notebook, params, out)
    executed = json.loads(out.read_text(encoding="utf-8"))
    errors = [o for c in executed["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    # issue 37: every profile's run reads as an appendix (findings table, short code cells and sentences)
    problems = findings.notebook_problems(executed)
    assert not problems, f"{notebook.name} under profile {profile}:\n" + "\n".join(problems)
    if profile == "default":  # nbval's check of the committed outputs, on this same execution
        differ_cells = checked_cell_differences(notebook, out)
        assert not differ_cells, (f"{notebook.name}: checked cells print something else than the committed "
                                  "notebook; `make refresh NB=" + notebook.stem[:2] + "` regenerates it:\n"
                                  + "\n".join(differ_cells))
    produced_root = paths.reports_dir(profile)
    metrics = produced_root / "metrics" / f"{notebook.stem}.json"
    assert metrics.exists(), f"{notebook.stem} wrote no metrics under profile {profile}"
    if profile not in COMMITTED:
        return
    committed_root = paths.ROOT / "reports" / ("" if profile == "default" else profile)
    produced, committed = _outputs(produced_root, notebook.stem), _outputs(committed_root, notebook.stem)
    differ = sorted(k for k in produced.keys() & committed.keys() if not same_output(produced[k], committed[k]))
    stale = sorted(committed.keys() - produced.keys())
    new = sorted(produced.keys() - committed.keys())
    assert not (differ or stale or new), (
        f"committed reports of {notebook.stem} (profile {profile}) are not what the code produces; "
        f"regenerate them with `python -m helpers notebooks "
        f"{'refresh' if profile == 'default' else 'run --profile ' + profile} {notebook.stem[:2]}`.\n"
        f"differ: {differ}\nno longer produced: {stale}\nnot committed: {new}")
