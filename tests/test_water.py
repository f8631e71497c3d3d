"""Water sort (the ball plug-in's ``rules water``): a move pours every top unit of one
colour that fits.  Checked against a plain breadth-first search written here from the
rule alone (tubes as strings, top first), on the stored tables, on the solver, and on
the fact that a pour never does worse than the ball moves it replaces."""

from __future__ import annotations

import json

import numpy as np
import pytest

from puzzles.balls.answers import BallsTable, searched
from puzzles.balls.rules import Balls
from tests import reference
from tests.commands import run_command


def pours(state: str, capacity: int) -> list[tuple[int, int, str]]:
    """Every pour of a state written top first: all the top units of the top colour that
    fit, onto an empty tube or a tube topped by that colour."""
    tubes = state.split("|")
    found = []
    for source, units in enumerate(tubes):
        if not units:
            continue
        run = len(units) - len(units.lstrip(units[0]))
        for target, others in enumerate(tubes):
            room = capacity - len(others)
            if target == source or room == 0 or (others and others[0] != units[0]):
                continue
            moved = min(run, room)
            after = list(tubes)
            after[target] = units[:moved] + others
            after[source] = units[moved:]
            found.append((source, target, "|".join(after)))
    return found


def cleared(state: str, capacity: int) -> bool:
    return all(not t or (len(t) == capacity and len(set(t)) == 1) for t in state.split("|"))


def fewest_pours(state: str, capacity: int) -> int | None:
    """Fewest pours to a cleared state by a plain BFS from ``state`` (None: never)."""
    distance = reference.plain_distances(
        state, lambda here: [after for *_, after in pours(here, capacity)])
    reached = [d for s, d in distance.items() if cleared(s, capacity)]
    return min(reached) if reached else None


def random_states(rules: Balls, count: int, seed: int) -> list[tuple[int, ...]]:
    ranks = np.random.default_rng(seed).integers(0, rules.n_states, count)
    return [rules.state_of_rank(int(rank)) for rank in ranks]


@pytest.mark.parametrize("size", [(4, 4, 3), (5, 4, 4)])
def test_the_water_tables_equal_a_plain_search(data_dir, size):
    from query.walk import Tables

    rules = Balls(*size, water=True)
    table = BallsTable(Tables(data_dir), rules)
    states = random_states(rules, 60 if size == (4, 4, 3) else 12, 3)
    stored = table.moves_of_states(np.array(states))
    for state, moves in zip(states, stored):
        expected = fewest_pours(rules.format(state), rules.capacity)
        assert (None if moves == 255 else int(moves)) == expected, rules.format(state)


def test_the_plug_in_pours_as_the_plain_rule_does():
    rules = Balls(5, 4, 4, water=True)
    for state in random_states(rules, 200, 5):
        text = rules.format(state)
        assert sorted((s, d, rules.format(after)) for s, d, after
                      in rules.legal_moves(state)) == sorted(pours(text, rules.capacity))


def test_a_pour_optimum_is_never_longer_than_the_ball_optimum(data_dir):
    """Over every starting deal of the document's game (first three tubes full): the
    fewest pours never exceed the fewest ball moves, and a deal clearable by balls is
    clearable by pours."""
    from query.walk import Tables

    balls, water = Balls(4, 4, 3), Balls(4, 4, 3, water=True)
    first, last = balls.initial_range()
    states = balls.codes_of_ranks(np.arange(first, last))
    by_ball = BallsTable(Tables(data_dir), balls).moves_of_states(states).astype(int)
    by_pour = BallsTable(Tables(data_dir), water).moves_of_states(states).astype(int)
    clearable = by_ball != 255
    assert clearable.any() and (by_pour[clearable] <= by_ball[clearable]).all()
    assert (by_pour[clearable] < by_ball[clearable]).any()  # pours do save moves


@pytest.mark.parametrize("seed", range(4))
def test_the_solver_proves_what_a_plain_search_finds(seed):
    """Random deals of 4 colours in 6 tubes of 3 (small enough for a plain BFS): the
    solver's verdict and length equal the BFS's, and its solution replays pour by pour."""
    rules = Balls(6, 3, 4, water=True)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        balls = rng.permutation(np.repeat(np.arange(4), 3))
        tubes = [list(balls[3 * t: 3 * t + 3]) for t in range(4)] + [[], []]
        start = rules.state_of_tubes(tubes)
        expected = fewest_pours(rules.format(start), rules.capacity)
        found = searched(rules, start)
        if expected is None:
            assert found.verdict == "unclearable"
            continue
        assert found.verdict == "optimal" and found.length == expected
        here = rules.format(start)
        for (source, target), after in zip(found.moves, found.states[1:]):
            assert (source, target, rules.format(after)) in pours(here, rules.capacity)
            here = rules.format(after)
        assert cleared(here, rules.capacity)


def test_query_solve_and_path_take_the_rules(data_dir):
    solve = run_command("query", "solve", "abcd|bcda|cdab|dabc||", "--rules", "water", "--json")
    answer = json.loads(solve.stdout)
    assert solve.returncode == 0 and answer["verdict"] == "optimal"
    assert answer["length"] == fewest_pours("abcd|bcda|cdab|dabc||", 4)
    path = json.loads(run_command("query", "path", "rggb|brrg|gbbr|", "--rules", "water", "--json", "--data", str(data_dir), check=True).stdout)
    assert path["rules"] == "water" and path["how"] == "table walk"
    assert path["length"] == fewest_pours("rggb|brrg|gbbr|", 4)
    wrong = run_command("query", "solve", "abc|bca|cab|", "--rules", "sand")
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) == 1
    assert "'water'" in wrong.stderr
