"""What a trec_eval command line asks for: the options that change values (:class:`Settings`),
the measures it marks (:func:`marked`), and what is printed before formatting (:class:`Evaluation`).

Plain Python (no numpy): the command's start-up imports this, and both of its engines
(:mod:`.evaluation`, vectorised with numpy; :mod:`.quick`, per topic in plain Python) fill the
same :class:`Evaluation`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .catalog import BY_NAME, CATALOG, META_NAMES, TrecMeasure, Value, expand

__all__ = ["Settings", "Evaluation", "marked", "summaries", "MIN_GEO_MEAN"]


@dataclass
class Settings:
    """trec_eval's options that change values: ``-c -J -l -N -M -R`` and the ``-D`` topic."""

    complete: bool = False
    judged_only: bool = False
    rel_level: int = 1
    docs: int = 0
    max_ret: int | None = None
    rel_format: str = "qrels"
    debug_query: str | None = None


@dataclass
class Evaluation:
    """What trec_eval prints, before formatting.

    ``measures`` pairs each marked measure with its values (in trec_eval's order); ``table`` holds
    one row per evaluated topic (``topics``) and one column per value of every measure, in order
    (a numpy array, or any table indexed ``[row, column]``); ``relstrings`` the relstring text per
    topic; ``summary`` one number per column; ``notes`` what the command says on standard error beside them.
    """

    topics: list[str]
    measures: list[tuple[TrecMeasure, list[Value]]]
    table: object
    summary: object
    run_id: str
    relstrings: dict[str, list[str]] = field(default_factory=dict)
    #: lines for standard error: where trec_eval 10's own value is not defined (e.g. its rbp)
    notes: list[str] = field(default_factory=list)

    def columns_numeric(self) -> list[str]:
        """Names of the table's columns: every value but runid's and relstring's."""
        return [v.name for m, values in self.measures if m.kind not in ("runid", "relstring") for v in values]


def marked(requests: list[tuple[str, str | None]], docs: int = 0) -> list[tuple[TrecMeasure, list[Value]]]:
    """The measures a list of ``-m`` requests (name, params) marks, in trec_eval's order, each with
    the parameters of the first request that named it (as trec_eval's ``init_meas`` does)."""
    chosen: set[str] = set()
    params: dict[str, str] = {}
    for name, param in requests:
        if param is not None:
            params.setdefault(name, param)
        if name in META_NAMES:
            chosen.update(META_NAMES[name])
        elif name in BY_NAME:
            chosen.add(name)
        else:
            raise ValueError(f"illegal measure '{name}'")
    return [(m, expand(m, params.get(m.name), docs=docs)) for m in CATALOG if m.name in chosen]


#: trec_eval's floor for a topic's value in a geometric mean (``MIN_GEO_MEAN``).
MIN_GEO_MEAN = 0.00001


def summaries(ev: Evaluation, totals, settings: Settings, n_eval: int, n_rel_topics: int,
              num_rel_all: int) -> list[float]:
    """trec_eval's summary value of every printed column from its sum over the evaluated topics
    (``totals``, summed in topic order): the mean (over the judged topics with ``-c``), the total,
    ``exp`` of the mean log, or the topic count. Plain Python, shared by the numpy-free path
    (:mod:`.quick`) and the engine (:func:`.evaluation.summarise`)."""
    divisor = n_rel_topics if settings.complete else n_eval
    out, j = [], 0
    for m, values in ev.measures:
        if m.kind in ("runid", "relstring"):
            continue
        for _ in values:
            total = totals[j]
            if m.average == "count":
                total = float(divisor)
            elif m.average == "mean":
                total = total / divisor if divisor else total
            elif m.average == "gm" and divisor > 0:
                if settings.complete:
                    total += (divisor - n_eval) * math.log(MIN_GEO_MEAN)
                total = math.exp(total / divisor)
            if m.name == "num_rel" and settings.complete:
                total = float(num_rel_all)
            out.append(total)
            j += 1
    return out
