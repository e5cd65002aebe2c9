"""LaTeX tables compile standalone with pdflatex (booktabs; graphicx when they ask), in two columns.

Every table is compiled in the layout of a two-column paper (10 pt article, 7 in text width, two
3.33 in columns): a ``table`` must fit one column, a ``table*`` the full width; ``longtable``
(which stops a two-column document) is never written. The sets:

* tables generated now by :func:`helpers.notebook.reports.latex_table` from representative DataFrames
  (every special character, the notebooks' Unicode labels, NaN, negative numbers, a 30-column
  matrix, a 150-row table, MultiIndex columns);
* every ``.tex`` committed under ``reports/`` (written by the code of their commit), and every
  committed CSV set again by the current code with its registered caption and column labels;
* every ``.tex`` under the folders in ``SUBJEVAL_LATEX_EXTRA`` (e.g. a fresh run into
  ``SUBJEVAL_REPORTS_DIR=/tmp/out``), to check new outputs before they are committed.

A table passes when pdflatex exits 0 with no error, no undefined reference, no float too large for
the page and no overfull box wider than 1 pt. Without a TeX engine the tests are skipped with the reason (``.ci/run`` installs
one from Debian packages).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import paths
from helpers.notebook import reports

PDFLATEX = shutil.which("pdflatex")
needs_tex = pytest.mark.skipif(PDFLATEX is None, reason="no pdflatex on PATH: install texlive-latex-base and "
                                                         "texlive-latex-recommended (.ci/run does) to compile the tables")

#: The layout of a two-column paper (ACM and IEEE templates: 7 in text width, 3.33 in columns).
WRAPPER = r"""\documentclass[10pt,twocolumn]{article}
\usepackage[textwidth=7in,textheight=9.2in,columnsep=0.33in]{geometry}
\usepackage{booktabs,graphicx}
\begin{document}
\input{table}
\end{document}
"""


def _problems(log: str) -> list[str]:
    """Errors, overfull boxes wider than 1 pt, floats too large and undefined references in a
    pdflatex log (or a part of one)."""
    found = [ln for ln in log.splitlines() if ln.startswith("!")]
    found += [f"overfull box {o} pt" for o in re.findall(r"Overfull \\[hv]box \((\d+(?:\.\d+)?)pt too", log)
              if float(o) > 1.0]
    found += ["float too large for the page" for _ in re.findall(r"Float too large", log)]
    found += ["undefined reference" for _ in re.findall(r"Reference .* undefined", log)]
    return found


def compile_table(tex: str, workdir: Path) -> str:
    """pdflatex the table in the two-column wrapper; returns the log, raises AssertionError on a problem."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "table.tex").write_text(tex, encoding="utf-8")
    (workdir / "doc.tex").write_text(WRAPPER, encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=workdir,
                          capture_output=True, text=True, timeout=120, errors="replace")
    log = (workdir / "doc.log").read_text(encoding="latin-1") if (workdir / "doc.log").exists() else done.stdout
    problems = _problems(log)
    assert done.returncode == 0 and not problems, f"pdflatex: {problems[:3] or done.stdout[-800:]}"
    return log


def compile_many(tables: dict[str, str], workdir: Path) -> dict[str, list[str]]:
    """Every table of ``tables`` in one two-column document (a page each): name -> problems of
    that table (empty when it fits). One pdflatex run instead of one per table."""
    workdir.mkdir(parents=True, exist_ok=True)
    body = []
    for k, (name, tex) in enumerate(tables.items()):
        (workdir / f"t{k}.tex").write_text(tex, encoding="utf-8")
        body.append(f"\\typeout{{@@table {k}}}\\input{{t{k}}}\\clearpage")
    (workdir / "doc.tex").write_text(WRAPPER.replace("\\input{table}", "\n".join(body)), encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=workdir,
                          capture_output=True, text=True, timeout=600, errors="replace")
    log = (workdir / "doc.log").read_text(encoding="latin-1")
    parts = re.split(r"@@table (\d+)", log)
    names = list(tables)
    found = {name: [] for name in names}
    for k in range(1, len(parts) - 1, 2):
        found[names[int(parts[k])]] = _problems(parts[k + 1])
    if done.returncode != 0 and len(parts) > 1:
        found[names[int(parts[-2])]].append("pdflatex stopped here")
    return found


def representative_tables() -> dict[str, str]:
    rng = np.random.default_rng(18)
    names = [f"{f}@10" for f in ("I-rec", "D-nDCG", "D-Q", "D-nERR", "D-RBP", "D-EBR", "D#-nDCG", "D#-Q", "D#-nERR",
                                 "D#-RBP", "D#-EBR", "DIN-nDCG", "DIN#-nDCG", "P+Q", "P+Q#", "IA-nDCG", "IA-Q",
                                 "IA-nERR", "IA-RBP", "IA-EBR", "alpha-nDCG", "ERR-IA", "P-IA", "strec",
                                 "RBU(p=0.85)", "RBU(p=0.99)", "iRBU(p=0.99)")] + ["NRBP", "nNRBP"]
    tau = pd.DataFrame(rng.uniform(0.1, 1, (29, 29)).round(3), index=names, columns=names)
    scores = pd.DataFrame(rng.uniform(0, 1, (15, 29)), index=[f"run_{k:02d}" for k in range(15)], columns=names)
    specials = pd.DataFrame({
        "measure": ["D♯-nDCG", "α-nDCG & ERR-IA", "50% of {x}", "a_b#c$d~e^f\\g", "θ ≥ 2 · τ − 1 ± σ", "Δ → café"],
        "d_max": [2, 4, 8, 2, 4, 8], "n": [5, 10, 20, 40, 80, 5],
        "tau": [0.9683, -0.25, np.nan, 1.0, -0.0, np.inf], "significant": [True, False, True, False, True, False]})
    long = pd.DataFrame({"higher": [f"m_{k}" for k in range(150)], "lower": ["worst assessor"] * 150,
                         "delta_mar": rng.uniform(0, 0.2, 150), "p_value": rng.uniform(0, 0.05, 150)})
    multi = pd.DataFrame(rng.uniform(0, 9, (4, 4)), columns=pd.MultiIndex.from_product([["prm", "binary"], ["mean", "sem"]]))
    text = pd.DataFrame({"setting": ["sum (RawG)", "majority (CECG)"],
                         "definition": ["sum of ratings, linear gain: g = Σ r_k over the N assessors of the item",
                                        "majority label; ties broken upwards, exponential gain 2^x - 1"],
                         "used by": ["NTCIR-13 STC-2, WWW (Sakai 2017)", "CLEF eHealth"]})
    cjk = pd.DataFrame({"assessor": ["評価者01", "评估者02", "A3"], "query": ["女装正太", "清华大学宿舍", "q"],
                        "MAR": [0.61, 0.58, 0.5]})
    return {
        "kendall_tau_29x29": reports.latex_table(tau.reset_index(names="measure"), caption="Kendall's τ-b, 29 measures",
                                                 label="tab:04-kendall-tau", float_format="%.3f"),
        "mean_scores_30_columns": reports.latex_table(scores, caption="Mean scores (cutoff 10)", label="tab:04-mean-scores",
                                                      index=True),
        "special_characters": reports.latex_table(specials, caption="Caption with 95% and d_max & D#", label="tab:00-special"),
        "long_150_rows": reports.latex_table(long, caption="Significant differences in MAR", label="tab:05-hsd-both"),
        "multiindex_columns": reports.latex_table(multi, caption="Table 5", label="tab:03-table5", float_format="%.3f"),
        "long_text": reports.latex_table(text, caption="Gain settings", label="tab:01-gain-settings"),
        "cjk_ids": reports.latex_table(cjk, caption="MAR of 評価者01 and 女装正太", label="tab:05-mar-cjk"),
        "cjk_ids_long": reports.latex_table(pd.concat([cjk] * 40, ignore_index=True), caption="MAR, 評価者",
                                            label="tab:05-mar-cjk-long"),
    }


def test_escape_and_notation_without_tex():
    tex = representative_tables()["special_characters"]
    for spelled in (r"D\ensuremath{\sharp}-nDCG", r"\ensuremath{\alpha}-nDCG \& ERR-IA", r"50\% of \{x\}",
                    r"a\_b\#c\$d\textasciitilde{}e\textasciicircum{}f\textbackslash{}g", r"$D_{\max}$ & $N$ & $\tau$",
                    r"\ensuremath{-}0.2500", r"Caption with 95\% and d\_max \& D\#", r"\label{tab:00-special}"):
        assert spelled in tex, spelled
    assert "-0.0000" not in tex and " 0.0000 " in tex
    assert tex.isascii()
    # other scripts are kept (never dropped) behind a macro that pdflatex can compile
    assert reports.latex_escape("評価者01") == r"\subjevalU{8A55}{評}\subjevalU{4FA1}{価}\subjevalU{8005}{者}01"
    with pytest.raises(ValueError, match=r"control character U\+0007"):
        reports.latex_escape("bell\x07")


def test_wide_and_long_tables_are_split_or_continued():
    tables = representative_tables()
    assert r"\par\medskip" in tables["kendall_tau_29x29"] and r"\begin{table*}" in tables["kendall_tau_29x29"]
    long = tables["long_150_rows"]
    assert "longtable" not in "".join(tables.values())          # longtable stops a two-column paper
    parts = long.count(r"\begin{table")
    assert parts >= 4 and long.count(r"\caption{") == 1 and long.count(r"\tablename~\thetable{} (continued") == parts - 1
    assert long.count(r"\toprule") == parts                       # every part repeats the headers
    assert r"\begin{table}[htbp]" in tables["special_characters"]  # narrow: one column


def test_table_or_table_star_by_width():
    """A table that fits one column of a two-column paper is a ``table``; a wider one says it
    needs the full width (``table*``); long text wraps before a table goes wide."""
    narrow = pd.DataFrame({"measure": ["nDCG@10", "AP"], "tau": [0.91, 0.82]})
    wide = pd.DataFrame({f"a long column name {k}": [0.123456] for k in range(9)})
    text = pd.DataFrame({"setting": ["UG"], "definition": ["RawG + p·N·(Dmax − D) if RawG > 0, " * 3]})
    assert r"\begin{table}[htbp]" in reports.latex_table(narrow, caption="c", label="l")
    assert r"\begin{table*}[htbp]" in reports.latex_table(wide, caption="c", label="l")
    tex = reports.latex_table(text, caption="c", label="l")
    assert r"\begin{table}[htbp]" in tex and r"\parbox[t]" in tex
    assert "fits one column" in tex.splitlines()[0]


def test_headers_take_labels_and_wrap():
    df = pd.DataFrame({"share_any_discrepancy": [0.5], "d_max": [2]})
    tex = reports.latex_table(df, caption="c", label="l", headers={"share_any_discrepancy": "replicates with a discrepancy"})
    assert "share\\_any" not in tex and "$D_{\\max}$" in tex
    assert r"\begin{tabular}[b]{@{}r@{}}replicates with \\ a discrepancy\end{tabular}" in tex or \
        r"\begin{tabular}[b]{@{}r@{}}replicates \\ with a \\ discrepancy\end{tabular}" in tex, tex


def test_save_table_defaults_label_and_caption(tmp_path, monkeypatch):
    """The registered caption and column labels go into the .tex, the column names stay in the
    CSV; a table with no caption registered falls back to its name, with a warning."""
    from helpers.notebook import captions

    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    rep = reports.Reporter("04_diversified_measures", "real", values=None)
    csv, tex = rep.save_table(pd.DataFrame({"run_id": ["a_1"], "x": [0.5]}), "kendall_tau")
    text = tex.read_text()
    assert r"\label{tab:04-kendall-tau-real}" in text
    assert r"\caption{Kendall's \ensuremath{\tau}-b between the run rankings" in text
    assert "run & x" in text and csv.read_text().startswith("run_id,x")
    with pytest.warns(captions.MissingCaption, match="04_no_such_table"):
        _, tex = rep.save_table(pd.DataFrame({"x": [0.5]}), "no_such_table")
    assert r"\caption{No such table (notebook 04, diversified measures).}" in tex.read_text()


def test_save_table_csv_round_trips_labels_pandas_reads_as_missing(tmp_path, monkeypatch):
    """A text label in pandas' default NA list (the planted model ``null``) reads back as itself
    plus its column name, not as NaN, from a default ``pd.read_csv``; numbers and real missing
    values are untouched, and the .tex shows the same label."""
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path))
    rep = reports.Reporter("04_diversified_measures", "real", values=None)
    df = pd.DataFrame({"model": ["position", "null", "NA"], "measure": ["I-rec@10", "None", "D-nDCG@10"],
                       "mean": [0.5, np.nan, 0.25]})
    csv, tex = rep.save_table(df, "planted_truth_recovery")
    back = pd.read_csv(csv)
    assert back["model"].tolist() == ["position", "null model", "NA model"]
    assert back["measure"].tolist() == ["I-rec@10", "None measure", "D-nDCG@10"]
    assert back["mean"].isna().tolist() == [False, True, False] and back["model"].notna().all()
    assert "null model" in tex.read_text()
    assert df["model"].tolist() == ["position", "null", "NA"]          # the caller's frame is not changed
    idx = reports.csv_safe_labels(pd.DataFrame({"x": [1, 2]}, index=pd.Index(["null", "a"], name="run_id")), index=True)
    assert idx.index.tolist() == ["null run id", "a"]
    same = pd.DataFrame({"x": ["a", ""], "y": [1.0, np.nan]})
    assert reports.csv_safe_labels(same) is same


@needs_tex
@pytest.mark.parametrize("name", sorted(representative_tables()))
def test_generated_tables_compile(name, tmp_path):
    compile_table(representative_tables()[name], tmp_path)


#: The committed tables: those of the default and real profiles (.gitignore keeps every other run's
#: outputs, e.g. reports/book/ or reports/runs/, out of git; they are not tables to check here).
COMMITTED = sorted(paths.ROOT.glob("reports/tables/*.tex")) + sorted(paths.ROOT.glob("reports/real/tables/*.tex"))
#: More tables to compile, e.g. a fresh run's: SUBJEVAL_LATEX_EXTRA=/tmp/out (folders, os.pathsep-separated).
EXTRA = sorted(p for d in filter(None, os.environ.get("SUBJEVAL_LATEX_EXTRA", "").split(os.pathsep))
               for p in Path(d).rglob("*.tex"))


def test_every_notebook_has_committed_tables():
    prefixes = {p.name[:2] for p in COMMITTED}
    assert prefixes == {nb.name[:2] for nb in paths.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")}, prefixes


@needs_tex
@pytest.mark.parametrize("path", COMMITTED, ids=[str(p.relative_to(paths.ROOT)) for p in COMMITTED])
def test_committed_tables_compile(path, tmp_path):
    compile_table(path.read_text(encoding="utf-8"), tmp_path)


#: every committed table that has its LaTeX twin (``save_table(..., latex=False)`` writes a CSV only: a
#: detail table of many wide text columns, read as data, e.g. 04_planted_truth_checks)
COMMITTED_CSV = [p for p in sorted(paths.ROOT.glob("reports/tables/*.csv")) + sorted(paths.ROOT.glob("reports/real/tables/*.csv"))
                 if p.with_suffix(".tex").exists()]


def test_csv_only_tables_are_the_ones_the_notebooks_save_without_latex():
    """A CSV without its .tex twin must come from a ``latex=False`` call, not from a lost file."""
    alone = {p.stem for p in sorted(paths.ROOT.glob("reports/**/tables/*.csv")) if not p.with_suffix(".tex").exists()}
    said = set()
    for nb in paths.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"):
        text = nb.read_text(encoding="utf-8")
        said |= {f"{nb.name[:2]}_{m}" for m in re.findall(r'save_table\([^\n]*?\\"([a-z0-9_]+)\\"[^\n]*latex=False', text)}
    assert alone <= said, alone - said


def _rerendered(path: Path) -> str:
    """A committed CSV set again by the current code, as ``Reporter.save_table`` would."""
    import warnings

    from helpers.notebook import captions

    notebook, name = path.stem[:2], path.stem[3:]
    df = pd.read_csv(path, keep_default_na=False, na_values=[""])
    with warnings.catch_warnings():
        warnings.simplefilter("error", captions.MissingCaption)   # every committed table has its caption and labels
        return reports.latex_table(df, caption=captions.table_caption(notebook, name),
                                   label=f"tab:{notebook}-{name}", headers=captions.column_labels(notebook, name, df.columns))


@needs_tex
def test_committed_tables_set_by_the_current_code_fit_two_columns(tmp_path):
    """Every committed table, set again from its CSV by the current code, compiles in a two-column
    paper: a ``table`` within one column, a ``table*`` within the text width, no overfull box."""
    tables = {str(p.relative_to(paths.ROOT)): _rerendered(p) for p in COMMITTED_CSV}
    problems = {k: v for k, v in compile_many(tables, tmp_path).items() if v}
    assert not problems, problems


@needs_tex
@pytest.mark.skipif(not EXTRA, reason="SUBJEVAL_LATEX_EXTRA names no folder with .tex files")
@pytest.mark.parametrize("path", EXTRA, ids=[p.name for p in EXTRA])
def test_extra_tables_compile(path, tmp_path):
    compile_table(path.read_text(encoding="utf-8"), tmp_path)
