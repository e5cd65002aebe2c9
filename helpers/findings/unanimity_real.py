"""Notebook 02's conjecture on real ratings in one findings row (Sakai, EVIA 2017, Sec. 6).

Sakai conjectures that real ratings, which spread less than uniform ones, make UG change rankings
and significance calls more. Section 6 of the notebook tests it per measure (τ and discrepancies,
real against uniform ratings of the same RawG); :func:`conjecture_row` folds those per-measure rows
(:func:`helpers.findings.unanimity._conjecture_row`) into the one row of the findings table: the
per-measure means in a compact column, the verdicts per measure and one verdict for the whole.
The ranges and powers stay in section 6's printed lines and in the row's numbers (the metrics
file's findings); how the power is read is in docs/02-unanimity-methods.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


from ..notebook import claims
from ..notebook.findings import Finding
from .unanimity_text import signed as _signed

__all__ = ["CONJ_Q", "combine_verdicts", "conjecture_row"]

from .unanimity_text import CONJ_Q  # noqa: E402,F401


def combine_verdicts(verdicts: Sequence[str]) -> str:
    """One verdict for the conjecture over the measures: the common one when all agree; "holds in
    part" when some measure shows a part of it ("holds" or "holds in part"); otherwise "cannot tell"
    (the measures' verdicts differ without any part shown, e.g. "does not hold" beside "cannot tell").

    >>> combine_verdicts(["cannot tell", "cannot tell"]), combine_verdicts(["holds", "cannot tell"])
    ('cannot tell', 'holds in part')
    """
    if not verdicts:
        raise ValueError("combine_verdicts: no per-measure verdict to combine")
    if len(set(verdicts)) == 1:
        return verdicts[0]
    if any(v in ("holds", "holds in part") for v in verdicts):
        return "holds in part"
    return "cannot tell"


def _by_verdict(per: Mapping[str, str]) -> str:
    """"cannot tell for all 3" or "holds for P+; cannot tell for nG@1 and nERR@10"."""
    groups: dict[str, list[str]] = {}
    for m, v in per.items():
        groups.setdefault(v, []).append(m)
    if len(groups) == 1:
        v = next(iter(groups))
        return f"{v} for {'all ' + str(len(per)) if len(per) > 1 else next(iter(per))}"
    return "; ".join(f"{v} for {claims.listing(ms)}" for v, ms in groups.items())


def conjecture_row(per_rows: Mapping[str, Finding], conjecture: Mapping[str, Mapping], draws: int) -> Finding:
    """The conjecture's one row from its per-measure rows (``per_rows``: measure -> row of
    :func:`helpers.findings.unanimity._conjecture_row`; ``conjecture``: measure -> the numbers of
    :func:`helpers.findings.unanimity.read_real`). Its run column gives real − uniform per measure
    (τ / discrepancies: the mean over ``draws`` uniform draws, or the one draw's difference) and the
    verdict per measure; its caveats are the union of the rows' caveats, in their order."""
    if not per_rows:
        raise ValueError("conjecture_row: no measure to read the conjecture on")
    verdicts = {m: r.verdict for m, r in per_rows.items()}
    caveats = tuple(dict.fromkeys(k for r in per_rows.values() for k in r.caveats))
    paper = "expected (Sec. 6), not tested"
    numbers = {m: dict(r.numbers) for m, r in per_rows.items()}
    if all(conjecture[m]["nothing"] for m in per_rows):
        return Finding(CONJ_Q, paper, "UG = RawG on every real and uniform item: nothing to test", "not tested",
                       caveats, numbers)
    over = f"mean over {draws} uniform draws" if draws >= 2 else "one uniform draw"
    parts = ", ".join(f"{m} {_signed(conjecture[m]['dtau'])} / {_signed(conjecture[m]['ddisc'], 2)}"
                      for m in per_rows if not conjecture[m]["nothing"])
    run = (f"real − uniform ({over}), τ / discrepancies: {parts}; {_by_verdict(verdicts)} "
           "(ranges and power: section 6)")
    return Finding(CONJ_Q, paper, run, combine_verdicts(list(verdicts.values())), caveats, numbers)

