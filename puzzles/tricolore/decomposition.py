"""The document's 4×4 decomposition solver, by walking the 4×2 tables.

Top half (rows 1–2) by the unrestricted 4×2 table; its row-2 clicks also advance
row 3, which the bottom half starts from.  Bottom half (rows 3–4) by the hybrid
table (row-4 squares plus red squares of row 3, which never disturb rows 1–2).
When the target's top half is all blue or its bottom row is all blue, the board is
rotated (the rules respect the square's rotations).  When the target's whole border
is blue, the document's extension aims for an intermediate target from which one
last click on a non-blue inner square N gives the target: at most 22 + 1 clicks.

Not optimal in general; exact answers come from the single-target tables.
``DecompositionSolver.measure`` gives the lengths of many pairs' paths at once (the
sample of the catalog); ``solve`` gives one pair's clicks.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from builder.contract.base import TableLookup, never_of
from builder.contract.errors import PuzzleInputError
from puzzles.tricolore.rules import (
    BLUE,
    NO_CLICK,
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
        self.half_successors = self.half.click_table()

    def measure(self, starts: np.ndarray, targets: np.ndarray) -> dict[str, np.ndarray]:
        """The lengths of ``solve``'s paths for many (start, target) pairs at once:
        ``clicks`` and the clicks of each part (``top``, ``bottom``, ``extension``), uint8.

        The top half is walked for all pairs together, taking the same first legal click
        one closer as ``walk_columns``, because its row-2 clicks decide where the bottom
        half starts; the bottom half needs only its distance.  Pairs no rotation suits
        (the border extension) and pairs a half table cannot answer go through ``solve``,
        which also gives the one-line error."""
        starts = np.asarray(starts, dtype=np.int64)
        targets = np.asarray(targets, dtype=np.int64)
        measured = {name: np.zeros(len(starts), dtype=np.uint8)
                    for name in ("clicks", "top", "bottom", "extension")}
        measured_here = np.zeros(len(starts), dtype=bool)
        pending = targets != self.full.n_boards - 1  # solve names the all-blue error
        for perm in self.rotations.values():
            rows = np.flatnonzero(pending)
            rotated_targets = self.full.apply_symmetry(targets[rows], perm)
            suits = self._halves_solvable_many(rotated_targets)
            rows, rotated_targets = rows[suits], rotated_targets[suits]
            pending[rows] = False
            if not len(rows):
                continue
            top, bottom, answered = self._measure_halves(
                self.full.apply_symmetry(starts[rows], perm), rotated_targets)
            rows, top, bottom = rows[answered], top[answered], bottom[answered]
            measured["top"][rows], measured["bottom"][rows] = top, bottom
            measured["clicks"][rows] = top + bottom
            measured_here[rows] = True
        for row in np.flatnonzero(~measured_here):
            found = self.solve(int(starts[row]), int(targets[row]))
            for half in ("top", "bottom", "extension"):
                measured[half][row] = found.count(half)
            measured["clicks"][row] = found.length
        return measured

    def _halves_solvable_many(self, targets: np.ndarray) -> np.ndarray:
        """Whether each target suits the two halves: neither its top half nor its bottom
        row is all blue."""
        colours = self.full.colours(targets)
        return ~(colours[:, :8] == BLUE).all(axis=1) & ~(colours[:, 12:] == BLUE).all(axis=1)

    def _half_columns(self, method: str, targets: np.ndarray) -> tuple[np.ndarray, ...]:
        """The half table's walk arrays for ``targets`` (distinct), one row per target."""
        table = ("tricolore", self.half.shape_name, method)
        return tuple(np.stack([self.tables.column(table, name, int(target),
                                                  half_table_advice(method))
                               for target in targets])
                     for name in WALK_ARRAYS)

    def _measure_halves(self, starts: np.ndarray,
                        targets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``_solve_halves``' top and bottom click counts for many pairs, and whether each
        pair was answered (not where the hybrid table has no answer, or where the top table
        fails to walk: ``solve`` then says why)."""
        split = self.split
        top_targets, top_target_row = np.unique(targets // split, return_inverse=True)
        clicks, sole, avoiding = self._half_columns("unrestricted", top_targets)
        top_boards = starts // split
        top = np.where(top_boards != targets // split, clicks[top_target_row, top_boards], 0)
        boards, last, remaining = starts.copy(), np.full(len(starts), NO_CLICK), top.astype(int)
        failed = top == never_of(clicks)
        remaining[failed] = 0
        successors = self.half_successors
        for _ in range(int(remaining.max(initial=0))):
            walking = np.flatnonzero(remaining > 0)
            chosen = np.full(len(walking), NO_CLICK)
            board, row = top_boards[walking], top_target_row[walking]
            for square in range(self.half.n_squares):
                following = successors[board, square]
                closer = np.where(
                    (following == top_targets[row]),  # arrival (a click was made)
                    0, np.where(sole[row, following] == square, avoiding[row, following],
                                clicks[row, following]))
                take = ((chosen == NO_CLICK) & (last[walking] != square)
                        & (closer == remaining[walking] - 1))
                chosen[take] = square
            stuck = chosen == NO_CLICK  # an inconsistent table: solve reports it
            failed[walking[stuck]] = True
            remaining[walking[stuck]] = 0
            walking, chosen = walking[~stuck], chosen[~stuck]
            for square in range(self.half.n_squares):
                clicked = walking[chosen == square]
                boards[clicked] = self.full.click(boards[clicked], square)
                top_boards[clicked] = successors[top_boards[clicked], square]
            last[walking] = chosen
            remaining[walking] -= 1
        bottom_targets, bottom_target_row = np.unique(targets % split, return_inverse=True)
        bottom_clicks = self._half_columns("hybrid", bottom_targets)[0]
        bottom_boards = boards % split
        bottom = np.where(bottom_boards != targets % split,
                          bottom_clicks[bottom_target_row, bottom_boards], 0)
        answered = ~failed & (bottom != never_of(bottom_clicks))
        return top.astype(np.uint8), bottom.astype(np.uint8), answered

    def _rotate(self, board: int, perm: np.ndarray) -> int:
        return int(self.full.apply_symmetry(np.array([board]), perm)[0])

    def _halves_solvable(self, target: int) -> bool:
        return bool(self._halves_solvable_many(np.array([target]))[0])

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

    def solve_after(self, start: int, last: int, target: int) -> DecomposedPath:
        """The decomposition for a game in progress: ``start`` was reached by clicking
        ``last`` (NO_CLICK: none), which may not be clicked again at once, and a game must
        click at least once.  Where the decomposition's own first click is ``last`` (or it
        has none to make: the start is the target), one more click comes first: on the
        square, other than ``last``, whose decomposition then is shortest and starts
        elsewhere."""
        found = self.solve(start, target)
        if found.clicks and found.clicks[0] != last:
            return found
        best = None
        for square in range(self.full.n_squares):
            if square == last:
                continue
            after = self.solve(self.full.click_one(start, square), target)
            if after.clicks and after.clicks[0] == square:
                continue
            if best is None or after.length + 1 < best.length:
                best = DecomposedPath(start, target, (square, *after.clicks),
                                      ("first", *after.halves), (start, *after.boards),
                                      after.rotation)
        if best is None:
            raise DecompositionError("internal error: no first click suits the decomposition")
        return best

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
