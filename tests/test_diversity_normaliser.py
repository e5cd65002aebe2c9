"""helpers.measures.diversity ``normaliser``: the fixed gv_max of Zeng & Sakai (Table 1) against NTCIREVAL
gcompute's ideal top gain, for every ERR/EBR/RBP/RBU-type measure, on hand-computed cases (issue 17)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.measures import diversity
from helpers.measures.results import affine_measures, proportional_measures

from tests.test_diversity import one_run, toy, values


def err(g, gmax):
    """ERR of a gain list with stop probabilities g/(gmax+1), by hand."""
    out, keep = 0.0, 1.0
    for r, x in enumerate(g, start=1):
        s = x / (gmax + 1)
        out += keep * s / r
        keep *= 1 - s
    return out


# toy(): linear gains 1:2:3 so gv_max = 3; global gains a 1.2, b 1.8, c 0.4, d 0.6 (ideal top 1.8);
# run a > b. Intentwise gains: i1 a 2, b 1 (ideal 2, 1, 1; top 2); i2 a 0, b 3 (ideal 3, 1; top 3).
RUN = ["a", "b"]
GG = [1.2, 1.8]


def by_hand(gm_d, gm_i1):
    """Expected values with D-measure gmax ``gm_d`` and intent-1 gmax ``gm_i1`` (intent 2: 3 either way)."""
    s = [g / (gm_d + 1) for g in GG]
    br1, br2 = (1 + 1.2) / (1 + 1.8), (2 + 3.0) / (2 + 3.0)
    i1 = 0.5 * (2 + 0.5 * 1) / gm_i1
    i2 = 0.5 * (0 + 0.5 * 3) / 3
    s1 = [2 / (gm_i1 + 1), 1 / (gm_i1 + 1)]
    irbu_i1 = 0.5 * s1[0] + 0.25 * (1 - s1[0]) * s1[1]
    irbu_i2 = 0.25 * 3 / 4
    irbu = 0.6 * irbu_i1 + 0.4 * irbu_i2
    d_nerr = err(GG, gm_d) / err([1.8, 1.2], gm_d)
    return {
        "D-nERR@2": d_nerr,
        "D#-nERR@2": 0.5 * 1.0 + 0.5 * d_nerr,          # a and b cover both intents: I-rec = 1
        "D-RBP(p=0.5)@2": 0.5 * (1.2 + 0.5 * 1.8) / gm_d,
        "D-EBR@2": s[0] * br1 + (1 - s[0]) * s[1] * br2,
        "IA-RBP(p=0.5)@2": 0.6 * i1 + 0.4 * i2,
        "IA-nERR@2": 0.6 * err([2, 1], gm_i1) / err([2, 1], gm_i1) + 0.4 * err([0, 3], 3) / err([3, 1], 3),
        "iRBU(p=0.5)@2": irbu,
        "RBU(p=0.5, e=0.1)@2": irbu - 0.1 * (0.5 + 0.25),
    }


MEASURES = list(by_hand(1.8, 2.0))


@pytest.mark.parametrize("normaliser, gm_d, gm_i1", [("fixed", 3.0, 3.0), ("ideal", 1.8, 2.0)])
def test_both_normalisers_by_hand(normaliser, gm_d, gm_i1):
    dq, it = toy()
    got = values(diversity.evaluate(dq, it, one_run(RUN), MEASURES, gains="1:2:3", normaliser=normaliser))
    want = by_hand(gm_d, gm_i1)
    for m in MEASURES:
        assert got[m] == pytest.approx(want[m], abs=1e-12), m


def test_the_two_conventions_differ_and_the_default_mixes_them():
    dq, it = toy()
    res = {n: values(diversity.evaluate(dq, it, one_run(RUN), MEASURES, gains="1:2:3", normaliser=n))
           for n in (None, "fixed", "ideal")}
    for m in ("D-nERR@2", "D-RBP(p=0.5)@2", "D-EBR@2", "IA-RBP(p=0.5)@2", "iRBU(p=0.5)@2"):
        assert abs(res["fixed"][m] - res["ideal"][m]) > 1e-3, m
    # NTCIREVAL's per-program choice: gcompute (ideal) for D-/IA-, compute -rbup (fixed) for RBU
    for m in ("D-nERR@2", "D-RBP(p=0.5)@2", "D-EBR@2", "IA-RBP(p=0.5)@2"):
        assert res[None][m] == pytest.approx(res["ideal"][m], abs=1e-15)
    for m in ("iRBU(p=0.5)@2", "RBU(p=0.5, e=0.1)@2"):
        assert res[None][m] == pytest.approx(res["fixed"][m], abs=1e-15)


def test_fixed_normaliser_uses_the_given_gmax():
    dq, it = toy()
    got = values(diversity.evaluate(dq, it, one_run(RUN), ["D-RBP(p=0.5)@2"], gains="1:2:3", normaliser="fixed",
                                    gmax=7.0))
    assert got["D-RBP(p=0.5)@2"] == pytest.approx(0.5 * (1.2 + 0.5 * 1.8) / 7.0, abs=1e-12)


def test_normaliser_does_not_touch_gain_free_measures():
    dq, it = toy()
    ms = ["D-nDCG@2", "D-Q@2", "IA-nDCG@2", "alpha-nDCG@2", "I-rec@2"]
    a = diversity.evaluate(dq, it, one_run(RUN), ms, gains="1:2:3", normaliser="fixed")["value"]
    b = diversity.evaluate(dq, it, one_run(RUN), ms, gains="1:2:3", normaliser="ideal")["value"]
    pd.testing.assert_series_equal(a, b)


def test_bad_normaliser_is_rejected():
    dq, it = toy()
    with pytest.raises(ValueError, match="normaliser must be None"):
        diversity.evaluate(dq, it, one_run(RUN), ["D-nERR@2"], normaliser="paper")


def test_chapelle_ia_err_by_hand():
    """IA-ERR: sum_i Pr(i) ERR_i with graded stop probabilities g/(gv_max + 1), not normalised."""
    dq, it = toy()
    got = values(diversity.evaluate(dq, it, one_run(RUN), ["IA-ERR@2", "IA-nERR@2"], gains="1:2:3", normaliser="fixed"))
    # i1 gains a 2, b 1; i2 gains a 0, b 3; gv_max = 3 -> stop g/4
    want = 0.6 * err([2, 1], 3) + 0.4 * err([0, 3], 3)
    assert got["IA-ERR@2"] == pytest.approx(want, abs=1e-12)
    assert got["IA-ERR@2"] < got["IA-nERR@2"]   # unnormalised
    ideal = values(diversity.evaluate(dq, it, one_run(RUN), ["IA-ERR@2"], gains="1:2:3", normaliser="ideal"))
    assert ideal["IA-ERR@2"] == pytest.approx(0.6 * err([2, 1], 2) + 0.4 * err([0, 3], 3), abs=1e-12)


def test_proportional_measures_finds_one_measure_under_two_names():
    """Under the fixed normaliser D-RBP and IA-RBP are both linear in the gains over a constant: one
    measure under two names for every ranking and test; under the ideal normaliser they differ."""
    import numpy as np
    from helpers.measures import diversity
    from helpers.measures.results import proportional_measures
    from helpers.simulate import intents as sim_intents

    c = sim_intents.intent_collection(np.random.default_rng(1), n_topics=10, n_runs=5)
    m = ["D-RBP(p=0.85)@10", "IA-RBP(p=0.85)@10", "D-nDCG@10", "I-rec@10"]
    fixed = diversity.evaluate(c.dqrels, c.intents, c.runs, m, normaliser="fixed").dropna(subset=["value"])
    assert proportional_measures(fixed) == [["D-RBP(p=0.85)@10", "IA-RBP(p=0.85)@10"]]
    ideal = diversity.evaluate(c.dqrels, c.intents, c.runs, m, normaliser="ideal").dropna(subset=["value"])
    assert proportional_measures(ideal) == []


def _tidy(cols: dict) -> pd.DataFrame:
    """A results frame from ``{measure: {(run, topic): value}}``."""
    return pd.DataFrame([(r, t, m, v) for m, cells in cols.items() for (r, t), v in cells.items()],
                        columns=["run_id", "query_id", "measure", "value"])


def test_affine_measures_by_hand():
    """x = a y + b_t (one a > 0, an offset per topic) is one measure; a per-topic factor, a negative
    factor or a different missing cell is not."""
    y = {("r1", "t1"): 0.2, ("r2", "t1"): 0.5, ("r3", "t1"): 0.9, ("r1", "t2"): 0.1, ("r2", "t2"): 0.7, ("r3", "t2"): 0.4}
    shifted = {k: 2.0 * v + (0.3 if k[1] == "t1" else -1.0) for k, v in y.items()}     # a = 2, b_t per topic
    minus = {k: v - 0.0123 for k, v in y.items()}                                      # RBU = iRBU - constant
    per_topic_a = {k: v * (1.0 if k[1] == "t1" else 3.0) for k, v in y.items()}
    negative = {k: -v for k, v in y.items()}
    holed = {**y, ("r3", "t2"): np.nan}
    res = _tidy({"Y": y, "neg": negative, "S": shifted, "A": per_topic_a, "M": minus, "H": holed})
    assert affine_measures(res) == [["Y", "S", "M"]]
    assert proportional_measures(res) == []                 # the old detector misses the offsets


def test_affine_measures_find_rbu_and_irbu_and_strec():
    """On a simulated collection RBU(p) and iRBU(p) (one p) are one measure, as are I-rec and strec;
    RBU at another p is not."""
    from helpers.measures import diversity
    from helpers.simulate import intents as sim_intents

    c = sim_intents.intent_collection(np.random.default_rng(2), n_topics=12, n_runs=5)
    m = ["I-rec@10", "RBU(p=0.99)@10", "RBU(p=0.85)@10", "strec@10", "iRBU(p=0.99)@10", "D-nDCG@10"]
    res = diversity.evaluate(c.dqrels, c.intents, c.runs, m).dropna(subset=["value"])
    assert affine_measures(res) == [["I-rec@10", "strec@10"], ["RBU(p=0.99)@10", "iRBU(p=0.99)@10"]]
