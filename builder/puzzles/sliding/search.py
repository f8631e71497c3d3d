"""Sliding-tile moves as the engine's generic kernel calls them (numba).  A position is
the tile in each cell (0 the blank), ranked by its Lehmer code; inside a call it is
packed four bits per cell, so nothing is allocated per position.  Parameters: (rows,
columns).  Moves can be undone, so a position's neighbours are its moves."""

from __future__ import annotations

import numpy as np
from numba import njit

FACTORIALS = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880], dtype=np.int64)
BITS_BELOW = np.array([mask.bit_count() for mask in range(1 << 9)], dtype=np.int64)


@njit(cache=True, inline="always")
def _unrank(rank, cells):
    used = 0
    packed = 0
    for cell in range(cells):
        place = FACTORIALS[cells - 1 - cell]
        skip = rank // place
        rank -= skip * place
        tile = 0
        while True:
            if not (used >> tile) & 1:
                if skip == 0:
                    break
                skip -= 1
            tile += 1
        used |= 1 << tile
        packed |= tile << (4 * cell)
    return packed


@njit(cache=True, inline="always")
def _rank(packed, cells):
    used = 0
    rank = 0
    for cell in range(cells):
        tile = (packed >> (4 * cell)) & 15
        rank += (tile - BITS_BELOW[used & ((1 << tile) - 1)]) * FACTORIALS[cells - 1 - cell]
        used |= 1 << tile
    return rank


@njit(cache=True)
def sliding_moves(position, parameters, out):
    rows = parameters[0]
    columns = parameters[1]
    cells = rows * columns
    packed = _unrank(position, cells)
    blank = 0
    while (packed >> (4 * blank)) & 15:
        blank += 1
    row = blank // columns
    column = blank % columns
    count = 0
    for step in range(4):
        if step == 0 and row > 0:
            other = blank - columns
        elif step == 1 and row < rows - 1:
            other = blank + columns
        elif step == 2 and column > 0:
            other = blank - 1
        elif step == 3 and column < columns - 1:
            other = blank + 1
        else:
            continue
        tile = (packed >> (4 * other)) & 15
        # the tile slides into the blank's cell; the blank takes its place
        moved = (packed & ~(15 << (4 * other))) | (tile << (4 * blank))
        out[count] = _rank(moved, cells)
        count += 1
    return count
