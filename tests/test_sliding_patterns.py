"""The sliding tiles' larger pattern databases and their look-ups: the 7-8 partition
first among the sets a search looks for; dual look-ups that never exceed the 8-puzzle's
distances (worked out here from the stored tables, the rule for which patterns a dual
look-up may read derived in the test); tables searched folded, on a board small enough
to build in a test, answering as a plain search does; Korf's instances on the 7-8 tables
where they are stored (no test builds them: they take minutes)."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
import zarr

from builder import patterns, registry
from builder.reader import Tables
from builder.routine import build_table
from tests import reference

SLIDING = registry.by_name("sliding")
KORF = json.loads((Path(__file__).parent / "korf100.json").read_text())


def beside(cell: int, columns: int = 3, rows: int = 3) -> list[int]:
    row, column = divmod(cell, columns)
    return [r * columns + c for r, c in ((row - 1, column), (row + 1, column),
                                         (row, column - 1), (row, column + 1))
            if 0 <= r < rows and 0 <= c < columns]


def reached_without(start: int, blocked: set[int]) -> set[int]:
    seen, frontier = {start}, [start]
    while frontier:
        for other in beside(frontier.pop()):
            if other not in blocked and other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen


def arrangement(cells: list[int], total: int, ranks: dict) -> int:
    key = (len(cells), total)
    if key not in ranks:
        ranks[key] = {found: rank for rank, found in
                      enumerate(permutations(range(total), len(cells)))}
    return ranks[key][tuple(cells)]


def test_dual_lookups_never_exceed_the_eight_puzzle_distance(data_dir):
    """Towards 123.456.780 (the blank's goal cell 8), name each tile by its goal cell.
    The dual of a position puts the tile named c at the goal cell of the tile in cell c;
    read backwards, a shortest path from the position is one from the dual to the goal
    with the tiles named b (the blank's cell) and 8 exchanged, tile b sliding where the
    blank would.  So a pattern's table bounds the dual only where b is none of its goal
    cells and the blank reaches b from cell 8 in the goal without moving its tiles.
    Those sums, on the position and on its reflection, never exceed the full table's
    distance; the search starts from the largest estimate (rounded up to the parity of
    the distance), and its paths are shortest."""
    distance = zarr.open_group(data_dir / "sliding" / "3x3.zarr", mode="r")["blank8"][...]
    estimate = {tiles: zarr.open_group(
        data_dir / "sliding" / "patterns" / "3x3" / f"blank8-{'-'.join(map(str, tiles))}.zarr",
        mode="r")["estimate"][...].astype(int) for tiles in ((1, 2, 3, 4), (5, 6, 7, 8))}
    home = {0: 8, **{tile: tile - 1 for tile in range(1, 9)}}
    mirror = [(cell % 3) * 3 + cell // 3 for cell in range(9)]
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    mirror_tile = {goal[cell]: goal[mirror[cell]] for cell in range(9)}
    allowed = {tiles: reached_without(8, {home[tile] for tile in tiles}) for tiles in estimate}
    ranks: dict = {}

    def sums(position: tuple[int, ...]) -> tuple[int, int]:
        where = {tile: cell for cell, tile in enumerate(position)}
        blank = where[0]
        plain = sum(table[arrangement([where[tile] for tile in tiles], 9, ranks)]
                    for tiles, table in estimate.items())
        dual = sum(table[arrangement([home[position[home[tile]]] for tile in tiles], 9, ranks)]
                   for tiles, table in estimate.items() if blank in allowed[tiles])
        return plain, dual

    rng = np.random.default_rng(57)
    reached = np.flatnonzero(distance != 255)
    engine = Tables(data_dir)
    target = SLIDING.parse((3, 3), "123.456.780")
    better = 0
    for number, rank in enumerate(rng.choice(reached, 3000, replace=False)):
        from puzzles.sliding.rules import lehmer_unrank

        position = lehmer_unrank(int(rank), 9)
        reflected = [0] * 9
        for cell, tile in enumerate(position):
            reflected[mirror[cell]] = mirror_tile[tile]
        found = [*sums(position), *sums(tuple(reflected))]
        moves = int(distance[rank])
        assert max(found) <= moves, position
        expected = max(value + (value - found[0]) % 2 for value in found)
        better += expected > max(found[0], found[2])
        if number < 300:
            from puzzles.sliding.tables import search_for

            search = search_for(engine, (3, 3), position, target, dual=True)
            assert patterns.start_estimate(engine, search) == expected, position
        if number < 40:
            assert patterns.run(engine, search).length == moves
    assert better > 0  # the dual look-ups add something


def test_the_seven_eight_partition_is_looked_for_first():
    """The 15-puzzle's partitions by their tables' entries, the largest first: 7-8 (the
    board's halves, 16!/9! + 16!/8! entries), then 7-7-1, then the rest."""
    from math import perm

    from puzzles.sliding.tables import _candidates, partition_tiles

    found = _candidates(4, 4)
    assert found[:2] == ["7-8", "7-7-1"] and found[-1] == "manhattan"
    assert partition_tiles(4, 4, 0, "7-8") == (tuple(range(1, 8)), tuple(range(8, 16)))
    assert sum(perm(16, len(tiles)) for tiles in partition_tiles(4, 4, 0, "7-8")) == (
        57_657_600 + 518_918_400)


def plain_distance(rows: int, columns: int, start: tuple, target: tuple) -> int:
    """Fewest moves by a search from both ends."""
    moves = reference.sliding_moves(rows, columns)
    seen = ({start: 0}, {target: 0})
    frontiers = ([start], [target])
    if start == target:
        return 0
    while True:
        side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
        following = []
        for here in frontiers[side]:
            for after in moves(here):
                if after in seen[1 - side]:
                    return seen[side][here] + 1 + seen[1 - side][after]
                if after not in seen[side]:
                    seen[side][after] = seen[side][here] + 1
                    following.append(after)
        frontiers = (following, frontiers[1]) if side == 0 else (frontiers[0], following)


def test_tables_searched_folded_answer_a_small_board_as_a_plain_search(tmp_path,
                                                                      monkeypatch):
    """The 7-8 tables' mechanism on 3×4, where a test builds it in seconds: every pattern
    table searched folded, the search choosing them by what is stored, with and without
    the dual look-ups; each distance that of a plain search."""
    from puzzles.sliding import tables as sliding_tables
    from query.api import open_tablebase

    monkeypatch.setattr(sliding_tables, "FOLDED_FROM", 1)
    board = (3, 4)
    tables = sliding_tables.pattern_set(*board, 0, sliding_tables.default_partition(*board))
    assert all(table.searched["estimate"].folded > 1 for table in tables)
    for table in tables:
        build_table(tmp_path, table, progress=False, log=lambda *_: None)
    sliding = open_tablebase(tmp_path).puzzle("sliding")
    goal = SLIDING.parse(board, "0,1,2,3.4,5,6,7.8,9,10,11")
    rng = np.random.default_rng(34)
    for _ in range(6):
        here, previous = goal, None
        for _ in range(36):  # a random walk, never straight back
            options = [after for after in reference.sliding_moves(*board)(here)
                       if after != previous]
            previous, here = here, options[rng.integers(len(options))]
        expected = plain_distance(*board, here, goal)
        assert sliding.distance(SLIDING.format(board, here), "0,1,2,3.4,5,6,7.8,9,10,11") == (
            expected)
        search = sliding_tables.search_for(Tables(tmp_path), board, here, goal, dual=True)
        assert patterns.run(Tables(tmp_path), search).length == expected


@pytest.mark.parametrize("number", (47, 19, 12, 88, 60))
def test_korf_instances_on_the_seven_eight_tables_where_stored(data_dir, number):
    from puzzles.sliding.tables import search_for

    tables = Tables(data_dir)
    folder = tables.stored(("sliding", "patterns", "4x4"))
    if not {"blank0-1-2-3-4-5-6-7", "blank0-8-9-10-11-12-13-14-15"} <= set(folder):
        pytest.skip("no 7-8 tables stored (`builder build sliding 4x4:7-8` makes them)")
    instance = KORF["instances"][number - 1]
    goal = SLIDING.parse((4, 4), KORF["goal"])
    start = tuple(instance["tiles"])
    for dual in (False, True):
        search = search_for(tables, (4, 4), start, goal, dual=dual)
        assert search.patterns[0].spec.parts[-1] == "blank0-1-2-3-4-5-6-7"
        found = patterns.run(tables, search)
        path = patterns.found_path(SLIDING, (4, 4), start, search, found)
        assert found.length == instance["length"] and path.nodes[-1] == goal
