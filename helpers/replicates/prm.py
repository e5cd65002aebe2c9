"""Notebook 03's replicated studies: the Predicted Relevance Model (Demeester et al. 2016) redrawn.

* :func:`prm_robustness` -- one fresh simulated double-judged collection and its runs: Tables 6
  and 7, in sample and with cross-fitted PRM gains (:func:`helpers.prm.crossfit_robustness`), and
  (``details``) every other value a findings row of the notebook reads; optionally a second
  collection on which the PRM's assumptions fail (U2 shifted, lenient or strict, by topic);
* :func:`prm_u2_draw` -- real data with a random second assessor: one draw of U2 (one rater per
  item) and every analysis that depends on it, including the paired topic bootstraps of Table 6's
  PRM-vs-binary difference in sample and cross-fitted;
* :func:`simulated` and :func:`draws` run them (:func:`helpers.replicates.runner.run_replicates`)
  and reduce the replicates to the numbers the notebook prints and tests.

Tests over thresholds give raw p-values here; the notebook's wording adjusts them with Holm's
step-down over the thresholds tested (:func:`helpers.notebook.claims.compare_holm`), one rule for
every verdict over thresholds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import prm
from . import runner

__all__ = ["prm_robustness", "prm_u2_draw", "Simulated", "simulated", "Draws", "draws", "p_draws", "p_over_draws",
           "mean_difference_p", "other_sources", "OtherSources", "rf_over_draws", "ANALYSES", "SUMMARISED", "STRESS", "STRESS_ANALYSES", "MARGINALS"]

#: The tables of :func:`prm_robustness` on the collection where the PRM's assumptions fail.
STRESS = ("stress 6", "stress eq", "stress share")

#: The comparison of :func:`_gap_rows` that is 1 where the assessors' marginals differ (Stuart-Maxwell,
#: p < 0.05): the condition of Eq. 4 = Eq. 5 tested on each collection or draw.
MARGINALS = "marginals differ (Stuart-Maxwell p < 0.05)"


def _crossfit_rows(rows: pd.DataFrame, names: Sequence[str], table: str = "6") -> list[dict]:
    """The cross-fitted PRM tau per threshold (mean over the splits), labelled like Table 6."""
    s = prm.crossfit_summary(rows)
    return [{"table": table, "comparison": f"PRM cross-fitted, theta={names[int(r.theta)]}", "tau": float(r.tau_prm)}
            for r in s.itertuples()]


def _gap_rows(pairs: pd.DataFrame, T: int, table: str) -> list[dict]:
    """Table 2 at theta = T: the largest |Eq. 4 - Eq. 5| over the levels, the largest z, and 1 where
    the Stuart-Maxwell test finds U1's and U2's marginals unequal at 0.05 (:func:`helpers.prm.marginal_tests`)."""
    g, m = prm.estimator_gap(pairs, T, T=T), prm.marginal_tests(pairs, T=T)["stuart_maxwell"]["p"]
    return [{"table": table, "comparison": "largest gap", "tau": float(g["gap"].max())},
            {"table": table, "comparison": "largest z", "tau": float(g["z"].max())},
            {"table": table, "comparison": MARGINALS, "tau": float(m < 0.05) if np.isfinite(m) else np.nan}]


def _detail_rows(sim, pairs, p_gain, thresholds, T, names, *, k, method, B, udm_reps, rng) -> list[dict]:
    """The values the findings rows read besides Tables 6-7: the estimates of every threshold
    (``p``), Table 2's gap (``eq``), Table 5's shares (``5``), the topic bootstrap's sd over the
    binomial sigma of p(T|T) (``fig2``, with ``B``) and the UDM analysis (``udm``, with ``udm_reps``)."""
    from ..simulate.judgments import udm_vs_prm

    rows = []
    for th in range(1, T + 1):
        e = prm.estimate(pairs, threshold=th, method=method, T=T)
        rows += [{"table": "p", "comparison": f"theta={names[th]}, level={names[int(r.level)]}", "tau": float(r.p)}
                 for r in e.itertuples()]
        if th == T:
            top_sigma = float(e["sigma"].iloc[T])
    rows += _gap_rows(pairs, T, "eq")
    _, t5 = prm.table5(sim.runs, sim.qrels_u1, k, p_gain, thresholds, T)
    rows += [{"table": "5", "comparison": f"share PRM more precise, theta={names[int(r.theta)]}",
              "tau": float(r.share_prm_more_precise)} for r in t5.itertuples()]
    if B:
        boot = prm.bootstrap_topics(pairs, T, B=B, rng=rng, method=method, T=T)
        sd = float(boot.loc[boot["level"] == T, "p"].std())
        rows.append({"table": "fig2", "comparison": "sd / sigma", "tau": sd / top_sigma if top_sigma > 0 else np.nan})
    if udm_reps:
        u = udm_vs_prm(pairs, rng, T=T, method=method, reps=udm_reps)
        rows += [{"table": "udm", "comparison": key, "tau": float(u[key])} for key in ("prm_ratio", "udm_ratio")]
    return rows


def _stress_rows(rng, *, n_topics, n_docs, n_runs, k, method, thresholds, names, splits, u2_lenience,
                 lenience_sd) -> list[dict]:
    """Table 6 on a collection where the PRM's assumptions fail: U2 shifted (lenient or strict) by a topic-varying
    shift (:func:`helpers.simulate.judgments.double_judgments`), in sample and cross-fitted; with
    Table 2's gap and the two assessors' shares of the top level (the check that they do fail)."""
    from ..simulate import judgments

    sim = judgments.double_judgments(rng, n_topics=n_topics, n_docs=n_docs, n_runs=n_runs, depth=k,
                                     u2_lenience=u2_lenience, lenience_sd=lenience_sd)
    T, pairs = len(judgments.LEVEL_NAMES) - 1, sim.pairs
    cf = prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, thresholds, T, method=method, k=k,
                                 splits=max(int(splits), 1), rng=rng, in_sample=True)
    ins = cf[cf["kind"] == "in sample"]
    rows = [{"table": "stress 6", "comparison": f"{g}, theta={names[int(r.theta)]}", "tau": float(v)}
            for r in ins.itertuples() for g, v in (("binary", r.tau_binary), ("PRM", r.tau_prm))]
    # linear gains g(i) = i on the same items: the reference for what any graded gain does here
    # (one latent order drives runs and assessors), and PRM - linear isolates the PRM's gains
    gains = {th: prm.estimate(pairs, threshold=th, method=method, T=T).set_index("level")["p"].fillna(0.0)
             for th in thresholds}
    t6, _ = prm.robustness_tables(sim.qrels_u1, sim.qrels_u2, sim.runs, gains, thresholds, T, k=k, names=names,
                                  table7=False)
    rows += [{"table": "stress 6", "comparison": "linear", "tau": float(t6.set_index("gains").loc["linear", "tau"])}]
    if splits:
        rows += _crossfit_rows(cf[cf["kind"] != "in sample"], names, "stress 6")
    rows += _gap_rows(pairs, T, "stress eq")
    rows += [{"table": "stress share", "comparison": f"{who} top level", "tau": float((pairs[col] == T).mean())}
             for who, col in (("U1", "u1"), ("U2", "u2"))]
    return rows


def prm_robustness(rng: np.random.Generator, *, n_topics: int, n_docs: int, n_runs: int, k: int, k_table7: int,
                   method: str, tau_level: float = 0.95, thresholds: Sequence[int] | None = None,
                   names: Sequence[str] | None = None, splits: int = 0, details: bool = False, B: int = 0,
                   udm_reps: int = 0, u2_lenience: float = 0.0, lenience_sd: float = 0.0) -> pd.DataFrame:
    """Notebook 03's Tables 6 and 7 on a fresh simulated double-judged collection.

    Returns rows ``table, comparison, tau``: Table 6 (``tau`` between the U1- and U2-based run
    orderings by MSnDCG@k for binary and PRM gains at every threshold of ``thresholds`` -- levels
    in 1..T, default ``(T, 1)`` -- and linear gains) and Table 7
    (PRM vs binary, linear and exponential gains on U1, MSnDCG@k_table7), both from
    :func:`helpers.prm.robustness_tables`, plus the estimated ``p(R|T)`` at theta = T
    (``table = "estimate"``). With ``splits`` > 0, Table 6 also holds ``PRM cross-fitted, theta=..``:
    the tau under gains estimated on the other half of the topics, averaged over ``splits`` random
    splits (:func:`helpers.prm.crossfit_robustness`; drawn after Tables 6-7). Labels name
    thresholds and levels by ``names`` (default the simulation's level names,
    :data:`helpers.simulate.judgments.LEVEL_NAMES`: ``theta=Key``).

    With ``details``, rows of the tables ``p``, ``eq``, ``5``, ``fig2`` (with ``B`` > 0) and ``udm``
    (with ``udm_reps`` > 0) follow (:func:`_detail_rows`); with ``u2_lenience`` or ``lenience_sd``
    not 0, the tables of :data:`STRESS` on a second collection whose U2 is shifted (lenient or strict) by a
    topic-varying shift. The value column is named ``tau`` for every row. The generator is used in
    that order: the collection, the cross-fitting, the topic bootstrap, the coin flips, the second
    collection and its cross-fitting.
    """
    from ..simulate import judgments

    sim = judgments.double_judgments(rng, n_topics=n_topics, n_docs=n_docs, n_runs=n_runs, depth=max(k, k_table7))
    T = len(judgments.LEVEL_NAMES) - 1
    names = list(judgments.LEVEL_NAMES) if names is None else list(names)
    pairs = prm.pairs_from_qrels(sim.qrels_u1, sim.qrels_u2)
    thresholds = list(dict.fromkeys(int(t) for t in (thresholds if thresholds is not None else (T, 1))))
    p_gain = {th: prm.estimate(pairs, threshold=th, method=method, T=T).set_index("level")["p"].fillna(0.0)
              for th in thresholds}
    t6, t7 = prm.robustness_tables(sim.qrels_u1, sim.qrels_u2, sim.runs, p_gain, thresholds, T, k=k, k_table7=k_table7,
                                   tau_level=tau_level, names=names)
    top = p_gain[T] if T in p_gain else prm.estimate(pairs, threshold=T, method=method, T=T).set_index("level")["p"]
    rows = [{"table": "estimate", "comparison": f"p(R|{names[T]}), theta={names[T]}", "tau": float(top[T])}]
    rows += [{"table": "6", "comparison": r.gains, "tau": float(r.tau)} for r in t6.itertuples()]
    if splits:
        cf = prm.crossfit_robustness(sim.qrels_u1, sim.qrels_u2, sim.runs, thresholds, T, method=method, k=k,
                                     splits=splits, rng=rng)
        rows += _crossfit_rows(cf, names)
    rows += [{"table": "7", "comparison": f"theta={r.theta}, {r.comparison}", "tau": float(r.tau)}
             for r in t7.itertuples()]
    if details:
        rows += _detail_rows(sim, pairs, p_gain, thresholds, T, names, k=k, method=method, B=B, udm_reps=udm_reps,
                             rng=rng)
    if u2_lenience or lenience_sd:
        rows += _stress_rows(rng, n_topics=n_topics, n_docs=n_docs, n_runs=n_runs, k=k, method=method,
                             thresholds=thresholds, names=names, splits=splits, u2_lenience=u2_lenience,
                             lenience_sd=lenience_sd)
    return pd.DataFrame(rows)


def _draw_tables(qrels_u1, q2, runs, p_gain, thresholds, T, *, k, k_table7, tau_level, names,
                 details: bool = False) -> list[dict]:
    """Tables 5-7 of one draw of U2, as rows of :func:`prm_u2_draw` (with ``details``, Table 7's
    interval bounds too: ``table7_low``, ``table7_high``)."""
    t6, t7 = prm.robustness_tables(qrels_u1, q2, runs, p_gain, thresholds, T, k=k, k_table7=k_table7,
                                   tau_level=tau_level, names=names)
    rows = [{"quantity": "tau", "theta": -1 if pd.isna(r.theta) else int(r.theta), "level": r.gains,
             "value": float(r.tau)} for r in t6.itertuples()]
    lv = list(names) if names is not None else [str(i) for i in range(T + 1)]
    for col in ("tau", "low", "high") if details else ("tau",):
        rows += [{"quantity": "table7" if col == "tau" else f"table7_{col}", "theta": lv.index(r.theta),
                  "level": r.comparison, "value": float(getattr(r, col))} for r in t7.itertuples()]
    _, t5 = prm.table5(runs, qrels_u1, k, p_gain, thresholds, T, tau_level=tau_level)
    rows += [{"quantity": f"table5_{c}", "theta": int(r["theta"]), "level": "", "value": float(r[c])}
             for _, r in t5.iterrows() for c in ("tau", "share_prm_more_precise", "share_prm_smaller")]
    return rows


def _boot_rows(quantity: str, th: int, values) -> list[dict]:
    return [{"quantity": quantity, "theta": int(th), "level": str(b), "value": float(v)} for b, v in enumerate(values)]


def _own_level_rows(qrels_u1, q2, runs, pairs, p_gain, thresholds, T, *, k, B, rng) -> list[dict]:
    """Table 6 with U2's labels given Eq. 4 the other way (U1's verdict given U2's level,
    :func:`helpers.prm.reversed_estimate`) and U1's labels Eq. 4: ``tau_own`` per threshold and,
    with ``B`` > 0, ``own_diff_boot`` (PRM own-level - binary over ``B`` paired topic resamples)."""
    rows = []
    for th in thresholds:
        rev = prm.reversed_estimate(pairs, th, T=T).set_index("level")["p"]
        d = prm.paired_bootstrap(qrels_u1, q2, runs, p_gain[th], th, T, k=k, B=max(int(B), 1), rng=rng, p_gain_u2=rev)
        rows.append({"quantity": "tau_own", "theta": int(th), "level": "", "value": float(d["tau_prm"].iloc[0])})
        if B:
            rows += _boot_rows("own_diff_boot", th, (d["tau_prm"] - d["tau_binary"]).to_numpy()[1:])
    return rows


def prm_u2_draw(rng: np.random.Generator, *, qrels_u1: pd.DataFrame, ratings: pd.DataFrame, thresholds: Sequence[int],
                T: int, method: str, runs: pd.DataFrame | None = None, k: int = 10, k_table7: int = 20,
                tau_level: float = 0.95, names: Sequence[str] | None = None, B: int = 0, udm_reps: int = 0,
                splits: int = 0, details: bool = False) -> pd.DataFrame:
    """Notebook 03 on real data: one draw of the second assessor U2 (one rating per item, drawn
    at random among its raters, :func:`helpers.prm.one_rating_per_item`), and every analysis that
    depends on it (Demeester et al. 2016).

    Returns rows ``quantity, theta, level, value``:

    * ``p``: the ``method`` estimate of p_{R|i} for every threshold and level;
    * with ``runs``: ``tau`` (Table 6 of :func:`helpers.prm.robustness_tables`, ``level`` = the gain
      scheme, ``theta`` -1 for linear gains), ``table7`` (``level`` = the comparison), and the Table 5
      summary of :func:`helpers.prm.table5` (``table5_tau``, ``table5_share_prm_more_precise``,
      ``table5_share_prm_smaller``; ``level`` empty);
    * with ``B`` > 0: ``boot_ratio`` (topic-bootstrap sd of p_{T|T} over its binomial sigma,
      :func:`helpers.prm.bootstrap_topics`, theta = T) and, with ``runs``, ``tau_diff_boot``: the ``B``
      paired topic-bootstrap values of tau_PRM - tau_binary of Table 6 per threshold
      (:func:`helpers.prm.paired_bootstrap`; ``level`` = the resample number);
    * with ``udm_reps`` > 0: ``udm`` (``level`` ``prm_ratio`` / ``udm_ratio``,
      :func:`helpers.simulate.judgments.udm_vs_prm`);
    * with ``runs`` and ``splits`` > 0: ``tau_cf`` (the cross-fitted PRM tau, mean over ``splits``
      splits, :func:`helpers.prm.crossfit_robustness`) and, with ``B`` > 0, ``cf_diff_boot``: ``B``
      cross-fitted resamples of tau_PRM - tau_binary (gains re-estimated in each);
    * with ``details``: ``eq_gap`` and ``eq_z`` (Table 2 at theta = T, :func:`helpers.prm.estimator_gap`),
      ``eq_marginals`` (1 where U1's and U2's marginals differ, Stuart-Maxwell p < 0.05),
      ``table7_low`` / ``table7_high`` (its Kendall intervals), ``lin_diff_boot`` (tau_PRM -
      tau_linear on the same resamples as ``tau_diff_boot``) and, for ``method`` eq4, ``tau_own``
      and ``own_diff_boot`` (:func:`_own_level_rows`).

    The generator is used in that order: U2, the paired bootstraps (threshold by threshold), the
    topic bootstrap, the coin flips of the UDM analysis, the cross-fitting, the own-level bootstraps.
    """
    from ..simulate.judgments import udm_vs_prm

    q2 = prm.one_rating_per_item(ratings, rng)
    pairs = prm.pairs_from_qrels(qrels_u1, q2)
    rows, p_gain = [], {}
    for th in thresholds:
        est = prm.estimate(pairs, threshold=th, method=method, T=T).set_index("level")
        p_gain[th] = est["p"]
        rows += [{"quantity": "p", "theta": int(th), "level": str(int(i)), "value": float(v)} for i, v in est["p"].items()]
        if th == T:
            top_sigma = float(est["sigma"][T])
    if runs is not None:
        rows += _draw_tables(qrels_u1, q2, runs, p_gain, thresholds, T, k=k, k_table7=k_table7, tau_level=tau_level,
                             names=names, details=details)
        if B:
            for th in thresholds:
                d = prm.paired_bootstrap(qrels_u1, q2, runs, p_gain[th], th, T, k=k, B=B, rng=rng).iloc[1:]
                rows += _boot_rows("tau_diff_boot", th, d["tau_prm"] - d["tau_binary"])
                if details:
                    rows += _boot_rows("lin_diff_boot", th, d["tau_prm"] - d["tau_linear"])
    if B and T in thresholds:
        boot = prm.bootstrap_topics(pairs, T, B=B, rng=rng, method=method, T=T)
        sd = float(boot.loc[boot["level"] == T, "p"].std())
        ratio = sd / top_sigma if top_sigma > 0 else float("nan")   # sigma 0: p(T|T) of 0 or 1
        rows.append({"quantity": "boot_ratio", "theta": int(T), "level": str(T), "value": ratio})
    if udm_reps:
        u = udm_vs_prm(pairs, rng, T=T, method=method, reps=udm_reps)
        rows += [{"quantity": "udm", "theta": int(T), "level": key, "value": float(u[key])} for key in ("prm_ratio", "udm_ratio")]
    if runs is not None and splits:
        cf = prm.crossfit_robustness(qrels_u1, q2, runs, thresholds, T, method=method, k=k, splits=splits, B=B, rng=rng)
        s = prm.crossfit_summary(cf)
        rows += [{"quantity": "tau_cf", "theta": int(r.theta), "level": "", "value": float(r.tau_prm)}
                 for r in s.itertuples()]
        boot = cf[cf["kind"] == "boot"]
        rows += [{"quantity": "cf_diff_boot", "theta": int(r.theta), "level": str(int(r.draw)), "value": float(r.diff)}
                 for r in boot.itertuples()]
    if details:
        g = prm.estimator_gap(pairs, T, T=T)
        rows += [{"quantity": q, "theta": int(T), "level": "", "value": float(g[c].max())}
                 for q, c in (("eq_gap", "gap"), ("eq_z", "z"))]
        m = prm.marginal_tests(pairs, T=T)["stuart_maxwell"]["p"]
        rows.append({"quantity": "eq_marginals", "theta": int(T), "level": "",
                     "value": float(m < 0.05) if np.isfinite(m) else np.nan})
        if runs is not None and method == "eq4":
            rows += _own_level_rows(qrels_u1, q2, runs, pairs, p_gain, thresholds, T, k=k, B=B, rng=rng)
    return pd.DataFrame(rows)


def mean_difference_p(d) -> float:
    """Two-sided p-value of "the mean paired difference is 0" over independent replicates
    (one-sample Student's t, :func:`scipy.stats.ttest_1samp`; NaN dropped; NaN with fewer than 2
    values or no spread), the test behind :func:`helpers.notebook.claims.paired_difference`'s interval."""
    from scipy import stats as sps

    x = np.asarray(d, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < 2 or np.ptp(x) == 0:
        return float("nan") if len(x) < 2 or x[0] == 0 else 0.0
    return float(sps.ttest_1samp(x, 0.0).pvalue)


#: Table 6's comparisons: PRM gains estimated on the scored topics or on the other half (both
#: against binary gains), with U2's labels given gains conditioned on U2's level (real data, Eq. 4),
#: and PRM (in sample) against linear gains; ``linear vs binary`` (the reference for what any graded
#: gain does) is added beside them where the run has linear gains.
ANALYSES = ("in sample", "cross-fitted", "own level", "vs linear")

#: Per analysis of the replicates: the PRM column and the column it is set against (``{}``: the threshold).
_COLUMNS = {"in sample": ("PRM, theta={}", "binary, theta={}"),
            "cross-fitted": ("PRM cross-fitted, theta={}", "binary, theta={}"),
            "vs linear": ("PRM, theta={}", "linear"),
            "cross-fitted vs linear": ("PRM cross-fitted, theta={}", "linear"),
            "linear vs binary": ("linear", "binary, theta={}")}

#: The analyses of the collections where the PRM's assumptions fail (``Simulated.stress``).
STRESS_ANALYSES = ("cross-fitted vs linear", "vs linear", "cross-fitted", "in sample", "linear vs binary")


@dataclass
class Simulated:
    """Replicates of :func:`prm_robustness` reduced: ``summary`` (mean and interval of every value,
    by ``table`` and ``comparison``), per analysis (:data:`ANALYSES`) and threshold the paired
    differences PRM - other (``diffs``), their means of PRM and the other (``means``: (a, b)) and the
    t-test's raw p-value (``p``), ``wins``: replicates with the in-sample PRM tau above the binary
    one; ``stress``: the same ``diffs``, ``means``, ``p`` on the collections where the PRM's
    assumptions fail (empty without them)."""

    rep: pd.DataFrame
    summary: pd.DataFrame
    diffs: dict
    means: dict
    p: dict
    wins: dict
    replicates: int
    stress: dict
    losses: dict = field(default_factory=dict)
    defined: dict = field(default_factory=dict)


def _wide(rep: pd.DataFrame, table: str = "6") -> pd.DataFrame:
    return rep[rep["table"] == table].pivot_table(index="replicate", columns="comparison", values="tau", dropna=False)


def _paired(wide: pd.DataFrame, thresholds, names, analyses) -> tuple[dict, dict, dict]:
    """Per analysis and threshold: the paired differences, the two means and the t-test's p-value."""
    diffs, means, p = {}, {}, {}
    for a in analyses:
        col_a, col_b = _COLUMNS[a]
        for th in thresholds:
            ca, cb = col_a.format(names[th]), col_b.format(names[th])
            if ca not in wide or cb not in wide:
                continue
            d = (wide[ca] - wide[cb]).to_numpy()
            diffs.setdefault(a, {})[th] = d
            means.setdefault(a, {})[th] = (float(wide[ca].mean()), float(wide[cb].mean()))
            p.setdefault(a, {})[th] = mean_difference_p(d)
    return diffs, means, p


def simulated(replicates: int, seed: int, *, tested: Sequence[int], names: Sequence[str], scheduler=None,
              progress: bool = False, **common) -> Simulated:
    """Run :func:`prm_robustness` ``replicates`` times (seeds from ``seed``) and reduce it.

    ``tested`` are the thresholds tested; ``common`` holds the study's parameters (``n_topics, n_docs,
    n_runs, k, k_table7, method, tau_level, splits`` and ``thresholds``, default ``tested``; and
    ``details, B, udm_reps, u2_lenience, lenience_sd``)."""
    thresholds = list(tested)
    common.setdefault("thresholds", thresholds)
    rep = runner.run_replicates(prm_robustness, replicates, seed, common={**common, "names": list(names)},
                                scheduler=scheduler, progress=progress)
    wide = _wide(rep)
    diffs, means, p = _paired(wide, thresholds, names, ("in sample", "cross-fitted", "vs linear", "linear vs binary"))
    stress = {}
    if (rep["table"] == "stress 6").any():
        stress = dict(zip(("diffs", "means", "p"), _paired(_wide(rep, "stress 6"), thresholds, names,
                                                          STRESS_ANALYSES)))
    d = {th: wide[f"PRM, theta={names[th]}"] - wide[f"binary, theta={names[th]}"] for th in thresholds}
    wins = {th: int((v > 0).sum()) for th, v in d.items()}
    losses = {th: int((v < 0).sum()) for th, v in d.items()}
    defined = {th: int(v.notna().sum()) for th, v in d.items()}
    summary = runner.summarise(rep, "tau", by=["table", "comparison"])
    return Simulated(rep, summary, diffs, means, p, wins, int(replicates), stress, losses, defined)


@dataclass
class Draws:
    """Draws of U2 (:func:`prm_u2_draw`) reduced.

    ``p_table``: p_{R|i} per theta and level over the draws (mean, interval, sd, min, max, this
    notebook's draw and its z); ``table6``: Table 6's tau per gain scheme over the draws (with the
    cross-fitted and own-level PRM rows); ``summaries``: Table 2, Table 5, Table 7, the bootstrap
    ratio and the UDM ratios over the draws; ``pooled``: per analysis (:data:`ANALYSES`) and
    threshold the topic-bootstrap differences pooled over the draws; ``means`` (a, b) and ``p``
    (raw, two-sided bootstrap) of the pooled tests; ``wins`` and ``defined``: draws with PRM above
    binary, of the draws with both tau; ``losses``: draws with PRM below binary (the rest tie).
    """

    rep: pd.DataFrame
    p_table: pd.DataFrame
    table6: pd.DataFrame
    summaries: dict
    pooled: dict
    means: dict
    p: dict
    wins: dict
    defined: dict
    replicates: int
    losses: dict = field(default_factory=dict)


#: The quantities of :func:`prm_u2_draw` summarised over the draws (besides p, tau and the resamples).
SUMMARISED = ("table5_tau", "table5_share_prm_more_precise", "table5_share_prm_smaller", "table7", "table7_low",
              "table7_high", "boot_ratio", "udm", "eq_gap", "eq_z", "eq_marginals")

#: Per analysis of the draws: the pooled resamples, the Table 6 row of the PRM and of the other.
_POOLED = {"in sample": ("tau_diff_boot", "PRM, theta={}", "binary, theta={}"),
           "cross-fitted": ("cf_diff_boot", "PRM cross-fitted, theta={}", "binary, theta={}"),
           "own level": ("own_diff_boot", "PRM own-level, theta={}", "binary, theta={}"),
           "vs linear": ("lin_diff_boot", "PRM, theta={}", "linear")}


def p_over_draws(rep: pd.DataFrame, mine) -> pd.DataFrame:
    """p_{R|i} over the draws per theta and level, with this notebook's draw (``mine[theta][level]``)."""
    ps = rep[rep["quantity"] == "p"]
    s = runner.summarise(ps, "value", by=["theta", "level"]).merge(
        ps.groupby(["theta", "level"])["value"].agg(vmin="min", vmax="max").reset_index(), on=["theta", "level"])
    s["this_run"] = [float(mine[int(t)][int(lv)]) for t, lv in zip(s["theta"], s["level"])]
    s["z"] = (s["this_run"] - s["mean"]) / s["sd"]
    return s


def _table6_over_draws(rep: pd.DataFrame, names) -> pd.DataFrame:
    """Table 6's tau per gain scheme over the draws, with the cross-fitted and own-level PRM rows."""
    table6 = runner.summarise(rep[rep["quantity"] == "tau"], "value", by=["level"]).rename(columns={"level": "gains"})
    for q, label in (("tau_cf", "PRM cross-fitted"), ("tau_own", "PRM own-level")):
        extra = rep[rep["quantity"] == q]
        if len(extra):
            extra = extra.assign(level=[f"{label}, theta={names[int(t)]}" for t in extra["theta"]])
            table6 = pd.concat([table6, runner.summarise(extra, "value", by=["level"]).rename(columns={"level": "gains"})],
                               ignore_index=True)
    return table6


def draws(replicates: int, seed: int, *, qrels_u1, ratings, runs, thresholds: Sequence[int], T: int,
          names: Sequence[str], mine, scheduler=None, progress: bool = False, **common) -> Draws:
    """Redraw U2 ``replicates`` times (:func:`prm_u2_draw` with ``runs``) and reduce the draws.

    ``mine`` is this notebook's own p_{R|i} per threshold (level -> p); ``common`` holds ``method, k,
    k_table7, tau_level, B, udm_reps, splits, details``."""
    rep = runner.run_replicates(
        prm_u2_draw, replicates, seed, common={"qrels_u1": qrels_u1, "ratings": ratings, "thresholds": list(thresholds),
                                               "T": T, "runs": runs, "names": list(names), **common},
        scheduler=scheduler, progress=progress)
    table6 = _table6_over_draws(rep, names)
    taus = rep[rep["quantity"] == "tau"]
    wide = taus.pivot_table(index="replicate", columns="level", values="value", dropna=False)
    t6 = table6.set_index("gains")
    pooled, means, p, wins, defined = {a: {} for a in ANALYSES}, {a: {} for a in ANALYSES}, {a: {} for a in ANALYSES}, {}, {}
    losses = {}
    for th in thresholds:
        pr, bi = f"PRM, theta={names[th]}", f"binary, theta={names[th]}"
        ok = wide[[pr, bi]].notna().all(axis=1)
        defined[th], wins[th] = int(ok.sum()), int((wide[pr] > wide[bi])[ok].sum())
        losses[th] = int((wide[pr] < wide[bi])[ok].sum())
        for a, (q, row_a, row_b) in _POOLED.items():
            sub = rep[(rep["quantity"] == q) & (rep["theta"] == th)]
            if sub.empty:
                continue
            pooled[a][th] = sub["value"].to_numpy()
            means[a][th] = (float(t6.loc[row_a.format(names[th]), "mean"]), float(t6.loc[row_b.format(names[th]), "mean"]))
            p[a][th] = prm.bootstrap_p(pooled[a][th])
        if th in pooled["vs linear"] and th in pooled["in sample"]:   # same resamples: linear - binary
            d_lin = pooled["in sample"][th] - pooled["vs linear"][th]
            pooled.setdefault("linear vs binary", {})[th] = d_lin
            means.setdefault("linear vs binary", {})[th] = (float(t6.loc["linear", "mean"]), means["in sample"][th][1])
            p.setdefault("linear vs binary", {})[th] = prm.bootstrap_p(d_lin)
    summaries = {q: runner.summarise(rep[rep["quantity"] == q], "value", by=["theta", "level"]) for q in SUMMARISED
                 if (rep["quantity"] == q).any()}
    return Draws(rep, p_over_draws(rep, mine), table6, summaries, pooled, means, p, wins, defined, int(replicates), losses)


def p_draws(replicates: int, seed: int, *, qrels_u1, ratings, thresholds: Sequence[int], T: int, method: str,
            progress: bool = False) -> pd.DataFrame:
    """p_{R|i} only, for ``replicates`` draws of U2 among ``ratings`` (:func:`prm_u2_draw`, in this
    process): the RF10 crowd worker per item of notebook 03."""
    return runner.run_replicates(prm_u2_draw, replicates, seed, common={"qrels_u1": qrels_u1, "ratings": ratings,
                                                                        "thresholds": list(thresholds), "T": T,
                                                                        "method": method},
                                 scheduler=None, progress=progress)


@dataclass
class OtherSources:
    """Further double judgments of notebook 03 (appendix A.3): ``rows`` (source, method, pairs,
    threshold, level, p, sigma, variant), ``view`` (one line per source and threshold, p_{R|i} from
    the top level down; ``*`` marks a variant threshold) and ``rf`` (``nist_rf, crowd, thresholds``
    of TREC 2010 RF for the redraws of the crowd worker, or None)."""

    rows: pd.DataFrame
    view: pd.DataFrame
    rf: tuple | None = None


def other_sources(dataset: str, pairs: pd.DataFrame, reannotation: pd.DataFrame | None, rng: np.random.Generator, *,
                  T: int, method: str, thresholds: Sequence[int], variants: Sequence[int], rf10: bool) -> OtherSources:
    """p_{R|i} from further sources of double judgments (Demeester et al. 2016, Sect. 3.1.4: how much
    the parameters depend on who the second assessor is): on ``dl19`` (and ``files`` with ratings)
    U1 against one rater per item (``pairs``, with ``method``) and rater against rater of the same
    item (:func:`helpers.prm.pairs_within_items`, Eq. 5, valid since both judged the same items); with
    ``rf10`` TREC 2010 RF NIST against one crowd worker per item (Eq. 4 and Eq. 5; levels 0-2).
    ``rng`` draws the rater order and the crowd worker, in that order."""
    from ..data import datasets

    real = {"dl19": ("DL19 NIST vs re-annotator", "DL19 re-annotator vs re-annotator"),
            "files": ("U1 vs one rater", "rater vs rater")}
    sources, rf = {}, None
    if dataset in real and reannotation is not None:
        sources[real[dataset][0]] = (pairs, T, method, list(thresholds))
        sources[real[dataset][1]] = (prm.pairs_within_items(reannotation, rng), T, "eq5", list(thresholds))
    if rf10:
        ratings = datasets.load_ratings("trec-rf10")
        nist = ratings.loc[ratings["assessor"] == "NIST"].rename(columns={"rating": "relevance"})
        crowd = ratings.loc[ratings["assessor"] != "NIST"]
        rf = (nist, crowd, [2, datasets.relevance_threshold("trec-rf10")])
        rf_pairs = prm.pairs_from_qrels(nist, prm.one_rating_per_item(crowd, rng))
        sources["RF10 NIST vs crowd"] = (rf_pairs, 2, "eq4", rf[2])
        sources["RF10 NIST vs crowd (Eq. 5)"] = (rf_pairs, 2, "eq5", rf[2])
    rows, view = [], []
    for name, (src, t_max, m, ths) in sources.items():
        own = name in real.get(dataset, ())   # RF10's thresholds are its own scale's, never variants
        for th in ths:
            e = prm.estimate(src, threshold=th, method=m, T=t_max)
            star = own and th in variants
            rows += [{"source": name, "method": m, "pairs": len(src), "threshold": th, "level": int(r.level),
                      "p": r.p, "sigma": r.sigma, "variant": star} for r in e.itertuples()]
            view.append({"source": name, "estimator": m, "pairs": len(src), "θ": f"{th}{'*' if star else ''}",
                         "p(R|i), top level first": " ".join(f"{v:.3f}" for v in e["p"].iloc[::-1])})
    return OtherSources(pd.DataFrame(rows), pd.DataFrame(view), rf)


def rf_over_draws(rep: pd.DataFrame, rows: pd.DataFrame, thresholds: Sequence[int]) -> pd.DataFrame:
    """:func:`p_over_draws` of the RF10 crowd-worker draws (:func:`p_draws`) against this notebook's
    Eq. 4 estimates (``rows`` of :func:`other_sources`)."""
    mine = rows[rows["source"] == "RF10 NIST vs crowd"]
    return p_over_draws(rep, {th: mine[mine["threshold"] == th].set_index("level")["p"] for th in thresholds})
