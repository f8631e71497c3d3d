"""`query path` for Lucas' pieces in the document's layout (step, configuration, agent,
move type): by the engine's table walk over the stored distances, over a search made at
query time towards other targets, or beyond the tables, between the standard start and
goal, by the document's closed form."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import typer

from builder.puzzles import check_length
from builder.puzzles.base import TableLookup

MAX_PATH_N = 100
"""Longest Lucas path printed: n = 100 is 10,200 moves; n = 10,000 would be 10^8 lines."""


def shortest_path(puzzle, tables: TableLookup, walk: Callable, start: str, target: str
                  ) -> tuple[list[str], list[tuple[str, str]], str]:
    """(arrangements, (agent, move type) per move, how it was found)."""
    from builder.puzzles.lucas import LucasPuzzle
    from builder.puzzles.lucas.rules import LucasError

    check_length(start, "arrangement", LucasError)
    check_length(target, "arrangement", LucasError)
    rules = puzzle.variant(start, target, {})
    start_code, target_code = rules.parse(start), rules.parse(target)
    if rules.n > MAX_PATH_N:
        moves = (rules.n + 1) ** 2 - 1
        raise LucasError(f"n = {rules.n}: a shortest path has at least {moves:,} moves, too "
                         f"many to print (at most n = {MAX_PATH_N})")
    attributes = tables.require(("lucas", "tables"), {"puzzle": "lucas"},
                                f"no Lucas table in {tables.location}: run `make tables` or "
                                "`builder lucas`")
    if rules.n > attributes.get("max_n", 0):
        if start.strip().upper() == rules.start and target.strip().upper() == rules.goal:
            moves = rules.closed_form()
            return rules.play(rules.start, moves), moves, "closed form (beyond the tables)"
        raise LucasError(
            f"no Lucas table for n = {rules.n}: run `builder lucas --max-n {rules.n}` "
            "(beyond the tables only the standard start to goal is answered)")
    how = "table walk"
    if target_code not in (rules.parse(rules.goal), rules.parse(rules.start)):
        from builder.puzzles.lucas.levels import lucas_search

        searched = lucas_search(rules, target_code)[0]

        class SearchedLucas(LucasPuzzle):  # the same moves, distances from the search
            def distance(self, tables, rules, node, target):
                found = int(searched[rules.rank(np.array([node]))[0]])
                return None if found < 0 else found

        puzzle, how = SearchedLucas(), "search towards the target"
    found = walk(puzzle, rules, start_code, target_code)
    return ([rules.format(code) for code in found.nodes],
            [tuple(label.split(" ", 1)) for label in found.labels], how)


def print_path(puzzle, tables: TableLookup, walk: Callable, start: str, target: str,
               as_json: bool) -> None:
    arrangements, moves, how = shortest_path(puzzle, tables, walk, start, target)
    if as_json:
        print_json(arrangements, moves, how, "standard")
        return
    typer.echo(f"{arrangements[0]} -> {arrangements[-1]}: {len(moves)} moves "
               f"(shortest, {how})")
    width = max(13, len(arrangements[0]))
    typer.echo(f"{'step':<5} {'configuration':<{width}}  {'agent':<5}  move type")
    for step, arrangement in enumerate(arrangements):
        agent, kind = moves[step - 1] if step else ("", "")
        typer.echo(f"{step + 1:<5} {arrangement:<{width}}  {agent:<5}  {kind}".rstrip())


def print_json(arrangements: list[str], moves: list[tuple[str, str]], how: str,
               rule: str) -> None:
    """A Lucas path as `--json`: one layout whatever found it (table walk, search, closed
    form) and whichever rule."""
    typer.echo(json.dumps({"puzzle": "lucas", "rule": rule, "start": arrangements[0],
                           "target": arrangements[-1], "length": len(moves), "how": how,
                           "moves": [list(m) for m in moves], "arrangements": arrangements}))
