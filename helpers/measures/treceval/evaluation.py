"""One trec_eval evaluation: marked measures, evaluated topics, per-topic values and the summary.

trec_eval's evaluation loop (``trec_eval.c``) as vectorised steps:

1. **Topics**: those of the relevance file, in byte order of their ids; each is evaluated if the
   run answered it, or always with ``-c`` (``complete``: an unanswered topic is scored as an
   empty ranking; trec_eval 10 scores a one-document bogus ranking and then resets num_ret,
   utility, unj, rbp_resid and relstring, which gives the same values). Topics only in the run
   are ignored. (trec_eval 10 stops with "result qid not found" when, without ``-c``, a judged
   topic has no result; trec_eval 9, its help text and this implementation skip such topics.)
2. **Values**: every marked measure's values per topic, by the engine's trec_eval kernels
   (:mod:`.kernels`, :mod:`.groups`, :mod:`.prefs`).
3. **Z scores** (``-Z``): each value becomes ``(value - mean) / stddev`` from the z-score file;
   -1000000 when the topic or measure is missing there, or the stddev is 0 and the value differs
   from the mean.
4. **Summary**: the mean over topics (divided by the number of judged topics with ``-c``), the
   total for the counts (num_ret, num_rel_ret, ...), ``exp(mean)`` of the log values for gm_map
   and gm_bpref, the number of topics for num_q; with ``-c`` num_rel is the number of qrels
   lines with a level > 0 (trec_eval's ``te_calc_avg_num_rel``). Sums run over topics in order.
"""

from __future__ import annotations

import numpy as np

from ...io.ids import number_spelling_twins
from ...io.trec_eval_files import QrelsFile, ResultsFile
from ..spec import MeasureSpec
from .defs import parse_points
from .gainorder import refuse_misordered
from .kernels import evaluate_levels
from .lists import NONPOOL, UNJUDGED
from .matching import ranked_lists, refuse_repeated_results, topic_codes
from .request import Evaluation, Settings, marked, summaries

__all__ = ["Settings", "Evaluation", "evaluate", "MISSING_ZSCORE", "Stop"]

MISSING_ZSCORE = -1000000.0


class Stop(ValueError):
    """An input trec_eval stops on with its own exit status (``status``): 4 "Can't calculate
    measure" (a measure that needs another -R), 7 "No queries with both results and relevance
    info"; other bad input exits 2."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status
#: input each rel_format provides to the measures' sources
_SOURCES = {"qrels": "qrels", "qrels_jg": "qrels_jg", "prefs": "prefs", "qrels_prefs": "prefs"}


def _relstring(levels: np.ndarray, num_ret: np.ndarray, length: int) -> list[str]:
    out = []
    for row, n in zip(levels, num_ret):
        chars = []
        for v in row[: max(0, min(length, int(n)))]:
            chars.append(">" if v > 9 else str(v) if v >= 0 else "-" if v == NONPOOL else "." if v == UNJUDGED
                         else "<")
        out.append("".join(chars))
    return out


def _rbp_notes(lists, measures) -> list[str]:
    """A note for each ``rbp`` asked for beside other measures where some topic's gains leave
    [0, 1]: trec_eval 10's ``te_calc_rbp`` rescales them with ``min`` and ``max`` it never sets
    (``m_rbp.c``), so its value for such a topic depends on what the measures computed before
    it left on the stack (DL-19-like levels 0..3: ``-m rbp`` alone 0.1233, ``-m ndcg -m rbp``
    0.1019 for the same topic). The command rescales by the smallest and largest of 0 and the
    topic's gains, which is what trec_eval prints with ``-m rbp`` alone (its min and max start
    at 0 there)."""
    from .graded import rescaled_topics

    if not any(m.name != "rbp" for m, _ in measures):
        return []
    out = []
    for m, vals in measures:
        for v in vals if m.name == "rbp" else ():
            n = int(rescaled_topics(lists, _parse(v.engine)).sum())
            if n:
                out.append(f"note: {v.name}: trec_eval 10's rbp rescales gains outside [0, 1] with two variables "
                           "it never sets (min, max in m_rbp.c). Beside other measures it can print other values "
                           f"for such topics ({n} here). This prints what trec_eval prints with -m rbp alone (min "
                           "and max from 0).")
    return out


def _qrels_values(topics: list, rel: QrelsFile, results: ResultsFile, measures, s: Settings,
                  tcode: np.ndarray, notes: list) -> tuple[dict, dict]:
    """Values of the measures read from qrels (and the relstrings) for the topics evaluated;
    ``notes`` receives what to say on standard error (:func:`_rbp_notes`)."""
    lists, answered = ranked_lists(rel, results, topics, max_ret=s.max_ret, judged_only=s.judged_only, tcode=tcode)
    specs = [v.engine for m, values in measures if m.source == "qrels" for v in values
             if v.engine and not v.engine.startswith("relstring")]
    scores = evaluate_levels(lists, specs, rel=s.rel_level) if specs else {}
    if specs:       # where trec_eval 10's misordered gains give another value: refuse (gainorder.py)
        refuse_misordered(lists, measures, scores, topics, s.rel_level, (rel.path, results.path))
    notes.extend(_rbp_notes(lists, measures))
    values: dict[str, np.ndarray] = {}
    strings: dict[str, list[str]] = {}
    for m, vals in measures:
        if m.source != "qrels":
            continue
        for v in vals:
            if v.engine.startswith("relstring"):
                strings[v.name] = _relstring(lists.levels, lists.num_ret, int(v.engine.split(":")[1]))
            else:
                key = str(_parse(v.engine))
                values[v.name] = np.where(~answered, 0.0, scores[key]) if m.name == "utility" else scores[key]
    # -c's unanswered topic: trec_eval ranks one placeholder document (bogus_ranking), gone under -M 0 or -J
    empty = (lists.num_ret == 0) & (answered | s.judged_only | (s.max_ret == 0))
    _nan_where_nist_divides_by_zero(values, measures, lists, empty, s.rel_level)
    return values, strings


def _nan_where_nist_divides_by_zero(values: dict, measures, lists, empty: np.ndarray, rel_level: int) -> None:
    """``iprec_at_recall`` and ``11pt_avg`` on a topic with no document left (``-M 0``, ``-J`` with
    nothing judged retrieved; ``-c``'s unanswered topics under ``-M 0`` or ``-J``): trec_eval 10 starts their interpolation at 0/0 and
    prints ``-nan`` at every recall point whose cutoff ``lround(x R)`` is 0 (``11pt_avg``: its
    sum); printed the same here, in place (docs/bad-input.md)."""
    if not empty.any():
        return
    R = lists.hist[lists.topic][:, lists.levels_present >= rel_level].sum(axis=1)
    for m, vals in measures:
        for v in vals:
            if m.source != "qrels" or not v.engine.startswith(("IPrec(", "IPrecAvg")):
                continue
            spec = _parse(v.engine)
            text = spec["recall"] if isinstance(spec["recall"], str) else repr(spec["recall"])
            points = parse_points(text) if spec.name == "IPrecAvg" else [float(spec["recall"])]
            add = 0.9 if spec["rounding"] == "v9" else 0.5
            zero_cut = np.zeros(len(R), dtype=bool)
            for x in points:
                zero_cut |= np.floor(x * R + add) <= 0
            values[v.name] = np.where(empty & zero_cut, -np.nan, values[v.name])


def _results_frame(results: ResultsFile, topics: list):
    """The evaluated topics' results as the DataFrame the judgment-group and preference measures
    read (str ids, UTF-8)."""
    import pandas as pd

    rows = np.flatnonzero(topic_codes(results.query, topics) >= 0)
    text = [[results.query[i].decode("utf-8", "surrogateescape") for i in rows.tolist()],
            [results.doc[i].decode("utf-8", "surrogateescape") for i in rows.tolist()]]
    return pd.DataFrame({"query_id": pd.Series(text[0], dtype="str"), "doc_id": pd.Series(text[1], dtype="str"),
                         "score": results.scores(rows)})


def _parse(text: str) -> MeasureSpec:
    return MeasureSpec.parse(text)


def _check_sources(measures, s: Settings) -> None:
    have = _SOURCES.get(s.rel_format)
    if have is None:
        raise ValueError(f"illegal rel_format '{s.rel_format}' (-R takes qrels, qrels_jg, prefs or qrels_prefs)")
    for m, _ in measures:
        if m.source not in ("any", have):
            need = {"qrels": "-R qrels", "qrels_jg": "-R qrels_jg", "prefs": "-R prefs or -R qrels_prefs"}[m.source]
            raise Stop(f"measure '{m.name}' needs {need}; the relevance file was read as -R {s.rel_format}", 4)


def _topics_of(rel) -> list:
    """The relevance file's topics as bytes, in trec_eval's (byte) order."""
    if isinstance(rel, QrelsFile):
        return sorted(set(rel.query))
    return sorted({t.encode("utf-8", "surrogateescape") for t in rel["query_id"].tolist()})


def _check_spelling(all_topics: list, answered_set: set, results: ResultsFile, rel) -> None:
    """Refuse run and qrels topics that differ only in how a number is written (``01``/``1``,
    ``1``/``1.0``): trec_eval compares them as different strings, so the judged topic would be
    scored as unanswered (``-c``) or left out, and the run's lines ignored, without a word."""
    judged = set(all_topics)
    only_run = [t.decode("utf-8", "replace") for t in answered_set - judged]
    unanswered = [t.decode("utf-8", "replace") for t in judged - answered_set]
    twins = number_spelling_twins(sorted(only_run), sorted(unanswered)) if only_run and unanswered else []
    if twins:
        run_t, rel_t = twins[0]
        raise ValueError(f"{results.path}: results topic {run_t!r} and relevance topic {rel_t!r} (in {_path(rel)}) "
                         "differ only in how the number is written; trec_eval compares topic ids as exact "
                         f"strings and would not match them ({len(twins)} such pair(s)); write the ids alike")


#: Values trec_eval 10 resets by their exact name after scoring an unanswered topic's placeholder
#: document with ``-c``: named with parameters they keep the placeholder's value.
_RESET_BY_NAME = ("utility", "rbp_resid", "relstring")


def _check_placeholder(topics: list, answered_set: set, measures) -> None:
    """Refuse ``-c`` with a parameterised utility, rbp_resid or relstring when a judged topic has
    no results: trec_eval scores such a topic on a placeholder document ("ceci_nest_pas_un_docno")
    and then resets these values by name, which misses ``utility_2,-1,0,0``, ``rbp_resid_p=0.7``,
    ``relstring_4``: it prints the placeholder's value (-1 utility, rbp_resid 1) as the topic's."""
    missing = [t for t in topics if t not in answered_set]
    named = [v.name for m, vals in measures if m.name in _RESET_BY_NAME for v in vals if v.name != m.name]
    if missing and named:
        raise ValueError(f"-c with {named[0]}: trec_eval 10 scores the {len(missing)} judged topic(s) without "
                         f"results (e.g. {missing[0].decode('utf-8', 'replace')!r}) on a placeholder document and "
                         f"resets only the unparameterised '{named[0].split('_')[0] if not named[0].startswith('rbp') else 'rbp_resid'}' "
                         "by name, so it would print the placeholder's value for them; use the default parameters, "
                         "or leave out -c (those topics are then skipped)")


def _path(rel) -> str:
    return rel.path if isinstance(rel, QrelsFile) else str(rel.attrs.get("path", "the relevance file"))


def evaluate(rel, results: ResultsFile, measures, settings: Settings) -> Evaluation:
    """Evaluate ``results`` against relevance information as trec_eval does.

    Parameters
    ----------
    rel : QrelsFile or pandas.DataFrame
        Qrels (:func:`helpers.io.trec_eval_files.qrels_file`), or judgment groups (``query_id,
        jg, doc_id, relevance``) or preferences (``query_id, jg, jsg, doc_id, rel_level``) as
        ``settings.rel_format`` says.
    results : ResultsFile
        From :func:`helpers.io.trec_eval_files.results_file`.
    measures : list of (TrecMeasure, list of Value)
        From :func:`marked`.
    settings : Settings

    Raises
    ------
    ValueError
        When no topic is both judged and answered, a run topic and a judged topic differ only in
        how a number is written, or a measure needs another relevance format.
    """
    s = settings
    _check_sources(measures, s)
    all_topics = _topics_of(rel)
    codes = topic_codes(results.query, all_topics)            # one pass over the results' lines
    answered_set = {all_topics[i] for i in np.flatnonzero(np.bincount(codes + 1, minlength=len(all_topics) + 1)[1:])}
    if len(answered_set) < len(all_topics) and len(results.run_topics()) > len(answered_set):
        # some judged topic unanswered and some results topic not judged: could they be one topic?
        _check_spelling(all_topics, results.run_topics(), results, rel)
    debug = s.debug_query.encode("utf-8", "surrogateescape") if s.debug_query is not None else None
    topics = [t for t in all_topics if (debug is None or t == debug) and (s.complete or t in answered_set)]
    where = {t: i for i, t in enumerate(topics)}
    position = np.array([where.get(t, -1) for t in all_topics] + [-1], dtype=np.int64)
    tcode = position[codes]                                   # -1 (not evaluated) maps through the last entry
    if not topics:
        raise Stop("No queries with both results and relevance info", 7)
    if s.complete:
        _check_placeholder(topics, answered_set, measures)
    values: dict[str, np.ndarray] = {}
    strings: dict[str, list[str]] = {}
    notes: list[str] = []
    if any(m.source == "qrels" for m, _ in measures):
        values, strings = _qrels_values(topics, rel, results, measures, s, tcode, notes)
    else:       # the scores of the evaluated topics are checked whatever the measures read
        results.scores(np.flatnonzero(tcode >= 0))
    names = [t.decode("utf-8", "surrogateescape") for t in topics]
    group_values = [v for m, vals in measures if m.source == "qrels_jg" for v in vals]
    prefs_names = [m.name for m, _ in measures if m.source == "prefs"]
    if group_values or prefs_names:
        from .ranking import rank_results
        refuse_repeated_results(results, topics, tcode, max_ret=s.max_ret,
                                ties="increasing" if prefs_names else "decreasing")
        frame = _results_frame(results, topics)
    if group_values:
        from .groups import evaluate_groups
        ranked = rank_results(frame, names, max_ret=s.max_ret)
        scores = evaluate_groups(rel, ranked, names, [v.engine for v in group_values], rel=s.rel_level,
                                 judged_only=s.judged_only)
        values.update({v.name: scores[str(_parse(v.engine))] for v in group_values})
    if prefs_names:
        from .prefs import evaluate_prefs
        ranked = rank_results(frame, names, max_ret=s.max_ret, ties="increasing")
        values.update(evaluate_prefs(rel, ranked, names, prefs_names))
    columns = [v.name for m, vals in measures for v in vals if m.kind not in ("runid", "relstring")]
    table = np.zeros((len(topics), len(columns)))
    for j, name in enumerate(columns):
        table[:, j] = 1.0 if name == "num_q" else values[name]
    return Evaluation(names, measures, table, np.zeros(len(columns)),
                      results.run_id.decode("utf-8", "surrogateescape"), strings, notes)


def apply_zscores(ev: Evaluation, zscores, names: list[str]) -> None:
    """Replace every per-topic value by its z score (trec_eval ``-Z``), in place; ``zscores`` from
    :func:`helpers.io.trec_eval_files.read_zscores`. A value without an entry, or with standard
    deviation 0 and another value than the mean, becomes -1000000 as in trec_eval's
    ``convert_zscores.c`` (and enters the mean); a note on standard error counts them."""
    missing: list[tuple[str, str]] = []
    with np.errstate(all="ignore"):    # a tiny stddev gives inf, as trec_eval prints it: no numpy warning
        for i, topic in enumerate(ev.topics):
            key = topic.encode("utf-8", "surrogateescape")
            for j, name in enumerate(names):
                if key not in zscores.topics or (key, name) not in zscores.table:
                    ev.table[i, j] = MISSING_ZSCORE
                    missing.append((topic, name))
                    continue
                mu, sd = zscores.table[(key, name)]
                v = ev.table[i, j]
                ev.table[i, j] = (v - mu) / sd if sd else (0.0 if v == mu else MISSING_ZSCORE)
                if not sd and v != mu:
                    missing.append((topic, name))
    if missing:
        topic, name = missing[0]
        ev.notes.append(f"note: -Z: {len(missing)} value(s) have no usable z-score entry (first: topic {topic!r}, "
                        f"{name}); they print as -1000000.0000, trec_eval's placeholder (convert_zscores.c), and "
                        "enter the mean over topics")


def summarise(ev: Evaluation, settings: Settings, n_rel_topics: int, num_rel_all: int) -> None:
    """trec_eval's summary values (module docstring, step 4), in place (:func:`.request.summaries`)."""
    n_eval = len(ev.topics)
    with np.errstate(all="ignore"):    # inf and -inf z scores sum to nan, as trec_eval's: no numpy warning
        totals = np.cumsum(ev.table, axis=0)[-1] if n_eval else np.zeros(ev.table.shape[1])
    ev.summary[:] = summaries(ev, totals, settings, n_eval, n_rel_topics, num_rel_all)


def topic_count(rel) -> tuple[int, int]:
    """Topics of the relevance file, and its lines with a level > 0 (for ``-c``'s num_rel)."""
    if isinstance(rel, QrelsFile):
        return len(set(rel.query)), int((rel.rel > 0).sum())
    n = len(set(rel["query_id"].tolist()))
    level = rel["relevance"].to_numpy() if "relevance" in rel.columns else np.zeros(0)
    return n, int((level > 0).sum())
