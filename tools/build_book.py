"""Build the book of the executed notebooks: a static site and, with pdflatex, a PDF appendix.

    python tools/build_book.py [--profile default] [--out DIR] [--no-pdf]

(``make book [PROFILE=...]``). Sources: for the ``default`` profile the committed notebooks
(``notebooks/NN_*.ipynb`` are the executed default run, outputs included); for any other profile
the executed copies under ``reports/executed/<profile>/`` (``make reproduce PROFILE=...`` first).
Figures and tables come from that profile's reports folder (``reports/`` or ``reports/<profile>/``).

Writes, under ``reports/book/<profile>/`` (git-ignored, rebuilt on every call):

* ``index.html``: every notebook with what it reproduces, its inputs and outputs, and its runtime
  (measured by the runner, ``reports/executed/<profile>/runtimes.json``, when there is one; else the
  notebook's own estimate), linking the reading and the full version;
* ``NN_name.html``: reading mode, code hidden, every output inline, followed by the notebook's
  saved figures and tables (CSV rendered as HTML, links to the PDF/PNG/CSV/TeX files);
* ``code/NN_name.html``: the same notebook with its code;
* ``appendix.pdf`` (and ``appendix.tex``) when ``pdflatex`` is on the PATH: per notebook its title,
  purpose, the generated conclusion, every saved figure and every saved LaTeX table.

Nothing here needs a network or a package beyond the pinned ones (nbconvert renders the HTML).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from helpers import paths
from helpers.notebook import pipeline# noqa: E402
from helpers.notebook.reports import atomic_write_text, latex_escape  # noqa: E402

CSS = (ROOT / "book" / "book.css")


def sources(profile: str) -> list[Path]:
    """The executed notebooks of ``profile``, in order; a clear error when there are none."""
    if profile == "default":
        books = pipeline.discover()
    else:
        folder = paths.reports_root() / "executed" / profile
        books = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
        if not books:
            raise SystemExit(f"build_book: no executed notebooks for profile {profile!r} under "
                             f"{pipeline._show(folder)}; run `make reproduce PROFILE={profile}` first")
    return books


def intro_fields(nb) -> dict[str, str]:
    """``title``, ``reproduces``, ``inputs``, ``outputs``, ``runtime`` from the first Markdown
    cell (the notebook anatomy: ``# NN · Title``, then bold-labelled paragraphs)."""
    first = next((c for c in nb.cells if c.cell_type == "markdown"), None)
    text = first.source if first is not None else ""
    fields = {"title": pipeline.notebook_title(nb, ""), "purpose": ""}
    paragraphs = re.split(r"\n\s*\n", text)
    fields["purpose"] = next((p.strip() for p in paragraphs[1:] if not p.lstrip().startswith("**")), "")
    for key, label in (("reproduces", "Reproduces"), ("inputs", "Inputs"), ("outputs", "Outputs"), ("runtime", "Runtime")):
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
    """Minimal Markdown -> HTML for the index (bold, code, links); everything else escaped."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
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
        tokens = re.split(r"(\*\*.+?\*\*|`[^`]+`|\*[^*\s][^*]*\*)", part)
        for tok in tokens:
            if tok.startswith("**") and tok.endswith("**") and len(tok) > 4:
                out.append(r"\textbf{" + latex_escape(tok[2:-2]) + "}")
            elif tok.startswith("`") and tok.endswith("`") and len(tok) > 2:
                out.append(r"\texttt{" + latex_escape(tok[1:-1]) + "}")
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


def saved_outputs(stem: str, profile: str) -> tuple[list[Path], list[Path]]:
    """The notebook's saved figures (PNG) and tables (CSV) under the profile's reports folder."""
    root = paths.reports_dir(profile)
    figures = sorted((root / "figures" / stem).glob("*.png"))
    tables = sorted((root / "tables").glob(f"{stem[:2]}_*.csv"))
    return figures, tables


def _rel(target: Path, start: Path) -> str:
    import os

    return Path(os.path.relpath(target, start)).as_posix()


def _nav(prefix: str, links: list[tuple[str, str]]) -> str:
    items = " · ".join(f'<a href="{prefix}{href}">{html.escape(label)}</a>' for label, href in links)
    return f'<nav class="book-nav">{items}</nav>'


def render_page(nb, *, code: bool, nav: str, extra: str, css: str) -> str:
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab", exclude_input=not code, exclude_input_prompt=not code,
                            exclude_output_prompt=True)
    import copy

    nb = copy.deepcopy(nb)
    nb.metadata["title"] = pipeline.notebook_title(nb, "notebook")
    body, _ = exporter.from_notebook_node(nb)
    body = body.replace("</head>", f"<style>{css}</style>\n</head>", 1)
    body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + "\n" + nav, body, count=1)
    return body.replace("</body>", extra + "\n" + nav + "\n</body>", 1)


def outputs_section(stem: str, profile: str, page_dir: Path) -> str:
    import pandas as pd

    figures, tables = saved_outputs(stem, profile)
    if not figures and not tables:
        return ""
    parts = ['<section class="book-outputs"><h2>Saved figures and tables</h2>']
    for png in figures:
        pdf = png.with_suffix(".pdf")
        parts.append(f'<figure><img src="{_rel(png, page_dir)}" alt="{html.escape(png.stem)}">'
                     f'<figcaption>{html.escape(png.stem)} · <a href="{_rel(pdf, page_dir)}">PDF</a> · '
                     f'<a href="{_rel(png, page_dir)}">PNG</a></figcaption></figure>')
    for csv in tables:
        frame = pd.read_csv(csv, keep_default_na=False)
        tex = csv.with_suffix(".tex")
        parts.append(f'<h3>{html.escape(csv.stem)}</h3><p><a href="{_rel(csv, page_dir)}">CSV</a> · '
                     f'<a href="{_rel(tex, page_dir)}">LaTeX</a> ({len(frame)} rows)</p>')
        parts.append(frame.head(60).to_html(index=False, border=0, classes="book-table", escape=True))
    parts.append("</section>")
    return "\n".join(parts)


def index_page(entries: list[dict], profile: str, css: str) -> str:
    rows = []
    for e in entries:
        rt = e["runtime_measured"]
        runtime = f"{rt:.0f} s (measured)" if rt is not None else _md_inline_html(e["runtime"] or "n/a")
        rows.append(
            f'<tr><td><a href="{e["page"]}">{html.escape(e["title"])}</a><br><small><a href="{e["code_page"]}">'
            f'with code</a></small></td><td>{_md_inline_html(e["reproduces"])}</td>'
            f'<td>{_md_inline_html(e["inputs"])}</td><td>{_md_inline_html(e["outputs"])}</td><td>{runtime}</td></tr>')
    pdf = '<p><a href="appendix.pdf">The whole appendix as PDF</a> (figures and LaTeX tables of every notebook).</p>' \
        if entries and entries[0].get("pdf") else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Evaluating search when assessors disagree · {html.escape(profile)} profile</title>
<style>{css}</style></head><body>
<h1>Evaluating search when assessors disagree</h1>
<p>The executed notebooks of the <code>{html.escape(profile)}</code> profile. Each page is in reading
mode (code hidden, every output shown, then the notebook's saved figures and tables); "with code"
shows the same notebook with its code.</p>
{pdf}
<table class="book-index"><thead><tr><th>notebook</th><th>reproduces</th><th>inputs</th><th>outputs</th>
<th>runtime</th></tr></thead><tbody>
{chr(10).join(rows)}
</tbody></table></body></html>
"""


def appendix_tex(entries: list[dict], profile: str, out: Path) -> str:
    lines = [r"\documentclass[10pt]{article}",
             r"\usepackage[textwidth=7in,textheight=9.2in]{geometry}",
             r"\usepackage{booktabs,longtable,graphicx}",
             r"\usepackage[hidelinks]{hyperref}" if _has_sty("hyperref") else "",
             r"\title{Evaluating search when assessors disagree: appendix (" + latex_escape(profile) + " profile)}",
             r"\date{}", r"\begin{document}", r"\maketitle", r"\tableofcontents"]
    for e in entries:
        lines += [r"\clearpage", r"\section{" + latex_escape(e["title"]) + "}"]
        for key, label in (("reproduces", "Reproduces"), ("inputs", "Inputs")):
            if e[key]:
                lines.append(r"\paragraph{" + label + "} " + _md_inline_latex(e[key]))
        if e["conclusion"]:
            lines.append(r"\subsection*{Conclusion (generated from this run)}")
            items = [ln[2:] for ln in e["conclusion"].splitlines() if ln.startswith("- ")]
            if items:
                lines.append(r"\begin{itemize}")
                lines += [r"\item " + _md_inline_latex(it) for it in items]
                lines.append(r"\end{itemize}")
        for png in e["figures"]:
            pdf = png.with_suffix(".pdf")
            lines += [r"\begin{figure}[htbp]", r"\centering",
                      r"\includegraphics[width=\linewidth,height=0.8\textheight,keepaspectratio]{" + _rel(pdf, out) + "}",
                      r"\caption{" + latex_escape(f"{e['stem'][:2]} {png.stem.replace('_', ' ')}") + "}",
                      r"\end{figure}"]
        for csv in e["tables"]:
            lines.append(r"\input{" + _rel(csv.with_suffix(".tex"), out) + "}")
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
    pdflatex. A LaTeX error stops the build with the log's first error lines."""
    engine = shutil.which("pdflatex")
    if engine is None:
        return None
    (out / "appendix.tex").write_text(tex, encoding="utf-8")
    for _ in range(2):
        done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "appendix.tex"], cwd=out,
                              capture_output=True, text=True, errors="replace", timeout=900)
        if done.returncode != 0:
            errors = [ln for ln in done.stdout.splitlines() if ln.startswith("!")][:5]
            raise SystemExit(f"build_book: pdflatex failed on {pipeline._show(out / 'appendix.tex')}: {errors}")
    for ext in ("aux", "log", "out", "toc"):
        (out / f"appendix.{ext}").unlink(missing_ok=True)
    return out / "appendix.pdf"


def build(profile: str = "default", out: Path | None = None, *, pdf: bool = True, stream=sys.stdout) -> Path:
    import nbformat

    books = sources(profile)
    out = out or paths.reports_root() / "book" / profile
    if out.exists():
        shutil.rmtree(out)
    (out / "code").mkdir(parents=True)
    css = CSS.read_text(encoding="utf-8")
    measured = runtimes(profile)
    entries = []
    for path in books:
        nb = nbformat.read(str(path), as_version=4)
        f = intro_fields(nb)
        figures, tables = saved_outputs(path.stem, profile)
        entries.append({**f, "stem": path.stem, "nb": nb, "page": f"{path.stem}.html", "code_page": f"code/{path.stem}.html",
                        "runtime_measured": measured.get(path.stem), "conclusion": conclusion_markdown(nb),
                        "figures": figures, "tables": tables, "title": f["title"] or path.stem})
    links = [("index", "index.html")] + [(e["title"].split(" · ")[0], e["page"]) for e in entries]
    for k, e in enumerate(entries):
        nxt = [("next: " + entries[k + 1]["title"], entries[k + 1]["page"])] if k + 1 < len(entries) else []
        read = render_page(e["nb"], code=False, css=css, nav=_nav("", links + [("with code", e["code_page"])] + nxt),
                           extra=outputs_section(e["stem"], profile, out))
        atomic_write_text(out / e["page"], read)
        full = render_page(e["nb"], code=True, css=css, nav=_nav("../", links + [("reading mode", e["page"])]),
                           extra=outputs_section(e["stem"], profile, out / "code"))
        atomic_write_text(out / e["code_page"], full)
        print(f"book: {e['stem']}: {len(e['figures'])} figure(s), {len(e['tables'])} table(s)", file=stream, flush=True)
    for e in entries:
        e["pdf"] = False
    atomic_write_text(out / "index.html", index_page(entries, profile, css))
    made_pdf = build_pdf(appendix_tex(entries, profile, out), out) if pdf else None  # stops on a LaTeX error
    if made_pdf is not None:
        for e in entries:
            e["pdf"] = True
        atomic_write_text(out / "index.html", index_page(entries, profile, css))
    where = pipeline._show(out)
    print(f"book: {where}/index.html" + (f" and {where}/appendix.pdf" if made_pdf else
                                         " (no PDF: pdflatex not found)" if pdf else ""), file=stream, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", default="default")
    parser.add_argument("--out", type=Path, help="output folder (default: reports/book/<profile>/)")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF appendix")
    args = parser.parse_args(argv)
    build(args.profile, args.out, pdf=not args.no_pdf)
    return 0


if __name__ == "__main__":
    sys.exit(main())
