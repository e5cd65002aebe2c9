"""The package's architecture, checked: layers, no import circle, no private names across modules,
short modules and functions, and the old import paths of moved modules.

The layers (README, "Architecture"), bottom to top; a module imports only from its own room or
from lower layers (lazy imports inside functions count too):

    0  helpers (the package root: ``optional``), helpers.paths
    1  helpers.io
    2  helpers.data
    3  helpers.stats, helpers.measures   (two rooms on one floor: neither imports the other)
    4  the analyses: helpers.gains, .simulate, .unanimity, .prm, .preference, .thuir, .design
    5  helpers.replicates
    6  helpers.notebook
    7  helpers.findings   (each notebook's findings records, worded through helpers.notebook.claims)
    8  helpers.__main__
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import helpers
from helpers import paths

#: helpers.MOVED (old path under the package -> new path) as full module names under `helpers`.
MOVED = {f"helpers.{old}": f"helpers.{new}" for old, new in helpers.MOVED.items()}

PACKAGE = paths.ROOT / "helpers"

#: room -> floor; a module's room is the longest prefix listed here
ROOMS = {
    "helpers": 0, "helpers.paths": 0,
    "helpers.io": 1,
    "helpers.data": 2,
    "helpers.stats": 3, "helpers.measures": 3,
    "helpers.gains": 4, "helpers.simulate": 4, "helpers.unanimity": 4, "helpers.prm": 4,
    "helpers.preference": 4, "helpers.thuir": 4, "helpers.design": 4,
    "helpers.replicates": 5,
    "helpers.notebook": 6,
    "helpers.findings": 7,
    "helpers.__main__": 8,
}
#: floors whose rooms may import each other (the analyses build on one another, acyclically)
OPEN_FLOORS = {4}

MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80
#: functions allowed to be longer, each with the reason (none today)
LONG_FUNCTIONS: dict[str, str] = {}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(paths.ROOT).with_suffix("").parts).removesuffix(".__init__")


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _room(module: str) -> str:
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in ROOMS:
            return prefix
    raise AssertionError(f"{module} is in no room of ROOMS: add it to the layer table (and the README)")


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not MODULES[module].name == "__init__.py":
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[str, int, dict[str, str]]]:
    """(imported helpers module, line, {local alias: module}) of every import statement."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = _resolve(module, node)
            if not src.startswith("helpers"):
                continue
            for alias in node.names:
                full = f"{src}.{alias.name}"
                target = full if full in MODULES or full in MOVED else src
                out.append((MOVED.get(target, target), node.lineno,
                            {alias.asname or alias.name: MOVED.get(full, full)}
                            if target == full else {}))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("helpers"):
                    name = MOVED.get(alias.name, alias.name)
                    out.append((name, node.lineno, {alias.asname: name} if alias.asname else {}))
    return out


def test_every_module_has_a_room():
    for module in MODULES:
        _room(module)


def test_imports_point_down():
    wrong = []
    for module in MODULES:
        room = _room(module)
        for target, line, _ in _imports(module):
            if target not in MODULES:
                wrong.append(f"{module}:{line} imports {target}, which is not a module of helpers")
                continue
            troom = _room(target)
            if troom == room or troom == "helpers":
                continue
            if ROOMS[troom] > ROOMS[room] or (ROOMS[troom] == ROOMS[room] and ROOMS[room] not in OPEN_FLOORS):
                wrong.append(f"{module}:{line} (floor {ROOMS[room]}) imports {target} (floor {ROOMS[troom]})")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_no_import_circle():
    graph = {m: {t for t, _, _ in _imports(m) if t in MODULES and t != m} for m in MODULES}
    cycles, state = [], {}

    def visit(m, stack):
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                cycles.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert not cycles, "import circles:\n" + "\n".join(cycles)


def test_no_private_name_across_modules():
    wrong = []
    for module in MODULES:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _resolve(module, node).startswith("helpers"):
                src = MOVED.get(_resolve(module, node), _resolve(module, node))
                for alias in node.names:
                    if alias.name.startswith("_") and src != module:
                        wrong.append(f"{module}:{node.lineno} imports {src}.{alias.name}")
        for _, _, names in _imports(module):
            aliases.update(names)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__") and aliases[node.value.id] != module):
                wrong.append(f"{module}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
    assert not wrong, "private names used across modules:\n" + "\n".join(wrong)


def test_modules_are_short():
    long = {m: n for m, p in MODULES.items()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def _function_lengths():
    """Lines of code of every function, the docstring not counted (first statement to last line)."""
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def walk(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = f"{prefix}{child.name}"
                    if not isinstance(child, ast.ClassDef):
                        body = child.body
                        first = body[0]
                        if (len(body) > 1 and isinstance(first, ast.Expr)
                                and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
                            first = body[1]
                        yield f"{module}.{name}", child.end_lineno - first.lineno + 1
                    yield from walk(child, f"{name}.")

        yield from walk(tree, "")


def test_functions_are_short():
    long = {f: n for f, n in _function_lengths() if n > MAX_FUNCTION_LINES and f not in LONG_FUNCTIONS}
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines of code (docstring not counted): {long}"


def test_the_length_rule_can_fail():
    lengths = dict(_function_lengths())
    assert lengths["helpers.io.files.umask"] > 5
    assert max(lengths.values()) > 40  # the measure is not vacuous


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_import_paths_give_the_moved_module(old):
    new = importlib.import_module(MOVED[old])
    assert importlib.import_module(old) is new
    parent, _, name = old.rpartition(".")
    assert getattr(importlib.import_module(parent), name) is new
    assert new.__spec__.name == MOVED[old]  # the module still says where it lives


def test_old_from_imports_work_in_a_fresh_interpreter():
    code = ("from helpers import datasets, readers, sweep, collections, measure_names, reports\n"
            "from helpers.trec_io import read_run\n"
            "import helpers.diversity\n"
            "from helpers import measures\n"
            "assert measures.evaluate and sweep.run_replicates and read_run and helpers.diversity.evaluate\n"
            "assert datasets.__name__ == 'helpers.data.datasets'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=paths.ROOT)


def test_no_tracker_numbers_in_the_package():
    """A reader of the package cannot follow "issue 17": say what the thing is, not which ticket."""
    import re

    hits = [f"{m}:{i}" for m, p in MODULES.items()
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"\b[Ii]ssues? \d+", line)]
    assert not hits, f"tracker numbers in helpers/: {hits}"
