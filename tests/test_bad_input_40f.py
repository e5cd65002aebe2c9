"""Round 40f of the adversarial probes: each class with an example of its own (none executes a
notebook; each test runs in well under a second)."""

from __future__ import annotations

import os
import re

import pandas as pd
import pytest

from helpers.notebook import pipeline


# ---- 1. every entry of a --params folder that looks like a parameter file is used or refused --------

def _params_folder(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "01_gain_definitions.yaml").write_text("seed: 3\n")
    return folder


def test_params_folder_upper_case_suffix_is_refused_naming_the_spelling(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "04_theirs.Yml").write_text("seed: 4\n")
    with pytest.raises(ValueError, match=r"04_theirs\.Yml' has the suffix '\.Yml'; expected the spelling "
                                         r"'04_theirs\.yml'"):
        pipeline.parameter_files(folder, [])


def test_params_folder_entry_that_is_a_folder_is_refused(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "05_other.yml").mkdir()
    with pytest.raises(ValueError, match=r"05_other\.yml' is a folder, not a regular file"):
        pipeline.parameter_files(folder, [])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_params_folder_fifo_is_refused_not_reported_missing(tmp_path):
    folder = _params_folder(tmp_path)
    os.mkfifo(folder / "06_pipe.yaml")
    with pytest.raises(ValueError, match=r"06_pipe\.yaml' is a named pipe \(FIFO\), not a regular file"):
        pipeline.parameter_files(folder, [])


def test_params_folder_link_to_a_device_names_the_target(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "02_null.yaml").symlink_to(os.devnull)
    with pytest.raises(ValueError, match=r"02_null\.yaml' is a link to '/dev/null', a character device, "
                                         r"not a regular file"):
        pipeline.parameter_files(folder, [])


def test_params_folder_notebook_stem_with_another_suffix_is_refused(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "03_prm_estimation.json").write_text("{}")
    with pytest.raises(ValueError, match=r"03_prm_estimation\.json' is named after notebook 03_prm_estimation "
                                         r"but has the suffix '\.json'; expected 03_prm_estimation\.yaml"):
        pipeline.parameter_files(folder, [])


def test_params_folder_other_entries_are_left_alone(tmp_path):
    folder = _params_folder(tmp_path)
    (folder / "README.md").write_text("notes\n")
    (folder / "notes").mkdir()
    files = pipeline.parameter_files(folder, sorted(pipeline.NOTEBOOKS.glob("01_*.ipynb")))
    assert [f.name for f in files.values()] == ["01_gain_definitions.yaml"]


# ---- 2 and 6b. diversity evaluate checks what adhoc evaluate checks, with the same messages ----------

DQRELS = pd.DataFrame({"query_id": ["t1", "t1", "t2"], "intent_id": ["i1", "i2", "i1"],
                       "doc_id": ["a", "b", "c"], "relevance": [1, 2, 1]})
INTENTS = pd.DataFrame({"query_id": ["t1", "t1", "t2"], "intent_id": ["i1", "i2", "i1"], "prob": [0.5, 0.5, 1.0]})
DRUN = pd.DataFrame({"run_id": ["s"] * 3, "query_id": ["t1", "t1", "t2"], "doc_id": ["b", "a", "c"],
                     "score": [2.0, 1.0, 1.0]})


def _both_refuse(adhoc_call, diversity_call, pattern):
    from helpers import measures
    from helpers.measures import diversity
    with pytest.raises(ValueError, match=pattern):
        adhoc_call(measures)
    with pytest.raises(ValueError, match=pattern):
        diversity_call(diversity)


def test_diversity_run_with_run_id_but_no_rows_is_refused_as_adhoc_does():
    empty = DRUN.iloc[:0]
    qrels = DQRELS.drop(columns="intent_id")
    _both_refuse(lambda m: m.evaluate(qrels, empty, ["AP"]),
                 lambda d: d.evaluate(DQRELS, INTENTS, empty, ["alpha-nDCG@5"]),
                 r"run has no rows \(columns \['run_id', 'query_id', 'doc_id', 'score'\]\)")


def test_diversity_gain_column_all_zero_is_refused_as_adhoc_refuses_all_zero_levels():
    from helpers import measures
    from helpers.measures import diversity
    with pytest.raises(ValueError, match=r"^qrels hold no relevant document \(every level is <= 0\), so "):
        measures.evaluate(DQRELS.drop(columns="intent_id").assign(relevance=0), DRUN, ["AP"])
    zero = DQRELS.drop(columns="relevance").assign(gain=0.0)
    with pytest.raises(ValueError, match=r"^dqrels hold no relevant document \(every gain is 0\), so every "
                                         r"measure of every topic would be NaN"):
        diversity.evaluate(zero, INTENTS, DRUN, ["D#-nDCG@5", "I-rec@5"])


def test_diversity_levels_mapped_to_zero_gain_are_refused():
    from helpers.measures import diversity
    with pytest.raises(ValueError, match=r"^dqrels hold no relevant document \(every level's gain is 0\)"):
        diversity.evaluate(DQRELS.assign(relevance=0), INTENTS, DRUN, ["ERR-IA@5"], gmax=1.0)


def test_diversity_run_with_two_rank_columns_is_refused_as_adhoc_does():
    twice = pd.concat([DRUN.drop(columns="score").assign(rank=[1, 2, 1]), pd.Series([1, 2, 1], name="rank")], axis=1)
    qrels = DQRELS.drop(columns="intent_id")
    _both_refuse(lambda m: m.evaluate(qrels, twice, ["AP"]),
                 lambda d: d.evaluate(DQRELS, INTENTS, twice, ["D-nDCG@5"]),
                 r"run has 2 columns named 'rank' \(columns \['run_id', 'query_id', 'doc_id', 'rank', 'rank'\]\)")


# ---- 3. every notebook / JSON file the book builder reads: one line naming it, exit 1 ----------------

def _book(tmp_path, monkeypatch):
    import importlib.util
    from helpers import paths
    spec = importlib.util.spec_from_file_location("build_book_40f", paths.ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "rep"))
    return module


@pytest.mark.parametrize("text, got", [("", "got text that is not JSON"),
                                       ('{"nbformat": 4}', r"got a JSON dict with keys \['nbformat'\]"),
                                       ('"cells"', "got a JSON str")])
def test_book_refuses_a_corrupt_executed_notebook_in_one_line(tmp_path, monkeypatch, capsys, text, got):
    book = _book(tmp_path, monkeypatch)
    folder = tmp_path / "rep" / "executed" / "mine"
    folder.mkdir(parents=True)
    (folder / "03_prm_estimation.ipynb").write_text(text)
    assert book.main(["--no-pdf", "--profile", "mine"]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert re.search(r"03_prm_estimation\.ipynb: expected an executed notebook \(nbformat 4 JSON", err)
    assert re.search(got, err)


def test_book_refuses_runtimes_that_are_not_a_mapping_of_seconds(tmp_path, monkeypatch, capsys):
    book = _book(tmp_path, monkeypatch)
    folder = tmp_path / "rep" / "executed" / "mine"
    folder.mkdir(parents=True)
    (folder / "runtimes.json").write_text('{"01_gain_definitions": "fast"}')
    with pytest.raises(book.CorruptFile, match=r"runtimes\.json: expected the runner's runtimes \(a JSON object of "
                                               r"notebook name -> seconds\), got \{\"01_gain_definitions\": \"fast\"\}"):
        book.runtimes("mine")


# ---- 4. a refused measure parameter says what NIST's atof (C strtod) really reads -------------------

@pytest.mark.parametrize("text, read", [("0X1P-2", 0.25), ("-0x.8", -0.5), ("0x", 0.0), ("0x1g", 1.0),
                                        ("\v 2.5e1x", 25.0), ("InFiNiTy", float("inf")), ("1e999", float("inf")),
                                        ("0x1p99999", float("inf"))])
def test_atof_reads_what_c_strtod_reads(text, read):
    from helpers.measures.treceval.catalog import atof
    assert atof(text) == read
    import math
    assert math.isnan(atof("-nan(chars_1)x")) and atof("infinit") == float("inf")


def test_hexadecimal_measure_parameter_refusal_names_the_value_trec_eval_reads(tmp_path, capsysbinary):
    from helpers.measures.treceval import command
    (tmp_path / "q").write_bytes(b"u 0 d 1\n")
    (tmp_path / "r").write_bytes(b"u Q0 d 1 1 t\n")
    status = command.main(["-m", "ndcg.2=0X1P-2", str(tmp_path / "q"), str(tmp_path / "r")])
    err = capsysbinary.readouterr().err.decode()
    assert status == 2 and err.count("\n") == 1
    assert "value of 2 '0X1P-2' in '2=0X1P-2' is a hexadecimal number, which this command does not read " \
           "(trec_eval's atof reads it as 0.25); write it in decimal digits" in err


# ---- 5. --duplicates keep_first is honoured for run files as for frames --------------------------------

def test_keep_first_reads_run_files_and_ranked_lists_with_a_document_twice(tmp_path):
    from helpers import measures
    qrels = pd.DataFrame({"query_id": ["t", "t"], "doc_id": ["x", "y"], "relevance": [1, 1]})
    (tmp_path / "run.txt").write_text("t Q0 y 4 0.5 sys\nt Q0 x 1 2.0 sys\nt Q0 y 2 1.0 sys\n")
    frame = pd.DataFrame({"run_id": ["sys"] * 3, "query_id": ["t"] * 3, "doc_id": ["y", "x", "y"],
                          "rank": [4, 1, 2], "score": [0.5, 2.0, 1.0]})
    want = measures.evaluate(qrels, frame, ["AP"], duplicates="keep_first")
    got = measures.evaluate(qrels, str(tmp_path / "run.txt"), ["AP"], duplicates="keep_first")
    assert got["value"].tolist() == want["value"].tolist() == [1.0]
    with pytest.raises(ValueError, match=r"run\.txt:3: expected each document at most once per \(run_id, "
                                         r"query_id\) \(duplicates='keep_first'"):
        measures.evaluate(qrels, str(tmp_path / "run.txt"), ["AP"])
    lists = tmp_path / "sysB"
    lists.mkdir()
    (lists / "t.res").write_text("x\ny\nx\n")
    res = measures.evaluate(qrels, str(lists / "*.res"), ["AP"], duplicates="keep_first")
    assert res["value"].tolist() == [1.0]


def test_evaluate_command_keep_first_reads_a_run_file_with_a_document_twice(tmp_path):
    from helpers.measures import cli
    (tmp_path / "q").write_text("5 0 a 1\n5 0 b 0\n")
    (tmp_path / "r").write_text("5 Q0 b 1 9 s\n5 Q0 a 2 8 s\n5 Q0 b 3 7 s\n")
    assert cli.main(["--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--measures", "AP"]) == 2
    assert cli.main(["--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--measures", "AP",
                     "--duplicates", "keep_first"]) == 0


# ---- 6a. a value that starts with '-' reaches its option -------------------------------------------------

def test_evaluate_command_negative_looking_gains_reach_the_option(tmp_path, capsys):
    from helpers.measures import cli
    (tmp_path / "q").write_text("5 0 a 1\n")
    (tmp_path / "r").write_text("5 Q0 a 1 9 s\n")
    assert cli.main(["--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--gains", "-.5:1"]) == 2
    err = capsys.readouterr().err
    assert "expected one argument" not in err and "gain for L1 must be > 0, got -0.5" in err
