"""The example files under data/examples/ are exactly what tools/make_examples.py makes with the
current code (a simulation change that moves them must regenerate them: `python tools/make_examples.py`)."""

from __future__ import annotations

import subprocess
import sys

from helpers import paths


def test_committed_examples_are_what_the_tool_makes(tmp_path):
    proc = subprocess.run([sys.executable, str(paths.ROOT / "tools" / "make_examples.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    made = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    committed = {p.relative_to(paths.ROOT / "data" / "examples").as_posix(): p.read_bytes()
                 for p in (paths.ROOT / "data" / "examples").rglob("*") if p.is_file()}
    assert sorted(made) == sorted(committed), "files made and committed differ"
    stale = sorted(name for name in made if made[name] != committed[name])
    assert not stale, f"committed examples differ from what tools/make_examples.py makes: {stale}"
