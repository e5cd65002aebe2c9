"""Random valid parameter sets for every notebook: the declared ranges of the configuration fuzz.

Each ``draw_NN(rng)`` returns the parameters of one small run of notebook NN, drawn from values
its validation cell accepts: seeds, sizes, thresholds, cutoffs, normalisers, measures, replicate
counts and dataset modes (simulated, or the example files under ``data/examples/``). Sizes are kept
small so that a run takes seconds: the fuzz covers the parameter space, it has no statistical power.
``scheduler`` is always "serial" (the dask path has its own tests; a LocalCluster per fuzz run would
cost more than the run).
"""

from __future__ import annotations

import datetime
import os

import numpy as np

#: The fuzz seed: SUBJEVAL_FUZZ_SEED (a new one on every `make test`), else today's date. Every
#: pytest-xdist worker must draw the same configurations, so it is never drawn at random here.
SEED = int(os.environ.get("SUBJEVAL_FUZZ_SEED") or datetime.date.today().strftime("%Y%m%d"))

EXAMPLES = "data/examples"


def _pick(rng: np.random.Generator, values):
    return values[int(rng.integers(len(values)))]


def _subset(rng: np.random.Generator, values, low: int = 1, high: int | None = None) -> list:
    """A sorted random subset of ``values`` with between ``low`` and ``high`` members."""
    high = len(values) if high is None else high
    k = int(rng.integers(low, high + 1))
    idx = sorted(rng.choice(len(values), size=k, replace=False).tolist())
    return [values[i] for i in idx]


def draw_01(rng: np.random.Generator) -> dict:
    p = {"seed": int(rng.integers(1, 10**6)), "p": _pick(rng, [0.0, 0.05, 0.2, 0.5, 1.0]),
         "d_max_list": _subset(rng, [1, 2, 3, 5, 8], 1, 3), "n_list": _subset(rng, [1, 2, 3, 7, 15, 40], 1, 3),
         "n_items": int(_pick(rng, [100, 500, 1500])), "replicates": int(_pick(rng, [2, 5, 41]))}
    if rng.random() < 0.4:
        p.update(ratings_path=f"{EXAMPLES}/ratings.tsv", ratings_layout="long", ratings_d_max=3)
    return p


_ADHOC = ["nG@1", "nDCG@5", "P+", "nERR@10", "MSnDCG@10", "Q", "AP", "RBP", "P@5", "ERR"]


def draw_02(rng: np.random.Generator) -> dict:
    p = {"seed": int(rng.integers(1, 10**6)), "d_max_list": _subset(rng, [1, 2, 3, 4, 8], 1, 2),
         "n_list": _subset(rng, [2, 3, 5, 10, 80], 1, 2), "p": _pick(rng, [0.0, 0.15, 0.3, 0.6]),
         "measure_names": _subset(rng, _ADHOC, 1, 3), "cutoff": int(_pick(rng, [3, 5, 10, 20])),
         "B": int(_pick(rng, [100, 150, 200])), "alpha": _pick(rng, [0.01, 0.05, 0.1, 0.2]),
         "replicates": int(_pick(rng, [1, 2, 3])), "real_replicates": int(_pick(rng, [1, 2])),
         "best_run_by": _pick(rng, ["official", "rawg"]), "scheduler": "serial"}
    rng.shuffle(p["measure_names"])
    if rng.random() < 0.4:
        p.update(dataset="files", qrels_path=f"{EXAMPLES}/qrels.txt", runs_glob=f"{EXAMPLES}/runs",
                 ratings_d_max=3, relevance_threshold=int(_pick(rng, [1, 2, 3])))  # files: 0 is refused
        if rng.random() < 0.5:
            p.update(**_pick(rng, [{"ratings_path": f"{EXAMPLES}/assessors/*.txt", "ratings_layout": "qrels"},
                                        {"ratings_path": f"{EXAMPLES}/assessors_jg.txt", "ratings_layout": "qrels_jg"}]))
    else:
        p.update(relevance_threshold=int(_pick(rng, [0, 1, 2])))
        if rng.random() < 0.35:
            # the paper's measures on a grid that misses every (Dmax, N) cell of its Table 3 (N not in
            # 5..80): the comparison with Table 3 then has nothing to count (it once raised on 0 of 0)
            p.update(n_list=_subset(rng, [2, 3, 7, 54], 1, 2), cutoff=10, replicates=2,
                     measure_names=_subset(rng, ["nG@1", "P+", "nERR@10"], 1, 2) + _subset(rng, ["AP", "Q"], 0, 1))
    return p


def draw_03(rng: np.random.Generator) -> dict:
    p = {"seed": int(rng.integers(1, 10**6)), "method": _pick(rng, ["eq4", "eq5"]),
         "B": int(_pick(rng, [10, 20, 30])), "rounds": int(_pick(rng, [2, 5, 8])),
         "n_sizes": int(_pick(rng, [2, 4, 6])), "tau_level": _pick(rng, [0.5, 0.9, 0.95, 0.99]),
         "replicates": int(_pick(rng, [1, 2, 3])), "scheduler": "serial", "splits": int(_pick(rng, [1, 3, 20]))}
    if rng.random() < 0.35:
        p.update(dataset="files", qrels_path=f"{EXAMPLES}/qrels.txt", runs_glob=f"{EXAMPLES}/runs/*.txt", d_max=3,
                 k=int(_pick(rng, [1, 5, 10])), k_table7=int(_pick(rng, [5, 20])),
                 relevance_threshold=int(_pick(rng, [1, 2, 3])))  # files: 0 is refused
        if rng.random() < 0.5:
            p.update(ratings_path=f"{EXAMPLES}/ratings_wide.tsv", ratings_layout="wide")
        else:
            p.update(second_qrels_path=f"{EXAMPLES}/assessors/A2.txt")
    else:
        n_docs = int(_pick(rng, [40, 60, 100]))
        p.update(n_topics=int(_pick(rng, [4, 8, 12])), n_docs=n_docs, n_runs=int(_pick(rng, [3, 5, 8])),
                 k=int(_pick(rng, [1, 5, 10])), k_table7=int(_pick(rng, [5, 20])),
                 relevance_threshold=int(_pick(rng, [0, 1, 2, 3])))
    return p


def draw_04(rng: np.random.Generator) -> dict:
    cutoff = int(_pick(rng, [3, 5, 10]))
    p = {"seed": int(rng.integers(1, 10**6)), "cutoff": cutoff,
         "extra_cutoff": int(_pick(rng, [0, cutoff + 5])), "normaliser": _pick(rng, ["ideal", "fixed"]),
         "B": int(_pick(rng, [100, 200])), "significance": _pick(rng, [0.01, 0.05, 0.1]),
         "replicates": int(_pick(rng, [1, 2, 3])), "scheduler": "serial",
         "tau_bootstrap": int(_pick(rng, [1000, 2000]))}
    if rng.random() < 0.35:
        p.update(data="files", diversity_qrels_path=f"{EXAMPLES}/diversity/qrels.txt",
                 intents_path=_pick(rng, ["", f"{EXAMPLES}/diversity/intents.txt"]),
                 intent_types_path=_pick(rng, ["", f"{EXAMPLES}/diversity/intent_types.tsv"]),
                 runs_glob=f"{EXAMPLES}/diversity/runs")
    else:
        p.update(n_topics=int(_pick(rng, [6, 10, 20])), n_runs=int(_pick(rng, [3, 4, 6])),
                 depth=int(_pick(rng, [cutoff + 5, 30])))
    return p


_MIXTURES = ["position:1", "coverage:1", "first-hit:1", "graded:1", "position:0.5,coverage:0.5",
             "position:0.4,coverage:0.3,first-hit:0.3", "position:0.5,null:0.5"]


def draw_05(rng: np.random.Generator) -> dict:
    p = {"seed": int(rng.integers(1, 10**6)), "cutoff": int(_pick(rng, [5, 10])),
         "min_difference": _pick(rng, [0.0, 0.05, 0.1]), "tie_tolerance": _pick(rng, [1e-9, 1e-3]),
         "B": int(_pick(rng, [100, 200])), "significance": _pick(rng, [0.01, 0.05, 0.1]),
         "replicates": int(_pick(rng, [1, 2, 3])), "normaliser": _pick(rng, ["fixed", "ideal"]),
         "scheduler": "serial"}
    if rng.random() < 0.35:
        p.update(data="files", preferences_path=f"{EXAMPLES}/preferences.tsv",
                 diversity_qrels_path=f"{EXAMPLES}/diversity/qrels.txt",
                 intents_path=f"{EXAMPLES}/diversity/intents.txt",
                 intent_types_path=f"{EXAMPLES}/diversity/intent_types.tsv", runs_glob=f"{EXAMPLES}/diversity/runs")
    else:
        p.update(n_topics=int(_pick(rng, [20, 30])), n_runs=int(_pick(rng, [6, 8])),
                 n_pairs=int(_pick(rng, [60, 150])), n_assessors=int(_pick(rng, [3, 5, 9])),
                 p_equal=_pick(rng, [0.02, 0.1, 0.3]), user_models=_pick(rng, _MIXTURES),
                 planted_models=_pick(rng, ["", "coverage", "position,null", "position,graded,coverage,first-hit,null"]))
    return p


def draw_06(rng: np.random.Generator) -> dict:
    p = {"seed": int(rng.integers(1, 10**6)), "alpha": _pick(rng, [0.01, 0.05, 0.1]),
         "beta": _pick(rng, [0.1, 0.2, 0.3]), "min_diff": _pick(rng, [0.02, 0.05, 0.1]),
         "ci_width": _pick(rng, [0.05, 0.1, 0.2]), "target": _pick(rng, [0.8, 0.9, 0.95]),
         "cost_topic": _pick(rng, [0.0, 1.0, 10.0]), "cost_judgment": _pick(rng, [1.0, 3.0]),
         "max_assessors": int(_pick(rng, [1, 3, 6])), "split_topics": _subset(rng, [2, 3, 5]),
         "split_assessors": _subset(rng, [1, 2]), "split_draws": int(_pick(rng, [3, 5]))}
    if rng.random() < 0.35:   # files: the simulation's parameters are not read (06 refuses them off their defaults)
        p.update(data="files", facets="s x t x a", ratings_path=f"{EXAMPLES}/ratings.tsv", runs_path=f"{EXAMPLES}/runs",
                 d_max=3, measures=_subset(rng, ["nDCG@10", "RBP", "AP", "ERR@10", "P@5"]),
                 unjudged=_pick(rng, ["common", "fill"]), rel=int(_pick(rng, [1, 2])))
        if p["unjudged"] == "fill":
            p["fill_assessor"] = "A1"
    else:
        p.update(replicates=int(_pick(rng, [2, 5])), experiments=int(_pick(rng, [5, 10])), scheduler="serial")
        facets = _pick(rng, ["s x (a:t)", "s x t x a"])
        comp = {"s x (a:t)": ["s", "t", "a:t", "st", "sa:t"], "s x t x a": ["s", "t", "a", "st", "sa", "ta", "sta"]}[facets]
        p.update(facets=facets, components={k: float(_pick(rng, [0.0, 0.005, 0.02])) for k in comp} | {"s": 0.01, "st": 0.01},
                 n_systems=int(_pick(rng, [4, 8])), n_topics=int(_pick(rng, [6, 12])), n_assessors=int(_pick(rng, [2, 3])))
    return p


DRAWS = {"01": draw_01, "02": draw_02, "03": draw_03, "04": draw_04, "05": draw_05, "06": draw_06}
