"""Sliding tiles: the 8-puzzle (3×3) and its smaller boards (2×2 up to 2×4) from full
tables; larger boards up to the 15-puzzle (4×4) by search on pattern databases.

Notation: rows of tiles joined by '.', ``0`` for the blank: the 8-puzzle's goal is
``123.456.780``; on a board of more than 10 cells the tiles of a row are numbers joined by
',' (``0,1,2,3.4,5,6,7.8,9,10,11.12,13,14,15``, Korf's goal), which any board also takes.
A move slides a tile next to the blank into it; the move is named by the tile and the way
it slides.  A position is ranked by the Lehmer code of the tile in each cell (9! =
362,880 ranks on 3×3, of which half can reach any given position).

Tables (``sliding/RxC``): for each cell j, the fewest moves from every position to the
board with the blank at j and the tiles 1, 2, ... in reading order around it (array
``blank{j}``).  Relabelling the tiles maps any target to the one with its blank's cell,
so one table answers every solvable pair.  A pair whose permutations differ in parity
(counting the blank's moves) is never solvable: that is an error, not a search.  Boards of
10 to 16 cells have no full table: IDA* on their pattern databases answers
(``tables.py``, tables ``sliding/patterns/RxC/``).
"""

from __future__ import annotations

import re
from math import factorial, lgamma, log

from builder.contract.base import FoundPath, Move
from builder.contract.errors import MissingTableError, UnreachableError, shown
from builder.contract.patterns import PatternSearch
from builder.contract.puzzle import DensePuzzle, DenseSearch, StoredDistance, Table
from builder.contract.specs import BreadthFirstSearch
from puzzles.sliding import approximate
from puzzles.sliding.rules import (
    BOARDS,
    MAX_CELLS,
    MAX_SEARCH_CELLS,
    SLIDES,
    SlidingError,
    beside,
    goal_with_blank_at,
    lehmer_rank,
    lehmer_unrank,
    parity,
    shape_of,
    tiles_of,
    written,
)
from puzzles.sliding.search import sliding_moves
from puzzles.sliding.tables import (
    default_blank,
    default_partition,
    guide_for,
    pattern_set,
    pattern_table,
    search_for,
    searched_board,
)


class SlidingSearch(DenseSearch):
    """The sliding tiles' own search: a full table per small board, and pattern
    databases with IDA* and a quick path for the 15-puzzle."""

    def kernel_modules(self) -> tuple[str, ...]:
        return ("puzzles.sliding.compiled",)

    approximation = approximate.HOW  # the page answers a 4x4 board best so far, as the CLI

    def distance(self, tables, board: tuple[int, int], node: tuple[int, ...],
                 target: tuple[int, ...]) -> int | None:
        if searched_board(*board):  # the error stands where no pattern tables are stored
            raise MissingTableError(no_full_table(board, tables.location))
        return super().distance(tables, board, node, target)

    def stored_distance(self, board: tuple[int, int], node: tuple[int, ...],
                        target: tuple[int, ...]) -> StoredDistance:
        if searched_board(*board):
            raise MissingTableError(no_full_table(board))
        blank = target.index(0)
        goal = goal_with_blank_at(len(target), blank)
        relabel = dict(zip(target, goal))  # the target becomes the goal, the blank stays
        position = tuple(relabel[tile] for tile in node)
        table = self.table({"puzzle": "sliding", "rows": board[0], "columns": board[1]})
        return StoredDistance(table, f"blank{blank}", lehmer_rank(position),
                              build=f"{board[0]}x{board[1]}")

    def explain_unreachable(self, board: tuple[int, int], start: tuple[int, ...],
                            target: tuple[int, ...]) -> str:
        return opposite_parity(shown(self.format(board, start)),
                               shown(self.format(board, target)))

    def pattern_search(self, tables, board: tuple[int, int], node: tuple[int, ...],
                       target: tuple[int, ...]) -> PatternSearch | None:
        # an explicit target of the other parity is refused by ``variant``; the default
        # goal is checked here, before any table is looked for: half of all boards never
        # reach it, and IDA* would deepen its bound for ever
        if parity(node, board[1]) != parity(target, board[1]):
            raise UnreachableError(self.explain_unreachable(board, node, target))
        return search_for(tables, board, node, target)

    def approximate_path(self, tables, board: tuple[int, int], node: tuple[int, ...],
                         target: tuple[int, ...]) -> FoundPath | None:
        # a path at once where the exact search may be slow: boards no full table holds,
        # once their pattern tables are stored (else the missing tables' advice stands)
        if not searched_board(*board):
            return None
        if parity(node, board[1]) != parity(target, board[1]):
            raise UnreachableError(self.explain_unreachable(board, node, target))
        guide = guide_for(tables, board, node, target, approximate.MOST_ENTRIES)
        if guide is None and search_for(tables, board, node, target) is None:
            return None
        return approximate.approximate(tables, board, node, target, guide, self.moves)

    def table(self, identity: dict) -> Table:
        rows, columns = identity.get("rows"), identity.get("columns")
        most = MAX_SEARCH_CELLS if "tiles" in identity else MAX_CELLS
        if not (isinstance(rows, int) and isinstance(columns, int) and rows >= 2
                and columns >= 2 and rows * columns <= most):
            raise SlidingError(f"a {rows}x{columns} board: 2 rows or more of 2 tiles or more, "
                               f"at most {most} tiles")
        if "tiles" in identity:
            tiles, blank = identity["tiles"], identity.get("blank")
            if not (isinstance(tiles, list) and all(isinstance(tile, int) for tile in tiles)
                    and isinstance(blank, int)):
                raise SlidingError("a pattern table names its tiles and the goal's blank cell")
            return pattern_table(rows, columns, blank, tuple(tiles),
                                 folded=identity.get("folded") is True)
        goals = [goal_with_blank_at(rows * columns, blank) for blank in range(rows * columns)]
        return Table(
            self.name, f"{rows}x{columns}", {"rows": rows, "columns": columns},
            searched={f"blank{blank}": BreadthFirstSearch(
                factorial(rows * columns), (lehmer_rank(goal),), sliding_moves, 4,
                parameters=(rows, columns)) for blank, goal in enumerate(goals)},
            distances={f"blank{blank}": (f"{rows}x{columns}",
                                         f"to {self.format((rows, columns), goal)}")
                       for blank, goal in enumerate(goals)},
            about="blank{j}[rank]: fewest moves to the board with the blank at cell j and "
                  "tiles 1, 2, ... in reading order around it; rank = Lehmer code of the "
                  "tile in each cell (cells row-major); never from the opposite parity")

    def default_tables(self) -> list[Table]:
        full = [self.table({"puzzle": "sliding", "rows": rows, "columns": columns})
                for rows, columns in BOARDS]
        return full + [spec for rows, columns in PATTERN_BOARDS
                       for spec in pattern_set(rows, columns, default_blank(rows, columns),
                                               default_partition(rows, columns))]

    def table_for(self, text: str) -> Table | list[Table]:
        # ASCII digits only: str.isdigit() also takes '²', which int() then refuses; and
        # no more digits than a size can sensibly have, so nothing huge is computed
        found = re.fullmatch(r"([0-9]{1,9})x([0-9]{1,9})(?::([a-z0-9-]{1,40}))?"
                             r"(?::([0-9]{1,2}))?", text.strip().lower())
        if not found:
            raise SlidingError(f"{shown(text)}: a board such as 3x3, or its pattern databases "
                               "as 4x4, 4x4:7-8 or 4x4:6-6-3:15 (the goal's blank cell)")
        rows, columns = int(found.group(1)), int(found.group(2))
        check_board(rows, columns, shown(text))
        partition, blank = found.group(3), found.group(4)
        if partition is None and not searched_board(rows, columns):
            return self.table({"puzzle": "sliding", "rows": rows, "columns": columns})
        blank = default_blank(rows, columns) if blank is None else int(blank)
        if blank >= rows * columns:
            raise SlidingError(f"blank cell {blank}: from 0 to {rows * columns - 1}")
        return pattern_set(rows, columns, blank, partition or default_partition(rows, columns))

    def entry_positions(self, attributes: dict, array: str, entries,
                        read) -> list[tuple[str, str]]:
        if "tiles" in attributes:
            return None  # an estimate stands for many positions
        board = (attributes["rows"], attributes["columns"])
        cells = board[0] * board[1]
        goal = self.format(board, goal_with_blank_at(cells, int(array[5:])))
        return [(self.format(board, lehmer_unrank(int(entry), cells)), goal)
                for entry in entries]


class SlidingPuzzle(DensePuzzle):
    """The variant is the board (rows, columns), read from the notation."""

    own_search = SlidingSearch

    name = "sliding"
    unit = "moves"
    summary = ("sliding tiles: the 8-puzzle (3x3, goal 123.456.780), 2x2 to 2x4 boards, and "
               "up to the 15-puzzle (4x4) by search")
    example = ("867.254.301", "123.456.780")
    renderer = "renderer.js"

    def recognises(self, text: str) -> bool:
        text = text.strip()
        return ("." in text and all(ch in "0123456789.," for ch in text)
                and any(ch in "23456789" for ch in text))

    def variant(self, start: str, target: str, options: dict) -> tuple[int, int]:
        board = shape_of(start)
        if board is None:
            raise SlidingError(f"board {shown(start)}: rows of one length joined by '.', "
                               "e.g. 123.456.780")
        check_board(*board, shown(start))
        if target:
            first = self.parse(board, start)
            second = self.parse(board, target)
            if parity(first, board[1]) != parity(second, board[1]):
                raise SlidingError(opposite_parity(shown(start), shown(target)))
        return board

    def parse(self, board: tuple[int, int], text: str) -> tuple[int, ...]:
        rows, columns = board
        tiles = tiles_of(board, text)
        if tiles is None:
            cells = rows * columns
            numbers = "numbers joined by ','" if cells > 10 else "tiles"
            raise SlidingError(f"board {shown(text)} is not {rows} rows of {columns} "
                               f"{numbers} holding 0 (the blank) to {cells - 1} once each, "
                               "joined by '.'")
        return tiles

    def format(self, board: tuple[int, int], state: tuple[int, ...]) -> str:
        return written(board, state)

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
        for way, slides in enumerate(SLIDES):
            other = beside(blank, way, rows, columns)
            if other < 0:
                continue
            tiles = list(node)
            tiles[blank], tiles[other] = tiles[other], 0
            found.append(Move(f"{node[other]} {slides}", tuple(tiles)))
        return found


PATTERN_BOARDS = ((3, 3), (4, 4))
"""The boards whose pattern databases `make tables` builds: 4×4 for its search, 3×3 so
that `builder verify` checks the estimates against the full table."""


def no_full_table(board: tuple[int, int], folder: str = "") -> str:
    size = f"{board[0]}x{board[1]}"
    return (f"no full table holds a {size} board: it is searched on pattern databases "
            f"(run `make tables` or `builder build sliding {size}`"
            + (f"; looked in {folder})" if folder else ")"))


def opposite_parity(start: str, target: str) -> str:
    return (f"{target} can never be reached from {start}: their permutations have opposite "
            "parity (every move keeps it)")


def check_board(rows: int, columns: int, written: str) -> None:
    """A board a full table or a search on pattern databases can answer (``written`` is
    how the user wrote it, for the error), checked from its size alone, before anything
    is computed from it."""
    cells = rows * columns
    if cells > MAX_SEARCH_CELLS:
        raise SlidingError(
            f"a {rows}x{columns} board has {arrangements(cells)} reach any given one: out "
            f"of reach (at most {MAX_CELLS} cells for a full table, e.g. 3x3, and "
            f"{MAX_SEARCH_CELLS} searched on pattern databases, e.g. 4x4)")
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
