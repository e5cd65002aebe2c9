"""Hostile identifiers through every notebook's file mode: nothing escapes, nothing collides.

The example files (``data/examples/``, made by ``tools/make_examples.py``) are copied with every
kind of identifier replaced by a hostile one -- path traversal (``../../x``), a path separator,
CJK, spaces, names that differ only in characters a file name cannot hold (``a/b`` and ``a?b``)
-- and each notebook runs on them through the runner (``pipeline.execute``) into a reports root
nested deep enough that a traversal would land inside this test's folder. Every file written must
lie in the reports root's own layout, the data-derived table names must stay distinct, and the
identifiers must reach the tables unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import paths
from helpers.notebook import outputs, pipeline

EXAMPLES = paths.ROOT / "data" / "examples"

#: whole-token replacements, applied to every example file (ids are whitespace or tab delimited)
HOSTILE = {
    "q1": "../../../q1", "q2": "話題/二", "q3": "C:\\q3",                        # topics (ad hoc)
    "alpha-1": "../../../alpha-1", "beta-1": "ベータ-1",                       # runs (ad hoc)
    "T001": "../../../T001", "T002": "話題2",                                   # topics (diversity)
    "R01": "../../../R01", "R02": "評価-R02",                                   # runs (diversity)
    "A01": "評価者01", "A02": "../../A02", "A03": "a b",                        # assessors (05)
    "diversity": "../../../../x",                                              # a question (05)
}
TOKEN = re.compile(r"(?<![^\s])(" + "|".join(re.escape(k) for k in sorted(HOSTILE, key=len, reverse=True))
                   + r")(?=[\s.\-]|$)")


def _hostile_copy(dst: Path) -> None:
    for src in EXAMPLES.rglob("*"):
        if not src.is_file():
            continue
        text = src.read_text(encoding="utf-8")
        text = TOKEN.sub(lambda m: HOSTILE[m.group(1)], text)
        if src.name == "preferences.tsv":   # two more questions, whose names differ only where a file name cannot
            lines = text.splitlines(keepends=True)[1:]
            text += "".join(line.replace("\trelevance\t", f"\t{q}\t") for q in ("a/b", "a?b") for line in lines
                            if "\trelevance\t" in line)
        (dst / src.relative_to(EXAMPLES)).parent.mkdir(parents=True, exist_ok=True)
        (dst / src.relative_to(EXAMPLES)).write_text(text, encoding="utf-8")
    # per-assessor qrels files named by CJK assessor ids
    (dst / "assessors" / "A1.txt").rename(dst / "assessors" / "評価者01.txt")


def _parameters(data: Path) -> dict[str, dict]:
    out = {}
    for nb in pipeline.discover():
        values = pipeline.read_parameter_file(paths.PARAMS / "examples" / f"{nb.stem}.yaml", nb, "hostile")
        for key, value in list(values.items()):
            if key.endswith(("_path", "_glob")) and value:
                values[key] = value.replace(str(paths.ROOT / "data" / "examples"), str(data))
        if nb.stem[:2] != "06":   # 06 has no B, and its files mode reads no replicates (it refuses them)
            values.update({"B": 100, "replicates": 1} if nb.stem[:2] != "01" else {"replicates": 2})
        if nb.stem[:2] in ("02",):
            values["real_replicates"] = 1
        if nb.stem[:2] in ("02", "03", "04", "05"):
            values["scheduler"] = "serial"
        if nb.stem[:2] == "01":
            values["ratings_path"] = str(data / "assessors" / "*.txt")
            values["ratings_layout"] = "qrels"
        out[nb.stem] = values
    return out


def test_hostile_identifiers_through_every_notebooks_file_mode(tmp_path, monkeypatch):
    data = tmp_path / "data"
    _hostile_copy(data)
    assert "../../../q1" in (data / "qrels.txt").read_text(encoding="utf-8")
    root = tmp_path / "a" / "b" / "c" / "d" / "reports"     # '../../../..' from its folders stays in tmp_path
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(root))
    failures = []
    for stem, values in _parameters(data).items():
        nb = paths.NOTEBOOKS / f"{stem}.ipynb"
        try:
            pipeline.execute(nb, values, root / "executed" / "hostile" / nb.name, run_name="hostile",
                             html=root / "html" / "hostile" / f"{stem}.html")
        except Exception as exc:  # noqa: BLE001 - every notebook's failure is reported below
            failures.append(f"{stem}: {str(exc)[-3000:]}")
    assert not failures, "\n\n".join(failures)
    folder = root / "hostile"
    written = sorted(p for p in tmp_path.rglob("*") if p.is_file() and not p.is_relative_to(data))
    allowed = [folder / "tables", folder / "figures", folder / "metrics", folder / "parameters",
               folder / outputs.MANIFESTS,   # what each publication wrote (helpers.notebook.outputs)
               root / "executed" / "hostile", root / "html" / "hostile", root / outputs.STAGING]
    outside = [p for p in written if not any(p.is_relative_to(a) for a in allowed)]
    assert not outside, f"written outside the reports layout: {outside}"
    for p in written:
        if p.is_relative_to(folder / "figures"):
            assert p.parent.parent == folder / "figures" and p.parent.name[:3] in {f"{k:02d}_" for k in range(1, 7)}, p
        else:
            assert p.parent in allowed or p.parent.parent == root / outputs.STAGING or p.name == ".lock", p
    tables = sorted(p.name for p in (folder / "tables").iterdir())
    # one MAR and one HSD table per question (relevance and three hostile ones), none shared
    mar = [t for t in tables if t.startswith("05_mar") and t.endswith(".csv")]
    hsd = [t for t in tables if t.startswith("05_hsd") and t.endswith(".csv")]
    assert len(mar) == 4 and len(hsd) == 4, tables
    assert all("/" not in t and ".." not in t for t in tables)
    # the identifiers reach the tables unchanged
    text = "".join(p.read_text(encoding="utf-8") for p in (folder / "tables").glob("05_mar*.csv"))
    assert "評価者01" in text and "../../A02" in text and "a b" in text
    metrics = json.loads((folder / "metrics" / "05_preference_agreement.json").read_text(encoding="utf-8"))
    assert set(metrics["mar_measures"]) == {"relevance", "../../../../x", "a/b", "a?b"}
    assert not [p for p in (root / outputs.STAGING).iterdir() if p.is_dir()]


def test_the_hostile_copy_changes_every_kind_of_id(tmp_path):
    """The substitution itself: a token inside another (T001 in T001.1, T001-d0001) changes with it."""
    _hostile_copy(tmp_path)
    div = (tmp_path / "diversity" / "qrels.txt").read_text(encoding="utf-8")
    assert "../../../T001 ../../../T001.1 ../../../T001-d0001" in div and "\nT001" not in div
    runs = sorted(p.read_text(encoding="utf-8").split()[5] for p in (tmp_path / "runs").iterdir())
    assert "../../../alpha-1" in runs and "ベータ-1" in runs
    prefs = (tmp_path / "preferences.tsv").read_text(encoding="utf-8")
    assert all(q in prefs for q in ("\trelevance\t", "\t../../../../x\t", "\ta/b\t", "\ta?b\t", "評価者01"))
    assert (tmp_path / "assessors" / "評価者01.txt").is_file()
