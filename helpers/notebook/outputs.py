"""One consistent set of outputs per notebook and folder: written aside, swapped in when it ends.

A run of notebook ``NN_name`` writes its tables, figures, metrics and parameter record into a
staging folder under ``<reports>/.staging/`` and *publishes* them in one step when the notebook
has ended: under a lock on the reports root, the staged files are moved into the run folder and
every file of the notebook's previous set there (:func:`notebook_files`) that this run did not
write is removed. So the files of a notebook in a folder are always those of one run:

* a rerun with other values (or other data) leaves no stale table or figure beside the new ones;
* an interrupted or failed run publishes nothing: the previous set stays as it was;
* concurrent runs into one folder publish one after the other, each replacing the whole set (the
  folder holds the run that ended last), instead of interleaving their files.

Who publishes:

* the project's runner (:func:`helpers.notebook.pipeline.execute`), after papermill returned
  without error, together with the executed notebook, its HTML and ``runtimes.json``;
* any other kernel (plain papermill, nbval, JupyterLab, VS Code) publishes by itself: after the
  notebook's last code cell ran successfully, or when the kernel ends with no cell failed since
  the outputs were started (a failed or interrupted run discards its staging). In a JupyterLab
  session (``JPY_SESSION_NAME`` set by jupyter_server) it also publishes after every successful
  cell, so files appear as the cells run; the folder then holds this session's outputs.

A staging folder whose owner died (a killed kernel) is removed by the next run, and one whose
owner died while publishing is finished first (roll forward), so no half-swapped set survives.

What a publication removes: the files the notebook's previous publication in that folder wrote,
as its manifest lists them (``<folder>/.published/NN_name.json``), never a file found by its name
alone (a user's ``tables/02_notes.csv`` stays). A folder published before manifests existed has
none: in the canonical folders of the project (``reports/``, ``reports/<profile>/``) the old rule
applies once (the Reporter's own file types under the notebook's prefix), elsewhere nothing is
removed. Nothing is written or removed through a symbolic link that leads out of the reports root
(:func:`check_inside`): a ``tables/`` linked to another folder stops the run with a message.

Locks are ``fcntl.flock`` (``msvcrt.locking`` on Windows): the operating system releases them when
the process dies, so a crash never leaves a stale lock. The ``filelock`` package would do the same
with one dependency more.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import json
import os
import shutil
import sys
import time
import uuid
from pathlib import Path
from typing import Callable

from ..io.files import atomic_write_bytes, atomic_write_text

__all__ = ["STAGING", "MANIFESTS", "notebook_files", "published_files", "check_inside", "locked", "Staging", "sweep",
           "publish_folder", "start", "attach_to_kernel", "LOCK_TIMEOUT"]

#: Folder under the reports root that holds the runs in progress.
STAGING = ".staging"
#: Seconds a publication waits for another one to end before it gives up with a message.
LOCK_TIMEOUT = 300.0
#: Folder of a run folder that holds each notebook's manifest: the files its last publication wrote.
MANIFESTS = ".published"
#: The file types the Reporter writes, by subfolder (the only files the pre-manifest rule removes).
_OWN_TYPES = {"tables": (".csv", ".tex"), "figures": (".pdf", ".png"), "metrics": (".json",), "parameters": (".json",)}


def notebook_files(folder: Path, notebook: str) -> list[Path]:
    """The outputs of ``notebook`` (``NN_name``) in a run folder: ``tables/NN_*``,
    ``figures/NN_name/**``, ``metrics/NN_name.json`` and ``parameters/NN_name.json``."""
    folder = Path(folder)
    found = [p for p in (folder / "tables").glob(f"{notebook[:2]}_*") if p.is_file()]
    found += [p for p in (folder / "figures" / notebook).rglob("*") if p.is_file()]
    found += [p for p in (folder / "metrics" / f"{notebook}.json", folder / "parameters" / f"{notebook}.json")
              if p.is_file()]
    return sorted(found)


def _is_output_path(rel: str, notebook: str) -> bool:
    """Is ``rel`` (a path relative to a run folder) one of the places ``notebook``'s outputs go?"""
    parts = Path(rel).parts
    if not parts or ".." in parts or Path(rel).is_absolute():
        return False
    if parts[0] == "tables":
        return len(parts) == 2 and parts[1].startswith(f"{notebook[:2]}_")
    if parts[0] == "figures":
        return len(parts) >= 3 and parts[1] == notebook
    return len(parts) == 2 and parts[0] in ("metrics", "parameters") and parts[1] == f"{notebook}.json"


def published_files(folder: Path, notebook: str) -> list[str] | None:
    """The files (relative paths) the last publication of ``notebook`` wrote into ``folder``, from
    its manifest; ``None`` when there is none (never published, or before manifests existed)."""
    path = Path(folder) / MANIFESTS / f"{notebook}.json"
    try:
        listed = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return [r for r in listed if isinstance(r, str) and _is_output_path(r, notebook)] if isinstance(listed, list) else None


def _previous_set(folder: Path, notebook: str, root: Path) -> list[str]:
    """What a publication may remove: the manifest's files; without one, in a canonical folder of
    the project (the reports root or a profile's folder), the Reporter's own file types under the
    notebook's prefix (the rule before manifests); elsewhere nothing."""
    listed = published_files(folder, notebook)
    if listed is not None:
        return listed
    from ..paths import PARAMS

    rel = os.path.relpath(folder, root)
    if rel != "." and not (os.sep not in rel and (PARAMS / rel).is_dir()):
        return []
    return [p.relative_to(folder).as_posix() for p in notebook_files(folder, notebook)
            if p.suffix in _OWN_TYPES.get(p.relative_to(folder).parts[0], ())]


def check_inside(root: Path, path: Path) -> None:
    """Refuse ``path`` (under the reports ``root``) when a folder on the way down to it is a
    symbolic link that leads out of the root: outputs are written and removed only inside it."""
    root = Path(root)
    real_root = Path(os.path.realpath(root))
    try:
        parts = Path(path).relative_to(root).parts
    except ValueError:
        raise ValueError(f"{path}: outside the reports folder {root}; outputs are written only inside it") from None
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            target = Path(os.path.realpath(current))
            if not target.is_relative_to(real_root):
                raise ValueError(f"{current}: a symbolic link to {target}, outside the reports folder {root} "
                                 "(SUBJEVAL_REPORTS_DIR); outputs are written and removed only inside it: remove "
                                 "the link, or point SUBJEVAL_REPORTS_DIR at the folder you want the outputs in")
        elif not current.exists():
            return


def _check_run_folder(root: Path, folder: Path, notebook: str) -> None:
    for sub in ("tables", Path("figures") / notebook, "metrics", "parameters", Path(MANIFESTS)):
        check_inside(root, Path(folder) / sub)


# --------------------------------------------------------------------------------------------
# Locks released by the operating system when their process ends
# --------------------------------------------------------------------------------------------

def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            return False
        raise


def _open_lock_file(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o666)


@contextlib.contextmanager
def locked(root: Path, timeout: float | None = None):
    """Hold the publication lock of a reports root (``<root>/.staging/.lock``)."""
    path = Path(root) / STAGING / ".lock"
    fd = _open_lock_file(path)
    try:
        deadline = time.monotonic() + (LOCK_TIMEOUT if timeout is None else timeout)
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{path}: another run has been publishing its outputs into this reports folder "
                                   f"for more than {LOCK_TIMEOUT:.0f} s; is a process stopped while holding it?")
            time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


# --------------------------------------------------------------------------------------------
# Staging folders and their publication
# --------------------------------------------------------------------------------------------

def _relative_files(base: Path) -> list[str]:
    if not base.is_dir():
        return []
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())


def _move(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` (atomic); across file systems, an atomic copy."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(src, dst)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        atomic_write_bytes(dst, src.read_bytes())
        src.unlink()


def publish_folder(stage: Path) -> list[str]:
    """Swap the files staged in ``stage`` into their run folder (call it holding :func:`locked`).

    ``stage/target.json`` names the folder and the notebook; ``stage/files/`` holds the new files
    by their path in the folder. Files of the notebook's previous set that this run has not
    written (now or in an earlier publication of the same run, ``published.json``) are removed.
    Idempotent: a publication cut short is finished by calling it again. Returns the run's files.
    """
    target = json.loads((stage / "target.json").read_text(encoding="utf-8"))
    folder, notebook = Path(target["folder"]), target["notebook"]
    root = Path(stage).parent.parent        # <root>/.staging/<stage>
    files = stage / "files"
    marker = stage / "publishing.json"
    state = json.loads(marker.read_text(encoding="utf-8")) if marker.is_file() else None
    if state is not None:  # a publication cut short: its lists are the complete ones
        keep, old = (set(state), set()) if isinstance(state, list) else (set(state["keep"]), set(state["old"]))
    else:
        _check_run_folder(root, folder, notebook)
        published = stage / "published.json"
        keep = set(json.loads(published.read_text(encoding="utf-8"))) if published.is_file() else set()
        keep |= set(_relative_files(files))
        old = set(_previous_set(folder, notebook, root))
        atomic_write_text(marker, json.dumps({"keep": sorted(keep), "old": sorted(old)}))
    for rel in _relative_files(files):
        check_inside(root, folder / rel)
        _move(files / rel, folder / rel)
    for rel in sorted(old - keep):
        path = folder / rel
        if _is_output_path(rel, notebook) and (path.is_file() or path.is_symlink()):
            check_inside(root, path.parent)
            path.unlink()
    atomic_write_text(folder / MANIFESTS / f"{notebook}.json", json.dumps(sorted(keep), indent=0) + "\n")
    with contextlib.suppress(OSError):
        (folder / "figures" / notebook).rmdir()  # only when empty
    atomic_write_text(stage / "published.json", json.dumps(sorted(keep)))
    marker.unlink()
    return sorted(keep)


class Staging:
    """A staging folder: where one run writes its outputs until they are published.

    ``owner`` stagings (made by :meth:`create`) hold a lock for the life of their process, which
    tells :func:`sweep` whether a leftover staging belongs to a live run.
    """

    def __init__(self, path: Path, *, root: Path, owner_fd: int | None = None) -> None:
        self.dir = Path(path)
        self.root = Path(root)
        self._owner_fd = owner_fd

    @classmethod
    def create(cls, root: Path, label: str) -> "Staging":
        root = Path(root)
        check_inside(root, root / STAGING)
        path = root / STAGING / f"{label}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        path.mkdir(parents=True)
        fd = _open_lock_file(path / "owner.lock")
        if not _try_lock(fd):  # a fresh, unique folder: cannot be held by anyone else
            os.close(fd)
            raise RuntimeError(f"{path}: could not take the lock of a new staging folder")
        return cls(path, root=root, owner_fd=fd)

    def target(self, folder: Path, notebook: str) -> None:
        """Record where the staged files go (the run folder) and whose they are."""
        _check_run_folder(self.root, Path(folder), notebook)   # a notebook stops here, before its work
        path = self.dir / "target.json"
        wanted = {"folder": str(Path(folder)), "notebook": notebook}
        if path.is_file():
            have = json.loads(path.read_text(encoding="utf-8"))
            if have != wanted:
                raise ValueError(f"one run writes one notebook into one folder: this run already writes "
                                 f"{have['notebook']} into {have['folder']}, not {notebook} into {folder}")
            return
        atomic_write_text(path, json.dumps(wanted))

    def path_for(self, relative: str | Path) -> Path:
        """Where a file whose path in the run folder is ``relative`` is staged."""
        return self.dir / "files" / Path(relative)

    def has_target(self) -> bool:
        return (self.dir / "target.json").is_file()

    def publish(self, *, already_locked: bool = False) -> list[str]:
        """Publish what is staged (nothing when no outputs were started); see :func:`publish_folder`."""
        if not self.has_target():
            return []
        if already_locked:
            return publish_folder(self.dir)
        with locked(self.root):
            return publish_folder(self.dir)

    def discard(self) -> None:
        """Remove the staging folder (what was not published is dropped) and release its lock."""
        shutil.rmtree(self.dir, ignore_errors=True)
        if self._owner_fd is not None:
            os.close(self._owner_fd)
            self._owner_fd = None


def sweep(root: Path) -> list[str]:
    """Remove the staging folders of runs whose process has ended, finishing first any
    publication such a run had begun. Returns the names of the folders removed."""
    base = Path(root) / STAGING
    if not base.is_dir():
        return []
    removed = []
    with locked(root):
        for stage in sorted(p for p in base.iterdir() if p.is_dir()):
            try:
                fd = os.open(stage / "owner.lock", os.O_RDWR)
            except OSError:
                continue  # not a staging folder, or removed meanwhile
            try:
                if not _try_lock(fd):
                    continue  # its run is alive
                if (stage / "publishing.json").is_file():
                    publish_folder(stage)
                shutil.rmtree(stage, ignore_errors=True)
                removed.append(stage.name)
            finally:
                os.close(fd)
    return removed


# --------------------------------------------------------------------------------------------
# Publication by a kernel that the runner did not start
# --------------------------------------------------------------------------------------------

def _last_code_cell(notebook: Path) -> str | None:
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        return None
    code = [c for c in cells if c.get("cell_type") == "code"]
    if not code:
        return None
    src = code[-1].get("source", "")
    return ("".join(src) if isinstance(src, list) else src).strip()


def start(root: Path, folder: Path, notebook: str) -> Staging | None:
    """The staging of a notebook run writing into ``folder``: the runner's (``SUBJEVAL_STAGING``),
    or in any other IPython kernel a new one published by the kernel; ``None`` outside a kernel
    (library use: files are written in place)."""
    given = os.environ.get("SUBJEVAL_STAGING")
    if given:
        stage = Staging(Path(given), root=root)
        stage.target(folder, notebook)
        return stage
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    if get_ipython() is None or not hasattr(get_ipython(), "events"):
        return None
    from ..paths import NOTEBOOKS

    sweep(root)
    stage = Staging.create(root, notebook)
    stage.target(folder, notebook)
    attach_to_kernel(stage, NOTEBOOKS / f"{notebook}.ipynb")
    return stage


def _report(stage: Staging, exc: OSError) -> None:
    print(f"could not publish the outputs of this run from {stage.dir}: {exc}", file=sys.stderr)


#: The run of each notebook in this kernel that publishes itself: a new run of the same notebook
#: (its Reporter made again, e.g. a re-run cell in JupyterLab) retires the previous one, whose
#: exit hook would otherwise publish its older set over the new one.
_KERNEL_RUNS: dict[str, Callable[[], None]] = {}


def attach_to_kernel(stage: Staging, notebook: Path) -> bool:
    """Publish ``stage`` from the IPython kernel running ``notebook`` (see the module's docstring).
    Returns ``False`` outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None or not hasattr(shell, "events"):
        return False
    last = _last_code_cell(notebook)
    interactive = bool(os.environ.get("JPY_SESSION_NAME"))
    state = {"failed": False, "retired": False}

    def after_cell(result) -> None:
        if state["retired"]:
            return
        if not result.success:
            state["failed"] = True
            return
        cell = (getattr(result.info, "raw_cell", "") or "").strip()
        staged = any((stage.dir / "files").rglob("*")) if (stage.dir / "files").is_dir() else False
        if (interactive and staged) or (last is not None and cell == last):
            try:
                stage.publish()
            except OSError as exc:
                _report(stage, exc)
                return
            if not interactive and last is not None and cell == last:
                # papermill and nbclient may stop the kernel before its exit hooks run: the run is
                # over and published, so its staging goes now (no leftover for the next sweep)
                retire()

    def at_exit() -> None:
        try:
            if not state["failed"] and not state["retired"]:
                stage.publish()
        except OSError as exc:
            _report(stage, exc)
            return  # keep the staging: its files are not lost
        stage.discard()

    def retire() -> None:
        state["retired"] = True
        with contextlib.suppress(ValueError):
            shell.events.unregister("post_run_cell", after_cell)
        stage.discard()

    previous = _KERNEL_RUNS.pop(notebook.stem, None)
    if previous is not None:
        previous()
    _KERNEL_RUNS[notebook.stem] = retire
    shell.events.register("post_run_cell", after_cell)
    atexit.register(at_exit)
    return True
