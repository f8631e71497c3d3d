"""The Tower of Hanoi's moves, written once: the engine compiles this function for the
breadth-first kernel that builds the tables, and the walk runs it as Python (the subset
of Python numba compiles: no helpers, numbers and arrays only).  A position is ranked
sum(peg of disc d * pegs**d), disc 0 the smallest; parameters: (pegs, discs).  Moves can
be undone, so a position's neighbours are its moves."""

from __future__ import annotations

def hanoi_moves(position, parameters, out):
    """Every position one move from ``position``, written into ``out``: for each peg in
    turn, its top disc onto every other peg that is empty or topped by a larger disc.
    Returns how many."""
    pegs = parameters[0]
    discs = parameters[1]
    count = 0
    if pegs == 4:
        # two bits a disc: the discs on a peg are the bit pairs equal to the peg, and the
        # lowest of them is its top disc's 4**disc (``empty`` above them all: a bare peg)
        low = 0
        for disc in range(discs):
            low |= 1 << (2 * disc)
        empty = 1 << (2 * discs)
        for source in range(4):
            differs = position ^ (source * low)
            on_peg = (~(differs | (differs >> 1)) & low) | empty
            top = on_peg & -on_peg
            if top == empty:
                continue
            for destination in range(4):
                if destination == source:
                    continue
                differs = position ^ (destination * low)
                on_peg = (~(differs | (differs >> 1)) & low) | empty
                if top < on_peg & -on_peg:
                    out[count] = position + (destination - source) * top
                    count += 1
        return count
    # any number of pegs: each peg's top disc found by reading the digits
    for source in range(pegs):
        top, weight, rest, place = discs, 0, position, 1
        for disc in range(discs):
            if rest % pegs == source:
                top, weight = disc, place
                break
            rest //= pegs
            place *= pegs
        if top == discs:
            continue
        for destination in range(pegs):
            if destination == source:
                continue
            other, rest = discs, position
            for disc in range(discs):
                if rest % pegs == destination:
                    other = disc
                    break
                rest //= pegs
            if top < other:
                out[count] = position + (destination - source) * weight
                count += 1
    return count
