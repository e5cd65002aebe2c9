"""Tables of what each notebook parameter may hold, beyond its type (:mod:`.params` applies them).

:data:`VALUE_DOMAINS` gives the numeric range a parameter of that name can take in any notebook;
:data:`NOTEBOOK_DOMAINS` narrows a range for the notebooks that need more (``replicates >= 2`` in
01 and 06), recognised by a parameter only they declare (the runner checks a parameter file
against the declarations, without the notebook's name); :data:`CHOICES` lists the values of the
enumerated text parameters, :data:`NONEMPTY_LISTS` the lists a notebook reads members from, and
:func:`components_problem` checks 06's planted variance components (keys of the G-study design,
values >= 0). All are checked before a kernel starts, instead of failing inside it.
"""

from __future__ import annotations

from typing import Any, Mapping

#: name -> (lowest, lowest allowed?, highest, highest allowed?, what it is); the size parameters'
#: lower bound of 1 is added by :mod:`.params` (``SIZE_LIMITS``). Each range is the widest any
#: notebook accepts.
BASE_DOMAINS: dict[str, tuple[float | None, bool, float | None, bool, str]] = {
    "seed": (0, True, None, False, "numpy.random.SeedSequence takes a non-negative integer"),
    "relevance_threshold": (0, True, None, False, "0 takes the collection's definition"),
    "extra_cutoff": (0, True, None, False, "0 for none"),
    "real_cutoff": (0, True, None, False, "0: the shorter page's length"),
    "tau_bootstrap": (1, True, None, False, "topic resamples"),
    "p": (0.0, True, 1.0, True, "unanimity upgrade strength"),
    "alpha": (0.0, False, 1.0, False, "significance level"),
    "significance": (0.0, False, 1.0, False, "significance level"),
    "tau_level": (0.0, False, 1.0, False, "confidence level"),
    "p_equal": (0.0, False, 1.0, False, "share of EQUAL labels"),
    "alpha_relevance": (-1.0, False, 1.0, False, "Krippendorff's alpha"),
    "alpha_diversity": (-1.0, False, 1.0, False, "Krippendorff's alpha"),
    "min_difference": (0.0, True, None, False, "a difference of scores"),
    "tie_tolerance": (0.0, True, None, False, "a difference of scores"),
    "real_threshold": (0.0, True, 100.0, True, "a mean relevance on THUIR's 0-100 scale"),
    "rel": (1, True, None, False, "lowest relevant level"),
    "n_systems": (1, True, None, False, "simulated systems"),
    "max_assessors": (1, True, None, False, "assessors per topic"),
    "split_topics": (1, True, None, False, "topics per half"),
    "split_assessors": (1, True, None, False, "assessors per half"),
    "split_draws": (1, True, None, False, "random splits per size"),
    "experiments": (1, True, None, False, "paired t-tests per replicate"),
    "splits": (1, True, None, False, "random half-splits of the topics"),
    "n_boot": (1, True, None, False, "bootstrap resamples"),
    "cost_boot": (1, True, None, False, "bootstrap resamples"),
    "beta": (0.0, False, 1.0, False, "type II error"),
    "target": (0.0, False, 1.0, False, "a reliability coefficient"),
    "min_diff": (0.0, False, None, False, "a difference of scores"),
    "min_diff_grid": (0.0, False, None, False, "differences of scores"),
    "ci_width": (0.0, False, None, False, "a width of an interval"),
    "cost_topic": (0.0, True, None, False, "a cost"),
    "cost_judgment": (0.0, True, None, False, "a cost"),
}

#: Narrower ranges of the notebooks that declare the marker parameter: marker -> {name: domain}.
#: 01 (marker ``real_datasets``) and 06 (``components``) need two replicates for a spread; 02
#: (``measure_names``) two ratings per item; 06 two topics per half.
NOTEBOOK_DOMAINS: dict[str, dict[str, tuple[float | None, bool, float | None, bool, str]]] = {
    "real_datasets": {"replicates": (2, True, None, False, "draws of uniform ratings; 2 give a spread")},
    "components": {"replicates": (2, True, None, False, "simulated pilots; 2 give a spread"),
                   "split_topics": (2, True, None, False, "topics per half")},
    "measure_names": {"n_list": (2, True, None, False, "ratings per simulated item; 2 give a mean")},
}

#: Enumerated text parameters (the union of what the notebooks accept under that name; ``""`` is
#: listed where a notebook takes it for "none"). List parameters are checked member by member.
CHOICES: dict[str, tuple[str, ...]] = {
    "real_datasets": ("stc-ja", "dl19-agreement"),
    "real_dataset": ("", "thuir-image"),
    "ratings_layout": ("long", "wide", "qrels", "qrels_jg"),
    "dataset": ("stc-like", "simulated", "dl19", "files"),
    "data": ("simulated", "trec-web-2012", "dl19", "files"),
    "method": ("eq5", "eq4"),
    "normaliser": ("ideal", "fixed"),
    "run_design": ("styles", "skill"),
    "unjudged": ("common", "fill"),
    "facets": ("s x (a:t)", "s x t x a"),
    "real_gain_map": ("exponential", "linear", "binary"),
    "best_run_by": ("official", "rawg"),
    "placebo_cells": ("small_n", "all"),
    "conventions": ("ntcireval",),
}

#: List parameters a notebook reads members from: ``[]`` would stop inside the kernel.
NONEMPTY_LISTS = ("d_max_list", "n_list", "measure_names", "measures", "min_diff_grid", "split_topics",
                  "split_assessors")


def notebook_domain(name: str, declared: Mapping[str, Any]):
    """The narrower domain of ``name`` in the notebook that declares ``declared``, or None."""
    for marker, table in NOTEBOOK_DOMAINS.items():
        if marker in declared and name in table:
            return table[name]
    return None


def choice_problem(name: str, value: Any) -> str | None:
    """One line if a text parameter (or a member of a list one) is not one of :data:`CHOICES`."""
    if name not in CHOICES:
        return None
    allowed = CHOICES[name]
    for v in (value if isinstance(value, list) else [value]):
        if isinstance(v, str) and v not in allowed:
            import difflib

            close = difflib.get_close_matches(v, allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            return (f"{name} must be {' or '.join(repr(a) for a in allowed)}"
                    f"{' (each member)' if isinstance(value, list) else ''}, got {v!r}{hint}")
    return None


def empty_problem(name: str, value: Any) -> str | None:
    if name in NONEMPTY_LISTS and isinstance(value, list) and not value:
        return f"{name} is an empty list; the notebook needs at least one member"
    return None


def components_problem(values: Mapping[str, Any]) -> str | None:
    """06's ``components``: exactly the components of the design (``facets``), each value >= 0."""
    comp = values.get("components")
    if not isinstance(comp, dict) or values.get("data", "simulated") != "simulated":
        return None      # only a simulation plants them
    from ..design.gstudy import COMPONENTS

    facets = values.get("facets")
    designs = [facets] if facets in COMPONENTS else [d for d in CHOICES["facets"] if d in COMPONENTS]
    if not any(set(comp) == set(COMPONENTS[d]) for d in designs):
        want = " or ".join("{" + ", ".join(COMPONENTS[d]) + "}" for d in designs)
        return (f"components must have exactly the keys of the design"
                f"{f' {facets!r}' if facets in COMPONENTS else ''}: {want}; got {{{', '.join(map(str, comp))}}}")
    bad = [k for k, v in comp.items() if isinstance(v, (int, float)) and v < 0]
    if bad:
        return f"components must be variances >= 0, got {bad[0]}: {comp[bad[0]]!r}"
    return None
