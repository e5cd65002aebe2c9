"""Notebook 04's appendix A.1 in words and tables: the planted-truth check of family recovery.

:func:`planted_result` runs (or collects) the replicates of
:func:`helpers.replicates.diversity.diversity_recovery` and :func:`with_leaders` names each user's leaders;
:func:`planted_report` gives what A.1 prints: a few lines on the truths, **one table with a row per planted
user** (leader, family check, Holm p, verdict, chance yardstick, the check without members of two
families) and the null and summary lines; :func:`fitness` is the test :mod:`helpers.simulate.users` sets
before family recovery reads real data, and :func:`planted_rows` the findings row it gives.
Split from :mod:`helpers.findings.diversity` (which still exports every name) to keep modules short.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding
from .diversity_text import DESIGN_CAVEAT, USERS, draws_interval, fit_cell, pct, short_leaders

__all__ = ["family_table", "with_leaders", "planted_result", "truth_groups", "fitness", "planted_report", "user_table", "checks_table", "leader_header", "against_table", "planted_rows", "FAMILY_RULE", "fitness_prose", "diagnosis_lines", "COINCIDE",
           "fitness_verdict", "fitness_sentence", "planted_metrics"]


# -- section 7 ---------------------------------------------------------------------------------

#: The verdict of a check whose truth the runs do not tell apart from another's (tau at or above the
#: threshold): no measure can recover one of two run orders that agree and not the other.
COINCIDE = "cannot tell (truths coincide)"

#: How a family check's one (Holm-corrected) verdict is worded in the findings table.
_VERDICT = {"recovered": "shown", "outside ahead": "does not hold", "not shown": "not shown",
            "not testable": "cannot tell", "too few": "cannot tell", "truths coincide": COINCIDE}


def family_table(measures: Sequence[str]) -> pd.DataFrame:
    """The planted users and the measures of this run aligned with each
    (:func:`helpers.simulate.users.aligned_family` with :data:`~helpers.simulate.users.BY_DEFINITION`:
    the lists the family checks use), cutoffs dropped: ``model, the user, aligned with, members``;
    the printed table drops ``members`` and counts them in ``aligned with`` when the list is longer
    than a cell (:data:`~helpers.findings.diversity_text.CELL`)."""
    from ..simulate import users

    rows = []
    for m, (kind, _) in users.BY_DEFINITION.items():
        names = [x.split("@")[0] for x in measures if users.aligned_family(m, x, families=users.BY_DEFINITION)]
        full = f"{kind}: {', '.join(names)}" if names else kind
        rows.append({"model": m, "the user": USERS[m], "members": ", ".join(names) or "none",
                     "aligned with": fit_cell(full, f"{kind} ({claims.plural(len(names), 'measure')})")})
    return pd.DataFrame(rows, columns=["model", "the user", "aligned with", "members"])


def with_leaders(a: dict, digits: int = 3) -> dict:
    """:func:`helpers.replicates.diversity.planted_analysis` with each aligned model's leaders named
    (:func:`helpers.notebook.claims.leaders`; printed as "level with it" (:func:`short_leaders`): the
    ``1 - alpha`` CI of the mean paired difference to a tied leader includes 0,
    :func:`helpers.replicates.studies.paired_leader_intervals}; with fewer replicates than the interval
    rule needs (``a["enough"]`` False: :func:`helpers.replicates.planted.verdict_replicates`) no interval is used, only ties as printed) and, in each family check, the weak check it replaces: among the measures the check compares (the
    left-out families aside), how likely a random set of the leader set's size is to hold a family
    member (:func:`helpers.replicates.planted.chance_of_a_member`). No leader is named for ``null``
    (its check is a departure test). Returns ``a``, filled in."""
    from ..replicates import planted
    from ..simulate import users

    summary, level = a["summary"], 1 - a["alpha"]
    paired = a.get("enough", True)
    for m in a["models"]:
        if m == "null":
            continue
        means_m = summary[summary.model == m].set_index("measure")["mean"].to_dict()
        lead = a["leaders"][m] = _leaders(a["wide"][m], means_m, level, digits, paired)
        ck = a["checks"].get(m)
        if lead is None or ck is None:
            continue
        out_ = set(ck["left_out"]) | set(ck.get("partial", ())) | set(ck.get("coincide", ()))
        kept = {x: v for x, v in means_m.items() if x not in out_}
        among = _leaders(a["wide"][m], kept, level, digits, paired)
        named = among.numbers["leaders"] + among.numbers["within_noise"] if among is not None else []
        fam = [x for x, v in kept.items() if np.isfinite(v) and users.aligned_family(m, x, families=users.BY_DEFINITION)]
        n = sum(np.isfinite(v) for v in kept.values())
        ck.update(leader_set=list(named), leader_set_size=len(named), family_in_leader_set=sum(x in fam for x in named),
                  compared=n, chance_random_set=planted.chance_of_a_member(n, len(fam), len(named)))
    return a


def _leaders(wide: pd.DataFrame, means: Mapping[str, float], level: float, digits: int, paired: bool = True):
    """:func:`helpers.notebook.claims.leaders` of ``means`` with paired intervals (without them when
    ``paired`` is False: too few replicates for the verdict rule), or None when no value is finite
    (no run pair resolved in any replicate)."""
    from ..replicates import studies

    finite = {k: v for k, v in means.items() if np.isfinite(v)}
    if not finite:
        return None
    if not paired:
        return claims.leaders(finite, what="recovery", digits=digits)
    _, intervals = studies.paired_leader_intervals(wide[list(finite)], means=finite, digits=digits, level=level)
    return claims.leaders(finite, intervals=intervals, what="recovery", digits=digits)


def planted_result(job, *, data: str, replicates: int, seed: int, common: Mapping, significance: float,
                   twins: Sequence[Sequence[str]] = (), progress: bool = False) -> tuple[dict | None, str]:
    """The planted-truth analysis of appendix A.1 (:func:`helpers.replicates.diversity.planted_analysis`
    with :func:`with_leaders`) and ``""``, or ``None`` and the sentence saying why there is none.
    ``job``: the replicates started on the dask workers (a future), or None to run them here."""
    from ..replicates import diversity as rdiv
    from ..replicates import runner

    if data != "simulated":
        return None, f"Planted truths need the simulated collection; data {data!r} has none."
    if replicates < 2:
        return None, "replicates: 1. A planted truth is estimated from the other replicates, so it needs at least 2."
    rep = (job.result() if job is not None else
           runner.run_replicates(rdiv.diversity_recovery, replicates, seed, common=common, scheduler=None,
                                 progress=progress))
    a = with_leaders(rdiv.planted_analysis(rep, alpha=significance, twins=twins))
    spread = a["summary"]["replicates"].map(lambda n: draws_interval(n, 1 - significance))
    a["summary"] = a["summary"].assign(interval=spread)   # a spread of draws, not "95% interval"
    a["fitness"] = fitness(a)   # one verdict, read by the findings row, its bullet and A.1's summary
    return a, ""


def truth_groups(pairs: pd.DataFrame) -> list[list[str]]:
    """The separable groups of planted truths: the aligned models joined whenever the runs do not tell
    two of them apart (``told_apart`` False in :func:`helpers.replicates.diversity.told_apart`),
    in the order of their first model. Two truths at tau = 1 are one group, not two."""
    models = list(dict.fromkeys(list(pairs["a"]) + list(pairs["b"])))
    group = {m: {m} for m in models}
    for r in pairs.itertuples():
        if not r.told_apart:
            merged = group[r.a] | group[r.b]
            for x in merged:
                group[x] = merged
    out = []
    for m in models:
        g = [x for x in models if x in group[m]]
        if g not in out:
            out.append(g)
    return out


def fitness(a: Mapping) -> dict:
    """Does the family-recovery analysis (which measure family best recovers a planted user's order
    of the runs) pass the test :mod:`helpers.simulate.users` sets before it reads real data:
    every separable group of planted truths (:func:`truth_groups`) recovered (each member's family
    check Holm-corrected, not resting on members of two families) and no measure departing from
    chance in the null? ``{"groups", "recovered", "in_part", "other", "alike", "null_departs",
    "passes", "too_few"}``; the three lists hold groups, each named ``"position/graded"``;
    ``too_few`` is ``(replicates, needed)`` when the run has fewer replicates than the verdict rule
    needs (:func:`helpers.replicates.planted.verdict_replicates`) (then no verdict: every group is in ``other``), else None."""
    word = {m: _verdict(ck) for m, ck in a["checks"].items()}
    alike = [(r.a, r.b, r.tau) for r in a["pairs"].itertuples() if not r.told_apart]
    departs = list(a["null"]["departs"]) if a["null"] is not None else []
    groups = [g for g in truth_groups(a["pairs"]) if any(m in word for m in g)] if len(a["pairs"]) else \
        [[m] for m in word]
    rec, part, other, failed, same, words = [], [], [], [], [], {}
    for g in groups:
        ws = [word.get(m, "cannot tell") for m in g]
        name = "/".join(g)
        (rec if all(w == "shown" for w in ws) else part if any(w in ("shown", "holds in part") for w in ws)
         else other).append(name)
        if any(w not in ("shown", "cannot tell", COINCIDE) for w in ws):   # a check that ran and did not recover it
            failed.append(name)
            words[name] = ("does not hold" if "does not hold" in ws else
                           next(w for w in ws if w not in ("shown", "cannot tell", COINCIDE)))
        if all(w == COINCIDE for w in ws):
            same.append(name)
    f = {"groups": ["/".join(g) for g in groups], "recovered": rec, "in_part": part, "other": other,
         "failed": failed, "failed_words": words, "coincide": same, "untestable": [m for m, ck in a["checks"].items() if ck["verdict"] == "not testable"],
         "alike": alike, "null_departs": departs, "null_tested": a["null"] is not None and a["null"].get("tested", True),
         "passes": len(rec) == len(groups) > 0 and not departs and a["null"] is not None,
         "too_few": None if a.get("enough", True) else (a["replicates"], a["min_replicates"])}
    f["verdict"] = fitness_verdict(f)
    return f


def fitness_verdict(f: Mapping) -> str:
    """The ONE verdict of the fitness test (:func:`fitness`), read by the findings row, the bullet
    under the appendix table (:func:`fitness_prose`) and A.1's "In sum" line (:func:`planted_report`).
    It follows the test's own pass criterion, every separable truth group recovered and a clean null
    (:data:`FITNESS_CRITERION`): ``"holds"`` when both are met; ``"does not hold"`` when a check that
    ran did not recover its group (not shown, the best outside ahead, or recovered only in part) or a
    measure departs in the null; ``"cannot tell"`` below the verdict rule's replicates, and when
    nothing failed but a group's check or the null could not be run. A recovery in part is not a
    partial pass: the criterion needs every group."""
    if f["too_few"]:
        return "cannot tell"
    if f["passes"]:
        return "holds"
    if f.get("failed", f["in_part"] + f["other"]) or f["null_departs"]:
        return "does not hold"
    return "cannot tell"


def _fit(a: Mapping) -> dict:
    """The fitness test of ``a``: the one stored by :func:`planted_result` (``a["fitness"]``), so
    every reader reads the same object, else computed (:func:`fitness`)."""
    return a["fitness"] if "fitness" in a else fitness(a)


#: The pass criterion of the fitness test, as every reader states it (:func:`fitness_verdict`).
FITNESS_CRITERION = "the test needs every truth group recovered and a clean null"
#: What the fitness verdict means for reading real data (the only wording each verdict gets).
FITNESS_MEANING = {
    "holds": "so family recovery may be used on real data",
    "does not hold": f"{FITNESS_CRITERION}, so family recovery is not yet fit to read real data",
    "cannot tell": "so this run cannot say whether family recovery may read real data"}


def fitness_sentence(f: Mapping) -> str:
    """``"Verdict of helpers.simulate.users' test: holds in part; the test needs ... ."``: the verdict
    of :func:`fitness_verdict` and what it means, worded once for every reader (with ``too_few``,
    the replicates the run has and needs)."""
    why = f" ({f['too_few'][0]} replicates; verdicts need {f['too_few'][1]})" if f["too_few"] else ""
    return f"Verdict of helpers.simulate.users' test: {f['verdict']}{why}; {FITNESS_MEANING[f['verdict']]}."


def _fitness_text(f: Mapping, digits: int = 3, short: bool = False) -> str:
    """What the fitness test found; ``short`` (the findings row): without the pairs of truths not
    told apart, which A.1 lists. Every recovery, in full or in part, is labelled by construction:
    each planted user checked has its family's shape (position: RBP's, graded: IA-nDCG's utility,
    coverage: I-rec's, first-hit: ERR's), so none is singled out."""
    if f.get("too_few"):
        n, need = f["too_few"]
        return f"no verdict from {n} replicates (verdicts need {need})"
    n, rec, part = len(f["groups"]), f["recovered"], f["in_part"]
    missed = [g for g in f["other"] if g in f.get("failed", f["other"])]
    by_word = {}   # the failed groups under their own verdict word (:func:`_verdict`), as A.1's table and CSV say it
    for g in missed:
        by_word.setdefault(f.get("failed_words", {}).get(g, "not shown"), []).append(g)
    missed_text = "; ".join(f"{w}: {claims.listing(gs)}" for w, gs in by_word.items())
    null = "; null: " + (f"{claims.listing(f['null_departs'])} depart" if f["null_departs"] else
                         "clean" if short else "no departure")
    if short:   # the findings row (at most 30 words with its question and verdict): the groups named, not counted
        parts = [f"recovered: {claims.listing(rec)}" if rec else "none recovered"]
        parts += [f"in part: {claims.listing(part)}"] if part else []
        parts += [missed_text] if missed else []
        parts += [f"{claims.listing(f['coincide'])} coincide"] if f.get("coincide") else []
        parts += [f"untestable: {claims.listing(f['untestable'])}"] if f.get("untestable") else []
        parts += ["recoveries by construction"] if rec or part else []
        return "; ".join(parts) + null
    text = f"{len(rec)} of {n} separable groups of truths recovered" + (f" ({claims.listing(rec)})" if rec else "")
    if part:
        text += f" and {len(part)} in part ({claims.listing(part)})"
    if rec or part:
        text += ", all by construction" if len(rec) + len(part) > 1 else ", by construction"
    if missed:
        text += f"; {missed_text}"
    if f.get("untestable"):
        text += f"; nothing left to compare: {claims.listing(f['untestable'])}"
    if f["alike"]:
        text += f"; {COINCIDE}: " + claims.listing([f"{x}/{y} (τ = {claims.number(t, digits)})" for x, y, t in f["alike"]])
    return text + null


def planted_report(a: Mapping, digits: int = 3) -> tuple[list[str], pd.DataFrame, list[str]]:
    """What appendix A.1 prints from :func:`helpers.replicates.diversity.planted_analysis` (with
    :func:`with_leaders`): the lines on the replicates and the truths (the first ``1 + len(truth)``
    are the design line and each truth's run order), one table with a row per planted user
    (:func:`user_table`), and the lines on the null and the sum. Every line is under 50 words."""
    t = next(iter(a["truth"].values()))
    alpha, level, n = a["alpha"], 1 - a["alpha"], a["replicates"]
    per = t["topics"] / n if n else 0
    out = (f"{int(round(per * (n - 1))):,} topics of the other {n - 1} replicates" if per == int(per) and n > 1
           else "the other replicates' topics")
    head = [f"{n} replicates; the run orders below pool all {t['topics']:,} topics; each replicate is scored "
            f"against the truth from the {out} (leave-one-out). " + _design_text(a)]
    z = a.get("z", 2.0)   # resolved: the truth's mean paired difference beyond z SEs, z fixed (not `significance`)
    for i, (m, tr) in enumerate(a["truth"].items()):
        order = [t["runs"][k] for k in np.argsort(-tr["mean"], kind="stable")]
        how = f": beyond {z:g} SEs, a fixed z" if i == 0 else ""
        head.append(f"{m}: {' > '.join(order)} ({int(np.triu(tr['resolved'], 1).sum())} of "
                    f"{len(order) * (len(order) - 1) // 2} pairs resolved{how})")
    pairs = a["pairs"]
    apart = [f"{r.a}/{r.b}" for r in pairs.itertuples() if r.told_apart]
    alike = [f"{r.a}/{r.b} (τ = {claims.number(r.tau, digits)})" for r in pairs.itertuples() if not r.told_apart]
    head.append(f"Told apart by these runs (τ < {a['threshold']:g}): {claims.listing(apart) if apart else 'no pair'}.")
    if alike:
        head.append(f"Not claimed separable (τ ≥ {a['threshold']:g}): {claims.listing(alike)}; no measure can "
                    f"recover one of them and not the other, so their checks are not tested: {COINCIDE}.")
    tail = untestable_lines(a) + diagnosis_lines(a, digits)
    nl = a["null"]
    if nl is not None and not nl.get("tested", True):
        tail.append(f"null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; not tested ({n} replicates < minimum "
                    f"{a['min_replicates']}).")
    elif nl is not None:
        tail.append(f"null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; Holm over {nl['family']} distinct "
                    f"measures at α = {alpha:g}: " + (f"{claims.listing(nl['departs'])} depart from one half" if
                                                      nl["departs"] else "none departs from one half")
                    + f" (uncorrected: {nl['uncorrected']} of {nl['measures']} {pct(level)} CIs exclude it).")
    f = _fit(a)
    tail.append(f"In sum: {_fitness_text(f, digits)}. {fitness_sentence(f)}")
    return head, user_table(a, digits), tail


def leader_header(a: Mapping) -> str:
    """The header of A.1's leader column: which measures it ranks and whether a test made its ties.
    Below the verdict rule's minimum (:func:`helpers.replicates.planted.verdict_replicates`) no paired test ran, so the header says so instead of
    "level with it" (only exact ties are then named)."""
    if a.get("enough", True):
        return "leader, all measures (level with it)"
    return f"highest mean, all measures (no test: {a['replicates']} replicates < minimum {a['min_replicates']})"


def _diff_header(a: Mapping) -> str:
    level = 1 - a["alpha"]
    reps = {ck.get("replicates") for ck in a["checks"].values() if ck.get("replicates")}
    return "family best − best outside" + (f" ({pct(level)} CI of the mean, {reps.pop()} replicates)"
                                            if len(reps) == 1 and a.get("enough", True) else "")


#: The columns of A.1's printed table after the leader and difference columns' (run-dependent) headers.
SET_COLUMN = "leader set of the measures compared: members; chance"


def user_table(a: Mapping, digits: int = 3) -> pd.DataFrame:
    """A.1's table, one row per family check (the null aside; a second row for a check without the
    members of two families), every cell at most :data:`~helpers.findings.diversity_text.CELL`
    characters (the full lists: :func:`checks_table`). Columns: the user; the leader among **all**
    measures (:func:`leader_header`); the family and how many of the measures compared are in it;
    the users whose families are left out and how many measures are set aside; the family's best
    minus the best outside with the CI of the mean over the testing replicates; the Holm p; the
    verdict; and the leader set **of the measures compared** (the set the chance is computed on,
    named when it fits), its members and the chance that a random set of its size holds one."""
    lead_col, diff = leader_header(a), _diff_header(a)
    cols = ["user", lead_col, "family: members of compared", "left out; set aside", diff, "Holm p", "verdict",
            SET_COLUMN]
    rows = []
    for m in a["models"]:
        if m == "null":
            continue
        row = {"user": m, lead_col: _leader_cell(a["leaders"].get(m), digits)}
        ck = a["checks"].get(m)
        if ck is not None:
            row.update(_check_cells(a, m, ck, digits))
            row[diff] = row.pop("difference")
        rows.append(row)
        if ck is not None and "without_shared" in ck:
            ws = ck["without_shared"]
            extra = _check_cells(a, m, {**ws, "left_out": [], "not_told_apart": []}, digits)
            extra[diff] = extra.pop("difference")
            extra["left out; set aside"] = fit_cell(f"also out: {claims.listing(ws['shared'])}",
                                                    f"also out: its {len(ws['shared'])} members of two families")
            rows.append({"user": f"{m}, shared members out", lead_col: "—", **extra})
    return pd.DataFrame([{c: r.get(c, "—") for c in cols} for r in rows], columns=cols, dtype=object)


def _leader_cell(lead, digits: int) -> str:
    """The leader and the measures level with it, counted when the list is longer than a cell."""
    if lead is None:
        return "no run pair resolved"
    full = short_leaders(lead, digits=digits, term="level with it")
    n = lead.numbers
    more = f"; {len(n['within_noise'])} level with {'them' if len(n['leaders']) > 1 else 'it'}" \
        if n["within_noise"] else ""
    head = (f"{n['leaders'][0]} ({n['best']:.{digits}f}" if len(n["leaders"]) == 1 else
            f"{len(n['leaders'])} measures tied ({n['best']:.{digits}f}")
    return fit_cell(full, head + more + ")")


def _check_cells(a: Mapping, m: str, ck: Mapping, digits: int) -> dict:
    """One family check as the cells of :func:`user_table`."""
    from ..simulate import users

    kind = users.BY_DEFINITION[m][0]
    out_ = []
    if ck.get("left_out"):
        out_.append(f"famil{'ies' if len(ck['not_told_apart']) > 1 else 'y'} of {claims.listing(ck['not_told_apart'])}")
    aside = len(ck.get("partial", ())) + len(ck.get("coincide", ()))
    if aside:
        out_.append(f"{aside} set aside")
    out = {"family: members of compared": f"{kind}: {ck['family_size']} of {ck['measures']}",
           "left out; set aside": "; ".join(out_) or "—", "difference": _diff_cell(ck, digits),
           "verdict": _verdict(ck) if "shared" not in ck else _VERDICT[ck["verdict"]]}
    if ck["verdict"] in ("not testable", "too few", "truths coincide"):
        return out
    out["Holm p"] = claims.format_p(ck["p_holm"], a["alpha"])
    if "chance_random_set" in ck:
        k, n = ck["family_in_leader_set"], ck["leader_set_size"]
        members = f"{k} member{'' if k == 1 else 's'}; {claims.number(ck['chance_random_set'], digits)}"
        named = ck.get("leader_set")
        short = f"{claims.plural(n, 'measure')}: {members}"
        out[SET_COLUMN] = fit_cell(f"{claims.listing(named)}: {members}", short) if named else short
    return out


def _diff_cell(ck: Mapping, digits: int) -> str:
    """``"IA-RBP@10 − D-EBR@10: +0.001 [-0.013, +0.014]"`` (the CI's level and replicates are in the
    column's name), or the difference without an interval, or why there is none (a line below the
    table says it in full: :func:`untestable_lines`)."""
    if ck["verdict"] == "not testable":
        return "no run pair resolved" if not ck.get("measures") else "nothing left to compare (below)"
    (x, y), = ck["picks"]
    if ck["verdict"] == "too few":
        return f"{x} − {y}: {ck['diff']:+.{digits}f} (no interval)"
    if ck["low"] == ck["high"] == ck["diff"]:
        return f"{x} − {y}: {ck['diff']:+.{digits}f} in every replicate"
    return f"{x} − {y}: {ck['diff']:+.{digits}f} [{ck['low']:+.{digits}f}, {ck['high']:+.{digits}f}]"


def untestable_lines(a: Mapping) -> list[str]:
    """One line per family check that compares nothing, saying why: no resolved pair, no family
    member left, or nothing left outside the family, and then whether the measures set aside as
    coinciding with a member did it (few runs and replicates give recovery few values)."""
    runs = len(next(iter(a["truth"].values()))["runs"]) if a.get("truth") else 0
    out = []
    for m, ck in a["checks"].items():
        for name, c in ((m, ck), (f"{m} without its members of two families", ck.get("without_shared"))):
            if not c or c["verdict"] != "not testable":
                continue
            if not c.get("measures"):
                out.append(f"{name}: no run pair resolved in any replicate, so no measure has a recovery to compare.")
            elif not c["family_size"]:
                out.append(f"{name}: nothing left to compare, since no measure of its family is among those compared.")
            elif ck.get("coincide") and c is ck:
                half = (f" With the {claims.plural(len(ck['partial']), 'half member')}, that sets aside every measure "
                        "outside the family." if ck.get("partial") else "")
                out.append(f"{name}: nothing left to compare outside its family. With {runs} runs "
                           f"({runs * (runs - 1) // 2} pairs) and {a['replicates']} replicates, recovery takes few "
                           f"values, so {len(ck['coincide'])} measures equal a family member's in every replicate "
                           f"and are set aside.{half}")
            else:
                out.append(f"{name}: nothing left to compare outside its family.")
    return out


def checks_table(a: Mapping, digits: int = 3) -> pd.DataFrame:
    """A.1's family checks in full, for the CSV the printed table points to: per check the leader
    among all measures, the family members compared, the users whose families are left out, the
    measures set aside (half members, coinciding with a member), the pair tested, its difference,
    interval and p-values, the verdict, the user's verdict (:func:`_verdict`: the check without members
    of two families decides when there is one; truths not told apart: :data:`COINCIDE`), and the leader
    set of the measures compared with its members and chance."""
    rows = []
    for m, ck in a["checks"].items():
        for c, which in ((ck, "family"), (ck.get("without_shared"), "without members of two families")):
            if not c:
                continue
            lead = a["leaders"].get(m)
            rows.append({"user": m, "check": which, "leader, all measures": lead.text if lead is not None else "",
                         "family size": c.get("family_size", ""), "measures compared": c.get("measures"),
                         "families left out": ", ".join(ck["not_told_apart"]) if c is ck else "",
                         "set aside": ", ".join(list(ck.get("partial", ())) + list(ck.get("coincide", ())))
                         if c is ck else ", ".join(c["shared"]),
                         "pair tested": " − ".join(c["picks"][0]) if c.get("picks") else "",
                         "difference": c.get("diff"), "low": c.get("low"), "high": c.get("high"),
                         "Holm p": c.get("p_holm"),
                         "verdict": ("set aside: rests on members of two families" if c is ck and "without_shared" in ck
                                     else _VERDICT[c["verdict"]]),
                         "user's verdict": _verdict(ck) if c is ck else "",
                         "leader set of compared": ", ".join(c.get("leader_set", ())) if c is ck else "",
                         "members in it": c.get("family_in_leader_set", "") if c is ck else "",
                         "chance": c.get("chance_random_set", "") if c is ck else ""})
    return pd.DataFrame(rows)


def _design_text(a: Mapping) -> str:
    """How this run's family checks pick and test, and whether they give verdicts: the sentence that
    follows the run (split halves from 4 replicates on, in sample below; verdicts and intervals only
    from the verdict rule's number of replicates, :func:`helpers.replicates.planted.verdict_replicates`)."""
    n, need, level = a["replicates"], a["min_replicates"], 1 - a["alpha"]
    half = n // 2   # planted.family_check picks on the even rows and tests on the odd ones
    how = (f"Each family check picks its pair on {n - half} replicates and compares it on the other {half}"
           if n >= 4 else f"Each family check picks and compares its pair on the same {n} replicates (too few to split)")
    if a.get("enough", True):
        return f"{how}; intervals are {pct(level)}, verdicts Holm-corrected at α = {a['alpha']:g}."
    # the rule's minimum is not followed by the word "replicates": it is not a replicate count of the run.
    # The figure and the recovery table below do show a spread of the replicates: say which, and that it is
    # no interval (draws_interval names it as the figure's label does)
    spread = draws_interval(n, level)
    spread = "ranges" if spread == "range" else spread
    return f"{how}; {spread} of the replicates shown, not intervals; no verdict (verdicts need {need}; this run has {n})."


def _verdict(ck: Mapping) -> str:
    """The verdict word of a family check (Holm-corrected). A truth the runs do not tell apart from
    another's (``not_told_apart``) gets :data:`COINCIDE`; when the pair tested rests on a member shared
    with another family, the check without the shared members (``without_shared``) decides: shared
    members cannot say which of the two users a run order follows."""
    if ck.get("not_told_apart") and ck["verdict"] != "not testable":
        return COINCIDE
    if "without_shared" in ck:
        return _VERDICT[ck["without_shared"]["verdict"]]
    return _VERDICT[ck["verdict"]]


def _p(p: float, alpha: float) -> str:
    """``"= 0.004"`` or ``"< 0.001"``: :func:`helpers.notebook.claims.format_p` after ``Holm p``."""
    text = claims.format_p(p, alpha)
    return text if text[0] in "<>=≥≤" else f"= {text}"


def _interval_text(c: Mapping, digits: int, alpha: float) -> str:
    """``"IA-EBR@10 − D♯-nDCG@10 = +0.003 [-0.018, +0.024], Holm p = 1.000"``: a check's pair, difference,
    interval and Holm p (without the interval when there is none)."""
    (x, y), = c["picks"]
    ci = f" [{c['low']:+.{digits}f}, {c['high']:+.{digits}f}]" if np.isfinite(c.get("low", np.nan)) else ""
    return f"{x} − {y} = {c['diff']:+.{digits}f}{ci}, Holm p {_p(c['p_holm'], alpha)}"


def diagnosis_lines(a: Mapping, digits: int = 3) -> list[str]:
    """Why each family check that did not recover its user failed, from the run's numbers: a recovery
    that rested on a member shared with another family (the check with and without the shared members),
    the best outside ahead, or a Holm p at or above α. Truths not told apart are said once, in the
    line naming them (:func:`planted_report`)."""
    out = []
    for m, ck in a["checks"].items():
        word = _verdict(ck)
        if word == COINCIDE:   # said once, in the line naming the truths not told apart
            continue
        if word in ("not shown", "does not hold") and "without_shared" in ck and ck["verdict"] == "recovered":
            ws = ck["without_shared"]
            out.append(f"Why {m}'s check is “{word}”: its lead rests on {ck['picks'][0][0]}, a member of two families "
                       f"({_interval_text(ck, digits, a['alpha'])}); without {claims.listing(ws['shared'])}, "
                       f"{_interval_text(ws, digits, a['alpha'])}.")
        elif word in ("not shown", "does not hold"):
            c = ck.get("without_shared", ck)
            why = "the best outside is ahead" if word == "does not hold" else f"Holm p ≥ α = {a['alpha']:g}"
            out.append(f"Why {m}'s check is “{word}”: {why} ({_interval_text(c, digits, a['alpha'])}).")
    return out


#: Why A.1's families differ from notebook 05's (:func:`helpers.replicates.preference.study_families`,
#: which counts a half member in both families): the caveat the family-recovery row points to.
FAMILY_RULE = ("Half members (D♯-, DIN♯-, P+Q♯-measures) sit in neither family here, in both in notebook 05: "
               "a family's best must be a whole member.")


def planted_rows(a: Mapping, run_design: str = "styles", digits: int = 3) -> tuple[list[Finding], dict]:
    """The one row of the planted-truth check (appendix A.1 has the detail) and the caveats it uses:
    what family recovery can and cannot separate, and whether it passes the fitness test."""
    alpha = a["alpha"]
    f = _fit(a)
    # the one verdict (the bullet and A.1's summary read the same, fitness_sentence); a full pass is what the
    # users' shape builds in, so the row says "by construction" rather than "holds"
    verdict = "by construction" if f["verdict"] == "holds" else f["verdict"]
    caveats = {"aligned": "Each planted user has its family's shape, so a recovery is expected by construction: the "
                          "row checks the analysis, not which measure users prefer."}
    caveats["design"] = DESIGN_CAVEAT[run_design]
    caveats["family_rule"] = FAMILY_RULE
    cav = ("design", "aligned", "family_rule")
    if not f["too_few"]:
        caveats["holm"] = f"The family checks are Holm-corrected over {a['holm_family']} checks at α = {alpha:g}."
        cav += ("holm",)
    row = Finding("Does family recovery pass its planted-user test (A.1)?",
                  "—", _fitness_text(f, digits, short=True), verdict, caveats=cav,
                  numbers={**f, "checks": {m: {k: ck.get(k) for k in ("diff", "low", "high", "p", "p_holm", "verdict",
                                                                      "picks", "replicates")}
                                           for m, ck in a["checks"].items()}})
    return [row], caveats


def fitness_prose(a: Mapping, digits: int = 3) -> str:
    """The one bullet that says what the planted-user check comes to, naming the analysis it checks."""
    f = _fit(a)
    what = ("*Family recovery* reads which user a run order follows from the measure family that best "
            "recovers it (A.1). ")
    return what + fitness_sentence(f)


#: The column of :func:`against_table` naming the measures with the largest share against a user
#: (a largest share, which may be well under a majority).
LARGEST = "largest share against"


def against_table(sig_vs_truth: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """A.1 (end) per planted user: the single draw's significant pairs summed over the measures
    (each counted once; :func:`helpers.replicates.diversity.significant_vs_truth`), how many are in
    the user's order and how many against it (significant, but that user orders the two runs the
    other way), the share against, and the measures with the largest share against (ties named,
    :func:`helpers.notebook.claims.leaders`, counted past a cell's width; measures without a
    significant pair left out; ``—`` when no pair is against the user)."""
    rows = []
    for model, g in sig_vs_truth.groupby("model", sort=False):
        sig, against = int(g["significant"].sum()), int(g["against it"].sum())
        share = {m: k / n for m, k, n in zip(g["measure"], g["against it"], g["significant"]) if n}
        most = "—"
        if against:
            c = claims.leaders(share, what="share", digits=digits)
            n = c.numbers
            most = fit_cell(short_leaders(c, limit=3, digits=digits),
                            f"{len(n['leaders'])} measures tied at {n['best']:.{digits}f}")
        rows.append({"user": model, "significant pairs": sig, "in its order": int(g["in planted order"].sum()),
                     "against it": against, "share against": f"{against / sig:.0%}" if sig else "—", LARGEST: most})
    return pd.DataFrame(rows, columns=["user", "significant pairs", "in its order", "against it", "share against",
                                       LARGEST])


def planted_metrics(a: Mapping, replicates: int, level: float) -> dict:
    """What appendix A.1 writes to the metrics JSON from :func:`planted_result`: replicates, pooled
    topics, the truths' τ and the pairs told apart, recovery, leaders, family checks and their Holm
    family, the null, the measures counted once, the coinciding truths and the fitness test (with
    its one verdict)."""
    models = a["models"]
    return {"R": replicates, "pooled_topics": a["truth"][models[0]]["topics"], "level": level,
            "truth_tau": a["truth_tau"], "told_apart": a["pairs"], "recovery": a["summary"],
            "leaders": {m: c and c.numbers for m, c in a["leaders"].items()},
            "family_check": a["checks"], "holm_family": a["holm_family"], "null": a["null"],
            "counted_once": a["twins"], "coinciding_truths": [list(p) for p in a["coinciding"]],
            "fitness": _fit(a)}
