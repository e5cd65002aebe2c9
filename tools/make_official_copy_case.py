"""Write the small files of the official-copy case under ``tests/data/official_copy/``
(``python tools/make_official_copy_case.py``; ``tests/test_assessors.py`` checks the committed
files are what this script writes).

A new user's multi-assessor judgments in miniature (issue 41, item 1): 20 topics of 30 passages
on TREC DL's 0-3 scale, each passage with a latent level and labels of several people, each
person's label the latent level moved one step with probability 0.4 (exact agreement between two
people about 60%, as between real assessors). Files:

* ``trio/A1.txt``, ``trio/A2.txt``, ``trio/A3.txt``: three assessors who judged every topic, one
  TREC qrels file each (``ratings_layout: qrels``);
* ``qrels_A1.txt``: the official qrels are A1's labels (the copy is one assessor);
* ``qrels_A1_one_changed.txt``: A1's labels with one label changed (a copy, nearly);
* ``qrels_independent.txt``: a fourth person's labels (no copy);
* ``by_topic.tsv``: a different trio per topic out of nine people (long layout), and
  ``qrels_by_topic.txt``: each topic's qrels are the first of its trio (the topic author).

Nothing in them comes from a real collection; one seed makes them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.notebook.reports import atomic_write_text  # noqa: E402

OUT = ROOT / "tests" / "data" / "official_copy"
SEED = 20250411
TOPICS, DOCS = 20, 30


def _label(rng: np.random.Generator, latent: np.ndarray) -> np.ndarray:
    """One person's labels: the latent level, moved one step up or down with probability 0.4."""
    step = np.where(rng.random(latent.shape) < 0.4, rng.choice([-1, 1], size=latent.shape), 0)
    return np.clip(latent + step, 0, 3)


def _qrels(topics, docs, labels) -> str:
    return "".join(f"{q} 0 {d} {int(v)}\n" for q, row, lab in zip(topics, docs, labels) for d, v in zip(row, lab))


def files(seed: int = SEED) -> dict[str, str]:
    """The case's files, relative path -> text."""
    rng = np.random.default_rng(seed)
    topics = [f"{2000 + 3 * t}" for t in range(TOPICS)]
    docs = [[f"p{t:02d}{d:03d}" for d in range(DOCS)] for t in range(TOPICS)]
    latent = rng.choice(4, size=(TOPICS, DOCS), p=[0.4, 0.3, 0.2, 0.1])
    people = {f"A{k}": _label(rng, latent) for k in range(1, 5)}          # A4: the independent official
    out = {f"trio/{a}.txt": _qrels(topics, docs, people[a]) for a in ("A1", "A2", "A3")}
    out["qrels_A1.txt"] = _qrels(topics, docs, people["A1"])
    changed = people["A1"].copy()
    changed[7, 11] = (changed[7, 11] + 1) % 4
    out["qrels_A1_one_changed.txt"] = _qrels(topics, docs, changed)
    out["qrels_independent.txt"] = _qrels(topics, docs, people["A4"])
    pool = {f"P{k}": _label(rng, latent) for k in range(1, 10)}          # nine people, a trio per topic
    names = sorted(pool)
    lines, official = ["query_id\tdoc_id\tassessor\trating\n"], []
    for t, q in enumerate(topics):
        trio = [names[(t + s) % 9] for s in (0, 2, 5)]
        official.append(pool[trio[0]][t])
        for d, doc in enumerate(docs[t]):
            lines += [f"{q}\t{doc}\t{a}\t{int(pool[a][t, d])}\n" for a in trio]
    out["by_topic.tsv"] = "".join(lines)
    out["qrels_by_topic.txt"] = _qrels(topics, docs, official)
    return out


def main() -> None:
    for rel, text in files().items():
        path = OUT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
