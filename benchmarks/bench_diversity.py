"""Benchmark helpers.measures.diversity against TREC ndeval (pyndeval) on the simulated INTENT collection.

Script, not a test: ``.venv/bin/python benchmarks/bench_diversity.py [--runs 15] [--topics 100]
[--depth 1000] [--repeat 3]``. Prints a markdown table of the best-of-``repeat`` wall times and the
time ratio (ours / pyndeval) for alpha-nDCG@20 and ERR-IA@20 (ndeval computes cutoffs up to 20
only), then the time of every measure of helpers.measures.diversity at once. The values themselves are
cross-checked in tests/test_diversity_crosscheck.py; here they are only compared to 1e-9 as a
sanity check.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from helpers.measures import diversity
from helpers.simulate import intent_collection

ALL = ["I-rec@10", "D-nDCG@10", "D-Q@10", "D-nERR@10", "D-RBP@10", "D-EBR@10", "D#-nDCG@10",
       "D#-Q@10", "D#-nERR@10", "D#-RBP@10", "D#-EBR@10", "DIN-nDCG@10", "DIN#-nDCG@10", "P+Q@10",
       "P+Q#@10", "IA-nDCG@10", "IA-Q@10", "IA-nERR@10", "IA-RBP@10", "IA-EBR@10", "alpha-nDCG@10",
       "ERR-IA@10", "NRBP", "nNRBP", "P-IA@10", "strec@10", "RBU(p=0.85)@10", "iRBU(p=0.85)@10",
       "D#-nDCG@1000", "alpha-nDCG@1000"]


def best_of(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=20240401)
    args = ap.parse_args()
    import pyndeval

    c = intent_collection(np.random.default_rng(args.seed), n_topics=args.topics, n_runs=args.runs,
                          depth=args.depth)
    qrels = [(r.query_id, r.intent_id, r.doc_id, int(r.relevance)) for r in c.dqrels.itertuples()]
    runs = {rid: [(r.query_id, r.doc_id, float(r.score)) for r in g.sort_values(["query_id", "rank"]).itertuples()]
            for rid, g in c.runs.groupby("run_id")}
    ms = ["alpha-nDCG@20", "ERR-IA@20"]

    def peer():
        ev = pyndeval.RelevanceEvaluator(qrels, measures=ms)
        return {rid: ev.evaluate(r) for rid, r in runs.items()}

    def ours():
        return diversity.evaluate(c.dqrels, c.intents, c.runs, ms)

    t_peer, ref = best_of(peer, args.repeat)
    t_ours, got = best_of(ours, args.repeat)
    for rid, per_q in ref.items():
        for q, vals in per_q.items():
            sub = got[(got.run_id == rid) & (got.query_id == q)].set_index("measure")["value"]
            for m in ms:
                assert abs(sub[m] - vals[m]) < 1e-9, (rid, q, m, sub[m], vals[m])
    t_all, _ = best_of(lambda: diversity.evaluate(c.dqrels, c.intents, c.runs, ALL), args.repeat)

    print(f"Collection: {args.runs} runs x {args.topics} topics, depth {args.depth} "
          f"({len(c.runs):,} run rows, {len(c.dqrels):,} intentwise judgments); best of {args.repeat}; "
          f"Python {platform.python_version()}, numpy {np.__version__}.\n")
    print("| task | pyndeval (s) | helpers.measures.diversity (s) | ratio ours / pyndeval |")
    print("|---|---:|---:|---:|")
    print(f"| alpha-nDCG@20 + ERR-IA@20 | {t_peer:.3f} | {t_ours:.3f} | {t_ours / t_peer:.2f} |")
    print(f"| all {len(ALL)} measures (D/D#/DIN/P+Q/IA/ndeval/RBU) | n/a | {t_all:.3f} | n/a |")


if __name__ == "__main__":
    main()
