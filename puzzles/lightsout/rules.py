"""Quinto / Lights Out rules on any rows × cols board, and their linear algebra over GF(2).

A click inverts the button and its four orthogonal neighbours (document 001).  Clicking
twice cancels, so a solution is a set of buttons: the board after clicking set x from
start s is s xor (A x), where column j of A is button j's click mask.  Solving A x =
start xor target is Gaussian elimination over GF(2) on bit-packed rows (Python ints);
every solution is x0 xor (any combination of the null space), so there are
2^nullity of them, and the fewest clicks is the minimum weight over that coset,
found exactly by enumerating the coset up to ``MAX_EXACT_NULLITY``.

Notation: rows of 0/1 joined by '.', top row first (``111.111.111``); buttons are
numbered row-major from 0, and bit i of a state is button i.

The rules alone (no command line, web or database: an import-linter contract keeps
every ``rules.py`` so); the tables are ``tables.py``, the adapter ``__init__.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from builder.contract.errors import PuzzleInputError, check_length, shown

MAX_EXACT_NULLITY = 22
"""Cosets of up to 2^22 solutions are enumerated exactly for the fewest clicks."""


class LightsOutError(PuzzleInputError):
    """A malformed board or an impossible request."""


@dataclass(frozen=True)
class Solution:
    solvable: bool
    nullity: int
    clicks: tuple[int, ...]  # a minimum-click solution (empty when unsolvable)
    exact_minimum: bool

    @property
    def count(self) -> int:
        return 2**self.nullity if self.solvable else 0


@dataclass(frozen=True)
class LightsOut:
    """The click rule of a rows × cols board.

    >>> LightsOut(3, 3).solve(0, LightsOut(3, 3).all_on).clicks
    (0, 2, 4, 6, 8)
    """

    rows: int
    cols: int

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= 64 and 1 <= self.cols <= 64):
            raise LightsOutError(f"board {self.rows}x{self.cols}: 1 to 64 rows and columns")

    @property
    def n_buttons(self) -> int:
        return self.rows * self.cols

    @property
    def all_on(self) -> int:
        return (1 << self.n_buttons) - 1

    @cached_property
    def click_masks(self) -> tuple[int, ...]:
        masks = []
        for button in range(self.n_buttons):
            row, col = divmod(button, self.cols)
            mask = 1 << button
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < self.rows and 0 <= c < self.cols:
                    mask |= 1 << (r * self.cols + c)
            masks.append(mask)
        return tuple(masks)

    def parse(self, text: str) -> int:
        lines = text.strip().split(".")
        if len(lines) != self.rows or any(len(line) != self.cols for line in lines):
            raise LightsOutError(
                f"board {shown(text)} is not {self.rows} rows of {self.cols} buttons joined by '.'"
            )
        if set("".join(lines)) - set("01"):
            raise LightsOutError(f"board {shown(text)} has characters other than 0 and 1")
        return sum(1 << i for i, ch in enumerate("".join(lines)) if ch == "1")

    @staticmethod
    def shape_of(text: str) -> tuple[int, int]:
        lines = check_length(text, "board", LightsOutError).strip().split(".")
        if not lines[0]:
            raise LightsOutError("empty board")
        return len(lines), len(lines[0])

    def format(self, state: int) -> str:
        bits = "".join("1" if state >> i & 1 else "0" for i in range(self.n_buttons))
        return ".".join(bits[r * self.cols : (r + 1) * self.cols] for r in range(self.rows))

    def press(self, state: int, buttons) -> int:
        for button in buttons:
            state ^= self.click_masks[button]
        return state

    @cached_property
    def _reduced(self) -> tuple[dict[int, list[int]], list[int]]:
        """Gauss–Jordan on the equations [A | I]: per pivot column its reduced row (bits,
        combination of original equations), and the combinations that vanish."""
        n = self.n_buttons
        rows = [[self.click_masks[i], 1 << i] for i in range(n)]
        pivot_of_column: dict[int, list[int]] = {}
        remaining = rows
        for column in range(n):
            index = next((k for k, r in enumerate(remaining) if r[0] >> column & 1), None)
            if index is None:
                continue
            pivot = remaining.pop(index)
            for r in remaining:
                if r[0] >> column & 1:
                    r[0] ^= pivot[0]
                    r[1] ^= pivot[1]
            for r in pivot_of_column.values():
                if r[0] >> column & 1:
                    r[0] ^= pivot[0]
                    r[1] ^= pivot[1]
            pivot_of_column[column] = pivot
        # rows reduced to zero: combinations c with c·A = 0
        return pivot_of_column, [combo for _, combo in remaining]

    @property
    def nullity(self) -> int:
        return len(self._reduced[1])

    @cached_property
    def null_space(self) -> list[int]:
        """Click sets that change nothing (A x = 0); A is symmetric, so the combinations
        of equations that vanish are exactly these."""
        return self._reduced[1]

    def solve(self, start: int, target: int = 0) -> Solution:
        """Which click sets turn ``start`` into ``target``, and one with the fewest clicks."""
        change = start ^ target
        pivots, null_space = self._reduced
        # solvable iff change is orthogonal to the null space (A symmetric: image = kernel⊥)
        if any((change & vector).bit_count() % 2 for vector in null_space):
            return Solution(False, len(null_space), (), True)
        # x = sum over pivot columns of (combination row · change) e_column
        particular = 0
        for column, (bits, combo) in pivots.items():
            if (combo & change).bit_count() % 2:
                particular |= 1 << column
        best, exact = particular, len(null_space) <= MAX_EXACT_NULLITY
        if exact:
            best = _minimum_weight_coset(particular, null_space)
        clicks = tuple(i for i in range(self.n_buttons) if best >> i & 1)
        return Solution(True, len(null_space), clicks, exact)


def _minimum_weight_coset(particular: int, basis: list[int]) -> int:
    """min weight of particular xor span(basis), by a Gray-code walk over the coset."""
    best = current = particular
    best_weight = best.bit_count()
    for step in range(1, 1 << len(basis)):
        current ^= basis[(step & -step).bit_length() - 1]
        weight = current.bit_count()
        if weight < best_weight:
            best, best_weight = current, weight
    return best
