"""Planted truth for study design: scores simulated from known variance components, and the
replicated checks of notebook 06 (study functions for :func:`helpers.replicates.run_replicates`).

The model is the random-effects model of the design (Brennan 2001, ch. 3-4): every effect is
normal with mean 0 and the planted variance, independent of the others, plus a grand mean.  Under
it Feldt's interval is exact for s x t and for s x (a:t) at the observed number of assessors, so
the coverage of the interval on the topics needed is a check of the machinery under the model
the interval assumes, not of IR data (bounded, skewed scores are not normal).  The power check is
one that can fail: each simulated pilot *estimates* its variance and recommends its own n, and
the power is then reached (or not) by t-tests simulated at that n from the planted components.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats as st

from ..stats.checks import check_rng
from .dstudy import topics_needed
from .gstudy import COMPONENTS, DESIGNS, GStudy, g_study_array
from .paired import bias_interval, bias_variance, difference_variance, topics_for_power
from .sakai import bootstrap_variances, check_boot, matrix_variance, topic_set_size

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


def _coverage(g: GStudy, v: dict, target: float, level: float, n_systems: int, n_topics: int,
              n_assessors: int, coefficient: str = "erho2", plan_assessors: int | None = None) -> dict:
    na = None if g.design == "s x t" else (plan_assessors or n_assessors)
    need = topics_needed(g, target, coefficient, na, level)
    truth = topics_needed(planted_g(v, g.design, n_systems, n_topics, n_assessors),
                          target, coefficient, na, level).n
    lo, hi = need.ci
    # an unreachable truth has no coverage to check (an unbounded upper end would cover it by definition)
    covered = None if truth is None else bool((lo is None or lo <= truth) and (hi is None or truth <= hi))
    return {"n": need.n, "low": lo, "high": hi, "true_n": truth, "covered": covered}


def pilot_coverage(rng: np.random.Generator, *, variance: Mapping[str, float], design: str,
                   n_systems: int, n_topics: int, n_assessors: int, target: float,
                   coefficient: str = "erho2", plan_assessors: int | None = None,
                   level: float = 0.95) -> dict:
    """One simulated pilot: the topics needed with its interval, and whether it covers the truth.

    Returns one row: ``n`` (estimate), ``low``, ``high``, ``true_n`` (from the planted
    components; ``None`` when unreachable) and ``covered`` (``low <= true_n <= high``, an
    unbounded end counting as covering; ``None`` when the truth is unreachable: an unbounded upper
    end would cover it by definition, so there is nothing to check).
    """
    v = _check_variance(variance, design)
    x = simulate_array(v, design, n_systems, n_topics, n_assessors, rng)
    return _coverage(g_study_array(x, design), v, target, level, n_systems, n_topics, n_assessors,
                     coefficient, plan_assessors)


def power_reached(rng: np.random.Generator, *, variance: Mapping[str, float], design: str, n_topics: int,
                  n_assessors: int, min_diff: float, alpha: float = 0.05, experiments: int = 200) -> dict:
    """Paired t-tests in ``experiments`` collections of ``n_topics`` simulated from the components.

    Two systems ``min_diff`` apart; each system's score on a topic is its mean over the topic's
    ``n_assessors`` assessors.  The per-topic difference is simulated directly: the effects
    shared by both systems (t, a, ta, a:t) cancel in it, ``st`` and the error (``sa:t``, ``sta``)
    do not, and in s x t x a the system x assessor effects ``sa`` add a difference constant over
    the topics of one experiment (:mod:`helpers.design.paired`).  ``rejections`` counts the tests
    significant in the direction of the true difference, ``wrong_sign`` those significant the
    other way (not power: errors).
    """
    v = _check_variance(variance, design)
    rng = check_rng(rng, "power_reached")
    na = 1 if design == "s x t" else n_assessors
    sd_topic = np.sqrt(2 * difference_variance(v, design, na))
    d = min_diff + sd_topic * rng.standard_normal((experiments, n_topics))
    if design == "s x t x a":
        d = d + np.sqrt(bias_variance(v, design, na)) * rng.standard_normal((experiments, 1))
    mean = d.mean(axis=1)
    t = mean / (d.std(axis=1, ddof=1) / np.sqrt(n_topics))
    p = 2 * st.t.sf(np.abs(t), n_topics - 1)
    return {"rejections": int(((p < alpha) & (mean > 0)).sum()),
            "wrong_sign": int(((p < alpha) & (mean < 0)).sum()), "experiments": int(experiments)}


def recommended_topics(variance: Mapping[str, float], design: str, n_assessors: int, *, min_diff: float,
                       alpha: float = 0.05, beta: float = 0.20, exact: bool = True) -> int | None:
    """Topics for the paired t-test from the planted components (:func:`helpers.design.paired.topics_for_power`:
    ``sigma2 = st + e/n_a``, and in s x t x a the bias ``2 sa / n_a``); ``None`` when no number of
    topics reaches the power (crossed assessors whose bias is too large)."""
    v = _check_variance(variance, design)
    na = 1 if design == "s x t" else n_assessors
    return topics_for_power(sigma2=difference_variance(v, design, na), min_diff=min_diff,
                            bias2=bias_variance(v, design, na), alpha=alpha, beta=beta, exact=exact)


def _pilot_t_sizes(x: np.ndarray, g: GStudy, rng: np.random.Generator, *, min_diff: float, alpha: float,
                   beta: float, n_boot: int, level: float) -> dict:
    """What the pilot recommends for the paired t-test: from 2 V_E2 of the assessor means (the
    paired-difference variance; its topic bootstrap interval gives the interval of n) with the
    pilot's own estimate of the crossed bias and its interval (:func:`helpers.design.paired.bias_interval`,
    combined at the ends), and from Sakai's 2 V_E1."""
    means = x.mean(axis=2).T                                  # topics x systems
    bias = bias_interval(g, g.n["a"], level)                  # (0, 0, 0) unless crossed
    boot = bootstrap_variances(means, rng, check_boot(n_boot))
    a = (1 - level) / 2
    e2 = [float(v) for v in (matrix_variance(means, "E2")[0], *np.quantile(boot["E2"], [a, 1 - a]))]
    kw = dict(min_diff=min_diff, alpha=alpha, beta=beta)
    n, lo, hi = (topics_for_power(sigma2=v, bias2=b, **kw) if v > 0 else 2 for v, b in zip(e2, bias))
    sakai = topic_set_size("t", sigma2=matrix_variance(means, "E1")[0], min_diff=min_diff, alpha=alpha, beta=beta,
                           exact=True)
    return {"t_n": n, "t_low": lo, "t_high": hi, "sakai_n": sakai}


def planted_check(rng: np.random.Generator, *, variance: Mapping[str, float], design: str, n_systems: int,
                  n_topics: int, n_assessors: int, target: float, min_diff: float, alpha: float = 0.05,
                  beta: float = 0.20, experiments: int = 20, level: float = 0.95, n_boot: int = 200) -> dict:
    """One replicate of notebook 06's planted-truth check, on one simulated pilot.

    * Eρ²: the pilot's interval on the topics needed for ``target`` (Feldt) and whether it covers
      the planted truth (:func:`pilot_coverage`'s columns ``n, low, high, true_n, covered``).
    * The paired t-test: the n the *pilot* recommends (2 V_E2 of its assessor means, as the
      notebook's sizing table; ``t_n``) with the interval from the topic bootstrap
      (``t_low, t_high``), the planted truth ``t_true`` (:func:`recommended_topics`) and
      ``t_covered``; then ``experiments`` t-tests simulated from the planted components at the
      pilot's ``t_n`` (``rejections``, ``wrong_sign``, ``experiments``) and at Sakai's n from
      2 V_E1 (``sakai_n``, ``sakai_rejections``, ``sakai_experiments``).  A pilot whose n is unreachable runs no test.
    """
    v = _check_variance(variance, design)
    rng = check_rng(rng, "planted_check")
    x = simulate_array(v, design, n_systems, n_topics, n_assessors, rng)
    g = g_study_array(x, design)
    row = _coverage(g, v, target, level, n_systems, n_topics, n_assessors)
    row.update(_pilot_t_sizes(x, g, rng, min_diff=min_diff, alpha=alpha, beta=beta, n_boot=n_boot, level=level))
    truth = recommended_topics(v, design, n_assessors, min_diff=min_diff, alpha=alpha, beta=beta)
    lo, hi = row["t_low"], row["t_high"]
    row["t_true"] = truth
    row["t_covered"] = (None if truth is None else bool((lo is None or lo <= truth) and (hi is None or truth <= hi)))
    tests = dict(variance=v, design=design, n_assessors=n_assessors, min_diff=min_diff, alpha=alpha,
                 experiments=experiments)
    if row["t_n"] is None:
        row.update(rejections=0, wrong_sign=0, experiments=0)
    else:
        row.update(power_reached(rng, n_topics=row["t_n"], **tests))
    sakai = power_reached(rng, n_topics=row["sakai_n"], **tests)
    row.update(sakai_rejections=sakai["rejections"], sakai_experiments=sakai["experiments"])
    return row
