"""Backward breadth-first search over every ball-tube state, from all cleared states.

A reverse move undoes a move: the top ball of tube j goes back onto tube i, where tube j
holds one ball or its top two balls share a colour (the ball was a legal arrival) and
tube i holds fewer than c balls.  Ranks use the rules module's tables (``Balls.step``,
``Balls.level_index`` ...): one table look-up per ball, and only the tubes between the
two that change are re-ranked.  Imported lazily.
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNREACHABLE = 255


@njit(cache=True, inline="always")
def _unrank(rank, arrangements, levels, step, count_radix, capacity, colours, full_code,
            tubes, lengths, left):
    """Decode a rank into tubes/lengths (``left``: balls of each colour still to place)."""
    level, sequence = rank // arrangements, rank % arrangements
    remaining = full_code
    for colour in range(colours):
        left[colour] = capacity
    for tube in range(levels.shape[1]):
        lengths[tube] = levels[level, tube]
        for depth in range(lengths[tube]):
            chosen = 0
            for colour in range(1, colours):
                if left[colour] > 0 and sequence >= step[remaining, colour]:
                    chosen = colour
            sequence -= step[remaining, chosen]
            remaining -= count_radix[chosen]
            left[chosen] -= 1
            tubes[tube, depth] = chosen


@njit(cache=True, nogil=True)
def _search(cleared, n_states, arrangements, levels, level_index, level_radix, step,
            count_radix, capacity, colours, full_code):
    distance = np.full(n_states, UNREACHABLE, dtype=np.uint8)
    queue = np.empty(n_states, dtype=np.int64)
    tail = 0
    for rank in cleared:
        distance[rank] = 0
        queue[tail] = rank
        tail += 1
    n_tubes = levels.shape[1]
    tubes = np.zeros((n_tubes, capacity + 1), dtype=np.int64)
    lengths = np.zeros(n_tubes, dtype=np.int64)
    left = np.zeros(colours, dtype=np.int64)
    # per tube: sequence rank of the tubes before it, and the colours still unplaced there
    prefix_rank = np.zeros(n_tubes + 1, dtype=np.int64)
    prefix_remaining = np.zeros(n_tubes + 1, dtype=np.int64)
    head = 0
    while head < tail:
        rank = queue[head]
        head += 1
        _unrank(rank, arrangements, levels, step, count_radix, capacity, colours, full_code,
                tubes, lengths, left)
        fill = 0
        remaining = full_code
        total = 0
        for tube in range(n_tubes):
            prefix_rank[tube] = total
            prefix_remaining[tube] = remaining
            fill += lengths[tube] * level_radix[tube]
            for depth in range(lengths[tube]):
                total += step[remaining, tubes[tube, depth]]
                remaining -= count_radix[tubes[tube, depth]]
        prefix_rank[n_tubes] = total
        here = distance[rank]
        for source in range(n_tubes):  # the tube the ball arrived on
            if lengths[source] == 0:
                continue
            if lengths[source] > 1 and tubes[source, 0] != tubes[source, 1]:
                continue
            ball = tubes[source, 0]
            for target in range(n_tubes):  # the tube it came from
                if target == source or lengths[target] == capacity:
                    continue
                low, high = min(source, target), max(source, target)
                # only tubes low..high change: re-rank them with the ball moved
                sequence = prefix_rank[low]
                remaining = prefix_remaining[low]
                for tube in range(low, high + 1):
                    if tube == target:
                        sequence += step[remaining, ball]
                        remaining -= count_radix[ball]
                    first = 1 if tube == source else 0
                    for depth in range(first, lengths[tube]):
                        sequence += step[remaining, tubes[tube, depth]]
                        remaining -= count_radix[tubes[tube, depth]]
                sequence += prefix_rank[n_tubes] - prefix_rank[high + 1]
                moved_fill = fill - level_radix[source] + level_radix[target]
                before = level_index[moved_fill] * arrangements + sequence
                if distance[before] == UNREACHABLE:
                    distance[before] = here + 1
                    queue[tail] = before
                    tail += 1
    return distance


def moves_to_clear(rules) -> np.ndarray:
    """Fewest moves to be cleared for every state (255: cannot be cleared)."""
    full_code = int(np.full(rules.colours, rules.capacity) @ rules.count_radix)
    return _search(rules.cleared_states(), rules.n_states, rules.arrangements, rules.levels,
                   rules.level_index, rules.level_radix, rules.step, rules.count_radix,
                   rules.capacity, rules.colours, full_code)
