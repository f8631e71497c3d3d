"""The plug-in contract, whole: every name a puzzle plug-in may define, declared once here
with its signature, default and docstring (``docs/contract.md`` is this module as a page).

**The puzzle's declaration** (at most 30 names, ``builder.contract.hooks.puzzle_hooks``):
``Puzzle`` (its name and notation, and the one hook ``own_search``) and
``WalkablePuzzle`` (its moves), or ``DensePuzzle`` (positions ranked densely: moves
written once on ranks, ``positions``) or ``KeyedPuzzle`` (positions as keys: ``encode``,
``decode``, ``starts``, ``targets``...), whose tables the engine derives; and from the
parts below, ``summary``, ``example``, ``unit``, ``options``, ``drawing`` and
``renderer``.

**Its own search** (``SEARCH_MEMBERS``): a puzzle the engine cannot derive tables for
keeps them behind ``own_search``, a class derived from ``OwnSearch`` (or from
``DenseSearch`` or ``KeyedSearch``, which hold what the engine derives) that defines
what it needs of the parts' members, each read by one consumer:

==============  =====================================  ==================================
part            read by                                offers
==============  =====================================  ==================================
Describing      listings, ``--help``, errors           summary, example, unit, options
Walking         the walk (``query.walk``)            distances, walk nodes, searches
Building        the build routine, ``builder``         table specs, build commands
Cataloguing     the DuckDB catalog                     distance arrays, tables, views
Dealing         ``query hardest``, ``query deal``, API   the positions of a table's entries
Verifying       ``builder verify``                     the plug-in's own checks
Printing        ``query``                              a path's words, own commands
Charting        ``query plot``, the web                charts from the catalog
Playing         ``query serve``                        renderer, endpoints, hints
==============  =====================================  ==================================

A plug-in offers a hook simply by defining the member, on the puzzle or on its search;
the engine reads it through the part (``Walking.of(puzzle).start_node(...)``): the
plug-in's member, else the part's default, which is handed the puzzle (or its search,
which answers for the puzzle) as its first argument (``puzzle``, never a part).
``builder.contract.hooks`` refuses a plug-in that defines a public member the contract
does not declare, or a search's member on the puzzle.  The value types a hook takes or
gives (``Move``, ``FoundPath``, ``DistanceArray``, ``TableLookup``...) are in
``builder.contract.base``.

A worked example, a row of lamps where a move toggles one lamp and its right-hand
neighbour, with a hypothetical table ``lamps/N.zarr`` holding ``to_dark[state]``:

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
from typing import Any, ClassVar

from builder.contract.base import (
    CatalogTable,
    DistanceArray,
    FoundPath,
    Move,
    PuzzleOption,
    TableLookup,
    stored_distances,
)
from builder.contract.errors import PuzzleInputError, shown
from builder.contract.patterns import PatternSearch
from builder.contract.specs import SparseSearch, TableSpec, kernel_path, run_moves


# ---- the puzzle's declaration: its name, notation and moves ------------------------------

class Puzzle(ABC):
    """The core every puzzle plug-in implements: its name and its notation (see the module
    docstring for a worked example).  A puzzle whose positions can be walked derives from
    ``WalkablePuzzle``, which adds its moves; one whose positions rank densely or have
    keys derives from ``DensePuzzle`` or ``KeyedPuzzle``, and the engine keeps its tables.

    A puzzle declares itself in at most 30 names (``builder.contract.hooks.puzzle_hooks``:
    these, the dense or keyed core's, and a few of the parts' in
    the parts below: its summary, example, unit, options, drawing and
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
    ``OwnSearch``: its tables, how they are read, catalogued,
    dealt and verified, its own commands.  Every such hook is defined there, never on
    the puzzle.  Default: the engine's search (a dense or keyed puzzle's tables derived
    from its declaration; none for a plain puzzle).
    Example: ``own_search = LampsSearch``."""

    def __getattr__(self, name: str) -> Any:
        # the puzzle's own search answers for its members (``self.distance(...)``)
        if name in SEARCH_MEMBERS:
            found = getattr(search_of(self), name)
            return _tables_as_specs(found) if name in TABLE_HOOKS else found
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
        # a part's default run on an own search sees the puzzle through the part too
        self.puzzle = puzzle.puzzle if isinstance(puzzle, OwnSearch) else puzzle
        self.part = part

    def __getattr__(self, name: str) -> Any:
        if name not in self.part.members:
            raise AttributeError(f"{self.part.__name__} has no member {name!r}")
        if name in SEARCH_MEMBERS:
            found = getattr(search_of(self.puzzle), name)
            return _tables_as_specs(found) if name in TABLE_HOOKS else found
        if hasattr(type(self.puzzle), name) or name in vars(self.puzzle):
            return getattr(self.puzzle, name)
        default = self.part.__dict__[name]
        if callable(default):
            return default.__get__(self.puzzle, type(self.puzzle))
        return default


TABLE_HOOKS = frozenset({"table", "default_tables", "table_for", "table_answering"})
"""The hooks that give tables: an own search's ``Table`` reaches the engine as its spec."""


def _tables_as_specs(hook: Callable[..., Any]) -> Callable[..., Any]:
    def specs(*arguments, **keywords):
        return as_spec(hook(*arguments, **keywords))

    return specs


# ---- the parts: what each consumer reads, and a puzzle's own search ----------------------

class Describing(Part):
    """How the engine names, lists and describes a puzzle, and which options its
    variants take (all optional)."""

    summary: ClassVar[str] = ""
    """One line for `--help` and listings.
    Example: ``summary = "Lamps: click a lamp to toggle it and its neighbours"``."""

    example: ClassVar[tuple[str, str]] = ("", "")
    """A start and a target in the notation, for help texts and error messages (a
    target of "" : none shown).
    Example: ``example = ("101.010.101", "000.000.000")``."""

    unit: ClassVar[str] = "moves"
    """What a path's length counts: moves, clicks...
    Example: ``unit = "clicks"``."""

    options: ClassVar[tuple[PuzzleOption, ...]] = ()
    """The options its variants take (say a click ``method``), which the engine mounts on
    every command that takes a position (`--method`) and on the web API (a query
    parameter); the engine refuses any other option given for it.
    Example: ``options = (PuzzleOption("size", "the board's width", ("3", "4")),)``."""

    def variant_fields(puzzle, variant: Any) -> dict[str, Any]:
        """The rule variant as `--json` fields (say its method); none by default.
        Example: ``return {"size": variant}``."""
        return {}

    goal_words: ClassVar[tuple[str, str]] = ("solvable", "solved")
    """How `query solvable` words its answer: "STATE: solvable in N moves" or "can never
    be solved" (ball tubes: clearable, cleared).
    Example: ``goal_words = ("clearable", "cleared")``."""


class Walking(Part):
    """What the walk asks of a walkable puzzle beyond its core (all optional): targets
    in words, walk nodes that carry more than a position, batched distances, and the
    searches where no table answers."""

    def distance(puzzle, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        """Fewest moves from a walk node to the target, read from the puzzle's own tables;
        None when the target cannot be reached from it.  A declared puzzle (dense or
        keyed) never writes it: the engine reads the tables it built.
        Example: ``return tables.distance(("lamps", "tables"), "clicks", node ^ target)``."""
        from builder.contract.errors import MissingTableError

        raise MissingTableError(f"{puzzle.name} reads no tables: its own search gives no "
                                "distance")

    def parse_target(puzzle, variant: Any, text: str) -> Hashable:
        """A target from its notation (a plug-in may accept words such as 'cleared').
        Example: ``return GOAL if text == "cleared" else puzzle.parse(variant, text)``."""
        return puzzle.parse(variant, text)

    def start_node(puzzle, variant: Any, state: Hashable) -> Hashable:
        """The walk node of a position at the start of play.
        Example: ``return (state, None)``  (a position and the last square clicked)."""
        return state

    def at_target(puzzle, variant: Any, node: Hashable, target: Hashable) -> bool:
        """True when the walk has arrived (a start equal to its target has not).
        Example: ``return node[0] == target``."""
        return node == target

    def distances(puzzle, tables: TableLookup, variant: Any, nodes: Iterable[Hashable],
                  target: Hashable) -> Iterable[int | None]:
        """``distance`` of many nodes, in order (a walk asks for all of a node's
        successors together, and stops at the first one nearer the target): override it
        to read the tables once for all of them (a list), or, where one node's read is
        cheap but each chunk costs, to read them lazily (an iterator, as the default
        does).  ``nodes`` is a list where ``moves`` gives a list, and an iterator (each
        successor made as it is asked for) where ``moves`` is lazy.
        Example: ``return table.clicks_of(np.array(nodes))``."""
        return (puzzle.distance(tables, variant, node, target) for node in nodes)

    def search_path(puzzle, variant: Any, node: Hashable, target: Hashable) -> FoundPath | None:
        """A shortest path found by searching from ``node`` at query time, for when no
        stored table answers (boards too large to table every target): the engine's walk
        and `query distance` fall back to it on a missing table.  None (the default): the
        plug-in offers no search, and the missing table is the answer.  Raises
        UnreachableError when the search proves the target unreachable.
        Example: ``return FoundPath(solution, how="linear algebra")``."""
        return None

    def pattern_search(puzzle, tables: TableLookup, variant: Any, node: Hashable,
                       target: Hashable) -> PatternSearch | None:
        """The exact search the engine runs (IDA* on pattern databases,
        ``builder.contract.patterns``) where no stored table answers, tried before
        ``search_path``; None (the default): none for this variant (say its pattern
        tables are not stored: the missing table's error then stands).
        Example: ``return PatternSearch(row, GOAL, tables, step, 4, encode)``."""
        return None

    def approximate_path(puzzle, tables: TableLookup, variant: Any, node: Hashable,
                         target: Hashable) -> FoundPath | None:
        """A path from ``node`` to ``target`` found at once but not shortest in general,
        for where no table answers and the exact search is slow (a solver that combines
        the tables of smaller boards).  None (the default): none for this
        variant or node; the engine then walks or searches exactly.
        Example: ``return FoundPath(top_half + bottom_half, how="two halves")``."""
        return None

    def explain_unreachable(puzzle, variant: Any, start: Hashable, target: Hashable) -> str:
        """Why ``target`` cannot be reached from ``start`` (one line).
        Example: ``return "a board of odd parity never reaches the goal"``."""
        return (f"{puzzle.format(variant, target)} cannot be reached from "
                f"{puzzle.format(variant, start)}")


class Building(Part):
    """A puzzle's tables, as the build routine, `builder` and `make tables` ask for
    them (all optional: a puzzle without tables is walked by its search alone)."""

    def default_tables(puzzle) -> list[TableSpec]:
        """The tables `builder tables` (and `make tables`) builds for it through the
        engine's build routine; none by default.
        Example: ``return [lamps_table(3), lamps_table(4)]``."""
        return []

    def table(puzzle, identity: dict[str, Any]) -> TableSpec:
        """The spec of one of its tables, from its identity or a stored table's attributes
        (which hold it, among other keys to ignore); a PuzzleInputError when no such table
        can exist.
        Example: ``return lamps_table(identity["size"])``."""
        from builder.contract.errors import PuzzleInputError

        raise PuzzleInputError(f"{puzzle.name} builds no table through specs")

    def table_for(puzzle, text: str) -> TableSpec | list[TableSpec]:
        """The spec a user names on the command line (`builder build NAME TEXT`), e.g.
        ``4x12`` for a 4-by-12 variant, or a list of specs built together (a set of
        pattern databases); a PuzzleInputError naming the choices.
        Example: ``return lamps_table(int(text))``  (`builder build lamps 4`)."""
        from builder.contract.errors import PuzzleInputError

        raise PuzzleInputError(f"{puzzle.name} takes no table choice")

    def build_commands(puzzle) -> dict[str, Callable[..., list[TableSpec]] | None]:
        """Its `builder` commands, by command name: each a function whose keyword
        parameters are typer options (``Annotated[int, typer.Option(help=...)] = 4``),
        returning the specs to build; its docstring is the command's help.  Parameters
        named ``data`` (the data directory, a Path), ``tables`` (a ``TableLookup`` over it)
        and ``executor`` (where chunk tasks run; it adds `--workers` and `--scheduler`) are
        supplied by the engine, not options.  By default the one command named after the
        puzzle, with no options (None): `builder NAME` builds ``default_tables()``.
        Example: ``return {"lamps": lambda size=3: [lamps_table(size)]}``  (`builder lamps
        --size 4`)."""
        return {puzzle.name: None}

    def kernel_modules(puzzle) -> tuple[str, ...]:
        """Modules of numba kernels its queries run that no table's build imports (a
        solver, say), each declaring its kernels' signatures so that importing it compiles
        them (``builder.contract.specs.compiled``): `builder tables` and `builder build`
        import them after building its tables, so they are compiled and cached once
        there, not at a user's first query in every process.  Empty by default.
        Example: ``return ("lamps_plugin.solver",)``."""
        return ()

    def table_answering(puzzle, variant: Any, start: Hashable, target: Hashable
                        ) -> TableSpec | None:
        """The table that would answer a path from ``start`` to ``target`` by walk, when
        building it on request is worth it (`query path --build-table`: a table
        towards one target, seconds to build); None (the default): none to offer.
        Example: ``return towards(variant, target)``."""
        return None

    def pieces(puzzle, variant: Any) -> Pieces | None:
        """The variant's positions seen as pieces in places, and its moves as what each
        place takes (``Pieces``): from it the engine derives pattern databases over any
        few of the pieces, builds them (`builder build NAME patterns`,
        `builder build NAME VARIANT:A-B-C`), catalogues and verifies them, and answers
        the way to the goal by IDA* on them where the full table is not stored.  A node
        is then (the piece in each place, the orientation of each place).  None (the
        default): no pattern databases.
        Example: ``return Pieces(("URF", "UFL", ...), moves, orientations=3)``."""
        return None


class Cataloguing(Part):
    """What the DuckDB catalog takes from a puzzle's stored tables (all optional: the
    generic views need only ``catalog_distances``)."""

    def catalog_distances(puzzle, attributes: dict) -> list[DistanceArray]:
        """The distance arrays of one of its stored tables (given the table's attributes),
        for the catalog's generic views: by default those its ``Table`` declared
        (``Table.distances``), which an own search need not override.
        Example: ``return [DistanceArray("3x3", "to dark", "clicks")]``."""
        return declared_distances(attributes)

    catalog_tables: ClassVar[tuple[CatalogTable, ...]] = ()
    """Its own tables in the catalog, filled by ``catalog_rows`` (none by default).
    Example: ``catalog_tables = (CatalogTable("lamps_boards", "size INTEGER, boards BIGINT"),)``."""

    catalog_views: ClassVar[str] = ""
    """SQL creating its views over its ``catalog_tables`` (run after every table is
    filled); the generic views need none.
    Example: ``catalog_views = "CREATE VIEW lamps_summary AS SELECT * FROM lamps_boards"``."""

    def catalog_rows(puzzle, attributes: dict, read: Callable[[str], Any]
                     ) -> dict[str, list[tuple] | dict[str, Any]]:
        """Rows of its ``catalog_tables`` from one of its stored tables: per catalog table
        name, a list of tuples or a dict of numpy columns (without ``source``).
        ``read(array)`` gives a stored array whole; ``attributes`` are the table's.
        Example: ``return {"lamps_boards": [(3, 512), (4, 65536)]}``."""
        return {}


class Dealing(Part):
    """What names the positions behind a stored distance array's entries, read by the
    Python API's ``hardest``, ``positions`` and ``random`` and by `query hardest` and
    `query deal` (all optional: without ``entry_positions`` a puzzle's tables answer
    those with a one-line refusal)."""

    def entry_positions(puzzle, attributes: dict, array: str, entries: Any,
                        read: Callable[[str], Any]) -> list[tuple[str, str]] | None:
        """The (position, target), each in the puzzle's notation, of ``entries`` (numpy
        int64 indices) of the distance array named ``array`` of a stored table with these
        ``attributes`` (one its ``Table`` declared); ``read(array)`` gives one of the
        table's arrays whole.  None (the default): the entries name no positions.
        Example: ``return [(puzzle.format(variant, int(e)), "000.000.000") for e in entries]``."""
        return None

    def table_options(puzzle, attributes: dict) -> dict[str, str]:
        """The options (``Describing.options``) under which a stored table's positions
        are asked about (``{"metric": "cell"}``); none by default.
        Example: ``return {"size": str(attributes["size"])}``."""
        return {}


class Verifying(Part):
    """`builder verify`'s own checks of a puzzle's tables, beyond the engine's (all
    optional)."""

    def verify_checks(puzzle, attributes: dict) -> str:
        """What ``verify_sample`` checks of a stored table (given its attributes), for
        `builder verify`'s report line; "" (the default) when it checks nothing.
        Example: ``return "0 clicks at the dark board; clicks = 1 + the least after a click"``."""
        return ""

    def verify_sample(puzzle, attributes: dict, read: Callable[[str], Any], samples: int,
                      rng: Any) -> str | None:
        """`builder verify`'s own check of one of its stored tables at ``samples`` states
        drawn from ``rng`` (numpy Generator), beyond the recurrence the engine checks on
        every breadth-first array: None when it holds, else what is wrong (one line).
        Example: ``return None if holds(read("clicks"), samples, rng) else "clicks: ..."``."""
        return None


class Printing(Part):
    """How `query` prints a puzzle's paths and which commands of its own it mounts
    (all optional)."""

    path_words: ClassVar[tuple[str, str, str, str]] = ("position", "move", "states",
                                                        "moves")
    """How `query path` names a path's parts: the text table's position and move
    columns, and the `--json` keys of the positions and the moves (say board,
    click, boards, clicks).
    Example: ``path_words = ("board", "click", "boards", "clicks")``."""

    move_shown_after: ClassVar[bool] = False
    """True: the text table shows each move on the line of the position it leads to (the
    layout some documents use); False: on the line of the position it is made from.
    Example: ``move_shown_after = True``."""

    def step_value(puzzle, variant: Any, label: str) -> Any:
        """A move's label as `--json` gives it (say a square's number); the
        label itself by default.  The one thing a plug-in may change in a printed path.
        Example: ``return int(label.split()[-1])``."""
        return label

    def drawing(puzzle, variant: Any, state: Hashable) -> str:
        """A position drawn for the terminal over several lines (`query path --draw`);
        "" (the default): the notation is drawing enough.
        Example: ``return "\\n".join(ROWS)``  (one line a row)."""
        return ""

    def query_commands(puzzle) -> dict[str, Callable[..., int | None]]:
        """Its own `query` commands, by name: each is mounted as `query NAME COMMAND`,
        except those named ``random`` and ``stats``, mounted as `query random NAME` and
        `query stats NAME` beside the other puzzles' deals and statistics.  A command is
        a function whose keyword parameters are typer arguments and options (its
        docstring is its help) and which prints its answer and returns its exit code
        (None: 0); the engine supplies a parameter named ``tables`` (a ``TableLookup``
        over the `--data` directory it adds) and one named ``catalog`` (a read-only
        DuckDB connection to that directory's catalog, opened for the call).  None by
        default.
        Example: ``return {"solve": solve}``  (`query lamps solve`)."""
        return {}

    top_level_commands: ClassVar[tuple[str, ...]] = ()
    """Names among ``query_commands`` also mounted as `query NAME` (ball tubes: `query
    solve`); two plug-ins claiming one name is an error at start-up.
    Example: ``top_level_commands = ("solve",)``."""


class Charting(Part):
    """A puzzle's charts, drawn from the catalog: `query plot NAME` writes them and the
    web serves them (all optional)."""

    figure_names: ClassVar[tuple[str, ...]] = ()
    """The charts ``figures`` draws (none by default).
    Example: ``figure_names = ("clicks_by_size",)``."""

    def figures(puzzle, catalog: Any) -> dict[str, Any]:
        """Its charts (``figure_names``), drawn from the catalog (a read-only DuckDB
        connection): name -> matplotlib ``Figure``.  `query plot NAME` writes them and the
        web serves them at ``/api/NAME/plots/CHART.svg``.
        Example: ``return {"clicks_by_size": chart(catalog.sql("SELECT ..."))}``."""
        return {}


class Playing(Part):
    """A puzzle on the web page and API (all optional): its board, its own endpoints,
    its instant approximate hints, and what a walk node carries beyond its position."""

    renderer: ClassVar[str | None] = None
    """Its board on the web page: the file name of an ES module in the plug-in's package
    (served at ``/renderers/NAME.js``); the page offers every puzzle that has one.  The
    module's contract (``title``, ``rules``, ``settings``, ``newGame``, ``draw``...) is
    written at the top of ``query/static/app.js``, which drives it.
    Example: ``renderer = "renderer.js"``."""

    def web_routes(puzzle, tables: TableLookup) -> Any:
        """Its own JSON endpoints for `query serve`: a FastAPI ``APIRouter`` (fastapi
        imported inside the hook), mounted under ``/api/NAME``; its handlers read through
        ``tables`` and raise the shared one-line errors, which the web answers as 4xx
        ``detail``.  None (the default): no endpoints of its own.
        Example: ``return router``  (a FastAPI ``APIRouter`` with ``/solve``)."""
        return None

    approximation: ClassVar[str] = ""
    """What ``approximate_path`` is, in a few words for the page (say "a
    decomposition into halves"); empty (the default): the plug-in offers none.
    Example: ``approximation = "two halves, each optimal"``."""

    def node_context(puzzle, variant: Any, node: Hashable) -> str:
        """What a walk node carries beyond its position's notation, as text, so that a web
        page can hand the node back (say the square clicked last); "" (the default):
        nothing, the notation is the node.
        Example: ``return str(node[1])``  (the last square clicked)."""
        return ""

    def resume_node(puzzle, variant: Any, state: Hashable, context: str) -> Hashable:
        """The walk node of position ``state`` with ``context`` from ``node_context`` (""
        is the start of play); a PuzzleInputError when the context is malformed.
        Example: ``return (state, int(context) if context else None)``."""
        if context:
            from builder.contract.errors import shown

            raise PuzzleInputError(f"context {shown(context)}: {puzzle.name} positions carry "
                                   "none (leave it empty)")
        return Walking.of(puzzle).start_node(variant, state)


PARTS: tuple[type[Part], ...] = (Describing, Walking, Building, Cataloguing, Dealing,
                                 Verifying, Printing, Charting, Playing)
"""Every optional part of the contract, in the order the table above lists them."""


SEARCH_PARTS: tuple[type[Part], ...] = (Walking, Building, Cataloguing, Dealing, Verifying,
                                        Charting)
"""The parts that are a puzzle's own search, whole: its tables, how they are read,
catalogued, dealt and verified, and the charts drawn from them."""

SEARCH_MEMBERS: frozenset[str] = frozenset().union(
    *(part.members for part in SEARCH_PARTS),
    ("variant_fields", "goal_words", "path_words", "move_shown_after", "step_value",
     "query_commands", "top_level_commands", "web_routes", "approximation", "node_context",
     "resume_node",
     # the engine's derived searches' own (``DenseSearch``, ``KeyedSearch``)
     "stored_distance", "sparse_search", "goal_word", "key_words"))
"""Every hook that belongs to a puzzle's own search rather than to its declaration: a
plug-in defines them on its ``OwnSearch`` class, never on the puzzle."""


@dataclass(frozen=True)
class Pieces:
    """A puzzle's positions as pieces in places, each with an orientation, and its moves as
    data: what the engine derives pattern databases from (HOG2's ``PermutationPDB``).  A
    pattern tracks a few pieces, their places and orientations, the others unseen; as the
    moves carry the pieces it sees whatever the others do, its abstract states are a
    smaller puzzle of their own, searched breadth-first, and its value at a position
    never exceeds the position's distance.  Piece ``i``'s home is place ``i``.
    Example: ``Pieces(("URF", "UFL", ...), (TURN_U, TURN_U2, ...), orientations=3,
    fixed=(6,), patterns=(("URF", "UFL", "ULB", "UBR"),))``."""

    names: tuple[str, ...]
    """Each place's name, and so its piece's (at most 16)."""
    moves: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    """Each move, in the order the puzzle's ``moves`` lists them: the place each place
    takes its piece from, and the orientation that piece gains there.  Every move's
    undoing is one of them."""
    orientations: int = 1
    """How many orientations a piece has (1: none)."""
    fixed: tuple[int, ...] = ()
    """Places no move touches (left out of a pattern's ranking)."""
    patterns: tuple[tuple[str, ...], ...] = ()
    """The default patterns, each the names of the pieces it tracks: `make tables`
    builds them, and the exact search takes the largest of their values."""
    redundant: tuple[tuple[int, int], ...] = ()
    """Move pairs never searched in sequence (two turns of one face)."""

    def __post_init__(self):
        places = len(self.names)
        if not 0 < places <= 16 or len(set(self.names)) != places:
            raise PuzzleInputError(f"pieces: 1 to 16 distinct names, not {places}")
        moves = {(tuple(taken), tuple(g % self.orientations for g in gained))
                 for taken, gained in self.moves}
        for taken, gained in moves:
            if sorted(taken) != list(range(places)) or len(gained) != places:
                raise PuzzleInputError("pieces: every move takes each place's piece from "
                                       "a distinct place, with an orientation gained at each")
            undone = [0] * places, [0] * places
            for place, source in enumerate(taken):
                undone[0][source] = place
                undone[1][source] = -gained[place] % self.orientations
            if (tuple(undone[0]), tuple(undone[1])) not in moves:
                # the tables search from the goal over the moves themselves
                raise PuzzleInputError("pieces: every move's undoing is one of the moves")

    @property
    def movable(self) -> tuple[int, ...]:
        """The places the moves carry pieces among."""
        return tuple(place for place in range(len(self.names)) if place not in self.fixed)


@dataclass(frozen=True)
class Table:
    """One table of a puzzle's own search, as the puzzle sees it: what it is, how its
    arrays are made and which of them are distances.  The engine decides the rest: where
    it is stored (``data/PUZZLE/NAME.zarr``), what makes a stored copy current (the
    puzzle's name and ``options``), how its arrays are chunked, the value its distances
    store for "never" and how the engine reads it, and the catalog's rows of its distance
    arrays.  Own searches return these from ``table``, ``default_tables``, ``table_for``,
    ``table_answering`` and their build commands.
    Example: ``Table("lamps", "sizes", {"largest": 5}, make=lambda progress: {"boards":
    count_boards(5)}, about="boards[size]: boards of that size")``."""

    puzzle: str
    """The puzzle's name (its folder under the data directory)."""
    name: str
    """The table's name within the puzzle's folder; '/' makes sub-folders
    (``"patterns/half/URF-UFL-DFR"``)."""
    options: dict[str, Any] = field(default_factory=dict)
    """What makes it this table (stored with it; a stored table with other options is
    built again).  ``own_search.table(options)`` gives the table back from them."""
    make: Callable[..., Any] | None = None
    """Its arrays, made by the puzzle: ``make(progress)`` (``make(progress, tables)`` when
    ``reads_tables``) returns ``{array: numpy array}``, or ``(arrays, facts)`` where the
    work also yields small JSON facts kept beside them (a per-size summary)."""
    searched: dict[str, Any] = field(default_factory=dict)
    """Arrays the engine's breadth-first search fills, by name: each a
    ``BreadthFirstSearch`` over ranked states from the puzzle's moves."""
    distances: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Its arrays of distances the catalog counts, by array: (variant, towards) as a user
    would name them (``("4x2 hybrid", "all pairs")``), and a third entry naming the array
    of how many positions each entry stands for, where entries are symmetry classes.
    Unsigned distances store "never" as the engine writes it; signed ones as -1."""
    about: str = ""
    """How to read its arrays (kept with the table)."""
    described: dict[str, Any] = field(default_factory=dict)
    """Descriptive facts kept with it (the rules in words...), not what makes it
    current."""
    reads_tables: bool = False
    """True for a table derived from other stored tables (``make(progress, tables)``)."""
    read_whole: bool = False
    """True where its arrays are only ever read whole: one chunk each."""
    tasks: Any = None
    """Arrays made block by block by resumable chunk tasks (``ChunkTasks``), instead of
    ``make``."""
    folded: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Arrays folded from a searched one: (source, width), the least of every run of
    ``width`` entries (a pattern database's estimate over abstract states with a part its
    look-up ignores)."""
    ascending: tuple[str, ...] = ()
    """Arrays of keys in ascending order, looked up by value: the engine keeps beside each
    the first key of every chunk (``NAME_index``), so that ``tables.positions(table,
    NAME, keys, NAME + "_index")`` finds keys reading one chunk of each, and `builder
    verify` checks both."""

    def spec(self) -> TableSpec:
        """The engine's storage of this table (``builder.contract.specs.TableSpec``)."""
        from builder.contract.specs import Fold

        attributes = dict(self.described)
        if self.distances:
            attributes["distances"] = [[array, *labels]
                                       for array, labels in self.distances.items()]
        if self.ascending:
            attributes["ascending"] = list(self.ascending)
        chunk = WHOLE_CHUNK if self.read_whole else OWN_CHUNK
        make = self.make
        compute = None if make is None else _computed_by(make, self.ascending, chunk)
        return TableSpec(
            (self.puzzle, *self.name.split("/")), {"puzzle": self.puzzle, **self.options},
            dict(self.searched),
            folds={array: Fold(*fold) for array, fold in self.folded.items()},
            compute=compute, reads_tables=self.reads_tables, tasks=self.tasks,
            attributes=attributes, encoding=self.about, chunk=chunk,
            chunks={f"{name}{INDEX_SUFFIX}": WHOLE_CHUNK for name in self.ascending})


INDEX_SUFFIX = "_index"
"""The name of the first keys of every chunk of an ascending array, after the array's."""


WHOLE_CHUNK = 1 << 40
"""Entries per chunk of a table read whole: one chunk per array."""
OWN_CHUNK = 1 << 18
"""Entries per chunk of an own search's table that is looked up entry by entry: a walk
reads a chunk a position, so the same size as the tables the engine derives."""


def _computed_by(make: Callable[..., Any], ascending: tuple[str, ...] = (),
                 chunk: int = OWN_CHUNK) -> Callable[..., Any]:
    """``Table.make`` as the build routine calls a spec's ``compute``, with the index of
    every ascending array: its first key of every chunk of ``chunk`` entries."""
    from builder.contract.specs import Computed

    def compute(*arguments):
        made = make(*arguments)
        arrays, facts = made if isinstance(made, tuple) else (made, {})
        arrays = dict(arrays)
        for name in ascending:
            arrays[f"{name}{INDEX_SUFFIX}"] = arrays[name][::chunk].copy()
        return Computed(arrays, facts)

    return compute


def as_spec(table: Any) -> Any:
    """A ``Table`` as the engine's spec; a spec (a derived search's), a list of either, or
    None as it is (a list converted item by item)."""
    if isinstance(table, list):
        return [as_spec(item) for item in table]
    return table.spec() if isinstance(table, Table) else table


def declared_distances(attributes: dict) -> list[DistanceArray]:
    """The distance arrays a stored own table declared (``Table.distances``)."""
    return [DistanceArray(variant, towards, array, weights=rest[0] if rest else None)
            for array, variant, towards, *rest in attributes.get("distances", ())]


class OwnSearch:
    """A puzzle's own search, for the puzzles the engine cannot derive tables for from
    their declaration (click tables searched by a method of their own, a ball solver, a
    pattern database): everything beyond the declared puzzle, behind the one hook
    ``own_search``.  Its members are the ``SEARCH_MEMBERS`` of the parts above, each with
    the part's default; a subclass defines those it needs.  It is made with the puzzle and
    hands every other name to it, so its methods write ``self.parse(...)`` or
    ``self.name`` as the puzzle's own would.

    A dense or keyed puzzle that only adds to what the engine derives (more tables, say
    pattern databases) derives from ``DenseSearch`` or ``KeyedSearch`` instead and
    calls ``super()``.
    Example: ``class LampsSearch(OwnSearch): def distance(self, tables, variant, node,
    target): ...``, then ``own_search = LampsSearch`` on the puzzle."""

    def __init__(self, puzzle: Any):
        self.puzzle = puzzle

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        part = _SEARCH_DEFAULT.get(name)
        if part is not None:
            default = part.__dict__[name]
            return default.__get__(self, type(self)) if callable(default) else default
        return getattr(self.puzzle, name)


_SEARCH_DEFAULT: dict[str, type[Part]] = {
    name: part for part in PARTS for name in part.members if name in SEARCH_MEMBERS}


def search_of(puzzle: Any) -> OwnSearch:
    """The puzzle's own search (its ``own_search`` class, made once per puzzle)."""
    if not hasattr(type(puzzle), "own_search"):
        return puzzle  # not a plug-in (a test's stand-in): it answers for itself
    made = vars(puzzle).get("_own_search")
    if made is None:
        made = (type(puzzle).own_search or OwnSearch)(puzzle)
        vars(puzzle)["_own_search"] = made
    return made


def offers(puzzle: Any, name: str) -> bool:
    """Whether a plug-in gives a hook of its own (on its own search, for a search's
    member) rather than leaving the part's default."""
    if name in SEARCH_MEMBERS:
        return hasattr(type(search_of(puzzle)), name)
    return hasattr(type(puzzle), name)


# ---- puzzles whose positions rank densely ------------------------------------------------

@dataclass(frozen=True)
class StoredDistance:
    """Where one distance sits: ``spec.searches[array][index]`` (``spec`` a ``Table`` of
    the puzzle's own search, kept as the engine's spec, or the engine's spec)."""

    spec: TableSpec
    array: str
    index: int
    build: str = ""
    """What follows ``builder build NAME`` to make the table (the missing table's
    advice names it beside ``make tables``)."""
    searched_when_missing: bool = False
    """A table nobody need store (towards a chosen target): read when stored, else
    searched now, in memory, and kept for the next call."""

    def __post_init__(self):
        object.__setattr__(self, "spec", as_spec(self.spec))


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
        return _dense_engine().stored_distance(self.puzzle, variant, node, target)

    def table(self, identity: dict[str, Any]) -> TableSpec:
        """A variant's table (``{"variant": NAME}``, with ``"target"`` for one towards
        another target).
        Example: ``puzzle.table({"variant": "4x5"})``."""
        return _dense_engine().table(self.puzzle, identity)

    def default_tables(self) -> list[TableSpec]:
        """The table of every variant in ``table_variants``.
        Example: ``[puzzle.table({"variant": "3x3"}), ...]``."""
        return _dense_engine().default_tables(self.puzzle)

    def table_for(self, text: str) -> TableSpec | list[TableSpec]:
        """A variant's name, a choice of the puzzle's one option (every variant with it),
        or ``[CHOICE:]POSITION``: a table towards POSITION.
        Example: ``puzzle.table_for("4:1010.0101.1010.0101")``."""
        return _dense_engine().table_for(self.puzzle, text)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        """A table's one array, towards its target.
        Example: ``[DistanceArray("4x5", "to 0000.0000.0000.0000.0000", "moves")]``."""
        return _dense_engine().catalog_distances(self.puzzle, attributes)

    def entry_positions(self, attributes: dict, array: str, entries: Any,
                        read: Any) -> list[tuple[str, str]] | None:
        """Each entry's position, towards the table's target.
        Example: ``[("1010.0101.1010", "0000.0000.0000")]``."""
        return _dense_engine().entry_positions(self.puzzle, attributes, array, entries, read)

    def table_options(self, attributes: dict) -> dict[str, str]:
        """The choice of the puzzle's one option that gives the table's variant.
        Example: ``{"rows": "4"}``."""
        return _dense_engine().table_options(self.puzzle, attributes)

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


def _engine_of(search: type, module: str) -> Any:
    """The engine's implementation of a derived search's hooks, which ``module`` puts on
    ``search`` when it is imported (the registry imports it)."""
    if search._engine_hooks is None:
        raise TypeError(f"a {search.__name__}'s tables are the engine's: load puzzles "
                        f"through builder.registry (which imports {module})")
    return search._engine_hooks


def _dense_engine() -> Any:
    return _engine_of(DenseSearch, "builder.dense_tables")


DensePuzzle.own_search = DenseSearch


# ---- puzzles whose positions are keys ----------------------------------------------------

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
        return _keyed_engine().table(self.puzzle, identity)

    def sparse_search(self, variant: Any, plain: bool = False,
                      starts: list[Hashable] | None = None) -> SparseSearch:
        """The search of a variant's table; ``plain``: from the plain-Python moves even
        where a kernel exists (the same table, slower); ``starts``: from these positions
        instead of the variant's own.
        Example: ``puzzle.sparse_search("block", plain=True)``."""
        return _keyed_engine().sparse_search(self.puzzle, variant, plain, starts)

    def default_tables(self) -> list[TableSpec]:
        """The table of every variant in ``table_variants``.
        Example: ``[puzzle.table({"variant": "block"})]``."""
        return _keyed_engine().default_tables(self.puzzle)

    def table_for(self, text: str) -> TableSpec:
        """A variant's name: its table; ``[VARIANT:][LABEL=]START``: a table of every
        position reachable from START, in the puzzle's ``levels`` folder.
        Example: ``puzzle.table_for("block:mine=START")``."""
        return _keyed_engine().table_for(self.puzzle, text)

    def distance(self, tables: TableLookup, variant: Any, node: Hashable,
                 target: Hashable) -> int | None:
        """The fewest moves to the goal, read from the variant's table or a level's.
        Example: ``puzzle.distance(tables, "block", position, GOAL)``."""
        return _keyed_engine().distance(self.puzzle, tables, variant, node, target)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        """The table's one distance array, towards the goal word.
        Example: ``[DistanceArray("block", "to solved", "distance")]``."""
        return _keyed_engine().catalog_distances(self.puzzle, attributes)

    def entry_positions(self, attributes: dict, array: str, entries: Any,
                        read: Any) -> list[tuple[str, str]]:
        """The positions of the table's entries, each towards the goal word.
        Example: ``[("ABBC.ABBC.DEEF.DGHF.I__J", "solved")]``."""
        return _keyed_engine().entry_positions(self.puzzle, attributes, array, entries, read)

    def table_options(self, attributes: dict) -> dict[str, str]:
        """The puzzle's one option set to the table's variant, if it has one.
        Example: ``{"metric": "block"}``."""
        return _keyed_engine().table_options(self.puzzle, attributes)

    def pattern_search(self, tables: TableLookup, variant: Any, node: Hashable,
                       target: Hashable) -> PatternSearch | None:
        """IDA* to the goal on the pattern tables the engine derives from ``pieces``,
        where they are stored; None for a puzzle that declares no pieces.
        Example: ``puzzle.pattern_search(tables, "half", position, GOAL)``."""
        return _keyed_engine().pattern_search(self.puzzle, tables, variant, node, target)


def _keyed_engine() -> Any:
    return _engine_of(KeyedSearch, "builder.keyed_tables")


KeyedPuzzle.own_search = KeyedSearch
