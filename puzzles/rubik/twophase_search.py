"""The two-phase search's kernels (numba): the moves of its pruning tables' states, for
the engine's breadth-first kernel, and the search itself (``twophase.py`` drives it).

Phase 1 takes the cube into the subgroup H = <U, D, R2, L2, F2, B2>, where every piece
keeps its orientation and the four UD-slice edges (FR FL BL BR) stay in the slice; phase
2 solves it within H.  Each phase sees the cube through coordinates (the place view of
``rules.py``: the piece in each place, its orientation):

- phase 1: ``twist`` (the twists of places URF .. DLB in base 3, URF lowest: 2187),
  ``flip`` (the flips of places UR .. BL as bits, UR lowest: 2048), ``slice`` (which four
  places hold the slice edges: the colex rank of the set, C(p0, 1) + C(p1, 2) + C(p2, 3)
  + C(p3, 4) for places p0 < p1 < p2 < p3: 495; solved ``SLICE_SOLVED``);
- phase 2: ``corners`` (the Lehmer code of the corner in each place: 40320), ``edges``
  (of the edge in each of the eight U and D edge places: 40320), ``slice_order`` (of the
  slice edge in each slice place, less 8: 24); solved all 0.

Move tables, one row per coordinate and a column per move (phase 1: the 18 moves of the
half-turn metric, numbered per face U R F D L B as X X2 X'; phase 2: the ten moves
``PHASE2`` that keep H, numbered by their place in it), are made with numpy from
``rules.TURNED`` when this module is imported.  The pruning tables (``twophase.py``) pair a
coordinate with the slice's: twist and slice, flip and slice; corners and slice order,
edges and slice order.  Their states' moves here are also their states one move before,
as turns can be undone.
"""

from __future__ import annotations

from itertools import combinations, permutations
from math import comb

import numpy as np
from numba import njit, types

from builder.contract.specs import compiled_moves
from puzzles.rubik.rules import FACES, TURNED

TWISTS, FLIPS, SLICES, ORDERS, SLICE_ORDERS = 2187, 2048, 495, 40320, 24
SLICE_SOLVED = SLICES - 1
"""The slice edges in places 8 .. 11 (FR FL BL BR): C(8, 1) + C(9, 2) + C(10, 3) + C(11, 4)."""
PHASE2 = np.array([0, 1, 2, 4, 7, 9, 10, 11, 13, 16], np.int64)
"""The moves of H, as half-turn-metric move numbers: U U2 U' R2 F2 D D2 D' L2 B2."""
MOVES = 18
LONGEST = 32
"""Room for any path the search makes (it asks for at most 30 turns)."""


def _turns() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(corner taken, corner gained, edge taken, edge gained), a row per move: place i
    receives the piece of place ``taken[i]``, whose orientation grows by ``gained[i]``."""
    rows = [TURNED[face, times] for face in FACES for times in (1, 2, 3)]
    return tuple(np.array([row[part] for row in rows], np.int64) for part in range(4))


CORNER_TAKEN, CORNER_GAINED, EDGE_TAKEN, EDGE_GAINED = _turns()


def lehmer_ranks(arrangements: np.ndarray) -> np.ndarray:
    """The Lehmer code of each row (a permutation of 0 .. n-1): its rank among the
    permutations in lexicographic order."""
    width = arrangements.shape[1]
    ranks = np.zeros(len(arrangements), np.int64)
    for place in range(width):
        later_smaller = (arrangements[:, place + 1:] < arrangements[:, [place]]).sum(axis=1)
        ranks = ranks * (width - place) + later_smaller
    return ranks


def _set_ranks(occupied: np.ndarray) -> np.ndarray:
    """The colex rank of each row's set of occupied places (a bool row of 12)."""
    ranks = np.zeros(len(occupied), np.int64)
    seen = np.zeros(len(occupied), np.int64)
    for place in range(12):
        here = occupied[:, place]
        seen += here
        ranks += here * np.array([comb(place, k) for k in range(5)])[seen]
    return ranks


def _move_tables() -> dict[str, np.ndarray]:
    twist_digits = np.array([[twist // 3 ** place % 3 for place in range(7)]
                             for twist in range(TWISTS)], np.int64)
    twist_digits = np.hstack([twist_digits, -twist_digits.sum(axis=1, keepdims=True) % 3])
    flip_bits = (np.arange(FLIPS)[:, None] >> np.arange(11)) & 1
    flip_bits = np.hstack([flip_bits, flip_bits.sum(axis=1, keepdims=True) % 2])
    occupied = np.zeros((SLICES, 12), bool)
    for places in combinations(range(12), 4):
        occupied[_set_ranks(np.isin(np.arange(12), places)[None])[0], list(places)] = True
    orders = np.array(list(permutations(range(8))), np.int64)  # in Lehmer order
    slice_orders = np.array(list(permutations(range(4))), np.int64)
    made = {name: np.zeros((size, MOVES), np.uint16) for name, size in (
        ("twist", TWISTS), ("flip", FLIPS), ("slice", SLICES))}
    made.update({name: np.zeros((size, len(PHASE2)), np.uint16) for name, size in (
        ("corners", ORDERS), ("edges", ORDERS), ("slice_order", SLICE_ORDERS))})
    for move in range(MOVES):
        taken, gained = CORNER_TAKEN[move], CORNER_GAINED[move]
        edge_taken, edge_gained = EDGE_TAKEN[move], EDGE_GAINED[move]
        made["twist"][:, move] = ((twist_digits[:, taken] + gained) % 3)[:, :7] @ (
            3 ** np.arange(7))
        made["flip"][:, move] = ((flip_bits[:, edge_taken] + edge_gained) % 2)[:, :11] @ (
            1 << np.arange(11))
        made["slice"][:, move] = _set_ranks(occupied[:, edge_taken])
        if move in PHASE2:
            number = int(np.flatnonzero(PHASE2 == move)[0])
            made["corners"][:, number] = lehmer_ranks(orders[:, taken])
            made["edges"][:, number] = lehmer_ranks(orders[:, edge_taken[:8]])
            made["slice_order"][:, number] = lehmer_ranks(slice_orders[:, edge_taken[8:] - 8])
    return made


_MADE = _move_tables()
TWIST_MOVES, FLIP_MOVES, SLICE_MOVES = _MADE["twist"], _MADE["flip"], _MADE["slice"]
CORNER_MOVES, EDGE_MOVES, ORDER_MOVES = (_MADE["corners"], _MADE["edges"],
                                         _MADE["slice_order"])
PHASE2_OF = np.full(MOVES, -1, np.int64)
"""Each move's number among ``PHASE2`` (-1: none, it leaves H)."""
PHASE2_OF[PHASE2] = np.arange(len(PHASE2))


# The pruning tables' states: a phase-1 table's is coordinate * SLICES + slice; a
# phase-2 table's coordinate * SLICE_ORDERS + slice order.

@compiled_moves
def twist_slice_moves(state, parameters, out):
    twist, place = state // SLICES, state % SLICES
    for move in range(MOVES):
        out[move] = np.int64(TWIST_MOVES[twist, move]) * SLICES + SLICE_MOVES[place, move]
    return MOVES


@compiled_moves
def flip_slice_moves(state, parameters, out):
    flip, place = state // SLICES, state % SLICES
    for move in range(MOVES):
        out[move] = np.int64(FLIP_MOVES[flip, move]) * SLICES + SLICE_MOVES[place, move]
    return MOVES


@compiled_moves
def corners_order_moves(state, parameters, out):
    corners, order = state // SLICE_ORDERS, state % SLICE_ORDERS
    for move in range(len(PHASE2)):
        out[move] = (np.int64(CORNER_MOVES[corners, move]) * SLICE_ORDERS
                     + ORDER_MOVES[order, move])
    return len(PHASE2)


@compiled_moves
def edges_order_moves(state, parameters, out):
    edges, order = state // SLICE_ORDERS, state % SLICE_ORDERS
    for move in range(len(PHASE2)):
        out[move] = (np.int64(EDGE_MOVES[edges, move]) * SLICE_ORDERS
                     + ORDER_MOVES[order, move])
    return len(PHASE2)


# The search.  ``cube``: the start's twist, flip and slice, then its corner in each place
# (8) and edge in each place (12).  ``state`` (in and out): the best length found so far
# (a path is kept only if shorter), the length that ends the search, the most nodes it may
# make, and the nodes made.  ``best``: the moves of the best path.  A call searches phase-1 paths
# of exactly ``depth`` moves, each followed by the shortest phase 2 of at most
# ``phase2_most`` moves that makes a path shorter than the best.

DONE, EXHAUSTED, STOPPED, OVER_BUDGET = 0, 1, 2, 3
BEST, ENOUGH, NODES_MOST, NODES_MADE = 0, 1, 2, 3
POLL = 1 << 12


@njit(cache=True, nogil=True, inline="always")
def _redundant(previous, move):
    """A move never made after ``previous``: the same face, or the first face of an
    opposite pair (U R F) after the second (D L B), with which it commutes."""
    if previous < 0:
        return False
    before, after = previous // 3, move // 3
    return before == after or before == after + 3


@njit(cache=True, nogil=True, inline="always")
def _rank(values, start, count):
    """The Lehmer code of ``values[start:start + count]`` (less their least possible)."""
    rank = np.int64(0)
    for place in range(start, start + count):
        smaller = 0
        for later in range(place + 1, start + count):
            if values[later] < values[place]:
                smaller += 1
        rank = rank * (start + count - place) + smaller
    return rank


@njit(cache=True, nogil=True)
def _phase2(corners, edges, order, length, bound, path, previous, corners_order,
            edges_order, state):
    """The shortest phase 2 of at most ``bound`` moves from its coordinates, written into
    ``path`` from ``length``, its first move not redundant after ``previous``: its
    length, or -1."""
    depth_corners = np.empty(LONGEST, np.int64)
    depth_edges = np.empty(LONGEST, np.int64)
    depth_order = np.empty(LONGEST, np.int64)
    tried = np.empty(LONGEST, np.int64)
    estimate = max(corners_order[corners * SLICE_ORDERS + order],
                   edges_order[edges * SLICE_ORDERS + order])
    if estimate == 0:
        return 0
    for limit in range(estimate, bound + 1):
        depth_corners[0], depth_edges[0], depth_order[0] = corners, edges, order
        tried[0] = -1
        depth = 0
        while depth >= 0:
            tried[depth] += 1
            if tried[depth] == len(PHASE2):
                depth -= 1
                continue
            move = PHASE2[tried[depth]]
            last = path[length + depth - 1] if depth else previous
            if _redundant(last, move):
                continue
            state[NODES_MADE] += 1
            number = tried[depth]
            next_corners = np.int64(CORNER_MOVES[depth_corners[depth], number])
            next_order = np.int64(ORDER_MOVES[depth_order[depth], number])
            left = limit - depth - 1
            if corners_order[next_corners * SLICE_ORDERS + next_order] > left:
                continue
            next_edges = np.int64(EDGE_MOVES[depth_edges[depth], number])
            estimate = edges_order[next_edges * SLICE_ORDERS + next_order]
            if estimate > left:
                continue
            path[length + depth] = move
            if left == 0:  # the estimates are exact at 0: solved
                return depth + 1
            depth += 1
            depth_corners[depth], depth_edges[depth], depth_order[depth] = (
                next_corners, next_edges, next_order)
            tried[depth] = -1
    return -1


_BYTES = types.uint8[::1]
_WORDS = types.int64[::1]


@njit(types.int64(_WORDS, types.int64, types.int64, _BYTES, _BYTES, _BYTES, _BYTES, _WORDS,
                  _WORDS, _BYTES, _BYTES), cache=True, nogil=True)
def search(cube, depth, phase2_most, twist_slice, flip_slice, corners_order, edges_order,
           state, best, stop, deadline):
    """Every phase-1 path of exactly ``depth`` moves from ``cube`` (none ending with a
    move of H: the path without it would reach H sooner), each followed by its shortest
    phase 2 that beats ``state[BEST]``; the best path kept in ``best``.  DONE when a path
    of ``state[ENOUGH]`` moves or fewer is found, STOPPED at ``stop`` (a server's) or at
    ``deadline`` once a path is known, OVER_BUDGET when the nodes run out, else
    EXHAUSTED."""
    path = np.empty(LONGEST, np.int64)
    twists = np.empty(LONGEST, np.int64)
    flips = np.empty(LONGEST, np.int64)
    slices = np.empty(LONGEST, np.int64)
    tried = np.empty(LONGEST, np.int64)
    corners = np.empty(8, np.int64)
    edges = np.empty(12, np.int64)
    moved = np.empty(12, np.int64)
    twists[0], flips[0], slices[0] = cube[0], cube[1], cube[2]
    tried[0] = -1
    level = 0
    polled = state[NODES_MADE]
    while level >= 0:
        if state[NODES_MADE] - polled >= POLL:
            polled = state[NODES_MADE]
            if stop[0] or (deadline[0] and state[BEST] < LONGEST):
                return STOPPED
            if state[NODES_MADE] >= state[NODES_MOST]:
                return OVER_BUDGET
        if level == depth:
            # in H after ``depth`` moves: the pieces' places, then phase 2
            level -= 1
            phase2_bound = min(phase2_most, state[BEST] - 1 - depth)
            if phase2_bound < 0:
                continue
            for place in range(8):
                corners[place] = cube[3 + place]
            for step in range(depth):
                for place in range(8):
                    moved[place] = corners[CORNER_TAKEN[path[step], place]]
                for place in range(8):
                    corners[place] = moved[place]
            corner_rank = _rank(corners, 0, 8)
            for place in range(12):
                edges[place] = cube[11 + place]
            for step in range(depth):
                for place in range(12):
                    moved[place] = edges[EDGE_TAKEN[path[step], place]]
                for place in range(12):
                    edges[place] = moved[place]
            order = _rank(edges, 8, 4)
            if corners_order[corner_rank * SLICE_ORDERS + order] > phase2_bound:
                continue
            found = _phase2(corner_rank, _rank(edges, 0, 8), order, depth, phase2_bound,
                            path, path[depth - 1] if depth else -1, corners_order,
                            edges_order, state)
            if found >= 0:
                state[BEST] = depth + found
                for step in range(depth + found):
                    best[step] = path[step]
                if state[BEST] <= state[ENOUGH]:
                    return DONE
            continue
        tried[level] += 1
        if tried[level] == MOVES:
            level -= 1
            continue
        move = tried[level]
        if level and _redundant(path[level - 1], move):
            continue
        left = depth - level - 1
        if left == 0 and PHASE2_OF[move] >= 0:
            continue  # a path that reaches H by a move of H reached it a move sooner
        state[NODES_MADE] += 1
        next_slice = np.int64(SLICE_MOVES[slices[level], move])
        next_twist = np.int64(TWIST_MOVES[twists[level], move])
        if twist_slice[next_twist * SLICES + next_slice] > left:
            continue
        next_flip = np.int64(FLIP_MOVES[flips[level], move])
        if flip_slice[next_flip * SLICES + next_slice] > left:
            continue
        path[level] = move
        level += 1
        twists[level], flips[level], slices[level] = next_twist, next_flip, next_slice
        tried[level] = -1
    return EXHAUSTED
