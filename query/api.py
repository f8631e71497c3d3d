"""The Python API: a data directory's tables for use from Python, modelled on
python-chess's ``chess.syzygy``: ``open_tablebase(directory)`` gives a ``Tablebase``;
``tablebase.puzzle(name, **options)`` gives one puzzle's answers, in its own notation.
Its examples, run by the tests, are in docs/python.md (this module names no puzzle).
`query`'s path, moves, distance, solvable, hardest and random print what this module
answers: the command line finds the puzzle from the notation and prints.

A question no stored table answers raises ``MissingTableError`` (a ``KeyError``, as
python-chess's); the ``get_`` form returns None instead.  Everything is answered the way
`query` answers it: by the engine's walk over the tables (each distance checked against
its successors), or the plug-in's search where no table holds the question.  The
questions that may search (``answer``, ``distance``, ``get_distance``, ``path``,
``moves``, ``position``) take a budget for it, as `query`'s ``--budget`` and
``--seconds``: ``budget=`` nodes and ``seconds=``, shared by all the question's
searches; one that runs out raises ``SearchLimitError`` (a ``QueryError``) whose
``lower_bound`` is the fewest moves it proved.
"""

from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from builder.command_line import default_data
from builder.contract.errors import (
    MissingTableError,
    PuzzleInputError,
    QueryError,
    SearchLimitError,
    UnreachableError,
)
from builder.contract.puzzle import Describing, Walking, walkable
from builder.contract.work import search_budget
from query import levels
from query.levels import Level
from query.walk import (
    Tables,
    answered_distance,
    checked_notation,
    distance_between,
    move_values,
    question,
    walk,
    walk_node,
)

__all__ = ["Answer", "Game", "Level", "MissingTableError", "Position", "PuzzleInputError",
           "PuzzleTablebase", "SearchLimitError", "Solution", "Step", "Tablebase",
           "UnreachableError", "open_tablebase"]


def _whole(value: Any, name: str, least: int, optional: bool = False) -> int | None:
    """``value`` as an int if it is a whole number of at least ``least`` (None too, where
    ``optional``); a one-line ``PuzzleInputError`` naming the argument otherwise (a bool
    is no number here, a numpy integer is)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise PuzzleInputError(f"{name}={_shown(value)}: give a whole number, {least} or "
                               "more" + (", or None" if optional else ""))
    return int(value)


def _text(value: Any, name: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise PuzzleInputError(f"{name}={_shown(value)}: give a string"
                               + (", or None" if optional else ""))
    return value


def _shown(value: Any) -> str:
    """An argument as an error shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}..."


@dataclass(frozen=True)
class Step:
    """One move of a path or of a position's moves: how it is named, the position after
    it (in the puzzle's notation), and for a move, the fewest moves left after it (None:
    never)."""

    move: str
    position: str
    distance: int | None = None


@dataclass(frozen=True)
class Solution:
    """A shortest path (``optimal`` False for an approximate solver's): the start, each
    step, and how it was found (table walk or search)."""

    start: str
    steps: tuple[Step, ...]
    how: str
    optimal: bool
    target: str = ""
    details: dict = field(default_factory=dict, repr=False, compare=False)
    """What the finder adds (a decomposition solver's halves and rotation)."""
    nodes: tuple = field(default=(), repr=False, compare=False)
    """The walk's nodes, start first (a node may carry more than its position)."""
    variant: Any = field(default=None, repr=False, compare=False)
    """The plug-in's variant the path was found in."""

    @property
    def length(self) -> int:
        return len(self.steps)

    @property
    def moves(self) -> list[str]:
        return [step.move for step in self.steps]

    @property
    def lower_bound(self) -> int | None:
        """The fewest moves proved: the length of a shortest path; for one not proved
        shortest, what the search proved before its limit (None: nothing searched)."""
        return self.length if self.optimal else self.details.get("lower_bound")


@dataclass(frozen=True)
class Answer:
    """The fewest moves between two positions (None: never), with both in the puzzle's
    notation and the variant's fields (say the method)."""

    start: str
    target: str
    distance: int | None
    fields: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Position:
    """A position's fewest moves to the target (None: never) and every legal move from
    it, each with the fewest moves left after it."""

    state: str
    target: str
    distance: int | None
    moves: tuple[Step, ...]

    @property
    def optimal_moves(self) -> list[Step]:
        """The moves that keep the optimum."""
        return [step for step in self.moves if self.distance is not None
                and step.distance == self.distance - 1]


class Game:
    """A game in progress (``PuzzleTablebase.game``): a walk node, which is a position
    and whatever the puzzle carries with it (say the square clicked last: its
    ``context``), towards a target; what the page plays through."""

    def __init__(self, handle: PuzzleTablebase, state: str, target: str, context: str):
        from builder.contract.errors import PuzzleInputError
        from builder.contract.puzzle import Playing

        puzzle = self.puzzle = handle.plugin
        self._tables = handle._tables
        checked_notation(state, target)
        self.variant = puzzle.variant(state, target, handle.options)
        if not target:
            target = puzzle.default_target(self.variant) or ""
            if not target:
                raise PuzzleInputError(f"{puzzle.name} needs a target: e.g. "
                                       f"{Describing.of(puzzle).example[1]}")
        self.position = puzzle.parse(self.variant, state)
        self.target = Walking.of(puzzle).parse_target(self.variant, target)
        self.node = Playing.of(puzzle).resume_node(self.variant, self.position, context)

    def at_target(self, node=None) -> bool:
        return Walking.of(self.puzzle).at_target(self.variant, self.node if node is None
                                                 else node, self.target)

    def distance(self, node=None, search: bool = True) -> tuple[int | None, str, str]:
        """A node's fewest moves to the target (default: the game's node) and what
        answered it: ``(distance, "table" | "search" | "none", why none answered)``."""
        node = self.node if node is None else node
        if self.at_target(node):
            return 0, "table", ""
        return answered_distance(self.puzzle, self._tables, self.variant, node, self.target,
                                 search)

    def path(self, approximate: bool = False, best_so_far: bool = False):
        """A shortest path from the game's node (``approximate``: the plug-in's instant
        solver first, where it has one; ``best_so_far``: within the caller's
        ``search_budget``, as ``PuzzleTablebase.path``): the engine's ``FoundPath`` of
        walk nodes."""
        from builder.contract.base import FoundPath

        if self.at_target():
            return FoundPath((self.node,), ())
        return walk_node(self.puzzle, self._tables, self.variant, self.node, self.target,
                         self.position, approximate=approximate, best_so_far=best_so_far)


class PuzzleTablebase:
    """One puzzle's answers from the tables, in its notation, with the options its
    variants take (say ``method="hybrid"``)."""

    def __init__(self, tablebase: Tablebase, name: str, options: dict[str, str]):
        from builder import registry

        for option, value in options.items():
            _text(value, option, optional=True)
        self.plugin = registry.by_name(_text(name, "name"))
        if not walkable(self.plugin):  # refused when asked for, not at the first question
            raise QueryError(f"{self.plugin.name} has no positions to walk")
        self.options = registry.check_options(self.plugin, options)
        self.name = self.plugin.name
        self._tables = tablebase.tables

    def __repr__(self) -> str:
        return f"<PuzzleTablebase {self.name} {self.options or ''}>".replace(" >", ">")

    def _game(self, start: str, target: str | None) -> tuple:
        """(variant, position, goal) of a question, the goal defaulting to the puzzle's."""
        example = Describing.of(self.plugin).example
        return question(self.plugin, self.options, start, target,
                        f"give a target: {self.name} has no single goal (e.g. {example[0]} "
                        f"to {example[1]})")

    def answer(self, start: str, target: str | None = None, *, budget: int | None = None,
               seconds: float | None = None) -> Answer:
        """The fewest moves from ``start`` to ``target`` (default: the puzzle's goal), None
        where the target can never be reached; ``MissingTableError`` when no table (nor
        search) answers; ``SearchLimitError`` when the search runs past ``budget`` nodes
        or ``seconds`` (None: no limit)."""
        variant, position, goal = self._game(start, target)
        form = self.plugin.format
        with search_budget(budget, seconds):
            found = distance_between(self.plugin, self._tables, variant, position, goal)
        return Answer(form(variant, position), form(variant, goal), found,
                      Describing.of(self.plugin).variant_fields(variant))

    def distance(self, start: str, target: str | None = None, *, budget: int | None = None,
                 seconds: float | None = None) -> int:
        """Fewest moves from ``start`` to ``target`` (default: the puzzle's goal);
        ``MissingTableError`` when no table (nor search) answers, ``UnreachableError``
        when the target can never be reached, ``SearchLimitError`` when the search runs
        past ``budget`` nodes or ``seconds``.
        """
        found = self.answer(start, target, budget=budget, seconds=seconds).distance
        if found is None:
            raise UnreachableError(self.unreachable(start, target))
        return found

    def unreachable(self, start: str, target: str | None = None) -> str:
        """Why ``target`` can never be reached from ``start``, in one line."""
        variant, position, goal = self._game(start, target)
        return Walking.of(self.plugin).explain_unreachable(variant, position, goal)

    def get_distance(self, start: str, target: str | None = None, *,
                     budget: int | None = None, seconds: float | None = None) -> int | None:
        """``distance``, or None where no table answers or the target is unreachable (a
        search past its budget still raises ``SearchLimitError``: its bound is known).
        """
        try:
            return self.distance(start, target, budget=budget, seconds=seconds)
        except (MissingTableError, UnreachableError):
            return None

    def path(self, start: str, target: str | None = None, *, budget: int | None = None,
             seconds: float | None = None, optimal: bool = False) -> Solution:
        """A shortest path from ``start`` to ``target`` (default: the puzzle's goal), as
        `query path` finds it (a search within ``budget`` nodes and ``seconds``, else
        ``SearchLimitError``).  Where the plug-in also has an instant approximate solver,
        a search that runs out answers the best path it has instead, ``optimal`` False
        and ``lower_bound`` the fewest moves it proved; ``optimal=True`` asks for a proved
        shortest path or ``SearchLimitError``."""
        variant, position, goal = self._game(start, target)
        if not isinstance(optimal, bool):
            raise PuzzleInputError(f"optimal={_shown(optimal)}: give True or False")
        with search_budget(budget, seconds):
            found = walk(self.plugin, self._tables, variant, position, goal,
                         best_so_far=not optimal)
        form = self.plugin.format
        return Solution(form(variant, found.nodes[0]),
                        tuple(Step(label, form(variant, node))
                              for label, node in zip(found.labels, found.nodes[1:])),
                        found.how, found.optimal, form(variant, goal), dict(found.details),
                        tuple(found.nodes), variant)

    def moves(self, state: str, target: str | None = None, *, budget: int | None = None,
              seconds: float | None = None) -> list[Step]:
        """Every legal move from ``state`` with the fewest moves left after it (None:
        never), as `query moves` lists them (searched within ``budget`` and ``seconds``).
        """
        return list(self.position(state, target, budget=budget, seconds=seconds).moves)

    def game(self, state: str, target: str = "", context: str = "") -> Game:
        """A game in progress at ``state`` (with the ``context`` the puzzle carries, see
        ``Playing.node_context``) towards ``target`` (empty: the puzzle's goal)."""
        return Game(self, state, target, context)

    def position(self, state: str, target: str | None = None, *, budget: int | None = None,
                 seconds: float | None = None) -> Position:
        """``state``'s fewest moves to ``target`` and every legal move with the fewest
        moves left after it (what `query moves` prints); where a search answers, one per
        move, all within ``budget`` nodes and ``seconds`` (a ``SearchLimitError`` for a
        move's search says which move: its ``after``)."""
        variant, position, goal = self._game(state, target)
        node = Walking.of(self.plugin).start_node(variant, position)
        with search_budget(budget, seconds):
            here, values = move_values(self.plugin, self._tables, variant, node, goal)
        form = self.plugin.format
        return Position(form(variant, node), form(variant, goal), here,
                        tuple(Step(value.label, form(variant, value.node), value.distance)
                              for value in values))

    # ---- a table's positions: the hardest, those at a distance, levels to play --------

    def tables(self) -> list[str]:
        """The stored distance tables of the puzzle, as ``table=`` names them (the
        catalog's variant and what the distances are towards)."""
        return [found.full_label for found in levels.stored_distances(self._tables,
                                                                      self.plugin)]

    def _table(self, table: str | None) -> levels.StoredDistances:
        return levels.choose(self._tables, self.plugin, _text(table, "table", optional=True),
                             self.options)

    def array(self, table: str | None = None):
        """A stored distance table as a numpy array: entry i is the fewest moves of the
        position the table ranks i (the table's ``never`` value where unreachable)."""
        return levels.distances_of(self._tables, self._table(table))

    def distribution(self, table: str | None = None) -> dict[int, int]:
        """How many positions lie at each distance (unreachable ones left out)."""
        found = self._table(table)
        values = levels.distances_of(self._tables, found)
        return levels.distribution(values, found.array.never_in(values),
                                   levels.weights_of(self._tables, found))

    def count(self, table: str | None = None, distance: int | None = None) -> int:
        """How many positions a table holds that reach its target (or lie at
        ``distance``)."""
        distance = _whole(distance, "distance", 0, optional=True)
        spread = self.distribution(table)
        return spread.get(distance, 0) if distance is not None else sum(spread.values())

    def hardest(self, n: int = 10, table: str | None = None) -> list[Level]:
        """The ``n`` positions farthest from the table's target, farthest first."""
        n = _whole(n, "n", 0)
        found = self._table(table)
        values = levels.distances_of(self._tables, found)
        return levels.levels(self._tables, self.plugin, found,
                             levels.hardest(values, found.array.never_in(values), n), values)

    def positions(self, distance: int, table: str | None = None,
                  limit: int | None = None) -> list[str]:
        """The positions ``distance`` moves from the table's target (the first ``limit``
        of them, in the table's order)."""
        distance = _whole(distance, "distance", 0)
        limit = _whole(limit, "limit", 0, optional=True)
        found = self._table(table)
        values = levels.distances_of(self._tables, found)
        entries = levels.at_distance(values, distance, found.array.never_in(values))[:limit]
        return [level.position for level in levels.levels(self._tables, self.plugin, found,
                                                           entries, values)]

    def deal(self, distance: int, count: int = 1, seed: int | None = None,
             unique: bool = False, table: str | None = None) -> list[Level]:
        """``count`` distinct positions drawn at random ``distance`` moves from the
        table's target (``unique``: each with exactly one best first move)."""
        distance, count = _whole(distance, "distance", 0), _whole(count, "count", 1)
        seed = _whole(seed, "seed", 0, optional=True)
        if not isinstance(unique, bool):
            raise PuzzleInputError(f"unique={_shown(unique)}: give True or False")
        found = self._table(table)
        return levels.random_levels(self._tables, self.plugin, found,
                                    levels.merged_options(self.plugin, found, self.options),
                                    distance, count, seed, unique)

    def random(self, distance: int, seed: int | None = None, unique: bool = False,
               table: str | None = None) -> Level:
        """One position drawn at random ``distance`` moves from the table's target: a
        level of a chosen difficulty."""
        return self.deal(distance, 1, seed, unique, table)[0]


class Tablebase:
    """The tables of one data directory (``open_tablebase``)."""

    def __init__(self, directory: Path, tables: Tables | None = None):
        from builder import registry

        self.directory = Path(directory)
        registry.use_data(self.directory)  # the puzzles its files define are known too
        self.tables = tables if tables is not None else Tables(self.directory)
        """The tables' reader (a server lends its own, with its caches)."""
        self._catalog = None

    def __repr__(self) -> str:
        return f"<Tablebase {self.directory}>"

    def puzzle(self, name: str, **options: str) -> PuzzleTablebase:
        """One puzzle's answers; ``options`` are its variants' (``method="hybrid"``)."""
        return PuzzleTablebase(self, name, options)

    def sql(self, query: str, parameters: list | None = None):
        """A DuckDB relation over the catalog's views (``table_summary``,
        ``distance_distribution``, each puzzle's own), read-only."""
        _text(query, "query")
        if self._catalog is None:
            from builder.reader import open_catalog

            self._catalog = open_catalog(self.directory)
        return self._catalog.sql(query, params=parameters)

    def close(self) -> None:
        """Closes the catalog, if a query opened it (nothing else is held open)."""
        if self._catalog is not None:
            self._catalog.close()
            self._catalog = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception) -> None:
        self.close()


def open_tablebase(directory: str | Path | None = None) -> Tablebase:
    """The tables in ``directory`` (default: ``TABLEBASE_DATA``, else ``./data`` where it
    exists, else the project's data folder, as the command lines choose)."""
    if directory is not None and not isinstance(directory, str | os.PathLike):
        raise PuzzleInputError(f"directory={_shown(directory)}: give a folder's path")
    return Tablebase(Path(directory) if directory is not None else default_data())
