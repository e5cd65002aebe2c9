"""Shared test fixtures. Tests never write into the committed reports/ folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_reports(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path_factory.mktemp("reports")))


def pytest_report_header(config):
    from _fuzz_space import SEED
    from test_trec_eval_differential import EXAMPLES, SEED as DIFF_SEED
    return [f"configuration fuzz (tests/test_fuzz_notebooks.py): SUBJEVAL_FUZZ_SEED={SEED}",
            f"NIST trec_eval differential tests: SUBJEVAL_DIFF_SEED={DIFF_SEED}, {EXAMPLES} examples per format"]
