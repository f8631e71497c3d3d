"""A keyed puzzle's tables, derived by the engine from what the plug-in declares
(``builder.contract.puzzle.KeyedPuzzle``: its keys, moves, starts and goal): the sparse
table's spec and search (from the plug-in's compiled kernel, or from its plain-Python
moves: the *plain-Python start*), the look-up of a distance, the catalog's view of the
table, the positions behind its entries, and the tables from starts a user gives.

``KeyedSearch``'s defaults of these hooks hand the work to ``KeyedTables`` below, which
this module puts in place when it is imported (the registry imports it): the contract
declares them, the engine does them, and a plug-in may still write any of them itself
(calling ``super()`` for the engine's)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from itertools import repeat
from typing import Any

import numpy as np

from builder import piece_patterns
from builder.contract.base import DistanceArray, TableLookup
from builder.contract.errors import MissingTableError, PuzzleInputError, shown
from builder.contract.keys import ints_of, key_limit, keys_of, sortable
from builder.contract.puzzle import GOAL, KeyedPuzzle, KeyedSearch, declared_distances
from builder.contract.specs import Canonical, SparseSearch, TableSpec

LEVELS_FOLDER = "levels"
"""Where the tables from starts a user gives are stored: ``NAME/levels/VARIANT-LABEL``."""

KEYS_CHUNK = 1 << 16
"""Keys per chunk of a sparse table: a look-up reads one chunk (512 KiB) of keys."""

class KeyedTables:
    """What the engine makes of a keyed puzzle's hooks (see the module's docstring): each
    method is called with the puzzle as ``self``."""

    def table(self, identity: dict[str, Any]) -> TableSpec:
        variant = self.variant_named(str(identity.get("variant", "")))
        if "pieces" in identity:  # a pattern table of the pieces the puzzle declares
            found = identity["pieces"]
            if not (isinstance(found, list) and all(isinstance(n, str) for n in found)):
                raise PuzzleInputError("a pattern table names its pieces")
            return piece_patterns.pattern_table(self, variant, tuple(found)).spec()
        wide_keys = self.key_words == 2
        parts: tuple[str, ...] = (self.name, self.variant_name(variant))
        starts = None
        level: dict[str, str] = {}
        if identity.get("start") is not None:  # a table from a start given by the user
            start = self.parse(variant, str(identity["start"]))
            starts = [start]
            level = {"start": self.format_position(variant, start),
                     "label": _label(str(identity.get("label") or ""))
                     or _derived_label(self.format_position(variant, start))}
            parts = (self.name, LEVELS_FOLDER, f"{self.variant_name(variant)}-{level['label']}")
        return TableSpec(parts,
                         {"puzzle": self.name, "variant": self.variant_name(variant),
                          "layout": "sparse keys", **({"key_words": 2} if wide_keys else {}),
                          **level},
                         sparse=self.sparse_search(variant, starts=starts), chunk=KEYS_CHUNK,
                         # two-word keys are rows of two: chunked by rows all the same
                         chunks={"key_index": 1 << 30,
                                 **({"keys": KEYS_CHUNK} if wide_keys else {})},
                         encoding=f"keys: every position the search found, by the plug-in's "
                                  f"key{' (high word, low word)' if wide_keys else ''}, "
                                  f"ascending; distance: its fewest moves to "
                                  f"{self.goal_word} (the largest value of its type: never); "
                                  "key_index: the first key of every chunk of keys")

    def sparse_search(self, variant: Any, plain: bool = False,
                      starts: list[Hashable] | None = None) -> SparseSearch:
        """The search of a variant's table; ``plain``: from the plain-Python moves even
        where a kernel exists (the same table, slower); ``starts``: from these positions
        instead of the variant's own."""
        kernel = None if plain else self.kernel(variant)
        starts = tuple(checked_key(self, variant, p) for p in (
            self.starts(variant) if starts is None else starts))
        given = self.targets(variant)
        targets = tuple(checked_key(self, variant, p) for p in given) if given is not None else ()
        if kernel is not None:
            successors, predecessors = kernel.successors, kernel.predecessors
            if kernel.canonical is not None:  # moves on positions, then each one's key
                successors = Canonical(successors, kernel.canonical)
                predecessors = (None if predecessors is None
                                else Canonical(predecessors, kernel.canonical))
            return SparseSearch(starts, successors, kernel.most_moves, targets,
                                None if given is not None else kernel.goal,
                                predecessors, kernel.parameters, None,
                                self.shards, key_words=self.key_words)
        moves = _PlainMoves(self, variant, forward=True)
        return SparseSearch(starts, moves, 0, targets,
                            None if given is not None else _PlainGoal(self, variant, moves),
                            _PlainMoves(self, variant, forward=False), (), None,
                            self.shards, key_words=self.key_words)

    def default_tables(self) -> list[TableSpec]:
        return ([self.table({"variant": self.variant_name(v)}) for v in self.table_variants()]
                + [table.spec() for table in piece_patterns.default_tables(self)])

    def table_for(self, text: str) -> TableSpec:
        """A variant's name: its table; ``[VARIANT:][LABEL=]START``: a table of every
        position reachable from START (a level of one's own), stored under LABEL (default:
        one derived from the start) in the puzzle's ``levels`` folder."""
        text = text.strip()
        patterns = piece_patterns.tables_named(self, text)
        if patterns is not None:
            return [table.spec() for table in patterns]
        try:
            return self.table({"variant": text})
        except PuzzleInputError as not_a_variant:
            variant_text, colon, rest = text.partition(":")
            if not colon or not _is_name(variant_text):
                variant_text, rest = "", text
            label, equals, start = rest.partition("=")
            if not equals or not _is_name(label):
                label, start = "", rest
            variant = (self.variant_named(variant_text) if variant_text
                       else self.table_variants()[0])
            try:
                self.parse(variant, start)
            except PuzzleInputError as not_a_start:
                raise PuzzleInputError(f"{shown(text)} is neither a {self.name} table "
                                       f"({not_a_variant}) nor a start position "
                                       f"({not_a_start})") from None
            return self.table({"variant": self.variant_name(variant), "start": start,
                               "label": label})

    def distance(self, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        name = self.variant_name(variant)
        if target != GOAL and list(self.targets(variant) or []) != [target]:
            raise MissingTableError(f"the {self.name} tables answer the way to "
                                    f"{self.goal_word!r} only (query path STATE "
                                    f"{self.goal_word})")
        key = keys_of([checked_key(self, variant, node)], self.key_words)
        levels = [(self.name, LEVELS_FOLDER, stored)
                  for stored in tables.stored((self.name, LEVELS_FOLDER))
                  if stored.startswith(f"{name}-")]
        if not levels:  # the variant's own table, or the error that it is missing
            tables.require((self.name, name), {"puzzle": self.name, "variant": name},
                           f"no {self.name} table {name}: run `make tables` or "
                           f"`builder build {self.name} {name}`")
        own = [(self.name, name)] if name in tables.stored((self.name,)) else []
        for table in [*own, *levels]:
            at = int(tables.positions(table, "keys", key, "key_index", absent_ok=True)[0])
            if at >= 0:
                return tables.distance(table, "distance", at)
        raise MissingTableError(f"{shown(self.format(variant, node))} is not among the "
                                f"positions the {self.name} {name} tables hold (not "
                                f"reachable from their starts): `builder build {self.name} "
                                f"{name}:START` makes a table from a start of one's own")

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        declared = declared_distances(attributes)
        if declared:  # a table of the puzzle's own search beside the derived ones
            return declared
        variant = attributes["variant"]
        if attributes.get("label"):
            variant = f"{variant} from {attributes['label']}"
        return [DistanceArray(variant, f"to {self.goal_word}", "distance")]

    def entry_positions(self, attributes: dict, array: str, entries: Any,
                        read: Any) -> list[tuple[str, str]] | None:
        if "pieces" in attributes:
            return None  # a pattern's estimate stands for many positions
        variant = self.variant_named(str(attributes.get("variant", "")))
        keys = ints_of(sortable(np.asarray(read("keys"))[np.asarray(entries)]))
        return [(self.format_position(variant, self.decode(variant, key)), self.goal_word)
                for key in keys]

    def pattern_search(self, tables: TableLookup, variant: Any, node: Hashable,
                       target: Hashable):
        if target != GOAL and list(self.targets(variant) or []) != [target]:
            return None
        return piece_patterns.search_for(tables, self, variant, node)

    def table_options(self, attributes: dict) -> dict[str, str]:
        from builder.contract.puzzle import Describing

        options = Describing.of(self).options
        return {options[0].name: str(attributes["variant"])} if len(options) == 1 else {}


REMEMBERED = 1 << 18
"""Positions a plain-Python expansion remembers with their keys in each of its two
generations (a bound on its memory: a search needs none of them)."""


class _Remembered:
    """Positions met lately with their keys, both ways, in two generations: when the
    newer passes ``REMEMBERED`` positions it becomes the older, and the older is
    forgotten.  A position forgotten is only encoded or decoded again."""

    def __init__(self):
        self.key_of: dict[Hashable, int] = {}
        self.position_of: dict[int, Hashable] = {}
        self.older_key_of: dict[Hashable, int] = {}
        self.older_position_of: dict[int, Hashable] = {}

    def positions(self, keys: list[int], decode: Callable[[int], Hashable]) -> list:
        newer, older = self.position_of, self.older_position_of
        return [newer[key] if key in newer else older[key] if key in older else decode(key)
                for key in keys]

    def keys(self, positions: list, encode: Callable[[Hashable], int]) -> list[int]:
        key_of, position_of, older = self.key_of, self.position_of, self.older_key_of
        keys = []
        for position in positions:
            key = key_of.get(position)
            if key is None:
                key = older.get(position)
                key = key_of[position] = encode(position) if key is None else key
                position_of[key] = position
            keys.append(key)
        return keys

    def age(self) -> None:
        if len(self.key_of) > REMEMBERED:
            self.older_key_of, self.older_position_of = self.key_of, self.position_of
            self.key_of, self.position_of = {}, {}


class _PlainMoves:
    """A keyed puzzle's plain-Python moves on keys (or its moves undone), as the sparse
    search calls them: key in, keys out, or a batch at a time (``expander``)."""

    def __init__(self, puzzle: KeyedPuzzle, variant: Any, forward: bool):
        self.puzzle, self.variant, self.forward = puzzle, variant, forward
        self.remembered: Callable[[], _Remembered | None] = lambda: None
        """What the expansion under way remembers (a weak reference: it goes with the
        expansion)."""

    def __call__(self, key: int) -> list[int]:
        encode = key_encoder(self.puzzle, self.variant)
        return [encode(p) for p in self._after(self.puzzle.decode(self.variant, key))]

    def _after(self, position: Hashable) -> list[Hashable]:
        puzzle, variant = self.puzzle, self.variant
        if not self.forward:
            before = puzzle.unmoves(variant, position)
            if before is not None:
                return list(before)
        return [move.state for move in puzzle.moves(variant, position)]

    def on_positions(self) -> tuple[Callable, ...]:
        """The plug-in's rules on its own positions, for a search that numbers positions
        as a dict search does and encodes each one once, at the end
        (``builder.sparse.positions_search``): decode, the moves, the moves undone,
        encode, the goal test."""
        puzzle, variant = self.puzzle, self.variant
        forward = _PlainMoves(puzzle, variant, forward=True)._after
        backward = _PlainMoves(puzzle, variant, forward=False)._after
        if not self.forward:
            forward, backward = backward, forward
        return (lambda key: puzzle.decode(variant, key), forward, backward,
                key_encoder(puzzle, variant), lambda position: puzzle.is_goal(variant, position))

    def expander(self) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """The moves of a batch of keys: each one's count of successors, and their keys
        (``builder.sparse.plain_expander``).  It remembers the positions it met with
        their keys: a level's keys are successors found the level before, so their
        positions need no ``decode``, and a position met again needs no ``encode``."""
        puzzle, variant, after = self.puzzle, self.variant, self._after
        remembered = _Remembered()
        self.remembered = weakref.ref(remembered)

        def decode(key: int) -> Hashable:
            return puzzle.decode(variant, key)

        encode = key_encoder(puzzle, variant)

        def expand(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            positions = remembered.positions(ints_of(keys), decode)
            remembered.age()
            key_of = remembered.key_of
            counts, successors = [], []
            for position in positions:
                # each position's successors made keys at once, so that they die
                # young: held for a whole batch, they lived long enough for Python's
                # collector to walk them over and over
                found = after(position)
                known = list(map(key_of.get, found, repeat(-1)))
                if -1 in known:
                    known = remembered.keys(found, encode)
                counts.append(len(known))
                successors += known
            return np.array(counts, np.int64), keys_of(successors, puzzle.key_words)

        return expand

    def __repr__(self) -> str:  # what a resumed build compares: the same rules
        return (f"plain {self.puzzle.name} {self.puzzle.variant_name(self.variant)} "
                f"{'moves' if self.forward else 'moves undone'}")


class _PlainGoal:
    """The goal test on keys: of the positions the moves' expansion remembers where it
    still runs, else of each key decoded."""

    def __init__(self, puzzle: KeyedPuzzle, variant: Any, moves: _PlainMoves):
        self.puzzle, self.variant, self.moves = puzzle, variant, moves

    def __call__(self, keys: np.ndarray, parameters: tuple) -> np.ndarray:
        puzzle, variant = self.puzzle, self.variant
        remembered = self.moves.remembered() or _Remembered()
        # two-word keys come as rows of high and low word
        positions = remembered.positions(ints_of(sortable(keys)),
                                         lambda key: puzzle.decode(variant, key))
        return np.array([puzzle.is_goal(variant, position) for position in positions],
                        dtype=bool)

    def __repr__(self) -> str:
        return f"plain {self.puzzle.name} {self.puzzle.variant_name(self.variant)} goal"


def _is_name(text: str) -> bool:
    return bool(text) and all(ch.isalnum() or ch in "_-" for ch in text) and text.isascii()


def _label(text: str) -> str:
    if text and not _is_name(text):
        raise PuzzleInputError(f"label {shown(text)}: letters, digits, '_' and '-' only")
    return text


def _derived_label(start: str) -> str:
    import hashlib

    return "start-" + hashlib.sha1(start.encode()).hexdigest()[:10]


def key_encoder(puzzle, variant: Any) -> Callable[[Hashable], int]:
    """``checked_key`` for one variant, with the key's width read once: the encode of a
    search's hot loop (the width is its search's, looked up through the puzzle)."""
    limit, encode = key_limit(puzzle.key_words), puzzle.encode

    def encoded(position: Hashable) -> int:
        key = encode(variant, position)
        return key if 0 <= key < limit else checked_key(puzzle, variant, position)

    return encoded


def checked_key(puzzle, variant: Any, position: Hashable) -> int:
    """``encode``, checked against the key's width (a key too wide would be cut)."""
    key = puzzle.encode(variant, position)
    if not 0 <= key < key_limit(puzzle.key_words):
        raise ValueError(f"{puzzle.name}: key {key} of {puzzle.format(variant, position)} "
                         f"does not fit {puzzle.key_words} word(s) (set key_words = 2 for "
                         "keys up to 128 bits)")
    return key


KeyedSearch._engine_hooks = KeyedTables
