"""Scoring prepared diversity data: :func:`evaluate` and the :class:`Evaluation` it runs.

:class:`Evaluation` holds the arrays of one evaluation (:class:`~.prepare.DiversityData` spread
over the runs x topics lists) and the quantities several measures share -- global gains, the
first hits of navigational intents, the intentwise ideal lists, the greedy or exact ideal lists
of ndeval -- each computed once, on first use.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .names import STOP_BASES, DiversityMeasure, parse_measure
from .ndeval import exact_ideal_alpha, greedy_ideal_alpha, ndeval_measure
from .. import ragged
from .prepare import DiversityData, check_columns, gain_scale, prepare, sig6
from ..kernels import evaluate_arrays, geometric_sum, row_sums
from ..notices import plain

__all__ = ["evaluate", "Evaluation", "global_gains"]


def global_gains(intent_gains: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Global gain ``GG = sum_i Pr(i|q) g_i`` (Sakai survey Eq. 7) over the last axis.

    ``intent_gains`` (..., M) and ``prob`` broadcastable to it.
    """
    return row_sums(np.asarray(intent_gains, dtype=float) * np.asarray(prob, dtype=float))


def _sorted_ideal(values: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Per-group positive values sorted descending, zero-padded: (n_groups, K)."""
    pos = values > 0
    v, gidx = values[pos], group[pos]
    if len(v) == 0:
        return np.zeros((n_groups, 1))
    order = np.lexsort((-v, gidx))
    v, gidx = v[order], gidx[order]
    counts = np.bincount(gidx, minlength=n_groups)
    K = int(counts.max())
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    col = np.arange(len(v)) - start[gidx]
    out = np.zeros((n_groups, K))
    out[gidx, col] = v
    return out


def _adhoc(base: str, ranked: np.ndarray, ideal: np.ndarray, cutoff: int, gmax: np.ndarray,
           p: float | None = None) -> np.ndarray:
    """NTCIREVAL ``gcompute`` measures on arrays of gains: rows are ranked lists.

    ``ranked`` (n, D) gains of the run (already truncated at the cutoff), ``ideal`` (n, K) ideal
    gains sorted descending, ``gmax`` (n,) the highest ideal gain (``hgain`` of ``gcompute``).
    """
    name = {"nDCG": f"MSnDCG@{cutoff}", "Q": f"Q@{cutoff}", "nERR": f"nERR@{cutoff}", "ERR": f"ERR@{cutoff}",
            "EBR": f"EBR@{cutoff}", "RBP": f"RBP(p={p!r})@{cutoff}", "P+": f"P+@{cutoff}",
            "iRBU": f"iRBU(p={p!r})@{cutoff}"}[base]
    out = evaluate_arrays(ranked, ideal, [name], gmax=gmax)
    (values,) = out.values()
    return np.asarray(values, dtype=float)


class Evaluation:
    """One evaluation: the prepared arrays over lists (runs x topics) and the shared quantities."""

    def __init__(self, data: DiversityData, *, ntcireval_rounding: bool, gv_max: float,
                 normaliser: str | None, exact: bool):
        self.data, self.rounding, self.gv_max = data, ntcireval_rounding, gv_max
        self.normaliser, self.exact = normaliser, exact
        self.T, self.R = len(data.topics), len(data.runs)
        self.L = self.R * self.T
        self.RG = data.run_gain
        self.M = self.RG.shape[2]
        self.tl = np.tile(np.arange(self.T), self.R)   # topic of each list
        self.P = data.prob[self.tl]                     # (L, M)
        self.HR = data.hasrel[self.tl]                  # (L, M)
        self.NAV = data.nav[self.tl]
        self.N = self.HR.sum(1)                         # intents with a relevant document
        self.empty_topic = self.N == 0
        self.rel = (self.RG > 0) & self.HR[:, None, :]
        # global gains of the ideal list (D-, DIN-measures)
        jgg_parts = data.judged_gain * data.prob[data.judged_topic]
        jgg = sig6(row_sums(sig6(jgg_parts))) if ntcireval_rounding else row_sums(jgg_parts)
        self.ideal_g = _sorted_ideal(jgg, data.judged_topic, self.T)   # (T, K)
        self.hgain = self.ideal_g[:, 0]
        self.cache: dict = {}

    # -- shared quantities, each computed once ------------------------------------------------
    def first_hit(self) -> np.ndarray:
        """(L, D, M) the first document of each list relevant to each intent."""
        if "first" not in self.cache:
            self.cache["first"] = self.rel & (np.cumsum(self.rel, axis=1, dtype=np.int32) == 1)
        return self.cache["first"]

    def run_gg(self, din: bool) -> np.ndarray:
        """(L, D) global gains of the runs (DIN: navigational intents count at their first hit)."""
        k = ("gg", din)
        if k not in self.cache:
            RG, P, NAV = self.RG, self.P, self.NAV
            if self.rounding:
                parts = sig6((RG * P[:, None, :]).reshape(-1)).reshape(RG.shape)
                if din:
                    parts = np.where(NAV[:, None, :] & ~self.first_hit(), 0.0, parts)
                gg = row_sums(parts)
                # glabel prints the Grelv value (%.6g of the summed %.6g parts) with %.4f;
                # dinlabel sums the din file's %.6g parts and prints %.4f
                gg = np.round(gg if din else sig6(gg), 4)
            elif din:
                w = np.where(NAV[:, None, :], self.first_hit(), True)
                gg = row_sums(RG * w * P[:, None, :])
            else:
                gg = row_sums(RG * P[:, None, :])
            self.cache[k] = gg
        return self.cache[k]

    def intent_ideal(self) -> np.ndarray:
        """(T*M, K) each intent's own ideal list."""
        if "ii" not in self.cache:
            data, M = self.data, self.M
            Jm = data.judged_gain.shape[0]
            grp = (np.repeat(data.judged_topic, M) * M + np.tile(np.arange(M), Jm))
            self.cache["ii"] = _sorted_ideal(data.judged_gain.reshape(-1), grp, self.T * M)
        return self.cache["ii"]

    def topic_rel(self) -> tuple[np.ndarray, np.ndarray]:
        """(T, J, M) relevance of each topic's judged documents relevant to some intent, and keys."""
        if "topic_rel" not in self.cache:
            data, T, M = self.data, self.T, self.M
            jrel = (data.judged_gain > 0) & data.hasrel[data.judged_topic]
            anyrel = jrel.any(1)
            jt = data.judged_topic[anyrel]
            counts = np.bincount(jt, minlength=T)
            J = max(int(counts.max()) if len(counts) else 0, 1)
            start = np.concatenate([[0], np.cumsum(counts)[:-1]])
            col = np.arange(len(jt)) - start[jt]
            relq = np.zeros((T, J, M), dtype=bool)
            keyq = np.full((T, J), -1, dtype=np.int64)
            relq[jt, col] = jrel[anyrel]
            keyq[jt, col] = data.judged_key[anyrel]
            self.cache["topic_rel"] = (relq, keyq)
        return self.cache["topic_rel"]

    def ideal_pack(self, key) -> np.ndarray:
        """ndeval's ideal lists per list: ``("greedy", alpha, l)`` gives the greedy novelty gains,
        ``("exact", alpha, l, kind)`` the exact optimum's discounted sum (:func:`exact_ideal_alpha`)."""
        if key not in self.cache:
            relq, keyq = self.topic_rel()   # judged docs relevant to at least one intent, padded per topic
            if key[0] == "exact":
                _, alpha, l, kind = key
                depth_e = relq.shape[1] if l is None else l
                r = np.arange(1, depth_e + 1, dtype=float)
                if isinstance(kind, tuple):
                    disc = kind[1] ** (r - 1)
                else:
                    disc = 1.0 / np.log2(r + 1.0) if kind else 1.0 / r
                per_topic = np.array([exact_ideal_alpha(relq[t][relq[t].any(1)], alpha, disc)
                                      for t in range(self.T)])
                self.cache[key] = per_topic[self.tl]
            else:
                _, alpha, l = key  # past a topic's relevant documents the greedy list's gains are 0
                depth_i = relq.shape[1] if l is None else min(l, relq.shape[1])
                self.cache[key] = greedy_ideal_alpha(relq, keyq, alpha, depth_i)[self.tl]
        return self.cache[key]

    # -- measure families ---------------------------------------------------------------------
    def irec(self, l: int) -> np.ndarray:
        covered = self.rel[:, :l].any(1).sum(1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return covered / self.N

    def d_measure(self, base: str, l: int, p, din: bool = False) -> np.ndarray:
        gg = self.run_gg(din)[:, :l]
        gm = self.hgain[self.tl]
        if self.normaliser == "fixed" and base in STOP_BASES:
            gm = np.where(gm > 0, self.gv_max, gm)
        return _adhoc(base, gg, self.ideal_g[self.tl], l, gm, p)

    def intentwise(self, base: str, l: int, p, gmax_value=None) -> np.ndarray:
        """(L, M) intentwise measure values (NaN-free: 0 where the intent has no relevant doc)."""
        L, M = self.L, self.M
        ranked = np.moveaxis(self.RG[:, :l, :], 2, 1).reshape(L * M, -1)
        ii = self.intent_ideal()
        idx = (self.tl[:, None] * M + np.arange(M)[None, :]).reshape(-1)
        ideal = ii[idx]
        gm = ideal[:, 0] if gmax_value is None else np.full(len(ideal), gmax_value)
        ok = ideal[:, 0] > 0
        out = np.zeros(L * M)
        if ok.any():
            out[ok] = _adhoc(base, ranked[ok], ideal[ok], l, gm[ok], p)
        return out.reshape(L, M)

    def _with_irec(self, s: DiversityMeasure, v: np.ndarray) -> np.ndarray:
        """The ``#`` variant: ``gamma I-rec + (1 - gamma) v`` (Sakai survey Eq. 6)."""
        g = s.param("gamma")
        return g * self.irec(s.cutoff) + (1 - g) * v

    def score(self, s: DiversityMeasure) -> np.ndarray:
        """Values of one measure for every list (NaN for topics without a relevant document)."""
        l, fam = s.cutoff, s.family
        P, HR = self.P, self.HR
        if fam == "irec":
            v = self.irec(l)
        elif fam in ("D", "D#"):
            v = self.d_measure(s.base, l, s.param("p") if s.base == "RBP" else None)
            if fam == "D#":
                v = self._with_irec(s, v)
        elif fam in ("DIN", "DIN#"):
            v = self.d_measure(s.base, l, None, din=True)
            if fam == "DIN#":
                v = self._with_irec(s, v)
        elif fam in ("PQ", "PQ#"):
            q = self.intentwise("Q", l, None)
            pp = self.intentwise("P+", l, None)
            v = row_sums(P * HR * np.where(self.NAV, pp, q))
            if fam == "PQ#":
                v = self._with_irec(s, v)
        elif fam == "IA":
            fixed = self.normaliser == "fixed" and s.base in STOP_BASES
            v = row_sums(P * HR * self.intentwise(s.base, l, s.param("p") if s.base == "RBP" else None,
                                                  gmax_value=self.gv_max if fixed else None))
        elif fam == "ndeval":
            v = ndeval_measure(s, self.rel, self.N, self.cache, self.ideal_pack, exact=self.exact)
        elif fam == "RBU":
            p = s.param("p")
            gm = None if self.normaliser == "ideal" else self.gv_max
            v = row_sums(P * HR * self.intentwise("iRBU", l, p, gmax_value=gm))
            if s.name == "RBU":
                v = v - s.param("e") * geometric_sum(p, l)
        else:  # pragma: no cover - parse_measure guards the families
            raise AssertionError(fam)
        v = np.asarray(v, dtype=float).copy()
        v[self.empty_topic] = np.nan
        return v


def _parsed(measures, gmax, ideal, normaliser) -> list[DiversityMeasure]:
    """The measures parsed and the options checked."""
    if isinstance(measures, str):
        measures = [measures]
    specs = [parse_measure(m) for m in measures]
    if not specs:
        raise ValueError("measures is empty; give at least one measure name")
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"measure names repeated: {sorted({x for x in labels if labels.count(x) > 1})}")
    if gmax is not None and (not isinstance(gmax, (int, float)) or isinstance(gmax, bool) or not gmax > 0):
        raise ValueError(f"gmax must be a positive number, got {plain(gmax)!r}")
    if ideal not in ("greedy", "exact"):
        raise ValueError(f"ideal must be 'greedy' (ndeval) or 'exact', got {ideal!r}")
    if normaliser not in (None, "fixed", "ideal"):
        raise ValueError(f"normaliser must be None (NTCIREVAL's per-program choice), 'fixed' (gv_max of the gain "
                         f"mapping, Zeng & Sakai Table 1) or 'ideal' (the ideal list's top gain), got {normaliser!r}")
    return specs


def evaluate(dqrels: pd.DataFrame, intents: pd.DataFrame, run: pd.DataFrame, measures,
             *, gains=None, prob_sum: str = "renormalise", ntcireval_rounding: bool = False,
             gmax: float | None = None, normaliser: str | None = None, ideal: str = "greedy") -> pd.DataFrame:
    """Evaluate diversified runs with NTCIR, TREC ndeval and RBU measures.

    Parameters
    ----------
    dqrels : DataFrame
        Intentwise judgments ``query_id, intent_id, doc_id`` and either ``relevance`` (integer
        levels, mapped through ``gains``) or ``gain`` (float >= 0, used as is).
    intents : DataFrame
        ``query_id, intent_id, prob`` and optionally ``kind`` (``"inf"``/``"nav"``; default inf).
    run : DataFrame
        ``query_id, doc_id`` with ``rank`` or ``score``; ``run_id`` (optional; one run ``"run"``
        when absent).
    measures : str or list of str
        Names such as ``"D#-nDCG@10"``, ``"alpha-nDCG(alpha=0.3)@20"``, ``"RBU(p=0.85)@10"``;
        see :data:`SUPPORTED_MEASURES` and the module docstring.
    gains : None, str or dict
        Level-to-gain mapping: None = ``2^x - 1`` (Zeng & Sakai); ``"1:2:3"`` (NTCIREVAL ``-g``
        spec, least relevant first; ``"1:2:3:4"`` is NTCIREVAL's DIN-splitqrels default); or
        ``{level: gain}``.
    prob_sum : {"renormalise", "error", "keep"}
        What to do when a topic's intent probabilities do not sum to 1 (tolerance 1e-3).
    ntcireval_rounding : bool
        Round global gains like NTCIREVAL's text files (``%.6g`` ideal, ``%.4f`` run).
    gmax : float, optional
        Highest gain of the mapping ``gv_max`` (the "fixed" normaliser below); default: the
        gain of the highest level of ``gains`` present (or the largest ``gain`` in ``dqrels``).
    normaliser : {None, "fixed", "ideal"}
        The ``gmax`` of every ERR/EBR/RBP/RBU-type measure (D-, D#-, IA-nERR, -EBR, -RBP, iRBU,
        RBU): the stop probability ``g/(gmax + 1)`` and RBP's ``g/gmax``.
        ``"fixed"``: ``gmax = gv_max`` of the gain mapping (``gmax`` above), Zeng & Sakai's
        Table 1 (``P_rel(r) = g(r)/(gv_max + 1)``, RBP's ``g(r)/gv_max``), for every measure.
        ``"ideal"``: the top gain of the ideal list the measure is normalised by (the topic's
        global ideal list for D-measures, the intent's own list for IA-measures and iRBU/RBU),
        NTCIREVAL ``gcompute``'s ``hgain``, for every measure.
        ``None`` (default): each NTCIREVAL program's own choice, which mixes the two:
        ``gcompute``'s ideal top gain for the D-/IA- ERR, EBR and RBP, ``compute -rbup``'s
        ``gv[maxrl]`` (fixed) for iRBU/RBU; this is what ``tests/test_diversity_crosscheck.py``
        compares with NTCIREVAL. Analyses should choose ``"fixed"`` or ``"ideal"`` explicitly.
    ideal : {"greedy", "exact"}
        Ideal list of alpha-nDCG, nERR-IA and nNRBP: ndeval's greedy list (default; not always
        optimal, so values can exceed 1) or the exact optimum by dynamic programming over subsets
        of each topic's relevant documents (:func:`exact_ideal_alpha`; for small cases: a topic
        with more than 14 relevant documents raises ValueError).

    Returns
    -------
    DataFrame ``run_id, query_id, measure, value``: one row per run x dqrels topic x measure,
    in the order runs (sorted) x topics (sorted) x measures (as given).
    """
    specs = _parsed(measures, gmax, ideal, normaliser)
    full = any(s.cutoff is None for s in specs)
    depth = None if full else max(s.cutoff for s in specs)
    options = dict(gains=gains, prob_sum=prob_sum, ntcireval_rounding=ntcireval_rounding, normaliser=normaliser,
                   exact=ideal == "exact")
    groups = _topic_groups(dqrels, run, depth)
    if groups is None:
        return _evaluate_topics(dqrels, intents, run, specs, depth, gv_max=gmax, **options)
    # one block of topics at a time (see _topic_groups), with the gain scale of all the qrels
    check_columns(dqrels, intents, run)
    scale = gain_scale(dqrels, gains)   # also refuses dqrels without a relevant document
    gv_max = gmax if gmax is not None else scale
    dq_topic, in_topic = dqrels["query_id"].astype(str), intents["query_id"].astype(str)
    parts = [_evaluate_topics(dqrels[dq_topic.isin(g).to_numpy()], intents[in_topic.isin(g).to_numpy()], run,
                              specs, depth, gv_max=gv_max, whole=False, **options) for g in groups]
    out = pd.concat(parts, ignore_index=True)
    topic_order = {t: k for k, t in enumerate(np.sort(np.concatenate(groups)))}
    key = (out["run_id"].map({r: k for k, r in enumerate(sorted(set(out["run_id"])))}).to_numpy() * len(topic_order)
           + out["query_id"].map(topic_order).to_numpy()) * len(specs) + np.tile(np.arange(len(specs)),
                                                                                  len(out) // len(specs))
    return out.iloc[np.argsort(key, kind="stable")].reset_index(drop=True)


def _evaluate_topics(dqrels, intents, run, specs, depth, *, gains, prob_sum, ntcireval_rounding, gv_max,
                     normaliser, exact, whole=True) -> pd.DataFrame:
    """:func:`evaluate` on the topics of ``dqrels`` (the whole ``run`` is read: every run is listed)."""
    data = prepare(dqrels, intents, run, depth, gains, prob_sum, whole)
    ev = Evaluation(data, ntcireval_rounding=ntcireval_rounding,
                    gv_max=float(gv_max) if gv_max is not None else data.gmax_mapping,
                    normaliser=normaliser, exact=exact)
    labels = [s.label for s in specs]
    results = {s.label: ev.score(s) for s in specs}
    run_col = np.repeat(data.runs, ev.T)
    q_col = np.tile(data.topics, ev.R)
    return pd.DataFrame({
        "run_id": np.repeat(run_col, len(specs)),
        "query_id": np.repeat(q_col, len(specs)),
        "measure": np.tile(np.array(labels, dtype=object), ev.L),
        "value": np.stack([results[lab] for lab in labels], axis=1).reshape(-1),
    })


def _topic_groups(dqrels: pd.DataFrame, run: pd.DataFrame, depth: int | None) -> list[np.ndarray] | None:
    """Topics grouped so that the dense arrays of each group stay proportional to its rows, or
    None when one evaluation of all topics is cheap enough (the usual case).

    The arrays of an evaluation are padded to the longest ranked list (runs x topics x depth x
    intents) and to the topic with the most judged documents (topics x judged x intents): 20,000
    one-document topics beside one 50,000-document topic would need 15 GB. Topics are grouped by
    the length of their longest list and their number of judged documents (powers of two,
    :func:`helpers.measures.ragged.size_level`); every measure of a (run, topic) depends on that
    topic's data only, so the values are those of one evaluation.
    """
    if not (isinstance(dqrels, pd.DataFrame) and isinstance(run, pd.DataFrame)
            and {"query_id", "doc_id"} <= set(dqrels.columns) and {"query_id", "doc_id"} <= set(run.columns)):
        return None  # prepare() names what is wrong
    topics, tcode = np.unique(dqrels["query_id"].astype(str).to_numpy(), return_inverse=True)
    judged = np.bincount(tcode[~pd.DataFrame({"t": tcode, "d": dqrels["doc_id"].astype(str).to_numpy()})
                               .duplicated().to_numpy()], minlength=len(topics))
    rq = pd.Index(topics).get_indexer(run["query_id"].astype(str).to_numpy())
    rid = (pd.factorize(run["run_id"].astype(str))[0] if "run_id" in run.columns else np.zeros(len(run), np.int64))
    n_runs = int(rid.max()) + 1 if len(rid) else 1
    ok = rq >= 0
    lengths = np.bincount(rid[ok] * len(topics) + rq[ok], minlength=n_runs * len(topics)).reshape(n_runs, -1)
    longest = lengths.max(axis=0) if len(topics) else np.zeros(0, np.int64)
    if depth is not None:
        longest = np.minimum(longest, depth)
    filled = int(judged.sum()) + int(ok.sum()) + n_runs * len(topics)
    dense = len(topics) * int(judged.max(initial=1)) + n_runs * len(topics) * int(longest.max(initial=1))
    if dense <= ragged.DENSE_FACTOR * filled + ragged.DENSE_SLACK_CELLS:
        return None
    key = ragged.size_level(longest) * 64 + ragged.size_level(judged)
    return [topics[key == k] for k in np.unique(key)]
