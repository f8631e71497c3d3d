"""Single-target backward breadth-first search over every (board, last click) node of a
board too large for all-pairs tables (Tricolore 4×4: 3^16 boards × 17 last clicks).

Per board the search keeps a bit mask of the last clicks already reached (uint32,
one bit per square) and the frontier of the current level in the same form.  A level
is computed by *pushing* from a small frontier (each frontier node marks its 0–2
predecessor boards through the inverse click) or by *pulling* into every board that
is not finished (a board collects the clicks whose result is in the frontier) when
the frontier is large, as in direction-optimising BFS (Beamer et al., SC 2012).

From the set S of clicks that lead into the frontier a board learns everything: its
free node (nothing forbidden) is reached when S is non-empty; node (board, last) is
reached unless S = {last}.  The outputs per board are those of the all-pairs kernel
(``multi_target_bfs``): ``clicks`` (free distance, >= 1), ``sole`` (the sole optimal
first click or never) and ``avoiding`` (distance when that click is forbidden).

Clicks are applied with per-half lookup tables (a board rank splits into two base-3
halves of rows), built by the rules module.  Imported lazily.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from builder.contract.base import never_of, unreached
from builder.contract.bits import lowest_bit, popcount


@njit(cache=True, inline="always")
def _apply(board, hits, level, full, visited, following, clicks, sole, avoiding, never):
    """Record what the clicks ``hits`` (leading into the frontier) reach at ``board``
    (``never``: an entry not set yet)."""
    if popcount(hits) >= 2:
        reachable = full
    else:
        reachable = full & ~hits
    seen = np.int64(visited[board])
    new = reachable & ~seen
    if clicks[board] == never:
        clicks[board] = level
        if hits and popcount(hits) == 1 and (seen | new) & hits == 0:
            sole[board] = lowest_bit(hits)
    elif new and sole[board] != never and (new >> np.int64(sole[board])) & 1:
        avoiding[board] = level
    visited[board] |= new
    following[board] = new
    return new != 0


@njit(cache=True, inline="always")
def square_colour(square, high, low, n_high, colour_high, colour_low):
    return colour_high[square, high] if square < n_high else colour_low[square, low]


_HALF_TABLES = "int64, int64, int64, int64, int8[:, ::1], int8[:, ::1]"
_ADVANCING = f"{_HALF_TABLES}, int32[:, :, ::1], int32[:, :, ::1]"
"""Numba's types of a level's number (or the start), the squares, then ``half_tables``'
split, high squares, colours and advances: the arguments the kernels that click forward
begin with (each kernel is compiled for its one signature when this module is imported,
which the 4x4 tables' build does)."""
_RETREATING = f"{_HALF_TABLES}, int32[:, :, :, ::1], int32[:, :, :, ::1]"
"""The same with ``half_tables``' retreats, for the kernels that undo clicks."""


@njit(cache=True, inline="always")
def click_rank(board, square, split, n_high, colour_low, colour_high, advance_low, advance_high):
    high, low = board // split, board % split
    colour = square_colour(square, high, low, n_high, colour_high, colour_low)
    return advance_high[square, colour, high] * split + advance_low[square, colour, low]


@njit(f"({_ADVANCING}, uint16[::1], uint64[::1], uint16[::1], uint16[::1], uint8[::1], "
      "uint8[::1], uint8[::1], uint8[::1], uint8)",
      cache=True, nogil=True, parallel=True)
def _pull_level(level, n_squares, split, n_high, colour_low, colour_high, advance_low, advance_high,
                frontier, occupied, visited, following, clicks, sole, avoiding, progressed, never):
    n_boards = visited.shape[0]
    full = np.int64((1 << n_squares) - 1)
    chunk = 1 << 16
    for block in prange((n_boards + chunk - 1) // chunk):
        any_new = False
        for board in range(block * chunk, min(n_boards, (block + 1) * chunk)):
            following[board] = 0
            if np.int64(visited[board]) == full and clicks[board] != never:
                continue
            hits = np.int64(0)
            found = 0
            high, low = board // split, board % split  # once per board, not per click
            for square in range(n_squares):
                colour = square_colour(square, high, low, n_high, colour_high, colour_low)
                result = (advance_high[square, colour, high] * split
                          + advance_low[square, colour, low])
                # the bitmap (one bit per board) stays in cache; the masks do not
                if not (occupied[result >> 6] >> np.uint64(result & 63)) & np.uint64(1):
                    continue
                if (np.int64(frontier[result]) >> square) & 1:
                    hits |= 1 << square
                    found += 1
                    if found == 2:  # two clicks lead in: every node of the board is reached
                        break
            if hits:
                any_new |= _apply(board, hits, level, full, visited, following, clicks, sole,
                                  avoiding, never)
        if any_new:
            progressed[block] = 1


@njit(cache=True, inline="always")
def mark_predecessors(board, mask, split, n_high, colour_low, colour_high, retreat_low,
                      retreat_high, hits, touched, n_touched):
    """For each click c in ``mask`` (the frontier nodes (board, c)), set bit c in ``hits``
    of every board that click c turns into ``board`` (0 to 2 of them, through the inverse
    click); boards hit for the first time are listed in ``touched``.  Returns the new
    length of that list."""
    high, low = board // split, board % split
    while mask:
        square = lowest_bit(mask)
        mask &= mask - 1
        colour = square_colour(square, high, low, n_high, colour_high, colour_low)
        # After a click the square is white (it was red, or white) or red (it was blue).
        for case in range(2):
            before = retreat_high[square, colour, case, high]
            if before < 0:
                continue
            predecessor = before * split + retreat_low[square, colour, case, low]
            if hits[predecessor] == 0:
                touched[n_touched] = predecessor
                n_touched += 1
            hits[predecessor] |= 1 << square
    return n_touched


@njit(f"({_RETREATING}, uint16[::1], uint16[::1], uint16[::1], uint8[::1], uint8[::1], "
      "uint8[::1], uint16[::1], uint8)",
      cache=True, nogil=True)
def _push_level(level, n_squares, split, n_high, colour_low, colour_high, retreat_low, retreat_high,
                frontier, visited, following, clicks, sole, avoiding, hits, never):
    n_boards = visited.shape[0]
    full = np.int64((1 << n_squares) - 1)
    touched = np.empty(n_boards, dtype=np.int64)
    n_touched = 0
    for board in range(n_boards):
        mask = np.int64(frontier[board])
        if mask == 0:
            continue
        n_touched = mark_predecessors(board, mask, split, n_high, colour_low, colour_high,
                                      retreat_low, retreat_high, hits, touched, n_touched)
    for board in range(n_boards):
        following[board] = 0
    progressed = False
    for index in range(n_touched):
        predecessor = touched[index]
        progressed |= _apply(predecessor, np.int64(hits[predecessor]), level, full, visited, following,
                             clicks, sole, avoiding, never)
        hits[predecessor] = 0
    return progressed


def search_target(tables, target: int, progress=None):
    """Backward BFS from ``target`` over every node; returns (clicks, sole, avoiding).

    ``tables`` are the per-half click tables of ``Tricolore.half_tables()``;
    ``progress(level, reached_boards)`` is called after each level.
    """
    n_squares, split, n_high = tables["n_squares"], tables["split"], tables["n_high"]
    n_boards = tables["n_boards"]
    mask_type = np.uint16 if n_squares <= 16 else np.uint32
    visited = np.zeros(n_boards, dtype=mask_type)
    frontier = np.zeros(n_boards, dtype=mask_type)
    following = np.zeros(n_boards, dtype=mask_type)
    hits = np.zeros(n_boards, dtype=mask_type)
    clicks, sole, avoiding = (unreached(n_boards) for _ in range(3))
    never = clicks.dtype.type(never_of(clicks))  # the kernels' signatures type it so
    full = (1 << n_squares) - 1
    visited[target] = full
    frontier[target] = full
    frontier_nodes = n_squares
    level = 0
    progressed_blocks = np.zeros((n_boards + (1 << 16) - 1) >> 16, dtype=np.uint8)
    occupied = np.zeros((n_boards + 63) // 64, dtype=np.uint64)
    _count_nodes(frontier, occupied)
    while True:
        level += 1
        if level >= never:
            raise OverflowError(f"search deeper than {never - 1} levels")
        if frontier_nodes * 2 < n_boards:
            progressed = _push_level(
                level, n_squares, split, n_high, tables["colour_low"], tables["colour_high"],
                tables["retreat_low"], tables["retreat_high"], frontier, visited, following,
                clicks, sole, avoiding, hits, never,
            )
        else:
            progressed_blocks[:] = 0
            _pull_level(
                level, n_squares, split, n_high, tables["colour_low"], tables["colour_high"],
                tables["advance_low"], tables["advance_high"], frontier, occupied, visited, following,
                clicks, sole, avoiding, progressed_blocks, never,
            )
            progressed = bool(progressed_blocks.any())
        if not progressed:
            break
        frontier, following = following, frontier
        frontier_nodes = int(_count_nodes(frontier, occupied))
        if progress is not None:
            progress(level, frontier_nodes)
    return clicks, sole, avoiding


@njit("(uint16[::1], uint64[::1])", cache=True, nogil=True, parallel=True)
def _count_nodes(masks, occupied):
    """Frontier nodes, and the bitmap of boards that have any."""
    n_words = occupied.shape[0]
    total = 0
    for word in prange(n_words):
        bits = np.uint64(0)
        for board in range(word * 64, min(masks.shape[0], word * 64 + 64)):
            mask = np.int64(masks[board])
            if mask:
                total += popcount(mask)
                bits |= np.uint64(1) << np.uint64(board - word * 64)
        occupied[word] = bits
    return total


@njit(f"({_ADVANCING}, uint16[::1], uint16[::1], uint16[::1])",
      cache=True, nogil=True)
def _forward_levels(start, n_squares, split, n_high, colour_low, colour_high, advance_low,
                    advance_high, visited, frontier, following):
    n_boards = visited.shape[0]
    full = np.int64((1 << n_squares) - 1)
    # the start node has no last click: every click is allowed from it
    for square in range(n_squares):
        result = click_rank(start, square, split, n_high, colour_low, colour_high, advance_low,
                        advance_high)
        visited[result] |= 1 << square
        frontier[result] |= 1 << square
    levels = 1
    while True:
        progressed = False
        for board in range(n_boards):
            following[board] = 0
        for board in range(n_boards):
            mask = np.int64(frontier[board])
            if mask == 0:
                continue
            for square in range(n_squares):
                if mask & ~(np.int64(1) << square) & full == 0:
                    continue  # the only frontier node here was reached by this square
                result = click_rank(board, square, split, n_high, colour_low, colour_high,
                                advance_low, advance_high)
                bit = np.int64(1) << square
                if not np.int64(visited[result]) & bit:
                    visited[result] |= bit
                    following[result] |= bit
                    progressed = True
        if not progressed:
            return levels
        levels += 1
        frontier, following = following, frontier


def forward_reachable(tables, start: int) -> np.ndarray:
    """Boards reachable from ``start`` by one or more clicks (plain forward search over
    every (board, last click) node); returns a bool array over boards."""
    n_boards = tables["n_boards"]
    mask_type = np.uint16 if tables["n_squares"] <= 16 else np.uint32
    visited = np.zeros(n_boards, dtype=mask_type)
    _forward_levels(
        start, tables["n_squares"], tables["split"], tables["n_high"], tables["colour_low"],
        tables["colour_high"], tables["advance_low"], tables["advance_high"], visited,
        np.zeros(n_boards, dtype=mask_type), np.zeros(n_boards, dtype=mask_type),
    )
    return visited != 0
