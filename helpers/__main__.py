"""Command line: ``subjeval <command> ...`` (or ``python -m subjeval``) where the library is
installed, ``python -m helpers <command> ...`` in the project's checkout.

Commands
--------
evaluate   evaluate TREC runs against qrels with the measure engine
trec_eval  trec_eval's command line and output, computed by the engine
data       fetch / describe the public datasets (needs the project's checkout)
notebooks  run or refresh the notebooks headlessly (needs the project's checkout)

``<command> -h`` describes a command.
"""

from __future__ import annotations

import importlib
import io
import os
import sys

COMMANDS = {   # command -> the module (under this package, whatever its import name) whose main() runs it
    "evaluate": ".measures.cli",
    "trec_eval": ".measures.treceval.command",
    "data": ".data.datasets",
    "notebooks": ".notebook.pipeline",
}

#: Commands that read or write the checkout's folders (notebooks/, params/, data/, reports/): what they need.
CHECKOUT_ONLY = {"data": "the dataset registry's data/ folder and its checksummed files",
                 "notebooks": "the notebooks, their params/ and data/"}


def _usage(prog: str) -> str:
    """The module docstring, naming the command as it was called (``subjeval`` or ``python -m helpers``)."""
    return f"usage: {prog} <command> ...\n\n" + __doc__.split("\n\n", 1)[1].strip()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    paths = importlib.import_module(".paths", __package__ or "helpers")
    if not argv or argv[0] in {"-h", "--help"} or argv[0] not in COMMANDS:
        print(_usage(paths.COMMAND), file=sys.stderr if argv and argv[0] not in {"-h", "--help"} else sys.stdout)
        return 0 if argv and argv[0] in {"-h", "--help"} else 2
    if argv[0] in CHECKOUT_ONLY and not paths.is_checkout():
        print(f"{paths.COMMAND} {argv[0]}: error: {CHECKOUT_ONLY[argv[0]]} are not part of the installed library; "
              "this command runs in the project's checkout (clone it, then `make reproduce` there). "
              f"Installed, `{paths.COMMAND} evaluate` and `{paths.COMMAND} trec_eval` work anywhere.", file=sys.stderr)
        return 2
    if sys.stdout is None or sys.stdout.closed:
        # `... >&-`: nowhere to print results; say so instead of a traceback at the first print
        if sys.stderr is not None and not sys.stderr.closed:
            print(f"{paths.COMMAND} {argv[0]}: error: standard output is closed; nothing can be printed",
                  file=sys.stderr)
        return 2
    if sys.stderr is None or sys.stderr.closed:
        # `... 2>&-`: print(file=None) would write notes, warnings and errors INTO the results on
        # standard output. Drop them instead (an error still gives its exit status).
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
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
    _name_stdout()
    prog = f"{paths.COMMAND} {argv[0]}"     # every line below starts with the program, as usage errors do
    try:
        status = int(module.main(argv[1:]) or 0)
        sys.stdout.flush()       # what is still buffered fails here, inside this net, not at exit
        return status
    except BrokenPipeError:
        # `... | head`: the reader went away. Point stdout at devnull so the interpreter's final
        # flush does not raise again, and say it in one line.
        _drop_stdout()
        print(f"{prog}: note: output closed early (broken pipe); stopped", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except MemoryError as exc:
        # numpy's ArrayMemoryError says how large the array was; no traceback either way
        detail = str(exc).strip()
        print(f"{prog}: error: out of memory: the input (or a value in it that sizes an array) is too large for "
              f"this machine's memory{': ' + detail if detail else ''}", file=sys.stderr)
        return 2
    except (OSError, EOFError, ValueError, TypeError, KeyError) as exc:
        # Every command reports its own expected errors; this is the net under them, so that no
        # raw traceback reaches a user. The message names the file where the exception knows it.
        where = getattr(exc, "filename", None)
        if where == STDOUT_NAME:     # `> /dev/full`: the results could not be written
            _drop_stdout()
        text = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__
        print(f"{prog}: error: {where + ': ' if where else ''}{text}", file=sys.stderr)
        return 2


class _NamedStdout(io.FileIO):
    """Standard output's file descriptor, whose write errors (``> /dev/full``: no space left) name
    it: the message then says that the results could not be written, not just ``No space left``."""

    def write(self, b):
        try:
            return super().write(b)
        except OSError as exc:
            if exc.filename is None:
                exc.filename = STDOUT_NAME
            raise


STDOUT_NAME = "standard output"


def _name_stdout() -> None:
    """Put :class:`_NamedStdout` under ``sys.stdout`` (same encoding, errors and buffering); left as
    it is when standard output is no file descriptor (a test's capture)."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return
    sys.stdout.flush()
    raw = _NamedStdout(fd, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=sys.stdout.encoding, errors=sys.stdout.errors,
                                  line_buffering=sys.stdout.line_buffering, write_through=False)


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's final flush of what
    could not be written raises no second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
