"""tools/polish_notebooks.py on copies of the notebooks: idempotent, lossless, nbval-equivalent."""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import subprocess
import sys

import nbformat
import papermill as pm
import pytest

from helpers import paths
from helpers.notebook import pipeline

spec = importlib.util.spec_from_file_location("polish_notebooks", paths.ROOT / "tools" / "polish_notebooks.py")
polish = importlib.util.module_from_spec(spec)
spec.loader.exec_module(polish)


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("polished")
    originals = {}
    for nb in pipeline.discover():
        shutil.copy2(nb, folder / nb.name)
        originals[nb.name] = nbformat.read(str(nb), as_version=4)
    assert polish.main([str(p) for p in sorted(folder.glob("*.ipynb"))]) == 0
    return folder, originals


def _params(nb):
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    return {t.target.id: ast.literal_eval(t.value) for t in ast.parse(cell.source).body}


def test_idempotent(copies):
    folder, _ = copies
    before = {p.name: p.read_bytes() for p in folder.glob("*.ipynb")}
    assert polish.main(["--check", *map(str, sorted(folder.glob("*.ipynb")))]) == 0
    assert polish.main([str(p) for p in sorted(folder.glob("*.ipynb"))]) == 0
    assert before == {p.name: p.read_bytes() for p in folder.glob("*.ipynb")}


def test_check_mode_reports_unpolished_notebooks(tmp_path):
    nb = pipeline.discover(["01"])[0]
    shutil.copy2(nb, tmp_path / nb.name)
    before = (tmp_path / nb.name).read_bytes()
    if polish.polish(nbformat.read(str(nb), as_version=4)):
        assert polish.main(["--check", str(tmp_path / nb.name)]) == 1
    assert (tmp_path / nb.name).read_bytes() == before


def test_lossless_and_tagged(copies):
    folder, originals = copies
    for name, old in originals.items():
        new = nbformat.read(str(folder / name), as_version=4)
        assert new.metadata.kernelspec == {"display_name": pipeline.KERNEL_DISPLAY_NAME, "language": "python",
                                           "name": "python3"}
        assert [c.get("id") for c in new.cells] == [c.get("id") for c in old.cells]
        assert [c.get("outputs") for c in new.cells] == [c.get("outputs") for c in old.cells]
        assert [c.get("execution_count") for c in new.cells] == [c.get("execution_count") for c in old.cells]
        for a, b in zip(old.cells, new.cells):
            assert set(a.metadata.get("tags", [])) <= set(b.metadata.get("tags", [])), "a tag was lost"
            if a.cell_type != "code":
                assert a.source == b.source
                continue
            first = a.source.split("\n", 1)[0].strip()
            if first in ("# NBVAL_CHECK_OUTPUT", "# NBVAL_IGNORE_OUTPUT"):
                tag = polish.MARKERS[first[2:]]
                assert tag in b.metadata.tags and b.source == a.source.split("\n", 1)[1]
            elif "parameters" not in a.metadata.get("tags", []):
                assert a.source == b.source
            assert "NBVAL_" not in b.source.split("\n", 1)[0]
        assert _params(new) == _params(old), f"{name}: parameter values changed"


def test_parameters_cell_wraps_and_papermill_still_reads_it(copies):
    folder, _ = copies
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(str(path), as_version=4)
        cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        for line in cell.source.split("\n"):
            assert len(line) <= polish.WIDTH or " " not in line.split("# ", 1)[-1].strip(), (path.name, line)
        original = pm.inspect_notebook(str(paths.NOTEBOOKS / path.name))
        wrapped = pm.inspect_notebook(str(path))
        assert list(wrapped) == list(original)
        for name, info in wrapped.items():
            assert info["inferred_type_name"] == original[name]["inferred_type_name"]
            assert info["default"] == original[name]["default"]
            assert info["help"] and original[name]["help"].startswith(info["help"]), (name, info["help"])


def test_hygiene_accepts_the_polished_form(copies, monkeypatch):
    """The hygiene tests pass on the polished copies (tags instead of marker comments)."""
    folder, _ = copies
    sys.path.insert(0, str(paths.ROOT / "tests"))
    try:
        import test_notebook_hygiene as hygiene
    finally:
        sys.path.pop(0)
    for path in sorted(folder.glob("*.ipynb")):
        data = hygiene._load(path)
        hygiene.test_exactly_one_parameters_cell_with_documented_literals((path, data))
        hygiene.test_anatomy((path, data))
        hygiene.test_kernel_is_python3((path, data))


def _nbval(tmp_path, tag: str, stored: str) -> int:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": pipeline.KERNEL_DISPLAY_NAME, "language": "python", "name": "python3"}
    cell = nbformat.v4.new_code_cell("print(1)", metadata={"tags": [tag]})
    cell.execution_count = 1
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=stored)]
    nb.cells = [cell]
    path = tmp_path / f"{tag}.ipynb"
    nbformat.write(nb, str(path))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax",
                           "--nbval-current-env", str(path)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    return done.returncode


def test_pinned_nbval_honours_the_tags(tmp_path):
    """nbval 0.11 reads the cell tags: a wrong stored output fails under nbval-check-output and
    passes under nbval-ignore-output (and the right one passes)."""
    assert _nbval(tmp_path, "nbval-check-output", "2\n") != 0
    assert _nbval(tmp_path, "nbval-check-output", "1\n") == 0
    assert _nbval(tmp_path, "nbval-ignore-output", "2\n") == 0


def test_installed_kernel_display_name_is_the_one_written():
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        name = KernelSpecManager().get_kernel_spec("python3").display_name
    except NoSuchKernel:
        pytest.skip("no python3 kernelspec installed")
    assert name == pipeline.KERNEL_DISPLAY_NAME


def test_wrap_parameter_line():
    line = 'scheduler: str = "local"  # ' + " ".join(["word"] * 40)
    out = polish.wrap_parameter_line(line, 60)
    assert out[0].startswith('scheduler: str = "local"  # word') and all(len(x) <= 60 for x in out)
    assert all(re.match(r"^ +# word", x) for x in out[1:])
    assert " ".join(x.split("# ", 1)[1] for x in out) == " ".join(["word"] * 40)
    assert polish.wrap_parameter_line("seed: int = 5  # short", 60) == ["seed: int = 5  # short"]
