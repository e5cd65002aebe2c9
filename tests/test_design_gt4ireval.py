"""gt4ireval 2.0's testthat suite ported to pytest, and the values of its vignette (adhoc3).

The data sets are gt4ireval's (MIT, Julian Urbano; tests/data/gt4ireval with LICENSE and
NOTICE.md): ``synthetic4`` is Brennan's synthetic data set No. 4 as p x i (Brennan 2001, Tables
6.2 and 6.5), ``adhoc3`` the AP of the 40 TREC-3 ad hoc runs on 50 topics.  testthat's
``expect_equal(x, y, tolerance = t)`` compares relatively: ``|x - y| / |y| < t``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.design import d_study, g_study, gt_map, topics_needed

DATA = __import__("pathlib").Path(__file__).parent / "data" / "gt4ireval"


@pytest.fixture(scope="module")
def synthetic4() -> pd.DataFrame:
    return pd.read_csv(DATA / "synthetic4.csv", index_col="query")


@pytest.fixture(scope="module")
def adhoc3() -> pd.DataFrame:
    return pd.read_csv(DATA / "adhoc3.csv", index_col="query")


def _close(x, y, tol):
    assert abs(x - y) / abs(y) < tol, (x, y)


# --- test.gstudy.R ------------------------------------------------------------------------------

def test_gstudy_synthetic_valid_args(synthetic4):
    g = g_study(synthetic4)
    assert g.n["s"] == 10 and g.n["t"] == 12
    _close(g.variance["s"], .6258, 1e-4)
    _close(g.variance["t"], .8840, 1e-4)
    _close(g.variance["st"], 2.7872, 1e-4)
    _close(g.mean_squares["s"], 10.2963, 1e-4)
    _close(g.mean_squares["t"], 11.6273, 1e-4)
    _close(g.mean_squares["st"], 2.7872, 1e-4)
    assert g_study(synthetic4, drop=.3).n["s"] == 7          # 2nd and 3rd are tied
    assert g_study(synthetic4, drop=.3).n["t"] == 12
    assert g_study(synthetic4, drop=.2).n["s"] == 9


def test_gstudy_synthetic_invalid_args(synthetic4):
    with pytest.raises(ValueError, match="DataFrame"):
        g_study(np.arange(1, 5))
    with pytest.raises(ValueError, match=r"drop must be a fraction in \[0, 1\)"):
        g_study(synthetic4, drop=-.1)
    with pytest.raises(ValueError, match=r"drop must be a fraction in \[0, 1\)"):
        g_study(synthetic4, drop=1.1)


# --- test.dstudy.R ------------------------------------------------------------------------------

def test_dstudy_synthetic_valid_args(synthetic4):
    d = d_study(g_study(synthetic4), level=.8)        # gt4ireval alpha = .1: 80% two-sided
    assert d.n_topics == 12
    for got, want in ((d.erho2, .729), (d.erho2_ci[0], .541), (d.erho2_ci[1], .876),
                      (d.phi, .672), (d.phi_ci[0], .457), (d.phi_ci[1], .845)):
        _close(got, want, 1e-3)


def test_dstudy_synthetic_invalid_args(synthetic4):
    g = g_study(synthetic4)
    with pytest.raises(ValueError, match="GStudy"):
        d_study(np.arange(1, 4))
    with pytest.raises(ValueError, match="n_topics must be >= 1"):
        d_study(g, n_topics=-1)
    with pytest.raises(ValueError, match="target must be strictly between 0 and 1"):
        topics_needed(g, -.1)
    with pytest.raises(ValueError, match="target must be strictly between 0 and 1"):
        topics_needed(g, 1)
    for level in (-.01, 1.01, 0, 1):
        with pytest.raises(ValueError, match="level must be strictly between 0 and 1"):
            d_study(g, level=level)


# --- the vignette (adhoc3, drop = .25) ----------------------------------------------------------

def test_vignette_adhoc3(adhoc3):
    g = g_study(adhoc3, drop=.25)
    assert (g.n["s"], g.n["t"]) == (30, 50)
    assert f"{g.variance['s']:.5g}/{g.variance['t']:.5g}/{g.variance['st']:.5g}" == "0.0028117/0.028093/0.010152"
    d = d_study(g)
    assert f"{d.erho2:.5f} [{d.erho2_ci[0]:.5f}, {d.erho2_ci[1]:.5f}]" == "0.93265 [0.89311, 0.96287]"
    assert f"{d.phi:.5f} [{d.phi_ci[0]:.5f}, {d.phi_ci[1]:.5f}]" == "0.78613 [0.66141, 0.88039]"
    e, p = topics_needed(g, .95), topics_needed(g, .95, "phi")
    assert (e.n, *e.ci) == (69, 37, 114)
    assert (p.n, *p.ci) == (259, 130, 487)
    assert f"{d_study(g, 100).erho2:.5f}" == "0.96515"
    assert topics_needed(g, .97).n == 117
    assert topics_needed(g, .9, "phi").n == 123
    lo, hi = d_study(g, level=.99).erho2_ci
    assert f"[{lo:.5f}, {hi:.5f}]" == "[0.87737, 0.96967]"
    assert topics_needed(g, .95, "phi", level=.90).ci == (145, 439)
    lo, hi = d_study(g, 200).phi_ci
    assert f"[{lo:.5f}, {hi:.5f}]" == "[0.88654, 0.96715]"
    assert f"{gt_map('tau', .95):.5f}" == "0.86412"
    assert f"{100 * gt_map('rsens', .8):.3f}" == "12.389"


def test_vignette_grid_is_vectorised(adhoc3):
    g = g_study(adhoc3, drop=.25)
    nt = np.arange(10, 201, 10)
    d = d_study(g, nt)
    single = [d_study(g, int(n)) for n in nt]
    np.testing.assert_allclose(d.erho2, [s.erho2 for s in single], rtol=1e-14)
    np.testing.assert_allclose(d.phi_ci[0], [s.phi_ci[0] for s in single], rtol=1e-14)
    assert np.all(np.diff(d.erho2) > 0) and np.all(np.diff(d.phi_ci[1]) > 0)


def test_gt_map_refuses_values_outside_the_unit_interval():
    with pytest.raises(ValueError, match=r"in \(0, 1\)"):
        gt_map("tau", 1.0)
    with pytest.raises(ValueError, match="indicator must be one of"):
        gt_map("kendall", .9)
