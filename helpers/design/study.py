"""The analyses of notebook 06 on a multi-assessor pilot: topic-set sizes per measure, and the
empirical check of a D-study's projection on disjoint halves of the pilot.

Conventions
-----------
* A pilot is the long frame of :func:`helpers.design.g_study` (``system, topic, assessor,
  score``); Sakai's methods read its topics x systems matrix of means over each topic's assessors
  (:func:`assessor_means`), i.e. the collection as all its assessors judged it.
* The projection check draws two *disjoint* sets of ``n_topics`` topics (and ``n_assessors`` of
  each topic's assessors) and compares the rankings of the systems on the two halves, which is
  what Urbano et al.'s mappings of Erho2 onto Kendall's tau and the rate of major conflicts
  describe (two collections of that size, SIGIR 2013 Fig. 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as st

from ..stats.checks import check_rng
from .dstudy import d_study, gt_map
from .gstudy import GStudy, score_array
from .sakai import pilot_variance, topic_set_size, topic_set_size_interval

__all__ = ["assessor_means", "sizes_by_measure", "sizes_against_difference", "split_half_check"]


def assessor_means(long: pd.DataFrame, design: str) -> pd.DataFrame:
    """Topics x systems matrix of each system's mean score over each topic's assessors."""
    x, systems, topics, _ = score_array(long, design)
    return pd.DataFrame(x.mean(axis=2).T, index=pd.Index(topics, name="topic"),
                        columns=pd.Index(systems, name="system"))


def sizes_by_measure(pilots: Mapping[str, pd.DataFrame], design: str, *, alpha: float, beta: float,
                     min_diff: float, width: float, n_systems: int, level: float = 0.95,
                     rng: np.random.Generator | None = None, n_boot: int = 1000) -> pd.DataFrame:
    """Topics needed by each of Sakai's methods for each measure, approximate and exact, with the
    interval of n carried over from an interval of V_E1 (one row per measure and method).

    With ``rng`` the interval of V_E1 is the topic bootstrap's; without it the chi^2 interval,
    which counts ``m (n - 1)`` independent deviations and is too narrow when the systems share
    each topic's difficulty (as IR systems do).
    """
    rows = []
    for measure, long in pilots.items():
        pv = pilot_variance(assessor_means(long, design), "E1", level=level, rng=rng, n_boot=n_boot)
        ci = pv.boot_ci if rng is not None else pv.chi2_ci
        pv = (pv.value, *ci)
        cases = {"paired t": ("t", dict(min_diff=min_diff, beta=beta)),
                 f"ANOVA (m = {n_systems})": ("anova", dict(min_diff=min_diff, beta=beta, n_systems=n_systems)),
                 "CI width": ("ci", dict(width=width))}
        for label, (method, kw) in cases.items():
            approx = topic_set_size_interval(method, pv, alpha=alpha, exact=False, **kw)
            exact = topic_set_size_interval(method, pv, alpha=alpha, exact=True, **kw)
            rows.append({"measure": measure, "method": label, "V_E1": pv[0], "V_E1_low": pv[1],
                         "V_E1_high": pv[2], "n_approx": approx[0], "n_exact": exact[0],
                         "n_exact_low": exact[1], "n_exact_high": exact[2]})
    return pd.DataFrame(rows)


def sizes_against_difference(variances: Mapping[str, float], differences: Sequence[float], *,
                             alpha: float, beta: float) -> pd.DataFrame:
    """Paired-t topic-set sizes (approximate and exact) against minD, one row per measure and minD."""
    rows = [{"measure": m, "min_diff": float(d),
             "n_approx": topic_set_size("t", sigma2=v, min_diff=d, alpha=alpha, beta=beta),
             "n_exact": topic_set_size("t", sigma2=v, min_diff=d, alpha=alpha, beta=beta, exact=True)}
            for m, v in variances.items() for d in differences]
    return pd.DataFrame(rows)


def _half(x: np.ndarray, topics: np.ndarray, k: int, design: str, rng: np.random.Generator) -> np.ndarray:
    """Systems x topics means over k assessors (drawn per topic when nested, once when crossed)."""
    na = x.shape[2]
    if design == "s x (a:t)":
        pick = np.argsort(rng.random((len(topics), na)), axis=1)[:, :k]
        sub = x[:, topics[:, None], pick]
    else:
        sub = x[:, topics][:, :, rng.choice(na, k, replace=False)]
    return sub.mean(axis=2)


def _conflicts(a: np.ndarray, b: np.ndarray, alpha: float) -> tuple[int, int]:
    """(significant pairs in half a, of which significant the other way in half b) by paired t."""
    ns = a.shape[0]
    i, j = np.triu_indices(ns, 1)
    da, db = a[i] - a[j], b[i] - b[j]
    pa, pb = st.ttest_1samp(da, 0, axis=1).pvalue, st.ttest_1samp(db, 0, axis=1).pvalue
    sig_a = pa < alpha
    other = sig_a & (pb < alpha) & (np.sign(da.mean(axis=1)) != np.sign(db.mean(axis=1)))
    return int(sig_a.sum()), int(other.sum())


def split_half_check(long: pd.DataFrame, g: GStudy, n_topics: Sequence[int], n_assessors: Sequence[int],
                     rng: np.random.Generator, *, draws: int = 50, alpha: float = 0.05) -> pd.DataFrame:
    """Observed vs predicted stability on disjoint halves of the pilot (module docstring).

    For each (n_topics, n_assessors): the mean Kendall tau between the systems' orders on the two
    halves and the rate of major conflicts (pairs significant in one half and significant the
    other way in the other, per pair significant in the first), over ``draws`` draws; predicted:
    Urbano et al.'s maps of the D-study's Erho2 at that size (:func:`helpers.design.gt_map`).
    """
    rng = check_rng(rng, "split_half_check")
    x, *_ = score_array(long, g.design)
    nt_all, na_all = x.shape[1], x.shape[2]
    rows = []
    for nt in n_topics:
        for k in n_assessors:
            if 2 * nt > nt_all or k > na_all or (g.design == "s x t" and k != 1):
                raise ValueError(f"a split half of {nt} topics x {k} assessors needs {2 * nt} topics and "
                                 f"{k} assessors; the pilot has {nt_all} x {na_all}")
            taus, sig, other = [], 0, 0
            for _ in range(draws):
                order = rng.permutation(nt_all)
                a = _half(x, order[:nt], k, g.design, rng)
                b = _half(x, order[nt:2 * nt], k, g.design, rng)
                taus.append(st.kendalltau(a.mean(axis=1), b.mean(axis=1))[0])
                s, o = _conflicts(a, b, alpha)
                sig, other = sig + s, other + o
            erho2 = d_study(g, nt, None if g.design == "s x t" else k).erho2
            ok = 0 < erho2 < 1
            rows.append({"n_topics": nt, "n_assessors": k, "erho2": erho2,
                         "tau_observed": float(np.nanmean(taus)), "tau_low": float(np.nanquantile(taus, .025)),
                         "tau_high": float(np.nanquantile(taus, .975)), "tau_predicted": gt_map("tau", erho2) if ok else np.nan,
                         "conflicts_observed": other / sig if sig else np.nan,
                         "conflicts_predicted": gt_map("major", erho2) if ok else np.nan,
                         "significant_pairs": sig, "draws": draws})
    return pd.DataFrame(rows)
