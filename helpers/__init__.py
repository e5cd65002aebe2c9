"""Shared, tested helpers for the subjective-relevance evaluation notebooks.

Nothing happens at import time: submodules are imported explicitly by the notebooks
(``from helpers import gains, measures``). Paths are anchored on this package
(:mod:`helpers.paths`), never on the working directory.

Layers (each imports only from the layers below it; ``tests/test_architecture.py`` checks this):

=====================  ==========================================================================
``helpers.findings``   each notebook's findings table, prose and caveats, as records
``helpers.notebook``   notebook support: parameters, reports and LaTeX tables, the runner, figures
``helpers.replicates`` replicated studies: the dask runner and the notebooks' study functions
analyses               ``gains``, ``unanimity``, ``prm``, ``preference``, ``thuir``, ``simulate``, ``design``
``helpers.measures``   the measure engine: names, ad hoc and diversity kernels, the CLI
``helpers.stats``      significance tests, intervals, agreement
``helpers.data``       the public datasets: registry, checksummed fetch, loaders, thresholds
``helpers.io``         file formats and readers, identifiers, coercion of foreign shapes, writes
``helpers.paths``      where the checkout's folders are
=====================  ==========================================================================

Two import names, one package. The installable library is ``subjeval`` (``pip install .`` puts
only ``subjeval`` into site-packages, so it cannot collide with a user's own ``helpers.py``); in
the checkout the notebooks import the same folder as ``helpers`` (``make venv`` puts the checkout
on the environment's path). Within one process whichever name is imported first is the package,
and the other name gives the very same module objects -- but only when it would load this folder
anyway: a ``helpers`` (or ``subjeval``) found elsewhere on the path is never shadowed.

Modules that moved keep their old import path (``helpers.datasets``, ``helpers.sweep``, ...):
:data:`MOVED` maps each old name onto the module that now holds it, and importing the old name
gives that very module (the same object, so ``monkeypatch`` and ``isinstance`` work either way).
"""

import importlib
import importlib.machinery
import os
import sys

__version__ = "0.1.0"

#: The import names of this package: the library's and the checkout's.
NAMES = ("subjeval", "helpers")

#: Old module path (under the package) -> the module that holds it now (the re-layout into layers).
MOVED = {
    "trec_io": "io.trec",
    "readers": "io.readers",
    "inputs": "io.coerce",
    "datasets": "data.datasets",
    "collections": "data.thresholds",
    "measure_names": "measures.names",
    "measures_cli": "measures.cli",
    "diversity": "measures.diversity",
    "sweep": "replicates.runner",
    "studies": "replicates.studies",
    "params": "notebook.params",
    "reports": "notebook.reports",
    "pipeline": "notebook.pipeline",
    "style": "notebook.style",
    "plots": "notebook.plots",
}


class _Aliases:
    """Import another name of a module as the module itself (the same object).

    A meta path finder and its own loader by protocol (``find_spec``; ``create_module``/``exec_module``),
    not by subclassing ``importlib.abc``, whose import (``importlib.resources``, ``tempfile``, ...) cost
    every ``subjeval trec_eval`` call about 15 ms of start-up.

    ``<other name>.x`` -> ``<this name>.x`` when the other name would load this very folder, and a
    moved module's old path (:data:`MOVED`, under either name) -> the module at its new path.
    """

    def __init__(self, name: str, origin: str):
        self.name, self.origin = name, os.path.realpath(origin)
        self._specs: dict = {}
        self._same: dict[str, bool] = {}

    def _is_this_package(self, top: str) -> bool:
        """Would ``import top`` load this folder? (Asked of the other finders, once.)"""
        if top not in self._same:
            self._same[top] = False
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(top, None)
                if spec is not None:
                    self._same[top] = bool(spec.origin) and os.path.realpath(spec.origin) == self.origin
                    break
        return self._same[top]

    def target(self, fullname: str) -> str | None:
        top, _, rest = fullname.partition(".")
        if top not in NAMES:
            return None
        if top != self.name and sys.modules.get(top) is not sys.modules.get(self.name) \
                and not self._is_this_package(top):
            return None                     # another package of that name: not ours to answer
        if rest.split(".")[0] in MOVED:
            head, _, tail = rest.partition(".")
            rest = MOVED[head] + (f".{tail}" if tail else "")
        new = self.name + (f".{rest}" if rest else "")
        return None if new == fullname else new

    def find_spec(self, fullname, path=None, target=None):
        # what importlib.util.spec_from_loader(fullname, self) returns for a loader without is_package
        return importlib.machinery.ModuleSpec(fullname, self, is_package=False) if self.target(fullname) else None

    def create_module(self, spec):
        module = importlib.import_module(self.target(spec.name))
        self._specs[spec.name] = (module.__spec__, module.__loader__)
        return module

    def exec_module(self, module):
        # already executed under its own name; the import system has just stamped the alias's
        # spec on it: give it back its own, so that it still says what it is and where it lives
        module.__spec__, module.__loader__ = self._specs.pop(module.__spec__.name)


if not any(isinstance(f, _Aliases) for f in sys.meta_path):
    sys.meta_path.insert(0, _Aliases(__name__, __file__))


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
