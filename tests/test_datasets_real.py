"""Facts about the real public datasets, checked on the offline mirror when it is available.

The mirror is taken from ``SUBJEVAL_DATA_MIRROR`` (a directory) or from ``../shared/data/mirror``
next to the repository; without it every test here is skipped with the reason. Files are fetched
through the normal checksummed path into a temporary store, so the pinned sha256 literals of the
registry are exercised too.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from helpers import paths
from helpers.data import datasets

from _mirror import find_mirror  # noqa: E402  (tests/ is on sys.path)


MIRROR = find_mirror()
pytestmark = pytest.mark.skipif(
    MIRROR is None, reason=f"no offline data mirror ({datasets.MIRROR_ENV} unset and "
                           "../shared/data/mirror absent)")


@pytest.fixture(scope="module", autouse=True)
def real_store(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(datasets.MIRROR_ENV, str(MIRROR))
        mp.setattr(paths, "DATA_EXTERNAL", tmp_path_factory.mktemp("external"))
        yield


def test_pinned_hashes_match_the_mirror():
    for ds in datasets.REGISTRY.values():
        for rf in ds.files:
            data = (MIRROR / ds.owner / ds.repo / ds.commit / rf.path).read_bytes()
            assert (hashlib.sha256(data).hexdigest(), len(data)) == (rf.sha256, rf.size), rf.path


def test_every_mirrored_file_is_registered():
    registered = {f"{d.owner}/{d.repo}/{d.commit}/{f.path}" for d in datasets.REGISTRY.values()
                  for f in d.files}
    mirrored = {p.relative_to(MIRROR).as_posix() for p in MIRROR.rglob("*") if p.is_file()}
    assert mirrored <= registered


def _annotator_names() -> set[str]:
    ds = datasets.REGISTRY["dl19-reannotation"]
    stems = {Path(f.path).name.removesuffix("-qrels.txt") for f in ds.files if "/qrels/" in f.path}
    return {part for stem in stems for part in stem.split("-") if len(part) > 3} - {"ground", "truth"}


def test_dl19_agreement_round_is_188_items_by_8_annotators():
    df = datasets.load_ratings("dl19-agreement")
    per_item = df.groupby(["query_id", "doc_id"])["assessor"].nunique()
    assert len(df) == 188 * 8 and len(per_item) == 188 and (per_item == 8).all()
    assert sorted(df["assessor"].unique()) == [f"A{i}" for i in range(1, 9)]
    assert set(df["rating"]) <= {0, 1, 2, 3}


def test_dl19_rounds_never_show_annotator_names():
    names = _annotator_names()
    assert names  # the test must be able to fail
    for name in ("dl19-agreement", "dl19-main", "dl19-pilot"):
        dump = datasets.load_ratings(name).to_csv().lower()
        assert not [n for n in names if n in dump], name
        assert set(datasets.load_ratings(name)["assessor"]) <= {f"A{i}" for i in range(1, 9)} | {"GT"}


def test_dl19_main_round_pairs_over_43_topics():
    df = datasets.load_ratings("dl19-main")
    per_item = df.groupby(["query_id", "doc_id"])["assessor"].nunique()
    assert df["query_id"].nunique() == 43
    assert (per_item <= 2).all() and (per_item == 2).sum() == 4493
    with_nist = datasets.load_ratings("dl19-main", include_nist=True)
    assert (with_nist["assessor"] == "NIST").sum() > 4000


def test_dl19_pilot_has_reference_labels():
    df = datasets.load_ratings("dl19-pilot")
    assert df.groupby(["query_id", "doc_id"]).ngroups == 100
    assert (df["assessor"] == "GT").sum() == 100


def test_stc_ja_test_set_has_18543_pairs_with_10_ratings():
    df = datasets.load_ratings("stc-ja")
    per_item = df.groupby(["query_id", "doc_id"]).size()
    assert len(per_item) == 18_543 and (per_item == 10).all()
    assert set(df["rating"]) == {0, 1, 2}
    assert df.attrs["excluded"]["NA_labels"] == 0


def test_stc_ja_dev_set():
    df = datasets.load_ratings("stc-ja-dev")
    assert df.groupby(["query_id", "doc_id"]).ngroups == 1_959
    assert df.attrs["excluded"]["NA_labels"] == 1_234


def test_trec_rf10_counts_add_up():
    df = datasets.load_ratings("trec-rf10")
    crowd = df[df["assessor"] != "NIST"]
    excluded = df.attrs["excluded"]
    assert len(crowd) + excluded["broken_link_labels"] + excluded["planted_broken_link_labels"] \
        + excluded["repeated_labels"] == 98_453
    assert (df["assessor"] == "NIST").sum() == 3_277  # README: 3277 examples with a NIST label
    assert excluded["planted_broken_link_items"] == 1_183
    assert set(df["rating"]) == {0, 1, 2}
    assert not crowd.duplicated(["query_id", "doc_id", "assessor"]).any()


def test_dl19_nist_qrels():
    q = datasets.load_qrels("dl19-nist")
    assert q["query_id"].nunique() == 43 and len(q) == 9_260
    assert set(q["relevance"]) == {0, 1, 2, 3}


@pytest.mark.slow   # reads the 37 runs (~15 CPU s): make test-slow
def test_dl19_official_runs():
    runs = datasets.load_runs("dl19", depth=100)
    assert runs["run_id"].nunique() == 37
    assert (runs.groupby("run_id")["query_id"].nunique() == 200).all()
    assert runs["rank"].min() == 1 and runs["rank"].max() == 100
    judged = set(datasets.load_qrels("dl19-nist")["query_id"])
    assert judged <= set(runs["query_id"])


def test_trec_web_2012_baselines():
    runs = datasets.load_runs("trec-web-2012")
    assert sorted(runs["run_id"].unique()) == sorted(
        f"{m}-{c}{f}" for m in ("ql", "rm") for c in ("cata", "catb") for f in ("", "-filtered"))
    assert set(runs["query_id"].astype(int)) <= set(range(151, 201))


@pytest.mark.parametrize("name, topics", [
    ("trec-web-2009", 50), ("trec-web-2010", 48), ("trec-web-2011", 50),
    ("trec-web-2012", 50), ("trec-web-2013", 50), ("trec-web-2014", 50)])
def test_diversity_qrels_match_intents(name, topics):
    qrels = datasets.load_diversity_qrels(name)
    intents = datasets.load_intents(name)
    assert qrels["query_id"].nunique() == topics
    assert qrels["relevance"].min() >= 0
    judged = set(map(tuple, qrels[["query_id", "intent_id"]].drop_duplicates().values.tolist()))
    assert judged <= set(map(tuple, intents[["query_id", "intent_id"]].values.tolist()))
    assert intents.groupby("query_id")["prob"].sum().round(12).eq(1.0).all()
    assert set(intents["kind"]) == {"nav", "inf"}


def test_thuir_image_preferences():
    prefs = datasets.load_image_preferences()
    assert len(prefs.serp) == 102
    assert prefs.serp["preferred"].value_counts().to_dict() == {"tie": 46, "sogou": 28, "baidu": 28}
    assert len(prefs.relevance) == 2_919 and len(prefs.positions) == 2_919
    assert len(prefs.pairs) == 41_538 * 3
    assert prefs.relevance["relevance"].between(0, 100).all()


def test_describe_summarises_every_judgment_set():
    table = datasets.describe()
    assert list(table.columns) == ["dataset", "source", "items", "topics", "assessors_per_item",
                                   "levels", "terms"]
    row = table.set_index("dataset").loc["dl19-agreement"]
    assert (row["items"], row["topics"], row["assessors_per_item"], row["levels"]) == (188, 3, 8.0, "0,1,2,3")
    assert table.set_index("dataset").loc["stc-ja", "items"] == 18_543
    assert re.search("Apache", table.set_index("dataset").loc["stc-ja", "terms"])
