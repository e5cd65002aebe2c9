"""nbval's output check, applied to a notebook that was already executed.

``make test`` executes every notebook once per profile (tests/test_notebooks_smoke.py) and checks
that one execution three ways: it ran without error, the reports it wrote equal the committed
ones, and -- for the default profile -- its checked cells print what the committed notebook
shows. The last check is nbval's (``--nbval-lax`` semantics: only cells tagged
``nbval-check-output`` or marked ``# NBVAL_CHECK_OUTPUT`` are compared; ``nbval-skip`` and
``nbval-ignore-output`` are honoured), done here with nbval's own marker parsing, stream
transformation and sanitize file, instead of a second execution by the nbval plugin.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import nbformat
from nbval.plugin import (find_comment_markers, find_metadata_tags, get_sanitize_patterns,
                          transform_streams_for_comparison)

SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")
#: output keys nbval does not compare (``IPyNbFile.skip_compare`` without nbdime)
SKIP = {"metadata", "traceback", "prompt_number", "output_type", "name", "execution_count",
        "application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg"}


def _options(cell) -> dict:
    opts = defaultdict(bool, find_metadata_tags(cell.metadata))
    opts.update(dict(find_comment_markers(cell.source)))
    opts.setdefault("check", False)  # --nbval-lax
    return opts


def _flatten(outputs, patterns) -> dict[str, list]:
    flat: dict[str, list] = defaultdict(list)

    def sanitize(s):
        if not isinstance(s, str):
            return s
        for regex, replace in patterns:
            s = re.sub(regex, replace, s)
        return s

    for out in transform_streams_for_comparison(outputs):
        for key, value in out.items():
            if key in SKIP:
                continue
            if key == "data":
                for mime, data in value.items():
                    if mime not in SKIP:
                        flat[mime].append(sanitize(data))
            else:
                flat[key].append(sanitize(value))
    return flat


def checked_cell_differences(committed: Path, executed: Path) -> list[str]:
    """The checked cells whose executed outputs differ from the committed ones (empty: none)."""
    patterns = get_sanitize_patterns(SANITIZE.read_text(encoding="utf-8"))
    ref = nbformat.read(committed, as_version=4)
    test = nbformat.read(executed, as_version=4)
    ref_cells = [c for c in ref.cells if c.cell_type == "code"]
    test_cells = [c for c in test.cells if c.cell_type == "code"
                  and "injected-parameters" not in c.metadata.get("tags", [])]
    if len(ref_cells) != len(test_cells):
        return [f"{len(ref_cells)} code cells committed, {len(test_cells)} executed"]
    problems = []
    for k, (r, t) in enumerate(zip(ref_cells, test_cells)):
        opts = _options(r)
        if opts.get("skip") or not opts.get("check"):
            continue
        a, b = _flatten(r.outputs, patterns), _flatten(t.outputs, patterns)
        if a != b:
            keys = sorted(set(a) | set(b))
            diff = next(key for key in keys if a.get(key) != b.get(key))
            problems.append(f"code cell {k} ({r.source.splitlines()[0][:60]!r}): {diff!r} differs:\n"
                            f"committed: {str(a.get(diff))[:400]}\nexecuted:  {str(b.get(diff))[:400]}")
    return problems
