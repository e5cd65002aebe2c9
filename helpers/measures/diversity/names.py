"""Names of the diversity measures: the registry and the parser of ``alpha-nDCG(alpha=0.3)@10``."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["SUPPORTED_MEASURES", "STOP_BASES", "MAX_CUTOFF", "DiversityMeasure", "parse_measure"]

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
STOP_BASES = ("nERR", "ERR", "EBR", "RBP")

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
        if not (cutoff.isascii() and cutoff.isdigit()) or int(cutoff) < 1:
            raise ValueError(f"{label!r}: the cutoff must be a positive integer, got {cutoff!r}")
        cut_val = int(cutoff)
        if cut_val > MAX_CUTOFF:
            raise ValueError(f"{label!r}: cutoff {cut_val} is beyond {MAX_CUTOFF:,}; the ideal lists of "
                             "ndeval's measures grow with the cutoff, not with the data")
    return DiversityMeasure(label=label, name=name, family=family,
                            params=tuple(sorted(params.items())), cutoff=cut_val)
