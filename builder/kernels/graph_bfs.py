"""The generic breadth-first kernel: fewest moves to a set of sources over states
``0 .. n - 1``, for any puzzle whose plug-in gives a numba ``neighbours`` function
(``builder.contract.specs.BreadthFirstSearch``).

The kernel is compiled once, for the function *type* ``(int64, int64[::1], int64[::1])
-> int64``, and cached on disk; each plug-in's function is passed by address.  So no
puzzle costs a compilation of its own search loop, at the price of one indirect call per
state (measured: the largest default table, 16.8 M states, in about 1 s on 2 cores).
The sparse search's expansion (``successors``, ``builder/sparse.py``) calls the same
function type on keys.

The search goes a level at a time; a level holding many states is expanded in the order
of their numbers, not of their discovery, so that where a ranking puts the neighbours of
nearby states near each other (a pattern database's ranking does), their look-ups share
the cache, and the memory is bits per state, not a queue of all the states.

A search run for a server's request stops where it stands when the request's gate says
so (its time limit, its client gone): the kernel polls a one-byte flag every
``STOP_POLL_STATES`` states (``builder.contract.work.Stop``), a few milliseconds apart.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from builder.contract.bits import lowest_bit
from builder.contract.specs import moves_signature
from builder.contract.work import stop_signal

NEVER_WIDE = 65535
NEVER_NARROW = 255
STOP_POLL_STATES = 1 << 14
"""States expanded between two looks at the stop flag (a power of two)."""
DENSE_WORDS = 16
"""A level with at least one state per this many 64-bit words of its bitset is expanded
by scanning the bitset (in the states' order), a sparser one from its list."""
NEIGHBOURS = types.FunctionType(moves_signature())
WIDE_MOVES = types.FunctionType(types.int64(types.uint64[::1], types.int64[::1],
                                            types.uint64[:, ::1]))
"""Moves on two-word keys: ``(key: its high and low word, parameters, out: one row of
two words per key written) -> count``."""


@njit(cache=True, nogil=True, inline="always")
def _expand(state, depth, neighbours, parameters, found, seen, distance, following, listed,
            count, cap):
    """Mark every unseen neighbour of ``state`` at ``depth``: in ``seen``, ``distance``, the
    next level's bitset ``following``, and its list ``listed`` while it holds fewer than
    ``cap``; the next level's new count."""
    one = np.uint64(1)
    for i in range(neighbours(state, parameters, found)):
        other = found[i]
        bit = one << np.uint64(other & 63)
        if not seen[other >> 6] & bit:
            seen[other >> 6] |= bit
            following[other >> 6] |= bit
            distance[other] = depth
            if count < cap:
                listed[count] = other
            count += 1
    return count


@njit(types.uint16[::1](NEIGHBOURS, types.int64[::1], types.int64, types.int64[::1],
                        types.int64, types.uint8[::1]), cache=True, nogil=True)
def _search(neighbours, parameters, states, sources, most_neighbours, stop):
    distance = np.full(states, NEVER_WIDE, np.uint16)
    # "Seen" is asked of every neighbour, so it is a bitset (1/16 of the distances: it
    # stays in cache where the distances would not); the distances are only written,
    # once per state, a level at a time.  A level is a bitset too, and also a list while
    # it is sparse: a sparse level is expanded from its list, a dense one in the order of
    # its states, scanning its bitset, so that neighbouring states' neighbours (which a
    # ranking often puts near each other) are looked up together.  Scans cost a word per
    # 64 states, on levels of at least a state per ``DENSE_WORDS`` words only.
    words = (states + 63) // 64
    seen = np.zeros(words, np.uint64)
    frontier = np.zeros(words, np.uint64)
    following = np.zeros(words, np.uint64)
    cap = max(words // DENSE_WORDS, 64)
    listed = np.empty(cap, np.int64)
    following_listed = np.empty(cap, np.int64)
    found = np.empty(most_neighbours, np.int64)
    one = np.uint64(1)
    count = 0
    for source in sources:
        bit = one << np.uint64(source & 63)
        if not seen[source >> 6] & bit:
            seen[source >> 6] |= bit
            frontier[source >> 6] |= bit
            distance[source] = 0
            if count < cap:
                listed[count] = source
            count += 1
    depth = 0
    expanded = 0
    while count:
        depth += 1
        if depth >= NEVER_WIDE:
            break  # 65534 is the deepest a table records; the caller checks
        following_count = 0
        if count <= cap:
            for index in range(count):
                state = listed[index]
                frontier[state >> 6] = 0
                expanded += 1
                if (expanded & (STOP_POLL_STATES - 1)) == 0 and stop[0]:
                    return distance  # unfinished: the caller raises the stop's reason
                following_count = _expand(state, depth, neighbours, parameters, found, seen,
                                          distance, following, following_listed,
                                          following_count, cap)
        else:
            for word in range(words):
                bits = frontier[word]
                if not bits:
                    continue
                frontier[word] = 0
                while bits:
                    state = word * 64 + lowest_bit(bits)
                    bits &= bits - one
                    expanded += 1
                    if (expanded & (STOP_POLL_STATES - 1)) == 0 and stop[0]:
                        return distance
                    following_count = _expand(state, depth, neighbours, parameters, found,
                                              seen, distance, following, following_listed,
                                              following_count, cap)
        frontier, following = following, frontier
        listed, following_listed = following_listed, listed
        count = following_count
    return distance


def breadth_first(states: int, sources, neighbours, most_neighbours: int,
                  parameters=(), wide: bool = False) -> np.ndarray:
    """Fewest moves from every state to the nearest source by the plug-in's
    ``neighbours``: uint8 with 255 for "never" (``wide``: uint16 with 65535); a ValueError
    if a distance would not fit.  Within a server's request, stopped by its gate (the
    stop's reason raised: ServerBusyError or AbandonedError)."""
    sources = np.asarray(sources, dtype=np.int64).reshape(-1)
    if sources.size and (sources.min() < 0 or sources.max() >= states):
        raise ValueError(f"a source is outside the {states:,} states")
    stop = stop_signal()
    distance = _search(neighbours, np.ascontiguousarray(parameters, dtype=np.int64),
                       np.int64(states), np.ascontiguousarray(sources),
                       np.int64(most_neighbours), stop.flag)
    stop.check()  # a search stopped halfway is never returned
    deepest = NEVER_WIDE - 1 if wide else NEVER_NARROW - 1
    reached = distance[distance != NEVER_WIDE]
    if reached.size and reached.max() >= deepest:
        raise ValueError(f"a distance reaches {deepest} moves: too deep for a "
                         f"{'16-bit' if wide else 'byte'} table"
                         + ("" if wide else " (declare the search wide)"))
    if wide:
        return distance
    narrow = distance.astype(np.uint8)
    narrow[distance == NEVER_WIDE] = NEVER_NARROW
    return narrow


@njit(types.int64[::1](NEIGHBOURS, types.int64[::1], types.int64[::1], types.int64),
      cache=True, nogil=True)
def successors(moves, parameters, keys, most):
    """Every key one move (of ``moves``, the same function type) from each of ``keys``,
    with repeats: the sparse search's expansion (``builder/sparse.py``)."""
    out = np.empty(len(keys) * most, np.int64)
    found = np.empty(most, np.int64)
    written = 0
    for key in keys:
        count = moves(key, parameters, found)
        out[written:written + count] = found[:count]
        written += count
    return out[:written]


@njit(types.uint64[:, ::1](WIDE_MOVES, types.int64[::1], types.uint64[:, ::1], types.int64),
      cache=True, nogil=True)
def successors_wide(moves, parameters, keys, most):
    """``successors`` on two-word keys (rows of high and low word)."""
    out = np.empty((len(keys) * most, 2), np.uint64)
    found = np.empty((most, 2), np.uint64)
    written = 0
    for row in range(len(keys)):
        count = moves(keys[row], parameters, found)
        out[written:written + count] = found[:count]
        written += count
    return out[:written]

