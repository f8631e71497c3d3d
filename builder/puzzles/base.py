"""The interface every puzzle plug-in implements, and what the engine lends it.

A plug-in knows its puzzle: how positions are written (``recognises``, ``variant``,
``parse``, ``format``), which moves a position has (``moves``), and how a position's
distance to a target is read from its tables (``distance``).  The engine knows none of
that: it picks the plug-in whose notation matches (``builder.puzzles.registry``), and
walks, values moves and prints through these hooks alone.  A plug-in imports no engine
module; the engine lends it a ``TableLookup`` that reads any stored array by table and
array name, with every chunk checked against its checksums.

A worked example, a row of lamps where a move toggles one lamp and its right-hand
neighbour, with a hypothetical table ``lamps/N.zarr`` holding ``to_dark[state]``:

>>> class Lamps(WalkablePuzzle):
...     name, unit = "lamps", "toggles"
...     summary = "a row of lamps; a toggle flips a lamp and its right neighbour"
...     example = ("1100", "0000")
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
...     def distance(self, tables, lamps, state, target):
...         found = tables.value(("lamps", str(lamps)), "to_dark", state ^ target)
...         return None if found == 255 else found
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
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from builder.puzzles.specs import TableSpec


@dataclass(frozen=True)
class Move:
    """One legal move: how a player names it, and the position it leads to (in the
    plug-in's own representation, e.g. a Tricolore (board, last click) node)."""

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
    """What the finder adds to the path's `--json` answer (Tricolore's decomposition:
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
    never: int
    """The stored value meaning "cannot reach it"."""
    weights: str | None = None
    """An array of how many states each entry stands for (a symmetry class), if any."""


@dataclass(frozen=True)
class CatalogTable:
    """A table of rows in the DuckDB catalog that a plug-in derives from each of its
    stored tables (``Puzzle.catalog_rows``), for its own views (``catalog_views``).  The
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


class TableLookup(Protocol):
    """What the engine lends a plug-in to read its stored tables.  ``table`` is the
    table's path parts under the data directory without ``.zarr`` (``("lucas",
    "tables")``); a missing, stale or damaged table raises the engine's one-line error,
    with ``missing`` (when given) as the advice for a table that was never built."""

    def value(self, table: tuple[str, ...], array: str, index: int,
              missing: str | None = None) -> int: ...

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
        target nobody stored."""
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
    """A puzzle plug-in (see the module docstring for a worked example).

    Required: ``name``, ``summary``, ``example``, ``unit``, ``recognises``, ``variant``,
    ``parse``, ``format``.  A puzzle whose positions can be walked derives from
    ``WalkablePuzzle`` and also gives ``moves`` and ``distance``; ``start_node`` and
    ``at_target`` let a position carry more than its notation (Tricolore remembers the
    last clicked square).
    """

    name: ClassVar[str]
    """The registry key and `--puzzle` value."""
    summary: ClassVar[str]
    """One line for `--help` and listings."""
    example: ClassVar[tuple[str, str]]
    """A start and a target in the notation, for help texts and error messages."""
    unit: ClassVar[str] = "moves"
    """What a path's length counts: moves, clicks..."""
    options: ClassVar[tuple[PuzzleOption, ...]] = ()
    """The options its variants take (Tricolore: ``method``), which the engine mounts on
    every command that takes a position (`--method`) and on the web API (a query
    parameter); the engine refuses any other option given for it."""

    @abstractmethod
    def recognises(self, text: str) -> bool:
        """True when ``text`` looks like this puzzle's notation (cheap: no parsing)."""

    @abstractmethod
    def variant(self, start: str, target: str, options: dict[str, Any]) -> Any:
        """The rule variant a pair of positions (and options such as a method) implies;
        a PuzzleInputError when the options do not apply."""

    @abstractmethod
    def parse(self, variant: Any, text: str) -> Hashable:
        """A position from its notation; a PuzzleInputError naming what is wrong."""

    @abstractmethod
    def format(self, variant: Any, state: Hashable) -> str:
        """The notation of a position (of a walk node: its position part)."""

    def parse_target(self, variant: Any, text: str) -> Hashable:
        """A target from its notation (a plug-in may accept words such as 'cleared')."""
        return self.parse(variant, text)

    def default_target(self, variant: Any) -> str | None:
        """The target a position is played towards when none is given (None: ask)."""
        return None

    def start_node(self, variant: Any, state: Hashable) -> Hashable:
        """The walk node of a position at the start of play."""
        return state

    def at_target(self, variant: Any, node: Hashable, target: Hashable) -> bool:
        """True when the walk has arrived (a start equal to its target has not)."""
        return node == target

    def node_context(self, variant: Any, node: Hashable) -> str:
        """What a walk node carries beyond its position's notation, as text, so that a web
        page can hand the node back (Tricolore: the square clicked last); "" (the default):
        nothing, the notation is the node."""
        return ""

    def resume_node(self, variant: Any, state: Hashable, context: str) -> Hashable:
        """The walk node of position ``state`` with ``context`` from ``node_context`` (""
        is the start of play); a PuzzleInputError when the context is malformed."""
        if context:
            from builder.puzzles import PuzzleInputError, shown

            raise PuzzleInputError(f"context {shown(context)}: {self.name} positions carry "
                                   "none (leave it empty)")
        return self.start_node(variant, state)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        """The distance arrays of one of its stored tables (given the table's attributes),
        for the catalog's generic views; none by default."""
        return []

    catalog_tables: ClassVar[tuple[CatalogTable, ...]] = ()
    """Its own tables in the catalog, filled by ``catalog_rows`` (none by default)."""
    catalog_views: ClassVar[str] = ""
    """SQL creating its views over its ``catalog_tables`` (run after every table is
    filled); the generic views need none."""

    def catalog_rows(self, attributes: dict, read: Callable[[str], Any]
                     ) -> dict[str, list[tuple] | dict[str, Any]]:
        """Rows of its ``catalog_tables`` from one of its stored tables: per catalog table
        name, a list of tuples or a dict of numpy columns (without ``source``).
        ``read(array)`` gives a stored array whole; ``attributes`` are the table's."""
        return {}

    def verify_checks(self, attributes: dict) -> str:
        """What ``verify_sample`` checks of a stored table (given its attributes), for
        `builder verify`'s report line; "" (the default) when it checks nothing."""
        return ""

    def verify_sample(self, attributes: dict, read: Callable[[str], Any], samples: int,
                      rng: Any) -> str | None:
        """`builder verify`'s own check of one of its stored tables at ``samples`` states
        drawn from ``rng`` (numpy Generator), beyond the recurrence the engine checks on
        every breadth-first array: None when it holds, else what is wrong (one line)."""
        return None

    def build_command(self) -> Callable[..., list[TableSpec]] | None:
        """The choices of `builder NAME`: a function whose keyword parameters are typer
        options (``Annotated[int, typer.Option(help=...)] = 4``), returning the specs to
        build; its docstring is the command's help.  Parameters named ``data`` (the data
        directory, a Path), ``tables`` (a ``TableLookup`` over it) and ``executor`` (where
        chunk tasks run; it adds `--workers` and `--scheduler`) are supplied by the engine,
        not options.  None (the default): `builder NAME` builds ``default_tables()``."""
        return None

    def build_commands(self) -> dict[str, Callable[..., list[TableSpec]] | None]:
        """Every `builder` command of the plug-in, by command name (each as
        ``build_command``); by default the one command named after the puzzle."""
        return {self.name: self.build_command()}

    path_words: ClassVar[tuple[str, str, str, str]] = ("position", "move", "states",
                                                        "moves")
    """How `query path` names a path's parts: the text table's position and move
    columns, and the `--json` keys of the positions and the moves (Tricolore: board,
    click, boards, clicks)."""

    move_shown_after: ClassVar[bool] = False
    """True: the text table shows each move on the line of the position it leads to (the
    layout of Lucas' document); False: on the line of the position it is made from."""

    def step_value(self, variant: Any, label: str) -> Any:
        """A move's label as `--json` gives it (Tricolore: the square's number); the
        label itself by default.  The one thing a plug-in may change in a printed path."""
        return label

    def search_path(self, variant: Any, node: Hashable, target: Hashable) -> FoundPath | None:
        """A shortest path found by searching from ``node`` at query time, for when no
        stored table answers (boards too large to table every target): the engine's walk
        and `query distance` fall back to it on a missing table.  None (the default): the
        plug-in offers no search, and the missing table is the answer.  Raises
        UnreachableError when the search proves the target unreachable."""
        return None

    approximation: ClassVar[str] = ""
    """What ``approximate_path`` is, in a few words for the page (Tricolore: "the
    document's 4x4 decomposition"); empty (the default): the plug-in offers none."""

    def approximate_path(self, tables: TableLookup, variant: Any, node: Hashable,
                         target: Hashable) -> FoundPath | None:
        """A path from ``node`` to ``target`` found at once but not shortest in general,
        for where no table answers and the exact search is slow (Tricolore 4×4: the
        document's decomposition over the 4×2 tables).  None (the default): none for this
        variant or node; the engine then walks or searches exactly."""
        return None

    def table_answering(self, variant: Any, start: Hashable, target: Hashable
                        ) -> TableSpec | None:
        """The table that would answer a path from ``start`` to ``target`` by walk, when
        building it on request is worth it (`query path --build-table`: Tricolore 4×4
        targets, seconds each); None (the default): none to offer."""
        return None

    def explain_unreachable(self, variant: Any, start: Hashable, target: Hashable) -> str:
        """Why ``target`` cannot be reached from ``start`` (one line)."""
        return (f"{self.format(variant, target)} cannot be reached from "
                f"{self.format(variant, start)}")

    def variant_fields(self, variant: Any) -> dict[str, Any]:
        """The rule variant as `--json` fields (Tricolore: its method); none by default."""
        return {}

    goal_words: ClassVar[tuple[str, str]] = ("solvable", "solved")
    """How `query solvable` words its answer: "STATE: solvable in N moves" or "can never
    be solved" (ball tubes: clearable, cleared)."""

    figure_names: ClassVar[tuple[str, ...]] = ()
    """The charts ``figures`` draws (none by default)."""

    def figures(self, catalog: Any) -> dict[str, Any]:
        """Its charts (``figure_names``), drawn from the catalog (a read-only DuckDB
        connection): name -> matplotlib ``Figure``.  `query plot NAME` writes them and the
        web serves them at ``/api/NAME/plots/CHART.svg``."""
        return {}

    renderer: ClassVar[str | None] = None
    """Its board on the web page: the file name of an ES module in the plug-in's package
    (served at ``/renderers/NAME.js``); the page offers every puzzle that has one.  The
    module's contract (``title``, ``rules``, ``settings``, ``newGame``, ``draw``...) is
    written at the top of ``query/static/app.js``, which drives it."""

    def web_routes(self, tables: TableLookup) -> Any:
        """Its own JSON endpoints for `query serve`: a FastAPI ``APIRouter`` (fastapi
        imported inside the hook), mounted under ``/api/NAME``; its handlers read through
        ``tables`` and raise the shared one-line errors, which the web answers as 4xx
        ``detail``.  None (the default): no endpoints of its own."""
        return None

    def query_commands(self) -> dict[str, Callable[..., int | None]]:
        """Its own `query` commands, by name: each is mounted as `query NAME COMMAND`,
        except those named ``random`` and ``stats``, mounted as `query random NAME` and
        `query stats NAME` beside the other puzzles' deals and statistics.  A command is
        a function whose keyword parameters are typer arguments and options (its
        docstring is its help) and which prints its answer and returns its exit code
        (None: 0); the engine supplies a parameter named ``tables`` (a ``TableLookup``
        over the `--data` directory it adds) and one named ``catalog`` (a read-only
        DuckDB connection to that directory's catalog, opened for the call).  None by
        default."""
        return {}

    top_level_commands: ClassVar[tuple[str, ...]] = ()
    """Names among ``query_commands`` also mounted as `query NAME` (ball tubes: `query
    solve`); two plug-ins claiming one name is an error at start-up."""

    def default_tables(self) -> list[TableSpec]:
        """The tables `builder tables` (and `make tables`) builds for it through the
        engine's build routine; none by default."""
        return []

    def table(self, identity: dict[str, Any]) -> TableSpec:
        """The spec of one of its tables, from its identity or a stored table's attributes
        (which hold it, among other keys to ignore); a PuzzleInputError when no such table
        can exist."""
        from builder.puzzles import PuzzleInputError

        raise PuzzleInputError(f"{self.name} builds no table through specs")

    def table_for(self, text: str) -> TableSpec:
        """The spec a user names on the command line (`builder build NAME TEXT`), e.g.
        ``4x12`` for four pegs and twelve discs; a PuzzleInputError naming the choices."""
        from builder.puzzles import PuzzleInputError

        raise PuzzleInputError(f"{self.name} takes no table choice")

    @property
    def walkable(self) -> bool:
        """True when its positions can be walked (a ``WalkablePuzzle``)."""
        return isinstance(self, WalkablePuzzle)


class WalkablePuzzle(Puzzle):
    """A puzzle whose positions are walked from its tables: it adds ``moves`` and
    ``distance`` to the notation hooks (every puzzle but the Spot Colour discs)."""

    @abstractmethod
    def moves(self, variant: Any, node: Hashable) -> list[Move]:
        """Every legal move from a walk node."""

    @abstractmethod
    def distance(self, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        """Fewest moves from a walk node to the target, from the tables; None when the
        target cannot be reached from it."""

    def distances(self, tables: TableLookup, variant: Any, nodes: list[Hashable],
                  target: Hashable) -> list[int | None]:
        """``distance`` of many nodes at once (a walk asks for all of a node's
        successors together): override it to read the tables once for all of them."""
        return [self.distance(tables, variant, node, target) for node in nodes]
