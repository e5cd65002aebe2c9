"""The measure engine: NTCIREVAL's (and trec_eval's) measures, vectorised over runs x topics x ranks.

=====================  ==========================================================================
:mod:`.spec`           measure names: the registry (:data:`MEASURES`) and the parser
                       (:class:`MeasureSpec`, :func:`parse_measures`)
:mod:`.kernels`        the definitions, vectorised: :func:`evaluate_arrays` scores many ranked
                       lists of gains at once
:mod:`.adhoc`          the front door: :func:`evaluate` on qrels and runs in any shape, the core
                       :func:`evaluate_frames` on tidy frames; :class:`Alignment` (a run matched
                       to qrels once, evaluated under many gains and measures)
:mod:`.lists`          runs matched to qrels: identifiers, one ranked list per (run, topic),
                       ordering, duplicates
:mod:`.results`        :func:`aggregate` (means per run) and :func:`to_matrix` (topics x runs)
:mod:`.diversity`      intent-aware, D-, D#- and DIN-measures, alpha-nDCG, ERR-IA, RBU
:mod:`.treceval`       trec_eval's measures (infAP, Rprec, iprec_at_recall, ..., judgment groups,
                       preferences) and ``python -m helpers trec_eval``
:mod:`.conventions`    one named convention (``"ntcireval"``, ``"trec_eval"``): names, ordering,
                       score precision and empty-topic rules together
:mod:`.names`          trec_eval and ir_measures names translated into this engine's; names that
                       ir_measures reads otherwise (``nDCG@10``) said once
:mod:`.ordering`       a TREC run whose rank column orders lists otherwise than trec_eval's score
                       order: counted, said once per call (:class:`RankOrderWarning`), and worded
                       for a notebook's input summary (:func:`order_note`)
:mod:`.cli`            ``python -m helpers evaluate``
=====================  ==========================================================================

``from helpers import measures; measures.evaluate(...)`` is the public surface; the names below
are re-exported from the modules that define them.
"""

# Imported on first use (PEP 562), so that ``python -m helpers trec_eval`` (which needs numpy
# only) does not load pandas through this package: name -> the module that defines it.
_EXPORTS = {
    "Alignment": "adhoc", "aggregate": "adhoc", "evaluate": "adhoc", "evaluate_frames": "adhoc",
    "to_matrix": "adhoc", "evaluate_arrays": "kernels", "geometric_sum": "kernels",
    "RankOrderWarning": "ordering", "check_rank_order": "ordering", "order_note": "ordering",
    "CONDENSED_ONLY": "spec", "CUTOFF_POLICIES": "spec", "MEASURES": "spec", "REL_PARAM": "spec",
    "MeasureDef": "spec", "MeasureSpec": "spec", "is_graded": "spec", "parse_gain_spec": "spec",
    "parse_measures": "spec", "with_default_rel": "spec",
}


def __getattr__(name: str):
    import importlib
    import importlib.util

    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    elif not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f".{name}", __name__)     # a submodule (measures.names, ...)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = ["Alignment", "CONDENSED_ONLY", "CUTOFF_POLICIES", "MEASURES", "REL_PARAM", "MeasureDef", "MeasureSpec",
           "aggregate", "evaluate", "evaluate_frames", "evaluate_arrays", "geometric_sum", "is_graded", "parse_gain_spec",
           "parse_measures", "to_matrix", "with_default_rel", "RankOrderWarning", "check_rank_order", "order_note"]
