"""Random qrels and runs (hypothesis): every measure pytrec_eval exposes agrees with this engine,
per topic, through ``helpers.measures.evaluate`` (engine names) and through the trec_eval
command's evaluation (trec_eval names).

pytrec_eval bundles trec_eval 9: scores compared as C ``float`` (so scores here are multiples of
1/4, exact in both) and ``iprec_at_recall`` / ``11pt_avg`` with trec_eval 9's recall cut
``(long)(x R + 0.9)``, which the engine offers as ``rounding=v9`` (trec_eval 10 rounds to the
nearest integer: the command's default, checked against trec_eval 10's own outputs in
``test_trec_eval_command.py``). ``runid`` and ``relstring`` are not numbers (pytrec_eval returns
0 for both) and are left out.
"""

from __future__ import annotations

import re
import warnings

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import measures as M
from helpers.measures import names
from helpers.io.trec_eval_files import QrelsFile, ResultsFile
from helpers.measures.treceval.evaluation import Settings, evaluate as trec_evaluate, marked

pytrec_eval = pytest.importorskip("pytrec_eval")

MEASURES = sorted(set(pytrec_eval.supported_measures) - {"runid", "relstring"})
DOCS = [f"d{i:02d}" for i in range(14)]


@st.composite
def collections(draw):
    n_topics = draw(st.integers(1, 3))
    qrels, run = {}, {}
    for t in range(n_topics):
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        levels = {d: draw(st.integers(-1, 3)) for d in judged}
        # trec_eval's ndcg_cut loops forever on a topic whose every judgment is negative (no level
        # >= 0: its ideal-list loop never reaches level 0), and so does pytrec_eval; avoid it
        levels[judged[0]] = max(levels[judged[0]], 0)
        qrels[f"q{t}"] = levels
        if draw(st.booleans()) or t == 0:
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=14, unique=True))
            run[f"q{t}"] = {d: draw(st.integers(0, 8)) / 4 for d in docs}
    return qrels, run, draw(st.sampled_from([1, 2]))


def engine_name(trec_name: str) -> str:
    """The engine measure of a pytrec_eval value name (pytrec_eval's trec_eval 9 recall cut)."""
    if trec_name in ("gm_map", "gm_bpref"):     # per topic: log(max(value, 0.00001))
        return {"gm_map": "logAP", "gm_bpref": "logBpref"}[trec_name]
    spec = str(names.translate(trec_name, "trec_eval"))
    if spec.startswith(("IPrec(", "IPrecAvg")):
        spec = spec.replace(")", ",rounding=v9)") if "(" in spec else spec + "(rounding=v9)"
    return spec


def frames(qrels, run):
    q = pd.DataFrame([(t, d, lv) for t, docs in qrels.items() for d, lv in docs.items()],
                     columns=["query_id", "doc_id", "relevance"])
    r = pd.DataFrame([(t, d, s) for t, docs in run.items() for d, s in docs.items()],
                     columns=["query_id", "doc_id", "score"])
    return q, r


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections())
def test_engine_and_command_agree_with_pytrec_eval(case):
    qrels, run, level = case
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=level).evaluate(run)
    value_names = sorted(next(iter(expected.values())))
    q, r = frames(qrels, run)
    specs = M.with_default_rel([engine_name(n) for n in value_names], level)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = M.evaluate(q, r, specs, order_by="score", no_relevant="zero", missing="skip")
    got = {(t, m): v for t, m, v in res[["query_id", "measure", "value"]].itertuples(index=False)}
    for topic, values in expected.items():
        for name, spec in zip(value_names, specs):
            assert got[(topic, str(spec))] == pytest.approx(values[name], abs=1e-9), (topic, name, str(spec))
    # the command's evaluation, trec_eval names (trec_eval 10 cut for iprec_at_recall / 11pt_avg: skipped)
    results = r.assign(score=r["score"].astype(float))
    results.attrs["run_id"] = "r"
    requested = sorted({re.sub(r"_[\d.]+$", "", n) for n in value_names} - {"iprec_at_recall", "11pt_avg"})
    ev = trec_evaluate(QrelsFile.from_frame(q), ResultsFile.from_frame(results), marked([(m, None) for m in requested]), Settings(rel_level=level))
    cols = ev.columns_numeric()
    for i, topic in enumerate(ev.topics):
        for j, name in enumerate(cols):
            assert ev.table[i, j] == pytest.approx(expected[topic][name], abs=1e-9), (topic, name)


def test_every_pytrec_eval_measure_is_compared():
    qrels, run = {"q": {"a": 1, "b": 0}}, {"q": {"a": 1.0, "b": 0.5}}
    value_names = next(iter(pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES)).evaluate(run).values()))
    assert {re.sub(r"_[\d.]+$", "", n) for n in value_names} == set(MEASURES)
    assert all(engine_name(n) for n in value_names)
