"""Runs never overwrite: only a canonical profile's exact parameters write to its folder.

Unit tests of :func:`helpers.notebook.params.run_folder`, then the acceptance test of issue 18: a plain
``papermill`` run of a notebook with a changed parameter, in a git copy of this checkout with
``SUBJEVAL_REPORTS_DIR`` unset (as a user would run it), leaves ``git status`` clean and writes
under ``reports/runs/<profile>-<hash>/``.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import yaml

from helpers import paths
from helpers.notebook import params, reports

NB = "01_gain_definitions"


def _canonical(profile: str) -> dict:
    values = params.canonical_values(NB, profile, committed=False)
    assert values is not None
    if profile != "default":  # the runner resolves path parameters: none set in these profiles
        assert not any(v for k, v in values.items() if k.endswith(("_path", "_glob")))
    return values


@pytest.mark.parametrize("profile,folder", [("default", ""), ("real", "real"), ("ci", "ci")])
def test_canonical_profiles_keep_their_folder(profile, folder):
    assert params.run_folder(NB, _canonical(profile), committed=False)[0] == folder


def test_changed_parameter_gets_a_hash_folder():
    values = _canonical("default") | {"seed": 7}
    folder, why = params.run_folder(NB, values, committed=False)
    assert folder == f"runs/default-{params.parameters_hash(values)}" and "seed" in why
    assert folder != params.run_folder(NB, values | {"seed": 8}, committed=False)[0]
    real = _canonical("real") | {"n_items": 500}
    assert params.run_folder(NB, real, committed=False)[0].startswith("runs/real-")
    # a value of the right number but another type is another run (papermill -p 'p' 0 vs 0.0 is fine)
    assert params.run_folder(NB, _canonical("default") | {"p": 0.2}, committed=False)[0] == ""
    assert params.run_folder(NB, _canonical("default") | {"real_datasets": ["stc-ja"]}, committed=False)[0] != ""


def test_unknown_profile_and_named_runs(monkeypatch):
    mine = _canonical("default") | {"profile": "mine"}
    assert params.run_folder(NB, mine, committed=False)[0].startswith("runs/mine-")
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "mine")
    assert params.run_folder(NB, mine, committed=False) == ("mine", "named run 'mine'")
    # a run name that is a profile does not write into that profile's folder with other values
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "real")
    assert params.run_folder(NB, _canonical("real") | {"seed": 1}, committed=False)[0].startswith("runs/real-")
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "tables")
    with pytest.raises(params.ParameterError, match="run name 'tables' is not usable"):
        params.run_folder(NB, mine, committed=False)


def test_reporter_writes_non_canonical_runs_aside(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    values = _canonical("default") | {"seed": 11}
    rep = reports.Reporter(NB, "default", values=values)
    assert rep.root == tmp_path / "runs" / f"default-{params.parameters_hash(values)}"
    assert "parameters differ from profile 'default': seed" in capsys.readouterr().out
    assert json.loads((rep.root / "parameters" / f"{NB}.json").read_text())["seed"] == 11
    same = reports.Reporter(NB, "default", values=_canonical("default"))
    assert same.root == tmp_path and capsys.readouterr().out == ""
    assert not (tmp_path / "parameters").exists()


def test_committed_reference_is_git_head(tmp_path):
    """Outside the runner the reference defaults are the committed notebook's (JupyterLab may have
    autosaved an edited parameters cell); the file on disk otherwise."""
    if shutil.which("git") is None or params._committed_text(paths.NOTEBOOKS / f"{NB}.ipynb") is None:
        pytest.skip("not a git checkout with the notebook committed")
    assert params.notebook_defaults(NB, committed=True)["profile"] == "default"


def _copy_checkout(dst):
    """A git repository holding this checkout's tracked files as they are on disk now."""
    files = subprocess.run(["git", "-C", str(paths.ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        src = paths.ROOT / rel
        if src.is_file():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / rel)
    git = ["git", "-C", str(dst), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "copy"], check=True)
    return git


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_plain_papermill_rerun_with_changed_parameters_leaves_git_status_clean(tmp_path, monkeypatch):
    import papermill as pm

    repo = tmp_path / "repo"
    repo.mkdir()
    git = _copy_checkout(repo)
    ci = yaml.safe_load((paths.PARAMS / "ci" / f"{NB}.yaml").read_text())
    monkeypatch.setenv("PYTHONPATH", str(repo))  # the kernel imports the copy's helpers
    for k in ("SUBJEVAL_REPORTS_DIR", "SUBJEVAL_CHECKOUT", "SUBJEVAL_RUN_NAME"):
        monkeypatch.delenv(k, raising=False)  # as a user runs it: outputs under the checkout's reports/
    out = tmp_path / "executed.ipynb"
    pm.execute_notebook(str(repo / "notebooks" / f"{NB}.ipynb"), str(out), parameters={**ci, "seed": 99},
                        kernel_name="python3", progress_bar=False, cwd=str(repo / "notebooks"))
    status = subprocess.run(git[:3] + ["status", "--porcelain", "--untracked-files=all"], capture_output=True,
                            text=True, check=True).stdout
    assert status == "", f"the rerun touched the checkout:\n{status}"
    runs = list((repo / "reports" / "runs").glob("ci-*"))
    assert len(runs) == 1 and (runs[0] / "metrics" / f"{NB}.json").exists()
    assert json.loads((runs[0] / "parameters" / f"{NB}.json").read_text())["seed"] == 99
    text = json.dumps(json.loads(out.read_text())["cells"])
    assert "outputs of this run: <reports>/runs/ci-" in text


def test_a_second_checkout_sharing_the_environment_is_refused(tmp_path, monkeypatch):
    """Checkout 2's notebook run by a kernel whose helpers come from this checkout (one venv, an
    editable install of checkout 1): JupyterLab (kernel in notebooks/, or the session's notebook)
    and plain papermill stop in the validation cell instead of writing into this checkout."""
    other = tmp_path / "checkout2"
    (other / "helpers").mkdir(parents=True)
    (other / "helpers" / "paths.py").write_text("")
    (other / "notebooks").mkdir()
    for k in ("SUBJEVAL_CHECKOUT", "JPY_SESSION_NAME"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.chdir(other / "notebooks")
    with pytest.raises(params.ParameterError, match="two checkouts share one environment") as err:
        params.check_checkout()
    assert f"kernel runs in the checkout {other}" in str(err.value) and str(paths.ROOT) in str(err.value)
    monkeypatch.chdir(tmp_path)                       # outside every checkout: nothing to compare
    params.check_checkout()
    monkeypatch.setenv("JPY_SESSION_NAME", str(other / "notebooks" / f"{NB}.ipynb"))
    with pytest.raises(params.ParameterError, match="notebook open in Jupyter lies in the checkout"):
        params.check_checkout()
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))   # the runner's word comes first
    params.check_checkout()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_plain_papermill_in_a_second_checkout_writes_nowhere(tmp_path, monkeypatch):
    import papermill as pm

    repo = tmp_path / "checkout2"
    repo.mkdir()
    _copy_checkout(repo)
    out_dir = tmp_path / "reports"
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(out_dir))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))      # the shared venv's helpers: this checkout
    for k in ("SUBJEVAL_CHECKOUT", "SUBJEVAL_RUN_NAME", "JPY_SESSION_NAME"):
        monkeypatch.delenv(k, raising=False)
    with pytest.raises(pm.PapermillExecutionError, match="two checkouts share one environment"):
        pm.execute_notebook(str(repo / "notebooks" / f"{NB}.ipynb"), str(tmp_path / "executed.ipynb"),
                            parameters={"seed": 99}, kernel_name="python3", progress_bar=False,
                            cwd=str(repo / "notebooks"))
    assert not [p for p in out_dir.rglob("*") if p.is_file() and ".staging" not in p.parts]
