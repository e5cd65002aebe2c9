"""Notebook 04's worked examples (section 1): the values derived by hand from the definitions, the
values :mod:`helpers.measures.diversity` gives, and the findings row that compares them.

Three toy topics, all from section 1 of the notebook:

* ``"bca"``: intents i1 (informational, Pr 0.6) and i2 (navigational, Pr 0.4), linear gains 1-3
  (NTCIREVAL's ``-g 1:2:3``); documents a (i1: L2), b (i1: L1, i2: L3), c (i2: L1), d (i1: L1); run
  b > c > a. D-nDCG (Sakai's survey, Sec. 2.2, Eq. 7: global gain, one global ideal list), DIN-nDCG
  (Eq. 8: a navigational intent earns nothing after its first relevant document), I-rec and the
  ♯-measures (Eq. 6, γ = 0.5).
* ``"bad"``: the same topic, run b > a > d: intentwise Q (Eq. 3, β = 1), P+ (Eq. 4), P+Q (Eq. 9),
  IA-Q and P+Q♯.
* ``"ab"`` / ``"ba"``: intents A (Pr 0.9) and B (Pr 0.1), one relevant document each (a, b; binary
  gains): D-nDCG, IA-nDCG and α-nDCG at 2 for both orders.

The survey prints the definitions, no worked examples: the examples are the notebook's own, and the
reference values are this module's arithmetic from the equations (:func:`hand_values`, no call into :mod:`helpers.measures`), and
``tests/test_diversity.py`` derives them once more.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..notebook.findings import Finding

__all__ = ["hand_values", "measured_values", "examples_row", "EXAMPLES_QUESTION"]

#: The question of the worked-examples row.
EXAMPLES_QUESTION = "Do the definitions (Eq. 3–4, 6–9) give the hand-derived values of the notebook's own examples?"


def _disc(r: int) -> float:
    return 1.0 / np.log2(r + 1)


def _dcg(gains) -> float:
    return float(sum(g * _disc(r) for r, g in enumerate(gains, start=1)))


def _br(run_gains, ideal_gains, r: int, beta: float = 1.0) -> float:
    """Blended ratio at rank ``r`` (Eq. 2-3): (C(r) + β cg(r)) / (r + β cg*(r))."""
    c = sum(g > 0 for g in run_gains[:r])
    return (c + beta * sum(run_gains[:r])) / (r + beta * sum(ideal_gains[:r]))


def hand_values() -> dict[str, float]:
    """Every worked example's value by hand, keyed ``"<run> <measure>"`` (module docstring)."""
    p1, p2 = 0.6, 0.4
    gg = {"a": p1 * 2, "b": p1 * 1 + p2 * 3, "c": p2 * 1, "d": p1 * 1}   # Eq. 7: global gains
    ideal = sorted(gg.values(), reverse=True)[:3]                        # b > a > d
    d_ndcg = _dcg([gg["b"], gg["c"], gg["a"]]) / _dcg(ideal)
    din_ndcg = _dcg([gg["b"], 0.0, gg["a"]]) / _dcg(ideal)              # Eq. 8: c's nav gain is redundant after b
    irec = 2 / 2                                                         # both intents covered
    out = {"b>c>a D-nDCG@3": d_ndcg, "b>c>a DIN-nDCG@3": din_ndcg, "b>c>a I-rec@3": irec,
           "b>c>a D#-nDCG@3": 0.5 * irec + 0.5 * d_ndcg, "b>c>a DIN#-nDCG@3": 0.5 * irec + 0.5 * din_ndcg}
    # run b > a > d: i1's gains 1, 2, 1 (ideal 2, 1, 1; R = 3); i2's gains 3, 0, 0 (ideal 3, 1; R = 2)
    q1 = sum(_br([1, 2, 1], [2, 1, 1], r) for r in (1, 2, 3)) / min(3, 3)
    pplus2 = _br([3, 0, 0], [3, 1, 0], 1)                                # Eq. 4: P+ at the first best document
    q2 = _br([3, 0, 0], [3, 1, 0], 1) / min(3, 2)
    out.update({"b>a>d P+Q@3": p1 * q1 + p2 * pplus2, "b>a>d IA-Q@3": p1 * q1 + p2 * q2,
                "b>a>d P+Q#@3": 0.5 * irec + 0.5 * (p1 * q1 + p2 * pplus2)})
    # intents A (0.9) and B (0.1), binary gains: global gains a 0.9, b 0.1; each intent's ideal puts its document first
    ideal_ab = _dcg([0.9, 0.1])
    for run, (first, second) in (("a>b", (0.9, 0.1)), ("b>a", (0.1, 0.9))):
        out[f"{run} D-nDCG@2"] = _dcg([first, second]) / ideal_ab
        a_rank = 1 if run == "a>b" else 2
        out[f"{run} IA-nDCG@2"] = 0.9 * _disc(a_rank) + 0.1 * _disc(3 - a_rank)
        out[f"{run} alpha-nDCG@2"] = 1.0                                 # no redundancy: run gain = ideal gain
    return out


def measured_values() -> dict[str, float]:
    """The same keys as :func:`hand_values`, computed by :func:`helpers.measures.diversity.evaluate`."""
    import pandas as pd

    from ..measures import diversity

    def run_of(docs):
        return pd.DataFrame({"query_id": "q", "doc_id": list(docs), "rank": range(1, len(docs) + 1)})

    qrels = pd.DataFrame([("q", "i1", "a", 2), ("q", "i1", "b", 1), ("q", "i2", "b", 3), ("q", "i2", "c", 1),
                          ("q", "i1", "d", 1)], columns=["query_id", "intent_id", "doc_id", "relevance"])
    intents = pd.DataFrame([("q", "i1", 0.6, "inf"), ("q", "i2", 0.4, "nav")],
                           columns=["query_id", "intent_id", "prob", "kind"])
    ab_qrels = pd.DataFrame([("q", "A", "a", 1), ("q", "B", "b", 1)], columns=["query_id", "intent_id", "doc_id", "relevance"])
    ab_intents = pd.DataFrame([("q", "A", 0.9, "inf"), ("q", "B", 0.1, "inf")],
                              columns=["query_id", "intent_id", "prob", "kind"])
    hand = hand_values()
    out = {}
    for key in hand:
        run, measure = key.split(" ")
        docs = run.split(">")
        if run in ("a>b", "b>a"):
            v = diversity.evaluate(ab_qrels, ab_intents, run_of(docs), [measure], gains="1")
        else:
            v = diversity.evaluate(qrels, intents, run_of(docs), [measure], gains="1:2:3")
        out[key] = float(v["value"].iloc[0])
    return out


def examples_row(measured: Mapping[str, float], hand: Mapping[str, float], digits: int = 4) -> Finding:
    """The findings row: how many worked-example values equal their hand derivation at ``digits``
    decimals (``"agrees"`` when all do, else ``"differs"`` naming the first that does not)."""
    keys = list(hand)
    same = [k for k in keys if f"{measured[k]:.{digits}f}" == f"{hand[k]:.{digits}f}"]
    off = [k for k in keys if k not in same]
    run = f"{len(same)} of {len(keys)} equal to {digits} decimals"
    if off:
        k = off[0]
        run += f"; {k}: {measured[k]:.{digits}f} (hand: {hand[k]:.{digits}f})"
    return Finding(EXAMPLES_QUESTION, "definitions only; no worked examples", run,
                   "agrees" if not off else "differs",
                   numbers={"equal": len(same), "values": len(keys), "measured": dict(measured), "hand": dict(hand)})
