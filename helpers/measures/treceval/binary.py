"""trec_eval's binary measures, vectorised over lists x ranks (trec_eval 10, ``m_*.c``).

Notation: ``rel`` is the relevance threshold (trec_eval ``-l``, the engine's ``rel=``, default 1);
a retrieved document is relevant when its level is >= ``rel``; ``C(r)`` counts the relevant
documents in the top ``r``; ``R`` is the number of judged documents at a level >= ``rel``
(``num_rel``); ``ret`` the number retrieved. Ranks are trec_eval's (decreasing score, ties by
decreasing document id). Past a list's end a cutoff counts the missing documents as non-relevant.
Conventions common to all: a topic with ``R = 0`` scores 0 (trec_eval leaves the value at 0); sums
run in rank order, as trec_eval's loops add.

=======================  ===========================================================  ==============
engine                   definition                                                   trec_eval
=======================  ===========================================================  ==============
``AP``                   ``sum_{rel r} C(r)/r / R``                                   ``m_map.c``
``AP(norm=R)@l``         the same over ``r <= l``                                     ``m_map_cut.c``
``logAP``                ``log(max(AP, 0.00001))``                                    ``m_gm_map.c``
``Rprec(mult=x)``        ``C(k)/k`` with ``k = (long)(x R + 0.9)``, 0 if ``k = 0``     ``m_Rprec.c``,
                         (``Rprec`` = ``mult=1``: ``C(R)/R``)                          ``m_Rprec_mult.c``
``Bpref``                over the judged documents in rank order, each relevant one   ``m_bpref.c``
                         adds ``1 - min(n, R)/min(N, R)`` (``n``: judged levels below
                         ``rel`` above it, ``N``: judged levels below ``rel`` in the
                         qrels; 1 when ``n = 0``), over ``R``
``logBpref``             ``log(max(Bpref, 0.00001))``                                 ``m_gm_bpref.c``
``RR``                   ``1/r1`` (0 if nothing relevant is retrieved)                ``m_recip_rank.c``
``IPrec(recall=x)``      ``max_{i >= r_c} C(i)/i`` over retrieved ranks, ``r_c`` the  ``m_iprec_at_recall.c``
                         rank of the ``c``-th relevant document, ``c = round(x R)``
                         (``rounding=v9``: ``(long)(x R + 0.9)``, trec_eval 9 and
                         pytrec_eval); ``c = 0``: over all ranks; 0 if ``c`` > relevant
                         retrieved
``IPrecAvg(recall=..)``  mean of ``IPrec`` over the points (default 0, 0.1, ..., 1)   ``m_11pt_avg.c``
``P@l``, ``R@l``         ``C(l)/l``, ``C(l)/R``                                        ``m_P.c``, ``m_recall.c``
``relP@l``               ``C(l)/min(l, R)``                                           ``m_rel_P.c``
``Hit@l``                ``[C(l) > 0]``                                               ``m_success.c``
``infAP``                Yilmaz and Aslam (CIKM 2006) as trec_eval computes it: the   ``m_infap.c``
                         relevant document at 0-based rank ``j`` adds 1 (``j = 0``) or
                         ``1/(j+1) + j/(j+1) * (a+b+u)/j * (a+e)/(a+b+2e)`` with ``a``
                         relevant, ``b`` judged non-relevant, ``u`` pooled-unjudged
                         documents above it and ``e = 0.00001``; over ``R``
``utility(a,b,c,d,docs)``  ``a C + b (ret - C) + c (R - C) + d (docs + C - ret - R)``  ``m_utility.c``
                         with ``C`` relevant retrieved (``docs``: trec_eval ``-N``)
``binG``                 ``sum_{rel r} 1/log2(2 + r - C(r))`` over ``R`` (0 if nothing   ``m_binG.c``
                         relevant is retrieved)
``Set*``                 ``SetP = C/ret``, ``SetR = C/R``, ``SetRelP = C/min(ret, R)``,  ``m_set_*.c``
                         ``SetAP = C^2/(ret R)``, ``SetF = (b+1) P R/(b P + R)``
``Num*``                 ``NumRet``, ``NumRel`` (R), ``NumRelRet``, ``NumNonrelJudgedRet``,  ``m_num_*.c``
                         ``NumQ`` (1)
``yaap``                 ``log((1 + S)/(1 + R - S))``, ``S`` AP's numerator            ``m_yaap.c``
``Unjudged@l``           share of the top ``l`` not judged (value -1 or -2)            ``m_unjudged.c``
=======================  ===========================================================  ==============
"""

from __future__ import annotations

import numpy as np

from ..spec import MeasureSpec
from .defs import parse_points
from .lists import NONPOOL, UNJUDGED, Block, safe_div

__all__ = ["BINARY", "interpolated_precision"]

_MIN_GEO_MEAN = 0.00001
_INFAP_EPSILON = 0.00001


def _ap(b: Block, spec: MeasureSpec) -> np.ndarray:
    if spec.cutoff is None:
        return safe_div(b.ap_sum, b.R)
    pos = b.relc[0]
    within = np.cumsum(np.where(pos < spec.cutoff, b.ap_terms, 0.0), axis=1)[:, -1]
    den = b.R if spec["norm"] == "R" else np.minimum(spec.cutoff, b.R)
    return safe_div(within, den)


def _log_ap(b: Block, spec: MeasureSpec) -> np.ndarray:
    return np.log(np.maximum(_ap(b, spec), _MIN_GEO_MEAN))


def _rprec(b: Block, spec: MeasureSpec) -> np.ndarray:
    with np.errstate(over="ignore"):
        k = np.floor(float(spec["mult"]) * b.R + 0.9)    # (long)(x * num_rel + 0.9)
    # past a C long the cast is undefined (x86 reads LONG_MIN, so trec_eval leaves the value 0;
    # a saturating cast gives num_rel_ret / LONG_MAX, also 0 to 4 places): 0
    k = np.where(k < 2.0**63, k, 0.0)
    return safe_div(np.where(k > 0, b.count_rel(k), 0.0), k)


def _bpref_value(b: Block) -> np.ndarray:
    """trec_eval's bpref: judged documents only, levels in [0, rel) judged non-relevant."""
    def compute():
        _, valid, _ = b.relc
        nonrel_before = b.cum_at_rel(b.nonrel)             # the current one is relevant
        R = b.R[:, None]
        den = np.minimum(b.n_nonrel[:, None], R)
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(nonrel_before > 0, 1.0 - np.minimum(nonrel_before, R) / den, 1.0)
        return safe_div(np.cumsum(np.where(valid, term, 0.0), axis=1)[:, -1], b.R)
    return b.cached("bpref", compute)


def _bpref(b: Block, spec: MeasureSpec) -> np.ndarray:
    return _bpref_value(b)


def _log_bpref(b: Block, spec: MeasureSpec) -> np.ndarray:
    return np.log(np.maximum(_bpref_value(b), _MIN_GEO_MEAN))


def _rr(b: Block, spec: MeasureSpec) -> np.ndarray:
    first = b.relc[0][:, 0]
    limit = b.D if spec.cutoff is None else min(spec.cutoff, b.D)
    return np.where((b.nrr > 0) & (first < limit), 1.0 / (first + 1.0), 0.0)


def _cut_counts(b: Block, x: float, rounding: str) -> np.ndarray:
    if rounding == "v9":
        return np.floor(x * b.R + 0.9)
    return np.floor(x * b.R + 0.5)          # lround: half away from zero (x R >= 0)


def interpolated_precision(b: Block, x: float, rounding: str = "nearest") -> np.ndarray:
    """trec_eval's interpolated precision at recall ``x`` (see the module table)."""
    c = _cut_counts(b, x, rounding)
    rows = np.arange(b.n)
    j = np.clip(c.astype(np.int64) - 1, 0, b.interpolated.shape[1] - 1)
    value = b.interpolated[rows, j]         # c = 0: the maximum over every rank, as c = 1
    return np.where(c > b.nrr, 0.0, value)


def _iprec(b: Block, spec: MeasureSpec) -> np.ndarray:
    return interpolated_precision(b, float(spec["recall"]), spec["rounding"])


def _iprec_avg(b: Block, spec: MeasureSpec) -> np.ndarray:
    text = spec["recall"] if isinstance(spec["recall"], str) else repr(spec["recall"])
    points = parse_points(text)
    total = np.zeros(b.n)
    for x in reversed(points):               # trec_eval adds from the highest point down
        total = total + interpolated_precision(b, x, spec["rounding"])
    return total / len(points)


def _precision(b: Block, spec: MeasureSpec) -> np.ndarray:
    return b.count_rel(spec.cutoff) / spec.cutoff


def _recall(b: Block, spec: MeasureSpec) -> np.ndarray:
    return safe_div(b.count_rel(spec.cutoff), b.R)


def _relative_p(b: Block, spec: MeasureSpec) -> np.ndarray:
    return safe_div(b.count_rel(spec.cutoff), np.minimum(spec.cutoff, b.R))


def _hit(b: Block, spec: MeasureSpec) -> np.ndarray:
    return (b.count_rel(spec.cutoff) > 0).astype(float)


def _infap(b: Block, spec: MeasureSpec) -> np.ndarray:
    pos, valid, kk = b.relc
    j = pos.astype(float)                                  # 0-based rank
    a = kk[None, :] - 1.0                                  # relevant above (the current is relevant)
    nb = b.cum_at_rel(b.nonrel)                            # judged non-relevant above
    u = b.cum_at_rel(b.lv == UNJUDGED)                     # pooled, unjudged above
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (1.0 / (j + 1.0) + (j / (j + 1.0)) * ((a + nb + u) / j)
                * ((a + _INFAP_EPSILON) / (a + nb + 2 * _INFAP_EPSILON)))
    term = np.where(j == 0, 1.0, term)
    return safe_div(np.cumsum(np.where(valid, term, 0.0), axis=1)[:, -1], b.R)


def _utility(b: Block, spec: MeasureSpec) -> np.ndarray:
    c, ret, R = b.nrr, b.num_ret, b.R
    return (float(spec["a"]) * c + float(spec["b"]) * (ret - c) + float(spec["c"]) * (R - c)
            + float(spec["d"]) * (float(spec["docs"]) + c - ret - R))


def _bin_g(b: Block, spec: MeasureSpec) -> np.ndarray:
    pos, valid, kk = b.relc
    with np.errstate(divide="ignore", invalid="ignore"):   # padding entries are masked below
        term = 1.0 / np.log2(3.0 + pos - kk[None, :])      # 3 + i - rel_so_far, i 0-based
    total = np.cumsum(np.where(valid, term, 0.0), axis=1)[:, -1]
    return np.where(b.nrr > 0, safe_div(total, b.R), 0.0)


def _set(b: Block, spec: MeasureSpec) -> np.ndarray:
    c, ret, R = b.nrr, b.num_ret, b.R
    name = spec.name
    if name == "SetP":
        return safe_div(c, ret)
    if name == "SetR":
        return safe_div(c, R)
    if name == "SetRelP":
        return np.where((ret > 0) & (R > 0), safe_div(c, np.minimum(ret, R)), 0.0)
    if name == "SetAP":
        return np.where((ret > 0) & (R > 0), safe_div(c * c, ret * R), 0.0)
    x = float(spec["beta"])                                 # SetF
    P, Rc = safe_div(c, ret), safe_div(c, R)
    return np.where(c > 0, safe_div((x + 1.0) * P * Rc, x * P + Rc), 0.0)


def _counts(b: Block, spec: MeasureSpec) -> np.ndarray:
    name = spec.name
    if name == "NumQ":
        return np.ones(b.n)
    if name == "NumRet":
        return b.num_ret.copy()
    if name == "NumRel":
        return b.R.copy()
    if name == "NumRelRet":
        return b.nrr.copy()
    # NumNonrelJudgedRet: ret - nonpool - pooled-unjudged - relevant retrieved
    outside = ((b.lv == NONPOOL) | (b.lv == UNJUDGED)).sum(axis=1)
    return b.num_ret - outside - b.nrr


def _yaap(b: Block, spec: MeasureSpec) -> np.ndarray:
    s = b.ap_sum
    return np.log((1.0 + s) / (1.0 + b.R - s))


def _unjudged(b: Block, spec: MeasureSpec) -> np.ndarray:
    top = b.lv[:, : spec.cutoff]
    return ((top == NONPOOL) | (top == UNJUDGED)).sum(axis=1) / spec.cutoff


#: Engine family -> function(block, spec) for the measures that only ask "relevant or not".
BINARY = {
    "AP": _ap, "logAP": _log_ap, "Rprec": _rprec, "Bpref": _bpref, "logBpref": _log_bpref, "RR": _rr,
    "IPrec": _iprec, "IPrecAvg": _iprec_avg, "P": _precision, "R": _recall, "relP": _relative_p, "Hit": _hit,
    "infAP": _infap, "utility": _utility, "binG": _bin_g, "SetP": _set, "SetR": _set, "SetRelP": _set,
    "SetAP": _set, "SetF": _set, "NumQ": _counts, "NumRet": _counts, "NumRel": _counts, "NumRelRet": _counts,
    "NumNonrelJudgedRet": _counts, "yaap": _yaap, "Unjudged": _unjudged,
}
