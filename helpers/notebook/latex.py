"""LaTeX tables that compile with pdflatex: escaping of labels, fixed decimals, widths that fit.

:func:`latex_table` renders a DataFrame as a ``table`` float when it fits one column of a
two-column paper and as a ``table*`` (both columns) otherwise, with booktabs rules and a font
size, wrapped text and column blocks chosen so that it fits; long tables continue in further
floats (never ``longtable``, which stops a two-column document). :func:`latex_escape` spells any
label for pdflatex (special characters, the Greek letters and symbols of the notebooks, accented
Latin letters) or refuses it naming the character. :func:`pdf_fonts` lists the fonts of a PDF (no
Type 3 bitmap font may reach a paper). :mod:`helpers.notebook.reports` writes the tables next to
their CSV.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["latex_escape", "latex_table", "pdf_fonts", "LATEX_HEADERS", "TABLE_WIDTH_PT", "COLUMN_WIDTH_PT",
           "ROWS_PER_FLOAT", "LONGTABLE_ROWS"]


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
    "½": r"\ensuremath{\frac{1}{2}}", "ˣ": r"\ensuremath{^{x}}", "ℓ": r"\ensuremath{\ell}", "′": r"\ensuremath{'}", "‐": "-", "‑": "-", "•": r"\ensuremath{\bullet}",
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


#: Column names written with the papers' notation in LaTeX headers (exact matches only; a label
#: given by the caller, e.g. from :mod:`helpers.notebook.captions`, comes first).
LATEX_HEADERS = {
    "d_max": r"$D_{\max}$", "Dmax": r"$D_{\max}$", "n": r"$N$", "N": r"$N$", "tau": r"$\tau$",
    "theta": r"$\theta$", "p": r"$p$", "sigma": r"$\sigma$", "es_hsd": r"ES$_{\mathrm{HSD}}$",
    "p_value": r"$p$-value", "delta_mar": r"$\Delta$MAR",
}

#: Full text width of a two-column paper (7 in), in points: the widest a table may be (``table*``).
TABLE_WIDTH_PT = 7.0 * 72.27
#: One column of a two-column paper (ACM and IEEE templates: about 3.33 in), in points: a table
#: that fits it is a ``table``, any other a ``table*`` (both columns).
COLUMN_WIDTH_PT = 3.33 * 72.27
#: Printed lines (rows, times the number of column blocks) per float; a longer table continues in
#: further floats of the same number ("Table 7 (continued)"), which work in one- and two-column
#: documents alike (``longtable`` stops a two-column document).
ROWS_PER_FLOAT = 45
#: The former name of :data:`ROWS_PER_FLOAT`.
LONGTABLE_ROWS = ROWS_PER_FLOAT
#: (LaTeX size command, font size in pt), tried in order until the table fits the width.
_SIZES = ((r"\small", 9.0), (r"\footnotesize", 8.0), (r"\scriptsize", 7.0))
_TABCOLSEP_PT = 4.0
#: Estimated ems -> points at a font size: the estimate of :func:`_text_width` plus a margin.
_EM_SLACK = 1.05
#: A text column is wrapped into lines no narrower than this (ems), headers into at most 3 lines.
_MIN_WRAP_EM = 6.0
_MAX_HEADER_LINES = 3


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


def _header(name: Any, labels: Mapping[str, str] | None = None) -> str:
    if isinstance(name, tuple):  # MultiIndex columns: join the levels
        name = " ".join(str(part) for part in name if str(part) != "")
    if labels and str(name) in labels:
        return latex_escape(labels[str(name)])
    return LATEX_HEADERS.get(str(name), None) or latex_escape(name)


def _text_width(text: str) -> float:
    """Width of LaTeX source ``text`` in ems, on the safe side (digits 0.5 em, capitals and
    symbols 0.75 em, other characters 0.55 em; a command counts as one capital)."""
    import re

    text = re.sub(r"\\subjevalU\{([0-9A-F]+)\}\{[^}]*\}", r"<U+\1>", text)   # as pdflatex prints it
    visible = re.sub(r"\\ensuremath\{[^{}]*\}|\\[a-zA-Z]+\{\}|\\.", "M", text)
    visible = re.sub(r"[{}$]|\\[a-zA-Z]+", "", visible)
    return sum(0.5 if c.isdigit() or c in ".,:;' " else 0.75 if (c.isupper() or c in "@#%&+=<>") else 0.55
               for c in visible)


#: Words a line never breaks next to (LaTeX spellings of =, ≤, ≥, −, ·, ×).
_BINDING = {"=", r"\ensuremath{\le}", r"\ensuremath{\ge}", r"\ensuremath{-}", r"\ensuremath{\cdot}",
            r"\ensuremath{\times}", "<", ">"}


def _words(source: str) -> list[str]:
    """LaTeX source split at the spaces outside braces and math (where a line may break)."""
    words, cur, depth, math_mode, escaped = [], "", 0, False, False
    for ch in source:
        if not escaped:
            depth += (ch == "{") - (ch == "}")
            math_mode ^= ch == "$"
        if ch == " " and depth == 0 and not math_mode:
            if cur:
                words.append(cur)
            cur = ""
        else:
            cur += ch
        escaped = ch == "\\" and not escaped
    words += [cur] if cur else []
    # never break around a relation or an operator: "p = 0.2" stays on one line
    joined: list[str] = []
    glue = False
    for word in words:
        binds = word in _BINDING
        if joined and (binds or glue):
            joined[-1] += " " + word
        else:
            joined.append(word)
        glue = binds
    return joined


def _wrap(source: str, target_em: float, max_lines: int = _MAX_HEADER_LINES) -> list[str]:
    """``source`` in as few lines as keep each within ``target_em``; when no split of at most
    ``max_lines`` lines does, the split whose widest line is narrowest."""
    from itertools import combinations

    words = _words(source)
    if len(words) <= 1 or _text_width(source) <= target_em:
        return [source]
    best: tuple[float, list[str]] | None = None
    for k in range(2, min(max_lines, len(words)) + 1):
        cuts = combinations(range(1, len(words)), k - 1) if len(words) <= 16 else [
            tuple(round(len(words) * i / k) for i in range(1, k))]
        for cut in cuts:
            bounds = (0, *cut, len(words))
            lines = [" ".join(words[a:b]) for a, b in zip(bounds, bounds[1:])]
            widest = max(_text_width(line) for line in lines)
            if widest <= target_em:
                return lines
            if best is None or widest < best[0]:
                best = (widest, lines)
    return best[1] if best else [source]


class _Column:
    """One column: escaped header, formatted cells, alignment and the widths it can take (ems)."""

    def __init__(self, header: str, cells: list[str], numeric: bool) -> None:
        self.header, self.cells, self.numeric = header, cells, numeric
        self.cell_em = max([0.0] + [_text_width(c) for c in cells])
        self.header_min_em = max(_text_width(line) for line in _wrap(header, 0.0))
        longest_word = max([0.0] + [_text_width(w) for c in cells for w in _words(c)])
        #: a text column wider than a few words wraps (\parbox); numbers and short text do not
        self.wraps = not numeric and self.cell_em > _MIN_WRAP_EM
        self.natural_em = max(self.cell_em, self.header_min_em)
        self.min_em = max(_MIN_WRAP_EM, longest_word, self.header_min_em) if self.wraps else self.natural_em


def _table_columns(df: pd.DataFrame, decimals: int, index: bool, labels: Mapping[str, str] | None) -> list[_Column]:
    frame = df.reset_index() if index else df
    headers = [_header(c, labels) for c in frame.columns]
    cells: list[list[str]] = [[] for _ in headers]
    numeric = [True] * len(headers)
    for row in frame.itertuples(index=False, name=None):
        for j, value in enumerate(row):
            text, is_num = _format_cell(value, decimals)
            cells[j].append(text)
            numeric[j] = numeric[j] and is_num
    if not len(frame):
        numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    return [_Column(h, c, n) for h, c, n in zip(headers, cells, numeric)]


def _fit(cols: list[_Column], width_pt: float, size_pt: float) -> list[float] | None:
    """Widths (ems) that fit ``width_pt`` at ``size_pt``: natural widths, else the wrapping text
    columns narrowed to a common cap (never below their minimum); ``None`` when nothing fits."""
    avail = (width_pt - len(cols) * 2 * _TABCOLSEP_PT) / (size_pt * _EM_SLACK)
    natural = [c.natural_em for c in cols]
    if sum(natural) <= avail:
        return natural
    lows = [c.min_em for c in cols]
    if sum(lows) > avail:
        return None
    lo, hi = 0.0, max(natural)
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if sum(max(a, min(n, mid)) for a, n in zip(lows, natural)) <= avail else (lo, mid)
    return [max(a, min(n, lo)) for a, n in zip(lows, natural)]


class _Plan:
    """How a table is set: float environment, font size, column widths, blocks, rotated headers."""

    def __init__(self, cols: list[_Column], column_pt: float, width_pt: float) -> None:
        self.cols, self.rotate = cols, False
        for wide, limit in ((False, column_pt), (True, width_pt)):
            for cmd, pt in _SIZES:
                widths = _fit(cols, limit, pt)
                if widths is not None:
                    self.wide, self.size, self.pt, self.widths = wide, cmd, pt, widths
                    self.blocks = [list(range(len(cols)))]
                    return
        self.wide, (self.size, self.pt) = True, _SIZES[-1]
        self._blocks(width_pt)

    def _blocks(self, width_pt: float) -> None:
        """Blocks of value columns at the smallest size, each repeating the leading text columns."""
        cols, keys = self.cols, 0
        while keys < len(cols) - 1 and not cols[keys].numeric:
            keys += 1
        keys = max(keys, 1)
        values = range(keys, len(cols))
        self.rotate = (sum(cols[j].header_min_em for j in values) > 1.5 * sum(max(cols[j].cell_em, 1.0) for j in values)
                       and bool(cols[0].cells))
        self.widths = [c.natural_em if (j < keys or not self.rotate) else max(c.cell_em, 1.2) for j, c in enumerate(cols)]
        self.keys = list(range(keys))
        self.blocks, current = [], []
        for j in values:
            if current and self.width(self.keys + current + [j]) > width_pt:
                self.blocks.append(self.keys + current)
                current = []
            current.append(j)
        self.blocks.append(self.keys + current)

    def width(self, cols: list[int]) -> float:
        """Estimated width in points of the columns ``cols``."""
        return sum(self.widths[j] * self.pt * _EM_SLACK + 2 * _TABCOLSEP_PT for j in cols)

    def wrapped(self, j: int) -> bool:
        return self.cols[j].wraps and self.widths[j] < self.cols[j].cell_em

    def head(self, cols: list[int]) -> str:
        parts = []
        for j in cols:
            c = self.cols[j]
            if self.rotate and j not in self.keys:
                parts.append(r"\rotatebox{90}{" + c.header + "}")
                continue
            lines = _wrap(c.header, self.widths[j])
            parts.append(lines[0] if len(lines) == 1 else r"\begin{tabular}[b]{@{}" + ("r" if c.numeric else "l")
                         + "@{}}" + r" \\ ".join(lines) + r"\end{tabular}")
        return " & ".join(parts) + r" \\"

    def row(self, i: int, cols: list[int]) -> str:
        cells = []
        for j in cols:
            text = self.cols[j].cells[i]
            if self.wrapped(j):
                text = rf"\parbox[t]{{{self.widths[j] * self.pt * _EM_SLACK:.1f}pt}}{{\raggedright {text}\strut}}"
            cells.append(text)
        return " & ".join(cells) + r" \\"

    def row_lines(self, i: int) -> int:
        """Estimated printed lines of row ``i`` (wrapped text takes several)."""
        return max([1] + [math.ceil(1.15 * _text_width(self.cols[j].cells[i]) / self.widths[j])
                          for j in range(len(self.cols)) if self.wrapped(j)])

    def chunks(self, per_float: int) -> list[list[int]]:
        """Rows per float: at most ``per_float`` printed lines, counting every block."""
        n_rows = len(self.cols[0].cells) if self.cols else 0
        out, current, used = [], [], 0
        for i in range(n_rows):
            need = self.row_lines(i) * len(self.blocks)
            if current and used + need > per_float - 2 * len(self.blocks):
                out.append(current)
                current, used = [], 0
            current.append(i)
            used += need
        return out + [current] if current or not out else out

    def spec(self, cols: list[int]) -> str:
        return "".join("r" if self.cols[j].numeric else "l" for j in cols)


def _float_lines(plan: _Plan, caption: str, label: str, per_float: int) -> list[str]:
    """One float (``table``, or ``table*`` when wider than a column) per chunk of rows, each
    holding every block of columns; continuations repeat the headers under the same number."""
    env = "table*" if plan.wide else "table"
    chunks = plan.chunks(per_float)
    lines = []
    for k, rows in enumerate(chunks):
        lines += [rf"\begin{{{env}}}[htbp]", r"\centering", plan.size, rf"\setlength{{\tabcolsep}}{{{_TABCOLSEP_PT:g}pt}}"]
        if k == 0:
            more = f" (in {len(chunks)} parts)" if len(chunks) > 1 else ""
            lines += [rf"\caption{{{caption}{more}}}", rf"\label{{{label}}}"]
        else:
            lines += [rf"\tablename~\thetable{{}} (continued, part {k + 1} of {len(chunks)})\par\smallskip"]
        for b, cols in enumerate(plan.blocks):
            if b:
                lines.append(r"\par\medskip")
            lines += [rf"\begin{{tabular}}{{{plan.spec(cols)}}}", r"\toprule", plan.head(cols), r"\midrule",
                      *[plan.row(i, cols) for i in rows], r"\bottomrule", r"\end{tabular}"]
        lines.append(rf"\end{{{env}}}")
    return lines


def latex_table(df: pd.DataFrame, *, caption: str, label: str, float_format: str = "%.4f",
                index: bool = False, width_pt: float = TABLE_WIDTH_PT, column_pt: float = COLUMN_WIDTH_PT,
                longtable_rows: int = ROWS_PER_FLOAT, headers: Mapping[str, str] | None = None) -> str:
    """A DataFrame as a LaTeX table that compiles standalone with pdflatex, in one- and
    two-column documents.

    * every header and text cell is escaped (:func:`latex_escape`); ``headers`` maps column names
      to the labels printed (:mod:`helpers.notebook.captions`), else a few names take the papers'
      notation (:data:`LATEX_HEADERS`: ``d_max`` -> :math:`D_{\\max}`, ``n`` -> :math:`N`);
      long headers break into up to three lines;
    * numbers in fixed decimals (``float_format``), integers as integers, NaN as ``--``, a true
      minus sign; number columns right-aligned;
    * a ``table`` float when it fits one column of a two-column paper (``column_pt``, 3.33 in) at
      ``\\small`` to ``\\scriptsize`` (7 pt in a 10 pt document), long text wrapped; otherwise a
      ``table*`` (the full width, ``width_pt``, 7 in), and when even that is too narrow, column
      blocks that repeat the leading text columns (e.g. a 30-column matrix becomes stacked blocks
      of the same rows), with rotated headers when those are much wider than the numbers;
    * ``\\caption`` and ``\\label`` (booktabs rules); a table of more than ``longtable_rows``
      printed lines continues in further floats under the same number.

    Needs ``\\usepackage{booktabs}`` (plus ``graphicx`` for rotated headers: the first line of the
    output names the packages).
    """
    cols = _table_columns(df, _decimals(float_format), index, headers)
    plan = _Plan(cols, column_pt, width_pt)
    packages = ["booktabs"] + (["graphicx"] if plan.rotate else [])
    where = "spans both columns (table*)" if plan.wide else "fits one column"
    lines = [f"% pdflatex; needs \\usepackage{{{','.join(packages)}}}; {where} of a two-column paper. "
             "Written by helpers.notebook.latex.latex_table."]
    lines += _float_lines(plan, latex_escape(caption), label, longtable_rows)
    if any("\\subjevalU{" in line for line in lines):
        lines.insert(1, UNICODE_MACRO)
    return "\n".join(lines) + "\n"


#: Font subtypes of the PDF specification (Table 110): what ``pdffonts`` lists in its type column.
_FONT_SUBTYPES = ("Type0", "Type1", "MMType1", "Type3", "TrueType", "CIDFontType0", "CIDFontType2")


def pdf_fonts(data: bytes) -> list[tuple[str, str]]:
    """The fonts of a PDF file's bytes as ``(name, subtype)`` pairs, like ``pdffonts`` (poppler)
    lists them, with no PDF library: font dictionaries are read from the file and from its
    Flate-compressed streams (pdflatex keeps them in object streams). ``Type3`` marks a font drawn
    from bitmaps or procedures (pdflatex's fallback for a font without an outline version);
    publishers ask for Type 1, TrueType or CID fonts only. A Type 3 font has no name: ``"[none]"``.
    """
    import re
    import zlib

    chunks = [data]
    for m in re.finditer(rb"stream\r?\n", data):
        end = data.find(b"endstream", m.end())
        try:
            chunks.append(zlib.decompressobj().decompress(data[m.end():end if end > 0 else None]))
        except zlib.error:
            continue
    subtype = re.compile(rb"/Subtype\s*/(" + b"|".join(s.encode() for s in _FONT_SUBTYPES) + rb")(?![A-Za-z0-9])")
    fonts = []
    for chunk in chunks:
        for m in subtype.finditer(chunk):
            kind = m.group(1).decode()
            start = chunk.rfind(b"<<", 0, m.start())
            window = chunk[max(start, 0):chunk.find(b">>", m.end()) + 2 if chunk.find(b">>", m.end()) > 0 else None]
            if b"/Font" not in window and kind != "Type3":
                continue
            name = re.search(rb"/BaseFont\s*/([^\s/<>\[\]()]+)", window)
            fonts.append((name.group(1).decode("latin-1") if name and kind != "Type3" else "[none]", kind))
    return fonts
