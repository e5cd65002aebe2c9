"""Gain values from many assessors' ratings: raw, weighted and unanimity-aware gains.

All functions take an ``items x assessors`` ratings array (a 2-D numpy array, nested list or a
DataFrame whose index names the items). A missing rating is ``NaN``; ``N`` is the number of
ratings *of that item*, so items may have different numbers of assessors. Every rating must be an
integer in ``0..d_max``.

References
----------
Sakai, T. "Unanimity-Aware Gain for Highly Subjective Assessments", EVIA 2017 (Eq. 1, Eq. 2, Table 1).
Sakai, T. "Graded Relevance Assessments and Graded Relevance Measures of NTCIR: A Survey of the
First Twenty Years" (gain-value settings of NTCIR tasks; the STC-2 example (2,1,1) -> 4.6 vs
(2,2,0) -> 4.0; the STC CECG majority-vote rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

__all__ = [
    "GainSetting",
    "GAIN_SETTINGS",
    "apply_setting",
    "average_gain",
    "prob_ties_broken",
    "binary_gain",
    "level_gains",
    "majority_vote",
    "n_ratings",
    "prob_full_spread",
    "prob_full_spread_given_relevant",
    "ratings_matrix",
    "raw_gain",
    "spread",
    "unanimity_summary",
    "ties_broken_se",
    "ties_breakers",
    "RARE_TIES",
    "comparable_items",
    "n_label",
    "varying_n_note",
    "ties_broken",
    "unanimity_aware_gain",
    "weighted_gain",
]


# --------------------------------------------------------------------------------------------
# validation


_NOT_GIVEN = object()
#: Largest rating scale accepted: some summaries count per level, so memory would grow with d_max.
MAX_D_MAX = 10_000


def _validate(ratings, d_max=_NOT_GIVEN) -> tuple[np.ndarray, list]:
    """Return ratings as a float ``items x assessors`` array plus item labels, or raise."""
    if isinstance(ratings, pd.DataFrame):
        labels = [str(i) for i in ratings.index]
        values = ratings.to_numpy(dtype=float, na_value=np.nan)
    else:
        try:
            values = np.asarray(ratings, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"ratings must be numeric (NaN for a missing rating): {exc}") from None
        labels = None
    if values.ndim != 2:
        raise ValueError(
            "ratings must be a 2-D items x assessors array (one row per item), "
            f"got an array of shape {values.shape}; wrap a single item as [[r1, r2, ...]]"
        )
    if values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"ratings must have at least one item and one assessor, got shape {values.shape}")
    if d_max is not _NOT_GIVEN:
        _check_d_max(d_max)
    else:
        d_max = None

    def _item(i: int) -> str:  # labels are only spelled out for an error (building them costs)
        return f"item {labels[i] if labels is not None else i!s} (row {i})"

    if np.isinf(values).any():
        i, j = np.argwhere(np.isinf(values))[0]
        raise ValueError(f"{_item(i)}: rating {values[i, j]} of assessor {j} is infinite")
    rated = ~np.isnan(values)
    empty = ~rated.any(axis=1)
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise ValueError(f"{_item(i)} has no ratings (all NaN); drop it or give it at least one rating")
    bad = rated & (values != np.round(values))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"{_item(i)}: rating {values[i, j]:g} of assessor {j} is not an integer")
    low = rated & (values < 0)
    high = rated & (values > d_max) if d_max is not None else np.zeros_like(rated)
    if low.any() or high.any():
        i, j = np.argwhere(low | high)[0]
        upper = f"{d_max}" if d_max is not None else "d_max"
        raise ValueError(f"{_item(i)}: rating {values[i, j]:g} of assessor {j} is outside 0..{upper}")
    return values, labels


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def _check_d_max(d_max) -> None:
    if not _is_number(d_max) or not np.isfinite(d_max) or not float(d_max).is_integer() or d_max < 1:
        raise ValueError(f"d_max must be an integer >= 1 (the highest rating), got {d_max!r}")
    if d_max > MAX_D_MAX:
        raise ValueError(f"d_max = {d_max!r} is beyond the largest rating scale supported ({MAX_D_MAX}); "
                         "rating scales are small integers (the papers use 2..8)")


def _check_p(p) -> None:
    if not _is_number(p) or np.isnan(p) or not (0.0 <= float(p) <= 1.0):
        raise ValueError(f"p must lie in [0, 1] (a number), got {p!r}")


# --------------------------------------------------------------------------------------------
# the three gains of Sakai (EVIA 2017)


def n_ratings(ratings) -> np.ndarray:
    """Number of ratings ``N`` of each item (non-NaN entries of its row)."""
    values, _ = _validate(ratings)
    return (~np.isnan(values)).sum(axis=1)


def spread(ratings, d_max=None) -> np.ndarray:
    """Rating spread ``D_i = max - min`` of each item's ratings (Sakai 2017, Sec. 3).

    ``D = 0`` means a unanimous item; ``D = d_max`` the most controversial one.
    """
    values, _ = _validate(ratings, _NOT_GIVEN if d_max is None else d_max)
    return np.nanmax(values, axis=1) - np.nanmin(values, axis=1)


def raw_gain(ratings, d_max=None) -> np.ndarray:
    """Raw gain ``RawG_i``: the sum of the item's ratings (Sakai 2017, Sec. 3).

    With ``N`` assessors rating ``0..d_max`` this yields levels ``0..N*d_max``. ``d_max`` is
    optional here and only used to range-check the ratings.
    """
    values, _ = _validate(ratings, _NOT_GIVEN if d_max is None else d_max)
    return np.nansum(values, axis=1)


def weighted_gain(ratings, d_max) -> np.ndarray:
    """Li & Yoshikawa's confusability-weighted gain, as applied by Sakai (2017, Eq. 1).

    ``WG_i = (1 - D_i / d_max) * RawG_i``: a controversial item (``D_i = d_max``) gets zero gain
    whatever its ratings, which Sakai's Table 1 shows to be counter-intuitive (Item 3).
    """
    values, _ = _validate(ratings, d_max)
    d = np.nanmax(values, axis=1) - np.nanmin(values, axis=1)
    return (1.0 - d / float(d_max)) * np.nansum(values, axis=1)


def unanimity_aware_gain(ratings, d_max, p: float = 0.2) -> np.ndarray:
    """Sakai's unanimity-aware gain (EVIA 2017, Eq. 2).

    ``UG_i = RawG_i + p * N_i * (d_max - D_i)`` if ``RawG_i > 0``, else ``0``.

    The bonus pretends that ``p * N_i`` extra assessors gave the top rating to a perfectly
    unanimous item; it vanishes when ``D_i = d_max``. Bounds: ``RawG_i <= UG_i <= (1 + p) N_i d_max``.

    Parameters
    ----------
    ratings : array-like or DataFrame, items x assessors
        Integer ratings in ``0..d_max``; NaN = not rated (``N_i`` counts the item's ratings).
    d_max : int
        Highest possible rating (``D_max`` in the paper), at least 1.
    p : float, default 0.2
        Upgrade strength in ``[0, 1]``; the paper uses 0.2 (and shows 0.1 in Table 1).

    Returns
    -------
    numpy.ndarray of float, one gain per item.

    Examples
    --------
    >>> unanimity_aware_gain([[2, 1, 1], [2, 2, 0]], d_max=2).round(6).tolist()
    [4.6, 4.0]
    """
    _check_p(p)
    values, _ = _validate(ratings, d_max)
    raw = np.nansum(values, axis=1)
    d = np.nanmax(values, axis=1) - np.nanmin(values, axis=1)
    n = (~np.isnan(values)).sum(axis=1)
    return np.where(raw > 0, raw + p * n * (float(d_max) - d), 0.0)


# --------------------------------------------------------------------------------------------
# gain-value settings used by NTCIR tasks (Sakai's survey)


def level_gains(levels, scheme: str = "linear") -> np.ndarray:
    """Map relevance levels ``0, 1, 2, ...`` to gain values.

    ``"linear"``: ``gv_x = x`` (most NTCIR tasks); ``"exponential"``: ``gv_x = 2**x - 1`` (the
    STC Chinese subtask, and ERR's usual setting). Levels must be non-negative integers.
    """
    arr = np.asarray(levels, dtype=float)
    if np.isnan(arr).any() or (arr < 0).any() or (arr != np.round(arr)).any():
        bad = arr[np.isnan(arr) | (arr < 0) | (arr != np.round(arr))][0]
        raise ValueError(f"relevance levels must be non-negative integers, got {bad!r}")
    if scheme == "linear":
        return arr.copy()
    if scheme == "exponential":
        return np.exp2(arr) - 1.0
    raise ValueError(f"unknown level-gain scheme {scheme!r}; use 'linear' or 'exponential'")


def average_gain(ratings, d_max) -> np.ndarray:
    """Mean of the item's ratings (NTCIR-2 Chinese IR; NTCIR-12 STC Japanese with 10 assessors)."""
    values, _ = _validate(ratings, d_max)
    return np.nanmean(values, axis=1)


def binary_gain(ratings, d_max, threshold: float) -> np.ndarray:
    """Rigid/relaxed binary relevance from averaged, normalised scores (NTCIR-2 Chinese IR).

    Each item's mean rating is divided by ``d_max`` (so it lies in ``[0, 1]``) and the item is
    relevant (gain 1) iff that normalised mean is ``>= threshold``. The NTCIR-2 organisers used
    ``2/3`` for *rigid* and ``1/3`` for *relaxed* relevance.
    """
    if not 0.0 < float(threshold) <= 1.0:
        raise ValueError(f"threshold must lie in (0, 1] (a normalised mean rating), got {threshold!r}")
    values, _ = _validate(ratings, d_max)
    # Small tolerance: 2/3 computed as a mean of thirds must compare equal to the literal 2/3.
    return (np.nanmean(values, axis=1) / float(d_max) >= float(threshold) - 1e-12).astype(float)


def majority_vote(ratings, d_max) -> np.ndarray:
    """Majority-vote label with the NTCIR-14 STC CECG rule for disagreement.

    The label given by the most assessors wins. The CECG subtask (three crowd workers, labels
    L0-L2) set the final level to L0 when all three labels differ; we generalise that rule to any
    ``N``: when two or more labels tie for the most votes, the item gets level 0.
    """
    values, _ = _validate(ratings, d_max)
    levels = np.arange(int(d_max) + 1)
    counts = (values[:, :, None] == levels[None, None, :]).sum(axis=1)  # items x levels
    top = counts.max(axis=1, keepdims=True)
    winners = counts == top
    unique = winners.sum(axis=1) == 1
    return np.where(unique, counts.argmax(axis=1), 0).astype(float)


@dataclass(frozen=True)
class GainSetting:
    """A named way of turning many assessors' ratings into one gain value per item."""

    name: str
    description: str
    source: str
    function: Callable[..., np.ndarray]


GAIN_SETTINGS: dict[str, GainSetting] = {
    s.name: s
    for s in [
        GainSetting("sum (RawG)", "sum of ratings, linear gain", "NTCIR-13 STC-2 Chinese and WWW-13 (survey Sec. 4.9-4.10)",
                    lambda r, d_max, p: raw_gain(r, d_max)),
        GainSetting("average", "mean rating used as gain", "NTCIR-2 Chinese IR; NTCIR-12 and -13 STC Japanese",
                    lambda r, d_max, p: average_gain(r, d_max)),
        GainSetting("majority (CECG)", "majority label; no unique majority → L0",
                    "NTCIR-14 STC CECG; NTCIR-14 WWW Chinese (majority vote)",
                    lambda r, d_max, p: majority_vote(r, d_max)),
        GainSetting("majority, exponential", "2ˣ − 1 of the CECG majority label x",
                    "this notebook's combination: CECG majority rule (NTCIR-14) with STC Chinese's 2ˣ − 1 gains",
                    lambda r, d_max, p: level_gains(majority_vote(r, d_max), "exponential")),
        GainSetting("rigid", "relevant iff mean/Dmax ≥ 2/3", "NTCIR-2 Chinese IR",
                    lambda r, d_max, p: binary_gain(r, d_max, 2 / 3)),
        GainSetting("relaxed", "relevant iff mean/Dmax ≥ 1/3", "NTCIR-2 Chinese IR",
                    lambda r, d_max, p: binary_gain(r, d_max, 1 / 3)),
        GainSetting("WG", "(1 − D/Dmax)·RawG", "Li & Yoshikawa via Sakai 2017 Eq. 1",
                    lambda r, d_max, p: weighted_gain(r, d_max)),
        GainSetting("UG", "RawG + p·N·(Dmax − D) if RawG > 0", "Sakai 2017 Eq. 2",
                    lambda r, d_max, p: unanimity_aware_gain(r, d_max, p)),
    ]
}


def apply_setting(ratings, setting: str, d_max: int, p: float = 0.2) -> np.ndarray:
    """Gain of every item under one of :data:`GAIN_SETTINGS` (by name)."""
    if setting not in GAIN_SETTINGS:
        raise ValueError(f"unknown gain setting {setting!r}; choose one of {sorted(GAIN_SETTINGS)}")
    return GAIN_SETTINGS[setting].function(ratings, d_max, p)


def _tie_frame(base, other, groups, decimals: int, what: str) -> pd.DataFrame:
    """The items with a positive ``base`` gain as a frame ``group, base, other`` (gains rounded to
    ``decimals``; one group for all items when ``groups`` is None)."""
    b = np.round(np.asarray(base, dtype=float), decimals)
    o = np.round(np.asarray(other, dtype=float), decimals)
    if b.shape != o.shape or b.ndim != 1:
        raise ValueError(f"{what}: base and other must be 1-D arrays of equal length, got {b.shape} and {o.shape}")
    g = np.zeros(len(b), dtype=int) if groups is None else np.asarray(groups)
    if g.shape != b.shape:
        raise ValueError(f"{what}: groups must give one topic per item ({len(b)}), got shape {g.shape}")
    keep = b > 0
    return pd.DataFrame({"group": g[keep], "base": b[keep], "other": o[keep]})


def ties_broken(base, other, *, groups=None, decimals: int = 9) -> dict:
    """How many pairs of items tied under ``base`` gains are separated by ``other`` gains.

    Only pairs with a positive ``base`` gain are counted (non-relevant items stay tied at 0 under
    every setting). With ``groups`` (one topic id per item) only pairs *within* a topic count: a
    gain can reorder items only inside one topic's ranking, so that is the ranking-relevant
    definition; without it every pair of items counts (Sakai's topic-free simulation). Gains are
    rounded to ``decimals`` before comparing, so float noise never creates a spurious difference.
    Counting is done per tie group in closed form (``k*(k-1)/2`` pairs per group of ``k``).

    Returns
    -------
    dict with ``tied_pairs`` (pairs tied under ``base``), ``still_tied`` (also tied under
    ``other``) and ``share_broken`` (``1 - still_tied / tied_pairs``; NaN when nothing is tied).
    """
    frame = _tie_frame(base, other, groups, decimals, "ties_broken")
    k_base = frame.groupby(["group", "base"]).size().to_numpy()
    k_both = frame.groupby(["group", "base", "other"]).size().to_numpy()
    tied = int((k_base * (k_base - 1) // 2).sum())
    still = int((k_both * (k_both - 1) // 2).sum())
    return {"tied_pairs": tied, "still_tied": still,
            "share_broken": (1.0 - still / tied) if tied else float("nan")}


#: Below this many items off their tie group's commonest ``other`` value (the items whose ties are
#: broken) the jackknife of :func:`ties_broken_se` is not shown: it is exactly 0 with none and too
#: small for rare events.
RARE_TIES = 30


def ties_breakers(base, other, *, groups=None, decimals: int = 9) -> int:
    """How many items (``base > 0``) differ in ``other`` from the commonest ``other`` value of their
    ``base`` tie group: the items that break ties, the count a rare share rests on (0 when no tie is
    broken)."""
    frame = _tie_frame(base, other, groups, decimals, "ties_breakers")
    if frame.empty:
        return 0
    k_both = frame.groupby(["group", "base", "other"]).size()
    k_base = frame.groupby(["group", "base"]).size()
    return int(k_base.sum() - k_both.groupby(level=["group", "base"]).max().sum())


def ties_broken_se(base, other, *, groups=None, decimals: int = 9, min_breakers: int = RARE_TIES) -> float:
    """Monte Carlo standard error of :func:`ties_broken`'s ``share_broken`` when the items are
    independent draws: the delete-one jackknife over the items with a positive ``base`` gain.

    Leaving out an item of a ``base`` group of ``k`` and a (``base``, ``other``) group of ``j`` removes
    ``k - 1`` tied pairs and ``j - 1`` still-tied ones, so every leave-one-out share is in closed form
    (the pairs are not independent, so a binomial error over pairs would be too small).
    ``var = (n - 1)/n · Σ (θ₋ᵢ − θ̄)²``; NaN when fewer than two tied pairs are left after any deletion,
    and NaN when fewer than ``min_breakers`` items break a tie (:func:`ties_breakers`): the
    jackknife is exactly 0 when none does and too small for rare events, so it is not shown.
    """
    frame = _tie_frame(base, other, groups, decimals, "ties_broken_se")
    if ties_breakers(base, other, groups=groups, decimals=decimals) < min_breakers:
        return float("nan")
    k = frame.groupby(["group", "base"])["base"].transform("size").to_numpy(dtype=float)
    j = frame.groupby(["group", "base", "other"])["base"].transform("size").to_numpy(dtype=float)
    n = len(frame)
    tied = float((k - 1).sum() / 2)
    still = float((j - 1).sum() / 2)
    left = tied - (k - 1)
    if n < 2 or not len(left) or (left <= 0).any():
        return float("nan")
    theta = 1.0 - (still - (j - 1)) / left
    return float(np.sqrt((n - 1) / n * np.sum((theta - theta.mean()) ** 2)))


def prob_full_spread(n: int, d_max: int) -> float:
    """Probability that ``n`` i.i.d. uniform ratings on ``0..d_max`` include both 0 and ``d_max``.

    That is ``P(D = d_max)``, the event under which UG reduces to RawG. By inclusion-exclusion,
    ``1 - 2 (d_max/(d_max+1))^n + ((d_max-1)/(d_max+1))^n``. Used to check the simulation of
    Sakai (2017, Sec. 4), who notes that D tends to d_max as N grows.
    """
    _check_d_max(d_max)
    if not _is_number(n) or not float(n).is_integer() or int(n) < 1:
        raise ValueError(f"n must be a positive number of ratings, got {n!r}")
    if int(n) == 1:   # one rating: D = 0 < d_max (the formula gives 0 only up to rounding)
        return 0.0
    k = d_max + 1.0
    return min(1.0, max(0.0, 1.0 - 2.0 * (d_max / k) ** n + ((d_max - 1) / k) ** n))


def prob_full_spread_given_relevant(n: int, d_max: int) -> float:
    """``P(D = d_max | RawG > 0)`` for ``n`` i.i.d. uniform ratings on ``0..d_max``.

    Sakai's quantities (and :func:`unanimity_summary`) count only items with ``RawG > 0``, so a
    simulated share of items at ``D = d_max`` estimates this conditional probability, not
    :func:`prob_full_spread`. For ``d_max >= 1`` the event ``D = d_max`` implies ``RawG > 0``, hence
    ``P(D = d_max) / (1 - P(all ratings 0)) = prob_full_spread(n, d_max) / (1 - (d_max + 1)^-n)``.
    In ``[0, 1]`` (clipped), and exactly 0 for ``n = 1``, where the formula is 0 only up to rounding
    (``-1e-17`` would print as ``-0.000``).
    """
    p = prob_full_spread(n, d_max)
    return min(1.0, max(0.0, p / (1.0 - (1.0 / (d_max + 1.0)) ** int(n))))


def prob_ties_broken(n: int, d_max: int, p: float) -> float:
    """Exact share of RawG-tied pairs of items (``RawG > 0``) that UG separates, for ``n`` i.i.d.
    uniform ratings on ``0..d_max`` per item: the limit of :func:`ties_broken`'s ``share_broken``
    over :func:`unanimity_summary` of Sakai's (2017, Sec. 4) uniform simulation.

    With ``p > 0`` two items of equal RawG get equal UG (Eq. 2) exactly when their spreads D are
    equal, so the share is ``1 - sum_{s>0,D} P(s, D)^2 / sum_{s>0} P(s)^2`` (the conditioning on
    ``RawG > 0`` cancels); ``P(s, D)`` is the joint law of the sum and the spread, computed by
    adding one rating at a time to the law of (sum, min, max). With ``p = 0`` (UG = RawG), ``n = 1``
    (D = 0) or ``d_max = 1`` (equal sums force equal spreads) the share is 0.
    """
    _check_d_max(d_max)
    if not _is_number(n) or not float(n).is_integer() or int(n) < 1:
        raise ValueError(f"n must be a positive number of ratings, got {n!r}")
    if not _is_number(p) or not 0 <= float(p) <= 1:
        raise ValueError(f"p must be a number in [0, 1], got {p!r}")
    n, d = int(n), int(d_max)
    if p == 0 or n == 1:
        return 0.0
    law = np.zeros((n * d + 1, d + 1, d + 1))    # P(sum, min, max) of the ratings drawn so far
    for r in range(d + 1):
        law[r, r, r] = 1.0 / (d + 1)
    for _ in range(n - 1):
        new = np.zeros_like(law)
        for r in range(d + 1):
            step = np.zeros_like(law)
            step[r:] = law[:len(law) - r]
            step[:, r] += step[:, r + 1:].sum(axis=1)
            step[:, r + 1:] = 0.0
            step[:, :, r] += step[:, :, :r].sum(axis=2)
            step[:, :, :r] = 0.0
            new += step / (d + 1)
        law = new
    lo, hi = np.meshgrid(np.arange(d + 1), np.arange(d + 1), indexing="ij")
    joint = np.stack([law[1:, lo == hi - k].sum(axis=1) for k in range(d + 1)], axis=1)   # P(s, D), s > 0
    return float(min(1.0, max(0.0, 1.0 - (joint ** 2).sum() / (joint.sum(axis=1) ** 2).sum())))


def ratings_matrix(ratings: pd.DataFrame) -> pd.DataFrame:
    """Pivot tidy ratings (``query_id, doc_id, assessor, rating``) to items x assessors.

    The index is ``(query_id, doc_id)``; missing ratings are NaN. A (query, doc, assessor) triple
    that occurs twice is an error (it would silently be averaged otherwise).
    """
    need = {"query_id", "doc_id", "assessor", "rating"}
    if not isinstance(ratings, pd.DataFrame):
        raise ValueError(f"ratings must be a DataFrame with columns {sorted(need)}, got {type(ratings).__name__}")
    if not need.issubset(ratings.columns):
        raise ValueError(f"ratings need columns {sorted(need)}, got {list(ratings.columns)}")
    dup = ratings.duplicated(["query_id", "doc_id", "assessor"], keep=False)
    if dup.any():
        row = ratings[dup].iloc[0]
        raise ValueError(f"assessor {row['assessor']} rated item ({row['query_id']}, {row['doc_id']}) "
                         "more than once")
    return ratings.pivot(index=["query_id", "doc_id"], columns="assessor", values="rating").astype(float)


def comparable_items(ratings: pd.DataFrame, *, min_ratings: int = 2, what: str = "ratings") -> pd.DataFrame:
    """The items of an ``items x assessors`` matrix (:func:`ratings_matrix`) that at least
    ``min_ratings`` assessors rated, and the assessors who rated any of them.

    Designs where every topic has its own assessors (each item rated by the few who judged its
    topic) leave most cells empty: no item is rated by *all* assessors, but every item has its
    own ``N_i`` ratings. Sakai's quantities are defined per item (``D_i`` over the item's ratings,
    ``UG_i = RawG_i + p N_i (d_max - D_i)``, Eq. 2), so such items are kept with their own ``N_i``
    (NaN where an assessor did not rate; :func:`n_ratings`). An item with a single rating has no
    spread and is left out. A ``ValueError`` names ``what`` when fewer than two items remain.
    """
    if not isinstance(ratings, pd.DataFrame):
        raise ValueError(f"{what}: expected an items x assessors DataFrame (gains.ratings_matrix), got "
                         f"{type(ratings).__name__}")
    n = ratings.notna().sum(axis=1)
    kept = ratings[n >= min_ratings]
    kept = kept.loc[:, kept.notna().any(axis=0)]
    if len(kept) < 2:
        raise ValueError(f"{what}: {len(kept)} item(s) rated by at least {min_ratings} assessors (of {len(ratings)} items, "
                         f"{ratings.shape[1]} assessors); this comparison needs at least two items with {min_ratings} "
                         "or more ratings each")
    return kept


def n_label(n_per_item) -> int | str:
    """``N`` of a set of items for a table or a sentence: the number when every item has as many
    ratings, else the range (``"2–6"``)."""
    n = np.asarray(n_per_item, dtype=int)
    if n.size == 0:
        raise ValueError("n_label: no item")
    return int(n[0]) if (n == n[0]).all() else f"{int(n.min())}–{int(n.max())}"


def varying_n_note(n_per_item) -> str:
    """One sentence on how items with different numbers of ratings are treated ('' when all
    items have the same N)."""
    n = np.asarray(n_per_item, dtype=int)
    if n.size == 0 or (n == n[0]).all():
        return ""
    return (f"N differs between items ({n_label(n)}, mean {n.mean():.2f}): every item keeps its own N -- RawG sums "
            "its ratings, D spans them and UG's bonus is p·N·(Dmax − D) with that N (Eq. 2) -- and the uniform "
            "ratings it is compared with are drawn with the same N per item")


def unanimity_summary(ratings, d_max, p: float = 0.2, groups=None) -> dict:
    """Key facts about how unanimity-aware gain treats a set of rated items.

    Only items with ``RawG > 0`` are summarised (UG leaves the others at 0). Returns a dict with
    ``items``, ``mean_n`` (ratings per item), ``share_full_spread`` (``D = d_max``, where UG equals
    RawG), ``mean_spread``, ``spread_counts`` (``{D: count}``), ``mean_bonus`` (mean ``UG - RawG``)
    and the :func:`ties_broken` counts of RawG ties that UG separates (within each topic of
    ``groups``, one id per row, when given; over all items otherwise).
    """
    values, _ = _validate(ratings, d_max)
    raw = np.nansum(values, axis=1)
    keep = raw > 0
    if groups is not None and len(groups) != len(raw):
        raise ValueError(f"unanimity_summary: groups must give one topic per item ({len(raw)}), got {len(groups)}")
    groups = None if groups is None else np.asarray(groups)[keep]
    values, raw = values[keep], raw[keep]
    if not len(raw):
        raise ValueError("no item has a positive raw gain; nothing to summarise")
    d = np.nanmax(values, axis=1) - np.nanmin(values, axis=1)
    ug = unanimity_aware_gain(values, d_max, p)
    counts = np.bincount(d.astype(int), minlength=int(d_max) + 1)
    return {
        "items": int(len(raw)),
        "mean_n": float((~np.isnan(values)).sum(axis=1).mean()),
        "share_full_spread": float((d == d_max).mean()),
        "mean_spread": float(d.mean()),
        "spread_counts": {int(k): int(v) for k, v in enumerate(counts)},
        "mean_bonus": float((ug - raw).mean()),
        **ties_broken(raw, ug, groups=groups),
    }
