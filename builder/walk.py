"""Shortest click sequences by walking stored tables (no search at query time).

From node (board, last click) the remaining distance to the target is the stored
``clicks[board, target]``, except when ``last`` is the board's sole optimal first
click, where it is ``clicks_avoiding_sole``.  The walk takes, at each step, a legal
click whose resulting node is exactly one click closer.  Ball tubes are walked the same
way over their own tables (a ball state's distance is its symmetry class's);
``deal_balls`` draws starting games from a ball table; ``walk`` walks any plug-in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.puzzles.tricolore.rules import (
    InconsistentTable,
    Tricolore,
    column_clicks,
    walk_columns,
)
from builder.reader import CorruptTableError, QueryError, TricoloreTable

UNREACHABLE = 255


class UnreachableError(QueryError):
    """The target cannot be reached from the start under the method."""


@dataclass(frozen=True)
class TricolorePath:
    start: int
    target: int
    method: str
    clicks: tuple[int, ...]
    boards: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.clicks)


def explain_unreachable(rules: Tricolore, target: int, method: str) -> str:
    name = rules.format(target)
    if rules.never_reached(target):
        return (
            f"{name} cannot be reached: the last clicked square is never blue afterwards, "
            "so an all-blue board is never the result of a click"
        )
    if not rules.in_state_space_one(target, method):
        return (
            f"{name} cannot be reached under the {method} method: only bottom-row clicks can "
            "change the bottom row, and a clicked square is never blue afterwards"
        )
    return f"{name} cannot be reached from this start under the {method} method"


def tricolore_hint(
    rules: Tricolore, table, board: int, last: int, target: int, method: str
) -> tuple[int | None, int]:
    """(the next click of an optimal continuation, clicks remaining) from ``board`` when
    ``last`` was clicked just before (NO_CLICK at the start); (None, 0) at the target."""
    columns = table.target_columns(target)
    remaining = column_clicks(columns, board, last, target)
    if remaining == 0:
        return None, 0
    if remaining == UNREACHABLE:
        raise UnreachableError(explain_unreachable(rules, target, method))
    for square, following in rules.legal_moves(board, last, method):
        if column_clicks(columns, following, square, target) == remaining - 1:
            return square, remaining
    raise CorruptTableError(f"table {table.path} is inconsistent at {rules.format(board)}")


def tricolore_path(
    rules: Tricolore, table: TricoloreTable, start: int, target: int, method: str
) -> TricolorePath:
    """An optimal click sequence from ``start`` to ``target`` (at least one click)."""
    try:
        path = walk_columns(rules, table.target_columns(target), start, target, method)
    except InconsistentTable as damaged:
        raise CorruptTableError(
            f"table {table.path} is inconsistent at board {rules.format(damaged.board)} "
            f"({damaged.remaining} clicks to {rules.format(target)} but no click gets closer); "
            "rebuild it with `make tables FORCE=1`") from None
    if path is None:
        raise UnreachableError(explain_unreachable(rules, target, method))
    return TricolorePath(start, target, method, tuple(square for square, _ in path),
                         (start, *(board for _, board in path)))


def tricolore_distance(table, start: int, target: int) -> int | None:
    """Minimum clicks (>= 1) from start to target, None if unreachable."""
    clicks = int(table.target_columns(target)[0][start])
    return None if clicks == UNREACHABLE else clicks


@dataclass(frozen=True)
class BallsPath:
    states: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.moves)


class NotClearableError(QueryError):
    """The state can never be cleared."""


def balls_path(rules, table, start: tuple[int, ...]) -> BallsPath:
    """A shortest sequence of moves from ``start`` to a cleared state, by table walk: each
    step takes the first legal move into a class one move nearer."""
    remaining = table.moves_to_clear(start)
    if remaining == UNREACHABLE:
        raise NotClearableError(f"{rules.format(start)} can never be cleared")
    state, states, moves = start, [start], []
    while remaining > 0:
        options = rules.legal_moves(state)
        distances = table.moves_of_states(np.array([following for *_, following in options]))
        nearer = np.flatnonzero(distances == remaining - 1) if options else []
        if not len(nearer):
            raise CorruptTableError(f"table {table.path} is inconsistent at "
                                    f"{rules.format(state)}: rebuild it")
        source, destination, state = options[int(nearer[0])]
        remaining -= 1
        states.append(state)
        moves.append((source, destination))
    if not rules.is_cleared(state):
        raise CorruptTableError(f"table {table.path}: the walk ended on an uncleared state")
    return BallsPath(tuple(states), tuple(moves))


def deal_balls(rules, table, rng: np.random.Generator, min_moves: int = 0,
               clearable: bool = False) -> tuple[tuple[int, ...], int]:
    """A starting state (first k tubes full) drawn uniformly from those that meet the
    request, with its fewest moves (255: never): a class is drawn in proportion to its
    starting states, then one of them by a random relabelling and tube order."""
    keys = table.class_key.whole()
    moves = table.moves.whole()
    starting = rules.initial_states_in_classes(keys, table.class_states.whole())
    weights = starting
    if clearable or min_moves:
        weights = np.where((moves != UNREACHABLE) & (moves >= min_moves), starting, 0)
    if not weights.sum():
        hardest = moves[(starting > 0) & (moves != UNREACHABLE)].max(initial=0)
        raise QueryError(f"no starting state of {rules.name} needs {min_moves} or more moves "
                         f"(the hardest needs {hardest})")
    chosen = int(np.searchsorted(np.cumsum(weights), rng.integers(weights.sum()), side="right"))
    codes = rules.codes_of_keys(keys[chosen : chosen + 1])[0]
    while True:  # one of the class's states at random, until its full tubes come first
        relabelled = rules.colour_relabellings[rng.integers(len(rules.colour_relabellings)), codes]
        state = tuple(int(code) for code in rng.permutation(relabelled))
        if all(rules.code_length[code] == rules.capacity for code in state[: rules.colours]):
            return state, int(moves[chosen])


@dataclass(frozen=True)
class WalkedPath:
    """A shortest path found by the generic walk: the walk nodes from start to target and
    the label of each move."""

    nodes: tuple
    labels: tuple[str, ...]

    @property
    def length(self) -> int:
        return len(self.labels)


def walk(puzzle, tables, variant, start, target) -> WalkedPath:
    """A shortest path by table walk for any walkable plug-in: from each node, the first
    move whose node is exactly one move nearer the target."""
    node = puzzle.start_node(variant, start)
    remaining = puzzle.distance(tables, variant, node, target)
    if remaining is None:
        raise UnreachableError(f"{puzzle.format(variant, target)} cannot be reached from "
                               f"{puzzle.format(variant, start)}")
    nodes, labels = [node], []
    while remaining > 0:
        for move in puzzle.moves(variant, node):
            if puzzle.distance(tables, variant, move.state, target) == remaining - 1:
                break
        else:
            raise CorruptTableError(f"the {puzzle.name} tables are inconsistent at "
                                    f"{puzzle.format(variant, node)}: rebuild them "
                                    "(`make tables FORCE=1`)")
        node, remaining = move.state, remaining - 1
        nodes.append(node)
        labels.append(move.label)
    if not puzzle.at_target(variant, node, target):
        raise CorruptTableError(f"the {puzzle.name} tables: the walk did not end on the "
                                "target; rebuild them (`make tables FORCE=1`)")
    return WalkedPath(tuple(nodes), tuple(labels))


@dataclass(frozen=True)
class MoveValue:
    label: str
    node: object
    distance: int | None
    """Fewest moves to the target after this move (None: never)."""


def move_values(puzzle, tables, variant, node, target) -> tuple[int | None, list[MoveValue]]:
    """The distance from ``node`` and every legal move with the distance after it."""
    here = puzzle.distance(tables, variant, node, target)
    return here, [MoveValue(move.label, move.state,
                            puzzle.distance(tables, variant, move.state, target))
                  for move in puzzle.moves(variant, node)]
