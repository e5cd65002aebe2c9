"""helpers.notebook.captions: every table and figure the notebooks save has a human caption, every
column that looks like an identifier a label, and a name without one falls back loudly."""

from __future__ import annotations

import ast
import re
import warnings

import nbformat
import pandas as pd
import pytest

from helpers import paths
from helpers.notebook import captions, pipeline


def _saved_names() -> set[tuple[str, str, str]]:
    """(kind, notebook prefix, name) of every ``save_table``/``save_fig`` call in the notebooks;
    an f-string name keeps ``{}`` where its fields are."""
    found = set()
    for nb_path in pipeline.discover():
        nb = nbformat.read(str(nb_path), as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            source = "\n".join(ln for ln in cell.source.splitlines() if not ln.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("save_table", "save_fig") and len(node.args) >= 2):
                    continue
                arg = node.args[1]
                if isinstance(arg, ast.Constant):
                    name = arg.value
                elif isinstance(arg, ast.JoinedStr):
                    name = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in arg.values)
                else:
                    raise AssertionError(f"{nb_path.name}: {node.func.attr} with a name that is not a string: "
                                         f"{ast.unparse(arg)}")
                found.add(("table" if node.func.attr == "save_table" else "figure", nb_path.stem[:2], name))
    return found


#: A file or column name in a caption (``share_any_discrepancy``), not notation such as ES_HSD.
SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


def _shape(key: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", key)


def test_the_notebooks_save_tables_and_figures():
    names = _saved_names()
    assert {k for k, _, _ in names} == {"table", "figure"} and len(names) > 30, names


@pytest.mark.parametrize("kind,prefix,name", sorted(_saved_names()))
def test_every_saved_table_and_figure_has_a_caption(kind, prefix, name):
    registry = captions.TABLES if kind == "table" else captions.FIGURES
    assert _shape(f"{prefix}_{name}") in {_shape(k) for k in registry}, (
        f"{kind} {prefix}_{name} has no human caption: add it to helpers.notebook.captions."
        f"{'TABLES' if kind == 'table' else 'FIGURES'}")


def _committed(kind: str) -> list:
    if kind == "table":
        return sorted(paths.ROOT.glob("reports/tables/*.csv")) + sorted(paths.ROOT.glob("reports/real/tables/*.csv"))
    return sorted(paths.ROOT.glob("reports/figures/*/*.pdf")) + sorted(paths.ROOT.glob("reports/real/figures/*/*.pdf"))


@pytest.mark.parametrize("path", _committed("table"), ids=lambda p: str(p.relative_to(paths.ROOT)))
def test_committed_tables_have_captions_and_column_labels(path):
    notebook, name = path.stem[:2], path.stem[3:]
    columns = pd.read_csv(path, nrows=0).columns
    with warnings.catch_warnings():
        warnings.simplefilter("error", captions.MissingCaption)
        caption = captions.table_caption(notebook, name)
        captions.column_labels(notebook, name, columns)
    assert caption != captions.fallback_caption(notebook, name) and not SNAKE.search(caption), caption


@pytest.mark.parametrize("path", _committed("figure"), ids=lambda p: str(p.relative_to(paths.ROOT)))
def test_committed_figures_have_captions(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", captions.MissingCaption)
        caption = captions.figure_caption(path.parent.name, path.stem)
    assert caption.endswith(".") and not SNAKE.search(caption), caption


def test_no_caption_falls_back_loudly():
    with pytest.warns(captions.MissingCaption, match=r"table 04_made_up_table:.*captions\.TABLES"):
        assert captions.table_caption("04_diversified_measures", "made_up_table") == \
            "Made up table (notebook 04, diversified measures)."
    with pytest.warns(captions.MissingCaption, match=r"figure 02_made_up:.*captions\.FIGURES"):
        captions.figure_caption("02_unanimity_evaluation", "made_up")
    with pytest.warns(captions.MissingCaption, match="share_any_thing"):
        labels = captions.column_labels("02", "replicates_cells", ["measure", "share_any_thing", "tau_mean"])
    assert labels == {"tau_mean": "τ, mean"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert captions.table_caption("04", "made_up", warn=False).startswith("Made up")


def test_placeholders_and_patterns():
    assert "(relevance question)" in captions.table_caption("05", "mar_relevance")
    assert "labels consistent across both questions" in captions.table_caption("05", "hsd_both")
    assert captions.entry_key(captions.TABLES, "05", "hsd_diversity") == ("05_hsd_{question}", {"question": "diversity"})
    assert captions.entry_key(captions.TABLES, "05", "hsd") == (None, {})
    labels = captions.column_labels("03", "table5_relevant_in_top_k", ["run_id", "prm_mean_theta3", "binary_sem_theta1"])
    assert labels == {"run_id": "run", "prm_mean_theta3": "PRM, mean (θ = 3)", "binary_sem_theta1": "binary, s.e. (θ = 1)"}
    # a table's own label comes before the shared one (THUIR's n is queries, not assessors; its p_value is two-sided)
    assert captions.column_labels("05", "real_thuir_agreement", ["n", "p_value"]) == {"n": "queries", "p_value": "p (two-sided)"}
