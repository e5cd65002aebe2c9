"""Robustness of run orderings to the assessor: Demeester et al. (2016), Tables 6 and 7.

Level -> gain mappings applied to qrels (:func:`gain_qrels`), runs scored under several mappings
at once (:func:`scheme_matrices`), Kendall's tau between the U1- and U2-based orderings
(:func:`robustness_tables`) and the paired topic bootstrap of the PRM-vs-binary difference
(:func:`robustness_difference`, :func:`bootstrap_p`). The PRM gains here are given (estimated
beforehand, in sample); :mod:`helpers.prm.crossfit` estimates them out of sample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import measures, stats
from ..io.readers import pairs_from_qrels
from .core import as_levels, binary_gains, check_positive_int, check_rng, check_threshold, prm_gains

__all__ = ["gain_qrels", "mean_scores", "scheme_matrices", "scheme_means", "same_items", "tau_b_rows",
           "paired_bootstrap", "robustness_difference", "bootstrap_p", "bootstrap_interval", "robustness_tables",
           "both_sides"]


def gain_qrels(qrels: pd.DataFrame, gains: Mapping[int, float]) -> pd.DataFrame:
    """Qrels with a real-valued ``gain`` column from a ``{level: gain}`` mapping.

    :func:`helpers.measures.evaluate` accepts such qrels as they are. This is the way to use PRM
    gains with it: a level mapping there must give L0 gain 0 and every other level a positive
    gain, whereas the PRM gives level 0 the (possibly non-zero) gain ``p_{R|0}`` (paper,
    Sect. 3.4.5) and binary gains give levels below ``theta`` gain 0. A document with gain 0
    is non-relevant; unjudged documents (absent from ``qrels``) keep gain 0.

    Raises
    ------
    ValueError
        If ``relevance`` is missing, holds a level the mapping lacks, or a gain is negative or NaN.
    """
    if "relevance" not in qrels.columns:
        raise ValueError(f"qrels needs a 'relevance' column of levels, has {list(qrels.columns)}")
    out = qrels.drop(columns="relevance").copy()
    out["gain"] = _gain_vector(as_levels(qrels["relevance"], "relevance"), gains)
    return out


def _gain_vector(lv: np.ndarray, gains: Mapping[int, float]) -> np.ndarray:
    """The gain of every level of ``lv`` under a level -> gain mapping (checked: finite, >= 0, complete)."""
    g = {int(k): float(v) for k, v in gains.items()}
    bad = [k for k, v in g.items() if not np.isfinite(v) or v < 0]
    if bad:
        raise ValueError(f"gains must be finite and >= 0; level(s) {bad} are not")
    missing = sorted(set(lv.tolist()) - set(g))
    if missing:
        raise ValueError(f"qrels has level(s) {missing} that the gain mapping {sorted(g)} lacks")
    return np.array([g.get(i, 0.0) for i in range(int(lv.max(initial=0)) + 1)])[lv]


def mean_scores(qrels: pd.DataFrame, run: pd.DataFrame, gains: Mapping[int, float],
                measure: str = "MSnDCG@10", **evaluate_kw) -> pd.Series:
    """Mean score per run over the qrels' topics, with level gains applied by :func:`gain_qrels`.

    Thin wrapper: :func:`helpers.measures.evaluate` on ``gain_qrels(qrels, gains)`` (topics without
    a positive gain score 0, ``no_relevant="zero"``, unless overridden), pivoted with
    :func:`helpers.measures.to_matrix` and averaged over topics. Returns a Series indexed by
    ``run_id``, sorted by run id.
    """
    evaluate_kw.setdefault("no_relevant", "zero")
    res = measures.evaluate(gain_qrels(qrels, gains), run, [measure], **evaluate_kw)
    return measures.to_matrix(res, measure).mean(axis=0).sort_index()


def scheme_matrices(qrels: pd.DataFrame, run: pd.DataFrame, schemes: Sequence[Mapping[int, float]],
                    measure: str = "MSnDCG@10") -> list[pd.DataFrame]:
    """Topics x runs scores of ``measure`` under several level -> gain mappings, the run matched once.

    Every topic of ``qrels`` is a row (a topic without a positive gain scores 0, as in
    :func:`mean_scores`); rows and columns in the order of :func:`helpers.measures.to_matrix`.
    The gains are gathered per judged item and scored by :class:`helpers.unanimity.GainScorer`;
    mappings are checked as :func:`gain_qrels` checks them.
    """
    from ..unanimity import GainScorer

    if "relevance" not in qrels.columns:
        raise ValueError(f"qrels needs a 'relevance' column of levels, has {list(qrels.columns)}")
    lv = as_levels(qrels["relevance"], "relevance")
    vectors = [_gain_vector(lv, gains) for gains in schemes]
    scorer = GainScorer(qrels[["query_id", "doc_id"]], run, [measure], no_relevant="zero")
    return [m[measure] for m in scorer.matrices(np.stack(vectors, axis=1))]


def both_sides(qa: pd.DataFrame, qb: pd.DataFrame, run: pd.DataFrame, schemes_a: Sequence[Mapping[int, float]],
               schemes_b: Sequence[Mapping[int, float]], measure: str = "MSnDCG@10") -> tuple[list, list]:
    """:func:`scheme_matrices` of two labellings of the same items (``qa`` and ``qb`` hold the same
    ``query_id, doc_id`` rows in the same order, as :func:`same_items` gives them): the run is
    matched once, each gain vector scored on its own (the same values as two calls)."""
    from ..unanimity import GainScorer

    keys = ["query_id", "doc_id"]
    if not qa[keys].reset_index(drop=True).equals(qb[keys].reset_index(drop=True)):
        raise ValueError("both_sides needs the two labellings of the same items in the same order")
    va = [_gain_vector(as_levels(qa["relevance"], "relevance"), g) for g in schemes_a]
    vb = [_gain_vector(as_levels(qb["relevance"], "relevance"), g) for g in schemes_b]
    scorer = GainScorer(qa[keys], run, [measure], no_relevant="zero")
    ms = [m[measure] for m in scorer.matrices(np.stack(va + vb, axis=1))]
    return ms[:len(va)], ms[len(va):]


def _means(m: pd.DataFrame) -> pd.Series:
    # the mean over topics of C-ordered rows, as pandas takes it for evaluate + to_matrix
    return pd.Series(np.ascontiguousarray(m.to_numpy()).mean(axis=0), index=m.columns).sort_index()


def scheme_means(qrels: pd.DataFrame, run: pd.DataFrame, schemes: Sequence[Mapping[int, float]],
                 measure: str = "MSnDCG@10") -> list[pd.Series]:
    """:func:`mean_scores` of several level -> gain mappings (:func:`scheme_matrices`), equal to
    ``mean_scores(qrels, run, gains, measure)`` for each mapping (same bits; tested)."""
    return [_means(m) for m in scheme_matrices(qrels, run, schemes, measure)]


def same_items(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame):
    """Both assessors' labels of the items both judged, and the runs on those items' topics (Table 6)."""
    pairs = pairs_from_qrels(qrels_u1, qrels_u2)   # checked, in topic and document order
    qa, qb = (pairs[["query_id", "doc_id", u]].rename(columns={u: "relevance"}) for u in ("u1", "u2"))
    return qa, qb, runs[runs["query_id"].isin(pairs["query_id"].unique())]


def tau_b_rows(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of each row of X with the same row of Y (ties count 0; NaN for a constant row)."""
    i, j = np.triu_indices(X.shape[1], k=1)
    sx, sy = np.sign(X[:, i] - X[:, j]), np.sign(Y[:, i] - Y[:, j])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sx * sy).sum(axis=1) / np.sqrt((sx * sx).sum(axis=1) * (sy * sy).sum(axis=1))


def paired_bootstrap(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame, p_gain, threshold: int,
                     T: int, *, k: int = 10, B: int = 300, rng: np.random.Generator,
                     p_gain_u2=None) -> pd.DataFrame:
    """Table 6's taus at one threshold on the data and on ``B`` paired topic resamples.

    Table 6 (Demeester et al. 2016) sets tau(U1 ordering, U2 ordering) under PRM gains against the
    same tau under binary gains (and linear gains ``g(i) = i``); all come from the *same* topics and
    runs, so their differences are tested paired: each resample draws the topics with replacement
    (multinomial weights, as :func:`bootstrap_topics`) and computes every tau on that resample.
    Runs are scored with MSnDCG@k on the items both assessors judged, as in
    :func:`robustness_tables`. The PRM gains ``p_gain`` (level -> p) are applied to both assessors'
    labels, or, with ``p_gain_u2``, those to U2's labels (gains conditioned on each assessor's own
    level: Eq. 4 and :func:`helpers.prm.reversed_estimate`).

    Returns ``draw`` (0: the data as they are; 1..B: the resamples), ``tau_prm``, ``tau_binary``
    and ``tau_linear`` (NaN where an ordering ties every run).
    """
    B, rng = check_positive_int(B, "B"), check_rng(rng)
    qa, qb, runs_common = same_items(qrels_u1, qrels_u2, runs)
    linear = {i: float(i) for i in range(T + 1)}
    prm_a = prm_gains(pd.Series(p_gain).fillna(0.0))
    prm_b = prm_a if p_gain_u2 is None else prm_gains(pd.Series(p_gain_u2).fillna(0.0))
    binary = binary_gains(threshold, T)
    ma, mb = both_sides(qa, qb, runs_common, [binary, prm_a, linear], [binary, prm_b, linear], f"MSnDCG@{k}")
    n = len(ma[0])
    w = np.r_[np.ones((1, n)), rng.multinomial(n, np.full(n, 1.0 / n), size=B).astype(float)]
    tau = [tau_b_rows(w @ a.to_numpy(), w @ b.to_numpy()) for a, b in zip(ma, mb)]
    return pd.DataFrame({"draw": np.arange(B + 1), "tau_binary": tau[0], "tau_prm": tau[1], "tau_linear": tau[2]})


def robustness_difference(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame, p_gain,
                          threshold: int, T: int, *, k: int = 10, B: int = 300,
                          rng: np.random.Generator) -> np.ndarray:
    """The ``B`` paired topic-bootstrap values of ``tau_PRM - tau_binary`` of Table 6 at one threshold
    (:func:`paired_bootstrap`; NaN where a resample leaves an ordering constant). Their percentile
    interval, and the share on either side of 0, are the test (:func:`bootstrap_p`)."""
    d = paired_bootstrap(qrels_u1, qrels_u2, runs, p_gain, threshold, T, k=k, B=B, rng=rng)
    return (d["tau_prm"] - d["tau_binary"]).to_numpy()[1:]


def bootstrap_p(diffs) -> float:
    """Two-sided bootstrap p-value of "the difference is 0" over the finite ``diffs`` (NaN if none):
    ``min(1, 2 (min(#d <= 0, #d >= 0) + 1) / (n + 1))``; the +1 (Phipson & Smyth, as for the randomised
    tests) keeps it at or above its resolution 2/(n + 1), never 0. A difference within 1e-12 of 0 is 0
    (a tie, counted on both sides): two gains that rank the runs alike give tau's that differ in the
    last bits only, and their signs are noise (a genuine difference of Kendall's tau is at least
    1/C(n_runs, 2))."""
    d = np.asarray(diffs, dtype=float)
    d = d[np.isfinite(d)]
    d = np.where(np.abs(d) <= 1e-12, 0.0, d)
    if not len(d):
        return float("nan")
    return float(min(1.0, 2 * (min(int((d <= 0).sum()), int((d >= 0).sum())) + 1) / (len(d) + 1)))


def bootstrap_interval(diffs, level: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap interval of the finite ``diffs`` that agrees with :func:`bootstrap_p`:
    it excludes 0 exactly when ``bootstrap_p(diffs) < 1 - level``.

    Its ends are order statistics of the ``n`` sorted differences (ties within 1e-12 of 0 set to 0,
    as the p-value counts them): the ``k``-th smallest and the ``k``-th largest, with
    ``k = ceil((n + 1) (1 - level) / 2) - 1`` -- the +1 of the p-value's correction read back as
    a rank (about the 2.5th and 97.5th percentiles at 0.95). With ``k < 1`` (fewer than 40
    resamples at 0.95) the interval is the range (``min``, ``max``), which the caller must call a
    range. ``(nan, nan)`` for no finite value.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    d = np.asarray(diffs, dtype=float)
    d = np.sort(np.where(np.abs(d[np.isfinite(d)]) <= 1e-12, 0.0, d[np.isfinite(d)]))
    n = len(d)
    if not n:
        return float("nan"), float("nan")
    k = int(np.ceil(round((n + 1) * (1 - level) / 2, 9))) - 1
    if k < 1:
        return float(d[0]), float(d[-1])
    return float(d[k - 1]), float(d[n - k])


def robustness_tables(qrels_u1: pd.DataFrame, qrels_u2: pd.DataFrame, runs: pd.DataFrame,
                      p_gain: Mapping[int, pd.Series], thresholds: Sequence[int], T: int, *, k: int = 10,
                      k_table7: int = 20, tau_level: float = 0.95, names: Sequence[str] | None = None,
                      table7: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Demeester et al. (2016), Tables 6 and 7: robustness to the assessor, and PRM vs other gains.

    Table 6: each run is scored with MSnDCG@k from U1's and from U2's judgments of the *same* items
    (those both judged, on the topics U2 judged; a document only one side judged counts as
    unjudged under both); Kendall's tau between the two run orderings, for binary and PRM gains at
    every threshold of ``thresholds`` and for linear gains ``g(i) = i``. The PRM gains of a
    threshold (``p_gain[theta]``, level -> p_{R|i}) are used for *both* assessors' labels.

    Table 7: runs ranked by mean MSnDCG@k_table7 on U1's judgments under PRM gains against binary,
    linear and exponential (2^i - 1) gains, per threshold.

    Parameters
    ----------
    qrels_u1, qrels_u2 : DataFrame
        ``query_id, doc_id, relevance`` of the two assessors.
    runs : DataFrame
        ``run_id, query_id, doc_id, rank``.
    p_gain : mapping threshold -> Series (level -> p)
        PRM gains per threshold (NaN levels count 0).
    thresholds : sequence of int
        Thresholds in ``1..T``, in display order.
    names : sequence of str, optional
        Level names for the labels (default ``"0".."T"``).
    table7 : bool
        Also compute Table 7 (default True).

    Returns
    -------
    (table6, table7) : DataFrames
        ``gains, theta, tau, low, high, runs`` and ``theta, comparison, tau, low, high`` (empty when
        ``table7`` is False).
    """
    names = [str(i) for i in range(T + 1)] if names is None else list(names)
    if len(names) != T + 1:
        raise ValueError(f"names must hold T + 1 = {T + 1} level names, got {names}")
    for th in thresholds:
        check_threshold(th, T)
        if th not in p_gain:
            raise ValueError(f"p_gain has no estimates for threshold {th}")
    qa, qb, runs_common = same_items(qrels_u1, qrels_u2, runs)
    linear = {i: float(i) for i in range(T + 1)}
    exponential = {i: float(2 ** i - 1) for i in range(T + 1)}
    gains_of = {th: pd.Series(p_gain[th]).fillna(0.0) for th in thresholds}
    schemes = []
    for th in thresholds:
        schemes.append((f"binary, theta={names[th]}", th, binary_gains(th, T)))
        schemes.append((f"PRM, theta={names[th]}", th, prm_gains(gains_of[th])))
    schemes.append(("linear", np.nan, linear))
    measure = f"MSnDCG@{k}"
    mats_a, mats_b = both_sides(qa, qb, runs_common, [g for _, _, g in schemes], [g for _, _, g in schemes], measure)
    means_a, means_b = [_means(m) for m in mats_a], [_means(m) for m in mats_b]
    rows6 = []
    for (label, th, _), a, b in zip(schemes, means_a, means_b):
        t = stats.tau_or_undefined(a, b.reindex(a.index), level=tau_level)
        rows6.append({"gains": label, "theta": th, "tau": t.tau, "low": t.low, "high": t.high, "runs": len(a)})
    rows7 = []
    if table7:
        measure7 = f"MSnDCG@{k_table7}"
        per = [(th, [prm_gains(gains_of[th]), binary_gains(th, T), linear, exponential]) for th in thresholds]
        means7 = scheme_means(qrels_u1, runs, [g for _, gs in per for g in gs], measure7)
        for j, (th, _) in enumerate(per):
            prm_mean = means7[4 * j]
            for other, m in zip(("binary", "linear", "exponential"), means7[4 * j + 1:4 * j + 4]):
                t = stats.tau_or_undefined(prm_mean, m.reindex(prm_mean.index), level=tau_level)
                rows7.append({"theta": names[th], "comparison": f"PRM vs {other}", "tau": t.tau,
                              "low": t.low, "high": t.high})
    return (pd.DataFrame(rows6, columns=["gains", "theta", "tau", "low", "high", "runs"]),
            pd.DataFrame(rows7, columns=["theta", "comparison", "tau", "low", "high"]))
