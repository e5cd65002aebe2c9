"""Tests of the FedWeb13-calibrated double-judgment simulator (helpers.simulate.judgments)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import prm
from helpers.simulate import double_judgments
from helpers.simulate.judgments import FEDWEB13_TABLE3, confuse_top_levels, expected_p

# Demeester et al. (2016), Table 3 (pages, Eq. 5), written out here independently of the module.
PAPER_TABLE3 = {3: [0.01, 0.04, 0.27, 0.53], 2: [0.02, 0.22, 0.65, 0.87],
                1: [0.08, 0.46, 0.88, 0.93]}


def test_module_copy_of_table3_matches_paper():
    assert {k: list(v) for k, v in FEDWEB13_TABLE3.items()} == PAPER_TABLE3


def test_exact_model_is_calibrated_to_table3():
    # tolerance 0.015 per value: the calibrated model's largest gap is 0.013
    e = expected_p()
    for th, target in PAPER_TABLE3.items():
        got = e[e["threshold"] == th].sort_values("level")["p"].to_numpy()
        assert got == pytest.approx(target, abs=0.015), th


def test_simulated_eq5_estimates_land_near_table3():
    # 50 topics x 1000 docs all doubly judged: binomial sd of p_Key|Key is ~0.007, so a
    # tolerance of 0.03 = calibration gap (<= 0.013) + more than 2 sd.
    d = double_judgments(np.random.default_rng(11), n_docs=1000, double_topics=1.0, n_runs=1,
                         depth=1)
    assert len(d.pairs) == 50_000
    for th, target in PAPER_TABLE3.items():
        got = prm.estimate(d.pairs, th, "eq5", T=3)["p"].to_numpy()
        assert got == pytest.approx(target, abs=0.03), th


def test_default_collection_shape_and_half_of_topics_doubled():
    d = double_judgments(np.random.default_rng(1))
    assert d.qrels_u1["query_id"].nunique() == 50
    assert len(d.qrels_u1) == 50 * 250
    assert d.pairs["query_id"].nunique() == 25
    assert len(d.pairs) == 25 * 250
    assert d.runs["run_id"].nunique() == 20
    assert (d.runs.groupby(["run_id", "query_id"]).size() == 100).all()
    assert set(d.qrels_u1["relevance"].unique()) <= {0, 1, 2, 3}
    # pairs agree with both qrels
    m = d.pairs.merge(d.qrels_u1, on=["query_id", "doc_id"]).merge(
        d.qrels_u2, on=["query_id", "doc_id"], suffixes=("_1", "_2"))
    assert (m["u1"] == m["relevance_1"]).all() and (m["u2"] == m["relevance_2"]).all()


def test_runs_are_rankings_and_quality_orders_effectiveness():
    d = double_judgments(np.random.default_rng(2), n_runs=5, quality_range=(0.0, 2.0))
    r = d.runs
    assert not r.duplicated(["run_id", "query_id", "doc_id"]).any()
    first = r[r["rank"] == 1].merge(d.latent, on=["query_id", "doc_id"])
    mean_z = first.groupby("run_id")["z"].mean()
    # quality 0 is a random ranking, quality 2 ranks by z: the top document's z must rise
    assert mean_z["run05"] > mean_z["run01"] + 1.0


def test_deterministic_for_a_seed():
    a = double_judgments(np.random.default_rng(5), n_topics=6, n_docs=30, n_runs=3, depth=10)
    b = double_judgments(np.random.default_rng(5), n_topics=6, n_docs=30, n_runs=3, depth=10)
    c = double_judgments(np.random.default_rng(6), n_topics=6, n_docs=30, n_runs=3, depth=10)
    for x, y in zip(a, b):
        pd.testing.assert_frame_equal(x, y)
    assert not a.qrels_u1["relevance"].equals(c.qrels_u1["relevance"])


def test_double_fraction_subsamples_documents():
    d = double_judgments(np.random.default_rng(3), n_docs=200, double_fraction=0.2)
    # 25 topics x 200 docs x 0.2 = 1000 expected; binomial sd ~ 28
    assert 850 < len(d.pairs) < 1150


@pytest.mark.parametrize("kwargs, message", [
    ({"n_topics": 0}, "n_topics must be an integer >= 1"),
    ({"depth": 300}, r"depth \(300\) cannot exceed n_docs \(250\)"),
    ({"double_topics": 0.0}, r"double_topics must be in \(0, 1\]"),
    ({"double_fraction": 1.5}, r"double_fraction must be in \(0, 1\]"),
    ({"quality_range": (1.0, 0.5)}, "quality_range"),
    ({"topic_concentration": 0}, "topic_concentration must be > 0"),
    ({"params": {"cutpoints": (1.0, 0.5, 2.0)}}, "strictly increasing"),
    ({"params": {"lapse": 1.5}}, r"lapse must be a probability"),
    ({"params": {"noise_sd": 0}}, "noise_sd must be > 0"),
    ({"params": {"bogus": 1}}, "unknown model parameter 'bogus'"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        double_judgments(np.random.default_rng(0), **kwargs)


def test_rng_required():
    with pytest.raises(ValueError, match="numpy.random.Generator"):
        double_judgments(123)


def test_confuse_top_levels_equalises_top_two_parameters():
    d = double_judgments(np.random.default_rng(4), n_docs=1000, double_topics=1.0, n_runs=1,
                         depth=1)
    rng = np.random.default_rng(0)
    pairs = d.pairs.assign(u1=confuse_top_levels(d.pairs["u1"].to_numpy(), rng),
                           u2=confuse_top_levels(d.pairs["u2"].to_numpy(), rng))
    p = prm.estimate(pairs, 3, "eq5").set_index("level")["p"]
    # both top levels now have p_3|i = p(>=2 | >=2) / 2; with ~2x6500 judgments each, sd ~ .006
    assert p[3] == pytest.approx(p[2], abs=0.03)
    assert prm.udm_weights(p.tolist())[3] == 1.0


def test_confuse_top_levels_rejects_bad_levels():
    with pytest.raises(ValueError, match=r"integers in 0\.\.3"):
        confuse_top_levels(np.array([0, 4]), np.random.default_rng(0))


def test_confuse_top_levels_needs_generator():
    with pytest.raises(ValueError, match="numpy.random.Generator"):
        confuse_top_levels(np.array([0, 3]), 0)


@pytest.mark.parametrize("params, message", [
    ({"w": -0.1}, r"w must be a probability"),
    ({"sd_rel": -1.0}, "sd_rel must be > 0"),
])
def test_expected_p_bad_params(params, message):
    with pytest.raises(ValueError, match=message):
        expected_p(params)


def test_udm_vs_prm_equalises_the_prm_but_not_the_udm():
    """Sect. 3.4.3 of Demeester et al. (2016): with the top two levels indistinguishable, the PRM's
    ratio of their gains is near 1 while the UDM's is p_{T|T-1} < 1."""
    from helpers import prm

    from helpers.simulate import judgments

    sim = judgments.double_judgments(np.random.default_rng(2), n_topics=20, n_docs=200, n_runs=3)
    pairs = prm.pairs_from_qrels(sim.qrels_u1, sim.qrels_u2)
    out = judgments.udm_vs_prm(pairs, np.random.default_rng(0), T=3, reps=20)
    assert abs(out["prm_ratio"] - 1) < 0.1 and out["udm_ratio"] < 0.6
    assert out["udm"][3] == 1.0 and out["udm"][0] == 0.0 and len(out["p"]) == 4
    again = judgments.udm_vs_prm(pairs, np.random.default_rng(0), T=3, reps=20)
    assert again["prm_ratio"] == out["prm_ratio"]
    with pytest.raises(ValueError, match="reps"):
        judgments.udm_vs_prm(pairs, np.random.default_rng(0), T=3, reps=1)
