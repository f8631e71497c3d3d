"""The cube's symmetries, for the optimal search's symmetry-reduced pruning table
(``optimal.py``): the 16 that keep the U-D axis (the group D4h: the square's eight
rotations and reflections about that axis, each with U and D kept or swapped) and the
third of a turn about the URF-DBL diagonal that carries one axis to the next (R-L to U-D,
F-B to R-L: ``rules.SPIN``).

A symmetry is a signed permutation matrix M acting on the cube in space: the sticker at
cubie ``v`` facing ``n`` goes to cubie ``M v`` facing ``M n``, and each colour is renamed
after the face its centre goes to.  ``conjugated`` does that to a position's stickers, so
it is the position seen in the turned (or mirrored) cube, and a turn of face X there is a
turn of face M(X), the other way round where M mirrors (``move_map``).  The same action
on pieces (``PieceAction``: the place each place goes to, and the orientation a piece
has there) is derived from the stickers here and turned into the coordinate tables the
search reads:

- ``flip_slice_classes``: the 495 × 2048 flip-slice coordinates (which four places hold
  the UD-slice edges, the flips of the edges) fall into 64,430 classes under D4h; each
  coordinate's class and a symmetry taking it to its class's representative (the least
  coordinate of the class), and each class's stabiliser (the symmetries that fix its
  representative);
- ``twist_conjugates``: the corners' twist coordinate of a position conjugated by each
  symmetry of D4h (a function of the twist alone: those symmetries keep U and D stickers
  on U and D faces).

Coordinates are ``twophase_search``'s: ``twist`` (the twists of places URF .. DLB in base
3), ``flip`` (the flips of places UR .. BL as bits), ``slice`` (the colex rank of the four
places holding FR FL BL BR; solved ``SLICE_SOLVED``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations, product

import numpy as np

from puzzles.rubik.rules import (
    CORNER_FACETS,
    CORNER_NAMES,
    EDGE_FACETS,
    EDGE_NAMES,
    FACES,
    NORMALS,
    STICKERS,
    _sticker_cubie,
    _WHERE,
    from_stickers,
    stickers_of,
)

Matrix = tuple[tuple[int, int, int], ...]
SPIN_MATRIX: Matrix = ((0, 0, 1), (1, 0, 0), (0, 1, 0))
"""(x, y, z) to (z, x, y): ``rules.spun``'s third of a turn about the URF-DBL diagonal."""
FLIP_SLICES = 495 * 2048
"""Flip-slice coordinates: ``slice * 2048 + flip``."""


def _apply(matrix: Matrix, vector: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(sum(matrix[row][k] * vector[k] for k in range(3)) for row in range(3))


def _determinant(matrix: Matrix) -> int:
    (a, b, c), (d, e, f), (g, h, i) = matrix
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def _signed_permutations() -> list[Matrix]:
    found = []
    for order in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            found.append(tuple(tuple(signs[row] if column == order[row] else 0
                                     for column in range(3)) for row in range(3)))
    return found


D4H: tuple[Matrix, ...] = tuple(sorted(
    (matrix for matrix in _signed_permutations() if abs(matrix[1][1]) == 1),
    key=lambda matrix: (matrix != ((1, 0, 0), (0, 1, 0), (0, 0, 1)), matrix)))
"""The 16 symmetries keeping the U-D axis (y up), the identity first."""
SYMMETRIES = len(D4H)


def face_map(matrix: Matrix) -> dict[str, str]:
    """The face each face goes to."""
    by_normal = {normal: face for face, normal in NORMALS.items()}
    return {face: by_normal[_apply(matrix, NORMALS[face])] for face in FACES}


def sticker_map(matrix: Matrix) -> tuple[int, ...]:
    """Where each of the 54 stickers goes."""
    return tuple(_WHERE[(_apply(matrix, _sticker_cubie(face, index)),
                         _apply(matrix, NORMALS[face]))] for face, index in STICKERS)


def conjugated(position, matrix: Matrix):
    """``position`` seen in the cube the symmetry moves: every sticker moved, every colour
    renamed (the plain model the piece tables are checked against)."""
    stickers = stickers_of(position)
    goes, renamed = sticker_map(matrix), face_map(matrix)
    moved = [""] * 54
    for number, colour in enumerate(stickers):
        moved[goes[number]] = renamed[colour]
    return from_stickers("".join(moved))


def move_map(matrix: Matrix) -> tuple[int, ...]:
    """The half-turn-metric move (per face U R F D L B: X X2 X') on a conjugated position
    that a move makes on the position: the image face, turned the other way where the
    symmetry mirrors."""
    faces = face_map(matrix)
    mirrors = _determinant(matrix) < 0
    return tuple(3 * FACES.index(faces[face]) + (2 - way if mirrors else way)
                 for face in FACES for way in range(3))


@dataclass(frozen=True)
class PieceAction:
    """A symmetry on one kind of piece in the place view: the piece at place p with
    orientation o goes to place ``goes[p]``, becomes piece ``goes[piece]`` (a piece is
    named after its home place) with orientation ``orientation[p, piece, o]``."""

    goes: np.ndarray
    orientation: np.ndarray


def _piece_action(matrix: Matrix, facets, names) -> PieceAction:
    goes_sticker, renamed = sticker_map(matrix), face_map(matrix)
    size, turns = len(facets), len(facets[0])
    place_of = {frozenset(place): number for number, place in enumerate(facets)}
    piece_of = {frozenset(colours): number for number, colours in enumerate(names)}
    goes = np.array([place_of[frozenset(goes_sticker[s] for s in place)] for place in facets],
                    np.int64)
    orientation = np.zeros((size, size, turns), np.int64)
    for place, piece, turn in product(range(size), range(size), range(turns)):
        image = piece_of[frozenset(renamed[colour] for colour in names[piece])]
        # colour k of the piece sits on facet (k + turn) of its place; the image piece's
        # first colour sits on facet (0 + orientation) of the image place
        first = next(k for k in range(turns) if renamed[names[piece][k]] == names[image][0])
        facet = goes_sticker[facets[place][(first + turn) % turns]]
        orientation[place, piece, turn] = facets[goes[place]].index(facet)
    return PieceAction(goes, orientation)


@cache
def corner_action(matrix: Matrix) -> PieceAction:
    return _piece_action(matrix, CORNER_FACETS, CORNER_NAMES)


@cache
def edge_action(matrix: Matrix) -> PieceAction:
    return _piece_action(matrix, EDGE_FACETS, EDGE_NAMES)


def conjugated_pieces(position, matrix: Matrix):
    """``conjugated`` by the piece tables."""
    result = []
    for action, pieces, turns in ((corner_action(matrix), position[0], position[1]),
                                  (edge_action(matrix), position[2], position[3])):
        moved_pieces, moved_turns = [0] * len(pieces), [0] * len(pieces)
        for place, (piece, turn) in enumerate(zip(pieces, turns)):
            moved_pieces[action.goes[place]] = int(action.goes[piece])
            moved_turns[action.goes[place]] = int(action.orientation[place, piece, turn])
        result += [tuple(moved_pieces), tuple(moved_turns)]
    return tuple(result)


# ---- coordinates


def _slice_sets() -> np.ndarray:
    """Each slice coordinate's places, as a bool row of 12 (colex order of the sets)."""
    from itertools import combinations
    from math import comb

    occupied = np.zeros((495, 12), bool)
    for places in combinations(range(12), 4):
        occupied[sum(comb(place, k + 1) for k, place in enumerate(places)), list(places)] = True
    return occupied


def _slice_ranks(occupied: np.ndarray) -> np.ndarray:
    from math import comb

    weights = np.array([[comb(place, k) for k in range(5)] for place in range(12)], np.int64)
    seen = np.cumsum(occupied, axis=1)
    return (occupied * weights[np.arange(12), seen.clip(0, 4)]).sum(axis=1)


@cache
def _flip_slice_parts(matrix: Matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(each flip moved, each slice's flip changes, each slice moved): see
    ``conjugated_flip_slices``."""
    action = edge_action(matrix)
    occupied = _slice_sets()
    into = np.argsort(action.goes)  # the place whose edge each place receives
    changed = action.orientation[np.arange(12)[None, :], np.where(occupied, 8, 0), 0]
    changes = (changed[:, into][:, :11] << np.arange(11)).sum(axis=1)
    flips = np.arange(2048)[:, None] >> np.arange(11) & 1
    flips = np.hstack([flips, flips.sum(axis=1, keepdims=True) % 2])
    moved = (flips[:, into][:, :11] << np.arange(11)).sum(axis=1)
    return moved, changes, _slice_ranks(occupied[:, into])


def conjugated_flip_slices(matrix: Matrix, codes: np.ndarray | None = None) -> np.ndarray:
    """The flip-slice coordinate of every flip-slice coordinate's position (or of
    ``codes``'s) conjugated by a symmetry of D4h.  Such a symmetry keeps the slice edges
    in the slice, and an edge's flip there is its flip here, changed or not by the place
    and by whether the edge is a slice edge (which one does not matter); so the image's
    flips are the flips moved to the image places, then changed where the slice's places
    say."""
    moved, changes, slices = _flip_slice_parts(matrix)
    if codes is not None:
        return slices[codes // 2048] * 2048 + (moved[codes % 2048] ^ changes[codes // 2048])
    return (slices[:, None] * 2048 + (moved[None, :] ^ changes[:, None])).reshape(-1)


def twist_conjugates() -> np.ndarray:
    """``[twist, s]``: the twist coordinate of a position of that twist conjugated by
    ``D4H[s]`` (uint16)."""
    digits = np.array([[twist // 3 ** place % 3 for place in range(7)] for twist in range(2187)],
                      np.int64)
    digits = np.hstack([digits, -digits.sum(axis=1, keepdims=True) % 3])
    made = np.zeros((2187, SYMMETRIES), np.uint16)
    for number, matrix in enumerate(D4H):
        action = corner_action(matrix)
        moved = np.zeros_like(digits)
        for place in range(8):
            # the identity arrangement: piece p at place p
            moved[:, action.goes[place]] = action.orientation[place, place, digits[:, place]]
        made[:, number] = moved[:, :7] @ (3 ** np.arange(7))
    return made


@dataclass(frozen=True)
class Classes:
    """The flip-slice coordinates by class under D4h."""

    class_of: np.ndarray
    """Each coordinate's class (uint32)."""
    symmetry: np.ndarray
    """A symmetry (its number in ``D4H``) that takes the coordinate to its class's
    representative (uint8)."""
    representative: np.ndarray
    """Each class's least coordinate (int64)."""
    stabiliser: np.ndarray
    """Each class's symmetries that fix its representative, as a 16-bit mask (uint16)."""


def flip_slice_classes() -> Classes:
    images = np.stack([conjugated_flip_slices(matrix) for matrix in D4H], axis=1)
    least = images.min(axis=1)
    representative, class_of = np.unique(least, return_inverse=True)
    symmetry = images.argmin(axis=1).astype(np.uint8)
    fixes = images[representative] == representative[:, None]
    stabiliser = (fixes.astype(np.int64) << np.arange(SYMMETRIES)).sum(axis=1)
    return Classes(class_of.astype(np.uint32), symmetry, representative.astype(np.int64),
                   stabiliser.astype(np.uint16))
