"""Ball tubes: the document's figures, a plain search on small sizes, symmetry classes,
the ranking, paths, dealing, and the large game T=5, c=4, k=4."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
import zarr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder import registry, routine
from puzzles.balls.answers import NotClearableError, deal_balls
from puzzles.balls.rules import Balls, BallsError
from tests import reference
from tests.commands import run_command
from tests.test_cli import run
from tests.walks import balls_path, balls_table

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
                                "WHERE (tubes, capacity, colours) = (4, 4, 3) "
                                "GROUP BY kind").fetchall())
    assert rows == {"initial": 34_650, "all": 1_212_750}


def build_balls(data, tubes: int, capacity: int, colours: int):
    """A ball-tube table through the engine's build routine, as `builder balls` builds it
    (its budget checked first)."""
    return routine.build_table(data, registry.by_name("balls").table_for(
        f"{tubes}_{capacity}_{colours}"), progress=False)


SMALL_SIZES = [(3, 2, 2), (4, 3, 2), (3, 3, 2), (4, 2, 3), (5, 2, 3), (5, 2, 4)]


@pytest.fixture(scope="module")
def small_games(tmp_path_factory):
    data = tmp_path_factory.mktemp("balls")
    for size in SMALL_SIZES:
        build_balls(data, *size)
    return data


def every_state(rules: Balls) -> np.ndarray:
    """(N, T) tube codes of every labelled state, through the labelled ranking."""
    return rules.codes_of_ranks(np.arange(rules.n_states))


@pytest.mark.parametrize("size", [(3, 2, 2), (4, 3, 2), (3, 3, 2), (5, 2, 3)])
def test_small_games_equal_a_plain_search_on_every_state(small_games, size):
    rules = Balls(*size)
    table = balls_table(small_games, rules)
    states = every_state(rules)
    moves = table.moves_of_states(states)
    expected = reference.ball_moves_to_clear(*size)
    got = {rules.format(tuple(s)): int(m) for s, m in zip(states, moves) if m != 255}
    assert got == expected
    from collections import Counter

    from query.api import open_tablebase  # a class's representative stands for it

    with open_tablebase(small_games) as tablebase:
        balls = tablebase.puzzle("balls")
        hardest = balls.hardest(3, table=rules.name)
        assert balls.distribution(rules.name) == dict(sorted(Counter(expected.values()).items()))
        assert balls.count(rules.name) == len(expected)
        level = balls.random(max(expected.values()), seed=1, table=rules.name)
    # one entry a class: the farthest class first, each at its representative's distance
    assert hardest[0].distance == max(expected.values()) == level.distance
    assert [x.distance for x in hardest] == sorted((x.distance for x in hardest), reverse=True)
    assert all(expected[x.position] == x.distance for x in [*hardest, level])


@pytest.mark.parametrize("size", SMALL_SIZES)
def test_classes_are_the_orbits_of_every_labelled_state(small_games, size):
    """The kernel's enumeration (keys ascending, states per class) equals grouping every
    labelled state by its class key computed in numpy."""
    rules = Balls(*size)
    group = zarr.open_group(small_games / "balls" / f"{rules.name}.zarr")
    keys, counts = np.unique(rules.class_keys(every_state(rules)), return_counts=True)
    assert np.array_equal(group["class_key"][...], keys)
    assert np.array_equal(group["class_states"][...], counts)


def test_symmetric_states_need_the_same_moves(data_dir):
    rules = GAME
    table = balls_table(data_dir, rules)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, GAME.n_states - 1), st.permutations(range(3)),
           st.permutations(range(4)))
    def check(rank, colour_order, tube_order):
        text = rules.format(rules.state_of_rank(rank))
        recoloured = text.translate(str.maketrans("rgb", "".join("rgb"[c] for c in colour_order)))
        moved = "|".join(recoloured.split("|")[t] for t in tube_order)
        assert (table.moves_to_clear(rules.parse(moved))
                == table.moves_to_clear(rules.state_of_rank(rank)))

    check()


def test_ranking_is_a_bijection_on_the_documents_game():
    ranks = np.arange(GAME.n_states)
    tubes, lengths = GAME.unrank(ranks)
    assert np.array_equal(GAME.rank(tubes, lengths), ranks)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(3, 2, 2), (5, 3, 3), (4, 4, 3), (6, 2, 4)]), st.data())
def test_notation_round_trips(size, data):
    rules = Balls(*size)
    state = rules.state_of_rank(data.draw(st.integers(0, rules.n_states - 1)))
    assert rules.parse(rules.format(state)) == state


def test_tube_code_moves_agree_with_the_notation():
    """Pop/push tables against moving letters in strings, on every state of a game."""
    rules = Balls(4, 3, 2)
    for state in every_state(rules):
        text = rules.format(tuple(state))
        got = {(a, b, rules.format(s)) for a, b, s in rules.legal_moves(tuple(state))}
        assert got == set(reference.ball_moves(text, 3))


def replay(rules: Balls, start: str, found) -> str:
    state = start
    for (source, target), following in zip(found.moves, found.states[1:]):
        assert (source, target, rules.format(following)) in reference.ball_moves(
            state, rules.capacity)
        state = rules.format(following)
    return state


def test_paths_replay_legally_and_end_cleared(data_dir):
    table = balls_table(data_dir, GAME)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, GAME.n_states - 1))
    def check(rank):
        state = GAME.state_of_rank(rank)
        moves = table.moves_to_clear(state)
        if moves == 255:
            with pytest.raises(NotClearableError):
                balls_path(GAME, table, state)
            return
        found = balls_path(GAME, table, state)
        assert found.length == moves
        end = replay(GAME, GAME.format(state), found)
        assert all(not t or (len(t) == 4 and len(set(t)) == 1) for t in end.split("|"))

    check()


def test_cli_path_json_and_solvable(data_dir):
    answer = json.loads(run("query", "path", "rggb|brrg|gbbr|", "cleared", "--json",
                            data_dir=data_dir).stdout)
    assert set(answer) == {"puzzle", "start", "target", "length", "how", "optimal", "moves",
                           "states"}  # the one printer's keys (round 9 added the first three)
    assert answer["puzzle"] == "balls" and answer["optimal"]
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


def test_deals_are_uniform_over_starting_states(small_games):
    """4 tubes of 3, 2 colours: 20 starting states; 4,000 deals within a chi-square bound."""
    rules = Balls(4, 3, 2)
    table = balls_table(small_games, rules)
    rng = np.random.default_rng(7)
    dealt = Counter(rules.format(deal_balls(rules, table, rng)[0]) for _ in range(4000))
    first, last = rules.initial_range()
    starts = {rules.format(rules.state_of_rank(r)) for r in range(first, last)}
    assert set(dealt) == starts
    expected = 4000 / len(starts)
    chi_square = sum((n - expected) ** 2 / expected for n in dealt.values())
    assert chi_square < 43.8  # 19 degrees of freedom, p = 0.001


def test_a_state_that_cannot_be_cleared_exits_nonzero(data_dir):
    table = balls_table(data_dir, GAME)
    states = GAME.codes_of_ranks(np.arange(0, GAME.n_states, 101))
    never = GAME.format(tuple(states[int(np.flatnonzero(table.moves_of_states(states) == 255)[0])]))
    result = run("query", "path", never, "cleared", data_dir=data_dir)
    assert result.returncode != 0 and "never be cleared" in result.stderr
    assert run("query", "solvable", never, data_dir=data_dir).returncode == 1


@pytest.mark.parametrize("state, words", [
    ("rggx|brrg|gbbr|", "same number of balls (r 4, g 4, b 3, x 1)"),
    ("rggbb|brrg|gbr|", "more than 4"),
    ("rgg|brrg|gbbr|", "same number of balls"),
    ("aaaaaaaaa|", "at most 8"),
    # letters and '|' are all the tubes claim: other characters are named once the
    # state says it is a ball-tube state
    ("balls:ab|ba|0", "lowercase letters"),
    ("balls:r-g|gr-|", "lowercase letters"),
])
def test_bad_states_get_one_line(data_dir, state, words):
    result = run("query", "solvable", state, data_dir=data_dir)
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_sizes_over_the_memory_budget_are_refused_before_building(tmp_path):
    with pytest.raises(BallsError, match="GiB"):
        build_balls(tmp_path, 6, 5, 4)
    assert not (tmp_path / "balls").exists()
    result = run("builder", "balls", "--tubes", "6", "--capacity", "5", "--colours", "4",
                 "--data", str(tmp_path))
    assert result.returncode == 2 and "budget" in result.stderr
    assert not (tmp_path / "balls").exists()


# --- the large game: 5 tubes of 4, 4 colours (built by `make tables`) ----------------

LARGE = Balls(5, 4, 4)


def test_large_game_classes_hold_every_labelled_state(catalog):
    row = catalog.execute("SELECT all_states, classes FROM balls_symmetry_classes "
                          "WHERE (tubes, capacity, colours) = (5, 4, 4)").fetchone()
    assert row[0] == 4_414_410_000 == LARGE.n_states  # the figure the issue states
    assert LARGE.classes_lower_bound() <= row[1] < 2 * LARGE.classes_lower_bound()


def test_large_game_obeys_the_shortest_path_recurrence(data_dir):
    """At random labelled states, through the plain notation's moves: a state needs one
    move more than its best successor (0 if cleared, 255 if no successor can be)."""
    table = balls_table(data_dir, LARGE)
    rng = np.random.default_rng(4)
    for rank in rng.integers(0, LARGE.n_states, 150):
        text = LARGE.format(LARGE.state_of_rank(int(rank)))
        successors = [LARGE.parse(s) for *_, s in reference.ball_moves(text, 4)]
        best = min((table.moves_to_clear(s) for s in successors), default=255)
        cleared = all(not t or (len(t) == 4 and len(set(t)) == 1) for t in text.split("|"))
        expected = 0 if cleared else 255 if best == 255 else best + 1
        assert table.moves_to_clear(LARGE.parse(text)) == expected


def test_large_game_paths_replay(data_dir):
    table = balls_table(data_dir, LARGE)
    rng = np.random.default_rng(5)
    for _ in range(20):
        state, moves = deal_balls(LARGE, table, rng, clearable=True)
        found = balls_path(LARGE, table, state)
        assert found.length == moves
        end = replay(LARGE, LARGE.format(state), found)
        assert all(not t or (len(t) == 4 and len(set(t)) == 1) for t in end.split("|"))


@pytest.mark.parametrize("distance", [3, 6])
def test_a_deal_at_an_exact_distance_needs_exactly_that_many_moves(small_games, distance):
    """`query random balls --distance D`: a starting state (its first tubes full) that
    a plain search clears in exactly D moves; past the hardest, one line."""
    expected = reference.ball_moves_to_clear(4, 3, 2)
    for seed in range(3):
        done = run_command("query", "random", "balls", "--tubes", "4", "--capacity", "3",
                           "--colours", "2", "--distance", str(distance), "--seed", str(seed),
                           "--json", "--data", str(small_games))
        assert done.returncode == 0, done.stderr
        state = json.loads(done.stdout)["state"]
        assert expected[state] == distance == json.loads(done.stdout)["moves"]
        assert all(len(tube) == 3 for tube in state.split("|")[:2])  # the first tubes full
    far = run_command("query", "random", "balls", "--tubes", "4", "--capacity", "3",
                      "--colours", "2", "--distance", "99", "--data", str(small_games))
    assert far.returncode == 2 and "exactly 99 moves" in far.stderr
