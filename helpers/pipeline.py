"""Headless notebook pipeline: execute, render and refresh the numbered notebooks.

``python -m helpers notebooks run --profile PROFILE [NN ...]``
    Executes every ``notebooks/NN_*.ipynb`` with papermill into ``reports/executed/<profile>/``
    (never over the source notebook), using ``params/<profile>/<stem>.yaml`` when it exists, and
    renders each executed notebook to HTML under ``reports/html/`` (``reports/html/<profile>/``
    for non-default profiles). One progress line per notebook with its duration. For a profile
    other than ``default``, notebooks without a parameter file for it are skipped (and say so).

``python -m helpers notebooks refresh [NN ...]``
    The only way committed outputs are regenerated: runs the default profile, then copies the
    executed notebook back over ``notebooks/`` after stripping volatile metadata (papermill
    timings, execution timestamps), keeping outputs, execution counts and the ``parameters`` tag.

Parameters come from YAML files (not ``-p``) so that strings like ``"001"`` stay strings.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from pathlib import Path

from helpers.paths import NOTEBOOKS, PARAMS, ROOT, reports_dir

KERNEL = "python3"
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
            raise SystemExit(f"no notebook matches {sorted(missing)}; have "
                             f"{[b.stem for b in sorted(NOTEBOOKS.glob('[0-9][0-9]_*.ipynb'))]}")
    return books


def params_file(notebook: Path, profile: str) -> Path:
    return PARAMS / profile / f"{notebook.stem}.yaml"


def load_parameters(notebook: Path, profile: str) -> dict | None:
    """Parameters for ``notebook`` under ``profile``; ``None`` if the profile does not cover it."""
    import yaml

    if profile == "default":
        return {}
    path = params_file(notebook, profile)
    if not path.exists():
        return None
    with open(path, encoding="utf-8") as fh:
        params = yaml.safe_load(fh) or {}
    if not isinstance(params, dict):
        raise ValueError(f"{path.relative_to(ROOT)}: expected a mapping of parameter names to values")
    if params.get("profile", profile) != profile:
        raise ValueError(f"{path.relative_to(ROOT)}: 'profile: {params['profile']}' contradicts its folder '{profile}'")
    params["profile"] = profile
    return params


def execute(notebook: Path, parameters: dict, output: Path) -> None:
    """Run one notebook with papermill (kernel ``python3``, cwd = its folder, no progress bar)."""
    import papermill as pm

    output.parent.mkdir(parents=True, exist_ok=True)
    pm.execute_notebook(
        str(notebook), str(output), parameters=parameters or None, kernel_name=KERNEL,
        cwd=str(notebook.parent), progress_bar=False, log_output=False,
    )


def render_html(executed: Path, target: Path) -> Path:
    """Static HTML of an executed notebook (nbconvert's lab template), written atomically."""
    import nbformat
    from nbconvert import HTMLExporter

    from helpers.reports import atomic_write_text

    nb = nbformat.read(str(executed), as_version=4)
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    return atomic_write_text(target, body)


def clean(nb: dict) -> dict:
    """Strip volatile metadata, keep outputs, execution counts and cell tags."""
    nb = copy.deepcopy(nb)
    for key in VOLATILE_NB_METADATA:
        nb.get("metadata", {}).pop(key, None)
    nb["metadata"]["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": KERNEL}
    for cell in nb["cells"]:
        meta = cell.get("metadata", {})
        for key in VOLATILE_CELL_METADATA:
            meta.pop(key, None)
        if cell.get("cell_type") == "code":
            for out in cell.get("outputs", []):
                out.get("metadata", {}).pop("execution", None)
    nb["cells"] = [c for c in nb["cells"]
                   if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    return nb


def _html_target(notebook: Path, profile: str) -> Path:
    base = ROOT / "reports" / "html"
    return (base if profile == "default" else base / profile) / f"{notebook.stem}.html"


def run(profile: str = "default", only: list[str] | None = None, *, html: bool = True,
        refresh: bool = False, stream=sys.stdout) -> list[tuple[str, str, float]]:
    """Execute notebooks for ``profile``; returns ``(stem, status, seconds)`` per notebook."""
    books = discover(only)
    executed_dir = ROOT / "reports" / "executed" / profile
    results = []
    print(f"profile {profile!r}: {len(books)} notebook(s); outputs under "
          f"{reports_dir(profile).relative_to(ROOT) if reports_dir(profile).is_relative_to(ROOT) else reports_dir(profile)}",
          file=stream, flush=True)
    for k, nb_path in enumerate(books, 1):
        params = load_parameters(nb_path, profile)
        tag = f"[{k}/{len(books)}] {nb_path.stem}"
        if params is None:
            print(f"{tag}: skipped (no {params_file(nb_path, profile).relative_to(ROOT)})", file=stream, flush=True)
            results.append((nb_path.stem, "skipped", 0.0))
            continue
        out = executed_dir / nb_path.name
        start = time.perf_counter()
        try:
            execute(nb_path, params, out)
        except Exception as exc:  # papermill raises PapermillExecutionError with the cell's traceback
            seconds = time.perf_counter() - start
            print(f"{tag}: FAILED after {seconds:.1f} s; executed copy with the error: "
                  f"{out.relative_to(ROOT)}\n{exc}", file=stream, flush=True)
            results.append((nb_path.stem, "failed", seconds))
            break
        seconds = time.perf_counter() - start
        if html:
            render_html(out, _html_target(nb_path, profile))
        if refresh:
            with open(out, encoding="utf-8") as fh:
                cleaned = clean(json.load(fh))
            from helpers.reports import atomic_write_text

            atomic_write_text(nb_path, json.dumps(cleaned, indent=1, ensure_ascii=False) + "\n")
        print(f"{tag}: ok in {seconds:.1f} s" + ("; copied back" if refresh else ""), file=stream, flush=True)
        results.append((nb_path.stem, "ok", seconds))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers notebooks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="execute notebooks for a parameter profile")
    p_run.add_argument("--profile", default=os.environ.get("PROFILE", "default"))
    p_run.add_argument("--no-html", action="store_true", help="skip the HTML rendering")
    p_run.add_argument("only", nargs="*", help="two-digit prefixes or stems (default: all)")
    p_ref = sub.add_parser("refresh", help="regenerate committed outputs (default profile)")
    p_ref.add_argument("only", nargs="*")
    args = parser.parse_args(argv)
    if args.command == "run":
        results = run(args.profile, args.only or None, html=not args.no_html)
    else:
        results = run("default", args.only or None, html=True, refresh=True)
    return 1 if any(status == "failed" for _, status, _ in results) else 0
