"""Sliding-tile moves as the engine's generic kernel calls them (numba).  A position is
the tile in each cell (0 the blank), ranked by its Lehmer code; inside a call the tiles
and the code's digits are packed four bits per cell, so nothing is allocated per
position.  Parameters: (rows, columns).  Moves can be undone, so a position's neighbours
are its moves."""

from __future__ import annotations

import numpy as np
from numba import njit

FACTORIALS = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880], dtype=np.int64)
ALL_TILES = 0x876543210  # tile k in nibble k: the tiles not yet placed while unranking


@njit(cache=True, inline="always")
def _unrank(rank, cells):
    """(tiles, digits): the tile in each cell and the Lehmer digit of each cell (how many
    later cells hold a smaller tile), both four bits per cell."""
    unused = ALL_TILES
    tiles = 0
    digits = 0
    for cell in range(cells):
        place = FACTORIALS[cells - 1 - cell]
        digit = rank // place
        rank -= digit * place
        shift = 4 * digit
        tiles |= ((unused >> shift) & 15) << (4 * cell)
        digits |= digit << (4 * cell)
        unused = (unused & ((1 << shift) - 1)) | ((unused >> (shift + 4)) << shift)
    return tiles, digits


@njit(cache=True)
def sliding_moves(position, parameters, out):
    # A move swaps the blank (tile 0, the smallest) with a tile t; only the two cells and
    # the cells between them change digit (those between gain one when they hold a tile
    # below t), so each neighbour's rank is this one's plus a short sum.
    rows = parameters[0]
    columns = parameters[1]
    cells = rows * columns
    tiles, digits = _unrank(position, cells)
    blank = 0
    while (tiles >> (4 * blank)) & 15:
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
        tile = (tiles >> (4 * other)) & 15
        low = min(blank, other)
        high = max(blank, other)
        between = 0
        weight = 0
        for cell in range(low + 1, high):
            if ((tiles >> (4 * cell)) & 15) < tile:
                between += 1
                weight += FACTORIALS[cells - 1 - cell]
        if blank == low:
            # the tile moves back to `low`: it passes over `between` smaller tiles
            after = (digits >> (4 * high)) & 15  # smaller tiles after `high`
            step_rank = (weight + (between + 1 + after) * FACTORIALS[cells - 1 - low]
                         - after * FACTORIALS[cells - 1 - high])
        else:
            # the reverse move, from the position with the blank at `low`
            after = ((digits >> (4 * low)) & 15) - between - 1
            step_rank = -(weight + (between + 1 + after) * FACTORIALS[cells - 1 - low]
                          - after * FACTORIALS[cells - 1 - high])
        out[count] = position + step_rank
        count += 1
    return count
