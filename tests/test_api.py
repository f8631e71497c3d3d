"""The Python API (``query.api``): the examples of docs/python.md run, and it answers as
the command line does (same distances, the same path, the same moves), for every walkable puzzle's example;
a missing table is a ``KeyError``, its ``get_`` form None."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from builder import registry
from builder.contract.puzzle import Describing, Printing, walkable
from query import api
from tests.commands import run_command

ROOT = Path(__file__).resolve().parent.parent
WALKABLE = [puzzle for puzzle in registry.PUZZLES if walkable(puzzle)]


def test_the_python_pages_examples_run(data_dir, monkeypatch):
    monkeypatch.setenv("TABLEBASE_DATA", str(data_dir))
    failed, attempted = doctest.testfile(str(ROOT / "docs" / "python.md"),
                                         module_relative=False)
    assert attempted >= 8 and failed == 0


@pytest.mark.parametrize("puzzle", WALKABLE, ids=lambda p: p.name)
def test_the_api_answers_as_the_command_line(puzzle, data_dir):
    start, target = Describing.of(puzzle).example
    target = target or None
    tablebase = api.open_tablebase(data_dir).puzzle(puzzle.name)
    command = [start, *([target] if target else []), "--puzzle", puzzle.name,
               "--data", str(data_dir), "--json"]
    shown = json.loads(run_command("query", "path", *command, check=True).stdout)
    found = tablebase.path(start, target)
    positions_key = Printing.of(puzzle).path_words[2]
    assert [found.start, *(step.position for step in found.steps)] == shown[positions_key]
    assert found.length == shown["length"] and found.optimal == shown["optimal"]
    if target:
        distance = run_command("query", "distance", *command[:-1], check=True)
        assert tablebase.distance(start, target) == int(distance.stdout)
    moves = json.loads(run_command("query", "moves", *command, check=True).stdout)
    assert [(step.move, step.distance) for step in tablebase.moves(start, target)] == [
        (move["move"], move["distance"]) for move in moves["moves"]]


def test_a_missing_table_is_a_key_error_and_none_for_get(tmp_path):
    with api.open_tablebase(tmp_path) as tablebase:
        hanoi = tablebase.puzzle("hanoi")
        with pytest.raises(KeyError):
            hanoi.distance("AAAA")
        assert hanoi.get_distance("AAAA") is None
        with pytest.raises(api.MissingTableError):
            hanoi.path("AAAA")
