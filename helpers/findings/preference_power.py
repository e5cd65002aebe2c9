"""Notebook 05's single-study power row and the appendix's own verdicts.

One study of the paper's size (its pairs, Zeng & Sakai's 1,127) is what a reader of the paper has:
the findings table carries one row on it, merged from the one-study readings of
:func:`helpers.findings.preference_recovery.planted_rows` (each family's rate of studies in which it is
significantly first, read against :data:`~helpers.findings.preference_recovery.POWER_TARGET` through
its Clopper-Pearson interval), with how many measures this run's own study leaves unseparated from the
highest MAR (the topic-blocked HSD, :func:`helpers.preference.questions.top_group`). The power is set
by the simulator's noise and built-in contrast: the row points to the ``noise_model`` caveat, which says so.

:func:`appendix_row` gives an appendix row (a result set by the simulation) the verdict that answers
its own question, with the ``by_construction`` caveat, instead of the bare label "by construction".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from ..notebook.findings import Finding
from ..preference import questions as pq
from .preference_recovery import CAVEATS, POWER_TARGET, Recovery, power_limits, signed

__all__ = ["ONE_STUDY_PREFIX", "contrast_caveat", "power_row", "power_verdict", "unseparated_text", "appendix_row", "spread_text"]

#: How the one-study rows of :mod:`helpers.findings.preference_recovery` open their question.
ONE_STUDY_PREFIX = "In one study, is the family of"

#: The one-study readings (:func:`~helpers.findings.preference_recovery.power_reading`) by name;
#: a shown power built into its users ("by construction") is a shown power here, with the caveat.
_READ = {"holds": "holds", "by construction": "holds", "cannot tell": "cannot tell", "does not hold": "does not hold"}


def power_verdict(readings: Sequence[str]) -> str:
    """The verdict of "is each planted family significantly first with the target power?" from the
    families' readings: "holds" when each is shown, "holds in part" when some are shown and some are
    not, "does not hold" when none is shown and some are ruled out, else "cannot tell"."""
    read = {_READ[r] for r in readings}
    if not read:
        return "cannot tell"
    if read == {"holds"}:
        return "holds"
    if "holds" in read:
        return "holds in part"
    return "does not hold" if "does not hold" in read else "cannot tell"


def unseparated_text(mar: Mapping[str, pd.Series], blocked: Mapping[str, dict], twins: Sequence[Sequence[str]],
                     significance: float) -> str:
    """``"this study: 18, 18, 19 of 21 measures in the HSD's top group (relevance, diversity, both)"``:
    each question's measures not separated from the highest MAR (HSD, topics as blocks)."""
    groups = {q: pq.top_group(mar[q], blocked[q]["result"], twins, significance) for q in mar if q in blocked}
    if not groups:
        return ""
    sizes = [len(g["group"]) for g in groups.values()]
    of = {g["distinct"] for g in groups.values()}
    total = f" of {of.pop()}" if len(of) == 1 else ""
    sizes_text = ", ".join(str(s) if total else f"{s} of {g['distinct']}" for s, g in zip(sizes, groups.values()))
    return f"this study: {sizes_text}{total} measures in the HSD's top group ({', '.join(groups)})"


def _counts(rows: Sequence[Finding]) -> tuple[list[str], str, int] | None:
    """Each reading's models and counts, the models with the same counts named together (``"position,
    graded, first-hit 0 / 0"``), the questions said once when every model has the same, and the
    studies; None when a row lacks its ``one_study`` numbers."""
    if not all(r.numbers.get("one_study") for r in rows):
        return None
    qsets = {tuple(qs) for r in rows for qs in r.numbers["one_study"].values()}
    once = len(qsets) == 1
    studies = max(v["replicates"] for r in rows for qs in r.numbers["one_study"].values() for v in qs.values())
    said = {"holds": "shown", "holds in part": "shown in part", "cannot tell": "cannot tell",
            "does not hold": "ruled out"}
    out = []
    for r in rows:
        named: dict[str, list[str]] = {}
        for m, qs in r.numbers["one_study"].items():
            text = " / ".join(str(int(v["ahead"])) for v in qs.values()) + ("" if once else f" ({' / '.join(qs)})")
            named.setdefault(text, []).append(m)
        out.append(f"{said[_READ[r.verdict]]}: " + "; ".join(f"{', '.join(ms)} {t}" for t, ms in named.items()))
    return out, " / ".join(qsets.pop()) if once else "", int(studies)


def power_row(rows: Sequence[Finding], n_pairs: int, unseparated: str = "",
              pass_rate: tuple[str, str] | None = None) -> Finding | None:
    """The one row on single-study power, from the one-study rows (one per reading): each reading
    with its families and counts of studies (:func:`_counts`), the counts that show and rule out the
    power (:func:`helpers.findings.preference_recovery.power_limits`), and ``unseparated``
    (:func:`unseparated_text`); at most 40 words, 44 with ``pass_rate``. None without rows. The power is set by the
    simulator: the rows' ``noise_model`` caveat says so (no second, general by-construction caveat).
    ``pass_rate``: (this run's, the paper's) filter pass rate as text, the run's closing the run cell
    and the paper's in the paper cell (the power rests on the simulated pairs)."""
    if not rows:
        return None
    counted = _counts(rows)
    if counted is None:
        said = {"holds": "shown", "holds in part": "shown in part", "cannot tell": "cannot tell",
                "does not hold": "ruled out"}
        parts = [f"{said[_READ[r.verdict]]}: {r.run}" for r in rows]
    else:
        readings, qs, studies = counted
        shown, ruled = power_limits(studies)
        rule = [f"shown ≥ {shown}"] * (shown <= studies) + [f"ruled out ≤ {ruled}"] * (ruled >= 0)
        parts = [f"of {studies} studies{f' ({qs})' if qs else ''}: " + "; ".join(readings)
                 + f" ({', '.join(rule) or 'no count decides'})"]
    parts += [unseparated] if unseparated else []
    parts += [f"filter pass rate {pass_rate[0]}"] if pass_rate else []
    run = ". ".join(x[0].upper() + x[1:] for x in parts)
    caveats = tuple(dict.fromkeys(c for r in rows for c in r.caveats))
    powered = {m: dict(qs) for r in rows for m, qs in r.numbers.get("powered", {}).items()}
    question = (f"In one study of {n_pairs:,} pairs, is each planted family significantly first with "
                f"{POWER_TARGET:.0%} power (95% CI ≥ {POWER_TARGET:.2f})?")
    paper = f"filter pass rate {pass_rate[1]}" if pass_rate else "—"
    return Finding(question, paper, run, power_verdict([r.verdict for r in rows]), caveats,
                   {"powered": powered, "power_target": POWER_TARGET, "pairs": n_pairs,
                    "readings": [r.numbers for r in rows], "unseparated": unseparated})


def appendix_row(row: Finding, answer: str | None = None) -> Finding:
    """An appendix row with the verdict that answers its own question (``answer``, else the row's
    own verdict, a reached "by construction" read as "holds") and the ``by_construction`` caveat."""
    verdict = answer or ("holds" if row.verdict == "by construction" else row.verdict)
    return replace(row, verdict=verdict, caveats=tuple(dict.fromkeys(["by_construction", *row.caveats])))


def spread_text(n: int, level: float = 0.95) -> str:
    """What the ``low``/``high`` of ``n`` single-study values are (:func:`helpers.stats.summary.interval_name`):
    the interpolated (1 - level)/2 and (1 + level)/2 quantiles, ``"range of about the middle 38 of 40"``,
    or with too few draws for them the ``"range of 5"`` (min to max); never a "95% interval"."""
    from ..stats.summary import is_percentile

    n = int(n)
    if not is_percentile(n, level):
        return f"range of {n}"
    return f"range of about the middle {n - 2 * round((1 - level) / 2 * (n - 1))} of {n}"


def contrast_caveat(rec: Recovery, pass_rate: str = "", paper_rate: str = "") -> str:
    """The one caveat of the one-study rows: their power rests on the simulation's noise model
    (:data:`NOISE`) and on the contrast between the families built into it, read from the noise-free
    family checks (each family's best measure minus the best outside it, the largest over the
    questions), e.g. ``"... and on its built-in contrast: without noise coverage's family leads the best
    outside it by +0.114, the others by at most +0.031."``; a trail or a tie is said to be no contrast.
    With ``pass_rate`` (this run's filter pass rate) and ``paper_rate`` a second sentence says the
    settings are not calibrated to the paper and how far the simulated pairs are from its pairs."""
    lead: dict[str, float] = {}
    for (m, _q), c in rec.cases.items():
        ck = c["check_noise_free"]
        if ck is not None and ck["verdict"] != "not testable" and np.isfinite(ck["diff"]):
            lead[m] = max(lead.get(m, -np.inf), float(ck["diff"]))
    noise = CAVEATS["noise_model"].split(" and on its built-in contrast")[0]
    tail = (f" These settings are not calibrated to the paper: {pass_rate} of candidate pairs pass the filter here, "
            f"{paper_rate} in the paper." if pass_rate and paper_rate else "")
    if not lead:
        return CAVEATS["noise_model"] + tail
    top = max(lead, key=lead.get)
    if lead[top] <= 0:   # a trail (or a tie) is no contrast built in
        how = f"trails it by {signed(-lead[top])[1:]}" if lead[top] < 0 else "ties with it"
        return (f"{noise}; without noise no planted family leads the best measure outside it ({top}'s {how}), so "
                "no contrast between the families is built in." + tail)
    rest = [v for m, v in lead.items() if m != top]
    others = f", the others by at most {signed(max(rest))}" if rest else ""
    return (f"{noise} and on its built-in contrast: without noise {top}'s family leads the best outside it by "
            f"{signed(lead[top])}{others}." + tail)
