"""Measure names: the registry of measure families and the parser of names such as ``Q@10``.

Measure names follow NTCIREVAL (Sakai): parameters in parentheses, cutoff after ``@``, e.g.
``Q``, ``Q@10``, ``Q(beta=0.5)``, ``nDCG(b=10)@10``, ``RBP(p=0.8)``, ``iRBU(p=0.99)@10``.
:class:`MeasureSpec` parses such names and is reusable by other modules with their own
registry of :class:`MeasureDef` entries.

**Relevance threshold** ``rel``. The binary measures ``AP``, ``RR``, ``P``, ``R`` and ``Hit``
accept ``rel=k`` with ir_measures' meaning: levels below ``k`` are non-relevant, so
``AP(rel=2)`` is trec_eval's ``-l 2 -m map`` and ``R`` counts the documents at level ``>= k``.
Graded measures (Q, P+, nDCG, MSnDCG, nERR, RBP, ...) refuse ``rel=`` with an error: their gains
come from the gain mapping, and trec_eval's ``-l`` leaves ``ndcg`` alone too. ``rel=`` needs
relevance levels (not a ``gain`` column). The threshold a collection defines is in
:func:`helpers.data.thresholds.relevance_threshold` (TREC DL-19 passage: 2).

**Names of other tools.** NTCIREVAL's names are kept; ``nDCG`` here is the *original* nDCG.

=================  ======================  ======================  =========================
this engine         trec_eval               ir_measures             note
=================  ======================  ======================  =========================
``AP``              ``map``                 ``AP``                  whole list, divisor R
``AP(norm=R)@10``   ``map_cut_10``          ``AP@10``               ``AP@10`` here divides by min(10, R)
``AP(rel=2)``       ``-l 2 -m map``         ``AP(rel=2)``
``RR``              ``recip_rank``          ``RR``
``P@10``            ``P_10``                ``P@10``
``R@10``            ``recall_10``           ``R@10``
``Hit@10``          ``success_10``          ``Success@10``
``MSnDCG@10``       ``ndcg_cut_10``         ``nDCG@10``             gain/log2(r+1) at every rank
``MSnDCG``          ``ndcg``                ``nDCG``
``nDCG@10``         none                    none                    NTCIREVAL's original nDCG
=================  ======================  ======================  =========================

:func:`helpers.measures.names.translate` maps trec_eval and ir_measures names onto these
(``python -m helpers evaluate --names trec_eval``). trec_eval's measures that NTCIREVAL lacks
(``infAP``, ``Rprec``, ``IPrec(recall=x)``, ``Bpref``, ``SetF``, ``G``, ...) are registered here
from :mod:`helpers.measures.treceval.defs` and computed by :mod:`helpers.measures.treceval`.

:mod:`helpers.measures.kernels` computes the measures, :mod:`helpers.measures.adhoc` evaluates
tidy qrels and runs with them; both take the :class:`MeasureSpec` objects parsed here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from .treceval.defs import TREC_FAMILIES

__all__ = [
    "CUTOFF_POLICIES",
    "MeasureDef",
    "MeasureSpec",
    "MEASURES",
    "REL_PARAM",
    "CONDENSED_ONLY",
    "GAIN_TOTAL_LIMIT",
    "parse_measures",
    "parse_gain_spec",
    "with_default_rel",
    "split_top_level",
    "expand_ntcir_aliases",
    "parse_value",
    "format_value",
    "unknown_message",
    "log_base",
    "is_graded",
]

# ---------------------------------------------------------------------------------------------
# Measure names
# ---------------------------------------------------------------------------------------------

#: Cutoff policies of a :class:`MeasureDef`.
#: ``"optional"``: ``X`` is the whole-list measure, ``X@l`` the truncated one;
#: ``"expand"``: as optional, but the CLI's ``--cutoffs`` expands a bare ``X`` into ``X@l`` for
#: every cutoff (NTCIREVAL reports these measures only at cutoffs);
#: ``"required"``: ``X@l`` only; ``"one"``: only ``X@1``; ``"none"``: whole list only (no ``@l``;
#: NTCIREVAL prints the NCU and condensed-list measures without cutoffs).
CUTOFF_POLICIES = ("optional", "expand", "required", "one", "none")


@dataclass(frozen=True)
class MeasureDef:
    """Registry entry describing one measure family for :meth:`MeasureSpec.parse`.

    Parameters
    ----------
    name : str
        Name as written before ``(`` or ``@`` (case-sensitive, e.g. ``"nDCG"``).
    params : mapping
        Parameter names and default values (floats, or strings for symbolic options).
    cutoff : {"optional", "expand", "required", "one"}
        Whether ``@l`` may, must or must be ``@1`` (see :data:`CUTOFF_POLICIES`).
    summary : str
        One line for error messages and ``--help``.
    check : callable, optional
        ``check(params: dict, cutoff: int | None)`` raising ``ValueError`` for bad values; it
        receives the parameters with defaults filled in.
    binary : bool
        The measure only asks whether a document is relevant (AP, RR, P, R, Hit), so it accepts
        the relevance threshold ``rel=`` (see :data:`REL_PARAM`); graded measures refuse it.
    graded : bool or callable, optional
        Whether the value depends on *how large* a positive gain is. ``False``: the measure only
        sees which documents have a gain > 0 (and which are judged), so two gain assignments that
        are positive on the same documents give every run the same score (RawG and the
        unanimity-aware UG, for instance: :func:`helpers.unanimity.gain_blind`). A callable
        ``graded(params) -> bool`` decides per parameter set (NCU is gain-blind only with
        rank-biased stopping and precision utility). Default (``None``): ``not binary``. Read it
        through :func:`is_graded`.
    """

    name: str
    params: Mapping[str, float | str] = field(default_factory=dict)
    cutoff: str = "optional"
    summary: str = ""
    check: Callable[[dict, int | None], None] | None = None
    binary: bool = False
    graded: "bool | Callable[[Mapping[str, float | str]], bool] | None" = None

    def __post_init__(self) -> None:
        if self.cutoff not in CUTOFF_POLICIES:
            raise ValueError(f"cutoff policy must be one of {CUTOFF_POLICIES}, got {self.cutoff!r}")
        if self.graded is None:
            object.__setattr__(self, "graded", not self.binary)

    def usage(self) -> str:
        """Name with its parameters and cutoff, e.g. ``'Q(beta=1)[@l]'``."""
        text = self.name
        if self.params:
            text += "(" + ",".join(f"{k}={format_value(v)}" for k, v in self.params.items()) + ")"
        return text + {"optional": "[@l]", "expand": "[@l]", "required": "@l", "one": "@1",
                       "none": ""}[self.cutoff]


#: The relevance-threshold parameter of binary measures, with ir_measures' meaning: relevance
#: levels below ``rel`` are non-relevant (``AP(rel=2)`` is trec_eval's ``-l 2 -m map``). Without
#: it a document is relevant when its gain is > 0 (level >= 1). Graded measures refuse it: their
#: gains come from the gain mapping (``gains=``), as trec_eval's ``-l`` leaves ``ndcg`` alone.
REL_PARAM = "rel"


def _check_rel(text: str, name: str, mdef: "MeasureDef", value: float | str) -> float:
    if not mdef.binary:
        raise ValueError(
            f"{text!r}: rel= (the binary relevance threshold of ir_measures/trec_eval -l) applies to "
            f"binary measures only ({', '.join(sorted(n for n, d in MEASURES.items() if d.binary))}); "
            f"{name} is graded: its gains come from the gain mapping (gains=/--gains), so a "
            "threshold would be ambiguous")
    if not isinstance(value, float) or not value.is_integer() or value < 1:
        raise ValueError(f"{text!r}: rel must be an integer relevance level >= 1, got {format_value(value)}")
    if value >= 2.0 ** 53:   # read through a float: 9007199254740993 would become ...992 (levels stop below 2**53)
        raise ValueError(f"{text!r}: rel must be a relevance level below 2**53 = {2 ** 53} (qrels levels stop there: a "
                         "float gain represents the integers exactly only below it)")
    return value


_NAME_RE = re.compile(
    r"^(?P<name>[^\s()@=,]+)\s*(?:\((?P<params>[^()]*)\))?\s*(?:@\s*(?P<cutoff>\S+))?$"
)


#: Largest size of a numeric measure parameter (beta, p, gamma, e, b, trec_eval's parameters ...):
#: ``Q(beta=1e308)`` made beta * cg overflow to inf and the score 0 or NaN with only numpy's
#: warning. Products that still overflow with large gains are refused by the kernels.
PARAM_LIMIT = 1e100


def format_value(value: float | str) -> str:
    """A parameter value as written in a canonical label: integers without ``.0`` (``b=10``),
    other numbers by ``repr``, symbolic values as they are."""
    if isinstance(value, str):
        return value
    value = float(value)
    if value.is_integer() and abs(value) < 2.0 ** 53:     # exact integers: no ".0"
        return str(int(value))
    return repr(value)


def parse_value(text: str) -> float | str:
    """A parameter value as written in a name: a finite float, or the text itself for symbolic
    values (``stop=gu``, ``b=e``); infinities and NaN are refused."""
    text = text.strip()
    try:
        value = float(text)
    except ValueError:
        return text
    if not math.isfinite(value):
        raise ValueError(f"parameter values must be finite, got {text!r}")
    if abs(value) > PARAM_LIMIT:
        raise ValueError(f"parameter values must be at most {PARAM_LIMIT:g} in size (larger ones "
                         f"overflow double precision in the measure's arithmetic), got {text!r}")
    return value


@dataclass(frozen=True)
class MeasureSpec:
    """A parsed measure name: family, explicit parameters and cutoff.

    ``str(spec)`` is the canonical label used in result tables: the family name, the parameters
    the user wrote (sorted, numbers without trailing ``.0``) and ``@l``; defaults are not added,
    so ``"Q"`` stays ``"Q"`` and ``"Q(beta=1)"`` stays ``"Q(beta=1)"``. ``spec[name]`` returns a
    parameter with its registry default filled in.

    Examples
    --------
    >>> s = MeasureSpec.parse("nDCG(b=10)@10")
    >>> s.name, s.cutoff, s["b"], str(s)
    ('nDCG', 10, 10.0, 'nDCG(b=10)@10')
    """

    name: str
    params: tuple[tuple[str, float | str], ...] = ()
    cutoff: int | None = None
    defaults: tuple[tuple[str, float | str], ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        text = self.name
        if self.params:
            text += "(" + ",".join(f"{k}={format_value(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            text += f"@{self.cutoff}"
        return text

    @property
    def rel(self) -> int | None:
        """The relevance threshold ``rel=`` if written (binary measures), else None."""
        value = dict(self.params).get(REL_PARAM)
        return None if value is None else int(value)

    def without_rel(self) -> "MeasureSpec":
        """The same measure without its ``rel=`` parameter (what the array engine computes once
        gains below the threshold are zeroed)."""
        return MeasureSpec(self.name, tuple(p for p in self.params if p[0] != REL_PARAM),
                           self.cutoff, self.defaults)

    def __getitem__(self, key: str) -> float | str:
        explicit = dict(self.params)
        if key in explicit:
            return explicit[key]
        defaults = dict(self.defaults)
        if key in defaults:
            return defaults[key]
        raise KeyError(f"{self.name} has no parameter {key!r}")

    @property
    def resolved(self) -> dict[str, float | str]:
        """All parameters, defaults filled in."""
        out = dict(self.defaults)
        out.update(self.params)
        return out

    @classmethod
    def parse(cls, text: "str | MeasureSpec",
              supported: Mapping[str, MeasureDef] | None = None) -> "MeasureSpec":
        """Parse ``NAME[(k=v,...)][@l]`` against a registry (default: :data:`MEASURES`).

        Raises
        ------
        ValueError
            For a malformed name, an unknown family (the message lists the supported ones), an
            unknown or repeated parameter, a bad parameter value, or a cutoff that is not a
            positive integer or not allowed for the family.
        """
        registry = MEASURES if supported is None else supported
        if isinstance(text, MeasureSpec):
            if text.name not in registry:
                raise ValueError(unknown_message(text.name, registry))
            text = str(text)
        if not isinstance(text, str):
            raise ValueError(f"a measure name must be a string, got {type(text).__name__}: {text!r}")
        text = expand_ntcir_aliases(text)
        m = _NAME_RE.match(text.strip())
        if m is None:
            raise ValueError(
                f"cannot parse measure name {text!r}: expected NAME, NAME@cutoff or "
                f"NAME(param=value,...)@cutoff, e.g. 'Q@10' or 'nDCG(b=10)@10'")
        name = m.group("name")
        if name not in registry:
            raise ValueError(unknown_message(name, registry))
        mdef = registry[name]
        params: dict[str, float | str] = {}
        if m.group("params") is not None and m.group("params").strip():
            for item in m.group("params").split(","):
                if "=" not in item:
                    raise ValueError(f"{text!r}: parameter {item.strip()!r} must look like name=value")
                key, value = (s.strip() for s in item.split("=", 1))
                if key == REL_PARAM and key not in mdef.params:
                    if key in params:
                        raise ValueError(f"{text!r}: parameter {key!r} given twice")
                    params[key] = _check_rel(text, name, mdef, parse_value(value))
                    continue
                if key not in mdef.params:
                    allowed = ", ".join([*mdef.params, *([REL_PARAM] if mdef.binary else [])]) or "none"
                    raise ValueError(f"{text!r}: {name} has no parameter {key!r} "
                                     f"(supported parameters: {allowed})")
                if key in params:
                    raise ValueError(f"{text!r}: parameter {key!r} given twice")
                try:
                    params[key] = parse_value(value)
                except ValueError as exc:
                    raise ValueError(f"{text!r}: {key}: {exc}") from None
        cutoff = None
        if m.group("cutoff") is not None:
            raw = m.group("cutoff")
            if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
                hint = " (parameters go before '@': 'P(rel=2)@1')" if "(" in raw else ""
                raise ValueError(f"{text!r}: the cutoff after '@' must be a positive integer, got {raw!r}{hint}")
            cutoff = int(raw)
        if mdef.cutoff == "required" and cutoff is None:
            raise ValueError(f"{text!r}: {name} needs a cutoff, e.g. {name}@10")
        if mdef.cutoff == "none" and cutoff is not None:
            raise ValueError(f"{text!r}: {name} is a whole-list measure (NTCIREVAL prints it without "
                             "a cutoff); drop the '@'")
        if mdef.cutoff == "one" and cutoff != 1:
            raise ValueError(f"{text!r}: {name} is only defined at cutoff 1 ({name}@1)")
        full = dict(mdef.params)
        full.update(params)
        if mdef.check is not None:
            try:
                mdef.check(full, cutoff)
            except ValueError as exc:
                raise ValueError(f"{text!r}: {exc}") from None
        return cls(name=name, params=tuple(sorted(params.items())), cutoff=cutoff,
                   defaults=tuple(mdef.params.items()))


def unknown_message(name: str, registry: Mapping[str, MeasureDef]) -> str:
    """The error message for a measure family the registry does not know, listing those it does."""
    return (f"unknown measure {name!r}; supported: "
            + ", ".join(d.usage() for d in registry.values()))


def split_top_level(text: str) -> list[str]:
    """Split on commas/whitespace that are not inside parentheses."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and (ch == "," or ch.isspace()):
            if cur:
                out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def parse_measures(measures: "str | MeasureSpec | Iterable[str | MeasureSpec]",
                   supported: Mapping[str, MeasureDef] | None = None) -> list[MeasureSpec]:
    """Parse one or several measure names (a list, or one string separated by spaces/commas).

    Duplicates (same canonical label) are dropped, keeping the first. An empty selection raises
    ``ValueError``.
    """
    if isinstance(measures, (str, MeasureSpec)):
        items: list = (split_top_level(expand_ntcir_aliases(measures)) if isinstance(measures, str)
                       else [measures])
    else:
        items = []
        for m in measures:
            items.extend(split_top_level(expand_ntcir_aliases(m)) if isinstance(m, str) else [m])
    specs, seen = [], set()
    for item in items:
        spec = MeasureSpec.parse(item, supported)
        if str(spec) not in seen:
            seen.add(str(spec))
            specs.append(spec)
    if not specs:
        raise ValueError("no measure given; e.g. measures=['AP', 'Q', 'nDCG@10']")
    return specs


def _check_beta(p: dict, cutoff: int | None) -> None:
    if not isinstance(p["beta"], float) or p["beta"] < 0:
        raise ValueError(f"beta must be a number >= 0, got {p['beta']!r}")


def _check_norm(p: dict, cutoff: int | None) -> None:
    if p["norm"] not in ("min", "R"):
        raise ValueError(f"norm must be 'min' (divide by min(l, R), NTCIREVAL) or 'R' "
                         f"(divide by R, trec_eval map_cut), got {p['norm']!r}")


def _check_q(p: dict, cutoff: int | None) -> None:
    _check_beta(p, cutoff)
    _check_norm(p, cutoff)


def log_base(b: float | str) -> float:
    """The log base of ``nDCG(b=...)`` as a number (``"e"`` -> Euler's number)."""
    return math.e if b == "e" else float(b)


def _check_b(p: dict, cutoff: int | None) -> None:
    b = p["b"]
    if b == "e":
        return
    if not isinstance(b, float) or b <= 1:
        raise ValueError(
            f"the log base b must be a number > 1 or 'e', got {b!r} (NTCIREVAL's '-logb 0' for "
            "natural log is not accepted: its C and Python versions disagree at rank 2; write b=e)")


def _check_p_open(p: dict, cutoff: int | None) -> None:
    if not isinstance(p["p"], float) or not 0 < p["p"] < 1:
        raise ValueError(f"persistence p must be in (0, 1), got {p['p']!r}")


def _check_rbu(p: dict, cutoff: int | None) -> None:
    if not isinstance(p["p"], float) or not 0 < p["p"] <= 1:
        raise ValueError(f"p must be in (0, 1], got {p['p']!r}")
    if not isinstance(p["e"], float) or p["e"] < 0:
        raise ValueError(f"effort e must be a number >= 0, got {p['e']!r}")
    if p["e"] > 0 and cutoff is None:
        raise ValueError("the effort term e*sum_{r<=l} p^r needs a cutoff, e.g. iRBU(e=0.01)@10")


#: Measures known to :func:`evaluate` and :func:`evaluate_arrays`.
MEASURES: dict[str, MeasureDef] = {
    d.name: d
    for d in [
        MeasureDef("AP", {"norm": "min"}, "optional", "average precision", _check_norm),
        MeasureDef("Q", {"beta": 1.0, "norm": "min"}, "optional", "Q-measure", _check_q),
        MeasureDef("P+", {"beta": 1.0}, "optional", "P-plus", _check_beta),
        MeasureDef("RR", {}, "optional", "reciprocal rank"),
        MeasureDef("MSnDCG", {}, "expand", "Microsoft nDCG (trec_eval ndcg_cut)"),
        MeasureDef("nDCG", {"b": 2.0}, "expand", "original Jarvelin-Kekalainen nDCG", _check_b),
        MeasureDef("nG", {}, "one", "normalised gain at rank 1"),
        MeasureDef("nCG", {}, "expand", "normalised cumulative gain"),
        MeasureDef("ERR", {}, "optional", "expected reciprocal rank"),
        MeasureDef("nERR", {}, "expand", "normalised ERR"),
        MeasureDef("RBP", {"p": 0.95}, "optional", "rank-biased precision / gmax", _check_p_open),
        MeasureDef("EBR", {"beta": 1.0}, "optional", "expected blended ratio", _check_beta),
        MeasureDef("iRBU", {"p": 0.99, "e": 0.0}, "expand", "intentwise rank-biased utility",
                   _check_rbu),
        MeasureDef("Hit", {}, "required", "1 if a relevant document is in the top l"),
        MeasureDef("P", {}, "required", "precision at l"),
    ]
}

# Binary measures take the relevance threshold rel=; R@l is recall C(l)/R
# (trec_eval recall_l, ir_measures R@l).
MEASURES["R"] = MeasureDef("R", {}, "required", "recall at l", binary=True)
for _name in ("AP", "RR", "P", "Hit"):
    MEASURES[_name] = replace(MEASURES[_name], binary=True, graded=None)  # graded follows binary again
del _name

# ---------------------------------------------------------------------------------------------
# The rest of NTCIREVAL's compute/gcompute output: O-/P-measure, NCU, GAP, bpref family
# ---------------------------------------------------------------------------------------------

#: NTCIREVAL's printed names of the NCU measures, accepted as aliases of ``NCU(stop=..,util=..)``.
_NCU_ALIAS_RE = re.compile(r"NCU(gu|rb),(P|BR)(?:\(([^()]*)\))?")


def expand_ntcir_aliases(text: str) -> str:
    """Rewrite NTCIREVAL's ``NCUgu,P`` / ``NCUrb,BR(gamma=0.9)`` ... into ``NCU(stop=..,util=..)``
    before names are split on commas."""
    def sub(m: re.Match) -> str:
        extra = m.group(3)
        inner = f"stop={m.group(1)},util={m.group(2)}" + (f",{extra}" if extra and extra.strip() else "")
        return f"NCU({inner})"
    return _NCU_ALIAS_RE.sub(sub, text)


def _check_gamma(p: dict, cutoff: int | None) -> None:
    if not isinstance(p["gamma"], float) or not 0 <= p["gamma"] <= 1:
        raise ValueError(f"gamma must be in [0, 1], got {p['gamma']!r}")


def _check_ncu(p: dict, cutoff: int | None) -> None:
    if p["stop"] not in ("gu", "rb"):
        raise ValueError(f"NCU needs stop=gu (graded-uniform stopping) or stop=rb (rank-biased), "
                         f"got stop={p['stop']!r}; NTCIREVAL's names NCUgu,P ... NCUrb,BR work too")
    if p["util"] not in ("P", "BR"):
        raise ValueError(f"NCU needs util=P (precision) or util=BR (blended ratio), got "
                         f"util={p['util']!r}")
    _check_beta(p, cutoff)
    _check_gamma(p, cutoff)
    if p["stop"] == "gu" and p["gamma"] != 0.95:
        raise ValueError("gamma only applies to rank-biased stopping (stop=rb); NCU with stop=gu "
                         "stops uniformly over the judged relevant documents, weighted by gain")
    if p["util"] == "P" and p["beta"] != 1.0:
        raise ValueError("beta only applies to util=BR (blended ratio), not to util=P (precision)")


MEASURES.update({
    d.name: d
    for d in [
        MeasureDef("O-measure", {"beta": 1.0}, "optional",
                   "blended ratio at the first relevant rank (Sakai)", _check_beta),
        MeasureDef("P-measure", {"beta": 1.0}, "optional",
                   "blended ratio at the preferred rank (Sakai)", _check_beta),
        MeasureDef("NCU", {"stop": "?", "util": "?", "gamma": 0.95, "beta": 1.0}, "none",
                   "normalised cumulative utility: NCUgu,P NCUgu,BR NCUrb,P NCUrb,BR", _check_ncu),
        MeasureDef("GAP", {}, "optional", "graded average precision (Robertson et al. 2010)"),
        MeasureDef("bpref", {}, "none", "bpref on the condensed list (judged documents only)"),
        MeasureDef("bpref_R", {}, "none", "bpref with min(R, N) replaced by R (Sakai 2007)"),
        MeasureDef("bpref_N", {}, "none", "bpref with min(R, N) replaced by N (Sakai 2007)"),
        MeasureDef("bpref_relative", {}, "none", "bpref relative to the rank (Sakai 2007)"),
        MeasureDef("rpref_N", {}, "none", "graded bpref_N (Sakai 2007)"),
        MeasureDef("rpref_relative", {}, "none", "graded bpref_relative (Sakai 2007)"),
        MeasureDef("rpref_relative2", {}, "none", "graded bpref_relative, divisor r (Sakai 2007)"),
        MeasureDef("r1", {}, "none", "rank of the first relevant document, 0 if none "
                   "(NTCIREVAL's '# r1=' line)"),
        MeasureDef("rp", {}, "none", "preferred rank of P-measure and P+, 0 if none "
                   "(NTCIREVAL's '# rp=' line)"),
    ]
})

# trec_eval's measures that NTCIREVAL does not define (helpers.measures.treceval computes them)
MEASURES.update({f.name: MeasureDef(f.name, f.params, f.cutoff, f.summary, f.check, f.binary)
                 for f in TREC_FAMILIES})

# Whether a measure sees the size of a positive gain, where ``not binary`` is wrong: the bpref
# family and r1 (relevant or not), NCU with rank-biased stopping and precision utility, trec_eval's
# counts and residuals that read no gain at all; RMSnDCG takes rel= but weighs gains
# (tests/test_measures.py checks every family on gains with the same support).
for _name in ("bpref", "bpref_R", "bpref_N", "bpref_relative", "r1", "NumQ", "NumRet", "RBPresid", "Unjudged"):
    MEASURES[_name] = replace(MEASURES[_name], graded=False)
MEASURES["RMSnDCG"] = replace(MEASURES["RMSnDCG"], graded=True)
MEASURES["NCU"] = replace(MEASURES["NCU"], graded=lambda p: not (p["stop"] == "rb" and p["util"] == "P"))
del _name


def is_graded(spec: "str | MeasureSpec", registry: Mapping[str, MeasureDef] | None = None) -> bool:
    """Whether ``spec``'s value depends on how large a positive gain is (:class:`MeasureDef`'s
    ``graded``). ``False`` for AP, RR, P@l, R@l, Hit@l, bpref, trec_eval's binary measures ...:
    they only see which documents have a gain > 0, so ``is_graded("AP")`` is False and
    ``is_graded("nERR@10")`` True; ``AP(rel=2)`` is as blind to gain sizes as ``AP``."""
    registry = MEASURES if registry is None else registry
    s = spec if isinstance(spec, MeasureSpec) else MeasureSpec.parse(spec, registry)
    flag = registry[s.name].graded
    return bool(flag(s.resolved) if callable(flag) else flag)


#: Measures computed on the condensed list (judged documents only) whatever ``condensed`` says.
CONDENSED_ONLY = ("bpref", "bpref_R", "bpref_N", "bpref_relative", "rpref_N", "rpref_relative",
                  "rpref_relative2")


#: Largest total of gains the kernels accept: cumulative gains, Q's beta * cg + count and the ideal
#: sums stay far from float64's 1.8e308 (gains of 1e308 made nDCG and Q NaN with only an overflow warning).
#: Every path by which gains reach a measure checks it: ``gains=``/``--gains`` and a ``gain`` column
#: (:mod:`.adhoc`), trec_eval's ``gains=`` parameter (:mod:`.treceval.graded`), diversity gains.
GAIN_TOTAL_LIMIT = 1e300


def parse_gain_spec(gains: "str | Mapping[int, float]") -> dict[int, float]:
    """Turn an NTCIREVAL ``-g`` string (``"1:2:3"``: L1->1, L2->2, L3->3) or a dict into a
    ``{level: gain}`` mapping (L0 -> 0 added).

    Raises
    ------
    ValueError
        For an unparsable string, negative or non-integer levels, a non-zero gain for L0, a
        gain <= 0 for a level >= 1 (NTCIREVAL would count such documents as relevant with zero
        gain), or gains that decrease with the level (NTCIREVAL rejects them too).
    """
    if isinstance(gains, str):
        parts = gains.split(":")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"gain spec {gains!r} must be numbers separated by ':', "
                             "one per level from L1 up, e.g. '1:2:3'") from None
        mapping = {i + 1: v for i, v in enumerate(values)}
    elif isinstance(gains, Mapping):
        mapping = {}
        for key, v in gains.items():
            mapping[_gain_level(key)] = _gain_value(key, v)
    else:
        raise ValueError(f"gains must be a '1:2:3' string or a {{level: gain}} dict, got {gains!r}")
    if any(k < 0 for k in mapping):
        raise ValueError(f"gain mapping levels must be >= 0, got {sorted(mapping)}")
    if mapping.get(0, 0.0) != 0.0:
        raise ValueError(f"L0 (judged non-relevant) must have gain 0, got {mapping[0]!r}")
    mapping[0] = 0.0
    for level, v in sorted(mapping.items()):
        if not math.isfinite(v):
            raise ValueError(f"gain for L{level} must be finite, got {v!r}")
        if level >= 1 and v <= 0:
            raise ValueError(f"gain for L{level} must be > 0, got {v!r} (a relevant level with "
                             "gain 0 would be relevant in NTCIREVAL but not here)")
    levels = sorted(mapping)
    for a, b in zip(levels, levels[1:]):
        if mapping[b] < mapping[a]:
            raise ValueError(f"gains must not decrease with the level: L{a}={mapping[a]} > "
                             f"L{b}={mapping[b]}")
    return mapping


def _gain_level(key) -> int:
    try:
        ok = not isinstance(key, (bool, np.bool_)) and float(key).is_integer()
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"gains: mapping keys must be integer levels (relevance levels 0, 1, 2 ...), got {key!r}")
    level = int(key)
    if not -(2**63) <= level < 2**63:
        raise ValueError(f"gains: level {level} is beyond the range of relevance levels (a 64-bit integer, as "
                         f"trec_eval's C long: {-(2**63)} to {2**63 - 1})")
    return level


def _gain_value(key, v) -> float:
    try:
        if isinstance(v, (bool, np.bool_, str, bytes)):
            raise TypeError
        return float(v)
    except (TypeError, ValueError):
        raise ValueError(f"gains: the gain of level {key!r} must be a number (a finite float > 0 for "
                         f"a relevant level), got {v!r}") from None


def with_default_rel(measures, rel: int | None) -> list[MeasureSpec]:
    """Give every binary measure written without ``rel=`` the threshold ``rel`` (trec_eval's
    ``-l``); graded measures and explicit ``rel=`` are left as they are. ``rel=None`` or 1
    changes nothing (1 is the default threshold: level >= 1 is relevant)."""
    specs = parse_measures(measures)
    if rel is None or rel == 1:
        return specs
    if isinstance(rel, (bool, np.bool_)) or not isinstance(rel, (int, np.integer)) or rel < 1:
        raise ValueError(f"rel must be an integer relevance level >= 1, got {rel!r}")
    if rel >= 2 ** 53:
        raise ValueError(f"rel must be a relevance level below 2**53 = {2 ** 53} (qrels levels stop there: a float "
                         f"gain represents the integers exactly only below it), got {int(rel)}")
    out = []
    for s in specs:
        if s.rel is None and MEASURES.get(s.name, MeasureDef(s.name)).binary:
            s = MeasureSpec(s.name, tuple(sorted(s.params + ((REL_PARAM, float(rel)),))),
                            s.cutoff, s.defaults)
        out.append(s)
    return parse_measures(out)
