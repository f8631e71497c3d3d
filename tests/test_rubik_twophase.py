"""The 3x3x3 cube answered at once: Kociemba's two-phase search gives every random cube
a path that replays on a sticker model written in the tests (``test_rubik.py``'s
facelet cycles, not the plug-in's geometry) in at most 20 turns; its pruning tables
never exceed the turns a scramble took; a search limited in seconds or nodes answers the
two-phase path improved by IDA* (not proved: exit 0, its lower bound; proved where the
search got there), and --optimal keeps the old refusal."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest
from fastapi.testclient import TestClient

from builder import registry
from builder.contract.errors import SearchLimitError
from builder.contract.puzzle import Walking
from query.api import open_tablebase
from query.walk import Tables
from tests.commands import run_command
from tests.test_rubik import (
    LABELS,
    SOLVED,
    facelet,
    flat,
    plain_distance,
    play,
    scramble,
    shown,
)

RUBIK = registry.by_name("rubik")
RANDOM_TURNS = 100
"""Turns of a random cube: far past any cube's distance, so every cube is as likely."""
PHASE2 = ("U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2")
DEEP = ("R U F2 D' L B R2 U' F D2 L' B2 U R' F' D L2 B' U2 R F2 D' L U' B")
"""25 turns: no search proves its distance within seconds."""


@pytest.fixture(scope="module")
def data(data_for):
    return data_for(RUBIK)


@pytest.fixture(scope="module")
def tables(data):
    return Tables(data)


def random_cubes(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [play(flat(SOLVED), scramble(rng, RANDOM_TURNS)) for _ in range(count)]


def two_phase(tables, stickers: str, target: str = "solved", metric: str = "half"):
    node = RUBIK.parse(metric, shown(stickers))
    return Walking.of(RUBIK).approximate_path(tables, metric, node,
                                              RUBIK.parse_target(metric, target))


def test_twenty_random_cubes_are_solved_in_at_most_twenty_turns(tables):
    """Searched to the end (no time limit: the same path on any machine), each random
    cube's two-phase path replays to solved in at most 20 turns."""
    from puzzles.rubik import twophase

    for stickers in random_cubes(20, seed=57):
        solved = twophase.solve(tables, RUBIK.parse("half", shown(stickers)))
        assert solved.enough and len(solved.labels) <= 20, len(solved.labels)
        assert play(stickers, solved.labels) == flat(SOLVED)
        assert all(label in LABELS["half"] for label in solved.labels)


def test_the_walks_approximate_path_replays_in_at_most_22_turns(tables):
    """What `query path` and the page take (stopped at its time limit, if need be, with
    the best path found by then): a path of Singmaster turns, not claimed shortest."""
    for stickers in random_cubes(5, seed=8):
        found = two_phase(tables, stickers)
        assert not found.optimal and found.length <= 22
        assert play(stickers, found.labels) == flat(SOLVED)
        assert found.nodes[-1] == RUBIK.parse("half", "solved")


def test_the_solved_cube_needs_no_turn_and_one_turn_one(tables):
    assert two_phase(tables, flat(SOLVED)).labels == ()
    for label in LABELS["half"]:
        start = play(flat(SOLVED), [label])
        found = two_phase(tables, start)
        assert play(start, found.labels) == flat(SOLVED) and found.length == 1


def test_another_target_and_the_quarter_turn_metric(tables):
    """A target other than solved is reached; in the quarter-turn metric a half turn is
    made as two quarter turns, each a move of that metric."""
    start, target = random_cubes(2, seed=3)
    found = two_phase(tables, start, shown(target))
    assert play(start, found.labels) == target
    quarter = two_phase(tables, start, metric="quarter")
    assert all(label in LABELS["quarter"] for label in quarter.labels)
    assert play(start, quarter.labels) == flat(SOLVED)


# ---- the tables' coordinates read from the stickers, as their encoding documents them

CORNER_PLACES = ("U9 R1 F3", "U7 F1 L3", "U1 L1 B3", "U3 B1 R3", "D3 F9 R7", "D1 L9 F7",
                 "D7 B9 L7", "D9 R9 B7")
"""URF UFL ULB UBR DFR DLF DBL DRB: the U or D facelet first, then clockwise."""
EDGE_PLACES = ("U6 R2", "U8 F2", "U4 L2", "U2 B2", "D6 R8", "D2 F8", "D4 L8", "D8 B8",
               "F6 R4", "F4 L6", "B6 L4", "B4 R6")
"""UR UF UL UB DR DF DL DB FR FL BL BR: the U or D facelet first, else the F or B."""
CORNERS = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
EDGES = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")


def read(stickers: str, place: str) -> str:
    return "".join(stickers[facelet(name[0], int(name[1]))] for name in place.split())


def lehmer(arranged: list[int]) -> int:
    rank = 0
    for index, value in enumerate(arranged):
        rank = rank * (len(arranged) - index) + sum(
            1 for later in arranged[index + 1:] if later < value)
    return rank


def coordinates(stickers: str) -> tuple[int, ...]:
    """(twist, flip, slice, corners, edges, order) of a cube's stickers."""
    corners = [read(stickers, place) for place in CORNER_PLACES]
    edges = [read(stickers, place) for place in EDGE_PLACES]
    twists = [next(k for k, colour in enumerate(corner) if colour in "UD")
              for corner in corners]
    pieces = [next(number for number, name in enumerate(EDGES) if set(name) == set(edge))
              for edge in edges]
    flips = [int(edge[0] != EDGES[piece][0]) for edge, piece in zip(edges, pieces)]
    corner_pieces = [next(number for number, name in enumerate(CORNERS)
                          if set(name) == set(corner)) for corner in corners]
    slice_places = [place for place, piece in enumerate(pieces) if piece >= 8]
    return (sum(twist * 3 ** place for place, twist in enumerate(twists[:7])),
            sum(flip << place for place, flip in enumerate(flips[:11])),
            sum(comb(place, k + 1) for k, place in enumerate(slice_places)),
            lehmer(corner_pieces), lehmer(pieces[:8]),
            lehmer([piece - 8 for piece in pieces[8:]]))


def test_the_pruning_tables_never_exceed_a_scrambles_turns(tables):
    """Admissible, read at the coordinates the table's encoding documents: each phase's
    estimate of a position some turns from solved is at most those turns (phase 2's of
    positions made by the turns of its subgroup alone, which keep phase 1 solved), and
    0 at the solved cube."""
    from puzzles.rubik import twophase

    arrays = twophase.arrays(tables)
    solved_slice = comb(8, 1) + comb(9, 2) + comb(10, 3) + comb(11, 4)
    assert coordinates(flat(SOLVED)) == (0, 0, solved_slice, 0, 0, 0)
    assert arrays["twist_slice"][solved_slice] == arrays["flip_slice"][solved_slice] == 0
    assert arrays["corners_order"][0] == arrays["edges_order"][0] == 0
    rng = np.random.default_rng(11)
    for length in range(1, 13):
        for _ in range(20):
            twist, flip, places, *_ = coordinates(play(flat(SOLVED), scramble(rng, length)))
            assert arrays["twist_slice"][twist * 495 + places] <= length
            assert arrays["flip_slice"][flip * 495 + places] <= length
            kept = [PHASE2[rng.integers(len(PHASE2))] for _ in range(length)]
            twist, flip, places, corners, edges, order = coordinates(
                play(flat(SOLVED), kept))
            assert (twist, flip, places) == (0, 0, solved_slice)
            assert arrays["corners_order"][corners * 24 + order] <= length
            assert arrays["edges_order"][edges * 24 + order] <= length


def run_path(data, *arguments: str):
    return run_command("query", "path", *arguments, "--json", "--data", str(data))


def test_a_deep_scramble_within_seconds_answers_the_best_path_not_proved(data):
    run = run_path(data, f"rubik:{DEEP}", "--seconds", "2")
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["optimal"] is False and answer["length"] <= 22
    assert 1 <= answer["lower_bound"] < answer["length"]
    start = play(flat(SOLVED), DEEP.split())
    assert play(start, answer["moves"]) == flat(SOLVED)
    assert flat(answer["states"][0]) == start


def test_a_budget_of_nodes_answers_the_same_way_and_says_so_in_text(data):
    run = run_command("query", "path", f"rubik:{DEEP}", "--budget", "20000", "--data",
                      str(data))
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    assert ": at most " in first and " turns, at least " in first
    assert " proved (Kociemba's two-phase search)" in first
    length = int(first.split(": at most ")[1].split()[0])
    assert len(run.stdout.splitlines()) == length + 3  # the header, the titles, the steps


def test_a_short_scramble_within_seconds_is_proved_shortest(data):
    """Five turns: the exact search ends well within its limit, shorter than (or as
    short as, then proving) the two-phase path."""
    labels = ["R", "U'", "F2", "D", "L"]
    run = run_path(data, "rubik:" + " ".join(labels), "--seconds", "120")
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    start = play(flat(SOLVED), labels)
    assert answer["optimal"] is True and answer["lower_bound"] == answer["length"]
    assert answer["length"] == plain_distance(start, flat(SOLVED), "half")
    assert play(start, answer["moves"]) == flat(SOLVED)


def test_optimal_asks_for_the_proved_optimum_or_nothing(data):
    run = run_path(data, f"rubik:{DEEP}", "--budget", "20000", "--optimal")
    assert run.returncode == 2
    stopped = json.loads(run.stdout)
    assert stopped["length"] is None and stopped["lower_bound"] >= 1
    assert "stopped at its budget of 20,000 nodes" in run.stderr


def test_the_python_api_answers_the_best_path_with_its_bound(data):
    rubik = open_tablebase(data).puzzle("rubik")
    found = rubik.path(DEEP, budget=20_000)
    assert not found.optimal and 1 <= found.lower_bound < found.length <= 22
    assert play(play(flat(SOLVED), DEEP.split()), found.moves) == flat(SOLVED)
    short = rubik.path("R U", budget=1_000_000)
    assert short.optimal and short.lower_bound == short.length == 2
    with pytest.raises(SearchLimitError):
        rubik.path(DEEP, budget=20_000, optimal=True)


def test_the_page_gets_the_two_phase_path_at_once(data):
    from query.web import create_app

    client = TestClient(create_app(data))
    puzzles = client.get("/api/puzzles").json()
    described = puzzles["rubik"] if isinstance(puzzles, dict) else next(
        puzzle for puzzle in puzzles if puzzle["name"] == "rubik")
    assert "two-phase" in described["approximation"]
    answer = client.get("/api/play/rubik/path", params={"state": DEEP,
                                                         "guide": "approximate"})
    assert answer.status_code == 200, answer.text[:300]
    found = answer.json()
    assert found["optimal"] is False and found["length"] <= 22
    moves = [move["label"] if isinstance(move, dict) else move for move in found["moves"]]
    assert play(play(flat(SOLVED), DEEP.split()), moves) == flat(SOLVED)
