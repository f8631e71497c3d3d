"""Bit-parallel multi-target backward breadth-first search over (board, last click) nodes.

One pass over the graph advances a batch of independent searches at once (64 per word)
(multi-source BFS, Then et al., VLDB 2015): every node holds a bitmask of the
searches (targets) that have reached it.  The search runs backwards from the
targets by *pulling*: a node joins level k for target t when one of its successors
was at level k-1 for t.

For every board b and target t the kernel records what an exact table walk needs:

* ``clicks[b, t]``  - minimum number of clicks (>= 1) from b, nothing forbidden, to t;
* ``sole[b, t]``    - the first click when exactly one first click is optimal, else never;
* ``avoiding[b, t]``- minimum clicks from b when that sole click is forbidden.

That is enough because the distance from node (b, last=c) differs from
``clicks[b, t]`` only when c is the sole optimal first click (forbidding one click
cannot hurt when another optimal one remains).  Where t cannot be reached, all three
hold never (the value ``never_of`` gives for the arrays the engine lends).

The three results are kept bit-sliced during the search (plane p holds bit p of
each value, one bit per target) and turned into bytes once at the end, eight
targets per word operation; writing them pair by pair costs several times more.

Imported lazily: nothing on the query path compiles numba.
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

from builder.contract.base import never_of, unreached
from builder.contract.intrinsics import take_next
from puzzles.tricolore.all_pairs_batch import TARGETS_PER_TASK as BATCH

LEVEL_PLANES = 6
"""Bit planes per recorded level: searches deeper than 2**6 - 1 levels are refused."""
SQUARE_PLANES = 5
"""Bit planes per recorded square number: boards of up to 32 squares."""
MAX_LEVEL = 2**LEVEL_PLANES - 1

_BYTE_SPREAD = np.uint64(0x0101010101010101)
_BIT_PER_BYTE = np.uint64(0x8040201008040201)
_CARRY_TO_TOP = np.uint64(0x7F7F7F7F7F7F7F7F)


@njit(cache=True, inline="always")
def _spread_byte(byte: np.uint64) -> np.uint64:
    """Bit j of an 8-bit value -> bit 0 of byte j of a 64-bit word."""
    masked = (byte * _BYTE_SPREAD) & _BIT_PER_BYTE
    return ((masked + _CARRY_TO_TOP) >> np.uint64(7)) & _BYTE_SPREAD


@njit(cache=True, inline="always")
def _unslice(planes, count, present, out_words, board, word0, never):
    """Write 64 bit-sliced values as bytes (``never`` where ``present`` is clear)."""
    for group in range(8):
        shift = np.uint64(8 * group)
        value = np.uint64(0)
        for plane in range(count):
            value |= _spread_byte((planes[plane] >> shift) & np.uint64(0xFF)) << np.uint64(plane)
        absent = _spread_byte(((~present) >> shift) & np.uint64(0xFF))
        out_words[board, word0 + group] = ((value & ~(absent * np.uint64(0xFF)))
                                           | (absent * never))


@njit(cache=True, nogil=True)
def _search_lane(successors, targets, lane, clicks_words, sole_words, avoiding_words, never):
    """The searches towards the 64 targets of one lane (``targets[64 * lane ..]``), each
    a bit of a word; writes their columns of the three arrays and returns the depth of
    the deepest (-1: deeper than the planes hold).  A lane's arrays (a word a node) stay
    in the core's own cache on boards of 4x2's size."""
    n_boards, n_squares = successors.shape
    frontier = np.zeros((n_boards, n_squares), dtype=np.uint64)
    visited = np.zeros((n_boards, n_squares), dtype=np.uint64)
    following = np.zeros((n_boards, n_squares), dtype=np.uint64)
    visited_free = np.zeros(n_boards, dtype=np.uint64)
    has_sole = np.zeros(n_boards, dtype=np.uint64)
    has_avoiding = np.zeros(n_boards, dtype=np.uint64)
    level_planes = np.zeros((n_boards, LEVEL_PLANES), dtype=np.uint64)
    sole_planes = np.zeros((n_boards, SQUARE_PLANES), dtype=np.uint64)
    avoiding_planes = np.zeros((n_boards, LEVEL_PLANES), dtype=np.uint64)
    for t in range(64 * lane, min(targets.shape[0], 64 * lane + 64)):
        bit = np.uint64(1) << np.uint64(t % 64)
        for square in range(n_squares):
            frontier[targets[t], square] |= bit
            visited[targets[t], square] |= bit
    level = 0
    while True:
        level += 1
        if level > MAX_LEVEL:
            return -1
        progressed = False
        for board in range(n_boards):
            # A search reaches (board, last) from any successor except the one through
            # square `last`: bits seen twice come from two squares.
            seen = np.uint64(0)
            twice = np.uint64(0)
            for square in range(n_squares):
                successor = successors[board, square]
                if successor >= 0:
                    reached = frontier[successor, square]
                    twice |= seen & reached
                    seen |= reached
            before = visited_free[board]
            new_free = seen & ~before
            visited_free[board] = before | new_free
            any_fresh = new_free
            late = np.uint64(0)
            for last in range(n_squares):
                successor = successors[board, last]
                own = frontier[successor, last] if successor >= 0 else np.uint64(0)
                new = (twice | (seen & ~own)) & ~visited[board, last]
                following[board, last] = new
                visited[board, last] |= new
                any_fresh |= new
                # the sole optimal first click: every other last click is reached now
                lagging = new_free & ~visited[board, last]
                if lagging:
                    has_sole[board] |= lagging
                    for plane in range(SQUARE_PLANES):
                        if (last >> plane) & 1:
                            sole_planes[board, plane] |= lagging
                # reached only after the free node: the distance avoiding that click
                late |= new & before
            if new_free:
                for plane in range(LEVEL_PLANES):
                    if (level >> plane) & 1:
                        level_planes[board, plane] |= new_free
            if late:
                has_avoiding[board] |= late
                for plane in range(LEVEL_PLANES):
                    if (level >> plane) & 1:
                        avoiding_planes[board, plane] |= late
            progressed |= any_fresh != 0
        if not progressed:
            break
        frontier, following = following, frontier
    word0 = lane * 8
    for board in range(n_boards):
        _unslice(level_planes[board], LEVEL_PLANES, visited_free[board], clicks_words, board,
                 word0, never)
        _unslice(sole_planes[board], SQUARE_PLANES, has_sole[board], sole_words, board, word0,
                 never)
        _unslice(avoiding_planes[board], LEVEL_PLANES, has_avoiding[board], avoiding_words,
                 board, word0, never)
    return level - 1


@njit(cache=True, nogil=True, parallel=True)
def _search_batch(successors, targets, clicks_words, sole_words, avoiding_words, never,
                  n_threads):
    """Every lane of the batch on ``n_threads`` threads; returns the deepest search's
    depth (-1: too deep).  The lanes are independent, so the threads share them out by
    taking the next one when done, with no step in common: a thread slowed by another
    process on its core takes fewer lanes instead of holding the other up at every
    level."""
    lanes = (targets.shape[0] + 63) // 64
    depths = np.zeros(lanes, dtype=np.int64)
    next_lane = np.zeros(1, dtype=np.int64)
    for _ in prange(min(n_threads, lanes)):
        lane = take_next(next_lane, 0)
        while lane < lanes:
            depths[lane] = _search_lane(successors, targets, lane, clicks_words, sole_words,
                                        avoiding_words, never)
            lane = take_next(next_lane, 0)
    return -1 if depths.min() < 0 else depths.max()


def search_targets(
    successors: np.ndarray, first_target: int, count: int = BATCH
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int]:
    """Searches towards targets ``first_target ..`` (up to ``count`` of them).

    Returns the [board, target - first_target] arrays (clicks, sole, avoiding) and the
    depth of the deepest search.  A target that no click can produce (outside the
    successor table's image) comes out never (``never_of``) from every board.
    """
    n_boards = successors.shape[0]
    targets = np.arange(first_target, min(n_boards, first_target + count), dtype=np.int64)
    width = 64 * ((len(targets) + 63) // 64)
    # the kernel writes every entry, a byte each: eight to a word, as it unslices them
    batch = [unreached((n_boards, width), MAX_LEVEL) for _ in range(3)]
    if batch[0].dtype != np.uint8:
        raise TypeError(f"the kernel writes a byte an entry, not {batch[0].dtype}")
    depth = _search_batch(
        np.ascontiguousarray(successors, dtype=np.int32),
        targets,
        *(b.view(np.uint64) for b in batch),
        np.uint64(never_of(batch[0])),
        get_num_threads(),
    )
    if depth < 0:
        raise OverflowError(f"search deeper than {MAX_LEVEL} levels: widen LEVEL_PLANES")
    clicks, sole, avoiding = (values[:, : len(targets)] for values in batch)
    return (clicks, sole, avoiding), depth
