"""Lucas' classic rule (pieces only move forward: A right, B left) as a variant of the
Lucas plug-in: its table against an independent plain search, the shortest solution
under both rules, and legal forward-only paths."""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations, pairwise

import pytest

from builder import registry
from puzzles.lucas.rules import ForwardOnly, Lucas, dense_rank
from query.walk import Tables, walk
from tests import reference
from tests.commands import run_command

LUCAS = registry.by_name("lucas")


classic_moves = reference.lucas_classic_moves


@cache
def plain_distances_to_goal(n: int) -> dict[str, int]:
    """Fewest classic moves to the goal from every arrangement that can still reach it:
    a plain search from the goal over every arrangement's moves, read backwards."""
    everything = []
    for gap in range(2 * n + 1):
        others = [cell for cell in range(2 * n + 1) if cell != gap]
        for a_cells in combinations(others, n):
            everything.append("".join("_" if cell == gap else "A" if cell in a_cells else "B"
                                      for cell in range(2 * n + 1)))
    before: dict[str, list[str]] = {text: [] for text in everything}
    for text in everything:
        for after in classic_moves(text):
            before[after].append(text)
    return reference.plain_distances("B" * n + "_" + "A" * n, before.__getitem__)


@pytest.mark.parametrize("n", range(1, 8))
def test_the_classic_table_equals_a_plain_search(data_dir, n):
    tables = Tables(data_dir)
    rules = Lucas(n)
    variant = ForwardOnly(rules)
    expected = plain_distances_to_goal(n)
    goal = rules.parse(rules.goal)
    reached = 0
    for code in rules.codes:
        found = LUCAS.distance(tables, variant, int(code), goal)
        assert found == expected.get(rules.format(int(code)))
        reached += found is not None
    assert reached == len(expected)


def test_positions_that_can_still_reach_the_goal_are_counted_in_the_views(catalog):
    """Up to n = 8 (218,790 arrangements): the plain search over n = 10's 3.9 million
    would take a minute of the suite; the rows of n = 9 and 10 come from the same kernel
    and view."""
    rows = dict(catalog.execute(
        "SELECT variant, reachable FROM table_summary WHERE puzzle = 'lucas' "
        "AND variant LIKE '% forward'").fetchall())
    assert {f"n={n} forward" for n in range(1, 11)} <= set(rows)
    for n in range(1, 9):
        assert rows[f"n={n} forward"] == len(plain_distances_to_goal(n))


@pytest.mark.parametrize("n", range(1, 11))
def test_the_shortest_solution_is_n_plus_one_squared_minus_one_under_both_rules(data_dir, n):
    tables = Tables(data_dir)
    rules = Lucas(n)
    start, goal = rules.parse(rules.start), rules.parse(rules.goal)
    assert LUCAS.distance(tables, ForwardOnly(rules), start, goal) == (n + 1) ** 2 - 1
    assert LUCAS.distance(tables, rules, start, goal) == (n + 1) ** 2 - 1


def test_dense_rank_is_a_bijection_onto_the_table():
    rules = Lucas(4)
    ranks = sorted(dense_rank(rules, int(code)) for code in rules.codes)
    assert ranks == list(range(len(rules.codes)))


def test_forward_paths_only_move_pieces_forward(data_dir):
    tables = Tables(data_dir)
    variant = ForwardOnly(Lucas(5))
    start, goal = "AAAAA_BBBBB", "BBBBB_AAAAA"
    found = walk(LUCAS, tables, variant, variant.rules.parse(start),
                 variant.rules.parse(goal))
    texts = [variant.rules.format(node) for node in found.nodes]
    assert texts[0] == start and texts[-1] == goal and found.length == 35
    for here, there in pairwise(texts):
        assert there in classic_moves(here)


def test_a_target_other_than_the_goal_is_searched_on_demand():
    distance = reference.plain_distances("AAA_BBB", classic_moves)  # forward from the start
    target = min(text for text in distance if distance[text] == 9)
    run = run_command("query", "path", "AAA_BBB", target, "--variant", "forward", "--json", check=True)
    assert json.loads(run.stdout)["length"] == 9
    unreachable = run_command("query", "path", "AAA_BBB", "BAB_ABA", "--variant", "forward")
    assert "BAB_ABA" not in distance and "cannot be reached" in unreachable.stderr


def test_an_unknown_rule_is_one_line():
    run = run_command("query", "path", "AAA_BBB", "BBB_AAA", "--variant", "back")
    assert run.returncode == 2 and "'forward'" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_verify_checks_the_classic_rule_s_table_and_finds_a_forged_entry(tmp_path):
    """`builder verify` checks the classic rule's table by the recurrence over the moves
    themselves (a rule whose moves cannot be undone): intact it passes; one entry off,
    its checksums made again, it fails naming the array."""
    import numpy as np
    import zarr

    from builder import routine, verify
    from builder.store import record_checksums

    spec = LUCAS.table({"puzzle": "lucas", "rule": "forward", "max_n": 4})
    built = routine.build_table(tmp_path, spec, progress=False)
    assert verify.verify_table(built.path, 3, np.random.default_rng(0)).ok
    array = zarr.open_group(built.path, mode="r+")["n4"]
    values = array[...]
    reachable = np.flatnonzero((values > 0) & (values < 255))
    values[reachable[len(reachable) // 2]] += 1
    array[...] = values
    record_checksums(built.path)
    verdict = verify.verify_table(built.path, 3, np.random.default_rng(0))
    assert not verdict.ok and "n4" in verdict.detail, verdict.detail
