"""Notebook 05's replicated studies: the planted-truth experiment and its plumbing.

Zeng & Sakai compare every measure's preferences with 15 assessors' SERP preferences through the
mean agreement rate (MAR, :mod:`helpers.preference`). On simulated assessors the order of the
measures is whatever the planted users make it, so the simulation asks a question about the
*method* instead: when a panel of assessors follows one planted user model
(:mod:`helpers.simulate.users`), does MAR single out the measures of the family aligned with it?

* :func:`preference_recovery` -- one replicate: a fresh collection and pair sample, a panel per
  planted model, every measure's MAR, its own chance level and its *noise-free agreement* (its
  MAR against what the panel's assessors would say without noise: how close the measure is to
  the planted user, whatever the noise), and this one study's reading of the panel's family: is
  its best measure first, and significantly ahead (:mod:`helpers.preference.recovery`)?
* :func:`panels`, :func:`study_parameters`, :func:`start`, :func:`collect` -- the replicates on
  dask, started early and collected when the notebook needs them
  (:func:`helpers.replicates.runner.run_replicates`, seeds from one ``SeedSequence(seed)``);
* :func:`above_own_chance` -- the null panel's check: MAR minus each measure's own chance level;
* :func:`noise_free_leaders` -- per panel, the measures closest to the planted user and how well
  the MAR order follows the noise-free order (Spearman's rank correlation of the means);
* :func:`dsharp_irec_disagreement` -- how often D#-RBP and I-rec prefer different SERPs.

:mod:`helpers.replicates.studies` re-exports the functions that lived there before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import preference
from ..measures import diversity
from ..preference.recovery import single_study
from . import runner

__all__ = ["preference_recovery", "study_families", "single_study_measures", "judge", "panels", "study_parameters", "start", "collect", "above_own_chance",
           "noise_free_leaders", "dsharp_irec_disagreement", "smallest_gap"]

#: The panels whose cross-fitted best/median/worst assessors are reported (the others' cost time only).
ROLE_PANELS = ("null", "mixture")


def _relevant(dqrels: pd.DataFrame) -> pd.DataFrame:
    """The relevant rows of intentwise qrels (a judged L0 row changes no diversity measure)."""
    return dqrels[dqrels["relevance"] > 0]


def _score_cube(scores: pd.DataFrame, measures: Sequence[str]) -> tuple[np.ndarray, list, list]:
    """:func:`helpers.measures.diversity.evaluate`'s tidy output (runs sorted x topics sorted x
    ``measures`` in order, its documented row order) as a (runs, topics, measures) array, with the
    run and topic ids."""
    Q = len(measures)
    runs = list(pd.unique(scores["run_id"].to_numpy(object)))
    topics = list(pd.unique(scores["query_id"].to_numpy(object)))
    if len(scores) != len(runs) * len(topics) * Q or list(scores["measure"].iloc[:Q]) != list(measures):
        raise ValueError("scores are not evaluate()'s complete runs x topics x measures table")
    return scores["value"].to_numpy(float).reshape(len(runs), len(topics), Q), runs, topics


def _pairs_and_preferences(rng, coll, *, cutoff, min_difference, n_pairs, measures, tie_tolerance, normaliser):
    """The filtered, sampled pairs of a simulated collection and every measure's preference on them."""
    names = dict(measures)
    irec = f"I-rec@{cutoff}"
    engine = list(dict.fromkeys([*names.values(), irec]))
    scores = diversity.evaluate(_relevant(coll.dqrels), coll.intents, coll.runs, engine, normaliser=normaliser)
    S, run_ids, topic_ids = _score_cube(scores, engine)                        # (runs, topics, measures)
    rel = (coll.arrays["levels"][:, :, :int(cutoff)] > 0).any(-1).sum(-1) / int(cutoff)   # precision, (R, T)
    if list(coll.arrays["run_ids"]) != run_ids or list(coll.arrays["topic_ids"]) != topic_ids:
        raise AssertionError("evaluate's run/topic order differs from the collection's")
    summaries = pd.DataFrame({"run_id": np.repeat(run_ids, len(topic_ids)), "query_id": np.tile(topic_ids, len(run_ids)),
                              "precision": rel.reshape(-1), "intent_recall": S[:, :, engine.index(irec)].reshape(-1)})
    pairs = preference.sample_pairs(summaries, rng, min_difference=min_difference, target=n_pairs)
    rpos, tpos = {r: k for k, r in enumerate(run_ids)}, {q: k for k, q in enumerate(topic_ids)}
    tq = pairs["query_id"].map(tpos).to_numpy(np.int64)
    cols = [engine.index(v) for v in names.values()]
    sides = [pd.DataFrame(S[pairs[c].map(rpos).to_numpy(np.int64), tq][:, cols], columns=list(names),
                          index=pd.Index(pairs["pair_id"], name="pair_id")) for c in ("run_left", "run_right")]
    return pairs, preference.measure_preferences(*sides, tie_tolerance=tie_tolerance)


def _single_rows(row, question: str, label: str, rates: pd.DataFrame, on: pd.DataFrame, topic_of: pd.Series,
                 significance: float, twins) -> list[dict]:
    """The single-study reading of a panel with an aligned family
    (:func:`helpers.preference.recovery.single_study`): ``quantity = "single"``, names ``first``,
    ``ahead`` (1 or 0), ``own``, ``own_ahead``, ``lead``, ``q``, ``family``, ``measures`` (distinct ones) and ``compared`` (all).

    Families as notebook 04 reads them (:data:`helpers.simulate.users.BY_DEFINITION`: EBR with ERR's
    stopping; half members in both families, :func:`study_families`): every measure compared; ``own``
    is 1 when the family's best is one of its own members (:func:`study_families`) and first,
    ``own_ahead`` when it is also significantly ahead."""
    from ..simulate import users

    if not users.BY_DEFINITION.get(label, ("", ()))[1]:
        return []
    keep, family, own = single_study_measures(label, rates)
    s = single_study(rates[keep], on[keep], topic_of, family, significance, groups=twins, prefer=own)
    if s is None:
        return []
    s["own"] = bool(s["first"] and s["best_in"] in set(own))   # the family's best is an own member, and first
    s["own_ahead"] = bool(s["ahead"] and s["own"])              # ... and significantly ahead
    s["compared"] = len(keep)                                   # every measure, identical ones under one name
    return [row(question, "single", k, float(s[k]))
            for k in ("first", "ahead", "own", "own_ahead", "lead", "q", "family", "measures", "compared")]


def study_families(model: str, measures: Sequence[str], values: pd.DataFrame | None = None) -> tuple[list[str], list[str]]:
    """Notebook 05's family of ``model`` among ``measures`` and its *own* members. Every measure is
    compared with the family; none is left out.

    The family: the whole members (:data:`helpers.simulate.users.BY_DEFINITION`), the half members
    (``gamma I-rec + (1 - gamma) X``, :func:`helpers.simulate.users.partial_members`: a D#-, DIN#- or
    P+Q#-measure belongs to coverage through its I-rec half *and* to the family of its ``X``), and,
    when ``values`` (rows x measures) is given, every other measure equal to a member in every row
    at 12 digits (the same measure on this data, e.g. D#-RBP (p = 0.99) and I-rec). So coverage's
    family is "a measure containing I-rec" and a D#-measure counts in two families.

    The own members: the family's members that belong to no other model's family by the same rule
    (for coverage I-rec, strec, alpha-nDCG; RBU and iRBU are shared by position and first-hit).
    Column order is kept."""
    from ..simulate import users

    fams = users.BY_DEFINITION

    def by_rule(m: str) -> set[str]:
        if not fams.get(m, ("", ()))[1]:
            return set()
        whole = {x for x in measures if users.aligned_family(m, x, families=fams)}
        return whole | set(users.partial_members(m, measures, families=fams))

    family = by_rule(model)
    if values is not None and family:
        cols = {x: np.round(values[x].to_numpy(float), 12) for x in measures if x in values.columns}
        family |= {x for x in cols if x not in family and any(
            np.array_equal(cols[x], cols[f], equal_nan=True) for f in family if f in cols)}
    others = set().union(*(by_rule(o) for o in fams if o != model))
    return [x for x in measures if x in family], [x for x in measures if x in family and x not in others]


def single_study_measures(model: str, rates: pd.DataFrame) -> tuple[list[str], list[str], list[str]]:
    """The measures (columns of ``rates``, pairs x measures) a single-study reading of ``model``'s
    family compares -- every one -- the family among them and its own members (:func:`study_families`,
    identical measures found on ``rates``)."""
    cols = list(rates.columns)
    family, own = study_families(model, cols, rates)
    return cols, family, own


def _panel_rows(label: str, judged, prefs: pd.DataFrame, topic_of: pd.Series, child, roles: bool,
                significance: float = 0.05, twins=None) -> list[dict]:
    """The rows of one panel: per question every measure's MAR, own chance level and noise-free
    agreement, the single-study reading of the panel's family (:func:`_single_rows`), the
    cross-fitted roles (``roles``) and the alpha the panel reached."""
    from ..simulate.preferences import nominal_alpha, noise_free_labels

    rows = []
    row = lambda q, quantity, name, value: {"model": label, "question": q, "quantity": quantity,  # noqa: E731
                                             "name": name, "value": float(value)}
    for question, labels in (("relevance", judged.relevance), ("diversity", judged.diversity)):
        on = prefs.loc[labels.index]
        rates = preference.agreement_rates(on, labels)
        mar = preference.mean_agreement_rate(rates)
        rows += [row(question, "mar", m, v) for m, v in mar.items()]
        rows += _single_rows(row, question, label, rates, on, topic_of, significance, twins)
        rows += [row(question, "chance", m, v) for m, v in preference.chance_levels(on, labels).items()]
        if (judged.assessors["model"] != "null").any():   # a null panel prefers nothing: no noise-free agreement
            clean = noise_free_labels(judged, question)
            free = preference.mean_agreement_rate(preference.agreement_rates(on, clean))
            rows += [row(question, "noise-free", m, v) for m, v in free.items()]
        if roles:
            r = preference.cross_fitted_roles(labels, labels, topic_of, child)
            rows += [row(question, "mar", f"{k} assessor", v) for k, v in r["mar"].items()]
        rows.append(row(question, "alpha", "", nominal_alpha(preference.label_codes(labels))))
    return rows


def preference_recovery(rng: np.random.Generator, *, n_topics: int, n_runs: int, n_pairs: int, n_assessors: int,
                        cutoff: int, min_difference: float, alpha_target: tuple[float, float], p_equal: float,
                        measures: Mapping[str, str], tie_tolerance: float, models: Mapping[str, str],
                        normaliser: str | None = "fixed", roles_for: Sequence[str] | None = None,
                        significance: float = 0.05) -> pd.DataFrame:
    """Notebook 05's planted-truth experiment, one replicate: a fresh collection and pair sample,
    then, for every planted user model, a fresh panel of assessors of that model judging the same
    pairs, and every measure's MAR against them.

    The measures' preferences are computed once per replicate; each model's panel
    (:func:`helpers.simulate.preferences.preference_judgments` with ``user_models`` = the model's
    mixture, e.g. ``"coverage:1"``, calibrated to the same ``alpha_target``) draws from its own
    generator spawned from ``rng``, so the models are compared on the same collection and pairs.
    The best/median/worst assessors are cross-fitted over topics
    (:func:`helpers.preference.cross_fitted_roles`).

    Parameters
    ----------
    models : mapping label -> mixture
        E.g. ``{"coverage": "coverage:1", "mixture": "position:0.4,coverage:0.3,first-hit:0.3"}``.
    roles_for : sequence of labels, optional
        The panels whose cross-fitted best/median/worst assessors are reported (default: all).
    significance : float
        Familywise level of the single-study test (:mod:`helpers.preference.recovery`).
    normaliser : {"ideal", "fixed"}
        The gmax of the ERR/EBR/RBP/RBU-type measures (:func:`helpers.measures.diversity.evaluate`).
    Others
        As for :func:`helpers.simulate.intents.intent_collection` (``keep = cutoff``),
        :func:`helpers.preference.sample_pairs` and
        :func:`~helpers.simulate.preferences.preference_judgments`; ``measures`` maps display
        names to engine names (``{"D#-nDCG": "D#-nDCG@10"}``).

    Returns
    -------
    DataFrame ``model, question, quantity, name, value``: ``quantity = "mar"`` for every measure
    and, for the panels of ``roles_for``, the cross-fitted ``best/median/worst assessor`` (``name``);
    ``"chance"`` for every measure: its own chance level against that panel's labels in this
    replicate (:func:`helpers.preference.chance_levels`: a measure that says EQUAL on some pairs
    has a lower one than one that never does), so that a null panel's MAR can be compared with it
    replicate by replicate; ``"noise-free"`` for every measure of a panel that is not all ``null``:
    its MAR against the labels the panel's assessors would give without noise
    (:func:`helpers.simulate.preferences.noise_free_labels`); ``"single"`` for every panel whose
    model has an aligned family: this one study's reading of it
    (:func:`helpers.preference.recovery.single_study`; names ``first`` and ``ahead``, 1 or 0,
    ``lead``, the studentized range statistic ``q``, and the distinct ``family`` members and
    ``measures``); ``"alpha"`` (name ``""``) the
    Krippendorff's alpha the panel reached (a target out of reach is used as reached, not
    warned about here: the notebook prints it).
    """
    import warnings

    from ..simulate import intent_collection
    from ..simulate.preferences import preference_judgments, serp_levels

    coll = intent_collection(rng, n_topics=n_topics, n_runs=n_runs, keep=int(cutoff))
    pairs, prefs = _pairs_and_preferences(rng, coll, cutoff=cutoff, min_difference=min_difference, n_pairs=n_pairs,
                                          measures=measures, tie_tolerance=tie_tolerance, normaliser=normaliser)
    levels = serp_levels(coll, pairs, int(cutoff))
    topic_of = pairs.set_index("pair_id")["query_id"]
    twins = preference.identical_preferences(prefs)   # the same for every panel: the measures' preferences
    rows = []
    for (label, mix), child in zip(models.items(), rng.spawn(len(models))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)   # an unreachable alpha is reported by the notebook
            judged = preference_judgments(child, coll, pairs, n_assessors=n_assessors, cutoff=int(cutoff),
                                          alpha_target=tuple(alpha_target), p_equal=p_equal, user_models=mix,
                                          levels=levels)
        rows += _panel_rows(label, judged, prefs, topic_of, child, roles_for is None or label in roles_for,
                            significance, twins)
    return pd.DataFrame(rows)


def judge(rng: np.random.Generator, collection, pairs: pd.DataFrame, **kwargs):
    """:func:`helpers.simulate.preferences.preference_judgments` for a notebook cell: returns
    ``(judged, notes)``, the notes being the messages of the ``UserWarning`` an unreachable alpha
    target raises, to be *printed* by the cell (a warning would go to stderr, labelled with the
    kernel's temporary file of the cell; nbval compares stderr). Other warnings pass unchanged."""
    import warnings

    from ..simulate.preferences import preference_judgments

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        judged = preference_judgments(rng, collection, pairs, **kwargs)
    notes = []
    for w in caught:
        if issubclass(w.category, UserWarning) and "is out of reach" in str(w.message):
            notes.append(str(w.message))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return judged, notes


def panels(planted: Sequence[str], mixture: str) -> dict[str, str]:
    """The panels of the planted-truth experiment: one per planted model (``"coverage:1"``), and
    ``"mixture"``, the mixture of the notebook's main assessors."""
    out = {m: f"{m}:1" for m in planted}
    out["mixture"] = mixture
    return out


def study_parameters(*, panel_models: Mapping[str, str], measures: Mapping[str, str], n_topics: int, n_runs: int,
                     n_pairs: int, n_assessors: int, cutoff: int, min_difference: float,
                     alpha_target: tuple[float, float], p_equal: float, tie_tolerance: float,
                     normaliser: str, significance: float = 0.05) -> dict:
    """The keyword arguments every replicate of :func:`preference_recovery` shares."""
    return {"n_topics": n_topics, "n_runs": n_runs, "n_pairs": n_pairs, "n_assessors": n_assessors,
            "cutoff": cutoff, "min_difference": min_difference, "alpha_target": tuple(alpha_target),
            "p_equal": p_equal, "measures": dict(measures), "tie_tolerance": tie_tolerance, "normaliser": normaliser,
            "models": dict(panel_models), "roles_for": [m for m in ROLE_PANELS if m in panel_models],
            "significance": significance}


def start(common: Mapping, replicates: int, seed: int, scheduler: str):
    """Start the replicates on dask in a background thread and return the future (``None`` when
    they are to run in the notebook's own process: fewer than 2 replicates or scheduler
    ``"serial"``). Every replicate is seeded from ``seed``, so the result does not depend on when
    or where it ran."""
    from concurrent.futures import ThreadPoolExecutor

    if replicates < 2 or scheduler == "serial":
        return None
    pool = ThreadPoolExecutor(max_workers=1)
    job = pool.submit(runner.run_replicates, preference_recovery, replicates, seed, common=dict(common),
                      scheduler=scheduler, progress=False)
    pool.shutdown(wait=False)   # returns at once; the job runs on
    return job


def collect(job, common: Mapping, replicates: int, seed: int, progress: bool = False) -> pd.DataFrame:
    """The replicates' tidy frame: the result of :func:`start`'s job, or the replicates run here
    (serially) when there is none."""
    if job is not None:
        return job.result()
    return runner.run_replicates(preference_recovery, replicates, seed, common=dict(common), scheduler=None,
                                 progress=progress)


def noise_free_leaders(rep: pd.DataFrame, measures: Sequence[str], digits: int = 3) -> pd.DataFrame:
    """Per panel and question: the measures with the highest mean noise-free agreement (tied at
    ``digits`` decimals), that agreement, and Spearman's rank correlation over the measures between
    their mean MAR and their mean noise-free agreement (``rho``): 1 when MAR orders the measures
    exactly as their closeness to the planted user does.

    Returns a DataFrame ``model, question, closest`` (list of names), ``agreement``, ``rho``,
    ``measures``, ``agreements`` (measure -> mean noise-free agreement); empty when ``rep`` holds no
    noise-free rows."""
    from scipy.stats import spearmanr

    keep = rep["name"].isin(list(measures))
    means = (rep[keep & rep["quantity"].isin(["mar", "noise-free"])]
             .groupby(["model", "question", "quantity", "name"], sort=False)["value"].mean().unstack("quantity"))
    rows = []
    if "noise-free" not in means.columns:
        return pd.DataFrame(columns=["model", "question", "closest", "agreement", "rho", "measures", "agreements"])
    for (model, question), g in means.dropna(subset=["noise-free"]).groupby(level=["model", "question"], sort=False):
        free = g["noise-free"].droplevel(["model", "question"])
        top = free.max()
        closest = [m for m in free.index if f"{free[m]:.{digits}f}" == f"{top:.{digits}f}"]
        rho = spearmanr(g["mar"].to_numpy(float), free.to_numpy(float)).statistic if len(free) > 2 else float("nan")
        rows.append({"model": model, "question": question, "closest": closest, "agreement": float(top),
                     "rho": float(rho), "measures": len(free), "agreements": free.to_dict()})
    return pd.DataFrame(rows)


def dsharp_irec_disagreement(rng: np.random.Generator, *, cutoff: int, min_difference: float,
                             ps: Sequence[float] = (0.85, 0.99), normalisers: Sequence[str] = ("fixed", "ideal"),
                             collection=None, **collection_kw) -> pd.DataFrame:
    """On how many filtered SERP pairs D#-RBP(p) and I-rec prefer different SERPs (notebook 05,
    Zeng & Sakai Table 2: D#-RBP (p = 0.85) 0.7439 vs I-rec 0.7330, D#-RBP (p = 0.99) = I-rec).

    D#-RBP = I-rec/2 + D-RBP/2 can overturn an I-rec difference of at least ``min_difference`` only
    through a D-RBP difference larger than it (:func:`helpers.preference.dsharp_irec_bound`), so
    the answer depends on the normaliser *and* on how much global gain the SERPs carry. The pairs
    are those of the paper's filter on ``collection`` (default: a fresh
    :func:`~helpers.simulate.intents.intent_collection` with ``collection_kw``, e.g. more highly
    relevant documents). Returns ``normaliser, p, pairs, disagree`` (share of pairs) and
    ``max_d_rbp_diff`` (the largest |D-RBP difference| over the pairs).
    """
    from ..simulate.intents import intent_collection

    coll = collection if collection is not None else intent_collection(rng, keep=int(cutoff), **collection_kw)
    names = [f"I-rec@{cutoff}"] + [f"{k}-RBP(p={p})@{cutoff}" for p in ps for k in ("D", "D#")]
    pairs = None
    rows = []
    for norm in normalisers:
        sc = diversity.evaluate(_relevant(coll.dqrels), coll.intents, coll.runs, names, normaliser=norm)
        if pairs is None:
            summ = preference.serp_summaries(coll.dqrels, coll.intents, coll.runs, int(cutoff), scores=sc)
            pairs = preference.sample_pairs(summ, rng, min_difference=min_difference, target=None)
        left, right = preference.pair_scores(sc, pairs)
        d = left - right
        irec = np.sign(d[names[0]].round(12))
        for p in ps:
            ds = np.sign(d[f"D#-RBP(p={p})@{cutoff}"].round(12))
            rows.append({"normaliser": norm, "p": p, "pairs": len(pairs), "disagree": float((ds != irec).mean()),
                         "max_d_rbp_diff": float(d[f"D-RBP(p={p})@{cutoff}"].abs().max())})
    return pd.DataFrame(rows)


def smallest_gap(left: pd.DataFrame, right: pd.DataFrame, measure: str = "I-rec", tie_tolerance: float = 1e-9) -> float:
    """The smallest ``|left - right|`` of ``measure`` over the pairs, a gap of at most ``tie_tolerance``
    counted as 0: what :func:`helpers.preference.dsharp_irec_bound` must compare with ``1 - p^l``.
    I-rec moves in steps of 1/N (N intents of a topic), so on pairs kept by the paper's filter this
    can exceed ``min_difference``: with at most 10 intents and a filter of 0.05 it is still 0.1."""
    if measure not in left.columns or measure not in right.columns:
        raise ValueError(f"left and right need a column {measure!r}, got {list(left.columns)}")
    if not len(left):
        raise ValueError("no pairs: the smallest gap needs at least one pair")
    gap = (left[measure] - right[measure]).abs()
    return float(gap.where(gap > tie_tolerance, 0.0).min())


def above_own_chance(rep: pd.DataFrame, model: str = "null", level: float = 0.95) -> pd.DataFrame:
    """Notebook 05's null-assessor check: every measure's MAR minus its *own* chance level, over
    the replicates of :func:`preference_recovery`.

    A measure that says EQUAL on a share ``t`` of the pairs has the chance level
    ``t e + (1 - t)(1 - e) / 2`` (:func:`helpers.preference.chance_levels`), not the never-EQUAL
    ``(1 - e) / 2``; both move from replicate to replicate, so the difference is taken replicate by
    replicate; ``low``/``high`` are the ``level`` confidence interval of its *mean* over the independent
    replicates (Student's t), so ``includes_chance`` asks whether the measure sits at chance on average.

    Returns
    -------
    DataFrame ``question, system, mean, low, high, sd, replicates, interval`` (of MAR - chance),
    ``chance`` (its mean over replicates) and ``includes_chance`` (``low <= 0 <= high``), one row
    per question and measure of ``model``'s panel.
    """
    from .planted import mean_interval

    keys = ["replicate", "model", "question", "name"]
    need = set(keys) | {"quantity", "value"}
    if not need <= set(rep.columns):
        raise ValueError(f"rep needs columns {sorted(need)} (preference_recovery over replicates), got {list(rep.columns)}")
    mar = rep[(rep.quantity == "mar") & (rep.model == model)]
    chance = rep[(rep.quantity == "chance") & (rep.model == model)]
    if chance.empty:
        raise ValueError(f"rep holds no 'chance' rows for panel {model!r}")
    both = mar.merge(chance, on=keys, suffixes=("", "_chance"))   # the measures (assessor roles have no chance row)
    both = both.assign(diff=both["value"] - both["value_chance"])
    rows = []
    for (q, x), g in both.groupby(["question", "name"], sort=False):
        d = g["diff"].dropna().to_numpy(float)
        lo, hi, kind = mean_interval(d, level)
        rows.append({"question": q, "name": x, "mean": float(d.mean()), "low": lo, "high": hi,
                     "sd": float(d.std(ddof=1)) if len(d) > 1 else float("nan"), "replicates": len(d), "interval": kind,
                     "chance": float(g["value_chance"].mean())})
    out = pd.DataFrame(rows)
    out["includes_chance"] = (out["low"] <= 0) & (out["high"] >= 0)
    return out.rename(columns={"name": "system"})
