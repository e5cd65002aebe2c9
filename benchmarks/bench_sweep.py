"""Benchmark notebook 02's replicated study on dask (helpers.replicates.runner) against a plain serial loop.

Script, not a test: ``.venv/bin/python benchmarks/bench_sweep.py [--replicates 20] [--B 5000] [--workers 2]``.

The workload (issue 42): R = 20 replicates x 4 cells, Dmax in {2, 8} x N in {5, 40}, of
``helpers.replicates.studies.unanimity_variant`` (B = 5,000 HSD trials) on ``setup(20170901)``, the
STC-like collection with one run per team (``--grid paper``: the paper's 15 cells). It is run, in
this order, in one process:

1. serially, without dask (``scheduler=None``);
2. on a new LocalCluster of ``--workers`` workers, as a notebook started by hand runs it: the
   wall time *includes* the cluster's start (which ``run_replicates`` overlaps with cells it
   computes itself meanwhile) and its close;
3. the cluster's start alone (a LocalCluster configured as ``run_replicates`` starts it; the
   first start of the process, in step 2, also starts the fork server the workers are forked from,
   which imports numpy, pandas, scipy and distributed once);
4. on that running cluster, as the notebooks of ``make reproduce`` run it (one cluster per run):
   the wall time *without* the start;
5. the ceiling: the cells split evenly between ``--workers`` plain processes that have imported
   everything, computing at once, without dask (what any scheme can reach on this machine: two
   busy cores are slower per cell than one).

Every table must be identical to the serial one (checked, exactly). Printed: the wall times, the
speed-ups over serial with and without the start, the cluster start, and the cells this process
computed while the cluster started, the dask tasks and the per-cell cost of each grid point.
``--repeat k`` runs each measurement k times and reports the median.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import pandas as pd

from helpers import measures, unanimity
from helpers.replicates import cluster, runner, studies
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


def cluster_start_seconds(workers: int) -> tuple[float, object]:
    """Wall time to start a LocalCluster configured as run_replicates starts it, and the cluster."""
    start = time.perf_counter()
    started = cluster.start_local_cluster(workers)
    from distributed import Client

    with Client(started) as client:
        client.wait_for_workers(workers)
    return time.perf_counter() - start, started


def _half(args) -> float:
    """Runs in a plain worker process: compute the given cells serially; returns the seconds."""
    cells, seed, replicates, grid, common = args
    seeds = runner.replicate_seeds(seed, replicates, len(grid))
    begin = time.perf_counter()
    for r, j in cells:
        runner._task(studies.unanimity_variant, seeds[r][j], common, grid[j])
    return time.perf_counter() - begin


def ceiling_seconds(workers: int, replicates: int, seed: int, grid, common) -> float:
    """The best any scheme of ``workers`` processes can do on this machine: the cells split evenly
    between plain processes that have already imported everything (no dask, no start, no
    transfer), all computing at once. Two busy cores are slower per cell than one (shared caches
    and memory bandwidth): the serial time over this is the speed-up ceiling."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    cells = [(r, j) for r in range(replicates) for j in range(len(grid))]
    parts = [cells[k::workers] for k in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_half, [([cells[0]], seed, replicates, grid, common)] * workers))   # imports, warm-up
        begin = time.perf_counter()
        list(pool.map(_half, [(part, seed, replicates, grid, common) for part in parts]))
        return time.perf_counter() - begin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=20)
    ap.add_argument("--B", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=20170901)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--grid", choices=("issue42", "paper"), default="issue42",
                    help="issue42: Dmax {2, 8} x N {5, 40}; paper: Dmax {2, 4, 8} x N {5, 10, 20, 40, 80}")
    ap.add_argument("--repeat", type=int, default=1, help="measurements per setting (the median is shown)")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    qrels, run, names, best = setup(args.seed)
    d_max, n = ((2, 8), (5, 40)) if args.grid == "issue42" else ((2, 4, 8), (5, 10, 20, 40, 80))
    grid = [{"d_max": d, "n": k} for d in d_max for k in n]
    common = {"qrels": qrels, "run": run, "p": 0.2, "measures": names, "hsd_runs": best, "B": args.B, "alpha": 0.05}
    cells = args.replicates * len(grid)

    def timed(scheduler, workers=None):
        timings: dict = {}
        start = time.perf_counter()
        table = runner.run_replicates(studies.unanimity_variant, args.replicates, args.seed, grid=grid, common=common,
                                      scheduler=scheduler, n_workers=workers, progress=False, timings=timings)
        return time.perf_counter() - start, table, timings

    serial_runs, fresh_runs, start_runs, warm_runs, notes = [], [], [], [], []
    reference = None
    for _ in range(args.repeat):
        seconds, table, _ = timed(None)
        serial_runs.append(seconds)
        reference = table if reference is None else reference
        pd.testing.assert_frame_equal(table, reference, check_exact=True)
        seconds, table, timings = timed("local", args.workers)
        pd.testing.assert_frame_equal(table, reference, check_exact=True)
        fresh_runs.append(seconds)
        notes.append(timings)
        seconds, running = cluster_start_seconds(args.workers)
        start_runs.append(seconds)
        try:
            seconds, table, _ = timed(running.scheduler_address)
        finally:
            running.close()
        pd.testing.assert_frame_equal(table, reference, check_exact=True)
        warm_runs.append(seconds)
    ceiling = statistics.median(ceiling_seconds(args.workers, args.replicates, args.seed, grid, common)
                                for _ in range(args.repeat))
    serial, fresh = statistics.median(serial_runs), statistics.median(fresh_runs)
    start, warm = statistics.median(start_runs), statistics.median(warm_runs)
    per_point = {}
    for j, point in enumerate(grid):   # the cost of one cell of each grid point, serially (for the record)
        begin = time.perf_counter()
        runner._task(studies.unanimity_variant, np.random.SeedSequence([args.seed, j]), common, point)
        per_point[f"Dmax {point['d_max']}, N {point['n']}"] = time.perf_counter() - begin
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"notebook-02 replicated study: R = {args.replicates} x {len(grid)} cells = {cells} cells, B = {args.B}; "
          f"{platform.processor() or platform.machine()}, {cores} cores"
          + (f", load average {load[0]:.2f} at the end" if load else "")
          + (f"; median of {args.repeat} runs" if args.repeat > 1 else ""))
    print("| run | wall time (s) | speed-up vs serial |")
    print("|---|---:|---:|")
    print(f"| serial (no dask) | {serial:.1f} | 1.00 |")
    print(f"| dask, {args.workers} workers, new cluster (start included) | {fresh:.1f} | {serial / fresh:.2f} |")
    print(f"| dask, {args.workers} workers, running cluster (start excluded) | {warm:.1f} | {serial / warm:.2f} |")
    print(f"| ceiling: {args.workers} plain processes, imports done, cells split evenly, no dask | {ceiling:.1f} | "
          f"{serial / ceiling:.2f} |")
    first = statistics.median(n.get("cluster_start") or 0.0 for n in notes)
    print(f"cluster start ({args.workers} workers, started by {cluster.start_method()}): {first:.2f} s the first time in "
          f"this process, {start:.2f} s for a later one; with the "
          f"start included, this process computed {notes[0].get('cells_on_client', 0)} cell(s) while the workers "
          f"started, and {notes[0].get('tasks', 0)} dask tasks took the rest (cost-aware batches)")
    print("one cell per grid point, serially: " + ", ".join(f"{k}: {v:.2f} s" for k, v in per_point.items()))
    print(f"speed-up with {args.workers} workers, start included: {serial / fresh:.2f}x; start excluded: "
          f"{serial / warm:.2f}x")
    print("tables identical to the serial one (exactly) in every run: yes")


if __name__ == "__main__":
    main()
