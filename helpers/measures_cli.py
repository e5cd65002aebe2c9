"""``python -m helpers evaluate``: score TREC runs with :mod:`helpers.measures`.

Reads TREC qrels (``qid 0 docid level``; with ``--gain-values`` the fourth column is a real-valued
gain) and one or more TREC run files, and prints a tab-separated table
``run_id  query_id  measure  value``: the mean over topics (``query_id`` = ``all``) and, with
``--per-topic``, one row per topic before it.

Measures and cutoffs follow NTCIREVAL: a bare name of a measure that NTCIREVAL reports at
cutoffs (``nDCG``, ``MSnDCG``, ``nERR``, ``nCG``, ``iRBU``, ``P``, ``Hit``) is expanded to one
measure per ``--cutoffs`` value (default 1000, NTCIREVAL's default); ``AP``, ``Q``, ``P+``,
``RR``, ``RBP``, ``ERR``, ``EBR`` stay whole-list measures unless written with ``@l``;
``nG`` means ``nG@1``. Without ``--measures`` the NTCIREVAL ``compute`` set is printed: RR, P+, AP,
Q, RBP, ERR, EBR and, per cutoff, AP, Q, nDCG, MSnDCG, P, RBP, ERR, nERR, EBR and Hit.

Exit status: 0 on success, 2 for bad arguments or malformed input (the message names the file
and line).
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from helpers import measures as M

DEFAULT_CUTOFFS = (1000,)
DEFAULT_WHOLE = ["RR", "P+", "AP", "Q", "RBP", "ERR", "EBR"]
DEFAULT_AT = ["AP", "Q", "nDCG", "MSnDCG", "P", "RBP", "ERR", "nERR", "EBR", "Hit"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print usage and exit(2); keep exit(2), no usage spam
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _cutoffs(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise argparse.ArgumentTypeError(
                f"cutoffs must be positive integers separated by commas, e.g. 1,10,1000; got {text!r}")
        out.append(int(part))
    return out


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m helpers evaluate",
                description="Evaluate TREC runs with NTCIREVAL's graded-relevance measures.",
                epilog="Measures: " + ", ".join(d.usage() for d in M.MEASURES.values()))
    p.add_argument("--qrels", required=True, metavar="FILE", help="TREC qrels file (may be gzipped)")
    p.add_argument("--run", required=True, action="append", metavar="FILE",
                   help="TREC run file; repeat for several runs")
    p.add_argument("--gains", metavar="G1:G2:...",
                   help="gain of L1, L2, ... as in NTCIREVAL -g (default: linear, gain = level)")
    p.add_argument("--gain-values", action="store_true",
                   help="the qrels' fourth column holds real-valued gains, not levels")
    p.add_argument("--measures", nargs="+", metavar="M",
                   help="measure names, e.g. Q nDCG MSnDCG@10 'RBP(p=0.8)' (default: NTCIREVAL's set)")
    p.add_argument("--cutoffs", type=_cutoffs, metavar="L1,L2,...",
                   help="cutoffs for measures given without @ (default: 1000)")
    p.add_argument("--condensed", action="store_true",
                   help="remove unjudged documents before ranking (NTCIREVAL -j)")
    p.add_argument("--per-topic", action="store_true", help="print per-topic scores too")
    p.add_argument("--order", choices=["rank", "score"], default="rank",
                   help="rank: the rank column, ties by score then doc id (NTCIREVAL reads the "
                        "file order); score: by score, ties by doc id descending (trec_eval)")
    p.add_argument("--no-relevant", choices=["skip", "zero", "nan"], default="skip",
                   help="topics without relevant documents (default: skip, as NTCIREVAL)")
    p.add_argument("--missing", choices=["zero", "skip"], default="zero",
                   help="qrels topics missing from a run (default: zero, as NTCIREVAL)")
    p.add_argument("--duplicates", choices=["error", "keep_first"], default="error",
                   help="a document retrieved twice for a topic")
    p.add_argument("--name-by-file", action="store_true",
                   help="name runs after their file instead of the run tag (sixth column)")
    p.add_argument("--digits", type=int, default=4, help="decimals printed (default 4)")
    return p


def expand_measures(names: list[str] | None, cutoffs: list[int] | None) -> list[M.MeasureSpec]:
    """Apply the CLI's cutoff expansion (see the module docstring) and parse the names."""
    cuts = list(cutoffs) if cutoffs else list(DEFAULT_CUTOFFS)
    if not names:
        return M.parse_measures(DEFAULT_WHOLE + [f"{m}@{c}" for c in cuts for m in DEFAULT_AT])
    out: list[str] = []
    for token in (t for name in names for t in M._split_top_level(name)):
        base = token.split("(", 1)[0].split("@", 1)[0].strip()
        policy = M.MEASURES[base].cutoff if base in M.MEASURES else None
        if "@" in token.rsplit(")", 1)[-1] or policy is None:
            out.append(token)  # explicit cutoff, or unknown name: parse_measures reports it
        elif policy in ("expand", "required"):
            out.extend(f"{token}@{c}" for c in cuts)
        elif policy == "one":
            out.append(f"{token}@1")
        else:
            out.append(token)
    return M.parse_measures(out)


def _fmt(v: float, digits: int) -> str:
    return "nan" if (v is None or (isinstance(v, float) and math.isnan(v))) else f"{v:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (0 OK, 2 bad arguments or malformed input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    if args.digits < 0 or args.digits > 17:
        print(f"{parser.prog}: error: --digits must be between 0 and 17", file=sys.stderr)
        return 2
    if args.gain_values and args.gains:
        print(f"{parser.prog}: error: --gains maps levels to gains; with --gain-values the qrels "
              "already hold gains", file=sys.stderr)
        return 2
    try:
        from helpers import trec_io

        specs = expand_measures(args.measures, args.cutoffs)
        qrels = trec_io.read_qrels(args.qrels, gain_values=args.gain_values)
        runs, source = [], {}
        for path in args.run:
            run = trec_io.read_run(path, run_id=Path(path).name if args.name_by_file else None)
            for rid in pd.unique(run["run_id"]):
                if rid in source:
                    raise ValueError(f"run id {rid!r} appears in both {source[rid]} and {path}; "
                                     "use --name-by-file to name runs after their files")
                source[rid] = path
            runs.append(run)
        run = pd.concat(runs, ignore_index=True) if len(runs) > 1 else runs[0]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            res = M.evaluate(qrels, run, specs, gains=args.gains, condensed=args.condensed,
                             order_by=args.order, duplicates=args.duplicates,
                             no_relevant=args.no_relevant, missing=args.missing)
        for w in caught:  # one plain line each, never a source excerpt
            print(f"{parser.prog}: warning: {w.message}", file=sys.stderr)
    except (ValueError, OSError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2

    labels = [str(s) for s in specs]
    out = sys.stdout
    out.write("run_id\tquery_id\tmeasure\tvalue\n")
    for rid in pd.unique(res["run_id"]) if len(res) else []:
        sub = res[res["run_id"] == rid]
        if args.per_topic:
            for q, m, v in zip(sub["query_id"], sub["measure"], sub["value"]):
                out.write(f"{rid}\t{q}\t{m}\t{_fmt(float(v), args.digits)}\n")
        means = sub.groupby("measure", sort=False)["value"].mean()
        for lab in labels:
            out.write(f"{rid}\tall\t{lab}\t{_fmt(float(means.get(lab, np.nan)), args.digits)}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
