"""``python -m helpers trec_eval``: trec_eval's command line, computed by this engine.

Takes trec_eval 10's flags and prints what it prints, byte for byte where the numbers agree (its
own test suite, ``tests/test_trec_eval_command.py``)::

    python -m helpers trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-R qrels|qrels_jg|prefs|qrels_prefs]
                                [-Z zscores] [-D N.qid] [-m measure[.params]]... QRELS RESULTS
    python -m helpers trec_eval [flags] --many-runs [--out-dir DIR] QRELS RESULTS [RESULTS ...]

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

**Many runs in one call** (``--many-runs``): the relevance file is read once and every results
file is evaluated in turn, each giving exactly what ``trec_eval [flags] QRELS RESULTS`` prints for
it; on standard output each file's lines follow a header line ``==> RESULTS <==`` (as ``head``
prints several files), or, with ``--out-dir DIR``, they go to ``DIR/<results file name>.trec_eval``
(written atomically) and nothing else is printed. A file that fails is reported on standard error
with its name and the others are still evaluated; the exit status is then 2.
"""

from __future__ import annotations

import getopt
import math
import os
import sys
from dataclasses import dataclass, field

from ...paths import COMMAND
from .catalog import CATALOG, LONG_MAX, LONG_MIN, META_NAMES
from .request import Evaluation, Settings, marked
from ..notices import one_line

__all__ = ["main", "run", "parse_args", "Options", "USAGE"]

USAGE = (f"usage: {COMMAND} trec_eval [-h] [-v] [-q] [-c] [-n] [-J] [-l level] [-M max] [-N docs] "
         "[-R qrels|qrels_jg|prefs|qrels_prefs] [-T trec_results] [-Z zscores] [-D level[.qid]] "
         "{-m measure[.params]}* [--many-runs [--out-dir DIR]] QRELS RESULTS [RESULTS ...]")

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = ["help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted", "level_for_rel=",
         "nosummary", "Debug_level=", "Judged_docs_only", "Number_docs_in_coll=", "Max_retrieved_per_topic=",
         "Rel_info_format=", "Results_format=", "Output_old_results_format=", "Zscore=", "many-runs", "out-dir="]
_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")


def _read_rel(fmt: str, path: str):
    """The relevance file: bytes-level qrels for ``-R qrels`` (no pandas), DataFrames otherwise."""
    if fmt == "qrels":
        from ...io.trec_eval_files import qrels_file
        return qrels_file(path)
    from ...io import judgment_groups as jg
    return {"qrels_jg": jg.read_qrels_jg, "prefs": jg.read_prefs, "qrels_prefs": jg.read_qrels_prefs}[fmt](path)


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
    many: bool = False
    out_dir: str | None = None
    files: list = field(default_factory=list)


class UsageError(ValueError):
    """A command line trec_eval would refuse (exit status 1)."""


def _integer(flag: str, text: str, *, least: int | None = None, what: str = "") -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise UsageError(f"{flag} takes an integer, got {text!r}") from None
    if not LONG_MIN <= value <= LONG_MAX:
        raise UsageError(f"{flag} {value} is beyond the range of trec_eval's integers (a C long, "
                         f"{LONG_MIN} to {LONG_MAX}), where its atol is undefined (glibc's reads {LONG_MAX if value > 0 else LONG_MIN})")
    if least is not None and value < least:
        raise UsageError(f"{flag} ({what}) must be >= {least}, got {value}")
    return value


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
        _same_measure_twice(opts, name, params if "." in arg else None, arg)
        opts.measures.append((name, params if "." in arg else None))
    elif flag in ("-c", "--complete_rel_info_wanted"):
        s.complete = True
    elif flag in ("-l", "--level_for_rel"):
        s.rel_level = _integer("-l", arg, least=0, what="the lowest relevant level")
    elif flag in ("-n", "--nosummary"):
        opts.summary = False
    elif flag in ("-D", "--Debug_level"):
        level, _, qid = arg.partition(".")
        _integer("-D", level)
        s.debug_query = qid if "." in arg else None   # "-D 1." selects the empty topic, as trec_eval does
    elif flag in ("-J", "--Judged_docs_only"):
        s.judged_only = True
    elif flag in ("-N", "--Number_docs_in_coll"):
        s.docs = _integer("-N", arg, least=0, what="the number of documents in the collection")
    elif flag in ("-M", "--Max_retrieved_per_topic"):
        s.max_ret = _integer("-M", arg, least=0, what="the documents kept per topic; trec_eval reads a negative "
                             "value as a negative num_ret and prints 0 for every measure")
    elif flag in ("-R", "--Rel_info_format"):
        s.rel_format = arg
    elif flag in ("-T", "--Results_format"):
        opts.results_format = arg
    elif flag in ("-Z", "--Zscore"):
        opts.zscores = arg
    elif flag == "--many-runs":
        opts.many = True
    elif flag == "--out-dir":
        if opts.out_dir is not None:    # our option: never keep one of two folders silently
            raise UsageError(f"--out-dir given twice ({opts.out_dir!r}, then {arg!r}); give it once")
        opts.out_dir = arg
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
    if opts.out_dir is not None and not opts.many:
        raise UsageError("--out-dir goes with --many-runs")
    if opts.out_dir is not None:
        _check_out_names(opts.out_dir, opts.files[1:], opts.files[:1])
    if opts.help or opts.version:
        return opts
    if opts.many and len(files) < 2:
        raise UsageError(f"--many-runs expects QRELS and at least one RESULTS file, got {len(files)}: {files}")
    if not opts.many and len(files) != 2:
        raise UsageError(f"expected two files, QRELS and RESULTS, got {len(files)}: {files}"
                         + (" (--many-runs evaluates several results files)" if len(files) > 2 else ""))
    return opts


def _check_out_names(folder: str, results: list[str], others: list[str] = ()) -> None:
    """``--out-dir`` must be a folder, no two results files may write the same output file
    (``a/run`` and ``b/run``, or one file given twice: one would replace the other's output), and
    no output may be an input (``DIR/run.trec_eval`` given as the qrels or as a results file)."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"--out-dir {folder!r}: not a folder (it is a file); give a folder for the outputs")
    inputs = {os.path.realpath(p): p for p in [*others, *results] if p != "-"}
    seen: dict[str, str] = {}
    for path in results:
        name = os.path.basename(path) + ".trec_eval"
        if name in seen:
            raise UsageError(f"--out-dir: results files {seen[name]!r} and {path!r} would both write {name!r} "
                             "(one output would replace the other); give files with distinct names, or leave "
                             "out --out-dir to print each after a '==> file <==' line")
        seen[name] = path
        target = os.path.realpath(os.path.join(folder, name))
        if target in inputs:
            raise UsageError(f"--out-dir: the output of {path!r} would be written to {os.path.join(folder, name)!r}, "
                             f"which is the input file {inputs[target]!r}; give another --out-dir")


def _same_measure_twice(opts: Options, name: str, params: str | None, arg: str) -> None:
    """Refuse a measure named twice with different parameters: trec_eval keeps the first
    request's parameters and drops the others without a word (``-m P.5 -m P.10`` prints P_5 only)."""
    if params is None:
        return
    for other, other_params in opts.measures:
        if other == name and other_params is not None and other_params != params:
            from .catalog import BY_NAME

            cutoffs = getattr(BY_NAME.get(name), "kind", "") in ("cut_long", "cut_double")
            hint = (f"give them in one -m (e.g. -m {name}.{other_params},{params})" if cutoffs
                    else "give the parameters you mean in one -m, each level or name once")
            raise UsageError(f"-m {name}.{other_params} and -m {arg} give measure '{name}' two parameter lists; "
                             f"trec_eval would use the first one only and drop '{params}' without a word: {hint}")


def _double(v: float) -> str:
    """C's ``printf("%6.4f")``: a NaN keeps its sign (``-nan`` from 0/0 on x86-64, as numpy's)."""
    if v != v:
        return "-nan".rjust(6) if math.copysign(1.0, v) < 0 else "nan".rjust(6)
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


def _results_data(path: str) -> tuple[str, bytes | None]:
    """The results file, or the bytes of standard input for ``-``."""
    if path != "-":
        return path, None
    from ...io.fields import read_stream
    return "<standard input>", read_stream(sys.stdin.buffer)


def _prepare(opts: Options):
    """Check the formats, mark the measures and read the relevance and z-score files (once)."""
    s = opts.settings
    if s.rel_format not in _FORMATS:
        raise ValueError(f"Illegal rel_format '{s.rel_format}' (-R takes {', '.join(_FORMATS)})")
    if opts.results_format != "trec_results":
        raise ValueError(f"Illegal retrieval results format '{opts.results_format}' (-T takes trec_results)")
    measures = _measures(opts)
    rel = _read_rel(s.rel_format, opts.files[0])
    if opts.zscores:
        from ...io.trec_eval_files import read_zscores
        zscores = read_zscores(opts.zscores)
    else:
        zscores = None
    return measures, rel, zscores


def _measures(opts: Options):
    return marked(opts.measures or [("official", None)], docs=opts.settings.docs)


def _evaluate_one(opts: Options, measures, rel, zscores, results_path: str, data: bytes | None = None,
                  said: set | None = None) -> list[str]:
    from ...io.trec_eval_files import results_file
    from .evaluation import apply_zscores, evaluate, summarise, topic_count

    s = opts.settings
    path, data = _results_data(results_path) if data is None else (results_path, data)
    topics = sorted(set(rel.query)) if s.rel_format == "qrels" else None      # the lines trec_eval evaluates
    results = results_file(path, data, topics, vectorised=True)
    ev = evaluate(rel, results, measures, s)
    if zscores is not None:
        apply_zscores(ev, zscores, ev.columns_numeric())
    n_topics, n_rel = topic_count(rel)
    summarise(ev, s, n_topics, n_rel)
    said = set() if said is None else said
    for text in ev.notes:               # once per call (--many-runs: not once per file)
        if text not in said:
            said.add(text)
            print(f"trec_eval: {one_line(text)}", file=sys.stderr)
    return format_lines(ev, opts)


def run(opts: Options) -> list[str]:
    """Read the files, evaluate and return the output lines (of the first results file).

    The common command line is computed without numpy (:mod:`.quick`: the same reader, the
    values per topic in plain Python); whatever that path does not take -- other measures or
    formats, ``-Z``, ``-D``, or an input that needs a decision (a bad line, a repeated document)
    -- is evaluated by the vectorised engine, which gives the answer or the message.

    Raises
    ------
    ValueError
        For unreadable or malformed files (file and line named), an unknown measure, format or
        option value, or when no topic is both judged and answered.
    """
    s = opts.settings
    if s.rel_format in _FORMATS and opts.results_format == "trec_results":
        from . import quick

        measures = _measures(opts)
        if quick.supports(s, measures, zscores=bool(opts.zscores)):
            path, data = _results_data(opts.files[1])
            try:
                return format_lines(quick.evaluate_quick(opts.files[0], path, data, measures, s), opts)
            except (quick.Unsupported, ValueError, OSError):
                pass                 # the engine decides (and names what is wrong)
            return _with_engine(opts, path, data)
    return _with_engine(opts, opts.files[1], None)


def _with_engine(opts: Options, results_path: str, data: bytes | None) -> list[str]:
    measures, rel, zscores = _prepare(opts)
    return _evaluate_one(opts, measures, rel, zscores, results_path, data)


def _encode(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")


def _run_many(opts: Options) -> int:
    """``--many-runs``: every results file in turn (module docstring)."""
    from ...io.files import atomic_write_bytes

    measures, rel, zscores = _prepare(opts)
    status = 0
    out = sys.stdout.buffer
    said: set = set()
    for path in opts.files[1:]:
        try:
            data = _encode(_evaluate_one(opts, measures, rel, zscores, path, said=said))
        except (ValueError, OSError) as exc:
            print(f"trec_eval: {one_line(_message(exc))}", file=sys.stderr)
            status = 2
            continue
        if opts.out_dir is not None:
            target = os.path.join(opts.out_dir, os.path.basename(path) + ".trec_eval")
            try:
                atomic_write_bytes(target, data)
            except OSError as exc:
                print(f"trec_eval: --out-dir {opts.out_dir!r}: cannot write '{target}': "
                      f"{exc.strerror or exc}", file=sys.stderr)
                status = 2
        else:
            _write(out, f"==> {path} <==\n".encode("utf-8", "surrogateescape") + data)
    return status


def _message(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"cannot read '{exc.filename}': {exc.strerror or exc}"
    if isinstance(exc, MemoryError):
        return "out of memory: the input files are too large for this machine's memory"
    return str(exc)


def help_text() -> str:
    """What ``-h`` prints: usage, flags, measures and nicknames."""
    rows = [USAGE, "", __doc__.split("\n\n")[1], "", "Measures (trec_eval names, in the order they are printed):"]
    for m in CATALOG:
        rows.append(f"  {m.name:<26} {m.kind:<10} {m.source}")
    rows.append("")
    rows.append("Nicknames: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in META_NAMES.items()))
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m helpers trec_eval``; returns the exit status: 0, 1 for a bad
    command line (as trec_eval: the problem, then the usage line, on standard error), 2 for bad
    input (one line naming the file and line)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        opts = parse_args(argv)
    except UsageError as exc:
        print(f"trec_eval: {one_line(exc)}\n{USAGE}", file=sys.stderr)
        return 1
    if opts.help:
        sys.stdout.write(help_text())
        return 0
    if opts.version:
        print(f"trec_eval 10.0 command line, computed by {__name__.split('.')[0]}.measures ({COMMAND} trec_eval)",
              file=sys.stderr)
        return 0
    try:
        if opts.many:
            return _run_many(opts)
        data = _encode(run(opts))
    except (ValueError, OSError, MemoryError) as exc:
        if isinstance(exc, OSError) and exc.filename == "standard output":
            raise     # a write (`> /dev/full`): python -m helpers says it in one line, naming standard output
        text = _message(exc)
        print(f"trec_eval: {one_line(text)}", file=sys.stderr)
        return getattr(exc, "status", 1 if text.startswith("illegal measure") else 2)
    _write(sys.stdout.buffer, data)
    return 0


def _write(out, data: bytes, chunk: int = 1 << 16) -> None:
    """Write in pipe-sized chunks, each flushed: a reader that went away (``| head -1``) is then seen
    as a BrokenPipeError (status 2, one line, from ``python -m helpers``) rather than lost in one
    large write whose error Python's buffered writer does not report."""
    for start in range(0, len(data), chunk):
        out.write(data[start: start + chunk])
        out.flush()
