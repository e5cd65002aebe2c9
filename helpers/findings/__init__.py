"""The findings of each notebook, as records (:class:`helpers.notebook.findings.Findings`).

One module per analysis, named after it, each with a ``findings(...)`` that takes the run's
computed values and returns the rows of the notebook's findings table, its short prose and its
caveats; the wording comes from :mod:`helpers.notebook.claims`, the rendering from
:mod:`helpers.notebook.findings`. The notebooks only call and display them.

=========================  ==================================================
``helpers.findings.gains``  notebook 01: gain definitions
``helpers.findings.unanimity``  notebook 02: does unanimity change our conclusions?
``helpers.findings.prm``    notebook 03: the Predicted Relevance Model
``helpers.findings.prm_values``  notebook 03: the values its rows read (replicates, draws of U2)
``helpers.findings.diversity``  notebook 04: diversified search measures
``helpers.findings.diversity_planted``  notebook 04: its appendix A.1 (planted truths), one row per user
``helpers.findings.diversity_text``  notebook 04: its shared wording (users, the design caveat, levels)
``helpers.findings.diversity_power``  notebook 04: its reading of discriminative power (leaders, Monte Carlo noise)
``helpers.findings.preference``  notebook 05: agreement of measures with users' preferences
``helpers.findings.preference_thuir``  notebook 05: its THUIR section (design lines, tables, rows)
``helpers.findings.preference_misses``  notebook 05: its bullets on planted families not shown first on average
``helpers.findings.design``  notebook 06: study design (topics and assessors)
``helpers.findings.design_split``  notebook 06: its split-half rows (one Monte Carlo rule)
``helpers.findings.design_cost``  notebook 06: the cheapest design in words (ties, undecided comparisons)
``helpers.findings.design_views``  notebook 06: its printed tables (an estimate and its interval in one cell)
``helpers.findings.design_published``  notebook 06: published values and its appendix table (letters after the conclusion's)
``helpers.findings.design_pilot``  notebook 06: what its pilot scored (DL-19's judgment sets, its truncation)
=========================  ==================================================
"""
