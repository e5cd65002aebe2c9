"""Write the small example files under ``data/examples/`` (``python tools/make_examples.py``).

They show every input format the notebooks accept (see ``data/README.md``, "Formats for your own
data") and let ``params/examples/`` run every notebook on files, the way a user runs it on their own
collection. They are made here from one seed; nothing in them comes from a real collection.

Ad hoc (notebooks 01-03): 6 topics x 40 documents; an official assessor (TREC qrels, levels 0-3)
and three further assessors A1-A3 who rate every document (long, wide and one-qrels-per-assessor
layouts, and the same ratings as trec_eval judgment groups in one file);
five runs from four teams ranking the documents by a noisy reading of a latent
relevance. Diversity (04, 05): 4 topics with 2-5 intents from ``helpers.simulate.intents`` (ndeval
qrels, NTCIR intent probabilities, intent types, 4 runs) and SERP-pair preferences of three
simulated assessors for both questions (``helpers.simulate.preferences``).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from helpers import preference
from helpers.notebook.reports import atomic_write_text
from helpers.simulate.intents import intent_collection
from helpers.simulate.preferences import preference_judgments

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "examples"
SEED = 20261123


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)


def _frame(df: pd.DataFrame, sep: str = " ", header: bool = False) -> str:
    buf = io.StringIO()
    df.to_csv(buf, sep=sep, header=header, index=False, lineterminator="\n")
    return buf.getvalue()


def adhoc(rng: np.random.Generator, out: Path = OUT) -> None:
    topics = [f"q{t}" for t in range(1, 7)]
    docs = [f"d{d:03d}" for d in range(1, 41)]
    rows = []
    for q in topics:
        latent = rng.beta(0.8, 2.0, size=len(docs))  # most documents barely relevant
        for d, x in zip(docs, latent):
            rows.append((q, d, x))
    items = pd.DataFrame(rows, columns=["query_id", "doc_id", "latent"])
    cut = np.array([0.25, 0.5, 0.75])

    def rate(noise: float) -> np.ndarray:
        return np.searchsorted(cut, np.clip(items["latent"] + rng.normal(0, noise, len(items)), 0, 1)).astype(int)

    official = items.assign(iteration=0, relevance=rate(0.08))
    _write(out / "qrels.txt", _frame(official[["query_id", "iteration", "doc_id", "relevance"]]))
    ratings = []
    for a in ("A1", "A2", "A3"):
        r = items.assign(assessor=a, rating=rate(0.18))
        ratings.append(r)
        _write(out / "assessors" / f"{a}.txt",
               _frame(r.assign(iteration=0)[["query_id", "iteration", "doc_id", "rating"]]))
    long = pd.concat(ratings, ignore_index=True)[["query_id", "doc_id", "assessor", "rating"]]
    # the same ratings as trec_eval's judgment groups (-R qrels_jg): one file, the group is the assessor
    _write(out / "assessors_jg.txt", _frame(long[["query_id", "assessor", "doc_id", "rating"]]))
    _write(out / "ratings.tsv", _frame(long, sep="\t", header=True))
    wide = long.pivot(index=["query_id", "doc_id"], columns="assessor", values="rating").reset_index()
    _write(out / "ratings_wide.tsv", _frame(wide, sep="\t", header=True))
    runs = {"alpha-1": 0.10, "alpha-2": 0.20, "beta-1": 0.15, "gamma-1": 0.30, "delta-1": 0.45}
    for name, noise in runs.items():
        lines = []
        for q in topics:
            sub = items[items["query_id"] == q]
            score = sub["latent"].to_numpy() + rng.normal(0, noise, len(sub))
            order = np.argsort(-score, kind="stable")[:20]
            for rank, k in enumerate(order, 1):
                lines.append(f"{q} Q0 {sub['doc_id'].iloc[k]} {rank} {score[k]:.4f} {name}")
        _write(out / "runs" / f"{name}.txt", "\n".join(lines) + "\n")


def diversity(rng: np.random.Generator, out: Path = OUT) -> None:
    coll = intent_collection(rng, n_topics=4, n_runs=4, depth=20, min_intents=2, max_intents=5, pool_size=30)
    dq = coll.dqrels.sort_values(["query_id", "intent_id", "doc_id"], kind="stable")
    base = out / "diversity"
    _write(base / "qrels.txt", _frame(dq[["query_id", "intent_id", "doc_id", "relevance"]]))
    intents = coll.intents.sort_values(["query_id", "intent_id"], kind="stable")
    probs = intents.assign(prob=intents["prob"].map(lambda v: f"{v:.6f}"))
    # rounding to 6 decimals: the last intent of each topic takes the remainder so that they sum to 1
    fixed = []
    for _, g in intents.groupby("query_id", sort=False):
        p = np.round(g["prob"].to_numpy(), 6)
        p[-1] = round(1 - p[:-1].sum(), 6)
        fixed.extend(f"{v:.6f}" for v in p)
    probs["prob"] = fixed
    _write(base / "intents.txt", _frame(probs[["query_id", "intent_id", "prob"]]))
    kinds = intents.assign(kind=intents["kind"].map({"nav": "navigational", "inf": "informational"}))
    _write(base / "intent_types.tsv", _frame(kinds[["query_id", "intent_id", "kind"]], sep="\t"))
    for run_id, run in coll.runs.groupby("run_id", sort=True):
        run = run.sort_values(["query_id", "rank"], kind="stable")
        lines = [f"{r.query_id} Q0 {r.doc_id} {r.rank} {-float(r.rank):.1f} {run_id}" for r in run.itertuples()]
        _write(base / "runs" / f"{run_id}.txt", "\n".join(lines) + "\n")
    summaries = preference.serp_summaries(coll.dqrels, coll.intents, coll.runs, 10)
    pairs = preference.sample_pairs(summaries, rng, min_difference=0.0, target=None)
    judged = preference_judgments(rng, coll, pairs, n_assessors=3, cutoff=10, alpha_target=None)
    rows = []
    for question, labels in (("relevance", judged.relevance), ("diversity", judged.diversity)):
        for pair in pairs.itertuples():
            for assessor in labels.columns:
                rows.append((pair.pair_id, pair.query_id, pair.run_left, pair.run_right, question, assessor,
                             labels.loc[pair.pair_id, assessor]))
    prefs = pd.DataFrame(rows, columns=["pair_id", "query_id", "run_left", "run_right", "question", "assessor", "label"])
    _write(out / "preferences.tsv", _frame(prefs, sep="\t", header=True))


def main(argv: list[str] | None = None) -> None:
    """Write the examples into ``data/examples/`` (``--out DIR``: into another folder, e.g. to check
    that the committed files are what this script makes: ``tests/test_examples.py``)."""
    import argparse

    parser = argparse.ArgumentParser(description="write the example files")
    parser.add_argument("--out", type=Path, default=OUT)
    out = parser.parse_args(argv).out
    rng = np.random.default_rng(SEED)
    adhoc(rng, out)
    diversity(rng, out)
    for f in sorted(out.rglob("*")):
        if f.is_file():
            print(f"{f.relative_to(out)}: {f.stat().st_size} bytes")


if __name__ == "__main__":
    main()
