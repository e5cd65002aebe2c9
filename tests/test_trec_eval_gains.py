"""Gain pairs that trec_eval 10 sorts wrongly: ``python -m helpers trec_eval`` refuses exactly where
the misorder changes a value and prints NIST's bytes elsewhere (helpers.measures.treceval.gainorder).

trec_eval's ``comp_rel_gain`` returns ``(int)(gain1 - gain2)``, so gains closer than 1 compare equal
and glibc's merge sort leaves them in their command-line order; the ideal ranking then walks the
array from the top. NIST's program is built from its sources (tests/_nist.py; skipped with the
reason where no C compiler exists).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import io
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers.measures.treceval import command
from helpers.measures.treceval.gainorder import comp_rel_gain, sorted_gains, trec_ideal_runs

# the differential test's find (shrunk): topic 2 judges d1, d2 at 0 and d3 at 3
QRELS = "1 0 d1 0\n2 0 d1 0\n2 0 d2 0\n2 0 d3 3\n01 0 d1 0\n"
RUN = "01 Q0 d1 1 1 run\n1 Q0 d1 1 1 run\n1 Q0 d2 2 1 run\n2 Q0 d1 1 1 run\n2 Q0 d2 2 1 run\n"
# levels 0, 1, 2 in one topic
QRELS3 = "1 0 a 1\n1 0 b 2\n1 0 c 0\n"
RUN3 = "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n"


def _files(tmp_path: Path, qrels: str, run: str) -> tuple[str, str]:
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(qrels)
    r.write_text(run)
    return str(q), str(r)


def _ours(args: list) -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    wrapper = io.TextIOWrapper(out, encoding="utf-8")
    with contextlib.redirect_stderr(err):
        old, sys.stdout = sys.stdout, wrapper
        try:
            status = command.main(args)
        finally:
            wrapper.flush()
            sys.stdout = old
    return status, out.getvalue(), err.getvalue()


def _theirs(binary: Path, args: list) -> bytes:
    done = subprocess.run([str(binary)] + args, capture_output=True, timeout=10, check=True)
    return done.stdout


def _line(out: bytes, topic: str) -> str:
    return next(x for x in out.decode().splitlines() if x.split("\t")[1] == topic)


def test_the_differential_find_is_refused_naming_measure_topic_and_both_values(tmp_path):
    q, r = _files(tmp_path, QRELS, RUN)
    status, out, err = _ours(["-q", "-m", "ndcg.0=1,3=0.5", q, r])
    assert status == 2 and out == b"" and err.count("\n") == 1, (status, out, err)
    for part in ("trec_eval: -m ndcg.0=1,3=0.5:", "differ by less than 1", "order on the command line",
                 "comp_rel_gain truncates", "first topic '2': 1.0000 where the value is 0.8671",
                 f"python -m helpers evaluate --qrels {q} --run {r} --conventions trec_eval",
                 "'MSnDCGg(gains=0:1.0;3:0.5)'", "-m ndcg.3=0.5,0=1,1=1,2=2"):
        assert part in err, (part, err)


def test_the_value_named_for_trec_eval_is_what_nist_prints(nist, tmp_path):
    q, r = _files(tmp_path, QRELS, RUN)
    assert _line(_theirs(nist, ["-q", "-m", "ndcg.0=1,3=0.5", q, r]), "2").endswith("\t1.0000")
    q3, r3 = _files(tmp_path, QRELS3, RUN3)
    for m, wrong, right in (("ndcg.1=0.5", "0.8809", "0.7609"), ("G.2=0.5", "1.3782", "0.9188"),
                            ("ndcg_rel.1=0.5", None, None), ("Rndcg.1=0.5", None, None),
                            ("ideal_dcg.1=0.5", None, None)):
        status, _, err = _ours(["-q", "-m", m, q3, r3])
        theirs = _line(_theirs(nist, ["-q", "-m", m, q3, r3]), "1").split("\t")[2]
        assert status == 2 and f"first topic '1': {theirs} where" in err, (m, theirs, err)
        if wrong is not None:
            assert theirs == wrong and f"where the value is {right}" in err, (m, err)


def test_a_level_stopped_before_by_level_0_is_refused(tmp_path):
    # -m ndcg.1=0.5 with levels 0, 1, 2: trec_eval's array [1:0.5, 0:0, 2:2] stays unsorted
    # (0.5 and 0 compare equal), its ideal takes level 2 and stops at level 0: level 1 is left out
    assert sorted_gains({1: 0.5}, 3) == [(1, 0.5), (0, 1, None), (2, 3, None)]
    q, r = _files(tmp_path, QRELS3, RUN3)
    status, out, err = _ours(["-q", "-m", "ndcg.1=0.5", q, r])
    assert status == 2 and out == b"" and "-m ndcg.1=0.5:" in err and "topic '1'" in err, err


@pytest.mark.parametrize("qrels, run, measure", [
    (QRELS, RUN, "ndcg.3=0.5,0=1,1=1,2=2"),       # every level, in increasing order of gain
    (QRELS3, RUN3, "ndcg.0=0,1=0.5,2=2"),
    (QRELS3, RUN3, "G.1=1.5,2=3"),                # gains 0, 1.5, 3: differences >= 1
    (QRELS3, RUN3, "ndcg_rel.1=2.5,2=4.5"),
    (QRELS3, RUN3, "dcg.1=0.5"),                  # dcg does not read the order
    (QRELS3, RUN3, "rbp.p=0.5,1=0.5"),
    ("1 0 d1 0\n01 0 d1 0\n", RUN.replace("2 Q0 d1 1 1 run\n2 Q0 d2 2 1 run\n", ""), "ndcg.0=1,3=0.5"),
    (QRELS, RUN.replace("2 Q0 d1", "2 Q0 x1").replace("2 Q0 d2", "2 Q0 x2"), "ndcg.0=1,3=0.5"),  # ideal
    # misordered, but nothing with a gain retrieved: 0 either way
])
def test_fractional_gains_trec_eval_orders_right_print_nists_bytes(nist, tmp_path, qrels, run, measure):
    q, r = _files(tmp_path, qrels, run)
    status, out, err = _ours(["-q", "-m", measure, q, r])
    assert status == 0, err
    assert out == _theirs(nist, ["-q", "-m", measure, q, r])


def test_a_level_given_twice_is_refused(tmp_path):
    q, r = _files(tmp_path, QRELS3, RUN3)
    for m in ("ndcg.1=5,1=2", "rbp.1=0.2,01=5"):
        status, out, err = _ours(["-m", m, q, r])
        assert status == 2 and out == b"" and "gain level 1 given twice" in err, (m, err)


def test_large_levels_cost_what_small_ones_cost(tmp_path):
    # a level of 10^9: trec_eval's array has 10^9 + 2 entries; the emulation keeps ranges (~30 here)
    q, r = _files(tmp_path, "1 0 a 1\n1 0 b 1000000000\n1 0 c 0\n", RUN3)
    status, _, err = _ours(["-q", "-m", "ndcg.1=0.5", q, r])
    assert status == 2 and "-m ndcg.1=0.5:" in err and "increasing order" not in err, err
    assert len(sorted_gains({1: 0.5}, 10**9 + 1)) < 64
    theirs, ours = trec_ideal_runs({1: 0.5}, np.array([[1, 1, 1]]), np.array([0, 1, 10**9]))
    assert ours == [[(1e9, 1), (0.5, 1)]] and theirs == [[(1e9, 1)]]       # level 0 stops trec_eval's ideal


@pytest.mark.skipif(not sys.platform.startswith("linux") or ctypes.util.find_library("c") is None,
                    reason="glibc's qsort is the reference (Linux)")
def test_the_merge_sort_is_glibcs_qsort():
    """The emulation against the C library's own qsort with the same comparison, on random arrays
    built as setup_gains builds them (pairs in command-line order, then the unnamed levels)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "gnu_get_libc_version"):
        pytest.skip("not glibc")

    class RelGain(ctypes.Structure):
        _fields_ = [("rel_level", ctypes.c_long), ("gain", ctypes.c_double), ("num_at_level", ctypes.c_long)]

    cmp_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(RelGain), ctypes.POINTER(RelGain))
    cmp = cmp_type(lambda a, b: comp_rel_gain(a[0].gain, b[0].gain))
    rng = random.Random(20261127)
    for _ in range(1500):
        levels = rng.sample(range(-2, 15), rng.randint(1, 6))
        pairs = {lv: rng.choice([rng.uniform(-3, 12), round(rng.uniform(-3, 12), 1), float(rng.randint(-2, 10))])
                 for lv in levels}
        n_levels = rng.randint(0, 40)
        arr = list(pairs.items()) + [(i, float(i)) for i in range(n_levels) if i not in pairs]
        c_arr = (RelGain * len(arr))(*[RelGain(lv, g, 0) for lv, g in arr])
        libc.qsort(c_arr, len(arr), ctypes.sizeof(RelGain), cmp)
        emulated = [x for atom in sorted_gains(pairs, n_levels)
                    for x in (range(atom[0], atom[1]) if len(atom) == 3 else [atom[0]])]
        assert [c_arr[i].rel_level for i in range(len(arr))] == emulated, (pairs, n_levels)
