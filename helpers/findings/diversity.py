"""Notebook 04's findings: diversified search measures (NTCIR D/D♯, DIN, P+Q, intent-aware; TREC ndeval).

Questions asked of every run: do the implemented definitions (Sakai's survey, Sec. 2.2, Eq. 3-4,
6-9) give the values derived by hand for the notebook's own worked examples (the survey prints no
worked examples); do NTCIR's and TREC's official measures (D♯-nDCG, α-nDCG) rank the runs
differently; do relevance (D-nDCG) and diversity (I-rec) go together across runs, as the NTCIR
INTENT overviews plot them; is D♯-nDCG more discriminative than α-nDCG; does one measure lead
discriminative power beyond Monte Carlo noise. On simulated runs (section 7), with planted user
models: do the users order the runs differently; does each user's aligned family of measures
recover that user's order best; does any measure recover a random order (it should not); and so,
does family recovery (reading which user a run order follows from the measure family that best
recovers it) pass the test :mod:`helpers.simulate.users` sets before it reads real data (every
planted family recovered, nothing found in the null; no verdict from fewer replicates than
:func:`helpers.replicates.planted.verdict_replicates` asks: 40, or the interval rule's minimum when larger).

Every test is at ``significance`` and every interval a ``1 - significance`` interval, except the
Monte Carlo intervals of discriminative power, which are 95% whatever the level (:data:`MC_LEVEL`:
they measure the B trials' error, not a test). Holm-corrected: the family checks of the planted-truth
check (over every check read) and its null test (over the measures). Not corrected: the rows of the
findings table, each read on its own, and "within Monte Carlo noise" (a Monte Carlo interval that
overlaps the leaders' common interval, :func:`leader_intervals`). The power rows compare powers on
THESE topics beyond the B trials' Monte Carlo error only (no topic resampling: a topic bootstrap of
randomised Tukey HSD would cost B trials per resample), so their verdicts are "holds", "does not
hold" or "cannot tell" for that question, never "shown", by one rule in every profile
(:func:`power_verdict`): "holds" needs a lead of :data:`MIN_LEAD_PAIRS` run pairs beyond Monte Carlo
error, "does not hold" means no more pairs found (equal powers known exactly included). Measures that are one measure under several names
(:func:`helpers.measures.results.affine_measures`) count once.

The module also holds the notebook's parameter check (:func:`check_parameters`), its list of
measures (:func:`measure_names`) and the lines its cells print (A.1: :mod:`.diversity_planted`,
:func:`mc_text`, :func:`tau_text`), so that the notebook only orchestrates and displays.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import AppendixFindings, Finding, Findings
from ..stats.summary import min_draws
from .diversity_planted import against_table, family_table, fitness, fitness_prose, fitness_verdict, planted_metrics, \
    planted_report, planted_result, \
    planted_rows, truth_groups, user_table, with_leaders, checks_table
from .diversity_examples import EXAMPLES_QUESTION, examples_row, hand_values, measured_values
from .diversity_text import DESIGN_CAVEAT, USERS, draws_interval, label_offsets, pct, short_leaders, twins_line
from .diversity_power import MC_LEVEL, MIN_LEAD_PAIRS, at_cutoff, count_once, leader_intervals, leader_lines, mc_floor, \
    mc_interval, mc_text, near_extreme, leaders_head, pairs_ahead, power_leaders, power_verdict

__all__ = ["MEASURES", "DATA", "USERS", "MC_LEVEL", "DESIGN_CAVEAT", "tau_r_sentence", "measure_names", "check_parameters", "pct", "draws_interval", "count_once", "mc_floor", "power_leaders", "mc_text", "mc_interval",
           "tau_text", "tau_verdict", "short_leaders", "measure_family", "asl_curves", "power_table", "power_lines", "power_metrics", "depth_note", "best_runs_line", "planted_result", "truth_groups", "collection_lines", "family_table", "with_leaders", "planted_report", "user_table", "checks_table", "against_table", "tau_line", "POST_HOC", "planted_rows", "fitness_prose", "fitness", "fitness_verdict", "planted_metrics",
           "findings", "DiversityFindings", "MIN_BOOTSTRAP_TOPICS", "tau_interval_note", "lowest_pairs", "hand_values",
           "measured_values", "examples_row", "EXAMPLES_QUESTION", "APPENDIX_TITLE", "REAL_ANSWERS", "r_reason", "tau_lines",
           "tau_metrics", "R_QUESTION", "leader_intervals", "POWER_ON", "MIN_LEAD_PAIRS", "pairs_ahead", "power_verdict", "lead_verdict", "normaliser_line", "extra_power_line", "gain_line", "TREC_2012_GRADES", "label_offsets"]

#: The measures of notebook 04 (cutoff measures get ``@l``; NRBP and nNRBP read the whole list).
MEASURES = ("I-rec", "D-nDCG", "D-Q", "D-nERR", "D-RBP", "D-EBR", "D#-nDCG", "D#-Q", "D#-nERR", "D#-RBP",
            "D#-EBR", "DIN-nDCG", "DIN#-nDCG", "P+Q", "P+Q#", "IA-nDCG", "IA-Q", "IA-nERR", "IA-RBP",
            "IA-EBR", "IA-ERR", "alpha-nDCG", "ERR-IA", "P-IA", "strec", "RBU(p=0.85)", "RBU(p=0.99)",
            "iRBU(p=0.99)")
#: Where notebook 04's data come from (the ``data`` parameter).
DATA = ("simulated", "trec-web-2012", "files")
#: The least number of topic resamples for a bootstrap interval of Kendall's tau (Efron & Tibshirani's
#: advice for percentile intervals), raised to the interval rule's minimum at the run's level.
MIN_TAU_BOOTSTRAP = 1000
#: The fewest topics over which a percentile bootstrap interval is printed without a warning. With fewer,
#: the resamples take few distinct values and the percentile interval is too narrow (its spread shrinks
#: by about sqrt((n - 1) / n) and its tails are lumpy), so its coverage falls short of the nominal level
#: (Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, Sec. 13.3 and 14.4: intervals from
#: small samples). 10 is the usual rule of thumb; the notebook says so once per interval it prints.
MIN_BOOTSTRAP_TOPICS = 10
#: How a value chosen on the same data it is computed from is labelled: no interval is printed for
#: it (a correlation without the runs the tests single out, the lowest of many τ), since an interval
#: computed after that choice does not have its nominal coverage.
POST_HOC = "post hoc: chosen on these data, so no interval"


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

def tau_text(tau: float, low: float, high: float, digits: int = 3) -> str:
    """Kendall's τ with its bootstrap interval, ``"0.619 [0.448, 0.790]"``, or ``"1.000 in every
    resample"`` when every resample gives the same τ (no ``[v, v]`` interval). τ is the full-data
    estimate, not the resamples' mean: outside its interval (τ near 1, which resampling topics biases
    downward) the text says the bootstrap is biased there (:func:`helpers.notebook.claims.bracket`)."""
    if float(low) == float(high) == float(tau):
        return f"{claims.number(tau, digits)} in every resample"
    return claims.bracket(tau, low, high, digits, estimate=True)


def tau_line(a: str, b: str, t, *, picked_from: int = 0, tied: Sequence[str] = (), digits: int = 3) -> str:
    """Section 4's line for one pair of measures: ``"tau(A, B) = 0.524 [0.333, 0.600] over 15 runs"``
    (``t``: :func:`helpers.stats.tau_topic_bootstrap`). A pair chosen on these data (``picked_from``:
    the number of pairs it was picked from, e.g. the lowest τ) gets no interval: a bootstrap interval
    of a pair picked for its extreme τ ignores that choice (:data:`POST_HOC`). ``tied``: the other
    pairs with the same τ (``"C vs D"``), all named (up to 3) or counted: no pair is picked out of a tie."""
    if picked_from:
        tie = ""
        if len(tied) > 3:
            tie = f", one of {len(tied) + 1} tied pairs"
        elif tied:
            tie = f", tied with {claims.listing(list(tied))}"
        return (f"tau({a}, {b}) = {claims.number(t.tau, digits)} over {t.n} runs, picked for the lowest τ of "
                f"{picked_from:,} pairs{tie} ({POST_HOC})")
    return f"tau({a}, {b}) = {tau_text(t.tau, t.low, t.high, digits)} over {t.n} runs"


def lowest_pairs(tau: pd.DataFrame, names: Sequence[str]) -> tuple[list[tuple[str, str]], int]:
    """:func:`helpers.replicates.diversity_sections.lowest_pairs` (kept importable here)."""
    from ..replicates.diversity_sections import lowest_pairs as lowest

    return lowest(tau, names)


def tau_lines(ts: Mapping, level: float, resamples: int) -> list[str]:
    """What section 4 prints from :func:`helpers.replicates.diversity_sections.tau_section` (``ts``):
    one :func:`tau_line` per pair in drawing order (the lowest-τ pair, when picked on these data,
    without interval and with its ties named), the intervals' note, and, when the lowest pair is a
    fixed one, every pair at the lowest τ (no pair picked out of a tie), marked post hoc."""
    tied = ts["tied"]
    out = [tau_line(a, b, t, picked_from=0 if (a, b) in ts["pairs"] else ts["n_once"],
                    tied=[f"{x} vs {y}" for x, y in tied[1:]]) for a, b, t in ts["boot"]]
    out.append(tau_interval_note(level, resamples, ts["topics"]))
    if not ts["picked"]:
        lowest = claims.leaders(ts["pair_tau"], higher=False, what="tau")
        # post hoc whether or not a fixed pair is among those at the lowest τ: the lowest is chosen on these data
        out.append(f"lowest tau of {ts['n_once']:,} pairs (post hoc: chosen on these data): "
                   f"{short_leaders(lowest, noun='pairs')}")
    return out


def tau_metrics(ts: Mapping, level: float, resamples: int) -> dict:
    """What section 4 writes to the metrics JSON: each fixed pair's τ and bootstrap interval, how the
    intervals were made, and the lowest τ of any pair (post hoc: no interval, :func:`tau_line`)."""
    return {"kendall_tau": {f"{a} | {b}": {"tau": float(v[0]), "low": float(v[1]), "high": float(v[2])}
                            for (a, b), v in ((k, v) for k, v in ts["tau_ci"].items() if isinstance(k, tuple))},
            "kendall_tau_interval": f"{pct(level)} percentile bootstrap over topics, {resamples} resamples",
            "kendall_tau_min": ts["lowest_tau"]}


def tau_interval_note(level: float, resamples: int, topics: int) -> str:
    """The line under section 4's τ lines: the intervals' level, resamples and topics, and, over fewer
    than :data:`MIN_BOOTSTRAP_TOPICS` topics, that their coverage is unreliable."""
    text = f"({pct(level)} bootstrap intervals over topics: {resamples:,} resamples of {topics} topics)"
    if topics < MIN_BOOTSTRAP_TOPICS:
        text += (f" With fewer than {MIN_BOOTSTRAP_TOPICS} topics, a percentile bootstrap interval's coverage is "
                 "unreliable.")
    return text


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
    thick, and the legend labels, cutoff dropped (one name per measure: the first of its twins)."""
    keep = count_once(list(asl), twins)
    top = [m for m in power.index if power[m] == power.max() and m in keep]
    named = [f"D#-nDCG@{l}", f"alpha-nDCG@{l}", f"D-nDCG@{l}", f"I-rec@{l}", *top]
    short = {m: m.replace(f"@{l}", "") for m in keep}
    return {m: asl[m] for m in keep}, [m for m in dict.fromkeys(named) if m in keep], short


def power_table(power: pd.Series, mc: Mapping[str, Sequence[float]], twins=(),
                near: Mapping[str, int] | None = None) -> pd.DataFrame:
    """Section 6's table: ``measure, power, Monte Carlo interval`` (:func:`mc_interval`, with ``near``:
    the p-values within 3 Monte Carlo SEs of the level per measure), power order kept, each measure
    once under its first name (``twins``: section 3 names the others once)."""
    keep = count_once(list(power.index), twins)
    near = near or {}
    return pd.DataFrame({"measure": keep, "power": power[keep].to_numpy(),
                         "Monte Carlo interval": [mc_interval(*mc[m], near=near.get(m)) for m in keep]})


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
        lines.append(f"Pearson r of I-rec@{l} and D-nDCG@{l} without {', '.join(r_rest['without'])}: "
                     f"{r_rest['r']:.3f} over {r_rest['runs']} runs ({POST_HOC}).")
    return head, lines


def power_metrics(dp: Mapping, r_rest: Mapping | None) -> dict:
    """Section 6's entries of the metrics file."""
    out = {"discriminative_power": dp["power"].to_dict(),
           "discriminative_power_mc_interval": {m: list(v) for m, v in dp["mc"].items()},
           "discriminative_power_interval_covers": f"{pct(MC_LEVEL)}: Monte Carlo error of the B trials only",
           "significant_pair_cover": {"measure": dp["power"].index[0], **dp["cover"]}}
    if r_rest is not None:
        out["irec_dndcg_pearson_without_cover"] = {"r": r_rest["r"], "runs": r_rest["runs"], "without": r_rest["without"],
                                                   "post_hoc": POST_HOC}
    return out


def normaliser_line(table: pd.DataFrame, normaliser: str, other: str, n_measures: int, where: str) -> str:
    """Appendix A.3's one printed line (the table itself goes to the CSV at ``where``): how many of the
    ``n_measures`` measures (each counted once) change score under the ``other`` normaliser, the largest
    change in discriminative power (ties named, :func:`helpers.notebook.claims.leaders`) and the range
    of Kendall's τ between each measure's two run rankings. ``table``: the measures that change
    (:func:`helpers.replicates.diversity_sections.normaliser_sensitivity`, one name per measure)."""
    text = f"normaliser {normaliser!r} -> {other!r}: {len(table)} of {n_measures} measures change score"
    if not len(table):
        return text + "."
    shift = (table[f"power ({other})"] - table[f"power ({normaliser})"]).abs()
    largest = claims.leaders(dict(zip(table["measure"], shift)), what="change")
    tau = table["tau between the two rankings"].dropna()
    span = (f"; τ between the two rankings {tau.min():.3f} to {tau.max():.3f}" if len(tau) and tau.min() < tau.max()
            else f"; τ between the two rankings {tau.iloc[0]:.3f} for every one" if len(tau) else "")
    if not (shift > 0).any():
        return f"{text}; no measure's power changed{span}. Per measure: {where}."
    return (f"{text}{_changes_beyond(table, normaliser, other)}. Largest change in discriminative power: "
            f"{short_leaders(largest, limit=3)}{_beyond_mc(table, largest.numbers['leaders'])}{span}. Per measure: {where}.")


def _changes_beyond(table: pd.DataFrame, normaliser: str, other: str, limit: int = 3) -> str:
    """``""`` without Monte Carlo columns, else every change in power beyond Monte Carlo error (the rule
    of :func:`_beyond_mc`), each as ``"IA-RBP@10 0.393 -> 0.286"``, or ``"none"``; more than ``limit``
    are counted, not named."""
    if "beyond MC error" not in table.columns:
        return ""
    hit = table[table["beyond MC error"].astype(bool)]
    if not len(hit):
        return ". Power changes beyond Monte Carlo error: none"
    if len(hit) > limit:
        return f". Power changes beyond Monte Carlo error: {len(hit)} measures"
    items = [f"{m} {a:.3f} -> {b:.3f}" for m, a, b in
             zip(hit["measure"], hit[f"power ({normaliser})"], hit[f"power ({other})"])]
    return f". Power changes beyond Monte Carlo error: {claims.listing(items)}"


def _beyond_mc(table: pd.DataFrame, named: Sequence[str]) -> str:
    """``""`` without Monte Carlo columns, else whether the largest changes (``named``) exceed Monte
    Carlo error: their two 95% Monte Carlo intervals, from independent sets of B trials, lie at least
    :data:`MIN_LEAD_PAIRS` run pairs apart, the rule of :func:`power_verdict`
    (:func:`helpers.replicates.diversity_sections.normaliser_sensitivity`)."""
    if "beyond MC error" not in table.columns:
        return ""
    beyond = table.set_index("measure").loc[list(named), "beyond MC error"].astype(bool)
    apart = f"{pct(MC_LEVEL)} Monte Carlo intervals {MIN_LEAD_PAIRS} or more run pairs apart"
    if beyond.all():
        return f", beyond Monte Carlo error (the two {apart})"
    if not beyond.any():
        return (f", not beyond Monte Carlo error (the two {pct(MC_LEVEL)} Monte Carlo intervals overlap or lie "
                "at most one pair apart)")
    return f", beyond Monte Carlo error for {claims.listing(list(beyond.index[beyond]))} only (their two {apart})"


def extra_power_line(power2: pd.DataFrame, mc2: Mapping[str, Sequence[float]], l: int, l2: int,
                     keep: Sequence[str], where: str, n_pairs: int) -> str:
    """Appendix A.4's one printed line (the table goes to the CSV at ``where``, with the Monte Carlo
    intervals and the power at the first cutoff ``l``): the highest and the lowest discriminative power
    at the second cutoff ``l2`` among the
    measures ``keep`` (each counted once), with the measures within Monte Carlo noise of each
    (:func:`leader_intervals`, as section 7 reads power at the first cutoff, over ``n_pairs`` run pairs)."""
    values = {m: float(v) for m, v in zip(power2["measure"], power2[f"power@{l2}"]) if m in keep and np.isfinite(v)}
    if not values:
        return f"power@{l2}: no measure has a value. Per measure: {where}."
    top = power_leaders(values, mc2, n_pairs, limit=3)
    low = power_leaders(values, mc2, n_pairs, higher=False, limit=3)
    return (f"power@{l2} over {len(values)} measures ({pct(MC_LEVEL)} Monte Carlo intervals, the B trials' error "
            f"only). Highest: {top}. Lowest: {low}. "
            f"Per measure, with power@{l} and the intervals: {where}.")


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


#: TREC Web 2012's names of its relevance grades (the track overview; -2 "junk" is read as 0, as ndeval does).
TREC_2012_GRADES = {1: "Rel", 2: "HRel", 3: "Key", 4: "Nav"}


def gain_line(dqrels: pd.DataFrame, data: str) -> str:
    """The level -> gain mapping every measure of the run uses (2^x - 1, Zeng & Sakai; gdeval's gain at
    TREC Web 2012), for the levels the qrels hold: ``"gains (2^x - 1): L1 1, L2 3, L3 7"``. On TREC Web
    2012 the grades are named, and the line says that level 4 ("Nav", a page that is the entity's home
    page) gets the top gain, as gdeval gives it, and is not otherwise special: DIN's navigational rule
    (Eq. 8) reads the intents typed nav in the topics file, not this document level."""
    levels = sorted(int(x) for x in dqrels["relevance"].unique() if int(x) > 0)
    named = TREC_2012_GRADES if data == "trec-web-2012" else {}
    pairs = ", ".join(f"L{x}{' ' + named[x] if x in named else ''} {2 ** x - 1}" for x in levels)
    text = f"gains (2^x - 1, every measure): {pairs or 'no relevant level'}"
    if data == "trec-web-2012" and 4 in levels:
        n = int((dqrels["relevance"] == 4).sum())
        text += (f". L4 Nav ({n:,} judgments) gets the top gain, as gdeval's 2^rel - 1 gives it; no other rule reads"
                 " it: DIN's navigational rule reads the nav intents of the topics file")
    return text + "."


# -- the findings --------------------------------------------------------------------------------

#: Where notebook 04's answers about the measures on real data are: the first bullet under the main
#: table of every run on simulated data (which cannot give them).
REAL_ANSWERS = ("Findings about the measures (τ, r, discriminative power) come from real runs: profile `real` (TREC "
                "Web 2012, `reports/real/tables/04_findings.csv`) or your own files (`data: files`).")

#: The caption of notebook 04's appendix table (:meth:`DiversityFindings.appendix_findings`).
APPENDIX_TITLE = ("Appendix of notebook 04: results on simulated runs, set by the simulation's run design; not "
                  "findings about the measures.")


@dataclass(frozen=True)
class DiversityFindings(Findings):
    """The findings of notebook 04 with an ``appendix``: on simulated runs the rows about the measures
    (their answer is set by the run design), shown after the conclusion by :meth:`show_appendix`, never
    in its table. The conclusion's table answers what simulated data can: the worked examples and the
    family-recovery machinery check (its recoveries labelled by construction)."""

    appendix: tuple = ()
    appendix_prose: tuple = ()
    appendix_general: tuple = ()
    answer: str = ""

    def appendix_findings(self) -> AppendixFindings:
        """The appendix rows as a table of their own, with the caveats they point to."""
        return AppendixFindings(self.notebook, self.appendix, self.appendix_prose, caveats=self.caveats,
                                general=self.appendix_general, title=APPENDIX_TITLE)

    def show_appendix(self, out=None) -> None:
        """Display the appendix (saved as ``04_findings_appendix.{csv,tex}`` with ``out``)."""
        self.appendix_findings().show_or_say(out, empty="Findings appendix: none (no simulated runs in this run).")

    def as_dict(self) -> dict:
        d = super().as_dict()
        if self.appendix:
            d["appendix"] = self.appendix_findings().as_dict()
        if self.answer:
            d["answer"] = self.answer
        return d


def findings(*, data: str, run_design: str = "styles", examples: Mapping[str, Mapping[str, float]], tau_ci: Mapping,
             l: int, r: Mapping, power: pd.Series, mc: Mapping[str, Sequence[float]], n_pairs: int, B: int,
             significance: float, twins: Sequence[Sequence[str]] = (), cover: Mapping | None = None,
             planted: Mapping | None = None, footer: str = "") -> DiversityFindings:
    """The findings of notebook 04 (module docstring for the questions).

    Parameters
    ----------
    data, run_design : the ``data`` and ``run_design`` parameters.
    examples : ``{"measured": ..., "hand": ...}``: the worked examples' values
        (:func:`measured_values`, :func:`hand_values`).
    tau_ci : ``(a, b) -> (tau, low, high)`` of the measure pairs of section 4 (bootstrap over topics),
        ``"runs"`` and ``"topics"`` (the topics resampled).
    l : the cutoff.
    r : ``{"r", "low", "high", "runs"}``: the Pearson correlation of I-rec@l and D-nDCG@l over runs, and
        optionally ``"rest"`` (the same without ``"without"``, the runs the tests single out).
    power, mc, n_pairs, B, significance : discriminative power per measure, its Monte Carlo intervals
        (at :data:`MC_LEVEL`), the run pairs, trials and level of the randomised Tukey HSD tests; every
        other interval of the run is a ``1 - significance`` interval.
    twins : groups of measures that are one measure under several names (each counts once).
    cover : :func:`helpers.replicates.diversity.significant_pair_cover` of the leading measure, with ``"measure"``.
    planted : :func:`helpers.replicates.diversity.planted_analysis` (simulated data with replicates), else None.

    On simulated runs every row about the measures goes to the appendix, marked as set by ``run_design``
    (a notebook's findings about measures come from real runs: the first bullet says where), and the
    main table answers the default question: the worked examples and the family-recovery machinery row.
    """
    level, simulated = 1 - significance, data == "simulated"
    runs = int(tau_ci.get("runs", r["runs"]))
    where = "these simulated runs" if simulated else f"these {runs} runs"
    measured = [_tau_row(tau_ci, l, level), _r_row(r, l, level), _power_row(power, mc, n_pairs),
                _lead_row(power, mc, twins, where, n_pairs)]
    caveats = {"mc_only": f"Power intervals are {pct(MC_LEVEL)} Monte Carlo intervals of the B = {B:,} trials only; "
                          "another topic set could change the power verdicts."}
    # stated once, without a letter: every measured row (and section 7's ranking) is uncorrected
    caveats["multiple"] = (f"Power is compared across {len(count_once(list(power.index), twins))} measures and each "
                           "row is tested on its own: "
                           "nothing is corrected for multiple comparisons.")
    if any(mc[m][0] == mc[m][1] for m in (f"D#-nDCG@{l}", f"alpha-nDCG@{l}")):
        caveats["mc_exact"] = "A power printed without interval has no p-value whose Monte Carlo interval holds the level."
    floor = mc_floor(B, significance, MC_LEVEL)
    if floor:
        caveats["mc_floor"] = floor
        measured[2:4] = [dataclasses.replace(row, caveats=row.caveats + ("mc_floor",)) for row in measured[2:4]]
    if n_pairs < 50:
        caveats["few_runs"] = (f"{n_pairs} run pairs move shares in steps of {1 / n_pairs:.3f}; a correlation over "
                               "few runs can rest on two of them.")
    topics = tau_ci.get("topics")
    if topics is not None and topics < MIN_BOOTSTRAP_TOPICS:
        caveats["few_topics"] = (f"Over {topics} topics (fewer than {MIN_BOOTSTRAP_TOPICS}) a percentile bootstrap "
                                 "interval's coverage is unreliable.")
        measured[0] = dataclasses.replace(measured[0], caveats=measured[0].caveats + ("few_topics",))
    rows, prose = [examples_row(examples["measured"], examples["hand"])], []
    appendix, extra, general = [], [], ("multiple",)
    if simulated:   # the run design sets the rows about the measures: the appendix, each row marked so
        caveats["design"] = DESIGN_CAVEAT[run_design]
        caveats["simulated_runs"] = "Simulated runs and planted users say nothing about real systems or users."
        general = ("simulated_runs", "multiple")
        appendix = [dataclasses.replace(row, caveats=("design",) + row.caveats,
                                        paper=f"{'' if row.paper == '—' else row.paper + '; '}set by run_design "
                                              f"`{run_design}`") for row in measured]
        prose.append(REAL_ANSWERS + f" Here run_design `{run_design}` sets those rows and the simulated users set the "
                     "family-recovery check (appendix table).")
        if planted is not None:   # recovery of users built with their family's shape: set by the simulation
            more, own = planted_rows(planted, run_design)
            appendix += more
            caveats.update(own)
            extra.append(fitness_prose(planted))
        else:
            extra.append("The family-recovery row needs at least 2 replicates.")
    else:   # real runs: the rows about the measures first, the worked examples last
        rows = measured + rows
    both = tau_r_sentence(tau_ci.get((f"D-nDCG@{l}", f"I-rec@{l}")), r)
    (extra if simulated else prose).extend(x for x in [both, _cover_line(data, cover, r)] if x)
    if not simulated:
        prose.append("Planted truths need simulated runs (the default profile).")
    prose.append("No public data set pairs SERP preferences with intent judgments, so no profile here says which "
                 "measure agrees with real users.")
    answer = answer_sentence(rows[0] if simulated else measured, runs=runs, n_pairs=n_pairs)
    rows, appendix = _sorted_letters(rows), _sorted_letters(appendix)
    main_general = () if simulated else general   # simulated: the measured rows (and the caveat) are in the appendix
    return DiversityFindings("04_diversified_measures", rows, prose, caveats=caveats, footer=footer, general=main_general,
                             appendix=tuple(appendix), appendix_prose=tuple(extra), appendix_general=general if simulated else (),
                             answer=answer)


def answer_sentence(rows, *, runs: int, n_pairs: int) -> str:
    """The answer printed above the findings table, from the rows' verdicts. ``rows``: on simulated runs
    the worked examples' row (what the default answers); on real runs the rows about the measures
    (:func:`findings`: τ, r, the D♯-nDCG/α-nDCG power, the lead), read for what the run shows:
    ``"8 runs give 28 pairs: no measure leads and no ranking difference is shown."``."""
    if isinstance(rows, Finding):
        ok = rows.verdict == "agrees"
        return (("The definitions give the hand-derived values of the worked examples" if ok else
                 "The definitions do not give every hand-derived value of the worked examples")
                + f" ({rows.run}); how the measures rank runs needs real runs (profile `real`).")
    tau, _, power, lead = rows
    parts = []
    if lead.verdict == "holds":
        parts.append(f"{claims.listing(lead.numbers['leaders'])} leads discriminative power")
    else:
        parts.append("no measure leads" if lead.verdict == "does not hold" else "no measure is shown to lead")
    if power.verdict == "holds":
        parts.append("D♯-nDCG out-discriminates α-nDCG")
    parts.append("D♯-nDCG and α-nDCG rank the runs differently" if tau.verdict == "shown" else
                 "no ranking difference is shown")
    head = claims.plural(runs, "run") + f" give {claims.plural(n_pairs, 'pair')}"
    body = ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{head}: {body}."


def _sorted_letters(rows: list[Finding]) -> list[Finding]:
    """Each row's caveats in the order the table first uses them (its letters read alphabetically)."""
    first = list(dict.fromkeys(k for row in rows for k in row.caveats))
    return [dataclasses.replace(row, caveats=tuple(sorted(row.caveats, key=first.index))) for row in rows]


def tau_r_sentence(tau: Sequence[float] | None, r: Mapping) -> str:
    """``""``, or the sentence that reconciles section 4's τ(D-nDCG, I-rec) interval with the r row's CI
    when one excludes 0 and the other does not: τ's resamples topics with the runs fixed, r's
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


def tau_verdict(tau: float, low: float, high: float) -> str:
    """The verdict on "do the two measures rank these runs differently?": ``"shown"`` when the
    bootstrap interval stays below 1, ``"not shown"`` when it reaches 1, and ``"cannot tell"`` when τ
    lies outside its own percentile interval: the bootstrap is biased there (resampling topics pulls
    τ near 1 down), so an interval below 1 shows nothing about τ."""
    if claims.outside(tau, low, high):
        return "cannot tell"
    return "shown" if high < 1 else "not shown"


def _tau_row(tau_ci: Mapping, l: int, level: float) -> Finding:
    key = (f"D#-nDCG@{l}", f"alpha-nDCG@{l}")
    tau, lo, hi = tau_ci[key]
    n = tau_ci.get("runs", 0)
    return Finding("Do NTCIR's D♯-nDCG and TREC's α-nDCG rank these runs differently?",
                   "—", f"τ = {tau_text(tau, lo, hi)}, {n} runs ({pct(level)} bootstrap over topics)",
                   tau_verdict(tau, lo, hi), caveats=_few(n * (n - 1) // 2) if n else (),
                   numbers={"tau": tau, "low": lo, "high": hi, "level": level, "topics": tau_ci.get("topics")})


#: The r row's question, worded as what its verdict answers: an r whose CI excludes 0 but which rests on a
#: group of runs every significant pair sets against the rest (:func:`r_reason`) gets "cannot tell".
#: "Outlying": the runs every significant pair of the leading measure sets against the rest (a bullet names them).
R_QUESTION = "Do I-rec@{l} and D-nDCG@{l} correlate beyond outlying runs?"


def _r_row(r: Mapping, l: int, level: float) -> Finding:
    """The r row. Whenever its verdict is not the one its CI gives, the row says why in its own cell
    (:func:`r_reason`): a post-hoc r without the runs the tests single out makes a CI that excludes
    0 a "cannot tell" (r may be the gap between two groups of runs), and so does an undefined r."""
    excl = not (r["low"] <= 0 <= r["high"]) and np.isfinite(r["low"])
    run = f"r = {claims.bracket(r['r'], r['low'], r['high'])}, {r['runs']} runs ({pct(level)} CI, Fisher z)"
    verdict = "shown" if excl else "not shown" if np.isfinite(r["low"]) else "cannot tell"
    if r.get("rest") is not None and excl:   # r may be the gap between two groups of runs
        verdict = "cannot tell"
    why = r_reason(r, verdict, excl)
    if why and not np.isfinite(r["low"]):   # no CI to print
        run = (f"r = {claims.number(r['r'])}" if np.isfinite(r["r"]) else "r undefined") + f", {r['runs']} runs"
    elif why:   # the row stays within 30 words
        run = f"r = {claims.bracket(r['r'], r['low'], r['high'])} ({pct(level)} CI, {r['runs']} runs)"
    if why:
        run += f"; {why}"
    n = r["runs"]
    return Finding(R_QUESTION.format(l=l), "trade-off plotted in INTENT overviews",
                   run, verdict, caveats=_few(n * (n - 1) // 2), numbers={**r, "level": level})


def r_reason(r: Mapping, verdict: str, excl: bool) -> str:
    """``""``, or why the r row's verdict is not the one its CI gives, short enough for its cell:
    ``"0.008 without 2 runs (post hoc)"`` (the CI excludes 0, but r rests on the runs every
    significant pair sets against the rest: without them it is another value), or ``"no CI: a
    measure is constant over runs, or 3 runs or fewer"``."""
    if verdict == "cannot tell" and excl and r.get("rest") is not None:
        rest = r["rest"]
        return f"{claims.number(rest['r'])} without {claims.plural(len(rest['without']), 'run')} (post hoc)"
    if verdict == "cannot tell" and not np.isfinite(r["low"]):
        return "no CI: a measure is constant over runs, or 3 runs or fewer"
    return ""


#: What the power rows compare: the power on this run's topics, beyond the B trials' Monte Carlo error
#: only (another topic set could change it: the ``mc_only`` caveat).
POWER_ON = "on these topics, beyond Monte Carlo error"


def _one_pair(ahead: int) -> str:
    """The run cell's note when a power leads by one pair only (:data:`MIN_LEAD_PAIRS`)."""
    return f"; {claims.plural(ahead, 'pair')} ahead (holds needs {MIN_LEAD_PAIRS})" if 0 < ahead < MIN_LEAD_PAIRS else ""


def _power_row(power: pd.Series, mc: Mapping, n_pairs: int) -> Finding:
    """D♯-nDCG against α-nDCG by :func:`power_verdict` (about these topics only): "holds" needs
    D♯-nDCG ahead by :data:`MIN_LEAD_PAIRS` pairs beyond Monte Carlo error, "does not hold" when it
    finds no more pairs than α-nDCG (whatever the profile), else "cannot tell"."""
    a, b = (next(m for m in power.index if m.startswith(x)) for x in ("D#-nDCG@", "alpha-nDCG@"))
    c = claims.compare("D♯-nDCG", power[a], "α-nDCG", power[b], interval_a=tuple(mc[a]), interval_b=tuple(mc[b]))
    ahead = pairs_ahead(mc[a], mc[b], n_pairs)
    verdict = power_verdict(mc[a], mc[b], n_pairs)
    show = lambda m: (claims.number(power[m]) if mc[m][0] == mc[m][1] else mc_text(power[m], *mc[m]))  # noqa: E731
    exact = ("mc_exact",) if any(mc[m][0] == mc[m][1] for m in (a, b)) else ()
    pairs = f" of {n_pairs} pairs" if n_pairs >= 50 else ""   # fewer: the few_runs caveat states them
    return Finding(f"Does D♯-nDCG out-discriminate α-nDCG {POWER_ON}?", "—",
                   f"{show(a)} vs {show(b)}{pairs}{_one_pair(ahead)}", verdict,
                   caveats=("mc_only",) + exact + _few(n_pairs),
                   numbers={**c.numbers, "pairs_ahead": ahead, "min_lead_pairs": MIN_LEAD_PAIRS})


def lead_verdict(mc: Mapping[str, Sequence[float]], keep: Sequence[str], n_pairs: int) -> str:
    """Whether one measure of ``keep`` leads discriminative power, by the pairwise rule of
    :func:`power_verdict` and no other: ``"holds"`` when one measure out-discriminates every other
    (a lead of :data:`MIN_LEAD_PAIRS` pairs beyond Monte Carlo error, or it is the only measure);
    ``"does not hold"`` when every measure finds no more pairs than some other (an exact tie AT the top:
    another measure's power equals or exceeds the leader's); else ``"cannot tell"`` (a one-pair gap,
    overlapping intervals). A tie below the leader says nothing about the lead."""
    pv = lambda a, b: power_verdict(mc[a], mc[b], n_pairs)  # noqa: E731
    if len(keep) == 1 or any(all(pv(m, o) == "holds" for o in keep if o != m) for m in keep):
        return "holds"
    if all(any(pv(m, o) == "does not hold" for o in keep if o != m) for m in keep):
        return "does not hold"
    return "cannot tell"


def _lead_row(power: pd.Series, mc: Mapping, twins, where: str, n_pairs: int) -> Finding:
    """Does one measure lead (each counted once, the measures with a cutoff): :func:`lead_verdict`, the
    rule of :func:`power_verdict`. The run cell names the leaders (:func:`leader_intervals`) with the
    pairs by which a single leader is ahead of the next, the measures tied exactly at the top, or the
    count within Monte Carlo noise."""
    keep = at_cutoff(count_once(list(power.index), twins))
    values = {m: power[m] for m in keep}
    c, _, near = near_extreme(values, mc, n_pairs)   # the set section 7 counts (power_leaders)
    n = c.numbers
    lead = claims.listing(n["leaders"]) if len(n["leaders"]) <= 3 else f"{len(n['leaders'])} measures tied"
    run = f"{leaders_head(c)}; {len(near)} more within noise or 1 pair below"
    verdict = lead_verdict(mc, keep, n_pairs)
    ahead = 0
    if len(n["leaders"]) == 1 and not n["within_noise"] and len(keep) > 1:   # a lead: by how many pairs
        top = n["leaders"][0]
        ahead = min(pairs_ahead(mc[top], mc[m], n_pairs) for m in keep if m != top)
        run = f"{lead} ({n['best']:.3f}), {claims.plural(ahead, 'pair')} ahead" + (
            f" (holds needs {MIN_LEAD_PAIRS})" if ahead < MIN_LEAD_PAIRS else "")
    elif verdict == "does not hold":   # the measures within noise do not change the verdict: not counted
        high = max(float(mc[m][1]) for m in keep)
        tied = [m for m in keep if float(mc[m][0]) == float(mc[m][1]) == high]
        run = (f"{lead} ({high:.3f}), tied exactly at the top" if len(tied) == len(n["leaders"]) else
               f"{lead} ({n['best']:.3f}); {claims.listing(tied) if len(tied) <= 3 else f'{len(tied)} of them'} "
               "tied exactly at the top")   # tied: the leaders known exactly
    # no interval in this row, so no pointer to the intervals' caveat: the question states the scope
    cut = keep[0].rsplit("@", 1)[1] if "@" in keep[0] else ""
    return Finding(f"Does one measure{'@' + cut if cut else ''} lead discriminative power {POWER_ON}?", "—", run, verdict,
                   caveats=_few(n_pairs), numbers={**n, "runs": where, "pairs_ahead": ahead})


def _cover_line(data: str, cover: Mapping | None, r: Mapping) -> str:
    """``""``, or the bullet naming the runs every significant pair of the leading measure sets against
    the rest, with the post-hoc r of I-rec and D-nDCG without them (no interval)."""
    if not (cover and cover.get("cover") and cover.get("exactly_cover_vs_rest")):
        return ""
    what = (" (the spam-unfiltered Category A runs)" if data == "trec-web-2012"
            and all("cata" in x and "filtered" not in x for x in cover["cover"]) else "")
    text = (f"All {cover['n_significant']} significant pairs of {cover['measure']} set "
            f"{claims.listing(cover['cover'])}{what} against the other runs")
    rest = r.get("rest")
    excl = np.isfinite(r["low"]) and not (r["low"] <= 0 <= r["high"])
    if rest is not None and not excl:   # else the r row says it (r_reason): said once
        text += f"; without them the r row's r is {claims.number(rest['r'])} (post hoc, so no interval)"
    return text + "."
