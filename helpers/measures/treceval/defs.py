"""The measures trec_eval defines and NTCIREVAL does not: names, parameters and their checks.

Plain data, imported by :mod:`helpers.measures.spec` to register the families (so that
``measures.evaluate(..., ["infAP", "Rprec", "IPrec(recall=0.1)"])`` parses them) without an import
circle. The definitions are in :mod:`helpers.measures.treceval.binary` and
:mod:`helpers.measures.treceval.graded`; the name tables of the three conventions in
:mod:`helpers.measures.treceval.catalog`.

Every family here is computed from trec_eval's relevance values of the ranked documents (a level
>= 0 for a judged document, -1 for a document not in the qrels, -2 for one in the qrels with a
negative level: "pooled, not judged"), the number retrieved and the topic's count of judged
documents per level, as trec_eval's ``form_res_rels.c`` prepares them; the engine's gain matrix
cannot tell these apart, so :func:`helpers.measures.kernels.evaluate_arrays` refuses them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["TrecFamily", "TREC_FAMILIES", "GAIN_PARAM", "parse_points", "parse_gain_pairs",
           "LEVEL_GAINS", "uses_trec_kernel"]

#: The value of ``gains=`` meaning trec_eval's default gains: the relevance level itself.
LEVEL_GAINS = "levels"
#: Parameter of the gain-based families: ``gains=levels`` or level:gain pairs
#: ``gains=1:3;2:9;4:4.5`` (trec_eval's ``-m ndcg.1=3,2=9,4=4.5``).
GAIN_PARAM = "gains"

DEFAULT_POINTS = "0:0.1:0.2:0.3:0.4:0.5:0.6:0.7:0.8:0.9:1"


def parse_points(text: str) -> list[float]:
    """Recall points written ``0.2:0.5:0.8`` (trec_eval's ``11pt_avg.0.2,0.5,0.8``)."""
    try:
        points = [float(x) for x in str(text).split(":")]
    except ValueError:
        raise ValueError(f"recall points must be numbers separated by ':', e.g. 0.2:0.5:0.8, got {text!r}") from None
    if not points or any(not math.isfinite(p) or p < 0 for p in points):
        raise ValueError(f"recall points must be finite numbers >= 0, got {text!r}")
    if any(b < a for a, b in zip(points, points[1:])):
        raise ValueError(f"recall points must be in increasing order (trec_eval assumes it), got {text!r}")
    return points


def parse_gain_pairs(text: str) -> dict[int, float]:
    """trec_eval's ``level=gain`` pairs, written ``level:gain`` and separated by ``;`` in engine
    names (``gains=1:3;2:9;4:4.5``); ``levels`` (no pair) keeps every level's gain equal to the
    level. Levels must be integers (trec_eval ignores other names silently; they are refused
    here); gains any finite number, negative ones included."""
    if text == LEVEL_GAINS or text == "":
        return {}
    out: dict[int, float] = {}
    for item in str(text).split(";"):
        parts = item.split(":")
        if len(parts) != 2:
            raise ValueError(f"gains must be level:gain pairs separated by ';' (e.g. 1:3;2:9) or "
                             f"'{LEVEL_GAINS}', got {text!r}")
        try:
            level, gain = int(parts[0]), float(parts[1])
        except ValueError:
            raise ValueError(f"gains: level {parts[0]!r} must be an integer and gain {parts[1]!r} a number") from None
        if not -(2**63) <= level < 2**63:
            raise ValueError(f"gains: level {parts[0]!r} is beyond the range of relevance levels (a 64-bit "
                             f"integer, as trec_eval's C long: {-(2**63)} to {2**63 - 1})")
        if not math.isfinite(gain):
            raise ValueError(f"gains: the gain of level {level} must be finite, got {parts[1]!r}")
        if level in out:
            raise ValueError(f"gains: level {level} given twice in {text!r}")
        out[level] = gain
    return out


def _check_mult(p: dict, cutoff) -> None:
    if not isinstance(p["mult"], float) or p["mult"] < 0:
        raise ValueError(f"mult (the multiple of R) must be a number >= 0, got {p['mult']!r}")


def _check_rounding(p: dict) -> None:
    if p["rounding"] not in ("nearest", "v9"):
        raise ValueError("rounding must be 'nearest' (trec_eval 10: recall point x R rounded to the nearest "
                         f"integer) or 'v9' (trec_eval 9, pytrec_eval: x R + 0.9 truncated), got {p['rounding']!r}")


def _check_iprec(p: dict, cutoff) -> None:
    if not isinstance(p["recall"], float) or not 0 <= p["recall"]:
        raise ValueError(f"IPrec needs a recall level >= 0, e.g. IPrec(recall=0.1); got recall={p['recall']!r}")
    _check_rounding(p)


def _check_iprec_avg(p: dict, cutoff) -> None:
    parse_points(p["recall"] if isinstance(p["recall"], str) else repr(p["recall"]))
    _check_rounding(p)


def _check_utility(p: dict, cutoff) -> None:
    for k in ("a", "b", "c", "d", "docs"):
        if not isinstance(p[k], float):
            raise ValueError(f"utility: {k} must be a number, got {p[k]!r}")
    if p["docs"] < 0 or not float(p["docs"]).is_integer():
        raise ValueError(f"utility: docs (trec_eval -N, documents in the collection) must be an integer >= 0, "
                         f"got {p['docs']!r}")


def _check_beta(p: dict, cutoff) -> None:
    if not isinstance(p["beta"], float) or p["beta"] < 0:
        raise ValueError(f"beta must be a number >= 0, got {p['beta']!r}")


def _check_p(p: dict, cutoff) -> None:
    if not isinstance(p["p"], float) or not 0 < p["p"] < 1:
        raise ValueError(f"persistence p must be in (0, 1), got {p['p']!r}")


def check_gains(p: dict, cutoff) -> None:
    """Check ``gains=`` of the gain-based families."""
    if p.get(GAIN_PARAM, "") != "":
        parse_gain_pairs(p[GAIN_PARAM] if isinstance(p[GAIN_PARAM], str) else repr(p[GAIN_PARAM]))


def _check_rbp(p: dict, cutoff) -> None:
    _check_p(p, cutoff)
    check_gains(p, cutoff)


@dataclass(frozen=True)
class TrecFamily:
    """A measure family of trec_eval for the engine's registry (see :class:`helpers.measures.spec.MeasureDef`)."""

    name: str
    params: dict = field(default_factory=dict)
    cutoff: str = "none"
    summary: str = ""
    check: object = None
    binary: bool = True


#: trec_eval's measures that the engine did not have, in trec_eval's order (``measures.c``).
TREC_FAMILIES: tuple[TrecFamily, ...] = (
    TrecFamily("NumQ", summary="1 for every topic evaluated (trec_eval num_q counts them)", binary=False),
    TrecFamily("NumRet", summary="documents retrieved (trec_eval num_ret)", binary=False),
    TrecFamily("NumRel", summary="relevant documents in the qrels (trec_eval num_rel)"),
    TrecFamily("NumRelRet", summary="relevant documents retrieved (trec_eval num_rel_ret)"),
    TrecFamily("logAP", summary="log(max(AP, 0.00001)); exp of its mean over topics is trec_eval's gm_map"),
    TrecFamily("Rprec", {"mult": 1.0}, summary="precision after mult x R documents (trec_eval Rprec, Rprec_mult)",
               check=_check_mult),
    TrecFamily("Bpref", summary="trec_eval's bpref (judged documents only; levels below rel= judged non-relevant)"),
    TrecFamily("IPrec", {"recall": "?", "rounding": "nearest"},
               summary="interpolated precision at a recall level (trec_eval iprec_at_recall)", check=_check_iprec),
    TrecFamily("infAP", summary="inferred AP (Yilmaz and Aslam, CIKM 2006; trec_eval infAP)"),
    TrecFamily("logBpref", summary="log(max(Bpref, 0.00001)); exp of its mean is trec_eval's gm_bpref"),
    TrecFamily("utility", {"a": 1.0, "b": -1.0, "c": 0.0, "d": 0.0, "docs": 0.0},
               summary="a x rel.ret + b x nonrel.ret + c x rel.not-ret + d x nonrel.not-ret (trec_eval utility)",
               check=_check_utility),
    TrecFamily("IPrecAvg", {"recall": DEFAULT_POINTS, "rounding": "nearest"},
               summary="mean interpolated precision at recall points (trec_eval 11pt_avg)", check=_check_iprec_avg),
    TrecFamily("binG", summary="binary G (trec_eval binG)"),
    TrecFamily("G", {GAIN_PARAM: LEVEL_GAINS}, summary="normalised gain G (trec_eval G)", check=check_gains,
               binary=False),
    TrecFamily("MSDCG", {GAIN_PARAM: LEVEL_GAINS}, "optional", "DCG, gain/log2(r+1) (trec_eval dcg)",
               check_gains, binary=False),
    TrecFamily("MSIDCG", {GAIN_PARAM: LEVEL_GAINS}, "optional", "ideal DCG (trec_eval ideal_dcg)", check_gains,
               binary=False),
    TrecFamily("MSnDCGg", {GAIN_PARAM: LEVEL_GAINS}, "optional", "trec_eval's ndcg with level:gain pairs "
               "(ndcg.1=3,2=9 is MSnDCGg(gains=1:3;2:9))", check_gains, binary=False),
    TrecFamily("MSnDCGrel", {GAIN_PARAM: LEVEL_GAINS}, summary="MSnDCG averaged over the relevant documents "
               "(trec_eval ndcg_rel)", check=check_gains, binary=False),
    TrecFamily("RMSnDCG", {GAIN_PARAM: LEVEL_GAINS}, summary="MSnDCG averaged at the R levels (trec_eval Rndcg)",
               check=check_gains),
    TrecFamily("relP", cutoff="required", summary="relative precision C(l)/min(l, R) (trec_eval relative_P)"),
    TrecFamily("SetP", summary="relevant retrieved / retrieved (trec_eval set_P)"),
    TrecFamily("SetRelP", summary="relevant retrieved / min(retrieved, R) (trec_eval set_relative_P)"),
    TrecFamily("SetR", summary="relevant retrieved / R (trec_eval set_recall)"),
    TrecFamily("SetAP", summary="(relevant retrieved)^2 / (retrieved x R) (trec_eval set_map)"),
    TrecFamily("SetF", {"beta": 1.0}, summary="F measure of SetP and SetR (trec_eval set_F)", check=_check_beta),
    TrecFamily("NumNonrelJudgedRet", summary="judged non-relevant documents retrieved (trec_eval num_nonrel_judged_ret)"),
    TrecFamily("yaap", summary="yet another AP, log((1+S)/(1+R-S)) (Robertson, ECIR 2012; trec_eval yaap)"),
    TrecFamily("RBPg", {"p": 0.9, GAIN_PARAM: LEVEL_GAINS}, summary="trec_eval's rbp: (1-p) sum g(r) p^(r-1), "
               "gains rescaled to [0, 1]", check=_check_rbp, binary=False),
    TrecFamily("RBPresid", {"p": 0.9}, summary="residual of RBP: the most unjudged documents could add "
               "(trec_eval rbp_resid)", check=_check_p, binary=False),
    TrecFamily("Unjudged", cutoff="required", summary="share of the top l not judged (trec_eval unj)",
               binary=False),
)


_TREC_NAMES = frozenset(f.name for f in TREC_FAMILIES)


def uses_trec_kernel(name: str, params: dict | None = None) -> bool:
    """Whether a parsed measure family is computed by the trec_eval kernels (every family of
    :data:`TREC_FAMILIES`); ``params`` is accepted for symmetry with the parser and unused."""
    return name in _TREC_NAMES
