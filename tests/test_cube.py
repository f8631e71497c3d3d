"""The 2×2×2 cube: the published figures (3,674,160 positions with one corner fixed, at
most 11 half turns and 14 quarter turns) from the tables; the first levels again from a
breadth-first search on sticker strings (``tests/reference.py``: turns as sticker cycles,
not the plug-in's corner tables); a position and its inverse are as far from solved; the kernel
makes the moves the plain-Python rules make; paths replay with the tabled length."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from builder import registry
from builder.contract.puzzle import Describing, Walking
from tests.commands import run_command
from tests.conftest import FIGURES
from tests.reference import SOLVED_STICKERS, cube_moves, cube_turn

PUBLISHED = FIGURES["pocket_cube"]
CUBE = registry.by_name("cube")
SOLVED = SOLVED_STICKERS


def sticker_levels(metric: str, depth: int) -> dict[str, int]:
    """Fewest turns from solved of every position within ``depth``, by sticker strings."""
    distance = {SOLVED: 0}
    frontier = [SOLVED]
    moves = cube_moves(metric)
    for level in range(1, depth + 1):
        following = []
        for stickers in frontier:
            for turned in moves(stickers):
                if turned not in distance:
                    distance[turned] = level
                    following.append(turned)
        frontier = following
    return distance


def dotted(stickers: str) -> str:
    return ".".join(stickers[i:i + 4] for i in range(0, 24, 4))


@pytest.fixture(scope="module")
def tables(data_for):
    from query.walk import Tables

    return Tables(data_for(CUBE))


@pytest.mark.parametrize("metric", ["half", "quarter"])
def test_the_published_figures(tables, metric):
    distance = tables.vector(("cube", metric), "distance").whole()
    assert len(distance) == PUBLISHED["positions_one_corner_fixed"]
    assert int(distance.max()) == PUBLISHED[f"most_{metric}_turns"]


@pytest.mark.parametrize("metric", ["half", "quarter"])
def test_the_first_levels_equal_a_search_on_stickers(tables, metric):
    from query.walk import distance_between

    depth = 4
    expected = sticker_levels(metric, depth)
    histogram = np.bincount(tables.vector(("cube", metric), "distance").whole())
    assert histogram[:depth + 1].tolist() == [
        count for _, count in sorted(Counter(expected.values()).items())]
    rng = np.random.default_rng(5)
    for stickers in rng.choice(sorted(expected), 40, replace=False):
        position = CUBE.parse(metric, dotted(stickers))
        assert distance_between(CUBE, tables, metric, position, Walking.of(CUBE).parse_target(metric, "solved")) == expected[stickers]


def inverse(position):
    places, twists = position
    inverse_places, inverse_twists = [0] * 8, [0] * 8
    for place, (corner, twist) in enumerate(zip(places, twists)):
        inverse_places[corner] = place
        inverse_twists[corner] = (3 - twist) % 3
    return tuple(inverse_places), tuple(inverse_twists)


@pytest.mark.parametrize("metric", ["half", "quarter"])
def test_a_position_and_its_inverse_are_as_far_from_solved(tables, metric):
    from query.walk import distance_between

    keys = tables.vector(("cube", metric), "keys").whole()
    for key in np.random.default_rng(9).choice(keys, 60, replace=False):
        position = CUBE.decode(metric, int(key))
        assert (distance_between(CUBE, tables, metric, position, Walking.of(CUBE).parse_target(metric, "solved"))
                == distance_between(CUBE, tables, metric, inverse(position), Walking.of(CUBE).parse_target(metric, "solved")))


@pytest.mark.parametrize("metric", ["half", "quarter"])
def test_the_kernel_makes_the_moves_of_the_rules(metric):
    from builder.sparse import successors_of

    search = CUBE.sparse_search(metric)
    rng = np.random.default_rng(3)
    position = CUBE.decode(metric, search.targets[0])
    for _ in range(30):
        moves = CUBE.moves(metric, position)
        expected = sorted({CUBE.encode(metric, m.state) for m in moves})
        found = successors_of(np.array([CUBE.encode(metric, position)]), search.successors,
                              search.most_moves, search.parameters)
        assert found.tolist() == expected
        position = moves[int(rng.integers(len(moves)))].state


@pytest.mark.parametrize("metric", ["half", "quarter"])
def test_a_path_replays_legally_and_has_the_tabled_length(data_for, tables, metric):
    from query.walk import distance_between

    start = Describing.of(CUBE).example[0]
    out = run_command("query", "path", start, "--metric", metric, "--json", "--data", str(data_for(CUBE)), check=True)
    found = json.loads(out.stdout)
    position = CUBE.parse(metric, start)
    assert found["length"] == distance_between(CUBE, tables, metric, position, Walking.of(CUBE).parse_target(metric, "solved"))
    for label in found["moves"]:
        position = next(m.state for m in CUBE.moves(metric, position) if m.label == label)
    assert CUBE.format(metric, position) == dotted(SOLVED)


@pytest.mark.parametrize(("text", "words"), [
    ("UUUU.RRRR.FFFF.DDDD.LLLL.BBBX", "six faces"),
    ("UUUU.RRRR.FFFF.DDDD.LLLL.BBLB", "no corner has"),
    ("RUUU.RRRR.FFFF.DDDD.LLLL.BBBB", "no corner has"),
    (dotted(cube_turn(cube_turn(SOLVED, "U"), "U")), None),
])
def test_bad_cubes_are_one_line(text, words):
    out = run_command("query", "path", f"cube:{text}")
    if words is None:  # a legal cube (U2): answered
        assert out.returncode == 0, out.stderr
        return
    assert out.returncode != 0 and words in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
