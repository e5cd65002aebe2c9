"""Notebooks on the user's own files (issue 12): the file-input mode through papermill.

* The DL-19 public files, given by path only (``dataset: files``), reproduce the built-in DL-19
  loader (``dataset: dl19``, the `real` profile's parameters with smaller replicate counts, so the two
  runs stay short) of notebooks 02 and 03 number for number. That the `real` profile's committed
  metrics are what the code produces is ``test_notebooks_smoke``'s job.
* A wrong path, an empty glob, a path given without the file mode, and inputs that share no topic
  stop the notebook at once with a message naming the parameter and the file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import papermill as pm
import pytest

from helpers import paths
from helpers.data import datasets
from helpers.notebook import params, pipeline
from helpers.io import readers

MIRROR = os.environ.get("SUBJEVAL_DATA_MIRROR")
needs_data = pytest.mark.skipif(not MIRROR and not (paths.ROOT / "data" / "external").is_dir(),
                                reason="the DL-19 public data is neither downloaded nor mirrored")


def _dl19_files() -> dict[str, str]:
    nist = datasets.fetch("dl19-nist-qrels")["qrels/qrels.dl19-passage.txt"]
    runs = datasets.fetch("dl19-runs")
    run_dir = {p.parent for p in runs.values()}
    assert len(run_dir) == 1
    main = [f.path for f in datasets.REGISTRY["dl19-reannotation"].files
            if f.path.startswith("judgments/main/qrels/")]
    local = datasets.fetch("dl19-reannotation", paths=main)
    main_dir = {p.parent for p in local.values()}
    assert len(main_dir) == 1
    return {"qrels_path": str(nist), "runs_glob": str(run_dir.pop()),
            "ratings_path": str(main_dir.pop() / "*-qrels.txt")}


def _run(notebook: str, values: dict, out: Path) -> dict:
    nb = paths.NOTEBOOKS / f"{notebook}.ipynb"
    # a named run (issue 18: runs that are not a canonical profile never write into reports/)
    pipeline.execute(nb, values, out / "executed" / f"{notebook}.ipynb", run_name=values["profile"])
    with open(out / values["profile"] / "metrics" / f"{notebook}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _real_parameters(notebook: str, **smaller) -> dict:
    """The real profile's parameters with smaller sizes (``smaller``): the test compares the built-in
    loader with the same files given by path, which does not need the profile's replicate counts."""
    values = pipeline.load_parameters(paths.NOTEBOOKS / f"{notebook}.ipynb", "real")
    values.update(smaller, profile="dl19builtin")
    return values


def _by_path(values: dict, **files) -> dict:
    return {**values, "profile": "dl19files", "dataset": "files", "ratings_layout": "qrels", **files}


SMALL_02 = {"real_replicates": 2, "B": 200, "d_max_list": [2], "n_list": [5], "replicates": 2,
            "scheduler": "serial"}
SMALL_03 = {"replicates": 2, "B": 50, "rounds": 5, "n_sizes": 4, "rf10": False, "scheduler": "serial"}


@pytest.mark.slow   # ~60 CPU s: make test-slow
@needs_data
def test_dl19_files_by_path_reproduce_the_builtin_dl19_of_02(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    files = _dl19_files()
    builtin = _real_parameters("02_unanimity_evaluation", **SMALL_02)
    by_path = _by_path({k: v for k, v in builtin.items() if k != "real_ratings"}, ratings_d_max=3, **files)
    want = _run("02_unanimity_evaluation", builtin, tmp_path)
    got = _run("02_unanimity_evaluation", by_path, tmp_path)
    assert got.pop("parameters")["dataset"] == "files"
    assert want.pop("parameters")["dataset"] == "dl19"
    # the findings name the data ("your files" / "TREC DL 2019 passage"); their rows must agree
    assert [{k: r[k] for k in ("this run", "verdict")} for r in got.pop("findings")["table"]] == \
        [{k: r[k] for k in ("this run", "verdict")} for r in want.pop("findings")["table"]]
    assert got == want


@pytest.mark.slow   # ~45 CPU s: make test-slow
@needs_data
def test_dl19_files_by_path_reproduce_the_builtin_dl19_of_03(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    files = _dl19_files()
    builtin = _real_parameters("03_prm_estimation", **SMALL_03)
    want = _run("03_prm_estimation", builtin, tmp_path)
    got = _run("03_prm_estimation", _by_path(builtin, d_max=3, **files), tmp_path)
    got.pop("parameters"), want.pop("parameters")
    renamed = {"U1 vs one rater": "DL19 NIST vs re-annotator", "rater vs rater": "DL19 re-annotator vs re-annotator"}
    other = {}
    for key, value in got.pop("other_sources").items():
        source, rest = key.split(",", 1)
        other[f"{renamed.get(source, source)},{rest}"] = value
    assert other == want.pop("other_sources")
    assert got == want


def _execute(tmp_path: Path, notebook: str, values: dict) -> None:
    pm.execute_notebook(str(paths.NOTEBOOKS / f"{notebook}.ipynb"), str(tmp_path / "out.ipynb"),
                        parameters={"profile": "filesmode", **values}, kernel_name=pipeline.KERNEL,
                        cwd=str(tmp_path), progress_bar=False)


EXAMPLES = paths.ROOT / "data" / "examples"


@pytest.mark.parametrize("values, message", [
    ({"data": "files", "diversity_qrels_path": "nowhere/qrels.txt", "runs_glob": str(EXAMPLES / "diversity" / "runs")},
     "diversity_qrels_path: no file matches"),
    ({"data": "files", "diversity_qrels_path": str(EXAMPLES / "diversity" / "qrels.txt"),
      "runs_glob": str(EXAMPLES / "diversity" / "runs" / "*.trec")}, "runs_glob: no file matches"),
    ({"data": "files", "diversity_qrels_path": str(EXAMPLES / "diversity" / "qrels.txt")},
     "parameter 'runs_glob' is empty"),
    ({"runs_glob": str(EXAMPLES / "runs")}, "is set but only read with data: \"files\""),
    ({"data": "files", "diversity_qrels_path": str(EXAMPLES / "diversity" / "qrels.txt"),
      "runs_glob": str(EXAMPLES / "runs")}, "share no topic"),
])
def test_notebook_04_stops_on_bad_file_inputs(tmp_path, monkeypatch, values, message):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))
    with pytest.raises(pm.PapermillExecutionError, match=message):
        _execute(tmp_path, "04_diversified_measures", {"B": 100, **values})


def test_check_file_inputs_names_every_problem(tmp_path):
    with pytest.raises(params.ParameterError) as info:
        params.check_file_inputs({"qrels_path": "", "runs_glob": str(tmp_path / "*.run")}, mode=True,
                                 required=["qrels_path", "runs_glob"], switch='dataset: "files"')
    text = str(info.value)
    assert "parameter 'qrels_path' is empty" in text and "runs_glob: no file matches" in text


def test_check_topics_and_runs(tmp_path):
    import pandas as pd

    qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"run_id": ["r", "r"], "query_id": ["x1", "x2"], "doc_id": ["a", "b"]})
    with pytest.raises(ValueError, match=r"qrels_path and runs_glob share no topic: qrels_path has \['1', '2'\]"):
        readers.check_topics(qrels, "qrels_path", run, "runs_glob")
    floats = run.assign(query_id=["1.0", "2.0"])
    with pytest.raises(ValueError, match=r"runs_glob topic '1.0' and qrels_path topic '1' differ only in how the number"):
        readers.check_topics(qrels, "qrels_path", floats, "runs_glob")
    run2 = run.assign(query_id=["1", "3"])
    with pytest.warns(UserWarning, match=r"1 of 2 topic\(s\) of runs_glob are not in qrels_path"):
        readers.check_topics(qrels, "qrels_path", run2, "runs_glob")
    prefs = pd.DataFrame({"pair_id": ["p"], "query_id": ["1"], "run_left": ["r"], "run_right": ["s"]})
    with pytest.raises(ValueError, match=r"1 \(run_right, topic\) SERP\(s\) are not in runs_glob.*run 's' on topic '1'"):
        readers.check_runs(prefs, "preferences_path", run2, "runs_glob")


@pytest.mark.parametrize("values, message", [
    ({"team_table": "nowhere/teams.csv"}, "team_table: no file 'nowhere/teams.csv'"),
    ({"relevance_threshold": 3}, "relevance_threshold must be 0"),
    ({"real_replicates": 0}, "real_replicates must be an integer >= 1"),
])
def test_notebook_02_stops_on_bad_team_table_and_threshold(tmp_path, monkeypatch, values, message):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))
    with pytest.raises(pm.PapermillExecutionError, match=message):
        _execute(tmp_path, "02_unanimity_evaluation", values)


def test_notebook_03_stops_on_a_threshold_above_the_top_level(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))
    with pytest.raises(pm.PapermillExecutionError, match="relevance_threshold must be 0"):
        _execute(tmp_path, "03_prm_estimation", {"relevance_threshold": 4})


def test_notebook_05_runs_on_preferences_with_one_question_only(tmp_path, monkeypatch):
    """A preferences file that asks only the diversity question: no section or conclusion sentence
    assumes a 'relevance' question (the normaliser sentence once read the relevance table)."""
    import pandas as pd

    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))
    prefs = pd.read_csv(EXAMPLES / "preferences.tsv", sep="\t", dtype=str)
    only = tmp_path / "diversity_only.tsv"
    prefs[prefs.question == "diversity"].to_csv(only, sep="\t", index=False)
    div = EXAMPLES / "diversity"
    _execute(tmp_path, "05_preference_agreement", {
        "data": "files", "preferences_path": str(only), "diversity_qrels_path": str(div / "qrels.txt"),
        "intents_path": str(div / "intents.txt"), "intent_types_path": str(div / "intent_types.tsv"),
        "runs_glob": str(div / "runs"), "B": 100, "scheduler": "serial"})
    nb = json.loads((tmp_path / "out.ipynb").read_text(encoding="utf-8"))
    from helpers.notebook import findings

    conclusion = findings.conclusion_markdown(nb)     # the conclusion cell (an appendix may follow it)
    assert "| Which measure agrees best with these assessors (diversity; HSD at 0.05)? |" in conclusion
    assert "relevance" not in conclusion
