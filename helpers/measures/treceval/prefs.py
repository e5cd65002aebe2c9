"""trec_eval's preference measures (``-R prefs``, ``-R qrels_prefs``; trec_eval 10,
``form_prefs_counts.c`` and ``m_prefs_*.c``), with numpy over each topic's judged documents.

**Preferences.** A topic's judgments come in judgment groups (jg: one user at one time), each made
of judgment subgroups (jsg). Within a subgroup a document is preferred to every document with a
lower ``rel_level``; a group with one subgroup is a set of equivalence classes (one per level), a
group with several is closed transitively (A > B in one subgroup and B > C in another give A > C)
and must not contradict itself. ``rel_level`` 0 marks a non-relevant document. Different groups
may disagree: that is the point of the measures.

**Ranks.** The judged documents of a topic are numbered: the retrieved ones by retrieval rank
(score decreasing, ties by *increasing* document id, unlike trec_eval's other measures), the
others after them. A preference A > B is *fulfilled* when A is ranked above B; it is *retrieved*
when both are retrieved, *implied* when exactly one is (fulfilled if it is A), and *not occurring*
when neither is.

=============================  ============================================================
``prefs_num_prefs_poss``       preferences over all groups (counted per group)
``prefs_num_prefs_ful``        fulfilled ones (retrieved and implied)
``prefs_num_prefs_ful_ret``    fulfilled with both documents retrieved
``prefs_simp``                 fulfilled / possible, pooled over groups; ``_ret``: retrieved
                               pairs only; ``_imp``: retrieved and implied pairs
``prefs_avgjg``                the same ratio per group, averaged over the groups (0 unless the
                               sum is positive); ``_ret``, ``_imp`` likewise
``prefs_pair``                 per pair of documents with a preference in some group: the share
                               of groups preferring the first-ranked one, averaged over pairs
                               (pairs of two unretrieved documents count with share 0);
                               ``_ret``, ``_imp`` likewise
``prefs_avgjg_Rnonrel``        ``prefs_avgjg`` with each group's non-relevant documents cut or
                               padded to its number of relevant ones (trec_eval's recalculation,
                               quirks included: a non-relevant document's preference over
                               itself counts as possible, not fulfilled); ``_ret`` on retrieved
                               documents
=============================  ============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .ranking import Ranked

__all__ = ["PREFS_MEASURES", "evaluate_prefs", "preference_scores"]

PREFS_MEASURES = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
                  "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                  "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                  "prefs_avgjg_imp")


@dataclass
class _Group:
    """Counts of one judgment group (trec_eval's ``JG``) and what its recalculations need."""

    ful_ret: int
    poss_ret: int
    ful_imp: int
    poss_imp: int
    notoccur: int
    num_rel: int
    num_rel_ret: int
    num_nonrel: int
    num_nonrel_ret: int
    ecs: list[np.ndarray] | None = None       # equivalence classes by decreasing level (one subgroup)
    pa: np.ndarray | None = None             # preference array (several subgroups)
    rel_array: np.ndarray | None = None


def _above(a: np.ndarray, b: np.ndarray) -> int:
    """#{(x, y) in a x b: x < y} for sorted ``b``."""
    return int((len(b) - np.searchsorted(b, a, side="right")).sum())


def _ec_group(levels: np.ndarray, ranks: np.ndarray, njr: int, counts: np.ndarray) -> _Group:
    """A group with one subgroup: equivalence classes by level (``add_ec_pref_to_jg``)."""
    order = np.lexsort((ranks, -levels))
    levels, ranks = levels[order], ranks[order]
    cut = np.flatnonzero(np.r_[True, levels[1:] != levels[:-1]])
    ecs = np.split(ranks, cut[1:])
    ec_levels = levels[cut]
    ful_ret = poss_ret = ful_imp = poss_imp = notoccur = 0
    for i, a in enumerate(ecs):
        a_ret, a_un = a[a < njr], a[a >= njr]
        for b in ecs[i + 1:]:
            counts[np.ix_(a, b)] += 1
            b_ret, b_un = b[b < njr], b[b >= njr]
            ful_ret += _above(a_ret, b_ret)
            poss_ret += len(a_ret) * len(b_ret)
            ful_imp += len(a_ret) * len(b_un)
            poss_imp += len(a_ret) * len(b_un) + len(a_un) * len(b_ret)
            notoccur += len(a_un) * len(b_un)
    rel = ec_levels > 0
    n_in = np.array([len(e) for e in ecs])
    n_ret = np.array([int((e < njr).sum()) for e in ecs])
    return _Group(ful_ret, poss_ret, ful_imp, poss_imp, notoccur, int(n_in[rel].sum()), int(n_ret[rel].sum()),
                  int(n_in[~rel].sum()), int(n_ret[~rel].sum()), ecs=ecs)


def _closure(pa: np.ndarray) -> np.ndarray:
    """Reflexive-transitive closure of a boolean relation, diagonal then removed (``add_transitives``)."""
    m = pa | np.eye(len(pa), dtype=bool)
    while True:
        nxt = (m.astype(np.int32) @ m.astype(np.int32)) > 0
        if np.array_equal(nxt, m):
            break
        m = nxt
    np.fill_diagonal(m, False)
    return m


def _lines(files: tuple, topic: str, jg: str, docs: list) -> str:
    """``file:lines: `` of the lines of group ``jg`` of ``topic`` naming one of ``docs`` (the file
    is searched again only for this message; empty for a frame built in memory)."""
    from ...io.trec import c_fields, numbered_lines

    for f in files:
        try:
            found = [n for n, text in numbered_lines(Path(f)) if isinstance(text, str)
                     for x in [c_fields(text)] if len(x) >= 4 and x[0] == topic and x[1] == jg and x[-2] in docs]
        except OSError:
            continue
        if found:
            shown = ", ".join(map(str, found[:8])) + (f" and {len(found) - 8} more" if len(found) > 8 else "")
            return f"{f}: line{'s' if len(found) > 1 else ''} {shown}: "
    return ""


def _pa_group(sub: pd.DataFrame, nj: int, njr: int, counts: np.ndarray, topic: str, jg: str,
              files: tuple = ()) -> _Group:
    """A group with several subgroups: a closed preference array (``form_jg_pa``)."""
    levels, ranks = sub["rel_level"].to_numpy(), sub["rank"].to_numpy()
    zero, pos = np.zeros(nj, dtype=bool), np.zeros(nj, dtype=bool)
    zero[ranks[levels == 0.0]] = True
    pos[ranks[levels > 0.0]] = True
    if (zero & pos).any():
        doc = sub["doc_id"].to_numpy()[ranks == int(np.flatnonzero(zero & pos)[0])][0]
        raise ValueError(f"{_lines(files, topic, jg, [doc])}topic {topic!r}, judgment group {jg!r}: document {doc!r} "
                         "has both rel_level 0 and a rel_level > 0 (trec_eval refuses this too)")
    rel_array = np.full(nj, -1.0)
    last = pd.Series(levels).groupby(ranks, sort=False).last()     # trec_eval's order: the last level wins
    rel_array[last.index.to_numpy()] = last.to_numpy()
    pa = np.zeros((nj, nj), dtype=bool)
    for _, g in sub.groupby("jsg", sort=False):
        r, lv = g["rank"].to_numpy(), g["rel_level"].to_numpy()
        pa[np.ix_(r, r)] |= lv[:, None] > lv[None, :]
    pa = _closure(pa)
    if (pa & pa.T).any():
        i, j = np.argwhere(pa & pa.T)[0]
        doc_of = dict(zip(ranks.tolist(), sub["doc_id"].tolist()))
        a, b = doc_of[int(i)], doc_of[int(j)]
        cycle = [a] + [doc_of[int(k)] for k in np.flatnonzero(pa[i] & pa[:, i]) if int(k) in doc_of]   # i's cycle
        via = f" (through {', '.join(map(repr, sorted(set(cycle) - {a, b})))})" if len(set(cycle) - {a, b}) else ""
        raise ValueError(f"{_lines(files, topic, jg, cycle)}topic {topic!r}, judgment group {jg!r}: contradictory "
                         f"preferences: documents {a!r} and {b!r} are each preferred to the other{via} once its "
                         "subgroups are closed transitively (trec_eval aborts: 'Pref inconsistency found', status 134)")
    counts += pa
    a = pa
    ful_ret = int(np.triu(a[:njr, :njr], 1).sum())
    poss_nf = int(np.tril(a[:njr, :njr], -1).sum())
    ful_imp, poss_imp_nf, notoccur = int(a[:njr, njr:].sum()), int(a[njr:, :njr].sum()), int(a[njr:, njr:].sum())
    ret = rel_array[:njr]
    return _Group(ful_ret, poss_nf + ful_ret, ful_imp, poss_imp_nf + ful_imp, notoccur,
                  int((rel_array > 0).sum()), int((ret > 0).sum()), int((rel_array == 0).sum()),
                  int((ret == 0).sum()), pa=pa, rel_array=rel_array)


def _ful_pairs(a: np.ndarray, b: np.ndarray, njr: int, retrieved: bool) -> tuple[int, int]:
    """(fulfilled, other) pairs of ``a`` x ``b`` as trec_eval's Rnonrel recalculation counts them."""
    if retrieved:
        a, b = a[a < njr], b[b < njr]
        ful = _above(a, np.sort(b))
    else:
        ful = _above(a[a < njr], np.sort(b))
    return ful, len(a) * len(b) - ful


def _recalculate(g: _Group, njr: int, retrieved: bool) -> tuple[int, int]:
    """``recalculate()`` of ``m_prefs_avgjg_Rnonrel[_ret].c``: fulfilled and possible with the
    non-relevant documents cut to the group's number of relevant (retrieved) ones."""
    if g.ecs is not None:
        keep = g.num_rel_ret if retrieved else g.num_rel
        nonrel = g.ecs[-1][:keep]
        ful = other = 0
        for i, a in enumerate(g.ecs):
            for b in g.ecs[i + 1: len(g.ecs) - 1]:
                f, o = _ful_pairs(a, b, njr, retrieved)
                ful, other = ful + f, other + o
        for a in g.ecs:
            f, o = _ful_pairs(a, nonrel, njr, retrieved)
            ful, other = ful + f, other + o
        return ful, other + ful
    nonrel_at = np.flatnonzero(g.rel_array[: njr if retrieved else len(g.rel_array)] == 0.0)
    first = nonrel_at[g.num_rel] if len(nonrel_at) > g.num_rel else (njr if retrieved else len(g.rel_array))
    idx = np.arange(len(g.rel_array))
    live = ~((idx >= first) & (g.rel_array == 0.0))
    a = g.pa & live[:, None] & live[None, :]
    if retrieved:
        a = a[:njr, :njr]
        ful = int(np.triu(a, 1).sum())
        return ful, int(np.tril(a, -1).sum()) + ful
    ful = int(np.triu(a[:njr, :njr], 1).sum()) + int(a[:njr, njr:].sum())
    poss = int(np.tril(a[:njr, :njr], -1).sum()) + int(a[njr:, :].sum())
    return ful, poss + ful


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def _pairs_measures(counts: np.ndarray, njr: int) -> dict[str, float]:
    i, j = np.triu_indices(len(counts), 1)
    cij, cji = counts[i, j].astype(float), counts[j, i].astype(float)
    has = (cij > 0) | (cji > 0)
    share = np.where(has, cij / np.where(has, cij + cji, 1.0), 0.0)
    ret, imp = (j < njr), (i < njr) & (j >= njr)
    # trec_eval adds the pairs of two retrieved documents, then those of one (row by row)
    terms = np.concatenate([share[has & ret], share[has & imp]])
    sums = np.cumsum(terms)
    n_ret, n_imp, n_not = int((has & ret).sum()), int((has & imp).sum()), int((has & ~ret & ~imp).sum())
    s_ret = float(sums[n_ret - 1]) if n_ret else 0.0
    s_both = float(sums[-1]) if len(sums) else 0.0
    return {"prefs_pair": _ratio(s_both, n_ret + n_imp + n_not), "prefs_pair_ret": _ratio(s_ret, n_ret),
            "prefs_pair_imp": _ratio(s_both, n_ret + n_imp)}


def _avg(groups: list[_Group], parts) -> float:
    total = 0.0
    for g in groups:
        ful, poss = parts(g)
        if poss:
            total += ful / poss
    return total / len(groups) if total > 0.0 else 0.0


def _rnonrel(g: _Group, njr: int, retrieved: bool) -> float:
    R, N = (g.num_rel_ret, g.num_nonrel_ret) if retrieved else (g.num_rel, g.num_nonrel)
    if R >= N:
        if retrieved:
            ful, poss = g.ful_ret + g.num_rel_ret * (R - N), g.poss_ret + g.num_rel * (R - N)
        else:
            ful = g.ful_ret + g.ful_imp + g.num_rel_ret * (R - N)
            poss = g.poss_ret + g.poss_imp + g.notoccur + g.num_rel * (R - N)
    else:
        ful, poss = _recalculate(g, njr, retrieved)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(ful) / np.float64(poss))


def _topic_values(groups: list[_Group], counts: np.ndarray, njr: int) -> dict[str, float]:
    s = {k: sum(getattr(g, k) for g in groups) for k in ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur")}
    out = {"prefs_num_prefs_poss": float(s["poss_ret"] + s["poss_imp"] + s["notoccur"]),
           "prefs_num_prefs_ful": float(s["ful_ret"] + s["ful_imp"]),
           "prefs_num_prefs_ful_ret": float(s["ful_ret"]),
           "prefs_simp": _ratio(s["ful_ret"] + s["ful_imp"], s["poss_ret"] + s["poss_imp"] + s["notoccur"]),
           "prefs_simp_ret": _ratio(s["ful_ret"], s["poss_ret"]),
           "prefs_simp_imp": _ratio(s["ful_ret"] + s["ful_imp"], s["poss_ret"] + s["poss_imp"]),
           "prefs_avgjg": _avg(groups, lambda g: (g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.notoccur)),
           "prefs_avgjg_ret": _avg(groups, lambda g: (g.ful_ret, g.poss_ret)),
           "prefs_avgjg_imp": _avg(groups, lambda g: (g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp))}
    out.update(_pairs_measures(counts, njr))
    for name, retrieved in (("prefs_avgjg_Rnonrel", False), ("prefs_avgjg_Rnonrel_ret", True)):
        total = 0.0
        for g in groups:
            total += _rnonrel(g, njr, retrieved)
        out[name] = total / len(groups) if total > 0.0 else 0.0
    return out


def _topic(prefs: pd.DataFrame, retrieved: np.ndarray, topic: str, files: tuple = ()) -> dict[str, float]:
    judged = pd.unique(prefs["doc_id"].to_numpy(dtype=object))
    ret = retrieved[pd.Index(judged).get_indexer(retrieved) >= 0]
    unret = np.sort(np.setdiff1d(judged.astype(str), ret.astype(str)))
    order = pd.Index(np.concatenate([ret, unret]).astype(object))
    njr, nj = len(ret), len(order)
    sub = prefs.assign(rank=order.get_indexer(prefs["doc_id"].to_numpy(dtype=object)))
    sub = sub.sort_values(["jg", "jsg", "rel_level", "rank"], ascending=[True, True, False, True], kind="stable")
    counts = np.zeros((nj, nj), dtype=np.int64)
    groups = []
    for jg, g in sub.groupby("jg", sort=False):
        if g["jsg"].nunique() > 1:
            groups.append(_pa_group(g, nj, njr, counts, topic, str(jg), files))
        else:
            groups.append(_ec_group(g["rel_level"].to_numpy(), g["rank"].to_numpy(), njr, counts))
    return _topic_values(groups, counts, njr)


def evaluate_prefs(prefs: pd.DataFrame, ranked: Ranked, topics: list[str], names) -> dict[str, np.ndarray]:
    """trec_eval's preference measures per topic.

    Parameters
    ----------
    prefs : pandas.DataFrame
        ``query_id, jg, jsg, doc_id, rel_level`` (:func:`helpers.io.judgment_groups.read_prefs` or
        ``read_qrels_prefs``).
    ranked : Ranked
        The results of ``topics`` ranked with ties by increasing document id
        (``rank_results(..., ties="increasing")``).
    topics : list of str
    names : iterable of str
        Measures of :data:`PREFS_MEASURES`.

    Returns
    -------
    dict of str to numpy.ndarray
        One value per topic and measure.

    Raises
    ------
    ValueError
        For a name that is not a preference measure, or a judgment group that contradicts itself
        (a document both non-relevant and relevant, or A > B and B > A after closure).
    """
    names = list(names)
    bad = [n for n in names if n not in PREFS_MEASURES]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a preference measure; they are {', '.join(PREFS_MEASURES)}")
    out = {n: np.zeros(len(topics)) for n in names}
    files = tuple(prefs.attrs.get("files") or ())
    by_topic = dict(tuple(prefs.groupby("query_id", sort=False)))
    starts = np.searchsorted(ranked.topic, np.arange(len(topics) + 1))
    for t, topic in enumerate(topics):
        sub = by_topic.get(topic)
        if sub is None:
            continue
        values = _topic(sub, ranked.doc[starts[t]:starts[t + 1]], topic, files)
        for n in names:
            out[n][t] = values[n]
    return out


def preference_scores(prefs: pd.DataFrame, run: pd.DataFrame, names=PREFS_MEASURES) -> pd.DataFrame:
    """trec_eval's preference measures for one or many runs.

    Parameters
    ----------
    prefs : pandas.DataFrame
        ``query_id, jg, jsg, doc_id, rel_level`` (:func:`helpers.io.readers.read_prefs` or
        ``read_qrels_prefs``).
    run : pandas.DataFrame
        ``query_id, doc_id, score`` and optionally ``run_id``.
    names : iterable of str
        Measures of :data:`PREFS_MEASURES` (default: all).

    Returns
    -------
    pandas.DataFrame
        ``run_id, query_id, measure, value`` for every judged topic the run answered.
    """
    from .groups import tidy_scores
    from .ranking import rank_results

    runs = [("run", run)] if "run_id" not in run.columns else [(str(r), g) for r, g in run.groupby("run_id", sort=False)]
    per_run = []
    for rid, frame in runs:
        answered = set(frame["query_id"].astype(str))
        topics = sorted(t for t in pd.unique(prefs["query_id"].astype(str)) if t in answered)
        ranked = rank_results(frame.astype({"query_id": "str", "doc_id": "str"}), topics, ties="increasing")
        per_run.append((rid, topics, evaluate_prefs(prefs, ranked, topics, names)))
    return tidy_scores(per_run)
