"""Shared, tested helpers for the subjective-relevance evaluation notebooks.

Nothing happens at import time: submodules are imported explicitly by the notebooks
(``from helpers import gains, measures``). Paths are anchored on this package
(:mod:`helpers.paths`), never on the working directory.
"""

__version__ = "0.1.0"


def optional(module: str, purpose: str):
    """Import ``module``, an optional dependency (the ``notebooks`` extra), or say how to get it.

    The core package needs numpy, pandas and scipy only (``pip install subjective-ir-eval``);
    replicated studies, progress bars and Krippendorff's alpha need the ``notebooks`` extra.
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        raise ModuleNotFoundError(
            f"{purpose} needs the optional package {top!r}, which is not installed: install the "
            f"notebooks extra (pip install 'subjective-ir-eval[notebooks]', or `make venv` in the "
            f"checkout)", name=top) from exc
