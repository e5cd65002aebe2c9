"""Shared, tested helpers for the subjective-relevance evaluation notebooks.

Nothing happens at import time: submodules are imported explicitly by the notebooks
(``from helpers import gains, measures``). Paths are anchored on this package
(:mod:`helpers.paths`), never on the working directory.

Layers (each imports only from the layers below it; ``tests/test_architecture.py`` checks this):

=====================  ==========================================================================
``helpers.notebook``   notebook support: parameters, reports and LaTeX tables, the runner, figures
``helpers.replicates`` replicated studies: the dask runner and the notebooks' study functions
analyses               ``gains``, ``unanimity``, ``prm``, ``preference``, ``thuir``, ``simulate``
``helpers.measures``   the measure engine: names, ad hoc and diversity kernels, the CLI
``helpers.stats``      significance tests, intervals, agreement
``helpers.data``       the public datasets: registry, checksummed fetch, loaders, thresholds
``helpers.io``         file formats and readers, identifiers, coercion of foreign shapes, writes
``helpers.paths``      where the checkout's folders are
=====================  ==========================================================================

Modules that moved keep their old import path (``helpers.datasets``, ``helpers.sweep``, ...):
:data:`MOVED` maps each old name onto the module that now holds it, and importing the old name
gives that very module (the same object, so ``monkeypatch`` and ``isinstance`` work either way).
"""

import importlib
import importlib.abc
import importlib.util
import sys

__version__ = "0.1.0"

#: Old module path -> the module that holds it now (the re-layout of the package into layers).
MOVED = {
    "helpers.trec_io": "helpers.io.trec",
    "helpers.readers": "helpers.io.readers",
    "helpers.inputs": "helpers.io.coerce",
    "helpers.datasets": "helpers.data.datasets",
    "helpers.collections": "helpers.data.thresholds",
    "helpers.measure_names": "helpers.measures.names",
    "helpers.measures_cli": "helpers.measures.cli",
    "helpers.diversity": "helpers.measures.diversity",
    "helpers.sweep": "helpers.replicates.runner",
    "helpers.studies": "helpers.replicates.studies",
    "helpers.params": "helpers.notebook.params",
    "helpers.reports": "helpers.notebook.reports",
    "helpers.pipeline": "helpers.notebook.pipeline",
    "helpers.style": "helpers.notebook.style",
    "helpers.plots": "helpers.notebook.plots",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Import a moved module's old path as the module at its new path (see :data:`MOVED`)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def __init__(self):
        self._specs = {}

    def create_module(self, spec):
        module = importlib.import_module(MOVED[spec.name])
        self._specs[spec.name] = (module.__spec__, module.__loader__)
        return module

    def exec_module(self, module):
        # already executed under its new name; the import system has just stamped the old name's
        # spec on it: give it back its own, so that it still says where it lives
        module.__spec__, module.__loader__ = self._specs.pop(module.__spec__.name)


if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
    sys.meta_path.append(_MovedModules())


def optional(module: str, purpose: str):
    """Import ``module``, an optional dependency (the ``notebooks`` extra), or say how to get it.

    The core package needs numpy, pandas and scipy only (``pip install subjective-ir-eval``);
    replicated studies, progress bars and Krippendorff's alpha need the ``notebooks`` extra.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        raise ModuleNotFoundError(
            f"{purpose} needs the optional package {top!r}, which is not installed: install the "
            f"notebooks extra (pip install 'subjective-ir-eval[notebooks]', or `make venv` in the "
            f"checkout)", name=top) from exc
