"""The 3×3×3 cube by H. Kociemba's two-phase method: a path of at most 20 or so turns at
once, not shortest in general (the exact search, IDA* on pattern databases, is
``tables.py``'s; the walk combines the two within a caller's limit).

Phase 1 takes the cube into the subgroup H = <U, D, R2, L2, F2, B2> (every piece
oriented, the four UD-slice edges in their slice); phase 2 solves it within H.  Each phase
is searched depth-first under the bound of two pruning tables (the kernels and the
coordinates: ``twophase_search.py``): phase-1 paths of each length in turn, and after
each the shortest phase 2 that makes the whole path shorter than the best found so far,
until a path of ``ENOUGH`` turns or fewer is found or the time is up.  As in Kociemba's
solver, the search runs on six images of the cube at once, a phase-1 depth at a time: the
cube, its two images after a third of a turn of the whole cube about its URF-DBL
diagonal (``rules.spun``), and the inverses of the three.

The pruning tables are one table of four breadth-first arrays (``rubik/twophase``), built
by ``make tables`` (or ``builder build rubik twophase``); where it is not stored, the
engine computes it in memory at first use, as cheaply.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from math import comb

from builder.contract.puzzle import Table
from builder.contract.specs import BreadthFirstSearch
from puzzles.rubik.rules import (
    FACES,
    SOLVED,
    SPIN,
    inverse,
    relabelled,
    spun,
    turned,
)

TABLE = ("rubik", "twophase", "pruning")
ARRAYS = {
    "twist_slice": ("phase 1: the corners' twists and the slice edges' places", 2187 * 495,
                    494, 18),
    "flip_slice": ("phase 1: the edges' flips and the slice edges' places", 2048 * 495,
                   494, 18),
    "corners_order": ("phase 2: the corners' places and the slice edges' order", 40320 * 24,
                      0, 10),
    "edges_order": ("phase 2: the U and D edges' places and the slice edges' order",
                    40320 * 24, 0, 10),
}
"""Each pruning array: what it bounds, its states, the solved state's, its moves."""
ENOUGH = 20
"""The length at which the search stops looking for a shorter path."""
PHASE2_MOST = 10
"""The longest phase 2 searched (a longer one is left for another phase-1 path)."""
BUILD = "twophase"
"""What follows `builder build rubik` to store the table."""


def pruning_table() -> Table:
    """The two-phase search's pruning tables: the fewest turns that bring a pair of
    coordinates to the solved cube's, phase 1 in the 18 turns, phase 2 in the ten of H."""
    from puzzles.rubik import twophase_search as kernels  # numba: where the table is made

    kernel = {"twist_slice": kernels.twist_slice_moves, "flip_slice": kernels.flip_slice_moves,
              "corners_order": kernels.corners_order_moves,
              "edges_order": kernels.edges_order_moves}
    return Table(
        "rubik", "twophase/pruning", {"method": "two-phase"},
        searched={name: BreadthFirstSearch(states, (solved,), kernel[name], moves)
                  for name, (_, states, solved, moves) in ARRAYS.items()},
        distances={name: ("two-phase", what) for name, (what, *_) in ARRAYS.items()},
        about="twist_slice[twist * 495 + slice], flip_slice[flip * 495 + slice]: "
              "fewest half-turn-metric turns to twist 0 and flip 0 with the slice edges "
              "in their slice; corners_order[corners * 24 + order], edges_order[edges * "
              "24 + order]: fewest turns of U, D, R2, L2, F2, B2 to the corners' and the "
              "U and D edges' places with the slice edges in order.  twist: the twists "
              "of places URF UFL ULB UBR DFR DLF DBL in base 3 (URF lowest); flip: the "
              "flips of places UR UF UL UB DR DF DL DB FR FL BL as bits (UR lowest); "
              "slice: the colex rank of the four places (UR .. BR numbered 0 .. 11) "
              "holding FR FL BL BR; corners, edges, order: the Lehmer codes of the "
              "corner in each place, of the edge in each of UR .. DB, and of the slice "
              "edge in each of FR FL BL BR")


@dataclass(frozen=True)
class Solved:
    """A two-phase path: its turns (half-turn-metric labels), the nodes searched, and
    whether it is as short as the caller asked (False: the time or the nodes ran out
    first)."""

    labels: tuple[str, ...]
    nodes: int
    enough: bool


def _image(position, turns: int, inverted: bool):
    """One of the six images the search runs on."""
    image = inverse(position) if inverted else position
    for _ in range(turns):
        image = spun(image)
    return image


def _labels_for(moves: list[int], turns: int, inverted: bool) -> tuple[str, ...]:
    """The path of an image's turns as turns of the cube itself."""
    back = {after: before for before, after in SPIN.items()}
    labels = []
    for move in moves:
        face, way = FACES[move // 3], move % 3
        for _ in range(turns):
            face = back[face]
        labels.append((face, way))
    if inverted:  # the inverse's path undone, last turn first
        labels = [(face, 2 - way) for face, way in reversed(labels)]
    return tuple(face + ("", "2", "'")[way] for face, way in labels)


def _coordinates(position):
    """The search's view of a cube: twist, flip, slice, the corner in each place, the edge
    in each place."""
    import numpy as np

    corners, twists, edges, flips = position
    twist = sum(twist * 3 ** place for place, twist in enumerate(twists[:7]))
    flip = sum(flip << place for place, flip in enumerate(flips[:11]))
    places = [place for place, edge in enumerate(edges) if edge >= 8]
    slice_rank = sum(comb(place, k + 1) for k, place in enumerate(places))
    return np.array([twist, flip, slice_rank, *corners, *edges], np.int64)


_KEPT: dict[tuple, dict] = {}
_KEPT_LOCK = threading.Lock()


def arrays(tables) -> dict:
    """The pruning arrays (writable, contiguous bytes, as the kernel takes them): the
    stored table's, read once while it is unchanged, else computed now (and kept by the
    engine)."""
    import numpy as np

    if TABLE[-1] not in tables.stored(TABLE[:-1]):
        computed = tables.computed(pruning_table())
        return {name: np.require(computed[name], np.uint8, ["C", "W"]) for name in ARRAYS}
    attributes = tables.require(TABLE, dict(pruning_table().options))
    key = (tables.describe(TABLE), str(attributes.get("build_id", "")))
    with _KEPT_LOCK:
        found = _KEPT.get(key)
    if found is None:
        found = {name: _whole(tables, name) for name in ARRAYS}
        with _KEPT_LOCK:
            _KEPT.clear()  # one data directory's at a time
            _KEPT[key] = found
    return found


def _whole(tables, name: str):
    import numpy as np

    from builder.contract.errors import CorruptTableError

    values = tables.vector(TABLE, name).whole()
    states, solved = ARRAYS[name][1], ARRAYS[name][2]
    if (values is None or values.ndim != 1 or values.dtype != np.uint8
            or len(values) != states or values[solved] != 0):
        raise CorruptTableError(f"table {tables.describe(TABLE)}: {name} is not the "
                                f"{states:,} distances its spec makes: rebuild it "
                                f"(`builder build rubik {BUILD} --force`)")
    return np.require(values, np.uint8, ["C", "W"])


def solve(tables, position, target=SOLVED, *, enough: int = ENOUGH,
          seconds: float = float("inf"), nodes: int = 1 << 62, stop=None) -> Solved | None:
    """A path from ``position`` to ``target`` by the two-phase search: the first of
    ``enough`` turns or fewer, else the shortest found when ``seconds`` have passed
    (never before one is found) or ``nodes`` are searched (None: none was found by
    then).  ``stop``: a server's stop flag (a one-byte numpy array), which ends the search
    at once."""
    import numpy as np

    from puzzles.rubik import twophase_search as kernels

    found = arrays(tables)
    cube = relabelled(position, target)
    images, seen = [], set()
    for inverted in (False, True):
        for turns in range(3):
            start = _coordinates(_image(cube, turns, inverted))
            if tuple(start.tolist()) not in seen:  # a symmetric cube's images repeat
                seen.add(tuple(start.tolist()))
                images.append((turns, inverted, start))
    twist_slice, flip_slice = found["twist_slice"], found["flip_slice"]
    nearest = [max(int(twist_slice[start[0] * 495 + start[2]]),
                   int(flip_slice[start[1] * 495 + start[2]])) for _, _, start in images]
    state = np.array([kernels.LONGEST, enough, nodes, 0], np.int64)
    best = np.zeros(kernels.LONGEST, np.int64)
    deadline = np.zeros(1, np.uint8)
    stop = np.zeros(1, np.uint8) if stop is None else stop
    timer = None
    if seconds != float("inf"):
        timer = threading.Timer(seconds, deadline.fill, (1,))
        timer.daemon = True
        timer.start()
    kept: list[tuple[str, ...]] = []

    def searched() -> int:
        """Each phase-1 depth on every image in turn, the best path kept in ``kept``."""
        for depth in range(min(nearest), kernels.LONGEST):
            for (turns, inverted, start), least in zip(images, nearest):
                if depth >= state[kernels.BEST]:
                    return kernels.EXHAUSTED
                if depth < least:
                    continue
                shortest = state[kernels.BEST]
                status = kernels.search(start, depth, PHASE2_MOST, twist_slice, flip_slice,
                                        found["corners_order"], found["edges_order"], state,
                                        best, stop, deadline)
                if state[kernels.BEST] < shortest:
                    kept[:] = [_labels_for(best[:state[kernels.BEST]].tolist(), turns,
                                           inverted)]
                if status != kernels.EXHAUSTED:
                    return status
                if deadline[0] and kept:
                    return kernels.STOPPED
        return kernels.EXHAUSTED

    try:
        searched()
    finally:
        if timer is not None:
            timer.cancel()
    if stop[0] or not kept:
        return None
    labels = kept[0]
    path = position
    for label in labels:
        path = turned(path, label[0], {"": 1, "2": 2, "'": 3}[label[1:]])
    if path != target:
        from builder.contract.errors import CorruptTableError

        raise CorruptTableError(f"table {tables.describe(TABLE)}: the two-phase path it "
                                "guided does not end on the target: rebuild it "
                                f"(`builder build rubik {BUILD} --force`)")
    return Solved(labels, int(state[kernels.NODES_MADE]), len(labels) <= enough)


SECONDS = 1.0
"""The longest the two-phase search looks for a path of ``ENOUGH`` turns as a walk's
approximate path (half of what is left of a caller's limit, where that is less)."""
HOW = "Kociemba's two-phase search"


def approximate(tables, metric: str, position, target):
    """The two-phase path as the walk takes it (``Walking.approximate_path``): in the
    quarter-turn metric each half turn made as two quarter turns.  A server's stop
    raises its reason; None where the tables guided the search to no path."""
    from builder.contract.base import FoundPath
    from builder.contract.work import current_budget, stop_signal

    _, seconds_left = current_budget().left()
    stop = stop_signal()
    solved = solve(tables, position, target, seconds=min(SECONDS, seconds_left / 2),
                   stop=stop.flag)
    if solved is None:
        stop.check()  # a server's stop: its own reason
        return None
    labels: list[str] = []
    for label in solved.labels:
        labels += [label[0]] * 2 if metric == "quarter" and label.endswith("2") else [label]
    nodes = [position]
    for label in labels:
        nodes.append(turned(nodes[-1], label[0], {"": 1, "2": 2, "'": 3}[label[1:]]))
    return FoundPath(tuple(nodes), tuple(labels), how=HOW, optimal=False,
                     details={"two_phase": {"nodes": solved.nodes}})
