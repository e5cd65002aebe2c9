"""The public datasets: a pinned registry, checksummed download with an offline mirror, loaders.

=====================  ==========================================================================
:mod:`.datasets`       registry, fetch and the loaders of the named public sets
                       (``python -m helpers data``)
:mod:`.thresholds`     the relevance threshold each test collection defines, with its source
=====================  ==========================================================================
"""
