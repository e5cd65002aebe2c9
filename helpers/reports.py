"""Writing notebook outputs: figures, tables and key numbers, atomically and byte-stably.

One helper per kind of output, so that every notebook writes to the same layout::

    reports/figures/NN_name/<figure>.{pdf,png}
    reports/tables/NN_<table>.{csv,tex}
    reports/metrics/NN_name.json

(under ``reports/<profile>/`` for non-default profiles, see :func:`helpers.paths.reports_dir`).
Every write goes to a temporary file in the target folder and is renamed into place, so an
interrupted run never leaves a half-written file under the final name. PDFs carry no creation
date and PNGs no software stamp, so reruns are byte-identical.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from helpers.paths import reports_dir


def _umask() -> int:
    """The process umask (read without changing it where /proc tells it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file + rename (atomic on POSIX).

    ``mkstemp`` creates its file with mode 0600; the file is given the mode a plain ``open()``
    would (0666 minus the umask) before it is renamed into place.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path: Path, text: str) -> Path:
    """Text version of :func:`atomic_write_bytes` (UTF-8, ``\\n`` line ends)."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        value = float(obj)
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(obj, (np.bool_,)):
        return bool(obj)
    if isinstance(obj, pd.DataFrame):
        return _jsonable(obj.to_dict(orient="records"))
    return obj


class Reporter:
    """Output writer of one notebook.

    Parameters
    ----------
    notebook : str
        The notebook's stem, e.g. ``"01_gain_definitions"``; its two-digit prefix names the files.
    profile : str
        Parameter profile (``"default"``, ``"ci"``, ``"real"``...), see :func:`helpers.paths.reports_dir`.
    """

    def __init__(self, notebook: str, profile: str = "default") -> None:
        if len(notebook) < 3 or not notebook[:2].isdigit() or notebook[2] != "_":
            raise ValueError(f"notebook must look like 'NN_name', got {notebook!r}")
        self.notebook = notebook
        self.prefix = notebook[:2]
        self.profile = profile
        self.root = reports_dir(profile)

    @property
    def figures(self) -> Path:
        return self.root / "figures" / self.notebook

    @property
    def tables(self) -> Path:
        return self.root / "tables"

    @property
    def metrics_path(self) -> Path:
        return self.root / "metrics" / f"{self.notebook}.json"

    def save_fig(self, fig, name: str, *, dpi: int = 150) -> list[Path]:
        """Save a matplotlib figure as PDF (no creation date) and PNG; returns both paths."""
        import io

        out = []
        for ext, meta in (("pdf", {"CreationDate": None, "Producer": None, "Creator": None}),
                          ("png", {"Software": None})):
            buf = io.BytesIO()
            fig.savefig(buf, format=ext, dpi=dpi, bbox_inches="tight", metadata=meta)
            out.append(atomic_write_bytes(self.figures / f"{name}.{ext}", buf.getvalue()))
        return out

    def save_table(self, df: pd.DataFrame, name: str, *, float_format: str = "%.4f",
                   index: bool = False, caption: str | None = None) -> list[Path]:
        """Save a table as CSV and as a LaTeX ``tabular`` (booktabs), named ``NN_<name>``."""
        stem = f"{self.prefix}_{name}"
        csv = df.to_csv(index=index, float_format=float_format, lineterminator="\n")
        styler = df.style.format(precision=int(float_format.strip("%.f") or 4), na_rep="--")
        if not index:
            styler = styler.hide(axis="index")
        tex = styler.to_latex(hrules=True, caption=caption)
        return [atomic_write_text(self.tables / f"{stem}.csv", csv),
                atomic_write_text(self.tables / f"{stem}.tex", tex)]

    def save_metrics(self, metrics: dict) -> Path:
        """Write the notebook's key numbers as sorted, indented JSON (NaN -> null)."""
        text = json.dumps(_jsonable(metrics), indent=2, sort_keys=True, allow_nan=False) + "\n"
        return atomic_write_text(self.metrics_path, text)


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
