"""The 3×3×3 cube's kernels (numba): the moves of a pattern's abstract states, for the
engine's breadth-first kernel, and one move of the exact search's row, for its IDA*.

Both work on pieces, not stickers, through tables made from ``rules.turned`` when this
module is imported, one row per half-turn-metric move (per face U R F D L B: X X2 X'; a
quarter-turn-metric move number k is the half-turn-metric move ``QUARTER[k]``):

- ``CORNER_DEST``, ``CORNER_GAIN``: where the corner in a place goes, and the twist it
  gains; ``EDGE_FIELD``: an edge's place and flip (``2 * place + flip``) after the move;
- ``CORNER_PERMUTATION_MOVES``, ``CORNER_TWIST_MOVES``: the corners' whole state
  (``rules.corner_state_rank``: an arrangement coordinate times 3^7 plus a twist
  coordinate) moves each coordinate on its own, so a move of it is two look-ups (a half
  turn four: these tables have the quarter turns alone, so that each stays under the
  size numba compiles into a cached kernel).

An abstract state is ranked as ``rules.pattern_rank`` ranks it; turns can be undone, so a
state's moves are also the states one move before it.  Each kernel is one inlined body
(``_moves``, ``_index``) behind entry points that fix how many corners and edges a
pattern tracks: with the counts constant, the compiler unrolls the loops and divides by
constants, several times faster than the general entry points (``pattern_moves``,
``pattern_step``: the counts read from the parameters), which small patterns use and
which the tests compare with the others.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit

from builder.contract.bits import popcount
from builder.contract.patterns import compiled_step
from builder.contract.specs import compiled_moves
from puzzles.rubik.rules import FACES, SOLVED, pieces_view, turned

TWISTS = 3 ** 7


def _lehmer_ranks(arrangements: np.ndarray) -> np.ndarray:
    """The Lehmer code of each row (a permutation of 0 .. 7)."""
    ranks = np.zeros(len(arrangements), np.int64)
    for place in range(8):
        later_smaller = (arrangements[:, place + 1:] < arrangements[:, [place]]).sum(axis=1)
        ranks = ranks * (8 - place) + later_smaller
    return ranks


def _move_tables() -> tuple[np.ndarray, ...]:
    """(corner dest, corner gain, edge field, corner permutation moves, corner twist
    moves): see the module's docstring.  In the solved cube the piece in place p is
    piece p, so the position after a move from solved shows what each place does."""
    corner_dest, corner_gain = np.zeros((18, 8), np.int64), np.zeros((18, 8), np.int64)
    edge_field = np.zeros((18, 24), np.int64)
    arrangements = np.array(list(permutations(range(8))), np.int64)  # in Lehmer order
    twists = np.array([[twist // 3 ** place % 3 for place in range(7)]
                       for twist in range(TWISTS)], np.int64)
    twists = np.hstack([twists, (-twists.sum(axis=1, keepdims=True)) % 3])
    permutation_moves = np.zeros((len(arrangements), 12), np.uint16)
    twist_moves = np.zeros((TWISTS, 12), np.uint16)
    for move, (face, times) in enumerate((face, times) for face in FACES
                                         for times in (1, 2, 3)):
        after = turned(SOLVED, face, times)
        row = pieces_view(after)
        corner_dest[move], corner_gain[move] = row[0:8], row[8:16]
        for place in range(12):
            for flip in range(2):
                edge_field[move, 2 * place + flip] = 2 * row[16 + place] + (
                    flip ^ row[28 + place])
        if times == 2:
            continue
        quarter = 2 * FACES.index(face) + (times == 3)
        taken, gained = np.array(after[0]), np.array(after[1])
        permutation_moves[:, quarter] = _lehmer_ranks(arrangements[:, taken])
        moved = (twists[:, taken] + gained) % 3
        twist_moves[:, quarter] = moved[:, :7] @ (3 ** np.arange(7))
    return corner_dest, corner_gain, edge_field, permutation_moves, twist_moves


(CORNER_DEST, CORNER_GAIN, EDGE_FIELD, CORNER_PERMUTATION_MOVES,
 CORNER_TWIST_MOVES) = _move_tables()
QUARTER = np.array([3 * face + times for face in range(6) for times in (0, 2)], np.int64)
"""The half-turn-metric move of each quarter-turn-metric move (X, X' per face)."""


@njit(cache=True, inline="always")
def _falling(top, count):
    """top * (top - 1) * ... (count factors)."""
    product = np.int64(1)
    for factor in range(count):
        product *= top - factor
    return product


@njit(cache=True, inline="always")
def _nth_free(used, digit):
    """The ``digit``-th place (from 0) not in the mask ``used``."""
    place = 0
    while True:
        if not (used >> place) & 1:
            if digit == 0:
                return place
            digit -= 1
        place += 1


@njit(cache=True, inline="always")
def _arrangement_rank(packed, count, total):
    """The rank of ``count`` distinct places of ``total``, packed four bits each (the
    first lowest), among their arrangements in lexicographic order."""
    rank = np.int64(0)
    used = np.int64(0)
    for index in range(count):
        place = (packed >> (4 * index)) & 15
        rank += ((place - popcount(used & ((np.int64(1) << place) - 1)))
                 * _falling(total - 1 - index, count - 1 - index))
        used |= np.int64(1) << place
    return rank


@njit(cache=True, inline="always")
def _arrangement_unrank(rank, count, total):
    packed = np.int64(0)
    used = np.int64(0)
    for index in range(count):
        weight = _falling(total - 1 - index, count - 1 - index)
        digit = rank // weight
        rank -= digit * weight
        place = _nth_free(used, digit)
        packed |= place << (4 * index)
        used |= np.int64(1) << place
    return packed


@njit(cache=True, inline="always")
def _rank(corner_places, twists, edge_places, flips, corners, edges):
    """The rank of a pattern's abstract state (by piece) from its tracked pieces, each
    packed in order from the lowest bits: corners' places (four bits each) and twists
    (two bits each), edges' places (four bits each) and flips (one bit each)."""
    digits = np.int64(0)
    for index in range(corners - 1, -1, -1):
        digits = digits * 3 + ((twists >> (2 * index)) & 3)
    rank = _arrangement_rank(corner_places, corners, 8) * 3 ** corners + digits
    rank = rank * _falling(12, edges) + _arrangement_rank(edge_places, edges, 12)
    return (rank << edges) | flips


@njit(cache=True, inline="always")
def _moves(state, quarter, out, corners, edges):
    """Every state one move from ``state`` of a pattern by piece, written into ``out``;
    how many."""
    flips = state & ((np.int64(1) << edges) - 1)
    rest = state >> edges
    edge_places = _arrangement_unrank(rest % _falling(12, edges), edges, 12)
    rest //= _falling(12, edges)
    twist_digits = rest % 3 ** corners
    corner_places = _arrangement_unrank(rest // 3 ** corners, corners, 8)
    twists = np.int64(0)
    for index in range(corners):
        twists |= (twist_digits % 3) << (2 * index)
        twist_digits //= 3
    for number in range(12 if quarter else 18):
        move = QUARTER[number] if quarter else number
        turned_places = np.int64(0)
        turned_twists = np.int64(0)
        for index in range(corners):
            place = (corner_places >> (4 * index)) & 15
            turned_places |= CORNER_DEST[move, place] << (4 * index)
            twist = ((twists >> (2 * index)) & 3) + CORNER_GAIN[move, place]
            turned_twists |= (twist - 3 if twist >= 3 else twist) << (2 * index)
        turned_edges = np.int64(0)
        turned_flips = np.int64(0)
        for index in range(edges):
            field = EDGE_FIELD[move, 2 * ((edge_places >> (4 * index)) & 15)
                               + ((flips >> index) & 1)]
            turned_edges |= (field >> 1) << (4 * index)
            turned_flips |= (field & 1) << index
        out[number] = _rank(turned_places, turned_twists, turned_edges, turned_flips, corners,
                            edges)
    return 12 if quarter else 18


@compiled_moves
def pattern_moves(state, parameters, out):
    # parameters: quarter (1: the quarter-turn metric), corners tracked, edges tracked
    return _moves(state, parameters[0], out, parameters[1], parameters[2])


@compiled_moves
def six_edge_moves(state, parameters, out):
    return _moves(state, parameters[0], out, 0, 6)


@compiled_moves
def seven_edge_moves(state, parameters, out):
    return _moves(state, parameters[0], out, 0, 7)


@njit(cache=True, inline="always")
def _corner_state_turned(state, move):
    """The corners' state after half-turn-metric move ``move``."""
    face = move // 3
    quarter = 2 * face + (move - 3 * face == 2)
    permutation = np.int64(state // TWISTS)
    twist = np.int64(state - permutation * TWISTS)
    permutation = np.int64(CORNER_PERMUTATION_MOVES[permutation, quarter])
    twist = np.int64(CORNER_TWIST_MOVES[twist, quarter])
    if move - 3 * face == 1:  # a half turn: the quarter turn twice
        permutation = np.int64(CORNER_PERMUTATION_MOVES[permutation, quarter])
        twist = np.int64(CORNER_TWIST_MOVES[twist, quarter])
    return permutation * TWISTS + twist


@compiled_moves
def corner_moves(state, parameters, out):
    # all eight corners, ranked by place (``rules.corner_state_rank``)
    quarter = parameters[0]
    for number in range(12 if quarter else 18):
        out[number] = _corner_state_turned(state, QUARTER[number] if quarter else number)
    return 12 if quarter else 18


# IDA* (``builder.contract.patterns.PatternSearch``).  A row: the corners' state
# (``rules.corner_state_rank``), the edges' by piece (``rules.edges_packed``) and by place
# (``rules.edges_by_place``), then the index of each pattern's table.  Parameters:
# quarter, the number of patterns, then a block per pattern: its corner and edge counts,
# whether it is looked up on the inverse position (a pattern of edges alone: its edges'
# places in the inverse are the edges in those places here), its corners (8, padded) and
# edges (12, padded), and the mask of its edges.  A pattern of all eight corners is the
# corners' state itself (the inverse's has the same distance).
BLOCK = 24
ROW = 3


def _face_places() -> np.ndarray:
    """The four edge places each half-turn-metric move turns."""
    return np.array([[place for place in range(12) if EDGE_FIELD[move, 2 * place] >> 1 != place]
                     for move in range(18)], np.int64)


FACE_PLACES = _face_places()


@njit(cache=True, inline="always")
def _turn(rows, depth, move, quarter):
    """Row ``depth + 1``'s pieces after the move; what it moved, as a mask: the edges in
    bits 0-11, their places in bits 12-23."""
    turn = QUARTER[move] if quarter else move
    child = depth + 1
    rows[child, 0] = _corner_state_turned(rows[depth, 0], turn)
    by_piece = rows[depth, 1]
    by_place = rows[depth, 2]
    turned_by_place = by_place
    moved = np.int64(0)
    for index in range(4):
        place = FACE_PLACES[turn, index]
        turned_by_place &= ~(np.int64(31) << (5 * place))
    for index in range(4):
        place = FACE_PLACES[turn, index]
        field = (by_place >> (5 * place)) & 31
        edge = field >> 1
        after = EDGE_FIELD[turn, 2 * place + (field & 1)]
        turned_by_place |= (2 * edge + (after & 1)) << (5 * (after >> 1))
        by_piece = (by_piece & ~(np.int64(31) << (5 * edge))) | (after << (5 * edge))
        moved |= (np.int64(1) << edge) | (np.int64(1) << (12 + place))
    rows[child, 1] = by_piece
    rows[child, 2] = turned_by_place
    return moved


@njit(cache=True, inline="always")
def _index(rows, depth, parameters, pattern, moved, corners, edges, dual):
    """Row ``depth + 1``'s index of ``pattern``: the corners' state for all eight corners;
    for a pattern of edges, its parent's where the move moved none of them (on the
    inverse: turned none of their places); else ranked."""
    at = 2 + pattern * BLOCK
    child = depth + 1
    if corners == 8:
        rows[child, ROW + pattern] = rows[child, 0]
        return
    if corners == 0 and not (moved >> (12 if dual else 0)) & parameters[at + 23]:
        rows[child, ROW + pattern] = rows[depth, ROW + pattern]
        return
    places = np.int64(0)
    twists = np.int64(0)
    if corners:
        # each tracked corner's place and twist, from the corners' state by place
        state = rows[child, 0]
        permutation = _arrangement_unrank(state // TWISTS, 8, 8)
        twist_digits = state % TWISTS
        total = 0
        for place in range(8):
            twist = twist_digits % 3 if place < 7 else (3 - total % 3) % 3
            twist_digits //= 3
            total += twist
            corner = (permutation >> (4 * place)) & 15
            for index in range(corners):
                if parameters[at + 3 + index] == corner:
                    places |= np.int64(place) << (4 * index)
                    twists |= np.int64(twist) << (2 * index)
    edge_places = np.int64(0)
    flips = np.int64(0)
    edges_state = rows[child, 2 if dual else 1]
    for index in range(edges):
        field = (edges_state >> (5 * parameters[at + 11 + index])) & 31
        edge_places |= (field >> 1) << (4 * index)
        flips |= (field & 1) << index
    rows[child, ROW + pattern] = _rank(places, twists, edge_places, flips, corners, edges)


@compiled_step
def pattern_step(rows, depth, move, parameters):
    moved = _turn(rows, depth, move, parameters[0])
    for pattern in range(parameters[1]):
        at = 2 + pattern * BLOCK
        _index(rows, depth, parameters, pattern, moved, parameters[at], parameters[at + 1],
               parameters[at + 2])
    return 1


@compiled_step
def six_edge_step(rows, depth, move, parameters):
    # the corners, two patterns of six edges, the same on the inverse position
    moved = _turn(rows, depth, move, parameters[0])
    _index(rows, depth, parameters, 0, moved, 8, 0, 0)
    _index(rows, depth, parameters, 1, moved, 0, 6, 0)
    _index(rows, depth, parameters, 2, moved, 0, 6, 0)
    _index(rows, depth, parameters, 3, moved, 0, 6, 1)
    _index(rows, depth, parameters, 4, moved, 0, 6, 1)
    return 1


@compiled_step
def seven_edge_step(rows, depth, move, parameters):
    # the corners, two patterns of seven edges, the same on the inverse position
    moved = _turn(rows, depth, move, parameters[0])
    _index(rows, depth, parameters, 0, moved, 8, 0, 0)
    _index(rows, depth, parameters, 1, moved, 0, 7, 0)
    _index(rows, depth, parameters, 2, moved, 0, 7, 0)
    _index(rows, depth, parameters, 3, moved, 0, 7, 1)
    _index(rows, depth, parameters, 4, moved, 0, 7, 1)
    return 1
