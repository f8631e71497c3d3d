"""The plug-in contract, whole: every hook a puzzle plug-in may define, declared once here
with its signature, default and docstring, grouped by the consumer that reads it.

The core (``builder.contract.base``): ``Puzzle`` (``name``, ``recognises``, ``variant``,
``parse``, ``format``, ``default_target``) and ``WalkablePuzzle`` (``moves``,
``distance``), or ``builder.contract.keyed.KeyedPuzzle`` for a puzzle whose tables are
sparse.  Then the optional parts, each read by one consumer:

==============  =====================================  ==================================
part            read by                                offers
==============  =====================================  ==================================
Describing      listings, ``--help``, errors           summary, example, unit, options
Walking         the walk (``query.walk``)            targets, walk nodes, searches
Building        the build routine, ``builder``         table specs, build commands
Cataloguing     the DuckDB catalog                     distance arrays, tables, views
Dealing         ``query hardest``, ``query deal``, API   the positions of a table's entries
Verifying       ``builder verify``                     the plug-in's own checks
Printing        ``query``                              a path's words, own commands
Charting        ``query plot``, the web                charts from the catalog
Playing         ``query serve``                        renderer, endpoints, hints
==============  =====================================  ==================================

A puzzle declares itself with a few of these (``summary``, ``example``, ``unit``,
``options``, ``drawing``, ``renderer``); the rest (``SEARCH_MEMBERS``) belong to a
puzzle's own search, an ``OwnSearch`` (below) that a puzzle the engine cannot derive
tables for names with its one hook ``own_search``.  A plug-in offers a hook simply by
defining the member, on the puzzle or on its search; the engine reads it through the
part (``Walking.of(puzzle).start_node(...)``): the plug-in's member, else the part's
default, which is handed the puzzle (or its search, which answers for the puzzle) as its
first argument (``puzzle``, never a part).  ``builder.contract.hooks`` refuses a plug-in
that defines a public member the contract does not declare, or a search's on the puzzle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, ClassVar

from builder.contract.base import (
    CatalogTable,
    DistanceArray,
    FoundPath,
    Part,
    PuzzleOption,
    TableLookup,
)
from builder.contract.errors import PuzzleInputError
from builder.contract.patterns import PatternSearch
from builder.contract.specs import TableSpec


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


class Cataloguing(Part):
    """What the DuckDB catalog takes from a puzzle's stored tables (all optional: the
    generic views need only ``catalog_distances``)."""

    def catalog_distances(puzzle, attributes: dict) -> list[DistanceArray]:
        """The distance arrays of one of its stored tables (given the table's attributes),
        for the catalog's generic views; none by default.
        Example: ``return [DistanceArray("3x3", "to dark", "clicks")]``."""
        return []

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

    def entry_positions(puzzle, attributes: dict, distances: DistanceArray, entries: Any,
                        read: Callable[[str], Any]) -> list[tuple[str, str]] | None:
        """The (position, target), each in the puzzle's notation, of ``entries`` (numpy
        int64 indices) of ``distances``, one of the arrays ``catalog_distances`` names for
        a stored table with these ``attributes``; ``read(array)`` gives one of the
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
