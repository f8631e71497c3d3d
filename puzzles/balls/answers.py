"""Ball-tube answers at query time: fewest moves to clear any states from the stored
tables (a state's distance is its symmetry class's, found by its class key), fair deals
drawn from a table, and the solver's proven answers at any size (what `query solve`,
`query random balls` and the endpoints under /api/balls print or return: ``cli.py``,
``web.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from builder.contract.base import FoundPath, TableLookup, never_of, stored_distances
from builder.contract.errors import (
    MOST_SOLVER_STATES,
    MissingTableError,
    OneLineError,
    QueryError,
    SearchLimitError,
    UnreachableError,
    check_length,
)
from builder.contract.work import (
    capped_budget,
    current_budget,
    expensive,
    server_budget,
    stop_signal,
    work_seconds,
)
from puzzles.balls.rules import Balls, BallsError
from puzzles.balls.tables import TABLE_LAYOUT


class NotClearableError(UnreachableError):
    """The state can never be cleared."""


class BallsTable:
    """Fewest moves to be cleared for every symmetry class of one (T, c, k) ball-tube game,
    looked up by class key: the first key of every chunk (``class_key_index``, kept by
    the engine) says which one chunk of keys and of moves to read."""

    def __init__(self, tables: TableLookup, rules: Balls):
        self.rules, self.tables = rules, tables
        self.table = ("balls", rules.name)
        try:
            water = {"rules": "water"} if rules.water else {}
            tables.require(self.table, {"puzzle": "balls", "tubes": rules.tubes,
                                        "capacity": rules.capacity, "colours": rules.colours,
                                        "layout": TABLE_LAYOUT, **water})
        except MissingTableError:  # the advice lists the folder: only when it is needed
            built = tables.stored(("balls",))
            raise MissingTableError(
                f"no {'water-sort' if rules.water else 'ball-tube'} table for {rules.tubes} "
                f"tubes of {rules.capacity} with {rules.colours} colours"
                f"{' (built: ' + ', '.join(built) + ')' if built else ''}: run "
                f"`builder balls --tubes {rules.tubes} --capacity {rules.capacity} "
                f"--colours {rules.colours}{' --rules water' if rules.water else ''}`"
                ) from None
        self.where = tables.describe(self.table)
        self.class_key = tables.vector(self.table, "class_key")
        self.moves = tables.vector(self.table, "moves_to_clear")
        self.class_states = tables.vector(self.table, "class_states")

    def moves_of_states(self, states: np.ndarray) -> np.ndarray:
        """Fewest moves to clear for (N, T) tube codes, as the table stores them (its
        type kept, so ``never_of`` of the result is the value of a state never cleared)."""
        keys = self.rules.class_keys(np.asarray(states).reshape(-1, self.rules.tubes))
        chunks, within = np.divmod(self.classes(keys), self.moves.chunk_size)
        found = None
        for number in np.unique(chunks):
            chosen = chunks == number
            stored = self.moves.chunk(int(number))
            if found is None:
                found = np.empty(len(chunks), dtype=stored.dtype)
            found[chosen] = stored[within[chosen]]
        return self.moves.chunk(0)[:0] if found is None else found

    def moves_to_clear(self, state: tuple[int, ...]) -> int:
        """Fewest moves to clear ``state`` as the table stores it (``clearable_in``: None
        for never)."""
        return int(self.moves_of_states(np.array([state]))[0])

    def clearable_in(self, state: tuple[int, ...]) -> int | None:
        """Fewest moves to clear ``state``; None if it can never be cleared."""
        return stored_distances(self.moves_of_states(np.array([state])))[0]

    def classes(self, keys: np.ndarray) -> np.ndarray:
        """Each class key's place in ``class_key`` (the engine's index of its chunks says
        which one chunk of keys to read)."""
        return self.tables.positions(self.table, "class_key", np.asarray(keys, np.int64),
                                     "class_key_index")


def deal_balls(rules: Balls, table: BallsTable, rng: np.random.Generator, min_moves: int = 0,
               clearable: bool = False, distance: int | None = None
               ) -> tuple[tuple[int, ...], int | None]:
    """A starting state (first k tubes full) drawn uniformly from those that meet the
    request (at least ``min_moves``, or exactly ``distance``), with its fewest moves
    (None: never): a class is drawn in proportion to its starting states, then
    one of them by a random relabelling and tube order."""
    keys, moves, starting = _classes_to_deal(rules, table.class_key, table.moves,
                                             table.class_states)
    never = never_of(moves)
    weights = starting
    if distance is not None:
        weights = np.where(moves == distance, starting, 0)
    elif clearable or min_moves:
        weights = np.where((moves != never) & (moves >= min_moves), starting, 0)
    if not weights.sum():
        hardest = moves[(starting > 0) & (moves != never)].max(initial=0)
        asked = f"exactly {distance}" if distance is not None else f"{min_moves} or more"
        raise QueryError(f"no starting state of {rules.name} needs {asked} moves "
                         f"(the hardest needs {hardest})")
    chosen = int(np.searchsorted(np.cumsum(weights), rng.integers(weights.sum()), side="right"))
    codes = rules.codes_of_keys(keys[chosen : chosen + 1])[0]
    while True:  # one of the class's states at random, until its full tubes come first
        relabelled = rules.colour_relabellings[rng.integers(len(rules.colour_relabellings)), codes]
        state = tuple(int(code) for code in rng.permutation(relabelled))
        if all(rules.code_length[code] == rules.capacity for code in state[: rules.colours]):
            return state, stored_distances(moves[chosen : chosen + 1])[0]


@lru_cache(maxsize=4)
def _classes_to_deal(rules: Balls, class_key, moves, class_states
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every class's key, fewest moves and number of starting states, read whole once per
    table a lookup holds (its vectors are the lookup's own): a server or a script deals
    again without reading the table again."""
    keys = class_key.whole()
    return keys, moves.whole(), rules.initial_states_in_classes(keys, class_states.whole())


def rules_of(state: str, rules: str = "balls") -> Balls:
    """The game (tubes, capacity, colours) a state is written in, under ``rules``."""
    return Balls.of_state(check_length(state, "state", BallsError), rules)


# --- any size: the solver where no table answers ----------------------------------------

DEAL_SECONDS = 30.0
"""How long `query random balls --clearable` hunts at sizes no table holds (--seconds)."""

SOLVER_BUDGET = 2_000_000
"""Nodes the solver may generate by default (`--budget`), where no budget is asked: it
bounds the memory too (a state stored at most a node)."""
DEAL_ATTEMPTS = 200
"""Random deals `query random balls` tries before giving up on a difficulty."""


@dataclass(frozen=True)
class Answer:
    """What is known about clearing one state: the verdict, and the solution if any (in
    the state's own tube numbering)."""

    rules: Balls
    verdict: str
    """optimal, unclearable, best_found or unresolved (``solver.Solution``)."""
    states: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[int, int], ...]
    lower_bound: int
    explored: int
    how: str
    nodes: int = 0
    """Nodes the search generated (what a budget counts)."""
    limit: str = ""
    """Where the search stopped unresolved: its limit as the user set it (``budget of N
    nodes``, ``time limit (S s, N nodes)``); empty otherwise."""

    @property
    def length(self) -> int | None:
        return len(self.moves) if self.states else None

    def as_dict(self) -> dict[str, Any]:
        return {"state": self.rules.format(self.states[0]) if self.states else None,
                "verdict": self.verdict, "length": self.length,
                "lower_bound": self.lower_bound, "moves": [list(m) for m in self.moves],
                "states": [self.rules.format(s) for s in self.states],
                "explored": self.explored, "nodes": self.nodes, "how": self.how}


def searched(rules: Balls, start: tuple[int, ...], budget: int | None = None,
             greedy: bool = True, seconds: float | None = None) -> Answer:
    """The solver's answer for one state (``solver.py``), its solution replayed in the
    state's own tube numbering.  ``budget``: nodes the search may generate (None: what
    is left of the caller's ``work.search_budget``, else ``SOLVER_BUDGET``); ``seconds``
    and the caller's seconds end it too (unresolved, its ``limit`` saying which); a
    server's stop ends it with the server's reason.  ``greedy``: keep a share of the
    budget for some solution (``best_found``) should the A* run out."""
    import threading

    from puzzles.balls.rules import tube_moves
    from puzzles.balls.solver import canonical, solve

    tubes = rules.tubes_of_state(start)
    asked = current_budget()
    nodes_left, seconds_left = asked.left()
    if asked.nodes is not None and (budget is None or nodes_left < budget):
        budget, named_nodes = int(nodes_left), asked.nodes  # the question's budget binds
    else:
        if budget is None:  # the default, within a server's cap
            budget = server_budget(SOLVER_BUDGET)
        named_nodes = budget
    if budget > MOST_SOLVER_STATES:  # its memory: a state stored at most a node generated
        raise QueryError(f"a budget of {named_nodes:,} nodes is over the ball solver's "
                         f"most, {MOST_SOLVER_STATES:,} (it stores up to a state a node): "
                         "ask for fewer")
    allowed = capped_budget(budget, "budget")  # refused at once, not after a slot's wait
    asked_seconds = float("inf") if seconds is None else seconds
    limit = min(asked_seconds, seconds_left)
    named_seconds = asked.seconds if seconds_left < asked_seconds else seconds
    deadline = np.zeros(1, np.uint8)
    timer = None
    with expensive("the ball solver"):
        stop = stop_signal()
        if limit != float("inf"):
            timer = threading.Timer(limit, deadline.fill, (1,))
            timer.daemon = True
            timer.start()
        try:
            found = solve(tubes, rules.colours, rules.capacity, allowed, water=rules.water,
                          greedy=greedy, stop=stop.flag, deadline=deadline)
        finally:
            if timer is not None:
                timer.cancel()
        asked.spent(found.nodes)
        if found.stopped:
            try:
                stop.check()  # a server's stop: its own reason, with what was proved
            except OneLineError as reason:
                raise type(reason)(f"{reason}; the ball solver had proved at least "
                                   f"{found.lower_bound} moves") from None
    how = f"search: A* over {found.explored:,} states"
    limit_named = ""
    if found.verdict in ("best_found", "unresolved"):
        limit_named = (f"time limit ({named_seconds:g} s, {found.nodes:,} nodes)"
                       if found.stopped else f"budget of {named_nodes:,} nodes")
    if not found.states:
        return Answer(rules, found.verdict, (), (), found.lower_bound, found.explored, how,
                      found.nodes, limit_named)
    states, moves = [start], []
    for wanted in found.states[1:]:
        for source, destination, following in tube_moves(tubes, rules.capacity,
                                                         rules.water):
            if canonical(following) == wanted:
                break
        else:
            raise RuntimeError("the solver's solution does not replay")  # a bug, not input
        tubes = following
        states.append(rules.state_of_tubes(tubes))
        moves.append((source, destination))
    return Answer(rules, found.verdict, tuple(states), tuple(moves), found.lower_bound,
                  found.explored, how, found.nodes, limit_named)


def answer(tables: TableLookup, state: str, budget: int | None = None,
           rules_name: str = "balls") -> Answer:
    """A state's answer under the rules named (balls or water): by table walk where a
    table holds its game, else by the solver (``budget``: nodes, as ``searched``)."""
    rules = rules_of(state, rules_name)
    return answer_of(tables, rules, rules.parse(state), budget)


def first_moves(tables: TableLookup, found: Answer, budget: int | None = None
                ) -> dict[str, int]:
    """What makes a deal hard, for a level designer: its legal first moves, how many of
    them keep it clearable, how many keep it optimal (one move nearer), and how many the
    solver could not decide within ``budget`` nodes (each first move's state answered as
    the deal is: table walk or solver, each search with the whole budget)."""
    from puzzles.balls.rules import tube_moves

    rules = found.rules
    start = found.states[0] if found.states else None
    counts = {"first_moves": 0, "clearable_first_moves": 0, "optimal_first_moves": 0,
              "undecided_first_moves": 0}
    if start is None:  # unclearable (or unresolved): no first move keeps it clearable
        return counts
    for _, _, following in tube_moves(rules.tubes_of_state(start), rules.capacity,
                                      rules.water):
        after = answer_of(tables, rules, rules.state_of_tubes(following), budget)
        counts["first_moves"] += 1
        if after.verdict in ("optimal", "best_found"):
            counts["clearable_first_moves"] += 1
        if after.verdict == "optimal" and after.length == found.length - 1:
            counts["optimal_first_moves"] += 1
        if after.verdict == "unresolved":
            counts["undecided_first_moves"] += 1
    return counts


def answer_of(tables: TableLookup, rules: Balls, start: tuple[int, ...],
              budget: int | None = None) -> Answer:
    """``answer`` for a parsed state."""
    try:
        table = BallsTable(tables, rules)
    except MissingTableError:
        return searched(rules, start, budget)
    from puzzles.balls import BallsPuzzle

    if table.clearable_in(start) is None:
        return Answer(rules, "unclearable", (), (), 0, 0, "table")
    found = tables.walk(BallsPuzzle(), rules, start, "cleared")  # as `query path` walks
    moves = tuple(tuple(int(tube) for tube in label.split(" -> ")) for label in found.labels)
    return Answer(rules, "optimal", found.nodes, moves, found.length, 0, found.how)


def search_path(rules: Balls, start: tuple[int, ...], budget: int | None = None
                ) -> FoundPath:
    """A proven shortest way to clear ``start`` by the solver (the engine's fallback where
    no table answers: within the question's ``--budget`` and ``--seconds``)."""
    found = proven(rules, start, budget)
    return FoundPath(found.states, tuple(f"{s} -> {d}" for s, d in found.moves),
                     found.how + ", proven optimal")


def proven(rules: Balls, start: tuple[int, ...], budget: int | None = None) -> Answer:
    """The solver's answer when it proves a shortest solution (the A* with the whole
    budget); NotClearableError when it proves there is none, a SearchLimitError naming
    the fewest moves proved when its budget or time runs out first."""
    found = searched(rules, start, budget, greedy=False)
    if found.verdict == "unclearable":
        raise NotClearableError(f"{rules.format(start)} can never be cleared (every one of "
                                f"the {found.explored:,} states it reaches explored)")
    if found.verdict != "optimal":
        raise SearchLimitError(f"the ball solver's A*: stopped at its {found.limit}: at "
                               f"least {found.lower_bound} moves", found.lower_bound,
                               found.nodes)
    return found


def random_start(rules: Balls, rng: np.random.Generator) -> tuple[int, ...]:
    """A uniformly random starting state: the balls shuffled into the first tubes, full,
    the rest empty."""
    balls = np.repeat(np.arange(rules.colours), rules.capacity)
    rng.shuffle(balls)
    full = [[int(ball) for ball in balls[t * rules.capacity:(t + 1) * rules.capacity]]
            for t in range(rules.colours)]
    return rules.state_of_tubes(full + [[]] * (rules.tubes - rules.colours))


HOPELESS_DEALS = 40
"""Random deals all proven unclearable after which a size is said to be (almost) never
clearable, at once, instead of hunting on."""


def deal_any(colours: int, capacity: int, empty: int, min_moves: int,
             rng: np.random.Generator, budget: int | None = None,
             seconds: float = DEAL_SECONDS, progress: bool = False,
             water: bool = False) -> Answer:
    """A random starting game (colours tubes full, ``empty`` empty) that the solver proves
    clearable in at least ``min_moves`` moves (fewest): deals are drawn uniformly until
    one qualifies, for at most ``DEAL_ATTEMPTS`` deals and ``seconds`` (the deal being
    searched then is stopped where it stands; a server's limit stops it too, with the
    server's reason)."""
    import time

    from tqdm import tqdm

    rules = Balls(colours + empty, capacity, colours, water=water)
    started = time.monotonic()
    deadline = started + work_seconds(seconds)
    # a deal searched when ``seconds`` end stops there; a server's earlier limit is its
    # gate's, which stops the request with its own reason
    own_deadline = started + seconds
    tried, unclearable, longest = 0, 0, None
    with tqdm(total=DEAL_ATTEMPTS, desc="deals tried", unit="deal",
              disable=None if progress else True, leave=False) as bar:  # None: a terminal's
        while tried < DEAL_ATTEMPTS and time.monotonic() < deadline:
            found = searched(rules, random_start(rules, rng), budget, greedy=False,
                             seconds=max(0.0, own_deadline - time.monotonic()))
            tried += 1
            bar.update()
            if found.verdict == "optimal":
                if found.length >= min_moves:
                    return found
                longest = max(longest or 0, found.length)
            unclearable += found.verdict == "unclearable"
            if unclearable == tried >= HOPELESS_DEALS:
                break  # this size is (almost) never clearable: say so now
    size = (f"{colours} colours in tubes of {capacity} with {empty} empty "
            f"tube{'s' if empty > 1 else ''}")
    if longest is None:
        proven = "each proven unclearable" if unclearable == tried else (
            f"{unclearable} proven unclearable, the others unresolved")
        raise QueryError(f"no deal of {size} could be cleared: {tried} random deals tried, "
                         f"{proven}; add an empty tube (or fewer colours)")
    raise QueryError(f"no deal of {size} needing {min_moves}+ moves in {tried} tries "
                     f"({time.monotonic() - started:.0f} s; the longest clearable one "
                     f"needed {longest}): ask for fewer moves")
