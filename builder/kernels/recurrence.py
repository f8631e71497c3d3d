"""`builder verify`'s whole pass: the shortest-path recurrence checked at every entry of a
table, for dense breadth-first arrays and sparse keyed tables, by the plug-in's own move
functions (the types of ``builder.kernels.graph_bfs``).

At each entry: 0 exactly at a source (a target), else 1 + the least value one move on, or
"never" where no move leads to a position that reaches the target.  A sample of entries
misses a forgery that keeps the distance histogram (two values swapped, checksums
recomputed); a pass over every entry does not.  Each kernel returns the first entry that
breaks the recurrence (-1: none), and what it found there, over a range of entries:
``in_parts`` runs the ranges on every core (the kernels release the GIL).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from builder.kernels.graph_bfs import NEIGHBOURS, WIDE_MOVES

UNHELD = -2
"""What a sparse kernel reports as an entry's expected value when one of its moves leads
to a key the table does not hold, in a table that must hold every move's key."""


@njit(types.int64[::1](NEIGHBOURS, types.int64[::1], types.uint16[::1], types.boolean[::1],
                       types.int64, types.int64, types.int64, types.int64),
      cache=True, nogil=True)
def first_broken_dense(moves, parameters, distance, is_source, never, most, start, stop):
    """(state, expected) of the first state of ``start .. stop - 1`` whose value breaks
    the recurrence under ``moves`` (the states one move after a state), or (-1, 0)."""
    found = np.empty(most, np.int64)
    for state in range(start, stop):
        if is_source[state]:
            expected = 0
        else:
            best = never
            for i in range(moves(state, parameters, found)):
                value = np.int64(distance[found[i]])
                best = min(best, value)
            expected = never if best == never else best + 1
        if np.int64(distance[state]) != expected:
            return np.array([state, expected], np.int64)
    return np.array([-1, 0], np.int64)


@njit(types.int64[::1](NEIGHBOURS, types.int64[::1], types.int64[::1], types.uint16[::1],
                       types.boolean[::1], types.int64, types.int64, types.boolean,
                       types.int64, types.int64), cache=True, nogil=True)
def first_broken_sparse(moves, parameters, keys, distance, is_target, never, most,
                        closed, start, stop):
    """(index, expected) of the first of keys ``start .. stop - 1`` (of the ascending
    one-word ``keys``) whose distance breaks the recurrence under ``moves``, or (-1, 0);
    expected is ``UNHELD`` where the table is ``closed`` (it holds every key its starts
    reach) and a move leads out of it."""
    found = np.empty(most, np.int64)
    count = len(keys)
    for index in range(start, stop):
        if is_target[index]:
            expected = 0
        else:
            best = never
            for i in range(moves(keys[index], parameters, found)):
                at = np.searchsorted(keys, found[i])
                if at < count and keys[at] == found[i]:
                    value = np.int64(distance[at])
                    best = min(best, value)
                elif closed:
                    return np.array([index, UNHELD], np.int64)
            expected = never if best == never else best + 1
        if np.int64(distance[index]) != expected:
            return np.array([index, expected], np.int64)
    return np.array([-1, 0], np.int64)


@njit(cache=True, nogil=True)
def _find_wide(keys, key):
    """Where two-word ``key`` is among ascending rows ``keys`` (-1: not held)."""
    low, high = 0, len(keys)
    while low < high:
        middle = (low + high) // 2
        if keys[middle, 0] < key[0] or (keys[middle, 0] == key[0] and keys[middle, 1] < key[1]):
            low = middle + 1
        else:
            high = middle
    if low < len(keys) and keys[low, 0] == key[0] and keys[low, 1] == key[1]:
        return low
    return -1


@njit(types.int64[::1](WIDE_MOVES, types.int64[::1], types.uint64[:, ::1], types.uint16[::1],
                       types.boolean[::1], types.int64, types.int64, types.boolean,
                       types.int64, types.int64), cache=True, nogil=True)
def first_broken_sparse_wide(moves, parameters, keys, distance, is_target, never, most,
                             closed, start, stop):
    """``first_broken_sparse`` on two-word keys (rows of high and low word, ascending)."""
    found = np.empty((most, 2), np.uint64)
    for index in range(start, stop):
        if is_target[index]:
            expected = 0
        else:
            best = never
            for i in range(moves(keys[index], parameters, found)):
                at = _find_wide(keys, found[i])
                if at >= 0:
                    value = np.int64(distance[at])
                    best = min(best, value)
                elif closed:
                    return np.array([index, UNHELD], np.int64)
            expected = never if best == never else best + 1
        if np.int64(distance[index]) != expected:
            return np.array([index, expected], np.int64)
    return np.array([-1, 0], np.int64)


def in_parts(kernel, arguments: tuple, count: int) -> tuple[int, int]:
    """``kernel(*arguments, start, stop)`` over ``0 .. count - 1`` split across the
    machine's cores: the first broken entry (the lowest index any part found) and what it
    should hold, or (-1, 0)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    parts = max(1, min(os.cpu_count() or 1, count // 65536))
    bounds = [count * part // parts for part in range(parts + 1)]
    with ThreadPoolExecutor(parts) as pool:
        found = list(pool.map(lambda part: kernel(*arguments, np.int64(bounds[part]),
                                                  np.int64(bounds[part + 1])), range(parts)))
    broken = [tuple(int(v) for v in result) for result in found if result[0] >= 0]
    return min(broken) if broken else (-1, 0)
