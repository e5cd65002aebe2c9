"""Does unanimity-aware gain change evaluation conclusions? Analysis steps of notebook 02.

Sakai (EVIA 2017, Sec. 4-5) replaces every judged item of a test collection by ``N`` ratings on
``0..Dmax``, evaluates every run with gains computed from those ratings twice — raw gain (RawG,
the sum of the ratings) and unanimity-aware gain (UG, Eq. 2) — and asks whether the two agree:

* on the ranking of all runs by mean score (Kendall's tau with a 95% CI; Table 2), and
* on the significance of differences between the best run of every team (randomised Tukey HSD,
  ``B = 5000``; a *discrepancy* is a pair significant at ``alpha`` under one gain but not under
  the other; Table 3).

The functions here do one variant (one set of ratings) at a time; the notebook loops over the
``Dmax x N`` grid. Gains are fed to :func:`helpers.measures.evaluate` through the qrels' ``gain``
column (NTCIREVAL's ``gcompute``: ``gmax`` is each topic's highest gain), as the paper did.

Conventions
-----------
* Runs are cut to their first ``depth`` documents (the paper evaluates the top 10).
* Topics without any positive gain are skipped by the measure engine (NTCIREVAL). UG is 0 exactly
  when RawG is 0, so RawG and UG always score the same topics.
* Kendall's tau is tau-b with the asymptotic CI of :func:`helpers.stats.kendall_tau_ci`.
* Significance is ``p < alpha`` (strict), as in :func:`helpers.stats.discrepancies`.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from . import gains as _gains
from . import measures as _measures
from . import stats as _stats

__all__ = [
    "TEAM_RULE",
    "team_of_run",
    "top_k",
    "condense",
    "best_run_per_team",
    "team_best_ties",
    "gain_qrels",
    "IDEAL_DEPTH",
    "GainScorer",
    "compare_gains",
    "compare_gains_many",
    "placebo_gain",
    "topics_of",
    "near_alpha",
    "mc_standard_error",
    "tau_layout",
    "gain_blind",
    "deeper_than_lists",
    "spread_shares",
    "near_duplicates",
    "teams_from_table",
    "fmt_tau",
]

#: How a run's team is read from its name when a collection gives no team list (TREC DL 2019).
TEAM_RULE = ("team = the run name up to its first '-' or '_', without trailing digits "
             "(runid2 -> runid, TUW19 -> TUW), then looked up in an override map")


def team_of_run(run_ids: Sequence[str], overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """Team of every run, by :data:`TEAM_RULE`.

    Parameters
    ----------
    run_ids : sequence of str
        Run names, e.g. ``["ICT-BERT2", "bm25base_p", "runid3"]``.
    overrides : mapping, optional
        Prefix (after stripping digits) -> team, applied last, e.g. ``{"bm25base": "anserini",
        "bm25tuned": "anserini"}`` to put the organisers' baselines in one team.

    Returns
    -------
    dict
        ``run_id -> team``.

    Examples
    --------
    >>> team_of_run(["ICT-BERT2", "runid2", "bm25base_p"], {"bm25base": "anserini"})
    {'ICT-BERT2': 'ICT', 'runid2': 'runid', 'bm25base_p': 'anserini'}
    """
    overrides = dict(overrides or {})
    out = {}
    for run in run_ids:
        if not isinstance(run, str) or not run.strip():
            raise ValueError(f"run ids must be non-empty strings, got {run!r}")
        prefix = re.split(r"[-_]", run, maxsplit=1)[0]
        stem = prefix.rstrip("0123456789") or prefix
        out[run] = overrides.get(stem, stem)
    return out


def _check_run(run: pd.DataFrame) -> None:
    need = {"run_id", "query_id", "doc_id", "rank"}
    if not isinstance(run, pd.DataFrame) or not need.issubset(run.columns):
        have = list(run.columns) if isinstance(run, pd.DataFrame) else type(run).__name__
        raise ValueError(f"run must be a DataFrame with columns {sorted(need)}, got {have}")


def _check_depth(depth) -> int:
    if isinstance(depth, (bool, np.bool_)) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    return int(depth)


def top_k(run: pd.DataFrame, depth: int = 10) -> pd.DataFrame:
    """The first ``depth`` documents of every (run, topic) list, by increasing ``rank``.

    Ties in ``rank`` keep file order. Ranks are renumbered ``1..`` within each list.
    """
    _check_run(run)
    depth = _check_depth(depth)
    ordered = run.sort_values(["run_id", "query_id", "rank"], kind="stable")
    pos = ordered.groupby(["run_id", "query_id"], sort=False).cumcount()
    out = ordered[pos.to_numpy() < depth].copy()
    out["rank"] = pos[pos < depth].to_numpy() + 1
    return out.reset_index(drop=True)


def condense(run: pd.DataFrame, qrels: pd.DataFrame, depth: int = 10) -> pd.DataFrame:
    """Condensed lists (Sakai 2007): drop unjudged documents, then keep the first ``depth``.

    This is NTCIREVAL's ``-j`` followed by the top-``depth`` cut, so every list is filled with
    judged documents as far as the run retrieved them. Used when the qrels are a subset of the
    pool (e.g. only the items every assessor rated), where unjudged-as-nonrelevant would punish
    runs for documents nobody rated.
    """
    _check_run(run)
    if not {"query_id", "doc_id"}.issubset(qrels.columns):
        raise ValueError(f"qrels need columns query_id and doc_id, got {list(qrels.columns)}")
    judged = pd.MultiIndex.from_arrays([qrels["query_id"].astype(str), qrels["doc_id"].astype(str)])
    key = pd.MultiIndex.from_arrays([run["query_id"].astype(str), run["doc_id"].astype(str)])
    return top_k(run[key.isin(judged)], depth)


def _tau_of_means(raw: pd.Series, ug: pd.Series, measure: str, level: float):
    """Kendall's tau between the runs' mean RawG and UG scores; when every run has the same mean
    under one of them (identical runs, or runs that retrieve nothing relevant) an error naming the
    runs and the measure, instead of the bare 'tau-b is undefined'."""
    for label, means in (("RawG", raw), ("UG", ug)):
        values = means.to_numpy()
        if len(values) >= 2 and np.all(values == values[0]):
            runs = list(means.index)
            raise ValueError(f"every run ({len(runs)}: {runs[:6]}{' ...' if len(runs) > 6 else ''}) has the same mean "
                             f"{measure} under {label} ({values[0]:.4f}): Kendall's tau between the RawG and UG "
                             "rankings is undefined when one ranking ties every run; are the runs identical, or "
                             "do they retrieve no judged relevant document?")
    return _stats.kendall_tau_ci(raw.to_numpy(), ug.to_numpy(), level)


def best_run_per_team(scores: pd.DataFrame, teams: Mapping[str, str]) -> list[str]:
    """The run with the highest mean score of each team (the paper's one run per team).

    Parameters
    ----------
    scores : DataFrame
        Topics x runs (e.g. :func:`helpers.measures.to_matrix` of mean nG@1 under the official
        gains); the column mean is the run's score. Ties (means equal to 12 significant digits, so
        that summation order cannot decide them) go to the smallest run id, whatever the column
        order; :func:`team_best_ties` lists them.
    teams : mapping
        ``run_id -> team``; every column of ``scores`` must have a team.

    Returns
    -------
    list of str
        One run per team, teams in order of first appearance among the columns. Runs of fewer
        than two teams are an error naming the runs and their team: there is no pair to compare.
    """
    best = {t: runs[0] for t, runs in team_best_ties(scores, teams).items()}   # checks that every run has a team
    if len(best) < 2:
        runs = list(scores.columns)
        raise ValueError(f"the runs {runs[:6]}{' ...' if len(runs) > 6 else ''} are all of team "
                         f"{next(iter(best), '(none)')!r}: the significance tests compare the best run of each "
                         "team and need runs of at least 2 teams (a run's team is its name up to the first "
                         "'-' or '_' without trailing digits, unless team_overrides or team_table give it)")
    return list(best.values())


def team_best_ties(scores: pd.DataFrame, teams: Mapping[str, str]) -> dict[str, list[str]]:
    """Per team (in order of first appearance), the runs whose mean score equals the team's best to
    12 significant digits, by run id: the first is :func:`best_run_per_team`'s pick, and a team
    with more than one is a tie that rule broke (report it)."""
    missing = [r for r in scores.columns if r not in teams]
    if missing:
        raise ValueError(f"no team for runs {missing[:5]} (teams mapping has {len(teams)} runs)")
    means = scores.mean(axis=0)
    key = means.map(lambda v: float(f"{v:.12g}"))   # one ulp of summation order is not a lead
    out: dict[str, list[str]] = {}
    for run in scores.columns:
        out.setdefault(teams[run], [])
    for t in out:
        runs = sorted(r for r in scores.columns if teams[r] == t)
        top = key[runs].max()
        out[t] = [r for r in runs if key[r] == top]
    return out


def gain_qrels(qrels: pd.DataFrame, gain) -> pd.DataFrame:
    """``query_id, doc_id, gain`` for :func:`helpers.measures.evaluate`'s gain column."""
    g = np.asarray(gain, dtype=float)
    if g.shape != (len(qrels),):
        raise ValueError(f"gain must hold one value per qrels row ({len(qrels)}), got shape {g.shape}")
    return pd.DataFrame({"query_id": qrels["query_id"].to_numpy(), "doc_id": qrels["doc_id"].to_numpy(),
                         "gain": g})


#: How deep each measure family reads the ideal list when it has the cutoff ``l`` and the ranked
#: lists have depth ``D`` (:mod:`helpers.measures.kernels`): the ideal gains past that rank do not
#: change its value, so :class:`GainScorer` may cut the ideal lists there. ``None``: the family also
#: needs R or the whole ideal list (AP, Q and recall divide by R, NCU by cg*(R)), so nothing is cut.
IDEAL_DEPTH = {
    "nG": lambda l, D: 1, "ERR": lambda l, D: 1, "RBP": lambda l, D: 1, "iRBU": lambda l, D: 1,
    "RR": lambda l, D: 1, "Hit": lambda l, D: 1, "P": lambda l, D: 1, "r1": lambda l, D: 1, "rp": lambda l, D: 1,
    "nDCG": lambda l, D: l, "MSnDCG": lambda l, D: l, "nCG": lambda l, D: l, "nERR": lambda l, D: l,
    "P+": lambda l, D: D, "EBR": lambda l, D: D, "O-measure": lambda l, D: D, "P-measure": lambda l, D: D,
}


class GainScorer:
    """The topics x runs score matrices of many gain assignments of the same judged items.

    The hot path of notebook 02's studies: every replicate scores RawG and UG gains of freshly
    simulated ratings on the *same* collection. :class:`helpers.measures.Alignment` matches the run
    to the qrels once (it also validates them and fixes the topic and run order); each gain vector
    is then only gathered into the ranked lists and their ideal lists with numpy and scored by
    :func:`helpers.measures.evaluate_arrays`. The result equals
    ``to_matrix(Alignment(...).evaluate(measures, gain=g), m)`` (NTCIREVAL ``gcompute``
    semantics; topics without a positive gain skipped; a run without a list for a topic scores 0;
    tested equal) without building the tidy frame. Ideal lists are cut at the depth the measures
    read (:data:`IDEAL_DEPTH`; measures that need R keep them whole).

    Measures with ``rel=`` or of the condensed-list family, and runs whose ranks repeat within a
    list, are scored through the Alignment itself (same values, slower).

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, doc_id`` of the judged items (one gain per row is given later).
    run : DataFrame
        ``run_id, query_id, doc_id, rank``, cut to the evaluation depth.
    measures : sequence of str
        Measure names of :func:`helpers.measures.evaluate`.
    no_relevant : {"skip", "zero"}
        Topics without a positive gain: left out of the matrix (NTCIREVAL, the default) or kept
        with score 0 (``evaluate(..., no_relevant="zero")``, as :func:`helpers.prm.mean_scores`).
    """

    def __init__(self, qrels: pd.DataFrame, run: pd.DataFrame, measures: Sequence[str], no_relevant: str = "skip"):
        if no_relevant not in ("skip", "zero"):
            raise ValueError(f"no_relevant must be 'skip' or 'zero', got {no_relevant!r}")
        self.no_relevant = no_relevant
        self.measures = list(measures)
        self.specs = _measures.parse_measures(self.measures)
        self.n_items = len(qrels)
        ones = np.ones(len(qrels))
        self.alignment = _measures.Alignment(gain_qrels(qrels, ones), run, conventions="ntcireval")  # NTCIREVAL: gains as values
        with warnings.catch_warnings():   # a run without a list for a topic scores 0 here (documented above)
            warnings.filterwarnings("ignore", message=r".*have no ranked list for some qrels topics", category=UserWarning)
            ref = _measures.to_matrix(self.alignment.evaluate(self.measures[:1], gain=ones, no_relevant="zero"),
                                      self.specs[0])
        self.topics, self.runs = ref.index, ref.columns
        t_of = pd.Index(self.topics.astype(str)).get_indexer(qrels["query_id"].astype(str))
        r_of = pd.Index(self.runs.astype(str)).get_indexer(run["run_id"].astype(str))
        l_of = pd.Index(self.topics.astype(str)).get_indexer(run["query_id"].astype(str))
        keep = (r_of >= 0) & (l_of >= 0)
        lists = r_of[keep].astype(np.int64) * len(self.topics) + l_of[keep]
        rank = pd.to_numeric(run["rank"]).to_numpy(dtype=float)[keep]
        order = np.lexsort((rank, lists))
        lists, rank = lists[order], rank[order]
        same = (lists[1:] == lists[:-1]) & (rank[1:] == rank[:-1])
        self.fast = not same.any() and all(s.rel is None and s.name not in _measures.CONDENSED_ONLY
                                           for s in self.specs)
        starts = np.r_[0, np.flatnonzero(lists[1:] != lists[:-1]) + 1]
        pos = np.arange(len(lists)) - np.repeat(starts, np.diff(np.r_[starts, len(lists)]))
        # the qrels row of every ranked document: (topic, document) as one integer key
        docs = pd.factorize(np.r_[qrels["doc_id"].astype(str).to_numpy(dtype=object),
                                  run["doc_id"].astype(str).to_numpy(dtype=object)[keep][order]])[0].astype(np.int64)
        n_docs = int(docs.max()) + 1 if len(docs) else 1
        qrow = pd.Index(t_of.astype(np.int64) * n_docs + docs[:len(qrels)]).get_indexer(
            l_of[keep][order].astype(np.int64) * n_docs + docs[len(qrels):])
        depth = int(pos.max()) + 1 if len(pos) else 1
        self.slot = np.full((len(self.runs) * len(self.topics), depth), -2, dtype=np.int64)  # -2: past the end
        self.slot[lists, pos] = np.where(qrow >= 0, qrow, -1)                                # -1: unjudged
        self.item_topic = t_of
        widths = [IDEAL_DEPTH[s.name](s.cutoff or depth, depth) if s.name in IDEAL_DEPTH and
                  not (s.cutoff is None and s.name in ("nDCG", "MSnDCG", "nCG", "nERR")) else None
                  for s in self.specs]
        self.ideal_depth = None if None in widths else max(widths)

    def matrices(self, gains) -> list[dict[str, pd.DataFrame]]:
        """Score matrices (topics x runs, per measure name) of every gain vector.

        ``gains``: one vector (``n_items``) or an ``n_items x V`` array, one column per vector.
        Returns a list of V dicts ``measure name -> DataFrame``.
        """
        g = np.asarray(gains, dtype=float)
        g = g[:, None] if g.ndim == 1 else g
        if g.ndim != 2 or g.shape[0] != self.n_items:
            raise ValueError(f"gains must hold {self.n_items} values per vector, got shape {np.shape(gains)}")
        if not self.fast:
            return [{m: _measures.to_matrix(self.alignment.evaluate(self.measures, gain=col, no_relevant=self.no_relevant), s)
                     for m, s in zip(self.measures, self.specs)} for col in g.T]
        n_t, n_r = len(self.topics), len(self.runs)
        list_topic = np.tile(np.arange(n_t), n_r)
        out = []
        for col in g.T:
            ext = np.r_[col, np.nan, 0.0]  # index -1: unjudged (0), -2: past the end (NaN)
            ranked = ext[self.slot]
            ideal = self._ideal(col, n_t)
            res = _measures.evaluate_arrays(ranked, ideal[list_topic], self.specs)
            rel = ideal[:, 0] > 0
            if self.no_relevant == "zero":
                out.append({m: pd.DataFrame(np.nan_to_num(res[str(s)].reshape(n_r, n_t).T, nan=0.0), index=self.topics,
                                            columns=self.runs) for m, s in zip(self.measures, self.specs)})
                continue
            out.append({m: pd.DataFrame(res[str(s)].reshape(n_r, n_t).T[rel], index=self.topics[rel],
                                        columns=self.runs) for m, s in zip(self.measures, self.specs)})
        return out

    def _ideal(self, gain: np.ndarray, n_topics: int) -> np.ndarray:
        """Ideal gains per topic, sorted descending, 0-padded, cut at :attr:`ideal_depth`."""
        rel = gain > 0
        t, gs = self.item_topic[rel], gain[rel]
        o = np.lexsort((-gs, t))
        t, gs = t[o], gs[o]
        R = np.bincount(t, minlength=n_topics)
        width = max(1, int(R.max()) if len(t) else 1)
        if self.ideal_depth is not None:
            width = min(width, self.ideal_depth)
        ideal = np.zeros((n_topics, width))
        k = np.arange(len(t)) - np.searchsorted(t, t)
        ok = k < width
        ideal[t[ok], k[ok]] = gs[ok]
        return ideal


def compare_gains(qrels: pd.DataFrame, run: pd.DataFrame, ratings, d_max: int, p: float,
                  measures: Sequence[str], hsd_runs, B: int, alpha: float,
                  rng: np.random.Generator, *, level: float = 0.95, scorer: "GainScorer | None" = None) -> dict:
    """RawG vs UG on one set of ratings: Kendall's tau of all runs and HSD discrepancies.

    Parameters
    ----------
    qrels : DataFrame
        ``query_id, doc_id`` of the rated items (other columns are ignored).
    run : DataFrame
        ``run_id, query_id, doc_id, rank``, already cut to the evaluation depth.
    ratings : array, shape (len(qrels), N)
        Ratings of every qrels row on ``0..d_max`` (NaN = not rated).
    d_max, p : int, float
        UG's parameters (Sakai 2017, Eq. 2).
    measures : sequence of str
        Measure names for :func:`helpers.measures.evaluate`, e.g. ``["nG@1", "P+", "nERR@10"]``.
    hsd_runs : sequence of str, or mapping run_id -> team
        Runs compared by the randomised Tukey HSD (the paper: the best run of each team). A
        mapping selects, in this variant, the best run of each team by mean RawG score of
        ``measures[0]`` (:func:`best_run_per_team`).
    B : int
        HSD trials (the paper: 5000).
    alpha : float
        Significance level of the discrepancy count (the paper: 0.05).
    rng : numpy.random.Generator
        Drives the HSD: every test of the call -- RawG and UG, every measure -- runs on the same
        permutations drawn from ``rng`` (common random numbers, :func:`helpers.stats.
        randomised_tukey_hsd_each`), so a pair whose scores are identical under both gains can
        never be a discrepancy by Monte Carlo chance.
    level : float
        Confidence level of the tau interval.
    scorer : GainScorer, optional
        The collection matched once (:class:`GainScorer` of ``qrels``, ``run`` and ``measures``);
        built here when not given.

    Returns
    -------
    dict
        ``tau``: DataFrame (one row per measure: ``measure, tau, low, high, runs, topics``);
        ``discrepancies``: DataFrame of :func:`helpers.stats.discrepancies` with a ``measure``
        column, plus ``es_var_RawG``/``es_var_UG`` = |d| / V_E (the residual *variance*, not its
        square root; kept next to the textbook ES_HSD = |d| / sqrt(V_E) for comparison only: the
        paper does not state its divisor, and a stand-in's matrices cannot tell which it used); ``significant``: DataFrame ``measure,
        RawG, UG, pairs`` (significant pairs of each); ``hsd_runs``: the runs compared;
        ``scores``: ``{(gain, measure): topics x runs DataFrame}``.
    """
    return compare_gains_many(qrels, run, [(ratings, d_max)], p, measures, hsd_runs, B, alpha, rng, level=level,
                              scorer=scorer)[0]


def compare_gains_many(qrels: pd.DataFrame, run: pd.DataFrame, variants: Sequence[tuple], p: float,
                       measures: Sequence[str], hsd_runs, B: int, alpha: float, rng: np.random.Generator, *,
                       level: float = 0.95, scorer: "GainScorer | None" = None,
                       placebo_rng: np.random.Generator | None = None,
                       placebo_for: Sequence[bool] | None = None) -> list[dict]:
    """:func:`compare_gains` for several sets of ratings of the same items, in one pass.

    ``variants`` is a sequence of ``(ratings, d_max)``. All gain vectors are scored by one
    :class:`GainScorer`, and every HSD of the call -- all variants, measures and both gains --
    runs on one set of permutations per matrix shape (:func:`helpers.stats.
    randomised_tukey_hsd_each`; common random numbers, so differences between variants are not
    blurred by Monte Carlo noise). Returns one :func:`compare_gains` result per variant, in order.

    With ``placebo_rng`` each variant also scores a placebo gain (:func:`placebo_gain`: RawG plus
    UG's own bonuses shuffled among the items of each topic with RawG > 0, drawn from
    ``placebo_rng``) and tests it on the same permutations; the result then holds ``placebo``
    (``measure, discrepancies, significant, tau``: pairs significant under RawG or the placebo
    only, and Kendall's τ between the runs' mean RawG and mean placebo scores, UG's ``tau``'s control);
    ``placebo_for`` (one bool per variant; default all) limits the placebo to some variants.
    The permutations are drawn as without it (the placebo's matrices join the same shape groups,
    and ``rng`` is not used for the shuffle), so every other number is unchanged.
    """
    measures = list(measures)
    if not measures:
        raise ValueError("measures must name at least one measure")
    if not isinstance(hsd_runs, Mapping) and len(list(hsd_runs)) < 2:
        raise ValueError(f"hsd_runs needs at least 2 runs, got {list(hsd_runs)}")
    with_placebo = [False] * len(variants) if placebo_rng is None else (
        [True] * len(variants) if placebo_for is None else [bool(x) for x in placebo_for])
    if len(with_placebo) != len(variants):
        raise ValueError(f"placebo_for needs one bool per variant ({len(variants)}), got {len(with_placebo)}")
    vectors, labels = [], []
    for (ratings, d_max), pl in zip(variants, with_placebo):
        ratings = np.asarray(ratings, dtype=float)
        if ratings.ndim != 2 or ratings.shape[0] != len(qrels):
            raise ValueError(f"ratings must be a (len(qrels) = {len(qrels)}) x N array, got shape {ratings.shape}")
        raw, ug = _gains.raw_gain(ratings, d_max), _gains.unanimity_aware_gain(ratings, d_max, p)
        vectors += [raw, ug] + ([placebo_gain(raw, ug, topics_of(qrels), placebo_rng)] if pl else [])
        labels.append(("RawG", "UG", "Placebo") if pl else ("RawG", "UG"))
    if scorer is None:
        scorer = GainScorer(qrels, run, measures)
    elif scorer.measures != measures or scorer.n_items != len(qrels):
        raise ValueError("scorer was built for other measures or qrels")
    mats, start = scorer.matrices(np.stack(vectors, axis=1)), np.cumsum([0] + [len(lab) for lab in labels])
    scores = [{(label, m): mats[start[v] + j][m] for j, label in enumerate(labels[v]) for m in measures}
              for v in range(len(variants))]
    runs_of = [_hsd_runs(sc, hsd_runs, measures[0]) for sc in scores]
    tests = {(v, label, m): scores[v][(label, m)][runs_of[v]] for v in range(len(variants))
             for label in labels[v] for m in measures}
    hsd = _stats.randomised_tukey_hsd_each(tests, B, rng)
    return [_variant_result(scores[v], {k[1:]: h for k, h in hsd.items() if k[0] == v}, runs_of[v], measures,
                            alpha, level) for v in range(len(variants))]


def _hsd_runs(scores: dict, hsd_runs, first: str) -> list[str]:
    """The runs the HSD compares: given, or the best of each team by RawG on the first measure."""
    if isinstance(hsd_runs, Mapping):  # run -> team: best run of each team by RawG, measures[0]
        hsd_runs = best_run_per_team(scores[("RawG", first)], hsd_runs)
    hsd_runs = list(hsd_runs)
    if len(hsd_runs) < 2:
        raise ValueError(f"hsd_runs needs at least 2 runs, got {hsd_runs}")
    missing = sorted(set(hsd_runs) - set(scores[("RawG", first)].columns))
    if missing:
        raise ValueError(f"hsd_runs {missing[:5]} are not in the run")
    return hsd_runs


def _variant_result(scores: dict, hsd: dict, hsd_runs: list[str], measures: list[str], alpha: float,
                    level: float) -> dict:
    """Kendall's tau, discrepancies and significant pairs of one variant (see compare_gains)."""
    tau_rows, disc, sig = [], [], []
    for m in measures:
        raw, ug = scores[("RawG", m)], scores[("UG", m)]
        ci = _tau_of_means(raw.mean(), ug.mean().reindex(raw.columns), m, level)
        tau_rows.append({"measure": m, "tau": ci.tau, "low": ci.low, "high": ci.high,
                         "runs": raw.shape[1], "topics": raw.shape[0]})
        h_raw, h_ug = hsd[("RawG", m)], hsd[("UG", m)]
        d = _stats.discrepancies(h_raw, h_ug, alpha, ("RawG", "UG"))
        d.insert(0, "measure", m)
        # |d| / V_E next to the textbook ES_HSD = |d| / sqrt(V_E) (see compare_gains)
        for label, h in (("RawG", h_raw), ("UG", h_ug)):
            ve = float(h.attrs["residual_variance"])
            d[f"es_var_{label}"] = d[f"abs_diff_{label}"] / ve if ve > 0 else np.inf
        disc.append(d)
        sig.append({"measure": m, "RawG": int((h_raw["p_value"] < alpha).sum()),
                    "UG": int((h_ug["p_value"] < alpha).sum()), "pairs": len(h_raw)})
    out = {"tau": pd.DataFrame(tau_rows), "discrepancies": pd.concat(disc, ignore_index=True),
           "significant": pd.DataFrame(sig), "hsd_runs": hsd_runs, "scores": scores}
    if ("Placebo", measures[0]) in hsd:   # tau: RawG's ranking of all runs against the placebo's (no HSD)
        out["placebo"] = pd.DataFrame([{"measure": m, "discrepancies": len(_stats.discrepancies(
            hsd[("RawG", m)], hsd[("Placebo", m)], alpha, ("RawG", "Placebo"))),
            "significant": int((hsd[("Placebo", m)]["p_value"] < alpha).sum()),
            "tau": float(_tau_of_means(scores[("RawG", m)].mean(), scores[("Placebo", m)].mean().reindex(
                scores[("RawG", m)].columns), m, level).tau)} for m in measures])
    return out


def topics_of(qrels: pd.DataFrame) -> np.ndarray:
    """Each qrels row's topic as an integer code (first appearance order)."""
    return pd.factorize(qrels["query_id"].astype(str))[0]


def placebo_gain(raw, ug, topics, rng: np.random.Generator) -> np.ndarray:
    """A placebo for UG: RawG plus UG's own bonuses, shuffled at random among the items of the same
    topic with RawG > 0.

    The bonus UG − RawG = p·N·(Dmax − D) (Sakai 2017, Eq. 2) goes to the items with RawG > 0; here
    each such item gets the bonus of a random item of its topic instead (a permutation within the
    topic, drawn from ``rng``). The placebo thus has UG's support, UG's bonuses (the same values,
    so the same mean size in every topic) and RawG's zeros, but its bonus is unrelated to how
    unanimous the item's raters were. A significance call that flips under UG and under this
    placebo alike flips because scores moved, not because of unanimity.

    Parameters
    ----------
    raw, ug : arrays of shape (items,)
        RawG and UG of every item (UG > 0 exactly where RawG > 0).
    topics : array of shape (items,)
        Each item's topic (any hashable codes; :func:`topics_of`).
    rng : numpy.random.Generator
        Draws the permutations.
    """
    raw, ug = np.asarray(raw, dtype=float), np.asarray(ug, dtype=float)
    topics = np.asarray(topics)
    if raw.shape != ug.shape or raw.shape != topics.shape or raw.ndim != 1:
        raise ValueError(f"raw, ug and topics must be 1-d of one length, got {raw.shape}, {ug.shape}, {topics.shape}")
    if ((raw > 0) != (ug > 0)).any():
        raise ValueError("ug must be > 0 exactly where raw is > 0 (UG of these ratings)")
    pos = np.flatnonzero(raw > 0)
    t = pd.factorize(topics[pos])[0]
    into = pos[np.argsort(t, kind="stable")]                   # items grouped by topic, in item order
    source = pos[np.lexsort((rng.random(len(pos)), t))]        # the same groups, in a random order
    out = raw.copy()
    out[into] = raw[into] + (ug - raw)[source]
    return out


def near_alpha(p_values, alpha: float, B: int, z: float = 2.0) -> np.ndarray:
    """Which Monte Carlo p-values lie within ``z`` standard errors of ``alpha``.

    A randomised test's p-value estimated from ``B`` trials has binomial standard error about
    ``sqrt(alpha (1 - alpha) / B)`` near the significance level (Phipson & Smyth 2010 discuss the
    estimate's error); a pair whose p-value lies within ``z`` such errors of ``alpha`` could fall
    on the other side of it in another run of the same test (same data, new permutations). Used to
    flag the *fragile* discrepancies of a Table 3 listing (Sakai 2017, Table 3; B = 5,000 there).

    Returns a boolean array, True where ``|p - alpha| <= z * se``.
    """
    p = np.asarray(p_values, dtype=float)
    if not 0 < alpha < 1 or int(B) < 1:
        raise ValueError(f"alpha must lie in (0, 1) and B be >= 1, got {alpha!r}, {B!r}")
    return np.abs(p - alpha) <= z * mc_standard_error(alpha, B)


def mc_standard_error(alpha: float, B: int) -> float:
    """Binomial standard error ``sqrt(alpha (1 - alpha) / B)`` of a Monte Carlo p-value near ``alpha``."""
    return float(np.sqrt(alpha * (1 - alpha) / int(B)))


def fmt_tau(x: float) -> str:
    """Sakai's style: ``.987``, ``1``, ``1.007`` (three decimals, no leading zero); a value that is
    not 0 or 1 but would print as one gets the digits it needs (``.99996``, not ``1``: a reader
    compares these bounds with τ = 1)."""
    x = float(x)
    for digits in range(3, 7):
        r = round(x, digits)
        if r not in (0.0, 1.0) or abs(r - x) < 1e-9:  # 1e-9: float noise of an exact 1 is still 1
            break
    if r == int(r) and abs(r - x) < 1e-9:
        return str(int(r))
    s = f"{r:.{digits}f}".rstrip("0") if digits > 3 and r not in (0.0, 1.0) else f"{r:.{digits}f}"
    return s.replace("0.", ".", 1) if s.startswith("0.") else s.replace("-0.", "-.", 1)


def tau_layout(tau: pd.DataFrame, measures: Sequence[str]) -> pd.DataFrame:
    """Sakai's Table 2 layout: one panel per measure, rows Dmax, columns N, "tau [low, high]".

    Parameters
    ----------
    tau : DataFrame
        Columns ``measure, d_max, n, tau, low, high``.
    measures : sequence of str
        Panel order.

    Returns
    -------
    DataFrame
        Columns ``measure, Dmax`` and one ``N = n`` column per N, cells like ``.987 [.968, 1.007]``.
    """
    need = {"measure", "d_max", "n", "tau", "low", "high"}
    if not need.issubset(tau.columns):
        raise ValueError(f"tau needs columns {sorted(need)}, got {list(tau.columns)}")
    cell = tau.assign(cell=[f"{fmt_tau(t)} [{fmt_tau(lo)}, {fmt_tau(hi)}]"
                            for t, lo, hi in zip(tau["tau"], tau["low"], tau["high"])])
    wide = cell.pivot(index=["measure", "d_max"], columns="n", values="cell")
    wide = wide.reindex(pd.MultiIndex.from_product([list(measures), sorted(tau["d_max"].unique())],
                                                   names=["measure", "d_max"]))
    wide.columns = [f"N = {n}" for n in wide.columns]
    return wide.reset_index().rename(columns={"d_max": "Dmax"})


def gain_blind(measures: Sequence[str]) -> list[str]:
    """The measures of ``measures`` that cannot tell RawG from UG.

    UG (Eq. 2) is positive exactly when RawG is, so a measure that only sees whether a gain is
    > 0 (AP, RR, P@l, Hit@l, bpref, ...: :func:`helpers.measures.is_graded` is False) gives every
    run the same score under both gains: its τ is 1 and it has no discrepancy *by construction*,
    and counting its cells as "RawG and UG agree" would count a tautology.
    """
    return [str(m) for m in measures if not _measures.is_graded(m)]


def deeper_than_lists(measures: Sequence[str], depth: int) -> list[tuple[str, int]]:
    """``(measure, its cutoff l)`` for every measure whose own depth ``@l`` exceeds the depth the
    ranked lists are cut to: ``MSnDCG@10`` on lists cut to the top 5 is scored on those 5 (its
    ideal list still has 10 ranks), which is not the MSnDCG@10 its name promises."""
    depth = _check_depth(depth)
    out = []
    for m in measures:
        l = _measures.MeasureSpec.parse(m).cutoff
        if l is not None and l > depth:
            out.append((str(m), int(l)))
    return out


def spread_shares(ratings, d_max: int) -> pd.Series:
    """Share of items at each spread ``D = max - min`` (0..d_max), over items with RawG > 0.

    Non-relevant items (all zeros) are left out: UG leaves them at 0 whatever their spread.
    """
    r = np.asarray(ratings, dtype=float)
    keep = _gains.raw_gain(r, d_max) > 0
    if not keep.any():
        raise ValueError("no item has a positive raw gain; nothing to summarise")
    d = _gains.spread(r[keep], d_max).astype(int)
    counts = np.bincount(d, minlength=int(d_max) + 1)
    return pd.Series(counts / counts.sum(), index=pd.RangeIndex(int(d_max) + 1, name="D"), name="share")


def with_official(qrels: pd.DataFrame, ratings: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray, dict]:
    """Items rated by the official assessor (``qrels``) and the other assessors (``ratings``), as
    one ratings matrix with the official label in column 0.

    Every item of ``ratings`` that ``qrels`` also judged gets the official label as one more
    rating; the items kept are those with the most common number of ratings (official included),
    so that every row has the same N (on the DL-19 re-annotation: NIST plus the annotator pair of
    the item, N = 3). Columns after the first follow the assessor ids in sorted order (RawG and UG
    do not depend on the order).

    Returns ``(items, values, info)``: ``items`` with ``query_id, doc_id, relevance`` (the
    official level), ``values`` an (items x N) float array, ``info`` counts of what was left out.
    """
    for name, df, cols in (("qrels", qrels, ["query_id", "doc_id", "relevance"]),
                           ("ratings", ratings, ["query_id", "doc_id", "assessor", "rating"])):
        missing = [c for c in cols if c not in df.columns]
        if missing:
            raise ValueError(f"{name} is missing column(s) {missing}")
    keys = ["query_id", "doc_id"]
    items = ratings[keys].drop_duplicates()
    joined = items.merge(qrels[keys + ["relevance"]], on=keys, how="inner")
    if joined.empty:
        raise ValueError("no item of the ratings is judged in the qrels (the official assessor): "
                         "check that the two use the same topic and document ids")
    official = pd.DataFrame({"query_id": joined["query_id"], "doc_id": joined["doc_id"],
                             "rating": joined["relevance"], "_slot": 0})
    others = ratings.merge(joined[keys], on=keys, how="inner")
    others = others.sort_values(keys + ["assessor"], kind="stable")
    others = others.assign(rating=others["rating"], _slot=others.groupby(keys).cumcount() + 1)
    tidy = pd.concat([official, others[keys + ["rating", "_slot"]]], ignore_index=True)
    size = tidy.groupby(keys)["rating"].transform("size")
    n = int(size.mode().max())
    full = tidy[size == n]
    wide = full.pivot(index=keys, columns="_slot", values="rating").sort_index()
    out_items = wide.index.to_frame(index=False).assign(relevance=wide[0].astype(int).to_numpy())
    info = {"rated_items": int(len(items)), "items_without_official_label": int(len(items) - len(joined)),
            "items_with_other_counts": int(len(joined) - len(wide)), "n": n}
    return out_items, wide.to_numpy(dtype=float), info


def near_duplicates(run: pd.DataFrame, depth: int = 10, min_share: float = 0.5) -> pd.DataFrame:
    """Pairs of runs that return the same ordered top ``depth`` on many topics.

    Two runs whose ranked lists coincide are one system for a significance test, whatever their
    names say. For every pair of runs, over the topics both ranked: ``identical`` = the share of
    topics on which their ordered top ``depth`` lists are equal, ``shared`` = the mean share of
    top-``depth`` documents they have in common (order ignored).

    Parameters
    ----------
    run : DataFrame
        ``run_id, query_id, doc_id, rank``.
    depth : int
        List length compared (default 10).
    min_share : float in [0, 1]
        Keep pairs with ``identical >= min_share``.

    Returns
    -------
    DataFrame
        ``run_a, run_b, identical, shared, topics``, by decreasing ``identical``.
    """
    _check_run(run)
    depth = _check_depth(depth)
    if not 0.0 <= float(min_share) <= 1.0:
        raise ValueError(f"min_share must lie in [0, 1], got {min_share!r}")
    top = top_k(run, depth)
    lists = (top.groupby(["run_id", "query_id"], sort=True)["doc_id"].agg(lambda d: "\x1f".join(map(str, d)))
             .unstack("query_id"))
    runs = list(lists.index)
    codes = np.full(lists.shape, -1, dtype=np.int64)
    present = lists.notna().to_numpy()
    uniq = {v: k for k, v in enumerate(pd.unique(lists.to_numpy()[present]))}
    codes[present] = [uniq[v] for v in lists.to_numpy()[present]]
    both = present[:, None, :] & present[None, :, :]
    same = (codes[:, None, :] == codes[None, :, :]) & both
    n_both = both.sum(axis=2)
    identical = np.divide(same.sum(axis=2), n_both, out=np.zeros(n_both.shape), where=n_both > 0)
    ia, ib = np.triu_indices(len(runs), k=1)
    keep = identical[ia, ib] >= float(min_share)
    rows = []
    sets = {r: {q: set(g) for q, g in grp.groupby("query_id")["doc_id"]} for r, grp in top.groupby("run_id")}
    for a, b in zip(ia[keep], ib[keep]):
        ra, rb = runs[a], runs[b]
        common = sorted(set(sets[ra]) & set(sets[rb]))
        shared = float(np.mean([len(sets[ra][q] & sets[rb][q]) / depth for q in common])) if common else 0.0
        rows.append({"run_a": ra, "run_b": rb, "identical": float(identical[a, b]), "shared": shared,
                     "topics": int(n_both[a, b])})
    out = pd.DataFrame(rows, columns=["run_a", "run_b", "identical", "shared", "topics"])
    return out.sort_values(["identical", "run_a", "run_b"], ascending=[False, True, True]).reset_index(drop=True)


def teams_from_table(table: pd.DataFrame, run_ids: Sequence[str], what: str = "team table") -> dict[str, str]:
    """``run_id -> team`` from a team table (``run_id, team``; e.g.
    :func:`helpers.data.datasets.load_teams`), checked against the runs actually evaluated.

    Raises ``ValueError`` naming the runs the table lacks; runs in the table but not in
    ``run_ids`` are ignored (a collection's table may cover runs cut elsewhere).
    """
    if not {"run_id", "team"}.issubset(table.columns):
        raise ValueError(f"{what} needs columns run_id and team, got {list(table.columns)}")
    mapping = dict(zip(table["run_id"].astype(str), table["team"].astype(str)))
    missing = sorted(set(map(str, run_ids)) - set(mapping))
    if missing:
        raise ValueError(f"{what} has no team for run(s) {missing[:5]} ({len(missing)} in all)")
    return {r: mapping[r] for r in run_ids}
