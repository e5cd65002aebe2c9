"""Agreement of evaluation measures with assessors' SERP preferences (Zeng & Sakai; Sakai & Zeng,
SIGIR 2019, "Which Diversity Evaluation Measures Are 'Good'?").

The design: SERP pairs ``<SERP1, SERP2>`` (two runs' top-``l`` lists for one topic) are shown side
by side, and every assessor says which one is better (``LEFT``, ``RIGHT``) or ``EQUAL``, once for
relevance and once for diversity. A measure "prefers" the SERP with the higher score. The
functions here build the pairs, turn scores into preferences, and compute how often a measure (or
an assessor) agrees with the assessors.

Definitions (each has a test)
-----------------------------
Labels
    Exactly the strings ``"LEFT"``, ``"RIGHT"``, ``"EQUAL"`` (:data:`LABELS`). In assessor tables a
    missing judgement is ``None``/``NaN``/``pd.NA``; any other value raises ``ValueError``.
Measure preference (:func:`measure_preferences`)
    ``LEFT`` if ``left - right > tie_tolerance``, ``RIGHT`` if ``right - left > tie_tolerance``,
    else ``EQUAL``. A measure can therefore say ``EQUAL`` (both SERPs score the same), and that
    ``EQUAL`` is an ordinary label.
Agreement rate of a measure on a pair (:func:`agreement_rates`)
    The share of the pair's assessors whose label is *identical* to the measure's label:
    ``#{a : label_a = label_measure} / #{a : a judged the pair}``. ``EQUAL`` is treated as a third
    label, as in the paper: an assessor's ``EQUAL`` agrees only with a measure's ``EQUAL``, and a
    measure's ``LEFT`` does not half-agree with an assessor's ``EQUAL``. Pairs may be judged by
    different numbers of assessors (the paper's "both" analysis keeps 5 to 15 labels per pair);
    each pair's rate uses its own count. A pair that nobody judged raises ``ValueError``.
Mean agreement rate, MAR (:func:`mean_agreement_rate`)
    The mean of the per-pair agreement rates over the pairs (1,127 in the paper): every pair
    weighs the same, whatever its number of assessors.
Assessor agreement rates, leave-one-out (:func:`assessor_agreement_rates`)
    To place human assessors on the same scale, each assessor is treated like a measure and
    compared with the *other* assessors: on pair ``p``, the share of the other assessors who
    judged ``p`` and gave the same label. Pairs the assessor did not judge (or that no other
    assessor judged) give NaN and are left out of that assessor's MAR. With ``reference`` and
    ``owners`` the candidate labels can come from another table: in the paper's "both" analysis
    the candidates ``01rel, 01div, ...`` are compared with the consistent labels
    (:func:`consistent_labels`) of every assessor except their owner ``01``.
Best / median / worst assessor (:func:`assessor_groups`)
    Sort assessors by MAR, descending (ties by name); best = first, worst = last, median =
    position ``(n - 1) // 2`` (0-based), i.e. the 8th of 15 and the 15th of 30, which is where the
    paper's Tables 2, 4 and 5 put their "(median)" assessor.
Pair selection (:func:`serp_summaries`, :func:`sample_pairs`)
    The paper kept the run pairs of a topic whose SERPs differ by at least 0.1 both in a relevance
    summary - precision of the top 10 (share of the ten ranks holding a document relevant to at
    least one intent) - and in intent recall (share of the topic's intents covered by the top 10),
    i.e. ``I-rec@10`` of :mod:`helpers.measures.diversity`; 1,247 of the 10,500 candidate pairs passed, and
    1,127 remained after removing pairs with broken pages. Here the filtered pairs are sampled
    down uniformly at random (without replacement) to ``target`` to play that last step.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ..measures import diversity
from ..stats.hsd import compact_letter_display  # noqa: F401  (letters of an HSD result; re-exported)

__all__ = ["LABELS", "topic_means", "cross_fitted_roles", "chance_agreement", "chance_levels", "dsharp_irec_bound",
           "normaliser_shift", "serp_summaries", "sample_pairs", "pair_scores", "measure_preferences",
           "label_codes", "preference_counts", "consistent_labels", "agreement_rates",
           "assessor_agreement_rates", "mean_agreement_rate", "assessor_groups", "agreement_matrix",
           "compact_letter_display", "identical_preferences"]

LABELS: tuple[str, str, str] = ("LEFT", "RIGHT", "EQUAL")
_EPS = 1e-9  # slack for ">= min_difference" on summaries that are multiples of 0.1 or 1/m


# --------------------------------------------------------------------------------------------
# labels
# --------------------------------------------------------------------------------------------


def label_codes(labels: Any, *, what: str = "labels", allow_missing: bool = True) -> np.ndarray:
    """Integer codes of preference labels: ``LEFT`` -> 0, ``RIGHT`` -> 1, ``EQUAL`` -> 2, missing -> -1.

    Parameters
    ----------
    labels : array_like, Series or DataFrame
        Label strings; missing values are ``None``, ``NaN`` or ``pd.NA``.
    what : str
        Name used in error messages.
    allow_missing : bool
        If False, a missing value raises ``ValueError``.

    Returns
    -------
    numpy.ndarray of int8, same shape as ``labels``.
    """
    if isinstance(labels, pd.DataFrame) and labels.shape[1] and all(
            isinstance(dt, pd.CategoricalDtype) and tuple(dt.categories) == LABELS for dt in labels.dtypes):
        # labels stored as categories of LABELS (helpers.simulate.preferences): the codes are there
        codes = np.column_stack([np.asarray(arr.codes, dtype=np.int8) for _, arr in labels.items()
                                 for arr in [arr.array]])
        if not allow_missing and (codes < 0).any():
            raise ValueError(f"{what}: {int((codes < 0).sum())} missing label(s); every pair needs a label here")
        return codes
    arr = labels.to_numpy(dtype=object) if isinstance(labels, (pd.DataFrame, pd.Series)) \
        else np.asarray(labels, dtype=object)
    missing = np.asarray(pd.isna(arr), dtype=bool)
    # hash lookup: one pass, not one comparison of Python strings per label; anything else -> -1
    codes = pd.Index(list(LABELS)).get_indexer(np.where(missing, None, arr).ravel()).astype(np.int8).reshape(arr.shape)
    unknown = (codes == -1) & ~missing
    if unknown.any():
        bad = sorted({repr(v) for v in arr[unknown]})[:5]
        raise ValueError(f"{what}: unknown preference labels {', '.join(bad)}; expected one of {list(LABELS)} "
                         "(missing judgements as None/NaN)")
    if not allow_missing and missing.any():
        raise ValueError(f"{what}: {int(missing.sum())} missing label(s); every pair needs a label here")
    return codes


def _as_label_frame(obj: Any, what: str) -> pd.DataFrame:
    if isinstance(obj, pd.Series):
        return obj.to_frame(name=obj.name if obj.name is not None else "measure")
    if isinstance(obj, pd.DataFrame):
        return obj
    raise ValueError(f"{what} must be a pandas DataFrame (pairs x columns) or Series, got {type(obj).__name__}")


def _check_nonempty(df: pd.DataFrame, what: str) -> None:
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise ValueError(f"{what} is empty ({df.shape[0]} pairs x {df.shape[1]} columns)")
    if not df.index.is_unique:
        dup = df.index[df.index.duplicated()].unique()[:5].tolist()
        raise ValueError(f"{what}: duplicate pair ids {dup}")
    if not df.columns.is_unique:
        dup = df.columns[df.columns.duplicated()].unique()[:5].tolist()
        raise ValueError(f"{what}: duplicate column names {dup}")


def _align(a: pd.DataFrame, b: pd.DataFrame, what_a: str, what_b: str) -> pd.DataFrame:
    """Reorder ``a``'s rows to ``b``'s index; the two must hold the same pair ids."""
    if not a.index.equals(b.index):
        only_a = a.index.difference(b.index)
        only_b = b.index.difference(a.index)
        if len(only_a) or len(only_b):
            raise ValueError(f"{what_a} and {what_b} must cover the same pairs: {len(only_a)} pair(s) only in "
                             f"{what_a} (e.g. {only_a[:3].tolist()}), {len(only_b)} only in {what_b} "
                             f"(e.g. {only_b[:3].tolist()})")
        a = a.loc[b.index]
    return a


def _coded(measure_prefs: Any, assessor_prefs: Any):
    """Measure and assessor labels aligned by pair and coded (``label_codes``), with the number of
    assessors per pair: ``(m, a, m_codes, a_codes, n)``. Every pair needs one assessor at least."""
    m = _as_label_frame(measure_prefs, "measure_prefs")
    a = _as_label_frame(assessor_prefs, "assessor_prefs")
    _check_nonempty(m, "measure_prefs")
    _check_nonempty(a, "assessor_prefs")
    m = _align(m, a, "measure_prefs", "assessor_prefs")
    mc = label_codes(m, what="measure_prefs", allow_missing=False)
    ac = label_codes(a, what="assessor_prefs")
    n = (ac >= 0).sum(axis=1)
    if (n == 0).any():
        empty = a.index[n == 0][:5].tolist()
        raise ValueError(f"assessor_prefs: {int((n == 0).sum())} pair(s) judged by no assessor, e.g. {empty}; "
                         "drop them first")
    return m, a, mc, ac, n


def preference_counts(prefs: pd.DataFrame) -> pd.DataFrame:
    """Number of ``LEFT``, ``RIGHT``, ``EQUAL`` labels and of judging assessors per pair.

    Parameters
    ----------
    prefs : DataFrame, pairs x assessors
        Labels, missing allowed.

    Returns
    -------
    DataFrame with columns ``LEFT, RIGHT, EQUAL, n`` (integers) and ``balance = LEFT - RIGHT``,
    the per-pair statistic whose Pearson correlation between the relevance and the diversity
    question the paper reports (0.898).
    """
    prefs = _as_label_frame(prefs, "prefs")
    _check_nonempty(prefs, "prefs")
    codes = label_codes(prefs, what="prefs")
    out = pd.DataFrame({lab: (codes == k).sum(axis=1) for k, lab in enumerate(LABELS)}, index=prefs.index)
    out["n"] = (codes >= 0).sum(axis=1)
    out["balance"] = out["LEFT"] - out["RIGHT"]
    return out


def consistent_labels(relevance: pd.DataFrame, diversity: pd.DataFrame) -> pd.DataFrame:
    """Labels for the paper's "both" analysis: an assessor's label where their relevance and
    diversity labels agree, missing where they differ.

    Zeng & Sakai use, per pair, only the assessors who gave the same label to both questions (on
    average 13.10 of 15 in their data, between 5 and 15), so pairs end up with different numbers
    of judging assessors.

    Parameters
    ----------
    relevance, diversity : DataFrame, pairs x assessors
        Same pairs and same assessor columns (in any order).

    Returns
    -------
    DataFrame shaped like ``relevance`` with object labels and ``None`` where the two differ or
    either is missing.
    """
    relevance = _as_label_frame(relevance, "relevance")
    diversity = _as_label_frame(diversity, "diversity")
    _check_nonempty(relevance, "relevance")
    _check_nonempty(diversity, "diversity")
    if set(relevance.columns) != set(diversity.columns):
        raise ValueError(f"relevance and diversity must have the same assessor columns; "
                         f"only in relevance: {sorted(map(str, set(relevance.columns) - set(diversity.columns)))}, "
                         f"only in diversity: {sorted(map(str, set(diversity.columns) - set(relevance.columns)))}")
    diversity = _align(diversity[list(relevance.columns)], relevance, "diversity", "relevance")
    r = label_codes(relevance, what="relevance")
    d = label_codes(diversity, what="diversity")
    same = (r == d) & (r >= 0)
    lab = np.asarray(LABELS, dtype=object)[np.where(same, r, 0)]
    lab[~same] = None
    return pd.DataFrame(lab, index=relevance.index, columns=relevance.columns)


# --------------------------------------------------------------------------------------------
# pairs and measure preferences
# --------------------------------------------------------------------------------------------


def serp_summaries(dqrels: pd.DataFrame, intents: pd.DataFrame, runs: pd.DataFrame,
                   cutoff: int = 10, scores: pd.DataFrame | None = None) -> pd.DataFrame:
    """The two per-SERP summaries of the paper's pair filter: precision and intent recall at ``cutoff``.

    Parameters
    ----------
    dqrels, intents, runs : DataFrame
        As for :func:`helpers.measures.diversity.evaluate` (intentwise ``relevance`` levels; runs with
        ``run_id, query_id, doc_id, rank``).
    cutoff : int
        SERP length (10 in the paper).
    scores : DataFrame, optional
        Output of :func:`helpers.measures.diversity.evaluate` on the same data that includes
        ``I-rec@<cutoff>`` (saves evaluating it again).

    Returns
    -------
    DataFrame ``run_id, query_id, precision, intent_recall``, one row per run and dqrels topic.
    ``precision`` = (number of the top ``cutoff`` documents relevant - level > 0 - to at least
    one intent) / ``cutoff``; unjudged documents are non-relevant and a short run is still divided
    by ``cutoff``. ``intent_recall`` = ``I-rec@cutoff`` (:mod:`helpers.measures.diversity`).
    """
    if isinstance(cutoff, bool) or not isinstance(cutoff, (int, np.integer)) or cutoff < 1:
        raise ValueError(f"cutoff must be a positive integer, got {cutoff!r}")
    for name, df, cols in [("dqrels", dqrels, ("query_id", "doc_id", "relevance")),
                           ("runs", runs, ("run_id", "query_id", "doc_id", "rank"))]:
        missing = [c for c in cols if c not in df.columns]
        if missing:
            raise ValueError(f"{name} lacks column(s) {missing}; expected {list(cols)}")
    name = f"I-rec@{cutoff}"
    if scores is not None and bool((scores["measure"] == name).any()):
        irec = scores[scores["measure"] == name]
    else:
        irec = diversity.evaluate(dqrels, intents, runs, [name])
    relevant = dqrels.loc[dqrels["relevance"] > 0, ["query_id", "doc_id"]].drop_duplicates()
    relevant = relevant.assign(_rel=1)
    top = runs.loc[runs["rank"] <= cutoff, ["run_id", "query_id", "doc_id"]]
    top = top.merge(relevant, on=["query_id", "doc_id"], how="left")
    prec = (top["_rel"].fillna(0).groupby([top["run_id"], top["query_id"]]).sum() / cutoff).rename("precision")
    out = irec.rename(columns={"value": "intent_recall"}).drop(columns="measure")
    out = out.merge(prec.reset_index(), on=["run_id", "query_id"], how="left")
    out["precision"] = out["precision"].fillna(0.0)
    return out[["run_id", "query_id", "precision", "intent_recall"]].reset_index(drop=True)


def sample_pairs(scores_or_runs: pd.DataFrame, rng: np.random.Generator, min_difference: float = 0.1,
                 target: int | None = 1127, *,
                 columns: Sequence[str] = ("precision", "intent_recall")) -> pd.DataFrame:
    """SERP pairs per topic with the paper's filter, sampled down to ``target``.

    Every unordered pair of distinct runs of a topic is a candidate (15 runs -> 105 per topic).
    It is kept when the two SERPs differ by at least ``min_difference`` in *every* summary of
    ``columns`` (default: precision and intent recall of the top 10, see :func:`serp_summaries`);
    a slack of 1e-9 absorbs float error on summaries that are multiples of 0.1. If more than
    ``target`` pairs pass, ``target`` of them are drawn uniformly without replacement. Which run
    is shown on the left is decided by a fair coin per pair (the paper does not say; randomising
    removes any position effect from the simulated judgements).

    Parameters
    ----------
    scores_or_runs : DataFrame
        Per-SERP summaries: wide (``run_id, query_id`` + ``columns``, e.g. the output of
        :func:`serp_summaries`) or tidy (``run_id, query_id, measure, value``, e.g. the output of
        :func:`helpers.measures.diversity.evaluate`; ``columns`` then name measures).
    rng : numpy.random.Generator
        Used for the down-sampling and the left/right coin.
    min_difference : float
        Smallest absolute difference required in every summary (0.1 in the paper); 0 keeps all.
    target : int or None
        Number of pairs to keep (1,127 in the paper); None keeps every pair that passes.
    columns : sequence of str
        The summaries to filter on.

    Returns
    -------
    DataFrame ``pair_id, query_id, run_left, run_right`` and ``diff_<column>`` (left minus right),
    sorted by topic and run pair, ``pair_id`` = ``P0001...``. ``attrs``: ``n_candidates``,
    ``n_passed`` and ``n_sampled``.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if isinstance(min_difference, bool) or not isinstance(min_difference, (int, float, np.floating)) \
            or not math.isfinite(min_difference) or min_difference < 0:
        raise ValueError(f"min_difference must be a finite number >= 0, got {min_difference!r}")
    if target is not None and (isinstance(target, bool) or not isinstance(target, (int, np.integer)) or target < 1):
        raise ValueError(f"target must be a positive integer or None, got {target!r}")
    columns = [columns] if isinstance(columns, str) else list(columns)
    if not columns:
        raise ValueError("columns must name at least one summary")
    df = scores_or_runs
    if not isinstance(df, pd.DataFrame) or len(df) == 0:
        raise ValueError("scores_or_runs must be a non-empty DataFrame of per-SERP summaries")
    if {"measure", "value"} <= set(df.columns) and not set(columns) <= set(df.columns):
        df = df.pivot_table(index=["run_id", "query_id"], columns="measure", values="value",
                            aggfunc="first").reset_index()
    missing = [c for c in ["run_id", "query_id", *columns] if c not in df.columns]
    if missing:
        raise ValueError(f"scores_or_runs lacks {missing}; have {list(map(str, df.columns))}")
    if df.duplicated(["run_id", "query_id"]).any():
        raise ValueError("scores_or_runs has more than one row for some (run_id, query_id)")
    vals = df[columns].to_numpy(dtype=float)
    if not np.isfinite(vals).all():
        raise ValueError(f"scores_or_runs: non-finite values in {columns}")
    wide = df[["run_id", "query_id", *columns]].sort_values(["query_id", "run_id"], kind="stable")
    a = wide.rename(columns={c: f"{c}_a" for c in ["run_id", *columns]})
    b = wide.rename(columns={c: f"{c}_b" for c in ["run_id", *columns]})
    cand = a.merge(b, on="query_id")
    cand = cand[cand["run_id_a"].astype(str) < cand["run_id_b"].astype(str)].reset_index(drop=True)
    n_candidates = len(cand)
    keep = np.ones(len(cand), dtype=bool)
    for c in columns:
        keep &= np.abs(cand[f"{c}_a"].to_numpy(float) - cand[f"{c}_b"].to_numpy(float)) >= min_difference - _EPS
    passed = cand[keep].reset_index(drop=True)
    n_passed = len(passed)
    if n_passed == 0:
        raise ValueError(f"no pair passes the filter (min_difference={min_difference} on {columns}) "
                         f"among {n_candidates} candidates")
    if target is not None and n_passed > target:
        take = np.sort(rng.choice(n_passed, size=target, replace=False))
        passed = passed.iloc[take].reset_index(drop=True)
    swap = rng.random(len(passed)) < 0.5
    out = pd.DataFrame({
        "pair_id": [f"P{k + 1:04d}" for k in range(len(passed))],
        "query_id": passed["query_id"].to_numpy(),
        "run_left": np.where(swap, passed["run_id_b"], passed["run_id_a"]),
        "run_right": np.where(swap, passed["run_id_a"], passed["run_id_b"]),
    })
    for c in columns:
        d = passed[f"{c}_a"].to_numpy(float) - passed[f"{c}_b"].to_numpy(float)
        out[f"diff_{c}"] = np.where(swap, -d, d)
    out.attrs.update({"n_candidates": n_candidates, "n_passed": n_passed, "n_sampled": len(out)})
    return out


def pair_scores(scores: pd.DataFrame, pairs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Scores of the left and of the right SERP of every pair, one column per measure.

    Parameters
    ----------
    scores : DataFrame
        Tidy ``run_id, query_id, measure, value`` (:func:`helpers.measures.diversity.evaluate`).
    pairs : DataFrame
        ``pair_id, query_id, run_left, run_right`` (:func:`sample_pairs`).

    Returns
    -------
    (left, right) : two DataFrames indexed by ``pair_id``, columns = measures in order of appearance.
    """
    need = {"run_id", "query_id", "measure", "value"} - set(scores.columns)
    if need:
        raise ValueError(f"scores lacks column(s) {sorted(need)}")
    need = {"pair_id", "query_id", "run_left", "run_right"} - set(pairs.columns)
    if need:
        raise ValueError(f"pairs lacks column(s) {sorted(need)}")
    if len(scores) == 0 or len(pairs) == 0:
        raise ValueError("scores and pairs must not be empty")
    measures = list(pd.unique(scores["measure"].to_numpy(dtype=object)))   # order of appearance
    wide = scores.pivot_table(index=["run_id", "query_id"], columns="measure", values="value",
                              aggfunc="first")[measures]
    out = []
    for side in ("run_left", "run_right"):
        key = pd.MultiIndex.from_arrays([pairs[side], pairs["query_id"]])
        missing = ~key.isin(wide.index)
        if missing.any():
            raise ValueError(f"scores lack {int(missing.sum())} SERP(s) of the pairs, e.g. "
                             f"{key[missing][:3].tolist()} ({side})")
        out.append(pd.DataFrame(wide.loc[key].to_numpy(), index=pd.Index(pairs["pair_id"], name="pair_id"),
                                columns=measures))
    return out[0], out[1]


def measure_preferences(scores_left: Any, scores_right: Any, tie_tolerance: float = 1e-9) -> Any:
    """A measure's preference for each pair: ``LEFT``, ``RIGHT`` or ``EQUAL``.

    ``LEFT`` if ``left - right > tie_tolerance``, ``RIGHT`` if ``right - left > tie_tolerance``,
    ``EQUAL`` otherwise. The default tolerance only absorbs float rounding (two SERPs that score
    the same up to 1e-9 are tied); pass 0 for exact comparison.

    Parameters
    ----------
    scores_left, scores_right : array_like, Series or DataFrame
        Same shape (DataFrames: same index and columns) and finite.
    tie_tolerance : float
        Absolute tolerance, finite and >= 0.

    Returns
    -------
    Labels of the same shape and type (DataFrame/Series keep index and columns; arrays give an
    object array).
    """
    if isinstance(tie_tolerance, bool) or not isinstance(tie_tolerance, (int, float, np.floating)) \
            or not math.isfinite(tie_tolerance) or tie_tolerance < 0:
        raise ValueError(f"tie_tolerance must be a finite number >= 0, got {tie_tolerance!r}")
    frame = isinstance(scores_left, (pd.DataFrame, pd.Series))
    if frame:
        if type(scores_left) is not type(scores_right):
            raise ValueError("scores_left and scores_right must both be DataFrames, Series or arrays")
        if not scores_left.index.equals(scores_right.index):
            raise ValueError("scores_left and scores_right must have the same index (pair ids, same order)")
        if isinstance(scores_left, pd.DataFrame) and not scores_left.columns.equals(scores_right.columns):
            raise ValueError("scores_left and scores_right must have the same columns (measures, same order)")
    try:
        left = np.asarray(scores_left, dtype=float)
        right = np.asarray(scores_right, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("scores must be numbers") from None
    if left.shape != right.shape:
        raise ValueError(f"scores_left has shape {left.shape} but scores_right {right.shape}")
    if left.size == 0:
        raise ValueError("scores are empty")
    if not (np.isfinite(left).all() and np.isfinite(right).all()):
        raise ValueError("scores must be finite (a NaN score has no preference)")
    d = left - right
    codes = np.where(d > tie_tolerance, 0, np.where(-d > tie_tolerance, 1, 2)).astype(np.int8)
    if isinstance(scores_left, pd.DataFrame):   # categorical columns: label_codes reads them without parsing
        dtype = pd.CategoricalDtype(list(LABELS))  # codes are 0, 1, 2 by construction: no validation pass
        return pd.DataFrame({c: pd.Categorical.from_codes(codes[:, j], dtype=dtype, validate=False)
                             for j, c in enumerate(scores_left.columns)}, index=scores_left.index)
    if isinstance(scores_left, pd.Series):
        return pd.Series(pd.Categorical.from_codes(codes, categories=list(LABELS)), index=scores_left.index,
                         name=scores_left.name)
    return np.asarray(LABELS, dtype=object)[codes]


# --------------------------------------------------------------------------------------------
# agreement rates
# --------------------------------------------------------------------------------------------


def agreement_rates(measure_prefs: Any, assessor_prefs: pd.DataFrame) -> pd.DataFrame:
    """Per-pair agreement rate of each measure with the assessors (see the module docstring).

    rate(m, p) = #{assessors a who judged p with label_a(p) == label_m(p)} / #{assessors who judged p}.
    ``EQUAL`` is a third label: it agrees only with ``EQUAL``.

    Parameters
    ----------
    measure_prefs : DataFrame (pairs x measures) or Series (one measure)
        Labels from :func:`measure_preferences`; no missing values.
    assessor_prefs : DataFrame (pairs x assessors)
        Labels; missing judgements allowed (each pair uses its own number of assessors), but every
        pair needs at least one label.

    Returns
    -------
    DataFrame, pairs (in ``assessor_prefs`` order) x measures, values in [0, 1].
    """
    m, a, mc, ac, n = _coded(measure_prefs, assessor_prefs)
    counts = np.stack([(ac == k).sum(axis=1) for k in range(len(LABELS))], axis=1)  # (P, 3)
    agree = np.take_along_axis(counts, mc.astype(np.intp), axis=1)                    # (P, M)
    return pd.DataFrame(agree / n[:, None], index=a.index, columns=m.columns)


def assessor_agreement_rates(assessor_prefs: pd.DataFrame, reference: pd.DataFrame | None = None,
                             owners: Mapping[Any, Any] | None = None) -> pd.DataFrame:
    """Per-pair leave-one-out agreement rate of each assessor with the *other* assessors.

    For candidate column ``c`` (owned by reference assessor ``o = owners[c]``) and pair ``p``:
    rate = #{a != o in reference who judged p, label_a(p) == label_c(p)} / #{a != o who judged p}.
    NaN where ``c`` did not judge ``p`` or no other assessor did.

    Parameters
    ----------
    assessor_prefs : DataFrame (pairs x candidates)
        The labels to be scored (e.g. each assessor's relevance labels).
    reference : DataFrame (pairs x assessors), optional
        The labels to agree with; default ``assessor_prefs`` itself (then each assessor is
        compared with the other 14).
    owners : mapping candidate -> reference column, optional
        Which reference assessor to leave out for each candidate. Default: the candidate's own
        name, which must then be a reference column. ``None`` as a value leaves nobody out.

    Returns
    -------
    DataFrame, pairs x candidates.
    """
    cand = _as_label_frame(assessor_prefs, "assessor_prefs")
    _check_nonempty(cand, "assessor_prefs")
    ref = cand if reference is None else _as_label_frame(reference, "reference")
    _check_nonempty(ref, "reference")
    cand = _align(cand, ref, "assessor_prefs", "reference")
    owners = dict(owners) if owners is not None else {c: c for c in cand.columns}
    missing_owner = [c for c in cand.columns if c not in owners]
    if missing_owner:
        raise ValueError(f"owners gives no reference assessor for candidate(s) {missing_owner[:5]}")
    ref_cols = list(ref.columns)
    bad = [c for c in cand.columns if owners[c] is not None and owners[c] not in ref_cols]
    if bad:
        raise ValueError(f"owners of {bad[:5]} are not reference columns ({ref_cols[:5]}...)")
    cc = label_codes(cand, what="assessor_prefs")
    rc = label_codes(ref, what="reference")
    counts = np.stack([(rc == k).sum(axis=1) for k in range(len(LABELS))], axis=1).astype(float)  # (P, 3)
    n_ref = (rc >= 0).sum(axis=1).astype(float)
    out = np.full(cc.shape, np.nan)
    for j, c in enumerate(cand.columns):
        own = rc[:, ref_cols.index(owners[c])] if owners[c] is not None else np.full(len(rc), -1)
        lab = cc[:, j]
        safe = np.where(lab >= 0, lab, 0).astype(np.intp)
        agree = counts[np.arange(len(lab)), safe] - ((own == lab) & (own >= 0))
        denom = n_ref - (own >= 0)
        ok = (lab >= 0) & (denom > 0)
        out[ok, j] = agree[ok] / denom[ok]
    return pd.DataFrame(out, index=ref.index, columns=cand.columns)


def mean_agreement_rate(rates: pd.DataFrame) -> pd.Series:
    """MAR: the mean per-pair agreement rate of each column (NaN pairs left out).

    Parameters
    ----------
    rates : DataFrame (pairs x measures or assessors)
        Output of :func:`agreement_rates` or :func:`assessor_agreement_rates`.

    Returns
    -------
    Series named ``"MAR"`` indexed by column; a column without any rate raises ``ValueError``.
    """
    rates = _as_label_frame(rates, "rates") if isinstance(rates, pd.Series) else rates
    if not isinstance(rates, pd.DataFrame):
        raise ValueError(f"rates must be a DataFrame, got {type(rates).__name__}")
    if rates.shape[0] == 0 or rates.shape[1] == 0:
        raise ValueError(f"rates is empty ({rates.shape[0]} pairs x {rates.shape[1]} columns)")
    vals = rates.to_numpy(dtype=float)
    if ((vals < 0) | (vals > 1)).any():
        raise ValueError("rates must lie in [0, 1]")
    n = np.isfinite(vals).sum(axis=0)
    if (n == 0).any():
        raise ValueError(f"no agreement rate at all for {list(rates.columns[n == 0])[:5]}")
    return pd.Series(np.nanmean(vals, axis=0), index=rates.columns, name="MAR")


def assessor_groups(mar: pd.Series) -> dict[str, Any]:
    """Best, median and worst assessor by MAR (see the module docstring for the median).

    Parameters
    ----------
    mar : Series
        MAR per assessor (at least one).

    Returns
    -------
    dict ``{"best": name, "median": name, "worst": name}``. MARs equal to 12 decimals are ties
    (broken by name): MARs are means of fractions and often tie exactly, and which of two tied
    assessors comes first must not depend on the last bits of a float sum.
    """
    if not isinstance(mar, pd.Series) or len(mar) == 0:
        raise ValueError("mar must be a non-empty Series of MAR per assessor")
    if not np.isfinite(mar.to_numpy(dtype=float)).all():
        raise ValueError("mar must be finite")
    frame = pd.DataFrame({"name": mar.index.astype(str), "mar": np.round(mar.to_numpy(float), 12), "key": mar.index})
    frame = frame.sort_values(["mar", "name"], ascending=[False, True], kind="stable")
    keys = frame["key"].tolist()
    return {"best": keys[0], "median": keys[(len(keys) - 1) // 2], "worst": keys[-1]}


def agreement_matrix(measure_prefs: Any, assessor_prefs: pd.DataFrame, *,
                     candidates: pd.DataFrame | None = None, owners: Mapping[Any, Any] | None = None,
                     assessors: Mapping[str, Any] | Sequence[Any] | None = None,
                     dropna: bool = False) -> pd.DataFrame:
    """Pairs x (measures + assessors) matrix of per-pair agreement rates.

    This is the "topic x system" matrix of the paper's randomised Tukey HSD test and effect sizes
    (ES = ΔMAR / sqrt(V_E)): pairs play the role of topics; measures and (selected) assessors the
    role of systems. Measure columns are :func:`agreement_rates` against ``assessor_prefs``;
    assessor columns are :func:`assessor_agreement_rates` of ``candidates`` (default
    ``assessor_prefs``) against ``assessor_prefs`` with their owner left out.

    Parameters
    ----------
    measure_prefs : DataFrame or Series
        Measures' labels.
    assessor_prefs : DataFrame
        The reference labels.
    candidates, owners
        See :func:`assessor_agreement_rates`.
    assessors : mapping new_name -> candidate, or sequence of candidates, optional
        Which assessor columns to include (and how to name them), e.g.
        ``{"best assessor": "A12", "median assessor": "A07"}``; default: all candidates.
    dropna : bool
        Drop pairs where a selected assessor has no rate; otherwise such NaN raise ``ValueError``.

    Returns
    -------
    DataFrame, pairs x (measures, then assessors).
    """
    m_rates = agreement_rates(measure_prefs, assessor_prefs)
    a_rates = assessor_agreement_rates(assessor_prefs if candidates is None else candidates,
                                       reference=assessor_prefs, owners=owners)
    if assessors is not None:
        mapping = dict(assessors) if isinstance(assessors, Mapping) else {a: a for a in assessors}
        unknown = [v for v in mapping.values() if v not in a_rates.columns]
        if unknown:
            raise ValueError(f"assessors: unknown candidate column(s) {unknown[:5]}")
        a_rates = a_rates[list(mapping.values())].set_axis(list(mapping.keys()), axis=1)
    clash = set(m_rates.columns) & set(a_rates.columns)
    if clash:
        raise ValueError(f"measure and assessor columns share names {sorted(map(str, clash))[:5]}")
    out = pd.concat([m_rates, a_rates], axis=1)
    bad = out.isna().any(axis=1)
    if bad.any():
        if not dropna:
            raise ValueError(f"{int(bad.sum())} pair(s) have no rate for some assessor column "
                             f"(e.g. {out.index[bad][:3].tolist()}); pass dropna=True to drop them")
        out = out[~bad]
    return out


# ---------------------------------------------------------------------------------------------
# Topic clustering, cross-fitted assessor roles, chance, the D#-RBP/I-rec bound, normaliser shifts
# ---------------------------------------------------------------------------------------------

def topic_means(matrix: pd.DataFrame, topics: pd.Series) -> pd.DataFrame:
    """Topics x systems matrix of the mean per-pair agreement rate within each topic: pairs of one
    topic share its SERPs and are not independent, so testing over topics (the randomised Tukey HSD
    with topics as blocks) treats the topic as the unit. ``matrix``: pairs (index ``pair_id``) x
    systems (:func:`agreement_matrix`); ``topics``: ``pair_id -> query_id`` for every pair of it
    (a missing pair raises ValueError)."""
    t = topics.reindex(matrix.index)
    if t.isna().any():
        raise ValueError(f"topics lacks {int(t.isna().sum())} pair(s) of the matrix, e.g. {list(matrix.index[t.isna()][:3])}")
    return matrix.groupby(t.to_numpy()).mean().rename_axis("query_id")


def cross_fitted_roles(reference: pd.DataFrame, candidates: pd.DataFrame, topics: pd.Series,
                       rng: np.random.Generator, owners: Mapping[Any, Any] | None = None) -> dict:
    """Best/median/worst assessor roles chosen out of sample: two-fold cross-fitting over topics.

    Roles chosen by MAR on the pairs they are then compared on flatter the best and penalise the
    worst (winner's curse; Zeng & Sakai choose them in sample). Here the topics are split at random
    into halves A and B, roles chosen (:func:`assessor_groups`) on A are scored on B and vice
    versa: every pair carries the leave-one-out rate (:func:`assessor_agreement_rates`) of an
    assessor chosen *without* it, and the columns can enter the randomised Tukey HSD.

    Returns
    -------
    dict with ``rates`` (pairs x ``best/median/worst assessor``, cross-fitted), ``in_sample_rates``
    (the same columns for the roles chosen on all pairs), ``mar`` and ``mar_in_sample``
    (``{role: MAR}``), ``optimism`` (``{role: in-sample MAR - cross-fitted MAR}``: how much choosing
    in sample flatters the role), ``selection`` (``{"A": roles, "B": roles, "all": roles}``) and
    ``topics`` (the sizes of A and B).
    """
    t = topics.reindex(reference.index)
    if t.isna().any():
        raise ValueError("topics must cover every pair of reference")
    uniq = np.array(sorted(t.unique()), dtype=object)
    if len(uniq) < 2:
        raise ValueError("cross-fitted assessor roles need at least two topics")
    half = set(uniq[rng.permutation(len(uniq))[: len(uniq) // 2]])
    in_a = t.isin(half).to_numpy()
    rates = assessor_agreement_rates(candidates, reference=reference, owners=owners)
    names, r = rates.columns, rates.to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):   # an assessor without any pair in a half has no MAR there
        mars = {k: pd.Series(np.nanmean(r[sel], axis=0), index=names)
                for k, sel in (("A", in_a), ("B", ~in_a), ("all", np.ones(len(r), dtype=bool)))}
    roles = {k: assessor_groups(m.dropna()) for k, m in mars.items()}
    pos = {c: j for j, c in enumerate(names)}
    cols = {role: f"{role} assessor" for role in ("best", "median", "worst")}
    out, ins = {}, {}
    for role, col in cols.items():
        # pairs of B get the assessor chosen on A, pairs of A the one chosen on B
        out[col] = np.where(in_a, r[:, pos[roles["B"][role]]], r[:, pos[roles["A"][role]]])
        ins[col] = r[:, pos[roles["all"][role]]]
    mar = {role: float(np.nanmean(out[col])) for role, col in cols.items()}
    mar_in = {role: float(np.nanmean(ins[col])) for role, col in cols.items()}
    return {"rates": pd.DataFrame(out, index=rates.index), "in_sample_rates": pd.DataFrame(ins, index=rates.index),
            "mar": mar, "mar_in_sample": mar_in, "optimism": {k: mar_in[k] - mar[k] for k in cols},
            "selection": {"A": roles["A"], "B": roles["B"], "all": roles["all"]},
            "topics": (len(half), len(uniq) - len(half))}


def chance_agreement(label_shares: Mapping[str, float], measure_equal_share: float = 0.0) -> float:
    """Expected agreement rate of a labeller that ignores the SERPs: EQUAL with probability ``t``
    (``measure_equal_share``), else a side at random. With the assessors' EQUAL share ``e`` (EQUAL
    agrees only with EQUAL, :func:`agreement_rates`): ``t e + (1 - t) (1 - e) / 2``; ``0.5 (1 - e)``
    for a measure that never says EQUAL (not the sum of squared label shares, which assumes the
    labeller copies the assessors' EQUAL rate). Sides equally likely: left/right is randomised
    (:func:`sample_pairs`)."""
    e = float(label_shares.get("EQUAL", 0.0))
    total = float(sum(label_shares.values()))
    if not 0 <= e <= 1 or not abs(total - 1) < 1e-6:
        raise ValueError(f"label_shares must be shares of LEFT/RIGHT/EQUAL summing to 1, got {dict(label_shares)}")
    t = float(measure_equal_share)
    if not 0 <= t <= 1:
        raise ValueError(f"measure_equal_share must lie in [0, 1], got {t}")
    return t * e + (1 - t) * (1 - e) / 2


def chance_levels(measure_prefs: Any, assessor_prefs: pd.DataFrame) -> pd.Series:
    """Each measure's own chance level against ``assessor_prefs``: :func:`chance_agreement` with the
    measure's EQUAL share ``t`` on these pairs and the assessors' label shares.

    MAR weighs every pair the same (:func:`mean_agreement_rate`), so the label shares are the mean
    over pairs of each pair's shares (the pooled shares when every pair has the same assessors;
    the "both" labels, with a varying number per pair, need the per-pair mean). A measure that
    never says EQUAL gets ``0.5 (1 - e)``; one that says EQUAL on a share ``t`` of the pairs gets
    ``t e + (1 - t)(1 - e) / 2`` -- with the assessors' e below 1/3 a lower level, so comparing it
    with the never-EQUAL level misjudges it (notebook 05's null-assessor check).

    Parameters
    ----------
    measure_prefs : DataFrame (pairs x measures) or Series
        Labels from :func:`measure_preferences` on the pairs of ``assessor_prefs``.
    assessor_prefs : DataFrame (pairs x assessors)
        Labels, missing judgements allowed; every pair needs at least one.

    Returns
    -------
    Series measure -> chance level (name ``"chance"``).
    """
    m, _, mc, ac, n = _coded(measure_prefs, assessor_prefs)
    shares = {lab: float(np.mean((ac == k).sum(axis=1) / n)) for k, lab in enumerate(LABELS)}
    t = (mc == LABELS.index("EQUAL")).mean(axis=0)
    return pd.Series([chance_agreement(shares, float(x)) for x in t], index=m.columns, name="chance")


def dsharp_irec_bound(p: float, cutoff: int, min_difference: float, gamma: float = 0.5) -> dict:
    """When D#-RBP(p)@l must prefer what I-rec@l prefers, on pairs filtered by ``min_difference``.

    ``D#-RBP = gamma I-rec + (1 - gamma) D-RBP`` with ``D-RBP = (1 - p) sum_{r<=l} p^(r-1) g(r)/g_max``
    (Zeng & Sakai Table 1 and Eq. 6; ``g(r) <= g_max`` under both normalisers, ``"fixed"`` and
    ``"ideal"``), so ``0 <= D-RBP <= 1 - p^l``. On a pair whose I-rec differs by at least
    ``min_difference`` (the paper's pair filter), D#-RBP can prefer the other SERP only if
    ``(1 - gamma)(1 - p^l) > gamma * min_difference``. Returns ``{"max_d_rbp": 1 - p^l,
    "can_differ": bool}``: with p = 0.99, l = 10 and the filter's 0.1, ``1 - 0.99^10 = 0.096``: the
    two always agree, as the paper's Table 2 shows (D#-RBP (p = 0.99) and I-rec both 0.7330).
    """
    if not 0 < p < 1 or int(cutoff) < 1 or min_difference < 0 or not 0 < gamma < 1:
        raise ValueError("need 0 < p < 1, cutoff >= 1, min_difference >= 0 and 0 < gamma < 1")
    top = 1.0 - p ** int(cutoff)
    return {"max_d_rbp": top, "can_differ": bool((1 - gamma) * top > gamma * min_difference)}


def normaliser_shift(prefs_a: pd.DataFrame, prefs_b: pd.DataFrame, labels: pd.DataFrame) -> pd.DataFrame:
    """How much two scorings of the same measures (e.g. two normalisers) change the analysis.

    Returns one row per measure (columns of ``prefs_a``): ``flipped`` (share of pairs on which the
    two preferences differ), ``mar_a``, ``mar_b`` and ``delta`` (``mar_b - mar_a``) against
    ``labels``.
    """
    if list(prefs_a.columns) != list(prefs_b.columns) or not prefs_a.index.equals(prefs_b.index):
        raise ValueError("prefs_a and prefs_b must have the same pairs and measures")
    pa, pb = prefs_a.loc[labels.index], prefs_b.loc[labels.index]
    ma = mean_agreement_rate(agreement_rates(pa, labels))
    mb = mean_agreement_rate(agreement_rates(pb, labels))
    return pd.DataFrame({"flipped": (pa != pb).mean(), "mar_a": ma, "mar_b": mb, "delta": mb - ma})


def identical_preferences(prefs: pd.DataFrame) -> list[list[str]]:
    """Groups of measures (columns of ``prefs``, pairs x measures) that give the same preference on
    every pair: one measure under several names for MAR and its tests (e.g. D-RBP(p) and RBP-IA(p)
    under the ``fixed`` normaliser, both linear in the gains over a constant). In column order."""
    keys = {c: tuple(prefs[c].astype(str)) for c in prefs.columns}
    groups: dict[tuple, list[str]] = {}
    for c, k in keys.items():
        groups.setdefault(k, []).append(c)
    return [g for g in groups.values() if len(g) > 1]
