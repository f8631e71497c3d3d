"""Ball tubes at any size: a search from one deal, for the games no table covers (up to 26
colours, tubes of up to 8).  Imported lazily (numba).

States are taken up to tube order: a tube is one 64-bit word (its balls bottom first, 5
bits each, colour + 1; its length in the top byte), and a state is its words sorted.  The
visited set is an open-addressed hash table over a node arena holding every state in full,
so two states are the same only when every word is (no hash is trusted alone).

Water sort (``water``): a move pours every top ball of the colour that fits; the bound
is then ``_pour_bound`` (runs that must be poured away), consistent for pours as the
ball bound is for balls, so the same three answers hold.

The search is A* with the bound ``balls - sum over colours of the longest bottom run of
that colour``: a ball with a different colour anywhere below it must move, and of the
bottom runs of one colour all but one must move too.  One move changes one bottom run
by at most one ball at each end, so the bound changes by at most one per move: it is
consistent, a state's first expansion is at its fewest moves, and the first cleared state
expanded is optimal.  Hence the three answers, never a guess:

- ``optimal``: A* expanded a cleared state;
- ``unclearable``: A* ran out of states (every state reachable from the deal explored);
- ``best_found``: the node budget ran out; the lowest bound on the open list is a proven
  lower bound, and a greedy search (bound weighted) tries for some solution within the
  share of the budget kept for it (``unresolved`` when it finds none either).

The budget counts nodes generated (every successor made, as the other puzzles' IDA*
counts them), so it bounds the memory too: a search stores at most one state per node
it generated.  The search polls two stop flags as it expands (a server's stop, a
caller's time limit) and returns at once when either is raised.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

BITS = 5
LENGTH_SHIFT = 56
DEFAULT_BUDGET = 2_000_000
"""Nodes the searches may generate (each stored state takes about 100-200 bytes, by the
tube count; a search stores at most one a node)."""
GREEDY_WEIGHT = 6
"""The bound's weight in the search for some solution once the budget is spent."""
GREEDY_SHARE = 8
"""One part in this of the budget is kept for that greedy search, where it is wanted."""
MAX_F = 4096
MAX_H = 256

OPTIMAL, UNCLEARABLE, EXHAUSTED, STOPPED = 0, 1, 2, 3


def tube_word(balls_bottom_first: list[int]) -> int:
    """A tube's word: colours 0.. bottom first, length in the top byte."""
    word = len(balls_bottom_first) << LENGTH_SHIFT
    for depth, colour in enumerate(balls_bottom_first):
        word |= (colour + 1) << (BITS * depth)
    return word


def canonical(tubes: list[list[int]]) -> tuple[int, ...]:
    """A state (tubes as colour lists, bottom first) up to tube order."""
    return tuple(sorted(tube_word(tube) for tube in tubes))


@njit(cache=True, inline="always")
def _length(word):
    return np.int64(word >> np.uint64(LENGTH_SHIFT))


@njit(cache=True, inline="always")
def _ball(word, depth):
    return np.int64((word >> np.uint64(BITS * depth)) & np.uint64(31))


@njit(cache=True)
def _bound(words, longest):
    """Balls that must still move (the module docstring's bound); ``longest``: scratch of
    one entry per colour + 1."""
    longest[:] = 0
    total = 0
    for t in range(words.shape[0]):
        word = words[t]
        length = _length(word)
        total += length
        if length == 0:
            continue
        bottom = _ball(word, 0)
        run = 1
        while run < length and _ball(word, run) == bottom:
            run += 1
        longest[bottom] = max(longest[bottom], run)
    return total - longest.sum()


@njit(cache=True)
def _pour_bound(words, bottoms):
    """Pours that must still be made under water sort: every run of one colour above
    another run in its tube must be poured away (what lies under it cannot leave first),
    and of the bottom runs of one colour all but one.  A pour takes (part of) one top
    run, so it ends at most one of these: the bound falls by at most one a move and is
    consistent, and it is 0 exactly at a cleared state.  ``bottoms``: scratch of one
    entry per colour + 1."""
    bottoms[:] = 0
    total = 0
    for t in range(words.shape[0]):
        word = words[t]
        length = _length(word)
        if length == 0:
            continue
        bottoms[_ball(word, 0)] += 1
        for depth in range(1, length):
            if _ball(word, depth) != _ball(word, depth - 1):
                total += 1
    for colour in range(bottoms.shape[0]):
        if bottoms[colour] > 1:
            total += bottoms[colour] - 1
    return total


@njit(cache=True, inline="always")
def _h(words, scratch, water):
    return _pour_bound(words, scratch) if water else _bound(words, scratch)


@njit(cache=True, inline="always")
def _mix(word):
    """A 64-bit mixer (splitmix64's finaliser); the state's hash is the sum over its
    tubes, so it does not depend on their order."""
    z = word + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _find(table, arena, words, key):
    """(slot, node): the node holding ``words`` (-1 if none) and the slot it is, or would be, in."""
    mask = np.uint64(table.shape[0] - 1)
    slot = np.int64(key & mask)
    n_tubes = words.shape[0]
    while True:
        node = table[slot]
        if node < 0:
            return slot, -1
        same = True
        for t in range(n_tubes):
            if arena[node, t] != words[t]:
                same = False
                break
        if same:
            return slot, node
        slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)


# its one signature: compiled when `builder tables` imports this module
# (``BallsPuzzle.kernel_modules``), not at the first search; nogil: a server answers
# hints on other threads meanwhile
@njit("(uint64[::1], int64, int64, int64, int64, uint64[:, ::1], uint64[::1], int64[::1], "
      "int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], boolean[::1], boolean, "
      "uint8[::1], uint8[::1])", cache=True, nogil=True)
def _search(start, n_colours, capacity, budget, weight, arena, hashes, depth, parent, table,
            heads, entry_node, entry_next, closed, water, stop, deadline):
    """Weighted A* (weight 1: A*) from ``start`` (sorted words), moving one ball a move
    or, with ``water``, pouring every top ball of the colour that fits, until it has
    generated ``budget`` nodes (EXHAUSTED) or ``stop`` or ``deadline`` is raised
    (STOPPED).  Returns (outcome, goal node, nodes stored, nodes generated, lowest open f
    when it ended)."""
    n_tubes = start.shape[0]
    n_entries = entry_node.shape[0]
    heads[:] = -1
    table[:] = -1
    key = np.uint64(0)
    for t in range(n_tubes):
        key += _mix(start[t])
        arena[0, t] = start[t]
    slot, _ = _find(table, arena, start, key)
    table[slot] = 0
    hashes[0] = key
    depth[0] = 0
    parent[0] = -1
    closed[0] = False
    longest = np.zeros(n_colours + 1, np.int64)
    h0 = _h(start, longest, water)
    entry_node[0] = 0
    entry_next[0] = -1
    if weight * h0 >= MAX_F or h0 >= MAX_H:
        return EXHAUSTED, -1, 1, 0, 0
    heads[weight * h0 * MAX_H + h0] = 0
    stored, used, generated = 1, 1, 0
    lowest = weight * h0
    following = np.empty(n_tubes, np.uint64)
    while True:
        while lowest < MAX_F and heads[lowest * MAX_H: (lowest + 1) * MAX_H].max() < 0:
            lowest += 1
        if lowest >= MAX_F:
            return UNCLEARABLE, -1, stored, generated, lowest
        for h in range(MAX_H):  # among equal f, the state nearest the goal first
            entry = heads[lowest * MAX_H + h]
            if entry >= 0:
                heads[lowest * MAX_H + h] = entry_next[entry]
                break
        node = entry_node[entry]
        if closed[node]:
            continue
        if depth[node] + weight * h != lowest:
            continue  # a stale entry: the node was reached more cheaply since
        closed[node] = True
        if h == 0:
            return OPTIMAL, node, stored, generated, lowest
        if stop[0] or deadline[0]:  # one byte each an expansion: nothing beside its moves
            return STOPPED, -1, stored, generated, lowest
        g = depth[node] + 1
        for source in range(n_tubes):
            word = arena[node, source]
            length = _length(word)
            if length == 0:
                continue
            if source > 0 and arena[node, source - 1] == word:
                continue  # the same tube as the one before: the same moves
            ball = _ball(word, length - 1)
            run = 1  # the top balls of that colour (a pour takes those that fit)
            if water:
                while run < length and _ball(word, length - 1 - run) == ball:
                    run += 1
            tried_empty = False
            for destination in range(n_tubes):
                if destination == source:
                    continue
                other = arena[node, destination]
                other_length = _length(other)
                if other_length == capacity:
                    continue
                if other_length == 0:
                    if tried_empty:
                        continue  # every empty tube gives the same state
                    tried_empty = True
                elif _ball(other, other_length - 1) != ball:
                    continue
                moved = min(run, capacity - other_length)
                popped = word
                pushed = other
                for step in range(moved):
                    popped = (popped & ~(np.uint64(31) << np.uint64(BITS * (length - 1 - step)))
                              ) - (np.uint64(1) << np.uint64(LENGTH_SHIFT))
                    pushed = (pushed | (np.uint64(ball) << np.uint64(BITS * (other_length + step)))
                              ) + (np.uint64(1) << np.uint64(LENGTH_SHIFT))
                # the successor, sorted: copy without the two tubes, insert the new two
                count = 0
                for t in range(n_tubes):
                    if t != source and t != destination:
                        following[count] = arena[node, t]
                        count += 1
                for value in (popped, pushed):
                    position = count
                    while position > 0 and following[position - 1] > value:
                        following[position] = following[position - 1]
                        position -= 1
                    following[position] = value
                    count += 1
                if generated == budget:
                    return EXHAUSTED, -1, stored, generated, lowest
                generated += 1
                key = hashes[node] - _mix(word) - _mix(other) + _mix(popped) + _mix(pushed)
                slot, found = _find(table, arena, following, key)
                if found >= 0:
                    if closed[found] or depth[found] <= g:
                        continue
                    target = found
                else:
                    target = stored  # within the arena: one state at most a node generated
                    stored += 1
                    for t in range(n_tubes):
                        arena[target, t] = following[t]
                    hashes[target] = key
                    closed[target] = False
                    table[slot] = target
                depth[target] = g
                parent[target] = node
                if used == n_entries:  # never: one entry at most a node generated
                    return EXHAUSTED, -1, stored, generated, lowest
                bound = _h(following, longest, water)
                f = g + weight * bound
                if f >= MAX_F or bound >= MAX_H:  # beyond the buckets: nothing is proven
                    return EXHAUSTED, -1, stored, generated, lowest
                lowest = min(lowest, f)  # a weighted bound is not consistent: f may fall
                entry_node[used] = target
                entry_next[used] = heads[f * MAX_H + bound]
                heads[f * MAX_H + bound] = used
                used += 1


@dataclass(frozen=True)
class Solution:
    """What a search proved about a deal."""

    verdict: str
    """optimal, unclearable, best_found (a solution, maybe not the shortest) or
    unresolved (no solution found within the budget; not proven unclearable)."""
    states: tuple[tuple[int, ...], ...]
    """The solution's states (up to tube order), start first; empty when none."""
    lower_bound: int
    explored: int
    """States stored by the optimal search (for unclearable: every reachable one)."""
    nodes: int = 0
    """Nodes generated by the searches together (what the budget counts)."""
    stopped: bool = False
    """A stop flag ended it (a server's stop or the caller's time limit), not the budget:
    unresolved, its lower bound proven all the same."""

    @property
    def length(self) -> int | None:
        return len(self.states) - 1 if self.states else None


class Workspace:
    """The search's arrays for a tube count and budget (nodes generated: a state stored
    and a queue entry at most each), reused between searches.  Zeroed pages are mapped
    only when a search writes them, so a search that ends early uses little of it."""

    def __init__(self, n_tubes: int, budget: int):
        nodes = budget + 1  # the start, then one at most a node generated
        size = 1 << max(4, int(2 * nodes - 1).bit_length())
        self.budget = budget
        self.arena = np.zeros((nodes, n_tubes), np.uint64)
        self.hashes = np.zeros(nodes, np.uint64)
        self.depth = np.zeros(nodes, np.int64)
        self.parent = np.zeros(nodes, np.int32)
        self.closed = np.zeros(nodes, np.bool_)
        self.table = np.zeros(size, np.int32)
        self.heads = np.zeros(MAX_F * MAX_H, np.int32)
        self.entry_node = np.zeros(nodes, np.int32)
        self.entry_next = np.zeros(nodes, np.int32)

    def run(self, start: np.ndarray, n_colours: int, capacity: int, weight: int,
            water: bool = False, budget: int | None = None, stop: np.ndarray | None = None,
            deadline: np.ndarray | None = None):
        """One search of at most ``budget`` nodes (default: the workspace's), ended early
        when ``stop`` or ``deadline`` (one byte each) becomes 1."""
        budget = self.budget if budget is None else min(budget, self.budget)
        never = np.zeros(1, np.uint8)
        return _search(start, n_colours, capacity, budget, weight, self.arena,
                       self.hashes, self.depth, self.parent, self.table, self.heads,
                       self.entry_node, self.entry_next, self.closed, water,
                       never if stop is None else stop,
                       never if deadline is None else deadline)

    def states_to(self, node: int) -> tuple[tuple[int, ...], ...]:
        chain = []
        while node >= 0:
            chain.append(tuple(int(w) for w in self.arena[node]))
            node = int(self.parent[node])
        return tuple(reversed(chain))


def solve(tubes: list[list[int]], n_colours: int, capacity: int,
          budget: int = DEFAULT_BUDGET, workspace: Workspace | None = None,
          water: bool = False, greedy: bool = True, stop: np.ndarray | None = None,
          deadline: np.ndarray | None = None) -> Solution:
    """Fewest moves to clear a deal (tubes as colour lists 0.., bottom first), or with
    ``water`` fewest pours, generating at most ``budget`` nodes: see the module docstring
    for what each verdict proves.  With ``greedy``, a share of the budget is kept for a
    greedy search for some solution (``best_found``) should the A* run out; without,
    the A* has it all.  ``stop``, ``deadline``: flags (one byte each) that end the
    search where it stands when raised (``Solution.stopped``)."""
    start = np.array(canonical(tubes), np.uint64)
    if workspace is None or workspace.budget != budget or workspace.arena.shape[1] != len(
            tubes):
        workspace = Workspace(len(tubes), budget)
    optimal_budget = budget - budget // GREEDY_SHARE if greedy else budget
    outcome, goal, stored, nodes, lowest = workspace.run(
        start, n_colours, capacity, 1, water, optimal_budget, stop, deadline)
    if outcome == OPTIMAL:
        return Solution("optimal", workspace.states_to(goal), int(lowest), int(stored),
                        int(nodes))
    if outcome == UNCLEARABLE:
        return Solution("unclearable", (), 0, int(stored), int(nodes))
    if outcome == STOPPED or not greedy:
        return Solution("unresolved", (), int(lowest), int(stored), int(nodes),
                        outcome == STOPPED)
    outcome, goal, _, more, _ = workspace.run(start, n_colours, capacity, GREEDY_WEIGHT,
                                              water, budget - int(nodes), stop, deadline)
    nodes += more
    if outcome == OPTIMAL:
        return Solution("best_found", workspace.states_to(goal), int(lowest), int(stored),
                        int(nodes))
    if outcome == UNCLEARABLE:  # the greedy search saw every state: none is cleared
        return Solution("unclearable", (), 0, int(stored), int(nodes))
    return Solution("unresolved", (), int(lowest), int(stored), int(nodes),
                    outcome == STOPPED)
