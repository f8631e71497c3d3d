"""Lucas' moves as the engine's generic kernel calls them (numba), over a dense ranking:
rank = gap * C(2n, n) + the colex rank of the A's among the 2n cells that are not the gap.
Parameters: (n, direction): +1 the classic rule's moves (A right, B left), -1 those
moves undone (A left, B right: the positions one classic move before), 0 any piece either
way (the document's table's rule)."""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_N = 15
BINOMIAL = np.zeros((2 * MAX_N + 2, MAX_N + 2), dtype=np.int64)
for _top in range(2 * MAX_N + 2):
    BINOMIAL[_top, 0] = 1
    for _chosen in range(1, min(_top, MAX_N + 1) + 1):
        BINOMIAL[_top, _chosen] = BINOMIAL[_top - 1, _chosen - 1] + (
            BINOMIAL[_top - 1, _chosen] if _chosen <= _top - 1 else 0)


@njit(cache=True, inline="always")
def _unrank(rank, n):
    """(gap, mask of A cells) of a dense rank."""
    per_gap = BINOMIAL[2 * n, n]
    gap = rank // per_gap
    rest = rank - gap * per_gap
    mask = 0
    slot = 2 * n - 1
    for chosen in range(n, 0, -1):
        while BINOMIAL[slot, chosen] > rest:
            slot -= 1
        rest -= BINOMIAL[slot, chosen]
        cell = slot if slot < gap else slot + 1
        mask |= 1 << cell
        slot -= 1
    return gap, mask


@njit(cache=True, inline="always")
def _rank(gap, mask, n):
    rank = 0
    chosen = 0
    for cell in range(2 * n + 1):
        if cell == gap:
            continue
        if (mask >> cell) & 1:
            chosen += 1
            rank += BINOMIAL[cell if cell < gap else cell - 1, chosen]
    return gap * BINOMIAL[2 * n, n] + rank


@njit(cache=True)
def lucas_steps(position, parameters, out):
    n = parameters[0]
    direction = parameters[1]
    cells = 2 * n + 1
    gap, mask = _unrank(position, n)
    count = 0
    for offset in (-2, -1, 1, 2):
        source = gap + offset
        if source < 0 or source >= cells:
            continue
        is_a = (mask >> source) & 1
        if offset == 2 or offset == -2:
            over = gap + offset // 2
            if ((mask >> over) & 1) == is_a:
                continue  # a jump goes over exactly one piece of the other colour
        # an A moving right comes from the gap's left (offset < 0); a B moving left from
        # its right
        forward = (offset < 0) if is_a else (offset > 0)
        if direction == 1 and not forward or direction == -1 and forward:
            continue
        moved = (mask & ~(1 << source)) | (is_a << gap)
        out[count] = _rank(source, moved, n)
        count += 1
    return count


@njit(cache=True)
def classic_moves(position, parameters, out):
    """The classic rule's moves themselves (direction +1), whatever ``parameters`` says
    about direction: `builder verify` checks the recurrence over them."""
    forward = np.empty(2, np.int64)
    forward[0] = parameters[0]
    forward[1] = 1
    return lucas_steps(position, forward, out)
