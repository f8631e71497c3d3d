"""Pattern databases searched folded (``BreadthFirstSearch.folded``: a bit an abstract
state, a byte an estimate): each equals the least over the blank's cells of a plain 0-1
search over its tiles written here, on one thread as on two; a distance too deep for a
byte is refused; `builder verify` searches a folded table again and finds a forged entry;
a search refuses one whose goal's entry is not 0."""

from __future__ import annotations

import shutil
from collections import deque
from itertools import permutations

import numpy as np
import pytest
import zarr
from numba import njit

from builder.contract.errors import CorruptTableError
from builder.contract.specs import kernel, moves_signature
from builder.routine import build_table, table_path
from builder.store import record_checksums
from builder.verify import verify_table

NEVER = 255
SMALL = ((3, 3, 8, (1, 2, 3, 4)), (3, 3, 8, (5, 6, 7, 8)), (2, 4, 0, (1, 2, 5)),
         (3, 4, 0, (1, 2, 3, 4)), (3, 3, 4, (2, 8, 5)))


def beside(rows: int, columns: int, cell: int) -> list[int]:
    row, column = divmod(cell, columns)
    return [r * columns + c for r, c in ((row - 1, column), (row + 1, column),
                                         (row, column - 1), (row, column + 1))
            if 0 <= r < rows and 0 <= c < columns]


def plain_estimates(rows: int, columns: int, blank: int, tiles: tuple[int, ...]
                    ) -> list[int]:
    """For every arrangement of the tiles' cells (in lexicographic order), the fewest
    moves of those tiles alone to the goal with the blank at ``blank`` (tiles 1, 2, ... in
    reading order around it), from the best cell of the blank: a 0-1 search over (tiles'
    cells, blank's cell), the blank's other moves free."""
    cells = rows * columns
    goal = [tile for tile in range(1, cells)]
    goal.insert(blank, 0)
    start = (tuple(goal.index(tile) for tile in tiles), blank)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        where, hole = state = queue.popleft()
        for other in beside(rows, columns, hole):
            if other in where:
                after = (tuple(hole if cell == other else cell for cell in where), other)
                cost = 1
            else:
                after, cost = (where, other), 0
            if distance[state] + cost < distance.get(after, 1 << 30):
                distance[after] = distance[state] + cost
                (queue.appendleft if cost == 0 else queue.append)(after)
    least: dict[tuple[int, ...], int] = {}
    for (where, _), moves in distance.items():
        least[where] = min(moves, least.get(where, NEVER))
    return [least.get(where, NEVER) for where in permutations(range(cells), len(tiles))]


@pytest.fixture(scope="module")
def folded_tables(tmp_path_factory):
    from puzzles.sliding.tables import pattern_table

    data = tmp_path_factory.mktemp("folded")
    specs = [pattern_table(rows, columns, blank, tiles, folded=True).spec()
             for rows, columns, blank, tiles in SMALL]
    for spec in specs:
        build_table(data, spec, progress=False, log=lambda *_: None)
    return data, specs


@pytest.mark.parametrize("number", range(len(SMALL)), ids=lambda n: "-".join(map(str, SMALL[n][3])))
def test_a_folded_pattern_database_is_the_least_over_the_blank_of_a_plain_search(
        folded_tables, number):
    data, specs = folded_tables
    rows, columns, blank, tiles = SMALL[number]
    group = zarr.open_group(table_path(data, specs[number]), mode="r")
    assert sorted(group.array_keys()) == ["estimate"]  # no distance an abstract state
    assert group["estimate"][...].tolist() == plain_estimates(rows, columns, blank, tiles)
    assert group.attrs["folded"] is True


def test_a_folded_search_is_the_same_on_one_thread_and_two_and_unfolded():
    from builder.compute import least_of_runs
    from builder.kernels.graph_bfs import breadth_first, breadth_first_folded
    from puzzles.sliding.tables import pattern_table

    search = pattern_table(3, 4, 0, (1, 2, 3, 4, 5), folded=True).searched["estimate"]
    moves = kernel(search.neighbours)
    whole = breadth_first(search.states, search.sources, moves, search.most_neighbours,
                          search.parameters)
    expected = least_of_runs(whole, search.folded)
    for threads in (1, 2):
        assert np.array_equal(expected, breadth_first_folded(
            search.states, search.sources, moves, search.most_neighbours, search.parameters,
            search.folded, threads=threads))


@njit(moves_signature(), cache=True)
def along_a_line(state, parameters, out):
    """States 0, 1, 2, ... in a line: each one's neighbours are the states beside it."""
    count = 0
    if state > 0:
        out[count] = state - 1
        count += 1
    if state < parameters[0] - 1:
        out[count] = state + 1
        count += 1
    return count


def test_a_folded_search_deeper_than_a_byte_is_refused():
    from builder.kernels.graph_bfs import breadth_first_folded

    # states 499 moves deep, but each run first reached within a byte's reach
    assert breadth_first_folded(500, (0,), along_a_line, 2, (500,), 250).tolist() == [0, 250]
    with pytest.raises(ValueError, match="too deep"):
        breadth_first_folded(600, (0,), along_a_line, 2, (600,), 200)


def test_verify_searches_a_folded_table_again_and_finds_a_forged_entry(folded_tables,
                                                                      tmp_path):
    data, specs = folded_tables
    table = tmp_path / "copy.zarr"
    shutil.copytree(table_path(data, specs[0]), table)
    verdict = verify_table(table, 1, np.random.default_rng(0))
    assert verdict.ok and "estimate equal to its search run again" in verdict.detail
    stored = zarr.open_array(table / "estimate", mode="r+")
    values = stored[...]
    values[9] -= 1  # still admissible, and no recurrence links the least values
    stored.with_config({"write_empty_chunks": True})[...] = values
    record_checksums(table)
    verdict = verify_table(table, 1, np.random.default_rng(0))
    assert not verdict.ok and verdict.detail.startswith("estimate: entry 9 holds")
    assert "the search run again gives" in verdict.detail


def test_a_search_refuses_a_folded_table_whose_goal_entry_is_not_zero(tmp_path,
                                                                      monkeypatch):
    from builder import patterns, registry
    from builder.reader import Tables
    from puzzles.sliding import tables as sliding_tables

    monkeypatch.setattr(sliding_tables, "FOLDED_FROM", 1)  # every pattern table folded
    specs = [table.spec() for table in sliding_tables.pattern_set(3, 3, 8, "4-4")]
    for spec in specs:
        build_table(tmp_path, spec, progress=False, log=lambda *_: None)
    sliding = registry.by_name("sliding")
    start, goal = sliding.parse((3, 3), "867.254.301"), sliding.parse((3, 3), "123.456.780")
    search = sliding_tables.search_for(Tables(tmp_path), (3, 3), start, goal)
    assert patterns.run(Tables(tmp_path), search).length == 31
    folded = specs[0].searches["estimate"]
    table = table_path(tmp_path, specs[0])
    stored = zarr.open_array(table / "estimate", mode="r+")
    values = stored[...]
    values[folded.sources[0] // folded.folded] = 1
    stored.with_config({"write_empty_chunks": True})[...] = values
    record_checksums(table)
    with pytest.raises(CorruptTableError, match="at the goal's entry, not 0"):
        patterns.run(Tables(tmp_path), search)
