"""Notebook hygiene: anatomy, parameters, execution counts, links, paths, parameter files."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import papermill as pm
import pytest
import yaml

from helpers import paths
from helpers.notebook import pipeline

NOTEBOOKS = pipeline.discover()
PROFILES = sorted(p.name for p in paths.PARAMS.iterdir() if p.is_dir())
ABSOLUTE_PATH = re.compile(r"(?<![\w.~])/(?:home|root|Users|work|tmp|mnt|opt)/[\w.-]+|[A-Z]:\\\\[\w]")


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


#: nbval modes a cell can ask for: as a cell tag (preferred, tools/polish_notebooks.py) or as a
#: visible first-line comment (the older form, accepted during the transition).
NBVAL_TAGS = {"nbval-check-output": "check", "nbval-ignore-output": "ignore"}
NBVAL_COMMENTS = {"# NBVAL_CHECK_OUTPUT": "check", "# NBVAL_IGNORE_OUTPUT": "ignore"}


def nbval_mode(cell) -> str | None:
    """``"check"``, ``"ignore"`` or ``None``; a cell whose tag and comment disagree is an error."""
    tags = {NBVAL_TAGS[t] for t in cell.get("metadata", {}).get("tags", []) if t in NBVAL_TAGS}
    first = _source(cell).split("\n", 1)[0].strip()
    comments = {NBVAL_COMMENTS[first]} if first in NBVAL_COMMENTS else set()
    modes = tags | comments
    assert len(modes) <= 1, f"cell {cell.get('id')}: conflicting nbval markers {sorted(modes)}"
    return next(iter(modes), None)


def test_there_are_notebooks():
    assert [nb.stem[:2] for nb in NOTEBOOKS][:1] == ["01"]
    stems = [nb.stem[:2] for nb in NOTEBOOKS]
    assert len(stems) == len(set(stems)), "two notebooks share a number"


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.stem)
def nb(request):
    return request.param, _load(request.param)


def test_kernel_is_python3(nb):
    path, data = nb
    assert data["metadata"]["kernelspec"]["name"] == "python3", path.name


def test_exactly_one_parameters_cell_with_documented_literals(nb):
    path, data = nb
    tagged = [c for c in data["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, f"{path.name}: {len(tagged)} cells tagged 'parameters'"
    lines = [ln for ln in _source(tagged[0]).splitlines() if ln.strip()]
    names = []
    for k, line in enumerate(lines):
        if k and re.fullmatch(r" +# \S.*", line):
            continue  # the help of the line above, wrapped (tools/polish_notebooks.py)
        m = re.fullmatch(r"(\w+): (\w+) = (.+?)  # (.+)", line)
        assert m, f"{path.name}: parameter line not of the form 'name: type = value  # help': {line!r}"
        ast.literal_eval(m.group(3))  # literals only
        names.append(m.group(1))
    assert "profile" in names and "seed" in names, f"{path.name}: needs 'profile' and 'seed' parameters"


def test_papermill_documents_every_parameter(nb):
    path, _ = nb
    params = pm.inspect_notebook(str(path))
    assert params, path.name
    for name, info in params.items():
        assert info["help"].strip(), f"{path.name}: parameter {name} has no help text"
        assert info["inferred_type_name"] != "None", f"{path.name}: parameter {name} has no type"


def test_executed_in_order_without_errors(nb):
    path, data = nb
    code = [c for c in data["cells"] if c["cell_type"] == "code"]
    counts = [c.get("execution_count") for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: execution counts {counts}; run `make refresh`"
    errors = [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: error outputs"
    assert not any("injected-parameters" in c.get("metadata", {}).get("tags", []) for c in data["cells"])
    assert "papermill" not in data["metadata"], f"{path.name}: volatile papermill metadata"


def test_anatomy(nb):
    path, data = nb
    first = data["cells"][0]
    assert first["cell_type"] == "markdown"
    assert _source(first).startswith(f"# {path.stem[:2]} · "), f"{path.name}: first cell must be '# NN · Title'"
    for word in ("**Inputs**", "**Outputs**", "**Runtime**"):
        assert word in _source(first), f"{path.name}: intro lacks {word}"
    last = data["cells"][-1]
    assert last["cell_type"] == "code" and nbval_mode(last) == "ignore", \
        f"{path.name}: the last cell (environment report) must be tagged nbval-ignore-output"
    checked = [c for c in data["cells"] if c["cell_type"] == "code" and nbval_mode(c) == "check"]
    assert checked, f"{path.name}: no cell tagged nbval-check-output, nbval would be vacuous"
    for c in checked:
        assert c.get("outputs"), f"{path.name}: a checked cell has no stored output"
        assert not any(o.get("output_type") == "execute_result" for o in c["outputs"]), \
            f"{path.name}: checked cells must print, not end on a bare expression"
    for c in data["cells"]:
        if c["cell_type"] == "code":
            assert "import *" not in _source(c), f"{path.name}: star import"


def test_no_absolute_paths(nb):
    path, data = nb
    for c in data["cells"]:
        texts = [_source(c)]
        for o in c.get("outputs", []):
            texts.append("".join(o.get("text", "")))
            texts.append("".join(o.get("data", {}).get("text/plain", "")))
        for text in texts:
            hit = ABSOLUTE_PATH.search(text)
            assert not hit, f"{path.name}: absolute path {hit.group(0)!r}"


def test_markdown_links_resolve(nb):
    path, data = nb
    for c in data["cells"]:
        if c["cell_type"] != "markdown":
            continue
        for target in re.findall(r"\]\(([^)#\s]+)", _source(c)):
            if re.match(r"[a-z]+://", target):
                continue
            assert (path.parent / target).exists(), f"{path.name}: broken link {target}"


@pytest.mark.parametrize("profile", PROFILES)
def test_parameter_files_match_notebook_parameters(profile):
    files = sorted((paths.PARAMS / profile).glob("*.yaml"))
    assert files, f"params/{profile}/ is empty"
    for file in files:
        nb_path = paths.NOTEBOOKS / f"{file.stem}.ipynb"
        assert nb_path.exists(), f"{file.relative_to(paths.ROOT)} names no notebook"
        declared = set(pm.inspect_notebook(str(nb_path)))
        given = yaml.safe_load(file.read_text()) or {}
        unknown = set(given) - declared
        assert not unknown, f"{file.relative_to(paths.ROOT)}: unknown parameters {sorted(unknown)}"
        if profile == "examples":
            # the folder users copy for their own data: no 'profile:' line, the folder's name names the run
            assert "profile" not in given, f"{file.relative_to(paths.ROOT)}: a copied 'profile:' line would stop the copy"
        else:
            assert given.get("profile") == profile, f"{file.relative_to(paths.ROOT)}: 'profile: {profile}' missing"


def test_every_notebook_has_a_ci_profile():
    for nb_path in NOTEBOOKS:
        assert (paths.PARAMS / "ci" / f"{nb_path.stem}.yaml").exists(), f"no params/ci/{nb_path.stem}.yaml"


def test_readme_links_resolve():
    for doc in [paths.ROOT / "README.md", paths.ROOT / "data" / "README.md"]:
        for target in re.findall(r"\]\(([^)#\s]+)", doc.read_text(encoding="utf-8")):
            if not re.match(r"[a-z]+://", target):
                assert (doc.parent / target).exists(), f"{doc.name}: broken link {target}"
