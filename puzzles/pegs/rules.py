"""English peg solitaire (33 holes) rules in plain Python: the board, its notation, the
jumps, and its eight symmetries.

The board is a cross of 33 holes in a 7×7 square.  Notation: its seven rows top to
bottom joined by ``.``, each written with only its holes (3, 3, 7, 7, 7, 3, 3 of them),
``o`` for a peg and ``_`` for an empty hole (not ``-``: a text starting with it would
read as a command-line option): the standard start, every hole filled but the centre, is ``ooo.ooo.ooooooo.ooo_ooo.ooooooo.ooo.ooo``.  A jump takes a peg over a
neighbouring peg (along a row or a column) into the empty hole beyond, and removes the
peg jumped over; it is named by the holes from and to, columns ``a``-``g`` left to right
and rows ``1``-``7`` top to bottom (``d2-d4``).  The goal: one peg, in the centre.

A position is a 33-bit mask (bit ``i``: hole ``i`` in reading order holds a peg).  The
square's eight symmetries map the board to itself and keep the goal, so a position and
its images are as far from the goal: a key is the least of the eight images' masks.
"""

from __future__ import annotations

from builder.contract.errors import PuzzleInputError, shown

SIZE = 7
SQUARES = [(row, column) for row in range(SIZE) for column in range(SIZE)
           if 2 <= row <= 4 or 2 <= column <= 4]
HOLES = len(SQUARES)
INDEX = {square: i for i, square in enumerate(SQUARES)}
CENTRE = INDEX[(3, 3)]
ROW_LENGTHS = [sum(1 for row, _ in SQUARES if row == r) for r in range(SIZE)]
START = ((1 << HOLES) - 1) & ~(1 << CENTRE)
GOAL = 1 << CENTRE
STANDARD = "ooo.ooo.ooooooo.ooo_ooo.ooooooo.ooo.ooo"


def _jumps() -> list[tuple[int, int, int]]:
    found = []
    for (row, column), start in INDEX.items():
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            over, to = (row + dr, column + dc), (row + 2 * dr, column + 2 * dc)
            if over in INDEX and to in INDEX:
                found.append((start, INDEX[over], INDEX[to]))
    return found


JUMPS = _jumps()
"""(from, over, to) of every jump the board allows."""

SYMMETRIES = [
    lambda r, c: (r, c), lambda r, c: (c, SIZE - 1 - r),
    lambda r, c: (SIZE - 1 - r, SIZE - 1 - c), lambda r, c: (SIZE - 1 - c, r),
    lambda r, c: (r, SIZE - 1 - c), lambda r, c: (SIZE - 1 - r, c),
    lambda r, c: (c, r), lambda r, c: (SIZE - 1 - c, SIZE - 1 - r),
]
IMAGES = [[INDEX[symmetry(*square)] for square in SQUARES] for symmetry in SYMMETRIES]
"""For each symmetry, the hole each hole goes to."""


class PegsError(PuzzleInputError):
    """A peg solitaire position that does not fit the board."""


def parse(text: str) -> int:
    rows = text.strip().split(".")
    if ([len(row) for row in rows] != ROW_LENGTHS
            or set("".join(rows)) - set("o_")):
        raise PegsError(f"board {shown(text)} is not the 33-hole cross: seven rows of "
                        f"{', '.join(map(str, ROW_LENGTHS))} holes joined by '.', 'o' a peg "
                        "and '_' an empty hole")
    holes = "".join(rows)
    return sum(1 << i for i, hole in enumerate(holes) if hole == "o")


def format_board(mask: int) -> str:
    holes = "".join("o" if mask >> i & 1 else "_" for i in range(HOLES))
    rows, at = [], 0
    for length in ROW_LENGTHS:
        rows.append(holes[at:at + length])
        at += length
    return ".".join(rows)


def hole_name(hole: int) -> str:
    row, column = SQUARES[hole]
    return f"{'abcdefg'[column]}{row + 1}"


def jump_name(before: int, after: int) -> str:
    """The jump from position ``before`` to ``after``, by its holes from and to
    (``d2-d4``): the peg gone from one end of the three holes it changes, arrived at the
    other."""
    arrived = after & ~before
    for start, over, to in JUMPS:
        if 1 << to == arrived and before ^ after == (1 << start | 1 << over | 1 << to):
            return f"{hole_name(start)}-{hole_name(to)}"
    raise PegsError(f"no jump leads from {format_board(before)} to {format_board(after)}")


def image(mask: int, symmetry: int) -> int:
    return sum(1 << IMAGES[symmetry][i] for i in range(HOLES) if mask >> i & 1)
