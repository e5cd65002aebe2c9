"""The values notebook 03's findings rows read, each with the interval it carries.

A row reads the replicates of the simulation or the draws of U2 where the run has them, else this
collection (:func:`over_replicates`, :func:`over_draws`, :func:`this_collection`). Every value is
a :class:`Value`: the number, its interval and the words that say what the interval is, from the
vocabulary of :mod:`helpers.notebook.claims`: "95% CI of the mean over 40 replicates" (Student's t,
the one rule of every comparison over replicates or draws: :func:`mean_ci`), "95% interval over 40
replicates" (percentile, 40 or more: the spread of single ones), "range over 20 replicates" (fewer), "95% Monte Carlo interval, 300 resamples" (the
chi-square interval of a bootstrap sd), "95% CI" (Kendall's tau). Demeester et al. (IRJ 2016).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import prm
from ..notebook import claims

__all__ = ["MIN_BOOT", "level_text", "BOUNDS", "spread_name", "band", "band_name", "Value", "over", "mean_ci", "sim_mean", "draw_mean", "draw_median", "from_summary", "sim_values", "spread", "tau_text", "bootstrap_ratio", "this_collection",
           "over_replicates", "over_draws", "nonmonotone", "binomial_intervals", "marginals"]


#: Resamples a 95% percentile band needs (bootstrap-like resampling: Fig. 3's annotation rounds);
#: with fewer, the band is the range and says so.
MIN_BOOT = 1000


def level_text(level: float) -> str:
    """A confidence level from a parameter, exactly: ``0.695 -> "69.5%"``, ``0.95 -> "95%"`` (never
    rounded to ``"70%"``)."""
    return f"{round(100 * float(level), 10):g}%"


def spread_name(n: int) -> str:
    """What the spread of ``n`` replicates or draws is called: ``"95% percentile interval"`` (40 or
    more, :func:`helpers.notebook.claims.interval`'s rule) or ``"range"``."""
    return "95% percentile interval" if claims.interval_name(n) != "range" else "range"


def band_name(n: int) -> str:
    """The band of ``n`` resamples (Fig. 3's rounds): ``"95% percentile band"`` from :data:`MIN_BOOT`
    on, else ``"range"``."""
    return "95% percentile band" if n >= MIN_BOOT else "range"


def band(values) -> tuple[float, float]:
    """``(low, high)`` of resampled ``values`` (NaN dropped) as :func:`band_name` calls them: the
    2.5th and 97.5th percentiles from :data:`MIN_BOOT` values on, else the range."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if not len(x):
        return float("nan"), float("nan")
    if len(x) >= MIN_BOOT:
        lo, hi = np.quantile(x, [0.025, 0.975])
        return float(lo), float(hi)
    return float(x.min()), float(x.max())


def spread(mean: float, low: float, high: float, digits: int = 3, what: str = "draw") -> str:
    """``mean [low, high]`` over draws; no zero-width interval: draws that all agree say so
    (``"1.000 in every draw"``), and an interval of one value beside another mean names it."""
    n = lambda v: claims.number(v, digits)  # noqa: E731
    if not np.isfinite(mean):
        return "undefined"
    if low == high:
        return f"{n(mean)} in every {what}" if mean == low else f"{n(mean)} (the middle {what}s all {n(low)})"
    return claims.bracket(mean, low, high, digits)


def tau_text(tau: float, low: float, high: float) -> str:
    """Kendall's tau with its asymptotic interval; none where the orderings agree (or reverse)
    exactly, since the asymptotic variance is 0 there, and "undefined" where an ordering ties every run."""
    if not np.isfinite(tau):
        return "undefined (an ordering ties every run)"
    if low == high:
        return f"{claims.number(tau)} (no interval: the orderings {'agree' if tau > 0 else 'reverse'} exactly)"
    return claims.bracket(tau, low, high)


@dataclass(frozen=True)
class Value:
    """A value of the run with its interval and what that interval is (``label``, e.g. ``"95%
    interval over 40 replicates"``); ``n`` the draws or replicates behind it (0: this collection
    alone) and ``unit`` what one of them is called (``"replicate"``, ``"draw"``)."""

    mean: float
    low: float
    high: float
    label: str = ""
    n: int = 0
    unit: str = "draw"

    @property
    def finite(self) -> bool:
        return all(np.isfinite(v) for v in (self.mean, self.low, self.high))

    def bracket(self, digits: int = 3) -> str:
        """``mean [low, high]`` without the label; no zero-width interval."""
        if not np.isfinite(self.mean):
            return "undefined"
        if not (np.isfinite(self.low) and np.isfinite(self.high)):
            return claims.number(self.mean, digits)
        if self.low == self.high:
            return spread(self.mean, self.low, self.high, digits, what=self.unit) if self.n else claims.number(self.mean)
        return claims.bracket(self.mean, self.low, self.high, digits)

    def text(self, digits: int = 3) -> str:
        """``mean [low, high] (label)``: the bracket and what it is."""
        b = self.bracket(digits)
        return f"{b} ({self.label})" if self.label and "[" in b else b


def _unit(what: str) -> str:
    """``"replicates"`` -> ``"replicate"``, ``"draws of U2"`` -> ``"draw"``."""
    return what.split()[0].rstrip("s")


def over(values, what: str) -> Value:
    """The mean of ``values`` (draws or replicates; NaN dropped) and their 95% percentile interval,
    or their range with fewer than 40 (:func:`helpers.notebook.claims.interval`)."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if not len(x):
        return Value(float("nan"), float("nan"), float("nan"), f"no {what}", 0, _unit(what))
    c = claims.interval(x).numbers
    return Value(float(c["mean"]), float(c["low"]), float(c["high"]),
                 f"{spread_name(len(x))} over {len(x)} {what}", len(x), _unit(what))


#: The range each quantity a row reads can take (Kendall's tau, probabilities and shares, gaps, z
#: and ratios): a 95% CI of its mean is cut to it (Student's t knows no bound: 0.950 [0.886, 1.014]).
BOUNDS = {"7": (-1.0, 1.0), "table7": (-1.0, 1.0), "6": (-1.0, 1.0), "p": (0.0, 1.0), "5": (0.0, 1.0),
          "eq": (0.0, np.inf), "eq_gap": (0.0, 1.0), "eq_z": (0.0, np.inf), "fig2": (0.0, np.inf),
          "boot_ratio": (0.0, np.inf), "udm": (0.0, np.inf)}


def mean_ci(values, what: str, bounds: tuple = (-np.inf, np.inf)) -> Value:
    """The mean of ``values`` (replicates or draws; NaN dropped) with the 95% CI *of the mean*
    (Student's t, :func:`helpers.stats.summary.mean_interval`): the interval every comparison over
    replicates or draws reads, as :func:`helpers.notebook.claims.paired_difference` does for Table 6.
    The interval is cut to ``bounds``, the range the quantity can take (:data:`BOUNDS`), and its label
    says so when a cut was made. NaN bounds with fewer than 2 values."""
    from ..stats.summary import mean_interval

    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if not len(x):
        return Value(float("nan"), float("nan"), float("nan"), f"no {what}", 0, _unit(what))
    lo, hi = (float(v) for v in mean_interval(x, 0.95)[:2]) if len(x) > 1 else (float("nan"), float("nan"))
    cut = (np.isfinite(lo) and lo < bounds[0]) or (np.isfinite(hi) and hi > bounds[1])
    if cut:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
    label = f"95% CI of the mean over {len(x)} {what}" + (", cut to its range" if cut else "")
    return Value(float(x.mean()), lo, hi, label, len(x), _unit(what))


def sim_mean(sim, table: str, comparison: str, what: str = "replicates") -> Value:
    """:func:`mean_ci` of one quantity of :func:`helpers.replicates.prm.prm_robustness` over the
    replicates, its interval cut to the quantity's range (:data:`BOUNDS`)."""
    rep = sim.rep
    return mean_ci(rep.loc[(rep["table"] == table) & (rep["comparison"] == comparison), "tau"], what,
                   BOUNDS.get(table, (-np.inf, np.inf)))


def draw_mean(d, quantity: str, level: str | None = None, theta: int | None = None,
              what: str = "draws of U2") -> Value:
    """:func:`mean_ci` of one quantity of :func:`helpers.replicates.prm.prm_u2_draw` over the draws of
    ``d`` (a :class:`helpers.replicates.prm.Draws`), at ``level`` and ``theta`` when given."""
    rep = d.rep
    keep = rep["quantity"] == quantity
    if level is not None:
        keep &= rep["level"].astype(str) == str(level)
    if theta is not None:
        keep &= rep["theta"] == theta
    return mean_ci(rep.loc[keep, "value"], what, BOUNDS.get(quantity, (-np.inf, np.inf)))


def draw_median(d, quantity: str, level: str | None = None, theta: int | None = None,
                what: str = "draws of U2") -> Value:
    """The median of one quantity over the draws of ``d`` with their range (min, max): what one
    draw of U2 can give, for a row judged on every draw (Table 7), not an interval of a mean."""
    rep = d.rep
    keep = (rep["quantity"] == quantity) & (rep["level"].astype(str) == str(level) if level is not None else True)
    if theta is not None:
        keep &= rep["theta"] == theta
    x = rep.loc[keep, "value"].to_numpy(dtype=float)
    x = x[np.isfinite(x)]
    if not len(x):
        return Value(float("nan"), float("nan"), float("nan"), f"no {what}", 0, _unit(what))
    return Value(float(np.median(x)), float(x.min()), float(x.max()), f"median [range] over {len(x)} {what}",
                 len(x), _unit(what))


def from_summary(s: pd.DataFrame, what: str) -> Value:
    """A one-row :func:`helpers.replicates.runner.summarise` frame as a :class:`Value`."""
    r = s.iloc[0]
    n = int(r["replicates"])
    return Value(float(r["mean"]), float(r["low"]), float(r["high"]), f"{spread_name(n)} over {n} {what}", n,
                 _unit(what))


def sim_values(sim, table: str, comparison: str, what: str = "replicates") -> Value:
    """One quantity of :func:`helpers.replicates.prm.prm_robustness` over the replicates of ``sim``."""
    rep = sim.rep
    return over(rep.loc[(rep["table"] == table) & (rep["comparison"] == comparison), "tau"], what)


def bootstrap_ratio(sd: float, sigma: float, B: int) -> Value:
    """The topic-bootstrap sd of p(T|T) over its binomial sigma, with the 95% chi-square interval
    for the Monte Carlo noise of ``B`` resamples (:func:`helpers.stats.sd_interval`); NaNs when sigma
    is 0 or undefined (p(T|T) of 0 or 1, or no judgment at the top level)."""
    from .. import stats

    label = f"95% Monte Carlo interval, {B} resamples"
    if not (np.isfinite(sigma) and sigma > 0 and np.isfinite(sd)):
        return Value(float("nan"), float("nan"), float("nan"), label)
    lo, hi = (float(v / sigma) for v in stats.sd_interval(sd, B))
    return Value(float(sd / sigma), lo, hi, label)


def nonmonotone(p_by_theta: Mapping, intervals: Mapping, names: Sequence[str] | None = None) -> dict:
    """Per threshold, the falls of the gains as the level rises that their intervals show:
    ``{theta: [Claim, ...]}``, one :func:`helpers.notebook.claims.compare` of a higher level's gain
    against a lower level's where the higher one is the smaller *and* the two intervals
    (``intervals[theta][level] = (low, high)``) do not overlap. A fall within the intervals is no
    claim; a level without an interval is never compared."""
    out = {}
    nm = (lambda i: names[i]) if names is not None else str  # noqa: E731
    for th, p in p_by_theta.items():
        s, iv = pd.Series(p, dtype=float).dropna().sort_index(), intervals.get(th, {})
        for j in s.index:
            for i in s.index[s.index < j]:
                if s[j] < s[i] and i in iv and j in iv and all(np.isfinite(iv[i])) and all(np.isfinite(iv[j])):
                    c = claims.compare(f"p(R|{nm(int(j))})", s[j], f"p(R|{nm(int(i))})", s[i], interval_a=tuple(iv[j]),
                                       interval_b=tuple(iv[i]))
                    if c.numbers["differs"]:
                        out.setdefault(th, []).append(c)
    return out


def binomial_intervals(p_by_theta: Mapping, sigma_by_theta: Mapping, sd_by_theta: Mapping | None = None) -> dict:
    """``{theta: {level: (low, high)}}``: p ± 1.96 sigma, the binomial sigma of the estimate, with
    ``sd_by_theta`` (the sd over draws of U2) added in quadrature: the estimate's sampling error and
    the choice of U2 together."""
    out = {}
    for th, p in p_by_theta.items():
        sig = sigma_by_theta.get(th, {})
        sd = (sd_by_theta or {}).get(th, {})
        out[th] = {i: (float(v - 1.96 * np.hypot(sig[i], sd.get(i, 0.0))), float(v + 1.96 * np.hypot(sig[i], sd.get(i, 0.0))))
                   for i, v in dict(p).items() if i in sig and np.isfinite(v) and np.isfinite(sig[i])}
    return out


def marginals(rep: pd.DataFrame, table: str) -> dict:
    """In how many replicates U1's and U2's marginals differ (Stuart-Maxwell p < 0.05; the rows
    :data:`helpers.replicates.prm.MARGINALS` of ``table``): ``{"differ", "n", "p"}`` (``p`` NaN)."""
    from ..replicates.prm import MARGINALS

    v = rep.loc[(rep["table"] == table) & (rep["comparison"] == MARGINALS), "tau"].dropna()
    return {"differ": int(v.sum()), "n": len(v), "p": float("nan")}


def _udm_text(prm_v: Value, udm_v: Value) -> dict:
    """The two gain ratios of Sect. 3.4.3, one label for both."""
    plural = prm_v.label.replace("CI of the mean", "CIs of the means", 1).replace("interval", "intervals", 1)
    label = f" ({plural})" if prm_v.label and prm_v.n else ""
    return {"prm_ratio": prm_v.bracket(), "udm_ratio": udm_v.bracket() + label,
            "numbers": {"prm_ratio": prm_v.mean, "udm_ratio": udm_v.mean, "prm_low": prm_v.low,
                        "prm_high": prm_v.high, "udm_low": udm_v.low, "udm_high": udm_v.high, "n": prm_v.n}}


def this_collection(*, pairs: pd.DataFrame, T: int, boot_sd: float, sigma: float, B: int, t5: pd.DataFrame,
                    thetas: Sequence[int], table7_row, tau_level: float, udm: Mapping, p_gain: Mapping,
                    p_sigma: Mapping | None = None, names: Sequence[str] | None = None) -> dict:
    """The findings' values from this collection alone (no replicates, no draws of U2).

    ``t5``: Table 5's summary indexed by theta; ``table7_row``: Table 7's PRM-vs-binary row at theta
    = T; ``udm``: the notebook's ``udm_vs_prm`` ratios; ``p_gain``: the gains per threshold, with
    ``p_sigma`` their binomial sigmas (a fall in the gains is claimed only outside p ± 1.96 sigma)."""
    g = prm.estimator_gap(pairs, T, T=T)
    m = prm.marginal_tests(pairs, T=T)["stuart_maxwell"]["p"]
    u_prm, u_udm = float(udm["prm_ratio_top_two"]), float(udm["udm_ratio_top_two"])
    return {"eq_gap": (Value(float(g["gap"].max()), np.nan, np.nan), Value(float(g["z"].max()), np.nan, np.nan)),
            "marginals": {"differ": int(m < 0.05), "n": 1, "p": float(m)},
            "ratio": bootstrap_ratio(boot_sd, sigma, B),
            "table5_shares": {th: float(t5.loc[th, "share_prm_more_precise"]) for th in thetas},
            "table7": Value(float(table7_row["tau"]), float(table7_row["low"]), float(table7_row["high"]),
                            f"asymptotic {level_text(tau_level)} CI of Kendall's τ"),
            "udm": {"prm_ratio": f"{u_prm:.2f}", "udm_ratio": f"{u_udm:.2f}",
                    "numbers": {"prm_ratio": u_prm, "udm_ratio": u_udm}},
            "over_what": "", "nonmono": nonmonotone(p_gain, binomial_intervals(p_gain, p_sigma or {}), names),
            "nonmono_label": "p ± 1.96 binomial σ"}


def over_replicates(sim, *, names: Sequence[str], thetas: Sequence[int], all_thetas: Sequence[int]) -> dict:
    """The findings' values over the replicates of the simulation (:func:`helpers.replicates.prm.simulated`
    with ``details``): Table 2's gap, the bootstrap ratio, Table 5's shares, Table 7, the UDM
    ratios, the thresholds with non-monotone mean gains and, when run, the collections where the
    PRM's assumptions fail."""
    from ..replicates.prm import STRESS

    T = len(names) - 1
    rep = sim.rep
    means = rep.groupby(["table", "comparison"])["tau"].mean()
    p_ci = {th: {i: sim_mean(sim, "p", f"theta={names[th]}, level={names[i]}") for i in range(T + 1)}
            for th in all_thetas}
    p_mean = {th: {i: v.mean for i, v in by.items()} for th, by in p_ci.items()}
    p_iv = {th: {i: (v.low, v.high) for i, v in by.items()} for th, by in p_ci.items()}
    out = {"eq_gap": (sim_mean(sim, "eq", "largest gap"), sim_mean(sim, "eq", "largest z")),
           "marginals": marginals(rep, "eq"),
           "ratio": sim_mean(sim, "fig2", "sd / sigma"),
           "table5_shares": {th: float(means[("5", f"share PRM more precise, theta={names[th]}")]) for th in thetas},
           "table7": sim_mean(sim, "7", f"theta={names[T]}, PRM vs binary"),
           "udm": _udm_text(sim_mean(sim, "udm", "prm_ratio"), sim_mean(sim, "udm", "udm_ratio")),
           "over_what": f"{sim.replicates} replicates", "nonmono": nonmonotone(p_mean, p_iv, names),
           "nonmono_label": f"95% CIs of the means over {sim.replicates} replicates", "stress_shares": None}
    if sim.stress and STRESS[2] in set(rep["table"]):
        out["stress_shares"] = tuple(float(means[(STRESS[2], f"{who} top level")]) for who in ("U1", "U2")) + (
            marginals(rep, STRESS[1]),)
    return out


def over_draws(d, *, names: Sequence[str], thetas: Sequence[int], tau_level: float,
               p_sigma: Mapping | None = None) -> dict:
    """The findings' values over the draws of U2 (:func:`helpers.replicates.prm.draws` with
    ``details``). Every row that compares, Table 7 included, reads one interval rule: the 95% CI of
    the mean over the draws (:func:`draw_mean`). A fall in the gains is claimed only outside the
    mean ± 1.96 sqrt(sigma^2 + sd^2): ``p_sigma``, this draw's binomial sigmas, and the sd over the
    draws (sampling error and the choice of U2; the draws alone cover only the latter)."""
    T = len(names) - 1
    s = d.summaries
    table7 = draw_median(d, "table7", "PRM vs binary", T) if "table7" in s else Value(np.nan, np.nan, np.nan)
    udm = _udm_text(draw_mean(d, "udm", "prm_ratio"), draw_mean(d, "udm", "udm_ratio"))
    p_mean = {int(th): g.set_index("level")["mean"].rename(index=int).to_dict()
              for th, g in d.p_table.groupby("theta")}
    p_sd = {int(th): g.set_index("level")["sd"].rename(index=int).fillna(0.0).to_dict()
            for th, g in d.p_table.groupby("theta")}
    shares = s["table5_share_prm_more_precise"].set_index("theta")["mean"]
    mg = d.rep.loc[d.rep["quantity"] == "eq_marginals", "value"].dropna()
    hi7 = d.rep.loc[(d.rep["quantity"] == "table7_high") & (d.rep["level"].astype(str) == "PRM vs binary")
                    & (d.rep["theta"] == T), "value"].dropna()
    return {"eq_gap": (draw_mean(d, "eq_gap"), draw_mean(d, "eq_z")),
            "marginals": {"differ": int(mg.sum()), "n": len(mg), "p": float("nan")},
            "ratio": draw_mean(d, "boot_ratio") if "boot_ratio" in s else Value(np.nan, np.nan, np.nan),
            "table5_shares": {th: float(shares.loc[th]) for th in thetas}, "table7": table7, "udm": udm,
            "table7_below": (int((hi7 < 1).sum()), len(hi7)) if len(hi7) else None,
            "over_what": f"{d.replicates} draws of U2",
            "nonmono": nonmonotone(p_mean, binomial_intervals(p_mean, p_sigma or {}, p_sd), names),
            "nonmono_label": f"mean over {d.replicates} draws of U2 ± 1.96 √(binomial σ² + sd²)"}


def draw_position(r) -> str:
    """``"+2.4 sd"``, or ``"+2.4 sd, outside all 50 draws"`` when this notebook's draw of U2 lies
    beyond every redraw (a row of :func:`helpers.replicates.prm.p_over_draws`)."""
    outside = r.this_run > r.vmax or r.this_run < r.vmin
    return f"{r.z:+.1f} sd" + (f", outside all {int(r.replicates)} draws" if outside else "")


def atypical_line(s: pd.DataFrame, star=lambda t: "") -> str:
    """One sentence, printed once: where this notebook's draw of U2 lies outside every redraw, and
    that no finding rests on it (Tables 5–6 read the redraws; Table 7 compares the median and range
    of its τ over the redraws with the paper's 0.75). ``""`` when the draw is inside the redraws'
    range everywhere."""
    out = s[(s["this_run"] > s["vmax"]) | (s["this_run"] < s["vmin"])]
    if not len(out):
        return ""
    where = ", ".join(f"p(R|{r.level}) at theta = {r.theta}{star(r.theta)} ({r.this_run:.3f} vs "
                      f"range [{r.vmin:.3f}, {r.vmax:.3f}])" for r in out.itertuples())
    return (f"This draw of U2 is atypical: {where} lies outside all {int(out['replicates'].iloc[0])} redraws. "
            "No finding rests on it alone: Tables 5–6 read the redraws, and Table 7 compares the median and "
            "range of its τ over them with the paper's 0.75.")


def one_format(mean: float, low: float, high: float, digits: int = 3) -> str:
    """``claims.bracket`` with one number of decimals for a value and its interval: the most that
    :func:`helpers.notebook.claims.number` needs for any of the three (``"0.99 [0.80, 1.20]"``, not
    ``"0.99 [0.8, 1.2]"``)."""
    vals = [v for v in (mean, low, high) if v is not None and np.isfinite(v)]
    d = max([len(claims.number(v, digits).split(".")[1]) if "." in claims.number(v, digits) else 0 for v in vals]
            or [digits])
    return claims.bracket(mean, low, high, d)
