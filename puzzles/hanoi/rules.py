"""The Tower of Hanoi's positions: pegs, ranking and relabelling.

The rules alone (peg letters, ranking, relabelling two pegs); ``tables.py`` declares the
tables, the adapter ``__init__.py`` the moves the engine walks.
"""

from __future__ import annotations

from builder.contract.errors import PuzzleInputError

PEG_LETTERS = "ABCD"
MAX_DISCS = 12
"""4**12 = 16,777,216 positions: the largest table `make tables` builds."""


class HanoiError(PuzzleInputError):
    """A malformed position or an impossible variant."""


def rank(pegs: int, letters: str) -> int:
    return sum(PEG_LETTERS.index(letter) * pegs**disc for disc, letter in enumerate(letters))


def unrank(pegs: int, discs: int, position: int) -> str:
    letters = []
    for _ in range(discs):
        position, peg = divmod(position, pegs)
        letters.append(PEG_LETTERS[peg])
    return "".join(letters)


def swap_pegs(letters: str, first: str, second: str) -> str:
    return letters.translate(str.maketrans(first + second, second + first))
