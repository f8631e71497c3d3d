"""A permutation puzzle declared by a file: what the file says, checked, and its positions.

A definition names its goal (``solved``: letters are stickers, any other character is
layout) and its moves, each a permutation of the places (the letters of ``solved``,
counted from 0): after a move, place ``i`` holds what place ``moves[name][i]`` held.  A
position is a sticker string in the layout of ``solved``; positions with the same
letters in the same places are the same position.  Its key is the letters read as one
number, a digit per place in base "letters the puzzle uses" (the first places in the low
word, the rest in the high word where one word is too few).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cached_property

from builder.contract.errors import PuzzleInputError, shown

NAME_PATTERN = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""A puzzle file's name: lower-case letters, digits and '-', a letter first."""

KEYS = {"name", "summary", "unit", "solved", "moves"}
MOST_MOVES = 64
"""The most moves a file may declare (a move kernel's buffer holds one key per move)."""
WORD = 1 << 63
"""Keys of one word stay below this (``int64``)."""


class DefinitionError(PuzzleInputError):
    """A puzzle file that cannot define a puzzle: one line naming what is wrong."""


@dataclass(frozen=True)
class Definition:
    """A checked puzzle file."""

    name: str
    summary: str
    unit: str
    solved: str
    """The goal in the file's notation, layout included."""
    moves: tuple[tuple[str, tuple[int, ...]], ...]
    """Each move's name and its permutation of the places."""

    @cached_property
    def places(self) -> tuple[int, ...]:
        """Where each place's letter stands in the notation."""
        return tuple(at for at, character in enumerate(self.solved) if is_sticker(character))

    @cached_property
    def letters(self) -> str:
        """The letters the puzzle uses, sorted: a place's digit is its letter's index."""
        return "".join(sorted(set(self.stickers(self.solved))))

    def stickers(self, notation: str) -> str:
        """The letters of a position written in the layout of ``solved``, place by place."""
        return "".join(notation[at] for at in self.places)

    @cached_property
    def low_places(self) -> int:
        """How many places the key's low word holds (all of them in a one-word key)."""
        base, count, value = max(len(self.letters), 2), 0, 1
        while count < len(self.places) and value * base < WORD:
            value *= base
            count += 1
        return count

    @cached_property
    def digits(self) -> dict[int, str]:
        """Each letter's digit as ``int`` reads it (``str.translate``'s table), where the
        puzzle uses at most 36 letters; empty otherwise."""
        if len(self.letters) > 36:
            return {}
        return {ord(letter): "0123456789abcdefghijklmnopqrstuvwxyz"[digit]
                for digit, letter in enumerate(self.letters)}

    @cached_property
    def key_words(self) -> int:
        return 1 if self.low_places >= len(self.places) else 2


def is_sticker(character: str) -> bool:
    return character.isascii() and character.isalpha()


def read_definition(text: str, where: str) -> Definition:
    """The definition a TOML file's text gives; a DefinitionError (one line, prefixed by
    ``where``) naming its first problem."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DefinitionError(f"{where}: not TOML ({error})") from None
    try:
        return _checked(document)
    except DefinitionError as error:
        raise DefinitionError(f"{where}: {error}") from None


def _checked(document: dict) -> Definition:
    unknown = sorted(set(document) - KEYS)
    if unknown:
        raise DefinitionError(f"unknown key {unknown[0]!r}: a puzzle file has "
                              f"{', '.join(sorted(KEYS))}")
    for key in ("name", "solved", "moves"):
        if key not in document:
            raise DefinitionError(f"no {key!r}: a puzzle file has name, solved and [moves]")
    name = _text(document, "name")
    if not NAME_PATTERN.fullmatch(name):
        raise DefinitionError(f"name {shown(name)}: lower-case letters, digits and '-', "
                              "a letter first, at most 40 characters")
    summary = _text(document, "summary", f"{name}, a permutation puzzle defined by a file")
    unit = _text(document, "unit", "moves")
    if not re.fullmatch(r"[a-z][a-z -]{0,19}", unit):
        raise DefinitionError(f"unit {shown(unit)}: a plural noun in lower-case letters "
                              "such as 'turns'")
    solved = _text(document, "solved")
    if "\n" in solved or ":" in solved or solved != solved.strip():
        raise DefinitionError(f"solved {shown(solved)}: one line, no ':' and no spaces "
                              "around it")
    places = sum(map(is_sticker, solved))
    if places < 2:
        raise DefinitionError(f"solved {shown(solved)}: at least two letters (stickers)")
    moves = document["moves"]
    if not isinstance(moves, dict) or not moves:
        raise DefinitionError("[moves]: at least one move, NAME = [a permutation of the "
                              f"places 0..{places - 1}]")
    if len(moves) > MOST_MOVES:
        raise DefinitionError(f"[moves]: {len(moves)} moves, at most {MOST_MOVES}")
    checked = tuple((label, _permutation(label, permutation, places))
                    for label, permutation in moves.items())
    definition = Definition(name, summary, unit, solved, checked)
    if len(definition.places) > 2 * definition.low_places:
        raise DefinitionError(f"solved {shown(solved)}: {places} places of "
                              f"{len(definition.letters)} letters do not fit a 128-bit key")
    return definition


def _text(document: dict, key: str, default: str | None = None) -> str:
    value = document.get(key, default)
    if not isinstance(value, str) or not value:
        raise DefinitionError(f"{key} must be a non-empty string")
    if len(value) > 1000:
        raise DefinitionError(f"{key} is too long: at most 1,000 characters")
    return value


def _permutation(label: str, permutation, places: int) -> tuple[int, ...]:
    if not re.fullmatch(r"[A-Za-z0-9'+\-_]{1,12}", label):
        raise DefinitionError(f"move {shown(label)}: letters, digits and ' + - _, at most "
                              "12 characters")
    if not (isinstance(permutation, list)
            and all(type(place) is int for place in permutation)):
        raise DefinitionError(f"move {label}: a list of place numbers")
    if sorted(permutation) != list(range(places)):
        raise DefinitionError(f"move {label}: not a permutation of the places 0..{places - 1} "
                              f"(it has {len(permutation)} entries"
                              + (", some repeated or out of range)"
                                 if len(permutation) == places else ")"))
    return tuple(permutation)


def parse_position(definition: Definition, text: str) -> str:
    """A position's letters, place by place, from its notation; a PuzzleInputError naming
    what is wrong."""
    solved = definition.solved
    if len(text) != len(solved):
        raise PuzzleInputError(f"{shown(text)}: a {definition.name} position has "
                               f"{len(solved)} characters, as {solved}")
    for at, (given, layout) in enumerate(zip(text, solved, strict=True)):
        if is_sticker(layout) != is_sticker(given) or (not is_sticker(layout)
                                                       and given != layout):
            raise PuzzleInputError(f"{shown(text)}: character {at + 1} is {given!r} where "
                                   f"{solved} has {layout!r}")
    stickers = definition.stickers(text)
    if sorted(stickers) != sorted(definition.stickers(solved)):
        raise PuzzleInputError(f"{shown(text)}: the stickers of {definition.name} are those "
                               f"of {solved}, in another order")
    return stickers


def format_position(definition: Definition, stickers: str) -> str:
    """A position's notation: its letters in the layout of ``solved``."""
    written = list(definition.solved)
    for at, letter in zip(definition.places, stickers, strict=True):
        written[at] = letter
    return "".join(written)


def moved(stickers: str, permutation: tuple[int, ...]) -> str:
    """The position after a move: place ``i`` takes what place ``permutation[i]`` held."""
    return "".join(map(stickers.__getitem__, permutation))


def encode(definition: Definition, stickers: str) -> int:
    """A position's key (see the module docstring)."""
    letters, low = definition.letters, definition.low_places
    base = len(letters)
    if base == 1:
        return 0
    if definition.digits:  # int() reads the digits, most significant first
        written = stickers.translate(definition.digits)[::-1]
        high_places = len(written) - low
        return ((int(written[:high_places], base) if high_places else 0) << 64) | int(
            written[high_places:], base)
    digits = [letters.index(letter) for letter in stickers]
    low_word = sum(digit * base**place for place, digit in enumerate(digits[:low]))
    high_word = sum(digit * base**place for place, digit in enumerate(digits[low:]))
    return (high_word << 64) | low_word


def decode(definition: Definition, key: int) -> str:
    """The position of a key."""
    letters, low, count = definition.letters, definition.low_places, len(definition.places)
    base = len(letters)
    found = []
    for word, places in ((key & ((1 << 64) - 1), low), (key >> 64, count - low)):
        for _ in range(places):
            word, digit = divmod(word, base)
            found.append(letters[digit])
    return "".join(found)


def inverse(permutation: tuple[int, ...]) -> tuple[int, ...]:
    undone = [0] * len(permutation)
    for place, source in enumerate(permutation):
        undone[source] = place
    return tuple(undone)


def kernel_parameters(definition: Definition) -> tuple[int, ...]:
    """What the move kernels (``search.py``) read: places, base, places in the low word,
    moves, then every move's permutation and then every inverse, place by place."""
    permutations = [permutation for _, permutation in definition.moves]
    return (len(definition.places), len(definition.letters), definition.low_places,
            len(permutations), *(place for p in permutations for place in p),
            *(place for p in permutations for place in inverse(p)))
