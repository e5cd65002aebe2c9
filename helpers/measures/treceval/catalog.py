"""trec_eval's measures by their trec_eval names: parameters, printed names, averaging, and the
engine measure behind each value (trec_eval 10, ``measures.c``, ``meas_init.c``, ``meas_avg.c``).

:data:`CATALOG` lists every measure of trec_eval in the order trec_eval computes and prints them;
:data:`META_NAMES` its nicknames (``official``, ``all_trec``, ``set``, ``all_prefs``, ``prefs``,
``qrels_jg``). :func:`expand` turns a measure and its command-line parameters (``P.5,10``,
``ndcg.1=3,2=9``, ``utility.2,-1,0,0``) into the values trec_eval prints: their names (``P_5``,
``ndcg_1=3,2=9``) and the engine measure that computes each (``P@5``,
``MSnDCGg(gains=1:3;2:9)``).

Parameters are numbers as C writes them (``.10`` is 0.1, ``1e1`` 10); cutoffs are sorted and must be
positive and distinct; what trec_eval refuses is refused here with its reason. What trec_eval
would read into another number without a word is refused too, naming the parameter: a cutoff
that is not a number (``atol``: ``x`` and an empty item ``P.5,,10`` are 0, ``1e3`` is 1; ``23.4``
is cut to 23 as trec_eval does), a
coefficient, point or gain that is not a number (``atof``: ``x`` is 0, ``nan``), a gain pair whose
name is not an integer level (trec_eval ignores ``ndcg.x=3``; ``p`` is rbp's persistence), a gain
level named twice (``ndcg.1=5,01=2``: trec_eval counts the level's documents under one pair and may
give them the other's gain). Gains that trec_eval 10 sorts wrongly are refused by the command
(:mod:`.gainorder`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["TrecMeasure", "CATALOG", "BY_NAME", "META_NAMES", "Value", "expand", "atol", "atof",
           "ENGINE_NAMES", "IR_MEASURES_NAMES"]


#: The range of C's ``long`` on the 64-bit systems trec_eval is built on: beyond it ``atol`` is undefined.
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


def atol(text: str) -> int:
    """C's ``atol``: the integer at the start of ``text`` (after blanks), 0 if there is none."""
    m = re.match(r"\s*([+-]?[0-9]+)", text)
    return int(m.group(1)) if m else 0


_C_SPACE = " \t\n\v\f\r"
_HEX = re.compile(r"([+-]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)")
_SPECIAL = re.compile(r"([+-]?)(inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)", re.IGNORECASE)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def atof(text: str) -> float:
    """C's ``atof`` (``strtod``, C99 and glibc): after C blanks, the longest prefix that is a
    hexadecimal number (``0x10`` is 16, ``0x1p3`` 8), ``inf``/``infinity``/``nan`` (any case,
    ``nan(...)``) or a decimal number; 0 when there is none. Out of range: +-inf (HUGE_VAL)."""
    t = text.lstrip(_C_SPACE)
    m = _HEX.match(t)
    if m:
        try:
            value = float.fromhex("0x" + m.group(2))
        except OverflowError:
            value = math.inf
        return -value if m.group(1) == "-" else value
    m = _SPECIAL.match(t)
    if m:
        value = math.nan if m.group(2)[0] in "nN" else math.inf
        return -value if m.group(1) == "-" else value
    m = _DECIMAL.match(t)
    return float(m.group(0)) if m else 0.0


@dataclass(frozen=True)
class TrecMeasure:
    """One measure of trec_eval.

    ``kind`` is how trec_eval stores, names and prints it: ``"double"``/``"long"`` (one value),
    ``"cut_long"``/``"cut_double"`` (one value per cutoff, named ``name_5`` / ``name_0.20``),
    ``"params"`` (one value, a list of numbers appended to the name when given), ``"pairs"``
    (``name=value`` parameters), and the special ``"runid"``, ``"relstring"``. ``average`` is
    ``"mean"``, ``"sum"`` (trec_eval prints the total), ``"gm"`` (geometric mean), ``"count"``
    (num_q) or ``"none"``. ``per_query`` says whether ``-q`` prints it per topic. ``source`` is
    the input it needs: ``"qrels"``, ``"qrels_jg"``, ``"prefs"`` (prefs or qrels_prefs), ``"any"``.
    """

    name: str
    kind: str
    default: tuple = ()
    average: str = "mean"
    per_query: bool = True
    source: str = "qrels"
    engine: str = ""


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_MULT = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)

CATALOG: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", "runid", average="none", per_query=False, source="any"),
    TrecMeasure("num_q", "long", average="count", per_query=False, source="any", engine="NumQ"),
    TrecMeasure("num_ret", "long", average="sum", engine="NumRet"),
    TrecMeasure("num_rel", "long", average="sum", engine="NumRel"),
    TrecMeasure("num_rel_ret", "long", average="sum", engine="NumRelRet"),
    TrecMeasure("map", "double", engine="AP"),
    TrecMeasure("gm_map", "double", average="gm", per_query=False, engine="logAP"),
    TrecMeasure("Rprec", "double", engine="Rprec"),
    TrecMeasure("bpref", "double", engine="Bpref"),
    TrecMeasure("recip_rank", "double", engine="RR"),
    TrecMeasure("iprec_at_recall", "cut_double", _RECALL, engine="IPrec(recall={x})"),
    TrecMeasure("P", "cut_long", _CUTS, engine="P@{k}"),
    TrecMeasure("relstring", "relstring", (10.0,), average="none"),
    TrecMeasure("recall", "cut_long", _CUTS, engine="R@{k}"),
    TrecMeasure("infAP", "double", engine="infAP"),
    TrecMeasure("gm_bpref", "double", average="gm", per_query=False, engine="logBpref"),
    TrecMeasure("Rprec_mult", "cut_double", _MULT, engine="Rprec(mult={x})"),
    TrecMeasure("utility", "params", (1.0, -1.0, 0.0, 0.0), engine="utility"),
    TrecMeasure("11pt_avg", "params", _RECALL, engine="IPrecAvg"),
    TrecMeasure("binG", "double", engine="binG"),
    TrecMeasure("G", "pairs", engine="G"),
    TrecMeasure("dcg", "pairs", engine="MSDCG"),
    TrecMeasure("ideal_dcg", "pairs", engine="MSIDCG"),
    TrecMeasure("ndcg", "pairs", engine="MSnDCG"),
    TrecMeasure("ndcg_rel", "pairs", engine="MSnDCGrel"),
    TrecMeasure("Rndcg", "pairs", engine="RMSnDCG"),
    TrecMeasure("ndcg_cut", "cut_long", _CUTS, engine="MSnDCG@{k}"),
    TrecMeasure("map_cut", "cut_long", _CUTS, engine="AP(norm=R)@{k}"),
    TrecMeasure("relative_P", "cut_long", _CUTS, engine="relP@{k}"),
    TrecMeasure("success", "cut_long", (1, 5, 10), engine="Hit@{k}"),
    TrecMeasure("set_P", "double", engine="SetP"),
    TrecMeasure("set_relative_P", "double", engine="SetRelP"),
    TrecMeasure("set_recall", "double", engine="SetR"),
    TrecMeasure("set_map", "double", engine="SetAP"),
    TrecMeasure("set_F", "params", (1.0,), engine="SetF"),
    TrecMeasure("num_nonrel_judged_ret", "long", average="sum", engine="NumNonrelJudgedRet"),
    TrecMeasure("prefs_num_prefs_poss", "long", average="sum", source="prefs"),
    TrecMeasure("prefs_num_prefs_ful", "long", average="sum", source="prefs"),
    TrecMeasure("prefs_num_prefs_ful_ret", "long", average="sum", source="prefs"),
    TrecMeasure("prefs_simp", "double", source="prefs"),
    TrecMeasure("prefs_pair", "double", source="prefs"),
    TrecMeasure("prefs_avgjg", "double", source="prefs"),
    TrecMeasure("prefs_avgjg_Rnonrel", "double", source="prefs"),
    TrecMeasure("prefs_simp_ret", "double", source="prefs"),
    TrecMeasure("prefs_pair_ret", "double", source="prefs"),
    TrecMeasure("prefs_avgjg_ret", "double", source="prefs"),
    TrecMeasure("prefs_avgjg_Rnonrel_ret", "double", source="prefs"),
    TrecMeasure("prefs_simp_imp", "double", source="prefs"),
    TrecMeasure("prefs_pair_imp", "double", source="prefs"),
    TrecMeasure("prefs_avgjg_imp", "double", source="prefs"),
    TrecMeasure("map_avgjg", "double", source="qrels_jg", engine="AP"),
    TrecMeasure("P_avgjg", "cut_long", _CUTS, source="qrels_jg", engine="P@{k}"),
    TrecMeasure("Rprec_mult_avgjg", "cut_double", _MULT, source="qrels_jg", engine="Rprec(mult={x})"),
    TrecMeasure("yaap", "double", engine="yaap"),
    TrecMeasure("rbp", "pairs", engine="RBPg"),
    TrecMeasure("rbp_resid", "pairs", engine="RBPresid"),
    TrecMeasure("unj", "cut_long", (5, 10, 20), engine="Unjudged@{k}"),
)

BY_NAME = {m.name: m for m in CATALOG}

_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
             "recip_rank", "iprec_at_recall", "P")
META_NAMES: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_trec": _OFFICIAL + ("relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                             "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut",
                             "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P",
                             "set_map", "set_F", "num_nonrel_judged_ret"),
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                  "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret",
                  "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
                  "prefs_pair_imp", "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
              "prefs_simp", "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}


@dataclass(frozen=True)
class Value:
    """One value trec_eval prints for a measure: its printed name and the engine measure (None
    for runid, relstring and the preference measures, computed elsewhere)."""

    name: str
    engine: str | None


_INT = re.compile(r"[+-]?[0-9]+")
_NUM = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _items(text: str, what: str) -> list[str]:
    items = text.split(",")
    if any(t == "" for t in items):
        raise ValueError(f"an empty {what} in '{text}' (two commas, or a comma at an end); trec_eval would read "
                         f"it as 0")
    return items


def _integer(t: str, what: str, text: str) -> int:
    """An integer, or a decimal that trec_eval's ``atol`` truncates (``23.4`` is 23: its own test
    suite writes ``ndcg_cut.10,20,23.4``); anything else (``x``, ``1e3``, which atol reads as 1) is refused."""
    if not re.fullmatch(r"[+-]?[0-9]+(?:\.[0-9]*)?", t):
        raise ValueError(f"{what} {t!r} in '{text}' is not an integer (trec_eval's atol would read it as "
                         f"{atol(t)})")
    value = atol(t)
    if not LONG_MIN <= value <= LONG_MAX:
        raise ValueError(f"{what} {t!r} in '{text}' is beyond the range of trec_eval's integers (a C long, up to "
                         f"{LONG_MAX}), where its atol is undefined (glibc's reads {LONG_MAX if value > 0 else LONG_MIN})")
    return value


def _shown(x: float) -> str:
    """A float as its shortest exact text, without a trailing ``.0`` (``16``, ``0.1``, ``inf``)."""
    text = repr(x)
    return text[:-2] if text.endswith(".0") else text


def _number(t: str, what: str, text: str) -> float:
    if not _NUM.fullmatch(t):
        if t.strip().lstrip("+-").lower() in ("nan", "inf", "infinity"):
            raise ValueError(f"{what} {t!r} in '{text}' is not a finite number")
        if _HEX.fullmatch(t):
            raise ValueError(f"{what} {t!r} in '{text}' is a hexadecimal number, which this command does not read "
                             f"(trec_eval's atof reads it as {_shown(atof(t))}); write it in decimal digits")
        raise ValueError(f"{what} {t!r} in '{text}' is not a number (trec_eval's atof would read it as "
                         f"{_shown(atof(t))})")
    return float(t)


def _cutoffs_long(text: str) -> list[int]:
    cuts = sorted(_integer(t, "cutoff", text) for t in _items(text, "cutoff"))
    if cuts[0] <= 0:
        raise ValueError(f"cutoffs are ranks from 1, got {cuts[0]} in '{text}' (trec_eval refuses it too"
                         + (")" if cuts[0] == 0 else ": 'Negative cutoff detected')"))
    if len(set(cuts)) != len(cuts):
        raise ValueError("cutoffs must be distinct (trec_eval: 'duplicate cutoffs detected')")
    _refuse_missorted(cuts, text)
    return cuts


def _c_int(x: int) -> int:
    """``(int) x`` of a C long: its low 32 bits, signed (gcc and clang on every 64-bit target)."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def _refuse_missorted(cuts: list[int], text: str) -> None:
    """trec_eval sorts cutoffs with ``comp_long`` (``meas_init.c``), which returns the longs'
    difference cast to an ``int``: two cutoffs whose difference's low 32 bits have the wrong sign
    (e.g. 1 and 3000000000) compare the wrong way, qsort may leave them out of order, and trec_eval
    then prints each value under another cutoff's name. Refused (cutoffs whose differences stay
    below 2^31 always sort right)."""
    for i, a in enumerate(cuts):
        for b in cuts[i + 1:]:
            if _c_int(a - b) >= 0:          # a < b, so trec_eval's comparison must be negative
                raise ValueError(f"cutoffs {a} and {b} in '{text}' differ by {b - a}, which trec_eval's sort "
                                 "compares through a C int (comp_long keeps the difference's low 32 bits): it "
                                 "takes them for equal or the wrong way round and may print values under the "
                                 "wrong cutoffs' names; "
                                 "give cutoffs less than 2^31 apart, or evaluate them in separate -m options")


def _cutoffs_double(text: str) -> list[float]:
    cuts = sorted(_number(t, "cutoff", text) for t in _items(text, "cutoff"))
    if len(set(cuts)) != len(cuts):
        raise ValueError("cutoffs must be distinct (trec_eval: 'duplicate cutoffs detected')")
    return cuts


def _pairs(text: str, m: TrecMeasure | None = None) -> list[tuple[str, float]]:
    """trec_eval's ``name=value,name=value`` (``get_param_pairs``): names are integer levels (and
    ``p`` for rbp, rbp_resid), values numbers."""
    items = text.split(",")
    out = []
    for item in items:
        if item.count("=") != 1 or not item.split("=")[0]:
            raise ValueError(f"malformed pair parameters in {text!r}: expected name=value items separated by ','")
        name, value = item.split("=")
        if not (_INT.fullmatch(name) or (name == "p" and m is not None and m.name in ("rbp", "rbp_resid"))):
            allowed = "an integer level" + (" or p" if m is not None and m.name in ("rbp", "rbp_resid") else "")
            raise ValueError(f"parameter name {name!r} in '{text}' is not {allowed}; trec_eval would ignore the "
                             "pair without a word")
        if name != "p":
            _integer(name, "gain level", text)   # trec_eval's atol: a C long
        out.append((name, _number(value, f"value of {name}", text)))
    return out


def _fmt(x: float) -> str:
    return repr(float(x))


def _pair_spec(m: TrecMeasure, pairs: list[tuple[str, float]]) -> str:
    """The engine measure of a pairs measure: integer names are level gains, ``p`` rbp's persistence."""
    gains: dict[int, float] = {}
    for n, v in pairs:
        if re.fullmatch(r"[+-]?[0-9]+", n):
            if int(n) in gains:
                raise ValueError(f"gain level {int(n)} given twice in '{','.join(f'{a}={b:g}' for a, b in pairs)}': "
                                 "trec_eval would count its documents under the first pair but give them the "
                                 "gain of whichever pair its sort puts first (get_gain), without a word; give "
                                 "each level once")
            gains[int(n)] = v
    parts = []
    if [n for n, _ in pairs].count("p") > 1:
        raise ValueError(f"p given twice in '{','.join(f'{a}={b:g}' for a, b in pairs)}': trec_eval would use the "
                         "last one without a word; give p once")
    if m.name in ("rbp", "rbp_resid"):
        p = next((v for n, v in pairs if n == "p"), 0.9)
        parts.append(f"p={_fmt(p)}")
    if m.name != "rbp_resid" and (gains or m.name != "ndcg"):
        text = ";".join(f"{lv}:{_fmt(g)}" for lv, g in gains.items()) if gains else "levels"
        parts.append(f"gains={text}")
    engine = "MSnDCGg" if m.name == "ndcg" and gains else m.engine
    return engine + (f"({','.join(parts)})" if parts else "")


def expand(m: TrecMeasure, params: str | None, *, docs: int = 0) -> list[Value]:
    """The values trec_eval prints for measure ``m`` given its ``-m name.params`` (None: defaults).

    Parameters
    ----------
    m : TrecMeasure
    params : str or None
        The text after the first ``.`` of ``-m`` (e.g. ``"5,10"``, ``"1=3,2=9"``), or None.
    docs : int
        trec_eval ``-N`` (documents in the collection), used by utility.

    Returns
    -------
    list of Value

    Raises
    ------
    ValueError
        For parameters trec_eval refuses (non-positive or repeated cutoffs, malformed pairs,
        utility without four numbers, 11pt_avg without a point).
    """
    values = _expand(m, params, docs=docs)
    # a value outside the measure's domain: said with the -m argument (the measures whose parameters
    # have a domain; never the numpy-free path's measures, whose cutoffs are checked above)
    if params is not None and (m.kind in ("pairs", "params") or m.name == "Rprec_mult"):
        from ..spec import MeasureSpec

        for v in values:
            try:
                MeasureSpec.parse(v.engine) if v.engine and not v.engine.startswith("relstring") else None
            except ValueError as exc:
                text = str(exc).split(": ", 1)[-1] if str(exc).startswith("'") else str(exc)
                raise ValueError(f"-m {m.name}.{params}: {text}") from None
    return values


def _expand(m: TrecMeasure, params: str | None, *, docs: int = 0) -> list[Value]:
    given = params is not None
    if m.kind == "cut_long":
        cuts = _cutoffs_long(params) if given else list(m.default)
        return [Value(f"{m.name}_{k}", m.engine.format(k=k)) for k in cuts]
    if m.kind == "cut_double":
        cuts = _cutoffs_double(params) if given else list(m.default)
        # append_double: snprintf into strlen(name) + 10 bytes keeps 8 characters after the '_'
        return [Value(f"{m.name}_{f'{x:3.2f}'[:8]}", m.engine.format(x=_fmt(x))) for x in cuts]
    if given and m.kind in ("double", "long", "runid"):
        raise ValueError(f"measure '{m.name}' takes no parameters, got '.{params}'; trec_eval would ignore "
                         f"them without a word and print '{m.name}': leave them out"
                         + (f" (cutoffs: {m.name}_cut.{params})" if f"{m.name}_cut" in BY_NAME else ""))
    name = f"{m.name}_{params}" if given else m.name
    if m.kind == "params":
        values = [_number(t, "parameter", params) for t in _items(params, "parameter")] if given \
            else list(m.default)
        if m.name == "utility":
            if len(values) != 4:
                raise ValueError("utility needs four coefficients (trec_eval: 'improper number of coefficients')")
            a, b, c, d = values
            return [Value(name, f"utility(a={_fmt(a)},b={_fmt(b)},c={_fmt(c)},d={_fmt(d)},docs={docs})")]
        if m.name == "11pt_avg":
            return [Value(name, "IPrecAvg(recall=" + ":".join(_fmt(x) for x in values) + ")")]
        return [Value(name, f"SetF(beta={_fmt(values[0])})")]
    if m.kind == "pairs":
        return [Value(name, _pair_spec(m, _pairs(params, m) if given else []))]
    if m.kind == "relstring":
        length = _number(_items(params, "length")[0], "length", params) if given else 10.0
        if not -(2.0**63) <= length < 2.0**63:
            raise ValueError(f"relstring length {params!r} is beyond a C long once read as a double; trec_eval's "
                             "(long) cast of it is undefined (x86 reads a negative length and prints '', other "
                             "machines the whole list): give a length below 9223372036854775296")
        return [Value(name, f"relstring:{int(length)}")]
    return [Value(name, m.engine or None)]


#: trec_eval name -> engine name, for names.translate and the README (value names with the
#: cutoff or parameter as ``K``/``x``).
ENGINE_NAMES: dict[str, str] = {
    "num_q": "NumQ", "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet", "map": "AP",
    "gm_map": "logAP (geometric mean over topics)", "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR",
    "iprec_at_recall_x": "IPrec(recall=x)", "P_K": "P@K", "recall_K": "R@K", "infAP": "infAP",
    "gm_bpref": "logBpref (geometric mean over topics)", "Rprec_mult_x": "Rprec(mult=x)",
    "utility": "utility(a=1,b=-1,c=0,d=0)", "11pt_avg": "IPrecAvg", "binG": "binG", "G": "G(gains=levels)",
    "dcg": "MSDCG(gains=levels)", "ideal_dcg": "MSIDCG(gains=levels)", "ndcg": "MSnDCG",
    "ndcg.1=3,2=9": "MSnDCGg(gains=1:3;2:9)", "ndcg_rel": "MSnDCGrel(gains=levels)",
    "Rndcg": "RMSnDCG(gains=levels)", "ndcg_cut_K": "MSnDCG@K", "map_cut_K": "AP(norm=R)@K",
    "relative_P_K": "relP@K", "success_K": "Hit@K", "set_P": "SetP", "set_relative_P": "SetRelP",
    "set_recall": "SetR", "set_map": "SetAP", "set_F": "SetF(beta=1)",
    "num_nonrel_judged_ret": "NumNonrelJudgedRet", "yaap": "yaap", "rbp": "RBPg(p=0.9,gains=levels)",
    "rbp_resid": "RBPresid(p=0.9)", "unj_K": "Unjudged@K",
}

#: trec_eval name -> ir_measures name, where ir_measures has the measure (computed by pytrec_eval).
IR_MEASURES_NAMES: dict[str, str] = {
    "num_q": "NumQ", "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet", "map": "AP",
    "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR", "iprec_at_recall_x": "IPrec@x", "P_K": "P@K",
    "recall_K": "R@K", "infAP": "infAP", "ndcg": "nDCG", "ndcg_cut_K": "nDCG@K", "map_cut_K": "AP@K",
    "success_K": "Success@K", "set_P": "SetP", "set_recall": "SetR", "set_map": "SetAP", "set_F": "SetF",
}
