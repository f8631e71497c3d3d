"""Issue 57: the 15-puzzle answered at once where its optimum is slow, as the cube is.

The sliding tiles' instant path (``approximate_path``: a beam search on the pattern
databases, or row by row) is replayed on the test's own move model (tests/reference.py)
and is never shorter than an optimum the test knows: Korf's published lengths, the
80-move position of Brüngger et al., and on small boards a plain breadth-first search
here.  Within a budget or seconds, `query path`, the Python API and the web answer it at
once, improved by the exact search while the limit lasts: "at most N moves, at least L
proved" while not proved, ``optimal`` once proved; ``--optimal`` keeps the exact search
alone.  Limits are set in nodes or to a few milliseconds on a search of seconds: nothing
here is timed."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi.testclient import TestClient

from builder import registry
from builder.contract.errors import UnreachableError
from puzzles.sliding import approximate
from puzzles.sliding.tables import guide_for
from query.api import open_tablebase
from query.walk import Tables
from query.web import create_app
from tests import reference
from tests.commands import run_command
from tests.test_korf import EIGHTY, KORF, KORF_GOAL, written

SLIDING = registry.by_name("sliding")
FIFTEEN = (4, 4)
DEFAULT_GOAL = "1,2,3,4.5,6,7,8.9,10,11,12.13,14,15,0"
LOYD = "1,2,3,4.5,6,7,8.9,10,11,12.13,15,14,0"
"""Sam Loyd's 14-15 puzzle: the other parity, never solved."""
SAMPLE = KORF["instances"][::10]
"""Ten of Korf's instances, lengths 45 to 66."""


def legal_path(rows: int, columns: int, start: tuple, target: tuple, nodes, labels) -> bool:
    """Each step one of the reference's moves (the blank swapped with a cell beside it),
    named by the tile that slid, from ``start`` to ``target``."""
    moves = reference.sliding_moves(rows, columns)
    if nodes[0] != start or nodes[-1] != target or len(labels) != len(nodes) - 1:
        return False
    for here, there, label in zip(nodes, nodes[1:], labels):
        if there not in moves(here):
            return False
        if int(label.split()[0]) != here[there.index(0)]:  # the tile now where the blank was
            return False
    return True


def solvable_pairs(rows: int, columns: int, count: int, seed: int):
    """Random positions and targets (the blank anywhere in both) that reach each other:
    the target a random walk from the position."""
    rng = random.Random(seed)
    moves = reference.sliding_moves(rows, columns)
    cells = rows * columns
    for _ in range(count):
        start = list(range(cells))
        rng.shuffle(start)
        target = tuple(start)
        for _ in range(rng.randrange(200, 400)):
            target = rng.choice(moves(target))
        yield tuple(start), target


# ---- the solvers, on boards whose optimum a plain search here finds ------------------
@pytest.mark.parametrize("board", [(2, 4), (3, 3)])
def test_the_beam_and_the_rows_are_legal_and_never_shorter_than_a_plain_search(board):
    rows, columns = board
    for start, target in solvable_pairs(rows, columns, 4, seed=rows * 10 + columns):
        fewest = reference.plain_distances(target, reference.sliding_moves(rows, columns))
        found = approximate.approximate(None, board, start, target, None, SLIDING.moves)
        assert found.optimal is False and found.how == approximate.HOW_MANHATTAN
        assert legal_path(rows, columns, start, target, found.nodes, found.labels)
        assert found.length >= fewest[start]
        by_rows = approximate.by_rows(board, start, target)
        assert legal_path(rows, columns, start, target, by_rows,
                          [f"{a[b.index(0)]} x" for a, b in zip(by_rows, by_rows[1:])])
        assert len(by_rows) - 1 >= fewest[start]


@pytest.mark.parametrize("board", [(2, 6), (6, 2), (3, 4), (4, 3), (3, 5), (2, 8), (4, 4)])
def test_the_rows_solve_any_board_with_the_blank_anywhere(board):
    """The solver a beam falls back on: every row and column peeled from the side the
    target's blank is not on, whatever cell that is."""
    rows, columns = board
    for start, target in solvable_pairs(rows, columns, 6, seed=rows * 10 + columns):
        path = approximate.by_rows(board, start, target)
        assert legal_path(rows, columns, start, target, path,
                          [f"{a[b.index(0)]} x" for a, b in zip(path, path[1:])])


def test_the_beam_on_the_eight_puzzles_pattern_tables_is_legal_and_never_shorter(data_dir):
    """The pattern databases' estimate as the beam reads it (3x3 4-4 tables, the
    reflection, the goal turned half a turn for a target with the blank first)."""
    tables = Tables(data_dir)
    board = (3, 3)
    rng = random.Random(8)
    for blank in (8, 0):
        target = tuple(list(range(1, 9))[:blank] + [0] + list(range(1, 9))[blank:])
        fewest = reference.plain_distances(target, reference.sliding_moves(3, 3))
        starts = rng.sample(sorted(fewest), 20)
        for start in starts:
            guide = guide_for(tables, board, start, target, approximate.MOST_ENTRIES)
            assert guide is not None
            found = approximate.approximate(tables, board, start, target, guide,
                                            SLIDING.moves)
            assert found.how == approximate.HOW
            assert legal_path(3, 3, start, target, found.nodes, found.labels)
            assert found.length >= fewest[start]


# ---- the 15-puzzle -------------------------------------------------------------------
@pytest.mark.parametrize("instance", SAMPLE, ids=lambda instance: str(instance["number"]))
def test_the_quick_path_replays_and_is_never_shorter_than_korfs_optimum(data_dir, instance):
    start = tuple(instance["tiles"])
    goal = SLIDING.parse(FIFTEEN, KORF_GOAL)
    found = SLIDING.approximate_path(Tables(data_dir), FIFTEEN, start, goal)
    assert found.optimal is False
    assert legal_path(4, 4, start, goal, found.nodes, found.labels)
    assert found.length >= instance["length"]


def test_the_quick_path_of_the_hardest_position_replays_and_is_80_or_more(data_dir):
    start = SLIDING.parse(FIFTEEN, EIGHTY)
    goal = SLIDING.parse(FIFTEEN, DEFAULT_GOAL)
    found = SLIDING.approximate_path(Tables(data_dir), FIFTEEN, start, goal)
    assert legal_path(4, 4, start, goal, found.nodes, found.labels)
    assert found.length >= 80
    arrived = SLIDING.approximate_path(Tables(data_dir), FIFTEEN, goal, goal)
    assert arrived.labels == () and arrived.optimal is True  # no move is the shortest


def test_the_other_parity_is_refused_before_any_path(data_dir):
    start = SLIDING.parse(FIFTEEN, LOYD)
    with pytest.raises(UnreachableError, match="opposite parity"):
        SLIDING.approximate_path(Tables(data_dir), FIFTEEN, start,
                                 SLIDING.parse(FIFTEEN, DEFAULT_GOAL))
    run = run_command("query", "path", LOYD, "--seconds", "1", "--data", str(data_dir))
    assert run.returncode != 0 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "opposite parity" in run.stderr


def test_the_api_answers_at_once_with_both_bounds_and_proves_what_it_can(data_dir):
    sliding = open_tablebase(data_dir).puzzle("sliding")
    for limit in ({"budget": 1}, {"budget": 20_000}, {"seconds": 0.001}):
        found = sliding.path(EIGHTY, **limit)
        assert found.optimal is False and found.length >= 80, limit
        assert 1 <= found.lower_bound <= 80
        nodes = [SLIDING.parse(FIFTEEN, step.position) for step in found.steps]
        assert legal_path(4, 4, SLIDING.parse(FIFTEEN, EIGHTY),
                          SLIDING.parse(FIFTEEN, DEFAULT_GOAL),
                          [SLIDING.parse(FIFTEEN, EIGHTY), *nodes], found.moves)
    # Korf's quickest instance: the exact search finds or proves the optimum within the
    # budget, and says so
    instance = KORF["instances"][46]
    found = sliding.path(written(instance["tiles"]), KORF_GOAL, budget=10_000_000)
    assert found.optimal is True
    assert found.length == found.lower_bound == instance["length"] == 47


def test_query_path_prints_the_quick_path_with_both_bounds_and_optimal_keeps_the_search(
        data_dir):
    run = run_command("query", "path", EIGHTY, "--seconds", "0.001", "--data", str(data_dir))
    assert run.returncode == 0, run.stderr
    head = run.stdout.splitlines()[0]
    said = re.fullmatch(rf"{re.escape(EIGHTY)} -> {re.escape(DEFAULT_GOAL)}: at most (\d+) "
                        r"moves, at least (\d+) proved \(a beam search on pattern "
                        r"databases\)", head)
    assert said, head
    most, least = int(said.group(1)), int(said.group(2))
    assert most >= 80 >= least >= 1
    assert len(run.stdout.splitlines()) == most + 3  # the header, init .. the last, done
    run = run_command("query", "path", EIGHTY, "--budget", "1000", "--json",
                      "--data", str(data_dir))
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["optimal"] is False and answer["length"] >= 80 >= answer["lower_bound"]
    positions = [SLIDING.parse(FIFTEEN, state) for state in answer["states"]]
    assert legal_path(4, 4, SLIDING.parse(FIFTEEN, EIGHTY), SLIDING.parse(FIFTEEN, DEFAULT_GOAL),
                      positions, answer["moves"])
    run = run_command("query", "path", EIGHTY, "--budget", "1000", "--optimal",
                      "--data", str(data_dir))
    assert run.returncode == 2 and run.stdout == ""
    assert re.fullmatch(r"error: IDA\* on pattern databases: stopped at its budget of 1,000 "
                        r"nodes: at least \d+ moves\n", run.stderr)


def test_the_web_answers_the_15_puzzle_at_once_and_marks_what_is_proved(data_dir):
    client = TestClient(create_app(data_dir))
    quick = client.get("/api/play/sliding/path", params={"state": EIGHTY, "budget": 1})
    assert quick.status_code == 200, quick.text
    found = quick.json()
    assert found["optimal"] is False and found["how"] == approximate.HOW
    assert found["length"] >= 80 >= found["lower_bound"] >= 1
    positions = [SLIDING.parse(FIFTEEN, move["state"]) for move in found["moves"]]
    assert legal_path(4, 4, SLIDING.parse(FIFTEEN, EIGHTY), SLIDING.parse(FIFTEEN, DEFAULT_GOAL),
                      [SLIDING.parse(FIFTEEN, EIGHTY), *positions],
                      [move["label"] for move in found["moves"]])
    instance = KORF["instances"][46]
    proved = client.get("/api/play/sliding/path", params={
        "state": written(instance["tiles"]), "target": KORF_GOAL, "seconds": 600}).json()
    assert proved["optimal"] is True and proved["length"] == proved["lower_bound"] == 47


def test_a_board_of_12_cells_is_answered_at_once_once_its_pattern_tables_are_stored(
        tmp_path):
    """3x4, its tables built here: the beam on them, never shorter than a plain search
    from both ends; without them no instant path, so the missing tables' advice stands."""
    from builder.routine import build_table
    from puzzles.sliding.tables import default_blank, default_partition, pattern_set
    from tests.test_sliding_patterns import plain_distance

    board = (3, 4)
    goal = SLIDING.parse(board, SLIDING.default_target(board))
    nothing = tmp_path / "none"
    nothing.mkdir()
    for spec in pattern_set(*board, default_blank(*board), default_partition(*board)):
        build_table(tmp_path / "built", spec, progress=False, log=lambda *_: None)
    rng = random.Random(12)
    moves = reference.sliding_moves(*board)
    for _ in range(4):
        start = goal
        for _ in range(60):
            start = rng.choice(moves(start))
        assert SLIDING.approximate_path(Tables(nothing), board, start, goal) is None
        found = SLIDING.approximate_path(Tables(tmp_path / "built"), board, start, goal)
        assert found.how == approximate.HOW
        assert legal_path(*board, start, goal, found.nodes, found.labels)
        assert found.length >= plain_distance(*board, start, goal)
