"""Notebook 03's findings builder (helpers.findings.prm): parameter checks, the one multiplicity rule,
the verdict rules of every row, no zero-width interval, and the reading rules of the rendered table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from helpers import prm
from helpers.findings import prm as fp
from helpers.notebook import findings as nbf

DEFAULTS = dict(profile="default", seed=1, dataset="simulated", qrels_path="", second_qrels_path="", ratings_path="",
                ratings_layout="long", runs_glob="", d_max=3, method="eq5", rf10=False, n_topics=50, n_docs=250,
                n_runs=20, B=300, splits=20, rounds=50, n_sizes=15, k=10, k_table7=20, tau_level=0.95, replicates=40,
                relevance_threshold=0, scheduler="local", progress=False)


def test_check_parameters_derives_the_thresholds():
    s = fp.check_parameters(DEFAULTS)
    assert (s.T, s.theta_rel, s.thetas, s.variants) == (3, 1, [3, 1], [])
    s = fp.check_parameters({**DEFAULTS, "relevance_threshold": 2})
    assert s.thetas == [3, 2] and s.variants == [1] and "set by relevance_threshold" in s.theta_note
    s = fp.check_parameters({**DEFAULTS, "relevance_threshold": 3})
    assert s.thetas == [3] and s.all_thetas == [3, 1]


@pytest.mark.parametrize("change, message", [
    ({"splits": 0}, "splits must be an integer >= 1"), ({"replicates": 1.5}, "replicates"),
    ({"dataset": "fedweb"}, "dataset must be"), ({"method": "eq6"}, "method must be"),
    ({"tau_level": 0.3}, "tau_level"), ({"k": 300}, "cannot exceed n_docs"), ({"scheduler": ""}, "scheduler"),
    ({"relevance_threshold": 4}, "relevance_threshold"), ({"ratings_layout": "tall"}, "ratings_layout"),
])
def test_check_parameters_names_the_bad_one(change, message):
    with pytest.raises(ValueError, match=message):
        fp.check_parameters({**DEFAULTS, **change})


def test_holm_claims_adjust_over_the_thresholds_as_statsmodels():
    p = {3: 0.013, 2: 0.126, 1: 0.060}
    got = fp.holm_claims({3: (0.9, 0.78), 2: (0.93, 0.92), 1: (0.97, 0.93)}, p)
    want = multipletests(list(p.values()), method="holm")[1]
    assert [round(got[th].numbers["p_holm"], 6) for th in p] == [round(v, 6) for v in want]
    assert got[3].numbers["differs"] and not got[2].numbers["differs"] and got[3].numbers["m"] == 3
    assert "Holm-adjusted p = 0.039 over 3 thresholds" in str(got[3])


def test_spread_never_prints_a_zero_width_interval():
    assert fp.spread(1.0, 1.0, 1.0) == "1.000 in every draw"
    assert fp.spread(0.999, 1.0, 1.0) == "0.999 (the middle draws all 1.000)"
    assert fp.spread(0.5, 0.4, 0.6) == "0.500 [0.400, 0.600]"


def _rob(diffs: dict, p_cf: dict, p_in: dict) -> fp.Robustness:
    means = {th: (0.9, 0.9 - d[0]) for th, d in diffs.items()}
    return fp.Robustness("40 replicates", {"cross-fitted": fp.holm_claims(means, p_cf),
                                           "in sample": fp.holm_claims(means, p_in)},
                         {"cross-fitted": diffs, "in sample": diffs}, "95% CI")


@pytest.mark.parametrize("p, verdict", [({3: 0.001, 1: 0.002}, "shown"), ({3: 0.001, 1: 0.4}, "holds in part"),
                                        ({3: 0.3, 1: 0.4}, "not shown")])
def test_table6_verdict_follows_the_holm_adjusted_tests(p, verdict):
    rob = _rob({3: (0.05, 0.01, 0.09), 1: (0.04, 0.0, 0.08)}, p, p)
    rows = fp._table6_rows(rob, str, ())
    assert [r.verdict for r in rows] == [verdict, verdict]
    assert rows[1].caveats == ("in_sample",) and "Holm p" in rows[0].run


def test_table6_against_the_prm_does_not_hold():
    rob = _rob({3: (-0.05, -0.09, -0.01)}, {3: 0.001}, {3: 0.001})
    assert fp._table6_rows(rob, str, ())[0].verdict == "does not hold"


def _estimates(gap: float) -> pd.DataFrame:
    pairs = pd.DataFrame({"query_id": "q", "u1": [0, 1, 2, 3, 3, 2] * 20, "u2": [0, 1, 3, 2, 3, 2] * 20})  # symmetric
    e = pd.concat([prm.estimate(pairs, threshold=3, method=m, T=3).assign(threshold=3, method=m) for m in ("eq4", "eq5")])
    e.loc[e["method"] == "eq5", "p"] += gap
    return e


def _found(**kw):
    base = dict(dataset="dl19", method="eq4", level_names=["0", "1", "2", "3"], table1_ok=True,
                estimates=_estimates(0.0), eq5_valid=True, ratio=(2.8, 2.5, 3.3), table5_shares={3: 1.0, 2: 0.5},
                n_runs=37, robustness=_rob({3: (0.1, 0.01, 0.28), 2: (0.03, -0.03, 0.1)}, {3: 0.035, 2: 0.3},
                                           {3: 0.009, 2: 0.1}),
                table7_tau=(0.859, 0.756, 0.962), udm={"prm_ratio": "1.00", "udm_ratio": "0.21"}, draws=50)
    return fp.findings(**{**base, **kw})


def test_findings_rows_and_verdicts():
    f = _found()
    t = f.table()
    v = dict(zip(t["question"].str.split(":").str[0], t["verdict"]))
    assert v["Table 1"] == "reproduced" and v["Table 2"] == "agrees"
    assert v["Fig. 2"].startswith("holds") and v["Table 5"].startswith("holds in part")
    assert v["Table 7"].startswith("agrees") is False and v["Table 7"].startswith("differs")
    sixes = t[t["question"].str.startswith("Table 6")]["verdict"].tolist()
    assert sixes[0] == "not shown" and sixes[1].startswith("holds in part")   # Holm p = 0.070 vs 0.018
    assert f.problems() == []


def test_findings_flags_biased_eq5_and_a_failed_table1():
    f = _found(estimates=_estimates(0.2), eq5_valid=False, table1_ok=False, method="eq5", nonmono=[1])
    t = f.table().set_index(f.table()["question"].str.split(":").str[0])
    assert t.loc["Table 2", "verdict"].startswith("differs (") and t.loc["Table 1", "verdict"] == "not reproduced"
    assert "Eq. 5 is biased here" in f.limitations()
    assert any("rerun with `method: eq4`" in p for p in f.prose) and any("not monotone" in p for p in f.prose)
    f = _found(estimates=_estimates(0.2))
    assert f.table().set_index(f.table()["question"].str.split(":").str[0]).loc["Table 2", "verdict"] == "differs"


def test_simulated_findings_carry_the_construction_caveat():
    cal = {"gap": 0.011, "within_2": 11, "n": 12, "max": 2.4, "where": "p(R|Key) at θ = Key"}
    f = _found(dataset="simulated", level_names=["Non", "Rel", "HRel", "Key"], calibration=cal, draws=0,
               replicates=5, table5_shares={3: 1.0, 1: 0.25})
    assert f.limitations().startswith("The simulation draws both assessors")
    t = f.table()
    assert "by construction" in t.iloc[1]["verdict"] and "11 of 12" in t.iloc[1]["this run"]
    assert "Ranges over fewer than 40 draws" in f.limitations()      # 5 replicates: no 95% interval
    assert nbf.problems(f) == []


def test_bootstrap_ratio_and_its_row():
    mean, lo, hi = fp.bootstrap_ratio(0.06, 0.02, 300)
    assert mean == pytest.approx(3.0) and lo < 3.0 < hi
    assert all(np.isnan(v) for v in fp.bootstrap_ratio(0.0, 0.0, 300))      # p(T|T) of 0 or 1: sigma 0
    assert all(np.isnan(v) for v in fp.bootstrap_ratio(0.01, float("nan"), 300))
    row = fp._ratio_row((float("nan"),) * 3, ())
    assert row.verdict == "cannot tell" and "σ of p(T|T) is 0" in row.run
    assert fp._ratio_row((0.8, 0.7, 0.9), ()).verdict == "does not hold"
    assert fp._ratio_row((1.02, 0.95, 1.1), ()).verdict == "not shown"


def test_wins_are_counts_per_threshold():
    line = fp.wins_line({3: 2, 2: 0}, {3: 2, 2: 0}, str, "draws")
    assert line.endswith("theta = 3: 2 of 2, theta = 2: tau undefined in every draw (an ordering ties every run)")


def test_table6_rows_label_the_variant_threshold():
    f = _found(robustness=_rob({3: (0.1, 0.01, 0.28), 1: (0.03, -0.03, 0.1)}, {3: 0.035, 1: 0.3}, {3: 0.009, 1: 0.1}),
               variants=[1])
    run = f.table().set_index("question").filter(like="Table 6", axis=0)["this run"].iloc[0]
    assert "θ = 1 (variant):" in run and "θ = 3:" in run
