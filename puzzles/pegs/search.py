"""Peg solitaire's jumps and its key, each written once, in plain Python that the engine
compiles for the sparse search (``KeyKernel(jumps, ..., canonical=canonical)``: every
position a jump reaches made its key) and that the adapter runs as Python for the walk,
the moves undone and ``encode``.  An image is made from lookup tables of seven holes at a
time, so a key costs 40 look-ups, not 264 bit moves."""

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


def canonical(mask):
    """A position's key: the least of its eight images' masks."""
    best = -1
    for symmetry in range(_IMAGE.shape[0]):
        image = 0
        for piece in range(_IMAGE.shape[1]):
            image |= _IMAGE[symmetry, piece, (mask >> (7 * piece)) & 127]
        if best < 0 or image < best:
            best = image
    return best


def jumps(mask, parameters, out):
    """Every position one jump from ``mask``: a peg over a neighbouring peg into the empty
    hole beyond, the peg jumped over removed."""
    count = 0
    for j in range(_JUMPS.shape[0]):
        start, over, to = _JUMPS[j, 0], _JUMPS[j, 1], _JUMPS[j, 2]
        if (mask >> start) & 1 and (mask >> over) & 1 and not (mask >> to) & 1:
            out[count] = mask ^ ((1 << start) | (1 << over) | (1 << to))
            count += 1
    return count


def unjumps(mask, parameters, out):
    """Every position one jump before ``mask`` (jumps cannot be undone)."""
    count = 0
    for j in range(_JUMPS.shape[0]):
        start, over, to = _JUMPS[j, 0], _JUMPS[j, 1], _JUMPS[j, 2]
        if not (mask >> start) & 1 and not (mask >> over) & 1 and (mask >> to) & 1:
            out[count] = mask ^ ((1 << start) | (1 << over) | (1 << to))
            count += 1
    return count
