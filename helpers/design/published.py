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

__all__ = ["FIXTURES", "DATA_LABELS", "gt_reproductions"]

FIXTURES: Path = paths.ROOT / "tests" / "data"


def _ci(v: float, lo: float, hi: float, digits: int) -> str:
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _n_ci(t) -> str:
    return f"{t.n} [{t.ci[0]}, {t.ci[1]}]"


Row = tuple[str, str, Callable[[], str]]


def _components(g, published: dict[str, str], fmt: str) -> list[Row]:
    """One row per variance component, in Brennan's notation (``σ² st``)."""
    return [(f"σ² {k}", pub, lambda k=k: format(g.variance[k], fmt)) for k, pub in published.items()]


def _adhoc3(g) -> list[Row]:
    d, d99 = d_study(g), d_study(g, level=.99)
    return [
        *_components(g, {"s": "0.0028117", "t": "0.028093", "st": "0.010152"}, ".5g"),
        ("Eρ²(50), 95%", "0.93265 [0.89311, 0.96287]", lambda: _ci(d.erho2, *d.erho2_ci, 5)),
        ("Eρ²(50), 99%", "[0.87737, 0.96967]", lambda: f"[{d99.erho2_ci[0]:.5f}, {d99.erho2_ci[1]:.5f}]"),
        ("Φ(50), 95%", "0.78613 [0.66141, 0.88039]", lambda: _ci(d.phi, *d.phi_ci, 5)),
        ("Eρ²(100)", "0.96515", lambda: f"{d_study(g, 100).erho2:.5f}"),
        ("topics, Eρ² ≥ 0.95", "69 [37, 114]", lambda: _n_ci(topics_needed(g, .95))),
        ("topics, Φ ≥ 0.95", "259 [130, 487]", lambda: _n_ci(topics_needed(g, .95, "phi"))),
        ("topics, Eρ² ≥ 0.97", "117", lambda: f"{topics_needed(g, .97).n}"),
        ("topics, Φ ≥ 0.9", "123", lambda: f"{topics_needed(g, .9, 'phi').n}"),
        ("gt2tau(0.95)", "0.86412", lambda: f"{gt_map('tau', .95):.5f}"),
    ]


def _synthetic4(g) -> list[Row]:
    d = d_study(g, level=.8)
    return [*_components(g, {"s": "0.6258", "t": "0.8840", "st": "2.7872"}, ".4f"),
            ("Eρ², 80%", "0.729 [0.541, 0.876]", lambda: _ci(d.erho2, *d.erho2_ci, 3)),
            ("Φ, 80%", "0.672 [0.457, 0.845]", lambda: _ci(d.phi, *d.phi_ci, 3))]


def _no3(g) -> list[Row]:
    d = d_study(g)
    published = {"s": "0.5528", "t": "0.4417", "a": "0.0074", "st": "0.5750", "sa": "0.1009", "ta": "0.1565",
                 "sta": "0.9352"}
    return [*_components(g, published, ".4f"),
            ("Eρ²", "0.64", lambda: f"{d.erho2:.2f}"), ("Φ", "0.55", lambda: f"{d.phi:.2f}"),
            *((f"Eρ² at (t, a) = ({t}, {a})", pub, lambda t=t, a=a: f"{d_study(g, t, a).erho2:.3f}")
              for (t, a), pub in (((8, 1), "0.656"), ((4, 2), "0.640"), ((2, 4), "0.563")))]


def _no4(g) -> list[Row]:
    d = d_study(g)
    published = {"s": "0.4731", "t": "0.3252", "a:t": "0.6475", "st": "0.5596", "sa:t": "2.3802"}
    return [*_components(g, published, ".4f"),
            ("Eρ²", "0.55", lambda: f"{d.erho2:.2f}"), ("Φ", "0.46", lambda: f"{d.phi:.2f}")]


#: The short data labels of the table; the caption (helpers.notebook.captions, "06_gt_reproductions")
#: says what each is.
DATA_LABELS = {"adhoc3": "adhoc3", "synthetic4": "synthetic4", "no3": "Brennan No. 3", "no4": "Brennan No. 4"}


def gt_reproductions(root: Path | None = None) -> pd.DataFrame:
    """Every published value of the four data sets beside this package's, at the printed digits.

    One row per value: per variance component, per (topics, assessors) design, per target. The
    data are named short (:data:`DATA_LABELS`): ``adhoc3`` is gt4ireval's TREC-3 AP matrix with
    ``drop = 0.25``; ``synthetic4`` is Brennan's No. 4 read as p × i; Brennan No. 3 is p × i × o
    (s × t × a) and Brennan No. 4 is p × (r:t) (s × (a:t)).

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
        (DATA_LABELS["adhoc3"], _adhoc3(g_study(pd.read_csv(files["adhoc3"], index_col="query"), drop=.25))),
        (DATA_LABELS["synthetic4"], _synthetic4(g_study(pd.read_csv(files["synthetic4"], index_col="query")))),
        (DATA_LABELS["no3"], _no3(g_study(pd.read_csv(files["no3"], dtype={"score": float}), "s x t x a"))),
        (DATA_LABELS["no4"], _no4(g_study(pd.read_csv(files["no4"], dtype={"score": float}), "s x (a:t)"))),
    ]
    rows = [{"data": data, "quantity": q, "published": pub, "this_run": run()}
            for data, items in cases for q, pub, run in items]
    out = pd.DataFrame(rows)
    out["same"] = out["published"] == out["this_run"]
    return out
