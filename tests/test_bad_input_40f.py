"""Round 40f of the adversarial probes: each class with an example of its own (none executes a
notebook; each test runs in well under a second)."""

from __future__ import annotations

import os

import pandas as pd
import pytest

from helpers.notebook import pipeline


# ---- 1. every entry of a --params folder that looks like a parameter file is used or refused --------

def _params_folder(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "01_gain_definitions.yaml").write_text("seed: 3\n")
    return folder


def test_params_folder_upper_case_suffix_is_refused_naming_the_spelling(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "04_theirs.Yml").write_text("seed: 4\n")
    with pytest.raises(ValueError, match=r"04_theirs\.Yml' has the suffix '\.Yml'; expected the spelling "
                                         r"'04_theirs\.yml'"):
        pipeline.parameter_files(folder, [])


def test_params_folder_entry_that_is_a_folder_is_refused(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "05_other.yml").mkdir()
    with pytest.raises(ValueError, match=r"05_other\.yml' is a folder, not a regular file"):
        pipeline.parameter_files(folder, [])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_params_folder_fifo_is_refused_not_reported_missing(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    os.mkfifo(folder / "06_pipe.yaml")
    with pytest.raises(ValueError, match=r"06_pipe\.yaml' is a named pipe \(FIFO\), not a regular file"):
        pipeline.parameter_files(folder, [])


def test_params_folder_link_to_a_device_names_the_target(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "02_null.yaml").symlink_to(os.devnull)
    with pytest.raises(ValueError, match=r"02_null\.yaml' is a link to '/dev/null', a character device, "
                                         r"not a regular file"):
        pipeline.parameter_files(folder, [])


def test_params_folder_notebook_stem_with_another_suffix_is_refused(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "03_prm_estimation.json").write_text("{}")
    with pytest.raises(ValueError, match=r"03_prm_estimation\.json' is named after notebook 03_prm_estimation "
                                         r"but has the suffix '\.json'; expected 03_prm_estimation\.yaml"):
        pipeline.parameter_files(folder, [])


def test_params_folder_other_entries_are_left_alone(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "README.md").write_text("notes\n")
    (folder / "notes").mkdir()
    files = pipeline.parameter_files(folder, sorted(pipeline.NOTEBOOKS.glob("01_*.ipynb")))
    assert [f.name for f in files.values()] == ["01_gain_definitions.yaml"]
