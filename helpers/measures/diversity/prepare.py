"""Diversity qrels, intents and runs turned into arrays over lists x ranks x intents.

:func:`prepare` checks the three tables (columns, identifiers, levels or gains, probabilities,
duplicates, ranks) and returns a :class:`DiversityData`: intent probabilities and kinds per topic,
the intentwise gains of every judged document, and the intentwise gains of every retrieved
document, ``(runs x topics, depth, intents)``. The conventions are those of the package docstring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...io.coerce import as_run, order_values, refuse_booleans
from ...io.ids import str_ids
from ..notices import no_relevant_document, plain, warn_caller
from ..spec import GAIN_TOTAL_LIMIT

__all__ = ["DiversityData", "prepare", "need_columns", "check_columns", "sig6", "gain_scale"]


def need_columns(df, cols, what):
    """Refuse a non-DataFrame or missing columns; identifier columns (``*_id``) must be exact
    strings with no missing value (a NaN would become the id ``"nan"``)."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{what} lacks column(s) {missing}; has {list(df.columns)}")
    for c in cols:  # identifiers: exact strings, none missing (a NaN would become the id "nan")
        if c.endswith("_id"):
            str_ids(df[c], f"{what} {c!r}")


def _first(df, mask, cols):
    row = df.loc[mask, cols].iloc[0]
    return ", ".join(f"{c}={plain(row[c])!r}" for c in cols)   # Python reprs: 'nan', never np.float64(nan)


def _gain_table(gains, levels: np.ndarray) -> tuple[np.ndarray, float]:
    """Map integer levels to gains; returns (gains per row, gmax of the mapping)."""
    lv = levels.astype(np.int64)
    pos = np.maximum(lv, 0)
    top = int(pos.max()) if len(pos) else 0
    if gains is None:   # a level past 1023 makes 2^x - 1 infinite: the caller's GAIN_TOTAL_LIMIT refusal names it
        with np.errstate(over="ignore"):
            out = np.where(lv > 0, np.exp2(pos.astype(np.float64)) - 1.0, 0.0)
            return out, float(np.exp2(np.float64(max(top, 1))) - 1.0)
    if isinstance(gains, str):
        try:
            spec = [float(x) for x in gains.split(":")]
        except ValueError:
            raise ValueError(f"gains spec must look like '1:2:3' (gain of L1:L2:L3), got {gains!r}") from None
        table = {k + 1: g for k, g in enumerate(spec)}
    elif isinstance(gains, dict):
        table = {}
        for k, g in gains.items():
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
                raise ValueError(f"gains dict keys must be integer levels, got {plain(k)!r}")
            if not -(2**63) <= int(k) < 2**63:
                raise ValueError(f"gains: level {int(k)} is beyond the range of relevance levels (a 64-bit integer, "
                                 f"as trec_eval's C long: {-(2**63)} to {2**63 - 1})")
            table[int(k)] = float(g)
        table.pop(0, None)
    else:
        raise ValueError(f"gains must be None (2^x - 1), a spec string like '1:2:3' or a {{level: gain}} dict, got {gains!r}")
    if not table:
        raise ValueError(f"the gains mapping {gains!r} gives no level >= 1 a gain; expected e.g. {{1: 1, 2: 3}}")
    for k, g in table.items():
        if not math.isfinite(g) or g <= 0:
            raise ValueError(f"gain of level L{k} must be a positive finite number, got {plain(g)!r}")
    missing = sorted(set(np.unique(lv[lv > 0]).tolist()) - set(table))
    if missing:
        raise ValueError(f"dqrels has relevance level(s) {missing} that the gains mapping {gains!r} does not cover")
    # looked up by search, never a table sized by the largest level (memory bounded by the input's size)
    keys = np.array(sorted(table), dtype=np.int64)
    vals = np.array([table[k] for k in sorted(table)], dtype=float)
    idx = np.clip(np.searchsorted(keys, lv), 0, len(keys) - 1)
    return np.where((lv > 0) & (keys[idx] == lv), vals[idx], 0.0), float(max(table.values()))


def sig6(x: np.ndarray) -> np.ndarray:
    """Round to 6 significant digits (awk's default OFMT ``%.6g``, NTCIREVAL's text files)."""
    x = np.asarray(x, dtype=float)
    out = x.copy()
    nz = x != 0
    e = np.floor(np.log10(np.abs(x[nz])))
    f = 10.0 ** (5 - e)
    out[nz] = np.round(x[nz] * f) / f
    return out


@dataclass
class DiversityData:
    """The arrays every diversity measure is computed from (``T`` topics, ``M`` intent slots)."""

    topics: np.ndarray        # (T,) query ids
    runs: np.ndarray          # (R,) run ids
    prob: np.ndarray          # (T, M)
    nav: np.ndarray           # (T, M) bool
    hasrel: np.ndarray        # (T, M) bool: intent has a relevant document
    judged_gain: np.ndarray   # (J, M) gains of judged documents
    judged_topic: np.ndarray  # (J,) topic index
    judged_key: np.ndarray    # (J,) rank of doc_id within its topic (for ndeval tie breaking)
    run_gain: np.ndarray      # (R*T, D, M) gains of retrieved documents (0 = unjudged/non-relevant)
    run_len: np.ndarray       # (R*T,) number of retrieved documents (capped at D)
    gmax_mapping: float


def check_columns(dqrels, intents, run) -> None:
    """The columns every input needs, refused with the missing ones named; a run frame passes
    the checks of the adhoc ``evaluate`` (:func:`helpers.io.coerce.as_run`: rows, each column once)."""
    if isinstance(run, pd.DataFrame):
        as_run(run)
    need_columns(intents, ["query_id", "intent_id", "prob"], "intents")
    need_columns(dqrels, ["query_id", "intent_id", "doc_id"], "dqrels")
    need_columns(run, ["query_id", "doc_id"], "run")
    if "relevance" not in dqrels.columns and "gain" not in dqrels.columns:
        raise ValueError(f"dqrels needs a 'relevance' (integer levels) or a 'gain' column; has {list(dqrels.columns)}")
    if "rank" not in run.columns and "score" not in run.columns:
        raise ValueError(f"run needs a 'rank' or a 'score' column to order documents; has {list(run.columns)}")


def _checked_intents(intents: pd.DataFrame) -> pd.DataFrame:
    """Intents with string ids, kinds ``inf``/``nav`` (default inf) and probabilities in [0, 1]."""
    intents = intents.copy()
    for c in ("query_id", "intent_id"):
        intents[c] = intents[c].astype(str)
    if "kind" not in intents.columns:
        intents["kind"] = "inf"
    kinds = intents["kind"].astype(str).str.lower()
    bad = ~kinds.isin(["inf", "nav"])
    if bad.any():
        raise ValueError(f"intents 'kind' must be 'inf' or 'nav'; first bad row: {_first(intents, bad, ['query_id', 'intent_id', 'kind'])}")
    intents["kind"] = kinds
    refuse_booleans(intents["prob"].to_numpy(), "intents 'prob'")
    prob = pd.to_numeric(intents["prob"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(prob) | (prob < 0) | (prob > 1)
    if bad.any():
        raise ValueError(f"intent probabilities must be finite numbers in [0, 1]; first bad row: {_first(intents, bad, ['query_id', 'intent_id', 'prob'])}")
    intents["prob"] = prob
    dup = intents.duplicated(["query_id", "intent_id"])
    if dup.any():
        raise ValueError(f"intents lists an intent twice: {_first(intents, dup, ['query_id', 'intent_id'])}")
    return intents


def _dqrels_gains(dqrels: pd.DataFrame, gains, whole: bool = True) -> tuple[pd.DataFrame, float]:
    """Diversity qrels with string ids and a ``gain`` column, and the gmax of the gain mapping;
    ``whole`` (all of the user's dqrels, not a block of topics): refused without a relevant document."""
    dq = dqrels.copy()
    for c in ("query_id", "intent_id", "doc_id"):
        dq[c] = dq[c].astype(str)
    dup = dq.duplicated(["query_id", "intent_id", "doc_id"])
    if dup.any():
        raise ValueError(f"dqrels judges a (query_id, intent_id, doc_id) triple twice: {_first(dq, dup, ['query_id', 'intent_id', 'doc_id'])}")
    if "gain" in dq.columns:
        refuse_booleans(dq["gain"].to_numpy(), "dqrels 'gain'")
        g = pd.to_numeric(dq["gain"], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(g) | (g < 0)
        if bad.any():
            raise ValueError(f"dqrels 'gain' must be finite and >= 0; first bad row: {_first(dq, bad, ['query_id', 'intent_id', 'doc_id', 'gain'])}")
        if gains is not None:
            raise ValueError("pass either a 'gain' column in dqrels or a gains mapping, not both")
        gmax_mapping = float(g.max()) if len(g) and g.max() > 0 else 1.0
    else:
        refuse_booleans(dq["relevance"].to_numpy(), "dqrels 'relevance'")
        lv = pd.to_numeric(dq["relevance"], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(lv) | (lv != np.round(lv))
        if bad.any():
            raise ValueError(f"dqrels 'relevance' must hold integer levels; first bad row: {_first(dq, bad, ['query_id', 'intent_id', 'doc_id', 'relevance'])}")
        if len(lv) and np.abs(lv).max() >= 2.0 ** 53:   # as the adhoc qrels: a float level would merge neighbours
            raise ValueError(f"dqrels relevance level beyond the integers a float gain represents exactly (2**53); "
                             f"first row: {_first(dq, np.abs(lv) >= 2.0 ** 53, ['query_id', 'intent_id', 'doc_id', 'relevance'])}")
        g, gmax_mapping = _gain_table(gains, lv)
        if gains is None and len(g) and float(np.max(g)) * len(g) > GAIN_TOTAL_LIMIT:
            top = int(lv.max())
            raise ValueError(f"dqrels relevance level {top} makes the default gain 2^{top} - 1 "
                             f"({float(np.max(g)):g}), and the sums of gains of {len(g):,} judged rows would pass "
                             f"{GAIN_TOTAL_LIMIT:g} (the limit of every measure's gains): give gains= (e.g. the levels "
                             f"themselves) or lower levels; row: {_first(dq, lv == top, ['query_id', 'intent_id', 'doc_id'])}")
    if len(g) and float(np.max(g)) * len(g) > GAIN_TOTAL_LIMIT:
        raise ValueError(f"dqrels gain {float(np.max(g)):g} with {len(g):,} judged rows: the sums of gains would pass "
                         f"{GAIN_TOTAL_LIMIT:g} and overflow (the limit of every measure's gains); normalised measures "
                         "do not depend on the gains' scale, so divide every gain by the same factor; row: "
                         f"{_first(dq, g == np.max(g), ['query_id', 'intent_id', 'doc_id'])}")
    if whole and not (g > 0).any():
        raise no_relevant_document("dqrels", "every gain is 0" if "gain" in dq.columns else
                                   "every level's gain is 0", "every measure of every topic would be NaN "
                                   "(no ideal list to normalise by); judge at least one document relevant")
    dq["gain"] = g
    return dq, gmax_mapping


def _intent_table(dq: pd.DataFrame, intents: pd.DataFrame, topics: np.ndarray, prob_sum: str) -> pd.DataFrame:
    """The intents of the dqrels topics, sorted, probabilities renormalised (or refused) per
    ``prob_sum``, with topic index ``t`` and intent slot ``m``."""
    known = intents.set_index(["query_id", "intent_id"]).index
    pairs = pd.MultiIndex.from_frame(dq[["query_id", "intent_id"]].drop_duplicates())
    unknown = ~pairs.isin(known)
    if unknown.any():
        q, i = pairs[unknown][0]
        raise ValueError(f"dqrels intent {i!r} of query {q!r} is not listed in intents (query_id, intent_id, prob, kind)")
    it = intents[intents["query_id"].isin(set(topics))].copy()
    it = it.sort_values(["query_id", "intent_id"], kind="stable")
    sums = it.groupby("query_id")["prob"].sum()
    off = sums[(sums - 1.0).abs() > 1e-3]
    if len(off):
        msg = (f"intent probabilities of {len(off)} topic(s) do not sum to 1 (e.g. {off.index[0]!r}: "
               f"{off.iloc[0]:.4f})")
        if prob_sum == "error":
            raise ValueError(msg)
        if prob_sum == "renormalise":
            zero = off.index[off == 0]
            if len(zero):
                raise ValueError(f"intent probabilities of query {zero[0]!r} are all 0: cannot renormalise")
            warn_caller(msg + "; renormalised (prob_sum='keep' uses them as given, like NTCIREVAL)")
            it["prob"] = it["prob"] / it["query_id"].map(sums)
        elif prob_sum != "keep":
            raise ValueError(f"prob_sum must be 'renormalise', 'error' or 'keep', got {prob_sum!r}")
    t_of = {q: k for k, q in enumerate(topics)}
    it["t"] = it["query_id"].map(t_of).to_numpy()
    it["m"] = it.groupby("query_id").cumcount().to_numpy()
    return it


def _judged_documents(dq: pd.DataFrame, it: pd.DataFrame, topics: np.ndarray, M: int):
    """Judged documents x intent slots: their gains ``(J, M)``, topics, per-topic doc keys, and
    which intents have a relevant document."""
    T = len(topics)
    t_of = {q: k for k, q in enumerate(topics)}
    m_of = pd.Series(it["m"].to_numpy(), index=pd.MultiIndex.from_frame(it[["query_id", "intent_id"]]))
    docs = dq[["query_id", "doc_id"]].drop_duplicates().sort_values(["query_id", "doc_id"], kind="stable")
    docs = docs.reset_index(drop=True)
    docs["j"] = np.arange(len(docs))
    docs["key"] = docs.groupby("query_id").cumcount().to_numpy()
    dq = dq.merge(docs, on=["query_id", "doc_id"], how="left")
    mm = m_of.reindex(pd.MultiIndex.from_frame(dq[["query_id", "intent_id"]])).to_numpy()
    JG = np.zeros((len(docs), M))
    JG[dq["j"].to_numpy(), mm.astype(np.int64)] = dq["gain"].to_numpy()
    jt = docs["query_id"].map(t_of).to_numpy().astype(np.int64)
    hasrel = np.zeros((T, M), dtype=bool)
    np.logical_or.at(hasrel, jt, JG > 0)
    return docs, JG, jt, hasrel


def _ranked_rows(run: pd.DataFrame, topics: np.ndarray):
    """Integer codes of the run's rows and their order: by (run, topic) then rank, or by
    decreasing score then decreasing doc id; duplicate documents and ranks refused."""
    T = len(topics)
    n = len(run)
    run_ids = run["run_id"].astype(str).to_numpy() if "run_id" in run.columns else np.full(n, "run", dtype=object)
    rcode, runs = pd.factorize(run_ids, sort=True)
    runs = np.asarray(runs, dtype=object)
    qcode = pd.Index(topics).get_indexer(run["query_id"].astype(str)).astype(np.int64)
    dcode, dnames = pd.factorize(run["doc_id"].astype(str), sort=True)
    # the run's own topic ids: two topics missing from dqrels must not look like one
    rq_all, rq_names = pd.factorize(run["query_id"].astype(str))
    key = (rcode.astype(np.int64) * max(len(rq_names), 1) + rq_all) * max(len(dnames), 1) + dcode
    dup = pd.Series(key).duplicated().to_numpy()
    if dup.any():
        k = int(np.argmax(dup))
        raise ValueError(f"run retrieves a document twice for one topic: run_id={runs[rcode[k]]!r}, "
                         f"query_id={str(run['query_id'].iloc[k])!r}, doc_id={dnames[dcode[k]]!r}")
    inq = qcode >= 0
    lst_all = rcode.astype(np.int64) * T + np.maximum(qcode, 0)
    if "rank" in run.columns:
        refuse_booleans(run["rank"].to_numpy(), "run 'rank'")
        rk = order_values(run["rank"], "run 'rank'")
        bad = np.isnan(rk)
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"run 'rank' must be numeric; first bad row: query_id={str(run['query_id'].iloc[k])!r}, "
                             f"doc_id={str(run['doc_id'].iloc[k])!r}, rank={plain(run['rank'].iloc[k])!r}")
        idx = np.nonzero(inq)[0]
        order = idx[np.lexsort((rk[idx], lst_all[idx]))]
        same = (lst_all[order][1:] == lst_all[order][:-1]) & (rk[order][1:] == rk[order][:-1])
        if same.any():
            k = order[int(np.argmax(same)) + 1]
            raise ValueError(f"run gives two documents the same rank: run_id={runs[rcode[k]]!r}, "
                             f"query_id={str(run['query_id'].iloc[k])!r}, rank={plain(run['rank'].iloc[k])!r}")
    else:
        refuse_booleans(run["score"].to_numpy(), "run 'score'")
        sc = order_values(run["score"], "run 'score'")
        if not np.isfinite(sc).all():
            raise ValueError("run 'score' must be finite numbers")
        idx = np.nonzero(inq)[0]
        order = idx[np.lexsort((-dcode[idx], -sc[idx], lst_all[idx]))]
    return runs, qcode, dcode, dnames, order, lst_all[order]


def _run_gains(run: pd.DataFrame, topics: np.ndarray, docs: pd.DataFrame, JG: np.ndarray, depth):
    """Intentwise gains of every retrieved document, ``(runs x topics, depth, M)``, and list lengths."""
    T, M = len(topics), JG.shape[1]
    t_of = {q: k for k, q in enumerate(topics)}
    runs, qcode, dcode, dnames, order, lst = _ranked_rows(run, topics)
    first = np.ones(len(lst), dtype=bool)
    first[1:] = lst[1:] != lst[:-1]
    starts = np.maximum.accumulate(np.where(first, np.arange(len(lst)), 0))
    pos = np.arange(len(lst)) - starts
    longest = int(pos.max()) + 1 if len(pos) else 1
    depth = longest if depth is None else min(depth, longest)  # a cutoff beyond every list costs nothing
    keep = pos < depth
    L = len(runs) * T
    run_len = np.zeros(L, dtype=np.int64)
    np.maximum.at(run_len, lst[keep], pos[keep] + 1)
    RG = np.zeros((L, depth, M))
    # judged (topic, doc) -> row of JG, looked up through sorted integer keys
    jd = pd.Index(dnames).get_indexer(docs["doc_id"]).astype(np.int64)
    jkey = docs["query_id"].map(t_of).to_numpy().astype(np.int64) * (len(dnames) + 1) + jd
    ok = jd >= 0
    jkey, jrow = jkey[ok], docs["j"].to_numpy()[ok]
    srt = np.argsort(jkey)
    jkey, jrow = jkey[srt], jrow[srt]
    o = order[keep]
    rkey = qcode[o] * (len(dnames) + 1) + dcode[o]
    at = np.searchsorted(jkey, rkey)
    at = np.minimum(at, max(len(jkey) - 1, 0))
    hit = (len(jkey) > 0) & (jkey[at] == rkey) if len(jkey) else np.zeros(len(rkey), dtype=bool)
    RG[lst[keep][hit], pos[keep][hit]] = JG[jrow[at[hit]]]
    return runs, RG, run_len


def gain_scale(dqrels: pd.DataFrame, gains) -> float:
    """``gv_max``: the highest gain of the gain mapping (or of a ``gain`` column) over all of
    ``dqrels``, the default ``gmax`` of :func:`helpers.measures.diversity.evaluate`."""
    return _dqrels_gains(dqrels, gains)[1]


def prepare(dqrels, intents, run, depth, gains, prob_sum, whole: bool = True) -> DiversityData:
    """Check the inputs and build the arrays of :class:`DiversityData` (lists cut at ``depth``;
    ``whole``: ``dqrels`` is all of the user's, not a block of topics)."""
    check_columns(dqrels, intents, run)
    intents = _checked_intents(intents)
    dq, gmax_mapping = _dqrels_gains(dqrels, gains, whole)
    topics = np.array(sorted(dq["query_id"].unique()), dtype=object)
    it = _intent_table(dq, intents, topics, prob_sum)
    T = len(topics)
    M = int(it["m"].max()) + 1 if len(it) else 1
    P = np.zeros((T, M))
    NAV = np.zeros((T, M), dtype=bool)
    P[it["t"], it["m"]] = it["prob"].to_numpy()
    NAV[it["t"], it["m"]] = (it["kind"] == "nav").to_numpy()
    docs, JG, jt, hasrel = _judged_documents(dq, it, topics, M)
    runs, RG, run_len = _run_gains(run, topics, docs, JG, depth)
    return DiversityData(topics=topics, runs=runs, prob=P, nav=NAV, hasrel=hasrel, judged_gain=JG,
                         judged_topic=jt, judged_key=docs["key"].to_numpy(), run_gain=RG, run_len=run_len,
                         gmax_mapping=gmax_mapping)
