"""One walk, one printer: every walkable puzzle's `query path`, Tricolore's and the ball
tubes' included, is answered by the engine's ``walk_node`` and printed by the engine's
one printer (a plug-in names its path's parts and may format a step, nothing more)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from builder import walk as engine_walk
from builder.puzzles import registry
from builder.puzzles.base import Puzzle

WALKABLE = [puzzle for puzzle in registry.PUZZLES if puzzle.walkable]


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
    start, target = puzzle.example
    result = CliRunner().invoke(app, ["path", f"{puzzle.name}:{start}", target, "--json",
                                      "--data", str(data_for(puzzle))])
    assert result.exit_code == 0, result.output
    assert [name for name, _ in walked] == [puzzle.name]
    answer = json.loads(result.output)
    found = walked[0][1]
    states_key, moves_key = puzzle.path_words[2], puzzle.path_words[3]
    assert answer["puzzle"] == puzzle.name and answer["length"] == found.length
    assert answer[moves_key] == [puzzle.step_value(puzzle.variant(start, target, {}), label)
                                 for label in found.labels]
    assert len(answer[states_key]) == found.length + 1
