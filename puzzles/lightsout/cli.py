"""`query lightsout ...`: the Lights Out plug-in's own query commands (mounted by the
query command line from ``LightsOutPuzzle.query_commands``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from builder.contract.cli_options import JsonOption
from puzzles.lightsout.rules import MAX_EXACT_NULLITY, LightsOut, LightsOutError


def solve(
    *,
    board: Annotated[str, typer.Argument(help="Start: rows of 0/1 joined by '.', e.g. 111.111.111.")],
    target: Annotated[
        str | None, typer.Option(help="Target board (default: all off).")
    ] = None,
    as_json: JsonOption = False,
) -> int:
    """Which buttons to click to turn BOARD into the target (all off by default), with the
    fewest clicks; a click inverts a button and its four neighbours. The document's
    question is a start of all off and a target of all on.

    Example: query lightsout solve 000.000.000 --target 111.111.111
    """
    rows, cols = LightsOut.shape_of(board)
    rules = LightsOut(rows, cols)
    start = rules.parse(board)
    if target is not None and LightsOut.shape_of(target) != (rows, cols):
        raise LightsOutError(f"target {target[:40]!r} is not {rows}x{cols} like the start")
    goal = rules.parse(target) if target is not None else 0
    solution = rules.solve(start, goal)
    if solution.solvable and rules.press(start, solution.clicks) != goal:
        raise LightsOutError("internal error: the solution does not reach the target")
    if as_json:
        typer.echo(json.dumps({"solvable": solution.solvable, "solutions": solution.count,
                               "min_clicks": len(solution.clicks) if solution.solvable else None,
                               "min_clicks_exact": solution.exact_minimum,
                               "clicks": list(solution.clicks)}))
    else:
        goal_text = rules.format(goal)
        if not solution.solvable:
            typer.echo(f"{rules.format(start)} -> {goal_text}: no solution "
                       f"({rows}x{cols} has nullity {solution.nullity}: only 1 board in "
                       f"{2 ** solution.nullity} can be reached)")
        else:
            exact = "" if solution.exact_minimum else (
                f" (not proven fewest: nullity {solution.nullity} > {MAX_EXACT_NULLITY})")
            typer.echo(f"{rules.format(start)} -> {goal_text}: {solution.count} solution"
                       f"{'s' if solution.count > 1 else ''}; fewest clicks "
                       f"{len(solution.clicks)}{exact}")
            typer.echo("click grid (x = click):")
            chosen = set(solution.clicks)
            for row in range(rows):
                typer.echo(" ".join("x" if row * cols + col in chosen else "."
                                    for col in range(cols)))
            typer.echo("clicks: " + " ".join(map(str, solution.clicks)))
    return 0 if solution.solvable else 1


