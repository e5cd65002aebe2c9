"""Build the book of the executed notebooks of one run: a static site and, with pdflatex, a PDF appendix.

    python tools/build_book.py [--profile default] [--params DIR [--name NAME]] [--out DIR] [--no-pdf] [--onecolumn]

(``make book [PROFILE=...]``, ``make book PARAMS=my-params``). Sources: for the ``default``
profile the committed notebooks (``notebooks/NN_*.ipynb`` are the executed default run, outputs
included); for any other profile, and for a run on one's own parameter files (``--params DIR``,
named like ``make reproduce PARAMS=DIR`` names it: the folder's name, or ``--name``), the executed
copies under ``reports/executed/<name>/``. Figures and tables come from the folder each notebook
wrote to (the one it announced, else ``reports/`` or ``reports/<name>/``).

The book describes the run it was built from, not the notebooks' defaults: for every notebook
the parameters that differ from its defaults, the inputs it read (data source, files, what it
printed about them), its outputs folder and its measured runtime, all read from the executed
notebook (:mod:`helpers.notebook.runinfo`); the introduction's "Reproduces" text is labelled as
the notebook's, with its default parameters, when the run changed any. A notebook that failed is
marked FAILED with its error in the index, on its pages and in the PDF.

Writes, under ``reports/book/<name>/`` (git-ignored, rebuilt on every call):

* ``index.html``: every notebook with what it reproduces, this run's parameters and inputs, its
  outputs and its status and runtime (measured by the runner, ``runtimes.json``; never estimated);
* ``NN_name.html``: reading mode, code hidden, every output inline, followed by the notebook's
  saved figures and tables with their captions (:mod:`helpers.notebook.captions`);
* ``code/NN_name.html``: the same notebook with its code;
* ``appendix.pdf`` (and ``appendix.tex``) when ``pdflatex`` is on the PATH: per notebook its title,
  what it reproduces, this run, the generated conclusion, every saved figure and LaTeX table, set
  as a two-column paper (``--onecolumn`` for one column); a Type 3 font is warned about.

Nothing here needs a network or a package beyond the pinned ones (nbconvert renders the HTML).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from helpers import paths  # noqa: E402
from helpers.notebook import captions, outputs, pipeline, runinfo  # noqa: E402
from helpers.measures.cli import StoreOnce  # noqa: E402
from helpers.notebook.latex import pdf_fonts  # noqa: E402
from helpers.notebook.reports import atomic_write_text, latex_escape  # noqa: E402

CSS = ROOT / "book" / "book.css"
#: A figure wider than this (points; a column of a two-column paper is 3.33 in) spans both columns.
SINGLE_FIGURE_PT = 3.5 * 72


class UsageError(SystemExit):
    """A command line naming no run to build (an unknown profile, a missing folder, no executed
    notebooks): :func:`main` prints the message on one line and exits with status 2, as the
    notebook runner does for its usage errors. Raised by :func:`build` too."""


def run_name(profile: str = "default", params: str | None = None, name: str | None = None) -> str:
    """The run whose book is built: ``profile``, or the name ``make reproduce PARAMS=...`` gave
    the run on one's own parameter files (the folder's name, or ``name``)."""
    if params is None:
        if name:
            raise UsageError("build_book: --name only goes with --params")
        return profile
    try:
        if not Path(os.path.expanduser(params)).exists():
            pipeline.parameter_files(params, [])   # the runner's message for a folder that does not exist
        return pipeline.output_name(params, name)
    except ValueError as exc:
        raise UsageError(f"build_book: {exc}") from None


def sources(profile: str) -> list[Path]:
    """The executed notebooks of ``profile``, in order: for each notebook the copy of its last run --
    the failed copy (``failed/``) when that run failed, else the published one; a clear error,
    naming the command that makes them, when there are none."""
    if profile == "default":
        return pipeline.discover()
    folder = paths.reports_root() / "executed" / profile
    found = {p.name: p for p in folder.glob("[0-9][0-9]_*.ipynb")}
    # the runner removes a notebook's failed copy when it starts it again: a copy there is its last run
    found.update({p.name: p for p in (folder / "failed").glob("[0-9][0-9]_*.ipynb")})
    if not found:
        known = sorted(p.name for p in folder.parent.iterdir() if p.is_dir()) if folder.parent.is_dir() else []
        runs = f"; executed runs: {', '.join(known)}" if known else ""
        if profile in pipeline.profiles():
            raise UsageError(f"build_book: no executed notebooks for {profile!r} under {pipeline._show(folder)}; run "
                             f"`make reproduce PROFILE={profile}` first{runs}")
        try:
            pipeline.check_profile(profile)   # the runner's message: unknown profile, did you mean, known ones
        except ValueError as exc:
            raise UsageError(f"build_book: no executed notebooks for {profile!r}: {exc}, nor a run of your own "
                             f"parameter files (none under {pipeline._show(folder)}; `make reproduce PARAMS=<your "
                             f"folder>` makes one, named after the folder or --name {profile}){runs}") from None
    return [found[name] for name in sorted(found)]


#: The Markdown cell papermill puts first in a notebook that failed ("An Exception was encountered").
PAPERMILL_ERROR_TAG = "papermill-error-cell-tag"


def _own_cells(nb):
    """The notebook without the cells papermill added to report an error."""
    import copy

    nb = copy.copy(nb)
    nb.cells = [c for c in nb.cells if PAPERMILL_ERROR_TAG not in c.get("metadata", {}).get("tags", [])]
    return nb


def intro_fields(nb) -> dict[str, str]:
    """``title``, ``purpose``, ``reproduces``, ``inputs`` from the first Markdown cell (the
    notebook anatomy: ``# NN · Title``, then bold-labelled paragraphs)."""
    nb = _own_cells(nb)
    first = next((c for c in nb.cells if c.cell_type == "markdown"), None)
    text = first.source if first is not None else ""
    fields = {"title": pipeline.notebook_title(nb, ""), "purpose": ""}
    paragraphs = re.split(r"\n\s*\n", text)
    fields["purpose"] = next((p.strip() for p in paragraphs[1:] if not p.lstrip().startswith("**")), "")
    for key, label in (("reproduces", "Reproduces"), ("inputs", "Inputs")):
        m = re.search(rf"\*\*{label}\*\*:?\s*(.*?)(?=\n\*\*[A-Z][a-z]+\*\*|\n\s*\n|\Z)", text, flags=re.S)
        fields[key] = " ".join(m.group(1).split()) if m else ""
    return fields


def conclusion_markdown(nb) -> str:
    """The generated conclusion (the ``conclusion-text`` cell's Markdown output), or ''."""
    for cell in nb.cells:
        if cell.get("id") == "conclusion-text":
            for out in cell.get("outputs", []):
                md = out.get("data", {}).get("text/markdown")
                if md:
                    return "".join(md) if isinstance(md, list) else md
    return ""


#: The findings table's columns (helpers.notebook.findings.COLUMNS).
FINDINGS_COLUMNS = ("question", "paper", "this run", "verdict")


def _split_row(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` is a literal bar)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def findings_of(markdown: str, metrics: Path | None = None) -> dict | None:
    """The conclusion as findings records: ``{"table": [{question, paper, this run, verdict}, ...],
    "prose": [...], "limitations": str}``, read from the conclusion cell's Markdown (a findings table,
    bullets, a ``**Limitations.**`` paragraph: helpers.notebook.findings), else from the ``"findings"``
    key of the notebook's metrics JSON; None for a conclusion in the older form (bullets only)."""
    lines = markdown.strip().splitlines()
    header = "| " + " | ".join(FINDINGS_COLUMNS) + " |"
    if lines and lines[0].strip() == header:
        rows, k = [], 2
        while k < len(lines) and lines[k].lstrip().startswith("|"):
            cells = _split_row(lines[k])
            if len(cells) == len(FINDINGS_COLUMNS):
                rows.append(dict(zip(FINDINGS_COLUMNS, cells)))
            k += 1
        rest = "\n".join(lines[k:])
        prose = [ln[2:].strip() for ln in rest.splitlines() if ln.startswith("- ")]
        m = re.search(r"\*\*Limitations\.\*\*\s*(.+?)(?:\n\s*\n|\Z)", rest, flags=re.S)
        return {"table": rows, "prose": prose, "limitations": " ".join(m.group(1).split()) if m else ""}
    if metrics is not None and metrics.is_file():
        found = _read_json(metrics, "a notebook's metrics (a JSON object with 'findings')")
        found = found.get("findings") if isinstance(found, dict) else None
        if isinstance(found, dict) and found.get("table"):
            return {"table": [{c: str(r.get(c, "")) for c in FINDINGS_COLUMNS} for r in found["table"]],
                    "prose": [str(p) for p in found.get("prose", [])], "limitations": str(found.get("limitations", ""))}
    return None


def _md_inline_html(text: str) -> str:
    """Minimal Markdown -> HTML for the index (bold, emphasis, code, links); everything else escaped."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![*\w])\*([^*\s][^*]*?)\*(?![*\w])", r"<em>\1</em>", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', out)
    return out


def _md_inline_latex(text: str) -> str:
    """Markdown prose -> LaTeX: inline math kept, code and emphasis set, links as their text,
    everything else escaped (helpers.notebook.reports.latex_escape)."""
    parts = re.split(r"(\$[^$\n]+\$)", text)
    out = []
    for k, part in enumerate(parts):
        if k % 2 == 1:
            out.append(part)
            continue
        part = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r"\1", part)
        for tok in re.split(r"(\*\*.+?\*\*|`[^`]+`|\*[^*\s][^*]*\*)", part):
            if tok.startswith("**") and tok.endswith("**") and len(tok) > 4:
                out.append(r"\textbf{" + latex_escape(tok[2:-2]) + "}")
            elif tok.startswith("`") and tok.endswith("`") and len(tok) > 2:
                out.append(r"\texttt{" + latex_escape(tok[1:-1]).replace("/", r"/\allowbreak{}") + "}")
            elif tok.startswith("*") and tok.endswith("*") and len(tok) > 2:
                out.append(r"\emph{" + latex_escape(tok[1:-1]) + "}")
            else:
                out.append(latex_escape(tok))
    return "".join(out)


class CorruptFile(Exception):
    """A notebook or JSON file the builder reads is not what the runner writes: one line naming
    it and what was expected (exit 1), never a traceback."""


def _read_json(path: Path, expected: str, text: str | None = None):
    """The JSON value of ``path`` (of its ``text`` when given), or :class:`CorruptFile` naming it
    and ``expected``."""
    text = path.read_text(encoding="utf-8", errors="replace") if text is None else text
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CorruptFile(f"build_book: {pipeline._show(path)}: expected {expected}, got text that is not JSON "
                          f"({exc}); rerun the notebooks (the runner rewrites it) or remove it") from None


def read_notebook(path: Path):
    """An executed notebook (nbformat 4), or :class:`CorruptFile`: a file cut short, emptied or
    replaced (``{}``, ``not json``) is named, not a jsonschema/nbformat traceback."""
    import nbformat

    expected = "an executed notebook (nbformat 4 JSON with 'cells', 'metadata')"
    text = path.read_text(encoding="utf-8", errors="replace")
    value = _read_json(path, expected, text)
    if not (isinstance(value, dict) and isinstance(value.get("cells"), list) and value.get("nbformat") == 4):
        shown = f"a JSON {type(value).__name__}" + (f" with keys {sorted(value)[:6]}" if isinstance(value, dict) else "")
        raise CorruptFile(f"build_book: {pipeline._show(path)}: expected {expected}, got {shown}; rerun the "
                          "notebook (make reproduce ...) or remove it")
    try:
        return nbformat.reads(text, as_version=4)
    except Exception as exc:   # nbformat's ValidationError and its kin: one line naming the file
        first = (str(exc).splitlines() or [""])[0]
        raise CorruptFile(f"build_book: {pipeline._show(path)}: expected {expected}, got one nbformat cannot read "
                          f"({type(exc).__name__}: {first}); rerun the notebook or remove it") from None


def runtimes(profile: str) -> dict[str, float]:
    path = paths.reports_root() / "executed" / profile / "runtimes.json"
    if not path.is_file():
        return {}
    expected = "the runner's runtimes (a JSON object of notebook name -> seconds)"
    value = _read_json(path, expected)
    try:
        if not isinstance(value, dict):
            raise TypeError
        return {str(k): float(v) for k, v in value.items()}
    except (TypeError, ValueError):
        raise CorruptFile(f"build_book: {pipeline._show(path)}: expected {expected}, got "
                          f"{json.dumps(value)[:60]}; rerun the notebooks or remove it") from None


def _saved_order(nb) -> list[re.Pattern]:
    """Patterns of the names the notebook saves, in the order of its code (f-string fields match
    anything), so that figures and tables are numbered in the order the notebook makes them."""
    import ast

    found = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse("\n".join(ln for ln in cell.source.splitlines() if not ln.lstrip().startswith(("%", "!"))))
        except SyntaxError:
            continue
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in ("save_table", "save_fig") and len(n.args) >= 2]
        for call in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            arg = call.args[1]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append(re.compile(re.escape(arg.value) + r"\Z"))
            elif isinstance(arg, ast.JoinedStr):
                found.append(re.compile("".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+"
                                                for v in arg.values) + r"\Z"))
    return found


def _in_order(files: list[Path], order: list[re.Pattern], strip: int = 0) -> list[Path]:
    def key(path: Path):
        name = path.stem[strip:]
        return (next((k for k, pat in enumerate(order) if pat.match(name)), len(order)), name)

    return sorted(files, key=key)


def saved_outputs(nb, stem: str, folder: Path) -> tuple[list[Path], list[Path]]:
    """The notebook's saved figures (PNG) and tables (CSV) in its outputs folder, in the order the
    notebook saves them."""
    order = _saved_order(nb)
    figures = _in_order(list((folder / "figures" / stem).glob("*.png")), order)
    tables = _in_order(list((folder / "tables").glob(f"{stem[:2]}_*.csv")), order, strip=3)
    return figures, tables


def _rel(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start)).as_posix()


def _nav(prefix: str, links: list[tuple[str, str]]) -> str:
    items = " · ".join(f'<a href="{prefix}{href}">{html.escape(label)}</a>' for label, href in links)
    return f'<nav class="book-nav">{items}</nav>'


def render_page(nb, *, code: bool, nav: str, extra: str, css: str, banner: str = "") -> str:
    import copy

    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab", exclude_input=not code, exclude_input_prompt=not code,
                            exclude_output_prompt=True)
    title = pipeline.notebook_title(_own_cells(nb), "notebook")
    nb = copy.deepcopy(nb)
    nb.metadata["title"] = title
    body, _ = exporter.from_notebook_node(nb)
    body = body.replace("</head>", f"<style>{css}</style>\n</head>", 1)
    body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + "\n" + nav + banner, body, count=1)
    return body.replace("</body>", extra + "\n" + nav + "\n</body>", 1)


# --------------------------------------------------------------------------------------------
# What the book says about the run (HTML and LaTeX from the same sentences)
# --------------------------------------------------------------------------------------------

def status_text(e: dict) -> str:
    """``ok in 31 s (measured)``, ``ok (runtime not measured)`` or ``FAILED: <error>``."""
    if e["info"].failure is not None:
        return "FAILED: " + e["info"].failure.line()
    rt = e["runtime_measured"]
    return f"ok in {rt:.0f} s (measured)" if rt is not None else "ok (runtime not measured)"


def run_sentences(e: dict, profile: str) -> dict[str, str]:
    """Markdown of what this run was: ``run`` (its name, parameters and outputs folder) and
    ``inputs``; ``reproduces_label`` says whose "Reproduces" text it is."""
    info = e["info"]
    root = _shown(paths.reports_root())
    folder = f"`{root}/{info.folder}/`" if info.folder else f"`{root}/`"
    if info.changed:
        params = "; ".join(f"`{k}` = {runinfo.show_value(new, k)} (default {runinfo.show_value(old, k)})"
                           for k, (old, new) in info.changed.items() if not k.endswith(runinfo.PATH_SUFFIXES))
        params = "parameters set for this run: " + (params or "file paths only (see inputs)")
    else:
        params = "the notebook's default parameters"
    seed = f", seed {info.values['seed']}" if "seed" in info.values and "seed" not in info.changed else ""
    run = f"`{profile}`: {params}{seed}; outputs in {folder}."
    # no data parameter set (e.g. notebook 01 without ratings_path): the introduction's inputs are the run's
    inputs = ("; ".join(info.inputs) or e["inputs"]).replace("<reports>", root)   # the notebooks print <reports>
    label = "Reproduces" if not info.changed else "Reproduces (with the notebook's default parameters)"
    return {"run": run, "inputs": inputs, "reproduces_label": label}


def _shown(path: Path) -> str:
    """A folder as the book names it: relative to the checkout inside it, else as it is (the
    notebooks print ``<reports>`` for the reports root, which the book spells out)."""
    return pipeline._show(path).as_posix()


def verdict_summary(findings: dict | None) -> str:
    """``"5 questions: 3 reproduced, 1 holds, 1 agrees"`` (caveat letters left out), or ''."""
    if not findings or not findings["table"]:
        return ""
    words = [re.sub(r"\s*\([a-z](, [a-z])*\)$", "", r["verdict"]) for r in findings["table"]]
    counts = {w: words.count(w) for w in dict.fromkeys(words)}
    n = len(words)
    return f"{n} question{'s' if n != 1 else ''}: " + ", ".join(f"{k} {w}" for w, k in counts.items())


def _findings_html(e: dict) -> str:
    """The findings table, its bullets and the Limitations paragraph: what a notebook's page opens with."""
    f = e["findings"]
    if not f:
        return ""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in FINDINGS_COLUMNS)
    rows = "".join("<tr>" + "".join(f"<td>{_md_inline_html(r[c])}</td>" for c in FINDINGS_COLUMNS) + "</tr>"
                   for r in f["table"])
    prose = ("<ul>" + "".join(f"<li>{_md_inline_html(p)}</li>" for p in f["prose"]) + "</ul>") if f["prose"] else ""
    lim = f'<p><strong>Limitations.</strong> {_md_inline_html(f["limitations"])}</p>' if f["limitations"] else ""
    return (f'<section class="book-findings"><h2>Findings of this run</h2><table class="book-findings-table">'
            f'<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{prose}{lim}</section>')


def _run_html(e: dict, profile: str) -> str:
    """The box at the top of a notebook's pages: this run, its inputs and status (and failure)."""
    s = run_sentences(e, profile)
    return (f'<div class="book-run"><strong>This run</strong> {_md_inline_html(s["run"])}<br><strong>Inputs</strong>: '
            f'{_md_inline_html(s["inputs"])}<br><strong>Status</strong>: {html.escape(status_text(e))}</div>'
            + _failure_html(e))


def _failure_html(e: dict) -> str:
    f = e["info"].failure
    if f is None:
        return ""
    return (f'<div class="book-failed"><strong>This notebook FAILED in this run</strong>: '
            f'{html.escape(f.line())}. Outputs after that cell are missing; the figures and tables listed '
            f'below are those found in the run\'s folder (some may be missing or left from an earlier run).</div>')


def outputs_section(e: dict, page_dir: Path) -> str:
    import pandas as pd

    figures, tables = e["figures"], e["tables"]
    if not figures and not tables:
        return ""
    parts = ['<section class="book-outputs"><h2>Saved figures and tables</h2>']
    for k, png in enumerate(figures, 1):
        pdf = png.with_suffix(".pdf")
        caption = captions.figure_caption(e["stem"], png.stem, warn=False)
        parts.append(f'<figure><img src="{_rel(png, page_dir)}" alt="{html.escape(caption)}">'
                     f'<figcaption>Figure {e["stem"][:2]}.{k}: {html.escape(caption)} <small>({html.escape(png.stem)} · '
                     f'<a href="{_rel(pdf, page_dir)}">PDF</a> · <a href="{_rel(png, page_dir)}">PNG</a>)</small>'
                     f'</figcaption></figure>')
    for k, csv in enumerate(tables, 1):
        frame = pd.read_csv(csv, keep_default_na=False)
        name = csv.stem[3:]
        frame = frame.rename(columns=captions.column_labels(e["stem"], name, frame.columns, warn=False))
        tex = csv.with_suffix(".tex")
        parts.append(f'<h3>Table {e["stem"][:2]}.{k}: {html.escape(captions.table_caption(e["stem"], name, warn=False))}</h3>'
                     f'<p><small>{html.escape(csv.stem)} · <a href="{_rel(csv, page_dir)}">CSV</a> · '
                     f'<a href="{_rel(tex, page_dir)}">LaTeX</a> ({len(frame)} rows)</small></p>')
        parts.append(frame.head(60).to_html(index=False, border=0, classes="book-table", escape=True))
    parts.append("</section>")
    return "\n".join(parts)


def index_page(entries: list[dict], profile: str, css: str, pdf: bool) -> str:
    rows = []
    for e in entries:
        s = run_sentences(e, profile)
        failed = e["info"].failure is not None
        row_class, strong = (' class="failed"', ("<strong>", "</strong>")) if failed else ("", ("", ""))
        rows.append(
            f'<tr{row_class}><td><a href="{e["page"]}">{html.escape(e["title"])}</a>'
            f'<br><small><a href="{e["code_page"]}">with code</a></small></td>'
            f'<td><em>{html.escape(s["reproduces_label"])}:</em> {_md_inline_html(e["reproduces"])}</td>'
            f'<td>{_md_inline_html(s["run"])}<br><em>Inputs:</em> {_md_inline_html(s["inputs"])}</td>'
            f'<td>{html.escape(verdict_summary(e["findings"])) or "&mdash;"}</td>'
            f'<td>{len(e["figures"])} figure(s), {len(e["tables"])} table(s)</td>'
            f'<td>{strong[0]}{html.escape(status_text(e))}{strong[1]}</td></tr>')
    n_failed = sum(e["info"].failure is not None for e in entries)
    warn = (f'<p class="book-failed"><strong>{n_failed} of {len(entries)} notebook(s) FAILED in this run</strong>; '
            'they are marked below, on their pages and in the PDF.</p>') if n_failed else ""
    link = ('<p><a href="appendix.pdf">The whole appendix as PDF</a> (this run, the conclusions, figures and '
            'LaTeX tables of every notebook).</p>') if pdf else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Evaluating search when assessors disagree · {html.escape(profile)}</title>
<style>{css}</style></head><body>
<h1>Evaluating search when assessors disagree</h1>
<p>The executed notebooks of the run <code>{html.escape(profile)}</code>. Each page is in reading
mode (code hidden, every output shown, then the notebook's saved figures and tables); "with code"
shows the same notebook with its code.</p>
{warn}{link}
<table class="book-index"><thead><tr><th>notebook</th><th>reproduces</th><th>this run</th><th>findings</th><th>outputs</th>
<th>status</th></tr></thead><tbody>
{chr(10).join(rows)}
</tbody></table></body></html>
"""


# --------------------------------------------------------------------------------------------
# The PDF appendix
# --------------------------------------------------------------------------------------------

#: Tables with at most this many rows that fit one float are set in the PDF; the others are listed
#: with their files (every table is on the notebook's HTML page). ``--all-tables`` sets them all.
PDF_TABLE_ROWS = 12
#: The page geometry of the appendix (inches): a two-column paper's text block, centred on US letter.
TEXT_WIDTH_IN, TEXT_HEIGHT_IN, COLUMN_SEP_IN, PAGE_IN = 7.0, 9.2, 0.33, (8.5, 11.0)
#: Share of the text height a notebook's figures may take together (one float, one page at most).
FIGURE_SET_HEIGHT = 0.8
#: Float placement: floats may fill most of a text page, float pages must be well filled.
FLOAT_PARAMETERS = [r"\renewcommand{\topfraction}{0.9}", r"\renewcommand{\bottomfraction}{0.8}",
                    r"\renewcommand{\textfraction}{0.07}", r"\renewcommand{\floatpagefraction}{0.75}",
                    r"\renewcommand{\dbltopfraction}{0.85}", r"\renewcommand{\dblfloatpagefraction}{0.75}",
                    r"\setcounter{topnumber}{4}", r"\setcounter{bottomnumber}{3}", r"\setcounter{totalnumber}{8}",
                    r"\setcounter{dbltopnumber}{3}"]


def _pdf_size_pt(pdf: Path) -> tuple[float, float]:
    """Width and height of the first page of a PDF figure (its MediaBox), in points; (0, 0) when unreadable."""
    m = re.search(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)", pdf.read_bytes()) \
        if pdf.is_file() else None
    return (float(m.group(3)) - float(m.group(1)), float(m.group(4)) - float(m.group(2))) if m else (0.0, 0.0)


def _pdf_width_pt(pdf: Path) -> float:
    return _pdf_size_pt(pdf)[0]


def figure_set(e: dict, out: Path, *, twocolumn: bool = True) -> list[str]:
    """All figures of a notebook in one float that fits one page: full-width figures one per row,
    single-column ones two to a row (a lone single-column figure goes in a column float), heights
    scaled down together when the set would be taller than :data:`FIGURE_SET_HEIGHT` of a page;
    each keeps its caption. Placed at the top of a page or on a page of its own (``[tp]``)."""
    if not e["figures"]:
        return []
    text_w, text_h = TEXT_WIDTH_IN * 72, TEXT_HEIGHT_IN * 72
    items = []
    for png in e["figures"]:
        pdf = png.with_suffix(".pdf")
        w, h = _pdf_size_pt(pdf)
        caption = captions.figure_caption(e["stem"], png.stem, warn=False)
        items.append({"pdf": pdf, "wide": w > SINGLE_FIGURE_PT or not twocolumn, "ratio": h / w if w else 0.6,
                      "caption": caption})
    if len(items) == 1 and not items[0]["wide"]:
        it = items[0]
        return [r"\begin{figure}[tbp]", r"\centering",
                rf"\includegraphics[width=\columnwidth,height={FIGURE_SET_HEIGHT:.2f}\textheight,keepaspectratio]"
                f"{{{_rel(it['pdf'], out)}}}", r"\caption{" + latex_escape(it["caption"]) + "}", r"\end{figure}"]
    rows, single = [], [it for it in items if not it["wide"]]
    for it in items:   # the notebook's order; single-column figures paired in order of appearance
        if it["wide"]:
            rows.append([it])
        elif it is single[0] or len(rows[-1]) == 2 or rows[-1][0]["wide"]:
            rows.append([it])
        else:
            rows[-1].append(it)
    # natural heights at their placed widths, plus the captions (about 95 characters a line of 10 pt, 12 pt each)
    def height(row):
        width = text_w if len(row) == 1 and row[0]["wide"] else 0.48 * text_w
        chars = 95 if width == text_w else 44
        return max(width * it["ratio"] for it in row), max(12 * (1 + len(it["caption"]) // chars) + 14 for it in row)
    sizes = [height(r) for r in rows]
    room = FIGURE_SET_HEIGHT * text_h - sum(c for _, c in sizes)
    scale = min(1.0, max(room, 0.25 * text_h) / sum(g for g, _ in sizes))
    env = "figure*" if twocolumn else "figure"
    lines = [rf"\begin{{{env}}}[tp]", r"\centering"]
    for row, (g, _) in zip(rows, sizes):
        box = r"\textwidth" if len(row) == 1 and row[0]["wide"] else r"0.48\textwidth"
        cells = []
        for it in row:
            cells.append(rf"\begin{{minipage}}[t]{{{box}}}\centering"
                         rf"\includegraphics[width=\linewidth,height={g * scale:.1f}pt,keepaspectratio]{{{_rel(it['pdf'], out)}}}"
                         r"\caption{" + latex_escape(it["caption"]) + r"}\end{minipage}")
        lines.append(r"\hfill".join(cells) + r"\par\medskip")
    lines.append(rf"\end{{{env}}}")
    return lines


def _table_rows(csv: Path) -> int:
    with open(csv, encoding="utf-8") as fh:
        return max(sum(1 for _ in fh) - 1, 0)


def pdf_tables(e: dict, *, all_tables: bool = False) -> tuple[list[tuple[int, Path]], list[tuple[int, Path, int]]]:
    """The notebook's tables (numbered as on its HTML page) split into those the PDF sets -- one
    float of at most :data:`PDF_TABLE_ROWS` rows, or every one with ``all_tables`` -- and those it
    lists with their files; the findings table is set at the top of the section, never here."""
    shown, listed = [], []
    for k, csv in enumerate(e["tables"], 1):
        tex = csv.with_suffix(".tex")
        if csv.stem.endswith("_findings") and e["findings"]:
            continue
        text = tex.read_text(encoding="utf-8") if tex.is_file() else ""
        rows = _table_rows(csv)
        if text and (all_tables or (text.count(r"\begin{table") == 1 and rows <= PDF_TABLE_ROWS)):
            shown.append((k, tex))
        else:
            listed.append((k, csv, rows))
    return shown, listed


def _findings_latex(f: dict, *, full_width: bool) -> list[str]:
    """The findings table as a non-floating tabular (first thing of the section), then nothing else:
    the bullets and Limitations follow in the columns."""
    widths = (2.1, 1.6, 2.05, 0.95) if full_width else (0.3, 0.2, 0.3, 0.2)
    spec = "".join(r">{\raggedright\arraybackslash}" + (rf"p{{{w}in}}" if full_width else rf"p{{{w - 0.02}\columnwidth}}")
                   for w in widths)
    cell = _md_inline_latex
    lines = [r"\begin{center}\footnotesize\setlength{\tabcolsep}{3pt}", rf"\begin{{tabular}}{{@{{}}{spec}@{{}}}}",
             r"\toprule", " & ".join(rf"\textbf{{{c}}}" for c in FINDINGS_COLUMNS) + r" \\", r"\midrule"]
    lines += [" & ".join(cell(r[c]) for c in FINDINGS_COLUMNS) + r" \\" for r in f["table"]]
    lines += [r"\bottomrule", r"\end{tabular}\par\smallskip", r"\emph{Findings of this run: one row per question.}",
              r"\end{center}"]
    return lines


def _section_lines(e: dict, profile: str, out: Path, *, twocolumn: bool = True, all_tables: bool = False) -> list[str]:
    """A notebook's section: its title and findings table across the page, then what it reproduces,
    this run, its inputs, the bullets and Limitations, its figure set and its short tables."""
    s = run_sentences(e, profile)
    failed, f, number = e["info"].failure, e["findings"], e["stem"][:2]
    title = latex_escape(e["title"]) + (r" \textemdash{} FAILED" if failed else "")
    head = [r"\section{" + title + "}", rf"\label{{sec:{number}}}"] + (_findings_latex(f, full_width=twocolumn) if f else [])
    lines = [rf"\renewcommand{{\thefigure}}{{{number}.\arabic{{figure}}}}\setcounter{{figure}}{{0}}",
             rf"\renewcommand{{\thetable}}{{{number}.\arabic{{table}}}}",
             rf"\def\theHfigure{{{number}.\arabic{{figure}}}}\def\theHtable{{{number}.\arabic{{table}}}}"]  # link targets
    lines += ([r"\twocolumn[{"] + head + [r"}]"]) if twocolumn else ([r"\clearpage"] + head)
    # floats first, so that they are defined on the section's first page and can top the next one
    shown, listed = pdf_tables(e, all_tables=all_tables)
    wide = [(k, tex) for k, tex in shown if r"\begin{table*}" in tex.read_text(encoding="utf-8") or not twocolumn]
    lines += figure_set(e, out, twocolumn=twocolumn)
    for k, tex in wide:
        lines += [rf"\setcounter{{table}}{{{k - 1}}}", r"\input{" + _rel(tex, out) + "}"]
    if failed:
        lines.append(r"\paragraph{FAILED in this run} " + latex_escape(failed.line()) + ". Outputs after that cell "
                     "are missing; the figures and tables below are those found in the run's folder (some may be "
                     "missing or left from an earlier run).")
    if e["reproduces"]:
        lines.append(r"\paragraph{" + latex_escape(s["reproduces_label"]) + "} " + _md_inline_latex(e["reproduces"]))
    lines.append(r"\paragraph{This run} " + _md_inline_latex(s["run"]) + " Status: " + latex_escape(status_text(e)) + ".")
    if s["inputs"]:
        lines.append(r"\paragraph{Inputs} " + _md_inline_latex(s["inputs"]))
    items = f["prose"] if f else [ln[2:] for ln in e["conclusion"].splitlines() if ln.startswith("- ")]
    if items:
        lines += [r"\subsection*{" + ("What the findings say" if f else "Conclusion (generated from this run)") + "}",
                  r"\begin{itemize}"] + [r"\item " + _md_inline_latex(it) for it in items] + [r"\end{itemize}"]
    elif failed:
        lines.append(r"\subsection*{No conclusion: the notebook stopped before it}")
    if f and f["limitations"]:
        lines.append(r"\paragraph{Limitations.} " + _md_inline_latex(f["limitations"]))
    for k, tex in shown:   # tables of one column: set in the text where it ends, not floated away
        if (k, tex) not in wide:
            lines += [rf"\setcounter{{table}}{{{k - 1}}}",
                      r"{\let\table\inlinetable\let\endtable\endinlinetable\input{" + _rel(tex, out) + "}}"]
    if listed:
        names = "; ".join(f"Table {number}.{k} ({rows:,} rows, \\texttt{{{latex_escape(csv.name)}}}): "
                          + latex_escape(captions.table_caption(e["stem"], csv.stem[3:], warn=False))
                          for k, csv, rows in listed)
        lines.append(r"\paragraph{Further tables} on this notebook's page of the book and as CSV and LaTeX files "
                     r"in the run's \texttt{tables/} folder: " + names + ".")
    return lines


def appendix_tex(entries: list[dict], profile: str, out: Path, *, twocolumn: bool = True, all_tables: bool = False) -> str:
    """The appendix as a LaTeX document: a two-column paper's layout (7 in text, 3.33 in columns;
    ``twocolumn=False``: one 7 in column), each notebook opening on a new page with its findings
    table across both columns, figures and tables numbered as on the notebook's HTML page
    (``05.2``), float parameters that keep floats near their text, the bullets of lists in math
    font (the text-companion bullet has no outline font without cm-super, and would be a Type 3 bitmap)."""
    failed = [e["title"].split(" · ")[0] for e in entries if e["info"].failure is not None]
    old_tables = [tex.stem for e in entries for _, tex in pdf_tables(e, all_tables=all_tables)[0]
                  if "{longtable}" in tex.read_text(encoding="utf-8")]
    if twocolumn and old_tables:
        # tables written by an earlier version (longtable stops a two-column document)
        print(f"book: {len(old_tables)} table(s) written as longtable by an earlier version ({', '.join(old_tables[:3])}"
              f"{', ...' if len(old_tables) > 3 else ''}): the appendix is set in one column; rerun the notebooks for "
              "two-column tables", file=sys.stderr)
        twocolumn = False
    lines = [r"\documentclass[10pt" + (",twocolumn" if twocolumn else "") + "]{article}",
             rf"\usepackage[textwidth={TEXT_WIDTH_IN}in,textheight={TEXT_HEIGHT_IN}in,columnsep={COLUMN_SEP_IN}in]{{geometry}}",
             r"\usepackage{booktabs,graphicx,array}" + (r"\usepackage{longtable}" if old_tables else ""),
             r"\usepackage[hidelinks]{hyperref}" if _has_sty("hyperref") else "",
             r"\renewcommand{\labelitemi}{\ensuremath{\bullet}}", r"\sloppy", r"\raggedbottom", *FLOAT_PARAMETERS,
             r"\setcounter{secnumdepth}{0}",   # the titles carry the notebook's number
             r"\makeatletter\newenvironment{inlinetable}[1][]{\par\medskip\noindent\begin{minipage}{\linewidth}"
             r"\def\@captype{table}\centering}{\end{minipage}\par\medskip}\makeatother",
             r"\begin{document}"]
    title = [r"\begin{center}{\LARGE Evaluating search when assessors disagree\par}\medskip",
             r"{\large Appendix: the executed notebooks of the run \texttt{" + latex_escape(profile) + r"}\par}",
             r"\end{center}"]
    lines += ([r"\twocolumn[{"] + title + _overview_lines(entries, failed) + [r"}]"]) if twocolumn else \
        (title + _overview_lines(entries, failed))
    lines.append(r"\tableofcontents")
    for e in entries:
        lines += _section_lines(e, profile, out, twocolumn=twocolumn, all_tables=all_tables)
    lines.append(r"\end{document}")
    return "\n".join(ln for ln in lines if ln) + "\n"


def _overview_lines(entries: list[dict], failed: list[str]) -> list[str]:
    """The first page: every notebook with its findings' verdicts and its status."""
    lines = [r"\begin{center}\small\begin{tabular}{@{}p{2.2in}p{3.1in}p{1.35in}@{}}\toprule",
             r"\textbf{notebook} & \textbf{findings} & \textbf{status} \\ \midrule"]
    for e in entries:
        lines.append(latex_escape(e["title"]) + " & " + latex_escape(verdict_summary(e["findings"]) or "conclusion in bullets")
                     + " & " + latex_escape(status_text(e)) + r" \\")
    lines += [r"\bottomrule\end{tabular}\end{center}"]
    if failed:
        lines.append(r"\noindent\textbf{Failed in this run: notebook(s) " + latex_escape(", ".join(failed)) + r".}\par")
    return lines


def _has_sty(name: str) -> bool:
    kpse = shutil.which("kpsewhich")
    if not kpse:
        return False
    done = subprocess.run([kpse, f"{name}.sty"], capture_output=True, text=True)
    return bool(done.stdout.strip())


def build_pdf(tex: str, out: Path) -> Path | None:
    """``appendix.pdf`` from ``tex`` with pdflatex (twice, for the contents), or ``None`` without
    pdflatex. A LaTeX error stops the build with the log's first error lines; a Type 3 font in
    the result is warned about, naming the figures it comes from."""
    engine = shutil.which("pdflatex")
    if engine is None:
        return None
    atomic_write_text(out / "appendix.tex", tex)
    for _ in range(2):
        done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "appendix.tex"], cwd=out,
                              capture_output=True, text=True, errors="replace", timeout=900)
        if done.returncode != 0:
            errors = [ln for ln in done.stdout.splitlines() if ln.startswith("!")][:5]
            raise SystemExit(f"build_book: pdflatex failed on {pipeline._show(out / 'appendix.tex')}: {errors}")
    toc = (out / "appendix.toc").read_text(encoding="latin-1") if (out / "appendix.toc").is_file() else ""
    starts = [int(m.group(1)) for ln in toc.splitlines() if ln.startswith(r"\contentsline {section}")
              for m in [re.search(r"\{(\d+)\}(?:\{[^{}]*\})?%?\s*$", ln)] if m]
    atomic_write_text(out / "appendix.sections.json", json.dumps(starts))   # first page of each notebook
    for ext in ("aux", "out", "toc"):
        (out / f"appendix.{ext}").unlink(missing_ok=True)
    if any(kind == "Type3" for _, kind in pdf_fonts((out / "appendix.pdf").read_bytes())):
        figures = re.findall(r"\\includegraphics\[[^]]*\]\{([^}]+)\}", tex)
        culprits = [f for f in figures if any(k == "Type3" for _, k in pdf_fonts((out / f).read_bytes()))]
        print(f"book: WARNING: {pipeline._show(out / 'appendix.pdf')} has Type 3 (bitmap) fonts, which publishers refuse; "
              + (f"they come from {', '.join(culprits)} (save figures with Reporter.save_fig, which embeds TrueType)"
                 if culprits else "see appendix.log"), file=sys.stderr)
    return out / "appendix.pdf"


def page_fullness(pdf: Path, dpi: int = 30) -> list[float] | None:
    """How full each page of the appendix is: per column of the text block, the share of its height
    covered by ink (text, tables, figures; gaps under 14 pt between inked rows count as covered,
    being line and paragraph spacing), averaged over the two columns (content across both counts in
    each). Rendered with poppler's ``pdftoppm``; None without it."""
    import tempfile

    import numpy as np

    tool = shutil.which("pdftoppm")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([tool, "-r", str(dpi), "-gray", str(pdf), str(Path(tmp) / "p")], check=True, timeout=600)
        pages = sorted(Path(tmp).glob("p-*.pgm"), key=lambda q: int(q.stem.split("-")[-1]))
        images = [_read_pgm(q) for q in pages]
    left = (PAGE_IN[0] - TEXT_WIDTH_IN) / 2
    top = (PAGE_IN[1] - TEXT_HEIGHT_IN) / 2
    col = (TEXT_WIDTH_IN - COLUMN_SEP_IN) / 2
    columns = [(left, left + col), (left + col + COLUMN_SEP_IN, left + TEXT_WIDTH_IN)]
    gap = int(round(14 / 72 * dpi))
    out = []
    for img in images:
        y0, y1 = int(top * dpi), int((top + TEXT_HEIGHT_IN) * dpi)
        shares = []
        for a, b in columns:
            inked = (img[y0:y1, int(a * dpi):int(b * dpi)] < 200).any(axis=1)
            rows = np.flatnonzero(inked)
            covered = 0
            if len(rows):
                runs = np.split(rows, np.flatnonzero(np.diff(rows) > gap) + 1)
                covered = sum(r[-1] - r[0] + 1 for r in runs)
            shares.append(covered / (y1 - y0))
        out.append(round(float(np.mean(shares)), 3))
    return out


def _read_pgm(path: Path):
    """A binary (P5) greyscale PGM as a numpy array."""
    import numpy as np

    data = path.read_bytes()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)   # one whitespace byte ends the header
    width, height = int(m.group(1)), int(m.group(2))
    return np.frombuffer(data[m.end():m.end() + width * height], dtype=np.uint8).reshape(height, width)


def sparse_pages(fullness: list[float], starts: list[int], limit: float = 1 / 3) -> list[int]:
    """Pages (1-based) under ``limit`` full that are not the last page of a notebook's section (nor
    of the opening page's)."""
    last = {p - 1 for p in starts} | {len(fullness)}
    return [k for k, share in enumerate(fullness, 1) if share < limit and k not in last]


def pdf_summary(pdf: Path) -> str:
    """One line: the appendix's pages per notebook and the pages under a third full (measured)."""
    starts = json.loads((pdf.parent / "appendix.sections.json").read_text(encoding="utf-8"))
    full = page_fullness(pdf)
    n = len(full) if full is not None else None
    if n is None:
        return f"book: {pipeline._show(pdf)}: pages per notebook from page {', '.join(map(str, starts))} (no pdftoppm: fullness not measured)"
    per = [b - a for a, b in zip(starts, starts[1:] + [n + 1])]
    sparse = sparse_pages(full, starts)
    return (f"book: {pipeline._show(pdf)}: {n} pages (front {starts[0] - 1 if starts else n}, notebooks "
            f"{', '.join(map(str, per))}); pages under a third full other than a section's last: "
            + (", ".join(f"{k} ({full[k - 1]:.0%})" for k in sparse) or "none"))


def entries_of(profile: str) -> list[dict]:
    """One entry per executed notebook of the run: intro fields, run information, outputs."""
    measured = runtimes(profile)
    entries = []
    for path in sources(profile):
        nb = read_notebook(path)
        fields = intro_fields(nb)
        info = runinfo.run_info(nb, profile)
        folder = paths.reports_root() / info.folder if info.folder else paths.reports_root()
        figures, tables = saved_outputs(nb, path.stem, folder)
        conclusion = conclusion_markdown(nb)
        metrics = None if info.failure else folder / "metrics" / f"{path.stem}.json"  # a failed run's may be older
        entries.append({**fields, "stem": path.stem, "nb": nb, "info": info, "page": f"{path.stem}.html",
                        "code_page": f"code/{path.stem}.html", "conclusion": conclusion,
                        "findings": findings_of(conclusion, metrics),
                        "runtime_measured": None if info.failure else measured.get(path.stem),
                        "figures": figures, "tables": tables, "title": fields["title"] or path.stem})
    return entries


#: Written into every book folder this builder makes: only such a folder is ever replaced.
MARKER = ".subjeval-book"


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_name(profile: str) -> str:
    """``profile`` when it names a run, else :class:`UsageError`: a profile (``default``, a folder
    under ``params/``) or a run's name validated exactly as ``notebooks run --name`` validates it
    (:func:`helpers.notebook.pipeline.output_name`): a simple name, never a path (``/abs``,
    ``../x``), whose book folder ``reports/book/<name>/`` stays inside the reports root."""
    if profile in pipeline.profiles():
        return profile
    try:
        return pipeline.output_name(ROOT, profile)
    except ValueError as exc:
        raise UsageError(f"build_book: --profile {profile!r} is not a run's name: "
                         + str(exc).replace("give one with --name", "give the name of a profile or of a run")
                         .replace("--name", "--profile")) from None


def _check_links(path: Path, flag: str) -> None:
    """Refuse, before anything is built, a symbolic link on the way to ``path`` (the folder the book
    replaces): under the reports root a link leading out of it (as the runner refuses them,
    :func:`helpers.notebook.outputs.check_inside`), anywhere the folder itself being a link, and
    a file where a folder on the way should be."""
    root = paths.reports_root()
    if _inside(path, root):
        try:
            outputs.check_inside(root, path)
        except ValueError as exc:
            raise UsageError(f"build_book: {flag} {pipeline._show(path)}: {exc}") from None
    if path.is_symlink():
        raise UsageError(f"build_book: {flag} {pipeline._show(path)} is a symbolic link (to "
                         f"{pipeline._show(Path(os.path.realpath(path)))}); the builder never replaces what a link "
                         "points to: remove the link or give another folder")
    for up in path.parents:
        if up.exists():
            if not up.is_dir():
                raise UsageError(f"build_book: {flag} {pipeline._show(path)}: {pipeline._show(up)} is a file, "
                                 "not a folder; the book is a folder of pages")
            break


def check_out(out: str | os.PathLike, params: str | None = None, flag: str = "--out") -> Path:
    """The ``--out`` folder, resolved, or :class:`UsageError` (one line naming it and why) when
    replacing it could remove something that is not a book: ``''`` or ``.``, a file, a folder that
    is or holds the reports root, a run's folder, the checkout, the home folder or the parameter
    files, and an existing non-empty folder without the :data:`MARKER` of a book built here
    (docs/bad-input.md: a user's file is never removed)."""
    raw = os.fspath(out)
    if raw.strip() in ("", "."):
        raise UsageError(f"build_book: {flag} {raw!r} names the current folder; give the book a folder of its own")
    given = Path(os.path.abspath(os.path.expanduser(raw)))
    _check_links(given, flag)
    path = given.resolve()
    root = paths.reports_root().resolve()
    guarded = [(root, "the reports root"), (ROOT.resolve(), "the checkout"), (Path.home().resolve(), "the home folder"),
               (Path.cwd().resolve(), "the current folder")]
    if params is not None:
        spec = Path(os.path.expanduser(params)).resolve()
        guarded.append((spec if spec.is_dir() else spec.parent, "the parameter files' folder"))
    for folder, what in guarded:
        if _inside(folder, path):
            why = "is" if folder == path else f"holds {pipeline._show(folder)},"
            raise UsageError(f"build_book: {flag} {pipeline._show(path)} {why} {what}; a book is built into a folder of its own")
    if _inside(path, root) and not _inside(path, root / "book"):
        raise UsageError(f"build_book: {flag} {pipeline._show(path)} is inside a run's outputs under the reports root "
                         f"{pipeline._show(root)}; use a folder under {pipeline._show(root / 'book')} or outside the reports root")
    if path == root / "book":
        raise UsageError(f"build_book: {flag} {pipeline._show(path)} holds every run's book; name one book's folder")
    if path.exists() or path.is_symlink():
        if not path.is_dir() or path.is_symlink():
            raise UsageError(f"build_book: {flag} {pipeline._show(path)} is not a folder; the book is a folder of pages")
        if any(path.iterdir()) and not (path / MARKER).is_file():
            raise UsageError(f"build_book: {flag} {pipeline._show(path)} is not empty and is not a book built here "
                             f"(no {MARKER}); a user's file is never removed: give an empty or new folder")
    return path


def _swap_in(work: Path, out: Path) -> None:
    """Put the finished book ``work`` (a sibling of ``out``) in place of ``out`` by renames, so a
    failed build leaves the old book; the old one is removed only once the new one is in place."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
    os.replace(work, out)
    if old is not None:
        shutil.rmtree(old)


def build(profile: str = "default", out: Path | str | None = None, *, pdf: bool = True, twocolumn: bool = True,
          all_tables: bool = False, stream=sys.stdout, params: str | None = None) -> Path:
    """Build the book of run ``profile`` into ``out`` (default ``reports/book/<profile>/``): into a
    temporary sibling folder first, swapped in when complete. ``profile`` must be a run's name
    (:func:`check_name`); ``out``, given or the default, is checked by :func:`check_out` before
    anything is built."""
    profile = check_name(profile)
    if out is None:   # the default folder gets the checks of --out: a name, no link, no user's folder
        out = check_out(paths.reports_root() / "book" / check_name(profile), params, flag="the book folder")
    else:
        out = check_out(out, params)
    entries = entries_of(profile)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        made_pdf = _write_book(entries, profile, work, pdf=pdf, twocolumn=twocolumn, all_tables=all_tables, stream=stream)
        (work / MARKER).write_text("a book built by tools/build_book.py; the builder replaces this folder\n",
                                   encoding="utf-8")
        work.chmod(0o777 & ~_umask())
        _swap_in(work, out)
    finally:
        if work.exists():
            shutil.rmtree(work)
    if made_pdf is not None:
        print(pdf_summary(out / "appendix.pdf"), file=stream, flush=True)
    where = pipeline._show(out)
    print(f"book: {where}/index.html" + (f" and {where}/appendix.pdf" if made_pdf else
                                         " (no PDF: pdflatex not found)" if pdf else ""), file=stream, flush=True)
    return out


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_book(entries: list[dict], profile: str, out: Path, *, pdf: bool, twocolumn: bool, all_tables: bool,
                stream) -> Path | None:
    """The pages (and the PDF appendix) of ``entries`` into the empty folder ``out``."""
    (out / "code").mkdir(parents=True)
    css = CSS.read_text(encoding="utf-8")
    links = [("index", "index.html")] + [(e["title"].split(" · ")[0] + (" (failed)" if e["info"].failure else ""),
                                          e["page"]) for e in entries]
    for k, e in enumerate(entries):
        nxt = [("next: " + entries[k + 1]["title"], entries[k + 1]["page"])] if k + 1 < len(entries) else []
        banner = _findings_html(e) + _run_html(e, profile)   # the answer first, then what the run was
        atomic_write_text(out / e["page"], render_page(
            e["nb"], code=False, css=css, banner=banner, extra=outputs_section(e, out),
            nav=_nav("", links + [("with code", e["code_page"])] + nxt)))
        atomic_write_text(out / e["code_page"], render_page(
            e["nb"], code=True, css=css, banner=banner, extra=outputs_section(e, out / "code"),
            nav=_nav("../", links + [("reading mode", e["page"])])))
        print(f"book: {e['stem']}: {len(e['figures'])} figure(s), {len(e['tables'])} table(s)"
              + (f"; FAILED ({e['info'].failure.line()})" if e["info"].failure else ""), file=stream, flush=True)
    atomic_write_text(out / "index.html", index_page(entries, profile, css, pdf=False))
    made_pdf = build_pdf(appendix_tex(entries, profile, out, twocolumn=twocolumn, all_tables=all_tables), out) \
        if pdf else None
    if made_pdf is not None:
        atomic_write_text(out / "index.html", index_page(entries, profile, css, pdf=True))
    return made_pdf


class _TrueOnce(argparse._StoreTrueAction):
    """A flag given twice (``--no-pdf --no-pdf``) is refused like a repeated option."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in seen:
            raise argparse.ArgumentError(self, "given twice; give it once")
        seen[self.dest] = True
        setattr(namespace, self.dest, True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # every option once, as `python -m helpers evaluate` and `trec_eval --out-dir` refuse a repeated one
    parser.register("action", None, StoreOnce)
    parser.register("action", "store", StoreOnce)
    parser.register("action", "store_true", _TrueOnce)
    parser.add_argument("--profile", default="default", help="a profile run by `make reproduce PROFILE=...`")
    parser.add_argument("--params", metavar="DIR|FILE.yaml", help="the parameter files of a run on your own data "
                        "(`make reproduce PARAMS=DIR`): its book")
    parser.add_argument("--name", help="the run's name when `--name` was given to the runner (default: the folder's name)")
    parser.add_argument("--out", help="output folder (default: reports/book/<name>/); an existing one must be empty "
                        "or a book built here")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF appendix")
    parser.add_argument("--onecolumn", action="store_true", help="set the PDF appendix in one column")
    parser.add_argument("--all-tables", action="store_true",
                        help=f"set every saved table in the PDF (default: those of at most {PDF_TABLE_ROWS} rows that fit "
                             "one float; the others are listed with their files and shown on the HTML pages)")
    args = parser.parse_args(argv)
    try:
        build(run_name(args.profile, args.params, args.name), args.out, pdf=not args.no_pdf,
              twocolumn=not args.onecolumn, all_tables=args.all_tables, params=args.params)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    except CorruptFile as exc:
        print(exc, file=sys.stderr)
        return 1
    except OSError as exc:   # one line naming the path, never a traceback
        where = exc.filename if exc.filename is not None else "the book folder"
        print(f"build_book: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
