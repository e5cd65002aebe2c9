"""Strict notebook parameters: unknown names, wrong types and a foreign checkout stop the run.

Papermill only *warns* about a parameter the notebook does not declare (``seeed: 5`` runs with the
default seed and exit status 0) and injects any value whatever its type (``seed: null`` runs
unseeded). For results that go into papers both must be errors. Every notebook therefore calls, in
the first cell after its ``parameters`` cell::

    params.validate(globals())

which works the same under the project's runner, plain ``papermill``, nbval and JupyterLab:

* the parameters cell declares each parameter with an annotation (``seed: int = 5  # help``);
  IPython records those in ``__annotations__``, while papermill's injected cell assigns without
  annotations. Names assigned by the injected cell (read back from the kernel's input history)
  that are not declared are unknown parameters;
* each declared parameter's value must match its annotation: ``int`` (not ``bool``), ``float``
  (an ``int`` is accepted), ``str``, ``bool``, ``list``, ``dict``; ``None`` only where the
  annotation allows it (``int | None``);
* the ``helpers`` package the kernel imported must be the one of the checkout it runs from (the
  runner's checkout, ``SUBJEVAL_CHECKOUT``; else the one holding the notebook JupyterLab opened or
  the kernel's working directory): two checkouts sharing one environment would otherwise read the
  other checkout's notebooks and write into its committed ``reports/``;
* size parameters (``n_items``, ``B``, ``replicates``...) stay below an upper bound each
  (:data:`SIZE_LIMITS`), and the products that size one array below a budget
  (:data:`SIZE_BUDGETS`): a typo such as ``n_items: 10000000000000`` stops with the bound instead
  of a MemoryError (or hours of work) deep in the notebook;
* values no notebook can use stop before any work (:data:`VALUE_DOMAINS`: ``seed: -1``, a size of
  0, a probability of 2, a misspelled ``scheduler``), instead of numpy's or dask's message from
  deep inside the kernel. The notebooks' own, stricter checks follow in their validation cell.

:func:`check_values` applies the same rules to a mapping of values against the declarations that
``papermill.inspect_notebook`` reads, so the runner refuses a bad parameter file before it starts a
kernel.
"""

from __future__ import annotations

import ast
import difflib
import math
import os
import re
import types
import typing
from pathlib import Path
from typing import Any, Mapping, Sequence

from .param_domains import BASE_DOMAINS, choice_problem, components_problem, empty_problem, notebook_domain

#: Names a kernel defines by itself (never parameters).
_KERNEL_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}
#: papermill's ``inferred_type_name`` -> the annotation it stands for.
_TYPE_NAMES = {"int": int, "float": float, "str": str, "bool": bool, "list": list, "dict": dict}


class ParameterError(ValueError):
    """A notebook parameter that is unknown or has the wrong type."""


def _allowed(annotation: Any) -> tuple[tuple[type, ...], bool]:
    """Python types an annotation admits, and whether it admits ``None``."""
    if isinstance(annotation, str):
        parts = [p.strip() for p in annotation.replace("Optional[", "").rstrip("]").split("|")]
        allow_none = "None" in parts or annotation.startswith("Optional[")
        kinds = tuple(_TYPE_NAMES[p.split("[")[0]] for p in parts if p.split("[")[0] in _TYPE_NAMES)
        return kinds, allow_none
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        kinds: list[type] = []
        allow_none = False
        for arg in typing.get_args(annotation):
            if arg is type(None):
                allow_none = True
            else:
                kinds.extend(_allowed(arg)[0])
        return tuple(kinds), allow_none
    if origin is not None:  # list[int], dict[str, float]
        return (origin,), False
    if annotation is None or annotation is type(None):
        return (), True
    return ((annotation,) if isinstance(annotation, type) else ()), False


def _type_label(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def type_problem(name: str, value: Any, annotation: Any) -> str | None:
    """``None`` if ``value`` fits ``annotation``, else a one-line description of the mismatch."""
    kinds, allow_none = _allowed(annotation)
    if not kinds and not allow_none:
        return None  # an annotation we do not interpret: nothing to check
    if value is None:
        return None if allow_none else (f"parameter {shown(name)} is None (null); expected "
                                        f"{_type_label(annotation)}")
    if isinstance(value, list) and any(isinstance(v, bool) for v in value) and (
            name in VALUE_DOMAINS or name in SIZE_LIMITS
            or any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        # [true, 4]: Python counts true as 1, as plain `seed: true` would be (refused above)
        first = next(v for v in value if isinstance(v, bool))
        return (f"parameter {shown(name)} = {shown(value)} holds {str(first).lower()} (a boolean) among numbers; "
                f"expected numbers only")
    ok = False
    for kind in kinds:
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            if ok and isinstance(value, float) and not math.isfinite(value):
                return f"parameter {shown(name)} = {shown(value)} is not a finite number"
        else:
            ok = isinstance(value, kind)
        if ok:
            break
    if ok:
        return None
    hint = ""
    if isinstance(value, str) and any(k in (int, float) for k in kinds):
        try:
            number = float(value.replace("_", ""))
        except ValueError:
            pass
        else:  # text that reads as a number ('09'): YAML kept it as text
            if math.isfinite(number):
                hint = f" (the file holds it as text: write it as a plain number, e.g. {number:g})"
    return (f"parameter {shown(name)} = {shown(value)} has type {type(value).__name__}; expected "
            f"{_type_label(annotation)}{hint}")


#: What the members of the notebooks' list and dict parameters must be (the notebooks declare only
#: ``list``/``dict``; their code reads these member types): list name -> member type, dict name ->
#: (key type, value type); ``float`` admits integers. A list or dict parameter not named here may
#: hold plain values of one kind (text, numbers or booleans), never null or a nested list/mapping.
LIST_MEMBERS: dict[str, type] = {"d_max_list": int, "n_list": int, "split_topics": int, "split_assessors": int,
                                 "min_diff_grid": float, "measure_names": str, "measures": str, "real_datasets": str}
DICT_MEMBERS: dict[str, tuple[type, type]] = {"components": (str, float), "team_overrides": (str, str)}
_MEMBER_NAMES = {int: "integers", float: "numbers", str: "text", bool: "true or false"}


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters with the full length said (a 5 MB
    value is not echoed whole)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _kind_of(v: Any) -> type | None:
    """The member kind of a plain value (``int`` and ``float`` both count as numbers: ``float``)."""
    return bool if isinstance(v, bool) else float if isinstance(v, (int, float)) else str if isinstance(v, str) else None


def _member_fits(v: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(v, int) and not isinstance(v, bool)
    return _kind_of(v) is kind


def _what(v: Any) -> str:
    return ("null" if v is None else "a list" if isinstance(v, list) else "a mapping" if isinstance(v, dict)
            else f"{shown(v)} ({type(v).__name__})")


def member_problem(name: str, value: Any) -> str | None:
    """``None`` if the members of a list or dict parameter are what the notebooks read
    (:data:`LIST_MEMBERS`, :data:`DICT_MEMBERS`; otherwise plain values of one kind), else one line
    naming the first bad member (null, a nested list, text among numbers, 5.5 for an integer)."""
    if isinstance(value, list):
        kind = LIST_MEMBERS.get(name)
        for i, v in enumerate(value):
            fits = _member_fits(v, kind) if kind else _kind_of(v) is not None and _kind_of(v) == _kind_of(value[0])
            if not fits or (isinstance(v, float) and not math.isfinite(v)):   # .nan, .inf: as a scalar
                want = "finite numbers" if fits else _MEMBER_NAMES[kind] if kind else "plain values of one kind (text, numbers or true/false)"
                return (f"parameter {shown(name)} = {shown(value)} holds {_what(v)} at position {i + 1}; "
                        f"expected {want} only")
    elif isinstance(value, dict):
        key_kind, value_kind = DICT_MEMBERS.get(name, (str, None))
        for k, v in value.items():
            if not _member_fits(k, key_kind):
                return f"parameter {shown(name)} has the key {_what(k)}; expected {_MEMBER_NAMES[key_kind]} keys"
            fits = (_member_fits(v, value_kind) if value_kind
                    else _kind_of(v) is not None and _kind_of(v) == _kind_of(next(iter(value.values()))))
            if not fits or (isinstance(v, float) and not math.isfinite(v)):
                want = "finite numbers" if fits else _MEMBER_NAMES[value_kind] if value_kind else "plain values of one kind (text, numbers or true/false)"
                return f"parameter {shown(name)} maps {shown(k)} to {_what(v)}; expected {want} as values"
    return None


def _unknown_message(names: list[str], declared: list[str], where: str) -> str:
    lines = []
    for name in names:
        close = difflib.get_close_matches(name, declared, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        lines.append(f"unknown parameter {shown(name)}{hint} {where}")
    lines.append(f"this notebook's parameters are: {', '.join(sorted(declared))}")
    return "\n".join(lines)


#: Upper bound of every size parameter of the notebooks (an int, or each member of a list of ints),
#: with what grows with it. The bounds lie far above the paper profile (params/paper/) and below what
#: exhausts a workstation's memory or a day of computing.
SIZE_LIMITS: dict[str, tuple[int, str]] = {
    "n_items": (1_000_000, "simulated items per (Dmax, N) cell"),
    "n_list": (1_000, "ratings per simulated item"),
    "d_max_list": (100, "highest rating of a simulated scale"),
    "ratings_d_max": (100, "highest rating of the scale"),
    "d_max": (100, "highest relevance level"),
    "relevance_threshold": (100, "relevance level"),
    "replicates": (10_000, "replicates of the simulation study"),
    "real_replicates": (10_000, "redraws of the real-data study"),
    "B": (1_000_000, "Monte Carlo trials"),
    "rounds": (10_000, "annotation rounds"),
    "n_sizes": (1_000, "sample sizes recorded"),
    "n_topics": (100_000, "simulated topics"),
    "n_docs": (100_000, "simulated documents per topic"),
    "n_runs": (10_000, "simulated runs"),
    "depth": (100_000, "documents per simulated ranked list"),
    "cutoff": (100_000, "rank cutoff"),
    "extra_cutoff": (100_000, "rank cutoff"),
    "k": (100_000, "rank cutoff"),
    "k_table7": (100_000, "rank cutoff"),
    "real_cutoff": (100_000, "rank cutoff"),
    "n_pairs": (1_000_000, "simulated SERP pairs"),
    "n_assessors": (10_000, "simulated assessors per pair"),
}

#: Products of size parameters that size one array, with their budget (applied when a notebook
#: declares every name; a list counts by its largest member). Each budget is about 1 GB of memory
#: at its limit, measured on the simulations (01: 2.7 GB at 1e8 ratings; 03: 1 GB per 1e6 judged
#: documents; 04: 0.5 GB per 1e6 run rows), and lies above the paper profile.
SIZE_BUDGETS: list[tuple[tuple[str, ...], int, str]] = [
    (("n_items", "n_list"), 30_000_000, "simulated ratings held in memory at once"),
    (("n_topics", "n_docs"), 1_000_000, "simulated judged documents"),
    (("n_topics", "n_runs", "depth"), 2_000_000, "rows of the simulated runs"),
    (("n_topics", "n_runs", "cutoff"), 2_000_000, "rows of the simulated runs"),
    (("n_pairs", "n_assessors"), 5_000_000, "simulated preference labels"),
]


def _size(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return max(value)
    return None


def size_problems(values: Mapping[str, Any], declared: Mapping[str, Any] | None = None) -> list[str]:
    """One line per size parameter of ``values`` above its bound (:data:`SIZE_LIMITS`) and per
    product above its budget (:data:`SIZE_BUDGETS`, checked when ``values`` holds every factor)."""
    problems = []
    for name, value in values.items():
        if name in SIZE_LIMITS and (size := _size(value)) is not None and size > SIZE_LIMITS[name][0]:
            bound, what = SIZE_LIMITS[name]
            said = value if isinstance(value, int) else f"{shown(value)} (largest {size})"
            problems.append(f"parameter {shown(name)} = {said} is above its upper bound {bound:,} ({what})")
    for names, budget, what in SIZE_BUDGETS:
        if declared is not None and not all(n in declared for n in names):
            continue
        sizes = [_size(values.get(n)) for n in names]
        if any(v is None for v in sizes) or any(values.get(n) is None for n in names):
            continue
        product = math.prod(sizes)
        if product > budget and not any(v > SIZE_LIMITS[n][0] for n, v in zip(names, sizes)):
            problems.append(f"parameters {' x '.join(names)} = {' x '.join(f'{v:,}' for v in sizes)} = {product:,} "
                            f"is above the budget {budget:,} ({what}); lower one of them")
    return problems


#: The values a parameter of these names can take at all, whatever the notebook: name -> (lowest,
#: lowest allowed?, highest, highest allowed?, what it is). A list parameter's members are checked.
#: Each range is the widest any notebook accepts, so the runner can refuse a value before a kernel
#: starts; a notebook's validation cell may ask for more (``n_items >= 100`` in 01).
VALUE_DOMAINS: dict[str, tuple[float | None, bool, float | None, bool, str]] = {
    **{name: (1, True, None, False, what) for name, (_, what) in SIZE_LIMITS.items()}, **BASE_DOMAINS,
}
#: What ``scheduler`` may say (besides a dask scheduler address such as ``tcp://host:8786``).
SCHEDULERS = ("local", "serial")


def _interval(low, low_in, high, high_in) -> str:
    if high is None:
        return f">= {low:g}" if low_in else f"> {low:g}"
    return f"{'[' if low_in else '('}{low:g}, {high:g}{']' if high_in else ')'}"


def domain_problem(name: str, value: Any, declared: Mapping[str, Any] | None = None) -> str | None:
    """``None`` if ``value`` lies in the domain of parameter ``name`` (:data:`VALUE_DOMAINS`; the
    ``scheduler`` names), else one line saying what was expected (call it on well-typed values)."""
    if name == "scheduler" and isinstance(value, str):
        from ..replicates.runner import is_scheduler_address

        if value in SCHEDULERS or is_scheduler_address(value):
            return None
        close = difflib.get_close_matches(value, SCHEDULERS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return (f"scheduler must be 'local', 'serial' or a dask scheduler address such as tcp://host:8786, "
                f"got {shown(value)}{hint}")
    domain = (declared is not None and notebook_domain(name, declared)) or VALUE_DOMAINS.get(name)
    if domain is None:
        return choice_problem(name, value) or empty_problem(name, value)
    low, low_in, high, high_in, what = domain
    members = value if isinstance(value, list) else [value]
    numbers = [v for v in members if isinstance(v, (int, float)) and not isinstance(v, bool)]
    bad = [v for v in numbers if (v < low if low_in else v <= low)
           or (high is not None and (v > high if high_in else v >= high))]
    if not bad:
        return empty_problem(name, value)
    integral = all(isinstance(v, int) for v in numbers) and high is None
    kind = "an integer " if integral else ""
    if isinstance(value, list):
        return (f"{name} must hold {'integers' if integral else 'numbers'} {_interval(low, low_in, high, high_in)} "
                f"({what}), got {shown(value)}")
    verb = "be" if high is None else "lie in"
    return f"{name} must {verb} {kind}{_interval(low, low_in, high, high_in)} ({what}), got {shown(value)}"


def _repeated(name: str, value: Any) -> str | None:
    """A list parameter naming one value twice (two measures, Dmax or N of one name make two rows
    of one key, which the analyses cannot tell apart)."""
    if not isinstance(value, list):
        return None
    for i, item in enumerate(value):
        if any(item == other and type(item) is type(other) for other in value[:i]):
            return f"parameter {shown(name)} = {shown(value)} lists {shown(item)} twice; expected each value once"
    return None


def check_values(values: Mapping[str, Any], declared: Mapping[str, Any], *, where: str = "",
                 lines: Mapping[str, int] | None = None) -> None:
    """Refuse unknown names, ill-typed values and values outside their domain (:data:`VALUE_DOMAINS`)
    or size bounds of ``values`` against ``declared`` annotations.

    ``declared`` maps each parameter to its annotation (a type, a typing construct or papermill's
    ``inferred_type_name`` string). ``where`` names the source (``"in <file>"``) in the message,
    and ``lines`` the line of each parameter in it (``in <file>:<line>``).
    """
    def at(name: str) -> str:
        return f"{where}:{lines[name]}" if where and lines and name in lines else where

    not_names = [k for k in values if not isinstance(k, str)]
    if not_names:
        raise ParameterError(f"expected parameter names (text) {where}".rstrip() + f", got {shown(not_names[0])}; "
                             f"this notebook's parameters are: {', '.join(sorted(declared))}")
    unknown = [k for k in values if k not in declared]
    problems = []
    if unknown:
        problems.append(_unknown_message(unknown, list(declared), at(unknown[0]) if len(unknown) == 1 else where))
    for name, value in values.items():
        if name in declared:
            issue = type_problem(name, value, declared[name]) or member_problem(name, value) or _repeated(name, value)
            if issue:
                problems.append(issue + (f" {at(name)}" if where else ""))
    if not problems:  # domains and bounds only for values of the right types
        for name, value in values.items():
            issue = domain_problem(name, value, declared) if name in declared else None
            if issue:
                problems.append(issue + (f" {at(name)}" if where else ""))
        issue = components_problem(values) if "components" in declared else None
        if issue:
            problems.append(issue + (f" {at('components')}" if where else ""))
    if not problems:
        problems += [p + (f" {where}" if where else "") for p in size_problems(values, declared)]
    if problems:
        raise ParameterError("\n".join(problems))


def _injected_names(history: list[str] | None) -> list[str]:
    """Names assigned by the cells run between the parameters cell and the current cell."""
    if not history or len(history) < 2:
        return []
    names: list[str] = []
    for source in reversed(history[:-1]):  # history[-1] is the cell calling validate()
        try:
            body = ast.parse(source).body
        except SyntaxError:
            break
        if not body:
            continue
        if all(isinstance(stmt, ast.AnnAssign) for stmt in body):
            break  # the parameters cell itself
        if all(isinstance(stmt, ast.Assign) for stmt in body):
            for stmt in body:
                names.extend(t.id for t in stmt.targets if isinstance(t, ast.Name))
            continue
        break
    return names


def checkout_of(path: Path) -> Path | None:
    """The checkout of this project holding ``path`` (the nearest folder above it with
    ``helpers/paths.py`` and ``notebooks/``), or ``None``."""
    path = Path(path).resolve()
    for folder in (path, *path.parents):
        if (folder / "helpers" / "paths.py").is_file() and (folder / "notebooks").is_dir():
            return folder
    return None


def _running_from() -> tuple[Path, str] | None:
    """The checkout this kernel runs from, and how that is known: the runner's checkout, the
    notebook JupyterLab opened (``JPY_SESSION_NAME``) or the kernel's working directory (papermill,
    nbval and JupyterLab start it in the caller's or the notebook's folder)."""
    wanted = os.environ.get("SUBJEVAL_CHECKOUT")
    if wanted:
        return Path(wanted).resolve(), "the runner was started in the checkout"
    session = os.environ.get("JPY_SESSION_NAME", "")
    if session and os.path.isabs(session):
        found = checkout_of(Path(session).parent)
        if found is not None:
            return found, "the notebook open in Jupyter lies in the checkout"
    found = checkout_of(Path.cwd())
    if found is not None:
        return found, "the kernel runs in the checkout"
    return None


def check_checkout() -> None:
    """Refuse a kernel that imported ``helpers`` from another checkout than the one it runs from:
    two checkouts sharing one environment would otherwise read the other checkout's notebooks and
    write into its (committed) ``reports/``."""
    from ..paths import ROOT

    where = _running_from()
    if where is None:
        return  # started outside every checkout (papermill from another folder): nothing to compare
    checkout, how = where
    if checkout != ROOT.resolve():
        raise ParameterError(
            f"{how} {checkout}, but this kernel imported helpers from {ROOT}: two checkouts share one "
            f"environment, and this run would read that checkout's notebooks and write into its reports/. "
            f"Make this checkout's helpers importable (`pip install -e {checkout}`, or start Jupyter or "
            f"papermill with PYTHONPATH={checkout}), or run the notebook from {ROOT}")


def validate(namespace: dict) -> dict:
    """Validate a notebook's parameters in its ``globals()``; returns them as a dict.

    Raises :class:`ParameterError` naming every unknown parameter (with a close match) and every
    value whose type does not match its declaration in the parameters cell.
    """
    declared = dict(namespace.get("__annotations__", {}))
    if not declared:
        raise ParameterError("no annotated parameters found: call params.validate(globals()) from a "
                             "notebook whose parameters cell declares `name: type = value`")
    check_checkout()
    injected = [n for n in _injected_names(namespace.get("In"))
                if n not in _KERNEL_NAMES and not n.startswith("_")]
    values = {name: namespace[name] for name in declared if name in namespace}
    values.update({name: namespace[name] for name in injected if name not in declared and name in namespace})
    check_values(values, declared, where="(set by papermill's injected parameters)" if injected else "")
    result = {name: namespace[name] for name in declared if name in namespace}
    global _VALIDATED
    _VALIDATED = dict(result)
    return result


#: The parameters of the last :func:`validate` call in this process (the notebook's kernel):
#: :class:`helpers.notebook.reports.Reporter` reads them to choose the run's output folder.
_VALIDATED: dict | None = None


def last_validated() -> dict | None:
    """Parameter values of the last successful :func:`validate` in this process, or ``None``."""
    return None if _VALIDATED is None else dict(_VALIDATED)


def check_file_inputs(namespace: Mapping[str, Any], *, mode: bool, required: Sequence[str],
                      optional: Sequence[str] = (), switch: str) -> None:
    """File-input parameters of a notebook: all ``required`` set (and matching files) when ``mode``
    is on, none of ``required``/``optional`` set when it is off (a path that would be ignored is
    an error, not a silent no-op). ``switch`` names the setting that turns the mode on."""
    problems = []
    if mode:
        for name in required:
            if not namespace.get(name):
                problems.append(f"parameter {shown(name)} is empty; {switch} needs it")
        from ..io.readers import resolve_paths

        for name in [*required, *optional]:
            if namespace.get(name):
                try:
                    resolve_paths(namespace[name], what=name)
                except ValueError as exc:
                    problems.append(str(exc))
    else:
        for name in [*required, *optional]:
            if namespace.get(name):
                problems.append(f"parameter {shown(name)} = {shown(namespace[name])} is set but only read with {switch}")
    if problems:
        raise ParameterError("\n".join(problems))


# ---------------------------------------------------------------------------------------------
# Where a run's outputs go: canonical profiles keep their folder, every other run gets its own
# ---------------------------------------------------------------------------------------------

#: Folder names under the reports root that a run name may not take (they hold other outputs).
RESERVED_NAMES = {"figures", "tables", "metrics", "executed", "html", "book", "runs"}
#: Parameters that name a run rather than change it: left out of the comparison and the hash.
NAMING_PARAMETERS = ("run_name",)


def _parameters_cell(nb: dict, where: str) -> dict[str, Any]:
    """Name -> literal value of the ``parameters`` cell of a notebook (JSON already loaded)."""
    cells = [c for c in nb.get("cells", []) if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ParameterError(f"{where}: expected one cell tagged 'parameters', found {len(cells)}")
    src = cells[0].get("source", "")
    src = "".join(src) if isinstance(src, list) else src
    values = {}
    for stmt in ast.parse(src).body:
        if isinstance(stmt, (ast.AnnAssign, ast.Assign)) and stmt.value is not None:
            targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else stmt.targets
            for t in targets:
                if isinstance(t, ast.Name):
                    values[t.id] = ast.literal_eval(stmt.value)
    return values


def _committed_text(path: Path) -> str | None:
    """``path`` as committed at ``HEAD`` (``None`` without git, outside a repository or when the
    file is not committed)."""
    import subprocess

    try:
        done = subprocess.run(["git", "-C", str(path.parent), "show", f"HEAD:./{path.name}"],
                              capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def notebook_defaults(notebook: str, *, committed: bool = False) -> dict[str, Any]:
    """Default parameter values of ``notebooks/<notebook>.ipynb``: those of the committed version
    (git ``HEAD``) when ``committed`` and git knows the file, else those of the file on disk."""
    import json

    from ..paths import NOTEBOOKS

    path = NOTEBOOKS / f"{notebook}.ipynb"
    text = _committed_text(path) if committed else None
    source = f"{path.name} at git HEAD" if text is not None else path.name
    if text is None:
        text = path.read_text(encoding="utf-8")
    return _parameters_cell(json.loads(text), source)


def _same_path(a: Any, b: Any, base_a: Path, base_b: Path) -> bool:
    if not (isinstance(a, str) and isinstance(b, str)) or not a or not b:
        return a == b
    pa, pb = Path(os.path.expanduser(a)), Path(os.path.expanduser(b))
    pa = pa if pa.is_absolute() else base_a / pa
    pb = pb if pb.is_absolute() else base_b / pb
    return os.path.normpath(pa) == os.path.normpath(pb)


def canonical_values(notebook: str, profile: str, *, committed: bool = False) -> dict[str, Any] | None:
    """The parameter values a canonical run of ``profile`` gives ``notebook``: the notebook's
    defaults overlaid with ``params/<profile>/<notebook>.yaml``; ``None`` when ``profile`` is not
    a canonical profile of this notebook (``default`` or a folder under ``params/`` holding a file
    for it)."""
    from ..paths import PARAMS

    if not profile or not str(profile).replace("-", "").replace("_", "").isalnum():
        return None
    values = notebook_defaults(notebook, committed=committed)
    if profile == "default":
        return values
    file = PARAMS / profile / f"{notebook}.yaml"
    if not file.is_file():
        return None
    values.update(load_yaml(file) or {})
    values["profile"] = profile
    return values


def parameters_hash(values: Mapping[str, Any]) -> str:
    """Eight hex digits of SHA-256 over the sorted JSON of ``values`` (naming parameters left out)."""
    import hashlib
    import json

    kept = {k: v for k, v in values.items() if k not in NAMING_PARAMETERS}
    text = json.dumps(kept, sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def differing(values: Mapping[str, Any], canonical: Mapping[str, Any]) -> list[str]:
    """Names whose value in ``values`` is not the canonical one (paths compared as files:
    a relative path in ``values`` is read against the kernel's working directory, one in the
    profile against the checkout)."""
    from ..paths import ROOT

    out = []
    for name in sorted(set(values) | set(canonical)):
        if name in NAMING_PARAMETERS:
            continue
        a, b = values.get(name, None), canonical.get(name, None)
        if name.endswith(("_path", "_glob")):
            same = _same_path(a, b, Path.cwd(), ROOT)
        else:
            same = a == b and isinstance(a, bool) == isinstance(b, bool)
        if not same:
            out.append(name)
    return out


def run_folder(notebook: str, values: Mapping[str, Any], *, committed: bool | None = None) -> tuple[str, str]:
    """Where the outputs of a run of ``notebook`` with parameter ``values`` go, relative to the
    reports root, and why (one line for the notebook to print).

    * the run of a canonical profile (``default`` or a folder under ``params/``) with exactly that
      profile's values: ``""`` for ``default`` (``reports/``), ``<profile>`` otherwise
      (``reports/real/``...): the committed or reproducible results;
    * a named run (the ``run_name`` parameter, or ``SUBJEVAL_RUN_NAME``, which the runner sets for
      ``--params`` runs): ``<name>`` unless that names a profile or a reserved folder;
    * any other run (a parameter edited in JupyterLab, ``papermill -p``, a profile value changed):
      ``runs/<profile>-<hash of the values>``, so that it never overwrites another run's files.

    ``committed`` chooses the reference defaults: the notebook as committed (git ``HEAD``) or as
    on disk. By default the on-disk file when the project's runner started the kernel (it runs
    exactly that file, as ``make refresh`` must after a deliberate change of a default) and the
    committed one otherwise (JupyterLab may have autosaved an edited parameters cell).
    """
    profile = str(values.get("profile", "default") or "default")
    if committed is None:
        committed = os.environ.get("SUBJEVAL_CHECKOUT") is None
    canonical = canonical_values(notebook, profile, committed=committed)
    if canonical is not None:
        changed = differing(values, canonical)
        if not changed:
            return ("" if profile == "default" else profile), f"canonical {profile!r} run"
    else:
        changed = None
    name = str(values.get("run_name") or os.environ.get("SUBJEVAL_RUN_NAME") or "")
    if name:
        # compared case-folded: on a case-insensitive file system 'Real' is the folder of profile 'real'
        if not name.replace("-", "").replace("_", "").isalnum() or name.casefold() in RESERVED_NAMES:
            raise ParameterError(f"run name {shown(name)} is not usable: a simple name (letters, digits, - and _) "
                                 f"other than {', '.join(sorted(RESERVED_NAMES))} (in any case)")
        if name.casefold() != "default" and canonical_values(notebook, name.casefold(), committed=committed) is None:
            return name, f"named run {shown(name)}"
        # a name that is a profile of this project would mix this run into that profile's folder
    slug = profile if profile.replace("-", "").replace("_", "").isalnum() else "run"
    folder = f"runs/{slug}-{parameters_hash(values)}"
    why = (f"parameters differ from profile {profile!r}: {', '.join(changed)}" if changed
           else f"{profile!r} is not a profile of this notebook")
    return folder, why


def _strict_loader(path: Path):
    """A PyYAML SafeLoader that refuses what parameter files must not hold (see :func:`load_yaml`)
    and reads ``1e-3`` as the number it looks like (YAML 1.1 reads it as text)."""
    import yaml

    def refuse(node, expected: str, got: str) -> ValueError:
        return ValueError(f"{path}:{node.start_mark.line + 1}: expected {expected}, got {got}")

    class _Strict(yaml.SafeLoader):
        def compose_node(self, parent, index):   # noqa: ANN001 - PyYAML's signature
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent):
                raise ValueError(f"{path}:{event.start_mark.line + 1}: expected plain YAML values, got an alias "
                                 "(*name): anchors and aliases are not accepted in parameter files")
            if getattr(event, "tag", None) not in (None, "!"):   # !!int '5' too: nothing is built from a tag
                raise ValueError(f"{path}:{event.start_mark.line + 1}: expected plain YAML values, got the tag "
                                 f"{event.tag.replace('tag:yaml.org,2002:', '!!')} (not accepted in parameter files)")
            return super().compose_node(parent, index)

        def construct_mapping(self, node, deep=False):   # noqa: ANN001
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):   # '? [a, b]': a list as key
                    got = "a list" if isinstance(key_node, yaml.SequenceNode) else "a mapping"
                    raise ValueError(f"{path}:{line}: expected a name (plain text) as key, got {got} "
                                     "(a YAML complex key '? ...')")
                key = self.construct_object(key_node, deep=deep)
                if key in seen:
                    raise ValueError(f"{path}:{line}: expected each parameter once, got {shown(key)} again "
                                     f"(first on line {seen[key]})")
                seen[key] = line
            return super().construct_mapping(node, deep=deep)

        def strict_int(self, node):   # noqa: ANN001
            text = node.value.replace("_", "")
            if ":" in text:
                raise refuse(node, "a number", f"{shown(node.value)}, which YAML 1.1 reads as base 60 "
                             f"({yaml.SafeLoader.construct_yaml_int(self, node)}); quote it if it is text")
            if re.fullmatch(r"[-+]?0[0-9]+", text):
                raise refuse(node, "a decimal number without leading zeros", f"{shown(node.value)}, which YAML 1.1 "
                             f"reads as octal {yaml.SafeLoader.construct_yaml_int(self, node)}; write "
                             f"{int(text, 10)}, or quote it if it is text")
            return yaml.SafeLoader.construct_yaml_int(self, node)

        def strict_float(self, node):   # noqa: ANN001
            if ":" in node.value:
                raise refuse(node, "a number", f"{shown(node.value)}, which YAML 1.1 reads as base 60; quote it if it is text")
            return yaml.SafeLoader.construct_yaml_float(self, node)

        def strict_bool(self, node):   # noqa: ANN001
            if node.value.lower() not in ("true", "false"):
                raise refuse(node, "true or false", f"{shown(node.value)}, which YAML 1.1 reads as "
                             f"{yaml.SafeLoader.construct_yaml_bool(self, node)}; quote it if it is text")
            return yaml.SafeLoader.construct_yaml_bool(self, node)

    _Strict.add_constructor("tag:yaml.org,2002:int", _Strict.strict_int)
    _Strict.add_constructor("tag:yaml.org,2002:float", _Strict.strict_float)
    _Strict.add_constructor("tag:yaml.org,2002:bool", _Strict.strict_bool)
    # 1e-3, 2E5: numbers (YAML 1.2, Python); YAML 1.1 wants a dot and a signed exponent
    _Strict.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(r"^[-+]?[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]+$"),
                                  list("-+0123456789"))
    return _Strict


def load_yaml(path: Path) -> Any:
    """A parameter file's YAML, read strictly: UTF-8 only, no duplicate key (the last one would win
    silently), no anchors or aliases (a few hundred bytes of nested aliases expand to gigabytes),
    no number YAML 1.1 reads otherwise than it looks (``017`` is octal 15, ``1:30`` is 90) and no
    boolean spelled ``yes``/``no``/``on``/``off`` (write ``true``/``false``); ``1e-3`` is a number.
    Every refusal names the file and, where YAML knows it, the line."""
    import yaml

    _Strict = _strict_loader(path)
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: expected UTF-8 text, got byte {exc.object[exc.start]:#04x} at offset "
                         f"{exc.start}") from None
    try:
        return yaml.load(text, Loader=_Strict)   # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise ValueError(_yaml_problem(path, exc)) from None
    except RecursionError:   # PyYAML's parser recurses once per level of nesting
        raise ValueError(f"{path}: expected plain YAML values, got lists or mappings nested too deeply "
                         "(thousands of levels)") from None


def parameter_lines(path: Path) -> dict[str, int]:
    """Line (1-based) of each top-level name of a parameter file that :func:`load_yaml` reads as a
    mapping (empty when it is not one), for messages that name ``file:line``."""
    import yaml

    text = Path(path).read_bytes().decode("utf-8")
    node = yaml.compose(text, Loader=_strict_loader(path))
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {key.value: key.start_mark.line + 1 for key, _ in node.value if isinstance(key, yaml.ScalarNode)}


def _yaml_problem(path: Path, exc: Exception) -> str:
    """One line for a YAML error: ``file:line: expected ..., got ...`` (PyYAML's own message spans
    several lines with a caret drawing)."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
    problem = str(getattr(exc, "problem", None) or str(exc).splitlines()[0])
    tag = re.search(r"constructor for the tag '([^']*)'", problem)
    if tag and tag.group(1).endswith(":merge"):
        return f"{where}: expected plain YAML values, got a merge key '<<' (not accepted in parameter files)"
    if tag:
        name = tag.group(1).replace("tag:yaml.org,2002:", "!!")
        return f"{where}: expected plain YAML values, got the tag {name} (not accepted in parameter files)"
    context = getattr(exc, "context", None)
    if "single document" in f"{problem} {context}":
        return f"{where}: expected one YAML document, got a second one ('---')"
    return f"{where}: expected YAML, got a syntax error: {problem}" + (f" ({context})" if context else "")
