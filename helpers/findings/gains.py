"""Notebook 01's findings: Sakai's gain definitions (EVIA 2017) and the premise of his conjecture.

Questions asked of every run: do Eq. 1 (WG) and Eq. 2 (UG) give the paper's Table 1 and the
STC-2 example (2, 1, 1) -> 4.6, (2, 2, 0) -> 4.0; do Items 5-7 tie at p = 0.2; does the simulated
share of items at D = Dmax agree with its exact probability and grow with N (Sec. 4). With real
ratings (profile ``real`` or ``ratings_path``): do they spread less than uniform ratings with the
same raw gains, the premise (his Sec. 4) of his Sec. 6 conjecture (:func:`premise`), and does UG break more
of their raw-gain ties (:func:`ties`, a question of its own: it can go either way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding, Findings

__all__ = ["PREMISE", "TIES", "EXACT_FLOOR", "FEW_TOPICS", "exact_share", "draws_name", "flat_tail", "premise_parts", "premise", "ties", "premise_view", "order_with_ties", "rawg_reversals",
           "settings_reading", "reversals_table", "share_changes", "ties_lines", "findings", "too_few", "cannot_tell",
           "premise_lines", "bonferroni", "topics"]

#: The premise's parts, each a measure of spread: name -> (column, the direction of real against
#: uniform that it predicts).
PREMISE = {"fewer items at D = Dmax": ("share_full_spread", "lower"),
           "a smaller mean D": ("mean_spread", "lower"),
           "a larger mean bonus UG − RawG": ("mean_bonus", "higher")}
#: The share of RawG ties UG breaks is no measure of spread (it needs items of equal RawG to differ
#: in D, which a smaller spread can lower or raise): its own question, column and direction.
TIES = ("share_ties_broken", "higher")

def premise_parts(n) -> dict:
    """The parts of the premise that are separate tests for a set whose N is ``n``.

    With the same N for every item the mean bonus is p·N·(Dmax − mean D), a linear function of
    the mean spread: it is the same test as "a smaller mean D" and is not counted again. With N
    varying between items (``n`` a range such as ``"3–10"``) the bonus weighs each item's spread by
    its own N and is a part of its own.
    """
    varying = isinstance(n, str) and not n.strip().isdigit()
    return {k: v for k, v in PREMISE.items() if varying or v[0] != "mean_bonus"}


#: claims.components' verdict -> the findings table's verdict word.
_VERDICT = {"holds": "holds", "partly": "holds in part", "fails": "does not hold", "not shown": "not shown",
            "cannot tell": "cannot tell"}
#: A part's state (claims.components) -> the word a row prints for it.
_STATE = {"holds": "holds", "other way": "reversed", "not shown": "not shown", "cannot tell": "cannot tell"}


def too_few(replicates: int | None) -> bool:
    """Whether ``replicates`` draws are too few for a verdict against a simulated null: a real value
    outside the range of R null draws has probability 1/(R + 1) per side, so a verdict (and a word
    "higher" or "lower") needs the draws of a 95% interval (:func:`helpers.notebook.claims.min_draws`)."""
    return replicates is not None and int(replicates) < claims.min_draws()


def cannot_tell(replicates: int) -> str:
    """``"cannot tell (5 draws; 40 needed)"``."""
    return f"cannot tell ({claims.plural(int(replicates), 'draw')}; {claims.min_draws()} needed)"


def _like_for_like(real_table: pd.DataFrame, name: str, col: str, replicates: int | None = None) -> claims.Claim:
    """The real value of ``col`` against the interval of uniform ratings with the same RawG; with
    fewer than 40 draws (:func:`too_few`) no direction: the range of the draws and "cannot tell"."""
    rt = real_table.set_index(["dataset", "source"])
    r, u = rt.loc[(name, "real")], rt.loc[(name, "uniform, same RawG")]
    if too_few(replicates):
        lo, hi = u[f"{col}_low"], u[f"{col}_high"]
        return claims.Claim(f"real ({claims.number(r[col])}) against uniform with the same RawG ({claims.number(u[col])}, "
                            f"range [{claims.number(lo)}, {claims.number(hi)}] over {claims.plural(int(replicates), 'draw')}): "
                            + cannot_tell(replicates), "compare",
                            {"a": float(r[col]), "b": float(u[col]), "differs": None, "interval_b": (float(lo), float(hi)),
                             "replicates": int(replicates), "few_draws": True})
    return claims.compare("real", r[col], "uniform with the same RawG", u[col],
                          interval_a=(r[col], r[col]), interval_b=(u[f"{col}_low"], u[f"{col}_high"]))


def _judge(parts: Mapping, replicates: int | None, what: str = "the premise") -> claims.Claim:
    """:func:`~helpers.notebook.claims.components`, or "cannot tell" for every part over too few draws."""
    if too_few(replicates):
        return claims.Claim(f"whether {what} holds: {cannot_tell(replicates)}", "components",
                            {"verdict": "cannot tell", "parts": {k: "cannot tell" for k in parts}})
    return claims.components(parts, what=what)


def premise(real_table: pd.DataFrame, replicates: int | None = None) -> dict:
    """Per real set: ``(verdict claim, {part: (compare claim, direction)})`` over the spread parts
    (:data:`PREMISE`, :func:`premise_parts`), each read as the real value against the interval of
    uniform ratings with the same RawG (:func:`helpers.notebook.claims.compare`,
    :func:`~helpers.notebook.claims.components`). With ``replicates`` below 40 (:func:`too_few`)
    every part and the verdict are "cannot tell"."""
    n_of = real_table.set_index(["dataset", "source"])["N"]
    out = {}
    for name in dict.fromkeys(real_table["dataset"]):
        parts = {part: (_like_for_like(real_table, name, col, replicates), direction)
                 for part, (col, direction) in premise_parts(n_of[(name, "real")]).items()}
        out[name] = (_judge(parts, replicates), parts)
    return out


def ties(real_table: pd.DataFrame, replicates: int | None = None) -> tuple:
    """``(verdict claim, {set: (compare claim, "higher")})``: does UG break a larger share of RawG
    ties in each real set than in uniform ratings with the same RawG (:data:`TIES`)? Each set is a
    part of :func:`~helpers.notebook.claims.components` ("holds" only when every set shows more);
    "cannot tell" below 40 draws (:func:`too_few`)."""
    col, direction = TIES
    parts = {name: (_like_for_like(real_table, name, col, replicates), direction)
             for name in dict.fromkeys(real_table["dataset"])}
    return _judge(parts, replicates, what="more RawG ties broken"), parts


def draws_name(replicates: int) -> str:
    """What the brackets beside a uniform mean hold: ``"middle 95% of draws"`` (the percentile
    interval of the draws, not a confidence interval of their mean) from
    :func:`helpers.notebook.claims.min_draws` draws on, else ``"range of draws"``."""
    return "middle 95% of draws" if claims.interval_name(int(replicates)).endswith("interval") else "range of draws"


def topics(real_table: pd.DataFrame, name: str) -> str:
    """``"3 topics"`` for the real set ``name`` of :func:`helpers.replicates.premise.table` (``""``
    when the table has no ``topics`` column)."""
    if "topics" not in real_table.columns:
        return ""
    k = real_table.loc[real_table["dataset"] == name, "topics"]
    return claims.plural(int(k.iloc[0]), "topic") if len(k) else ""


def _named(real_table: pd.DataFrame, name: str) -> str:
    """``"dl19-agreement (3 topics)"``: a set's name with its topic count where its verdict appears."""
    k = topics(real_table, name)
    return f"{name} ({k})" if k else name


def premise_lines(real_table: pd.DataFrame, verdicts: Mapping, tie: tuple) -> list[str]:
    """Section 6's printed reading: per set, each part of the premise like for like and the set's
    verdict, then the RawG ties broken with each set's direction (:func:`premise`, :func:`ties`)."""
    lines = []
    for name, (verdict, parts) in verdicts.items():
        lines += [f"{name}, like for like, {part}? {c}" for part, (c, _) in parts.items()]
        lines.append(f"{_named(real_table, name)}: {verdict}")
    lines += [f"{_named(real_table, name)}, like for like, more RawG ties broken? {c}" for name, (c, _) in tie[1].items()]
    lines.append(f"RawG ties broken, real against uniform with the same RawG: {tie[0]}")
    return lines


def premise_view(real_table: pd.DataFrame) -> pd.DataFrame:
    """The contrast as printed: real values, and uniform means with their interval."""
    view = real_table[["dataset", "source", "N", "Dmax", "items"]].copy()
    for col in [c for c, _ in PREMISE.values()] + [TIES[0]]:
        view[col] = [claims.number(v) if src == "real" else claims.bracket(v, lo, hi)
                     for src, v, lo, hi in zip(real_table["source"], real_table[col], real_table[f"{col}_low"],
                                               real_table[f"{col}_high"])]
    view["items"] = view["items"].map(lambda v: f"{v:.0f}")
    return view


def order_with_ties(values, labels) -> str:
    """``"Item 7 > Item 6 > Item 5"``: ``labels`` in decreasing order of ``values``, equal values
    (to 1e-9) joined by ``=`` (``"Item 5 = Item 6 = Item 7"``); the first label first among equals."""
    values = np.asarray(values, dtype=float)
    if len(values) != len(labels) or not len(values):
        raise ValueError(f"order_with_ties: {len(values)} values for {len(labels)} labels; expected one each, at least one")
    idx = np.argsort(-values, kind="stable")
    text = labels[idx[0]]
    for a, b in zip(idx[:-1], idx[1:]):
        text += (" = " if abs(values[a] - values[b]) < 1e-9 else " > ") + labels[b]
    return text


def _raw(pattern: str) -> int:
    return sum(int(x) for x in pattern.split())


def rawg_reversals(settings: pd.DataFrame) -> dict:
    """Per setting (column of ``settings``, whose ``ratings`` column holds patterns such as
    ``"1 1 1"``): the pairs ``(a, b)`` whose RawG order it reverses, RawG(a) > RawG(b) but
    gain(a) < gain(b) (by more than 1e-12), the pair with the largest gap in RawG, then in gain, first.
    UG reverses a pair only when b is the more unanimous (smaller D), the effect of Items 5–7."""
    by = settings.set_index("ratings")
    raw = {r: _raw(r) for r in by.index}
    out = {}
    for name in by.columns:
        pairs = [(a, b) for a in by.index for b in by.index
                 if raw[a] > raw[b] and by.at[a, name] < by.at[b, name] - 1e-12]
        out[name] = sorted(pairs, key=lambda ab: (raw[ab[1]] - raw[ab[0]], by.at[ab[0], name] - by.at[ab[1], name]))
    return out


def settings_reading(settings: pd.DataFrame, p: float) -> list[str]:
    """The printed reading of the table of gain settings on every pattern (section 3): which
    settings keep each relevant pattern above ``0 0 0``, the order UG gives three patterns, and for
    every setting shown how many pairs of patterns whose RawG order it reverses (:func:`rawg_reversals`;
    the pairs themselves: :func:`reversals_table`)."""
    by = settings.set_index("ratings")
    names = list(by.columns)
    zero = " ".join(["0"] * len(by.index[0].split()))
    relevant = [r for r in by.index if r != zero]
    keeps = [s for s in names if (by.loc[relevant, s] > by.loc[zero, s]).all()]
    lines = [f"keep every relevant pattern above ({zero}): {claims.listing(keeps) or 'none'}; map some relevant "
             f"pattern to the gain of ({zero}): {claims.listing([s for s in names if s not in keeps]) or 'none'}"]
    if "UG" in by.columns and {"2 2 2", "1 2 2", "0 2 2", "1 1 2"} <= set(by.index):
        ug = by["UG"]
        strict = ug["2 2 2"] > ug["1 2 2"] > ug["0 2 2"]
        tie = ug["1 1 2"] - ug["0 2 2"]
        lines.append(f"UG with p = {p:g}: (2 2 2) {ug['2 2 2']:.3f}, (1 2 2) {ug['1 2 2']:.3f}, (0 2 2) "
                     f"{ug['0 2 2']:.3f} -- {'strictly decreasing' if strict else 'NOT strictly decreasing'}; the raw-gain "
                     f"tie (1 1 2) vs (0 2 2) becomes {ug['1 1 2']:.3f} vs {ug['0 2 2']:.3f} ("
                     + ("broken in favour of the more unanimous (1 1 2)" if tie > 1e-12 else "still tied" if abs(tie) <= 1e-12
                        else "broken against the more unanimous (1 1 2)") + ")")
    raw = {r: _raw(r) for r in by.index}
    differ = sum(raw[a] > raw[b] for a in by.index for b in by.index)
    counts = {name: len(pairs) for name, pairs in rawg_reversals(settings).items()}
    some = [f"{name} {k}" for name, k in counts.items() if k]
    lines.append(f"pairs whose RawG order a setting reverses (higher RawG, lower gain), of {differ} with different RawG: "
                 f"{'; '.join(some) or 'none'}"
                 + (f"; none: {claims.listing([n for n, k in counts.items() if not k])}" if some and len(some) < len(counts) else "")
                 + " (the pairs: table rawg_reversals)")
    return lines


def reversals_table(settings: pd.DataFrame) -> pd.DataFrame:
    """Every pair of patterns whose RawG order a setting reverses (:func:`rawg_reversals`), one row
    each: ``setting``, the pattern of higher RawG and its gain, the pattern of lower RawG and its
    gain (saved beside the notebook's one summary line, section 3)."""
    by = settings.set_index("ratings")
    rows = [{"setting": name, "higher RawG": a, "gain a": by.at[a, name], "lower RawG": b, "gain b": by.at[b, name]}
            for name, pairs in rawg_reversals(settings).items() for a, b in pairs]   # RawG: the sum of a pattern
    return pd.DataFrame(rows, columns=["setting", "higher RawG", "gain a", "lower RawG", "gain b"])


def share_changes(grid: pd.DataFrame, z_limit: float | None = None) -> dict:
    """Per Dmax of a :func:`helpers.simulate.ratings.spread_grid`: how the simulated share at
    D = Dmax moves from the smallest to the largest N, read against its Monte Carlo noise. The
    change's standard error is the root sum of squares of the two cells' binomial standard errors;
    ``"constant"`` when the share is the same in every cell, ``"within noise"`` when the change is at
    most ``z_limit`` standard errors (default: two-sided 0.05, Bonferroni over the Dmax values),
    ``"rises"`` or ``"falls"`` otherwise. Returns ``{Dmax: {"word", "first", "last", "z"}}``."""
    from scipy.stats import norm

    d_values = list(dict.fromkeys(grid["d_max"]))
    limit = float(norm.isf(0.025 / max(1, len(d_values)))) if z_limit is None else float(z_limit)
    out = {}
    for d in d_values:
        cells = grid[grid["d_max"] == d].sort_values("n", kind="stable")
        share, se = cells["share_full_spread"].to_numpy(float), cells["se_full_spread"].to_numpy(float)
        diff, noise = share[-1] - share[0], float(np.hypot(se[0], se[-1]))
        z = diff / noise if noise > 0 else (0.0 if diff == 0 else np.sign(diff) * np.inf)
        word = ("constant" if np.ptp(share) == 0 else "within noise" if abs(z) <= limit
                else "rises" if diff > 0 else "falls")
        out[int(d)] = {"word": word, "first": float(share[0]), "last": float(share[-1]), "z": float(z), "z_limit": limit}
    return out


def flat_tail(grid: pd.DataFrame, d_max: int) -> tuple[str, int] | None:
    """``("1.000", 40)`` when the share at D = Dmax of ``d_max``'s cells, as printed (3 decimals),
    is the same from N = 40 to the largest N (at least two cells); ``None`` otherwise."""
    cells = grid[grid["d_max"] == d_max].sort_values("n", kind="stable")
    shown, ns = [f"{v:.3f}" for v in cells["share_full_spread"]], cells["n"].tolist()
    k = len(shown) - 1
    while k > 0 and shown[k - 1] == shown[-1]:
        k -= 1
    return (shown[-1], int(ns[k])) if k < len(shown) - 1 else None


def _change_word(grid: pd.DataFrame, d: int, c: Mapping) -> str:
    """Row 4's word for one Dmax: ``rises``, or ``rises, then flat at 1.000 from N = 40``."""
    flat = flat_tail(grid, d) if c["word"] == "rises" else None
    return c["word"] + (f", then flat at {flat[0]} from N = {flat[1]}" if flat else "")


def _grid_rows(grid: pd.DataFrame, exact: Mapping) -> list[Finding]:
    """Rows 4-5. Under uniform ratings the share at D = Dmax rises with N by its formula
    (:func:`helpers.gains.prob_full_spread_given_relevant`), so row 4 reproduces Sakai's Sec. 4
    remark: its verdict is "by construction", never evidence ("cannot tell" with one N). Each Dmax's
    change is named only against its Monte Carlo noise (:func:`share_changes`)."""
    ns = sorted(grid["n"].unique())
    verdict = "by construction" if len(ns) > 1 else "cannot tell"
    if len(ns) > 1:
        changes = share_changes(grid)
        run = f"N = {ns[0]} → {ns[-1]}: " + "; ".join(
            f"{c['first']:.3f} → {c['last']:.3f} (Dmax = {d}, {_change_word(grid, d, c)}"
            + (f", {abs(c['z']):.1f} s.e." if c["word"] == "within noise" else "") + ")" for d, c in changes.items())
    else:
        changes = {}
        g = grid.set_index("d_max")["share_full_spread"]
        run = f"N = {ns[0]}: " + "; ".join(f"{v:.3f} (Dmax = {d})" for d, v in g.items())
    return [
        Finding("Does the share of items at D = Dmax grow with N under uniform ratings?",
                "yes (a Sec. 4 remark), so UG tends to RawG", run, verdict,
                caveats=("exact_uniform",) if len(ns) > 1 else (),
                numbers={"changes": {str(d): c for d, c in changes.items()}, "exact_rises": bool(len(ns) > 1)}),
        Finding("Does the simulated share at D = Dmax match its exact probability?",
                "— (our check)",
                f"largest gap {claims.number(exact['worst'])}, {exact['worst_z']:.1f} s.e. (limit "
                f"{exact['z_limit']:.1f}: Bonferroni over {claims.plural(exact['cells'], 'cell')}, family-wise {exact['family_alpha']:g})",
                "agrees" if exact["agrees"] else "differs", numbers=dict(exact)),
    ]


def _small(v: float) -> str:
    """A share as ``0.206``, or ``4.2e-05`` below 0.001 (a rare share is not printed as 0.000)."""
    return f"{v:.3f}" if v == 0 or abs(v) >= 0.001 else f"{v:.1e}"


#: Below this an exact share is printed as ``< 1e-12``: :func:`helpers.gains.prob_ties_broken` is
#: ``1 - ratio`` in double precision, so a share under it (e.g. Dmax = 2, N = 80: about 3e-18) is
#: computed as 0 or as rounding noise.
EXACT_FLOOR = 1e-12


def exact_share(v: float) -> str:
    """One rule for every exact share printed: ``0.212``, ``1.8e-09`` below 0.001, ``< 1e-12`` below
    :data:`EXACT_FLOOR` (never ``0.000`` beside neighbours in scientific notation)."""
    return f"< {EXACT_FLOOR:.0e}" if abs(v) < EXACT_FLOOR else _small(v)


def ties_lines(grid: pd.DataFrame) -> list[str]:
    """One printed line per Dmax of a :func:`helpers.simulate.ratings.spread_grid`: the simulated
    share of RawG ties UG breaks per N with its Monte Carlo standard error (``se_ties_broken``) and
    its exact value (``p_ties_broken``), so a gap can be read in standard errors as the share at D = Dmax is.
    Where the standard error is not shown (fewer than :data:`helpers.gains.RARE_TIES` items break a
    tie, or none does) the cell says so instead of printing a collapsed ``± 0``. The grid has no
    topics: ties are counted over all pairs of its items. The shares are properties of the uniform
    model, so cells are not ranked."""
    from .. import gains

    lines = []
    for d, cells in grid.groupby("d_max", sort=False):
        parts = []
        for n, v, se, e in zip(cells["n"], cells["share_ties_broken"], cells["se_ties_broken"], cells["p_ties_broken"]):
            if pd.isna(v):
                parts.append(f"N={int(n)}: no tie (exact {exact_share(e)})")
            elif v == 0:
                parts.append(f"N={int(n)}: no tie broken (exact {exact_share(e)})")
            elif pd.isna(se):
                parts.append(f"N={int(n)}: {_small(v)}, rare: under {gains.RARE_TIES} items break a tie, "
                             f"s.e. not shown (exact {exact_share(e)})")
            else:
                parts.append(f"N={int(n)}: {v:.3f} ± {claims.number(se)} (exact {exact_share(e)})")
        lines.append(f"Dmax={int(d)}: share of RawG ties broken by UG over all pairs of items (no topics), "
                     "simulated ± s.e. (exact)  " + ", ".join(parts))
    return lines


def bonferroni(real_table: pd.DataFrame, verdicts: Mapping, tie: tuple, alpha: float = 0.05) -> dict:
    """Section 6's comparisons (every premise part of every set, and the ties of every set) read as
    ``z = (real − uniform mean) / s.d. of the draws`` (normal approximation; ``*_sd`` columns of
    :func:`helpers.replicates.premise.table`) against the two-sided Bonferroni limit over all ``m``
    of them. Returns ``m``, ``limit``, ``z`` (label -> z), ``shown`` (labels whose part holds or is
    reversed) and ``failing`` (those of ``shown`` with ``|z|`` at or below the limit)."""
    from scipy.stats import norm

    rt = real_table.set_index(["dataset", "source"])
    cases = [(name, part, PREMISE[part][0], v.numbers["parts"][part]) for name, (v, parts) in verdicts.items() for part in parts]
    cases += [(name, "ties", TIES[0], tie[0].numbers["parts"][name]) for name in tie[1]]
    z, shown = {}, []
    for name, part, col, state in cases:
        r, u = rt.loc[(name, "real")], rt.loc[(name, "uniform, same RawG")]
        sd = float(u.get(f"{col}_sd", float("nan")))
        label = f"{name} {_MEASURE.get(part, 'ties broken')}"
        z[label] = (float(r[col]) - float(u[col])) / sd if sd > 0 else float("nan")
        if state in ("holds", "other way"):
            shown.append(label)
    m = len(cases)
    limit = float(norm.isf(alpha / (2 * m)))
    failing = [k for k in shown if not abs(z[k]) > limit]
    return {"m": m, "limit": limit, "z": z, "shown": shown, "failing": failing}


def _bonferroni_caveat(b: Mapping) -> str:
    """The caveat of section 6's rows, from this run's :func:`bonferroni`."""
    head = f"The {b['m']} comparisons of section 6 are read uncorrected"
    if not b["shown"]:
        return head + "; none shows a difference."
    zs = [abs(b["z"][k]) for k in b["shown"]]
    if not b["failing"]:
        return (f"{head}; as z against the draws' s.d., every difference shown survives Bonferroni over the {b['m']} "
                f"(|z| {min(zs):.1f} to {max(zs):.1f}, limit {b['limit']:.2f}).")
    return (f"{head}; after Bonferroni over the {b['m']} (limit |z| > {b['limit']:.2f}), "
            f"{claims.listing(b['failing'])} would be not shown.")


#: A premise part -> the measure the row's question names.
_MEASURE = {"fewer items at D = Dmax": "share at D = Dmax", "a smaller mean D": "mean D",
            "a larger mean bonus UG − RawG": "mean bonus"}


#: A real set with fewer topics than this is named in the sampling caveat (:func:`_sampling_caveat`).
FEW_TOPICS = 10


def _sampling_caveat(real_table: pd.DataFrame) -> str:
    """Limitation of section 6's rows, from this run's sets: the intervals cover only the uniform
    redraws; the sets with under :data:`FEW_TOPICS` topics are named with their topics and items."""
    rt = real_table[real_table["source"] == "real"]
    few = [f"{r['dataset']} ({claims.plural(int(r['topics']), 'topic')}, {int(r['items'])} items)"
           for _, r in rt.iterrows() if "topics" in rt.columns and int(r["topics"]) < FEW_TOPICS]
    head = "Section 6's verdicts weigh only the uniform redraws, not the sampling of items, topics or assessors"
    return head + (f"; {claims.listing(few)} {'rests' if len(few) == 1 else 'rest'} on under {FEW_TOPICS} topics."
                   if few else ".")


def _premise_rows(verdicts: Mapping, real_table: pd.DataFrame, replicates: int) -> list[Finding]:
    """One row per real set on its spread parts; its question names each part's measure."""
    rt = real_table.set_index(["dataset", "source"])
    few = ("few_draws",) if replicates < claims.min_draws() else ()
    rows = []
    for name, (verdict, parts) in verdicts.items():
        r = rt.loc[(name, "real")]
        state = verdict.numbers["parts"]
        if verdict.numbers["verdict"] == "cannot tell":
            run = "; ".join(f"{_MEASURE[p]} {claims.number(c.numbers['a'])} vs range [{claims.number(c.numbers['interval_b'][0])}, "
                            f"{claims.number(c.numbers['interval_b'][1])}]" for p, (c, _) in parts.items()) \
                + f" ({claims.plural(replicates, 'draw')}; {claims.min_draws()} needed)"
        else:
            run = "; ".join(f"{_MEASURE[p]}: {_STATE[s]}" for p, s in state.items())
        n = r["N"] if isinstance(r["N"], str) else f"{float(r['N']):g}"
        measures = ", ".join(_MEASURE[p] for p in parts)
        k = topics(real_table, name)
        rows.append(Finding(f"{name} (N = {n}, Dmax = {int(r['Dmax'])}{', ' + k if k else ''}): do real ratings spread less "
                            f"than uniform ones with the same RawG ({measures})?",
                            "stated (Sec. 4), not tested", run, _VERDICT[verdict.numbers["verdict"]],
                            caveats=("premise_only",) + (few or ("section6",)) + ("sampling",),
                            numbers={"verdict": verdict.numbers, "parts": {p: c.numbers for p, (c, _) in parts.items()}}))
    return rows


def _ties_row(tie: tuple, real_table: pd.DataFrame, replicates: int) -> Finding:
    """The row on RawG ties broken, real against uniform with the same RawG, one part per set."""
    verdict, parts = tie
    col = TIES[0]
    rt = real_table.set_index(["dataset", "source"])
    state = verdict.numbers["parts"]
    run = f"real vs uniform mean [{draws_name(replicates)}]: " + "; ".join(f"{_named(real_table, name)} {claims.number(rt.loc[(name, 'real'), col])} vs "
                    + claims.bracket(*(rt.loc[(name, 'uniform, same RawG'), c] for c in (col, f"{col}_low", f"{col}_high")))
                    + f", {_STATE[state[name]]}" for name in parts)
    if verdict.numbers["verdict"] == "cannot tell":
        run += f" ({claims.plural(replicates, 'draw')}; {claims.min_draws()} needed)"
    few = replicates < claims.min_draws()
    caveats = (("few_draws",) if few else ("section6",)) + ("sampling",)
    return Finding("Does UG break more RawG ties in real ratings than in uniform ones with the same RawG?",
                   "— (our check; either way is possible, see our section 6)", run, _VERDICT[verdict.numbers["verdict"]],
                   caveats=caveats, numbers={"verdict": verdict.numbers, "parts": {p: c.numbers for p, (c, _) in parts.items()}})


def _exact_caveat(grid: pd.DataFrame) -> str:
    """Limitation (a), true of this run's row 4: by its formula the share at D = Dmax cannot fall as N
    grows; the rise is claimed only for the Dmax values whose row prints "rises" (:func:`share_changes`)."""
    words = {d: c["word"] for d, c in share_changes(grid).items()} if grid["n"].nunique() > 1 else {}
    rises = [f"{d}" for d, w in words.items() if w == "rises"]
    shown = ("" if len(rises) == len(words) else
             "; this run shows a rise only for Dmax = " + ", ".join(rises) if rises else "; this run shows no rise beyond noise")
    return (f"Under uniform ratings the share at D = Dmax cannot fall as N grows, by its formula (section 4){shown}: "
            "such a row reproduces Sakai's remark and is no evidence about assessors.")


def findings(*, table1_ok: bool, table1_cells: int, stc2: Sequence[float], tie_p: Sequence[float],
             grid: pd.DataFrame, exact: Mapping, p: float, real_table: pd.DataFrame | None = None,
             verdicts: Mapping | None = None, tie: tuple | None = None, replicates: int = 0,
             footer: str = "") -> Findings:
    """The findings of notebook 01 (see the module docstring for the questions).

    Parameters
    ----------
    table1_ok, table1_cells : whether every recomputed cell of Table 1 equals the published one,
        and how many cells were compared.
    stc2 : UG of (2, 1, 1) and (2, 2, 0) at p = 0.2, Dmax = 2.
    tie_p : the values of p on the grid where Items 5-7 tie.
    grid, exact : :func:`helpers.simulate.ratings.spread_grid` and :func:`~helpers.simulate.ratings.grid_vs_exact`.
    p : the run's p.
    real_table, verdicts, tie, replicates : :func:`helpers.replicates.premise.table`, :func:`premise`,
        :func:`ties` (computed here when not given) and the uniform draws per real set, when the run
        has real ratings.
    """
    stc_ok = [round(float(v), 1) for v in stc2] == [4.6, 4.0]
    tie_ok = any(abs(t - 0.2) < 1e-9 for t in tie_p)
    rows = [
        Finding("Do Eq. 1 and 2 give Table 1 from the ratings alone?",
                "RawG, D, WG, UG (p = 0.2, 0.1) of Items 1–7",
                f"{table1_cells} of {table1_cells} cells equal" if table1_ok else "some cells differ (section 1)",
                "reproduced" if table1_ok else "not reproduced", numbers={"cells": table1_cells, "ok": table1_ok}),
        Finding("Does UG give the STC-2 example?", "(2, 1, 1) → 4.6; (2, 2, 0) → 4.0",
                f"{float(stc2[0]):.1f}; {float(stc2[1]):.1f}", "reproduced" if stc_ok else "not reproduced",
                numbers={"ug": [float(v) for v in stc2]}),
        Finding("Do Items 5–7 tie at the paper's p = 0.2?", "a three-way tie at p = 0.2",
                "tie at p = " + ", ".join(f"{t:g}" for t in tie_p) if tie_p else "no tie on the grid of p",
                "reproduced" if tie_ok else "not reproduced", numbers={"tie_p": [float(t) for t in tie_p]}),
        *_grid_rows(grid, exact),
    ]
    prose = []   # rows 1-3 say whether the published values reproduce; tie shares are the model's (section 7)
    if tie_ok:
        prose.append("The choice of p matters: above the paper's p = 0.2 the order of Items 5–7 reverses, and Item 7 "
                     "(one rating of 1) ranks first.")
    caveats = {"exact_uniform": _exact_caveat(grid),
               "premise_only": "The premise is not the conjecture: notebook 02 tests the effect of UG on "
                               "rankings and significance."}
    if real_table is not None and verdicts:
        rows += _premise_rows(verdicts, real_table, replicates)
        tie = tie if tie is not None else ties(real_table, replicates)
        rows.append(_ties_row(tie, real_table, replicates))
        caveats["sampling"] = _sampling_caveat(real_table)
        if not too_few(replicates):
            caveats["section6"] = _bonferroni_caveat(bonferroni(real_table, verdicts, tie))
        by = {w: [n for n, (v, _) in verdicts.items() if _VERDICT[v.numbers["verdict"]] == w] for w in _VERDICT.values()}
        said = [f"{'cannot be judged' if w == 'cannot tell' else w} for {claims.listing([_named(real_table, n) for n in names])}"
                + (f" ({claims.plural(replicates, 'draw')}; {claims.min_draws()} needed)" if w == "cannot tell" else "")
                for w, names in by.items() if names]
        prose.append("The premise of Sakai's conjecture " + "; it ".join(said) + ".")
    else:
        prose.append("The premise of Sakai's conjecture needs real ratings: profile `real` or `ratings_path`.")
    caveats["uniform"] = "Uniform ratings are Sakai's model of many assessors, not real assessors."
    return Findings("01_gain_definitions", rows, prose, caveats=caveats, general=("uniform",), footer=footer)
