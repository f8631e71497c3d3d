"""The document's Lucas search: level-synchronous breadth-first search in plain numpy over
the rules' perfect ranking and vectorised moves, each level expanded as whole arrays,
with shortest-path counts and per-path jump statistics carried along."""

from __future__ import annotations

import numpy as np

from builder.contract.work import checkpoint


def lucas_search(rules, source: int):
    """Level-synchronous BFS from ``source`` over every arrangement (vectorised): distance,
    number of shortest paths, and the fewest / most jumps over shortest paths."""
    n_states = len(rules.codes)
    distance = np.full(n_states, -1, dtype=np.int32)
    paths = np.zeros(n_states, dtype=np.float64)
    fewest_jumps = np.full(n_states, np.iinfo(np.int32).max, dtype=np.int32)
    most_jumps = np.full(n_states, -1, dtype=np.int32)
    first = int(rules.rank(np.array([source]))[0])
    distance[first], paths[first], fewest_jumps[first], most_jumps[first] = 0, 1, 0, 0
    frontier = np.array([first])
    level = 0
    while len(frontier):
        checkpoint()  # a server's request that has ended stops its search here
        level += 1
        codes = rules.codes[frontier]
        reached = []
        for following, legal, kind, _ in rules.moves(codes):
            parents = frontier[legal]
            children = rules.rank(following[legal])
            fresh = (distance[children] == -1) | (distance[children] == level)
            parents, children = parents[fresh], children[fresh]
            distance[children] = level
            np.add.at(paths, children, paths[parents])
            jump = 1 if kind == "jump" else 0
            np.minimum.at(fewest_jumps, children, fewest_jumps[parents] + jump)
            np.maximum.at(most_jumps, children, most_jumps[parents] + jump)
            reached.append(children)
        frontier = np.unique(np.concatenate(reached)) if reached else np.array([], int)
    return distance, paths, fewest_jumps, most_jumps
