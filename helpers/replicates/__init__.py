"""Replicated studies: one random draw is not a result.

=====================  ==========================================================================
:mod:`.runner`         :func:`~helpers.replicates.runner.run_replicates` maps a study over a
                       parameter grid x R replicates (serially or on dask), with one seed scheme;
                       :func:`~helpers.replicates.runner.summarise` and ``share`` summarise them
:mod:`.studies`        the notebooks' study functions: one replicate of each notebook's headline
                       analysis as a function of ``rng``
=====================  ==========================================================================
"""
