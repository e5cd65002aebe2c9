"""Benchmark the replicated notebook-02 study on dask (helpers.replicates.runner) against a plain serial loop.

Script, not a test: ``.venv/bin/python benchmarks/bench_sweep.py [--replicates 8] [--B 5000] [--workers 1,2,4]``.
Runs notebook 02's replicated study (the STC-like collection, one run per team, the 15 (Dmax, N)
cells x R replicates of ``helpers.replicates.studies.unanimity_variant``) serially without dask and
on a LocalCluster with each worker count of ``--workers`` that this machine has cores for, checks
that every table is identical to the serial one, and prints wall times, speed-ups and the dask
overhead: per task ((wall with 1 worker - cluster start - serial) / tasks, as a share of the mean
task time) and the cluster start. From those it prints the scaling the measurements imply for
worker counts the machine does not have (start + (serial + tasks x overhead) / k), labelled as a
projection.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import time

import numpy as np
import pandas as pd

from helpers import measures, unanimity
from helpers.replicates import runner, studies
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


def cluster_start_seconds(workers: int) -> float:
    """Wall time to start and close an idle LocalCluster configured as run_replicates does."""
    from distributed import Client, LocalCluster

    start = time.perf_counter()
    with runner._worker_config(), LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.ERROR) as cl, Client(cl):
        pass
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=8)
    ap.add_argument("--B", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=20170901)
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts, e.g. 1,2,4,8")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    counts = [int(w) for w in args.workers.split(",") if w.strip()]
    runnable = [w for w in counts if w <= cores]
    skipped = [w for w in counts if w > cores]
    qrels, run, names, best = setup(args.seed)
    grid = [{"d_max": d, "n": n} for d in (2, 4, 8) for n in (5, 10, 20, 40, 80)]
    common = {"qrels": qrels, "run": run, "p": 0.2, "measures": names, "hsd_runs": best, "B": args.B, "alpha": 0.05}
    tasks = args.replicates * len(grid)

    def timed(scheduler, workers):
        start = time.perf_counter()
        table = runner.run_replicates(studies.unanimity_variant, args.replicates, args.seed, grid=grid, common=common,
                                      scheduler=scheduler, n_workers=workers, progress=False)
        return time.perf_counter() - start, table

    serial, reference = timed(None, None)
    rows = [("serial (no dask)", serial)]
    for w in runnable:
        seconds, table = timed("local", w)
        pd.testing.assert_frame_equal(table, reference, check_exact=True)
        rows.append((f"dask, {w} worker{'s' if w > 1 else ''}", seconds))
    start_1 = cluster_start_seconds(1)
    print(f"notebook-02 replicated study: {len(grid)} cells x {args.replicates} replicates = {tasks} cells "
          f"(batched into about 4 tasks per worker), B = {args.B}; "
          f"{platform.processor() or platform.machine()}, {cores} cores")
    print("| run | wall time (s) | speed-up vs serial |")
    print("|---|---:|---:|")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.1f} | {serial / seconds:.2f} |")
    if 1 in runnable:
        one = dict(rows)["dask, 1 worker"]
        per_cell = (one - start_1 - serial) / tasks
        print(f"cluster start and close: {start_1:.1f} s; dask cost per cell beyond that: {per_cell * 1000:.0f} ms "
              f"= {per_cell / (serial / tasks):.1%} of a cell's {serial / tasks * 1000:.0f} ms")
        for w in skipped:
            projected = start_1 + (serial + tasks * max(per_cell, 0.0)) / w
            print(f"projection for {w} workers (this machine has {cores} cores, not measured): "
                  f"{projected:.1f} s, speed-up {serial / projected:.2f}")
    print("tables identical to the serial one for every worker count: yes")


if __name__ == "__main__":
    main()
