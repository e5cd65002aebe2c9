"""The findings renderer (helpers.notebook.findings) and the reading rules of issue 37, checked on
literal records and on every committed notebook."""

from __future__ import annotations

import json

import pytest

from helpers import paths
from helpers.notebook import claims, findings
from helpers.notebook.findings import Finding, Findings

NOTEBOOKS = sorted(paths.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def _example(**kw):
    rows = [Finding("Does A hold?", "0.50", "0.48 [0.45, 0.51]", "agrees", caveats=("in_sample",)),
            Finding("Does B | C hold?", "—", "3 of 4 parts", "holds in part", caveats=("uncorrected", "in_sample")),
            Finding("Is D shown?", "yes", "p = 0.2", "not shown")]
    return Findings("07_example", rows, ["One idea.", "Another idea."], general=("simulated",), **kw)


def test_verdicts_come_from_the_vocabulary():
    with pytest.raises(ValueError, match="not in the vocabulary"):
        Finding("q", "p", "r", "probably")
    with pytest.raises(ValueError, match="caveats without a sentence"):
        Findings("07_x", [Finding("q", "p", "r", "holds", caveats=("made_up",))])


def test_each_caveat_is_stated_once_with_its_letter():
    f = _example()
    assert f.letters() == {"in_sample": "a", "uncorrected": "b"}
    table = f.table()
    assert list(table.columns) == list(findings.COLUMNS)
    assert table["verdict"].tolist() == ["agrees (a)", "holds in part (b, a)", "not shown"]
    lim = f.limitations()
    assert lim.count(findings.CAVEATS["in_sample"]) == 1 and lim.count(findings.CAVEATS["uncorrected"]) == 1
    assert lim.startswith(findings.CAVEATS["simulated"])          # the general caveat, without a letter
    assert "(a) " + findings.CAVEATS["in_sample"] in lim


def test_renderings_carry_the_same_rows():
    f = _example(footer="Next: [08](08_next.ipynb)")
    md = f.markdown()
    assert md.startswith("| question | paper | this run | verdict |\n|---|---|---|---|\n")
    assert "Does B \\| C hold?" in md                      # a pipe in a cell is escaped
    assert "\n- One idea.\n- Another idea.\n" in md and "**Limitations.**" in md and md.endswith("(08_next.ipynb)")
    html = f.html()
    assert "<table" in html and "<li>One idea.</li>" in html and '<a href="08_next.ipynb">08</a>' in html
    assert html == _example(footer="Next: [08](08_next.ipynb)").html()   # byte-stable (no random uuid)
    text = f.text()
    assert text.splitlines()[:5] == ["Findings", "1. Does A hold?", "   paper: 0.50", "   this run: 0.48 [0.45, 0.51]",
                                     "   verdict: agrees (a)"]
    d = f.as_dict()
    assert d["table"][1] == {"question": "Does B | C hold?", "paper": "—", "this run": "3 of 4 parts",
                             "verdict": "holds in part (b, a)"}
    assert d["prose"] == ["One idea.", "Another idea."] and d["limitations"] == f.limitations()


def test_html_escapes_the_cells():
    """Styler writes cell text as it is: a "<" of "p < 0.001" or a tag-like text must be escaped."""
    rows = [Finding("Is A < B & C?", "<b>no</b>", "Holm p < 0.001", "shown")]
    h = Findings("07_x", rows).html()
    assert "Is A &lt; B &amp; C?" in h and "&lt;b&gt;no&lt;/b&gt;" in h and "Holm p &lt; 0.001" in h
    assert "p < 0.001" not in h and "<b>no</b>" not in h


def test_sentences_and_their_lengths():
    text = ("Sakai (Sec. 4) drew N ratings, e.g. 5 of them. Eq. 2 gives 4.6 vs. 4.0 here! "
            "Is it 0.5? Yes.\n\n- A bullet without a stop\n- Another\n\n| a table | row |\n```\ncode. Not prose.\n```")
    assert findings.sentences(text) == ["Sakai (Sec. 4) drew N ratings, e.g. 5 of them.", "Eq. 2 gives 4.6 vs. 4.0 here!",
                                        "Is it 0.5?", "Yes.", "A bullet without a stop", "Another"]
    long = " ".join(["word"] * 51) + "."
    assert findings.long_sentences(long) and not findings.long_sentences(" ".join(["word"] * 50) + ".")
    assert findings.words("α = 0.5 — β") == 3     # symbols are not words
    # printed output: each line is a boundary
    assert findings.sentences("first line\nsecond line", lines_break=True) == ["first line", "second line"]


def test_problems_find_long_prose_and_long_sentences():
    assert _example().problems() == []
    long = Findings("07_x", [Finding("q", "p", "r", "holds")], [" ".join(["w"] * 51) + "."])
    assert any("51 words" in p for p in long.problems())
    wordy = Findings("07_x", [Finding("q", "p", "r", "holds")], [" ".join(["w"] * 40) + "."] * 7)
    assert any("words of prose" in p for p in wordy.problems())


def test_notebook_problems_reads_an_executed_notebook():
    f = _example()
    cell = {"cell_type": "code", "id": findings.CELL_ID, "metadata": {}, "source": "found.show(out)",
            "outputs": [{"output_type": "display_data", "data": {"text/markdown": f.markdown(), "text/plain": f.text()}}]}
    long_code = {"cell_type": "code", "id": "x", "metadata": {}, "source": "\n".join(["x = 1"] * 41), "outputs": []}
    params = {**long_code, "metadata": {"tags": ["parameters"]}}
    md = {"cell_type": "markdown", "id": "m", "metadata": {}, "source": " ".join(["word"] * 60) + "."}
    assert findings.notebook_problems({"cells": [cell, params]}) == []
    found = findings.notebook_problems({"cells": [long_code, md]})
    assert any("41 lines" in p for p in found) and any("60 words" in p for p in found)
    assert any("does not open with a findings table" in p for p in found)


def test_a_fixed_value_carries_no_interval():
    """Issue 41, item 4: real data, nothing drawn -- no `0.030 [0.030, 0.030]`."""
    c = claims.compare("real", 0.03, "uniform", 0.05, interval_a=(0.03, 0.03), interval_b=(0.04, 0.06))
    assert "[0.030, 0.030]" not in c.text and "real (0.030)" in c.text and c.numbers["differs"]


#: Every notebook's conclusion is a findings table (issue 37).
CONVERTED = {p.name[:2] for p in NOTEBOOKS}


def test_every_notebook_concludes_with_a_findings_table():
    assert len(NOTEBOOKS) >= 6
    without = [p.name for p in NOTEBOOKS if not findings.has_findings(json.loads(p.read_text(encoding="utf-8")))]
    assert not without, f"notebooks without a findings table in their conclusion: {without}"


@pytest.mark.parametrize("notebook", [p for p in NOTEBOOKS if p.name[:2] in CONVERTED], ids=lambda p: p.name[:2])
def test_committed_notebook_reads_as_an_appendix(notebook):
    """No code cell over 40 lines but the parameters cell, a findings table with at most 250 words
    of prose after it, no sentence over 50 words in markdown or output (issue 37's acceptance)."""
    problems = findings.notebook_problems(json.loads(notebook.read_text(encoding="utf-8")))
    assert not problems, f"{notebook.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("notebook", [p for p in NOTEBOOKS if p.name[:2] in CONVERTED], ids=lambda p: p.name[:2])
def test_saved_findings_table_matches_the_notebook(notebook):
    """The committed NN_findings.csv and the metrics' "findings" are the conclusion's table."""
    import pandas as pd

    md = findings.conclusion_markdown(json.loads(notebook.read_text(encoding="utf-8")))
    csv = pd.read_csv(paths.ROOT / "reports" / "tables" / f"{notebook.name[:2]}_findings.csv", dtype=str,
                      keep_default_na=False)
    metrics = json.loads((paths.ROOT / "reports" / "metrics" / f"{notebook.stem}.json").read_text(encoding="utf-8"))
    assert csv.to_dict(orient="records") == metrics["findings"]["table"]
    rows = [ln for ln in md.splitlines() if ln.startswith("| ")][1:]
    assert len(rows) == len(csv)
    for line, rec in zip(rows, metrics["findings"]["table"]):
        assert line == "| " + " | ".join(rec[c].replace("|", "\\|") for c in findings.COLUMNS) + " |"
