"""trec_eval 10's order of gain levels (``gain_init.c``), reproduced to find where it is wrong.

For ``ndcg``, ``ideal_dcg``, ``ndcg_rel``, ``Rndcg``, ``G`` (and ``ndcg_p``, which trec_eval 10
does not register) trec_eval's ``setup_gains`` builds, per topic, an array of (level, gain,
judged count): the ``-m`` pairs first, in their command-line order, then every level 0 ..
``num_rel_levels - 1`` of the topic that no pair names (gain = level). It sorts the array with
``qsort`` and ``comp_rel_gain``, which returns ``(int)(gain1 - gain2)``: gains that differ by less
than 1 compare *equal* (and, on x86-64, a difference of 2^31 or more converts to ``INT_MIN``,
"less"). glibc's ``qsort`` is a top-down merge sort (``msort.c``: left half ``n / 2``, the left
element first when the comparison is <= 0); with this inconsistent comparison its result depends
on the construction order. The measures then read the *ideal* ranking from the top of the array
down: it starts only if the last element's gain is > 0, skips levels nobody judged and stops at
the first judged level whose gain is <= 0 (``m_ndcg.c``). ``-m ndcg.0=1,3=0.5`` can so put 0.5
above 1, and ``-m ndcg.1=0.5`` (levels 0, 1, 2) stops at level 0 before level 1.

:func:`trec_ideal_runs` gives trec_eval's ideal ranking of every topic and the correct one (the
judged levels with gain > 0 by decreasing gain); the command compares the values both give
(:func:`misordered_topics`) and refuses where they differ. ``dcg`` and ``rbp`` do not read the
order (each level is named once: :mod:`.catalog` refuses a level given twice).

The merge sort is written here by hand: no library reproduces glibc's ``msort`` with an
inconsistent comparator (Python's and numpy's sorts assume a consistent order). The levels no pair
names are kept as ranges (they are consecutive integers, already in order), so the work grows
with the number of pairs and ``log(num_rel_levels)``, not with the levels' values. glibc switches
to a quicksort only when the array exceeds a quarter of the physical memory (hundreds of millions
of levels, where trec_eval's per-level table no longer fits either); musl's and BSD's ``qsort``
order differently: this follows glibc, as on Debian and the CI machines.
"""

from __future__ import annotations

import numpy as np

__all__ = ["comp_rel_gain", "sorted_gains", "trec_ideal_runs", "order_may_differ"]

_INT_LIMIT = 2.0 ** 31


def comp_rel_gain(g1: float, g2: float) -> int:
    """trec_eval's ``comp_rel_gain``: ``(int)(g1 - g2)`` as x86-64 converts it (truncation toward
    0; ``INT_MIN`` when the difference is out of ``int``'s range)."""
    d = g1 - g2
    if not -_INT_LIMIT - 1.0 < d < _INT_LIMIT:
        return -(1 << 31)
    return int(d)


def order_may_differ(pairs: dict[int, float], max_level: int) -> bool:
    """Whether trec_eval's sort can misorder these gains: some gain is not an integer, or some
    difference may leave ``int``'s range. Otherwise ``comp_rel_gain`` is exact and the order right."""
    gains = list(pairs.values())
    if not gains:
        return False
    top = max(max(abs(g) for g in gains), float(max_level))
    return top >= _INT_LIMIT / 2 or any(g != int(g) for g in gains)


# An element of the array: (level, gain) for a pair, or a range of unnamed levels [a, b) whose gain is
# the level. Both are tuples; a range is marked by a third item.

def _gain0(atom) -> float:
    return float(atom[0]) if len(atom) == 3 else atom[1]


def _last_gain(atom) -> float:
    return float(atom[1] - 1) if len(atom) == 3 else atom[1]


def _first(lo: int, hi: int, pred) -> int:
    """The first integer in [lo, hi) where the monotone ``pred`` (False then True) holds, else hi."""
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _merge(left: list, right: list) -> list:
    """glibc ``msort_with_tmp``'s merge: the left head first when ``comp_rel_gain(left, right) <= 0``;
    a range is taken as far as the comparisons with the other head, which stays, agree."""
    out: list = []
    left, right = list(left), list(right)
    i = j = 0
    while i < len(left) and j < len(right):
        x, y = left[i], right[j]
        gx, gy = _gain0(x), _gain0(y)
        if comp_rel_gain(gx, gy) <= 0:
            if len(x) == 3:          # range: elements e with e - gy < 1 (or >= 2^31: INT_MIN) go first
                a, b = x[0], x[1]
                e1 = _first(a, b, lambda e: float(e) - gy >= 1.0)
                cut = b if e1 == b or float(e1) - gy >= _INT_LIMIT else e1
                out.append((a, cut, None))
                if cut < b:
                    left[i] = (cut, b, None)
                    continue
            else:
                out.append(x)
            i += 1
        else:
            if len(y) == 3:          # range: elements f with 1 <= gx - f (< 2^31) go first
                a, b = y[0], y[1]
                cut = _first(a, b, lambda f: gx - float(f) < 1.0)
                out.append((a, cut, None))
                if cut < b:
                    right[j] = (cut, b, None)
                    continue
            else:
                out.append(y)
            j += 1
    return out + left[i:] + right[j:]


def sorted_gains(pairs: dict[int, float], num_rel_levels: int) -> list:
    """The array ``setup_gains`` sorts, after glibc's merge sort, increasing (trec_eval walks it
    from the end): ``(level, gain)`` for a pair, ``(a, b, None)`` for the unnamed levels a .. b-1."""
    explicit = [(int(lv), float(g)) for lv, g in pairs.items()]
    named = sorted(lv for lv in pairs if 0 <= lv < num_rel_levels)
    ranges, start = [], 0
    for lv in named + [num_rel_levels]:
        if lv > start:
            ranges.append((start, lv))
        start = lv + 1
    offsets = np.cumsum([0] + [b - a for a, b in ranges]).tolist()
    k = len(explicit)

    def unnamed(i0: int, i1: int) -> list:       # the unnamed levels at positions i0 .. i1-1 (in order)
        out = []
        for (a, b), off in zip(ranges, offsets):
            lo, hi = max(i0 - off, 0), min(i1 - off, b - a)
            if lo < hi:
                out.append((a + lo, a + hi, None))
        return out

    def msort(lo: int, hi: int) -> list:
        if lo >= k:                  # unnamed levels only: increasing integers, left as they are
            return unnamed(lo - k, hi - k)
        if hi - lo <= 1:
            return [explicit[lo]] if hi > lo else []
        mid = lo + (hi - lo) // 2
        return _merge(msort(lo, mid), msort(mid, hi))

    return msort(0, k + offsets[-1])


def _walk(array: list, judged: dict[int, int]) -> list[tuple[float, int]]:
    """trec_eval's ideal ranking (``m_ndcg.c``) as (gain, count) runs: from the top of ``array``,
    only if the top gain is > 0, the judged levels until the first with gain <= 0."""
    if not array or _last_gain(array[-1]) <= 0:
        return []
    where: dict[int, tuple[int, float]] = {}
    pos = 0
    bounds = []
    for atom in array:
        if len(atom) == 2:
            where.setdefault(atom[0], (pos, atom[1]))
            pos += 1
        else:
            bounds.append((atom[0], atom[1], pos))
            pos += atom[1] - atom[0]
    order = []
    by_start = sorted(bounds)       # ranges by level (merges may have put them out of order)
    keys = [s for s, _, _ in by_start]
    for lv, n in judged.items():
        if lv in where:
            p, g = where[lv]
        else:
            a, b, p0 = by_start[int(np.searchsorted(keys, lv, side="right")) - 1]
            p, g = p0 + (lv - a), float(lv)
        order.append((p, g, n))
    runs: list[tuple[float, int]] = []
    for _, g, n in sorted(order, reverse=True):
        if g <= 0:
            break
        _add(runs, g, n)
    return runs


def _add(runs: list, g: float, n: int) -> None:
    if runs and runs[-1][0] == g:
        runs[-1] = (g, runs[-1][1] + n)
    else:
        runs.append((g, n))


def _correct(pairs: dict[int, float], judged: dict[int, int]) -> list[tuple[float, int]]:
    runs: list = []
    for g, n in sorted(((pairs.get(lv, float(lv)), n) for lv, n in judged.items()), key=lambda x: -x[0]):
        if g > 0:
            _add(runs, g, n)
    return runs


def trec_ideal_runs(pairs: dict[int, float], hist: np.ndarray, present: np.ndarray):
    """trec_eval's ideal ranking of each topic, as (gain, count) runs, beside the correct one.

    Parameters
    ----------
    pairs : dict of int to float
        The gain pairs in their command-line order (each level once).
    hist, present : numpy.ndarray
        Judged documents per topic (rows) at each level of ``present`` (levels >= 0, increasing).

    Returns
    -------
    (list, list)
        Per topic, trec_eval's runs and the correct runs (by decreasing gain).
    """
    cache: dict[int, list] = {}
    theirs, ours = [], []
    for row in hist:
        nz = np.flatnonzero(row)
        judged = {int(present[c]): int(row[c]) for c in nz}
        if not judged:
            theirs.append([])
            ours.append([])
            continue
        L = max(judged) + 1                       # num_rel_levels
        if L not in cache:
            cache[L] = sorted_gains(pairs, L)
        theirs.append(_walk(cache[L], judged))
        ours.append(_correct(pairs, judged))
    return theirs, ours


#: Engine families whose value reads the ideal ranking (``dcg``'s MSDCG and ``rbp``'s RBPg do not).
ORDER_READERS = frozenset({"MSnDCGg", "MSIDCG", "MSnDCGrel", "RMSnDCG", "G"})


def refuse_misordered(lists, measures, scores: dict, topics: list, rel: int, files: tuple[str, str]) -> None:
    """Refuse a gain-pair measure where trec_eval 10's misordered gains change a topic's value.

    For every value of ``ndcg``, ``ideal_dcg``, ``ndcg_rel``, ``Rndcg`` and ``G`` with gain pairs
    trec_eval can misorder (:func:`order_may_differ`), the topics whose ideal ranking trec_eval
    builds differently (:func:`trec_ideal_runs`) are scored with trec_eval's ranking too; if any
    value differs from the correct one, the command stops with a message naming the measure, its
    gains, the first such topic and both values, and how to get the right value.

    Raises
    ------
    ValueError
        As described; nothing is raised where trec_eval's order gives the correct values.
    """
    from ..spec import MeasureSpec
    from .defs import GAIN_PARAM, parse_gain_pairs
    from .graded import with_ideal

    max_level = int(lists.levels_present.max(initial=0))
    for m, values in measures:
        for v in values:
            spec = MeasureSpec.parse(v.engine) if m.kind == "pairs" and m.source == "qrels" else None
            if spec is None or spec.name not in ORDER_READERS:
                continue
            text = dict(spec.params).get(GAIN_PARAM)
            pairs = parse_gain_pairs(text) if isinstance(text, str) else {}
            if not order_may_differ(pairs, max_level):
                continue
            theirs, ours = trec_ideal_runs(pairs, lists.hist, lists.levels_present)
            if theirs == ours:
                continue
            wrong = with_ideal(lists, spec, rel, theirs)
            right = scores[str(spec)]
            bad = np.flatnonzero(~((wrong == right) | (np.isnan(wrong) & np.isnan(right))))
            if len(bad):
                raise ValueError(_message(m.name, v, pairs, max_level, topics, bad, wrong, right, files))


def _message(name: str, v, pairs: dict, max_level: int, topics: list, bad, wrong, right, files) -> str:
    i = int(bad[0])
    topic = topics[i].decode("utf-8", "replace") if isinstance(topics[i], bytes) else str(topics[i])
    arg = f"{name}.{v.name[len(name) + 1:]}"
    shown = [f"{x:6.4f}" for x in (wrong[i], right[i])]
    if shown[0] == shown[1]:        # trec_eval prints the same 4 decimals; its mean may still differ
        shown = [f"{x:.17g}" for x in (wrong[i], right[i])]
    causes = []
    if any(g != int(g) for g in pairs.values()):
        causes.append("gains that differ by less than 1 by their order on the command line (its comp_rel_gain "
                      "truncates the difference to an integer)")
    if not causes or max(max(abs(g) for g in pairs.values()), float(max_level)) >= _INT_LIMIT / 2:
        causes.append("gains that differ by 2^31 or more as if the larger were the smaller (comp_rel_gain's "
                      "integer difference overflows)")
    text = (f"-m {arg}: trec_eval 10 orders {' and '.join(causes)}, so its ideal ranking is wrong and it would "
            f"print a wrong {v.name} for {len(bad)} topic(s), first topic '{topic}': {shown[0]} where the value "
            f"is {shown[1]}. The right values: python -m helpers evaluate --qrels {files[0]} --run {files[1]} "
            f"--conventions trec_eval --per-topic --measures '{v.engine}' (or helpers.measures.evaluate with "
            f"measures=['{v.engine}'], conventions='trec_eval')")
    if max_level <= 20:
        every = {lv: pairs.get(lv, float(lv)) for lv in range(max_level + 1)} | pairs
        ordered = sorted(every.items(), key=lambda kv: kv[1])
        text += ("; trec_eval itself sorts them right when every level from 0 to the largest is given in increasing "
                 "order of gain: -m " + name + "." + ",".join(f"{lv}={_num(g)}" for lv, g in ordered))
    return text


def _num(g: float) -> str:
    text = repr(float(g))
    return text[:-2] if text.endswith(".0") else text
