"""The numpy-free path of ``python -m helpers trec_eval`` (helpers.measures.treceval.quick): taken
for the default command line (numpy never imported), left for the vectorised engine otherwise, and
printing what the engine prints on generated inputs (the engine itself is held to NIST's bytes by
tests/test_trec_eval_differential.py)."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings, strategies as st

from helpers.measures.treceval import command, quick
from helpers.paths import ROOT

_PROBE = ("import sys; from helpers.__main__ import main; status = main(['trec_eval'] + sys.argv[1:]); "
          "sys.stdout.flush(); print('numpy' in sys.modules, file=sys.stderr); sys.exit(status)")


def _command(*args) -> tuple[int, str, list[str]]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    return done.returncode, done.stdout, done.stderr.splitlines()


def test_the_default_command_runs_without_numpy_and_the_others_with_the_engine(tmp_path):
    q, r, bad = tmp_path / "q", tmp_path / "r", tmp_path / "bad"
    q.write_bytes(b"1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n")
    r.write_bytes(b"1 Q0 d1 1 2.5 tag\n1 Q0 d2 2 1.5 tag\n2\tQ0\td9\t1\t3\ttag\n")
    bad.write_bytes(b"1 Q0 d1 1 abc tag\n")
    status, out, err = _command(q, r)
    assert status == 0 and err == ["False"], err                   # the quick path: numpy not loaded
    assert "map                   \tall\t0.5000\n" in out and out.startswith("runid                 \tall\ttag\n")
    status, out_q, err = _command("-q", "-c", "-m", "P.1,2", "-m", "map", q, r)
    assert status == 0 and err == ["False"] and "P_1                   \t2\t0.0000\n" in out_q
    status, _, err = _command("-m", "infAP", q, r)                   # a measure the quick path leaves
    assert status == 0 and err == ["True"]
    status, _, err = _command(q, bad)                                # bad input: the engine names it
    assert status == 2 and err[-1] == "True" and f"{bad}:1: expected" in err[0]


_IDS = st.sampled_from([b"1", b"2", b"10", b"a\xc2\xa0b", b"d-7", b"x#1", b"\xff"])
_SCORES = st.sampled_from([b"1", b"1.0", b"-0.0", b"0", b"2.5e1", b"1e400", b"-3", b".5"])


@st.composite
def _inputs(draw):
    topics = draw(st.lists(_IDS, min_size=1, max_size=4, unique=True))
    qrels, results = [], []
    for t in topics:
        docs = draw(st.lists(_IDS, min_size=0, max_size=6, unique=True))
        for d in docs:
            qrels.append(t + b" 0 " + d + b" " + str(draw(st.integers(-1, 3))).encode())
        ranked = draw(st.lists(_IDS, min_size=0, max_size=7, unique=True))
        for i, d in enumerate(ranked):
            results.append(b" ".join([t, b"Q0", d, str(i).encode(), draw(_SCORES), b"run"]))
    if not qrels:
        qrels.append(topics[0] + b" 0 z 1")
    results = draw(st.permutations(results)) if results else [topics[0] + b" Q0 z 0 1 run"]
    sep = draw(st.sampled_from([b" ", b"\t"]))
    flags = draw(st.lists(st.sampled_from([["-q"], ["-c"], ["-n"], ["-J"], ["-l", "2"], ["-l", "0"], ["-M", "3"],
                                           ["-M", "0"], ["-m", "P.1,2,5"], ["-m", "recall.3"], ["-m", "official"],
                                           ["-m", "iprec_at_recall.0.25,1"], ["-m", "bpref"]]), max_size=4))
    return (b"\n".join(qrels) + b"\n", b"\n".join(x.replace(b" ", sep) for x in results) + b"\n",
            [a for f in flags for a in f])


@settings(max_examples=50, deadline=None)
@given(case=_inputs())
def test_the_quick_path_prints_what_the_engine_prints(tmp_path_factory, case):
    rel, res, flags = case
    folder = tmp_path_factory.mktemp("quick")
    (folder / "q").write_bytes(rel)
    (folder / "r").write_bytes(res)
    opts = command.parse_args(flags + [str(folder / "q"), str(folder / "r")])
    measures = command._measures(opts)
    assert quick.supports(opts.settings, measures)
    try:
        engine = command._with_engine(opts, opts.files[1], None)
    except ValueError as exc:                  # e.g. no topic both judged and answered
        try:
            quick.evaluate_quick(opts.files[0], opts.files[1], None, measures, opts.settings)
        except (quick.Unsupported, ValueError):
            return
        raise AssertionError(f"the engine refused ({exc}) what the quick path evaluated")
    try:
        ev = quick.evaluate_quick(opts.files[0], opts.files[1], None, measures, opts.settings)
    except quick.Unsupported:
        return                                 # run and judged topics that may be one topic: the engine decides
    assert command.format_lines(ev, opts) == engine
    assert command.run(opts) == engine
