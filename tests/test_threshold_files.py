"""The relevance threshold of a run on files: set by the user, or taken from the collection when the
files are a copy of one the project knows (by checksum); never guessed (trec_eval's level >= 1
would count TREC DL's 'related' passages as relevant)."""

from __future__ import annotations

import hashlib
import os

import papermill as pm
import pytest

from helpers import paths
from helpers.data import registry, thresholds
from helpers.notebook import pipeline

EXAMPLES = paths.ROOT / "data" / "examples"


def test_an_explicit_threshold_or_the_collections_own():
    assert thresholds.for_run(3, "files", qrels_path=str(EXAMPLES / "qrels.txt")) == 3
    assert thresholds.for_run(0, "stc-like", collections={"stc-like": 1, "dl19": 2}) == 1
    assert thresholds.for_run(0, "dl19", collections={"stc-like": 1, "dl19": 2}) == 2
    assert thresholds.for_run(0, "dl19-passage") == 2          # the table of collections


def test_own_files_must_say_their_threshold():
    with pytest.raises(ValueError, match=r"relevance_threshold: 0 .* dataset 'files' the files do not say which level "
                                         r"is relevant .* 2 for TREC Deep Learning passage ranking"):
        thresholds.for_run(0, "files", qrels_path=str(EXAMPLES / "qrels.txt"))
    assert thresholds.recognise(str(EXAMPLES / "qrels.txt")) is None
    assert thresholds.recognise("") is None and thresholds.recognise(str(EXAMPLES / "no-such-file.txt")) is None


def test_a_known_collection_is_recognised_by_its_checksum(tmp_path, monkeypatch):
    """A copy of the NIST DL-19 passage qrels (here: a file given its checksum in a stand-in
    registry) takes TREC's threshold 2; the same file changed by one byte does not."""
    copy = tmp_path / "qrels.dl19-passage.txt"
    copy.write_text("19335 0 1017759 0\n19335 0 1082489 3\n")
    real = registry.REGISTRY["dl19-nist-qrels"]
    pinned = registry.RemoteFile("qrels/qrels.dl19-passage.txt", hashlib.sha256(copy.read_bytes()).hexdigest(),
                                 copy.stat().st_size)
    monkeypatch.setattr(registry, "REGISTRY", {**registry.REGISTRY,
                                               "dl19-nist-qrels": registry.Dataset(**{**real.__dict__, "files": (pinned,)})})
    assert thresholds.recognise(str(copy)) == "dl19-passage"
    assert thresholds.for_run(0, "files", qrels_path=str(tmp_path / "*.txt")) == 2
    copy.write_text("19335 0 1017759 0\n19335 0 1082489 2\n")
    assert thresholds.recognise(str(copy)) is None


@pytest.mark.skipif(not os.environ.get("SUBJEVAL_DATA_MIRROR") and not (paths.ROOT / "data" / "external").is_dir(),
                    reason="the DL-19 public data is neither downloaded nor mirrored")
def test_the_real_dl19_qrels_are_recognised():
    from helpers.data import datasets

    nist = datasets.fetch("dl19-nist-qrels")["qrels/qrels.dl19-passage.txt"]
    assert thresholds.recognise(str(nist)) == "dl19-passage"


def test_notebook_02_on_own_files_without_a_threshold_stops_saying_what_to_set(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))
    values = {"profile": "filesmode", "dataset": "files", "qrels_path": str(EXAMPLES / "qrels.txt"),
              "runs_glob": str(EXAMPLES / "runs"), "ratings_d_max": 3, "B": 100}
    with pytest.raises(pm.PapermillExecutionError, match="set relevance_threshold to the lowest relevant level"):
        pm.execute_notebook(str(paths.NOTEBOOKS / "02_unanimity_evaluation.ipynb"), str(tmp_path / "out.ipynb"),
                            parameters=values, kernel_name=pipeline.KERNEL, cwd=str(tmp_path), progress_bar=False)
