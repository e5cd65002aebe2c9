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
from collections.abc import Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import unanimity
from ..measures import names as measure_names_mod
from ..notebook import claims
from ..notebook.findings import AppendixFindings, Finding, Findings
from .unanimity_text import (SAME, bracket, cell_view, chance_outside, count_bracket,  # noqa: F401
                             effect_sizes, hsd_runs_line, range_text, read_real, table2_lines, table2_view)
from .unanimity_text import fit_state, placebo_prose, placebo_verdict as _placebo_verdict, tried_text  # noqa: F401
from .unanimity_text import signed as _signed, signed_count as _signed_count
from .unanimity_text import answer_sentence  # noqa: F401
from .unanimity_placebo import PAPER_T3_SHARE, SIG_Q, floor_caveat, hsd_floor, pct  # noqa: F401
from .unanimity_placebo import few as _few, placebo_tau as _placebo_tau  # noqa: F401
from .unanimity_placebo import reorder_row as _reorder_row, significance_rows as _significance_rows  # noqa: F401
from .unanimity_placebo import by_construction, link_caveat, link_state, with_link_caveat

__all__ = ["Settings", "check_parameters", "CONVENTIONS", "findings", "chance_outside", "bracket", "count_bracket",
           "UnanimityFindings", "calibrated", "sensitivity_caveat", "pct", "clip_tau", "tau_tests", "tau_holm_line", "hsd_runs_line",
           "cell_view", "table2_view", "table2_lines", "read_real", "gains_identical",
           "effect_sizes", "range_text", "paper_cell", "PAPER_VALUES", "placebo_prose", "in_letter_order"]

#: The evaluation conventions notebook 02 can run under (:mod:`helpers.measures.conventions`).
CONVENTIONS = ("ntcireval",)


#: The caption of this notebook's appendix table (``unanimity``'s ``appendix_findings``).
_APPENDIX_TITLE = ("Appendix of notebook 02: checks of the simulation (the stand-in against the paper's Tables 2 and 3, "
                   "what holds by construction), not answers to the paper's questions.")


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
                     "counts of (cell, measure) pairs leave " + ("it" if len(blind) == 1 else "them") + " out.")
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
    if ns.get("placebo_cells", "small_n") not in ("small_n", "all"):
        raise ValueError(f"placebo_cells must be 'small_n' or 'all', got {ns['placebo_cells']!r}")
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
               "relevance_threshold": theta, "conventions": ns["conventions"],
               "placebo_cells": ns.get("placebo_cells", "small_n")}
    if dataset == "stc-like":
        metrics["team_skill_sd"] = float(ns["team_skill_sd"])
    return Settings(dataset, d_max_list, n_list, names, blind, [m for m in names if m not in blind], too_deep,
                    cutoff, B, replicates, real_replicates, int(theta), notes, metrics)


# ---------------------------------------------------------------------------------------------
# what the notebook prints: the replicates' cells, Table 2 against the paper, the real contrast


def gains_identical(p: float, single_bonus, rep: pd.DataFrame | None = None) -> bool:
    """Whether UG equals RawG on every item of every cell and draw: ``p = 0``, or a mean bonus
    UG − RawG of 0 in every cell of the single draw (``single_bonus``) and every relevant item's
    ratings spanning 0..Dmax in every replicate (``rep``'s ``share_full_spread``)."""
    if float(p) == 0.0:
        return True
    if not (np.asarray(single_bonus, dtype=float) == 0).all():
        return False
    return rep is None or bool((rep["share_full_spread"] >= 1.0).all())


# ---------------------------------------------------------------------------------------------
# the findings table

#: The notebook's own caveats (besides :data:`helpers.notebook.findings.CAVEATS`).
OWN_CAVEATS = {
    "uniform": "Uniform ratings are Sakai's model of many assessors, not real assessors.",
    "calibrated": "The stand-in's spread of team skills is fitted to Table 2's τ, so agreement there is by calibration.",
    "shares_fit": "Table 3 is not fitted, but it shares the stand-in's team-skill sd, which is fitted to Table 2.",
    "hsd_family": "The randomised Tukey HSD controls the familywise error over the team pairs of one cell; the counts "
                  "over cells and measures are not corrected.",
    "placebo_holm": "Both placebo rows are one family: their verdicts rest on Holm's p over the 2.",
    "fragile": "Fragile discrepancies lie within two Monte Carlo errors of α: another run of the test could undo them.",
    "ranges": ("Ranges over R draws, fewer than the 40 a 95% percentile interval needs (a draw beyond each end), "
               "hold a new draw with probability (R − 1)/(R + 1) only."),
    "doubled": "Sakai names no effect size: power is against twice the uniform ratings' impact (its bounds: "
               "docs/02-unanimity-methods.md).",
    "rawg_pick": "best_run_by 'rawg' picks each team's run by its mean RawG on the same ratings it then tests: "
                 "this favours RawG.",
}
#: Sakai's Table 3: discrepancies over his 45 cells, and per N.
PAPER_T3 = "24 over 45 (cell, measure) pairs (N = 5: 16, 10: 6, 20: 2, 40 and 80: 0)"
#: The question of the ranking row (the significance rows': :data:`SIG_Q`).
from .unanimity_text import RANK_Q  # noqa: E402,F401
#: Sakai's Table 2, read as this notebook reads a run's single draw.
PAPER_T2 = "τ < 1 in 28 of 45 (cell, measure) pairs; 95% CI of τ excludes 1 in 0 of 45 ('statistically equivalent')"


#: The paper's setting (Sakai 2017, Sec. 4-5), in the keys of :func:`check_parameters`' metrics.
PAPER_VALUES = {"dataset": "stc-like", "cutoff": 10, "p": 0.2, "relevance_threshold": 1,
                "measures": ["nG@1", "P+", "nERR@10"], "d_max_list": [2, 4, 8], "n_list": [5, 10, 20, 40, 80],
                "alpha": 0.05, "B": 5000, "best_run_by": "official"}
#: What each of the paper's tables depends on: its τ (Table 2) and, beyond it, its HSD counts (Table 3).
_DEPENDS = {2: ("dataset", "cutoff", "p", "relevance_threshold", "measures", "d_max_list", "n_list"),
            3: ("dataset", "cutoff", "p", "relevance_threshold", "measures", "d_max_list", "n_list", "alpha", "B",
                "best_run_by")}
_SHOWN = {"dataset": "STC data", "cutoff": "cutoff 10", "p": "p 0.2", "relevance_threshold": "θ 1",
          "measures": "its 3 measures", "d_max_list": "Dmax 2, 4, 8", "n_list": "N 5 to 80", "alpha": "α 0.05",
          "B": "B 5,000", "best_run_by": "official best runs"}


def _differs(cfg: Settings, table: int) -> list[str]:
    """The settings of ``cfg`` that the paper's Table ``table`` depends on and that differ from the paper's."""
    def norm(k, v):
        return sorted(int(x) for x in v) if k in ("d_max_list", "n_list") else list(v) if k == "measures" else v
    return [k for k in _DEPENDS[table] if k in cfg.metrics and norm(k, cfg.metrics[k]) != norm(k, PAPER_VALUES[k])]


def paper_cell(cfg: Settings, value: str, table: int) -> str:
    """The paper column of a row on Table ``table`` (2: τ, 3: HSD counts): the paper's ``value`` when
    the run's settings match the paper's on everything that number depends on, else a dash and the
    paper's setting where it differs (``"— (paper: α 0.05)"``): a number of another setting is
    never set beside this run's."""
    differ = _differs(cfg, table)
    if not differ:
        return value
    shown = [_SHOWN[k] for k in differ]
    return "— (paper: " + ", ".join(shown[:3]) + (", ..." if len(shown) > 3 else "") + ")"


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
    return (f"the count above is uncorrected; Holm over the {tests['cells']} pairs at α = {alpha:g} rejects τ = 1 in "
            f"{tests['holm']} (smallest adjusted p {claims.format_p(tests['p_holm_min'], alpha)})")


def _ranking_row(tau: pd.DataFrame, grid, graded, cav: tuple, alpha: float = 0.05, paper: str = "",
                 placebo: Mapping | None = None) -> Finding:
    """Table 2's question on the single draw: τ's CIs against 1, uncorrected and after Holm, and the
    placebo's count of τ < 1 beside UG's (``placebo``: :func:`helpers.replicates.unanimity_placebo.
    single_draw`; no verdict of its own)."""
    t = tau[tau["measure"].isin(graded)]
    changed = int((~np.isclose(t["tau"], 1.0, rtol=0, atol=1e-12)).sum())
    tests = tau_tests(tau, graded, alpha)
    pl = ""
    if placebo and placebo.get("tau_pairs"):
        pl = f" (a placebo of UG's size: {placebo['tau_below_placebo']}" + (
            ")" if placebo["tau_pairs"] == len(t) else f" of {placebo['tau_pairs']}, UG {placebo['tau_below_ug']})")
    run = (f"one draw: τ < 1 in {changed} of {len(t)} (cell, measure) pairs{pl}; CI excludes 1 in {tests['excludes']}, "
           f"{tests['holm']} after Holm")
    nums = {"changed": changed, "ci_excludes_1": tests["excludes"], "holm_rejects": tests["holm"],
            "p_holm_min": tests["p_holm_min"], "cells": len(t),
            "placebo_changed": (placebo or {}).get("tau_below_placebo")}
    return Finding(RANK_Q, paper or PAPER_T2, run, "shown" if tests["holm"] else "not shown", cav, nums)


from .unanimity_text import BLIND_Q  # noqa: E402,F401


def _blind_row(blind: Sequence[str], tau: pd.DataFrame, counts: pd.DataFrame) -> Finding:
    """The one row of a run whose every measure is gain-blind (it sees only whether a gain is > 0):
    UG > 0 exactly when RawG > 0 (Eq. 2), so neither the ranking nor a significance call can change.
    The printed numbers are this run's τ and discrepancy counts, which must agree."""
    ones, total = int((tau["tau"] >= 1.0).sum()), int(counts["discrepancies"].sum())
    run = (f"{claims.listing(list(blind))} {'sees' if len(blind) == 1 else 'see'} only whether a gain is > 0, "
           "and UG > 0 exactly when RawG > 0: "
           f"τ = 1 in {ones} of {len(tau)} (cell, measure) pairs, {total} discrepancies")
    return Finding(BLIND_Q, "— (the paper's measures are graded)", run, "by construction", ("by_construction",),
                   {"tau_one": ones, "cells": len(tau), "discrepancies": total})


def _table2_row(t2: pd.DataFrame, fit_sd, fitted: bool = True) -> Finding:
    """Table 2 against the replicates; with the stand-in fitted to it (``fit_sd`` given and ``fitted``:
    this run's sd lies within the fit's range, :func:`calibrated`), agreement is "by construction"."""
    inf = t2[t2["informative"]]
    out = inf[~inf["inside"]]
    cov = float(t2["coverage"].iloc[0])
    allowed = chance_outside(len(inf), cov)
    sides = ", ".join(f"{int((out['side'] == s).sum())} {s}" for s in ("above", "below") if (out["side"] == s).any())
    same = int(t2["ug_equals_rawg"].sum()) if "ug_equals_rawg" in t2.columns else 0
    run = (f"inside in {int(inf['inside'].sum())} of {len(inf)} informative (cell, measure) pairs" + (f" ({sides})" if len(out) else "")
           + f"; chance allows {allowed} outside if they were independent; not counted: "
           f"{len(t2) - len(inf) - same} with τ = 1 in both" + (f", {same} with UG = RawG" if same else ""))
    draws = int(t2["draws"].iloc[0])
    # no informative cell, or chance allows every one outside: the check cannot fail
    verdict = "cannot tell" if allowed >= len(inf) else "agrees" if len(out) <= allowed else "differs"
    if verdict == "agrees" and fit_sd is not None and fitted:
        verdict = "by construction"
    return Finding("Does the stand-in give Table 2's τ, cell by cell?", "Table 2 (real STC data, one draw per cell)",
                   run, verdict, (("calibrated",) if fit_sd is not None and fitted else ()) + _few(draws),
                   {"inside": int(inf["inside"].sum()), "informative": len(inf), "cells": len(t2),
                    "allowed_outside": allowed, "coverage": cov, "ug_equals_rawg": same})


def _table3_row(t3: Mapping, fitted: bool = True, floor: bool = False, spread: str = "") -> Finding:
    """The paper's Table 3 total against the replicates' range; "cannot tell" when the HSD cannot
    reject (``floor``, :func:`helpers.findings.unanimity_placebo.hsd_floor`): every count is 0 then.
    ``spread``: :func:`table3_spread`, whether the other team-skill spreads' ranges hold it too."""
    run = (f"total over the same {t3['cells']} (cell, measure) pairs: "
           + range_text(t3["mean"], t3["low"], t3["high"], t3["replicates"]) + spread)
    verdict = "cannot tell" if floor else "agrees" if t3["inside"] else "differs"
    return Finding("Is the paper's Table 3 total inside the stand-in's range over replicates?",
                   PAPER_T3 if t3["cells"] == 45 else f"{t3['paper']} over these {t3['cells']} (cell, measure) pairs", run,
                   verdict, (("hsd_floor",) if floor else ()) + _few(t3["replicates"]) + (("shares_fit",) if fitted else ()),
                   dict(t3))


def _n_row(grid, n_lo: int, n_hi: int, cav: tuple, floor: bool = False) -> Finding:
    """The fade of the discrepancies from the smallest N to the largest, over the replicates. Its
    verdict is "by construction" in every configuration, derived from the model, not the run: with
    uniform ratings the spread D reaches Dmax ever more often as N grows, so UG's bonus relative to
    RawG vanishes. The numbers say how far this run's N went (``floor``: the HSD cannot reject, so
    every count is 0; its caveat says so)."""
    by_rep = grid.sums.pivot(index="replicate", columns="n", values="discrepancies")
    lo, hi = grid.by_n.loc[n_lo], grid.by_n.loc[n_hi]
    d = (by_rep[n_lo] - by_rep[n_hi]).to_numpy(dtype=float)
    head = f"discrepancies {claims.number(lo['mean'], 1)} at N = {n_lo}, {claims.number(hi['mean'], 1)} at N = {n_hi}"
    question, paper = "Does the effect fade as N grows?", "yes: none at N = 40, 80 (Sec. 4 expects it)"
    cav = (("hsd_floor",) if floor else ()) + ("by_construction",) + cav
    if floor or not d.any():
        text = head if floor else f"no discrepancy at N = {n_lo} or N = {n_hi} in any replicate"
        return Finding(question, paper, text, "by construction", cav, {"mean": float(d.mean()), "differs": False})
    if d.std() == 0:
        return Finding(question, paper, f"{head}: a difference of {d[0]:+.0f} in every replicate", "by construction",
                       cav, {"mean": float(d[0]), "differs": True})
    from ..stats.summary import mean_interval

    if len(d) < claims.min_draws():   # too few draws for a 95% interval: the range, called so
        low, high = float(d.min()), float(d.max())
        text = (f"mean difference {_signed(d.mean(), 1)}, range {_signed(low, 1)} to {_signed(high, 1)} over "
                f"{len(d)} replicates")
    else:
        low, high, _ = mean_interval(d)
        text = f"mean difference {claims.mean_ci(float(d.mean()), low, high, len(d), digits=1).text}"
    return Finding(question, paper, f"{head}; {text}", "by construction", _few(len(d)) + cav,
                   {"mean": float(d.mean()), "low": low, "high": high, "differs": bool(low > 0 or high < 0)})


def _premise_row(parts: Mapping, d_real: int, n_real: int, draws: int) -> Finding:
    lower = [k for k, c in parts.items() if c.numbers["differs"] and c.numbers["a"] < c.numbers["b"]]
    verdict = "holds" if len(lower) == len(parts) else "holds in part" if lower else "does not hold"
    sh = parts["share_full_spread"].numbers
    run = (f"share at D = Dmax: real {claims.number(sh['a'])}, uniform "
           + range_text(sh["b"], *sh["interval_b"], draws, "draws", digits=3))
    return Finding(f"Do the real ratings (N = {n_real}, Dmax = {d_real}) spread less than uniform ones?",
                   "assumed (Sec. 4, 6)", run, verdict, _few(draws), {k: c.numbers for k, c in parts.items()})


def _conjecture_verdict(c: Mapping, floor: bool = False) -> tuple[str, tuple]:
    """holds / holds in part when a part is shown as conjectured; does not hold when every part
    goes the other way or is not shown by a test with power >= 0.8 (lower bound) against an
    impact twice the uniform one; else cannot tell (low power). With fewer draws than a 95%
    interval needs (:func:`helpers.notebook.claims.min_draws`), cannot tell: their range holds a
    new draw too seldom. ``floor``: the HSD cannot reject (:func:`hsd_floor`), so the discrepancy
    part is untested: at most "holds in part", from τ, else cannot tell."""
    parts = [c["tau_part"], c["disc_part"]]
    if floor:
        ok = c["draws"] >= claims.min_draws() and c["tau_part"] == "holds"
        return ("holds in part" if ok else "cannot tell"), ("hsd_floor",)
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


def _conjecture_row(m: str, c: Mapping, draws: int, cav: tuple, floor: bool = False) -> Finding:
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
    verdict, extra = _conjecture_verdict(c, floor)
    return Finding(q, "expected (Sec. 6), not tested", _ci_text(c, draws) + run, verdict, extra + _few(draws) + cav,
                   {k: v for k, v in c.items() if not k.endswith("_text")})


def _ci_text(c: Mapping, draws: int) -> str:
    """The real ratings' τ with its own 95% CI, and in how many uniform draws of the same RawG the CI
    excludes 1 too: a real CI off 1 reads beside what uniform ratings give ("" without those numbers)."""
    if "tau_real_ci_high" not in c:
        return ""
    lo, hi = c["tau_real_ci_low"], c["tau_real_ci_high"]
    word = "excludes" if round(hi, 9) < 1 else "includes"
    return (f"τ real {unanimity.fmt_tau(c['tau_real'])} [{unanimity.fmt_tau(lo)}, {unanimity.fmt_tau(hi)}] (95% CI) "
            f"{word} 1; so do the uniform draws' CIs in {int(c['tau_sim_ci_excludes_1'])} of {draws}. "
            if word == "excludes" else
            f"τ real {unanimity.fmt_tau(c['tau_real'])} [{unanimity.fmt_tau(lo)}, {unanimity.fmt_tau(hi)}] (95% CI) "
            f"includes 1; the uniform draws' CIs exclude it in {int(c['tau_sim_ci_excludes_1'])} of {draws}. ")


def _pw(c: Mapping, pre: str) -> str:
    """The power and the lower bound the verdict compares with 0.8, to 3 digits (0.7965 is not 0.80)."""
    if not np.isfinite(c[pre + "_power"]):
        return "n/a (one draw)"
    return f"{c[pre + '_power']:.3f} (lower bound {c[pre + '_power_low']:.3f}{', below the 0.8 threshold' if _at_threshold(c, pre) else ''})"


def _at_threshold(c: Mapping, pre: str, need: float = 0.8, margin: float = 0.01) -> bool:
    """The power reaches ``need`` but its lower 95% bound, which the verdict reads, falls short of it
    by less than ``margin`` (0.796 against 0.8): a near miss the row says."""
    return bool(np.isfinite(c[pre + "_power"]) and c[pre + "_power"] >= need > c[pre + "_power_low"] >= need - margin)


def sensitivity_caveat(cfg: Settings, record: pd.DataFrame | None = None, *, fitted: bool | str = True) -> dict:
    """On the stand-in, the caveat ``skill_sd``: the discrepancy count depends on the team-skill sd.

    The numbers of the record of :func:`helpers.replicates.unanimity_sensitivity.table3_sensitivity`
    (``record``; by default the committed one) are printed only when this run is the record's
    configuration (:func:`_is_record_run`): they are another run's otherwise, and the caveat says
    where they are. ``fitted``: this run's sd against the fit to Table 2, as
    :func:`helpers.findings.unanimity_text.fit_state` (``"picked"``, ``"tried"``, ``"untried"``;
    ``True`` means picked, ``False`` untried). Empty for other data."""
    if cfg.dataset != "stc-like":
        return {}
    from ..replicates import unanimity_sensitivity as sens

    if record is None and (sens.paths.DATA_RAW / sens.SENSITIVITY_FILE).is_file():
        record = sens.read_sensitivity()
    sd = float(cfg.metrics.get("team_skill_sd", np.nan))
    state = ("picked" if fitted else "untried") if isinstance(fitted, bool) else fitted
    head = "The discrepancy count depends on the stand-in's team-skill sd, " + {
        "picked": "which is fitted to Table 2's τ, not to Table 3",
        "tried": f"here {sd:g}, one of the spreads the fit to Table 2's τ tried (not its pick), not fitted to Table 3",
        }.get(state, f"here {sd:g}, not fitted to the paper in this run's setting")
    if record is None:
        return {"skill_sd": head + "."}
    if not _is_record_run(cfg, record):
        return {"skill_sd": f"{head}; data/raw/{sens.SENSITIVITY_FILE} records the default configuration's."}
    return {"skill_sd": f"{head}: Appendix A gives the counts at other spreads."}


def sensitivity_prose(cfg: Settings, t3: Mapping | None, record: pd.DataFrame | None = None) -> list[str]:
    """Appendix A's bullet behind caveat ``skill_sd`` (:func:`sensitivity_caveat`): the record's mean
    discrepancy count per team-skill sd, and (:func:`table3_spread`) whether the other spreads'
    ranges hold the paper's Table 3 total too. Empty unless this run is the record's configuration."""
    from ..replicates import unanimity_sensitivity as sens

    if record is None and cfg.dataset == "stc-like" and (sens.paths.DATA_RAW / sens.SENSITIVITY_FILE).is_file():
        record = sens.read_sensitivity()
    if cfg.dataset != "stc-like" or record is None or not _is_record_run(cfg, record):
        return []
    r = record.sort_values("skill_sd")
    at = claims.listing([f"{claims.number(m, 1)} at {v:g}" for v, m in zip(r["skill_sd"], r["mean"])])
    spread = table3_spread(cfg, t3, record) if t3 is not None else ""
    return [f"Discrepancies per replicate by team-skill sd: mean {at} (seed {int(r['seed'].iloc[0])}, "
            f"{int(r['replicates'].iloc[0])} replicates each){spread}."]


def table3_spread(cfg: Settings, t3: Mapping, record: pd.DataFrame | None = None) -> str:
    """What the Table 3 row says of the sensitivity record's other team-skill spreads (only when this
    run is the record's configuration, :func:`_is_record_run`, on the paper's 45 cells): their ranges
    over replicates and whether the paper's total lies inside each. When it lies inside every one,
    the check cannot tell the spreads apart, and the row says so. "" otherwise."""
    if cfg.dataset != "stc-like" or t3.get("cells") != 45:
        return ""
    from ..replicates import unanimity_sensitivity as sens

    if record is None and (sens.paths.DATA_RAW / sens.SENSITIVITY_FILE).is_file():
        record = sens.read_sensitivity()
    if record is None or not _is_record_run(cfg, record):
        return ""
    sd = float(cfg.metrics.get("team_skill_sd", np.nan))
    other = record[~np.isclose(record["skill_sd"], sd)].sort_values("skill_sd")
    if other.empty:
        return ""
    at = claims.listing([f"{v:g} ({lo:.0f} to {hi:.0f})" for v, lo, hi in zip(other["skill_sd"], other["low"],
                                                                           other["high"])])
    inside = bool(((other["low"] <= t3["paper"]) & (t3["paper"] <= other["high"])).all())
    return (f". The ranges at sd {at} hold {t3['paper']} too: this check cannot tell these team-skill spreads apart"
            if inside else f". Ranges at sd {at}")


def _is_record_run(cfg: Settings, record: pd.DataFrame) -> bool:
    """Whether this run is the configuration the sensitivity record was drawn in: the paper's
    setting (:data:`PAPER_VALUES`, the record's B), the record's seed and replicates, and a
    team-skill sd the record holds."""
    m = cfg.metrics
    same = {k: v for k, v in PAPER_VALUES.items() if k != "B"}
    same["B"] = int(record["B"].iloc[0]) if "B" in record.columns else PAPER_VALUES["B"]
    if any(m.get(k) != (v if k != "d_max_list" and k != "n_list" else list(v)) for k, v in same.items()):
        return False
    sd = float(m.get("team_skill_sd", np.nan))
    return (m.get("seed") == int(record["seed"].iloc[0]) and cfg.replicates == int(record["replicates"].iloc[0])
            and bool(np.isclose(record["skill_sd"], sd).any()))


def _cut_caveat(cfg: Settings) -> dict:
    """The caveat ``cut``: graded measures that read deeper than the cutoff (a gain-blind one is left
    out of every row's counts, so no row points to it; section 0 prints its depth warning)."""
    deep = [(m, d) for m, d in cfg.too_deep if m in cfg.graded]
    if not deep:
        return {}
    named = claims.listing([f"{m} reads {d}" for m, d in deep])
    return {"cut": f"{named} documents, but every list is cut to its top {cfg.cutoff}: scored on those {cfg.cutoff}."}


def findings(cfg: Settings, *, collection: Mapping, pairs: int, tau: pd.DataFrame, counts: pd.DataFrame,
             fragile: Mapping | None, grid=None, table2: pd.DataFrame | None = None,
             table3_total: Mapping | None = None, table3_cells: pd.DataFrame | None = None, off_paper=(),
             partial=(), identical: bool = False, fit: pd.DataFrame | None = None, real: tuple | None = None,
             real_n: int = 0, real_d_max: int = 0, copies: str = "", footer: str = "",
             placebo: Mapping | None = None, control: Mapping | None = None, placebo_scope: str = "",
             placebo_all: bool = True, control_tau: Mapping | None = None, simulated_ratings: bool = True,
             link: Mapping | None = None) -> Findings:
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
    placebo, control, placebo_scope, placebo_all : the placebo of UG's size on the single draw
        (:func:`helpers.replicates.unanimity_placebo.single_draw`) and over the replicates
        (:func:`helpers.replicates.unanimity_placebo.compare`), the cells it was tested on in
        words, and whether those are all the cells.
    control_tau : UG's τ with RawG against the placebo's over the replicates
        (:func:`helpers.replicates.unanimity_placebo.compare_tau`; computed from ``grid`` when not given).
        Both are read as one family (:func:`helpers.replicates.unanimity_placebo.holm_family`).
    simulated_ratings : whether the replicates' ratings are simulated (uniform, independent of level
        and run; every grid of this notebook so far): the placebo rows then check the simulation and
        are labelled by the bonus's link to what orders the runs (``link``).
    link : :func:`helpers.replicates.unanimity_placebo.bonus_link` on the single draw: when the bonus
        carries nothing that orders the runs (not ``linked``), the simulated placebo rows read
        "by construction" (their test's verdict stays in the run column) and caveat ``placebo_sim``
        gives the correlations; without it the rows keep their numbers' verdict (with ``placebo_sim``
        saying the link cannot be judged when the draw has no bonus or too few pairs: :func:`link_state`).
    """
    graded, reps = cfg.graded, cfg.replicates
    n_lo, n_hi = min(cfg.n_list), max(cfg.n_list)
    state = fit_state(fit, cfg.metrics.get("team_skill_sd", np.nan))
    fitted = state in ("picked", "tried")   # as calibrated(fit, sd)
    sens = sensitivity_caveat(cfg, fitted=state) if graded and not identical else {}
    alpha = cfg.metrics.get("alpha", 0.05)
    floor = hsd_floor(cfg.B, alpha) is not None   # no pair can be significant: the HSD's counts say nothing
    caveats = {**OWN_CAVEATS, **_cut_caveat(cfg), **sens, **floor_caveat(cfg.B, alpha), **link_caveat(link)}
    state = link_state(link) if simulated_ratings else None
    by_model = state == "unlinked"   # "none" / "few": the link cannot be judged, the rows say so (placebo_sim)
    cut = ("cut",) if any(m in graded for m, _ in cfg.too_deep) else ()   # a gain-blind measure counts in no row
    pick = ("rawg_pick",) if cfg.metrics.get("best_run_by") == "rawg" else ()   # rows on the HSD's team runs
    rows, prose = [], []
    t2_paper, t3_paper = paper_cell(cfg, PAPER_T2, 2), paper_cell(cfg, PAPER_T3_SHARE, 3)
    appendix, app_prose = [], _fit_prose(cfg, fit)
    where = {"stc-like": "the stand-in STC collection", "dl19": "TREC DL 2019 passage"}.get(cfg.dataset, "your files")
    prose.append(f"Data: {where}, {collection['topics']} topics, {collection['runs']} runs from "
                 f"{collection['teams']} teams ({pairs} team pairs); relevance threshold {cfg.theta}.")
    if collection["near_duplicates_across_teams"]:
        prose.append(f"WARNING: {collection['near_duplicates_across_teams']} near-duplicate run pairs cross teams.")
    if not graded:   # one row, so the table answers: the measures cannot see what UG changes
        rows.append(_blind_row(cfg.blind, tau, counts))
    elif identical:   # the paper column says what the paper's tables show, as in every other configuration
        nothing = "UG = RawG on every item of every cell and draw: nothing to test"
        rows += [Finding(RANK_Q, t2_paper, nothing, "not tested"), Finding(SIG_Q, t3_paper, nothing, "not tested")]
        prose.append("UG equals RawG here because p = 0 or every item with RawG > 0 has ratings spanning 0..Dmax.")
    else:
        g = counts[counts["measure"].isin(graded)]
        total, decisions = int(g["discrepancies"].sum()), pairs * len(g)
        if grid is None:   # one draw: its rows, which say the placebo comparison needs replicates
            rows.append(_ranking_row(tau, grid, graded, cut, alpha, t2_paper, placebo))
        if control_tau is None and grid is not None:
            control_tau = _placebo_tau(grid.rep, graded)
        if grid is not None:   # the two placebo comparisons are one family (Holm over 2)
            from ..replicates.unanimity_placebo import holm_family
            control, control_tau = holm_family(control, control_tau)   # at 0.05, whatever the HSD's α
            control, control_tau = ({**c, "run_alpha": alpha} if c is not None else None for c in (control, control_tau))
        # against the placebo: on simulated ratings the rows check the simulation (Appendix A), with the
        # verdict their numbers give; on real ratings they would answer the question
        placebo_rows = [_reorder_row(grid, graded, cut, control_tau, placebo_scope, simulated_ratings)] if grid else []
        paper_rows = [_table2_row(table2, fit, fitted)] if table2 is not None and len(table2) else []
        sig = _significance_rows(grid, total, decisions, reps, graded, cut + pick + tuple(sens), fragile,
                                 t3_paper, placebo, control if grid is not None else None, placebo_scope,
                                 simulated_ratings, floor)
        # the replicates' placebo rows answer both questions; the single draw's rows only without them
        if grid is None:
            rows.append(sig[0])
        placebo_rows += sig[1:]
        if table3_total is not None:
            paper_rows.append(_table3_row(table3_total, fitted, floor))
        placebo_rows = [by_construction(r) if by_model else with_link_caveat(r) if state in ("none", "few") else r
                        for r in placebo_rows]
        if grid is not None and n_lo != n_hi:   # the fade with N follows from the uniform ratings: a check, not a finding
            appendix.append(_n_row(grid, n_lo, n_hi, cut + pick, floor))
        rows[:0] = paper_rows + placebo_rows   # the paper's tables, then UG against its placebo
        if table3_cells is not None and len(table3_cells):
            zero = int((table3_cells["disc_low"] <= 0).sum())
            app_prose.append(f"Per (cell, measure) pair, Table 3's counts lie inside {int(table3_cells['inside'].sum())} of "
                             f"{len(table3_cells)} ranges, but {zero} of them start at 0: that check has little power.")
    app_prose += sensitivity_prose(cfg, table3_total) if graded and not identical else []
    if appendix:
        prose.append("Appendix A's table checks the simulation: " + claims.listing(_checked(appendix)) + ".")
    if off_paper:
        prose.append("The paper's tables are not set against this run: its setting differs in "
                     + claims.listing([o.split(" (")[0].split(" = ")[0] for o in [*off_paper, *partial]]) + ".")
    elif partial and (table2 is not None or table3_total is not None):
        prose.append("The paper's tables are set against the measures and cells this run shares with them only.")
    if real is not None and real[1]:
        _real_rows(rows, prose, real, cfg, real_n, real_d_max, cut, pick, caveats)
        if copies:
            prose.append(f"In the real ratings, {copies}: those ratings are left out, so that person counts once.")
    elif real is None:
        prose.append("Sakai's conjecture needs real ratings: profile `real`, or `ratings_path` with your files.")
    general = ["uniform"] + (["stand_in"] if cfg.dataset == "stc-like" else [])
    rows, appendix = in_letter_order(rows, general), in_letter_order(appendix, ["stand_in"])
    return UnanimityFindings("02_unanimity_evaluation", rows, prose, caveats=caveats, general=general, footer=footer,
                             appendix=tuple(appendix), appendix_prose=tuple(app_prose),
                             answer=answer_sentence(rows, reps, control, grid is not None),
                             no_appendix=_no_appendix(graded, identical, grid is not None))


def in_letter_order(rows: list, general=()) -> list:
    """``rows`` with each row's caveats in the order of their letters (first use over the rows, as
    :meth:`helpers.notebook.findings.Findings.letters`), so a verdict reads "(a, b, c)", never
    "(b, c, a)". The letters themselves do not change: a row's new caveats keep their order, after
    the ones earlier rows used."""
    first = {k: i for i, k in enumerate(dict.fromkeys(k for r in rows for k in r.caveats if k not in general))}
    return [dataclasses.replace(r, caveats=tuple(sorted(r.caveats, key=lambda k: first.get(k, -1))))
            for r in rows]


def _checked(appendix) -> list[str]:
    """What the appendix rows check, in words."""
    t = [n for n in ("2", "3") if any(f"Table {n}" in r.question for r in appendix)]
    out = [f"the stand-in against Table{'s' if len(t) > 1 else ''} {' and '.join(t)}"] if t else []
    out += ["the fade with N"] if any("fade" in r.question for r in appendix) else []
    out += ["UG against a placebo of its size"] if any("placebo" in r.question for r in appendix) else []
    return out


def calibrated(fit: pd.DataFrame | None, sd: float) -> bool:
    """Whether a stand-in run's team-skill sd ``sd`` comes from the fit to Table 2 (``fit``, the
    record of :func:`helpers.replicates.unanimity.calibrate`): one of the spreads the fit tried
    (within 1e-9, :func:`helpers.findings.unanimity_text.fit_state`), not only the one it picked,
    and not a value merely between two of them. Each was set against Table 2's τ (1.05, for one,
    has the smallest RMS gap), so agreement with Table 2 there is by calibration too."""
    return fit_state(fit, sd) in ("picked", "tried")


def _fit_prose(cfg: Settings, fit: pd.DataFrame | None) -> list[str]:
    """Appendix A's bullet on the stand-in's team-skill sd: the fitted one, another the fit tried, or neither."""
    if fit is None:
        return []
    best, sd = fit[fit["best"]].iloc[0], cfg.metrics.get("team_skill_sd", float("nan"))
    state = fit_state(fit, sd)
    if state == "picked":
        return [f"The stand-in's team-skill sd, {sd:g}, is fitted to Table 2: RMS gap {best['rmse']:.4f} over 45 (cell, measure) pairs, "
                f"within one draw's noise ({best['noise_floor']:.4f})."]
    if state == "tried":
        return [f"This run's team-skill sd, {sd:g}, is one of the spreads the fit to Table 2 tried "
                f"({tried_text(fit)}; it picks {best['skill_sd']:g}). Agreement with Table 2 is by calibration at any of them."]
    return [f"This run sets the stand-in's team-skill sd to {sd:g}, not one of the spreads the fit to Table 2 tried "
            f"({tried_text(fit)})."]


@dataclass(frozen=True)
class UnanimityFindings(Findings):
    """Notebook 02's findings with an ``appendix``: the rows that check the simulation, shown in
    Appendix A: the stand-in's fidelity to Tables 2 and 3, and the fade of the effect with N, which
    follows from the independent uniform ratings, whose spread D reaches Dmax ever more often as N
    grows (they answer no question of the paper)."""

    appendix: tuple = ()
    appendix_prose: tuple = ()
    answer: str = ""
    no_appendix: str = "nothing of the simulation to check"

    def appendix_findings(self) -> Findings:
        """The appendix rows as a findings table of their own, with the caveats they point to."""
        return AppendixFindings(self.notebook, self.appendix, self.appendix_prose, caveats=self.caveats,
                         general=[g for g in self.general if g == "stand_in"], title=_APPENDIX_TITLE)

    def show_appendix(self, out=None) -> None:
        """Display the appendix table (saved as ``02_findings_appendix.{csv,tex}`` with ``out``), or
        say why there is none."""
        self.appendix_findings().show_or_say(out, empty=(
            f"no check of the simulation in this run ({self.no_appendix}): no appendix table"))


def _no_appendix(graded, identical: bool, replicated: bool) -> str:
    """Why a run has no appendix row (:meth:`UnanimityFindings.show_appendix`): the rows of
    :func:`findings` need a graded measure with UG ≠ RawG, and then the paper's setting (Tables 2
    and 3) or replicates over more than one N (the fade)."""
    if not graded:
        return "no graded measure: the selected measures cannot see UG's bonus"
    if identical:
        return "UG = RawG on every item: nothing to check"
    return "the paper's tables are not set against it, and it has " + ("one N" if replicated else "one replicate")


def _real_rows(rows: list, prose: list, real: tuple, cfg: Settings, n: int, d_max: int, cut: tuple,
               pick: tuple = (), caveats: dict | None = None) -> None:
    """The premise and conjecture rows of section 6, and what they mean (``caveats`` gains the
    conjecture family's caveat)."""
    premise, conjecture = real[0], real[1]
    caveats = {} if caveats is None else caveats
    rows.append(_premise_row(premise, d_max, n, cfg.real_replicates))
    read = not any(c["nothing"] for c in conjecture.values()) and cfg.real_replicates >= claims.min_draws()
    family = ("conj_family",) if read else ()
    floor = hsd_floor(cfg.B, cfg.metrics.get("alpha", 0.05)) is not None
    from .unanimity_real import conjecture_row

    per = {m: _conjecture_row(m, c, cfg.real_replicates, family + (cut if m in dict(cfg.too_deep) else ()) + pick,
                              floor) for m, c in conjecture.items()}
    rows.append(conjecture_row(per, conjecture, cfg.real_replicates))   # one row; per measure: section 6
    if any(c["nothing"] for c in conjecture.values()):
        return
    if read:   # the power's bounds and reach: docs/02-unanimity-methods.md and section 6's lines
        k = len(conjecture)
        caveats["conj_family"] = (f"The conjecture's {2 * k} tests ({k} measure{'s' if k > 1 else ''} × τ and "
                                  "discrepancies) are uncorrected, with ranges over uniform draws against one real "
                                  "data set.")
    # a power whose bound falls just below the 0.8 threshold is said in section 6's line, not again here
    other = [m for m, c in conjecture.items() if "other way" in (c["tau_part"], c["disc_part"])
             and c["draws"] >= claims.min_draws()]
    if other:
        prose.append(f"For {claims.listing(other)}, a part of the test goes the other way: real ratings change less.")


