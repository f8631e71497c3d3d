"""Peg solitaire's jumps on keys, for the engine's sparse search: the same jumps as
``rules.jumps`` and ``rules.unjumps``, each position after a jump written as its key (the
least of its eight images, as ``rules.canonical``), in plain Python that the engine
compiles.  An image is made from lookup tables of seven holes at a time, so a key costs
40 look-ups, not 264 bit moves."""

from __future__ import annotations

import numpy as np
from puzzles.pegs.rules import HOLES, IMAGES, JUMPS

_JUMPS = np.array(JUMPS, dtype=np.int64)
_PIECES = (HOLES + 6) // 7


def _image_tables() -> np.ndarray:
    tables = np.zeros((len(IMAGES), _PIECES, 128), dtype=np.int64)
    for symmetry, images in enumerate(IMAGES):
        for piece in range(_PIECES):
            for value in range(128):
                for bit in range(7):
                    hole = 7 * piece + bit
                    if value >> bit & 1 and hole < HOLES:
                        tables[symmetry, piece, value] |= 1 << images[hole]
    return tables


_IMAGE = _image_tables()


def _key(mask):
    best = -1
    for symmetry in range(_IMAGE.shape[0]):
        image = 0
        for piece in range(_IMAGE.shape[1]):
            image |= _IMAGE[symmetry, piece, (mask >> (7 * piece)) & 127]
        if best < 0 or image < best:
            best = image
    return best


def jumps(key, parameters, out):
    count = 0
    for j in range(_JUMPS.shape[0]):
        start, over, to = _JUMPS[j, 0], _JUMPS[j, 1], _JUMPS[j, 2]
        if (key >> start) & 1 and (key >> over) & 1 and not (key >> to) & 1:
            out[count] = _key(key ^ ((1 << start) | (1 << over) | (1 << to)))
            count += 1
    return count


def unjumps(key, parameters, out):
    count = 0
    for j in range(_JUMPS.shape[0]):
        start, over, to = _JUMPS[j, 0], _JUMPS[j, 1], _JUMPS[j, 2]
        if not (key >> start) & 1 and not (key >> over) & 1 and (key >> to) & 1:
            out[count] = _key(key ^ ((1 << start) | (1 << over) | (1 << to)))
            count += 1
    return count


