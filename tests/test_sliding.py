"""The sliding-tile plug-in (the 8-puzzle and smaller boards): its tables against the
published 8-puzzle figures and an independent plain search, relabelled targets, legal
paths, and its errors."""

from __future__ import annotations

import json
from itertools import permutations

import numpy as np
import pytest
import zarr

from builder import registry
from puzzles.sliding import SlidingPuzzle
from puzzles.sliding.rules import lehmer_rank
from query.walk import Tables, walk
from tests import reference
from tests.commands import run_command

SLIDING = registry.by_name("sliding")
GOAL = "123.456.780"


def plain_distances(rows: int, columns: int, goal: tuple[int, ...]) -> dict[tuple, int]:
    """Fewest moves from every position to ``goal`` (moves can be undone)."""
    return reference.plain_distances(goal, reference.sliding_moves(rows, columns))


def test_it_is_registered_and_its_notation_is_its_own():
    assert isinstance(SLIDING, SlidingPuzzle)
    assert registry.recognising(GOAL) == [SLIDING]
    assert registry.recognising("120.345") == [SLIDING]


def test_the_eight_puzzle_figures(catalog):
    """181,440 positions can reach the goal; the most needed is 31 moves, by exactly 2."""
    rows = dict(catalog.execute(
        "SELECT distance, states FROM distance_distribution WHERE puzzle = 'sliding' "
        "AND variant = '3x3' AND \"table\" = ?", [f"to {GOAL}"]).fetchall())
    assert sum(states for distance, states in rows.items() if distance is not None) == 181_440
    assert max(d for d in rows if d is not None) == 31 and rows[31] == 2


def test_the_whole_eight_puzzle_table_equals_a_plain_search(data_dir):
    stored = zarr.open_group(data_dir / "sliding" / "3x3.zarr", mode="r")["blank8"][...]
    expected = plain_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    ranks = np.array([lehmer_rank(tiles) for tiles in expected])
    assert np.array_equal(stored[ranks], np.array(list(expected.values())))
    assert (stored != 255).sum() == len(expected) == 181_440


def test_the_catalog_counts_a_built_board_towards_every_blank_cell(tmp_path):
    """A 2x3 table built here: the catalog's distance distribution has one row set per
    goal (the blank at each cell, tiles 1.. in reading order around it), each that of a
    plain search towards that goal."""
    import duckdb

    from builder.catalog import refresh_catalog
    from builder.routine import build_table
    from builder.store import SEALED_CATALOG

    build_table(tmp_path, SLIDING.table({"puzzle": "sliding", "rows": 2, "columns": 3}),
                progress=False, log=lambda *_: None)
    refresh_catalog(tmp_path)
    with duckdb.connect(str(tmp_path / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as catalog:
        found = catalog.execute(
            "SELECT \"table\", distance, states FROM distance_distribution WHERE puzzle = "
            "'sliding' AND variant = '2x3' AND distance IS NOT NULL").fetchall()
    expected = {}
    for blank in range(6):
        tiles = [1, 2, 3, 4, 5]
        tiles.insert(blank, 0)
        goal = f"{''.join(map(str, tiles[:3]))}.{''.join(map(str, tiles[3:]))}"
        for distance in plain_distances(2, 3, tuple(tiles)).values():
            key = (f"to {goal}", distance)
            expected[key] = expected.get(key, 0) + 1
    assert {(table, distance): states for table, distance, states in found} == expected


def test_relabelled_targets_give_a_plain_search_distance_for_every_pair(data_dir):
    tables = Tables(data_dir)
    for target in ((1, 0, 2, 3, 4, 5), (5, 4, 3, 2, 1, 0), (0, 5, 1, 4, 2, 3)):
        expected = plain_distances(2, 3, target)
        for start in permutations(range(6)):
            assert SLIDING.distance(tables, (2, 3), start, target) == expected.get(start)


@pytest.mark.parametrize(("start", "target"), [("867.254.301", GOAL), ("1234.5670", "0765.4321"),
                                               ("123.456.780", "876.543.210")])
def test_paths_replay_legally_and_have_the_tabled_length(data_dir, start, target):
    tables = Tables(data_dir)
    board = SLIDING.variant(start, target, {})
    here, goal = SLIDING.parse(board, start), SLIDING.parse(board, target)
    found = walk(SLIDING, tables, board, here, goal)
    assert found.length == SLIDING.distance(tables, board, here, goal)
    for label, node in zip(found.labels, found.nodes[1:]):
        tile = int(label.split()[0])
        moved_from, moved_to = here.index(tile), here.index(0)
        same_row = moved_from // board[1] == moved_to // board[1]
        assert (same_row and abs(moved_from - moved_to) == 1
                or abs(moved_from - moved_to) == board[1])  # beside the blank
        tiles = list(here)
        tiles[moved_to], tiles[moved_from] = tile, 0
        here = tuple(tiles)
        assert here == node
    assert here == goal


def test_query_path_json():
    run = run_command("query", "path", "867.254.301", GOAL, "--json", check=True)
    answer = json.loads(run.stdout)
    assert answer["puzzle"] == "sliding" and answer["length"] == 31


@pytest.mark.parametrize(("arguments", "message"), [
    (("123.456.780", "213.456.780"), "opposite parity"),
    (("1234.5678.9abc.def0", "1234.5678.9abc.def0"), "numbers joined by ','"),
    (("1234.5678.9012.3450", "1234.5678.9012.3450"), "numbers joined by ','"),
    (("12345.67890.12345.67890.12345", "12345.67890.12345.67890.12345"),
     "about 10^25 arrangements"),
    (("123.456.788", GOAL), "once each"),
])
def test_bad_input_is_one_line_and_exit_2(arguments, message):
    run = run_command("query", "path", *arguments, "--puzzle", "sliding")
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
