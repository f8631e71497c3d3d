"""The ball tubes' own `query` commands: `query random balls` (fair deals, from a table
or proven by the solver) and `query solve` (what the solver proves, at any size)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import numpy as np
import typer

from builder.contract.cli_options import JsonOption, Limit
from builder.contract.errors import MOST_SOLVER_STATES, MissingTableError
from puzzles.balls.answers import (
    DEAL_SECONDS,
    SOLVER_BUDGET,
    BallsTable,
    answer,
    deal_any,
    deal_balls,
    first_moves,
    random_start,
)
from puzzles.balls.rules import BALLS, RULES_HELP, Balls, BallsError, check_rules
from puzzles.balls.tables import MOST_MOVES

RulesOption = Annotated[str, typer.Option("--rules", help=f"{RULES_HELP}.")]


def deal(
    *,
    clearable: Annotated[bool, typer.Option("--clearable", help="Only a game that can be "
                                            "cleared.")] = False,
    min_moves: Annotated[int, typer.Option("--min-moves", help="At least this many moves "
                                           "(implies --clearable).", min=0, max=255)] = 0,
    distance: Annotated[int | None, typer.Option(
        "--distance", help="Exactly this many fewest moves: a level of a chosen difficulty "
        "(from a table: a size `make tables` or `builder build balls` stored).", min=0,
        max=MOST_MOVES, show_default=False)] = None,
    tubes: Annotated[int | None, typer.Option(help="Tubes (default 4; or give --empty).",
                                              show_default=False)] = None,
    capacity: Annotated[int, typer.Option(help="Balls per tube (up to 8).", min=1,
                                          max=8)] = 4,
    colours: Annotated[int, typer.Option(help="Colours (up to 26).", min=1, max=26)] = 3,
    empty: Annotated[int | None, typer.Option(help="Empty tubes: tubes = colours + empty.",
                                              min=0, max=22)] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed, 0 or more (default: fresh).",
                                             min=0, max=2**63 - 1)] = None,
    seconds: Annotated[float, typer.Option(
        "--seconds", help="At sizes no table holds: how long to hunt for a deal the solver "
        "proves clearable (with --clearable or --min-moves).", click_type=Limit(1, 3600))]
    = DEAL_SECONDS,
    as_json: JsonOption = False,
    rules: RulesOption = BALLS,
    tables: Any = None,
) -> None:
    """Deal a random starting state (the first tubes full, the rest empty), optionally one
    that can be cleared and needs at least N moves: the document's fair games. From the
    table where one holds the game (uniform over the starting states that qualify); at
    any other size a random deal at once, or with --clearable / --min-moves random deals
    until the solver proves one clearable in N or more fewest moves (for at most
    --seconds, with a progress bar).

    Example: query random balls --colours 12 --capacity 4 --empty 2 --min-moves 40
    """
    if empty is not None and tubes is not None:
        raise BallsError(f"--tubes {tubes} and --empty {empty}: give one (tubes = colours "
                         "+ empty)")
    tubes = colours + empty if empty is not None else (4 if tubes is None else tubes)
    rules = Balls(tubes, capacity, colours, water=check_rules(rules) == "water")
    rng = np.random.default_rng(seed)
    try:
        table = BallsTable(tables, rules)
    except MissingTableError:
        if distance is not None:
            raise
        if not clearable and not min_moves:
            result = {"state": rules.format(random_start(rules, rng)), "clearable": None,
                      "moves": None, "verdict": "not checked", "explored": 0}
            if as_json:
                typer.echo(json.dumps(result))
            else:
                typer.echo(f"{result['state']}  (not checked: `query solve` proves whether "
                           "it can be cleared; --clearable deals only proven ones)")
            return
        found = deal_any(colours, capacity, tubes - colours, min_moves, rng,
                         seconds=seconds, progress=not as_json, water=rules.water)
        result = {"state": rules.format(found.states[0]), "clearable": True,
                  "moves": found.length, "verdict": found.verdict,
                  "explored": found.explored}
        proof = f"proven optimal by {found.how}"
    else:
        state, moves = deal_balls(rules, table, rng, min_moves, clearable, distance)
        result = {"state": rules.format(state), "clearable": moves is not None,
                  "moves": moves,
                  "verdict": "optimal" if moves is not None else "unclearable",
                  "explored": 0}
        proof = "table"
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(f"{result['state']}  " + (f"clearable in {result['moves']} moves ({proof})"
                                             if result["clearable"]
                                             else "can never be cleared"))


def solve(
    state: Annotated[str, typer.Argument(help="Tubes top first joined by '|', one lowercase "
                                              "letter per colour, e.g. rggb|brrg|gbbr||.")],
    *,
    budget: Annotated[int, typer.Option(
        metavar="NODES", help="Nodes the search may generate (as `query path --budget` "
        "counts them; a state stored at most a node, about 150 bytes each); an eighth of "
        "them is kept for a greedy search for some solution if the A* runs out.",
        min=1_000, max=MOST_SOLVER_STATES)] = SOLVER_BUDGET,
    as_json: JsonOption = False,
    rules: RulesOption = BALLS,
    tables: Any = None,
) -> int:
    """Fewest moves to clear STATE at any size (up to 26 colours, tubes of up to 8): by
    table walk where a table holds the game, else by an A* search that says what it
    proved: optimal, unclearable (every reachable state explored), or best_found /
    unresolved when the budget ran out (with a proven lower bound). Exits 1 when the state
    cannot be cleared, 2 when nothing was proven. With --json, an optimal answer also
    counts the first moves: legal, keeping the deal clearable, keeping it optimal (what
    makes a deal hard for a player; each first move searched within its own --budget).

    Example: query solve "abcd|dcba|abcd|dcba||"    (water sort: add --rules water)
    """
    found = answer(tables, state, budget, check_rules(rules))
    rules = found.rules
    if as_json:
        result = found.as_dict()
        result["state"] = rules.format(rules.parse(state))
        if found.verdict == "optimal":  # what makes it hard: its first moves
            result.update(first_moves(tables, found, budget))
        typer.echo(json.dumps(result))
    else:
        shown = rules.format(rules.parse(state))
        if found.verdict == "unclearable":
            typer.echo(f"{shown}: cannot be cleared (proven: {found.how})")
        elif found.verdict == "unresolved":
            typer.echo(f"{shown}: unresolved within the budget: at least {found.lower_bound} "
                       f"moves, no solution found ({found.how}); raise --budget")
        else:
            words = ("optimal" if found.verdict == "optimal" else
                     f"best found, at least {found.lower_bound} moves")
            typer.echo(f"{shown}: {found.length} moves ({words}; {found.how})")
            for step, (source, destination) in enumerate(found.moves, 1):
                typer.echo(f"{step:>4}  {source} -> {destination}  "
                           f"{rules.format(found.states[step])}")
    return {"optimal": 0, "best_found": 2, "unresolved": 2, "unclearable": 1}[found.verdict]
