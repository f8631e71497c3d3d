"""Sliding tiles' positions: boards, notation, Lehmer ranking and parity, and the
abstractions their pattern databases track.

The rules alone (board sizes, ranking, parity, patterns); the adapter ``__init__.py``
declares the moves the engine walks, ``tables.py`` the tables and the search.
"""

from __future__ import annotations

from math import factorial

from builder.contract.errors import PuzzleInputError
from builder.contract.patterns import arrangement_rank

MAX_CELLS = 9
"""9! = 362,880 positions on 3×3 (about 0.1 s a table); 4×4 is 16! and out of reach of a
full table."""
MAX_SEARCH_CELLS = 16
"""Larger boards, up to 4×4, are searched on pattern databases (``tables.py``)."""
MOST_PATTERN_TILES = 8
"""A pattern's table ranks its tiles' cells and the blank's: 16!/7! = 4,151,347,200 abstract
states for 8 tiles on 4×4, searched a bit each and kept as the 16!/8! = 518,918,400 bytes
the search reads (``tables.FOLDED_FROM``)."""
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


def tiles_of(board: tuple[int, int], text: str) -> tuple[int, ...] | None:
    """The tile in each cell as written: rows joined by '.', each a row of digits (boards
    of at most 10 cells) or of numbers joined by ','; None when the shape or the numbers
    are not the board's."""
    rows, columns = board
    written = text.strip().split(".")
    if len(written) != rows:
        return None
    if "," in text:
        cells = [row.split(",") for row in written]
        if any(len(row) != columns for row in cells):
            return None
        numbers = [number.strip() for row in cells for number in row]
        if not all(number.isascii() and number.isdigit() and len(number) <= 3
                   for number in numbers):
            return None
        tiles = tuple(int(number) for number in numbers)
    else:
        if any(len(row) != columns for row in written) or rows * columns > 10:
            return None
        if not all(ch.isascii() and ch.isdigit() for row in written for ch in row):
            return None
        tiles = tuple(int(ch) for row in written for ch in row)
    return tiles if sorted(tiles) == list(range(rows * columns)) else None


def shape_of(text: str) -> tuple[int, int] | None:
    """(rows, columns) as written, or None when the rows differ in length."""
    written = text.strip().split(".")
    lengths = {len(row.split(",")) if "," in text else len(row) for row in written}
    return (len(written), lengths.pop()) if len(lengths) == 1 else None


def written(board: tuple[int, int], tiles: tuple[int, ...]) -> str:
    """The notation of a position: rows of digits up to 10 cells, of numbers joined by ','
    beyond."""
    columns = board[1]
    joiner = "" if len(tiles) <= 10 else ","
    return ".".join(joiner.join(str(tile) for tile in tiles[i:i + columns])
                    for i in range(0, len(tiles), columns))


SLIDES = ("down", "up", "right", "left")
"""How the tile slides when the blank goes each ``beside`` way: a move's name."""


def beside(cell, way, rows, columns):
    """The cell beside ``cell`` in direction ``way`` (0 up, 1 down, 2 left, 3 right), or -1
    off the board.  The sliding tiles' moves, written once: the blank goes ``way``, the
    tile there slides into its cell (``SLIDES``).  The walk runs this as Python; the table
    builds, the pattern databases and IDA* (``search.py``) compile it, so it keeps to what
    numba compiles (integers only)."""
    if way == 0:
        return cell - columns if cell >= columns else -1
    if way == 1:
        return cell + columns if cell < (rows - 1) * columns else -1
    if way == 2:
        return cell - 1 if cell % columns > 0 else -1
    return cell + 1 if cell % columns < columns - 1 else -1


def goal_cell(cells: int, blank: int, tile: int) -> int:
    """Where ``tile`` stands in ``goal_with_blank_at(cells, blank)``."""
    return blank if tile == 0 else tile - 1 if tile <= blank else tile


def region(rows: int, columns: int, blank: int, occupied: set[int]) -> set[int]:
    """The cells the blank reaches without moving a tile of ``occupied`` cells."""
    found, frontier = {blank}, [blank]
    while frontier:
        cell = frontier.pop()
        row, column = divmod(cell, columns)
        for other, beside in ((cell - columns, row > 0), (cell + columns, row < rows - 1),
                              (cell - 1, column > 0), (cell + 1, column < columns - 1)):
            if beside and other not in occupied and other not in found:
                found.add(other)
                frontier.append(other)
    return found


def abstract_rank(rows: int, columns: int, cells: tuple[int, ...], blank: int) -> int:
    """The rank of a pattern's abstract state: its tiles' cells, then the least cell of the
    blank's region (the blank moves there for free), as an arrangement: the blank's cell
    ranked last makes the rank of the cells before it, times the cells left, plus its
    number."""
    least = min(region(rows, columns, blank, set(cells)))
    return arrangement_rank((*cells, least), rows * columns)


PARTITIONS = {
    (4, 4): {"6-6-3": ((1, 2, 3), (4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15)),
             "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
             "7-7-1": ((1, 2, 3, 5, 6, 7, 11), (4, 8, 9, 10, 12, 13, 14), (15,)),
             "7-8": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15))},
    (3, 3): {"4-4": ((0, 1, 2, 3), (4, 5, 6, 7))},
}
"""Named partitions of a board's goal cells (the blank's excepted) into disjoint patterns,
for the goal with the blank at cell 0 (4×4: Korf's goal) or 8 (3×3, the default goal);
the first is what `make tables` builds, the others are built on request (4×4's 7-8: the
board's two halves, Felner, Korf and Hanan's partition of 2004).  Each pattern tracks the
tiles the goal puts in its cells.  Cells, not tiles: the same shapes serve any goal with
the blank in that cell.
"""


def partition_named(rows: int, columns: int, blank: int, name: str
                    ) -> tuple[tuple[int, ...], ...] | None:
    """A partition of the cells other than ``blank``: one of ``PARTITIONS`` where it is
    for that blank, ``manhattan`` (a pattern per tile: its tables hold the Manhattan
    distance), or sizes such as ``6-6-3`` (cells in reading order)."""
    cells = [cell for cell in range(rows * columns) if cell != blank]
    named = PARTITIONS.get((rows, columns), {}).get(name)
    if named is not None and blank not in {cell for part in named for cell in part}:
        return named
    if name == "manhattan":
        return tuple((cell,) for cell in cells)
    sizes = name.split("-")
    if not all(size.isascii() and size.isdigit() and 0 < int(size) for size in sizes):
        return None
    if sum(int(size) for size in sizes) != len(cells):
        return None
    parts, first = [], 0
    for size in sizes:
        parts.append(tuple(cells[first:first + int(size)]))
        first += int(size)
    return tuple(parts)


def reflection(rows: int, columns: int, blank: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(cell, tile): the reflection about the main diagonal as a map of cells and of the
    goal's tiles, where it maps the goal with the blank at ``blank`` onto itself (a square
    board, the blank on the diagonal); None elsewhere."""
    if rows != columns or blank // columns != blank % columns:
        return None
    cells = rows * columns
    mirror = tuple((cell % columns) * columns + cell // columns for cell in range(cells))
    goal = goal_with_blank_at(cells, blank)
    tile = [0] * cells
    for cell in range(cells):
        tile[goal[cell]] = goal[mirror[cell]]
    return mirror, tuple(tile)


def dual_allowed(rows: int, columns: int, blank: int, cells: list[int] | tuple[int, ...]
                 ) -> set[int]:
    """The blank's cells at which a pattern with goal cells ``cells`` may be looked up on a
    position's *dual* (towards the goal with the blank at ``blank``).

    Name each tile after its goal cell; in the dual, the tile named c stands at the goal
    cell of the tile in cell c.  A shortest path from the position, its moves read as
    swaps of cells, read backwards from the dual reaches the goal with the tiles named b
    and ``blank`` exchanged (b: the position's blank cell), the tile named b sliding where
    the blank would: so the dual is exactly as far from that goal.  The pattern's table
    bounds the moves of its tiles towards it where b is none of the pattern's cells and
    lies in the blank's region in that goal, which the table's goal then is too."""
    return region(rows, columns, blank, set(cells))
