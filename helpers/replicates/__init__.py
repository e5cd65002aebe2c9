"""Replicated studies: one random draw is not a result.

=====================  ==========================================================================
:mod:`.runner`         :func:`~helpers.replicates.runner.run_replicates` maps a study over a
                       parameter grid x R replicates (serially or on dask), with one seed scheme;
                       :func:`~helpers.replicates.runner.summarise` and ``share`` summarise them
:mod:`.cluster`        the dask clusters: one started in the background (cells computed meanwhile),
                       the notebook runner's one cluster of a run (``SUBJEVAL_DASK_SCHEDULER``), a
                       running scheduler's workers checked
:mod:`.studies`        the notebooks' study functions: one replicate of each notebook's headline
                       analysis as a function of ``rng``
:mod:`.planted`        checks of a planted-truth experiment that can fail: the aligned family's
                       best against the best outside it, the chance level of a leader-set check,
                       planted truths that coincide
=====================  ==========================================================================
"""
