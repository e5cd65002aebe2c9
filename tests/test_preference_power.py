"""Notebook 05's single-study power row and the D#-RBP / I-rec granularity (literal inputs)."""
import pandas as pd
import pytest

from helpers.preference import dsharp_irec_bound
from helpers.replicates import preference as rep_pref


def test_smallest_gap_reads_the_one_over_n_steps_of_irec():
    # a filter of 0.05 keeps pairs whose I-rec differs by 0.1 at least (steps of 1/10): the bound then holds
    left = pd.DataFrame({"I-rec": [0.5, 0.3, 0.9]}, index=[1, 2, 3])
    right = pd.DataFrame({"I-rec": [0.4, 0.6, 0.7]}, index=[1, 2, 3])
    step = rep_pref.smallest_gap(left, right, "I-rec", 1e-9)
    assert step == pytest.approx(0.1)
    assert not dsharp_irec_bound(0.99, 10, step)["can_differ"]
    assert dsharp_irec_bound(0.99, 10, 0.05)["can_differ"]   # the filter alone would not prove it
    tied = pd.DataFrame({"I-rec": [0.5 + 1e-12, 0.3, 0.9]}, index=[1, 2, 3])
    assert rep_pref.smallest_gap(tied, left, "I-rec", 1e-9) == 0.0   # a tie within the tolerance is a gap of 0
    with pytest.raises(ValueError, match="I-rec"):
        rep_pref.smallest_gap(left.rename(columns={"I-rec": "x"}), right)
