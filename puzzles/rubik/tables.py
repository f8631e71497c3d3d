"""The 3×3×3 cube's pattern databases and the exact search on them, as data for the engine
(``builder.contract.patterns``).

A pattern tracks some corners and some edges (their places and orientations; the other
pieces are blank); its table is a breadth-first search over its abstract states (the
moves in ``search.py``): the fewest turns that bring its pieces home.  Korf's set is
the default: all eight corners (8! × 3^7 states) and two patterns of six edges (12!/6! ×
2^6 each).  Their values are each a lower bound on the turns left, and the search takes
the largest (every table its own group: they overlap, as every turn moves corners and
edges); the edge patterns are also looked up on the inverse position, which is as far
from solved.  A set of two seven-edge patterns is built on request.  A target other than the
solved cube is relabelled onto it (``rules.relabelled``).  The quarter-turn metric reads
its own tables where they are stored, else the half-turn metric's: a quarter turn is a
move of both, so those never exceed its distances either.
"""

from __future__ import annotations

from builder.contract.patterns import PatternSearch, PatternTable
from builder.contract.puzzle import Table
from builder.contract.specs import BreadthFirstSearch
from puzzles.rubik.rules import (
    ALL_CORNERS,
    CORNER_NAMES,
    EDGE_NAMES,
    GOAL_WORD,
    METRICS,
    SOLVED,
    RubikError,
    corner_named,
    corner_state_rank,
    edge_named,
    edges_by_place,
    edges_packed,
    inverse,
    pattern_rank,
    pattern_states,
    redundant_pairs,
    relabelled,
    turn_names,
)

SETS = {
    "6-6": ((tuple(range(8)), ()), ((), tuple(range(6))), ((), tuple(range(6, 12)))),
    "7-7": ((tuple(range(8)), ()), ((), tuple(range(7))), ((), tuple(range(5, 12)))),
}
"""Named sets of patterns, each a list of (tracked corners, tracked edges): the corners
and two edge patterns (Korf's six and six, or seven and seven, which overlap)."""
DEFAULT_SET = "6-6"
SEARCHED_SETS = ("7-7", "6-6")
"""The sets a search looks for, the stronger first."""
MOST_STATES = 1 << 30
"""The largest pattern built (a seven-edge pattern has 510,935,040 states)."""


def moves_kernel(corners: int, edges: int):
    """``search.py``'s moves with the counts fixed for a pattern of ``corners`` and
    ``edges`` tracked; any other pattern's are ``pattern_moves``."""
    from puzzles.rubik import search  # numba: imported where a pattern's table is made

    return {(8, 0): search.corner_moves, (0, 6): search.six_edge_moves,
            (0, 7): search.seven_edge_moves}.get((corners, edges), search.pattern_moves)


def step_kernel(counts: tuple[tuple[int, int, int], ...]):
    """``search.py``'s step with the counts fixed, by the (corners, edges, on the inverse)
    of a search's look-ups; else ``pattern_step``."""
    from puzzles.rubik import search  # numba: imported where a search is made

    return {((8, 0, 0), (0, 6, 0), (0, 6, 0), (0, 6, 1), (0, 6, 1)): search.six_edge_step,
            ((8, 0, 0), (0, 7, 0), (0, 7, 0), (0, 7, 1), (0, 7, 1)): search.seven_edge_step,
            }.get(counts, search.pattern_step)


def pattern_name(corners: tuple[int, ...], edges: tuple[int, ...]) -> str:
    """A pattern's table name: ``corners`` for all eight, else its pieces' names."""
    if corners == ALL_CORNERS and not edges:
        return "corners"
    return "-".join(name.lower() for name in [*(CORNER_NAMES[c] for c in corners),
                                              *(EDGE_NAMES[e] for e in edges)])


def pattern_table(metric: str, corners: tuple[int, ...], edges: tuple[int, ...]) -> Table:
    """The pattern database of ``corners`` and ``edges`` in ``metric``."""
    if metric not in METRICS:
        raise RubikError(f"metric {metric!r}: half or quarter")
    if not (corners or edges) or len(set(corners)) != len(corners) or len(set(edges)) != len(
            edges) or not all(0 <= c < 8 for c in corners) or not all(0 <= e < 12 for e in edges):
        raise RubikError("a pattern tracks distinct corners (0 to 7) and edges (0 to 11), "
                         "at least one piece")
    if sorted(corners) == list(ALL_CORNERS) and not edges:
        corners = ALL_CORNERS  # the corners' whole state, ranked by place
    states = pattern_states(len(corners), len(edges))
    if states > MOST_STATES:
        raise RubikError(f"a pattern of {len(corners)} corners and {len(edges)} edges has "
                         f"{states:,} states: at most {MOST_STATES:,}")
    name = pattern_name(corners, edges)
    pieces = " ".join([*(CORNER_NAMES[c] for c in corners), *(EDGE_NAMES[e] for e in edges)])
    shown = name if name == "corners" else name.replace("-", " ").upper()
    return Table(
        "rubik", f"patterns/{metric}/{name}",
        {"metric": metric, "corners": list(corners), "edges": list(edges)},
        searched={"estimate": BreadthFirstSearch(
            states, (pattern_rank(SOLVED, corners, edges),),
            moves_kernel(len(corners), len(edges)), 12 if metric == "quarter" else 18,
            parameters=(int(metric == "quarter"), len(corners), len(edges)))},
        distances={"estimate": (f"{metric} pattern {shown}", f"to {GOAL_WORD}")},
        about=f"estimate[rank]: fewest turns ({metric}-turn metric) that bring the pieces "
              f"{pieces} to their places in the solved cube, the other pieces ignored; "
              + (CORNER_RANK if corners == ALL_CORNERS else PIECE_RANK))


CORNER_RANK = ("rank = the Lehmer code of the corner in each place (places URF UFL ULB UBR "
               "DFR DLF DBL DRB), times 3^7, plus the twists of the first seven places in "
               "base 3 (URF lowest)")
PIECE_RANK = ("rank = the tracked corners' places as an arrangement of the 8 places in "
              "lexicographic order (URF UFL ULB UBR DFR DLF DBL DRB), times 3^c plus their "
              "twists in base 3 (the first tracked corner lowest), times the arrangements of "
              "the tracked edges, plus their places as an arrangement of the 12 (UR UF UL UB "
              "DR DF DL DB FR FL BL BR), times 2^e plus their flips as bits (the first "
              "lowest); c and e the corners and edges tracked")


def pattern_set(metric: str, name: str) -> list[Table]:
    return [pattern_table(metric, corners, edges) for corners, edges in SETS[name]]


def named_pattern(metric: str, text: str) -> Table:
    """A pattern named by its pieces (``urf-ufl-ur``) or ``corners``."""
    if text == "corners":
        return pattern_table(metric, tuple(range(8)), ())
    corners, edges = [], []
    for piece in text.split("-"):
        corner = corner_named(piece) if len(piece) == 3 else None
        edge = edge_named(piece) if len(piece) == 2 else None
        if corner is None and edge is None:
            raise RubikError(f"piece {piece[:8]!r}: a corner such as urf or an edge such as ur")
        (corners if corner is not None else edges).append(
            corner if corner is not None else edge)
    return pattern_table(metric, tuple(corners), tuple(edges))


def stored_set(tables, metric: str) -> tuple[str, str] | None:
    """(its metric, its name) of the strongest stored set of pattern tables a search in
    ``metric`` reads (the quarter-turn metric: else the half-turn metric's), or None."""
    for table_metric in dict.fromkeys((metric, "half")):
        folder = tables.stored(("rubik", "patterns", table_metric))
        for name in SEARCHED_SETS:
            # by the tables' names alone: making the tables would import their kernels
            if all(pattern_name(corners, edges) in folder
                   for corners, edges in SETS[name]):
                return table_metric, name
    return None


def search_for(tables, metric: str, node, target) -> PatternSearch:
    """IDA* from ``node`` to ``target`` on the strongest stored set of pattern tables
    (``stored_set``); where none is stored, on the default set, whose missing table the
    engine then names."""
    table_metric, name = stored_set(tables, metric) or ("half", DEFAULT_SET)
    return _search(metric, node, target, pattern_set(table_metric, name), table_metric, name)


def _search(metric, node, target, tables: list[Table], table_metric, name) -> PatternSearch:
    """The search on ``tables``: each table looked up on the position, and each pattern of
    edges alone also on the inverse position (the same distance to solved), every look-up
    its own group."""
    def encode(position) -> tuple[int, int]:
        renamed = relabelled(position, target)
        return corner_state_rank(renamed), edges_packed(renamed)

    lookups = [(table, False) for table in tables] + [
        (table, True) for table in tables if not table.options["corners"]]
    parameters = [int(metric == "quarter"), len(lookups)]
    counts = []
    for table, dual in lookups:
        corners, edges = table.options["corners"], table.options["edges"]
        parameters += [len(corners), len(edges), int(dual), *corners, *[0] * (8 - len(corners)),
                       *edges, *[0] * (12 - len(edges)), sum(1 << e for e in edges)]
        counts.append((len(corners), len(edges), int(dual)))
    start = relabelled(node, target)
    build = table_metric if name == DEFAULT_SET else f"{table_metric}:{name}"
    return PatternSearch(
        start=(*encode(node), edges_by_place(start),
               *(pattern_rank(inverse(start) if dual else start,
                              tuple(table.options["corners"]), tuple(table.options["edges"]))
                 for table, dual in lookups)),
        goal=encode(target),
        patterns=tuple(PatternTable(table, "estimate", group, build)
                       for group, (table, _) in enumerate(lookups)),
        step=step_kernel(tuple(counts)),
        moves=len(turn_names(metric)), encode=encode, parameters=tuple(parameters),
        indices_at=3, redundant=redundant_pairs(metric))
