"""Water sort's table kernel: every symmetry class's fewest pours to be cleared.

The classes are the ball tables' own (``search.enumerate_classes``: a pour, like a ball
move, commutes with relabelling colours and reordering tubes).  A pour is not undone by
a pour, so rather than search backwards over undone moves as the ball kernel does, this
one lists every class's pours forward, vectorised over all the classes at once for each
(from tube, to tube) pair (``Balls.pour``), and then searches the reversed graph level by
level from the cleared class.
"""

from __future__ import annotations

import numpy as np

from builder.contract.base import never_of, unreached
from puzzles.balls.tables import MOST_MOVES


def pour_graph(rules, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pour as an edge (class before, class after), by position in ``keys``."""
    codes = rules.codes_of_keys(keys)
    before, after = [], []
    for source in range(rules.tubes):
        for destination in range(rules.tubes):
            if source == destination:
                continue
            poured, legal = rules.pour(codes, source, destination)
            rows = np.flatnonzero(legal)
            found = rules.class_keys(poured[rows])
            where = np.minimum(np.searchsorted(keys, found), len(keys) - 1)
            if not np.array_equal(keys[where], found):
                raise RuntimeError(f"balls {rules.name}: a pour reached a class no "
                                   "enumerated class holds")
            before.append(rows)
            after.append(where)
    return np.concatenate(before), np.concatenate(after)


def pours_to_clear(rules, keys: np.ndarray, progress=None) -> np.ndarray:
    """Fewest pours to be cleared for every class in ``keys`` (``never_of(moves)``: never).
    ``progress(level, classes_at_level)`` is called once per level."""
    before, after = pour_graph(rules, keys)
    order = np.argsort(after, kind="stable")
    sources = before[order]  # the classes one pour before each class, grouped by it
    starts = np.searchsorted(after[order], np.arange(len(keys) + 1))
    moves = unreached(len(keys), MOST_MOVES)
    never = never_of(moves)
    frontier = np.array([np.searchsorted(keys, rules.cleared_key())])
    moves[frontier] = 0
    level = 0
    while len(frontier) and level < MOST_MOVES:
        counts = starts[frontier + 1] - starts[frontier]
        offsets = np.repeat(starts[frontier] - np.cumsum(counts) + counts, counts)
        earlier = np.unique(sources[offsets + np.arange(counts.sum())])
        frontier = earlier[moves[earlier] == never]
        level += 1
        moves[frontier] = level
        if progress is not None:
            progress(level, len(frontier))
    return moves
