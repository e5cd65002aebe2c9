"""The paired t-test between two systems from variance components, with and without a bias that
the same assessors carry into every topic.

Conventions
-----------
* ``sigma2`` is half the variance of one topic's paired difference of two systems (Sakai's
  ``sigma_t^2 = 2 sigma2``): from the components, ``st + e / n_a`` (``e`` the error, ``sa:t``
  or ``sta``; none in s x t).  Effects shared by both systems (``t``, ``a``, ``ta``, ``a:t``)
  cancel in a paired difference.
* ``bias2`` is the variance of a difference that is the same on every topic of one experiment:
  in the crossed design s x t x a the same ``n_a`` assessors judge every topic, so the system x
  assessor effects add ``b ~ N(0, 2 sa / n_a)`` to the whole experiment (Brennan 2001, ch. 4:
  ``sa / n'a`` is the part of the relative error that more topics do not reduce).  In s x t and
  s x (a:t) it is 0.
* Power is the probability of a rejection *in the direction of the true difference*
  (``min_diff > 0``): a rejection the other way is an error, not power.  With ``bias2 = 0`` the
  wrong-sign tail is below ``alpha / 2`` and negligible at any useful n; :func:`topics_for_power`
  then answers with Sakai's exact size (:func:`helpers.design.sakai.topic_set_size`), which counts
  both tails.

Derivation (``bias2 > 0``): the mean difference over n topics is ``N(min_diff, 2 sigma2 / n +
bias2)`` and independent of the sample deviation, which ``b`` does not touch; so
``T = c T'`` with ``c = sqrt(1 + n bias2 / (2 sigma2))`` and ``T'`` noncentral t with ``n - 1``
degrees of freedom and noncentrality ``sqrt(n) min_diff / (c sqrt(2 sigma2))``.  As n grows the
power tends to ``Phi(min_diff / sqrt(bias2))``: when that is below ``1 - beta`` no number of
topics reaches the power asked for.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from scipy import stats as st

from .sakai import smallest_n, topic_set_size

__all__ = ["difference_variance", "bias_variance", "bias_interval", "correct_sign_power", "topics_for_power",
           "power_limit"]


def difference_variance(variance: Mapping[str, float], design: str, n_assessors: int | None) -> float:
    """Half the variance of a per-topic paired difference, ``st + e / n_a`` (module docstring)."""
    if design == "s x t":
        return float(variance["st"])
    e = variance["sa:t"] if design == "s x (a:t)" else variance["sta"]
    return float(variance["st"] + e / n_assessors)


def bias_variance(variance: Mapping[str, float], design: str, n_assessors: int | None) -> float:
    """Variance of the difference the same assessors add to every topic: ``2 sa / n_a`` when crossed."""
    return 2.0 * float(variance["sa"]) / n_assessors if design == "s x t x a" else 0.0


def bias_interval(g, n_assessors: int, level: float = 0.95) -> tuple[float, float, float]:
    """``(bias2, low, high)`` of a G-study (:class:`helpers.design.gstudy.GStudy`) at ``n_assessors``.

    ``bias2 = 2 sa / n_a`` in s x t x a (0 in the other designs); its interval comes from the
    chi^2 interval of the mean square of ``sa`` (``df_sa MS_sa / chi2``), less ``MS_sta``, over
    ``n_t`` and clipped at 0: approximate (the noise of ``MS_sta`` is left out).  A pilot's few
    assessors make it wide; the interval of n combines it with the variance's interval at their
    ends (:func:`helpers.design.study.sizes_by_measure`), which is conservative.
    """
    if g.design != "s x t x a":
        return 0.0, 0.0, 0.0
    ms, df, nt = g.mean_squares, g.df["sa"], g.n["t"]
    a = (1 - level) / 2
    ends = [max(0.0, (ms["sa"] * df / q - ms["sta"]) / nt) for q in (st.chi2.isf(a, df), st.chi2.ppf(a, df))]
    return tuple(2.0 * v / n_assessors for v in (g.variance["sa"], *ends))


def correct_sign_power(n: int, *, sigma2: float, min_diff: float, bias2: float = 0.0,
                       alpha: float = 0.05, both_signs: bool = False) -> float:
    """Power of the two-sided paired t-test on ``n`` topics to reject in the direction of
    ``min_diff`` (``both_signs=True``: either direction), averaged over the bias ``b``."""
    if not (n >= 2 and sigma2 > 0 and min_diff > 0 and bias2 >= 0):
        raise ValueError(f"need n >= 2, sigma2 > 0, min_diff > 0 and bias2 >= 0; got n={n}, "
                         f"sigma2={sigma2}, min_diff={min_diff}, bias2={bias2}")
    df = n - 1
    c = math.sqrt(1.0 + n * bias2 / (2.0 * sigma2))
    nc = math.sqrt(n) * min_diff / (c * math.sqrt(2.0 * sigma2))
    w = st.t.isf(alpha / 2, df) / c

    def upper(x: float, lam: float) -> float:
        p = float(st.nct.sf(x, df, lam))
        if not math.isfinite(p):        # scipy's nct fails for large noncentralities: Sakai's Eq. 5 there
            p = float(st.norm.sf((x * (1 - 1 / (4 * df)) - lam) / math.sqrt(1 + x * x / (2 * df))))
        return p

    return upper(w, nc) + (upper(w, -nc) if both_signs else 0.0)


def power_limit(*, min_diff: float, bias2: float) -> float:
    """The power no number of topics exceeds: ``Phi(min_diff / sqrt(bias2))`` (1 without a bias)."""
    return 1.0 if bias2 <= 0 else float(st.norm.cdf(min_diff / math.sqrt(bias2)))


def topics_for_power(*, sigma2: float, min_diff: float, bias2: float = 0.0, alpha: float = 0.05,
                     beta: float = 0.20, exact: bool = True) -> int | None:
    """The fewest topics whose paired t-test reaches power ``1 - beta`` (``None``: no number does).

    Without a bias: Sakai's size (:func:`~helpers.design.sakai.topic_set_size`, exact or his
    approximation).  With one: the smallest n with :func:`correct_sign_power` >= ``1 - beta``.
    """
    if bias2 <= 0:
        return topic_set_size("t", sigma2=sigma2, min_diff=min_diff, alpha=alpha, beta=beta, exact=exact)
    if power_limit(min_diff=min_diff, bias2=bias2) <= 1 - beta:
        return None
    start = topic_set_size("t", sigma2=sigma2, min_diff=min_diff, alpha=alpha, beta=beta, exact=True)
    try:
        return smallest_n(lambda n: correct_sign_power(n, sigma2=sigma2, min_diff=min_diff, bias2=bias2,
                                                      alpha=alpha) >= 1 - beta, start)
    except ValueError:                  # more than sakai.MAX_TOPICS: unreachable in practice
        return None

