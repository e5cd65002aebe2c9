"""Scores of trec_eval's measures on :class:`~helpers.measures.treceval.lists.LevelLists`.

:func:`evaluate_levels` is the one entry: every measure of trec_eval that the engine knows under
its own name (``AP``, ``P@l``, ``R@l``, ``RR``, ``Hit@l``, ``MSnDCG``, ``AP(norm=R)@l``) and every
family of :mod:`helpers.measures.treceval.defs`, computed block by block of lists with trec_eval's
conventions (definitions in :mod:`.binary` and :mod:`.graded`). ``python -m helpers trec_eval``
computes everything here; :func:`helpers.measures.evaluate` sends the trec_eval-only families here
and keeps its own kernels for the rest.
"""

from __future__ import annotations

import numpy as np

from ..spec import MEASURES, MeasureSpec, parse_measures, unknown_message
from .binary import BINARY
from .graded import GRADED
from .lists import Block, LevelLists

__all__ = ["evaluate_levels", "KERNELS"]

#: Engine family -> trec_eval kernel. AP, P, R, RR, Hit and MSnDCG are here too, with trec_eval's
#: conventions, for the command; :func:`helpers.measures.evaluate` keeps the engine's kernels for them.
KERNELS = {**BINARY, **GRADED}


def _threshold(spec: MeasureSpec, rel: int) -> int:
    return spec.rel if spec.rel is not None else rel


def evaluate_levels(lists: LevelLists, measures, *, rel: int = 1) -> dict[str, np.ndarray]:
    """Score every list of ``lists`` on ``measures`` as trec_eval does.

    Parameters
    ----------
    lists : LevelLists
        Relevance values by rank, documents retrieved and judged levels per topic.
    measures : str, MeasureSpec or iterable of them
        Engine names (``"infAP"``, ``"P@5"``, ``"IPrec(recall=0.1)"``, ``"MSnDCGg(gains=1:3;2:9)"``).
    rel : int
        Relevance threshold for measures written without ``rel=`` (trec_eval ``-l``; 0 makes
        every judged document relevant).

    Returns
    -------
    dict of str to numpy.ndarray
        One float array of shape ``(lists.n,)`` per measure, keyed by its canonical label.

    Raises
    ------
    ValueError
        For a measure trec_eval does not define (the message names those it does), or a
        negative ``rel``.
    """
    if isinstance(rel, bool) or not isinstance(rel, (int, np.integer)) or rel < 0:
        raise ValueError(f"rel (trec_eval -l) must be an integer >= 0, got {rel!r}")
    specs = parse_measures(measures)
    for s in specs:
        if s.name not in KERNELS:
            raise ValueError(f"{s}: not one of trec_eval's measures; "
                             + unknown_message(s.name, {k: MEASURES[k] for k in KERNELS}).split("; ", 1)[1])
    out = {str(s): np.empty(lists.n) for s in specs}
    for sl in lists.blocks():
        part = lists.rows(sl)
        blocks: dict[int, Block] = {}
        for s in specs:
            k = _threshold(s, rel)
            if k not in blocks:
                blocks[k] = Block(part, k)
            out[str(s)][sl] = KERNELS[s.name](blocks[k], s)
    return out
