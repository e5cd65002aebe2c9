"""Command line: ``python -m helpers <command> ...`` in the checkout (``python -m subjeval`` or
``subjeval <command>`` where the library is installed).

Commands
--------
evaluate   evaluate TREC runs against qrels with the measure engine (helpers.measures.cli)
trec_eval  trec_eval's command line and output, computed by the engine (helpers.measures.treceval.command)
data       fetch / describe the public datasets (helpers.data.datasets)
notebooks  run or refresh the notebooks headlessly (helpers.notebook.pipeline)
"""

from __future__ import annotations

import importlib
import os
import sys

COMMANDS = {   # command -> the module (under this package, whatever its import name) whose main() runs it
    "evaluate": ".measures.cli",
    "trec_eval": ".measures.treceval.command",
    "data": ".data.datasets",
    "notebooks": ".notebook.pipeline",
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"} or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr if argv and argv[0] not in {"-h", "--help"} else sys.stdout)
        return 0 if argv and argv[0] in {"-h", "--help"} else 2
    if sys.stdout is None or sys.stdout.closed:
        # `... >&-`: nowhere to print results; say so instead of a traceback at the first print
        if sys.stderr is not None and not sys.stderr.closed:
            print(f"python -m helpers {argv[0]}: error: standard output is closed; nothing can be printed",
                  file=sys.stderr)
        return 2
    for stream in (sys.stdout, sys.stderr):
        # PYTHONIOENCODING=ascii or a C locale: a character the encoding lacks (τ, ♯, a CJK id) is
        # written as an escape instead of stopping the command after its output has started
        if stream is not None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if argv[0] in {"trec_eval", "evaluate"}:
        # numpy's BLAS starts a thread per core at import (~0.1 s of a short command on a busy
        # machine); these commands do no linear algebra. A value the user set is kept.
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")
    module = importlib.import_module(COMMANDS[argv[0]], __package__ or "helpers")
    try:
        return int(module.main(argv[1:]) or 0)
    except BrokenPipeError:
        # `... | head`: the reader went away. Point stdout at devnull so the interpreter's final
        # flush does not raise again, and say it in one line.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print("note: output closed early (broken pipe); stopped", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, EOFError, ValueError, TypeError, KeyError) as exc:
        # Every command reports its own expected errors; this is the net under them, so that no
        # raw traceback reaches a user. The message names the file where the exception knows it.
        where = getattr(exc, "filename", None)
        text = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__
        print(f"error: {where + ': ' if where else ''}{text}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
