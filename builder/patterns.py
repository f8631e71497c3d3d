"""Exact search on pattern databases: a plug-in's ``PatternSearch``
(``builder.contract.patterns``) run by the engine's IDA* kernel over its stored pattern
tables, one bound at a time, and the path it finds replayed through the plug-in's own
moves.  The walk (`query path`, `query moves`, `query distance`) reaches it where no full
table answers; `builder verify` checks with it that the estimates never exceed a full
table's distances.  Names no puzzle.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from builder.contract.base import FoundPath, TableLookup
from builder.contract.errors import OneLineError, SearchLimitError, UnreachableError
from builder.contract.parts import Describing, Walking
from builder.contract.patterns import NEVER, PatternSearch, PatternTable
from builder.contract.work import current_budget, report_progress, stop_signal, uncounted


@dataclass(frozen=True)
class Searched:
    """What one search found: the rows of a shortest path (start first), and its work."""

    rows: np.ndarray
    nodes: int
    bounds: int
    """Bounds searched (iterations of deepening)."""
    estimate: int
    """The pattern databases' estimate at the start."""

    @property
    def length(self) -> int:
        return len(self.rows) - 1


_KEPT: dict[tuple, np.ndarray] = {}
_KEPT_LOCK = threading.Lock()
KEPT_SEARCHES = 8
"""Searches' pattern arrays kept in memory between searches (`query moves` searches once
per move; a benchmark once per instance)."""


def _version(tables: TableLookup, table: PatternTable) -> str:
    """The stored table's build (a rebuilt table is another), after checking it exists."""
    parts = table.spec.parts
    name = table.spec.identity["puzzle"]
    missing = (f"no {name} pattern table {'/'.join(parts[1:])}: run `make tables` or "
               f"`builder build {name}{' ' + table.build if table.build else ''}`")
    return str(tables.require(parts, missing=missing).get("build_id", ""))


def _estimates(tables: TableLookup, search: PatternSearch) -> tuple:
    """(values, offsets, groups, group count): every pattern table end to end (one copy
    of a table looked up twice, as on a reflected position), read whole through their
    checksums once and kept while the stored tables are unchanged; where each look-up's
    table starts, and the group each belongs to (renumbered 0, 1, ...)."""
    distinct = list(dict.fromkeys((table.spec.parts, table.array)
                                  for table in search.patterns))
    by_key = {(table.spec.parts, table.array): table for table in search.patterns}
    kept = tuple((*key, _version(tables, by_key[key])) for key in distinct)
    with _KEPT_LOCK:
        values = _KEPT.get(kept)
    if values is None:
        with uncounted():  # read once a server: not the search its time limit is for
            values = np.concatenate([
                np.ascontiguousarray(tables.vector(parts, array).whole(), dtype=np.uint8)
                for parts, array in distinct])
        with _KEPT_LOCK:
            _KEPT[kept] = values
            while len(_KEPT) > KEPT_SEARCHES:
                _KEPT.pop(next(iter(_KEPT)))
    lengths = [tables.vector(parts, array).length for parts, array in distinct]
    starts = np.cumsum([0, *lengths[:-1]])
    offsets = np.array([starts[distinct.index((table.spec.parts, table.array))]
                        for table in search.patterns], np.int64)
    named = sorted({table.group for table in search.patterns})
    groups = np.array([named.index(table.group) for table in search.patterns], np.int64)
    return values, offsets, groups, len(named)


def start_estimate(tables: TableLookup, search: PatternSearch) -> int | None:
    """The pattern databases' estimate at the search's start (None: they say the goal is
    never reached)."""
    values, offsets, groups, count = _estimates(tables, search)
    start = np.asarray(search.start, np.int64)
    found = np.array([values[offsets[p] + start[search.indices_at + p]]
                      for p in range(len(offsets))], np.int64)
    if (found == NEVER).any():
        return None
    return int(max(found[groups == group].sum() for group in range(count)))


def run(tables: TableLookup, search: PatternSearch, unit: str = "moves",
        progress: bool | None = None) -> Searched:
    """A shortest path by IDA* from the search's start to its goal.  UnreachableError when
    the estimates prove there is none; a one-line SearchLimitError naming the bound proved
    when the node budget, the time limit (the search's, or the caller's
    ``work.search_budget`` shared by a question's searches) or the longest path allowed
    is reached first; a server's stop (its time limit, a client gone) as its own error,
    naming the bound too.  Each bound searched is reported (``work.report_progress``:
    a server shows it to the page); ``progress``: a bar of the bounds searched on stderr
    (None: where stderr is a terminal)."""
    from tqdm import tqdm

    from builder.contract.specs import resolved
    from builder.kernels import ida

    values, offsets, groups, count = _estimates(tables, search)
    width = len(search.start)
    rows = np.zeros((search.longest + 1, width), np.int64)
    rows[0] = search.start
    redundant = np.zeros((search.moves, search.moves), np.uint8)
    for previous, following in search.redundant:
        redundant[previous, following] = 1
    step = resolved(search.step)
    parameters = np.ascontiguousarray(search.parameters, dtype=np.int64)
    goal = np.ascontiguousarray(search.goal, dtype=np.int64)
    estimate = start_estimate(tables, search)
    if estimate is None:
        raise UnreachableError(f"{search.how}: the goal can never be reached from here")
    stop = stop_signal()
    budget = current_budget()
    nodes_left, seconds_left = budget.left()
    most_nodes = int(min(search.nodes, nodes_left))
    # the search's own seconds and the caller's; a server's limit is its gate's, which
    # raises ``stop`` with its own reason (a timer of its own here could fire first)
    seconds = min(search.seconds, seconds_left)
    # the limits as the user set them: a question's budget whole, not what is left of it
    named_nodes = budget.nodes if nodes_left < search.nodes else search.nodes
    named_seconds = budget.seconds if seconds_left < search.seconds else search.seconds
    deadline = np.zeros(1, np.uint8)
    timer = None
    if seconds != float("inf"):
        timer = threading.Timer(seconds, deadline.fill, (1,))
        timer.daemon = True
        timer.start()
    bound, nodes, bounds = estimate, 0, 0
    iteration = (ida.iteration_children_first if values.nbytes > ida.CACHED_BYTES
                 else ida.iteration)

    def stopped(words: str) -> SearchLimitError:
        return SearchLimitError(f"{search.how}: {words}: at least {bound} {unit}", bound,
                                budget.spent_nodes + nodes)

    def reported(ended: bool = False) -> None:
        """The bound about to be searched told to whoever follows the search (``ended``:
        none, the kernel has stopped); a server's stop, raised here, names the bound
        proved."""
        try:
            if ended:
                stop.check()
            else:
                report_progress(bound, f"bound {bound} {unit}, {nodes:,} nodes searched")
        except OneLineError as reason:
            raise type(reason)(f"{reason}; {search.how} had proved at least {bound} "
                               f"{unit}") from None

    try:
        with tqdm(desc=search.how, unit=" bound", leave=False,
                  disable=None if progress is None else not progress) as bar:
            while True:
                if bound > search.longest:
                    raise stopped(f"no path of at most {search.longest} {unit} (searched "
                                  f"{nodes:,} nodes)")
                reported()
                bar.set_postfix_str(f"bound {bound}, {nodes:,} nodes", refresh=True)
                status, length, following, made = iteration(
                    step, parameters, values, offsets, groups, np.int64(count),
                    np.int64(search.indices_at), goal, rows, np.int64(bound),
                    np.int64(search.moves), redundant, np.int64(most_nodes - nodes),
                    stop.flag, deadline)
                nodes += int(made)
                bounds += 1
                bar.update(1)
                if status == ida.FOUND:
                    return Searched(rows[:length + 1].copy(), nodes, bounds, estimate)
                if status == ida.STOPPED:
                    reported(ended=True)  # a server's stop: its own reason
                    raise stopped(f"stopped at its time limit ({named_seconds:g} s, "
                                  f"{nodes:,} nodes)")
                if status == ida.OVER_BUDGET:
                    raise stopped(f"stopped at its budget of {named_nodes:,} nodes")
                if following >= ida.UNBOUNDED:
                    raise UnreachableError(f"{search.how}: the goal can never be reached "
                                           "from here")
                bound = int(following)
    finally:
        budget.spent(nodes)
        if timer is not None:
            timer.cancel()


def found_path(puzzle: Any, variant: Any, node: Hashable, search: PatternSearch,
               searched: Searched) -> FoundPath:
    """The search's rows as the plug-in's path: at each step, the one of its ``moves``
    whose position is the next row's, so the path is legal by construction."""
    width = len(search.goal)
    nodes, labels = [node], []
    for row in searched.rows[1:]:
        wanted = tuple(int(value) for value in row[:width])
        move = next((move for move in puzzle.moves(variant, node)
                     if tuple(search.encode(move.state)) == wanted), None)
        if move is None:
            raise RuntimeError(f"{puzzle.name}: step {len(labels) + 1} of the searched path "
                               "is none of the position's moves (the step kernel and the "
                               "moves disagree)")
        node = move.state
        nodes.append(node)
        labels.append(move.label)
    return FoundPath(tuple(nodes), tuple(labels), how=search.how,
                     details={"search": {"nodes": searched.nodes,
                                         "estimate": searched.estimate,
                                         "bounds": searched.bounds}})


def searched_path(puzzle: Any, tables: TableLookup, variant: Any, node: Hashable,
                  target: Hashable, progress: bool | None = None) -> FoundPath | None:
    """A shortest path by the plug-in's pattern search, or None where it offers none."""
    search = Walking.of(puzzle).pattern_search(tables, variant, node, target)
    if search is None:
        return None
    searched = run(tables, search, Describing.of(puzzle).unit, progress)
    found = found_path(puzzle, variant, node, search, searched)
    if not Walking.of(puzzle).at_target(variant, found.nodes[-1], target):
        raise RuntimeError(f"{puzzle.name}: the searched path does not end on the target")
    return found


def check_estimates(puzzle: Any, tables: TableLookup, attributes: dict, read,
                    samples: int, rng) -> tuple[str | None, str]:
    """A full table's distances against the plug-in's pattern databases, at ``samples``
    sampled entries of each of its distance arrays whose positions the plug-in names:
    the estimate at the start of a search never exceeds the distance (admissible).  (What
    is wrong or None, what was checked: "" where no search applies.)"""
    from builder.contract.parts import Cataloguing, Dealing

    if not hasattr(type(puzzle), "pattern_search"):
        return None, ""
    checked = 0
    for distances in Cataloguing.of(puzzle).catalog_distances(attributes):
        values = np.asarray(read(distances.array))
        reached = np.flatnonzero(values != distances.never)
        if not reached.size:
            continue
        entries = rng.choice(reached, size=min(samples, reached.size), replace=False)
        named = Dealing.of(puzzle).entry_positions(attributes, distances, entries, read)
        for entry, (position, target) in zip(entries, named or ()):
            variant = puzzle.variant(position, target, Dealing.of(puzzle).table_options(
                attributes))
            node = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, position))
            goal = Walking.of(puzzle).parse_target(variant, target)
            search = Walking.of(puzzle).pattern_search(tables, variant, node, goal)
            if search is None:
                continue
            estimate = start_estimate(tables, search)
            distance = int(values[entry])
            if estimate is None or estimate > distance:
                return (f"{distances.array}: the pattern databases estimate {position} at "
                        f"{'never' if estimate is None else estimate}, above its "
                        f"{distance}"), ""
            checked += 1
    if not checked:
        return None, ""
    return None, (f"; pattern databases never above the distance at {checked:,} sampled "
                  "positions")
