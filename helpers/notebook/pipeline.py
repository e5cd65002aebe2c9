"""Headless notebook pipeline: execute, render and refresh the numbered notebooks.

``python -m helpers notebooks run --profile PROFILE [NN ...]``
    Executes every ``notebooks/NN_*.ipynb`` with papermill into ``reports/executed/<profile>/``
    (never over the source notebook), using ``params/<profile>/<stem>.yaml`` when it exists, and
    renders each executed notebook to HTML under ``reports/html/`` (``reports/html/<profile>/``
    for non-default profiles). One progress line per notebook with its duration. For a profile
    other than ``default``, notebooks without a parameter file for it are skipped (and say so).

``python -m helpers notebooks run --params DIR|FILE.yaml [--name NAME] [NN ...]``
    The same with the user's own parameter files (``NN_*.yaml``, one per notebook, e.g. pointing
    a notebook's ``*_path``/``*_glob`` parameters at their collection); outputs go under
    ``reports/<NAME>/`` (default: the folder's name). Relative paths in the files are resolved
    against the caller's working directory. Every file is checked before the first notebook runs.

``python -m helpers notebooks refresh [NN ...]``
    The only way committed outputs are regenerated: runs the default profile, then copies the
    executed notebook back over ``notebooks/`` after stripping volatile metadata (papermill
    timings, execution timestamps), keeping outputs, execution counts and the ``parameters`` tag.

Parameters come from YAML files (not ``-p``) so that strings like ``"001"`` stay strings.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import sys
import time
from pathlib import Path

from ..io.files import atomic_write_bytes, atomic_write_text
from . import batch, outputs, param_files
from .params import RESERVED_NAMES, check_values, load_yaml, parameter_lines
from ..paths import NOTEBOOKS, PARAMS, ROOT, reports_dir, reports_root
from ..replicates.cluster import SHARED_SCHEDULER

KERNEL = "python3"
#: What JupyterLab writes as the display name of ipykernel's python3 kernel: with it, opening a
#: committed notebook does not mark it modified (tools/polish_notebooks.py writes the same).
KERNEL_DISPLAY_NAME = "Python 3 (ipykernel)"
VOLATILE_NB_METADATA = ("papermill", "widgets")
VOLATILE_CELL_METADATA = ("papermill", "execution", "collapsed", "scrolled", "ExecuteTime")


def discover(only: list[str] | None = None) -> list[Path]:
    """Numbered notebooks, sorted; ``only`` filters by two-digit prefix or stem."""
    books = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if only:
        wanted = set(only)
        books = [b for b in books if b.stem[:2] in wanted or b.stem in wanted]
        missing = wanted - {b.stem[:2] for b in books} - {b.stem for b in books}
        if missing:
            raise ValueError(f"no notebook matches {sorted(missing)}; have "
                             f"{[b.stem for b in sorted(NOTEBOOKS.glob('[0-9][0-9]_*.ipynb'))]}")
    return books


def profiles() -> list[str]:
    """Known parameter profiles: ``default`` and every folder under ``params/``."""
    return ["default"] + sorted(p.name for p in PARAMS.iterdir() if p.is_dir()) if PARAMS.is_dir() else ["default"]


def check_profile(profile: str) -> None:
    """Refuse an unknown profile (``make reproduce PROFILE=rael`` must not skip every notebook)."""
    known = profiles()
    if profile not in known:
        import difflib

        close = difflib.get_close_matches(profile, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown profile {profile!r}{hint}; known profiles: {', '.join(known)} "
                         f"(folders under params/)")


def declared_parameters(notebook: Path) -> dict[str, str]:
    """Parameter name -> declared type, read from the notebook's ``parameters`` cell."""
    import papermill as pm

    return {name: info["inferred_type_name"] for name, info in pm.inspect_notebook(str(notebook)).items()}


def params_file(notebook: Path, profile: str) -> Path:
    return PARAMS / profile / f"{notebook.stem}.yaml"


#: Parameters whose names end like this hold file paths or glob patterns: the runner resolves a
#: relative one against the caller's working directory (the kernel runs in ``notebooks/``).
PATH_SUFFIXES = ("_path", "_glob")


def resolve_paths(params: dict, cwd: Path | None = None) -> dict:
    """``params`` with every relative path parameter (``*_path``, ``*_glob``) made absolute
    against ``cwd`` (default: the current working directory); ``~`` is expanded."""
    base = Path.cwd() if cwd is None else cwd
    out = dict(params)
    for key, value in params.items():
        if key.endswith(PATH_SUFFIXES) and isinstance(value, str) and value:
            path = Path(os.path.expanduser(value))
            out[key] = str(path if path.is_absolute() else base / path)
    return out


def _show_file(path: Path) -> str:
    """The file as given (absolute; a symbolic link is named, not its target)."""
    return str(_show(Path(os.path.abspath(path))))


def _link_note(path: Path) -> str:
    """`` (a link to TARGET)`` for a symbolic link, else ``""``."""
    return f" ({_show_file(path)} is a link to {_show(Path(path).resolve())})" if Path(path).is_symlink() else ""


def read_parameter_file(path: Path, notebook: Path, profile: str) -> dict:
    """One YAML parameter file for ``notebook``: a mapping whose names, types and values the
    notebook accepts (:func:`helpers.notebook.params.check_values`, messages name ``file:line``),
    setting at least one parameter; ``profile`` (the output folder's name) is set, relative paths
    resolved."""
    shown, link = _show_file(path), _link_note(path)
    try:
        params = load_yaml(path)
    except ValueError as exc:
        raise ValueError(str(exc).replace(str(path), shown, 1) + link) from None
    except OSError as exc:
        raise ValueError(f"{shown}: cannot read it: {exc.strerror or exc}{link}") from None
    if params is not None and not isinstance(params, dict):
        raise ValueError(f"{shown}: expected a mapping of parameter names to values{link}")
    if params and params.get("profile", profile) != profile:
        said = str(params["profile"])
        said = said if len(said) <= 80 else f"{said[:80]}… ({len(said):,} characters)"   # a 5 MB value is not echoed
        raise ValueError(f"{shown}: 'profile: {said}' contradicts its output "
                         f"name '{profile}' (the name of its folder); delete the 'profile:' line, the folder's "
                         "name names the run")
    if not {k: v for k, v in (params or {}).items() if k != "profile"}:
        # an empty (or comment-only) file would run the notebook's defaults and publish them as this run
        said = "an empty mapping" if params == {} else ("only 'profile'" if params else
                                                         "no parameter (the file is empty or holds only comments)")
        raise ValueError(f"{shown}: expected at least one parameter of {notebook.stem} ('name: value' on a line), "
                         f"got {said}; this would run the notebook's default simulation under the name {profile!r}. "
                         f"Set the parameters you mean, or delete the file (the default run is `make reproduce`)")
    params["profile"] = profile
    lines = parameter_lines(path)
    check_values(params, declared_parameters(notebook), where=f"in {shown}", lines=lines)
    resolved = resolve_paths(params)
    _check_path_parameters(resolved, params, f"in {shown}", lines)
    return resolved


def _check_path_parameters(resolved: dict, given: dict, where: str, lines: dict[str, int]) -> None:
    """Every non-empty path parameter (``*_path``, ``*_glob``) names files that exist (a file, a
    folder holding files, or a glob matching files), checked before a kernel starts: the
    notebook's own check would stop it only after the run began (reported FAILED)."""
    from ..io.readers import resolve_paths as files_of

    for key, value in resolved.items():
        if key.endswith(PATH_SUFFIXES) and isinstance(value, str) and value:
            try:
                files_of(value, what=key)
            except ValueError as exc:
                raise ValueError(f"{exc} (from {key}: {given[key]!r}; expected a file, a folder holding files or "
                                 f"a glob matching files) {where}:{lines.get(key, '?')}") from None


def load_parameters(notebook: Path, profile: str) -> dict | None:
    """Parameters for ``notebook`` under ``profile``; ``None`` if the profile does not cover it."""
    if profile == "default":
        return {}
    path = params_file(notebook, profile)
    if not path.exists():
        return None
    return read_parameter_file(path, notebook, profile)


def parameter_files(spec: str | os.PathLike, books: list[Path]) -> dict[Path, Path]:
    """Notebook -> parameter file for ``--params DIR|FILE.yaml``.

    A file or a folder's ``*.yaml``/``*.yml`` files; each file must be named after one notebook:
    its stem (``02_unanimity_evaluation.yaml``) or its two-digit prefix followed by ``_``, ``-``
    or ``.`` (``02_my-collection.yaml``). A file that names no notebook, or two files for one
    notebook, stop the run: nothing is silently skipped.
    """
    spec = Path(os.path.expanduser(str(spec)))
    every = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if spec.is_dir():   # every entry that looks like a parameter file is used or refused by name
        files = param_files.folder_files(spec, [nb.stem for nb in every])
    elif spec.exists():
        param_files.refuse_not_regular(spec, "--params")
        files = [spec]
    else:
        raise ValueError(f"--params {spec}: no such file or folder")
    chosen: dict[Path, Path] = {}
    for f in files:
        matches = [nb for nb in every if f.stem == nb.stem
                   or (f.stem[:2] == nb.stem[:2] and f.stem[2:3] in ("_", "-", ".", ""))]
        if not matches:
            raise ValueError(f"{_show_file(f)}: expected a file named after a notebook ('NN_*.yaml' with "
                             f"NN one of {', '.join(nb.stem[:2] for nb in every)}), got {f.name!r}")
        nb = matches[0]
        if nb in chosen:
            raise ValueError(f"{_show_file(f)} and {_show_file(chosen[nb])}: two parameter files for {nb.stem}")
        chosen[nb] = f
    return {nb: chosen[nb] for nb in books if nb in chosen}


def output_name(spec: str | os.PathLike, name: str | None) -> str:
    """Name of the outputs folder for ``--params``: ``name``, else the folder's name (for a file,
    the name of the folder holding it).

    The name of a profile (``real``, ``ci``, ``paper``, a folder under ``params/``) is refused
    unless the files are that profile's own (``--params params/examples``): the run would replace
    the profile's executed notebooks, HTML and ``runtimes.json`` (``reports/executed/<name>/``)."""
    spec = Path(os.path.expanduser(str(spec))).resolve()
    folder = spec if spec.is_dir() else spec.parent
    if name is not None and not name.strip():
        raise ValueError(f"--name {name!r} is empty; give the outputs folder a name (or leave --name out to use "
                         f"the folder's name, {folder.name!r})")
    chosen = name or folder.name
    how = "--name" if name else f"the name of the folder {_show(folder)}"
    # compared case-folded: on a case-insensitive file system (macOS, Windows) 'Real' is the folder 'real'
    folded = chosen.casefold()
    if folded == "default" or not chosen.replace("-", "").replace("_", "").isalnum() or folded in RESERVED_NAMES:
        raise ValueError(f"output name {chosen!r} ({how}) is not usable (a simple name other than 'default' and "
                         f"{', '.join(sorted(RESERVED_NAMES))}, in any case); give one with --name")
    profile = next((p for p in profiles() if p.casefold() == folded), None)
    if profile is not None and folder != (PARAMS / profile).resolve():
        raise ValueError(f"output name {chosen!r} ({how}) is the name of the profile params/{profile}/ (in any "
                         f"case), whose executed notebooks, HTML and runtimes.json (reports/executed/{profile}/) "
                         f"this run would replace; give your run another name with --name (e.g. --name "
                         f"{profile}-mine), or run the profile itself with --profile {profile}")
    return chosen


@contextlib.contextmanager
def _environ(**values: str | None):
    """Set (or, for ``None``, unset) environment variables for the kernel papermill starts, and
    restore the previous values afterwards."""
    saved = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def failed_copy(output: Path) -> Path:
    """Where the executed copy of a failed run goes (``failed/`` beside ``output``): never over the
    executed notebook of the last run that succeeded, whose outputs are the published ones."""
    return output.parent / "failed" / output.name


def _keep_failed_copy(staged: Path, output: Path) -> None:
    target = failed_copy(output)
    if not staged.is_file():
        return
    with contextlib.suppress(OSError, ValueError):
        stabilise_file(staged)
    with contextlib.suppress(OSError):
        atomic_write_bytes(target, staged.read_bytes())


def execute(notebook: Path, parameters: dict, output: Path, *, run_name: str | None = None,
            html: Path | None = None, runtimes_dir: Path | None = None, dask_address: str | None = None) -> float:
    """Run one notebook with papermill (kernel ``python3``, cwd = its folder, no progress bar) and
    publish its outputs; returns the seconds it ran.

    Everything the run writes is staged (:mod:`helpers.notebook.outputs`): papermill's executed
    notebook (which papermill rewrites after every cell) and the notebook's tables, figures and
    metrics. When the notebook ends without error, one step under the reports root's lock
    publishes them all: the notebook's outputs replace its previous set in the run folder, and
    ``output`` (the executed notebook), ``html`` (its rendering) and ``runtimes_dir`` (its
    ``runtimes.json`` entry) are written atomically. When it fails or is interrupted, nothing is
    published (the previous outputs stay as they were), the executed copy with the error is kept
    at :func:`failed_copy` and the exception propagates.

    ``run_name`` (the ``--params`` runs) names the run's output folder (``reports/<run_name>/``,
    see :func:`helpers.notebook.params.run_folder`); without it a run whose parameters are not those of a
    canonical profile writes under ``reports/runs/<profile>-<hash>/``. ``dask_address`` is the
    run's one dask cluster, handed to the kernel (``SUBJEVAL_DASK_SCHEDULER``,
    :mod:`helpers.replicates.cluster`)."""
    import papermill as pm

    root = reports_root()
    for target in (output, failed_copy(output), html, None if runtimes_dir is None else runtimes_dir / "runtimes.json"):
        if target is not None and Path(target).is_relative_to(root):
            outputs.check_inside(root, Path(target).parent)   # no write through a link out of the root
    with contextlib.suppress(OSError):
        failed_copy(output).unlink()   # an older failure's copy must not pass for this run's
    outputs.sweep(root)
    stage = outputs.Staging.create(root, notebook.stem)
    staged = stage.dir / "executed.ipynb"
    # The kernel must import this checkout's helpers (two checkouts may share one environment):
    # put the checkout first on its path and let helpers.notebook.params.validate() verify it.
    path = os.environ.get("PYTHONPATH")
    start = time.perf_counter()
    try:
        shared = {SHARED_SCHEDULER: dask_address} if dask_address else {}
        with _environ(PYTHONPATH=os.pathsep.join([str(ROOT)] + ([path] if path else [])),
                      SUBJEVAL_CHECKOUT=str(ROOT), SUBJEVAL_RUN_NAME=run_name or None,
                      SUBJEVAL_STAGING=str(stage.dir), SUBJEVAL_REPORTS_DIR=str(root), **shared):
            _papermill(pm, notebook, staged, parameters)
        seconds = time.perf_counter() - start
        stabilise_file(staged)
        page = render_html(staged, stage.dir / "page.html") if html is not None else None
        with outputs.locked(root):
            stage.publish(already_locked=True)
            atomic_write_bytes(output, staged.read_bytes())
            if page is not None:
                atomic_write_bytes(html, page.read_bytes())
            if runtimes_dir is not None:
                record_runtime(runtimes_dir, notebook.stem, seconds)
        return seconds
    except BaseException as exc:
        if type(exc).__name__ == "DeadKernelError":
            with contextlib.suppress(AttributeError):
                exc.subjeval_cell = _running_cell(staged)
        _keep_failed_copy(staged, output)
        raise
    finally:
        stage.discard()


#: How a kernel that never started fails (before any cell ran): jupyter_client picks free ports and
#: the kernel binds them later, so kernels started at the same moment can race for one port
#: (papermill issue #511, "Address already in use"). Such a start is retried; a failure after the
#: kernel answered is never retried.
_KERNEL_START_FAILURES = ("Kernel died before replying to kernel_info", "Kernel didn't respond in")
KERNEL_START_ATTEMPTS = 3


def _papermill(pm, notebook: Path, staged: Path, parameters: dict | None) -> None:
    """``papermill.execute_notebook`` of this project's runs, retrying a kernel that failed to start."""
    for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
        try:
            pm.execute_notebook(
                str(notebook), str(staged), parameters=parameters or None, kernel_name=KERNEL,
                cwd=str(notebook.parent), progress_bar=False, log_output=False,
                # no kernel log on the terminal (ipykernel's notice that a local kernel talks over
                # TCP on every notebook, its "KeyboardInterrupt caught" when papermill stops it
                # after a failure): the runner reports each failure itself, from the executed copy
                extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
            )
            return
        except RuntimeError as exc:
            started = isinstance(exc, pm.PapermillExecutionError)   # a cell failed: the kernel ran
            if started or attempt == KERNEL_START_ATTEMPTS or not any(m in str(exc) for m in _KERNEL_START_FAILURES):
                raise
            print(f"{notebook.name}: the kernel did not start ({exc}); starting it again "
                  f"(attempt {attempt + 1} of {KERNEL_START_ATTEMPTS})", file=sys.stderr)


def _merge_streams(outputs: list) -> list:
    """Consecutive stream outputs of one name joined into one: how the kernel chunks stdout into
    messages depends on timing, not on what was printed, so identical runs would differ."""
    merged: list = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and prev is not None
                and prev.get("output_type") == "stream" and prev.get("name") == out.get("name")):
            text = prev["text"] if isinstance(prev["text"], str) else "".join(prev["text"])
            more = out["text"] if isinstance(out["text"], str) else "".join(out["text"])
            prev["text"] = (text + more).splitlines(keepends=True)
        else:
            merged.append(out)
    return merged


def stabilise(nb: dict) -> dict:
    """An executed notebook without what changes between identical runs: papermill's timestamps
    and durations, per-cell execution times, the absolute input/output paths (which would
    also name the user's machine) and the kernel's timing-dependent chunking of printed text.
    The parameters papermill injected are kept."""
    nb = copy.deepcopy(nb)
    pmeta = nb.get("metadata", {}).get("papermill")
    if isinstance(pmeta, dict):
        for key in ("start_time", "end_time", "duration", "input_path", "output_path", "environment_variables"):
            pmeta.pop(key, None)
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {})
        meta.pop("execution", None)
        if "injected-parameters" in meta.get("tags", []) and "id" in cell:
            cell["id"] = "injected-parameters"  # papermill draws a random id for the cell it adds
        cpm = meta.get("papermill")
        if isinstance(cpm, dict):
            for key in ("start_time", "end_time", "duration", "status", "exception"):
                cpm.pop(key, None)
        if "outputs" in cell:
            cell["outputs"] = _merge_streams(cell["outputs"])
    return nb


def stabilise_file(path: Path) -> None:
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    atomic_write_text(path, json.dumps(stabilise(nb), indent=1, ensure_ascii=False) + "\n")


def render_html(executed: Path, target: Path) -> Path:
    """Static HTML of an executed notebook (nbconvert's lab template), written atomically."""
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(str(executed), as_version=4)
    nb.metadata["title"] = notebook_title(nb, executed.stem)
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    return atomic_write_text(target, body)


def notebook_title(nb, fallback: str) -> str:
    """A notebook's title: its first Markdown H1 (``# 02 · Does unanimity change our
    conclusions?`` -> ``02 · Does unanimity change our conclusions?``), else ``fallback``.
    nbconvert titles an HTML page from ``metadata.title`` (else "Notebook")."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell.get("source", "")
        for line in ("".join(src) if isinstance(src, list) else src).splitlines():
            if line.startswith("# "):
                return line[2:].strip()
        break
    return fallback


def clean(nb: dict) -> dict:
    """Strip volatile metadata, keep outputs, execution counts and cell tags."""
    nb = copy.deepcopy(nb)
    for key in VOLATILE_NB_METADATA:
        nb.get("metadata", {}).pop(key, None)
    nb["metadata"]["kernelspec"] = {"display_name": KERNEL_DISPLAY_NAME, "language": "python", "name": KERNEL}
    for cell in nb["cells"]:
        meta = cell.get("metadata", {})
        for key in VOLATILE_CELL_METADATA:
            meta.pop(key, None)
        if cell.get("cell_type") == "code":
            cell["outputs"] = _merge_streams(cell.get("outputs", []))
            for out in cell["outputs"]:
                out.get("metadata", {}).pop("execution", None)
    nb["cells"] = [c for c in nb["cells"]
                   if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    return nb


def _show(path: Path) -> Path:
    """A path relative to the checkout when it lies inside it (no machine paths in logs)."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def record_runtime(executed_dir: Path, stem: str, seconds: float) -> Path:
    """Add a notebook's measured runtime to ``<executed_dir>/runtimes.json`` (read by the book's
    index; kept out of the executed notebook, which must be byte-identical between runs)."""
    path = executed_dir / "runtimes.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except ValueError:  # a file cut short by an older, non-atomic writer: the runtimes are rebuilt
        data = {}
    data = data if isinstance(data, dict) else {}
    data[stem] = round(float(seconds), 1)
    return atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def _html_target(notebook: Path, profile: str) -> Path:
    base = reports_root() / "html"
    return (base if profile == "default" else base / profile) / f"{notebook.stem}.html"


def _failure_text(exc: BaseException, notebook: Path | None = None, parameters: dict | None = None) -> str:
    """What the runner prints for a failed notebook: for an error about the input (a bad
    parameter, file or value: ValueError and its kin, raised with a message naming it) that
    message alone; for memory exhausted (a ``MemoryError`` in a cell, or a kernel the operating
    system killed) what ran out and this run's size parameters; for anything else, papermill's
    text with the cell's traceback (a bug)."""
    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    if ename is None:
        if type(exc).__name__ == "DeadKernelError":
            cell = getattr(exc, "subjeval_cell", None)
            return (f"the kernel died{f' in {cell}' if cell else ''} ({type(exc).__name__}: {exc}): the operating "
                    "system stops a process that exhausts the memory, so the most likely cause is a size this "
                    f"machine cannot hold{_sizes_hint(notebook, parameters)}")
        return f"{type(exc).__name__}: {exc}"
    if ename in MEMORY_ERRORS:
        count = getattr(exc, "exec_count", None)
        where = f" in cell In [{count}]" if count else ""
        return (f"out of memory{where}: {evalue or 'MemoryError'}{_sizes_hint(notebook, parameters)}")
    if ename in USER_ERRORS:
        return f"{ename}: {evalue}"
    return str(exc)


#: How numpy and Python name memory exhausted inside a cell.
MEMORY_ERRORS = {"MemoryError", "_ArrayMemoryError", "ArrayMemoryError"}


def _sizes_hint(notebook: Path | None, parameters: dict | None) -> str:
    """``; this run's size parameters: n_items = 20000, ...: lower them`` (empty when unknown)."""
    from .params import SIZE_LIMITS

    values: dict = {}
    if notebook is not None:
        with contextlib.suppress(Exception):   # a notebook outside notebooks/ (tests): its parameters only
            from .params import notebook_defaults

            values.update(notebook_defaults(notebook.stem))
    values.update(parameters or {})
    sizes = [f"{k} = {v}" for k, v in values.items() if k in SIZE_LIMITS]
    return f"; this run's size parameters: {', '.join(sizes)}: lower them" if sizes else ""


def _running_cell(staged: Path) -> str | None:
    """The cell papermill had started last in an executed copy (where a kernel died), as text; the
    copy gets an error output there, so that it says why it stopped (the book reads it)."""
    with contextlib.suppress(OSError, ValueError):
        nb = json.loads(staged.read_text(encoding="utf-8"))
        started = [(k, c) for k, c in enumerate(nb.get("cells", [])) if c.get("cell_type") == "code"
                   and (c.get("metadata", {}).get("papermill") or {}).get("start_time")]
        if started:
            k, cell = started[-1]
            src = cell.get("source", "")
            first = next((ln for ln in ("".join(src) if isinstance(src, list) else src).splitlines() if ln.strip()), "")
            where = f"cell {k + 1} of the notebook ({first.strip()[:60]!r})"
            cell.setdefault("outputs", []).append({
                "output_type": "error", "ename": "DeadKernelError", "traceback": [],
                "evalue": f"the kernel died in {where}: the operating system stops a process that exhausts the "
                          "memory, so the most likely cause is a size this machine cannot hold"})
            atomic_write_text(staged, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
            return where
    return None


#: Exceptions a notebook raises about its input, with a message that names it: printed without traceback.
USER_ERRORS = {"ValueError", "ParameterError", "FetchError", "FileNotFoundError", "NotADirectoryError",
               "IsADirectoryError", "PermissionError", "UnicodeDecodeError"}


def _check_writable(root: Path, profile: str, books: list[Path], html: bool) -> None:
    """Stop before the first kernel when outputs cannot be written (a read-only checkout) or would
    go through a symbolic link out of the reports root (a linked ``tables/``, ``executed/``...)."""
    folder = reports_dir(profile)
    places = [root / "executed" / profile / "failed", folder / "metrics", folder / "tables", folder / "parameters",
              folder / outputs.MANIFESTS] + [folder / "figures" / nb.stem for nb in books]
    if html:
        places.append(_html_target(books[0], profile).parent if books else root / "html")
    for place in places:
        outputs.check_inside(root, place)
    try:
        outputs.Staging.create(root, "write-check").discard()
    except OSError as exc:
        raise ValueError(f"cannot write outputs under {_show(root)}: {exc.strerror or exc}; set "
                         "SUBJEVAL_REPORTS_DIR to a writable folder") from None


def _run_one(nb_path: Path, nb_params: dict, profile: str, tag: str, *, html: bool, refresh: bool,
             named: bool, stream, dask_address: str | None = None) -> tuple[str, str, float]:
    executed_dir = reports_root() / "executed" / profile
    out = executed_dir / nb_path.name
    start = time.perf_counter()
    try:
        seconds = execute(nb_path, nb_params, out, run_name=profile if named else None,
                          html=_html_target(nb_path, profile) if html else None, runtimes_dir=executed_dir,
                          dask_address=dask_address)
    except KeyboardInterrupt:
        print(f"{tag}: interrupted; nothing of this run was published (its previous outputs, if any, "
              "are unchanged)", file=stream, flush=True)
        raise
    except Exception as exc:  # papermill raises PapermillExecutionError with the cell's traceback
        seconds = time.perf_counter() - start
        copy = failed_copy(out)
        where = f"; executed copy with the error: {_show(copy)}" if copy.is_file() else ""
        print(f"{tag}: FAILED after {seconds:.1f} s; nothing of this run was published (its previous outputs, "
              f"if any, are unchanged){where}\n{_failure_text(exc, nb_path, nb_params)}", file=stream, flush=True)
        return nb_path.stem, "failed", seconds
    if refresh:
        with open(out, encoding="utf-8") as fh:
            cleaned = clean(json.load(fh))
        atomic_write_text(nb_path, json.dumps(cleaned, indent=1, ensure_ascii=False) + "\n")
    print(f"{tag}: ok in {seconds:.1f} s" + ("; copied back" if refresh else ""), file=stream, flush=True)
    return nb_path.stem, "ok", seconds


def _check_selected(books: list[Path], files: dict[Path, Path], only: list[str] | None, source: str) -> None:
    """Notebooks named on the command line must have a parameter file: one asked for by name is
    never skipped (without names, a profile or folder runs the notebooks it has files for)."""
    missing = [nb.stem for nb in books if nb not in files]
    if only and missing:
        raise ValueError(f"{source} has no parameter file for {', '.join(missing)} (expected "
                         f"{', '.join(m[:2] + '_*.yaml' for m in missing)}), which the command line asks for; "
                         "add the file, or leave the notebook out")


def uses_local_dask(notebook: Path, parameters: dict) -> bool:
    """Would ``notebook`` with ``parameters`` start a local dask cluster of its own? (It declares a
    ``scheduler`` parameter whose value is ``"local"``, and ``DASK_SCHEDULER_ADDRESS`` is unset.)"""
    import ast

    import papermill as pm

    if os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip():
        return False
    try:
        declared = pm.inspect_notebook(str(notebook))
    except Exception:  # noqa: BLE001 - an unreadable notebook fails (and is reported) when it runs
        return False
    if "scheduler" not in declared:
        return False

    def value(name: str):
        if name in parameters:
            return parameters[name]
        with contextlib.suppress(KeyError, TypeError, ValueError, SyntaxError):
            return ast.literal_eval(declared[name]["default"])
        return None

    if value("scheduler") != "local":
        return False
    # a notebook whose replicates run only for some parameter values says which in its metadata
    # ("subjeval": {"dask_only_when": {"data": ["simulated"]}}): no cluster is started for the others
    try:
        meta = json.loads(notebook.read_text(encoding="utf-8")).get("metadata", {})
        only_when = meta.get("subjeval", {}).get("dask_only_when", {})
    except (OSError, ValueError, AttributeError):
        return True
    return all(value(name) in wanted for name, wanted in only_when.items()) if isinstance(only_when, dict) else True


class _RunCluster:
    """The one dask cluster of a run, started in the background before the first notebook (which
    runs meanwhile) when a notebook of the run would start one, and closed at the run's end."""

    def __init__(self, books: list[Path], loaded: dict, stream) -> None:
        self.needed = {nb for nb in books if loaded.get(nb) is not None and uses_local_dask(nb, loaded[nb])}
        self.stream, self.starting, self.said = stream, None, False
        if self.needed:
            from ..replicates.cluster import Starting

            self.starting = Starting(n_workers=os.cpu_count() or 1, background=True)

    def address_for(self, notebook: Path) -> str | None:
        """The cluster's address for a notebook that uses it (waiting for its start), else ``None``."""
        if notebook not in self.needed or self.starting is None:
            return None
        try:
            self.starting.wait()
        except Exception as exc:  # noqa: BLE001 - the notebooks then start their own, as without the runner
            if not self.said:
                print(f"dask: the run's cluster did not start ({type(exc).__name__}: {exc}); each notebook "
                      "starts its own", file=self.stream, flush=True)
                self.said = True
            return None
        if not self.said:
            workers = len(self.starting.cluster.scheduler_info.get("workers", {}))
            print(f"dask: one LocalCluster of {workers} worker(s) for the {len(self.needed)} notebook(s) of this run "
                  f"that use it, started in {self.starting.seconds:.1f} s (in the background)",
                  file=self.stream, flush=True)
            self.said = True
        return self.starting.cluster.scheduler_address

    def close(self) -> None:
        if self.starting is not None:
            with contextlib.suppress(Exception):
                self.starting.close()


def _run_tasks(tasks: list, jobs: int, shared: "_RunCluster", stream, profile: str) -> dict:
    """Run the notebooks of ``tasks`` (``(notebook, args, kwargs)`` of :func:`_run_one`), one after
    the other or ``jobs`` at once (:mod:`helpers.notebook.batch`); each notebook's result."""
    if jobs <= 1:
        return {nb: _run_one(*args, stream=stream, dask_address=shared.address_for(nb), **kwargs)
                for nb, args, kwargs in tasks}
    order = batch.slowest_first([nb for nb, _, _ in tasks], reports_root() / "executed" / profile / "runtimes.json")
    by_nb = {nb: (args, kwargs) for nb, args, kwargs in tasks}
    print(f"running {jobs} notebooks at a time (--jobs {jobs})", file=stream, flush=True)
    return batch.run_parallel([(nb, by_nb[nb][0], {**by_nb[nb][1], "dask_address": shared.address_for(nb)})
                               for nb in order], jobs, _run_one, stream)


def run(profile: str = "default", only: list[str] | None = None, *, html: bool = True,
        refresh: bool = False, stream=None, params: str | os.PathLike | None = None,
        name: str | None = None, jobs: int | str = 1) -> list[tuple[str, str, float]]:
    """Execute notebooks for ``profile`` (or for the user's parameter files ``params``, outputs
    under ``reports/<name>/``); returns ``(stem, status, seconds)`` per notebook. ``jobs``: how many
    notebooks run at once (``"auto"``: one per core; :mod:`helpers.notebook.batch`)."""
    stream = sys.stdout if stream is None else stream
    books = discover(only)
    user_files: dict[Path, Path] | None = None
    if params is not None:
        user_files = parameter_files(params, books)   # a missing file or folder is named first
        profile = output_name(params, name)
        if only is None:
            books = [nb for nb in books if nb in user_files]   # run what the folder holds
        _check_selected(books, user_files, only, f"--params {params}")
        # read every file before the first kernel starts: a bad one stops the run at once
        loaded = {nb: read_parameter_file(f, nb, profile) for nb, f in user_files.items()}
    else:
        check_profile(profile)
        loaded = {nb: load_parameters(nb, profile) for nb in books}
        _check_selected(books, {nb: params_file(nb, profile) for nb in books if loaded[nb] is not None}, only,
                        f"profile {profile!r} (params/{profile}/)")
    _check_writable(reports_root(), profile, books, html)
    results = []
    print(f"profile {profile!r}: {len(books)} notebook(s); outputs under "
          f"{_show(reports_dir(profile))}",
          file=stream, flush=True)
    shared = _RunCluster(books, loaded, stream)
    try:
        tasks = []
        for k, nb_path in enumerate(books, 1):
            tag = f"[{k}/{len(books)}] {nb_path.stem}"
            if loaded.get(nb_path) is None:
                missing = (f"no parameter file for it in {params}" if user_files is not None
                           else f"no {params_file(nb_path, profile).relative_to(ROOT)}")
                print(f"{tag}: skipped ({missing})", file=stream, flush=True)
                continue
            tasks.append((nb_path, (nb_path, loaded[nb_path], profile, tag),
                          {"html": html, "refresh": refresh, "named": user_files is not None}))
        # the notebooks do not depend on each other: a failure does not stop the others
        jobs = batch.resolve_jobs(jobs, len(tasks))
        began = time.perf_counter()
        done = _run_tasks(tasks, jobs, shared, stream, profile)
        wall = time.perf_counter() - began
        results = [done[nb] if nb in done else (nb.stem, "skipped", 0.0) for nb in books]
    finally:
        shared.close()
    failed = [stem for stem, status, _ in results if status == "failed"]
    if len(results) > 1 or failed:
        done = sum(status == "ok" for _, status, _ in results)
        executed_dir = reports_root() / "executed" / profile
        print(f"profile {profile!r}: {done} of {len(results)} notebook(s) ok"
              + (f"; FAILED: {', '.join(failed)}" if failed else "")
              + (f" (executed copies with the error under {_show(executed_dir / 'failed')})"
                 if any(failed_copy(executed_dir / f"{stem}.ipynb").is_file() for stem in failed) else "") + f"; {sum(t for _, _, t in results):.0f} s in the notebooks"
              + (f", {wall:.0f} s from the first start to the last end ({jobs} at a time)" if jobs > 1 else ""),
              file=stream, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers notebooks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="execute notebooks for a parameter profile")
    p_run.add_argument("--profile", default=None,
                       help="a parameter profile: default or a folder under params/ (default: $PROFILE, else "
                            "default); not with --params")
    p_run.add_argument("--params", metavar="DIR|FILE.yaml",
                       help="your own parameter files (named NN_*.yaml after the notebooks); "
                            "outputs go to reports/<name>/")
    p_run.add_argument("--name", help="output folder name for --params (default: the folder's name)")
    p_run.add_argument("--no-html", action="store_true", help="skip the HTML rendering")
    p_run.add_argument("--jobs", default=os.environ.get("SUBJEVAL_JOBS", "auto"), metavar="N|auto",
                       help="notebooks run at once (default: $SUBJEVAL_JOBS, else auto = one per core); 1: one "
                            "after the other")
    p_run.add_argument("only", nargs="*", help="two-digit prefixes or stems (default: all)")
    p_ref = sub.add_parser("refresh", help="regenerate committed outputs (default profile)")
    p_ref.add_argument("only", nargs="*")
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            if args.name is not None and not args.params:
                raise ValueError("--name only goes with --params")
            if args.profile is not None and args.params:
                raise ValueError(f"--profile {args.profile} and --params {args.params} both choose the parameters; "
                                 "give one (--params runs your files, --profile a folder under params/)")
            if args.profile is None and args.params and os.environ.get("PROFILE", "default") != "default":
                print(f"python -m helpers notebooks: note: PROFILE={os.environ['PROFILE']} (environment) is ignored: "
                      f"--params {args.params} chooses the parameters", file=sys.stderr, flush=True)
            profile = args.profile if args.profile is not None else os.environ.get("PROFILE", "default")
            batch.resolve_jobs(args.jobs, 1)   # a bad value stops here, before any kernel
            results = run(profile, args.only or None, html=not args.no_html,
                          params=args.params, name=args.name, jobs=args.jobs)
        else:
            results = run("default", args.only or None, html=True, refresh=True,
                          jobs=os.environ.get("SUBJEVAL_JOBS", "auto"))
    except ValueError as exc:  # unknown profile, a bad parameter file: before any kernel starts
        print(f"python -m helpers notebooks: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the notebook's line has said what was (not) published
        print("python -m helpers notebooks: interrupted", file=sys.stderr)
        return 130
    except MemoryError as exc:
        print(f"python -m helpers notebooks: error: out of memory in the runner itself ({exc or 'MemoryError'}); "
              "is a parameter file very large?", file=sys.stderr)
        return 2
    except OSError as exc:  # a file of the run that cannot be read or written (the notebooks' own errors are theirs)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"python -m helpers notebooks: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    return 1 if any(status == "failed" for _, status, _ in results) else 0
