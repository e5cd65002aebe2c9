"""Writing notebook outputs: figures, tables and key numbers, atomically and byte-stably.

One helper per kind of output, so that every notebook writes to the same layout::

    reports/figures/NN_name/<figure>.{pdf,png}
    reports/tables/NN_<table>.{csv,tex}
    reports/metrics/NN_name.json

(under ``reports/<profile>/`` for the other canonical profiles, see :func:`helpers.paths.reports_dir`;
a run whose parameters are not those of a canonical profile writes under
``reports/runs/<profile>-<hash>/`` instead, see :func:`helpers.notebook.params.run_folder`).
Every write goes to a temporary file in the target folder and is renamed into place, so an
interrupted run never leaves a half-written file under the final name. PDFs carry no creation
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

from helpers.io.files import atomic_write_bytes, atomic_write_text
from helpers import paths
from helpers.notebook import params
from helpers.paths import reports_dir, reports_root


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
        canonical_folder = "" if profile in ("", "default") else profile
        if self.folder != canonical_folder:
            atomic_write_text(self.root / "parameters" / f"{notebook}.json",
                              json.dumps(_jsonable(values), indent=2, sort_keys=True, default=repr) + "\n")
            if announce:
                print(f"outputs of this run: <reports>/{self.folder}/ ({self.reason}); the canonical "
                      f"results under <reports>/{canonical_folder + '/' if canonical_folder else ''} are not touched")

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
                   index: bool = False, caption: str | None = None, label: str | None = None) -> list[Path]:
        """Save a table as CSV and as a LaTeX table, named ``NN_<name>``.

        The ``.tex`` file is a complete ``table`` float (or ``longtable`` when long) that compiles
        with pdflatex and booktabs (:func:`latex_table`): escaped text, fixed decimals, a caption
        (default: from the table's name, :func:`default_caption`) and ``\\label{tab:NN-name}``
        (:func:`table_label`); wide tables are set smaller or split into column blocks.
        """
        stem = f"{self.prefix}_{name}"
        csv = df.to_csv(index=index, float_format=float_format, lineterminator="\n")
        tex = latex_table(df, caption=caption or default_caption(self.notebook, name),
                          label=label or table_label(self.notebook, name, self.profile),
                          float_format=float_format, index=index)
        return [atomic_write_text(self.tables / f"{stem}.csv", csv),
                atomic_write_text(self.tables / f"{stem}.tex", tex)]

    def save_metrics(self, metrics: dict) -> Path:
        """Write the notebook's key numbers as sorted, indented JSON (NaN -> null)."""
        text = json.dumps(_jsonable(metrics), indent=2, sort_keys=True, allow_nan=False) + "\n"
        return atomic_write_text(self.metrics_path, text)


# --------------------------------------------------------------------------------------------
# LaTeX tables that compile standalone (pdflatex + booktabs; longtable and graphicx when needed)
# --------------------------------------------------------------------------------------------

#: Characters LaTeX treats specially, and their text-mode spelling.
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "#": r"\#", "%": r"\%",
    "&": r"\&", "$": r"\$", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}
#: Non-ASCII characters of the notebooks' labels, spelled for pdflatex without extra packages.
_LATEX_UNICODE = {
    "♯": r"\ensuremath{\sharp}", "θ": r"\ensuremath{\theta}", "τ": r"\ensuremath{\tau}",
    "α": r"\ensuremath{\alpha}", "β": r"\ensuremath{\beta}", "γ": r"\ensuremath{\gamma}",
    "σ": r"\ensuremath{\sigma}", "μ": r"\ensuremath{\mu}", "Δ": r"\ensuremath{\Delta}",
    "≤": r"\ensuremath{\le}", "≥": r"\ensuremath{\ge}", "≠": r"\ensuremath{\ne}",
    "±": r"\ensuremath{\pm}", "×": r"\ensuremath{\times}", "·": r"\ensuremath{\cdot}",
    "−": r"\ensuremath{-}", "→": r"\ensuremath{\to}", "√": r"\ensuremath{\surd}",
    "–": "--", "—": "---", "…": r"\ldots{}", "’": "'", "‘": "`", "“": "``", "”": "''",
    "∈": r"\ensuremath{\in}", "∉": r"\ensuremath{\notin}", "≈": r"\ensuremath{\approx}", "∑": r"\ensuremath{\sum}",
    "∞": r"\ensuremath{\infty}", "⊆": r"\ensuremath{\subseteq}", "∪": r"\ensuremath{\cup}", "∩": r"\ensuremath{\cap}",
    "⇒": r"\ensuremath{\Rightarrow}", "←": r"\ensuremath{\leftarrow}", "↔": r"\ensuremath{\leftrightarrow}",
    "≡": r"\ensuremath{\equiv}", "∝": r"\ensuremath{\propto}", "∼": r"\ensuremath{\sim}", "÷": r"\ensuremath{\div}",
    "∆": r"\ensuremath{\Delta}", "µ": r"\ensuremath{\mu}", "♭": r"\ensuremath{\flat}", "≪": r"\ensuremath{\ll}",
    "≫": r"\ensuremath{\gg}", "°": r"\ensuremath{^\circ}", "²": r"\ensuremath{^2}", "³": r"\ensuremath{^3}",
    "½": r"\ensuremath{\frac{1}{2}}", "′": r"\ensuremath{'}", "‐": "-", "‑": "-", "•": r"\ensuremath{\bullet}",
    "é": r"\'e", "è": r"\`e", "ä": r"\"a", "ö": r"\"o", "ü": r"\"u", "ó": r"\'o", "á": r"\'a",
    "í": r"\'i", "ñ": r"\~n", "ç": r"\c{c}", "Ç": r"\c{C}", "ß": r"\ss{}", "\u00a0": "~",
}


def _greek() -> dict[str, str]:
    """Every Greek letter as a math-mode command (capitals without one as their Latin twin)."""
    import unicodedata

    out = {}
    for code in range(0x391, 0x3CA):
        ch = chr(code)
        name = unicodedata.name(ch, "")
        if not name.startswith("GREEK") or "FINAL" in name or "WITH" in name or len(name.split()) != 4:
            continue
        word = name.split()[-1].lower().replace("lamda", "lambda")
        if "SMALL" in name:
            cmd = "\\" + word if word != "omicron" else "o"
        elif word.capitalize() in ("Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"):
            cmd = "\\" + word.capitalize()
        else:
            cmd = "\\mathrm{" + {"alpha": "A", "beta": "B", "epsilon": "E", "zeta": "Z", "eta": "H", "iota": "I",
                                 "kappa": "K", "mu": "M", "nu": "N", "omicron": "O", "rho": "P", "tau": "T",
                                 "chi": "X"}[word] + "}"
        out[ch] = r"\ensuremath{" + cmd + "}"
    return out


_LATEX_UNICODE.update({k: v for k, v in _greek().items() if k not in _LATEX_UNICODE})


_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0303": "~", "\u0308": '"', "\u0327": "c",
            "\u030c": "v", "\u030a": "r", "\u0304": "=", "\u030b": "H"}


def _accented(ch: str) -> str | None:
    """A Latin letter with one accent as a LaTeX accent command (``ő`` -> ``\\H{o}``-like), else None."""
    import unicodedata

    parts = unicodedata.normalize("NFD", ch)
    if len(parts) == 2 and parts[0].isascii() and parts[0].isalpha() and parts[1] in _ACCENTS:
        cmd = _ACCENTS[parts[1]]
        return f"\\{cmd}{{{parts[0]}}}" if cmd.isalpha() else f"\\{cmd}{{{parts[0]}}}"
    return None


def latex_escape(text: Any) -> str:
    """``text`` as LaTeX text-mode source: the ten special characters escaped (``d_max`` ->
    ``d\\_max``, ``D#-nDCG`` -> ``D\\#-nDCG``, ``95%`` -> ``95\\%``) and the non-ASCII symbols
    of the notebooks spelled out (``D♯`` -> ``D\\ensuremath{\\sharp}``).

    Raises ``ValueError`` for any other non-ASCII character, naming it: pdflatex would stop on
    it, and a silently dropped character would change a label.
    """
    out = []
    for ch in str(text):
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ch in _LATEX_UNICODE:
            out.append(_LATEX_UNICODE[ch])
        elif ord(ch) < 128:
            out.append(ch if ch not in "\t\n\r" else " ")
        elif _accented(ch):
            out.append(_accented(ch))
        else:
            raise ValueError(f"latex_escape: no LaTeX spelling for {ch!r} (U+{ord(ch):04X}) in {str(text)!r}; "
                             f"add it to helpers.notebook.reports._LATEX_UNICODE")
    return "".join(out)


#: Column names written with the papers' notation in LaTeX headers (exact matches only).
LATEX_HEADERS = {
    "d_max": r"$D_{\max}$", "Dmax": r"$D_{\max}$", "n": r"$N$", "N": r"$N$", "tau": r"$\tau$",
    "theta": r"$\theta$", "p": r"$p$", "sigma": r"$\sigma$", "es_hsd": r"ES$_{\mathrm{HSD}}$",
    "p_value": r"$p$-value", "delta_mar": r"$\Delta$MAR",
}

#: Width budget of a table (full text width of a two-column paper, 7 in), in points.
TABLE_WIDTH_PT = 7.0 * 72.27
#: Rows above which a table becomes a ``longtable`` (it would not fit on one page).
LONGTABLE_ROWS = 45
#: (LaTeX size command, font size in pt), tried in order until the table fits the width.
_SIZES = ((r"\small", 9.0), (r"\footnotesize", 8.0), (r"\scriptsize", 7.0))
_TABCOLSEP_PT = 4.0


def _slug(text: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _format_cell(value: Any, decimals: int, na_rep: str = "--") -> tuple[str, bool]:
    """A cell as LaTeX text and whether it is a number (right-aligned)."""
    if value is None or (isinstance(value, (float, np.floating)) and math.isnan(value)):
        return na_rep, True
    if isinstance(value, (bool, np.bool_)):
        return ("yes" if value else "no"), False
    if isinstance(value, (int, np.integer)):
        text = f"{int(value):d}"
    elif isinstance(value, (float, np.floating)):
        if math.isinf(value):
            return (r"\ensuremath{\infty}" if value > 0 else r"\ensuremath{-\infty}"), True
        text = f"{float(value):.{decimals}f}"
        if float(text) == 0.0:
            text = text.lstrip("-")  # no "-0.000"
    else:
        return latex_escape(value), False
    return (r"\ensuremath{-}" + text[1:]) if text.startswith("-") else text, True


def _decimals(float_format: str) -> int:
    import re

    m = re.fullmatch(r"%\.(\d+)[fF]", float_format.strip())
    if not m:
        raise ValueError(f"float_format must look like '%.4f', got {float_format!r}")
    return int(m.group(1))


def _header(name: Any) -> str:
    if isinstance(name, tuple):  # MultiIndex columns: join the levels
        name = " ".join(str(part) for part in name if str(part) != "")
    return LATEX_HEADERS.get(str(name), None) or latex_escape(name)


def _text_width(text: str) -> float:
    """Width of LaTeX source ``text`` in ems, on the safe side (digits 0.5 em, capitals and
    symbols 0.75 em, other characters 0.55 em; a command counts as one capital)."""
    import re

    visible = re.sub(r"\\ensuremath\{\\?[a-zA-Z]+\}|\\[a-zA-Z]+\{\}|\\.", "M", text)
    visible = re.sub(r"[{}$]|\\[a-zA-Z]+", "", visible)
    return sum(0.5 if c.isdigit() or c in ".,:;' " else 0.75 if (c.isupper() or c in "@#%&+=<>") else 0.55
               for c in visible)


def latex_table(df: pd.DataFrame, *, caption: str, label: str, float_format: str = "%.4f",
                index: bool = False, width_pt: float = TABLE_WIDTH_PT,
                longtable_rows: int = LONGTABLE_ROWS) -> str:
    """A DataFrame as a LaTeX table that compiles standalone with pdflatex.

    * every header and text cell is escaped (:func:`latex_escape`); a few column names take the
      papers' notation (:data:`LATEX_HEADERS`: ``d_max`` -> :math:`D_{\\max}`, ``n`` -> :math:`N`);
    * numbers in fixed decimals (``float_format``), integers as integers, NaN as ``--``, a true
      minus sign; number columns right-aligned;
    * a ``table`` float with ``\\caption`` and ``\\label`` (booktabs rules), or a ``longtable``
      when it has more than ``longtable_rows`` rows;
    * a font size from ``\\small`` down to ``\\scriptsize`` (7 pt in a 10 pt document) so that
      the estimated width stays within ``width_pt`` (7 in); a table still too wide is split into
      column blocks that repeat the leading text columns (e.g. a 30-column matrix becomes stacked
      blocks of the same rows), with rotated headers when those are much wider than the numbers.

    Needs ``\\usepackage{booktabs}`` (plus ``longtable`` and ``graphicx`` when used: the first
    line of the output names the packages).
    """
    decimals = _decimals(float_format)
    frame = df.reset_index() if index else df
    headers = [_header(c) for c in frame.columns]
    cells, numeric = [], [True] * len(headers)
    for row in frame.itertuples(index=False, name=None):
        formatted = [_format_cell(v, decimals) for v in row]
        cells.append([t for t, _ in formatted])
        numeric = [n and is_num for n, (_, is_num) in zip(numeric, formatted)]
    if not cells:
        numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    align = ["r" if n else "l" for n in numeric]
    #: a text column wider than this share of the width becomes a paragraph column (p{...})
    text_cap_em = 0.3 * width_pt / _SIZES[0][1]
    # leading text columns identify a row: repeated in every block of a split table
    keys = 0
    while keys < len(align) - 1 and align[keys] == "l":
        keys += 1
    keys = max(keys, 1)
    body_w = [max([_text_width(h) for h in [headers[j]]] + [_text_width(r[j]) for r in cells]) for j in range(len(headers))]
    cell_w = [max([0.0] + [_text_width(r[j]) for r in cells]) for j in range(len(headers))]
    para = [align[j] == "l" and body_w[j] > text_cap_em for j in range(len(headers))]
    body_w = [min(w, text_cap_em) if para[j] else w for j, w in enumerate(body_w)]
    cell_w = [min(w, text_cap_em) if para[j] else w for j, w in enumerate(cell_w)]

    def width(cols: list[int], size_pt: float, rotate: bool) -> float:
        ems = sum((max(cell_w[j], 1.2) if rotate and j >= keys else body_w[j]) for j in cols)
        return 1.05 * ems * size_pt + len(cols) * 2 * _TABCOLSEP_PT

    size, blocks, rotate = None, None, False
    all_cols = list(range(len(headers)))
    for cmd, pt_try in _SIZES:
        if width(all_cols, pt_try, False) <= width_pt:
            size, blocks = cmd, [all_cols]
            break
    if size is None:  # split into blocks of columns at the smallest size
        size, pt = _SIZES[-1]
        value_cols = all_cols[keys:]
        rotate = (sum(body_w[j] for j in value_cols) > 1.5 * sum(max(cell_w[j], 1.0) for j in value_cols)
                  and len(cells) > 0)
        blocks, current = [], []
        for j in value_cols:
            trial = list(range(keys)) + current + [j]
            if current and width(trial, pt, rotate) > width_pt:
                blocks.append(list(range(keys)) + current)
                current = []
            current.append(j)
        blocks.append(list(range(keys)) + current)
    size_pt = dict(_SIZES)[size]
    align = [f"p{{{text_cap_em * size_pt:.0f}pt}}" if para[j] else a for j, a in enumerate(align)]
    rows_total = len(cells) * len(blocks) + 2 * len(blocks)
    long = rows_total > longtable_rows
    packages = ["booktabs"] + (["longtable"] if long else []) + (["graphicx"] if rotate else [])
    lines = [f"% pdflatex; needs \\usepackage{{{','.join(packages)}}}. Written by helpers.notebook.reports.latex_table."]
    esc_caption = latex_escape(caption)

    def head(cols: list[int]) -> str:
        parts = []
        for j in cols:
            h = headers[j]
            if rotate and j >= keys:
                h = r"\rotatebox{90}{" + h + "}"
            parts.append(h)
        return " & ".join(parts) + r" \\"

    def body(cols: list[int]) -> list[str]:
        return [" & ".join(r[j] for j in cols) + r" \\" for r in cells]

    if not long:
        lines += [r"\begin{table}[htbp]", r"\centering", size, rf"\setlength{{\tabcolsep}}{{{_TABCOLSEP_PT:g}pt}}",
                  rf"\caption{{{esc_caption}}}", rf"\label{{{label}}}"]
        for k, cols in enumerate(blocks):
            if k:
                lines.append(r"\par\medskip")
            lines += [rf"\begin{{tabular}}{{{''.join(align[j] for j in cols)}}}", r"\toprule", head(cols), r"\midrule",
                      *body(cols), r"\bottomrule", r"\end{tabular}"]
        lines.append(r"\end{table}")
    else:
        lines += [r"\begingroup", size, rf"\setlength{{\tabcolsep}}{{{_TABCOLSEP_PT:g}pt}}"]
        for k, cols in enumerate(blocks):
            part = f" (part {k + 1} of {len(blocks)})" if len(blocks) > 1 else ""
            cap = rf"\caption{{{esc_caption}{part}}}" + (rf"\label{{{label}}}" if k == 0 else "")
            cont = rf"\caption[]{{{esc_caption}{part} (continued)}}"
            lines += [rf"\begin{{longtable}}{{{''.join(align[j] for j in cols)}}}", cap + r" \\", r"\toprule", head(cols),
                      r"\midrule", r"\endfirsthead", cont + r" \\", r"\toprule", head(cols), r"\midrule", r"\endhead",
                      r"\bottomrule", r"\endlastfoot", *body(cols), r"\end{longtable}"]
        lines.append(r"\endgroup")
    return "\n".join(lines) + "\n"


def table_label(notebook: str, name: str, profile: str = "default") -> str:
    """``\\label`` of a saved table: ``tab:NN-name`` (``tab:NN-name-<profile>`` for other profiles,
    so that the default and the real version can sit in one document)."""
    base = f"tab:{notebook[:2]}-{_slug(name)}"
    return base if profile in ("", "default") else f"{base}-{_slug(profile)}"


def default_caption(notebook: str, name: str) -> str:
    """Caption of a table saved without one, from its name and notebook (``kendall_tau`` of
    ``04_diversified_measures`` -> ``Kendall tau (notebook 04, diversified measures).``)."""
    words = name.replace("_", " ").strip()
    words = words[:1].upper() + words[1:]
    return f"{words} (notebook {notebook[:2]}, {notebook[3:].replace('_', ' ')})."


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
