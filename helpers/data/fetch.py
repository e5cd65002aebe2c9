"""Checksummed download of the registered datasets, with an offline mirror.

Download (:func:`fetch`)
------------------------
Files go to ``data/external/<owner>/<repo>/<commit>/<path>`` (git-ignored). Each file is streamed
into a temporary file in the target folder while its sha256 is computed; only a file whose hash
matches the registry is renamed into place, so an interrupted or corrupted download never leaves
anything under the final name, and the error names the file with the expected and the actual hash.

A file already present is re-hashed (about 0.1 s for the 85 MB of DL-19 runs) instead of trusting
a stamp, so a locally modified file is detected and replaced; within one Python process a file is
hashed only once (keyed on its size and modification time).

Sources, in order of precedence: the ``source`` argument; the environment variable
``SUBJEVAL_DATA_MIRROR``; the upstream ``https://raw.githubusercontent.com``. A mirror is either a
local directory laid out ``<owner>/<repo>/<commit>/<path>`` or a ``file://``, ``http://`` or
``https://`` base URL with the same layout (what ``raw.githubusercontent.com`` serves). Whatever the
source, the bytes must match the pinned sha256.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path

from .registry import UPSTREAM, Dataset, RemoteFile, dataset
from ..io import files

__all__ = ["MIRROR_ENV", "FetchError", "ChecksumError", "fetch", "fetch_one"]

log = logging.getLogger(__name__)

MIRROR_ENV = "SUBJEVAL_DATA_MIRROR"
_CHUNK = 1 << 20


class FetchError(OSError):
    """A dataset file could not be obtained (missing, unreachable, interrupted)."""


class ChecksumError(FetchError):
    """A downloaded file's sha256 differs from the pinned one (nothing was kept)."""


_VERIFIED: dict[Path, tuple[int, int, str]] = {}


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _is_verified(path: Path, rf: RemoteFile) -> bool:
    """True if ``path`` exists with the pinned hash (hashed at most once per process)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return False
    stamp = (st.st_size, st.st_mtime_ns, rf.sha256)
    if _VERIFIED.get(path) == stamp:
        return True
    if st.st_size == rf.size and _sha256_file(path) == rf.sha256:
        _VERIFIED[path] = stamp
        return True
    log.warning("%s does not match its pinned sha256; downloading it again", path)
    return False


def _resolve_source(source: str | os.PathLike | None) -> tuple[str, str, bool]:
    """Return ``(kind, base, configured)``: kind is ``"dir"`` or ``"url"``."""
    configured = True
    if source is None:
        source = os.environ.get(MIRROR_ENV) or None
    if source is None:
        return "url", UPSTREAM, False
    text = os.fspath(source)
    if "://" in text:
        scheme = text.split("://", 1)[0].lower()
        if scheme not in ("file", "http", "https"):
            raise ValueError(f"{MIRROR_ENV}: expected a directory or a file://, http:// or https:// "
                             f"base URL, got {text!r}")
        return "url", text, configured
    if not Path(text).is_dir():
        raise ValueError(f"{MIRROR_ENV}: expected an existing directory laid out "
                         f"<owner>/<repo>/<commit>/<path>, got {text!r}")
    return "dir", text, configured


_HINT = (f"To work offline, set the environment variable {MIRROR_ENV} to a mirror: a local "
         "directory laid out <owner>/<repo>/<commit>/<path> or a file://, http:// or https:// base "
         "URL with that layout.")


def _open_source(ds: Dataset, rf: RemoteFile, kind: str, base: str, configured: bool,
                 timeout: float):
    """Open the source of one file for reading; return ``(binary file object, address)``."""
    if kind == "dir":
        where = Path(base) / ds.owner / ds.repo / ds.commit / rf.path
        try:
            return open(where, "rb"), str(where)
        except FileNotFoundError:
            raise FetchError(f"{ds.id}: file {rf.path} is missing from the mirror: {where} does not "
                             f"exist ({MIRROR_ENV}={base})") from None
    url = ds.url(rf.path, base)
    try:
        return urllib.request.urlopen(url, timeout=timeout), url
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{ds.id}: file {rf.path} could not be downloaded from {url}: HTTP "
                         f"{exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, FileNotFoundError) or (url.startswith("file:")
                                                     and isinstance(exc, urllib.error.URLError)):
            raise FetchError(f"{ds.id}: file {rf.path} is missing from the mirror: {url} "
                             f"({reason})") from None
        hint = _HINT if not configured else f"Check the mirror {MIRROR_ENV}={base}."
        raise FetchError(f"{ds.id}: could not download {rf.path} from {url}: {reason}. "
                         f"{hint}") from None


def _download(ds: Dataset, rf: RemoteFile, dest: Path, kind: str, base: str, configured: bool,
              timeout: float) -> None:
    """Stream one file into ``dest`` through a temporary file, verifying its sha256."""
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"{ds.id}: cannot create the data folder {dest.parent} for {rf.path}: "
                         f"{exc.strerror or exc}") from None
    src, where = _open_source(ds, rf, kind, base, configured, timeout)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    except OSError as exc:
        src.close()
        raise FetchError(f"{ds.id}: cannot write {rf.path} into {dest.parent}: "
                         f"{exc.strerror or exc}") from None
    os.fchmod(fd, 0o666 & ~files.umask())
    try:
        digest = hashlib.sha256()
        received = 0
        headers = getattr(src, "headers", None)
        announced = headers.get("Content-Length") if headers is not None else None
        with src, os.fdopen(fd, "wb") as out:
            while True:
                try:
                    block = src.read(_CHUNK)
                except Exception as exc:
                    raise FetchError(f"{ds.id}: download of {rf.path} from {where} was interrupted: "
                                     f"{type(exc).__name__}: {exc}") from exc
                if not block:
                    break
                digest.update(block)
                try:
                    out.write(block)
                except OSError as exc:  # disk full, quota, I/O error: keep nothing, say where
                    raise FetchError(f"{ds.id}: writing {rf.path} to {dest.parent} failed after "
                                     f"{received} bytes: {exc.strerror or exc}; nothing was kept") from None
                received += len(block)
            if announced is not None and announced.isdigit() and int(announced) != received:
                raise FetchError(f"{ds.id}: download of {rf.path} from {where} was interrupted: "
                                 f"received {received} of {announced} bytes")
            out.flush()
            os.fsync(out.fileno())
        got = digest.hexdigest()
        if got != rf.sha256:
            raise ChecksumError(f"{ds.id}: checksum mismatch for {rf.path} (from {where}): expected "
                                f"sha256 {rf.sha256}, got {got}; the file was not kept")
        os.replace(tmp, dest)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    st = dest.stat()
    _VERIFIED[dest] = (st.st_size, st.st_mtime_ns, rf.sha256)


def fetch(dataset_id: str, *, paths: Iterable[str] | None = None,
          source: str | os.PathLike | None = None, root: str | os.PathLike | None = None,
          timeout: float = 60.0) -> dict[str, Path]:
    """Download the files of a registered dataset, verifying every sha256.

    Parameters
    ----------
    dataset_id : str
        Key of :data:`REGISTRY`, e.g. ``"dl19-runs"``.
    paths : iterable of str, optional
        Only these registered files (default: all files of the dataset).
    source : str or path-like, optional
        Where to download from; default: ``$SUBJEVAL_DATA_MIRROR`` if set, else
        ``https://raw.githubusercontent.com``. A local directory or a ``file://``/``http(s)://``
        base URL, laid out ``<owner>/<repo>/<commit>/<path>``.
    root : path-like, optional
        Local store; default ``data/external``.
    timeout : float
        Seconds before a network connection or read gives up.

    Returns
    -------
    dict of str to pathlib.Path
        Local path of each requested file, keyed by its path in the repository.

    Raises
    ------
    ValueError
        Unknown dataset or file, or a malformed ``SUBJEVAL_DATA_MIRROR``.
    ChecksumError
        A file's sha256 differs from the pinned value (message: file, expected and got).
    FetchError
        A file is missing from the source, the source is unreachable (the message says how to
        configure an offline mirror) or the transfer was interrupted.
    """
    ds = dataset(dataset_id)
    wanted = [rf.path for rf in ds.files] if paths is None else list(paths)
    kind, base, configured = None, None, False
    out: dict[str, Path] = {}
    for path in wanted:
        rf = ds.file(path)
        dest = ds.local_path(rf.path, Path(root) if root is not None else None)
        if not _is_verified(dest, rf):
            if kind is None:
                kind, base, configured = _resolve_source(source)
            log.info("fetching %s/%s from %s", ds.id, rf.path, base)
            _download(ds, rf, dest, kind, base, configured, timeout)
        out[path] = dest
    return out


def fetch_one(dataset_id: str, path: str) -> Path:
    """The local path of one registered file, fetched (and verified) if needed."""
    return fetch(dataset_id, paths=[path])[path]
