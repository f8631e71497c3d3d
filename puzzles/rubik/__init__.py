"""The 3×3×3 cube (Rubik's Cube) as a plug-in: the adapter the engine calls.  The rules
and notation are ``rules.py``; the pattern databases and the search on them
``tables.py``; the kernels ``search.py``.

No table holds the cube's 4.3 × 10^19 positions: a path is found by IDA* on pattern
databases (tables ``rubik/patterns/METRIC/``: the corners and two patterns of six edges,
or of seven where they are built), optimal in the metric asked for; in the half-turn
metric, where its table is built (``rubik/optimal/phase1``), by IDA* on a
symmetry-reduced phase-1 table looked up in three directions and on the inverse
(``optimal.py``); or at once, not shortest in general, by Kociemba's two-phase search
(``twophase.py``, its pruning table ``rubik/twophase/pruning``), the walk's approximate
path.  A cube at most four turns from its target is answered exactly without any of
them, loading no kernel and reading no table (``short.py``).  A position is its stickers or
a scramble; a path is printed in Singmaster notation (R, R', R2).
"""

from __future__ import annotations

from builder.contract.base import FoundPath, Move, PuzzleOption
from builder.contract.errors import MissingTableError, shown
from builder.contract.patterns import PatternSearch
from builder.contract.puzzle import OwnSearch, Table, WalkablePuzzle
from puzzles.rubik import rules, short, twophase
from puzzles.rubik.rules import GOAL_WORD, METRICS, SOLVED, RubikError
from puzzles.rubik.tables import (
    DEFAULT_SET,
    SETS,
    named_pattern,
    pattern_set,
    pattern_table,
    search_for,
    stored_set,
)

GOAL = GOAL_WORD
"""The target node of "solved" (the solved cube, printed as the word)."""


class RubikSearch(OwnSearch):
    """The 3x3x3 cube's own search: pattern databases, the two-phase tables and the
    optimal solver's, and the exact and quick searches over them."""

    def parse_target(self, metric: str, text: str):
        if text.strip().lower() == GOAL_WORD:
            return GOAL
        return rules.parse(text)

    def at_target(self, metric: str, node, target) -> bool:
        return node == (SOLVED if target == GOAL else target)

    def distance(self, tables, metric: str, node, target) -> int | None:
        raise MissingTableError("no table holds the 3x3x3 cube's distances: they are "
                                "searched on its pattern databases")

    def pattern_search(self, tables, metric: str, node, target) -> PatternSearch | None:
        """None where the cube is at most ``short.MOST`` turns from the target and the
        tables a search reads are stored (a folder without them is refused whatever the
        question): ``search_path`` answers it, loading no kernel and reading no table."""
        from puzzles.rubik import optimal  # numpy: imported where a search needs it

        goal = SOLVED if target == GOAL else target
        if short.path(metric, node, goal) is not None and (stored_set(tables, metric) or (
                metric == "half" and optimal.stored(tables))):
            return None
        found = optimal.search_for(tables, node, goal) if metric == "half" else None
        return found or search_for(tables, metric, node, goal)

    def search_path(self, metric: str, node, target) -> FoundPath | None:
        found = short.path(metric, node, SOLVED if target == GOAL else target)
        return None if found is None else FoundPath(*found, how=short.HOW)

    approximation = "Kociemba's two-phase search"

    def approximate_path(self, tables, metric: str, node, target) -> FoundPath | None:
        goal = SOLVED if target == GOAL else target
        # a cube a few turns from the goal has its shortest path at once: no kernel to
        # load, no table to read, and a quick hint that is also the best one
        found = short.path(metric, node, goal)
        if found is not None:
            return FoundPath(*found, how=short.HOW)
        return twophase.approximate(tables, metric, node, goal)

    def table(self, identity: dict) -> Table:
        if identity.get("method") == "two-phase":
            return twophase.pruning_table()
        if identity.get("method") == "optimal":
            from puzzles.rubik import optimal

            return optimal.phase1_table()
        corners, edges = identity.get("corners"), identity.get("edges")
        if not (isinstance(corners, list) and isinstance(edges, list)
                and all(isinstance(piece, int) for piece in corners + edges)):
            raise RubikError("a rubik pattern table names its corners and edges")
        return pattern_table(str(identity.get("metric")), tuple(corners), tuple(edges))

    def default_tables(self) -> list[Table]:
        return [*pattern_set("half", DEFAULT_SET), twophase.pruning_table()]

    def table_for(self, text: str) -> Table | list[Table]:
        if text.strip().lower() == twophase.BUILD:
            return twophase.pruning_table()
        if text.strip().lower() == "optimal":
            from puzzles.rubik import optimal

            return optimal.phase1_table()
        metric, _, choice = text.strip().lower().partition(":")
        if metric not in METRICS:
            raise RubikError(f"{shown(text)}: a metric (half or quarter), then optionally "
                             f":{' or :'.join(SETS)} (a set of pattern databases) or a "
                             "pattern's pieces such as :urf-ufl-ur; or twophase (the "
                             "two-phase search's pruning table); or optimal (the optimal "
                             "search's phase-1 table)")
        if not choice or choice in SETS:
            return pattern_set(metric, choice or DEFAULT_SET)
        return named_pattern(metric, choice)

    def verify_checks(self, attributes: dict) -> str:
        if attributes.get("method") != "optimal":
            return ""
        return ("the optimal table's fewest turns, read down its residues, are 1 + the "
                "least of the 18 turns' and equal at the 16 symmetric images")

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        if attributes.get("method") != "optimal":
            return None
        import numpy as np

        from puzzles.rubik import optimal

        return optimal.check_sampled(np.ascontiguousarray(read(optimal.ARRAY), np.uint8),
                                     samples, rng)

    def table_options(self, attributes: dict) -> dict[str, str]:
        return {"metric": attributes.get("metric", "half")}


class RubikPuzzle(WalkablePuzzle):
    """The variant is the metric."""

    own_search = RubikSearch

    name = "rubik"
    unit = "turns"
    summary = ("the 3x3x3 cube (Rubik's Cube): a scramble or its 54 stickers, solved in the "
               "fewest turns by IDA* on pattern databases")
    example = ("F U' R2", "solved")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "metric", "half (the default: a quarter or half turn is one move) or quarter (a "
        "quarter turn is one move)", METRICS),)

    def recognises(self, text: str) -> bool:
        """A scramble (``F U' R2``), or six faces of nine stickers joined by '.' showing
        all six of U R F D L B (rows of fewer letters are Tricolore's or another
        puzzle's)."""
        stickers = text.strip().upper()
        return ((rules.looks_like_stickers(stickers)
                 and set(stickers.replace(".", "")) == set(rules.FACES))
                or rules.looks_like_scramble(text))

    def variant(self, start: str, target: str, options: dict) -> str:
        metric = options.get("metric") or "half"
        if metric not in METRICS:
            raise RubikError(f"metric {shown(metric)}: choose half or quarter")
        return metric

    def parse(self, metric: str, text: str):
        return rules.parse(text)

    def format(self, metric: str, state) -> str:
        return GOAL_WORD if state == GOAL else rules.format_cube(state)

    def default_target(self, metric: str) -> str:
        return GOAL_WORD

    def drawing(self, metric: str, state) -> str:
        faces = rules.format_cube(SOLVED if state == GOAL else state).split(".")
        up, right, front, down, left, back = ([" ".join(face[row * 3:row * 3 + 3])
                                               for row in range(3)] for face in faces)
        blank = " " * 5
        return "\n".join([*(f"{blank}  {row}" for row in up),
                          *(f"{left[row]}  {front[row]}  {right[row]}  {back[row]}"
                            for row in range(3)),
                          *(f"{blank}  {row}" for row in down)])

    def moves(self, metric: str, node) -> list[Move]:
        return [Move(label, rules.turned(node, face, times))
                for label, face, times in rules.turn_names(metric)]
