"""The one list of puzzles, each checked against the contract (``builder.contract.parts``) as it
is registered.  Adding a puzzle is one line here (and its plug-in module); everything that
works "for every puzzle" (`query path` dispatch, `query moves`, the listings) reads this
list and names no puzzle itself."""

from __future__ import annotations

from builder.contract.base import Puzzle, PuzzleOption
from builder.contract.errors import PuzzleInputError, shown
from builder.contract.hooks import check_hooks
from builder.contract.parts import Describing
from puzzles.balls import BallsPuzzle
from puzzles.cube import CubePuzzle
from puzzles.hanoi import HanoiPuzzle
from puzzles.klotski import KlotskiPuzzle
from puzzles.lightsout import LightsOutPuzzle
from puzzles.lucas import LucasPuzzle
from puzzles.pegs import PegsPuzzle
from puzzles.sliding import SlidingPuzzle
from puzzles.spots import SpotsPuzzle
from puzzles.tricolore import TricolorePuzzle


def registered(puzzles: tuple[Puzzle, ...]) -> tuple[Puzzle, ...]:
    """``puzzles`` once each is checked against the contract: every public member a hook
    (``builder.contract.hooks.check_hooks``: a misspelled one is a one-line error naming the
    nearest hook) and no two sharing a name."""
    names: set[str] = set()
    for puzzle in puzzles:
        check_hooks(type(puzzle))
        if puzzle.name in names:
            raise PuzzleInputError(f"two plug-ins are named {puzzle.name!r}: rename one")
        names.add(puzzle.name)
    return puzzles


PUZZLES: tuple[Puzzle, ...] = registered((
    TricolorePuzzle(),
    BallsPuzzle(),
    LucasPuzzle(),
    LightsOutPuzzle(),
    SpotsPuzzle(),
    HanoiPuzzle(),
    SlidingPuzzle(),
    KlotskiPuzzle(),
    CubePuzzle(),
    PegsPuzzle(),
))


def by_name(name: str) -> Puzzle:
    for puzzle in PUZZLES:
        if puzzle.name == name:
            return puzzle
    raise PuzzleInputError(f"no puzzle {shown(name)}: choose one of "
                           f"{', '.join(p.name for p in PUZZLES)}")


def recognising(text: str) -> list[Puzzle]:
    return [puzzle for puzzle in PUZZLES if puzzle.recognises(text)]


def named_prefix(text: str) -> tuple[Puzzle | None, str]:
    """``NAME:STATE`` split into the puzzle named and the state's own notation (the form
    that cannot clash); (None, text) for a text without a registered name before a
    colon."""
    name, colon, rest = text.partition(":")
    if colon:
        for puzzle in PUZZLES:
            if puzzle.name == name.strip().lower():
                return puzzle, rest
    return None, text


def resolve(text: str, forced: str | None = None) -> tuple[Puzzle, str]:
    """The plug-in whose notation ``text`` is, and the text in that notation: named by a
    ``NAME:`` prefix, by ``forced`` (`--puzzle`), else the one puzzle that recognises it;
    a one-line error when none or several do, or when the prefix and ``forced``
    disagree."""
    named, rest = named_prefix(text)
    if named is not None:
        if forced is not None and by_name(forced) is not named:
            raise PuzzleInputError(f"{shown(text)} is written as {named.name} notation, but "
                                   f"--puzzle says {forced}: give one of them")
        return named, rest
    if forced is not None:
        return by_name(forced), text
    found = recognising(text)
    if len(found) == 1:
        return found[0], text
    if not found:
        examples = "; ".join(f"{p.name}: {Describing.of(p).example[0]}" for p in PUZZLES
                             if Describing.of(p).example[1])
        raise PuzzleInputError(f"{shown(text)} is no puzzle's notation ({examples})")
    names = [p.name for p in found]
    raise PuzzleInputError(f"{shown(text)} is the notation of {' and '.join(names)}"
                           f": choose one with --puzzle, or write {names[0]}:STATE")


def choose(text: str, forced: str | None = None) -> Puzzle:
    """The plug-in whose notation ``text`` is (``resolve`` without the text)."""
    return resolve(text, forced)[0]


def in_notation(puzzle: Puzzle, text: str) -> str:
    """``text`` in ``puzzle``'s own notation: a ``NAME:`` prefix naming it is dropped, one
    naming another puzzle is an error."""
    named, rest = named_prefix(text)
    if named is None:
        return text
    if named is not puzzle:
        raise PuzzleInputError(f"{shown(text)} is {named.name} notation, not {puzzle.name}")
    return rest


def check_options(puzzle: Puzzle, options: dict) -> dict:
    """``options`` if the puzzle takes every one that was given; a one-line error naming
    the puzzles that do take it otherwise."""
    for option, value in options.items():
        if value is not None and option not in option_names(puzzle):
            takers = [p.name for p in PUZZLES if option in option_names(p)]
            raise PuzzleInputError(f"--{option} does not apply to {puzzle.name} positions "
                                   f"(it is for {', '.join(takers) or 'no puzzle'}): leave "
                                   "it out")
    return options


def option_names(puzzle: Puzzle) -> tuple[str, ...]:
    return tuple(option.name for option in Describing.of(puzzle).options)


def all_options() -> dict[str, list[tuple[Puzzle, PuzzleOption]]]:
    """Every option any registered puzzle declares, by name, with the puzzles that take
    it (two puzzles may share a name: Lucas and Hanoi both take ``variant``)."""
    found: dict[str, list[tuple[Puzzle, PuzzleOption]]] = {}
    for puzzle in PUZZLES:
        for option in Describing.of(puzzle).options:
            found.setdefault(option.name, []).append((puzzle, option))
    return found
