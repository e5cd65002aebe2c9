"""Notebook 06's labels and cells from referee round 10 (fix06h): the crossed t-test's size names the
assessors' bias; a tie of three or more designs lists every design; a "holds in part" says which part."""

import numpy as np
import pandas as pd

from helpers.findings.design import at_lines
from helpers.findings.design_cost import every_design, paired_label, reach_part, reach_verdict, topics_paper
from helpers.findings.design_views import sizes_view


def _at(ks, t, ci, cap=1.0):
    rows = []
    for k, (n, lo, hi), c in zip(ks, t, ci):
        rows.append({"n_assessors": k, "method": "paired t", "V_E2": .01, "n_paired": n, "n_paired_low": lo,
                     "n_paired_high": hi, "power_cap": cap})
        rows.append({"n_assessors": k, "method": "CI width", "V_E2": .01, "n_paired": c[0], "n_paired_low": c[1],
                     "n_paired_high": c[2], "power_cap": np.nan})
    return pd.DataFrame(rows).astype({c: "Int64" for c in ("n_paired", "n_paired_low", "n_paired_high")})


def _curve(ks, n, lo, hi, cost):
    return pd.DataFrame({"n_assessors": ks, "n_topics": n, "n_low": lo, "n_high": hi, "cost": cost})


def test_crossed_t_test_label_names_the_assessor_bias():
    assert paired_label(True) == "2 V_E2 + assessor bias" and paired_label(False) == "2 V_E2"
    assert topics_paper(True) == "the pilot's D-study and 2 V_E2 + assessor bias"
    at = _at([3], [(3700, 690, None)], [(27, 25, 29)])
    assert at_lines(at, "nDCG@10", .8, crossed=True)[0].startswith("nDCG@10, n_a = 3 per topic (2 V_E2; t-test: + assessor bias): ")
    assert "(2 V_E2): paired t-test 3,700" in at_lines(at, "nDCG@10", .8)[0]
    sizes = pd.DataFrame({"measure": ["m"], "method": ["paired t"], "V_E1": [.02], "n_approx": [50], "n_exact": [51],
                          "n_exact_low": [40], "n_exact_high": [60], "V_E2": [.01], "n_paired": [30], "n_paired_low": [20],
                          "n_paired_high": [40], "ratio": [2.0], "ratio_low": [1.5], "ratio_high": [2.5]})
    assert "n exact (2 V_E2; t-test: + assessor bias)" in sizes_view(sizes, crossed=True).columns
    assert "n exact (2 V_E2)" in sizes_view(sizes).columns


def test_three_way_tie_lists_every_design_then_compacts_past_35_words():
    ks = [2, 3, 4]
    curve = _curve(ks, [26, 20, 18], [14, 11, 10], [44, 34, 30], [520, 500, 540]).set_index("n_assessors")
    at = _at(ks, [(643, 599, 690), (499, 465, 535), (427, 398, 458)], [(106, 99, 114), (83, 78, 89), (72, 67, 77)])
    texts = {k: f"n_a = {k}: Eρ² {curve.loc[k, 'n_topics']}, t-test {t}" for k, t in zip(ks, (643, 499, 427))}
    cell = every_design(curve, at, ks, texts)
    assert cell == "n_a = 2: Eρ² 26, t-test 643; n_a = 3: Eρ² 20, t-test 499; n_a = 4: Eρ² 18, t-test 427"
    short = every_design(curve, at, ks, texts, words=10)      # past the limit: the point-cheapest (cost 500) first
    assert short == "n_a = 3: Eρ² 20, t-test 499; others: n_a = 2, 4: Eρ² 18 to 26, t-test 427 to 643"


def test_holds_in_part_says_which_part_holds():
    ks = [1, 2]
    curve = _curve(ks, [26, 22], [15, 13], [39, 34], [350, 350])
    at = _at(ks, [(143, 109, 185), (124, 95, 161)], [(20, 18, 22), (18, 16, 20)])
    assert reach_verdict(curve, at, ks, {}, 43) == "holds in part"
    assert reach_part(curve, at, ks, {}, 43) == "43 topics reach Eρ²'s 26 and 22, not the t-test's 143 and 124"
    assert reach_part(curve, at, ks, {}, 200) == ""                      # "holds": nothing to split
    three = _curve([1, 2, 3], [26, 22, 20], [15, 13, 12], [39, 34, 30], [350, 350, 360])
    at3 = _at([1, 2, 3], [(143, 109, 185), (124, 95, 161), (30, 25, 36)], [(20, 18, 22)] * 3)
    assert reach_part(three, at3, [1, 2, 3], {}, 43) == \
        "43 topics reach Eρ²'s 26, 22 and 20 and the t-test's 30, not the t-test's 143 and 124"
