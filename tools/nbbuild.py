"""Tiny helper for writing a notebook's *source* from Python (used by developers, not by users).

    from tools.nbbuild import md, code, write
    write("notebooks/NN_name.ipynb", [md("# NN · Title"), code("x = 1", tags=["parameters"]), ...])

Outputs are never written here: run ``make refresh NB=NN`` afterwards, which executes the
notebook with papermill and copies it back with outputs and execution counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat


def md(text: str):
    return nbformat.v4.new_markdown_cell(text.strip("\n"))


def code(text: str, tags: list[str] | None = None):
    cell = nbformat.v4.new_code_cell(text.strip("\n"))
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def write(path: str | Path, cells) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"c{k:02d}"
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python", "version": f"{sys.version_info.major}.{sys.version_info.minor}"}
    nbformat.validate(nb)
    Path(path).write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
