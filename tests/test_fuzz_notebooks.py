"""Configuration fuzzing: every notebook under random valid parameter sets nobody tuned.

The sets are drawn from the declared ranges of ``tests/_fuzz_space.py`` with the seed
``SUBJEVAL_FUZZ_SEED`` (fixed in ``make test``, from the clock in ``make test-slow``; without it,
today's date). The seed is printed in the test header and in every failure; to replay a failure::

    SUBJEVAL_FUZZ_SEED=<seed> .venv/bin/python -m pytest tests/test_fuzz_notebooks.py

Each executed notebook is checked for:

* no error (every set the validation cell accepts must run);
* wording consistent with the numbers beside it: :func:`helpers.notebook.claims.audit` over every
  markdown cell and every printed or displayed output (share words from the one scale, no
  "95% interval" over fewer draws than the rule allows, p-values and their significance call);
* no stale value: no markdown cell and no output sentence states a parameter's *default* value
  (``B = 5,000``, ``p = 0.2``, ``nG@1``, "50 topics", ...) when the run used another one, unless the
  sentence attributes it to a paper or to the default profile.

The markdown check is also run statically over the committed notebooks (a markdown cell is the same
under every configuration, so a default value written in it is stale under some configuration).
"""

from __future__ import annotations

import ast
import json
import os
import re

import numpy as np
import pytest

from helpers import paths
from helpers.notebook import claims, findings, pipeline

from _fuzz_space import DRAWS  # noqa: E402  (tests/ is on sys.path)

from _fuzz_space import SEED  # noqa: E402
#: make test draws one configuration per notebook (a new seed every run); make test-slow three.
CONFIGS_PER_NOTEBOOK = 3 if os.environ.get("SUBJEVAL_SLOW_TESTS") == "1" else 1
NOTEBOOKS = {nb.stem[:2]: nb for nb in pipeline.discover()}
CASES = [(key, i) for key in NOTEBOOKS for i in range(CONFIGS_PER_NOTEBOOK)]

# A sentence that attributes a value to its source is not stale under another configuration.
_ATTRIBUTED = re.compile(r"paper|survey|Table \d|Sakai|Demeester|Zeng|Li & Yoshikawa|Discpower|Parry et al|Xie et al|FedWeb13|"
                         r"by default|default profile|the default|`default`|\(default\)|profile `", re.I)
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z*(])|\n\s*[-*]\s+|\n\n")
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 10: "ten", 15: "fifteen", 20: "twenty", 50: "fifty",
                 100: "a hundred", 1000: "a thousand"}
# Parameters whose default value is a size: "<value> <noun>" is a stale sentence when they change.
_SIZE_NOUNS = {"n_topics": "topics", "n_runs": "runs", "n_pairs": "pairs", "n_assessors": "assessors",
               "n_docs": "documents", "rounds": "rounds", "replicates": "replicates", "B": "trials",
               "real_replicates": "draws", "n_items": "items"}
# Parameters that are a ranked-list cutoff: "top 10" / "top-10" states their default in prose.
_CUTOFFS = {"cutoff", "extra_cutoff", "depth", "k", "k_table7"}
# How a parameter is written in prose when it is not written by its own name.
_SYMBOLS = {"alpha": ["α"], "d_max_list": ["Dmax ∈"], "n_list": ["N ∈"], "cutoff": ["l", "k"],
            "significance": ["α"], "k": ["k"], "relevance_threshold": ["θ"], "real_threshold": []}


def _defaults(notebook) -> dict:
    """The parameters cell's default values (literals only)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    values = {}
    for node in ast.parse("".join(cell["source"])).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            try:
                values[node.target.id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return values


def _number_forms(v) -> list[str]:
    if isinstance(v, bool):
        return []
    if isinstance(v, int):
        return sorted({f"{v}", f"{v:,}"})
    if isinstance(v, float):
        return sorted({f"{v:g}", f"{v}"})
    return []


def stale_tokens(name: str, default, value=None) -> list[re.Pattern]:
    """Patterns that state ``name``'s default value in prose (for a list, its members the run's
    ``value`` does not hold)."""
    pats: list[str] = []
    symbols = [name] + _SYMBOLS.get(name, [])
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        for sym in symbols:
            for form in _number_forms(default):
                pats.append(rf"(?<![\w.`]){re.escape(sym)}\s*=\s*{re.escape(form)}(?![\d.,]*\d)")
        if name in _CUTOFFS and isinstance(default, int):
            pats.append(rf"\btop[- ]{default}(?![\d.,]*\d)")
        if name in _SIZE_NOUNS:
            for form in _number_forms(default) + ([_NUMBER_WORDS[default]] if default in _NUMBER_WORDS else []):
                pats.append(rf"(?<![\w.,]){re.escape(form)}(?: \(`{name}`\))? (?:\w+ ){{0,2}}{_SIZE_NOUNS[name]}\b")
    elif isinstance(default, list) and default and all(isinstance(x, (int, float)) for x in default):
        body = ", ".join(str(x) for x in default)
        for sym in symbols:
            pats.append(rf"{re.escape(sym)}\s*(?:∈|in|=)?\s*[{{\[]{re.escape(body)}[}}\]]")
    elif isinstance(default, list) and default and all(isinstance(x, str) for x in default):
        gone = [x for x in default if not (isinstance(value, list) and x in value)]
        pats += [rf"(?<![\w@]){re.escape(x)}(?![\w@])" for x in gone if re.search(r"[@+]", x)]
    return [re.compile(p, re.I if name in _SIZE_NOUNS else 0) for p in pats]


def stale_sentences(text: str, changed: dict, values: dict | None = None) -> list[str]:
    """Sentences of ``text`` stating the default of a changed parameter (``changed``: name -> default;
    ``values``: name -> the run's value)."""
    found = []
    for sentence in _SENTENCE.split(text):
        if _ATTRIBUTED.search(sentence):
            continue
        for name, default in changed.items():
            for pat in stale_tokens(name, default, (values or {}).get(name)):
                m = pat.search(sentence)
                # "MSnDCG@10 reads the top 10 documents": a measure's own depth, not the cutoff parameter
                if m and name in _CUTOFFS and m.group(0).lower().startswith("top") and re.search(
                        rf"@{default}(?!\d)", sentence):
                    continue
                if m:
                    found.append(f"{name} (default {default!r}) stated as {m.group(0)!r} in: {sentence.strip()[:200]}")
    return found


def _texts(nb: dict) -> tuple[list[str], list[str]]:
    """(markdown cells, rendered outputs as text) of an executed notebook."""
    markdown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    outputs = []
    for c in nb["cells"]:
        if "nbval-ignore-output" in c.get("metadata", {}).get("tags", []):
            continue  # the environment report
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream":
                outputs.append("".join(o["text"]))
            for mime in ("text/markdown", "text/plain"):
                data = o.get("data", {}).get(mime)
                if data:
                    outputs.append("".join(data))
                    break
    return markdown, outputs


@pytest.mark.parametrize("key", sorted(NOTEBOOKS))
def test_markdown_states_no_default_value(key):
    """Committed markdown is the same under every configuration: it may not state a parameter's
    default value unless the sentence attributes it to a paper or the default profile."""
    notebook = NOTEBOOKS[key]
    defaults = _defaults(notebook)
    markdown, _ = _texts(json.loads(notebook.read_text(encoding="utf-8")))
    found = [s for text in markdown for s in stale_sentences(text, defaults)]
    assert not found, f"{notebook.name}: markdown states a default value:\n" + "\n".join(found)


def test_stale_detector_finds_and_spares():
    changed = {"B": 5000, "measure_names": ["nG@1", "P+"], "n_topics": 50, "p": 0.2}
    assert stale_sentences("Each test runs B = 5,000 trials.", changed)
    assert stale_sentences("We score nG@1 first.", changed)
    assert stale_sentences("Fifty topics are drawn.", changed)
    assert stale_sentences("UG with p = 0.2 wins.", changed)
    assert stale_sentences("The pooled top 10 of each run.", {"cutoff": 10})
    assert stale_sentences("Its top-10 documents.", {"cutoff": 10})
    assert not stale_sentences("Its top-100 documents.", {"cutoff": 10})
    assert not stale_sentences("MSnDCG@10 reads the top 10 documents, but the lists are cut to their top 3.",
                               {"cutoff": 10})
    assert not stale_sentences("The paper uses B = 5,000 trials.", changed)
    assert not stale_sentences("UG with p = 0.25 wins; 500 topics.", changed)
    assert not stale_sentences("nG@10 is not nG@1x.", {"measure_names": ["nG@1"]})
    assert not stale_sentences("P+ leads.", {"measure_names": ["nG@1", "P+"]}, {"measure_names": ["P+"]})
    assert stale_sentences("nG@1 leads.", {"measure_names": ["nG@1", "P+"]}, {"measure_names": ["P+"]})


def _draw(key: str, i: int) -> dict:
    rng = np.random.default_rng([SEED, int(key), i])
    params = DRAWS[key](rng)
    params["profile"] = f"fuzz-{key}-{i}"
    return params


@pytest.mark.parametrize("key,i", CASES, ids=[f"{k}-config{i}" for k, i in CASES])
def test_notebook_under_random_configuration(key, i):
    notebook = NOTEBOOKS[key]
    params = _draw(key, i)
    replay = f"SUBJEVAL_FUZZ_SEED={SEED} (config {i} of notebook {key}: {json.dumps(params)})"
    pipeline.check_values(params, pipeline.declared_parameters(notebook), where="in the fuzz draw")
    params = pipeline.resolve_paths(params)
    out = paths.reports_root() / "executed" / "fuzz" / f"{notebook.stem}-{i}.ipynb"
    try:
        pipeline.execute(notebook, params, out)
    except Exception as exc:  # papermill's PapermillExecutionError carries the cell's traceback
        pytest.fail(f"{notebook.name} failed under {replay}:\n{exc}")
    executed = json.loads(out.read_text(encoding="utf-8"))
    markdown, outputs = _texts(executed)
    defaults = _defaults(notebook)
    level = next((k for k in ("alpha", "significance") if k in defaults), None)
    # a notebook without a significance level prints no p-value ("p" is then e.g. UG's parameter)
    alpha = float(params.get(level, defaults[level])) if level else -1.0
    # markdown names p-values only as the papers' (and "p" of UG is a gain parameter): its p-value
    # check would read the paper's p = 0.2 as a p-value at a fuzzed alpha of 0.2
    problems = [f"claims.audit: {p}" for text in markdown for p in claims.audit(text, alpha=-1.0)]
    problems += [f"claims.audit: {p}" for text in outputs for p in claims.audit(text, alpha=alpha)]
    changed = {k: v for k, v in defaults.items() if k in params and params[k] != v}
    problems += [f"stale: {s}" for text in outputs for s in stale_sentences(text, changed, params)]
    # every notebook's conclusion is a findings table: the reading rules hold under every configuration
    problems += [f"reading: {p}" for p in findings.notebook_problems(executed)]
    assert not problems, f"{notebook.name} under {replay}:\n" + "\n".join(problems)


# The paper profile at its replicate counts, on tiny collections: every code path of that profile
# runs in the suite (its full-size run is `make reproduce PROFILE=paper`, timed in the README).
PAPER_TINY = {
    "01": {"n_items": 200, "d_max_list": [2, 8], "n_list": [5, 80]},
    "02": {"d_max_list": [2], "n_list": [5, 80], "B": 100, "scheduler": "serial"},
    "03": {"n_topics": 6, "n_docs": 40, "n_runs": 4, "B": 10, "n_sizes": 4, "scheduler": "serial"},
    "04": {"n_topics": 8, "n_runs": 4, "depth": 20, "B": 100, "scheduler": "serial"},
    "05": {"n_topics": 20, "n_runs": 6, "n_pairs": 60, "B": 100, "scheduler": "serial"},
    "06": {"n_systems": 6, "n_topics": 10, "split_topics": [2, 3], "split_draws": 5, "scheduler": "serial"},
}


@pytest.mark.slow   # ~115 CPU s for the six: make test-slow
@pytest.mark.parametrize("key", sorted(PAPER_TINY))
def test_paper_profile_replicate_counts_on_a_tiny_collection(key):
    notebook = NOTEBOOKS[key]
    params = pipeline.load_parameters(notebook, "paper")
    assert params is not None, f"params/paper has no file for {notebook.name}"
    replicates = params.get("replicates")
    params = {**params, **PAPER_TINY[key], "profile": "paper-tiny"}
    assert params.get("replicates") == replicates  # the paper's replicate count is kept
    out = paths.reports_root() / "executed" / "paper-tiny" / notebook.name
    try:
        pipeline.execute(notebook, params, out)
    except Exception as exc:
        pytest.fail(f"{notebook.name} failed with the paper profile's replicate counts:\n{exc}")
    executed = json.loads(out.read_text(encoding="utf-8"))
    _, outputs = _texts(executed)
    alpha = float(params.get("alpha", params.get("significance", 0.05)))
    problems = [p for text in outputs for p in claims.audit(text, alpha=alpha if key != "01" else -1.0)]
    assert not problems, f"{notebook.name} (paper replicate counts):\n" + "\n".join(problems)
