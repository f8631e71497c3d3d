"""Sliding tiles' positions: boards, Lehmer ranking and parity.

The rules alone (board sizes, ranking, parity); the adapter ``__init__.py`` declares the
tables and the moves the engine walks.
"""

from __future__ import annotations

from math import factorial

from builder.contract.errors import PuzzleInputError

MAX_CELLS = 9
"""9! = 362,880 positions on 3×3 (about 0.1 s a table); 4×4 is 16! and out of reach."""
BOARDS = ((2, 2), (2, 3), (2, 4), (3, 3))
"""The boards `make tables` stores (every board of 4 to 9 cells with 2 rows or more)."""


class SlidingError(PuzzleInputError):
    """A malformed board, an unsupported size, or an unsolvable pair."""


def lehmer_rank(tiles: tuple[int, ...]) -> int:
    rank, rest = 0, sorted(tiles)
    for cell, tile in enumerate(tiles):
        rank += rest.index(tile) * factorial(len(tiles) - 1 - cell)
        rest.remove(tile)
    return rank


def lehmer_unrank(rank: int, cells: int) -> tuple[int, ...]:
    rest, tiles = list(range(cells)), []
    for cell in range(cells):
        skip, rank = divmod(rank, factorial(cells - 1 - cell))
        tiles.append(rest.pop(skip))
    return tuple(tiles)


def goal_with_blank_at(cells: int, blank: int) -> tuple[int, ...]:
    tiles = list(range(1, cells))
    tiles.insert(blank, 0)
    return tuple(tiles)


def parity(tiles: tuple[int, ...], columns: int) -> int:
    """Permutation parity plus the blank's row and column: a move changes both by one,
    so two positions are joined only if this agrees."""
    inversions = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles))
                     if tiles[i] > tiles[j])
    blank = tiles.index(0)
    return (inversions + blank // columns + blank % columns) % 2
