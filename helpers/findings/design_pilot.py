"""Notebook 06's notes on what its pilot scored (:mod:`helpers.findings.design` re-exports them).

What was scored on a simulated, DL-19 or file pilot (section 1's lines), and what that means for the
conclusion: the scope of a DL-19 answer, its truncation (a caveat) and the prose pointer to section 1.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["DL19_SCOPE", "pilot_note", "judgment_sets_note", "truncated", "scored"]


#: What a DL-19 answer was scored on, said in the answer (section 1 says it in full, :func:`pilot_note`).
DL19_SCOPE = "on NIST's re-annotated half"


def pilot_note(data: str, *, unjudged: str, fill_assessor: str, items: Mapping[str, int] | None = None,
               dl19: Mapping | None = None) -> str:
    """What was scored: every cell of a simulated pilot; for real and file data how items an
    assessor did not judge were treated (``items``: labels used per judgment set), and for DL-19
    which of NIST's labels were used (``dl19``: :func:`helpers.design.dl19_pilot`'s counts)."""
    if data == "simulated":
        return "The simulated pilot has a score for every cell: no item is unjudged."
    used = sorted(set((items or {}).values()))
    count = f"{used[0]:,} items" if len(used) == 1 else "items (" + ", ".join(f"{a}: {n:,}" for a, n in items.items()) + ")"
    text = (f"Each judgment set was scored on the {count} all sets of its topic judged." if unjudged == "common" else
            f"Items an assessor did not judge took {fill_assessor}'s label, where {fill_assessor} judged them.")
    if dl19 is None:
        return text
    other = dl19["nist_judged"] - dl19["reannotated"]
    fill = (f" The {dl19['one_label']} items with one re-annotator's label are left out."
            if unjudged == "common" else f" Only the {dl19['one_label']} items with one re-annotator's label are filled.")
    return (f"DL-19: NIST's labels are used on the {dl19['reannotated']:,} re-annotated passages only; its "
            f"{other:,} other judged passages count as unjudged (non-relevant) for every set, NIST's too. " + text + fill)


def judgment_sets_note(dl19: Mapping | None) -> list[str]:
    """Section 1's lines on how DL-19's re-annotation becomes judgment sets (none for other data):
    printed from the run, so that no markdown speaks of DL-19 in a simulated or file run."""
    if dl19 is None:
        return []
    return ["DL-19: Parry et al.'s re-annotators labelled about half of the passages NIST judged, each passage by a "
            "pair of annotators (four pairs, each on its own topics but for a few items).",
            "On each passage the pair's labels become judgment sets R1 and R2, beside NIST's: three sets per topic, "
            "read nested (s × (a:t)).",
            "The annotator pairs judged different topics, so the nesting is right for their identities; section 3 "
            "prints the crossed reading's topics beside, as a sensitivity check."]


def truncated(note: str) -> str:
    """The truncation of DL-19's pilot, with the count :func:`pilot_note` printed in section 1."""
    import re
    got = re.search(r"its ([\d,]+) other judged passages", note)
    many = f"{got.group(1)} " if got else ""
    return (f"DL-19's pilot is truncated: NIST's {many}judged passages that were not re-annotated are scored "
            "non-relevant for every set.")


def scored(note: str) -> str:
    """What was scored (:func:`pilot_note`) for the prose, or a pointer to section 1 when it is long (DL-19's)."""
    from ..notebook.findings import words
    return note if words(note) <= 30 else "Section 1 says which labels were scored and how unjudged items were treated."
