"""Notebook 05's THUIR image-search section (profile ``real``): its design in a few printed lines,
its printed table and its two findings rows.

Xie et al. (SIGIR 2020) collected, for 102 image queries, which of two engines' result pages users
preferred, or a tie (:mod:`helpers.thuir` documents every choice made to score the pages). The rows
ask whether a single-intent measure, or a trivial baseline, agrees with the users more often than
chance (exact binomial tests, Holm); the long description is ``docs/05-thuir.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..notebook import claims
from ..notebook.findings import Finding

__all__ = ["design_lines", "p_text", "thuir_view", "measures_row", "baseline_row", "tie_clause", "p_after"]


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
    """The trivial baselines of the THUIR tables above chance after Holm, on all and on decisive
    queries; the first of them on the decisive queries against its own chance level (a baseline that
    ties has a lower one; the best measure's is in :func:`measures_row`), and its ties matching users' EQUAL."""
    base = real_table[real_table.kind == "baseline"]
    above = base[base.p_above_holm < significance]
    names = list(dict.fromkeys(above.system))
    parts = []
    for x in names:
        ps = [f"{claims.format_p(r.p_above_holm, significance)} ({r.scope})"
              for r in above[above.system == x].itertuples()]
        parts.append(f"{x} (Holm p {', '.join(ps)})")
    run = f"{'; '.join(parts)}" if names else f"none of the {base.system.nunique()} after Holm"
    dec = real_table[real_table.scope == "decisive"]
    if names and (dec.system == names[0]).any() and {"chance", "ties"} <= set(dec.columns):
        r = dec[dec.system == names[0]].iloc[0]
        run += (f"; decisive: {int(r['k'])} of {int(r['n'])} against its own chance {r['chance']:.3f} "
                f"({int(r['ties'])} ties)")
    run += tie_clause(real_table, names[0]) if names else ""
    return Finding(f"THUIR users: does a trivial baseline agree more often than chance (Holm at {significance:g})?",
                   "—", run, "shown" if names else "not shown",
                   ("thuir_baselines",) if names else ("thuir_baselines", "low_power"), numbers={"above": names})
