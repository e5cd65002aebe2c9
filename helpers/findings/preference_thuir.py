"""Notebook 05's THUIR image-search section (profile ``real``): its design in a few printed lines,
its printed table and its two findings rows.

Xie et al. (SIGIR 2020) collected, for 102 image queries, which of two engines' result pages users
preferred, or a tie (:mod:`helpers.thuir` documents every choice made to score the pages). The rows
ask whether a single-intent measure, or precision (a count-based measure), agrees with the users more
often than chance (exact binomial tests, Holm); the long description is ``docs/05-thuir.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding
from ..thuir import PRECISION_DEPTH, PRECISION_PAGE, agreement_table, page_lists

__all__ = ["design_lines", "p_text", "thuir_view", "measures_row", "baseline_row", "tie_clause", "p_after",
           "Section", "section"]


def design_lines(gain_map: str, threshold: float, cutoff: int, normaliser: str) -> list[str]:
    """What section 3 of notebook 05 assumes and tests, printed only when the THUIR set runs (a run
    without it prints one line instead): the page order, the gains, the depth, the chance level and
    the tests; the full description is ``docs/05-thuir.md``."""
    depth = "the shorter page's length" if int(cutoff) == 0 else f"{int(cutoff)} images"
    return [f"Assumed: each page is read row by row (rank = grid order); gains: {gain_map} map of the images' "
            f"relevance (0-100), 0 below {threshold:g}; both pages scored at {depth}; normaliser {normaliser!r}.",
            "Only single-intent measures run: the pages have one intent, so no diversity measure is tested.",
            "Chance: a system saying EQUAL on a share t of queries agrees with probability t e + (1 - t)(1 - e) / 2, "
            "e the users' tie share.",
            "Tests: exact binomial (Clopper-Pearson intervals), on all and on decisive queries; Holm over the systems "
            "of each table and over every setting x measure of the sensitivity table.",
            "Design and limits: docs/05-thuir.md."]


def measures_row(real_table: pd.DataFrame, real_sens: pd.DataFrame | None, significance: float) -> Finding:
    """Do single-intent measures agree with the THUIR users more often than chance (Holm)? The best
    measure on the decisive queries, how many measures are above chance, and over how many of the
    sensitivity table's settings (``real_sens``) one is."""
    dec = real_table[(real_table.scope == "decisive") & (real_table.kind == "measure")]
    best = dec[dec.k == dec.k.max()]
    b = best.sort_values("p_above", kind="stable").iloc[0]
    above = int((dec.p_above_holm < significance).sum())
    chance = f" against chance {b['chance']:.3f}" if "chance" in b.index else ""
    run = (f"best: {claims.listing(list(best.system))}, {int(b['k'])} of {int(b['n'])} decisive queries{chance} "
           f"(Holm p {p_after(b['p_above_holm'], significance)}); above chance: {above} of {len(dec)} measures")
    if real_sens is not None:
        k = int((real_sens["p above, Holm"] < significance).sum())
        run += f", {k} of {len(real_sens)} settings"
    return Finding(f"THUIR users: do single-intent measures agree more often than chance (Holm at {significance:g})?",
                   "—", run, "shown" if above else "not shown", ("low_power",),
                   numbers={"best": list(best.system), "k": int(b["k"]), "n": int(b["n"]), "above": above})


def p_after(p: float, significance: float) -> str:
    """``"< 0.001"`` or ``"= 0.010"``: :func:`helpers.notebook.claims.format_p` after "p"."""
    text = claims.format_p(p, significance)
    return text if text.startswith("<") else f"= {text}"


def p_text(df: pd.DataFrame, significance: float, columns: Sequence[str]) -> pd.DataFrame:
    """``df`` with its p-value ``columns`` as text by :func:`helpers.notebook.claims.format_p`, the
    rule of every printed line and findings row ("< 0.001", never a rounded 0.001 beside it)."""
    out = df.copy()
    for c in columns:
        out[c] = [claims.format_p(v, significance) for v in out[c]]
    return out


def thuir_view(t: pd.DataFrame, significance: float) -> pd.DataFrame:
    """Section 7's printed THUIR table, eight columns: system, kind, ties, "k of n", chance, the exact
    two-sided p, the one-sided p ("above chance") after Holm and its 95% Clopper-Pearson interval as one
    cell; the uncorrected one-sided p and every column stay in the saved ``05_real_thuir_agreement``."""
    out = p_text(t, significance, ["p_value", "p_above_holm"])
    return pd.DataFrame({"system": out["system"], "kind": out["kind"], "ties": out["ties"],
                         "k of n": [f"{int(k)} of {int(n)}" for k, n in zip(t["k"], t["n"])],
                         "chance": t["chance"].map("{:.3f}".format), "p two-sided, uncorrected": out["p_value"],
                         "p above chance, Holm": out["p_above_holm"],
                         "95% CI": [f"[{lo:.3f}, {hi:.3f}]" for lo, hi in zip(t["ci_low"], t["ci_high"])]})


def tie_clause(real_table: pd.DataFrame, system: str) -> str:
    """How many of a system's agreements on all queries are its ties matching the users' EQUAL: the
    agreements on the queries the users tie (all minus decisive), e.g. ``"; 22 of its 54 agreements on
    all queries are ties matching users' EQUAL"``; empty when it has none or the table lacks the scopes."""
    rows = real_table[real_table.system == system].set_index("scope")
    if not {"all", "decisive"} <= set(rows.index):
        return ""
    k_all, k_dec = int(rows.loc["all", "k"]), int(rows.loc["decisive", "k"])
    if k_all - k_dec <= 0:
        return ""
    return f"; {k_all - k_dec} of its {k_all} agreements on all queries are ties matching users' EQUAL"


def baseline_row(real_table: pd.DataFrame, significance: float) -> Finding:
    """Does precision (the share of relevant images, a count-based measure that ignores rank) agree
    with the THUIR users more often than chance (Holm)? The verdict is read at the measures' depth
    (the images the measures score), the comparable variant; the whole page's and the trivial
    baselines' results (mean relevance, page length) follow. Each on the decisive queries against
    its own chance level (a system that ties has a lower one)."""
    dec = real_table[real_table.scope == "decisive"].set_index("system")

    def one(name: str, what: str) -> str:
        if name not in dec.index:
            return "not computed"
        r = dec.loc[name]
        return (f"{int(r['k'])} of {int(r['n'])}{what}, own chance {r['chance']:.3f} "
                f"({int(r['ties'])} ties; Holm p {p_after(r['p_above_holm'], significance)})")

    shown = PRECISION_DEPTH in dec.index and bool(dec.loc[PRECISION_DEPTH, "p_above_holm"] < significance)
    base = dec[dec["kind"] == "baseline"]
    above = list(base.index[base.p_above_holm < significance])
    # at most 35 words: the trivial baselines are named in the printed tables
    run = (f"measures' depth: {one(PRECISION_DEPTH, ' decisive')}; whole page: {one(PRECISION_PAGE, '')}; "
           f"baselines above chance: {claims.listing(above) if above else 'none'}")
    return Finding(f"THUIR users: does precision (a count-based measure) agree more often than chance (Holm at "
                   f"{significance:g})?", "—", run, "shown" if shown else "not shown",
                   ("thuir_precision",) if shown else ("thuir_precision", "low_power"),
                   numbers={"shown": shown, "baselines_above": above})


@dataclass
class Section:
    """Section 3 of notebook 05 for one setting: the agreement ``table`` and per-query ``prefs`` of
    :func:`helpers.thuir.agreement_table`, the printed ``lines`` and the printed ``views`` (caption ->
    :func:`thuir_view` table, all and decisive queries), and the ``metrics`` entry."""
    table: pd.DataFrame
    prefs: pd.DataFrame
    lines: list[str] = field(default_factory=list)
    views: dict[str, pd.DataFrame] = field(default_factory=dict)
    metrics: dict = field(default_factory=dict)


def section(img, *, gain_map: str, threshold: float, cutoff: int, tie_tolerance: float, normaliser: str,
            significance: float) -> Section:
    """Score the THUIR pages (``img``: :func:`helpers.data.datasets.load_image_preferences`) under one
    setting and build what section 3 prints: the design, the users' labels, the queries without a
    relevant image, RBU against iRBU, and the two tables (all and decisive queries, most agreements
    first; at equal ``k`` by kind: baseline, count, measure)."""
    table, prefs = agreement_table(img, gain_map=gain_map, threshold=threshold, cutoff=int(cutoff),
                                   tie_tolerance=tie_tolerance, normaliser=normaliser)
    users = prefs["users"]
    n = users.value_counts().reindex(["LEFT", "RIGHT", "EQUAL"]).fillna(0).astype(int)
    lengths = page_lists(img).groupby(["query_id", "engine"]).size()
    lines = design_lines(gain_map, threshold, cutoff, normaliser)
    lines.append(f"{len(users)} queries; users prefer Sogou (LEFT) {n['LEFT']}, Baidu (RIGHT) {n['RIGHT']}, "
                 f"tie {n['EQUAL']}; images per page {lengths.min()}-{lengths.max()}")
    none = prefs["no_relevant_image"].to_numpy(bool)
    if none.any():
        said = users[none].value_counts()
        lines.append(f"{int(none.sum())} of {len(users)} queries have no image at or above the threshold on either "
                     "page: every measure says EQUAL there (the users' labels: "
                     + ", ".join(f"{k} {v}" for k, v in said.items()) + ")")
    else:
        lines.append(f"every query has an image at or above the threshold {threshold:g} on at least one page")
    if {"RBU (p=0.85)", "iRBU (p=0.85)"} <= set(prefs.columns):
        lines.append(f"RBU (p=0.85) and iRBU (p=0.85) prefer the same page on "
                     f"{(prefs['RBU (p=0.85)'] == prefs['iRBU (p=0.85)']).mean():.3f} of the queries")
    views = {}
    for scope in ("all", "decisive"):
        t = table[table.scope == scope].sort_values(["k", "kind"], ascending=[False, True], kind="stable")
        views[f"{scope} queries: agreements k of n, chance, exact binomial p: two-sided uncorrected, one-sided "
              f"(above chance) after Holm over the {len(t)} systems; 95% CI; every p: 05_real_thuir_agreement"] = (
            thuir_view(t, significance))
    return Section(table, prefs, lines, views,
                   {"queries": len(users), "user_ties": int(n["EQUAL"]), "agreement": table})
