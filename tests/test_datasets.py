"""Tests of helpers.data.datasets: checksummed download, mirrors, atomic writes, loaders' validation.

Everything here runs against temporary mirrors built in ``tmp_path`` with temporary registry
entries; the facts about the real datasets are in ``test_datasets_real.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import http.server
import io
import json
import re
import socket
import threading
from pathlib import Path

import pytest

from helpers import paths
from helpers.data import datasets, registry
from helpers.data import fetch as fetching

OWNER, REPO, COMMIT = "someone", "tiny-data", "0123456789abcdef0123456789abcdef01234567"
FILES = {"a.txt": b"alpha\n" * 100, "sub/dir/b.txt": b"beta\n" * 1000}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build_mirror(root: Path, owner: str, repo: str, commit: str, files: dict[str, bytes]) -> Path:
    for path, data in files.items():
        target = root / owner / repo / commit / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


def make_dataset(dataset_id="tiny", files=FILES, *, owner=OWNER, repo=REPO, commit=COMMIT,
                 override=None) -> datasets.Dataset:
    override = override or {}
    return datasets.Dataset(
        dataset_id, owner, repo, commit,
        files=tuple(datasets.RemoteFile(p, override.get(p, sha(d)), len(d)) for p, d in files.items()),
        title="tiny test dataset", terms="test", citation="none")


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A registered two-file dataset, a mirror holding it, and an empty local store."""
    mirror = build_mirror(tmp_path / "mirror", OWNER, REPO, COMMIT, FILES)
    monkeypatch.setitem(datasets.REGISTRY, "tiny", make_dataset())
    monkeypatch.delenv(datasets.MIRROR_ENV, raising=False)
    return mirror, tmp_path / "store"


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def count_opens(monkeypatch) -> list[str]:
    """Record every file the fetcher opens at its source."""
    opened: list[str] = []
    real = fetching._open_source

    def spy(ds, rf, *args, **kwargs):
        opened.append(rf.path)
        return real(ds, rf, *args, **kwargs)

    monkeypatch.setattr(fetching, "_open_source", spy)
    return opened


# ----------------------------------------------------------------------------- downloading

def test_fetch_from_local_mirror_directory(tiny):
    mirror, store = tiny
    got = datasets.fetch("tiny", source=mirror, root=store)
    assert set(got) == set(FILES)
    for path, data in FILES.items():
        assert got[path] == store / OWNER / REPO / COMMIT / path
        assert got[path].read_bytes() == data
    assert sorted(leftovers(store)) == sorted(got.values())  # no temporary files left


def test_fetch_from_file_url_named_by_environment(tiny, monkeypatch):
    mirror, store = tiny
    monkeypatch.setenv(datasets.MIRROR_ENV, mirror.as_uri())
    got = datasets.fetch("tiny", paths=["a.txt"], root=store)
    assert list(got) == ["a.txt"] and got["a.txt"].read_bytes() == FILES["a.txt"]


def test_fetch_from_directory_named_by_environment(tiny, monkeypatch):
    mirror, store = tiny
    monkeypatch.setenv(datasets.MIRROR_ENV, str(mirror))
    assert datasets.fetch("tiny", root=store)["sub/dir/b.txt"].read_bytes() == FILES["sub/dir/b.txt"]


def test_checksum_mismatch_keeps_nothing_and_names_file_and_hashes(tmp_path, monkeypatch):
    mirror = build_mirror(tmp_path / "mirror", OWNER, REPO, COMMIT, FILES)
    wrong = "0" * 64
    monkeypatch.setitem(datasets.REGISTRY, "tiny", make_dataset(override={"sub/dir/b.txt": wrong}))
    store = tmp_path / "store"
    with pytest.raises(datasets.ChecksumError) as info:
        datasets.fetch("tiny", source=mirror, root=store)
    message = str(info.value)
    assert "sub/dir/b.txt" in message
    assert f"expected sha256 {wrong}" in message
    assert f"got {sha(FILES['sub/dir/b.txt'])}" in message
    assert not (store / OWNER / REPO / COMMIT / "sub/dir/b.txt").exists()
    # the good file fetched before it is kept; nothing else (no temporary file) is
    assert leftovers(store) == [store / OWNER / REPO / COMMIT / "a.txt"]


def test_missing_file_in_mirror(tiny):
    mirror, store = tiny
    (mirror / OWNER / REPO / COMMIT / "a.txt").unlink()
    with pytest.raises(datasets.FetchError, match=r"a\.txt is missing from the mirror"):
        datasets.fetch("tiny", source=mirror, root=store)
    assert leftovers(store) == []


def test_missing_file_behind_file_url(tiny):
    mirror, store = tiny
    (mirror / OWNER / REPO / COMMIT / "a.txt").unlink()
    with pytest.raises(datasets.FetchError, match=r"a\.txt is missing from the mirror"):
        datasets.fetch("tiny", source=mirror.as_uri(), root=store)


class Exploding(io.BytesIO):
    """A source that delivers one chunk and then fails, like a dropped connection."""

    def __init__(self, data, exc):
        super().__init__(data)
        self.calls, self.exc = 0, exc

    def read(self, size=-1):
        self.calls += 1
        if self.calls > 1:
            raise self.exc
        return super().read(size)


@pytest.mark.parametrize("exc", [ConnectionResetError("peer went away"), KeyboardInterrupt()])
def test_interrupted_download_leaves_nothing_under_final_name(tiny, monkeypatch, exc):
    mirror, store = tiny
    monkeypatch.setattr(fetching, "_CHUNK", 64)
    monkeypatch.setattr(fetching, "_open_source",
                        lambda ds, rf, *a, **k: (Exploding(FILES[rf.path], exc), "fake://source"))
    expected = datasets.FetchError if isinstance(exc, Exception) else KeyboardInterrupt
    with pytest.raises(expected) as info:
        datasets.fetch("tiny", paths=["sub/dir/b.txt"], source=mirror, root=store)
    if expected is datasets.FetchError:
        assert "sub/dir/b.txt" in str(info.value) and "interrupted" in str(info.value)
    assert leftovers(store) == []  # neither the final file nor the temporary one


def test_verified_file_is_not_downloaded_again(tiny, monkeypatch):
    mirror, store = tiny
    opened = count_opens(monkeypatch)
    datasets.fetch("tiny", source=mirror, root=store)
    assert sorted(opened) == sorted(FILES)
    datasets.fetch("tiny", source=mirror, root=store)
    assert len(opened) == 2  # same process: size/mtime stamp
    fetching._VERIFIED.clear()  # a new process re-hashes the local copy, still no download
    datasets.fetch("tiny", source=mirror, root=store)
    assert len(opened) == 2


def test_corrupted_local_copy_is_replaced(tiny, monkeypatch):
    mirror, store = tiny
    local = datasets.fetch("tiny", source=mirror, root=store)["a.txt"]
    local.write_bytes(b"tampered")
    opened = count_opens(monkeypatch)
    datasets.fetch("tiny", source=mirror, root=store)
    assert opened == ["a.txt"]
    assert local.read_bytes() == FILES["a.txt"]


def test_no_mirror_and_no_network_explains_how_to_configure_a_mirror(tiny, monkeypatch):
    _, store = tiny
    with socket.socket() as s:  # a loopback port nobody listens on: connection refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(fetching, "UPSTREAM", f"http://127.0.0.1:{port}")
    with pytest.raises(datasets.FetchError) as info:
        datasets.fetch("tiny", root=store, timeout=5)
    message = str(info.value)
    assert datasets.MIRROR_ENV in message and "a.txt" in message
    assert "<owner>/<repo>/<commit>/<path>" in message
    assert leftovers(store) == []


@pytest.mark.parametrize("value", ["ftp://example.org/mirror", "/no/such/directory/anywhere"])
def test_bad_mirror_setting_is_rejected(tiny, monkeypatch, value):
    _, store = tiny
    monkeypatch.setenv(datasets.MIRROR_ENV, value)
    with pytest.raises(ValueError, match=datasets.MIRROR_ENV):
        datasets.fetch("tiny", root=store)


def test_unknown_dataset_or_file(tiny):
    mirror, store = tiny
    with pytest.raises(ValueError, match="unknown dataset 'nope'"):
        datasets.fetch("nope", source=mirror, root=store)
    with pytest.raises(ValueError, match="has no file 'c.txt'"):
        datasets.fetch("tiny", paths=["c.txt"], source=mirror, root=store)


# ------------------------------------------------------------------------ loopback HTTP server

class Handler(http.server.SimpleHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, *args):  # keep pytest output clean
        pass

    def do_GET(self):
        type(self).requests.append(self.path)
        if self.path.endswith("/truncated.txt"):
            self.send_response(200)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"x" * 1000)
            self.wfile.flush()
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture
def http_mirror(tiny):
    mirror, store = tiny
    Handler.requests = []
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a, **k: Handler(*a, directory=str(mirror), **k))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", mirror, store
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_fetch_over_loopback_http(http_mirror):
    base, _, store = http_mirror
    got = datasets.fetch("tiny", source=base, root=store, timeout=10)
    assert got["sub/dir/b.txt"].read_bytes() == FILES["sub/dir/b.txt"]
    assert sorted(Handler.requests) == sorted(f"/{OWNER}/{REPO}/{COMMIT}/{p}" for p in FILES)
    datasets.fetch("tiny", source=base, root=store, timeout=10)
    assert len(Handler.requests) == 2  # verified files are not requested again


def test_http_404_is_a_missing_file(http_mirror):
    base, mirror, store = http_mirror
    (mirror / OWNER / REPO / COMMIT / "a.txt").unlink()
    with pytest.raises(datasets.FetchError, match=r"a\.txt could not be downloaded .*HTTP 404"):
        datasets.fetch("tiny", source=base, root=store, timeout=10)
    assert leftovers(store) == []


def test_http_connection_dropped_mid_file(http_mirror, monkeypatch):
    base, _, store = http_mirror
    monkeypatch.setitem(datasets.REGISTRY, "cut", make_dataset("cut", {"truncated.txt": b"x" * 100000}))
    with pytest.raises(datasets.FetchError, match=r"truncated\.txt .*interrupted"):
        datasets.fetch("cut", source=base, root=store, timeout=10)
    assert leftovers(store) == []


# ------------------------------------------------------------------------------------- CLI

def test_cli_fetch_and_describe_registry(tiny, monkeypatch, capsys):
    mirror, store = tiny
    monkeypatch.setattr(paths, "DATA_EXTERNAL", store)
    monkeypatch.setenv(datasets.MIRROR_ENV, str(mirror))
    assert datasets.main(["fetch", "tiny"]) == 0
    assert "tiny: 2 files verified" in capsys.readouterr().out
    assert (store / OWNER / REPO / COMMIT / "a.txt").exists()
    assert datasets.main(["data", "describe", "--registry"]) == 0
    out = capsys.readouterr().out
    assert "dl19-reannotation" in out and "thuir-image-preference" in out


def test_cli_errors(tiny, monkeypatch, capsys):
    mirror, store = tiny
    monkeypatch.setattr(paths, "DATA_EXTERNAL", store)
    monkeypatch.setenv(datasets.MIRROR_ENV, str(mirror))
    assert datasets.main(["fetch"]) == 2
    assert datasets.main(["fetch", "--all", "tiny"]) == 2
    assert datasets.main(["fetch", "nope"]) == 1
    assert "unknown dataset 'nope'" in capsys.readouterr().err
    assert datasets.main(["frobnicate"]) == 2


def test_cli_fetch_all_iterates_the_registry(tiny, monkeypatch, capsys):
    mirror, store = tiny
    monkeypatch.setattr(registry, "REGISTRY", {"tiny": make_dataset()})
    monkeypatch.setattr(paths, "DATA_EXTERNAL", store)
    monkeypatch.setenv(datasets.MIRROR_ENV, str(mirror))
    assert datasets.main(["fetch", "--all"]) == 0
    assert capsys.readouterr().out.strip() == "tiny: 2 files verified"


# ------------------------------------------------------------------------------- registry

def test_registry_is_complete_and_well_formed():
    assert set(datasets.REGISTRY) == {
        "dl19-reannotation", "dl19-runs", "dl19-nist-qrels", "stc-ja", "trec-rf10-crowd",
        "trec-web-diversity", "trec-web-2012-baselines", "thuir-image-preference"}
    for key, ds in datasets.REGISTRY.items():
        assert ds.id == key
        assert re.fullmatch(r"[0-9a-f]{40}", ds.commit)
        assert ds.terms and ds.citation and ds.files
        assert len({f.path for f in ds.files}) == len(ds.files)
        for f in ds.files:
            assert re.fullmatch(r"[0-9a-f]{64}", f.sha256) and f.size > 0
    assert len(datasets.REGISTRY["dl19-runs"].files) == 37


def test_annotator_ids_are_anonymous_and_stable():
    ids = datasets._dl19_annotator_ids()
    assert sorted(v for k, v in ids.items() if v != "GT") == [f"A{i}" for i in range(1, 9)]
    # sorted order of the upstream names: deterministic, independent of registry order
    names = sorted(k for k in ids if ids[k] != "GT")
    assert [ids[n] for n in names] == [f"A{i}" for i in range(1, 9)]


# --------------------------------------------------------------- loaders on fake source files

@pytest.fixture
def install(tmp_path, monkeypatch):
    """Replace a registry entry by fake files served from a temporary mirror."""
    store = tmp_path / "store"
    monkeypatch.setattr(paths, "DATA_EXTERNAL", store)
    mirror = tmp_path / "fake-mirror"
    monkeypatch.setenv(datasets.MIRROR_ENV, str(mirror))

    def _install(dataset_id: str, files: dict[str, bytes | str]) -> dict[str, Path]:
        real = datasets.REGISTRY[dataset_id]
        data = {p: (d.encode("utf-8") if isinstance(d, str) else d) for p, d in files.items()}
        build_mirror(mirror, real.owner, real.repo, real.commit, data)
        monkeypatch.setitem(datasets.REGISTRY, dataset_id, make_dataset(
            dataset_id, data, owner=real.owner, repo=real.repo, commit=real.commit))
        return {p: store / real.owner / real.repo / real.commit / p for p in data}

    return _install


def dl19_round(files_by_name: dict[str, str], rnd="agreement-round"):
    return {f"judgments/{rnd}/qrels/{name}-qrels.txt": text for name, text in files_by_name.items()}


def test_dl19_ratings_anonymised_and_validated(install):
    install("dl19-reannotation", dl19_round({"zed": "1 0 d1 3\n1 0 d2 0\n", "amy": "1 0 d1 2\n1 0 d2 1\n"}))
    df = datasets.load_ratings("dl19-agreement")
    assert list(df.columns) == ["query_id", "doc_id", "assessor", "rating"]
    assert df["assessor"].tolist() == ["A1", "A2", "A1", "A2"]  # amy -> A1, zed -> A2 (sorted)
    assert df["rating"].tolist() == [2, 3, 1, 0]
    assert "amy" not in df.to_csv() and "zed" not in df.to_csv()


def test_dl19_rating_out_of_range(install):
    local = install("dl19-reannotation", dl19_round({"amy": "1 0 d1 2\n1 0 d2 4\n"}))
    path = next(iter(local.values()))
    with pytest.raises(ValueError, match=re.escape(f"{path}:2: expected rating 0..3, got '1 0 d2 4'")):
        datasets.load_ratings("dl19-agreement")


def test_dl19_main_round_file_not_in_agreement_round(install):
    files = dl19_round({"amy": "1 0 d1 2\n"})
    files.update(dl19_round({"bob": "1 0 d1 2\n"}, rnd="main"))
    install("dl19-reannotation", files)
    with pytest.raises(ValueError, match="unknown file name"):
        datasets.load_ratings("dl19-main")


def test_dl19_with_nist_labels(install):
    install("dl19-reannotation", dl19_round({"amy": "1 0 d1 2\n1 0 d2 1\n"}))
    install("dl19-nist-qrels", {"qrels/qrels.dl19-passage.txt": "1 0 d1 3\n1 0 d9 0\n"})
    df = datasets.load_ratings("dl19-agreement", include_nist=True)
    nist = df[df["assessor"] == "NIST"]
    assert nist[["doc_id", "rating"]].values.tolist() == [["d1", 3]]
    assert df.attrs["excluded"]["items_without_nist_label"] == 1


def test_unknown_loader_names():
    with pytest.raises(ValueError, match="unknown ratings set"):
        datasets.load_ratings("nope")
    with pytest.raises(ValueError, match="unknown qrels"):
        datasets.load_qrels("nope")
    with pytest.raises(ValueError, match="unknown runs"):
        datasets.load_runs("nope")
    with pytest.raises(ValueError, match="unknown diversity collection"):
        datasets.load_diversity_qrels("trec-web-2008")
    with pytest.raises(ValueError, match="unknown diversity collection"):
        datasets.load_intents("nope")


def test_nist_qrels_level_out_of_range(install):
    local = install("dl19-nist-qrels", {"qrels/qrels.dl19-passage.txt": "1 0 d1 3\n1 0 d2 7\n"})
    with pytest.raises(ValueError, match=re.escape(f"{next(iter(local.values()))}:2: expected relevance")):
        datasets.load_qrels("dl19-nist")


STC = "stc1/testset/test-final-labeled.txt.gz"


def stc_line(post, reply, labels):
    return "\t".join([post, reply, *labels]) + "\n"


def test_stc_ratings_long_form(install):
    text = stc_line("p1", "r1", list("0000011122")) + stc_line("p1", "r2", list("2222222222"))
    install("stc-ja", {STC: gzip.compress(text.encode())})
    df = datasets.load_ratings("stc-ja")
    assert len(df) == 20
    assert df["assessor"].unique().tolist() == [f"C{i}" for i in range(1, 11)]
    assert df.groupby("doc_id")["rating"].sum().to_dict() == {"r1": 7, "r2": 20}


def test_stc_dev_drops_na_and_counts_them(install):
    text = stc_line("p1", "r1", ["0", "NA", *"111111", "2", "2"]) + stc_line("p1", "r2", list("0000000000"))
    install("stc-ja", {"stc1/devset/dev.txt": text})
    df = datasets.load_ratings("stc-ja-dev")
    assert len(df) == 19 and df.attrs["excluded"]["NA_labels"] == 1


@pytest.mark.parametrize("bad, expected", [
    (stc_line("p1", "r2", list("000003")), "found 8 fields"),
    (stc_line("p1", "r2", list("000003000")+["1"]), "rating 0..2, got 'p1"),
    (stc_line("p1", "r1", list("0000000000")), "each (query_id, doc_id, assessor) rated once"),
])
def test_stc_malformed(install, bad, expected):
    text = stc_line("p1", "r1", list("0000011122")) + bad
    local = install("stc-ja", {STC: gzip.compress(text.encode())})
    with pytest.raises(ValueError, match=re.escape(f"{local[STC]}:2: expected") + ".*" + re.escape(expected)):
        datasets.load_ratings("stc-ja")


def test_stc_has_no_nist_label(install):
    with pytest.raises(ValueError, match="no NIST"):
        datasets.load_ratings("stc-ja", include_nist=True)


RF10 = "trec-rf10-crowd/trec-rf10-data.txt"
RF10_HEADER = "topicID\tworkerID\tdocID\tgold\tlabel\n"


def rf10(*rows):
    return RF10_HEADER + "".join("\t".join(map(str, r)) + "\n" for r in rows)


def test_rf10_exclusions_and_nist(install):
    install("trec-rf10-crowd", {RF10: rf10(
        (1, "w1", "d1", 2, 1), (1, "w2", "d1", 2, -2), (1, "w1", "d1", 2, 0),  # broken, repeat
        (1, "w2", "d1", 2, 0),                            # w2's first valid label: not a repeat
        (1, "w1", "d2", -1, 2),                                                   # no gold
        (1, "w3", "trap", -2, 0), (1, "w4", "trap", -2, -2))})                    # planted trap
    df = datasets.load_ratings("trec-rf10")
    assert sorted(map(tuple, df.values.tolist())) == [
        ("1", "d1", "NIST", 2), ("1", "d1", "w1", 1), ("1", "d1", "w2", 0), ("1", "d2", "w1", 2)]
    assert df.attrs["excluded"] == {"broken_link_labels": 1, "planted_broken_link_items": 1,
                                    "planted_broken_link_labels": 2, "repeated_labels": 1}
    assert "NIST" not in set(datasets.load_ratings("trec-rf10", include_nist=False)["assessor"])


@pytest.mark.parametrize("text, line, expected", [
    ("topic\tworker\tdoc\tgold\tlabel\n" + "1\tw1\td1\t1\t1\n", 1, "the header"),
    (rf10((1, "w1", "d1", 1, 1), (1, "w2", "d1", 1, 3)), 3, "crowd label -2, 0, 1 or 2, got 3"),
    (rf10((1, "w1", "d1", 1, 1), (1, "w2", "d1", 5, 1)), 3, "gold label"),
    (rf10((1, "w1", "d1", 1, 1), (1, "w2", "d1", 2, 1)), 2, "one gold label per (topic, document)"),
    (rf10((1, "w1", "d1", 1, 1)) + "1\tw2\td1\t1\n", 3, "found 4 fields"),
])
def test_rf10_malformed(install, text, line, expected):
    local = install("trec-rf10-crowd", {RF10: text})
    with pytest.raises(ValueError, match=re.escape(f"{local[RF10]}:{line}: expected") + ".*" + re.escape(expected)):
        datasets.load_ratings("trec-rf10")


WEB_2009 = ("2009/qrels.diversity", "2009/wt09.topics.full.xml")
TOPICS = """<?xml version="1.0"?>
<!DOCTYPE webtrack2009 [
  <!ELEMENT webtrack2009 (topic)*>
  <!ELEMENT topic (query, description, subtopic*)>
  <!ATTLIST topic number CDATA #REQUIRED type CDATA "ambiguous">
  <!ELEMENT query (#PCDATA)>
  <!ELEMENT description (#PCDATA)>
  <!ELEMENT subtopic (#PCDATA)>
  <!ATTLIST subtopic number CDATA #REQUIRED type (nav|inf) "inf">
]>
<webtrack2009>
<topic number="1" type="faceted"><query>q</query><description>d</description>
  <subtopic number="1" type="nav">s1</subtopic>
  <subtopic number="2">s2 (type from the DTD default)</subtopic>
  <subtopic number="3" type="inav">s3 (typo upstream)</subtopic>
</topic>
<topic number="2" type="single"><query>q</query><description>d</description></topic>
</webtrack2009>
"""


def test_diversity_qrels_and_intents(install):
    install("trec-web-diversity", {
        WEB_2009[0]: "1 0 dA 0\n1 1 dA 1\n1 2 dB -2\n2 0 dC 2\n",
        WEB_2009[1]: TOPICS})
    qrels = datasets.load_diversity_qrels("trec-web-2009")
    assert qrels.values.tolist() == [["1", "1", "dA", 1], ["1", "2", "dB", 0], ["2", "0", "dC", 2]]
    assert qrels.attrs["excluded"] == {"negative_set_to_zero": 1, "subtopic0_rows_dropped": 1}
    intents = datasets.load_intents("trec-web-2009")
    assert intents.values.tolist() == [["1", "1", pytest.approx(1 / 3), "nav"],
                                       ["1", "2", pytest.approx(1 / 3), "inf"],
                                       ["1", "3", pytest.approx(1 / 3), "inf"],
                                       ["2", "0", 1.0, "inf"]]
    assert intents.attrs["kind_corrections"] == [("1", "3", "inav")]


def test_diversity_subtopic0_relevant_for_faceted_topic_is_an_error(install):
    local = install("trec-web-diversity", {WEB_2009[0]: "1 1 dA 1\n1 0 dB 1\n", WEB_2009[1]: TOPICS})
    with pytest.raises(ValueError, match=re.escape(f"{local[WEB_2009[0]]}:2: expected subtopic 0 only")):
        datasets.load_diversity_qrels("trec-web-2009")


@pytest.mark.parametrize("xml, line, expected", [
    (TOPICS.replace("</webtrack2009>", ""), 19, "well-formed topic XML"),
    (TOPICS.replace('<subtopic number="2">', "<subtopic>"), 14, "a <subtopic number=...>"),
    (TOPICS.replace('<subtopic number="2">', '<subtopic number="1">'), 14, "distinct subtopic numbers"),
    (TOPICS.replace('<topic number="2" type="single">', '<topic type="single">'), 17,
     "a <topic> with a number attribute"),
])
def test_topic_xml_malformed(install, xml, line, expected):
    local = install("trec-web-diversity", {WEB_2009[0]: "1 1 dA 1\n", WEB_2009[1]: xml})
    with pytest.raises(ValueError, match=re.escape(f"{local[WEB_2009[1]]}:{line}: expected {expected}")):
        datasets.load_intents("trec-web-2009")


def test_topic_xml_without_topics(install):
    local = install("trec-web-diversity", {WEB_2009[0]: "1 1 dA 1\n", WEB_2009[1]: "<webtrack2009/>\n"})
    with pytest.raises(ValueError, match=re.escape(f"{local[WEB_2009[1]]}: expected at least one <topic>")):
        datasets.load_intents("trec-web-2009")


def test_runs_depth_and_names(install):
    base = "data/runs/baselines/2012"
    files = {f"{base}/ql/results-cata.txt": "151 Q0 a 0 -1.0 indri\n151 Q0 b 1 -2.0 indri\n",
             f"{base}/rm/results-catb-filtered.txt": "151 Q0 c 1 -1.5 indri\n"}
    install("trec-web-2012-baselines", files)
    runs = datasets.load_runs("trec-web-2012")
    assert runs.values.tolist() == [["ql-cata", "151", "a", 1, -1.0], ["ql-cata", "151", "b", 2, -2.0],
                                    ["rm-catb-filtered", "151", "c", 1, -1.5]]
    assert datasets.load_runs("trec-web-2012", depth=1)["doc_id"].tolist() == ["a", "c"]
    with pytest.raises(ValueError, match="depth must be a positive integer"):
        datasets.load_runs("trec-web-2012", depth=0)


def thuir_files(**over):
    files = {
        "SERP_level_preference": "Query\tWinner(0: Sogou, 1: Tie, 2: Baidu)\nq1\t2\nq2\t1\n",
        "relevance_data": ("Query\tImage(Search engine/query_imageID.jpg)\tAverage_Relevance_Score\n"
                           "q1\tbaidu/q1_0.jpg\t59.5\nq1\tsogou/q1_0.jpg\t10\nq1\tsogou/q1_1.jpg\t100\n"),
        "Image_position.json": json.dumps({"q1": {"0": {"0": [0, 0, 2], "1": [0, 1, 2]},
                                                  "1": {"0": [0, 0, 1]}}}),
        "image_pairs_annotation": ("Query\tImage_pair(Search engine/query_imageID.jpg)\tthree tags\n"
                                   "q1\tsogou/q1_0.jpg,baidu/q1_0.jpg\t-2\t0\t1\n"),
    }
    files.update(over)
    return files


def test_image_preferences_tidy(install):
    install("thuir-image-preference", thuir_files())
    prefs = datasets.load_image_preferences()
    assert prefs.serp.values.tolist() == [["q1", 2, "baidu"], ["q2", 1, "tie"]]
    assert prefs.relevance[["engine", "image", "relevance"]].values.tolist() == [
        ["baidu", 0, 59.5], ["sogou", 0, 10.0], ["sogou", 1, 100.0]]
    assert prefs.positions.values.tolist() == [["q1", "sogou", 0, 0, 0, 2], ["q1", "sogou", 1, 0, 1, 2],
                                               ["q1", "baidu", 0, 0, 0, 1]]
    assert prefs.pairs[["assessor", "preference"]].values.tolist() == [["P1", -2], ["P2", 0], ["P3", 1]]
    assert set(prefs.pairs["left"]) == {"sogou/q1_0.jpg"} and set(prefs.pairs["right"]) == {"baidu/q1_0.jpg"}


@pytest.mark.parametrize("name, text, line, expected", [
    ("SERP_level_preference", "Query\tWinner\nq1\t3\n", 2, "winner 0 (Sogou), 1 (tie) or 2 (Baidu)"),
    ("SERP_level_preference", "q1\t2\n", 1, "a header line starting 'Query'"),
    ("relevance_data", "Query\tImage\tScore\nq1\tgoogle/q1_0.jpg\t5\n", 2, "image 'sogou|baidu"),
    ("relevance_data", "Query\tImage\tScore\nq1\tsogou/q1_0.jpg\t101\n", 2, "relevance in [0, 100]"),
    ("relevance_data", "Query\tImage\tScore\nq1\tsogou/q1_7.jpg\t5\n", 2, "an image with a position"),
    ("image_pairs_annotation", "Query\tPair\tTags\nq1\tsogou/q1_0.jpg\t0\t0\t0\n", 2, "an image pair"),
    ("image_pairs_annotation", "Query\tPair\tTags\nq1\tsogou/q1_0.jpg,sogou/q1_1.jpg\t0\t0\t0\n"
     "q1\tsogou/q1_0.jpg,sogou/q1_1.jpg,baidu/q1_0.jpg\t0\t0\t0\n", 3, "an image pair"),
    ("image_pairs_annotation", "Query\tPair\tTags\nq1\tsogou/q1_0.jpg,bing/q1_1.jpg\t0\t0\t0\n", 2,
     "right image"),
    ("image_pairs_annotation", "Query\tPair\tTags\nq1\tsogou/q1_0.jpg,sogou/q1_1.jpg\t0\t3\t0\n", 2,
     "preference tag -2..2 in column P2"),
])
def test_image_preferences_malformed(install, name, text, line, expected):
    local = install("thuir-image-preference", thuir_files(**{name: text}))
    with pytest.raises(ValueError, match=re.escape(f"{local[name]}:{line}: expected {expected}")):
        datasets.load_image_preferences()


def test_image_positions_bad_json(install):
    local = install("thuir-image-preference", thuir_files(**{"Image_position.json": '{"q1": [1, 2'}))
    with pytest.raises(ValueError, match=re.escape(f"{local['Image_position.json']}:1: expected valid JSON")):
        datasets.load_image_preferences()
    local = install("thuir-image-preference", thuir_files(**{"Image_position.json": '{"q1": {"7": {}}}'}))
    with pytest.raises(ValueError, match=re.escape(f"{local['Image_position.json']}: expected {{query")):
        datasets.load_image_preferences()


def test_data_readme_lists_every_pinned_file_and_hash():
    readme = (paths.ROOT / "data" / "README.md").read_text(encoding="utf-8")
    for ds in datasets.REGISTRY.values():
        assert ds.commit in readme, ds.id
        for f in ds.files:
            assert f"| `{f.path}` | `{f.sha256}` |" in readme, f.path
    assert datasets.MIRROR_ENV in readme and "make data" in readme


def test_dl19_relevance_threshold_is_trecs_definition():
    assert datasets.DL19_RELEVANCE_THRESHOLD == 2
    assert datasets.relevance_threshold("dl19") == 2 and datasets.relevance_threshold("dl19-nist") == 2
    assert datasets.relevance_threshold("trec-rf10") == 1
    assert "related" in datasets.DL19_LEVEL_NAMES[1] and "trec_eval -l 2" in datasets.DL19_THRESHOLD_SOURCE
    with pytest.raises(ValueError, match="no documented relevance threshold"):
        datasets.relevance_threshold("stc-ja")


def test_dl19_team_table_covers_the_official_runs_with_evidence():
    teams = datasets.load_teams("dl19")
    assert len(teams) == 37 and teams["run_id"].is_unique
    assert (teams["evidence"].str.len() > 10).all()
    m = dict(zip(teams["run_id"], teams["team"]))
    assert m["test1"] == m["TUA1-1"] == "TUA1"  # measured near-duplicates: one team
    assert m["bm25base_p"] == m["bm25tuned_rm3_p"] == "anserini"
    assert teams["team"].nunique() == 10


@pytest.mark.parametrize("text, message", [
    ("run,team,evidence\na,A,x\n", r"t\.csv:1: expected header run_id,team,evidence"),
    ("run_id,team,evidence\na,A,x\nb,,y\n", r"t\.csv:3: expected a non-empty team"),
    ("# note\nrun_id,team,evidence\na,A,x\na,B,y\n", r"t\.csv:4: expected each run once, got 'a' again"),
])
def test_load_teams_bad_files(tmp_path, text, message):
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        datasets.load_teams(path=path)
    with pytest.raises(ValueError, match="no team table"):
        datasets.load_teams("trec-web-2012")
