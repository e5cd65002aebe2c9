"""rel= relevance threshold of binary measures and collection thresholds (issue 19)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import measures as M
from helpers.data import thresholds as collections

# levels: a 3, b 2, c 1, d 0, e 2 (not retrieved); run d a x c b
QRELS = pd.DataFrame({"query_id": ["T"] * 5 + ["U"], "doc_id": list("abcde") + ["z"],
                      "relevance": [3, 2, 1, 0, 2, 1]})
RUN = pd.DataFrame({"query_id": ["T"] * 5 + ["U"], "doc_id": list("daxcb") + ["z"],
                    "rank": [1, 2, 3, 4, 5, 1], "score": [5.0, 4, 3, 2, 1, 1]})


def _rewritten(rel: int) -> pd.DataFrame:
    """The qrels a user would otherwise write by hand: levels below rel set to 0."""
    q = QRELS.copy()
    q.loc[q["relevance"] < rel, "relevance"] = 0
    return q


@pytest.mark.parametrize("rel", [1, 2, 3])
@pytest.mark.parametrize("no_relevant", ["zero", "nan"])
def test_rel_equals_rewriting_the_qrels(rel, no_relevant):
    names = ["AP", "RR", "P@3", "R@5", "Hit@1", "Hit@2", "AP(norm=R)@3", "AP@3", "RR@1"]
    with_rel = [n.replace("@", f"(rel={rel})@", 1) if "@" in n and "(" not in n else
                (n.replace(")", f",rel={rel})") if "(" in n else f"{n}(rel={rel})") for n in names]
    ours = M.evaluate(QRELS, RUN, with_rel, no_relevant=no_relevant)
    ref = M.evaluate(_rewritten(rel), RUN, names, no_relevant=no_relevant)
    np.testing.assert_array_equal(ours["value"].to_numpy(), ref["value"].to_numpy())
    assert list(ours["measure"].unique()) == [str(M.MeasureSpec.parse(n)) for n in with_rel]


def test_literal_values_at_rel_2():
    res = M.evaluate(QRELS, RUN, ["AP(rel=2)", "RR(rel=3)", "P(rel=2)@3", "R(rel=2)@5", "Hit(rel=3)@1"])
    t = res[res["query_id"] == "T"].set_index("measure")["value"]
    assert t["AP(rel=2)"] == pytest.approx((1 / 2 + 2 / 5) / 3)
    assert t["RR(rel=3)"] == 0.5
    assert t["P(rel=2)@3"] == pytest.approx(1 / 3)
    assert t["R(rel=2)@5"] == pytest.approx(2 / 3)
    assert t["Hit(rel=3)@1"] == 0.0


def test_topic_without_documents_at_rel():
    # U has only a level-1 document: NaN at rel=2 by default (skipped in means), 0 with "zero"
    res = M.evaluate(QRELS, RUN, ["AP", "AP(rel=2)"])
    u = res[res["query_id"] == "U"].set_index("measure")["value"]
    assert u["AP"] == 1.0 and np.isnan(u["AP(rel=2)"])
    agg = M.aggregate(res).set_index("measure")
    assert agg.loc["AP(rel=2)", "n_topics"] == 1 and agg.loc["AP", "n_topics"] == 2
    zero = M.evaluate(QRELS, RUN, ["AP(rel=2)"], no_relevant="zero")
    assert zero.set_index("query_id").loc["U", "value"] == 0.0


def test_rel_with_gain_mapping_and_mixed_measures():
    res = M.evaluate(QRELS, RUN, ["Q", "AP(rel=2)", "MSnDCG@5"], gains="1:2:4")
    ref = M.evaluate(QRELS, RUN, ["Q", "MSnDCG@5"], gains="1:2:4")
    a = res[res["measure"] != "AP(rel=2)"]["value"].to_numpy()
    np.testing.assert_array_equal(a, ref["value"].to_numpy())


@pytest.mark.parametrize("name,message", [
    ("Q(rel=2)", "applies to binary measures only"),
    ("MSnDCG(rel=2)@10", "MSnDCG is graded"),
    ("nERR(rel=2)@10", "binary measures only"),
    ("AP(rel=0)", "rel must be an integer relevance level >= 1, got 0"),
    ("AP(rel=1.5)", "got 1.5"),
    ("AP(rel=x)", "got x"),
    ("P(rel=2,rel=3)@5", "given twice"),
])
def test_bad_rel(name, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        M.evaluate(QRELS, RUN, [name])


def test_rel_needs_levels_not_gains():
    q = QRELS.rename(columns={"relevance": "gain"}).astype({"gain": float})
    with pytest.raises(ValueError, match="rel= thresholds relevance levels"):
        M.evaluate(q, RUN, ["AP(rel=2)"])


def test_evaluate_arrays_refuses_rel():
    with pytest.raises(ValueError, match="evaluate_arrays only sees gains"):
        M.evaluate_arrays([[1.0, 0.0]], [[1.0]], ["AP(rel=2)"])


def test_with_default_rel():
    specs = M.with_default_rel(["AP", "Q", "P@10", "RR(rel=3)", "MSnDCG@10"], 2)
    assert [str(s) for s in specs] == ["AP(rel=2)", "Q", "P(rel=2)@10", "RR(rel=3)", "MSnDCG@10"]
    assert [str(s) for s in M.with_default_rel(["AP"], None)] == ["AP"]
    with pytest.raises(ValueError, match="rel must be an integer"):
        M.with_default_rel(["AP"], 0)


def test_recall():
    res = M.evaluate(QRELS, RUN, ["R@2", "R@5"])
    t = res[res["query_id"] == "T"].set_index("measure")["value"]
    assert t["R@2"] == 0.25 and t["R@5"] == 0.75  # R = 4 (a, b, c, e), found a | a, c, b


def test_collection_thresholds():
    assert collections.relevance_threshold("dl19") == 2
    assert collections.relevance_threshold("DL19-Passage") == 2
    assert collections.relevance_threshold("dl19-nist") == 2
    assert collections.relevance_threshold("dl19-document") == 1
    assert "deep2019" in collections.THRESHOLDS["dl19-passage"].source
    with pytest.raises(ValueError, match="known: dl19"):
        collections.relevance_threshold("robust04")
    with pytest.raises(ValueError, match="collection name"):
        collections.relevance_threshold(2)
