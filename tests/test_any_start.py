"""A sparse puzzle's tables from any start (`builder build klotski [METRIC:][LABEL=]START`)
and paths between any two positions (a search from both ends, within a budget), checked
against breadth-first searches written in the test over block shapes
(tests/test_klotski.py's, independent of the plug-in's rules and keys)."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from builder import pair_search, registry
from query.api import open_tablebase
from query.walk import Tables
from tests import reference
from tests.commands import run_command
from tests.test_klotski import CLASSIC, next_positions, shapes_of

KLOTSKI = registry.by_name("klotski")
LONELY = "IDEG.-DEB.-FFB.AAJC.AAHC"
"""A start outside the classic start's component, whose own never reaches the goal."""
ELSEWHERE = "HGC-.E-CJ.EDFF.BDAA.BIAA"
"""A start outside the classic start's component, whose own reaches the goal."""


def goal_distance_from(start: str) -> int:
    """Fewest block moves from ``start`` to the goal, by a plain forward search."""
    seen, frontier, depth = {shapes_of(start)}, [shapes_of(start)], 0
    while frontier:
        if any(shapes[13:15] == shapes[17:19] == "SS" for shapes in frontier):
            return depth
        following = []
        for here in frontier:
            for there in next_positions(here, True):
                if there not in seen:
                    seen.add(there)
                    following.append(there)
        frontier, depth = following, depth + 1
    raise AssertionError("the goal is never reached")


def fewest_between(start: str, target: str) -> int:
    """Fewest block moves between two positions, by a plain forward search."""
    seen, frontier, depth = {shapes_of(start)}, [shapes_of(start)], 0
    while shapes_of(target) not in frontier:
        following = []
        for here in frontier:
            following += [there for there in next_positions(here, True) if there not in seen]
            seen.update(following)
        frontier, depth = following, depth + 1
    return depth


@pytest.fixture(scope="module")
def levels(tmp_path_factory):
    data = tmp_path_factory.mktemp("levels")
    for choice in (f"block:lonely={LONELY}", ELSEWHERE):
        built = run_command("builder", "build", "klotski", choice, "--data", str(data))
        assert built.returncode == 0, built.stderr
    return data


def test_a_table_from_a_start_holds_its_component_and_answers_its_path(levels):
    stored = Tables(levels).stored(("klotski", "levels"))
    assert stored[0] == "block-lonely" and stored[1].startswith("block-start-")
    keys = Tables(levels).vector(("klotski", "levels", "block-lonely"), "keys").whole()
    held = {shapes_of(KLOTSKI.format_position("block", KLOTSKI.decode("block", int(key))))
            for key in keys}
    assert held == set(reference.plain_distances(shapes_of(LONELY),
                                                 lambda here: next_positions(here, True)))
    never = run_command("query", "solvable", LONELY, "--data", str(levels))
    assert never.returncode == 1 and "can never be solved" in never.stdout
    path = run_command("query", "path", ELSEWHERE, "--json", "--data", str(levels))
    assert path.returncode == 0, path.stderr
    answer = json.loads(path.stdout)
    assert answer["length"] == goal_distance_from(ELSEWHERE)
    shapes = [shapes_of(node) for node in answer["states"]]  # the start first
    assert shapes[0] == shapes_of(ELSEWHERE) and len(shapes) == answer["length"] + 1
    assert all(b in next_positions(a, True) for a, b in pairwise(shapes))


def test_a_level_table_is_in_the_listings_and_the_hardest_lie_at_its_farthest(levels):
    with open_tablebase(levels) as tablebase:
        klotski = tablebase.puzzle("klotski")
        names = klotski.tables()
        assert "block from lonely, to solved" in names and len(names) == 2
        assert klotski.hardest(3, table="block from lonely") == []  # nothing reaches it
        other = next(name for name in names if "lonely" not in name)
        farthest = klotski.hardest(1, table=other)[0]
        assert farthest.distance == goal_distance_from(farthest.position)


def test_a_path_between_two_positions_is_as_short_as_a_plain_search(data_for):
    data = data_for(KLOTSKI)
    walked = json.loads(run_command("query", "path", CLASSIC, "--json", "--data",
                                    str(data)).stdout)
    middle = walked["states"][12]
    done = run_command("query", "path", "--json", "--data", str(data), "--", CLASSIC, middle)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["length"] == fewest_between(CLASSIC, middle) <= 12
    assert "both ends" in answer["how"]


def test_a_pair_search_past_its_budget_is_one_line(data_for, monkeypatch):
    from builder.contract.errors import MissingTableError

    monkeypatch.setattr(pair_search, "MOST_POSITIONS", 50)
    with open_tablebase(data_for(KLOTSKI)) as tablebase, pytest.raises(
            MissingTableError, match="no path found within 50 positions searched"):
        tablebase.puzzle("klotski").path(CLASSIC, "-AAB.CAAB.DEEF.DG-F.HGIJ")


def test_a_start_that_is_no_position_names_both_readings(tmp_path):
    done = run_command("builder", "build", "klotski", "block:x=AAAA", "--data", str(tmp_path))
    assert done.returncode == 2 and "neither a klotski table" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
