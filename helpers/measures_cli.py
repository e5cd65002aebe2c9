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
Q, RBP, ERR, EBR and, per cutoff, AP, Q, nDCG, MSnDCG, P, RBP, ERR, nERR, EBR and Hit -- except
that AP, Q, RBP, ERR and EBR are not repeated at a cutoff >= 1000 (TREC's run depth), where
``X@1000`` is ``X`` for runs of at most 1000 documents.

Coming from trec_eval or ir_measures (issue 19):

* **Order.** TREC run files are ranked as trec_eval ranks them (``--order trec_eval``, the
  default): by score, compared in single precision as trec_eval stores it (``float sim``), ties
  by decreasing document id; the rank column is ignored. ``--order score`` compares the scores in
  double precision, ``--order rank`` follows the rank column (ties by score, then document id),
  and ``--order file`` keeps each list in file order, as NTCIREVAL reads its per-topic ``.res``
  lists.
* **Names.** ``nDCG@10`` is NTCIREVAL's original nDCG; trec_eval's ``ndcg_cut_10`` (ir_measures
  ``nDCG@10``) is ``MSnDCG@10``. ``--names trec_eval`` reads trec_eval names (``map``,
  ``recip_rank``, ``P_10``, ``recall_100``, ``ndcg_cut_10``, ``map_cut_10``) and ir_measures names
  (``nDCG@10``, ``AP(rel=2)``, ``Success@10``), prints them as written and says on stderr which
  engine measure each one is (:mod:`helpers.measure_names`).
* **Relevance threshold.** ``--rel 2`` (trec_eval ``-l 2``) makes levels below 2 non-relevant for
  the binary measures (AP, RR, P, R, Hit) written without ``rel=``; graded measures keep their
  gains. ``--rel dl19-passage`` takes the collection's own threshold
  (:func:`helpers.collections.relevance_threshold`).
* **Output.** ``--output-format trec_eval`` prints ``measure<TAB>query<TAB>value`` lines as
  trec_eval does (a ``runid`` and a ``num_q`` line, then per-topic lines with ``--per-topic``,
  then the ``all`` lines); ``--output-format jsonl`` one JSON object per line, with the topic
  count on the ``all`` lines and full precision.

The official TREC DL-19 passage numbers (AP and RR at level >= 2, nDCG@10)::

    python -m helpers evaluate --qrels qrels.dl19-passage.txt --run RUN \
        --names trec_eval --measures map recip_rank ndcg_cut_10 --rel dl19-passage

Exit status: 0 on success, 2 for bad arguments or malformed input (the message names the file
and line).
"""

from __future__ import annotations

import argparse
import json
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
#: TREC's run depth: at cutoffs >= this, X@l of a whole-list family is X itself for runs of at
#: most this many documents, so the default list does not print the pair (issue 19).
RUN_DEPTH = 1000
#: Default list under --names trec_eval / ir_measures (trec_eval names).
DEFAULT_TREC_EVAL = ["map", "recip_rank", "P_10", "recall_1000", "ndcg_cut_10"]
ORDERS = ("trec_eval", "score", "rank", "file")
OUTPUT_FORMATS = ("table", "jsonl", "trec_eval")


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
                epilog="Measures: " + ", ".join(d.usage() for d in M.MEASURES.values())
                + ". Binary measures (AP, RR, P, R, Hit) also take rel=N (levels below N are "
                "non-relevant). nDCG is NTCIREVAL's original nDCG; trec_eval's ndcg_cut_K "
                "(ir_measures nDCG@K) is MSnDCG@K: see --names.")
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
    p.add_argument("--order", choices=ORDERS, default=None,
                   help="ranking of each list. trec_eval (default for TREC run files): score in "
                        "single precision as trec_eval stores it, ties by doc id descending, rank "
                        "column ignored; score: the same in double precision; rank: the rank column, "
                        "ties by score then doc id; file: file order (NTCIREVAL reads its per-topic "
                        ".res lists in file order)")
    p.add_argument("--no-relevant", choices=["skip", "zero", "nan"], default="skip",
                   help="topics without relevant documents (default: skip, as NTCIREVAL)")
    p.add_argument("--missing", choices=["zero", "skip"], default="zero",
                   help="qrels topics missing from a run (default: zero, as NTCIREVAL)")
    p.add_argument("--duplicates", choices=["error", "keep_first"], default="error",
                   help="a document retrieved twice for a topic")
    p.add_argument("--name-by-file", action="store_true",
                   help="name runs after their file instead of the run tag (sixth column)")
    p.add_argument("--digits", type=int, default=4, help="decimals printed (default 4)")
    _add_interop_options(p)
    return p


def _add_interop_options(p: argparse.ArgumentParser) -> None:
    """Options for users of trec_eval / ir_measures (issue 19)."""
    from helpers import measure_names

    table = "; ".join(f"{t} | {i} = {e}" for t, i, e in measure_names.TRANSLATIONS)
    p.add_argument("--names", choices=measure_names.NAME_SCHEMES, default="ntcireval",
                   help="how --measures are named: ntcireval (this engine, default: nDCG@10 is the "
                        "original nDCG), trec_eval or ir_measures (both accept both tools' names; "
                        f"trec_eval | ir_measures = engine: {table}; default list "
                        f"{' '.join(DEFAULT_TREC_EVAL)})")
    p.add_argument("--rel", metavar="N|COLLECTION",
                   help="relevance threshold of the binary measures (AP, RR, P, R, Hit) written "
                        "without rel=: levels below N are non-relevant (trec_eval -l N, ir_measures "
                        "rel=N); or a collection name whose threshold is used, e.g. dl19-passage (2). "
                        "Graded measures are unaffected. Default: level >= 1")
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default="table",
                   help="table: run_id query_id measure value (default); trec_eval: "
                        "measure<TAB>query<TAB>value as trec_eval prints it (runid and num_q lines, "
                        "'all' for the mean); jsonl: one JSON object per line, full precision, "
                        "n_topics on the 'all' lines")


def _rel_value(text: str | None) -> int | None:
    if text is None:
        return None
    if text.strip().isdigit():
        value = int(text)
        if value < 1:
            raise ValueError(f"--rel must be an integer level >= 1 or a collection name, got {text!r}")
        return value
    from helpers import collections
    return collections.relevance_threshold(text)


def resolve_measures(args) -> list[tuple[str, M.MeasureSpec]]:
    """(printed label, engine measure) pairs for the parsed arguments: the cutoff expansion of
    NTCIREVAL names, trec_eval/ir_measures name translation, and ``--rel``."""
    from helpers import measure_names

    rel = _rel_value(args.rel)
    if args.names == "ntcireval":
        specs = M.with_default_rel(expand_measures(args.measures, args.cutoffs), rel)
        return [(str(s), s) for s in specs]
    if args.cutoffs:
        raise ValueError("--cutoffs expands NTCIREVAL names; trec_eval/ir_measures names carry their "
                         "cutoff (ndcg_cut_10, nDCG@10)")
    out, seen = [], set()
    for token in (t for name in (args.measures or DEFAULT_TREC_EVAL) for t in M._split_top_level(name)):
        if token in seen:
            continue
        seen.add(token)
        out.append((token, M.with_default_rel([measure_names.translate(token, args.names)], rel)[0]))
    return out


def expand_measures(names: list[str] | None, cutoffs: list[int] | None) -> list[M.MeasureSpec]:
    """Apply the CLI's cutoff expansion (see the module docstring) and parse the names."""
    cuts = list(cutoffs) if cutoffs else list(DEFAULT_CUTOFFS)
    if not names:  # no X@1000 beside X for the whole-list families (issue 19)
        return M.parse_measures(DEFAULT_WHOLE + [f"{m}@{c}" for c in cuts for m in DEFAULT_AT
                                                 if not (m in DEFAULT_WHOLE and c >= RUN_DEPTH)])
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

        named = resolve_measures(args)
        specs = M.parse_measures([s for _, s in named])
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
        run, order_by = _apply_order(run, args.order or "trec_eval")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            res = M.evaluate(qrels, run, specs, gains=args.gains, condensed=args.condensed,
                             order_by=order_by, duplicates=args.duplicates,
                             no_relevant=args.no_relevant, missing=args.missing)
        for w in caught:  # one plain line each, never a source excerpt
            print(f"{parser.prog}: warning: {w.message}", file=sys.stderr)
    except (ValueError, OSError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.names != "ntcireval":  # make the translation impossible to miss
        print(f"{parser.prog}: note: {args.names} names are this engine's "
              + ", ".join(f"{lab} = {s}" for lab, s in named), file=sys.stderr)
    _write(res, named, args, sys.stdout)
    return 0


def _apply_order(run: pd.DataFrame, order: str) -> tuple[pd.DataFrame, str]:
    """The run and ``evaluate``'s ``order_by`` for a ``--order`` choice."""
    if order == "trec_eval":  # trec_eval keeps scores as C float: ties at single precision
        with np.errstate(over="ignore"):
            single = run["score"].to_numpy(dtype=np.float64).astype(np.float32).astype(np.float64)
        return run.assign(score=single), "score"
    if order == "file":  # rows are in file order (files in --run order): rank = row number
        return run.assign(rank=np.arange(len(run), dtype=np.int64)), "rank"
    return run, order


def _write(res: pd.DataFrame, named: list[tuple[str, M.MeasureSpec]], args, out) -> None:
    """Print per-topic rows (--per-topic) and the means in the chosen --output-format."""
    label_of: dict[str, list[str]] = {}
    for lab, s in named:
        label_of.setdefault(str(s), []).append(lab)
    order = [lab for lab, _ in named]
    agg = M.aggregate(res) if len(res) else pd.DataFrame(columns=["run_id", "measure", "value", "n_topics"])
    fmt = args.output_format
    if fmt == "table":
        out.write("run_id\tquery_id\tmeasure\tvalue\n")
    for rid in pd.unique(res["run_id"]) if len(res) else []:
        sub = res[res["run_id"] == rid]
        means = {lab: (v, n) for m, v, n in zip(*(agg.loc[agg["run_id"] == rid, c]
                                                  for c in ("measure", "value", "n_topics")))
                 for lab in label_of.get(m, [])}
        if fmt == "trec_eval":
            out.write(f"{'runid':<22}\tall\t{rid}\n")
            out.write(f"{'num_q':<22}\tall\t{sub['query_id'].nunique()}\n")
        if args.per_topic:
            for q, m, v in zip(sub["query_id"], sub["measure"], sub["value"]):
                for lab in label_of.get(m, []):
                    out.write(_line(fmt, rid, q, lab, float(v), None, args.digits))
        for lab in order:
            v, n = means.get(lab, (np.nan, 0))
            out.write(_line(fmt, rid, "all", lab, float(v), int(n), args.digits))


def _line(fmt: str, rid: str, q: str, label: str, value: float, n: int | None, digits: int) -> str:
    if fmt == "trec_eval":
        return f"{label:<22}\t{q}\t{_fmt(value, digits)}\n"
    if fmt == "jsonl":
        row = {"run_id": rid, "query_id": q, "measure": label,
               "value": None if math.isnan(value) else value}
        if n is not None:
            row["n_topics"] = n
        return json.dumps(row) + "\n"
    return f"{rid}\t{q}\t{label}\t{_fmt(value, digits)}\n"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
