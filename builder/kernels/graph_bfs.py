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
from builder.contract.intrinsics import fetch_or, take_next
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
                  parameters=(), wide: bool | None = False) -> np.ndarray:
    """Fewest moves from every state to the nearest source by the plug-in's
    ``neighbours``: uint8 with 255 for "never" (``wide``: uint16 with 65535; None: uint8
    where every distance fits, else uint16); a ValueError if a distance would not fit.  Within a server's request, stopped by its gate (the
    stop's reason raised: ServerBusyError or AbandonedError)."""
    sources = np.asarray(sources, dtype=np.int64).reshape(-1)
    if sources.size and (sources.min() < 0 or sources.max() >= states):
        raise ValueError(f"a source is outside the {states:,} states")
    stop = stop_signal()
    distance = _search(neighbours, np.ascontiguousarray(parameters, dtype=np.int64),
                       np.int64(states), np.ascontiguousarray(sources),
                       np.int64(most_neighbours), stop.flag)
    stop.check()  # a search stopped halfway is never returned
    reached = distance[distance != NEVER_WIDE]
    if wide is None:  # the engine's choice: bytes where every distance fits
        wide = bool(reached.size) and int(reached.max()) >= NEVER_NARROW - 1
    deepest = NEVER_WIDE - 1 if wide else NEVER_NARROW - 1
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



# A folded search (``BreadthFirstSearch.folded``): the least distance over each run of
# ``folded`` consecutive states, a byte a run and a bit a state, for abstract spaces whose
# distances would not fit in memory (a pattern database whose state carries what its
# look-up ignores).  A level at a time, as above, but always from its bitset, on every
# core: threads take blocks of the level's words in turn, and mark what they find with
# atomic or, so that a state is taken by one thread only.
FOLDED_BLOCK_WORDS = 1 << 10
"""Words of a level's bitset a thread takes at a time; the next level records which of
these blocks hold a state, and the scan skips the others."""
FOLDED_POLL_SECONDS = 0.5
"""How often the threads' counts are read for the progress bar."""


@njit(types.int64(NEIGHBOURS, types.int64[::1], types.uint64[::1], types.uint64[::1],
                  types.uint64[::1], types.uint8[::1], types.uint8[::1], types.uint8[::1],
                  types.int64, types.int64, types.int64[::1], types.int64[::1],
                  types.int64, types.int64, types.uint8[::1]),
      cache=True, nogil=True)
def _expand_folded(neighbours, parameters, frontier, following, seen, distance, busy,
                   next_busy, folded, depth, taken, counts, thread, most_neighbours, stop):
    """This thread's share of one level: every state of ``frontier``'s blocks it takes
    (clearing them), its unseen neighbours marked seen and in ``following``, their runs'
    distance set to ``depth`` where none was; counts[2 * thread ..] the states expanded
    and runs reached so far.  -1 where the stop flag was raised, -2 where a run is first
    reached at a depth a byte cannot hold."""
    found = np.empty(most_neighbours, np.int64)
    one = np.uint64(1)
    blocks = len(busy)
    words = len(frontier)
    expanded = counts[2 * thread]
    reached = counts[2 * thread + 1]
    while True:
        block = take_next(taken, 0)
        if block >= blocks:
            break
        if not busy[block]:
            continue
        last = min(words, (block + 1) * FOLDED_BLOCK_WORDS)
        for word in range(block * FOLDED_BLOCK_WORDS, last):
            bits = frontier[word]
            if not bits:
                continue
            frontier[word] = 0
            while bits:
                state = word * 64 + lowest_bit(bits)
                bits &= bits - one
                expanded += 1
                if (expanded & (STOP_POLL_STATES - 1)) == 0:
                    counts[2 * thread] = expanded
                    counts[2 * thread + 1] = reached
                    if stop[0]:
                        return -1
                for i in range(neighbours(state, parameters, found)):
                    other = found[i]
                    at = other >> 6
                    bit = one << np.uint64(other & 63)
                    if seen[at] & bit:
                        continue
                    if fetch_or(seen, at, bit) & bit:
                        continue  # another thread took it first
                    fetch_or(following, at, bit)
                    next_busy[at // FOLDED_BLOCK_WORDS] = 1
                    run = other // folded
                    if distance[run] == NEVER_NARROW:
                        if depth >= NEVER_NARROW:
                            return -2  # a run first reached too deep for a byte
                        distance[run] = depth
                        reached += 1
    counts[2 * thread] = expanded
    counts[2 * thread + 1] = reached
    return expanded


def breadth_first_folded(states: int, sources, neighbours, most_neighbours: int,
                         parameters=(), folded: int = 1, progress: bool = False,
                         desc: str = "search", threads: int | None = None) -> np.ndarray:
    """``breadth_first`` keeping, for every run of ``folded`` consecutive states, the
    fewest moves from any of them (uint8, 255: never): a byte a run and three bits a state
    in memory.  On ``threads`` threads (default: every core); ``progress``: a bar of the
    runs reached.  A ValueError where a run's distance would pass 254 (its states may lie
    deeper); within a server's request, stopped by its gate as ``breadth_first``."""
    import os
    from concurrent.futures import ThreadPoolExecutor, wait

    from tqdm import tqdm

    if folded < 1 or states % folded:
        raise ValueError(f"{states:,} states do not fall in runs of {folded}")
    sources = np.asarray(sources, dtype=np.int64).reshape(-1)
    if sources.size and (sources.min() < 0 or sources.max() >= states):
        raise ValueError(f"a source is outside the {states:,} states")
    threads = threads or len(os.sched_getaffinity(0))
    stop = stop_signal()
    parameters = np.ascontiguousarray(parameters, dtype=np.int64)
    distance = np.full(states // folded, NEVER_NARROW, np.uint8)
    words = (states + 63) // 64
    blocks = (words + FOLDED_BLOCK_WORDS - 1) // FOLDED_BLOCK_WORDS
    seen, frontier, following = (np.zeros(words, np.uint64) for _ in range(3))
    busy, next_busy = np.zeros(blocks, np.uint8), np.zeros(blocks, np.uint8)
    for source in sources.tolist():
        bit = np.uint64(1) << np.uint64(source & 63)
        seen[source >> 6] |= bit
        frontier[source >> 6] |= bit
        busy[(source >> 6) // FOLDED_BLOCK_WORDS] = 1
        distance[source // folded] = 0
    counts = np.zeros(2 * threads, np.int64)
    reached_before = int(np.count_nonzero(distance == 0))
    depth = 0
    with ThreadPoolExecutor(threads) as pool, tqdm(
            total=len(distance), desc=desc, unit=" entries", unit_scale=True,
            disable=not progress, mininterval=FOLDED_POLL_SECONDS) as bar:
        while busy.any():
            depth += 1
            taken = np.zeros(1, np.int64)
            level = [pool.submit(_expand_folded, neighbours, parameters, frontier, following,
                                 seen, distance, busy, next_busy, np.int64(folded),
                                 np.int64(depth), taken, counts, np.int64(thread),
                                 np.int64(most_neighbours), stop.flag)
                     for thread in range(threads)]
            while wait(level, FOLDED_POLL_SECONDS).not_done:
                bar.n = reached_before + int(counts[1::2].sum())
                bar.set_postfix_str(f"level {depth}", refresh=True)
            results = [future.result() for future in level]
            stop.check()  # a search stopped halfway is never returned
            if min(results) == -2:
                raise ValueError(f"a distance reaches {NEVER_NARROW} moves: too deep for a "
                                 "folded byte table")
            if min(results) < 0:
                raise RuntimeError("the folded search stopped with no reason given")
            frontier, following = following, frontier
            busy, next_busy = next_busy, busy
            next_busy[:] = 0
        bar.n = reached_before + int(counts[1::2].sum())
        bar.refresh()
    return distance
