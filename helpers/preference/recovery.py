"""Single-study recovery: in ONE study, does MAR single out a group of measures?

Notebook 05's planted-truth experiment (:mod:`helpers.replicates.preference`) asks whether MAR
recovers the measure family aligned with a planted user model (:mod:`helpers.simulate.users`).
Averaged over many replicated studies the family can lead by a margin that no single study
resolves: the lead can be smaller than its spread from study to study. A reader of one study -
the paper had one, 1,127 pairs of 94 topics judged by 15 assessors - sees only that study. So every
replicate also answers, on its own:

* **first**: the family's best measure (highest MAR in this study) has a higher MAR than the best
  measure outside the family (strictly; a tie is not first);
* **significantly ahead** (significantly first): it is first, and Tukey's HSD with topics as blocks
  separates it from *every* measure outside the family, at the familywise level ``significance``.

The test is the classical counterpart of the notebook's randomised Tukey HSD over topics
(:func:`helpers.preference.questions.topic_blocked`): the per-topic mean agreement rates
(:func:`helpers.preference.topic_means`) form a topics x measures table, ``V_E`` is the residual
variance of its two-way ANOVA without replication (:func:`helpers.stats.residual_variance`), and
the largest family-minus-outside difference of topic means over ``sqrt(V_E / T)`` is referred to
the studentized range distribution with ``k`` measures and ``(T - 1)(k - 1)`` degrees of freedom
(``scipy.stats.studentized_range``; Tukey 1953, the blocked HSD of Sakai 2014). The exact
distribution replaces the B randomisation trials, which every replicate and panel could not
afford; the measures only (no assessor roles) enter the family of comparisons. With system effects
small against the noise, as in the notebook's studies, the two tests agree closely (the classical
p-value slightly the smaller: 0.013 against 0.018 and 0.674 against 0.699 on 90 topics x 12
measures, B = 4,000; tests/test_preference_recovery.py); with large effects among the other
systems the randomised test is the more conservative, since its null spreads those effects too. So
the one-study count of "significantly ahead" is, if anything, above what the randomised test would
give. Measures with
identical preferences on every pair are one measure under several names and count once (a
family member represents its group), so the family is never compared with itself and ``k``
counts distinct measures.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pandas as pd

from . import identical_preferences, topic_means

__all__ = ["distinct_measures", "blocked_tukey", "single_study", "critical_q"]


def distinct_measures(prefs: pd.DataFrame, prefer: Sequence[str] = (),
                      groups: Sequence[Sequence[str]] | None = None) -> list[str]:
    """The columns of ``prefs`` (pairs x measures) with each group of identical preferences
    (:func:`helpers.preference.identical_preferences`, or ``groups`` when already known) kept once:
    by its member that comes first in ``prefer`` when it has one, else by its first column. Column order
    is kept."""
    drop = set()
    for group in (identical_preferences(prefs) if groups is None else groups):
        group = [x for x in group if x in prefs.columns]
        if len(group) < 2:
            continue
        keep = next((x for x in prefer if x in group), group[0])
        drop |= {x for x in group if x != keep}
    return [c for c in prefs.columns if c not in drop]


@lru_cache(maxsize=64)
def _critical_at_infinite_df(k: int, significance: float) -> float:
    """The studentized range's upper ``significance`` point with ``k`` systems and infinite degrees
    of freedom: the smallest critical value any finite df can have (finite df only raise it)."""
    from scipy.stats import studentized_range

    return float(studentized_range.ppf(1.0 - significance, k, np.inf))


def critical_q(k: int, significance: float) -> float:
    """The smallest studentized range a study with ``k`` distinct measures needs to separate two of
    them at the familywise ``significance``, whatever its number of topics (the infinite-df point;
    finite degrees of freedom only raise it). E.g. 5.0 for 21 measures at 0.05."""
    return _critical_at_infinite_df(int(k), float(significance))


def blocked_tukey(per_topic: pd.DataFrame, a: str, others: Sequence[str],
                  significance: float | None = None) -> tuple[float, float]:
    """``(q, p)``: Tukey's HSD with topics as blocks for ``a`` against the best of ``others``.

    ``per_topic``: topics x measures (every column enters the family of ``k`` comparisons).
    ``q = (mean_a - max_b mean_b) / sqrt(V_E / T)`` and ``p`` its studentized-range tail
    probability with ``k`` systems and ``(T - 1)(k - 1)`` degrees of freedom; ``p = 1`` when ``a``
    is not ahead of every other (``q <= 0``), ``p = 0`` when the residual variance is 0 and it is.
    With ``significance``, ``p`` is left NaN when ``q`` is below the critical value at infinite df
    (then ``p > significance`` for every df; the exact tail costs ~10 ms a call). NaN with fewer
    than 2 topics or 2 columns."""
    from scipy.stats import studentized_range

    from ..stats import residual_variance

    T, k = per_topic.shape
    if T < 2 or k < 2 or a not in per_topic.columns or not len(others):
        return float("nan"), float("nan")
    means = per_topic.mean()
    diff = float(means[a] - means[list(others)].max())
    ve = float(residual_variance(per_topic))
    if diff <= 0:
        return (diff / np.sqrt(ve / T) if ve > 0 else float("-inf")), 1.0
    if ve <= 0:
        return float("inf"), 0.0
    q = diff / np.sqrt(ve / T)
    if significance is not None and q < _critical_at_infinite_df(int(k), float(significance)):
        return float(q), float("nan")
    return float(q), float(studentized_range.sf(q, k, (T - 1) * (k - 1)))


def single_study(rates: pd.DataFrame, prefs: pd.DataFrame, topics: pd.Series, family: Sequence[str],
                 significance: float, groups: Sequence[Sequence[str]] | None = None,
                 prefer: Sequence[str] = ()) -> dict | None:
    """One study's reading of a family (module docstring).

    Parameters
    ----------
    rates : DataFrame, pairs x measures
        Per-pair agreement rates (:func:`helpers.preference.agreement_rates`).
    prefs : DataFrame, pairs x measures
        The measures' preferences on the same pairs (to enter identical measures once).
    topics : Series
        ``pair_id -> query_id`` for every pair of ``rates``.
    family : sequence of str
        The family's measures (columns of ``rates``).
    significance : float
        Familywise level of the blocked Tukey HSD.
    groups : list of lists, optional
        The groups of identical preferences of ``prefs`` when already known (else computed).
    prefer : sequence of str, optional
        Family members to keep, before the other members, for a group of identical measures (e.g.
        I-rec rather than D#-RBP (p = 0.99)).

    Returns
    -------
    dict ``best_in``, ``best_out`` (by MAR in this study), ``lead`` (their MAR difference),
    ``first`` (``lead > 0``), ``q``, ``p`` (NaN when ``q`` is below every df's critical value) and
    ``ahead`` (first and ``p < significance``: significantly first), ``measures`` (distinct ones, ``k``),
    ``family`` (distinct family members: ``family / measures`` is the chance that a random order puts
    one first) and ``topics``; None when the family or the rest is empty.
    """
    keep = distinct_measures(prefs[list(rates.columns)], prefer=[*prefer, *family], groups=groups)
    fam = [m for m in keep if m in set(family)]
    rest = [m for m in keep if m not in set(family)]
    if not fam or not rest:
        return None
    mar = rates[keep].mean()
    a, b = mar[fam].idxmax(), mar[rest].idxmax()
    lead = float(mar[a] - mar[b])
    per_topic = topic_means(rates[keep], topics)
    q, p = blocked_tukey(per_topic, a, rest, significance)
    return {"best_in": a, "best_out": b, "lead": lead, "first": bool(lead > 0), "q": q, "p": p,
            "ahead": bool(lead > 0 and np.isfinite(p) and p < significance), "measures": len(keep),
            "family": len(fam), "topics": len(per_topic)}
