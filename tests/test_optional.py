"""Optional dependencies (the ``notebooks`` extra) missing in a core-only install give one clear
error naming the package and the extra, not a bare ModuleNotFoundError (issue 19)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import helpers
from helpers import stats
from helpers.replicates import runner as sweep


@pytest.fixture
def without(monkeypatch):
    def block(*names):
        for name in names:
            monkeypatch.setitem(sys.modules, name, None)   # makes `import name` raise
    return block


def test_optional_names_the_extra(without):
    without("krippendorff")
    with pytest.raises(ModuleNotFoundError, match=r"Krippendorff's alpha needs the optional package "
                                                  r"'krippendorff'.*subjective-ir-eval\[notebooks\]"):
        stats.krippendorff_alpha(np.array([[1, 2, 2], [1, 2, 1]]), level="ordinal")


def test_replicates_on_dask_name_the_extra(without):
    without("distributed")
    with pytest.raises(ModuleNotFoundError, match="'distributed'.*notebooks"):
        sweep.run_replicates(lambda rng: {"v": 1.0}, 1, seed=0, scheduler="local")


def test_optional_returns_the_module():
    assert helpers.optional("numpy", "anything") is np
