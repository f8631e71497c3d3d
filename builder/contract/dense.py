"""The core for puzzles whose positions rank densely (``0 .. states - 1``) into arrays the
generic breadth-first kernel fills.

A ``DensePuzzle`` gives, beyond the notation:

- its moves written once (``move_kernel`` and ``move_label``, instead of ``moves``): a
  function on ranks in the subset of Python numba compiles, which the engine compiles
  for the breadth-first kernel and the walk runs as Python, each move named by the
  positions before and after it;
- ``positions(variant)``: how many ranks a variant takes; ``table_variants``,
  ``variant_name`` and ``variant_named``: the variants `make tables` builds and their
  names; and, where a symmetry maps a question onto a stored target, ``stored_question``.

That is all: the engine (``builder/dense_tables.py``) then builds one table a variant
towards its ``default_target``, searches a table towards any other target when asked
(or stores it: `builder build NAME [CHOICE:]POSITION`), reads each distance, turns the
array's "never" into None, and gives the catalog its rows.  A plug-in with tables of its
own shape leaves ``positions`` out and says where a distance is stored instead
(``stored_distance``, a ``StoredDistance``, and the building hooks).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from builder.contract.base import (
    DistanceArray,
    Move,
    TableLookup,
    WalkablePuzzle,
    stored_distances,
)
from builder.contract.errors import PuzzleInputError, shown
from builder.contract.parts import OwnSearch
from builder.contract.specs import TableSpec, kernel_path, run_moves


@dataclass(frozen=True)
class StoredDistance:
    """Where one distance sits: ``spec.searches[array][index]``."""

    spec: TableSpec
    array: str
    index: int
    build: str = ""
    """What follows ``builder build NAME`` to make the table (the missing table's
    advice names it beside ``make tables``)."""
    searched_when_missing: bool = False
    """A table nobody need store (towards a chosen target): read when stored, else
    searched now, in memory, and kept for the next call."""


@dataclass(frozen=True)
class MoveKernel:
    """A puzzle's moves written once: ``function`` writes into ``out`` every rank one move
    from ``rank`` and returns how many, at most ``most``: ``function(rank, parameters,
    out) -> count``, ``parameters`` an int64 array of ``parameters``.  Plain Python in the
    subset numba compiles (numbers, lists and arrays, and plain functions of the plug-in's
    own): the engine compiles it for its tables' searches (``BreadthFirstSearch.neighbours``
    may be the same function) and the walk runs it as Python, so a move is never written
    twice.
    Example: ``MoveKernel(ring_moves, (width,), width + 1)``."""

    function: Any
    parameters: tuple[int, ...]
    most: int

    def __post_init__(self):
        object.__setattr__(self, "function", kernel_path(self.function))


class DensePuzzle(WalkablePuzzle):
    """A walkable puzzle whose distances are read from dense breadth-first arrays (see the
    module's docstring)."""

    own_search: ClassVar[Any] = None  # DenseSearch, set below once it is defined

    def move_kernel(self, variant: Any) -> MoveKernel | None:
        """The moves written once (None: the plug-in writes ``moves`` itself).
        Example: ``MoveKernel(moves, (4, 6), 12)``."""
        return None

    def move_label(self, variant: Any, before: int, after: int) -> str:
        """How a player names the move from rank ``before`` to rank ``after`` (with
        ``move_kernel``).
        Example: ``"disc 1 A->B"``, ``"R'"``."""
        return f"{self.format(variant, before)} -> {self.format(variant, after)}"

    def moves(self, variant: Any, node: Hashable) -> list[Move]:
        """The moves of ``move_kernel``, run as Python, each named by ``move_label``.
        Example: ``[Move("disc 1 A->B", 1), Move("disc 1 A->C", 2)]``."""
        written = self.move_kernel(variant)
        if written is None:  # the hooks' check refuses a plug-in that gives neither
            raise TypeError(f"{self.name}: move_kernel gave no moves for this variant")
        return [Move(self.move_label(variant, node, after), after) for after in
                run_moves(written.function, node, written.most, written.parameters)]

    # ---- with ``positions``, the engine keeps the tables (builder/dense_tables.py) ---------

    def positions(self, variant: Any) -> int | None:
        """How many ranks a variant's positions take (each position a number 0 .. N-1):
        with it, the engine builds and reads the tables itself, one a variant towards its
        ``default_target`` over ``move_kernel``; None (the default): the plug-in says where
        a distance is stored (``stored_distance`` and the building hooks).
        Example: ``return 2 ** (rows * columns)``  (a board of lamps, each on or off)."""
        return None

    def table_variants(self) -> list[Any]:
        """The variants whose tables `make tables` builds.
        Example: ``return [(rows, columns) for rows in (3, 4) for columns in (3, 4, 5)]``."""
        return []

    def variant_name(self, variant: Any) -> str:
        """A variant as a user names it (the catalog's rows, `builder build NAME VARIANT`;
        the table's path is made of it).
        Example: ``return f"{rows}x{columns}"``."""
        return str(variant)

    def variant_named(self, name: str) -> Any:
        """The variant a name names (default: the table variant of that name); a
        PuzzleInputError naming the choices.
        Example: ``return tuple(int(side) for side in name.split("x"))``."""
        for variant in self.table_variants():
            if self.variant_name(variant) == name:
                return variant
        raise PuzzleInputError(f"{self.name} has no table {shown(name)}")

    def stored_question(self, variant: Any, node: Hashable, target: Hashable
                        ) -> tuple[Hashable, Hashable]:
        """The same question asked towards a target whose table is stored, by a symmetry
        of the puzzle (default: as asked): the distance from ``node`` to ``target`` is the
        returned node's to the returned target.
        Example: ``return renamed(node, target), renamed(target, target)``."""
        return node, target


class DenseSearch(OwnSearch):
    """What the engine derives from a dense puzzle's declaration (``builder/
    dense_tables.py``): its tables, where each distance is stored, the look-up, the
    catalog's rows.  A dense puzzle with tables of its own shape (pattern databases, a
    table per board) derives its ``own_search`` from this class and says where a
    distance is stored (``stored_distance``) and which tables it builds."""

    _engine_hooks: ClassVar[Any] = None
    """The engine's implementation of the table hooks, put here when the engine is loaded
    (``builder.dense_tables``, which the registry imports)."""

    def stored_distance(self, variant: Any, node: Hashable, target: Hashable
                        ) -> StoredDistance:
        """Where the fewest moves from ``node`` to ``target`` are stored; a
        ``MissingTableError`` when no table can hold them (say a board size without
        tables), naming what answers instead.
        Example: ``StoredDistance(towards(variant), "moves", node, build=str(variant))``."""
        return _engine().stored_distance(self.puzzle, variant, node, target)

    def table(self, identity: dict[str, Any]) -> TableSpec:
        """A variant's table (``{"variant": NAME}``, with ``"target"`` for one towards
        another target).
        Example: ``puzzle.table({"variant": "4x5"})``."""
        return _engine().table(self.puzzle, identity)

    def default_tables(self) -> list[TableSpec]:
        """The table of every variant in ``table_variants``.
        Example: ``[puzzle.table({"variant": "3x3"}), ...]``."""
        return _engine().default_tables(self.puzzle)

    def table_for(self, text: str) -> TableSpec | list[TableSpec]:
        """A variant's name, a choice of the puzzle's one option (every variant with it),
        or ``[CHOICE:]POSITION``: a table towards POSITION.
        Example: ``puzzle.table_for("4:1010.0101.1010.0101")``."""
        return _engine().table_for(self.puzzle, text)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        """A table's one array, towards its target.
        Example: ``[DistanceArray("4x5", "to 0000.0000.0000.0000.0000", "moves")]``."""
        return _engine().catalog_distances(self.puzzle, attributes)

    def entry_positions(self, attributes: dict, distances: DistanceArray, entries: Any,
                        read: Any) -> list[tuple[str, str]] | None:
        """Each entry's position, towards the table's target.
        Example: ``[("1010.0101.1010", "0000.0000.0000")]``."""
        return _engine().entry_positions(self.puzzle, attributes, distances, entries, read)

    def table_options(self, attributes: dict) -> dict[str, str]:
        """The choice of the puzzle's one option that gives the table's variant.
        Example: ``{"rows": "4"}``."""
        return _engine().table_options(self.puzzle, attributes)

    def distance(self, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        """Read where ``stored_distance`` says: the stored table, or one searched now
        for a table nobody stored that is ``searched_when_missing``.
        Example: ``puzzle.distance(tables, (4, 5), 0, 1)``."""
        where = self.stored_distance(variant, node, target)
        spec = where.spec
        if where.searched_when_missing and spec.parts[-1] not in tables.stored(spec.parts[:-1]):
            return stored_distances(tables.computed(spec)[where.array][[where.index]])[0]
        return tables.distance(spec.parts, where.array, where.index,
                               missing=f"no {self.name} table {'/'.join(spec.parts[1:])}: "
                                       f"run `make tables` or `builder build {self.name}"
                                       f"{' ' + where.build if where.build else ''}`")


def _engine() -> Any:
    if DenseSearch._engine_hooks is None:
        raise TypeError("a dense puzzle's tables are the engine's: load puzzles through "
                        "builder.registry (which imports builder.dense_tables)")
    return DenseSearch._engine_hooks


DensePuzzle.own_search = DenseSearch
