"""The 2×2×2 cube (Pocket Cube) as a plug-in: the adapter the engine calls.  The rules
and notation are ``rules.py``; the moves on keys for the fast build ``search.py``.

Tables (``cube/half``, ``cube/quarter``): sparse, every position (one corner fixed:
3,674,160) with its fewest turns to the solved cube, in the metric the table is named
after.
"""

from __future__ import annotations

from builder.contract.base import Move, PuzzleOption
from builder.contract.errors import shown
from builder.contract.keyed import KeyedPuzzle, KeyKernel
from puzzles.cube import rules
from puzzles.cube.rules import METRICS, SOLVED, CubeError


class CubePuzzle(KeyedPuzzle):
    """The variant is the metric."""

    name = "cube"
    unit = "turns"
    summary = "the 2x2x2 cube (one corner fixed): turn U, R and F until each face is one colour"
    example = ("FRBU.BDRD.URUU.FFDF.RLLL.BDLB", "solved")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "metric", "half (the default: a quarter or half turn is one move) or quarter (a "
        "quarter turn is one move)", METRICS),)

    def recognises(self, text: str) -> bool:
        faces = text.strip().upper().split(".")
        return len(faces) == 6 and all(len(f) == 4 and set(f) <= set("URFDLB") for f in faces)

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
        return [Move(label, rules.turned(node, face, times))
                for label, face, times in rules.turn_names(metric)]

    def encode(self, metric: str, position) -> int:
        return rules.encode(position)

    def decode(self, metric: str, key: int):
        return rules.decode(key)

    def targets(self, metric: str) -> list:
        return [SOLVED]

    def kernel(self, metric: str) -> KeyKernel:
        return KeyKernel("puzzles.cube.search:cube_moves", 9,
                         parameters=(int(metric == "quarter"),))
