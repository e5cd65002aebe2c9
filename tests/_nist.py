"""Build NIST's trec_eval 10 from the unchanged sources in tests/peers/trec_eval-src (NIST's notice
in its LICENSE.md), for the differential tests and benchmarks/bench_treceval.py.

The program is built once per source version into the system's temporary folder (a folder named
by the sources' SHA-256, moved into place when complete, so concurrent test workers share one
build) with NIST's own Makefile and whatever C compiler is found (``cc``, ``gcc`` or ``clang``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCES = Path(__file__).resolve().parent / "peers" / "trec_eval-src"


def compiler() -> str | None:
    """The C compiler to build with, or None."""
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _digest() -> str:
    h = hashlib.sha256()
    for f in sorted(SOURCES.iterdir()):
        if f.is_file():
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def build() -> Path:
    """The path of the built ``trec_eval`` program (built on first use).

    Raises
    ------
    RuntimeError
        When no C compiler or ``make`` is found, or the build fails (with its output).
    """
    cc = compiler()
    if cc is None or shutil.which("make") is None:
        raise RuntimeError("no C compiler (cc, gcc or clang) and make to build NIST trec_eval")
    home = Path(tempfile.gettempdir()) / f"subjeval-nist-trec_eval-{_digest()}"
    binary = home / "trec_eval"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    work = Path(tempfile.mkdtemp(prefix="subjeval-nist-build-"))
    try:
        for f in SOURCES.iterdir():
            if f.is_file():
                shutil.copy(f, work / f.name)
        done = subprocess.run(["make", f"CC={cc}", "trec_eval"], cwd=work, capture_output=True, text=True)
        if done.returncode != 0 or not (work / "trec_eval").is_file():
            raise RuntimeError(f"building NIST trec_eval failed:\n{done.stdout}\n{done.stderr}")
        try:
            os.replace(work, home)
        except OSError:          # another worker finished first
            pass
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not binary.is_file():
        raise RuntimeError(f"building NIST trec_eval left no program at {binary}")
    return binary
