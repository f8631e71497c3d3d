"""Shortest click sequences by walking stored tables (no search at query time).

From node (board, last click) the remaining distance to the target is the stored
``clicks[board, target]``, except when ``last`` is the board's sole optimal first
click, where it is ``clicks_avoiding_sole``.  The walk takes, at each step, a legal
click whose resulting node is exactly one click closer.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.puzzles.tricolore import BLUE, NO_CLICK, Tricolore
from query.tables import CorruptTableError, QueryError, TricoloreTable

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
    if all(rules.colour_of(target, s) == BLUE for s in range(rules.n_squares)):
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


def remaining_clicks(columns, board: int, last: int, target: int) -> int:
    clicks, sole, avoiding = columns
    if board == target and last != NO_CLICK:
        return 0
    if last != NO_CLICK and sole[board] == last:
        return int(avoiding[board])
    return int(clicks[board])


def tricolore_path(
    rules: Tricolore, table: TricoloreTable, start: int, target: int, method: str
) -> TricolorePath:
    """An optimal click sequence from ``start`` to ``target`` (at least one click)."""
    columns = table.target_columns(target)
    remaining = remaining_clicks(columns, start, NO_CLICK, target)
    if remaining == UNREACHABLE:
        raise UnreachableError(explain_unreachable(rules, target, method))
    board, last = start, NO_CLICK
    clicks, boards = [], [start]
    while remaining > 0:
        for square, following in rules.legal_moves(board, last, method):
            if remaining_clicks(columns, following, square, target) == remaining - 1:
                break
        else:
            raise CorruptTableError(
                f"table {table.path} is inconsistent at board {rules.format(board)} "
                f"({remaining} clicks to {rules.format(target)} but no click gets closer); "
                "rebuild it with `make tables FORCE=1`"
            )
        board, last, remaining = following, square, remaining - 1
        clicks.append(square)
        boards.append(board)
    return TricolorePath(start, target, method, tuple(clicks), tuple(boards))


def tricolore_distance(table, start: int, target: int) -> int | None:
    """Minimum clicks (>= 1) from start to target, None if unreachable."""
    clicks = int(table.target_columns(target)[0][start])
    return None if clicks == UNREACHABLE else clicks
