"""Notebook 02's parameters and findings (helpers.findings.unanimity): bad values stop with the
parameter's name; each verdict follows its rule (Table 2 cell by cell against chance, the Table 3
total, power before a negative result); the conclusion keeps the length rules."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from helpers import paths
from helpers.findings import unanimity as F
from helpers.notebook import claims
from helpers.notebook.findings import problems


def _defaults() -> dict:
    nb = json.loads((paths.ROOT / "notebooks" / "02_unanimity_evaluation.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    ns: dict = {}
    exec("".join(cell["source"]), {}, ns)
    return ns


def test_defaults_pass_and_normalise():
    cfg = F.check_parameters({**_defaults(), "n_list": [5.0, 10], "measure_names": ["nG@1", "ndcg_cut_10", "AP"]})
    assert cfg.n_list == [5, 10] and cfg.theta == 1 and cfg.measure_names == ["nG@1", "MSnDCG@10", "AP"]
    assert cfg.blind == ["AP"] and cfg.graded == ["nG@1", "MSnDCG@10"]
    assert cfg.notes[0] == "measures: ndcg_cut_10 = MSnDCG@10"
    assert "AP only sees whether a gain is > 0" in cfg.notes[1]
    assert cfg.metrics["conventions"] == "ntcireval" and cfg.metrics["team_skill_sd"] == _defaults()["team_skill_sd"]


@pytest.mark.parametrize("change, message", [
    ({"replicates": 0}, "replicates must be an integer >= 1"),
    ({"dataset": "stc"}, "dataset must be 'stc-like', 'dl19' or 'files'"),
    ({"p": 1.5}, r"p must lie in \[0, 1\]"),
    ({"n_list": [1, 5]}, "n_list must hold integers >= 2"),
    ({"conventions": "trec_eval"}, "conventions must be 'ntcireval'"),
    ({"team_skill_sd": 0.0}, "team_skill_sd must be a number > 0"),
    ({"B": 50}, "B must be an integer >= 100"),
    ({"alpha": 0.0}, r"alpha must lie in \(0, 1\)"),
    ({"best_run_by": "best"}, "best_run_by must be 'official' or 'rawg'"),
    ({"real_ratings": True}, "real_ratings needs dataset='dl19'"),
    ({"relevance_threshold": 3}, r"relevance_threshold must be 0 .* 1..2"),
    ({"measure_names": ["nope"]}, "unknown measure 'nope'"),
])
def test_bad_parameters_name_themselves(change, message):
    with pytest.raises(ValueError, match=message):
        F.check_parameters({**_defaults(), **change})


def test_chance_outside():
    assert [F.chance_outside(n) for n in (45, 15, 3)] == [5, 2, 1]


def _t2(inside: int, cells: int = 45) -> pd.DataFrame:
    ok = np.arange(cells) < inside
    return pd.DataFrame({"measure": "nG@1", "d_max": 2, "n": 5, "paper": 0.99, "mean": 0.985, "low": 0.97,
                         "high": 0.995, "inside": ok, "side": np.where(ok, "", "above"), "draws": 40})


@pytest.mark.parametrize("inside, verdict", [(45, "agrees"), (40, "agrees"), (39, "differs")])
def test_table2_row_against_chance(inside, verdict):
    row = F._table2_row(_t2(inside), fit_sd=0.5)
    assert row.verdict == verdict and row.caveats == ("calibrated",)
    assert row.run.startswith(f"inside in {inside} of 45 cells")


class _Real:
    def __init__(self, tau_lower, disc_more):
        t = claims.compare("real", 0.90 if tau_lower else 0.95, "simulated", 0.95, interval_a=(0.90, 0.90) if tau_lower
                           else (0.95, 0.95), interval_b=(0.93, 0.97))
        d = claims.compare("real", 3.0 if disc_more else 0.1, "simulated", 0.3, interval_a=(2, 4) if disc_more else (0, 1),
                           interval_b=(0, 1), digits=2)
        self.c = {"tau": t.numbers, "disc": d.numbers, "tau_text": t.text, "disc_text": d.text,
                  "tau_lower": tau_lower, "disc_more": disc_more, "supported": tau_lower and disc_more}


@pytest.mark.parametrize("tau_lower, disc_more, power_low, verdict, caveats", [
    (True, True, 0.1, "holds", ()),
    (True, False, 0.1, "holds in part", ()),
    (False, False, 0.9, "does not hold", ()),
    (False, False, 0.5, "cannot tell", ("low_power",)),
])
def test_conjecture_verdict_needs_power(tau_lower, disc_more, power_low, verdict, caveats):
    power = {"power": power_low + 0.05, "power_low": power_low, "power_high": min(1.0, power_low + 0.1)}
    row = F._conjecture_row("nG@1", _Real(tau_lower, disc_more).c, power, draws=50)
    assert row.verdict == verdict and row.caveats == caveats
    assert "power" in row.run and "[" in row.run


def test_findings_of_one_draw_keep_the_length_rules():
    cfg = F.check_parameters({**_defaults(), "replicates": 1, "d_max_list": [2], "n_list": [5]})
    tau = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "tau": [0.97, 0.98, 1.0],
                        "low": 0.9, "high": 1.0})
    counts = pd.DataFrame({"measure": cfg.measure_names, "d_max": 2, "n": 5, "discrepancies": [2, 0, 1]})
    found = F.findings(cfg, collection={"topics": 100, "runs": 44, "teams": 16, "near_duplicates_across_teams": 0},
                       pairs=120, tau=tau, counts=counts, effect_sizes={}, fragile={"k": 1, "n": 3},
                       off_paper=["replicates"], fit=None)
    t = found.table()
    assert list(t["verdict"]) == ["cannot tell (a)", "cannot tell (a)"]
    assert t["this run"].iloc[1] == "one draw: 3 discrepancies"
    assert problems(found) == []
    assert "needs real ratings" in found.markdown()


@pytest.mark.parametrize("small, verdict", [([5, 6, 4, 7], "by construction"), ([0, 1, 0, 0], "not shown")])
def test_the_n_trend_is_by_construction_only_when_shown(small, verdict):
    from helpers.replicates.unanimity import summarise_grid

    rep = pd.DataFrame({"replicate": np.repeat(np.arange(4), 2), "measure": "nG@1", "d_max": 2, "n": [5, 80] * 4,
                        "tau": 1.0, "discrepancies": [v for s in small for v in (s, 0)]})
    row = F._n_row(summarise_grid(rep), 5, 80)
    assert row.verdict == verdict and (row.caveats == ("by_construction",)) == (verdict == "by construction")
