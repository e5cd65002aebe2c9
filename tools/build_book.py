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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from helpers import paths  # noqa: E402
from helpers.notebook import captions, pipeline, runinfo  # noqa: E402
from helpers.notebook.latex import pdf_fonts  # noqa: E402
from helpers.notebook.reports import atomic_write_text, latex_escape  # noqa: E402

CSS = ROOT / "book" / "book.css"
#: A figure wider than this (points; a column of a two-column paper is 3.33 in) spans both columns.
SINGLE_FIGURE_PT = 3.5 * 72


def run_name(profile: str = "default", params: str | None = None, name: str | None = None) -> str:
    """The run whose book is built: ``profile``, or the name ``make reproduce PARAMS=...`` gave
    the run on one's own parameter files (the folder's name, or ``name``)."""
    if params is None:
        if name:
            raise SystemExit("build_book: --name only goes with --params")
        return profile
    try:
        return pipeline.output_name(params, name)
    except ValueError as exc:
        raise SystemExit(f"build_book: {exc}") from None


def sources(profile: str) -> list[Path]:
    """The executed notebooks of ``profile``, in order; a clear error when there are none."""
    if profile == "default":
        return pipeline.discover()
    folder = paths.reports_root() / "executed" / profile
    books = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    if not books:
        known = sorted(p.name for p in folder.parent.iterdir() if p.is_dir()) if folder.parent.is_dir() else []
        raise SystemExit(f"build_book: no executed notebooks for {profile!r} under {pipeline._show(folder)}; run "
                         f"`make reproduce PROFILE={profile}` (or `make reproduce PARAMS=<folder>`) first"
                         + (f"; executed runs: {', '.join(known)}" if known else ""))
    return books


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


def runtimes(profile: str) -> dict[str, float]:
    path = paths.reports_root() / "executed" / profile / "runtimes.json"
    if path.is_file():
        return {k: float(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    return {}


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
    folder = f"`<reports>/{info.folder}/`" if info.folder else "`<reports>/`"
    if info.changed:
        params = "; ".join(f"`{k}` = {runinfo.show_value(new, k)} (default {runinfo.show_value(old, k)})"
                           for k, (old, new) in info.changed.items() if not k.endswith(runinfo.PATH_SUFFIXES))
        params = "parameters set for this run: " + (params or "file paths only (see inputs)")
    else:
        params = "the notebook's default parameters"
    seed = f", seed {info.values['seed']}" if "seed" in info.values and "seed" not in info.changed else ""
    run = f"`{profile}`: {params}{seed}; outputs in {folder}."
    # no data parameter set (e.g. notebook 01 without ratings_path): the introduction's inputs are the run's
    inputs = "; ".join(info.inputs) or e["inputs"]
    label = "Reproduces" if not info.changed else "Reproduces (with the notebook's default parameters)"
    return {"run": run, "inputs": inputs, "reproduces_label": label}


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
<table class="book-index"><thead><tr><th>notebook</th><th>reproduces</th><th>this run</th><th>outputs</th>
<th>status</th></tr></thead><tbody>
{chr(10).join(rows)}
</tbody></table></body></html>
"""


# --------------------------------------------------------------------------------------------
# The PDF appendix
# --------------------------------------------------------------------------------------------

def _pdf_width_pt(pdf: Path) -> float:
    """Width of the first page of a PDF figure (its MediaBox), in points; 0 when unreadable."""
    m = re.search(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)", pdf.read_bytes()) if pdf.is_file() else None
    return float(m.group(3)) - float(m.group(1)) if m else 0.0


def _figure_lines(e: dict, out: Path) -> list[str]:
    lines = []
    for png in e["figures"]:
        pdf = png.with_suffix(".pdf")
        env = "figure*" if _pdf_width_pt(pdf) > SINGLE_FIGURE_PT else "figure"
        width = r"\textwidth" if env == "figure*" else r"\columnwidth"
        lines += [rf"\begin{{{env}}}[htbp]", r"\centering",
                  rf"\includegraphics[width={width},height=0.8\textheight,keepaspectratio]{{{_rel(pdf, out)}}}",
                  r"\caption{" + latex_escape(captions.figure_caption(e["stem"], png.stem, warn=False)) + "}",
                  rf"\end{{{env}}}"]
    return lines


def _section_lines(e: dict, profile: str, out: Path) -> list[str]:
    s = run_sentences(e, profile)
    failed = e["info"].failure
    title = latex_escape(e["title"]) + (r" \textemdash{} FAILED" if failed else "")
    lines = [r"\clearpage", r"\section{" + title + "}"]
    if failed:
        lines.append(r"\paragraph{FAILED in this run} " + latex_escape(failed.line()) + ". Outputs after that cell "
                     "are missing; the figures and tables below are those found in the run's folder (some may be "
                     "missing or left from an earlier run).")
    if e["reproduces"]:
        lines.append(r"\paragraph{" + latex_escape(s["reproduces_label"]) + "} " + _md_inline_latex(e["reproduces"]))
    lines.append(r"\paragraph{This run} " + _md_inline_latex(s["run"]) + " Status: " + latex_escape(status_text(e)) + ".")
    if s["inputs"]:
        lines.append(r"\paragraph{Inputs} " + _md_inline_latex(s["inputs"]))
    items = [ln[2:] for ln in e["conclusion"].splitlines() if ln.startswith("- ")]
    if items:
        lines += [r"\subsection*{Conclusion (generated from this run)}", r"\begin{itemize}"]
        lines += [r"\item " + _md_inline_latex(it) for it in items] + [r"\end{itemize}"]
    elif failed:
        lines.append(r"\subsection*{No conclusion: the notebook stopped before it}")
    lines += _figure_lines(e, out)
    lines += [r"\input{" + _rel(csv.with_suffix(".tex"), out) + "}" for csv in e["tables"] if csv.with_suffix(".tex").is_file()]
    return lines


def appendix_tex(entries: list[dict], profile: str, out: Path, *, twocolumn: bool = True) -> str:
    """The appendix as a LaTeX document: a two-column paper's layout (7 in text, 3.33 in columns;
    ``twocolumn=False``: one 7 in column), the bullets of lists in math font (the text-companion
    bullet has no outline font without cm-super, and would be a Type 3 bitmap)."""
    failed = [e["title"].split(" · ")[0] for e in entries if e["info"].failure is not None]
    old_tables = [csv.stem for e in entries for csv in e["tables"]
                  if csv.with_suffix(".tex").is_file() and "{longtable}" in csv.with_suffix(".tex").read_text(encoding="utf-8")]
    if twocolumn and old_tables:
        # tables written by an earlier version (longtable stops a two-column document)
        print(f"book: {len(old_tables)} table(s) written as longtable by an earlier version ({', '.join(old_tables[:3])}"
              f"{', ...' if len(old_tables) > 3 else ''}): the appendix is set in one column; rerun the notebooks for "
              "two-column tables", file=sys.stderr)
        twocolumn = False
    lines = [r"\documentclass[10pt" + (",twocolumn" if twocolumn else "") + "]{article}",
             r"\usepackage[textwidth=7in,textheight=9.2in,columnsep=0.33in]{geometry}",
             r"\usepackage{booktabs,graphicx}" + (r"\usepackage{longtable}" if old_tables else ""),
             r"\usepackage[hidelinks]{hyperref}" if _has_sty("hyperref") else "",
             r"\renewcommand{\labelitemi}{\ensuremath{\bullet}}", r"\sloppy",
             r"\title{Evaluating search when assessors disagree: appendix (run " + latex_escape(profile) + ")}",
             r"\date{}", r"\begin{document}", r"\maketitle"]
    if failed:
        lines.append(r"\noindent\textbf{Failed in this run: notebook(s) " + latex_escape(", ".join(failed)) + r".}\par")
    lines.append(r"\tableofcontents")
    for e in entries:
        lines += _section_lines(e, profile, out)
    lines.append(r"\end{document}")
    return "\n".join(ln for ln in lines if ln) + "\n"


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
    for ext in ("aux", "out", "toc"):
        (out / f"appendix.{ext}").unlink(missing_ok=True)
    if any(kind == "Type3" for _, kind in pdf_fonts((out / "appendix.pdf").read_bytes())):
        figures = re.findall(r"\\includegraphics\[[^]]*\]\{([^}]+)\}", tex)
        culprits = [f for f in figures if any(k == "Type3" for _, k in pdf_fonts((out / f).read_bytes()))]
        print(f"book: WARNING: {pipeline._show(out / 'appendix.pdf')} has Type 3 (bitmap) fonts, which publishers refuse; "
              + (f"they come from {', '.join(culprits)} (save figures with Reporter.save_fig, which embeds TrueType)"
                 if culprits else "see appendix.log"), file=sys.stderr)
    return out / "appendix.pdf"


def entries_of(profile: str) -> list[dict]:
    """One entry per executed notebook of the run: intro fields, run information, outputs."""
    import nbformat

    measured = runtimes(profile)
    entries = []
    for path in sources(profile):
        nb = nbformat.read(str(path), as_version=4)
        fields = intro_fields(nb)
        info = runinfo.run_info(nb, profile)
        folder = paths.reports_root() / info.folder if info.folder else paths.reports_root()
        figures, tables = saved_outputs(nb, path.stem, folder)
        entries.append({**fields, "stem": path.stem, "nb": nb, "info": info, "page": f"{path.stem}.html",
                        "code_page": f"code/{path.stem}.html", "conclusion": conclusion_markdown(nb),
                        "runtime_measured": None if info.failure else measured.get(path.stem),
                        "figures": figures, "tables": tables, "title": fields["title"] or path.stem})
    return entries


def build(profile: str = "default", out: Path | None = None, *, pdf: bool = True, twocolumn: bool = True,
          stream=sys.stdout) -> Path:
    entries = entries_of(profile)
    out = out or paths.reports_root() / "book" / profile
    if out.exists():
        shutil.rmtree(out)
    (out / "code").mkdir(parents=True)
    css = CSS.read_text(encoding="utf-8")
    links = [("index", "index.html")] + [(e["title"].split(" · ")[0] + (" (failed)" if e["info"].failure else ""),
                                          e["page"]) for e in entries]
    for k, e in enumerate(entries):
        nxt = [("next: " + entries[k + 1]["title"], entries[k + 1]["page"])] if k + 1 < len(entries) else []
        banner = _run_html(e, profile)
        atomic_write_text(out / e["page"], render_page(
            e["nb"], code=False, css=css, banner=banner, extra=outputs_section(e, out),
            nav=_nav("", links + [("with code", e["code_page"])] + nxt)))
        atomic_write_text(out / e["code_page"], render_page(
            e["nb"], code=True, css=css, banner=banner, extra=outputs_section(e, out / "code"),
            nav=_nav("../", links + [("reading mode", e["page"])])))
        print(f"book: {e['stem']}: {len(e['figures'])} figure(s), {len(e['tables'])} table(s)"
              + (f"; FAILED ({e['info'].failure.line()})" if e["info"].failure else ""), file=stream, flush=True)
    atomic_write_text(out / "index.html", index_page(entries, profile, css, pdf=False))
    made_pdf = build_pdf(appendix_tex(entries, profile, out, twocolumn=twocolumn), out) if pdf else None
    if made_pdf is not None:
        atomic_write_text(out / "index.html", index_page(entries, profile, css, pdf=True))
    where = pipeline._show(out)
    print(f"book: {where}/index.html" + (f" and {where}/appendix.pdf" if made_pdf else
                                         " (no PDF: pdflatex not found)" if pdf else ""), file=stream, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", default="default", help="a profile run by `make reproduce PROFILE=...`")
    parser.add_argument("--params", metavar="DIR|FILE.yaml", help="the parameter files of a run on your own data "
                        "(`make reproduce PARAMS=DIR`): its book")
    parser.add_argument("--name", help="the run's name when `--name` was given to the runner (default: the folder's name)")
    parser.add_argument("--out", type=Path, help="output folder (default: reports/book/<name>/)")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF appendix")
    parser.add_argument("--onecolumn", action="store_true", help="set the PDF appendix in one column")
    args = parser.parse_args(argv)
    build(run_name(args.profile, args.params, args.name), args.out, pdf=not args.no_pdf, twocolumn=not args.onecolumn)
    return 0


if __name__ == "__main__":
    sys.exit(main())
