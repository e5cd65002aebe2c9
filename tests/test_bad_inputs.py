"""Nothing silent: each bad or odd input gives a clear error naming it, or the right answer.

One test (or case) per input class of docs/bad-input.md; the messages asserted here are the ones a
user sees.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import gains, measures, paths, prm, stats
from helpers.measures import diversity
from helpers.io import trec as trec_io

QRELS = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "relevance": [2, 0, 1]})
RUN = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "rank": [1, 2, 1],
                    "score": [3.0, 2.0, 1.0]})


def _cli(*args, cwd=None, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    return subprocess.run([sys.executable, "-m", "helpers", *args], capture_output=True, text=True,
                          cwd=cwd, env=env)


# ---- class 3: identifiers --------------------------------------------------------------------

def test_float_topic_ids_are_refused_not_scored_zero():
    q = QRELS.assign(query_id=[1.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"qrels 'query_id' has dtype float64 \(e.g. 1.0\).*exact strings"):
        measures.evaluate(q, RUN, ["AP"])


def test_numbers_written_differently_are_refused():
    run = RUN.assign(query_id=["1.0", "1.0", "2.0"])
    with pytest.raises(ValueError, match=r"run topic '1.0' and qrels topic '1' differ only in how the number"):
        measures.evaluate(QRELS, run, ["AP"])


def test_run_without_a_common_topic_is_refused():
    run = RUN.assign(query_id=["7", "7", "8"])
    with pytest.raises(ValueError, match=r"the run shares no topic with the qrels: run topics \['7', '8'\]"):
        measures.evaluate(QRELS, run, ["AP"])


def test_partial_topic_overlap_warns_with_counts():
    run = RUN.assign(query_id=["1", "1", "9"])
    with pytest.warns(UserWarning, match=r"1 of 2 run topic\(s\) are not in the qrels and are ignored"):
        res = measures.evaluate(QRELS, run, ["AP"])
    assert res.set_index("query_id")["value"].to_dict() == {"1": 1.0, "2": 0.0}


def test_qrels_topics_a_run_does_not_answer_warn_and_score_zero():
    """The reverse of the case above: a qrels topic the run has no list for scores 0, and says so."""
    run = pd.DataFrame({"run_id": ["r1", "r1", "r2", "r2"], "query_id": ["1", "2", "1", "1"],
                        "doc_id": ["a", "c", "a", "b"], "rank": [1, 1, 1, 2], "score": [2.0, 1.0, 2.0, 1.0]})
    with pytest.warns(UserWarning, match=r"1 of 2 run\(s\) have no ranked list for some qrels topics, which score 0 on "
                                         r"every measure \(run 'r2': 1 of 2 topics, e.g. \['2'\]\); they are kept in "
                                         r"every mean with that 0 \(to drop them instead") as caught:
        res = measures.evaluate(QRELS, run, ["AP"])
    # one thing happens, and the warning says which: no "leaves them out" beside "score 0"
    assert "leaves them out" not in str(caught[0].message)
    assert res.set_index(["run_id", "query_id"]).loc[("r2", "2"), "value"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # skipping them is an explicit choice: nothing to say
        res = measures.evaluate(QRELS, run, ["AP"], missing="skip")
    assert ("r2", "2") not in set(zip(res.run_id, res.query_id))


def test_doc_ids_that_never_match_warn():
    run = RUN.assign(doc_id=["A", "B", "C"])
    with pytest.warns(UserWarning, match="no retrieved document is judged"):
        res = measures.evaluate(QRELS, run, ["AP"])
    assert (res["value"] == 0).all()


def test_qrels_without_any_relevant_document_is_an_error_not_an_empty_table():
    q = QRELS.assign(relevance=0)
    with pytest.raises(ValueError, match="qrels hold no relevant document"):
        measures.evaluate(q, RUN, ["AP"])
    assert measures.evaluate(q, RUN, ["AP"], no_relevant="zero")["value"].tolist() == [0.0, 0.0]


def test_missing_ids_in_diversity_inputs_are_refused():
    dq = pd.DataFrame({"query_id": ["1"], "intent_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    intents = pd.DataFrame({"query_id": ["1"], "intent_id": ["1"], "prob": [1.0]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", None], "rank": [1, 2]})
    with pytest.raises(ValueError, match="run 'doc_id' has a missing value at row 1"):
        diversity.evaluate(dq, intents, run, ["alpha-nDCG@10"])


@pytest.mark.parametrize("payload,what", [
    (b"1 0 a 1\n\xef\xbb\xbf2 0 b 1\n", "byte-order mark"),
    (b"1 0 a 1\n1 0 b\x00 1\n", "NUL byte"),
])
def test_bom_or_nul_inside_a_file_names_the_line(tmp_path, payload, what):
    path = tmp_path / "q.txt"
    path.write_bytes(payload)
    with pytest.raises(ValueError, match=rf"q.txt:2: expected .*{what}"):
        trec_io.read_qrels(path)


def test_leading_bom_is_accepted(tmp_path):
    path = tmp_path / "q.txt"
    path.write_bytes(b"\xef\xbb\xbf1 0 a 1\n")
    assert trec_io.read_qrels(path)["query_id"].tolist() == ["1"]


# ---- class 4: positional pairing ---------------------------------------------------------------

def test_kendall_tau_pairs_series_by_label():
    x = pd.Series([0.1, 0.2, 0.3, 0.4], index=["a", "b", "c", "d"])
    y = x[::-1]  # same values, labels in another order
    assert stats.kendall_tau_ci(x, y).tau == 1.0
    assert stats.kendall_tau_ci(x.to_numpy(), y.to_numpy()).tau == -1.0  # arrays: by position
    with pytest.raises(ValueError, match=r"labelled differently: only in x: \['d'\], only in y: \['e'\]"):
        stats.kendall_tau_ci(x, y.rename({"d": "e"}))


def test_paired_tests_pair_series_by_label():
    x = pd.Series([0.1, 0.5, 0.3, 0.9], index=list("abcd"))
    y = pd.Series([0.0, 0.4, 0.2, 0.8], index=list("abcd"))
    forward = stats.paired_t_test(x, y)
    shuffled = stats.paired_t_test(x, y.iloc[[3, 1, 0, 2]])
    assert forward == shuffled
    with pytest.raises(ValueError, match="has the label 'a' twice"):
        stats.bootstrap_ci(x, pd.Series([1.0, 2, 3, 4], index=list("aabc")), rng=np.random.default_rng(0))


# ---- class 5: rows folded into others --------------------------------------------------------

def test_bootstrap_topics_refuses_a_missing_topic():
    pairs = pd.DataFrame({"query_id": ["1", "2", None], "u1": [1, 0, 1], "u2": [1, 1, 0]})
    with pytest.raises(ValueError, match="pairs 'query_id' is missing at row position 2"):
        prm.bootstrap_topics(pairs, threshold=1, B=10, rng=np.random.default_rng(0))


# ---- class 6: raw tracebacks -----------------------------------------------------------------

@pytest.mark.parametrize("call,message", [
    (lambda: measures.evaluate(QRELS, RUN, None), "measures must be a measure name or a list"),
    (lambda: gains.weighted_gain([[1, 2]], "4"), r"d_max must be an integer >= 1.*'4'"),
    (lambda: gains.unanimity_aware_gain([[1, 2]], 4, "0.2"), r"p must lie in \[0, 1\].*'0.2'"),
    (lambda: gains.majority_vote([[1, 2]], None), "d_max must be an integer >= 1"),
    (lambda: gains.prob_full_spread("3", 4), "n must be a positive number"),
    (lambda: gains.ratings_matrix("ratings.tsv"), "ratings must be a DataFrame"),
])
def test_wrong_argument_types_give_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_truncated_gzip_names_the_file(tmp_path):
    data = gzip.compress(b"1 Q0 a 1 2.0 r\n" * 5000)
    path = tmp_path / "run.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"run.gz.*expected a complete gzip file, got a truncated"):
        trec_io.read_run(path)
    (tmp_path / "q").write_text("1 0 a 1\n")
    done = _cli("evaluate", "--qrels", str(tmp_path / "q"), "--run", str(path))
    assert done.returncode == 2 and "truncated or corrupt" in done.stderr and "Traceback" not in done.stderr


def test_broken_pipe_is_one_line_and_status_2(tmp_path):
    (tmp_path / "q").write_text("".join(f"{t} 0 d{t} 1\n" for t in range(3000)))
    (tmp_path / "r").write_text("".join(f"{t} Q0 d{t} 1 1.0 r\n" for t in range(3000)))
    cmd = (f"{sys.executable} -m helpers evaluate --qrels q --run r --per-topic | head -1; "
           "exit ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(paths.ROOT)})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "broken pipe" in done.stderr


def test_parameter_file_that_is_not_a_mapping(tmp_path, monkeypatch):
    from helpers.notebook import pipeline

    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "01_gain_definitions.yaml").write_text("just a string\n")
    monkeypatch.setattr(pipeline, "PARAMS", tmp_path)
    monkeypatch.setattr(pipeline, "ROOT", tmp_path)
    assert pipeline.main(["run", "--profile", "ci", "01"]) == 2


def test_fetch_into_read_only_folder_is_a_fetch_error(tmp_path, monkeypatch):
    from helpers.data import datasets
    from helpers.data import fetch as fetching

    if os.geteuid() == 0:
        # root ignores permission bits: simulate the read-only filesystem instead
        def deny(*args, **kwargs):
            raise PermissionError(13, "Read-only file system")
        monkeypatch.setattr(fetching.tempfile, "mkstemp", deny)
    ds = next(iter(datasets.REGISTRY.values()))
    rf = ds.files[0]
    src = tmp_path / "mirror"
    (src / rf.path).parent.mkdir(parents=True, exist_ok=True)
    dest = tmp_path / "ro" / "file"
    dest.parent.mkdir()
    os.chmod(dest.parent, 0o500)
    monkeypatch.setattr(fetching, "_open_source", lambda *a, **k: (open(__file__, "rb"), "test"))
    try:
        with pytest.raises(datasets.FetchError, match=r"cannot write .* into .*ro"):
            fetching._download(ds, rf, dest, "mirror", str(src), True, 1.0)
    finally:
        os.chmod(dest.parent, 0o700)
    assert list(dest.parent.iterdir()) == []


# ---- class 7: cost driven by a value ---------------------------------------------------------

def test_huge_level_and_huge_cutoff_cost_nothing():
    q = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [100_000_000, 1]})
    r = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "rank": [1, 2]})
    tracemalloc.start()
    try:
        res = measures.evaluate(q, r, ["nDCG@10", "iRBU(e=0.01)@1000000000"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50e6
    assert res["value"].iloc[0] == pytest.approx(1.0)


@pytest.mark.parametrize("p,l", [(0.99, 1), (0.99, 10), (0.5, 37), (1.0, 12), (0.0, 5), (0.999999, 1000)])
def test_geometric_sum_closed_form(p, l):
    assert measures.geometric_sum(p, l) == pytest.approx(sum(p ** r for r in range(1, l + 1)), rel=1e-12)


def test_value_driven_sizes_are_refused():
    pairs = pd.DataFrame({"u1": [1, 0], "u2": [1, 1]})
    with pytest.raises(ValueError, match="draws held in memory at once"):
        prm.annotation_rounds(pairs, [10 ** 9], rounds=50, rng=np.random.default_rng(0), threshold=1)
    with pytest.raises(ValueError, match="cutoff 1000000000 is beyond 1,000,000"):
        diversity.parse_measure("alpha-nDCG@1000000000")
    with pytest.raises(ValueError, match="beyond the largest rating scale"):
        gains.majority_vote([[1, 2]], 10 ** 9)


def test_gains_whose_sums_overflow_are_refused_not_nan():
    with pytest.raises(ValueError, match=r"qrels row 0 has gain 1e\+308: with 3 judged rows the sums of gains would pass"):
        measures.evaluate(QRELS, RUN, ["nDCG@10", "Q"], gains={1: 1e308, 2: 1e308})
    huge = measures.evaluate(QRELS, RUN, ["nDCG@10", "Q"], gains={1: 1e290, 2: 2e290})
    small = measures.evaluate(QRELS, RUN, ["nDCG@10", "Q"], gains={1: 1.0, 2: 2.0})
    assert np.allclose(huge["value"], small["value"], rtol=1e-12)       # the scale does not matter


# ---- errors of the analyses name the input that caused them ----------------------------------

def test_no_double_judgment_names_both_inputs(tmp_path):
    from helpers.io import readers

    (tmp_path / "nist.txt").write_text("t9 0 p1 2\nt9 0 p2 0\n")
    (tmp_path / "crowd.tsv").write_text("query_id\tdoc_id\tassessor\trating\nt9\tP1\tw1\t2\nt9\tP1\tw2\t0\n")
    u1 = readers.read_graded_qrels(tmp_path / "nist.txt", what="qrels_path")
    crowd = readers.read_ratings(tmp_path / "crowd.tsv", d_max=3, what="ratings_path")
    u2 = prm.one_rating_per_item(crowd, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"no item is judged by both qrels_path \(nist.txt\) and ratings_path "
                                         r"\(crowd.tsv\).*on topic 't9'.*\['p1', 'p2'\].*\['P1'\]"):
        prm.pairs_from_qrels(u1, u2)


def test_runs_of_one_team_are_named_instead_of_hsd_runs():
    from helpers import unanimity

    scores = pd.DataFrame({"uvw-a": [0.5, 0.2], "uvw_b": [0.1, 0.3]})
    teams = unanimity.team_of_run(list(scores.columns))
    with pytest.raises(ValueError, match=r"the runs \['uvw-a', 'uvw_b'\] are all of team 'uvw'.*at least 2 teams"):
        unanimity.best_run_per_team(scores, teams)


def test_runs_that_all_tie_are_named_instead_of_tau_b_undefined():
    from helpers import unanimity

    qrels = pd.DataFrame({"query_id": ["k1", "k1", "k2"], "doc_id": ["x", "y", "z"], "relevance": [1, 0, 1]})
    run = pd.concat([pd.DataFrame({"run_id": r, "query_id": ["k1", "k2"], "doc_id": ["x", "z"], "rank": [1, 1],
                                   "score": [1.0, 1.0]}) for r in ("same1", "same2", "same3")], ignore_index=True)
    ratings = np.array([[1, 2], [0, 0], [2, 1]])  # two simulated ratings of each qrels row
    with pytest.raises(ValueError, match=r"every run \(3: \['same1', 'same2', 'same3'\]\) has the same mean nG@1 "
                                         r"under RawG.*are the runs identical"):
        unanimity.compare_gains(qrels, run, ratings, 2, 0.2, ["nG@1"], ["same1", "same2", "same3"], 100, 0.05,
                                np.random.default_rng(1))
