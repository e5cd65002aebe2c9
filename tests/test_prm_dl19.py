"""The PRM gains notebook 03 uses on TREC DL 2019 (profile ``real``) are the ones it says it uses.

The notebook says: U1 = the NIST qrels, U2 = one re-annotator of Parry et al. per item (drawn with
the run's seed, no rater whose labels are NIST's), ``method: eq4`` because the re-annotators
re-judged NIST's level-0 passages less often than the others, gains ``g(i) = p(R|i)`` with level 0
keeping ``p(R|0)``, and Table 6 scored with those gains on both assessors' labels. This file
recomputes them from the data and compares them with the committed ``reports/real`` outputs.
Skipped without the offline data mirror (``SUBJEVAL_DATA_MIRROR`` or ``../shared/data/mirror``).
Reading the 37 runs takes ~20 s, so Table 6 is rescored only with ``SUBJEVAL_SLOW_TESTS=1``; the
gains need the judgments only.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest
import yaml

from helpers import paths, prm
from helpers.data import datasets
from helpers.prm import inputs as prm_inputs

from _mirror import find_mirror  # noqa: E402  (tests/ is on sys.path)


MIRROR = find_mirror()
REAL = paths.ROOT / "reports" / "real"
SLOW = bool(os.environ.get("SUBJEVAL_SLOW_TESTS"))
pytestmark = pytest.mark.skipif(MIRROR is None or not (REAL / "metrics" / "03_prm_estimation.json").is_file(),
                                reason="no offline data mirror or no committed real outputs of notebook 03")


@pytest.fixture(scope="module")
def dl19():
    params = yaml.safe_load((paths.ROOT / "params" / "real" / "03_prm_estimation.yaml").read_text())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(datasets.MIRROR_ENV, str(MIRROR))
        if not SLOW:   # the runs play no part in the gains; one empty run list stands in for them
            mp.setattr(datasets, "load_runs", lambda *a, **k: pd.DataFrame(
                {"run_id": pd.Series(dtype=str), "query_id": pd.Series(dtype=str), "doc_id": pd.Series(dtype=str),
                 "rank": pd.Series(dtype=int), "score": pd.Series(dtype=float)}))
        rng = np.random.default_rng(params["seed"])          # the notebook's first draw is U2's rater
        got = prm_inputs.load("dl19", rng, depth=max(params["k"], params["k_table7"]))
    metrics = json.loads((REAL / "metrics" / "03_prm_estimation.json").read_text())
    return params, got, prm.pairs_from_qrels(got.qrels_u1, got.qrels_u2), metrics


def test_the_real_profile_uses_eq4_because_level_0_was_resampled(dl19):
    params, got, pairs, metrics = dl19
    assert params["method"] == "eq4" and metrics["parameters"]["method"] == "eq4"
    share, eq5_valid = prm_inputs.coverage(got.qrels_u1, pairs, 3)
    assert not eq5_valid and metrics["data"]["eq5_valid"] is False
    assert share[0] < 0.5 * share[1:].min()                  # NIST's level 0 re-judged far less often
    assert len(pairs) == metrics["data"]["pairs"] and pairs["query_id"].nunique() == 43


def test_no_rater_is_nist(dl19):
    _, got, _, metrics = dl19
    assert metrics["data"]["raters_left_out"] == [] and not got.copies.found
    assert not any("left out" in line for line in got.lines)


@pytest.mark.parametrize("theta", [3, 2, 1])
def test_the_gains_are_eq4_on_these_pairs(dl19, theta):
    _, _, pairs, metrics = dl19
    est = prm.estimate(pairs, threshold=theta, method="eq4", T=3).set_index("level")
    said = metrics["p_R_given_i"][f"theta={theta}"]["eq4"]
    assert [round(est.loc[i, "p"], 9) for i in range(4)] == [round(said[str(i)], 9) for i in range(4)]
    table = pd.read_csv(REAL / "tables" / "03_prm_estimates.csv")
    rows = table[(table["threshold"] == theta) & (table["method"] == "eq4")].set_index("level")
    assert rows["numerator"].tolist() == est["numerator"].astype(int).tolist()
    assert rows["denominator"].tolist() == est["denominator"].astype(int).tolist()
    gains = prm.prm_gains(est["p"])
    assert gains[0] == est.loc[0, "p"] > 0                  # level 0 keeps p(R|0) (paper, Sect. 3.4.5)
    assert [gains[i] for i in range(4)] == est["p"].tolist()


@pytest.mark.skipif(not SLOW, reason="reads the 37 runs (~20 s): set SUBJEVAL_SLOW_TESTS=1")
def test_table6_is_scored_with_those_gains(dl19):
    params, got, pairs, _ = dl19
    p_gain = {th: prm.estimate(pairs, threshold=th, method="eq4", T=3).set_index("level")["p"] for th in (1, 2, 3)}
    table6, _ = prm.robustness_tables(got.qrels_u1, got.qrels_u2, got.runs, p_gain, [3, 2, 1], 3, k=params["k"],
                                      k_table7=params["k_table7"], names=["0", "1", "2", "3"])
    said = pd.read_csv(REAL / "tables" / "03_table6_robustness.csv").set_index("gains")["tau"]
    assert table6.set_index("gains")["tau"].round(3).to_dict() == said.round(3).to_dict()
