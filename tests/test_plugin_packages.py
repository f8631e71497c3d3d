"""A plug-in from any installed package: registered through the entry point group
``puzzle_tablebase.puzzles``, as the built-in ones are, it appears in every listing and
command with no change to this repository; a broken one is one line, not a traceback.
The packages are written in the test (a module and its ``.dist-info``) and put on the
path of a Python that runs `query` and `builder` commands as their console scripts do."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from tests.commands import CommandProcess

BIN = Path(sys.executable).parent

LAMPS = '''
from builder.contract.base import Move
from builder.contract.puzzle import OwnSearch, WalkablePuzzle


class LampsSearch(OwnSearch):
    def distance(self, tables, lamps, state, target):
        return (state ^ target).bit_count()


class Lamps(WalkablePuzzle):
    """A row of lamps; a move toggles one lamp (no table: the distance is counted)."""

    name = "lamps"
    summary = "a row of lamps; a move toggles one lamp"
    example = ("1100", "0000")
    unit = "toggles"
    own_search = LampsSearch

    def recognises(self, text):
        return bool(text) and set(text) <= {"0", "1"} and len(text) == 7

    def variant(self, start, target, options):
        return len(start)

    def parse(self, lamps, text):
        return int(text, 2)

    def format(self, lamps, state):
        return format(state, f"0{lamps}b")

    def moves(self, lamps, state):
        return [Move(f"toggle {lamp}", state ^ (1 << (lamps - 1 - lamp)))
                for lamp in range(lamps)]
'''


def _package(folder: Path, module: str, source: str, entry: str) -> Path:
    """An installed package as Python finds one on its path: a module and its metadata."""
    (folder / f"{module}.py").write_text(textwrap.dedent(source))
    info = folder / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[puzzle_tablebase.puzzles]\n{entry}\n")
    return folder


def installed_at(path: Path) -> CommandProcess:
    """A Python whose packages include those at ``path``, to run commands in."""
    return CommandProcess({**os.environ, "PYTHONPATH": str(path)})


def test_an_installed_plug_in_is_in_every_listing_and_answers_by_the_engines_walk(tmp_path):
    path = _package(tmp_path, "lamps_plugin", LAMPS, "lamps = lamps_plugin:Lamps")
    with installed_at(path) as commands:
        listed = commands.run("builder", "build", "--list")
        walked = commands.run("query", "path", "lamps:1100100", "0000000", "--data",
                              str(tmp_path))
        helped = commands.run("query", "path", "--help")
    assert listed.returncode == 0 and "lamps" in listed.stdout, listed.stderr
    assert walked.returncode == 0, walked.stderr
    assert "1100100 -> 0000000: 3 toggles (shortest" in walked.stdout, walked.stdout
    assert "lamps" in helped.stdout


@pytest.mark.parametrize(("entry", "source", "words"), [
    ("lamps = lamps_missing:Lamps", LAMPS, "cannot be loaded: ModuleNotFoundError"),
    ("lamps = lamps_plugin:Move", LAMPS, "is not a puzzle class"),
    ("bulbs = lamps_plugin:Lamps", LAMPS, "the entry point's name must be the puzzle's"),
    ("lamps = lamps_plugin:Lamps", LAMPS.replace("def distance", "def distanse"),
     "did you mean distance?"),
    ("lamps = lamps_plugin:Lamps",
     LAMPS + "\n    def defualt_target(self, lamps):\n        return '0' * lamps\n",
     "did you mean default_target?"),
    ("hanoi = lamps_plugin:Lamps", LAMPS.replace('name = "lamps"', 'name = "hanoi"'),
     "takes the name of"),
    ("lamps = lamps_plugin:Lamps", LAMPS.replace(
        "from builder.contract.puzzle import OwnSearch, WalkablePuzzle",
        "from builder.contract.base import WalkablePuzzle\n"
        "from builder.contract.puzzle import OwnSearch"),
     "WalkablePuzzle is in builder.contract.puzzle"),
])
def test_a_broken_plug_in_is_one_warning_naming_it_and_every_other_puzzle_works(
        tmp_path, data_dir, entry, source, words):
    path = _package(tmp_path, "lamps_plugin", source, entry)
    with installed_at(path) as commands:
        listed = commands.run("builder", "build", "--list")
        walked = commands.run("query", "distance", "WBWW.WBRB", "RRRR.RRRR", "--data",
                              str(data_dir))
    lines = listed.stderr.strip().splitlines()
    assert listed.returncode == 0, listed.stderr
    assert len(lines) == 1 and lines[0].startswith("warning: plug-in ") and words in lines[0], lines
    assert "lamps_plugin" in lines[0] and "Traceback" not in listed.stderr
    assert listed.stdout.splitlines()[-1].startswith("tricolore  9 tables: 4x2/")
    assert "lamps" not in listed.stdout and "bulbs" not in listed.stdout
    assert sum(line.startswith("hanoi ") for line in listed.stdout.splitlines()) == 1
    assert walked.returncode == 0 and walked.stdout.strip() == "7", walked.stderr


def test_the_built_in_puzzles_are_registered_through_the_same_entry_points():
    """Every registered puzzle is an installed entry point's class; the built-in ones are
    this project's (its pyproject.toml), beside any other installed package's (the
    example that `make test` installs)."""
    import tomllib
    from importlib.metadata import distribution, entry_points

    from builder import registry

    declared = {entry.name: entry.value for entry in
                entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert {puzzle.name for puzzle in registry.INSTALLED} == set(declared)
    for puzzle in registry.INSTALLED:
        module, _, name = declared[puzzle.name].partition(":")
        assert (type(puzzle).__module__, type(puzzle).__name__) == (module, name)
    own = {entry.name: entry.value for entry in distribution("puzzle-tablebase").entry_points
           if entry.group == registry.ENTRY_POINT_GROUP}
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    assert own == project["project"]["entry-points"][registry.ENTRY_POINT_GROUP]
    packages = {folder.name for folder in (Path(__file__).parent.parent / "puzzles").iterdir()
                if (folder / "__init__.py").exists()}
    assert all(value.startswith("puzzles.") for value in own.values())
    makers = {entry.value for entry in distribution("puzzle-tablebase").entry_points
              if entry.group == registry.FILES_ENTRY_POINT_GROUP}
    assert {value.split(".")[1].split(":")[0] for value in {*own.values(), *makers}
            } == packages  # every package a puzzle, or the maker of puzzles from files
