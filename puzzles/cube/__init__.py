"""The 2×2×2 cube (Pocket Cube) as a plug-in: the adapter the engine calls.  The rules
and notation are ``rules.py``; the moves on keys for the fast build ``search.py``.

Tables (``cube/half``, ``cube/quarter``): sparse, every position (one corner fixed:
3,674,160) with its fewest turns to the solved cube, in the metric the table is named
after.  Pattern databases (``cube/patterns/METRIC/``): the engine derives them from the
corners declared as pieces (``tables.py``); where a metric's full table is not stored,
IDA* on them answers the way to the solved cube.
"""

from __future__ import annotations

from builder.contract.base import Move, PuzzleOption
from builder.contract.errors import shown
from builder.contract.puzzle import KeyKernel, KeyedPuzzle, KeyedSearch, Pieces
from builder.contract.specs import run_moves
from puzzles.cube import rules
from puzzles.cube.rules import METRICS, SOLVED, CubeError
from puzzles.cube.tables import corner_pieces


class CubeSearch(KeyedSearch):
    """The engine's keyed tables of each metric, and the corners as pieces, from which it
    derives the pattern databases the exact search reads beyond them."""

    def pieces(self, metric: str) -> Pieces:
        return corner_pieces(metric)


class CubePuzzle(KeyedPuzzle):
    """The variant is the metric."""

    own_search = CubeSearch

    name = "cube"
    unit = "turns"
    summary = "the 2x2x2 cube (one corner fixed): turn U, R and F until each face is one colour"
    example = ("FRBU.BDRD.URUU.FFDF.RLLL.BDLB", "solved")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "metric", "half (the default: a quarter or half turn is one move) or quarter (a "
        "quarter turn is one move)", METRICS),)

    def recognises(self, text: str) -> bool:
        """Six faces of four stickers joined by '.', showing all six of U R F D L B (rows
        of fewer letters are Tricolore's or another puzzle's)."""
        faces = text.strip().upper().split(".")
        return (len(faces) == 6 and all(len(face) == 4 for face in faces)
                and set("".join(faces)) == set("URFDLB"))

    def variant(self, start: str, target: str, options: dict) -> str:
        metric = options.get("metric") or "half"
        if metric not in METRICS:
            raise CubeError(f"metric {shown(metric)}: choose half or quarter")
        return metric

    def parse(self, metric: str, text: str):
        return rules.parse(text)

    def format_position(self, metric: str, position) -> str:
        return rules.format_cube(position)

    def moves(self, metric: str, node) -> list[Move]:
        kernel = self.kernel(metric)
        # the kernel writes every turn, in the order of turn_names
        return [Move(label, rules.decode(key)) for (label, _, _), key in zip(
            rules.turn_names(metric), run_moves(kernel.successors, rules.encode(node),
                                                kernel.most_moves, kernel.parameters),
            strict=True)]

    def encode(self, metric: str, position) -> int:
        return rules.encode(position)

    def decode(self, metric: str, key: int):
        return rules.decode(key)

    def targets(self, metric: str) -> list:
        return [SOLVED]

    def kernel(self, metric: str) -> KeyKernel:
        from puzzles.cube.search import cube_moves

        return KeyKernel(cube_moves, 9, parameters=(int(metric == "quarter"),))
