"""Notebook 04's findings: diversified search measures (NTCIR D/D♯, DIN, P+Q, intent-aware; TREC ndeval).

Questions asked of every run: do the worked examples give the hand-derived values of Sakai's
survey (Sec. 2.2, Eq. 8-9); do NTCIR's and TREC's official measures (D♯-nDCG, α-nDCG) rank the runs
differently; do relevance (D-nDCG) and diversity (I-rec) go together across runs, as the NTCIR
INTENT overviews plot them; is D♯-nDCG more discriminative than α-nDCG; does one measure lead
discriminative power beyond Monte Carlo noise. On simulated runs (section 7), with planted user
models: do the users order the runs differently; does each user's aligned family of measures
recover that user's order best; does any measure recover a random order (it should not).

The module also holds the notebook's parameter check (:func:`check_parameters`), its list of
measures (:func:`measure_names`) and the lines its cells print (:func:`planted_lines`,
:func:`mc_text`, :func:`tau_text`), so that the notebook only orchestrates and displays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["MEASURES", "DATA", "measure_names", "check_parameters", "mc_text", "mc_interval", "tau_text", "short_leaders", "collection_lines",
           "with_leaders", "planted_lines", "findings"]

#: The measures of notebook 04 (cutoff measures get ``@l``; NRBP and nNRBP read the whole list).
MEASURES = ("I-rec", "D-nDCG", "D-Q", "D-nERR", "D-RBP", "D-EBR", "D#-nDCG", "D#-Q", "D#-nERR", "D#-RBP",
            "D#-EBR", "DIN-nDCG", "DIN#-nDCG", "P+Q", "P+Q#", "IA-nDCG", "IA-Q", "IA-nERR", "IA-RBP",
            "IA-EBR", "IA-ERR", "alpha-nDCG", "ERR-IA", "P-IA", "strec", "RBU(p=0.85)", "RBU(p=0.99)",
            "iRBU(p=0.99)")
#: Where notebook 04's data come from (the ``data`` parameter).
DATA = ("simulated", "trec-web-2012", "files")


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
    for name, lo in [("cutoff", 1), ("n_topics", 2), ("n_runs", 2), ("depth", 1), ("B", 100), ("tau_bootstrap", 100)]:
        whole(name, lo)
    whole("extra_cutoff", 0, " (0 for none)")
    if p["normaliser"] not in ("ideal", "fixed"):
        raise ValueError(f"normaliser must be 'ideal' or 'fixed', got {p['normaliser']!r}")
    if not 0 < p["significance"] < 1:
        raise ValueError(f"significance must lie in (0, 1), got {p['significance']}")


# -- printed values ----------------------------------------------------------------------------

def mc_text(value: float, low: float, high: float, digits: int = 3) -> str:
    """A discriminative power with its Monte Carlo interval, ``"0.457 [0.448, 0.476]"``; when no
    p-value lies near the level the interval has no width and only the value is printed, with
    ``"(no p-value near the level)"`` (no ``[v, v]`` interval)."""
    if float(low) == float(high):
        return f"{claims.number(value, digits)} (no p-value near the level)"
    return f"{claims.number(value, digits)} [{claims.number(low, digits)}, {claims.number(high, digits)}]"


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


def short_leaders(c: claims.Claim, limit: int = 6, digits: int = 3, noun: str = "measures") -> str:
    """A :func:`helpers.notebook.claims.leaders` claim as printed, short enough for one sentence: more
    than ``limit`` tied leaders are counted (``"14 measures tied at 0.429"``), and so are more than
    ``limit`` values within noise (``"7 more within noise"``); no leader is picked out of a tie."""
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

_VERDICT = {"recovered": "shown", "outside ahead": "does not hold", "not shown": "not shown",
            "not testable": "cannot tell"}
#: How the check without the measures of two families is worded (uncorrected, beside the verdict).
_WITHOUT = {"recovered": "the family still leads", "outside ahead": "the best measure outside leads",
            "not shown": "no lead shown", "not testable": "nothing left to compare"}


def _check_text(ck: Mapping, digits: int = 3) -> str:
    """``"IA-RBP@10 − P+Q@10 −0.008 [−0.015, −0.002]"``: the pair tested and its mean difference."""
    if ck["verdict"] == "not testable":
        return ("no run pair resolved in any replicate" if not ck.get("measures") else
                "no measure in the family, or none outside it")
    (a, b), = ck["picks"]
    if ck["low"] == ck["high"] == ck["diff"]:   # the same difference in every replicate: no interval to print
        return f"{a} − {b}: {ck['diff']:+.{digits}f} in each of the {ck['replicates']} replicates"
    return f"{a} − {b}: {claims.mean_ci(ck['diff'], ck['low'], ck['high'], ck['replicates'], digits=digits).text}"


def with_leaders(a: dict, digits: int = 3) -> dict:
    """:func:`helpers.replicates.diversity.planted_analysis` with each model's leaders named
    (:func:`helpers.notebook.claims.leaders`; within noise: the CI of the mean paired difference to a
    tied leader includes 0, :func:`helpers.replicates.studies.paired_leader_intervals`) and, in each
    family check, the weak check it replaces: how likely a random set of the leader set's size is to
    hold a family member (:func:`helpers.replicates.planted.chance_of_a_member`; measures left out of
    the check are left out of both). Returns ``a``, filled in."""
    from ..replicates import planted, studies
    from ..simulate import users

    summary = a["summary"]
    for m in a["models"]:
        means_m = summary[summary.model == m].set_index("measure")["mean"].to_dict()
        ck = a["checks"].get(m)
        if not any(np.isfinite(v) for v in means_m.values()):   # no run pair resolved in any replicate
            a["leaders"][m] = None
            continue
        _, paired = studies.paired_leader_intervals(a["wide"][m], means=means_m, digits=digits)
        lead = a["leaders"][m] = claims.leaders(means_m, intervals=paired, what="recovery", digits=digits)
        if ck is None:
            continue
        kept = [x for x in means_m if x not in ck["left_out"] and np.isfinite(means_m[x])]
        named = [x for x in lead.numbers["leaders"] + lead.numbers["within_noise"] if x in kept]
        fam = [x for x in kept if users.aligned_family(m, x)]
        ck.update(leader_set_size=len(named), family_in_leader_set=sum(x in fam for x in named),
                  chance_random_set=planted.chance_of_a_member(len(kept), len(fam), len(named)))
    return a


def planted_lines(a: Mapping, digits: int = 3) -> list[str]:
    """The lines section 7 prints from :func:`helpers.replicates.diversity.planted_analysis` (each
    a sentence or two, under 50 words)."""
    from ..simulate import users

    lines = []
    t = next(iter(a["truth"].values()))
    lines.append(f"{a['replicates']} replicates; planted truths from {t['topics']:,} pooled topics "
                 "(leave-one-out per replicate).")
    for m, tr in a["truth"].items():
        order = [t["runs"][k] for k in np.argsort(-tr["mean"], kind="stable")]
        lines.append(f"{m}: {' > '.join(order)} ({int(np.triu(tr['resolved'], 1).sum())} of "
                     f"{len(order) * (len(order) - 1) // 2} pairs resolved)")
    pairs = a["pairs"]
    apart = [f"{r.a}/{r.b}" for r in pairs.itertuples() if r.told_apart]
    alike = [f"{r.a}/{r.b} (τ = {claims.number(r.tau, digits)})" for r in pairs.itertuples() if not r.told_apart]
    lines.append(f"Told apart by these runs (τ < {a['threshold']:g}): {claims.listing(apart) if apart else 'no pair'}.")
    if alike:
        lines.append(f"Not told apart: {claims.listing(alike)}; their families are not compared with each other.")
    for m in a["models"]:
        if a["leaders"].get(m) is None:
            lines.append(f"--- {m}: no run pair resolved in any replicate, so nothing to recover.")
            continue
        lines.append(f"--- {m}: leader {short_leaders(a['leaders'][m], digits=digits)}.")
        ck = a["checks"].get(m)
        if ck is None:
            continue
        fams = "family" if len(ck["not_told_apart"]) == 1 else "families"
        left = f"; left out: the {claims.listing(ck['not_told_apart'])} {fams}" if ck["left_out"] else ""
        lines.append(f"    family check ({users.ALIGNED[m][0]}, {ck['family_size']} of {ck['measures']} measures{left}): "
                     f"{_check_text(ck, digits)}.")
        if ck["verdict"] != "not testable":
            how = (f"Picked on half of the replicates, tested on the other {ck['replicates']}"
                   if ck["selection"] == "split" else
                   f"Picked and tested on the same {ck['replicates']} replicates (too few to split)")
            lines.append(f"    {how}; Holm {_p(ck['p_holm'], a['alpha'])} over {_tested(a)} models: {_verdict(ck)}.")
        if ck.get("leader_set_size"):
            lines.append(f"    A random set of {claims.plural(ck['leader_set_size'], 'measure')} holds a family member with "
                         f"chance {claims.number(ck['chance_random_set'], digits)} (the leader set holds "
                         f"{ck['family_in_leader_set']}).")
        if "without_shared" in ck:
            ws = ck["without_shared"]
            lines.append(f"    Without {claims.listing(ws['shared'])} (members of two families): {_check_text(ws, digits)}, "
                         f"{_WITHOUT[ws['verdict']]}.")
    nl = a["null"]
    if nl is not None:
        lines.append(f"null: means {nl['lowest']:.3f} to {nl['highest']:.3f}; Holm over {nl['family']} distinct measures: "
                     + (f"{claims.listing(nl['departs'])} differ from one half" if nl["departs"] else
                        "none differs from one half")
                     + f" (uncorrected, {nl['uncorrected']} of {nl['measures']} 95% CIs exclude it).")
    return lines


def _p(p: float, alpha: float) -> str:
    """``"p = 0.058"`` or ``"p < 0.001"``."""
    shown = claims.format_p(p, alpha)
    return f"p {shown}" if shown.startswith("<") else f"p = {shown}"


def _verdict(ck: Mapping) -> str:
    """The verdict word of a family check (Holm-corrected); a recovery that rests only on the
    measures shared with another family (``without_shared`` not recovered) holds in part."""
    word = _VERDICT[ck["verdict_holm"]]
    if word == "shown" and "without_shared" in ck and ck["without_shared"]["verdict"] != "recovered":
        return "holds in part"
    return word


def _tested(a: Mapping) -> int:
    return sum(ck["verdict"] != "not testable" for ck in a["checks"].values())


def _planted_rows(a: Mapping, digits: int = 3) -> tuple[list[Finding], dict]:
    """The rows of section 7 and the notebook's own caveats they use."""
    from ..simulate import users

    pairs = a["pairs"]
    k, n = int(pairs["told_apart"].sum()), len(pairs)
    alike = [r for r in pairs.itertuples() if not r.told_apart]
    run = f"{k} of {n} pairs at τ < {a['threshold']:g}"
    if alike:
        run += "; not " + claims.listing([f"{r.a}/{r.b} (τ = {claims.number(r.tau, digits)})" for r in alike])
    verdict = "holds" if k == n else "holds in part" if k else "does not hold"
    rows = [Finding(f"Do the planted users order the runs differently (τ < {a['threshold']:g})?",
                    "— (our check)", run, verdict, numbers={"told_apart": k, "pairs": n,
                                                            "tau": {f"{r.a}/{r.b}": r.tau for r in pairs.itertuples()}})]
    caveats = {"aligned": "Each planted user has its family's shape (RBP's discount, DCG's, I-rec's coverage, "
                          "ERR's first hit), so these rows check the method, not which measure users prefer.",
               "holm": f"Verdicts are Holm-corrected over the {_tested(a)} models checked; the 95% CIs beside them "
                       "are not."}
    if alike:
        caveats["alike"] = ("Users the runs do not tell apart (" + claims.listing([f"{r.a}/{r.b}" for r in alike])
                            + ") are checked without each other's family.")
    for m, ck in a["checks"].items():
        cav = ("aligned",) + (("holm",) if ck["verdict"] != "not testable" else ()) + (("alike",) if ck["left_out"] else ())
        run = _check_text(ck, digits)
        if ck["verdict"] != "not testable":
            run += f"; Holm {_p(ck['p_holm'], a['alpha'])}"
        if "without_shared" in ck:
            ws = ck["without_shared"]
            run += f"; without {claims.listing(ws['shared'])}: {_WITHOUT[ws['verdict']]}"
        rows.append(Finding(f"Does the {users.ALIGNED[m][0]} family recover the {m} user best?", "— (our check)",
                            run, _verdict(ck), caveats=cav,
                            numbers={k_: ck.get(k_) for k_ in ("diff", "low", "high", "p", "p_holm", "verdict",
                                                               "verdict_holm", "left_out", "picks", "replicates")}))
    nl = a["null"]
    if nl is not None:
        run = (f"means {nl['lowest']:.3f}–{nl['highest']:.3f}; "
               + (f"{claims.listing(nl['departs'])} differ" if nl["departs"] else "none differs")
               + f" from 0.5 (Holm over {nl['family']})")
        rows.append(Finding("Does any measure recover a random planted order?", "— (it should not)", run,
                            "shown" if nl["departs"] else "not shown", numbers=dict(nl)))
    return rows, caveats


# -- the findings --------------------------------------------------------------------------------

def findings(*, data: str, run_design: str = "styles", toy: Mapping[str, float], tau_ci: Mapping, l: int, r: Mapping,
             power: pd.Series, mc: Mapping[str, Sequence[float]], n_pairs: int, B: int, significance: float,
             normaliser: Mapping, greedy: Mapping, twins: Sequence[Sequence[str]], cover: Mapping | None = None,
             planted: Mapping | None = None, against: Mapping | None = None, footer: str = "") -> Findings:
    """The findings of notebook 04 (module docstring for the questions).

    Parameters
    ----------
    data, run_design : the ``data`` and ``run_design`` parameters.
    toy : the worked examples' values: ``P+Q@3``, its hand derivation ``P+Q@3 hand``, ``DIN-nDCG@3``, ``D-nDCG@3``.
    tau_ci : ``(a, b) -> (tau, low, high)`` of the measure pairs of section 4 (bootstrap over topics).
    l : the cutoff.
    r : ``{"r", "low", "high", "runs"}``: the Pearson correlation of I-rec@l and D-nDCG@l over runs, and
        optionally ``"rest"`` (the same without ``"without"``, the runs the tests single out).
    power, mc, n_pairs, B, significance : discriminative power per measure, its Monte Carlo intervals,
        the run pairs, trials and level of the randomised Tukey HSD tests.
    normaliser : ``{"other", "changed", "lowest_tau", "lowest_tau_measures", "largest_shift", "shift_measures"}``.
    greedy : ``{"topics_changed", "topics", "max_relative_change"}`` (ndeval's tie rule, section 3).
    twins : groups of measures that are one measure under several names.
    cover : :func:`helpers.replicates.diversity.significant_pair_cover` of the leading measure, with ``"measure"``.
    planted : :func:`helpers.replicates.diversity.planted_analysis` (simulated data with replicates), else None.
    against : per planted model, significant pairs (all measures) against its order and in all.
    """
    rows = [_toy_row(toy), _tau_row(tau_ci, l), _r_row(r, l), _power_row(power, mc, l, n_pairs, B),
            _lead_row(power, mc)]
    caveats = {"mc_only": "Monte Carlo intervals of power cover the B trials only, not the choice of topics."}
    if n_pairs < 50:
        caveats["few_runs"] = (f"{n_pairs} run pairs move a share of pairs in steps of {1 / n_pairs:.3f}, and a "
                               "correlation across few runs can rest on two of them.")
    general = ()
    if data == "simulated":
        general = ("simulated_runs",)
        caveats["simulated_runs"] = ("Simulated runs and planted users check the method; they say nothing about real "
                                     "systems or users.")
    prose = _prose(data, run_design, normaliser, greedy, twins, cover, against)
    if planted is not None:
        more, own = _planted_rows(planted)
        rows += more
        caveats.update(own)
    elif data == "simulated":
        prose.append("The planted-truth rows need at least 2 replicates.")
    return Findings("04_diversified_measures", rows, prose, caveats=caveats, general=general, footer=footer)


def _few(n_pairs: int) -> tuple[str, ...]:
    return ("few_runs",) if n_pairs < 50 else ()


def _toy_row(toy: Mapping[str, float]) -> Finding:
    pq, hand, din, d = toy["P+Q@3"], toy["P+Q@3 hand"], toy["DIN-nDCG@3"], toy["D-nDCG@3"]
    ok = abs(pq - hand) < 1e-12 and din < d
    return Finding("Do the worked examples give the hand-derived values (Eq. 8–9)?",
                   "DIN drops a repeated nav hit; P+Q mixes Q and P+ by Pr(i|q)",
                   f"P+Q@3 {pq:.4f} (hand: {hand:.4f}); DIN-nDCG@3 {din:.4f} < D-nDCG@3 {d:.4f}",
                   "agrees" if ok else "differs", numbers=dict(toy))


def _tau_row(tau_ci: Mapping, l: int) -> Finding:
    key = (f"D#-nDCG@{l}", f"alpha-nDCG@{l}")
    tau, lo, hi = tau_ci[key]
    n = tau_ci.get("runs", 0)
    return Finding("Do D♯-nDCG and α-nDCG (NTCIR's and TREC's official measures) rank the runs differently?",
                   "—", f"τ = {tau_text(tau, lo, hi)} ({n} runs; bootstrap over topics)",
                   "shown" if hi < 1 else "not shown", caveats=_few(n * (n - 1) // 2) if n else (),
                   numbers={"tau": tau, "low": lo, "high": hi})


def _r_row(r: Mapping, l: int) -> Finding:
    excl = not (r["low"] <= 0 <= r["high"]) and np.isfinite(r["low"])
    run = f"r = {claims.bracket(r['r'], r['low'], r['high'])} over {r['runs']} runs"
    verdict = "shown" if excl else "not shown" if np.isfinite(r["low"]) else "cannot tell"
    rest = r.get("rest")
    if rest is not None:
        run += f"; without {claims.listing(rest['without'])}: {claims.bracket(rest['r'], rest['low'], rest['high'])}"
        if excl and rest["low"] <= 0 <= rest["high"]:
            verdict = "cannot tell"
    n = r["runs"]
    return Finding(f"Do I-rec@{l} and D-nDCG@{l} correlate across runs?", "trade-off plotted in the INTENT overviews",
                   run, verdict, caveats=_few(n * (n - 1) // 2), numbers=dict(r))


def _power_row(power: pd.Series, mc: Mapping, l: int, n_pairs: int, B: int) -> Finding:
    a, b = f"D#-nDCG@{l}", f"alpha-nDCG@{l}"
    c = claims.compare("D♯-nDCG", power[a], "α-nDCG", power[b], interval_a=tuple(mc[a]), interval_b=tuple(mc[b]))
    d = c.numbers["differs"]
    verdict = ("shown" if d and power[a] > power[b] else "does not hold" if d else "not shown")
    show = lambda m: (claims.number(power[m]) if mc[m][0] == mc[m][1] else mc_text(power[m], *mc[m]))  # noqa: E731
    exact = " (a value without interval: no p-value near the level)" if any(mc[m][0] == mc[m][1] for m in (a, b)) else ""
    return Finding("Is D♯-nDCG more discriminative than α-nDCG?", "—",
                   f"{show(a)} vs {show(b)} of {n_pairs} pairs, B = {B:,}{exact}",
                   verdict, caveats=("mc_only",) + _few(n_pairs), numbers=dict(c.numbers))


def _lead_row(power: pd.Series, mc: Mapping) -> Finding:
    c = claims.leaders(power.to_dict(), intervals={m: tuple(v) for m, v in mc.items()})
    n = c.numbers
    lead = claims.listing(n["leaders"]) if len(n["leaders"]) <= 3 else f"{len(n['leaders'])} measures tied"
    run = f"{lead} ({n['best']:.3f}); {claims.plural(len(n['within_noise']), 'more measure')} within noise"
    alone = len(n["leaders"]) == 1 and not n["within_noise"]
    return Finding("Does one measure lead discriminative power beyond Monte Carlo noise?", "—", run,
                   "shown" if alone else "not shown", caveats=("mc_only",), numbers=dict(n))


def _prose(data: str, run_design: str, normaliser: Mapping, greedy: Mapping, twins, cover, against) -> list[str]:
    out = []
    if data == "simulated" and run_design == "styles":
        out.append("The simulated runs differ in style (intent focus, diversification, level preference), so that "
                   "planted users order them differently.")
    elif data == "simulated":
        out.append("The simulated runs differ mainly in skill (`run_design: skill`); the planted-users row says "
                   "which users they tell apart.")
    if twins:
        out.append("; ".join(" and ".join(g) for g in twins) + ": one measure under several names.")
    if cover and cover.get("cover") and cover.get("exactly_cover_vs_rest"):
        what = (" (the spam-unfiltered Category A runs)" if data == "trec-web-2012"
                and all("cata" in x and "filtered" not in x for x in cover["cover"]) else "")
        out.append(f"All {cover['n_significant']} significant pairs of {cover['measure']} set "
                   f"{claims.listing(cover['cover'])}{what} against the other runs.")
    nm = normaliser
    if nm["changed"]:
        out.append(f"Under the {nm['other']} normaliser {nm['changed']} measures change score; power moves by up to "
                   f"{nm['largest_shift']:.3f} and the lowest τ between two rankings of one measure is "
                   f"{nm['lowest_tau']:.3f}.")
    g = greedy
    out.append(f"α-nDCG's greedy ideal depends on ndeval's tie rule in {g['topics_changed']} of {g['topics']} topics"
               + (f" (by up to {g['max_relative_change']:.1%})." if g["topics_changed"] else "."))
    if against:
        worst = max(against, key=lambda m: against[m][0] / max(against[m][1], 1))
        k, n = against[worst]
        out.append(f"Of the {n:,} significant pairs of all measures, {k:,} go against the {worst} user's order.")
    if data != "simulated":
        out.append("Planted truths need simulated runs (the default profile).")
    out.append("No public data set pairs SERP preferences with intent judgments, so no profile here says which "
               "measure agrees with real users.")
    return out
