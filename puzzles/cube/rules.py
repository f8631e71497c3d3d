"""The 2×2×2 cube (Pocket Cube) rules in plain Python: stickers, corners, turns.

Notation: the 24 stickers face by face in the order U R F D L B, four per face in reading
order as the face is seen in the usual net, faces joined by ``.``; a sticker is written
by the face its colour belongs to: the solved cube is ``UUUU.RRRR.FFFF.DDDD.LLLL.BBBB``.
The cube is held with its down-back-left corner fixed (it never turns: the moves are
the U, R and F faces), which leaves 7! × 3^6 = 3,674,160 positions.

A position is the corner in each of the eight places (``URF, UFL, ULB, UBR, DFR, DLF,
DBL, DRB``) and each one's twist (0, 1, 2: where its U or D sticker is).  Two metrics:
``half`` (a quarter or half turn of a face is one move) and ``quarter`` (a quarter turn
is one move).
"""

from __future__ import annotations

from builder.contract.errors import PuzzleInputError, shown

FACES = "URFDLB"
PLACES = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
FIXED = PLACES.index("DBL")
STICKERS = (  # each place's stickers (face, index), its U or D sticker first, clockwise
    (("U", 3), ("R", 0), ("F", 1)), (("U", 2), ("F", 0), ("L", 1)),
    (("U", 0), ("L", 0), ("B", 1)), (("U", 1), ("B", 0), ("R", 1)),
    (("D", 1), ("F", 3), ("R", 2)), (("D", 0), ("L", 3), ("F", 2)),
    (("D", 2), ("B", 3), ("L", 2)), (("D", 3), ("R", 3), ("B", 2)),
)
COLOURS = tuple(tuple(place) for place in PLACES)  # a corner's colours, as its stickers
TURNS = {  # a quarter turn clockwise: the corner each place takes, and the twist it gains
    "U": ((3, 0, 1, 2, 4, 5, 6, 7), (0, 0, 0, 0, 0, 0, 0, 0)),
    "R": ((4, 1, 2, 0, 7, 5, 6, 3), (2, 0, 0, 1, 1, 0, 0, 2)),
    "F": ((1, 5, 2, 3, 0, 4, 6, 7), (1, 2, 0, 0, 2, 1, 0, 0)),
}
METRICS = ("half", "quarter")
SOLVED = (tuple(range(8)), (0,) * 8)
MOVABLE = tuple(place for place in range(8) if place != FIXED)
"""The places the turns move corners among (all but the fixed D-B-L corner's): a
pattern's corners are ranked by their places' numbers among these."""


class CubeError(PuzzleInputError):
    """A cube position or option that does not fit the rules."""


def _index(face: str, index: int) -> int:
    return FACES.index(face) * 4 + index


def parse(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    faces = text.strip().upper().split(".")
    stickers = "".join(faces)
    if len(faces) != 6 or any(len(face) != 4 for face in faces) or set(stickers) - set(FACES):
        raise CubeError(f"cube {shown(text)} is not six faces (U R F D L B) of four stickers "
                        "joined by '.', each sticker one of U R F D L B")
    places, twists = [], []
    for place in STICKERS:
        seen = [stickers[_index(*sticker)] for sticker in place]
        twist = next((k for k, colour in enumerate(seen) if colour in "UD"), None)
        corner = None if twist is None else next(
            (c for c, colours in enumerate(COLOURS)
             if colours[1] == seen[(twist + 1) % 3] and colours[2] == seen[(twist + 2) % 3]),
            None)
        if corner is None:
            raise CubeError(f"cube {shown(text)}: no corner has the stickers "
                            f"{''.join(seen)}")
        places.append(corner)
        twists.append(twist)
    if sorted(places) != list(range(8)):
        raise CubeError(f"cube {shown(text)}: a corner appears twice")
    if sum(twists) % 3:
        raise CubeError(f"cube {shown(text)}: one corner is twisted in place (no turns "
                        "can reach it from the solved cube)")
    if places[FIXED] != FIXED or twists[FIXED] != 0:
        raise CubeError(f"cube {shown(text)}: hold it with the D-B-L corner fixed (at the "
                        "down-back-left, D sticker down): the moves turn U, R and F only")
    return tuple(places), tuple(twists)


def format_cube(position: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    places, twists = position
    stickers = [""] * 24
    for place, (corner, twist) in enumerate(zip(places, twists)):
        for k in range(3):
            stickers[_index(*STICKERS[place][(k + twist) % 3])] = COLOURS[corner][k]
    text = "".join(stickers)
    return ".".join(text[i:i + 4] for i in range(0, 24, 4))


def turned(position, face: str, times: int):
    places, twists = position
    taken, gained = TURNS[face]
    for _ in range(times):
        places, twists = (tuple(places[taken[i]] for i in range(8)),
                          tuple((twists[taken[i]] + gained[i]) % 3 for i in range(8)))
    return places, twists


def turn_names(metric: str) -> list[tuple[str, str, int]]:
    """(label, face, quarter turns) of every move of a metric."""
    names = []
    for face in "URF":
        names.append((face, face, 1))
        if metric == "half":
            names.append((f"{face}2", face, 2))
        names.append((f"{face}'", face, 3))
    return names


def encode(position) -> int:
    places, twists = position
    key = 0
    for place in range(8):
        key |= (places[place] << (3 * place)) | (twists[place] << (24 + 2 * place))
    return key


def decode(key: int):
    return (tuple((key >> (3 * place)) & 7 for place in range(8)),
            tuple((key >> (24 + 2 * place)) & 3 for place in range(8)))


def turn_effect(face: str, times: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``times`` quarter turns of ``face`` as one turn: the place each place takes its
    corner from, and the twist the corner gains (as ``TURNS`` gives a quarter turn)."""
    return turned(SOLVED, face, times)
