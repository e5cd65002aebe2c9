"""The dask clusters of the replicated studies: started in the background, shared by a run, checked.

:func:`helpers.replicates.runner.run_replicates` asks :func:`connect` for a client. Where it
comes from, first match wins:

``DASK_SCHEDULER_ADDRESS`` (or an address passed as ``scheduler``)
    The user's running cluster. Its workers must import this package (:func:`check_workers`).
``SUBJEVAL_DASK_SCHEDULER`` (:data:`SHARED_SCHEDULER`)
    The one cluster of a notebook run: ``python -m helpers notebooks run`` (``make reproduce``)
    starts a :class:`distributed.LocalCluster` once (:func:`start_local_cluster`, in the
    background while the first notebook runs) and hands its address to every kernel, so that the
    notebooks of a run do not start a cluster each. When it cannot be reached (the runner ended,
    a kernel kept from another run) the call starts its own cluster, as without the variable.
neither
    A new LocalCluster for this call, started in a background thread (:class:`Starting`) so that
    the caller can compute cells while the workers start, closed at the end of the call.

Starting a LocalCluster costs seconds: a worker process imports numpy, pandas, scipy and
distributed (about 1 s of CPU). Where the platform has it (Linux, macOS) the workers are forked from
multiprocessing's fork server (:func:`start_method`), which imports them once for the whole process
(:data:`PRELOAD`, and the study's module); it stays, idle, until the process ends, and later
clusters start in a fraction of a second. The start is measured on its own
(:attr:`Starting.seconds`, ``timings=`` of ``run_replicates``) and printed by
``benchmarks/bench_sweep.py`` and by the runner.

Not forked from the caller itself (``"fork"``), although that starts two workers in 0.25-0.30 s
instead of the fork server's first 1.6-1.8 s and took ``bench_sweep.py``'s speed-up with the start
from 1.48-1.58x to 1.56-1.65x (2026-11-28, idle 2-core machine): a worker forked from a Jupyter
kernel inherits the kernel's open sockets, and in one test run two such workers outlived their
kernel by a quarter of an hour, holding its ports. Until that is understood the fork server stays.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import threading
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .. import paths

__all__ = ["SHARED_SCHEDULER", "Starting", "check_workers", "connect", "package_on_worker", "start_local_cluster",
           "start_method", "worker_config", "would_start"]

#: Environment variable by which the notebook runner hands its kernels the address of its cluster.
SHARED_SCHEDULER = "SUBJEVAL_DASK_SCHEDULER"
#: Seconds a kernel waits to reach the runner's cluster before it starts its own.
SHARED_CONNECT_TIMEOUT = "5s"


@contextmanager
def worker_config() -> Iterator[None]:
    """The dask settings of the local workers this package starts.

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


#: Modules the fork server imports once, so that a worker forked from it starts with them loaded
#: (numpy, pandas, scipy.stats and distributed take about 1 s of CPU per process to import).
PRELOAD = ("numpy", "pandas", "scipy.stats", "distributed", f"{__name__.split('.')[0]}.replicates.runner")


def start_method(preload: tuple[str, ...] = ()) -> str:
    """How the workers of a LocalCluster are started: ``"forkserver"`` where the platform has it
    (Linux, macOS), else ``"spawn"``. The fork server is one process per Python process, started
    with the first cluster: it imports :data:`PRELOAD` (and the study's module) once, then forks
    each worker, so two workers cost one import instead of two, and later clusters of this process
    (a notebook that runs several studies) start in a fraction of a second. It is started with this
    process's ``sys.path``, so its workers import this very package. (Its numpy is loaded before
    the nanny's ``OMP_NUM_THREADS=1`` reaches a worker: the workers set their BLAS to one thread
    themselves, :func:`helpers.replicates.runner.single_threaded_blas`.)"""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return "spawn"
    import dask
    from distributed.utils import get_mp_context

    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        get_mp_context()   # distributed sets its own preload list on first use: ours must come after
    modules = list(dict.fromkeys([*PRELOAD, *preload]))
    multiprocessing.get_context("forkserver").set_forkserver_preload(modules)   # no effect once it runs
    return "forkserver"


def start_local_cluster(n_workers: int, preload: tuple[str, ...] = ()) -> Any:
    """A :class:`distributed.LocalCluster` of ``n_workers`` single-threaded worker processes, with
    :func:`worker_config`, started as :func:`start_method` says; the caller closes it.
    ``preload``: modules (the study's) for a fork server to import besides :data:`PRELOAD`.

    The workers import this checkout's package: multiprocessing gives a spawned child, and the fork
    server, the parent's ``sys.path`` (in its order) before anything is unpickled, so they find
    :mod:`helpers` where this process found it. (Nothing is set in ``os.environ``, which a start in a
    background thread would change under the caller's feet.)"""
    import dask
    from distributed import LocalCluster

    method = start_method(tuple(preload))
    with worker_config(), dask.config.set({"distributed.worker.multiprocessing-method": method}):
        return LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True,
            # the scheduler always starts an HTTP server (8787 unless told): a free port,
            # so that two runs at once print no "port in use" warning into the notebook
            # and CRITICAL logs only: a task's error reaches the client as its exception, a lost
            # worker as KilledWorker; what workers log at ERROR is shutdown chatter under load
            # ("Failed to communicate with scheduler during heartbeat" when the scheduler closes
            # first), which the kernel would copy into the notebook's stderr
            dashboard_address=":0", silence_logs=logging.CRITICAL)


class Starting:
    """A client on its way: a LocalCluster started in a background thread, or a client at hand.

    :meth:`ready` says whether :meth:`wait` would return at once; :meth:`close` closes what this
    object started (waiting for a start in progress first), also after an error or Ctrl-C.
    ``seconds`` is the wall time of the start (``None`` until it ended; 0 for a client at hand).
    """

    def __init__(self, client: Any = None, *, n_workers: int | None = None, background: bool = True,
                 kind: str = "started", preload: tuple[str, ...] = ()) -> None:
        self.client, self.cluster, self.error = client, None, None
        self.seconds: float | None = 0.0 if client is not None else None
        #: ``"started"`` (a LocalCluster of this call), ``"shared"`` (the runner's) or ``"address"``
        self.kind = kind
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._abandoned = False
        self._thread: threading.Thread | None = None
        if client is not None:
            self._done.set()
        elif background:
            self._thread = threading.Thread(target=self._start, args=(n_workers, preload), daemon=True,
                                            name="subjeval-cluster-start")
            self._thread.start()
        else:
            self._start(n_workers, preload)

    def _start(self, n_workers: int, preload: tuple[str, ...]) -> None:
        from distributed import Client

        begin = time.perf_counter()
        try:
            self.cluster = start_local_cluster(n_workers, preload)
            self.client = Client(self.cluster)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread by wait()
            self.error = exc
        finally:
            self.seconds = time.perf_counter() - begin
            with self._lock:
                self._done.set()
                abandoned = self._abandoned
            if abandoned:
                self._close_now()

    def ready(self) -> bool:
        return self._done.is_set()

    def wait(self) -> Any:
        """The client (after the start ended); the start's exception if it failed."""
        self._done.wait()
        if self.error is not None:
            raise self.error
        return self.client

    def close(self, wait: bool = True) -> None:
        """Close the client, and the cluster when this object started it (not a running one).
        ``wait=False`` on a start still in progress returns at once: the start's thread closes
        what it started when it ends (nothing is left running)."""
        if not wait:
            with self._lock:
                if not self._done.is_set():
                    self._abandoned = True
                    return
        self._done.wait()
        self._close_now()

    def _close_now(self) -> None:
        for thing in (self.client, self.cluster):
            if thing is not None:
                with contextlib.suppress(Exception):   # already closed, or its loop gone at exit
                    thing.close()


#: The import name this package runs under here (``helpers`` in a checkout, ``subjeval`` installed).
PACKAGE = __name__.split(".")[0]


def package_on_worker(name: str) -> str | None:
    """Runs on each worker: where package ``name`` is imported from (None when it cannot be)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return getattr(module, "__file__", None) or "<namespace package>"


def check_workers(client: Any, address: str) -> None:
    """Every worker of a remote cluster must import this package, from a checkout that looks like ours."""
    found = client.run(package_on_worker, PACKAGE)
    if not found:
        raise ValueError(f"scheduler {address!r} has no workers: start some with "
                         f"`dask worker {address} --nthreads 1`")
    missing = sorted(w for w, f in found.items() if f is None)
    if missing:
        raise ValueError(
            f"the workers {missing} of scheduler {address!r} cannot import {PACKAGE}: install this "
            f"package on every worker (`pip install -c constraints.txt -e '<checkout>[notebooks]'` and "
            f"`python <checkout>/tools/link_checkout.py`; this checkout is {paths.ROOT}) in the same "
            "environment, then restart the workers")
    ours = paths.ROOT.name
    elsewhere = {w: f for w, f in found.items() if Path(f).parent.parent.name != ours}
    if elsewhere:
        warnings.warn(
            f"workers import {PACKAGE} from outside a checkout named {ours!r}: {elsewhere}; "
            f"results are only reproducible if they run the same code as {paths.ROOT}",
            RuntimeWarning, stacklevel=6)  # points at the caller of run_replicates


def _shared_client(address: str) -> Any | None:
    """A client of the notebook runner's cluster, or ``None`` when it cannot be reached or its
    workers do not import this very package (then the caller starts its own cluster)."""
    import dask
    from distributed import Client

    try:
        with dask.config.set({"distributed.comm.timeouts.connect": SHARED_CONNECT_TIMEOUT}):
            client = Client(address, timeout=SHARED_CONNECT_TIMEOUT)
    except (OSError, TimeoutError):
        return None
    try:
        found = set(client.run(package_on_worker, PACKAGE).values())
    except Exception:  # noqa: BLE001 - a cluster that does not answer is not used
        found = set()
    here = importlib.import_module(PACKAGE).__file__
    if not found or any(f is None or os.path.realpath(f) != os.path.realpath(here) for f in found):
        client.close()
        return None
    return client


def would_start(scheduler: str | None) -> bool:
    """Would :func:`connect` start a new LocalCluster for ``scheduler`` (no cluster at hand)?"""
    return scheduler == "local" and not os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip() \
        and not os.environ.get(SHARED_SCHEDULER, "").strip()


def connect(scheduler: str, n_workers: int | None, tasks: int, *, background: bool = True,
            preload: tuple[str, ...] = ()) -> Starting:
    """The client for ``scheduler`` (``"local"`` or an address), as a :class:`Starting`.

    ``"local"`` means the cluster at ``DASK_SCHEDULER_ADDRESS``, else the runner's
    (:data:`SHARED_SCHEDULER`), else a new LocalCluster of ``n_workers`` (default: one per core, at
    most ``tasks``), started in a background thread when ``background``, its workers forked with
    ``preload`` imported (modules of this package only: the study's).
    """
    preload = tuple(m for m in preload if m.split(".")[0] == PACKAGE)
    from distributed import Client

    address = scheduler
    if scheduler == "local":
        address = os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip() or "local"
        shared = os.environ.get(SHARED_SCHEDULER, "").strip()
        if address == "local" and shared:
            client = _shared_client(shared)
            if client is not None:
                return Starting(client, kind="shared")
    if address == "local":
        return Starting(n_workers=n_workers or max(1, min(os.cpu_count() or 1, tasks)), background=background,
                        preload=preload)
    source = "DASK_SCHEDULER_ADDRESS" if scheduler == "local" else "scheduler"
    try:
        client = Client(address)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"{source}: cannot connect to a dask scheduler at {address!r} ({exc})") from exc
    try:
        check_workers(client, address)
    except BaseException:
        client.close()
        raise
    return Starting(client, kind="address")
