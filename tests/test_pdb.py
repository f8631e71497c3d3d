"""Pattern databases built by the engine from the sliding plug-in's abstractions: each
equals a plain search over its abstraction written here, a pattern of one tile is its
Manhattan distance, the additive estimates (with the reflection) never exceed the
8-puzzle's full table, and `builder verify` re-derives them and finds a forged one."""

from __future__ import annotations

from collections import deque
from itertools import permutations

import numpy as np
import pytest
import zarr

from builder import registry
from builder.routine import build_table, table_path
from builder.store import record_checksums
from builder.verify import verify_table
from puzzles.sliding.rules import goal_with_blank_at
from puzzles.sliding.tables import pattern_set, pattern_table

SLIDING = registry.by_name("sliding")
NEVER = 255


def neighbours(rows: int, columns: int, cell: int) -> list[int]:
    row, column = divmod(cell, columns)
    return [r * columns + c for r, c in ((row - 1, column), (row + 1, column),
                                         (row, column - 1), (row, column + 1))
            if 0 <= r < rows and 0 <= c < columns]


def plain_pattern_search(rows: int, columns: int, blank: int, tiles: tuple[int, ...]
                         ) -> dict[tuple[tuple[int, ...], int], int]:
    """Fewest moves of ``tiles`` alone from every (cells of the tiles, blank's cell) to
    the goal with the blank at ``blank``: a 0-1 search, the blank's other moves free."""
    goal = goal_with_blank_at(rows * columns, blank)
    start = (tuple(goal.index(tile) for tile in tiles), blank)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        cells, hole = state = queue.popleft()
        for other in neighbours(rows, columns, hole):
            if other in cells:
                moved = tuple(hole if cell == other else cell for cell in cells)
                after, cost = (moved, other), 1
            else:
                after, cost = (cells, other), 0
            if distance[state] + cost < distance.get(after, 1 << 30):
                distance[after] = distance[state] + cost
                (queue.appendleft if cost == 0 else queue.append)(after)
    return distance


def least_of_region(rows: int, columns: int, cells: tuple[int, ...], hole: int) -> int:
    seen, frontier = {hole}, [hole]
    while frontier:
        for other in neighbours(rows, columns, frontier.pop()):
            if other not in cells and other not in seen:
                seen.add(other)
                frontier.append(other)
    return min(seen)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    data = tmp_path_factory.mktemp("patterns")
    for spec in SMALL_PATTERNS:
        build_table(data, spec, progress=False, log=lambda *_: None)
    return data


SMALL_PATTERNS = [table.spec() for table in (
    pattern_table(3, 3, 8, (1, 2, 3, 4)), pattern_table(3, 3, 8, (5, 6, 7, 8)),
    pattern_table(2, 4, 0, (1, 2, 5)), pattern_table(2, 4, 7, (3, 4, 7)),
    pattern_table(3, 3, 4, (2, 8, 5)))]


@pytest.mark.parametrize("spec", SMALL_PATTERNS, ids=lambda spec: spec.parts[-2] + "/" + spec.parts[-1])
def test_each_pattern_database_equals_a_plain_search_over_its_abstraction(small, spec):
    rows, columns = spec.identity["rows"], spec.identity["columns"]
    blank, tiles = spec.identity["blank"], tuple(spec.identity["tiles"])
    cells = rows * columns
    expected = plain_pattern_search(rows, columns, blank, tiles)
    group = zarr.open_group(table_path(small, spec), mode="r")
    # ranks: the place of each arrangement in lexicographic order
    abstract_rank = {arrangement: rank for rank, arrangement in
                     enumerate(permutations(range(cells), len(tiles) + 1))}
    abstract = np.full(len(abstract_rank), NEVER)
    least: dict[tuple[int, ...], int] = {}
    for (where, hole), moves in expected.items():
        abstract[abstract_rank[(*where, least_of_region(rows, columns, where, hole))]] = moves
        least[where] = min(moves, least.get(where, NEVER))
    assert np.array_equal(group["abstract"][...], abstract)
    estimate = np.full(len(abstract_rank) // (cells - len(tiles)), NEVER)
    for rank, where in enumerate(permutations(range(cells), len(tiles))):
        estimate[rank] = least[where]
    assert np.array_equal(group["estimate"][...], estimate)


def test_a_pattern_of_one_tile_holds_its_manhattan_distance(tmp_path):
    """Alone, a tile slides through free cells: its fewest moves are rows plus columns."""
    for spec in [table.spec() for table in pattern_set(4, 4, 0, "manhattan")[::5]]:
        build_table(tmp_path, spec, progress=False, log=lambda *_: None)
        estimate = zarr.open_group(table_path(tmp_path, spec),
                                   mode="r")["estimate"][...]
        (tile,) = spec.identity["tiles"]
        assert estimate.tolist() == [abs(cell // 4 - tile // 4) + abs(cell % 4 - tile % 4)
                                     for cell in range(16)]


def arrangement_ranks(cells: np.ndarray, total: int) -> np.ndarray:
    """Each row's place among the arrangements of as many of ``total`` cells, in
    lexicographic order (numpy, one row per position)."""
    count = cells.shape[1]
    rank = np.zeros(len(cells), np.int64)
    for place in range(count):
        smaller = (cells[:, :place] < cells[:, [place]]).sum(axis=1)
        weight = int(np.prod(np.arange(total - 1 - place, total - count, -1)))
        rank += (cells[:, place] - smaller) * weight
    return rank


def test_additive_estimates_never_exceed_the_eight_puzzle_table(data_dir):
    """Every one of the 181,440 positions that reach 123.456.780: the sum of the two
    4-tile patterns, and the same sum on the position reflected about the main diagonal,
    are at most its distance (and the plug-in's search starts from the larger)."""
    from builder.patterns import start_estimate
    from query.walk import Tables

    distance = zarr.open_group(data_dir / "sliding" / "3x3.zarr", mode="r")["blank8"][...]
    positions = np.array(list(permutations(range(9))), np.int64)  # in rank order
    reached = distance != NEVER
    positions, distance = positions[reached], distance[reached].astype(np.int64)
    where = np.argsort(positions, axis=1)  # the cell of each tile
    mirror = np.array([(cell % 3) * 3 + cell // 3 for cell in range(9)])
    goal = goal_with_blank_at(9, 8)
    reflected_tile = [goal[mirror[goal.index(tile)]] for tile in range(9)]
    tables = {tiles: zarr.open_group(data_dir / "sliding" / "patterns" / "3x3" /
                                     f"blank8-{'-'.join(map(str, tiles))}.zarr",
                                     mode="r")["estimate"][...].astype(np.int64)
              for tiles in ((1, 2, 3, 4), (5, 6, 7, 8))}
    plain = sum(table[arrangement_ranks(where[:, list(tiles)], 9)]
                for tiles, table in tables.items())
    turned = sum(table[arrangement_ranks(mirror[where[:, [reflected_tile[t] for t in tiles]]], 9)]
                 for tiles, table in tables.items())
    estimate = np.maximum(plain, turned)
    assert (estimate <= distance).all()
    assert (estimate % 2 == distance % 2).all()  # every move changes each sum by one
    assert (turned != plain).any()  # the reflection is a second, different look-up
    engine = Tables(data_dir)
    target = SLIDING.parse((3, 3), "123.456.780")
    for index in np.random.default_rng(5).choice(len(positions), 200, replace=False):
        node = tuple(int(tile) for tile in positions[index])
        search = SLIDING.pattern_search(engine, (3, 3), node, target)
        assert start_estimate(engine, search) == estimate[index]


def test_verify_rederives_a_pattern_database_and_finds_a_forged_estimate(small, tmp_path):
    import shutil

    spec = SMALL_PATTERNS[0]
    table = tmp_path / "copy.zarr"
    shutil.copytree(table_path(small, spec), table)
    verdict = verify_table(table, 1, np.random.default_rng(0))
    assert verdict.ok and "estimate the least of every 5 of abstract" in verdict.detail
    stored = zarr.open_array(table / "estimate", mode="r+")
    values = stored[...]
    values[7] -= 1  # still admissible: only the fold's re-derivation finds it
    stored.with_config({"write_empty_chunks": True})[...] = values
    record_checksums(table)
    verdict = verify_table(table, 1, np.random.default_rng(0))
    assert not verdict.ok and verdict.detail.startswith("estimate: entry 7 holds")


def test_pattern_databases_appear_in_the_generic_views(catalog):
    rows = catalog.execute(
        "SELECT variant, \"table\", states, reachable, max_distance, mean_distance "
        "FROM table_summary WHERE puzzle = 'sliding' AND variant LIKE '4x4 pattern %' "
        "ORDER BY variant").fetchall()
    assert [row[0] for row in rows] == ["4x4 pattern 1,2,3", "4x4 pattern 4,5,8,9,12,13",
                                        "4x4 pattern 6,7,10,11,14,15"]
    assert [row[2] for row in rows] == [16 * 15 * 14, 16 * 15 * 14 * 13 * 12 * 11] + [
        16 * 15 * 14 * 13 * 12 * 11]
    assert all(row[1] == "to 0,1,2,3.4,5,6,7.8,9,10,11.12,13,14,15" and row[2] == row[3]
               for row in rows)
