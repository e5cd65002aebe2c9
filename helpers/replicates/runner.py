"""Replicated simulation studies: a study function mapped over a parameter grid x R replicates.

One random draw is not a result.  :func:`run_replicates` calls a *study* -- any function that takes
``rng`` (a :class:`numpy.random.Generator`) plus keyword parameters and returns a tidy
:class:`pandas.DataFrame` or one row as a mapping of scalars -- once per replicate and grid point,
on a ``dask.distributed`` cluster or in a plain serial loop, and returns the results as one tidy
frame.  :func:`summarise` and :func:`share` then turn the replicates into means, percentile
intervals (or ranges, with fewer draws than a percentile interval needs) and shares of replicates.

Seed scheme
-----------
All randomness comes from ONE ``numpy.random.SeedSequence(seed)``: it is spawned into
``replicates * n_points`` children in row-major order ``(replicate, grid point)``, so replicate
``r`` at grid point ``j`` always gets child ``r * n_points + j`` (:func:`replicate_seeds`), and the
study receives ``numpy.random.default_rng(child)``.  A task's seed depends only on ``(seed, r, j)``:
not on the number of workers, on which worker runs it, or on the order in which tasks finish, and
the results are put back in ``(replicate, grid point)`` order.  The same seed therefore gives a
byte-identical table serially (``scheduler=None``), on one local worker or on many (tested).
Adding replicates keeps the first ones unchanged (``SeedSequence.spawn`` children are a prefix);
adding grid points does *not* (the row-major index of every later cell moves), so fix the grid
before comparing runs.

Studies must take all their randomness from ``rng`` (no global seeding, no ``default_rng()``
without a seed) and must not depend on threading: workers run single-threaded BLAS, the serial
loop runs whatever BLAS threading the process has, and a study whose floating-point result
depends on the BLAS thread count is not reproducible anywhere.

Where the tasks run
-------------------
``scheduler=None``
    A plain loop in this process; dask is not even imported.  Use it for debugging and tiny runs.
``scheduler="local"`` (default)
    The first of (see :mod:`helpers.replicates.cluster`): the cluster at ``DASK_SCHEDULER_ADDRESS``
    (when that environment variable is set, so a notebook run with the default parameters scales
    out to a cluster without edits); the one cluster of a notebook run, which ``python -m helpers
    notebooks run`` starts once and hands to every kernel (``SUBJEVAL_DASK_SCHEDULER``); else a
    :class:`distributed.LocalCluster` of ``n_workers`` single-threaded worker processes (default:
    one per core, at most one per task), started and closed inside the call, also when a task
    fails or the call is interrupted.  The workers import *this* checkout's :mod:`helpers`.
    Starting a cluster costs seconds of the workers' imports: the call starts it in a background
    thread and meanwhile computes cells itself (from the main thread only: a call from another
    thread finds its process busy), so the start is not lost time; and when the first cell shows
    that all of them take less than :data:`MIN_CLUSTER_SECONDS` (and ``n_workers`` is not given),
    it computes them all itself and starts no cluster.  Scripts (not notebooks)
    that use it must guard their entry point with ``if __name__ == "__main__":``, because worker
    processes are spawned (or forked from a fork server) and re-import ``__main__``.
``scheduler="tcp://host:8786"``
    Connect to a running scheduler (e.g. started with ``dask scheduler`` on one machine and
    ``dask worker tcp://host:8786 --nthreads 1`` on each of the others).  The cluster is left
    running afterwards.  ``n_workers`` is ignored.

Cost-aware batching
-------------------
Cells differ in cost (notebook 02's N = 40 cells cost more than its N = 5 ones).  Each grid point's
first cell runs alone and is timed; then the most expensive cells go first, grouped into tasks of
about ``1 / (3 x workers)`` of the estimated work left and at least :data:`MIN_TASK_SECONDS` (guided
self-scheduling), two tasks queued at each worker.  The first tasks are long (little dask overhead),
the last ones short (the workers finish together).  Where and in which task a cell runs changes
none of its numbers.

The workers of a remote cluster need the same environment as this machine (``pip install -c
constraints.txt -e '<checkout>[notebooks]'`` in the same Python version) -- the same package versions give the
same numbers -- and this package installed so that they can import :mod:`helpers`; the call checks
that they can and raises ``ValueError`` if not.  Studies defined in a notebook are shipped to the
workers by value (cloudpickle); studies imported from :mod:`helpers` are imported by name there.
Large ``common`` arguments (e.g. a qrels frame) are sent to every worker once
(``Client.scatter(..., broadcast=True)``), not once per task.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
import uuid
import warnings
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from typing import Any

import numpy as np
import pandas as pd

from ..stats import summary
from . import cluster

__all__ = ["replicate_seeds", "run_replicates", "share", "single_threaded_blas", "summarise"]

_RESERVED = ("rng", "replicate")
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+|[^\s:/]+:\d+")


def is_scheduler_address(text: str) -> bool:
    """Does ``text`` look like a dask scheduler address (``tcp://host:8786``, ``host:8786``)?"""
    return isinstance(text, str) and bool(_ADDRESS.fullmatch(text))


# --------------------------------------------------------------------------------------------
# seeds
# --------------------------------------------------------------------------------------------


def _check_int(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def replicate_seeds(seed: int, replicates: int, n_points: int = 1) -> list[list[np.random.SeedSequence]]:
    """Independent seeds for every (replicate, grid point) cell, from one seed.

    Parameters
    ----------
    seed
        Non-negative integer; the entropy of the single root ``numpy.random.SeedSequence``.
    replicates
        Number of replicates R (>= 1).
    n_points
        Number of grid points J (>= 1).

    Returns
    -------
    list of list of numpy.random.SeedSequence
        ``seeds[r][j]`` for replicate ``r`` and grid point ``j``: child ``r * J + j`` of
        ``SeedSequence(seed).spawn(R * J)`` (row-major order).  Pass one to
        ``numpy.random.default_rng``.

    Raises
    ------
    ValueError
        If ``seed`` is not a non-negative integer (booleans are rejected), or ``replicates`` or
        ``n_points`` is not an integer >= 1.
    """
    seed = _check_int(seed, "seed", 0)
    replicates = _check_int(replicates, "replicates", 1)
    n_points = _check_int(n_points, "n_points", 1)
    children = np.random.SeedSequence(seed).spawn(replicates * n_points)
    return [children[r * n_points:(r + 1) * n_points] for r in range(replicates)]


# --------------------------------------------------------------------------------------------
# one task
# --------------------------------------------------------------------------------------------


def _as_frame(result: Any) -> pd.DataFrame:
    """The study's result as a frame with a 0..n-1 index (a mapping becomes one row)."""
    if isinstance(result, pd.DataFrame):
        return result.reset_index(drop=True)
    if isinstance(result, Mapping):
        bad = [k for k, v in result.items() if not isinstance(k, str) or np.ndim(v) != 0]
        if bad:
            raise ValueError(
                f"study must return a DataFrame or a mapping of str keys to scalars; "
                f"keys {bad!r} are not str or their values are not scalars")
        return pd.DataFrame({k: [v] for k, v in result.items()})
    raise ValueError(
        f"study must return a pandas DataFrame or a mapping of scalars, got {type(result).__name__}")


def _task(study: Callable[..., Any], seed: np.random.SeedSequence, common: Mapping[str, Any],
          point: Mapping[str, Any]) -> pd.DataFrame:
    """Run one (replicate, grid point) cell; the same function serially and on dask workers."""
    frame = _as_frame(study(rng=np.random.default_rng(seed), **common, **point))
    clash = [c for c in ("replicate", *point) if c in frame.columns]
    if clash:
        raise ValueError(f"study returned columns {clash!r}, which run_replicates adds itself "
                         f"(the replicate number and the grid keys): rename them in the study")
    return frame


def _tidy(frame: pd.DataFrame, r: int, point: Mapping[str, Any], keys: Sequence[str]) -> pd.DataFrame:
    """Prepend the replicate number and the grid values to one cell's frame."""
    take = np.zeros(len(frame), dtype=np.intp)
    lead = {"replicate": pd.Series(np.full(len(frame), r, dtype=np.int64))}
    for k in keys:  # one-element Series: the dtype does not depend on the number of rows
        lead[k] = pd.Series([point[k]]).iloc[take].reset_index(drop=True)
    return pd.concat([pd.DataFrame(lead), frame], axis=1)


def _annotate(exc: BaseException, r: int, point: Mapping[str, Any], seed: int) -> None:
    exc.add_note(f"replicate {r}, grid point {dict(point)}: raised by the study "
                 f"(run_replicates seed={seed}; rerun this cell with scheduler=None to debug)")


# --------------------------------------------------------------------------------------------
# progress
# --------------------------------------------------------------------------------------------


def _progress(total: int, enabled: bool):
    from .. import optional

    optional("tqdm", "the replicates' progress bar")
    if not enabled:
        from tqdm.std import tqdm
    else:
        from tqdm import TqdmWarning

        with warnings.catch_warnings():  # without ipywidgets tqdm.auto falls back to text: fine
            warnings.simplefilter("ignore", TqdmWarning)
            from tqdm.auto import tqdm
    return tqdm(total=total, disable=not enabled, desc="replicates", unit="task")


# --------------------------------------------------------------------------------------------
# the sweep
# --------------------------------------------------------------------------------------------


def _check_keys(mapping: Mapping[str, Any], name: str) -> list[str]:
    bad = [k for k in mapping if not isinstance(k, str) or not k.isidentifier()]
    if bad:
        raise ValueError(f"{name} keys must be parameter names of the study (identifiers), got {bad!r}")
    reserved = [k for k in mapping if k in _RESERVED]
    if reserved:
        raise ValueError(f"{name} must not use the names {reserved!r}: run_replicates passes "
                         f"'rng' and adds the 'replicate' column itself")
    return list(mapping)


def run_replicates(study: Callable[..., pd.DataFrame | Mapping[str, Any]], replicates: int, seed: int, *,
                   grid: Sequence[Mapping[str, Any]] | None = None, common: Mapping[str, Any] | None = None,
                   scheduler: str | None = "local", n_workers: int | None = None,
                   progress: bool = True, timings: dict | None = None) -> pd.DataFrame:
    """Run ``study`` for every replicate and grid point and return one tidy frame.

    Each cell calls ``study(rng=numpy.random.default_rng(seeds[r][j]), **common, **grid[j])`` with
    ``seeds = replicate_seeds(seed, replicates, len(grid))`` (see the module docstring for the seed
    scheme and for pointing at a cluster).

    Parameters
    ----------
    study
        Callable taking ``rng`` and the keyword parameters of ``common`` and the grid; returns a
        DataFrame (any number of rows) or a mapping of scalars (one row).  Defined at module level
        or in a notebook, so that it can be pickled.
    replicates
        Number of independent replicates R (>= 1).
    seed
        Non-negative integer: the root of every replicate's seed.
    grid
        Sequence of parameter mappings, all with the same keys (J grid points); ``None`` means one
        point without parameters.
    common
        Parameters passed to every call (e.g. qrels, a run table).  On a cluster they are sent to
        each worker once.
    scheduler
        ``None``: a serial loop in this process, without dask.  ``"local"``: the scheduler at
        ``DASK_SCHEDULER_ADDRESS`` when that environment variable is set, else the notebook
        runner's cluster (``SUBJEVAL_DASK_SCHEDULER``), else a LocalCluster created and closed
        inside the call (this process computes cells while it starts).  An address like
        ``"tcp://host:8786"``: a running scheduler, left running.
    n_workers
        Worker processes of the local cluster (default: the number of cores, at most the number
        of tasks).  Ignored for a remote scheduler and for ``scheduler=None``.
    progress
        Show a tqdm progress bar over completed tasks (a widget in JupyterLab when ipywidgets is
        installed, text otherwise).  Keep it off in checked notebook cells.
    timings
        A dict to fill with where a dask run's time went: ``cluster`` (``"started"``, ``"shared"``,
        ``"address"``, or ``"none"`` when ``"local"`` found too little work to start one),
        ``cluster_start`` (seconds to start the local cluster, 0 for one at hand), ``workers``,
        ``cells_on_client`` (cells this process computed while the cluster started) and ``tasks``
        (dask tasks submitted).  Untouched by a serial run.

    Returns
    -------
    pandas.DataFrame
        Columns ``replicate`` (int64), then the grid keys in the order of ``grid[0]``, then the
        study's columns; rows in ``(replicate, grid point)`` order whatever order the tasks finish
        in, index ``0..n-1``.  Byte-identical for a given seed with ``scheduler=None``, one worker
        or many.

    Raises
    ------
    ValueError
        For a non-callable ``study``, ``replicates`` < 1, a bad ``seed``, a ``grid`` that is not a
        non-empty sequence of mappings with identical keys, a key shared by ``grid`` and
        ``common`` or named ``rng`` / ``replicate``, a bad ``scheduler`` or ``n_workers``, an
        unreachable scheduler, or workers that cannot import :mod:`helpers`.
    Exception
        The first exception a study raises (in completion order), re-raised unchanged with a note
        ``"replicate r, grid point {...}"``; the remaining tasks are cancelled and the local
        cluster is closed first.
    """
    if not callable(study):
        raise ValueError(f"study must be a callable returning a DataFrame or a mapping, got {study!r}")
    replicates = _check_int(replicates, "replicates", 1)
    if grid is None:
        grid = [{}]
    if isinstance(grid, (Mapping, str, bytes)) or not isinstance(grid, Sequence) or len(grid) == 0:
        raise ValueError(f"grid must be a non-empty list of parameter mappings (or None), got {grid!r}")
    for j, point in enumerate(grid):
        if not isinstance(point, Mapping):
            raise ValueError(f"grid[{j}] must be a mapping of parameter names to values, got {point!r}")
    keys = _check_keys(grid[0], "grid")
    for j, point in enumerate(grid):
        if set(point) != set(keys):
            raise ValueError(f"every grid point must have the same keys: grid[0] has {sorted(keys)}, "
                             f"grid[{j}] has {sorted(map(str, point))}")
    common = {} if common is None else common
    if not isinstance(common, Mapping):
        raise ValueError(f"common must be a mapping of parameter names to values, got {type(common).__name__}")
    shared = sorted(set(_check_keys(common, "common")) & set(keys))
    if shared:
        raise ValueError(f"grid and common both set {shared}: give each parameter in one place only")
    seeds = replicate_seeds(seed, replicates, len(grid))
    if scheduler is not None and (not isinstance(scheduler, str)
                                  or (scheduler != "local" and not _ADDRESS.fullmatch(scheduler))):
        raise ValueError(f"scheduler must be None (serial), 'local' or a scheduler address like "
                         f"'tcp://host:8786', got {scheduler!r}")
    if n_workers is not None:
        n_workers = _check_int(n_workers, "n_workers", 1)
    if not isinstance(progress, (bool, np.bool_)):
        raise ValueError(f"progress must be True or False, got {progress!r}")
    if timings is not None and not isinstance(timings, dict):
        raise ValueError(f"timings must be a dict to fill (or None), got {type(timings).__name__}")

    cells = [(r, j) for r in range(replicates) for j in range(len(grid))]
    frames: dict[tuple[int, int], pd.DataFrame] = {}
    if scheduler is None:
        with _progress(len(cells), bool(progress)) as bar:
            for r, j in cells:
                try:
                    frames[r, j] = _task(study, seeds[r][j], common, grid[j])
                except Exception as exc:
                    _annotate(exc, r, grid[j], seed)
                    raise
                bar.update()
    else:
        _run_on_dask(study, seeds, common, grid, cells, frames, bool(progress), scheduler, n_workers, seed, timings)
    pieces = [_tidy(frames[r, j], r, grid[j], keys) for r, j in cells]
    return pd.concat(pieces, ignore_index=True)


#: Estimated seconds of work below which cells share one dask task (a task costs a few
#: milliseconds of scheduling, a round trip and a result frame).
MIN_TASK_SECONDS = 0.25
#: Tasks kept at each worker (one running, one waiting), so that no worker waits for the client.
TASKS_PER_WORKER = 2
#: Estimated seconds of work below which ``scheduler="local"`` (``n_workers`` unset, no cluster at
#: hand) runs the cells in this process: starting a cluster would cost about as much as it saves.
MIN_CLUSTER_SECONDS = 5.0


class _Plan:
    """Which cells go into the next dask task: cost-aware batching.

    The cost of a grid point's cells is measured as they run (each point's first cell runs alone,
    as a probe; a point not yet measured is estimated at the mean of those that are). The most
    expensive cells go first, in tasks of about a ``1 / (3 x workers)`` share of the estimated work
    left (guided self-scheduling), never below :data:`MIN_TASK_SECONDS`: the first tasks are long,
    the last ones short, so that the workers end together, with N = 40 cells (far dearer than N = 5
    ones) never left for the end. Which cell runs where changes no result (the seed scheme).
    """

    def __init__(self, cells: Sequence[tuple[int, int]], workers: int = 1) -> None:
        self.pending: dict[int, deque] = {}
        for r, j in cells:
            self.pending.setdefault(j, deque()).append(r)
        self.measured: dict[int, list[float]] = {}
        self.probing: set[int] = set()
        self.workers = workers

    def __bool__(self) -> bool:
        return any(self.pending.values())

    def record(self, j: int, seconds: float) -> None:
        total = self.measured.setdefault(j, [0.0, 0])
        total[0] += seconds
        total[1] += 1

    def estimate(self, j: int) -> float:
        if j in self.measured:
            return self.measured[j][0] / self.measured[j][1]
        means = [t / n for t, n in self.measured.values()]
        return sum(means) / len(means)

    def next(self, single: bool = False) -> list[tuple[int, int]]:
        """The cells of the next task (one cell when ``single`` or while nothing is measured)."""
        points = [j for j, rs in self.pending.items() if rs]
        if not points:
            return []
        for j in points:  # a probe: the first cell of a point neither measured nor being measured
            if j not in self.measured and j not in self.probing:
                self.probing.add(j)
                return [(self.pending[j].popleft(), j)]
        if single or not self.measured:
            return [(self.pending[points[0]].popleft(), points[0])]
        cost = {j: self.estimate(j) for j in points}
        target = max(MIN_TASK_SECONDS, sum(cost[j] * len(self.pending[j]) for j in points) / (3 * self.workers))
        batch: list[tuple[int, int]] = []
        total = 0.0
        for j in sorted(points, key=lambda j: (-cost[j], j)):
            rs = self.pending[j]
            while rs and (not batch or total + cost[j] <= target):
                batch.append((rs.popleft(), j))
                total += cost[j]
            if rs:
                break
        return batch


_BLAS_LIMITED: list[Any] = []


def single_threaded_blas() -> None:
    """Set this worker process's BLAS and OpenMP pools to one thread (once per process).

    A worker that distributed spawns gets ``OMP_NUM_THREADS=1`` (and the OpenBLAS/MKL variables)
    before it imports numpy; a worker forked from the fork server (:func:`helpers.replicates.
    cluster.start_method`) inherits a numpy the server loaded with the caller's environment, which
    the variables cannot reach, so each worker's first task limits its BLAS with threadpoolctl.
    With one thread per worker process the workers do not compete for the cores they share."""
    if not _BLAS_LIMITED:
        from threadpoolctl import threadpool_limits

        _BLAS_LIMITED.append(threadpool_limits(limits=1))   # kept: the limit lasts as long as the worker


def _batch(study: Callable[..., Any], jobs: Sequence[tuple[np.random.SeedSequence, Mapping[str, Any]]],
           common: Mapping[str, Any]) -> list[tuple[pd.DataFrame | BaseException, float]]:
    """Run several cells in one dask task (on a worker, BLAS single-threaded); each cell's frame
    (or its exception, returned rather than raised so that the caller can say which cell raised
    it) with the seconds it took."""
    single_threaded_blas()
    out: list[tuple[pd.DataFrame | BaseException, float]] = []
    for seed, point in jobs:
        begin = time.perf_counter()
        try:
            out.append((_task(study, seed, common, point), time.perf_counter() - begin))
        except Exception as exc:  # noqa: BLE001 - re-raised by the caller with the cell's coordinates
            out.append((exc, time.perf_counter() - begin))
            break
    return out


def _on_client(plan: _Plan, starting: cluster.Starting, run_cell: Callable[[int, int], None]) -> None:
    """Compute cells in this process while the cluster starts (one at a time, probes first)."""
    while plan and not starting.ready():
        (r, j), = plan.next(single=True)
        begin = time.perf_counter()
        run_cell(r, j)
        plan.record(j, time.perf_counter() - begin)


def _small_work(plan: _Plan, run_cell: Callable[[int, int], None], scheduler: str, n_workers: int | None,
                cells: int) -> bool:
    """For ``scheduler="local"`` with ``n_workers`` unset and no cluster at hand: run the first cell
    here and say whether all the cells, estimated from it, are less work than
    :data:`MIN_CLUSTER_SECONDS` (then they all run here, no cluster is started)."""
    if n_workers is not None or not cluster.would_start(scheduler):
        return False
    (r, j), = plan.next(single=True)
    begin = time.perf_counter()
    run_cell(r, j)
    plan.record(j, time.perf_counter() - begin)
    return plan.estimate(j) * cells < MIN_CLUSTER_SECONDS


def _run_on_dask(study, seeds, common, grid, cells, frames, progress, scheduler, n_workers, seed, timings) -> None:
    """Run the cells on a dask cluster, cost-aware (:class:`_Plan`): while a local cluster starts,
    this process computes cells itself; then tasks go to the workers, two queued per worker."""
    from .. import optional

    as_completed = optional("distributed", "replicates on dask (scheduler='local' or an address)").as_completed
    plan = _Plan(cells)

    def run_cell(r: int, j: int) -> None:
        try:
            frames[r, j] = _task(study, seeds[r][j], common, grid[j])
        except Exception as exc:
            _annotate(exc, r, grid[j], seed)
            raise
        bar.update()

    with ExitStack() as stack:
        bar = stack.enter_context(_progress(len(cells), progress))
        if _small_work(plan, run_cell, scheduler, n_workers, len(cells)):
            while plan:
                (r, j), = plan.next(single=True)
                run_cell(r, j)
            if timings is not None:
                timings.update({"cluster": "none", "cluster_start": 0.0, "workers": 0, "cells_on_client": len(cells),
                                "tasks": 0})
            return
        # in a background thread (04 and 05 run replicates beside their main work) the process is busy: no cells here
        starting = cluster.connect(scheduler, n_workers, len(cells),
                                   background=threading.current_thread() is threading.main_thread(),
                                   preload=(getattr(study, "__module__", None) or "",))
        used = []   # a start no task needed (the cells were done here, or one failed) is not waited for
        stack.callback(lambda: starting.close(wait=bool(used)))
        _on_client(plan, starting, run_cell)
        on_client = sum(n for _, n in plan.measured.values())   # every cell measured so far ran here
        if not plan:
            if timings is not None:
                timings.update({"cluster": starting.kind, "cluster_start": starting.seconds, "workers": 0,
                                "cells_on_client": on_client, "tasks": 0})
            return
        used.append(True)
        client = starting.wait()
        workers = plan.workers = len(client.scheduler_info().get("workers", {})) or 1
        if timings is not None:
            timings.update({"cluster": starting.kind, "cluster_start": starting.seconds, "workers": workers,
                            "cells_on_client": on_client, "tasks": 0})
        if common:  # one copy per worker, resolved to the mapping inside each task
            common = client.scatter([dict(common)], broadcast=True, hash=False)[0]
        name, token, numbers = getattr(study, "__name__", "study"), uuid.uuid4().hex[:8], itertools.count()
        queue, running = as_completed(), {}

        def submit() -> None:
            batch = plan.next()
            jobs = [(seeds[r][j], grid[j]) for r, j in batch]
            future = client.submit(_batch, study, jobs, common, key=f"{name}-{token}-t{next(numbers)}", pure=False)
            running[future.key] = (future, batch)
            queue.add(future)
            if timings is not None:
                timings["tasks"] += 1

        try:
            while plan and len(running) < TASKS_PER_WORKER * workers:
                submit()
            for future in queue:
                _, batch = running.pop(future.key)
                for (r, j), (result, seconds) in zip(batch, future.result()):
                    if isinstance(result, BaseException):
                        _annotate(result, r, grid[j], seed)
                        raise result
                    frames[r, j] = result
                    plan.record(j, seconds)
                bar.update(len(batch))
                while plan and len(running) < TASKS_PER_WORKER * workers:
                    submit()
        finally:
            left = [f for f, _ in running.values() if not f.done()]
            if left:
                client.cancel(left)


# --------------------------------------------------------------------------------------------
# summaries over replicates
# --------------------------------------------------------------------------------------------


def _groups(df: pd.DataFrame, by: Sequence[str], what: str) -> list[str]:
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if isinstance(by, str):
        by = [by]
    by = list(by)
    missing = [c for c in by if c not in df.columns]
    if missing:
        raise ValueError(f"by: columns {missing} are not in the frame (columns: {list(df.columns)})")
    if len(df) == 0:
        raise ValueError("df has no rows")
    if "replicate" in df.columns:
        dup = df.duplicated([*by, "replicate"])
        if dup.any():
            raise ValueError(
                f"{what}: several rows per replicate in a group of by={by} (first: row "
                f"{df.index[np.argmax(dup.to_numpy())]!r}); add the column that tells them apart "
                f"to by, or aggregate within replicates first")
    return by


def _per_group(series: pd.Series, df: pd.DataFrame, by: list[str]):
    if by:
        return series.groupby([df[c] for c in by], sort=False, dropna=False)
    return series.groupby(np.zeros(len(series), dtype=np.int8), sort=False)


def _finish(stats: dict[str, pd.Series], by: list[str]) -> pd.DataFrame:
    out = pd.DataFrame(stats)
    if by:
        return out.reset_index(names=by)
    return out.reset_index(drop=True)


def summarise(df: pd.DataFrame, value: str, by: Sequence[str] = (), level: float = 0.95) -> pd.DataFrame:
    """Mean and percentile interval of ``value`` over replicates, per group.

    Parameters
    ----------
    df
        Tidy replicate table, e.g. from :func:`run_replicates`.  When it has a ``replicate``
        column, each group must hold at most one row per replicate.
    value
        Numeric column to summarise.  Missing values are skipped (and not counted).
    by
        Grouping columns; groups keep the order of their first appearance.  Empty: one row.
    level
        Coverage of the percentile interval, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        Columns ``*by, mean, low, high, sd, replicates, interval``: when a group has enough
        values for a ``level`` percentile interval (:mod:`helpers.stats.summary`: at least 40 for
        95%), ``low`` / ``high`` are the ``(1 - level) / 2`` and ``1 - (1 - level) / 2``
        quantiles with linear interpolation (numpy's default method) and ``interval`` is e.g.
        ``"95% interval"``; with fewer they are the minimum and maximum and ``interval`` is
        ``"range"``. ``sd`` is the standard deviation with ddof=1 (NaN for one replicate),
        ``replicates`` the number of non-missing values.

    Raises
    ------
    ValueError
        If a column is missing, ``value`` is not numeric, ``level`` is not in (0, 1), or a group
        has several rows for one replicate.
    """
    if not isinstance(value, str) or not isinstance(df, pd.DataFrame) or value not in df.columns:
        cols = list(df.columns) if isinstance(df, pd.DataFrame) else None
        raise ValueError(f"value: column {value!r} is not in the frame (columns: {cols})")
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"level must be a number in (0, 1), e.g. 0.95, got {level!r}")
    x = df[value]
    if pd.api.types.is_bool_dtype(x) or not pd.api.types.is_numeric_dtype(x):
        raise ValueError(f"value: column {value!r} must be numeric, has dtype {x.dtype}"
                         f"{' (use share() for booleans)' if pd.api.types.is_bool_dtype(x) else ''}")
    by = _groups(df, by, "summarise")
    g = _per_group(x.astype(np.float64), df, by)
    tail = (1 - level) / 2
    count = g.count().astype(np.int64)
    enough = count >= summary.min_draws(level)
    return _finish({"mean": g.mean(), "low": g.quantile(tail).where(enough, g.min()),
                    "high": g.quantile(1 - tail).where(enough, g.max()), "sd": g.std(ddof=1),
                    "replicates": count,
                    "interval": enough.map({True: summary.interval_name(10**9, level), False: "range"})}, by)


def share(df: pd.DataFrame, condition: pd.Series | str, by: Sequence[str] = ()) -> pd.DataFrame:
    """Share of replicates in which a boolean condition holds, per group.

    Parameters
    ----------
    df
        Tidy replicate table, e.g. from :func:`run_replicates`.  When it has a ``replicate``
        column, each group must hold at most one row per replicate.
    condition
        Name of a boolean column of ``df``, or a boolean Series with the same index as ``df``
        (e.g. ``df["tau"] >= 0.9``).  Missing values are not allowed.
    by
        Grouping columns; groups keep the order of their first appearance.  Empty: one row.

    Returns
    -------
    pandas.DataFrame
        Columns ``*by, share, replicates``: the fraction of rows of the group where the condition
        holds, and the number of rows.

    Raises
    ------
    ValueError
        If a column is missing, the condition is not boolean, has missing values or is not
        aligned with ``df``, or a group has several rows for one replicate.
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if isinstance(condition, str):
        if condition not in df.columns:
            raise ValueError(f"condition: column {condition!r} is not in the frame "
                             f"(columns: {list(df.columns)})")
        cond = df[condition]
    elif isinstance(condition, pd.Series):
        if not condition.index.equals(df.index):
            raise ValueError("condition must be a boolean Series with the same index as df "
                             "(e.g. df['tau'] >= 0.9)")
        cond = condition
    else:
        raise ValueError(f"condition must be a column name or a boolean Series, "
                         f"got {type(condition).__name__}")
    if not pd.api.types.is_bool_dtype(cond) or cond.isna().any():
        raise ValueError(f"condition must be boolean without missing values, has dtype {cond.dtype}")
    by = _groups(df, by, "share")
    g = _per_group(cond.astype(np.float64), df, by)
    return _finish({"share": g.mean(), "replicates": g.count().astype(np.int64)}, by)
