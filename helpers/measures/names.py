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

:func:`resolve` reads a list of names the way :func:`helpers.measures.evaluate` and the command
line do under a naming scheme (:mod:`helpers.measures.conventions`): under NTCIREVAL names it also
recognises trec_eval/ir_measures names that are no engine name (``map``, ``ndcg_cut_10``), and, when
no convention was chosen, says once per session (:class:`AmbiguousNameWarning`) when a name means
another measure in ir_measures (:data:`AMBIGUOUS`: ``nDCG@K``, ``AP@K``, ``ERR``, ``RBP``) or is a
trec_eval name evaluated under NTCIREVAL's topic rules.
"""

from __future__ import annotations

import re

from ..paths import COMMAND
from . import spec as M
from .notices import warn_caller

__all__ = ["translate", "resolve", "TRANSLATIONS", "NAME_SCHEMES", "AMBIGUOUS", "AmbiguousNameWarning",
           "WARNED"]

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
_TREC_X_RE = re.compile(r"^(iprec_at_recall|Rprec_mult|relative_P|unj)[._]([0-9]*\.?[0-9]+)$")
_TREC_REFUSED = {
    "gm_map": "gm_map is the geometric mean of AP over topics, not a per-topic value: ask for logAP (log(max(AP, "
              "0.00001)) per topic) and take exp of its mean, or run " + COMMAND + " trec_eval -m gm_map",
    "gm_bpref": "gm_bpref is the geometric mean of Bpref over topics: ask for logBpref and take exp of its mean, "
                "or run " + COMMAND + " trec_eval -m gm_bpref",
    "relstring": "relstring prints the relevance values of the top documents, not a number: run "
                 + COMMAND + " trec_eval -m relstring",
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
_TREC_RE = re.compile(r"^(map|map_cut|recip_rank|P|recall|success|ndcg|ndcg_cut)(?:[._]([0-9]+))?$")
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
        if not (value.isascii() and value.isdigit()):
            raise ValueError(f"{text!r}: trec_eval's {family} takes an integer cutoff, e.g. {family}_10")
        return _TREC_EVAL_CUT[family].format(int(value))
    return _TREC_EVAL_X[family].format(value)


def _unknown(name: str) -> str:
    rows = "; ".join(f"{t} / {i} -> {e}" for t, i, e in TRANSLATIONS)
    return (f"unknown trec_eval/ir_measures measure {name!r}; translated (helpers.measures.names.translate): "
            f"{rows}; engine names such as Q, P+, MSnDCG@K, nERR@K pass through (names='ntcireval', "
            "--names ntcireval, reads every engine name)")


# ---------------------------------------------------------------------------------------------
# Names as evaluate() and the command line read them: one scheme, ambiguous names said once
# ---------------------------------------------------------------------------------------------

class AmbiguousNameWarning(UserWarning):
    """A measure name read with this engine's (NTCIREVAL's) meaning where ir_measures, ranx,
    PyTerrier or trec_eval users mean another measure, or a trec_eval name evaluated under the
    NTCIREVAL conventions. Issued once per name and session, only when no convention was chosen."""


#: Engine names that ir_measures (and ranx, PyTerrier) use for another measure: the key, and
#: what to say. ``{name}`` is the name as written, ``{other}`` the engine name of the other one.
AMBIGUOUS: dict[str, str] = {
    "nDCG": ("{name!r} is NTCIREVAL's original nDCG (Jarvelin & Kekalainen as Sakai computes it: no "
             "discount up to rank b = 2, gain/log2(r) after), not the nDCG of ir_measures, ranx, "
             "PyTerrier and trec_eval's ndcg_cut (gain/log2(r+1) at every rank): ask for {other!r} for "
             "that one."),
    "AP@K": ("{name!r} is NTCIREVAL's AP at a cutoff, divided by min(K, R); ir_measures' AP@K "
             "(trec_eval map_cut_K) divides by R: ask for {other!r} for that one."),
    "ERR": ("{name!r} is NTCIREVAL's ERR (stop probability g/(gmax+1)); ir_measures' ERR is gdeval's "
            "(stop probability (2^g-1)/2^gmax), which this engine does not compute."),
    "RBP": ("{name!r} is NTCIREVAL's graded RBP (gains divided by gmax); ir_measures' RBP counts every "
            "relevant document as 1 unless rel= is given (here: gains mapping every relevant level "
            "to 1, e.g. gains='1:1:1')."),
}

#: Keys already warned about in this session (one warning per ambiguous name, as promised).
WARNED: set[str] = set()

_HOW = (" Pass conventions='trec_eval' to read every name as ir_measures does, or "
        "conventions='ntcireval' to keep NTCIREVAL's meaning and silence this warning (shown once "
        "per session).")


def _ambiguity(spec: M.MeasureSpec) -> tuple[str, str] | None:
    """(key of :data:`AMBIGUOUS`, the other measure's engine name) for an ambiguous engine name."""
    cut = f"@{spec.cutoff}" if spec.cutoff is not None else ""
    explicit = dict(spec.params)
    if spec.name == "nDCG" and not explicit:
        return "nDCG", f"MSnDCG{cut}"
    if spec.name == "AP" and spec.cutoff is not None and "norm" not in explicit:
        rel = f",rel={M.format_value(explicit['rel'])}" if "rel" in explicit else ""
        return "AP@K", f"AP(norm=R{rel}){cut}"
    if spec.name in ("ERR", "RBP") and not explicit:
        return spec.name, f"{spec.name}{cut}"
    return None


def _say_once(key: str, message: str) -> None:
    if key not in WARNED:
        WARNED.add(key)
        warn_caller(message, AmbiguousNameWarning)


def _engine_or_foreign(token: str, warn: bool) -> tuple[str, M.MeasureSpec, bool]:
    """One name under the NTCIREVAL scheme: an engine name, or a trec_eval/ir_measures name that
    is not an engine name (``map``, ``ndcg_cut_10``, ``P_10``, ``Success@10``), recognised.
    Returns the label, the engine measure and whether the name was a foreign one."""
    family = M.expand_ntcir_aliases(token).split("(", 1)[0].split("@", 1)[0].strip()
    if family in M.MEASURES:
        spec = M.MeasureSpec.parse(token)
        amb = _ambiguity(spec) if warn else None
        if amb is not None:
            key, other = amb
            _say_once(key, AMBIGUOUS[key].format(name=token, other=other) + _HOW)
        return str(spec), spec, False
    try:
        return token, translate(token, "trec_eval"), True
    except ValueError as exc:
        if not str(exc).startswith("unknown trec_eval/ir_measures"):
            raise
    rows = "; ".join(f"{t} / {i} -> {e}" for t, i, e in TRANSLATIONS)
    raise ValueError(
        f"unknown measure {token!r}: neither a name of this engine (NTCIREVAL's) nor a trec_eval/ir_measures "
        f"name that helpers.measures.names.translate knows. Engine names: "
        + ", ".join(d.usage() for d in M.MEASURES.values())
        + f". trec_eval / ir_measures names read: {rows}") from None


def _say_foreign(named: list[tuple[str, M.MeasureSpec]]) -> None:
    _say_once("foreign", (
        ", ".join(repr(lab) for lab, _ in named) + " " + ("is a trec_eval/ir_measures name" if len(named) == 1
                                                         else "are trec_eval/ir_measures names")
        + ", evaluated as this engine's " + ", ".join(repr(str(s)) for _, s in named)
        + " under the ntcireval conventions (lists in rank order, topics without a relevant document left out, "
        "unanswered topics 0), which can differ from trec_eval's numbers: pass conventions='trec_eval' for "
        "those, or conventions='ntcireval' to keep these and silence this warning (shown once per session)."))


def resolve(measures, scheme: str = "ntcireval", *, warn: bool = False) -> list[tuple[str, M.MeasureSpec]]:
    """(label, engine measure) for each measure name, read under a naming scheme.

    Parameters
    ----------
    measures : str, MeasureSpec or iterable of them
        Names; a string may hold several separated by spaces or commas. A :class:`MeasureSpec` is
        an engine measure whatever the scheme.
    scheme : {"ntcireval", "trec_eval", "ir_measures"}
        ``"ntcireval"``: the engine's (NTCIREVAL's) names; a name that is not one but is a
        trec_eval or ir_measures name (``map``, ``ndcg_cut_10``, ``P_10``, ``Success@10``) is
        recognised through :func:`translate`. ``"trec_eval"``/``"ir_measures"``: every name
        through :func:`translate`, so ``nDCG@10`` is what ir_measures computes.
    warn : bool
        Under ``"ntcireval"``: warn (:class:`AmbiguousNameWarning`, once per name and session)
        when a name means another measure in ir_measures (:data:`AMBIGUOUS`) or is a trec_eval
        name evaluated under NTCIREVAL's conventions. :func:`helpers.measures.evaluate` sets it
        when no convention was chosen.

    Returns
    -------
    list of (str, MeasureSpec)
        The label of each measure in result tables (the engine's canonical name for engine
        names; the name as written for trec_eval/ir_measures names) and the engine measure;
        repeated labels are dropped.

    Raises
    ------
    ValueError
        For an unknown scheme, an empty selection, or a name no scheme knows (the message points
        to :func:`translate`).
    """
    if scheme not in NAME_SCHEMES:
        raise ValueError(f"names must be one of {NAME_SCHEMES}, got {scheme!r}")
    items = [measures] if isinstance(measures, (str, M.MeasureSpec)) else list(measures)
    out, seen, foreign = [], set(), []
    for item in items:
        if isinstance(item, M.MeasureSpec):
            pairs = [(str(M.MeasureSpec.parse(item)), M.MeasureSpec.parse(item))]
        elif not isinstance(item, str):
            raise ValueError(f"a measure name must be a string, got {type(item).__name__}: {item!r}")
        elif scheme == "ntcireval":
            found = [_engine_or_foreign(t, warn) for t in M.split_top_level(M.expand_ntcir_aliases(item))]
            pairs = [(lab, spec) for lab, spec, _ in found]
            foreign += [(lab, spec) for lab, spec, is_foreign in found if is_foreign]
        else:
            pairs = [(t, translate(t, scheme)) for t in M.split_top_level(item)]
        for label, spec in pairs:
            if label not in seen:
                seen.add(label)
                out.append((label, spec))
    if not out:
        raise ValueError("no measure given; e.g. measures=['AP', 'Q', 'nDCG@10']")
    if warn and foreign:
        _say_foreign(foreign)
    return out
