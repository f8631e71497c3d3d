"""English peg solitaire (33 holes) as a plug-in: the adapter the engine calls.  The
board and notation are ``rules.py``; the jumps and the key, each written once, are
``search.py``, which the engine compiles for the build and the walk runs as Python.

Table (``pegs/english``): sparse, every position reachable from the standard start (the
centre empty) up to the board's eight symmetries, each with the jumps it needs to finish
with one peg in the centre, or never.  Jumps cannot be undone, so the distances are
searched backwards over the jumps undone.
"""

from __future__ import annotations

from builder.contract.base import Move
from builder.contract.errors import shown
from builder.contract.puzzle import KeyKernel, KeyedPuzzle
from builder.contract.specs import run_moves
from puzzles.pegs import rules
from puzzles.pegs.rules import GOAL, STANDARD, START, PegsError

BOARD = "english"


class PegsPuzzle(KeyedPuzzle):
    """One variant: the English board."""

    name = "pegs"
    unit = "jumps"
    summary = "English peg solitaire (33 holes): jump pegs until one is left, in the centre"
    example = (STANDARD, "solved")
    renderer = "renderer.js"
    shards = 4  # the largest level holds millions of keys: four tasks of a quarter each

    def recognises(self, text: str) -> bool:
        """The 33-hole cross row by row, 'o' a peg and '_' a hole, rows joined by '.'
        (another board, a European cross say, is another puzzle's)."""
        rows = text.strip().split(".")
        return ([len(row) for row in rows] == rules.ROW_LENGTHS
                and set("".join(rows)) <= set("o_"))

    def variant(self, start: str, target: str, options: dict) -> str:
        return BOARD

    def parse(self, board: str, text: str) -> int:
        return rules.parse(text)

    def format_position(self, board: str, mask: int) -> str:
        return rules.format_board(mask)

    def moves(self, board: str, node: int) -> list[Move]:
        from puzzles.pegs.search import jumps

        return [Move(rules.jump_name(node, after), after)
                for after in run_moves(jumps, node, len(rules.JUMPS))]

    def unmoves(self, board: str, position: int) -> list[int]:
        from puzzles.pegs.search import unjumps

        return run_moves(unjumps, position, len(rules.JUMPS))

    def encode(self, board: str, position: int) -> int:
        from puzzles.pegs.search import canonical

        return int(canonical(position))

    def decode(self, board: str, key: int) -> int:
        return key

    def starts(self, board: str) -> list[int]:
        return [START]

    def targets(self, board: str) -> list[int]:
        return [GOAL]

    def is_goal(self, board: str, position: int) -> bool:
        return position == GOAL

    def table_variants(self) -> list[str]:
        return [BOARD]

    def variant_name(self, board: str) -> str:
        return board

    def variant_named(self, name: str) -> str:
        if name != BOARD:
            raise PegsError(f"board {shown(name)}: the tables are of the english board")
        return name

    def kernel(self, board: str) -> KeyKernel:
        from puzzles.pegs.search import canonical, jumps, unjumps

        return KeyKernel(jumps, len(rules.JUMPS), predecessors=unjumps, canonical=canonical)
