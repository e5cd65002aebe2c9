"""Ad hoc evaluation of tidy qrels and runs: the measure engine's front door.

:func:`evaluate` takes qrels and runs in any shape users have (DataFrames, pytrec_eval/ranx dicts,
ir_measures namedtuples, TREC file paths), converts them once (:mod:`helpers.io.coerce`) and hands
tidy frames to :func:`evaluate_frames`, which maps them onto the arrays of
:func:`helpers.measures.kernels.evaluate_arrays` (gain lookup, ordering, condensed lists,
missing topics) and returns a tidy ``run_id, query_id, measure, value`` table;
:func:`to_matrix` pivots one measure to topics x runs for :mod:`helpers.stats`, and
:func:`aggregate` averages over topics. Measure names: :mod:`helpers.measures.spec`; their
definitions: :mod:`helpers.measures.kernels`.

Conventions of :func:`evaluate` (each has a test)
------------------------------------------------
* **Relevance** is ``gain > 0`` (level >= ``rel`` for binary measures written with ``rel=``;
  a topic with no document at that level scores NaN on them, 0 with ``no_relevant="zero"``,
  as trec_eval ``-l``). Unjudged documents have gain 0 (non-relevant, as in NTCIREVAL
  and trec_eval), or are removed before ranks are counted with ``condensed=True`` (NTCIREVAL's
  ``-j`` condensed lists, Sakai 2007).
* **Condensed-list family** (``bpref`` ... ``rpref_relative2``): always computed on the judged
  documents only, whatever ``condensed`` says (NTCIREVAL prints them only under ``-j``, on the
  condensed list); ``N`` counts the judged documents with gain 0. **GAP** compares relevance
  levels for ``relevance`` qrels (``compute -gap``) and gains for a ``gain`` column
  (``gcompute -gap``).
* **gmax** (used by ERR, nERR, RBP, EBR, iRBU, rpref_N): with relevance levels it is the largest gain of
  the gain mapping, as NTCIREVAL ``compute -g`` does (``gains=None`` means ``-g 1:2:...:Lmax``
  for the highest level in the qrels); with real-valued ``gain`` columns it is the topic's highest
  judged gain, as NTCIREVAL ``gcompute`` does. ``gmax="topic"`` or a number overrides this.
* **Ordering**: with a ``rank`` column documents are ranked by increasing rank (NTCIREVAL reads
  the list in file order); remaining ties, and runs without ranks, are ordered by decreasing
  ``score`` then decreasing ``doc_id``, which is trec_eval's order. ``order_by="score"`` ignores
  ``rank`` (trec_eval).
* **Duplicates**: a document twice in one ranked list raises ``ValueError`` naming run, topic and
  document (NTCIREVAL would silently label and count every copy); ``duplicates="keep_first"``
  keeps the highest-ranked copy. A (topic, document) pair judged twice in the qrels raises.
* **Topics without relevant documents** are skipped (NTCIREVAL refuses to score them; every
  measure is 0/0). ``no_relevant="zero"`` scores them 0 (trec_eval, ir_measures);
  ``"nan"`` keeps them as NaN.
* **Topics of the qrels missing from a run** score 0 on every measure (NTCIREVAL's scripts give
  such topics an empty result file; ir_measures also scores 0), with a ``UserWarning`` that counts
  them per run. ``missing="skip"`` drops them (trec_eval without ``-c``).
* **Topics in a run but not in the qrels** are ignored.
* Identifiers are compared as strings (``1`` and ``"1"`` are the same topic).
* Negative relevance levels (TREC's ``-2`` junk) are judged non-relevant (gain 0).
* **trec_eval's measures** (``infAP``, ``Rprec``, ``Bpref``, ``IPrec(recall=x)``, ``G``, ...;
  :mod:`helpers.measures.treceval.frames`) read relevance levels with trec_eval's conventions: a
  negative level is "pooled, not judged", ``condensed=True`` is trec_eval's ``-J``, a topic the
  run did not answer is an empty ranking (trec_eval ``-c``), and on a topic without relevant
  documents they keep trec_eval's value under ``no_relevant="zero"``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..io import coerce
from ..data.thresholds import relevance_threshold as rel_of_collection
from . import conventions as C
from . import lists as L
from . import names as measure_names
from . import ordering
from .kernels import evaluate_arrays, geometric_sum
from .notices import no_relevant_document, plain, warn_caller
from .ragged import Ragged, blocks
from .results import aggregate, to_matrix
from .spec import GAIN_TOTAL_LIMIT
from .spec import (CONDENSED_ONLY, CUTOFF_POLICIES, MEASURES, REL_PARAM, MeasureDef,
                                   MeasureSpec, parse_gain_spec, parse_measures, with_default_rel)
from .treceval.defs import uses_trec_kernel
from .treceval.frames import score_aligned_rows

__all__ = [
    "evaluate",
    "evaluate_frames",
    "Alignment",
    "to_matrix",
    "aggregate",
    # re-exported from the modules that define them (the engine's public surface)
    "MeasureDef",
    "MeasureSpec",
    "MEASURES",
    "CUTOFF_POLICIES",
    "CONDENSED_ONLY",
    "REL_PARAM",
    "parse_measures",
    "parse_gain_spec",
    "with_default_rel",
    "evaluate_arrays",
    "geometric_sum",
]

#: What :func:`evaluate` does with a document retrieved twice in one list.
DUPLICATES = ("error", "keep_first")
#: The options of :func:`evaluate` and their allowed values (the conventions' settings and ``duplicates``).
OPTIONS = {**{k: v for k, v in C.CHOICES.items() if k != "names"}, "duplicates": DUPLICATES}
def _place(qrels: pd.DataFrame, i: int) -> str:
    """``file:line`` of qrels row ``i`` when the frame was read from a file, else ``row i``."""
    from ..io.textfiles import row_place

    return row_place(qrels, i)


def _qrels_gains(qrels: pd.DataFrame, gains, gmax
                 ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Gain per qrels row; for level-based qrels also the global gmax, and the levels when two
    relevant levels share a gain (P+'s preferred rank then follows levels, as in NTCIREVAL)."""
    has_rel, has_gain = "relevance" in qrels.columns, "gain" in qrels.columns
    if has_rel == has_gain:
        raise ValueError("qrels needs exactly one of the columns 'relevance' (integer levels) "
                         f"or 'gain' (real-valued gains); it has {list(qrels.columns)}")
    if has_gain:
        if gains is not None:
            raise ValueError("gains= maps relevance levels to gains; qrels already has a 'gain' "
                             "column, so leave gains out")
        g = pd.to_numeric(qrels["gain"], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(g) | (g < 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"qrels 'gain' must be finite and >= 0; row {i} has "
                             f"{plain(qrels['gain'].iloc[i])!r}")
        return g, None, None
    lv = pd.to_numeric(qrels["relevance"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(lv) | (lv != np.round(lv))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"qrels 'relevance' must hold integer levels; row {i} has "
                         f"{plain(qrels['relevance'].iloc[i])!r}")
    if len(lv) and np.abs(lv).max() >= 2.0 ** 53:
        i = int(np.argmax(np.abs(lv)))
        raise ValueError(f"{_place(qrels, i)}: qrels relevance level {plain(qrels['relevance'].iloc[i])!r} is beyond "
                         "the integers a float gain represents exactly")
    lv = lv.astype(np.int64)
    pos = lv > 0
    if gains is None:
        # linear gains (gain = level): computed from the levels present, never a table sized by
        # the largest level (a level of 10**8 must not allocate 10**8 entries)
        top = int(lv.max()) if len(lv) else 0
        g = np.where(pos, lv, 0).astype(float)
        return g, np.asarray(float(max(top, 1)), dtype=float), None
    mapping = parse_gain_spec(gains)
    unknown = pos & ~np.isin(lv, list(mapping))
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise ValueError(f"{_place(qrels, i)}: qrels relevance level L{lv[i]} (topic {plain(qrels['query_id'].iat[i])!r}, "
                         f"document {plain(qrels['doc_id'].iat[i])!r}) is one the gain mapping does not cover "
                         f"(levels {sorted(k for k in mapping if k > 0)})")
    keys = np.array(sorted(mapping), dtype=np.int64)
    vals = np.array([mapping[k] for k in keys], dtype=float)
    idx = np.clip(np.searchsorted(keys, lv), 0, len(keys) - 1)
    g = np.where(pos & (keys[idx] == lv), vals[idx], 0.0)
    positive = [v for k, v in sorted(mapping.items()) if k > 0]
    tied = len(set(positive)) < len(positive)
    return g, np.asarray(max(mapping.values()), dtype=float), (np.maximum(lv, 0) if tied else None)


def _ideal_by_topic(tcode: np.ndarray, gain: np.ndarray, n_topics: int) -> tuple[Ragged, np.ndarray]:
    """Ideal gains per topic (the positive gains, sorted descending, stored end to end) and ``R``."""
    ideal = Ragged.sorted_by_row(tcode, gain, n_topics)
    return ideal, ideal.length


def _levels_for_rel(qrels: pd.DataFrame, spec: MeasureSpec) -> np.ndarray:
    """Relevance levels (negative ones as 0) for the ``rel=`` threshold of binary measures."""
    if "relevance" not in qrels.columns:
        raise ValueError(f"{spec}: rel= thresholds relevance levels, but the qrels hold real-valued "
                         "gains (a 'gain' column); leave rel= out, or pass levels in a 'relevance' column")
    lv = pd.to_numeric(qrels["relevance"], errors="coerce").to_numpy(dtype=float)
    return np.maximum(lv, 0.0)  # already checked to be integers by _qrels_gains


@dataclass
class _Topics:
    """The qrels as arrays: one row per judgment, one entry per topic (natural order)."""

    topics: np.ndarray            # topic ids, natural order
    index: pd.Index               # topic id -> topic code
    tcode: np.ndarray             # topic code of each qrels row
    doc: np.ndarray               # doc id of each qrels row
    gain: np.ndarray              # gain of each qrels row
    level: np.ndarray | None      # levels, when P+ follows levels or rel= thresholds them
    levels_tied: bool             # P+'s preferred rank follows levels (NTCIREVAL compute)
    ideal: Ragged                 # ideal gains of each topic, sorted descending
    R: np.ndarray                 # relevant documents per topic
    gmax: np.ndarray              # gmax per topic
    grade: np.ndarray | None      # GAP's levels per qrels row (None: GAP on the gains)
    ideal_grade: Ragged | None

    @property
    def n(self) -> int:
        return len(self.topics)


def _topic_gmax(gmax, scale_max, ideal: Ragged, R: np.ndarray) -> np.ndarray:
    """gmax per topic: the gain scale's top for levels, the topic's top gain for gains, or as given."""
    n_topics = len(R)
    if gmax is None:
        out = np.full(n_topics, float(scale_max)) if scale_max is not None else ideal.first()
    elif isinstance(gmax, str):
        if gmax != "topic":
            raise ValueError(f"gmax must be a positive number, 'topic' or None, got {gmax!r}")
        out = ideal.first()
    else:
        gv = float(gmax)
        if not math.isfinite(gv) or gv <= 0:
            raise ValueError(f"gmax must be a positive number, 'topic' or None, got {gmax!r}")
        out = np.full(n_topics, gv)
    out[R == 0] = 1.0
    return out




def _refuse_overflowing_gains(gain: np.ndarray) -> None:
    if len(gain) and float(np.max(gain)) * len(gain) > GAIN_TOTAL_LIMIT:
        i = int(np.argmax(gain))
        raise ValueError(f"qrels row {i} has gain {gain[i]:g}: with {len(gain):,} judged rows the sums of gains would "
                         f"pass {GAIN_TOTAL_LIMIT:g} and overflow; normalised measures do not depend on the gains' "
                         "scale, so divide every gain by the same factor")


def _topic_side(qrels: pd.DataFrame, keys: L.TopicKeys, specs: list[MeasureSpec], gains, gmax) -> _Topics:
    """Gains, ideal lists and gmax per topic from the qrels whose identifiers are ``keys``."""
    q_gain, scale_max, q_level = _qrels_gains(qrels, gains, gmax)
    _refuse_overflowing_gains(q_gain)
    levels_tied = q_level is not None  # P+ then follows levels (NTCIREVAL compute)
    if any(s.rel is not None for s in specs):  # binary measures with rel=: the levels travel with the gains
        q_level = _levels_for_rel(qrels, next(s for s in specs if s.rel is not None))
    topics, tcode = keys.topics, keys.tcode
    ideal, R = _ideal_by_topic(tcode, q_gain, len(topics))
    gm = _topic_gmax(gmax, scale_max, ideal, R)
    # GAP compares relevance levels when the qrels hold levels (NTCIREVAL compute -gap), gains
    # otherwise (gcompute -gap)
    relmask = q_gain > 0
    grade = ideal_grade = None
    if "relevance" in qrels.columns and any(s.name == "GAP" for s in specs):
        grade = np.maximum(pd.to_numeric(qrels["relevance"]).to_numpy(dtype=float), 0.0)
        if np.array_equal(grade[relmask], q_gain[relmask]):
            grade = None  # gain = level (linear gains): GAP on the gains is the same thing
    if grade is not None:
        ideal_grade = _ideal_by_topic(tcode, np.where(relmask, grade, 0.0), len(topics))[0]
    return _Topics(topics, keys.index, tcode, keys.doc, q_gain, q_level, levels_tied, ideal, R, gm, grade,
                   ideal_grade)


@dataclass
class _Judged:
    """Gains (and levels, GAP grades, judged flags) of the retrieved rows, with their positions."""

    list_id: np.ndarray
    pos: np.ndarray
    gain: np.ndarray
    judged: np.ndarray
    level: np.ndarray | None
    grade: np.ndarray | None
    qrow: np.ndarray | None = None   # the qrels row of each retrieved row, -1 if unjudged

    def select(self, sel: np.ndarray) -> None:
        """Keep the rows ``sel`` selects (positions are not recomputed)."""
        self.list_id, self.gain, self.pos = self.list_id[sel], self.gain[sel], self.pos[sel]
        self.judged = self.judged[sel]
        self.qrow = None if self.qrow is None else self.qrow[sel]
        self.level = None if self.level is None else self.level[sel]
        self.grade = None if self.grade is None else self.grade[sel]


def _judged_rows(rows: L.RankedRows, qrow: np.ndarray, pos: np.ndarray, topics: _Topics,
                 depth: int | None) -> _Judged:
    """The gain of every retrieved document (unjudged: 0), lists cut at ``depth``."""
    list_id = rows.list_id
    judged = qrow >= 0
    gain = np.append(topics.gain, 0.0)[qrow]  # qrow == -1 picks the appended 0
    level = None if topics.level is None else np.append(topics.level, 0)[qrow].astype(float)
    grade = None if topics.grade is None else np.append(topics.grade, 0.0)[qrow]
    out = _Judged(list_id, pos, gain, judged, level, grade, qrow)
    if depth is not None:
        out.select(out.pos < depth)
    return out


def _condensed_family(rows: _Judged, topics: _Topics, specs: list[MeasureSpec], n_lists: int,
                      list_topic: np.ndarray) -> dict[str, np.ndarray]:
    """bpref and its variants, always on the judged documents only (Sakai 2007; NTCIREVAL -j)."""
    N_topic = np.bincount(topics.tcode[~(topics.gain > 0)], minlength=topics.n)
    bad = (N_topic == 0) & (topics.R > 0)
    if bad.any():
        t = [str(x) for x in topics.topics[bad]]
        raise ValueError(f"topic(s) {t[:5]}{'...' if len(t) > 5 else ''} have relevant but no judged "
                         f"non-relevant document, so {', '.join(str(x) for x in specs)} "
                         "(which compare relevant with judged non-relevant documents) are undefined "
                         "there (NTCIREVAL: 'no judged nonrel: bpref etc. not computable'); drop "
                         "these measures or those topics")
    c_list = rows.list_id[rows.judged]
    c_pos = L.positions(c_list, n_lists)
    c_gain = rows.gain[rows.judged]
    out = {str(s): np.empty(n_lists) for s in specs}
    for lists, sel, local, width in blocks(c_list, n_lists, topics.R[list_topic]):
        lt = list_topic[lists]
        c_matrix = np.full((len(lt), width), np.nan)
        c_matrix[local, c_pos[sel]] = c_gain[sel]
        res = evaluate_arrays(c_matrix, topics.ideal.dense(lt), specs, gmax=topics.gmax[lt],
                              n_nonrel=np.maximum(N_topic, 1)[lt])
        for key, v in res.items():
            out[key][lists] = v
    return out


def _list_measures(rows: _Judged, topics: _Topics, specs: list[MeasureSpec], n_lists: int,
                   list_topic: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Every other measure on the gain matrices of blocks of lists (:func:`blocks`: one
    (n_lists, depth) matrix unless that would waste memory); measures with ``rel=`` on the gains
    zeroed below their threshold. Returns the scores and, per ``rel=`` measure, the lists whose
    topic has no document at that level."""
    if all(s.cutoff is not None for s in specs):
        rows.select(rows.pos < max(s.cutoff for s in specs))
    by_rel = {r: _ideal_by_topic(topics.tcode, np.where(topics.level >= r, topics.gain, 0.0), topics.n)
              for r in sorted({s.rel for s in specs if s.rel is not None})}
    scores = {str(s): np.empty(n_lists) for s in specs}
    for lists, sel, local, width in blocks(rows.list_id, n_lists, topics.R[list_topic]):
        res = _block_measures(rows, sel, local, width, topics, list_topic[lists], specs, by_rel)
        for key, v in res.items():
            scores[key][lists] = v
    no_rel_at = {str(s): by_rel[s.rel][1][list_topic] == 0 for s in specs if s.rel is not None}
    return scores, no_rel_at


def _block_measures(rows: _Judged, sel, local: np.ndarray, width: int, topics: _Topics, lt: np.ndarray,
                    specs: list[MeasureSpec], by_rel: dict) -> dict[str, np.ndarray]:
    """The measures of one block of lists (topics ``lt``), from its rows ``sel`` at ``local``."""
    pos = rows.pos[sel]
    matrix = np.full((len(lt), width), np.nan)
    matrix[local, pos] = rows.gain[sel]
    pref = grades = None
    if rows.level is not None:
        pref = np.zeros((len(lt), width))
        pref[local, pos] = rows.level[sel]
    if rows.grade is not None:  # GAP on relevance levels (NTCIREVAL compute -gap)
        grades = np.zeros((len(lt), width))
        grades[local, pos] = rows.grade[sel]
    out: dict[str, np.ndarray] = {}
    plain = [s for s in specs if s.rel is None]
    if plain:
        out.update(evaluate_arrays(
            matrix, topics.ideal.dense(lt), plain, gmax=topics.gmax[lt],
            preference=pref if topics.levels_tied else None, grades=grades,
            ideal_grades=None if grades is None else topics.ideal_grade.dense(lt)))
    for r, (ideal_r, _) in by_rel.items():
        # levels below r are non-relevant: zero their gains, run list and ideal
        group = [s for s in specs if s.rel == r]
        g_r = np.where(np.isnan(matrix), np.nan, np.where(pref >= r, matrix, 0.0))
        res = evaluate_arrays(g_r, ideal_r.dense(lt), [s.without_rel() for s in group], gmax=topics.gmax[lt])
        for s in group:
            out[str(s)] = res[str(s.without_rel())]
    return out


def _report_unanswered(absent: np.ndarray, rows: "L.RankedRows", topics: "_Topics") -> None:
    """Say when qrels topics with relevant documents have no ranked list in a run (they score 0)."""
    if not absent.any():
        return
    per_run = absent.reshape(rows.n_runs, topics.n).sum(axis=1)
    worst = int(np.argmax(per_run))
    example = topics.topics[np.flatnonzero(absent.reshape(rows.n_runs, topics.n)[worst])[:3]]
    warn_caller(f"{int((per_run > 0).sum())} of {rows.n_runs} run(s) have no ranked list for some qrels topics, "
                f"which score 0 on every measure (run {str(rows.run_ids[worst])!r}: {int(per_run[worst])} of "
                f"{topics.n} topics, e.g. {[str(t) for t in example]}); they are kept in every mean with that 0 "
                "(to drop them instead, as trec_eval does without -c, pass missing='skip')")


def _tidy(scores: dict[str, np.ndarray], no_rel_at: dict[str, np.ndarray],
          labels: list[tuple[str, MeasureSpec]], topics: _Topics, rows: L.RankedRows, no_relevant: str,
          missing: str, own: set[str] = frozenset()) -> pd.DataFrame:
    """The conventions for empty and unanswered topics, then one row per run, topic and measure
    (``labels``: the label each measure gets, and the engine measure whose scores it shows; ``own``:
    trec_eval's measures, which define their value on topics without relevant documents themselves)."""
    n_topics = topics.n
    list_topic = np.tile(np.arange(n_topics), rows.n_runs)
    no_rel = topics.R[list_topic] == 0
    keep_list = np.ones(rows.n_runs * n_topics, dtype=bool)
    if missing == "skip":
        keep_list &= rows.present
    else:
        _report_unanswered(~rows.present & ~no_rel, rows, topics)
    if no_relevant == "skip":
        keep_list &= ~no_rel
    keys = [str(s) for _, s in labels]
    values = np.stack([scores[key] for key in keys], axis=1)  # (n_lists, n_measures)
    if no_relevant == "zero":
        # trec_eval's measures (own) define their value on such topics themselves
        values[np.ix_(no_rel, [j for j, key in enumerate(keys) if key not in own])] = 0.0
        for j, key in enumerate(keys):
            if key in no_rel_at:  # no document at level >= rel: 0 as trec_eval -l
                values[no_rel_at[key], j] = 0.0
    values = values[keep_list]
    kept = np.flatnonzero(keep_list)
    n_m = len(keys)
    return pd.DataFrame({
        "run_id": pd.Series(np.repeat(rows.run_ids[kept // n_topics], n_m), dtype="str"),
        "query_id": pd.Series(np.repeat(topics.topics[kept % n_topics], n_m), dtype="str"),
        "measure": pd.Series(np.tile(np.array([lab for lab, _ in labels], dtype=object), len(kept)), dtype="str"),
        "value": values.ravel(),
    })


def _named(measures, conv: C.Conventions, rel) -> list[tuple[str, MeasureSpec]]:
    """(label, engine measure) pairs for the requested names under the conventions, with the
    default relevance threshold ``rel`` given to binary measures written without one."""
    if measures is None or not isinstance(measures, (str, MeasureSpec, list, tuple, set, frozenset,
                                                     pd.Index, np.ndarray, pd.Series)):
        raise ValueError(f"measures must be a measure name or a list of names (e.g. ['AP', "
                         f"'nDCG@10']), got {type(measures).__name__}")
    named = measure_names.resolve(measures, conv.names, warn=not conv.chosen)
    level = _rel_level(rel)
    if level is None or level == 1:
        return named
    out = []
    for label, spec in named:
        with_rel = with_default_rel([spec], level)[0]
        out.append((str(with_rel) if label == str(spec) else label, with_rel))
    return out


def _rel_level(rel) -> int | None:
    """``rel=``: an integer level >= 1, a collection name (its threshold), or None."""
    if rel is None:
        return None
    if isinstance(rel, str):
        return rel_of_collection(rel)
    if isinstance(rel, (bool, np.bool_)) or not isinstance(rel, (int, np.integer)) or rel < 1:
        raise ValueError(f"rel must be an integer relevance level >= 1 or a collection name (e.g. "
                         f"'dl19-passage'), got {rel!r}")
    return int(rel)


def _with_attrs(res: pd.DataFrame, conv: C.Conventions, labels: list[tuple[str, MeasureSpec]]) -> pd.DataFrame:
    res.attrs["conventions"] = conv.as_dict()
    res.attrs["measures"] = {label: str(spec) for label, spec in labels}
    return res


class Alignment:
    """A run matched to qrels once: the run's rows grouped into ranked lists, ordered, and each
    row's qrels row found. Evaluating then only gathers gains and runs the kernels, so one
    alignment serves many measures and many gain assignments of the same judged items (e.g.
    RawG and UG gains, or PRM gains per threshold).

    Parameters
    ----------
    qrels, run : pandas.DataFrame
        Tidy frames as :func:`evaluate` takes them (no other shapes: use :func:`evaluate` or
        :func:`helpers.io.coerce.as_qrels` for those). The qrels' identifiers are what is
        aligned; their ``relevance`` or ``gain`` column is the default gain source.
    conventions, order_by, score_precision, duplicates : str
        As for :func:`evaluate`; the conventions also hold for :meth:`evaluate`
        (``self.conventions``).
    """

    def __init__(self, qrels: pd.DataFrame, run: pd.DataFrame, *, conventions: "str | C.Conventions | None" = None,
                 order_by: str | None = None, score_precision: str | None = None, duplicates: str = "error"):
        self.conventions = C.resolve(conventions, order_by=order_by, score_precision=score_precision)
        _check_duplicates_option(duplicates)
        self._align(qrels, L.topic_keys(qrels), run, duplicates)

    @classmethod
    def _with_keys(cls, qrels: pd.DataFrame, keys: L.TopicKeys, run: pd.DataFrame, conv: C.Conventions,
                   duplicates: str) -> "Alignment":
        """An alignment on already parsed qrels identifiers."""
        al = cls.__new__(cls)
        al.conventions = conv
        al._align(qrels, keys, run, duplicates)
        return al

    def _align(self, qrels, keys, run, duplicates) -> None:
        self.qrels, self.keys = qrels, keys
        self.rows = L.run_side(run, keys, self.conventions.order_by, duplicates, self.conventions.score_precision)
        self.pos = L.positions(self.rows.list_id, self.rows.n_runs * keys.n)
        self._qrows: dict = {}
        self.n_run_rows = len(run)

    def qrow(self, limit: int | None = None) -> np.ndarray:
        """For every row, the qrels row judging it (-1: unjudged); with ``limit``, only the rows at
        positions below it are looked up (the others get -1): measures cut at l never see the rest."""
        if None in self._qrows:
            return self._qrows[None]
        sel = None if limit is None else self.pos < limit
        if sel is not None and sel.all():
            limit, sel = None, None
        if limit not in self._qrows:
            q = np.full(len(self.pos), -1, dtype=np.int64)
            q[slice(None) if sel is None else sel] = L.qrels_row_of(self.rows, self.keys, sel)
            self._qrows[limit] = q
            if limit is None:
                self.rows.forget_hashes()  # every row is looked up: the hashes are not needed again
        return self._qrows[limit]

    def evaluate(self, measures, *, gain=None, gains: "str | Mapping[int, float] | None" = None,
                 gmax: "float | str | None" = None, condensed: bool = False, rel: "int | str | None" = None,
                 no_relevant: str | None = None, missing: str | None = None,
                 depth: int | None = None) -> pd.DataFrame:
        """The tidy table of :func:`evaluate` for this alignment, under its conventions
        (``no_relevant`` and ``missing`` given here override them).

        ``gain`` (optional): real-valued gains, one per qrels row in the qrels' order, used instead
        of the qrels' ``relevance``/``gain`` column (NTCIREVAL ``gcompute`` semantics, as a
        ``gain`` column). The other options are :func:`evaluate`'s.
        """
        conv = C.resolve(self.conventions, no_relevant=no_relevant, missing=missing)
        labels = _named(measures, conv, rel)
        specs = parse_measures([s for _, s in labels])
        qrels = self.qrels
        if gain is not None:
            g = np.asarray(gain, dtype=float)
            if g.shape != (len(qrels),):
                raise ValueError(f"gain must hold one value per qrels row ({len(qrels)}), got shape {g.shape}")
            qrels = pd.DataFrame({"query_id": qrels["query_id"], "doc_id": qrels["doc_id"], "gain": g})
        topics = _topic_side(qrels, self.keys, specs, gains, gmax)
        res = self._scores(topics, specs, labels, condensed=condensed, no_relevant=conv.no_relevant,
                           missing=conv.missing, depth=depth)
        return _with_attrs(res, conv, labels)

    def _scores(self, topics: _Topics, specs: list[MeasureSpec], labels: list[tuple[str, MeasureSpec]], *,
                condensed: bool, no_relevant: str, missing: str, depth: int | None) -> pd.DataFrame:
        rows = self.rows
        # only rows above the largest cutoff are looked up in the qrels when every measure has one
        cut = None if condensed or any(s.cutoff is None or s.name in CONDENSED_ONLY for s in specs) else \
            max(s.cutoff for s in specs)
        limit = depth if cut is None else min(cut, depth or cut)
        judged_rows = _judged_rows(rows, self.qrow(limit), self.pos, topics, depth)
        judged_any = bool(judged_rows.judged.any())
        n_lists = rows.n_runs * topics.n
        list_topic = np.tile(np.arange(topics.n), rows.n_runs)
        trec_specs = [s for s in specs if uses_trec_kernel(s.name)]
        cond_specs = [s for s in specs if s.name in CONDENSED_ONLY]
        main_specs = [s for s in specs if s.name not in CONDENSED_ONLY and s not in trec_specs]
        scores: dict[str, np.ndarray] = {}
        no_rel_at: dict[str, np.ndarray] = {}
        if trec_specs:  # trec_eval's own definitions (helpers.measures.treceval), on relevance levels
            levels = (pd.to_numeric(self.qrels["relevance"]).to_numpy() if "relevance" in self.qrels.columns
                      else None)
            scores.update(score_aligned_rows(judged_rows.list_id, judged_rows.pos, judged_rows.qrow, self.keys.tcode,
                                             levels, n_lists, list_topic, topics.n, trec_specs, judged_only=condensed))
        if cond_specs:
            scores.update(_condensed_family(judged_rows, topics, cond_specs, n_lists, list_topic))
        if condensed:
            judged_rows.select(judged_rows.judged)
            judged_rows.pos = L.positions(judged_rows.list_id, n_lists)
        if main_specs:
            main, no_rel_at = _list_measures(judged_rows, topics, main_specs, n_lists, list_topic)
            scores.update(main)
        del judged_rows
        if no_relevant == "skip" and not topics.R.any():
            raise no_relevant_document("qrels", "every level is <= 0", "every topic would be skipped and the "
                                       "result would be empty; pass no_relevant='zero' or 'nan' to score such topics")
        if self.n_run_rows and not judged_any:
            warn_caller(("no retrieved document is judged in the qrels" if cut is None else
                         f"no retrieved document in the top {cut} of any list is judged in the qrels")
                        + " (every value is 0): do the run's doc_ids use the qrels' identifiers?")
        if no_relevant == "skip":
            _warn_nothing_at_rel(no_rel_at, labels, topics, list_topic)
        return _tidy(scores, no_rel_at, labels, topics, rows, no_relevant, missing,
                     own={str(s) for s in trec_specs})


def _warn_nothing_at_rel(no_rel_at: dict[str, np.ndarray], labels, topics: _Topics, list_topic: np.ndarray) -> None:
    """Say when a ``rel=`` threshold leaves topics (that have relevant documents) with none at that
    level: ntcireval keeps them as NaN (and the mean NaN), where trec_eval -l scores them 0."""
    has_rel = topics.R[list_topic] > 0
    for label, spec in labels:
        empty = no_rel_at.get(str(spec))
        if empty is not None and (empty & has_rel).any():
            names = pd.unique(topics.topics[list_topic[empty & has_rel]])
            warn_caller(f"{label}: {len(names)} of {int((topics.R > 0).sum())} topic(s) have no document at level >= "
                        f"{spec.rel:g} (e.g. {[str(t) for t in names[:3]]}), so {label} is NaN on them (a mean leaves "
                        "them out; NaN when every topic is such); pass no_relevant='zero' (--no-relevant zero) to score them 0 as trec_eval -l does")


def _check_duplicates_option(duplicates) -> None:
    if duplicates not in DUPLICATES:
        raise ValueError(f"duplicates must be one of {DUPLICATES}, got {duplicates!r}")


def evaluate_frames(qrels: pd.DataFrame, run: pd.DataFrame, specs: list[MeasureSpec], *,
                    gains: "str | Mapping[int, float] | None" = None, gmax: "float | str | None" = None,
                    condensed: bool = False, order_by: str = "rank", score_precision: str = "double",
                    duplicates: str = "error", no_relevant: str = "skip", missing: str = "zero",
                    depth: int | None = None, labels: "list[tuple[str, MeasureSpec]] | None" = None
                    ) -> pd.DataFrame:
    """The core of :func:`evaluate` on tidy frames and parsed measures: no coercion, no checks of
    the options (:func:`evaluate` does both once).

    ``qrels`` and ``run`` are DataFrames with the columns :func:`evaluate` documents, ``specs``
    the output of :func:`helpers.measures.spec.parse_measures`; the options mean what they mean
    for :func:`evaluate`, whose conventions (module docstring) this function implements.
    ``labels`` (optional): the rows of the result, as (label, measure of ``specs``) pairs; by
    default each measure under its canonical name.
    """
    keys = L.topic_keys(qrels)
    topics = _topic_side(qrels, keys, specs, gains, gmax)  # gain errors before the run is read
    conv = C.resolve(None, order_by=order_by, score_precision=score_precision)
    al = Alignment._with_keys(qrels, keys, run, conv, duplicates)
    return al._scores(topics, specs, labels or [(str(s), s) for s in specs], condensed=condensed,
                      no_relevant=no_relevant, missing=missing, depth=depth)


def evaluate(qrels: pd.DataFrame, run: pd.DataFrame, measures, *,
             conventions: "str | C.Conventions | None" = None,
             names: str | None = None,
             rel: "int | str | None" = None,
             gains: "str | Mapping[int, float] | None" = None,
             gmax: "float | str | None" = None,
             condensed: bool = False,
             order_by: str | None = None,
             score_precision: str | None = None,
             duplicates: str = "error",
             no_relevant: str | None = None,
             missing: str | None = None,
             depth: int | None = None) -> pd.DataFrame:
    """Evaluate one or many runs against graded qrels with NTCIREVAL's measure definitions.

    Parameters
    ----------
    qrels : pandas.DataFrame, dict, iterable of namedtuples or path
        Columns ``query_id``, ``doc_id`` and either ``relevance`` (integer levels, mapped through
        ``gains``) or ``gain`` (real-valued gains used as they are, e.g. unanimity-aware or PRM
        gains). Each (query_id, doc_id) at most once. Also accepted (converted once by
        :func:`helpers.io.coerce.as_qrels`, then checked as a DataFrame): a pytrec_eval/ranx dict
        ``{qid: {docid: level}}``, an iterable of ir_measures/ir_datasets ``Qrel``/``TrecQrel``
        namedtuples, or the path of a TREC qrels file.
    run : pandas.DataFrame, dict, iterable of namedtuples, path, list of paths or glob
        Columns ``query_id``, ``doc_id``, ``rank`` and/or ``score``, optionally ``run_id``
        (several runs at once; without it the run is called ``"run"``). Also accepted
        (:func:`helpers.io.coerce.as_run`): ``{qid: {docid: score}}``, ``{run_id: {qid: {docid:
        score}}}``, an iterable of ``ScoredDoc`` namedtuples, or TREC run files (NTCIREVAL
        ``.res`` ranked lists too): a path, a folder, a glob such as ``"runs/*.txt"`` or a list
        of them, each file one run named by its tag.
    measures : str or iterable of str
        Measure names, read under ``names``: NTCIREVAL's by default (:data:`MEASURES`; ``nDCG@10``
        is the original nDCG, trec_eval's is ``MSnDCG@10``), trec_eval's and ir_measures' with
        ``names="trec_eval"`` or ``conventions="trec_eval"`` (:mod:`helpers.measures.names`).
        Binary measures take ``rel=`` (``"AP(rel=2)"``).
    conventions : {"ntcireval", "trec_eval"}, optional
        Names, ordering, score precision and empty-topic rules together
        (:mod:`helpers.measures.conventions`). Default: ``"trec_eval"`` if ``names`` is a
        trec_eval/ir_measures scheme, else ``"ntcireval"``. The settings below, when given,
        override the convention's; the settings in force are in ``result.attrs["conventions"]``.
        Without a convention (or ``names``), a name that ir_measures reads as another measure
        (``nDCG@10``, ``AP@10``, ``ERR``, ``RBP``) or a trec_eval name (``map``) gives one
        :class:`helpers.measures.names.AmbiguousNameWarning` per session saying what was computed,
        and a run whose rank column orders lists otherwise than trec_eval's score order gives one
        :class:`helpers.measures.ordering.RankOrderWarning` per call (counts, both orders, how to get
        trec_eval's numbers).
    names : {"ntcireval", "trec_eval", "ir_measures"}, optional
        How ``measures`` are named. Under ``"ntcireval"`` trec_eval/ir_measures names that are
        no engine name (``map``, ``ndcg_cut_10``, ``P_10``, ``Success@10``) are recognised too.
        Labels in the result: the engine's canonical names, or trec_eval/ir_measures names as
        written (``result.attrs["measures"]`` maps each label to the engine measure).
    rel : int or str, optional
        Relevance threshold of the binary measures written without ``rel=`` (trec_eval ``-l``):
        a level, or a collection whose threshold is used (``"dl19-passage"`` -> 2).
    gains : str or dict, optional
        Level-to-gain mapping for ``relevance`` qrels: NTCIREVAL's ``"1:2:3"`` (L1->1, L2->2,
        L3->3) or ``{1: 1.0, 2: 2.0, 3: 3.0}``. L0 and negative levels get 0. Default: linear
        (gain = level), i.e. ``-g 1:2:...:Lmax``.
    gmax : float or "topic", optional
        Highest gain for ERR/nERR/RBP/EBR/iRBU. Default: top of the gain mapping for levels
        (NTCIREVAL ``compute``), the topic's highest gain for a ``gain`` column (``gcompute``).
    condensed : bool
        Remove unjudged documents before counting ranks (NTCIREVAL ``-j``).
    order_by : {"rank", "score"}, optional
        ``"rank"`` (ntcireval): increasing ``rank`` when the run has one, ties and rank-less runs
        by decreasing score then decreasing doc_id; ``"score"`` (trec_eval): rank ignored.
    score_precision : {"double", "single"}, optional
        ``"single"`` (trec_eval) compares scores rounded to C ``float``, as trec_eval stores them.
    duplicates : {"error", "keep_first"}
        A document retrieved twice for one topic by one run raises ``ValueError`` (default) or
        keeps only its highest-ranked copy.
    no_relevant : {"skip", "zero", "nan"}, optional
        Topics whose qrels hold no relevant document: dropped (ntcireval), scored 0 (trec_eval)
        or kept as NaN.
    missing : {"zero", "skip"}, optional
        Qrels topics a run did not answer: scored 0 (ntcireval; ir_measures) or dropped
        (trec_eval without ``-c``).
    depth : int, optional
        Keep only the first ``depth`` documents of every list before condensing (the doc limit
        of NTCIREVAL's ``TRECsplitruns``). Default: all.

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id``, ``query_id``, ``measure``, ``value``; runs in order of first
        appearance, topics in natural order, measures in the order requested. ``attrs``:
        ``"conventions"`` (the settings in force) and ``"measures"`` (label -> engine measure).

    Raises
    ------
    ValueError
        For missing columns, missing identifiers, non-integer levels or negative/non-finite
        gains, a level the gain mapping does not cover, a pair judged twice, a document retrieved
        twice (unless ``duplicates="keep_first"``), NaN ranks or scores, unknown conventions,
        options or measure names (the message points to :func:`helpers.measures.names.translate`),
        ``rel=`` on a graded measure or with a ``gain`` column, a run path matching no file.
    """
    conv = C.resolve(conventions, names=names, order_by=order_by, score_precision=score_precision,
                     no_relevant=no_relevant, missing=missing)
    _check_duplicates_option(duplicates)
    labels = _named(measures, conv, rel)
    if depth is not None and (isinstance(depth, (bool, np.bool_)) or not isinstance(depth, (int, np.integer)) or depth < 1):
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    if not isinstance(condensed, (bool, np.bool_)):
        raise ValueError(f"condensed must be True or False, got {condensed!r}")
    qrels, run = coerce.as_qrels(qrels), coerce.as_run(run, duplicates=duplicates)
    res = evaluate_frames(qrels, run, parse_measures([s for _, s in labels]), gains=gains, gmax=gmax,
                          condensed=condensed, order_by=conv.order_by, score_precision=conv.score_precision,
                          duplicates=duplicates, no_relevant=conv.no_relevant, missing=conv.missing,
                          depth=depth, labels=labels)
    if order_by is None and not conv.chosen and conv.order_by == "rank":  # the default order: say where it is not trec_eval's
        ordering.warn_rank_order(run, topics=pd.unique(qrels["query_id"].astype(str)))
    return _with_attrs(res, conv, labels)
