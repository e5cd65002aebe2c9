"""``python -m helpers trec_eval`` for one run without numpy: the common command in plain Python.

Importing numpy costs a one-run command more than reading and scoring a TREC DL run does, and
people call trec_eval once per run in shell loops. So the command's common case -- relevance as
``-R qrels``, measures among :data:`MEASURES` (the default ``official`` set, ``recall``), any
of ``-q -n -c -J -l -M -N`` -- is computed here per topic in plain Python, from the same reader
(:func:`helpers.io.fields.select_lines` / ``split_lines``, :func:`helpers.io.trec_eval_files.decimal_list`
and ``integer_list``: every byte, id and number decided by the one reader) and into the same
:class:`~helpers.measures.treceval.request.Evaluation` that the command formats.

Only the clean case is taken: whenever the input needs a decision -- a malformed line or number,
a document retrieved or judged twice, run and judged topics that could be one topic written two
ways, no topic both judged and answered, an unreadable file -- :func:`evaluate_quick` raises
:class:`Unsupported` (or the reader's ValueError) and the command evaluates the files again with
the vectorised engine (:mod:`.evaluation`), which gives its own answer or message. Both engines
follow trec_eval 10 (``trec_eval.c``, ``form_res_rels.c``, ``m_*.c``): topics in byte order of
their ids, documents by decreasing score with ties by decreasing id, and the definitions in
:mod:`.binary`, summed in rank order and over topics in order as trec_eval adds (explicit loops,
never ``sum()``, whose float summation differs between Python versions).
"""

from __future__ import annotations

import math
from itertools import groupby, repeat
from operator import itemgetter

from ...io.trec_eval_files import RESULTS_FORMAT, decimal_list, qrels_fields, results_file
from .request import MIN_GEO_MEAN as _MIN_GEO_MEAN, Evaluation, Settings, summaries

__all__ = ["MEASURES", "Unsupported", "supports", "evaluate_quick"]

#: trec_eval measures computed here (the ``official`` nickname's and recall).
MEASURES = frozenset({"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                      "recip_rank", "iprec_at_recall", "P", "recall"})

_SCORE = RESULTS_FORMAT + "; field 5 (score) is not a number (trec_eval would read it as a different number: atof)"


class Unsupported(Exception):
    """The input needs a decision this path leaves to the vectorised engine."""


def supports(settings: Settings, measures, *, zscores: bool = False) -> bool:
    """Whether this path computes a command line's values (``-R qrels``, no ``-Z`` or ``-D``,
    measures among :data:`MEASURES`)."""
    return (settings.rel_format == "qrels" and not zscores and settings.debug_query is None
            and all(m.name in MEASURES for m, _ in measures))


class _Rows:
    """A table of per-topic rows indexed ``[row, column]``, as :class:`Evaluation` reads it."""

    def __init__(self, rows: list):
        self.rows = rows

    def __getitem__(self, key):
        i, j = key
        return self.rows[i][j]


def _qrels_by_topic(path: str) -> tuple[dict, int]:
    """``topic -> {doc: level}`` and the number of lines with a level > 0 (``-c``'s num_rel)."""
    lines, rel = qrels_fields(path)
    query, _, doc, _ = lines.fields
    judged: dict = {}
    n_lines = 0
    for t, d, level in zip(query, doc, rel):
        docs = judged.get(t)
        if docs is None:
            docs = judged[t] = {}
        docs[d] = level
        n_lines += 1
    if sum(map(len, judged.values())) != n_lines:
        raise Unsupported("a document judged twice")
    return judged, sum(1 for level in rel if level > 0)


def _ranked_values(scores: list, docs: list, judged: dict, s: Settings) -> list:
    """The topic's relevance values in trec_eval's order (``-M``, then ``-J``): the judged level,
    or a negative value for a document not judged (-1 when it is not in the qrels: the measures
    here do not tell it from a negative level)."""
    ranked = sorted(zip(scores, docs), reverse=True)       # decreasing score, ties by decreasing id
    if s.max_ret is not None:
        ranked = ranked[: max(s.max_ret, 0)]
    kept = list(map(itemgetter(1), ranked))
    if len(set(kept)) != len(kept):
        raise Unsupported("a document retrieved twice")
    values = list(map(judged.get, kept, repeat(-1)))
    if s.judged_only:
        values = [v for v in values if v >= 0]
    return values


def _topic_values(values: list, judged: dict, s: Settings, specs: list, answered: bool = True) -> list:
    """One topic's values of ``specs`` (engine names as :func:`_specs` gives them)."""
    thr = max(s.rel_level, 0)
    R = n_nonrel = 0
    for level in judged.values():
        if level >= thr:
            R += 1
        elif level >= 0:
            n_nonrel += 1
    pos = [i for i, v in enumerate(values) if v >= thr]
    nrr = len(pos)
    terms = [(j + 1) / (p + 1.0) for j, p in enumerate(pos)]     # C(r)/r at each relevant rank
    ap_sum = 0.0
    for x in terms:
        ap_sum += x
    ap = ap_sum / R if R else 0.0
    out = []
    interp = None
    for kind, arg in specs:
        if kind == "NumQ":
            out.append(1)
        elif kind == "NumRet":
            out.append(len(values))
        elif kind == "NumRel":
            out.append(R)
        elif kind == "NumRelRet":
            out.append(nrr)
        elif kind == "AP":
            out.append(ap)
        elif kind == "logAP":
            out.append(math.log(max(ap, _MIN_GEO_MEAN)))
        elif kind == "Rprec":
            k = math.floor(1.0 * R + 0.9)
            out.append(_count_below(pos, k) / k if k > 0 else 0.0)
        elif kind == "Bpref":
            out.append(_bpref(values, pos, thr, R, n_nonrel))
        elif kind == "RR":
            out.append(1.0 / (pos[0] + 1.0) if nrr else 0.0)
        elif kind == "IPrec":
            if interp is None:
                interp = _interpolated(terms)
            c = math.floor(arg * R + 0.5)
            # no document retrieved: trec_eval's interpolation starts at 0/0, -nan where the cutoff is 0 (-c's
            # unanswered topic: one placeholder document, gone under -M 0 or -J)
            empty = not values and (answered or s.judged_only or s.max_ret == 0)
            out.append(-math.nan if empty and c <= 0 else 0.0 if c > nrr or not nrr else interp[max(c - 1, 0)])
        elif kind == "P":
            out.append(_count_below(pos, arg) / arg)
        elif kind == "R":
            out.append(_count_below(pos, arg) / R if R else 0.0)
        else:
            raise Unsupported(kind)
    return out


def _count_below(pos: list, k) -> int:
    """``C(k)``: relevant documents in the top ``k`` (``pos`` increasing)."""
    n = 0
    for p in pos:
        if p >= k:
            break
        n += 1
    return n


def _bpref(values: list, pos: list, thr: int, R: int, n_nonrel: int) -> float:
    """trec_eval's bpref (:mod:`.binary`): each relevant document adds ``1 - min(n, R)/min(N, R)``
    (``n`` judged non-relevant above it, ``N`` in the qrels), 1 when ``n = 0``; over ``R``."""
    if not R:
        return 0.0
    den = min(n_nonrel, R)
    total = 0.0
    nonrel = 0
    at = 0
    for p in pos:
        while at < p:
            if 0 <= values[at] < thr:
                nonrel += 1
            at += 1
        total += 1.0 - min(nonrel, R) / den if nonrel > 0 else 1.0
    return total / R


def _interpolated(terms: list) -> list:
    """``max_{i >= j} terms[i]`` at each relevant rank ``j``: trec_eval's interpolated precision."""
    out = list(terms)
    for j in range(len(out) - 2, -1, -1):
        if out[j + 1] > out[j]:
            out[j] = out[j + 1]
    return out


def _specs(measures) -> list:
    """(family, parameter) per printed numeric value, from the catalog's engine names."""
    out = []
    for m, values in measures:
        if m.kind == "runid":
            continue
        for v in values:
            engine = v.engine
            if engine.startswith("IPrec(recall="):
                out.append(("IPrec", float(engine[len("IPrec(recall="):-1])))
            elif engine.startswith(("P@", "R@")):
                out.append((engine[0], int(engine[2:])))
            elif engine in ("NumQ", "NumRet", "NumRel", "NumRelRet", "AP", "logAP", "Rprec", "Bpref", "RR"):
                out.append((engine, None))
            else:
                raise Unsupported(engine)
    return out


def evaluate_quick(qrels_path: str, results_path: str, data: bytes | None, measures, s: Settings) -> Evaluation:
    """Evaluate one results file against a qrels file as trec_eval does, in plain Python.

    Parameters
    ----------
    qrels_path, results_path : str
    data : bytes or None
        The results file's bytes when it was standard input.
    measures : list of (TrecMeasure, list of Value)
        From :func:`~helpers.measures.treceval.request.marked`; :func:`supports` must hold.
    s : Settings

    Returns
    -------
    Evaluation
        Topics, per-topic values and the summary (:func:`summary`).

    Raises
    ------
    Unsupported, ValueError, OSError
        When the input needs the vectorised engine's decision (module docstring).
    """
    judged, num_rel_all = _qrels_by_topic(qrels_path)
    all_topics = sorted(judged)
    results = results_file(results_path, data, all_topics)
    query, doc = results.query, results.doc
    rows = None                      # the lines read are the judged topics' (select_lines) ...
    if results.topics_seen is None:  # ... or every line (split_lines)
        rows = [i for i, t in enumerate(query) if t in judged]
        query, doc = [query[i] for i in rows], [doc[i] for i in rows]
    scores = decimal_list(results.lines, results.score_text, rows, _SCORE)   # the evaluated lines'
    spans: dict = {}                 # topic -> its runs of consecutive lines
    at = 0
    for t, run in groupby(query):
        n = len(list(run))
        spans.setdefault(t, []).append((at, at + n))
        at += n
    if len(spans) < len(all_topics) and len(results.run_topics()) > len(spans):
        raise Unsupported("run and judged topics that may differ in how a number is written")
    topics = [t for t in all_topics if s.complete or t in spans]
    if not topics:
        raise Unsupported("no topic both judged and answered")
    specs = _specs(measures)
    table = []
    for t in topics:
        mine = [i for a, b in spans.get(t, ()) for i in range(a, b)]
        values = _ranked_values([scores[i] for i in mine], [doc[i] for i in mine], judged[t], s)
        table.append(_topic_values(values, judged[t], s, specs, t in spans))
    ev = Evaluation([t.decode("utf-8", "surrogateescape") for t in topics], measures, _Rows(table), [],
                    results.run_id.decode("utf-8", "surrogateescape"))
    ev.summary = summary(ev, table, s, len(all_topics), num_rel_all)
    return ev


def summary(ev: Evaluation, table: list, s: Settings, n_rel_topics: int, num_rel_all: int) -> list:
    """trec_eval's summary values, as :func:`helpers.measures.treceval.evaluation.summarise`
    computes them (:func:`.request.summaries`), from the columns summed over the topics in order."""
    totals = [0.0] * (len(table[0]) if table else sum(
        len(values) for m, values in ev.measures if m.kind not in ("runid", "relstring")))
    for row in table:
        for j, value in enumerate(row):
            totals[j] += value
    return summaries(ev, totals, s, len(table), n_rel_topics, num_rel_all)
