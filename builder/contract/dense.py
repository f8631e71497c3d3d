"""The optional core for puzzles whose positions rank densely (``0 .. states - 1``) into
arrays the generic breadth-first kernel fills: the plug-in says *where* a distance is
stored, the engine reads it.

A ``DensePuzzle`` gives, beyond the notation and ``moves`` every walkable puzzle has:

- ``table(identity)``: its tables as ``TableSpec``s whose ``searches`` are
  ``BreadthFirstSearch``es (the building hooks, as every puzzle with tables);
- ``stored_distance(variant, node, target)``: a ``StoredDistance``: the spec of the table
  holding the distance, the array's name and the node's rank in it (after whatever
  renaming maps the target onto a stored one), and the words of ``builder build`` that
  make the table;
- its moves written once (``move_kernel`` and ``move_label``, instead of ``moves``): a
  function on ranks in the subset of Python numba compiles, which the engine compiles
  for the breadth-first kernel and the walk runs as Python, each move named by the
  positions before and after it.

The engine then does the look-up: it reads the value from the stored table (a one-line
error naming the command that builds a missing one), or, for a table marked
``searched_when_missing`` that nobody stored (one towards a chosen target, well under a
second to search), searches it now and keeps it; and it turns the array's "never" value
(255, or 65535 for a ``wide`` search) into None.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from builder.contract.base import Move, TableLookup, WalkablePuzzle
from builder.contract.specs import TableSpec, kernel_path, resolved


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
        import numpy as np

        out = np.empty(written.most, np.int64)
        count = resolved(written.function)(int(node), np.asarray(written.parameters,
                                                                 np.int64), out)
        return [Move(self.move_label(variant, node, after), after)
                for after in out[:count].tolist()]

    @abstractmethod
    def stored_distance(self, variant: Any, node: Hashable, target: Hashable
                        ) -> StoredDistance:
        """Where the fewest moves from ``node`` to ``target`` are stored; a
        ``MissingTableError`` when no table can hold them (say a board size without
        tables), naming what answers instead.
        Example: ``StoredDistance(towards(variant), "moves", node, build=str(variant))``."""

    def distance(self, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        where = self.stored_distance(variant, node, target)
        spec = where.spec
        search = spec.searches[where.array]
        never = 65535 if search.wide else 255
        if where.searched_when_missing and spec.parts[-1] not in tables.stored(spec.parts[:-1]):
            found = int(tables.computed(spec)[where.array][where.index])
        else:
            found = tables.value(spec.parts, where.array, where.index,
                                 missing=f"no {self.name} table {'/'.join(spec.parts[1:])}: "
                                         f"run `make tables` or `builder build {self.name}"
                                         f"{' ' + where.build if where.build else ''}`")
        return None if found == never else found
