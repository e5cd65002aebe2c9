"""Documented, seeded simulations that stand in for the seed papers' licensed data.

Each simulator takes an explicit ``rng: numpy.random.Generator``; nothing is seeded globally.
The functions live in submodules and are resolved lazily here, so importing ``helpers.simulate``
does no work:

- :func:`simulate_ratings`, :func:`stc_like_collection` (Sakai EVIA 2017; :mod:`.ratings`)
- :func:`double_judgments` (Demeester et al. IRJ 2016; :mod:`.judgments`)
- :func:`intent_collection` (NTCIR INTENT-like diversity collection; :mod:`.intents`)
- :func:`preference_judgments` (Zeng & Sakai SERP-pair preferences; :mod:`.preferences`)
- the planted user models of notebooks 04 and 05's planted-truth experiments (:mod:`.users`)
"""

from __future__ import annotations

import importlib

_WHERE = {
    "simulate_ratings": "ratings",
    "uniform_ratings": "ratings",
    "stc_like_collection": "ratings",
    "double_judgments": "judgments",
    "intent_collection": "intents",
    "preference_judgments": "preferences",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        module = importlib.import_module(f"{__name__}.{_WHERE[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
