"""Write the small TREC files of the rank-order case under ``tests/data/rank_order/``
(``python tools/make_rank_order_case.py``; ``tests/test_rank_order.py`` checks the committed files
are what this script writes).

The case of the official TREC DL-19 passage runs, in miniature: scores with many ties, and a rank
column that breaks them by increasing doc id where trec_eval breaks them by decreasing doc id, so
AP(rel=2) under the default (NTCIREVAL, rank column) convention differs from trec_eval's for the
same files. Graded qrels (levels 0-3; TREC DL's relevance threshold 2) for 6 topics x 30 passages,
and three runs:

* ``ties-ascending``: ranks follow decreasing score, tied scores by increasing doc id (what
  ``sort_values(["score", "doc_id"], ascending=[False, True])`` writes): disagrees on tied scores only;
* ``ties-descending``: ranks follow decreasing score, tied scores by decreasing doc id: trec_eval's
  own order, no disagreement;
* ``reranked``: ranks from a second-stage ranker, scores left from the first stage: the rank column
  puts documents above others with higher scores.

Nothing in them comes from a real collection; one seed makes them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.notebook.reports import atomic_write_text  # noqa: E402

OUT = ROOT / "tests" / "data" / "rank_order"
SEED = 20191119
RUNS = ("ties-ascending", "ties-descending", "reranked")


def files(seed: int = SEED) -> dict[str, str]:
    """The case's files, relative path -> text (the qrels, one file per run)."""
    rng = np.random.default_rng(seed)
    topics = [f"{1000 + 7 * t}" for t in range(6)]
    docs = [f"p{d:04d}" for d in range(1, 31)]
    qrels, runs = [], {name: [] for name in RUNS}
    for q in topics:
        level = rng.choice(4, size=len(docs), p=[0.45, 0.25, 0.18, 0.12])
        qrels += [f"{q} 0 {d} {lv}" for d, lv in zip(docs, level)]
        score = np.round(level + rng.normal(0, 1.2, len(docs)), 0) / 2 + 5   # whole halves: many ties
        frame = pd.DataFrame({"doc_id": docs, "score": score, "second": level + rng.normal(0, 0.8, len(docs))})
        orders = {
            "ties-ascending": frame.sort_values(["score", "doc_id"], ascending=[False, True]),
            "ties-descending": frame.sort_values(["score", "doc_id"], ascending=[False, False]),
            "reranked": frame.sort_values(["second", "doc_id"], ascending=[False, True]),
        }
        for name, ranked in orders.items():
            runs[name] += [f"{q} Q0 {d} {k} {s:.1f} {name}" for k, (d, s) in
                           enumerate(zip(ranked["doc_id"], ranked["score"]), start=1)]
    out = {"qrels.txt": "\n".join(qrels) + "\n"}
    out.update({f"runs/{name}.txt": "\n".join(lines) + "\n" for name, lines in runs.items()})
    return out


def main(out: Path = OUT) -> None:
    for rel, text in files().items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
