"""``python -m helpers trec_eval``: trec_eval's command line, computed by this engine.

Takes trec_eval 10's flags and prints what it prints, byte for byte where the numbers agree (its
own test suite, ``tests/test_trec_eval_command.py``)::

    python -m helpers trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-R qrels|qrels_jg|prefs|qrels_prefs]
                                [-Z zscores] [-D N.qid] [-m measure[.params]]... QRELS RESULTS

``-m`` takes a measure, a measure with parameters (``P.5,10``, ``ndcg.1=3,2=9``,
``iprec_at_recall..10,.20``, ``utility.2,-1,0,0``) or a nickname (``official`` (default),
``all_trec``, ``set``, ``prefs``, ``all_prefs``, ``qrels_jg``); ``-h`` lists them. ``RESULTS`` may
be ``-`` (standard input). Output lines are ``measure<TAB>topic<TAB>value`` with the measure
padded to 22 characters and values as ``%6.4f`` (counts as integers), per topic with ``-q`` and
over all topics (``all``) unless ``-n``.

Differences from trec_eval, all on input trec_eval mishandles: a malformed line, a score or
relevance that is not a number, or a document listed twice is refused with its file and line
(trec_eval reads ``"abc"`` as 0 or stops without the line); a judged topic the run did not answer
is skipped without ``-c`` (trec_eval 9; trec_eval 10 stops with "result qid not found in qrels");
``-l`` must be >= 0; ``-D`` selects the topic after its ``.`` but prints no debugging output.
"""

from __future__ import annotations

import getopt
import os
import sys
import tempfile
from dataclasses import dataclass, field

from ...io.judgment_groups import read_prefs, read_qrels_jg, read_qrels_prefs
from ...io.trec_eval_files import read_results, read_trec_eval_qrels, read_zscores
from .catalog import CATALOG, META_NAMES
from .evaluation import (Evaluation, Settings, apply_zscores, evaluate, marked, summarise,
                                                  topic_count)

__all__ = ["main", "run", "parse_args", "Options", "USAGE"]

USAGE = ("usage: python -m helpers trec_eval [-h] [-v] [-q] [-c] [-n] [-J] [-l level] [-M max] [-N docs] "
         "[-R qrels|qrels_jg|prefs|qrels_prefs] [-T trec_results] [-Z zscores] [-D level[.qid]] "
         "{-m measure[.params]}* QRELS RESULTS")

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = ["help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted", "level_for_rel=",
         "nosummary", "Debug_level=", "Judged_docs_only", "Number_docs_in_coll=", "Max_retrieved_per_topic=",
         "Rel_info_format=", "Results_format=", "Output_old_results_format=", "Zscore="]
_READERS = {"qrels": read_trec_eval_qrels, "qrels_jg": read_qrels_jg, "prefs": read_prefs,
            "qrels_prefs": read_qrels_prefs}


@dataclass
class Options:
    """The parsed command line."""

    settings: Settings = field(default_factory=Settings)
    query: bool = False
    summary: bool = True
    measures: list = field(default_factory=list)
    zscores: str | None = None
    results_format: str = "trec_results"
    help: bool = False
    version: bool = False
    files: list = field(default_factory=list)


class UsageError(ValueError):
    """A command line trec_eval would refuse (exit status 1)."""


def _integer(flag: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise UsageError(f"{flag} takes an integer, got {text!r}") from None


def _option(opts: Options, flag: str, arg: str) -> None:
    s = opts.settings
    if flag in ("-h", "--help"):
        opts.help = True
    elif flag in ("-v", "--version"):
        opts.version = True
    elif flag in ("-q", "--query_eval_wanted"):
        opts.query = True
    elif flag in ("-m", "--measure"):
        name, _, params = arg.partition(".")
        if "." in arg and params == "":
            raise UsageError(f"improper measure in parameter '{name}' (nothing after the '.')")
        opts.measures.append((name, params if "." in arg else None))
    elif flag in ("-c", "--complete_rel_info_wanted"):
        s.complete = True
    elif flag in ("-l", "--level_for_rel"):
        s.rel_level = _integer("-l", arg)
        if s.rel_level < 0:
            raise UsageError(f"-l (the lowest relevant level) must be >= 0, got {s.rel_level}")
    elif flag in ("-n", "--nosummary"):
        opts.summary = False
    elif flag in ("-D", "--Debug_level"):
        level, _, qid = arg.partition(".")
        _integer("-D", level)
        s.debug_query = qid or None
    elif flag in ("-J", "--Judged_docs_only"):
        s.judged_only = True
    elif flag in ("-N", "--Number_docs_in_coll"):
        s.docs = _integer("-N", arg)
    elif flag in ("-M", "--Max_retrieved_per_topic"):
        s.max_ret = _integer("-M", arg)
    elif flag in ("-R", "--Rel_info_format"):
        s.rel_format = arg
    elif flag in ("-T", "--Results_format"):
        opts.results_format = arg
    elif flag in ("-Z", "--Zscore"):
        opts.zscores = arg
    # -o / --Output_old_results_format: obsolete in trec_eval, accepted and ignored


def parse_args(argv: list[str]) -> Options:
    """trec_eval's command line (GNU getopt: options may follow the file names).

    Raises
    ------
    UsageError
        For an unknown option, a missing option argument, a non-integer where trec_eval takes an
        integer, or not exactly two file names (unless ``-h``/``-v``).
    """
    try:
        flags, files = getopt.gnu_getopt(argv, _SHORT, _LONG)
    except getopt.GetoptError as exc:
        raise UsageError(str(exc)) from None
    opts = Options(files=files)
    for flag, arg in flags:
        _option(opts, flag, arg)
    if not (opts.help or opts.version) and len(files) != 2:
        raise UsageError(f"expected two files, QRELS and RESULTS, got {len(files)}: {files}")
    return opts


def _double(v: float) -> str:
    return f"{v:6.4f}"


def format_lines(ev: Evaluation, opts: Options) -> list[str]:
    """trec_eval's output lines (``meas_print_single.c``, ``meas_print_final.c``)."""
    z = "Z" if opts.zscores else ""
    lines: list[str] = []
    cols = {name: j for j, name in enumerate(ev.columns_numeric())}
    if opts.query:
        for i, topic in enumerate(ev.topics):
            for m, values in ev.measures:
                if not m.per_query:
                    continue
                for v in values:
                    if m.kind == "relstring":
                        lines.append(f"{v.name:<22}\t{topic}\t'{ev.relstrings[v.name][i]}'")
                    elif m.kind == "long" and not z:
                        lines.append(f"{v.name:<22}\t{topic}\t{int(ev.table[i, cols[v.name]])}")
                    else:
                        lines.append(f"{z}{v.name:<22}\t{topic}\t{_double(ev.table[i, cols[v.name]])}")
    if opts.summary:
        for m, values in ev.measures:
            if m.kind == "runid":
                lines.append(f"{'runid':<22}\tall\t{ev.run_id}")
                continue
            if m.kind == "relstring":
                continue
            for v in values:
                value = ev.summary[cols[v.name]]
                if m.kind == "long" and not z:
                    lines.append(f"{v.name:<22}\tall\t{int(value)}")
                else:
                    lines.append(f"{z}{v.name:<22}\tall\t{_double(value)}")
    return lines


def _results_path(path: str) -> tuple[str, bool]:
    """The results file, or a temporary copy of standard input for ``-``."""
    if path != "-":
        return path, False
    fd, tmp = tempfile.mkstemp(prefix="trec_eval-stdin-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(sys.stdin.buffer.read())
    return tmp, True


def run(opts: Options) -> list[str]:
    """Read the files, evaluate and return the output lines.

    Raises
    ------
    ValueError
        For unreadable or malformed files (file and line named), an unknown measure, format or
        option value, or when no topic is both judged and answered.
    """
    s = opts.settings
    if s.rel_format not in _READERS:
        raise ValueError(f"Illegal rel_format '{s.rel_format}' (-R takes {', '.join(_READERS)})")
    if opts.results_format != "trec_results":
        raise ValueError(f"Illegal retrieval results format '{opts.results_format}' (-T takes trec_results)")
    measures = marked(opts.measures or [("official", None)], docs=s.docs)
    qrels_path, results_file = opts.files
    rel = _READERS[s.rel_format](qrels_path)
    path, temporary = _results_path(results_file)
    try:
        results = read_results(path)
    finally:
        if temporary:
            os.unlink(path)
    zscores = read_zscores(opts.zscores) if opts.zscores else None
    ev = evaluate(rel, results, measures, s)
    if zscores is not None:
        apply_zscores(ev, zscores, ev.columns_numeric())
    n_topics, n_rel = topic_count(rel)
    summarise(ev, s, n_topics, n_rel)
    return format_lines(ev, opts)


def help_text() -> str:
    """What ``-h`` prints: usage, flags, measures and nicknames."""
    rows = [USAGE, "", __doc__.split("\n\n")[1], "", "Measures (trec_eval names, in the order they are printed):"]
    for m in CATALOG:
        rows.append(f"  {m.name:<26} {m.kind:<10} {m.source}")
    rows.append("")
    rows.append("Nicknames: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in META_NAMES.items()))
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m helpers trec_eval``; returns the exit status (0, 1 for a bad
    command line, 2 for bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        opts = parse_args(argv)
    except UsageError as exc:
        print(f"trec_eval: {exc}\n{USAGE}", file=sys.stderr)
        return 1
    if opts.help:
        sys.stdout.write(help_text())
        return 0
    if opts.version:
        print("trec_eval 10.0 command line, computed by helpers.measures (python -m helpers trec_eval)",
              file=sys.stderr)
        return 0
    try:
        lines = run(opts)
    except ValueError as exc:
        text = str(exc)
        print(f"trec_eval: {text}", file=sys.stderr)
        return 1 if text.startswith("illegal measure") else 2
    except OSError as exc:
        print(f"trec_eval: cannot read '{exc.filename}': {exc.strerror or exc}", file=sys.stderr)
        return 2
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0

