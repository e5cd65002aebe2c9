"""Graded-relevance evaluation measures with NTCIREVAL's definitions, vectorised over lists.

Two layers:

* :func:`evaluate_arrays` is the array-level core. It scores *n* ranked lists at once from a
  ``(n_lists, depth)`` matrix of gains (NaN past each list's end) and a ``(n_lists, k)`` matrix
  of ideal gains. It knows nothing about documents, topics or runs, so the diversity module can
  feed it global gains (D-measures) or DIN's rank-dependent gains.
* :func:`evaluate` maps tidy qrels/run tables onto those arrays (gain lookup, ordering, condensed
  lists, missing topics) and returns a tidy ``run_id, query_id, measure, value`` table;
  :func:`to_matrix` pivots one measure to topics x runs for :mod:`helpers.stats`.

Measure names follow NTCIREVAL (Sakai): parameters in parentheses, cutoff after ``@``, e.g.
``Q``, ``Q@10``, ``Q(beta=0.5)``, ``nDCG(b=10)@10``, ``RBP(p=0.8)``, ``iRBU(p=0.99)@10``.
:class:`MeasureSpec` parses such names and is reusable by other modules with their own
registry of :class:`MeasureDef` entries.

Definitions
-----------
Notation follows Sakai's survey of NTCIR graded-relevance measures (``sakai_ntcir_graded_
relevance_survey``, Sec. 2.1): ``g(r)`` is the gain of the document at rank ``r`` (0 for
judged non-relevant and unjudged documents), ``I(r) = [g(r) > 0]``, ``C(r) = sum_{i<=r} I(i)``,
``cg(r) = sum_{i<=r} g(i)``; ``g*(r)`` and ``cg*(r)`` are the same for the ideal list (all judged
relevant documents by decreasing gain; ``cg*`` stays constant past rank ``R``); ``R`` is the
number of judged relevant documents; ``gmax`` is the highest gain (see ``gmax`` below).

=====================  =========================================================================
``AP``, ``AP@l``        ``sum_{r<=l} I(r) C(r)/r`` divided by ``R`` (``AP``) or ``min(l, R)``
                        (``AP@l``, NTCIREVAL); ``AP(norm=R)@l`` divides by ``R`` like
                        trec_eval's ``map_cut``.
``Q``, ``Q@l``          survey Eq. (1)-(3): ``sum I(r) BR(r)`` over ``R`` or ``min(l, R)``, with the
                        blended ratio ``BR(r) = (C(r) + beta cg(r)) / (r + beta cg*(r))``,
                        ``beta = 1`` by default; ``Q(norm=R)@l`` divides by ``R``.
``P+``, ``P+@l``        survey Eq. (4): ``sum_{r<=rp} I(r) BR(r) / C(rp)`` where the preferred rank
                        ``rp`` is the first rank holding the highest gain (for level-based qrels:
                        level, as NTCIREVAL ``compute``) found in the (top ``l`` of the) list;
                        0 if no relevant document is retrieved.
``RR``, ``RR@l``        ``1/r1`` for the first relevant rank ``r1`` (0 if none).
``MSnDCG@l``            ``sum g(r)/log2(r+1)`` over the same for the ideal list, both to rank ``l``
                        (Burges et al. 2005; trec_eval's ``ndcg_cut``).
``nDCG(b=2)@l``         original Jarvelin-Kekalainen nDCG: discount ``log_b(r)`` for ``r > b``,
                        none for ``r <= b`` (NTCIREVAL's ``orig_dcglog``); ``b=e`` gives ln.
``nG@1``                ``g(1)/g*(1)`` (no discounting, no cumulation).
``nCG@l``               ``cg(l)/cg*(l)``.
``ERR@l``, ``nERR@l``   Chapelle et al. 2009 with NTCIREVAL's stop probability
                        ``s(r) = g(r)/(gmax + 1)``: ``ERR = sum s(r) prod_{i<r}(1-s(i)) / r``;
                        ``nERR`` divides by the ideal list's ERR at the same cutoff.
``RBP(p=0.95)[@l]``     ``(1-p) sum p^(r-1) g(r) / gmax`` (Moffat and Zobel 2008 with graded gains).
``EBR(beta=1)[@l]``     NCU with ERR's stopping distribution and BR as utility (Zeng and Sakai,
                        Table 1): ``sum s(r) prod_{i<r}(1-s(i)) BR(r)``; not normalised.
``iRBU(p=0.99,e=0)[@l]``  intentwise RBU (Zeng and Sakai, Table 1; Amigo et al. 2018):
                        ``sum p^r s(r) prod_{i<r}(1-s(i))``; with ``e > 0`` the effort term
                        ``e sum_{r=1}^{l} p^r`` of their Eq. (6) is subtracted (single intent).
``Hit@l``, ``P@l``      ``[C(l) > 0]`` and ``C(l)/l``.
``R@l``                 recall ``C(l)/R`` (trec_eval ``recall_l``, ir_measures ``R@l``).
``O-measure(beta=1)``   ``BR(r1)`` at the first relevant rank ``r1`` (Sakai 2007, IPSJ TOD); 0 if
                        none. ``@l``: 0 unless ``r1 <= l``.
``P-measure(beta=1)``   ``BR(rp)`` at P+'s preferred rank ``rp`` (levels for level qrels).
``NCU(stop,util)``      survey Eq. (5), Sakai and Robertson 2008; NTCIREVAL's ``NCUgu,P``,
                        ``NCUgu,BR``, ``NCUrb,P``, ``NCUrb,BR`` (accepted as names).
                        ``sum_{rel r} P_S(r) NU(r)`` with ``NU = C(r)/r`` (``util=P``) or
                        ``BR(r)`` (``util=BR``, ``beta``). ``stop=gu``: ``P_S(r) = g(r)/cg*(R)``
                        (NTCIREVAL's stop values default to the gains; its ``-s`` is not
                        offered; ``gcompute`` does not print NCUgu, we do). ``stop=rb``:
                        ``P_S(r) = gamma^(C(r)-1) / sum_{i<R} gamma^i``, ``gamma = 0.95``.
                        Whole list only.
``GAP``, ``GAP@l``      graded AP of Robertson, Kanoulas and Yilmaz (2010) as NTCIREVAL ``-gap``
                        computes it: ``sum_{rel r<=l} (1/r) sum_{j<=r} m(m+1)``, ``m =
                        min(x(r), x(j))``, over ``sum_{i<=min(l,R)} x*(i)(x*(i)+1)``; ``x`` is
                        the relevance level for level qrels (``compute``: whatever the gains) and
                        the gain for a ``gain`` column (``gcompute``).
``bpref`` ...           the condensed-list family of Sakai (SIGIR 2007) exactly as NTCIREVAL
``rpref_relative2``     ``-j`` prints it, always on the judged documents only (``n(r)``: judged
                        non-relevant documents above a relevant rank ``r``, ``N``: judged
                        non-relevant in the qrels); each sums over the relevant retrieved ranks:
                        ``bpref``: ``1 - min(R, n(r))/min(R, N)`` over ``R``; ``bpref_R``: the
                        same over ``R`` instead of ``min(R, N)``; ``bpref_N``: ``1 - n(r)/N``;
                        ``bpref_relative``: ``1 - n(r)/(r-1)`` (0 at ``r = 1``, as NTCIREVAL);
                        the graded ``rpref_*`` weigh ``g(r)`` by one minus the penalty
                        ``sum_{j<r} max(0, g(r)-g(j))/g(r)`` divided by ``R + N - cg*(R)/gmax``
                        (``_N``), ``r - 1`` (``_relative``, 0 at ``r = 1``) or ``r``
                        (``_relative2``), over ``cg*(R)``. A topic with relevant but no judged
                        non-relevant document raises ``ValueError`` (NTCIREVAL refuses too).
``r1``, ``rp``          the ranks NTCIREVAL prints on its ``# r1= rp=`` line (0 if none).
=====================  =========================================================================

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
(``python -m helpers evaluate --names trec_eval``).

Cutoffs beyond a list's length behave as in NTCIREVAL: a list shorter than ``l`` is padded with
non-relevant documents (so ``P@l`` still divides by ``l``), and the ideal list stops at ``R``.
A measure name without a cutoff uses the whole list (NTCIREVAL reports ``AP``, ``Q``, ``P+``,
``RR``, ``RBP``, ``ERR`` and ``EBR`` this way).

Conventions of :func:`evaluate` (each has a test)
------------------------------------------------
* **Relevance** is ``gain > 0`` (level >= ``rel`` for binary measures written with ``rel=``;
  a topic with no document at that level scores NaN on them, 0 with ``no_relevant="zero"``,
  as trec_eval ``-l``). Unjudged documents have gain 0 (non-relevant, as in NTCIREVAL
  and trec_eval), or are removed before ranks are counted with ``condensed=True`` (NTCIREVAL's
  ``-j`` condensed lists, Sakai 2007).
* **Condensed-list family** (``bpref`` ... ``rpref_relative2``): always computed on the judged
  documents only, whatever ``condensed`` says (NTCIREVAL prints them only under ``-j``, on the
  condensed list); ``N`` counts the judged documents with gain 0. **GAP** compares relevance
  levels for ``relevance`` qrels (``compute -gap``) and gains for a ``gain`` column
  (``gcompute -gap``).
* **gmax** (used by ERR, nERR, RBP, EBR, iRBU, rpref_N): with relevance levels it is the largest gain of
  the gain mapping, as NTCIREVAL ``compute -g`` does (``gains=None`` means ``-g 1:2:...:Lmax``
  for the highest level in the qrels); with real-valued ``gain`` columns it is the topic's highest
  judged gain, as NTCIREVAL ``gcompute`` does. ``gmax="topic"`` or a number overrides this.
* **Ordering**: with a ``rank`` column documents are ranked by increasing rank (NTCIREVAL reads
  the list in file order); remaining ties, and runs without ranks, are ordered by decreasing
  ``score`` then decreasing ``doc_id``, which is trec_eval's order. ``order_by="score"`` ignores
  ``rank`` (trec_eval).
* **Duplicates**: a document twice in one ranked list raises ``ValueError`` naming run, topic and
  document (NTCIREVAL would silently label and count every copy); ``duplicates="keep_first"``
  keeps the highest-ranked copy. A (topic, document) pair judged twice in the qrels raises.
* **Topics without relevant documents** are skipped (NTCIREVAL refuses to score them; every
  measure is 0/0). ``no_relevant="zero"`` scores them 0 (trec_eval, ir_measures);
  ``"nan"`` keeps them as NaN.
* **Topics of the qrels missing from a run** score 0 on every measure (NTCIREVAL's scripts give
  such topics an empty result file; ir_measures also scores 0). ``missing="skip"`` drops them
  (trec_eval without ``-c``).
* **Topics in a run but not in the qrels** are ignored.
* Identifiers are compared as strings (``1`` and ``"1"`` are the same topic).
* Negative relevance levels (TREC's ``-2`` junk) are judged non-relevant (gain 0).
"""

from __future__ import annotations

import math
import warnings
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import pandas as pd

from helpers.io import coerce
from helpers.io.ids import factorize_ids, number_spelling_twins, require_columns, str_ids

__all__ = [
    "MeasureDef",
    "MeasureSpec",
    "MEASURES",
    "parse_measures",
    "parse_gain_spec",
    "evaluate_arrays",
    "evaluate",
    "to_matrix",
    "aggregate",
    "with_default_rel",
    "REL_PARAM",
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
    """

    name: str
    params: Mapping[str, float | str] = field(default_factory=dict)
    cutoff: str = "optional"
    summary: str = ""
    check: Callable[[dict, int | None], None] | None = None
    binary: bool = False

    def __post_init__(self) -> None:
        if self.cutoff not in CUTOFF_POLICIES:
            raise ValueError(f"cutoff policy must be one of {CUTOFF_POLICIES}, got {self.cutoff!r}")

    def usage(self) -> str:
        """Name with its parameters and cutoff, e.g. ``'Q(beta=1)[@l]'``."""
        text = self.name
        if self.params:
            text += "(" + ",".join(f"{k}={_fmt_value(v)}" for k, v in self.params.items()) + ")"
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
        raise ValueError(f"{text!r}: rel must be an integer relevance level >= 1, got {_fmt_value(value)}")
    return value


_NAME_RE = re.compile(
    r"^(?P<name>[^\s()@=,]+)\s*(?:\((?P<params>[^()]*)\))?\s*(?:@\s*(?P<cutoff>\S+))?$"
)


def _fmt_value(value: float | str) -> str:
    if isinstance(value, str):
        return value
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _parse_value(text: str) -> float | str:
    text = text.strip()
    try:
        value = float(text)
    except ValueError:
        return text
    if not math.isfinite(value):
        raise ValueError(f"parameter values must be finite, got {text!r}")
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
            text += "(" + ",".join(f"{k}={_fmt_value(v)}" for k, v in self.params) + ")"
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
                raise ValueError(_unknown_message(text.name, registry))
            text = str(text)
        if not isinstance(text, str):
            raise ValueError(f"a measure name must be a string, got {type(text).__name__}: {text!r}")
        text = _expand_ntcir_aliases(text)
        m = _NAME_RE.match(text.strip())
        if m is None:
            raise ValueError(
                f"cannot parse measure name {text!r}: expected NAME, NAME@cutoff or "
                f"NAME(param=value,...)@cutoff, e.g. 'Q@10' or 'nDCG(b=10)@10'")
        name = m.group("name")
        if name not in registry:
            raise ValueError(_unknown_message(name, registry))
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
                    params[key] = _check_rel(text, name, mdef, _parse_value(value))
                    continue
                if key not in mdef.params:
                    allowed = ", ".join([*mdef.params, *([REL_PARAM] if mdef.binary else [])]) or "none"
                    raise ValueError(f"{text!r}: {name} has no parameter {key!r} "
                                     f"(supported parameters: {allowed})")
                if key in params:
                    raise ValueError(f"{text!r}: parameter {key!r} given twice")
                params[key] = _parse_value(value)
        cutoff = None
        if m.group("cutoff") is not None:
            raw = m.group("cutoff")
            if not raw.isdigit() or int(raw) < 1:
                raise ValueError(f"{text!r}: the cutoff after '@' must be a positive integer, got {raw!r}")
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


def _unknown_message(name: str, registry: Mapping[str, MeasureDef]) -> str:
    return (f"unknown measure {name!r}; supported: "
            + ", ".join(d.usage() for d in registry.values()))


def _split_top_level(text: str) -> list[str]:
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
        items: list = (_split_top_level(_expand_ntcir_aliases(measures)) if isinstance(measures, str)
                       else [measures])
    else:
        items = []
        for m in measures:
            items.extend(_split_top_level(_expand_ntcir_aliases(m)) if isinstance(m, str) else [m])
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


def _log_base(b: float | str) -> float:
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

# Binary measures take the relevance threshold rel= (issue 19); R@l is recall C(l)/R
# (trec_eval recall_l, ir_measures R@l).
MEASURES["R"] = MeasureDef("R", {}, "required", "recall at l", binary=True)
for _name in ("AP", "RR", "P", "Hit"):
    MEASURES[_name] = replace(MEASURES[_name], binary=True)
del _name

# ---------------------------------------------------------------------------------------------
# The rest of NTCIREVAL's compute/gcompute output (issue 14): O-/P-measure, NCU, GAP, bpref family
# ---------------------------------------------------------------------------------------------

#: NTCIREVAL's printed names of the NCU measures, accepted as aliases of ``NCU(stop=..,util=..)``.
_NCU_ALIAS_RE = re.compile(r"NCU(gu|rb),(P|BR)(?:\(([^()]*)\))?")


def _expand_ntcir_aliases(text: str) -> str:
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

#: Measures computed on the condensed list (judged documents only) whatever ``condensed`` says.
CONDENSED_ONLY = ("bpref", "bpref_R", "bpref_N", "bpref_relative", "rpref_N", "rpref_relative",
                  "rpref_relative2")
#: Measures added by issue 14, dispatched to :meth:`_Block.ntcir_measure`.
_NTCIR_EXTRA = ("O-measure", "P-measure", "NCU", "GAP", "r1", "rp") + CONDENSED_ONLY
_DOMINANCE_ELEMENTS = 1 << 21  # rows * K * K per chunk of the pairwise path of _earlier_smaller


def _earlier_smaller(xs: np.ndarray, valid: np.ndarray, ws: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Dominance counts over each row's relevant documents, given compacted: ``xs[:, k]`` is the
    value of the k-th relevant document retrieved (``valid`` marks real entries). Returns
    ``L[:, k] = #{j < k: xs[j] < xs[k]}`` and ``S[:, k] = sum of ws[j]`` over the same ``j``.

    The quadratic sums of GAP and rpref (NTCIREVAL loops over all pairs j <= i) reduce to these
    counts (non-relevant documents add closed-form terms). Either a cumulative count per distinct
    value (levels: few values) or a pairwise comparison (real-valued gains with many distinct
    values) is used, whichever is smaller, the latter in chunks of rows. ``ws`` must be a
    function of ``xs`` (the per-value path relies on it).
    """
    n, K = xs.shape
    Lc = np.zeros((n, K))
    Sc = np.zeros((n, K))
    if K == 0 or not valid.any():
        return Lc, Sc
    ws = np.where(valid, ws, 0.0)
    uniq = np.unique(xs[valid])
    U = len(uniq)
    if U <= K:
        # one pass per distinct value v: earlier documents holding v count for later ones above v
        for v in uniq:
            at_v = (xs == v) & valid
            before = np.cumsum(at_v, axis=1) - at_v          # strictly earlier, holding v
            above = xs > v
            Lc += np.where(above, before, 0)
            Sc += np.where(above, before * ws[at_v][0], 0.0)   # ws is the same for every v
    else:
        step = max(1, _DOMINANCE_ELEMENTS // (K * K))
        tril = np.tri(K, K, -1, dtype=bool)                 # j < k
        for a in range(0, n, step):
            b = min(n, a + step)
            less = (xs[a:b, None, :] < xs[a:b, :, None]) & tril & valid[a:b, None, :]
            Lc[a:b] = less.sum(axis=2)
            Sc[a:b] = (less * ws[a:b, None, :]).sum(axis=2)
    return Lc, Sc


# ---------------------------------------------------------------------------------------------
# Array-level core
# ---------------------------------------------------------------------------------------------

_BLOCK_ELEMENTS = 1 << 18  # rows per block * depth: keeps the working arrays in cache


def _as_2d(name: str, a, allow_nan: bool) -> np.ndarray:
    arr = np.asarray(a, dtype=float)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (n_lists, ranks), got shape {arr.shape}")
    if np.isinf(arr).any():
        i, j = np.argwhere(np.isinf(arr))[0]
        raise ValueError(f"{name}[{i}, {j}] is infinite; gains must be finite")
    if not allow_nan and np.isnan(arr).any():
        i, j = np.argwhere(np.isnan(arr))[0]
        raise ValueError(f"{name}[{i}, {j}] is NaN")
    with np.errstate(invalid="ignore"):
        neg = arr < 0
    if neg.any():
        i, j = np.argwhere(neg)[0]
        raise ValueError(f"{name}[{i}, {j}] = {arr[i, j]!r} is negative; gains must be >= 0")
    return arr


def _compact(gains: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Move the kept entries of each row to the front (order preserved), NaN after."""
    order = np.argsort(~keep, axis=1, kind="stable")
    out = np.take_along_axis(gains, order, axis=1)
    out[~np.take_along_axis(keep, order, axis=1)] = np.nan
    return out


def geometric_sum(p: float, l: int) -> float:
    """``sum_{r=1}^{l} p^r`` in closed form (the effort term of iRBU/RBU): O(1) whatever ``l``,
    so ``iRBU(e=0.01)@1000000000`` costs nothing; ``expm1`` keeps it accurate for p near 1."""
    p, l = float(p), int(l)
    if l <= 0:
        return 0.0
    if p == 1.0:
        return float(l)
    if p == 0.0:
        return 0.0
    return p * -math.expm1(l * math.log(p)) / (1.0 - p)


def _discount_ms(n: int) -> np.ndarray:
    return 1.0 / np.log2(np.arange(2, n + 2, dtype=float))


def _discount_orig(n: int, b: float) -> np.ndarray:
    r = np.arange(1, n + 1, dtype=float)
    # NTCIREVAL orig_dcglog: no discount for r == 1 or r <= b, else log_b(r).
    with np.errstate(divide="ignore"):
        logs = np.log(r) / math.log(b)
    return 1.0 / np.where((r == 1) | (r <= b), 1.0, logs)


class _Block:
    """Cumulative quantities of one block of lists, computed lazily and cached."""

    def __init__(self, g: np.ndarray, ideal: np.ndarray, gmax: np.ndarray,
                 pref: np.ndarray | None = None, *, grades: np.ndarray | None = None,
                 igrades: np.ndarray | None = None, n_nonrel: np.ndarray | None = None):
        self.grades = g if grades is None else grades        # what GAP compares (levels/gains)
        self.igrades = ideal if igrades is None else igrades  # the same for the ideal list
        self.n_nonrel = n_nonrel                              # N, for the condensed-list family
        self.g = g                      # (n, D) gains, 0 past the end of each list
        self.pref = g if pref is None else pref  # what P+'s preferred rank maximises
        self.ideal = ideal              # (n, K) ideal gains, sorted descending, 0-padded
        self.gmax = gmax                # (n,)
        self.n, self.D = g.shape
        self.K = ideal.shape[1]
        self.R = (ideal > 0).sum(axis=1)
        self.ranks = np.arange(1, self.D + 1, dtype=float)
        self._cache: dict = {}

    # -- helpers ------------------------------------------------------------------------------
    def col(self, cutoff: int | None) -> int:
        """Column of a cumulative (n, D) array holding the value at ``cutoff``."""
        return self.D - 1 if cutoff is None else min(cutoff, self.D) - 1

    def at(self, cum: np.ndarray, cutoff: int | None) -> np.ndarray:
        return cum[:, self.col(cutoff)]

    def ideal_at(self, cum: np.ndarray, cutoff: int | None) -> np.ndarray:
        if cum.shape[1] == 0:
            return np.zeros(self.n)
        j = cum.shape[1] - 1 if cutoff is None else min(cutoff, cum.shape[1]) - 1
        return cum[:, j]

    def cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    # -- shared quantities --------------------------------------------------------------------
    @cached_property
    def rel(self) -> np.ndarray:
        return self.g > 0

    @cached_property
    def C(self) -> np.ndarray:
        return np.cumsum(self.rel, axis=1, dtype=float)

    @cached_property
    def cg(self) -> np.ndarray:
        return np.cumsum(self.g, axis=1)

    @cached_property
    def icg_full(self) -> np.ndarray:
        return np.cumsum(self.ideal, axis=1)

    @cached_property
    def icg(self) -> np.ndarray:
        """cg*(r) for r = 1..D (constant past the ideal list's end)."""
        if self.K >= self.D:
            return self.icg_full[:, : self.D]
        out = np.empty((self.n, self.D))
        out[:, : self.K] = self.icg_full
        out[:, self.K:] = self.icg_full[:, -1:] if self.K else 0.0
        return out

    def br(self, beta: float) -> np.ndarray:
        return self.cached(("BR", beta), lambda: (self.C + beta * self.cg)
                           / (self.ranks + beta * self.icg))

    @cached_property
    def stop(self) -> np.ndarray:
        """ERR stop probability s(r) = g(r) / (gmax + 1)."""
        return self.g / (self.gmax[:, None] + 1.0)

    @cached_property
    def reach(self) -> np.ndarray:
        """prod_{i<r} (1 - s(i)): probability of reaching rank r."""
        out = np.empty_like(self.stop)
        out[:, 0] = 1.0
        np.cumprod(1.0 - self.stop[:, :-1], axis=1, out=out[:, 1:])
        return out

    @cached_property
    def first_rel(self) -> np.ndarray:
        """0-based index of the first relevant document, D if none."""
        has = self.rel.any(axis=1)
        return np.where(has, self.rel.argmax(axis=1), self.D)

    # -- measures -----------------------------------------------------------------------------
    def measure(self, spec: MeasureSpec) -> np.ndarray:
        name, l = spec.name, spec.cutoff
        R = self.R.astype(float)
        if name in ("AP", "Q"):
            if name == "AP":
                cum = self.cached("APcum", lambda: np.cumsum(
                    np.where(self.rel, self.C / self.ranks, 0.0), axis=1))
            else:
                beta = float(spec["beta"])
                cum = self.cached(("Qcum", beta), lambda: np.cumsum(
                    np.where(self.rel, self.br(beta), 0.0), axis=1))
            den = R if (l is None or spec["norm"] == "R") else np.minimum(l, R)
            return self.at(cum, l) / den
        if name == "P+":
            beta = float(spec["beta"])
            cum = self.cached(("Qcum", beta), lambda: np.cumsum(
                np.where(self.rel, self.br(beta), 0.0), axis=1))
            k = self.col(l) + 1
            top = np.where(self.rel[:, :k], self.pref[:, :k], -np.inf)
            best = top.max(axis=1)
            rp = (top == best[:, None]).argmax(axis=1)[:, None]
            best = np.where(self.rel[:, :k].any(axis=1), 1.0, 0.0)
            num = np.take_along_axis(cum, rp, axis=1)[:, 0]
            den = np.take_along_axis(self.C, rp, axis=1)[:, 0]
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(best > 0, num / np.where(den > 0, den, 1.0), 0.0)
        if name == "RR":
            k = self.col(l) + 1
            fr = self.first_rel
            return np.where(fr < k, 1.0 / (fr + 1.0), 0.0)
        if name in ("MSnDCG", "nDCG"):
            if name == "MSnDCG":
                key, disc = "ms", _discount_ms
            else:
                b = _log_base(spec["b"])
                key, disc = ("orig", b), (lambda n, b=b: _discount_orig(n, b))
            cum = self.cached(("DCG", key), lambda: np.cumsum(self.g * disc(self.D), axis=1))
            icum = self.cached(("IDCG", key), lambda: np.cumsum(self.ideal * disc(self.K), axis=1))
            return self.at(cum, l) / self.ideal_at(icum, l)
        if name == "nG":
            return self.g[:, 0] / (self.ideal[:, 0] if self.K else np.zeros(self.n))
        if name == "nCG":
            return self.at(self.cg, l) / self.ideal_at(self.icg_full, l)
        if name in ("ERR", "nERR"):
            cum = self.cached("ERRcum", lambda: np.cumsum(
                self.stop * self.reach / self.ranks, axis=1))
            err = self.at(cum, l)
            if name == "ERR":
                return err

            def ideal_err():
                s = self.ideal / (self.gmax[:, None] + 1.0)
                reach = np.ones_like(s)
                if self.K > 1:
                    np.cumprod(1.0 - s[:, :-1], axis=1, out=reach[:, 1:])
                return np.cumsum(s * reach / np.arange(1, self.K + 1), axis=1)

            return err / self.ideal_at(self.cached("IERRcum", ideal_err), l)
        if name == "RBP":
            p = float(spec["p"])
            cum = self.cached(("RBPcum", p), lambda: np.cumsum(
                self.g * p ** (self.ranks - 1.0), axis=1))
            return (1.0 - p) * self.at(cum, l) / self.gmax
        if name == "EBR":
            beta = float(spec["beta"])
            cum = self.cached(("EBRcum", beta), lambda: np.cumsum(
                self.br(beta) * self.reach * self.stop, axis=1))
            return self.at(cum, l)
        if name == "iRBU":
            p, e = float(spec["p"]), float(spec["e"])
            cum = self.cached(("iRBUcum", p), lambda: np.cumsum(
                p ** self.ranks * self.reach * self.stop, axis=1))
            value = self.at(cum, l)
            if e:
                value = value - e * geometric_sum(p, l)
            return value
        if name == "Hit":
            return (self.at(self.C, l) > 0).astype(float)
        if name == "P":
            return self.at(self.C, l) / l
        if name == "R":
            return self.at(self.C, l) / R
        if name in _NTCIR_EXTRA:
            return self.ntcir_measure(spec)
        raise ValueError(_unknown_message(name, MEASURES))  # pragma: no cover - parse() guards

    def ntcir_measure(self, spec: MeasureSpec) -> np.ndarray:
        """O-measure, P-measure, NCU, GAP and the condensed-list family (issue 14); definitions in
        the module docstring, loops of ntcir_eval.c transcribed in tests/_ntcireval_port.py."""
        name, l = spec.name, spec.cutoff
        R = self.R.astype(float)
        rows = np.arange(self.n)
        if name in ("O-measure", "P-measure", "r1", "rp"):
            k = self.col(l) + 1
            if name in ("O-measure", "r1"):   # BR at r1, the first relevant rank
                r = np.minimum(self.first_rel, self.D - 1)
                has = self.first_rel < k
            else:                     # BR at rp, P+'s preferred rank
                top = np.where(self.rel[:, :k], self.pref[:, :k], -np.inf)
                r = (top == top.max(axis=1)[:, None]).argmax(axis=1)
                has = self.rel[:, :k].any(axis=1)
            if name in ("r1", "rp"):
                return np.where(has, r + 1.0, 0.0)
            return np.where(has, self.br(float(spec["beta"]))[rows, r], 0.0)
        # the rest only involves the relevant ranks: work on them, compacted (see relc)
        pos, valid, kk = self.relc
        rank = pos + 1.0                       # rank r of the k-th relevant document
        count = kk + 1.0                       # C(r) at that rank
        if name == "NCU":
            if spec["util"] == "P":
                util = count / rank
            else:
                util = self.gather(self.br(float(spec["beta"])))
            if spec["stop"] == "gu":
                # graded-uniform stopping: P_S(r) proportional to the stop value of the document at
                # r, which NTCIREVAL takes equal to its gain unless '-s' says otherwise
                weight = self.gather(self.g)
                den = self.icg_full[:, -1] if self.K else np.zeros(self.n)
            else:
                # rank-biased stopping: the k-th relevant document retrieved gets gamma^(k-1)
                gamma = float(spec["gamma"])
                weight = gamma ** kk
                den = R if gamma == 1.0 else (1.0 - gamma ** R) / (1.0 - gamma)
            return np.where(valid, util * weight, 0.0).sum(axis=1) / den
        if name == "GAP":
            def numerator():
                x = self.gather(self.grades)
                f = x * (x + 1.0)
                less, wsum = _earlier_smaller(x, valid, f)
                # sum_{j<=r} m(m+1), m = min(x_r, x_j): x_r(x_r+1) for each j<=r with x_j >= x_r,
                # x_j(x_j+1) for the others (non-relevant j contribute 0)
                gsum = f * (count - less) + wsum
                return np.cumsum(np.where(valid, gsum / rank, 0.0), axis=1)

            cum = self.cached("GAPcum", numerator)
            icum = self.cached("GAPicum", lambda: np.cumsum(self.igrades * (self.igrades + 1.0), axis=1))
            c = self.at(self.C, l).astype(np.int64)   # relevant documents in the top l
            num = np.where(c > 0, cum[rows, np.maximum(c - 1, 0)], 0.0) if cum.shape[1] else 0.0
            return num / self.ideal_at(icum, l)
        # ---- condensed-list family (the block holds condensed lists) -----------------------
        N = np.asarray(self.n_nonrel, dtype=float)
        nonrel_before = rank - count           # judged non-relevant documents above rank r
        if name in ("bpref", "bpref_R", "bpref_N", "bpref_relative"):
            if name in ("bpref", "bpref_R"):
                mini = np.minimum(R[:, None], nonrel_before)
                den = np.where(R > N, N, R) if name == "bpref" else R
                term = 1.0 - mini / den[:, None]
            elif name == "bpref_N":
                term = 1.0 - nonrel_before / N[:, None]
            else:   # NTCIREVAL scores a relevant document at rank 1 as 0 here (no rank above it)
                term = np.where(rank > 1, 1.0 - nonrel_before / (rank - 1.0), 0.0)
            return np.where(valid, term, 0.0).sum(axis=1) / R

        def penalty():
            # sum_{j<r} max(0, g(r) - g(j)) / g(r) = #{j<r: g(j)<g(r)} - sum_{those j} g(j) / g(r)
            gr = self.gather(self.g)
            less, gsum = _earlier_smaller(gr, valid, gr)
            return nonrel_before + less - gsum / np.where(valid, gr, 1.0)

        pen = self.cached("rpref_penalty", penalty)
        gr = self.gather(self.g)
        cg_star = self.icg_full[:, -1] if self.K else np.zeros(self.n)
        if name == "rpref_N":
            term = 1.0 - pen / (R + N - cg_star / self.gmax)[:, None]
        elif name == "rpref_relative":
            term = np.where(rank > 1, 1.0 - pen / (rank - 1.0), 0.0)
        else:
            term = 1.0 - pen / rank
        return np.where(valid, gr * term, 0.0).sum(axis=1) / cg_star

    @cached_property
    def relc(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The relevant ranks of each list, compacted: ``pos[:, k]`` is the 0-based rank of the
        k-th relevant document (0 padding), ``valid`` marks real entries, ``kk`` is k as float."""
        rows, cols = np.nonzero(self.rel)
        k = self.C[rows, cols].astype(np.int64) - 1
        width = int(k.max()) + 1 if len(k) else 1
        pos = np.zeros((self.n, width), dtype=np.int64)
        pos[rows, k] = cols
        valid = np.arange(width)[None, :] < self.C[:, -1:]
        return pos, valid, np.broadcast_to(np.arange(width, dtype=float), (self.n, width))

    def gather(self, arr: np.ndarray) -> np.ndarray:
        """Values of an (n, D) array at the compacted relevant ranks (garbage where not valid)."""
        return np.take_along_axis(arr, self.relc[0], axis=1)


def evaluate_arrays(ranked_gains, ideal_gains, measures, *, gmax=None,
                    ranked_judged=None, preference=None, grades=None, ideal_grades=None,
                    n_nonrel=None) -> dict[str, np.ndarray]:
    """Score many ranked lists given their gains: the engine behind :func:`evaluate`.

    Parameters
    ----------
    ranked_gains : array_like, shape (n_lists, depth)
        Gain of the document at each rank, list by list; 0 for judged non-relevant *and* for
        unjudged documents; ``NaN`` pads each list past its end (NaN is only allowed as a suffix,
        so an all-NaN row is an empty list). A 1-D array is one list. Gains must be finite and
        >= 0. Gains may depend on the rank (DIN-measures): nothing is looked up here.
    ideal_gains : array_like, shape (n_lists, k)
        Gains of all judged relevant items of each list's topic (the ideal list). Need not be
        sorted (it is sorted in decreasing order here); zeros or NaN pad rows to a common ``k``.
        ``R`` is the number of positive entries. Rows with ``R = 0`` give NaN for every measure.
    measures : str, MeasureSpec or iterable of them
        Names as in :data:`MEASURES`, e.g. ``["AP", "Q@10", "nERR@10"]``.
    gmax : float or array_like of shape (n_lists,), optional
        Highest gain, used by ERR, nERR, RBP, EBR and iRBU (stop probability ``g/(gmax+1)``,
        RBP normalisation). Default: the highest ideal gain of each row, as NTCIREVAL
        ``gcompute`` does. Pass the top of the gain scale for NTCIREVAL ``compute`` semantics.
    ranked_judged : array_like of bool, shape (n_lists, depth), optional
        If given, entries marked False (unjudged documents) are *removed* before ranks are
        counted: NTCIREVAL's condensed lists (``-j``; Sakai 2007). Leave it out to treat
        unjudged documents as non-relevant.
    preference : array_like, shape (n_lists, depth), optional
        Values whose maximum over the relevant retrieved documents defines P+'s preferred rank
        (the first rank holding it). Default: the gains (NTCIREVAL ``gcompute``). NTCIREVAL
        ``compute`` uses relevance levels, which differs only when two levels share a gain;
        :func:`evaluate` passes the levels then.
    grades, ideal_grades : array_like, optional
        What GAP compares, shaped like ``ranked_gains`` and ``ideal_gains``: NTCIREVAL
        ``compute -gap`` uses relevance levels, ``gcompute -gap`` the gains (the default).
        ``ideal_grades`` is sorted in decreasing order here.
    n_nonrel : array_like of int, shape (n_lists,), optional
        Number ``N`` of judged non-relevant documents of each list's topic; required by the
        condensed-list family (``bpref`` ... ``rpref_relative2``), which takes ``ranked_gains``
        as the condensed list (judged documents only; pass ``ranked_judged`` to condense).
        A list with relevant items and ``N = 0`` raises ``ValueError`` (NTCIREVAL: "no judged
        nonrel: bpref etc. not computable").

    Returns
    -------
    dict of str to numpy.ndarray
        One float array of shape (n_lists,) per measure, keyed by the canonical label
        (``str(MeasureSpec)``), in the order requested.

    Notes
    -----
    Every measure is a gather from prefix sums over ranks computed once per block of lists
    (O(n_lists x depth) memory per block, O(depth) work per list and measure family; only the
    ideal lists are sorted). See the module docstring for the definitions and cutoff rules.

    Raises
    ------
    ValueError
        For arrays of the wrong dimension or inconsistent shapes, negative or infinite gains,
        NaN in the middle of a list, a non-positive ``gmax`` for a list with relevant items, a
        gain above ``gmax + 1`` when an ERR-type measure is asked for, or an unknown measure
        name.
    """
    specs = parse_measures(measures)
    with_rel = [str(s) for s in specs if s.rel is not None]
    if with_rel:
        raise ValueError(f"{with_rel[0]}: rel= thresholds relevance levels, and evaluate_arrays only "
                         "sees gains; zero the gains below the threshold yourself, or use evaluate()")
    g = _as_2d("ranked_gains", ranked_gains, allow_nan=True)
    ideal = _as_2d("ideal_gains", ideal_gains, allow_nan=True)
    n = g.shape[0]
    if ideal.shape[0] != n:
        raise ValueError(f"ranked_gains has {n} lists but ideal_gains has {ideal.shape[0]} rows")
    if preference is not None:
        preference = _as_2d("preference", preference, allow_nan=True)
        if preference.shape != g.shape:
            raise ValueError(f"preference has shape {preference.shape}, ranked_gains {g.shape}")
    if (grades is None) != (ideal_grades is None):
        raise ValueError("grades and ideal_grades go together: pass both (e.g. relevance levels "
                         "for NTCIREVAL compute's GAP) or neither (GAP on the gains)")
    if grades is not None:
        grades = _as_2d("grades", grades, allow_nan=True)
        if grades.shape != g.shape:
            raise ValueError(f"grades has shape {grades.shape}, ranked_gains {g.shape}")
        ideal_grades = _as_2d("ideal_grades", ideal_grades, allow_nan=True)
        if ideal_grades.shape[0] != n:
            raise ValueError(f"ranked_gains has {n} lists but ideal_grades has "
                             f"{ideal_grades.shape[0]} rows")
    if ranked_judged is not None:
        judged = np.asarray(ranked_judged)
        if judged.ndim == 1:
            judged = judged[None, :]
        if judged.shape != g.shape:
            raise ValueError(f"ranked_judged has shape {judged.shape}, ranked_gains {g.shape}")
        if judged.dtype != bool:
            raise ValueError(f"ranked_judged must be a boolean array, got dtype {judged.dtype}")
        keep = judged & ~np.isnan(g)
        g = _compact(g, keep)
        if preference is not None:
            preference = _compact(preference, keep)
        if grades is not None:
            grades = _compact(grades, keep)
    nan = np.isnan(g)
    if nan.any():
        # NaN may only pad the end of a list: once NaN, NaN for the rest of the row.
        bad = nan[:, :-1] & ~nan[:, 1:]
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(f"ranked_gains[{i}, {j}] is NaN but rank {j + 2} of list {i} is not: "
                             "NaN may only pad the end of a list")
        g = np.where(nan, 0.0, g)
    if g.shape[1] == 0:
        g = np.zeros((n, 1))
    ideal = -np.sort(-np.nan_to_num(ideal, nan=0.0), axis=1)
    # drop all-zero trailing columns of the ideal matrix
    k = int((ideal > 0).sum(axis=1).max()) if n and ideal.size else 0
    ideal = ideal[:, :k]
    R = (ideal > 0).sum(axis=1)
    if gmax is None:
        gm = ideal[:, 0].copy() if k else np.zeros(n)
    else:
        gm = np.broadcast_to(np.asarray(gmax, dtype=float), (n,)).copy()
        if not np.isfinite(gm).all():
            raise ValueError("gmax must be finite")
        bad = (gm <= 0) & (R > 0)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"gmax must be > 0 for lists with relevant items; list {i} has gmax {gm[i]!r}")
    gm[R == 0] = 1.0  # placeholder; those rows become NaN below
    if any(sp.name in ("ERR", "nERR", "EBR", "iRBU") for sp in specs):
        over = (g > gm[:, None] + 1.0) & (R > 0)[:, None]
        if over.any():
            i, j = np.argwhere(over)[0]
            raise ValueError(f"ranked_gains[{i}, {j}] = {g[i, j]!r} exceeds gmax + 1 = "
                             f"{gm[i] + 1!r}: ERR's stop probability g/(gmax+1) would exceed 1")
    # Trim columns no measure needs: if every measure has a cutoff, ranks past the largest one
    # never matter.
    cutoffs = [s.cutoff for s in specs]
    depth = g.shape[1]
    if all(c is not None for c in cutoffs):
        depth = max(1, min(depth, max(cutoffs)))
        g = g[:, :depth]
    pref = None
    if preference is not None:
        pref = np.zeros(g.shape)
        w = min(g.shape[1], preference.shape[1])
        pref[:, :w] = np.nan_to_num(preference[:, :w], nan=0.0)
    grd = igrd = nonrel = None
    if grades is not None:
        grd = np.zeros(g.shape)
        w = min(g.shape[1], grades.shape[1])
        grd[:, :w] = np.where(g[:, :w] > 0, np.nan_to_num(grades[:, :w], nan=0.0), 0.0)
        igrd = -np.sort(-np.nan_to_num(ideal_grades, nan=0.0), axis=1)
    if any(s.name in CONDENSED_ONLY for s in specs):
        if n_nonrel is None:
            raise ValueError("the condensed-list measures (bpref ... rpref_relative2) need n_nonrel, "
                             "the number of judged non-relevant documents of each list's topic")
        nonrel = np.broadcast_to(np.asarray(n_nonrel, dtype=float), (n,)).copy()
        if not np.isfinite(nonrel).all() or (nonrel < 0).any():
            raise ValueError("n_nonrel must hold counts >= 0")
        bad = (nonrel == 0) & (R > 0)
        if bad.any():
            raise ValueError(f"list {int(np.argmax(bad))} has no judged non-relevant document (N = 0): "
                             "bpref and the other condensed-list measures are undefined (NTCIREVAL: "
                             "'no judged nonrel: bpref etc. not computable')")
    out = {str(s): np.empty(n) for s in specs}
    rows = max(1, _BLOCK_ELEMENTS // max(depth, k, 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        for start in range(0, n, rows):
            sl = slice(start, min(n, start + rows))
            block = _Block(g[sl], ideal[sl], gm[sl], None if pref is None else pref[sl],
                           grades=None if grd is None else grd[sl],
                           igrades=None if igrd is None else igrd[sl],
                           n_nonrel=None if nonrel is None else nonrel[sl])
            for s in specs:
                out[str(s)][sl] = block.measure(s)
    for v in out.values():
        v[R == 0] = np.nan
    return out


# ---------------------------------------------------------------------------------------------
# Tidy tables
# ---------------------------------------------------------------------------------------------

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
            if isinstance(key, (bool, np.bool_)) or not float(key).is_integer():
                raise ValueError(f"gain mapping keys must be integer levels, got {key!r}")
            mapping[int(key)] = float(v)
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


def _positions(list_id: np.ndarray, n_lists: int) -> np.ndarray:
    """0-based position of each row within its list; rows must be grouped by ``list_id``."""
    first = np.full(n_lists, -1, dtype=np.int64)
    if len(list_id):
        boundary = np.flatnonzero(np.r_[True, list_id[1:] != list_id[:-1]])
        first[list_id[boundary]] = boundary
    return np.arange(len(list_id), dtype=np.int64) - first[list_id]


def _report_topic_mismatch(run_topics: np.ndarray, qrels_topics: pd.Index) -> None:
    """Refuse a run that shares no topic with the qrels, or whose topic ids differ only in their
    spelling of a number ("1.0" vs "1"); warn with counts when only some topics are unknown."""
    run_topics = np.asarray(run_topics, dtype=object)
    unknown = [t for t in run_topics if t not in qrels_topics]
    twins = number_spelling_twins(unknown, qrels_topics)
    if twins:
        t, q = twins[0]
        raise ValueError(f"run topic {t!r} and qrels topic {q!r} differ only in how the number is written "
                         f"({len(twins)} such topic(s)); identifiers are compared as exact strings. "
                         "Read both files with string ids, or normalise them the same way")
    if len(unknown) == len(run_topics):
        raise ValueError(f"the run shares no topic with the qrels: run topics {sorted(map(str, run_topics))[:5]}"
                         f"{'...' if len(run_topics) > 5 else ''}, qrels topics "
                         f"{sorted(map(str, qrels_topics))[:5]}{'...' if len(qrels_topics) > 5 else ''}")
    warnings.warn(f"{len(unknown)} of {len(run_topics)} run topic(s) are not in the qrels and are ignored "
                  f"(e.g. {sorted(map(str, unknown))[:3]})", UserWarning, stacklevel=3)


def _natural_order(ids: np.ndarray) -> np.ndarray:
    """Sort topic ids numerically if they all look like integers, else as strings."""
    ids = np.asarray(ids, dtype=object)
    if len(ids) and all(s.isdigit() for s in ids):
        return ids[np.lexsort((ids.astype(str), np.array([int(s) for s in ids])))]
    return np.array(sorted(ids), dtype=object)


def _qrels_gains(qrels: pd.DataFrame, gains, gmax
                 ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Gain per qrels row; for level-based qrels also the global gmax, and the levels when two
    relevant levels share a gain (P+'s preferred rank then follows levels, as in NTCIREVAL)."""
    has_rel, has_gain = "relevance" in qrels.columns, "gain" in qrels.columns
    if has_rel == has_gain:
        raise ValueError("qrels needs exactly one of the columns 'relevance' (integer levels) "
                         f"or 'gain' (real-valued gains); it has {list(qrels.columns)}")
    if has_gain:
        if gains is not None:
            raise ValueError("gains= maps relevance levels to gains; qrels already has a 'gain' "
                             "column, so leave gains out")
        g = pd.to_numeric(qrels["gain"], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(g) | (g < 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"qrels 'gain' must be finite and >= 0; row {i} has "
                             f"{qrels['gain'].iloc[i]!r}")
        return g, None, None
    lv = pd.to_numeric(qrels["relevance"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(lv) | (lv != np.round(lv))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"qrels 'relevance' must hold integer levels; row {i} has "
                         f"{qrels['relevance'].iloc[i]!r}")
    if len(lv) and np.abs(lv).max() >= 2.0 ** 53:
        i = int(np.argmax(np.abs(lv)))
        raise ValueError(f"qrels row {i} has relevance level {qrels['relevance'].iloc[i]!r}, beyond "
                         "the integers a float gain represents exactly")
    lv = lv.astype(np.int64)
    pos = lv > 0
    if gains is None:
        # linear gains (gain = level): computed from the levels present, never a table sized by
        # the largest level (a level of 10**8 must not allocate 10**8 entries)
        top = int(lv.max()) if len(lv) else 0
        g = np.where(pos, lv, 0).astype(float)
        return g, np.asarray(float(max(top, 1)), dtype=float), None
    mapping = parse_gain_spec(gains)
    unknown = pos & ~np.isin(lv, list(mapping))
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise ValueError(f"qrels row {i} has relevance level L{lv[i]}, which the gain mapping "
                         f"does not cover (levels {sorted(k for k in mapping if k > 0)})")
    keys = np.array(sorted(mapping), dtype=np.int64)
    vals = np.array([mapping[k] for k in keys], dtype=float)
    idx = np.clip(np.searchsorted(keys, lv), 0, len(keys) - 1)
    g = np.where(pos & (keys[idx] == lv), vals[idx], 0.0)
    positive = [v for k, v in sorted(mapping.items()) if k > 0]
    tied = len(set(positive)) < len(positive)
    return g, np.asarray(max(mapping.values()), dtype=float), (np.maximum(lv, 0) if tied else None)


def _ideal_by_topic(tcode: np.ndarray, gain: np.ndarray, n_topics: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Ideal gains per topic, ``(n_topics, k)`` sorted descending and 0-padded, and ``R``."""
    relmask = gain > 0
    R = np.bincount(tcode[relmask], minlength=n_topics)
    k = int(R.max()) if n_topics else 0
    ideal = np.zeros((n_topics, max(k, 1)))
    if k:
        t, gsel = tcode[relmask], gain[relmask]
        o = np.lexsort((-gsel, t))
        t, gsel = t[o], gsel[o]
        starts = np.searchsorted(t, np.arange(n_topics))
        ideal[t, np.arange(len(t)) - starts[t]] = gsel
    return ideal, R


def _levels_for_rel(qrels: pd.DataFrame, spec: MeasureSpec) -> np.ndarray:
    """Relevance levels (negative ones as 0) for the ``rel=`` threshold of binary measures."""
    if "relevance" not in qrels.columns:
        raise ValueError(f"{spec}: rel= thresholds relevance levels, but the qrels hold real-valued "
                         "gains (a 'gain' column); leave rel= out, or pass levels in a 'relevance' column")
    lv = pd.to_numeric(qrels["relevance"], errors="coerce").to_numpy(dtype=float)
    return np.maximum(lv, 0.0)  # already checked to be integers by _qrels_gains


def _dense_codes(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Ranks 0..k-1 of the values of ``key`` (equal values share a rank) and k."""
    uniq, inv = np.unique(key, return_inverse=True)
    return inv.astype(np.int64), len(uniq)


def _order_rows(list_id: np.ndarray, keys: list[tuple[np.ndarray, bool]]) -> np.ndarray | None:
    """Permutation grouping rows by ``list_id`` and sorting each list by ``keys`` (pairs of
    array and ascending flag, most significant first), or None if the rows already are in that
    order (the usual case for TREC runs, checked in O(n): lists contiguous, in any order, and
    sorted within)."""
    n = len(list_id)
    if n < 2:
        return None
    same = list_id[1:] == list_id[:-1]
    n_lists = np.count_nonzero(np.bincount(list_id))
    if n - int(same.sum()) == n_lists:  # each list is one contiguous block
        undecided = same
        wrong = np.zeros(n - 1, dtype=bool)
        for k, ascending in keys:
            a, b = k[:-1], k[1:]
            wrong |= undecided & ((a > b) if ascending else (a < b))
            undecided &= a == b
        if not wrong.any():
            return None
    # one int64 composite key when the dense ranks fit in 63 bits, else lexsort
    parts = [(list_id.astype(np.int64), int(list_id.max()) + 1)]
    for k, ascending in keys:
        codes, size = (_dense_codes(k) if k.dtype.kind == "f" else
                       (k - k.min(), int(k.max() - k.min()) + 1))
        parts.append((codes if ascending else size - 1 - codes, size))
    if sum(math.log2(max(size, 2)) for _, size in parts) < 62:
        composite = np.zeros(n, dtype=np.int64)
        for codes, size in parts:
            composite = composite * size + codes
        return np.argsort(composite, kind="stable")
    return np.lexsort(tuple(reversed([codes for codes, _ in parts])))


def evaluate(qrels: pd.DataFrame, run: pd.DataFrame, measures, *,
             gains: "str | Mapping[int, float] | None" = None,
             gmax: "float | str | None" = None,
             condensed: bool = False,
             order_by: str = "rank",
             duplicates: str = "error",
             no_relevant: str = "skip",
             missing: str = "zero",
             depth: int | None = None) -> pd.DataFrame:
    """Evaluate one or many runs against graded qrels with NTCIREVAL's measure definitions.

    Parameters
    ----------
    qrels : pandas.DataFrame, dict, iterable of namedtuples or path
        Columns ``query_id``, ``doc_id`` and either ``relevance`` (integer levels, mapped through
        ``gains``) or ``gain`` (real-valued gains used as they are, e.g. unanimity-aware or PRM
        gains). Each (query_id, doc_id) at most once. Also accepted (converted once by
        :func:`helpers.io.coerce.as_qrels`, then checked as a DataFrame): a pytrec_eval/ranx dict
        ``{qid: {docid: level}}``, an iterable of ir_measures/ir_datasets ``Qrel``/``TrecQrel``
        namedtuples, or the path of a TREC qrels file.
    run : pandas.DataFrame, dict, iterable of namedtuples or path
        Columns ``query_id``, ``doc_id``, ``rank`` and/or ``score``, optionally ``run_id``
        (several runs at once; without it the run is called ``"run"``). Also accepted
        (:func:`helpers.io.coerce.as_run`): ``{qid: {docid: score}}``, ``{run_id: {qid: {docid:
        score}}}``, an iterable of ``ScoredDoc`` namedtuples, or the path of a TREC run file.
    measures : str or iterable of str
        Measure names, see the module docstring and :data:`MEASURES`; binary measures take
        ``rel=`` (``"AP(rel=2)"``). For trec_eval/ir_measures names (``ndcg_cut_10``, ``map``)
        see :func:`helpers.measures.names.translate` and the table in the module docstring:
        ``nDCG@10`` here is NTCIREVAL's original nDCG, trec_eval's is ``MSnDCG@10``.
    gains : str or dict, optional
        Level-to-gain mapping for ``relevance`` qrels: NTCIREVAL's ``"1:2:3"`` (L1->1, L2->2,
        L3->3) or ``{1: 1.0, 2: 2.0, 3: 3.0}``. L0 and negative levels get 0. Default: linear
        (gain = level), i.e. ``-g 1:2:...:Lmax``.
    gmax : float or "topic", optional
        Highest gain for ERR/nERR/RBP/EBR/iRBU. Default: top of the gain mapping for levels
        (NTCIREVAL ``compute``), the topic's highest gain for a ``gain`` column (``gcompute``).
    condensed : bool
        Remove unjudged documents before counting ranks (NTCIREVAL ``-j``).
    order_by : {"rank", "score"}
        ``"rank"`` (default): increasing ``rank`` when the run has one, ties and rank-less runs
        by decreasing score then decreasing doc_id; ``"score"``: trec_eval's order, rank ignored.
    duplicates : {"error", "keep_first"}
        A document retrieved twice for one topic by one run raises ``ValueError`` (default) or
        keeps only its highest-ranked copy.
    no_relevant : {"skip", "zero", "nan"}
        Topics whose qrels hold no relevant document: dropped (NTCIREVAL, default), scored 0
        (trec_eval, ir_measures) or kept as NaN.
    missing : {"zero", "skip"}
        Qrels topics a run did not answer: scored 0 (NTCIREVAL, ir_measures; default) or
        dropped (trec_eval).
    depth : int, optional
        Keep only the first ``depth`` documents of every list before condensing (the doc limit
        of NTCIREVAL's ``TRECsplitruns``). Default: all.

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id``, ``query_id``, ``measure``, ``value``; runs in order of first
        appearance, topics in natural order, measures in the order requested.

    Raises
    ------
    ValueError
        For missing columns, missing identifiers, non-integer levels or negative/non-finite
        gains, a level the gain mapping does not cover, a pair judged twice, a document retrieved
        twice (unless ``duplicates="keep_first"``), NaN ranks or scores, unknown options or
        measure names, ``rel=`` on a graded measure or with a ``gain`` column.
    """
    if measures is None or not isinstance(measures, (str, MeasureSpec, list, tuple, set, frozenset,
                                                     pd.Index, np.ndarray, pd.Series)):
        raise ValueError(f"measures must be a measure name or a list of names (e.g. ['AP', "
                         f"'nDCG@10']), got {type(measures).__name__}")
    qrels, run = coerce.as_qrels(qrels), coerce.as_run(run)
    specs = parse_measures(measures)
    for opt, val, allowed in [("order_by", order_by, ("rank", "score")),
                              ("duplicates", duplicates, ("error", "keep_first")),
                              ("no_relevant", no_relevant, ("skip", "zero", "nan")),
                              ("missing", missing, ("zero", "skip"))]:
        if val not in allowed:
            raise ValueError(f"{opt} must be one of {allowed}, got {val!r}")
    if depth is not None and (not isinstance(depth, (int, np.integer)) or depth < 1):
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    if not isinstance(condensed, (bool, np.bool_)):
        raise ValueError(f"condensed must be True or False, got {condensed!r}")

    # ---- qrels ------------------------------------------------------------------------------
    require_columns(qrels, "qrels", ["query_id", "doc_id"])
    q_topic = str_ids(qrels["query_id"], "qrels 'query_id'")
    q_doc = str_ids(qrels["doc_id"], "qrels 'doc_id'")
    q_gain, scale_max, q_level = _qrels_gains(qrels, gains, gmax)
    levels_tied = q_level is not None  # P+ then follows levels (NTCIREVAL compute)
    rel_values = sorted({s.rel for s in specs if s.rel is not None})
    if rel_values:  # binary measures with rel=: the levels travel with the gains
        q_level = _levels_for_rel(qrels, next(s for s in specs if s.rel is not None))
    dup = pd.DataFrame({"q": q_topic, "d": q_doc}).duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        raise ValueError(f"qrels judge document {q_doc[i]!r} twice for topic {q_topic[i]!r}")
    topics = _natural_order(pd.unique(q_topic))
    n_topics = len(topics)
    if n_topics == 0:
        raise ValueError("qrels is empty: there is nothing to evaluate against")
    topic_index = pd.Index(topics)
    q_tcode = topic_index.get_indexer(q_topic)

    # ideal gains per topic: (n_topics, k) sorted descending
    ideal_topic, R_topic = _ideal_by_topic(q_tcode, q_gain, n_topics)
    if gmax is None:
        gmax_topic = (np.full(n_topics, float(scale_max)) if scale_max is not None
                      else ideal_topic[:, 0].copy())
    elif isinstance(gmax, str):
        if gmax != "topic":
            raise ValueError(f"gmax must be a positive number, 'topic' or None, got {gmax!r}")
        gmax_topic = ideal_topic[:, 0].copy()
    else:
        gv = float(gmax)
        if not math.isfinite(gv) or gv <= 0:
            raise ValueError(f"gmax must be a positive number, 'topic' or None, got {gmax!r}")
        gmax_topic = np.full(n_topics, gv)
    gmax_topic[R_topic == 0] = 1.0
    # GAP compares relevance levels when the qrels hold levels (NTCIREVAL compute -gap), gains
    # otherwise (gcompute -gap)
    relmask = q_gain > 0
    q_grade = ideal_grade_topic = None
    if "relevance" in qrels.columns and any(s.name == "GAP" for s in specs):
        q_grade = np.maximum(pd.to_numeric(qrels["relevance"]).to_numpy(dtype=float), 0.0)
        if np.array_equal(q_grade[relmask], q_gain[relmask]):
            q_grade = None  # gain = level (linear gains): GAP on the gains is the same thing
    if q_grade is not None:
        ideal_grade_topic = _ideal_by_topic(q_tcode, np.where(relmask, q_grade, 0.0), n_topics)[0]

    # ---- run --------------------------------------------------------------------------------
    require_columns(run, "run", ["query_id", "doc_id"])
    if "rank" not in run.columns and "score" not in run.columns:
        raise ValueError(f"run needs a 'rank' or a 'score' column; it has {list(run.columns)}")
    if "run_id" in run.columns:
        r_codes, run_ids = factorize_ids(run["run_id"], "run 'run_id'")
    else:
        r_codes, run_ids = np.zeros(len(run), dtype=np.int64), np.array(["run"], dtype=object)
    n_runs = len(run_ids)
    rq_codes, rq_uniques = factorize_ids(run["query_id"], "run 'query_id'")
    r_tcode = topic_index.get_indexer(rq_uniques)[rq_codes] if len(run) else rq_codes
    del rq_codes
    rank = score = None
    if "rank" in run.columns and order_by == "rank":
        rank = pd.to_numeric(run["rank"], errors="coerce").to_numpy(dtype=float)
        if np.isnan(rank).any():
            i = int(np.flatnonzero(np.isnan(rank))[0])
            raise ValueError(f"run 'rank' must be numeric; row {i} has {run['rank'].iloc[i]!r}")
    if "score" in run.columns:
        score = pd.to_numeric(run["score"], errors="coerce").to_numpy(dtype=float)
        if np.isnan(score).any():
            i = int(np.flatnonzero(np.isnan(score))[0])
            raise ValueError(f"run 'score' must be numeric; row {i} has {run['score'].iloc[i]!r}")
    elif order_by == "score":
        raise ValueError("order_by='score' needs a 'score' column in the run")

    keep = r_tcode >= 0  # topics not in the qrels are ignored (trec_eval, NTCIREVAL) -- but not silently
    all_kept = bool(keep.all())
    if len(run) and not all_kept:
        _report_topic_mismatch(rq_uniques, topic_index)
    list_id = np.asarray(r_codes, dtype=np.int64) * n_topics + r_tcode
    del r_codes, r_tcode
    if not all_kept:
        list_id = list_id[keep]
    present = np.zeros(n_runs * n_topics, dtype=bool)
    present[list_id] = True
    d_codes, d_uniques = factorize_ids(run["doc_id"] if all_kept else run["doc_id"][keep],
                                        "run 'doc_id'", sort=True, blocky=False)
    keys = []
    if rank is not None:
        keys.append((rank if all_kept else rank[keep], True))
    if score is not None:
        keys.append((score if all_kept else score[keep], False))
    keys.append((d_codes, False))
    order = _order_rows(list_id, keys)
    del keys, rank, score
    if order is not None:
        list_id, d_codes = list_id[order], d_codes[order]
    del order

    # duplicates: a (list, document) pair twice
    n_docs = max(len(d_uniques), 1)
    pair = list_id * n_docs + d_codes
    sp = np.sort(pair)
    dup = sp[1:] == sp[:-1]
    if dup.any():
        if duplicates == "error":
            lid, dc = divmod(int(sp[1:][dup][0]), n_docs)
            rid, tid = divmod(lid, n_topics)
            raise ValueError(f"run {run_ids[rid]!r} retrieves document {d_uniques[dc]!r} more than "
                             f"once for topic {topics[tid]!r} (pass duplicates='keep_first' to keep "
                             "the highest-ranked copy)")
        first = ~pd.Series(pair).duplicated(keep="first").to_numpy()
        list_id, d_codes = list_id[first], d_codes[first]
    del sp, dup, pair

    # gains of the retrieved documents (unjudged: -1 -> gain 0)
    qd = pd.Index(d_uniques).get_indexer(q_doc)
    qok = qd >= 0
    q_pair = q_tcode[qok].astype(np.int64) * n_docs + qd[qok]
    hit = (pd.Index(q_pair).get_indexer(list_id % n_topics * n_docs + d_codes) if len(q_pair)
           else np.full(len(list_id), -1))
    del d_codes
    judged = hit >= 0
    judged_any = bool(judged.any())
    gain = np.append(q_gain[qok], 0.0)[hit]  # hit == -1 picks the appended 0
    level = None if q_level is None else np.append(q_level[qok], 0)[hit].astype(float)

    grade = None if q_grade is None else np.append(q_grade[qok], 0.0)[hit]
    del hit

    pos = _positions(list_id, n_runs * n_topics)
    if depth is not None:
        sel = pos < depth
        list_id, gain, judged, pos = list_id[sel], gain[sel], judged[sel], pos[sel]
        level = None if level is None else level[sel]
        grade = None if grade is None else grade[sel]
    n_lists = n_runs * n_topics
    list_topic = np.tile(np.arange(n_topics), n_runs)
    cond_specs = [s for s in specs if s.name in CONDENSED_ONLY]
    main_specs = [s for s in specs if s.name not in CONDENSED_ONLY]
    scores: dict[str, np.ndarray] = {}
    if cond_specs:
        # bpref and its variants always rank the judged documents only (Sakai 2007; NTCIREVAL -j)
        N_topic = np.bincount(q_tcode[~relmask], minlength=n_topics)
        bad = (N_topic == 0) & (R_topic > 0)
        if bad.any():
            t = [str(x) for x in topics[bad]]
            raise ValueError(f"topic(s) {t[:5]}{'...' if len(t) > 5 else ''} have relevant but no judged "
                             f"non-relevant document, so {', '.join(str(x) for x in cond_specs)} "
                             "(which compare relevant with judged non-relevant documents) are undefined "
                             "there (NTCIREVAL: 'no judged nonrel: bpref etc. not computable'); drop "
                             "these measures or those topics")
        c_list = list_id[judged]
        c_pos = _positions(c_list, n_lists)
        c_matrix = np.full((n_lists, int(c_pos.max()) + 1 if len(c_pos) else 1), np.nan)
        c_matrix[c_list, c_pos] = gain[judged]
        scores.update(evaluate_arrays(c_matrix, ideal_topic[list_topic], cond_specs,
                                      gmax=gmax_topic[list_topic],
                                      n_nonrel=np.maximum(N_topic, 1)[list_topic]))
        del c_list, c_pos, c_matrix
    if condensed:
        list_id, gain = list_id[judged], gain[judged]
        level = None if level is None else level[judged]
        grade = None if grade is None else grade[judged]
        pos = _positions(list_id, n_runs * n_topics)
    del judged
    no_rel_at: dict[str, np.ndarray] = {}
    if main_specs:
        if all(s.cutoff is not None for s in main_specs):
            sel = pos < max(s.cutoff for s in main_specs)
            list_id, gain, pos = list_id[sel], gain[sel], pos[sel]
            level = None if level is None else level[sel]
            grade = None if grade is None else grade[sel]
        width = int(pos.max()) + 1 if len(pos) else 1
        matrix = np.full((n_lists, width), np.nan)
        matrix[list_id, pos] = gain
        pref = grades_m = None
        if level is not None:
            pref = np.zeros((n_lists, width))
            pref[list_id, pos] = level
        if grade is not None:  # GAP on relevance levels (NTCIREVAL compute -gap)
            grades_m = np.zeros((n_lists, width))
            grades_m[list_id, pos] = grade
        plain = [s for s in main_specs if s.rel is None]
        if plain:
            scores.update(evaluate_arrays(
                matrix, ideal_topic[list_topic], plain, gmax=gmax_topic[list_topic],
                preference=pref if levels_tied else None, grades=grades_m,
                ideal_grades=None if grades_m is None else ideal_grade_topic[list_topic]))
        for r in rel_values:  # levels below r are non-relevant: zero their gains, run list and ideal
            group = [s for s in main_specs if s.rel == r]
            ideal_r, R_r = _ideal_by_topic(q_tcode, np.where(q_level >= r, q_gain, 0.0), n_topics)
            g_r = np.where(np.isnan(matrix), np.nan, np.where(pref >= r, matrix, 0.0))
            res = evaluate_arrays(g_r, ideal_r[list_topic], [s.without_rel() for s in group],
                                  gmax=gmax_topic[list_topic])
            for s in group:
                scores[str(s)] = res[str(s.without_rel())]
                no_rel_at[str(s)] = R_r[list_topic] == 0
            del g_r
        del matrix
    del list_id, gain, pos, level, grade

    # ---- conventions and tidy output --------------------------------------------------------
    if no_relevant == "skip" and not R_topic.any():
        raise ValueError("qrels hold no relevant document (every level is <= 0), so every topic would "
                         "be skipped and the result would be empty; pass no_relevant='zero' or 'nan' "
                         "to score such topics")
    if len(run) and not judged_any:
        warnings.warn("no retrieved document is judged in the qrels (every value is 0): do the run's "
                      "doc_ids use the qrels' identifiers?", UserWarning, stacklevel=2)
    no_rel = R_topic[list_topic] == 0
    keep_list = np.ones(n_lists, dtype=bool)
    if missing == "skip":
        keep_list &= present
    if no_relevant == "skip":
        keep_list &= ~no_rel
    labels = [str(s) for s in specs]
    values = np.stack([scores[lab] for lab in labels], axis=1)  # (n_lists, n_measures)
    if no_relevant == "zero":
        values[no_rel] = 0.0
        for j, lab in enumerate(labels):
            if lab in no_rel_at:  # no document at level >= rel: 0 as trec_eval -l
                values[no_rel_at[lab], j] = 0.0
    values = values[keep_list]
    kept = np.flatnonzero(keep_list)
    n_m = len(labels)
    out = pd.DataFrame({
        "run_id": pd.Series(np.repeat(run_ids[kept // n_topics], n_m), dtype="str"),
        "query_id": pd.Series(np.repeat(topics[kept % n_topics], n_m), dtype="str"),
        "measure": pd.Series(np.tile(np.array(labels, dtype=object), len(kept)), dtype="str"),
        "value": values.ravel(),
    })
    return out


def with_default_rel(measures, rel: int | None) -> list[MeasureSpec]:
    """Give every binary measure written without ``rel=`` the threshold ``rel`` (trec_eval's
    ``-l``); graded measures and explicit ``rel=`` are left as they are. ``rel=None`` or 1
    changes nothing (1 is the default threshold: level >= 1 is relevant)."""
    specs = parse_measures(measures)
    if rel is None or rel == 1:
        return specs
    if isinstance(rel, (bool, np.bool_)) or not isinstance(rel, (int, np.integer)) or rel < 1:
        raise ValueError(f"rel must be an integer relevance level >= 1, got {rel!r}")
    out = []
    for s in specs:
        if s.rel is None and MEASURES.get(s.name, MeasureDef(s.name)).binary:
            s = MeasureSpec(s.name, tuple(sorted(s.params + ((REL_PARAM, float(rel)),))),
                            s.cutoff, s.defaults)
        out.append(s)
    return parse_measures(out)


def aggregate(results: pd.DataFrame) -> pd.DataFrame:
    """Mean over topics per run and measure, with the number of topics averaged.

    Parameters
    ----------
    results : pandas.DataFrame
        Output of :func:`evaluate` (columns ``run_id, query_id, measure, value``).

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id``, ``measure``, ``value`` (mean of the non-NaN values, as trec_eval's
        ``all`` line and ir_measures' ``calc_aggregate``) and ``n_topics`` (how many values
        were averaged); runs and measures in order of first appearance.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    require_columns(results, "results", ["run_id", "query_id", "measure", "value"])
    g = results.groupby(["run_id", "measure"], sort=False)["value"]
    out = pd.DataFrame({"value": g.mean(), "n_topics": g.count()}).reset_index()
    out["n_topics"] = out["n_topics"].astype(np.int64)
    return out[["run_id", "measure", "value", "n_topics"]]


def to_matrix(results: pd.DataFrame, measure: "str | MeasureSpec") -> pd.DataFrame:
    """Pivot one measure of :func:`evaluate`'s output to a topics x runs matrix.

    Parameters
    ----------
    results : pandas.DataFrame
        Output of :func:`evaluate` (columns ``run_id, query_id, measure, value``).
    measure : str or MeasureSpec
        Label as it appears in ``results["measure"]`` (e.g. ``"nDCG@10"``).

    Returns
    -------
    pandas.DataFrame
        Index ``query_id`` (order of first appearance), columns ``run_id`` (order of first
        appearance), values the scores; NaN where a run has no score for a topic (e.g.
        ``missing="skip"``).

    Raises
    ------
    ValueError
        If columns are missing, the measure is not in ``results`` (the message lists those
        that are) or a (query_id, run_id) pair occurs twice.
    """
    require_columns(results, "results", ["run_id", "query_id", "measure", "value"])
    label = str(measure)
    sub = results[results["measure"] == label]
    if sub.empty:
        have = ", ".join(pd.unique(results["measure"]).astype(str))
        raise ValueError(f"measure {label!r} is not in the results; available: {have or 'none'}")
    if sub.duplicated(["query_id", "run_id"]).any():
        row = sub[sub.duplicated(["query_id", "run_id"])].iloc[0]
        raise ValueError(f"results hold {label!r} twice for run {row['run_id']!r}, "
                         f"topic {row['query_id']!r}")
    mat = sub.pivot(index="query_id", columns="run_id", values="value")
    mat = mat.reindex(index=pd.unique(sub["query_id"]), columns=pd.unique(sub["run_id"]))
    mat.index.name, mat.columns.name = "query_id", "run_id"
    return mat
