"""pyproject.toml (pip), environment.yml (conda) and constraints.txt must not drift apart."""

from __future__ import annotations

import re
import tomllib

import yaml

from helpers import paths


# conda-forge names that differ from the PyPI name they stand for.
CONDA_TO_PYPI = {"dask-core": "dask"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pyproject() -> dict[str, str]:
    data = tomllib.loads((paths.ROOT / "pyproject.toml").read_text())
    reqs = data["project"]["dependencies"] + sum(data["project"]["optional-dependencies"].values(), [])
    pins = {}
    for req in reqs:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[([A-Za-z0-9_.,-]+)\])?==([0-9][0-9.]*)", req.strip())
        assert m, f"pyproject.toml: {req!r} is not pinned with =="
        pins[_norm(m.group(1))] = m.group(3)
        if _norm(m.group(1)) == "dask" and m.group(2) == "distributed":
            pins["distributed"] = m.group(3)  # dask[distributed] pins distributed to the same version
    return pins


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


def test_same_packages_same_minor_versions():
    pip_pins, conda_pins = _pyproject(), _environment()
    conda_pins.pop("python")
    assert set(pip_pins) == set(conda_pins), (
        f"only in pyproject: {sorted(set(pip_pins) - set(conda_pins))}; "
        f"only in environment.yml: {sorted(set(conda_pins) - set(pip_pins))}")
    drift = {n: (pip_pins[n], conda_pins[n]) for n in pip_pins if _minor(pip_pins[n]) != _minor(conda_pins[n])}
    assert not drift, f"minor versions differ (pyproject, environment.yml): {drift}"


def test_constraints_agree_with_pins():
    lock = {}
    for line in (paths.ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            lock[_norm(name)] = version
    for name, version in _pyproject().items():
        assert lock.get(name) == version, f"constraints.txt has {name}=={lock.get(name)}, pyproject pins {version}"


def test_python_version_agrees():
    env = yaml.safe_load((paths.ROOT / "environment.yml").read_text())
    conda_python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python="))
    data = tomllib.loads((paths.ROOT / "pyproject.toml").read_text())
    assert conda_python == "python=3.11" and ">=3.11,<3.12" == data["project"]["requires-python"]
