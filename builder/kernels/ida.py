"""IDA*, the engine's exact search on pattern databases, for any plug-in's
``PatternSearch`` (``builder.contract.patterns``): depth-first to a cost bound, the bound
raised to the least estimate that passed it, until a path reaches the goal.

The kernel is compiled once, for the step function *type* ``STEP``, and cached on disk;
each plug-in's step is passed by address (as the breadth-first kernel's ``neighbours``).
One call searches one bound (``iteration``), so the caller shows the bound searched and
stops between bounds; within one, it polls the stop flags every ``STOP_POLL_NODES`` nodes
and writes the nodes it has made so far to ``counted[0]``, which another thread may read
while the call runs (a page follows a long bound's count as it grows).

No read falls outside a table: every index a step writes is checked against its table's
length before it is looked up (``OUTSIDE``).  ``first_broken_at`` checks a table's
recurrence at chosen entries (when a search loads it, at the start, along a path found).

Tables larger than a cache (``CACHED_BYTES``) cost a miss per look-up: there
``iteration_children_first`` makes all of a node's children before looking at any,
asking for their entries first, so that the misses overlap (and remakes the row of a
child it goes down to), and reads a child's tables only until one group's sum alone
passes the bound (the child is cut).  With tables a cache holds, that costs more than it
saves, and ``iteration`` makes one child at a time and reads all its changed entries.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from builder.contract.intrinsics import prefetch
from builder.contract.patterns import NEVER, step_signature
from builder.contract.specs import moves_signature

STEP = types.FunctionType(step_signature())
"""``(rows, depth, move, parameters) -> 1`` with row ``depth + 1`` written from row
``depth``, or 0: not legal (rows, not row views: a view per node costs its reference
counts)."""
STOP_POLL_NODES = 1 << 14
CACHED_BYTES = 32 << 20
"""Pattern tables up to this size in all are searched one child at a time (a cache holds
them); larger ones children first."""
NEIGHBOURS = types.FunctionType(moves_signature())
"""A breadth-first search's moves (``builder.contract.specs.BreadthFirstSearch``)."""
UNBOUNDED = 1 << 30
FOUND, EXHAUSTED, STOPPED, OVER_BUDGET, OUTSIDE = 0, 1, 2, 3, 4
"""An iteration's status.  OUTSIDE: ``[status, depth, pattern, nodes]``, row ``depth``'s
index for look-up ``pattern`` outside its table."""


_LAZY: dict[str, tuple] = {}
"""The kernels compiled (or loaded from numba's cache) at their first use in a process,
by name: a query that runs one of them loads no other (``__getattr__``)."""


def _on_first_use(name: str, signature):
    def register(function):
        _LAZY[name] = (signature, function)
        return function
    return register


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    signature, function = _LAZY[name]
    compiled = njit(signature, cache=True, nogil=True)(function)
    globals()[name] = compiled
    return compiled


def compile_all() -> None:
    """Every kernel compiled now and cached on disk (after a build: no first query
    compiles one)."""
    for name in _LAZY:
        __getattr__(name)


@_on_first_use("first_broken_at", types.int64[::1](
    NEIGHBOURS, types.int64[::1], types.uint8[::1], types.int64[::1], types.int64[::1],
    types.int64))
def _first_broken_at(moves, parameters, values, sources, states, most):
    """(state, expected) of the first of ``states`` whose value breaks the shortest-path
    recurrence under ``moves`` (0 exactly at ``sources``, else 1 + the least value one
    move on, NEVER where every move leads to NEVER), or (-1, 0); expected -1 where a move
    leads outside the table."""
    found = np.empty(most, np.int64)
    for state in states:
        expected = NEVER
        source = False
        for other in sources:
            source = source or other == state
        if source:
            expected = 0
        else:
            best = NEVER
            for i in range(moves(state, parameters, found)):
                if found[i] < 0 or found[i] >= len(values):
                    return np.array([state, -1], np.int64)
                best = min(best, np.int64(values[found[i]]))
            expected = NEVER if best == NEVER else best + 1
        if np.int64(values[state]) != expected:
            return np.array([state, expected], np.int64)
    return np.array([-1, 0], np.int64)


@njit(cache=True, nogil=True, inline="always")
def _estimate(known, depth, groups, sums, parity):
    """Row ``depth``'s estimate from its tables' values ``known[depth]``: each group's
    sum (``_of_parity``), the largest of them; NEVER when a table says so."""
    for group in range(len(sums)):
        sums[group] = 0
    for pattern in range(known.shape[1]):
        value = known[depth, pattern]
        if value == NEVER:
            return NEVER
        sums[groups[pattern]] += value
    largest = 0
    for group in range(len(sums)):
        largest = max(largest, _of_parity(sums[group], sums[0], parity))
    return largest


@njit(cache=True, nogil=True, inline="always")
def _of_parity(value, first, parity):
    """A group's sum, one more where ``parity`` (1: every path to the goal has the parity
    of group 0's sum, ``PatternSearch.parity``) and it has the other parity: no path is
    that short."""
    return value + ((value ^ first) & parity)


@njit(cache=True, nogil=True, inline="always")
def _at_goal(rows, depth, goal):
    for entry in range(len(goal)):
        if rows[depth, entry] != goal[entry]:
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _at_root(known, values, offsets, lengths, rows, indices_at, groups, sums, parity, goal,
             bound):
    """The start's table values into ``known[0]``, and what they settle before any move:
    (status, next bound), status -1 where the search goes on (OUTSIDE: the next bound is
    the table whose index is outside it)."""
    for pattern in range(known.shape[1]):
        index = rows[0, indices_at + pattern]
        if index < 0 or index >= lengths[pattern]:
            return OUTSIDE, pattern
        known[0, pattern] = values[offsets[pattern] + index]
    estimate = _estimate(known, 0, groups, sums, parity)
    if estimate == NEVER:
        return EXHAUSTED, UNBOUNDED
    if estimate > bound:
        return EXHAUSTED, estimate
    if estimate == 0 and _at_goal(rows, 0, goal):
        return FOUND, bound
    return -1, 0


SIGNATURE = types.int64[::1](STEP, types.int64[::1], types.uint8[::1], types.int64[::1],
                             types.int64[::1], types.int64[::1], types.int64, types.int64,
                             types.int64,
                             types.int64[::1], types.int64[:, ::1], types.int64, types.int64,
                             types.uint8[:, ::1], types.int64, types.uint8[::1],
                             types.uint8[::1], types.int64[::1])


@_on_first_use("iteration", SIGNATURE)
def _iteration(step, parameters, values, offsets, lengths, groups, group_count, parity,
               indices_at, goal, rows, bound, moves, redundant, budget, stop, deadline,
               counted):
    """One depth-first pass from ``rows[0]`` to cost ``bound``: ``[status, length, next
    bound, nodes]``.  FOUND: ``rows[0 .. length]`` is a path to the goal; EXHAUSTED: none
    within the bound, the next bound the least estimate past it (UNBOUNDED: none at all);
    STOPPED (a flag was raised) or OVER_BUDGET (``budget`` nodes generated); OUTSIDE, an
    index outside its table (``[OUTSIDE, depth, pattern, nodes]``).  Look-up ``p`` reads
    ``values[offsets[p] .. offsets[p] + lengths[p] - 1]``."""
    patterns = len(offsets)
    deepest = len(rows) - 1
    known = np.empty((deepest + 1, patterns), np.int64)  # each depth's table values
    next_move = np.zeros(deepest + 1, np.int64)
    made = np.full(deepest + 1, -1, np.int64)  # the move that led to each depth
    sums = np.zeros(group_count, np.int64)
    status, following = _at_root(known, values, offsets, lengths, rows, indices_at, groups,
                                 sums, parity, goal, bound)
    if status >= 0:
        return np.array([status, 0, following, 0], np.int64)
    least_past = UNBOUNDED
    nodes = 0
    depth = 0
    while True:
        move = next_move[depth]
        if move == moves:
            if depth == 0:
                return np.array([EXHAUSTED, 0, least_past, nodes], np.int64)
            depth -= 1
            continue
        next_move[depth] = move + 1
        if made[depth] >= 0 and redundant[made[depth], move]:
            continue
        if depth == deepest:
            least_past = min(least_past, depth + 1)
            continue
        if step(rows, depth, move, parameters) == 0:
            continue
        nodes += 1
        if (nodes & (STOP_POLL_NODES - 1)) == 0:
            counted[0] = nodes
            if stop[0] or deadline[0]:
                return np.array([STOPPED, 0, bound, nodes], np.int64)
        if nodes >= budget:
            return np.array([OVER_BUDGET, 0, bound, nodes], np.int64)
        # a move changes few patterns' indices: the others keep their parent's value, and
        # only the changed ones are looked up (a cache miss each)
        for pattern in range(patterns):
            index = rows[depth + 1, indices_at + pattern]
            if index == rows[depth, indices_at + pattern]:
                known[depth + 1, pattern] = known[depth, pattern]
            else:
                if index < 0 or index >= lengths[pattern]:
                    return np.array([OUTSIDE, depth + 1, pattern, nodes], np.int64)
                known[depth + 1, pattern] = values[offsets[pattern] + index]
        estimate = _estimate(known, depth + 1, groups, sums, parity)
        if estimate == NEVER:
            continue
        cost = depth + 1 + estimate
        if cost > bound:
            least_past = min(least_past, cost)
            continue
        if estimate == 0 and _at_goal(rows, depth + 1, goal):
            return np.array([FOUND, depth + 1, bound, nodes], np.int64)
        depth += 1
        next_move[depth] = 0
        made[depth] = move


@_on_first_use("iteration_children_first", SIGNATURE)
def _iteration_children_first(step, parameters, values, offsets, lengths, groups,
                              group_count, parity, indices_at, goal, rows, bound, moves,
                              redundant, budget, stop, deadline, counted):
    """``iteration``, making all of a node's children before looking at any."""
    patterns = len(offsets)
    deepest = len(rows) - 1
    known = np.empty((deepest + 1, patterns), np.int64)  # each depth's table values
    # a node's children are all made before any is looked at, their table entries asked
    # for (a cache miss each, overlapping): each depth keeps its children's indices and
    # which moves were legal, and remakes the row of the child it goes down to
    child_index = np.empty((deepest + 1, moves, patterns), np.int64)
    legal = np.zeros((deepest + 1, moves), np.uint8)
    made_children = np.zeros(deepest + 1, np.uint8)
    next_move = np.zeros(deepest + 1, np.int64)
    made = np.full(deepest + 1, -1, np.int64)  # the move that led to each depth
    sums = np.zeros(group_count, np.int64)
    status, following = _at_root(known, values, offsets, lengths, rows, indices_at, groups,
                                 sums, parity, goal, bound)
    if status >= 0:
        return np.array([status, 0, following, 0], np.int64)
    least_past = UNBOUNDED
    nodes = 0
    depth = 0
    while True:
        if not made_children[depth]:
            made_children[depth] = 1
            for move in range(moves):
                legal[depth, move] = 0
                if made[depth] >= 0 and redundant[made[depth], move]:
                    continue
                if depth == deepest:
                    least_past = min(least_past, depth + 1)
                    continue
                if step(rows, depth, move, parameters) == 0:
                    continue
                legal[depth, move] = 1
                nodes += 1
                if (nodes & (STOP_POLL_NODES - 1)) == 0:
                    counted[0] = nodes
                    if stop[0] or deadline[0]:
                        return np.array([STOPPED, 0, bound, nodes], np.int64)
                if nodes >= budget:
                    return np.array([OVER_BUDGET, 0, bound, nodes], np.int64)
                # a move changes few patterns' indices: the others keep their parent's
                # value, and only the changed ones are looked up
                for pattern in range(patterns):
                    index = rows[depth + 1, indices_at + pattern]
                    child_index[depth, move, pattern] = index
                    if index != rows[depth, indices_at + pattern]:
                        if index < 0 or index >= lengths[pattern]:
                            return np.array([OUTSIDE, depth + 1, pattern, nodes], np.int64)
                        prefetch(values, offsets[pattern] + index)
        move = next_move[depth]
        if move == moves:
            if depth == 0:
                return np.array([EXHAUSTED, 0, least_past, nodes], np.int64)
            depth -= 1
            continue
        next_move[depth] = move + 1
        if not legal[depth, move]:
            continue
        # read until one group's sum alone passes the bound (the other groups need not
        # be read: the move is cut)
        for group in range(group_count):
            sums[group] = 0
        allowed = bound - depth - 1
        cut = -1  # the sum that passed the bound, if one did
        never = False
        for pattern in range(patterns):
            index = child_index[depth, move, pattern]
            if index == rows[depth, indices_at + pattern]:
                value = known[depth, pattern]
            else:
                value = np.int64(values[offsets[pattern] + index])
            known[depth + 1, pattern] = value
            if value == NEVER:
                never = True
                break
            group = groups[pattern]
            sums[group] += value
            if sums[group] > allowed:
                # the group's whole sum, so that the next bound is its estimate (a part
                # of a sum may fall short of the parity every move keeps)
                for other in range(pattern + 1, patterns):
                    if groups[other] == group:
                        index = child_index[depth, move, other]
                        value = (known[depth, other] if index == rows[depth, indices_at + other]
                                 else np.int64(values[offsets[other] + index]))
                        never = never or value == NEVER
                        sums[group] += value
                # group 0's tables come first where parity counts: its sum is whole
                cut = sums[group] if group == 0 else _of_parity(sums[group], sums[0], parity)
                break
        if never:
            continue
        if cut >= 0:
            least_past = min(least_past, depth + 1 + cut)
            continue
        estimate = 0
        for group in range(group_count):
            estimate = max(estimate, _of_parity(sums[group], sums[0], parity))
        if estimate > allowed:  # a sum at the bound, one more for its parity
            least_past = min(least_past, depth + 1 + estimate)
            continue
        step(rows, depth, move, parameters)  # the child's row again, to go down to it
        if estimate == 0 and _at_goal(rows, depth + 1, goal):
            return np.array([FOUND, depth + 1, bound, nodes], np.int64)
        depth += 1
        next_move[depth] = 0
        made_children[depth] = 0
        made[depth] = move
