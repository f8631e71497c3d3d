"""Lucas' moves as the engine's generic kernel calls them (plain Python the engine
compiles), over a dense ranking:
rank = gap * C(2n, n) + the colex rank of the A's among the 2n cells that are not the gap.
Parameters: (n, direction): +1 the classic rule's moves (A right, B left), -1 those
moves undone (A left, B right: the positions one classic move before), 0 any piece either
way (the document's table's rule)."""

from __future__ import annotations

import numpy as np

from builder.contract.bits import popcount

MAX_N = 15
BINOMIAL = np.zeros((2 * MAX_N + 2, MAX_N + 2), dtype=np.int64)
for _top in range(2 * MAX_N + 2):
    BINOMIAL[_top, 0] = 1
    for _chosen in range(1, min(_top, MAX_N + 1) + 1):
        BINOMIAL[_top, _chosen] = BINOMIAL[_top - 1, _chosen - 1] + (
            BINOMIAL[_top - 1, _chosen] if _chosen <= _top - 1 else 0)


def _unrank(rank, n):
    """(gap, mask of the A's among the 2n cells that are not the gap, colex rank) of a
    dense rank: the mask is over *compressed* cells (the gap's cell removed)."""
    per_gap = BINOMIAL[2 * n, n]
    gap = rank // per_gap
    rest = rank - gap * per_gap
    colex = rest
    mask = 0
    slot = 2 * n - 1
    for chosen in range(n, 0, -1):
        while BINOMIAL[slot, chosen] > rest:
            slot -= 1
        rest -= BINOMIAL[slot, chosen]
        mask |= 1 << slot
        slot -= 1
    return gap, mask, colex


def lucas_steps(position, parameters, out):
    # Over compressed cells a slide changes nothing but the gap, and a jump swaps the two
    # compressed cells before (or after) the gap: one binomial moves the colex rank, so
    # no neighbour is ranked from scratch.
    n = parameters[0]
    direction = parameters[1]
    cells = 2 * n + 1
    per_gap = BINOMIAL[2 * n, n]
    gap, mask, colex = _unrank(position, n)
    count = 0
    for offset in (-2, -1, 1, 2):
        source = gap + offset
        if source < 0 or source >= cells:
            continue
        slot = source if source < gap else source - 1  # the moving piece's compressed cell
        is_a = (mask >> slot) & 1
        forward = (offset < 0) if is_a else (offset > 0)
        if direction == 1 and not forward or direction == -1 and forward:
            continue
        if offset == 1 or offset == -1:
            out[count] = source * per_gap + colex
            count += 1
            continue
        low = gap if offset == 2 else gap - 2  # the swapped pair: compressed low, low + 1
        if ((mask >> low) & 1) == ((mask >> (low + 1)) & 1):
            continue  # a jump goes over exactly one piece of the other colour
        chosen = popcount(mask & ((1 << (low + 2)) - 1))  # the pair's A is the chosen-th
        step = BINOMIAL[low, chosen - 1]
        moved = colex + step if (mask >> low) & 1 else colex - step
        out[count] = source * per_gap + moved
        count += 1
    return count


def classic_moves(position, parameters, out):
    """The classic rule's moves themselves (direction +1), whatever ``parameters`` says
    about direction: `builder verify` checks the recurrence over them."""
    forward = np.empty(2, np.int64)
    forward[0] = parameters[0]
    forward[1] = 1
    return lucas_steps(position, forward, out)
