"""Diversified search evaluation: NTCIR D-/D#-/DIN-measures, P+Q, intent-aware measures, TREC
ndeval's alpha-nDCG / ERR-IA / NRBP / P-IA / strec, and RBU / iRBU.

One entry point, :func:`evaluate`, returns a tidy ``run_id, query_id, measure, value`` table.
Everything is vectorised over runs x topics x ranks (x intents); the only Python loops run over
measure groups and, for ndeval's greedy ideal list, over ideal *ranks* (all topics at once).

Definitions and their sources
-----------------------------
Notation: topic ``q`` with intents ``i`` of probability ``Pr(i|q)`` and kind ``inf``/``nav``;
``g_i(d)`` the intentwise gain of document ``d`` (0 when unjudged or judged L0 for ``i``); a
document is *relevant to* ``i`` when ``g_i(d) > 0``. Cutoff ``l``.

NTCIR family (NTCIREVAL, Sakai; survey Sec. 2.2, Eq. 6-9; README.diversity of NTCIREVAL 190111)
    ``I-rec@l``
        Fraction of the topic's intents *that have at least one relevant document* covered by
        the top ``l`` (NTCIREVAL ``irec`` counts one Irelv file per such intent; the probability
        of an intent plays no role, an intent with ``Pr = 0`` still counts).
    ``D-<m>@l``
        Global gain ``GG(d) = sum_i Pr(i|q) g_i(d)`` (Eq. 7). The single ideal list sorts all
        documents with ``GG > 0`` by ``GG`` (descending); ``R`` = its length; ``gmax`` = its
        first gain. The run is truncated at ``l`` and scored with the ad hoc measure ``m`` of
        :mod:`helpers.measures` on ``GG`` values, as NTCIREVAL's ``glabel -truncate l | gcompute``:
        ``D-nDCG`` is NTCIREVAL's ``MSnDCG@l`` (discount ``1/log2(r+1)`` at every rank - the
        D-NTCIR-eval script takes D-nDCG from the MSnDCG line), ``D-Q`` is ``Q@l`` (divide by
        ``min(l, R)``, beta = 1), ``D-nERR`` is ``nERR@l`` with stop probability ``GG/(gmax+1)``,
        ``D-RBP(p)`` is ``(1-p) sum_{r<=l} GG(r) p^(r-1) / gmax`` (p = 0.95, NTCIREVAL's default),
        ``D-EBR`` is ``sum_{r<=l} BR(r) Pstop(r)`` with the ERR stop probabilities.
    ``D#-<m>@l`` = ``gamma * I-rec@l + (1 - gamma) * D-<m>@l`` (Eq. 6, gamma = 0.5).
    ``DIN-nDCG@l``, ``DIN-Q@l`` and ``DIN#-...``
        As D-measures, but the run's global gain counts a navigational intent only at its first
        relevant document in the list (Eq. 8; NTCIREVAL ``dinlabel``); the ideal list is the
        D-measures' one.
    ``P+Q@l`` = ``sum_inf Pr(i|q) Q_i@l + sum_nav Pr(j|q) P+_j`` (Eq. 9), intentwise measures
        over the run truncated at ``l`` (``DIN-NTCIR-PQeval``), ``P+Q#`` = ``gamma I-rec + (1 -
        gamma) P+Q``.
    ``IA-nDCG/IA-Q/IA-nERR/IA-RBP(p)/IA-EBR@l``
        ``sum_i Pr(i|q) m_i@l`` over the intents with at least one relevant document, ``m_i``
        computed on the intent's own gains and ideal list (``gmax`` = the intent's highest gain),
        as ``D-NTCIR-IAeval2``; ``IA-nDCG`` is the MSnDCG flavour, like ``D-nDCG``.
    ``IA-ERR@l``
        Chapelle et al.'s intent-aware ERR (CIKM 2009 Sec. 7; Chapelle, Ji, Liao, Velipasaoglu,
        Lai & Wu, Inf. Retr. 2011): ``sum_i Pr(i|q) ERR_i@l`` with the *graded* stop
        probability ``g_i/(gmax + 1)`` (``(2^x - 1)/2^xmax`` for ``2^x - 1`` gains and the
        ``"fixed"`` normaliser) and no normalisation, next to ndeval's binary, uniform-intent
        ``ERR-IA`` below and NTCIREVAL's normalised ``IA-nERR``.

TREC ndeval family (ndeval.c v4.5, Clarke et al.; binary relevance, uniform intents)
    Relevance is binarised (``g_i(d) > 0``), intents without a relevant document are ignored
    and the ``N`` remaining intents are equally likely; ``Pr(i|q)`` is *not* used, as in ndeval.
    Novelty gain at rank ``r``: ``sum_i rel_i(r) (1 - alpha)^{c_i(r)}`` with ``c_i(r)`` the
    number of documents relevant to ``i`` above ``r``.
    ``alpha-DCG@l``: ndeval's collection-independent normalisation, i.e. alpha-DCG divided by
    the alpha-DCG of a list whose every document is relevant to all ``N`` intents.
    ``alpha-nDCG(alpha)@l``: alpha-DCG over that of ndeval's *greedy* ideal list (the exact
    ideal is NP-hard; at each rank the document with the highest novelty gain is taken, ties to
    the lexicographically *largest* doc id, as ndeval does), 0 when the run's alpha-DCG is 0.
    The greedy list is not always optimal, so a run can beat it: alpha-nDCG, nERR-IA and nNRBP
    can exceed 1 (values up to 1.1 occur on real qrels); this is ndeval's behaviour, kept.
    ``ERR-IA(alpha)@l``: ``sum_r gain(r)/r`` over its value for the all-relevant list (ndeval's
    "ideal ideal" normalisation), ``nERR-IA@l`` over the greedy ideal instead.
    ``NRBP(alpha, beta)``, ``nNRBP``: ``(1-(1-alpha) beta)/N sum_r gain(r) beta^(r-1)`` over the
    whole run (or the top ``l`` when a cutoff is given), normalised by the greedy ideal for nNRBP.
    ``P-IA@l``: ``sum_{r<=l} sum_i rel_i(r) / (l N)``; ``strec@l``: fraction of the ``N``
    intents covered in the top ``l``.
    Deviation: ndeval leaves ``alpha-DCG@1`` and ``ERR-IA@1`` unnormalised (its loop starts at
    rank 2); here they are normalised like every other cutoff.

RBU family (Amigo et al., SIGIR 2018; Zeng & Sakai Eq. 6; NTCIREVAL ``compute -rbup``)
    ``iRBU(p)@l`` = ``sum_i Pr(i|q) sum_{r<=l} p^r Pstop_i(r) prod_{k<r}(1 - Pstop_i(k))`` with
    ``Pstop_i = g_i / (gmax + 1)``, ``gmax`` the highest gain of the *gain mapping* (e.g. 15 for
    L0-L4 and ``2^x - 1``; NTCIREVAL ``compute`` uses ``gv[maxrl]``), over intents with a
    relevant document (the intentwise values come from :mod:`helpers.measures`' ``iRBU``).
    ``RBU(p, e)@l`` = ``iRBU(p)@l - e sum_{r=1}^{l} p^r`` (Eq. 6 as printed: the effort term runs
    to the cutoff even for a shorter list, as ``helpers.measures``' single-intent ``iRBU(e>0)``),
    e = 0.01, p = 0.99.

Normaliser of the ERR/EBR/RBP/RBU-type measures (``normaliser``; tests/test_diversity_normaliser.py)
    Their stop probability ``g/(gmax + 1)`` (and RBP's ``g/gmax``) needs a ``gmax``. Two
    conventions exist and give different numbers: ``"fixed"`` takes ``gv_max``, the highest gain
    of the gain *mapping* (15 for L0-L4 and ``2^x - 1``), for every measure, as Zeng & Sakai's
    Table 1 (``P_rel = g/(gv_max + 1)`` for ERR, EBR and iRBU alike, RBP's ``g/gv_max``);
    ``"ideal"`` takes the top gain of the ideal list the measure is normalised by (the topic's
    global ideal list for D-measures, the intent's own list for IA-measures and iRBU/RBU), as
    NTCIREVAL ``gcompute`` does. The default ``None`` reproduces each NTCIREVAL program: the
    ideal top gain for D-/IA- nERR, EBR and RBP (``gcompute``) but the fixed ``gv_max`` for
    iRBU/RBU (``compute -rbup``) - a mix that analyses should avoid by choosing one.

Conventions (decided here; each has a test)
-------------------------------------------
- Topics: those in ``dqrels``. A topic whose intents have no relevant document at all gets NaN
  for every measure (NTCIREVAL refuses such topics with "no rel doc"; ndeval would print 0).
  A topic whose only relevant documents serve intents of probability 0 has no positive global
  gain: its D-/DIN-measures (and D#, DIN#) are NaN, like NTCIREVAL's "no rel doc" refusal,
  while I-rec and the ndeval measures are defined.
  A run that does not retrieve anything for a topic scores 0 on it (empty ranked list).
  Run topics absent from ``dqrels`` are ignored.
- Intents: every (query, intent) of ``dqrels`` must be listed in ``intents`` (else ValueError).
  Intents without a relevant document are ignored by I-rec, IA, P+Q and ndeval measures, and
  contribute nothing to global gains - exactly as NTCIREVAL, whose maximum attainable value then
  drops below 1. An intent with probability 0 counts for I-rec and ndeval measures, and
  contributes 0 to D-, DIN-, IA-, P+Q and RBU measures.
- Probabilities must be finite and in [0, 1]. If a topic's probabilities do not sum to 1
  (tolerance 1e-3), ``prob_sum="renormalise"`` (default) rescales them and warns,
  ``"error"`` raises ValueError, ``"keep"`` uses them as given (NTCIREVAL's behaviour).
- Relevance: integer levels mapped through ``gains`` (default ``2^x - 1`` as in Zeng & Sakai; a
  NTCIREVAL spec string ``"1:2:3"`` gives the gains of L1, L2, L3 - least relevant first - and
  rejects higher levels; or a ``{level: gain}`` dict). Negative levels (TREC's -2 "spam") and 0
  are judged non-relevant. Alternatively a float ``gain`` column (>= 0) is used as is.
- Unjudged retrieved documents are non-relevant (gain 0) and keep their rank (NTCIREVAL without
  ``-j``; ndeval).
- Ranking: by ``rank`` when the run has that column, otherwise by ``score`` descending with ties
  broken by ``doc_id`` descending (trec_eval). Duplicate documents within a (run, topic), duplicate
  ranks, duplicate dqrels triples and duplicate intents raise ValueError.
- NTCIREVAL writes global gains to text files (``%.6g`` in the Grelv/din files, ``%.4f`` in the
  labelled run); ``ntcireval_rounding=True`` reproduces that rounding of the gains. Off by
  default: the effect is below 2e-4 for probabilities with four decimals.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from helpers.io.ids import str_ids
from helpers.measures.kernels import evaluate_arrays, geometric_sum as _geometric_sum

__all__ = ["evaluate", "parse_measure", "DiversityMeasure", "SUPPORTED_MEASURES", "global_gains",
           "greedy_ideal_alpha", "exact_ideal_alpha"]

# name -> (family, {param: default}, cutoff: "required" | "optional")
_D_BASE = {"nDCG": "nDCG", "Q": "Q", "nERR": "nERR", "RBP": "RBP", "EBR": "EBR"}
SUPPORTED_MEASURES: dict[str, tuple[str, dict[str, float], str]] = {
    "I-rec": ("irec", {}, "required"),
    **{f"D-{b}": ("D", ({"p": 0.95} if b == "RBP" else {}), "required") for b in _D_BASE},
    **{f"D#-{b}": ("D#", ({"p": 0.95, "gamma": 0.5} if b == "RBP" else {"gamma": 0.5}), "required")
       for b in _D_BASE},
    "DIN-nDCG": ("DIN", {}, "required"),
    "DIN-Q": ("DIN", {}, "required"),
    "DIN#-nDCG": ("DIN#", {"gamma": 0.5}, "required"),
    "DIN#-Q": ("DIN#", {"gamma": 0.5}, "required"),
    "P+Q": ("PQ", {}, "required"),
    "P+Q#": ("PQ#", {"gamma": 0.5}, "required"),
    **{f"IA-{b}": ("IA", ({"p": 0.95} if b == "RBP" else {}), "required") for b in _D_BASE},
    "IA-ERR": ("IA", {}, "required"),
    "alpha-DCG": ("ndeval", {"alpha": 0.5}, "required"),
    "alpha-nDCG": ("ndeval", {"alpha": 0.5}, "required"),
    "ERR-IA": ("ndeval", {"alpha": 0.5}, "required"),
    "nERR-IA": ("ndeval", {"alpha": 0.5}, "required"),
    "NRBP": ("ndeval", {"alpha": 0.5, "beta": 0.5}, "optional"),
    "nNRBP": ("ndeval", {"alpha": 0.5, "beta": 0.5}, "optional"),
    "P-IA": ("ndeval", {}, "required"),
    "strec": ("ndeval", {}, "required"),
    "RBU": ("RBU", {"p": 0.99, "e": 0.01}, "required"),
    "iRBU": ("RBU", {"p": 0.99}, "required"),
}

_MEASURE_RE = re.compile(r"^(?P<name>[A-Za-z][A-Za-z#+\-]*?)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[^@]*))?$")


#: Ad hoc measures whose value depends on ``gmax`` (stop probability or RBP's normalisation).
_STOP_BASES = ("nERR", "ERR", "EBR", "RBP")

#: Largest cutoff accepted by :func:`parse_measure` (ndeval's normalisers build arrays of that length).
MAX_CUTOFF = 1_000_000


@dataclass(frozen=True)
class DiversityMeasure:
    """A parsed measure name: ``name(param=value, ...)@cutoff``.

    ``label`` is the string the user gave (stripped); it names the rows of the output.
    """

    label: str
    name: str
    family: str
    params: tuple[tuple[str, float], ...]
    cutoff: int | None

    def param(self, key: str) -> float:
        return dict(self.params)[key]

    @property
    def base(self) -> str:
        """The ad hoc / intentwise measure behind a D-, D#-, DIN-, IA- name (``nDCG``, ``Q``, ...)."""
        return self.name.split("-", 1)[1] if "-" in self.name else self.name


def _supported_list() -> str:
    parts = []
    for name, (_, defaults, cut) in SUPPORTED_MEASURES.items():
        p = f"({', '.join(f'{k}={v:g}' for k, v in defaults.items())})" if defaults else ""
        c = "@l" if cut == "required" else "[@l]"
        parts.append(f"{name}{p}{c}")
    return ", ".join(parts)


def parse_measure(text: str) -> DiversityMeasure:
    """Parse ``"alpha-nDCG(alpha=0.3)@10"``-style names; unknown names raise ValueError.

    Parameters in parentheses override the defaults of :data:`SUPPORTED_MEASURES`; the cutoff
    ``@l`` is a positive integer, required except for ``NRBP``/``nNRBP``.
    """
    if not isinstance(text, str):
        raise ValueError(f"measure names must be strings, got {text!r}")
    label = text.strip()
    m = _MEASURE_RE.match(label)
    if not m or m.group("name") not in SUPPORTED_MEASURES:
        raise ValueError(f"unknown diversity measure {text!r}; supported: {_supported_list()}")
    name = m.group("name")
    family, defaults, cut = SUPPORTED_MEASURES[name]
    params = dict(defaults)
    if m.group("params") is not None:
        for item in m.group("params").split(","):
            if not item.strip():
                continue
            if "=" not in item:
                raise ValueError(f"{label!r}: parameters must be written name=value, got {item.strip()!r}")
            key, val = (s.strip() for s in item.split("=", 1))
            if key not in defaults:
                allowed = ", ".join(defaults) or "none"
                raise ValueError(f"{label!r}: unknown parameter {key!r} for {name} (allowed: {allowed})")
            try:
                params[key] = float(val)
            except ValueError:
                raise ValueError(f"{label!r}: parameter {key} must be a number, got {val!r}") from None
    for key, val in params.items():
        if not math.isfinite(val):
            raise ValueError(f"{label!r}: parameter {key} must be finite, got {val}")
        if key in ("p",) and not 0 < val < 1:
            raise ValueError(f"{label!r}: persistence p must lie in (0, 1), got {val:g}")
        if key in ("alpha", "gamma") and not 0 <= val <= 1:
            raise ValueError(f"{label!r}: {key} must lie in [0, 1], got {val:g}")
        if key == "beta" and not 0 < val <= 1:
            raise ValueError(f"{label!r}: beta must lie in (0, 1], got {val:g}")
        if key == "e" and val < 0:
            raise ValueError(f"{label!r}: effort e must be >= 0, got {val:g}")
    cutoff = m.group("cutoff")
    if cutoff is None:
        if cut == "required":
            raise ValueError(f"{label!r}: {name} needs a cutoff, e.g. {name}@10")
        cut_val = None
    else:
        if not cutoff.isdigit() or int(cutoff) < 1:
            raise ValueError(f"{label!r}: the cutoff must be a positive integer, got {cutoff!r}")
        cut_val = int(cutoff)
        if cut_val > MAX_CUTOFF:
            raise ValueError(f"{label!r}: cutoff {cut_val} is beyond {MAX_CUTOFF:,}; the ideal lists of "
                             "ndeval's measures grow with the cutoff, not with the data")
    return DiversityMeasure(label=label, name=name, family=family,
                            params=tuple(sorted(params.items())), cutoff=cut_val)


# ---------------------------------------------------------------------------------------------
# input preparation
# ---------------------------------------------------------------------------------------------

def _need(df, cols, what):
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
    return ", ".join(f"{c}={row[c]!r}" for c in cols)


def _gain_table(gains, levels: np.ndarray) -> tuple[np.ndarray, float]:
    """Map integer levels to gains; returns (gains per row, gmax of the mapping)."""
    lv = levels.astype(np.int64)
    pos = np.maximum(lv, 0)
    top = int(pos.max()) if len(pos) else 0
    if gains is None:
        out = np.where(lv > 0, 2.0 ** pos - 1.0, 0.0)
        return out, float(2.0 ** max(top, 1) - 1.0)
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
                raise ValueError(f"gains dict keys must be integer levels, got {k!r}")
            table[int(k)] = float(g)
        table.pop(0, None)
    else:
        raise ValueError(f"gains must be None (2^x - 1), a spec string like '1:2:3' or a {{level: gain}} dict, got {gains!r}")
    for k, g in table.items():
        if not math.isfinite(g) or g <= 0:
            raise ValueError(f"gain of level L{k} must be a positive finite number, got {g!r}")
    missing = sorted(set(np.unique(lv[lv > 0]).tolist()) - set(table))
    if missing:
        raise ValueError(f"dqrels has relevance level(s) {missing} that the gains mapping {gains!r} does not cover")
    lut = np.zeros(max(max(table), top) + 1)
    for k, g in table.items():
        lut[k] = g
    return np.where(lv > 0, lut[pos], 0.0), float(max(table.values()))


def _sig6(x: np.ndarray) -> np.ndarray:
    """Round to 6 significant digits (awk's default OFMT ``%.6g``)."""
    x = np.asarray(x, dtype=float)
    out = x.copy()
    nz = x != 0
    e = np.floor(np.log10(np.abs(x[nz])))
    f = 10.0 ** (5 - e)
    out[nz] = np.round(x[nz] * f) / f
    return out


@dataclass
class _Data:
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


def _prepare(dqrels, intents, run, depth, gains, prob_sum) -> _Data:
    _need(intents, ["query_id", "intent_id", "prob"], "intents")
    _need(dqrels, ["query_id", "intent_id", "doc_id"], "dqrels")
    _need(run, ["query_id", "doc_id"], "run")
    if "relevance" not in dqrels.columns and "gain" not in dqrels.columns:
        raise ValueError(f"dqrels needs a 'relevance' (integer levels) or a 'gain' column; has {list(dqrels.columns)}")
    if "rank" not in run.columns and "score" not in run.columns:
        raise ValueError(f"run needs a 'rank' or a 'score' column to order documents; has {list(run.columns)}")

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
    prob = pd.to_numeric(intents["prob"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(prob) | (prob < 0) | (prob > 1)
    if bad.any():
        raise ValueError(f"intent probabilities must be finite numbers in [0, 1]; first bad row: {_first(intents, bad, ['query_id', 'intent_id', 'prob'])}")
    intents["prob"] = prob
    dup = intents.duplicated(["query_id", "intent_id"])
    if dup.any():
        raise ValueError(f"intents lists an intent twice: {_first(intents, dup, ['query_id', 'intent_id'])}")

    dq = dqrels.copy()
    for c in ("query_id", "intent_id", "doc_id"):
        dq[c] = dq[c].astype(str)
    dup = dq.duplicated(["query_id", "intent_id", "doc_id"])
    if dup.any():
        raise ValueError(f"dqrels judges a (query_id, intent_id, doc_id) triple twice: {_first(dq, dup, ['query_id', 'intent_id', 'doc_id'])}")
    if "gain" in dq.columns:
        g = pd.to_numeric(dq["gain"], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(g) | (g < 0)
        if bad.any():
            raise ValueError(f"dqrels 'gain' must be finite and >= 0; first bad row: {_first(dq, bad, ['query_id', 'intent_id', 'doc_id', 'gain'])}")
        if gains is not None:
            raise ValueError("pass either a 'gain' column in dqrels or a gains mapping, not both")
        gmax_mapping = float(g.max()) if len(g) and g.max() > 0 else 1.0
    else:
        lv = pd.to_numeric(dq["relevance"], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(lv) | (lv != np.round(lv))
        if bad.any():
            raise ValueError(f"dqrels 'relevance' must hold integer levels; first bad row: {_first(dq, bad, ['query_id', 'intent_id', 'doc_id', 'relevance'])}")
        g, gmax_mapping = _gain_table(gains, lv)
    dq["gain"] = g

    # topics and intents
    topics = np.array(sorted(dq["query_id"].unique()), dtype=object)
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
            warnings.warn(msg + "; renormalised (prob_sum='keep' uses them as given, like NTCIREVAL)", UserWarning, stacklevel=3)
            it["prob"] = it["prob"] / it["query_id"].map(sums)
        elif prob_sum != "keep":
            raise ValueError(f"prob_sum must be 'renormalise', 'error' or 'keep', got {prob_sum!r}")
    t_of = {q: k for k, q in enumerate(topics)}
    it["t"] = it["query_id"].map(t_of).to_numpy()
    it["m"] = it.groupby("query_id").cumcount().to_numpy()
    T = len(topics)
    M = int(it["m"].max()) + 1 if len(it) else 1
    P = np.zeros((T, M))
    NAV = np.zeros((T, M), dtype=bool)
    P[it["t"], it["m"]] = it["prob"].to_numpy()
    NAV[it["t"], it["m"]] = (it["kind"] == "nav").to_numpy()
    m_of = pd.Series(it["m"].to_numpy(), index=pd.MultiIndex.from_frame(it[["query_id", "intent_id"]]))

    # judged documents x intents
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

    # runs: integer codes throughout (1.5 M rows in well under a second)
    n = len(run)
    run_ids = run["run_id"].astype(str).to_numpy() if "run_id" in run.columns else np.full(n, "run", dtype=object)
    rcode, runs = pd.factorize(run_ids, sort=True)
    runs = np.asarray(runs, dtype=object)
    qcode = pd.Index(topics).get_indexer(run["query_id"].astype(str)).astype(np.int64)
    dcode, dnames = pd.factorize(run["doc_id"].astype(str), sort=True)
    key = (rcode.astype(np.int64) * (T + 1) + (qcode + 1)) * max(len(dnames), 1) + dcode
    dup = pd.Series(key).duplicated().to_numpy()
    if dup.any():
        k = int(np.argmax(dup))
        raise ValueError(f"run retrieves a document twice for one topic: run_id={runs[rcode[k]]!r}, "
                         f"query_id={str(run['query_id'].iloc[k])!r}, doc_id={dnames[dcode[k]]!r}")
    inq = qcode >= 0
    lst_all = rcode.astype(np.int64) * T + np.maximum(qcode, 0)
    if "rank" in run.columns:
        rk = pd.to_numeric(run["rank"], errors="coerce").to_numpy(dtype=float)
        bad = np.isnan(rk)
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"run 'rank' must be numeric; first bad row: query_id={str(run['query_id'].iloc[k])!r}, "
                             f"doc_id={str(run['doc_id'].iloc[k])!r}, rank={run['rank'].iloc[k]!r}")
        idx = np.nonzero(inq)[0]
        order = idx[np.lexsort((rk[idx], lst_all[idx]))]
        same = (lst_all[order][1:] == lst_all[order][:-1]) & (rk[order][1:] == rk[order][:-1])
        if same.any():
            k = order[int(np.argmax(same)) + 1]
            raise ValueError(f"run gives two documents the same rank: run_id={runs[rcode[k]]!r}, "
                             f"query_id={str(run['query_id'].iloc[k])!r}, rank={run['rank'].iloc[k]!r}")
    else:
        sc = pd.to_numeric(run["score"], errors="coerce").to_numpy(dtype=float)
        if not np.isfinite(sc).all():
            raise ValueError("run 'score' must be finite numbers")
        idx = np.nonzero(inq)[0]
        order = idx[np.lexsort((-dcode[idx], -sc[idx], lst_all[idx]))]
    lst = lst_all[order]
    first = np.ones(len(lst), dtype=bool)
    first[1:] = lst[1:] != lst[:-1]
    starts = np.maximum.accumulate(np.where(first, np.arange(len(lst)), 0))
    pos = np.arange(len(lst)) - starts
    if depth is None:
        depth = int(pos.max()) + 1 if len(pos) else 1
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
    return _Data(topics=topics, runs=runs, prob=P, nav=NAV, hasrel=hasrel, judged_gain=JG,
                 judged_topic=jt, judged_key=docs["key"].to_numpy(), run_gain=RG, run_len=run_len,
                 gmax_mapping=gmax_mapping)


def global_gains(intent_gains: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Global gain ``GG = sum_i Pr(i|q) g_i`` (Sakai survey Eq. 7) over the last axis.

    ``intent_gains`` (..., M) and ``prob`` broadcastable to it.
    """
    return (np.asarray(intent_gains, dtype=float) * np.asarray(prob, dtype=float)).sum(-1)


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


# ---------------------------------------------------------------------------------------------
# ad hoc measures on gain arrays (delegated to helpers.measures)
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# ndeval family
# ---------------------------------------------------------------------------------------------

def _novelty_gain(rel: np.ndarray, alpha: float) -> np.ndarray:
    """``sum_i rel_i(r) (1-alpha)^{c_i(r)}`` for binary ``rel`` (..., D, M)."""
    prior = np.cumsum(rel, axis=-2, dtype=np.int32)
    prior -= rel
    pw = (1.0 - alpha) ** np.arange(rel.shape[-2] + 1)
    if alpha == 1.0:
        pw = (np.arange(rel.shape[-2] + 1) == 0).astype(float)
    return np.where(rel, pw[prior], 0.0).sum(-1)


def greedy_ideal_alpha(rel: np.ndarray, key: np.ndarray, alpha: float, depth: int) -> np.ndarray:
    """ndeval's greedy ideal list: novelty gains at ranks 1..depth, for all topics at once.

    Parameters
    ----------
    rel : (T, J, M) bool
        Binary relevance of each topic's judged documents to each intent (padding rows all False).
    key : (T, J) int
        Tie-break key: among documents with equal gain the one with the largest key is taken
        (ndeval: the lexicographically largest docno).
    alpha : float
    depth : int

    Returns
    -------
    (T, depth) novelty gains of the greedy list (0 once every relevant document is placed).
    """
    T, J, M = rel.shape
    relf = rel.astype(float)
    w = np.ones((T, M))
    placed = np.zeros((T, J), dtype=bool)
    out = np.zeros((T, depth))
    live = np.ones(T, dtype=bool)
    rows = np.arange(T)
    for r in range(min(depth, J)):
        score = np.einsum("tjm,tm->tj", relf, w)
        score[placed] = -1.0
        best = score.max(1)
        live &= best > 0
        if not live.any():
            break
        cand = np.where(score == best[:, None], key, -1)
        pick = cand.argmax(1)
        out[:, r] = np.where(live, best, 0.0)
        placed[rows, pick] = True
        hitm = rel[rows, pick]                                  # (T, M)
        w = np.where(hitm & live[:, None], w * (1.0 - alpha), w)
    return out



def exact_ideal_alpha(rel: np.ndarray, alpha: float, disc: np.ndarray, max_docs: int = 14) -> float:
    """Best attainable ``sum_r disc[r] * novelty_gain(r)`` of one topic: the exact ideal list.

    ndeval's greedy ideal is not always optimal (so alpha-nDCG can exceed 1). Because a
    document's novelty gain depends only on the *set* of documents above it, dynamic programming
    over subsets finds the exact optimum: ``best[S] = max_{d in S} best[S - d] + disc[|S|-1]
    gain(d | S - d)``. Cost ``2^J J`` for ``J`` relevant documents, so topics with more than
    ``max_docs`` of them raise ValueError (the problem is NP-hard in general).

    Parameters
    ----------
    rel : (J, M) bool
        Relevance of the topic's relevant documents to its intents.
    alpha : float
    disc : (l,) array
        Rank discounts (``1/log2(r+1)``, ``1/r`` or ``beta^(r-1)``); ranks beyond ``l`` count 0.
    """
    rel = np.asarray(rel, dtype=bool)
    J = rel.shape[0]
    if J > max_docs:
        raise ValueError(f"exact ideal list: a topic has {J} relevant documents, more than max_docs = {max_docs} "
                         "(2^J subsets); use ndeval's greedy ideal")
    if J == 0:
        return 0.0
    n = 1 << J
    depth = min(len(disc), J)
    members = ((np.arange(n)[:, None] >> np.arange(J)[None, :]) & 1).astype(bool)      # (n, J)
    size = members.sum(1)
    counts = members.astype(np.int64) @ rel.astype(np.int64)                            # (n, M) per subset
    w = (1.0 - alpha) ** counts if alpha < 1 else (counts == 0).astype(float)
    best = np.full(n, -np.inf)
    best[0] = 0.0
    for k in range(1, depth + 1):
        for S in np.flatnonzero(size == k):
            cand = -np.inf
            for d in np.flatnonzero(members[S]):
                prev = S & ~(1 << d)
                v = best[prev] + disc[k - 1] * float(w[prev] @ rel[d])
                if v > cand:
                    cand = v
            best[S] = cand
    return float(best[size == depth].max())


def _ndeval(meas, rel, N, cache, pack, exact=False):
    """One ndeval-family measure; rel (L, D, M) bool over intents with relevant documents."""
    name = meas.name
    D = rel.shape[1]
    l = meas.cutoff if meas.cutoff is not None else D
    l_eff = min(l, D)
    r = rel[:, :l_eff]
    Nf = N.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        if name == "strec":
            return r.any(1).sum(-1) / Nf
        if name == "P-IA":
            return r.sum((1, 2)) / (l * Nf)
        alpha = meas.param("alpha")
        gkey = ("novelty", alpha)
        if gkey not in cache:
            cache[gkey] = _novelty_gain(rel, alpha)                      # (L, D), prefix-stable
        gain = cache[gkey][:, :l_eff]
        if name in ("alpha-DCG", "alpha-nDCG", "ERR-IA", "nERR-IA"):
            # alpha-(n)DCG discounts by log2(r + 1), ERR-IA by r; ndeval normalises alpha-DCG and
            # ERR-IA by a list relevant to every intent, alpha-nDCG and nERR-IA by the greedy ideal.
            ranks = np.arange(1, l + 1)
            disc = 1.0 / (np.log2(ranks + 1.0) if "DCG" in name else ranks)
            score = gain @ disc[:l_eff]
            if name in ("alpha-DCG", "ERR-IA"):
                ii = (1.0 - alpha) ** np.arange(l) * disc
                return score / (Nf * ii.sum())
            if exact:
                iscore = pack(("exact", alpha, l, "DCG" in name))
            else:
                ideal = pack(("greedy", alpha, l))
                iscore = ideal @ disc[:ideal.shape[1]]
            return np.where(score > 0, score / iscore, 0.0)
        if name in ("NRBP", "nNRBP"):
            beta = meas.param("beta")
            nrbp = gain @ (beta ** np.arange(l_eff))
            if name == "NRBP":
                return nrbp * (1.0 - (1.0 - alpha) * beta) / Nf
            if exact:
                inrbp = pack(("exact", alpha, meas.cutoff, ("beta", beta)))
            else:
                ideal = pack(("greedy", alpha, meas.cutoff))
                inrbp = ideal @ (beta ** np.arange(ideal.shape[1]))
            return nrbp / inrbp
    raise AssertionError(name)


# ---------------------------------------------------------------------------------------------
# main entry point
# ---------------------------------------------------------------------------------------------

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
    if isinstance(measures, str):
        measures = [measures]
    specs = [parse_measure(m) for m in measures]
    if not specs:
        raise ValueError("measures is empty; give at least one measure name")
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"measure names repeated: {sorted({x for x in labels if labels.count(x) > 1})}")
    if gmax is not None and (not isinstance(gmax, (int, float)) or isinstance(gmax, bool) or not gmax > 0):
        raise ValueError(f"gmax must be a positive number, got {gmax!r}")
    if ideal not in ("greedy", "exact"):
        raise ValueError(f"ideal must be 'greedy' (ndeval) or 'exact', got {ideal!r}")
    if normaliser not in (None, "fixed", "ideal"):
        raise ValueError(f"normaliser must be None (NTCIREVAL's per-program choice), 'fixed' (gv_max of the gain "
                         f"mapping, Zeng & Sakai Table 1) or 'ideal' (the ideal list's top gain), got {normaliser!r}")
    full = any(s.cutoff is None for s in specs)
    depth = None if full else max(s.cutoff for s in specs)
    data = _prepare(dqrels, intents, run, depth, gains, prob_sum)
    T, R = len(data.topics), len(data.runs)
    L = R * T
    RG = data.run_gain
    D, M = RG.shape[1], RG.shape[2]
    tl = np.tile(np.arange(T), R)                 # topic of each list
    P = data.prob[tl]                             # (L, M)
    HR = data.hasrel[tl]                          # (L, M)
    NAV = data.nav[tl]
    N = HR.sum(1)                                 # intents with a relevant document
    empty_topic = N == 0
    rel = (RG > 0) & HR[:, None, :]

    # global gains of the ideal list (D-, DIN-measures)
    jgg_parts = data.judged_gain * data.prob[data.judged_topic]
    if ntcireval_rounding:
        jgg = _sig6(_sig6(jgg_parts).sum(-1))
    else:
        jgg = jgg_parts.sum(-1)
    ideal_g = _sorted_ideal(jgg, data.judged_topic, T)           # (T, K)
    hgain = ideal_g[:, 0]

    cache: dict = {}

    def run_gg(din: bool) -> np.ndarray:
        k = ("gg", din)
        if k not in cache:
            if ntcireval_rounding:
                parts = _sig6((RG * P[:, None, :]).reshape(-1)).reshape(RG.shape)
                if din:
                    parts = np.where(NAV[:, None, :] & ~first_hit(), 0.0, parts)
                gg = parts.sum(-1)
                # glabel prints the Grelv value (%.6g of the summed %.6g parts) with %.4f;
                # dinlabel sums the din file's %.6g parts and prints %.4f
                gg = np.round(gg if din else _sig6(gg), 4)
            elif din:
                w = np.where(NAV[:, None, :], first_hit(), True)
                gg = np.einsum("ldm,ldm,lm->ld", RG, w, P)
            else:
                gg = np.einsum("ldm,lm->ld", RG, P)
            cache[k] = gg
        return cache[k]

    def first_hit():
        if "first" not in cache:
            cache["first"] = rel & (np.cumsum(rel, axis=1, dtype=np.int32) == 1)
        return cache["first"]

    def intent_ideal():
        if "ii" not in cache:
            Jm = data.judged_gain.shape[0]
            grp = (np.repeat(data.judged_topic, M) * M + np.tile(np.arange(M), Jm))
            ii = _sorted_ideal(data.judged_gain.reshape(-1), grp, T * M)   # (T*M, K)
            cache["ii"] = ii
        return cache["ii"]

    def irec(l):
        covered = rel[:, :l].any(1).sum(1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return covered / N

    gv_max = float(gmax) if gmax is not None else data.gmax_mapping

    def d_measure(base, l, p, din=False):
        gg = run_gg(din)[:, :l]
        gm = hgain[tl]
        if normaliser == "fixed" and base in _STOP_BASES:
            gm = np.where(gm > 0, gv_max, gm)
        return _adhoc(base, gg, ideal_g[tl], l, gm, p)

    def intentwise(base, l, p, gmax_value=None):
        """(L, M) intentwise measure values (NaN-free: 0 where the intent has no relevant doc)."""
        ranked = np.moveaxis(RG[:, :l, :], 2, 1).reshape(L * M, -1)
        ii = intent_ideal()
        idx = (tl[:, None] * M + np.arange(M)[None, :]).reshape(-1)
        ideal = ii[idx]
        gm = ideal[:, 0] if gmax_value is None else np.full(len(ideal), gmax_value)
        ok = ideal[:, 0] > 0
        out = np.zeros(L * M)
        if ok.any():
            out[ok] = _adhoc(base, ranked[ok], ideal[ok], l, gm[ok], p)
        return out.reshape(L, M)

    def topic_rel():
        """(T, J, M) relevance of each topic's judged documents relevant to some intent, and keys."""
        if "topic_rel" not in cache:
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
            cache["topic_rel"] = (relq, keyq)
        return cache["topic_rel"]

    def greedy_pack(key):
        if key[0] == "exact":
            if key not in cache:
                _, alpha, l, kind = key
                relq, _ = topic_rel()
                depth_e = relq.shape[1] if l is None else l
                r = np.arange(1, depth_e + 1, dtype=float)
                if isinstance(kind, tuple):
                    disc = kind[1] ** (r - 1)
                else:
                    disc = 1.0 / np.log2(r + 1.0) if kind else 1.0 / r
                per_topic = np.array([exact_ideal_alpha(relq[t][relq[t].any(1)], alpha, disc) for t in range(T)])
                cache[key] = per_topic[tl]
            return cache[key]
        _, alpha, l = key
        if key not in cache:
            relq, keyq = topic_rel()   # judged docs relevant to at least one intent, padded per topic
            depth_i = relq.shape[1] if l is None else l
            cache[key] = greedy_ideal_alpha(relq, keyq, alpha, depth_i)[tl]
        return cache[key]

    results: dict[str, np.ndarray] = {}
    for s in specs:
        l = s.cutoff
        fam = s.family
        if fam == "irec":
            v = irec(l)
        elif fam in ("D", "D#"):
            p = s.param("p") if s.base == "RBP" else None
            v = d_measure(s.base, l, p)
            if fam == "D#":
                g = s.param("gamma")
                v = g * irec(l) + (1 - g) * v
        elif fam in ("DIN", "DIN#"):
            v = d_measure(s.base, l, None, din=True)
            if fam == "DIN#":
                g = s.param("gamma")
                v = g * irec(l) + (1 - g) * v
        elif fam in ("PQ", "PQ#"):
            q = intentwise("Q", l, None)
            pp = intentwise("P+", l, None)
            w = P * HR
            v = (w * np.where(NAV, pp, q)).sum(1)
            if fam == "PQ#":
                g = s.param("gamma")
                v = g * irec(l) + (1 - g) * v
        elif fam == "IA":
            p = s.param("p") if s.base == "RBP" else None
            fixed = normaliser == "fixed" and s.base in _STOP_BASES
            v = (P * HR * intentwise(s.base, l, p, gmax_value=gv_max if fixed else None)).sum(1)
        elif fam == "ndeval":
            v = _ndeval(s, rel, N, cache, greedy_pack, exact=ideal == "exact")
        elif fam == "RBU":
            p = s.param("p")
            v = (P * HR * intentwise("iRBU", l, p, gmax_value=None if normaliser == "ideal" else gv_max)).sum(1)
            if s.name == "RBU":
                v = v - s.param("e") * _geometric_sum(p, l)
        else:  # pragma: no cover - parse_measure guards the families
            raise AssertionError(fam)
        v = np.asarray(v, dtype=float).copy()
        v[empty_topic] = np.nan
        results[s.label] = v

    run_col = np.repeat(data.runs, T)
    q_col = np.tile(data.topics, R)
    out = pd.DataFrame({
        "run_id": np.repeat(run_col, len(specs)),
        "query_id": np.repeat(q_col, len(specs)),
        "measure": np.tile(np.array(labels, dtype=object), L),
        "value": np.stack([results[lab] for lab in labels], axis=1).reshape(-1),
    })
    return out


def uniform_intents(dqrels: pd.DataFrame) -> pd.DataFrame:
    """Intents of diversity qrels with uniform probabilities: every (query_id, intent_id) that
    occurs in ``dqrels`` gets 1 / (number of intents of its topic), as TREC's measures assume when
    no intent probabilities are published. Columns ``query_id, intent_id, prob``."""
    _need(dqrels, ["query_id", "intent_id"], "dqrels")
    intents = dqrels[["query_id", "intent_id"]].drop_duplicates().sort_values(
        ["query_id", "intent_id"], kind="stable").reset_index(drop=True)
    intents["prob"] = 1.0 / intents.groupby("query_id")["intent_id"].transform("size").to_numpy()
    return intents
