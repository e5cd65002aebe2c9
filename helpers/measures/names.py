"""trec_eval and ir_measures measure names translated to this engine's (NTCIREVAL) names.

The engine keeps NTCIREVAL's names, and a few of them look like another tool's name for a
different measure: ``nDCG@10`` here is Järvelin and Kekäläinen's original nDCG (NTCIREVAL),
while ir_measures' ``nDCG@10`` is trec_eval's ``ndcg_cut_10``, which is our ``MSnDCG@10``; and
``AP@10`` here divides by ``min(10, R)`` (NTCIREVAL) where ir_measures' ``AP@10`` (trec_eval
``map_cut_10``) divides by ``R``. :func:`translate` maps the other tools' names onto the right
engine measure (``python -m helpers evaluate --names trec_eval``):

==========================  ==============================  =============================
trec_eval (``-m``)          ir_measures                     this engine
==========================  ==============================  =============================
``map``                     ``AP``                          ``AP``
``map_cut_K``               ``AP@K``                        ``AP(norm=R)@K``
``recip_rank``              ``RR``, ``RR@K``                ``RR``, ``RR@K``
``P_K``                     ``P@K``                         ``P@K``
``recall_K``                ``R@K``                         ``R@K``
``success_K``               ``Success@K``                   ``Hit@K``
``ndcg``                    ``nDCG``                        ``MSnDCG``
``ndcg_cut_K``              ``nDCG@K``                      ``MSnDCG@K``
``-l N`` (binary measures)  ``rel=N``: ``AP(rel=2)``        ``AP(rel=2)``
==========================  ==============================  =============================

Every other trec_eval measure has a row in :data:`TRANSLATIONS` too (``infAP`` -> ``infAP``,
``iprec_at_recall_0.10`` -> ``IPrec(recall=0.1)``, ``Rprec_mult_0.20`` -> ``Rprec(mult=0.2)``,
``set_F`` -> ``SetF``, ``rbp`` -> ``RBPg(gains=levels,p=0.9)``, ...; the definitions are in
:mod:`helpers.measures.treceval`); ``gm_map``, ``gm_bpref`` (geometric means over topics),
``relstring`` and ``runid`` are refused with what to ask for instead (``python -m helpers
trec_eval`` prints all of them). ir_measures' ``IPrec@x`` is pytrec_eval's (trec_eval 9) recall
cut: ``IPrec(recall=x,rounding=v9)``.

trec_eval names may also be written with a dot (``ndcg_cut.10``, pytrec_eval's spelling). The
binary measures (AP, RR, P, R, Success) take ir_measures' ``rel=``. Names that neither tool uses
for another measure (``Q``, ``P+``, ``MSnDCG``, ``nERR``, ``nCG``, ``nG``, ``EBR``, ``iRBU``,
``Hit``) pass through unchanged. Refused with a reason, because the tools define them
differently: ir_measures' ``ERR`` (gdeval's exponential stop probability; ours is NTCIREVAL's
``g/(gmax+1)``), ``RBP`` (binary by default there, graded here) and nDCG options (``dcg=``,
``gains=``, ``judged_only=``).
"""

from __future__ import annotations

import re

from helpers.measures import adhoc as M

__all__ = ["translate", "TRANSLATIONS", "NAME_SCHEMES"]

#: Values of ``--names``: ``ntcireval`` (the engine's names, default) or another tool's.
NAME_SCHEMES = ("ntcireval", "trec_eval", "ir_measures")

#: (trec_eval, ir_measures, engine) rows of the table above, for help texts and the README.
TRANSLATIONS: tuple[tuple[str, str, str], ...] = (
    ("map", "AP", "AP"),
    ("map_cut_K", "AP@K", "AP(norm=R)@K"),
    ("recip_rank", "RR", "RR"),
    ("P_K", "P@K", "P@K"),
    ("recall_K", "R@K", "R@K"),
    ("success_K", "Success@K", "Hit@K"),
    ("ndcg", "nDCG", "MSnDCG"),
    ("ndcg_cut_K", "nDCG@K", "MSnDCG@K"),
    ("-l N", "AP(rel=N)", "AP(rel=N)"),
    # trec_eval's other measures (helpers.measures.treceval; python -m helpers trec_eval prints them all)
    ("num_q", "NumQ", "NumQ"),
    ("num_ret", "NumRet", "NumRet"),
    ("num_rel", "NumRel", "NumRel"),
    ("num_rel_ret", "NumRelRet", "NumRelRet"),
    ("num_nonrel_judged_ret", "-", "NumNonrelJudgedRet"),
    ("Rprec", "Rprec", "Rprec"),
    ("Rprec_mult_x", "-", "Rprec(mult=x)"),
    ("bpref", "Bpref", "Bpref"),
    ("infAP", "infAP", "infAP"),
    ("iprec_at_recall_x", "IPrec@x", "IPrec(recall=x) (ir_measures: rounding=v9)"),
    ("11pt_avg", "-", "IPrecAvg"),
    ("relative_P_K", "-", "relP@K"),
    ("set_P", "SetP", "SetP"),
    ("set_recall", "SetR", "SetR"),
    ("set_relative_P", "-", "SetRelP"),
    ("set_map", "SetAP", "SetAP"),
    ("set_F", "SetF", "SetF(beta=1)"),
    ("utility", "-", "utility(a=1,b=-1,c=0,d=0,docs=0)"),
    ("binG", "-", "binG"),
    ("G", "-", "G(gains=levels)"),
    ("dcg", "-", "MSDCG(gains=levels)"),
    ("ideal_dcg", "-", "MSIDCG(gains=levels)"),
    ("ndcg_rel", "-", "MSnDCGrel(gains=levels)"),
    ("Rndcg", "-", "RMSnDCG(gains=levels)"),
    ("yaap", "-", "yaap"),
    ("rbp", "-", "RBPg(p=0.9,gains=levels)"),
    ("rbp_resid", "-", "RBPresid(p=0.9)"),
    ("unj_K", "-", "Unjudged@K"),
)

#: trec_eval names without a cutoff -> engine name (the rows of TRANSLATIONS above).
_TREC_EVAL_PLAIN = {
    "num_q": "NumQ", "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet",
    "num_nonrel_judged_ret": "NumNonrelJudgedRet", "Rprec": "Rprec", "bpref": "Bpref", "infAP": "infAP",
    "11pt_avg": "IPrecAvg", "set_P": "SetP", "set_recall": "SetR", "set_relative_P": "SetRelP", "set_map": "SetAP",
    "set_F": "SetF", "utility": "utility", "binG": "binG", "G": "G(gains=levels)", "dcg": "MSDCG(gains=levels)",
    "ideal_dcg": "MSIDCG(gains=levels)", "ndcg_rel": "MSnDCGrel(gains=levels)", "Rndcg": "RMSnDCG(gains=levels)",
    "yaap": "yaap", "rbp": "RBPg(p=0.9,gains=levels)", "rbp_resid": "RBPresid(p=0.9)",
}
#: trec_eval names with an integer cutoff (``relative_P_5``) or a number (``iprec_at_recall_0.10``).
_TREC_EVAL_CUT = {"relative_P": "relP@{}", "unj": "Unjudged@{}"}
_TREC_EVAL_X = {"iprec_at_recall": "IPrec(recall={})", "Rprec_mult": "Rprec(mult={})"}
_TREC_X_RE = re.compile(r"^(iprec_at_recall|Rprec_mult|relative_P|unj)[._](\d*\.?\d+)$")
_TREC_REFUSED = {
    "gm_map": "gm_map is the geometric mean of AP over topics, not a per-topic value: ask for logAP (log(max(AP, "
              "0.00001)) per topic) and take exp of its mean, or run python -m helpers trec_eval -m gm_map",
    "gm_bpref": "gm_bpref is the geometric mean of Bpref over topics: ask for logBpref and take exp of its mean, "
                "or run python -m helpers trec_eval -m gm_bpref",
    "relstring": "relstring prints the relevance values of the top documents, not a number: run "
                 "python -m helpers trec_eval -m relstring",
    "runid": "runid is the run's name, not a measure",
}

_TREC_EVAL = {  # trec_eval name -> (engine family, extra parameters, cutoff required)
    "map": ("AP", "", False),
    "map_cut": ("AP", "norm=R", True),
    "recip_rank": ("RR", "", False),
    "P": ("P", "", True),
    "recall": ("R", "", True),
    "success": ("Hit", "", True),
    "ndcg": ("MSnDCG", "", False),
    "ndcg_cut": ("MSnDCG", "", True),
}
_TREC_RE = re.compile(r"^(map|map_cut|recip_rank|P|recall|success|ndcg|ndcg_cut)(?:[._](\d+))?$")
_IRM_RE = re.compile(r"^(?P<name>[^\s()@]+)\s*(?:\((?P<params>[^()]*)\))?\s*(?:@\s*(?P<cutoff>\S+))?$")
_IRM = {"AP": "AP", "RR": "RR", "P": "P", "R": "R", "Success": "Hit", "nDCG": "MSnDCG", "IPrec": "IPrec"}
_REFUSED = {
    "ERR": "ir_measures' ERR is gdeval's (stop probability (2^g - 1)/2^gmax); this engine's ERR/nERR use "
           "NTCIREVAL's g/(gmax + 1): ask for 'nERR@K' or 'ERR@K' under --names ntcireval",
    "RBP": "ir_measures' RBP is binary unless rel= is given; this engine's RBP is graded (divided by "
           "gmax): ask for 'RBP(p=0.8)' under --names ntcireval",
}


def translate(name: str, scheme: str = "trec_eval") -> M.MeasureSpec:
    """The engine measure that a trec_eval or ir_measures name means.

    Parameters
    ----------
    name : str
        E.g. ``"ndcg_cut_10"``, ``"ndcg_cut.10"``, ``"map"``, ``"P_10"``, ``"nDCG@10"``,
        ``"AP(rel=2)"``, ``"AP@100"``.
    scheme : {"trec_eval", "ir_measures", "ntcireval"}
        ``"trec_eval"`` and ``"ir_measures"`` accept both tools' names (they do not collide);
        ``"ntcireval"`` parses the engine's own names.

    Returns
    -------
    MeasureSpec
        The engine's measure, e.g. ``MSnDCG@10`` for ``ndcg_cut_10``.

    Raises
    ------
    ValueError
        For an unknown scheme, a name neither tool uses (the message lists the translations),
        a name that a tool defines differently from this engine (the message says what to ask
        for instead), or bad parameters.

    Examples
    --------
    >>> str(translate("ndcg_cut_10")), str(translate("nDCG@10")), str(translate("map_cut.100"))
    ('MSnDCG@10', 'MSnDCG@10', 'AP(norm=R)@100')
    """
    if scheme not in NAME_SCHEMES:
        raise ValueError(f"names must be one of {NAME_SCHEMES}, got {scheme!r}")
    if not isinstance(name, str):
        raise ValueError(f"a measure name must be a string, got {type(name).__name__}: {name!r}")
    text = name.strip()
    if scheme == "ntcireval":
        return M.MeasureSpec.parse(text)
    trec = _trec_eval_only(text)
    if trec is not None:
        return M.MeasureSpec.parse(trec)
    m = _TREC_RE.match(text)
    if m:
        family, extra, needs_cut = _TREC_EVAL[m.group(1)]
        cut = m.group(2)
        if needs_cut and cut is None:
            raise ValueError(f"{name!r}: trec_eval's {m.group(1)} needs a cutoff, e.g. {m.group(1)}_10")
        if not needs_cut and cut is not None:
            raise ValueError(f"{name!r}: trec_eval's {m.group(1)} takes no cutoff")
        return M.MeasureSpec.parse(family + (f"({extra})" if extra else "") + (f"@{cut}" if cut else ""))
    m = _IRM_RE.match(text)
    if m is None:
        raise ValueError(_unknown(name))
    family, params, cutoff = m.group("name"), (m.group("params") or "").strip(), m.group("cutoff")
    if family in _REFUSED:
        raise ValueError(f"{name!r}: {_REFUSED[family]}")
    if family in _IRM:
        engine = _IRM[family]
        if engine == "MSnDCG" and params:
            raise ValueError(f"{name!r}: ir_measures' nDCG options (dcg=, gains=, judged_only=) are not "
                             "supported; nDCG@K with linear gains is this engine's MSnDCG@K")
        parts = [p for p in params.split(",") if p.strip()] if params else []
        if family == "AP" and cutoff is not None:
            parts.append("norm=R")  # ir_measures AP@K = trec_eval map_cut: divide by R
        if family == "IPrec":       # ir_measures IPrec@0.1: pytrec_eval's (trec_eval 9) recall cut
            if cutoff is None:
                raise ValueError(f"{name!r}: ir_measures' IPrec needs a recall level, e.g. IPrec@0.1")
            parts += [f"recall={cutoff}", "rounding=v9"]
            cutoff = None
        text = engine + (f"({','.join(parts)})" if parts else "") + (f"@{cutoff}" if cutoff else "")
        return M.MeasureSpec.parse(text)
    if family in M.MEASURES and family not in ("nDCG", "ERR"):
        return M.MeasureSpec.parse(text)  # engine names no other tool uses differently
    raise ValueError(_unknown(name))


def _trec_eval_only(text: str) -> str | None:
    """The engine name of a trec_eval measure that NTCIREVAL lacks, or None if ``text`` is not one."""
    if text in _TREC_REFUSED:
        raise ValueError(f"{text!r}: {_TREC_REFUSED[text]}")
    if text in _TREC_EVAL_PLAIN:
        return _TREC_EVAL_PLAIN[text]
    m = _TREC_X_RE.match(text)
    if m is None:
        return None
    family, value = m.groups()
    if family in _TREC_EVAL_CUT:
        if not value.isdigit():
            raise ValueError(f"{text!r}: trec_eval's {family} takes an integer cutoff, e.g. {family}_10")
        return _TREC_EVAL_CUT[family].format(int(value))
    return _TREC_EVAL_X[family].format(value)


def _unknown(name: str) -> str:
    rows = "; ".join(f"{t} / {i} -> {e}" for t, i, e in TRANSLATIONS)
    return (f"unknown trec_eval/ir_measures measure {name!r}; translated: {rows}; engine names such as "
            "Q, P+, MSnDCG@K, nERR@K pass through (use --names ntcireval for all engine names)")
