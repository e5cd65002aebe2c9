"""G-studies of generalizability theory for IR: variance components of systems, topics, assessors.

Brennan, *Generalizability Theory* (Springer 2001), ch. 3-4 (random-effects ANOVA estimators);
for IR: Bodoff & Li (SIGIR 2007), Bodoff (IPM 44(3), 2008: topics and assessors as facets),
Urbano, Marrero & Martin (SIGIR 2013; the R package gt4ireval).

Designs (Brennan's notation with s systems, t topics, a assessors; one score per cell)
--------------------------------------------------------------------------------------
``"s x t"``
    Systems crossed with topics: components ``s``, ``t``, ``st`` (the interaction confounded
    with the residual, ``st,e``).
``"s x t x a"``
    Assessors crossed with topics (the same assessors judge every topic): ``s``, ``t``, ``a``,
    ``st``, ``sa``, ``ta``, ``sta``.
``"s x (a:t)"``
    Each topic its own assessors (the TREC case): ``s``, ``t``, ``a:t``, ``st``, ``sa:t``.
    Assessor labels only need to be distinct within a topic; every topic must have the same
    number of them (a balanced design).

Conventions
-----------
* Estimates are the ANOVA (expected mean square) estimators, each solved from the mean squares
  (Brennan 2001, Eqs. 3.13-3.15 and Table 4.x).  A negative estimate is set to 0 in ``variance``
  and its raw value kept in ``negative`` (Brennan, Sect. 3.4: the other estimates are computed
  from the mean squares, so zeroing one does not change them).  gt4ireval warns; this reports.
* Every (system, topic, assessor) cell must hold exactly one finite score: a missing or repeated
  cell is refused with the cell named.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["DESIGNS", "COMPONENTS", "GStudy", "g_study", "g_study_array", "score_array"]

DESIGNS = ("s x t", "s x t x a", "s x (a:t)")
#: The variance components of each design, in Brennan's order.
COMPONENTS = {"s x t": ("s", "t", "st"),
              "s x t x a": ("s", "t", "a", "st", "sa", "ta", "sta"),
              "s x (a:t)": ("s", "t", "a:t", "st", "sa:t")}
LONG_COLUMNS = ("system", "topic", "assessor", "score")


@dataclass(frozen=True)
class GStudy:
    """A G-study: sizes, mean squares, degrees of freedom and variance components.

    ``variance`` maps Brennan's component names (:data:`COMPONENTS`) to the estimates, negative
    ones set to 0; ``negative`` holds the raw values of those that were negative.
    """

    design: str
    n: Mapping[str, int]                 # {"s": n_s, "t": n_t, "a": n_a}; n_a = 1 for "s x t"
    mean_squares: Mapping[str, float]
    df: Mapping[str, int]
    variance: Mapping[str, float]
    negative: Mapping[str, float]
    systems: tuple
    topics: tuple

    @property
    def components(self) -> pd.DataFrame:
        """The components as a table: variance, share of the total, mean square, df."""
        v = pd.Series(self.variance, dtype=float)
        return pd.DataFrame({"variance": v, "share": v / v.sum(),
                             "mean_square": pd.Series(self.mean_squares, dtype=float),
                             "df": pd.Series(self.df)}).rename_axis("component")

    def __str__(self) -> str:
        parts = ", ".join(f"{k} {v:.4g}" for k, v in self.variance.items())
        neg = f"; negative set to 0: {dict(self.negative)}" if self.negative else ""
        n = " x ".join(f"{self.n[k]} {k}" for k in ("s", "t", "a") if k != "a" or self.design != "s x t")
        return f"G-study {self.design} ({n}): {parts}{neg}"


def _drop_worst(x: np.ndarray, systems: list, drop: float) -> tuple[np.ndarray, list]:
    """gt4ireval's ``drop``: keep the systems whose mean is >= the ``drop`` quantile of the means."""
    if isinstance(drop, bool) or not isinstance(drop, (int, float, np.floating)) or not 0 <= drop < 1:
        raise ValueError(f"drop must be a fraction in [0, 1), got {drop!r}")
    if drop == 0:
        return x, systems
    means = x.mean(axis=(1, 2))
    keep = means >= np.quantile(means, drop)          # R's quantile type 7 = numpy's default
    return x[keep], [s for s, k in zip(systems, keep) if k]


def _from_wide(scores: pd.DataFrame) -> tuple[np.ndarray, list, list]:
    """A topics x systems frame (rows topics, columns systems, as gt4ireval's data)."""
    if scores.columns.has_duplicates:
        raise ValueError(f"scores has duplicate system columns: "
                         f"{sorted(map(str, scores.columns[scores.columns.duplicated()]))}")
    try:
        x = scores.to_numpy(dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scores must be numeric (rows topics, columns systems): {exc}") from None
    bad = ~np.isfinite(x)
    if bad.any():
        t, s = np.argwhere(bad)[0]
        raise ValueError(f"scores has a missing or non-finite value for system {scores.columns[s]!r}, "
                         f"topic {scores.index[t]!r}: every cell needs one finite score")
    return x.T[:, :, None], list(scores.columns), list(scores.index)


def score_array(long: pd.DataFrame, design: str) -> tuple[np.ndarray, list, list, list]:
    """A long frame (``system, topic, assessor, score``) as a systems x topics x assessors array.

    For ``"s x (a:t)"`` the assessors of each topic are put in sorted order of their labels
    (their position has no meaning across topics); for ``"s x t"`` the column ``assessor`` may
    be absent.  Returns (array, systems, topics, assessors: labels, or per-topic tuples when nested).
    """
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
    need = [c for c in LONG_COLUMNS if c != "assessor" or design != "s x t" or "assessor" in long]
    missing = [c for c in need if c not in long.columns]
    if missing:
        raise ValueError(f"scores (a long frame) lacks the column(s) {missing}; expected "
                         f"{list(LONG_COLUMNS)} (or a topics x systems frame for 's x t')")
    df = long[need].copy()
    if "assessor" not in df:
        df["assessor"] = "_"
    score = pd.to_numeric(df["score"], errors="coerce")
    if not np.isfinite(score.to_numpy(dtype=float)).all():
        row = df[~np.isfinite(score.to_numpy(dtype=float))].iloc[0]
        raise ValueError(f"score of system {row['system']!r}, topic {row['topic']!r}, assessor "
                         f"{row['assessor']!r} is {row['score']!r}: expected a finite number")
    df["score"] = score
    dup = df.duplicated(["system", "topic", "assessor"])
    if dup.any():
        row = df[dup].iloc[0]
        raise ValueError(f"system {row['system']!r}, topic {row['topic']!r}, assessor "
                         f"{row['assessor']!r} has more than one score")
    systems, topics = list(pd.unique(df["system"])), list(pd.unique(df["topic"]))
    if design == "s x (a:t)":
        per = df.groupby("topic", sort=False)["assessor"].unique()
        sizes = per.map(len)
        if sizes.nunique() != 1:
            raise ValueError("s x (a:t) needs the same number of assessors on every topic (a "
                             f"balanced design); got {dict(sizes.value_counts().sort_index())} "
                             f"topics per count, e.g. topic {sizes.idxmin()!r} has {sizes.min()}")
        slot = {(t, a): i for t, labels in per.items() for i, a in enumerate(sorted(labels, key=str))}
        df["slot"] = [slot[k] for k in zip(df["topic"], df["assessor"])]
        assessors = [tuple(sorted(per[t], key=str)) for t in topics]
        n_a = int(sizes.iloc[0])
    else:
        assessors = list(pd.unique(df["assessor"]))
        df["slot"] = df["assessor"].map({a: i for i, a in enumerate(assessors)})
        n_a = len(assessors)
    x = np.full((len(systems), len(topics), n_a), np.nan)
    si = df["system"].map({s: i for i, s in enumerate(systems)}).to_numpy()
    ti = df["topic"].map({t: i for i, t in enumerate(topics)}).to_numpy()
    x[si, ti, df["slot"].to_numpy()] = df["score"].to_numpy()
    if np.isnan(x).any():
        s, t, a = np.argwhere(np.isnan(x))[0]
        lab = assessors[t][a] if design == "s x (a:t)" else assessors[a]
        raise ValueError(f"no score for system {systems[s]!r}, topic {topics[t]!r}, assessor "
                         f"{lab!r}: every cell of the {design} design needs one score")
    return x, systems, topics, assessors


def _crossed(x: np.ndarray) -> tuple[dict, dict, dict]:
    ns, nt, na = x.shape
    m = x.mean()
    ms_, mt_, ma_ = x.mean(axis=(1, 2)), x.mean(axis=(0, 2)), x.mean(axis=(0, 1))
    mst, msa, mta = x.mean(axis=2), x.mean(axis=1), x.mean(axis=0)
    ss = {"s": nt * na * np.sum((ms_ - m) ** 2), "t": ns * na * np.sum((mt_ - m) ** 2),
          "a": ns * nt * np.sum((ma_ - m) ** 2),
          "st": na * np.sum((mst - ms_[:, None] - mt_[None, :] + m) ** 2),
          "sa": nt * np.sum((msa - ms_[:, None] - ma_[None, :] + m) ** 2),
          "ta": ns * np.sum((mta - mt_[:, None] - ma_[None, :] + m) ** 2)}
    r = (x - mst[:, :, None] - msa[:, None, :] - mta[None, :, :] + ms_[:, None, None]
         + mt_[None, :, None] + ma_[None, None, :] - m)
    ss["sta"] = np.sum(r * r)
    df = {"s": ns - 1, "t": nt - 1, "a": na - 1, "st": (ns - 1) * (nt - 1), "sa": (ns - 1) * (na - 1),
          "ta": (nt - 1) * (na - 1), "sta": (ns - 1) * (nt - 1) * (na - 1)}
    return {k: ss[k] / df[k] for k in df}, df


def _crossed_components(ms: dict, ns: int, nt: int, na: int) -> dict:
    return {"sta": ms["sta"], "st": (ms["st"] - ms["sta"]) / na, "sa": (ms["sa"] - ms["sta"]) / nt,
            "ta": (ms["ta"] - ms["sta"]) / ns,
            "s": (ms["s"] - ms["st"] - ms["sa"] + ms["sta"]) / (nt * na),
            "t": (ms["t"] - ms["st"] - ms["ta"] + ms["sta"]) / (ns * na),
            "a": (ms["a"] - ms["sa"] - ms["ta"] + ms["sta"]) / (ns * nt)}


def _two_way(x: np.ndarray) -> tuple[dict, dict, dict]:
    ns, nt = x.shape[:2]
    y = x[:, :, 0]
    m, ms_, mt_ = y.mean(), y.mean(axis=1), y.mean(axis=0)
    ss_s, ss_t = nt * np.sum((ms_ - m) ** 2), ns * np.sum((mt_ - m) ** 2)
    ss_e = np.sum((y - m) ** 2) - ss_s - ss_t                    # as gt4ireval computes it
    df = {"s": ns - 1, "t": nt - 1, "st": (ns - 1) * (nt - 1)}
    return {"s": ss_s / df["s"], "t": ss_t / df["t"], "st": ss_e / df["st"]}, df


def _two_way_components(ms: dict, ns: int, nt: int, na: int) -> dict:
    return {"s": (ms["s"] - ms["st"]) / nt, "t": (ms["t"] - ms["st"]) / ns, "st": ms["st"]}


def _nested(x: np.ndarray) -> tuple[dict, dict, dict]:
    ns, nt, na = x.shape
    m, ms_, mt_ = x.mean(), x.mean(axis=(1, 2)), x.mean(axis=(0, 2))
    mst, mta = x.mean(axis=2), x.mean(axis=0)
    ss = {"s": nt * na * np.sum((ms_ - m) ** 2), "t": ns * na * np.sum((mt_ - m) ** 2),
          "a:t": ns * np.sum((mta - mt_[:, None]) ** 2),
          "st": na * np.sum((mst - ms_[:, None] - mt_[None, :] + m) ** 2),
          "sa:t": np.sum((x - mst[:, :, None] - mta[None, :, :] + mt_[None, :, None]) ** 2)}
    df = {"s": ns - 1, "t": nt - 1, "a:t": nt * (na - 1), "st": (ns - 1) * (nt - 1),
          "sa:t": (ns - 1) * nt * (na - 1)}
    return {k: ss[k] / df[k] for k in df}, df


def _nested_components(ms: dict, ns: int, nt: int, na: int) -> dict:
    return {"s": (ms["s"] - ms["st"]) / (nt * na), "t": (ms["t"] - ms["a:t"] - ms["st"] + ms["sa:t"]) / (ns * na),
            "a:t": (ms["a:t"] - ms["sa:t"]) / ns, "st": (ms["st"] - ms["sa:t"]) / na, "sa:t": ms["sa:t"]}


#: Mean squares and their components' solution, per design.
_MEAN_SQUARES = {"s x t": _two_way, "s x t x a": _crossed, "s x (a:t)": _nested}
_SOLVE = {"s x t": _two_way_components, "s x t x a": _crossed_components, "s x (a:t)": _nested_components}
#: In a topic resample, each mean square of an effect without t also carries the topic sampling
#: noise of the effect with t (its expectation over resamples is MS_X + MS_Xt): the pairs to subtract.
TOPIC_DOUBLE_COUNT = {"s x t": (("s", "st"),), "s x (a:t)": (("s", "st"),),
                      "s x t x a": (("s", "st"), ("a", "ta"), ("sa", "sta"))}


def g_study(scores: pd.DataFrame, design: str = "s x t", *, drop: float = 0.0) -> GStudy:
    """Estimate the variance components of a G-study.

    Parameters
    ----------
    scores : pandas.DataFrame
        For ``"s x t"``: a topics x systems frame (rows topics, columns systems; gt4ireval's
        layout) or a long frame.  For every design: a long frame with columns ``system``,
        ``topic``, ``assessor`` and ``score`` (:func:`helpers.design.scores.scores_by_assessor`).
    design : {"s x t", "s x t x a", "s x (a:t)"}
    drop : float
        Fraction of the worst systems (by mean score) to leave out first, as gt4ireval's
        ``gstudy(drop=)``: systems whose mean is below the ``drop`` quantile of the means go.

    Returns
    -------
    GStudy

    Raises
    ------
    ValueError
        Unknown design, missing columns, a missing, repeated or non-finite cell, an unbalanced
        nested design, fewer than 2 systems or topics (or assessors in the three-facet designs),
        ``drop`` outside [0, 1).
    """
    if not isinstance(scores, pd.DataFrame):
        raise ValueError(f"scores must be a pandas DataFrame, got {type(scores).__name__}")
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
    if "score" in scores.columns and "system" in scores.columns:
        if design == "s x t" and "assessor" in scores.columns and scores["assessor"].nunique() > 1:
            raise ValueError(f"design 's x t' takes one score per (system, topic); the frame has "
                             f"{scores['assessor'].nunique()} assessors: use 's x t x a' or 's x (a:t)'")
        x, systems, topics, assessors = score_array(scores, design)
    elif design == "s x t":
        x, systems, topics = _from_wide(scores)
    else:
        raise ValueError(f"design {design!r} needs a long frame with columns {list(LONG_COLUMNS)}")
    if design == "s x t" and x.shape[2] != 1:
        raise ValueError(f"design 's x t' takes one score per (system, topic); the frame has "
                         f"{x.shape[2]} assessors: use 's x t x a' or 's x (a:t)'")
    x, systems = _drop_worst(x, systems, drop)
    return g_study_array(x, design, systems=systems, topics=topics)


def g_study_array(x: np.ndarray, design: str, *, systems=None, topics=None,
                  topic_resample: bool = False) -> GStudy:
    """:func:`g_study` of a systems x topics x assessors array (one finite score per cell).

    ``topic_resample=True`` reads ``x`` as a topic resample of
    :func:`helpers.design.resample.topic_resamples` and removes the topic sampling noise that the
    resample's system means add a second time (:data:`TOPIC_DOUBLE_COUNT`: ``MS_s - MS_st``, and in
    s x t x a ``MS_a - MS_ta``, ``MS_sa - MS_sta``), so that the components' mean over resamples is
    the pilot's (the adjusted estimators of Wiley 2000 and Brennan 2001, Sect. 6.2, at the mean squares).
    """
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
    x = np.asarray(x, dtype=float)
    if x.ndim == 2 and design == "s x t":
        x = x[:, :, None]
    if x.ndim != 3 or not np.isfinite(x).all():
        raise ValueError(f"expected a finite systems x topics x assessors array, got shape {x.shape}"
                         f"{'' if np.isfinite(x).all() else ' with non-finite values'}")
    ns, nt, na = x.shape
    if design == "s x t" and na != 1:
        raise ValueError(f"design 's x t' takes one score per (system, topic), got {na} per cell")
    systems = tuple(range(ns)) if systems is None else systems
    topics = tuple(range(nt)) if topics is None else topics
    if ns < 2 or nt < 2 or (design != "s x t" and na < 2):
        raise ValueError(f"a G-study needs at least 2 systems, 2 topics{'' if design == 's x t' else ' and 2 assessors'}; "
                         f"got {ns} x {nt} x {na}")
    ms, df = _MEAN_SQUARES[design](x)
    if topic_resample:
        ms = dict(ms)
        for plain, with_t in TOPIC_DOUBLE_COUNT[design]:
            ms[plain] = ms[plain] - ms[with_t]
    v = _SOLVE[design](ms, ns, nt, na)
    order = COMPONENTS[design]
    raw = {k: float(v[k]) for k in order}
    return GStudy(design, {"s": ns, "t": nt, "a": na}, {k: float(ms[k]) for k in order},
                  {k: int(df[k]) for k in order}, {k: max(val, 0.0) for k, val in raw.items()},
                  {k: val for k, val in raw.items() if val < 0}, tuple(systems), tuple(topics))
