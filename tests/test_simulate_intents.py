"""helpers.simulate.intents.intent_collection: shape, determinism, documented properties, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.simulate import intent_collection
from helpers.simulate.intents import IntentCollection


@pytest.fixture(scope="module")
def coll():
    return intent_collection(np.random.default_rng(7))


def test_default_collection_has_documented_shape(coll):
    assert isinstance(coll, IntentCollection)
    assert coll.intents["query_id"].nunique() == 100
    per_topic = coll.intents.groupby("query_id").size()
    assert per_topic.min() >= 2 and per_topic.max() <= 10
    assert set(coll.intents["kind"]) == {"inf", "nav"}
    assert np.allclose(coll.intents.groupby("query_id")["prob"].sum(), 1.0)
    assert set(coll.dqrels["relevance"].unique()) == {0, 1, 2, 3, 4}
    assert coll.runs["run_id"].nunique() == 15
    assert list(coll.run_params.columns) == ["run_id", "skill", "diversity", "knowledge"]
    sizes = coll.runs.groupby(["run_id", "query_id"]).size()
    assert (sizes == 100).all() and len(sizes) == 1500


def test_every_intent_has_a_relevant_document_and_nav_intents_few(coll):
    rel = coll.dqrels[coll.dqrels["relevance"] > 0]
    counts = rel.groupby("intent_id").size().reindex(coll.intents["intent_id"]).fillna(0)
    assert (counts > 0).all()
    nav = coll.intents.loc[coll.intents["kind"] == "nav", "intent_id"]
    assert counts.loc[nav].max() <= 3
    assert rel[rel["intent_id"].isin(nav)]["relevance"].min() >= 3


def test_runs_are_valid_rankings(coll):
    r = coll.runs
    assert not r.duplicated(["run_id", "query_id", "doc_id"]).any()
    assert not r.duplicated(["run_id", "query_id", "rank"]).any()
    # scores decrease with rank inside each list
    d = r.sort_values(["run_id", "query_id", "rank"]).groupby(["run_id", "query_id"])["score"].diff()
    assert (d.dropna() <= 0).all()


def test_deterministic_per_seed_and_seed_sensitive():
    a = intent_collection(np.random.default_rng(3), n_topics=5, n_runs=3, depth=20)
    b = intent_collection(np.random.default_rng(3), n_topics=5, n_runs=3, depth=20)
    c = intent_collection(np.random.default_rng(4), n_topics=5, n_runs=3, depth=20)
    pd.testing.assert_frame_equal(a.runs, b.runs)
    pd.testing.assert_frame_equal(a.dqrels, b.dqrels)
    assert not a.runs["doc_id"].equals(c.runs["doc_id"])


def test_skilled_runs_beat_poor_runs(coll):
    from helpers.measures import diversity

    res = diversity.evaluate(coll.dqrels, coll.intents, coll.runs, ["D#-nDCG@10"])
    mean = res.groupby("run_id")["value"].mean()
    assert mean["R15"] > mean["R01"] + 0.1


@pytest.mark.parametrize("kw,msg", [
    ({"n_topics": 0}, "n_topics must be an integer >= 1"),
    ({"min_intents": 3, "max_intents": 2}, "max_intents"),
    ({"dirichlet_alpha": 0}, "dirichlet_alpha"),
    ({"p_nav": 1.5}, "p_nav must be a probability"),
    ({"level_probs": (0.5, 0.5, 0.5, 0.5)}, "level_probs"),
    ({"depth": 2.5}, "depth must be an integer"),
])
def test_bad_arguments(kw, msg):
    with pytest.raises(ValueError, match=msg):
        intent_collection(np.random.default_rng(0), **kw)


def test_rng_must_be_a_generator():
    with pytest.raises(ValueError, match="numpy.random.Generator"):
        intent_collection(0)


def test_no_measure_family_matches_the_runs_generating_order():
    """Issue 17: runs are not ranked by any measure's own sort key. With ``run_noise = 0`` the
    non-diversifying runs (R01, R04, ...) rank by their noise-free generating key; that order is
    neither the D-measures' global-gain order nor ideal for any measure family."""
    from helpers.measures import diversity

    c = intent_collection(np.random.default_rng(11), n_topics=40, run_noise=0.0)
    plain = c.run_params.loc[c.run_params["diversity"] == 0, "run_id"]
    runs = c.runs[c.runs["run_id"].isin(plain)]
    # Kendall tau, per (run, topic), between the run's key and the global gain over judged documents
    gg = (c.dqrels.assign(g=2.0 ** c.dqrels["relevance"] - 1).merge(c.intents, on=["query_id", "intent_id"])
          .assign(gg=lambda d: d["g"] * d["prob"]).groupby(["query_id", "doc_id"])["gg"].sum().rename("gg"))
    j = runs.merge(gg.reset_index(), on=["query_id", "doc_id"])
    import scipy.stats
    taus = j.groupby(["run_id", "query_id"]).apply(lambda d: scipy.stats.kendalltau(d["score"], d["gg"]).statistic,
                                                   include_groups=False)
    assert taus.median() < 0.8
    assert (taus < 0.99).all()
    ms = ["D-nDCG@10", "D-nERR@10", "DIN-nDCG@10", "IA-nDCG@10", "IA-nERR@10", "alpha-nDCG@10", "nERR-IA@10",
          "P+Q@10", "iRBU(p=0.99)@10", "D-Q@10"]
    mean = diversity.evaluate(c.dqrels, c.intents, runs, ms, normaliser="ideal").groupby("measure")["value"].mean()
    for m in ms:
        assert mean[m] < 0.9, m   # far from each measure's own optimum


@pytest.mark.parametrize("kw", [{"feature_noise": -1}, {"run_noise": float("nan")}, {"run_noise": True}])
def test_bad_noise(kw):
    with pytest.raises(ValueError, match="non-negative number"):
        intent_collection(np.random.default_rng(0), n_topics=2, **kw)


def test_keep_stores_the_top_of_the_same_rankings_and_arrays_match_the_tables():
    full = intent_collection(np.random.default_rng(5), n_topics=6, n_runs=4, depth=25)
    top = intent_collection(np.random.default_rng(5), n_topics=6, n_runs=4, depth=25, keep=7)
    pd.testing.assert_frame_equal(full.runs[full.runs["rank"] <= 7].reset_index(drop=True), top.runs)
    pd.testing.assert_frame_equal(full.dqrels, top.dqrels)
    a = top.arrays
    assert a["levels"].shape == (4, 6, 7, 10) and list(a["run_ids"]) == ["R01", "R02", "R03", "R04"]
    # every ranked document's intentwise levels, read from the tables, equal the arrays
    iid = top.intents.assign(slot=top.intents.groupby("query_id").cumcount())
    lv = (top.runs.merge(top.dqrels, on=["query_id", "doc_id"], how="left")
          .merge(iid[["query_id", "intent_id", "slot"]], on=["query_id", "intent_id"], how="left"))
    for r in lv.dropna(subset=["intent_id"]).itertuples():
        k, t = int(r.run_id[1:]) - 1, int(r.query_id[1:]) - 1
        assert a["levels"][k, t, r.rank - 1, int(r.slot)] == r.relevance
    assert a["levels"][:, :, :, :].sum() == lv["relevance"].fillna(0).sum()
    assert np.allclose(a["prob"].sum(1), 1.0) and (a["valid"].sum(1) >= 2).all()
    with pytest.raises(ValueError, match="keep must be an integer"):
        intent_collection(np.random.default_rng(5), n_topics=2, keep=0)


# --------------------------------------------------------------------------------------------
# runs="styles": runs that the planted users order differently (issue 38, point 4)
# --------------------------------------------------------------------------------------------

def test_skill_design_is_unchanged_by_the_styles_option():
    """runs="skill" (the default) draws exactly what it drew before the option existed: pinned on
    a small collection (the sum of the ranked documents' levels and the first run's first ids)."""
    c = intent_collection(np.random.default_rng(20190707), n_topics=6, n_runs=4, depth=20)
    assert list(c.run_params.columns) == ["run_id", "skill", "diversity", "knowledge"]
    d = intent_collection(np.random.default_rng(20190707), n_topics=6, n_runs=4, depth=20, runs="skill")
    pd.testing.assert_frame_equal(c.runs, d.runs)
    styled = intent_collection(np.random.default_rng(20190707), n_topics=6, n_runs=4, depth=20, runs="styles")
    pd.testing.assert_frame_equal(c.dqrels, styled.dqrels)      # same topics, intents and judgments
    pd.testing.assert_frame_equal(c.intents, styled.intents)
    assert not c.runs["doc_id"].equals(styled.runs["doc_id"])


def test_styles_cross_every_focus_with_every_strategy():
    from helpers.simulate.intents import STRATEGIES, STYLES

    c = intent_collection(np.random.default_rng(1), n_topics=4, n_runs=15, depth=20, runs="styles")
    rp = c.run_params
    assert list(rp.columns) == ["run_id", "skill", "diversity", "knowledge", "focus", "level", "style"]
    assert len(set(rp["style"])) == 15 == len(STYLES) * len(STRATEGIES)
    assert rp["skill"].iloc[0] == 2.0 and rp["skill"].iloc[-1] == 3.0 and (rp["knowledge"] == 4.0).all()
    assert rp.loc[0, "style"] == "as estimated; plain" and rp.loc[1, "style"] == "every intent alike; diversify"
    assert set(rp["focus"]) == {0.0, 1.0, 3.0} and set(rp["level"]) == {"linear", "high", "any"}
    assert set(rp.loc[rp["diversity"] > 0, "style"].str.contains("diversify")) == {True}


def test_styled_runs_are_valid_deterministic_and_keep_the_top():
    a = intent_collection(np.random.default_rng(3), n_topics=5, n_runs=6, depth=25, runs="styles")
    b = intent_collection(np.random.default_rng(3), n_topics=5, n_runs=6, depth=25, runs="styles")
    top = intent_collection(np.random.default_rng(3), n_topics=5, n_runs=6, depth=25, runs="styles", keep=7)
    pd.testing.assert_frame_equal(a.runs, b.runs)
    pd.testing.assert_frame_equal(a.runs[a.runs["rank"] <= 7].reset_index(drop=True), top.runs)
    r = a.runs
    assert not r.duplicated(["run_id", "query_id", "doc_id"]).any()
    d = r.sort_values(["run_id", "query_id", "rank"]).groupby(["run_id", "query_id"])["score"].diff()
    assert (d.dropna() <= 0).all()
    with pytest.raises(ValueError, match=r"runs must be one of \('skill', 'styles'\)"):
        intent_collection(np.random.default_rng(3), n_topics=2, runs="style")


def test_focus_decides_how_evenly_the_intents_are_served():
    """Runs that weigh every intent alike cover more intents (I-rec) than those that chase the
    dominant one, and those serve the likely intent better (D-nDCG): the axis that sets the
    coverage user apart from the Pr(i|q)-weighted users."""
    from helpers.measures import diversity

    c = intent_collection(np.random.default_rng(5), n_topics=60, n_runs=15, depth=40, runs="styles", keep=10)
    res = diversity.evaluate(c.dqrels[c.dqrels["relevance"] > 0], c.intents, c.runs, ["I-rec@10", "D-nDCG@10"])
    mean = res.pivot_table(index="run_id", columns="measure", values="value").join(c.run_params.set_index("run_id"))
    by = mean.groupby("focus")[["I-rec@10", "D-nDCG@10"]].mean()
    assert by.loc[0.0, "I-rec@10"] > by.loc[3.0, "I-rec@10"] + 0.05
    assert by.loc[3.0, "D-nDCG@10"] > by.loc[0.0, "D-nDCG@10"] + 0.05


def test_the_planted_users_order_styled_runs_differently_but_skilled_runs_alike():
    """Issue 38, point 4: with runs="skill" the position and first-hit users order the runs almost
    alike (tau >= 0.8); with runs="styles" the coverage and first-hit users are told apart from the
    Pr(i|q)-weighted ones (tau < 0.8), while position and graded stay alike (their rank weights
    differ too little at l = 10 for any run set of this model to separate them)."""
    from itertools import combinations

    import scipy.stats

    from helpers.simulate import users

    def taus(runs):
        c = intent_collection(np.random.default_rng(11), n_topics=400, n_runs=15, depth=40, runs=runs, keep=10)
        x = c.arrays["levels"].astype(float) / 4.0
        u = {m: users.serp_utility(x, m, c.arrays["prob"][None], c.arrays["valid"][None]).mean(1)
             for m in ("position", "graded", "coverage", "first-hit")}
        return {(a, b): scipy.stats.kendalltau(u[a], u[b]).statistic for a, b in combinations(u, 2)}

    skill, styles = taus("skill"), taus("styles")
    assert skill[("position", "first-hit")] >= 0.8 and skill[("position", "graded")] >= 0.9
    apart = [k for k in styles if "coverage" in k or "first-hit" in k]
    assert len(apart) == 5 and all(styles[k] < 0.8 for k in apart), styles
    assert styles[("position", "graded")] >= 0.8


def test_styled_runs_rank_by_no_measure_s_sort_key():
    """As for the skill design: with run_noise = 0 the plain runs' key is not the D-measures'
    global gain order, and no measure family reaches its optimum."""
    import scipy.stats

    from helpers.measures import diversity

    c = intent_collection(np.random.default_rng(11), n_topics=40, run_noise=0.0, runs="styles")
    plain = c.run_params.loc[c.run_params["diversity"] == 0, "run_id"]
    runs = c.runs[c.runs["run_id"].isin(plain)]
    gg = (c.dqrels.assign(g=2.0 ** c.dqrels["relevance"] - 1).merge(c.intents, on=["query_id", "intent_id"])
          .assign(gg=lambda d: d["g"] * d["prob"]).groupby(["query_id", "doc_id"])["gg"].sum().rename("gg"))
    j = runs.merge(gg.reset_index(), on=["query_id", "doc_id"])
    taus = j.groupby(["run_id", "query_id"]).apply(lambda d: scipy.stats.kendalltau(d["score"], d["gg"]).statistic,
                                                   include_groups=False)
    assert taus.median() < 0.8 and (taus < 0.99).all()
    ms = ["D-nDCG@10", "IA-nDCG@10", "alpha-nDCG@10", "I-rec@10", "D-nERR@10", "iRBU(p=0.99)@10"]
    mean = diversity.evaluate(c.dqrels, c.intents, runs, ms).groupby("measure")["value"].mean()
    for m in ms:
        assert mean[m] < 0.9, m
