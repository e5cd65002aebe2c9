"""Strict notebook parameters (helpers.notebook.params) under plain papermill and the project's runner."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import nbformat
import papermill as pm
import pytest
import yaml

from helpers import paths
from helpers.notebook import params, pipeline


def _notebook(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.cells = [
        nbformat.v4.new_code_cell("from helpers import params"),
        nbformat.v4.new_code_cell('seed: int = 5  # seed\nrate: float = 0.5  # a rate\n'
                                  'name: str = "x"  # a name\nflags: list = [1]  # a list\n'
                                  'limit: int | None = None  # optional', metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("checked = params.validate(globals())\nprint(sorted(checked.items()))"),
    ]
    path = tmp_path / "demo.ipynb"
    nbformat.write(nb, str(path))
    return path


def _run(path, tmp_path, **parameters):
    env_before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(paths.ROOT) + (os.pathsep + env_before if env_before else "")
    try:
        return pm.execute_notebook(str(path), str(tmp_path / "out.ipynb"), parameters=parameters or None,
                                   kernel_name="python3", progress_bar=False, cwd=str(tmp_path))
    finally:
        if env_before is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = env_before

def _stops_before_any_kernel(tmp_path, monkeypatch, name, text, message, error=params.ParameterError):
    """A parameter file ``mine/<name>`` holding ``text`` stops the runner with ``error`` matching
    ``message`` before anything is written."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / name).write_text(text)
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    with pytest.raises(error, match=message):
        pipeline.run(params=tmp_path / "mine", html=False)
    assert not (tmp_path / "out").exists()



def test_plain_papermill_accepts_declared_parameters(tmp_path):
    nb = _run(_notebook(tmp_path), tmp_path, seed=7, rate=1, limit=3)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert "('seed', 7)" in text and "('rate', 1)" in text and "('limit', 3)" in text


@pytest.mark.parametrize("parameters,message", [
    ({"seeed": 5}, r"unknown parameter 'seeed' \(did you mean 'seed'\?\)"),
    ({"seed": None}, r"parameter 'seed' is None \(null\); expected int"),
    ({"seed": "5"}, r"parameter 'seed' = '5' has type str; expected int"),
    ({"seed": True}, r"parameter 'seed' = True has type bool; expected int"),
    ({"rate": "high"}, r"parameter 'rate' = 'high' has type str; expected float"),
    ({"flags": 3}, r"parameter 'flags' = 3 has type int; expected list"),
])
def test_plain_papermill_refuses_unknown_and_ill_typed(tmp_path, parameters, message):
    with pytest.raises(pm.PapermillExecutionError, match=message):
        _run(_notebook(tmp_path), tmp_path, **parameters)


def test_check_values_lists_every_problem():
    declared = {"seed": "int", "p": "float", "tags": "list", "opt": "int | None"}
    with pytest.raises(params.ParameterError) as err:
        params.check_values({"sed": 1, "p": "x", "opt": None}, declared, where="in f.yaml")
    text = str(err.value)
    assert "unknown parameter 'sed' (did you mean 'seed'?) in f.yaml" in text
    assert "parameter 'p' = 'x' has type str; expected float in f.yaml" in text
    assert "this notebook's parameters are: opt, p, seed, tags" in text
    params.check_values({"p": 1, "opt": None, "seed": 3}, declared)  # int for float, None where allowed
    with pytest.raises(params.ParameterError, match="not a finite number"):
        params.check_values({"p": float("nan")}, declared)


def test_validate_outside_a_parameters_notebook_is_refused():
    with pytest.raises(params.ParameterError, match="no annotated parameters"):
        params.validate({})


def test_foreign_checkout_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(tmp_path))
    with pytest.raises(params.ParameterError, match="two checkouts share one environment"):
        params.validate({"__annotations__": {"seed": int}, "seed": 1})
    monkeypatch.setenv("SUBJEVAL_CHECKOUT", str(paths.ROOT))
    assert params.validate({"__annotations__": {"seed": int}, "seed": 1}) == {"seed": 1}


def test_every_committed_parameter_file_is_valid():
    for profile in pipeline.profiles():
        for nb in pipeline.discover():
            if profile == "default" or pipeline.params_file(nb, profile).exists():
                assert isinstance(pipeline.load_parameters(nb, profile), dict)


def test_runner_refuses_misspelled_parameter_file(tmp_path, monkeypatch):
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "01_gain_definitions.yaml").write_text("seeed: 5\n")
    monkeypatch.setattr(pipeline, "PARAMS", tmp_path)
    monkeypatch.setattr(pipeline, "ROOT", tmp_path)
    with pytest.raises(params.ParameterError, match="unknown parameter 'seeed'"):
        pipeline.load_parameters(paths.NOTEBOOKS / "01_gain_definitions.ipynb", "ci")
    (tmp_path / "ci" / "01_gain_definitions.yaml").write_text("seed: null\n")
    with pytest.raises(params.ParameterError, match="'seed' is None"):
        pipeline.load_parameters(paths.NOTEBOOKS / "01_gain_definitions.ipynb", "ci")
    (tmp_path / "ci" / "01_gain_definitions.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ValueError, match="expected a mapping"):
        pipeline.load_parameters(paths.NOTEBOOKS / "01_gain_definitions.ipynb", "ci")


def test_unknown_profile_stops_the_runner(capsys):
    assert pipeline.main(["run", "--profile", "rael"]) == 2
    assert "unknown profile 'rael' (did you mean 'real'?)" in capsys.readouterr().err


def test_make_reproduce_with_unknown_profile_fails():
    import subprocess

    done = subprocess.run(["make", "-s", "reproduce", "PROFILE=rael", f"PY={sys.executable}"],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode != 0 and "unknown profile 'rael'" in done.stderr


def test_executed_notebooks_are_byte_identical(tmp_path, monkeypatch):
    nb = _notebook(tmp_path)
    blobs = []
    for k in range(2):
        out = tmp_path / f"run{k}" / "demo.ipynb"
        pipeline.execute(nb, {"seed": 9}, out)
        blobs.append(out.read_bytes())
    assert blobs[0] == blobs[1]
    meta = json.loads(blobs[0])["metadata"]["papermill"]
    assert meta["parameters"] == {"seed": 9} and "start_time" not in meta and "input_path" not in meta


def test_runner_params_folder_runs_users_files(tmp_path, monkeypatch, capsys):
    """`run --params DIR` takes the user's NN_*.yaml, resolves relative paths against the caller's
    working directory and writes under reports/<folder name>/; a file naming no notebook stops it."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "01_tiny.yaml").write_text("seed: 5\nn_items: 200\nd_max_list: [2]\nn_list: [5]\n")
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    monkeypatch.chdir(tmp_path)
    results = pipeline.run(only=["01"], html=False, params="mine")
    assert results == [("01_gain_definitions", "ok", results[0][2])]
    assert (tmp_path / "out" / "mine" / "metrics" / "01_gain_definitions.json").exists()
    (folder / "notes.yaml").write_text("seed: 1\n")
    assert pipeline.main(["run", "--params", "mine", "01"]) == 2
    assert "expected a file named after a notebook" in capsys.readouterr().err


def test_the_readme_recipe_a_copy_of_the_examples_under_another_name(tmp_path, monkeypatch):
    """README 'Run on your own data', steps 1-3: a copied params/examples/ folder is accepted as it is."""
    mine = tmp_path / "my-params"
    shutil.copytree(paths.ROOT / "params" / "examples", mine)
    monkeypatch.chdir(paths.ROOT)
    books = pipeline.discover()
    files = pipeline.parameter_files(mine, books)
    assert len(files) == len(books)
    for nb, f in files.items():
        assert pipeline.read_parameter_file(f, nb, pipeline.output_name(mine, None))["profile"] == "my-params"


def test_a_params_folder_runs_what_it_holds_and_goes_on_past_a_failure(tmp_path, monkeypatch):
    folder = tmp_path / "two"
    folder.mkdir()
    (folder / "01_broken.yaml").write_text("n_items: 50\n")   # the runner's domain (>= 1) takes it, 01's cell not
    ci = (paths.ROOT / "params" / "ci" / "03_prm_estimation.yaml").read_text()
    (folder / "03_small.yaml").write_text(ci.replace("profile: ci\n", ""))
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    results = pipeline.run(html=False, params="two", stream=out)
    assert [(stem, status) for stem, status, _ in results] == [("01_gain_definitions", "failed"),
                                                             ("03_prm_estimation", "ok")]
    text = out.getvalue()
    assert "profile 'two': 2 notebook(s)" in text                          # the folder's two, not all five
    assert "n_items must be at least 100 for stable shares, got 50" in text
    assert "profile 'two': 1 of 2 notebook(s) ok; FAILED: 01_gain_definitions" in text
    assert pipeline.main(["run", "--params", "two", "--no-html", "01"]) == 1


def test_path_parameters_resolve_against_the_callers_directory(tmp_path):
    got = pipeline.resolve_paths({"qrels_path": "data/q.txt", "runs_glob": "/abs/*.run", "seed": 1,
                                  "ratings_path": ""}, cwd=tmp_path)
    assert got == {"qrels_path": str(tmp_path / "data/q.txt"), "runs_glob": "/abs/*.run", "seed": 1,
                   "ratings_path": ""}


def test_params_file_must_be_yaml_mapping_for_a_known_notebook(tmp_path):
    bad = tmp_path / "03_x.yaml"
    bad.write_text("seed: [1\n")
    with pytest.raises(ValueError, match="03_x.yaml:2: expected YAML"):
        pipeline.run(params=bad, html=False)
    two = tmp_path / "two"
    two.mkdir()
    (two / "01_a.yaml").write_text("seed: 1\n")
    (two / "01_b.yaml").write_text("seed: 2\n")
    with pytest.raises(ValueError, match="two parameter files for 01_gain_definitions"):
        pipeline.run(params=two, html=False)


@pytest.mark.parametrize("text, message", [
    (b"seed: 1\nB: 500\nseed: 2\n", r"01_gain_definitions.yaml:3: expected each parameter once, got 'seed' again \(first on line 1\)"),
    # a YAML "billion laughs": 9 levels of 9 aliases would expand to 9^9 list items
    (b"a: &a [0, 0, 0, 0, 0, 0, 0, 0, 0]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nn_list: [*b, *b]\n",
     r"01_gain_definitions.yaml:2: expected plain YAML values, got an alias"),
    (b"seed: 5\nnote: caf\xe9\n", r"01_gain_definitions.yaml: expected UTF-8 text, got byte 0xe9"),
    # one line, with the line number, for what PyYAML reports over several lines with a caret drawing
    (b"n_list: [5, 10]\n<<: {seed: 1}\n", r"01_gain_definitions.yaml:2: expected plain YAML values, got a merge key"),
    (b"seed: !!python/object/apply:os.getcwd []\n",
     r"01_gain_definitions.yaml:1: expected plain YAML values, got the tag !!python/object/apply:os.getcwd"),
    (b"seed: 1\n---\nseed: 2\n", r"01_gain_definitions.yaml:2: expected one YAML document, got a second one"),
    (b"seed: [1\n", r"01_gain_definitions.yaml:2: expected YAML, got a syntax error: expected ',' or ']'"),
    # numbers and booleans that YAML 1.1 reads otherwise than they look
    (b"seed: 1\nn_items: 020000\n", r"01_gain_definitions.yaml:2: expected a decimal number without leading zeros, "
                                      r"got '020000', which YAML 1.1 reads as octal 8192; write 20000"),
    (b"n_list: [5, 1:20]\n", r"01_gain_definitions.yaml:1: expected a number, got '1:20', which YAML 1.1 reads as base 60 \(80\)"),
    (b"p: 0:12.5\n", r"01_gain_definitions.yaml:1: expected a number, got '0:12.5', which YAML 1.1 reads as base 60"),
    (b"real_datasets: []\nseed: 1\nratings_layout: off\n",
     r"01_gain_definitions.yaml:3: expected true or false, got 'off', which YAML 1.1 reads as False"),
    (b"n_items: 08000\n", r"parameter 'n_items' = '08000' has type str; expected int \(the file holds it as text: "
                          r"write it as a plain number, e.g. 8000\)"),
])
def test_parameter_files_are_read_strictly(tmp_path, monkeypatch, text, message):
    """Nothing a parameter file says is read silently otherwise than it looks."""
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "01_gain_definitions.yaml").write_bytes(text)
    monkeypatch.setattr(pipeline, "PARAMS", tmp_path)
    monkeypatch.setattr(pipeline, "ROOT", tmp_path)
    with pytest.raises(ValueError, match=message):
        pipeline.load_parameters(paths.NOTEBOOKS / "01_gain_definitions.ipynb", "ci")


def test_a_params_folder_that_does_not_exist_is_named(tmp_path, capsys):
    assert pipeline.main(["run", "--params", str(tmp_path / "nonexistent")]) == 2
    err = capsys.readouterr().err
    assert f"--params {tmp_path / 'nonexistent'}: no such file or folder" in err and "output name" not in err


def test_a_read_only_reports_folder_stops_before_any_kernel_and_claims_no_copy(tmp_path, monkeypatch, capsys):
    """A read-only checkout (or SUBJEVAL_REPORTS_DIR): one message, exit 2, no executed copy claimed.
    As root permissions do not stop writes, so the refusal is simulated there."""
    reports = tmp_path / "reports"
    reports.mkdir()
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(reports))
    if os.geteuid() == 0:
        from helpers.notebook import outputs

        def refuse(root, label):
            raise PermissionError(13, "Permission denied", str(root))
        monkeypatch.setattr(outputs.Staging, "create", staticmethod(refuse))
    else:
        reports.chmod(0o555)
    try:
        assert pipeline.main(["run", "--profile", "ci", "01"]) == 2
    finally:
        reports.chmod(0o755)
    captured = capsys.readouterr()
    assert "cannot write outputs under" in captured.err and "Permission denied" in captured.err
    assert "executed copy" not in captured.out + captured.err and "[1/1]" not in captured.out


@pytest.mark.parametrize("values,message", [
    ({"n_items": 10**13}, r"parameter 'n_items' = 10000000000000 is above its upper bound 1,000,000"),
    ({"n_list": [5, 10**9]}, r"parameter 'n_list' = \[5, 1000000000\] \(largest 1000000000\) is above its upper bound 1,000"),
    ({"replicates": 10**6}, r"'replicates' = 1000000 is above its upper bound 10,000"),
    ({"n_items": 900_000, "n_list": [5, 900]}, r"n_items x n_list = 900,000 x 900 = 810,000,000 is above the budget"),
    ({"n_items": 400_000, "n_list": [80]}, r"n_items x n_list = 400,000 x 80 = 32,000,000 is above the budget 30,000,000"),
])
def test_size_parameters_have_upper_bounds_named_in_the_message(tmp_path, monkeypatch, values, message):
    declared = pipeline.declared_parameters(paths.NOTEBOOKS / "01_gain_definitions.ipynb")
    full = {**params.notebook_defaults("01_gain_definitions"), **values}
    with pytest.raises(params.ParameterError, match=message):
        params.check_values(full, declared)
    # the runner refuses the parameter file before a kernel starts
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "01_big.yaml").write_text(yaml.safe_dump(values))
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    with pytest.raises(params.ParameterError, match=message):
        pipeline.run(params=tmp_path / "big", html=False)
    assert not (tmp_path / "out").exists()


def test_size_bounds_hold_in_the_kernel_too(tmp_path):
    """Plain papermill (no runner): the validation cell refuses the size before any work."""
    with pytest.raises(pm.PapermillExecutionError, match="'n_items' = 10000000000000 is above its upper bound"):
        pm.execute_notebook(str(paths.NOTEBOOKS / "01_gain_definitions.ipynb"), str(tmp_path / "o.ipynb"),
                            parameters={"n_items": 10**13}, kernel_name="python3", progress_bar=False,
                            cwd=str(paths.NOTEBOOKS))


def test_the_paper_profile_is_within_every_bound():
    for nb in pipeline.discover():
        values = {**params.notebook_defaults(nb.stem), **(pipeline.load_parameters(nb, "paper") or {})}
        assert not params.size_problems(values, pipeline.declared_parameters(nb)), nb.stem


def test_the_runner_on_an_ascii_terminal_reports_a_failure_naming_a_cjk_path(tmp_path):
    """PYTHONIOENCODING=ascii: output has started (the first progress line) when a message with
    CJK characters arrives; it is printed with escapes, and the run ends with its summary."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "評価").mkdir()
    (tmp_path / "評価" / "ratings.tsv").write_text("not ratings\n", encoding="utf-8")
    (tmp_path / "mine" / "01_a.yaml").write_text(f"ratings_path: {tmp_path / '評価' / 'ratings.tsv'}\n",
                                                   encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(paths.ROOT),
           "SUBJEVAL_REPORTS_DIR": str(tmp_path / "out")}
    done = subprocess.run([sys.executable, "-m", "helpers", "notebooks", "run", "--params", str(tmp_path / "mine"),
                           "--no-html"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "ratings.tsv:1: expected" in done.stdout and "\\u8a55\\u4fa1" in done.stdout   # the kernel's reader
    assert "1 notebook(s)" in done.stdout.splitlines()[0] and "0 of 1 notebook(s) ok" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr and "UnicodeEncodeError" not in done.stderr


def test_exponents_are_numbers_and_every_shipped_parameter_file_still_loads(tmp_path):
    (tmp_path / "p.yaml").write_text("p: 1e-3\nalpha: 5E-2\nseed: 1_000\n")
    assert params.load_yaml(tmp_path / "p.yaml") == {"p": 0.001, "alpha": 0.05, "seed": 1000}
    for f in sorted(paths.PARAMS.glob("*/*.yaml")):
        assert isinstance(params.load_yaml(f), dict), f


@pytest.mark.parametrize("text, message", [
    ("1: 2\n", r"expected parameter names \(text\) in .*01_a.yaml, got 1; this notebook's parameters are: "),
    ("~: 2\n", r"expected parameter names \(text\) in .*01_a.yaml, got None"),
    ("n_list: [5, 10, 5]\n", r"parameter 'n_list' = \[5, 10, 5\] lists 5 twice; expected each value once"),
])
def test_parameter_names_are_text_and_list_values_are_not_repeated(tmp_path, text, message):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "01_a.yaml").write_text(text)
    with pytest.raises(params.ParameterError, match=message):
        pipeline.run(params=tmp_path / "mine", html=False)


# ---------------------------------------------------------------------------------------------
# Issue 40, third adversarial round: each class with a new example of its own
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, said", [
    ("", "no parameter (the file is empty or holds only comments)"),
    ("# my settings, to be filled in\n\n   # later\n", "no parameter (the file is empty or holds only comments)"),
    ("{}\n", "an empty mapping"),
    ("profile: mine\n", "only 'profile'"),
])
def test_a_parameter_file_that_sets_nothing_is_refused_before_any_kernel(tmp_path, monkeypatch, capsys, text, said):
    """An empty or comment-only NN_*.yaml would run the default simulation and publish it as the
    user's run: refused, naming the file, before anything runs or is written."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "04_diversity.yaml").write_text(text)
    (tmp_path / "mine" / "01_a.yaml").write_text("seed: 3\n")
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    assert pipeline.main(["run", "--params", str(tmp_path / "mine"), "--no-html"]) == 2
    err = capsys.readouterr().err
    assert "04_diversity.yaml: expected at least one parameter of 04_diversified_measures" in err
    assert said in err and "default simulation under the name 'mine'" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["real", "ci", "paper", "examples"])
def test_a_params_run_named_like_a_profile_is_refused(tmp_path, monkeypatch, capsys, name):
    """`--name real` would replace the real profile's executed notebooks and runtimes.json; a
    folder of that name too. The profile's own folder (`--params params/examples`) is that profile."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "01_a.yaml").write_text("seed: 3\n")
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    assert pipeline.main(["run", "--params", str(tmp_path / "mine"), "--name", name, "--no-html"]) == 2
    err = capsys.readouterr().err
    assert f"output name {name!r} (--name) is the name of the profile params/{name}/" in err
    assert pipeline.main(["run", "--params", str(tmp_path / "mine"), "--name", name.title(), "--no-html"]) == 2
    err = capsys.readouterr().err     # 'Real' is the folder 'real' on a case-insensitive file system
    assert f"output name {name.title()!r} (--name) is the name of the profile params/{name}/ (in any case)" in err
    assert f"--name {name}-mine" in err and "outputs under" not in err
    (tmp_path / name).mkdir()
    (tmp_path / name / "01_a.yaml").write_text("seed: 3\n")
    with pytest.raises(ValueError, match=f"the name of the folder .*{name}.* is the name of the profile"):
        pipeline.output_name(tmp_path / name, None)
    assert pipeline.output_name(paths.PARAMS / name, None) == name         # the profile's own files
    assert pipeline.output_name(paths.PARAMS / name / "01_gain_definitions.yaml", name) == name
    assert not (tmp_path / "out").exists()


def test_a_notebook_named_on_the_command_line_without_a_file_fails(tmp_path, monkeypatch, capsys):
    """`--params mine 03` with no 03 file stops (exit 2) before any kernel, instead of 'skipped' and 0."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "01_a.yaml").write_text("seed: 3\n")
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    assert pipeline.main(["run", "--params", str(tmp_path / "mine"), "--no-html", "01", "03"]) == 2
    err = capsys.readouterr().err
    assert "has no parameter file for 03_prm_estimation (expected 03_*.yaml)" in err
    assert not (tmp_path / "out").exists()
    # a profile without a file for a notebook named on the command line: the same
    (tmp_path / "params" / "thin").mkdir(parents=True)
    (tmp_path / "params" / "thin" / "01_gain_definitions.yaml").write_text("seed: 3\n")
    monkeypatch.setattr(pipeline, "PARAMS", tmp_path / "params")
    assert pipeline.main(["run", "--profile", "thin", "--no-html", "05"]) == 2
    assert "profile 'thin' (params/thin/) has no parameter file for 05_preference_agreement" in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    ("n_topics: 30\nseed: -1\n", r"^seed must be an integer >= 0 \(numpy.random.SeedSequence takes a non-negative "
                                  r"integer\), got -1 in \S*04_x.yaml:2$"),
    ("B: 0\n", r"^B must be an integer >= 1 \(Monte Carlo trials\), got 0 in \S*04_x.yaml:1$"),
    ("significance: 1.5\n", r"^significance must lie in \(0, 1\) \(significance level\), got 1.5 in \S*04_x.yaml:1$"),
    ("scheduler: locla\n", r"^scheduler must be 'local', 'serial' or a dask scheduler address such as "
                           r"tcp://host:8786, got 'locla' \(did you mean 'local'\?\) in \S*04_x.yaml:1$"),
])
def test_values_no_notebook_can_use_stop_the_runner_naming_file_and_line(tmp_path, monkeypatch, text, message):
    _stops_before_any_kernel(tmp_path, monkeypatch, "04_x.yaml", text, message)


def test_a_negative_seed_stops_in_the_validation_cell_under_plain_papermill(tmp_path):
    """Without the runner the same rule holds in the kernel: the project's message, not numpy's."""
    with pytest.raises(pm.PapermillExecutionError) as err:
        _run(_notebook(tmp_path), tmp_path, seed=-7)
    assert "seed must be an integer >= 0" in str(err.value) and "SeedSequence" in str(err.value)
    assert "expected a non-negative integer" not in str(err.value)      # numpy's own wording


def test_the_value_domains_accept_every_shipped_profile_and_default():
    for nb in pipeline.discover():
        declared = pipeline.declared_parameters(nb)
        for profile in pipeline.profiles():
            values = {**params.notebook_defaults(nb.stem), **(pipeline.load_parameters(nb, profile) or {})}
            params.check_values(values, declared)


def test_nesting_too_deep_for_the_yaml_parser_is_one_line(tmp_path, capsys):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "01_a.yaml").write_text("seed: " + "[" * 5000 + "]" * 5000 + "\n")
    assert pipeline.main(["run", "--params", str(tmp_path / "mine")]) == 2
    err = capsys.readouterr().err
    assert "01_a.yaml: expected plain YAML values, got lists or mappings nested too deeply" in err
    assert "Traceback" not in err and "RecursionError" not in err


# ---------------------------------------------------------------------------------------------
# Issue 40, runner probes left open: refused before any kernel, naming the file, key and expectation
# ---------------------------------------------------------------------------------------------

def test_profile_with_params_and_an_empty_name_are_refused(tmp_path, monkeypatch, capsys):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "01_a.yaml").write_text("seed: 3\n")
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    assert pipeline.main(["run", "--profile", "paper", "--params", str(tmp_path / "mine"), "--no-html", "01"]) == 2
    assert "--profile paper and --params" in capsys.readouterr().err
    assert pipeline.main(["run", "--params", str(tmp_path / "mine"), "--name", "", "--no-html", "01"]) == 2
    assert "--name '' is empty" in capsys.readouterr().err
    assert pipeline.main(["run", "--name", " ", "--no-html", "01"]) == 2     # --name without --params
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text, message", [
    ("split_topics: [true, 4]\n", r"'split_topics' = \[True, 4\] holds true \(a boolean\) among numbers; "
                                  r"expected numbers only in \S*06_x.yaml:1$"),
    ("min_diff_grid: [0.1, false]\n", r"'min_diff_grid' = \[0.1, False\] holds false"),
    ("rel: -2\n", r"^rel must be an integer >= 1 \(lowest relevant level\), got -2 in \S*06_x.yaml:1$"),
    ("data: files\nratings_path: nowhere.tsv\n", r"^ratings_path: no file matches '\S*nowhere.tsv' \(from ratings_path: "
                                                r"'nowhere.tsv'; expected a file, .*\) in \S*06_x.yaml:2$"),
    ("data: files\nruns_path: adir\n", r"^runs_path: no file matches '\S*adir' .* in \S*06_x.yaml:2$"),
])
def test_bad_values_and_missing_paths_stop_before_the_kernel(tmp_path, monkeypatch, text, message):
    (tmp_path / "adir").mkdir()
    monkeypatch.chdir(tmp_path)
    _stops_before_any_kernel(tmp_path, monkeypatch, "06_x.yaml", text, message, error=ValueError)


def test_every_list_of_numbers_parameter_has_a_domain():
    """The boolean exclusion reaches list members through the domains: a new list-of-numbers
    parameter without one would take `true` as 1 again."""
    for nb in pipeline.discover():
        for name, value in params.notebook_defaults(nb.stem).items():
            if isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
                assert name in params.VALUE_DOMAINS or name in params.SIZE_LIMITS, (nb.stem, name)


def test_a_linked_parameter_file_is_named_with_its_target(tmp_path, monkeypatch):
    (tmp_path / "mine").mkdir()
    (tmp_path / "target.txt").write_text("just a host name\n")
    (tmp_path / "mine" / "06_x.yaml").symlink_to(tmp_path / "target.txt")
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "out"))
    with pytest.raises(ValueError, match=r"^\S*mine/06_x.yaml: expected a mapping of parameter names to values "
                                         r"\(\S*mine/06_x.yaml is a link to \S*target.txt\)$"):
        pipeline.run(params=tmp_path / "mine", html=False)


def test_standard_input_as_a_path_is_said_to_be_no_regular_file(tmp_path):
    from helpers.io.readers import resolve_paths

    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ValueError, match=r"^run: '\S*fifo' is not a regular file \(a pipe, a device or standard "
                                         r"input\); standard input is not read"):
        resolve_paths(str(tmp_path / "fifo"), what="run")


@pytest.mark.parametrize("text, message", [
    ("split_topics: [4, null]\n", r"^parameter 'split_topics' = \[4, None\] holds null at position 2; expected "
                                  r"integers only in \S*06_x.yaml:1$"),
    ("measures: [nDCG@10, [AP]]\n", r"holds a list at position 2; expected text only in \S*06_x.yaml:1$"),
    ("min_diff_grid: [0.1, '0.2']\n", r"holds '0.2' \(str\) at position 2; expected numbers only"),
    ("components: {s: 0.1, t: null}\n", r"^parameter 'components' maps 't' to null; expected numbers as values"),
])
def test_list_and_dict_members_no_notebook_can_use_stop_the_runner(tmp_path, monkeypatch, text, message):
    """Members are checked like the values (null, nested lists, text among numbers), before any kernel."""
    _stops_before_any_kernel(tmp_path, monkeypatch, "06_x.yaml", text, message)


def test_every_list_and_dict_parameter_of_a_notebook_has_its_member_types():
    """The member table covers every list/dict parameter the notebooks declare, and their defaults fit it."""
    for nb in pipeline.discover():
        for name, value in params.notebook_defaults(nb.stem).items():
            if isinstance(value, (list, dict)):
                assert name in params.LIST_MEMBERS or name in params.DICT_MEMBERS, (nb.stem, name)
                assert params.member_problem(name, value) is None, (nb.stem, name)
    assert params.member_problem("other", [1, "a"]).endswith("expected plain values of one kind "
                                                             "(text, numbers or true/false) only")


def test_a_complex_yaml_key_and_a_huge_value_are_one_short_line(tmp_path):
    (tmp_path / "k.yaml").write_text("seed: 1\n? {a: 1}\n: 2\n")
    with pytest.raises(ValueError, match=r"k.yaml:2: expected a name \(plain text\) as key, got a mapping"):
        params.load_yaml(tmp_path / "k.yaml")
    with pytest.raises(params.ParameterError) as err:
        params.check_values({"seed": "7" * 300_000}, {"seed": "int"}, where="in f.yaml")
    assert len(str(err.value)) < 200 and "(300,002 characters)" in str(err.value) and "inf" not in str(err.value)
