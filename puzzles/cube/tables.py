"""The 2×2×2 cube's pattern databases and the exact search on them, as data for the engine
(``builder.contract.patterns``).

A pattern sees a few corners, their places and twists, the others unseen.  The turns move
the corners it sees whatever the others do, so its abstract states are a smaller puzzle of
their own: its table is a breadth-first search over them (``search.corner_neighbours``),
each turn costing one, in the metric of the full table, and its value at a position is the
fewest turns that bring those corners home, never more than the position's own.  The
default patterns are the four corners of each turned face (U, R and F); as every turn
moves corners of all three, their values do not add: the search takes the largest.

The full tables (``cube/half``, ``cube/quarter``) answer every position; the patterns let
IDA* answer where they are not stored, and `builder verify` check the estimates against
them where they are.
"""

from __future__ import annotations

from math import perm

from builder.contract.patterns import PatternSearch, PatternTable
from builder.contract.puzzle import Table
from builder.contract.specs import BreadthFirstSearch
from puzzles.cube.rules import (
    FIXED,
    METRICS,
    MOVABLE,
    PLACES,
    SOLVED,
    CubeError,
    pattern_rank,
    turn_names,
)

PATTERNS = {"U": ("URF", "UFL", "ULB", "UBR"), "R": ("URF", "UBR", "DFR", "DRB"),
            "F": ("URF", "UFL", "DFR", "DLF")}
"""The default patterns, by face: the corners of each face the moves turn."""
MOST_PATTERN_CORNERS = 6
"""The most corners a pattern sees (7 would be the full table, over three times larger:
the last corner's twist follows from the others')."""
PATTERNS_FOLDER = "patterns"


def corners_named(text: str) -> tuple[str, ...]:
    """A pattern's corners from ``URF-UFL-DFR`` (any case): distinct corners the turns
    move, at most ``MOST_PATTERN_CORNERS``; a CubeError naming them otherwise."""
    corners = tuple(text.strip().upper().split("-"))
    movable = [PLACES[place] for place in MOVABLE]
    if not (0 < len(corners) <= MOST_PATTERN_CORNERS and len(set(corners)) == len(corners)
            and set(corners) <= set(movable)):
        raise CubeError(f"pattern {text[:40]!r}: 1 to {MOST_PATTERN_CORNERS} distinct "
                        f"corners of {', '.join(movable)} joined by '-' (not "
                        f"{PLACES[FIXED]}: it never moves)")
    return corners


def pattern_table(metric: str, corners: tuple[str, ...]) -> Table:
    """The pattern database of ``corners`` (names, as ``rules.PLACES``) in ``metric``."""
    if metric not in METRICS:
        raise CubeError(f"metric {metric[:20]!r}: choose half or quarter")
    from puzzles.cube.patterns import corner_neighbours

    corners = corners_named("-".join(corners))
    numbers = tuple(PLACES.index(corner) for corner in corners)
    tracked = len(corners)
    weights = [perm(len(MOVABLE) - 1 - number, tracked - 1 - number)
               for number in range(tracked)]
    shown = "-".join(corners)
    return Table(
        "cube", f"{PATTERNS_FOLDER}/{metric}/{shown}",
        {"variant": metric, "corners": list(corners)},
        searched={"estimate": BreadthFirstSearch(
            perm(len(MOVABLE), tracked) * 3 ** tracked, (pattern_rank(numbers, SOLVED),),
            corner_neighbours, 9,
            parameters=(int(metric == "quarter"), tracked, 3 ** tracked, *weights))},
        distances={"estimate": (f"{metric} pattern {','.join(corners)}", "to solved")},
        about=f"estimate[rank]: fewest {metric} turns that bring corners {shown} to their "
              "places untwisted, the other corners unseen; rank = the corners' places "
              "(numbered among the seven that move, D-B-L left out) as an arrangement in "
              f"lexicographic order, times 3^{tracked}, plus their twists as base-3 digits "
              "(the first corner's most significant)")


def pattern_set(metric: str) -> list[Table]:
    """The default pattern databases of a metric (``PATTERNS``)."""
    return [pattern_table(metric, corners) for corners in PATTERNS.values()]


def search_for(tables, metric: str, node, patterns: list[tuple[str, ...]] | None = None
               ) -> PatternSearch | None:
    """IDA* from position ``node`` to the solved cube on the default pattern databases of
    ``metric`` (or the ``patterns`` named), each a group of its own (the search takes the
    largest value); None where one of them is not stored."""
    from puzzles.cube.patterns import pattern_step

    chosen = [pattern_table(metric, corners) for corners in (patterns or PATTERNS.values())]
    stored = tables.stored(("cube", PATTERNS_FOLDER, metric))
    if not all(_shown(table) in stored for table in chosen):
        return None
    seen = [tuple(PLACES.index(corner) for corner in table.options["corners"])
            for table in chosen]
    most = max(len(corners) for corners in seen)
    parameters = [int(metric == "quarter"), len(seen), most,
                  *(len(corners) for corners in seen), *(3 ** len(corners) for corners in seen)]
    for corners in seen:
        parameters += [*corners, *[0] * (most - len(corners))]
    for corners in seen:
        parameters += [perm(len(MOVABLE) - 1 - number, len(corners) - 1 - number)
                       for number in range(len(corners))] + [0] * (most - len(corners))
    places, twists = node
    return PatternSearch(
        start=(*places, *twists, *(pattern_rank(corners, node) for corners in seen)),
        goal=(*SOLVED[0], *SOLVED[1]),
        patterns=tuple(PatternTable(table, "estimate", group, f"{metric}:patterns"
                                    if patterns is None else f"{metric}:{_shown(table)}")
                       for group, table in enumerate(chosen)),
        step=pattern_step, moves=len(turn_names(metric)),
        encode=lambda position: (*position[0], *position[1]),
        parameters=tuple(parameters), indices_at=16, redundant=_same_face(metric))


def _shown(table: Table) -> str:
    """A pattern table's corners as its name ends (``URF-UFL-DFR``)."""
    return table.name.split("/")[-1]


def _same_face(metric: str) -> tuple[tuple[int, ...], ...]:
    """Move pairs never searched in sequence: in half turns, two turns of one face (one
    turn, or none, does the same); in quarter turns, a turn and its undoing, and two
    quarter turns back (two forward make the same half turn)."""
    names = turn_names(metric)
    return tuple((first, second) for first, (_, face, times) in enumerate(names)
                 for second, (_, other, again) in enumerate(names)
                 if face == other and (metric == "half" or times != again or times == 3))
