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
* when the runner started the kernel (``SUBJEVAL_CHECKOUT`` set), the ``helpers`` package the
  kernel imported must be the one of that checkout — two checkouts sharing one environment would
  otherwise import (and write reports into) the other checkout.

:func:`check_values` applies the same rules to a mapping of values against the declarations that
``papermill.inspect_notebook`` reads, so the runner refuses a bad parameter file before it starts a
kernel.
"""

from __future__ import annotations

import ast
import difflib
import math
import os
import types
import typing
from pathlib import Path
from typing import Any, Mapping, Sequence

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
        return None if allow_none else (f"parameter {name!r} is None (null); expected "
                                        f"{_type_label(annotation)}")
    ok = False
    for kind in kinds:
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            if ok and isinstance(value, float) and not math.isfinite(value):
                return f"parameter {name!r} = {value!r} is not a finite number"
        else:
            ok = isinstance(value, kind)
        if ok:
            break
    if ok:
        return None
    return (f"parameter {name!r} = {value!r} has type {type(value).__name__}; expected "
            f"{_type_label(annotation)}")


def _unknown_message(names: list[str], declared: list[str], where: str) -> str:
    lines = []
    for name in names:
        close = difflib.get_close_matches(name, declared, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        lines.append(f"unknown parameter {name!r}{hint} {where}")
    lines.append(f"this notebook's parameters are: {', '.join(sorted(declared))}")
    return "\n".join(lines)


def check_values(values: Mapping[str, Any], declared: Mapping[str, Any], *, where: str = "") -> None:
    """Refuse unknown names and ill-typed values of ``values`` against ``declared`` annotations.

    ``declared`` maps each parameter to its annotation (a type, a typing construct or papermill's
    ``inferred_type_name`` string). ``where`` names the source (a parameter file) in the message.
    """
    unknown = [k for k in values if k not in declared]
    problems = []
    if unknown:
        problems.append(_unknown_message(unknown, list(declared), where))
    for name, value in values.items():
        if name in declared:
            issue = type_problem(name, value, declared[name])
            if issue:
                problems.append(issue + (f" {where}" if where else ""))
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


def check_checkout() -> None:
    """Refuse a kernel that imported ``helpers`` from another checkout than the runner's."""
    wanted = os.environ.get("SUBJEVAL_CHECKOUT")
    if not wanted:
        return
    from helpers.paths import ROOT

    if Path(wanted).resolve() != ROOT.resolve():
        raise ParameterError(
            f"this kernel imported helpers from {ROOT}, but the runner was started in the checkout "
            f"{wanted}; two checkouts share one environment. Run `pip install -e .` in the checkout "
            f"you use, or start the runner from {ROOT}")


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
    return {name: namespace[name] for name in declared if name in namespace}


def check_file_inputs(namespace: Mapping[str, Any], *, mode: bool, required: Sequence[str],
                      optional: Sequence[str] = (), switch: str) -> None:
    """File-input parameters of a notebook: all ``required`` set (and matching files) when ``mode``
    is on, none of ``required``/``optional`` set when it is off (a path that would be ignored is
    an error, not a silent no-op). ``switch`` names the setting that turns the mode on."""
    problems = []
    if mode:
        for name in required:
            if not namespace.get(name):
                problems.append(f"parameter {name!r} is empty; {switch} needs it")
        from helpers.readers import resolve_paths

        for name in [*required, *optional]:
            if namespace.get(name):
                try:
                    resolve_paths(namespace[name], what=name)
                except ValueError as exc:
                    problems.append(str(exc))
    else:
        for name in [*required, *optional]:
            if namespace.get(name):
                problems.append(f"parameter {name!r} = {namespace[name]!r} is set but only read with {switch}")
    if problems:
        raise ParameterError("\n".join(problems))
