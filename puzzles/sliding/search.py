"""Sliding-tile moves as the engine's kernels call them: plain Python in the subset numba
compiles, which the engine compiles with the helpers here and ``rules.beside`` (the moves,
written once, that the walk runs as Python), so that importing this module imports no
numba.  A position is the tile in each cell (0 the blank), ranked by its Lehmer code;
inside a call the tiles and the code's digits are packed four bits per cell, so nothing
is allocated per position.  Parameters: (rows, columns).  Moves can be undone, so a
position's neighbours are its moves."""

from __future__ import annotations

import numpy as np

from builder.contract.patterns import count_bits, packed_rank, packed_unrank
from puzzles.sliding.rules import beside

FACTORIALS = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880], dtype=np.int64)
ALL_TILES = 0x876543210  # tile k in nibble k: the tiles not yet placed while unranking


def _lowest_bit(mask):
    """The index of the lowest set bit of a non-zero mask: the bits below it counted."""
    return count_bits((mask & -mask) - 1)


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
        other = beside(blank, step, rows, columns)
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


def _region(blank, free, columns, not_first, not_last):
    """The cells of ``free`` (a mask) the blank reaches from ``blank``, as a mask."""
    found = np.int64(1) << blank
    while True:
        grown = (found | ((found << 1) & not_first) | ((found >> 1) & not_last)
                 | (found << columns) | (found >> columns)) & free
        if grown == found:
            return found
        found = grown


def pattern_neighbours(state, parameters, out):
    # A state whose blank is not the least cell of its region is never reached: no moves.
    rows = parameters[0]
    columns = parameters[1]
    tracked = parameters[2]
    not_first = parameters[3]
    not_last = parameters[4]
    cells = rows * columns
    full = (np.int64(1) << cells) - 1
    packed, used = packed_unrank(state, tracked + 1, parameters, 5)
    blank = (packed >> (4 * tracked)) & 15
    occupied = used & ~(np.int64(1) << blank)
    reach = _region(blank, full & ~occupied, columns, not_first, not_last)
    if _lowest_bit(reach) != blank:
        return 0
    without_blank = packed & ~(np.int64(15) << (4 * tracked))
    count = 0
    for place in range(tracked):
        cell = (packed >> (4 * place)) & 15
        for way in range(4):
            other = beside(cell, way, rows, columns)
            if other < 0 or not (reach >> other) & 1:
                continue
            moved = occupied ^ (np.int64(1) << cell) ^ (np.int64(1) << other)
            least = _lowest_bit(_region(cell, full & ~moved, columns, not_first, not_last))
            after = ((without_blank & ~(np.int64(15) << (4 * place)))
                     | (np.int64(other) << (4 * place)) | (least << (4 * tracked)))
            out[count] = packed_rank(after, tracked + 1, parameters, 5)
            count += 1
    return count


# IDA* on the pattern databases (``builder.contract.patterns.PatternSearch``).  A row: the
# tile in each cell (0 the blank), the cell of each tile, then the index of each pattern's
# table (the arrangement rank of its tiles' cells) for every pattern, then with the
# reflection for every pattern on the position reflected about the main diagonal, then with
# the dual look-ups for every pattern on the dual of the position (``tables.py``), and with
# both on the dual of the reflected position.  A dual look-up the position's blank cell
# does not allow reads the goal's entry (0).
# Parameters (``_layout``): rows, columns, patterns, reflected (0 or 1), dual (0 or 1), the
# most tiles of a pattern; per tile its pattern, the tile the reflection swaps it with;
# per cell its mirror cell, the pattern of the goal's tile there, the goal's cell of the tile
# numbered as the cell; per pattern its size, its tiles, their goal cells and its rank's
# weights (padded to the most), the blank cells its dual look-up allows (a mask) and its
# goal's index.  Moves: the blank goes up, down, left, right (the tile beside it slides
# down, up, right, left: the order of the adapter's moves).
HEAD = 6


def _layout(cells, patterns, most):
    """Where each part of the parameters starts: tiles' patterns, tiles' mirrors, cells'
    mirrors, cells' patterns, goal cells, sizes, tiles, tiles' goal cells, weights, dual
    masks, goal indices."""
    pattern_of = HEAD
    tile_map = pattern_of + cells
    cell_map = tile_map + cells
    cell_pattern = cell_map + cells
    home = cell_pattern + cells
    sizes = home + cells
    tiles = sizes + patterns
    homes = tiles + patterns * most
    weights = homes + patterns * most
    allowed = weights + patterns * most
    goals = allowed + patterns
    return pattern_of, tile_map, cell_map, cell_pattern, home, sizes, tiles, homes, weights, \
        allowed, goals


def _pattern_index(rows, child, parameters, pattern, mirrored, cells):
    """The index of ``pattern``'s table on the child's position (or its reflection): the
    rank of its tiles' cells."""
    patterns = parameters[2]
    most = parameters[5]
    (_, tile_map, cell_map, _, _, sizes, tiles, _, weights, _, _) = _layout(cells, patterns,
                                                                            most)
    size = parameters[sizes + pattern]
    packed = np.int64(0)
    for place in range(size):
        tile = parameters[tiles + pattern * most + place]
        if mirrored:
            cell = parameters[cell_map + rows[child, cells + parameters[tile_map + tile]]]
        else:
            cell = rows[child, cells + tile]
        packed |= cell << (4 * place)
    return packed_rank(packed, size, parameters, weights + pattern * most)


def _dual_index(rows, child, parameters, pattern, mirrored, blank, cells):
    """The index of ``pattern``'s table on the dual of the child's position (or of its
    reflection, whose blank is then at ``blank``): its tile whose goal cell is c stands
    at the goal cell of the tile in cell c.  The goal's index where the blank's cell does
    not allow the look-up."""
    patterns = parameters[2]
    most = parameters[5]
    (_, tile_map, cell_map, _, home, sizes, _, homes, weights, allowed, goals) = _layout(
        cells, patterns, most)
    if not (parameters[allowed + pattern] >> blank) & 1:
        return parameters[goals + pattern]
    size = parameters[sizes + pattern]
    packed = np.int64(0)
    for place in range(size):
        goal_cell = parameters[homes + pattern * most + place]
        if mirrored:
            tile = parameters[tile_map + rows[child, parameters[cell_map + goal_cell]]]
        else:
            tile = rows[child, goal_cell]
        packed |= parameters[home + tile] << (4 * place)
    return packed_rank(packed, size, parameters, weights + pattern * most)


def pattern_step(rows, depth, move, parameters):
    columns = parameters[1]
    patterns = parameters[2]
    cells = parameters[0] * columns
    blank = rows[depth, cells]
    other = beside(blank, move, parameters[0], columns)
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
    (pattern_of, tile_map, cell_map, cell_pattern, _, _, _, _, _, _, _) = _layout(
        cells, patterns, parameters[5])
    at = 2 * cells
    pattern = parameters[pattern_of + tile]
    rows[child, at + pattern] = _pattern_index(rows, child, parameters, pattern, False, cells)
    if parameters[3]:
        at += patterns
        mirrored = parameters[pattern_of + parameters[tile_map + tile]]
        rows[child, at + mirrored] = _pattern_index(rows, child, parameters, mirrored, True,
                                                    cells)
    if parameters[4]:
        # the dual reads the tiles in a pattern's goal cells: only the patterns of the two
        # cells the move changed have a new index (and the blank's new cell decides whether
        # their look-up is allowed; the others' stays, the two cells being neighbours)
        at += patterns
        for cell in (blank, other):
            changed = parameters[cell_pattern + cell]
            if changed >= 0:
                rows[child, at + changed] = _dual_index(rows, child, parameters, changed,
                                                        False, other, cells)
        if parameters[3]:
            at += patterns
            for cell in (blank, other):
                changed = parameters[cell_pattern + parameters[cell_map + cell]]
                if changed >= 0:
                    rows[child, at + changed] = _dual_index(
                        rows, child, parameters, changed, True, parameters[cell_map + other],
                        cells)
    return 1
