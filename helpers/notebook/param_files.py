"""Which entries of a ``--params`` folder the runner reads: every entry that looks like a
parameter file is used or refused by name, before any kernel or cluster starts.

An entry *looks like* a parameter file when its name is ``NN<sep>...`` (two digits, then
``_``, ``-`` or ``.``) with the suffix ``.yaml``/``.yml`` in any case, or when the part of its
name before the first dot is a notebook's stem (``02_unanimity_evaluation.json``). Such an
entry is used only if it is a regular file (or a link to one) spelled ``.yaml``/``.yml``; a
folder, a FIFO, a device, a socket, an upper-case suffix or another suffix is refused with one
line naming the entry and why. Other entries (a README, notes) are left alone; a ``.yaml`` file
not named after a notebook is refused by :func:`helpers.notebook.pipeline.parameter_files`.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..io.textfiles import refuse_dangling

SUFFIXES = (".yaml", ".yml")


def kind_of(path: Path) -> str:
    """What ``path`` is (following links): 'a folder', 'a named pipe (FIFO)', 'a character device', ..."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a regular file")):
        if test(mode):
            return kind
    return "not a regular file"


def _what(path: Path) -> str:
    """``'p/01_x.yaml' is a folder`` or ``'p/01_x.yaml' is a link to '/dev/zero', a character device``."""
    link = f" is a link to {os.readlink(path)!r}," if path.is_symlink() else " is"
    return f"{os.fspath(path)!r}{link} {kind_of(path)}"


def refuse_not_regular(path: Path, what: str) -> None:
    """Refuse ``path`` unless it is (or links to) a regular file: a FIFO would block the run, a
    device would be read for ever, a folder would be skipped."""
    if path.exists() and not stat.S_ISREG(os.stat(path).st_mode):
        raise ValueError(f"{what}: {_what(path)}, not a regular file; expected a YAML parameter file "
                         f"(replace it by a file, or remove it)")


def folder_files(folder: Path, stems: list[str]) -> list[Path]:
    """The parameter files of ``folder`` (sorted), refusing every entry that looks like one but
    cannot be used (see the module docstring); ``stems``: the notebooks' stems."""
    what = f"--params {folder}"
    entries = sorted(folder.iterdir())
    folded = {s.casefold() for s in stems}
    files = []
    for entry in entries:
        suffix = entry.suffix
        head = entry.name.split(".", 1)[0].casefold()
        yaml_like = suffix.lower() in SUFFIXES
        if not yaml_like and head not in folded:
            continue
        if not yaml_like:
            raise ValueError(f"{what}: {os.fspath(entry)!r} is named after notebook {head} but has the suffix "
                             f"{suffix or '(none)'!r}; expected {head}.yaml (a parameter file), or move it out "
                             f"of the folder: nothing in it is silently skipped")
        if suffix not in SUFFIXES:
            raise ValueError(f"{what}: {os.fspath(entry)!r} has the suffix {suffix!r}; expected the spelling "
                             f"{entry.stem + suffix.lower()!r} (lower case; the runner reads .yaml and .yml)")
        if entry.is_symlink() and not entry.exists():
            refuse_dangling([entry], what=what)
        refuse_not_regular(entry, what)
        files.append(entry)
    if not files:
        raise ValueError(f"{what}: no .yaml parameter file in this folder")
    return files
