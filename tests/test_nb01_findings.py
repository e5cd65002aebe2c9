"""helpers.findings.gains (notebook 01's findings): the grow-with-N row, the tie sentences, the
parameter help that papermill shows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import papermill as pm
import pytest

from helpers import paths
from helpers.findings import gains as gain_findings
from helpers.simulate import ratings as sim_ratings

EXACT = {"worst": 0.004, "worst_z": 1.6, "z_limit": 4.0, "cells": 3, "family_alpha": 0.001, "agrees": True}


def _grid(rows, se=0.003):
    """A literal grid: (d_max, n, share_full_spread, share_ties_broken), every share's standard
    error ``se``, the exact tie share equal to the simulated one."""
    grid = pd.DataFrame(rows, columns=["d_max", "n", "share_full_spread", "share_ties_broken"])
    return grid.assign(se_full_spread=se, se_ties_broken=se, p_ties_broken=grid["share_ties_broken"])


def _found(grid, p=0.2):
    return gain_findings.findings(table1_ok=True, table1_cells=35, stc2=[4.6, 4.0], tie_p=[0.2], grid=grid,
                                  exact=EXACT, p=p)


def _row(found, start):
    return next(r for r in found.rows if r.question.startswith(start))


def test_growth_with_n_is_by_construction_and_says_it_reproduces_the_remark():
    found = _found(_grid([(2, 5, 0.747, 0.206), (2, 80, 1.0, 0.0), (4, 5, 0.423, 0.590), (4, 80, 1.0, 0.0)]))
    row = _row(found, "Does the share of items at D = Dmax grow")
    assert row.verdict == "by construction"
    assert "Sec. 4 remark" in row.paper
    assert row.run == "N = 5 → 80: 0.747 → 1.000 (Dmax = 2, rises); 0.423 → 1.000 (Dmax = 4, rises)"
    letter = found.letters()["exact_uniform"]
    assert found.table().set_index("question").loc[row.question, "verdict"] == f"by construction ({letter})"
    assert "reproduces Sakai's remark and is no evidence about assessors" in found.limitations()
    assert "this run shows" not in found.limitations()   # every Dmax rises


def test_growth_with_one_n_cannot_tell_and_changes_are_read_against_their_noise():
    """Referee round 7, randA: a share of 1.000 in every cell is constant, not a dip; 0.968 -> 0.966
    at 0.2 s.e. is within noise; only a change beyond its noise gets a trend word."""
    one = _row(_found(_grid([(2, 5, 0.747, 0.206), (4, 5, 0.423, 0.590)])), "Does the share")
    assert (one.verdict, one.caveats, one.run) == ("cannot tell", (), "N = 5: 0.747 (Dmax = 2); 0.423 (Dmax = 4)")
    rows = [(2, 28, 1.0, 0.0), (2, 36, 1.0, 0.0), (8, 28, 0.968, 0.1), (8, 36, 0.966, 0.05)]
    row = _row(_found(_grid(rows, se=0.007)), "Does the share")
    assert row.verdict == "by construction"
    assert row.run == "N = 28 → 36: 1.000 → 1.000 (Dmax = 2, constant); 0.968 → 0.966 (Dmax = 8, within noise, 0.2 s.e.)"
    limits = _found(_grid(rows, se=0.007)).limitations()   # referee round 10, set B: (a) says what the run shows
    assert "cannot fall as N grows, by its formula (section 4); this run shows no rise beyond noise" in limits
    mixed = [(2, 28, 1.0, 0.0), (2, 36, 1.0, 0.0), (8, 5, 0.17, 0.1), (8, 80, 1.0, 0.0)]
    assert "this run shows a rise only for Dmax = 8:" in _found(_grid(mixed)).limitations()
    fall = gain_findings.share_changes(_grid([(2, 40, 0.999, 0.0), (2, 80, 0.990, 0.0)], se=0.001))
    assert fall[2]["word"] == "falls" and fall[2]["z"] == pytest.approx(-0.009 / np.hypot(0.001, 0.001))
    assert fall[2]["z_limit"] == pytest.approx(1.959964, abs=1e-6)   # one Dmax: no correction


def test_tie_shares_are_printed_beside_their_exact_values_and_never_ranked():
    """Referee round 7: tie shares are the model's; the prose ranks no cell, the lines show exact."""
    grid = sim_ratings.spread_grid([1, 8], [1, 5], 2000, 0.2, np.random.default_rng(7))
    prose = _found(grid).prose
    assert not any("largest share" in s or "smallest share" in s for s in prose)
    lines = gain_findings.ties_lines(grid)
    assert lines[0] == ("Dmax=1: share of RawG ties broken by UG over all pairs of items (no topics), simulated ± s.e. "
                        "(exact)  N=1: no tie broken (exact < 1e-12), N=5: no tie broken (exact < 1e-12)")
    se = gain_findings.claims.number(grid['se_ties_broken'].iloc[3])
    assert lines[1].endswith("N=5: " + f"{grid['share_ties_broken'].iloc[3]:.3f} ± {se}" + " (exact 0.793)")


def test_simulated_dmax_1_breaks_no_tie():
    """On a real simulation (uniform ratings 0/1), the share at Dmax = 1 is 0, as its exact value."""
    grid = sim_ratings.spread_grid([1, 2, 3], [10], 2000, 0.2, np.random.default_rng(7))
    assert grid.loc[grid.d_max == 1, "share_ties_broken"].tolist() == [0.0]
    assert grid.loc[grid.d_max == 1, "p_ties_broken"].tolist() == [0.0]
    assert grid.loc[grid.d_max > 1, "share_ties_broken"].gt(0).all()


RANGES = {"profile": 'a name: "default"', "seed": "integer ≥ 0:", "p": "in [0, 1]:", "d_max_list": "integers ≥ 1:",
          "n_list": "integers ≥ 1:", "n_items": "integer ≥ 100:", "real_datasets": '[], "stc-ja" and/or "dl19-agreement":',
          "ratings_path": '"" (none) or a file, folder or glob:',
          "ratings_layout": '"long", "wide", "qrels" or "qrels_jg":', "ratings_d_max": "integer ≥ 1:",
          "replicates": "integer ≥ 2:"}


def test_papermill_help_states_each_range_on_its_first_line():
    """papermill --help-notebook shows only a parameter's first comment line: it opens with the range."""
    info = pm.inspect_notebook(str(paths.NOTEBOOKS / "01_gain_definitions.ipynb"))
    assert set(info) == set(RANGES)
    for name, start in RANGES.items():
        assert info[name]["help"].startswith(start), (name, info[name]["help"])


def _real_table():
    """The real run's dl19-agreement rows (N = 8, Dmax = 3, 200 draws), literal."""
    cols = ["share_full_spread", "mean_spread", "mean_bonus", "share_ties_broken"]
    real = dict(zip(cols, [0.147, 1.877, 1.796, 0.305]))
    same = {"share_full_spread": (0.470, 0.399, 0.528), "mean_spread": (2.290, 2.215, 2.362),
            "mean_bonus": (1.136, 1.021, 1.257), "share_ties_broken": (0.438, 0.374, 0.494)}
    rows = [{"dataset": "dl19-agreement", "source": "real", "N": 8, "Dmax": 3, "topics": 3, "items": 163,
             **real, **{f"{c}_low": v for c, v in real.items()}, **{f"{c}_high": v for c, v in real.items()}},
            {"dataset": "dl19-agreement", "source": "uniform, same RawG", "N": 8, "Dmax": 3, "topics": 3, "items": 163,
             **{c: v[0] for c, v in same.items()}, **{f"{c}_low": v[1] for c, v in same.items()},
             **{f"{c}_high": v[2] for c, v in same.items()}}]
    return pd.DataFrame(rows)


def test_the_spread_row_asks_only_about_spread_and_ties_have_their_own_row():
    """Referee round 6: both spread measures hold for dl19-agreement; fewer ties broken is its own row."""
    table = _real_table()
    found = gain_findings.findings(table1_ok=True, table1_cells=35, stc2=[4.6, 4.0], tie_p=[0.2],
                                   grid=_grid([(2, 5, 0.747, 0.206)]), exact=EXACT, p=0.2, real_table=table,
                                   verdicts=gain_findings.premise(table), replicates=200)
    spread = _row(found, "dl19-agreement (N = 8, Dmax = 3, 3 topics): do real ratings spread less")
    assert spread.question.endswith("(share at D = Dmax, mean D)?")
    assert (spread.verdict, spread.run) == ("holds", "share at D = Dmax: holds; mean D: holds")
    tie = _row(found, "Does UG break more RawG ties")
    assert tie.verdict == "does not hold"
    assert tie.run == "real vs uniform mean [middle 95% of draws]: dl19-agreement (3 topics) 0.305 vs 0.438 [0.374, 0.494], reversed"
    assert "uncorrected" not in tie.caveats   # one set, one comparison
    assert "The premise of Sakai's conjecture holds for dl19-agreement (3 topics)." in found.prose
    assert "dl19-agreement (3 topics): the premise holds" in "\n".join(
        gain_findings.premise_lines(table, gain_findings.premise(table), gain_findings.ties(table)))


def _settings(p):
    from helpers import gains
    patterns = np.array([[a, b, c] for a in range(3) for b in range(a, 3) for c in range(b, 3)], dtype=float)
    table = pd.DataFrame({"ratings": [" ".join(str(int(x)) for x in row) for row in patterns]})
    for name in ("sum (RawG)", "WG", "UG"):
        table[name] = gains.apply_setting(patterns, name, d_max=2, p=p)
    return table


def test_ug_reverses_the_rawg_order_of_1_1_1_and_0_2_2_at_p_0_2_and_the_reading_says_so():
    """Referee round 6: (1 1 1) RawG 3 -> UG 4.2 lies above (0 2 2) RawG 4 -> UG 4.0."""
    rev = gain_findings.rawg_reversals(_settings(0.2))
    assert rev["sum (RawG)"] == [] and rev["UG"] == [("0 2 2", "1 1 1")]
    assert rev["WG"][0] == ("0 2 2", "0 0 1") and len(rev["WG"]) == 8
    lines = gain_findings.settings_reading(_settings(0.2), 0.2)
    assert lines[-1] == ("pairs whose RawG order a setting reverses (higher RawG, lower gain), of 42 with different RawG: "
                         "WG 8; UG 1; none: sum (RawG) (the pairs: table rawg_reversals)")
    table = gain_findings.reversals_table(_settings(0.2))
    assert len(table) == 9 and table.iloc[-1].tolist() == ["UG", "0 2 2", 4.0, "1 1 1", pytest.approx(4.2)]
    assert gain_findings.rawg_reversals(_settings(0.0))["UG"] == []       # p = 0: UG is RawG
    assert gain_findings.settings_reading(_settings(0.0), 0.0)[-1].endswith("WG 8; none: sum (RawG) and UG "
                                                                             "(the pairs: table rawg_reversals)")


def test_order_with_ties_joins_equal_values():
    labels = ["Item 5", "Item 6", "Item 7"]
    assert gain_findings.order_with_ties([3.0, 3.5, 4.0], labels) == "Item 7 > Item 6 > Item 5"
    assert gain_findings.order_with_ties([3.0, 3.0, 3.0], labels) == "Item 5 = Item 6 = Item 7"
    assert gain_findings.order_with_ties([3.0, 2.5, 3.0], labels) == "Item 5 = Item 7 > Item 6"
    with pytest.raises(ValueError, match="2 values for 3 labels"):
        gain_findings.order_with_ties([1.0, 2.0], labels)


def test_n_1_cells_have_an_exact_zero_and_standard_error_without_a_warning():
    """Referee round 7, randB (Dmax 4, N {1, 15}): with N = 1 the exact share printed "-0.000", its
    standard error was NaN and numpy warned; now 0, 0 and no warning."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sim = sim_ratings.spread_grid([4], [1, 15], 1000, 0.51, np.random.default_rng(3))
    one = sim[sim.n == 1].iloc[0]
    assert (one["p_full_spread_given_relevant"], one["se_full_spread"], one["p_ties_broken"]) == (0.0, 0.0, 0.0)
    assert np.signbit(one["p_full_spread_given_relevant"]) == False   # noqa: E712 - prints 0.000, not -0.000
    assert sim_ratings.grid_vs_exact(sim)["agrees"]


def _two_sets():
    """Round 9's real numbers: stc-ja breaks more ties than like-for-like uniform, dl19 fewer."""
    rows = []
    for name, n, d, real, mean, lo, hi in (("stc-ja", 10, 2, (0.483, 1.478, 1.043, 0.218), (0.551, 1.547, 0.907, 0.169),
                                            (0.545, 1.541, 0.895, 0.164), (0.557, 1.552, 0.918, 0.173)),
                                           ("dl19-agreement", 8, 3, (0.147, 1.877, 1.796, 0.305), (0.470, 2.290, 1.136, 0.438),
                                            (0.399, 2.215, 1.021, 0.374), (0.528, 2.362, 1.257, 0.494))):
        cols = ["share_full_spread", "mean_spread", "mean_bonus", "share_ties_broken"]
        r = {"dataset": name, "source": "real", "N": n, "Dmax": d, "items": 100}
        u = {"dataset": name, "source": "uniform, same RawG", "N": n, "Dmax": d, "items": 100}
        for k, c in enumerate(cols):
            r.update({c: real[k], f"{c}_low": real[k], f"{c}_high": real[k]})
            u.update({c: mean[k], f"{c}_low": lo[k], f"{c}_high": hi[k], f"{c}_sd": (hi[k] - lo[k]) / 3.92})
        rows += [r, u]
    return pd.DataFrame(rows)


def _real_found(table, replicates):
    return gain_findings.findings(table1_ok=True, table1_cells=35, stc2=[4.6, 4.0], tie_p=[0.2],
                                  grid=_grid([(2, 5, 0.747, 0.206)]), exact=EXACT, p=0.2, real_table=table,
                                  verdicts=gain_findings.premise(table, replicates),
                                  tie=gain_findings.ties(table, replicates), replicates=replicates)


def test_a_split_ties_verdict_names_each_sets_direction():
    """Round 9, item 2: 'holds in part' over two sets that disagree names each set's direction."""
    tie = _row(_real_found(_two_sets(), 200), "Does UG break more RawG ties")
    assert tie.verdict == "holds in part"
    assert tie.run == ("real vs uniform mean [middle 95% of draws]: stc-ja 0.218 vs 0.169 [0.164, 0.173], holds; "
                       "dl19-agreement 0.305 vs 0.438 [0.374, 0.494], reversed")


@pytest.mark.parametrize("replicates, verdict", [(5, "cannot tell"), (39, "cannot tell"), (40, "holds")])
def test_verdicts_against_the_null_need_40_draws(replicates, verdict):
    """Round 9, item 1: below 40 draws no verdict and no higher/lower word; the range and 'cannot tell'."""
    table = _two_sets()
    found = _real_found(table, replicates)
    spread = _row(found, "stc-ja (N = 10, Dmax = 2)")
    assert spread.verdict == verdict
    tie = _row(found, "Does UG break more RawG ties")
    assert tie.verdict == ("cannot tell" if replicates < 40 else "holds in part")
    lines = gain_findings.premise_lines(table, gain_findings.premise(table, replicates), gain_findings.ties(table, replicates))
    text = "\n".join([*lines, spread.run, tie.run, *found.prose])
    if replicates < 40:
        assert f"cannot tell ({replicates} draws; 40 needed)" in text
        assert spread.run == ("share at D = Dmax 0.483 vs range [0.545, 0.557]; mean D 1.478 vs range [1.541, 1.552] "
                              f"({replicates} draws; 40 needed)")
        assert not any(w in text for w in (" is lower than", " is higher than", "holds for", "other way"))
        assert f"cannot be judged for stc-ja and dl19-agreement ({replicates} draws; 40 needed)" in found.prose[-1]
    else:
        assert "stc-ja: the premise holds for every part" in text and "cannot tell" not in text


def test_ties_broken_se_is_the_jackknife_of_the_share():
    """The closed-form leave-one-out equals a brute-force jackknife over the items."""
    from helpers import gains
    base = np.array([1, 1, 1, 2, 2, 2, 2, 3, 0.0])
    other = np.array([1, 1, 2, 2, 2, 3, 4, 3, 0.0])
    share = lambda b, o: gains.ties_broken(b, o)["share_broken"]
    keep = np.flatnonzero(base > 0)
    theta = np.array([share(np.delete(base, i), np.delete(other, i)) for i in keep])
    n = len(keep)
    brute = np.sqrt((n - 1) / n * np.sum((theta - theta.mean()) ** 2))
    assert gains.ties_broken_se(base, other, min_breakers=0) == pytest.approx(brute, abs=1e-12)
    assert round(gains.ties_broken_se(base, other, min_breakers=0), 4) == round(brute, 4) > 0
    assert np.isnan(gains.ties_broken_se(np.array([1.0, 2.0]), np.array([1.0, 2.0]), min_breakers=0))
    assert gains.ties_breakers(base, other) == 3 and np.isnan(gains.ties_broken_se(base, other))   # 3 < RARE_TIES


def test_no_tie_broken_prints_no_collapsed_standard_error():
    """Referee round 10: with no tie broken the jackknife is exactly 0 ('0.000 ± 0.000' beside an exact
    1.1e-4); with few breakers it is too small. Neither is shown: the line names the count instead."""
    from helpers import gains
    base, other = np.array([2.0] * 50 + [3.0] * 50), np.array([5.0] * 50 + [7.0] * 50)
    assert gains.ties_breakers(base, other) == 0 and gains.ties_broken(base, other)["share_broken"] == 0
    assert np.isnan(gains.ties_broken_se(base, other))
    grid = pd.DataFrame({"d_max": [5, 5], "n": [51, 20], "share_ties_broken": [0.0, 4.2e-5],
                         "se_ties_broken": [float("nan")] * 2, "p_ties_broken": [1.1e-4, 9.5e-5]})
    line = gain_findings.ties_lines(grid)[0]
    assert "N=51: no tie broken (exact 1.1e-04)" in line and "± 0.000" not in line
    assert f"N=20: 4.2e-05, rare: under {gains.RARE_TIES} items break a tie, s.e. not shown (exact 9.5e-05)" in line


def test_ties_are_counted_within_topics_when_topics_are_given():
    """Referee round 10: UG reorders items only within a topic, so with topics only pairs of one topic count."""
    from helpers import gains
    raw, ug = np.array([2.0, 2.0, 2.0, 2.0]), np.array([2.0, 2.6, 2.0, 2.6])
    assert gains.ties_broken(raw, ug) == {"tied_pairs": 6, "still_tied": 2, "share_broken": pytest.approx(4 / 6)}
    within = gains.ties_broken(raw, ug, groups=["q1", "q1", "q2", "q2"])
    assert within == {"tied_pairs": 2, "still_tied": 0, "share_broken": 1.0}
    assert gains.ties_broken(raw, ug, groups=["q1", "q2", "q1", "q2"])["share_broken"] == 0.0
    ratings = np.array([[2, 0, 0], [1, 1, 0], [2, 0, 0], [1, 1, 0]], dtype=float)
    assert gains.unanimity_summary(ratings, 2, 0.2, groups=["q1", "q1", "q2", "q2"])["tied_pairs"] == 2
    with pytest.raises(ValueError, match="one topic per item"):
        gains.ties_broken(raw, ug, groups=["q1"])


def test_figure_helpers_draw_what_the_cells_drew():
    """Section 4's and 6's figure data moved out of the cells: shares sum to 1 per cell; the real
    spreads come first and equal gains.spread of the relevant items."""
    from helpers import gains
    dist = sim_ratings.spread_distribution([2, 3], [4], 500, np.random.default_rng(1))
    assert dist.groupby(["d_max", "n"])["share"].sum().round(12).eq(1).all()
    assert list(dist.query("d_max == 3")["D"]) == [0, 1, 2, 3]
    values = np.array([[0, 0, 0], [1, 2, 2], [3, 3, 0], [0, 1, 0.0]])
    shares = sim_ratings.real_vs_uniform_spreads(values, 3, 5)
    assert list(shares.query("source == 'real'")["D"]) == [1, 3, 1]
    assert (shares["source"] == "uniform, same RawG").sum() == 3


def test_section_6_states_bonferroni_from_the_runs_own_numbers():
    """Round 9, item 6: the caveat of section 6's rows is computed per run, not a constant."""
    table = _two_sets()
    found = _real_found(table, 200)
    b = gain_findings.bonferroni(table, gain_findings.premise(table, 200), gain_findings.ties(table, 200))
    assert b["m"] == 6 and round(b["limit"], 4) == 2.6383
    assert round(b["z"]["stc-ja ties broken"], 2) == round((0.218 - 0.169) / (0.009 / 3.92), 2)
    assert b["failing"] == [] and len(b["shown"]) == 6
    assert found.caveats["section6"].startswith("The 6 comparisons of section 6 are read uncorrected; as z against")
    assert "limit 2.64" in found.caveats["section6"]
    wide = table.copy()
    wide.loc[wide["dataset"] == "stc-ja", "share_ties_broken_sd"] = 0.02   # z = 2.45: inside the corrected limit
    b = gain_findings.bonferroni(wide, gain_findings.premise(wide, 200), gain_findings.ties(wide, 200))
    assert b["failing"] == ["stc-ja ties broken"]
    assert "stc-ja ties broken would be not shown" in _real_found(wide, 200).caveats["section6"]
    assert "section6" not in _real_found(table, 5).caveats


def test_sampling_caveat_names_the_sets_under_10_topics_once():
    """Round 11, item 1: the verdicts weigh only the uniform redraws; a set under 10 topics is named
    with its topics and items, once, in the Limitations (rows point to it by letter)."""
    found = _real_found(_real_table(), 200)
    text = found.caveats["sampling"]
    assert text == ("Section 6's verdicts weigh only the uniform redraws, not the sampling of items, topics or "
                    "assessors; dl19-agreement (3 topics, 163 items) rests on under 10 topics.")
    assert all("sampling" in r.caveats for r in found.rows if "RawG" in r.question and "uniform ones" in r.question)
    many = _real_table().assign(topics=204)
    assert _real_found(many, 200).caveats["sampling"].endswith("topics or assessors.")


def test_brackets_are_named_the_middle_95_percent_of_the_draws():
    """Round 11, item 2: the brackets are the spread of the draws, not a confidence interval of the mean."""
    assert gain_findings.draws_name(200) == gain_findings.draws_name(40) == "middle 95% of draws"
    assert gain_findings.draws_name(39) == "range of draws"


def test_row_4_says_where_the_series_turns_flat():
    """Round 11, item 4: 'rises' for a series flat at 1.000 from N = 40 says so, from the series."""
    grid = _grid([(2, 5, 0.747, 0.2), (2, 10, 0.966, 0.02), (2, 40, 1.0, 0.0), (2, 80, 1.0, 0.0),
                  (8, 5, 0.174, 0.8), (8, 40, 0.982, 0.02), (8, 80, 0.9996, 0.0)])
    assert gain_findings.flat_tail(grid, 2) == ("1.000", 40)
    assert gain_findings.flat_tail(grid, 8) is None     # 0.982 -> 1.000: only the last cell
    run = _row(_found(grid), "Does the share of items at D = Dmax grow").run
    assert "(Dmax = 2, rises, then flat at 1.000 from N = 40)" in run and "(Dmax = 8, rises)" in run


def test_exact_shares_follow_one_format():
    """Round 11, item 5: no '0.000' beside neighbours in scientific notation."""
    assert [gain_findings.exact_share(v) for v in (0.212, 1.8e-9, 0.0, 3e-18)] == ["0.212", "1.8e-09", "< 1e-12", "< 1e-12"]
    grid = pd.DataFrame({"d_max": [2, 2], "n": [40, 80], "share_ties_broken": [0.0, 0.0],
                         "se_ties_broken": [float("nan")] * 2, "p_ties_broken": [1.76e-9, 0.0]})
    line = gain_findings.ties_lines(grid)[0]
    assert "N=40: no tie broken (exact 1.8e-09), N=80: no tie broken (exact < 1e-12)" in line
