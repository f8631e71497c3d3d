"""Sliding tiles' instant paths (``Walking.approximate_path``): a path found at once on a
board answered by search, not shortest in general, which the exact search then improves
while a caller's time lasts.

A *beam search*: from the start, every position one move further, the ones seen before
dropped, and of those only the ``BEAM`` nearest the target by an estimate kept, until
one of them is the target.  The estimate is the pattern databases' sum (the larger of it
and the sum on the position reflected about the main diagonal), from the smallest set
stored for the target's blank cell, else the tiles' Manhattan distance.  A beam may lose
its way (every position it kept leads only where it has been); then the board is solved
the way a person does, a row or a column at a time (``by_rows``): each tile placed by a
plain search over the cells of the tiles it moves, the last two of a row together.

Both work on a position as its tiles *relabelled* onto the goal its tables answer
(``PatternSearch.encode``), and the path is replayed through the plug-in's moves.
"""

from __future__ import annotations

import threading
from collections import deque
from math import perm

import numpy as np

from builder.contract.base import FoundPath, never_of
from builder.contract.errors import UnreachableError
from builder.contract.patterns import PatternSearch
from builder.contract.work import checkpoint
from puzzles.sliding.rules import beside, goal_with_blank_at, reflection

BEAM = 1024
"""Positions a beam keeps at each depth: a wider beam finds shorter paths, slower."""
MOST_ENTRIES = 1 << 24
"""Pattern tables larger than this are not read for a beam (the 7-8 tables: half a
gigabyte to decompress); a smaller stored set, or the Manhattan distance, guides it."""
HOW = "a beam search on pattern databases"
HOW_MANHATTAN = "a beam search on the Manhattan distance"
HOW_ROWS = "a row and a column at a time"
WAYS = 4
"""The blank goes up, down, left or right (``rules.beside``)."""
UNDO = (1, 0, 3, 2)
"""The way that undoes each way."""


def approximate(tables, board: tuple[int, int], node: tuple[int, ...],
                target: tuple[int, ...], search: PatternSearch | None,
                moves) -> FoundPath:
    """A path from ``node`` to ``target`` at once: the beam's, else a row at a time;
    ``search``: the exact search on the smallest stored pattern tables (its ``encode`` and
    ``goal`` say how positions are relabelled), None for the Manhattan distance;
    ``moves(board, position)``: the plug-in's moves, through which the path is
    replayed."""
    if node == target:  # no move: the shortest path, whatever finds it
        return FoundPath((node,), (), how="the start is the target", optimal=True)
    cells = board[0] * board[1]
    if search is None:
        goal = goal_with_blank_at(cells, target.index(0))
        relabel = dict(zip(target, goal))

        def encode(position):
            return tuple(relabel[tile] for tile in position)

        estimate, how = _manhattan(board, goal), HOW_MANHATTAN
    else:
        encode, goal = search.encode, search.goal
        estimate, how = _patterns(tables, board, search), HOW
    start = encode(node)
    path = _beam(board, start, goal, estimate, BEAM)
    if path is None:
        path, how = by_rows(board, start, goal), HOW_ROWS
    nodes, labels = [node], []
    for after in path[1:]:
        move = next(move for move in moves(board, nodes[-1]) if encode(move.state) == after)
        nodes.append(move.state)
        labels.append(move.label)
    return FoundPath(tuple(nodes), tuple(labels), how=how, optimal=False)


def _neighbours(rows: int, columns: int) -> np.ndarray:
    """The cell beside each cell in each way (-1: off the board)."""
    return np.array([[beside(cell, way, rows, columns) for way in range(WAYS)]
                     for cell in range(rows * columns)], dtype=np.int64)


def _manhattan(board: tuple[int, int], goal: tuple[int, ...]):
    """The tiles' Manhattan distance to ``goal``, of many positions at once (``where``:
    the cell of each tile, a row a position)."""
    columns = board[1]
    cells = len(goal)
    home = np.array([goal.index(tile) for tile in range(cells)], dtype=np.int64)
    distance = np.array([[abs(cell // columns - home[tile] // columns)
                          + abs(cell % columns - home[tile] % columns) if tile else 0
                          for tile in range(cells)] for cell in range(cells)], dtype=np.int64)
    tiles = np.arange(cells)

    def estimate(where: np.ndarray) -> np.ndarray:
        return distance[where, tiles].sum(axis=1)

    return estimate


def _patterns(tables, board: tuple[int, int], search: PatternSearch):
    """The pattern databases' estimate of many positions at once, as the exact search
    sums them (each group of tables adds, the larger group sum wins); the reflected
    position's look-ups where the search has them (group 1)."""
    rows, columns = board
    cells = rows * columns
    mirror = reflection(rows, columns, search.goal.index(0))
    cell_map, tile_map = (np.array(mirror[0], np.int64), np.array(mirror[1], np.int64)) \
        if mirror else (None, None)
    looked_up = []
    for table in search.patterns:
        tiles = np.array(table.spec.identity["tiles"], dtype=np.int64)
        values = _read(tables, table.spec.parts, table.array)
        weights = np.array([perm(cells - 1 - place, len(tiles) - 1 - place)
                            for place in range(len(tiles))], dtype=np.int64)
        looked_up.append((table.group, tiles, np.asarray(values), weights))

    def estimate(where: np.ndarray) -> np.ndarray:
        sums: dict[int, np.ndarray] = {}
        for group, tiles, values, weights in looked_up:
            if group == 1:
                at = cell_map[where[:, tile_map[tiles]]]
            else:
                at = where[:, tiles]
            before = (at[:, None, :] < at[:, :, None]) & _EARLIER[len(tiles)]
            rank = ((at - before.sum(axis=2)) * weights).sum(axis=1)
            found = values[rank].astype(np.int64)
            found[found == never_of(values)] = 1 << 20
            sums[group] = sums.get(group, 0) + found
        return np.maximum.reduce(list(sums.values()))

    return estimate


_KEPT: dict[tuple, np.ndarray] = {}
_KEPT_LOCK = threading.Lock()
KEPT_ARRAYS = 8
"""Pattern arrays a process keeps between beams (a server answers many)."""


def _read(tables, parts: tuple[str, ...], array: str) -> np.ndarray:
    """A stored pattern array whole, kept while its table is the same build: a beam
    trusts it only to guide it (every path is replayed move by move, and claims no
    optimum), so a table's build names it well enough."""
    build = tables.require(parts).get("build_id", "")
    key = (tables.describe(parts), array, build)
    with _KEPT_LOCK:
        found = _KEPT.get(key)
    if found is None:
        found = np.asarray(tables.vector(parts, array).whole())
        with _KEPT_LOCK:
            _KEPT[key] = found
            while len(_KEPT) > KEPT_ARRAYS:
                _KEPT.pop(next(iter(_KEPT)))
    return found


_EARLIER = {size: np.tri(size, size, -1, dtype=bool) for size in range(1, 17)}
"""[i, j]: place j comes before place i (a rank counts the smaller cells before each)."""


def _beam(board: tuple[int, int], start: tuple[int, ...], goal: tuple[int, ...],
          estimate, width: int = BEAM, deepest: int = 1000) -> list[tuple[int, ...]] | None:
    """The positions from ``start`` to ``goal`` the beam finds; None where it loses its
    way or goes deeper than ``deepest``."""
    rows, columns = board
    cells = rows * columns
    if start == goal:
        return [start]
    around = _neighbours(rows, columns)
    undo = np.array(UNDO, dtype=np.int64)
    shifts = np.arange(cells, dtype=np.uint64) * np.uint64(4)

    def key(tiles: np.ndarray) -> np.ndarray:
        return (tiles.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)

    tiles = np.array([start], dtype=np.int64)
    where = np.argsort(tiles, axis=1)
    last = np.array([-1], dtype=np.int64)
    keys = key(tiles)
    target = key(np.array([goal]))[0]
    seen = keys.copy()
    layers: list[tuple[np.ndarray, np.ndarray]] = []  # each kept position's parent and way
    for _ in range(deepest):
        checkpoint()
        blank = where[:, 0]
        parents, ways = [], []
        for way in range(WAYS):
            other = around[blank, way]
            legal = np.flatnonzero((other >= 0) & (last != undo[way]))
            parents.append(legal)
            ways.append(np.full(len(legal), way, dtype=np.int64))
        parent = np.concatenate(parents)
        way = np.concatenate(ways)
        if not len(parent):
            return None
        at = where[parent, 0]
        to = around[at, way]
        moved = tiles[parent, to]
        child_keys = (keys[parent] + (moved.astype(np.uint64) << (at.astype(np.uint64) * 4))
                      - (moved.astype(np.uint64) << (to.astype(np.uint64) * 4)))
        child_keys, first = np.unique(child_keys, return_index=True)
        places = np.searchsorted(seen, child_keys)
        new = seen[np.minimum(places, len(seen) - 1)] != child_keys
        child_keys, first = child_keys[new], first[new]
        if not len(first):
            return None
        parent, way, at, to, moved = parent[first], way[first], at[first], to[first], \
            moved[first]
        count = len(first)
        index = np.arange(count)
        child_tiles = tiles[parent]
        child_tiles[index, at] = moved
        child_tiles[index, to] = 0
        child_where = where[parent]
        child_where[index, moved] = at
        child_where[index, 0] = to
        done = np.flatnonzero(child_keys == target)
        if len(done):
            layers.append((parent, way))
            return _replayed(board, start, layers, int(done[0]), around)
        if count > width:
            kept = np.argpartition(estimate(child_where), width)[:width]
            child_tiles, child_where, child_keys = (child_tiles[kept], child_where[kept],
                                                    child_keys[kept])
            parent, way = parent[kept], way[kept]
        ordered = np.sort(child_keys)
        seen = np.insert(seen, np.searchsorted(seen, ordered), ordered)
        layers.append((parent, way))
        tiles, where, keys, last = child_tiles, child_where, child_keys, way
    return None


def _replayed(board, start, layers, index, around) -> list[tuple[int, ...]]:
    """The positions from ``start`` along the ways the beam's layers recorded, back from
    its ``index``-th position at the last layer."""
    ways = []
    for parent, way in reversed(layers):
        ways.append(int(way[index]))
        index = int(parent[index])
    positions = [start]
    for way in reversed(ways):
        tiles = list(positions[-1])
        blank = tiles.index(0)
        other = int(around[blank, way])
        tiles[blank], tiles[other] = tiles[other], 0
        positions.append(tuple(tiles))
    return positions


def by_rows(board: tuple[int, int], start: tuple[int, ...], goal: tuple[int, ...]
            ) -> list[tuple[int, ...]]:
    """The positions from ``start`` to ``goal`` (of one parity) solved as a person does:
    the outer row or column of the unsolved rectangle that does not hold the goal's blank
    is filled, its tiles one by one and the last two together (a tile placed alone there
    would block the other's way in), until a 2x2 rectangle is left, solved whole.  Each
    step is a breadth-first search over the cells of the blank and the tiles it places,
    the other unsolved tiles moving freely, the solved ones never."""
    rows, columns = board
    blank = goal.index(0)
    top, bottom, left, right = 0, rows, 0, columns  # the unsolved rectangle
    positions = [start]
    while bottom - top > 2 or right - left > 2:
        goal_row, goal_column = divmod(blank, columns)
        if bottom - top > 2 and bottom - top >= right - left:
            row = top if goal_row != top else bottom - 1
            line = [row * columns + column for column in range(left, right)]
            if row == top:
                top += 1
            else:
                bottom -= 1
        else:
            column = left if goal_column != left else right - 1
            line = [row * columns + column for row in range(top, bottom)]
            if column == left:
                left += 1
            else:
                right -= 1
        free = {row * columns + column for row in range(top, bottom)
                for column in range(left, right)} | set(line)
        for group in [[cell] for cell in line[:-2]] + [line[-2:]]:
            positions += _placed(board, positions[-1], group, goal, free)[1:]
            free -= set(group)
    last = [row * columns + column for row in range(top, bottom)
            for column in range(left, right)]
    positions += _placed(board, positions[-1], [cell for cell in last if cell != blank],
                         goal, set(last), whole=True)[1:]
    return positions


def _placed(board, position, group, goal, free, whole=False) -> list[tuple[int, ...]]:
    """The positions that bring the goal's tiles of ``group`` (cells) to their cells,
    moving only within ``free`` cells (``whole``: and the blank to its goal cell), by a
    breadth-first search over the blank's cell and those tiles' cells."""
    rows, columns = board
    tiles = [goal[cell] for cell in group]

    def state_of(here):
        return (here.index(0), *(here.index(tile) for tile in tiles))

    wanted = tuple(group)
    first = state_of(position)
    came = {first: None}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if state[1:] == wanted and (not whole or state[0] == goal.index(0)):
            break
        for way in range(WAYS):
            other = beside(state[0], way, rows, columns)
            if other < 0 or other not in free:
                continue
            after = tuple(state[0] if cell == other else cell for cell in state[1:])
            following = (other, *after)
            if following not in came:
                came[following] = state
                queue.append(following)
    else:
        raise UnreachableError("the tiles cannot be placed: a position of the other parity")
    blanks = []
    while state is not None:
        blanks.append(state[0])
        state = came[state]
    path = [position]
    for cell in reversed(blanks[:-1]):
        here = list(path[-1])
        at = here.index(0)
        here[at], here[cell] = here[cell], 0
        path.append(tuple(here))
    return path
