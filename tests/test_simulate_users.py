"""helpers.simulate.users: the planted user models of notebooks 04 and 05, by hand."""

from __future__ import annotations

import numpy as np
import pytest

from helpers.simulate import users

# one SERP of 3 ranks, 2 intents; levels on the 0-1 scale (L0..L4 -> 0..1)
X = np.array([[[0.0, 1.0], [0.5, 0.0], [0.25, 1.0]]])


def test_intent_utilities_by_hand():
    assert np.allclose(users.intent_utility(X, "position", 0.5), [[0 + 0.5 * 0.5 + 0.25 * 0.25, 1 + 0.25]])
    assert np.allclose(users.intent_utility(X, "graded"), [[0.5 / np.log2(3) + 0.25 / 2, 1 + 1 / 2]])
    assert np.allclose(users.intent_utility(X, "coverage"), [[1 - 1 * 0.7 * 0.85, 1 - 0.4 * 1 * 0.4]])
    assert np.allclose(users.intent_utility(X, "first-hit", 0.5), [[0.5, 1.0]])
    assert np.allclose(users.intent_utility(np.zeros((1, 3, 1)), "first-hit", 0.5), [[0.0]])
    assert np.allclose(users.intent_utility(X, "null"), [[0.0, 0.0]])
    with pytest.raises(ValueError, match="unknown user model 'cascade'"):
        users.intent_utility(X, "cascade")


def test_serp_utility_weights_intents_except_coverage():
    w = np.array([[0.9, 0.1]])
    valid = np.array([[True, True]])
    u = users.intent_utility(X, "position", 0.5)
    assert users.serp_utility(X, "position", w, valid, 0.5) == pytest.approx(float((u * w).sum()))
    cov = users.intent_utility(X, "coverage")
    assert users.serp_utility(X, "coverage", w, valid) == pytest.approx(float(cov.mean()))
    # an intent slot that does not exist counts for nothing, also in the uniform weights
    pad = np.concatenate([X, np.ones((1, 3, 1))], axis=2)
    assert users.serp_utility(pad, "coverage", np.array([[0.9, 0.1, 0.0]]), np.array([[True, True, False]])) \
        == pytest.approx(float(cov.mean()))


def test_alignment_names_families_and_excludes_mixed_measures():
    assert users.aligned_family("coverage", "I-rec@10") and users.aligned_family("coverage", "alpha-nDCG@10")
    assert users.aligned_family("position", "D-RBP(p=0.85)@10") and users.aligned_family("position", "RBP-IA (p=0.85)")
    assert users.aligned_family("first-hit", "D-ERR") and users.aligned_family("graded", "nDCG-IA")
    # RBU/iRBU: RBP's p^r discount and ERR's stopping (Zeng & Sakai Table 1): both families
    assert users.aligned_family("first-hit", "RBU (p=0.85)") and users.aligned_family("position", "iRBU(p=0.99)@10")
    assert not users.aligned_family("coverage", "D#-nDCG@10")      # D# mixes I-rec with a D-measure
    assert not users.aligned_family("graded", "D#-nDCG@10")
    # counted through their I-rec half on request: coverage only, never the D-measure's family
    assert users.aligned_family("coverage", "D#-RBP (p=0.99)", through_irec=True)
    assert users.aligned_family("coverage", "DIN#-nDCG@10", through_irec=True)
    assert not users.aligned_family("graded", "D#-nDCG@10", through_irec=True)
    assert not users.aligned_family("position", "D#-RBP (p=0.85)", through_irec=True)
    assert not users.aligned_family("coverage", "P+Q@10", through_irec=True)
    assert users.aligned_family("coverage", "I-rec@10", through_irec=True)
    assert not any(users.aligned_family("null", m) for m in ("I-rec@10", "D-nDCG@10", "RBU(p=0.85)@10"))
    with pytest.raises(ValueError, match="unknown user model"):
        users.aligned_family("cascade", "I-rec@10")


@pytest.mark.parametrize("mix,msg", [
    ("position:0.5,coverage:0.4", "sum to 1"),
    ("position:0.5,cascade:0.5", "unknown user model 'cascade'"),
    ("position=1", "must look like 'model:share'"),
    ("null:1.5,coverage:-0.5", "must be a number >= 0"),
])
def test_bad_mixture(mix, msg):
    with pytest.raises(ValueError, match=msg):
        users.parse_mixture(mix)


def test_mixture_with_every_model():
    m = users.parse_mixture("position:0.2,graded:0.2,coverage:0.2,first-hit:0.2,null:0.2")
    assert list(m) == list(users.USER_MODELS)


def test_shared_members_are_the_measures_of_two_families():
    from helpers.simulate import users as sim_users

    names = ["D-RBP (p=0.85)", "RBU (p=0.85)", "iRBU(p=0.99)@10", "D-nERR", "I-rec", "D-nDCG", "D#-nDCG"]
    assert sim_users.shared_members("position", names) == ["RBU (p=0.85)", "iRBU(p=0.99)@10"]
    assert sim_users.shared_members("first-hit", names) == ["RBU (p=0.85)", "iRBU(p=0.99)@10"]
    assert sim_users.shared_members("graded", names) == [] == sim_users.shared_members("null", names)


def test_notebook_04_families_follow_the_measures_definitions():
    """EBR stops as ERR does (Zeng & Sakai, Table 1: P_ERR(r) with BR(r)), so it is a first-hit measure;
    P+Q is IA-Q on informational intents (Sakai's survey, Eq. 9), so it is graded. ALIGNED (notebook 05)
    is unchanged."""
    fams = users.BY_DEFINITION
    for m in ("D-EBR@10", "IA-EBR@10", "EBR-IA"):
        assert users.aligned_family("first-hit", m, families=fams)
        assert not users.aligned_family("first-hit", m)                 # notebook 05's ALIGNED as before
    assert users.aligned_family("graded", "P+Q@10", families=fams) and not users.aligned_family("graded", "P+Q@10")
    assert users.aligned_family("graded", "IA-Q@10", families=fams)
    assert not any(users.aligned_family(o, "P+Q#@10", families=fams) for o in fams)
    assert not users.aligned_family("first-hit", "D#-EBR@10", families=fams)     # half I-rec: no family
    assert users.shared_members("first-hit", ["D-EBR@10", "RBU(p=0.85)@10"], families=fams) == ["RBU(p=0.85)@10"]
    assert {k: v for k, v in fams.items() if k not in ("graded", "first-hit")} == \
        {k: v for k, v in users.ALIGNED.items() if k not in ("graded", "first-hit")}


def test_partial_members_are_half_a_member():
    fams = users.BY_DEFINITION
    names = ["D#-EBR@10", "D#-nERR@10", "D#-nDCG@10", "DIN#-nDCG@10", "P+Q#@10", "P+Q@10", "D-EBR@10", "I-rec@10"]
    assert users.partial_members("first-hit", names, families=fams) == ["D#-EBR@10", "D#-nERR@10"]
    assert users.partial_members("graded", names, families=fams) == ["D#-nDCG@10", "DIN#-nDCG@10", "P+Q#@10"]
    assert users.partial_members("coverage", names, families=fams) == names[:5]     # the I-rec half
    assert users.partial_members("position", names, families=fams) == []
    assert users.partial_members("graded", names) == ["D#-nDCG@10", "DIN#-nDCG@10"]  # ALIGNED: P+Q in no family
