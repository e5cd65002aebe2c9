"""Checks of planted-truth experiments that can fail (notebook 04, section 7).

A planted-truth experiment validates a method only if its check could have come out the other way.
"A measure of the aligned family is among the leaders" cannot, when the leaders and everything within
noise of them hold most of the measures: :func:`chance_of_a_member` says how likely a random set of
that size is to pass it. :func:`family_check` compares the family's best measure with the best one
outside it, paired over replicates, and :func:`coinciding` names planted truths no analysis can tell
apart because they order the runs identically.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..stats.paired import holm
from ..stats.summary import mean_interval, min_draws

__all__ = ["MIN_REPLICATES", "verdict_replicates", "chance_of_a_member", "family_check", "difference_label", "coinciding", "departures", "mean_interval",
           "VERDICT_TEXT"]

#: The fewest replicates from which notebook 04's planted-truth checks give a verdict or an interval,
#: at any level: the family check picks on half of them and tests on the other half, so 40 leave 20
#: for its t interval (notebook 05 asks the same: :data:`helpers.findings.preference_recovery.MIN_REPLICATES`).
MIN_REPLICATES = 40


def verdict_replicates(level: float) -> int:
    """The replicates a planted-truth check needs for a verdict at ``level``: :data:`MIN_REPLICATES`,
    or more when the interval rule asks more (:func:`helpers.stats.summary.min_draws`: 200 at 99%).
    At a loose level the interval rule alone would allow verdicts from 10 replicates (80%), tested on 5."""
    return max(MIN_REPLICATES, min_draws(level))


#: How notebooks 04 and 05 word each verdict of :func:`family_check`.
VERDICT_TEXT = {"recovered": "recovered (the family's best is ahead; the 95% CI of the mean difference excludes 0)",
                "not shown": "not shown (the 95% CI of the mean difference includes 0)",
                "outside ahead": "not shown (the best measure outside the family is ahead; the 95% CI of the mean "
                                 "difference excludes 0)",
                "not testable": "not testable (no measure in the family, or none outside it)"}


def chance_of_a_member(n: int, members: int, k: int) -> float:
    """The chance that ``k`` labels drawn at random without replacement from ``n`` contain at least
    one of ``members`` marked labels (hypergeometric: ``1 - C(n - members, k) / C(n, k)``).

    The yardstick of a "some member is among the leaders" check: when a random set of the leader
    set's size almost surely holds a member, the check passing says nothing.
    """
    n, members, k = int(n), int(members), int(k)
    if not (0 <= members <= n and 0 <= k <= n):
        raise ValueError(f"chance_of_a_member needs 0 <= members, k <= n, got n={n}, members={members}, k={k}")
    return 1.0 - math.comb(n - members, k) / math.comb(n, k)


def family_check(wide: pd.DataFrame, in_family: Sequence[str], *, means: Mapping[str, float] | None = None,
                 level: float = 0.95, leader_set: Sequence[str] | None = None, digits: int = 3) -> dict:
    """Does a planted model's aligned family recover it better than every other measure?

    The check of notebook 04's section 7, one that can fail: the family's best measure (highest
    mean recovery) against the best measure *outside* the family, paired over replicates
    (``wide``: replicates x measures, as in :func:`paired_leader_intervals`). The question is whether
    the family's best is ahead *on average*, so the interval is the ``level`` confidence interval of
    the mean paired difference over the independent replicates (Student's t, :func:`mean_interval`),
    not the spread of single replicates (a percentile interval of the draws answers "is it ahead in
    one replicate?", a much stronger demand that no mean difference meets unless it is huge). Verdict:

    * ``"recovered"``: the family's best is ahead and the CI excludes 0;
    * ``"outside ahead"``: the best outside measure is ahead and the CI excludes 0;
    * ``"not shown"``: the CI includes 0 (the two cannot be told apart);
    * ``"not testable"``: no measure in the family, or none outside it.

    The bests are picked on one half of the replicates (the even rows of ``wide``) and their paired
    difference is tested on the other half (the odd rows): picking both maxima on the replicates
    they are tested on would bias the difference and leave the CI away from its nominal level (a
    maximum of more noisy means is biased upwards more, and the outside group is the larger).
    Cross-fitting both ways and pooling is no cure: when both halves pick the same pair, the two
    halves' differences move together and the pooled t interval is too narrow (measured: 3.6% and
    4.0% of null datasets called either way at a nominal 2.5%, against 2.3% and 2.6% for the single
    split). Outside measures tied with the best at ``digits`` decimals on the picking half are all
    compared, and the least favourable comparison is kept. With fewer than 4 replicates nothing can
    be split: the picks are then made on all replicates and ``selection`` says ``"in sample"``.
    ``leader_set`` (the leader and everything within noise, as
    :func:`helpers.notebook.claims.leaders` names them) gives ``chance_random_set``: the chance that
    a random set of that size holds a family member (:func:`chance_of_a_member`) - how little "a
    family member is among the leaders" would say.

    Returns a dict: ``best_in``, ``best_out`` (the pair tested, picked on the picking half), ``mean_in``,
    ``mean_out`` (their means over all replicates, by ``means``), ``diff`` (mean difference on the testing half), ``low``, ``high``, ``kind``
    (``"mean CI"``, or ``"none"`` with fewer than 2 replicates), ``p`` (the two-sided t-test of the
    same differences, for a correction over several checks), ``replicates``, ``verdict``,
    ``selection`` (``"split"`` or ``"in sample"``), ``picks`` (the (family, outside) pair tested), ``measures``,
    ``family_size`` and, with ``leader_set``, ``leader_set_size``, ``family_in_leader_set`` and
    ``chance_random_set``.
    """
    m = dict(means) if means is not None else wide.mean().to_dict()
    m = {k: float(v) for k, v in m.items() if k in wide.columns and np.isfinite(v)}
    fam = [k for k in m if k in set(in_family)]
    rest = [k for k in m if k not in set(in_family)]
    out = {"measures": len(m), "family_size": len(fam), "best_in": None, "best_out": None, "mean_in": float("nan"),
           "mean_out": float("nan"), "diff": float("nan"), "low": float("nan"), "high": float("nan"), "kind": "range",
           "replicates": 0, "verdict": "not testable", "selection": None, "picks": []}
    if leader_set is not None:
        ls = [k for k in leader_set if k in m]
        out.update(leader_set_size=len(ls), family_in_leader_set=sum(k in set(fam) for k in ls),
                   chance_random_set=chance_of_a_member(len(m), len(fam), len(ls)))
    if not fam or not rest:
        return out
    split = len(wide) >= 4
    picked_on = wide.iloc[::2].mean() if split else pd.Series(m)   # even rows pick, odd rows test
    a, b, d = _least_favourable(wide.iloc[1::2] if split else wide, {k: float(picked_on[k]) for k in m},
                                fam, rest, level, digits)
    lo, hi, kind = mean_interval(d, level)
    diff = float(d.mean()) if len(d) else float("nan")
    # two-sided one-sample t-test of the same differences, for a correction over cases (Holm)
    p_t = (float(departures([diff], [d.std(ddof=1)], [len(d)])["p"].iloc[0]) if len(d) > 1 else float("nan"))
    verdict = ("recovered" if diff > 0 and lo > 0 else "outside ahead" if diff < 0 and hi < 0 else "not shown")
    # best_in/best_out are the pair tested (picked on one half), so the names and the difference agree
    out.update(best_in=a, best_out=b, mean_in=m[a], mean_out=m[b], diff=diff, low=lo, high=hi, kind=kind, p=p_t,
               replicates=int(len(d)), verdict=verdict, picks=[(a, b)], selection="split" if split else "in sample")
    return out


def _least_favourable(test: pd.DataFrame, m: Mapping[str, float], fam: Sequence[str], rest: Sequence[str],
                      level: float, digits: int) -> tuple[str, str, np.ndarray]:
    """The family's best (by ``m``) and, of the outside measures tied with the best outside one at
    ``digits`` decimals, the one whose paired difference on ``test`` has the lowest lower bound."""
    a = max(fam, key=lambda k: m[k])
    top_out = max(m[k] for k in rest)
    tied_out = [k for k in rest if f"{m[k]:.{digits}f}" == f"{top_out:.{digits}f}"]
    best = None
    for b_ in tied_out:
        d_ = (test[a] - test[b_]).to_numpy(float)
        d_ = d_[np.isfinite(d_)]
        lo_ = mean_interval(d_, level)[0]
        if best is None or not lo_ >= best[1]:
            best = (b_, lo_, d_)
    return a, best[0], best[2]


def difference_label(ck: Mapping) -> str:
    """How to name a :func:`family_check`'s difference: ``"D-nDCG (the family's best) − D-RBP (the
    best outside it), both picked on half of the replicates, compared on the other 20"``."""
    (a, b), = ck["picks"]
    names = f"{a} (the family's best) − {b} (the best outside it)"
    if ck["selection"] == "split":
        return f"{names}, both picked on half of the replicates, compared on the other {ck['replicates']}"
    return f"{names}, picked on the same {ck['replicates']} replicates (too few to split)"


def coinciding(tau: pd.DataFrame, tol: float = 1e-9) -> list[tuple[str, str]]:
    """Pairs of planted truths whose run orders coincide (Kendall's τ between them within ``tol`` of
    1, from a square ``tau`` table): no analysis of these runs can tell those users apart."""
    labels = list(tau.index)
    return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:]
            if np.isfinite(tau.loc[a, b]) and tau.loc[a, b] >= 1 - tol]


def departures(mean, sd, n, *, null: float = 0.0, alpha: float = 0.05) -> pd.DataFrame:
    """Which of several means over independent replicates depart from ``null``, Holm-corrected:
    the check of a null truth (no measure should recover it; each should sit at its chance level).

    Each mean gets a two-sided one-sample t-test (``sd``: the replicates' standard deviation, ``n``
    replicates; a zero spread departs exactly when the mean differs from ``null``) and Holm's
    adjustment over the family (:func:`helpers.stats.paired.holm`), in which rows with identical
    ``(mean, sd, n)`` - one measure under several names - count once. Calling a null check failed
    because one of many uncorrected intervals excludes ``null`` would find a bias in about one test
    in twenty by chance alone.

    Returns a DataFrame (the input order) ``p``, ``p_holm``, ``departs`` (``p_holm < alpha``) and
    ``family`` (the number of distinct tests Holm corrects over)."""
    from scipy.stats import t as _t

    m, s_, k = (np.asarray(v, dtype=float) for v in (mean, sd, n))
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = (m - null) / (s_ / np.sqrt(k))
        p = 2 * _t.sf(np.abs(stat), k - 1)
    p = np.where(s_ == 0, np.where(m == null, 1.0, 0.0), p)
    keys = list(zip(m.round(12), s_.round(12), k))
    first = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    distinct = sorted(first.values())
    adj_distinct = holm(p[distinct])
    by_key = {keys[i]: a for i, a in zip(distinct, adj_distinct)}
    p_holm = np.array([by_key[key] for key in keys])
    return pd.DataFrame({"p": p, "p_holm": p_holm, "departs": p_holm < alpha, "family": len(distinct)})
