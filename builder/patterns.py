"""Exact search on pattern databases: a plug-in's ``PatternSearch``
(``builder.contract.patterns``) run by the engine's IDA* kernel over its stored pattern
tables, one bound at a time, and the path it finds replayed through the plug-in's own
moves.  The walk (`query path`, `query moves`, `query distance`) reaches it where no full
table answers; `builder verify` checks with it that the estimates never exceed a full
table's distances.  Names no puzzle.

A search trusts nothing a pattern table says about itself: before any search reads a
table, its length and type are those its spec's ranking needs (the kernel never reads
past it) and its values obey the spec's shortest-path recurrence, at every entry of a
small table and at sampled entries of a large one; then at the entries the search reads
at its start and along the path it found.  An array of least values (a fold, or a search
folded as it ran) obeys no recurrence: a large one is held to 0 at its goal's entry, and
`builder verify` re-derives it whole.  A table that fails is refused with a one-line
error.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from builder.contract.base import FoundPath, TableLookup
from builder.contract.errors import (
    CorruptTableError,
    OneLineError,
    SearchLimitError,
    UnreachableError,
)
from builder.contract.patterns import NEVER, PatternSearch, PatternTable
from builder.contract.puzzle import Describing, Walking
from builder.contract.work import current_budget, report_progress, stop_signal, uncounted
from builder.reader import Tables


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
WHOLLY_CHECKED_ENTRIES = 1 << 20
"""Pattern tables up to this many entries have their recurrence checked at every entry
when a search loads them (milliseconds); larger ones at ``SAMPLED_ENTRIES`` entries drawn
at random, and at those a search reads at its start and along its path."""
SAMPLED_ENTRIES = 1 << 14
REBUILD = "rebuild it (`make tables FORCE=1`)"
COUNT_SECONDS = 0.25
"""How often a pass's growing count of nodes is told to whoever follows the search."""


def _version(tables: TableLookup, table: PatternTable) -> tuple:
    """The stored table's build and where it is (a rebuilt or altered table is another),
    after checking it exists and is the table its spec describes (not one moved into its
    folder)."""
    parts = table.spec.parts
    name = table.spec.identity["puzzle"]
    missing = (f"no {name} pattern table {'/'.join(parts[1:])}: run `make tables` or "
               f"`builder build {name}{' ' + table.build if table.build else ''}`")
    build = str(tables.require(parts, dict(table.spec.identity), missing).get("build_id", ""))
    where = tables.describe(parts)
    try:  # a forger keeps the build's name: the checksum record changes with any byte
        stamp = os.stat(os.path.join(where, "checksums.json"))
        return build, where, stamp.st_ino, stamp.st_mtime_ns, stamp.st_size
    except OSError:
        return build, where


def _required_length(table: PatternTable) -> int:
    """The entries its spec's ranking numbers in the array a search looks up."""
    spec, array = table.spec, table.array
    if array in spec.searches:
        return spec.searches[array].states // spec.searches[array].folded
    if array in spec.folds:
        fold = spec.folds[array]
        return spec.searches[fold.source].states // fold.width
    raise ValueError(f"{'/'.join(spec.parts)}: its spec declares no array {array!r}")


def _read(tables: TableLookup, parts: tuple[str, ...], array: str, length: int
          ) -> np.ndarray:
    """A stored array whole, refused unless it holds bytes and ``length`` entries."""
    where = f"table {tables.describe(parts)}: {array}"
    values = tables.vector(parts, array).whole()
    if values is None or values.ndim != 1 or values.dtype != np.uint8:
        kind = "unreadable" if values is None else f"{values.dtype} of {values.ndim} dimension(s)"
        raise CorruptTableError(f"{where} is {kind}, not a vector of bytes: {REBUILD}")
    if len(values) != length:
        raise CorruptTableError(f"{where} holds {len(values):,} entries, the ranking of its "
                                f"spec needs {length:,}: {REBUILD}")
    return np.ascontiguousarray(values)


def _checked(tables: TableLookup, table: PatternTable, values: np.ndarray) -> None:
    """One pattern table's values (read by ``_read``: the length its ranking needs) as its
    spec requires them: the recurrence of its breadth-first search (at every entry where
    the table is small, else at sampled ones and its sources; a folded array, the least
    of its runs of the searched array, checked the same way where that is small, else at
    the runs of the search's sources)."""
    spec, array = table.spec, table.array
    if array in spec.searches and spec.searches[array].folded > 1:
        _check_sources(tables, spec, array, values, spec.searches[array])
        return
    if array in spec.searches:
        _check_recurrence(tables, spec, array, values)
        return
    fold = spec.folds[array]
    search = spec.searches[fold.source]
    if search.states <= WHOLLY_CHECKED_ENTRIES:
        searched = _read(tables, spec.parts, fold.source, search.states)
        _check_recurrence(tables, spec, fold.source, searched)
        least = searched.reshape(-1, fold.width).min(axis=1)
        if not np.array_equal(least, values):
            entry = int(np.flatnonzero(least != values)[0])
            raise CorruptTableError(
                f"table {tables.describe(spec.parts)}: {array} holds {int(values[entry])} at "
                f"entry {entry:,}, the least of its {fold.width} entries of {fold.source} is "
                f"{int(least[entry])}: {REBUILD}")
    else:
        _check_sources(tables, spec, array, values, search, fold.width)


def _check_sources(tables: TableLookup, spec, array: str, values: np.ndarray, search,
                   width: int | None = None) -> None:
    """0 at the entry of each of the search's sources, in an array of the least over runs
    of ``width`` states (default: the search's own ``folded``): no recurrence holds between
    such least values, so this is what a load checks of a large one (`builder verify`
    checks the whole)."""
    width = width or search.folded
    for source in search.sources:
        if values[source // width] != 0:
            raise CorruptTableError(
                f"table {tables.describe(spec.parts)}: {array} holds "
                f"{int(values[source // width])} at the goal's entry, not 0: {REBUILD}")


def _check_recurrence(tables: TableLookup, spec, array: str, values: np.ndarray) -> None:
    """The breadth-first array ``array`` of ``spec`` obeys its recurrence (0 exactly at its
    sources, else 1 + the least value one move on) at every entry, or at its sources and
    ``SAMPLED_ENTRIES`` random ones where it has more than ``WHOLLY_CHECKED_ENTRIES``."""
    from builder.contract.specs import kernel as moves_kernel
    from builder.kernels import ida

    search = spec.searches[array]
    if search.wide:
        raise CorruptTableError(f"table {tables.describe(spec.parts)}: {array} is searched "
                                "with 16-bit distances: no pattern table")
    sources = np.array(sorted(search.sources), np.int64)
    whole = len(values) <= WHOLLY_CHECKED_ENTRIES
    states = (np.arange(len(values), dtype=np.int64) if whole else np.concatenate([
        sources, np.random.default_rng().integers(0, len(values), SAMPLED_ENTRIES)]))
    state, expected = (int(found) for found in ida.first_broken_at(
        moves_kernel(search.moves or search.neighbours),
        np.ascontiguousarray(search.parameters, dtype=np.int64), values, sources, states,
        np.int64(search.most_neighbours)))
    if state >= 0:
        raise _broken(tables, spec, array, values, state, expected,
                      "at every entry" if whole
                      else f"at {len(states):,} sampled entries and the goal's")


@dataclass(frozen=True)
class _Estimates:
    """A search's pattern tables as its kernel reads them."""

    values: np.ndarray
    """Every table end to end (one copy of a table looked up twice, as on a reflected
    position)."""
    offsets: np.ndarray
    """Where each look-up's table starts in ``values``."""
    lengths: np.ndarray
    """Each look-up's table's entries: an index past them is never read."""
    groups: np.ndarray
    """The group of each look-up, renumbered 0, 1, ..."""
    count: int


def _loaded(tables: TableLookup, distinct: list[tuple], by_key: dict
            ) -> tuple[np.ndarray, list[int]]:
    """The distinct tables' arrays end to end, and each one's entries: read whole through
    their checksums, or mapped from the uncompressed copy made at an earlier read
    (``reader.mapped_copy``: every process shares its pages); checked (``_checked``)
    either way."""
    sizes = [_required_length(by_key[key]) for key in distinct]

    def read() -> np.ndarray:
        return np.concatenate([_read(tables, parts, array, size)
                               for (parts, array), size in zip(distinct, sizes)])

    values = (tables.mapped(distinct, sum(sizes), read) if isinstance(tables, Tables)
              else read())
    start = 0
    for key, size in zip(distinct, sizes):
        _checked(tables, by_key[key], values[start:start + size])
        start += size
    return values, sizes


def _estimates(tables: TableLookup, search: PatternSearch) -> _Estimates:
    """The search's pattern tables, read (``_loaded``) and checked once, and kept while
    the stored tables are unchanged."""
    distinct = list(dict.fromkeys((table.spec.parts, table.array)
                                  for table in search.patterns))
    by_key = {(table.spec.parts, table.array): table for table in search.patterns}
    kept = tuple((*key, _version(tables, by_key[key])) for key in distinct)
    with _KEPT_LOCK:
        found = _KEPT.get(kept)
    if found is None:
        with uncounted():  # read once a server: not the search its time limit is for
            found = _loaded(tables, distinct, by_key)
        with _KEPT_LOCK:
            _KEPT[kept] = found
            while len(_KEPT) > KEPT_SEARCHES:
                _KEPT.pop(next(iter(_KEPT)))
    values, sizes = found
    starts = np.cumsum([0, *sizes[:-1]])
    at = [distinct.index((table.spec.parts, table.array)) for table in search.patterns]
    named = sorted({table.group for table in search.patterns})
    return _Estimates(
        values, np.array([starts[number] for number in at], np.int64),
        np.array([sizes[number] for number in at], np.int64),
        np.array([named.index(table.group) for table in search.patterns], np.int64),
        len(named))


def start_estimate(tables: TableLookup, search: PatternSearch) -> int | None:
    """The pattern databases' estimate at the search's start (None: they say the goal is
    never reached)."""
    if search.passes is not None:
        return search.estimate
    estimates = _estimates(tables, search)
    start = np.asarray(search.start, np.int64)
    indices = start[search.indices_at:search.indices_at + len(estimates.offsets)]
    if len(indices) < len(estimates.offsets) or (indices < 0).any() or (
            indices >= estimates.lengths).any():
        raise RuntimeError(f"{search.how}: the start's indices {indices.tolist()} are not "
                           f"all within their tables' {estimates.lengths.tolist()} entries "
                           "(the plug-in's ranking and its tables' specs disagree)")
    found = estimates.values[estimates.offsets + indices].astype(np.int64)
    if (found == NEVER).any():
        return None
    sums = [int(found[estimates.groups == group].sum()) for group in range(estimates.count)]
    if search.parity:
        sums = [total + (total - sums[0]) % 2 for total in sums]
    return max(sums)


def run(tables: TableLookup, search: PatternSearch, unit: str = "moves",
        progress: bool | None = None) -> Searched:
    """A shortest path by IDA* from the search's start to its goal.  UnreachableError when
    the estimates prove there is none; a one-line SearchLimitError naming the bound proved
    when the node budget, the time limit (the search's, or the caller's
    ``work.search_budget`` shared by a question's searches) or the longest path allowed
    is reached first; a server's stop (its time limit, a client gone) as its own error,
    naming the bound too.  Each bound searched is reported (``work.report_progress``:
    a server shows it to the page), and while a bound is searched, the nodes searched
    so far, every ``COUNT_SECONDS`` (``counting``); ``progress``: a bar of the bounds
    searched on stderr (None: where stderr is a terminal)."""
    from tqdm import tqdm

    from builder.contract.patterns import step_kernel
    from builder.kernels import ida

    own = search.passes  # a plug-in's own pass: no table read here
    estimates = None if own else _estimates(tables, search)
    first = None if own else estimates.groups == 0
    if not own and search.parity and not first[:int(first.sum())].all():
        raise ValueError(f"{search.how}: a search by parity lists its first group's tables "
                         "first")
    width = len(search.start)
    rows = np.zeros((search.longest + 1, width), np.int64)
    rows[0] = search.start
    redundant = np.zeros((search.moves, search.moves), np.uint8)
    for previous, following in search.redundant:
        redundant[previous, following] = 1
    step = None if own else step_kernel(search.step)
    parameters = np.ascontiguousarray(search.parameters, dtype=np.int64)
    goal = np.ascontiguousarray(search.goal, dtype=np.int64)
    estimate = start_estimate(tables, search)
    if not own:
        _check_entries(tables, search, estimates,
                       rows[:1, search.indices_at:search.indices_at + len(estimates.offsets)],
                       "at the search's start")
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
    iteration = (None if own else ida.iteration_children_first
                 if estimates.values.nbytes > ida.CACHED_BYTES else ida.iteration)

    def stopped(words: str) -> SearchLimitError:
        return SearchLimitError(f"{search.how}: {words}: at least {bound} {unit}", bound,
                                budget.spent_nodes + nodes)

    counted = np.zeros(1, np.int64)  # the pass's nodes so far, as the kernel polls

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
                counted[0] = 0
                with counting(lambda: (bound, nodes + int(counted[0])), unit):
                    if own:
                        status, length, following, made = own(
                            rows, bound, most_nodes - nodes, stop.flag, deadline, counted)
                    else:
                        status, length, following, made = iteration(
                            step, parameters, estimates.values, estimates.offsets,
                            estimates.lengths, estimates.groups, np.int64(estimates.count),
                            np.int64(search.parity),
                            np.int64(search.indices_at), goal, rows,
                            np.int64(bound), np.int64(search.moves), redundant,
                            np.int64(most_nodes - nodes), stop.flag, deadline, counted)
                nodes += int(made)
                bounds += 1
                bar.update(1)
                if status == ida.OUTSIDE:
                    raise _outside(tables, search, estimates, rows, int(length),
                                   int(following))
                if status == ida.FOUND:
                    path = rows[:length + 1].copy()
                    if not own:
                        looked_up = path[:, search.indices_at:
                                         search.indices_at + len(estimates.offsets)]
                        _check_entries(tables, search, estimates, looked_up,
                                       "along the path found")
                    return Searched(path, nodes, bounds, estimate)
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


@contextlib.contextmanager
def counting(so_far, unit: str):
    """While the block runs (a kernel's pass, holding the thread that asked), the bound
    and the nodes searched so far (``so_far()``) told every ``COUNT_SECONDS`` to whoever
    follows the search (``work.report_progress``, from a thread of its own in the
    caller's context); a request stopped meanwhile ends the telling (the kernel stops at
    its next poll)."""
    context = contextvars.copy_context()
    ended = threading.Event()

    def tell() -> None:
        while not ended.wait(COUNT_SECONDS):
            bound, nodes = so_far()
            try:
                context.run(report_progress, bound,
                            f"bound {bound} {unit}, {nodes:,} nodes searched")
            except OneLineError:
                return

    teller = threading.Thread(target=tell, daemon=True, name="search count")
    teller.start()
    try:
        yield
    finally:
        ended.set()
        teller.join()


def _outside(tables: TableLookup, search: PatternSearch, estimates: _Estimates,
             rows: np.ndarray, depth: int, pattern: int) -> RuntimeError:
    """The error for row ``depth``'s index of look-up ``pattern``, which the kernel found
    outside its table (and did not read)."""
    table = search.patterns[pattern]
    index = int(rows[depth, search.indices_at + pattern])
    return RuntimeError(f"{search.how}: a move gave index {index:,}, outside table "
                        f"{tables.describe(table.spec.parts)}: {table.array} "
                        f"({int(estimates.lengths[pattern]):,} entries): the plug-in's step "
                        "and its table's spec disagree")


def _check_entries(tables: TableLookup, search: PatternSearch, estimates: _Estimates,
                   looked_up: np.ndarray, where: str) -> None:
    """The recurrence of each breadth-first table at the entries ``looked_up`` (a row of
    indices per position, a column per look-up): a forged entry read there would make
    the path found no shortest.  A folded table is checked at load alone."""
    from builder.contract.specs import kernel as moves_kernel
    from builder.kernels import ida

    for pattern, table in enumerate(search.patterns):
        spec, array = table.spec, table.array
        if array not in spec.searches or spec.searches[array].folded > 1:
            continue
        bfs = spec.searches[array]
        start = int(estimates.offsets[pattern])
        values = estimates.values[start:start + int(estimates.lengths[pattern])]
        state, expected = (int(found) for found in ida.first_broken_at(
            moves_kernel(bfs.moves or bfs.neighbours),
            np.ascontiguousarray(bfs.parameters, dtype=np.int64), values,
            np.array(sorted(bfs.sources), np.int64),
            np.ascontiguousarray(looked_up[:, pattern], dtype=np.int64),
            np.int64(bfs.most_neighbours)))
        if state >= 0:
            raise _broken(tables, spec, array, values, state, expected, where)


def _broken(tables: TableLookup, spec, array: str, values: np.ndarray, state: int,
            expected: int, where: str) -> CorruptTableError:
    gives = ("a move leads outside the table" if expected < 0
             else f"the recurrence gives {expected}")
    return CorruptTableError(f"table {tables.describe(spec.parts)}: {array} holds "
                             f"{int(values[state])} at entry {state:,}, {gives} (checked "
                             f"{where}): its values are not the fewest moves; {REBUILD}")


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
    from builder.contract.puzzle import Cataloguing, Dealing, offers

    if not offers(puzzle, "pattern_search"):
        return None, ""
    checked = 0
    for distances in Cataloguing.of(puzzle).catalog_distances(attributes):
        values = np.asarray(read(distances.array))
        reached = np.flatnonzero(values != distances.never_in(values))
        if not reached.size:
            continue
        entries = rng.choice(reached, size=min(samples, reached.size), replace=False)
        named = Dealing.of(puzzle).entry_positions(attributes, distances.array, entries,
                                                          read)
        for entry, (position, target) in zip(entries, named or ()):
            variant = puzzle.variant(position, target, Dealing.of(puzzle).table_options(
                attributes))
            node = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, position))
            goal = Walking.of(puzzle).parse_target(variant, target)
            search = Walking.of(puzzle).pattern_search(tables, variant, node, goal)
            if search is None:
                continue
            try:
                estimate = start_estimate(tables, search)
            except CorruptTableError as refused:
                return str(refused), ""
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
