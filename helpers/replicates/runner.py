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
    A :class:`distributed.LocalCluster` of ``n_workers`` single-threaded worker processes
    (default: one per core, at most one per task), started and closed inside the call, also when a
    task fails or the call is interrupted.  The checkout root is put first on ``PYTHONPATH`` while
    the workers start, so they import *this* checkout's :mod:`helpers`.  Starting a cluster costs a
    few seconds; studies that take less than that in total are faster with ``scheduler=None``.
    Scripts (not notebooks) that use it must guard their entry point with
    ``if __name__ == "__main__":``, because worker processes are spawned and re-import ``__main__``.
``scheduler="tcp://host:8786"``
    Connect to a running scheduler (e.g. started with ``dask scheduler`` on one machine and
    ``dask worker tcp://host:8786 --nthreads 1`` on each of the others).  The cluster is left
    running afterwards.  ``n_workers`` is ignored.
``DASK_SCHEDULER_ADDRESS``
    When this environment variable is set (and non-empty), ``scheduler="local"`` connects to that
    address instead of starting a local cluster, so a notebook run with the default parameters
    scales out to a cluster without edits.  ``scheduler=None`` still runs serially.

The workers of a remote cluster need the same environment as this machine (``pip install -c
constraints.txt -e '<checkout>[notebooks]'`` in the same Python version) -- the same package versions give the
same numbers -- and this package installed so that they can import :mod:`helpers`; the call checks
that they can and raises ``ValueError`` if not.  Studies defined in a notebook are shipped to the
workers by value (cloudpickle); studies imported from :mod:`helpers` are imported by name there.
Large ``common`` arguments (e.g. a qrels frame) are sent to every worker once
(``Client.scatter(..., broadcast=True)``), not once per task.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import uuid
import warnings
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pandas as pd

from .. import paths
from ..stats import summary

__all__ = ["replicate_seeds", "run_replicates", "share", "summarise"]

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
# clusters
# --------------------------------------------------------------------------------------------


@contextmanager
def _checkout_on_pythonpath() -> Iterator[None]:
    """Put the checkout root first on PYTHONPATH (restored afterwards), for spawned workers."""
    old = os.environ.get("PYTHONPATH")
    root = str(paths.ROOT)
    rest = [p for p in (old or "").split(os.pathsep) if p and p != root]
    os.environ["PYTHONPATH"] = os.pathsep.join([root, *rest])
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


#: The import name this package runs under here (``helpers`` in a checkout, ``subjeval`` installed).
_PACKAGE = __name__.split(".")[0]


def _package_on_worker(name: str) -> str | None:
    """Runs on each worker: where package ``name`` is imported from (None when it cannot be)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return getattr(module, "__file__", None) or "<namespace package>"


def _check_workers(client: Any, address: str) -> None:
    """Every worker of a remote cluster must import this package, from a checkout that looks like ours."""
    found = client.run(_package_on_worker, _PACKAGE)
    if not found:
        raise ValueError(f"scheduler {address!r} has no workers: start some with "
                         f"`dask worker {address} --nthreads 1`")
    missing = sorted(w for w, f in found.items() if f is None)
    if missing:
        raise ValueError(
            f"the workers {missing} of scheduler {address!r} cannot import {_PACKAGE}: install this "
            f"package on every worker (`pip install -c constraints.txt -e '<checkout>[notebooks]'` and "
            f"`python <checkout>/tools/link_checkout.py`; this checkout is {paths.ROOT}) in the same "
            "environment, then restart the workers")
    ours = paths.ROOT.name
    elsewhere = {w: f for w, f in found.items() if Path(f).parent.parent.name != ours}
    if elsewhere:
        warnings.warn(
            f"workers import {_PACKAGE} from outside a checkout named {ours!r}: {elsewhere}; "
            f"results are only reproducible if they run the same code as {paths.ROOT}",
            RuntimeWarning, stacklevel=5)  # points at the caller of run_replicates


@contextmanager
def _worker_config() -> Iterator[None]:
    """The dask settings of the local workers this module starts.

    distributed's nanny sets ``MALLOC_TRIM_THRESHOLD_=65536`` in every worker it spawns, so that
    glibc returns freed memory to the OS at once. Numerical studies allocate and free large
    temporaries many times per second; with that setting every allocation is faulted in anew
    (measured on notebook 02's study: 127,000 page faults per task instead of 5,000, and 0.78 s
    instead of 0.49 s of CPU per task), which made a dask worker ~1.6x slower than the same task in
    the notebook's own process. The variable is left unset (glibc's default), and the sampling
    profiler, which takes the GIL every 10 ms for a dashboard nobody reads here, is off.
    """
    import dask

    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                          "distributed.worker.profile.enabled": False}):
        yield


def _connect(stack: ExitStack, scheduler: str, n_workers: int | None, tasks: int) -> Any:
    """A Client (closed by ``stack``) for ``scheduler``: a new LocalCluster or a running one."""
    from distributed import Client, LocalCluster   # present: _run_on_dask checked it

    address = scheduler
    if scheduler == "local":
        address = os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip() or "local"
    if address == "local":
        with _checkout_on_pythonpath(), _worker_config():
            cluster = stack.enter_context(LocalCluster(
                n_workers=n_workers or max(1, min(os.cpu_count() or 1, tasks)),
                threads_per_worker=1, processes=True,
                # the scheduler always starts an HTTP server (8787 unless told): a free port,
                # so that two runs at once print no "port in use" warning into the notebook
                # and CRITICAL logs only: a task's error reaches the client as its exception, a lost
                # worker as KilledWorker; what workers log at ERROR is shutdown chatter under load
                # ("Failed to communicate with scheduler during heartbeat" when the scheduler closes
                # first), which the kernel would copy into the notebook's stderr
                dashboard_address=":0", silence_logs=logging.CRITICAL))
            return stack.enter_context(Client(cluster))
    source = "DASK_SCHEDULER_ADDRESS" if scheduler == "local" else "scheduler"
    try:
        client = stack.enter_context(Client(address))
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"{source}: cannot connect to a dask scheduler at {address!r} ({exc})") from exc
    _check_workers(client, address)
    return client


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
                   progress: bool = True) -> pd.DataFrame:
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
        ``None``: a serial loop in this process, without dask.  ``"local"``: a LocalCluster
        created and closed inside the call (or the scheduler at ``DASK_SCHEDULER_ADDRESS`` when
        that environment variable is set).  An address like ``"tcp://host:8786"``: a running
        scheduler, left running.
    n_workers
        Worker processes of the local cluster (default: the number of cores, at most the number
        of tasks).  Ignored for a remote scheduler and for ``scheduler=None``.
    progress
        Show a tqdm progress bar over completed tasks (a widget in JupyterLab when ipywidgets is
        installed, text otherwise).  Keep it off in checked notebook cells.

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
        _run_on_dask(study, seeds, common, grid, cells, frames, bool(progress), scheduler, n_workers, seed)
    pieces = [_tidy(frames[r, j], r, grid[j], keys) for r, j in cells]
    return pd.concat(pieces, ignore_index=True)


def _batch(study: Callable[..., Any], jobs: Sequence[tuple[np.random.SeedSequence, Mapping[str, Any]]],
           common: Mapping[str, Any]) -> list[pd.DataFrame | BaseException]:
    """Run several cells in one dask task (a study's exception is returned, not raised, so that
    the caller can say which cell raised it)."""
    out: list[pd.DataFrame | BaseException] = []
    for seed, point in jobs:
        try:
            out.append(_task(study, seed, common, point))
        except Exception as exc:  # noqa: BLE001 - re-raised by the caller with the cell's coordinates
            out.append(exc)
            break
    return out


def _batches(cells: list[tuple[int, int]], workers: int) -> list[list[tuple[int, int]]]:
    """Consecutive cells grouped into about four tasks per worker: few enough that dask's per-task
    cost (scheduling, a round trip, a result frame) is small beside the work, enough that a slow
    task does not leave the other workers idle at the end."""
    size = max(1, -(-len(cells) // (4 * max(1, workers))))
    return [cells[i:i + size] for i in range(0, len(cells), size)]


def _run_on_dask(study, seeds, common, grid, cells, frames, progress, scheduler, n_workers, seed) -> None:
    """Submit the cells to a dask cluster in batches and collect the frames as the tasks complete."""
    from .. import optional

    as_completed = optional("distributed", "replicates on dask (scheduler='local' or an address)").as_completed

    with ExitStack() as stack:
        client = _connect(stack, scheduler, n_workers, len(cells))
        bar = stack.enter_context(_progress(len(cells), progress))  # after the cluster is up
        if common:  # one copy per worker, resolved to the mapping inside each task
            common = client.scatter([dict(common)], broadcast=True, hash=False)[0]
        name = getattr(study, "__name__", "study")
        token = uuid.uuid4().hex[:8]
        workers = len(client.scheduler_info().get("workers", {})) or 1
        futures = {}
        try:
            for k, batch in enumerate(_batches(cells, workers)):
                jobs = [(seeds[r][j], grid[j]) for r, j in batch]
                future = client.submit(_batch, study, jobs, common, key=f"{name}-{token}-b{k}", pure=False)
                futures[future.key] = (future, batch)
            for future in as_completed([f for f, _ in futures.values()]):
                _, batch = futures[future.key]
                for (r, j), result in zip(batch, future.result()):
                    if isinstance(result, BaseException):
                        _annotate(result, r, grid[j], seed)
                        raise result
                    frames[r, j] = result
                bar.update(len(batch))
        finally:
            pending = [f for f, _ in futures.values() if not f.done()]
            if pending:
                client.cancel(pending)


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
