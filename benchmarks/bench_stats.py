"""Benchmark: randomised Tukey HSD (helpers.stats) against the bare cost of its permutations.

The test draws, for each of B trials, an independent permutation of every topic's scores across
systems.  Generating those permutations is the irreducible cost, so the figure of merit is

    ratio = time(randomised_tukey_hsd) / time(generating the same permutations with numpy)

measured on the same chunk shape (trials x topics x systems) and the same generator stream:

* engine ``"sort"`` (default): bare cost = drawing the random 64-bit keys and sorting each row
  (``rng.integers(..., dtype=uint64)`` + ``ndarray.sort(axis=2)``);
* engine ``"permuted"``: bare cost = tiling the matrix and ``rng.permuted(..., axis=2)``;
* for reference, the textbook ``rng.random(shape).argsort(axis=2)``.

Target: ratio <= 2 against each engine's own bare cost.  Timings are CPU seconds of this
process (``time.process_time``; numpy runs these kernels single-threaded, so this equals wall
time on an idle machine) and the best of ``--repeats`` runs: the machine is shared, and CPU time
and the minimum are the least noisy estimates.

Run:  python benchmarks/bench_stats.py [--repeats 3] [--B 5000]
Prints a markdown table for the README.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from helpers import stats as st

CASES = [(100, 50), (1127, 51)]  # topics x systems (1,127 x 51: a TREC-size run matrix)


def _chunk(n: int, m: int, B: int) -> int:
    # the same chunk size randomised_tukey_hsd uses by default
    return max(1, min(B, st.DEFAULT_CHUNK_BYTES // (n * m * 8)))


def bare_sort_keys(x: np.ndarray, B: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    n, m = x.shape
    c = _chunk(n, m, B)
    t0 = time.process_time()
    for start in range(0, B, c):
        keys = rng.integers(0, np.iinfo(np.uint64).max, size=(min(c, B - start), n, m),
                            dtype=np.uint64, endpoint=True)
        keys.sort(axis=2)
    return time.process_time() - t0


def bare_permuted(x: np.ndarray, B: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    n, m = x.shape
    c = _chunk(n, m, B)
    buf = np.empty((c, n, m))
    t0 = time.process_time()
    for start in range(0, B, c):
        blk = buf[: min(c, B - start)]
        blk[...] = x
        rng.permuted(blk, axis=2, out=blk)
    return time.process_time() - t0


def bare_argsort(x: np.ndarray, B: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    n, m = x.shape
    c = _chunk(n, m, B)
    t0 = time.process_time()
    for start in range(0, B, c):
        rng.random((min(c, B - start), n, m)).argsort(axis=2)
    return time.process_time() - t0


def full(x: np.ndarray, B: int, seed: int, engine: str) -> float:
    t0 = time.process_time()
    st.randomised_tukey_hsd(x, B=B, rng=np.random.default_rng(seed), engine=engine)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3, help="timed repetitions per measurement")
    ap.add_argument("--B", type=int, default=5000, help="Monte Carlo trials")
    args = ap.parse_args()
    if args.repeats < 1 or args.B < 1:
        ap.error("--repeats and --B must be >= 1")

    print(f"numpy {np.__version__}, Python {platform.python_version()}, {platform.machine()}")
    rows = []
    for n, m in CASES:
        x = np.random.default_rng(0).integers(0, 11, size=(n, m)) / 10.0  # graded-like scores
        for engine in ("sort", "permuted"):
            full(x, min(args.B, 50), 0, engine)  # warm-up (imports, page faults)
        t = {k: [] for k in ("sort", "permuted", "bare_sort", "bare_permuted", "bare_argsort")}
        for r in range(args.repeats):
            # interleave so that background load hits every variant alike
            t["bare_sort"].append(bare_sort_keys(x, args.B, r))
            t["sort"].append(full(x, args.B, r, "sort"))
            t["bare_permuted"].append(bare_permuted(x, args.B, r))
            t["permuted"].append(full(x, args.B, r, "permuted"))
            t["bare_argsort"].append(bare_argsort(x, args.B, r))
        best = {k: min(v) for k, v in t.items()}
        med = {k: statistics.median(v) for k, v in t.items()}
        rows.append((f"{n:,} × {m}", best))
        print(
            f"{n:,} x {m}: " + ", ".join(f"{k} {best[k]:.2f}s (median {med[k]:.2f}s)" for k in t)
        )

    print()
    print(f"Randomised Tukey HSD, B = {args.B:,}: CPU seconds, best of {args.repeats}; "
          "ratio = helpers.stats / bare cost of the same permutations")
    print()
    print("| topics × systems | `engine=\"sort\"` (default) | bare keys + sort | ratio "
          "| `engine=\"permuted\"` | bare `rng.permuted` | ratio | bare argsort (reference) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for case, b in rows:
        r_sort = b["sort"] / b["bare_sort"]
        r_perm = b["permuted"] / b["bare_permuted"]
        worst = max(worst, r_sort, r_perm)
        print(
            f"| {case} | {b['sort']:.2f} | {b['bare_sort']:.2f} | {r_sort:.2f}× | "
            f"{b['permuted']:.2f} | {b['bare_permuted']:.2f} | {r_perm:.2f}× | {b['bare_argsort']:.2f} |"
        )
    print()
    print(f"worst ratio: {worst:.2f}× (target <= 2×): {'OK' if worst <= 2 else 'ABOVE TARGET'}")


if __name__ == "__main__":
    main()
