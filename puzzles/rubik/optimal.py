"""The 3×3×3 cube solved optimally at depth: IDA* on a symmetry-reduced pruning table of
phase 1 of the two-phase method (every piece oriented, the slice edges in the slice),
looked up in three directions and on the inverse: M. Reid's method, as H. Kociemba's
optimal solver (``RubiksCube-OptimalSolver``) has it with this table.

The table (``rubik/optimal/phase1``, built by `builder build rubik optimal`, not by
`make tables`) holds for each of the 64,430 flip-slice classes under the 16 symmetries
that keep the U-D axis (``symmetry.py``) and each of the 2,187 twists the fewest turns
into H, modulo 3, four entries a byte: 140,908,410 entries, 35 MB.  The kernels
(``optimal_kernels.py``) fill it breadth-first and search on it; the search is the
engine's IDA* loop (``builder.contract.patterns.PatternSearch``: its limits, progress
and path) with this module's pass (``Passes``), shared by ``THREADS`` threads.  A
position's bound is the largest of the fewest turns into H of the cube and of its
images after a third of a turn about the URF-DBL diagonal (known exactly from the
parent's: a turn changes each by at most one), one more where the three are equal,
and the same three of the inverse (from the two-phase tables' bounds and the table's
residues).  Half-turn metric only: the quarter-turn metric keeps Korf's search.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from builder.contract.base import never_of, unreached
from builder.contract.puzzle import Table
from puzzles.rubik.rules import (
    FACES,
    corner_state_rank,
    edges_packed,
    pieces_view,
    relabelled,
    spun,
    turned,
)

TABLE = ("rubik", "optimal", "phase1")
ARRAY = "residues"
BUILD = "optimal"
"""What follows `builder build rubik` to store the table."""
CLASSES, TWISTS = 64430, 2187
ENTRIES = CLASSES * TWISTS
HOW = "IDA* on the phase-1 table in three directions and on the inverse"
THREADS = len(os.sched_getaffinity(0))
"""Threads a search shares each pass among: the CPUs this process may run on, unless
``RUBIK_THREADS`` in the environment says how many."""
PREFIX = 3
"""Turns of each work item a pass shares out among its threads (3,240 paths of three
turns: enough that the last ones taken end together)."""
BUILD_THREADS = THREADS


def phase1_table() -> Table:
    """The table of the fewest turns into H, modulo 3 (no distances: the catalog counts
    none of it)."""
    return Table(
        "rubik", "optimal/phase1", {"method": "optimal"}, make=_build,
        about="residues[entry // 4] >> 2 * (entry % 4) & 3: the fewest half-turn-metric "
                 "turns, modulo 3, that bring the corners' twists to 0, the edges' flips to "
                 "0 and the slice edges FR FL BL BR into the slice, from the position whose "
                 "flip and slice are those of class `entry // 2187`'s representative and "
                 "whose twist is `entry % 2187`.  A position's entry: its flip-slice "
                 "coordinate (slice * 2048 + flip, as twophase/pruning's: slice the colex "
                 "rank of the four places holding FR FL BL BR, flip the flips of places UR "
                 "to BL as bits) taken to its class's representative, the least coordinate "
                 "of its class, by a symmetry keeping the U-D axis, and its twist (the "
                 "twists of places URF to DLB in base 3) conjugated by that symmetry",
        described={"classes": CLASSES, "twists": TWISTS})


# ---- the coordinates' tables


@dataclass(frozen=True)
class Coordinates:
    """What the kernels read besides the table (``optimal_kernels.search``)."""

    class_symmetry: np.ndarray
    representative: np.ndarray
    stabiliser: np.ndarray
    twist_conjugate: np.ndarray
    axis_moves: np.ndarray
    inverse_terms: np.ndarray
    slice_ranks: np.ndarray


def _spin(power: int):
    from puzzles.rubik.symmetry import SPIN_MATRIX

    matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    for _ in range(power):
        matrix = tuple(tuple(sum(SPIN_MATRIX[row][k] * matrix[k][column] for k in range(3))
                             for column in range(3)) for row in range(3))
    return matrix


def _inverse_terms() -> np.ndarray:
    """``[axis, piece, place, orientation]``: what a piece at a place with an orientation
    adds to the inverse of image ``axis`` (the cube spun ``axis`` thirds): a corner, its
    term of the twist coordinate; an edge, its flip bit plus its slice bit << 11.  The
    image has piece A(x) at place A(p) with the orientation the symmetry gives; so its
    inverse has at place A(x) the piece A(p), a corner twisted back."""
    from puzzles.rubik.symmetry import corner_action, edge_action

    terms = np.zeros((3, 20, 12, 3), np.int64)
    for axis in range(3):
        corners, edges = corner_action(_spin(axis)), edge_action(_spin(axis))
        for piece in range(8):
            image = int(corners.goes[piece])
            for place in range(8):
                for twist in range(3):
                    back = -int(corners.orientation[place, piece, twist]) % 3
                    terms[axis, piece, place, twist] = back * 3 ** image if image < 7 else 0
        for piece in range(12):
            image = int(edges.goes[piece])
            for place in range(12):
                for flip in range(2):
                    term = (int(edges.orientation[place, piece, flip]) << image
                            if image < 11 else 0)
                    if edges.goes[place] >= 8:
                        term |= 1 << (image + 11)
                    terms[axis, 8 + piece, place, flip] = term
    return terms


@cache
def coordinates() -> Coordinates:
    """Made once a process."""
    from puzzles.rubik.symmetry import SPIN_MATRIX, flip_slice_classes, move_map, twist_conjugates

    classes = flip_slice_classes()
    spin = np.array(move_map(SPIN_MATRIX), np.int64)
    slice_ranks = np.full(1 << 12, -1, np.int64)
    for mask in range(1 << 12):
        places = [place for place in range(12) if mask >> place & 1]
        if len(places) == 4:
            slice_ranks[mask] = sum(comb(place, k + 1) for k, place in enumerate(places))
    return Coordinates(
        (classes.class_of.astype(np.uint32) << 4) | classes.symmetry,
        classes.representative, classes.stabiliser,
        np.ascontiguousarray(twist_conjugates()),
        np.ascontiguousarray(np.stack([np.arange(18), spin, spin[spin]])),
        _inverse_terms(), slice_ranks)


def solved_entry(found: Coordinates) -> int:
    from puzzles.rubik.twophase_search import SLICE_SOLVED

    code = SLICE_SOLVED * 2048
    return (int(found.class_symmetry[code] >> 4) * TWISTS
            + int(found.twist_conjugate[0, found.class_symmetry[code] & 15]))


# ---- the table's build


def distances(progress: bool = False, threads: int = BUILD_THREADS,
              deepest: int | None = None) -> np.ndarray:
    """The fewest turns into H of every entry, a byte each (the breadth-first search
    whose residues the table stores).  ``deepest``: the levels searched stop there, and
    every entry farther gets ``deepest + 1``, a bound, not its distance (a table as
    partial is a test's)."""
    from tqdm import tqdm

    from builder.contract.work import checkpoint
    from puzzles.rubik import optimal_kernels as kernels

    found = coordinates()
    distance = unreached(ENTRIES, kernels.MOST_TURNS)
    never = never_of(distance)
    distance[solved_entry(found)] = 0
    filled, depth = 1, 0
    edges = np.linspace(0, ENTRIES, threads + 1).astype(np.int64)
    with tqdm(total=ENTRIES, desc="rubik optimal table", unit=" entries", unit_scale=True,
              disable=not progress) as bar:
        bar.update(1)
        while filled < ENTRIES:
            checkpoint()
            if deepest is not None and depth == deepest:
                distance[distance == never] = depth + 1
                break
            frontier = int(np.count_nonzero(distance == depth))
            # forward from a small level, backward (each unseen entry looks for a
            # neighbour on the level) once the level is a good part of what is unseen
            backward = frontier * 6 > ENTRIES - filled
            written = [0] * threads

            def level(number: int, depth: int = depth, backward: bool = backward) -> None:
                written[number] = kernels.fill_level(
                    depth, distance, never, edges[number], edges[number + 1], int(backward),
                    found.class_symmetry, found.representative, found.stabiliser,
                    found.twist_conjugate)

            workers = [threading.Thread(target=level, args=(number,))
                       for number in range(threads)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
            made = int(np.count_nonzero(distance == depth + 1))
            if not made:
                raise RuntimeError(f"the optimal table's search stopped at depth {depth} "
                                   f"with {ENTRIES - filled:,} entries unseen")
            filled += made
            depth += 1
            bar.update(made)
            bar.set_postfix_str(f"depth {depth}")
    return distance


def _build(progress: bool = False) -> tuple[dict, dict]:
    from puzzles.rubik import optimal_kernels as kernels

    distance = distances(progress)
    found = coordinates()
    raw = kernels.raw_counts(distance, found.class_symmetry, found.twist_conjugate)
    return ({ARRAY: kernels.packed_residues(distance)},
            {"entries_by_depth": [int(count) for count in np.bincount(distance)],
             "coordinates_by_depth": [int(count) for count in np.trim_zeros(raw, "b")]})


# ---- the table as a search reads it


_KEPT: dict[tuple, np.ndarray] = {}
_KEPT_LOCK = threading.Lock()
_MADE: list[np.ndarray] = []
"""The table made in this process where none is stored (at its first use)."""


def stored(tables) -> bool:
    return TABLE[-1] in tables.stored(TABLE[:-1])


def residues(tables, make: bool = False) -> np.ndarray | None:
    """The table's residues: the stored table's, read once while it is unchanged and
    checked at sampled entries (``check_sampled``); else the one made earlier in this
    process; else, where ``make``, made now in memory (saying so on stderr, in one line
    naming `builder build rubik optimal`, which stores it); else None."""
    from builder.contract.errors import CorruptTableError

    if stored(tables):
        attributes = tables.require(TABLE, dict(phase1_table().options))
        key = (tables.describe(TABLE), str(attributes.get("build_id", "")))
        with _KEPT_LOCK:
            found = _KEPT.get(key)
        if found is None:
            values = tables.vector(TABLE, ARRAY).whole()
            rebuild = f"rebuild it (`builder build rubik {BUILD} --force`)"
            if (values is None or values.ndim != 1 or values.dtype != np.uint8
                    or len(values) != (ENTRIES + 3) // 4):
                raise CorruptTableError(f"table {tables.describe(TABLE)}: {ARRAY} is not the "
                                        f"{(ENTRIES + 3) // 4:,} bytes its spec makes: {rebuild}")
            found = np.require(values, np.uint8, ["C", "W"])
            wrong = check_sampled(found, SAMPLED_AT_LOAD, np.random.default_rng())
            if wrong:
                raise CorruptTableError(f"table {tables.describe(TABLE)}: {wrong}: {rebuild}")
            with _KEPT_LOCK:
                _KEPT.clear()  # one data directory's at a time
                _KEPT[key] = found
        return found
    with _KEPT_LOCK:
        if _MADE:
            return _MADE[0]
    if not make:
        return None
    from puzzles.rubik import optimal_kernels as kernels

    print(f"rubik: making the optimal search's table in memory (35 MB, seconds); "
          f"`builder build rubik {BUILD}` stores it for every later search",
          file=sys.stderr, flush=True)
    made = kernels.packed_residues(distances(sys.stderr.isatty()))
    with _KEPT_LOCK:
        _MADE[:] = [made]
    return made


SAMPLED_AT_LOAD = 64
"""Random entries whose recurrence and symmetry a search checks as it reads the table
(``check_sampled``; `builder verify` checks more)."""


@cache
def flip_twist() -> np.ndarray:
    """``optimal_kernels.flip_twist_distances``, made once a process."""
    from puzzles.rubik import optimal_kernels as kernels

    distance = unreached(2048 * TWISTS, kernels.MOST_TURNS)
    kernels.flip_twist_distances(distance, never_of(distance))
    return distance


def phase1_distance(packed: np.ndarray, position) -> int:
    """The fewest turns into H of a position (from its residues: ``phase1_distance``)."""
    from puzzles.rubik import optimal_kernels as kernels
    from puzzles.rubik.twophase import _coordinates

    found = coordinates()
    twist, flip, slice_ = (int(value) for value in _coordinates(position)[:3])
    return int(kernels.phase1_distance(twist, flip, slice_, packed, found.class_symmetry,
                                       found.twist_conjugate))


def check_sampled(packed: np.ndarray, samples: int, rng) -> str | None:
    """The table at ``samples`` random coordinates: the fewest turns read down the residues
    (``phase1_distance``) obey the recurrence (0 in H alone, else 1 + the least of the 18
    turns' values), and equal those of the position's 15 other images under D4h.  None, or
    what is wrong."""
    from puzzles.rubik import optimal_kernels as kernels
    from puzzles.rubik.symmetry import SYMMETRIES
    from puzzles.rubik.twophase_search import FLIP_MOVES, SLICE_MOVES, SLICE_SOLVED, TWIST_MOVES

    from puzzles.rubik.symmetry import D4H, conjugated_flip_slices

    found = coordinates()

    def read(twist: int, flip: int, slice_: int) -> int:
        return int(kernels.phase1_distance(twist, flip, slice_, packed, found.class_symmetry,
                                           found.twist_conjugate))

    for _ in range(samples):
        twist, flip, slice_ = (int(rng.integers(TWISTS)), int(rng.integers(2048)),
                               int(rng.integers(495)))
        value = read(twist, flip, slice_)
        if value < 0:
            return f"the residues lead nowhere from twist {twist}, flip {flip}, slice {slice_}"
        at_goal = twist == 0 and flip == 0 and slice_ == SLICE_SOLVED
        after = [read(int(TWIST_MOVES[twist, move]), int(FLIP_MOVES[flip, move]),
                      int(SLICE_MOVES[slice_, move])) for move in range(18)]
        if value != (0 if at_goal else 1 + min(after)):
            return (f"twist {twist}, flip {flip}, slice {slice_} reads {value} turns, its "
                    f"turns' least {min(after)}")
        for symmetry in range(1, SYMMETRIES):
            code = int(conjugated_flip_slices(D4H[symmetry], np.array([slice_ * 2048 + flip])
                                              )[0])
            image = read(int(found.twist_conjugate[twist, symmetry]), code & 2047, code >> 11)
            if image != value:
                return (f"twist {twist}, flip {flip}, slice {slice_} reads {value} turns, its "
                        f"image by symmetry {symmetry} {image}")
    return None


# ---- the search


def _cube(packed: np.ndarray, position) -> np.ndarray:
    """The search's view of a position: per axis (the cube, spun once, twice), its twist,
    flip, slice and fewest turns into H."""
    from puzzles.rubik import optimal_kernels as kernels
    from puzzles.rubik.twophase import _coordinates

    found = coordinates()
    row = []
    image = position
    for _ in range(3):
        twist, flip, slice_ = (int(value) for value in _coordinates(image)[:3])
        row += [twist, flip, slice_, int(kernels.phase1_distance(
            twist, flip, slice_, packed, found.class_symmetry, found.twist_conjugate))]
        image = spun(image)
    if min(row[3::4]) < 0:
        from builder.contract.errors import CorruptTableError

        raise CorruptTableError(f"table {'/'.join(TABLE)}: its residues lead nowhere from "
                                f"the start: rebuild it (`builder build rubik {BUILD} --force`)")
    return np.array(row, np.int64)


def _pieces(position) -> np.ndarray:
    """Each corner's place, each edge's, each corner's twist, each edge's flip."""
    view = pieces_view(position)
    return np.array([*view[0:8], *view[16:28], *view[8:16], *view[28:40]], np.int64)


def _prefixes(bound: int) -> np.ndarray:
    """Every path of ``min(PREFIX, bound)`` turns with no turn the search skips after
    the one before it, -1 padded to ``PREFIX``."""
    from puzzles.rubik.rules import redundant_pairs

    skipped = set(redundant_pairs("half"))
    rows: list[list[int]] = [[]]
    for _ in range(min(PREFIX, bound)):
        rows = [row + [move] for row in rows for move in range(18)
                if not (row and (row[-1], move) in skipped)]
    return np.array([row + [-1] * (PREFIX - len(row)) for row in rows],
                    np.int64).reshape(len(rows), PREFIX)


class Passes:
    """The engine's IDA* passes (``PatternSearch.passes``) on the table, from one
    position to solved, each shared by ``threads`` threads."""

    def __init__(self, packed: np.ndarray, two_phase: dict, node, position, encode,
                 threads: int = THREADS, inverse: bool = True):
        """``position``: ``node`` relabelled onto solved (``rules.relabelled``), which the
        kernels search; ``encode`` names each position of the path from ``node`` as the
        engine's rows do."""
        self.packed, self.node, self.position, self.encode = packed, node, position, encode
        self.twist_slice = two_phase["twist_slice"]
        self.flip_slice = two_phase["flip_slice"]
        self.cube = _cube(packed, position)
        self.pieces = _pieces(position)
        self.threads, self.inverse = threads, inverse

    def __call__(self, rows: np.ndarray, bound: int, nodes: int, stop: np.ndarray,
                 deadline: np.ndarray, counted: np.ndarray) -> tuple[int, int, int, int]:
        from puzzles.rubik import optimal_kernels as kernels

        found = coordinates()
        prefixes = _prefixes(bound)
        shared = np.array([0, 0, nodes], np.int64)
        mine = np.zeros((self.threads, 3), np.int64)
        mine[:, kernels.LEAST_PAST] = kernels.UNBOUNDED
        mine[:, kernels.FOUND_LENGTH] = -1
        path = np.full(kernels.LONGEST + 1, -1, np.int64)
        seen = counted if self.threads == 1 else np.zeros(self.threads, np.int64)
        statuses = [kernels.EXHAUSTED] * self.threads

        def work(number: int) -> None:
            statuses[number] = kernels.search(
                self.cube, self.pieces, bound, prefixes, shared, self.packed,
                found.class_symmetry, found.twist_conjugate, found.axis_moves,
                found.inverse_terms, found.slice_ranks, self.twist_slice, self.flip_slice,
                flip_twist(), int(self.inverse), mine[number], path, seen, number, stop,
                deadline)

        if self.threads == 1:
            work(0)
        else:
            workers = [threading.Thread(target=work, args=(number,), daemon=True)
                       for number in range(self.threads)]
            try:
                for worker in workers:
                    worker.start()
                for worker in workers:
                    while worker.is_alive():
                        worker.join(0.1)
                        counted[0] = seen.sum()
            except BaseException:
                deadline[0] = 1  # an interrupt: the threads end at their next look
                raise
        made = int(mine[:, kernels.NODES].sum())
        if kernels.FOUND in statuses:
            length = int(mine[:, kernels.FOUND_LENGTH].max())
            position = self.node
            for step in range(length):
                move = int(path[step])
                position = turned(position, FACES[move // 3], move % 3 + 1)
                rows[step + 1, :2] = self.encode(position)
            return kernels.FOUND, length, bound, made
        for status in (kernels.OVER_BUDGET, kernels.STOPPED):
            if status in statuses:
                return status, 0, bound, made
        return kernels.EXHAUSTED, 0, int(mine[:, kernels.LEAST_PAST].min()), made


def start_estimate(packed: np.ndarray, position, inverse: bool = True) -> int:
    """The largest of the cube's three images' fewest turns into H (the cube spun 0, 1,
    2 thirds), one more where the three are equal; where ``inverse``, at least the
    largest of its inverse's three."""
    from puzzles.rubik import rules

    cube = _cube(packed, position)[3::4]
    top = int(cube.max())
    forward = top + 1 if top and (cube == top).all() else top
    if not inverse:
        return forward
    return max(forward, int(_cube(packed, rules.inverse(position))[3::4].max()))


SHALLOW = 12
"""A position the two-phase search solves in this many turns or fewer within
``PROBE_NODES`` is left to Korf's search where the table is not stored (it answers at
once there): only a deeper one makes the table at first use."""
PROBE_NODES = 200_000
FIRST_USE_SECONDS = 60.0
"""The least time a caller's limit (or a server's) must leave for a search to make the
table at its first use; a limit of nodes never does."""


INVERSE = True
"""Whether a search bounds each position by its inverse's images too."""


def search_for(tables, node, target, threads: int | None = None,
               inverse: bool | None = None):
    """The optimal search from ``node`` to ``target`` in the half-turn metric
    (``PatternSearch``), or None where the table is not stored, not made in this process,
    and not worth making now (a shallow position, or a caller's time limit too short).
    ``threads``: as ``THREADS``; ``inverse``: as ``INVERSE``."""
    from builder.contract.patterns import PatternSearch
    from builder.contract.work import current_budget, work_seconds
    from puzzles.rubik import twophase
    from puzzles.rubik.rules import redundant_pairs

    packed = residues(tables)
    if packed is None:
        nodes, seconds = current_budget().left()
        if nodes != float("inf") or min(seconds, work_seconds(seconds)) < FIRST_USE_SECONDS:
            return None
        probe = twophase.solve(tables, node, target, enough=SHALLOW, nodes=PROBE_NODES)
        if probe is not None and probe.enough:
            return None
        packed = residues(tables, make=True)

    def encode(position) -> tuple[int, int]:
        renamed = relabelled(position, target)
        return corner_state_rank(renamed), edges_packed(renamed)

    start = relabelled(node, target)
    threads = threads or int(os.environ.get("RUBIK_THREADS", THREADS))
    passes = Passes(packed, twophase.arrays(tables), node, start, encode, threads,
                    INVERSE if inverse is None else inverse)
    return PatternSearch(
        start=encode(node), goal=encode(target), patterns=(), step="", moves=18,
        encode=encode, redundant=redundant_pairs("half"), how=HOW, passes=passes,
        estimate=start_estimate(packed, start, passes.inverse))
