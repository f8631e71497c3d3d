"""Tricolore XP rules for any W×H board: the only place they are written down.

Owns the board codec (notation such as ``RRRB.BRWR`` <-> integer rank), the click
rule, the three click methods, which boards belong to a method's state space, and
the board symmetries that each method respects.  Pure numpy: the query path imports it
without numba, zarr or duckdb.

Rules (document 000): colours advance R -> W -> B -> R.  Clicking a red square
advances it alone; a white square advances its neighbours only; a blue square
advances itself and its neighbours.  Neighbours are the 8 surrounding squares,
diagonals included.  The same square may not be clicked twice in succession, so a
search node is (board, last clicked square).

Encoding: square ``i`` (row-major from 0 at the top left) is the base-3 digit of
weight ``3 ** (n_squares - 1 - i)``, with R=0, W=1, B=2; so ranks sort boards in
the lexicographic order of their notation (R < W < B).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from builder.contract.base import never_of, unreached
from builder.contract.errors import PuzzleInputError, check_length, shown
from builder.contract.work import checkpoint

RED, WHITE, BLUE = 0, 1, 2
LETTERS = "RWB"
METHODS = ("unrestricted", "hybrid", "restricted")
NO_CLICK = -1
"""The 'last clicked square' of a start node: nothing is forbidden yet."""
UNREACHABLE = never_of(unreached(0))
"""What a Tricolore table stores for "never" (clicks to a target that cannot be reached,
a sole click where no first click is the only optimal one): the engine's value for the
distance arrays its kernels are lent by ``unreached``.  Named once here for the readers
that hold no whole array to ask ``never_of``: a walk reads entries one by one, and the
catalog's SQL is text."""
MAX_SQUARES = 39
"""A board's rank is a 64-bit integer: 3**39 < 2**63 <= 3**40, so no larger board can be
written down (a 40-square board would silently wrap around)."""


class BoardError(PuzzleInputError):
    """A board string that is not a board of the expected shape."""


class MethodError(PuzzleInputError):
    """An unknown click method."""


def check_method(method: str) -> str:
    if method not in METHODS:
        raise MethodError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    return method


@dataclass(frozen=True)
class Tricolore:
    """The rules of Tricolore on a ``width`` × ``height`` board.

    >>> half = Tricolore(4, 2)
    >>> half.format(half.click(half.parse("RRRB.BRWR"), 4))
    'WWRB.RWWR'
    """

    width: int = 4
    height: int = 2

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise BoardError(f"a board needs at least one square, not {self.width}x{self.height}")
        if self.width * self.height > MAX_SQUARES:
            raise BoardError(
                f"a {self.width}x{self.height} board has {self.width * self.height:,} squares: "
                f"at most {MAX_SQUARES} (a board's rank must fit in 64 bits)"
            )

    @classmethod
    def of_board(cls, text: str) -> Tricolore:
        """The rules for the board shape ``text`` is written in (rows joined by '.')."""
        rows = check_length(str(text), "board", BoardError).strip().split(".")
        if not rows[0]:
            raise BoardError("empty board: rows of R, W and B joined by '.', e.g. WBWW.WBRB")
        return cls(len(rows[0]), len(rows))

    @property
    def shape_name(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def n_squares(self) -> int:
        return self.width * self.height

    @property
    def n_boards(self) -> int:
        return 3**self.n_squares

    @cached_property
    def place_values(self) -> np.ndarray:
        return 3 ** np.arange(self.n_squares - 1, -1, -1, dtype=np.int64)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """The 8-neighbourhood (diagonals included) of every square."""
        result = []
        for square in range(self.n_squares):
            row, col = divmod(square, self.width)
            result.append(
                tuple(
                    r * self.width + c
                    for r in range(row - 1, row + 2)
                    for c in range(col - 1, col + 2)
                    if (r, c) != (row, col) and 0 <= r < self.height and 0 <= c < self.width
                )
            )
        return tuple(result)

    # --- codec -------------------------------------------------------------------

    def parse(self, text: str) -> int:
        """Rank of a board written as rows of R/W/B joined by '.', top row first."""
        rows = check_length(str(text), "board", BoardError).strip().upper().split(".")
        if len(rows) != self.height or any(len(row) != self.width for row in rows):
            raise BoardError(
                f"board {shown(text)} is not {self.height} rows of {self.width} squares "
                f"joined by '.' (e.g. {self.format(0)})"
            )
        squares = "".join(rows)
        bad = sorted(set(squares) - set(LETTERS))
        if bad:
            raise BoardError(f"board {shown(text)} has letters {shown(''.join(bad))}: "
                             "only R, W and B")
        digits = np.array([LETTERS.index(letter) for letter in squares], dtype=np.int64)
        return int(digits @ self.place_values)

    def format(self, rank: int) -> str:
        letters = "".join(LETTERS[d] for d in self.colours(np.array([rank]))[0])
        return ".".join(letters[r * self.width : (r + 1) * self.width] for r in range(self.height))

    def format_many(self, ranks: np.ndarray) -> np.ndarray:
        """Notation of many boards at once (numpy array of str)."""
        letters = np.array(list(LETTERS))[self.colours(ranks)]
        rows = [letters[:, r * self.width : (r + 1) * self.width] for r in range(self.height)]
        joined = [np.array(["".join(x) for x in row]) for row in rows]
        result = joined[0]
        for row in joined[1:]:
            result = np.char.add(np.char.add(result, "."), row)
        return result

    def colours(self, ranks: np.ndarray) -> np.ndarray:
        """(N, n_squares) colour digits of N boards."""
        ranks = np.asarray(ranks, dtype=np.int64)
        return (ranks[:, None] // self.place_values[None, :]) % 3

    def ranks(self, colours: np.ndarray) -> np.ndarray:
        return (np.asarray(colours, dtype=np.int64) % 3) @ self.place_values

    def all_boards(self) -> np.ndarray:
        return np.arange(self.n_boards, dtype=np.int64)

    # --- the click rule -----------------------------------------------------------

    @cached_property
    def advance_masks(self) -> np.ndarray:
        """advance_masks[square, colour] = 0/1 vector of the squares that advance."""
        masks = np.zeros((self.n_squares, 3, self.n_squares), dtype=np.int64)
        for square, around in enumerate(self.neighbours):
            masks[square, RED, square] = 1
            masks[square, WHITE, list(around)] = 1
            masks[square, BLUE, [square, *around]] = 1
        return masks

    def click(self, ranks: np.ndarray | int, square: int) -> np.ndarray | int:
        """The board(s) after clicking ``square`` (no method or repeat check here): each
        rank moved by the place values of the squares its clicked colour advances
        (``advance_masks``; a blue one wraps to red), reading only the clicked square and
        those, never the whole board."""
        scalar = np.ndim(ranks) == 0
        boards = np.atleast_1d(np.asarray(ranks, dtype=np.int64))
        colour = (boards // self.place_values[square]) % 3
        result = boards.copy()
        for clicked_colour, advanced in enumerate(self._advanced_squares[square]):
            rows = np.flatnonzero(colour == clicked_colour)
            places = self.place_values[list(advanced)]
            steps = np.where((boards[rows, None] // places) % 3 == BLUE, -2 * places, places)
            result[rows] += steps.sum(axis=1)
        return int(result[0]) if scalar else result

    def click_table(self) -> np.ndarray:
        """(n_boards, n_squares) int32: the board after each click, for small boards."""
        boards = self.all_boards()
        return np.stack([self.click(boards, s) for s in range(self.n_squares)], axis=1).astype(
            np.int32
        )

    # --- methods and their state spaces ------------------------------------------

    def bottom_row(self) -> range:
        return range((self.height - 1) * self.width, self.n_squares)

    def row_above_bottom(self) -> range:
        return range(max(self.height - 2, 0) * self.width, (self.height - 1) * self.width)

    def allowed_clicks(self, ranks: np.ndarray, method: str) -> np.ndarray:
        """(N, n_squares) bool: which squares a method lets one click on each board.

        unrestricted: any square; restricted: the bottom row only; hybrid: the bottom
        row plus the squares of the row above it that are red at the time.
        """
        check_method(method)
        colours = self.colours(ranks)
        allowed = np.zeros(colours.shape, dtype=bool)
        if method == "unrestricted":
            allowed[:] = True
            return allowed
        allowed[:, list(self.bottom_row())] = True
        if method == "hybrid":
            above = list(self.row_above_bottom())
            allowed[:, above] = colours[:, above] == RED
        return allowed

    def in_state_space(self, ranks: np.ndarray, method: str) -> np.ndarray:
        """Boards a method can be asked to reach.

        Unrestricted: every board (all blue is simply never reached).  Hybrid and
        restricted: boards whose bottom row is not all blue; the document's totals
        (6480 targets per start under hybrid) leave those boards out.
        """
        check_method(method)
        ranks = np.atleast_1d(np.asarray(ranks, dtype=np.int64))
        if method == "unrestricted":
            return np.ones(ranks.shape, dtype=bool)
        return ~(self.colours(ranks)[:, list(self.bottom_row())] == BLUE).all(axis=1)

    def successor_table(self, method: str) -> np.ndarray:
        """(n_boards, n_squares) int32: board after an allowed click, -1 if not allowed.

        A click whose result lies outside the method's state space is not allowed:
        the state space is closed under the moves the search may make.
        """
        table = self.click_table()
        boards = self.all_boards()
        table[~self.allowed_clicks(boards, method)] = -1
        inside = self.in_state_space(boards, method)
        table[(table >= 0) & ~inside[np.maximum(table, 0)]] = -1
        return table

    def never_reached(self, board: int) -> bool:
        """True for the all-blue board, the one board no click ever produces (the clicked
        square is never blue afterwards): no start reaches it."""
        return board == self.n_boards - 1

    def half_tables_bytes(self) -> int:
        """Memory ``half_tables`` takes: per half of h squares, 3**h entries per square of a
        colour byte, 3 advance and 6 retreat int32s."""
        n_low = self.n_squares // 2
        return sum(3**h * self.n_squares * (1 + 4 * 3 + 4 * 6)
                   for h in (n_low, self.n_squares - n_low))

    def half_tables(self) -> dict:
        """Lookup tables that apply and undo clicks on the two halves of a rank.

        A rank is ``high * split + low``: ``high`` holds squares ``0 .. n_high-1``,
        ``low`` the rest.  ``advance_*[square, colour, half]`` is the half after clicking
        ``square`` when it has ``colour``; ``retreat_*[square, colour_after, case, half]``
        is a predecessor's half when the clicked square shows ``colour_after``
        (white: case 0 it was red, case 1 it was white; red: case 0 it was blue), -1
        where there is none.  Used by the single-target kernel for large boards.
        """
        n_low = self.n_squares // 2
        n_high = self.n_squares - n_low
        result: dict = {"n_squares": self.n_squares, "n_high": n_high, "split": 3**n_low,
                        "n_boards": self.n_boards}
        masks = self.advance_masks  # [square, colour, square]
        for name, squares in (("high", range(n_high)), ("low", range(n_high, self.n_squares))):
            squares = list(squares)
            places = 3 ** np.arange(len(squares) - 1, -1, -1, dtype=np.int64)
            values = np.arange(3 ** len(squares), dtype=np.int64)
            digits = (values[:, None] // places[None, :]) % 3
            colour = np.zeros((self.n_squares, len(values)), dtype=np.int8)
            colour[squares] = digits.T
            advance = np.zeros((self.n_squares, 3, len(values)), dtype=np.int32)
            retreat = np.full((self.n_squares, 3, 2, len(values)), -1, dtype=np.int32)
            for square in range(self.n_squares):
                checkpoint()  # a server's search past its time stops here, not after
                for clicked in range(3):
                    mask = masks[square, clicked][squares]
                    advance[square, clicked] = ((digits + mask) % 3) @ places
                # undo: white after = was red (self) or was white (neighbours);
                # red after = was blue (self and neighbours)
                for after, case, was in ((WHITE, 0, RED), (WHITE, 1, WHITE), (RED, 0, BLUE)):
                    mask = masks[square, was][squares]
                    retreat[square, after, case] = ((digits - mask) % 3) @ places
            result[f"colour_{name}"] = colour
            result[f"advance_{name}"] = advance
            result[f"retreat_{name}"] = retreat
        return result

    # --- one board at a time (the query path: no array set-up per call) -----------

    @cached_property
    def _place_list(self) -> list[int]:
        return [int(v) for v in self.place_values]

    @cached_property
    def _advanced_squares(self) -> list[list[tuple[int, ...]]]:
        return [
            [tuple(np.flatnonzero(self.advance_masks[square, colour])) for colour in range(3)]
            for square in range(self.n_squares)
        ]

    def colour_of(self, rank: int, square: int) -> int:
        return (rank // self._place_list[square]) % 3

    def click_one(self, rank: int, square: int) -> int:
        """``click`` for a single board, in plain integers."""
        place = self._place_list
        for advanced in self._advanced_squares[square][(rank // place[square]) % 3]:
            rank += place[advanced] if (rank // place[advanced]) % 3 != BLUE else -2 * place[advanced]
        return rank

    def in_state_space_one(self, rank: int, method: str) -> bool:
        if method == "unrestricted":
            return True
        return any(self.colour_of(rank, square) != BLUE for square in self.bottom_row())

    def legal_moves(self, rank: int, last: int, method: str) -> Iterator[tuple[int, int]]:
        """(square, resulting board) for every click allowed after clicking ``last``
        (NO_CLICK at the start), each made as it is asked for (a walk stops at the first
        click one nearer); the single-board twin of ``successor_table``."""
        check_method(method)
        if method == "unrestricted":
            squares: list[int] = list(range(self.n_squares))
        else:
            squares = list(self.bottom_row())
            if method == "hybrid":
                squares = [
                    s for s in self.row_above_bottom() if self.colour_of(rank, s) == RED
                ] + squares
        for square in squares:
            if square != last:
                board = self.click_one(rank, square)
                if self.in_state_space_one(board, method):
                    yield square, board

    # --- symmetries ---------------------------------------------------------------

    def symmetries(self, method: str) -> dict[str, np.ndarray]:
        """Square permutations that the method's rules respect, identity included.

        ``perm[i]`` is the square that square ``i`` moves to.  Every method is
        symmetric under the left-right mirror; the unrestricted one also under the
        top-bottom flip and the half-turn (and the quarter-turns on square boards).
        """
        check_method(method)
        rows, cols = np.divmod(np.arange(self.n_squares), self.width)
        w, h = self.width, self.height
        perms = {
            "identity": rows * w + cols,
            "mirror": rows * w + (w - 1 - cols),
        }
        if method == "unrestricted":
            perms["flip"] = (h - 1 - rows) * w + cols
            perms["half_turn"] = (h - 1 - rows) * w + (w - 1 - cols)
            if w == h:
                perms["transpose"] = cols * w + rows
                perms["anti_transpose"] = (w - 1 - cols) * w + (h - 1 - rows)
                perms["quarter_turn"] = cols * w + (w - 1 - rows)
                perms["three_quarter_turn"] = (h - 1 - cols) * w + rows
        return perms

    def apply_symmetry(self, ranks: np.ndarray, perm: np.ndarray) -> np.ndarray:
        colours = self.colours(ranks)
        moved = np.empty_like(colours)
        moved[:, perm] = colours
        return self.ranks(moved)

    def mirror_canonical(self, ranks: np.ndarray) -> np.ndarray:
        """True for the boards that represent their left-right mirror class (the
        smaller rank of the pair), as the document counts its 3321 starts."""
        ranks = np.asarray(ranks, dtype=np.int64)
        return ranks <= self.apply_symmetry(ranks, self.symmetries("hybrid")["mirror"])


WALK_ARRAYS = ("clicks", "sole_click", "clicks_avoiding_sole")
"""The arrays a table walk reads, in the order ``walk_columns`` takes them."""


def column_clicks(columns, board: int, last: int, target: int) -> int:
    """Fewest clicks from node (board, last clicked square) to ``target`` (``UNREACHABLE``: never),
    from a table's three arrays (``WALK_ARRAYS`` order) indexed by board: the column
    towards ``target`` of an all-pairs table, or a single-target table.  The stored
    clicks, except after the board's sole optimal first click, where the clicks avoiding
    it apply; 0 on arrival (a start equal to its target is not an arrival).  Reads only
    what it needs: a walk asks at every successor of every step."""
    if last == NO_CLICK:
        return int(columns[0][board])
    if board == target:
        return 0
    if columns[1][board] == last:
        return int(columns[2][board])
    return int(columns[0][board])


class InconsistentTable(Exception):
    """A walk found no click one closer: the table is damaged at ``board``."""

    def __init__(self, board: int, remaining: int):
        super().__init__(board, remaining)
        self.board, self.remaining = board, remaining


def walk_columns(rules: Tricolore, columns, start: int, target: int,
                 method: str) -> list[tuple[int, int]] | None:
    """An optimal path from ``start`` to ``target`` as (square clicked, board after) per
    click, by walking a table's three arrays towards ``target``; None when ``target``
    cannot be reached.  At each node the first legal click one closer is taken."""
    remaining = column_clicks(columns, start, NO_CLICK, target)
    if remaining == UNREACHABLE:
        return None
    board, last, path = start, NO_CLICK, []
    while remaining > 0:
        for square, following in rules.legal_moves(board, last, method):
            if column_clicks(columns, following, square, target) == remaining - 1:
                break
        else:
            raise InconsistentTable(board, remaining)
        board, last, remaining = following, square, remaining - 1
        path.append((square, board))
    return path


ALL_PAIRS_MAX_SQUARES = 10
"""Boards up to this size have all-pairs tables; larger ones a table per target."""
