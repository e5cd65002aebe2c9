"""Bad inputs of the third probe round of issue 40 (one new example per class)."""
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import measures
from helpers.measures.kernels import evaluate_arrays

QRELS = pd.DataFrame({"query_id": ["5", "5", "7"], "doc_id": ["a", "b", "c"], "relevance": [2, 1, 1]})
RUN = pd.DataFrame({"query_id": ["5", "5", "7"], "doc_id": ["b", "a", "c"], "score": [2.0, 1.0, 1.0],
                    "run_id": "s"})


def ev(q=QRELS, r=RUN, **kw):
    kw.setdefault("measures", ["AP"])
    kw.setdefault("conventions", "ntcireval")
    return measures.evaluate(q, r, **kw)


# 1. float measure parameters whose arithmetic overflows
@pytest.mark.parametrize("name", ["P+(beta=1e200)", "EBR(beta=-1e300)", "iRBU(e=1e150)@5",
                                  "NCU(stop=rb,util=BR,beta=2e101)"])
def test_overflowing_parameter_refused(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match="at most 1e\\+100"):
            ev(measures=[name])


def test_overflowing_product_refused_in_kernel():
    g = np.array([[1e250, 1e250, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match="overflow double precision"):
            evaluate_arrays(g, g, ["Q(beta=1e99)"])
