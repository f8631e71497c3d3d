"""The positions behind the tables (the Python API's hardest, positions, random, deal,
count, distribution, and `query hardest` / `query random NAME`), each compared with a
breadth-first search written in the test: Hanoi (a dense table, positions by rank),
Klotski (a sparse table, positions by key); and the 8-puzzle's two hardest positions,
a published figure (31 moves: Reinefeld 1993)."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from builder import registry
from query.api import open_tablebase
from tests import reference
from tests.commands import run_command
from tests.test_klotski import CLASSIC, next_positions, shapes_of

HANOI_TABLE = "4 pegs, 6 discs"


@cache
def hanoi_bfs() -> dict[str, int]:
    """Fewest moves to DDDDDD from every position (the moves can be undone)."""
    return reference.plain_distances("DDDDDD", reference.hanoi_moves(4))


def klotski_bfs(goals: list[str]) -> dict[str, int]:
    """Fewest block moves to the goal from every position of the classic start's
    component, by shapes (blocks of one shape are alike): backwards from every goal
    position of the component (the moves can be undone)."""
    assert goals and all(shapes[13:15] == shapes[17:19] == "SS" for shapes in goals)
    distance = reference.nearest_distances(goals, lambda here: next_positions(here, True))
    assert shapes_of(CLASSIC) in distance
    return distance


@pytest.fixture(scope="module")
def tablebase(data_for):
    with open_tablebase(data_for(registry.by_name("hanoi"), registry.by_name("klotski"),
                                 registry.by_name("sliding"))) as opened:
        yield opened


def test_hanoi_hardest_are_the_farthest_positions_of_a_plain_search(tablebase):
    bfs = hanoi_bfs()
    farthest = max(bfs.values())
    found = tablebase.puzzle("hanoi").hardest(len(bfs), table=HANOI_TABLE)
    assert len(found) == len(bfs) and {level.position for level in found} == set(bfs)
    assert all(bfs[level.position] == level.distance for level in found)
    assert [level.distance for level in found] == sorted(bfs.values(), reverse=True)
    top = tablebase.puzzle("hanoi").hardest(3, table=HANOI_TABLE)
    assert all(level.distance == farthest and level.target == "DDDDDD" for level in top)


@pytest.mark.parametrize("distance", [0, 1, 9, 17])
def test_hanoi_positions_at_a_distance_are_those_of_a_plain_search(tablebase, distance):
    bfs = hanoi_bfs()
    found = tablebase.puzzle("hanoi").positions(distance, table=HANOI_TABLE)
    assert sorted(found) == sorted(p for p, d in bfs.items() if d == distance)


def test_hanoi_counts_and_distribution_equal_a_plain_search(tablebase):
    hanoi = tablebase.puzzle("hanoi")
    bfs = hanoi_bfs()
    assert hanoi.distribution(HANOI_TABLE) == dict(sorted(Counter(bfs.values()).items()))
    assert hanoi.count(HANOI_TABLE) == len(bfs) == 4**6
    assert hanoi.count(HANOI_TABLE, distance=17) == sum(d == 17 for d in bfs.values())
    assert len(hanoi.array(HANOI_TABLE)) == 4**6


def test_hanoi_random_levels_lie_at_their_distance_and_unique_ones_have_one_best_move(
        tablebase):
    hanoi, bfs, moves = tablebase.puzzle("hanoi"), hanoi_bfs(), reference.hanoi_moves(4)
    dealt = hanoi.deal(12, count=5, seed=7, table=HANOI_TABLE)
    assert len({level.position for level in dealt}) == 5
    assert all(bfs[level.position] == 12 for level in dealt)
    assert hanoi.deal(12, count=5, seed=7, table=HANOI_TABLE) == dealt  # the seed decides
    unique = hanoi.deal(12, count=3, seed=1, unique=True, table=HANOI_TABLE)
    for level in unique:
        assert sum(bfs[after] == 11 for after in moves(level.position)) == 1
    assert hanoi.random(5, seed=3, table=HANOI_TABLE).distance == 5


def test_klotski_hardest_and_levels_equal_a_plain_search(tablebase):
    klotski = tablebase.puzzle("klotski")
    # the search starts from the goal positions the table holds, each checked a goal
    bfs = klotski_bfs(sorted({shapes_of(p) for p in klotski.positions(0, table="block")}))
    assert len(bfs) == klotski.count("block")  # the table's positions, by shapes
    farthest = max(bfs.values())
    top = klotski.hardest(10, table="block")
    at_most = sorted(bfs.values(), reverse=True)[:10]
    assert [level.distance for level in top] == at_most and top[0].distance == farthest
    assert all(bfs[shapes_of(level.position)] == level.distance for level in top)
    for level in klotski.deal(40, count=4, seed=2, unique=True, table="block"):
        assert bfs[shapes_of(level.position)] == 40
        assert sum(bfs[after] == 39 for after in next_positions(shapes_of(level.position),
                                                                True)) == 1


def test_lucas_hardest_and_positions_equal_a_plain_search(data_for):
    # the document's moves can be undone: a search from the goal gives every distance
    bfs = reference.plain_distances("BBBB_AAAA", lambda here: [
        following for following, _, _ in reference.lucas_moves(here)])
    with open_tablebase(data_for(registry.by_name("lucas"))) as opened:
        lucas = opened.puzzle("lucas")
        found = lucas.hardest(len(bfs), table="n=4")
        assert {level.position: level.distance for level in found} == bfs
        assert sorted(lucas.positions(7, table="n=4")) == sorted(
            p for p, d in bfs.items() if d == 7)


def test_the_8_puzzle_has_two_positions_31_moves_from_its_goal(tablebase):
    found = tablebase.puzzle("sliding").hardest(3, table="3x3, to 123.456.780")
    assert [level.distance for level in found] == [31, 31, 30]
    assert {level.position for level in found[:2]} == {"647.850.321", "867.254.301"}


def test_query_hardest_and_random_print_what_the_api_answers(tablebase):
    data = str(tablebase.directory)
    hardest = run_command("query", "hardest", "hanoi", HANOI_TABLE, "-n", "4", "--json",
                          "--data", data)
    assert hardest.returncode == 0, hardest.stderr
    bfs = hanoi_bfs()
    assert all(bfs[row["position"]] == row["moves"] == max(bfs.values())
               for row in json.loads(hardest.stdout))
    dealt = run_command("query", "random", "hanoi", HANOI_TABLE, "--distance", "12",
                        "--unique", "--seed", "1", "-n", "3", "--json", "--data", data)
    assert dealt.returncode == 0, dealt.stderr
    assert [row["position"] for row in json.loads(dealt.stdout)] == [
        level.position for level in tablebase.puzzle("hanoi").deal(
            12, count=3, seed=1, unique=True, table=HANOI_TABLE)]


@pytest.mark.parametrize("arguments, message", [
    (["hardest", "hanoi"], "name one of '3 pegs, 1 disc'"),
    (["hardest", "hanoi", "5 pegs"], "no hanoi table '5 pegs'"),
    (["random", "klotski", "block", "--distance", "500"], "the farthest lie 93 away"),
    (["hardest", "nothing"], "no puzzle 'nothing'"),
])
def test_bad_questions_are_one_line_and_exit_2(tablebase, arguments, message):
    done = run_command("query", *arguments, "--data", str(tablebase.directory))
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
