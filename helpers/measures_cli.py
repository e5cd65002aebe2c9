"""``python -m helpers evaluate``: score TREC runs with :mod:`helpers.measures`.

Reads TREC qrels (``qid 0 docid level``; with ``--gain-values`` the fourth column is a real-valued
gain) and one or more TREC run files, and prints a tab-separated table
``run_id  query_id  measure  value``: the mean over topics (``query_id`` = ``all``) and, with
``--per-topic``, one row per topic before it.

Measures and cutoffs follow NTCIREVAL: a bare name of a measure that NTCIREVAL reports at
cutoffs (``nDCG``, ``MSnDCG``, ``nERR``, ``nCG``, ``iRBU``, ``P``, ``Hit``) is expanded to one
measure per ``--cutoffs`` value (default 1000, NTCIREVAL's default); ``AP``, ``Q``, ``P+``,
``RR``, ``RBP``, ``ERR``, ``EBR`` stay whole-list measures unless written with ``@l``;
``nG`` means ``nG@1``. Without ``--measures`` everything ``ntcir_eval compute`` prints is computed, in
its order (:func:`ntcireval_default_measures`): RR, O-measure, P-measure, P+, AP, Q, NCUgu,P,
NCUgu,BR, NCUrb,P, NCUrb,BR, [GAP], RBP, ERR, EBR and, per cutoff, AP, Q, [GAP], nDCG, MSnDCG, P,
RBP, ERR, nERR, EBR, [iRBU], Hit, then [bpref, bpref_R, bpref_N, bpref_relative, rpref_N,
rpref_relative, rpref_relative2]; the bracketed ones with ``--gap``, ``--rbup`` and ``--condensed``
as NTCIREVAL's ``-gap``, ``-rbup`` and ``-j``; with ``--gain-values`` (``gcompute``) NCUgu and iRBU
are left out. ``--beta``, ``--gamma``, ``--rbp``, ``--rbup`` and ``--logb`` set the parameter of
every measure that has it and does not set it itself (see :func:`apply_knobs`).

``--format ntcireval`` prints, per run, the per-topic lines of ``ntcir_eval compute -out <topic>``
(``<topic> # syslen=.. jrel=.. jnonrel=..``, ``<topic> # r1=.. rp=..``, ``<topic> NAME=   0.1234``
with NTCIREVAL's names such as ``Q-measure``, ``P-plus``, ``nDCG@0010``, padded as its printf
does), then the mean over topics of each measure, prefixed with the run id (the layout of that
mean block is ours: NTCIREVAL's ``NEV2mean`` prints means per run, but its exact layout is not
reproduced). ``--qrels`` also reads NTCIREVAL qrels (``topic doc L<n>``) and a folder or glob of
per-topic ``<topic>.rel`` files; ``--run`` also reads a glob or folder of ``<run>/<topic>.res``
ranked lists (see :mod:`helpers.readers`).

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
    ntcir.add_argument("--format", choices=["tsv", "ntcireval"], default="tsv",
                       help="tsv: the run_id/query_id/measure/value table; ntcireval: per-topic lines "
                            "as ntcir_eval compute prints them, then the mean of each measure per run")
    return p


def expand_measures(names: list[str] | None, cutoffs: list[int] | None) -> list[M.MeasureSpec]:
    """Apply the CLI's cutoff expansion (see the module docstring) and parse the names."""
    cuts = list(cutoffs) if cutoffs else list(DEFAULT_CUTOFFS)
    if not names:
        return M.parse_measures(ntcireval_default_measures(cuts))
    out: list[str] = []
    for token in (t for name in names for t in M._split_top_level(M._expand_ntcir_aliases(name))):
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


def _ntcir_specs(args) -> list[M.MeasureSpec]:
    """Measures of the command line with NTCIREVAL's flags applied (see :func:`apply_knobs`)."""
    for flag, v, ok, want in [("--beta", args.beta, lambda x: x >= 0, ">= 0"),
                              ("--gamma", args.gamma, lambda x: 0 <= x <= 1, "in [0, 1]"),
                              ("--rbp", args.rbp, lambda x: 0 < x < 1, "in (0, 1)"),
                              ("--rbup", args.rbup, lambda x: 0 < x <= 1, "in (0, 1]")]:
        if v is not None and not (math.isfinite(v) and ok(v)):
            raise ValueError(f"{flag} must be {want}, got {v!r}")
    logb = None
    if args.logb is not None:
        logb = "e" if args.logb == "e" else M._parse_value(args.logb)
        if logb != "e" and (not isinstance(logb, float) or logb <= 1):
            raise ValueError(f"--logb must be a number > 1 or 'e', got {args.logb!r} (NTCIREVAL's "
                             "'-logb 0' discounts rank 2 by ln 2 < 1, which its Python port does "
                             "not; write e for a natural log with ranks <= e undiscounted)")
    if args.measures:
        if args.gap:
            raise ValueError("--gap adds GAP to the default measure list; with --measures, name "
                             "GAP and GAP@l yourself")
        specs = expand_measures(args.measures, args.cutoffs)
    else:
        specs = M.parse_measures(ntcireval_default_measures(
            args.cutoffs, gap=args.gap, condensed=args.condensed, rbup=args.rbup,
            gain_values=args.gain_values))
    return apply_knobs(specs, beta=args.beta, gamma=args.gamma, rbp=args.rbp, rbup=args.rbup,
                       logb=logb)


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
        from helpers import readers, trec_io

        specs = _ntcir_specs(args)
        qrels = read_qrels_any(args.qrels, args.gain_values)
        runs, source = [], {}
        for path in args.run:
            run = (readers.read_runs(path, what="--run") if is_ranked_lists(path) else
                   trec_io.read_run(path, run_id=Path(path).name if args.name_by_file else None))
            for rid in pd.unique(run["run_id"]):
                if rid in source:
                    raise ValueError(f"run id {rid!r} appears in both {source[rid]} and {path}; "
                                     "use --name-by-file to name runs after their files")
                source[rid] = path
            runs.append(run)
        run = pd.concat(runs, ignore_index=True) if len(runs) > 1 else runs[0]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            res = M.evaluate(qrels, run, (specs + M.parse_measures(["r1", "rp"])
                                          if args.format == "ntcireval" else specs),
                             gains=args.gains, condensed=args.condensed,
                             order_by=args.order, duplicates=args.duplicates,
                             no_relevant=args.no_relevant, missing=args.missing)
        for w in caught:  # one plain line each, never a source excerpt
            print(f"{parser.prog}: warning: {w.message}", file=sys.stderr)
        if args.format == "ntcireval":
            info = ntcir_info(qrels, run, res, condensed=args.condensed)
            res = res[res["measure"].isin([str(s) for s in specs])]
            write_ntcireval(sys.stdout, res, specs, info)
            return 0
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


# ---------------------------------------------------------------------------------------------
# NTCIREVAL parity (issue 14): its knobs, its default measure list, its output layout, its files
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
                               gain_values: bool = False) -> list[str]:
    """The measures ``ntcir_eval compute`` (or ``gcompute`` with ``gain_values``) prints, in its
    order, for the given cutoffs and flags (-gap, -j, -rbup)."""
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
    out += [f"{m}@{c}" for c in cuts for m in NTCIR_AT if keep(m)]
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
        inner = ",".join(f"{k}={M._fmt_value(v)}" for k, v in new.items())
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
    names = [ntcir_name(s) for s in specs]
    seen: dict[str, str] = {}
    for s, n in zip(specs, names):
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
            for lab, name in zip(labels, names):
                out.write(_ntcir_line(str(q), name, float(row[lab])) + "\n")
        out.write(f"{rid} # topics={len(wide)} (mean over topics)\n")
        for lab, name in zip(labels, names):
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
    per-topic ``<topic>.rel`` files (``doc L<n>``), through :func:`helpers.readers.read_graded_qrels`."""
    from helpers import readers, trec_io

    p = Path(path)
    if gain_values:
        return trec_io.read_qrels(path, gain_values=True)
    if p.is_file() and not p.name.lower().split(".gz")[0].endswith(".rel"):
        first = readers._first_line(p)
        if first is None or len(first[1].split()) == 4:
            return trec_io.read_qrels(path)  # TREC qrels (and its message for an empty file)
    df = readers.read_graded_qrels(path, what="--qrels")
    return df[["query_id", "doc_id", "relevance"]]


def is_ranked_lists(path: str) -> bool:
    """An NTCIREVAL ranked-list layout: a folder, a glob, or a ``.res`` file."""
    p = Path(path)
    return p.is_dir() or any(ch in path for ch in "*?[") or p.name.lower().split(".gz")[0].endswith(".res")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
