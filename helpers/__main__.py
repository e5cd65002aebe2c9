"""Command line: ``python -m helpers <command> ...``.

Commands
--------
evaluate   evaluate TREC runs against qrels with the measure engine (helpers.measures_cli)
data       fetch / describe the public datasets (helpers.datasets)
notebooks  run or refresh the notebooks headlessly (helpers.pipeline)
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "evaluate": "helpers.measures_cli",
    "data": "helpers.datasets",
    "notebooks": "helpers.pipeline",
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"} or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr if argv and argv[0] not in {"-h", "--help"} else sys.stdout)
        return 0 if argv and argv[0] in {"-h", "--help"} else 2
    module = importlib.import_module(COMMANDS[argv[0]])
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
