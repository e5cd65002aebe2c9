"""Writing notebook outputs: figures, tables and key numbers, atomically and byte-stably.

One helper per kind of output, so that every notebook writes to the same layout::

    reports/figures/NN_name/<figure>.{pdf,png}
    reports/tables/NN_<table>.{csv,tex}
    reports/metrics/NN_name.json

(under ``reports/<profile>/`` for the other canonical profiles, see :func:`helpers.paths.reports_dir`;
a run whose parameters are not those of a canonical profile writes under
``reports/runs/<profile>-<hash>/`` instead, see :func:`helpers.notebook.params.run_folder`).
Every write goes to a temporary file and is renamed into place (:mod:`helpers.io.files`), so no
file is ever half-written under its final name; in a notebook run the files are first written
aside and published as one set when the notebook ends (:mod:`helpers.notebook.outputs`), so a
folder never mixes two runs of a notebook. Tables are written as CSV and as LaTeX (:mod:`helpers.notebook.latex`). PDFs carry no creation
date and PNGs no software stamp, so reruns are byte-identical.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..io.files import atomic_write_bytes, atomic_write_text, safe_stem
from .. import paths
from . import captions, outputs, params
from .latex import LATEX_HEADERS, LONGTABLE_ROWS, TABLE_WIDTH_PT, latex_escape, latex_table
from ..paths import reports_dir, reports_root

__all__ = ["Reporter", "csv_safe_labels", "table_label", "default_caption", "show", "environment_report", "conclusion", "fmt_list",
           # written here, defined in the modules that own them
           "atomic_write_bytes", "atomic_write_text", "latex_table", "latex_escape", "LATEX_HEADERS",
           "TABLE_WIDTH_PT", "LONGTABLE_ROWS"]


#: Significant digits of the floats in a metrics file. Sums of many floats differ in their last bits
#: between machines (SIMD widths, BLAS builds, the order in which dask returns partial results); 12
#: digits keep every reported number exact to far below its printed precision while a rerun on
#: another machine writes the same bytes, so ``make reproduce`` leaves ``git status`` clean.
METRICS_DIGITS = 12


def _jsonable(obj: Any, digits: int | None = None) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v, digits) for v in obj]
    if isinstance(obj, np.ndarray):
        return [_jsonable(v, digits) for v in obj.tolist()]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        value = float(obj)
        if math.isnan(value) or math.isinf(value):
            return None
        return float(f"{value:.{digits}g}") if digits else value
    if isinstance(obj, (np.bool_,)):
        return bool(obj)
    if isinstance(obj, pd.DataFrame):
        return _jsonable(obj.to_dict(orient="records"), digits)
    return obj


def _display_png(png: bytes, fig, dpi: int) -> None:
    """Display PNG bytes (saved at ``dpi``) at the size the inline backend gives ``fig``, and close
    the figure so that the backend does not render it again."""
    import struct

    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    width = struct.unpack(">I", png[16:20])[0]   # the IHDR chunk: width, then height, in pixels
    display(Image(data=png, format="png", width=max(1, round(width * float(fig.dpi) / dpi))))
    plt.close(fig)


class Reporter:
    """Output writer of one notebook.

    Parameters
    ----------
    notebook : str
        The notebook's stem, e.g. ``"01_gain_definitions"``; its two-digit prefix names the files.
    profile : str
        Parameter profile (``"default"``, ``"ci"``, ``"real"``...), see :func:`helpers.paths.reports_dir`.
    """

    def __init__(self, notebook: str, profile: str = "default", *, values: dict | None = None,
                 announce: bool = True) -> None:
        if len(notebook) < 3 or not notebook[:2].isdigit() or notebook[2] != "_":
            raise ValueError(f"notebook must look like 'NN_name', got {notebook!r}")
        self.notebook = notebook
        self.prefix = notebook[:2]
        self.profile = profile
        if values is None:
            # the parameters validated in this kernel, if they are this notebook's (a library caller
            # or a test process may hold another notebook's, or none)
            values = params.last_validated()
            if values is not None and not (paths.NOTEBOOKS / f"{notebook}.ipynb").is_file():
                values = None
            if values is not None and set(values) != set(params.notebook_defaults(notebook)):
                values = None
        self.values = values
        self.folder, self.reason = "", "no parameters validated"
        self._stage: outputs.Staging | None = None
        if values is None:
            # outside a notebook (library use, tests): the profile's folder
            self.root = reports_dir(profile)
            return
        values = {**values, "profile": values.get("profile", profile)}
        if values["profile"] != profile:
            raise ValueError(f"Reporter profile {profile!r} is not the validated parameter profile "
                             f"{values['profile']!r}")
        self.folder, self.reason = params.run_folder(notebook, values)
        self.root = reports_root() / self.folder if self.folder else reports_root()
        # a notebook run writes aside and publishes its whole set when it ends (helpers.notebook.outputs)
        self._stage = outputs.start(reports_root(), self.root, notebook)
        canonical_folder = "" if profile in ("", "default") else profile
        if self.folder != canonical_folder:
            self._write(self.root / "parameters" / f"{notebook}.json",
                        (json.dumps(_jsonable(values), indent=2, sort_keys=True, default=repr) + "\n").encode("utf-8"))
            if announce:
                print(f"outputs of this run: <reports>/{self.folder}/ ({self.reason}); the canonical "
                      f"results under <reports>/{canonical_folder + '/' if canonical_folder else ''} are not touched")

    def _write(self, path: Path, data: bytes) -> Path:
        """Write one output (atomically); in a notebook run into its staging folder, to be published
        with the rest of the run. Returns the path the file has (or will have) in the run folder."""
        atomic_write_bytes(self._stage.path_for(path.relative_to(self.root)) if self._stage else path, data)
        return path

    def publish(self) -> list[str]:
        """Publish what this notebook run has written so far (its set replaces the notebook's
        previous set in the folder); notebooks need not call it: the run publishes when it ends."""
        return self._stage.publish() if self._stage else []

    @property
    def figures(self) -> Path:
        return self.root / "figures" / self.notebook

    @property
    def tables(self) -> Path:
        return self.root / "tables"

    @property
    def metrics_path(self) -> Path:
        return self.root / "metrics" / f"{self.notebook}.json"

    def save_fig(self, fig, name: str, *, dpi: int = 150, show: bool | None = None) -> list[Path]:
        """Save a matplotlib figure as PDF (no creation date, TrueType fonts) and PNG; returns both paths.
        ``name`` passes through :func:`helpers.io.files.safe_stem` (it may come from data).

        ``show``: display the saved PNG in the notebook and close the figure (``None``: when the
        inline backend is active, i.e. in a notebook). The cell then shows exactly the file that was
        saved, and the figure is drawn twice (once per file) instead of three times (the inline
        backend would render it again at the end of the cell); its size on the page is what the
        inline backend would give (the PNG scaled from ``dpi`` to the figure's own dpi)."""
        import io

        import matplotlib

        name, out, png = safe_stem(name), [], b""
        for ext, meta in (("pdf", {"CreationDate": None, "Producer": None, "Creator": None}),
                          ("png", {"Software": None})):
            buf = io.BytesIO()
            # TrueType (Type 42) fonts whatever the notebook's style: never a Type 3 bitmap font in a paper
            with matplotlib.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42}):
                fig.savefig(buf, format=ext, dpi=dpi, bbox_inches="tight", metadata=meta)
            png = buf.getvalue()
            out.append(self._write(self.figures / f"{name}.{ext}", png))
        if show if show is not None else "inline" in matplotlib.get_backend():
            _display_png(png, fig, dpi)
        return out

    def save_table(self, df: pd.DataFrame, name: str, *, float_format: str = "%.4f",
                   index: bool = False, caption: str | None = None, label: str | None = None,
                   latex: bool = True, latex_float_format: str | None = None) -> list[Path]:
        """Save a table as CSV and as a LaTeX table, named ``NN_<name>``.

        The ``.tex`` file is a complete ``table`` float (``table*`` when wider than one column of
        a two-column paper; continued floats when long) that compiles with pdflatex and booktabs
        (:func:`latex_table`): escaped text, fixed decimals, a caption and
        ``\\label{tab:NN-name}`` (:func:`table_label`). The caption is ``caption``, else the
        table's human caption and the headers its column labels
        (:mod:`helpers.notebook.captions`; a table without one is warned about and captioned from
        its name). The CSV keeps the column names. ``latex=False``: the CSV only (a detail table
        of many wide text columns, read as data, that no page of a paper would hold).
        ``latex_float_format``: the decimals of the ``.tex`` when they differ from the CSV's (a CSV
        kept at full precision so that it reproduces the printed values, a page at 4 decimals).
        """
        name = safe_stem(name)          # names built from data (question, run, assessor ids) stay in tables/
        stem = f"{self.prefix}_{name}"
        df = csv_safe_labels(df, index=index)   # a label such as "null" would read back as NaN
        csv = df.to_csv(index=index, float_format=float_format, lineterminator="\n")
        columns = df.reset_index().columns if index else df.columns
        if not latex:
            return [self._write(self.tables / f"{stem}.csv", csv.encode("utf-8"))]
        tex = latex_table(df, caption=caption or default_caption(self.notebook, name),
                          label=label or table_label(self.notebook, name, self.profile),
                          float_format=latex_float_format or float_format, index=index,
                          headers=captions.column_labels(self.notebook, name, columns))
        return [self._write(self.tables / f"{stem}.csv", csv.encode("utf-8")),
                self._write(self.tables / f"{stem}.tex", tex.encode("utf-8"))]

    def where(self, path: Path) -> str:
        """``path`` as the notebooks print it: ``<reports>/`` and its place under the reports tree
        (``<reports>/runs/ci-1a2b3c4d/metrics/02_unanimity_evaluation.json`` for a run that went
        aside), the same for every notebook, with no machine path."""
        path = Path(path)
        root = reports_root()
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        return f"<reports>/{shown}"

    def save_metrics(self, metrics: dict) -> Path:
        """Write the notebook's key numbers as sorted, indented JSON (NaN -> null; floats to
        :data:`METRICS_DIGITS` significant digits, so reruns on any machine write the same bytes)."""
        text = json.dumps(_jsonable(metrics, METRICS_DIGITS), indent=2, sort_keys=True, allow_nan=False) + "\n"
        return self._write(self.metrics_path, text.encode("utf-8"))


def _pandas_na_tokens() -> frozenset:
    """The strings ``pandas.read_csv`` reads as NaN by default (``na_values``' documented list)."""
    try:
        from pandas._libs.parsers import STR_NA_VALUES
        return frozenset(STR_NA_VALUES)
    except ImportError:     # pragma: no cover - the list as documented for pandas 2 and 3
        return frozenset({"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
                          "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"})


def csv_safe_labels(df: pd.DataFrame, *, index: bool = False) -> pd.DataFrame:
    """``df`` with every text label that ``pandas.read_csv`` would read back as missing (``"null"``,
    ``"NA"``, ``"None"``, ... - its default ``na_values``) written as that label followed by its
    column's name: the planted model ``null`` in a column ``model`` becomes ``"null model"``, so a
    reader's default ``pd.read_csv`` keeps it (quoting would not: pandas ignores quotes there).

    Only text cells (and, with ``index``, index labels, named after the index) change; numbers,
    real missing values and the empty string (a missing value in any CSV) are left alone. Returns
    ``df`` itself when nothing changes.
    """
    tokens = _pandas_na_tokens() - {""}

    def fix(values: pd.Series, name) -> pd.Series | None:
        if not (pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)
                or isinstance(values.dtype, pd.CategoricalDtype)):
            return None
        text = values.astype(object)
        hit = text.map(lambda v: isinstance(v, str) and v in tokens).astype(bool)
        if not hit.any():
            return None
        suffix = str(name).replace("_", " ") if name is not None else "label"
        return text.where(~hit, text[hit].map(lambda v: f"{v} {suffix}"))

    out = df
    for k, col in enumerate(df.columns):
        new = fix(df.iloc[:, k], col)
        if new is not None:
            out = out.copy() if out is df else out
            out.isetitem(k, new.to_numpy())
    if index and not isinstance(df.index, pd.MultiIndex):
        new = fix(pd.Series(df.index, index=df.index), df.index.name)
        if new is not None:
            out = out.copy() if out is df else out
            out.index = pd.Index(new.to_numpy(), name=df.index.name)
    return out


# --------------------------------------------------------------------------------------------
# Labels, captions, displays and conclusions
# --------------------------------------------------------------------------------------------

def _slug(text: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def table_label(notebook: str, name: str, profile: str = "default") -> str:
    """``\\label`` of a saved table: ``tab:NN-name`` (``tab:NN-name-<profile>`` for other profiles,
    so that the default and the real version can sit in one document)."""
    base = f"tab:{notebook[:2]}-{_slug(name)}"
    return base if profile in ("", "default") else f"{base}-{_slug(profile)}"


def default_caption(notebook: str, name: str) -> str:
    """Caption of a table saved without one: its human caption
    (:func:`helpers.notebook.captions.table_caption`), else, with a
    :class:`~helpers.notebook.captions.MissingCaption` warning, one from its name and notebook
    (``foo_bar`` of ``04_diversified_measures`` -> ``Foo bar (notebook 04, diversified measures).``)."""
    return captions.table_caption(notebook, name)


def show(df: pd.DataFrame, fmt: str = "{:.4f}", *, index: bool = False, caption: str | None = None,
         max_rows: int = 60) -> None:
    """Display a table as a rich HTML table whose plain-text form is fixed-format text.

    One ``display_data`` output with two representations: ``text/plain`` is exactly
    ``df.to_string(index=index, float_format=fmt.format, na_rep="", max_rows=max_rows)`` (what
    nbval compares, what a terminal or a diff shows) and ``text/html`` a pandas ``Styler`` with
    the same number format (what JupyterLab and the HTML/book show). The Styler's element ids
    come from the table's text, not from a random uuid, so reruns give byte-identical HTML.
    Use it in checked cells in place of ``print(df.to_string(...))``; it returns ``None``, so a
    cell ending on it does not end on a bare expression.
    """
    import hashlib

    from IPython.display import display

    text = df.to_string(index=index, float_format=fmt.format, na_rep="", max_rows=max_rows)
    shown = df if len(df) <= max_rows else df.head(max_rows)
    floats = shown.select_dtypes("floating").columns
    styler = shown.style.format(fmt, subset=floats, na_rep="")
    if not index:
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(caption)
    styler = styler.set_uuid(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8])
    display({"text/plain": text, "text/html": styler.to_html()}, raw=True)


def environment_report(packages=("numpy", "pandas", "scipy", "matplotlib", "seaborn", "papermill",
                                 "krippendorff")) -> str:
    """One line per package version, for the last (``NBVAL_IGNORE_OUTPUT``) cell of a notebook."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    lines = [f"python {platform.python_version()} ({platform.system()} {platform.machine()})"]
    for name in packages:
        try:
            lines.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            lines.append(f"{name} (not installed)")
    lines.append(f"helpers {version('subjective-ir-eval')}")
    return "\n".join(lines)


def conclusion(bullets: Sequence[str], *, heading: str | None = None, footer: str | None = None):
    """Conclusion of a notebook as Markdown generated from the run's numbers.

    Notebooks build every data-dependent sentence from the values they computed (so that the
    conclusion is true for the profile and data that ran) and display it with this function;
    nbval checks the text like any other output. Returns an ``IPython.display.Markdown`` object,
    which the notebook shows with ``display(...)`` (a checked cell must not end on a bare
    expression); its ``data`` attribute is the Markdown source.
    """
    from IPython.display import Markdown

    parts = ([heading, ""] if heading else []) + [f"- {b}" for b in bullets]
    if footer:
        parts += ["", footer]
    return Markdown("\n".join(parts))


def fmt_list(items: Sequence[str], conj: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]
