"""`builder verify`'s own checks of Tricolore tables, independent of the kernels that
built them: all-pairs rows recomputed by a plain queue search over (board, last click)
nodes from sampled starts; single-target tables checked against the shortest-path
recurrence at sampled boards."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from builder.contract.base import never_of, unreached
from puzzles.tricolore.rules import (
    NO_CLICK,
    WALK_ARRAYS,
    Tricolore,
    column_clicks,
)

PLAIN_SEARCH_MAX_SQUARES = 8
"""All-pairs rows are re-derived up to this board size (a plain search per row)."""
ENTRIES_PER_ROW = 100
"""A sampled all-pairs row stands for this many sampled entries."""


def checks(attributes: dict) -> str:
    if "kind" in attributes:
        return ""
    if "target" in attributes:
        return ("the least entry is 1, one click from the target; the shortest-path "
                "recurrence at sampled boards")
    if attributes["width"] * attributes["height"] <= PLAIN_SEARCH_MAX_SQUARES:
        return f"rows from sampled starts (one per {ENTRIES_PER_ROW} entries) equal a plain BFS"
    return ""


def sample(attributes: dict, read: Callable[[str], Any], samples: int, rng) -> str | None:
    if not checks(attributes):
        return None
    rules = Tricolore(attributes["width"], attributes["height"])
    if "target" in attributes:
        return _sample_target(rules, attributes["target"], read, samples, rng)
    return _sample_all_pairs(rules, attributes["method"], read("clicks"),
                             max(1, samples // ENTRIES_PER_ROW), rng)


def _plain_row(successors: np.ndarray, inside: np.ndarray, start: int) -> np.ndarray:
    """Fewest clicks from ``start`` to every board, by a plain queue BFS over nodes."""
    n_boards, n_squares = successors.shape
    best = unreached(n_boards)
    never = never_of(best)
    seen = {(start, -1)}
    queue = deque([(start, -1, 0)])
    while queue:
        board, last, clicks = queue.popleft()
        for square in range(n_squares):
            following = int(successors[board, square])
            if square == last or following < 0 or (following, square) in seen:
                continue
            seen.add((following, square))
            if best[following] == never and inside[following]:
                best[following] = clicks + 1
            queue.append((following, square, clicks + 1))
    return best


def _sample_all_pairs(rules: Tricolore, method: str, clicks: np.ndarray, rows: int,
                      rng) -> str | None:
    successors = rules.successor_table(method)
    inside = rules.in_state_space(rules.all_boards(), method)
    for start in rng.integers(0, rules.n_boards, rows):
        if not np.array_equal(clicks[int(start), :], _plain_row(successors, inside,
                                                                int(start))):
            return f"row of start {rules.format(int(start))} differs from a plain BFS"
    return None


def _sample_target(rules: Tricolore, target_name: str, read, samples: int,
                   rng) -> str | None:
    target = rules.parse(target_name)
    columns = [read(name) for name in WALK_ARRAYS]
    never = never_of(columns[0])
    # checked whole, not sampled: a forgery that raises every entry keeps the recurrence
    # everywhere but next to the target, where the least entry must be 1
    ones = np.flatnonzero(columns[0] == 1)
    if columns[0].min() != 1 or any(
            target not in (following for _, following in
                           rules.legal_moves(int(board), NO_CLICK, "unrestricted"))
            for board in ones):
        return "the least entry is not 1, or a board holding 1 click is not one click away"
    for board in rng.integers(0, rules.n_boards, samples):
        board = int(board)
        options = [column_clicks(columns, following, square, target) for square, following
                   in rules.legal_moves(board, NO_CLICK, "unrestricted")]
        best = min(options)
        expected = never if best == never else best + 1
        if expected != columns[0][board]:
            return f"board {rules.format(board)} breaks the shortest-path recurrence"
    return None
