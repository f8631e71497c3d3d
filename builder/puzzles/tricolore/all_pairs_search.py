"""Bit-parallel multi-target backward breadth-first search over (board, last click) nodes.

One pass over the graph advances a batch of independent searches at once (64 per word)
(multi-source BFS, Then et al., VLDB 2015): every node holds a bitmask of the
searches (targets) that have reached it.  The search runs backwards from the
targets by *pulling*: a node joins level k for target t when one of its successors
was at level k-1 for t.

For every board b and target t the kernel records what an exact table walk needs:

* ``clicks[b, t]``  - minimum number of clicks (>= 1) from b, nothing forbidden, to t;
* ``sole[b, t]``    - the first click when exactly one first click is optimal, else 255;
* ``avoiding[b, t]``- minimum clicks from b when that sole click is forbidden.

That is enough because the distance from node (b, last=c) differs from
``clicks[b, t]`` only when c is the sole optimal first click (forbidding one click
cannot hurt when another optimal one remains).  255 means unreachable.

The three results are kept bit-sliced during the search (plane p holds bit p of
each value, one bit per target) and turned into bytes once at the end, eight
targets per word operation; writing them pair by pair costs several times more.

Imported lazily: nothing on the query path compiles numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from builder.puzzles.tricolore.tables import TARGETS_PER_TASK as BATCH

UNREACHABLE = 255
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
def _unslice(planes, count, present, out_words, board, word0):
    """Write 64 bit-sliced values as bytes (255 where ``present`` is clear)."""
    for group in range(8):
        shift = np.uint64(8 * group)
        value = np.uint64(0)
        for plane in range(count):
            value |= _spread_byte((planes[plane] >> shift) & np.uint64(0xFF)) << np.uint64(plane)
        absent = _spread_byte(((~present) >> shift) & np.uint64(0xFF)) * np.uint64(0xFF)
        out_words[board, word0 + group] = (value & ~absent) | absent


@njit(cache=True, nogil=True, parallel=True)
def _search_batch(successors, targets, clicks_words, sole_words, avoiding_words):
    n_boards, n_squares = successors.shape
    lanes = (targets.shape[0] + 63) // 64
    frontier = np.zeros((n_boards, n_squares, lanes), dtype=np.uint64)
    visited = np.zeros((n_boards, n_squares, lanes), dtype=np.uint64)
    following = np.zeros((n_boards, n_squares, lanes), dtype=np.uint64)
    visited_free = np.zeros((n_boards, lanes), dtype=np.uint64)
    has_sole = np.zeros((n_boards, lanes), dtype=np.uint64)
    has_avoiding = np.zeros((n_boards, lanes), dtype=np.uint64)
    level_planes = np.zeros((n_boards, lanes, LEVEL_PLANES), dtype=np.uint64)
    sole_planes = np.zeros((n_boards, lanes, SQUARE_PLANES), dtype=np.uint64)
    avoiding_planes = np.zeros((n_boards, lanes, LEVEL_PLANES), dtype=np.uint64)
    progressed = np.zeros(n_boards, dtype=np.uint8)
    for t in range(targets.shape[0]):
        bit = np.uint64(1) << np.uint64(t % 64)
        for square in range(n_squares):
            frontier[targets[t], square, t // 64] |= bit
            visited[targets[t], square, t // 64] |= bit
    level = 0
    while True:
        level += 1
        if level > MAX_LEVEL:
            return -1
        for board in prange(n_boards):
            any_fresh = np.uint64(0)
            for lane in range(lanes):
                # A search reaches (board, last) from any successor except the one
                # through square `last`: bits seen twice come from two squares.
                seen = np.uint64(0)
                twice = np.uint64(0)
                for square in range(n_squares):
                    successor = successors[board, square]
                    if successor >= 0:
                        reached = frontier[successor, square, lane]
                        twice |= seen & reached
                        seen |= reached
                before = visited_free[board, lane]
                new_free = seen & ~before
                visited_free[board, lane] = before | new_free
                any_fresh |= new_free
                late = np.uint64(0)
                for last in range(n_squares):
                    successor = successors[board, last]
                    own = frontier[successor, last, lane] if successor >= 0 else np.uint64(0)
                    new = (twice | (seen & ~own)) & ~visited[board, last, lane]
                    following[board, last, lane] = new
                    visited[board, last, lane] |= new
                    any_fresh |= new
                    # the sole optimal first click: every other last click is reached now
                    lagging = new_free & ~visited[board, last, lane]
                    if lagging:
                        has_sole[board, lane] |= lagging
                        for plane in range(SQUARE_PLANES):
                            if (last >> plane) & 1:
                                sole_planes[board, lane, plane] |= lagging
                    # reached only after the free node: the distance avoiding that click
                    late |= new & before
                if new_free:
                    for plane in range(LEVEL_PLANES):
                        if (level >> plane) & 1:
                            level_planes[board, lane, plane] |= new_free
                if late:
                    has_avoiding[board, lane] |= late
                    for plane in range(LEVEL_PLANES):
                        if (level >> plane) & 1:
                            avoiding_planes[board, lane, plane] |= late
            progressed[board] = 1 if any_fresh else 0
        if not progressed.any():
            break
        frontier, following = following, frontier
    for board in prange(n_boards):
        for lane in range(lanes):
            word0 = lane * 8
            _unslice(level_planes[board, lane], LEVEL_PLANES, visited_free[board, lane],
                     clicks_words, board, word0)
            _unslice(sole_planes[board, lane], SQUARE_PLANES, has_sole[board, lane],
                     sole_words, board, word0)
            _unslice(avoiding_planes[board, lane], LEVEL_PLANES, has_avoiding[board, lane],
                     avoiding_words, board, word0)
    return level - 1


def search_targets(
    successors: np.ndarray, first_target: int, count: int = BATCH
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int]:
    """Searches towards targets ``first_target ..`` (up to ``count`` of them).

    Returns the [board, target - first_target] arrays (clicks, sole, avoiding) and the
    depth of the deepest search.  A target that no click can produce (outside the
    successor table's image) comes out UNREACHABLE from every board.
    """
    n_boards = successors.shape[0]
    targets = np.arange(first_target, min(n_boards, first_target + count), dtype=np.int64)
    width = 64 * ((len(targets) + 63) // 64)
    batch = [np.empty((n_boards, width), dtype=np.uint8) for _ in range(3)]
    depth = _search_batch(
        np.ascontiguousarray(successors, dtype=np.int32),
        targets,
        *(b.view(np.uint64) for b in batch),
    )
    if depth < 0:
        raise OverflowError(f"search deeper than {MAX_LEVEL} levels: widen LEVEL_PLANES")
    clicks, sole, avoiding = (values[:, : len(targets)] for values in batch)
    return (clicks, sole, avoiding), depth
