"""Atomic file writes that honour the umask: the one way this package writes a file.

Every output (tables, figures, metrics, downloaded data, executed notebooks) goes to a temporary
file in the target folder and is renamed into place, so an interrupted write never leaves a
half-written file under the final name.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

__all__ = ["umask", "atomic_write_bytes", "atomic_write_text", "safe_stem"]


def umask() -> int:
    """The process umask (read without changing it where /proc tells it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file + rename (atomic on POSIX).

    ``mkstemp`` creates its file with mode 0600; the file is given the mode a plain ``open()``
    would (0666 minus the umask) before it is renamed into place.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path: Path, text: str) -> Path:
    """Text version of :func:`atomic_write_bytes` (UTF-8, ``\\n`` line ends)."""
    return atomic_write_bytes(path, text.encode("utf-8"))


_PLAIN = re.compile(r"[a-z0-9][a-z0-9_.-]{0,99}")
#: the form of a name made by :func:`safe_stem` (a plain name of this form could meet one)
_MADE = re.compile(r".*-[0-9a-f]{10}")
#: names Windows reserves for devices, whatever the extension
_DEVICES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def safe_stem(name: str) -> str:
    """A file name made from ``name`` that stays in its folder and cannot collide with another name.

    Names of tables and figures are often built from data (a question, run, assessor, topic or
    dataset id read from the user's files). A plain name (lower-case ASCII letters, digits,
    ``_ . -``, no ``..``, at most 100 characters) is kept as it is; any other name -- a path
    (``../x``, ``a/b``, ``C:\\x``), a CJK id, spaces, control characters, an empty or overlong name,
    upper-case letters (``Rel`` and ``rel`` are one file on macOS and Windows), a device name of
    Windows (``con``), a trailing dot, or a name of the form this function makes (``x-<10 hex>``)
    -- becomes its plain characters joined by ``-`` plus the first 10 hex digits of its SHA-256, so
    that two distinct names never share a file, on any file system.
    """
    name = str(name)
    if (_PLAIN.fullmatch(name) and ".." not in name and not name.endswith(".") and not _MADE.fullmatch(name)
            and name.split(".")[0] not in _DEVICES):
        return name
    slug = re.sub(r"[^A-Za-z0-9_]+", "-", name).strip("-_")[:60]
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{slug}-{digest}" if slug else digest
