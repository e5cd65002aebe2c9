"""Notebook 04's findings (helpers.findings.diversity) and section-7 analysis (helpers.replicates.diversity):
literal inputs, the verdict rules, the wording limits, and a small planted-truth run end to end."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.findings import diversity as fd
from helpers.notebook import findings as nf
from helpers.replicates import diversity as rd

# -- small pieces ---------------------------------------------------------------------------------


def test_measure_names_put_the_cutoff_on_every_cutoff_measure():
    names = fd.measure_names(5)
    assert names[0] == "I-rec@5" and names[-2:] == ["NRBP", "nNRBP"] and len(names) == len(fd.MEASURES) + 2
    assert "RBU(p=0.85)@5" in names and "D#-nDCG@5" in names


def test_printed_intervals_have_width_or_say_why_not():
    assert fd.mc_text(0.457, 0.448, 0.476) == "0.457 [0.448, 0.476]"
    assert fd.mc_text(0.352, 0.352, 0.352) == "0.352 (no p-value near the level)"
    assert fd.mc_interval(0.448, 0.476) == "[0.448, 0.476]"
    assert fd.mc_interval(0.19, 0.19) == "none: no p-value near the level"
    assert fd.tau_text(0.619, 0.448, 0.79) == "0.619 [0.448, 0.790]"
    assert fd.tau_text(1.0, 1.0, 1.0) == "1.000 in every resample"
    assert fd.tau_text(1.0, 0.924, 1.0) == "1.000 [0.924, 1.000]"


GOOD = {"replicates": 40, "scheduler": "local", "data": "simulated", "run_design": "styles", "diversity_qrels_path": "",
        "intents_path": "", "intent_types_path": "", "runs_glob": "", "cutoff": 10, "n_topics": 100, "n_runs": 15,
        "depth": 100, "B": 5000, "tau_bootstrap": 1000, "extra_cutoff": 20, "normaliser": "ideal", "significance": 0.05}


@pytest.mark.parametrize("change,message", [
    ({"replicates": 0}, "replicates must be an integer >= 1"),
    ({"replicates": 2.5}, "replicates must be an integer >= 1"),
    ({"scheduler": ""}, "scheduler must be"),
    ({"data": "trec"}, "data must be 'simulated', 'trec-web-2012' or 'files'"),
    ({"run_design": "style"}, r"run_design must be one of \('skill', 'styles'\)"),
    ({"cutoff": 0}, "cutoff must be an integer >= 1"),
    ({"B": 50}, "B must be an integer >= 100"),
    ({"n_runs": True}, "n_runs must be an integer >= 2"),
    ({"extra_cutoff": -1}, r"extra_cutoff must be an integer >= 0 \(0 for none\)"),
    ({"normaliser": "max"}, "normaliser must be 'ideal' or 'fixed'"),
    ({"significance": 1.0}, r"significance must lie in \(0, 1\)"),
    ({"runs_glob": "x.txt"}, "only read with data"),
])
def test_check_parameters_names_the_bad_one(change, message):
    fd.check_parameters(GOOD)
    with pytest.raises(ValueError, match=message):
        fd.check_parameters({**GOOD, **change})


# -- section 2: inputs -----------------------------------------------------------------------------

QRELS = pd.DataFrame([("q1", "q1.1", "a", 2), ("q1", "q1.2", "a", 0), ("q1", "q1.1", "b", 0), ("q1", "q1.3", "b", 3),
                      ("q2", "q2.1", "c", 1)], columns=["query_id", "intent_id", "doc_id", "relevance"])
INTENTS = pd.DataFrame([("q1", "q1.1", 0.5, "inf"), ("q1", "q1.2", 0.3, "nav"), ("q1", "q1.3", 0.2, "inf"),
                        ("q2", "q2.1", 1.0, "inf")], columns=["query_id", "intent_id", "prob", "kind"])


def test_drop_empty_intents_renormalises_the_rest():
    dq, it, dropped = rd.drop_empty_intents(QRELS, INTENTS)
    assert list(dropped["intent_id"]) == ["q1.2"]
    assert it.set_index("intent_id")["prob"].round(4).to_dict() == {"q1.1": 0.7143, "q1.3": 0.2857, "q2.1": 1.0}
    assert "q1.2" not in set(dq["intent_id"]) and len(dq) == 4
    same = rd.drop_empty_intents(QRELS[QRELS.intent_id != "q1.2"], INTENTS[INTENTS.intent_id != "q1.2"])
    assert same[2].empty and same[1]["prob"].tolist() == [0.5, 0.2, 1.0]       # nothing dropped: untouched


def test_collection_lines_count_and_say_the_rank_order_once():
    runs = pd.DataFrame({"run_id": "r", "query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"], "rank": [1, 2, 1],
                         "score": [1.0, 2.0, 1.0]})   # q1: ranked against its scores
    dq, it, dropped = rd.drop_empty_intents(QRELS, INTENTS)
    c = {"dqrels": dq, "intents": it, "runs": runs, "dropped": dropped}
    lines, numbers = fd.collection_lines(c, "files")
    assert lines[0] == "intents without any relevant document, dropped: 1 (in 1 topics)"
    assert lines[1] == "topics: 2, intents: 3 (0 navigational), runs: 1"
    assert numbers == {"topics": 2, "runs": 1, "intents_dropped": 1, "intents": 3, "relevant_judgments": 3}
    assert len(lines) == 5 and "disagree in 1 of 2 ranked lists" in lines[4] and "trec_eval" in lines[4]
    ok, _ = fd.collection_lines({**c, "runs": runs.assign(score=[2.0, 1.0, 1.0])}, "files")
    assert ok[4] == "rank column and trec_eval's score order agree in all 2 ranked lists."
    sim, _ = fd.collection_lines(c, "simulated")
    assert len(sim) == 4                                   # simulated runs: no rank-order line


def test_significant_vs_truth_counts_by_hand():
    hsd = {"M": pd.DataFrame({"system_a": ["r1", "r1", "r2"], "system_b": ["r2", "r3", "r3"],
                              "diff": [0.2, -0.1, 0.3], "p_value": [0.01, 0.02, 0.5]})}
    truth = {"u": {"runs": ["r1", "r2", "r3"], "mean": np.array([0.9, 0.5, 0.7]),
                   "resolved": np.array([[False, True, False], [True, False, True], [False, True, False]])}}
    t = rd.significant_vs_truth(hsd, truth, 0.05)
    # r1-r2 significant, same sign as the truth (0.9 > 0.5); r1-r3 significant but unresolved
    assert t.iloc[0].to_dict() == {"measure": "M", "model": "u", "significant": 2, "in planted order": 1,
                                   "against it": 0, "unresolved": 1}
    truth["u"]["mean"] = np.array([0.1, 0.5, 0.7])
    assert rd.significant_vs_truth(hsd, truth, 0.05).iloc[0]["against it"] == 1


def test_told_apart_reads_the_threshold():
    tau = pd.DataFrame([[1, 0.95, 0.3], [0.95, 1, 0.79999], [0.3, 0.79999, 1]], index=list("abc"), columns=list("abc"))
    t = rd.told_apart(tau, ["a", "b", "c"])
    assert t["told_apart"].tolist() == [False, True, True] and t["tau"].tolist() == [0.95, 0.3, 0.79999]
    assert rd.told_apart(tau, ["a", "b"], threshold=0.96)["told_apart"].tolist() == [True]


# -- section 7: a hand-made analysis, worded ------------------------------------------------------------

def _check(verdict, diff, low, high, p_holm, verdict_holm, left_out=(), close=(), **more):
    return {"verdict": verdict, "diff": diff, "low": low, "high": high, "p": p_holm / 2, "p_holm": p_holm,
            "verdict_holm": verdict_holm, "picks": [("F@5", "O@5")], "replicates": 20, "selection": "split",
            "left_out": list(left_out), "not_told_apart": list(close), "family_size": 3, "measures": 10,
            "leader_set_size": 2, "family_in_leader_set": 1, "chance_random_set": 0.53, **more}


def _analysis():
    from helpers.notebook import claims

    runs = ["R1", "R2", "R3"]
    truth = {m: {"runs": runs, "mean": np.array(v), "resolved": ~np.eye(3, dtype=bool), "topics": 400}
             for m, v in {"position": [3.0, 2, 1], "graded": [3.0, 2, 1], "coverage": [1.0, 2, 3],
                          "first-hit": [2.0, 3, 1]}.items()}
    pairs = pd.DataFrame([("position", "graded", 1.0, False), ("position", "coverage", -1.0, True),
                          ("position", "first-hit", 0.333, True), ("graded", "coverage", -1.0, True),
                          ("graded", "first-hit", 0.333, True), ("coverage", "first-hit", -0.333, True)],
                         columns=["a", "b", "tau", "told_apart"])
    lead = claims.leaders({"F@5": 0.9, "O@5": 0.8})
    checks = {"position": _check("outside ahead", -0.008, -0.015, -0.001, 0.058, "not shown", ["G@5"], ["graded"]),
              "graded": _check("not shown", 0.006, -0.001, 0.013, 0.099, "not shown", ["P@5"], ["position"]),
              "coverage": _check("recovered", 0.015, 0.002, 0.029, 0.03, "recovered"),
              "first-hit": _check("recovered", 0.059, 0.041, 0.077, 0.0001, "recovered",
                                  without_shared={"shared": ["RBU@5"], "verdict": "outside ahead", "diff": -0.03,
                                                  "low": -0.04, "high": -0.01, "picks": [("E@5", "O@5")],
                                                  "replicates": 20, "selection": "split"})}
    null = {"lowest": 0.49, "highest": 0.53, "family": 8, "departs": [], "uncorrected": 1, "measures": 10}
    return {"truth": truth, "truth_tau": pd.DataFrame(np.eye(4)), "pairs": pairs, "threshold": 0.8,
            "models": list(truth) + ["null"], "leaders": {m: lead for m in list(truth) + ["null"]}, "checks": checks,
            "null": null, "replicates": 40, "alpha": 0.05}


def test_planted_lines_are_short_and_say_the_holm_verdict():
    lines = fd.planted_lines(_analysis())
    text = "\n".join(lines)
    assert not nf.long_sentences(text, lines_break=True)
    assert lines[1] == "position: R1 > R2 > R3 (3 of 3 pairs resolved)"
    assert "Not told apart: position/graded (τ = 1.000); their families are not compared with each other." in lines
    assert "left out: the graded family): F@5 − O@5: -0.008 [-0.015, -0.001] (95% CI of the mean over 20 replicates)." \
        in text
    assert "Holm p = 0.058 over 4 models: not shown." in text and "Holm p < 0.001 over 4 models: holds in part." in text
    assert "Without RBU@5 (members of two families): E@5 − O@5: -0.030 [-0.040, -0.010]" in text
    assert "the best measure outside leads." in text
    assert "A random set of 2 measures holds a family member with chance 0.530 (the leader set holds 1)." in text
    assert lines[-1].startswith("null: means 0.490 to 0.530; Holm over 8 distinct measures: none differs from one half")


def test_planted_rows_follow_the_holm_verdicts():
    rows, caveats = fd._planted_rows(_analysis())
    verdicts = {r.question: r.verdict for r in rows}
    assert verdicts["Do the planted users order the runs differently (τ < 0.8)?"] == "holds in part"
    assert verdicts["Does the RBP-like family recover the position user best?"] == "not shown"   # Holm p 0.058
    assert verdicts["Does the uniform-intent coverage family recover the coverage user best?"] == "shown"
    assert verdicts["Does the first hit (ERR-like) family recover the first-hit user best?"] == "holds in part"
    assert verdicts["Does any measure recover a random planted order?"] == "not shown"
    assert rows[0].run == "5 of 6 pairs at τ < 0.8; not position/graded (τ = 1.000)"
    pos = next(r for r in rows if "position user" in r.question)
    assert pos.caveats == ("aligned", "holm", "alike") and "Holm p = 0.058" in pos.run
    assert set(caveats) == {"aligned", "holm", "alike"} and "(position/graded)" in caveats["alike"]


# -- the whole table --------------------------------------------------------------------------------

L = 10
POWER = pd.Series({f"D-nDCG@{L}": 0.629, f"alpha-nDCG@{L}": 0.524, f"D#-nDCG@{L}": 0.429, f"I-rec@{L}": 0.533})
MC = {f"D-nDCG@{L}": (0.629, 0.629), f"alpha-nDCG@{L}": (0.514, 0.533), f"D#-nDCG@{L}": (0.429, 0.448),
      f"I-rec@{L}": (0.533, 0.543)}
TOY = {"P+Q@3": 0.6761904761904762, "P+Q@3 hand": 0.6761904761904762, "DIN-nDCG@3": 0.84, "D-nDCG@3": 0.9283}
NORM = {"other": "fixed", "changed": 13, "largest_shift": 0.057, "lowest_tau": 0.905}
GREEDY = {"topics_changed": 39, "topics": 100, "max_relative_change": 0.023}


def _findings(**change):
    kw = dict(data="simulated", toy=TOY, tau_ci={"runs": 15, (f"D#-nDCG@{L}", f"alpha-nDCG@{L}"): (0.524, 0.333, 0.6)},
              l=L, r={"r": -0.393, "low": -0.754, "high": 0.149, "runs": 15}, power=POWER, mc=MC, n_pairs=105, B=5000,
              significance=0.05, normaliser=NORM, greedy=GREEDY, twins=[["I-rec@10", "strec@10"]],
              cover={"measure": f"D-nDCG@{L}", "n_significant": 66, "cover": None, "exactly_cover_vs_rest": False},
              planted=_analysis(), against={"coverage": (501, 1529), "position": (203, 1529)})
    kw.update(change)
    return fd.findings(**kw)


def test_simulated_findings_table():
    f = _findings()
    t = f.table().set_index("question")
    assert t.loc["Do the worked examples give the hand-derived values (Eq. 8–9)?", "verdict"] == "agrees"
    q = "Do D♯-nDCG and α-nDCG (NTCIR's and TREC's official measures) rank the runs differently?"
    assert t.loc[q, "this run"] == "τ = 0.524 [0.333, 0.600] (15 runs; bootstrap over topics)"
    assert t.loc[q, "verdict"] == "shown"
    assert t.loc["Do I-rec@10 and D-nDCG@10 correlate across runs?", "verdict"] == "not shown"
    # α-nDCG's power interval lies above D♯-nDCG's: the claim is contradicted, not just unshown
    assert t.loc["Is D♯-nDCG more discriminative than α-nDCG?", "verdict"] == "does not hold (a)"
    lead = t.loc["Does one measure lead discriminative power beyond Monte Carlo noise?"]
    assert lead["this run"] == "D-nDCG@10 (0.629); 0 more measures within noise" and lead["verdict"] == "shown (a)"
    assert "Of the 1,529 significant pairs of all measures, 501 go against the coverage user's order." in f.prose
    assert f.general == ("simulated_runs",) and "few_runs" not in f.caveats
    assert not f.problems()
    assert not any("Planted truths need" in p for p in f.prose)


def test_real_findings_say_what_eight_runs_support():
    f = _findings(data="trec-web-2012", planted=None, against=None, n_pairs=28,
                  tau_ci={"runs": 8, (f"D#-nDCG@{L}", f"alpha-nDCG@{L}"): (0.714, 0.357, 1.0)},
                  r={"r": 0.951, "low": 0.745, "high": 0.991, "runs": 8,
                     "rest": {"r": 0.008, "low": -0.809, "high": 0.814, "without": ["ql-cata", "rm-cata"]}},
                  power=pd.Series({**POWER, f"D#-nDCG@{L}": 0.429, f"alpha-nDCG@{L}": 0.429}),
                  mc={**MC, f"D#-nDCG@{L}": (0.429, 0.429), f"alpha-nDCG@{L}": (0.429, 0.429)},
                  cover={"measure": f"I-rec@{L}", "n_significant": 12, "cover": ["ql-cata", "rm-cata"],
                         "exactly_cover_vs_rest": True})
    t = f.table().set_index("question")
    assert len(t) == 5                                         # no planted-truth row without simulated runs
    r = t.loc["Do I-rec@10 and D-nDCG@10 correlate across runs?"]
    assert r["verdict"] == "cannot tell (a)" and "without ql-cata and rm-cata: 0.008 [-0.809, 0.814]" in r["this run"]
    p = t.loc["Is D♯-nDCG more discriminative than α-nDCG?"]
    assert p["verdict"].startswith("not shown") and "[0.429, 0.429]" not in p["this run"]
    assert "in steps of 0.036" in f.limitations()
    assert any("(the spam-unfiltered Category A runs)" in s for s in f.prose)
    assert "Planted truths need simulated runs (the default profile)." in f.prose
    assert not any("notebook 05" in s or "(05" in s or "`real`" in s for s in f.prose)   # no pointer to an answer we lack
    assert not f.problems()


def test_differing_toy_values_say_so():
    f = _findings(toy={**TOY, "P+Q@3 hand": 0.6})
    assert f.table()["verdict"].iloc[0] == "differs"


# -- a small planted-truth run, end to end -----------------------------------------------------------

@pytest.fixture(scope="module")
def small_rep():
    from helpers.replicates import runner

    common = {"n_topics": 20, "n_runs": 6, "depth": 15, "normaliser": "ideal", "runs": "styles",
              "measures": ["I-rec@5", "alpha-nDCG@5", "D-nDCG@5", "IA-nDCG@5", "D-RBP@5", "IA-RBP@5", "D-nERR@5",
                           "RBU(p=0.85)@5", "D#-nDCG@5"], "mixture": "position:0.5,coverage:0.5"}
    return runner.run_replicates(rd.diversity_recovery, 6, 3, common=common, scheduler=None, progress=False)


def test_planted_analysis_on_a_small_run(small_rep):
    from helpers.simulate import users

    a = fd.with_leaders(rd.planted_analysis(small_rep))
    assert a["replicates"] == 6 and a["models"][-1] == "null" and "mixture" in a["models"]
    assert list(a["pairs"][["a", "b"]].itertuples(index=False, name=None)) == [
        ("position", "graded"), ("position", "coverage"), ("position", "first-hit"), ("graded", "coverage"),
        ("graded", "first-hit"), ("coverage", "first-hit")]
    tau = a["truth_tau"]
    for r in a["pairs"].itertuples():
        assert r.tau == pytest.approx(tau.loc[r.a, r.b]) and r.told_apart == (r.tau < 0.8)
    assert set(a["checks"]) == {"position", "graded", "coverage", "first-hit"}
    for m, ck in a["checks"].items():
        close = [b if a_ == m else a_ for a_, b, t, apart in a["pairs"].itertuples(index=False) if m in (a_, b) and not apart]
        assert ck["not_told_apart"] == close
        # exactly the measures of the families not told apart, and never one of the model's own
        assert all(not users.aligned_family(m, x) and any(users.aligned_family(o, x) for o in close) for x in ck["left_out"])
        assert not any(x in ck["left_out"] for pk in ck["picks"] for x in pk)
        if ck["verdict"] != "not testable":
            assert ck["p_holm"] >= ck["p"] - 1e-15
            assert ck["verdict_holm"] in (ck["verdict"], "not shown")
    assert 0 <= a["null"]["uncorrected"] <= a["null"]["measures"] == 9
    lines = fd.planted_lines(a)
    assert not nf.long_sentences("\n".join(lines), lines_break=True)


def test_prose_names_the_run_design():
    styles = _findings()
    skill = _findings(run_design="skill")
    assert any("differ in style" in p for p in styles.prose) and not any("mainly in skill" in p for p in styles.prose)
    assert any("differ mainly in skill (`run_design: skill`)" in p for p in skill.prose)
    assert not any("differ in style" in p for p in skill.prose)


def test_a_difference_without_spread_prints_no_interval():
    ck = _check("not shown", 0.0, 0.0, 0.0, 1.0, "not shown")
    assert fd._check_text(ck) == "F@5 − O@5: +0.000 in each of the 20 replicates"
    assert fd._check_text(_check("recovered", 0.02, 0.01, 0.03, 0.01, "recovered")) == \
        "F@5 − O@5: +0.020 [+0.010, +0.030] (95% CI of the mean over 20 replicates)"


def test_short_leaders_counts_long_ties_and_never_picks_one():
    from helpers.notebook import claims

    few = claims.leaders({"x": 0.6, "y": 0.6, "z": 0.5}, intervals={"x": (0.5, 0.7), "y": (0.5, 0.7), "z": (0.45, 0.55)})
    assert fd.short_leaders(few) == few.text == "x and y (tied at 0.600; within noise: z 0.500)"
    many = {f"m{i}": 0.5 for i in range(8)} | {"a": 0.4, "b": 0.3}
    iv = {k: (v - 0.01, v + 0.01) for k, v in many.items()} | {"a": (0.4, 0.5)}
    assert fd.short_leaders(claims.leaders(many, intervals=iv)) == "8 measures tied at 0.500 (within noise: a 0.400)"
    noisy = {"x": 0.6, **{f"n{i}": 0.59 for i in range(8)}, "z": 0.1}
    c = claims.leaders(noisy, intervals={k: (v - 0.02, v + 0.02) for k, v in noisy.items()})
    assert fd.short_leaders(c) == "x (0.600; 8 more within noise)"
    assert fd.short_leaders(claims.leaders({f"m{i}": 0.5 for i in range(8)}), noun="pairs") == "all 8 pairs tie at 0.500"


def test_too_few_replicates_and_nothing_resolved_are_said():
    a = _analysis()
    a["checks"]["coverage"] = _check("recovered", 0.015, 0.002, 0.029, 0.03, "recovered", selection="in sample")
    a["checks"]["graded"] = {"verdict": "not testable", "measures": 0, "family_size": 0, "left_out": [],
                             "not_told_apart": [], "picks": [], "replicates": 0, "verdict_holm": "not testable"}
    text = "\n".join(fd.planted_lines(a))
    assert "Picked and tested on the same 20 replicates (too few to split)" in text
    assert "no run pair resolved in any replicate" in text
    rows, _ = fd._planted_rows(a)
    graded = next(r for r in rows if "graded user" in r.question)
    assert graded.verdict == "cannot tell" and graded.run == "no run pair resolved in any replicate"
