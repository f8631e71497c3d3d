"""Sliding-tile moves as the engine's generic kernel calls them (numba).  A position is
the tile in each cell (0 the blank), ranked by its Lehmer code; inside a call the tiles
and the code's digits are packed four bits per cell, so nothing is allocated per
position.  Parameters: (rows, columns).  Moves can be undone, so a position's neighbours
are its moves."""

from __future__ import annotations

import numpy as np
from numba import njit

from builder.contract.bits import lowest_bit, popcount
from builder.contract.patterns import compiled_step

FACTORIALS = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880], dtype=np.int64)
ALL_TILES = 0x876543210  # tile k in nibble k: the tiles not yet placed while unranking


@njit(cache=True, inline="always")
def _beside(cell, way, rows, columns):
    """The cell beside ``cell`` in direction ``way`` (0 up, 1 down, 2 left, 3 right: the
    order of the adapter's moves), or -1 off the board."""
    if way == 0:
        return cell - columns if cell >= columns else -1
    if way == 1:
        return cell + columns if cell < (rows - 1) * columns else -1
    if way == 2:
        return cell - 1 if cell % columns > 0 else -1
    return cell + 1 if cell % columns < columns - 1 else -1


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
    count = 0
    for step in range(4):
        other = _beside(blank, step, rows, columns)
        if other < 0:
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


# Pattern databases.  An abstract state is the cells of a pattern's k tiles and the least
# cell of the blank's region (the cells it reaches without moving a tracked tile: the
# other tiles move for free), ranked as an arrangement of k + 1 of the board's cells
# (``builder.contract.patterns.arrangement_rank``).  Parameters: (rows, columns, k,
# cells not in the first column, cells not in the last column (bit masks), then the
# k + 1 weights of the rank).


@njit(cache=True, inline="always")
def _region(blank, free, columns, not_first, not_last):
    """The cells of ``free`` (a mask) the blank reaches from ``blank``, as a mask."""
    found = np.int64(1) << blank
    while True:
        grown = (found | ((found << 1) & not_first) | ((found >> 1) & not_last)
                 | (found << columns) | (found >> columns)) & free
        if grown == found:
            return found
        found = grown


@njit(cache=True, inline="always")
def _arrangement_rank(packed, count, weights, offset):
    """The rank of ``count`` cells packed four bits each (first in the low bits)."""
    rank = 0
    used = np.int64(0)
    for place in range(count):
        cell = (packed >> (4 * place)) & 15
        rank += (cell - popcount(used & ((np.int64(1) << cell) - 1))) * weights[offset + place]
        used |= np.int64(1) << cell
    return rank


@njit(cache=True)
def pattern_neighbours(state, parameters, out):
    # A state whose blank is not the least cell of its region is never reached: no moves.
    rows = parameters[0]
    columns = parameters[1]
    tracked = parameters[2]
    not_first = parameters[3]
    not_last = parameters[4]
    cells = rows * columns
    full = (np.int64(1) << cells) - 1
    packed = np.int64(0)
    used = np.int64(0)
    rest = state
    for place in range(tracked + 1):
        weight = parameters[5 + place]
        digit = rest // weight
        rest -= digit * weight
        cell = 0
        while True:  # the digit-th cell not used yet
            if not (used >> cell) & 1:
                if digit == 0:
                    break
                digit -= 1
            cell += 1
        packed |= np.int64(cell) << (4 * place)
        used |= np.int64(1) << cell
    blank = (packed >> (4 * tracked)) & 15
    occupied = used & ~(np.int64(1) << blank)
    reach = _region(blank, full & ~occupied, columns, not_first, not_last)
    if lowest_bit(reach) != blank:
        return 0
    without_blank = packed & ~(np.int64(15) << (4 * tracked))
    count = 0
    for place in range(tracked):
        cell = (packed >> (4 * place)) & 15
        for way in range(4):
            other = _beside(cell, way, rows, columns)
            if other < 0 or not (reach >> other) & 1:
                continue
            moved = occupied ^ (np.int64(1) << cell) ^ (np.int64(1) << other)
            least = lowest_bit(_region(cell, full & ~moved, columns, not_first, not_last))
            after = ((without_blank & ~(np.int64(15) << (4 * place)))
                     | (np.int64(other) << (4 * place)) | (least << (4 * tracked)))
            out[count] = _arrangement_rank(after, tracked + 1, parameters, 5)
            count += 1
    return count


# IDA* on the pattern databases (``builder.contract.patterns.PatternSearch``).  A row: the
# tile in each cell (0 the blank), the cell of each tile, then the index of each pattern's
# table: the arrangement rank of its tiles' cells, for every pattern, then (with the
# reflection) for every pattern on the position reflected about the main diagonal.
# Parameters: rows, columns, patterns, reflected (0 or 1), the most tiles of a pattern;
# then per tile its pattern, per tile the tile the reflection swaps it with, per cell its
# mirror cell; per pattern its size, its tiles and its rank's weights (padded to the most).
# Moves: the blank goes up, down, left, right (the tile beside it slides down, up, right,
# left: the order of the adapter's moves).


@njit(cache=True, inline="always")
def _pattern_index(rows, child, parameters, pattern, mirrored, cells):
    patterns = parameters[2]
    most = parameters[4]
    sizes = 5 + 3 * cells
    tiles_at = sizes + patterns
    weights_at = tiles_at + patterns * most
    size = parameters[sizes + pattern]
    packed = np.int64(0)
    for place in range(size):
        tile = parameters[tiles_at + pattern * most + place]
        if mirrored:
            cell = parameters[5 + 2 * cells + rows[child, cells + parameters[5 + cells + tile]]]
        else:
            cell = rows[child, cells + tile]
        packed |= cell << (4 * place)
    return _arrangement_rank(packed, size, parameters, weights_at + pattern * most)


@compiled_step
def pattern_step(rows, depth, move, parameters):
    columns = parameters[1]
    patterns = parameters[2]
    cells = parameters[0] * columns
    blank = rows[depth, cells]
    other = _beside(blank, move, parameters[0], columns)
    if other < 0:
        return 0
    child = depth + 1
    for entry in range(rows.shape[1]):
        rows[child, entry] = rows[depth, entry]
    tile = rows[depth, other]
    rows[child, blank] = tile
    rows[child, other] = 0
    rows[child, cells + tile] = blank
    rows[child, cells] = other
    pattern = parameters[5 + tile]
    rows[child, 2 * cells + pattern] = _pattern_index(rows, child, parameters, pattern, False,
                                                      cells)
    if parameters[3]:
        mirrored = parameters[5 + parameters[5 + cells + tile]]
        rows[child, 2 * cells + patterns + mirrored] = _pattern_index(
            rows, child, parameters, mirrored, True, cells)
    return 1
