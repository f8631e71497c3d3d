"""Lucas' inverted pieces (document 003): n pieces A and n pieces B in a row of 2n + 1
cells with one gap.  A move shifts a piece next to the gap into it, or jumps a piece
over exactly one piece of the other colour into the gap; any piece, either way.

Encoding: a state is ``gap * 2**cells + a_mask`` (bit i of a_mask: cell i holds an A;
the other non-gap cells hold B).  The sorted array of every state's code is the perfect
ranking (rank = position in it, found by binary search), so tables are flat arrays.
Notation: ``AAA_BBB`` (``_`` is the gap).  Pure numpy.

The rules alone (no command line, web or database: an import-linter contract keeps
every ``rules.py`` so); the tables are ``tables.py``, the adapter ``__init__.py``.

The classic rule (``--variant forward``): pieces only move forward, A right and B left
(the document's solution only ever moves them so).  Its table ``lucas/forward`` holds,
for n = 1 .. 10, the fewest classic moves from every arrangement to the goal (never
where the goal can no longer be reached), filled by the engine's generic kernel from
``search.lucas_steps`` over a dense ranking (``dense_rank``).

The document's table (``lucas/tables``, `builder lucas --max-n N`): for n = 1 .. N every
arrangement's moves from the standard start and to the goal, by the level search of
``levels.py``, which also counts the shortest solutions and their jumps: the catalog's
``lucas_summary``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np

from builder.contract.errors import PuzzleInputError, shown

SHIFT, JUMP = "shift", "jump"


def _masks_with_ones(length: int, ones: int) -> np.ndarray:
    """Every ``length``-bit mask with exactly ``ones`` bits set (int64), built one bit
    position at a time: by_count[k] holds the masks so far with k bits set."""
    by_count = [np.zeros(1, dtype=np.int64)]
    for position in range(length):
        bit = np.int64(1) << position
        by_count = [np.concatenate([by_count[k] if k < len(by_count) else
                                    np.zeros(0, dtype=np.int64),
                                    by_count[k - 1] | bit if k else np.zeros(0, dtype=np.int64)])
                    for k in range(min(len(by_count) + 1, ones + 1))]
    return by_count[ones] if ones < len(by_count) else np.zeros(0, dtype=np.int64)


OFFSETS = (-2, -1, 1, 2)
"""Where a piece that moves stands, from the gap: a jump from two cells off, a shift from one."""


def piece_moved(code, offset, cells):
    """The piece ``offset`` cells from the gap moved into it: the code after, whether the
    move is legal (a piece is there; a jump goes over one piece of the other colour) and
    whether the piece is an A.  The one statement of the moves: the document's level
    search, verify and the walk run it on numpy arrays of codes, and the engine compiles it
    into the classic rule's kernel for one code, so it uses only operators that mean the
    same on a number and on an array (no clip: numba has none for a number)."""
    gap = code >> cells
    mask = code & ((1 << cells) - 1)
    source = gap + offset
    inside = (source >= 0) & (source < cells)
    safe_source = np.minimum(np.maximum(source, 0), cells - 1)
    is_a = (mask >> safe_source) & 1
    legal = inside
    if offset == 2 or offset == -2:
        over = np.minimum(np.maximum(gap + offset // 2, 0), cells - 1)
        legal = legal & (((mask >> over) & 1) != is_a)
    following = (safe_source << cells) | (mask & ~(1 << safe_source)) | (is_a << gap)
    return following, legal, is_a


RANKED_MAX_N = 15
"""The dense ranking's binomials stop here (the classic rule's tables go to n = 10)."""
BINOMIAL = np.array([[comb(top, chosen) for chosen in range(RANKED_MAX_N + 2)]
                     for top in range(2 * RANKED_MAX_N + 2)], dtype=np.int64)


def rank_of_code(code, n):
    """An arrangement's dense rank: gap * C(2n, n) + the colex rank of the A's among the
    2n cells that are not the gap (plain Python the engine compiles into the kernel)."""
    cells = 2 * n + 1
    gap = code >> cells
    rank = gap * BINOMIAL[2 * n, n]
    slot = 0
    chosen = 0
    for cell in range(cells):
        if cell == gap:
            continue
        if (code >> cell) & 1:
            chosen += 1
            rank += BINOMIAL[slot, chosen]
        slot += 1
    return rank


def code_of_rank(rank, n):
    """The code of a dense rank (``rank_of_code`` inverted)."""
    per_gap = BINOMIAL[2 * n, n]
    gap = rank // per_gap
    rest = rank - gap * per_gap
    compressed = 0  # the A's among the cells that are not the gap, the gap's cell removed
    slot = 2 * n - 1
    for chosen in range(n, 0, -1):
        while BINOMIAL[slot, chosen] > rest:
            slot -= 1
        rest -= BINOMIAL[slot, chosen]
        compressed |= 1 << slot
        slot -= 1
    below = compressed & ((1 << gap) - 1)
    return (gap << (2 * n + 1)) | below | ((compressed ^ below) << 1)


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
        others = _masks_with_ones(self.cells - 1, self.n)  # the A's among the other cells
        found = []
        for gap in range(self.cells):  # a zero bit for the gap at position ``gap``
            below = others & ((1 << gap) - 1)
            found.append((gap << self.cells) | below | ((others ^ below) << 1))
        return np.sort(np.concatenate(found))

    def rank(self, codes: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.codes, codes)

    def moves(self, codes: np.ndarray):
        """For each of the four moves (piece from gap-2, gap-1, gap+1, gap+2): the resulting
        codes, which are legal, the move type and the moving piece's letter."""
        result = []
        for offset in OFFSETS:
            following, legal, is_a = piece_moved(codes, offset, self.cells)
            result.append((following, legal, JUMP if abs(offset) == 2 else SHIFT, is_a))
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


FORWARD_MAX_N = 10
"""`make tables` stores the classic rule's distances for n = 1 .. 10 (3.9 M arrangements)."""
FORWARD = "forward"
EITHER_WAY = "either way"


@dataclass(frozen=True)
class ForwardOnly:
    """The classic rule's variant: the same arrangements, moves only forward."""

    rules: Lucas


def dense_rank(rules: Lucas, code: int) -> int:
    """An arrangement's rank in the tables the generic kernel fills (``rank_of_code``)."""
    return int(rank_of_code(code, rules.n))


def rules_of_variant(variant: Lucas | ForwardOnly) -> Lucas:
    """The arrangements and notation of either rule (the classic one wraps them)."""
    return variant.rules if isinstance(variant, ForwardOnly) else variant
