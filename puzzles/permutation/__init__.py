"""Permutation puzzles declared by a TOML file, no code: the adapter the engine calls for
each file (``from_file``, found through the entry point group
``puzzle_tablebase.puzzle_files``).  What a file says and how positions are written is
``rules.py``; the moves on keys, one kernel for every file, ``search.py``.

Table (``NAME/solved``): sparse, every position the moves reach from ``solved`` with its
fewest moves back to it, built by the compiled kernel.  The moves are permutations, so
a position can reach ``solved`` exactly when ``solved`` reaches it: one the table lacks
can never be solved.
"""

from __future__ import annotations

from builder.contract.base import Move, TableLookup
from builder.contract.errors import MissingTableError
from builder.contract.puzzle import KeyKernel, KeyedPuzzle, KeyedSearch
from puzzles.permutation import rules
from puzzles.permutation.rules import Definition

TABLE = KeyedSearch.goal_word
"""The one variant and its table's name: a puzzle file has no options."""


class PermutationSearch(KeyedSearch):
    """The engine's keyed tables, with keys as wide as the file's stickers need, and
    "never" for a position outside the orbit of solved."""

    @property
    def key_words(self) -> int:
        return self.puzzle._definition.key_words

    def distance(self, tables: TableLookup, table: str, node: str, target) -> int | None:
        try:
            return super().distance(tables, table, node, target)
        except MissingTableError:
            if TABLE not in tables.stored((self.name,)):
                raise
            return None  # not in the orbit of solved: never solved (see the docstring)


class PermutationPuzzle(KeyedPuzzle):
    """One puzzle file (the variant is the one table, ``TABLE``)."""

    own_search = PermutationSearch

    def __init__(self, definition: Definition, origin: str = ""):
        self._definition = definition
        self._moves = definition.moves
        self.name = definition.name
        self.summary = definition.summary
        self.unit = definition.unit
        self.example = (self._scrambled(), "solved")
        self._origin = origin

    def _scrambled(self) -> str:
        """A position a few moves from solved, for help texts: each move once, in order."""
        stickers = self._definition.stickers(self._definition.solved)
        for _, permutation in self._moves[:3]:
            stickers = rules.moved(stickers, permutation)
        return rules.format_position(self._definition, stickers)

    def recognises(self, text: str) -> bool:
        try:
            rules.parse_position(self._definition, text.strip())
        except rules.PuzzleInputError:
            return False
        return True

    def parse(self, table: str, text: str) -> str:
        return rules.parse_position(self._definition, text.strip())

    def format_position(self, table: str, stickers: str) -> str:
        return rules.format_position(self._definition, stickers)

    def moves(self, table: str, node: str) -> list[Move]:
        return [Move(label, rules.moved(node, permutation))
                for label, permutation in self._moves]

    def unmoves(self, table: str, position: str) -> list[str]:
        return [rules.moved(position, rules.inverse(permutation))
                for _, permutation in self._moves]

    def encode(self, table: str, position: str) -> int:
        return rules.encode(self._definition, position)

    def decode(self, table: str, key: int) -> str:
        return rules.decode(self._definition, key)

    def starts(self, table: str) -> list[str]:
        return [self._definition.stickers(self._definition.solved)]

    def targets(self, table: str) -> list[str]:
        return self.starts(table)

    def kernel(self, table: str) -> KeyKernel:
        if self.key_words == 2:
            from puzzles.permutation.search_wide import backward_wide as backward
            from puzzles.permutation.search_wide import forward_wide as forward
        else:
            from puzzles.permutation.search import backward, forward
        return KeyKernel(forward, len(self._moves), rules.kernel_parameters(self._definition),
                         predecessors=backward)


def from_file(text: str, where: str) -> PermutationPuzzle:
    """The puzzle a TOML file's text defines; a DefinitionError (one line) otherwise."""
    return PermutationPuzzle(rules.read_definition(text, where), where)
