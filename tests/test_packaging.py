"""The package installs beside other tools: numpy, pandas and scipy only (issue 19).

* Every module of ``helpers`` imports with the core dependencies alone: the notebook tooling
  (matplotlib, seaborn, Jupyter, papermill, nbval, dask, tqdm, krippendorff, yaml) is imported
  lazily, inside the functions that need it (checked statically and by importing every module
  with those packages blocked).
* In make test, a second venv of this interpreter puts the other pandas series (2.2; the lock has
  3.x) and the project installed from a wheel in front of this environment's packages: the command
  is ``subjeval`` there, and with ranx and ir_measures beside it the engine's tests and
  tests/test_interop.py pass under both series (issue 41, item 6).
* ``make test-slow`` (SUBJEVAL_SLOW_TESTS=1): ``pip install .`` in a fresh venv of every other
  Python 3.11-3.13 interpreter found on the machine, from nothing, pulls no Jupyter package; the
  same tests pass there with pandas 2.2 on one interpreter and 3.x on the others; and
  ``pip install '.[notebooks]'`` does pull Jupyter (about 100 packages; README "Installing").
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from helpers import paths

ROOT = paths.ROOT
CORE = {"numpy", "pandas", "scipy"}
JUPYTER = {"jupyterlab", "jupyter-server", "jupyter-client", "jupyter-core", "ipykernel", "notebook",
           "papermill", "nbval", "nbconvert", "nbformat", "nbclient", "ipython", "matplotlib", "seaborn"}
#: top-level modules of the optional tooling; none may be imported when a helpers module is
BLOCKED = ["matplotlib", "seaborn", "jupyterlab", "jupyter_server", "jupyter_client", "jupyter_core",
           "ipykernel", "IPython", "papermill", "nbval", "nbconvert", "nbformat", "nbclient", "tqdm",
           "krippendorff", "yaml", "dask", "distributed", "pytest", "statsmodels"]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _name(req: str) -> str:
    return _norm(re.match(r"[A-Za-z0-9_.-]+", req).group(0))


def test_core_dependencies_are_numpy_pandas_scipy():
    project = _project()
    assert {_name(r) for r in project["dependencies"]} == CORE
    notebooks = {_name(r) for r in project["optional-dependencies"]["notebooks"]}
    assert {"jupyterlab", "papermill", "seaborn", "nbval", "matplotlib", "dask"} <= notebooks


def _module_level_imports(path: Path) -> set[str]:
    """Top-level package names imported when the module is imported (not inside functions)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()

    def visit(nodes):
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            elif isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                visit(node.orelse)  # the body runs for type checkers only, never at import time
            elif isinstance(node, (ast.If, ast.Try, ast.With)):  # still run at import time
                for field in ("body", "orelse", "finalbody", "handlers"):
                    for child in getattr(node, field, []) or []:
                        visit(child.body if isinstance(child, ast.ExceptHandler) else [child])
    visit(tree.body)
    return found


def test_module_level_imports_are_stdlib_core_or_helpers():
    allowed = set(sys.stdlib_module_names) | CORE | {"helpers", "__future__"}
    offenders = {}
    for path in sorted((ROOT / "helpers").rglob("*.py")):
        extra = _module_level_imports(path) - allowed
        if extra:
            offenders[str(path.relative_to(ROOT))] = sorted(extra)
    assert not offenders, f"module-level imports beyond numpy/pandas/scipy (import them lazily): {offenders}"


def test_every_module_imports_with_the_tooling_blocked():
    code = f"""
import importlib, importlib.abc, pkgutil, sys
BLOCKED = {BLOCKED!r}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked optional package {{name}}")
sys.meta_path.insert(0, Block())
import helpers
names = [m.name for m in pkgutil.walk_packages(helpers.__path__, "helpers.")]
for name in names:
    importlib.import_module(name)
print(len(names))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) >= 20  # every module was imported


def _other_interpreters() -> list[str]:
    """Python 3.11-3.13 interpreters other than the running one: on PATH, or installed by pyenv."""
    found, seen = [], {sys.version_info[:2]}
    candidates = [shutil.which(f"python3.{m}") for m in (11, 12, 13)]
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        for m in (11, 12, 13):
            candidates += sorted(Path(root, "versions").glob(f"3.{m}.*/bin/python3.{m}"), reverse=True)
    for exe in filter(None, candidates):
        proc = subprocess.run([str(exe), "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
                              capture_output=True, text=True)
        if proc.returncode:
            continue  # e.g. a pyenv shim for a version that is not selected
        version = tuple(int(x) for x in proc.stdout.split())
        if version not in seen:
            seen.add(version)
            found.append(str(exe))
    return found


OTHERS = _other_interpreters()
ENGINE_TESTS = ["tests/test_measures.py", "tests/test_rel.py", "tests/test_inputs.py", "tests/test_names.py",
                "tests/test_measures_cli.py", "tests/test_trec_io.py", "tests/test_diversity.py", "tests/test_rank_order.py"]


def _pip_list(python: Path) -> set[str]:
    out = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], capture_output=True,
                         text=True, check=True).stdout
    return {_norm(line.split("==")[0]) for line in out.splitlines() if "==" in line}


def _venv(python: str, where: Path) -> Path:
    subprocess.run([python, "-m", "venv", str(where)], check=True, timeout=300)
    return where / "bin" / "python"


def _source(tmp_path: Path) -> str:
    """A copy of what `pip install .` reads, so that setuptools' build/ never lands in the checkout."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "constraints.txt"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "helpers", src / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    return str(src)


def _pip(py: Path, *args: str) -> None:
    proc = subprocess.run([str(py), "-m", "pip", "install", "--quiet", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]


#: The pandas series the engine supports (pyproject: pandas>=2.2): ranx 0.3 (numba) and ir_measures
#: users often stay on 2.2; the lock (constraints.txt) has 3.x.
PANDAS_SERIES = {"2.2": "pandas>=2.2,<2.3", "3": "pandas>=3,<4"}
SLOW = pytest.mark.skipif(os.environ.get("SUBJEVAL_SLOW_TESTS") != "1",
                          reason="downloads a whole environment per interpreter; set SUBJEVAL_SLOW_TESTS=1 (make test-slow)")


def _other_series() -> str:
    """The pandas series that the running environment does not have."""
    return "2.2" if int(__import__("pandas").__version__.split(".")[0]) >= 3 else "3"


def _overlay(where: Path) -> Path:
    """A second venv of this interpreter that sees this environment's packages behind its own (a
    `site.addsitedir` line, so the editable install's hooks load too): whatever is installed into
    it shadows this environment's copy. Cheap: only the packages installed into it are fetched."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=300)
    py = where / "bin" / "python"
    own = _python_in(py, "import sysconfig; print(sysconfig.get_paths()['purelib'])", where)
    base = sysconfig.get_paths()["purelib"]
    Path(own, "_subjeval_base_env.pth").write_text(f"import site; site.addsitedir({base!r})\n", encoding="utf-8")
    return py


def _pip_into(py: Path, *args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-compile", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]


def _engine_and_interop_tests(py: Path, series: str) -> str:
    """The engine's tests and tests/test_interop.py under ``py``; ranx and ir_measures must import."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run([str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-rfEs",
                           "-W", "ignore::DeprecationWarning", "-k", "not dl19", *ENGINE_TESTS, "tests/test_interop.py"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=1800)
    failed = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
    assert proc.returncode == 0, f"pandas {series}:\n" + "\n".join(failed) + "\n" + proc.stdout[-2000:]
    skipped = [ln for ln in proc.stdout.splitlines() if ln.startswith("SKIPPED") and "test_interop" in ln]
    assert not skipped, f"ranx or ir_measures did not import beside pandas {series}: {skipped}"
    return proc.stdout.strip().splitlines()[-1]


def test_the_other_pandas_series_beside_ranx_and_ir_measures(tmp_path):
    """Issue 41, item 6, in make test: the lock has pandas 3 (this environment, where ranx and
    ir_measures are test dependencies); a second venv puts pandas 2.2 and the project installed
    from a wheel (not editable) in front of them. There the installed command is `subjeval`, the
    package imports with pandas 2.2, and the engine's tests and tests/test_interop.py pass with
    ranx and ir_measures importing (ids read the same; both tools take the readers' frames and
    agree). The fresh venvs of other interpreters, built from nothing, run with make test-slow."""
    series = _other_series()
    py = _overlay(tmp_path / "venv")
    _pip_into(py, "--no-deps", _source(tmp_path))
    _pip_into(py, PANDAS_SERIES[series])
    out = _python_in(py, "import pandas, subjeval.measures as m; print(pandas.__version__, m.__file__)", tmp_path)
    version, where = out.split()
    assert version.startswith(series + "."), out
    assert Path(where).is_relative_to(tmp_path / "venv"), f"subjeval was not imported from the second venv: {where}"
    _installed_commands_name_subjeval(py, tmp_path)
    print(f"pandas {version}:", _engine_and_interop_tests(py, series))


def _matrix() -> list:
    """(interpreter, pandas series) of the fresh venvs: pandas 2.2 on the first other Python (on this
    one when there is none), the lock's pandas 3 on every further one (and on this one when there
    is no second)."""
    if not OTHERS:
        return [pytest.param(sys.executable, "2.2", id="this-python-pandas2.2"),
                pytest.param(sys.executable, "3", id="this-python-pandas3")]
    out = [pytest.param(OTHERS[0], "2.2", id=f"{Path(OTHERS[0]).name}-pandas2.2")]
    out += [pytest.param(p, "3", id=f"{Path(p).name}-pandas3") for p in OTHERS[1:]]
    if len(OTHERS) == 1:
        out.append(pytest.param(sys.executable, "3", id="this-python-pandas3"))
    return out


def _constraints_without(tmp_path: Path, names: set[str]) -> Path:
    """constraints.txt without the pins of ``names`` (the rest of the lock still holds)."""
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    kept = [ln for ln in lines if _norm(ln.split("==")[0].strip()) not in names]
    path = tmp_path / "constraints.txt"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def _installed_commands_name_subjeval(py: Path, cwd: Path) -> None:
    """Issue 41, item 7: inside a wheel the command calls itself `subjeval` (help, usage, errors),
    and the commands that need the checkout say so instead of finding nothing."""
    exe = py.parent / "subjeval"

    def run(*args):
        return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=cwd, timeout=300)

    top, evaluate, trec = run("--help"), run("evaluate", "--help"), run("trec_eval")
    assert top.returncode == 0 and top.stdout.startswith("usage: subjeval <command>"), top.stdout[:500]
    assert evaluate.returncode == 0 and evaluate.stdout.startswith("usage: subjeval evaluate"), evaluate.stdout[:300]
    for name in ("notebooks", "data"):
        args = ("notebooks", "run", "--profile", "ci", "01") if name == "notebooks" else ("data", "describe")
        proc = run(*args)
        assert proc.returncode == 2 and "project's checkout" in proc.stderr, (args, proc.stderr[-500:])
        assert proc.stderr.startswith(f"subjeval {name}: error:"), proc.stderr
    assert trec.returncode != 0 and "usage: subjeval trec_eval" in trec.stderr, trec.stderr[-500:]
    for proc in (top, evaluate, trec):
        out = proc.stdout + proc.stderr
        assert "python -m helpers" not in out and "helpers." not in out, out[:2000]


@SLOW
@pytest.mark.parametrize("python, series", _matrix())
def test_fresh_venv_core_install_then_beside_ranx_and_ir_measures(python, series, tmp_path):
    """In a fresh venv of another Python, from nothing: `pip install .` pulls numpy, pandas and scipy
    only (no Jupyter); then ranx and ir_measures join it, and the engine's tests and
    tests/test_interop.py pass there -- with pandas 2.2 on one interpreter and the lock's pandas 3
    on the others (issue 41: ids read the same, ranx and ir_measures take the readers' frames and
    agree). Downloads every wheel for each interpreter, so it runs with make test-slow."""
    py = _venv(python, tmp_path / "venv")
    constraints = str(_constraints_without(tmp_path, {"pandas"} if series == "2.2" else set()))
    _pip(py, "--no-compile", "-c", constraints, _source(tmp_path), PANDAS_SERIES[series])
    installed = _pip_list(py)
    assert CORE <= installed
    assert not installed & JUPYTER, f"pip install . pulled {sorted(installed & JUPYTER)}"
    _installed_commands_name_subjeval(py, tmp_path)
    _pip(py, "--no-compile", "-c", constraints, PANDAS_SERIES[series], "ranx", "ir_measures", "pytest", "hypothesis")
    version = subprocess.run([str(py), "-c", "import pandas, subjeval.measures; print(pandas.__version__)"],
                             capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert version.returncode == 0 and version.stdout.startswith(series + "."), version.stderr[-2000:]
    print(python, f"pandas {version.stdout.strip()}:", _engine_and_interop_tests(py, series))


@pytest.mark.skipif(os.environ.get("SUBJEVAL_SLOW_TESTS") != "1",
                    reason="installs ~100 packages into a fresh venv; set SUBJEVAL_SLOW_TESTS=1")
def test_fresh_venv_core_has_no_jupyter_and_notebooks_extra_has_it(tmp_path):
    py = _venv(sys.executable, tmp_path / "venv")
    src = _source(tmp_path)
    _pip(py, "-c", "constraints.txt", src)
    core = _pip_list(py)
    assert not core & JUPYTER, f"pip install . pulled {sorted(core & JUPYTER)}"
    _pip(py, "-c", "constraints.txt", f"{src}[notebooks]")
    full = _pip_list(py)
    assert {"jupyterlab", "papermill", "nbval", "seaborn", "ipykernel"} <= full
    print(f"pip install .: {len(core)} packages; pip install '.[notebooks]': {len(full)} packages")


def test_editable_install_as_make_does_it_prints_no_setuptools_box(tmp_path):
    """Issue 41, item 8: `make venv` installs the checkout editable with the Makefile's EDITABLE
    setting; setuptools' boxed "Editable installation ... same name as your package" notice (the
    folder helpers/ installs as subjeval) does not reach the user, and the install works."""
    setting = re.search(r"^EDITABLE := (\w+)=(\S+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert setting, "the Makefile's EDITABLE setting is gone"
    py = tmp_path / "venv" / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True, timeout=300)
    src = _source(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-compile",
                           "-e", src], capture_output=True, text=True, cwd=tmp_path, timeout=600,
                          env={**os.environ, setting.group(1): setting.group(2)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Editable installation" not in proc.stderr and "same" not in proc.stderr, proc.stderr[-3000:]
    assert _python_in(py, "import subjeval.paths as p; print(p.COMMAND)", tmp_path) == "subjeval"


def _python_in(py: Path, code: str, cwd: Path) -> str:
    proc = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=cwd, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip()


# --- one package, two import names (issue 27): the library is `subjeval`, the checkout's folder `helpers`

def test_setuptools_lists_every_package_folder_under_the_library_name():
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert cfg["package-dir"] == {"subjeval": "helpers"}
    folders = sorted(".".join(["subjeval", *p.parent.relative_to(ROOT / "helpers").parts])
                     for p in (ROOT / "helpers").rglob("__init__.py") if "__pycache__" not in p.parts)
    assert sorted(cfg["packages"]) == folders, "a package folder is missing from pyproject's list (or listed twice)"


def test_the_wheel_holds_subjeval_only(tmp_path):
    """`pip install .` puts `subjeval` into site-packages and no top-level `helpers` (which would
    collide with any user's helpers.py)."""
    import zipfile

    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "dist"),
                           _source(tmp_path)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"subjeval"}
    assert "subjeval/measures/adhoc.py" in names and not any(n.startswith("helpers/") for n in names)
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "subjeval = subjeval.__main__:main" in zipfile.ZipFile(wheel).read(entry).decode()


def _python(code: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip()


def test_both_names_give_the_same_modules_whichever_comes_first(tmp_path):
    same = ("from {a} import measures as a; from {b} import measures as b; import {a}.datasets as d; "
            "import {b}.measures.adhoc as x; print(a is b, d.__name__, x.evaluate is a.evaluate)")
    assert _python(same.format(a="helpers", b="subjeval"), tmp_path) == "True helpers.data.datasets True"
    assert _python(same.format(a="subjeval", b="helpers"), tmp_path) == "True subjeval.data.datasets True"


def test_a_users_own_helpers_module_is_never_shadowed(tmp_path):
    (tmp_path / "helpers.py").write_text("X = 'the user s own'\n", encoding="utf-8")
    out = _python("import subjeval.measures as m, helpers; print(helpers.X, '|', m.__name__)", tmp_path)
    assert out == "the user s own | subjeval.measures"
    assert _python("import helpers; print(helpers.X)", tmp_path) == "the user s own"


def test_outside_a_checkout_the_command_says_what_needs_the_checkout(monkeypatch, capsys):
    """Issue 41, item 7 (in process; the fresh venvs above run the installed `subjeval`): where the
    library is installed, `data` and `notebooks` say they need the project's checkout, naming the
    command as called; the usage names `subjeval` and no module path."""
    import helpers.__main__ as entry

    monkeypatch.setattr(paths, "is_checkout", lambda: False)
    monkeypatch.setattr(paths, "COMMAND", "subjeval")
    assert entry.main(["notebooks", "run", "--profile", "ci", "01"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("subjeval notebooks: error: the notebooks") and "project's checkout" in err and "\n" == err[-1]
    assert entry.main(["data", "describe"]) == 2 and "subjeval data: error:" in capsys.readouterr().err
    assert entry.main(["--help"]) == 0
    usage = capsys.readouterr().out
    assert usage.startswith("usage: subjeval <command>") and "helpers." not in usage and "python -m helpers" not in usage
    monkeypatch.undo()   # the checkout itself
    assert paths.is_checkout() and paths.COMMAND == "python -m helpers"


def test_the_command_line_under_both_names(tmp_path):
    for name in ("helpers", "subjeval"):
        proc = subprocess.run([sys.executable, "-m", name, "--help"], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert proc.returncode == 0 and "trec_eval" in proc.stdout, proc.stderr
