"""The 2×2×2 cube's pattern databases' kernels: the moves of a pattern's abstract states
for the breadth-first search of its database (plain Python the engine compiles), and the
step of IDA* on the databases (compiled when this module is imported, with the tables'
build).  Parameters: ``(quarter, ...)``: 1 for the quarter-turn metric."""

from __future__ import annotations

import numpy as np

from builder.contract.bits import popcount
from builder.contract.patterns import compiled_step
from puzzles.cube.rules import MOVABLE, turn_effect

# Pattern databases.  A pattern sees the places and twists of a few corners
# (``rules.pattern_rank``): each corner's slot (its place's number among ``rules.MOVABLE``)
# and twist, packed four and two bits per corner.  A move is numbered as the adapter lists
# it: face by face (U, R, F), each a quarter turn, a half turn (half metric only) and a
# quarter turn back; ``_EFFECT`` gives each as one turn of the tables below.

_EFFECTS = [turn_effect(face, times) for face in "URF" for times in (1, 2, 3)]
_MOVE_TAKEN = np.array([taken for taken, _ in _EFFECTS], dtype=np.int64)
_MOVE_GAINED = np.array([gained for _, gained in _EFFECTS], dtype=np.int64)
_MOVE_GOES = np.array([[taken.index(place) for place in range(8)] for taken, _ in _EFFECTS],
                      dtype=np.int64)  # where each place's corner goes
_SLOT_OF = np.array([MOVABLE.index(place) if place in MOVABLE else -1 for place in range(8)],
                    dtype=np.int64)
_PLACE_OF = np.array(MOVABLE, dtype=np.int64)


def _effect(move, quarter):
    """The row of the move tables of move number ``move``."""
    if quarter:
        return (move >> 1) * 3 + 2 * (move & 1)
    return move


def _pattern_rank(slots, twists, tracked, weights, offset, twist_states):
    """The rank of ``tracked`` corners' slots and twists (packed, the first corner in the
    low bits), the arrangement's weights at ``weights[offset:]``."""
    rank = 0
    used = np.int64(0)
    twist = 0
    for number in range(tracked):
        slot = (slots >> (4 * number)) & 15
        rank += (slot - popcount(used & ((np.int64(1) << slot) - 1))) * weights[offset + number]
        used |= np.int64(1) << slot
        twist = 3 * twist + ((twists >> (2 * number)) & 3)
    return rank * twist_states + twist


def corner_neighbours(state, parameters, out):
    # Parameters: (quarter, corners tracked, 3 ** corners, the arrangement's weights).
    # The moves can be undone: a state's neighbours are its moves.
    quarter = parameters[0]
    tracked = parameters[1]
    twist_states = parameters[2]
    arrangement = state // twist_states
    twist = state - arrangement * twist_states
    slots = np.int64(0)
    twists = np.int64(0)
    used = np.int64(0)
    for number in range(tracked):
        weight = parameters[3 + number]
        digit = arrangement // weight
        arrangement -= digit * weight
        slot = 0
        while True:  # the digit-th slot not used yet
            if not (used >> slot) & 1:
                if digit == 0:
                    break
                digit -= 1
            slot += 1
        used |= np.int64(1) << slot
        slots |= np.int64(slot) << (4 * number)
    for number in range(tracked - 1, -1, -1):
        twists |= (twist % 3) << (2 * number)
        twist //= 3
    moves = 6 if quarter else 9
    for move in range(moves):
        effect = _effect(move, quarter)
        after_slots = np.int64(0)
        after_twists = np.int64(0)
        for number in range(tracked):
            goes = _MOVE_GOES[effect, _PLACE_OF[(slots >> (4 * number)) & 15]]
            turned = ((twists >> (2 * number)) & 3) + _MOVE_GAINED[effect, goes]
            if turned >= 3:
                turned -= 3
            after_slots |= _SLOT_OF[goes] << (4 * number)
            after_twists |= turned << (2 * number)
        out[move] = _pattern_rank(after_slots, after_twists, tracked, parameters, 3,
                                  twist_states)
    return moves


# IDA* on the pattern databases (``builder.contract.patterns.PatternSearch``).  A row: the
# corner in each place, the twist of each place, then each pattern's index.  Parameters:
# (quarter, patterns, the most corners of a pattern), then per pattern its number of
# corners, its 3 ** corners, its corners and its arrangement's weights (padded to the most).


@compiled_step
def pattern_step(rows, depth, move, parameters):
    quarter = parameters[0]
    patterns = parameters[1]
    most = parameters[2]
    effect = _effect(move, quarter)
    child = depth + 1
    for place in range(8):
        taken = _MOVE_TAKEN[effect, place]
        rows[child, place] = rows[depth, taken]
        twist = rows[depth, 8 + taken] + _MOVE_GAINED[effect, place]
        rows[child, 8 + place] = twist - 3 if twist >= 3 else twist
    where = np.int64(0)  # each corner's place, four bits each
    for place in range(8):
        where |= np.int64(place) << (4 * rows[child, place])
    corners_at = 3 + 2 * patterns
    weights_at = corners_at + patterns * most
    for pattern in range(patterns):
        tracked = parameters[3 + pattern]
        slots = np.int64(0)
        twists = np.int64(0)
        for number in range(tracked):
            place = (where >> (4 * parameters[corners_at + pattern * most + number])) & 15
            slots |= _SLOT_OF[place] << (4 * number)
            twists |= rows[child, 8 + place] << (2 * number)
        rows[child, 16 + pattern] = _pattern_rank(slots, twists, tracked, parameters,
                                                  weights_at + pattern * most,
                                                  parameters[3 + patterns + pattern])
    return 1
