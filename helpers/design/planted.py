"""Planted truth for study design: scores simulated from known variance components, and the
replicated checks of notebook 06 (study functions for :func:`helpers.replicates.run_replicates`).

The model is the random-effects model of the design (Brennan 2001, ch. 3-4): every effect is
normal with mean 0 and the planted variance, independent of the others, plus a grand mean.  Under
it Feldt's interval is exact for s x t and for s x (a:t) at the observed number of assessors, so
the coverage of the interval on the topics needed is a check of the machinery, not of IR data.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats as st

from ..stats.checks import check_rng
from .dstudy import topics_needed
from .gstudy import COMPONENTS, DESIGNS, GStudy, g_study_array
from .sakai import topic_set_size

__all__ = ["planted_g", "simulate_array", "simulate_scores", "pilot_coverage", "power_reached",
           "recommended_topics", "planted_check"]


def _check_variance(variance: Mapping[str, float], design: str) -> dict[str, float]:
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
    want = COMPONENTS[design]
    extra = sorted(set(variance) - set(want))
    missing = [k for k in want if k not in variance]
    if extra or missing:
        raise ValueError(f"design {design!r} has the components {list(want)}; "
                         f"missing {missing}, unknown {extra}")
    out = {k: float(variance[k]) for k in want}
    bad = [k for k, v in out.items() if not (np.isfinite(v) and v >= 0)]
    if bad:
        raise ValueError(f"variance components must be finite and >= 0; {bad} are not")
    return out


def planted_g(variance: Mapping[str, float], design: str, n_systems: int, n_topics: int,
              n_assessors: int = 1) -> GStudy:
    """A GStudy holding the planted components and their expected mean squares (the truth)."""
    v = _check_variance(variance, design)
    ns, nt, na = n_systems, n_topics, (1 if design == "s x t" else n_assessors)
    if design == "s x t":
        ms = {"s": v["st"] + nt * v["s"], "t": v["st"] + ns * v["t"], "st": v["st"]}
        df = {"s": ns - 1, "t": nt - 1, "st": (ns - 1) * (nt - 1)}
    elif design == "s x (a:t)":
        e = v["sa:t"]
        ms = {"s": e + na * v["st"] + nt * na * v["s"], "t": e + na * v["st"] + ns * v["a:t"] + ns * na * v["t"],
              "a:t": e + ns * v["a:t"], "st": e + na * v["st"], "sa:t": e}
        df = {"s": ns - 1, "t": nt - 1, "a:t": nt * (na - 1), "st": (ns - 1) * (nt - 1),
              "sa:t": (ns - 1) * nt * (na - 1)}
    else:
        e = v["sta"]
        ms = {"s": e + na * v["st"] + nt * v["sa"] + nt * na * v["s"],
              "t": e + na * v["st"] + ns * v["ta"] + ns * na * v["t"],
              "a": e + nt * v["sa"] + ns * v["ta"] + ns * nt * v["a"],
              "st": e + na * v["st"], "sa": e + nt * v["sa"], "ta": e + ns * v["ta"], "sta": e}
        df = {"s": ns - 1, "t": nt - 1, "a": na - 1, "st": (ns - 1) * (nt - 1), "sa": (ns - 1) * (na - 1),
              "ta": (nt - 1) * (na - 1), "sta": (ns - 1) * (nt - 1) * (na - 1)}
    return GStudy(design, {"s": ns, "t": nt, "a": na}, ms, df, v, {},
                  tuple(f"s{i + 1}" for i in range(ns)), tuple(f"t{i + 1}" for i in range(nt)))


def simulate_array(variance: Mapping[str, float], design: str, n_systems: int, n_topics: int,
                   n_assessors: int, rng: np.random.Generator, *, mean: float = 0.0,
                   system_effects: np.ndarray | None = None) -> np.ndarray:
    """A systems x topics x assessors array from the random-effects model of ``design``.

    ``system_effects`` (length n_systems) replaces the drawn system effects (e.g. two systems
    ``min_diff`` apart for a power check).
    """
    v = _check_variance(variance, design)
    rng = check_rng(rng, "simulate_array")
    ns, nt, na = n_systems, n_topics, (1 if design == "s x t" else n_assessors)
    sd = {k: np.sqrt(val) for k, val in v.items()}
    shape = {"s": (ns, 1, 1), "t": (1, nt, 1), "a": (1, 1, na), "st": (ns, nt, 1), "sa": (ns, 1, na),
             "ta": (1, nt, na), "sta": (ns, nt, na), "a:t": (1, nt, na), "sa:t": (ns, nt, na)}
    x = np.full((ns, nt, na), float(mean))
    for k in COMPONENTS[design]:
        if k == "s" and system_effects is not None:
            eff = np.asarray(system_effects, dtype=float)
            if eff.shape != (ns,):
                raise ValueError(f"system_effects must have length n_systems = {ns}, got shape {eff.shape}")
            x = x + eff[:, None, None]
            continue
        x = x + sd[k] * rng.standard_normal(shape[k])
    return x


def simulate_scores(variance: Mapping[str, float], design: str, n_systems: int, n_topics: int,
                    n_assessors: int, rng: np.random.Generator, *, mean: float = 0.0) -> pd.DataFrame:
    """Simulated scores as the long frame of :func:`g_study` (``system, topic, assessor, score``);
    nested assessors are labelled per topic (``t3a1``), crossed ones globally (``a1``)."""
    x = simulate_array(variance, design, n_systems, n_topics, n_assessors, rng, mean=mean)
    ns, nt, na = x.shape
    s, t, a = np.meshgrid(np.arange(ns), np.arange(nt), np.arange(na), indexing="ij")
    sys_ = np.array([f"s{i + 1}" for i in range(ns)])[s.ravel()]
    top = np.array([f"t{i + 1}" for i in range(nt)])[t.ravel()]
    ass = (np.char.add(np.char.add(top, "a"), (a.ravel() + 1).astype(str)) if design == "s x (a:t)"
           else np.char.add("a", (a.ravel() + 1).astype(str)))
    return pd.DataFrame({"system": sys_, "topic": top, "assessor": ass, "score": x.ravel()})


def pilot_coverage(rng: np.random.Generator, *, variance: Mapping[str, float], design: str,
                   n_systems: int, n_topics: int, n_assessors: int, target: float,
                   coefficient: str = "erho2", plan_assessors: int | None = None,
                   level: float = 0.95) -> dict:
    """One simulated pilot: the topics needed with its interval, and whether it covers the truth.

    Returns one row: ``n`` (estimate), ``low``, ``high``, ``true_n`` (from the planted
    components; ``None`` when unreachable) and ``covered`` (``low <= true_n <= high``; an unbounded
    end counts as covering, and an unreachable truth is covered by an unbounded upper end only).
    """
    x = simulate_array(variance, design, n_systems, n_topics, n_assessors, rng)
    g = g_study_array(x, design)
    na = None if design == "s x t" else (plan_assessors or n_assessors)
    need = topics_needed(g, target, coefficient, na, level)
    truth = topics_needed(planted_g(variance, design, n_systems, n_topics, n_assessors),
                          target, coefficient, na, level).n
    lo, hi = need.ci
    if truth is None:                 # unreachable with these assessors: covered by an unbounded end
        covered = hi is None
    else:
        covered = (lo is None or lo <= truth) and (hi is None or truth <= hi)
    return {"n": need.n, "low": lo, "high": hi, "true_n": truth, "covered": bool(covered)}


def power_reached(rng: np.random.Generator, *, variance: Mapping[str, float], design: str, n_topics: int,
                  n_assessors: int, min_diff: float, alpha: float = 0.05, experiments: int = 200) -> dict:
    """Rejections of the paired t-test in ``experiments`` simulated collections of ``n_topics``.

    Two systems ``min_diff`` apart; each system's score on a topic is its mean over the topic's
    ``n_assessors`` assessors.  The per-topic difference is simulated directly: the effects
    shared by both systems (t, a, ta, a:t) cancel in it, ``st`` and the error (``sa:t``, ``sta``)
    do not, and in s x t x a the system x assessor effects ``sa`` add a difference constant over
    the topics of one experiment.
    """
    v = _check_variance(variance, design)
    rng = check_rng(rng, "power_reached")
    na = 1 if design == "s x t" else n_assessors
    e = {"s x t": 0.0, "s x (a:t)": v.get("sa:t", 0.0), "s x t x a": v.get("sta", 0.0)}[design]
    sd_topic = np.sqrt(2 * (v["st"] + e / na))
    d = min_diff + sd_topic * rng.standard_normal((experiments, n_topics))
    if design == "s x t x a":
        d = d + np.sqrt(2 * v["sa"] / na) * rng.standard_normal((experiments, 1))
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / np.sqrt(n_topics))
    p = 2 * st.t.sf(np.abs(t), n_topics - 1)
    return {"rejections": int((p < alpha).sum()), "experiments": int(experiments)}


def recommended_topics(variance: Mapping[str, float], design: str, n_assessors: int, *, min_diff: float,
                       alpha: float = 0.05, beta: float = 0.20, exact: bool = True) -> int:
    """Topics for the paired t-test from the planted components (``sigma_t^2 = 2 (st + e/n_a)``)."""
    v = _check_variance(variance, design)
    e = {"s x t": 0.0, "s x (a:t)": v.get("sa:t", 0.0), "s x t x a": v.get("sta", 0.0)}[design]
    na = 1 if design == "s x t" else n_assessors
    return topic_set_size("t", sigma2=v["st"] + e / na, min_diff=min_diff, alpha=alpha, beta=beta,
                          exact=exact)


def planted_check(rng: np.random.Generator, *, variance: Mapping[str, float], design: str, n_systems: int,
                  n_topics: int, n_assessors: int, target: float, min_diff: float, power_topics: int,
                  alpha: float = 0.05, experiments: int = 20, level: float = 0.95) -> dict:
    """One replicate of notebook 06's planted-truth check: a simulated pilot and its interval on
    the topics needed for Erho2 >= ``target`` (:func:`pilot_coverage`), and ``experiments``
    paired t-tests at ``power_topics`` topics (:func:`power_reached`)."""
    row = pilot_coverage(rng, variance=variance, design=design, n_systems=n_systems, n_topics=n_topics,
                         n_assessors=n_assessors, target=target, level=level)
    row.update(power_reached(rng, variance=variance, design=design, n_topics=power_topics,
                             n_assessors=n_assessors, min_diff=min_diff, alpha=alpha, experiments=experiments))
    return row
