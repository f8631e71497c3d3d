"""Lights Out's own kernel: a breadth-first search over every state of a board, states
as bit sets, a click xoring its mask in.  Distances from all off (state 0), 255 =
unreachable.  Imported only when a table is built."""

from __future__ import annotations

import numpy as np
from numba import njit

UNREACHABLE = 255


@njit(cache=True, nogil=True)
def _xor_bfs(masks, n_bits):
    distance = np.full(1 << n_bits, UNREACHABLE, dtype=np.uint8)
    queue = np.empty(1 << n_bits, dtype=np.int64)
    distance[0] = 0
    queue[0] = 0
    head, tail = 0, 1
    while head < tail:
        state = queue[head]
        head += 1
        following_distance = distance[state] + 1
        for mask in masks:
            following = state ^ mask
            if distance[following] == UNREACHABLE:
                distance[following] = following_distance
                queue[tail] = following
                tail += 1
    return distance


def xor_bfs(masks, n_bits: int) -> np.ndarray:
    """Fewest moves from state 0 to every state (each move xors one mask)."""
    if n_bits > 30:
        raise MemoryError(f"2^{n_bits} states do not fit a table here (at most 2^30)")
    return _xor_bfs(np.asarray(masks, dtype=np.int64), n_bits)
