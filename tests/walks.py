"""The plug-ins' table answers as the tests call them: from a data directory, through
the engine's ``Tables`` (what `query` lends the plug-ins)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder.contract.errors import UnreachableError
from builder.contract.puzzle import Printing, Walking
from puzzles.balls import BallsPuzzle
from puzzles.balls.answers import BallsTable, NotClearableError
from puzzles.tricolore import TricoloreGame, TricolorePuzzle
from puzzles.tricolore.answers import TargetColumns, all_pairs_table
from puzzles.tricolore.rules import NO_CLICK, Tricolore, column_clicks
from query.walk import Tables, walk


@dataclass(frozen=True)
class Walked:
    """The engine's walk in the terms a test checks: the moves as the plug-in names them
    in `--json` (Tricolore: squares; ball tubes: (from, to)) and the positions after."""

    moves: tuple
    states: tuple

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def clicks(self) -> tuple:
        return self.moves

    @property
    def boards(self) -> tuple:
        return self.states


def lookup(where: Path | Tables) -> Tables:
    """A data directory's tables (a ``Tables`` given is used as it is: its chunk caches
    make repeated questions cheap)."""
    return where if isinstance(where, Tables) else Tables(where)


def tricolore_path(data: Path | Tables, rules: Tricolore, start: int, target: int,
                   method: str) -> Walked:
    """`query path`'s walk (the engine's, through the plug-in)."""
    puzzle, game = TricolorePuzzle(), TricoloreGame(rules, method)
    found = walk(puzzle, lookup(data), game, start, target)
    return Walked(tuple(Printing.of(puzzle).step_value(game, label) for label in found.labels),
                  tuple(board for board, _ in found.nodes))


def balls_path(rules, table: BallsTable, start: tuple[int, ...]) -> Walked:
    """`query path STATE cleared`'s walk; NotClearableError when it can never be."""
    puzzle = BallsPuzzle()
    try:
        found = walk(puzzle, table.tables, rules, start, "cleared")
    except UnreachableError as never:
        raise NotClearableError(str(never)) from None
    return Walked(tuple(tuple(Printing.of(puzzle).step_value(rules, label)) for label in found.labels),
                  found.nodes)


def tricolore_hint(data: Path | Tables, rules: Tricolore, board: int, last: int, target: int,
                   method: str) -> tuple[int | None, int]:
    """(the first click one nearer, clicks remaining) from ``board`` after ``last``, read
    straight from the table's three arrays (not through the engine's walk); (None, 0) at
    the target."""
    columns = TargetColumns(lookup(data), rules, target, method).columns
    remaining = column_clicks(columns, board, last, target)
    if remaining == 0:
        return None, 0
    if remaining == 255:
        raise UnreachableError(f"{rules.format(target)} cannot be reached")
    for square, following in rules.legal_moves(board, last, method):
        if column_clicks(columns, following, square, target) == remaining - 1:
            return square, remaining
    raise AssertionError(f"no click one nearer at {rules.format(board)}")


def tricolore_distance(data: Path | Tables, rules: Tricolore, start: int, target: int,
                       method: str) -> int | None:
    towards = TargetColumns(lookup(data), rules, target, method)
    clicks = column_clicks(towards.columns, start, NO_CLICK, target)
    return None if clicks == 255 else clicks


def all_pairs_path(data: Path | Tables, width: int, height: int, method: str) -> Path:
    """The stored all-pairs table's directory, after the reader has checked it."""
    tables = lookup(data)
    return tables.path(all_pairs_table(tables, Tricolore(width, height), method))


def balls_table(data: Path | Tables, rules) -> BallsTable:
    return BallsTable(lookup(data), rules)


SEARCH_LIMIT = 45_000
"""Positions ``fewest_moves_from`` visits before it leaves the answer to the tables (Lights
Out's 2^25 boards are beyond a test's plain search)."""


def fewest_moves_from(puzzle, variant, node, target, data: Path | Tables,
                      limit: int = SEARCH_LIMIT) -> int | None:
    """Fewest moves from walk node ``node`` to ``target`` by a plain breadth-first search
    over the plug-in's moves (None: never), stopping at the first node on the target;
    the tables' value where the puzzle is too large for that."""
    from collections import deque

    from query.walk import answered_distance

    seen, queue = {node: 0}, deque([node])
    while queue and len(seen) < limit:
        here = queue.popleft()
        if Walking.of(puzzle).at_target(variant, here, target):
            return seen[here]
        for move in puzzle.moves(variant, here):
            if move.state not in seen:
                seen[move.state] = seen[here] + 1
                queue.append(move.state)
    if not queue:
        return None
    return answered_distance(puzzle, lookup(data), variant, node, target)[0]
