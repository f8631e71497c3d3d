"""Baselines the benchmarks measure the product against, run in the same process.

* ``per_start_queue_bfs``: the obvious all-pairs build, one plain queue BFS per start
  over (board, last click) nodes, in numba.
* ``pure_python_single_pair``: what a query would cost without tables (a plain Python
  BFS from the start until the target is reached).
"""

from __future__ import annotations

from collections import deque

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _per_start_queue_bfs(successors, inside):
    n_boards, n_squares = successors.shape
    n_nodes = n_boards * (n_squares + 1)
    clicks = np.full((n_boards, n_boards), 255, dtype=np.uint8)
    parent = np.full(n_nodes, -1, dtype=np.int32)  # the path data a BFS tree gives
    distance = np.full(n_nodes, -1, dtype=np.int16)
    queue = np.empty(n_nodes, dtype=np.int32)
    for start in range(n_boards):
        distance[:] = -1
        head, tail = 0, 0
        first = start * (n_squares + 1) + n_squares
        distance[first] = 0
        queue[tail] = first
        tail += 1
        while head < tail:
            node = queue[head]
            head += 1
            board, last = node // (n_squares + 1), node % (n_squares + 1)
            for square in range(n_squares):
                following = successors[board, square]
                if square == last or following < 0:
                    continue
                child = following * (n_squares + 1) + square
                if distance[child] < 0:
                    distance[child] = distance[node] + 1
                    parent[child] = node
                    queue[tail] = child
                    tail += 1
                    if clicks[start, following] == 255 and inside[following]:
                        clicks[start, following] = distance[child]
    return clicks


def per_start_queue_bfs(successors: np.ndarray, inside: np.ndarray) -> np.ndarray:
    return _per_start_queue_bfs(successors, inside)


def pure_python_single_pair(rules, start: int, target: int, method: str) -> int:
    """Minimum clicks by a plain Python BFS at query time (no tables)."""
    from puzzles.tricolore import NO_CLICK

    seen = {(start, NO_CLICK)}
    queue = deque([(start, NO_CLICK, 0)])
    while queue:
        board, last, clicks = queue.popleft()
        for square, following in rules.legal_moves(board, last, method):
            if following == target:
                return clicks + 1
            if (following, square) not in seen:
                seen.add((following, square))
                queue.append((following, square, clicks + 1))
    return -1


def document_ball_search() -> tuple[int, int]:
    """The ball-tube document's own pure-Python search (backwards from one cleared state,
    states as strings), as published: (clearable states, clearable starting states)."""
    start_pattern = "rrrr|gggg|bbbb|"
    queue = [start_pattern]
    visited = {start_pattern}
    head = 0
    while head < len(queue):
        current = queue[head]
        head += 1
        tubes = current.split("|")
        for source in range(len(tubes)):
            balls = tubes[source]
            if len(balls) > 0 and (len(balls) == 1 or balls[0] == balls[1]):
                for target in range(len(tubes)):
                    if target != source and len(tubes[target]) < 4:
                        moved = list(tubes)
                        moved[target] = moved[source][0] + moved[target]
                        moved[source] = moved[source][1:]
                        state = "|".join(moved)
                        if state not in visited:
                            queue.append(state)
                            visited.add(state)
    initial = [state for state in queue if state[-1] == "|"]
    return len(queue), len(initial)
