"""Spot Colour's own kernel: the exhaustive search of a disc set's solutions (centre,
then satellites spot by spot, each checked against its neighbour as it is placed)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

MAX_SOLUTIONS = 5040


@njit(cache=True, inline="always")
def _neighbours(colours, left, right):
    for disc in range(7):
        for position in range(6):
            colour = colours[disc, position]
            left[disc, colour] = colours[disc, (position + 5) % 6]
            right[disc, colour] = colours[disc, (position + 1) % 6]


@njit("int64(int8[:, ::1], int64[:, ::1], boolean)", cache=True, nogil=True)
def _solve(colours, found, record):
    """Write (centre, satellite at spot 0..5) rows into ``found`` (with ``record``; else
    only count them); return how many.  Spot k of the centre is its k-th colour
    clockwise.  Compiled for its one signature when the table's build imports this
    module, so a first solve on the command line or the page starts at once."""
    left = np.empty((7, 6), np.int8)
    right = np.empty((7, 6), np.int8)
    _neighbours(colours, left, right)
    count = 0
    choice = np.empty(6, np.int64)
    used = np.zeros(7, np.bool_)
    for centre in range(7):
        used[:] = False
        used[centre] = True
        depth = 0
        choice[0] = -1
        while depth >= 0:
            if choice[depth] >= 0:
                used[choice[depth]] = False  # undo the choice this depth made last time
            choice[depth] += 1
            while choice[depth] < 7:
                disc = choice[depth]
                colour = colours[centre, depth]
                fits = not used[disc]
                if fits and depth > 0:
                    before = choice[depth - 1]
                    fits = right[disc, colour] == left[before, colours[centre, depth - 1]]
                if fits and depth == 5:
                    fits = right[choice[0], colours[centre, 0]] == left[disc, colour]
                if fits:
                    break
                choice[depth] += 1
            if choice[depth] >= 7:
                choice[depth] = -1
                depth -= 1
                continue
            if depth == 5:
                if record:
                    found[count, 0] = centre
                    found[count, 1:] = choice
                count += 1
                continue
            used[choice[depth]] = True
            depth += 1
            choice[depth] = -1
    return count


def solve(colours: np.ndarray) -> np.ndarray:
    """All solutions of one set: rows (centre, disc at centre spot 0, ..., spot 5)."""
    found = np.empty((MAX_SOLUTIONS, 7), np.int64)
    count = _solve(np.ascontiguousarray(colours, dtype=np.int8), found, True)
    return found[:count].copy()


@njit(cache=True, nogil=True, parallel=True)
def _count_many(sets, counts):
    found = np.empty((1, 7), np.int64)
    for index in prange(sets.shape[0]):
        counts[index] = _solve(sets[index], found, False)


def count_solutions(sets: np.ndarray) -> np.ndarray:
    """Number of solutions of each of many sets ((N, 7, 6) colour indices)."""
    counts = np.zeros(len(sets), np.int64)
    _count_many(np.ascontiguousarray(sets, dtype=np.int8), counts)
    return counts
