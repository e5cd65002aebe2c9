"""Published G- and D-study values recomputed by :mod:`helpers.design`: gt4ireval 2.0's vignette
(``adhoc3``) and testthat suite (``synthetic4``), and Brennan's synthetic data sets No. 3 (crossed)
and No. 4 (nested), each at the digits its source prints.

The data sets are the test fixtures of the checkout (``tests/data/gt4ireval``: MIT, Julián Urbano;
``tests/data/brennan``: from GeneralizIT's fixtures, MIT; the notices are there).  Sources:
gt4ireval's ``vignettes/gt4ireval.Rmd`` and ``tests/testthat``; Brennan, *Generalizability
Theory* (Springer 2001), Tables 6.2 and 6.5 (No. 4 as p x i), ch. 4 (No. 3 as p x i x o, No. 4 as
p x (r:t)).  ``tests/test_design_gt4ireval.py`` and ``tests/test_design_brennan.py`` pin the same
values one by one; :func:`gt_reproductions` puts them in one table for notebook 06.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

from .. import paths
from .dstudy import d_study, gt_map, topics_needed
from .gstudy import g_study

__all__ = ["FIXTURES", "gt_reproductions"]

FIXTURES: Path = paths.ROOT / "tests" / "data"


def _ci(v: float, lo: float, hi: float, digits: int) -> str:
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _adhoc3(g) -> list[tuple[str, str, Callable[[], str]]]:
    d, d99 = d_study(g), d_study(g, level=.99)
    return [
        ("σ² s / t / st", "0.0028117/0.028093/0.010152",
         lambda: "/".join(f"{g.variance[k]:.5g}" for k in ("s", "t", "st"))),
        ("Eρ²(50), 95%", "0.93265 [0.89311, 0.96287]", lambda: _ci(d.erho2, *d.erho2_ci, 5)),
        ("Φ(50), 95%", "0.78613 [0.66141, 0.88039]", lambda: _ci(d.phi, *d.phi_ci, 5)),
        ("topics for Eρ² ≥ 0.95", "69 [37, 114]", lambda: "{} [{}, {}]".format(
            *(lambda t: (t.n, *t.ci))(topics_needed(g, .95)))),
        ("topics for Φ ≥ 0.95", "259 [130, 487]", lambda: "{} [{}, {}]".format(
            *(lambda t: (t.n, *t.ci))(topics_needed(g, .95, "phi")))),
        ("Eρ²(100)", "0.96515", lambda: f"{d_study(g, 100).erho2:.5f}"),
        ("topics for Eρ² ≥ 0.97; Φ ≥ 0.9", "117; 123",
         lambda: f"{topics_needed(g, .97).n}; {topics_needed(g, .9, 'phi').n}"),
        ("99% interval of Eρ²(50)", "[0.87737, 0.96967]", lambda: f"[{d99.erho2_ci[0]:.5f}, {d99.erho2_ci[1]:.5f}]"),
        ("gt2tau(0.95)", "0.86412", lambda: f"{gt_map('tau', .95):.5f}"),
    ]


def _synthetic4(g) -> list[tuple[str, str, Callable[[], str]]]:
    d = d_study(g, level=.8)
    return [("σ² s / t / st", "0.6258/0.8840/2.7872", lambda: "/".join(f"{g.variance[k]:.4f}" for k in ("s", "t", "st"))),
            ("Eρ², 80%", "0.729 [0.541, 0.876]", lambda: _ci(d.erho2, *d.erho2_ci, 3)),
            ("Φ, 80%", "0.672 [0.457, 0.845]", lambda: _ci(d.phi, *d.phi_ci, 3))]


def _no3(g) -> list[tuple[str, str, Callable[[], str]]]:
    d = d_study(g)
    keys = ("s", "t", "a", "st", "sa", "ta", "sta")
    return [("σ² s / t / a / st / sa / ta / sta", "0.5528/0.4417/0.0074/0.5750/0.1009/0.1565/0.9352",
             lambda: "/".join(f"{g.variance[k]:.4f}" for k in keys)),
            ("Eρ², Φ", "0.64, 0.55", lambda: f"{d.erho2:.2f}, {d.phi:.2f}"),
            ("Eρ² at (t, a) = (8, 1), (4, 2), (2, 4)", "0.656, 0.640, 0.563",
             lambda: ", ".join(f"{d_study(g, t, a).erho2:.3f}" for t, a in ((8, 1), (4, 2), (2, 4))))]


def _no4(g) -> list[tuple[str, str, Callable[[], str]]]:
    d = d_study(g)
    keys = ("s", "t", "a:t", "st", "sa:t")
    return [("σ² s / t / a:t / st / sa:t", "0.4731/0.3252/0.6475/0.5596/2.3802",
             lambda: "/".join(f"{g.variance[k]:.4f}" for k in keys)),
            ("Eρ², Φ", "0.55, 0.46", lambda: f"{d.erho2:.2f}, {d.phi:.2f}")]


def gt_reproductions(root: Path | None = None) -> pd.DataFrame:
    """Every published value of the four data sets beside this package's, at the printed digits.

    Returns
    -------
    pandas.DataFrame
        ``data``, ``quantity``, ``published``, ``this_run`` (strings as printed) and ``same``.

    Raises
    ------
    ValueError
        When the fixtures are not there (the package installed without the checkout's tests).
    """
    root = FIXTURES if root is None else Path(root)
    files = {"adhoc3": root / "gt4ireval" / "adhoc3.csv", "synthetic4": root / "gt4ireval" / "synthetic4.csv",
             "no3": root / "brennan" / "synthetic3_p_x_i_x_o.csv", "no4": root / "brennan" / "synthetic4_p_x_r_in_t.csv"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise ValueError(f"the reproduction fixtures are not there: {missing} (they live in the checkout's tests/data)")
    cases = [
        ("gt4ireval adhoc3 (TREC-3 AP, drop 0.25)",
         _adhoc3(g_study(pd.read_csv(files["adhoc3"], index_col="query"), drop=.25))),
        ("gt4ireval synthetic4 (Brennan No. 4 as p × i)",
         _synthetic4(g_study(pd.read_csv(files["synthetic4"], index_col="query")))),
        ("Brennan No. 3, p × i × o (s × t × a)",
         _no3(g_study(pd.read_csv(files["no3"], dtype={"score": float}), "s x t x a"))),
        ("Brennan No. 4, p × (r:t) (s × (a:t))",
         _no4(g_study(pd.read_csv(files["no4"], dtype={"score": float}), "s x (a:t)"))),
    ]
    rows = [{"data": data, "quantity": q, "published": pub, "this_run": run()}
            for data, items in cases for q, pub, run in items]
    out = pd.DataFrame(rows)
    out["same"] = out["published"] == out["this_run"]
    return out
