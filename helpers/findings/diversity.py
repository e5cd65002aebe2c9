"""Notebook 04's findings: diversified search measures (NTCIR D/D♯, DIN, P+Q, intent-aware; TREC ndeval).

Questions asked of every run: do the worked examples give the hand-derived values of Sakai's
survey (Sec. 2.2, Eq. 8-9); do NTCIR's and TREC's official measures (D♯-nDCG, α-nDCG) rank the runs
differently; do relevance (D-nDCG) and diversity (I-rec) go together across runs, as the NTCIR
INTENT overviews plot them; is D♯-nDCG more discriminative than α-nDCG; does one measure lead
discriminative power beyond Monte Carlo noise. On simulated runs (section 7), with planted user
models: do the users order the runs differently; does each user's aligned family of measures
recover that user's order best; does any measure recover a random order (it should not); and so,
does family recovery (reading which user a run order follows from the measure family that best
recovers it) pass the test :mod:`helpers.simulate.users` sets before it reads real data (every
planted family recovered, nothing found in the null; no verdict from fewer replicates than the
interval rule needs).

Every test is at ``significance`` and every interval a ``1 - significance`` interval, except the
Monte Carlo intervals of discriminative power, which are 95% whatever the level (:data:`MC_LEVEL`:
they measure the B trials' error, not a test). Holm-corrected: the family checks of the planted-truth
check (over every check read) and its null test (over the measures). Not corrected: the rows of the
findings table, each read on its own, and "within Monte Carlo noise" (pairwise overlap of two Monte
Carlo intervals). Measures that are one measure under several names
(:func:`helpers.measures.results.affine_measures`) count once.

The module also holds the notebook's parameter check (:func:`check_parameters`), its list of
measures (:func:`measure_names`) and the lines its cells print (:func:`planted_lines`,
:func:`mc_text`, :func:`tau_text`), so that the notebook only orchestrates and displays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings
from ..stats.summary import min_draws

__all__ = ["MEASURES", "DATA", "USERS", "MC_LEVEL", "DESIGN_CAVEAT", "tau_r_sentence", "measure_names", "check_parameters", "pct", "draws_interval", "count_once", "mc_floor", "mc_text", "mc_interval",
           "tau_text", "short_leaders", "measure_family", "asl_curves", "power_table", "power_lines", "power_metrics", "depth_note", "best_runs_line", "planted_result", "truth_groups", "collection_lines", "family_table", "with_leaders", "planted_lines", "fitness",
           "findings"]

#: The measures of notebook 04 (cutoff measures get ``@l``; NRBP and nNRBP read the whole list).
MEASURES = ("I-rec", "D-nDCG", "D-Q", "D-nERR", "D-RBP", "D-EBR", "D#-nDCG", "D#-Q", "D#-nERR", "D#-RBP",
            "D#-EBR", "DIN-nDCG", "DIN#-nDCG", "P+Q", "P+Q#", "IA-nDCG", "IA-Q", "IA-nERR", "IA-RBP",
            "IA-EBR", "IA-ERR", "alpha-nDCG", "ERR-IA", "P-IA", "strec", "RBU(p=0.85)", "RBU(p=0.99)",
            "iRBU(p=0.99)")
#: Where notebook 04's data come from (the ``data`` parameter).
DATA = ("simulated", "trec-web-2012", "files")
#: The planted users of section 7 in one line each (:mod:`helpers.simulate.users` has the formulas).
USERS = {"position": "reads down the page with persistence p and values every relevant document",
         "graded": "graded relevance with a log rank discount, intents weighted by Pr(i|q)",
         "coverage": "chance that some document satisfies each intent, intents weighted uniformly",
         "first-hit": "satisfied at the first document of level L2 or above",
         "mixture": "a population of position, coverage and first-hit users",
         "null": "a random planted order of the runs, drawn anew in each replicate"}
#: The least number of topic resamples for a bootstrap interval of Kendall's tau (Efron & Tibshirani's
#: advice for percentile intervals), raised to the interval rule's minimum at the run's level.
MIN_TAU_BOOTSTRAP = 1000
#: The level of every Monte Carlo interval of discriminative power (:func:`helpers.replicates.diversity.power_interval`):
#: 95% whatever the tests' ``significance``, since it measures the error of the B trials, not a test.
MC_LEVEL = 0.95


def measure_names(cutoff: int) -> list[str]:
    """Every measure of the notebook at cutoff ``l``, then NRBP and nNRBP (whole list, as ndeval)."""
    return [f"{m}@{int(cutoff)}" for m in MEASURES] + ["NRBP", "nNRBP"]


def check_parameters(p: Mapping[str, Any]) -> None:
    """Refuse a bad parameter of notebook 04 with a message naming it (``p``: the notebook's globals)."""
    from ..notebook import params
    from ..simulate.intents import RUN_DESIGNS

    def whole(name, lo, what=""):
        v = p[name]
        if isinstance(v, bool) or int(v) != v or v < lo:
            raise ValueError(f"{name} must be an integer >= {lo}{what}, got {v!r}")

    whole("replicates", 1)
    if not p["scheduler"]:
        raise ValueError("scheduler must be 'local', 'serial' or a dask scheduler address such as tcp://host:8786")
    if p["data"] not in DATA:
        raise ValueError(f"data must be 'simulated', 'trec-web-2012' or 'files', got {p['data']!r}")
    if p["run_design"] not in RUN_DESIGNS:
        raise ValueError(f"run_design must be one of {RUN_DESIGNS}, got {p['run_design']!r}")
    params.check_file_inputs(p, mode=p["data"] == "files", required=["diversity_qrels_path", "runs_glob"],
                             optional=["intents_path", "intent_types_path"], switch='data: "files"')
    for name, lo in [("cutoff", 1), ("n_topics", 2), ("n_runs", 2), ("depth", 1), ("B", 100)]:
        whole(name, lo)
    whole("extra_cutoff", 0, " (0 for none)")
    if p["data"] == "simulated":   # a cutoff past the lists' end reads the same documents as the depth
        for name in ("cutoff", "extra_cutoff"):
            if p[name] > p["depth"]:
                raise ValueError(f"{name} = {p[name]} exceeds depth = {p['depth']}: the simulated runs retrieve "
                                 f"{p['depth']} documents per topic, so a measure @{p[name]} would read no more "
                                 f"than @{p['depth']}; lower {name} or raise depth")
    if p["normaliser"] not in ("ideal", "fixed"):
        raise ValueError(f"normaliser must be 'ideal' or 'fixed', got {p['normaliser']!r}")
    sig = p["significance"]
    if isinstance(sig, bool) or not isinstance(sig, (int, float)) or not 0 < sig <= 0.2:
        raise ValueError(f"significance must lie in (0, 0.2] (intervals are 1 - significance), got {sig!r}")
    need = max(MIN_TAU_BOOTSTRAP, min_draws(1 - sig))
    whole("tau_bootstrap", need, f" (a {pct(1 - sig)} percentile interval needs {need:,} resamples)")


# -- printed values ----------------------------------------------------------------------------

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


def count_once(names, twins) -> list[str]:
    """``names`` without the second and later names of each group of ``twins`` (one measure under
    several names: :func:`helpers.measures.results.affine_measures`), order kept."""
    later = {x for g in twins for x in list(g)[1:]}
    return [x for x in names if x not in later]


def twins_line(twins) -> str:
    """``"Counted once: strec@10 as I-rec@10; iRBU(p=0.99)@10 as RBU(p=0.99)@10."``, or ``""``."""
    parts = [f"{claims.listing(list(g)[1:])} as {list(g)[0]}" for g in twins]
    return f"Counted once (one measure under two names): {'; '.join(parts)}." if parts else ""


def mc_text(value: float, low: float, high: float, digits: int = 3) -> str:
    """A discriminative power with its Monte Carlo interval, ``"0.457 [0.448, 0.476]"``; when no
    p-value lies near the level the interval has no width and only the value is printed, with
    ``"(no p-value near the level)"`` (no ``[v, v]`` interval)."""
    if float(low) == float(high):
        return f"{claims.number(value, digits)} (no p-value near the level)"
    return f"{claims.number(value, digits)} [{claims.number(low, digits)}, {claims.number(high, digits)}]"


def mc_floor(B: int, significance: float, level: float) -> str:
    """``""``, or the sentence saying that with ``B`` trials no p-value can lie surely below
    ``significance`` at ``level`` (:func:`helpers.replicates.diversity.power_interval`: even a p-value
    from 0 exceedances has an upper bound ``1 - ((1 - level) / 2) ** (1 / B)`` at or above the level),
    so every power's lower bound is 0."""
    top = 1 - ((1 - level) / 2) ** (1 / int(B))
    if top < significance:
        return ""
    return (f"With B = {int(B):,}, no p-value is surely below {significance:g} at {pct(level)}: every power "
            "interval starts at 0.")


def mc_interval(low: float, high: float, digits: int = 3) -> str:
    """The Monte Carlo interval column of a power table: ``"[0.448, 0.476]"``, or ``"none: no p-value
    near the level"`` when it has no width (no ``[v, v]``)."""
    if float(low) == float(high):
        return "none: no p-value near the level"
    return f"[{claims.number(low, digits)}, {claims.number(high, digits)}]"


def tau_text(tau: float, low: float, high: float, digits: int = 3) -> str:
    """Kendall's τ with its bootstrap interval, ``"0.619 [0.448, 0.790]"``, or ``"1.000 in every
    resample"`` when every resample gives the same τ (no ``[v, v]`` interval)."""
    if float(low) == float(high) == float(tau):
        return f"{claims.number(tau, digits)} in every resample"
    return claims.bracket(tau, low, high, digits)


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


def measure_family(measure: str) -> str:
    """The family a measure of notebook 04 belongs to in its ASL figure: ``"I-rec"``, ``"D"``, ``"D♯"``,
    ``"DIN"``, ``"P+Q"``, ``"IA"``, ``"RBU"`` or ``"ndeval"`` (α-nDCG, ERR-IA, P-IA, strec, NRBP, nNRBP)."""
    for pre, f in (("I-rec", "I-rec"), ("D#", "D♯"), ("DIN", "DIN"), ("D-", "D"), ("P+Q", "P+Q"),
                   ("IA-", "IA"), ("RBU", "RBU"), ("iRBU", "RBU")):
        if measure.startswith(pre):
            return f
    return "ndeval"


def asl_curves(asl: Mapping[str, np.ndarray], twins, power: pd.Series, l: int) -> tuple[dict, list[str], dict]:
    """What the ASL figure draws: the curves with each measure under several names once (``twins``),
    the measures the findings name (D♯-nDCG, α-nDCG, D-nDCG, I-rec and the power leaders), drawn
    thick, and the legend labels, cutoff dropped (twins: ``"I-rec = strec"``)."""
    keep = count_once(list(asl), twins)
    top = [m for m in power.index if power[m] == power.max() and m in keep]
    named = [f"D#-nDCG@{l}", f"alpha-nDCG@{l}", f"D-nDCG@{l}", f"I-rec@{l}", *top]
    short = {m: m.replace(f"@{l}", "") for m in keep}
    short.update({list(g)[0]: " = ".join(x.replace(f"@{l}", "") for x in g) for g in twins})
    return {m: asl[m] for m in keep}, [m for m in dict.fromkeys(named) if m in keep], short


def power_table(power: pd.Series, mc: Mapping[str, Sequence[float]]) -> pd.DataFrame:
    """Section 6's table: ``measure, power, Monte Carlo interval`` (:func:`mc_interval`), power order kept."""
    return pd.DataFrame({"measure": power.index, "power": power.to_numpy(),
                         "Monte Carlo interval": [mc_interval(*mc[m]) for m in power.index]})


def power_lines(dp: Mapping, *, significance: float, B: int, r_rest: Mapping | None, l: int) -> tuple[str, list[str]]:
    """What section 6 prints around its table (``dp``: :func:`helpers.replicates.diversity.discriminative_power`
    at :data:`MC_LEVEL`; ``r_rest``: :func:`helpers.replicates.diversity.correlation_without`, the
    correlation at the run's level): the line above the table and the lines below it."""
    head = (f"run pairs: {dp['n_pairs']}; share significant at familywise {significance} (randomised Tukey HSD, "
            f"B = {B}, familywise over the run pairs of each measure):")
    lines = [f"({pct(MC_LEVEL)} Monte Carlo intervals at any significance: the error of the B trials only, "
             "not of the topic sample)"]
    floor = mc_floor(B, significance, MC_LEVEL)
    if floor:
        lines.append(floor)
    cover, lead = dp["cover"], dp["power"].index[0]
    lines.append(f"{lead}: {cover['n_significant']} significant pairs; "
                 + (f"every one involves {', '.join(cover['cover'])}" if cover["cover"] else
                    "no set of up to 3 runs is involved in all of them")
                 + ("; they are exactly these runs against all the others" if cover["exactly_cover_vs_rest"] else ""))
    if r_rest is not None:
        lo, hi = r_rest["ci"]
        lines.append(f"Pearson r of I-rec@{l} and D-nDCG@{l} without {', '.join(r_rest['without'])}: "
                     f"{r_rest['r']:.3f} ({pct(1 - significance)} CI [{lo:.3f}, {hi:.3f}], Fisher z, "
                     f"{r_rest['runs']} runs)")
    return head, lines


def power_metrics(dp: Mapping, r_rest: Mapping | None) -> dict:
    """Section 6's entries of the metrics file."""
    out = {"discriminative_power": dp["power"].to_dict(),
           "discriminative_power_mc_interval": {m: list(v) for m, v in dp["mc"].items()},
           "discriminative_power_interval_covers": f"{pct(MC_LEVEL)}: Monte Carlo error of the B trials only",
           "significant_pair_cover": {"measure": dp["power"].index[0], **dp["cover"]}}
    if r_rest is not None:
        out["irec_dndcg_pearson_without_cover"] = {"r": r_rest["r"], "low": r_rest["ci"][0], "high": r_rest["ci"][1],
                                                   "runs": r_rest["runs"]}
    return out


def depth_note(runs: pd.DataFrame, cutoff: int, name: str) -> str:
    """``""``, or the sentence saying that ``cutoff`` (the parameter ``name``) lies past the runs'
    longest ranked list, so measures at it read no more documents than at that depth."""
    deepest = int(runs.groupby(["run_id", "query_id"]).size().max()) if len(runs) else 0
    if int(cutoff) <= deepest:
        return ""
    return (f"Note: {name} = {int(cutoff)} exceeds the runs' depth ({deepest} documents at most per topic), so "
            f"measures @{int(cutoff)} read the same documents as @{deepest}.")


def best_runs_line(measure: str, means: pd.Series, hsd: pd.DataFrame, significance: float, digits: int = 4) -> tuple[str, list[str]]:
    """The runs with the best mean of ``measure`` and every run the measure's randomised Tukey HSD
    (``hsd``: system_a, system_b, p_value) does not separate from a leader at ``significance``:
    ``("best D#-nDCG@10: R14 (0.5775); not separated from it by Tukey HSD at 0.05: R3, R9", names)``.
    No single leader is named out of a set within noise."""
    top = float(means.max())
    lead = [r for r in means.index if f"{means[r]:.12g}" == f"{top:.12g}"]
    p = hsd.set_index(["system_a", "system_b"])["p_value"]
    def close(r, q):
        return p.get((r, q), p.get((q, r), 0.0)) >= significance
    near = [r for r in means.sort_values(ascending=False, kind="stable").index
            if r not in lead and any(close(r, q) for q in lead)]
    head = f"{claims.listing(lead)} ({top:.{digits}f}{', tied' if len(lead) > 1 else ''})"
    if not near:
        return f"best {measure}: {head}; every other run is separated from it by Tukey HSD at {significance:g}.", lead
    shown = claims.listing(near) if len(near) <= 10 else f"{len(near)} runs"
    return (f"best {measure}: {head}; not separated from it by Tukey HSD at {significance:g}: {shown}.", lead + near)


# -- section 2 ---------------------------------------------------------------------------------

def collection_lines(c: Mapping, data: str) -> tuple[list[str], dict]:
    """What section 2 prints about the collection of :func:`helpers.replicates.diversity.load_collection`,
    and the numbers it writes to the metrics. For TREC runs (``data`` not ``"simulated"``) one line
    says whether the run files' rank column orders the lists as trec_eval's scores would
    (:func:`helpers.measures.ordering.check_rank_order`; the notebook follows the rank column)."""
    from ..measures import ordering

    dqrels, intents, runs, dropped = c["dqrels"], c["intents"], c["runs"], c["dropped"]
    judged = intents[intents["query_id"].isin(dqrels["query_id"])]
    per_topic = judged.groupby("query_id").size()
    rel = dqrels[dqrels["relevance"] > 0]
    levels = ", ".join(f"L{k}: {v}" for k, v in dqrels["relevance"].value_counts().sort_index().items())
    lines = [f"intents without any relevant document, dropped: {len(dropped)} (in {dropped['query_id'].nunique()} topics)",
             f"topics: {dqrels['query_id'].nunique()}, intents: {len(judged)} ({(judged['kind'] == 'nav').sum()} "
             f"navigational), runs: {runs['run_id'].nunique()}",
             f"intentwise judgments: {len(dqrels)}, relevant: {len(rel)}; levels: {levels}",
             f"intents per topic: min {per_topic.min()}, median {per_topic.median():.0f}, max {per_topic.max()}"]
    if data != "simulated":
        check = ordering.check_rank_order(runs)
        if check is not None and check.disagree:
            lines.append(check.note("notebook"))
        elif check is not None:
            lines.append(f"rank column and trec_eval's score order agree in all {check.lists:,} ranked lists.")
    numbers = {"topics": int(dqrels["query_id"].nunique()), "runs": int(runs["run_id"].nunique()),
               "intents_dropped": int(len(dropped)), "intents": int(per_topic.sum()), "relevant_judgments": int(len(rel))}
    return lines, numbers


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


def planted_lines(a: Mapping, digits: int = 3) -> list[str]:
    """The lines section 7 prints from :func:`helpers.replicates.diversity.planted_analysis` (each
    a sentence or two, under 50 words)."""
    from ..simulate import users

    t = next(iter(a["truth"].values()))
    alpha, level, n = a["alpha"], 1 - a["alpha"], a["replicates"]
    lines = [f"{n} replicates; planted truths from {t['topics']:,} pooled topics (leave-one-out per replicate). "
             + _design_text(a)]
    for m, tr in a["truth"].items():
        order = [t["runs"][k] for k in np.argsort(-tr["mean"], kind="stable")]
        lines.append(f"{m}: {' > '.join(order)} ({int(np.triu(tr['resolved'], 1).sum())} of "
                     f"{len(order) * (len(order) - 1) // 2} pairs resolved)")
    pairs = a["pairs"]
    apart = [f"{r.a}/{r.b}" for r in pairs.itertuples() if r.told_apart]
    alike = [f"{r.a}/{r.b} (τ = {claims.number(r.tau, digits)})" for r in pairs.itertuples() if not r.told_apart]
    lines.append(f"Told apart by these runs (τ < {a['threshold']:g}): {claims.listing(apart) if apart else 'no pair'}.")
    if alike:
        lines.append(f"Not claimed separable (τ ≥ {a['threshold']:g}): {claims.listing(alike)}; each is checked "
                     "without the other's family, shared members included.")
    if a.get("twins"):
        lines.append(twins_line(a["twins"]))
    for m in a["models"]:
        if m == "null":
            continue
        if a["leaders"].get(m) is None:
            lines.append(f"--- {m}: no run pair resolved in any replicate, so nothing to recover.")
            continue
        lines.append(f"--- {m}: leader {short_leaders(a['leaders'][m], digits=digits, term='level with it')}.")
        if m in a["checks"]:
            lines += _check_lines(a, m, users.BY_DEFINITION[m][0], digits)
    nl = a["null"]
    if nl is not None and not nl.get("tested", True):
        lines.append(f"--- null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; not tested (too few replicates).")
    elif nl is not None:
        lines.append(f"--- null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; Holm over {nl['family']} distinct "
                     f"measures at α = {alpha:g}: " + (f"{claims.listing(nl['departs'])} depart from one half" if
                                                       nl["departs"] else "none departs from one half")
                     + f" (uncorrected: {nl['uncorrected']} of {nl['measures']} {pct(level)} CIs exclude it).")
    f = fitness(a)
    lines.append(f"In sum: {_fitness_text(f, digits)}; by helpers.simulate.users' test, family recovery "
                 + ("cannot be judged." if f["too_few"] else "passes." if f["passes"] else
                    "is not fit to read real data."))
    return lines


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
    return f"{how}; no interval or verdict below, since the interval rule needs {need} replicates."


def _check_lines(a: Mapping, m: str, kind: str, digits: int) -> list[str]:
    """A family check as printed: the pair tested, the Holm verdict, the chance yardstick, the check
    without the members of two families."""
    ck, alpha = a["checks"][m], a["alpha"]
    fams = "family" if len(ck["not_told_apart"]) == 1 else "families"
    left = f"; left out: the {claims.listing(ck['not_told_apart'])} {fams}" if ck["left_out"] else ""
    out = [f"    family check ({kind}, {ck['family_size']} of {ck['measures']} measures{left}): {_check_text(ck, digits)}."]
    aside = list(ck.get("partial", ())) + list(ck.get("coincide", ()))
    if aside:
        named = claims.listing(aside) if len(aside) <= 4 else claims.plural(len(aside), "measure")
        out.append(f"    Not compared as outside (half a member, or equal to one in every replicate): {named}.")
    if ck["verdict"] in ("not testable", "too few"):
        return out
    out.append(f"    Holm {_p(ck['p_holm'], alpha)} over {a['holm_family']} checks at α = {alpha:g}: {_verdict(ck)}.")
    if "chance_random_set" in ck:
        k = ck["leader_set_size"]
        out.append(f"    Leader set among the {ck['compared']} measures compared: {claims.plural(k, 'measure')}, "
                   f"{ck['family_in_leader_set']} of them in the family; a random set of {k} holds a family member "
                   f"with chance {claims.number(ck['chance_random_set'], digits)}.")
    if "without_shared" in ck:
        ws = ck["without_shared"]
        rest = "" if ws["verdict"] in ("not testable", "too few") else f", Holm {_p(ws['p_holm'], alpha)}"
        out.append(f"    Without {claims.listing(ws['shared'])} (members of two families): {_check_text(ws, digits)}"
                   f"{rest}: {_WITHOUT[ws['verdict']]}.")
    return out


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


def _planted_rows(a: Mapping, run_design: str = "styles", digits: int = 3) -> tuple[list[Finding], dict]:
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


def _fitness_prose(a: Mapping, digits: int = 3) -> str:
    """The one bullet that says what the planted-user check comes to, naming the analysis it checks."""
    f = fitness(a)
    what = ("*Family recovery* reads which user a run order follows from the measure family that best "
            "recovers it (A.1). ")
    if f["too_few"]:
        return what + f"This run cannot test it: {f['too_few'][0]} replicates, and verdicts need {f['too_few'][1]}."
    if f["passes"]:
        return what + "It passes helpers.simulate.users' test, so it may be used on real data."
    return what + "It fails helpers.simulate.users' test, so it is not fit to read real data."


# -- the findings --------------------------------------------------------------------------------

def findings(*, data: str, run_design: str = "styles", toy: Mapping[str, float], tau_ci: Mapping, l: int, r: Mapping,
             power: pd.Series, mc: Mapping[str, Sequence[float]], n_pairs: int, B: int, significance: float,
             twins: Sequence[Sequence[str]], cover: Mapping | None = None, planted: Mapping | None = None,
             footer: str = "") -> Findings:
    """The findings of notebook 04 (module docstring for the questions).

    Parameters
    ----------
    data, run_design : the ``data`` and ``run_design`` parameters.
    toy : the worked examples' values: ``P+Q@3`` and ``IA-Q@3`` with their hand derivations ``P+Q@3 hand``
        and ``IA-Q@3 hand``, ``DIN-nDCG@3``, ``D-nDCG@3``.
    tau_ci : ``(a, b) -> (tau, low, high)`` of the measure pairs of section 4 (bootstrap over topics).
    l : the cutoff.
    r : ``{"r", "low", "high", "runs"}``: the Pearson correlation of I-rec@l and D-nDCG@l over runs, and
        optionally ``"rest"`` (the same without ``"without"``, the runs the tests single out).
    power, mc, n_pairs, B, significance : discriminative power per measure, its Monte Carlo intervals
        (at :data:`MC_LEVEL`), the run pairs, trials and level of the randomised Tukey HSD tests; every
        other interval of the run is a ``1 - significance`` interval.
    twins : groups of measures that are one measure under several names (each counts once).
    cover : :func:`helpers.replicates.diversity.significant_pair_cover` of the leading measure, with ``"measure"``.
    planted : :func:`helpers.replicates.diversity.planted_analysis` (simulated data with replicates), else None.
    """
    level = 1 - significance
    runs = int(tau_ci.get("runs", r["runs"]))
    where = f"these simulated runs (`{run_design}` design)" if data == "simulated" else f"these {runs} runs"
    rows = [_toy_row(toy), _tau_row(tau_ci, l, level), _r_row(r, l, level),
            _power_row(power, mc, l, n_pairs, B, where), _lead_row(power, mc, twins, where)]
    caveats = {"mc_only": "Power intervals cover the B trials only; another topic set could change the power "
                          "verdicts."}
    if data == "simulated":   # rows 2-5 follow from how the runs were simulated: each carries the letter
        caveats["design"] = DESIGN_CAVEAT[run_design]
        rows[1:5] = [dataclasses.replace(row, caveats=("design",) + row.caveats) for row in rows[1:5]]
    floor = mc_floor(B, significance, MC_LEVEL)
    if floor:
        caveats["mc_floor"] = floor
        rows[3:5] = [dataclasses.replace(row, caveats=row.caveats + ("mc_floor",)) for row in rows[3:5]]
    if n_pairs < 50:
        caveats["few_runs"] = (f"{n_pairs} run pairs move shares in steps of {1 / n_pairs:.3f}; a correlation over "
                               "few runs can rest on two of them.")
    general = ()
    if data == "simulated":
        general = ("simulated_runs",)
        caveats["simulated_runs"] = "Simulated runs and planted users say nothing about real systems or users."
    prose = _prose(data, run_design, twins, cover)
    both = tau_r_sentence(tau_ci.get((f"D-nDCG@{l}", f"I-rec@{l}")), r)
    if both:
        prose.insert(0, both)
    if planted is not None:
        more, own = _planted_rows(planted, run_design)
        rows += more
        caveats.update(own)
        prose.insert(0, _fitness_prose(planted))
    elif data == "simulated":
        prose.append("The family-recovery row needs at least 2 replicates.")
    return Findings("04_diversified_measures", rows, prose, caveats=caveats, general=general, footer=footer)


#: The caveat of every row that the simulated run design decides (``run_design`` -> sentence).
DESIGN_CAVEAT = {
    "styles": "The `styles` runs were built so that the planted users order them differently; the rows marked "
              "so answer for this run design, not for the measures in general.",
    "skill": "The `skill` runs differ mainly in skill, which raises every measure at once; the rows marked so "
             "answer for this run design, not for the measures in general."}


def tau_r_sentence(tau: Sequence[float] | None, r: Mapping) -> str:
    """``""``, or the sentence that reconciles section 4's τ(D-nDCG, I-rec) interval with the r row's CI
    when one excludes 0 and the other does not: τ's interval resamples topics with the runs fixed, r's
    treats the runs as a sample of runs. ``tau``: ``(tau, low, high)``; ``r``: as in :func:`findings`."""
    if tau is None or not np.isfinite(r["low"]):
        return ""
    t_excl, r_excl = not (tau[1] <= 0 <= tau[2]), not (r["low"] <= 0 <= r["high"])
    if t_excl == r_excl:
        return ""
    which = ("Section 4's τ(D-nDCG, I-rec) interval excludes 0 and the r row's CI does not" if t_excl else
             "The r row's CI excludes 0 and section 4's τ(D-nDCG, I-rec) interval does not")
    return f"{which}: τ's resamples topics with these runs fixed, r's treats the runs as a sample of runs."


def _few(n_pairs: int) -> tuple[str, ...]:
    return ("few_runs",) if n_pairs < 50 else ()


def _toy_row(toy: Mapping[str, float]) -> Finding:
    pq, iaq, din, d = toy["P+Q@3"], toy["IA-Q@3"], toy["DIN-nDCG@3"], toy["D-nDCG@3"]
    ok = abs(pq - toy["P+Q@3 hand"]) < 1e-12 and abs(iaq - toy["IA-Q@3 hand"]) < 1e-12 and din < d
    return Finding("Do the worked examples give the hand-derived values (Eq. 8–9)?",
                   "DIN drops a repeated nav hit; P+Q scores nav intents by P+",
                   f"P+Q@3 {pq:.4f} (hand: {toy['P+Q@3 hand']:.4f}) vs IA-Q@3 {iaq:.4f} (hand: "
                   f"{toy['IA-Q@3 hand']:.4f}); DIN-nDCG@3 {din:.4f} < D-nDCG@3 {d:.4f}",
                   "agrees" if ok else "differs", numbers=dict(toy))


def _tau_row(tau_ci: Mapping, l: int, level: float) -> Finding:
    key = (f"D#-nDCG@{l}", f"alpha-nDCG@{l}")
    tau, lo, hi = tau_ci[key]
    n = tau_ci.get("runs", 0)
    return Finding("Do D♯-nDCG and α-nDCG (NTCIR's and TREC's official measures) rank these runs differently?",
                   "—", f"τ = {tau_text(tau, lo, hi)} ({n} runs; {pct(level)} bootstrap interval over topics)",
                   "shown" if hi < 1 else "not shown", caveats=_few(n * (n - 1) // 2) if n else (),
                   numbers={"tau": tau, "low": lo, "high": hi, "level": level})


def _r_row(r: Mapping, l: int, level: float) -> Finding:
    excl = not (r["low"] <= 0 <= r["high"]) and np.isfinite(r["low"])
    run = f"r = {claims.bracket(r['r'], r['low'], r['high'])} over {r['runs']} runs ({pct(level)} CI over runs, Fisher z)"
    verdict = "shown" if excl else "not shown" if np.isfinite(r["low"]) else "cannot tell"
    rest = r.get("rest")
    if rest is not None:
        run += f"; without {claims.listing(rest['without'])}: {claims.bracket(rest['r'], rest['low'], rest['high'])}"
        if excl and rest["low"] <= 0 <= rest["high"]:
            verdict = "cannot tell"
    n = r["runs"]
    return Finding(f"Do I-rec@{l} and D-nDCG@{l} correlate across runs?", "trade-off plotted in the INTENT overviews",
                   run, verdict, caveats=_few(n * (n - 1) // 2), numbers={**r, "level": level})


def _power_row(power: pd.Series, mc: Mapping, l: int, n_pairs: int, B: int, where: str) -> Finding:
    a, b = f"D#-nDCG@{l}", f"alpha-nDCG@{l}"
    c = claims.compare("D♯-nDCG", power[a], "α-nDCG", power[b], interval_a=tuple(mc[a]), interval_b=tuple(mc[b]))
    d = c.numbers["differs"]
    verdict = ("shown" if d and power[a] > power[b] else "does not hold" if d else "not shown")
    show = lambda m: (claims.number(power[m]) if mc[m][0] == mc[m][1] else mc_text(power[m], *mc[m]))  # noqa: E731
    exact = "; a value without interval: no p-value near the level" if any(mc[m][0] == mc[m][1] for m in (a, b)) else ""
    return Finding(f"On {where} and this topic set, is D♯-nDCG more discriminative than α-nDCG?", "—",
                   f"{show(a)} vs {show(b)} of {n_pairs} pairs, B = {B:,} ({pct(MC_LEVEL)} Monte Carlo intervals{exact})",
                   verdict, caveats=("mc_only",) + _few(n_pairs), numbers=dict(c.numbers))


def _lead_row(power: pd.Series, mc: Mapping, twins, where: str) -> Finding:
    keep = count_once(list(power.index), twins)
    c = claims.leaders({m: power[m] for m in keep}, intervals={m: tuple(mc[m]) for m in keep})
    n = c.numbers
    lead = claims.listing(n["leaders"]) if len(n["leaders"]) <= 3 else f"{len(n['leaders'])} measures tied"
    run = f"{lead} ({n['best']:.3f}); {claims.plural(len(n['within_noise']), 'more measure')} within Monte Carlo noise"
    alone = len(n["leaders"]) == 1 and not n["within_noise"]
    return Finding(f"On {where} and this topic set, does one measure lead discriminative power beyond Monte Carlo "
                   "noise?", "—", run, "shown" if alone else "not shown", caveats=("mc_only",), numbers=dict(n))


def _prose(data: str, run_design: str, twins, cover) -> list[str]:
    out = []
    if twins:
        out.append(twins_line(twins))
    if cover and cover.get("cover") and cover.get("exactly_cover_vs_rest"):
        what = (" (the spam-unfiltered Category A runs)" if data == "trec-web-2012"
                and all("cata" in x and "filtered" not in x for x in cover["cover"]) else "")
        out.append(f"All {cover['n_significant']} significant pairs of {cover['measure']} set "
                   f"{claims.listing(cover['cover'])}{what} against the other runs.")
    if data != "simulated":
        out.append("Planted truths need simulated runs (the default profile).")
    out.append("No public data set pairs SERP preferences with intent judgments, so no profile here says which "
               "measure agrees with real users.")
    return out
