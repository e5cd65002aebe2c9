"""The measure engine: NTCIREVAL's (and trec_eval's) measures, vectorised over runs x topics x ranks.

=====================  ==========================================================================
:mod:`.adhoc`          ad hoc measures: names (:class:`MeasureSpec`), the array kernels
                       (:func:`evaluate_arrays`) and the tidy front door (:func:`evaluate`)
:mod:`.diversity`      intent-aware, D-, D#- and DIN-measures, alpha-nDCG, ERR-IA, RBU
:mod:`.names`          trec_eval and ir_measures names translated into this engine's
:mod:`.cli`            ``python -m helpers evaluate``
=====================  ==========================================================================

``from helpers import measures; measures.evaluate(...)`` is the public surface; the names below
are re-exported from the modules that define them.
"""

from helpers.measures.adhoc import (
    CONDENSED_ONLY,
    CUTOFF_POLICIES,
    MEASURES,
    REL_PARAM,
    MeasureDef,
    MeasureSpec,
    aggregate,
    evaluate,
    evaluate_arrays,
    geometric_sum,
    parse_gain_spec,
    parse_measures,
    to_matrix,
    with_default_rel,
)

__all__ = ["CONDENSED_ONLY", "CUTOFF_POLICIES", "MEASURES", "REL_PARAM", "MeasureDef", "MeasureSpec",
           "aggregate", "evaluate", "evaluate_arrays", "geometric_sum", "parse_gain_spec", "parse_measures",
           "to_matrix", "with_default_rel"]
