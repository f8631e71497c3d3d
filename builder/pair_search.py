"""The engine's search between two positions of a keyed puzzle that no table holds (a
target other than the goal): breadth-first from both ends over the plug-in's moves (and
its moves undone, ``unmoves``), within ``MOST_POSITIONS``.  Towards
the goal there is none: a position no table holds wants a table from it (`builder build
NAME VARIANT:START`), as the missing table's error says."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import pairwise
from typing import Any

from builder.contract.base import FoundPath
from builder.contract.errors import MissingTableError, UnreachableError
from builder.contract.puzzle import GOAL, KeyedPuzzle
from builder.contract.work import checkpoint


MOST_POSITIONS = 500_000
"""The most positions the search between two positions no table holds may visit (a path
to a target that is not the goal); past it, the error says how far apart they are at
least."""

def pair_path(puzzle: Any, variant: Any, node: Hashable, target: Hashable
              ) -> FoundPath | None:
    """A shortest path between two positions of a keyed puzzle, where the target is not
    its goal; None for any other question (no search of this kind answers it)."""
    if not isinstance(puzzle, KeyedPuzzle) or target == GOAL:
        return None
    return _searched_path(puzzle, variant, node, target)


def _searched_path(puzzle: KeyedPuzzle, variant: Any, start: Hashable,
                   target: Hashable) -> FoundPath:
    """A shortest path by breadth-first search from both ends, a whole level at a time,
    the smaller frontier first (moves that cannot be undone go backwards by
    ``unmoves``).  Each side maps a position to (the position one step nearer its end,
    its depth); the moves' labels are read once the path is found."""
    budget = MOST_POSITIONS
    ahead: dict[Hashable, tuple] = {start: (None, 0)}
    behind: dict[Hashable, tuple] = {target: (None, 0)}
    if start == target:
        return _joined(puzzle, variant, start, ahead, behind)
    forward, backward = [start], [target]
    while forward and backward:
        checkpoint()
        if len(ahead) + len(behind) > budget:
            apart = ahead[forward[0]][1] + behind[backward[0]][1]
            raise MissingTableError(
                f"no path found within {budget:,} positions searched: the two lie more "
                f"than {apart} moves apart; build a table from the start (`builder build "
                f"{puzzle.name} START`) to walk to the goal")
        if len(forward) <= len(backward):
            forward, met = _expand(puzzle, variant, forward, ahead, behind, True)
        else:
            backward, met = _expand(puzzle, variant, backward, behind, ahead, False)
        if met is not None:
            return _joined(puzzle, variant, met, ahead, behind)
    raise UnreachableError(puzzle.explain_unreachable(variant, start, target))


def _expand(puzzle: KeyedPuzzle, variant: Any, frontier: list, seen: dict, other: dict,
            forward: bool) -> tuple[list, Hashable | None]:
    """One whole level; the meeting position with the shortest path through it, if any
    (every meeting of a level is looked at: the first need not be the shortest)."""
    following, best, met = [], None, None
    for here in frontier:
        depth = seen[here][1] + 1
        before = None if forward else puzzle.unmoves(variant, here)
        steps = before if before is not None else [
            move.state for move in puzzle.moves(variant, here)]
        for there in steps:
            if there in seen:
                continue
            seen[there] = (here, depth)
            if there in other and (best is None or depth + other[there][1] < best):
                best, met = depth + other[there][1], there
            following.append(there)
    return following, met


def _joined(puzzle: KeyedPuzzle, variant: Any, met: Hashable, ahead: dict, behind: dict
            ) -> FoundPath:
    nodes = [met]
    while ahead[nodes[0]][0] is not None:
        nodes.insert(0, ahead[nodes[0]][0])
    while behind[nodes[-1]][0] is not None:
        nodes.append(behind[nodes[-1]][0])
    labels = [next(move.label for move in puzzle.moves(variant, here) if move.state == there)
              for here, there in pairwise(nodes)]  # read forwards, whichever side found them
    return FoundPath(tuple(nodes), tuple(labels), "search from both ends")
