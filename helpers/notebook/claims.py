"""The vocabulary of every data-dependent sentence: verdict words from one declared rule.

A conclusion is only as honest as its wording. Each function here turns numbers into a phrase by a
rule stated once, and returns a :class:`Claim` -- the phrase *and* the numbers it rests on -- so
that a test can check one against the other, and so that no notebook invents its own thresholds.

Rules
-----
**Shares** (:data:`SHARE_SCALE`, :func:`share`, :func:`holds`). The share ``k/n`` of replicates
(topics, pairs, ...) in which a finding holds is named by the first matching row, and the counts
are always printed beside the word ("most draws (16 of 20, 80%)"):

=============  ===================

word           share s = k / n
=============  ===================

all            s = 1
nearly all     0.9 <= s < 1
most           0.75 <= s < 0.9
a majority     0.5 < s < 0.75
about half     0.45 <= s <= 0.5
a minority     0 < s < 0.45
none           s = 0
=============  ===================


So a share of half or less is never "most" or "a majority".

**Intervals over draws** (:func:`interval`). A summary of R draws is called a "95% interval" only
when R >= 40 (each 2.5% tail then holds a draw beyond it; the rule of :mod:`helpers.stats.summary`);
with fewer draws it is "the range over R draws" (minimum to maximum).

**Leaders** (:func:`leaders`). The highest (or lowest) of a set of values is named together with
every other value that ties with it *as printed* (the reader cannot tell them apart) and, when
intervals are given, every value whose interval overlaps the leader's ("within noise"). A "leader"
of a tie of all values is reported as a tie.

**Comparisons** (:func:`compare`). "A is higher than B" only when a paired test rejects at
``alpha`` or, without a test, when the two intervals do not overlap; otherwise "no difference
shown".

**p-values** (:func:`format_p`). Printed with as many decimals as it takes for the printed value
and the significance call to agree: 0.04999 is "0.04999", never "0.050" (which would read as not
significant at 0.05); below 0.001 as "< 0.001". Significant means ``p < alpha`` (strictly).

:func:`audit` reads rendered text back and lists every phrase that breaks these rules; the
configuration-fuzzing test runs it over the executed notebooks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..stats.summary import interval_bounds, interval_name, is_percentile, mean_interval, min_draws

__all__ = ["Claim", "SHARE_SCALE", "share_word", "share", "holds", "interval", "interval_name", "leaders", "compare",
           "format_p", "p_value", "ratio", "trend", "listing", "plural", "audit", "number"]


@dataclass(frozen=True)
class Claim:
    """A phrase and the numbers it rests on (``kind`` names the rule that produced it)."""

    text: str
    kind: str
    numbers: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


#: The one scale of share words: (word, lowest share, whether the bound is inclusive), tried in order.
SHARE_SCALE = (("all", 1.0, True), ("nearly all", 0.9, True), ("most", 0.75, True), ("a majority", 0.5, False),
               ("about half", 0.45, True), ("a minority", 0.0, False), ("none", 0.0, True))


def _word(s: float) -> str:
    """The word of :data:`SHARE_SCALE` for a share ``s`` in [0, 1]."""
    for word, bound, inclusive in SHARE_SCALE:
        if s > bound or (inclusive and s == bound):
            return word
    return "none"


def share_word(k: int, n: int) -> str:
    """The word of :data:`SHARE_SCALE` for ``k`` of ``n``."""
    k, n = int(k), int(n)
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"a share needs 0 <= k <= n and n >= 1, got {k} of {n}")
    return _word(k / n)


def _pct(k: int, n: int) -> str:
    """The share as a percentage with as many decimals as it takes for the printed number to
    carry the same word as the exact share (``50.3%``, not ``50%``, for "a majority")."""
    word = share_word(k, n)
    s = 100.0 * k / n
    # whole percentages print whole; others with one decimal at least (189 of 200 is 94.5%, never
    # a rounded 94% or 95%), more where one decimal would carry another word
    for digits in range(0 if (100 * k) % n == 0 else 1, 4):
        text = f"{s:.{digits}f}"
        if _word(float(text) / 100) == word:
            return text + "%"
    return ("> " if word != "a minority" else "< ") + (f"{99.999:.3f}%" if k > n / 2 else f"{0.001:.3f}%")


def share(k: int, n: int, noun: str = "", *, within: tuple[float, float] | None = None) -> Claim:
    """``"most draws (16 of 20, 80%)"`` (``noun`` after the word; empty: ``"most (16 of 20, 80%)"``).

    ``within``: the (low, high) shares of a range printed beside the count (an interval, a Monte
    Carlo range). The word must hold over the whole range and the point share: when they carry
    different words no word is printed (``"135 of 206 (65.5%)"``; ``numbers["word"]`` is ``None``),
    so "a majority" is never said of a range that reaches below one half.
    """
    word = share_word(k, n)
    if within is not None and int(n) > 1:
        lo, hi = (float(x) for x in within)
        if not (0.0 <= lo <= hi <= 1.0):
            raise ValueError(f"within must be shares 0 <= low <= high <= 1, got {within!r}")
        if _word(lo) != word or _word(hi) != word:
            text = f"{int(k):,} of {int(n):,}{' ' + noun if noun else ''} ({_pct(k, n)})"
            return Claim(text, "share", {"k": int(k), "n": int(n), "share": k / n, "word": None,
                                         "within": (lo, hi)})
    if int(n) == 1:   # a share over one case is no share: say what happened to the one case
        text = (f"the one {noun}" if noun else "the one case") if int(k) == 1 else (f"no {noun}" if noun else "none")
        return Claim(text, "share", {"k": int(k), "n": 1, "share": float(k), "word": word})
    head = f"{word} {noun}".strip() if noun else word
    if noun and word in ("a majority", "about half", "a minority"):
        head = f"{word} of the {noun}"
    elif noun and word == "none":
        head = f"no {noun}"
    if word == "all" and noun:
        head = f"all {n:,} {noun}" if n > 2 else (f"both {noun}" if n == 2 else f"the one {noun}")
    return Claim(f"{head} ({int(k):,} of {int(n):,}, {_pct(k, n)})", "share",
                 {"k": int(k), "n": int(n), "share": k / n, "word": word})


def holds(k: int, n: int, what: str = "draws") -> Claim:
    """Where a finding holds: ``"in most draws (16 of 20, 80%)"``, ``"in no draw (0 of 20, 0%)"``."""
    word = share_word(k, n)
    if int(n) == 1:
        singular = what[:-1] if what.endswith("s") else what
        return Claim(f"in the one {singular}" if int(k) else f"not in the one {singular}", "share",
                     {"k": int(k), "n": 1, "share": float(k), "word": word})
    if word == "none":
        singular = what[:-1] if what.endswith("s") else what
        text = f"in no {singular} (0 of {int(n):,}, 0%)"
        return Claim(text, "share", {"k": 0, "n": int(n), "share": 0.0, "word": word})
    c = share(k, n, what)
    return Claim(f"in {c.text}", "share", c.numbers)


def _fmt(v: float, digits: int) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return number(v, digits)


#: Said beside a percentile interval that does not hold the mean it is printed with (skewed draws).
_MEAN_OUTSIDE = "the mean lies outside the interval: a few draws are far from the rest"
#: Said beside a bootstrap percentile interval that does not hold the full-data estimate it is printed
#: with: the resamples sit to one side of the estimate (e.g. τ near 1, which resampling biases downward).
_ESTIMATE_OUTSIDE = "the estimate lies outside its bootstrap percentile interval: the bootstrap is biased here"


def outside(value: float, low: float, high: float) -> bool:
    """True when ``value`` and its bounds are finite and ``value`` lies outside ``[low, high]``."""
    v, lo, hi = (float(x) if x is not None else math.nan for x in (value, low, high))
    return all(math.isfinite(x) for x in (v, lo, hi)) and not lo <= v <= hi


def number(v: float, digits: int = 3, *, marks: Sequence[float] = (0.0, 1.0), max_digits: int = 6) -> str:
    """``v`` with ``digits`` decimals, or more when fewer would print a value that is not one of
    ``marks`` (the bounds a reader compares against: τ = 1, a share of 0) as if it were:
    ``number(0.99996)`` is ``"0.99996"``, not ``"1.000"``; ``number(1.0)`` stays ``"1.000"``."""
    v = float(v)
    text = f"{v:.{digits}f}"
    for d in range(digits, max_digits + 1):
        text = f"{v:.{d}f}"
        if not any(float(text) == m != v for m in marks):
            return text
    return text


def interval(values: Sequence[float] | None = None, *, mean: float | None = None, low: float | None = None,
             high: float | None = None, n: int | None = None, level: float = 0.95, digits: int = 3,
             what: str = "draws") -> Claim:
    """A summary of draws, named by the interval rule.

    Give the draws themselves (``values``), or their ``mean, low, high`` with the number of draws
    ``n`` (``low``/``high`` as :func:`helpers.replicates.runner.summarise` computes them, which
    already follows the rule). Returns ``"0.520 [0.410, 0.630] (95% interval over 50 draws)"`` or
    ``"0.520 (range 0.410 to 0.630 over 5 draws)"``.
    """
    if values is not None:
        x = np.asarray(values, dtype=float)
        x = x[np.isfinite(x)]
        n = len(x)
        mean = float(x.mean()) if n else math.nan
        low, high, kind = interval_bounds(x, level)
    else:
        if n is None or mean is None or low is None or high is None:
            raise ValueError("interval: give the draws, or mean, low, high and n")
        kind = "percentile" if is_percentile(n, level) else "range"
    m, lo, hi = _fmt(mean, digits), _fmt(low, digits), _fmt(high, digits)
    if kind == "percentile":
        text = f"{m} [{lo}, {hi}] ({level:.0%} interval over {int(n):,} {what}"
        if math.isfinite(mean) and not low <= mean <= high:
            text += "; " + _MEAN_OUTSIDE
        text += ")"
    elif int(n) == 1:
        text = f"{m} (one {what[:-1] if what.endswith('s') else what})"
    else:
        text = f"{m} (range {lo} to {hi} over {int(n):,} {what})"
    return Claim(text, "interval", {"mean": mean, "low": low, "high": high, "n": int(n), "kind": kind,
                                    "level": level, "min_draws": min_draws(level)})


def listing(items: Sequence[str], conj: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def plural(k: int, noun: str, nouns: str | None = None) -> str:
    """``"1 pair"``, ``"3 pairs"`` (``nouns`` for irregular plurals)."""
    return f"{int(k):,} {noun if int(k) == 1 else (nouns or noun + 's')}"


def leaders(values: Mapping[str, float], *, higher: bool = True, digits: int = 3,
            intervals: Mapping[str, tuple[float, float]] | None = None, what: str = "value") -> Claim:
    """The leader(s) of a set of values, naming every tie as printed and every value within noise.

    Parameters
    ----------
    values : mapping label -> value
        NaN values are ignored.
    higher : bool
        Whether the largest value leads (else the smallest).
    digits : int
        Decimals the values are printed with: values equal at this precision are tied.
    intervals : mapping label -> (low, high), optional
        Uncertainty of each value; labels whose interval overlaps the leader's are named as within
        noise of it.
    what : str
        Name of the quantity, used when everything ties ("all 5 measures tie at 0.581").

    Returns
    -------
    Claim
        ``text`` such as ``"D-Q (0.581)"``, ``"D-Q and D-RBP (tied at 0.581)"`` (``"... to 3
        decimals"`` when the tied values differ beyond the printed digits),
        ``"D-nDCG (0.620; within noise: alpha-nDCG 0.600, ERR-IA 0.590)"`` or
        ``"all 14 tie at 1.000"``; ``numbers``: ``leaders`` (tied as printed), ``within_noise``,
        ``best``, ``n``.
    """
    clean = {str(k): float(v) for k, v in values.items() if v is not None and not math.isnan(float(v))}
    if not clean:
        raise ValueError("leaders: no value to compare")
    sign = 1.0 if higher else -1.0
    best_label = max(clean, key=lambda k: sign * clean[k])
    best = clean[best_label]
    shown = f"{best:.{digits}f}"  # ties as printed at `digits` (no extra digits here: they would split a tie)
    tied = [k for k in clean if f"{clean[k]:.{digits}f}" == shown]
    noise: list[str] = []
    if intervals is not None:
        lead = [intervals[k] for k in tied if k in intervals]  # within noise of ANY tied leader
        for k in clean:
            if k in tied or k not in intervals:
                continue
            lo, hi = intervals[k]
            if any(lo <= bhi and hi >= blo for blo, bhi in lead):
                noise.append(k)
        noise.sort(key=lambda k: -sign * clean[k])
    nums = {"best": best, "leaders": tied, "within_noise": noise, "n": len(clean)}
    # a tie as printed of values that differ says so: "tied at 0.000 to 3 decimals" (0 and 2e-4)
    exact = "" if len({clean[k] for k in tied}) == 1 else f" to {digits} decimals"
    if len(tied) == len(clean) and len(clean) > 1:
        return Claim(f"all {len(clean)} tie at {shown}{exact}", "leaders", nums)
    head = f"{listing(tied)} (tied at {shown}{exact}" if len(tied) > 1 else f"{tied[0]} ({shown}"
    if noise:
        head += "; within noise: " + ", ".join(f"{k} {clean[k]:.{digits}f}" for k in noise)
    return Claim(head + ")", "leaders", nums)


def format_p(p: float, alpha: float = 0.05) -> str:
    """A p-value printed so that its significance at ``alpha`` cannot be misread (module docstring)."""
    p = float(p)
    if math.isnan(p):
        return "n/a"
    if p < 0.001 and alpha >= 0.001:
        return "< 0.001"
    for digits in range(3, 12):
        text = f"{p:.{digits}f}"
        shown = float(text)
        if (shown < alpha) == (p < alpha) and shown != alpha:
            return text
    return repr(p)


def p_value(p: float, alpha: float = 0.05, name: str = "p") -> Claim:
    """``"p = 0.031, significant at α = 0.05"`` or ``"p = 0.0501, not significant at α = 0.05"``."""
    sig = float(p) < alpha
    shown = format_p(p, alpha)
    eq = "" if shown.startswith("<") else "= "
    text = f"{name} {eq}{shown}, {'significant' if sig else 'not significant'} at α = {alpha:g}"
    return Claim(text, "p_value", {"p": float(p), "alpha": alpha, "significant": sig})


def compare(a_name: str, a: float, b_name: str, b: float, *, interval_a: tuple[float, float] | None = None,
            interval_b: tuple[float, float] | None = None, p: float | None = None, alpha: float = 0.05,
            digits: int = 3, higher: str = "higher", lower: str = "lower") -> Claim:
    """Whether ``a`` differs from ``b``: by the paired test ``p`` when given, else by whether the
    intervals overlap; with neither, the values are only reported ("no test")."""
    def show(name, v, iv):
        # a fixed value (real data, nothing drawn) carries no interval: [v, v] is not printed
        drawn = iv is not None and not (float(iv[0]) == float(iv[1]) == float(v))
        return f"{name} ({_fmt(v, digits)}" + (f" [{_fmt(iv[0], digits)}, {_fmt(iv[1], digits)}]" if drawn else "") + ")"

    sa, sb = show(a_name, a, interval_a), show(b_name, b, interval_b)
    if p is not None:
        differs, basis = float(p) < alpha, p_value(p, alpha).text
    elif interval_a is not None and interval_b is not None:
        differs = interval_a[0] > interval_b[1] or interval_b[0] > interval_a[1]
        fixed = [name for name, v, iv in ((a_name, a, interval_a), (b_name, b, interval_b))
                 if float(iv[0]) == float(iv[1]) == float(v)]
        if len(fixed) == 1:   # a fixed value against the other's interval (or range) of draws
            basis = ("outside" if differs else "inside") + " the other's bounds"
        else:
            basis = "intervals do not overlap" if differs else "intervals overlap"
    else:
        differs, basis = None, "no test"
    if differs:
        word = higher if a > b else lower
        text = f"{sa} is {word} than {sb} ({basis})"
    elif differs is None:
        text = f"{sa} and {sb} (not tested)"
    else:
        text = f"no difference shown between {sa} and {sb} ({basis})"
    return Claim(text, "compare", {"a": a, "b": b, "differs": differs, "p": p, "alpha": alpha,
                                   "interval_a": interval_a, "interval_b": interval_b})


def ratio(a: float, b: float, digits: int = 1) -> Claim:
    """``"2.6 times"`` (a / b), never "about twice": the number is the claim."""
    r = float(a) / float(b) if b else math.inf
    return Claim(f"{r:.{digits}f} times", "ratio", {"a": a, "b": b, "ratio": r})


def trend(xs: Sequence[float], ys: Sequence[float], *, tol: float = 0.0, x_name: str = "x", digits: int = 3) -> Claim:
    """How ``ys`` moves as ``xs`` grows, read at the printed precision (``digits``; steps of at most
    ``tol`` are flat): ``"decreases as N grows"`` (every step down), ``"increases ..."``, ``"does not
    change"``, ``"does not move monotonically"``, or, when some steps are flat, where it moves and where
    it stays: ``"increases as N grows up to N = 40, then stays at 1.000 (to 3 decimals)"``,
    ``"stays at 0.000 up to N = 10, then increases as N grows (to 3 decimals)"``, ``"never decreases as N grows (flat in places)"``."""
    order = np.argsort(np.asarray(xs, dtype=float), kind="stable")
    x = np.asarray(xs, dtype=float)[order]
    y = np.asarray(ys, dtype=float)[order]
    steps = np.diff(np.round(y, digits))
    flat = np.abs(steps) <= tol
    xs_ = lambda v: f"{v:g}"
    if len(steps) == 0 or np.all(flat):
        word, text = "does not change", "does not change"
    elif np.all(steps <= tol) or np.all(steps >= -tol):
        word = "increases" if np.all(steps >= -tol) else "decreases"
        moving = np.flatnonzero(~flat)
        first, last = int(moving[0]), int(moving[-1])
        if not flat.any():
            text = f"{word} as {x_name} grows"
        elif np.all(~flat[first:last + 1]):  # flat steps only before and/or after one moving stretch
            text = f"{word} as {x_name} grows"
            if first > 0:
                text = f"stays at {y[0]:.{digits}f} up to {x_name} = {xs_(x[first])}, then {text}"
            if last < len(steps) - 1:
                text += f" up to {x_name} = {xs_(x[last + 1])}, then stays at {y[last + 1]:.{digits}f}"
            text += f" (to {digits} decimals)"   # some step is flat here, at the printed precision
        else:
            word = "does not decrease" if word == "increases" else "does not increase"
            text = f"never {word.split()[-1]}s as {x_name} grows (flat in places)"
    else:
        word = "does not move monotonically"
        text = f"{word} as {x_name} grows"
    return Claim(text, "trend", {"word": word, "xs": x.tolist(), "ys": y.tolist(), "tol": tol})


# --------------------------------------------------------------------------------------------
# reading rendered text back
# --------------------------------------------------------------------------------------------

_WORDS = "|".join(re.escape(w) for w, _, _ in SHARE_SCALE)
# share() and holds() write "none" as "no <noun>" / "in no <noun>": read "no" back as "none"
_WORD_RE = re.compile(r"\b(" + _WORDS + r"|no)\b")
_COUNTS_RE = re.compile(r"\((?P<k>\d[\d,]*) of (?P<n>\d[\d,]*),")
_MOST_PCT_RE = re.compile(r"\b(most|a majority)\b[^.;\n]{0,60}?\b(?P<pct>\d+(?:\.\d+)?)%")
_INTERVAL_RE = re.compile(r"(?P<level>\d+)% (?:percentile |confidence )?(?:interval|range)(?P<gap>[^.;\n]{0,40}?)"
                          r"\bover (?P<n>\d[\d,]*) (?:draws|replicates|redraws|resamples)")
_INTERVAL_AFTER_RE = re.compile(r"\b(?P<n>\d[\d,]*) (?:draws|replicates|redraws|resamples)\b[^\n]{0,80}?"
                                r"(?P<level>\d+)% (?:percentile )?(?:interval|band)")
_P_RE = re.compile(r"\bp\s*=\s*(?P<p>0\.\d+)")
_ALPHA_RE = re.compile(r"(?:α|alpha)\s*=\s*(?P<a>0?\.\d+)")
_BRACKET_RE = re.compile(r"\[(?P<lo>-?\d*\.\d+|-?\d+), (?P<hi>-?\d*\.\d+|-?\d+)\]")


def audit(text: str, alpha: float = 0.05) -> list[str]:
    """Phrases of rendered ``text`` that break the rules of this module (empty list: none).

    Checked: a share word followed by its counts ``(k of n`` that the scale would not give;
    "most" or "a majority" beside a percentage of 50% or less; an "X% interval over R draws"
    with fewer draws than the interval rule needs; a printed p-value equal to the significance
    level (``p = 0.050`` at α = 0.05 cannot be read either way); an interval ``[low, high]``
    with ``low > high``.
    """
    problems = []
    for m in _COUNTS_RE.finditer(text):
        # the share word nearest before the counts is the one they qualify ("none at N = 5 in all 3
        # replicates (3 of 3" qualifies "all", not "none")
        words = list(_WORD_RE.finditer(text[max(0, m.start() - 60):m.start()]))
        if not words:
            continue
        word = words[-1].group(1).replace("no", "none") if words[-1].group(1) == "no" else words[-1].group(1)
        k, n = int(m.group("k").replace(",", "")), int(m.group("n").replace(",", ""))
        if n >= 1 and 0 <= k <= n and share_word(k, n) != word:
            problems.append(f"share word {word!r} for {k} of {n} (the scale says {share_word(k, n)!r}): "
                            f"{text[max(0, m.start() - 60):m.end()]!r}")
    for m in _MOST_PCT_RE.finditer(text):
        if float(m.group("pct")) <= 50:
            problems.append(f"{m.group(1)!r} beside {m.group('pct')}%: {m.group(0)!r}")
    for m in _INTERVAL_RE.finditer(text):
        level = int(m.group("level")) / 100
        n = int(m.group("n").replace(",", ""))
        if 0 < level < 1 and n < min_draws(level) and "range" not in m.group(0).split("over")[0]:
            problems.append(f"{m.group('level')}% interval over {n} draws (the rule needs {min_draws(level)}): "
                            f"{m.group(0)!r}")
    for m in _INTERVAL_AFTER_RE.finditer(text):
        level = int(m.group("level")) / 100
        n = int(m.group("n").replace(",", ""))
        if 0 < level < 1 and n < min_draws(level):
            problems.append(f"{m.group('level')}% interval over {n} draws (the rule needs {min_draws(level)}): "
                            f"{m.group(0)!r}")
    for sentence in re.split(r"(?<=[.;])\s|\n", text):
        a = _ALPHA_RE.search(sentence)
        level = float(a.group("a")) if a else alpha
        for m in _P_RE.finditer(sentence):
            if float(m.group("p")) == level:
                problems.append(f"p-value printed as the significance level {level:g}: {m.group(0)!r}")
    for m in _BRACKET_RE.finditer(text):
        if float(m.group("lo")) > float(m.group("hi")):
            problems.append(f"interval with low > high: {m.group(0)!r}")
    return problems


# --------------------------------------------------------------------------------------------
# compact intervals, families of tests, claims with several parts
# --------------------------------------------------------------------------------------------

def bracket(mean: float, low: float, high: float, digits: int = 3, *, estimate: bool = False) -> str:
    """``"0.520 [0.410, 0.630]"``: a value and its interval, for lists whose header already names
    the interval ("mean [95% interval] over 50 draws"). Numbers are printed by :func:`number` (a
    bound is never shown as 0 or 1 when it is not), and a mean outside its interval says so, as
    :func:`interval` does: ``"0.999 [1.000, 1.000] (the mean lies outside the interval: a few draws
    are far from the rest)"``. ``estimate=True``: ``mean`` is a full-data estimate and ``low, high``
    its bootstrap percentile interval (not the mean of the resamples), so a value outside says
    ``"(the estimate lies outside its bootstrap percentile interval: the bootstrap is biased here)"``."""
    text = f"{_fmt(mean, digits)} [{_fmt(low, digits)}, {_fmt(high, digits)}]"
    if outside(mean, low, high):
        text += f" ({_ESTIMATE_OUTSIDE if estimate else _MEAN_OUTSIDE})"
    return text


def compare_holm(tests: Mapping[Any, Mapping[str, Any]], *, alpha: float = 0.05, digits: int = 3,
                 family: str = "tests") -> dict[Any, Claim]:
    """:func:`compare` for a family of paired tests, with Holm's step-down adjustment over the family
    (:func:`helpers.stats.holm`; familywise error at ``alpha``).

    ``tests`` maps a label to the keyword arguments of :func:`compare` (``a_name, a, b_name, b, p``).
    Each returned claim is worded by the *adjusted* p-value and names the adjustment and the raw
    p-value: ``"PRM (0.929) is higher than binary (0.824) (Holm-adjusted p = 0.018 over 2 thresholds,
    significant at α = 0.05; unadjusted p = 0.009)"``; ``numbers`` add ``p_raw``, ``p_holm`` and ``m``
    (``p`` is the adjusted one, so a verdict read from ``differs`` is the corrected one).
    """
    from ..stats import holm

    labels = list(tests)
    raw = [float(tests[t]["p"]) for t in labels]
    adj = holm(raw)
    m = int(np.isfinite(np.asarray(raw, dtype=float)).sum())
    out = {}
    for t, p_raw, p_adj in zip(labels, raw, adj):
        kw = dict(tests[t])
        kw["p"] = float(p_adj)
        c = compare(kw.pop("a_name"), kw.pop("a"), kw.pop("b_name"), kw.pop("b"), alpha=alpha, digits=digits, **kw)
        basis = p_value(p_adj, alpha).text
        named = (p_value(p_adj, alpha, name="Holm-adjusted p").text.replace(
            f", {'significant' if p_adj < alpha else 'not significant'}",
            f" over {plural(m, family[:-1] if family.endswith('s') else family, family)}, "
            f"{'significant' if p_adj < alpha else 'not significant'}", 1)
                 + f"; unadjusted p {'' if format_p(p_raw, alpha).startswith('<') else '= '}{format_p(p_raw, alpha)}")
        out[t] = Claim(c.text.replace(f"({basis})", f"({named})"), "compare",
                       {**c.numbers, "p_raw": p_raw, "p_holm": float(p_adj), "m": m})
    return out


def components(parts: Mapping[str, tuple[Claim, str]], *, what: str = "the premise") -> Claim:
    """The verdict on a claim with several parts, one :func:`compare` claim each.

    ``parts`` maps a part's name to ``(claim, expected)``, ``expected`` being ``"higher"`` or
    ``"lower"``: the direction of ``a`` against ``b`` the claim predicts. A part *holds* when the
    comparison shows a difference in that direction, *goes the other way* when it shows one in the
    opposite direction, and is *not shown* otherwise. ``what`` "holds" only when every part holds;
    it "does not hold" when every part goes the other way; else it "holds only in part". Returns
    ``"the premise holds only in part: holds for a; goes the other way for b; not shown for c"``;
    ``numbers``: ``verdict`` (``holds``, ``partly``, ``fails``, ``not shown``) and ``parts``
    (name -> ``holds`` / ``other way`` / ``not shown``).
    """
    if not parts:
        raise ValueError("components: no part to judge")
    state = {}
    for name, (c, expected) in parts.items():
        if expected not in ("higher", "lower"):
            raise ValueError(f"components: expected must be 'higher' or 'lower', got {expected!r} for {name!r}")
        n = c.numbers
        if not n.get("differs"):
            state[name] = "not shown"
        else:
            up = float(n["a"]) > float(n["b"])
            state[name] = "holds" if up == (expected == "higher") else "other way"
    groups = {s: [k for k, v in state.items() if v == s] for s in ("holds", "other way", "not shown")}
    if len(groups["holds"]) == len(state):
        verdict, text = "holds", f"{what} holds for every part ({listing(groups['holds'])})"
    elif len(groups["other way"]) == len(state):
        verdict, text = "fails", f"{what} does not hold: every part goes the other way ({listing(groups['other way'])})"
    elif not groups["holds"] and not groups["other way"]:
        verdict, text = "not shown", f"{what} is not shown: no part differs ({listing(groups['not shown'])})"
    else:
        verdict = "partly"
        said = [f"{label} {listing(groups[s])}" for s, label in
                (("holds", "holds for"), ("other way", "goes the other way for"), ("not shown", "is not shown for"))
                if groups[s]]
        text = f"{what} holds only in part: it " + "; it ".join(said)
    return Claim(text, "components", {"verdict": verdict, "parts": state})




def share_of(k: int, n: int, noun: str, nouns: str | None = None, *, nothing: str | None = None) -> Claim:
    """:func:`share` for a count whose denominator the data decide, so it may be 1 or 0.

    The noun takes the number of ``n`` (``"the one discrepancy (1 of 1, 100%)"``, not "the one
    discrepancies"; ``nouns`` for irregular plurals, default ``noun + "s"``), and with ``n = 0``
    there is nothing to count: the phrase says so (``"no cells to count"``, or ``nothing``)
    instead of a share of nothing, and ``numbers["word"]`` is ``"nothing"``.
    """
    many = nouns or noun + "s"
    if int(n) == 0:
        if int(k) != 0:
            raise ValueError(f"a share of nothing needs k = 0, got {k} of 0")
        return Claim(nothing or f"no {many} to count", "share",
                     {"k": 0, "n": 0, "share": math.nan, "word": "nothing"})
    return share(k, n, noun if int(n) == 1 else many)


__all__ += ["bracket", "outside", "compare_holm", "components", "share_of"]


def _signed(v: float, digits: int, max_digits: int = 6) -> str:
    """``v`` with a sign, and more digits (up to ``max_digits``) when it would print as 0 but is not:
    a bound of +0.00016 is "+0.0002", not "+0.000" (which would hide that an interval excludes 0)."""
    d = digits
    while d < max_digits and v != 0 and float(f"{v:.{d}f}") == 0:
        d += 1
    return f"{v:+.1e}" if v != 0 and float(f"{v:.{d}f}") == 0 else f"{v:+.{d}f}"


def mean_ci(mean: float, low: float, high: float, n: int, *, level: float = 0.95, digits: int = 3,
            what: str = "replicates") -> Claim:
    """A mean over ``n`` independent draws with the confidence interval *of the mean* (not the spread
    of the draws that :func:`interval` describes): ``"+0.017 [+0.011, +0.023] (95% CI of the mean over
    40 replicates)"``. Signed, since it is used for differences."""
    if int(n) < 2 or not (math.isfinite(low) and math.isfinite(high)):
        text = f"{mean:+.{digits}f} (one {what[:-1] if what.endswith('s') else what}, no interval)"
    else:
        text = (f"{_signed(mean, digits)} [{_signed(low, digits)}, {_signed(high, digits)}] ({level:.0%} CI of the mean over "
                f"{int(n):,} {what})")
    return Claim(text, "mean_ci", {"mean": mean, "low": low, "high": high, "n": int(n), "level": level})


__all__ += ["mean_ci"]


def paired_difference(a_name: str, b_name: str, d: Sequence[float], *, a: float | None = None,
                      b: float | None = None, level: float = 0.95, digits: int = 3, what: str = "replicates",
                      higher: str = "higher", lower: str = "lower") -> Claim:
    """Whether A differs from B *on average* over independent draws, from the paired differences
    ``d`` (A − B per draw; NaN dropped): the ``level`` CI of the mean difference (Student's t,
    :func:`helpers.stats.summary.mean_interval`) excludes 0 or not.

    The rule for every comparison of two quantities measured on the same replicates. Whether the
    two spreads of single draws overlap is the wrong test: it asks whether A beats B in (nearly)
    every draw, and calls a lead that holds on average "no difference". ``a`` and ``b`` (the two
    means) are printed beside the names when given."""
    x = np.asarray(d, dtype=float)
    x = x[np.isfinite(x)]
    lo, hi, _ = mean_interval(x, level)
    mean = float(x.mean()) if len(x) else math.nan
    show = lambda name, v: name if v is None else f"{name} ({_fmt(v, digits)})"
    sa, sb = show(a_name, a), show(b_name, b)
    if len(x) < 2:
        return Claim(f"{sa} and {sb} (one {what[:-1] if what.endswith('s') else what}: not tested)", "paired_difference",
                     {"mean": mean, "low": lo, "high": hi, "n": len(x), "differs": None, "level": level})
    differs = bool(lo > 0 or hi < 0)
    basis = (f"mean difference {_signed(mean, digits)} [{_signed(lo, digits)}, {_signed(hi, digits)}], the {level:.0%} CI of the mean "
             f"paired difference over {len(x):,} {what}, {'excludes' if differs else 'includes'} 0")
    text = (f"{sa} is {higher if mean > 0 else lower} than {sb} ({basis})" if differs
            else f"no difference shown between {sa} and {sb} ({basis})")
    return Claim(text, "paired_difference", {"mean": mean, "low": lo, "high": hi, "n": len(x), "differs": differs,
                                             "level": level})


__all__ += ["paired_difference"]
