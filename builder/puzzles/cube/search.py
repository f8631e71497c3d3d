"""The 2×2×2 cube's moves on keys, for the engine's sparse search (numba): the same turns
as ``rules.turned`` (a test checks the tables are identical).  A key holds the corner in
each place (3 bits each) and then each place's twist (2 bits each).  Parameters:
``(quarter,)``: 1 for the quarter-turn metric.  Turns can be undone, so the moves are
also the moves undone."""

from __future__ import annotations

import numpy as np
from numba import njit

from builder.puzzles.cube.rules import TURNS

_TAKEN = np.array([TURNS[face][0] for face in "URF"], dtype=np.int64)
_GAINED = np.array([TURNS[face][1] for face in "URF"], dtype=np.int64)


@njit(cache=True)
def cube_moves(key, parameters, out):
    quarter = parameters[0]
    count = 0
    for face in range(3):
        places = np.empty(8, np.int64)
        twists = np.empty(8, np.int64)
        for place in range(8):
            places[place] = (key >> (3 * place)) & 7
            twists[place] = (key >> (24 + 2 * place)) & 3
        for times in range(1, 4):
            after_places = np.empty(8, np.int64)
            after_twists = np.empty(8, np.int64)
            for place in range(8):
                taken = _TAKEN[face, place]
                after_places[place] = places[taken]
                after_twists[place] = (twists[taken] + _GAINED[face, place]) % 3
            places, twists = after_places, after_twists
            if quarter and times == 2:
                continue
            moved = 0
            for place in range(8):
                moved |= (places[place] << (3 * place)) | (twists[place] << (24 + 2 * place))
            out[count] = moved
            count += 1
    return count
