"""Topic-set-size design (Sakai, IRJ 19(3):256-283, 2016; "Laboratory Experiments in Information
Retrieval", Springer 2018, ch. 6-7): the pilot variance and the number of topics a test needs.

Conventions
-----------
* A pilot is a topics x runs score matrix of one measure (rows topics, columns runs), as
  :func:`helpers.measures.to_matrix` returns it.
* ``sigma2`` is the within-system variance sigma^2 (:func:`pilot_variance`, ``V_E1`` by default).
  The paired t-test and the paired CI use ``sigma_t^2 = 2 sigma^2``, the variance of a per-topic
  difference of two systems when their covariance is ignored (Sakai 2016, Sect. 3: conservative);
  the unpaired methods and the one-way ANOVA use ``sigma^2`` itself.
* ``exact=False`` is Sakai's approximation (his Excel sheets and published tables), ``exact=True``
  the noncentral t / F power (what statsmodels' ``TTestPower``, ``TTestIndPower`` and
  ``FTestAnovaPower`` compute; their ``nobs`` of the ANOVA is the total over the m groups, ours is
  per group, i.e. the number of topics).  The CI method has no approximation to replace: its width
  uses the exact expectation of the sample standard deviation, so ``exact`` does not change it.
* The answer is always the *smallest* n whose (approximate or exact) power reaches ``1 - beta``
  (or whose expected CI width is at most ``width``): Sakai's starting values (the normal
  approximation; Nagata's lambda for the ANOVA) only start the search, which goes down as well as
  up (Sakai's ANOVA table for m = 2 starts at 676 and answers 614).
* Tests are two-sided at level ``alpha``; ``min_diff`` is the smallest difference worth detecting
  (the t-tests: between two systems; the ANOVA: between the best and the worst of ``n_systems``,
  Sakai's worst case ``Delta = min_diff^2 / (2 sigma^2)``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st
from scipy.special import gammaln

from ..stats.checks import check_level, check_rng, score_matrix
from .resample import topic_resamples

__all__ = ["METHODS", "VARIANCES", "PilotVariance", "pilot_variance", "bootstrap_variances", "matrix_variance",
           "smallest_n", "topic_set_size",
           "topic_set_size_interval", "power", "sizes_table"]

#: Sakai's three methods: paired/unpaired t-test, one-way ANOVA, CI width.
METHODS = ("t", "anova", "ci")
#: The pilot variances: V_E1 within-system (Sakai 2016), V_E2 two-way residual (ES_HSD's denominator).
VARIANCES = ("E1", "E2")
#: Nagata's lambda~ = x1 + x2 sqrt(m - 1) for alpha = .05, beta = .20 (Sakai 2018, Table 6.4):
#: the ANOVA search's starting value (other alpha, beta start from the normal approximation).
NAGATA = {(0.05, 0.20): (4.860, 3.584)}
#: Largest n the search considers (beyond it the answer is refused with an error).
MAX_TOPICS = 10**7


@dataclass(frozen=True)
class PilotVariance:
    """A pilot variance with its degrees of freedom and intervals (:func:`pilot_variance`)."""

    method: str
    value: float
    df: int
    level: float
    chi2_ci: tuple[float, float]
    boot_ci: tuple[float, float] | None
    per_pilot: tuple[tuple[float, int], ...] = field(default=())

    def __str__(self) -> str:
        boot = ("no bootstrap (no rng)" if self.boot_ci is None
                else f"topic bootstrap [{self.boot_ci[0]:.4g}, {self.boot_ci[1]:.4g}]")
        return (f"V_{self.method} = {self.value:.4g} (df {self.df}); {self.level:.0%} chi2 "
                f"[{self.chi2_ci[0]:.4g}, {self.chi2_ci[1]:.4g}], {boot}")


def matrix_variance(x: np.ndarray, method: str) -> tuple[float, int]:
    """(V_E1 or V_E2, df) of one topics x runs matrix (:func:`pilot_variance` pools them)."""
    n, m = x.shape
    if method == "E1":
        r = x - x.mean(axis=0, keepdims=True)
        df = m * (n - 1)
    else:
        r = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
        df = (m - 1) * (n - 1)
    return float(np.sum(r * r) / df), df


def _variances_many(x: np.ndarray, method: str) -> np.ndarray:
    """:func:`_variance` of a stack of topics x runs matrices (shape ``(B, n, m)``), vectorised."""
    n, m = x.shape[1:]
    if method == "E1":
        r = x - x.mean(axis=1, keepdims=True)
        return np.einsum("bij,bij->b", r, r) / (m * (n - 1))
    r = x - x.mean(axis=2, keepdims=True) - x.mean(axis=1, keepdims=True) + x.mean(axis=(1, 2), keepdims=True)
    return np.einsum("bij,bij->b", r, r) / ((m - 1) * (n - 1))


#: Fewest resamples a 95% percentile interval is read from: 5 draws beyond each end (with 40 there
#: would be one per tail, and the interval would be that draw's accident).
MIN_BOOT = 200


def check_boot(n_boot, name: str = "n_boot") -> int:
    """``n_boot`` if it is an integer >= :data:`MIN_BOOT` (resamples behind a percentile interval), else
    ``ValueError`` naming ``name``."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < MIN_BOOT:
        raise ValueError(f"{name} must be an integer >= {MIN_BOOT} (resamples of a 95% percentile interval), "
                         f"got {n_boot!r}")
    return int(n_boot)


def bootstrap_variances(scores: Any, rng: np.random.Generator, n_boot: int = 1000,
                        methods: tuple[str, ...] = VARIANCES) -> dict[str, np.ndarray]:
    """Topic-bootstrap draws of V_E1 and V_E2 of one pilot on the *same* resamples (topics drawn
    with replacement, ``n_boot`` times), so that their ratio has an interval too.

    The resamples are :func:`helpers.design.resample.topic_resamples`' (the deviations from each
    run's mean over topics scaled by ``sqrt(n / (n - 1))``, which scales every draw of V_E1 and
    V_E2 by ``n / (n - 1)``): a resample of n topics drawn with replacement holds on average
    ``(n - 1) / n`` of their spread, so uncorrected draws sit low and their percentile interval
    misses the variance too often (200 planted pilots of 30 topics, ``tests/test_design_plan.py``:
    the 95% interval of V_E2 covered it in 95.5% of them, uncorrected in 87%).

    Returns method -> array of ``n_boot`` draws.  The resamples are those of
    :func:`pilot_variance` with the same ``rng`` (one pilot).
    """
    rng = check_rng(rng, "the topic bootstrap")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 10:
        raise ValueError(f"n_boot must be an integer >= 10, got {n_boot!r}")
    bad = [m for m in methods if m not in VARIANCES]
    if bad:
        raise ValueError(f"methods must be among {VARIANCES}, got {bad}")
    x = _pilots(scores)
    if len(x) != 1:
        raise ValueError("bootstrap_variances reads one pilot (pool several with pilot_variance)")
    out = {m: np.empty(n_boot) for m in methods}
    start = 0
    for stack in topic_resamples(x[0].T[:, :, None], "s x t", rng, n_boot):   # runs x topics x 1
        stack = np.swapaxes(stack[..., 0], 1, 2)                                # k x topics x runs
        for m in methods:
            out[m][start:start + len(stack)] = _variances_many(stack, m)
        start += len(stack)
    return out


def _pilots(scores: Any) -> list[np.ndarray]:
    many = isinstance(scores, (list, tuple)) and scores and not np.isscalar(scores[0]) \
        and np.ndim(scores[0]) == 2
    pilots = list(scores) if many else [scores]
    out = []
    for i, p in enumerate(pilots):
        try:
            out.append(score_matrix(p)[0])
        except ValueError as exc:
            where = f"pilot {i}: " if many else ""
            raise ValueError(f"{where}{exc} (a pilot is a topics x runs score matrix)") from None
    return out


def pilot_variance(scores: Any, method: str = "E1", *, level: float = 0.95,
                   rng: np.random.Generator | None = None, n_boot: int = 2000) -> PilotVariance:
    """The within-system variance V_E1 or the two-way residual V_E2 of one or several pilots.

    ``V_E1 = sum_ij (x_ij - xbar_.j)^2 / (m (n - 1))`` (Sakai 2016, Eq. 10: the variance of each
    run over topics, pooled over runs) and ``V_E2 = sum_ij (x_ij - xbar_i. - xbar_.j + xbar)^2 /
    ((m - 1)(n - 1))`` (the residual of the two-way ANOVA without replication; ES_HSD's
    denominator).  Several pilots (e.g. several test collections) are pooled by degrees of
    freedom, ``V = sum df_k V_k / sum df_k`` (Sakai 2016, Eq. 11).

    Parameters
    ----------
    scores : DataFrame, 2-D array or a list of them
        Topics x runs score matrices (rows topics, columns runs); finite values, at least 2 x 2.
    method : {"E1", "E2"}
    level : float
        Confidence level of both intervals.
    rng : numpy.random.Generator, optional
        For the topic bootstrap interval (topics resampled with replacement within each pilot,
        ``n_boot`` times, through :func:`helpers.design.resample.topic_resamples` as
        :func:`bootstrap_variances` explains; percentile interval).  Without it the bootstrap interval is ``None``.
    n_boot : int
        Resamples, at least :data:`MIN_BOOT` (a percentile interval needs draws beyond its ends).

    Returns
    -------
    PilotVariance
        ``value``, ``df``, ``chi2_ci`` (``df V / chi2_{1-a/2}(df)``, ``df V / chi2_{a/2}(df)``:
        exact for normal, independent residuals), ``boot_ci`` and ``per_pilot`` ((V, df) each).
    """
    if method not in VARIANCES:
        raise ValueError(f"method must be one of {VARIANCES}, got {method!r}")
    level = check_level(level)
    mats = _pilots(scores)
    parts = [matrix_variance(x, method) for x in mats]
    df = sum(d for _, d in parts)
    value = sum(v * d for v, d in parts) / df
    a = (1 - level) / 2
    chi2 = (df * value / st.chi2.isf(a, df), df * value / st.chi2.ppf(a, df))
    boot = None
    if rng is not None:
        rng = check_rng(rng, "the topic bootstrap")
        check_boot(n_boot)
        if len(mats) == 1:                # one pilot: the resamples at once (the same draws)
            draws = bootstrap_variances(mats[0], rng, n_boot, (method,))[method]
        else:
            draws = np.empty(n_boot)
            for b in range(n_boot):
                vs = [matrix_variance(next(topic_resamples(x.T[:, :, None], "s x t", rng, 1))[0, :, :, 0].T, method)
                      for x in mats]
                draws[b] = sum(v * d for (v, d) in vs) / df
        boot = (float(np.quantile(draws, a)), float(np.quantile(draws, 1 - a)))
    return PilotVariance(method, float(value), int(df), level, (float(chi2[0]), float(chi2[1])),
                         boot, tuple((float(v), int(d)) for v, d in parts))


# --------------------------------------------------------------------------------------------
# power, approximate and exact
# --------------------------------------------------------------------------------------------

def _t_power_approx(n: float, effect: float, paired: bool, alpha: float) -> float:
    """Sakai 2016, Eq. 5 (after Nagata 2003): the normal approximation of the noncentral t."""
    phi = n - 1 if paired else 2 * n - 2
    lam = math.sqrt(n) * effect if paired else math.sqrt(n / 2) * effect
    w = st.t.isf(alpha / 2, phi)
    a, d = w * (1 - 1 / (4 * phi)), math.sqrt(1 + w * w / (2 * phi))
    return float(st.norm.cdf((-a - lam) / d) + st.norm.sf((a - lam) / d))


def _t_power_exact(n: float, effect: float, paired: bool, alpha: float) -> float:
    phi = n - 1 if paired else 2 * n - 2
    nc = math.sqrt(n) * effect if paired else math.sqrt(n / 2) * effect
    w = st.t.isf(alpha / 2, phi)
    # two-sided: P(|T| > w) = P(T^2 > w^2) with T^2 ~ F(1, phi, nc^2). scipy's nct returns NaN for
    # large noncentralities (tiny n, large effects); the noncentral F does not.
    power = float(st.ncf.sf(w * w, 1, phi, nc * nc))
    if not math.isfinite(power):
        power = float(st.nct.sf(w, phi, nc) + st.nct.cdf(-w, phi, nc))
    if not math.isfinite(power):
        raise ValueError(f"the power of the t-test at n = {n}, effect {effect:g} could not be computed")
    return power


def _anova_power_approx(n: float, m: int, delta: float, alpha: float) -> float:
    """Sakai 2016, Eq. 15: the normal approximation of the noncentral F (sign '+' in the root)."""
    lam, pa, pe = n * delta, m - 1, m * (n - 1)
    w = st.f.isf(alpha, pa, pe)
    ca, pas = (pa + 2 * lam) / (pa + lam), (pa + lam) ** 2 / (pa + 2 * lam)
    u = ((math.sqrt(w / pe) * math.sqrt(2 * pe - 1) - math.sqrt(ca / pa) * math.sqrt(2 * pas - 1))
         / math.sqrt(ca / pa + w / pe))
    return float(st.norm.sf(u))


def _anova_power_exact(n: float, m: int, delta: float, alpha: float) -> float:
    pa, pe = m - 1, m * (n - 1)
    return float(st.ncf.sf(st.f.isf(alpha, pa, pe), pa, pe, n * delta))


def _ci_width(n: float, sigma: float, paired: bool, alpha: float) -> float:
    """Expected width of the 100(1-alpha)% CI of a (paired or unpaired) mean difference.

    Paired: ``2 t_{a/2}(n-1) sigma_t sqrt(2/(n(n-1))) Gamma(n/2)/Gamma((n-1)/2)`` (Sakai 2016,
    Eq. 18); unpaired: ``2 t_{a/2}(phi) sigma sqrt(2/n) sqrt(2/phi) Gamma((phi+1)/2)/Gamma(phi/2)``
    with ``phi = 2n - 2`` (E[s] of the pooled standard deviation).
    """
    if paired:
        phi, scale = n - 1, math.sqrt(1 / n)
    else:
        phi, scale = 2 * n - 2, math.sqrt(2 / n)
    es = math.sqrt(2 / phi) * math.exp(gammaln((phi + 1) / 2) - gammaln(phi / 2))
    return 2 * st.t.isf(alpha / 2, phi) * sigma * scale * es


def power(method: str, n: int, *, sigma2: float, min_diff: float, alpha: float = 0.05,
          n_systems: int | None = None, paired: bool = True, exact: bool = False) -> float:
    """Power of a test on ``n`` topics (per group): the quantity :func:`topic_set_size` inverts.

    ``method`` is ``"t"`` or ``"anova"``; the other arguments as :func:`topic_set_size`.
    """
    _check_common(method, alpha, 0.2, sigma2, paired, exact)
    if method == "ci":
        raise ValueError("the CI method has no power; use topic_set_size(method='ci', width=...)")
    effect, m = _effect(method, sigma2, min_diff, n_systems, paired)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if method == "t":
        return (_t_power_exact if exact else _t_power_approx)(n, effect, paired, alpha)
    return (_anova_power_exact if exact else _anova_power_approx)(n, m, effect, alpha)


# --------------------------------------------------------------------------------------------
# the number of topics
# --------------------------------------------------------------------------------------------

def _positive(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number, got {value!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return v


def _check_common(method, alpha, beta, sigma2, paired, exact) -> None:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    check_level(alpha, "alpha")
    check_level(beta, "beta")
    _positive(sigma2, "sigma2")
    for name, v in (("paired", paired), ("exact", exact)):
        if not isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {v!r}")


def _effect(method: str, sigma2: float, min_diff, n_systems, paired: bool) -> tuple[float, int]:
    """(standardised effect, m): minD_t / sigma_t (paired t), minD / sigma (unpaired), Delta (ANOVA)."""
    d = _positive(min_diff, "min_diff")
    if method == "anova":
        if isinstance(n_systems, bool) or not isinstance(n_systems, (int, np.integer)) or n_systems < 2:
            raise ValueError(f"the ANOVA method needs n_systems, an integer >= 2, got {n_systems!r}")
        if not paired:
            raise ValueError("the one-way ANOVA compares independent groups already: leave paired=True")
        return d * d / (2 * sigma2), int(n_systems)
    if n_systems is not None:
        raise ValueError(f"n_systems is for the ANOVA method only; method {method!r} compares two systems")
    return (d / math.sqrt(2 * sigma2) if paired else d / math.sqrt(sigma2)), 2


def smallest_n(ok, start: float) -> int:
    """Smallest integer n >= 2 with ok(n), searching down and up from ``start`` (ok monotone)."""
    n = min(max(2, int(math.ceil(start))), MAX_TOPICS)
    if ok(n):
        while n > 2 and ok(n - 1):
            step = 1
            while n - 2 * step >= 2 and ok(n - 2 * step):
                step *= 2
            n -= step
        return n
    lo, hi = n, n + 1
    while not ok(hi):
        lo, hi = hi, hi + max(1, hi - lo) * 2
        if hi > MAX_TOPICS:
            raise ValueError(f"more than {MAX_TOPICS:,} topics would be needed: the effect is too "
                             "small for this variance (check min_diff, width and sigma2)")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def topic_set_size(method: str, *, alpha: float = 0.05, beta: float = 0.20, min_diff: float | None = None,
                   width: float | None = None, sigma2: float, n_systems: int | None = None,
                   paired: bool = True, exact: bool = False) -> int:
    """Number of topics a test needs: Sakai's topic-set-size design (IRJ 2016; book ch. 6-7).

    Parameters
    ----------
    method : {"t", "anova", "ci"}
        ``"t"``: the smallest n with power >= 1 - beta to detect ``min_diff`` between two systems
        (paired: Sakai's Eq. 5 with ``minDelta_t = min_diff / sigma_t``, ``sigma_t^2 = 2 sigma2``,
        phi = n - 1; unpaired: phi = 2n - 2, lambda = sqrt(n/2) min_diff / sigma).
        ``"anova"``: one-way ANOVA over ``n_systems`` systems, worst case
        ``Delta = min_diff^2 / (2 sigma2)``, lambda = n Delta (Eq. 15).  ``"ci"``: the smallest n
        whose expected CI width of a mean difference is at most ``width`` (Eq. 18).
    alpha, beta : float
        Two-sided significance level and type II error (t and ANOVA only).
    min_diff : float
        The difference to detect (t, ANOVA).
    width : float
        The largest acceptable CI width delta (CI).
    sigma2 : float
        The within-system variance (:func:`pilot_variance`).
    n_systems : int
        m, ANOVA only.
    paired : bool
        Paired (topics shared by the systems) or unpaired (t and CI).
    exact : bool
        Sakai's approximation (False) or the noncentral t / F (True); no effect on the CI.

    Returns
    -------
    int
        Topics (per group: each system's topics when unpaired).

    Raises
    ------
    ValueError
        An unknown method, a missing or extra argument for the method, a non-positive variance,
        difference or width, alpha or beta outside (0, 1), or more than 10^7 topics needed.
    """
    _check_common(method, alpha, beta, sigma2, paired, exact)
    za, zb = st.norm.isf(alpha / 2), st.norm.isf(beta)
    if method == "ci":
        if min_diff is not None or n_systems is not None:
            raise ValueError("the CI method takes width= only (no min_diff, no n_systems)")
        delta = _positive(width, "width")
        sigma = math.sqrt(2 * sigma2) if paired else math.sqrt(sigma2)
        start = (4 if paired else 8) * za * za * sigma * sigma / (delta * delta)
        return smallest_n(lambda n: _ci_width(n, sigma, paired, alpha) <= delta, start)
    if width is not None:
        raise ValueError(f"width= is for the CI method; method {method!r} takes min_diff=")
    effect, m = _effect(method, sigma2, min_diff, n_systems, paired)
    target = 1 - beta
    if method == "t":
        f = _t_power_exact if exact else _t_power_approx
        start = ((za + zb) / effect) ** 2 + za * za / 2 if paired else \
            2 * ((za + zb) / effect) ** 2 + za * za / 4
        return smallest_n(lambda n: f(n, effect, paired, alpha) >= target, start)
    f = _anova_power_exact if exact else _anova_power_approx
    x1, x2 = NAGATA.get((round(alpha, 12), round(beta, 12)), (None, None))
    # Nagata's lambda where tabulated; elsewhere a rough start that the search corrects
    lam = x1 + x2 * math.sqrt(m - 1) if x1 is not None else (za + zb) ** 2 + m - 1
    return smallest_n(lambda n: f(n, m, effect, alpha) >= target, lam / effect)


def topic_set_size_interval(method: str, sigma2: "PilotVariance | Sequence[float]", **kwargs) -> tuple[int, int, int]:
    """The topic-set size with the interval that the interval of sigma^2 carries over.

    n grows with sigma^2 for every method, so the bounds of the sigma^2 interval give the bounds
    of n.  ``sigma2`` is a :class:`PilotVariance` (its chi^2 interval) or ``(value, low, high)``;
    ``kwargs`` are those of :func:`topic_set_size`.

    Returns
    -------
    (n, n_low, n_high)
    """
    if isinstance(sigma2, PilotVariance):
        value, (lo, hi) = sigma2.value, sigma2.chi2_ci
    else:
        try:
            value, lo, hi = (float(v) for v in sigma2)
        except (TypeError, ValueError):
            raise ValueError("sigma2 must be a PilotVariance or (value, low, high), got "
                             f"{sigma2!r}") from None
        if not lo <= value <= hi:
            raise ValueError(f"sigma2 interval must satisfy low <= value <= high, got {sigma2!r}")
    if "sigma2" in kwargs:
        raise ValueError("give sigma2 once, as the second argument")
    return tuple(topic_set_size(method, sigma2=v, **kwargs) for v in (value, lo, hi))


def sizes_table(sigma2: "dict[str, float]", cases: "Sequence[dict]") -> pd.DataFrame:
    """Approximate and exact topic-set sizes side by side, one row per (measure, case)."""
    rows = []
    for measure, s2 in sigma2.items():
        for case in cases:
            kw = dict(case)
            method = kw.pop("method")
            rows.append({"measure": measure, "method": method, **kw,
                         "n_approx": topic_set_size(method, sigma2=s2, exact=False, **kw),
                         "n_exact": topic_set_size(method, sigma2=s2, exact=True, **kw)})
    return pd.DataFrame(rows)


_variance = matrix_variance     # the name the tests knew
