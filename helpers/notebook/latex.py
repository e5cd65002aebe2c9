"""LaTeX tables that compile with pdflatex: escaping of labels, fixed decimals, widths that fit.

:func:`latex_table` renders a DataFrame as a ``table`` float or a ``longtable`` with booktabs
rules, a font size and column blocks chosen so that it fits the text width;
:func:`latex_escape` spells any label for pdflatex (special characters, the Greek letters and
symbols of the notebooks, accented Latin letters) or refuses it naming the character.
:mod:`helpers.notebook.reports` writes the tables next to their CSV.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["latex_escape", "latex_table", "LATEX_HEADERS", "TABLE_WIDTH_PT", "LONGTABLE_ROWS"]


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

    Any other printable character (CJK ids, other scripts) becomes ``\\subjevalU{8A55}{評}``
    (:data:`UNICODE_MACRO`): nothing is dropped, and pdflatex still compiles. A control character
    raises ``ValueError`` naming it.
    """
    out = []
    for ch in str(text):
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ch in _LATEX_UNICODE:
            out.append(_LATEX_UNICODE[ch])
        elif ord(ch) < 128 and (ch.isprintable() or ch in "\t\n\r"):
            out.append(ch if ch not in "\t\n\r" else " ")
        elif _accented(ch):
            out.append(_accented(ch))
        elif ch.isprintable():
            # CJK and other scripts pdflatex cannot set without extra fonts (ids in the THUIR and
            # NTCIR data are Chinese and Japanese): \subjevalU{code}{character} prints the character
            # under XeLaTeX/LuaLaTeX and its code point under pdflatex (:data:`UNICODE_MACRO`).
            out.append(f"\\subjevalU{{{ord(ch):04X}}}{{{ch}}}")
        else:
            raise ValueError(f"latex_escape: no LaTeX spelling for the control character U+{ord(ch):04X} in "
                             f"{str(text)!r}")
    return "".join(out)


#: Definition of ``\subjevalU`` (see :func:`latex_escape`), written before every table that uses it:
#: the character itself under a Unicode engine, ``<U+XXXX>`` in typewriter type under pdflatex
#: (whose UTF-8 reader never sees the unused argument). ``\providecommand`` lets a document define
#: its own version first (e.g. with CJKutf8).
UNICODE_MACRO = (r"\providecommand{\subjevalU}[2]{\ifdefined\XeTeXrevision #2\else"
                 r"\ifdefined\directlua #2\else\texttt{<U+#1>}\allowbreak\fi\fi}")


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

    text = re.sub(r"\\subjevalU\{([0-9A-F]+)\}\{[^}]*\}", r"<U+\1>", text)   # as pdflatex prints it
    visible = re.sub(r"\\ensuremath\{\\?[a-zA-Z]+\}|\\[a-zA-Z]+\{\}|\\.", "M", text)
    visible = re.sub(r"[{}$]|\\[a-zA-Z]+", "", visible)
    return sum(0.5 if c.isdigit() or c in ".,:;' " else 0.75 if (c.isupper() or c in "@#%&+=<>") else 0.55
               for c in visible)


def _table_cells(df: pd.DataFrame, decimals: int, index: bool) -> tuple[list[str], list[list[str]], list[str]]:
    """Escaped headers, formatted cells and the alignment of each column (``r`` for numbers)."""
    frame = df.reset_index() if index else df
    headers = [_header(c) for c in frame.columns]
    cells, numeric = [], [True] * len(headers)
    for row in frame.itertuples(index=False, name=None):
        formatted = [_format_cell(v, decimals) for v in row]
        cells.append([t for t, _ in formatted])
        numeric = [n and is_num for n, (_, is_num) in zip(numeric, formatted)]
    if not cells:
        numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    return headers, cells, ["r" if n else "l" for n in numeric]


class _Layout:
    """How a table fits the width: font size, column blocks, rotated headers, paragraph columns."""

    def __init__(self, headers: list[str], cells: list[list[str]], align: list[str], width_pt: float):
        self.headers, self.cells, self.width_pt = headers, cells, width_pt
        #: a text column wider than this share of the width becomes a paragraph column (p{...})
        self.text_cap_em = 0.3 * width_pt / _SIZES[0][1]
        # leading text columns identify a row: repeated in every block of a split table
        keys = 0
        while keys < len(align) - 1 and align[keys] == "l":
            keys += 1
        self.keys = max(keys, 1)
        n = len(headers)
        body_w = [max([_text_width(h) for h in [headers[j]]] + [_text_width(r[j]) for r in cells]) for j in range(n)]
        cell_w = [max([0.0] + [_text_width(r[j]) for r in cells]) for j in range(n)]
        self.para = [align[j] == "l" and body_w[j] > self.text_cap_em for j in range(n)]
        self.body_w = [min(w, self.text_cap_em) if self.para[j] else w for j, w in enumerate(body_w)]
        self.cell_w = [min(w, self.text_cap_em) if self.para[j] else w for j, w in enumerate(cell_w)]
        self.size, self.blocks, self.rotate = self._fit()
        size_pt = dict(_SIZES)[self.size]
        self.align = [f"p{{{self.text_cap_em * size_pt:.0f}pt}}" if self.para[j] else a for j, a in enumerate(align)]

    def width(self, cols: list[int], size_pt: float, rotate: bool) -> float:
        """Estimated width in points of the columns ``cols`` at a font size."""
        ems = sum((max(self.cell_w[j], 1.2) if rotate and j >= self.keys else self.body_w[j]) for j in cols)
        return 1.05 * ems * size_pt + len(cols) * 2 * _TABCOLSEP_PT

    def _fit(self) -> tuple[str, list[list[int]], bool]:
        """The largest size at which all columns fit; else blocks of columns at the smallest size."""
        all_cols = list(range(len(self.headers)))
        for cmd, pt_try in _SIZES:
            if self.width(all_cols, pt_try, False) <= self.width_pt:
                return cmd, [all_cols], False
        size, pt = _SIZES[-1]
        keys, value_cols = self.keys, all_cols[self.keys:]
        rotate = (sum(self.body_w[j] for j in value_cols) > 1.5 * sum(max(self.cell_w[j], 1.0) for j in value_cols)
                  and len(self.cells) > 0)
        blocks, current = [], []
        for j in value_cols:
            trial = list(range(keys)) + current + [j]
            if current and self.width(trial, pt, rotate) > self.width_pt:
                blocks.append(list(range(keys)) + current)
                current = []
            current.append(j)
        blocks.append(list(range(keys)) + current)
        return size, blocks, rotate

    def head(self, cols: list[int]) -> str:
        parts = []
        for j in cols:
            h = self.headers[j]
            if self.rotate and j >= self.keys:
                h = r"\rotatebox{90}{" + h + "}"
            parts.append(h)
        return " & ".join(parts) + r" \\"

    def body(self, cols: list[int]) -> list[str]:
        return [" & ".join(r[j] for j in cols) + r" \\" for r in self.cells]

    def spec(self, cols: list[int]) -> str:
        return "".join(self.align[j] for j in cols)


def _float_lines(lay: _Layout, caption: str, label: str) -> list[str]:
    """A ``table`` float holding every block of columns."""
    lines = [r"\begin{table}[htbp]", r"\centering", lay.size, rf"\setlength{{\tabcolsep}}{{{_TABCOLSEP_PT:g}pt}}",
             rf"\caption{{{caption}}}", rf"\label{{{label}}}"]
    for k, cols in enumerate(lay.blocks):
        if k:
            lines.append(r"\par\medskip")
        lines += [rf"\begin{{tabular}}{{{lay.spec(cols)}}}", r"\toprule", lay.head(cols), r"\midrule",
                  *lay.body(cols), r"\bottomrule", r"\end{tabular}"]
    lines.append(r"\end{table}")
    return lines


def _longtable_lines(lay: _Layout, caption: str, label: str) -> list[str]:
    """One ``longtable`` per block of columns, with repeated headers on continued pages."""
    lines = [r"\begingroup", lay.size, rf"\setlength{{\tabcolsep}}{{{_TABCOLSEP_PT:g}pt}}"]
    for k, cols in enumerate(lay.blocks):
        part = f" (part {k + 1} of {len(lay.blocks)})" if len(lay.blocks) > 1 else ""
        cap = rf"\caption{{{caption}{part}}}" + (rf"\label{{{label}}}" if k == 0 else "")
        cont = rf"\caption[]{{{caption}{part} (continued)}}"
        lines += [rf"\begin{{longtable}}{{{lay.spec(cols)}}}", cap + r" \\", r"\toprule", lay.head(cols),
                  r"\midrule", r"\endfirsthead", cont + r" \\", r"\toprule", lay.head(cols), r"\midrule", r"\endhead",
                  r"\bottomrule", r"\endlastfoot", *lay.body(cols), r"\end{longtable}"]
    lines.append(r"\endgroup")
    return lines


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
    headers, cells, align = _table_cells(df, _decimals(float_format), index)
    lay = _Layout(headers, cells, align, width_pt)
    rows_total = len(cells) * len(lay.blocks) + 2 * len(lay.blocks)
    long = rows_total > longtable_rows
    packages = ["booktabs"] + (["longtable"] if long else []) + (["graphicx"] if lay.rotate else [])
    lines = [f"% pdflatex; needs \\usepackage{{{','.join(packages)}}}. Written by helpers.notebook.latex.latex_table."]
    esc_caption = latex_escape(caption)
    lines += (_longtable_lines if long else _float_lines)(lay, esc_caption, label)
    if any("\\subjevalU{" in line for line in lines):
        lines.insert(1, UNICODE_MACRO)
    return "\n".join(lines) + "\n"
