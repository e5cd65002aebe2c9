"""Notebook 04's shared wording: the planted users in one line each, the run-design caveat, how
levels, spreads of draws, leaders and measures counted once are printed. Used by
:mod:`helpers.findings.diversity` and :mod:`helpers.findings.diversity_planted` (which export them)."""

from __future__ import annotations

from ..notebook import claims
from ..stats.summary import min_draws

__all__ = ["USERS", "CELL", "fit_cell", "label_offsets", "DESIGN_CAVEAT", "pct", "draws_interval", "twins_line", "short_leaders"]

#: The planted users of section 7 in one line each (:mod:`helpers.simulate.users` has the formulas).
USERS = {"position": "reads down the page with persistence p",
         "graded": "graded relevance, log rank discount, intents by Pr(i|q)",
         "coverage": "wants each intent satisfied, intents weighted uniformly",
         "first-hit": "satisfied at the first document of level L2 or above",
         "mixture": "a population of position, coverage and first-hit users",
         "null": "a random order of the runs, drawn anew in each replicate"}
#: The longest cell of notebook 04's printed A.1 tables: longer lists go to a CSV in tables/.
CELL = 60
#: The caveat of every row that the simulated run design decides (``run_design`` -> sentence).
DESIGN_CAVEAT = {
    "styles": "The `styles` runs were built so that the planted users order them differently; the rows marked "
              "so answer for this run design, not for the measures in general.",
    "skill": "The `skill` runs differ mainly in skill, which raises every measure at once; the rows marked so "
             "answer for this run design, not for the measures in general."}


def pct(level: float) -> str:
    """A confidence level as printed: ``"95%"``, ``"99%"``, ``"97.5%"``."""
    return f"{round(100 * float(level), 6):g}%"


def draws_interval(n: int, level: float) -> str:
    """How the spread of ``n`` draws (replicates) is named at ``level``: ``"percentiles 2.5–97.5"``, or
    ``"range"`` when there are too few draws for them (:func:`helpers.stats.summary.min_draws`). A
    spread of draws, never called an interval: "95% CI" is kept for the CI of a mean."""
    if int(n) < min_draws(level):
        return "range"
    tail = 100 * (1 - float(level)) / 2
    return f"percentiles {round(tail, 6):g}–{round(100 - tail, 6):g}"


def twins_line(twins) -> str:
    """``"Counted once: strec@10 as I-rec@10; iRBU(p=0.99)@10 as RBU(p=0.99)@10."``, or ``""``."""
    parts = [f"{claims.listing(list(g)[1:])} as {list(g)[0]}" for g in twins]
    return f"Counted once (one measure under two names): {'; '.join(parts)}." if parts else ""


def short_leaders(c: claims.Claim, limit: int = 6, digits: int = 3, noun: str = "measures",
                  term: str = "within noise") -> str:
    """A :func:`helpers.notebook.claims.leaders` claim as printed, short enough for one sentence: more
    than ``limit`` tied leaders are counted (``"14 measures tied at 0.429"``), and so are more than
    ``limit`` values within noise (``"7 more within noise"``); no leader is picked out of a tie.
    ``term`` names what "within noise" means here, so that each meaning has its own name: notebook 04
    says ``"within Monte Carlo noise"`` for overlapping Monte Carlo intervals of power and ``"level
    with it"`` for a recovery whose paired interval with the leader's includes 0."""
    return _short_leaders(c, limit, digits, noun).replace("within noise", term)


def _short_leaders(c: claims.Claim, limit: int, digits: int, noun: str) -> str:
    n = c.numbers
    lead, noise = n["leaders"], n["within_noise"]
    if len(lead) <= limit and len(noise) <= limit:
        return c.text
    best = f"{n['best']:.{digits}f}"
    if len(lead) == n["n"] and len(lead) > 1:
        return f"all {len(lead)} {noun} tie at {best}"
    parts = []
    if len(lead) > limit:
        head = f"{len(lead)} {noun} tied at {best}"
    else:
        head = claims.listing(lead)
        parts.append(f"tied at {best}" if len(lead) > 1 else best)
    if len(noise) > limit:
        parts.append(f"{len(noise)} more within noise")
    elif noise:
        parts.append("within noise: " + c.text.split("within noise: ", 1)[1].rstrip(")"))
    return head + (f" ({'; '.join(parts)})" if parts else "")


def fit_cell(full: str, short: str, width: int = CELL) -> str:
    """``full`` when it has at most ``width`` characters, else ``short`` (a count instead of a list,
    the list going to a CSV)."""
    return full if len(full) <= width else short


def label_offsets(ax, x, y, labels, fontsize: float = 7.0, marker: float = 3.0) -> dict:
    """Offsets (in points) of the text labels of a scatter plot such that no two labels overlap and
    no label covers another point: each label, top point first, takes the first of eight places
    around its point (right above, right below, left above, left below, then one line further out)
    whose box, about ``0.6 * fontsize`` points per character wide and ``fontsize`` high, meets no
    placed label and no marker (``marker`` points in radius); when none is free, the right-above
    place. Read the axes' scale after its limits and layout are set (``fig.canvas.draw()``)."""
    import numpy as np

    to_pt = 72.0 / ax.figure.dpi
    pts = ax.transData.transform(np.column_stack([np.asarray(x, float), np.asarray(y, float)])) * to_pt
    placed, out = [], {}

    for k in np.argsort(-pts[:, 1], kind="stable"):
        w, h = 0.6 * fontsize * len(str(labels[k])), float(fontsize)
        places = [(3, 2), (3, -h - 2), (-w - 3, 2), (-w - 3, -h - 2), (3, h + 4), (3, -2 * h - 6), (-w - 3, h + 4),
                  (-w - 3, -2 * h - 6)]
        px, py = pts[k]
        choice = places[0]
        for dx, dy in places:
            x0, y0, x1, y1 = px + dx, py + dy, px + dx + w, py + dy + h
            hit_label = any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in placed)
            hit_point = any(x0 - marker < qx < x1 + marker and y0 - marker < qy < y1 + marker
                            for j, (qx, qy) in enumerate(pts) if j != k)
            if not hit_label and not hit_point:
                choice = (dx, dy)
                break
        placed.append((px + choice[0], py + choice[1], px + choice[0] + w, py + choice[1] + h))
        out[labels[k]] = choice
    return out
