"""Ball-tube answers from the stored tables: fewest moves to clear any states (a state's
distance is its symmetry class's, found by its class key), a shortest way to clear by
table walk, and fair deals drawn from a table; `query path` in the tubes' own layout,
`query random balls`, and the web endpoints under /api/balls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import typer

from builder.puzzles import CorruptTableError, QueryError, UnreachableError, check_length
from builder.puzzles.balls import TABLE_LAYOUT, Balls, BallsError, check_cleared
from builder.puzzles.base import TableLookup

UNREACHABLE = 255


class NotClearableError(UnreachableError):
    """The state can never be cleared."""


class BallsTable:
    """Fewest moves to be cleared for every symmetry class of one (T, c, k) ball-tube game,
    looked up by class key: the first key of every chunk (``key_index``) says which one
    chunk of keys and of moves to read."""

    def __init__(self, tables: TableLookup, rules: Balls):
        self.rules, self.tables = rules, tables
        self.table = ("balls", rules.name)
        built = tables.stored(("balls",))
        tables.require(self.table, {"puzzle": "balls", "tubes": rules.tubes,
                                    "capacity": rules.capacity, "colours": rules.colours,
                                    "layout": TABLE_LAYOUT},
                       f"no ball-tube table for {rules.tubes} tubes of {rules.capacity} with "
                       f"{rules.colours} colours"
                       f"{' (built: ' + ', '.join(built) + ')' if built else ''}: run "
                       f"`builder balls --tubes {rules.tubes} --capacity {rules.capacity} "
                       f"--colours {rules.colours}`")
        self.where = tables.describe(self.table)
        self.class_key = tables.vector(self.table, "class_key")
        self.moves = tables.vector(self.table, "moves_to_clear")
        self.class_states = tables.vector(self.table, "class_states")

    def moves_of_states(self, states: np.ndarray) -> np.ndarray:
        """Fewest moves to clear (255: never) for (N, T) tube codes."""
        keys = self.rules.class_keys(np.asarray(states).reshape(-1, self.rules.tubes))
        classes = self.tables.positions(self.table, "class_key", keys, "key_index")
        chunks, within = np.divmod(classes, self.moves.chunk_size)
        found = np.empty(len(classes), dtype=np.int64)
        for number in np.unique(chunks):
            chosen = chunks == number
            found[chosen] = self.moves.chunk(int(number))[within[chosen]]
        return found

    def moves_to_clear(self, state: tuple[int, ...]) -> int:
        return int(self.moves_of_states(np.array([state]))[0])


@dataclass(frozen=True)
class BallsPath:
    states: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.moves)


def balls_path(rules: Balls, table: BallsTable, start: tuple[int, ...]) -> BallsPath:
    """A shortest sequence of moves from ``start`` to a cleared state, by table walk: each
    step takes the first legal move into a class one move nearer (all of a state's moves
    looked up at once)."""
    remaining = table.moves_to_clear(start)
    if remaining == UNREACHABLE:
        raise NotClearableError(f"{rules.format(start)} can never be cleared")
    state, states, moves = start, [start], []
    while remaining > 0:
        options = rules.legal_moves(state)
        distances = table.moves_of_states(np.array([following for *_, following in options]))
        nearer = np.flatnonzero(distances == remaining - 1) if options else []
        if not len(nearer):
            raise CorruptTableError(f"table {table.where} is inconsistent at "
                                    f"{rules.format(state)}: rebuild it")
        source, destination, state = options[int(nearer[0])]
        remaining -= 1
        states.append(state)
        moves.append((source, destination))
    if not rules.is_cleared(state):
        raise CorruptTableError(f"table {table.where}: the walk ended on an uncleared state")
    return BallsPath(tuple(states), tuple(moves))


def deal_balls(rules: Balls, table: BallsTable, rng: np.random.Generator, min_moves: int = 0,
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


def rules_of(state: str) -> Balls:
    """The game (tubes, capacity, colours) a state is written in."""
    return Balls(*Balls.shape_of(check_length(state, "state", BallsError)))


def game_of(tables: TableLookup, state: str) -> tuple[Balls, tuple[int, ...], BallsTable]:
    rules = rules_of(state)
    parsed = rules.parse(state)
    return rules, parsed, BallsTable(tables, rules)


def print_path(tables: TableLookup, start: str, target: str, as_json: bool) -> None:
    """`query path STATE cleared`: the moves from tube to tube (tubes from 0)."""
    check_cleared(target)
    rules, start_state, table = game_of(tables, start)
    found = balls_path(rules, table, start_state)
    states = [rules.format(s) for s in found.states]
    if as_json:
        typer.echo(json.dumps({"start": states[0], "target": states[-1], "length": found.length,
                               "moves": [list(m) for m in found.moves], "states": states}))
        return
    typer.echo(f"{states[0]} -> cleared: {found.length} moves (shortest, table walk)")
    width = max(len(states[0]), 5)
    typer.echo(f"{'step':<5} {'state':<{width}}  move (tubes from 0)")
    for step, state in enumerate(states):
        move = f"{found.moves[step][0]} -> {found.moves[step][1]}" if step < found.length else (
            "cleared")
        typer.echo(f"{'init' if step == 0 else step:<5} {state:<{width}}  {move}")


def deal(
    *,
    clearable: Annotated[bool, typer.Option("--clearable", help="Only a game that can be "
                                            "cleared.")] = False,
    min_moves: Annotated[int, typer.Option("--min-moves", help="At least this many moves "
                                           "(implies --clearable).", min=0, max=255)] = 0,
    tubes: Annotated[int, typer.Option(help="Tubes.")] = 4,
    capacity: Annotated[int, typer.Option(help="Balls per tube.")] = 4,
    colours: Annotated[int, typer.Option(help="Colours.")] = 3,
    seed: Annotated[int | None, typer.Option(help="Random seed, 0 or more (default: fresh).",
                                             min=0, max=2**63 - 1)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    tables: Any = None,
) -> None:
    """Deal a random starting state (the first tubes full, the rest empty), optionally one
    that can be cleared and needs at least N moves: the document's fair games. Drawn
    uniformly from the starting states that qualify.

    Example: query random balls --clearable --min-moves 15
    """
    rules = Balls(tubes, capacity, colours)
    state, moves = deal_balls(rules, BallsTable(tables, rules), np.random.default_rng(seed),
                              min_moves, clearable)
    result = {"state": rules.format(state), "clearable": moves != 255,
              "moves": None if moves == 255 else moves}
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(f"{result['state']}  " + (f"clearable in {moves} moves" if moves != 255
                                             else "can never be cleared"))


def routes(tables: TableLookup):
    """The endpoints under /api/balls: path, solvable, move, random."""
    from fastapi import APIRouter, Query

    from builder.puzzles import notation_query as notation

    router = APIRouter()

    @router.get("/path")
    def path(state: str = notation()):
        """The shortest way to clear STATE (the CLI's `query path STATE cleared --json`)."""
        rules, parsed, table = game_of(tables, state)
        found = balls_path(rules, table, parsed)
        states = [rules.format(s) for s in found.states]
        return {"start": states[0], "target": states[-1], "length": found.length,
                "moves": [list(m) for m in found.moves], "states": states}

    @router.get("/solvable")
    def solvable(state: str = notation()):
        """Whether STATE can be cleared, and in how few moves."""
        rules, parsed, table = game_of(tables, state)
        moves = table.moves_to_clear(parsed)
        return {"state": rules.format(parsed), "clearable": moves != 255,
                "moves": None if moves == 255 else moves}

    @router.get("/move")
    def move(state: str = notation(), source: int = Query(), target: int = Query()):
        """The state after moving the top ball of tube SOURCE onto tube TARGET (0-based)."""
        rules = rules_of(state)
        for from_tube, to_tube, following in rules.legal_moves(rules.parse(state)):
            if (from_tube, to_tube) == (source, target):
                return {"state": rules.format(following)}
        raise QueryError(f"tube {source} -> tube {target} is not a legal move")

    @router.get("/random")
    def random_deal(min_moves: int = Query(0, ge=0, le=255),
                    seed: int | None = Query(None, ge=0, lt=2**63)):
        """A random starting game that can be cleared in at least MIN_MOVES moves."""
        rules = Balls(4, 4, 3)
        state, moves = deal_balls(rules, BallsTable(tables, rules),
                                  np.random.default_rng(seed), min_moves, clearable=True)
        return {"state": rules.format(state), "clearable": True, "moves": moves}

    return router
