"""Findings tables: the conclusion of a notebook as records, rendered once for every reader.

A notebook answers a few questions. Its conclusion is a **findings table** -- one row per
question: *question · what the paper reports · this run (value and interval) · verdict* --
then a few short bullets of prose and one **Limitations** paragraph that states each caveat once.
The records are built by package functions next to each analysis (:mod:`helpers.findings`);
this module holds the record types, the verdict and caveat vocabularies and the one renderer
that turns records into the forms each reader needs:

* ``text/markdown`` -- a Markdown table, the bullets, the Limitations paragraph (the book and
  the HTML export read this);
* ``text/html`` -- a styled table with a caption, the bullets and the paragraph (JupyterLab);
* ``text/plain`` -- one block per question (what nbval compares, what a log shows);
* CSV and LaTeX -- ``reports/tables/NN_findings.{csv,tex}`` through the notebook's
  :class:`~helpers.notebook.reports.Reporter`, and the same records under ``"findings"`` in the
  notebook's metrics JSON.

Rules
-----
**Verdicts** (:data:`VERDICTS`). The verdict cell holds one word or short phrase of a closed
vocabulary, each with one rule; the claims module (:mod:`helpers.notebook.claims`) decides which
applies. A verdict outside the vocabulary is an error.

**Caveats** (:data:`CAVEATS`). A row names the caveats that qualify it by key; each caveat is
stated once, in the Limitations paragraph, with a letter, and the verdict cell of every row it
qualifies carries that letter (``holds (a)``). A notebook may add caveats of its own (a key and one
short sentence); the shared ones keep one wording across notebooks.

**Length** (:func:`problems`). No sentence over :data:`MAX_SENTENCE_WORDS` words, no more than
:data:`MAX_PROSE_WORDS` words of prose (bullets and Limitations, the table not counted). The
renderer does not refuse a long text (a user's run must not stop on wording); the tests and the
configuration fuzz check every rendered conclusion and every notebook's markdown and output
with :func:`long_sentences`.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["VERDICTS", "CAVEATS", "Finding", "Findings", "AppendixFindings", "MAX_SENTENCE_WORDS", "MAX_PROSE_WORDS", "notebook_problems",
           "conclusion_markdown", "has_findings",
           "sentences", "words", "long_sentences", "problems", "COLUMNS"]

#: The verdict vocabulary: word -> the rule that gives it.
VERDICTS: dict[str, str] = {
    "reproduced": "this run's value equals the paper's at the paper's printed digits",
    "not reproduced": "this run's value differs from the paper's at the paper's printed digits",
    "agrees": "the reference value (the paper's, or an exact one) lies inside this run's interval",
    "differs": "the reference value lies outside this run's interval",
    "holds": "every part of the claim holds, each by its own test or interval",
    "holds in part": "some parts of the claim hold and some do not",
    "does not hold": "no part of the claim holds",
    "shown": "a test rejects at the stated level, after the stated correction",
    "not shown": "no test rejects: no difference shown (not a proof of equality)",
    "cannot tell": "the data or the test cannot answer (too few cases, no power, nothing drawn)",
    "by construction": "the answer follows from how the simulation was built: a check of the machinery",
    "by definition": "the answer follows from a definition or an algebraic identity: a check of the code, not a finding",
    "not tested": "the question is not asked of this run's data",
}

#: Caveats shared by the notebooks: key -> the one sentence that states it.
CAVEATS: dict[str, str] = {
    "by_construction": "Simulated results that follow from how the simulation was built check the code, "
                       "not the measures or the users.",
    "simulated": "Simulated assessors validate the method against a planted truth; they say nothing about "
                 "real assessors.",
    "uncorrected": "Rows marked with this letter rest on several comparisons, none corrected for multiple testing.",
    "in_sample": "Values marked with this letter are estimated and scored on the same data, so they are "
                 "optimistic.",
    "low_power": "A test with little power cannot support a negative result.",
    "few_draws": "Ranges over fewer than 40 draws are ranges, not 95% intervals.",
    "one_draw": "Values from one draw of fixed data carry no interval.",
    "stand_in": "The paper's own data are licensed; this run uses a stand-in, so its values are not the paper's.",
}

#: The table's columns, in order.
COLUMNS = ("question", "paper", "this run", "verdict")

MAX_SENTENCE_WORDS = 50
MAX_PROSE_WORDS = 250


@dataclass(frozen=True)
class Finding:
    """One row of a findings table.

    Parameters
    ----------
    question : str
        The question, short (``"Do Eq. 1-2 reproduce Table 1?"``).
    paper : str
        What the paper reports (a value, or ``"—"`` when it reports none).
    run : str
        This run's answer: value and interval (``"0.412 [0.398, 0.427]"``).
    verdict : str
        A word of :data:`VERDICTS`.
    caveats : tuple of str
        Keys of the caveats that qualify this row (of :data:`CAVEATS` or the notebook's own).
    numbers : mapping
        The numbers the row rests on (for tests and the metrics file).
    """

    question: str
    paper: str
    run: str
    verdict: str
    caveats: tuple[str, ...] = ()
    numbers: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not in the vocabulary: {sorted(VERDICTS)}")
        object.__setattr__(self, "caveats", tuple(self.caveats))


@dataclass(frozen=True)
class Findings:
    """A notebook's conclusion: the rows, the bullets and the caveats, rendered by one renderer.

    Parameters
    ----------
    notebook : str
        The notebook's stem (``"01_gain_definitions"``).
    rows : sequence of Finding
        One per question the notebook asks of this run's data.
    prose : sequence of str
        Short bullets (one idea each) that say what the table means.
    caveats : mapping
        The notebook's own caveats (key -> one sentence), besides :data:`CAVEATS`.
    general : sequence of str
        Keys of caveats that qualify the whole conclusion (stated without a letter).
    footer : str
        Markdown after the Limitations (the link to the next notebook).
    """

    notebook: str
    rows: Sequence[Finding]
    prose: Sequence[str] = ()
    caveats: Mapping[str, str] = field(default_factory=dict)
    general: Sequence[str] = ()
    footer: str = ""

    def __post_init__(self):
        object.__setattr__(self, "rows", tuple(self.rows))
        object.__setattr__(self, "prose", tuple(str(p) for p in self.prose))
        object.__setattr__(self, "general", tuple(self.general))
        known = {**CAVEATS, **self.caveats}
        unknown = [k for r in self.rows for k in r.caveats if k not in known] + [k for k in self.general
                                                                                 if k not in known]
        if unknown:
            raise ValueError(f"caveats without a sentence: {sorted(set(unknown))}; add them to `caveats`")

    # -- the caveats, each once ---------------------------------------------------------------
    def letters(self) -> dict[str, str]:
        """Caveat key -> its letter, in order of first use by a row (general caveats get none)."""
        keys = list(dict.fromkeys(k for r in self.rows for k in r.caveats if k not in self.general))
        return {k: string.ascii_lowercase[i] for i, k in enumerate(keys)}

    def limitations(self) -> str:
        """The Limitations paragraph: each caveat once (general ones first, then the lettered)."""
        known = {**CAVEATS, **self.caveats}
        parts = [known[k] for k in self.general]
        parts += [f"({letter}) {known[k]}" for k, letter in self.letters().items()]
        return " ".join(parts)

    # -- the table ----------------------------------------------------------------------------
    def table(self) -> pd.DataFrame:
        """The findings table: question, paper, this run, verdict (with its caveat letters)."""
        letters = self.letters()
        rows = []
        for r in self.rows:
            marks = [letters[k] for k in r.caveats if k in letters]
            rows.append({"question": r.question, "paper": r.paper, "this run": r.run,
                         "verdict": r.verdict + (f" ({', '.join(marks)})" if marks else "")})
        return pd.DataFrame(rows, columns=list(COLUMNS))

    def caption(self) -> str:
        number = self.notebook[:2]
        return (f"Findings of notebook {number}: one row per question, with what the paper reports, "
                "this run's value and the verdict.")

    # -- renderings ---------------------------------------------------------------------------
    def markdown(self) -> str:
        """Markdown: the table, the bullets, the Limitations paragraph, the footer."""
        t = self.table()
        cell = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in t.itertuples(index=False)]
        parts = ["\n".join(lines)]
        if self.prose:
            parts.append("\n".join(f"- {p}" for p in self.prose))
        lim = self.limitations()
        if lim:
            parts.append(f"**Limitations.** {lim}")
        if self.footer:
            parts.append(self.footer)
        return "\n\n".join(parts)

    def html(self) -> str:
        """HTML: a styled table (caption, text left-aligned), the bullets, the Limitations."""
        import hashlib

        t = self.table()
        uid = hashlib.sha256(self.text().encode("utf-8")).hexdigest()[:8]
        # Styler writes cell text as it is: escape <, > and & ("p < 0.001" must not open a tag)
        styler = (t.style.format(lambda v: html.escape(str(v), quote=False)).hide(axis="index")
                  .set_caption(html.escape(self.caption()))
                  .set_properties(**{"text-align": "left", "vertical-align": "top"})
                  .set_table_styles([{"selector": "th", "props": [("text-align", "left")]}])
                  .set_uuid(uid))
        parts = [styler.to_html()]
        if self.prose:
            parts.append("<ul>" + "".join(f"<li>{_inline(p)}</li>" for p in self.prose) + "</ul>")
        lim = self.limitations()
        if lim:
            parts.append(f"<p><strong>Limitations.</strong> {_inline(lim)}</p>")
        if self.footer:
            parts.append(f"<p>{_inline(self.footer)}</p>")
        return "\n".join(parts)

    def text(self) -> str:
        """Plain text: one block per question, then the bullets and the Limitations."""
        t = self.table()
        lines = ["Findings"]
        for i, row in enumerate(t.itertuples(index=False), start=1):
            lines.append(f"{i}. {row[0]}")
            lines.append(f"   paper: {row[1]}")
            lines.append(f"   this run: {row[2]}")
            lines.append(f"   verdict: {row[3]}")
        lines += [f"- {p}" for p in self.prose]
        lim = self.limitations()
        if lim:
            lines.append(f"Limitations. {lim}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        """The records as the metrics file and the book read them."""
        return {"table": self.table().to_dict(orient="records"), "prose": list(self.prose),
                "limitations": self.limitations(),
                "numbers": [dict(r.numbers) for r in self.rows]}

    def show(self, out=None, metrics: dict | None = None, name: str = "findings") -> None:
        """Display the conclusion (Markdown, HTML and text in one output); with ``out`` (the
        notebook's Reporter) save the table as ``NN_<name>.{csv,tex}`` (``NN_findings`` by default;
        an appendix table passes its own name) and, with ``metrics``, write the metrics file again
        with the records under ``"findings"``."""
        from IPython.display import display

        if out is not None:
            out.save_table(self.table(), name, caption=self.caption())
            if metrics is not None:
                metrics["findings"] = self.as_dict()
                out.save_metrics(metrics)
        display({"text/plain": self.text(), "text/markdown": self.markdown(), "text/html": self.html()},
                 raw=True)

    def problems(self) -> list[str]:
        return problems(self)


def _inline(text: str) -> str:
    """Escape text for HTML, keeping Markdown links, **bold**, *italic* and `code` as tags."""
    s = html.escape(str(text), quote=False)
    s = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", s)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    return s


# -- sentences and their lengths --------------------------------------------------------------
#: Words after which a full stop does not end a sentence.
ABBREVIATIONS = {"e.g", "i.e", "eq", "eqs", "sec", "no", "vs", "cf", "et al", "al", "fig", "tab", "resp",
                 "approx", "etc", "ch", "p", "pp", "vol", "dr", "st", "incl", "ca"}
_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(\[*_`#|-])")
_WORD = re.compile(r"\S*[0-9A-Za-zÀ-ÿα-ωΑ-Ω♯]\S*")


def words(text: str) -> int:
    """The number of words in ``text`` (tokens holding a letter or digit)."""
    return len(_WORD.findall(text))


def _strip_markdown(text: str) -> list[str]:
    """Blocks of running text of a Markdown or output text: code fences, tables and headings
    dropped, each bullet and each paragraph a block of its own."""
    blocks, current, fenced = [], [], False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("```"):
            fenced = not fenced
            continue
        if fenced or s.startswith("|") or s.startswith("#") or s.startswith("<"):
            if current:
                blocks.append(" ".join(current))
                current = []
            continue
        if not s or re.match(r"^([-*+]|\d+[.)])\s", s):
            if current:
                blocks.append(" ".join(current))
            current = [re.sub(r"^([-*+]|\d+[.)])\s+", "", s)] if s else []
            continue
        current.append(s)
    if current:
        blocks.append(" ".join(current))
    return [b for b in blocks if b]


def sentences(text: str, *, lines_break: bool = False) -> list[str]:
    """The sentences of a Markdown (or, with ``lines_break``, printed) text.

    A sentence ends at ``.``, ``!`` or ``?`` followed by white space and a capital, a digit or an
    opening mark, unless the word before the stop is an abbreviation (:data:`ABBREVIATIONS`) or a
    single letter; a semicolon does not end one. Code fences, table rows and headings are not
    prose; each bullet and each paragraph is a block of its own. In printed output every line is
    a block (``lines_break``).
    """
    blocks = ([ln.strip() for ln in text.splitlines() if ln.strip()] if lines_break
              else _strip_markdown(text))
    out = []
    for block in blocks:
        start = 0
        for m in _END.finditer(block):
            before = block[start:m.start()].rstrip("\"')]").rstrip(".!?")
            last = before.split()[-1].lower() if before.split() else ""
            last = last.lstrip("(")
            if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()) or before.lower().endswith("et al"):
                continue
            out.append(block[start:m.start()].strip())
            start = m.end()
        out.append(block[start:].strip())
    return [s for s in out if s]


def long_sentences(text: str, limit: int = MAX_SENTENCE_WORDS, *, lines_break: bool = False) -> list[str]:
    """Every sentence of ``text`` over ``limit`` words, as ``"(N words) first words ..."``."""
    return [f"({words(s)} words) {' '.join(s.split()[:12])} ..." for s in sentences(text, lines_break=lines_break)
            if words(s) > limit]


def problems(f: Findings) -> list[str]:
    """What breaks the length rules in a conclusion: long sentences anywhere in it (table cells
    included), and more than :data:`MAX_PROSE_WORDS` words of bullets and Limitations."""
    out = []
    prose_words = sum(words(p) for p in f.prose) + words(f.limitations())
    if prose_words > MAX_PROSE_WORDS:
        out.append(f"{prose_words} words of prose (at most {MAX_PROSE_WORDS})")
    texts = list(f.prose) + [f.limitations()] + [str(v) for row in f.table().itertuples(index=False) for v in row]
    for t in texts:
        out += long_sentences(t)
    return out


# -- a whole executed notebook ----------------------------------------------------------------
MAX_CELL_LINES = 40
#: The id of the cell that displays a notebook's findings.
CELL_ID = "conclusion-text"


def _cell_text(cell: Mapping) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _outputs(cell: Mapping) -> list[str]:
    """A code cell's outputs as text: streams, and the Markdown (else plain) form of displays."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(_cell_text({"source": o.get("text", "")}))
        data = o.get("data", {})
        for mime in ("text/markdown", "text/plain"):
            if mime in data:
                out.append(_cell_text({"source": data[mime]}))
                break
    return out


@dataclass(frozen=True)
class AppendixFindings(Findings):
    """A notebook's appendix table (``NN_findings_appendix``): rows that check the machinery or hold
    by construction of a simulation, with the caveats they point to; ``title`` is its caption."""

    title: str = ""

    def caption(self) -> str:
        return self.title

    def show_or_say(self, out=None, *, empty: str) -> None:
        """Display and save the table, or, without rows, print its prose or ``empty``."""
        if not self.rows:
            print("\n".join(self.prose) or empty)
            return
        self.show(out, name="findings_appendix")


def conclusion_markdown(nb: Mapping) -> str:
    """The Markdown of the notebook's findings cell (``""`` when it has none)."""
    for cell in nb.get("cells", []):
        if cell.get("id") == CELL_ID:
            for o in cell.get("outputs", []):
                md = o.get("data", {}).get("text/markdown")
                if md:
                    return _cell_text({"source": md})
    return ""


def has_findings(nb: Mapping) -> bool:
    """Whether the notebook's conclusion opens with a findings table."""
    return conclusion_markdown(nb).lstrip().startswith("| " + " | ".join(COLUMNS) + " |")


def notebook_problems(nb: Mapping) -> list[str]:
    """What breaks the reading rules in an executed notebook (an appendix a referee would attach):

    * a code cell over :data:`MAX_CELL_LINES` lines (the ``parameters`` cell aside);
    * no findings table in the conclusion cell (:data:`CELL_ID`), or more than
      :data:`MAX_PROSE_WORDS` words of prose after it;
    * a sentence over :data:`MAX_SENTENCE_WORDS` words in markdown or in any output (the
      environment report of an ``nbval-ignore-output`` cell aside; printed lines are sentences'
      boundaries).
    """
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        tags = cell.get("metadata", {}).get("tags", [])
        text = _cell_text(cell)
        if cell.get("cell_type") == "markdown":
            out += [f"cell {i} (markdown): {s}" for s in long_sentences(text)]
            continue
        if cell.get("cell_type") != "code":
            continue
        lines = len(text.splitlines())
        if lines > MAX_CELL_LINES and "parameters" not in tags:
            out.append(f"cell {i}: {lines} lines of code (at most {MAX_CELL_LINES})")
        if "nbval-ignore-output" in tags:
            continue
        for o in _outputs(cell):
            md = cell.get("id") == CELL_ID
            out += [f"cell {i} (output): {s}" for s in long_sentences(o, lines_break=not md)]
    md = conclusion_markdown(nb)
    if not has_findings(nb):
        out.append(f"the conclusion (cell id {CELL_ID!r}) does not open with a findings table")
    else:
        prose = "\n".join(ln for ln in md.splitlines() if not ln.startswith("|") and not ln.startswith("Next:"))
        n = words(prose)
        if n > MAX_PROSE_WORDS:
            out.append(f"the conclusion has {n} words of prose after its table (at most {MAX_PROSE_WORDS})")
    return out
