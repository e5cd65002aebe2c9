"""D-studies: Erho^2 and Phi for other numbers of topics and assessors, with intervals, and the
number of topics a target coefficient needs.

Brennan, *Generalizability Theory* (Springer 2001), ch. 4 and 6; Urbano, Marrero & Martin (SIGIR
2013) and the R package gt4ireval 2.0 (``R/dstudy.R``), whose s x t results this module
reproduces to their printed digits.

Coefficients (n't topics, n'a assessors per topic)
--------------------------------------------------
* ``Erho2 = s / (s + rel)``: the stability of the ranking of systems;
  ``Phi = s / (s + abs)``: the stability of their absolute scores.
* The relative error ``rel`` sums every component that contains ``s`` (other than ``s``), the
  absolute error ``abs`` every component other than ``s``; each is divided by n't if its name
  has ``t`` and by n'a if it has ``a`` (Brennan 2001, Table 4.3): s x t x a relative error
  ``st/n't + sa/n'a + sta/(n't n'a)``, s x (a:t) ``st/n't + sa:t/(n't n'a)``.

Intervals
---------
* s x t: Feldt (1965) for Erho2 and Arteaga, Jeyaratnam & Franklin (1982) for Phi, as
  gt4ireval computes them (an interval for one topic carried over to n't by Spearman-Brown).
* s x (a:t): at the observed n_a the design is an s x t design on the mean over each topic's
  assessors (its mean squares are those of the G-study divided by n_a, and the mean squares of
  ``s``, ``t`` and ``st`` enter the two formulas), so the same formulas are exact there.
* s x t x a: the same formulas with the error mean square ``MS_st + MS_sa - MS_sta`` and the
  topic mean square ``MS_t + MS_a - MS_ta`` and Satterthwaite's degrees of freedom (approximate).
* For another number of assessors the interval of the signal-to-error ratio at the observed
  sizes is scaled by ``error(observed) / error(n't, n'a)`` at the estimated components, i.e. the
  split of the error between topics and assessors is taken as estimated (exact for s x t, where
  that ratio is n't / n_t).  Bounds are clipped to [0, 1]; a lower bound at 0 gives no upper
  bound on the topics needed (``None``).
* s x t x a with ``MS_st + MS_sa - MS_sta <= 0`` (or ``MS_t + MS_a - MS_ta <= 0``): a small pilot
  whose interaction mean squares fall below the three-way one has no Satterthwaite mean square;
  the intervals are NaN (not [0, 0]), and the point estimate, from components with the negative
  ones set to 0, stands without an interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

from ..stats.checks import check_level
from .gstudy import GStudy

__all__ = ["DStudy", "TopicsNeeded", "d_study", "d_study_table", "topics_needed", "spearman_brown", "erho2_interval",
           "topics_needed_point", "ceil_count",
           "GT_MAPPINGS", "gt_map", "error_variance", "COEFFICIENTS"]

COEFFICIENTS = ("erho2", "phi")
#: Urbano, Marrero & Martin (SIGIR 2013), Fig. 3: power-law fits from GT coefficients to the
#: indicators measured by resampling (gt4ireval ``gt2*``): value = x**p, or (1 - x)**p.
GT_MAPPINGS = {"tau": ("erho2", 2.84729794002905, False), "tauAP": ("erho2", 3.98652984123827, False),
               "power": ("erho2", 4.77902509574171, False), "minor": ("erho2", 1.53337366741287, True),
               "major": ("erho2", 2.62976839002005, True), "asens": ("erho2", 1.54402996734738, True),
               "rsens": ("phi", 1.29759126030214, True), "rmse": ("phi", 3.27642726002903, True)}


def _sizes(g: GStudy, n_topics, n_assessors) -> tuple[np.ndarray, np.ndarray]:
    nt = np.asarray(g.n["t"] if n_topics is None else n_topics, dtype=float)
    if g.design == "s x t":
        if n_assessors not in (None, 1):
            raise ValueError("an s x t G-study has no assessor facet: leave n_assessors out")
        na = np.ones_like(nt)
    else:
        na = np.asarray(g.n["a"] if n_assessors is None else n_assessors, dtype=float)
    for name, v in (("n_topics", nt), ("n_assessors", na)):
        if not np.all(np.isfinite(v)) or np.any(v < 1):
            raise ValueError(f"{name} must be >= 1, got {v.tolist()!r}")
    return nt, na


def error_variance(g: GStudy, n_topics, n_assessors=None, kind: str = "relative") -> np.ndarray:
    """Relative (``sigma^2(delta)``) or absolute (``sigma^2(Delta)``) error variance of a D-study."""
    if kind not in ("relative", "absolute"):
        raise ValueError(f"kind must be 'relative' or 'absolute', got {kind!r}")
    nt, na = _sizes(g, n_topics, n_assessors)
    return _error(g, nt, na, kind)


def _error(g: GStudy, nt, na, kind: str) -> np.ndarray:
    nt, na = np.asarray(nt, dtype=float), np.asarray(1.0 if na is None else na, dtype=float)
    out = np.zeros(np.broadcast(nt, na).shape)
    for name, v in g.variance.items():
        if name == "s" or (kind == "relative" and "s" not in name):
            continue
        out = out + v / ((nt if "t" in name else 1.0) * (na if "a" in name else 1.0))
    return out


def _reduced(g: GStudy) -> tuple[float, float, float, float, float, float]:
    """(MS_s, MS_q, MS_e, df_s, df_q, df_e) of the s x t design the intervals use."""
    ms, df = g.mean_squares, g.df
    if g.design in ("s x t", "s x (a:t)"):
        return ms["s"], ms["t"], ms["st"], df["s"], df["t"], df["st"]

    def satterthwaite(terms):
        total = sum(c * ms[k] for c, k in terms)
        return total, total ** 2 / sum((c * ms[k]) ** 2 / df[k] for c, k in terms)

    e, dfe = satterthwaite([(1, "st"), (1, "sa"), (-1, "sta")])
    q, dfq = satterthwaite([(1, "t"), (1, "a"), (-1, "ta")])
    return ms["s"], q, e, df["s"], dfq, dfe


def _odds_bounds(g: GStudy, alpha: float, phi_too: bool = True) -> dict[str, tuple[float, float]]:
    """Signal-to-error ratios at the observed sizes: (lower, upper) for erho2 and phi."""
    mss, msq, mse, dfs, dfq, dfe = _reduced(g)
    ns = g.n["s"]
    if not (mse > 0 and msq > 0):
        # s x t x a: MS_st + MS_sa - MS_sta (or MS_t + MS_a - MS_ta) not positive, so Satterthwaite's
        # mean square and degrees of freedom are undefined: no interval, rather than a made-up one
        return {"erho2": (np.nan, np.nan), "phi": (np.nan, np.nan)}
    out = {}
    # Feldt: odds = MS_s / (MS_e F) - 1 (gt4ireval's Erho2.lwr * n.q)
    out["erho2"] = tuple(mss / (mse * f) - 1 for f in st.f.ppf([1 - alpha, alpha], dfs, dfe))
    if not phi_too:
        return out
    phi = []
    for p in (1 - alpha, alpha):
        f_inf, f_e, f_q = st.chi2.ppf(p, dfs) / dfs, st.f.ppf(p, dfs, dfe), st.f.ppf(p, dfs, dfq)
        num = mss ** 2 - f_inf * mss * mse + (f_inf - f_e) * f_e * mse ** 2
        den = (ns - 1) * f_inf * mss * mse + f_q * mss * msq
        phi.append(ns * num / den)                       # Phi/(1 - Phi) at the observed sizes
    out["phi"] = tuple(phi)
    return out


def _coef(signal, error):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(error > 0, signal / (signal + error), 1.0)


def _from_odds(odds, obs_error, error):
    """Coefficient from a signal-to-error ratio at the observed sizes, scaled to another size.

    A negative bound of the ratio (Arteaga et al.'s lower bound can be below -1 when the error
    mean square has few degrees of freedom, as Satterthwaite's may) is a coefficient of 0, not
    ``o / (1 + o) > 1``."""
    odds = np.maximum(odds, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        o = np.where(error > 0, odds * obs_error / error, np.inf)
    return np.clip(np.where(np.isinf(o), 1.0, o / (1 + o)), 0.0, 1.0)


@dataclass(frozen=True)
class DStudy:
    """Erho2 and Phi of a D-study with their intervals (arrays when sizes are arrays)."""

    g: GStudy
    n_topics: Any
    n_assessors: Any
    level: float
    erho2: Any
    phi: Any
    erho2_ci: tuple
    phi_ci: tuple

    def __str__(self) -> str:
        a = "" if self.g.design == "s x t" else f", {self.n_assessors} assessors"
        return (f"D-study {self.g.design} ({self.n_topics} topics{a}): Erho2 {self.erho2:.5g} "
                f"[{self.erho2_ci[0]:.5g}, {self.erho2_ci[1]:.5g}], Phi {self.phi:.5g} "
                f"[{self.phi_ci[0]:.5g}, {self.phi_ci[1]:.5g}] ({self.level:.0%})")


def _scalar(x):
    x = np.asarray(x)
    return float(x) if x.ndim == 0 else x


def d_study(g: GStudy, n_topics=None, n_assessors=None, level: float = 0.95) -> DStudy:
    """Erho2 and Phi for ``n_topics`` topics and ``n_assessors`` assessors per topic.

    Parameters
    ----------
    g : GStudy
    n_topics, n_assessors : int or array_like, optional
        Default: the G-study's sizes (then the coefficients are the G-study's own).
    level : float
        Two-sided confidence level (gt4ireval's ``alpha`` is the probability on each side:
        ``level = 1 - 2 alpha``; its default 0.025 is level 0.95).

    Returns
    -------
    DStudy
        ``erho2``, ``phi`` and the intervals ``erho2_ci``, ``phi_ci`` (lower, upper).
    """
    if not isinstance(g, GStudy):
        raise ValueError(f"g must be the GStudy of g_study(), got {type(g).__name__}")
    alpha = (1 - check_level(level)) / 2
    nt, na = _sizes(g, n_topics, n_assessors)
    s = g.variance["s"]
    rel, ab = _error(g, nt, na, "relative"), _error(g, nt, na, "absolute")
    obs_rel, obs_abs = _error(g, g.n["t"], g.n["a"], "relative"), _error(g, g.n["t"], g.n["a"], "absolute")
    b = _odds_bounds(g, alpha)
    e_ci = tuple(_scalar(_from_odds(o, obs_rel, rel)) for o in b["erho2"])
    p_ci = tuple(_scalar(_from_odds(o, obs_abs, ab)) for o in b["phi"])
    return DStudy(g, _scalar(nt), None if g.design == "s x t" else _scalar(na), float(level),
                  _scalar(_coef(s, rel)), _scalar(_coef(s, ab)), e_ci, p_ci)


def erho2_interval(g: GStudy, n_topics: int, n_assessors: int | None = None,
                   level: float = 0.95) -> tuple[float, float, float]:
    """``(Erho2, low, high)`` of :func:`d_study` for one size, Feldt's interval only (no Phi):
    the fast path for loops over many G-studies."""
    alpha = (1 - check_level(level)) / 2
    nt, na = _sizes(g, n_topics, n_assessors)
    rel = _error(g, nt, na, "relative")
    obs = _error(g, g.n["t"], g.n["a"], "relative")
    lo, hi = (float(_from_odds(o, obs, rel)) for o in _odds_bounds(g, alpha, phi_too=False)["erho2"])
    return float(_coef(g.variance["s"], rel)), lo, hi


@dataclass(frozen=True)
class TopicsNeeded:
    """Topics needed for a target coefficient, with the interval (``None``: not reachable)."""

    coefficient: str
    target: float
    n_assessors: int | None
    n: int | None
    ci: tuple[int | None, int | None]
    level: float

    def __str__(self) -> str:
        f = lambda v: "unreachable" if v is None else str(v)          # noqa: E731
        return (f"{self.coefficient} >= {self.target:g}: {f(self.n)} topics "
                f"[{f(self.ci[0])}, {f(self.ci[1])}] ({self.level:.0%})")


#: Relative tolerance of :func:`ceil_count`: a ratio this close to an integer is that integer.
CEIL_TOL = 1e-9


def ceil_count(x: float, tol: float = CEIL_TOL) -> int:
    """``ceil(x)`` for a count of topics or assessors computed as a ratio, tolerant of rounding:
    a ratio within ``tol`` (relative) of an integer is that integer.  ``0.9 * 0.02 / (0.01 * 0.1)``
    is 18.000000000000007 in floating point; Eρ² at 18 topics is 0.9 exactly, so 18 topics are
    needed, not 19.  gt4ireval's ``dstudy`` (``ceiling(stability * var.e / (var.s * (1 - stability)))``)
    takes the plain ceiling and says 19 there."""
    r = round(x)
    return int(r) if abs(x - r) <= tol * max(1.0, abs(x)) else math.ceil(x)


def _needed(signal: float, per_topic: float, fixed: float, target: float) -> int | None:
    """Smallest n't with signal / (signal + per_topic/n't + fixed) >= target (None: never)."""
    den = signal * (1 - target) - target * fixed
    if per_topic <= 0:
        return 1 if den >= 0 else None
    if den <= 0 or not math.isfinite(signal):
        return None
    if fixed == 0:                                   # gt4ireval's order of operations
        return max(1, ceil_count((target * per_topic) / (signal * (1 - target))))
    return max(1, ceil_count(target * per_topic / den))


def topics_needed(g: GStudy, target: float, coefficient: str = "erho2", n_assessors: int | None = None,
                  level: float = 0.95) -> TopicsNeeded:
    """Number of topics for ``coefficient >= target`` (Brennan 2001; gt4ireval ``dstudy``).

    ``n't = ceil(target * err_1 / (s (1 - target)))`` (:func:`ceil_count`) where ``err_1`` is the error of one topic;
    in s x t x a the error terms not divided by n't (``sa/n'a``, and ``a/n'a`` for Phi) can make
    a target unreachable with ``n_assessors`` assessors: then ``n`` is ``None``.  The interval
    comes from the interval of the coefficient (module docstring): its upper end from the lower
    bound of the coefficient.
    """
    if not isinstance(g, GStudy):
        raise ValueError(f"g must be the GStudy of g_study(), got {type(g).__name__}")
    if coefficient not in COEFFICIENTS:
        raise ValueError(f"coefficient must be one of {COEFFICIENTS}, got {coefficient!r}")
    t = check_level(target, "target")
    alpha = (1 - check_level(level)) / 2
    kind = "relative" if coefficient == "erho2" else "absolute"
    na = None if g.design == "s x t" else (g.n["a"] if n_assessors is None else n_assessors)
    if na is not None and (isinstance(na, bool) or not isinstance(na, (int, np.integer)) or na < 1):
        raise ValueError(f"n_assessors must be a positive integer, got {n_assessors!r}")
    if g.design == "s x t" and n_assessors not in (None, 1):
        raise ValueError("an s x t G-study has no assessor facet: leave n_assessors out")
    fixed = float(_error(g, np.inf, na, kind))
    per_topic = float(_error(g, 1, na, kind)) - fixed
    obs = float(_error(g, g.n["t"], g.n["a"], kind))
    lo, hi = _odds_bounds(g, alpha)[coefficient]
    ends = []
    for o in (hi, lo):                                 # the upper coefficient gives the fewer topics
        ends.append(_needed(o * obs, per_topic, fixed, t) if o > 0 else None)
    return TopicsNeeded(coefficient, t, None if na is None else int(na),
                        _needed(g.variance["s"], per_topic, fixed, t), tuple(ends), float(level))


def topics_needed_point(g: GStudy, target: float, coefficient: str = "erho2",
                        n_assessors: int | None = None) -> int | None:
    """The ``n`` of :func:`topics_needed` without its interval (the fast path for bootstraps)."""
    kind = "relative" if coefficient == "erho2" else "absolute"
    na = None if g.design == "s x t" else (g.n["a"] if n_assessors is None else n_assessors)
    fixed = float(_error(g, np.inf, na, kind))
    return _needed(g.variance["s"], float(_error(g, 1, na, kind)) - fixed, fixed, target)


def spearman_brown(rho1, k):
    """Spearman-Brown: the reliability of the mean of ``k`` parallel measurements,
    ``k rho1 / (1 + (k - 1) rho1)`` (the one-facet D-study)."""
    rho1, k = np.asarray(rho1, dtype=float), np.asarray(k, dtype=float)
    if np.any((rho1 < 0) | (rho1 > 1)) or np.any(k <= 0):
        raise ValueError(f"rho1 must be in [0, 1] and k > 0, got {rho1.tolist()!r}, {k.tolist()!r}")
    return _scalar(k * rho1 / (1 + (k - 1) * rho1))


def gt_map(indicator: str, value):
    """Map Erho2 (or Phi) onto a data-based indicator (Urbano et al. 2013; gt4ireval ``gt2*``).

    ``indicator`` is a key of :data:`GT_MAPPINGS` (``"tau"``: Kendall's tau between rankings on
    two collections of that size; ``"rsens"``, ``"rmse"`` read Phi).  Rough fits: the paper asks
    to take them "with a grain of salt".
    """
    if indicator not in GT_MAPPINGS:
        raise ValueError(f"indicator must be one of {sorted(GT_MAPPINGS)}, got {indicator!r}")
    _, p, complement = GT_MAPPINGS[indicator]
    x = np.asarray(value, dtype=float)
    if np.any((x <= 0) | (x >= 1)):
        raise ValueError(f"the coefficient must be in (0, 1), got {x.tolist()!r}")
    return _scalar((1 - x) ** p if complement else x ** p)


def d_study_table(g: GStudy, n_topics, n_assessors=(1,), level: float = 0.95) -> pd.DataFrame:
    """Erho2 and Phi with intervals on a grid of topics x assessors (one row per pair)."""
    nt = np.asarray(n_topics, dtype=float).ravel()
    rows = []
    for a in ([None] if g.design == "s x t" else n_assessors):
        d = d_study(g, nt, a, level)
        rows.append(pd.DataFrame({"n_topics": nt.astype(int), "n_assessors": 1 if a is None else int(a),
                                  "erho2": d.erho2, "erho2_low": d.erho2_ci[0], "erho2_high": d.erho2_ci[1],
                                  "phi": d.phi, "phi_low": d.phi_ci[0], "phi_high": d.phi_ci[1]}))
    return pd.concat(rows, ignore_index=True)
