"""The document's 4×4 decomposition solver, by walking the 4×2 tables.

Top half (rows 1–2) by the unrestricted 4×2 table; its row-2 clicks also advance
row 3, which the bottom half starts from.  Bottom half (rows 3–4) by the hybrid
table (row-4 squares plus red squares of row 3, which never disturb rows 1–2).
When the target's top half is all blue or its bottom row is all blue, the board is
rotated (the rules respect the square's rotations).  When the target's whole border
is blue, the document's extension aims for an intermediate target from which one
last click on a non-blue inner square N gives the target: at most 22 + 1 clicks.

Not optimal in general; exact answers come from the single-target tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from builder.puzzles import PuzzleInputError
from builder.puzzles.base import TableLookup
from builder.puzzles.tricolore.rules import (
    BLUE,
    RED,
    WALK_ARRAYS,
    WHITE,
    InconsistentTable,
    Tricolore,
    walk_columns,
)

ROTATIONS = ("identity", "quarter_turn", "half_turn", "three_quarter_turn")
N_SQUARE = 10
"""The inner square (row 3, column 3) the border extension clicks last."""


class DecompositionError(PuzzleInputError):
    """The decomposition has no answer for this pair (the target is all blue)."""


@dataclass(frozen=True)
class DecomposedPath:
    start: int
    target: int
    clicks: tuple[int, ...]
    halves: tuple[str, ...]
    boards: tuple[int, ...]
    rotation: str

    @property
    def length(self) -> int:
        return len(self.clicks)

    def count(self, half: str) -> int:
        return self.halves.count(half)


def half_table_advice(method: str) -> str:
    return (f"no {method} table for 4x2 Tricolore boards: the decomposition walks the 4x2 "
            "unrestricted and hybrid tables; run `make tables` or `builder tricolore`")


def half_path(rules: Tricolore, tables: TableLookup, method: str, start: int,
              target: int) -> list[int]:
    """An optimal click sequence from ``start`` to ``target`` by walking the all-pairs
    table of ``rules``' shape under ``method`` (target column read once)."""
    table = ("tricolore", rules.shape_name, method)
    tables.require(table, {"puzzle": "tricolore", "width": rules.width,
                           "height": rules.height, "method": method},
                   half_table_advice(method))
    columns = [tables.column(table, name, target, half_table_advice(method))
               for name in WALK_ARRAYS]
    try:
        path = walk_columns(rules, columns, start, target, method)
    except InconsistentTable as damaged:
        raise DecompositionError(f"the 4x2 {method} table is inconsistent at "
                                 f"{rules.format(damaged.board)}: rebuild it (`make tables "
                                 "FORCE=1`)") from None
    if path is None:
        raise DecompositionError(f"{rules.format(target)} cannot be reached under the "
                                 f"{method} method from {rules.format(start)}")
    return [square for square, _ in path]


class DecompositionSolver:
    """Solves 4×4 boards with the document's method (needs the 4×2 tables)."""

    def __init__(self, tables: TableLookup):
        self.full = Tricolore(4, 4)
        self.half = Tricolore(4, 2)
        self.tables = tables
        for method in ("unrestricted", "hybrid"):  # missing tables: say so before any work
            tables.require(("tricolore", "4x2", method), {"puzzle": "tricolore", "width": 4,
                                                          "height": 2, "method": method},
                           half_table_advice(method))
        symmetries = self.full.symmetries("unrestricted")
        self.rotations = {name: np.asarray(symmetries[name]) for name in ROTATIONS}
        self.split = self.half.n_boards  # a 4×4 rank is top * 6561 + bottom

    def _rotate(self, board: int, perm: np.ndarray) -> int:
        return int(self.full.apply_symmetry(np.array([board]), perm)[0])

    def _halves_solvable(self, target: int) -> bool:
        colours = self.full.colours(np.array([target]))[0]
        top_all_blue = (colours[:8] == BLUE).all()
        bottom_row_all_blue = (colours[12:] == BLUE).all()
        return not top_all_blue and not bottom_row_all_blue

    def _solve_halves(self, start: int, target: int) -> tuple[list[int], list[str]]:
        clicks: list[int] = []
        halves: list[str] = []
        board = start
        top_start, top_target = board // self.split, target // self.split
        if top_start != top_target:
            for square in half_path(self.half, self.tables, "unrestricted", top_start,
                                    top_target):
                board = self.full.click_one(board, square)
                clicks.append(square)
                halves.append("top")
        bottom_start, bottom_target = board % self.split, target % self.split
        if bottom_start != bottom_target:
            for square in half_path(self.half, self.tables, "hybrid", bottom_start,
                                    bottom_target):
                clicks.append(square + 8)
                halves.append("bottom")
        return clicks, halves

    def _replay(self, start: int, clicks: list[int]) -> list[int]:
        boards = [start]
        for square in clicks:
            boards.append(self.full.click_one(boards[-1], square))
        return boards

    def solve(self, start: int, target: int) -> DecomposedPath:
        all_blue = self.full.n_boards - 1
        if target == all_blue:
            raise DecompositionError(
                f"{self.full.format(target)} cannot be reached: no click leaves a square blue"
            )
        for name, perm in self.rotations.items():
            if self._halves_solvable(self._rotate(target, perm)):
                clicks, halves = self._solve_halves(
                    self._rotate(start, perm), self._rotate(target, perm)
                )
                return self._finish(start, target, clicks, halves, name)
        return self._border_extension(start, target)

    def clicks_after(self, start: int, last: int, target: int) -> list[int]:
        """The decomposition's clicks for a game in progress: ``start`` was reached by
        clicking ``last`` (NO_CLICK: none), which may not be clicked again at once, and a
        game must click at least once.  Where the decomposition's own first click is
        ``last`` (or it has none to make), one more click on another square comes first:
        the first whose decomposition then starts elsewhere."""
        clicks = list(self.solve(start, target).clicks)
        if clicks and clicks[0] != last:
            return clicks
        for square in range(self.full.n_squares):
            if square == last:
                continue
            after = self.solve(self.full.click_one(start, square), target).clicks
            if not after or after[0] != square:
                return [square, *after]
        raise DecompositionError("internal error: no first click suits the decomposition")

    def _border_extension(self, start: int, target: int) -> DecomposedPath:
        for name, perm in self.rotations.items():
            rotated_target = self._rotate(target, perm)
            colours = self.full.colours(np.array([rotated_target]))[0]
            if colours[N_SQUARE] == BLUE:
                continue
            # N red was blue before the last click (it and its neighbours advanced);
            # N white stays white (only its neighbours advanced).
            was = BLUE if colours[N_SQUARE] == RED else WHITE
            intermediate_colours = colours - self.full.advance_masks[N_SQUARE, was]
            intermediate = int(self.full.ranks(intermediate_colours[None, :])[0])
            clicks, halves = self._solve_halves(self._rotate(start, perm), intermediate)
            if clicks and clicks[-1] == N_SQUARE:
                continue  # the same square may not be clicked twice in succession
            return self._finish(start, target, clicks + [N_SQUARE], halves + ["extension"], name)
        raise DecompositionError(
            f"no rotation of {self.full.format(target)} suits the border extension"
        )

    def _finish(self, start, target, clicks, halves, rotation) -> DecomposedPath:
        perm = self.rotations[rotation]
        inverse = np.argsort(perm)
        original = [int(inverse[square]) for square in clicks]
        boards = self._replay(start, original)
        if boards[-1] != target or any(a == b for a, b in pairwise(original)):
            raise DecompositionError("internal error: the decomposition does not replay to "
                                     "its target")
        return DecomposedPath(start, target, tuple(original), tuple(halves), tuple(boards),
                              rotation)
