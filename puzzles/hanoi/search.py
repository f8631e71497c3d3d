"""The Tower of Hanoi's moves as the engine's generic kernel calls them (numba): a
position is ranked as sum(peg of disc d * pegs**d), disc 0 the smallest.  Parameters:
(pegs, discs).  Moves can be undone, so a position's neighbours are its moves."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def _top_on_four_pegs(position, peg, low, empty):
    """4**d of the smallest disc d on ``peg`` (``empty`` when the peg is bare): a position
    on four pegs is two bits per disc, so the discs on a peg are the bit pairs equal to it."""
    differs = position ^ (peg * low)
    on_peg = ~(differs | (differs >> 1)) & low
    on_peg |= empty
    return on_peg & -on_peg


@njit(cache=True)
def hanoi_moves(position, parameters, out):
    pegs = parameters[0]
    discs = parameters[1]
    if pegs == 4:
        low = 0
        for disc in range(discs):
            low |= 1 << (2 * disc)
        empty = 1 << (2 * discs)
        count = 0
        for source in range(4):
            top = _top_on_four_pegs(position, source, low, empty)
            if top == empty:
                continue
            for destination in range(4):
                if destination != source and top < _top_on_four_pegs(position, destination,
                                                                      low, empty):
                    out[count] = position + (destination - source) * top
                    count += 1
        return count
    # any number of pegs: the smallest disc on each peg, by reading the digits
    tops = [discs] * pegs
    weight = [0] * pegs
    rest = position
    place = 1
    for disc in range(discs):
        peg = rest % pegs
        rest //= pegs
        if tops[peg] == discs:
            tops[peg] = disc
            weight[peg] = place
        place *= pegs
    count = 0
    for source in range(pegs):
        if tops[source] == discs:
            continue
        for destination in range(pegs):
            if destination != source and tops[source] < tops[destination]:
                out[count] = position + (destination - source) * weight[source]
                count += 1
    return count
