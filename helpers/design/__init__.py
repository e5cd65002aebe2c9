"""Study design: how many topics, and how many assessors per topic, an experiment needs.

An analysis (floor 4 of the layers) on the measure engine and the statistics:

* :mod:`.sakai` -- Sakai's topic-set-size design (IRJ 19(3), 2016; book 2018, ch. 6-7): the
  pilot variance (:func:`pilot_variance`: V_E1, V_E2, pooled pilots, chi^2 and bootstrap
  intervals) and :func:`topic_set_size` for the t-test, the one-way ANOVA and the CI width,
  paired or unpaired, Sakai's approximation or the exact noncentral t / F, with the interval of
  n that the interval of sigma^2 gives (:func:`topic_set_size_interval`).
* :mod:`.gstudy` -- G-studies (Brennan 2001): variance components of the designs
  ``"s x t"``, ``"s x t x a"`` and ``"s x (a:t)"`` (:func:`g_study`).
* :mod:`.dstudy` -- D-studies: Erho2 and Phi for other numbers of topics and assessors with
  Feldt / Arteaga-Jeyaratnam-Franklin intervals (:func:`d_study`), :func:`topics_needed`,
  Spearman-Brown, and the mappings of Urbano et al. (SIGIR 2013) onto tau and other indicators.
* :mod:`.cost` -- the cheapest (topics, assessors) design for a target and its trade-off curve.
* :mod:`.resample` -- the one corrected topic bootstrap of variance components (V_E1, V_E2, the cost curve).
* :mod:`.scores` -- multi-assessor pilots (per-assessor qrels, long ratings, judgment groups)
  through the measure engine as the G-study's long input, and the check of GT's average over
  assessors for measures not linear in the gains (binary measures: what holds, :func:`binary_reading`).
* :mod:`.pilots` -- the public pilot of notebook 06 (TREC DL 2019 with its re-annotation), with
  the counts that say which labels were used (:func:`dl19_pilot`).
* :mod:`.paired` -- the paired t-test from components: the power in the right direction, with
  the bias that crossed assessors carry into every topic (:func:`topics_for_power`).
* :mod:`.planted` -- scores simulated from planted variance components and the replicated
  checks (coverage of the intervals on n, power reached at the n each simulated pilot recommends).
* :mod:`.study` -- notebook 06's analyses: sizes by measure with V_E1 and V_E2 side by side, the
  split-half check of the D-study out of sample.
* :mod:`.published` -- the published G- and D-study values of gt4ireval and Brennan in one table.

Values of gt4ireval 2.0 (adhoc3, synthetic4), Brennan's synthetic data sets No. 3 and 4 and
Sakai's published topic-set sizes are pinned by ``tests/test_design*.py``.
"""

from .cost import Design, cheapest_design, paired_variance, trade_off
from .dstudy import (DStudy, GT_MAPPINGS, TopicsNeeded, d_study, d_study_table, error_variance, gt_map,
                     spearman_brown, topics_needed)
from .gstudy import COMPONENTS, DESIGNS, GStudy, g_study, g_study_array
from .paired import correct_sign_power, topics_for_power
from .sakai import (METHODS, PilotVariance, bootstrap_variances, pilot_variance, power, sizes_table, topic_set_size,
                    topic_set_size_interval)
from .pilots import dl19_pilot
from .scores import (binary_reading, judgment_sets, linearity_check, linearity_checks, mean_gain_qrels,
                     scores_by_assessor)

__all__ = ["DESIGNS", "COMPONENTS", "METHODS", "GT_MAPPINGS", "GStudy", "DStudy", "TopicsNeeded",
           "PilotVariance", "Design", "g_study", "g_study_array", "d_study", "d_study_table", "topics_needed",
           "error_variance", "spearman_brown", "gt_map", "pilot_variance", "topic_set_size",
           "topic_set_size_interval", "power", "sizes_table", "trade_off", "cheapest_design",
           "paired_variance", "scores_by_assessor", "judgment_sets", "mean_gain_qrels",
           "linearity_check", "linearity_checks", "bootstrap_variances", "correct_sign_power",
           "topics_for_power", "binary_reading", "dl19_pilot"]
