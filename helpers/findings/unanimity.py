"""Notebook 02's parameters and findings: does unanimity-aware gain change our conclusions?

Sakai (EVIA 2017, Sec. 4-6) asks whether evaluating with the unanimity-aware gain UG (Eq. 2)
instead of the raw sum of ratings RawG changes the ranking of all runs (Kendall's tau, Table 2)
and the significance of differences between teams (randomised Tukey HSD, Table 3), and
conjectures that real ratings, which spread less than uniform ones, change them more.
:func:`check_parameters` validates a run's parameters; :func:`findings` turns its numbers into the
findings table of the conclusion (:class:`helpers.notebook.findings.Findings`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import unanimity
from ..measures import names as measure_names_mod
from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["Settings", "check_parameters", "CONVENTIONS", "findings", "chance_outside", "bracket", "count_bracket",
           "UnanimityFindings", "clip_tau", "tau_tests", "tau_holm_line", "hsd_runs_line",
           "cell_view", "table2_view", "table2_lines", "read_real", "divisor_reading", "gains_identical",
           "effect_sizes", "divisor_lines", "range_text"]

#: The evaluation conventions notebook 02 can run under (:mod:`helpers.measures.conventions`).
CONVENTIONS = ("ntcireval",)


@dataclass
class Settings:
    """A run's checked parameters and what follows from them."""

    dataset: str
    d_max_list: list
    n_list: list
    measure_names: list
    blind: list
    graded: list
    too_deep: list
    cutoff: int
    B: int
    replicates: int
    real_replicates: int
    theta: int
    notes: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)


def _int_at_least(ns: Mapping, name: str, low: int, what: str = "") -> int:
    v = ns[name]
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or int(v) != v or v < low:
        raise ValueError(f"{name} must be an integer >= {low}{what}, got {v!r}")
    return int(v)


def _measures(given, cutoff: int) -> tuple[list, list, list, list]:
    """Engine names of ``given``, the gain-blind ones, those deeper than the lists, and notes."""
    if not given:
        raise ValueError("measure_names must name at least one measure")
    named = measure_names_mod.resolve(given)  # unknown names fail here, before any work
    notes = []
    if any(label != str(spec) for label, spec in named):
        notes.append("measures: " + ", ".join(f"{label} = {spec}" for label, spec in named if label != str(spec)))
    names = [str(spec) for _, spec in named]
    too_deep = unanimity.deeper_than_lists(names, cutoff)
    notes += [f"WARNING: {m} reads the top {depth} documents, but every list is cut to its top {cutoff}. "
              f"So {m} is scored on {cutoff} documents: not the {m} its name promises." for m, depth in too_deep]
    blind = unanimity.gain_blind(names)
    if blind:
        notes.append(f"{claims.listing(blind)} only see{'s' if len(blind) == 1 else ''} whether a gain is > 0, and "
                     "UG > 0 exactly when RawG > 0. RawG and UG cannot differ there (τ = 1, no discrepancy), so the "
                     "counts of cells leave " + ("it" if len(blind) == 1 else "them") + " out.")
    return names, blind, too_deep, notes


def check_parameters(ns: Mapping) -> Settings:
    """Check notebook 02's parameters (``ns``: the notebook's globals) and derive the run's settings.

    A bad value raises ``ValueError`` naming the parameter and what it takes. Returns
    :class:`Settings`: the values normalised (``10.0`` -> ``10``; measure names as the engine's
    names, trec_eval names read as the engine measure they are), the measures that only see
    whether a gain is > 0 (``blind``: RawG and UG cannot differ on them) and the others
    (``graded``), measures that read deeper than the lists (``too_deep``), the relevance threshold
    ``theta``, the lines to print (``notes``) and the parameters for the metrics file.
    """
    from ..data import datasets, thresholds
    from ..io import readers
    from ..notebook import params

    replicates = _int_at_least(ns, "replicates", 1)
    real_replicates = _int_at_least(ns, "real_replicates", 1)
    if not ns["scheduler"]:
        raise ValueError("scheduler must be 'local', 'serial' or a dask scheduler address such as tcp://host:8786")
    dataset = ns["dataset"]
    if dataset not in ("stc-like", "dl19", "files"):
        raise ValueError(f"dataset must be 'stc-like', 'dl19' or 'files', got {dataset!r}")
    params.check_file_inputs(ns, mode=dataset == "files", required=["qrels_path", "runs_glob"],
                             optional=["ratings_path"], switch='dataset: "files"')
    if ns["ratings_layout"] not in readers.RATING_LAYOUTS:
        raise ValueError(f"ratings_layout must be one of {readers.RATING_LAYOUTS}, got {ns['ratings_layout']!r}")
    _int_at_least(ns, "ratings_d_max", 1)
    if not 0.0 <= ns["p"] <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {ns['p']}")
    d_max_list, n_list = ns["d_max_list"], ns["n_list"]
    if not d_max_list or any(int(d) != d or d < 1 for d in d_max_list):
        raise ValueError(f"d_max_list must hold integers >= 1, got {d_max_list}")
    if not n_list or any(int(n) != n or n < 2 for n in n_list):
        raise ValueError(f"n_list must hold integers >= 2 (one rating has no spread), got {n_list}")
    if ns["conventions"] not in CONVENTIONS:
        raise ValueError(
            f"conventions must be 'ntcireval', got {ns['conventions']!r}: this notebook feeds real-valued gains "
            "(UG) to the measures, which NTCIREVAL's conventions define and trec_eval's (integer levels) do not. "
            "trec_eval names in measure_names (ndcg_cut_10, map) are read as the engine measure they are.")
    if not (math.isfinite(ns["team_skill_sd"]) and ns["team_skill_sd"] > 0):
        raise ValueError(f"team_skill_sd must be a number > 0, got {ns['team_skill_sd']!r}")
    cutoff = _int_at_least(ns, "cutoff", 1, " (a positive integer)")
    names, blind, too_deep, notes = _measures(ns["measure_names"], cutoff)
    B = _int_at_least(ns, "B", 100, " HSD trials")
    if not 0.0 < ns["alpha"] < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {ns['alpha']}")
    if ns["best_run_by"] not in ("official", "rawg"):
        raise ValueError(f"best_run_by must be 'official' or 'rawg', got {ns['best_run_by']!r}")
    if ns["real_ratings"] and dataset != "dl19":
        raise ValueError("real_ratings needs dataset='dl19'; with dataset='files' give ratings_path instead")
    table = ns["team_table"]
    if table and table != "dl19" and not Path(table).is_file():
        raise params.ParameterError(f"team_table: no file {table!r} (give 'dl19', a CSV path with run_id, team, "
                                    "evidence, or leave it empty)")
    theta = thresholds.for_run(ns["relevance_threshold"], dataset, qrels_path=ns["qrels_path"],
                               collections={"stc-like": 1, "dl19": datasets.DL19_RELEVANCE_THRESHOLD})
    top = 2 if dataset == "stc-like" else int(ns["ratings_d_max"])
    if int(ns["relevance_threshold"]) != ns["relevance_threshold"] or not 1 <= theta <= top:
        raise ValueError(f"relevance_threshold must be 0 (the collection's definition) or a level in 1..{top}, "
                         f"got {ns['relevance_threshold']!r}")
    d_max_list, n_list = [int(d) for d in d_max_list], [int(n) for n in n_list]
    metrics = {"seed": ns["seed"], "dataset": dataset, "d_max_list": d_max_list, "n_list": n_list, "p": ns["p"],
               "measures": names, "cutoff": cutoff, "B": B, "alpha": ns["alpha"], "best_run_by": ns["best_run_by"],
               "relevance_threshold": theta, "conventions": ns["conventions"]}
    if dataset == "stc-like":
        metrics["team_skill_sd"] = float(ns["team_skill_sd"])
    return Settings(dataset, d_max_list, n_list, names, blind, [m for m in names if m not in blind], too_deep,
                    cutoff, B, replicates, real_replicates, int(theta), notes, metrics)


# ---------------------------------------------------------------------------------------------
# what the notebook prints: the replicates' cells, Table 2 against the paper, the real contrast

def bracket(mean: float, low: float, high: float, digits: int = 3, *, note: bool = True) -> str:
    """``"0.520 [0.410, 0.630]"`` (:func:`helpers.notebook.claims.bracket`), or the value alone when
    every draw gave it: an interval of zero width says nothing an interval should. ``note=False``
    leaves out the remark on a mean outside its interval (a table marks it once, with a †)."""
    if low == high and abs(float(mean) - float(low)) <= 1e-12 * max(1.0, abs(float(low))):
        return claims.number(low, digits)
    if not note:
        return f"{claims.number(mean, digits)} [{claims.number(low, digits)}, {claims.number(high, digits)}]"
    return claims.bracket(mean, low, high, digits)


def count_bracket(mean: float, low: float, high: float) -> str:
    """A mean count with the interval of its draws, whose bounds are counts (order statistics):
    ``"1.9 [0, 5]"``; the count alone (``"0"``) when every draw gave it."""
    if low == high and abs(float(mean) - float(low)) < 1e-12:
        return f"{int(round(low))}"
    return f"{claims.number(mean, 1)} [{int(round(low))}, {int(round(high))}]"


def range_text(mean: float, low: float, high: float, draws: int, unit: str = "replicates", digits: int | None = None,
               signed: bool = False) -> str:
    """A mean over draws and the range they span, named as what it is
    (:func:`helpers.replicates.unanimity.range_name`): ``"mean 26.4, 17 to 37 (range over 40
    replicates)"``, or ``"2 in every one of 40 replicates"`` when every draw gave the same. With
    ``digits`` None the bounds are counts (the mean to 1 decimal); else every number to ``digits``
    (``signed``: with its sign, as differences are)."""
    from ..replicates.unanimity import range_name

    if digits is None:
        bound, avg = (lambda v: _signed_count(v) if signed else f"{int(round(v))}"), (
            lambda v: _signed(v, 2) if signed else claims.number(v, 1))
    else:
        bound = avg = (lambda v: _signed(v, digits)) if signed else (lambda v: claims.number(v, digits))
    if low == high and abs(float(mean) - float(low)) <= 1e-12 * max(1.0, abs(float(low))):
        return f"{bound(low)} in every one of {int(draws)} {unit}"
    return f"mean {avg(mean)}, {bound(low)} to {bound(high)} ({range_name(draws, unit)})"


def _signed_count(v: float) -> str:
    """``+2``, ``-1``, ``0`` (a count difference; no sign on 0)."""
    return f"{int(round(v)):+d}" if int(round(v)) else "0"


def _signed(v: float, digits: int = 3) -> str:
    """``+0.020``, ``−0.0004`` (never ``+0.000`` for a value that is not 0)."""
    v = float(v)
    return ("+" if v >= 0 else "-") + claims.number(abs(v), digits, marks=(0.0,))


#: A cell where UG equals RawG on every item in every draw (:func:`helpers.replicates.unanimity.identical_cells`).
SAME = "UG = RawG: nothing to test"


def cell_view(cells: pd.DataFrame, measure: str) -> tuple[pd.DataFrame, bool]:
    """One measure's cells as the notebook shows them (rows Dmax, columns N): ``"τ [low, high] |
    discrepancies [low, high]"``, a ``†`` where a mean lies outside its draws' interval, and
    :data:`SAME` where UG equals RawG in every draw (``ug_equals_rawg``). Returns the table and
    whether any cell has a ``†``."""
    mark = lambda m, lo, hi: "†" if m < lo - 1e-12 or m > hi + 1e-12 else ""  # noqa: E731  (a skewed count)
    view = cells[cells["measure"] == measure]
    same = view["ug_equals_rawg"] if "ug_equals_rawg" in view.columns else [False] * len(view)
    text = [SAME if u else f"{bracket(a, b, c, note=False)}{mark(a, b, c)} | {count_bracket(d, e, g)}{mark(d, e, g)}"
            for a, b, c, d, e, g, u in zip(view.tau_mean, view.tau_low, view.tau_high, view.disc_mean, view.disc_low,
                                           view.disc_high, same)]
    wide = view.assign(cell=text).pivot(index="d_max", columns="n", values="cell")
    wide.columns = [f"N = {n}" for n in wide.columns]
    wide.index.name = "Dmax"
    return wide, any("†" in t for t in text)


def table2_view(comparison: pd.DataFrame, measure: str) -> pd.DataFrame:
    """One measure's Table 2 comparison in the paper's layout: ``"paper | mean [low, high] in"``
    per cell (``above``/``below`` where the paper's tau lies outside the interval, ``in (τ = 1)``
    where it lies inside whatever the stand-in does, :data:`SAME` where UG = RawG in every draw)."""
    view = comparison[comparison["measure"] == measure]
    same = view["ug_equals_rawg"] if "ug_equals_rawg" in view.columns else [False] * len(view)
    where = ["in" if ins and inf else "in (τ = 1)" if ins else side
             for ins, inf, side in zip(view.inside, view.informative, view.side)]
    text = [f"{unanimity.fmt_tau(p)} | " + (SAME if u else f"{bracket(m, lo, hi, note=False)} {w}")
            for p, m, lo, hi, w, u in zip(view.paper, view["mean"], view.low, view.high, where, same)]
    wide = view.assign(cell=text).pivot(index="d_max", columns="n", values="cell")
    wide.columns = [f"N = {n}" for n in wide.columns]
    wide.index.name = "Dmax"
    return wide


def chance_outside(cells: int, coverage: float = 0.95) -> int:
    """How many of ``cells`` independent intervals, each holding its value with probability
    ``coverage``, may miss by chance: the 95th percentile of Binomial(cells, 1 - coverage)
    (45 cells at 95%: 5; 28 cells at 39/41, the coverage of the extremes of 40 draws: 3)."""
    from scipy.stats import binom

    return int(binom.ppf(0.95, int(cells), 1.0 - float(coverage)))


def table2_lines(t2: pd.DataFrame) -> list[str]:
    """What the notebook prints under the Table 2 comparison: the count of informative cells
    inside, which lie outside, and what chance allows at the intervals' coverage."""
    inf = t2[t2["informative"]]
    out = inf[~inf["inside"]]
    cov = float(t2["coverage"].iloc[0])
    same = int(t2["ug_equals_rawg"].sum()) if "ug_equals_rawg" in t2.columns else 0
    trivial = len(t2) - len(inf) - same
    where = ", ".join(f"{r.measure} Dmax={r.d_max} N={r.n} ({r.side})" for r in out.itertuples()) or "none"
    lines = [f"{same} of {len(t2)} cells have UG = RawG on every item in every replicate: nothing to test"] if same else []
    return lines + [
        f"{trivial} of {len(t2)} cells are not informative: the paper's τ is 1 and the stand-in's range "
        "ends at 1, so it lies inside whatever the stand-in gives",
        f"informative cells with the paper's τ inside: {int(inf['inside'].sum())} of {len(inf)}; outside: {where}",
        f"each range holds a new draw with probability {cov:.1%} ({_cover(t2)}): chance allows "
        f"{chance_outside(len(inf), cov)} of {len(inf)} outside (95th percentile, cells taken as independent)",
        f"mean gap, paper - stand-in, over all {len(t2)} cells: {_signed((t2['paper'] - t2['mean']).mean(), 4)}",
        "the paper prints τ to 3 digits: a τ within 0.0005 of a range (its rounding) counts as inside"]


def _cover(t2: pd.DataFrame) -> str:
    """How the intervals' coverage follows from the number of draws R: (R + 1 - 2k) / (R + 1)."""
    from ..replicates.unanimity import order_interval

    r = int(t2["draws"].iloc[0])
    k = order_interval(np.arange(r, dtype=float))["k"]   # k depends on R only
    ends = "the smallest and largest" if k == 1 else f"the {_ordinal(k)} smallest and largest"
    return f"{ends} of {r} draws: {r + 1 - 2 * k}/{r + 1}"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def gains_identical(p: float, single_bonus, rep: pd.DataFrame | None = None) -> bool:
    """Whether UG equals RawG on every item of every cell and draw: ``p = 0``, or a mean bonus
    UG − RawG of 0 in every cell of the single draw (``single_bonus``) and every relevant item's
    ratings spanning 0..Dmax in every replicate (``rep``'s ``share_full_spread``)."""
    if float(p) == 0.0:
        return True
    if not (np.asarray(single_bonus, dtype=float) == 0).all():
        return False
    return rep is None or bool((rep["share_full_spread"] >= 1.0).all())


def read_real(real, graded, draws: int, p: float = 0.2) -> tuple[dict, dict]:
    """The words of section 6 (:class:`helpers.replicates.unanimity.RealContrast`): ``premise``
    (per spread quantity, real against uniform ratings with the same RawG, by
    :func:`helpers.notebook.claims.compare`) and ``conjecture`` (per graded measure: the numbers of
    :func:`helpers.replicates.unanimity.conjecture` with the printed lines ``tau_text`` and
    ``disc_text``, and ``nothing``: UG = RawG on every item of the real and the uniform ratings)."""
    from ..replicates.unanimity import fixed

    premise = {}
    sp = real.spread.set_index(["quantity", "ratings"])
    for col in ("share_full_spread", "mean_spread"):
        r, s = sp.loc[(col, "real")], sp.loc[(col, "simulated")]
        premise[col] = claims.compare("real", fixed(r), "simulated", s["mean"], interval_a=(r["low"], r["high"]),
                                      interval_b=(s["low"], s["high"]))
    full = sp.loc[("share_full_spread", "real"), "low"] >= 1 and sp.loc[("share_full_spread", "simulated"), "low"] >= 1
    nothing = float(p) == 0.0 or bool(full)
    conjecture = {}
    for c in real.tests.to_dict(orient="records"):
        if c["measure"] not in graded:
            continue
        tau_real = claims.number(c["tau_real"]) if c["tau_real_fixed"] else claims.number(c["tau_real"], 3)
        power = lambda pre: (f"power {c[pre + '_power']:.3f} (95% CI {c[pre + '_power_low']:.3f} to "  # noqa: E731
                             f"{c[pre + '_power_high']:.3f})" if np.isfinite(c[pre + "_power"]) else "no power (one draw)")
        if c["draws"] < 2:   # one uniform draw: a difference, no interval, nothing read from it
            c["tau_text"] = (f"one draw: τ real {tau_real}, uniform {claims.number(c['tau_sim'], 3)}; real − uniform "
                             f"{_signed(c['dtau'])}: no interval, so not read")
            c["disc_text"] = (f"one draw: discrepancies real {int(round(c['disc_real']))}, uniform "
                              f"{int(round(c['disc_sim']))}: no interval, so not read")
        else:
            c["tau_text"] = (f"τ real {tau_real}, uniform {bracket(c['tau_sim'], c['tau_sim_low'], c['tau_sim_high'])}; "
                             f"real − uniform {_signed(c['dtau'])} [{_signed(c['dtau_low'])}, "
                             f"{_signed(c['dtau_high'])}]: {_part_word(c, 'tau')}; {power('tau')}")
            c["disc_text"] = (f"discrepancies real {count_bracket(c['disc_real'], *_real_range(real, c['measure']))}, "
                              f"uniform {count_bracket(c['disc_sim'], c['disc_sim_low'], c['disc_sim_high'])}; real − "
                              f"uniform {claims.number(c['ddisc'], 2)} [{int(c['ddisc_low'])}, {int(c['ddisc_high'])}]: "
                              f"{_part_word(c, 'disc')}; {power('disc')}")
        c["nothing"] = nothing
        conjecture[c["measure"]] = c
    return premise, conjecture


#: A part's state (:func:`helpers.replicates.unanimity.conjecture`) as printed.
_PART = {"holds": "real lower/more, as conjectured", "other way": "the other way", "not shown": "no difference shown"}


def _part_word(c: Mapping, pre: str) -> str:
    """A part's state; with fewer draws than a 95% interval needs, the range is not read."""
    if c["draws"] < claims.min_draws():
        return f"a range of {c['draws']} draws, not read"
    return _PART[c[f"{pre}_part"]]


def _real_range(real, measure: str) -> tuple[float, float]:
    t = real.table.set_index(["ratings", "measure"]).loc[("real", measure)]
    return float(t["disc_low"]), float(t["disc_high"])


def divisor_reading(es: Mapping) -> str:
    """Whether the paper's ES_HSD divisors (|d| / ES_HSD of its Table 3 rows) look like this run's
    residual variance V_E or its square root (the appendix of notebook 02; the stand-in's score
    matrices, so indicative only): one line."""
    pd_lo, pd_hi = es["paper_divisor"]
    fits = lambda lo, hi: lo <= pd_hi and hi >= pd_lo  # noqa: E731
    ve = (es["sqrt_ve"][0] ** 2, es["sqrt_ve"][1] ** 2)
    ve_fits, sd_fits = fits(*ve), fits(*es["sqrt_ve"])
    if ve_fits and not sd_fits and es["es_var_overlaps_paper"]:
        word = "like V_E, not √V_E (the text's form)"
    elif sd_fits and not ve_fits and not es["es_var_overlaps_paper"]:
        word = "like √V_E, the text's form"
    else:
        word = "like neither clearly: cannot tell"
    return (f"paper's divisors {pd_lo:.3f}-{pd_hi:.3f}; this run's √V_E {es['sqrt_ve'][0]:.3f}-{es['sqrt_ve'][1]:.3f}, "
            f"V_E {ve[0]:.3f}-{ve[1]:.3f}: the paper's divisors look {word}")


# ---------------------------------------------------------------------------------------------
# the findings table

#: The notebook's own caveats (besides :data:`helpers.notebook.findings.CAVEATS`).
OWN_CAVEATS = {
    "uniform": "Uniform ratings are Sakai's model of many assessors, not real assessors.",
    "calibrated": "The stand-in's spread of team skills is fitted to Table 2's τ, so agreement there is by calibration.",
    "shares_fit": "Table 3 is not fitted, but it shares the stand-in's team-skill sd, fitted to Table 2's τ.",
    "hsd_family": "The randomised Tukey HSD controls the familywise error over the team pairs of one cell; the counts "
                  "over cells and measures are not corrected.",
    "fragile": "Fragile discrepancies lie within two Monte Carlo errors of α: another run of the test could undo them.",
    "ranges": "A range over R draws, with R below the 40 that 95% needs, holds a new draw with probability "
              "(R − 1)/(R + 1) only.",
    "doubled": "Sakai names no effect size: the power is for an impact twice the uniform ratings' one.",
    "rawg_pick": "best_run_by 'rawg' picks each team's run by its mean RawG on the same ratings it then tests. Each "
                 "team enters with its best run under RawG, not under UG: this favours RawG, and a discrepancy may "
                 "come from the pick rather than from UG.",
}
#: Sakai's Table 3: discrepancies over his 45 cells, and per N.
PAPER_T3 = "24 over 45 cells (N = 5: 16, 10: 6, 20: 2, 40 and 80: 0)"
#: Sakai's Table 2, read as this notebook reads a run's single draw.
PAPER_T2 = "τ < 1 in 28 of 45 cells; 95% CI of τ excludes 1 in 0 of 45 ('statistically equivalent')"


def _few(replicates: int) -> tuple[str, ...]:
    return ("ranges",) if 1 < replicates < claims.min_draws() else ()


def clip_tau(tau: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """τ's asymptotic ``level`` CI (τ ± z·SE, :func:`helpers.stats.kendall_tau_ci`) cut to [−1, 1],
    the range τ can take, with the SE of the uncut interval kept in ``se`` for :func:`tau_tests`.

    Near τ = 1 the normal approximation passes 1; cutting it there loses no coverage, since τ
    cannot lie beyond 1. Returns a copy (``se`` already present is kept: cutting twice changes nothing).
    """
    from scipy.stats import norm

    se = tau["se"] if "se" in tau.columns else (tau["high"] - tau["low"]) / (2 * norm.ppf(0.5 + level / 2))
    return tau.assign(low=tau["low"].clip(-1.0, 1.0), high=tau["high"].clip(-1.0, 1.0), se=se.astype(float))


def tau_tests(tau: pd.DataFrame, graded, alpha: float = 0.05, level: float = 0.95) -> dict:
    """Each cell's test of τ = 1 (the p-value dual to its asymptotic ``level`` CI: two-sided z with the
    CI's standard error, ``se`` where :func:`clip_tau` cut the CI; p = 1 where τ = 1 with no spread)
    and Holm's correction over the cells of the graded measures (:func:`helpers.stats.paired.holm`).
    Returns ``cells``, ``excludes`` (CIs that exclude 1, uncorrected), ``holm`` (cells that Holm
    rejects at ``alpha``) and ``p_min``/``p_holm_min`` (the smallest raw and adjusted p; NaN with no cell)."""
    from scipy.stats import norm

    from ..stats.paired import holm

    t = tau[tau["measure"].isin(graded)]
    se = (t["se"].to_numpy(float) if "se" in t.columns  # the uncut interval's SE (:func:`clip_tau`)
          else (t["high"].to_numpy(float) - t["low"].to_numpy(float)) / (2 * norm.ppf(0.5 + level / 2)))
    gap = 1.0 - t["tau"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, 2 * norm.sf(gap / np.where(se > 0, se, 1.0)), np.where(gap > 1e-12, 0.0, 1.0))
    adj = holm(p)
    return {"cells": len(t), "excludes": int((t["high"].round(9) < 1).sum()), "holm": int((adj < alpha).sum()),
            "p_min": float(p.min()) if len(p) else math.nan, "p_holm_min": float(adj.min()) if len(p) else math.nan}


def tau_holm_line(tests: Mapping, alpha: float = 0.05) -> str:
    """The printed line of :func:`tau_tests`: the uncorrected count, then Holm's."""
    if not tests["cells"]:
        return "no cell to test"
    return (f"the count above is uncorrected; Holm over the {tests['cells']} cells rejects τ = 1 in "
            f"{tests['holm']} (smallest adjusted p {claims.format_p(tests['p_holm_min'], alpha)})")


def _ranking_row(tau: pd.DataFrame, grid, graded, cav: tuple, alpha: float = 0.05) -> Finding:
    t = tau[tau["measure"].isin(graded)]
    changed = int((~np.isclose(t["tau"], 1.0, rtol=0, atol=1e-12)).sum())
    tests = tau_tests(tau, graded, alpha)
    run = (f"one draw: τ < 1 in {changed} of {len(t)} cells; CI excludes 1 in {tests['excludes']}, "
           f"{tests['holm']} after Holm")
    nums = {"changed": changed, "ci_excludes_1": tests["excludes"], "holm_rejects": tests["holm"],
            "p_holm_min": tests["p_holm_min"], "cells": len(t)}
    if grid is not None:
        rep = grid.rep[grid.rep["measure"].isin(graded)]
        every = int((rep.groupby(["measure", "d_max", "n"])["tau"].max() < 1 - 1e-12).sum())
        run += f". τ < 1 in all {grid.replicates} replicates: {every} cells"
        same = int(grid.cells.loc[grid.cells["measure"].isin(graded), "ug_equals_rawg"].sum())
        run += f"; UG = RawG in {same}" if same else ""
        nums.update({"tau_below_1_every_replicate": every, "ug_equals_rawg": same})
    return Finding("Does UG change the ranking of all runs beyond τ's 95% CI (Table 2)?", PAPER_T2, run,
                   "shown" if tests["holm"] else "not shown", cav, nums)


def _table2_row(t2: pd.DataFrame, fit_sd, fitted: bool = True) -> Finding:
    """Table 2 against the replicates; with the stand-in fitted to it (``fit_sd`` given and ``fitted``:
    this run uses the fitted sd), agreement is "by construction"."""
    inf = t2[t2["informative"]]
    out = inf[~inf["inside"]]
    cov = float(t2["coverage"].iloc[0])
    allowed = chance_outside(len(inf), cov)
    sides = ", ".join(f"{int((out['side'] == s).sum())} {s}" for s in ("above", "below") if (out["side"] == s).any())
    same = int(t2["ug_equals_rawg"].sum()) if "ug_equals_rawg" in t2.columns else 0
    run = (f"inside in {int(inf['inside'].sum())} of {len(inf)} informative cells" + (f" ({sides})" if len(out) else "")
           + f"; chance allows {allowed} outside; not counted: "
           f"{len(t2) - len(inf) - same} cells with τ = 1 in both" + (f", {same} with UG = RawG" if same else ""))
    draws = int(t2["draws"].iloc[0])
    # no informative cell, or chance allows every one outside: the check cannot fail
    verdict = "cannot tell" if allowed >= len(inf) else "agrees" if len(out) <= allowed else "differs"
    if verdict == "agrees" and fit_sd is not None and fitted:
        verdict = "by construction"
    return Finding("Does the stand-in give Table 2's τ, cell by cell?", "Table 2 (real STC data, one draw per cell)",
                   run, verdict, (("calibrated",) if fit_sd is not None and fitted else ()) + _few(draws),
                   {"inside": int(inf["inside"].sum()), "informative": len(inf), "cells": len(t2),
                    "allowed_outside": allowed, "coverage": cov, "ug_equals_rawg": same})


def _significance_row(grid, total: int, replicates: int, graded, cav: tuple, fragile: Mapping | None = None) -> Finding:
    """Table 3's question; "cannot tell" when every discrepancy of the single draw is fragile."""
    paper = "24 discrepancies in 45 cells of 120 pairs"
    k = int((fragile or {}).get("k", 0) or 0)
    frag = f" ({k} fragile)" if k else ""
    all_fragile = bool(total) and k >= total
    cav = ("hsd_family",) + (("fragile",) if k else ()) + cav
    if grid is None:
        return Finding("Does UG change significance between teams (Table 3)?", paper,
                       f"one draw: {claims.plural(total, 'discrepancy', 'discrepancies')}{frag}", "cannot tell",
                       ("one_draw",) + cav, {"total": total, "fragile": k})
    from ..replicates.unanimity import order_interval

    rep = grid.rep[grid.rep["measure"].isin(graded)]
    per = rep.groupby("replicate")["discrepancies"].sum()
    iv = order_interval(per)
    zero = int((per == 0).sum())
    run = (f"one draw: {total}{frag}; per replicate: {range_text(per.mean(), iv['low'], iv['high'], replicates)}; "
           f"none in {zero} of {replicates}")
    verdict = "cannot tell" if all_fragile else "shown" if iv["low"] > 0 else "not shown"
    return Finding("Does UG change significance between teams (Table 3)?", paper, run, verdict,
                   cav + _few(replicates), {"mean": float(per.mean()), "low": iv["low"], "high": iv["high"],
                                             "zero": zero, "fragile": k, "total": total})


def _table3_row(t3: Mapping, fitted: bool = True) -> Finding:
    run = (f"total over the same {t3['cells']} cells: "
           + range_text(t3["mean"], t3["low"], t3["high"], t3["replicates"]))
    return Finding("Is the paper's Table 3 total inside the stand-in's range over replicates?",
                   PAPER_T3 if t3["cells"] == 45 else f"{t3['paper']} over these {t3['cells']} cells", run,
                   "agrees" if t3["inside"] else "differs", (("shares_fit",) if fitted else ()) + _few(t3["replicates"]),
                   dict(t3))


def _n_row(grid, n_lo: int, n_hi: int, cav: tuple) -> Finding:
    by_rep = grid.sums.pivot(index="replicate", columns="n", values="discrepancies")
    lo, hi = grid.by_n.loc[n_lo], grid.by_n.loc[n_hi]
    d = (by_rep[n_lo] - by_rep[n_hi]).to_numpy(dtype=float)
    head = f"discrepancies {claims.number(lo['mean'], 1)} at N = {n_lo}, {claims.number(hi['mean'], 1)} at N = {n_hi}"
    question, paper = "Does the effect fade as N grows?", "yes: none at N = 40, 80 (Sec. 4 expects it)"
    if not d.any():
        return Finding(question, paper, f"no discrepancy at N = {n_lo} or N = {n_hi} in any replicate", "not shown",
                       cav, {"mean": 0.0, "differs": False})
    if d.std() == 0:
        return Finding(question, paper, f"{head}: a difference of {d[0]:+.0f} in every replicate", "by construction",
                       ("by_construction",) + cav, {"mean": float(d[0]), "differs": True})
    from ..stats.summary import mean_interval

    if len(d) < claims.min_draws():   # too few draws for a 95% interval: the range, called so
        low, high = float(d.min()), float(d.max())
        text = (f"mean difference {_signed(d.mean(), 1)}, range {_signed(low, 1)} to {_signed(high, 1)} over "
                f"{len(d)} replicates")
    else:
        low, high, _ = mean_interval(d)
        text = f"mean difference {claims.mean_ci(float(d.mean()), low, high, len(d), digits=1).text}"
    fades = bool(low > 0)
    return Finding(question, paper, f"{head}; {text}",
                   "by construction" if fades else "not shown", (("by_construction",) if fades else ()) + cav,
                   {"mean": float(d.mean()), "low": low, "high": high, "differs": bool(low > 0 or high < 0)})


def _premise_row(parts: Mapping, d_real: int, n_real: int, draws: int) -> Finding:
    lower = [k for k, c in parts.items() if c.numbers["differs"] and c.numbers["a"] < c.numbers["b"]]
    verdict = "holds" if len(lower) == len(parts) else "holds in part" if lower else "does not hold"
    sh = parts["share_full_spread"].numbers
    run = (f"share at D = Dmax: real {claims.number(sh['a'])}, uniform "
           + range_text(sh["b"], *sh["interval_b"], draws, "draws", digits=3))
    return Finding(f"Do the real ratings (N = {n_real}, Dmax = {d_real}) spread less than uniform ones?",
                   "assumed (Sec. 4, 6)", run, verdict, _few(draws), {k: c.numbers for k, c in parts.items()})


def _conjecture_verdict(c: Mapping) -> tuple[str, tuple]:
    """holds / holds in part when a part is shown as conjectured; does not hold when every part
    goes the other way or is not shown by a test with power >= 0.8 (lower bound) against an
    impact twice the uniform one; else cannot tell (low power). With fewer draws than a 95%
    interval needs (:func:`helpers.notebook.claims.min_draws`), cannot tell: their range holds a
    new draw too seldom."""
    parts = [c["tau_part"], c["disc_part"]]
    if c["draws"] < claims.min_draws():   # a range of few draws holds a new one too seldom to read
        return "cannot tell", ("one_draw",) if c["draws"] < 2 else ()   # ranges: _few adds it
    if all(x == "holds" for x in parts):
        return "holds", ()
    if any(x == "holds" for x in parts):
        return "holds in part", ()
    powered = [x == "other way" or (x == "not shown" and c[f"{pre}_power_low"] >= 0.8)
               for x, pre in zip(parts, ("tau", "disc"))]
    if all(powered):
        return "does not hold", ("doubled",)
    return "cannot tell", ("low_power", "doubled")


def _conjecture_row(m: str, c: Mapping, draws: int, cav: tuple) -> Finding:
    q = f"{m}: do real ratings move τ and significance more than uniform ones?"
    if c["nothing"]:
        return Finding(q, "expected (Sec. 6), not tested", "UG = RawG on every real and uniform item: nothing to test",
                       "not tested", cav, {})
    if c["draws"] < 2:
        run = (f"one draw: τ real − uniform {_signed(c['dtau'])}, discrepancies real − uniform "
               f"{int(round(c['ddisc'])):+d}; no interval, no power")
    else:
        run = (f"τ real − uniform: {range_text(c['dtau'], c['dtau_low'], c['dtau_high'], draws, 'draws', 3, True)}, "
               f"power {_pw(c, 'tau')}; discrepancies: mean {_signed(c['ddisc'], 2)}, {_signed_count(c['ddisc_low'])} to "
               f"{_signed_count(c['ddisc_high'])}, power {_pw(c, 'disc')}")
    verdict, extra = _conjecture_verdict(c)
    return Finding(q, "expected (Sec. 6), not tested", run, verdict, extra + _few(draws) + cav,
                   {k: v for k, v in c.items() if not k.endswith("_text")})


def _pw(c: Mapping, pre: str) -> str:
    """The power and the lower bound the verdict compares with 0.8, to 3 digits (0.7965 is not 0.80)."""
    if not np.isfinite(c[pre + "_power"]):
        return "n/a (one draw)"
    return f"{c[pre + '_power']:.3f} (lower bound {c[pre + '_power_low']:.3f})"


def _cut_caveat(cfg: Settings) -> dict:
    if not cfg.too_deep:
        return {}
    named = claims.listing([f"{m} reads {d}" for m, d in cfg.too_deep])
    return {"cut": f"{named} documents, but every list is cut to its top {cfg.cutoff}: scored on those {cfg.cutoff}."}


def findings(cfg: Settings, *, collection: Mapping, pairs: int, tau: pd.DataFrame, counts: pd.DataFrame,
             fragile: Mapping | None, grid=None, table2: pd.DataFrame | None = None,
             table3_total: Mapping | None = None, table3_cells: pd.DataFrame | None = None, off_paper=(),
             partial=(), identical: bool = False, fit: pd.DataFrame | None = None, real: tuple | None = None,
             real_n: int = 0, real_d_max: int = 0, copies: str = "", footer: str = "") -> Findings:
    """The findings of notebook 02 (see the module docstring for the questions).

    Parameters
    ----------
    cfg : :func:`check_parameters`' settings.
    collection, pairs : the collection's metrics (:class:`helpers.replicates.unanimity.Collection`)
        and the number of team pairs the HSD compares.
    tau, counts, fragile : the single draw of sections 3-5 (tau and its CI per cell, discrepancy
        counts per cell, the fragile share as ``claims.share`` numbers).
    grid : :class:`helpers.replicates.unanimity.GridSummary` (None with one replicate).
    table2, table3_total, table3_cells : the paper's Tables 2 and 3 against the replicates (only in
        the paper's setting, ``off_paper`` empty).
    off_paper, partial : how the run's setting differs from the paper's
        (:func:`helpers.replicates.unanimity.off_paper`, which keeps the paper's tables out, and
        :func:`helpers.replicates.unanimity.setting_differences`: measures and grid).
    identical : UG = RawG on every item of every cell and draw (:func:`gains_identical`): the
        simulated questions then have nothing to test.
    fit : the calibration record of the stand-in (``stc-like`` only).
    real, real_n, real_d_max : ``(premise, conjecture)`` of section 6 (:func:`read_real`), and the
        real ratings' N and Dmax.
    copies : what the official-copy check of the real ratings found (a sentence, or empty).
    """
    graded, reps = cfg.graded, cfg.replicates
    n_lo, n_hi = min(cfg.n_list), max(cfg.n_list)
    caveats = {**OWN_CAVEATS, **_cut_caveat(cfg)}
    cut = ("cut",) if cfg.too_deep else ()
    pick = ("rawg_pick",) if cfg.metrics.get("best_run_by") == "rawg" else ()   # rows on the HSD's team runs
    rows, prose = [], []
    fitted = fit is not None and bool(np.isclose(fit.loc[fit["best"], "skill_sd"].iloc[0],
                                                 cfg.metrics.get("team_skill_sd", np.nan)))
    appendix, app_prose = [], _fit_prose(cfg, fit, fitted)
    where = {"stc-like": "the stand-in STC collection", "dl19": "TREC DL 2019 passage"}.get(cfg.dataset, "your files")
    prose.append(f"Data: {where}, {collection['topics']} topics, {collection['runs']} runs from "
                 f"{collection['teams']} teams ({pairs} team pairs); relevance threshold {cfg.theta}.")
    if collection["near_duplicates_across_teams"]:
        prose.append(f"WARNING: {collection['near_duplicates_across_teams']} near-duplicate run pairs cross teams.")
    if not graded:
        prose.append("No selected measure sees how large a gain is, so RawG and UG cannot differ.")
    elif identical:
        rows.append(Finding("Does UG change the ranking or significance of runs?", "yes, at N = 5-20 (Tables 2, 3)",
                            "UG = RawG on every item of every cell and draw: nothing to test", "not tested"))
        prose.append("UG equals RawG here because p = 0 or every relevant item's ratings span 0..Dmax.")
    else:
        total = int(counts.loc[counts["measure"].isin(graded), "discrepancies"].sum())
        rows.append(_ranking_row(tau, grid, graded, cut, cfg.metrics.get("alpha", 0.05)))
        if table2 is not None and len(table2):
            appendix.append(_table2_row(table2, fit, fitted))
        rows.append(_significance_row(grid, total, reps, graded, cut + pick, fragile))
        if table3_total is not None:
            appendix.append(_table3_row(table3_total, fitted))
        if grid is not None and n_lo != n_hi:   # the fade with N follows from UG's formula: a check, not a finding
            appendix.append(_n_row(grid, n_lo, n_hi, cut + pick))
        if table3_cells is not None and len(table3_cells):
            zero = int((table3_cells["disc_low"] <= 0).sum())
            app_prose.append(f"Per cell, Table 3's counts lie inside {int(table3_cells['inside'].sum())} of "
                             f"{len(table3_cells)} ranges, but {zero} of them start at 0: that check has little power.")
    if appendix:
        prose.append("Appendix A's table checks the simulation: " + claims.listing(_checked(appendix)) + ".")
    if off_paper:
        prose.append("The paper's tables are not set against this run: its setting differs in "
                     + claims.listing([o.split(" (")[0] for o in [*off_paper, *partial]]) + ".")
    elif partial and (table2 is not None or table3_total is not None):
        prose.append("The paper's tables are set against the measures and cells this run shares with them only.")
    if real is not None and real[1]:
        _real_rows(rows, prose, real, cfg, real_n, real_d_max, cut, pick)
        if copies:
            prose.append(f"In the real ratings, {copies}: those ratings are left out, so that person counts once.")
    elif real is None:
        prose.append("Sakai's conjecture needs real ratings: profile `real`, or `ratings_path` with your files.")
    general = ["uniform"] + (["stand_in"] if cfg.dataset == "stc-like" else [])
    return UnanimityFindings("02_unanimity_evaluation", rows, prose, caveats=caveats, general=general, footer=footer,
                             appendix=tuple(appendix), appendix_prose=tuple(app_prose))


def _checked(appendix) -> list[str]:
    """What the appendix rows check, in words."""
    t = [n for n in ("2", "3") if any(f"Table {n}" in r.question for r in appendix)]
    out = [f"the stand-in against Table{'s' if len(t) > 1 else ''} {' and '.join(t)}"] if t else []
    return out + (["the fade with N, which follows from UG's formula"] if any("fade" in r.question for r in appendix)
                  else [])


def _fit_prose(cfg: Settings, fit: pd.DataFrame | None, fitted: bool) -> list[str]:
    """Appendix A's bullet on the stand-in's team-skill sd: the fitted one, or not."""
    if fit is None:
        return []
    best, sd = fit[fit["best"]].iloc[0], cfg.metrics.get("team_skill_sd", float("nan"))
    if fitted:
        return [f"The stand-in's team-skill sd, {sd:g}, is fitted to Table 2: RMS gap {best['rmse']:.4f} over 45 cells, "
                f"within one draw's noise ({best['noise_floor']:.4f})."]
    return [f"This run sets the stand-in's team-skill sd to {sd:g}, not the {best['skill_sd']:g} fitted to Table 2."]


@dataclass(frozen=True)
class UnanimityFindings(Findings):
    """Notebook 02's findings with an ``appendix``: the rows that check the simulation, shown in
    Appendix A: the stand-in's fidelity to Tables 2 and 3, and the fade of the effect with N, which
    follows from UG's bonus p·N·(Dmax − D) (they answer no question of the paper)."""

    appendix: tuple = ()
    appendix_prose: tuple = ()

    def appendix_findings(self) -> Findings:
        """The appendix rows as a findings table of their own, with the caveats they point to."""
        return _Appendix(self.notebook, self.appendix, self.appendix_prose, caveats=self.caveats,
                         general=[g for g in self.general if g == "stand_in"])

    def show_appendix(self, out=None) -> None:
        """Display the appendix table (saved as ``02_findings_appendix.{csv,tex}`` with ``out``), or
        say why there is none."""
        app = self.appendix_findings()
        if not app.rows:
            print("\n".join(app.prose) or "no check of the simulation in this run (the paper's tables are not set "
                  "against it, and it has one replicate or one N): no appendix table")
            return
        app.show(out, name="findings_appendix")


@dataclass(frozen=True)
class _Appendix(Findings):
    def caption(self) -> str:
        return ("Appendix of notebook 02: checks of the simulation (the stand-in against the paper's Tables 2 and 3, "
                "what holds by construction), not answers to the paper's questions.")


def _real_rows(rows: list, prose: list, real: tuple, cfg: Settings, n: int, d_max: int, cut: tuple,
               pick: tuple = ()) -> None:
    """The premise and conjecture rows of section 6, and what they mean."""
    premise, conjecture = real[0], real[1]
    rows.append(_premise_row(premise, d_max, n, cfg.real_replicates))
    for m, c in conjecture.items():
        rows.append(_conjecture_row(m, c, cfg.real_replicates, (cut if m in dict(cfg.too_deep) else ()) + pick))
    if any(c["nothing"] for c in conjecture.values()):
        return
    prose.append("The conjecture's ranges are of real − uniform over single uniform draws: the real ratings are one "
                 "data set.")
    prose.append("Power: the chance that one data set with twice the uniform ratings' impact passes the test.")
    other = [m for m, c in conjecture.items() if "other way" in (c["tau_part"], c["disc_part"])
             and c["draws"] >= claims.min_draws()]
    if other:
        prose.append(f"For {claims.listing(other)}, a part of the test goes the other way: real ratings change less.")


def effect_sizes(table3: pd.DataFrame) -> dict:
    """The effect sizes of a draw's discrepancies beside Sakai's Table 3 (notebook 02, Appendix B):
    ``paper_divisor`` and ``paper_es_hsd`` (ranges over the transcribed rows: |d| / ES_HSD and
    ES_HSD) and, when the draw has discrepancies, ``es_hsd`` (|d| / √V_E), ``es_var`` (|d| / V_E),
    ``sqrt_ve`` (√V_E) and ``es_var_overlaps_paper``."""
    from .. import paths

    t3 = pd.read_csv(paths.DATA_RAW / "sakai2017_table3.csv")  # Sakai (2017), Table 3, as printed
    paper_es = np.r_[t3["es_hsd_RawG"], t3["es_hsd_UG"]]
    div = np.r_[t3["abs_diff_RawG"] / t3["es_hsd_RawG"], t3["abs_diff_UG"] / t3["es_hsd_UG"]]
    out = {"paper_divisor": [float(div.min()), float(div.max())],
           "paper_es_hsd": [float(paper_es.min()), float(paper_es.max())], "paper_rows": len(t3)}
    if len(table3):
        es, es_var = np.r_[table3["es_hsd_RawG"], table3["es_hsd_UG"]], np.r_[table3["es_var_RawG"], table3["es_var_UG"]]
        sd_e = np.r_[table3["abs_diff_RawG"], table3["abs_diff_UG"]] / es
        out.update({"es_hsd": [float(es.min()), float(es.max())], "es_var": [float(es_var.min()), float(es_var.max())],
                    "sqrt_ve": [float(sd_e.min()), float(sd_e.max())],
                    "es_var_overlaps_paper": bool(es_var.max() >= paper_es.min() and es_var.min() <= paper_es.max())})
    return out


def divisor_lines(es: Mapping, *, paper_setting: bool) -> list[str]:
    """What Appendix B prints: the paper's divisors, this draw's √V_E and effect sizes, and (in the
    paper's setting only) :func:`divisor_reading`."""
    lo, hi = es["paper_es_hsd"]
    lines = [f"Sakai's Table 3 ({es['paper_rows']} discrepant pairs): ES_HSD {lo:.3f}-{hi:.3f}, so the divisor "
             f"|d| / ES_HSD of its rows runs from {es['paper_divisor'][0]:.3f} to {es['paper_divisor'][1]:.3f}"]
    if "es_hsd" not in es:
        return lines + ["no discrepancy in this draw: no effect size to set beside the paper's"]
    lines += [f"this draw's discrepant score matrices: sqrt(V_E) {es['sqrt_ve'][0]:.3f}-{es['sqrt_ve'][1]:.3f}; "
              f"ES_HSD = |d|/sqrt(V_E) {es['es_hsd'][0]:.3f}-{es['es_hsd'][1]:.3f}; |d|/V_E {es['es_var'][0]:.3f}-"
              f"{es['es_var'][1]:.3f} ({'overlaps' if es['es_var_overlaps_paper'] else 'does not overlap'} the paper's "
              "ES_HSD)"]
    lines.append(divisor_reading(es) if paper_setting else "not the paper's setting: the divisor is not read")
    return lines


def hsd_runs_line(best_run_by: str, measure: str) -> str:
    """Appendix E's sentence on the best-run table, from ``best_run_by``: whether the significance
    tests compared these runs."""
    if best_run_by == "official":
        return f"The significance tests compare these runs: each team's best by mean official {measure}, chosen once."
    return (f"For reference only: best_run_by {best_run_by!r} picks each team's run per cell by mean RawG, so the "
            "tests did not compare these runs (the metrics file lists the runs of each cell).")
