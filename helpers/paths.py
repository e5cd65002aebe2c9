"""Project paths, anchored on the location of this package (never the working directory).

Papermill and nbval start kernels in whatever directory they were launched from, so notebooks
must not build paths from ``os.getcwd()``. Everything here is derived from ``__file__``.

``SUBJEVAL_REPORTS_DIR`` (environment) redirects report outputs, which the test-suite uses to
keep smoke runs away from the committed reports.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT: Path = Path(__file__).resolve().parent.parent
NOTEBOOKS: Path = ROOT / "notebooks"
PARAMS: Path = ROOT / "params"
DATA: Path = ROOT / "data"
DATA_RAW: Path = DATA / "raw"
DATA_EXTERNAL: Path = DATA / "external"
DATA_INTERIM: Path = DATA / "interim"

#: How the command line is called: ``python -m helpers`` in the checkout, ``subjeval`` where the
#: package runs as the installed library (``pip install .``: the ``subjeval`` command or
#: ``python -m subjeval``), by the name the package was imported under.
COMMAND: str = "python -m helpers" if __name__.partition(".")[0] == "helpers" else "subjeval"


def is_checkout() -> bool:
    """Whether the package sits in the project's checkout (notebooks, params and data beside it)
    rather than installed as a library, where only the measure engine and statistics come along."""
    return (ROOT / "pyproject.toml").is_file() and NOTEBOOKS.is_dir()


def caller_directory() -> Path:
    """The directory the user started from: the working directory, except in a Jupyter kernel,
    which runs in the notebook's folder (JupyterLab, ``papermill --cwd``) while ``$PWD`` still
    names the directory of the shell that started Jupyter or papermill."""
    cwd = Path.cwd()
    kernel = sys.modules.get("ipykernel.kernelapp")   # imported, and running: this is a kernel
    if kernel is not None and kernel.IPKernelApp.initialized():
        pwd = os.environ.get("PWD", "")
        if pwd and os.path.isabs(pwd) and os.path.isdir(pwd):
            return Path(pwd)
    return cwd


def reports_root() -> Path:
    """Root of every output (``reports/`` or ``SUBJEVAL_REPORTS_DIR``): tables, figures, metrics,
    executed notebooks and their HTML all live under it, so a read-only checkout can run notebooks.

    A relative ``SUBJEVAL_REPORTS_DIR`` is resolved against the caller's directory
    (:func:`caller_directory`), the same for every output; the runner hands its kernels the
    absolute path."""
    value = os.environ.get("SUBJEVAL_REPORTS_DIR")
    if not value:
        return ROOT / "reports"
    path = Path(os.path.expanduser(value))
    return path if path.is_absolute() else caller_directory() / path


def reports_dir(profile: str = "default") -> Path:
    """Folder that receives figures, tables and metrics for a parameter profile.

    The default profile writes to ``reports/`` (the canonical, committed results); any other
    profile writes to ``reports/<profile>/`` so that e.g. the ``ci`` smoke runs never overwrite the
    canonical numbers. ``SUBJEVAL_REPORTS_DIR`` overrides the root.
    """
    root = reports_root()
    if not profile or profile == "default":
        return root
    if not profile.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"profile must be a simple name like 'ci' or 'real', got {profile!r}")
    return root / profile
