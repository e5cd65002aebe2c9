"""helpers.notebook.pipeline and helpers.notebook.reports: parameters, cleaning, atomic and byte-stable outputs."""

from __future__ import annotations

import json

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from helpers import paths  # noqa: E402
from helpers.notebook import pipeline, reports  # noqa: E402


def test_default_profile_has_no_parameters():
    assert pipeline.load_parameters(pipeline.discover(["01"])[0], "default") == {}


def test_profile_contradiction_is_rejected(tmp_path, monkeypatch):
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "01_gain_definitions.yaml").write_text("profile: real\n")
    monkeypatch.setattr(pipeline, "PARAMS", tmp_path)
    monkeypatch.setattr(pipeline, "ROOT", tmp_path)
    with pytest.raises(ValueError, match="contradicts its output name 'ci'"):
        pipeline.load_parameters(paths.NOTEBOOKS / "01_gain_definitions.ipynb", "ci")


def test_unknown_notebook_selection(capsys):
    with pytest.raises(ValueError, match="no notebook matches"):
        pipeline.discover(["99"])
    # a usage error of the command: status 2 and the program's prefix, before any kernel
    assert pipeline.main(["run", "--no-html", "7"]) == 2
    assert capsys.readouterr().err.startswith("python -m helpers notebooks: error: no notebook matches ['7']")


def test_clean_strips_volatile_keeps_outputs_and_tags():
    nb = {"metadata": {"papermill": {"duration": 1.0}, "kernelspec": {"name": "x"}},
          "cells": [{"cell_type": "code", "execution_count": 1, "source": "x",
                     "metadata": {"tags": ["parameters"], "papermill": {"start_time": "t"},
                                  "execution": {"iopub.status.busy": "t"}},
                     "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}]},
                    {"cell_type": "code", "execution_count": 2, "source": "y = 1",
                     "metadata": {"tags": ["injected-parameters"]}, "outputs": []}]}
    out = pipeline.clean(nb)
    assert "papermill" not in out["metadata"] and out["metadata"]["kernelspec"]["name"] == "python3"
    assert len(out["cells"]) == 1
    cell = out["cells"][0]
    assert cell["metadata"] == {"tags": ["parameters"]} and cell["outputs"] and cell["execution_count"] == 1
    assert "papermill" in nb["metadata"], "clean must not mutate its input"


def test_reports_dir_profiles(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    assert paths.reports_dir("default") == tmp_path
    assert paths.reports_dir("real") == tmp_path / "real"
    with pytest.raises(ValueError, match="simple name"):
        paths.reports_dir("../x")


def test_figures_are_byte_stable_and_metrics_are_strict_json(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    rep = reports.Reporter("07_demo", "default")
    blobs = []
    for _ in range(2):
        fig, ax = plt.subplots()
        ax.plot([0, 1], [1, 0])
        pdf, png = rep.save_fig(fig, "line")
        plt.close(fig)
        blobs.append((pdf.read_bytes(), png.read_bytes()))
    assert blobs[0] == blobs[1]
    assert b"CreationDate" not in blobs[0][0]
    path = rep.save_metrics({"x": float("nan"), "y": 1})
    assert json.loads(path.read_text()) == {"x": None, "y": 1}
    assert path == tmp_path / "metrics" / "07_demo.json"
    # the same sum computed in two orders differs in its last bits; the metrics file does not
    values = np.random.default_rng(3).random(1000)
    a, b = float(np.sum(values)), float(sum(values[::-1].tolist()))
    assert a != b
    assert rep.save_metrics({"s": a}).read_bytes() == rep.save_metrics({"s": b}).read_bytes()
    assert json.loads(path.read_text())["s"] == pytest.approx(a, rel=1e-11)


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    class Boom(bytes):
        pass

    target = tmp_path / "a" / "file.txt"
    reports.atomic_write_text(target, "old")
    with pytest.raises(TypeError):
        reports.atomic_write_bytes(target, object())  # not bytes: fails mid-write
    assert target.read_text() == "old"
    assert [p.name for p in target.parent.iterdir()] == ["file.txt"]


def test_reporter_rejects_bad_names():
    with pytest.raises(ValueError, match="NN_name"):
        reports.Reporter("gains")


def test_atomic_writes_honour_the_umask(tmp_path):
    import os

    old = os.umask(0o027)
    try:
        path = reports.atomic_write_text(tmp_path / "x.txt", "x")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o640
    old = os.umask(0o002)
    try:
        path = reports.atomic_write_text(tmp_path / "y.txt", "y")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o664


def test_reports_root_covers_executed_and_html(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    nb = pipeline.discover(["01"])[0]
    assert pipeline._html_target(nb, "real") == tmp_path / "html" / "real" / f"{nb.stem}.html"
    assert paths.reports_root() == tmp_path


def test_html_title_is_the_notebook_title(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 07 · A title with D♯ & <b>\n\ntext"), nbformat.v4.new_code_cell("1")]
    src = tmp_path / "07_demo.ipynb"
    nbformat.write(nb, str(src))
    html = pipeline.render_html(src, tmp_path / "07_demo.html").read_text(encoding="utf-8")
    assert "<title>07 · A title with D♯ &amp; &lt;b&gt;</title>" in html
    assert pipeline.notebook_title({"cells": [{"cell_type": "markdown", "source": "no heading"}]}, "x") == "x"


def test_clean_writes_jupyterlab_display_name():
    out = pipeline.clean({"metadata": {"kernelspec": {"display_name": "Python 3", "name": "python3"}}, "cells": []})
    assert out["metadata"]["kernelspec"]["display_name"] == "Python 3 (ipykernel)"


def _book_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_book", paths.ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_book_of_the_committed_notebooks(tmp_path, monkeypatch):
    """`make book`: an index linking every notebook (with its intro fields and runtime), reading
    pages without code, full pages with code, each notebook's saved figures and tables inline,
    and, with pdflatex, a PDF appendix with the figures and LaTeX tables (written fresh here)."""
    import io
    import shutil

    import pandas as pd

    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    rep = reports.Reporter("04_diversified_measures", "default", values=None)
    rep.save_table(pd.DataFrame({"measure": ["D♯-nDCG@10", "alpha_nDCG"], "d_max": [2, 4], "tau": [0.5, 0.25]}),
                   "kendall_tau", caption="Kendall's τ-b, 95% of runs & D#")
    fig, ax = plt.subplots(figsize=(3.3, 2))
    ax.plot([0, 1], [0, 1])
    rep.save_fig(fig, "asl_curves")
    plt.close(fig)
    pipeline.record_runtime(tmp_path / "reports" / "executed" / "default", "02_unanimity_evaluation", 12.34)
    book = _book_module()
    out = book.build("default", pdf=shutil.which("pdflatex") is not None, stream=io.StringIO())
    index = (out / "index.html").read_text(encoding="utf-8")
    for nb in pipeline.discover():
        assert f'href="{nb.stem}.html"' in index and f'href="code/{nb.stem}.html"' in index
        reading = (out / f"{nb.stem}.html").read_text(encoding="utf-8")
        full = (out / "code" / f"{nb.stem}.html").read_text(encoding="utf-8")
        assert "hl-ipython3" not in reading and "hl-ipython3" in full, nb.stem
        assert f"<title>{nb.stem[:2]} · " in reading
    assert "12 s (measured)" in index and "Sakai" in index  # a measured runtime; the 'Reproduces' field
    page = (out / "04_diversified_measures.html").read_text(encoding="utf-8")
    assert "../figures/04_diversified_measures/asl_curves.png" in page.replace(str(tmp_path / "reports"), "..")
    assert "D♯-nDCG@10" in page
    if shutil.which("pdflatex"):
        assert (out / "appendix.pdf").stat().st_size > 1000 and 'href="appendix.pdf"' in index
        tex = (out / "appendix.tex").read_text(encoding="utf-8")
        assert r"\input{../../tables/04_kendall_tau.tex}" in tex and "asl_curves.pdf" in tex


@pytest.mark.parametrize("name", ["../../../../tmp/escape", "a/b", "..", "C:\\x", "評価者01", "", " lead", "x" * 300,
                                  "mar_relevance\n", "nul\x00byte"])
def test_names_from_data_stay_in_the_reports_folder(tmp_path, monkeypatch, name):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    rep = reports.Reporter("05_demo", "default")
    written = rep.save_table(pd.DataFrame({"a": [1.0]}), f"mar_{name}")
    fig, ax = plt.subplots()
    written += rep.save_fig(fig, name)
    plt.close(fig)
    for path in written:
        assert path.resolve().parent in {(tmp_path / "reports" / "tables").resolve(),
                                         (tmp_path / "reports" / "figures" / "05_demo").resolve()}, path
        assert path.exists()
    assert {p.resolve() for p in (tmp_path / "reports").rglob("*") if p.is_file()} == {p.resolve() for p in written}


def test_distinct_names_never_share_a_file():
    from helpers.io.files import safe_stem

    names = ["a/b", "a_b", "a-b", "a b", "a?b", "評価者01", "評価者02", "..", ".", "mar_relevance"]
    stems = [safe_stem(n) for n in names]
    assert len(set(stems)) == len(names)
    assert safe_stem("mar_relevance") == "mar_relevance"     # plain names are kept as they are
    assert all("/" not in s and "\\" not in s and ".." not in s for s in stems)


def test_names_that_differ_only_for_some_file_systems_or_mimic_a_made_name_never_share_a_file():
    """Case (macOS and Windows fold it), Windows device names and trailing dots, and a plain name
    written like a name safe_stem made from another ('x-y-<its hash>'): still one file each."""
    import hashlib

    from helpers.io.files import safe_stem

    made = safe_stem("q/1")
    assert made == "q-1-" + hashlib.sha256(b"q/1").hexdigest()[:10]
    names = ["q/1", made, "Rel", "rel", "REL", "nul", "nul.txt", "a.", "a", "com1"]
    stems = [safe_stem(n) for n in names]
    assert len({s.lower() for s in stems}) == len(names), stems
    assert all(s.split(".")[0].lower() not in {"nul", "com1"} and not s.endswith(".") for s in stems)
    assert safe_stem("rel") == "rel" and safe_stem("table2_tau-layout.v1") == "table2_tau-layout.v1"


def test_a_kernel_that_did_not_start_is_started_again_and_nothing_else_is(tmp_path, capsys):
    """Kernels started at the same moment can race for a port (papermill #511): such a start is
    retried, with a note; a cell's failure or any other error is not."""
    import papermill as pm

    class Fake:
        PapermillExecutionError = pm.PapermillExecutionError

        def __init__(self, errors):
            self.errors, self.calls = list(errors), 0

        def execute_notebook(self, *args, **kwargs):
            self.calls += 1
            if self.errors:
                raise self.errors.pop(0)

    died = RuntimeError("Kernel died before replying to kernel_info")
    fake = Fake([died])
    pipeline._papermill(fake, tmp_path / "nb.ipynb", tmp_path / "out.ipynb", {})
    assert fake.calls == 2 and "the kernel did not start" in capsys.readouterr().err
    fake = Fake([died] * pipeline.KERNEL_START_ATTEMPTS)
    with pytest.raises(RuntimeError, match="kernel_info"):
        pipeline._papermill(fake, tmp_path / "nb.ipynb", tmp_path / "out.ipynb", {})
    assert fake.calls == pipeline.KERNEL_START_ATTEMPTS
    fake = Fake([RuntimeError("something else")])
    with pytest.raises(RuntimeError, match="something else"):
        pipeline._papermill(fake, tmp_path / "nb.ipynb", tmp_path / "out.ipynb", {})
    assert fake.calls == 1
    cell = pm.PapermillExecutionError(0, 1, "x = 1", "RuntimeError", "Kernel didn't respond in 60 seconds", [])
    fake = Fake([cell])
    with pytest.raises(pm.PapermillExecutionError):
        pipeline._papermill(fake, tmp_path / "nb.ipynb", tmp_path / "out.ipynb", {})
    assert fake.calls == 1


def test_one_dask_cluster_serves_every_notebook_of_a_run(tmp_path, monkeypatch, run_demo_notebooks):
    """`notebooks run` starts one LocalCluster (in the background, from the start of the run) and
    hands its address to the kernels of the notebooks whose scheduler is "local"; they use it
    instead of starting their own, and it is closed when the run ends."""
    import nbformat

    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    books = []
    for k, uses in enumerate([True, True]):
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
        cells = ['seed: int = 1  # seed']
        if uses:
            cells[0] += '\nscheduler: str = "local"  # where replicates run'
        nb.cells = [nbformat.v4.new_code_cell(cells[0], metadata={"tags": ["parameters"]})]
        if uses:
            nb.cells.append(nbformat.v4.new_code_cell(
                "import os\nfrom helpers.replicates import runner\n"
                "def study(rng):\n    return {'x': float(rng.random())}\n"
                "timings = {}\n"
                "table = runner.run_replicates(study, 4, seed, scheduler=scheduler, progress=False, timings=timings)\n"
                "print(timings['cluster'], os.environ['SUBJEVAL_DASK_SCHEDULER'], len(table))"))
        path = tmp_path / f"0{k + 1}_demo{k}.ipynb"
        nbformat.write(nb, str(path))
        books.append(path)
    results, text = run_demo_notebooks(books)
    assert [status for _, status, _ in results] == ["ok", "ok"], text
    assert text.count("dask: one LocalCluster of") == 1 and "for the 2 notebook(s) of this run" in text
    printed = []
    for path in books:
        nb = json.loads((tmp_path / "reports" / "executed" / "ci" / path.name).read_text(encoding="utf-8"))
        printed.append("".join(nb["cells"][-1]["outputs"][0]["text"]).split())
    assert printed[0][0] == printed[1][0] == "shared" and printed[0][1] == printed[1][1]   # one cluster, used twice
    assert printed[0][2] == "4"
    from distributed import Client

    with pytest.raises(OSError):   # closed with the run
        Client(printed[0][1], timeout="1s")
