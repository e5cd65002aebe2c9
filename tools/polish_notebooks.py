"""Polish the numbered notebooks for JupyterLab readers, idempotently (issue 18).

    python tools/polish_notebooks.py [--check] [--width 99] [NOTEBOOK.ipynb ...]

(default: every ``notebooks/NN_*.ipynb``). Three changes, each a no-op when already done:

1. ``metadata.kernelspec.display_name`` becomes what JupyterLab writes for the environment's
   ``python3`` kernel (``Python 3 (ipykernel)``, read from the installed kernelspec when there is
   one), so opening a notebook does not mark it modified;
2. visible nbval marker comments (a first line ``# NBVAL_CHECK_OUTPUT``, ``# NBVAL_IGNORE_OUTPUT``,
   ``# NBVAL_SKIP``, ``# NBVAL_RAISES_EXCEPTION``) become the cell tags that nbval 0.11 reads
   (``nbval-check-output``, ``nbval-ignore-output``, ``nbval-skip``, ``nbval-raises-exception``;
   see ``nbval.plugin.metadata_tags``); the comment line is removed;
3. parameter lines of the ``parameters`` cell longer than ``--width`` characters keep
   ``name: type = value  # help`` on the first line and continue the help on comment lines
   aligned under it (papermill reads the first line's help; nothing scrolls sideways).

Cells keep their ids, outputs, execution counts and other tags; the notebook is written with
nbformat only when something changed. ``--check`` writes nothing and exits 1 if a notebook would
change (for CI). Edits go through nbformat, never through JSON text.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from helpers.notebook.pipeline import KERNEL_DISPLAY_NAME as DISPLAY_NAME  # noqa: E402  (what `make refresh` writes too)
#: Marker comment -> nbval cell tag (nbval.plugin.metadata_tags).
MARKERS = {
    "NBVAL_CHECK_OUTPUT": "nbval-check-output",
    "NBVAL_IGNORE_OUTPUT": "nbval-ignore-output",
    "NBVAL_SKIP": "nbval-skip",
    "NBVAL_RAISES_EXCEPTION": "nbval-raises-exception",
}
WIDTH = 99


def kernel_display_name() -> str:
    """The installed ``python3`` kernelspec's display name (what JupyterLab writes), else
    :data:`DISPLAY_NAME`."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        return KernelSpecManager().get_kernel_spec("python3").display_name or DISPLAY_NAME
    except Exception:  # no jupyter_client or no such kernel: the ipykernel default
        return DISPLAY_NAME


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def markers_to_tags(cell) -> bool:
    """Move leading nbval marker comments of a code cell into its tags; True if changed."""
    if cell.get("cell_type") != "code":
        return False
    lines = _source(cell).split("\n")
    tags = list(cell.get("metadata", {}).get("tags", []))
    changed = False
    while lines and lines[0].strip().startswith("#") and lines[0].strip().lstrip("#").strip() in MARKERS:
        tag = MARKERS[lines[0].strip().lstrip("#").strip()]
        if tag not in tags:
            tags.append(tag)
        lines.pop(0)
        changed = True
    if changed:
        cell["source"] = "\n".join(lines)
        cell.setdefault("metadata", {})["tags"] = tags
    return changed


def wrap_parameter_line(line: str, width: int = WIDTH) -> list[str]:
    """``name: type = value  # long help`` as lines of at most ``width`` characters where
    possible: the assignment and the start of the help, then ``#`` lines aligned under the help."""
    if len(line) <= width or "  # " not in line:
        return [line]
    code, help_text = line.split("  # ", 1)
    indent = len(code) + 2
    if indent > 0.6 * width:  # a long value: the help continues under the name, indented
        indent = 4
    first_room = width - len(code) - 4
    words = help_text.split()
    first = []
    while words and len(" ".join(first + [words[0]])) <= max(first_room, 10):
        first.append(words.pop(0))
    if not first:
        first.append(words.pop(0))
    out = [f"{code}  # {' '.join(first)}"]
    rest = " ".join(words)
    if rest:
        out += [" " * (indent - 2) + "# " + chunk
                for chunk in textwrap.wrap(rest, width=width - indent, break_long_words=False, break_on_hyphens=False)]
    return out


def wrap_parameters(cell, width: int = WIDTH) -> bool:
    """Wrap the long lines of the ``parameters`` cell; True if changed. Lines already wrapped
    (continuation comments) are left as they are."""
    if "parameters" not in cell.get("metadata", {}).get("tags", []):
        return False
    old = _source(cell)
    new_lines = []
    for line in old.split("\n"):
        new_lines += wrap_parameter_line(line, width) if not line.lstrip().startswith("#") else [line]
    new = "\n".join(new_lines)
    if new != old:
        cell["source"] = new
        return True
    return False


def polish(nb, *, width: int = WIDTH, display_name: str | None = None) -> list[str]:
    """Polish a notebook node in place; returns what changed (empty: nothing)."""
    changes = []
    spec = nb.metadata.setdefault("kernelspec", {})
    want = display_name or kernel_display_name()
    if spec.get("display_name") != want or spec.get("name") != "python3" or spec.get("language") != "python":
        spec.update({"display_name": want, "language": "python", "name": "python3"})
        changes.append(f"kernelspec display_name {want!r}")
    tagged = sum(markers_to_tags(c) for c in nb.cells)
    if tagged:
        changes.append(f"{tagged} nbval marker(s) -> tags")
    if any(wrap_parameters(c, width) for c in nb.cells):
        changes.append(f"parameters cell wrapped at {width}")
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a notebook would change")
    parser.add_argument("--width", type=int, default=WIDTH)
    args = parser.parse_args(argv)
    books = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    would = 0
    for path in books:
        nb = nbformat.read(str(path), as_version=4)
        changes = polish(nb, width=args.width)
        if not changes:
            print(f"{path.name}: already polished")
            continue
        would += 1
        print(f"{path.name}: " + "; ".join(changes) + (" (not written: --check)" if args.check else ""))
        if not args.check:
            nbformat.validate(nb)
            text = nbformat.writes(nb)  # the layout papermill and `make refresh` write
            path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return 1 if args.check and would else 0


if __name__ == "__main__":
    sys.exit(main())
