"""Several notebooks of one run at the same time, on a dask cluster of notebook runners.

The notebooks of a run do not depend on each other, and most of them keep one core busy (their
kernel), so on a machine with several cores ``python -m helpers notebooks run`` executes up to
``jobs`` of them at once (``--jobs``; ``auto``: one per core). Each notebook runs in a worker
process of a :class:`distributed.LocalCluster` (the project's fan-out tool; no process pool of its
own): papermill changes the process's working directory and environment while it starts a kernel,
which threads of one process would share. Each worker is given the caller's environment and
working directory before it runs a notebook, so a worker forked from an older fork server writes
where the caller asked. The longest notebooks (by the last run's ``runtimes.json``) start first, so
that the cores stay busy to the end. The notebooks' own replicate studies keep using the run's one
replicate cluster (:class:`helpers.notebook.pipeline._RunCluster`).

What each notebook prints (its progress line, a failure's report) is captured in the worker and
written to the caller's stream when the notebook ends, one notebook's lines together.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["resolve_jobs", "run_parallel", "slowest_first"]


def resolve_jobs(jobs: int | str | None, n_notebooks: int) -> int:
    """Notebooks to run at once: ``jobs`` (an integer >= 1, or ``"auto"``/``None``: one per core
    this process may use), never more than the notebooks of the run."""
    if jobs is None or jobs == "auto":
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # macOS, Windows
            cores = os.cpu_count() or 1
        n = cores
    else:
        try:
            n = int(jobs)
        except (TypeError, ValueError):
            raise ValueError(f"--jobs must be a whole number >= 1 or 'auto', got {jobs!r}") from None
        if isinstance(jobs, bool) or str(n) != str(jobs).strip() or n < 1:
            raise ValueError(f"--jobs must be a whole number >= 1 or 'auto', got {jobs!r}")
    return max(1, min(n, n_notebooks))


def slowest_first(notebooks: Sequence[Path], runtimes: Path) -> list[Path]:
    """``notebooks`` ordered by the seconds ``runtimes`` (a ``runtimes.json``) records, longest first;
    notebooks without a record keep their order after those with one, and an unreadable file
    leaves the order as it is."""
    try:
        seconds = json.loads(runtimes.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return list(notebooks)
    if not isinstance(seconds, dict):
        return list(notebooks)

    def key(item: tuple[int, Path]) -> tuple[float, int]:
        value = seconds.get(item[1].stem)
        return (-float(value) if isinstance(value, (int, float)) else 0.0, item[0])

    return [nb for _, nb in sorted(enumerate(notebooks), key=key)]


def _in_worker(run_one: Callable[..., tuple], env: dict[str, str], cwd: str, args: tuple,
               kwargs: dict) -> tuple[tuple, str]:
    """Run one notebook in a runner worker with the caller's environment and working directory;
    returns ``run_one``'s result and what it printed."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    out = io.StringIO()
    result = run_one(*args, stream=out, **kwargs)
    return result, out.getvalue()


def run_parallel(tasks: Sequence[tuple[Path, tuple, dict]], jobs: int, run_one: Callable[..., tuple],
                 stream: Any) -> dict[Path, tuple]:
    """Run ``run_one(*args, stream=..., **kwargs)`` for each ``(notebook, args, kwargs)`` of
    ``tasks``, ``jobs`` at a time in the order given, on a LocalCluster of ``jobs`` single-threaded
    worker processes; write what each printed to ``stream`` as it ends. Returns each notebook's
    result. Ctrl-C (or any error here) closes the cluster, which stops the notebooks still running
    (nothing of theirs is published: a run publishes only when it ends without error)."""
    from distributed import as_completed

    from ..replicates.cluster import Starting

    starting = Starting(n_workers=jobs, background=False, preload=(run_one.__module__,))
    client = starting.wait()
    env, cwd = dict(os.environ), os.getcwd()
    try:
        futures = {client.submit(_in_worker, run_one, env, cwd, args, kwargs, key=f"notebook-{nb.stem}",
                                 pure=False, priority=len(tasks) - k): nb
                   for k, (nb, args, kwargs) in enumerate(tasks)}
        results: dict[Path, tuple] = {}
        for future in as_completed(futures):
            nb = futures[future]
            try:
                result, printed = future.result()
            except Exception as exc:  # noqa: BLE001 - the runner process failed or was lost (run_one reports the notebook's own errors)
                result = (nb.stem, "failed", 0.0)
                printed = (f"{nb.stem}: FAILED in the process that ran it ({type(exc).__name__}: {exc}); "
                           "nothing of this run was published (its previous outputs, if any, are unchanged)\n")
            stream.write(printed)
            stream.flush()
            results[nb] = result
        return results
    finally:
        starting.close()
