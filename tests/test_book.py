"""The book of a run (tools/build_book.py, helpers.notebook.runinfo): it describes the run it was
built from (parameters, inputs, outputs folder), marks failed notebooks everywhere, builds the
book of `make reproduce PARAMS=...` for `make book PARAMS=...`, numbers figures and tables in the
notebook's order, and sets a PDF appendix as a two-column paper with no overfull table and no
Type 3 font."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import shutil
import subprocess

import matplotlib
import nbformat
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from helpers import paths  # noqa: E402
from helpers.notebook import latex, pipeline, reports, runinfo, style  # noqa: E402

PDFLATEX = shutil.which("pdflatex")


def _book():
    spec = importlib.util.spec_from_file_location("build_book", paths.ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _executed(stem: str, parameters: dict, *, error: tuple[str, str] | None = None, printed: str = ""):
    """The committed notebook ``stem`` as papermill would leave a run with ``parameters``: the
    injected values in its metadata, ``printed`` as the validation cell's output and, with
    ``error``, an error output in a cell after it (outputs of the later cells removed)."""
    nb = nbformat.read(str(pipeline.discover([stem[:2]])[0]), as_version=4)
    nb.metadata["papermill"] = {"parameters": parameters}
    code = [k for k, c in enumerate(nb.cells) if c.cell_type == "code"]
    validation = code[2]                               # imports, parameters, validation
    if printed:
        nb.cells[validation].outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
    if error:
        stop = code[4]
        nb.cells[stop].outputs = [nbformat.v4.new_output("error", ename=error[0], evalue=error[1],
                                                         traceback=[f"\x1b[0;31m{error[0]}\x1b[0m: {error[1]}"])]
        for k in code:
            if k > stop:
                nb.cells[k].outputs = []
        marker = nbformat.v4.new_markdown_cell('<span style="color:red">An Exception was encountered</span>',
                                               metadata={"tags": ["papermill-error-cell-tag"]})
        nb.cells.insert(0, marker)
    return nb


def test_runinfo_reads_parameters_inputs_outputs_and_failure():
    printed = ("outputs of this run: <reports>/mine/ (named run 'mine'); the canonical results under <reports>/ are not "
               "touched\nqrels: 1,234 rows, 43 topics, levels [0, 1, 2, 3]\nruns: 5,000 rows, 43 topics, 5 runs\n")
    nb = _executed("02_unanimity_evaluation", {"profile": "mine", "B": 500, "n_list": [3, 10], "dataset": "files",
                                               "qrels_path": str(paths.ROOT / "data" / "examples" / "qrels.txt"),
                                               "runs_glob": "/elsewhere/runs/*.txt"},
                   error=("ValueError", "qrels_path: no relevant document"), printed=printed)
    declared = runinfo.parameters(nb)
    assert declared["B"].default == 5000 and "HSD" in declared["B"].help
    assert "stc-like" in declared["dataset"].help and declared["team_overrides"].default["bm25base"] == "anserini"
    info = runinfo.run_info(nb, "mine")
    assert info.values["B"] == 500 and info.values["p"] == declared["p"].default
    assert info.changed["B"] == (5000, 500) and info.changed["n_list"] == ([5, 10, 20, 40, 80], [3, 10])
    assert "profile" not in info.changed
    assert info.folder == "mine"
    assert info.failure is not None and info.failure.ename == "ValueError"
    assert info.failure.line().startswith("ValueError in cell") and "no relevant document" in info.failure.line()
    assert info.inputs[0] == '`dataset` = "files": the files below'
    assert "`qrels_path`: `data/examples/qrels.txt`" in info.inputs          # inside the checkout: relative
    assert "`runs_glob`: `/elsewhere/runs/*.txt`" in info.inputs
    assert "read: qrels: 1,234 rows, 43 topics, levels [0, 1, 2, 3]" in info.inputs
    # the committed default run: defaults, no failure, the simulated source described by its help
    default = nbformat.read(str(pipeline.discover(["02"])[0]), as_version=4)
    info = runinfo.run_info(default, "default")
    assert info.changed == {} and info.failure is None and info.folder == ""
    assert info.inputs[0].startswith('`dataset` = "stc-like": the stand-in, seed ')
    assert runinfo.show_value(5000) == "5,000" and runinfo.show_value(20170901, "seed") == "20170901"


def test_saved_outputs_follow_the_notebook_order(tmp_path):
    book = _book()
    nb = nbformat.read(str(pipeline.discover(["05"])[0]), as_version=4)
    (tmp_path / "tables").mkdir()
    names = ["05_replicates_mar", "05_hsd_relevance", "05_mar_relevance", "05_normaliser_shift", "05_zz_unknown"]
    for name in names:
        (tmp_path / "tables" / f"{name}.csv").write_text("a\n1\n")
    _, tables = book.saved_outputs(nb, "05_preference_agreement", tmp_path)
    # 05 saves its MAR and HSD tables in the main text and the normaliser shift in its appendix;
    # names the notebook does not save (replicates_mar, zz_unknown) follow, by name
    assert [t.stem for t in tables] == ["05_mar_relevance", "05_hsd_relevance", "05_normaliser_shift",
                                        "05_replicates_mar", "05_zz_unknown"]


def test_make_book_params_builds_that_runs_book(tmp_path):
    done = subprocess.run(["make", "-n", "book", "PARAMS=my-params"], cwd=paths.ROOT, capture_output=True, text=True)
    assert "tools/build_book.py --params my-params" in done.stdout, done.stdout
    book = _book()
    (tmp_path / "my-params").mkdir()
    assert book.run_name("default", str(tmp_path / "my-params")) == "my-params"      # as the runner names it
    assert book.run_name("default", str(tmp_path / "my-params"), "other") == "other"
    assert book.run_name("default", str(tmp_path / "my-params")) == pipeline.output_name(tmp_path / "my-params", None)
    assert book.run_name("real") == "real"
    with pytest.raises(SystemExit, match="no executed notebooks for 'nothing-here'.*make reproduce"):
        book.sources("nothing-here")


def _outputs(rep: reports.Reporter) -> None:
    """Tables and figures like a run's: a long one, a wide one, a narrow one, two figure widths."""
    rng = np.random.default_rng(1)
    rep.save_table(pd.DataFrame({"higher": [f"D#-nDCG (p=0.{k})" for k in range(120)], "lower": ["worst assessor"] * 120,
                                 "delta_mar": rng.uniform(0, 0.2, 120), "p_value": rng.uniform(0, 0.05, 120),
                                 "es_hsd": rng.uniform(0, 1, 120)}), "hsd_relevance")
    names = [f"measure-{k}@10" for k in range(20)]
    rep.save_table(pd.DataFrame(rng.uniform(0, 1, (6, 20)), columns=names).assign(run_id=[f"r{k}" for k in range(6)])
                   [["run_id", *names]], "replicates_mar")
    rep.save_table(pd.DataFrame({"measure": ["nDCG", "AP"], "MAR": [0.61, 0.58]}), "mar_both")
    with matplotlib.rc_context():
        style.use()
        for name, kind in (("replicates_mar", "single"), ("mar_hsd_groups", "full")):
            fig, ax = plt.subplots(figsize=style.figsize(kind))
            ax.plot([0, 1], [0, 1], label="a line")
            ax.set(xlabel="MAR", title="τ and Δ")
            rep.save_fig(fig, name)
            plt.close(fig)


def test_book_of_an_own_data_run_describes_it_and_marks_failures(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    executed = tmp_path / "reports" / "executed" / "my-params"
    executed.mkdir(parents=True)
    nbformat.write(_executed("01_gain_definitions", {"profile": "my-params", "n_list": [3, 10]},
                             error=("ValueError", "your ratings: 0 item(s) rated by all 6 assessors")),
                   str(executed / "01_gain_definitions.ipynb"))
    nbformat.write(_executed("05_preference_agreement", {"profile": "my-params", "B": 500, "data": "files",
                                                         "preferences_path": str(tmp_path / "prefs.tsv")},
                             printed="outputs of this run: <reports>/my-params/ (named run 'my-params'); ...\n"
                                     "preferences: 360 rows, 6 topics, 3 assessors, 20 pairs\n"),
                   str(executed / "05_preference_agreement.ipynb"))
    pipeline.record_runtime(executed, "05_preference_agreement", 12.34)
    pipeline.record_runtime(executed, "01_gain_definitions", 99.0)   # an earlier run's: not shown for a failure
    _outputs(reports.Reporter("05_preference_agreement", "my-params", values=None))
    out = _book().build("my-params", pdf=PDFLATEX is not None, stream=io.StringIO())
    assert out == tmp_path / "reports" / "book" / "my-params"
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.count('class="failed"') == 1 and "1 of 2 notebook(s) FAILED" in index
    assert "FAILED: ValueError in cell" in index and "rated by all 6 assessors" in index and "99 s" not in index
    assert "ok in 12 s (measured)" in index
    assert "<code>B</code> = 500 (default 5,000)" in index and "default parameters" in index
    assert "<code>data</code> = &quot;files&quot;: the files below" in index and "preferences: 360 rows" in index
    this_run = re.findall(r"<td><code>my-params</code>: (.*?)</td>", index)
    assert len(this_run) == 2 and "5,000" not in this_run[1].replace("(default 5,000)", "")
    page = (out / "01_gain_definitions.html").read_text(encoding="utf-8")
    assert "This notebook FAILED in this run" in page and "<title>01 · Gain definitions" in page
    assert "FAILED in this run" in (out / "code" / "01_gain_definitions.html").read_text(encoding="utf-8")
    page5_full = (out / "05_preference_agreement.html").read_text(encoding="utf-8")
    page5 = page5_full.split("Saved figures and tables")[1]
    assert "Table 05.1: Mean agreement rate" in page5 and "higher MAR" in page5 and "delta_mar" not in page5
    assert "Figure 05.1: MAR of every measure and of the best" in page5
    if PDFLATEX is None:
        pytest.skip("no pdflatex: the PDF appendix is not built (.ci/run installs TeX)")
    tex = (out / "appendix.tex").read_text(encoding="utf-8")
    assert tex.startswith(r"\documentclass[10pt,twocolumn]{article}")
    assert re.search(r"\\section\{01 .*FAILED\}", tex) and r"\paragraph{FAILED in this run} ValueError" in tex
    # the notebook's figures in one float (full width and one column), in the notebook's order
    figures = tex[tex.index(r"\begin{figure*}"):tex.index(r"\end{figure*}")]
    assert figures.index("mar_hsd_groups.pdf") < figures.index("replicates_mar.pdf") and tex.count(r"\begin{figure") == 1
    # short tables set (the wide one floats, the narrow one in the text), the 120-row one listed with its file
    assert r"\input{" in tex.split("05_replicates_mar.tex")[0][-80:] and "inlinetable" in tex.split("05_mar_both.tex")[0][-90:]
    assert "05_hsd_relevance.tex" not in tex and r"Table 05.2 (120 rows, \texttt{05\_hsd\_relevance.csv})" in tex
    assert "<reports>" not in tex and "&lt;reports&gt;" not in index               # the folder is named, not a placeholder
    assert f"outputs in <code>{tmp_path / 'reports' / 'my-params'}/</code>" in index
    # 05 opens with its findings table (the committed notebook's conclusion), before what the run was
    section5 = tex[tex.index(r"\section{05"):]
    assert section5.index(r"\textbf{verdict}") < section5.index(r"\paragraph{This run}")
    assert page5_full.index("Findings of this run") < page5_full.index('class="book-run"')
    log = (out / "appendix.log").read_text(encoding="latin-1")
    overfull = [float(x) for x in re.findall(r"Overfull \\hbox \((\d+(?:\.\d+)?)pt too", log)]
    assert not [x for x in overfull if x > 1.0], overfull
    fonts = latex.pdf_fonts((out / "appendix.pdf").read_bytes())
    assert fonts and not [f for f in fonts if f[1] == "Type3"], fonts
    if shutil.which("pdffonts"):   # poppler agrees
        listed = subprocess.run(["pdffonts", str(out / "appendix.pdf")], capture_output=True, text=True).stdout
        assert "Type 3" not in listed and "CID TrueType" in listed   # matplotlib's figures embed TrueType


def test_pdf_fonts_finds_type3_fonts(tmp_path, monkeypatch):
    """pdf_fonts finds a Type 3 font (matplotlib's pdf.fonttype 3) and none in the style's
    figures; Reporter.save_fig embeds TrueType even when the style in force says Type 3. (The
    book's own Type 3 source, the text-companion list bullet, is checked on the built PDF.)"""
    with matplotlib.rc_context():
        style.use()
        fig, ax = plt.subplots(figsize=(2, 1))
        ax.set_title("τ ≥ 0.5, D♯")
        buf = io.BytesIO()
        fig.savefig(buf, format="pdf")
        plt.close(fig)
    kinds = {kind for _, kind in latex.pdf_fonts(buf.getvalue())}
    assert kinds and "Type3" not in kinds, kinds                   # pdf.fonttype 42: TrueType
    with matplotlib.rc_context({"pdf.fonttype": 3}):
        fig, ax = plt.subplots(figsize=(2, 1))
        ax.set_title("x")
        buf = io.BytesIO()
        fig.savefig(buf, format="pdf")
        assert "Type3" in {kind for _, kind in latex.pdf_fonts(buf.getvalue())}
        # the notebooks' save_fig embeds TrueType whatever the style in force
        monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
        pdf, _ = reports.Reporter("05_preference_agreement", "default", values=None).save_fig(fig, "replicates_mar")
        plt.close(fig)
    kinds = {kind for _, kind in latex.pdf_fonts(pdf.read_bytes())}
    assert kinds and "Type3" not in kinds, kinds


def test_runtimes_are_measured_never_written_by_hand():
    """The notebooks' **Runtime** paragraphs point at the measurements and state no duration of
    their own (they disagreed with the measured runtimes); the book shows runtimes.json only."""
    duration = re.compile(r"\b(\d+(\.\d+)?\s*(s|sec|seconds?|min|minutes?|h|hours?)\b|a few seconds|a minute|"
                          r"minutes|seconds)", re.I)
    for nb_path in pipeline.discover():
        first = nbformat.read(str(nb_path), as_version=4).cells[0].source
        runtime = first[first.index("**Runtime**"):]
        assert "runtimes.json" in runtime and not duration.search(runtime.replace("runtimes.json", "")), \
            (nb_path.name, runtime)
    book = _book()
    assert "runtime" not in book.intro_fields(nbformat.read(str(pipeline.discover(["02"])[0]), as_version=4))


# --- findings first, compact appendix (issues 37 and 41) ---------------------------------------

def test_findings_are_read_back_from_the_renderers_markdown():
    """The book reads a conclusion as helpers.notebook.findings renders it: the table's records
    (a bar inside a cell included), the bullets and the Limitations paragraph."""
    from helpers.notebook import findings as F

    f = F.Findings("07_example", [F.Finding("Is a | b?", "0.5", "0.42 [0.40, 0.44]", "agrees", caveats=("in_sample",)),
                                  F.Finding("Does it hold?", "—", "3 of 4", "holds in part")],
                   prose=["One idea.", "Another, with `code`."], general=("simulated",), footer="Next: [08](x.ipynb).")
    got = _book().findings_of(f.markdown())
    assert got["table"] == f.table().to_dict(orient="records") and got["table"][0]["verdict"] == "agrees (a)"
    assert got["prose"] == list(f.prose) and got["limitations"] == f.limitations()
    assert _book().verdict_summary(got) == "2 questions: 1 agrees, 1 holds in part"
    assert _book().findings_of("- an older conclusion\n- in bullets\n") is None


def test_an_older_bullet_conclusion_falls_back_to_its_bullets(tmp_path):
    book = _book()
    nb = _executed("01_gain_definitions", {"profile": "default"})
    cell = next(c for c in nb.cells if c.get("id") == "conclusion-text")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": "- first point\n- second point",
                                                                  "text/plain": "..."})]
    info = runinfo.run_info(nb, "default")
    entry = {**book.intro_fields(nb), "stem": "01_gain_definitions", "nb": nb, "info": info, "figures": [],
             "tables": [], "conclusion": book.conclusion_markdown(nb), "runtime_measured": None, "title": "01 · x"}
    entry["findings"] = book.findings_of(entry["conclusion"])
    assert entry["findings"] is None and book._findings_html(entry) == ""
    tex = "\n".join(book._section_lines(entry, "default", tmp_path))
    assert r"\subsection*{Conclusion (generated from this run)}" in tex and r"\item second point" in tex
    assert r"\textbf{verdict}" not in tex


def test_a_run_that_only_failed_has_a_book_and_an_empty_one_names_its_command(tmp_path, monkeypatch):
    """Issue 40: the runner keeps a failed notebook's executed copy under failed/; the book of a run
    whose every notebook failed shows those copies (marked FAILED) instead of asking for a rerun."""
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "reports"))
    book = _book()
    failed = tmp_path / "reports" / "executed" / "mine" / "failed"
    failed.mkdir(parents=True)
    nbformat.write(_executed("01_gain_definitions", {"profile": "mine"}, error=("ValueError", "bad ratings")),
                   str(failed / "01_gain_definitions.ipynb"))
    assert book.sources("mine") == [failed / "01_gain_definitions.ipynb"]
    out = book.build("mine", pdf=False, stream=io.StringIO())
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "1 of 1 notebook(s) FAILED" in index and "bad ratings" in index
    with pytest.raises(SystemExit, match=r"unknown profile 'other'.*make reproduce PARAMS=<your folder>.*--name other"):
        book.sources("other")
    with pytest.raises(SystemExit, match=r"unknown profile 'reall' \(did you mean 'real'\?\)"):   # the runner's check
        book.sources("reall")
    with pytest.raises(SystemExit, match=r"^build_book: --params \S*absent: no such file or folder$"):
        book.run_name("default", str(tmp_path / "absent"))
    (tmp_path / "reports" / "executed" / "real").mkdir(parents=True)
    with pytest.raises(SystemExit, match=r"`make reproduce PROFILE=real` first"):
        book.sources("real")
    # from the command line: the message on one line of stderr, status 2 (the runner's usage status), no traceback
    for argv, expected in ((["--profile", "other"], "unknown profile 'other'"),
                           (["--params", str(tmp_path / "absent")], "absent: no such file or folder"),
                           (["--name", "x"], "--name only goes with --params")):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert book.main(argv) == 2, argv
        assert expected in err.getvalue() and err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue()


@pytest.mark.skipif(PDFLATEX is None, reason="no pdflatex (.ci/run installs TeX)")
def test_the_default_appendix_is_compact(tmp_path):
    """Issue 41: the committed notebooks' appendix has at most 2 pages per notebook plus one page for
    its figures, each notebook opening with its findings table when it has one, and no page under a
    third full but the last of a section (measured on the rendered pages with poppler's pdftoppm)."""
    book = _book()
    entries = book.entries_of("default")
    out = tmp_path / "book"
    out.mkdir()
    pdf = book.build_pdf(book.appendix_tex(entries, "default", out), out)
    starts = json.loads((out / "appendix.sections.json").read_text(encoding="utf-8"))
    full = book.page_fullness(pdf)
    if full is None:
        pytest.skip("no pdftoppm (poppler-utils): pages not measured")
    pages = [b - a for a, b in zip(starts, starts[1:] + [len(full) + 1])]
    budget = [2 + bool(e["figures"]) for e in entries]
    assert len(starts) == len(entries) and all(p <= b for p, b in zip(pages, budget)), (pages, budget)
    assert book.sparse_pages(full, starts) == [], (full, starts)
    tex = (out / "appendix.tex").read_text(encoding="utf-8")
    with_findings = [e["stem"][:2] for e in entries if e["findings"]]
    assert with_findings, "no committed notebook has a findings table"
    for number in with_findings:
        section = tex[tex.index(r"\section{" + number):]
        assert section.index(r"\textbf{verdict}") < section.index(r"\paragraph{This run}"), number
    print(f"appendix: {len(full)} pages, per notebook {pages}, fullness {full}")
