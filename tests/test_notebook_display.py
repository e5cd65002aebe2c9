"""What a reader sees in JupyterLab: wide tables as HTML tables (not wrapped text), the message that
a run went aside as the first output after the parameters, and one form for where metrics went."""

from __future__ import annotations

import ast
import re

import nbformat
import pandas as pd
import pytest

from helpers import paths
from helpers.notebook import pipeline, reports

NOTEBOOKS = pipeline.discover()


def _nb(path):
    return nbformat.read(str(path), as_version=4)


def _code(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_run_folder_is_said_right_after_the_parameters(path):
    """The cell after the parameters cell validates them and makes the Reporter, which prints
    where a run that is not canonical writes: a short cell, so that its output is the first thing
    under the parameters (it used to sit under a 50-line validation cell)."""
    nb = _nb(path)
    k = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    cell = nb.cells[k + 1]
    statements = ast.parse(cell.source).body
    assert cell.cell_type == "code" and len(statements) == 2, cell.source
    assert cell.source.startswith("params.validate(globals())")
    assert f'out = reports.Reporter("{path.stem}", profile)' in cell.source
    assert sum("reports.Reporter(" in c.source for c in _code(nb)) == 1


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_metrics_are_reported_in_one_form(path):
    sources = [c.source for c in _code(_nb(path)) if "metrics written" in c.source]
    assert len(sources) == 1
    lines = [ln.strip() for ln in sources[0].splitlines() if "metrics written" in ln]
    assert lines == ['print(f"metrics written to {out.where(path)}")'], lines


def test_reporter_where_names_the_place_under_the_reports_tree(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    default = reports.Reporter("02_unanimity_evaluation", "default", values=None)
    assert default.where(default.metrics_path) == "<reports>/metrics/02_unanimity_evaluation.json"
    real = reports.Reporter("02_unanimity_evaluation", "real", values=None)
    assert real.where(real.metrics_path) == "<reports>/real/metrics/02_unanimity_evaluation.json"
    aside = reports.Reporter("02_unanimity_evaluation", "default", values=None)
    aside.root = tmp_path / "runs" / "default-1a2b3c4d"
    assert aside.where(aside.metrics_path) == "<reports>/runs/default-1a2b3c4d/metrics/02_unanimity_evaluation.json"
    assert str(tmp_path) not in aside.where(aside.metrics_path)


#: The tables that print wider than a JupyterLab output area (and wrapped into unreadable text).
WIDE = {"01_gain_definitions": ["c18"], "02_unanimity_evaluation": ["c14", "replicates"],
        "04_diversified_measures": ["4d37982e"], "05_preference_agreement": []}


@pytest.mark.parametrize("stem", sorted(WIDE))
def test_wide_tables_are_html_tables(stem):
    nb = _nb(paths.NOTEBOOKS / f"{stem}.ipynb")
    for cell_id in WIDE[stem]:
        cell = next(c for c in nb.cells if c.get("id") == cell_id)
        assert "reports.show(" in cell.source and not re.search(r"print\([^)]*\.to_string\(", cell.source), cell.source


def test_show_gives_html_and_the_same_text(capsys, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, raw=False: shown.append(obj))
    df = pd.DataFrame({"measure": ["nDCG", "AP"], "tau": [0.91234, 0.5]})
    reports.show(df, "{:.3f}")
    (out,) = shown
    assert out["text/plain"] == df.to_string(index=False, float_format="{:.3f}".format)
    assert "<table" in out["text/html"] and "0.912" in out["text/html"]
    reports.show(df, "{:.3f}")
    assert shown[1]["text/html"] == out["text/html"]          # byte-stable: no random ids
