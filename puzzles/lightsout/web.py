"""Lights Out's own web endpoint, under /api/lightsout: how many click sets solve a board."""

from __future__ import annotations

from puzzles.lightsout.rules import LightsOut, LightsOutError


def routes():
    """The endpoint under /api/lightsout: how many click sets solve a board (the web page
    shows the count beside the hint; the CLI's `query lightsout solve --json`)."""
    from fastapi import APIRouter, Query

    from builder.contract.errors import MAX_INPUT_CHARACTERS, notation_query

    router = APIRouter()

    @router.get("/solve", summary="Solutions of a board")
    def solutions(board: str = notation_query(),
                  target: str | None = Query(None, max_length=MAX_INPUT_CHARACTERS)):
        """Whether BOARD can be turned into TARGET (default all off), in how many click
        sets, and one with the fewest clicks."""
        rows, cols = LightsOut.shape_of(board)
        rules = LightsOut(rows, cols)
        if target is not None and LightsOut.shape_of(target) != (rows, cols):
            raise LightsOutError(f"target {target[:40]!r} is not {rows}x{cols} like the board")
        solution = rules.solve(rules.parse(board), rules.parse(target) if target else 0)
        return {"solvable": solution.solvable, "solutions": solution.count,
                "nullity": solution.nullity,
                "min_clicks": len(solution.clicks) if solution.solvable else None,
                "min_clicks_exact": solution.exact_minimum, "clicks": list(solution.clicks)}

    return router
