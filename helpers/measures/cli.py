"""``python -m helpers evaluate``: score TREC runs with :mod:`helpers.measures`.

Reads TREC qrels (``qid 0 docid level``; with ``--gain-values`` the fourth column is a real-valued
gain) and one or more TREC run files, and prints a tab-separated table
``run_id  query_id  measure  value``: the mean over topics (``query_id`` = ``all``) and, with
``--per-topic``, one row per topic before it.

Measures and cutoffs follow NTCIREVAL: a bare name of a measure that NTCIREVAL reports at
cutoffs (``nDCG``, ``MSnDCG``, ``nERR``, ``nCG``, ``iRBU``, ``P``, ``Hit``) is expanded to one
measure per ``--cutoffs`` value (default 1000, NTCIREVAL's default); ``AP``, ``Q``, ``P+``,
``RR``, ``RBP``, ``ERR``, ``EBR`` stay whole-list measures unless written with ``@l``;
``nG`` means ``nG@1``. What is printed without ``--measures`` is listed below; a whole-list measure
is not repeated at a cutoff >= 1000 (TREC's run depth), where ``X@1000`` is ``X`` for runs of at
most 1000 documents.

Coming from trec_eval or ir_measures:

* **Conventions.** ``--conventions ntcireval`` (the default, as in the Python API) or
  ``--conventions trec_eval`` sets names, ordering, score precision and the rules for empty topics
  together (:mod:`helpers.measures.conventions`); ``--names``, ``--order``, ``--no-relevant`` and
  ``--missing`` override one setting each, and ``--names trec_eval`` alone selects trec_eval. The
  settings in force are printed on stderr.
* **Order.** ``--order trec_eval`` (the trec_eval convention): by score, compared in single
  precision as trec_eval stores it (``float sim``), ties by decreasing document id; the rank column
  is ignored. ``--order rank`` (the ntcireval convention) follows the rank column (ties by score,
  then document id), ``--order score`` compares the scores in double precision, and ``--order
  file`` keeps each list in file order, as NTCIREVAL reads its per-topic ``.res`` lists.
* **Names.** Under NTCIREVAL names ``nDCG@10`` is NTCIREVAL's original nDCG (said once on stderr
  when no convention was chosen); trec_eval's ``ndcg_cut_10`` (ir_measures ``nDCG@10``) is
  ``MSnDCG@10``. trec_eval names (``map``, ``recip_rank``, ``P_10``, ``recall_100``,
  ``ndcg_cut_10``, ``map_cut_10``) and ir_measures names (``nDCG@10``, ``AP(rel=2)``,
  ``Success@10``) are read under the trec_eval convention, printed as written, and stderr says which
  engine measure each one is (:mod:`helpers.measures.names`).
* **Relevance threshold.** ``--rel 2`` (trec_eval ``-l 2``) makes levels below 2 non-relevant for
  the binary measures (AP, RR, P, R, Hit) written without ``rel=``; graded measures keep their
  gains. ``--rel dl19-passage`` takes the collection's own threshold
  (:func:`helpers.data.thresholds.relevance_threshold`).
* **Output.** ``--output-format trec_eval`` prints ``measure<TAB>query<TAB>value`` lines as
  trec_eval does (a ``runid`` and a ``num_q`` line, then per-topic lines with ``--per-topic``,
  then the ``all`` lines); ``--output-format jsonl`` one JSON object per line, with the topic
  count on the ``all`` lines and full precision.

The official TREC DL-19 passage numbers (AP and RR at level >= 2, nDCG@10), equal to pytrec_eval's::

    python -m helpers evaluate --qrels qrels.dl19-passage.txt --run RUN \
        --conventions trec_eval --measures map recip_rank ndcg_cut_10 --rel dl19-passage

``nG`` means ``nG@1``. Without ``--measures`` everything ``ntcir_eval compute`` prints is computed, in
its order (:func:`ntcireval_default_measures`): RR, O-measure, P-measure, P+, AP, Q, NCUgu,P,
NCUgu,BR, NCUrb,P, NCUrb,BR, [GAP], RBP, ERR, EBR and, per cutoff, AP, Q, [GAP], nDCG, MSnDCG, P,
RBP, ERR, nERR, EBR, [iRBU], Hit, then [bpref, bpref_R, bpref_N, bpref_relative, rpref_N,
rpref_relative, rpref_relative2]; the bracketed ones with ``--gap``, ``--rbup`` and ``--condensed``
as NTCIREVAL's ``-gap``, ``-rbup`` and ``-j``; with ``--gain-values`` (``gcompute``) NCUgu and iRBU
are left out. ``--beta``, ``--gamma``, ``--rbp``, ``--rbup`` and ``--logb`` set the parameter of
every measure that has it and does not set it itself (see :func:`apply_knobs`).

``--output-format ntcireval`` prints, per run, the per-topic lines of ``ntcir_eval compute -out <topic>``
(``<topic> # syslen=.. jrel=.. jnonrel=..``, ``<topic> # r1=.. rp=..``, ``<topic> NAME=   0.1234``
with NTCIREVAL's names such as ``Q-measure``, ``P-plus``, ``nDCG@0010``, padded as its printf
does), then the mean over topics of each measure, prefixed with the run id (the layout of that
mean block is ours: NTCIREVAL's ``NEV2mean`` prints means per run, but its exact layout is not
reproduced). ``--qrels`` also reads NTCIREVAL qrels (``topic doc L<n>``) and a folder or glob of
per-topic ``<topic>.rel`` files; ``--run`` also reads a glob or folder of ``<run>/<topic>.res``
ranked lists (see :mod:`helpers.io.readers`).

Exit status: 0 on success, 2 for bad arguments or malformed input (the message names the file
and line).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import unicodedata
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..data import thresholds
from ..io import coerce, trec
from . import adhoc as M, names
from . import conventions as C
from .notices import one_line
from .spec import expand_ntcir_aliases, format_value, parse_value, split_top_level

DEFAULT_CUTOFFS = (1000,)
#: TREC's run depth: at cutoffs >= this, X@l of a whole-list family is X itself for runs of at
#: most this many documents, so the default list does not print the pair.
RUN_DEPTH = 1000
#: Default list under trec_eval / ir_measures names.
DEFAULT_TREC_EVAL = ["map", "recip_rank", "P_10", "recall_1000", "ndcg_cut_10"]
ORDERS = ("trec_eval", "score", "rank", "file")
OUTPUT_FORMATS = ("table", "jsonl", "trec_eval", "ntcireval")


class _StoreOnce(argparse._StoreAction):
    """A single-value option given twice (``--qrels A --qrels B``) is refused: argparse keeps the
    last one silently."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in seen:
            raise argparse.ArgumentError(self, f"given twice ({seen[self.dest]!r}, then {values!r}); give it "
                                               "once" + (" with every value after it" if self.nargs else ""))
        seen[self.dest] = values
        setattr(namespace, self.dest, values)


#: Public for other commands' parsers (tools/build_book.py).
StoreOnce = _StoreOnce


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message):  # argparse would print usage and exit(2); keep exit(2), no usage spam
        raise _UsageError(message)

    def parse_args(self, args=None, namespace=None):
        ns = super().parse_args(self._negative_values(sys.argv[1:] if args is None else list(args)), namespace)
        ns.__dict__.pop("_given_once", None)
        return ns

    def _negative_values(self, args: list[str]) -> list[str]:
        """``--gains -1:2:3:4`` as ``--gains=-1:2:3:4``: argparse takes a value that starts with
        ``-`` for an option unless it is a plain negative number (``--rel -1``), and says
        'expected one argument'. A value starting with ``-`` and a digit, ``.`` or ``:`` after an
        option that takes one value is that option's value (no option is spelled so)."""
        single = {s for a in self._actions if a.option_strings and a.nargs is None for s in a.option_strings}
        out: list[str] = []
        for k, a in enumerate(args):
            if out and out[-1] in single and k and args[k - 1] == out[-1] and re.match(r"-[0-9.:]", a):
                out[-1] = f"{out[-1]}={a}"
                continue
            out.append(a)
        return out


class _UsageError(Exception):
    pass


def _cutoffs(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit()) or int(part) < 1:
            raise argparse.ArgumentTypeError(
                f"cutoffs must be positive integers separated by commas, e.g. 1,10,1000; got {text!r}")
        out.append(int(part))
    return out


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=f"{paths.COMMAND} evaluate",   # `subjeval evaluate` where the library is installed
                description="Evaluate TREC runs with NTCIREVAL's graded-relevance measures.",
                epilog="Measures: " + ", ".join(d.usage() for d in M.MEASURES.values())
                + ". Binary measures (AP, RR, P, R, Hit) also take rel=N (levels below N are "
                "non-relevant). nDCG is NTCIREVAL's original nDCG; trec_eval's ndcg_cut_K "
                "(ir_measures nDCG@K) is MSnDCG@K: see --names.")
    p.add_argument("--qrels", required=True, metavar="FILE", help="TREC qrels file (may be gzipped)")
    p.add_argument("--run", required=True, action="extend", nargs="+", metavar="FILE",
                   help="TREC run file(s): --run a.txt b.txt, or --run repeated")
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
    p.add_argument("--conventions", choices=list(C.PRESETS), default=None,
                   help="names, ordering, score precision and empty-topic rules together: ntcireval "
                        "(default: NTCIREVAL names, the rank column's order, topics without relevant "
                        "documents skipped, unanswered topics 0) or trec_eval (trec_eval/ir_measures "
                        "names, score order in single precision with ties by doc id descending, "
                        "topics without relevant documents 0, unanswered topics skipped). --names, "
                        "--order, --no-relevant and --missing override single settings; --names "
                        "trec_eval alone selects trec_eval. The settings in force are printed on stderr")
    p.add_argument("--order", choices=ORDERS, default=None,
                   help="ranking of each list (default: the conventions'). trec_eval: score in "
                        "single precision as trec_eval stores it, ties by doc id descending, rank "
                        "column ignored; score: the same in double precision; rank: the rank column, "
                        "ties by score then doc id (ntcireval); file: file order (NTCIREVAL reads its "
                        "per-topic .res lists in file order)")
    p.add_argument("--no-relevant", choices=["skip", "zero", "nan"], default=None,
                   help="topics without relevant documents (default: the conventions': skip under "
                        "ntcireval, zero under trec_eval)")
    p.add_argument("--missing", choices=["zero", "skip"], default=None,
                   help="qrels topics missing from a run (default: the conventions': zero under "
                        "ntcireval, skip under trec_eval)")
    p.add_argument("--duplicates", choices=["error", "keep_first"], default="error",
                   help="a document retrieved twice for a topic")
    p.add_argument("--name-by-file", action="store_true",
                   help="name runs after their file instead of the run tag (sixth column)")
    p.add_argument("--digits", type=int, default=4, help="decimals printed (default 4)")
    _add_interop_options(p)
    ntcir = p.add_argument_group("NTCIREVAL options (ntcir_eval compute/gcompute flags)")
    ntcir.add_argument("--beta", type=float, metavar="B",
                       help="beta of the blended ratio (Q, P+, O-/P-measure, EBR, NCU..,BR; -beta)")
    ntcir.add_argument("--gamma", type=float, metavar="G",
                       help="gamma of rank-biased NCU (NCUrb,P and NCUrb,BR; -gamma, default 0.95)")
    ntcir.add_argument("--rbp", type=float, metavar="P", help="RBP persistence (-rbp, default 0.95)")
    ntcir.add_argument("--rbup", type=float, metavar="P",
                       help="iRBU persistence; also adds iRBU@l to the default list (-rbup)")
    ntcir.add_argument("--logb", metavar="B", help="log base of nDCG (-logb, default 2; 'e' for ln)")
    ntcir.add_argument("--gap", action="store_true",
                       help="add GAP and GAP@l to the default list (-gap); with --measures name GAP")
    return p


def _add_interop_options(p: argparse.ArgumentParser) -> None:
    """Options for users of trec_eval / ir_measures."""
    table = "; ".join(f"{t} | {i} = {e}" for t, i, e in names.TRANSLATIONS)
    p.add_argument("--names", choices=names.NAME_SCHEMES, default=None,
                   help="how --measures are named (default: the conventions'): ntcireval (this "
                        "engine: nDCG@10 is the original nDCG; trec_eval names such as map or "
                        "ndcg_cut_10 are recognised too), trec_eval or ir_measures (both accept both "
                        f"tools' names; trec_eval | ir_measures = engine: {table}; default list "
                        f"{' '.join(DEFAULT_TREC_EVAL)})")
    p.add_argument("--rel", metavar="N|COLLECTION",
                   help="relevance threshold of the binary measures (AP, RR, P, R, Hit) written "
                        "without rel=: levels below N are non-relevant (trec_eval -l N, ir_measures "
                        "rel=N); or a collection name whose threshold is used, e.g. dl19-passage (2). "
                        "Graded measures are unaffected. Default: level >= 1")
    p.add_argument("--output-format", "--format", dest="output_format", choices=OUTPUT_FORMATS,
                   default="table",
                   help="(--format is the same option) table: run_id query_id measure value (default); "
                        "ntcireval: ntcir_eval compute per-topic lines and a mean block, %%.4f; trec_eval: "
                        "measure<TAB>query<TAB>value as trec_eval prints it (runid and num_q lines, "
                        "'all' for the mean); jsonl: one JSON object per line, full precision, "
                        "n_topics on the 'all' lines")


def _rel_value(text: str | None) -> int | None:
    if text is None:
        return None
    if re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):      # a number (a negative one too), never a collection
        value = int(text)
        if value < 1:
            raise ValueError(f"--rel must be an integer level >= 1 or a collection name, got {text!r}")
        return value
    try:   # any other number (2.0, 1e3, nan) is a level written wrongly, never a collection's name
        float(text)
    except ValueError:
        return thresholds.relevance_threshold(text)
    raise ValueError(f"--rel must be an integer level >= 1 or a collection name, got {text!r} (a level is "
                     "written as an integer: 2, not 2.0)")


def resolve_conventions(args) -> C.Conventions:
    """The conventions in force: ``--conventions`` with ``--names``, ``--order``, ``--no-relevant``
    and ``--missing`` overriding it (``--order trec_eval`` is score order in single precision)."""
    order_by, precision = {"trec_eval": ("score", "single"), "score": ("score", "double"),
                           "rank": ("rank", None), "file": ("rank", None), None: (None, None)}[args.order]
    return C.resolve(args.conventions, names=args.names, order_by=order_by, score_precision=precision,
                     no_relevant=args.no_relevant, missing=args.missing)


def resolve_measures(args, conv: "C.Conventions | None" = None) -> list[tuple[str, M.MeasureSpec]]:
    """(printed label, engine measure) pairs for the parsed arguments: the cutoff expansion of
    NTCIREVAL names, trec_eval/ir_measures name translation, and ``--rel``. Names the user typed
    that ir_measures reads otherwise warn once when no convention was chosen."""
    conv = conv or resolve_conventions(args)
    rel = _rel_value(args.rel)
    if conv.names == "ntcireval":
        named = _ntcir_named(args, warn=not conv.chosen)
    else:
        if args.cutoffs:
            raise ValueError("--cutoffs expands NTCIREVAL names; trec_eval/ir_measures names carry their "
                             "cutoff (ndcg_cut_10, nDCG@10)")
        named = names.resolve(args.measures or DEFAULT_TREC_EVAL, conv.names)
    out = []
    for label, spec in named:
        with_rel = M.with_default_rel([spec], rel)[0]
        out.append((str(with_rel) if label == str(spec) else label, with_rel))
    return out


def expand_names(requested: list[str] | None, cutoffs: list[int] | None) -> list[str]:
    """The CLI's cutoff expansion of NTCIREVAL names (see the module docstring), as names."""
    cuts = list(cutoffs) if cutoffs else list(DEFAULT_CUTOFFS)
    if not requested:  # no X@1000 beside X for the whole-list families
        return ntcireval_default_measures(cuts, drop_run_depth=True)
    out: list[str] = []
    for token in (t for name in requested for t in split_top_level(expand_ntcir_aliases(name))):
        base = token.split("(", 1)[0].split("@", 1)[0].strip()
        policy = M.MEASURES[base].cutoff if base in M.MEASURES else None
        if "@" in token.rsplit(")", 1)[-1] or "@" in token.split("(", 1)[0] or policy is None:
            out.append(token)  # explicit cutoff, or not an engine name: names.resolve reads or reports it
        elif policy in ("expand", "required"):
            out.extend(_as_written(token, [f"{token}@{c}" for c in cuts]))
        elif policy == "one":
            out.extend(_as_written(token, [f"{token}@1"]))
        else:
            out.append(token)
    return out


def _as_written(token: str, expanded: list[str]) -> list[str]:
    """``expanded`` (``token`` at the cutoffs the CLI adds), each parsed now: an error that the
    name has at every cutoff (a bad parameter) names ``token`` as the user wrote it, never a
    cutoff they did not write (``'nDCG(b=0)'``, not ``'nDCG(b=0)@1000'``)."""
    for name in expanded:
        try:
            M.parse_measures([name])
        except ValueError as exc:
            try:
                M.parse_measures([f"{token}@1"])
            except ValueError as at_one:
                if str(at_one).replace(f"{token}@1", name) == str(exc):   # not the cutoff's fault
                    raise ValueError(str(exc).replace(name, token)) from None
            raise
    return expanded


def expand_measures(requested: list[str] | None, cutoffs: list[int] | None) -> list[M.MeasureSpec]:
    """Apply the CLI's cutoff expansion (see the module docstring) and parse the names."""
    return M.parse_measures(expand_names(requested, cutoffs))


def _ntcir_named(args, warn: bool) -> list[tuple[str, M.MeasureSpec]]:
    """Measures of the command line with NTCIREVAL's flags applied (see :func:`apply_knobs`):
    engine names labelled canonically, trec_eval/ir_measures names as typed."""
    for flag, v, ok, want in [("--beta", args.beta, lambda x: x >= 0, ">= 0"),
                              ("--gamma", args.gamma, lambda x: 0 <= x <= 1, "in [0, 1]"),
                              ("--rbp", args.rbp, lambda x: 0 < x < 1, "in (0, 1)"),
                              ("--rbup", args.rbup, lambda x: 0 < x <= 1, "in (0, 1]")]:
        if v is not None and not (math.isfinite(v) and ok(v)):
            raise ValueError(f"{flag} must be {want}, got {v!r}")
    logb = None
    if args.logb is not None:
        logb = "e" if args.logb == "e" else parse_value(args.logb)
        if logb != "e" and (not isinstance(logb, float) or logb <= 1):
            raise ValueError(f"--logb must be a number > 1 or 'e', got {args.logb!r} (NTCIREVAL's "
                             "'-logb 0' discounts rank 2 by ln 2 < 1, which its Python port does "
                             "not; write e for a natural log with ranks <= e undiscounted)")
    if args.measures:
        if args.gap:
            raise ValueError("--gap adds GAP to the default measure list; with --measures, name "
                             "GAP and GAP@l yourself")
        named = names.resolve(expand_names(args.measures, args.cutoffs), "ntcireval", warn=warn)
    else:  # the default list: nothing typed, nothing to warn about
        named = names.resolve(ntcireval_default_measures(
            args.cutoffs, gap=args.gap, condensed=args.condensed, rbup=args.rbup,
            gain_values=args.gain_values, drop_run_depth=args.output_format != "ntcireval"), "ntcireval")
    knobbed = apply_knobs([s for _, s in named], beta=args.beta, gamma=args.gamma, rbp=args.rbp,
                          rbup=args.rbup, logb=logb)
    return [(str(new) if label == str(old) else label, new) for (label, old), new in zip(named, knobbed)]


def _fmt(v: float, digits: int) -> str:
    return "nan" if (v is None or (isinstance(v, float) and math.isnan(v))) else f"{v:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (0 OK, 2 bad arguments or malformed input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print(f"{parser.prog}: error: {one_line(exc)}", file=sys.stderr)
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
        conv = resolve_conventions(args)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            named = resolve_measures(args, conv)
            specs = M.parse_measures([s for _, s in named])
            qrels = read_qrels_any(args.qrels, args.gain_values)
            run = coerce.read_run_files(args.run, name_by_file=args.name_by_file, what="--run",
                                        duplicates=args.duplicates)
            if args.order == "file":  # rows are in file order (files in --run order): rank = row number
                run = run.assign(rank=np.arange(len(run), dtype=np.int64))
            res = M.evaluate(qrels, run, (specs + M.parse_measures(["r1", "rp"])
                                          if args.output_format == "ntcireval" else specs),
                             conventions=conv, gains=args.gains, condensed=args.condensed,
                             duplicates=args.duplicates, order_by=conv.order_by if args.order else None)
            if args.output_format != "jsonl":
                refuse_control_characters(res, [lab for lab, _ in named])
        print(f"{parser.prog}: {conv.describe(file_order=args.order == 'file')}", file=sys.stderr)
        for w in caught:  # one plain line each, never a source excerpt; the rank-order note names the flags
            check = getattr(w.message, "check", None)
            print(f"{parser.prog}: warning: {one_line(check.note('command') if check else w.message)}", file=sys.stderr)
        if args.output_format == "ntcireval":
            info = ntcir_info(qrels, run, res, condensed=args.condensed)
            res = res[res["measure"].isin([str(s) for s in specs])]
            write_ntcireval(sys.stdout, res, specs, info)
            return 0
    except (ValueError, OSError) as exc:
        print(f"{parser.prog}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    renamed = [(lab, s) for lab, s in named if lab != str(s)]
    if renamed:  # make the translation impossible to miss
        print(f"{parser.prog}: note: trec_eval/ir_measures names are this engine's "
              + ", ".join(f"{lab} = {s}" for lab, s in renamed), file=sys.stderr)
    _write(res, named, args, sys.stdout)
    return 0


def refuse_control_characters(res: pd.DataFrame, labels: list[str]) -> None:
    """Refuse a run id, topic id or measure name holding a control character (tab, newline, the
    separators U+001C-U+001F, U+0085, U+2028, U+2029, ...): printed raw it would split the output
    line or its columns (a file named ``r<newline>x`` with ``--name-by-file``); jsonl escapes them."""
    def bad(text: str) -> bool:
        return any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text)

    for what, values in (("run id", pd.unique(res["run_id"]) if len(res) else []),
                         ("topic id", pd.unique(res["query_id"]) if len(res) else []), ("measure", labels)):
        found = [str(v) for v in values if bad(str(v))]
        if found:
            raise ValueError(f"{what} {found[0]!r} holds a control character, which would split the printed line "
                             "or its columns; rename it (a run named by its file: rename the file or leave out "
                             "--name-by-file), or print --output-format jsonl, which escapes it")


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


# ---------------------------------------------------------------------------------------------
# NTCIREVAL parity: its knobs, its default measure list, its output layout, its files
# ---------------------------------------------------------------------------------------------

#: ``ntcir_eval compute`` output order; GAP only with --gap, iRBU only with --rbup, the
#: condensed-list family only with --condensed (-j). gcompute (--gain-values) prints no NCUgu and
#: no iRBU.
NTCIR_WHOLE = ["RR", "O-measure", "P-measure", "P+", "AP", "Q", "NCUgu,P", "NCUgu,BR", "NCUrb,P",
               "NCUrb,BR", "GAP", "RBP", "ERR", "EBR"]
NTCIR_AT = ["AP", "Q", "GAP", "nDCG", "MSnDCG", "P", "RBP", "ERR", "nERR", "EBR", "iRBU", "Hit"]
NTCIR_CONDENSED = list(M.CONDENSED_ONLY)

#: How NTCIREVAL prints a family's name (cutoffs follow as ``@%04d``).
NTCIR_NAMES = {"P+": "P-plus", "Q": "Q-measure"}


def ntcireval_default_measures(cutoffs: list[int] | None, *, gap: bool = False,
                               condensed: bool = False, rbup: float | None = None,
                               gain_values: bool = False, drop_run_depth: bool = False) -> list[str]:
    """The measures ``ntcir_eval compute`` (or ``gcompute`` with ``gain_values``) prints, in its
    order, for the given cutoffs and flags (-gap, -j, -rbup). ``drop_run_depth``: leave out
    ``X@l`` of a whole-list family ``X`` at ``l >= RUN_DEPTH``, where it equals ``X`` for TREC
    runs (the default of the table output; ``--output-format ntcireval`` prints them all)."""
    cuts = list(cutoffs) if cutoffs else list(DEFAULT_CUTOFFS)

    def keep(m: str) -> bool:
        if m == "GAP":
            return gap
        if m.startswith("NCUgu"):
            return not gain_values
        if m == "iRBU":
            return rbup is not None and not gain_values
        return True

    out = [m for m in NTCIR_WHOLE if keep(m)]
    out += [f"{m}@{c}" for c in cuts for m in NTCIR_AT if keep(m)
            and not (drop_run_depth and m in NTCIR_WHOLE and c >= RUN_DEPTH)]
    if condensed:
        out += NTCIR_CONDENSED
    return out


def apply_knobs(specs: list[M.MeasureSpec], *, beta=None, gamma=None, rbp=None, rbup=None,
                logb=None) -> list[M.MeasureSpec]:
    """Give every measure that has the parameter and does not set it explicitly NTCIREVAL's
    command-line value: -beta (every blended ratio: Q, P+, O-/P-measure, EBR, NCU..,BR), -gamma
    (NCUrb), -rbp (RBP), -rbup (iRBU), -logb (nDCG)."""
    out = []
    for s in specs:
        explicit = dict(s.params)
        resolved = s.resolved
        new = dict(explicit)
        for key, value in (("beta", beta), ("gamma", gamma), ("b", logb)):
            if value is None or key not in resolved or key in explicit:
                continue
            if s.name == "NCU" and key == "beta" and resolved["util"] != "BR":
                continue
            if s.name == "NCU" and key == "gamma" and resolved["stop"] != "rb":
                continue
            new[key] = value
        if "p" in resolved and "p" not in explicit:
            value = rbp if s.name == "RBP" else rbup if s.name == "iRBU" else None
            if value is not None:
                new["p"] = value
        if new == explicit:
            out.append(s)
            continue
        inner = ",".join(f"{k}={format_value(v)}" for k, v in new.items())
        out.append(M.MeasureSpec.parse(f"{s.name}({inner})" + (f"@{s.cutoff}" if s.cutoff else "")))
    return out


def ntcir_name(spec: M.MeasureSpec) -> str:
    """The name NTCIREVAL prints for a measure (parameters dropped: NTCIREVAL takes them from the
    command line), e.g. ``Q`` -> ``Q-measure``, ``nDCG@10`` -> ``nDCG@0010``,
    ``NCU(stop=rb,util=BR)`` -> ``NCUrb,BR``. Measures NTCIREVAL lacks keep their label."""
    if spec.name == "NCU":
        base = f"NCU{spec['stop']},{spec['util']}"
    elif spec.name in M.MEASURES and spec.name in (
            set(NTCIR_WHOLE) | set(NTCIR_AT) | set(NTCIR_CONDENSED) | set(NTCIR_NAMES)):
        # whole-list Q and P+ print as Q-measure and P-plus, Q@l as Q@00ll
        base = NTCIR_NAMES.get(spec.name, spec.name) if spec.cutoff is None else spec.name
    else:
        return str(spec)
    return base if spec.cutoff is None else f"{base}@{spec.cutoff:04d}"


def _ntcir_line(prefix: str, name: str, value: float) -> str:
    # ntcir_eval pads "NAME=" to 21 characters as written for 4-digit cutoffs (printf literals)
    pad = 21 - len(name) - 1
    if "@" in name:
        pad += len(name.split("@", 1)[1]) - 4
    return f"{prefix} {name}={' ' * max(pad, 1)}{value:.4f}"


def write_ntcireval(out, res: pd.DataFrame, specs: list[M.MeasureSpec], info: pd.DataFrame) -> None:
    """Per-topic lines as ``ntcir_eval compute -out <topic>`` prints them (what NTCIREVAL's
    NTCIR-eval script collects in ``<run>.<suffix>.nev``), then the mean over topics of each
    measure, one block per run, prefixed with the run id.

    ``info`` has one row per (run_id, query_id) with syslen, jrel, jnonrel, r1, rp.
    """
    ntcir_names = [ntcir_name(s) for s in specs]
    seen: dict[str, str] = {}
    for s, n in zip(specs, ntcir_names):
        if n in seen:
            raise ValueError(f"--format ntcireval prints {seen[n]!r} and {str(s)!r} both as {n!r}; "
                             "set the parameter with --beta/--gamma/--rbp/--rbup/--logb instead")
        seen[n] = str(s)
    labels = [str(s) for s in specs]
    info = info.set_index(["run_id", "query_id"])
    for rid in pd.unique(res["run_id"]) if len(res) else []:
        sub = res[res["run_id"] == rid]
        wide = sub.pivot(index="query_id", columns="measure", values="value")
        wide = wide.reindex(index=pd.unique(sub["query_id"]), columns=labels)
        for q, row in wide.iterrows():
            syslen, jrel, jnonrel, r1, rp = (int(x) for x in info.loc[(rid, q)])
            out.write(f"{q} # syslen={syslen} jrel={jrel} jnonrel={jnonrel}\n")
            out.write(f"{q} # r1={r1} rp={rp}\n")
            for lab, name in zip(labels, ntcir_names):
                out.write(_ntcir_line(str(q), name, float(row[lab])) + "\n")
        out.write(f"{rid} # topics={len(wide)} (mean over topics)\n")
        for lab, name in zip(labels, ntcir_names):
            out.write(_ntcir_line(str(rid), name, float(wide[lab].mean())) + "\n")


def ntcir_info(qrels: pd.DataFrame, run: pd.DataFrame, res: pd.DataFrame, *,
               condensed: bool) -> pd.DataFrame:
    """syslen, jrel, jnonrel, r1 and rp per (run_id, query_id) of ``res`` (the '#' lines of
    ntcir_eval compute); ``res`` must hold the ``r1`` and ``rp`` rows. syslen counts the judged
    documents only with -j (--condensed)."""
    col = "gain" if "gain" in qrels.columns else "relevance"
    q = qrels.assign(_rel=pd.to_numeric(qrels[col]) > 0,
                     query_id=qrels["query_id"].astype(str), doc_id=qrels["doc_id"].astype(str))
    judged = q.groupby("query_id")["_rel"].agg(jrel="sum", n="size")
    judged["jnonrel"] = judged["n"] - judged["jrel"]
    r = run.assign(query_id=run["query_id"].astype(str), doc_id=run["doc_id"].astype(str))
    if "run_id" not in r.columns:
        r = r.assign(run_id="run")
    if condensed:
        keys = pd.MultiIndex.from_frame(q[["query_id", "doc_id"]])
        r = r[pd.MultiIndex.from_frame(r[["query_id", "doc_id"]]).isin(keys)]
    syslen = r.groupby(["run_id", "query_id"]).size().rename("syslen")
    ranks = res[res["measure"].isin(["r1", "rp"])].pivot_table(
        index=["run_id", "query_id"], columns="measure", values="value", sort=False)
    keys = res[["run_id", "query_id"]].drop_duplicates()
    out = keys.join(syslen, on=["run_id", "query_id"]).join(judged[["jrel", "jnonrel"]], on="query_id")
    out = out.join(ranks[["r1", "rp"]], on=["run_id", "query_id"])
    out["syslen"] = out["syslen"].fillna(0)
    return out[["run_id", "query_id", "syslen", "jrel", "jnonrel", "r1", "rp"]].fillna(0)


def read_qrels_any(path: str, gain_values: bool) -> pd.DataFrame:
    """TREC qrels (``trec_io``), or NTCIREVAL qrels: ``topic doc L<n>`` files or a folder/glob of
    per-topic ``<topic>.rel`` files (``doc L<n>``), through :func:`helpers.io.readers.read_graded_qrels`."""
    from ..io import readers     # imported when used: the user-facing readers are many modules

    p = Path(path)
    if gain_values:
        return trec.read_qrels(path, gain_values=True)
    if p.is_file() and not p.name.lower().split(".gz")[0].endswith(".rel"):
        first = readers.first_line(p)
        if first is None or len(trec.c_fields(first[1])) == 4:
            df = trec.read_qrels(path)  # TREC qrels (and its message for an empty file)
            df.attrs["files"] = [str(path)]     # later messages name file:line (textfiles.row_place)
            return df
    df = readers.read_graded_qrels(path, what="--qrels")
    return df[["query_id", "doc_id", "relevance"]]


def is_ranked_lists(path: str) -> bool:
    """An NTCIREVAL ranked-list layout: a folder, a glob, or a ``.res`` file."""
    p = Path(path)
    return p.is_dir() or any(ch in path for ch in "*?[") or p.name.lower().split(".gz")[0].endswith(".res")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
