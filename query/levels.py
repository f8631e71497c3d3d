"""The positions behind a puzzle's stored distance arrays: the hardest, those at a given
distance, a random one at a distance (a level of a chosen difficulty, with a unique best
first move if asked), and how many lie at each distance.  It works from what a plug-in
declares: ``Cataloguing.catalog_distances`` names a stored table's distance arrays,
``Dealing.entry_positions`` the positions behind their entries, and
``Dealing.table_options`` the options under which those positions are asked about.
The Python API (``query.api``) and `query hardest` / `query deal` answer through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from builder.contract.base import DistanceArray
from builder.contract.errors import MissingTableError, QueryError, shown
from builder.contract.puzzle import Cataloguing, Dealing, Puzzle, Walking
from builder.reader import ColumnChunkedArray
from query.walk import Tables, move_values, question


@dataclass(frozen=True)
class Level:
    """A position of a table, the target its distance is towards, and that distance."""

    position: str
    target: str
    distance: int


@dataclass(frozen=True)
class StoredDistances:
    """One distance array of a stored table, as the catalog names it."""

    parts: tuple[str, ...]
    attributes: dict
    array: DistanceArray

    @property
    def label(self) -> str:
        """How a user names it: the catalog's variant (say ``3x3``)."""
        return self.array.variant

    @property
    def full_label(self) -> str:
        """The variant and what the distances are towards (``block, to solved``)."""
        return f"{self.array.variant}, {self.array.table}"


def stored_distances(tables: Tables, puzzle: Puzzle) -> list[StoredDistances]:
    """Every distance array of the puzzle's stored tables, in the order of their paths."""
    from builder.catalog import table_directories

    found = []
    if not (tables.data_dir / puzzle.name).exists():  # none built: "no table", not unreadable
        return found
    for path in table_directories(tables.data_dir / puzzle.name):
        relative = path.relative_to(tables.data_dir).parts
        parts = (*relative[:-1], relative[-1].removesuffix(".zarr"))
        attributes = dict(tables.require(parts))
        if attributes.get("puzzle") != puzzle.name:
            continue
        found += [StoredDistances(parts, attributes, array)
                  for array in Cataloguing.of(puzzle).catalog_distances(attributes)]
    return found


def choose(tables: Tables, puzzle: Puzzle, table: str | None,
           options: dict[str, str]) -> StoredDistances:
    """The distance array a question names: by its label (``table``), among those whose
    options agree with the ones given; a one-line error naming the choices otherwise."""
    every = stored_distances(tables, puzzle)
    if not every:
        raise MissingTableError(f"no {puzzle.name} table in {tables.looked_in()}: run `make "
                                f"tables` or `builder build {puzzle.name}`")
    agreeing = [found for found in every if _agrees(puzzle, found, options)]
    if table is not None:
        wanted = table.strip().lower()
        agreeing = [found for found in agreeing
                    if wanted in (found.label.lower(), found.full_label.lower())]
    if len(agreeing) == 1:
        return agreeing[0]
    labels = sorted({found.label for found in every}, key=_natural)
    if len({found.full_label for found in agreeing}) > 1 and len(
            {found.label for found in agreeing}) == 1:
        labels = sorted(found.full_label for found in agreeing)
    listed = "; ".join(f"'{label}'" for label in labels[:12])
    more = f" and {len(labels) - 12} more" if len(labels) > 12 else ""
    said = f"no {puzzle.name} table {shown(table)}" if not agreeing else (
        f"{puzzle.name} has {len(agreeing)} distance tables")
    raise QueryError(f"{said}: name one of {listed}{more}")


def _agrees(puzzle: Puzzle, found: StoredDistances, options: dict[str, str]) -> bool:
    stored = Dealing.of(puzzle).table_options(found.attributes)
    return all(str(stored[name]).lower() == str(value).lower()
               for name, value in options.items() if value is not None and name in stored)


def _natural(label: str) -> list:
    """Labels with numbers in numeric order: ``n=10`` after ``n=9``."""
    import re

    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", label)]


def distances_of(tables: Tables, found: StoredDistances) -> np.ndarray:
    """The array whole, as numpy (a 1-D array of distances, ``never`` for unreachable)."""
    if not ColumnChunkedArray(tables.path(found.parts) / found.array.array, vector=None).vector:
        raise QueryError(f"{found.full_label}: a table of every pair of positions; ask "
                         "`query path` or `query moves` about a pair")
    return np.asarray(tables.vector(found.parts, found.array.array).whole())


def weights_of(tables: Tables, found: StoredDistances) -> np.ndarray | None:
    """How many positions each entry stands for (symmetry classes), or None (one each)."""
    if found.array.weights is None:
        return None
    return np.asarray(tables.vector(found.parts, found.array.weights).whole())


def levels(tables: Tables, puzzle: Puzzle, found: StoredDistances, entries: np.ndarray,
           values: np.ndarray) -> list[Level]:
    """The positions behind ``entries`` of the array, with their distances."""
    if len(entries) == 0:
        return []
    named = Dealing.of(puzzle).entry_positions(
        found.attributes, found.array.array, np.asarray(entries, dtype=np.int64),
        lambda array: tables.vector(found.parts, array).whole())
    if named is None:
        raise QueryError(f"{puzzle.name}'s tables do not name the positions behind their "
                         "entries (the plug-in gives no entry_positions)")
    return [Level(position, target, int(values[entry]))
            for (position, target), entry in zip(named, entries)]


def hardest(values: np.ndarray, never: int, count: int) -> np.ndarray:
    """The entries of the ``count`` largest finite distances, farthest first (ties in
    the array's order)."""
    finite = np.flatnonzero(values != never)
    order = np.argsort(-values[finite].astype(np.int64), kind="stable")
    return finite[order[:count]]


def at_distance(values: np.ndarray, distance: int, never: int) -> np.ndarray:
    if distance < 0 or distance == never:
        return np.empty(0, dtype=np.int64)
    return np.flatnonzero(values == distance)


def distribution(values: np.ndarray, never: int, weights: np.ndarray | None
                 ) -> dict[int, int]:
    """Positions at each finite distance (weighted by the classes' sizes)."""
    finite = values != never
    counts = np.bincount(values[finite].astype(np.int64),
                         weights=None if weights is None else weights[finite])
    return {distance: round(n) for distance, n in enumerate(counts) if n}


def optimal_first_moves(tables: Tables, puzzle: Puzzle, options: dict[str, str],
                        level: Level) -> int:
    """How many moves from the level's position keep its distance optimal."""
    variant, position, goal = question(puzzle, options, level.position, level.target, "")
    node = Walking.of(puzzle).start_node(variant, position)
    _, values = move_values(puzzle, tables, variant, node, goal)
    return sum(1 for value in values if value.distance == level.distance - 1)


UNIQUE_TRIES = 2000
"""Positions at the distance tried for a unique best first move before giving up."""


def random_levels(tables: Tables, puzzle: Puzzle, found: StoredDistances,
                  options: dict[str, str], distance: int, count: int, seed: int | None,
                  unique: bool) -> list[Level]:
    """``count`` distinct positions drawn at random at ``distance`` (with ``unique``: each
    with exactly one optimal first move, among the first ``UNIQUE_TRIES`` drawn); a
    one-line error when there are too few."""
    values = distances_of(tables, found)
    candidates = at_distance(values, distance, found.array.never_in(values))
    if len(candidates) == 0:
        largest = int(values[values != found.array.never_in(values)].max(initial=0))
        raise QueryError(f"no {puzzle.name} position of '{found.full_label}' lies {distance} "
                         f"moves away (the farthest lie {largest} away)")
    rng = np.random.default_rng(seed)
    weights = weights_of(tables, found)
    if weights is None:
        order = rng.permutation(candidates)
    else:  # an entry stands for a class of positions: drawn in proportion to its size
        chances = weights[candidates] / weights[candidates].sum()
        order = rng.choice(candidates, size=len(candidates), replace=False, p=chances)
    drawn = order[:UNIQUE_TRIES] if unique else order
    chosen: list[Level] = []
    for start in range(0, len(drawn), 256):  # positions named a batch at a time
        for level in levels(tables, puzzle, found, drawn[start:start + 256], values):
            if not unique or optimal_first_moves(tables, puzzle, options, level) == 1:
                chosen.append(level)
                if len(chosen) == count:
                    return chosen
    what = "with a unique best first move " if unique else ""
    raise QueryError(f"only {len(chosen)} of the {count} positions {what}asked for at "
                     f"distance {distance} among {len(drawn):,} tried of {len(candidates):,}")


def merged_options(puzzle: Puzzle, found: StoredDistances, options: dict[str, str]
                   ) -> dict[str, Any]:
    """The handle's options, completed by those the chosen table is asked under."""
    return {**options, **{name: value for name, value in
                          Dealing.of(puzzle).table_options(found.attributes).items()
                          if options.get(name) is None}}
