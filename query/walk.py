"""Shortest paths by walking stored tables, for any walkable plug-in (no search at query
time unless the plug-in offers one where no table answers).

From each node the walk takes the first legal move whose node is exactly one move nearer
the target, reading the distances of all of a node's successors at once through the
plug-in's ``distances`` hook and refusing a node where they contradict its own
(``check_recurrence``: a table altered with its checksums recomputed); every puzzle's `query path` and the page's hints come
through ``walk_node``, and one printer (`query path`) shows what it returns; ``move_values``
gives every legal move's distance after it (`query moves`).  Where no table answers, a
plug-in's search stands in, or on request its instant approximate solver (the page's
hints).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from builder import reader
from builder.contract.base import FoundPath, Move
from builder.contract.errors import (
    CorruptTableError,
    MissingTableError,
    OneLineError,
    PuzzleInputError,
    QueryError,
    SearchLimitError,
    UnreachableError,
    check_length,
)
from builder.contract.puzzle import Walking, walkable
from builder.contract.work import expensive

__all__ = ["FoundPath", "MoveValue", "PluginFaultError", "Tables", "UnreachableError",
           "answered_distance", "check_recurrence", "distance_between", "legal_moves",
           "move_values", "walk", "walk_node"]


class PluginFaultError(QueryError):
    """A plug-in's ``moves`` raised, or answered something that is no list of moves: the
    plug-in is at fault, not the question (the web answers 500, naming it)."""


def legal_moves(puzzle, variant, node) -> list[Move]:
    """The plug-in's moves from ``node``, checked: a failing plug-in is one line naming
    it, never a traceback nor a bare "internal error" from deeper in the walk."""
    try:
        answered = puzzle.moves(variant, node)
        options = list(answered) if isinstance(answered, Iterable) else None
    except OneLineError:  # the plug-in's own message for a position it refuses
        raise
    except Exception as error:  # noqa: BLE001 (any failure of a plug-in is one line)
        raise PluginFaultError(f"plug-in {puzzle.name}: its moves raised "
                               f"{type(error).__name__}: {str(error)[:200]}") from None
    wrong = (answered if options is None else
             next((move for move in options if not (isinstance(move, Move)
                                                    and isinstance(move.label, str))), None))
    if options is None or wrong is not None:
        raise PluginFaultError(f"plug-in {puzzle.name}: its moves gave {repr(wrong)[:60]}, "
                               "not a list of moves (Move(label, state) each)")
    return options


class Tables(reader.Tables):
    """The stored tables as the read side lends them to a plug-in: the data layout's
    reader, and the walk over it (``TableLookup.walk``, for a plug-in's own commands that
    answer with a path)."""

    def walk(self, puzzle, variant, start, target) -> FoundPath:
        return walk(puzzle, self, variant, start, target)


def question(puzzle, options: dict, start: str, target: str | None, no_goal: str
             ) -> tuple:
    """(variant, position, goal) of a question in the puzzle's notation: the target
    defaults to the puzzle's goal, and a puzzle with none is a QueryError saying
    ``no_goal``; positions must be walkable."""
    if not walkable(puzzle):
        raise QueryError(f"{puzzle.name} has no positions to walk")
    checked_notation(start, target)
    variant = puzzle.variant(start, target or "", options)
    if target is None:
        target = puzzle.default_target(variant)
        if target is None:
            raise QueryError(no_goal)
    return (variant, puzzle.parse(variant, start),
            Walking.of(puzzle).parse_target(variant, target))


def checked_notation(start, target: str | None = None) -> None:
    """Refuse, in one line and before any work, a position or target longer than any
    notation is (``MAX_INPUT_CHARACTERS``): every question in a puzzle's notation, from
    the command line, the Python API or the web, is asked through here (and refuse
    anything but text: the API's caller may pass anything)."""
    for what, text in (("position", start), ("target", target)):
        if text is None and what == "target":
            continue
        if not isinstance(text, str):
            raise PuzzleInputError(f"a {what} is a string in the puzzle's notation, not "
                                   f"{type(text).__name__} {repr(text)[:40]}")
        check_length(text, what)


def walk(puzzle, tables, variant, start, target, best_so_far: bool = False) -> FoundPath:
    """A shortest path from position ``start`` to ``target`` by table walk; where the
    table is missing, the plug-in's own search (``search_path``) if it offers one, else the
    engine's between two positions (``builder.pair_search``).  ``best_so_far``: see
    ``walk_node``."""
    return walk_node(puzzle, tables, variant, Walking.of(puzzle).start_node(variant, start), target,
                     start, best_so_far=best_so_far)


def walk_node(puzzle, tables, variant, node, target, position, approximate: bool = False,
              best_so_far: bool = False) -> FoundPath:
    """A shortest path from walk node ``node`` (whose position is ``position``) to
    ``target``: a game in progress may carry more than its position (say, the square
    clicked last).  Where no table answers: the plug-in's search, or with ``approximate``
    first its instant ``approximate_path`` (a player's hint; its ``optimal`` is False);
    where neither a table nor a search answers, the approximate path all the same (a
    variant that asks for it by name, such as a method option naming the solver).
    ``best_so_far``, where the caller limits the search (``search_budget``): the
    approximate path improved by the exact search while the limit allows, rather than
    nothing when the search runs out (``best_within_limits``)."""
    walking = Walking.of(puzzle)
    try:
        remaining = puzzle.distance(tables, variant, node, target)
    except MissingTableError:
        found = None
        if approximate:
            try:
                found = walking.approximate_path(tables, variant, node, target)
            except MissingTableError:  # the solver's own tables are missing: search
                found = None
        if found is None:
            found = _searched(puzzle, tables, variant, node, target, best_so_far)
        if found is None and not approximate:
            found = walking.approximate_path(tables, variant, node, target)
        if found is None:
            raise
        return found
    if not remaining:  # 0 or never: one step of the recurrence, as every other node's
        check_recurrence(puzzle, tables, variant, node, target, remaining)
    if remaining is None:
        raise UnreachableError(walking.explain_unreachable(variant, position, target))
    nodes, labels = [node], []
    distances = walking.distances  # looked up once: a walk asks at every step
    while remaining > 0:
        # every move's distance, not just the first one nearer: a node none of whose
        # moves is nearer than one less is what makes the path the shortest
        options = legal_moves(puzzle, variant, node)
        after = list(distances(tables, variant, [move.state for move in options], target))
        check_recurrence(puzzle, tables, variant, node, target, remaining, after)
        move = options[after.index(remaining - 1)]
        node, remaining = move.state, remaining - 1
        nodes.append(node)
        labels.append(move.label)
    if not walking.at_target(variant, node, target):
        raise CorruptTableError(f"the {puzzle.name} tables: the walk did not end on the "
                                "target; rebuild them (`make tables FORCE=1`)")
    return FoundPath(tuple(nodes), tuple(labels))


def _searched(puzzle, tables, variant, node, target, best_so_far: bool = False
              ) -> FoundPath | None:
    """The plug-in's search where no table answers (IDA* on its pattern databases, else
    its own): expensive work (``builder.contract.work``: a server runs a few at a time,
    within its limits).  ``best_so_far``: ``best_within_limits`` first."""
    from builder.pair_search import pair_path
    from builder.patterns import searched_path

    with expensive(f"the {puzzle.name} search"):
        found = (best_within_limits(puzzle, tables, variant, node, target) if best_so_far
                 else None)
        found = found or searched_path(puzzle, tables, variant, node, target)
        return (found or Walking.of(puzzle).search_path(variant, node, target)
                or pair_path(puzzle, variant, node, target))


def best_within_limits(puzzle, tables, variant, node, target) -> FoundPath | None:
    """Where the caller limits the search (nodes or seconds: ``search_budget``) and the
    plug-in has both an exact pattern search and an instant approximate solver: the
    approximate path at once, then the exact search for a shorter one within what is left
    of the limit.  The exact search's path where it finds one (shortest); the approximate
    path marked shortest where the search proved none shorter exists; else the
    approximate path, not proved, with the fewest moves the search proved
    (``details["lower_bound"]``).  None where the caller set no limit, or the plug-in
    lacks either search (the exact search alone then answers, or stops)."""
    from dataclasses import replace

    from builder import patterns
    from builder.contract.puzzle import Describing
    from builder.contract.work import current_budget

    budget = current_budget()
    if budget.nodes is None and budget.seconds is None:
        return None
    walking = Walking.of(puzzle)
    search = walking.pattern_search(tables, variant, node, target)
    if search is None:
        return None
    try:
        first = walking.approximate_path(tables, variant, node, target)
    except MissingTableError:
        return None
    if first is None:
        return None
    if not first.labels:  # already there: no path is shorter
        return replace(first, optimal=True, details={**first.details, "lower_bound": 0})
    unit = Describing.of(puzzle).unit
    try:
        searched = patterns.run(tables, replace(search, longest=first.length - 1), unit)
    except SearchLimitError as stopped:
        proved = min(stopped.lower_bound or 0, first.length)
        if proved == first.length:  # no path shorter than the approximate one
            return replace(first, optimal=True, how=f"{first.how}; {search.how} finds "
                           "none shorter", details={**first.details, "lower_bound": proved})
        return replace(first, details={**first.details, "lower_bound": proved,
                                       "stopped": str(stopped)})
    found = patterns.found_path(puzzle, variant, node, search, searched)
    if not walking.at_target(variant, found.nodes[-1], target):
        raise RuntimeError(f"{puzzle.name}: the searched path does not end on the target")
    return replace(found, details={**found.details, "lower_bound": found.length,
                                   "approximate": {"how": first.how,
                                                   "length": first.length}})


def distance_between(puzzle, tables, variant, start, target) -> int | None:
    """Fewest moves from position ``start`` to ``target`` (None: never): the table's value,
    or the length of the plug-in's search where no table answers."""
    node = Walking.of(puzzle).start_node(variant, start)
    return _node_distance(puzzle, tables, variant, node, target)


@dataclass(frozen=True)
class MoveValue:
    label: str
    node: object
    distance: int | None
    """Fewest moves to the target after this move (None: never)."""


def answered_distance(puzzle, tables, variant, node, target, search: bool = True
                      ) -> tuple[int | None, str, str]:
    """A node's distance and what answered it: ``(distance, "table", "")`` from the
    tables; where they lack it and ``search`` is asked for, the plug-in's search,
    ``(length or None when unreachable, "search", how)``, ``how`` naming the search
    (``FoundPath.how``; "" where it proved the target unreachable); else ``(None,
    "none", why)`` with the missing table's message."""
    try:
        distance = puzzle.distance(tables, variant, node, target)
    except MissingTableError as missing:
        if not search:
            return None, "none", str(missing)
        try:
            found = _searched(puzzle, tables, variant, node, target)
        except UnreachableError:
            return None, "search", ""
        if found is None:
            return None, "none", str(missing)
        if not found.optimal:  # a path, not a distance: never answered as one
            return None, "none", f"{found.how} finds a path, not the fewest moves"
        return found.length, "search", found.how
    check_recurrence(puzzle, tables, variant, node, target, distance)
    return distance, "table", ""


def check_recurrence(puzzle, tables, variant, node, target, distance: int | None,
                     after: list[int | None] | None = None) -> None:
    """Refuse (CorruptTableError, one line) a distance read from the tables that one step
    of the shortest-path recurrence contradicts: 0 exactly where the walk has arrived,
    else some move one nearer and none nearer than that, or none reaching the target
    where the distance is "never".  ``after``: the distances after each legal move, where
    the caller has read them already.  Checksums catch damage; this catches a table
    whose values were altered and its checksums recomputed, before it is ever printed."""
    walking = Walking.of(puzzle)
    if after is None:
        after = list(walking.distances(tables, variant,
                                       [move.state for move in legal_moves(puzzle, variant,
                                                                           node)],
                                       target))
    reachable = [value for value in after if value is not None]
    nearest = min(reachable) if reachable else None
    arrived = walking.at_target(variant, node, target)
    if arrived:
        consistent = distance == 0
    elif distance is None:
        consistent = nearest is None
    else:
        consistent = distance > 0 and nearest == distance - 1
    if not consistent:
        said = "never" if distance is None else distance
        raise CorruptTableError(
            f"the {puzzle.name} tables contradict themselves at "
            f"{puzzle.format(variant, node)}: it holds {said}, but "
            + ("it is the target" if arrived else
               f"its nearest move leads to {'never' if nearest is None else nearest}")
            + "; rebuild them (`make tables FORCE=1`)")


def _node_distance(puzzle, tables, variant, node, target) -> int | None:
    """A node's distance: the table's, or the length of the plug-in's search where no
    table answers (None: never); the missing table's error when neither answers."""
    distance, answered_by, missing = answered_distance(puzzle, tables, variant, node, target)
    if answered_by == "none":
        raise MissingTableError(missing)
    return distance


def move_values(puzzle, tables, variant, node, target) -> tuple[int | None, list[MoveValue]]:
    """The distance from ``node`` and every legal move with the distance after it (by the
    plug-in's search, a move at a time, where no table answers)."""
    options = legal_moves(puzzle, variant, node)
    try:
        here = puzzle.distance(tables, variant, node, target)
        after = list(Walking.of(puzzle).distances(tables, variant,
                                                  [move.state for move in options], target))
    except MissingTableError:  # the plug-in's search answers, one move at a time
        here = _node_distance(puzzle, tables, variant, node, target)
        after = [_searched_after(puzzle, tables, variant, move, target) for move in options]
    else:  # the values read already are the recurrence's step
        check_recurrence(puzzle, tables, variant, node, target, here, after)
    return here, [MoveValue(move.label, move.state, distance)
                  for move, distance in zip(options, after)]


def _searched_after(puzzle, tables, variant, move, target) -> int | None:
    """The distance after ``move`` where a search answers it; a search stopped at its
    limit says after which move."""
    try:
        return _node_distance(puzzle, tables, variant, move.state, target)
    except SearchLimitError as stopped:
        raise SearchLimitError(f"after {move.label}: {stopped}", stopped.lower_bound,
                               stopped.nodes, move.label) from None
