"""The 2×2×2 cube's corners as pieces (``Pieces``): from them the engine derives the
pattern databases (``builder/piece_patterns.py``), builds and verifies them, and answers
by IDA* on them where a metric's full table is not stored.

A pattern sees a few corners, their places and twists, the others unseen.  The default
patterns are the four corners of each turned face (U, R and F); as every turn moves
corners of all three, their values do not add: the search takes the largest.  The full
tables (``cube/half``, ``cube/quarter``) answer every position; `builder verify` checks
the estimates against them where they are stored.
"""

from __future__ import annotations

from builder.contract.puzzle import Pieces
from puzzles.cube.rules import FIXED, PLACES, turn_effect, turn_names

PATTERNS = {"U": ("URF", "UFL", "ULB", "UBR"), "R": ("URF", "UBR", "DFR", "DRB"),
            "F": ("URF", "UFL", "DFR", "DLF")}
"""The default patterns, by face: the corners of each face the moves turn."""


def corner_pieces(metric: str) -> Pieces:
    """The corners as pieces and the metric's turns as what each place takes, in the order
    of the puzzle's moves (``turn_names``)."""
    names = turn_names(metric)
    return Pieces(PLACES, tuple(turn_effect(face, times) for _, face, times in names),
                  orientations=3, fixed=(FIXED,), patterns=tuple(PATTERNS.values()),
                  redundant=_same_face(metric))


def _same_face(metric: str) -> tuple[tuple[int, ...], ...]:
    """Move pairs never searched in sequence: in half turns, two turns of one face (one
    turn, or none, does the same); in quarter turns, a turn and its undoing, and two
    quarter turns back (two forward make the same half turn)."""
    names = turn_names(metric)
    return tuple((first, second) for first, (_, face, times) in enumerate(names)
                 for second, (_, other, again) in enumerate(names)
                 if face == other and (metric == "half" or times != again or times == 3))
