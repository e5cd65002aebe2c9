"""File formats and readers: the bottom layer, which knows nothing of measures or analyses.

=====================  ==========================================================================
:mod:`.trec`           TREC qrels, runs and diversity qrels: fast parsing, file:line errors,
                       trec_eval's run order
:mod:`.trec_eval_files`  trec_eval's own reading of results, qrels and z-score files (comments,
                       trailing fields), for ``python -m helpers trec_eval``
:mod:`.judgment_groups`  trec_eval's multi-assessor formats: judgment groups, preference files
:mod:`.assessors`      an assessor of a ratings file whose labels are the official qrels: found,
                       said, left out
:mod:`.readers`        the user-facing readers of every format the notebooks take (ratings,
                       graded qrels, runs, double judgments, intents, preferences)
:mod:`.topics`         TREC Web Track topic files (XML)
:mod:`.coerce`         foreign shapes (pytrec_eval/ranx dicts, ir_measures namedtuples, paths)
                       turned into the engine's tidy frames, once, at the public entry
:mod:`.ids`            identifier columns: exact strings, integer codes, spelling twins
:mod:`.files`          atomic writes that honour the umask
=====================  ==========================================================================
"""
