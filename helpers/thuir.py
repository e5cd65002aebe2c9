"""SERP-level agreement of ad hoc measures with real users on the THUIR image-search set
(Xie et al., SIGIR 2020; :func:`helpers.data.datasets.load_image_preferences`), with exact binomial
tests against chance and trivial baselines (notebook 05, profile ``real``).

Operationalisation (each choice is a parameter and the notebook shows the sensitivity to it)
--------------------------------------------------------------------------------------------
Ranks
    Each page's grid is read row by row, left to right (row, then column) into a ranked list.
    This is an *assumption*: users of image grids do not scan strictly in that order.
Gains
    Every image has a mean relevance ``rel`` in 0-100 (three assessors). ``gain_map`` turns it
    into a gain, and images below ``threshold`` get gain 0 (without a threshold every image with
    ``rel > 0`` is "relevant", i.e. every image on these pages):
    ``"exponential"``: ``2^(rel/25) - 1`` (0-100 -> 0-4 like L0-L4, then ``2^x - 1``; 0 to 15);
    ``"linear"``: ``rel/25``; ``"binary"``: 1. The ``gmax`` of ERR/RBU-type measures is the top
    of the map (15, 4, 1) under the ``"fixed"`` normaliser of :func:`helpers.measures.diversity.evaluate`.
Cutoff
    Pages hold 9-23 images. ``cutoff = 0`` (default) scores both pages of a query at the shorter
    page's length (both lists complete to the same depth, so a longer page is not rewarded for
    its extra images); a positive cutoff scores both to that depth (a cutoff beyond the longer
    page scores every image, which favours longer pages for gain-accumulating measures).
    Because the cutoff is the same for both pages of a query, RBU's effort term
    ``e sum_{r<=l} p^r`` is identical for them: RBU prefers exactly what iRBU prefers.
Chance and tests
    Users prefer one page (LEFT = Sogou, RIGHT = Baidu) or call a tie (EQUAL). A system that
    says EQUAL with probability ``t`` and otherwise picks a side at random agrees with users with
    probability ``c = t e + (1 - t) (1 - e) / 2`` (``e`` the users' tie share); for a measure that
    never says EQUAL, ``c = 0.5 x decisive/total``. ``scipy.stats.binomtest`` gives the exact
    p-values of the agreements against ``c`` (all queries) and against ``0.5 (1 - t_d)`` on the
    decisive queries (``t_d`` the system's tie share there), with Clopper-Pearson 95% intervals:
    two-sided (``p_value``: "differs from chance", also *below* it) and one-sided
    (``p_above``: "agrees more often than chance"); a measure is called above chance only by the
    one-sided test.
Multiplicity
    Every table is a family of tests: :func:`holm` adjusts its p-values (Holm's step-down
    procedure, familywise error; ``p_value_holm``, ``p_above_holm``) over the systems of one scope
    in :func:`agreement_table`, and over every setting x measure in :func:`sensitivity`.
Baselines and precision
    Trivial baselines (kind ``"baseline"``, whole page): ``mean relevance`` (the page with the higher
    mean image relevance) and ``page length`` (more images). Precision (kind ``"count"``): the page
    with the higher share of images at or above the threshold, a count-based measure that ignores
    rank, once at the measures' depth (the images the measures score; at the shorter page's length
    this is the count of relevant images) and once over the whole page. Ties are EQUAL.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.stats

from .measures import diversity
from .stats.paired import holm  # re-exported: the THUIR tables adjust with it

__all__ = ["GAIN_MAPS", "PRECISION_DEPTH", "PRECISION_PAGE", "page_lists", "page_qrels", "agreement_table", "binomial_row", "holm", "sensitivity"]

#: The count-based measure (share of images at or above the threshold), at the measures' depth and
#: over the whole page: system names of :func:`agreement_table` (kind ``"count"``).
PRECISION_DEPTH, PRECISION_PAGE = "precision, measures' depth", "precision, whole page"

GAIN_MAPS = {"exponential": 15.0, "linear": 4.0, "binary": 1.0}   # name -> gmax (top of the map)

#: Single-intent measures (labels -> helpers.measures.diversity names; one intent of probability 1).
ADHOC = {"nDCG": "D-nDCG", "Q": "D-Q", "RBP (p=0.85)": "D-RBP(p=0.85)", "RBP (p=0.99)": "D-RBP(p=0.99)",
         "ERR": "D-nERR", "EBR": "D-EBR", "iRBU (p=0.85)": "iRBU(p=0.85)", "RBU (p=0.85)": "RBU(p=0.85)",
         "RBU (p=0.99)": "RBU(p=0.99)"}


def page_lists(img) -> pd.DataFrame:
    """Images with their page rank (row-major grid order) and page length."""
    pages = img.relevance.merge(img.positions, on=["query_id", "engine", "image"], how="inner", validate="1:1")
    if len(pages) != len(img.relevance):
        raise ValueError(f"{len(img.relevance) - len(pages)} judged image(s) have no grid position")
    pages = pages.sort_values(["query_id", "engine", "row", "column"], kind="stable").reset_index(drop=True)
    pages["rank"] = pages.groupby(["query_id", "engine"]).cumcount() + 1
    pages["page_length"] = pages.groupby(["query_id", "engine"])["rank"].transform("max")
    return pages


def page_qrels(pages: pd.DataFrame, gain_map: str = "exponential", threshold: float = 50.0) -> pd.DataFrame:
    """Single-intent qrels (``query_id, intent_id, doc_id, gain``) under a gain map and threshold."""
    if gain_map not in GAIN_MAPS:
        raise ValueError(f"gain_map must be one of {sorted(GAIN_MAPS)}, got {gain_map!r}")
    if not 0 <= threshold <= 100:
        raise ValueError(f"threshold must lie in [0, 100] (the relevance scale), got {threshold!r}")
    rel = pages["relevance"].to_numpy(float)
    g = {"exponential": 2.0 ** (rel / 25.0) - 1.0, "linear": rel / 25.0, "binary": np.ones_like(rel)}[gain_map]
    g = np.where((rel >= threshold) & (rel > 0), g, 0.0)
    return pd.DataFrame({"query_id": pages["query_id"], "intent_id": pages["query_id"] + "#1",
                         "doc_id": pages["doc_id"], "gain": g})


def binomial_row(k: int, n: int, p: float) -> dict:
    """Exact binomial tests of ``k`` successes in ``n`` against ``p``: two-sided ``p_value``,
    one-sided ``p_above`` (more successes than ``p`` predicts), Clopper-Pearson 95% CI."""
    res = scipy.stats.binomtest(int(k), int(n), float(p))
    above = scipy.stats.binomtest(int(k), int(n), float(p), alternative="greater")
    ci = res.proportion_ci(0.95, method="exact")
    return {"k": int(k), "n": int(n), "rate": k / n, "chance": float(p), "p_value": float(res.pvalue),
            "p_above": float(above.pvalue), "ci_low": float(ci.low), "ci_high": float(ci.high)}


def _side(left: np.ndarray, right: np.ndarray, tol: float) -> np.ndarray:
    return np.where(np.abs(left - right) <= tol, "EQUAL", np.where(left > right, "LEFT", "RIGHT"))


def agreement_table(img, *, gain_map: str = "exponential", threshold: float = 50.0, cutoff: int = 0,
                    tie_tolerance: float = 1e-9, normaliser: str = "fixed",
                    measures: dict[str, str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Agreement of measures and baselines with the users' page preferences, with exact tests.

    Returns ``(table, prefs)``: ``table`` has one row per system (measure or baseline) and
    ``scope`` ``"all"`` / ``"decisive"`` with the :func:`binomial_row` columns plus ``kind``,
    ``ties`` (queries on which the system says EQUAL) and the :func:`holm`-adjusted
    ``p_value_holm`` and ``p_above_holm`` (family: the systems of one scope); ``prefs`` the systems' labels per query
    (index ``query_id``), the users' (column ``users``) and ``no_relevant_image`` (queries with no
    image at or above ``threshold`` on either page: every measure scores both pages 0 there and says
    EQUAL, as the relevant-share baseline does; they stay in the ``all`` scope and count as
    non-agreements on the decisive ones unless the users said EQUAL).
    """
    if isinstance(cutoff, bool) or not isinstance(cutoff, (int, np.integer)) or cutoff < 0:
        raise ValueError(f"cutoff must be an integer >= 0 (0: the shorter page's length), got {cutoff!r}")
    measures = dict(ADHOC if measures is None else measures)
    pages = page_lists(img)
    shorter = pages.groupby("query_id")["page_length"].transform("min")
    depth = shorter if cutoff == 0 else pd.Series(cutoff, index=pages.index)
    scored = pages[pages["rank"] <= depth]
    qrels = page_qrels(pages, gain_map, threshold)
    queries = img.serp["query_id"].to_numpy()
    users = pd.Series(img.serp["preferred"].map({"sogou": "LEFT", "baidu": "RIGHT", "tie": "EQUAL"}).to_numpy(),
                      index=pd.Index(queries, name="query_id"), name="users")
    if users.isna().any():
        raise ValueError("THUIR serp table: 'preferred' must be sogou, baidu or tie")
    prefs = pd.DataFrame(index=users.index)
    relevant_queries = set(qrels.loc[qrels["gain"] > 0, "query_id"])
    no_relevant = np.array([q not in relevant_queries for q in users.index])
    if measures:
        intents = pd.DataFrame({"query_id": np.unique(queries), "prob": 1.0})
        intents["intent_id"] = intents["query_id"] + "#1"
        run = scored.rename(columns={"engine": "run_id"})[["run_id", "query_id", "doc_id", "rank"]]
        l = int(scored["rank"].max())
        names = [f"{v}@{l}" for v in measures.values()]
        sc = diversity.evaluate(qrels[qrels["gain"] > 0], intents, run, names, gmax=GAIN_MAPS[gain_map],
                                normaliser=normaliser)
        wide = sc.pivot_table(index=["query_id", "measure"], columns="run_id", values="value", dropna=False)
        for label, name in zip(measures, names):
            w = wide.xs(name, level="measure").reindex(users.index)[["sogou", "baidu"]]
            # A query without a relevant image on either page (at this threshold) has no ideal list:
            # neither page helps, so both score 0 and the measure says EQUAL. Any other gap is an error.
            w.loc[no_relevant] = w.loc[no_relevant].fillna(0.0)
            if w.isna().any().any():
                missing = w.index[w.isna().any(axis=1)].tolist()
                raise ValueError(f"measure {name!r} has no score for querie(s) {missing[:5]} that have relevant images")
            prefs[label] = _side(w["sogou"].to_numpy(), w["baidu"].to_numpy(), tie_tolerance)
    per_page = pages.assign(rel_ok=pages["relevance"] >= threshold).groupby(["query_id", "engine"]).agg(
        mean_rel=("relevance", "mean"), share=("rel_ok", "mean"), length=("rank", "max")).unstack("engine")
    per_page = per_page.reindex(users.index)
    # precision at the measures' depth: the share of relevant images among those the measures score
    at_depth = scored.assign(rel_ok=scored["relevance"] >= threshold).groupby(["query_id", "engine"]).agg(
        share_depth=("rel_ok", "mean")).unstack("engine").reindex(users.index)
    per_page = per_page.join(at_depth)
    kinds = dict.fromkeys(measures, "measure")
    for label, col, kind in (("mean relevance", "mean_rel", "baseline"), (PRECISION_DEPTH, "share_depth", "count"),
                             (PRECISION_PAGE, "share", "count"), ("page length", "length", "baseline")):
        prefs[label] = _side(per_page[(col, "sogou")].to_numpy(float), per_page[(col, "baidu")].to_numpy(float), 1e-12)
        kinds[label] = kind
    decisive = (users != "EQUAL").to_numpy()
    e = 1.0 - decisive.mean()
    rows = []
    for sysname in prefs.columns:
        lab = prefs[sysname].to_numpy()
        agree = lab == users.to_numpy()
        t = float((lab == "EQUAL").mean())
        t_d = float((lab[decisive] == "EQUAL").mean())
        rows.append({"system": sysname, "kind": kinds[sysname], "scope": "all", "ties": int((lab == "EQUAL").sum()),
                     **binomial_row(agree.sum(), len(agree), t * e + (1 - t) * (1 - e) / 2)})
        rows.append({"system": sysname, "kind": kinds[sysname], "scope": "decisive",
                     "ties": int((lab[decisive] == "EQUAL").sum()),
                     **binomial_row(agree[decisive].sum(), decisive.sum(), 0.5 * (1 - t_d))})
    prefs["users"] = users
    prefs["no_relevant_image"] = no_relevant
    table = pd.DataFrame(rows)
    for scope in ("all", "decisive"):
        sel = (table["scope"] == scope).to_numpy()
        table.loc[sel, "p_value_holm"] = holm(table.loc[sel, "p_value"])
        table.loc[sel, "p_above_holm"] = holm(table.loc[sel, "p_above"])
    return table, prefs


def sensitivity(img, settings, *, tie_tolerance: float = 1e-9, normaliser: str = "fixed") -> pd.DataFrame:
    """The measures' agreement on the decisive queries under several operationalisations, as one
    family of tests.

    ``settings`` is a sequence of ``(gain_map, threshold, cutoff)``. Returns one row per setting and
    measure (``gain map, threshold, cutoff, system, k, n, ties, chance, p_above``) with
    ``p_above_holm``: Holm's adjustment over *every* row (settings x measures), so that picking the
    best measure of the best setting is paid for.
    """
    rows = []
    for gm, th, cut in settings:
        t, _ = agreement_table(img, gain_map=gm, threshold=th, cutoff=int(cut), tie_tolerance=tie_tolerance,
                               normaliser=normaliser)
        d = t[(t.scope == "decisive") & (t.kind == "measure")]
        for r in d.itertuples():
            rows.append({"gain map": gm, "threshold": float(th), "cutoff": int(cut), "system": r.system, "k": r.k,
                         "n": r.n, "ties": r.ties, "chance": r.chance, "p_above": r.p_above})
    out = pd.DataFrame(rows)
    out["p_above_holm"] = holm(out["p_above"])
    return out
