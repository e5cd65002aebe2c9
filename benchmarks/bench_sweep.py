"""Benchmark the replicated notebook-02 study on dask (helpers.replicates.runner) against a plain serial loop.

Script, not a test: ``.venv/bin/python benchmarks/bench_sweep.py [--replicates 20] [--B 5000]``.
Runs notebook 02's replicated study (the STC-like collection, one run per team, the 15 (Dmax, N)
cells x R replicates of ``helpers.replicates.studies.unanimity_variant``) four ways -- serially without dask
(numpy's BLAS with its default threads), serially with BLAS limited to one thread (a subprocess with
``OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=MKL_NUM_THREADS=1``, which is what every dask worker has),
on a LocalCluster with 1 worker and with 2 workers -- checks that the tables are identical, and
prints wall times, the speed-up over both serial runs and the dask overhead per task ((wall time with
1 worker - single-threaded serial time) / tasks; it includes starting the cluster).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np
import pandas as pd

from helpers import measures, unanimity
from helpers.replicates import studies, runner as sweep
from helpers.simulate import ratings as sim_ratings


def setup(seed: int):
    rng = np.random.default_rng(seed)
    coll = sim_ratings.stc_like_collection(rng)
    qrels = coll.qrels[coll.qrels["query_id"].isin(coll.qrels.loc[coll.qrels["relevance"] > 0, "query_id"])]
    qrels = qrels.reset_index(drop=True)
    run = unanimity.top_k(coll.run[coll.run["query_id"].isin(qrels["query_id"])], 10)
    names = ["nG@1", "P+", "nERR@10"]
    official = measures.evaluate(qrels, run, names, gains="1:3")
    best = unanimity.best_run_per_team(measures.to_matrix(official, names[0]), coll.teams)
    return qrels, run, names, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=20)
    ap.add_argument("--B", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=20170901)
    ap.add_argument("--serial-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    qrels, run, names, best = setup(args.seed)
    grid = [{"d_max": d, "n": n} for d in (2, 4, 8) for n in (5, 10, 20, 40, 80)]
    common = {"qrels": qrels, "run": run, "p": 0.2, "measures": names, "hsd_runs": best, "B": args.B, "alpha": 0.05}
    tasks = args.replicates * len(grid)
    if args.serial_only:  # the child process of the single-threaded serial run
        start = time.perf_counter()
        table = sweep.run_replicates(studies.unanimity_variant, args.replicates, args.seed, grid=grid,
                                     common=common, scheduler=None, progress=False)
        print(time.perf_counter() - start)
        print(table.to_csv(index=False), end="")
        return
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    child = subprocess.run([sys.executable, __file__, "--serial-only", "--replicates", str(args.replicates),
                            "--B", str(args.B), "--seed", str(args.seed)], env=env, check=True,
                           capture_output=True, text=True)
    one_thread_seconds, one_thread_csv = child.stdout.split("\n", 1)
    rows, tables = [], {}
    for label, scheduler, workers in [("serial (no dask)", None, None), ("dask, 1 worker", "local", 1),
                                      ("dask, 2 workers", "local", 2)]:
        start = time.perf_counter()
        tables[label] = sweep.run_replicates(studies.unanimity_variant, args.replicates, args.seed, grid=grid,
                                             common=common, scheduler=scheduler, n_workers=workers, progress=False)
        rows.append((label, time.perf_counter() - start))
    rows.insert(1, ("serial, 1 BLAS thread (no dask)", float(one_thread_seconds)))
    serial, serial1 = rows[0][1], rows[1][1]
    for label, table in tables.items():
        pd.testing.assert_frame_equal(table, tables["serial (no dask)"], check_exact=True)
    assert tables["serial (no dask)"].to_csv(index=False) == one_thread_csv
    print(f"notebook-02 replicated study: {len(grid)} cells x {args.replicates} replicates = {tasks} tasks, "
          f"B = {args.B}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    print("| run | wall time (s) | speed-up vs serial | vs serial, 1 BLAS thread |")
    print("|---|---:|---:|---:|")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.1f} | {serial / seconds:.2f} | {serial1 / seconds:.2f} |")
    print(f"dask overhead per task (1 worker vs single-threaded serial, cluster start included): "
          f"{(rows[2][1] - serial1) / tasks * 1000:.0f} ms")
    print("tables identical across the four runs: yes")


if __name__ == "__main__":
    main()
