"""The core for puzzles whose positions have no dense ranking: what a puzzle declares so
that the engine can build sparse tables (``builder/sparse.py``), keyed by the plug-in's
own encoding of a position as an integer, and read them (``builder/keyed_tables.py``,
which completes the class when the registry takes it).

A ``KeyedPuzzle`` gives, beyond the notation and play hooks every puzzle has:

- ``encode`` / ``decode``: a position to a non-negative integer key and back: below
  2**63, or below 2**128 where the plug-in sets ``key_words = 2`` (keys of two 64-bit
  words, ``builder.contract.keys``); the keys need not be dense, only distinct;
- ``table_variants``: the variants ``make tables`` builds, each named by
  ``variant_name`` (the table's name) and found again by ``variant_named`` (none of the
  three where the variant is the value of the puzzle's one option);
- ``starts``: the positions whose reachable set the table holds (none: every position
  that reaches a target), and the targets: ``targets`` (positions), or ``is_goal`` (a
  test of one position) that picks them among the positions found;
- ``goal_word``: how the target is written (``query path STATE solved``).

That is enough: the engine builds the table from the plug-in's plain-Python ``moves``
(the *plain-Python start*, with a progress bar; fine up to a few million positions).  A
numba ``kernel`` (moves on keys, and the goal test over an array of keys) makes the same
table faster.  Moves that cannot be undone need ``unmoves`` (and ``kernel``'s
``predecessors``).  The walk, `query moves`, the catalog's generic views and `builder
verify` then work on the table as on any other.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from builder.contract.base import DistanceArray, TableLookup, WalkablePuzzle
from builder.contract.parts import OwnSearch
from builder.contract.errors import PuzzleInputError, shown
from builder.contract.specs import SparseSearch, TableSpec, kernel_path

GOAL = "goal"
"""The parsed target of a keyed puzzle's goal word."""


@dataclass(frozen=True)
class KeyKernel:
    """A keyed puzzle's moves on keys, for the engine's compiled search: functions each
    ``(key, parameters, out) -> count`` writing the keys one move after ``key`` into
    ``out``, written in the subset of Python numba compiles (plain functions of the
    plug-in's own that they call included: the engine compiles them all, and the plug-in
    imports no numba), and the goal test ``(keys, parameters) -> bool array`` (None: the
    targets are given).
    Example: ``KeyKernel(slides, 4, predecessors=slides_undone)``."""

    successors: Any
    most_moves: int
    parameters: tuple[int, ...] = ()
    predecessors: Any = None
    goal: Any = None
    canonical: Any = None
    """Where the moves give positions rather than keys (the puzzle's symmetries reduce
    positions to keys): ``canonical(position) -> key``, in the same subset, which the
    engine applies to every position the moves reach; the walk and ``encode`` may run
    the same functions as Python, so no move is written twice."""

    def __post_init__(self):
        for name in ("successors", "predecessors", "goal", "canonical"):
            object.__setattr__(self, name, kernel_path(getattr(self, name)))


class KeyedPuzzle(WalkablePuzzle):
    """A walkable puzzle whose tables are sparse (see the module's docstring)."""

    own_search: ClassVar[Any] = None  # KeyedSearch, set below once it is defined

    shards: ClassVar[int] = 1
    """Partitions of the build (more: less memory per task; the same table).
    Example: ``shards = 4``."""

    @abstractmethod
    def encode(self, variant: Any, position: Hashable) -> int:
        """A position's key: a non-negative integer below 2**63 (2**128 with two key
        words), distinct per position.
        Example: ``return sum(tile << (4 * cell) for cell, tile in enumerate(position))``."""

    @abstractmethod
    def decode(self, variant: Any, key: int) -> Hashable:
        """The position of a key.
        Example: ``return tuple((key >> (4 * cell)) & 15 for cell in range(CELLS))``."""

    # A puzzle with no option (one table, named after its goal word) or whose variant is
    # the value of its one option (say a metric: a table per choice, named after it)
    # needs none of the four below.

    def variant(self, start: str, target: str, options: dict[str, Any]) -> Any:
        """The rule variant (default: with no option, the goal word, which names the one
        table; with one option, its value, else its first choice).
        Example: ``"block"``."""
        option = self._only_option()
        if option is None:
            return self.goal_word
        chosen = options.get(option.name) or (option.choices[0] if option.choices else "")
        if option.choices and chosen not in option.choices:
            raise PuzzleInputError(f"--{option.name} {shown(str(chosen))}: choose "
                                   f"{' or '.join(option.choices)}")
        return chosen

    def table_variants(self) -> list[Any]:
        """The variants whose tables ``make tables`` builds (default: every choice of the
        puzzle's one option, or its one variant).
        Example: ``["block", "cell"]``."""
        option = self._only_option()
        if option is None:
            return [self.variant("", "", {})]
        return [self.variant_named(choice) for choice in option.choices]

    def variant_name(self, variant: Any) -> str:
        """A variant's table name (a path part: letters, digits, ``_``, ``-``; default:
        the variant itself, the option's value).
        Example: ``"cell"``."""
        return str(variant)

    def variant_named(self, name: str) -> Any:
        """The variant of a table name; a PuzzleInputError naming the choices (default:
        ``variant`` given the name as the option's value).
        Example: ``"cell"``."""
        option = self._only_option()
        if option is not None:
            return self.variant("", "", {option.name: name})
        only = self.variant("", "", {})
        if name not in ("", self.variant_name(only)):
            raise PuzzleInputError(f"table {shown(name)}: {self.name} has one table, "
                                   f"{self.variant_name(only)!r}")
        return only

    def _only_option(self):
        from builder.contract.parts import Describing  # the parts know KeyedPuzzle

        options = Describing.of(self).options
        if len(options) > 1:
            raise TypeError(f"{self.name}: give variant, table_variants, variant_name and "
                            "variant_named (the defaults take one option at most)")
        return options[0] if options else None

    def starts(self, variant: Any) -> list[Hashable]:
        """The positions whose reachable set the table holds ([]: every position that
        reaches a target, found backwards from the targets).
        Example: ``return [rules.parse(START)]``."""
        return []

    def targets(self, variant: Any) -> list[Hashable] | None:
        """The target positions (None: ``is_goal`` picks them among the positions found).
        Example: ``return [SOLVED]``."""
        return None

    def is_goal(self, variant: Any, position: Hashable) -> bool:
        """Whether a position is a target (default: one of ``targets``).
        Example: ``return position[GOAL_CELL] == BIG_BLOCK``."""
        return position in (self.targets(variant) or [])

    def unmoves(self, variant: Any, position: Hashable) -> list[Hashable] | None:
        """The positions one move *before* ``position``, for moves that cannot be undone;
        None (the default): the moves can be undone, so they are the moves.
        Example: ``return rules.moves_undone(position)``."""
        return None

    def kernel(self, variant: Any) -> KeyKernel | None:
        """The numba moves on keys (None: the table is built from ``moves``).
        Example: ``return KeyKernel(slides, 4, goal=at_goal)``."""
        return None

    def format(self, variant: Any, state: Hashable) -> str:
        return self.goal_word if state == GOAL else self.format_position(variant, state)

    def default_target(self, variant: Any) -> str:
        return self.goal_word

    @abstractmethod
    def format_position(self, variant: Any, position: Hashable) -> str:
        """A position's notation.
        Example: ``return ".".join(ROWS[row] for row in position)``."""


class KeyedSearch(OwnSearch):
    """What the engine derives from a keyed puzzle's declaration (``builder/
    keyed_tables.py``): its tables, the goal word, the look-up, the catalog's rows.  A
    keyed puzzle that adds tables of its own (pattern databases) derives its
    ``own_search`` from this class and calls ``super()``."""

    _engine_hooks: ClassVar[Any] = None
    """The engine's implementation of the hooks below, put here when the engine is loaded
    (``builder.keyed_tables``, which the registry imports)."""

    goal_word: ClassVar[str] = "solved"
    """How the goal is written: `query path STATE solved`.
    Example: ``goal_word = "cleared"``."""
    key_words: ClassVar[int] = 1
    """64-bit words per key: 1 (keys below 2**63), or 2 (below 2**128).
    Example: ``key_words = 2``."""

    def parse_target(self, variant: Any, text: str) -> Hashable:
        if text.strip().lower() == self.goal_word:
            return GOAL
        return self.parse(variant, text)

    def at_target(self, variant: Any, node: Hashable, target: Hashable) -> bool:
        return self.is_goal(variant, node) if target == GOAL else node == target

    def explain_unreachable(self, variant: Any, start: Hashable, target: Hashable) -> str:
        return f"{self.format(variant, start)} can never reach {self.goal_word}"

    def table(self, identity: dict[str, Any]) -> TableSpec:
        """The sparse table of a variant (``{"variant": NAME}``), or of every position
        reachable from a start a user gave (``"start"``, ``"label"``).
        Example: ``puzzle.table({"variant": "block"})``."""
        return _engine().table(self.puzzle, identity)

    def sparse_search(self, variant: Any, plain: bool = False,
                      starts: list[Hashable] | None = None) -> SparseSearch:
        """The search of a variant's table; ``plain``: from the plain-Python moves even
        where a kernel exists (the same table, slower); ``starts``: from these positions
        instead of the variant's own.
        Example: ``puzzle.sparse_search("block", plain=True)``."""
        return _engine().sparse_search(self.puzzle, variant, plain, starts)

    def default_tables(self) -> list[TableSpec]:
        """The table of every variant in ``table_variants``.
        Example: ``[puzzle.table({"variant": "block"})]``."""
        return _engine().default_tables(self.puzzle)

    def table_for(self, text: str) -> TableSpec:
        """A variant's name: its table; ``[VARIANT:][LABEL=]START``: a table of every
        position reachable from START, in the puzzle's ``levels`` folder.
        Example: ``puzzle.table_for("block:mine=START")``."""
        return _engine().table_for(self.puzzle, text)

    def distance(self, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        """The fewest moves to the goal, read from the variant's table or a level's.
        Example: ``puzzle.distance(tables, "block", position, GOAL)``."""
        return _engine().distance(self.puzzle, tables, variant, node, target)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        """The table's one distance array, towards the goal word.
        Example: ``[DistanceArray("block", "to solved", "distance")]``."""
        return _engine().catalog_distances(self.puzzle, attributes)

    def entry_positions(self, attributes: dict, distances: DistanceArray, entries: Any,
                        read: Any) -> list[tuple[str, str]]:
        """The positions of the table's entries, each towards the goal word.
        Example: ``[("ABBC.ABBC.DEEF.DGHF.I__J", "solved")]``."""
        return _engine().entry_positions(self.puzzle, attributes, distances, entries, read)

    def table_options(self, attributes: dict) -> dict[str, str]:
        """The puzzle's one option set to the table's variant, if it has one.
        Example: ``{"metric": "block"}``."""
        return _engine().table_options(self.puzzle, attributes)


def _engine() -> Any:
    if KeyedSearch._engine_hooks is None:
        raise TypeError("a keyed puzzle's tables are the engine's: load puzzles through "
                        "builder.registry (which imports builder.keyed_tables)")
    return KeyedSearch._engine_hooks


KeyedPuzzle.own_search = KeyedSearch
