"""Ranked lists of different lengths scored in memory proportional to their rows.

:func:`helpers.measures.kernels.evaluate_arrays` scores a dense ``(n_lists, depth)`` matrix of
gains padded to the longest list, beside a ``(n_lists, k)`` matrix of ideal gains padded to the
largest number of relevant documents. One 50,000-document list among 20,000 one-document lists
would make that 20,001 x 50,000 cells (8 GB) for 70,000 rows. So when one dense block would hold
many more cells than the rows it stores, the lists are grouped by length and by the size of their
ideal list (powers of two: a block's lists are at most twice as long as its shortest ones) and each
block is scored on its own (:func:`blocks`); ideal lists are kept end to end per topic
(:class:`Ragged`) and only made dense for the lists of a block. Every measure scores a list from
that list's row alone, so the values do not depend on the grouping (``tests/test_ragged.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

__all__ = ["Ragged", "blocks", "size_level", "DENSE_FACTOR", "DENSE_SLACK_CELLS"]

#: One dense block is used while it holds at most DENSE_FACTOR x the stored cells plus
#: DENSE_SLACK_CELLS (the usual case: lists of similar lengths, scored exactly as before).
DENSE_FACTOR = 4
DENSE_SLACK_CELLS = 1 << 20


@dataclass
class Ragged:
    """Rows of different lengths stored end to end: row ``i`` is ``values[start[i]:start[i] + length[i]]``."""

    values: np.ndarray
    start: np.ndarray
    length: np.ndarray

    @classmethod
    def sorted_by_row(cls, row: np.ndarray, values: np.ndarray, n_rows: int) -> "Ragged":
        """The positive ``values`` of each row, sorted in decreasing order (an ideal list per topic)."""
        keep = values > 0
        row, values = row[keep], values[keep]
        order = np.lexsort((-values, row))
        length = np.bincount(row, minlength=n_rows).astype(np.int64)
        start = np.zeros(n_rows, dtype=np.int64)
        np.cumsum(length[:-1], out=start[1:])
        return cls(values[order].astype(float), start, length)

    def first(self) -> np.ndarray:
        """The first (largest) value of every row, 0 for empty rows."""
        out = np.zeros(len(self.length))
        has = self.length > 0
        out[has] = self.values[self.start[has]]
        return out

    def dense(self, rows: np.ndarray, width: int | None = None) -> np.ndarray:
        """The given rows as a zero-padded ``(len(rows), width)`` matrix (width: their longest, >= 1)."""
        length = self.length[rows]
        if width is None:
            width = int(length.max()) if len(length) else 0
        out = np.zeros((len(rows), max(width, 1)))
        n = np.minimum(length, width)
        total = int(n.sum())
        if total:
            which = np.repeat(np.arange(len(rows)), n)
            col = np.arange(total) - np.repeat(np.cumsum(n) - n, n)
            out[which, col] = self.values[np.repeat(self.start[rows], n) + col]
        return out


def size_level(x: np.ndarray) -> np.ndarray:
    """ceil(log2(x)) for x >= 1, 0 for x <= 1: lists within one level differ at most twofold."""
    return np.ceil(np.log2(np.maximum(x, 1))).astype(np.int64)


def blocks(list_id: np.ndarray, n_lists: int, ideal_length: np.ndarray
           ) -> Iterator[tuple["np.ndarray | slice", "np.ndarray | slice", np.ndarray, int]]:
    """Blocks of lists whose dense matrices stay proportional to their rows.

    Parameters
    ----------
    list_id : numpy.ndarray
        The list of every row (rows grouped by list, positions already known).
    n_lists : int
        Number of lists (lists without a row are empty lists).
    ideal_length : numpy.ndarray
        Length of each list's ideal list (``R`` of its topic).

    Yields
    ------
    lists : slice or numpy.ndarray
        The lists of the block (all of them as ``slice(None)`` when one block is cheap enough).
    rows : slice or numpy.ndarray
        The rows of those lists, in their original order.
    local : numpy.ndarray
        For each of those rows, its list's index within the block.
    width : int
        The block's longest list (>= 1).
    """
    length = np.bincount(list_id, minlength=n_lists)
    longest = int(length.max()) if n_lists else 0
    filled = len(list_id) + int(ideal_length.sum()) + n_lists
    if n_lists * (max(longest, 1) + int(ideal_length.max(initial=0))) <= DENSE_FACTOR * filled + DENSE_SLACK_CELLS:
        yield slice(None), slice(None), list_id, max(longest, 1)
        return
    key = size_level(length) * 64 + size_level(ideal_length)
    groups, group = np.unique(key, return_inverse=True)
    group = group.reshape(-1)
    by_group = np.argsort(group, kind="stable")
    list_bounds = np.searchsorted(group[by_group], np.arange(len(groups) + 1))
    local_of_list = np.empty(n_lists, dtype=np.int64)
    local_of_list[by_group] = np.arange(n_lists) - np.repeat(list_bounds[:-1], np.diff(list_bounds))
    row_group = group[list_id]
    rows_by_group = np.argsort(row_group, kind="stable")
    row_bounds = np.searchsorted(row_group[rows_by_group], np.arange(len(groups) + 1))
    for g in range(len(groups)):
        lists = by_group[list_bounds[g]:list_bounds[g + 1]]
        rows = rows_by_group[row_bounds[g]:row_bounds[g + 1]]
        yield lists, rows, local_of_list[list_id[rows]], max(int(length[lists].max()), 1)
