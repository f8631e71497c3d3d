"""The ball-tube solver (any size): optimal lengths equal the tables where tables exist, a
plain breadth-first search in this file agrees on small deals, every solution replays
legally to a cleared state, unclearable deals are proven so, a spent budget says so with
a sound lower bound, and the commands' answers."""

from __future__ import annotations

import json
import random
from collections import deque

import numpy as np
import pytest

from puzzles.balls.answers import searched
from puzzles.balls.rules import Balls
from tests.test_cli import run
from tests.walks import balls_table


def plain_moves(tubes: list[list[int]], capacity: int):
    """Every legal move, by the document's rule (tubes bottom first)."""
    for source, tube in enumerate(tubes):
        for destination, other in enumerate(tubes):
            if tube and destination != source and len(other) < capacity and (
                    not other or other[-1] == tube[-1]):
                following = [list(t) for t in tubes]
                following[destination].append(following[source].pop())
                yield (source, destination), following


def plain_cleared(tubes: list[list[int]], capacity: int) -> bool:
    return all(not tube or (len(tube) == capacity and len(set(tube)) == 1) for tube in tubes)


def plain_fewest_moves(tubes: list[list[int]], capacity: int) -> int | None:
    """Breadth-first over states up to tube order (None: never cleared)."""
    def key(state):
        return tuple(sorted(tuple(t) for t in state))

    seen, queue = {key(tubes): 0}, deque([tubes])
    while queue:
        state = queue.popleft()
        if plain_cleared(state, capacity):
            return seen[key(state)]
        for _, following in plain_moves(state, capacity):
            if key(following) not in seen:
                seen[key(following)] = seen[key(state)] + 1
                queue.append(following)
    return None


def random_deal(rng: random.Random, colours: int, capacity: int, empty: int):
    balls = [c for c in range(colours) for _ in range(capacity)]
    rng.shuffle(balls)
    return [balls[t * capacity:(t + 1) * capacity] for t in range(colours)] + [[]] * empty


def replays_to_cleared(rules: Balls, answer) -> bool:
    """The moves, replayed by the plain rule from the first state, pass through every
    state the answer lists and end cleared."""
    tubes = rules.tubes_of_state(answer.states[0])
    for step, move in enumerate(answer.moves, 1):
        legal = dict(plain_moves(tubes, rules.capacity))
        if move not in legal:
            return False
        tubes = legal[move]
        if rules.state_of_tubes(tubes) != answer.states[step]:
            return False
    return plain_cleared(tubes, rules.capacity)


@pytest.mark.parametrize("shape", [(4, 4, 3), (5, 4, 4)])
def test_optimal_lengths_and_verdicts_equal_the_tables(data_dir, shape):
    rules = Balls(*shape)
    table = balls_table(data_dir, rules)
    rng = np.random.default_rng(sum(shape))
    states = rules.codes_of_ranks(rng.integers(0, rules.n_states, 120))
    expected = table.moves_of_states(states)
    assert (expected == 255).any() and (expected != 255).any()  # both verdicts sampled
    for state, moves in zip(states, expected):
        answer = searched(rules, tuple(int(code) for code in state))
        if moves == 255:
            assert answer.verdict == "unclearable", rules.format(tuple(state))
        else:
            assert (answer.verdict, answer.length) == ("optimal", moves), rules.format(
                tuple(state))
            assert replays_to_cleared(rules, answer)


def test_a_plain_search_agrees_on_small_deals():
    rng = random.Random(16)
    verdicts = set()
    for _ in range(60):
        colours, capacity, empty = rng.randint(2, 4), rng.randint(2, 4), rng.randint(0, 2)
        tubes = random_deal(rng, colours, capacity, empty)
        rules = Balls(colours + empty, capacity, colours)
        answer = searched(rules, rules.state_of_tubes(tubes))
        expected = plain_fewest_moves(tubes, capacity)
        verdicts.add(answer.verdict)
        if expected is None:
            assert answer.verdict == "unclearable", tubes
        else:
            assert (answer.verdict, answer.length) == ("optimal", expected), tubes
            assert replays_to_cleared(rules, answer)
    assert verdicts == {"optimal", "unclearable"}


@pytest.mark.parametrize("state", ["ab|ba", "abc|bca|cab", "aabb|bbaa"])
def test_deals_with_no_way_out_are_proven_unclearable(state):
    rules = Balls.of_state(state)
    answer = searched(rules, rules.parse(state))
    assert answer.verdict == "unclearable" and answer.explored >= 1


def test_large_deals_replay_and_respect_the_bound():
    """14 colours, tubes of 4, 2 empty (the app-sized game): an optimal solution that
    replays, at least as long as the lower bound the module states (balls that must
    move), which is also what a tiny budget reports."""
    rng = random.Random(14)
    tubes = random_deal(rng, 14, 4, 2)
    rules = Balls(16, 4, 14)
    start = rules.state_of_tubes(tubes)
    answer = searched(rules, start)
    assert answer.verdict == "optimal" and replays_to_cleared(rules, answer)
    longest = {}
    for tube in tubes:
        run_length = next((i for i, ball in enumerate(tube) if ball != tube[0]), len(tube))
        if tube:
            longest[tube[0]] = max(longest.get(tube[0], 0), run_length)
    assert answer.length >= 56 - sum(longest.values())
    spent = searched(rules, start, budget=1_000)
    assert spent.verdict in ("best_found", "unresolved")
    assert spent.lower_bound <= answer.length
    if spent.verdict == "best_found":
        assert spent.length >= answer.length and replays_to_cleared(rules, spent)


def test_query_solve_answers_in_json_and_exit_codes(data_dir):
    result = run("query", "solve", "abcd|dcba|abcd|dcba||", "--json", data_dir=data_dir)
    found = json.loads(result.stdout)
    assert result.returncode == 0 and found["verdict"] == "optimal"
    assert set(found) >= {"state", "verdict", "length", "lower_bound", "moves", "states",
                          "explored"}
    assert found["length"] == len(found["moves"]) == len(found["states"]) - 1
    assert found["states"][-1].count("|") == 5
    tabled = json.loads(run("query", "solve", "rggb|brrg|gbbr|", "--json",
                            data_dir=data_dir).stdout)
    assert tabled["how"] == "table walk" and tabled["explored"] == 0
    never = run("query", "solve", "abc|bca|cab", "--json", data_dir=data_dir)
    assert never.returncode == 1 and json.loads(never.stdout)["verdict"] == "unclearable"


def test_query_random_balls_deals_at_any_size_with_its_proof(data_dir):
    result = run("query", "random", "balls", "--colours", "9", "--empty", "2",
                 "--min-moves", "30", "--seed", "5", "--json", data_dir=data_dir)
    dealt = json.loads(result.stdout)
    assert dealt["verdict"] == "optimal" and dealt["moves"] >= 30
    rules = Balls.of_state(dealt["state"])
    assert (rules.tubes, rules.colours) == (11, 9)
    answer = searched(rules, rules.parse(dealt["state"]))
    assert answer.length == dealt["moves"] and replays_to_cleared(rules, answer)
    tubes = rules.tubes_of_state(rules.parse(dealt["state"]))  # a start: full, then empty
    assert [len(t) for t in tubes] == [4] * 9 + [0] * 2


def test_query_moves_values_every_move_by_the_solver_where_no_table_exists(data_dir,
                                                                           tmp_path):
    """`query moves` in an empty data directory (the solver values each move) on a state
    of the tabled 5-tube game: every value equals the table's, built by the backward
    search."""
    rules = Balls(5, 4, 4)
    table = balls_table(data_dir, rules)
    states = rules.codes_of_ranks(np.random.default_rng(3).integers(0, rules.n_states, 400))
    tabled = table.moves_of_states(states)
    state = rules.format(tuple(int(c) for c in states[np.flatnonzero(
        (tabled != 255) & (tabled > 3))[0]]))
    result = run("query", "moves", state, "--json", data_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    legal = rules.legal_moves(rules.parse(state))
    assert len(found["moves"]) == len(legal) > 0
    expected = table.moves_of_states(np.array([following for *_, following in legal]))
    assert found["distance"] == table.moves_to_clear(rules.parse(state))
    for entry, (_, _, following), value in zip(found["moves"], legal, expected):
        assert entry["state"] == rules.format(following)
        assert entry["distance"] == (None if value == 255 else value)


@pytest.mark.parametrize(("colours", "capacity", "empty"), [(3, 4, 1), (4, 3, 2), (5, 3, 1)])
def test_query_solve_json_counts_the_first_moves_that_keep_a_deal_clearable(data_dir, colours,
                                                                            capacity, empty):
    """For a level designer: the first moves, those that keep the deal clearable and those
    that keep it optimal, equal a plain breadth-first search from each first move (deals
    held by a table and deals only the solver answers)."""
    rng = random.Random(colours * 100 + capacity)
    rules = Balls(colours + empty, capacity, colours)
    checked = 0
    while checked < 3:
        tubes = random_deal(rng, colours, capacity, empty)
        fewest = plain_fewest_moves(tubes, capacity)
        if fewest is None:
            continue
        checked += 1
        after = [plain_fewest_moves(following, capacity)
                 for _, following in plain_moves(tubes, capacity)]
        found = json.loads(run("query", "solve", rules.format(rules.state_of_tubes(tubes)),
                               "--json", "--data", str(data_dir)).stdout)
        assert found["length"] == fewest
        assert found["first_moves"] == len(after)
        assert found["clearable_first_moves"] == sum(a is not None for a in after)
        assert found["optimal_first_moves"] == sum(a == fewest - 1 for a in after)
        assert found["undecided_first_moves"] == 0


def test_building_a_ball_table_compiles_the_solver_a_query_runs(tmp_path, monkeypatch):
    """`builder build` imports the modules a plug-in names in ``kernel_modules`` (the
    ball tubes: their solver, which no table's build uses), whose kernels declare their
    signature: compiled there, not at a user's first hint."""
    import sys

    from tests.commands import run_command

    monkeypatch.delitem(sys.modules, "puzzles.balls.solver", raising=False)
    done = run_command("builder", "build", "balls", "4_4_3_water", "--quiet", "--data",
                       str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert sys.modules["puzzles.balls.solver"]._search.signatures
