"""The analyses of notebook 06 on a multi-assessor pilot: topic-set sizes per measure, and the
empirical check of a D-study's projection on disjoint halves of the pilot.

Conventions
-----------
* A pilot is the long frame of :func:`helpers.design.g_study` (``system, topic, assessor,
  score``); Sakai's methods read its topics x systems matrix of means over each topic's assessors
  (:func:`assessor_means`), i.e. the collection as all its assessors judged it.
* The projection check draws two *disjoint* sets of ``n_topics`` topics (and ``n_assessors`` of
  each topic's assessors; crossed assessors: two disjoint sets) and compares the rankings of the
  systems on the two halves, which is what Urbano et al.'s mappings of Erho2 onto Kendall's tau
  and the rate of major conflicts describe (two collections of that size, SIGIR 2013 Fig. 3).
  The prediction is out of sample: a G-study of the remaining topics, at least as many as a half.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as st

from ..stats.checks import check_rng
from ..stats.summary import interval_bounds
from .dstudy import erho2_interval, gt_map
from .gstudy import g_study, g_study_array, score_array
from .paired import bias_interval, correct_sign_power, difference_variance, power_limit, topics_for_power
from .sakai import bootstrap_variances, check_boot, matrix_variance, pilot_variance, topic_set_size, topic_set_size_interval

__all__ = ["URBANO_ALPHA", "assessor_means", "sizes_by_measure", "sizes_at_assessors", "sizes_against_difference",
           "split_sizes", "split_half_check", "kendall_tau_b",
           "cluster_rate"]

#: The significance level at which Urbano et al. (SIGIR 2013) counted the major conflicts their map
#: of Erho2 was fitted to: the split-half check compares that map at this level only.
URBANO_ALPHA = 0.05


def assessor_means(long: pd.DataFrame, design: str) -> pd.DataFrame:
    """Topics x systems matrix of each system's mean score over each topic's assessors."""
    x, systems, topics, _ = score_array(long, design)
    return pd.DataFrame(x.mean(axis=2).T, index=pd.Index(topics, name="topic"),
                        columns=pd.Index(systems, name="system"))


def _bounds(draws: np.ndarray, level: float) -> tuple[float, float]:
    a = (1 - level) / 2
    return float(np.quantile(draws, a)), float(np.quantile(draws, 1 - a))


def sizes_by_measure(pilots: Mapping[str, pd.DataFrame], design: str, *, alpha: float, beta: float,
                     min_diff: float, width: float, n_systems: int, level: float = 0.95,
                     rng: np.random.Generator | None = None, n_boot: int = 1000) -> pd.DataFrame:
    """Topics needed by each of Sakai's methods for each measure, with two variances side by side.

    * Sakai's: ``sigma_t^2 = 2 V_E1`` (t-test, CI) and ``V_E1`` (one-way ANOVA), approximate
      (``n_approx``) and exact (``n_exact``, interval ``n_exact_low/high``).  V_E1 keeps the
      topic variance, which cancels in a paired difference: conservative (Sakai 2016, Sect. 3) when
      nothing but the topics varies.
    * Paired differences: ``sigma_t^2 = 2 V_E2``, the mean over system pairs of the variance of
      their per-topic differences (an identity of the two-way residual), equal to the G-study's
      ``2 (st + e / n_a)`` at the pilot's assessors; exact (``n_paired``, ``n_paired_low/high``),
      t-test and CI only (the one-way ANOVA does not pair).  In s x t x a the t-test adds the
      bias of the crossed assessors with its interval (:func:`helpers.design.paired.bias_interval`;
      ``None``: unreachable).
    * ``ratio`` = V_E1 / V_E2 with its interval from the same resamples.
    * t-test rows only: ``power_sakai`` (with ``_low``, ``_high``), the power the paired t-test reaches
      at Sakai's ``n_exact`` under 2 V_E2 and the crossed assessors' bias, and ``power_cap`` (with its
      ends), the power no number of topics exceeds (1 without a bias): in s x t x a Sakai's n is not
      conservative when the bias holds the power below 1 - beta.

    With ``rng`` the intervals are the topic bootstrap's (:func:`helpers.design.sakai.bootstrap_variances`);
    without it V_E1's chi^2 interval (too narrow when systems share each topic's difficulty, as IR
    systems do) and no interval for V_E2 or the ratio.
    """
    rows = []
    for measure, long in pilots.items():
        means = assessor_means(long, design)
        e1, e2 = (matrix_variance(means.to_numpy(dtype=float), m)[0] for m in ("E1", "E2"))
        if rng is not None:
            boot = bootstrap_variances(means, rng, check_boot(n_boot))
            v1, v2 = (e1, *_bounds(boot["E1"], level)), (e2, *_bounds(boot["E2"], level))
            ratio = (e1 / e2, *_bounds(boot["E1"] / boot["E2"], level))
        else:
            v1 = (e1, *pilot_variance(means, "E1", level=level).chi2_ci)
            v2, ratio = (e2, np.nan, np.nan), (e1 / e2, np.nan, np.nan)
        g = None if design == "s x t" else g_study(long, design)
        bias = (0.0, 0.0, 0.0) if g is None else bias_interval(g, g.n["a"], level)
        cases = {"paired t": ("t", dict(min_diff=min_diff, beta=beta)),
                 f"ANOVA (m = {n_systems})": ("anova", dict(min_diff=min_diff, beta=beta, n_systems=n_systems)),
                 "CI width": ("ci", dict(width=width))}
        for label, (method, kw) in cases.items():
            approx = topic_set_size_interval(method, v1, alpha=alpha, exact=False, **kw)
            exact = topic_set_size_interval(method, v1, alpha=alpha, exact=True, **kw)
            row = {"measure": measure, "method": label, "V_E1": v1[0], "V_E1_low": v1[1], "V_E1_high": v1[2],
                   "n_approx": approx[0], "n_exact": exact[0], "n_exact_low": exact[1], "n_exact_high": exact[2],
                   "V_E2": v2[0], "V_E2_low": v2[1], "V_E2_high": v2[2]}
            row.update(_paired_sizes(method, v2, bias, alpha=alpha, beta=beta, min_diff=min_diff, width=width))
            row.update(ratio=ratio[0], ratio_low=ratio[1], ratio_high=ratio[2])
            if method == "t":
                row.update(_power_at(exact[0], v2, bias, alpha=alpha, min_diff=min_diff))
            rows.append(row)
    out = pd.DataFrame(rows)
    return out.astype({c: "Int64" for c in ("n_paired", "n_paired_low", "n_paired_high")})


def _power_at(n, v2: tuple, bias: tuple, *, alpha: float, min_diff: float) -> dict:
    """The paired t-test's power at Sakai's ``n`` (from 2 V_E1) under the paired differences' 2 V_E2
    and the crossed assessors' bias (value, low, high each; the interval combines their ends, as
    the interval of n does: high V_E2 and bias give the low power), and the power no n exceeds,
    ``Phi(minD / sqrt(bias2))`` (:func:`helpers.design.paired.power_limit`; 1 without a bias)."""
    def power(v, b):
        ok = n is not None and not pd.isna(n) and np.isfinite(v) and v > 0 and np.isfinite(b)
        return correct_sign_power(int(n), sigma2=v, min_diff=min_diff, bias2=b, alpha=alpha) if ok else np.nan
    return {"power_sakai": power(v2[0], bias[0]), "power_sakai_low": power(v2[2], bias[2]),
            "power_sakai_high": power(v2[1], bias[1]), "power_cap": power_limit(min_diff=min_diff, bias2=bias[0]),
            "power_cap_low": power_limit(min_diff=min_diff, bias2=bias[2]),
            "power_cap_high": power_limit(min_diff=min_diff, bias2=bias[1])}


def _paired_sizes(method: str, v2: tuple, bias: tuple, *, alpha: float, beta: float, min_diff: float,
                  width: float) -> dict:
    """n from the paired-difference variance 2 V_E2 (value, low, high) and, for the t-test, the
    crossed assessors' bias (value, low, high), combined end with end; none for the ANOVA."""
    def one(v, b):
        if not np.isfinite(v) or v <= 0:
            return None
        if method == "t":
            return topics_for_power(sigma2=v, min_diff=min_diff, bias2=b, alpha=alpha, beta=beta)
        return topic_set_size("ci", sigma2=v, width=width, alpha=alpha)
    if method == "anova":
        return {"n_paired": None, "n_paired_low": None, "n_paired_high": None}
    return dict(zip(("n_paired", "n_paired_low", "n_paired_high"), (one(v, b) for v, b in zip(v2, bias))))


def sizes_at_assessors(g, v2: Sequence[float], n_assessors: Sequence[int], *, alpha: float, beta: float,
                       min_diff: float, width: float, level: float = 0.95) -> pd.DataFrame:
    """Paired t-test and CI topics at other numbers of assessors per topic than the pilot's.

    ``v2`` is the pilot's V_E2 (value, low, high: :func:`sizes_by_measure`'s); each is scaled by
    the G-study's ratio ``(st + e / k) / (st + e / n_a)`` (:func:`helpers.design.paired.difference_variance`,
    ``g`` the pilot's :class:`~helpers.design.gstudy.GStudy`), so that at ``k = n_a`` the pilot's
    sizes come back; the bounds keep the bootstrap's relative width (approximate).  In s x t x a
    the t-test adds the crossed assessors' bias at ``k`` (:func:`helpers.design.paired.bias_interval`).
    One row per ``k`` and method (``paired t``, ``CI width``): ``n_assessors, method, V_E2, n_paired,
    n_paired_low, n_paired_high`` (``None``: unreachable) and ``power_cap``, the t-test's power no
    number of topics exceeds at ``k`` (:func:`helpers.design.paired.power_limit`; NaN for the CI).
    """
    base = difference_variance(g.variance, g.design, g.n["a"])
    rows = []
    for k in n_assessors:
        f = difference_variance(g.variance, g.design, int(k)) / base if base > 0 else 1.0
        v = tuple(f * float(x) for x in v2)
        bias = bias_interval(g, int(k), level)
        cap = power_limit(min_diff=min_diff, bias2=bias[0])
        for method, label in (("t", "paired t"), ("ci", "CI width")):
            rows.append({"n_assessors": int(k), "method": label, "V_E2": v[0],
                         **_paired_sizes(method, v, bias, alpha=alpha, beta=beta, min_diff=min_diff, width=width),
                         "power_cap": cap if method == "t" else np.nan})
    out = pd.DataFrame(rows)
    return out.astype({c: "Int64" for c in ("n_paired", "n_paired_low", "n_paired_high")})


def sizes_against_difference(variances: Mapping[str, float], differences: Sequence[float], *,
                             alpha: float, beta: float) -> pd.DataFrame:
    """Paired-t topic-set sizes (approximate and exact) against minD, one row per measure and minD."""
    rows = [{"measure": m, "min_diff": float(d),
             "n_approx": topic_set_size("t", sigma2=v, min_diff=d, alpha=alpha, beta=beta),
             "n_exact": topic_set_size("t", sigma2=v, min_diff=d, alpha=alpha, beta=beta, exact=True)}
            for m, v in variances.items() for d in differences]
    return pd.DataFrame(rows)


def _half(x: np.ndarray, topics: np.ndarray, assessors, design: str, rng: np.random.Generator) -> np.ndarray:
    """Systems x topics means over the half's assessors: ``assessors`` (indices) when crossed,
    else ``k = assessors`` of each topic's own, drawn per topic."""
    if design == "s x (a:t)":
        pick = np.argsort(rng.random((len(topics), x.shape[2])), axis=1)[:, :assessors]
        return x[:, topics[:, None], pick].mean(axis=2)
    return x[:, topics][:, :, assessors].mean(axis=2)


def _p_values(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, two-sided p of the one-sample t-test against 0) of each row of ``d`` (NaN: no spread)."""
    n = d.shape[1]
    mean, sd = d.mean(axis=1), d.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / np.sqrt(n))
    return mean, 2 * st.t.sf(np.abs(t), n - 1)


def _conflicts(a: np.ndarray, b: np.ndarray, alpha: float) -> tuple[int, int]:
    """(significant pairs in half a, of which significant the other way in half b) by paired t."""
    i, j = np.triu_indices(a.shape[0], 1)
    (ma, pa), (mb, pb) = _p_values(a[i] - a[j]), _p_values(b[i] - b[j])
    sig_a = pa < alpha
    other = sig_a & (pb < alpha) & (np.sign(ma) != np.sign(mb))
    return int(sig_a.sum()), int(other.sum())


def kendall_tau_b(a, b) -> float:
    """Kendall's tau-b of two score vectors (as scipy's ``kendalltau``; NaN when one is constant)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    i, j = np.triu_indices(len(a), 1)
    sa, sb = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
    den = np.sqrt(float(np.count_nonzero(sa)) * float(np.count_nonzero(sb)))
    return float((sa * sb).sum() / den) if den > 0 else np.nan


def _predicted_erho2(x: np.ndarray, rest: np.ndarray, design: str, nt: int, k: int,
                     level: float) -> tuple[float, float, float]:
    """Erho2 at nt topics x k assessors, with its interval (Feldt), from the G-study of the
    ``rest`` topics (out of sample)."""
    return erho2_interval(g_study_array(x[:, rest], design), nt, None if design == "s x t" else k, level)


def _maps(erho2) -> dict[str, np.ndarray]:
    """Urbano et al.'s maps (tau, major conflicts) and the normal-theory tau of Erho2 values."""
    e = np.asarray(erho2, dtype=float)
    inside = (e > 0) & (e < 1)
    safe = np.where(inside, e, 0.5)
    edge = lambda at0, at1: np.where(e <= 0, at0, at1)   # noqa: E731  (the maps' limits at 0 and 1)
    return {"tau_predicted": np.where(inside, gt_map("tau", safe), edge(0.0, 1.0)),
            "conflicts_predicted": np.where(inside, gt_map("major", safe), edge(1.0, 0.0)),
            "tau_normal": 2 / np.pi * np.arcsin(np.clip(e, 0, 1))}


def split_sizes(n_topics_all: int, n_assessors_all: int, design: str, n_topics: Sequence[int],
                n_assessors: Sequence[int]) -> tuple[list[int], list[int]]:
    """The split sizes a pilot allows: two disjoint halves of nt topics and at least nt topics
    left to estimate the G-study (3 nt <= topics); k assessors per topic (crossed: 2 k <= assessors,
    so that the halves share no assessor; s x t: k = 1)."""
    nts = [t for t in n_topics if 3 * t <= n_topics_all and t >= 2]
    if design == "s x t":
        return nts, [a for a in n_assessors if a == 1]
    limit = n_assessors_all // 2 if design == "s x t x a" else n_assessors_all
    return nts, [a for a in n_assessors if 1 <= a <= limit]


def split_half_check(long: pd.DataFrame, design: str, n_topics: Sequence[int], n_assessors: Sequence[int],
                     rng: np.random.Generator, *, draws: int = 50, alpha: float = 0.05,
                     level: float = 0.95) -> pd.DataFrame:
    """Observed vs predicted stability on disjoint halves of the pilot (module docstring).

    Each draw splits the topics into two halves of ``nt`` (A, B) and the rest (at least ``nt``,
    :func:`split_sizes`); the G-study of the rest predicts, out of sample, Erho2 at ``nt`` topics x
    ``k`` assessors, mapped onto Kendall's tau and the rate of major conflicts by Urbano et al.'s
    fits (:func:`helpers.design.gt_map`) and onto tau by the normal-theory relation
    ``tau = (2/pi) arcsin(Erho2)`` (Greiner's relation for bivariate normal scores: Erho2 is the
    correlation of two parallel halves).  Observed: tau between the systems' means on A and B, and
    the major conflicts (pairs significant by paired t in A and significant the other way in B, per
    pair significant in A).  Every pair of systems is tested in each half at ``alpha``, with no
    correction for multiple testing (``tests``: the paired t-tests run at a size, 2 halves x pairs x
    draws), as Urbano et al. count conflicts.  Crossed assessors: A and B take disjoint sets of k.

    Columns per size: ``erho2`` (``_low``, ``_high``: Feldt's interval at the rest's size) and
    each prediction with the interval its Erho2 interval maps onto, averaged over draws;
    ``tau_observed`` (mean over draws) with the ``level`` interval (or range) of single splits
    (``tau_low``, ``tau_high``) and its Monte Carlo standard error ``tau_se``; the conflicts pooled
    over draws with a draw-level (cluster) interval and SE (``conflicts_se``).  A prediction holds
    at a size when the observed mean lies inside the predicted interval.
    Predictions average over the splits whose G-study gives an interval (``no_interval`` counts
    the others: crossed pilots whose Satterthwaite mean square is not positive).
    """
    rng = check_rng(rng, "split_half_check")
    x, *_ = score_array(long, design)
    nt_all, na_all = x.shape[1], x.shape[2]
    ok_t, ok_a = split_sizes(nt_all, na_all, design, n_topics, n_assessors)
    bad = [(t, a) for t in n_topics for a in n_assessors if t not in ok_t or a not in ok_a]
    if bad:
        raise ValueError(f"split sizes {bad} do not fit the pilot ({nt_all} topics x {na_all} assessors, {design}): "
                         "two halves of nt topics need 3 nt topics (the rest estimates the G-study)"
                         + ("; crossed halves need 2 k assessors" if design == "s x t x a" else ""))
    rows = []
    for nt in n_topics:
        for k in n_assessors:
            rows.append(_one_size(x, design, nt, k, rng, draws=draws, alpha=alpha, level=level))
    return pd.DataFrame(rows)


def _one_size(x: np.ndarray, design: str, nt: int, k: int, rng: np.random.Generator, *, draws: int,
              alpha: float, level: float) -> dict:
    taus, pred, sig, other = np.empty(draws), np.empty((draws, 3)), np.zeros(draws), np.zeros(draws)
    for r in range(draws):
        order = rng.permutation(x.shape[1])
        if design == "s x t x a":
            who = rng.permutation(x.shape[2])
            pa, pb = who[:k], who[k:2 * k]
        else:
            pa = pb = k if design == "s x (a:t)" else np.arange(1)
        a = _half(x, order[:nt], pa, design, rng)
        b = _half(x, order[nt:2 * nt], pb, design, rng)
        taus[r] = kendall_tau_b(a.mean(axis=1), b.mean(axis=1))
        pred[r] = _predicted_erho2(x, order[2 * nt:], design, nt, k, level)
        sig[r], other[r] = _conflicts(a, b, alpha)
    lo, hi, _ = interval_bounds(taus, level)
    # predictions average over the splits whose G-study has an interval (a crossed pilot's may not:
    # helpers.design.dstudy), so that each point is averaged over the same splits as its bounds
    defined = ~np.isnan(pred[:, 1])
    use = pred[defined] if defined.any() else pred
    row = {"n_topics": nt, "n_assessors": k, "rest": x.shape[1] - 2 * nt,
           "erho2": float(use[:, 0].mean()), "erho2_low": float(use[:, 1].mean()),
           "erho2_high": float(use[:, 2].mean()),
           "tau_observed": float(np.nanmean(taus)), "tau_se": _se(taus), "tau_low": lo, "tau_high": hi}
    maps = [_maps(use[:, i]) for i in range(3)]                  # at the estimate, the lower, the upper bound
    for key in ("tau_predicted", "tau_normal", "conflicts_predicted"):
        ends = sorted(float(maps[i][key].mean()) for i in (1, 2))  # the conflicts map decreases in Erho2
        if not defined.any():
            ends = [np.nan, np.nan]
        row.update({key: float(maps[0][key].mean()), f"{key}_low": ends[0], f"{key}_high": ends[1]})
    rate, c_se, c_lo, c_hi = cluster_rate(other, sig, level)
    pairs = x.shape[0] * (x.shape[0] - 1) // 2
    row.update({"conflicts_observed": rate, "conflicts_se": c_se, "conflicts_low": c_lo, "conflicts_high": c_hi,
                "significant_pairs": int(sig.sum()), "tests": 2 * pairs * draws, "draws": draws,
                "no_interval": int((~defined).sum())})
    return row


def _se(v: np.ndarray) -> float:
    """Monte Carlo standard error of the mean of ``v`` over draws (NaN draws left out)."""
    v = v[np.isfinite(v)]
    return float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else np.nan


def cluster_rate(other: np.ndarray, sig: np.ndarray, level: float = 0.95) -> tuple[float, float, float, float]:
    """(rate, standard error, low, high) of the pooled rate ``sum(other) / sum(sig)`` with the draw
    as the cluster: a draw's tests share its topics, so a binomial interval over the pooled tests
    would be too narrow (also the power over simulated pilots, each pilot's tests at its own n).  Ratio estimator's linearised SE over draws, normal interval clipped to
    [0, 1]; NaN without a significant pair."""
    n, total = len(sig), float(sig.sum())
    if total == 0:
        return np.nan, np.nan, np.nan, np.nan
    rate = float(other.sum()) / total
    if n < 2:
        return rate, np.nan, np.nan, np.nan
    se = float(np.sqrt(((other - rate * sig) ** 2).sum() / (n * (n - 1))) / (total / n))
    z = st.norm.isf((1 - level) / 2)
    return rate, se, max(0.0, rate - z * se), min(1.0, rate + z * se)
