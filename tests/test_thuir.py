"""helpers.thuir: THUIR page agreement with exact binomial tests, on a hand-made three-query set."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from helpers import thuir


def fake():
    """q1: sogou 3 images (rel 80, 20, 60) vs baidu 2 (40, 90); users prefer sogou.
    q2: sogou 2 (10, 10) vs baidu 2 (70, 70); users prefer baidu. q3: 2 vs 2, tie."""
    rel = [("q1", "sogou", [80, 20, 60]), ("q1", "baidu", [40, 90]), ("q2", "sogou", [10, 10]),
           ("q2", "baidu", [70, 70]), ("q3", "sogou", [50, 60]), ("q3", "baidu", [60, 50])]
    r_rows, p_rows = [], []
    for q, e, rs in rel:
        for k, x in enumerate(rs):
            r_rows.append((q, e, k, f"{e}/{q}_{k}.jpg", float(x)))
            # grid: image 0 in row 1, the others in row 0 (so the rank order is not the image order)
            p_rows.append((q, e, k, 1 if k == 0 else 0, k, 2))
    relevance = pd.DataFrame(r_rows, columns=["query_id", "engine", "image", "doc_id", "relevance"])
    positions = pd.DataFrame(p_rows, columns=["query_id", "engine", "image", "row", "column", "row_size"])
    serp = pd.DataFrame({"query_id": ["q1", "q2", "q3"], "preference": [0, 2, 1],
                         "preferred": ["sogou", "baidu", "tie"]})
    return SimpleNamespace(serp=serp, relevance=relevance, positions=positions)


def test_pages_are_read_row_by_row():
    p = thuir.page_lists(fake())
    q1 = p[(p.query_id == "q1") & (p.engine == "sogou")]
    assert list(q1.sort_values("rank")["image"]) == [1, 2, 0]
    assert (q1["page_length"] == 3).all()


def test_gain_maps_and_threshold():
    q = thuir.page_qrels(thuir.page_lists(fake()), "exponential", 50.0)
    p = thuir.page_lists(fake())
    want = np.where(p.relevance >= 50, 2 ** (p.relevance / 25) - 1, 0.0)
    assert np.allclose(q["gain"], want)
    assert np.allclose(thuir.page_qrels(p, "linear", 0.0)["gain"], p.relevance / 25)
    assert set(thuir.page_qrels(p, "binary", 50.0)["gain"]) == {0.0, 1.0}
    with pytest.raises(ValueError, match="gain_map"):
        thuir.page_qrels(p, "log", 50.0)
    with pytest.raises(ValueError, match="threshold"):
        thuir.page_qrels(p, "linear", 150.0)


def test_binomial_row_is_scipys_exact_test():
    row = thuir.binomial_row(35, 56, 0.5)
    assert row["p_value"] == pytest.approx(scipy.stats.binomtest(35, 56, 0.5).pvalue, abs=1e-15)
    assert row["p_value"] > 0.05   # 35 of 56 is not significant two-sided
    assert row["ci_low"] < 0.5 < row["ci_high"]


def test_agreement_table_by_hand():
    table, prefs = thuir.agreement_table(fake(), gain_map="linear", threshold=30.0, cutoff=0,
                                         measures={"nDCG": "D-nDCG"})
    # baselines: q1 mean 53.3 vs 65 -> RIGHT (users LEFT); q2 RIGHT (users RIGHT); q3 55 vs 55 -> EQUAL (tie)
    assert list(prefs["mean relevance"]) == ["RIGHT", "RIGHT", "EQUAL"]
    # page length: q1 3 > 2 -> LEFT; others EQUAL
    assert list(prefs["page length"]) == ["LEFT", "EQUAL", "EQUAL"]
    # shorter-page cutoff: q1 sogou scored on its first two ranks (images 1, 2: rel 20, 60)
    row = table[(table.system == "mean relevance") & (table.scope == "all")].iloc[0]
    assert (row["k"], row["n"]) == (2, 3)
    # chance: the baseline ties on 1/3 of the queries, users on 1/3: c = t e + (1 - t)(1 - e)/2
    assert row["chance"] == pytest.approx(1 / 9 + (2 / 3) * (2 / 3) / 2)
    dec = table[(table.system == "page length") & (table.scope == "decisive")].iloc[0]
    assert (dec["k"], dec["n"], dec["ties"]) == (1, 2, 1) and dec["chance"] == pytest.approx(0.25)


def test_precision_at_the_measures_depth_and_over_the_whole_page():
    """Threshold 50. q1: Sogou's first two ranks (rel 20, 60) hold 1 of 2 relevant images, Baidu's
    (90, 40) 1 of 2 -> EQUAL at the measures' depth; over the whole page Sogou has 2 of 3 (80, 20, 60)
    against Baidu's 1 of 2 -> LEFT (the users' choice). q2: 0 of 2 vs 2 of 2 -> RIGHT; q3: 2 vs 2 -> EQUAL."""
    table, prefs = thuir.agreement_table(fake(), gain_map="linear", threshold=50.0, cutoff=0,
                                         measures={"nDCG": "D-nDCG"})
    assert list(prefs[thuir.PRECISION_DEPTH]) == ["EQUAL", "RIGHT", "EQUAL"]
    assert list(prefs[thuir.PRECISION_PAGE]) == ["LEFT", "RIGHT", "EQUAL"]
    kinds = table.drop_duplicates("system").set_index("system")["kind"]
    assert kinds[thuir.PRECISION_DEPTH] == kinds[thuir.PRECISION_PAGE] == "count"
    assert kinds["mean relevance"] == kinds["page length"] == "baseline" and kinds["nDCG"] == "measure"
    k = table[table.scope == "all"].set_index("system")["k"]
    assert (k[thuir.PRECISION_DEPTH], k[thuir.PRECISION_PAGE]) == (2, 3)


def test_bad_cutoff():
    with pytest.raises(ValueError, match="cutoff"):
        thuir.agreement_table(fake(), cutoff=-1)


def test_query_without_relevant_image_is_equal_for_every_measure():
    """At threshold 75 only q1 has relevant images (80 and 90); q2 (best 70) and q3 (best 60) have
    none on either page. Neither page helps there, so every measure says EQUAL, never a side."""
    measures = {"nDCG": "D-nDCG", "RBP": "D-RBP(p=0.85)", "ERR": "D-nERR"}
    for normaliser in ("fixed", "ideal"):
        table, prefs = thuir.agreement_table(fake(), gain_map="linear", threshold=75.0, measures=measures,
                                             normaliser=normaliser)
        assert list(prefs["no_relevant_image"]) == [False, True, True]
        for label in measures:
            assert list(prefs.loc[["q2", "q3"], label]) == ["EQUAL", "EQUAL"], (normaliser, label)
        # q2: users prefer Baidu, the measures say EQUAL -> not an agreement; q3 (tie) agrees
        row = table[(table.system == "nDCG") & (table.scope == "all")].iloc[0]
        assert row["ties"] == 2
        assert row["k"] == int(prefs.loc["q1", "nDCG"] == "LEFT") + 1


def test_one_sided_test_is_above_chance_only():
    """Two-sided 'differs from chance' is not 'above chance': 10 of 56 against 0.5 differs (below)."""
    low = thuir.binomial_row(10, 56, 0.5)
    assert low["p_value"] < 0.001 and low["p_above"] > 0.99
    high = thuir.binomial_row(40, 56, 0.5)
    assert high["p_above"] == pytest.approx(scipy.stats.binomtest(40, 56, 0.5, alternative="greater").pvalue)
    assert high["p_above"] < high["p_value"]


def test_holm_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.5, np.nan])
    # sorted 0.01, 0.03, 0.04, 0.5 with m = 4: 4*0.01, 3*0.03, max(2*0.04, 0.09), 0.5
    assert np.allclose(thuir.holm(p)[:4], [0.04, 0.09, 0.09, 0.5]) and np.isnan(thuir.holm(p)[4])
    assert np.all(thuir.holm(np.full(3, 0.6)) == 1.0)
    assert thuir.holm([]).size == 0


def test_tables_carry_holm_over_their_family():
    table, _ = thuir.agreement_table(fake(), gain_map="linear", threshold=30.0, measures={"nDCG": "D-nDCG"})
    for scope in ("all", "decisive"):
        t = table[table.scope == scope]
        assert np.allclose(t["p_above_holm"], thuir.holm(t["p_above"]))
        assert (t["p_above_holm"] >= t["p_above"]).all()
    sens = thuir.sensitivity(fake(), [("linear", 30.0, 0), ("binary", 30.0, 0)], normaliser="fixed")
    assert len(sens) == 2 * len(thuir.ADHOC)
    assert np.allclose(sens["p_above_holm"], thuir.holm(sens["p_above"]))   # one family: every setting x measure
