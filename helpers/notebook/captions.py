"""Human captions and column labels of the notebooks' saved tables and figures, looked up by name.

A notebook saves a table or a figure under a short file name (``out.save_table(grid,
"uniform_spread_grid")``); a paper needs a caption that says what it shows and column headers in
words and notation, not ``share_any_discrepancy``. This module holds both, keyed by the saved
name, so that no notebook has to spell them out:

* :data:`TABLES`: ``"NN_name"`` -> (caption, {column: label}); :data:`FIGURES`: ``"NN_name"`` ->
  caption. A key may hold ``{placeholders}`` for names built from data (``"05_hsd_{question}"``
  matches ``05_hsd_relevance``; the caption may use the placeholder);
* :data:`COLUMNS`: labels of the columns many tables share (``run_id`` -> ``run``); a table's
  own labels come first, and the few names with a notation of their own (``d_max``, ``n``, ``tau``)
  are set by :data:`helpers.notebook.latex.LATEX_HEADERS`.

Captions and labels are true for every run (they describe what is computed, never a number a
parameter can change); a caption passed by the notebook (``save_table(..., caption=...)``) comes
first, because it may carry the run's own values. A name with no entry falls back to its file
name, loudly: :class:`MissingCaption` is warned, naming the entry to add
(``tests/test_captions.py`` checks that every table and figure the notebooks save has one).
:func:`helpers.notebook.reports.Reporter.save_table` applies them to the LaTeX file (the CSV
keeps the column names, for scripts); the book (``tools/build_book.py``) to its pages and PDF.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable

__all__ = ["MissingCaption", "TABLES", "FIGURES", "COLUMNS", "COLUMN_PATTERNS", "table_caption", "figure_caption", "column_labels",
           "entry_key", "fallback_caption"]


class MissingCaption(UserWarning):
    """A saved table or figure (or a table column) has no human caption (label) registered."""


_MEAN_LOW_HIGH = {"mean": "mean", "low": "low", "high": "high", "sd": "sd", "replicates": "replicates",
                  "interval": "interval"}

#: Labels of columns shared by many tables.
COLUMNS: dict[str, str] = {
    "run_id": "run", "system_a": "run A", "system_b": "run B", "query_id": "topic", "doc_id": "document",
    "share_full_spread": "share with D = Dmax", "p_full_spread_given_relevant": "P(D = Dmax | RawG > 0), exact",
    "se_full_spread": "s.e. of the share",
    "mean_spread": "mean D", "mean_bonus": "mean UG − RawG", "share_ties_broken": "RawG ties broken by UG",
    "tau_mean": "τ, mean", "tau_low": "τ, low", "tau_high": "τ, high",
    "disc_mean": "discrepancies, mean", "disc_low": "discrepancies, low", "disc_high": "discrepancies, high",
    "significant_RawG": "significant (RawG)", "significant_UG": "significant (UG)",
    "level_name": "level name", "discriminative_power": "discriminative power",
    "delta_mar": "ΔMAR", "p_value": "p-value", "es_hsd": "ES_HSD", "ci_low": "95% CI, low", "ci_high": "95% CI, high",
    **_MEAN_LOW_HIGH,
}

#: Labels of column names built from parameters: (regular expression, label template with the groups).
COLUMN_PATTERNS: list[tuple[str, str]] = [
    (r"(?P<gains>prm|binary)_mean_theta(?P<theta>\w+)", "{gains}, mean (θ = {theta})"),
    (r"(?P<gains>prm|binary)_sem_theta(?P<theta>\w+)", "{gains}, s.e. (θ = {theta})"),
    (r"power@(?P<cutoff>\d+)", "power at l = {cutoff}"),
]
_GAIN_NAMES = {"prm": "PRM", "binary": "binary"}

_UNIFORM = {"share_full_spread_low": "share D = Dmax, low", "share_full_spread_high": "share D = Dmax, high",
            "mean_spread_low": "mean D, low", "mean_spread_high": "mean D, high",
            "mean_bonus_low": "mean bonus, low", "mean_bonus_high": "mean bonus, high",
            "share_ties_broken_low": "ties broken, low", "share_ties_broken_high": "ties broken, high",
            "share_full_spread_sd": "share D = Dmax, s.d.", "mean_spread_sd": "mean D, s.d.",
            "mean_bonus_sd": "mean bonus, s.d.", "share_ties_broken_sd": "ties broken, s.d."}
_HSD_PAIR = {f"{k}_{g}": f"{label} ({g})" for g in ("RawG", "UG") for k, label in
             (("p_value", "p"), ("abs_diff", "|d|"), ("es_hsd", "ES_HSD"), ("es_var", "|d|/V_E"))}

#: ``"NN_name"`` -> (caption, column labels) of every table the notebooks save.
TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "{nb}_findings": (
        "Findings of the notebook: one row per question, with what the paper reports, this run's value "
        "and the verdict (letters refer to the caveats of its Limitations paragraph).", {}),
    "01_sakai2017_table1": (
        "Sakai's Table 1 recomputed from the ratings alone: raw gain RawG, spread D, weighted gain WG and "
        "unanimity-aware gain UG at p = 0.2 and 0.1 of the seven items (N = 5 assessors, ratings 0..3).",
        {"UG_p0.2": "UG (p = 0.2)", "UG_p0.1": "UG (p = 0.1)"}),
    "01_gain_settings": (
        "Gain-value settings NTCIR tasks used to turn several assessors' ratings into one gain, with WG and UG.",
        {}),
    "01_gain_settings_patterns": (
        "Every setting applied to every pattern of three ratings on 0..2 (UG with this run's p).", {}),
    "01_uniform_spread_grid": (
        "Sakai's uniform simulation: per highest rating Dmax and number of ratings N, the share of items with "
        "RawG > 0 whose spread D reaches Dmax (simulated, with its binomial standard error, and the exact "
        "P(D = Dmax | RawG > 0)), the mean spread, the mean UG bonus and the share of RawG ties that UG breaks "
        "over all pairs of items, as the simulation has no topics (simulated with its jackknife standard error, "
        "blank where under 30 items break a tie, and its exact value).", {"p_ties_broken": "RawG ties broken by UG, exact",
                                      "se_ties_broken": "RawG ties broken, s.e."}),
    "01_rawg_reversals": (
        "Every pair of rating patterns (three ratings on 0..2) whose RawG order a gain setting reverses: the "
        "pattern a of higher RawG (the sum of its ratings) gets a lower gain than the pattern b.",
        {"higher RawG": "a", "gain a": "gain of a", "lower RawG": "b", "gain b": "gain of b"}),
    "01_real_vs_uniform": (
        "Real ratings against uniform ratings of the same items and numbers of ratings: spread, UG bonus and RawG "
        "ties broken, counted within topics (uniform: mean, interval and standard deviation over the draws).",
        {**_UNIFORM, "topics": "topics"}),
    "02_table2_tau": (
        "Kendall's τ between the run rankings under RawG-based and UG-based gains, per measure, Dmax and N, "
        "with asymptotic 95% confidence intervals cut to [−1, 1], τ's range (the paper's Table 2, one draw of "
        "ratings).", {"low": "95% CI, low", "high": "95% CI, high"}),
    "02_table2_tau_layout": (
        "Kendall's τ between RawG and UG run rankings with 95% confidence intervals cut to [−1, 1], laid out like "
        "the paper's Table 2 (rows Dmax, columns N).", {}),
    "02_table3_counts": (
        "Discrepancies of the randomised Tukey HSD test (run pairs significant under one of RawG and UG but not "
        "the other), per measure, Dmax and N, with the number of significant pairs under each.",
        {"pairs": "run pairs"}),
    "02_table3_discrepancies": (
        "The discrepant run pairs: p-values, absolute mean differences |d| and effect sizes under RawG and UG "
        "(ES_HSD = |d|/√V_E; |d|/V_E for comparison only).",
        {**_HSD_PAIR, "significant_in": "significant under"}),
    "02_best_runs": (
        "The best run of each team by its mean official score on the first measure: the runs the significance tests "
        "compare when each team's run is chosen once by official gains.", {}),
    "02_simulated_spread": (
        "Spread of the simulated ratings of the items with RawG > 0: share with D = 0, share with D = Dmax and the mean "
        "UG bonus, per Dmax and N.", {"share_D0": "share D = 0", "share_Dmax": "share D = Dmax"}),
    "02_real_vs_simulated": (
        "RawG against UG with the real ratings and with uniform ratings of the same items and the same RawG: "
        "Kendall's τ, HSD discrepancies and significant pairs (mean and range over the draws; τ's 95% CI cut to "
        "[−1, 1]).", {"disc_max": "discrepancies, max", "draws_with_disc": "draws with a discrepancy",
                      "tau_ci_low": "τ 95% CI, low", "tau_ci_high": "τ 95% CI, high"}),
    "02_table2_vs_paper": (
        "Sakai's Table 2 τ (real STC data) against the stand-in's mean τ and its range over the replicates, "
        "per measure, Dmax and N: whether the paper's τ lies inside, and on which side if not.",
        {"paper": "paper's τ", "mean": "stand-in mean τ", "low": "range, low", "high": "range, high",
         "side": "paper lies", "informative": "informative cell", "ug_equals_rawg": "UG = RawG (nothing to test)",
         "coverage": "chance the range holds a new draw"}),
    "02_findings_appendix": (
        "Appendix of notebook 02: checks of the simulation (the stand-in against the paper's Tables 2 and 3, and "
        "the fade with N, which holds by construction), not answers to the paper's questions; letters refer to "
        "its Limitations.", {}),
    "03_findings_appendix": (
        "Appendix of notebook 03: checks of the simulation and of the machinery (rows whose result follows "
        "from how the data were made, not answers to the paper's questions; letters refer to its Limitations).",
        {}),
    "06_findings_appendix": (
        "Appendix of notebook 06: published values, results a simulated pilot settles by how it was built "
        "(sizing, cheapest design, planted coverage and power), and the split halves' detail; checks of the "
        "machinery rather than findings; letters refer to its Limitations.", {}),
    "04_findings_appendix": (
        "Appendix of notebook 04: results on simulated runs set by the run design or by how the simulated users "
        "were built, checks of the machinery rather than findings about the measures.", {}),
    "05_findings_appendix": (
        "Appendix of notebook 05: the results of this run that hold by construction of the simulation or are set "
        "by it, checks of the machinery rather than findings.",
        {}),
    "02_replicates_cells": (
        "RawG against UG over the replicates of the simulated ratings, per measure, Dmax and N: Kendall's τ and "
        "HSD discrepancies (mean and range over the replicates), the share of replicates with a discrepancy and how many "
        "replicates gave each number of discrepancies.",
        {"share_any_discrepancy": "replicates with a discrepancy",
         "disc_distribution": "discrepancies × replicates", "ug_equals_rawg": "UG = RawG (nothing to test)"}),
    "03_prm_estimates": (
        "PRM parameters p(R|i): the probability that another assessor finds a result relevant (level ≥ θ) given "
        "its assessed level i, with counts and binomial σ, per threshold θ and estimator (Eq. 4, Eq. 5).",
        {"threshold": "θ", "p": "p(R|i)", "numerator": "relevant", "denominator": "judged"}),
    "03_table5_relevant_in_top_k": (
        "Expected (PRM) and binary numbers of relevant results in each run's top k, mean and standard error "
        "over topics, per threshold θ (the paper's Table 5).", {}),
    "03_table6_robustness": (
        "Robustness of run rankings to the choice of assessor: Kendall's τ between the U1- and U2-based run "
        "orderings under binary, PRM and linear gains, with 95% confidence intervals (the paper's Table 6).",
        {"low": "95% CI, low", "high": "95% CI, high"}),
    "03_table7_prm_vs_other_gains": (
        "Kendall's τ between the run ordering under PRM gains and under binary, linear and exponential gains, "
        "with 95% confidence intervals (the paper's Table 7).", {"low": "95% CI, low", "high": "95% CI, high"}),
    "03_table6_tests": (
        "Every paired test of Table 6: PRM minus binary or linear τ and linear minus binary τ, per data set "
        "(this collection, replicates, draws of U2) and threshold θ, with its unadjusted interval and the p-value "
        "Holm-adjusted over the thresholds of its test (its family) beside the unadjusted one.", {}),
    "03_other_sources": (
        "PRM parameters p(R|i) estimated from other pairs of assessors.",
        {"threshold": "θ", "p": "p(R|i)", "variant": "variant"}),
    "03_replicates_summary": (
        "Tables 6 and 7 over the replicates of the simulation: mean, interval and standard deviation of each τ.",
        {"table": "table"}),
    "03_draws_summary": (
        "Spread of the estimates over the draws of the random second assessor (mean, interval, extremes), with "
        "this run's value and its z-score.",
        {"vmin": "min", "vmax": "max", "this_run": "this run", "z": "z"}),
    "04_mean_scores": ("Mean per-topic score of every run under every diversity measure.", {}),
    "04_kendall_tau": ("Kendall's τ-b between the run rankings of every pair of diversity measures.", {}),
    "04_discriminative_power": (
        "Discriminative power: the share of run pairs significantly different under the randomised Tukey HSD "
        "test, per measure.", {}),
    "04_discriminative_power_two_cutoffs": ("Discriminative power of every measure at two cutoffs.", {}),
    "04_replicates_summary": (
        "Discriminative power and Kendall's τ over the replicates of the simulation (mean, interval, standard "
        "deviation).", {"quantity": "quantity"}),
    "04_normaliser_sensitivity": (
        "Discriminative power of every measure under this run's gain normaliser and the other one, and Kendall's τ "
        "between the two run rankings.", {"tau between the two rankings": "τ between the rankings"}),
    "04_planted_truth_recovery": (
        "Planted-truth experiment: for every planted user model and measure, the share of the run pairs the "
        "planted truth resolves that the measure puts in the planted order (mean and interval over the "
        "replicates).", {"model": "planted model"}),
    "04_planted_users": ("Planted user models of notebook 04 and the measures aligned with each.",
                         {"model": "planted model"}),
    "04_planted_truth_checks": (
        "Planted-truth family checks in full: leader, measures compared, left out and set aside, the pair tested, "
        "its difference, interval and Holm p, verdict, and the leader set of the measures compared.", {}),
    "04_significant_pairs_vs_planted_truth": (
        "Significant run pairs of the single draw against each planted truth: pairs in the planted order, "
        "against it, and unresolved by the truth.", {"model": "planted model"}),
    "05_mar_{question}": (
        "Mean agreement rate (MAR) of every measure and of every assessor with the assessors' preferences "
        "({question}).", {"assessor MAR": "assessor MAR"}),
    "05_hsd_{question}": (
        "Significant differences in MAR under the randomised Tukey HSD test ({question}), with pairs or with "
        "topics as blocks: the system with the higher and the lower MAR, ΔMAR, p-value over pairs, effect size "
        "and p-value over topics.",
        {"higher": "higher MAR", "lower": "lower MAR", "p_value": "p (pairs as blocks)",
         "p_topics": "p (topics as blocks)"}),
    "05_significant_involving_{question}": (
        "Differences in MAR significant with topics as blocks that involve an assessor role (cross-fitted) or the "
        "highest MAR ({question}); a role whose MAR moves more out of sample than its gap to the nearest role is "
        "named '(unstable)'.",
        {"higher": "higher MAR", "lower": "lower MAR", "p_value": "p (pairs as blocks)",
         "p_topics": "p (topics as blocks)"}),
    "05_top_group": (
        "Each measure's MAR per question and whether the randomised Tukey HSD with topics as blocks leaves it in the "
        "top group (not separated from the highest MAR); measures with the same preference on every pair are one row.",
        {"same preference": "same preference on every pair", "top group": "in the top group"}),
    "05_planted_truth_mar": (
        "Planted-truth experiment: MAR of every measure and of the cross-fitted best, median and worst assessors "
        "against panels of simulated assessors of each planted user model (mean and interval over the "
        "replicates).", {"model": "planted model", "system": "measure or assessor"}),
    "05_planted_recovery": (
        "Planted-truth experiment, one study: for every planted user model with an aligned family and question, in "
        "how many single studies the family's best measure is first by MAR and significantly first (Tukey HSD, "
        "topics as blocks), and its lead.",
        {"model": "planted model"}),
    "05_planted_recovery_average": (
        "Planted-truth experiment, on average: the family's best measure against the best outside it (picked on half "
        "of the replicates), their held-out mean MAR difference and the verdict, uncorrected and after Holm.",
        {"model": "planted model"}),
    "05_planted_recovery_noise_free": (
        "Planted-truth experiment without noise: the chance that a random leader set holds a family member, the "
        "measures nearest the planted users and the family check on the noise-free agreement.",
        {"model": "planted model"}),
    "05_normaliser_shift": (
        "Effect of the gain normaliser: the share of pairs on which each measure's preference flips, and its MAR "
        "under the two normalisers.",
        {"flipped": "pairs flipped", "mar_a": "MAR, this run's normaliser", "mar_b": "MAR, the other",
         "delta": "ΔMAR"}),
    "05_replicates_mar": (
        "MAR of every measure and assessor over the replicates of the simulation (mean, interval, standard "
        "deviation).", {}),
    "05_real_thuir_agreement": (
        "Agreement of ad hoc measures, precision and trivial baselines with the users' SERP preferences of "
        "the THUIR image-search set: queries agreeing (k of n), rate, chance rate, p-value and 95% interval.",
        {"n": "queries", "k": "agreeing", "rate": "agreement rate", "ties": "ties",
         "p_value": "p (two-sided)", "p_above": "p (above chance)", "p_value_holm": "p (two-sided, Holm)",
         "p_above_holm": "p (above chance, Holm)"}),
    "05_real_thuir_sensitivity": (
        "THUIR image search: the measure agreeing best with the users on the decisive queries under each gain "
        "map, relevance threshold and cutoff.", {"n": "queries", "k": "agreeing"}),
    "06_topic_set_sizes": (
        "Topics needed by Sakai's methods (paired t-test, one-way ANOVA, CI width) per measure: with his 2 V_E1, "
        "approximate and exact, and with the paired differences' 2 V_E2 (exact), each with the interval of n from "
        "the topic bootstrap's 95% interval of the variance; the ratio V_E1/V_E2 with its interval; for the t-test, the "
        "power reached at Sakai's n under 2 V_E2 and the crossed assessors' bias, and the power no n exceeds (1 "
        "without a bias).",
        {"V_E1": "V_E1", "V_E1_low": "V_E1 low", "V_E1_high": "V_E1 high", "n_approx": "n (Sakai)",
         "n_exact": "n (exact)", "n_exact_low": "n low", "n_exact_high": "n high", "V_E2": "V_E2",
         "V_E2_low": "V_E2 low", "V_E2_high": "V_E2 high", "n_paired": "n (2 V_E2)", "n_paired_low": "n (2 V_E2) low",
         "n_paired_high": "n (2 V_E2) high", "ratio": "V_E1/V_E2", "ratio_low": "ratio low", "ratio_high": "ratio high",
         "power_sakai": "power at Sakai's n", "power_sakai_low": "power at Sakai's n, low",
         "power_sakai_high": "power at Sakai's n, high", "power_cap": "power cap", "power_cap_low": "power cap low",
         "power_cap_high": "power cap high"}),
    "06_gt_reproductions": (
        "G- and D-study values published by gt4ireval and Brennan against this run's, at the digits the sources "
        "print, one value a row. adhoc3: gt4ireval's TREC-3 AP matrix of 40 runs x 50 topics with drop = 0.25 "
        "(30 runs kept). synthetic4: gt4ireval's test data, Brennan's No. 4 read as p x i (systems x topics). "
        "Brennan No. 3: p x i x o, read as s x t x a (assessors crossed). Brennan No. 4: p x (r:t), read as "
        "s x (a:t) (each topic its own assessors). Brennan, Generalizability Theory (2001), ch. 4 and 6.",
        {"data": "data", "quantity": "quantity", "published": "published", "this_run": "this run",
         "same": "reproduced"}),
    "06_g_and_d_study": (
        "G-study variance components (negative estimates set to 0), Erho2 and Phi at the pilot's sizes with 95% "
        "intervals (Feldt's for Erho2 and the topics, Arteaga et al.'s for Phi; with crossed assessors both on "
        "Satterthwaite's composite mean squares), and the topics needed for the target Erho2.",
        {"var_s": "σ²(s)", "var_t": "σ²(t)", "var_a": "σ²(a)", "var_a:t": "σ²(a:t)", "var_st": "σ²(st)",
         "var_sa": "σ²(sa)", "var_ta": "σ²(ta)", "var_sta": "σ²(sta)", "var_sa:t": "σ²(sa:t)", "erho2": "Eρ²",
         "erho2_low": "Eρ² low", "erho2_high": "Eρ² high", "phi": "Φ", "phi_low": "Φ low", "phi_high": "Φ high",
         "topics_needed": "topics", "topics_low": "topics low", "topics_high": "topics high"}),
    "06_cost_curve": (
        "Topics needed for the target Erho2 with 1, 2, ... assessors per topic, with Feldt's 95% interval "
        "(Satterthwaite's with crossed assessors), and the "
        "cost of each design, with the topic bootstrap's 95% percentile intervals of the cost and of its difference "
        "to the cheapest; the tie (within noise) reads the bootstrap's interval of the difference.",
        {"n_assessors": "assessors", "n_topics": "topics", "n_low": "topics low", "n_high": "topics high",
         "cost": "cost", "cost_low": "cost low", "cost_high": "cost high", "diff_low": "difference low",
         "diff_high": "difference high", "cheapest_share": "share cheapest", "point_inside": "point inside interval", "within_noise": "within noise"}),
    "06_break_even": (
        "Break-even ratios of topic cost to judgment-set cost: above the ratio, one assessor more per topic reaches "
        "the target Erho2 at less cost, from the pilot's variance components, with the topic bootstrap's "
        "95% percentile interval (inf: at no ratio).",
        {"n_assessors": "n_a", "break_even": "break-even ratio", "low": "low", "high": "high"}),
    "06_split_halves": (
        "Disjoint halves of the pilot: Kendall's τ between the halves' system orders and the rate of major "
        "conflicts, observed (mean, and 95% interval or range of single splits) and predicted out of sample from "
        "the Erho2 of the other topics (Urbano et al. 2013; the normal-theory τ, approximate), with the intervals the "
        "interval of Erho2 (Feldt's; Satterthwaite's with crossed assessors) maps onto. Conflicts come from paired t-tests of every pair of systems in each half, "
        "uncorrected for multiple testing, at the paper's α = 0.05 (Urbano et al.'s fit); their interval and SE "
        "are draw-level (a draw's tests share its topics).",
        {"n_topics": "topics", "n_assessors": "assessors", "rest": "G-study topics", "erho2": "Eρ²",
         "erho2_low": "Eρ² low", "erho2_high": "Eρ² high", "tau_observed": "τ observed",
         "tau_se": "τ MC SE", "tau_low": "τ low", "tau_high": "τ high", "tau_predicted": "τ predicted",
         "tau_predicted_low": "τ predicted low", "tau_predicted_high": "τ predicted high",
         "tau_normal": "τ normal", "tau_normal_low": "τ normal low", "tau_normal_high": "τ normal high",
         "conflicts_predicted": "conflicts predicted", "conflicts_predicted_low": "conflicts predicted low",
         "conflicts_predicted_high": "conflicts predicted high", "conflicts_observed": "conflicts observed",
         "conflicts_se": "conflicts SE", "conflicts_low": "conflicts low", "conflicts_high": "conflicts high",
         "significant_pairs": "significant pairs", "tests": "t-tests (uncorrected)", "draws": "splits",
         "no_interval": "splits without interval"}),
}

#: ``"NN_name"`` -> caption of every figure the notebooks save.
FIGURES: dict[str, str] = {
    "01_uniform_grid_heatmaps": (
        "Uniform ratings: share of relevant items whose spread D reaches Dmax (where UG = RawG), and share of RawG "
        "ties broken by UG, per highest rating Dmax and number of ratings N."),
    "01_spread_distribution_and_bonus": (
        "Distribution of the spread D of uniform ratings for each N and Dmax, and the UG bonus p·N·(Dmax − D) "
        "each spread earns."),
    "01_items5to7_p_sensitivity": "UG of Items 5–7 of Sakai's Table 1 against p: the three items tie at p = 0.2.",
    "01_real_vs_uniform": (
        "Real ratings against one draw of uniform ratings: distribution of the spread D, and UG against RawG "
        "coloured by spread."),
    "02_tau_heatmap": "Kendall's τ between the RawG and UG run rankings, per measure, Dmax and N.",
    "02_discrepancy_counts": (
        "Discrepancies of the randomised Tukey HSD test between RawG and UG, per measure, Dmax and N."),
    "02_real_vs_simulated": (
        "Real against simulated ratings of the same items: spread of the items with RawG > 0, Kendall's τ between RawG "
        "and UG rankings, and HSD discrepancies."),
    "02_replicates_discrepancies": (
        "HSD discrepancies between RawG and UG over the replicates (mean and range) against the number of "
        "ratings N, per measure and Dmax."),
    "03_fig2_topic_bootstrap": (
        "Topic bootstrap of the PRM parameters p(R|i) per assessed level, with the binomial σ for comparison "
        "(the paper's Fig. 2)."),
    "03_fig3_annotation_rounds": (
        "PRM estimates against the number of double judgments over simulated annotation rounds (mean and "
        "quantiles; the paper's Fig. 3)."),
    "03_replicates_table6": "Kendall's τ of Table 6 over the replicates of the simulation (mean and interval).",
    "04_kendall_tau_heatmap": "Kendall's τ-b between the run rankings of the diversity measures, in clustered order.",
    "04_dndcg_vs_irec": "Relevance (D-nDCG) against diversity (I-rec) of every run; dotted lines: equal D♯-nDCG.",
    "04_asl_curves": (
        "Achieved significance levels of the randomised Tukey HSD test: the run pairs' p-values sorted, per "
        "measure, coloured by family."),
    "04_replicates_power": (
        "Discriminative power of every measure over the replicates (mean and interval), beside the single draw."),
    "05_mar_hsd_groups": (
        "MAR of every measure and of the best, median and worst assessor, per question; letters: groups of the "
        "randomised Tukey HSD test with topics as blocks (a shared letter means no significant difference)."),
    "05_replicates_mar": "MAR of every measure and assessor over the replicates of the simulation (mean and interval).",
    "04_planted_truth_recovery": (
        "Planted-truth experiment: recovery of each planted user model's run order by every measure (mean and "
        "interval over the replicates); grey rows: the model's aligned family; dotted line: chance."),
    "05_planted_truth_mar": (
        "Planted-truth experiment: MAR of every measure and cross-fitted assessor against panels of each planted "
        "user model, diversity question (mean and interval over the replicates); grey rows: the aligned family."),
    "06_topics_vs_min_diff": (
        "Topics the paired t-test needs against the difference to detect, per measure, exact noncentral t: "
        "from 2 V_E2, the paired differences' variance (solid, circles), and from Sakai's 2 V_E1, which keeps the "
        "topic variance (dashed, open squares)."),
    "06_d_study_curves": (
        "Erho2 and Phi of the leading measure against the number of topics, for 1 to 4 assessors per topic, "
        "with 95% intervals; dashed: the target."),
}


#: How placeholder values read in a caption (others as they are).
_VALUE_WORDS = {"question": {"relevance": "relevance question", "diversity": "diversity question",
                             "both": "labels consistent across both questions"}}


def _words(values: dict[str, str]) -> dict[str, str]:
    return {k: _VALUE_WORDS.get(k, {}).get(v, v) for k, v in values.items()}


def _pattern(key: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", key)
    regex = "".join(re.escape(p) if k % 2 == 0 else f"(?P<{p}>[A-Za-z0-9_.-]+)" for k, p in enumerate(parts))
    return re.compile(regex + r"\Z")


def entry_key(registry: dict, notebook: str, name: str) -> tuple[str | None, dict[str, str]]:
    """The key of ``registry`` matching ``NN_name`` (exact keys first, then ``{placeholder}``
    keys) and the placeholder values; ``(None, {})`` when there is none."""
    stem = f"{notebook[:2]}_{name}"
    if stem in registry:
        return stem, {}
    for key in registry:
        if "{" in key:
            m = _pattern(key).match(stem)
            if m:
                return key, m.groupdict()
    return None, {}


def fallback_caption(notebook: str, name: str) -> str:
    """A caption made from the file name, for names with no entry (``kendall_tau`` of
    ``04_diversified_measures`` -> ``Kendall tau (notebook 04, diversified measures).``)."""
    words = name.replace("_", " ").strip()
    words = words[:1].upper() + words[1:]
    topic = f", {notebook[3:].replace('_', ' ')}" if len(notebook) > 3 else ""
    return f"{words} (notebook {notebook[:2]}{topic})."


def _missing(kind: str, notebook: str, name: str, registry: str) -> None:
    warnings.warn(f"no human caption for the {kind} {notebook[:2]}_{name}: it falls back to its file name; add "
                  f"'{notebook[:2]}_{name}' to helpers.notebook.captions.{registry}", MissingCaption, stacklevel=3)


def table_caption(notebook: str, name: str, *, warn: bool = True) -> str:
    """The caption of the table ``name`` of ``notebook`` (``"02_unanimity_evaluation"``, or just
    its two-digit prefix); :func:`fallback_caption` with a :class:`MissingCaption` warning when
    :data:`TABLES` has no entry."""
    key, values = entry_key(TABLES, notebook, name)
    if key is None:
        if warn:
            _missing("table", notebook, name, "TABLES")
        return fallback_caption(notebook, name)
    return TABLES[key][0].format(**_words(values))


def figure_caption(notebook: str, name: str, *, warn: bool = True) -> str:
    """The caption of the figure ``name`` of ``notebook``, like :func:`table_caption`."""
    key, values = entry_key(FIGURES, notebook, name)
    if key is None:
        if warn:
            _missing("figure", notebook, name, "FIGURES")
        return fallback_caption(notebook, name)
    return FIGURES[key].format(**_words(values))


#: Column names that are fine as they are although they contain an underscore (none today).
_RAW_OK: frozenset[str] = frozenset()


def _from_pattern(column: str) -> str | None:
    for regex, template in COLUMN_PATTERNS:
        m = re.fullmatch(regex, column)
        if m:
            return template.format(**{k: _GAIN_NAMES.get(v, v) for k, v in m.groupdict().items()})
    return None


def column_labels(notebook: str, name: str, columns: Iterable, *, warn: bool = True) -> dict[str, str]:
    """Labels of the ``columns`` of table ``name`` that have one (the table's own, then
    :data:`COLUMNS`). A column that looks like an identifier (``share_any_discrepancy``) and has
    no label is warned about (:class:`MissingCaption`), unless the LaTeX notation covers it."""
    from .latex import LATEX_HEADERS

    key, _ = entry_key(TABLES, notebook, name)
    own = TABLES[key][1] if key is not None else {}
    labels, raw = {}, []
    for col in columns:
        col = " ".join(str(p) for p in col if str(p)) if isinstance(col, tuple) else str(col)
        pattern = _from_pattern(col)
        if col in own or col in COLUMNS:
            labels[col] = own.get(col, COLUMNS.get(col))
        elif pattern is not None:
            labels[col] = pattern
        elif "_" in col and col not in LATEX_HEADERS and col not in _RAW_OK:
            raw.append(col)
    if raw and warn:
        warnings.warn(f"table {notebook[:2]}_{name}: no label for the column(s) {', '.join(raw)}; they are printed as "
                      "they are named: add labels to helpers.notebook.captions.TABLES or COLUMNS", MissingCaption,
                      stacklevel=2)
    return labels
