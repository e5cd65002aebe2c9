"""Notebook 06's cheapest design in words: the designs tied within the cost bootstrap's noise, the
designs whose comparison is undecided (the point difference outside its own interval), the searched
range's edge (:func:`helpers.design.cost.trade_off_bootstrap`'s curve)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding
from .design_rule import side
from .design_split import interval_method, missing as _missing

def _n(v) -> str:
    return "unreachable" if _missing(v) else f"{int(v):,}"


def _end(v) -> str:
    return "unbounded" if _missing(v) else f"{int(v):,}"


__all__ = ["answer_row", "paired_label", "topics_paper", "every_design", "reach_part", "beside_answer", "ties_caveat", "drop_caveat", "cost_verdict", "span", "tied", "unreachable", "undecided", "undecided_lines", "edge_note", "cheapest_lines", "design_text", "money",
           "break_even_text", "break_even_lines", "break_even_row"]


def tied(curve: pd.DataFrame) -> pd.DataFrame:
    """The designs within the cost bootstrap's noise of the cheapest (the cheapest included), by n_a."""
    return curve[curve["within_noise"]].sort_values("n_assessors")


def undecided(curve: pd.DataFrame) -> pd.DataFrame:
    """Designs whose point cost difference to the cheapest lies outside its own bootstrap interval
    (``point_inside`` False): neither tied nor beaten."""
    if "point_inside" not in curve:
        return curve.iloc[:0]
    cost = pd.to_numeric(curve["cost"], errors="coerce")
    return curve[~curve["point_inside"].astype(bool) & np.isfinite(cost)]


def undecided_lines(curve: pd.DataFrame) -> list[str]:
    """One line per :func:`undecided` design: its point difference and the interval that misses it."""
    best = float(pd.to_numeric(curve["cost"], errors="coerce").min())
    return [f"n_a = {int(r.n_assessors)}: its cost difference to the cheapest ({r.cost - best:,.0f}) lies outside "
            f"its bootstrap interval [{money(r.diff_low)}, {money(r.diff_high)}]; no tie is read from it."
            for r in undecided(curve).itertuples()]


def unreachable(curve: pd.DataFrame) -> list[str]:
    return [str(int(a)) for a, c in zip(curve["n_assessors"], curve["cost"]) if _missing(c)]


def edge_note(curve: pd.DataFrame | None) -> str | None:
    """Why the searched range bounds the cheapest design, or None: the most assessors searched (the
    curve's last ``n_a``, ``max_assessors``) is within noise of the cheapest, so a design beyond it may
    be cheaper still (``"cost still falls at n_a = 6"`` when it is the cheapest as estimated)."""
    if curve is None or len(curve) < 2:
        return None
    last = curve.sort_values("n_assessors").iloc[-1]
    if not bool(last["within_noise"]):
        return None
    edge = int(last["n_assessors"])
    if edge == int(curve.attrs.get("best", -1)):
        return f"cost still falls at n_a = {edge}, the most searched"
    return f"n_a = {edge}, the most searched, is within noise of the cheapest"


def cheapest_lines(curve: pd.DataFrame | None, *, target: float, measure: str, cost_topic: float,
                   cost_judgment: float, max_assessors: int, design: str | None = None,
                   needed: int | None = None, system_zero: bool = False) -> list[str]:
    """The cheapest design for Eρ² >= target, or every design tied within the cost bootstrap's
    noise (one line each), never one of a tie (``curve`` from
    :func:`helpers.design.cost.trade_off_bootstrap`; ``None`` when no design reaches the target).
    When the searched range bounds it (:func:`edge_note`) no design is named the cheapest.  ``design``
    names the topics' interval (:func:`interval_method`: Feldt, Satterthwaite when crossed); ``system_zero``:
    the G-study's σ²(s) is 0 (a negative estimate set to 0), the reason no design reaches the target."""
    if curve is None:   # ``needed``: helpers.design.cost.assessors_needed, the count that would reach it
        would = ("" if needed is None else
                 f" From the estimated components, n_a = {needed} per topic would reach it.")
        why = ("the systems' variance σ²(s) was estimated negative and set to 0, so Eρ² is 0 for every design"
               if system_zero else "the error that does not shrink with topics is too large")
        return [f"No design reaches Eρ² ≥ {target} ({measure}) with at most max_assessors = {max_assessors} per topic: "
                f"{why}.{would}"]
    at = f"for Eρ² ≥ {target} ({measure}) at {cost_topic:g} per topic and {cost_judgment:g} per judgment set"
    ties = tied(curve)
    never = unreachable(curve)
    tail = [f"With n_a = {claims.listing(never)} the target is unreachable."] if never else []
    how = interval_method(design)
    running = len(curve) - len(never)          # designs that reach the target: with one, nothing to tie
    if running == 1:
        tail.append(f"Topics: {how}'s 95% interval; cost: the topic bootstrap's.")
        only = ("the only design searched (set by max_assessors = 1)" if len(curve) == 1 else
                "the only design that reaches the target")
        extend = "; extend max_assessors" if len(curve) == 1 or edge_note(curve) is not None else ""
        return [f"{only[0].upper() + only[1:]} {at} is {design_text(ties.iloc[0], how)}{extend}."] + tail
    tail.append(f"Topics: {how}'s 95% interval; cost: the topic bootstrap's, whose difference to the cheapest "
                "decides the tie.")
    tail = undecided_lines(curve) + tail
    edge = edge_note(curve)
    if edge is not None:
        within = ("Within noise of the cheapest searched:" if len(ties) > 1 else "The cheapest searched:")
        return ([f"The searched range bounds the cheapest design {at}: {edge}; extend max_assessors. {within}"]
                + [f"  {design_text(r, how)}" for _, r in ties.iterrows()] + tail)
    if len(ties) == 1:
        others = "no other is" if not len(undecided(curve)) else "no other decided comparison is"
        return [f"The cheapest design {at} is {design_text(ties.iloc[0], how)}; {others} within the cost bootstrap's "
                "noise."] + tail
    every = "All" if len(ties) == len(curve) - len(never) else f"{len(ties)} of the {len(curve) - len(never)}"
    return ([f"{every} designs that reach the target tie as the cheapest {at}, within the cost bootstrap's noise:"]
            + [f"  {design_text(r, how)}" for _, r in ties.iterrows()] + tail)


def design_text(r: pd.Series, how: str = "Feldt") -> str:
    """``"n_a = 3 (37 topics, Feldt [17, 68]; cost 703, bootstrap [494, 836])"``: assessors per topic,
    topics with their interval (``how``: its method), cost with the topic bootstrap's (each labelled
    by its method)."""
    topics = _n(r["n_topics"])
    if not (_missing(r.get("n_low")) and _missing(r.get("n_high"))):
        topics += f" topics, {how} [{_end(r['n_low'])}, {_end(r['n_high'])}]"
    else:
        topics += " topics"
    cost = f"cost {r['cost']:,.0f}"
    lo, hi = r.get("cost_low"), r.get("cost_high")
    if not (_missing(lo) or _missing(hi)):
        cost += f", bootstrap [{money(lo)}, {money(hi)}]"
    return f"n_a = {int(r['n_assessors'])} ({topics}; {cost})"


def money(v) -> str:
    return "unbounded" if not np.isfinite(float(v)) else f"{float(v):,.0f}"


def _ratio(v) -> str:
    """A cost ratio as printed: ``0.92``, ``5.5``, ``18``; ``any`` for 0, ``none`` for inf."""
    v = float(v)
    return "none" if np.isinf(v) else "0" if v == 0 else f"{v:.2g}" if v < 10 else f"{v:,.0f}"


def span(ks) -> str:
    """Assessor counts as the rows name them: ``"1 or 2"``, ``"1, 3 or 4"``; a run of more than two
    consecutive counts ``"1 to 6"``."""
    ks = [int(k) for k in ks]
    if len(ks) > 2 and ks == list(range(ks[0], ks[-1] + 1)):
        return f"{ks[0]} to {ks[-1]}"
    return claims.listing([str(k) for k in ks], "or")


def _ordinal(k: int) -> str:
    return {2: "2nd", 3: "3rd"}.get(k, f"{k}th")


#: A break-even that does not exist (NaN: neither design reaches the target), said the same everywhere.
UNDEFINED = "undefined: neither design reaches the target"


def _one_side(be: pd.DataFrame, a: int) -> str | None:
    """``"n_a = 2 cannot reach the target"`` when exactly one of ``a``, ``a + 1`` reaches no n at the point
    estimate (``be.attrs["unreachable"]``): no cost ratio to break even at."""
    never = set(be.attrs.get("unreachable", ()))
    if (a in never) == (a + 1 in never):
        return None
    return f"n_a = {a if a in never else a + 1} cannot reach the target"


def break_even_text(be: pd.DataFrame, a: int) -> str:
    """``"0.92 [0.70, 1.1]"``: the break-even ratio of ``a -> a + 1`` with its bootstrap interval (or why there is
    none: :data:`UNDEFINED`, or one side that cannot reach the target)."""
    r = be.set_index("n_assessors").loc[a]
    if _missing(r["break_even"]):
        return UNDEFINED
    if _one_side(be, a) is not None:
        return _one_side(be, a)
    ends = "" if _missing(r["low"]) or _missing(r["high"]) else f" [{_ratio(r['low'])}, {_ratio(r['high'])}]"
    return _ratio(r["break_even"]) + ends


def break_even_lines(be: pd.DataFrame, *, ratio: float, target: float, measure: str) -> list[str]:
    """Section 4's printed lines: per ``a``, the topic : judgment cost ratio above which ``a + 1``
    assessors per topic cost less than ``a`` (:func:`helpers.design.cost.break_even_bootstrap`),
    against this run's ratio (``cost_topic / cost_judgment``)."""
    head = (f"Break-even ratios of topic cost to judgment-set cost for Eρ² ≥ {target} ({measure}), with the "
            f"topic bootstrap's 95% interval over {be.attrs.get('n_boot', '?')} resamples; this run's ratio: {_ratio(ratio)}.")
    out = [head]
    for a in be["n_assessors"]:
        r = be.set_index("n_assessors").loc[a]
        where = side(r["low"], r["high"], ratio)
        said = {"below": "this run's ratio lies above it", "above": "this run's ratio lies below it",
                "inside": "this run's ratio lies inside it", None: "no interval"}[where]
        if _missing(r["break_even"]) or _one_side(be, int(a)) is not None:
            out.append(f"  n_a = {int(a) + 1} instead of {int(a)} per topic: {break_even_text(be, int(a))}")
            continue
        out.append(f"  n_a = {int(a) + 1} instead of {int(a)} per topic costs less above "
                   f"{break_even_text(be, int(a))}: {said}")
    return out


def break_even_row(be: pd.DataFrame | None, curve: pd.DataFrame | None, *, ratio: float, costs: str,
                    target: float, lead: str, max_assessors: int, needed: int | None = None) -> Finding:
    """Bodoff's claim at equal cost (one assessor per topic is cheapest) as the pilot answers it: the
    cost ratio up to which it holds (the break-even of 1 -> 2 assessors, with the topic bootstrap's
    interval), the next break-even, and, as a consequence, the cheapest design at this run's costs
    (the cost curve's, a tie named whole).  Verdict (:func:`side`): this run's ratio below the
    break-even's interval "holds", above it "does not hold", inside "cannot tell"."""
    # the question says what it tests (the break-even of unrounded topics), visibly not the headline's
    question = (f"Up to which topic : judgment cost ratio is one assessor per topic cheapest in unrounded topics "
                f"(the break-even; Eρ² ≥ {target}, {lead})?")
    paper = "Bodoff 2008, read as a break-even cost ratio"
    if be is None or not len(be):
        return Finding(question, paper, "no break-even: the design has no assessor facet", "not tested")
    undefined = [a for a in (1, 2)[:len(be)] if _missing(be.set_index("n_assessors").loc[a, "break_even"])]
    pairs = claims.listing([f"n_a = {a} vs {a + 1}" for a in undefined])   # not "3 assessors": a count, not the pilot's
    none = f"no break-even ({pairs}): neither design reaches the target"
    def third():         # the 2 -> 3 break-even, or why there is none (one side unreachable)
        side_ = _one_side(be, 2)
        return f"; {side_}" if side_ else f"; 3 assessors beat 2 above {break_even_text(be, 2)}"
    one_side = _one_side(be, 1)
    if 1 in undefined:
        run = none + ("" if len(be) == 1 or 2 in undefined else third())
    elif one_side:
        run = f"no break-even: {one_side}" + ("" if len(be) == 1 or 2 in undefined else third())
    else:
        run = f"up to {break_even_text(be, 1)} (bootstrap)" + (
            "" if len(be) == 1 else f"; {none}" if 2 in undefined else third())
    if curve is None:
        then = f"no design with n_a ≤ {max_assessors} reaches the target" + (
            "" if needed is None else f" (n_a ≥ {needed} would)")
    elif len(curve) == 1:
        then = f"only n_a = 1 searched (set by max_assessors = 1)"
    else:
        ks = [str(int(a)) for a in tied(curve)["n_assessors"]]
        last = int(curve["n_assessors"].max())
        if edge_note(curve) is None:
            then = f"cheapest n_a = {ks[0]}" if len(ks) == 1 else f"n_a = {span(ks)} tied"
        else:          # the searched range bounds it: never called the cheapest
            then = (f"cost still falls at n_a = {last} = max_assessors" if len(ks) == 1 else
                    f"n_a = {span(ks)} tied, {last} = max_assessors") + ": more may be cheaper"
    run += f". At this run's ratio {_ratio(ratio)}: {then}"   # its own sentence: the row stays under 50 words a sentence
    first = be.set_index("n_assessors").loc[1]
    verdict = ("cannot tell" if 1 in undefined else     # no break-even: nothing to put this run's ratio against
               "does not hold" if one_side and 1 in be.attrs.get("unreachable", ()) else    # 1 cannot reach it at all
               "cannot tell" if one_side else
               {"above": "holds", "below": "does not hold"}.get(side(first["low"], first["high"], ratio), "cannot tell"))
    # the caveat names the break-even intervals, each compared with this run's ratio uncorrected (and the tie)
    return Finding(question, paper, run, verdict, caveats=("ties",),
                   numbers={"break_even": be.to_dict(orient="records"), "ratio": ratio,
                            "designs": 0 if curve is None else len(curve),
                            "within_noise": [] if curve is None else [int(a) for a in tied(curve)["n_assessors"]]})


def cost_verdict(bodoff: Finding) -> str:
    """Bodoff's claim (one assessor per topic is cheapest) at this run's costs, read from the cost
    bootstrap of whole topics (the criterion of the answer's tie): "holds" when n_a = 1 alone is the
    cheapest, "does not hold" when it is not within noise of the cheapest, "cannot tell" when it is
    tied with another design or when only n_a = 1 was searched or no design reaches the target.
    The break-even reads unrounded topics, so it can separate designs whose whole-topic costs tie."""
    ks, designs = bodoff.numbers.get("within_noise", []), bodoff.numbers.get("designs", 0)
    if designs < 2 or not ks:
        return "cannot tell"
    return "holds" if ks == [1] else "cannot tell" if 1 in ks else "does not hold"


def design_question(target: float, costs: str, lead: str, bodoff: bool = False) -> str:
    """The design row's question (``bodoff``: real or file data, whose verdict is Bodoff's claim read
    from whole-topic costs, :func:`cost_verdict`; the question says so)."""
    return (f"Which assessors per topic are cheapest for Eρ² ≥ {target} at {costs} ({lead})?"
            + (" Is one assessor alone cheapest in whole topics?" if bodoff else ""))


def topics_question(target: float, method: str, n_t: int | None = None) -> str:
    """The topics row's question; ``n_t``: the pilot's topics, asked whether they reach the answer (:func:`reach_verdict`)."""
    return (f"How many topics at that design, for Eρ² ≥ {target} ({method} interval) and a paired t-test (bootstrap)?"
            + ("" if n_t is None else f" Does the pilot's {n_t} reach them?"))


def paired_label(bias: bool) -> str:
    """What a paired size is computed from: ``"2 V_E2"``, or with crossed assessors' t-test (``bias``)
    ``"2 V_E2 + assessor bias"`` (2 σ²_sa / n_a enters its n: :func:`helpers.design.study.sizes_by_measure`)."""
    return "2 V_E2 + assessor bias" if bias else "2 V_E2"


def topics_paper(crossed: bool) -> str:
    """The topics row's paper cell: what its numbers come from (crossed: the t-test adds the assessors' bias)."""
    return f"the pilot's D-study and {paired_label(crossed)}"


def every_design(rows: pd.DataFrame, at: pd.DataFrame, ks, texts: Mapping[int, str], t_test: bool = True,
                 words: int = 35) -> str:
    """The topics cell of every tied design ``ks`` (``texts``: k -> its part), in order; past ``words``
    words, the point-cheapest design (``rows``: the cost curve by n_a) in full, then ``"others: n_a = 2,
    4: Eρ² 18 to 26, t-test 427 to 643"`` (the others' ranges of point values)."""
    full = "; ".join(texts[k] for k in ks)
    if len(full.split()) <= words:
        return full
    best = min(ks, key=lambda k: float(rows.loc[k, "cost"]))
    rest = [k for k in ks if k != best]
    def span_of(values):
        v = sorted(int(x) for x in values if not _missing(x))
        return "none" if not v else f"{v[0]:,}" if v[0] == v[-1] else f"{v[0]:,} to {v[-1]:,}"
    t = at[(at["method"] == "paired t") & at["n_assessors"].isin(rest)]["n_paired"]
    return (f"{texts[best]}; others: n_a = {', '.join(map(str, rest))}: Eρ² {span_of(rows.loc[rest, 'n_topics'])}"
            + (f", t-test {span_of(t)}" + (" (some none)" if t.isna().any() else "") if t_test else ""))


def _reach_cells(curve: pd.DataFrame | None, at: pd.DataFrame, ks, pilot: Mapping, n_t: int) -> list[tuple]:
    """(kind "Eρ²" or "t-test", point, reached: True / False / None) of every number of the topics cell."""
    cells = []
    for k in ks:
        if curve is not None:
            r = curve.set_index("n_assessors").loc[k]
            cells.append(("Eρ²", r["n_topics"], r["n_low"], r["n_high"]))
        elif pilot:
            cells.append(("Eρ²", pilot.get("n"), pilot.get("low"), pilot.get("high")))
        t = at[(at["method"] == "paired t") & (at["n_assessors"] == k)]
        if len(t):
            cells.append(("t-test", *t.iloc[0][["n_paired", "n_paired_low", "n_paired_high"]]))
    return [(kind, n, False if _missing(n) else True if not _missing(hi) and n_t >= float(hi) else
             False if not _missing(lo) and n_t < float(lo) else None) for kind, n, lo, hi in cells]


def reach_verdict(curve: pd.DataFrame | None, at: pd.DataFrame, ks, pilot: Mapping, n_t: int | None) -> str:
    """Does the pilot's own ``n_t`` topics reach the answer's topics (Eρ² and the t-test at each of the
    assessors ``ks``, every tied design; ``pilot``: the Eρ² topics at the pilot's n_a when ``curve`` is None)?
    Per number: reached when ``n_t`` is at least its interval's upper end, not when below its lower end or
    unreachable at the point estimate, else undecided.  "holds" when every number is reached; "does not
    hold" when some are not and none is; "holds in part" when some are and some are not; "cannot tell" when
    none is short and some are undecided."""
    if n_t is None:
        return "cannot tell"
    ok = [c[2] for c in _reach_cells(curve, at, ks, pilot, n_t)]
    if False in ok:
        return "holds in part" if True in ok else "does not hold"
    return "holds" if ok and all(ok) else "cannot tell"


def reach_part(curve: pd.DataFrame | None, at: pd.DataFrame, ks, pilot: Mapping, n_t: int | None) -> str:
    """Which part holds, for a "holds in part" of :func:`reach_verdict`: ``"43 topics reach
    Eρ²'s 26 and 22, not the t-test's 143 and 124"`` (each kind's numbers reached, then those not; undecided
    ones are left out); "" for any other verdict."""
    if reach_verdict(curve, at, ks, pilot, n_t) != "holds in part":
        return ""
    cells = _reach_cells(curve, at, ks, pilot, n_t)
    def said(flag):
        parts = []
        for kind in ("Eρ²", "t-test"):
            ns = ["none" if _missing(n) else f"{int(n):,}" for k_, n, ok in cells if k_ == kind and ok is flag]
            if ns:
                parts.append(f"{kind}'s {claims.listing(ns)}" if kind == "Eρ²" else f"the t-test's {claims.listing(ns)}")
        return claims.listing(parts)
    return f"{n_t} topics reach {said(True)}, not {said(False)}"


def answer_rows(cells: tuple[str, str], bodoff: Finding | None, be: pd.DataFrame | None, *, lead: str, target: float,
                costs: str, method: str, reach: str, n_t: int | None, scope: str = "",
                truncated: tuple = (), crossed: bool = False, part: str = "") -> list[Finding]:
    """The answer of real or file data, first in the table, as two rows: the design (``cells[0]``, from
    :func:`helpers.findings.design.answer_sentence`), with Bodoff's claim read by the criterion of the answer
    itself (:func:`cost_verdict`: the cost bootstrap of whole topics) as its verdict; and its topics
    (``cells[1]``), with ``reach`` (:func:`reach_verdict`: does the pilot's ``n_t`` reach them?; ``part``:
    :func:`reach_part`, which part holds, added to the cell; ``crossed``: the paper cell says the bias).  The
    break-even of 1 -> 2 assessors (unrounded topics) is the appendix's row, asking its own question.
    ``truncated``: the caveat key of a truncated pilot (DL-19), or ()."""
    paper = "more topics beat more assessors (Bodoff 2008)"
    who = f"{lead}{' ' + scope if scope else ''}"
    tested = not (bodoff is None or be is None or not len(be))
    first = (Finding(design_question(target, costs, who, bodoff=True), paper, cells[0], cost_verdict(bodoff),
                     caveats=("ties", *truncated), numbers=bodoff.numbers) if tested else
             Finding(design_question(target, costs, who), paper, cells[0], "not tested", caveats=truncated))
    return [first, Finding(topics_question(target, method, n_t), topics_paper(crossed),
                           cells[1] + (f"; {part}" if part else ""), reach, caveats=truncated)]


def beside_answer(bodoff: Finding, answer: Finding) -> Finding:
    """The appendix's break-even row beside the headline row (:func:`answer_row`): the two questions say
    what each tests (unrounded topics vs whole-topic costs); when their verdicts differ, the break-even's
    run cell names the headline's, in a few words; a headline "not tested" or the same verdict leaves it as is."""
    if answer.verdict in ("not tested", bodoff.verdict):
        return bodoff
    return replace(bodoff, run=f"{bodoff.run}. Whole-topic costs (the headline row): '{answer.verdict}'")


def ties_caveat(be: pd.DataFrame, curve: pd.DataFrame | None) -> str | None:
    """The "ties" caveat from what the run compared: the cost bootstrap's 'within noise' (a curve of two or
    more designs) and the defined break-even intervals, each against this run's ratio; None when the run
    compared nothing (every break-even undefined and no design reaching the target, or one design only)."""
    defined = int(sum(not _missing(v) for v in be["break_even"])) if be is not None and len(be) else 0
    within = curve is not None and len(curve) > 1
    parts = ((["'Within noise'"] if within else [])
             + ([f"the {defined} defined break-even interval{'s' if defined > 1 else ''}, each against this run's ratio"]
                if defined else []))
    if not parts:
        return None
    return (f"{' and '.join(parts)}: uncorrected 95% comparisons"
            + (", the cheapest chosen on the same pilot." if within else "."))


def drop_caveat(rows, key: str) -> list[Finding]:
    """``rows`` without caveat ``key`` (a caveat the run has nothing to qualify with)."""
    return [replace(r, caveats=tuple(k for k in r.caveats if k != key)) for r in rows]
