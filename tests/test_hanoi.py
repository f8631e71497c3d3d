"""The Tower of Hanoi plug-in: its tables against the published move counts and an
independent plain search, paths that replay legally, and its errors."""

from __future__ import annotations

import json

import pytest

from builder import registry
from builder.contract.errors import PuzzleInputError
from puzzles.hanoi import HanoiPuzzle
from puzzles.hanoi.rules import rank
from query.walk import Tables, walk
from tests import reference
from tests.commands import run_command

HANOI = registry.by_name("hanoi")

# OEIS A007664 (Frame-Stewart numbers, proved optimal for four pegs): fewest moves of
# n discs from one peg to another on four pegs, n = 1 .. 12.
FOUR_PEGS = (1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81)


def plain_distances(pegs: int, discs: int, goal: str) -> dict[str, int]:
    """Fewest moves from every position to ``goal`` (moves can be undone)."""
    return reference.plain_distances(goal, reference.hanoi_moves(pegs))


def test_it_is_registered():
    assert isinstance(HANOI, HanoiPuzzle)
    assert registry.choose("AAAAAA") is HANOI


@pytest.mark.parametrize("discs", range(1, 13))
def test_four_pegs_need_the_frame_stewart_numbers(data_dir, discs):
    tables = Tables(data_dir)
    variant = (4, discs)
    start = rank(4, "A" * discs)
    for peg in "BCD":
        assert HANOI.distance(tables, variant, start, rank(4, peg * discs)) == FOUR_PEGS[discs - 1]


@pytest.mark.parametrize("discs", range(1, 13))
def test_three_pegs_need_two_to_the_n_minus_one(data_dir, discs):
    tables = Tables(data_dir)
    variant = (3, discs)
    assert HANOI.distance(tables, variant, rank(3, "A" * discs),
                          rank(3, "C" * discs)) == 2**discs - 1
    assert HANOI.distance(tables, variant, rank(3, "C" * discs),
                          rank(3, "B" * discs)) == 2**discs - 1


@pytest.mark.parametrize(("pegs", "discs"), [(3, 6), (4, 5)])
def test_every_stored_distance_equals_a_plain_search(data_dir, pegs, discs):
    tables = Tables(data_dir)
    for goal in ("ABCD"[pegs - 1] * discs, "A" * discs):
        expected = plain_distances(pegs, discs, goal)
        assert len(expected) == pegs**discs
        for position, moves in expected.items():
            assert HANOI.distance(tables, (pegs, discs), rank(pegs, position),
                                  rank(pegs, goal)) == moves


def test_a_target_not_on_one_peg_is_searched_on_demand_and_exact(data_dir):
    tables = Tables(data_dir)
    expected = plain_distances(4, 6, "ABCDDA")
    for position in ("AAAAAA", "DCBAAB", "ABCDDA", "CCCCCC"):
        assert HANOI.distance(tables, (4, 6), rank(4, position),
                              rank(4, "ABCDDA")) == expected[position]


@pytest.mark.parametrize(("start", "target", "pegs"), [
    ("AAAAAAAAAAAA", "DDDDDDDDDDDD", 4), ("ABCABCABCA", "CCCCCCCCCC", 3),
    ("ABCDABCD", "DCBAABCD", 4)])
def test_paths_replay_legally_and_have_the_tabled_length(data_dir, start, target, pegs):
    tables = Tables(data_dir)
    variant = HANOI.variant(start, target, {})
    assert variant[0] == pegs
    first, goal = HANOI.parse(variant, start), HANOI.parse(variant, target)
    found = walk(HANOI, tables, variant, first, goal)
    assert found.length == HANOI.distance(tables, variant, first, goal)
    here = HANOI.format(variant, first)
    for label, node in zip(found.labels, found.nodes[1:]):
        disc, move = int(label.split()[1]) - 1, label.split()[2]
        source, destination = move.split("->")
        assert here[disc] == source and here.find(source) == disc  # the top disc moves
        assert here.find(destination) in (-1,) or here.find(destination) > disc
        here = here[:disc] + destination + here[disc + 1:]
        assert HANOI.format(variant, node) == here
    assert here == target


def test_query_path_prints_the_walk_as_json():
    run = run_command("query", "path", "AAAAAA", "DDDDDD", "--json", check=True)
    assert json.loads(run.stdout)["length"] == FOUR_PEGS[5]
    three = run_command("query", "path", "AAAAAA", "CCCCCC", "--json", check=True)
    assert json.loads(three.stdout)["length"] == 63
    four = run_command("query", "path", "AAAAAA", "CCCCCC", "--variant", "4", "--json", check=True)
    assert json.loads(four.stdout)["length"] == FOUR_PEGS[5]


@pytest.mark.parametrize(("arguments", "message"), [
    (("AAAAAAAAAAAAA", "DDDDDDDDDDDDD"), "from 1 to 12 discs"),
    (("AAAA", "DDD"), "has 4 discs but"),
    (("AAAA", "DDDD", "--variant", "5"), "3 or 4 (pegs)"),
    (("AAAD", "CCCC", "--variant", "3"), "from A, B, C"),
])
def test_bad_input_is_one_line_and_exit_2(arguments, message):
    run = run_command("query", "path", *arguments)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_a_table_choice_is_checked(tmp_path):
    with pytest.raises(PuzzleInputError, match="3 or 4"):
        HANOI.table_for("5")
    assert HANOI.table_for("4:abcd").identity == {"puzzle": "hanoi", "variant": "4 pegs, 4 discs",
                                                  "target": "ABCD"}
    assert [spec.identity["variant"] for spec in HANOI.table_for("3")] == [
        f"3 pegs, {discs} disc{'s' if discs > 1 else ''}" for discs in range(1, 13)]


def test_its_statistics_are_in_the_generic_views(catalog):
    rows = catalog.execute("SELECT variant, max_distance, states FROM table_summary "
                           "WHERE puzzle = 'hanoi' AND \"table\" LIKE 'to %' "
                           "AND variant LIKE '4 pegs%'").fetchall()
    found = {variant: (longest, states) for variant, longest, states in rows}
    for discs in range(1, 13):
        name = f"4 pegs, {discs} disc{'s' if discs > 1 else ''}"
        # from all on one peg the most needed is not the largest: A007664 is a lower bound
        assert found[name][1] == 4**discs and found[name][0] >= FOUR_PEGS[discs - 1]


@pytest.mark.parametrize("pegs", [3, 4])
def test_the_moves_written_once_run_alike_compiled_and_as_python(pegs):
    """The tables' kernel and the walk's moves are one function: compiled by the engine it
    gives what it gives as Python, and both give the rules' moves (a disc onto a larger
    one or a bare peg), checked here on positions drawn at random."""
    import random

    import numpy as np

    from builder.contract.specs import kernel, resolved
    from puzzles.hanoi.rules import PEG_LETTERS, rank, unrank
    from puzzles.hanoi.search import hanoi_moves

    discs = 7
    parameters = np.array([pegs, discs], np.int64)
    compiled, plain = kernel(hanoi_moves), resolved(hanoi_moves)
    draw = random.Random(pegs)
    for _ in range(200):
        position = draw.randrange(pegs**discs)
        letters = unrank(pegs, discs, position)
        expected = set()
        for disc, peg in enumerate(letters):
            if peg in letters[:disc]:
                continue  # not the top of its peg
            for other in PEG_LETTERS[:pegs]:
                if other != peg and other not in letters[:disc]:
                    expected.add(rank(pegs, letters[:disc] + other + letters[disc + 1:]))
        for function in (compiled, plain):
            out = np.zeros(pegs * (pegs - 1), np.int64)
            count = function(position, parameters, out)
            assert sorted(out[:count].tolist()) == sorted(expected)
