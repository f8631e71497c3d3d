"""Exact shortest paths without a table: bidirectional breadth-first search at query time.

For boards whose target has no stored table (4×4 targets other than the built ones).
Forward states are (board, last click) from the start; backward states are (board,
next click) from the target: clicking ``next`` on ``board`` begins a shortest remaining
path.  A forward state (b, l) at depth x meets a backward state (b, n) at depth y when
l != n, giving a path of x + y clicks.  Levels are expanded alternately, the smaller
side first, until the explored depths add up to the best meeting found: then no
shorter path can exist.  Vectorised numpy over whole levels (unrestricted clicks).
A path found is a ``TricolorePath``, which ``answers`` replays before the engine gets it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.contract.errors import QueryError
from builder.contract.work import checkpoint
from puzzles.tricolore.rules import NO_CLICK, Tricolore

SEARCH_BYTES_PER_STATE = 24 * 3
"""A stored state is three int64 (board, click, parent); sorting and deduplicating a level
needs about as much again twice over."""


@dataclass(frozen=True)
class TricolorePath:
    """A path the search found: the squares clicked from ``start`` to ``target`` under
    ``method``, and the boards along it (``start`` first, then the board after each)."""

    start: int
    target: int
    method: str
    clicks: tuple[int, ...]
    boards: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.clicks)


class SearchTooLargeError(QueryError):
    """A search without a table would need more memory than it may take."""


MAX_SEARCH_TABLE_BYTES = 512 * 2**20
"""The click tables a search builds grow as 3**(squares / 2): past this, refuse."""


class _Tables:
    def __init__(self, rules: Tricolore):
        needed = rules.half_tables_bytes()
        if needed > MAX_SEARCH_TABLE_BYTES:
            raise SearchTooLargeError(
                f"no table for this target, and a search on a {rules.shape_name} board "
                f"({rules.n_squares} squares) would need {needed / 2**30:.1f} GiB of click "
                f"tables before it starts (at most {MAX_SEARCH_TABLE_BYTES / 2**20:.0f} MiB)")
        tables = rules.half_tables()
        self.split, self.n_high = tables["split"], tables["n_high"]
        self.n_squares = rules.n_squares
        for name in ("colour_low", "colour_high", "advance_low", "advance_high",
                     "retreat_low", "retreat_high"):
            setattr(self, name, tables[name])

    def colour(self, boards: np.ndarray, square: int) -> np.ndarray:
        high, low = np.divmod(boards, self.split)
        if square < self.n_high:
            return self.colour_high[square, high]
        return self.colour_low[square, low]

    def click(self, boards: np.ndarray, square: int) -> np.ndarray:
        high, low = np.divmod(boards, self.split)
        colour = self.colour(boards, square)
        return (self.advance_high[square, colour, high].astype(np.int64) * self.split
                + self.advance_low[square, colour, low])

    def unclick(self, boards: np.ndarray, square: int) -> tuple[np.ndarray, np.ndarray]:
        """(predecessor boards, index of the board each came from) for clicks on square."""
        high, low = np.divmod(boards, self.split)
        colour = self.colour(boards, square)
        found, sources = [], []
        for case in range(2):
            before = self.retreat_high[square, colour, case, high]
            valid = before >= 0
            found.append(before[valid].astype(np.int64) * self.split
                         + self.retreat_low[square, colour, case, low][valid])
            sources.append(np.flatnonzero(valid))
        return np.concatenate(found), np.concatenate(sources)


class _Side:
    """All states found so far on one side: board, click (last or next), depth, parent."""

    def __init__(self, boards, clicks, parents):
        self.boards = [boards]
        self.clicks = [clicks]
        self.parents = [parents]
        self.seen = np.sort(boards * 32 + clicks + 1)
        self.depth = 0

    def frontier(self):
        return self.boards[-1], self.clicks[-1], self.offset(self.depth)

    def offset(self, depth: int) -> int:
        return sum(len(b) for b in self.boards[:depth])

    def add_level(self, boards, clicks, parents):
        codes = boards * 32 + clicks + 1
        unique_codes, first = np.unique(codes, return_index=True)
        position = np.searchsorted(self.seen, unique_codes)
        known = (position < len(self.seen)) & (
            self.seen[np.minimum(position, len(self.seen) - 1)] == unique_codes
        ) if len(self.seen) else np.zeros(len(unique_codes), bool)
        keep = first[~known]
        boards, clicks, parents = boards[keep], clicks[keep], parents[keep]
        self.seen = np.union1d(self.seen, unique_codes[~known])
        self.boards.append(boards)
        self.clicks.append(clicks)
        self.parents.append(parents)
        self.depth += 1
        return len(boards)

    def flat(self):
        depths = np.concatenate([np.full(len(b), d) for d, b in enumerate(self.boards)])
        return (np.concatenate(self.boards), np.concatenate(self.clicks), depths,
                np.concatenate(self.parents))


def _best_meeting(forward: _Side, backward: _Side):
    """(length, forward index, backward index) of the shortest meeting, or None."""
    f_boards, f_clicks, f_depths, _ = forward.flat()
    b_boards, b_clicks, b_depths, _ = backward.flat()
    common = np.intersect1d(f_boards, b_boards)
    if not len(common):
        return None
    f_index = np.flatnonzero(np.isin(f_boards, common))
    b_index = np.flatnonzero(np.isin(b_boards, common))
    # per board, the two shallowest states of each side: states are unique per (board,
    # click), so one of the four pairs has different clicks if any pair does
    ends = []
    for index, boards, depths in ((f_index, f_boards, f_depths), (b_index, b_boards, b_depths)):
        order = index[np.lexsort((depths[index], boards[index]))]
        first = np.searchsorted(boards[order], common)
        last = np.append(first[1:], len(order))
        second = np.where(first + 1 < last, first + 1, first)
        ends.append((order[first], order[second], first + 1 < last))
    (f1, f2, f_has2), (b1, b2, b_has2) = ends
    candidates = []
    for fi, f_ok in ((f1, True), (f2, f_has2)):
        for bi, b_ok in ((b1, True), (b2, b_has2)):
            valid = f_ok & b_ok & (f_clicks[fi] != b_clicks[bi])
            length = np.where(valid, f_depths[fi] + b_depths[bi], 1 << 30)
            candidates.append((length, fi, bi))
    lengths = np.stack([c[0] for c in candidates])
    choice = np.argmin(lengths, axis=0)
    best_lengths = lengths[choice, np.arange(len(common))]
    k = int(np.argmin(best_lengths))
    if best_lengths[k] >= 1 << 30:
        return None
    chosen = candidates[int(choice[k])]
    return int(best_lengths[k]), int(chosen[1][k]), int(chosen[2][k])


def bidirectional_path(rules: Tricolore, start: int, target: int,
                       max_states: int = 40_000_000, last: int = NO_CLICK
                       ) -> TricolorePath | None:
    """An optimal path from start to target (at least one click), or None if there is
    none; ``last`` is the square clicked just before ``start`` in a game in progress,
    which the path's first click may not repeat.  Refuses (SearchTooLargeError) before a level would take either side past
    ``max_states`` states, counting the candidates a level generates before it
    deduplicates them, so memory stays bounded on any board size."""
    tables = _Tables(rules)
    n = rules.n_squares
    forward = _Side(np.array([start], np.int64), np.array([last], np.int64),
                    np.array([-1], np.int64))
    # depth-1 backward states: (predecessor, click) whose click gives the target
    boards, clicks = [], []
    for square in range(n):
        before, _ = tables.unclick(np.array([target], np.int64), square)
        boards.append(before)
        clicks.append(np.full(len(before), square, np.int64))
    backward = _Side(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64))
    backward.add_level(np.concatenate(boards), np.concatenate(clicks),
                       np.full(sum(len(b) for b in boards), -1, np.int64))
    best = None
    while True:
        meeting = _best_meeting(forward, backward)
        if meeting and (best is None or meeting[0] < best[0]):
            best = meeting
        if best is not None and forward.depth + backward.depth >= best[0]:
            break
        grow_forward = len(forward.boards[-1]) <= len(backward.boards[-1])
        side = forward if grow_forward else backward
        boards, clicks, base = side.frontier()
        if not len(boards):
            if best is None:
                return None
            break
        stored = sum(len(b) for b in side.boards)
        candidates = len(boards) * (n - 1) * (2 if not grow_forward else 1)
        if stored + candidates > max_states:
            raise SearchTooLargeError(
                f"no table for this target, and a search would need more than "
                f"{max_states:,} states (~{max_states * SEARCH_BYTES_PER_STATE / 2**30:.1f} "
                f"GiB) after {forward.depth + backward.depth} clicks on a {rules.shape_name} "
                "board; build a table towards the target instead")
        new_boards, new_clicks, parents = [], [], []
        for square in range(n):
            checkpoint()  # a server's request that has ended stops its search here
            allowed = clicks != square
            if grow_forward:
                following = tables.click(boards[allowed], square)
                source = np.flatnonzero(allowed)
            else:
                following, source = tables.unclick(boards[allowed], square)
                source = np.flatnonzero(allowed)[source]
            new_boards.append(following)
            new_clicks.append(np.full(len(following), square, np.int64))
            parents.append(base + source)
        added = side.add_level(np.concatenate(new_boards), np.concatenate(new_clicks),
                               np.concatenate(parents))
        if added == 0 and best is None and not len(side.boards[-1]):
            return None
    _, f_index, b_index = best
    _, f_clicks, _, f_parents = forward.flat()
    _, b_clicks, _, b_parents = backward.flat()
    clicks: list[int] = []
    index = f_index
    while f_parents[index] >= 0:
        clicks.append(int(f_clicks[index]))
        index = f_parents[index]
    clicks.reverse()
    index = b_index
    while index >= 0:
        clicks.append(int(b_clicks[index]))
        index = b_parents[index]
    boards_along = [start]
    for square in clicks:
        boards_along.append(rules.click_one(boards_along[-1], square))
    return TricolorePath(start, target, "unrestricted", tuple(clicks), tuple(boards_along))
