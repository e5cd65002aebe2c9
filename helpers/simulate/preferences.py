"""Simulated SERP-pair preference judgements (stand-in for Zeng & Sakai's 1,127 x 15 labels).

The real labels (NTCIR-9 INTENT Japanese runs, 15 assessors, a relevance and a diversity
question per SERP pair) are not public. :func:`preference_judgments` simulates them over the
intent collection of :func:`helpers.simulate.intent_collection` and the pairs of
:func:`helpers.preference.sample_pairs`, with a documented assessor model that is calibrated so
that Krippendorff's alpha (nominal, three labels) lands on the paper's values: 0.406 for
relevance and 0.356 for diversity.

Assessor model
--------------
SERP ``s`` of a pair is the run's top ``cutoff`` (10) documents; ``x_i(r)`` is the intentwise level
of the document at rank ``r`` for intent ``i`` on a linear 0-1 scale (L0-L4 -> 0, 1/4, ..., 1;
unjudged = 0). The linear scale, the personal weights and the user models below are chosen so that
no engine measure's formula is the generating utility (the engine uses ``2^x - 1`` gains,
``Pr(i|q)`` and its own discounts; ``tests/test_simulate_preferences.py`` checks that no measure is
identical or rank-equivalent to any user model on the simulated SERPs).

Interpretation
    Every assessor ``a`` reads topic ``q`` with personal intent weights
    ``w_aq ~ Dirichlet(kappa * Pr(.|q))`` (``kappa`` = ``interpretation_concentration``): the
    mean is the topic's intent distribution, and smaller ``kappa`` means assessors disagree more
    on what the query is about.
User models (one per assessor, drawn from the mixture ``user_models``)
    The planted user models of :mod:`helpers.simulate.users`, each aligned with one measure
    family or with none: ``position`` (RBP-like), ``graded`` (intent-weighted graded),
    ``coverage`` (uniform-intent coverage: intents weighted ``1/m``, not by ``w``), ``first-hit``
    (ERR-like) and ``null`` (the SERPs' documents do not matter: only the per-pair effect below
    decides). Each gives the utility ``u_i(s)`` of the SERP for a user with intent ``i``; the
    persistence of ``position`` and ``first-hit`` is the assessor's ``p_a ~ Uniform(0.7, 0.95)``.

    The mixture (e.g. ``"position:0.4,coverage:0.3,first-hit:0.3"``) fixes the *share* of
    assessors of each model: counts by the largest-remainder rule, models assigned to assessors in
    random order. ``assessors`` reports every assessor's model and persistence. A pure mixture
    (``"coverage:1"``) plants one model: notebook 05's planted-truth experiment
    (:func:`helpers.replicates.studies.preference_recovery`).
Relevance question ("overall, which SERP is more relevant?")
    ``U_rel = sum_i w~_aqi u_i`` with the weights sharpened towards the assessor's own reading,
    ``w~ ∝ w^3``: relevance is judged for the interpretation the assessor has in mind
    (``coverage``: uniform weights, for both questions).
Diversity question ("which SERP satisfies more of the users who might have issued the query?")
    ``U_div = sum_i w_aqi u_i``: the same user model averaged over the assessor's idea of the
    population of intents.
Noisy comparison
    ``y = (U(left) - U(right)) / scale_a + pair_effect * v_p + sigma * m_a * e_pa`` where
    ``scale_a`` is the standard deviation over pairs of assessor ``a``'s utility difference (so
    every user model's signal is in the same units and ``sigma`` is in units of the signal; a
    ``null`` assessor's utility difference is 0 and contributes nothing); ``v_p`` is a per-pair term that every assessor sees
    but no qrels-based measure does (snippets, layout, page quality: what makes real assessors
    agree with each other beyond the qrels); ``m_a = exp(assessor_spread * N(0, 1))`` makes some
    assessors noisier than others (best/median/worst assessors); ``e_pa`` is standard normal.
    Both ``v`` and ``e`` are drawn as ``rho * shared + sqrt(1 - rho^2) * own`` with a component
    shared by the two questions, ``rho`` = ``question_correlation``.
EQUAL below a threshold
    The label is ``EQUAL`` if ``|y| < tau * t_a`` with ``t_a = exp(equal_spread * N(0, 1))`` (some
    assessors say EQUAL more readily), else ``LEFT`` if ``y > 0`` and ``RIGHT`` otherwise.
Calibration
    For each question, ``tau`` is set so that a share ``p_equal`` of all labels is ``EQUAL`` and
    ``sigma`` is found by bisection on ``log sigma`` (all random draws held fixed, so alpha is a
    smooth, decreasing function of ``sigma``) until alpha equals the target within ``alpha_tol``;
    with few labels alpha moves in steps (one label flips at a time) and the closest value the
    bisection reaches is used: ``calibration`` reports the alpha reached beside the target. Pass ``alpha_target=None`` to use ``sigma`` as given instead. If a target is above
    what even noise-free assessors reach (disagreement from the interpretations alone, typical of
    few assessors or pairs), a ``UserWarning`` says so and the noise-free labels are used; the
    alpha they reach is returned like any other.

What the model does not claim: the share of EQUAL labels in the paper is not reported in the
text available here; ``p_equal`` = 0.1 is an assumption, as are the utility forms. The paper's
assessor MARs (about 0.71 for the median assessor at alpha = 0.41) imply a chance agreement near
0.5, i.e. unbalanced LEFT/RIGHT labels or many EQUALs; with sides randomised as here, chance
agreement is lower and every MAR comes out lower than in the paper: compare orderings and gaps,
not levels. Which
measure agrees best with the simulated assessors depends on the mixture of user models: measures
closer to the dominant model agree more (notebook 05's planted-truth experiment measures it); the
simulation can show how the analysis works and how noisy it is, not which measure real users prefer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import warnings

import numpy as np
import pandas as pd

from . import users
from .users import (COVERAGE_C, DEFAULT_MIXTURE, FIRST_HIT_LEVEL, PERSISTENCE, USER_MODELS,
                                    parse_mixture)

__all__ = ["PreferenceJudgments", "preference_judgments", "noise_free_labels", "serp_levels", "nominal_alpha", "parse_mixture",
           "user_utility", "USER_MODELS", "DEFAULT_MIXTURE", "COVERAGE_C", "FIRST_HIT_LEVEL", "PERSISTENCE"]

QUESTIONS = ("relevance", "diversity")
RELEVANCE_SHARPEN = 3.0   # relevance question: weights w^3 (the assessor's own reading)


def user_utility(levels: np.ndarray, model: str, persistence: float | np.ndarray = 0.85) -> np.ndarray:
    """Per-intent utility ``u_i`` of SERPs for one user model: :func:`helpers.simulate.users.intent_utility`."""
    return users.intent_utility(levels, model, persistence)


def _quota(mixture: dict[str, float], n: int) -> list[str]:
    """Largest-remainder allocation of ``n`` assessors to the models of ``mixture``."""
    names = list(mixture)
    exact = np.array([mixture[k] * n for k in names])
    counts = np.floor(exact).astype(int)
    rest = n - counts.sum()
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:rest]] += 1
    return [k for k, c in zip(names, counts) for _ in range(c)]


@dataclass(frozen=True)
class PreferenceJudgments:
    """Simulated labels.

    Attributes
    ----------
    relevance, diversity : DataFrame
        Pairs (index ``pair_id``) x assessors (``A01..A15``), labels ``LEFT``/``RIGHT``/``EQUAL``.
    assessors : DataFrame
        Per assessor: user ``model``, ``persistence`` (``p_a``), ``noise`` (``m_a``) and
        ``equal_proneness`` (``t_a``).
    calibration : DataFrame
        Per question: ``sigma``, ``tau``, ``alpha`` (reached), ``alpha_target``, ``p_equal`` (reached).
    params : dict
        The arguments of the simulation.
    utility_difference : dict
        Per question, the ``(pairs, assessors)`` array ``U(left) - U(right)`` of every assessor's
        utilities before noise, the per-pair effect and the EQUAL threshold: what a noise-free
        assessor of the same user model would prefer (:func:`noise_free_labels`).
    """

    relevance: pd.DataFrame
    diversity: pd.DataFrame
    assessors: pd.DataFrame
    calibration: pd.DataFrame
    params: dict = field(default_factory=dict)
    utility_difference: dict = field(default_factory=dict)


def nominal_alpha(codes: np.ndarray, n_categories: int = 3) -> float:
    """Krippendorff's alpha, nominal level, for integer codes (units x coders, -1 = missing).

    Closed form on the value counts ``n_uc`` of each unit (Krippendorff 2011): with
    ``o_cc = sum_u n_uc (n_uc - 1) / (n_u - 1)`` over pairable units (``n_u >= 2``), ``n`` the
    number of pairable values and ``n_c`` their category totals,
    ``alpha = 1 - (n - 1) (n - sum_c o_cc) / (n^2 - sum_c n_c^2)``. Used inside the calibration
    loop because it is vectorised; equals :func:`helpers.stats.krippendorff_alpha` (tested).
    """
    codes = np.asarray(codes)
    counts = np.stack([(codes == c).sum(axis=1) for c in range(n_categories)], axis=1).astype(float)
    nu = counts.sum(axis=1)
    ok = nu >= 2
    counts, nu = counts[ok], nu[ok]
    if counts.size == 0:
        raise ValueError("no unit has at least two values; alpha is undefined")
    n = nu.sum()
    occ = (counts * (counts - 1) / (nu - 1)[:, None]).sum()
    nc = counts.sum(axis=0)
    de = n * n - (nc * nc).sum()
    if de == 0:
        raise ValueError("alpha is undefined when every value is the same category")
    return float(1.0 - (n - 1) * (n - occ) / de)


def _check_pos(name, value, *, allow_zero=False):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not np.isfinite(value) \
            or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name} must be a {'non-negative' if allow_zero else 'positive'} number, got {value!r}")
    return float(value)


def _levels_from_arrays(collection, pairs: pd.DataFrame, cutoff: int):
    """:func:`serp_levels` from the arrays of a simulated collection (``IntentCollection.arrays``,
    holding at least ``cutoff`` ranks), or None when it has none."""
    a = getattr(collection, "arrays", None) or {}
    if "levels" not in a or a["levels"].shape[2] < cutoff:
        return None
    rpos = {r: k for k, r in enumerate(a["run_ids"])}
    tpos = {q: k for k, q in enumerate(a["topic_ids"])}
    tq = pairs["query_id"].map(tpos)
    sides = [pairs[c].map(rpos) for c in ("run_left", "run_right")]
    if tq.isna().any() or any(x.isna().any() for x in sides):
        raise ValueError("pairs name topics or runs absent from the collection")
    tq = tq.to_numpy(np.intp)
    lv = np.stack([a["levels"][x.to_numpy(np.intp), tq, :cutoff] for x in sides], axis=1) / 4.0   # (P, 2, l, M)
    return lv, tq, a["prob"], a["valid"]


def serp_levels(collection, pairs: pd.DataFrame, cutoff: int):
    """What the assessors see: ``(levels, tq, prob, valid)`` -- intentwise levels / 4 of both SERPs
    of every pair ``(P, 2, cutoff, M)`` (unjudged documents 0), each pair's topic index ``tq``, and
    the topics' intent probabilities and intent mask ``(T, M)``. Computed once, it can be passed
    to several :func:`preference_judgments` calls on the same pairs (``levels=``)."""
    fast = _levels_from_arrays(collection, pairs, cutoff)
    if fast is not None:
        return fast
    intents = collection.intents
    qids = np.array(sorted(intents["query_id"].unique()), dtype=object)
    qpos = {q: k for k, q in enumerate(qids)}
    it = intents.assign(_q=intents["query_id"].map(qpos))
    it["_i"] = it.groupby("_q").cumcount()
    M = int(it["_i"].max()) + 1
    prob = np.zeros((len(qids), M))
    prob[it["_q"].to_numpy(), it["_i"].to_numpy()] = it["prob"].to_numpy(float)
    valid = np.zeros((len(qids), M), dtype=bool)
    valid[it["_q"].to_numpy(), it["_i"].to_numpy()] = True
    ipos = dict(zip(zip(it["query_id"], it["intent_id"]), it["_i"]))

    dq = collection.dqrels
    dq = dq[dq["relevance"] > 0]
    docs = pd.Index(pd.MultiIndex.from_arrays([dq["query_id"], dq["doc_id"]]).unique())
    G = np.zeros((len(docs) + 1, M))  # last row: unjudged / padding
    d_idx = docs.get_indexer(pd.MultiIndex.from_arrays([dq["query_id"], dq["doc_id"]]))
    i_idx = np.array([ipos[k] for k in zip(dq["query_id"], dq["intent_id"])], dtype=int)
    G[d_idx, i_idx] = dq["relevance"].to_numpy(float) / 4.0

    runs = collection.runs
    top = runs[runs["rank"] <= cutoff]
    serp_key = pd.MultiIndex.from_arrays([top["run_id"], top["query_id"]])
    serps = pd.Index(serp_key.unique())
    S = np.full((len(serps), cutoff), len(docs), dtype=np.intp)
    rows = serps.get_indexer(serp_key)
    di = docs.get_indexer(pd.MultiIndex.from_arrays([top["query_id"], top["doc_id"]]))
    S[rows, top["rank"].to_numpy(int) - 1] = np.where(di >= 0, di, len(docs))

    sides = []
    for side in ("run_left", "run_right"):
        key = pd.MultiIndex.from_arrays([pairs[side], pairs["query_id"]])
        k = serps.get_indexer(key)
        if (k < 0).any():
            raise ValueError(f"pairs name {int((k < 0).sum())} SERP(s) absent from the collection's runs, "
                             f"e.g. {key[k < 0][:3].tolist()}")
        sides.append(G[S[k]])  # (P, cutoff, M)
    tq = np.array([qpos.get(q, -1) for q in pairs["query_id"]])
    if (tq < 0).any():
        raise ValueError("pairs name topics absent from the collection's intents")
    return np.stack(sides, axis=1), tq, prob, valid


def preference_judgments(
    rng: np.random.Generator,
    collection,
    pairs: pd.DataFrame,
    *,
    n_assessors: int = 15,
    cutoff: int = 10,
    alpha_target: tuple[float, float] | None = (0.406, 0.356),
    sigma: tuple[float, float] = (1.0, 1.0),
    p_equal: float = 0.1,
    interpretation_concentration: float = 20.0,
    user_models="position:0.4,coverage:0.3,first-hit:0.3",
    assessor_spread: float = 0.35,
    equal_spread: float = 0.5,
    question_correlation: float = 0.97,
    pair_effect: float = 0.4,
    alpha_tol: float = 1e-3,
    levels: tuple | None = None,
) -> PreferenceJudgments:
    """Simulate relevance and diversity preferences of ``n_assessors`` assessors on SERP pairs.

    See the module docstring for the model and the calibration.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    collection : helpers.simulate.intents.IntentCollection
        Topics, intents, intentwise qrels and runs.
    pairs : DataFrame
        ``pair_id, query_id, run_left, run_right`` (:func:`helpers.preference.sample_pairs`).
    n_assessors : int
        Assessors, each judging every pair (15 in the paper).
    cutoff : int
        SERP length.
    alpha_target : (float, float) or None
        Krippendorff's alpha to reach for (relevance, diversity); None = use ``sigma``.
    sigma : (float, float)
        Noise scale per question when ``alpha_target`` is None.
    p_equal : float in (0, 1)
        Share of EQUAL labels.
    interpretation_concentration : float
        ``kappa`` of the personal intent weights.
    user_models : str or dict
        Mixture of user models, ``"model:share,..."`` over :data:`USER_MODELS` (shares sum to 1).
    assessor_spread, equal_spread : float >= 0
        Log-scale spread of the assessors' noise and of their EQUAL thresholds.
    question_correlation : float in [0, 1]
        Correlation of the two questions' pair effects and of an assessor's errors on them.
    pair_effect : float >= 0
        Scale of the per-pair term shared by all assessors and invisible to the measures.
    alpha_tol : float
        Calibration tolerance on alpha.
    levels : tuple, optional
        :func:`serp_levels` of ``collection``, ``pairs`` and ``cutoff``, when already computed.

    Returns
    -------
    PreferenceJudgments
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    params = _checked_params(collection, pairs, n_assessors=n_assessors, cutoff=cutoff, alpha_target=alpha_target,
                             sigma=sigma, p_equal=p_equal, interpretation_concentration=interpretation_concentration,
                             user_models=user_models, assessor_spread=assessor_spread, equal_spread=equal_spread,
                             question_correlation=question_correlation, pair_effect=pair_effect, alpha_tol=alpha_tol)
    levels, tq, prob, valid = levels if levels is not None else serp_levels(collection, pairs, int(cutoff))
    P, A = len(pairs), params["n_assessors"]
    draws = _draw_assessors(rng, params, prob, valid, P)
    u_rel, u_div = _utilities(levels, tq, draws, valid)
    rho = params["question_correlation"]
    out, calib, deltas = {}, [], {}
    for q, (name, u) in enumerate(zip(QUESTIONS, (u_rel, u_div))):
        delta = u[:, 0, :] - u[:, 1, :]                                        # (P, A)
        deltas[name] = delta
        scale = np.std(delta, axis=0)                                          # per assessor
        null = draws["models"] == "null"
        if ((scale == 0) & ~null).any():
            raise ValueError(f"{name}: an assessor's user model sees the same utility on both sides of every "
                             "pair; nothing to prefer")
        signal = delta / np.where(null, 1.0, scale) + params["pair_effect"] * (rho * draws["v_shared"]
                                                          + np.sqrt(1 - rho * rho) * draws["v_q"][q])[:, None]
        err = draws["noise_mult"][None, :] * (rho * draws["z_shared"] + np.sqrt(1 - rho * rho) * draws["z_q"][q])
        labels = _Labels(signal, err, draws["equal_mult"], params["p_equal"])
        target = None if alpha_target is None else float(alpha_target[q])
        codes, s, tau, alpha = labels.calibrated(name, target, params["sigma"][q], params["alpha_tol"])
        out[name] = _label_frame(codes, pairs["pair_id"].to_numpy(), [f"A{k + 1:02d}" for k in range(A)])
        calib.append({"question": name, "sigma": s, "tau": tau, "alpha": alpha, "alpha_target": target,
                      "p_equal": float((codes == 2).mean())})
    assessors = pd.DataFrame({"assessor": [f"A{k + 1:02d}" for k in range(A)], "model": draws["models"].astype(str),
                              "persistence": draws["persistence"], "noise": draws["noise_mult"],
                              "equal_proneness": draws["equal_mult"]})
    return PreferenceJudgments(relevance=out["relevance"], diversity=out["diversity"], assessors=assessors,
                               calibration=pd.DataFrame(calib), params=params, utility_difference=deltas)


def noise_free_labels(judged: PreferenceJudgments, question: str) -> pd.DataFrame:
    """What every simulated assessor would say without noise: ``LEFT`` where their utility of the
    left SERP is higher, ``RIGHT`` where it is lower, ``EQUAL`` where the two are exactly equal
    (pairs x assessors, the layout of ``judged.relevance``).

    The labels of :func:`preference_judgments` add a per-pair effect, personal noise and an EQUAL
    threshold to the same utilities. A measure's mean agreement rate against these labels (its
    *noise-free agreement*) says how close its preferences are to the planted user model's own,
    whatever the noise: the ceiling against which its MAR on the noisy labels can be read. A
    ``null`` assessor's utilities are all equal, so every label is ``EQUAL``.
    """
    if question not in judged.utility_difference:
        raise ValueError(f"no utilities for question {question!r}; have {sorted(judged.utility_difference)}")
    delta = np.asarray(judged.utility_difference[question], dtype=float)
    frame = getattr(judged, question)
    codes = np.where(delta > 0, 0, np.where(delta < 0, 1, 2))
    return _label_frame(codes, frame.index.to_numpy(), list(frame.columns))


def _label_frame(codes: np.ndarray, pair_ids, columns) -> pd.DataFrame:
    """Pairs x assessors labels LEFT/RIGHT/EQUAL from codes 0/1/2, each column a categorical over
    those three labels (compares and prints like strings; :func:`helpers.preference.label_codes`
    reads the codes back without parsing strings)."""
    dtype = pd.CategoricalDtype(["LEFT", "RIGHT", "EQUAL"])
    codes = np.asarray(codes, dtype=np.int8)
    if codes.size and (codes.min() < 0 or codes.max() > 2):
        raise ValueError("label codes must be 0 (LEFT), 1 (RIGHT) or 2 (EQUAL)")
    return pd.DataFrame({c: pd.Categorical.from_codes(codes[:, j], dtype=dtype, validate=False)   # checked above
                         for j, c in enumerate(columns)}, index=pd.Index(pair_ids, name="pair_id"))


def _checked_params(collection, pairs, *, n_assessors, cutoff, alpha_target, sigma, p_equal,
                    interpretation_concentration, user_models, assessor_spread, equal_spread,
                    question_correlation, pair_effect, alpha_tol) -> dict:
    """The inputs of :func:`preference_judgments`, checked; the arguments as its ``params``."""
    for attr in ("intents", "dqrels", "runs"):
        if not hasattr(collection, attr):
            raise ValueError(f"collection must be an IntentCollection (no attribute {attr!r})")
    if not isinstance(pairs, pd.DataFrame) or len(pairs) == 0:
        raise ValueError("pairs must be a non-empty DataFrame (helpers.preference.sample_pairs)")
    need = {"pair_id", "query_id", "run_left", "run_right"} - set(pairs.columns)
    if need:
        raise ValueError(f"pairs lacks column(s) {sorted(need)}")
    if pairs["pair_id"].duplicated().any():
        raise ValueError("pairs has duplicate pair_id values")
    if isinstance(n_assessors, bool) or not isinstance(n_assessors, (int, np.integer)) or n_assessors < 2:
        raise ValueError(f"n_assessors must be an integer >= 2, got {n_assessors!r}")
    if isinstance(cutoff, bool) or not isinstance(cutoff, (int, np.integer)) or cutoff < 1:
        raise ValueError(f"cutoff must be a positive integer, got {cutoff!r}")
    if alpha_target is not None:
        if len(alpha_target) != 2 or not all(isinstance(a, (int, float)) and -1 < a < 1 for a in alpha_target):
            raise ValueError(f"alpha_target must be two numbers in (-1, 1) (relevance, diversity) or None, "
                             f"got {alpha_target!r}")
    if len(sigma) != 2:
        raise ValueError(f"sigma must be two positive numbers (relevance, diversity), got {sigma!r}")
    sigma = tuple(_check_pos("sigma", s) for s in sigma)
    if isinstance(p_equal, bool) or not isinstance(p_equal, (int, float)) or not 0 < p_equal < 1:
        raise ValueError(f"p_equal must lie strictly between 0 and 1, got {p_equal!r}")
    kappa = _check_pos("interpretation_concentration", interpretation_concentration)
    mixture = parse_mixture(user_models)
    assessor_spread = _check_pos("assessor_spread", assessor_spread, allow_zero=True)
    equal_spread = _check_pos("equal_spread", equal_spread, allow_zero=True)
    if not isinstance(question_correlation, (int, float)) or not 0 <= question_correlation <= 1:
        raise ValueError(f"question_correlation must lie in [0, 1], got {question_correlation!r}")
    pair_effect = _check_pos("pair_effect", pair_effect, allow_zero=True)
    alpha_tol = _check_pos("alpha_tol", alpha_tol)
    return dict(n_assessors=int(n_assessors), cutoff=int(cutoff), alpha_target=alpha_target, sigma=sigma,
                p_equal=float(p_equal), interpretation_concentration=kappa, user_models=mixture,
                assessor_spread=assessor_spread, equal_spread=equal_spread,
                question_correlation=float(question_correlation), pair_effect=pair_effect, alpha_tol=alpha_tol)


def _draw_assessors(rng: np.random.Generator, params: dict, prob: np.ndarray, valid: np.ndarray, P: int) -> dict:
    """Everything random about the assessors, drawn in a fixed order: personal intent weights,
    noise and EQUAL proneness, the shared and per-question error terms, user models, persistence."""
    A, kappa = params["n_assessors"], params["interpretation_concentration"]
    T, M = prob.shape
    # personal intent weights per assessor x topic (Dirichlet via normalised gammas)
    shape = np.where(valid, np.maximum(kappa * prob, 1e-3), 1.0)
    gam = rng.gamma(np.broadcast_to(shape, (A, T, M))) * valid
    out = {"w": gam / gam.sum(axis=2, keepdims=True)}                          # (A, T, M)
    out["noise_mult"] = np.exp(params["assessor_spread"] * rng.standard_normal(A))
    out["equal_mult"] = np.exp(params["equal_spread"] * rng.standard_normal(A))
    out["z_shared"] = rng.standard_normal((P, A))
    out["z_q"] = rng.standard_normal((2, P, A))
    out["v_shared"] = rng.standard_normal(P)
    out["v_q"] = rng.standard_normal((2, P))
    out["models"] = np.array(_quota(params["user_models"], A), dtype=object)[rng.permutation(A)]
    out["persistence"] = rng.uniform(*PERSISTENCE, size=A)
    return out


def _utilities(levels: np.ndarray, tq: np.ndarray, draws: dict, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each assessor's utility of each side of each pair under the relevance question (sharpened
    intent weights) and the diversity question (their own weights): ``(P, 2, A)`` each."""
    w, models, persistence = draws["w"], draws["models"], draws["persistence"]
    P, A, M = levels.shape[0], w.shape[0], w.shape[2]
    u_int = np.zeros((P, 2, A, M))                                             # u_i per assessor
    for name in USER_MODELS:
        who = np.flatnonzero(models == name)
        if len(who) and name != "null":
            u_int[:, :, who, :] = users.intent_utility(levels[:, :, None], name, persistence[who])
    wp = w[:, tq, :].transpose(1, 0, 2)                                        # (P, A, M)
    sharp = wp ** RELEVANCE_SHARPEN
    sharp = sharp / sharp.sum(-1, keepdims=True)
    uniform = models == "coverage"                                             # weighs intents 1/m
    if uniform.any():
        flat = users.intent_weights("coverage", wp[:, uniform, :], valid[tq][:, None, :])
        wp, sharp = wp.copy(), sharp.copy()
        wp[:, uniform, :] = flat
        sharp[:, uniform, :] = flat
    u_rel = np.einsum("psam,pam->psa", u_int, sharp)                           # (P, 2, A)
    u_div = np.einsum("psam,pam->psa", u_int, wp)
    return u_rel, u_div


def _quantile(x: np.ndarray, q: float) -> float:
    """``numpy.quantile(x, q)`` (linear interpolation between order statistics) by partial
    sorting: only the two order statistics it needs."""
    n = len(x)
    h = (n - 1) * q
    k = int(np.floor(h))
    k1 = min(k + 1, n - 1)
    part = np.partition(x, [k, k1])
    lo, hi = float(part[k]), float(part[k1])
    return lo + (h - k) * (hi - lo)


class _Labels:
    """Labels of one question for a given noise scale, and the scale that reaches a target alpha."""

    def __init__(self, signal: np.ndarray, err: np.ndarray, equal_mult: np.ndarray, p_equal: float):
        self.signal, self.err, self.equal_mult, self.p_equal = signal, err, equal_mult, p_equal

    def at(self, s: float):
        """Codes (0 LEFT, 1 RIGHT, 2 EQUAL) at noise scale ``s`` and the EQUAL threshold ``tau``."""
        y = self.signal + s * self.err
        ratio = np.abs(y) / self.equal_mult[None, :]
        tau = _quantile(ratio.ravel(), self.p_equal)
        codes = np.where(ratio < tau, 2, np.where(y > 0, 0, 1))
        return codes, tau

    def _root(self, lo: float, hi: float, f_lo: float, target: float, tol: float) -> float:
        """The log noise scale in ``[lo, hi]`` whose alpha is closest to ``target``: regula falsi with
        the Illinois step (alpha falls smoothly with the noise, so this needs a handful of alpha
        evaluations where bisection needs about fifteen), falling back to a bisection step when the
        interpolation would not shrink the bracket; alpha jumps in steps on small samples, so the
        closest value seen is kept."""
        f_hi = nominal_alpha(self.at(np.exp(hi))[0]) - target
        if f_hi >= 0:                       # even pure noise agrees more than the target: use it
            return hi
        best, side = (abs(f_lo), lo), 0
        for _ in range(80):
            x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
            if not lo < x < hi or (hi - lo) < 1e-12:
                x = 0.5 * (lo + hi)
            f_x = nominal_alpha(self.at(np.exp(x))[0]) - target
            best = min(best, (abs(f_x), x))
            if abs(f_x) <= tol:
                break
            if f_x > 0:
                lo, f_lo = x, f_x
                if side == -1:
                    f_hi /= 2
                side = -1
            else:
                hi, f_hi = x, f_x
                if side == 1:
                    f_lo /= 2
                side = 1
        return best[1]

    def calibrated(self, name: str, target: float | None, sigma: float, alpha_tol: float):
        """``(codes, s, tau, alpha)``: at ``sigma`` when ``target`` is None, else at the noise scale
        whose Krippendorff's alpha is ``target`` (:meth:`_root` on log s)."""
        if target is None:
            s = sigma
            codes, tau = self.at(s)
        else:
            lo, hi = np.log(1e-4), np.log(1e3)
            a_lo = nominal_alpha(self.at(np.exp(lo))[0])
            if a_lo < target:
                # Fewer assessors or pairs than the paper's can make the target unreachable: the
                # assessors then disagree only through their own user models and intent weights.
                # Said, not hidden: the run continues with noise-free assessors at their alpha. Within
                # alpha_tol of the target it counts as reached (the callers print the alpha reached).
                if a_lo < target - alpha_tol:
                    warnings.warn(f"{name}: alpha_target {target} is out of reach for these assessors and pairs; "
                                  f"noise-free assessors reach alpha = {a_lo:.4f}, used as they are", stacklevel=3)
                codes, tau = self.at(np.exp(lo))
                return codes, float(np.exp(lo)), tau, a_lo
            s = float(np.exp(self._root(lo, hi, a_lo - target, target, alpha_tol / 4)))
            codes, tau = self.at(s)
        # alpha moves in steps as the noise grows (a label flips at a time): with few labels the
        # closest reachable value can lie further than alpha_tol from the target. The bisection
        # then ends on that step and the alpha reached is returned (and printed by the callers).
        alpha = nominal_alpha(codes)
        return codes, s, tau, alpha
