"""The array kernels of the measure engine: many ranked lists scored at once.

:func:`evaluate_arrays` scores *n* ranked lists from a ``(n_lists, depth)`` matrix of gains (NaN
past each list's end) and a ``(n_lists, k)`` matrix of ideal gains. It knows nothing about
documents, topics or runs, so :mod:`helpers.measures.adhoc` feeds it the gains of tidy qrels and
runs and :mod:`helpers.measures.diversity` the global gains of the D-measures or DIN's
rank-dependent gains. Lists are scored in blocks that fit in cache; within a block every measure
is a gather from prefix sums over ranks computed once (:class:`_Block`).

Definitions
-----------
Notation follows Sakai's survey of NTCIR graded-relevance measures (``sakai_ntcir_graded_
relevance_survey``, Sec. 2.1): ``g(r)`` is the gain of the document at rank ``r`` (0 for
judged non-relevant and unjudged documents), ``I(r) = [g(r) > 0]``, ``C(r) = sum_{i<=r} I(i)``,
``cg(r) = sum_{i<=r} g(i)``; ``g*(r)`` and ``cg*(r)`` are the same for the ideal list (all judged
relevant documents by decreasing gain; ``cg*`` stays constant past rank ``R``); ``R`` is the
number of judged relevant documents; ``gmax`` is the highest gain (see ``gmax`` below).

=====================  =========================================================================
``AP``, ``AP@l``        ``sum_{r<=l} I(r) C(r)/r`` divided by ``R`` (``AP``) or ``min(l, R)``
                        (``AP@l``, NTCIREVAL); ``AP(norm=R)@l`` divides by ``R`` like
                        trec_eval's ``map_cut``.
``Q``, ``Q@l``          survey Eq. (1)-(3): ``sum I(r) BR(r)`` over ``R`` or ``min(l, R)``, with the
                        blended ratio ``BR(r) = (C(r) + beta cg(r)) / (r + beta cg*(r))``,
                        ``beta = 1`` by default; ``Q(norm=R)@l`` divides by ``R``.
``P+``, ``P+@l``        survey Eq. (4): ``sum_{r<=rp} I(r) BR(r) / C(rp)`` where the preferred rank
                        ``rp`` is the first rank holding the highest gain (for level-based qrels:
                        level, as NTCIREVAL ``compute``) found in the (top ``l`` of the) list;
                        0 if no relevant document is retrieved.
``RR``, ``RR@l``        ``1/r1`` for the first relevant rank ``r1`` (0 if none).
``MSnDCG@l``            ``sum g(r)/log2(r+1)`` over the same for the ideal list, both to rank ``l``
                        (Burges et al. 2005; trec_eval's ``ndcg_cut``).
``nDCG(b=2)@l``         original Jarvelin-Kekalainen nDCG: discount ``log_b(r)`` for ``r > b``,
                        none for ``r <= b`` (NTCIREVAL's ``orig_dcglog``); ``b=e`` gives ln.
``nG@1``                ``g(1)/g*(1)`` (no discounting, no cumulation).
``nCG@l``               ``cg(l)/cg*(l)``.
``ERR@l``, ``nERR@l``   Chapelle et al. 2009 with NTCIREVAL's stop probability
                        ``s(r) = g(r)/(gmax + 1)``: ``ERR = sum s(r) prod_{i<r}(1-s(i)) / r``;
                        ``nERR`` divides by the ideal list's ERR at the same cutoff.
``RBP(p=0.95)[@l]``     ``(1-p) sum p^(r-1) g(r) / gmax`` (Moffat and Zobel 2008 with graded gains).
``EBR(beta=1)[@l]``     NCU with ERR's stopping distribution and BR as utility (Zeng and Sakai,
                        Table 1): ``sum s(r) prod_{i<r}(1-s(i)) BR(r)``; not normalised.
``iRBU(p=0.99,e=0)[@l]``  intentwise RBU (Zeng and Sakai, Table 1; Amigo et al. 2018):
                        ``sum p^r s(r) prod_{i<r}(1-s(i))``; with ``e > 0`` the effort term
                        ``e sum_{r=1}^{l} p^r`` of their Eq. (6) is subtracted (single intent).
``Hit@l``, ``P@l``      ``[C(l) > 0]`` and ``C(l)/l``.
``R@l``                 recall ``C(l)/R`` (trec_eval ``recall_l``, ir_measures ``R@l``).
``O-measure(beta=1)``   ``BR(r1)`` at the first relevant rank ``r1`` (Sakai 2007, IPSJ TOD); 0 if
                        none. ``@l``: 0 unless ``r1 <= l``.
``P-measure(beta=1)``   ``BR(rp)`` at P+'s preferred rank ``rp`` (levels for level qrels).
``NCU(stop,util)``      survey Eq. (5), Sakai and Robertson 2008; NTCIREVAL's ``NCUgu,P``,
                        ``NCUgu,BR``, ``NCUrb,P``, ``NCUrb,BR`` (accepted as names).
                        ``sum_{rel r} P_S(r) NU(r)`` with ``NU = C(r)/r`` (``util=P``) or
                        ``BR(r)`` (``util=BR``, ``beta``). ``stop=gu``: ``P_S(r) = g(r)/cg*(R)``
                        (NTCIREVAL's stop values default to the gains; its ``-s`` is not
                        offered; ``gcompute`` does not print NCUgu, we do). ``stop=rb``:
                        ``P_S(r) = gamma^(C(r)-1) / sum_{i<R} gamma^i``, ``gamma = 0.95``.
                        Whole list only.
``GAP``, ``GAP@l``      graded AP of Robertson, Kanoulas and Yilmaz (2010) as NTCIREVAL ``-gap``
                        computes it: ``sum_{rel r<=l} (1/r) sum_{j<=r} m(m+1)``, ``m =
                        min(x(r), x(j))``, over ``sum_{i<=min(l,R)} x*(i)(x*(i)+1)``; ``x`` is
                        the relevance level for level qrels (``compute``: whatever the gains) and
                        the gain for a ``gain`` column (``gcompute``).
``bpref`` ...           the condensed-list family of Sakai (SIGIR 2007) exactly as NTCIREVAL
``rpref_relative2``     ``-j`` prints it, always on the judged documents only (``n(r)``: judged
                        non-relevant documents above a relevant rank ``r``, ``N``: judged
                        non-relevant in the qrels); each sums over the relevant retrieved ranks:
                        ``bpref``: ``1 - min(R, n(r))/min(R, N)`` over ``R``; ``bpref_R``: the
                        same over ``R`` instead of ``min(R, N)``; ``bpref_N``: ``1 - n(r)/N``;
                        ``bpref_relative``: ``1 - n(r)/(r-1)`` (0 at ``r = 1``, as NTCIREVAL);
                        the graded ``rpref_*`` weigh ``g(r)`` by one minus the penalty
                        ``sum_{j<r} max(0, g(r)-g(j))/g(r)`` divided by ``R + N - cg*(R)/gmax``
                        (``_N``), ``r - 1`` (``_relative``, 0 at ``r = 1``) or ``r``
                        (``_relative2``), over ``cg*(R)``. A topic with relevant but no judged
                        non-relevant document raises ``ValueError`` (NTCIREVAL refuses too).
``r1``, ``rp``          the ranks NTCIREVAL prints on its ``# r1= rp=`` line (0 if none).
=====================  =========================================================================


Cutoffs beyond a list's length behave as in NTCIREVAL: a list shorter than ``l`` is padded with
non-relevant documents (so ``P@l`` still divides by ``l``), and the ideal list stops at ``R``.
A measure name without a cutoff uses the whole list (NTCIREVAL reports ``AP``, ``Q``, ``P+``,
``RR``, ``RBP``, ``ERR`` and ``EBR`` this way).
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from .spec import (CONDENSED_ONLY, GAIN_TOTAL_LIMIT, MEASURES, PARAM_LIMIT, MeasureSpec, log_base,
                   parse_measures, unknown_message)
from .treceval.defs import TREC_FAMILIES, uses_trec_kernel

__all__ = ["evaluate_arrays", "geometric_sum", "row_sums"]

_DOMINANCE_ELEMENTS = 1 << 21  # elements (rows x columns x K) per chunk of _earlier_smaller's pairwise path


def row_sums(a: np.ndarray) -> np.ndarray:
    """Sums along the last axis, added from left to right. numpy's ``sum`` adds in pairs grouped by
    the row's length, so a list's score would depend on how wide the block it shares with other
    lists is (blocks of lists: :mod:`helpers.measures.ragged`); a running sum does not."""
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1])
    return np.cumsum(a, axis=-1)[..., -1]


def _earlier_smaller(xs: np.ndarray, valid: np.ndarray, ws: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Dominance counts over each row's relevant documents, given compacted: ``xs[:, k]`` is the
    value of the k-th relevant document retrieved (``valid`` marks real entries). Returns
    ``L[:, k] = #{j < k: xs[j] < xs[k]}`` and ``S[:, k] = sum of ws[j]`` over the same ``j``.

    The quadratic sums of GAP and rpref (NTCIREVAL loops over all pairs j <= i) reduce to these
    counts (non-relevant documents add closed-form terms). Either a cumulative count per distinct
    value (levels: few values) or a pairwise comparison (real-valued gains with many distinct
    values) is used, whichever is smaller, the latter in chunks of rows and columns. ``ws`` must be a
    function of ``xs`` (the per-value path relies on it).
    """
    n, K = xs.shape
    Lc = np.zeros((n, K))
    Sc = np.zeros((n, K))
    if K == 0 or not valid.any():
        return Lc, Sc
    ws = np.where(valid, ws, 0.0)
    uniq = np.unique(xs[valid])
    U = len(uniq)
    if U <= K:
        # one pass per distinct value v: earlier documents holding v count for later ones above v
        for v in uniq:
            at_v = (xs == v) & valid
            before = np.cumsum(at_v, axis=1) - at_v          # strictly earlier, holding v
            above = xs > v
            Lc += np.where(above, before, 0)
            Sc += np.where(above, before * ws[at_v][0], 0.0)   # ws is the same for every v
    else:  # chunks of rows and of columns k: memory stays bounded however long one list is
        kc = max(1, min(K, _DOMINANCE_ELEMENTS // K))
        step = max(1, _DOMINANCE_ELEMENTS // (kc * K))
        cols = np.arange(K)
        for c in range(0, K, kc):
            d = min(K, c + kc)
            earlier = cols[None, :d] < cols[c:d, None]          # j < k, for k in [c, d), j < d
            for a in range(0, n, step):
                b = min(n, a + step)
                less = (xs[a:b, None, :d] < xs[a:b, c:d, None]) & earlier & valid[a:b, None, :d]
                Lc[a:b, c:d] = less.sum(axis=2)
                Sc[a:b, c:d] = row_sums(less * ws[a:b, None, :d])
    return Lc, Sc


# ---------------------------------------------------------------------------------------------
# Array-level core
# ---------------------------------------------------------------------------------------------

_BLOCK_ELEMENTS = 1 << 18  # rows per block * depth: keeps the working arrays in cache


def _plain(x):
    """A numpy scalar as its Python value (``'a'``, not ``np.str_('a')``) for messages."""
    return x.item() if isinstance(x, np.generic) else x


def _as_2d(name: str, a, allow_nan: bool) -> np.ndarray:
    raw = a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object)
    kind = raw.dtype.kind
    bad = kind in "bUSVMmc" or (kind == "O" and any(
        isinstance(x, (bool, np.bool_, str, bytes, complex, np.complexfloating)) for x in raw.ravel()))
    if not bad and kind == "O":
        try:
            np.asarray(raw, dtype=float)
        except (TypeError, ValueError):
            bad = True
    if bad:
        flat = raw.ravel()
        i = next((i for i, x in enumerate(flat) if not isinstance(x, (int, float, np.integer, np.floating))
                  or isinstance(x, (bool, np.bool_))), 0)
        at = np.unravel_index(i, raw.shape) if raw.ndim else ()
        raise ValueError(f"{name} must be a 2-D array of real numbers (n_lists x ranks); got dtype "
                         f"{raw.dtype}" + (f", {name}[{', '.join(map(str, at))}] = {_plain(flat[i])!r}" if flat.size else ""))
    arr = np.asarray(a, dtype=float)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (n_lists, ranks), got shape {arr.shape}")
    if np.isinf(arr).any():
        i, j = np.argwhere(np.isinf(arr))[0]
        raise ValueError(f"{name}[{i}, {j}] is infinite; gains must be finite")
    if not allow_nan and np.isnan(arr).any():
        i, j = np.argwhere(np.isnan(arr))[0]
        raise ValueError(f"{name}[{i}, {j}] is NaN")
    with np.errstate(invalid="ignore"):
        neg = arr < 0
    if neg.any():
        i, j = np.argwhere(neg)[0]
        raise ValueError(f"{name}[{i}, {j}] = {arr[i, j]!r} is negative; gains must be >= 0")
    return arr


def _compact(gains: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Move the kept entries of each row to the front (order preserved), NaN after."""
    order = np.argsort(~keep, axis=1, kind="stable")
    out = np.take_along_axis(gains, order, axis=1)
    out[~np.take_along_axis(keep, order, axis=1)] = np.nan
    return out


def geometric_sum(p: float, l: int) -> float:
    """``sum_{r=1}^{l} p^r`` in closed form (the effort term of iRBU/RBU): O(1) whatever ``l``,
    so ``iRBU(e=0.01)@1000000000`` costs nothing; ``expm1`` keeps it accurate for p near 1."""
    p, l = float(p), int(l)
    if l <= 0:
        return 0.0
    if p == 1.0:
        return float(l)
    if p == 0.0:
        return 0.0
    return p * -math.expm1(l * math.log(p)) / (1.0 - p)


def _divisor_ms(n: int) -> np.ndarray:
    """``log2(r + 1)`` for r = 1..n: MSnDCG divides each gain by it (as trec_eval's ``ndcg_cut``
    does, so the quotients are trec_eval's to the last bit)."""
    return np.log2(np.arange(2, n + 2, dtype=float))


def _divisor_orig(n: int, b: float) -> np.ndarray:
    """NTCIREVAL's ``orig_dcglog`` divisor: 1 for r == 1 or r <= b, else ``log_b(r)``."""
    r = np.arange(1, n + 1, dtype=float)
    with np.errstate(divide="ignore"):
        logs = np.log(r) / math.log(b)
    return np.where((r == 1) | (r <= b), 1.0, logs)


class _Block:
    """Cumulative quantities of one block of lists, computed lazily and cached."""

    def __init__(self, g: np.ndarray, ideal: np.ndarray, gmax: np.ndarray,
                 pref: np.ndarray | None = None, *, grades: np.ndarray | None = None,
                 igrades: np.ndarray | None = None, n_nonrel: np.ndarray | None = None):
        self.grades = g if grades is None else grades        # what GAP compares (levels/gains)
        self.igrades = ideal if igrades is None else igrades  # the same for the ideal list
        self.n_nonrel = n_nonrel                              # N, for the condensed-list family
        self.g = g                      # (n, D) gains, 0 past the end of each list
        self.pref = g if pref is None else pref  # what P+'s preferred rank maximises
        self.ideal = ideal              # (n, K) ideal gains, sorted descending, 0-padded
        self.gmax = gmax                # (n,)
        self.n, self.D = g.shape
        self.K = ideal.shape[1]
        self.R = (ideal > 0).sum(axis=1)
        self.ranks = np.arange(1, self.D + 1, dtype=float)
        self._cache: dict = {}

    # -- helpers ------------------------------------------------------------------------------
    def col(self, cutoff: int | None) -> int:
        """Column of a cumulative (n, D) array holding the value at ``cutoff``."""
        return self.D - 1 if cutoff is None else min(cutoff, self.D) - 1

    def at(self, cum: np.ndarray, cutoff: int | None) -> np.ndarray:
        return cum[:, self.col(cutoff)]

    def ideal_at(self, cum: np.ndarray, cutoff: int | None) -> np.ndarray:
        if cum.shape[1] == 0:
            return np.zeros(self.n)
        j = cum.shape[1] - 1 if cutoff is None else min(cutoff, cum.shape[1]) - 1
        return cum[:, j]

    def cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    # -- shared quantities --------------------------------------------------------------------
    @cached_property
    def rel(self) -> np.ndarray:
        return self.g > 0

    @cached_property
    def C(self) -> np.ndarray:
        return np.cumsum(self.rel, axis=1, dtype=float)

    @cached_property
    def cg(self) -> np.ndarray:
        return np.cumsum(self.g, axis=1)

    @cached_property
    def icg_full(self) -> np.ndarray:
        return np.cumsum(self.ideal, axis=1)

    @cached_property
    def icg(self) -> np.ndarray:
        """cg*(r) for r = 1..D (constant past the ideal list's end)."""
        if self.K >= self.D:
            return self.icg_full[:, : self.D]
        out = np.empty((self.n, self.D))
        out[:, : self.K] = self.icg_full
        out[:, self.K:] = self.icg_full[:, -1:] if self.K else 0.0
        return out

    def br(self, beta: float) -> np.ndarray:
        return self.cached(("BR", beta), lambda: (self.C + beta * self.cg)
                           / (self.ranks + beta * self.icg))

    @cached_property
    def stop(self) -> np.ndarray:
        """ERR stop probability s(r) = g(r) / (gmax + 1)."""
        return self.g / (self.gmax[:, None] + 1.0)

    @cached_property
    def reach(self) -> np.ndarray:
        """prod_{i<r} (1 - s(i)): probability of reaching rank r."""
        out = np.empty_like(self.stop)
        out[:, 0] = 1.0
        np.cumprod(1.0 - self.stop[:, :-1], axis=1, out=out[:, 1:])
        return out

    @cached_property
    def first_rel(self) -> np.ndarray:
        """0-based index of the first relevant document, D if none."""
        has = self.rel.any(axis=1)
        return np.where(has, self.rel.argmax(axis=1), self.D)

    # -- measures: one method per family, chosen by _FAMILIES --------------------------------
    def measure(self, spec: MeasureSpec) -> np.ndarray:
        """Scores of every list of the block on one measure."""
        method = _FAMILIES.get(spec.name)
        if method is None:  # pragma: no cover - MeasureSpec.parse guards
            raise ValueError(unknown_message(spec.name, MEASURES))
        try:
            with np.errstate(over="raise"):
                return method(self, spec)
        except FloatingPointError:
            raise ValueError(
                f"{spec}: its parameters overflow double precision with these gains (products such "
                f"as beta * cumulative gain pass 1.8e308); use smaller parameter values "
                f"(parameters above {PARAM_LIMIT:g} are refused, and gains sum to at most "
                f"{GAIN_TOTAL_LIMIT:g})") from None

    def _ap_q_cum(self, spec: MeasureSpec) -> np.ndarray:
        """Prefix sums of AP's ``I(r) C(r)/r`` or Q's ``I(r) BR(r)`` (P+ shares Q's)."""
        if spec.name == "AP":
            return self.cached("APcum", lambda: np.cumsum(
                np.where(self.rel, self.C / self.ranks, 0.0), axis=1))
        beta = float(spec["beta"])
        return self.cached(("Qcum", beta), lambda: np.cumsum(
            np.where(self.rel, self.br(beta), 0.0), axis=1))

    def _ap_q(self, spec: MeasureSpec) -> np.ndarray:
        l, R = spec.cutoff, self.R.astype(float)
        den = R if (l is None or spec["norm"] == "R") else np.minimum(l, R)
        return self.at(self._ap_q_cum(spec), l) / den

    def _p_plus(self, spec: MeasureSpec) -> np.ndarray:
        l = spec.cutoff
        cum = self._ap_q_cum(spec)
        k = self.col(l) + 1
        top = np.where(self.rel[:, :k], self.pref[:, :k], -np.inf)
        best = top.max(axis=1)
        rp = (top == best[:, None]).argmax(axis=1)[:, None]
        best = np.where(self.rel[:, :k].any(axis=1), 1.0, 0.0)
        num = np.take_along_axis(cum, rp, axis=1)[:, 0]
        den = np.take_along_axis(self.C, rp, axis=1)[:, 0]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(best > 0, num / np.where(den > 0, den, 1.0), 0.0)

    def _rr(self, spec: MeasureSpec) -> np.ndarray:
        k = self.col(spec.cutoff) + 1
        fr = self.first_rel
        return np.where(fr < k, 1.0 / (fr + 1.0), 0.0)

    def _ndcg(self, spec: MeasureSpec) -> np.ndarray:
        if spec.name == "MSnDCG":
            key, div = "ms", _divisor_ms
        else:
            b = log_base(spec["b"])
            key, div = ("orig", b), (lambda n, b=b: _divisor_orig(n, b))
        cum = self.cached(("DCG", key), lambda: np.cumsum(self.g / div(self.D), axis=1))
        icum = self.cached(("IDCG", key), lambda: np.cumsum(self.ideal / div(self.K), axis=1))
        return self.at(cum, spec.cutoff) / self.ideal_at(icum, spec.cutoff)

    def _ng(self, spec: MeasureSpec) -> np.ndarray:
        return self.g[:, 0] / (self.ideal[:, 0] if self.K else np.zeros(self.n))

    def _ncg(self, spec: MeasureSpec) -> np.ndarray:
        return self.at(self.cg, spec.cutoff) / self.ideal_at(self.icg_full, spec.cutoff)

    def _ideal_err_cum(self) -> np.ndarray:
        s = self.ideal / (self.gmax[:, None] + 1.0)
        reach = np.ones_like(s)
        if self.K > 1:
            np.cumprod(1.0 - s[:, :-1], axis=1, out=reach[:, 1:])
        return np.cumsum(s * reach / np.arange(1, self.K + 1), axis=1)

    def _err(self, spec: MeasureSpec) -> np.ndarray:
        l = spec.cutoff
        cum = self.cached("ERRcum", lambda: np.cumsum(self.stop * self.reach / self.ranks, axis=1))
        err = self.at(cum, l)
        if spec.name == "ERR":
            return err
        return err / self.ideal_at(self.cached("IERRcum", self._ideal_err_cum), l)

    def _rbp(self, spec: MeasureSpec) -> np.ndarray:
        p = float(spec["p"])
        cum = self.cached(("RBPcum", p), lambda: np.cumsum(self.g * p ** (self.ranks - 1.0), axis=1))
        return (1.0 - p) * self.at(cum, spec.cutoff) / self.gmax

    def _ebr(self, spec: MeasureSpec) -> np.ndarray:
        beta = float(spec["beta"])
        cum = self.cached(("EBRcum", beta), lambda: np.cumsum(
            self.br(beta) * self.reach * self.stop, axis=1))
        return self.at(cum, spec.cutoff)

    def _irbu(self, spec: MeasureSpec) -> np.ndarray:
        l = spec.cutoff
        p, e = float(spec["p"]), float(spec["e"])
        cum = self.cached(("iRBUcum", p), lambda: np.cumsum(p ** self.ranks * self.reach * self.stop, axis=1))
        value = self.at(cum, l)
        if e:
            value = value - e * geometric_sum(p, l)
        return value

    def _hit(self, spec: MeasureSpec) -> np.ndarray:
        return (self.at(self.C, spec.cutoff) > 0).astype(float)

    def _precision(self, spec: MeasureSpec) -> np.ndarray:
        return self.at(self.C, spec.cutoff) / spec.cutoff

    def _recall(self, spec: MeasureSpec) -> np.ndarray:
        return self.at(self.C, spec.cutoff) / self.R.astype(float)

    # -- the rest of NTCIREVAL's output: definitions in the module docstring, the loops of
    # -- ntcir_eval.c transcribed in tests/_ntcireval_port.py ---------------------------------
    def _first_or_preferred(self, spec: MeasureSpec) -> np.ndarray:
        """O-measure and r1 (the first relevant rank r1), P-measure and rp (P+'s preferred rank)."""
        name, rows = spec.name, np.arange(self.n)
        k = self.col(spec.cutoff) + 1
        if name in ("O-measure", "r1"):   # BR at r1, the first relevant rank
            r = np.minimum(self.first_rel, self.D - 1)
            has = self.first_rel < k
        else:                             # BR at rp, P+'s preferred rank
            top = np.where(self.rel[:, :k], self.pref[:, :k], -np.inf)
            r = (top == top.max(axis=1)[:, None]).argmax(axis=1)
            has = self.rel[:, :k].any(axis=1)
        if name in ("r1", "rp"):
            return np.where(has, r + 1.0, 0.0)
        return np.where(has, self.br(float(spec["beta"]))[rows, r], 0.0)

    def _ncu(self, spec: MeasureSpec) -> np.ndarray:
        # only the relevant ranks matter: work on them, compacted (see relc)
        pos, valid, kk = self.relc
        rank, count = pos + 1.0, kk + 1.0      # rank r of the k-th relevant document, C(r) there
        R = self.R.astype(float)
        if spec["util"] == "P":
            util = count / rank
        else:
            util = self.gather(self.br(float(spec["beta"])))
        if spec["stop"] == "gu":
            # graded-uniform stopping: P_S(r) proportional to the stop value of the document at
            # r, which NTCIREVAL takes equal to its gain unless '-s' says otherwise
            weight = self.gather(self.g)
            den = self.icg_full[:, -1] if self.K else np.zeros(self.n)
        else:
            # rank-biased stopping: the k-th relevant document retrieved gets gamma^(k-1)
            gamma = float(spec["gamma"])
            weight = gamma ** kk
            den = R if gamma == 1.0 else (1.0 - gamma ** R) / (1.0 - gamma)
        return row_sums(np.where(valid, util * weight, 0.0)) / den

    def _gap_numerator(self) -> np.ndarray:
        pos, valid, kk = self.relc
        rank, count = pos + 1.0, kk + 1.0
        x = self.gather(self.grades)
        f = x * (x + 1.0)
        less, wsum = _earlier_smaller(x, valid, f)
        # sum_{j<=r} m(m+1), m = min(x_r, x_j): x_r(x_r+1) for each j<=r with x_j >= x_r,
        # x_j(x_j+1) for the others (non-relevant j contribute 0)
        gsum = f * (count - less) + wsum
        return np.cumsum(np.where(valid, gsum / rank, 0.0), axis=1)

    def _gap(self, spec: MeasureSpec) -> np.ndarray:
        l, rows = spec.cutoff, np.arange(self.n)
        cum = self.cached("GAPcum", self._gap_numerator)
        icum = self.cached("GAPicum", lambda: np.cumsum(self.igrades * (self.igrades + 1.0), axis=1))
        c = self.at(self.C, l).astype(np.int64)   # relevant documents in the top l
        num = np.where(c > 0, cum[rows, np.maximum(c - 1, 0)], 0.0) if cum.shape[1] else 0.0
        return num / self.ideal_at(icum, l)

    def _bpref(self, spec: MeasureSpec) -> np.ndarray:
        """bpref, bpref_R, bpref_N, bpref_relative (the block holds condensed lists)."""
        name = spec.name
        pos, valid, kk = self.relc
        rank, count = pos + 1.0, kk + 1.0
        R, N = self.R.astype(float), np.asarray(self.n_nonrel, dtype=float)
        nonrel_before = rank - count           # judged non-relevant documents above rank r
        if name in ("bpref", "bpref_R"):
            mini = np.minimum(R[:, None], nonrel_before)
            den = np.where(R > N, N, R) if name == "bpref" else R
            term = 1.0 - mini / den[:, None]
        elif name == "bpref_N":
            term = 1.0 - nonrel_before / N[:, None]
        else:   # NTCIREVAL scores a relevant document at rank 1 as 0 here (no rank above it)
            term = np.where(rank > 1, 1.0 - nonrel_before / (rank - 1.0), 0.0)
        return row_sums(np.where(valid, term, 0.0)) / R

    def _rpref_penalty(self) -> np.ndarray:
        # sum_{j<r} max(0, g(r) - g(j)) / g(r) = #{j<r: g(j)<g(r)} - sum_{those j} g(j) / g(r)
        pos, valid, kk = self.relc
        nonrel_before = (pos + 1.0) - (kk + 1.0)
        gr = self.gather(self.g)
        less, gsum = _earlier_smaller(gr, valid, gr)
        return nonrel_before + less - gsum / np.where(valid, gr, 1.0)

    def _rpref(self, spec: MeasureSpec) -> np.ndarray:
        """rpref_N, rpref_relative, rpref_relative2 (the block holds condensed lists)."""
        pos, valid, _ = self.relc
        rank = pos + 1.0
        R, N = self.R.astype(float), np.asarray(self.n_nonrel, dtype=float)
        pen = self.cached("rpref_penalty", self._rpref_penalty)
        gr = self.gather(self.g)
        cg_star = self.icg_full[:, -1] if self.K else np.zeros(self.n)
        if spec.name == "rpref_N":
            term = 1.0 - pen / (R + N - cg_star / self.gmax)[:, None]
        elif spec.name == "rpref_relative":
            term = np.where(rank > 1, 1.0 - pen / (rank - 1.0), 0.0)
        else:
            term = 1.0 - pen / rank
        return row_sums(np.where(valid, gr * term, 0.0)) / cg_star

    @cached_property
    def relc(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The relevant ranks of each list, compacted: ``pos[:, k]`` is the 0-based rank of the
        k-th relevant document (0 padding), ``valid`` marks real entries, ``kk`` is k as float."""
        rows, cols = np.nonzero(self.rel)
        k = self.C[rows, cols].astype(np.int64) - 1
        width = int(k.max()) + 1 if len(k) else 1
        pos = np.zeros((self.n, width), dtype=np.int64)
        pos[rows, k] = cols
        valid = np.arange(width)[None, :] < self.C[:, -1:]
        return pos, valid, np.broadcast_to(np.arange(width, dtype=float), (self.n, width))

    def gather(self, arr: np.ndarray) -> np.ndarray:
        """Values of an (n, D) array at the compacted relevant ranks (garbage where not valid)."""
        return np.take_along_axis(arr, self.relc[0], axis=1)


#: Measure family -> the :class:`_Block` method that scores it.
_FAMILIES = {
    "AP": _Block._ap_q, "Q": _Block._ap_q, "P+": _Block._p_plus, "RR": _Block._rr,
    "MSnDCG": _Block._ndcg, "nDCG": _Block._ndcg, "nG": _Block._ng, "nCG": _Block._ncg,
    "ERR": _Block._err, "nERR": _Block._err, "RBP": _Block._rbp, "EBR": _Block._ebr,
    "iRBU": _Block._irbu, "Hit": _Block._hit, "P": _Block._precision, "R": _Block._recall,
    "O-measure": _Block._first_or_preferred, "P-measure": _Block._first_or_preferred,
    "r1": _Block._first_or_preferred, "rp": _Block._first_or_preferred,
    "NCU": _Block._ncu, "GAP": _Block._gap,
    "bpref": _Block._bpref, "bpref_R": _Block._bpref, "bpref_N": _Block._bpref,
    "bpref_relative": _Block._bpref,
    "rpref_N": _Block._rpref, "rpref_relative": _Block._rpref, "rpref_relative2": _Block._rpref,
}
assert set(_FAMILIES) == set(MEASURES) - {f.name for f in TREC_FAMILIES}, "every registered measure needs a kernel"

def evaluate_arrays(ranked_gains, ideal_gains, measures, *, gmax=None,
                    ranked_judged=None, preference=None, grades=None, ideal_grades=None,
                    n_nonrel=None) -> dict[str, np.ndarray]:
    """Score many ranked lists given their gains: the engine behind :func:`evaluate`.

    Parameters
    ----------
    ranked_gains : array_like, shape (n_lists, depth)
        Gain of the document at each rank, list by list; 0 for judged non-relevant *and* for
        unjudged documents; ``NaN`` pads each list past its end (NaN is only allowed as a suffix,
        so an all-NaN row is an empty list). A 1-D array is one list. Gains must be finite and
        >= 0. Gains may depend on the rank (DIN-measures): nothing is looked up here.
    ideal_gains : array_like, shape (n_lists, k)
        Gains of all judged relevant items of each list's topic (the ideal list). Need not be
        sorted (it is sorted in decreasing order here); zeros or NaN pad rows to a common ``k``.
        ``R`` is the number of positive entries. Rows with ``R = 0`` give NaN for every measure.
    measures : str, MeasureSpec or iterable of them
        Names as in :data:`MEASURES`, e.g. ``["AP", "Q@10", "nERR@10"]``.
    gmax : float or array_like of shape (n_lists,), optional
        Highest gain, used by ERR, nERR, RBP, EBR and iRBU (stop probability ``g/(gmax+1)``,
        RBP normalisation). Default: the highest ideal gain of each row, as NTCIREVAL
        ``gcompute`` does. Pass the top of the gain scale for NTCIREVAL ``compute`` semantics.
    ranked_judged : array_like of bool, shape (n_lists, depth), optional
        If given, entries marked False (unjudged documents) are *removed* before ranks are
        counted: NTCIREVAL's condensed lists (``-j``; Sakai 2007). Leave it out to treat
        unjudged documents as non-relevant.
    preference : array_like, shape (n_lists, depth), optional
        Values whose maximum over the relevant retrieved documents defines P+'s preferred rank
        (the first rank holding it). Default: the gains (NTCIREVAL ``gcompute``). NTCIREVAL
        ``compute`` uses relevance levels, which differs only when two levels share a gain;
        :func:`evaluate` passes the levels then.
    grades, ideal_grades : array_like, optional
        What GAP compares, shaped like ``ranked_gains`` and ``ideal_gains``: NTCIREVAL
        ``compute -gap`` uses relevance levels, ``gcompute -gap`` the gains (the default).
        ``ideal_grades`` is sorted in decreasing order here.
    n_nonrel : array_like of int, shape (n_lists,), optional
        Number ``N`` of judged non-relevant documents of each list's topic; required by the
        condensed-list family (``bpref`` ... ``rpref_relative2``), which takes ``ranked_gains``
        as the condensed list (judged documents only; pass ``ranked_judged`` to condense).
        A list with relevant items and ``N = 0`` raises ``ValueError`` (NTCIREVAL: "no judged
        nonrel: bpref etc. not computable").

    Returns
    -------
    dict of str to numpy.ndarray
        One float array of shape (n_lists,) per measure, keyed by the canonical label
        (``str(MeasureSpec)``), in the order requested.

    Notes
    -----
    Every measure is a gather from prefix sums over ranks computed once per block of lists
    (O(n_lists x depth) memory per block, O(depth) work per list and measure family; only the
    ideal lists are sorted). See the module docstring for the definitions and cutoff rules.

    Raises
    ------
    ValueError
        For arrays of the wrong dimension or inconsistent shapes, negative or infinite gains,
        NaN in the middle of a list, a non-positive ``gmax`` for a list with relevant items, a
        gain above ``gmax + 1`` when an ERR-type measure is asked for, or an unknown measure
        name.
    """
    specs = parse_measures(measures)
    trec_only = [str(s) for s in specs if uses_trec_kernel(s.name)]
    if trec_only:
        raise ValueError(f"{trec_only[0]}: a trec_eval measure, computed from trec_eval's relevance values "
                         "(judged level, not in the qrels, pooled but unjudged), which gains cannot tell "
                         "apart; use evaluate() or helpers.measures.treceval.kernels.evaluate_levels")
    with_rel = [str(s) for s in specs if s.rel is not None]
    if with_rel:
        raise ValueError(f"{with_rel[0]}: rel= thresholds relevance levels, and evaluate_arrays only "
                         "sees gains; zero the gains below the threshold yourself, or use evaluate()")
    g, ideal, preference, grades, ideal_grades = _checked_arrays(ranked_gains, ideal_gains, preference,
                                                                 grades, ideal_grades)
    n = g.shape[0]
    if ranked_judged is not None:
        g, preference, grades = _condensed(g, ranked_judged, preference, grades)
    g = _unpadded(g)
    ideal, R, gm = _ideal_and_gmax(ideal, gmax, n)
    if any(sp.name in ("ERR", "nERR", "EBR", "iRBU") for sp in specs):
        over = (g > gm[:, None] + 1.0) & (R > 0)[:, None]
        if over.any():
            i, j = np.argwhere(over)[0]
            raise ValueError(f"ranked_gains[{i}, {j}] = {g[i, j]!r} exceeds gmax + 1 = "
                             f"{gm[i] + 1!r}: ERR's stop probability g/(gmax+1) would exceed 1")
    # Trim columns no measure needs: if every measure has a cutoff, ranks past the largest one
    # never matter.
    cutoffs = [s.cutoff for s in specs]
    depth = g.shape[1]
    if all(c is not None for c in cutoffs):
        depth = max(1, min(depth, max(cutoffs)))
        g = g[:, :depth]
    pref, grd, igrd = _aligned_extras(g, preference, grades, ideal_grades)
    nonrel = None
    if any(s.name in CONDENSED_ONLY for s in specs):
        nonrel = _nonrel_counts(n_nonrel, n, R)
    out = {str(s): np.empty(n) for s in specs}
    rows = max(1, _BLOCK_ELEMENTS // max(depth, ideal.shape[1], 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        for start in range(0, n, rows):
            sl = slice(start, min(n, start + rows))
            block = _Block(g[sl], ideal[sl], gm[sl], None if pref is None else pref[sl],
                           grades=None if grd is None else grd[sl],
                           igrades=None if igrd is None else igrd[sl],
                           n_nonrel=None if nonrel is None else nonrel[sl])
            for s in specs:
                out[str(s)][sl] = block.measure(s)
    for v in out.values():
        v[R == 0] = np.nan
    return out


def _checked_arrays(ranked_gains, ideal_gains, preference, grades, ideal_grades):
    """The input arrays as 2-D floats, with their shapes checked against ``ranked_gains``."""
    g = _as_2d("ranked_gains", ranked_gains, allow_nan=True)
    ideal = _as_2d("ideal_gains", ideal_gains, allow_nan=True)
    n = g.shape[0]
    if ideal.shape[0] != n:
        raise ValueError(f"ranked_gains has {n} lists but ideal_gains has {ideal.shape[0]} rows")
    if preference is not None:
        preference = _as_2d("preference", preference, allow_nan=True)
        if preference.shape != g.shape:
            raise ValueError(f"preference has shape {preference.shape}, ranked_gains {g.shape}")
    if (grades is None) != (ideal_grades is None):
        raise ValueError("grades and ideal_grades go together: pass both (e.g. relevance levels "
                         "for NTCIREVAL compute's GAP) or neither (GAP on the gains)")
    if grades is not None:
        grades = _as_2d("grades", grades, allow_nan=True)
        if grades.shape != g.shape:
            raise ValueError(f"grades has shape {grades.shape}, ranked_gains {g.shape}")
        ideal_grades = _as_2d("ideal_grades", ideal_grades, allow_nan=True)
        if ideal_grades.shape[0] != n:
            raise ValueError(f"ranked_gains has {n} lists but ideal_grades has "
                             f"{ideal_grades.shape[0]} rows")
    _refuse_overflowing_sums(g, "ranked_gains")
    _refuse_overflowing_sums(ideal, "ideal_gains")
    return g, ideal, preference, grades, ideal_grades


def _refuse_overflowing_sums(x: np.ndarray, what: str) -> None:
    """Refuse a list whose gains sum past :data:`GAIN_TOTAL_LIMIT` (the sums would overflow to
    inf and the measures be NaN with only a numpy warning), naming the list."""
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.nansum(np.abs(x), axis=1) if x.size else np.zeros(x.shape[0])
    over = np.flatnonzero(total > GAIN_TOTAL_LIMIT)
    if len(over):
        i = int(over[0])
        raise ValueError(f"{what}[{i}] (list {i}) has gains summing to more than {GAIN_TOTAL_LIMIT:g} "
                         f"(largest {float(np.nanmax(np.abs(x[i]))):g}): the sums of gains would overflow; "
                         "normalised measures do not depend on the gains' scale, so divide every gain by the same factor")


def _condensed(g: np.ndarray, ranked_judged, preference, grades):
    """NTCIREVAL's condensed lists: unjudged entries removed before ranks are counted."""
    judged = np.asarray(ranked_judged)
    if judged.ndim == 1:
        judged = judged[None, :]
    if judged.shape != g.shape:
        raise ValueError(f"ranked_judged has shape {judged.shape}, ranked_gains {g.shape}")
    if judged.dtype != bool:
        raise ValueError(f"ranked_judged must be a boolean array, got dtype {judged.dtype}")
    keep = judged & ~np.isnan(g)
    g = _compact(g, keep)
    if preference is not None:
        preference = _compact(preference, keep)
    if grades is not None:
        grades = _compact(grades, keep)
    return g, preference, grades


def _unpadded(g: np.ndarray) -> np.ndarray:
    """Gains with the NaN that pads each list's end turned into 0 (NaN only as a suffix)."""
    nan = np.isnan(g)
    if nan.any():
        # NaN may only pad the end of a list: once NaN, NaN for the rest of the row.
        bad = nan[:, :-1] & ~nan[:, 1:]
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(f"ranked_gains[{i}, {j}] is NaN but rank {j + 2} of list {i} is not: "
                             "NaN may only pad the end of a list")
        g = np.where(nan, 0.0, g)
    if g.shape[1] == 0:
        g = np.zeros((g.shape[0], 1))
    return g


def _ideal_and_gmax(ideal: np.ndarray, gmax, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ideal gains sorted descending without all-zero trailing columns, ``R`` and ``gmax`` per list."""
    ideal = -np.sort(-np.nan_to_num(ideal, nan=0.0), axis=1)
    # drop all-zero trailing columns of the ideal matrix
    k = int((ideal > 0).sum(axis=1).max()) if n and ideal.size else 0
    ideal = ideal[:, :k]
    R = (ideal > 0).sum(axis=1)
    if gmax is None:
        gm = ideal[:, 0].copy() if k else np.zeros(n)
    else:
        gm = np.broadcast_to(np.asarray(gmax, dtype=float), (n,)).copy()
        if not np.isfinite(gm).all():
            raise ValueError("gmax must be finite")
        bad = (gm <= 0) & (R > 0)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"gmax must be > 0 for lists with relevant items; list {i} has gmax {gm[i]!r}")
    gm[R == 0] = 1.0  # placeholder; those rows become NaN
    return ideal, R, gm


def _aligned_extras(g: np.ndarray, preference, grades, ideal_grades):
    """P+'s preference values and GAP's grades cut or padded to the (trimmed) gain matrix."""
    pref = grd = igrd = None
    if preference is not None:
        pref = np.zeros(g.shape)
        w = min(g.shape[1], preference.shape[1])
        pref[:, :w] = np.nan_to_num(preference[:, :w], nan=0.0)
    if grades is not None:
        grd = np.zeros(g.shape)
        w = min(g.shape[1], grades.shape[1])
        grd[:, :w] = np.where(g[:, :w] > 0, np.nan_to_num(grades[:, :w], nan=0.0), 0.0)
        igrd = -np.sort(-np.nan_to_num(ideal_grades, nan=0.0), axis=1)
    return pref, grd, igrd


def _nonrel_counts(n_nonrel, n: int, R: np.ndarray) -> np.ndarray:
    """``N`` per list for the condensed-list family, checked (NTCIREVAL refuses ``N = 0``)."""
    if n_nonrel is None:
        raise ValueError("the condensed-list measures (bpref ... rpref_relative2) need n_nonrel, "
                         "the number of judged non-relevant documents of each list's topic")
    nonrel = np.broadcast_to(np.asarray(n_nonrel, dtype=float), (n,)).copy()
    if not np.isfinite(nonrel).all() or (nonrel < 0).any():
        raise ValueError("n_nonrel must hold counts >= 0")
    bad = (nonrel == 0) & (R > 0)
    if bad.any():
        raise ValueError(f"list {int(np.argmax(bad))} has no judged non-relevant document (N = 0): "
                         "bpref and the other condensed-list measures are undefined (NTCIREVAL: "
                         "'no judged nonrel: bpref etc. not computable')")
    return nonrel
