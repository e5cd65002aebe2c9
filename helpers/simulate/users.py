"""Planted user models: the generating truths of notebooks 04 and 05's planted-truth experiments.

A simulation cannot say which evaluation measure real users agree with: whatever user model
generates the simulated truth decides the answer. What it *can* do is check the method. Each model
below is aligned with one family of diversity measures (or with none), the truth is generated
from it, and the experiment asks whether the analysis recovers the family the truth was planted
from (notebook 04: a run ranking; notebook 05: assessors' SERP preferences). A method that
recovers every planted family, and finds nothing in the null model, is fit to read *real* data;
which measure agrees with real users is then a question for real preferences only.

Every model reads a SERP of ``l`` ranks through the intentwise levels ``x_i(r)`` on a linear 0-1
scale (L0-L4 -> 0, 1/4, ..., 1; unjudged = 0), never through an engine measure's gains
(``2^x - 1``), normalisation or ideal list, so no measure is identical to any model (the
alignment is of *shape*: which documents, ranks and intents matter).

Models (per-intent utility ``u_i``; the SERP's utility is ``sum_i w_i u_i``)
---------------------------------------------------------------------------------
``position``  (RBP-like: D-RBP, IA-RBP; RBU and iRBU, whose discount is RBP's p^r)
    ``u_i = sum_r p^(r-1) x_i(r)``: a reader who goes down the page with persistence ``p`` and
    values every relevant document, redundant or not. Intents weighted by ``w`` (below).
``graded``    (intent-weighted graded: D-nDCG, D-Q, IA-nDCG; in notebook 04 P+Q, IA-Q on inf intents)
    ``u_i = sum_r x_i(r) / log2(r + 1)``: graded relevance with a logarithmic rank discount and
    no stopping. Intents weighted by ``w``.
``coverage``  (uniform-intent coverage: I-rec, strec, alpha-nDCG)
    ``u_i = 1 - prod_r (1 - c x_i(r))`` with ``c`` = :data:`COVERAGE_C`: the chance that some
    document on the page satisfies intent ``i``, wherever it is (diminishing returns). Intents
    are weighted *uniformly* (``w_i = 1/m`` over the topic's ``m`` intents): this user does not
    know or care how likely each interpretation is.
``first-hit`` (first hit, ERR-like: D-nERR, IA-nERR, ERR-IA; RBU and iRBU, whose stopping is ERR's;
               in notebook 04 (:data:`BY_DEFINITION`) EBR too, whose stopping is ERR's as well)
    ``u_i = p^(r_i - 1)`` with ``r_i`` the first rank whose level is at least L2 (``x >= 1/2``),
    0 if there is none: satisfied at the first good document, indifferent to the rest. Intents
    weighted by ``w``.
``null``      (aligned with none: the negative control)
    ``u = 0`` for every SERP: what this user prefers does not depend on the documents at all
    (notebook 05: only the per-pair effect no measure sees; notebook 04: a random planted run
    order). No measure should recover it beyond chance.

A *mixture* (``"position:0.4,coverage:0.3,first-hit:0.3"``, :data:`DEFAULT_MIXTURE`) is a
population of several such users; it is aligned with no single family either.

Intent weights ``w``: ``Pr(i|q)`` for the population (notebook 04) or an assessor's personal
reading ``Dirichlet(kappa Pr)`` (notebook 05, :mod:`helpers.simulate.preferences`), except for
``coverage``, which always weighs intents uniformly.
"""

from __future__ import annotations

import numpy as np

__all__ = ["USER_MODELS", "ALIGNED", "BY_DEFINITION", "DEFAULT_MIXTURE", "COVERAGE_C", "FIRST_HIT_LEVEL", "PERSISTENCE",
           "TRUTH_PERSISTENCE", "parse_mixture", "intent_utility", "intent_weights", "serp_utility",
           "aligned_family", "shared_members", "partial_members"]

#: The planted user models (module docstring).
USER_MODELS = ("position", "graded", "coverage", "first-hit", "null")
#: The measure family each model is aligned with: (description, measure-name prefixes of notebooks
#: 04/05 that belong to it). ``null`` and a ``mixture`` of models are aligned with none.
ALIGNED = {
    "position": ("RBP-like", ("D-RBP", "IA-RBP", "RBP-IA", "RBU", "iRBU")),
    "graded": ("intent-weighted graded", ("D-nDCG", "D-Q", "IA-nDCG", "nDCG-IA", "IA-Q", "Q-IA", "DIN-nDCG")),
    "coverage": ("uniform-intent coverage", ("I-rec", "strec", "alpha-nDCG")),
    "first-hit": ("first hit (ERR-like)", ("D-nERR", "D-ERR", "IA-nERR", "ERR-IA", "IA-ERR", "RBU", "iRBU")),
    "null": ("none", ()),
    "mixture": ("none in particular", ()),
}
#: Notebook 04's families, read from the measures' own definitions: :data:`ALIGNED` with EBR in the
#: first-hit family (Zeng & Sakai, Table 1: EBR stops as ERR does, ``P_ERR(r)``, and scores BR(r))
#: and P+Q in the graded family (Sakai's survey, Eq. 9: P+Q is IA-Q on informational intents, P+
#: on navigational ones). Notebook 05 reads them too, with the D#-measures in two families
#: (:func:`helpers.replicates.preference.study_families`).
BY_DEFINITION = {
    **ALIGNED,
    "graded": (ALIGNED["graded"][0], ALIGNED["graded"][1] + ("P+Q",)),
    "first-hit": ("ERR's stopping (first hit)", ALIGNED["first-hit"][1] + ("D-EBR", "IA-EBR", "EBR-IA")),
}
DEFAULT_MIXTURE = "position:0.4,coverage:0.3,first-hit:0.3"
COVERAGE_C = 0.6            # satisfaction chance of a document at L4 in the coverage model
FIRST_HIT_LEVEL = 0.5       # first-hit model: a document at L2 or above satisfies
PERSISTENCE = (0.7, 0.95)   # range of simulated assessors' persistence p_a (notebook 05)
TRUTH_PERSISTENCE = 0.825   # the population user's persistence (notebook 04): the middle of that range


def parse_mixture(mixture) -> dict[str, float]:
    """``"position:0.4,coverage:0.3,first-hit:0.3"`` (or a dict) -> ``{model: share}``.

    Shares must be non-negative numbers summing to 1 (tolerance 1e-6); unknown models, repeated
    models and malformed items raise ValueError naming the item.
    """
    if isinstance(mixture, str):
        items = {}
        for item in mixture.split(","):
            item = item.strip()
            if not item:
                continue
            if item.count(":") != 1:
                raise ValueError(f"user model mixture: item {item!r} must look like 'model:share', e.g. "
                                 f"{DEFAULT_MIXTURE!r}")
            name, share = (x.strip() for x in item.split(":"))
            if name in items:
                raise ValueError(f"user model mixture names {name!r} twice")
            try:
                items[name] = float(share)
            except ValueError:
                raise ValueError(f"user model mixture: share of {name!r} must be a number, got {share!r}") from None
        mixture = items
    if not isinstance(mixture, dict) or not mixture:
        raise ValueError(f"user model mixture must be a non-empty 'model:share,...' string or dict, got {mixture!r}")
    out = {}
    for name, share in mixture.items():
        if name not in USER_MODELS:
            raise ValueError(f"unknown user model {name!r}; known: {', '.join(USER_MODELS)}")
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not np.isfinite(share) or share < 0:
            raise ValueError(f"user model mixture: share of {name!r} must be a number >= 0, got {share!r}")
        out[name] = float(share)
    if abs(sum(out.values()) - 1.0) > 1e-6:
        raise ValueError(f"user model mixture shares must sum to 1, got {sum(out.values()):g} ({out})")
    return out


def intent_utility(levels: np.ndarray, model: str, persistence: float | np.ndarray = TRUTH_PERSISTENCE) -> np.ndarray:
    """Per-intent utility ``u_i`` of SERPs under one user model (module docstring).

    Parameters
    ----------
    levels : (..., l, M) array
        Intentwise levels on the 0-1 scale (L_x -> x/4), rank on the second-to-last axis.
    model : one of :data:`USER_MODELS`
    persistence : float or array broadcasting against ``levels[..., 0, 0]``
        ``p`` of the position and first-hit models (ignored by the others).

    Returns
    -------
    (..., M) array of utilities (all 0 for ``null``).
    """
    x = np.asarray(levels, dtype=float)
    ranks = np.arange(x.shape[-2])[:, None]
    if model == "position":
        p = np.asarray(persistence, dtype=float)[..., None, None]
        return (x * p ** ranks).sum(-2)
    if model == "graded":
        return (x / np.log2(ranks + 2.0)).sum(-2)
    if model == "coverage":
        return 1.0 - np.prod(1.0 - COVERAGE_C * x, axis=-2)
    if model == "first-hit":
        p = np.asarray(persistence, dtype=float)[..., None]
        hit = x >= FIRST_HIT_LEVEL
        first = np.where(hit.any(-2), hit.argmax(-2), -1)
        return np.where(first >= 0, p ** np.maximum(first, 0), 0.0)
    if model == "null":
        return np.zeros(x.shape[:-2] + x.shape[-1:])
    raise ValueError(f"unknown user model {model!r}; known: {', '.join(USER_MODELS)}")


def intent_weights(model: str, weights: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The intent weights a model uses: ``weights`` (rows summing to 1 over ``valid`` intents), or
    uniform over the valid intents for ``coverage``."""
    valid = np.asarray(valid, dtype=bool)
    if model == "coverage":
        v = np.broadcast_to(valid, np.shape(weights)).astype(float)
        return v / np.maximum(v.sum(-1, keepdims=True), 1.0)
    return np.asarray(weights, dtype=float) * valid


def serp_utility(levels: np.ndarray, model: str, weights: np.ndarray, valid: np.ndarray,
                 persistence: float | np.ndarray = TRUTH_PERSISTENCE) -> np.ndarray:
    """Utility ``sum_i w_i u_i`` of SERPs under one model.

    ``levels`` (..., l, M) on the 0-1 scale; ``weights`` and ``valid`` broadcast against
    ``levels[..., 0, :]`` (``weights`` = ``Pr(i|q)`` or personal weights; replaced by uniform weights
    for ``coverage``). Returns an array of shape ``levels.shape[:-2]``.
    """
    u = intent_utility(levels, model, persistence)
    return (u * intent_weights(model, weights, valid)).sum(-1)


def aligned_family(model: str, measure: str, *, through_irec: bool = False, families=None) -> bool:
    """Whether a measure's display or engine name (``"D-RBP(p=0.85)@10"``, ``"nDCG-IA"``) belongs to
    the family ``families`` (default :data:`ALIGNED`; notebook 04: :data:`BY_DEFINITION`) gives
    for ``model``.

    D#-, DIN#- and P+Q#-measures are ``gamma I-rec + (1 - gamma) X`` (D#: Sakai et al. 2010,
    DIN#: Sakai & Song 2011; gamma = 0.5): half coverage, half another measure, so by default they
    belong to *no* family (a planted truth is recovered only by a measure whose whole shape matches
    it; :func:`partial_members` names them). P+Q belongs to a family only where ``families`` lists it
    (:data:`BY_DEFINITION`: graded). ``through_irec=True`` counts the D#-/DIN#-measures with the
    ``coverage`` family through their I-rec half (and with no other), to show whether a recovery
    count depends on that choice."""
    families = ALIGNED if families is None else families
    if model not in families:
        raise ValueError(f"unknown user model {model!r}; known: {', '.join(families)}")
    name = str(measure)
    if name.startswith(("D#", "DIN#")):
        return through_irec and model == "coverage"
    if name.startswith("P+Q#"):
        return False
    return any(name == p or name.startswith((p + "@", p + "(", p + " ")) for p in families[model][1])


def shared_members(model: str, measures, families=None) -> list[str]:
    """The measures of ``model``'s family (:func:`aligned_family`) that belong to another model's
    family too (RBU and iRBU: RBP's discount and ERR's stopping): a recovery that rests on them
    does not tell the two models apart."""
    families = ALIGNED if families is None else families
    return [x for x in measures if aligned_family(model, x, families=families)
            and any(aligned_family(o, x, families=families) for o in families if o != model)]


def partial_members(model: str, measures, families=None) -> list[str]:
    """The measures that are *half* of ``model``'s family: ``gamma I-rec + (1 - gamma) X`` (D#-, DIN#-,
    P+Q#-measures) whose I-rec half is the ``coverage`` family or whose ``X`` (``D#-nERR`` ->
    ``D-nERR``, ``DIN#-nDCG`` -> ``DIN-nDCG``, ``P+Q#`` -> ``P+Q``) is a member. Neither in the family
    nor outside it, they are left out of a family check's "best outside" comparison."""
    families = ALIGNED if families is None else families
    out = []
    for x in measures:
        name = str(x)
        for pre, base in (("DIN#", "DIN"), ("D#", "D"), ("P+Q#", "P+Q")):
            if name.startswith(pre):
                if model == "coverage" or aligned_family(model, base + name[len(pre):], families=families):
                    out.append(x)
                break
    return out
