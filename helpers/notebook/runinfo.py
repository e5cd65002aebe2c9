"""What an executed notebook says about its run: parameters, inputs, outputs folder and failure.

The book of a run (``tools/build_book.py``) describes *that* run, not the notebook's defaults: a
notebook's introduction says what it reproduces with its default settings ("B = 5,000", "a
seeded simulated collection"), while a run on one's own files may use other values and other
inputs. Everything here is read from the executed notebook itself:

* the parameters: the ``parameters`` cell (names, default values, help comments) overridden by
  what papermill injected (``metadata.papermill.parameters``, else the ``injected-parameters``
  cell); :func:`changed` lists those that differ from the defaults;
* the inputs: the data-source parameter (``dataset``/``data``) described by its own help text, the
  file parameters (``*_path``, ``*_glob``) that are set, the public data sets switched on, and the
  lines the notebook printed about what it read (:func:`helpers.io.readers.describe`);
* the outputs folder the run announced (``outputs of this run: <reports>/...``), else the
  profile's;
* a failure: the first error output (exception name, message and the cell it stopped in).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Parameter", "Failure", "RunInfo", "parameters", "run_values", "changed", "failure", "outputs_folder",
           "inputs", "read_lines", "run_info", "show_value", "show_path", "DATA_SOURCE_NAMES", "DATA_SWITCHES"]

#: Parameters that choose a notebook's data source; their help text describes each value as
#: ``"value" (what it is)``.
DATA_SOURCE_NAMES = ("dataset", "data")
#: Parameters that add public data sets to a run when set.
DATA_SWITCHES = ("real_datasets", "real_dataset", "real_ratings", "rf10")
#: Parameters that hold file paths or glob patterns (as :data:`helpers.notebook.pipeline.PATH_SUFFIXES`).
PATH_SUFFIXES = ("_path", "_glob")
#: Lines of :func:`helpers.io.readers.describe` ("qrels: 1,234 rows, 43 topics, ...").
_READ_LINE = re.compile(r"^(\w[\w ]*): [\d,]+ rows\b.*$", re.M)
_ANNOUNCE = re.compile(r"outputs of this run: <reports>/(\S*?)/? \(")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass(frozen=True)
class Parameter:
    """One declared parameter: its default value and its help comment."""

    name: str
    default: Any
    help: str


@dataclass(frozen=True)
class Failure:
    """Where and how an executed notebook stopped."""

    cell: int          # index of the code cell among all cells
    execution_count: int | None
    ename: str
    evalue: str

    def line(self) -> str:
        where = f"cell [{self.execution_count}]" if self.execution_count else f"cell {self.cell}"
        first = self.evalue.strip().splitlines()[0] if self.evalue.strip() else ""
        return f"{self.ename} in {where}" + (f": {first}" if first else "")


@dataclass
class RunInfo:
    """Everything :func:`run_info` reads from one executed notebook."""

    values: dict[str, Any]
    changed: dict[str, tuple[Any, Any]]
    inputs: list[str]
    folder: str
    failure: Failure | None
    declared: dict[str, Parameter] = field(default_factory=dict)


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def parameters(nb) -> dict[str, Parameter]:
    """The declared parameters of a notebook (its ``parameters``-tagged cell), in order."""
    cell = next((c for c in nb.get("cells", []) if "parameters" in _tags(c)), None)
    if cell is None:
        return {}
    source = _source(cell)
    comments: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string.lstrip("#").strip()
    body = [n for n in ast.parse(source).body if isinstance(n, (ast.AnnAssign, ast.Assign))]
    out = {}
    for k, node in enumerate(body):
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
        if not isinstance(target, ast.Name) or node.value is None:
            continue
        last = body[k + 1].lineno - 1 if k + 1 < len(body) else len(source.splitlines())
        help_text = " ".join(comments[i] for i in range(node.lineno, last + 1) if i in comments)
        try:
            value = ast.literal_eval(node.value)
        except ValueError:
            value = ast.unparse(node.value)
        out[target.id] = Parameter(target.id, value, help_text)
    return out


def _injected(nb) -> dict[str, Any]:
    meta = nb.get("metadata", {}).get("papermill", {})
    if isinstance(meta, dict) and isinstance(meta.get("parameters"), dict):
        return dict(meta["parameters"])
    values = {}
    for cell in nb.get("cells", []):
        if "injected-parameters" in _tags(cell):
            for node in ast.parse(_source(cell)).body:
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    values[node.targets[0].id] = ast.literal_eval(node.value)
    return values


def run_values(nb) -> dict[str, Any]:
    """The parameter values the run used: the defaults, overridden by the injected ones."""
    return {**{n: p.default for n, p in parameters(nb).items()}, **_injected(nb)}


def changed(nb) -> dict[str, tuple[Any, Any]]:
    """Parameters whose value differs from the notebook's default: name -> (default, value);
    ``profile`` (the name of the run, said elsewhere) is left out."""
    declared = parameters(nb)
    out = {}
    for name, value in _injected(nb).items():
        default = declared[name].default if name in declared else None
        if name != "profile" and value != default:
            out[name] = (default, value)
    return out


def failure(nb) -> Failure | None:
    """The first error output of an executed notebook, or ``None`` when it ran to the end."""
    for k, cell in enumerate(nb.get("cells", [])):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            if out.get("output_type") == "error":
                return Failure(k, cell.get("execution_count"), _ANSI.sub("", str(out.get("ename", "Error"))),
                               _ANSI.sub("", str(out.get("evalue", ""))))
    return None


def _stream_text(nb) -> str:
    parts = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            if out.get("output_type") == "stream":
                text = out.get("text", "")
                parts.append("".join(text) if isinstance(text, list) else text)
    return "".join(parts)


def outputs_folder(nb, profile: str) -> str:
    """The run's outputs folder relative to the reports root: the one it announced (a run that
    went aside or a named run), else the profile's (``""`` for ``default``)."""
    m = _ANNOUNCE.search(_stream_text(nb))
    if m:
        return m.group(1).strip("/")
    return "" if profile in ("", "default") else profile


def read_lines(nb) -> list[str]:
    """The lines the notebook printed about what it read (:func:`helpers.io.readers.describe`)."""
    return list(dict.fromkeys(m.group(0).strip() for m in _READ_LINE.finditer(_stream_text(nb))))


def show_value(value: Any, name: str = "") -> str:
    """A parameter value as a reader expects it: ``5,000``, ``0.2``, ``"files"``, ``[3, 10]``
    (a seed, ``name`` containing "seed", without thousands separators)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return f"{value}" if "seed" in name else f"{value:,}"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def show_path(value: str, root: Path | None = None) -> str:
    """A path parameter as shown in the book: relative to the checkout when inside it, with
    ``~`` for the home folder otherwise."""
    from .. import paths

    root = paths.ROOT if root is None else root
    path = Path(value)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        home = Path.home()
        return "~/" + path.relative_to(home).as_posix() if path.is_relative_to(home) else value


def _described(value: str, help_text: str) -> str | None:
    """What the help text says about one value of a data-source parameter (``"dl19" (TREC DL 2019
    passage)`` -> ``TREC DL 2019 passage``)."""
    m = re.search(rf'"{re.escape(value)}"\s*\(([^)]*)\)', help_text)
    return m.group(1).strip() if m else None


def inputs(nb, values: dict[str, Any] | None = None) -> list[str]:
    """The inputs of the run, one Markdown line each: the data source, the files read, the public
    sets switched on and what the notebook printed about them."""
    declared = parameters(nb)
    values = run_values(nb) if values is None else values
    lines = []
    for name in DATA_SOURCE_NAMES:
        if name in values:
            what = _described(str(values[name]), declared[name].help if name in declared else "")
            files = str(values[name]) == "files"
            desc = "the files below" if files else (what or "see the notebook")
            seed = f", seed {values['seed']}" if "seed" in values and not files else ""
            lines.append(f"`{name}` = {show_value(values[name], name)}: {desc}{seed}")
    for name, value in values.items():
        if name.endswith(PATH_SUFFIXES) and isinstance(value, str) and value:
            lines.append(f"`{name}`: `{show_path(value)}`")
    for name in DATA_SWITCHES:
        if values.get(name):
            lines.append(f"`{name}` = {show_value(values[name])}")
    lines += [f"read: {line}" for line in read_lines(nb)]
    return lines


def run_info(nb, profile: str) -> RunInfo:
    """:class:`RunInfo` of an executed notebook run under ``profile``."""
    values = run_values(nb)
    return RunInfo(values=values, changed=changed(nb), inputs=inputs(nb, values), folder=outputs_folder(nb, profile),
                   failure=failure(nb), declared=parameters(nb))
