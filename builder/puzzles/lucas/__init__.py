"""Lucas' inverted pieces (document 003): n pieces A and n pieces B in a row of 2n + 1
cells with one gap.  A move shifts a piece next to the gap into it, or jumps a piece
over exactly one piece of the other colour into the gap; any piece, either way.

Encoding: a state is ``gap * 2**cells + a_mask`` (bit i of a_mask: cell i holds an A;
the other non-gap cells hold B).  The sorted array of every state's code is the perfect
ranking (rank = position in it, found by binary search), so tables are flat arrays.
Notation: ``AAA_BBB`` (``_`` is the gap).  Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

import numpy as np

from builder.puzzles import PuzzleInputError, shown
from builder.puzzles.base import DistanceArray, Move, WalkablePuzzle

SHIFT, JUMP = "shift", "jump"


class LucasError(PuzzleInputError):
    """A malformed arrangement."""


@dataclass(frozen=True)
class Lucas:
    n: int

    def __post_init__(self) -> None:
        if not 1 <= self.n <= 10_000:
            raise LucasError(f"n = {self.n}: from 1 to 10,000 pieces of each colour")

    @property
    def cells(self) -> int:
        return 2 * self.n + 1

    @property
    def start(self) -> str:
        return "A" * self.n + "_" + "B" * self.n

    @property
    def goal(self) -> str:
        return "B" * self.n + "_" + "A" * self.n

    def parse(self, text: str) -> int:
        text = text.strip().upper()
        if len(text) != self.cells or sorted(text) != sorted(self.start):
            raise LucasError(
                f"arrangement {shown(text)} is not {self.n} A's, {self.n} B's and one '_'"
            )
        gap = text.index("_")
        return (gap << self.cells) | sum(1 << i for i, ch in enumerate(text) if ch == "A")

    def format(self, code: int) -> str:
        gap, mask = code >> self.cells, code & ((1 << self.cells) - 1)
        return "".join("_" if i == gap else "A" if mask >> i & 1 else "B"
                       for i in range(self.cells))

    @cached_property
    def codes(self) -> np.ndarray:
        """Every state's code, sorted: the ranking (tables only: n <= 30 fits int64)."""
        if self.n > 30:
            raise LucasError(f"n = {self.n}: a table of every arrangement stops at n = 30")
        found = []
        for gap in range(self.cells):
            others = [i for i in range(self.cells) if i != gap]
            for chosen in combinations(others, self.n):
                found.append((gap << self.cells) | sum(1 << i for i in chosen))
        return np.array(sorted(found), dtype=np.int64)

    def rank(self, codes: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.codes, codes)

    def moves(self, codes: np.ndarray):
        """For each of the four moves (piece from gap-2, gap-1, gap+1, gap+2): the resulting
        codes, which are legal, the move type and the moving piece's letter."""
        cells = self.cells
        gap = codes >> cells
        mask = codes & ((1 << cells) - 1)
        result = []
        for offset in (-2, -1, 1, 2):
            source = gap + offset
            inside = (source >= 0) & (source < cells)
            safe_source = np.clip(source, 0, cells - 1)
            is_a = (mask >> safe_source) & 1
            legal = inside
            if abs(offset) == 2:
                over = np.clip(gap + offset // 2, 0, cells - 1)
                legal = legal & (((mask >> over) & 1) != is_a)
            new_mask = (mask & ~(1 << safe_source)) | (is_a << gap)
            result.append(((safe_source << cells) | new_mask, legal,
                           JUMP if abs(offset) == 2 else SHIFT, is_a))
        return result

    def closed_form(self) -> list[tuple[str, str]]:
        """The document's move pattern, (agent, move type) per move, without search: blocks
        of growing length alternating A (moving right) and B (moving left), each ending in
        a shift; a middle block of n jumps; then the same blocks mirrored."""
        direction: list[int] = []
        action: list[str] = []
        for group in range(1, self.n + 1):
            action += [JUMP] * (group - 1) + [SHIFT]
            direction += [1 if group % 2 else -1] * group
        mirrored_direction, mirrored_action = direction[::-1], action[::-1]
        direction += [-direction[-1]] * self.n + mirrored_direction
        action += [JUMP] * self.n + mirrored_action
        return [("A" if d > 0 else "B", a) for d, a in zip(direction, action)]

    def play(self, text: str, moves: list[tuple[str, str]]) -> list[str]:
        """Arrangements after each move (agent A moves right, B left), checking legality."""
        cells = list(text)
        seen = [text]
        for agent, kind in moves:
            gap = cells.index("_")
            step = 1 if kind == SHIFT else 2
            source = gap - step if agent == "A" else gap + step
            if not 0 <= source < len(cells) or cells[source] != agent:
                raise LucasError(f"move {agent} {kind} is not possible in {''.join(cells)}")
            if kind == JUMP and cells[(source + gap) // 2] == agent:
                raise LucasError(f"{agent} cannot jump its own colour in {''.join(cells)}")
            cells[gap], cells[source] = agent, "_"
            seen.append("".join(cells))
        return seen


class LucasPuzzle(WalkablePuzzle):
    """Lucas' pieces as a plug-in: the tables hold, per n, every arrangement's moves to
    the goal and from the standard start (moves are reversible, so also to the start)."""

    name = "lucas"
    summary = "Lucas' inverted pieces: swap n A's and n B's across one gap"
    example = ("AAA_BBB", "BBB_AAA")

    def recognises(self, text: str) -> bool:
        text = text.strip()
        return "_" in text and "|" not in text and all(ch.isalpha() or ch == "_" for ch in text)

    def variant(self, start: str, target: str, options: dict) -> Lucas:
        text = start.strip().upper()
        if len(text) % 2 == 0 or text.count("_") != 1:
            raise LucasError(f"arrangement {shown(start)}: n A's, one '_' and n B's")
        return Lucas(len(text) // 2)

    def parse(self, rules: Lucas, text: str) -> int:
        return rules.parse(text)

    def format(self, rules: Lucas, state: int) -> str:
        return rules.format(state)

    def default_target(self, rules: Lucas) -> str:
        return rules.goal

    def moves(self, rules: Lucas, node: int) -> list[Move]:
        found = []
        for following, legal, kind, is_a in rules.moves(np.array([node])):
            if legal[0]:
                found.append(Move(f"{'A' if is_a[0] else 'B'} {kind}", int(following[0])))
        return found

    def distance(self, tables, rules: Lucas, node: int, target: int) -> int | None:
        table = ("lucas", "tables")
        missing = f"no Lucas table: run `make tables` or `builder lucas --max-n {rules.n}`"
        attributes = tables.require(table, {"puzzle": "lucas"}, missing)
        if rules.n > attributes.get("max_n", 0):
            raise LucasError(f"no Lucas table for n = {rules.n}: run `builder lucas --max-n "
                             f"{rules.n}`")
        if target == rules.parse(rules.goal):
            array = f"n{rules.n}_to_goal"
        elif target == rules.parse(rules.start):
            array = f"n{rules.n}_from_start"
        else:
            raise LucasError(f"the Lucas tables hold distances to {rules.goal} and to "
                             f"{rules.start} only, not to {rules.format(target)}")
        found = tables.value(table, array, int(rules.rank(np.array([node]))[0]), missing)
        return None if found < 0 else found

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        return [DistanceArray(f"n={n}", "to goal", f"n{n}_to_goal", -1)
                for n in range(1, attributes.get("max_n", 0) + 1)]
