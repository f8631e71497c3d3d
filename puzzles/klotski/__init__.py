"""Klotski (Huarong Dao) as a plug-in: the adapter the engine calls.  The rules and
notation are ``rules.py``; the moves on keys for the fast build ``search.py``.

Tables (``klotski/block``, ``klotski/cell``): sparse, every position reachable from the
classic start ``BAAC.BAAC.DEEF.DGHF.I--J`` with its fewest moves to the goal (the 2×2
block at the bottom centre), in the metric the table is named after.
"""

from __future__ import annotations

from builder.contract.base import Move, PuzzleOption
from builder.contract.errors import shown
from builder.contract.puzzle import KeyKernel, KeyedPuzzle
from builder.contract.specs import run_moves
from puzzles.klotski import rules
from puzzles.klotski.rules import CLASSIC, METRICS, KlotskiError


MOST_MOVES = 64
"""Room for every move from one position (the kernels stop writing past it)."""

class KlotskiPuzzle(KeyedPuzzle):
    """The variant is the metric."""

    name = "klotski"
    unit = "moves"
    summary = ("Klotski (Huarong Dao): slide the blocks until the 2x2 block reaches the "
               "bottom centre")
    example = (CLASSIC, "solved")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "metric", "block (the default: a move is one block any distance, round corners "
        "too) or cell (one block one cell)", METRICS),)

    def recognises(self, text: str) -> bool:
        rows = text.strip().split(".")
        return (len(rows) == rules.HEIGHT and all(len(row) == rules.WIDTH for row in rows)
                and "-" in text and all(ch.isalpha() or ch in "-." for ch in text))

    def variant(self, start: str, target: str, options: dict) -> str:
        metric = options.get("metric") or "block"
        if metric not in METRICS:
            raise KlotskiError(f"metric {shown(metric)}: choose block or cell")
        return metric

    def parse(self, metric: str, text: str) -> tuple[int, ...]:
        cells = rules.parse(text)
        rules.check_classic_blocks(cells, text)
        return cells

    def format_position(self, metric: str, cells: tuple[int, ...]) -> str:
        return rules.format_cells(cells)

    def drawing(self, metric: str, cells: tuple[int, ...]) -> str:
        rows = rules.format_cells(cells).split(".")
        framed = ["| " + " ".join("." if cell == "-" else cell for cell in row) + " |"
                  for row in rows]
        return "\n".join(["+" + "-" * (len(framed[0]) - 2) + "+", *framed,
                          "+---   ---+"])  # the exit, below the two middle columns

    def moves(self, metric: str, node: tuple[int, ...]) -> list[Move]:
        from puzzles.klotski import search

        moves = getattr(search, f"{metric}_moves")
        return [Move(rules.move_name(node, after, metric), after) for after in
                map(rules.decode, run_moves(moves, rules.encode(node), MOST_MOVES))]

    def encode(self, metric: str, position: tuple[int, ...]) -> int:
        return rules.encode(position)

    def decode(self, metric: str, key: int) -> tuple[int, ...]:
        return rules.decode(key)

    def is_goal(self, metric: str, position: tuple[int, ...]) -> bool:
        return rules.is_goal(position)

    def starts(self, metric: str) -> list[tuple[int, ...]]:
        return [rules.parse(CLASSIC)]

    def kernel(self, metric: str) -> KeyKernel:
        from puzzles.klotski import search

        return KeyKernel(getattr(search, f"{metric}_moves"), MOST_MOVES, goal=search.at_goal)
