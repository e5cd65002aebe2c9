"""Notebook support: the top layer, used by the notebooks and the runner, never by the analyses.

=====================  ==========================================================================
:mod:`.params`         the parameters cell: validation, profiles, where a run's outputs go
:mod:`.reports`        figures, tables and metrics written atomically and byte-stably;
                       generated conclusions
:mod:`.pipeline`       the headless runner (``python -m helpers notebooks``, ``make reproduce``)
:mod:`.style`          print-size figure style; :mod:`.plots` the crowded figures
=====================  ==========================================================================
"""
