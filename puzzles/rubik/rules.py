"""The 3×3×3 cube (Rubik's Cube) in plain Python: stickers, pieces, turns, scrambles.

Notation, as the 2×2×2's (``puzzles/cube``): the 54 stickers face by face in the order
U R F D L B, nine per face in reading order as the face is seen in the usual net (U above
F, then L F R B in a row, D below F), faces joined by ``.``; a sticker is written by the
face its colour belongs to, so the solved cube is ``UUUUUUUUU.RRRRRRRRR.FFFFFFFFF.``
``DDDDDDDDD.LLLLLLLLL.BBBBBBBBB``.  The cube is held with U on top and F in front (the
centres never move), and every face turns.  A position may also be written as a scramble
in Singmaster notation, the turns that make it from solved: ``R U R' U2`` (X a quarter
turn of face X clockwise as you face it, X' anticlockwise, X2 a half turn).

A position is the piece in each place and its orientation (the "place view"): the corner
in each of the eight corner places ``URF UFL ULB UBR DFR DLF DBL DRB`` and its twist (0, 1,
2: which of its stickers is on the place's U or D face), and the edge in each of the
twelve edge places ``UR UF UL UB DR DF DL DB FR FL BL BR`` and its flip (0: its first
sticker, U or D, else F or B, on the place's first face).  The turns are derived from the
cube's geometry (a quarter turn rotates the stickers of one layer about the face's axis),
so nothing here is a hand-written cycle.  Two metrics: ``half`` (a quarter or half turn is
one move) and ``quarter`` (a quarter turn is one move; a half turn is two).
"""

from __future__ import annotations

import re
from math import perm

from builder.contract.errors import PuzzleInputError, shown
from builder.contract.patterns import arrangement_rank

FACES = "URFDLB"
NORMALS = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1),
           "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1)}
CORNER_NAMES = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
EDGE_NAMES = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")
METRICS = ("half", "quarter")
GOAL_WORD = "solved"
SOLVED = (tuple(range(8)), (0,) * 8, tuple(range(12)), (0,) * 12)
TURN = re.compile(r"([URFDLB])(2|'|)")
SCRAMBLE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’]{0,2}")


class RubikError(PuzzleInputError):
    """A cube position, scramble or option that does not fit the rules."""


def _sticker_cubie(face: str, index: int) -> tuple[int, int, int]:
    """Where sticker ``index`` (reading order) of ``face`` sits: its cubie's coordinates,
    x to the right, y up, z to the front, each -1, 0 or 1, as the net shows the face."""
    row, column = divmod(index, 3)
    return {"U": (column - 1, 1, row - 1), "D": (column - 1, -1, 1 - row),
            "F": (column - 1, 1 - row, 1), "B": (1 - column, 1 - row, -1),
            "R": (1, 1 - row, 1 - column), "L": (-1, 1 - row, column - 1)}[face]


def _rotated(vector: tuple[int, ...], axis: tuple[int, ...]) -> tuple[int, ...]:
    """``vector`` turned a quarter turn clockwise as seen from the tip of ``axis``."""
    x, y, z = vector
    a, b, c = axis
    cross = (b * z - c * y, c * x - a * z, a * y - b * x)
    along = a * x + b * y + c * z
    return tuple(-cross[k] + axis[k] * along for k in range(3))


STICKERS = tuple((face, index) for face in FACES for index in range(9))
_WHERE = {(_sticker_cubie(face, index), NORMALS[face]): number
          for number, (face, index) in enumerate(STICKERS)}


def _facets(name: str) -> tuple[int, ...]:
    """The sticker numbers of a piece's place named by its faces, in the name's order."""
    cubie = tuple(sum(NORMALS[face][k] for face in name) for k in range(3))
    return tuple(_WHERE[(cubie, NORMALS[face])] for face in name)


CORNER_FACETS = tuple(_facets(name) for name in CORNER_NAMES)
"""Each corner place's stickers: its U or D sticker first, then clockwise."""
EDGE_FACETS = tuple(_facets(name) for name in EDGE_NAMES)
"""Each edge place's stickers: its U or D sticker first, else its F or B sticker."""


def _quarter_turn_stickers(face: str) -> tuple[int, ...]:
    """Where each sticker goes in a quarter turn of ``face`` clockwise."""
    axis = NORMALS[face]
    moved = []
    for number, (other, index) in enumerate(STICKERS):
        cubie = _sticker_cubie(other, index)
        if sum(cubie[k] * axis[k] for k in range(3)) != 1:
            moved.append(number)  # not in the turning layer
            continue
        moved.append(_WHERE[(_rotated(cubie, axis), _rotated(NORMALS[other], axis))])
    return tuple(moved)


STICKER_TURNS = {face: _quarter_turn_stickers(face) for face in FACES}
"""Per face, the sticker each sticker becomes in a clockwise quarter turn."""


def _piece_turn(facets: tuple[tuple[int, ...], ...], goes: tuple[int, ...]
                ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(taken, gained) of a quarter turn on one kind of piece: place i receives the piece
    of place ``taken[i]``, whose orientation grows by ``gained[i]``."""
    places = len(facets)
    taken, gained = [0] * places, [0] * places
    for source, stickers in enumerate(facets):
        first = goes[stickers[0]]
        for target, others in enumerate(facets):
            if first in others:
                taken[target] = source
                gained[target] = others.index(first)
    return tuple(taken), tuple(gained)


CORNER_TURNS = {face: _piece_turn(CORNER_FACETS, STICKER_TURNS[face]) for face in FACES}
EDGE_TURNS = {face: _piece_turn(EDGE_FACETS, STICKER_TURNS[face]) for face in FACES}


def turn_names(metric: str) -> list[tuple[str, str, int]]:
    """(label, face, quarter turns clockwise) of every move of a metric, in the order
    the search numbers them: per face U R F D L B, X (X2) X'."""
    names = []
    for face in FACES:
        names.append((face, face, 1))
        if metric == "half":
            names.append((f"{face}2", face, 2))
        names.append((f"{face}'", face, 3))
    return names


def redundant_pairs(metric: str) -> tuple[tuple[int, int], ...]:
    """(previous, next) move numbers never searched in a row: two turns of one face (one
    turn does as much; in the quarter-turn metric X X' undoes, and X' X' is X X), and
    the second face of an opposite pair (U D, R L, F B) before the first, as they
    commute."""
    names = turn_names(metric)
    pairs = []
    for before, (_, first, times_before) in enumerate(names):
        for after, (_, second, times_after) in enumerate(names):
            if first == second:
                if metric == "half" or times_before != times_after or times_before == 3:
                    pairs.append((before, after))
            elif FACES.index(first) == FACES.index(second) + 3:
                pairs.append((before, after))
    return tuple(pairs)


def _quarter_turns(position, face: str, times: int):
    corners, twists, edges, flips = position
    corner_taken, corner_gained = CORNER_TURNS[face]
    edge_taken, edge_gained = EDGE_TURNS[face]
    for _ in range(times):
        corners, twists = (tuple(corners[corner_taken[i]] for i in range(8)),
                           tuple((twists[corner_taken[i]] + corner_gained[i]) % 3
                                 for i in range(8)))
        edges, flips = (tuple(edges[edge_taken[i]] for i in range(12)),
                        tuple((flips[edge_taken[i]] + edge_gained[i]) % 2 for i in range(12)))
    return corners, twists, edges, flips


TURNED = {(face, times): _quarter_turns(SOLVED, face, times)
          for face in FACES for times in (1, 2, 3)}
"""Each turn made once on the solved cube: the place each place takes its piece from, and
the orientation it gains (the solved cube's piece in place p is piece p)."""


def turned(position, face: str, times: int):
    """The position after ``times`` clockwise quarter turns of ``face``."""
    corners, twists, edges, flips = position
    corner_taken, corner_gained, edge_taken, edge_gained = TURNED[face, times]
    return (tuple(corners[taken] for taken in corner_taken),
            tuple((twists[taken] + gained) % 3 for taken, gained in zip(corner_taken,
                                                                        corner_gained)),
            tuple(edges[taken] for taken in edge_taken),
            tuple((flips[taken] + gained) % 2 for taken, gained in zip(edge_taken,
                                                                       edge_gained)))


def scrambled(turns: list[tuple[str, int]], start=SOLVED):
    position = start
    for face, times in turns:
        position = turned(position, face, times)
    return position


def scramble_turns(text: str) -> list[tuple[str, int]] | None:
    """The turns of a scramble (``R U R' U2``) as (face, clockwise quarter turns); None
    when the text is no scramble."""
    turns = []
    for token in text.split():
        found = TURN.fullmatch(token.replace("’", "'"))
        if not found:
            return None
        turns.append((found.group(1), {"": 1, "2": 2, "'": 3}[found.group(2)]))
    return turns


def looks_like_scramble(text: str) -> bool:
    """The shape of a scramble: words of one to three letters, digits or primes, at least
    one a turn (so that ``R U X`` reaches the parser, which names the wrong turn)."""
    words = text.split()
    return (bool(words) and all(SCRAMBLE_WORD.fullmatch(word) for word in words)
            and any(TURN.fullmatch(word) for word in words))


def looks_like_stickers(text: str) -> bool:
    faces = text.strip().split(".")
    return len(faces) == 6 and all(len(face) == 9 and face.isalpha() for face in faces)


def parse(text: str):
    """A position from its stickers, a scramble, or the word ``solved``."""
    stripped = text.strip()
    if stripped.lower() == GOAL_WORD:
        return SOLVED
    turns = scramble_turns(stripped) if stripped else None
    if turns is not None:
        return scrambled(turns)
    if not looks_like_stickers(stripped.upper()):
        wrong = next((token for token in stripped.split() if not TURN.fullmatch(token)), "")
        if " " in stripped or (wrong and TURN.fullmatch(wrong[:1]) and len(wrong) <= 3):
            raise RubikError(f"scramble {shown(text)}: turn {shown(wrong, 8)} is none of U R F "
                             "D L B, each alone, with ' (anticlockwise) or with 2 (half turn)")
        raise RubikError(f"cube {shown(text)} is neither six faces (U R F D L B) of nine "
                         "stickers joined by '.' nor a scramble such as R U R' U2")
    return from_stickers(stripped.upper())


def from_stickers(stickers_text: str):
    stickers = stickers_text.replace(".", "")
    text = shown(stickers_text)
    if set(stickers) - set(FACES):
        raise RubikError(f"cube {text}: a sticker is none of U R F D L B "
                         f"({', '.join(sorted(set(stickers) - set(FACES)))})")
    centres = "".join(stickers[9 * face + 4] for face in range(6))
    if centres != FACES:
        raise RubikError(f"cube {text}: its centres read {centres}, not URFDLB (hold it with "
                         "the U centre on top and the F centre in front)")
    corners, twists = _pieces(stickers, CORNER_FACETS, CORNER_NAMES, "corner", text)
    edges, flips = _pieces(stickers, EDGE_FACETS, EDGE_NAMES, "edge", text)
    if sum(twists) % 3:
        raise RubikError(f"cube {text}: a corner is twisted in place (no turns reach it "
                         "from the solved cube)")
    if sum(flips) % 2:
        raise RubikError(f"cube {text}: an edge is flipped in place (no turns reach it from "
                         "the solved cube)")
    if permutation_parity(corners) != permutation_parity(edges):
        raise RubikError(f"cube {text}: two pieces are swapped (the corners' and the edges' "
                         "arrangements have opposite parity: no turns reach it)")
    return corners, twists, edges, flips


def _pieces(stickers: str, facets, names, kind: str, text: str):
    """(piece in each place, its orientation) read from the stickers."""
    pieces, turns = [], []
    for place in facets:
        seen = [stickers[number] for number in place]
        found = None
        for piece, colours in enumerate(names):
            for orientation in range(len(place)):
                if all(seen[(k + orientation) % len(place)] == colours[k]
                       for k in range(len(place))):
                    found = piece, orientation
        if found is None:
            raise RubikError(f"cube {text}: no {kind} has the stickers {''.join(seen)}")
        pieces.append(found[0])
        turns.append(found[1])
    if len(set(pieces)) != len(pieces):
        twice = next(names[piece] for piece in pieces if pieces.count(piece) > 1)
        raise RubikError(f"cube {text}: the {kind} {twice} appears twice")
    return tuple(pieces), tuple(turns)


def permutation_parity(pieces: tuple[int, ...]) -> int:
    return sum(1 for i in range(len(pieces)) for j in range(i + 1, len(pieces))
               if pieces[i] > pieces[j]) % 2


def stickers_of(position) -> str:
    """The 54 stickers, face by face, without the dots."""
    corners, twists, edges, flips = position
    stickers = [name for name in FACES for _ in range(9)]
    for facets, names, pieces, turns in ((CORNER_FACETS, CORNER_NAMES, corners, twists),
                                         (EDGE_FACETS, EDGE_NAMES, edges, flips)):
        for place, (piece, turn) in enumerate(zip(pieces, turns)):
            for k, colour in enumerate(names[piece]):
                stickers[facets[place][(k + turn) % len(facets[place])]] = colour
    return "".join(stickers)


def format_cube(position) -> str:
    text = stickers_of(position)
    return ".".join(text[start:start + 9] for start in range(0, 54, 9))


SPIN = {"U": "F", "R": "U", "F": "R", "D": "B", "L": "D", "B": "L"}
"""A third of a turn of the whole cube about its URF-DBL diagonal: the face each face's
stickers move to (R to U, U to F, F to R, and their opposites alike)."""


def spun(position):
    """``position`` after the whole cube turns a third about its URF-DBL diagonal
    (``SPIN``), each colour renamed after the centre it now sits with.  A turn of face X
    on ``position`` is a turn of face ``SPIN[X]`` the same way on the spun cube, so the
    turns that solve the spun cube, each face renamed back, solve ``position``."""
    stickers = stickers_of(position)
    moved = [""] * 54
    for number, (face, index) in enumerate(STICKERS):
        x, y, z = _sticker_cubie(face, index)
        a, b, c = NORMALS[face]
        moved[_WHERE[((z, x, y), (c, a, b))]] = SPIN[stickers[number]]
    return from_stickers("".join(moved))


def relabelled(position, target):
    """``position`` with each piece renamed after the place it holds in ``target`` (and
    its orientation counted from the one it has there): the target becomes the solved
    cube, and turns act on the renamed position as on the original, so the fewest turns
    from ``position`` to ``target`` are the fewest from the renamed one to solved."""
    corners, twists, edges, flips = position
    target_corners, target_twists, target_edges, target_flips = target
    corner_home = {corner: place for place, corner in enumerate(target_corners)}
    edge_home = {edge: place for place, edge in enumerate(target_edges)}
    return (tuple(corner_home[corner] for corner in corners),
            tuple((twist - target_twists[corner_home[corner]]) % 3
                  for corner, twist in zip(corners, twists)),
            tuple(edge_home[edge] for edge in edges),
            tuple((flip - target_flips[edge_home[edge]]) % 2
                  for edge, flip in zip(edges, flips)))


def pieces_view(position) -> tuple[int, ...]:
    """The position as the search's row holds it: the place of each corner, each
    corner's twist, the place of each edge, each edge's flip (the "piece view")."""
    corners, twists, edges, flips = position
    corner_place = [0] * 8
    corner_twist = [0] * 8
    for place, corner in enumerate(corners):
        corner_place[corner] = place
        corner_twist[corner] = twists[place]
    edge_place = [0] * 12
    edge_flip = [0] * 12
    for place, edge in enumerate(edges):
        edge_place[edge] = place
        edge_flip[edge] = flips[place]
    return (*corner_place, *corner_twist, *edge_place, *edge_flip)


ALL_CORNERS = tuple(range(8))
CORNER_STATES = 40320 * 2187
"""8! arrangements of the corners times 3^7 twists (the eighth follows)."""


def corner_state_rank(position) -> int:
    """The corners' whole state, by place: the Lehmer code of the corner in each place
    (URF UFL ULB UBR DFR DLF DBL DRB), times 3^7, plus the twists of the first seven
    places in base 3 (URF lowest); the eighth twist follows from the others."""
    corners, twists = position[0], position[1]
    return (arrangement_rank(corners, 8) * 3 ** 7
            + sum(twist * 3 ** place for place, twist in enumerate(twists[:7])))


def edges_packed(position) -> int:
    """The edges' whole state, by piece: edge e's place times 2 plus its flip, in bits 5e
    to 5e + 4."""
    edges, flips = position[2], position[3]
    packed = 0
    for place, edge in enumerate(edges):
        packed |= (2 * place + flips[place]) << (5 * edge)
    return packed


def edges_by_place(position) -> int:
    """The edges' whole state, by place: the edge in place p times 2 plus its flip, in
    bits 5p to 5p + 4 (``edges_packed`` of the inverse position)."""
    edges, flips = position[2], position[3]
    packed = 0
    for place, edge in enumerate(edges):
        packed |= (2 * edge + flips[place]) << (5 * place)
    return packed


def inverse(position):
    """The position the inverse turns make: each piece in the place its own number names
    in ``position`` goes back, so its turns undo ``position``'s.  Its distance to solved is
    ``position``'s (a path reversed and each turn undone)."""
    corners, twists, edges, flips = position
    inverse_corners, inverse_twists = [0] * 8, [0] * 8
    for place, corner in enumerate(corners):
        inverse_corners[corner] = place
        inverse_twists[corner] = -twists[place] % 3
    inverse_edges, inverse_flips = [0] * 12, [0] * 12
    for place, edge in enumerate(edges):
        inverse_edges[edge] = place
        inverse_flips[edge] = flips[place]
    return (tuple(inverse_corners), tuple(inverse_twists), tuple(inverse_edges),
            tuple(inverse_flips))


def pattern_states(corners: int, edges: int) -> int:
    """The abstract states of a pattern tracking ``corners`` corners and ``edges`` edges:
    their places and orientations (all eight corners: ``CORNER_STATES``)."""
    if corners == 8 and not edges:
        return CORNER_STATES
    return perm(8, corners) * 3 ** corners * perm(12, edges) * 2 ** edges


def pattern_rank(position, corners: tuple[int, ...], edges: tuple[int, ...]) -> int:
    """The abstract state of ``position`` that a pattern tracking ``corners`` and
    ``edges`` sees, ranked.  All eight corners alone: ``corner_state_rank``.  Any other
    pattern by piece: the tracked corners' places (as an arrangement of the eight places in
    lexicographic order), their twists (base 3, the first tracked corner lowest), the
    tracked edges' places (an arrangement of the twelve), their flips (bits, the first
    lowest)."""
    if corners == ALL_CORNERS and not edges:
        return corner_state_rank(position)
    row = pieces_view(position)
    rank = arrangement_rank([row[corner] for corner in corners], 8)
    rank = rank * 3 ** len(corners) + sum(row[8 + corner] * 3 ** k
                                          for k, corner in enumerate(corners))
    rank = rank * perm(12, len(edges)) + arrangement_rank([row[16 + edge] for edge in edges],
                                                             12)
    return rank * 2 ** len(edges) + sum(row[28 + edge] << k for k, edge in enumerate(edges))


def corner_named(name: str) -> int | None:
    """A corner by any order of its faces' letters (``FRU`` is ``URF``)."""
    return next((number for number, corner in enumerate(CORNER_NAMES)
                 if sorted(corner) == sorted(name.upper())), None)


def edge_named(name: str) -> int | None:
    return next((number for number, edge in enumerate(EDGE_NAMES)
                 if sorted(edge) == sorted(name.upper())), None)
