"""A cube a few turns from its target, answered exactly at once in plain Python: the
positions at most ``REACH`` turns from the target by breadth-first search (``ball``), and
the start's distance and path worked out down to that ball.  It loads no numba kernel and
reads no table, so a trivial question costs a process little more than its imports,
where the pattern search would load its kernels and check its tables first.

Exact: the ball holds every position within ``REACH`` turns with its fewest turns (the
turns of a metric include their inverses, so the fewest turns from the target are the
fewest to it), and a position is within ``n > REACH`` turns exactly when one of its turns
leads within ``n - 1``.  The path is the first shortest one in the order the pattern
search tries turns (per face U R F D L B, X X2 X'), skipping the pairs it skips
(``rules.redundant_pairs``), so both searches give the same path.
"""

from __future__ import annotations

from functools import lru_cache

from puzzles.rubik.rules import redundant_pairs, turn_names, turned

REACH = 2
"""Turns searched from the target (1 + 18 + 243 positions in the half-turn metric)."""
MOST = 2 * REACH
"""The longest path answered here: each step down to the ball tries every turn, so a
miss costs about 18^(MOST - REACH) turns of the start on top of the ball's."""
HOW = "a search from both ends"


@lru_cache(maxsize=8)
def ball(metric: str, target) -> dict:
    """Every position at most ``REACH`` turns from ``target``, with its fewest turns."""
    turns = [(face, times) for _, face, times in turn_names(metric)]
    found = {target: 0}
    layer = [target]
    for depth in range(1, REACH + 1):
        following = []
        for position in layer:
            for face, times in turns:
                after = turned(position, face, times)
                if after not in found:
                    found[after] = depth
                    following.append(after)
        layer = following
    return found


@lru_cache(maxsize=256)
def path(metric: str, start, target) -> tuple[tuple, tuple[str, ...]] | None:
    """A shortest path from ``start`` to ``target`` as (positions, turn labels), or None
    when it is longer than ``MOST`` turns."""
    near = ball(metric, target)
    names = turn_names(metric)
    skipped = set(redundant_pairs(metric))

    def within(position, turns: int) -> bool:
        if near.get(position, MOST + 1) <= turns:
            return True
        return turns > REACH and any(within(turned(position, face, times), turns - 1)
                                     for _, face, times in names)

    if not within(start, MOST):
        return None
    length = next(turns for turns in range(MOST + 1) if within(start, turns))

    def first(position, turns: int, previous: int) -> list | None:
        """The first path of ``turns`` turns from ``position`` to the target, in the
        search's order."""
        if not turns:
            return [] if position == target else None
        for number, (label, face, times) in enumerate(names):
            if (previous, number) in skipped:
                continue
            after = turned(position, face, times)
            if within(after, turns - 1):
                rest = first(after, turns - 1, number)
                if rest is not None:
                    return [(label, after), *rest]
        return None

    steps = first(start, length, -1)
    return (start, *(after for _, after in steps)), tuple(label for label, _ in steps)
