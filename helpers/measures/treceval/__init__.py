"""trec_eval's measures in the engine, and ``python -m helpers trec_eval``.

=====================  ==========================================================================
:mod:`.defs`           the families trec_eval defines and NTCIREVAL does not (names, parameters);
                       registered in :data:`helpers.measures.spec.MEASURES`
:mod:`.lists`          trec_eval's view of ranked lists (relevance values by rank, judged levels)
:mod:`.binary`         the binary measures (map, Rprec, bpref, infAP, iprec_at_recall, set_*, ...)
:mod:`.graded`         the gain-based measures (ndcg with gains, ndcg_rel, Rndcg, G, rbp, ...)
:mod:`.gainorder`      trec_eval 10's (mis)order of gain levels, to refuse where it changes a value
:mod:`.kernels`        :func:`evaluate_levels`: every trec_eval measure on many lists at once
:mod:`.ranking`        results ranked as trec_eval ranks them, matched with qrels
:mod:`.frames`         the trec_eval families inside :func:`helpers.measures.evaluate`
:mod:`.groups`         judgment groups (``map_avgjg``, ``P_avgjg``, ``Rprec_mult_avgjg``)
:mod:`.prefs`          preference judgments (``prefs_*``)
:mod:`.catalog`        trec_eval's measure names, their engine and ir_measures names, meta-names
:mod:`.evaluation`     one trec_eval run: topics, values per topic, z scores, the summary line
:mod:`.command`        the command line: trec_eval's flags, its output byte for byte
=====================  ==========================================================================
"""
