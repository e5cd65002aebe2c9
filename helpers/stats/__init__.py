"""Significance tests, effect sizes, confidence intervals and agreement statistics.

=====================  ==========================================================================
:mod:`.hsd`            randomised Tukey HSD, residual variance (ES_HSD), discrepancies
:mod:`.paired`         paired t-test, paired randomisation test, bootstrap interval, pairing, Holm
:mod:`.correlation`    Kendall's tau-b with a confidence interval
:mod:`.agreement`      Krippendorff's alpha
:mod:`.checks`         argument checks, Monte Carlo p-values and chunks shared by the above
=====================  ==========================================================================

What lives here and where it comes from
---------------------------------------
* :func:`randomised_tukey_hsd` -- the randomised (blocked) Tukey HSD test that Sakai's Discpower
  toolkit runs over a topic-by-system score matrix (Carterette 2012, TOIS 30(1), the algorithm;
  Sakai 2017, "Unanimity-aware gain for highly subjective assessments", Section 5, which applies
  it with B = 5,000 trials and reports p-values, |d| and ES_HSD in Table 3).  No maintained Python
  package implements it (scipy's ``tukey_hsd`` and ranx's "tukey" are the classical *unpaired*
  one-way test), so it is written here by hand.
* :func:`residual_variance` -- V_E of the two-way ANOVA without replication (topic and system
  effects), the denominator of ES_HSD = |d| / sqrt(V_E) (Sakai 2014, "Statistical reform in
  information retrieval?", SIGIR Forum 48(1); Sakai 2017, Table 3).
* :func:`paired_t_test`, :func:`paired_randomisation_test`, :func:`bootstrap_ci` -- two-system
  comparisons (scipy.stats where it does the job).
* :func:`kendall_tau_ci` -- Kendall's tau-b with a confidence interval of the kind Sakai 2017
  reports in Table 2 (e.g. ".987 [.968, 1.007]": not clipped to [-1, 1]).
* :func:`krippendorff_alpha` -- thin, validating wrapper around the ``krippendorff`` package.
* :func:`discrepancies` -- Sakai 2017 Table 3: system pairs significant under one condition only.

Conventions shared by every function
------------------------------------
* Randomness only through an explicit ``rng: numpy.random.Generator``; a Monte Carlo call
  without one raises ``ValueError`` (results must be reproducible, so there is no hidden
  ``default_rng()``).
* p-values are two-sided.  Monte Carlo p-values default to ``(count + 1) / (B + 1)`` (Phipson &
  Smyth 2010, "Permutation p-values should never be zero", SAGMB 9(1)), which lies in (0, 1];
  ``p_value="discpower"`` gives Discpower's / Carterette's ``count / B``.  Exact (enumerated)
  p-values are ``count / N`` over all N re-arrangements, the observed one included, so they are
  also in (0, 1].
* "At least as extreme" is decided with a tolerance: a resampled statistic T counts when
  ``T >= observed - rtol * scale`` (scale: the largest absolute score).  Discrete scores make
  re-arranged sums that are equal in exact arithmetic differ in the last bits of a float, and
  dropping such ties would move p-values materially.
* Bad input raises ``ValueError`` with a message naming the argument and what was expected.
"""

from .agreement import krippendorff_alpha
from .checks import DEFAULT_CHUNK_BYTES, DEFAULT_RTOL
from .correlation import KendallTauCI, kendall_tau_ci, pearson_ci, tau_or_undefined, tau_topic_bootstrap
from .hsd import (discrepancies, randomised_tukey_hsd, randomised_tukey_hsd_each,
                               randomised_tukey_hsd_many, residual_variance)
from .paired import (BootstrapCI, PairedTestResult, align_pair, bootstrap_ci, holm, paired_randomisation_test,
                                  paired_t_test)
from .summary import sd_interval

__all__ = [
    "BootstrapCI",
    "KendallTauCI",
    "pearson_ci",
    "tau_or_undefined",
    "tau_topic_bootstrap",
    "PairedTestResult",
    "align_pair",
    "bootstrap_ci",
    "holm",
    "sd_interval",
    "discrepancies",
    "kendall_tau_ci",
    "krippendorff_alpha",
    "paired_randomisation_test",
    "paired_t_test",
    "randomised_tukey_hsd",
    "randomised_tukey_hsd_many",
    "randomised_tukey_hsd_each",
    "residual_variance",
    "DEFAULT_RTOL",
    "DEFAULT_CHUNK_BYTES",
]
