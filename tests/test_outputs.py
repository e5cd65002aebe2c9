"""A run's outputs are one consistent set (helpers.notebook.outputs): staged, then published whole.

A small notebook that writes one table named after its seed (so that two runs write different
files), optionally one more table, then can wait and fail after its tables are written. It is run
through the project's runner (``pipeline.execute``), through plain papermill, as a JupyterLab
session would run it, concurrently, and interrupted with Ctrl-C.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import nbformat
import papermill as pm
import pytest

from helpers import paths
from helpers.notebook import outputs, pipeline

NB = "01_gain_definitions"  # the notebook whose outputs the demo writes (its run folder rules apply)


def _demo(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.cells = [
        nbformat.v4.new_code_cell("import time\nimport pandas as pd\nfrom helpers.notebook import params, reports"),
        nbformat.v4.new_code_cell("seed: int = 1  # names the table\nfail: bool = False  # fail after the tables\n"
                                  "wait: float = 0.0  # seconds before failing or ending\n"
                                  "extra: bool = False  # one more table", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("params.validate(globals())\n"
                                  f"values = {{**params.notebook_defaults({NB!r}), 'seed': seed, 'profile': 'demo'}}\n"
                                  f"out = reports.Reporter({NB!r}, 'demo', values=values)"),
        nbformat.v4.new_code_cell("out.save_table(pd.DataFrame({'seed': [seed]}), f't{seed}')\n"
                                  "if extra:\n    out.save_table(pd.DataFrame({'x': [1]}), 'extra')"),
        nbformat.v4.new_code_cell("time.sleep(wait)\nif fail:\n    raise ValueError('late failure of the demo')"),
        nbformat.v4.new_code_cell("_ = out.save_metrics({'seed': seed})"),
    ]
    path = tmp_path / "demo.ipynb"
    nbformat.write(nb, str(path))
    return path


def _set(folder):
    """The files of NB in a run folder, by relative path, with their bytes (the record of the
    parameters, written for every run that is not a canonical profile's, left out)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in outputs.notebook_files(folder, NB)
            if p.parent.name != "parameters"}


def _staging_left(root):
    base = root / outputs.STAGING
    return sorted(p.name for p in base.iterdir() if p.is_dir()) if base.is_dir() else []


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    return tmp_path / "reports"


def test_rerun_with_other_values_replaces_the_set_and_a_failed_rerun_changes_nothing(tmp_path, root):
    demo = _demo(tmp_path)
    folder, executed = root / "mine", root / "executed" / "mine" / "demo.ipynb"
    (folder / "tables").mkdir(parents=True)
    (folder / "tables" / "02_other_notebook.csv").write_text("kept\n")   # another notebook's file
    pipeline.execute(demo, {"seed": 1, "extra": True}, executed, run_name="mine")
    assert sorted(_set(folder)) == ["metrics/01_gain_definitions.json", "tables/01_extra.csv", "tables/01_extra.tex",
                                    "tables/01_t1.csv", "tables/01_t1.tex"]
    pipeline.execute(demo, {"seed": 2}, executed, run_name="mine")        # other values, fewer tables
    second = _set(folder)
    assert sorted(second) == ["metrics/01_gain_definitions.json", "tables/01_t2.csv", "tables/01_t2.tex"]
    assert json.loads(second["metrics/01_gain_definitions.json"]) == {"seed": 2}
    assert json.loads((folder / "parameters" / f"{NB}.json").read_text())["seed"] == 2
    executed_second = executed.read_bytes()
    with pytest.raises(pm.PapermillExecutionError, match="late failure"):
        pipeline.execute(demo, {"seed": 3, "fail": True}, executed, run_name="mine")  # fails after writing table t3
    assert _set(folder) == second and executed.read_bytes() == executed_second
    assert "late failure" in pipeline.failed_copy(executed).read_text(encoding="utf-8")
    assert (folder / "tables" / "02_other_notebook.csv").read_text() == "kept\n"
    assert _staging_left(root) == []
    pipeline.execute(demo, {"seed": 4}, executed, run_name="mine")
    assert not pipeline.failed_copy(executed).exists()                   # the next success clears it


def test_runner_reports_a_failure_once_without_traceback_and_names_only_copies_it_wrote(tmp_path, root, monkeypatch):
    demo = _demo(tmp_path)
    monkeypatch.setattr(pipeline, "discover", lambda only=None: [demo])
    monkeypatch.setattr(pipeline, "load_parameters", lambda nb, profile: {"fail": True})
    monkeypatch.setattr(pipeline, "check_profile", lambda profile: None)
    import io

    out = io.StringIO()
    pipeline.run("ci", html=False, stream=out)
    text = out.getvalue()
    assert "FAILED after" in text and "nothing of this run was published" in text
    assert "ValueError: late failure of the demo" in text and "Traceback" not in text
    assert str(pipeline.failed_copy(root / "executed" / "ci" / "demo.ipynb")) in text

    # a failure before anything was executed (here: the notebook file is gone) names no copy, not
    # even the one an earlier failure left
    monkeypatch.setattr(pipeline, "discover", lambda only=None: [tmp_path / "gone" / "demo.ipynb"])
    out = io.StringIO()
    pipeline.run("ci", html=False, stream=out)
    assert "FileNotFoundError" in out.getvalue() and "executed copy" not in out.getvalue()
    assert not pipeline.failed_copy(root / "executed" / "ci" / "demo.ipynb").exists()


def test_plain_papermill_publishes_when_the_kernel_ends_and_not_after_a_failure(tmp_path, root, monkeypatch):
    demo = _demo(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "plain")
    run = dict(kernel_name="python3", progress_bar=False, cwd=str(tmp_path))
    pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 5, "extra": True}, **run)
    folder = root / "plain"
    first = _set(folder)
    assert sorted(first)[-2:] == ["tables/01_t5.csv", "tables/01_t5.tex"] and "tables/01_extra.csv" in first
    assert _staging_left(root) == []   # published at the last cell and gone then, whenever the kernel ends
    with pytest.raises(pm.PapermillExecutionError):
        pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 6, "fail": True}, **run)
    assert _set(folder) == first and _staging_left(root) == []
    pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 7}, **run)
    assert sorted(_set(folder)) == ["metrics/01_gain_definitions.json", "tables/01_t7.csv", "tables/01_t7.tex"]
    assert _staging_left(root) == []


def test_a_run_is_published_and_its_staging_gone_at_the_last_cell(tmp_path, root, monkeypatch):
    """Papermill and nbclient kill a kernel that does not exit within their wait (5 s; a dask
    cluster's shutdown can take longer), so its exit hooks may never run: a non-interactive run is
    published and its staging removed when the notebook's last code cell succeeds."""
    import types

    import IPython

    nb = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1"),
                                                    nbformat.v4.new_code_cell("print('end')")]), str(nb))
    handlers = []
    shell = types.SimpleNamespace(events=types.SimpleNamespace(register=lambda _e, f: handlers.append(f),
                                                                unregister=lambda _e, f: handlers.remove(f)))
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    monkeypatch.setattr(outputs.atexit, "register", lambda f: None)   # the hook a killed kernel never runs
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.setattr(outputs, "_KERNEL_RUNS", {})
    folder = root / "lastcell"
    stage = outputs.Staging.create(root, NB)
    stage.target(folder, NB)
    stage.path_for("tables/01_t.csv").parent.mkdir(parents=True)
    stage.path_for("tables/01_t.csv").write_text("t\n")
    assert outputs.attach_to_kernel(stage, nb)

    def cell(src):
        handlers[0](types.SimpleNamespace(success=True, info=types.SimpleNamespace(raw_cell=src)))

    cell("x = 1")
    assert _staging_left(root) == [stage.dir.name] and not (folder / "tables").exists()
    cell("print('end')")
    assert (folder / "tables" / "01_t.csv").read_text() == "t\n"
    assert _staging_left(root) == [] and handlers == []


def test_a_jupyterlab_session_publishes_after_every_successful_cell(tmp_path, root, monkeypatch):
    """Interactive: files appear as the cells run; the folder holds this session's files only."""
    demo = _demo(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "lab")
    folder = root / "lab"
    (folder / "tables").mkdir(parents=True)
    (folder / "tables" / "01_from_an_old_session.csv").write_text("old\n")
    (folder / outputs.MANIFESTS).mkdir()     # as the old session's publication listed it
    (folder / outputs.MANIFESTS / f"{NB}.json").write_text('["tables/01_from_an_old_session.csv"]')
    (folder / "tables" / "01_my_notes.csv").write_text("the user's own\n")   # listed nowhere: never removed
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "demo.ipynb"))
    with pytest.raises(pm.PapermillExecutionError):
        pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 8, "fail": True},
                            kernel_name="python3", progress_bar=False, cwd=str(tmp_path))
    assert sorted(_set(folder)) == ["tables/01_my_notes.csv", "tables/01_t8.csv", "tables/01_t8.tex"]
    assert outputs.published_files(folder, NB) == [f"parameters/{NB}.json", "tables/01_t8.csv", "tables/01_t8.tex"]


_CONCURRENT = textwrap.dedent("""
    import sys
    from pathlib import Path
    from helpers.notebook import pipeline
    seed = int(sys.argv[2])
    pipeline.execute(Path(sys.argv[1]), {"seed": seed, "wait": 0.3}, Path(sys.argv[3]), run_name="together")
""")


def test_concurrent_runs_into_one_folder_leave_one_whole_run(tmp_path, root):
    demo = _demo(tmp_path)
    executed = root / "executed" / "together" / "demo.ipynb"
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", _CONCURRENT, str(demo), str(seed), str(executed)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for seed in (11, 12, 13, 14)]
    logs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], logs
    files = _set(root / "together")
    seed = json.loads(files["metrics/01_gain_definitions.json"])["seed"]
    assert sorted(files) == ["metrics/01_gain_definitions.json", f"tables/01_t{seed}.csv", f"tables/01_t{seed}.tex"]
    nb = json.loads(executed.read_text(encoding="utf-8"))          # whole, and of the same run
    assert nb["metadata"]["papermill"]["parameters"]["seed"] == seed
    assert _staging_left(root) == []


def test_ctrl_c_publishes_nothing(tmp_path, root):
    demo = _demo(tmp_path)
    executed = root / "executed" / "stop" / "demo.ipynb"
    pipeline.execute(demo, {"seed": 21}, executed, run_name="stop")
    before = _set(root / "stop")
    code = ("import sys\nfrom pathlib import Path\nfrom helpers.notebook import pipeline\n"
            "pipeline.execute(Path(sys.argv[1]), {'seed': 22, 'wait': 60.0}, Path(sys.argv[2]), run_name='stop')")
    proc = subprocess.Popen([sys.executable, "-c", code, str(demo), str(executed)],
                            env={**os.environ, "PYTHONPATH": str(paths.ROOT)}, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not list((root / outputs.STAGING).glob("*/files/tables/01_t22.csv")):  # the kernel wrote its table
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()[0]
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)                                   # Ctrl-C in a terminal
    proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert _set(root / "stop") == before and _staging_left(root) == []


def test_a_run_killed_while_publishing_is_finished_by_the_next_one(tmp_path):
    """Roll forward: the publication list is written first, so a later sweep completes it."""
    root = tmp_path / "reports"
    folder = root / "f"
    (folder / "tables").mkdir(parents=True)
    (folder / "tables" / "01_stale.csv").write_text("stale\n")
    (folder / "tables" / "01_a.csv").write_text("old a\n")
    stage = outputs.Staging.create(root, "dead")
    stage.target(folder, NB)
    for name in ("tables/01_a.csv", "tables/01_b.csv"):
        stage.path_for(name).parent.mkdir(parents=True, exist_ok=True)
        stage.path_for(name).write_text("new\n")
    # the publication began (its lists written, one file moved) and the process died
    (stage.dir / "publishing.json").write_text(json.dumps({"keep": ["tables/01_a.csv", "tables/01_b.csv"],
                                                           "old": ["tables/01_a.csv", "tables/01_stale.csv"]}))
    os.replace(stage.path_for("tables/01_a.csv"), folder / "tables" / "01_a.csv")
    assert outputs.sweep(root) == []                                     # its owner still lives: kept
    os.close(stage._owner_fd)                                            # the owner dies
    assert outputs.sweep(root) == [stage.dir.name]
    assert {p.name: p.read_text() for p in (folder / "tables").iterdir()} == {"01_a.csv": "new\n", "01_b.csv": "new\n"}
    assert _staging_left(root) == []


def test_a_relative_reports_dir_is_the_callers_for_every_output(tmp_path, monkeypatch):
    """SUBJEVAL_REPORTS_DIR=out/rel: the runner and a kernel running in notebooks/ (JupyterLab,
    papermill --cwd) both resolve it against the caller's directory, never against notebooks/."""
    demo = _demo(tmp_path)
    caller = tmp_path / "caller"
    caller.mkdir()
    monkeypatch.chdir(caller)
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", "out/rel")
    executed = paths.reports_root() / "executed" / "rel" / "demo.ipynb"
    assert executed == caller / "out" / "rel" / "executed" / "rel" / "demo.ipynb"
    pipeline.execute(demo, {"seed": 31}, executed, run_name="rel",
                     html=paths.reports_root() / "html" / "rel" / "demo.html", runtimes_dir=executed.parent)
    # a kernel started by plain papermill in notebooks/, from a shell in `caller`
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("PWD", str(caller))
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "rel-plain")
    pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 32}, kernel_name="python3",
                        progress_bar=False, cwd=str(paths.NOTEBOOKS))
    out = caller / "out" / "rel"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and ".staging" not in p.parts) == [
        "executed/rel/demo.ipynb", "executed/rel/runtimes.json", "html/rel/demo.html",
        "rel-plain/.published/01_gain_definitions.json",
        "rel-plain/metrics/01_gain_definitions.json", "rel-plain/parameters/01_gain_definitions.json",
        "rel-plain/tables/01_t32.csv", "rel-plain/tables/01_t32.tex", "rel/.published/01_gain_definitions.json",
        "rel/metrics/01_gain_definitions.json", "rel/parameters/01_gain_definitions.json",
        "rel/tables/01_t31.csv", "rel/tables/01_t31.tex"]
    assert not (paths.NOTEBOOKS / "out").exists()


def test_a_run_started_again_in_one_kernel_retires_the_previous_one(tmp_path, root, monkeypatch):
    """JupyterLab: the validation cell run twice makes two Reporters; at the kernel's end only the
    newer run may publish (the older one's set would replace the newer files)."""
    demo = _demo(tmp_path)
    nb = nbformat.read(str(demo), as_version=4)
    nb.cells.insert(3, nbformat.v4.new_code_cell("seed = seed + 1\n" + nb.cells[2].source))   # a second Reporter
    nbformat.write(nb, str(demo))
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "twice")
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "demo.ipynb"))
    pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 40}, kernel_name="python3",
                        progress_bar=False, cwd=str(tmp_path))
    files = _set(root / "twice")
    assert sorted(files) == ["metrics/01_gain_definitions.json", "tables/01_t41.csv", "tables/01_t41.tex"]
    assert _staging_left(root) == []


# ---------------------------------------------------------------------------------------------
# Issue 40, third adversarial round: removal by manifest, links out of the reports root, memory
# ---------------------------------------------------------------------------------------------

def _publish(root, folder, files):
    stage = outputs.Staging.create(root, "t")
    try:
        stage.target(folder, NB)
        for name, text in files.items():
            stage.path_for(name).parent.mkdir(parents=True, exist_ok=True)
            stage.path_for(name).write_text(text)
        return stage.publish()
    finally:
        stage.discard()


def test_a_publication_removes_only_what_the_previous_one_listed_even_in_a_linked_tables_folder(tmp_path):
    """tables/ linked to a folder (inside the root) that also holds the user's own files named
    like the notebook's: only files the previous publication wrote (its manifest) are removed."""
    root = tmp_path / "reports"
    shared = root / "shared-tables"
    shared.mkdir(parents=True)
    (shared / "01_draft_for_the_paper.csv").write_text("mine\n")
    (shared / "01_draft_for_the_paper.tex").write_text("mine\n")
    folder = root / "linked"
    folder.mkdir()
    (folder / "tables").symlink_to(shared, target_is_directory=True)
    _publish(root, folder, {"tables/01_first.csv": "1\n", "metrics/01_gain_definitions.json": "{}\n"})
    assert sorted(p.name for p in shared.iterdir()) == ["01_draft_for_the_paper.csv", "01_draft_for_the_paper.tex",
                                                        "01_first.csv"]
    _publish(root, folder, {"tables/01_second.csv": "2\n"})              # the next run: other tables
    assert sorted(p.name for p in shared.iterdir()) == ["01_draft_for_the_paper.csv", "01_draft_for_the_paper.tex",
                                                        "01_second.csv"]
    assert not (folder / "metrics" / f"{NB}.json").exists()
    assert outputs.published_files(folder, NB) == ["tables/01_second.csv"]
    # a manifest edited by hand cannot point a removal outside the notebook's outputs
    (folder / outputs.MANIFESTS / f"{NB}.json").write_text('["../../outside.txt", "tables/02_x.csv", "tables/01_second.csv"]')
    (tmp_path / "outside.txt").write_text("x\n")
    (shared / "02_x.csv").write_text("another notebook's\n")
    _publish(root, folder, {"tables/01_third.csv": "3\n"})
    assert (tmp_path / "outside.txt").exists() and (shared / "02_x.csv").exists()
    assert not (shared / "01_second.csv").exists()


def test_a_folder_without_manifest_loses_nothing_unless_it_is_a_canonical_one(tmp_path, monkeypatch):
    """Before manifests: a named or hashed run folder keeps every file; the project's canonical
    folders (the root, a profile's) are cleaned once by the old rule, the Reporter's file types only."""
    root = tmp_path / "reports"
    for folder in (root / "mine", root, root / "real"):
        (folder / "tables").mkdir(parents=True, exist_ok=True)
        for name in ("01_old.csv", "01_old.tex", "01_notes.txt"):
            (folder / "tables" / name).write_text("x\n")
        _publish(root, folder, {"tables/01_new.csv": "n\n"})
    assert sorted(p.name for p in (root / "mine" / "tables").iterdir()) == ["01_new.csv", "01_notes.txt", "01_old.csv",
                                                                           "01_old.tex"]
    for folder in (root, root / "real"):
        assert sorted(p.name for p in (folder / "tables").iterdir()) == ["01_new.csv", "01_notes.txt"]


@pytest.mark.parametrize("link", ["tables", "metrics", "figures"])
def test_a_subfolder_linked_out_of_the_reports_root_is_refused(tmp_path, link):
    root = tmp_path / "reports"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "01_precious.csv").write_text("keep\n")
    folder = root / "mine"
    folder.mkdir(parents=True)
    (folder / link).symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ValueError, match=rf"mine/{link}: a symbolic link to .*elsewhere, outside the reports folder"):
        _publish(root, folder, {"tables/01_t.csv": "t\n"})
    assert sorted(p.name for p in elsewhere.iterdir()) == ["01_precious.csv"]
    # inside the root a link is fine
    check = root / "inside"
    check.mkdir()
    (folder / link).unlink()
    (folder / link).symlink_to(check, target_is_directory=True)
    outputs.check_inside(root, folder / link / "x")


def test_the_runner_refuses_links_out_of_the_root_before_any_kernel(tmp_path, root, monkeypatch, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "executed").mkdir(parents=True)
    (root / "executed" / "ci").symlink_to(elsewhere, target_is_directory=True)
    assert pipeline.main(["run", "--profile", "ci", "--no-html", "01"]) == 2
    err = capsys.readouterr().err
    assert "executed/ci: a symbolic link to" in err and "outside the reports folder" in err
    assert list(elsewhere.iterdir()) == [] and "[1/1]" not in capsys.readouterr().out


def test_a_kernel_stops_at_its_reporter_when_its_folder_links_out(tmp_path, root, monkeypatch):
    """Plain papermill: the notebook stops in the cell that makes its Reporter, before any work."""
    demo = _demo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "out-link").mkdir(parents=True)
    (root / "out-link" / "tables").symlink_to(elsewhere, target_is_directory=True)
    monkeypatch.setenv("PYTHONPATH", str(paths.ROOT))
    monkeypatch.setenv("SUBJEVAL_RUN_NAME", "out-link")
    with pytest.raises(pm.PapermillExecutionError, match="a symbolic link to .*outside the reports folder"):
        pm.execute_notebook(str(demo), str(tmp_path / "o.ipynb"), parameters={"seed": 50}, kernel_name="python3",
                            progress_bar=False, cwd=str(tmp_path))
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("cell, expected", [
    ("import numpy as np\nx = np.ones((10**7, 10**7))",
     r"out of memory in cell In \[\d\]: Unable to allocate 728\. TiB .*; this run's size parameters: .*: lower them"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)",
     r"the kernel died in cell \d of the notebook \('import os, signal'\) \(DeadKernelError: Kernel died\): the "
     r"operating system stops a process that exhausts the memory"),
])
def test_memory_exhausted_in_a_notebook_is_said_without_a_traceback(tmp_path, root, monkeypatch, cell, expected):
    import io
    import re

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.cells = [nbformat.v4.new_code_cell("n_items: int = 5  # a size", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell(cell)]
    path = tmp_path / "01_gain_definitions.ipynb"          # named like notebook 01: its size parameters are listed
    nbformat.write(nb, str(path))
    monkeypatch.setattr(pipeline, "discover", lambda only=None: [path])
    monkeypatch.setattr(pipeline, "load_parameters", lambda nb, profile: {"n_items": 7})
    monkeypatch.setattr(pipeline, "check_profile", lambda profile: None)
    out = io.StringIO()
    assert pipeline.run("ci", html=False, stream=out)[0][1] == "failed"
    text = out.getvalue()
    assert re.search(expected, text), text
    assert "n_items = 7" in text and "Traceback" not in text and "----" not in text
    # the executed copy kept with the error says why it stopped, for the book (helpers.notebook.runinfo)
    from helpers.notebook import runinfo

    copy = json.loads(pipeline.failed_copy(root / "executed" / "ci" / path.name).read_text(encoding="utf-8"))
    stopped = runinfo.failure(copy)
    assert stopped is not None and stopped.ename in ("MemoryError", "DeadKernelError")
