"""Notebook 05's analyses per question: MAR tables and the randomised Tukey HSD with pairs and with
topics as blocks (Zeng & Sakai, Tables 2-5; Sakai & Zeng, SIGIR 2019).

The assessors answer one or more *questions* about each SERP pair (the paper: relevance and
diversity). Each question is analysed on its own; with both a relevance and a diversity question
there is a third, ``"both"`` (the paper's Table 2): per pair only the labels of assessors who gave
the same label to both questions (:func:`helpers.preference.consistent_labels`), and pairs with
fewer than two such assessors left out, since leave-one-out needs another assessor.

Conventions
-----------
* MAR of measures and assessors: :func:`helpers.preference.mean_agreement_rate`; assessors scored
  leave-one-out; for ``"both"`` the candidates are every assessor's relevance and diversity labels
  (``A01rel``, ``A01div``), each compared with the consistent labels of the *other* assessors.
* HSD: :func:`helpers.stats.randomised_tukey_hsd` over the pairs x systems matrix (the measures and
  the best/median/worst assessor roles); measures with identical preferences on every pair enter
  once, under their first name; questions whose matrices have one shape share the trials (common
  random numbers). Each result row is oriented winner > loser (``higher``, ``lower``, ``delta_mar``).
* Topics as blocks (:func:`topic_blocked`): the same matrix averaged per topic
  (:func:`helpers.preference.topic_means`), then the HSD over topics. Pairs of one topic share its
  SERPs, so they are not independent blocks; the topic-blocked count is the one to read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import stats
from . import (agreement_matrix, agreement_rates, assessor_agreement_rates, assessor_groups, chance_levels,
               consistent_labels, mean_agreement_rate, topic_means)

__all__ = ["Questions", "MarTable", "mar_tables", "mar_of", "hsd_matrices", "hsd", "topic_blocked", "ROLE_COLUMNS"]

#: The assessor roles' columns in the HSD matrix.
ROLE_COLUMNS = ("best assessor", "median assessor", "worst assessor")


@dataclass(frozen=True)
class Questions:
    """The labels of every question, and the consistent labels of ``"both"`` when there are a
    relevance and a diversity question (:meth:`of`)."""

    labels: Mapping[str, pd.DataFrame]
    consistent: pd.DataFrame | None = None

    @classmethod
    def of(cls, labels: Mapping[str, pd.DataFrame]) -> "Questions":
        both = (consistent_labels(labels["relevance"], labels["diversity"])
                if {"relevance", "diversity"} <= set(labels) else None)
        return cls(dict(labels), both)

    @property
    def names(self) -> list[str]:
        """The questions analysed: those of the labels, then ``"both"`` when there is one."""
        return list(self.labels) + (["both"] if self.consistent is not None else [])

    @property
    def n_consistent(self) -> pd.Series | None:
        """Per pair, how many assessors gave both questions the same label."""
        return None if self.consistent is None else self.consistent.notna().sum(axis=1)

    def setup(self, question: str):
        """``(reference, candidates, owners)`` of one question: the labels the measures and the
        assessors are compared with, the assessors' candidate labels and, for ``"both"``, each
        candidate's owner (left out of its own comparison)."""
        if question != "both":
            return self.labels[question], self.labels[question], None
        keep = self.n_consistent >= 2
        cand = pd.concat([self.labels["relevance"].add_suffix("rel"), self.labels["diversity"].add_suffix("div")],
                         axis=1)[keep]
        return self.consistent[keep], cand, {c: c[:-3] for c in cand.columns}


@dataclass(frozen=True)
class MarTable:
    """One question's MAR: measures and assessors sorted by MAR (descending), the in-sample
    best/median/worst assessors, the number of pairs and the side-by-side table the notebook saves."""

    mar: pd.Series
    assessors: pd.Series
    groups: dict
    pairs: int
    table: pd.DataFrame


def mar_of(prefs: pd.DataFrame, reference: pd.DataFrame) -> pd.Series:
    """Every measure's MAR against ``reference`` on the reference's pairs, sorted descending."""
    return mean_agreement_rate(agreement_rates(prefs.loc[reference.index], reference)).sort_values(ascending=False)


def _side_by_side(mar: pd.Series, ma: pd.Series, groups: Mapping) -> pd.DataFrame:
    """Measures and their MAR beside the assessors (role in brackets) and theirs, padded."""
    side = [f"{name} ({role})" if role else name for name in ma.index
            for role in [next((k for k, v in groups.items() if v == name), "")]]
    n = max(len(mar), len(ma))
    pad = lambda xs, k, fill: list(xs) + [fill] * (k - len(xs))  # noqa: E731
    return pd.DataFrame({"measure": pad(mar.index, n, ""), "MAR": pad(mar.to_numpy(), n, np.nan),
                         "assessor": pad(side, n, ""), "assessor MAR": pad(ma.to_numpy(), n, np.nan)})


def mar_tables(questions: Questions, prefs: pd.DataFrame) -> dict[str, MarTable]:
    """MAR of every measure and assessor (in sample) for every question (the paper's Tables 2, 4, 5)."""
    out = {}
    for q in questions.names:
        reference, cand, owners = questions.setup(q)
        mar = mar_of(prefs, reference)
        ma = mean_agreement_rate(assessor_agreement_rates(cand, reference=reference, owners=owners)
                                 ).sort_values(ascending=False)
        groups = assessor_groups(ma)
        out[q] = MarTable(mar, ma, groups, len(reference), _side_by_side(mar, ma, groups))
    return out


def hsd_matrices(questions: Questions, prefs: pd.DataFrame, roles: Mapping[str, dict],
                 groups: Mapping[str, Mapping], twins: Sequence[Sequence[str]] = ()) -> dict[str, pd.DataFrame]:
    """Per question, the pairs x systems matrix of per-pair agreement rates: every measure, then the
    best/median/worst assessor (cross-fitted ``roles[q]["rates"]`` when there are, else the in-sample
    ``groups[q]``). Measures of one group of ``twins`` (identical preferences on every pair,
    :func:`helpers.preference.identical_preferences`) enter once, under the group's first name."""
    dupes = [x for g in twins for x in g[1:]]
    out = {}
    for q in questions.names:
        reference, cand, owners = questions.setup(q)
        on = prefs.loc[reference.index]
        role_rates = roles[q]["rates"] if q in roles else agreement_matrix(
            on, reference, candidates=cand, owners=owners,
            assessors={f"{k} assessor": v for k, v in groups[q].items()})[list(ROLE_COLUMNS)]
        m = pd.concat([agreement_rates(on, reference), role_rates], axis=1)
        out[q] = m.drop(columns=[x for x in dupes if x in m.columns])
    return out


def _oriented(res: pd.DataFrame, matrix: pd.DataFrame) -> pd.DataFrame:
    """An HSD result with every row as winner > loser, sorted by p-value then ΔMAR (descending)."""
    flip = res["diff"] < 0
    res = res.assign(higher=np.where(flip, res.system_b, res.system_a), lower=np.where(flip, res.system_a, res.system_b),
                     delta_mar=res["diff"].abs())[["higher", "lower", "delta_mar", "p_value", "es_hsd"]]
    res = res.sort_values(["p_value", "delta_mar"], ascending=[True, False], kind="stable").reset_index(drop=True)
    res.attrs.update(matrix=matrix, ve=stats.residual_variance(matrix))
    return res


def hsd(matrices: Mapping[str, pd.DataFrame], *, B: int, rng: np.random.Generator) -> dict[str, pd.DataFrame]:
    """The randomised Tukey HSD of every question with pairs as blocks (the paper's Table 3), each
    row oriented winner > loser; ``attrs``: the ``matrix`` and its residual variance ``ve``.
    Questions whose matrices have one shape share one set of B trials (common random numbers)."""
    names = list(matrices)
    if len({m.shape for m in matrices.values()}) == 1:
        raw = dict(zip(names, stats.randomised_tukey_hsd_many([matrices[q] for q in names], B=B, rng=rng)))
    else:
        raw = {q: stats.randomised_tukey_hsd(matrices[q], B=B, rng=rng) for q in names}
    return {q: _oriented(raw[q], matrices[q]) for q in names}


def _significant_pairs(a: Sequence, b: Sequence, p: Sequence, significance: float) -> set:
    return {frozenset(x) for x, pv in zip(zip(a, b), p) if pv < significance}


def topic_blocked(results: Mapping[str, pd.DataFrame], topics: pd.Series, *, B: int, rng: np.random.Generator,
                  significance: float) -> dict[str, dict]:
    """The same tests with topics as blocks: each question's matrix (``results[q].attrs["matrix"]``)
    averaged per topic, then the randomised Tukey HSD over topics.

    Returns per question a dict: ``result`` (the topic-level HSD, oriented as :func:`hsd`'s),
    ``topics``, ``comparisons``, ``significant`` (count over topics), ``pair_level`` (count over
    pairs) and ``survive`` (pair-level significant differences also significant over topics)."""
    out = {}
    for q, res in results.items():
        matrix = res.attrs["matrix"]
        per_topic = topic_means(matrix, topics)
        res_t = stats.randomised_tukey_hsd(per_topic, B=B, rng=rng)
        sig_t = _significant_pairs(res_t.system_a, res_t.system_b, res_t.p_value, significance)
        sig_p = _significant_pairs(res.higher, res.lower, res.p_value, significance)
        out[q] = {"result": _oriented(res_t, per_topic), "topics": len(per_topic), "comparisons": len(res_t),
                  "significant": len(sig_t), "pair_level": len(sig_p), "survive": len(sig_t & sig_p)}
    return out


def with_topic_p(pair_level: pd.DataFrame, blocked: pd.DataFrame, significance: float) -> pd.DataFrame:
    """The comparisons significant with pairs *or* with topics as blocks, with both p-values
    (``p_value`` over pairs, ``p_topics`` over topics), sorted by the topic-level p-value."""
    key = lambda d: [frozenset(x) for x in zip(d.higher, d.lower)]  # noqa: E731
    p_t = dict(zip(key(blocked), blocked.p_value))
    both = pair_level.assign(p_topics=[p_t.get(k, np.nan) for k in key(pair_level)])
    keep = (both.p_value < significance) | (both.p_topics < significance)
    return both[keep].sort_values(["p_topics", "p_value", "delta_mar"], ascending=[True, True, False],
                                  kind="stable").reset_index(drop=True)


__all__ += ["with_topic_p"]


def never_equal_chance(questions: Questions) -> dict[str, dict[str, float]]:
    """Per question, the chance agreement of a measure that never says EQUAL, ``0.5 (1 - e)``, with
    ``e`` that question's own EQUAL share (the mean over pairs of each pair's share, as MAR weighs
    the pairs: :func:`helpers.preference.chance_levels`). "both" has its own: only the labels
    consistent across the two questions count there, and fewer of them are EQUAL.

    Returns ``{question: {"chance": 0.5 (1 - e), "equal_share": e}}``."""
    out = {}
    for q in questions.names:
        reference = questions.setup(q)[0]
        side = pd.Series("LEFT", index=reference.index, name="never EQUAL")
        chance = float(chance_levels(side, reference).iloc[0])
        out[q] = {"chance": chance, "equal_share": 1.0 - 2.0 * chance}
    return out


def top_group(mar: pd.Series, result: pd.DataFrame, twins: Sequence[Sequence[str]],
              significance: float) -> dict:
    """The measures the HSD does not separate from the highest MAR: the group to name instead of
    one leader.

    ``mar``: one question's MAR per measure; ``result``: its HSD (topics as blocks, oriented as
    :func:`hsd`'s, measures of a group of ``twins`` under the group's first name). Returns ``top``
    (the measure with the highest MAR, as the HSD names it), ``group`` (``top`` and every distinct
    measure whose comparison with it has ``p >= significance``, by MAR descending), ``distinct``
    (the number of distinct measures) and ``outside`` (the distinct measures not in ``group``, the
    ones the HSD separates from ``top``, by MAR descending)."""
    twin_of = {x: g[0] for g in twins for x in g}
    order = [x for x in mar.sort_values(ascending=False, kind="stable").index]
    distinct = list(dict.fromkeys(twin_of.get(x, x) for x in order))
    top = distinct[0]
    with_top = result[(result.higher == top) | (result.lower == top)]
    other = np.where(with_top.higher == top, with_top.lower, with_top.higher)
    not_sep = {x for x, p in zip(other, with_top.p_value) if p >= significance}
    group = [top] + [x for x in distinct[1:] if x in not_sep]
    return {"top": top, "group": group, "distinct": len(distinct), "outside": [x for x in distinct if x not in group]}


__all__ += ["never_equal_chance", "top_group"]


#: How a role that does not replicate out of sample is named wherever a comparison with it is listed.
UNSTABLE = " (unstable)"


def unstable_roles(roles: Mapping) -> list[str]:
    """The cross-fitted assessor roles (:func:`helpers.preference.cross_fitted_roles`) that are
    unstable: choosing the role in sample moves its MAR (``|optimism|``, in-sample minus
    cross-fitted) by more than its in-sample gap to the nearest other role, so which assessor holds
    the role is not settled by the data and a comparison with it says little. In order best,
    median, worst; ``roles``: a dict with ``mar_in_sample`` and ``optimism`` (``{role: value}``)."""
    ins, opt = roles["mar_in_sample"], roles["optimism"]
    out = []
    for k in ins:
        gap = min(abs(ins[k] - ins[o]) for o in ins if o != k)
        if abs(round(opt[k], 4)) > round(gap, 4):   # compared as printed (4 decimals)
            out.append(k)
    return out


def flag_unstable(table: pd.DataFrame, unstable: Sequence[str], columns: Sequence[str] = ("higher", "lower")
                  ) -> pd.DataFrame:
    """``table`` with each unstable role (:func:`unstable_roles`, e.g. ``"median"``) renamed
    ``"median assessor (unstable)"`` in ``columns``, so no listing of a significant difference with
    it goes without the flag."""
    names = {f"{k} assessor": f"{k} assessor{UNSTABLE}" for k in unstable}
    return table.assign(**{c: table[c].replace(names) for c in columns if c in table.columns}) if names else table


def role_lines(q: str, r: Mapping, candidates: int) -> list[str]:
    """The Appendix lines on one question's cross-fitted roles: each role's MAR cross-fitted, in
    sample and the optimism; then the roles out of order and the unstable roles
    (:func:`unstable_roles`, with the rule), when there are any."""
    lines = [f"{q:9s}: roles cross-fitted over {r['topics'][0]} + {r['topics'][1]} topics; MAR cross-fitted (in sample, "
             "in-sample minus cross-fitted): "
             + ", ".join(f"{k} {r['mar'][k]:.4f} ({r['mar_in_sample'][k]:.4f}, {r['optimism'][k]:+.4f})"
                         for k in ("best", "median", "worst"))]
    if r.get("out_of_order"):
        lines.append("           out of sample the roles do not keep their order (best < median or median < worst)")
    unstable = r.get("unstable") or []
    if unstable:
        lines.append(f"           unstable (in-sample minus cross-fitted MAR larger than the in-sample gap to the "
                     f"nearest role): {', '.join(unstable)}")
        lines.append(f"           with {candidates} candidate assessors, each comparison with an unstable role is "
                     f"listed as '<role> assessor{UNSTABLE}' and says little")
    return lines


__all__ += ["UNSTABLE", "unstable_roles", "flag_unstable", "role_lines"]


def top_table(question: str, mar: pd.Series, result: pd.DataFrame, twins: Sequence[Sequence[str]],
              significance: float) -> pd.DataFrame:
    """One question's measures with their MAR and whether the HSD (topics as blocks, ``result``)
    leaves them in the top group (:func:`top_group`), by MAR descending; a group of ``twins`` (the
    same preference on every pair) is one row under its first name, the others in ``same as``."""
    g = top_group(mar, result, twins, significance)
    same = {grp[0]: [x for x in grp[1:] if x in mar.index] for grp in twins}
    return pd.DataFrame([{"question": question, "measure": x, "same preference": ", ".join(same.get(x, [])),
                          "MAR": float(mar[x]), "top group": x in g["group"]} for x in g["group"] + g["outside"]])


def top_line(question: str, table: pd.DataFrame) -> str:
    """The one Appendix line of :func:`top_table`: how many distinct measures the HSD leaves in the top group."""
    k, n = int(table["top group"].sum()), len(table)
    if k == n:
        return f"{question}: the HSD with topics as blocks separates none of the {n} distinct measures from the highest MAR"
    return (f"{question}: {k} of {n} distinct measures in the top group (not separated from the highest MAR by the "
            f"HSD with topics as blocks), {n - k} separated")


__all__ += ["top_table", "top_line"]
