"""The Predicted Relevance Model (PRM) of Demeester et al. (2016).

Reference: T. Demeester, R. Aly, D. Hiemstra, D. Nguyen, C. Develder, "Predicting relevance based
on assessor disagreement: analysis and practical applications for search evaluation",
Information Retrieval Journal 19 (2016). Equation numbers below refer to that paper.

Conventions used throughout this package
----------------------------------------
* Assessment levels are integers ``0..T``; ``0`` is non-relevant and ``T`` the top level
  (paper, Definition 2). ``T`` is inferred from the data unless given explicitly, in which case
  levels that nobody used still appear in the results (with a count of 0 and ``p = NaN``).
* A *random user* finds a result relevant (``R``) when a second, independent assessor puts it on
  or above the threshold ``theta`` (Sect. 3.1.5); ``theta`` must lie in ``1..T``.
* Double judgments are a table with columns ``u1`` and ``u2`` (the two assessors' levels) and,
  for the topic bootstrap, ``query_id``. Every row must carry both levels: a row with a missing
  ``u1`` or ``u2`` is not a double judgment and is rejected.
* ``p_{R|i}`` is estimated with Eq. (4) (one-sided: U2's verdict given U1's level) or Eq. (5)
  (both directions pooled). Its standard deviation is the binomial one the paper gives under
  Table 2, ``sigma = sqrt(p (1 - p) / N_D)`` with ``N_D`` the denominator of Eq. (4)/(5).
* A level with no judgments in the denominator gets ``p = NaN`` and ``sigma = NaN`` with
  ``denominator = 0``; nothing raises.

Modules (everything is importable from ``helpers.prm`` itself):

=============================  =================================================================
``helpers.prm.core``           Eq. 1-5: estimates, gains, topic bootstrap, annotation rounds, Table 5
``helpers.prm.robustness``     Tables 6-7: run orderings under U1 and U2, paired topic bootstrap
``helpers.prm.crossfit``       Table 6 with PRM gains estimated on other topics (cross-fitted)
=============================  =================================================================
"""

from .core import (METHODS, UNJUDGED, annotation_rounds, binary_gains, binary_relevant, bootstrap_topics, estimate,
                   estimator_gap, expected_relevant, marginal_tests, one_rating_per_item, pairs_from_qrels, pairs_within_items,
                   prm_gains, relevant_in_top_k, reversed_estimate, table5, udm_weights)
from .crossfit import crossfit_robustness, crossfit_summary
from .robustness import (both_sides, bootstrap_interval, bootstrap_p, gain_qrels, mean_scores, paired_bootstrap, robustness_difference,
                         robustness_tables, scheme_matrices, scheme_means)

__all__ = [
    "METHODS", "estimate", "expected_relevant", "binary_relevant", "prm_gains", "binary_gains", "udm_weights",
    "bootstrap_topics", "annotation_rounds", "relevant_in_top_k", "table5", "pairs_from_qrels",
    "one_rating_per_item", "pairs_within_items", "gain_qrels", "mean_scores", "scheme_matrices", "scheme_means",
    "robustness_difference", "bootstrap_p", "bootstrap_interval", "robustness_tables", "UNJUDGED", "crossfit_robustness",
    "crossfit_summary", "estimator_gap", "reversed_estimate", "marginal_tests", "paired_bootstrap", "both_sides",
]
