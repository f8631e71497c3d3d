"""Tricolore's JSON endpoints for `query serve` (mounted under /api/tricolore): which
tables are built, the next optimal click, an optimal path, and a click with the method's
rules enforced.  The same answers as the CLI's ``--json``."""

from __future__ import annotations

from enum import Enum

from fastapi import APIRouter, Query

from builder.puzzles import QueryError, notation_query
from builder.puzzles.base import TableLookup
from builder.puzzles.tricolore.answers import TargetColumns, hint, optimal_path
from builder.puzzles.tricolore.rules import METHODS, NO_CLICK, Tricolore, check_method

Method = Enum("Method", {method: method for method in METHODS}, type=str)  # type: ignore[misc]
"""The click methods, an enum in the API's schema."""


def routes(tables: TableLookup) -> APIRouter:
    router = APIRouter()

    def parse_pair(board: str, target: str) -> tuple[Tricolore, int, int]:
        rules = Tricolore.of_board(board)
        return rules, rules.parse(board), rules.parse(target)

    @router.get("/tables", summary="Built Tricolore tables")
    def built_tables() -> dict:
        """Which Tricolore tables are built: 4×2 methods and 4×4 targets."""
        built = set(tables.stored(("tricolore", "4x2")))
        return {"4x2": [m for m in METHODS if m in built],
                "4x4": tables.stored(("tricolore", "4x4", "targets"))}

    @router.get("/hint", summary="The next optimal click")
    def next_click(board: str = notation_query(), target: str = notation_query(),
                   method: Method = Method.unrestricted,
                   last: int = Query(NO_CLICK, description="square clicked just before, "
                                                           "-1: none")):
        """The next optimal click from BOARD (LAST may not be clicked again) and how many
        clicks remain to TARGET."""
        method = method.value
        rules, board_rank, target_rank = parse_pair(board, target)
        if not NO_CLICK <= last < rules.n_squares:
            raise QueryError(f"last square {last} is not on the board (or -1 for none)")
        towards = TargetColumns(tables, rules, target_rank, method)
        click, remaining = hint(rules, towards, board_rank, last, target_rank, method)
        return {"board": rules.format(board_rank), "target": rules.format(target_rank),
                "method": method, "last": last, "click": click, "remaining": remaining}

    @router.get("/path", summary="An optimal click sequence")
    def path(start: str = notation_query(), target: str = notation_query(),
             method: Method = Method.unrestricted):
        """An optimal click sequence (the CLI's `query path --json`)."""
        method = method.value
        rules, start_rank, target_rank = parse_pair(start, target)
        towards = TargetColumns(tables, rules, target_rank, method)
        found = optimal_path(rules, towards, start_rank, target_rank, method)
        boards = [rules.format(b) for b in found.boards]
        return {"start": boards[0], "target": boards[-1], "method": method,
                "length": found.length, "clicks": list(found.clicks), "boards": boards}

    @router.get("/click", summary="Click a square")
    def click(board: str = notation_query(), square: int = Query(),
              method: Method = Method.unrestricted,
              last: int = NO_CLICK):
        """The board after clicking SQUARE, with the method's rules enforced."""
        method = method.value
        rules = Tricolore.of_board(board)
        rank = rules.parse(board)
        check_method(method)
        for name, value in (("square", square), ("last", last)):
            if not (NO_CLICK if name == "last" else 0) <= value < rules.n_squares:
                raise QueryError(f"{name} {value} is not a square of the board (0 to "
                                 f"{rules.n_squares - 1}{', or -1 for none' if name == 'last' else ''})")
        legal = dict(rules.legal_moves(rank, last, method))
        if square not in legal:
            reason = "it was clicked last" if square == last else f"{method} forbids it here"
            raise QueryError(f"square {square} cannot be clicked: {reason}")
        return {"board": rules.format(legal[square]), "last": square}

    return router
