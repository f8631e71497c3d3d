"""One contract: a core of eight members and optional parts; one walk, one printer: every
walkable puzzle's `query path`, Tricolore's and the ball tubes' included, is answered by
the engine's ``walk_node`` and printed by the engine's one printer (a plug-in names its
path's parts and may format a step, nothing more)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from builder import registry
from builder.contract.puzzle import (
    SEARCH_MEMBERS,
    Building,
    Cataloguing,
    Charting,
    Dealing,
    Describing,
    Playing,
    Printing,
    Puzzle,
    Verifying,
    Walking,
    search_of,
    walkable,
)
from query import walk as engine_walk

WALKABLE = [puzzle for puzzle in registry.PUZZLES if walkable(puzzle)]


def test_no_plug_in_prints_its_own_path():
    """The interface has no hook for a path layout of one's own any more."""
    assert not hasattr(Puzzle, "print_path")
    for puzzle in registry.PUZZLES:
        assert not hasattr(puzzle, "print_path"), puzzle.name


@pytest.mark.parametrize("puzzle", WALKABLE, ids=[p.name for p in WALKABLE])
def test_query_path_goes_through_the_one_walk(data_for, monkeypatch, puzzle):
    from query.cli import app

    walked = []
    original = engine_walk.walk_node

    def recording(which, *args, **kwargs):
        found = original(which, *args, **kwargs)
        walked.append((which.name, found))
        return found

    monkeypatch.setattr(engine_walk, "walk_node", recording)
    start, target = Describing.of(puzzle).example
    result = CliRunner().invoke(app, ["path", f"{puzzle.name}:{start}", target, "--json",
                                      "--data", str(data_for(puzzle))])
    assert result.exit_code == 0, result.output
    assert [name for name, _ in walked] == [puzzle.name]
    answer = json.loads(result.output)
    found = walked[0][1]
    states_key, moves_key = Printing.of(puzzle).path_words[2], Printing.of(puzzle).path_words[3]
    assert answer["puzzle"] == puzzle.name and answer["length"] == found.length
    assert answer[moves_key] == [Printing.of(puzzle).step_value(puzzle.variant(start, target, {}), label)
                                 for label in found.labels]
    assert len(answer[states_key]) == found.length + 1


PARTS = [Describing, Walking, Building, Cataloguing, Dealing, Verifying, Printing, Charting,
         Playing]


def test_the_core_is_eight_members_and_the_parts_are_disjoint():
    """The notation, the moves and the one hook of an own search (``distance`` is the
    search's: a declared puzzle's is the engine's)."""
    from builder.contract.puzzle import WalkablePuzzle

    core = {name for klass in (Puzzle, WalkablePuzzle) for name in vars(klass)
            if not name.startswith("_")} | set(Puzzle.__annotations__)
    assert core == {"name", "recognises", "variant", "parse", "format", "default_target",
                    "own_search", "moves"}
    seen: set[str] = set(core)
    for part in PARTS:
        assert part.members and not part.members & seen, part.__name__
        seen |= part.members


@pytest.mark.parametrize("puzzle", registry.PUZZLES, ids=[p.name for p in registry.PUZZLES])
def test_what_a_plug_in_defines_under_a_parts_name_takes_the_parts_parameters(puzzle):
    import inspect

    for part in PARTS:
        for name in part.members:
            default = part.__dict__[name]
            owner = type(search_of(puzzle)) if name in SEARCH_MEMBERS else type(puzzle)
            if not callable(default) or not hasattr(owner, name):
                continue
            given = list(inspect.signature(getattr(owner, name)).parameters)
            expected = list(inspect.signature(default).parameters)
            assert len(given) == len(expected), f"{puzzle.name}.{name}{given} vs {expected}"
