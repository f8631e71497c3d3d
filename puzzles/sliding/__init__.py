"""Sliding tiles: the 8-puzzle (3×3) and its smaller boards (2×2 up to 2×4).

Notation: rows of tiles joined by '.', ``0`` for the blank: the 8-puzzle's goal is
``123.456.780``.  A move slides a tile next to the blank into it; the move is named by
the tile and the way it slides.  A position is ranked by the Lehmer code of the tile in
each cell (9! = 362,880 ranks on 3×3, of which half can reach any given position).

Tables (``sliding/RxC``): for each cell j, the fewest moves from every position to the
board with the blank at j and the tiles 1, 2, ... in reading order around it (array
``blank{j}``).  Relabelling the tiles maps any target to the one with its blank's cell,
so one table answers every solvable pair.  A pair whose permutations differ in parity
(counting the blank's moves) is never solvable: that is an error, not a search.
"""

from __future__ import annotations

import re
from math import factorial, lgamma, log

from builder.contract.base import DistanceArray, Move
from builder.contract.dense import DensePuzzle, StoredDistance
from builder.contract.errors import shown
from builder.contract.specs import BreadthFirstSearch, TableSpec
from puzzles.sliding.rules import (
    BOARDS,
    MAX_CELLS,
    SlidingError,
    goal_with_blank_at,
    lehmer_rank,
    lehmer_unrank,
    parity,
)


class SlidingPuzzle(DensePuzzle):
    """The variant is the board (rows, columns), read from the notation."""

    name = "sliding"
    unit = "moves"
    summary = "sliding tiles: the 8-puzzle (3x3, goal 123.456.780) and 2x2 to 2x4 boards"
    example = ("867.254.301", "123.456.780")
    renderer = "renderer.js"

    def recognises(self, text: str) -> bool:
        text = text.strip()
        return ("." in text and all(ch in "0123456789." for ch in text)
                and any(ch in "23456789" for ch in text))

    def variant(self, start: str, target: str, options: dict) -> tuple[int, int]:
        rows = start.strip().split(".")
        board = (len(rows), len(rows[0]))
        if any(len(row) != board[1] for row in rows):
            raise SlidingError(f"board {shown(start)}: rows of one length joined by '.', "
                               "e.g. 123.456.780")
        check_board(*board, shown(start))
        if target:
            first = self.parse(board, start)
            second = self.parse(board, target)
            if parity(first, board[1]) != parity(second, board[1]):
                raise SlidingError(
                    f"{shown(target)} can never be reached from {shown(start)}: their "
                    "permutations have opposite parity (every move keeps it)")
        return board

    def parse(self, board: tuple[int, int], text: str) -> tuple[int, ...]:
        rows, columns = board
        written = text.strip().split(".")
        cells = rows * columns
        if (len(written) != rows or any(len(row) != columns for row in written)
                or sorted("".join(written)) != [str(tile) for tile in range(cells)]):
            raise SlidingError(f"board {shown(text)} is not {rows} rows of {columns} tiles "
                               f"holding 0 (the blank) to {cells - 1} once each, joined by '.'")
        return tuple(int(tile) for tile in "".join(written))

    def format(self, board: tuple[int, int], state: tuple[int, ...]) -> str:
        columns = board[1]
        digits = "".join(str(tile) for tile in state)
        return ".".join(digits[i:i + columns] for i in range(0, len(digits), columns))

    def default_target(self, board: tuple[int, int]) -> str:
        return self.format(board, goal_with_blank_at(board[0] * board[1], board[0] * board[1] - 1))

    def drawing(self, board: tuple[int, int], state: tuple[int, ...]) -> str:
        rows, columns = board
        width = len(str(rows * columns - 1))
        return "\n".join(" ".join(f"{tile:>{width}}" if tile else "." * width
                                   for tile in state[row * columns:(row + 1) * columns])
                          for row in range(rows))

    def moves(self, board: tuple[int, int], node: tuple[int, ...]) -> list[Move]:
        rows, columns = board
        blank = node.index(0)
        found = []
        for other, way in ((blank - columns, "down"), (blank + columns, "up"),
                           (blank - 1, "right"), (blank + 1, "left")):
            same_row = other // columns == blank // columns
            if not 0 <= other < rows * columns or (way in ("left", "right") and not same_row):
                continue
            tiles = list(node)
            tiles[blank], tiles[other] = tiles[other], 0
            found.append(Move(f"{node[other]} {way}", tuple(tiles)))
        return found

    def stored_distance(self, board: tuple[int, int], node: tuple[int, ...],
                        target: tuple[int, ...]) -> StoredDistance:
        blank = target.index(0)
        goal = goal_with_blank_at(len(target), blank)
        relabel = dict(zip(target, goal))  # the target becomes the goal, the blank stays
        position = tuple(relabel[tile] for tile in node)
        spec = self.table({"puzzle": "sliding", "rows": board[0], "columns": board[1]})
        return StoredDistance(spec, f"blank{blank}", lehmer_rank(position),
                              build=f"{board[0]}x{board[1]}")

    def table(self, identity: dict) -> TableSpec:
        rows, columns = identity.get("rows"), identity.get("columns")
        if not (isinstance(rows, int) and isinstance(columns, int) and rows >= 2
                and columns >= 2 and rows * columns <= MAX_CELLS):
            raise SlidingError(f"a {rows}x{columns} board: 2 rows or more of 2 tiles or more, "
                               f"at most {MAX_CELLS} tiles")
        cells = rows * columns
        return TableSpec(
            ("sliding", f"{rows}x{columns}"),
            {"puzzle": "sliding", "rows": rows, "columns": columns},
            {f"blank{blank}": BreadthFirstSearch(
                factorial(cells), (lehmer_rank(goal_with_blank_at(cells, blank)),),
                "puzzles.sliding.search:sliding_moves", 4, parameters=(rows, columns))
             for blank in range(cells)},
            encoding="blank{j}[rank]: fewest moves to the board with the blank at cell j and "
                     "tiles 1, 2, ... in reading order around it; rank = Lehmer code of the "
                     "tile in each cell (cells row-major); 255 = never (opposite parity)")

    def default_tables(self) -> list[TableSpec]:
        return [self.table({"puzzle": "sliding", "rows": rows, "columns": columns})
                for rows, columns in BOARDS]

    def table_for(self, text: str) -> TableSpec:
        # ASCII digits only: str.isdigit() also takes '²', which int() then refuses; and
        # no more digits than a size can sensibly have, so nothing huge is computed
        found = re.fullmatch(r"([0-9]{1,9})x([0-9]{1,9})", text.strip().lower())
        if not found:
            raise SlidingError(f"{shown(text)}: a board such as 3x3")
        rows, columns = int(found.group(1)), int(found.group(2))
        check_board(rows, columns, shown(text))
        return self.table({"puzzle": "sliding", "rows": rows, "columns": columns})

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        board = (attributes["rows"], attributes["columns"])
        cells = board[0] * board[1]
        return [DistanceArray(f"{board[0]}x{board[1]}",
                              f"to {self.format(board, goal_with_blank_at(cells, blank))}",
                              f"blank{blank}", 255)
                for blank in range(cells)]

    def entry_positions(self, attributes: dict, distances: DistanceArray, entries,
                        read) -> list[tuple[str, str]]:
        board = (attributes["rows"], attributes["columns"])
        cells = board[0] * board[1]
        goal = self.format(board, goal_with_blank_at(cells, int(distances.array[5:])))
        return [(self.format(board, lehmer_unrank(int(entry), cells)), goal)
                for entry in entries]


def check_board(rows: int, columns: int, written: str) -> None:
    """A board a full table can hold (``written`` is how the user wrote it, for the
    error), checked from its size alone, before anything is computed from it."""
    cells = rows * columns
    if cells > MAX_CELLS:
        raise SlidingError(
            f"a {rows}x{columns} board has {arrangements(cells)} reach any given one: out "
            f"of reach of a full table (at most {MAX_CELLS} cells, e.g. 3x3)")
    if rows < 2 or columns < 2:
        raise SlidingError(f"{written}: at least 2 rows of at least 2 tiles")


EXACT_COUNT_CELLS = 20
"""Boards up to this many cells have their count of arrangements written out (20! has 19
digits)."""


def arrangements(cells: int) -> str:
    """How many arrangements a board of ``cells`` tiles has (cells!) and how many of them
    reach a given one (half), as words: written out for a small board, else as a power of
    ten from the log-gamma function.  The exact count of a large board takes long to
    compute (10^8 cells: hours) and may not even be printable (past about 1,750 cells it
    has more digits than Python turns into text)."""
    if cells <= EXACT_COUNT_CELLS:
        return f"{factorial(cells):,} arrangements, of which {factorial(cells) // 2:,}"
    return f"about 10^{lgamma(cells + 1) / log(10):,.0f} arrangements, half of which"
