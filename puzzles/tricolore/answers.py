"""Tricolore's answers from its stored tables: the three walk arrays towards a target
(the column of an all-pairs table, or a whole single-target table), why a target cannot
be reached, and the bidirectional search where a
4×4 target has no table (the engine's fallback for `query path`).

From node (board, last click) the remaining distance to the target is the stored
``clicks``, except when ``last`` is the board's sole optimal first click, where it is
``clicks_avoiding_sole`` (``rules.column_clicks``).  Everything reads through the
``TableLookup`` the engine lends, so a walk costs one chunk read per array.
"""

from __future__ import annotations

from builder.contract.base import FoundPath, TableLookup
from builder.contract.errors import CorruptTableError, MissingTableError, UnreachableError
from builder.contract.work import expensive
from puzzles.tricolore.bidirectional import TricolorePath, bidirectional_path
from puzzles.tricolore.rules import (
    ALL_PAIRS_MAX_SQUARES,
    NO_CLICK,
    WALK_ARRAYS,
    MethodError,
    Tricolore,
    check_method,
)


def all_pairs_table(tables: TableLookup, rules: Tricolore, method: str) -> tuple[str, ...]:
    """The all-pairs table of the board's shape and method, checked (a one-line error
    saying how to build it when it is missing)."""
    check_method(method)
    table = ("tricolore", rules.shape_name, method)
    try:
        tables.require(table, {"puzzle": "tricolore", "width": rules.width,
                               "height": rules.height, "method": method})
    except MissingTableError:  # the advice lists the folder: only when it is needed
        raise MissingTableError(all_pairs_advice(tables, rules, method)) from None
    return table


def all_pairs_advice(tables: TableLookup, rules: Tricolore, method: str) -> str:
    built = [name for name in tables.stored(("tricolore", rules.shape_name))]
    hint = f" (built for {rules.shape_name}: {', '.join(built)})" if built else ""
    return (f"no {method} table for {rules.shape_name} Tricolore boards in "
            f"{tables.location}{hint}: run `make tables` or `builder tricolore --width "
            f"{rules.width} --height {rules.height}`")


def target_table(tables: TableLookup, rules: Tricolore, target: int) -> tuple[str, ...]:
    """The single-target table towards ``target``, checked."""
    name = rules.format(target)
    table = ("tricolore", rules.shape_name, "targets", name)
    tables.require(table, {"puzzle": "tricolore", "width": rules.width,
                           "height": rules.height, "target": name},
                   f"no exact table towards {name} in {tables.location}: build it with "
                   f"`builder tricolore4x4 --target {name}`, or ask for `--method "
                   "decomposition` (not optimal)")
    return table


class TargetColumns:
    """The three walk arrays (``WALK_ARRAYS`` order, each indexed by board) that answer
    every start towards one target: from the all-pairs table where the board's shape has
    one, else from the table towards the target (unrestricted clicks only)."""

    def __init__(self, tables: TableLookup, rules: Tricolore, target: int, method: str):
        check_method(method)
        if rules.n_squares <= ALL_PAIRS_MAX_SQUARES:
            self.table = all_pairs_table(tables, rules, method)
            self.columns = tuple(tables.column(self.table, name, target)
                                 for name in WALK_ARRAYS)
        else:
            if method != "unrestricted":
                raise MethodError(f"{rules.shape_name} tables are for the unrestricted method")
            self.table = target_table(tables, rules, target)
            self.columns = tuple(tables.vector(self.table, name) for name in WALK_ARRAYS)


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


def replayed(rules: Tricolore, found: TricolorePath, last: int = NO_CLICK
             ) -> TricolorePath:
    """``found`` after replaying it click by click under its method from its start, which
    the click ``last`` led to: a path that breaks a rule or misses its target is an
    internal error, never an answer."""
    board = found.start
    for square in found.clicks:
        legal = dict(rules.legal_moves(board, last, found.method))
        if square not in legal:
            raise CorruptTableError(f"internal error: click {square} is not legal on "
                                    f"{rules.format(board)}")
        board, last = legal[square], square
    if board != found.target or not found.clicks:
        raise CorruptTableError("internal error: the path does not end on its target")
    return found


def searched(rules: Tricolore, start: int, target: int, method: str,
             last: int = NO_CLICK) -> TricolorePath | None:
    """The bidirectional search, replayed, where no table can answer (unrestricted clicks
    on boards too large for all-pairs tables), from ``start`` reached by clicking
    ``last``; None where it does not apply; an UnreachableError when it proves the
    target unreachable."""
    if method != "unrestricted" or rules.n_squares <= ALL_PAIRS_MAX_SQUARES:
        return None
    with expensive("the Tricolore search"):
        found = bidirectional_path(rules, start, target, last=last)
    if found is None:
        raise UnreachableError(explain_unreachable(rules, target, method))
    return replayed(rules, found, last)


def searched_path(rules: Tricolore, node: tuple[int, int], target: int,
                  method: str) -> FoundPath | None:
    """``searched`` as the engine's fallback (``Walking.search_path``), from a start node."""
    board, last = node
    found = searched(rules, board, target, method, last)
    if found is None:
        return None
    return FoundPath(tuple(zip(found.boards, (last, *found.clicks))),
                     tuple(str(square) for square in found.clicks), "bidirectional search")
