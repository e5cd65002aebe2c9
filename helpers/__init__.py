"""Shared, tested helpers for the subjective-relevance evaluation notebooks.

Nothing happens at import time: submodules are imported explicitly by the notebooks
(``from helpers import gains, measures``). Paths are anchored on this package
(:mod:`helpers.paths`), never on the working directory.
"""

__version__ = "0.1.0"
