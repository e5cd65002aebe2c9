"""Result tables of the engine: the mean per run and measure, and one measure as topics x runs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..io.ids import require_columns
from .spec import MeasureSpec

__all__ = ["aggregate", "to_matrix", "proportional_measures", "affine_measures"]


def aggregate(results: pd.DataFrame) -> pd.DataFrame:
    """Mean over topics per run and measure, with the number of topics averaged.

    Parameters
    ----------
    results : pandas.DataFrame
        Output of :func:`evaluate` (columns ``run_id, query_id, measure, value``).

    Returns
    -------
    pandas.DataFrame
        Columns ``run_id``, ``measure``, ``value`` (mean of the non-NaN values, as trec_eval's
        ``all`` line and ir_measures' ``calc_aggregate``) and ``n_topics`` (how many values
        were averaged); runs and measures in order of first appearance.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    require_columns(results, "results", ["run_id", "query_id", "measure", "value"])
    g = results.groupby(["run_id", "measure"], sort=False)["value"]
    out = pd.DataFrame({"value": g.mean(), "n_topics": g.count()}).reset_index()
    out["n_topics"] = out["n_topics"].astype(np.int64)
    return out[["run_id", "measure", "value", "n_topics"]]


def to_matrix(results: pd.DataFrame, measure: "str | MeasureSpec") -> pd.DataFrame:
    """Pivot one measure of :func:`evaluate`'s output to a topics x runs matrix.

    Parameters
    ----------
    results : pandas.DataFrame
        Output of :func:`evaluate` (columns ``run_id, query_id, measure, value``).
    measure : str or MeasureSpec
        Label as it appears in ``results["measure"]`` (e.g. ``"nDCG@10"``).

    Returns
    -------
    pandas.DataFrame
        Index ``query_id`` (order of first appearance), columns ``run_id`` (order of first
        appearance), values the scores; NaN where a run has no score for a topic (e.g.
        ``missing="skip"``).

    Raises
    ------
    ValueError
        If columns are missing, the measure is not in ``results`` (the message lists those
        that are) or a (query_id, run_id) pair occurs twice.
    """
    require_columns(results, "results", ["run_id", "query_id", "measure", "value"])
    label = str(measure)
    sub = results[results["measure"] == label]
    if sub.empty:
        have = ", ".join(pd.unique(results["measure"]).astype(str))
        raise ValueError(f"measure {label!r} is not in the results; available: {have or 'none'}")
    if sub.duplicated(["query_id", "run_id"]).any():
        row = sub[sub.duplicated(["query_id", "run_id"])].iloc[0]
        raise ValueError(f"results hold {label!r} twice for run {row['run_id']!r}, "
                         f"topic {row['query_id']!r}")
    mat = sub.pivot(index="query_id", columns="run_id", values="value")
    mat = mat.reindex(index=pd.unique(sub["query_id"]), columns=pd.unique(sub["run_id"]))
    mat.index.name, mat.columns.name = "query_id", "run_id"
    return mat


def proportional_measures(results: pd.DataFrame, rtol: float = 1e-9) -> list[list[str]]:
    """Groups of measures whose scores are one positive constant times each other on every (run,
    topic) of :func:`evaluate`'s output: one measure under several names for every ranking, test
    and discriminative power (e.g. D-RBP and IA-RBP under the ``fixed`` normaliser, both linear in
    the gains over a constant). Scores are compared after dividing each measure by its largest
    absolute score, to ``rtol`` of 1; measures in order of first appearance."""
    require_columns(results, "results", ["run_id", "query_id", "measure", "value"])
    wide = results.pivot_table(index=["run_id", "query_id"], columns="measure", values="value", aggfunc="first")
    wide = wide[pd.unique(results["measure"])]
    scale = wide.abs().max().replace(0.0, 1.0)
    unit = (wide / scale).round(int(-np.log10(rtol)))
    groups: dict[tuple, list[str]] = {}
    for m in unit.columns:
        groups.setdefault(tuple(unit[m].fillna(-np.inf)), []).append(str(m))
    return [g for g in groups.values() if len(g) > 1]


def affine_measures(results: pd.DataFrame, tol: float = 1e-9) -> list[list[str]]:
    """Groups of measures that are one measure under several names for every analysis that compares
    runs topic by topic: on every (run, topic) of :func:`evaluate`'s output ``x = a y + b_t``, with
    one factor ``a > 0`` over all topics and an offset ``b_t`` that may differ between topics.

    Such measures order the runs identically by their means, give per-topic run differences that
    differ by the factor ``a`` only, and so the same paired tests, Kendall's taus, randomised Tukey
    HSD p-values (on the same permutations) and recovery of any planted order: RBU = iRBU minus
    ``e sum_r p^r`` (the same p), I-rec = ndeval's strec, D-RBP = a constant times IA-RBP under the
    ``fixed`` normaliser. :func:`proportional_measures` finds only the last kind (``b = 0``).

    Each measure is centred within each topic (over the runs scored there) and divided by its
    largest absolute centred value; two measures are grouped when they are missing on the same
    (run, topic) cells and their scaled values agree within ``tol``. A measure that is constant
    within every topic (no run ever differs from another) groups with every other such measure.
    Returns the groups of two or more, measures in order of first appearance in ``results``.
    """
    require_columns(results, "results", ["run_id", "query_id", "measure", "value"])
    wide = results.pivot_table(index=["run_id", "query_id"], columns="measure", values="value", aggfunc="first",
                               dropna=False)
    wide = wide[pd.unique(results["measure"])]
    centred = wide - wide.groupby(level="query_id").transform("mean")
    scale = centred.abs().max().fillna(0.0).replace(0.0, 1.0)
    unit = (centred / scale).to_numpy(float)
    missing = wide.isna().to_numpy()
    groups: list[list[int]] = []
    for j in range(unit.shape[1]):
        for g in groups:
            k = g[0]
            if (missing[:, j] == missing[:, k]).all() and np.nanmax(np.abs(unit[:, j] - unit[:, k]), initial=0.0) <= tol:
                g.append(j)
                break
        else:
            groups.append([j])
    names = [str(m) for m in wide.columns]
    return [[names[j] for j in g] for g in groups if len(g) > 1]
