"""Notebook 06's published values and appendix table (:mod:`helpers.findings.design` re-exports them):
Sakai's published topic-set sizes, gt4ireval's and Brennan's G- and D-studies, and the appendix
table whose caveat letters continue the conclusion's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ..notebook import claims
from ..notebook.findings import CAVEATS as CAVEATS_ALL, AppendixFindings, Finding, Findings

__all__ = ["PUBLISHED", "SAKAI_CASES", "sakai_published", "published_lines", "published_rows", "gt_line",
           "DesignFindings"]


#: Sakai's published sizes (alpha .05, beta .20) as STUDY-DESIGN's table pins them: label -> n.
PUBLISHED = {"paired t, σt² = .10, minDt = .05": 316, "paired t, σt² = .05, minDt = .10": 42,
             "ANOVA m = 10, σ² = .10, minD = .10": 313, "ANOVA m = 2, σ² = .10, minD = .05": 614,
             "CI, σt² = .10, δ = .10": 156}

#: Sakai's published cases: label -> (method, arguments of :func:`helpers.design.topic_set_size`).
SAKAI_CASES = {"paired t, σt² = .10, minDt = .05": ("t", dict(sigma2=.05, min_diff=.05)),
               "paired t, σt² = .05, minDt = .10": ("t", dict(sigma2=.025, min_diff=.10)),
               "ANOVA m = 10, σ² = .10, minD = .10": ("anova", dict(sigma2=.1, min_diff=.1, n_systems=10)),
               "ANOVA m = 2, σ² = .10, minD = .05": ("anova", dict(sigma2=.1, min_diff=.05, n_systems=2)),
               "CI, σt² = .10, δ = .10": ("ci", dict(sigma2=.05, width=.1))}


def sakai_published() -> tuple[dict[str, int], dict[str, int]]:
    """Sakai's published cases (:data:`SAKAI_CASES`, alpha .05, beta .20) recomputed: (label -> his
    approximation, label -> the exact noncentral t / F answer)."""
    from ..design import topic_set_size

    return ({k: topic_set_size(m, **kw) for k, (m, kw) in SAKAI_CASES.items()},
            {k: topic_set_size(m, exact=True, **kw) for k, (m, kw) in SAKAI_CASES.items()})


def published_lines(published: Mapping[str, int], exact: Mapping[str, int], anova_m2: tuple[int, int]) -> list[str]:
    """The appendix's lines of Sakai's published cases: his approximation against the published n and
    the exact noncentral answer, then the exact ANOVA at m = 2 against the two-sample t."""
    return ([f"{label}: Sakai's approximation {n} (published {PUBLISHED[label]}); exact {exact[label]}"
             for label, n in published.items()]
            + [f"exact: ANOVA m = 2 needs {anova_m2[0]}, the two-sample t {anova_m2[1]}"])


def gt_line(gt: pd.DataFrame, where: str) -> str:
    """Appendix A.1 in one line (the table is saved, ``where``: its path as the notebook prints it):
    ``"36 of 36 published values of adhoc3, synthetic4, Brennan No. 3 and Brennan No. 4 at the printed
    digits; every value: <reports>/tables/06_gt_reproductions.csv"``, naming any that differ."""
    same, data = int(gt["same"].sum()), claims.listing([str(d) for d in dict.fromkeys(gt["data"])])
    differ = [f"{r.data}: {r.quantity}" for r in gt[~gt["same"]].itertuples()]
    return (f"{same} of {len(gt)} published values of {data} reproduced at the printed digits"
            + (f" (differ: {'; '.join(differ)})" if differ else "") + f"; every value: {where}")


def published_rows(published: Mapping[str, int], anova_m2: tuple[int, int], gt: pd.DataFrame) -> list[Finding]:
    """Sakai's published sizes, the exact ANOVA at m = 2 and gt4ireval's and Brennan's values: checks
    of the machinery (the appendix table)."""
    ok = all(published[k] == v for k, v in PUBLISHED.items())
    same = int(gt["same"].sum())
    differ = [f"{r.data}: {r.quantity}" for r in gt[~gt["same"]].itertuples()]
    return [Finding("Do Sakai's approximations give his published topic-set sizes?",
                    ", ".join(str(v) for v in PUBLISHED.values()),
                    ", ".join(str(published[k]) for k in PUBLISHED), "reproduced" if ok else "not reproduced",
                    numbers=dict(published)),
            Finding("With the exact F, does the ANOVA at m = 2 need the topics of the two-sample t?",
                    "629 (the approximation: 614)", f"{anova_m2[0]} and {anova_m2[1]}",
                    "reproduced" if anova_m2 == (629, 629) else "not reproduced"),
            Finding("Do the G- and D-studies give gt4ireval's and Brennan's published values?",
                    f"{len(gt)} values of 4 data sets",
                    f"{same} of {len(gt)} at the printed digits" + ("" if not differ else "; differ: " + "; ".join(
                        differ[:3] + ([f"{len(differ) - 3} more"] if len(differ) > 3 else []))),
                    "reproduced" if same == len(gt) else "not reproduced")]


#: The caption of this notebook's appendix table (``design``'s ``appendix_findings``).
_APPENDIX_TITLE = ("Appendix of notebook 06: published values, results a simulated pilot settles by how it was built, "
                   "and the split halves' detail; checks of the machinery rather than findings.")


@dataclass(frozen=True)
class DesignFindings(Findings):
    """The findings of notebook 06 with an ``appendix``: the published values, the rows a simulated
    pilot settles by how it was built (sizing, cheapest design, planted coverage and power) and the
    split halves' detail, shown after the conclusion by :meth:`show_appendix`."""

    appendix: tuple = ()

    def appendix_findings(self) -> Findings:
        """The appendix rows as a table of their own, with the caveats they point to: a caveat of the
        conclusion keeps its letter there (and is not stated again), the others take the letters after
        the conclusion's, so that no letter means two things in one notebook."""
        return _Appendix(self.notebook, self.appendix, (), caveats=self.caveats, title=_APPENDIX_TITLE,
                         shared=tuple(self.letters().items()))

    def show_appendix(self, out=None) -> None:
        """Display the appendix (saved as ``06_findings_appendix.{csv,tex}`` with ``out``)."""
        self.appendix_findings().show_or_say(out, empty="appendix: no check of the machinery in this run")


@dataclass(frozen=True)
class _Appendix(AppendixFindings):
    """The appendix table whose letters continue the conclusion's (``shared``: its key -> letter pairs)."""

    shared: tuple = ()

    def letters(self) -> dict[str, str]:
        import string

        given = dict(self.shared)
        free = iter(string.ascii_lowercase[len(given):])
        keys = dict.fromkeys(k for r in self.rows for k in r.caveats if k not in self.general)
        return {k: given[k] if k in given else next(free) for k in keys}

    def limitations(self) -> str:
        """Each caveat once in the notebook: the conclusion's letters are pointed to, not stated again."""
        known = {**CAVEATS_ALL, **self.caveats}
        letters = self.letters()
        again = [f"({v})" for k, v in letters.items() if k in dict(self.shared)]
        parts = [f"{claims.listing(again)}: as in the conclusion's Limitations."] if again else []
        parts += [f"({v}) {known[k]}" for k, v in letters.items() if k not in dict(self.shared)]
        return " ".join(parts)
