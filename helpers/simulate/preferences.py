"""Simulated SERP-pair preference judgements (stand-in for Zeng & Sakai's 1,127 x 15 labels).

The real labels (NTCIR-9 INTENT Japanese runs, 15 assessors, a relevance and a diversity
question per SERP pair) are not public. :func:`preference_judgments` simulates them over the
intent collection of :func:`helpers.simulate.intent_collection` and the pairs of
:func:`helpers.preference.sample_pairs`, with a documented assessor model that is calibrated so
that Krippendorff's alpha (nominal, three labels) lands on the paper's values: 0.406 for
relevance and 0.356 for diversity.

Assessor model
--------------
SERP ``s`` of a pair is the run's top ``cutoff`` (10) documents; ``g_i(r) = (2^x - 1)/15`` is the
intentwise gain of the document at rank ``r`` for intent ``i`` (levels L0-L4; unjudged = 0).

Interpretation
    Every assessor ``a`` reads topic ``q`` with personal intent weights
    ``w_aq ~ Dirichlet(kappa * Pr(.|q))`` (``kappa`` = ``interpretation_concentration``): the
    mean is the topic's intent distribution, and smaller ``kappa`` means assessors disagree more
    on what the query is about.
Relevance question ("overall, which SERP is more relevant?")
    ``U_rel(s) = sum_r disc(r) sum_i w_aqi g_i(r)``, ``disc(r) = 1/log2(r + 1)``: graded,
    position-discounted gain under the assessor's own weights, no novelty.
Diversity question ("which SERP satisfies more of the users who might have issued the query?")
    ``U_div(s) = sum_i w_aqi (1 - exp(-saturation * sum_r disc(r) x_i(r) / 4))`` with ``x_i(r)``
    the level (0-4): the weighted share of satisfied intents, a coverage utility with strongly
    diminishing returns (one L2 document at rank 1 already satisfies 1 - e^-0.75 = 53% of an
    intent's users at ``saturation = 1.5``, two such documents at ranks 1-2 71%).
Noisy comparison
    ``y = (U(left) - U(right)) / scale + pair_effect * v_p + sigma * m_a * e_pa`` where ``scale``
    is the standard deviation over pairs of the assessor-averaged utility difference (so
    ``sigma`` is in units of the signal); ``v_p`` is a per-pair term that every assessor sees
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
    smooth, decreasing function of ``sigma``) until alpha equals the target within ``alpha_tol``.
    Pass ``alpha_target=None`` to use ``sigma`` as given instead. If a target is above what even
    noise-free assessors reach (disagreement from the interpretations alone), ``ValueError``.

What the model does not claim: the share of EQUAL labels in the paper is not reported in the
text available here; ``p_equal`` = 0.1 is an assumption, as are the utility forms. The paper's
assessor MARs (about 0.71 for the median assessor at alpha = 0.41) imply a chance agreement near
0.5, i.e. unbalanced LEFT/RIGHT labels or many EQUALs; with sides randomised as here, chance
agreement is lower and every MAR comes out lower than in the paper: compare orderings and gaps,
not levels. The model
encodes "users like relevant documents high up, and diversity users like coverage", so measures
close to these utilities will agree with the simulated assessors more; the simulation can show
how the analysis works and how noisy it is, not which measure real users prefer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["PreferenceJudgments", "preference_judgments", "nominal_alpha"]

QUESTIONS = ("relevance", "diversity")


@dataclass(frozen=True)
class PreferenceJudgments:
    """Simulated labels.

    Attributes
    ----------
    relevance, diversity : DataFrame
        Pairs (index ``pair_id``) x assessors (``A01..A15``), labels ``LEFT``/``RIGHT``/``EQUAL``.
    assessors : DataFrame
        Per assessor: ``noise`` (``m_a``) and ``equal_proneness`` (``t_a``).
    calibration : DataFrame
        Per question: ``sigma``, ``tau``, ``alpha`` (reached), ``alpha_target``, ``p_equal`` (reached).
    params : dict
        The arguments of the simulation.
    """

    relevance: pd.DataFrame
    diversity: pd.DataFrame
    assessors: pd.DataFrame
    calibration: pd.DataFrame
    params: dict = field(default_factory=dict)


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


def _serp_gains(collection, pairs: pd.DataFrame, cutoff: int):
    """Intentwise levels / 4 (P, 2, cutoff, M) of both SERPs of every pair, and topic index / intent mask."""
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
    saturation: float = 1.5,
    assessor_spread: float = 0.35,
    equal_spread: float = 0.5,
    question_correlation: float = 0.97,
    pair_effect: float = 0.4,
    alpha_tol: float = 1e-3,
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
    saturation : float
        Diminishing-returns rate of the diversity utility.
    assessor_spread, equal_spread : float >= 0
        Log-scale spread of the assessors' noise and of their EQUAL thresholds.
    question_correlation : float in [0, 1]
        Correlation of the two questions' pair effects and of an assessor's errors on them.
    pair_effect : float >= 0
        Scale of the per-pair term shared by all assessors and invisible to the measures.
    alpha_tol : float
        Calibration tolerance on alpha.

    Returns
    -------
    PreferenceJudgments
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
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
    saturation = _check_pos("saturation", saturation)
    assessor_spread = _check_pos("assessor_spread", assessor_spread, allow_zero=True)
    equal_spread = _check_pos("equal_spread", equal_spread, allow_zero=True)
    if not isinstance(question_correlation, (int, float)) or not 0 <= question_correlation <= 1:
        raise ValueError(f"question_correlation must lie in [0, 1], got {question_correlation!r}")
    pair_effect = _check_pos("pair_effect", pair_effect, allow_zero=True)
    alpha_tol = _check_pos("alpha_tol", alpha_tol)
    params = dict(n_assessors=int(n_assessors), cutoff=int(cutoff), alpha_target=alpha_target, sigma=sigma,
                  p_equal=float(p_equal), interpretation_concentration=kappa, saturation=saturation,
                  assessor_spread=assessor_spread, equal_spread=equal_spread,
                  question_correlation=float(question_correlation), pair_effect=pair_effect, alpha_tol=alpha_tol)

    levels, tq, prob, valid = _serp_gains(collection, pairs, int(cutoff))  # (P, 2, l, M), levels x/4
    gains = (2.0 ** (4.0 * levels) - 1.0) / 15.0
    P, A = len(pairs), int(n_assessors)
    T, M = prob.shape
    # personal intent weights per assessor x topic (Dirichlet via normalised gammas)
    shape = np.where(valid, np.maximum(kappa * prob, 1e-3), 1.0)
    gam = rng.gamma(np.broadcast_to(shape, (A, T, M))) * valid
    w = gam / gam.sum(axis=2, keepdims=True)                                   # (A, T, M)
    noise_mult = np.exp(assessor_spread * rng.standard_normal(A))
    equal_mult = np.exp(equal_spread * rng.standard_normal(A))
    z_shared = rng.standard_normal((P, A))
    z_q = rng.standard_normal((2, P, A))
    v_shared = rng.standard_normal(P)
    v_q = rng.standard_normal((2, P))

    disc = 1.0 / np.log2(np.arange(2, cutoff + 2))
    per_intent_rel = np.einsum("psrm,r->psm", gains, disc)                     # (P, 2, M)
    wp = w[:, tq, :].transpose(1, 0, 2)                                        # (P, A, M)
    u_rel = np.einsum("psm,pam->psa", per_intent_rel, wp)                      # (P, 2, A)
    sat = 1.0 - np.exp(-saturation * np.einsum("psrm,r->psm", levels, disc))
    u_div = np.einsum("psm,pam->psa", sat, wp)
    rho = float(question_correlation)
    out, calib = {}, []
    for q, (name, u) in enumerate(zip(QUESTIONS, (u_rel, u_div))):
        delta = u[:, 0, :] - u[:, 1, :]                                        # (P, A)
        scale = float(np.std(delta.mean(axis=1)))
        if scale == 0:
            raise ValueError(f"{name}: every pair has the same utility on both sides; nothing to prefer")
        signal = delta / scale + pair_effect * (rho * v_shared + np.sqrt(1 - rho * rho) * v_q[q])[:, None]
        err = noise_mult[None, :] * (rho * z_shared + np.sqrt(1 - rho * rho) * z_q[q])

        def label(s: float):
            y = signal + s * err
            ratio = np.abs(y) / equal_mult[None, :]
            tau = float(np.quantile(ratio, p_equal))
            codes = np.where(ratio < tau, 2, np.where(y > 0, 0, 1))
            return codes, tau

        if alpha_target is None:
            s = sigma[q]
            codes, tau = label(s)
        else:
            target = float(alpha_target[q])
            lo, hi = np.log(1e-4), np.log(1e3)
            a_lo = nominal_alpha(label(np.exp(lo))[0])
            if a_lo < target:
                raise ValueError(f"{name}: alpha_target {target} is out of reach; noise-free assessors only "
                                 f"reach alpha = {a_lo:.3f} (raise interpretation_concentration)")
            for _ in range(80):
                mid = 0.5 * (lo + hi)
                a_mid = nominal_alpha(label(np.exp(mid))[0])
                if abs(a_mid - target) <= alpha_tol / 4:
                    break
                if a_mid > target:
                    lo = mid
                else:
                    hi = mid
            s = float(np.exp(mid))
            codes, tau = label(s)
        alpha = nominal_alpha(codes)
        if alpha_target is not None and abs(alpha - alpha_target[q]) > alpha_tol:
            raise ValueError(f"{name}: calibration did not converge (alpha {alpha:.4f} vs {alpha_target[q]})")
        out[name] = pd.DataFrame(np.asarray(["LEFT", "RIGHT", "EQUAL"], dtype=object)[codes],
                                 index=pd.Index(pairs["pair_id"].to_numpy(), name="pair_id"),
                                 columns=[f"A{k + 1:02d}" for k in range(A)])
        calib.append({"question": name, "sigma": s, "tau": tau, "alpha": alpha,
                      "alpha_target": None if alpha_target is None else float(alpha_target[q]),
                      "p_equal": float((codes == 2).mean())})
    assessors = pd.DataFrame({"assessor": [f"A{k + 1:02d}" for k in range(A)], "noise": noise_mult,
                              "equal_proneness": equal_mult})
    return PreferenceJudgments(relevance=out["relevance"], diversity=out["diversity"], assessors=assessors,
                               calibration=pd.DataFrame(calib), params=params)
