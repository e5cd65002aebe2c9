"""helpers.replicates.diversity_sections: notebook 04's section 4 (Kendall's tau with bootstrap intervals)
and appendix A.3 (the other normaliser), on literal inputs."""

from __future__ import annotations

import numpy as np
import pytest
import pandas as pd

from helpers.findings import diversity as fd
from helpers.replicates import diversity_sections as ds


def _means():
    return pd.DataFrame({"A@3": [0.9, 0.6, 0.3], "B@3": [0.8, 0.7, 0.1], "C@3": [0.1, 0.5, 0.9]},
                        index=["r1", "r2", "r3"])


def test_tau_matrix_and_lowest_pairs_by_hand():
    tau = ds.tau_matrix(_means())
    assert tau.loc["A@3", "B@3"] == 1.0 and tau.loc["A@3", "C@3"] == -1.0 and tau.loc["B@3", "C@3"] == -1.0
    assert (np.diag(tau) == 1).all()
    tied, n = ds.lowest_pairs(tau, ["A@3", "B@3", "C@3"])
    assert tied == [("A@3", "C@3"), ("B@3", "C@3")] and n == 3        # every pair at the lowest tau, in order
    assert fd.lowest_pairs(tau, ["A@3", "B@3", "C@3"]) == (tied, n)    # still importable from the findings


def test_tau_section_draws_the_fixed_pairs_then_the_lowest_and_words_it_post_hoc():
    rng = np.random.default_rng(1)
    names = [f"{m}@3" for m in ("D#-nDCG", "alpha-nDCG", "IA-nDCG", "D-nDCG", "I-rec", "DIN#-nDCG", "ERR-IA",
                                "RBU(p=0.99)", "X")]
    rows = [(r, q, m, rng.random()) for r in ("r1", "r2", "r3", "r4") for q in range(12) for m in names]
    results = pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "value"])
    means = results.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")[names]
    ts = ds.tau_section(results, means, names, 3, np.random.default_rng(2), resamples=200, level=0.95)
    assert ts["topics"] == 12 and ts["tau_ci"]["runs"] == 4 and len(ts["pairs"]) == len(ds.TAU_PAIRS)
    assert [(a, b) for a, b, _ in ts["boot"]][:6] == ts["pairs"]
    assert len(ts["boot"]) == 6 + ts["picked"]
    if ts["picked"]:   # post hoc: its τ on the full topics, no interval and no resamples drawn
        a, b, t = ts["boot"][-1]
        assert np.isnan(t.low) and np.isnan(t.high) and t.tau == pytest.approx(ts["tau"].loc[a, b])
    assert ts["lowest_tau"] == min(ts["pair_tau"].values())
    lines = fd.tau_lines(ts, 0.95, 200)
    assert lines[-1 if ts["picked"] else -2].startswith("(95% bootstrap intervals over topics: 200 resamples of 12")
    if ts["picked"]:
        assert "picked for the lowest τ of 36 pairs" in lines[6] and "[" not in lines[6]
    m = fd.tau_metrics(ts, 0.95, 200)
    assert set(m) == {"kendall_tau", "kendall_tau_interval", "kendall_tau_min"} and len(m["kendall_tau"]) == 6


def test_normaliser_sensitivity_lists_only_measures_whose_scores_change():
    qrels = pd.DataFrame([("q", "i1", "a", 1), ("q", "i1", "b", 2), ("q", "i2", "c", 1), ("p", "i1", "a", 1),
                          ("p", "i2", "d", 1)], columns=["query_id", "intent_id", "doc_id", "relevance"])
    intents = pd.DataFrame([("q", "i1", 0.5, "inf"), ("q", "i2", 0.5, "inf"), ("p", "i1", 0.5, "inf"),
                            ("p", "i2", 0.5, "inf")], columns=["query_id", "intent_id", "prob", "kind"])
    runs = pd.DataFrame([(r, q, d, k + 1) for r, docs in (("r1", "abcd"), ("r2", "dcba"), ("r3", "cadb"))
                         for q in ("q", "p") for k, d in enumerate(docs)], columns=["run_id", "query_id", "doc_id", "rank"])
    from helpers.measures import diversity

    measures = ["I-rec@3", "D-nERR@3"]
    results = diversity.evaluate(qrels, intents, runs, measures, normaliser="ideal").dropna(subset=["value"])
    means = results.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")
    power = pd.Series({"I-rec@3": 0.0, "D-nERR@3": 0.0})
    other, table = ds.normaliser_sensitivity(qrels, intents, runs, results, measures, normaliser="ideal", power=power,
                                             means=means, B=100, rng=np.random.default_rng(0), significance=0.05)
    assert other == "fixed"
    assert list(table.columns) == ["measure", "power (ideal)", "power (fixed)", "tau between the two rankings"]
    assert "I-rec@3" not in set(table["measure"])          # a measure without gmax never changes
    fixed = diversity.evaluate(qrels, intents, runs, ["D-nERR@3"], normaliser="fixed").dropna(subset=["value"])
    changes = not np.allclose(np.sort(fixed["value"]), np.sort(results[results.measure == "D-nERR@3"]["value"]))
    assert ("D-nERR@3" in set(table["measure"])) == changes
    # fix04d item 5: with section 6's Monte Carlo intervals, both powers' intervals and the rule's answer
    _, t2 = ds.normaliser_sensitivity(qrels, intents, runs, results, measures, normaliser="ideal", power=power,
                                      means=means, B=100, rng=np.random.default_rng(0), significance=0.05,
                                      mc={"I-rec@3": (0.0, 0.0), "D-nERR@3": (0.0, 0.0)})
    assert list(t2.columns)[4:] == ["MC low (ideal)", "MC high (ideal)", "MC low (fixed)", "MC high (fixed)",
                                    "beyond MC error"]
    assert t2.iloc[:, :4].equals(table)                    # the same trials: the intervals draw nothing
    for r in t2.itertuples(index=False):
        assert r[6] <= r[2] <= r[7]                         # the power within its own interval
        assert r[8] == (round(max(r[4] - r[7], r[6] - r[5]) * 3) >= 2)   # 3 runs, 3 pairs: 2 pairs apart


def test_a_change_of_power_needs_two_pairs_between_the_intervals():
    """fix04g item 2 as a class (A.3): a one-pair gap between the two Monte Carlo intervals is not beyond
    Monte Carlo error, as section 6's rule cannot tell a one-pair lead."""
    from helpers.replicates import diversity as rdiv

    assert rdiv.pairs_apart((12 / 28, 12 / 28), (11 / 28, 11 / 28), 28) == 1
    assert rdiv.pairs_apart((10 / 28, 11 / 28), (13 / 28, 14 / 28), 28) == 2
    assert rdiv.pairs_apart((10 / 28, 12 / 28), (11 / 28, 14 / 28), 28) == -1
    assert rdiv.MIN_LEAD_PAIRS == 2


def test_the_lowest_tau_line_is_post_hoc_when_a_fixed_pair_is_among_the_tied():
    """fix04d item 6 (p2): with a fixed pair first among the pairs at the lowest τ nothing is picked, and the
    lowest-τ line lost its post-hoc marker; the lowest is chosen on these data either way."""
    from types import SimpleNamespace

    t = SimpleNamespace(tau=0.2, low=-0.1, high=0.5, n=12)
    ts = {"tied": [("A", "B"), ("C", "D")], "pairs": [("A", "B")], "n_once": 36, "picked": False,
          "boot": [("A", "B", t)], "topics": 50, "pair_tau": {"A vs B": 0.2, "C vs D": 0.2, "A vs C": 0.9}}
    lines = fd.tau_lines(ts, 0.95, 1000)
    assert lines[0] == "tau(A, B) = 0.200 [-0.100, 0.500] over 12 runs"          # the fixed pair keeps its interval
    assert lines[-1] == "lowest tau of 36 pairs (post hoc: chosen on these data): A vs B and C vs D (tied at 0.200)"


def test_tau_section_draws_nothing_for_the_post_hoc_pair():
    """Referee round 4, defect 3: the lowest-τ pair picked on the data gets no interval, so no resamples
    are drawn for it; the generator ends where the six fixed pairs' bootstraps leave it."""
    from helpers import stats

    rng = np.random.default_rng(5)
    names = [f"{m}@3" for m in ("D#-nDCG", "alpha-nDCG", "IA-nDCG", "D-nDCG", "I-rec", "DIN#-nDCG", "ERR-IA",
                                "RBU(p=0.99)", "X")]
    rows = [(r, q, m, rng.random()) for r in ("r1", "r2", "r3", "r4", "r5") for q in range(10) for m in names]
    results = pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "value"])
    # X reverses D#-nDCG's order exactly: the lowest τ (-1) is a pair no fixed pair covers
    results.loc[results.measure == "X@3", "value"] = -results.loc[results.measure == "D#-nDCG@3", "value"].to_numpy()
    means = results.pivot_table(index="run_id", columns="measure", values="value", aggfunc="mean")[names]
    used = np.random.default_rng(9)
    ts = ds.tau_section(results, means, names, 3, used, resamples=100, level=0.95)
    assert ts["picked"] and ts["boot"][-1][:2] == ("D#-nDCG@3", "X@3") and ts["boot"][-1][2].tau == pytest.approx(-1)
    ref = np.random.default_rng(9)
    for a, b in ts["pairs"]:
        x, y = (results[results.measure == m].pivot(index="query_id", columns="run_id", values="value")
                .loc[:, means.index].to_numpy() for m in (a, b))
        stats.tau_topic_bootstrap(x, y, ref, B=100, level=0.95)
    assert used.random() == ref.random()


def _scores(values: dict[str, np.ndarray]) -> pd.DataFrame:
    """Rows of evaluate's output: per measure a (topics x runs) array."""
    rows = [(f"r{j}", f"t{i}", m, float(v[i, j])) for m, v in values.items()
            for i in range(v.shape[0]) for j in range(v.shape[1])]
    return pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "value"])


def test_second_cutoff_groups_measures_at_its_own_cutoff():
    """fix04e item 1: the measures under several names are found at the second cutoff. At 1 X and Y are
    one measure (the first cutoff's groups: X@1 = Y@1); at 10 they differ, and Z@10 = 2 Y@10 + 1 is Y's twin:
    every distinct measure at 10 is counted once, named by its first name."""
    rng = np.random.default_rng(7)
    x = rng.random((6, 4)) + np.arange(4)
    y = rng.random((6, 4))
    out = ds.second_cutoff_power(_scores({"X@10": x, "Y@10": y, "Z@10": 2 * y + 1}), ["X@10", "Y@10", "Z@10"],
                                 pd.Series({"X@1": 0.5, "Y@1": 0.5, "Z@1": 0.2}), 1, 10, B=99,
                                 rng=np.random.default_rng(1), significance=0.05, level=0.95)
    assert out["twins"] == [["Y@10", "Z@10"]] and out["keep"] == ["X", "Y"]
    t = out["table"].set_index("measure")
    assert list(t.columns) == ["power@1", "power@10", "Monte Carlo low @10", "Monte Carlo high @10"]
    assert t.loc["X", "power@1"] == 0.5 and t.loc["Z", "power@1"] == 0.2
    assert t.loc["Y", "power@10"] == t.loc["Z", "power@10"]          # twins: the same permutation p-values
    assert t.loc["X", "power@10"] > t.loc["Y", "power@10"]            # X separates the runs, Y is noise
    assert set(out["mc"]) == {"X", "Y", "Z"} and all(lo <= hi for lo, hi in out["mc"].values())
    # the line counts the measures of 10 (2), not those of the first cutoff: X leads at 10
    line = fd.extra_power_line(out["table"], out["mc"], 1, 10, out["keep"], "f.csv", 100)
    assert line.startswith("power@10 over 2 measures") and "Highest: X (" in line
