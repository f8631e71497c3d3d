"""English peg solitaire: the published figure (every finish with one peg in the centre
takes 31 jumps from the standard start) from the table; the first levels of the positions
reachable from the start again from a search written here on plain masks (no symmetry:
their classes under the square's symmetries are counted in the test); a jump removes one
peg, so a stored distance is the pegs left minus one, or never; a path replays legally."""

from __future__ import annotations

import json

import numpy as np
import pytest

from builder import registry
from builder.contract.puzzle import Walking
from tests.commands import run_command
from tests.conftest import FIGURES

PEGS = registry.by_name("pegs")
STANDARD = "ooo.ooo.ooooooo.ooo_ooo.ooooooo.ooo.ooo"

# the board in the test's own terms: 7x7 squares of the cross, reading order
SQUARES = [(r, c) for r in range(7) for c in range(7) if 2 <= r <= 4 or 2 <= c <= 4]
AT = {square: i for i, square in enumerate(SQUARES)}


def plain_levels(depth: int) -> list[set[int]]:
    """The masks reachable from the start by 0, 1, ... ``depth`` jumps."""
    start = ((1 << 33) - 1) & ~(1 << AT[(3, 3)])
    levels = [{start}]
    for _ in range(depth):
        following = set()
        for mask in levels[-1]:
            for (r, c), here in AT.items():
                for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    over, to = AT.get((r + dr, c + dc)), AT.get((r + 2 * dr, c + 2 * dc))
                    if (over is not None and to is not None and mask >> here & 1
                            and mask >> over & 1 and not mask >> to & 1):
                        following.add(mask ^ (1 << here | 1 << over | 1 << to))
        levels.append(following)
    return levels


def classes(masks: set[int]) -> int:
    """How many of ``masks`` are distinct up to the square's eight symmetries."""
    maps = [lambda r, c: (r, c), lambda r, c: (c, 6 - r), lambda r, c: (6 - r, 6 - c),
            lambda r, c: (6 - c, r), lambda r, c: (r, 6 - c), lambda r, c: (6 - r, c),
            lambda r, c: (c, r), lambda r, c: (6 - c, 6 - r)]
    return len({min(sum(1 << AT[f(*SQUARES[i])] for i in range(33) if mask >> i & 1)
                    for f in maps) for mask in masks})


@pytest.fixture(scope="module")
def table(data_for):
    from query.walk import Tables

    tables = Tables(data_for(PEGS))
    return (tables, tables.vector(("pegs", "english"), "keys").whole(),
            tables.vector(("pegs", "english"), "distance").whole())


def test_the_start_needs_31_jumps(table):
    from query.walk import distance_between

    start = PEGS.parse("english", STANDARD)
    goal = Walking.of(PEGS).parse_target("english", "solved")
    assert (distance_between(PEGS, table[0], "english", start, goal)
            == FIGURES["peg_solitaire"]["jumps_to_finish_in_the_centre"])


def test_the_first_levels_equal_a_search_on_plain_masks(table):
    _, keys, _ = table
    counts = np.bincount(np.bitwise_count(keys.astype(np.uint64)), minlength=33)
    for jumps, masks in enumerate(plain_levels(6)):
        assert counts[32 - jumps] == classes(masks)


def test_a_distance_is_the_pegs_left_minus_one_or_never(table):
    _, keys, distance = table
    pegs = np.bitwise_count(keys.astype(np.uint64)).astype(np.int64)
    finishing = distance != 255
    assert np.array_equal(distance[finishing], pegs[finishing] - 1)
    assert finishing.any() and not finishing.all()


def test_a_path_replays_legally_to_one_peg_in_the_centre(data_for):
    out = run_command("query", "path", STANDARD, "--json", "--data", str(data_for(PEGS)), check=True)
    found = json.loads(out.stdout)
    node = PEGS.parse("english", STANDARD)
    for label in found["moves"]:
        node = next(m.state for m in PEGS.moves("english", node) if m.label == label)
    assert PEGS.format("english", node) == "___.___._______.___o___._______.___.___"
    assert found["length"] == 31


def test_a_position_that_cannot_finish_says_never(data_for, table):
    _, keys, distance = table
    stuck = PEGS.format("english", int(keys[np.flatnonzero(distance == 255)[0]]))
    out = run_command("query", "path", stuck, "--data", str(data_for(PEGS)))
    assert out.returncode != 0 and "never" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_a_position_off_the_table_is_named(data_for):
    out = run_command("query", "path", "ooo.ooo.ooooooo.oo__ooo.ooooooo.ooo.ooo", "--data", str(data_for(PEGS)))
    assert out.returncode != 0 and "not among the positions" in out.stderr
