"""Ball tubes: the document's figures, a plain search on small sizes, the ranking, paths."""

from __future__ import annotations

import json

import numpy as np
import pytest
import zarr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder import build
from builder.puzzles.balls import Balls, BallsError
from query.tables import BallsTable
from query.walk import NotClearableError, balls_path
from tests import reference
from tests.test_cli import run

GAME = Balls(4, 4, 3)


def test_summary_reproduces_the_document(catalog, figures):
    published = figures["ball_tubes"]
    row = catalog.execute(
        "SELECT all_states, clearable_states, initial_states, clearable_initial_states "
        "FROM balls_summary WHERE (tubes, capacity, colours) = (4, 4, 3)").fetchone()
    assert row == (published["all_states"], published["states_that_can_be_cleared"],
                   published["initial_states"], published["initial_states_that_can_be_cleared"])
    assert row[0] - row[1] == published["states_that_cannot_be_cleared"]
    assert row[2] - row[3] == published["initial_states_that_cannot_be_cleared"]


def test_move_distribution_adds_up(catalog):
    rows = dict(catalog.execute("SELECT kind, sum(states) FROM balls_move_distribution "
                                "GROUP BY kind").fetchall())
    assert rows == {"initial": 34_650, "all": 1_212_750}


@pytest.fixture(scope="module")
def small_games(tmp_path_factory):
    data = tmp_path_factory.mktemp("balls")
    for size in ((3, 2, 2), (4, 3, 2), (3, 3, 2)):
        build.build_balls(data, *size, progress=False)
    return data


@pytest.mark.parametrize("size", [(3, 2, 2), (4, 3, 2), (3, 3, 2)])
def test_small_games_equal_a_plain_search_on_every_state(small_games, size):
    rules = Balls(*size)
    moves = zarr.open_group(build.balls_table_path(small_games, rules))["moves_to_clear"][...]
    expected = reference.ball_moves_to_clear(*size)
    assert len(moves) == rules.n_states
    got = {rules.format(int(r)): int(moves[r]) for r in np.flatnonzero(moves != 255)}
    assert got == expected


def test_ranking_is_a_bijection_on_the_documents_game():
    ranks = np.arange(GAME.n_states)
    tubes, lengths = GAME.unrank(ranks)
    assert np.array_equal(GAME.rank(tubes, lengths), ranks)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(3, 2, 2), (5, 3, 3), (4, 4, 3), (6, 2, 4)]), st.data())
def test_ranking_round_trips_through_the_notation(size, data):
    rules = Balls(*size)
    rank = data.draw(st.integers(0, rules.n_states - 1))
    assert rules.parse(rules.format(rank)) == rank


def test_paths_replay_legally_and_end_cleared(data_dir):
    table = BallsTable(data_dir, 4, 4, 3)
    moves = zarr.open_group(data_dir / "balls" / "4_4_3.zarr")["moves_to_clear"][...]

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, GAME.n_states - 1))
    def check(rank):
        if moves[rank] == 255:
            with pytest.raises(NotClearableError):
                balls_path(GAME, table, rank)
            return
        found = balls_path(GAME, table, rank)
        assert found.length == moves[rank]
        state = GAME.format(rank)
        for (source, target), following in zip(found.moves, found.states[1:]):
            assert (source, target, GAME.format(following)) in reference.ball_moves(state, 4)
            state = GAME.format(following)
        assert all(not t or (len(t) == 4 and len(set(t)) == 1) for t in state.split("|"))

    check()


def test_cli_path_json_and_solvable(data_dir):
    answer = json.loads(run("query", "path", "rggb|brrg|gbbr|", "cleared", "--json",
                            data_dir=data_dir).stdout)
    assert set(answer) == {"start", "target", "length", "moves", "states"}
    assert answer["length"] == len(answer["moves"]) == len(answer["states"]) - 1
    solvable = json.loads(run("query", "solvable", "rggb|brrg|gbbr|", "--json",
                              data_dir=data_dir).stdout)
    assert solvable == {"state": "rggb|brrg|gbbr|", "clearable": True,
                        "moves": answer["length"]}


def test_random_deal_meets_the_difficulty(data_dir):
    dealt = json.loads(run("query", "random", "balls", "--clearable", "--min-moves", "16",
                           "--json", data_dir=data_dir).stdout)
    assert dealt["clearable"] and dealt["moves"] >= 16
    check = json.loads(run("query", "solvable", dealt["state"], "--json",
                           data_dir=data_dir).stdout)
    assert check["moves"] == dealt["moves"]
    tubes = dealt["state"].split("|")
    assert [len(t) for t in tubes] == [4, 4, 4, 0]


def test_a_state_that_cannot_be_cleared_exits_nonzero(data_dir):
    moves = zarr.open_group(data_dir / "balls" / "4_4_3.zarr")["moves_to_clear"][...]
    never = GAME.format(int(np.flatnonzero(moves == 255)[0]))
    result = run("query", "path", never, "cleared", data_dir=data_dir)
    assert result.returncode != 0 and "never be cleared" in result.stderr
    assert run("query", "solvable", never, data_dir=data_dir).returncode == 1


@pytest.mark.parametrize("state, words", [
    ("rggx|brrg|gbbr|", "letters"),
    ("rggbb|brr|gbbr|", "more than 4"),
    ("rgg|brrg|gbbr|", "equal colours"),
    ("rgg|brr|gbb|rgb|", "no ball-tube table"),
])
def test_bad_states_get_one_line(data_dir, state, words):
    result = run("query", "solvable", state, data_dir=data_dir)
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_sizes_over_the_memory_budget_are_refused_before_building(tmp_path):
    with pytest.raises(BallsError, match="GiB"):
        build.build_balls(tmp_path, 5, 4, 4, progress=False)
    assert not (tmp_path / "balls").exists()
