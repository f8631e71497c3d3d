"""Klotski's moves on keys, written once, in plain Python: the engine compiles them for
the sparse search and the walk runs them as Python, each move named by
``rules.move_name``; nothing is allocated per block.  A key holds three bits per cell
(``rules.BITS``): the shape anchored there, ``EMPTY`` or ``COVERED``.  Moves can be
undone, so the moves are also the moves undone."""

from __future__ import annotations

import numpy as np

from puzzles.klotski.rules import (
    BITS,
    CELLS,
    COVERED,
    EMPTY,
    GOAL_CELL,
    HEIGHT,
    SQUARE,
    WIDTH,
)

_WIDTHS = np.array([0, 1, 1, 2, 2, 0], dtype=np.int64)
_HEIGHTS = np.array([0, 1, 2, 1, 2, 0], dtype=np.int64)
_STEPS = np.array([-WIDTH, WIDTH, -1, 1], dtype=np.int64)


def _cell_of(key, cell):
    return (key >> (BITS * cell)) & 7


def _footprint(anchor, shape):
    """The block's cells as a bit mask over the board."""
    mask = 0
    for row in range(_HEIGHTS[shape]):
        for column in range(_WIDTHS[shape]):
            mask |= 1 << (anchor + row * WIDTH + column)
    return mask


def _step(place, shape, direction, free):
    """Where one step of a block at ``place`` goes (-1: off the board or blocked)."""
    column = place % WIDTH
    if direction == 2 and column == 0:
        return -1
    if direction == 3 and column + _WIDTHS[shape] >= WIDTH:
        return -1
    to = place + _STEPS[direction]
    if to < 0 or to // WIDTH + _HEIGHTS[shape] > HEIGHT:
        return -1
    footprint = _footprint(to, shape)
    return to if footprint & free == footprint else -1


def _moved(key, anchor, shape, to):
    """The key with the block at ``anchor`` moved to ``to``."""
    for cell in range(CELLS):
        if (_footprint(anchor, shape) >> cell) & 1:
            key &= ~(7 << (BITS * cell))  # EMPTY is 0
    for cell in range(CELLS):
        if (_footprint(to, shape) >> cell) & 1:
            key |= COVERED << (BITS * cell)
    key &= ~(7 << (BITS * to))
    return key | (shape << (BITS * to))


def _empty_cells(key):
    free = 0
    for cell in range(CELLS):
        if _cell_of(key, cell) == EMPTY:
            free |= 1 << cell
    return free


def cell_moves(key, parameters, out):
    """One block one cell."""
    empty = _empty_cells(key)
    count = 0
    for anchor in range(CELLS):
        shape = _cell_of(key, anchor)
        if shape == EMPTY or shape == COVERED:
            continue
        free = empty | _footprint(anchor, shape)
        for direction in range(4):
            to = _step(anchor, shape, direction, free)
            if to >= 0 and count < len(out):
                out[count] = _moved(key, anchor, shape, to)
                count += 1
    return count


def block_moves(key, parameters, out):
    """One block to every place it reaches along free cells (corners too)."""
    empty = _empty_cells(key)
    count = 0
    queue = np.empty(CELLS, np.int64)
    for anchor in range(CELLS):
        shape = _cell_of(key, anchor)
        if shape == EMPTY or shape == COVERED:
            continue
        free = empty | _footprint(anchor, shape)
        reached = 1 << anchor
        queue[0] = anchor
        tail = 1
        head = 0
        while head < tail:
            place = queue[head]
            head += 1
            for direction in range(4):
                to = _step(place, shape, direction, free)
                if to >= 0 and not (reached >> to) & 1:
                    reached |= 1 << to
                    queue[tail] = to
                    tail += 1
                    if count < len(out):
                        out[count] = _moved(key, anchor, shape, to)
                        count += 1
    return count


def at_goal(keys: np.ndarray, parameters) -> np.ndarray:
    """Which keys have the 2×2 block's top-left cell at the goal cell."""
    return ((np.asarray(keys) >> (BITS * GOAL_CELL)) & 7) == SQUARE
