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
from .diversity_text import DESIGN_CAVEAT, USERS, draws_interval, pct, short_leaders, twins_line

__all__ = ["family_table", "with_leaders", "planted_result", "truth_groups", "fitness", "planted_report", "user_table", "against_table", "planted_rows", "fitness_prose"]


# -- section 7 ---------------------------------------------------------------------------------

#: How a family check's one (Holm-corrected) verdict is worded in the findings table.
_VERDICT = {"recovered": "shown", "outside ahead": "does not hold", "not shown": "not shown",
            "not testable": "cannot tell", "too few": "cannot tell"}
#: How the check without the measures of two families is worded beside the verdict (Holm-corrected).
_WITHOUT = {"recovered": "the family still leads", "outside ahead": "the best measure outside leads",
            "not shown": "no lead shown", "not testable": "nothing left to compare", "too few": "no verdict"}


def family_table(measures: Sequence[str]) -> pd.DataFrame:
    """The planted users and the measures of this run aligned with each
    (:func:`helpers.simulate.users.aligned_family` with :data:`~helpers.simulate.users.BY_DEFINITION`:
    the lists the family checks use), cutoffs dropped."""
    from ..simulate import users

    rows = []
    for m, (kind, _) in users.BY_DEFINITION.items():
        names = [x.split("@")[0] for x in measures if users.aligned_family(m, x, families=users.BY_DEFINITION)]
        rows.append({"model": m, "the user": USERS[m],
                     "aligned with": f"{kind}: {', '.join(names)}" if names else kind})
    return pd.DataFrame(rows, columns=["model", "the user", "aligned with"])


def _check_text(ck: Mapping, digits: int = 3) -> str:
    """``"IA-RBP@10 − P+Q@10: −0.008 [−0.015, −0.002] (95% CI of the mean over 20 replicates)"``."""
    if ck["verdict"] == "not testable":
        return ("no run pair resolved in any replicate" if not ck.get("measures") else
                "no measure in the family, or none outside it")
    (a, b), = ck["picks"]
    if ck["verdict"] == "too few":   # the interval rule: no interval from fewer replicates than it needs
        return f"{a} − {b}: {ck['diff']:+.{digits}f} (mean over {ck['replicates']} testing replicates, no interval)"
    if ck["low"] == ck["high"] == ck["diff"]:   # the same difference in every replicate: no interval to print
        return f"{a} − {b}: {ck['diff']:+.{digits}f} in each of the {ck['replicates']} replicates"
    level = ck.get("level", 0.95)
    text = claims.mean_ci(ck["diff"], ck["low"], ck["high"], ck["replicates"], level=level, digits=digits).text
    return f"{a} − {b}: {text.replace(f'{level:.0%} CI', f'{pct(level)} CI')}"


def with_leaders(a: dict, digits: int = 3) -> dict:
    """:func:`helpers.replicates.diversity.planted_analysis` with each aligned model's leaders named
    (:func:`helpers.notebook.claims.leaders`; printed as "level with it" (:func:`short_leaders`): the
    ``1 - alpha`` CI of the mean paired difference to a tied leader includes 0,
    :func:`helpers.replicates.studies.paired_leader_intervals}; with fewer replicates than the interval
    rule needs (``a["enough"]`` False) no interval is used, only ties as printed) and, in each family check, the weak check it replaces: among the measures the check compares (the
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
        ck.update(leader_set_size=len(named), family_in_leader_set=sum(x in fam for x in named), compared=n,
                  chance_random_set=planted.chance_of_a_member(n, len(fam), len(named)))
    return a


def _leaders(wide: pd.DataFrame, means: Mapping[str, float], level: float, digits: int, paired: bool = True):
    """:func:`helpers.notebook.claims.leaders` of ``means`` with paired intervals (without them when
    ``paired`` is False: too few replicates for the interval rule), or None when no value is finite
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
    ``too_few`` is ``(replicates, needed)`` when the run has fewer replicates than the interval rule
    needs (then no verdict: every group is in ``other``), else None."""
    word = {m: _verdict(ck) for m, ck in a["checks"].items()}
    alike = [(r.a, r.b, r.tau) for r in a["pairs"].itertuples() if not r.told_apart]
    departs = list(a["null"]["departs"]) if a["null"] is not None else []
    groups = [g for g in truth_groups(a["pairs"]) if any(m in word for m in g)] if len(a["pairs"]) else \
        [[m] for m in word]
    rec, part, other = [], [], []
    for g in groups:
        ws = [word.get(m, "cannot tell") for m in g]
        name = "/".join(g)
        (rec if all(w == "shown" for w in ws) else part if any(w in ("shown", "holds in part") for w in ws)
         else other).append(name)
    return {"groups": ["/".join(g) for g in groups], "recovered": rec, "in_part": part, "other": other,
            "alike": alike, "null_departs": departs,
            "passes": len(rec) == len(groups) > 0 and not departs and a["null"] is not None,
            "too_few": None if a.get("enough", True) else (a["replicates"], a["min_replicates"])}


def _fitness_text(f: Mapping, digits: int = 3) -> str:
    if f.get("too_few"):
        n, need = f["too_few"]
        return f"no verdict from {n} replicates (the interval rule needs {need})"
    n = len(f["groups"])
    text = f"{len(f['recovered'])} of {n} separable groups of truths recovered" + (
        f" ({claims.listing(f['recovered'])})" if f["recovered"] else "")
    if f["in_part"]:
        text += f"; in part: {claims.listing(f['in_part'])}"
    if f["alike"]:
        text += "; not told apart: " + claims.listing([f"{x}/{y} (τ = {claims.number(t, digits)})" for x, y, t in f["alike"]])
    return text + ("; null: " + (f"{claims.listing(f['null_departs'])} depart" if f["null_departs"] else "no departure"))


def planted_report(a: Mapping, digits: int = 3) -> tuple[list[str], pd.DataFrame, list[str]]:
    """What appendix A.1 prints from :func:`helpers.replicates.diversity.planted_analysis` (with
    :func:`with_leaders`): the lines on the replicates and the truths (the first ``1 + len(truth)``
    are the design line and each truth's run order), one table with a row per planted user
    (:func:`user_table`), and the lines on the null and the sum. Every line is under 50 words."""
    t = next(iter(a["truth"].values()))
    alpha, level, n = a["alpha"], 1 - a["alpha"], a["replicates"]
    head = [f"{n} replicates; planted truths from {t['topics']:,} pooled topics (leave-one-out per replicate). "
            + _design_text(a)]
    for m, tr in a["truth"].items():
        order = [t["runs"][k] for k in np.argsort(-tr["mean"], kind="stable")]
        head.append(f"{m}: {' > '.join(order)} ({int(np.triu(tr['resolved'], 1).sum())} of "
                    f"{len(order) * (len(order) - 1) // 2} pairs resolved)")
    pairs = a["pairs"]
    apart = [f"{r.a}/{r.b}" for r in pairs.itertuples() if r.told_apart]
    alike = [f"{r.a}/{r.b} (τ = {claims.number(r.tau, digits)})" for r in pairs.itertuples() if not r.told_apart]
    head.append(f"Told apart by these runs (τ < {a['threshold']:g}): {claims.listing(apart) if apart else 'no pair'}.")
    if alike:
        head.append(f"Not claimed separable (τ ≥ {a['threshold']:g}): {claims.listing(alike)}; each is checked "
                    "without the other's family, shared members included.")
    if a.get("twins"):
        head.append(twins_line(a["twins"]))
    tail = []
    nl = a["null"]
    if nl is not None and not nl.get("tested", True):
        tail.append(f"null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; not tested (too few replicates).")
    elif nl is not None:
        tail.append(f"null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; Holm over {nl['family']} distinct "
                    f"measures at α = {alpha:g}: " + (f"{claims.listing(nl['departs'])} depart from one half" if
                                                      nl["departs"] else "none departs from one half")
                    + f" (uncorrected: {nl['uncorrected']} of {nl['measures']} {pct(level)} CIs exclude it).")
    f = fitness(a)
    tail.append(f"In sum: {_fitness_text(f, digits)}; by helpers.simulate.users' test, family recovery "
                + ("cannot be judged." if f["too_few"] else "passes." if f["passes"] else
                   "is not fit to read real data."))
    return head, user_table(a, digits), tail


def user_table(a: Mapping, digits: int = 3) -> pd.DataFrame:
    """A.1's table, one row per planted user (the null aside): its leader and the measures level with
    it; the family check (the family, how many of the measures compared are in it, the families
    left out); the family's best minus the best outside with the CI of the mean over the testing
    replicates; the Holm-corrected p and verdict; how many of the leader set are family members
    and the chance that a random set of that size holds one; the check again without the members
    of two families. ``—`` where a user has no check (the mixture) or a check gives no value."""
    from ..simulate import users

    level = 1 - a["alpha"]
    reps = {ck.get("replicates") for ck in a["checks"].values() if ck.get("replicates")}
    diff = ("family best − best outside" + (f" ({pct(level)} CI of the mean, {reps.pop()} replicates)"
                                             if len(reps) == 1 and a.get("enough", True) else ""))
    cols = ["user", "leader (level with it)", "family check", diff, "Holm p", "verdict",
            "leader set: members, chance", "without members of two families"]
    rows = []
    for m in a["models"]:
        if m == "null":
            continue
        lead = a["leaders"].get(m)
        row = {"user": m, "leader (level with it)": "no run pair resolved" if lead is None else
               short_leaders(lead, digits=digits, term="level with it")}
        ck = a["checks"].get(m)
        if ck is not None:
            row.update(_check_cells(a, ck, users.BY_DEFINITION[m][0], digits))
            row[diff] = row.pop("difference")
        rows.append(row)
    return pd.DataFrame([{c: r.get(c, "—") for c in cols} for r in rows], columns=cols, dtype=object)


def _check_cells(a: Mapping, ck: Mapping, kind: str, digits: int) -> dict:
    """One family check as the cells of :func:`user_table`."""
    left = f"; left out: {claims.listing(ck['not_told_apart'])}" if ck["left_out"] else ""
    aside = list(ck.get("partial", ())) + list(ck.get("coincide", ()))
    aside_text = (f"; set aside: {claims.listing(aside) if len(aside) <= 2 else claims.plural(len(aside), 'measure')}"
                  if aside else "")
    out = {"family check": f"{kind}, {ck['family_size']} of {ck['measures']}{left}{aside_text}",
           "difference": _diff_cell(ck, digits), "verdict": _verdict(ck)}
    if ck["verdict"] in ("not testable", "too few"):
        return out
    out["Holm p"] = claims.format_p(ck["p_holm"], a["alpha"])
    if "chance_random_set" in ck:
        out["leader set: members, chance"] = (f"{ck['family_in_leader_set']} of {ck['leader_set_size']}; "
                                              f"{claims.number(ck['chance_random_set'], digits)}")
    if "without_shared" in ck:
        ws = ck["without_shared"]
        rest = "" if ws["verdict"] in ("not testable", "too few") else \
            f", Holm p {_p(ws['p_holm'], a['alpha'])[2:]}"
        out["without members of two families"] = (f"without {claims.listing(ws['shared'])}: "
                                                  f"{_diff_cell(ws, digits)}{rest}: {_WITHOUT[ws['verdict']]}")
    return out


def _diff_cell(ck: Mapping, digits: int) -> str:
    """``"IA-RBP@10 − D-EBR@10: +0.001 [-0.013, +0.014]"`` (the CI's level and replicates are in the
    column's name), or the difference without an interval, or why there is none."""
    if ck["verdict"] == "not testable":
        return _check_text(ck, digits)
    (x, y), = ck["picks"]
    if ck["verdict"] == "too few":
        return f"{x} − {y}: {ck['diff']:+.{digits}f} (no interval)"
    if ck["low"] == ck["high"] == ck["diff"]:
        return f"{x} − {y}: {ck['diff']:+.{digits}f} in every replicate"
    return f"{x} − {y}: {ck['diff']:+.{digits}f} [{ck['low']:+.{digits}f}, {ck['high']:+.{digits}f}]"


def _design_text(a: Mapping) -> str:
    """How this run's family checks pick and test, and whether they give verdicts: the sentence that
    follows the run (split halves from 4 replicates on, in sample below; verdicts and intervals only
    from the interval rule's number of replicates, :func:`helpers.stats.summary.min_draws`)."""
    n, need, level = a["replicates"], a["min_replicates"], 1 - a["alpha"]
    half = n // 2   # planted.family_check picks on the even rows and tests on the odd ones
    how = (f"Each family check picks its pair on {n - half} replicates and compares it on the other {half}"
           if n >= 4 else f"Each family check picks and compares its pair on the same {n} replicates (too few to split)")
    if a.get("enough", True):
        return f"{how}; intervals are {pct(level)}, verdicts Holm-corrected at α = {a['alpha']:g}."
    # the rule's minimum is not followed by the word "replicates": it is not a replicate count of the run
    return f"{how}; no interval or verdict below (the interval rule's minimum is {need}; this run has {n})."


def _p(p: float, alpha: float) -> str:
    """``"p = 0.058"`` or ``"p < 0.001"``."""
    shown = claims.format_p(p, alpha)
    return f"p {shown}" if shown.startswith("<") else f"p = {shown}"


def _verdict(ck: Mapping) -> str:
    """The verdict word of a family check (Holm-corrected); a recovery that rests only on the
    measures shared with another family (``without_shared`` not recovered) holds in part."""
    word = _VERDICT[ck["verdict"]]
    if word == "shown" and "without_shared" in ck and ck["without_shared"]["verdict"] != "recovered":
        return "holds in part"
    return word


def planted_rows(a: Mapping, run_design: str = "styles", digits: int = 3) -> tuple[list[Finding], dict]:
    """The one row of the planted-truth check (appendix A.1 has the detail) and the caveats it uses:
    what family recovery can and cannot separate, and whether it passes the fitness test."""
    alpha = a["alpha"]
    f = fitness(a)
    verdict = ("cannot tell" if f["too_few"] else "holds" if f["passes"] else
               "holds in part" if f["recovered"] or f["in_part"] else "does not hold")
    caveats = {"aligned": "Each planted user has its family's shape, so the family-recovery row tests the analysis, "
                          "not which measure users prefer."}
    caveats["design"] = DESIGN_CAVEAT[run_design]
    cav = ("design", "aligned")
    if not f["too_few"]:
        caveats["holm"] = f"The family checks are Holm-corrected over {a['holm_family']} checks at α = {alpha:g}."
        cav += ("holm",)
    row = Finding("Does family recovery find each planted user's family, and nothing in a random order (A.1)?",
                  "— (helpers.simulate.users' test)", _fitness_text(f, digits), verdict, caveats=cav,
                  numbers={**f, "checks": {m: {k: ck.get(k) for k in ("diff", "low", "high", "p", "p_holm", "verdict",
                                                                      "picks", "replicates")}
                                           for m, ck in a["checks"].items()}})
    return [row], caveats


def fitness_prose(a: Mapping, digits: int = 3) -> str:
    """The one bullet that says what the planted-user check comes to, naming the analysis it checks."""
    f = fitness(a)
    what = ("*Family recovery* reads which user a run order follows from the measure family that best "
            "recovers it (A.1). ")
    if f["too_few"]:
        return what + f"This run cannot test it: {f['too_few'][0]} replicates, and verdicts need {f['too_few'][1]}."
    if f["passes"]:
        return what + "It passes helpers.simulate.users' test, so it may be used on real data."
    return what + "It fails helpers.simulate.users' test, so it is not fit to read real data."


def against_table(sig_vs_truth: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """A.1 (end) per planted user: the single draw's significant pairs summed over the measures
    (each counted once; :func:`helpers.replicates.diversity.significant_vs_truth`), how many are in
    the user's order and how many against it (significant, but that user orders the two runs the
    other way), the share against, and the measures with the largest share against (ties named,
    :func:`helpers.notebook.claims.leaders`; measures without a significant pair left out)."""
    rows = []
    for model, g in sig_vs_truth.groupby("model", sort=False):
        sig, against = int(g["significant"].sum()), int(g["against it"].sum())
        share = {m: k / n for m, k, n in zip(g["measure"], g["against it"], g["significant"]) if n}
        most = short_leaders(claims.leaders(share, what="share", digits=digits), limit=3, digits=digits) if share else "—"
        rows.append({"user": model, "significant pairs": sig, "in its order": int(g["in planted order"].sum()),
                     "against it": against, "share against": f"{against / sig:.0%}" if sig else "—",
                     "most against it (share)": most})
    return pd.DataFrame(rows, columns=["user", "significant pairs", "in its order", "against it", "share against",
                                       "most against it (share)"])
