"""The 2×2×2 cube's moves on keys, in plain Python (no numba here): compiled by the
engine for the sparse search, and run as Python for the walk, written once from
the turns' tables in ``rules``.  A key holds the corner in each place (3 bits each) and
then each place's twist (2 bits each).  Parameters: ``(quarter,)``: 1 for the quarter-turn
metric.  Turns can be undone, so the moves are also the moves undone.  The pattern
databases' kernels are ``patterns.py``."""

from __future__ import annotations

import numpy as np

from puzzles.cube.rules import TURNS

_TAKEN = np.array([TURNS[face][0] for face in "URF"], dtype=np.int64)
_GAINED = np.array([TURNS[face][1] for face in "URF"], dtype=np.int64)


def _quarter_turn(key, face):
    """The key after a quarter turn of ``face`` (0 U, 1 R, 2 F), bit fields read in place
    (nothing allocated: this runs millions of times)."""
    turned = 0
    for place in range(8):
        taken = _TAKEN[face, place]
        corner = (key >> (3 * taken)) & 7
        twist = ((key >> (24 + 2 * taken)) & 3) + _GAINED[face, place]
        if twist >= 3:
            twist -= 3
        turned |= (corner << (3 * place)) | (twist << (24 + 2 * place))
    return turned


def cube_moves(key, parameters, out):
    quarter = parameters[0]
    count = 0
    for face in range(3):
        turned = key
        for times in range(1, 4):
            turned = _quarter_turn(turned, face)
            if quarter and times == 2:
                continue
            out[count] = turned
            count += 1
    return count
