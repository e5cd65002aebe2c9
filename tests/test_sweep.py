"""helpers.replicates.runner: seeds, serial vs dask byte-identity, grid handling, failures, validation, summaries.

The cluster tests start real LocalClusters (a few seconds each), so there are only four of them and
they run tiny studies.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import psutil
import pytest

from helpers import paths
from helpers.replicates import cluster
from helpers.replicates import runner as sweep

# --------------------------------------------------------------------------------------------
# studies (module level, so that dask workers can import them)
# --------------------------------------------------------------------------------------------


def draws(rng: np.random.Generator, n: int, scale: float, label: str = "x", qrels: pd.DataFrame | None = None,
          wait: float = 0.0):
    """Two rows per call; ``qrels`` stands in for a large common argument; the first cell
    (replicate 0, grid point 0) sleeps ``wait`` seconds so that it finishes last on 2 workers."""
    if rng.bit_generator.seed_seq.spawn_key == (0,):
        time.sleep(wait)
    x = rng.normal(0.0, scale, size=n)
    shift = 0.0 if qrels is None else float(qrels["rel"].sum())
    return pd.DataFrame({"stat": ["mean", "max"], "value": [x.mean() + shift, x.max() + shift]},
                        index=[10, 11])  # a non-default index the sweep must drop


def one_row(rng: np.random.Generator, p: float):
    """One row per call, as a mapping of scalars."""
    k = int(rng.binomial(100, p))
    return {"hits": k, "rate": k / 100, "first": bool(k > 50)}


def fails_at_replicate_1(rng: np.random.Generator, scale: float):
    """Raises in replicate 1 at the grid point scale=2.0 (grid of two points)."""
    replicate = rng.bit_generator.seed_seq.spawn_key[0] // 2  # spawn key is r * J + j
    if scale == 2.0 and replicate == 1:
        raise RuntimeError("study blew up")
    return {"value": rng.normal(0.0, scale)}


def slow(rng: np.random.Generator):
    time.sleep(0.05)
    return {"value": rng.random()}


GRID = [{"scale": 1.0, "label": "a"}, {"scale": 2.0, "label": "b"}]
QRELS = pd.DataFrame({"topic": ["1", "1", "2"], "doc": ["d1", "d2", "d1"], "rel": [1, 0, 2]})


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert a.to_csv() == b.to_csv()


def _leftover_children(before: set[int]) -> list[str]:
    """Child processes started since ``before`` that are still alive (the resource tracker of
    multiprocessing is shared by the whole test process and may outlive a cluster)."""
    deadline = time.monotonic() + 10
    while True:
        alive = [p for p in psutil.Process().children(recursive=True)
                 if p.pid not in before and p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        # the fork server the workers are forked from lives as long as this process, idle
        alive = [p for p in alive if not {"resource_tracker", "forkserver"} & set(" ".join(p.cmdline()).replace(".", " ").split())]
        if not alive or time.monotonic() > deadline:
            return [" ".join(p.cmdline()) for p in alive]
        time.sleep(0.2)


# --------------------------------------------------------------------------------------------
# seeds
# --------------------------------------------------------------------------------------------


def test_seeds_deterministic_distinct_row_major():
    seeds = sweep.replicate_seeds(7, 3, 2)
    assert [len(row) for row in seeds] == [2, 2, 2]
    states = [tuple(s.generate_state(4)) for row in seeds for s in row]
    assert len(set(states)) == 6
    again = [tuple(s.generate_state(4)) for row in sweep.replicate_seeds(7, 3, 2) for s in row]
    assert states == again
    flat = [tuple(s.generate_state(4)) for s in np.random.SeedSequence(7).spawn(6)]
    assert states == flat  # seeds[r][j] is child r * J + j
    assert seeds[2][1].spawn_key == (5,)
    # more replicates keep the first ones; another seed changes everything
    longer = sweep.replicate_seeds(7, 4, 2)
    assert [tuple(s.generate_state(4)) for row in longer[:3] for s in row] == states
    other = [tuple(s.generate_state(4)) for row in sweep.replicate_seeds(8, 3, 2) for s in row]
    assert not set(other) & set(states)
    assert len(sweep.replicate_seeds(0, 1)) == 1 and len(sweep.replicate_seeds(0, 1)[0]) == 1


@pytest.mark.parametrize("kwargs, name", [
    ({"seed": -1, "replicates": 2}, "seed"),
    ({"seed": True, "replicates": 2}, "seed"),
    ({"seed": 1.0, "replicates": 2}, "seed"),
    ({"seed": "1", "replicates": 2}, "seed"),
    ({"seed": 1, "replicates": 0}, "replicates"),
    ({"seed": 1, "replicates": 2.0}, "replicates"),
    ({"seed": 1, "replicates": False}, "replicates"),
    ({"seed": 1, "replicates": 2, "n_points": 0}, "n_points"),
])
def test_seeds_validation(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be an integer"):
        sweep.replicate_seeds(**kwargs)


# --------------------------------------------------------------------------------------------
# serial runs: grid handling, columns, order
# --------------------------------------------------------------------------------------------


def test_serial_grid_columns_and_order():
    df = sweep.run_replicates(draws, 3, 11, grid=GRID, common={"n": 20}, scheduler=None, progress=False)
    assert list(df.columns) == ["replicate", "scale", "label", "stat", "value"]
    assert df.index.equals(pd.RangeIndex(12))
    assert df["replicate"].dtype == np.int64 and df["scale"].dtype == np.float64
    assert df["replicate"].tolist() == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert df["label"].tolist() == ["a", "a", "b", "b"] * 3
    assert df["stat"].tolist() == ["mean", "max"] * 6
    # each cell is the study called with default_rng(seeds[r][j]) and common + grid[j]
    seeds = sweep.replicate_seeds(11, 3, 2)
    for r in range(3):
        for j, point in enumerate(GRID):
            cell = draws(np.random.default_rng(seeds[r][j]), n=20, **point)
            got = df[(df["replicate"] == r) & (df["label"] == point["label"])]
            assert got["value"].tolist() == cell["value"].tolist()


def test_serial_mapping_study_and_no_grid():
    df = sweep.run_replicates(one_row, 4, 3, common={"p": 0.5}, scheduler=None, progress=False)
    assert list(df.columns) == ["replicate", "hits", "rate", "first"]
    assert df["replicate"].tolist() == [0, 1, 2, 3]
    assert df["hits"].dtype == np.int64 and df["first"].dtype == bool
    seeds = sweep.replicate_seeds(3, 4)
    assert df["hits"].tolist() == [one_row(np.random.default_rng(s[0]), 0.5)["hits"] for s in seeds]
    again = sweep.run_replicates(one_row, 4, 3, common={"p": 0.5}, scheduler=None, progress=False)
    _same(df, again)


def test_serial_failure_names_replicate_and_grid_point():
    with pytest.raises(RuntimeError, match="study blew up") as info:
        sweep.run_replicates(fails_at_replicate_1, 3, 5, grid=[{"scale": 1.0}, {"scale": 2.0}],
                             scheduler=None, progress=False)
    assert any("replicate 1, grid point {'scale': 2.0}" in note for note in info.value.__notes__)


def test_study_result_is_checked():
    with pytest.raises(ValueError, match="study must return a pandas DataFrame or a mapping"):
        sweep.run_replicates(lambda rng: [1, 2], 1, 0, scheduler=None, progress=False)
    with pytest.raises(ValueError, match="not scalars"):
        sweep.run_replicates(lambda rng: {"x": [1, 2]}, 1, 0, scheduler=None, progress=False)
    with pytest.raises(ValueError, match=r"study returned columns \['replicate'\]") as info:
        sweep.run_replicates(lambda rng: {"replicate": 1}, 1, 0, scheduler=None, progress=False)
    assert "replicate 0, grid point {}" in info.value.__notes__[0]
    with pytest.raises(ValueError, match=r"study returned columns \['a'\]"):
        sweep.run_replicates(lambda rng, a: {"a": a}, 1, 0, grid=[{"a": 1}], scheduler=None, progress=False)


@pytest.mark.parametrize("kwargs, message", [
    ({"study": "draws"}, r"^study must be a callable"),
    ({"replicates": 0}, r"^replicates must be an integer >= 1"),
    ({"replicates": True}, r"^replicates must be an integer >= 1"),
    ({"seed": -3}, r"^seed must be an integer >= 0"),
    ({"grid": []}, r"^grid must be a non-empty list"),
    ({"grid": {"scale": 1.0}}, r"^grid must be a non-empty list"),
    ({"grid": [{"scale": 1.0}, 2.0]}, r"^grid\[1\] must be a mapping"),
    ({"grid": [{"scale": 1.0}, {"scale": 2.0, "label": "b"}]}, r"^every grid point must have the same keys"),
    ({"grid": [{"scale": 1.0, "n": 3}]}, r"^grid and common both set \['n'\]"),
    ({"grid": [{"rng": 1.0}]}, r"^grid must not use the names \['rng'\]"),
    ({"grid": [{"replicate": 1}]}, r"^grid must not use the names \['replicate'\]"),
    ({"common": {"n": 3, "rng": None}}, r"^common must not use the names \['rng'\]"),
    ({"common": [("n", 3)]}, r"^common must be a mapping"),
    ({"grid": [{1: 1.0}]}, r"^grid keys must be parameter names"),
    ({"scheduler": "locl"}, r"^scheduler must be None \(serial\), 'local' or a scheduler address"),
    ({"scheduler": ""}, r"^scheduler must be None"),
    ({"scheduler": 2}, r"^scheduler must be None"),
    ({"n_workers": 0}, r"^n_workers must be an integer >= 1"),
    ({"progress": "yes"}, r"^progress must be True or False"),
])
def test_run_replicates_validation(kwargs, message):
    args = {"study": draws, "replicates": 2, "seed": 1, "grid": [{"scale": 1.0}], "common": {"n": 3},
            "scheduler": None, "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        sweep.run_replicates(args.pop("study"), args.pop("replicates"), args.pop("seed"), **args)


def test_progress_bar_counts_tasks(capsys):
    sweep.run_replicates(one_row, 2, 0, grid=[{"p": 0.1}, {"p": 0.9}], scheduler=None, progress=True)
    assert "4/4" in capsys.readouterr().err
    sweep.run_replicates(one_row, 2, 0, grid=[{"p": 0.1}, {"p": 0.9}], scheduler=None, progress=False)
    assert capsys.readouterr().err == ""


class _FakeClient:
    """Stands in for a Client of a remote cluster: ``run`` answers for every worker."""

    def __init__(self, answers):
        self.answers = answers

    def run(self, function, *args):
        assert function is cluster.package_on_worker and args == ("helpers",)
        return self.answers


def test_remote_workers_must_import_helpers():
    ours = str(paths.ROOT / "helpers" / "__init__.py")
    cluster.check_workers(_FakeClient({"tcp://w1:1": ours, "tcp://w2:1": ours}), "tcp://s:8786")
    with pytest.raises(ValueError, match=r"workers \['tcp://w2:1'\] of scheduler 'tcp://s:8786' cannot "
                                         r"import helpers: install this package .*pip install.*link_checkout"):
        cluster.check_workers(_FakeClient({"tcp://w1:1": ours, "tcp://w2:1": None}), "tcp://s:8786")
    with pytest.raises(ValueError, match="has no workers"):
        cluster.check_workers(_FakeClient({}), "tcp://s:8786")
    with pytest.warns(RuntimeWarning, match="outside a checkout named"):
        cluster.check_workers(_FakeClient({"tcp://w1:1": "/opt/other/helpers/__init__.py"}), "tcp://s:8786")


def test_package_on_worker_finds_either_name():
    assert cluster.package_on_worker("helpers") == cluster.package_on_worker("subjeval")
    assert cluster.package_on_worker("no_such_package_here") is None


def test_unreachable_scheduler_is_a_value_error(monkeypatch):
    # imported before the variable is set (dask reads DASK_* variables once, at import) and
    # before dask.config.set (which would drop distributed's defaults when it restores the config)
    import dask
    import distributed  # noqa: F401

    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:9")  # discard port: refused
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(ValueError, match=r"^DASK_SCHEDULER_ADDRESS: cannot connect .*127\.0\.0\.1:9"):
            sweep.run_replicates(slow, 1, 0, progress=False)


# --------------------------------------------------------------------------------------------
# dask: byte-identity, failures, remote scheduler (each test starts real worker processes)
# --------------------------------------------------------------------------------------------


def test_serial_one_worker_two_workers_byte_identical(capfd, monkeypatch):
    kwargs = {"grid": GRID, "common": {"n": 30, "qrels": QRELS, "wait": 0.5}, "progress": False}
    pythonpath = os.environ.get("PYTHONPATH")
    serial = sweep.run_replicates(draws, 3, 2024, scheduler=None, **kwargs)
    # the runner's cluster is gone (a kernel kept from an ended run): the call starts its own
    monkeypatch.setenv(cluster.SHARED_SCHEDULER, "tcp://127.0.0.1:9")
    monkeypatch.setattr(cluster, "SHARED_CONNECT_TIMEOUT", "0.5s")
    timings_one: dict = {}
    timings: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # from another thread (as 04 and 05 run replicates beside their work): every cell on the workers
        with ThreadPoolExecutor(1) as pool:
            one = pool.submit(sweep.run_replicates, draws, 3, 2024, scheduler="local", n_workers=1,
                              timings=timings_one, **kwargs).result()
        two = sweep.run_replicates(draws, 3, 2024, scheduler="local", n_workers=2, timings=timings, **kwargs)
    _same(serial, one)
    _same(serial, two)
    assert timings_one["cluster"] == "started" and timings_one["workers"] == 1 and timings_one["cells_on_client"] == 0
    assert timings_one["cluster_start"] > 0 and 1 <= timings_one["tasks"] <= 6
    # from the main thread this process computes cells while the workers start (the first sleeps 0.5 s)
    assert timings["cluster"] == "started" and timings["cells_on_client"] >= 1
    assert os.environ.get("PYTHONPATH") == pythonpath  # restored after the cluster closed
    assert not [str(w.message) for w in caught]  # no "Port 8787 is already in use" and the like
    err = capfd.readouterr().err
    assert "INFO" not in err and "distributed." not in err, err


def test_failure_on_cluster_reraises_and_closes_it():
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with pytest.raises(RuntimeError, match="study blew up") as info:
        sweep.run_replicates(fails_at_replicate_1, 3, 5, grid=[{"scale": 1.0}, {"scale": 2.0}],
                             n_workers=1, progress=False)
    assert any("replicate 1, grid point {'scale': 2.0}" in note for note in info.value.__notes__)
    assert _leftover_children(before) == []
    from distributed import Client

    with pytest.raises(ValueError):
        Client.current()  # no client left behind either


def test_dask_scheduler_address_is_honoured(monkeypatch):
    from distributed import LocalCluster

    serial = sweep.run_replicates(one_row, 3, 99, grid=[{"p": 0.2}, {"p": 0.7}], scheduler=None, progress=False)
    # stands in for a remote cluster whose workers have this checkout installed
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(paths.ROOT), os.environ.get("PYTHONPATH")])))
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as running:
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", running.scheduler_address)
        before = {p.pid for p in psutil.Process().children(recursive=True)}
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # workers import this checkout's helpers
            remote = sweep.run_replicates(one_row, 3, 99, grid=[{"p": 0.2}, {"p": 0.7}], progress=False)
        assert _leftover_children(before) == []  # no local cluster was started
        assert len(running.scheduler_info["workers"]) == 1  # and the remote one is still up
        # the notebook runner's one cluster of a run, handed to the kernels: used, not started again
        monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
        monkeypatch.setenv(cluster.SHARED_SCHEDULER, running.scheduler_address)
        timings: dict = {}
        shared = sweep.run_replicates(one_row, 3, 99, grid=[{"p": 0.2}, {"p": 0.7}], progress=False, timings=timings)
        assert _leftover_children(before) == [] and len(running.scheduler_info["workers"]) == 1
        assert timings["cluster"] == "shared" and timings["cluster_start"] == 0 and timings["cells_on_client"] == 0
    _same(serial, remote)
    _same(serial, shared)


def test_local_with_too_little_work_starts_no_cluster(monkeypatch):
    """scheduler="local" (n_workers unset): the first cell shows the whole study takes well under
    MIN_CLUSTER_SECONDS, so every cell runs here and no worker process is started."""
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    monkeypatch.delenv(cluster.SHARED_SCHEDULER, raising=False)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    timings: dict = {}
    local = sweep.run_replicates(one_row, 5, 7, grid=[{"p": 0.3}, {"p": 0.6}], progress=False, timings=timings)
    assert timings == {"cluster": "none", "cluster_start": 0.0, "workers": 0, "cells_on_client": 10, "tasks": 0}
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before
    _same(local, sweep.run_replicates(one_row, 5, 7, grid=[{"p": 0.3}, {"p": 0.6}], scheduler=None, progress=False))


def test_the_plan_probes_every_point_then_sends_the_dearest_cells_first_in_shrinking_tasks():
    """Cost-aware batching: N = 40 cells (here 10x dearer) go first, in long tasks; the last tasks
    are short; every cell is run exactly once."""
    cells = [(r, j) for r in range(20) for j in range(4)]
    plan = sweep._Plan(cells, workers=2)
    probes = [plan.next() for _ in range(4)]
    assert probes == [[(0, 0)], [(0, 1)], [(0, 2)], [(0, 3)]]      # one cell of each point, alone
    assert plan.next() == [(1, 0)]                                 # nothing measured yet: one cell at a time
    for j, seconds in enumerate([0.1, 1.0, 0.1, 1.0]):
        plan.record(j, seconds)
    batches = []
    while plan:
        batches.append(plan.next())
    seen = [c for b in probes + [[(1, 0)]] + batches for c in b]
    assert sorted(seen) == sorted(cells) and len(seen) == len(cells)
    dear = [k for k, b in enumerate(batches) if any(j in (1, 3) for _, j in b)]
    cheap = [k for k, b in enumerate(batches) if any(j in (0, 2) for _, j in b)]
    assert max(dear) <= min(cheap)                                   # the dearest cells first
    cost = [sum(1.0 if j in (1, 3) else 0.1 for _, j in b) for b in batches]
    assert cost[0] >= 5 and cost[-1] <= sweep.MIN_TASK_SECONDS       # long first, short last
    assert all(a >= b - 1e-9 for a, b in zip(cost[:len(dear)], cost[1:len(dear)]))  # shrinking
    assert len(batches) < len(seen) / 2                              # and far fewer tasks than cells


# --------------------------------------------------------------------------------------------
# summaries
# --------------------------------------------------------------------------------------------


def _hand_made() -> pd.DataFrame:
    return pd.DataFrame({
        "replicate": [0, 0, 1, 1, 2, 2, 3, 3],
        "measure": ["nDCG", "AP"] * 4,
        "tau": [0.5, 0.1, 0.7, 0.2, 0.6, 0.3, 1.0, np.nan],
        "first": [True, False, False, True, True, False, True, False],
    })


def test_summarise_exact_numbers():
    out = sweep.summarise(_hand_made(), "tau", by=["measure"], level=0.5)
    assert list(out.columns) == ["measure", "mean", "low", "high", "sd", "replicates", "interval"]
    assert out["measure"].tolist() == ["nDCG", "AP"]  # order of first appearance, not sorted
    ndcg = np.array([0.5, 0.7, 0.6, 1.0])
    assert out.loc[0, "mean"] == pytest.approx(0.7, abs=1e-15)
    assert out.loc[0, "low"] == np.quantile(ndcg, 0.25) == pytest.approx(0.575)
    assert out.loc[0, "high"] == np.quantile(ndcg, 0.75) == pytest.approx(0.775)
    assert out.loc[0, "sd"] == pytest.approx(np.sqrt(0.14 / 3), abs=1e-15)
    # AP: the missing value is skipped and not counted; 3 values are too few for a 50% percentile
    # interval (the rule needs 4: a value beyond each quartile), so low/high are the range
    assert out.loc[1, "mean"] == pytest.approx(0.2, abs=1e-15)
    assert (out.loc[1, "low"], out.loc[1, "high"]) == pytest.approx((0.1, 0.3))
    assert out["interval"].tolist() == ["50% interval", "range"]
    assert out.loc[1, "sd"] == pytest.approx(0.1, abs=1e-15)
    assert out["replicates"].tolist() == [4, 3] and out["replicates"].dtype == np.int64
    whole = sweep.summarise(_hand_made().drop(columns="replicate"), "tau")  # pooled on purpose
    assert list(whole.columns) == ["mean", "low", "high", "sd", "replicates", "interval"] and len(whole) == 1
    assert whole.loc[0, "replicates"] == 7 and whole.loc[0, "mean"] == pytest.approx(3.4 / 7)


def test_summarise_default_level_and_one_replicate():
    df = pd.DataFrame({"replicate": range(5), "x": [0.0, 1.0, 2.0, 3.0, 4.0]})
    out = sweep.summarise(df, "x")
    # 5 draws are too few for a 95% interval (the rule needs 40): the range is reported
    assert (out.loc[0, "low"], out.loc[0, "high"], out.loc[0, "interval"]) == (0.0, 4.0, "range")
    wide = sweep.summarise(df, "x", level=0.5)
    assert (wide.loc[0, "low"], wide.loc[0, "high"]) == pytest.approx((1.0, 3.0))
    assert out.loc[0, "mean"] == 2.0 and out.loc[0, "sd"] == pytest.approx(np.sqrt(2.5))
    one = sweep.summarise(df.head(1), "x")
    assert one.loc[0, "mean"] == one.loc[0, "low"] == one.loc[0, "high"] == 0.0
    assert np.isnan(one.loc[0, "sd"]) and one.loc[0, "replicates"] == 1


def test_share_exact_numbers():
    df = _hand_made()
    out = sweep.share(df, "first", by=["measure"])
    assert list(out.columns) == ["measure", "share", "replicates"]
    assert out["measure"].tolist() == ["nDCG", "AP"]
    assert out["share"].tolist() == [0.75, 0.25] and out["replicates"].tolist() == [4, 4]
    above = sweep.share(df, df["tau"] >= 0.6, by=["measure"])
    assert above["share"].tolist() == [0.75, 0.0]
    ndcg = df[df["measure"] == "nDCG"]
    assert sweep.share(ndcg, "first").to_dict("list") == {"share": [0.75], "replicates": [4]}


@pytest.mark.parametrize("call, message", [
    (lambda df: sweep.summarise(df, "nope"), r"^value: column 'nope' is not in the frame"),
    (lambda df: sweep.summarise(df, "tau", by=["nope"]), r"^by: columns \['nope'\] are not in the frame"),
    (lambda df: sweep.summarise(df, "measure"), r"^value: column 'measure' must be numeric"),
    (lambda df: sweep.summarise(df, "first"), r"use share\(\) for booleans"),
    (lambda df: sweep.summarise(df, "tau", level=1.0), r"^level must be a number in \(0, 1\)"),
    (lambda df: sweep.summarise(df, "tau"), r"^summarise: several rows per replicate"),
    (lambda df: sweep.share(df, "nope", by=["measure"]), r"^condition: column 'nope' is not in the frame"),
    (lambda df: sweep.share(df, "tau", by=["measure"]), r"^condition must be boolean"),
    (lambda df: sweep.share(df, df["first"].iloc[::-1].reset_index(drop=True).iloc[:4], by=["measure"]),
     r"^condition must be a boolean Series with the same index"),
    (lambda df: sweep.share(df, "first", by=["nope"]), r"^by: columns \['nope'\]"),
    (lambda df: sweep.share(df, "first"), r"^share: several rows per replicate"),
])
def test_summary_validation(call, message):
    with pytest.raises(ValueError, match=message):
        call(_hand_made())


def test_a_worker_task_sets_its_blas_to_one_thread():
    """runner._batch (what a dask worker runs) limits the process's BLAS to one thread, which the
    nanny's OMP_NUM_THREADS cannot do for a numpy the fork server loaded (checked in a child process)."""
    import subprocess
    import sys

    code = ("from threadpoolctl import threadpool_info; from helpers.replicates import runner; "
            "runner._batch(lambda rng: {'x': 1.0}, [], {}); "
            "print(sorted({p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}))")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=paths.ROOT, env=env,
                         check=True).stdout
    assert out.strip() in ("[1]", "[]"), out   # [] only where numpy has no BLAS pool threadpoolctl can see
