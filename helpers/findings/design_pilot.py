"""Notebook 06's notes on what its pilot scored (:mod:`helpers.findings.design` re-exports them).

What was scored on a simulated, DL-19 or file pilot (section 1's lines), and what that means for the
conclusion: the scope of a DL-19 answer, its truncation (a caveat) and the prose pointer to section 1.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["DL19_SCOPE", "pilot_note", "judgment_sets_note", "truncated", "scored", "crossed_line", "crossed_t_test", "crossed_t_text", "t_inside"]


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


def crossed_t_test(nested_at, crossed_at) -> dict:
    """DL-19's paired t-test sizes read both ways (NIST is one assessor over every topic, so a bias it
    shares across topics is a crossed effect the nested reading leaves out): ``{"nested": {n_a: (n, low,
    high)}, "crossed": {n_a: (n, low, high, power_cap)}}`` from :func:`helpers.design.study.sizes_at_assessors`
    of the nested and of the s × t × a G-study (``None``: unreachable or unbounded)."""
    def num(v):
        return None if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)) else int(v)

    def rows(at):
        return at[at["method"] == "paired t"].itertuples()
    return {"nested": {int(r.n_assessors): (num(r.n_paired), num(r.n_paired_low), num(r.n_paired_high))
                       for r in rows(nested_at)},
            "crossed": {int(r.n_assessors): (num(r.n_paired), num(r.n_paired_low), num(r.n_paired_high),
                                             float(r.power_cap)) for r in rows(crossed_at)}}


def crossed_t_text(t: Mapping) -> str:
    """``"t-test crossed 176 [119, 276], 138 [99, 196] vs nested 143, 124 (n_a = 1, 2)"``, and the power caps
    the crossed bias sets when one is below 0.995 (``"; power cap 0.97, 0.67"``)."""
    ks = list(t["nested"])
    def n(v):
        return "unreachable" if v is None else f"{v:,}"
    def ci(c):
        return n(c[0]) if c[1] is None or c[2] is None else f"{n(c[0])} [{c[1]:,}, {c[2]:,}]"
    caps = [t["crossed"][k][3] for k in ks]
    return (f"t-test crossed {', '.join(ci(t['crossed'][k]) for k in ks)} vs nested "
            f"{', '.join(n(t['nested'][k][0]) for k in ks)} (n_a = {', '.join(map(str, ks))})"
            + (f"; power cap {', '.join(f'{c:.2f}' for c in caps)}" if min(caps) < .995 else ""))


def t_inside(nested, crossed) -> bool | None:
    """A nested t-test size inside the crossed one's interval (``crossed``: ``(n, low, high, cap)``);
    False when only the crossed is unreachable; None when nothing is to judge."""
    from .design_split import inside
    if nested is None:
        return None
    if crossed[0] is None:
        return False
    return None if crossed[1] is None or crossed[2] is None else inside(nested, crossed[1], crossed[2])


def crossed_line(reading: Mapping, *, target: float, n_a: int) -> str:
    """The printed sensitivity line of :func:`helpers.findings.design.crossed_reading`: topics for Eρ² ≥
    ``target`` at ``n_a`` sets per topic, crossed (s × t × a) against nested (s × (a:t), the notebook's reading)."""
    from .design_split import n_ci
    ms = list(reading["nested"])
    nested = ["unreachable" if reading["nested"][m][0] is None else f"{reading['nested'][m][0]:,}" for m in ms]
    return (f"Sensitivity: read crossed (s × t × a), Eρ² ≥ {target} at {n_a} sets needs "
            f"{', '.join(n_ci(*reading['crossed'][m]) for m in ms)} topics against "
            f"{', '.join(nested)} nested ({', '.join(ms)}).")
