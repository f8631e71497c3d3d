"""The value types of the plug-in contract (``builder.contract.puzzle``) and what the engine
lends a plug-in: a move (``Move``), a path found by a search (``FoundPath``), a stored
distance array the catalog reads (``DistanceArray``), a plug-in's own catalog table
(``CatalogTable``), an option (``PuzzleOption``), and ``TableLookup``, which reads any
stored array by table and array name, with every chunk checked against its checksums.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from builder.contract.specs import TableSpec


class Move(NamedTuple):
    """One legal move: how a player names it, and the position it leads to (in the
    plug-in's own representation, e.g. a (board, last click) node).  A named
    tuple: a walk makes one for every successor it looks at, and a tuple is made in a
    fraction of a frozen dataclass's time."""

    label: str
    state: Hashable


@dataclass(frozen=True)
class FoundPath:
    """A path, shortest unless ``optimal`` is False: the walk nodes from start to target,
    the label of each move, and how it was found (a table walk, a plug-in's search where
    no table answers, or its approximate solver)."""

    nodes: tuple
    labels: tuple[str, ...]
    how: str = "table walk"
    optimal: bool = True
    """False for a plug-in's ``approximate_path``: a path, not necessarily a shortest."""
    details: dict[str, Any] = field(default_factory=dict)
    """What the finder adds to the path's `--json` answer (a decomposition solver's:
    which half each click solves, and the rotation), beside the engine's fields."""

    @property
    def length(self) -> int:
        return len(self.labels)


@dataclass(frozen=True)
class DistanceArray:
    """A stored array of distances that the catalog's generic views summarise:
    ``distance_distribution`` and ``table_summary`` name it by (puzzle, variant, table)."""

    variant: str
    """The rule variant, as a user would name it (``4x2 hybrid``, ``n=3``, ``4_4_3``)."""
    table: str
    """What the distances are towards (``all pairs``, ``to RRRR.RRRR``, ``to cleared``)."""
    array: str
    """The array's name in the stored table."""
    never: int | None = None
    """The stored value meaning "cannot reach it" (None: the engine's own, the largest
    value of the array's unsigned type, as every breadth-first array stores it)."""
    weights: str | None = None
    """An array of how many states each entry stands for (a symmetry class), if any."""

    def never_in(self, values: Any) -> int:
        """The "never" value of ``values`` (a numpy array read from the table)."""
        return never_of(values) if self.never is None else self.never


@dataclass(frozen=True)
class CatalogTable:
    """A table of rows in the DuckDB catalog that a plug-in derives from each of its
    stored tables (``Cataloguing.catalog_rows``), for its own views (``catalog_views``).  The
    engine adds a last column, ``source`` (the stored table's path under the data
    directory), so the rows of one stored table are replaced alone when it changes."""

    name: str
    columns: str
    """The SQL column definitions: ``"rows INTEGER, cols INTEGER, nullity INTEGER"``."""
    select: str = "*"
    """The SQL select list that turns the columns ``catalog_rows`` gives into the table's,
    e.g. ``"start, target, nullif(clicks, 255)"`` where a stored value stands for NULL."""
    per_source: bool = False
    """True for tables of tens of millions of rows: each stored table's rows go into a
    DuckDB table of their own (one fast bulk load, no stored ``source`` column), and
    ``name`` is a view over all of them (with ``source``).  A column the rows give as a
    plain value (``width=4`` beside numpy columns) is stored once, in the view, not on
    every row; the ``select`` list must pass it through as a column of its own."""


NEVER_IN_BYTES = (1 << 8) - 1
""""Never" in an array of byte distances (numpy uint8: its largest value, ``never_of``):
the engine's, which no plug-in names (an own kernel fills an array from ``unreached``
and is handed ``never_of(array)``).
Example: ``distance == NEVER_IN_BYTES`` in the engine's reader."""

NEVER_IN_16_BITS = (1 << 16) - 1
""""Never" in an array of 16-bit distances (numpy uint16: its largest value, ``never_of``),
as ``NEVER_IN_BYTES`` is in bytes.
Example: ``distance == NEVER_IN_16_BITS`` in the engine's reader of wide tables."""


def never_of(values: Any) -> int:
    """The value an array of distances (numpy) stores for "never": an unsigned type's
    largest, as the engine's searches write it; -1 in a signed one.
    Example: ``reachable = clicks[clicks != never_of(clicks)]``."""
    import numpy as np

    return -1 if values.dtype.kind == "i" else int(np.iinfo(values.dtype).max)


def unreached(shape: Any, most: int = NEVER_IN_BYTES - 1) -> Any:
    """An array for distances that an own search fills in place, every entry "not
    reached": the engine chooses its type for distances up to ``most`` (bytes up to 254,
    else 16 bits) and the value that means "never" in it, which a kernel is handed as
    ``never_of(array)`` and compares with; the engine reads the stored array the same way.
    Example: ``fewest = unreached(1 << 25); search(masks, fewest, never_of(fewest))``."""
    import numpy as np

    if most >= NEVER_IN_16_BITS:
        raise ValueError(f"distances up to {most}: at most {NEVER_IN_16_BITS - 1} are stored")
    dtype = np.uint8 if most < NEVER_IN_BYTES else np.uint16
    return np.full(shape, np.iinfo(dtype).max, dtype=dtype)


def stored_distances(values: Any) -> list[int | None]:
    """Distances as a breadth-first array stores them (numpy, unsigned), None where it
    stores "never" (``never_of``), so a plug-in never names that value.
    Example: ``stored_distances(tables.computed(spec)["moves"][ranks])``."""
    never = never_of(values)
    return [None if value == never else int(value) for value in values.tolist()]


class KeptLast:
    """One value kept for the last key it was made for: what a plug-in reads a game's
    table through, asked for at every step of a walk towards the same target.  The key is
    a tuple compared at C speed (each element by identity first: a walk hands the same
    objects each step); the pair is replaced whole, so a thread never sees one key with
    another's value."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: tuple[tuple, Any] | None = None

    def get(self, key: tuple, make: Callable[[], Any]) -> Any:
        kept = self._kept
        if kept is not None and kept[0] == key:
            return kept[1]
        value = make()
        self._kept = (key, value)
        return value


class TableLookup(Protocol):
    """What the engine lends a plug-in to read its stored tables.  ``table`` is the
    table's path parts under the data directory without ``.zarr`` (``("lamps",
    "tables")``); a missing, stale or damaged table raises the engine's one-line error,
    with ``missing`` (when given) as the advice for a table that was never built."""

    def value(self, table: tuple[str, ...], array: str, index: int,
              missing: str | None = None) -> int: ...

    def distance(self, table: tuple[str, ...], array: str, index: int,
                 missing: str | None = None) -> int | None:
        """A distance stored at ``index``: None where the array stores "never" (the
        largest value of its unsigned type, as the engine's searches write it), so a
        plug-in never names that value.
        Example: ``tables.distance(("lamps",),
        "clicks", 37)``."""
        ...

    def column_value(self, table: tuple[str, ...], array: str, row: int, column: int,
                     missing: str | None = None) -> int: ...

    def position(self, table: tuple[str, ...], keys: str, key: int, first_keys: str,
                 missing: str | None = None) -> int: ...

    location: str
    """The data directory as the user named it (for messages)."""

    def require(self, table: tuple[str, ...], expected: dict | None = None,
                missing: str | None = None) -> dict:
        """The table's attributes, after checking it is complete, of the current format
        and has the ``expected`` attributes (else a one-line error)."""
        ...

    def column(self, table: tuple[str, ...], array: str, column: int,
               missing: str | None = None) -> Any:
        """One whole column of a 2-D array chunked by whole columns (numpy, read-only)."""
        ...

    def vector(self, table: tuple[str, ...], array: str, missing: str | None = None) -> Any:
        """A 1-D array read through its cached chunks: ``[index]`` gives one value,
        ``.chunk(n)`` one chunk, ``.whole()`` all of it, ``.length`` and ``.chunk_size``
        its sizes."""
        ...

    def positions(self, table: tuple[str, ...], keys: str, wanted: Any, first_keys: str,
                  missing: str | None = None, absent_ok: bool = False) -> Any:
        """Where each of ``wanted`` (numpy int64) sits in the ascending array ``keys``,
        found through ``first_keys`` (the first key of every chunk): one chunk read per
        chunk touched; a key the table lacks is a damaged table (``absent_ok``: -1)."""
        ...

    def describe(self, table: tuple[str, ...]) -> str:
        """How a message names the table (its place in the data directory)."""
        ...

    def stored(self, folder: tuple[str, ...]) -> list[str]:
        """The names (without ``.zarr``) of the tables stored in a folder of the data
        directory, sorted; none when the folder does not exist."""
        ...

    def walk(self, puzzle: WalkablePuzzle, variant: Any, start: Hashable,
             target: Hashable) -> FoundPath:
        """The engine's walk over these tables (what `query path` prints), for a
        plug-in's own commands that answer with a path (`query solve`)."""
        ...

    def computed(self, spec: TableSpec) -> dict[str, Any]:
        """A table's arrays computed now, in memory, by the engine's kernels (kept for
        the next call): for tables that take well under a second, such as one towards a
        target nobody stored.  Expensive work all the same: a server computes it through
        its work gate (``builder.contract.work``), a few at a time and stopped at the
        request's limit, and once a request however often the request asks."""
        ...


@dataclass(frozen=True)
class PuzzleOption:
    """An option a puzzle's variants take, as text: `--NAME VALUE` on the command line,
    ``NAME=VALUE`` on the web API; ``variant(start, target, options)`` reads it from
    ``options[NAME]`` (None when not given) and refuses a value it does not know."""

    name: str
    help: str
    """One line for `--help` (the engine prefixes the puzzle's name)."""
    choices: tuple[str, ...] = ()
    """The values it takes, where they are a fixed few (shown in `--help`)."""


_MOVED = frozenset({"Puzzle", "WalkablePuzzle", "walkable", "Part", "PartView"})


def __getattr__(name: str) -> Any:
    # a plug-in written before the contract became one module is told where it went
    if name in _MOVED:
        raise ImportError(f"{name} is in builder.contract.puzzle, the one module of the "
                          "contract (docs/contract.md)")
    raise AttributeError(f"module 'builder.contract.base' has no attribute {name!r}")
