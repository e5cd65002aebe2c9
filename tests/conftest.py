"""Shared test fixtures. Tests never write into the committed reports/ folder."""

from __future__ import annotations

import os
import resource
import time

import pytest


@pytest.fixture(autouse=True)
def _isolated_reports(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path_factory.mktemp("reports")))


@pytest.fixture(scope="session")
def nist():
    """NIST's trec_eval 10 built from its sources (tests/_nist.py); skipped where it cannot be built."""
    import _nist

    try:
        return _nist.build()
    except RuntimeError as exc:
        pytest.skip(f"NIST trec_eval cannot be built here: {exc}")


@pytest.fixture
def run_demo_notebooks(monkeypatch):
    """Run these notebooks as the whole of a `notebooks run` (profile "ci", no parameter files, no
    HTML); returns the run's results and what it printed."""
    import io

    from helpers.notebook import pipeline

    def run(books, **kwargs):
        monkeypatch.setattr(pipeline, "discover", lambda only=None: books)
        monkeypatch.setattr(pipeline, "load_parameters", lambda nb, profile: {})
        monkeypatch.setattr(pipeline, "check_profile", lambda profile: None)
        out = io.StringIO()
        return pipeline.run("ci", html=False, stream=out, **kwargs), out.getvalue()

    return run


SLOW = os.environ.get("SUBJEVAL_SLOW_TESTS") == "1"


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` are left out of make test (its budget is 10 minutes on 2 cores) and
    run with SUBJEVAL_SLOW_TESTS=1 (make test-slow)."""
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: runs with make test-slow (SUBJEVAL_SLOW_TESTS=1)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_report_header(config):
    from _fuzz_space import SEED
    from test_trec_eval_differential import EXAMPLES, SEED as DIFF_SEED
    return [f"configuration fuzz (tests/test_fuzz_notebooks.py): SUBJEVAL_FUZZ_SEED={SEED}",
            f"NIST trec_eval differential tests: SUBJEVAL_DIFF_SEED={DIFF_SEED}, {EXAMPLES} examples per format"]


# The test budget (make test <= 10 min on 2 cores) is kept by measuring, not guessing: with
# SUBJEVAL_TEST_CPU_LOG=<file>, every test appends "cpu seconds <tab> wall seconds <tab> node id",
# CPU counted for the test's process and every child it reaped (notebook kernels, subprocesses).
# CPU time barely depends on what else the machine runs; tools/test_budget.py sums it.
_CPU_LOG = os.environ.get("SUBJEVAL_TEST_CPU_LOG")

if _CPU_LOG:
    def _cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        cpu, wall = _cpu(), time.perf_counter()
        yield
        with open(_CPU_LOG, "a", encoding="utf-8") as log:
            log.write(f"{_cpu() - cpu:.2f}\t{time.perf_counter() - wall:.2f}\t{item.nodeid}\n")
