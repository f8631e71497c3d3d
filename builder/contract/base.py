"""The interface every puzzle plug-in implements, and what the engine lends it.

A plug-in knows its puzzle: how positions are written (``recognises``, ``variant``,
``parse``, ``format``) and which moves a position has (``moves``).  A dense or keyed
puzzle (``builder.contract.dense``, ``builder.contract.keyed``) also says how its
positions are numbered, and the engine keeps its tables; a puzzle with tables of its
own reads a position's distance from them on its own search (``own_search``, an
``OwnSearch`` of ``builder.contract.parts``).  The engine knows none of that: it picks
the plug-in whose notation matches (``builder.registry``), and walks, values moves and
prints through these hooks alone.  A plug-in imports no engine module; the engine lends
it a ``TableLookup`` that reads any stored array by table and array name, with every
chunk checked against its checksums.

A worked example, a row of lamps where a move toggles one lamp and its right-hand
neighbour, with a hypothetical table ``lamps/N.zarr`` holding ``to_dark[state]``:

>>> from builder.contract.parts import OwnSearch
>>> class LampsSearch(OwnSearch):
...     def distance(self, tables, lamps, state, target):
...         return tables.distance(("lamps", str(lamps)), "to_dark", state ^ target)
>>> class Lamps(WalkablePuzzle):
...     name, unit = "lamps", "toggles"
...     summary = "a row of lamps; a toggle flips a lamp and its right neighbour"
...     example = ("1100", "0000")
...     own_search = LampsSearch
...     def recognises(self, text):
...         return bool(text) and set(text) <= {"0", "1"}
...     def variant(self, start, target, options):
...         return len(start)
...     def parse(self, lamps, text):
...         return int(text[::-1], 2)
...     def format(self, lamps, state):
...         return format(state, f"0{lamps}b")[::-1]
...     def moves(self, lamps, state):
...         return [Move(f"toggle {i}", state ^ (3 << i) & ((1 << lamps) - 1))
...                 for i in range(lamps)]
>>> lamps = Lamps()
>>> lamps.recognises("1100"), lamps.format(4, lamps.parse(4, "1100"))
(True, '1100')
>>> [move.label for move in lamps.moves(4, lamps.parse(4, "1100"))][:2]
['toggle 0', 'toggle 1']

Registering it is one line in ``registry.py``; `query path 1100 0000` and
`query moves 1100` then work from its table with no engine change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, Protocol

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
""""Never" in an array of byte distances (numpy uint8: its largest value, ``never_of``),
for a plug-in's own kernels that fill such an array and the constants they compare with.
Example: ``fewest = np.full(states, NEVER_IN_BYTES, dtype=np.uint8)``."""

NEVER_IN_16_BITS = (1 << 16) - 1
""""Never" in an array of 16-bit distances (numpy uint16: its largest value, ``never_of``),
as ``NEVER_IN_BYTES`` is in bytes.
Example: ``fewest = np.full(states, NEVER_IN_16_BITS, dtype=np.uint16)``."""


def never_of(values: Any) -> int:
    """The value an array of distances (numpy, unsigned) stores for "never": its type's
    largest, as the engine's searches write it.
    Example: ``reachable = clicks[clicks != never_of(clicks)]``."""
    import numpy as np

    return int(np.iinfo(values.dtype).max)


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


class Puzzle(ABC):
    """The core every puzzle plug-in implements: its name and its notation (see the module
    docstring for a worked example).  A puzzle whose positions can be walked derives from
    ``WalkablePuzzle``, which adds its moves; one whose positions rank densely or have
    keys derives from ``DensePuzzle`` or ``KeyedPuzzle``, and the engine keeps its tables.

    A puzzle declares itself in at most 30 names (``builder.contract.hooks.puzzle_hooks``:
    these, the dense or keyed core's, and a few of the parts' in
    ``builder.contract.parts``: its summary, example, unit, options, drawing and
    renderer).  Everything else, a search of its own with its tables, catalog and checks,
    is an ``OwnSearch`` behind the one hook ``own_search``.  A public member the contract
    does not declare is refused when the plug-in is registered.  The engine reads a
    plug-in through a part (``Walking.of(puzzle).start_node(...)``): what the plug-in
    (or its own search) defines, else the part's default.
    """

    name: ClassVar[str]
    """The registry key, `--puzzle` value and ``NAME:`` prefix.
    Example: ``name = "lamps"``."""

    @abstractmethod
    def recognises(self, text: str) -> bool:
        """True when ``text`` looks like this puzzle's notation (cheap: no parsing).
        Example: ``return set(text) <= set("01.")``."""

    @abstractmethod
    def variant(self, start: str, target: str, options: dict[str, Any]) -> Any:
        """The rule variant a pair of positions (and options such as a method) implies;
        a PuzzleInputError when the options do not apply.
        Example: ``return int(options.get("size") or len(start))``."""

    @abstractmethod
    def parse(self, variant: Any, text: str) -> Hashable:
        """A position from its notation; a PuzzleInputError naming what is wrong.
        Example: ``return int(text.replace(".", ""), 2)``."""

    @abstractmethod
    def format(self, variant: Any, state: Hashable) -> str:
        """The notation of a position (of a walk node: its position part).
        Example: ``return format(state, "09b")``."""

    def default_target(self, variant: Any) -> str | None:
        """The target a position is played towards when none is given (None: ask).
        Example: ``return "000.000.000"``."""
        return None

    own_search: ClassVar[Any] = None
    """A puzzle the engine cannot derive tables for from its declaration (its own click
    tables, a solver, pattern databases) names here the class of its own search, a
    ``builder.contract.parts.OwnSearch``: its tables, how they are read, catalogued,
    dealt and verified, its own commands.  Every such hook is defined there, never on
    the puzzle.  Default: the engine's search (a dense or keyed puzzle's tables derived
    from its declaration; none for a plain puzzle).
    Example: ``own_search = LampsSearch``."""

    def __getattr__(self, name: str) -> Any:
        # the puzzle's own search answers for its members (``self.distance(...)``)
        from builder.contract.parts import SEARCH_MEMBERS, search_of

        if name in SEARCH_MEMBERS:
            return getattr(search_of(self), name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class WalkablePuzzle(Puzzle):
    """A puzzle whose positions are walked from its tables: it adds ``moves`` to the
    notation (every puzzle but the Spot Colour discs); the distance a walk follows is
    read by the engine's tables or by its own search (``own_search``)."""

    @abstractmethod
    def moves(self, variant: Any, node: Hashable) -> Iterable[Move]:
        """Every legal move from a walk node, in a fixed order: a list, or an iterator
        that makes each move as it is asked for (a walk stops at the first move one
        nearer the target, so moves that cost are worth making lazily).
        Example: ``return [Move(f"button {b}", node ^ mask) for b, mask in enumerate(MASKS)]``."""



def walkable(puzzle: Puzzle) -> bool:
    """True when a puzzle's positions can be walked (a ``WalkablePuzzle``)."""
    return isinstance(puzzle, WalkablePuzzle)


class Part:
    """An optional part of the plug-in interface: a class whose public members are the
    defaults the engine uses where a plug-in defines none (a default method's first
    parameter is named ``puzzle``: it is handed the plug-in, never a part).  ``Part.of(puzzle)`` is the puzzle seen through the part; asking it for
    a member the part does not declare is an error, so that a part says all it reads."""

    members: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.members = frozenset(name for name in vars(cls)
                                if not name.startswith("_") and name != "members")

    @classmethod
    def of(cls, puzzle: Puzzle) -> Any:
        return PartView(puzzle, cls)


class PartView:
    """``Part.of``: the plug-in's member where it defines one, else the part's default."""

    __slots__ = ("part", "puzzle")

    def __init__(self, puzzle: Puzzle, part: type[Part]):
        from builder.contract.parts import OwnSearch

        # a part's default run on an own search sees the puzzle through the part too
        self.puzzle = puzzle.puzzle if isinstance(puzzle, OwnSearch) else puzzle
        self.part = part

    def __getattr__(self, name: str) -> Any:
        if name not in self.part.members:
            raise AttributeError(f"{self.part.__name__} has no member {name!r}")
        from builder.contract.parts import SEARCH_MEMBERS, search_of

        if name in SEARCH_MEMBERS:
            return getattr(search_of(self.puzzle), name)
        if hasattr(type(self.puzzle), name) or name in vars(self.puzzle):
            return getattr(self.puzzle, name)
        default = self.part.__dict__[name]
        if callable(default):
            return default.__get__(self.puzzle, type(self.puzzle))
        return default
