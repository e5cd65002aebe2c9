"""pyproject.toml (pip), environment.yml (conda) and constraints.txt must not drift apart.

pyproject.toml holds lower bounds (core: numpy, pandas, scipy; extras ``notebooks`` and ``test``),
constraints.txt the exact lock ``make`` installs with, environment.yml the same packages pinned to
the lock's minor versions.
"""

from __future__ import annotations

import re
import tomllib

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from helpers import paths


# conda-forge names that differ from the PyPI name they stand for.
CONDA_TO_PYPI = {"dask-core": "dask"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _project() -> dict:
    return tomllib.loads((paths.ROOT / "pyproject.toml").read_text())["project"]


def _requirements() -> dict[str, Requirement]:
    project = _project()
    reqs = {}
    for text in project["dependencies"] + sum(project["optional-dependencies"].values(), []):
        req = Requirement(text)
        reqs[_norm(req.name)] = req
        if _norm(req.name) == "dask" and "distributed" in req.extras:
            reqs["distributed"] = Requirement(f"distributed{req.specifier}")  # dask[distributed] pins it
    return reqs


def _lock() -> dict[str, str]:
    lock = {}
    for line in (paths.ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            lock[_norm(name)] = version
    return lock


def _environment() -> dict[str, str]:
    env = yaml.safe_load((paths.ROOT / "environment.yml").read_text())
    pins = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            for pip_dep in dep["pip"]:
                if pip_dep.startswith("-e"):
                    continue
                name, version = pip_dep.split("==")
                pins[_norm(name)] = version
        elif "=" in dep:
            name, version = dep.split("=")
            pins[CONDA_TO_PYPI.get(_norm(name), _norm(name))] = version
    return pins


def _minor(v: str) -> tuple:
    return tuple(v.split(".")[:2])


def test_requirements_are_lower_bounds():
    for name, req in _requirements().items():
        assert req.specifier and all(s.operator == ">=" for s in req.specifier), (
            f"pyproject.toml: {req} should be a lower bound (>=); exact versions belong in constraints.txt")


def test_same_packages_in_pyproject_and_environment():
    reqs, conda_pins = _requirements(), _environment()
    conda_pins.pop("python")
    assert set(reqs) == set(conda_pins), (
        f"only in pyproject: {sorted(set(reqs) - set(conda_pins))}; "
        f"only in environment.yml: {sorted(set(conda_pins) - set(reqs))}")


def test_environment_pins_the_lock_minor_versions():
    lock = _lock()
    drift = {n: (v, lock.get(n)) for n, v in _environment().items()
             if n != "python" and (lock.get(n) is None or _minor(v) != _minor(lock[n]))}
    assert not drift, f"environment.yml pin vs constraints.txt lock differ: {drift}"


def test_lock_satisfies_the_requirements():
    lock = _lock()
    for name, req in _requirements().items():
        assert name in lock, f"constraints.txt does not lock {name} (run `make lock`)"
        assert Version(lock[name]) in req.specifier, f"constraints.txt has {name}=={lock[name]}, outside {req}"


def test_python_version_agrees():
    env = yaml.safe_load((paths.ROOT / "environment.yml").read_text())
    conda_python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python="))
    assert conda_python == "python=3.11"  # the version the notebooks were executed with
    supported = SpecifierSet(_project()["requires-python"])
    assert all(v in supported for v in ("3.11", "3.12", "3.13"))
