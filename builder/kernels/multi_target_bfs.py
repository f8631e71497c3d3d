"""Bit-parallel multi-target backward breadth-first search over (board, last click) nodes.

One pass over the graph advances up to ``64 * LANES`` independent searches at once
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

Imported lazily: nothing on the query path compiles numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

UNREACHABLE = 255
LANES = 4
BATCH = 64 * LANES


@njit(cache=True, inline="always")
def _lowest_bit_index(mask: np.uint64) -> int:
    below = (mask & (~mask + np.uint64(1))) - np.uint64(1)
    below = below - ((below >> np.uint64(1)) & np.uint64(0x5555555555555555))
    below = (below & np.uint64(0x3333333333333333)) + (
        (below >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    below = (below + (below >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((below * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True, parallel=True)
def _search_batch(successors, targets, columns, clicks, sole, avoiding):
    n_boards, n_squares = successors.shape
    lanes = (targets.shape[0] + 63) // 64
    frontier = np.zeros((n_boards, n_squares, lanes), dtype=np.uint64)
    visited = np.zeros((n_boards, n_squares, lanes), dtype=np.uint64)
    following = np.zeros((n_boards, n_squares, lanes), dtype=np.uint64)
    visited_free = np.zeros((n_boards, lanes), dtype=np.uint64)
    progressed = np.zeros(n_boards, dtype=np.uint8)
    for t in range(targets.shape[0]):
        bit = np.uint64(1) << np.uint64(t % 64)
        for square in range(n_squares):
            frontier[targets[t], square, t // 64] |= bit
            visited[targets[t], square, t // 64] |= bit
    level = 0
    while True:
        level += 1
        for board in prange(n_boards):
            reached = np.zeros(n_squares, dtype=np.uint64)
            prefix = np.zeros(n_squares + 1, dtype=np.uint64)
            suffix = np.zeros(n_squares + 1, dtype=np.uint64)
            fresh = np.zeros(n_squares, dtype=np.uint64)
            any_fresh = np.uint64(0)
            for lane in range(lanes):
                for square in range(n_squares):
                    successor = successors[board, square]
                    reached[square] = (
                        frontier[successor, square, lane] if successor >= 0 else np.uint64(0)
                    )
                for square in range(n_squares):
                    prefix[square + 1] = prefix[square] | reached[square]
                for square in range(n_squares - 1, -1, -1):
                    suffix[square] = suffix[square + 1] | reached[square]
                for last in range(n_squares):
                    new = (prefix[last] | suffix[last + 1]) & ~visited[board, last, lane]
                    following[board, last, lane] = new
                    visited[board, last, lane] |= new
                    fresh[last] = new
                    any_fresh |= new
                before = visited_free[board, lane]
                new_free = prefix[n_squares] & ~before
                visited_free[board, lane] = before | new_free
                any_fresh |= new_free
                base = lane * 64
                mask = new_free
                while mask:
                    t = _lowest_bit_index(mask)
                    clicks[board, columns[base + t]] = level
                    mask &= mask - np.uint64(1)
                for last in range(n_squares):
                    mask = new_free & ~visited[board, last, lane]
                    while mask:
                        t = _lowest_bit_index(mask)
                        sole[board, columns[base + t]] = last
                        mask &= mask - np.uint64(1)
                    mask = fresh[last] & before
                    while mask:
                        t = _lowest_bit_index(mask)
                        avoiding[board, columns[base + t]] = level
                        mask &= mask - np.uint64(1)
            progressed[board] = 1 if any_fresh else 0
        if not progressed.any():
            break
        frontier, following = following, frontier
    return level - 1


def search_targets(
    successors: np.ndarray,
    targets: np.ndarray,
    clicks: np.ndarray,
    sole: np.ndarray,
    avoiding: np.ndarray,
    columns: np.ndarray,
) -> int:
    """Fill column ``columns[i]`` of the three output arrays (preset to UNREACHABLE)
    with the search towards ``targets[i]``, for up to BATCH targets; returns the depth."""
    if len(targets) > BATCH:
        raise ValueError(f"at most {BATCH} targets per batch")
    return _search_batch(
        np.ascontiguousarray(successors, dtype=np.int32),
        np.ascontiguousarray(targets, dtype=np.int64),
        np.ascontiguousarray(columns, dtype=np.int64),
        clicks,
        sole,
        avoiding,
    )
