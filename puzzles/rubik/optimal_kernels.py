"""The optimal search's kernels (numba): the breadth-first search that fills its pruning
table, and the depth-first passes of IDA* on it (``optimal.py`` drives both).

The table holds, for every flip-slice class under D4h (``symmetry.py``) and every twist,
the fewest turns that bring a position with that class's representative flip and slice
and that twist into H = <U, D, R2, L2, F2, B2> (every piece oriented, the slice edges in
the slice: phase 1 of the two-phase method).  Entry ``class * 2187 + twist``; a position's
entry is its flip-slice coordinate's class, and its twist conjugated by the symmetry that
takes the coordinate to the representative (``class_symmetry``: class << 4 | symmetry).
The fewest turns are the same for every position of a class (the symmetries map H to H
and turns to turns), so a class's entries for twists that a symmetry fixing its
representative maps to one another are equal: the breadth-first search writes them
together.  Searched with a byte an entry (``fill_level``), the table is then stored as
the fewest turns modulo 3, four entries a byte (``packed``): a turn changes the fewest
turns by at most one, so a search that knows a position's value knows its neighbours'
from their residues.

The search looks the table up in three directions: on the cube (H of the U-D axis), and
on the cube turned a third about its URF-DBL diagonal once and twice (H of the R-L and of
the F-B axis), each image's coordinates kept up to date by the two-phase move tables,
moved by the turn each turn of the cube is on that image (``axis_moves``).  A path to
solved is at least as long as the largest of the three; one more where all three are
equal and not 0 (the last turn of a shortest path into H of an axis is a quarter turn of
a face off that axis, and no quarter turn is off all three); and, where asked, at least
as long as the three of its inverse, bounded by the two-phase tables and a table of the
flips with the twists and raised to the residues (``_inverse_bound``).  A node's
children are all made before any is looked at, their entries asked for first
(``prefetch``), so that their cache misses overlap (``_children``); a pass is shared by
threads, each taking the next of its paths' first turns (``search``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from builder.contract.intrinsics import prefetch, take_next
from puzzles.rubik.twophase_search import (
    CORNER_GAINED,
    CORNER_TAKEN,
    EDGE_GAINED,
    EDGE_TAKEN,
    FLIP_MOVES,
    SLICE_MOVES,
    SLICE_SOLVED,
    TWIST_MOVES,
)

TWISTS = 2187
ENTRIES = 64430 * TWISTS
"""Flip-slice classes times twists."""
AXES = 3
LONGEST = 32
FOUND, EXHAUSTED, STOPPED, OVER_BUDGET = 0, 1, 2, 3
"""A pass's status, as the engine's IDA* numbers them (``PatternSearch.passes``)."""
UNBOUNDED = 1 << 30
"""No cost past the bound was seen (the engine's "no next bound")."""
MOST_TURNS = 12
"""The most turns any position lies from H."""
POLL = 1 << 12
"""Nodes between two looks at the flags."""
NEXT_PREFIX, FINDS, BUDGET = 0, 1, 2
"""A pass's ``shared`` entries: the next prefix to take, the paths found, the most nodes
its threads may make together."""
NODES, LEAST_PAST, FOUND_LENGTH = 0, 1, 2
"""A thread's ``mine`` entries: its nodes, the least cost it cut past the bound, the
length of the path it found (-1: none)."""

_U16 = types.uint16[:, ::1]


@njit(cache=True, nogil=True, inline="always")
def _entry(twist, flip, slice_, class_symmetry, twist_conjugate):
    packed = class_symmetry[slice_ * 2048 + flip]
    return np.int64(packed >> 4) * TWISTS + twist_conjugate[twist, packed & 15]


@njit(types.int64(types.int64, types.uint8[::1], types.int64, types.int64, types.int64,
                  types.int64, types.uint32[::1], types.int64[::1], types.uint16[::1], _U16),
      cache=True, nogil=True)
def fill_level(depth, distance, unseen, first, last, backward, class_symmetry,
               representative, stabiliser, twist_conjugate):
    """Level ``depth + 1`` of the breadth-first search, over entries ``first .. last - 1``:
    forward (the unseen entries one turn from an entry at ``depth``, and their equals
    under a symmetry fixing their class's representative) or ``backward`` (each unseen
    entry one turn from an entry at ``depth``); an unseen entry holds ``unseen`` (the
    array's never value).  The entries written (forward: possibly some another thread
    writes too)."""
    written = 0
    for entry in range(first, last):
        here = distance[entry]
        if backward:
            if here != unseen:
                continue
        elif here != depth:
            continue
        code = representative[entry // TWISTS]
        twist, flip, slice_ = entry % TWISTS, code & 2047, code >> 11
        for move in range(18):
            other = _entry(np.int64(TWIST_MOVES[twist, move]), np.int64(FLIP_MOVES[flip, move]),
                           np.int64(SLICE_MOVES[slice_, move]), class_symmetry, twist_conjugate)
            if backward:
                if distance[other] == depth:
                    distance[entry] = depth + 1
                    written += 1
                    break
                continue
            if distance[other] != unseen:
                continue
            distance[other] = depth + 1
            written += 1
            fixing = np.int64(stabiliser[other // TWISTS])
            if fixing != 1:
                base = other - other % TWISTS
                for symmetry in range(1, 16):
                    if (fixing >> symmetry) & 1:
                        twin = base + twist_conjugate[other % TWISTS, symmetry]
                        if distance[twin] == unseen:
                            distance[twin] = depth + 1
                            written += 1
    return written


@njit(types.void(types.uint8[::1], types.int64), cache=True, nogil=True)
def flip_twist_distances(distance, unseen):
    """The fewest turns that bring the edges' flips and the corners' twists to 0, written
    at ``flip * 2187 + twist`` of ``distance`` (every entry ``unseen`` before: a
    breadth-first search a level at a time): with the two-phase tables' bounds, what
    bounds an inverse image's fewest turns into H."""
    distance[0] = 0
    depth = 0
    written = 1
    while written:
        written = 0
        for entry in range(2048 * TWISTS):
            if distance[entry] != depth:
                continue
            flip, twist = entry // TWISTS, entry % TWISTS
            for move in range(18):
                other = np.int64(FLIP_MOVES[flip, move]) * TWISTS + TWIST_MOVES[twist, move]
                if distance[other] == unseen:
                    distance[other] = depth + 1
                    written += 1
        depth += 1


@njit(types.int64[::1](types.uint8[::1], types.uint32[::1], _U16), cache=True, nogil=True)
def raw_counts(distance, class_symmetry, twist_conjugate):
    """How many of the 2,217,093,120 raw coordinates (twist, flip, slice) lie each number
    of turns from H, read through their classes' entries."""
    counts = np.zeros(256, np.int64)
    for code in range(len(class_symmetry)):
        packed = class_symmetry[code]
        base = np.int64(packed >> 4) * TWISTS
        for twist in range(TWISTS):
            counts[distance[base + twist_conjugate[twist, packed & 15]]] += 1
    return counts


@njit(types.uint8[::1](types.uint8[::1]), cache=True, nogil=True)
def packed_residues(distance):
    """Each entry's value modulo 3, four entries a byte (entry i in bits 2(i % 4))."""
    packed = np.zeros((len(distance) + 3) // 4, np.uint8)
    for entry in range(len(distance)):
        packed[entry >> 2] |= np.uint8((distance[entry] % 3) << ((entry & 3) << 1))
    return packed


@njit(cache=True, nogil=True, inline="always")
def _residue(packed, entry):
    return (np.int64(packed[entry >> 2]) >> ((entry & 3) << 1)) & 3


@njit(cache=True, nogil=True, inline="always")
def _next_distance(distance, residue):
    """The fewest turns of a neighbour of a position ``distance`` away, from its residue."""
    step = residue - distance % 3
    if step < 0:
        step += 3
    return distance + 1 if step == 1 else (distance - 1 if step == 2 else distance)


@njit(types.int64(types.int64, types.int64, types.int64, types.uint8[::1], types.uint32[::1],
                  _U16), cache=True, nogil=True)
def phase1_distance(twist, flip, slice_, packed, class_symmetry, twist_conjugate):
    """The fewest turns into H from coordinates, from the residues alone: down a turn at a
    time to a neighbour whose residue is one less (a neighbour is one nearer, as far or
    one farther, three residues apart), counting the turns until H.  -1 where the table
    leads nowhere (a damaged table)."""
    turns = 0
    residue = _residue(packed, _entry(twist, flip, slice_, class_symmetry, twist_conjugate))
    while not (twist == 0 and flip == 0 and slice_ == SLICE_SOLVED):
        if turns > 40:
            return -1
        wanted = (residue + 2) % 3
        for move in range(18):
            next_twist = np.int64(TWIST_MOVES[twist, move])
            next_flip = np.int64(FLIP_MOVES[flip, move])
            next_slice = np.int64(SLICE_MOVES[slice_, move])
            found = _residue(packed, _entry(next_twist, next_flip, next_slice, class_symmetry,
                                            twist_conjugate))
            if found == wanted:
                twist, flip, slice_, residue = next_twist, next_flip, next_slice, found
                turns += 1
                break
        else:
            return -1
    return turns


@njit(cache=True, nogil=True, inline="always")
def _redundant(previous, move):
    """The same face again, or the first face of an opposite pair (U R F) after the second
    (D L B), with which it commutes (``rules.redundant_pairs``)."""
    if previous < 0:
        return False
    before, after = previous // 3, move // 3
    return before == after or before == after + 3


def _piece_moves() -> tuple[np.ndarray, ...]:
    """(corner goes, corner gains, edge goes, edge gains, corners moved, edges moved), a
    row per move: where the piece in a place goes, the orientation it gains, and the four
    places of each kind the move turns."""
    tables = []
    for taken, gained in ((CORNER_TAKEN, CORNER_GAINED), (EDGE_TAKEN, EDGE_GAINED)):
        goes, gains = np.zeros_like(taken), np.zeros_like(gained)
        for move in range(18):
            goes[move, taken[move]] = np.arange(taken.shape[1])
            gains[move, taken[move]] = gained[move]
        tables += [goes, gains]
    for goes in (tables[0], tables[2]):
        tables.append(np.array([np.flatnonzero(row != np.arange(len(row))) for row in goes],
                               np.int64))
    return tuple(tables)


(CORNER_GOES, CORNER_GAINS, EDGE_GOES, EDGE_GAINS, CORNERS_MOVED,
 EDGES_MOVED) = _piece_moves()


@njit(cache=True, nogil=True)
def _found(shared, path, length, path_found, mine):
    """The first thread to find a path writes it; True."""
    if take_next(shared, FINDS) == 0:
        for step in range(length):
            path_found[step] = path[step]
        mine[FOUND_LENGTH] = length
    return True


@njit(cache=True, nogil=True)
def _solved(pieces, level):
    """Whether row ``level`` of ``pieces`` (each corner's place, each edge's, each corner's
    twist, each edge's flip) is the solved cube."""
    for piece in range(20):
        if pieces[level, piece] != piece - (8 if piece >= 8 else 0) or pieces[level, 20 + piece]:
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _inverse_bound(twist, flip, slice_, entry, packed, twist_slice, flip_slice, flip_twist):
    """A lower bound on the fewest turns into H of an inverse image from its coordinates
    and its entry: the two-phase tables' bound raised to the table's residue (the fewest
    turns are the least at least that bound with that residue).  The inverse of a child
    is no neighbour of its parent's inverse (their fewest turns can differ by more than
    one), so its residue alone says nothing."""
    least = max(np.int64(twist_slice[twist * 495 + slice_]),
                np.int64(flip_slice[flip * 495 + slice_]),
                np.int64(flip_twist[flip * TWISTS + twist]))
    step = _residue(packed, entry) - least % 3
    return least + (step + 3 if step < 0 else step)


@njit(cache=True, nogil=True)
def _set_row(level, pieces, places, inverses, inverse_terms):
    """Row ``level``'s piece in each place (``places``) and each inverse image's twist,
    flip and slice places (``inverses``) from its pieces."""
    for piece in range(8):
        places[level, pieces[level, piece]] = piece
    for piece in range(12):
        places[level, 8 + pieces[level, 8 + piece]] = piece
    for axis in range(AXES):
        twist = np.int64(0)
        flip = np.int64(0)
        for piece in range(8):
            twist += inverse_terms[axis, piece, pieces[level, piece], pieces[level, 20 + piece]]
        for piece in range(12):
            flip += inverse_terms[axis, 8 + piece, pieces[level, 8 + piece],
                                  pieces[level, 28 + piece]]
        inverses[level, axis, 0] = twist
        inverses[level, axis, 1] = flip & 2047
        inverses[level, axis, 2] = flip >> 11


@njit(cache=True, nogil=True, inline="always")
def _take_child(level, move, children, twists, flips, slices, distances):
    """The next level's coordinates on every axis: those the children's pass made for
    ``move`` at ``level``."""
    for axis in range(AXES):
        twists[level + 1, axis] = children[level, move, axis, 0]
        flips[level + 1, axis] = children[level, move, axis, 1]
        slices[level + 1, axis] = children[level, move, axis, 2]
        distances[level + 1, axis] = children[level, move, axis, 3]


@njit(cache=True, nogil=True)
def _turn_row(level, move, pieces, places):
    """Row ``level + 1``'s pieces and places after ``move`` from row ``level``."""
    for piece in range(40):
        pieces[level + 1, piece] = pieces[level, piece]
    for place in range(20):
        places[level + 1, place] = places[level, place]
    for number in range(4):
        place = CORNERS_MOVED[move, number]
        piece = places[level, place]
        goes = CORNER_GOES[move, place]
        twist = pieces[level, 20 + piece] + CORNER_GAINS[move, place]
        pieces[level + 1, piece] = goes
        pieces[level + 1, 20 + piece] = twist - 3 if twist >= 3 else twist
        places[level + 1, goes] = piece
        place = EDGES_MOVED[move, number]
        piece = places[level, 8 + place]
        goes = EDGE_GOES[move, place]
        pieces[level + 1, 8 + piece] = goes
        pieces[level + 1, 28 + piece] = pieces[level, 28 + piece] ^ EDGE_GAINS[move, place]
        places[level + 1, 8 + goes] = piece


@njit(cache=True, nogil=True)
def _children(level, bound, path, twists, flips, slices, distances, pieces, places,
              inverses, children, kept, packed, class_symmetry, twist_conjugate, axis_moves,
              inverse, inverse_terms, slice_ranks, twist_slice, flip_slice, flip_twist):
    """Every move from row ``level`` that the bound keeps within ``bound``, in
    ``kept[level]`` (their count first), with its coordinates in ``children[level]``
    (per move and axis: twist, flip, slice, fewest turns into H, then the inverse image's
    twist, flip, slice places); (the moves made, the least cost past the bound).  A move
    is first bounded by the three axes, then, where ``inverse``, by the inverse's three
    images; all the moves' table entries are asked for before any is read, so that their
    cache misses overlap."""
    togo = bound - level - 1
    previous = path[level - 1] if level else -1
    made = 0
    for move in range(18):
        if _redundant(previous, move):
            continue
        made += 1
        for axis in range(AXES):
            turned = axis_moves[axis, move]
            flip = np.int64(FLIP_MOVES[flips[level, axis], turned])
            slice_ = np.int64(SLICE_MOVES[slices[level, axis], turned])
            children[level, move, axis, 0] = np.int64(TWIST_MOVES[twists[level, axis], turned])
            children[level, move, axis, 1] = flip
            children[level, move, axis, 2] = slice_
            prefetch(class_symmetry, slice_ * 2048 + flip)
    for move in range(18):
        if _redundant(previous, move):
            continue
        for axis in range(AXES):
            entry = _entry(children[level, move, axis, 0], children[level, move, axis, 1],
                           children[level, move, axis, 2], class_symmetry, twist_conjugate)
            children[level, move, axis, 3] = entry
            prefetch(packed, entry >> 2)
    least_past = np.int64(UNBOUNDED)
    count = 0
    for move in range(18):
        if _redundant(previous, move):
            continue
        largest = 0
        equal = True
        cut = False
        for axis in range(AXES):
            distance = _next_distance(distances[level, axis],
                                      _residue(packed, children[level, move, axis, 3]))
            if distance > togo:
                least_past = min(least_past, level + 1 + distance)
                cut = True
                break
            children[level, move, axis, 3] = distance
            if axis and distance != largest:
                equal = False
            largest = max(largest, distance)
        if cut:
            continue
        if equal and largest and largest + 1 > togo:
            least_past = min(least_past, level + 2 + largest)
            continue
        count += 1
        kept[level, count] = move
    kept[level, 0] = count
    if not inverse or togo == 0 or togo >= MOST_TURNS:
        return made, least_past  # a leaf is tested as it is; nothing is that far from H
    # the inverse images' coordinates, changed only by the eight pieces the move turns
    for number in range(1, count + 1):
        move = kept[level, number]
        for axis in range(AXES):
            children[level, move, axis, 4] = inverses[level, axis, 0]
            children[level, move, axis, 5] = inverses[level, axis, 1]
            children[level, move, axis, 6] = inverses[level, axis, 2]
        for turn in range(4):
            place = CORNERS_MOVED[move, turn]
            piece = places[level, place]
            before = pieces[level, 20 + piece]
            goes = CORNER_GOES[move, place]
            after = before + CORNER_GAINS[move, place]
            after = after - 3 if after >= 3 else after
            for axis in range(AXES):
                children[level, move, axis, 4] += (inverse_terms[axis, piece, goes, after]
                                                   - inverse_terms[axis, piece, place, before])
            place = EDGES_MOVED[move, turn]
            piece = places[level, 8 + place]
            before = pieces[level, 28 + piece]
            goes = EDGE_GOES[move, place]
            after = before ^ EDGE_GAINS[move, place]
            for axis in range(AXES):
                was = inverse_terms[axis, 8 + piece, place, before]
                term = inverse_terms[axis, 8 + piece, goes, after]
                children[level, move, axis, 5] += (term & 2047) - (was & 2047)
                children[level, move, axis, 6] += (term >> 11) - (was >> 11)
        for axis in range(AXES):
            twist = children[level, move, axis, 4]
            flip = children[level, move, axis, 5]
            slice_ = slice_ranks[children[level, move, axis, 6]]
            prefetch(class_symmetry, slice_ * 2048 + flip)
            prefetch(twist_slice, twist * 495 + slice_)
            prefetch(flip_slice, flip * 495 + slice_)
            prefetch(flip_twist, flip * TWISTS + twist)
    for number in range(1, count + 1):
        move = kept[level, number]
        for axis in range(AXES):
            entry = _entry(children[level, move, axis, 4], children[level, move, axis, 5],
                           slice_ranks[children[level, move, axis, 6]], class_symmetry,
                           twist_conjugate)
            children[level, move, axis, 7] = entry
            prefetch(packed, entry >> 2)
    left = 0
    for number in range(1, count + 1):
        move = kept[level, number]
        cut = False
        for axis in range(AXES):
            distance = _inverse_bound(children[level, move, axis, 4],
                                      children[level, move, axis, 5],
                                      slice_ranks[children[level, move, axis, 6]],
                                      children[level, move, axis, 7], packed, twist_slice,
                                      flip_slice, flip_twist)
            if distance > togo:
                least_past = min(least_past, level + 1 + distance)
                cut = True
                break
        if not cut:
            left += 1
            kept[level, left] = move
    count = left
    kept[level, 0] = count
    return made, least_past


@njit(types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64[:, ::1],
                  types.int64[::1], types.uint8[::1], types.uint32[::1], _U16,
                  types.int64[:, ::1], types.int64[:, :, :, ::1], types.int64[::1],
                  types.uint8[::1], types.uint8[::1], types.uint8[::1], types.int64,
                  types.int64[::1], types.int64[::1], types.int64[::1], types.int64,
                  types.uint8[::1], types.uint8[::1]),
      cache=True, nogil=True)
def search(cube, start_pieces, bound, prefixes, shared, packed, class_symmetry,
           twist_conjugate, axis_moves, inverse_terms, slice_ranks, twist_slice, flip_slice,
           flip_twist, inverse, mine, path_found, seen, thread, stop, deadline):
    """One IDA* pass to ``bound`` turns from ``cube`` (per axis: twist, flip, slice, fewest
    turns into H; ``start_pieces``: each corner's place, each edge's, each corner's twist,
    each edge's flip), shared out by prefix: each of ``prefixes`` (rows of turns, -1
    padded, none longer than ``bound``) is taken by the next thread free
    (``shared[NEXT_PREFIX]``) and every path beginning with it searched.  Where
    ``inverse``, a move the three axes keep is also bounded by the inverse's three images
    (``inverse_terms[axis, piece, place, orientation]``: what a piece adds to the inverse
    image's twist, or its flip bit plus its slice place bit << 11).  This thread's counts
    go to ``mine`` and, as they grow, to ``seen[thread]``; the first path found to
    ``path_found`` (and stops every thread).  The status: FOUND, EXHAUSTED, STOPPED
    (``stop`` or ``deadline`` raised, or another thread found a path) or OVER_BUDGET (the
    threads' nodes together reached ``shared[BUDGET]``)."""
    twists = np.empty((LONGEST + 1, AXES), np.int64)
    flips = np.empty((LONGEST + 1, AXES), np.int64)
    slices = np.empty((LONGEST + 1, AXES), np.int64)
    distances = np.empty((LONGEST + 1, AXES), np.int64)
    pieces = np.empty((LONGEST + 1, 40), np.int64)
    places = np.empty((LONGEST + 1, 20), np.int64)
    inverses = np.empty((LONGEST + 1, AXES, 3), np.int64)
    children = np.empty((LONGEST + 1, 18, AXES, 8), np.int64)
    kept = np.empty((LONGEST + 1, 19), np.int64)
    taken = np.empty(LONGEST + 1, np.int64)
    path = np.full(LONGEST + 1, -1, np.int64)
    least_past = np.int64(UNBOUNDED)
    nodes = np.int64(0)
    polled = np.int64(0)
    status = EXHAUSTED
    while status == EXHAUSTED:
        item = take_next(shared, NEXT_PREFIX)
        if item >= len(prefixes) or shared[FINDS]:
            break
        for axis in range(AXES):
            twists[0, axis] = cube[4 * axis]
            flips[0, axis] = cube[4 * axis + 1]
            slices[0, axis] = cube[4 * axis + 2]
            distances[0, axis] = cube[4 * axis + 3]
        pieces[0] = start_pieces
        _set_row(0, pieces, places, inverses, inverse_terms)
        level = 0
        # the prefix's moves, each bounded as any other
        alive = True
        for move in prefixes[item]:
            if move < 0:
                break
            made, past = _children(level, bound, path, twists, flips, slices, distances,
                                   pieces, places, inverses, children, kept, packed,
                                   class_symmetry, twist_conjugate, axis_moves, inverse,
                                   inverse_terms, slice_ranks, twist_slice, flip_slice, flip_twist)
            least_past = min(least_past, past)
            # a node's children counted once a pass: by the first of the (ordered)
            # prefixes through the node
            first = item == 0
            for step in range(level):
                first = first or prefixes[item, step] != prefixes[item - 1, step]
            if first:
                nodes += made
            alive = False
            for number in range(1, kept[level, 0] + 1):
                alive = alive or kept[level, number] == move
            if not alive:
                break
            _take_child(level, move, children, twists, flips, slices, distances)
            _turn_row(level, move, pieces, places)
            _set_row(level + 1, pieces, places, inverses, inverse_terms)
            path[level] = move
            level += 1
        if not alive:
            continue
        if level == bound:
            if _solved(pieces, level) and _found(shared, path, level, path_found, mine):
                status = FOUND
            continue
        base = level
        made, past = _children(level, bound, path, twists, flips, slices, distances, pieces,
                               places, inverses, children, kept, packed, class_symmetry,
                               twist_conjugate, axis_moves, inverse, inverse_terms,
                               slice_ranks, twist_slice, flip_slice, flip_twist)
        nodes += made
        least_past = min(least_past, past)
        taken[level] = 0
        while level >= base:
            if nodes - polled >= POLL:
                seen[thread] += nodes - polled
                polled = nodes
                if stop[0] or deadline[0] or shared[FINDS]:
                    status = STOPPED
                    break
                if seen.sum() >= shared[BUDGET]:
                    status = OVER_BUDGET
                    break
            if taken[level] == kept[level, 0]:
                level -= 1
                continue
            taken[level] += 1
            move = kept[level, taken[level]]
            _take_child(level, move, children, twists, flips, slices, distances)
            _turn_row(level, move, pieces, places)
            if inverse and bound - level - 1 >= MOST_TURNS:  # not bounded, not made
                _set_row(level + 1, pieces, places, inverses, inverse_terms)
            elif inverse:
                for axis in range(AXES):
                    inverses[level + 1, axis, 0] = children[level, move, axis, 4]
                    inverses[level + 1, axis, 1] = children[level, move, axis, 5]
                    inverses[level + 1, axis, 2] = children[level, move, axis, 6]
            path[level] = move
            if level + 1 == bound:
                if _solved(pieces, level + 1) and _found(shared, path, level + 1, path_found,
                                                         mine):
                    status = FOUND
                    break
                continue
            level += 1
            made, past = _children(level, bound, path, twists, flips, slices, distances,
                                   pieces, places, inverses, children, kept, packed,
                                   class_symmetry, twist_conjugate, axis_moves, inverse,
                                   inverse_terms, slice_ranks, twist_slice, flip_slice, flip_twist)
            nodes += made
            least_past = min(least_past, past)
            taken[level] = 0
    seen[thread] += nodes - polled
    mine[NODES] += nodes
    mine[LEAST_PAST] = min(mine[LEAST_PAST], least_past)
    return status
