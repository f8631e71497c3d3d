"""Klotski (Huarong Dao) rules in plain Python: the board, its notation, the names of
its moves (the moves themselves are ``search.py``'s, written once).

The board is 4 cells wide and 5 high.  The classic blocks: one 2×2, four 1×2 standing,
one 2×1 lying, four 1×1, and two holes.  Notation: five rows of four cells joined by
``.``, one letter per block (the cells of a block share it), ``-`` for a hole; the
classic start is ``BAAC.BAAC.DEEF.DGHF.I--J``.  Blocks of one shape are interchangeable,
so a position is the shape anchored at each cell: ``cells[i]`` is ``EMPTY``, ``COVERED``
(part of a block anchored elsewhere) or the shape whose top-left cell is ``i``.  Written
out, the 2×2 block is ``A`` and the others take ``B``, ``C``, ... in reading order of
their top-left cells.

Two metrics: ``block`` (a move is one block moved any distance along free cells, round
corners too) and ``cell`` (one block one cell).  The goal: the 2×2 block at the bottom
centre (its top-left cell at row 3, column 1), where it slides out.
"""

from __future__ import annotations

from builder.contract.errors import PuzzleInputError, shown

WIDTH, HEIGHT = 4, 5
CELLS = WIDTH * HEIGHT
EMPTY, SINGLE, STANDING, LYING, SQUARE, COVERED = range(6)
SHAPES = {SINGLE: (1, 1), STANDING: (1, 2), LYING: (2, 1), SQUARE: (2, 2)}
"""Shape → (width, height)."""
BITS = 3
"""Bits per cell in a key (6 codes)."""
CLASSIC = "BAAC.BAAC.DEEF.DGHF.I--J"
GOAL_CELL = 3 * WIDTH + 1
"""Where the 2×2 block's top-left cell is when it can slide out."""
METRICS = ("block", "cell")
DIRECTIONS = (("up", -WIDTH), ("down", WIDTH), ("left", -1), ("right", 1))


class KlotskiError(PuzzleInputError):
    """A Klotski position or option that does not fit the rules."""


def shape_cells(anchor: int, shape: int) -> list[int]:
    width, height = SHAPES[shape]
    return [anchor + row * WIDTH + column for row in range(height) for column in range(width)]


def fits(anchor: int, shape: int) -> bool:
    width, height = SHAPES[shape]
    row, column = divmod(anchor, WIDTH)
    return 0 <= anchor and row + height <= HEIGHT and column + width <= WIDTH


# Worked out once: `moves` is the plain-Python start's whole search, and the page's
# (every state asks for its cells and steps about twenty times)
_CELLS = {(anchor, shape): tuple(shape_cells(anchor, shape))
          for shape in SHAPES for anchor in range(CELLS) if fits(anchor, shape)}
"""(anchor, shape) → the cells the block covers."""


def _step_table() -> dict[tuple[int, int], tuple[tuple[str, int, frozenset[int]], ...]]:
    table = {}
    for anchor, shape in _CELLS:
        column, found = anchor % WIDTH, []
        for way, offset in DIRECTIONS:
            if (way == "left" and column == 0) or (way == "right" and column == WIDTH - 1):
                continue
            to = anchor + offset
            if fits(to, shape):
                found.append((way, to, frozenset(_CELLS[to, shape])))
        table[anchor, shape] = tuple(found)
    return table


_STEPS = _step_table()
"""(anchor, shape) → each one-cell step on the board: (way, new anchor, cells it covers)."""


def blocks(cells: tuple[int, ...]) -> list[tuple[int, int]]:
    """(anchor, shape) of every block, in reading order."""
    return [(cell, shape) for cell, shape in enumerate(cells) if shape in SHAPES]


def parse(text: str) -> tuple[int, ...]:
    rows = text.strip().split(".")
    if len(rows) != HEIGHT or any(len(row) != WIDTH for row in rows):
        raise KlotskiError(f"position {shown(text)} is not {HEIGHT} rows of {WIDTH} cells "
                           "joined by '.'")
    letters = "".join(rows)
    cells = [EMPTY] * CELLS
    for letter in sorted(set(letters) - {"-"}):
        spots = [i for i, ch in enumerate(letters) if ch == letter]
        if not letter.isalpha():
            raise KlotskiError(f"position {shown(text)}: {letter!r} is neither a block's "
                               "letter nor '-' (a hole)")
        anchor = spots[0]
        shape = next((s for s in SHAPES if fits(anchor, s)
                      and shape_cells(anchor, s) == spots), None)
        if shape is None:
            raise KlotskiError(f"position {shown(text)}: the cells of block {letter} are "
                               "not a 1x1, 1x2, 2x1 or 2x2 rectangle")
        cells[anchor] = shape
        for other in spots[1:]:
            cells[other] = COVERED
    return tuple(cells)


def check_classic_blocks(cells: tuple[int, ...], text: str) -> None:
    """The tables hold the classic set of blocks: refuse any other set in one line."""
    count = {shape: 0 for shape in SHAPES}
    for _, shape in blocks(cells):
        count[shape] += 1
    classic = {SQUARE: 1, STANDING: 4, LYING: 1, SINGLE: 4}
    if count != classic:
        raise KlotskiError(f"position {shown(text)} does not have the classic blocks (one "
                           "2x2, four 1x2 standing, one 2x1 lying, four 1x1, two holes)")


def letters_of(cells: tuple[int, ...]) -> list[str]:
    """The letter of every cell ('-' for a hole): the 2×2 block is A, the others B, C,
    ... in reading order."""
    shown_as = ["-"] * CELLS
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for anchor, shape in blocks(cells):
        letter = "A" if shape == SQUARE else next(letters)
        for cell in _CELLS[anchor, shape]:
            shown_as[cell] = letter
    return shown_as


def format_cells(cells: tuple[int, ...]) -> str:
    letters = "".join(letters_of(cells))
    return ".".join(letters[i:i + WIDTH] for i in range(0, CELLS, WIDTH))


def encode(cells: tuple[int, ...]) -> int:
    key = 0
    for cell in reversed(cells):
        key = (key << BITS) | cell
    return key


def decode(key: int) -> tuple[int, ...]:
    return tuple((key >> (BITS * cell)) & 7 for cell in range(CELLS))


def is_goal(cells: tuple[int, ...]) -> bool:
    return cells[GOAL_CELL] == SQUARE


def _steps(anchor: int, shape: int, free: frozenset[int]) -> list[tuple[str, int]]:
    """Where one step of the block at ``anchor`` takes it, and which way."""
    return [(way, to) for way, to, covered in _STEPS[anchor, shape] if covered <= free]


def move_name(before: tuple[int, ...], after: tuple[int, ...], metric: str) -> str:
    """The move from ``before`` to ``after`` as a player reads it: the block's letter and
    its steps (``cell``: one; ``block``: the fewest along free cells, breadth first in the
    order of ``DIRECTIONS``).  The moves themselves are ``search.py``'s, written once."""
    letters = letters_of(before)
    moved = [(anchor, shape) for anchor, shape in blocks(before) if after[anchor] != shape]
    arrived = [cell for cell in range(CELLS)
               if after[cell] not in (EMPTY, COVERED) and before[cell] != after[cell]]
    if len(moved) != 1 or len(arrived) != 1:
        raise KlotskiError(f"no one block moves from {format_cells(before)} to "
                           f"{format_cells(after)}")
    (anchor, shape), target = moved[0], arrived[0]
    free = frozenset(cell for cell in range(CELLS) if before[cell] == EMPTY).union(
        _CELLS[anchor, shape])
    ways = {anchor: []}
    queue = [anchor]
    for place in queue:  # breadth first: each place by its fewest steps
        for way, to in _steps(place, shape, free):
            if to not in ways:
                ways[to] = [*ways[place], way]
                queue.append(to)
    if target not in ways or (metric == "cell" and len(ways[target]) != 1):
        raise KlotskiError(f"{format_cells(after)} is no {metric} move from "
                           f"{format_cells(before)}")
    return f"{letters[anchor]} {' '.join(ways[target])}"
