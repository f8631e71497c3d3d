"""The kernels of the pattern databases the engine derives from a puzzle's ``Pieces``, in
plain Python the engine compiles where a table is built or searched (``specs.kernel``,
``patterns.step_kernel``), so that declaring a table imports no numba.  One pair of
functions serves every puzzle: the pieces' moves are handed over as data.

A pattern's abstract state: the slots (places numbered among the movable ones) and the
orientations of the pieces it tracks, packed four bits a slot and four bits an
orientation, the first piece in the low bits; its rank is the slots' arrangement rank
times ``orientations ** tracked``, plus the orientations as digits, the first piece's
most significant (``builder.piece_patterns.pattern_rank`` in Python).
"""

from __future__ import annotations

import numpy as np

from builder.contract.patterns import packed_rank, packed_unrank


def _rank(slots, orientations, tracked, parameters, weights_at, base, orientation_states):
    digits = 0
    for number in range(tracked):
        digits = base * digits + ((orientations >> (4 * number)) & 15)
    return (packed_rank(slots, tracked, parameters, weights_at) * orientation_states
            + digits)


# The breadth-first search of one pattern's table.  Parameters: orientations, tracked,
# orientations ** tracked, movable places, moves; per move the slot each slot's piece
# goes to, then per move the orientation a piece gains arriving at each slot; then the
# tracked pieces' arrangement weights.  Moves can be undone: a state's neighbours are its
# moves.
NEIGHBOURS_HEAD = 5


def piece_neighbours(state, parameters, out):
    base = parameters[0]
    tracked = parameters[1]
    orientation_states = parameters[2]
    movable = parameters[3]
    moves = parameters[4]
    goes_at = NEIGHBOURS_HEAD
    gained_at = goes_at + moves * movable
    weights_at = gained_at + moves * movable
    arrangement = state // orientation_states
    digits = state - arrangement * orientation_states
    slots, _ = packed_unrank(arrangement, tracked, parameters, weights_at)
    orientations = np.int64(0)
    for number in range(tracked - 1, -1, -1):
        orientations |= (digits % base) << (4 * number)
        digits //= base
    for move in range(moves):
        after_slots = np.int64(0)
        after_orientations = np.int64(0)
        for number in range(tracked):
            goes = parameters[goes_at + move * movable + ((slots >> (4 * number)) & 15)]
            turned = (((orientations >> (4 * number)) & 15)
                      + parameters[gained_at + move * movable + goes]) % base
            after_slots |= goes << (4 * number)
            after_orientations |= turned << (4 * number)
        out[move] = _rank(after_slots, after_orientations, tracked, parameters, weights_at,
                          base, orientation_states)
    return moves


# IDA* on the pattern databases (``builder.contract.patterns.PatternSearch``).  A row: the
# piece in each place, the orientation of each place, then each pattern's index.
# Parameters: places, orientations, moves, patterns, the most pieces of a pattern; per
# move the place each place takes its piece from, then per move the orientation gained at
# each place; each place's slot (-1: fixed); then per pattern its number of pieces, its
# orientations ** pieces, its pieces and its arrangement's weights (padded to the most).
STEP_HEAD = 5


def piece_step(rows, depth, move, parameters):
    places = parameters[0]
    base = parameters[1]
    moves = parameters[2]
    patterns = parameters[3]
    most = parameters[4]
    taken_at = STEP_HEAD
    gained_at = taken_at + moves * places
    slot_at = gained_at + moves * places
    pattern_at = slot_at + places
    child = depth + 1
    where = np.int64(0)  # each piece's place, four bits each
    for place in range(places):
        taken = parameters[taken_at + move * places + place]
        piece = rows[depth, taken]
        rows[child, place] = piece
        rows[child, places + place] = ((rows[depth, places + taken]
                                        + parameters[gained_at + move * places + place]) % base)
        where |= np.int64(place) << (4 * piece)
    for pattern in range(patterns):
        at = pattern_at + pattern * (2 + 2 * most)
        tracked = parameters[at]
        slots = np.int64(0)
        orientations = np.int64(0)
        for number in range(tracked):
            place = (where >> (4 * parameters[at + 2 + number])) & 15
            slots |= parameters[slot_at + place] << (4 * number)
            orientations |= rows[child, places + place] << (4 * number)
        rows[child, 2 * places + pattern] = _rank(slots, orientations, tracked, parameters,
                                                  at + 2 + most, base, parameters[at + 1])
    return 1
