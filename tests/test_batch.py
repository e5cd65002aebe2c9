"""Several notebooks of a run at once (helpers.notebook.batch, `notebooks run --jobs`)."""

from __future__ import annotations

import json

import pytest

from helpers.notebook import batch, pipeline


@pytest.mark.parametrize("jobs, n, expected", [(1, 6, 1), (2, 6, 2), ("3", 6, 3), (8, 3, 3), (2, 0, 1)])
def test_resolve_jobs_caps_at_the_notebooks_of_the_run(jobs, n, expected):
    assert batch.resolve_jobs(jobs, n) == expected


def test_resolve_jobs_auto_is_one_per_core(monkeypatch):
    monkeypatch.setattr(batch.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert batch.resolve_jobs("auto", 10) == 3 and batch.resolve_jobs(None, 2) == 2


@pytest.mark.parametrize("bad", [0, -1, "two", "1.5", "", True, 2.5, " 2x"])
def test_resolve_jobs_refuses_what_is_not_a_count(bad):
    with pytest.raises(ValueError, match="--jobs must be a whole number >= 1 or 'auto'"):
        batch.resolve_jobs(bad, 6)


def test_slowest_first_orders_by_the_last_runtimes(tmp_path):
    books = [tmp_path / f"0{k}_x.ipynb" for k in range(1, 5)]
    runtimes = tmp_path / "runtimes.json"
    runtimes.write_text(json.dumps({"01_x": 5.0, "02_x": 40.0, "04_x": 12.5, "other": 99}), encoding="utf-8")
    assert [b.stem for b in batch.slowest_first(books, runtimes)] == ["02_x", "04_x", "01_x", "03_x"]
    assert batch.slowest_first(books, tmp_path / "missing.json") == books
    runtimes.write_text("{not json", encoding="utf-8")
    assert batch.slowest_first(books, runtimes) == books


def test_cli_refuses_a_bad_jobs_value_before_any_kernel(capsys):
    assert pipeline.main(["run", "--profile", "ci", "--jobs", "0", "01"]) == 2
    assert "--jobs must be a whole number >= 1 or 'auto', got '0'" in capsys.readouterr().err


def test_two_notebooks_run_at_the_same_time(tmp_path, monkeypatch, run_demo_notebooks):
    """With jobs=2 the two notebooks of a run execute at once, each in its own runner process with
    the caller's environment: each one waits for a file the other writes when it starts (a run one
    after the other would fail the first notebook), and both publish under the caller's reports
    folder, set after the fork server may have started."""
    import nbformat

    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    books = []
    for k in range(2):
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
        nb.cells = [nbformat.v4.new_code_cell("seed: int = 1  # seed", metadata={"tags": ["parameters"]}),
                    nbformat.v4.new_code_cell(
                        "import time, pathlib\n"
                        f"flags = pathlib.Path({str(tmp_path)!r})\n"
                        f"(flags / 'started{k}').touch()\n"
                        "deadline = time.monotonic() + 120\n"
                        f"while not (flags / 'started{1 - k}').exists():\n"
                        "    assert time.monotonic() < deadline, 'the other notebook never started'\n"
                        "    time.sleep(0.1)\n"
                        "print('met')")]
        path = tmp_path / f"0{k + 1}_pair{k}.ipynb"
        nbformat.write(nb, str(path))
        books.append(path)
    results, text = run_demo_notebooks(books, jobs=2)
    assert [(stem, status) for stem, status, _ in results] == [("01_pair0", "ok"), ("02_pair1", "ok")], text
    assert "running 2 notebooks at a time (--jobs 2)" in text
    assert "from the first start to the last end (2 at a time)" in text
    for path in books:
        nb = json.loads((tmp_path / "reports" / "executed" / "ci" / path.name).read_text(encoding="utf-8"))
        assert "".join(nb["cells"][-1]["outputs"][0]["text"]) == "met\n"


def _scheduler_notebook(tmp_path, only_when=None):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    if only_when is not None:
        nb.metadata["subjeval"] = {"dask_only_when": only_when}
    nb.cells = [nbformat.v4.new_code_cell('data: str = "simulated"  # source\nscheduler: str = "local"  # where',
                                          metadata={"tags": ["parameters"]})]
    path = tmp_path / "07_demo.ipynb"
    nbformat.write(nb, str(path))
    return path


def test_the_run_cluster_is_started_only_for_the_parameters_that_use_it(tmp_path, monkeypatch):
    """A notebook's metadata can say for which parameter values its replicates run on dask
    (notebook 06: simulated pilots only); the runner starts no cluster for the other values."""
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    plain = _scheduler_notebook(tmp_path)
    assert pipeline.uses_local_dask(plain, {}) and pipeline.uses_local_dask(plain, {"data": "dl19"})
    assert not pipeline.uses_local_dask(plain, {"scheduler": "serial"})
    marked = _scheduler_notebook(tmp_path, {"data": ["simulated"]})
    assert pipeline.uses_local_dask(marked, {}) and pipeline.uses_local_dask(marked, {"data": "simulated"})
    assert not pipeline.uses_local_dask(marked, {"data": "dl19"})
    assert not pipeline.uses_local_dask(marked, {"data": "simulated", "scheduler": "serial"})
    real = pipeline.NOTEBOOKS / "06_study_design.ipynb"
    assert not pipeline.uses_local_dask(real, pipeline.load_parameters(real, "real"))
    assert pipeline.uses_local_dask(real, pipeline.load_parameters(real, "default"))


def test_a_huge_profile_value_is_not_echoed_whole(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "01_g.yaml").write_text("profile: " + "x" * 100_000 + "\nseed: 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"contradicts its output name 'mine'") as err:
        pipeline.run(params=folder, html=False, only=["01"])
    assert "(100,000 characters)" in str(err.value) and len(str(err.value)) < 600
