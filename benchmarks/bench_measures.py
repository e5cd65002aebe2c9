"""Benchmark of helpers.measures against pytrec_eval, ir_measures and pyNTCIREVAL.

Run from the repository root (``make bench``)::

    python benchmarks/bench_measures.py [--topics 100] [--runs 50] [--depth 1000] [--seed 0]

A seeded synthetic collection (default 100 topics x 50 runs x 1000 retrieved documents, 300
judged documents per topic on L0-L3) is evaluated by

* this engine, from tidy DataFrames (ordering, gain lookup and all included): nDCG@10 alone,
  Q alone, the full measure list at cutoffs 10 and 1000, and the full NTCIREVAL list (every
  value ``ntcir_eval compute -gap -j -rbup 0.99 -cutoffs 1,5,10,20,1000`` prints: RR, O-/P-measure,
  P+, AP, Q, the four NCU, GAP, RBP, ERR, EBR, at each cutoff AP, Q, GAP, nDCG, MSnDCG, P, RBP,
  ERR, nERR, EBR, iRBU, Hit, and the seven condensed-list measures; target <= 1.5 x pytrec_eval's
  nDCG@10 alone);
* pytrec_eval, ``ndcg_cut.10`` from its native dict-of-dicts input (building the dicts is
  timed separately and *not* charged to it);
* ir_measures, ``nDCG@10`` from DataFrames, one run at a time;
* pyNTCIREVAL, Q and nERR@10, on a subset of lists, extrapolated linearly to the full size
  (its Q costs O(depth^2) per list);
* ranx (numba-compiled; the ``bench`` extra), after its JIT warm-up: nDCG@10, AP and the full list
  against the engine from DataFrames and from an Alignment built once; then on TREC DL-19 (37
  runs, 43 topics) the official measures, and the time to read the 37 run files against the
  simplest correct parser (when the data can be fetched or a mirror is set).

Prints a markdown table of CPU times (best of several runs), ratios and peak memory (tracemalloc, measured in a
separate call so that tracing does not slow the timed one). Takes about a minute.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from helpers import measures as M  # noqa: E402
from helpers.measures import cli as measures_cli  # noqa: E402

FULL_BASE = ["AP", "Q", "P+", "RR", "RBP", "ERR", "EBR", "nG@1"]
FULL_CUT = ["AP", "Q", "MSnDCG", "nDCG", "nCG", "ERR", "nERR", "RBP", "EBR", "iRBU", "Hit", "P"]


def all_trec_lists() -> tuple[list[str], list[str], list[str], list[str]]:
    """trec_eval's ``-m all_trec`` list: its engine names (every value trec_eval prints but runid and
    relstring, whose per-topic value is a string), the engine names of the part pytrec_eval has,
    pytrec_eval's measure names for that part (gm_map and gm_bpref are the per-topic logAP and
    logBpref) and the value names pytrec_eval returns for it."""
    from helpers.measures.treceval.catalog import META_NAMES
    from helpers.measures.treceval.evaluation import marked

    import pytrec_eval

    engine, engine_peer, peer, value_names = [], [], set(), []
    for m, values in marked([("all_trec", None)]):
        if m.kind in ("runid", "relstring"):
            continue
        for v in values:
            engine.append(v.engine)
            if m.name in pytrec_eval.supported_measures:
                engine_peer.append(v.engine)
                value_names.append(v.name)
                peer.add(m.name)
    assert set(META_NAMES["all_trec"]) >= peer
    return engine, engine_peer, sorted(peer), value_names


def all_trec_agreement(qrels, run, engine_names, value_names, peer_out) -> float:
    """Largest |engine - pytrec_eval| over every all_trec value, topic and run of the benchmark. The
    engine ranks the float32-rounded scores (pytrec_eval's trec_eval 9 compares C floats) and uses
    trec_eval 9's recall cut for iprec_at_recall and 11pt_avg (rounding=v9), as pytrec_eval does."""
    import re

    names_v9 = [re.sub(r"\)$", ",rounding=v9)", n) if n.startswith("IPrec") else n for n in engine_names]
    run32 = run.assign(score=run["score"].astype(np.float32).astype(float))
    res = M.evaluate(qrels, run32, names_v9, order_by="score", no_relevant="zero", missing="skip")
    label = dict(zip((str(M.MeasureSpec.parse(n)) for n in names_v9), value_names))
    got = {(r_, q, label[m]): v for r_, q, m, v in res[["run_id", "query_id", "measure", "value"]].itertuples(index=False)}
    run_ids = list(pd.unique(run["run_id"]))
    return max(abs(got[(rid, q, name)] - v) for rid, out in zip(run_ids, peer_out) for q, vals in out.items()
               for name, v in vals.items())


def full_measure_list(cutoffs=(10, 1000)) -> list[str]:
    return FULL_BASE + [f"{m}@{c}" for c in cutoffs for m in FULL_CUT]


def ntcireval_measure_list(cutoffs=(1, 5, 10, 20, 1000)) -> list[str]:
    """Everything ``ntcir_eval compute -gap -j -rbup 0.99 -cutoffs ...`` prints."""
    return measures_cli.ntcireval_default_measures(list(cutoffs), gap=True, condensed=True, rbup=0.99)


def make_collection(n_topics: int, n_runs: int, depth: int, seed: int):
    rng = np.random.default_rng(seed)
    pool = 20 * depth
    judged = np.stack([rng.choice(pool, size=300, replace=False) for _ in range(n_topics)])
    levels = rng.choice(4, size=judged.shape, p=[0.55, 0.25, 0.15, 0.05])
    qrels = pd.DataFrame({
        "query_id": np.repeat([f"{t + 1}" for t in range(n_topics)], judged.shape[1]),
        "doc_id": [f"doc{d:06d}" for d in judged.ravel()],
        "relevance": levels.ravel(),
    })
    docs = np.empty((n_runs, n_topics, depth), dtype=np.int64)
    for r in range(n_runs):
        for t in range(n_topics):
            # each run retrieves some judged documents and many unjudged ones
            k = int(rng.integers(20, 200))
            mix = np.concatenate([rng.choice(judged[t], size=k, replace=False),
                                  rng.choice(pool, size=depth * 2)])
            docs[r, t] = pd.unique(mix)[:depth]
    scores = -np.sort(-rng.random(docs.shape), axis=2)  # TREC runs list scores in decreasing order
    run = pd.DataFrame({
        "run_id": np.repeat([f"run{r:02d}" for r in range(n_runs)], n_topics * depth),
        "query_id": np.tile(np.repeat([f"{t + 1}" for t in range(n_topics)], depth), n_runs),
        "doc_id": [f"doc{d:06d}" for d in docs.ravel()],
        "rank": np.tile(np.arange(1, depth + 1), n_runs * n_topics),
        "score": scores.ravel(),
    })
    run = run.astype({"run_id": "str", "query_id": "str", "doc_id": "str"})
    qrels = qrels.astype({"query_id": "str", "doc_id": "str"})
    return qrels, run


def timed(fn, repeat: int = 1):
    """Best of ``repeat`` runs, in CPU seconds of this process (``time.process_time``): every
    timed tool is single-threaded, and CPU time is far less disturbed than wall time by the other
    jobs of a shared machine."""
    best = np.inf
    out = None
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def timed_pair(fn_a, fn_b, repeat: int = 5):
    """Best of ``repeat`` CPU times of two functions run alternately (a, b, a, b, ...), so that a
    load change on the machine affects both sides of a ratio alike."""
    best_a = best_b = np.inf
    for _ in range(repeat):
        best_a = min(best_a, timed(fn_a)[0])
        best_b = min(best_b, timed(fn_b)[0])
    return best_a, best_b


def peak_mib(fn) -> float:
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2 ** 20


RANX_OF = {  # this engine's measure -> ranx's metric with the same definition (trec_eval's)
    "MSnDCG@10": "ndcg@10", "MSnDCG@1000": "ndcg@1000", "AP": "map", "AP(norm=R)@10": "map@10",
    "P@10": "precision@10", "P@1000": "precision@1000", "R@10": "recall@10", "R@1000": "recall@1000",
    "RR": "mrr", "RR@10": "mrr@10", "Hit@10": "hit_rate@10", "Hit@1000": "hit_rate@1000",
}


def ranx_objects(qrels: pd.DataFrame, run: pd.DataFrame):
    """ranx Qrels and one Run per run id (built once; ranx users build these objects once too)."""
    from ranx import Qrels, Run

    qd: dict = {}
    for q, d, rel in qrels[["query_id", "doc_id", "relevance"]].itertuples(index=False):
        qd.setdefault(q, {})[d] = int(rel)
    runs = []
    for rid, g in run.groupby("run_id", sort=False):
        rd: dict = {}
        for q, d, sc in zip(g["query_id"], g["doc_id"], g["score"]):
            rd.setdefault(q, {})[d] = float(sc)
        runs.append(Run(rd, name=str(rid)))
    return Qrels(qd), runs


def ranx_rows(qrels: pd.DataFrame, run: pd.DataFrame, label: str, engine_names: list[str], ranx_names: list[str],
              **engine_kw) -> list[tuple]:
    """CPU times of this engine (from DataFrames, and from an Alignment built once) and of ranx
    (from its objects built once, after its JIT warm-up, one thread) on the same measures."""
    import warnings

    from ranx import evaluate as ranx_evaluate

    rq, runs = ranx_objects(qrels, run)

    def rx():
        return [ranx_evaluate(rq, r, ranx_names, threads=1, make_comparable=True) for r in runs]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's type-safety notes
        rx()  # numba compiles here: excluded, as every user's second call
        t_engine, t_ranx = timed_pair(lambda: M.evaluate(qrels, run, engine_names, **engine_kw), rx, repeat=3)
        al = M.Alignment(qrels, run, **{k: v for k, v in engine_kw.items() if k in ("order_by", "conventions")})
        kw = {k: v for k, v in engine_kw.items() if k not in ("order_by", "conventions")}
        t_aligned, _ = timed(lambda: al.evaluate(engine_names, **kw), repeat=3)
    return [(label, len(engine_names), t_engine, t_aligned, len(ranx_names), t_ranx)]


def plain_trec_parser(paths) -> pd.DataFrame:
    """The simplest correct reader of TREC runs: split each line, no checks, file order."""
    import gzip

    rows = []
    for path in paths:
        opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    q, _, d, rank, score, tag = line.split()
                    rows.append((tag, q, d, int(rank), float(score)))
    return pd.DataFrame(rows, columns=["run_id", "query_id", "doc_id", "rank", "score"])


def dl19_rows() -> tuple[list[tuple], list[tuple]] | None:
    """DL-19 (37 official runs x 43 judged topics): reading the run files, then the four
    official measures against ranx. None when the data cannot be fetched (offline, no mirror)."""
    from helpers.data import datasets, registry
    from helpers.io import readers

    try:
        qrels = datasets.load_qrels("dl19-nist")
        ds = registry.REGISTRY["dl19-runs"]
        files = list(datasets.fetch(ds.id, paths=[rf.path for rf in ds.files if "/runs/" in f"/{rf.path}"]).values())
    except (OSError, ValueError) as exc:
        print(f"DL-19 rows skipped: {exc}", file=sys.stderr)
        return None
    t_read = min(_wall(lambda: readers.read_runs(files)) for _ in range(2))
    t_plain = min(_wall(lambda: plain_trec_parser(files)) for _ in range(2))
    run = readers.read_runs(files)
    reading = [("read the 37 DL-19 run files (wall s, all checks, trec_eval order)", t_read,
                "plain Python parser (split lines, no check)", t_plain)]
    names = ["nDCG@10", "AP(rel=2)", "P(rel=2)@10", "RR(rel=2)"]   # as an ir_measures user writes them
    rows = ranx_rows(qrels, run, "DL-19: nDCG@10, AP, P@10, RR (rel >= 2), conventions='trec_eval'", names,
                     ["ndcg@10", "map-l2", "precision@10-l2", "mrr-l2"], conventions="trec_eval")
    return reading, rows


def _load(avg) -> str:
    return ", ".join(f"{x:.2f}" for x in avg)


def _wall(fn) -> float:
    gc.collect()
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ntcir-lists", type=int, default=6,
                    help="lists scored by pyNTCIREVAL before extrapolating (default 6)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    load_start = os.getloadavg()
    qrels, run = make_collection(args.topics, args.runs, args.depth, args.seed)
    n_lists = args.topics * args.runs
    print(f"collection: {args.topics} topics x {args.runs} runs x {args.depth} docs "
          f"({len(run):,} run rows, {len(qrels):,} judgments), built in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    full = full_measure_list()

    # --- this engine ------------------------------------------------------------------------
    t_ndcg, _ = timed(lambda: M.evaluate(qrels, run, ["MSnDCG@10"]), repeat=3)
    t_q, _ = timed(lambda: M.evaluate(qrels, run, ["Q"]), repeat=3)
    t_full, res = timed(lambda: M.evaluate(qrels, run, full), repeat=3)
    ntcir_list = ntcireval_measure_list()
    mem_full = peak_mib(lambda: M.evaluate(qrels, run, full))
    mem_ndcg = peak_mib(lambda: M.evaluate(qrels, run, ["MSnDCG@10"]))

    # --- pytrec_eval --------------------------------------------------------------------------
    import pytrec_eval

    t_build = time.perf_counter()
    qd: dict = {}
    for q, d, rel in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(rel)
    rdicts = []
    for _, g in run.groupby("run_id", sort=False):
        rd: dict = {}
        for q, d, s in zip(g["query_id"], g["doc_id"], g["score"]):
            rd.setdefault(q, {})[d] = float(s)
        rdicts.append(rd)
    t_build = time.perf_counter() - t_build

    def trec():
        ev = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10"})
        return [ev.evaluate(rd) for rd in rdicts]

    t_trec, trec_out = timed(trec, repeat=3)

    # --- trec_eval's all_trec list (issue 30): this engine from DataFrames vs pytrec_eval -----------
    te_all, te_peer, peer_names, peer_values = all_trec_lists()

    def trec_all():
        ev = pytrec_eval.RelevanceEvaluator(qd, set(peer_names))
        return [ev.evaluate(rd) for rd in rdicts]

    te_kw = dict(order_by="score", no_relevant="zero", missing="skip")
    t_te_all, t_trec_all = timed_pair(lambda: M.evaluate(qrels, run, te_all, **te_kw), trec_all, repeat=3)
    t_te_peer, _ = timed(lambda: M.evaluate(qrels, run, te_peer, **te_kw), repeat=3)
    load = open("/proc/loadavg").read().split()[:3] if Path("/proc/loadavg").exists() else ["?"] * 3
    te_diff = all_trec_agreement(qrels, run, te_peer, peer_values, trec_all())
    # the issue-14 target: the full NTCIREVAL list against pytrec_eval's nDCG@10 alone, timed
    # alternately; the ratio row uses this pair, whose pytrec_eval time is reported with it
    t_ntcir, t_trec_pair = timed_pair(lambda: M.evaluate(qrels, run, ntcir_list), trec)
    mem_trec = peak_mib(trec)
    # agreement check on the benchmark data itself
    ours = M.to_matrix(M.evaluate(qrels, run, ["MSnDCG@10"], order_by="score"), "MSnDCG@10")
    diff = max(abs(ours.loc[q, rid] - v["ndcg_cut_10"])
               for rid, out in zip(ours.columns, trec_out) for q, v in out.items())

    # --- ir_measures ------------------------------------------------------------------------
    import ir_measures

    def irm():
        out = []
        for _, g in run.groupby("run_id", sort=False):
            out.extend(ir_measures.iter_calc([ir_measures.nDCG @ 10], qrels,
                                             g[["query_id", "doc_id", "score"]]))
        return out

    t_irm, _ = timed(irm, repeat=1)

    # --- pyNTCIREVAL (subset, extrapolated) --------------------------------------------------
    from pyNTCIREVAL import Labeler
    from pyNTCIREVAL.metrics import QMeasure, nERR

    grades = [1, 2, 3]
    rel_by_topic = {q: dict(zip(g["doc_id"], g["relevance"].astype(int)))
                    for q, g in qrels.groupby("query_id")}
    sub = run[run["run_id"] == run["run_id"].iloc[0]]
    lists = [(q, list(g["doc_id"])) for q, g in sub.groupby("query_id", sort=False)]
    lists = lists[: args.ntcir_lists]

    def ntcir(metric_factory):
        out = []
        for q, docs in lists:
            lab = Labeler(rel_by_topic[q])
            x = lab.compute_per_level_doc_num(len(grades) + 1)
            out.append(metric_factory(x).compute(lab.label(docs)))
        return out

    t_ntq, ntq = timed(lambda: ntcir(lambda x: QMeasure(x, grades, 1.0)))
    t_ntn, _ = timed(lambda: ntcir(lambda x: nERR(x, grades, 10)))
    scale = n_lists / len(lists)
    t_ntq_full, t_ntn_full = t_ntq * scale, t_ntn * scale
    t_nerr, _ = timed(lambda: M.evaluate(qrels, run, ["nERR@10"]), repeat=3)
    q_mat = M.to_matrix(M.evaluate(qrels, sub, ["Q"], gains="1:2:3"), "Q")
    q_diff = max(abs(q_mat.loc[q, sub["run_id"].iloc[0]] - v) for (q, _), v in zip(lists, ntq))

    # --- ranx (numba), post-JIT -------------------------------------------------------------
    ranx_table = []
    try:
        import ranx  # noqa: F401
    except ImportError:
        print("ranx rows skipped: ranx is not installed (make bench installs the bench extra)", file=sys.stderr)
    else:
        ranx_table += ranx_rows(qrels, run, "nDCG@10", ["MSnDCG@10"], ["ndcg@10"], order_by="score",
                                no_relevant="zero")
        ranx_table += ranx_rows(qrels, run, "AP", ["AP"], ["map"], order_by="score", no_relevant="zero")
        ranx_table += ranx_rows(qrels, run, f"full list ({len(full)} measures) vs ranx's {len(RANX_OF)} of them",
                                full, list(RANX_OF.values()), order_by="score", no_relevant="zero")
        dl19 = dl19_rows()

    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    # --- report -------------------------------------------------------------------------------
    def r(x):
        return f"{x:.2f}"

    print()
    print(f"Benchmark: {args.topics} topics x {args.runs} runs x {args.depth} documents "
          f"(seed {args.seed}; {len(full)} measures in the full list); load average (1, 5, 15 min) "
          f"{_load(load_start)} at the start, {_load(os.getloadavg())} at the end, on {os.cpu_count()} cores.")
    print()
    print("| task | this engine (s) | peer | peer (s) | ratio engine/peer |")
    print("|---|---:|---|---:|---:|")
    print(f"| nDCG@10 (MSnDCG@10) | {t_ndcg:.2f} | pytrec_eval ndcg_cut.10 | {t_trec:.2f} "
          f"| {t_ndcg / t_trec:.2f} |")
    print(f"| full list ({len(full)} measures, cutoffs 10 and 1000) | {t_full:.2f} "
          f"| pytrec_eval ndcg_cut.10 alone | {t_trec:.2f} | {t_full / t_trec:.2f} |")
    print(f"| full NTCIREVAL list ({len(ntcir_list)} measures, cutoffs 1,5,10,20,1000) | {t_ntcir:.2f} "
          f"| pytrec_eval ndcg_cut.10 alone (timed alternately) | {t_trec_pair:.2f} "
          f"| {t_ntcir / t_trec_pair:.2f} |")
    print(f"| **trec_eval -m all_trec** ({len(te_all)} values; runid, relstring left out) | {t_te_all:.2f} "
          f"| pytrec_eval, its {len(peer_names)} all_trec measures ({len(te_peer)} values; timed alternately) "
          f"| {t_trec_all:.2f} | **{t_te_all / t_trec_all:.2f}** (target <= 1.5) |")
    print(f"| the same {len(te_peer)} values pytrec_eval computes | {t_te_peer:.2f} | pytrec_eval, same list "
          f"| {t_trec_all:.2f} | {t_te_peer / t_trec_all:.2f} |")
    print(f"| nDCG@10 | {t_ndcg:.2f} | ir_measures nDCG@10 | {t_irm:.2f} | {t_ndcg / t_irm:.3f} |")
    print(f"| Q | {t_q:.2f} | pyNTCIREVAL Q (extrapolated from {len(lists)} lists) "
          f"| {t_ntq_full:.0f} | 1/{t_ntq_full / t_q:.0f} |")
    print(f"| nERR@10 | {t_nerr:.2f} | pyNTCIREVAL nERR@10 (extrapolated) | {t_ntn_full:.1f} "
          f"| 1/{t_ntn_full / t_nerr:.0f} |")
    if ranx_table:
        print()
        print("ranx 0.3 (numba), after its JIT warm-up, one thread; its Qrels/Run objects are built once and not "
              "timed. This engine is timed from DataFrames (ids, ordering and gain lookup included) and from an "
              "Alignment built once (measures.Alignment, the counterpart of ranx's objects). CPU seconds, best of 3.")
        print()
        print("| task | engine measures | engine from DataFrames (s) | engine from an Alignment (s) | ranx metrics "
              "| ranx (s) | ratio (DataFrames) | ratio (Alignment) |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for label, n_e, t_e, t_a, n_r, t_r in ranx_table + (dl19[1] if dl19 else []):
            print(f"| {label} | {n_e} | {t_e:.2f} | {t_a:.2f} | {n_r} | {t_r:.2f} | {t_e / t_r:.2f} | {t_a / t_r:.2f} |")
        if dl19:
            print()
            print("| reading | this package (s) | plain | plain (s) | ratio |")
            print("|---|---:|---|---:|---:|")
            for label, t_ours, plain, t_plain in dl19[0]:
                print(f"| {label} | {t_ours:.2f} | {plain} | {t_plain:.2f} | {t_ours / t_plain:.2f} |")
    print()
    print("| memory | peak (MiB) |")
    print("|---|---:|")
    print(f"| this engine, full list (tracemalloc) | {mem_full:.0f} |")
    print(f"| this engine, nDCG@10 (tracemalloc) | {mem_ndcg:.0f} |")
    print(f"| pytrec_eval ndcg_cut.10 (tracemalloc; C++ heap not traced) | {mem_trec:.0f} |")
    print(f"| whole benchmark process (max RSS) | {maxrss:.0f} |")
    print()
    print(f"pytrec_eval input dicts took {t_build:.1f} s to build (not charged to pytrec_eval).")
    print(f"Agreement on this data: max |engine - pytrec_eval| over the {len(peer_values)} all_trec values = {te_diff:.1e}; "
          f"max |MSnDCG@10 - ndcg_cut_10| = {diff:.1e}; "
          f"max |Q - pyNTCIREVAL Q| = {q_diff:.1e}.")
    ok_full = t_full <= t_trec
    ok_q = t_ntq_full / t_q >= 100
    ok_ntcir = t_ntcir <= 1.5 * t_trec_pair
    print(f"all_trec: this engine {t_te_all:.2f} s, pytrec_eval {t_trec_all:.2f} s, ratio {t_te_all / t_trec_all:.2f} "
          f"(target <= 1.5: {'met' if t_te_all <= 1.5 * t_trec_all else 'NOT met'}); load average {' '.join(load)}.")
    print(f"Targets: full list <= pytrec_eval nDCG@10: {'met' if ok_full else 'NOT met'}; "
          f"Q >= 100x faster than pyNTCIREVAL: {'met' if ok_q else 'NOT met'}; "
          f"full NTCIREVAL list <= 1.5 x pytrec_eval nDCG@10: {'met' if ok_ntcir else 'NOT met'} "
          f"(ratio {t_ntcir / t_trec_pair:.2f}).")
    print(f"Total benchmark time {time.perf_counter() - t0:.0f} s.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
