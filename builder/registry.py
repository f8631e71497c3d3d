"""The one list of puzzles: every plug-in that an installed package registers in the entry
point group ``puzzle_tablebase.puzzles`` (``NAME = "module:Class"``, the built-in ones in
this project's pyproject.toml like any other package's), each checked against the contract
(``builder.contract``) as it is loaded.  Everything that works "for every puzzle"
(`query path` dispatch, `query moves`, the listings, `make tables`) reads this list and
names no puzzle itself."""

from __future__ import annotations

import sys

from builder.contract.base import Puzzle, PuzzleOption
from builder.contract.errors import OneLineError, PuzzleInputError, shown
from builder.contract.hooks import check_hooks
from builder.contract.parts import Describing

ENTRY_POINT_GROUP = "puzzle_tablebase.puzzles"


class PluginError(OneLineError):
    """An installed plug-in that cannot be loaded: its module fails to import, its value is
    no puzzle class, or its name is not the puzzle's."""


def _plugin(entry) -> Puzzle:
    """The puzzle an entry point names, made and checked against the contract; a
    PluginError (one line, naming the entry point and its package) otherwise."""
    where = f"plug-in {entry.name} ({entry.value}" + (
        f", package {entry.dist.name})" if getattr(entry, "dist", None) else ")")
    try:
        plugin = entry.load()
    except Exception as error:  # noqa: BLE001 (any failure of a third party's import is one line)
        raise PluginError(f"{where} cannot be loaded: {type(error).__name__}: "
                          f"{str(error)[:200]}") from None
    if not (isinstance(plugin, type) and issubclass(plugin, Puzzle)):
        raise PluginError(f"{where} is not a puzzle class (a subclass of "
                          "builder.contract.base.Puzzle)")
    try:
        puzzle = plugin()
    except TypeError as error:  # a core hook left abstract, say
        raise PluginError(f"{where} cannot be made: {str(error)[:200]}") from None
    if puzzle.name != entry.name:
        raise PluginError(f"{where} names its puzzle {puzzle.name!r}: the entry point's "
                          "name must be the puzzle's")
    try:
        registered((puzzle,))
    except OneLineError as error:
        raise PluginError(f"{where}: {error}") from None
    return puzzle


def load_plugins(warn=None) -> tuple[Puzzle, ...]:
    """One instance of every plug-in class registered in ``ENTRY_POINT_GROUP``, by name.
    One that cannot be loaded, breaks the contract or takes a name already taken is left
    out with a one-line warning (``warn``, default: on stderr): every other puzzle works."""
    from importlib.metadata import entry_points

    if warn is None:
        def warn(message: str) -> None:
            print(f"warning: {message}", file=sys.stderr, flush=True)
    found: dict[str, Puzzle] = {}
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            puzzle = _plugin(entry)
        except PluginError as error:
            warn(f"{error}; it is left out")
            continue
        if puzzle.name in found:
            warn(f"plug-in {entry.name} ({entry.value}) takes the name of "
                 f"{type(found[puzzle.name]).__module__}: it is left out; rename one")
            continue
        found[puzzle.name] = puzzle
    return tuple(found.values())


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


PUZZLES: tuple[Puzzle, ...] = load_plugins()
"""Every installed plug-in that loads, by name."""


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
    it (two puzzles may share a name: two may both take ``variant``)."""
    found: dict[str, list[tuple[Puzzle, PuzzleOption]]] = {}
    for puzzle in PUZZLES:
        for option in Describing.of(puzzle).options:
            found.setdefault(option.name, []).append((puzzle, option))
    return found
