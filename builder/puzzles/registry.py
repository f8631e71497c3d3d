"""The one list of puzzles.  Adding a puzzle is one line here (and its plug-in module);
everything that works "for every puzzle" (`query path` dispatch, `query moves`, the
listings) reads this list and names no puzzle itself."""

from __future__ import annotations

from builder.puzzles import PuzzleInputError, shown
from builder.puzzles.balls import BallsPuzzle
from builder.puzzles.base import Puzzle
from builder.puzzles.hanoi import HanoiPuzzle
from builder.puzzles.lightsout import LightsOutPuzzle
from builder.puzzles.lucas import LucasPuzzle
from builder.puzzles.sliding import SlidingPuzzle
from builder.puzzles.spots import SpotsPuzzle
from builder.puzzles.tricolore import TricolorePuzzle

PUZZLES: tuple[Puzzle, ...] = (
    TricolorePuzzle(),
    BallsPuzzle(),
    LucasPuzzle(),
    LightsOutPuzzle(),
    SpotsPuzzle(),
    HanoiPuzzle(),
    SlidingPuzzle(),
)


def by_name(name: str) -> Puzzle:
    for puzzle in PUZZLES:
        if puzzle.name == name:
            return puzzle
    raise PuzzleInputError(f"no puzzle {shown(name)}: choose one of "
                           f"{', '.join(p.name for p in PUZZLES)}")


def recognising(text: str) -> list[Puzzle]:
    return [puzzle for puzzle in PUZZLES if puzzle.recognises(text)]


def choose(text: str, forced: str | None = None) -> Puzzle:
    """The plug-in whose notation ``text`` is (``forced``: the one named); a one-line
    error when none or several recognise it."""
    if forced is not None:
        return by_name(forced)
    found = recognising(text)
    if len(found) == 1:
        return found[0]
    if not found:
        examples = "; ".join(f"{p.name}: {p.example[0]}" for p in PUZZLES if p.example[1])
        raise PuzzleInputError(f"{shown(text)} is no puzzle's notation ({examples})")
    raise PuzzleInputError(f"{shown(text)} is the notation of {' and '.join(p.name for p in found)}"
                           ": choose one with --puzzle")


def check_options(puzzle: Puzzle, options: dict) -> dict:
    """``options`` if the puzzle takes every one that was given; a one-line error naming
    the puzzles that do take it otherwise."""
    for option, value in options.items():
        if value is not None and option not in puzzle.options:
            takers = [p.name for p in PUZZLES if option in p.options]
            raise PuzzleInputError(f"--{option} does not apply to {puzzle.name} positions "
                                   f"(it is for {', '.join(takers) or 'no puzzle'}): leave "
                                   "it out")
    return options
