"""NIST trec_eval 10 against ``python -m helpers trec_eval`` on the 37 TREC DL 2019 passage runs.

Prints, in one run: the start-up time of the drop-in (and of Python alone, and NIST's on the same
tiny input); NIST's total over the 37 runs, one process per run, against the drop-in one process
per run (target: per-call ratio <= 1.5x) and the drop-in's ``--many-runs`` (one process for all 37
runs: target <= 1x of NIST's total); and whether every output is byte-identical to NIST's.

NIST's program is built from its unchanged sources in tests/peers/trec_eval-src (NIST's notice
in its LICENSE.md) with its own Makefile; the runs and qrels are the registered datasets
``dl19-runs`` and ``dl19-nist-qrels`` (checksummed; ``SUBJEVAL_DATA_MIRROR`` points at an
offline copy, as the Makefile sets it), decompressed once into a temporary folder since
trec_eval reads plain files. Wall-clock times (the best of ``--repeat`` rounds, default 2) and
the CPU time of the child processes are both printed: on a shared machine the CPU time is the
steadier of the two. The package's bytecode is compiled first, as an installed package's is.

    python benchmarks/bench_treceval.py [--repeat N] [--runs K]
"""

from __future__ import annotations

import argparse
import compileall
import gzip
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import _nist  # noqa: E402
from helpers.data.datasets import REGISTRY  # noqa: E402
from helpers.data.fetch import fetch  # noqa: E402

QRELS = "qrels/qrels.dl19-passage.txt"
DROP_IN = [sys.executable, "-m", "helpers", "trec_eval"]


def _data(folder: Path, k: int | None) -> tuple[Path, list[Path]]:
    runs = [rf.path for rf in REGISTRY["dl19-runs"].files if "/runs/" in f"/{rf.path}"][:k]
    local = fetch("dl19-runs", paths=runs)
    qrels = folder / "qrels.txt"
    qrels.write_bytes(fetch("dl19-nist-qrels", paths=[QRELS])[QRELS].read_bytes())
    out = []
    for p in runs:
        dest = folder / Path(p).name.removesuffix(".gz")
        dest.write_bytes(gzip.decompress(local[p].read_bytes()))
        out.append(dest)
    return qrels, out


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(commands: list[list[str]], outputs: list[Path] | None = None) -> tuple[float, float, list[bytes]]:
    """Run the commands one after the other: (wall seconds, child CPU seconds, their stdouts)."""
    cpu0, t0 = _children_cpu(), time.perf_counter()
    outs = []
    for cmd in commands:
        done = subprocess.run(cmd, capture_output=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
        outs.append(done.stdout)
    return time.perf_counter() - t0, _children_cpu() - cpu0, outs


def _best(fn, repeat: int):
    results = [fn() for _ in range(repeat)]
    return min(results, key=lambda r: r[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2, help="rounds; the best wall time of each is kept")
    ap.add_argument("--runs", type=int, default=None, help="only the first K runs (default: all 37)")
    args = ap.parse_args(argv)
    nist = str(_nist.build())
    # an installed package has its bytecode compiled (pip does it); a checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would otherwise compile the command's modules in every call
    compileall.compile_dir(str(ROOT / "helpers"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="bench-treceval-") as tmp:
        folder = Path(tmp)
        qrels, runs = _data(folder, args.runs)
        tiny_q, tiny_r = folder / "tiny.qrels", folder / "tiny.run"
        tiny_q.write_text("1 0 d1 1\n")
        tiny_r.write_text("1 Q0 d1 1 1.0 r\n")
        print(f"NIST trec_eval {nist}; drop-in: {' '.join(DROP_IN[1:])}; {len(runs)} DL-19 runs "
              f"({sum(p.stat().st_size for p in runs) / 1e6:.0f} MB), default measures; best of {args.repeat}")
        # start-up: the whole command on a one-line input, ten calls
        py = _best(lambda: _timed([[sys.executable, "-c", "pass"]] * 10), args.repeat)
        ours_tiny = _best(lambda: _timed([DROP_IN + [str(tiny_q), str(tiny_r)]] * 10), args.repeat)
        nist_tiny = _best(lambda: _timed([[nist, str(tiny_q), str(tiny_r)]] * 10), args.repeat)
        print(f"start-up (one-line input, per call): drop-in {ours_tiny[0] / 10:.3f} s wall "
              f"({ours_tiny[1] / 10:.3f} s CPU); python -c pass {py[0] / 10:.3f} s; NIST {nist_tiny[0] / 10:.4f} s")
        theirs = _best(lambda: _timed([[nist, str(qrels), str(r)] for r in runs]), args.repeat)
        ours = _best(lambda: _timed([DROP_IN + [str(qrels), str(r)] for r in runs]), args.repeat)
        out_dir = folder / "many"
        out_dir.mkdir()
        many = _best(lambda: _timed([DROP_IN + ["--many-runs", "--out-dir", str(out_dir), str(qrels)]
                                     + [str(r) for r in runs]]), args.repeat)
        same_single = sum(a == b for a, b in zip(ours[2], theirs[2]))
        same_many = sum((out_dir / f"{r.name}.trec_eval").read_bytes() == b for r, b in zip(runs, theirs[2]))
        n = len(runs)
        rows = [("NIST trec_eval, one process per run", theirs, None),
                ("drop-in, one process per run", ours, 1.5),
                ("drop-in --many-runs, one process", many, 1.0)]
        print(f"{'':<38} {'wall s':>8} {'per run':>8} {'CPU s':>8} {'ratio':>7} {'CPU ratio':>9} {'target':>7}")
        for label, (wall, cpu, _), target in rows:
            ratio, cratio = wall / theirs[0], cpu / max(theirs[1], 1e-9)
            verdict = "" if target is None else ("ok" if ratio <= target else "MISSED") + f" <= {target:g}x"
            print(f"{label:<38} {wall:8.2f} {wall / n:8.3f} {cpu:8.2f} {ratio:6.2f}x {cratio:8.2f}x {verdict:>7}")
        print(f"byte-identical to NIST: {same_single}/{n} (one process per run), {same_many}/{n} (--many-runs)")
    return 0 if same_single == n and same_many == n else 1


if __name__ == "__main__":
    sys.exit(main())
