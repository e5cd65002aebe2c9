"""Diversified search evaluation: NTCIR D-/D#-/DIN-measures, P+Q, intent-aware measures, TREC
ndeval's alpha-nDCG / ERR-IA / NRBP / P-IA / strec, and RBU / iRBU.

One entry point, :func:`evaluate`, returns a tidy ``run_id, query_id, measure, value`` table.
Everything is vectorised over runs x topics x ranks (x intents); the only Python loops run over
measure groups and, for ndeval's greedy ideal list, over ideal *ranks* (all topics at once).

=====================  ==========================================================================
:mod:`.names`          the measures' names and parameters (:func:`parse_measure`)
:mod:`.prepare`        dqrels, intents and runs checked and turned into arrays
:mod:`.ndeval`         TREC ndeval's family and its greedy and exact ideal lists
:mod:`.scoring`        :func:`evaluate`: every family on the prepared arrays
=====================  ==========================================================================

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

from .names import MAX_CUTOFF, SUPPORTED_MEASURES, DiversityMeasure, parse_measure
from .ndeval import exact_ideal_alpha, greedy_ideal_alpha
from .prepare import need_columns
from .scoring import evaluate, global_gains

__all__ = ["evaluate", "parse_measure", "DiversityMeasure", "SUPPORTED_MEASURES", "MAX_CUTOFF", "global_gains",
           "greedy_ideal_alpha", "exact_ideal_alpha", "uniform_intents"]


def uniform_intents(dqrels):
    """Intents of diversity qrels with uniform probabilities: every (query_id, intent_id) that
    occurs in ``dqrels`` gets 1 / (number of intents of its topic), as TREC's measures assume when
    no intent probabilities are published. Columns ``query_id, intent_id, prob``."""
    need_columns(dqrels, ["query_id", "intent_id"], "dqrels")
    intents = dqrels[["query_id", "intent_id"]].drop_duplicates().sort_values(
        ["query_id", "intent_id"], kind="stable").reset_index(drop=True)
    intents["prob"] = 1.0 / intents.groupby("query_id")["intent_id"].transform("size").to_numpy()
    return intents
