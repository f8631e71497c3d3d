"""A dense puzzle's tables, derived by the engine from what it declares
(``builder.contract.puzzle.DensePuzzle``: how many ranks a variant's positions take, its
moves written once, the variants `make tables` builds and the target each is played
towards): one table a variant, ``NAME/VARIANT``, whose array ``moves`` holds the fewest
moves from every rank to the variant's ``default_target``, filled by the generic
breadth-first kernel over the plug-in's moves; a table towards any other target on
request (``NAME/VARIANT/TARGET``, searched when asked where nobody stored it); where a
distance sits, the catalog's view of each table and the positions behind its entries.

``DenseSearch``'s defaults of these hooks hand the work to ``DenseTables`` below, which
this module puts in place when it is imported (the registry imports it), for a plug-in
that declares ``positions``; one that does not says where its distances are stored
itself (``stored_distance`` and the building hooks)."""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

from builder.contract.base import DistanceArray
from builder.contract.errors import PuzzleInputError, shown
from builder.contract.puzzle import (
    DensePuzzle,
    DenseSearch,
    Describing,
    StoredDistance,
    declared_distances,
)
from builder.contract.specs import BreadthFirstSearch, TableSpec

ARRAY = "moves"
"""The array of every derived dense table."""


def declares_positions(puzzle: DensePuzzle) -> bool:
    """True when the plug-in leaves its tables to the engine (it declares ``positions``)."""
    return type(puzzle).positions is not DensePuzzle.positions


def path_part(text: str) -> str:
    """A name as a part of a table's path: letters, digits, '.', '_' and '-' kept, any run
    of other characters one '-'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "-"


class DenseTables:
    """What the engine makes of a dense puzzle's declarations (see the module's
    docstring): each method is called with the puzzle as ``self``."""

    def stored_distance(self, variant: Any, node: Hashable, target: Hashable
                        ) -> StoredDistance:
        if not declares_positions(self):
            raise TypeError(f"{self.name}: give positions (the engine then keeps the tables) "
                            "or stored_distance")
        node, target = self.stored_question(variant, node, target)
        goal = self.parse(variant, self.default_target(variant))
        if target == goal:
            return StoredDistance(_spec(self, variant), ARRAY, node,
                                  build=_choice_prefix(self, variant).rstrip(":")
                                  or self.variant_name(variant))
        text = self.format(variant, target)
        return StoredDistance(_spec(self, variant, text), ARRAY, node,
                              build=f"{_choice_prefix(self, variant)}{text}",
                              searched_when_missing=True)

    def table(self, identity: dict[str, Any]) -> TableSpec:
        if not declares_positions(self):
            raise PuzzleInputError(f"{self.name} builds no table through specs")
        variant = self.variant_named(str(identity.get("variant", "")))
        target = identity.get("target")
        return _spec(self, variant, None if target is None else str(target))

    def default_tables(self) -> list[TableSpec]:
        if not declares_positions(self):
            return []
        return [_spec(self, variant) for variant in self.table_variants()]

    def table_for(self, text: str) -> TableSpec | list[TableSpec]:
        """A variant's name: its table; a choice of the puzzle's one option: the table of
        every variant with that choice; ``[CHOICE:]POSITION``: a table towards POSITION."""
        if not declares_positions(self):
            raise PuzzleInputError(f"{self.name} takes no table choice")
        text = text.strip()
        named = {self.variant_name(variant).lower(): variant for variant in self.table_variants()}
        if text.lower() in named:
            return _spec(self, named[text.lower()])
        option = _only_option(self)
        if option is not None and text in option.choices:
            return [_spec(self, variant) for variant in self.table_variants()
                    if _choice(self, variant) == text]
        choice, colon, position = text.partition(":")
        if not colon or option is None or choice not in option.choices:
            choice, position = "", text
        elif not position.strip():
            raise PuzzleInputError(f"{shown(text)}: {choice}:POSITION, a {self.name} table "
                                   "towards POSITION, needs the position after the colon")
        options = {option.name: choice} if option is not None and choice else {}
        try:
            variant = self.variant(position, position, options)
            target = self.format(variant, self.parse(variant, position))
        except PuzzleInputError as not_a_position:
            variants = self.table_variants()
            example = f" such as {self.variant_name(variants[-1])!r}" if variants else ""
            choices = (f", a --{option.name} ({' or '.join(option.choices)}: every table of "
                       "it)" if option else "")
            raise PuzzleInputError(
                f"{shown(text)} is neither a {self.name} table's name{example}{choices}, nor "
                f"[CHOICE:]POSITION: {not_a_position}") from None
        return _spec(self, variant, target)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        variant = _stored_variant(self, attributes)
        if variant is None:  # a table of the plug-in's own shape declares its distances
            return declared_distances(attributes)
        target = attributes.get("target") or self.default_target(variant)
        return [DistanceArray(self.variant_name(variant), f"to {target}", ARRAY)]

    def entry_positions(self, attributes: dict, array: str, entries: Any,
                        read: Any) -> list[tuple[str, str]] | None:
        variant = _stored_variant(self, attributes)
        if variant is None:
            return None
        target = attributes.get("target") or self.default_target(variant)
        return [(self.format(variant, int(entry)), target) for entry in entries]

    def table_options(self, attributes: dict) -> dict[str, str]:
        option = _only_option(self)
        variant = _stored_variant(self, attributes)
        if variant is None or option is None:
            return {}
        choice = _choice(self, variant)
        return {option.name: choice} if choice else {}


def _spec(puzzle: DensePuzzle, variant: Any, target: str | None = None) -> TableSpec:
    """The table of ``variant`` towards its default target, or towards ``target``."""
    name = puzzle.variant_name(variant)
    goal = puzzle.default_target(variant) if target is None else target
    written = puzzle.move_kernel(variant)
    if written is None:
        raise TypeError(f"{puzzle.name}: a table of the engine's needs move_kernel")
    search = BreadthFirstSearch(puzzle.positions(variant), (puzzle.parse(variant, goal),),
                                written.function, written.most,
                                parameters=written.parameters, wide=None)
    parts = (puzzle.name, path_part(name)) + (() if target is None else (path_part(target),))
    identity = {"puzzle": puzzle.name, "variant": name,
                **({} if target is None else {"target": target})}
    return TableSpec(parts, identity, {ARRAY: search},
                     encoding=f"{ARRAY}[rank]: fewest {Describing.of(puzzle).unit} to {goal}; "
                              f"rank: {puzzle.name}'s number of a position ({name})")


def _stored_variant(puzzle: DensePuzzle, attributes: dict) -> Any:
    """The variant of a stored table of the engine's (None: the table is not one, say one
    an earlier layout left behind)."""
    if not declares_positions(puzzle) or "variant" not in attributes:
        return None
    try:
        return puzzle.variant_named(str(attributes["variant"]))
    except PuzzleInputError:
        return None


def _only_option(puzzle: DensePuzzle):
    options = Describing.of(puzzle).options
    return options[0] if len(options) == 1 else None


def _choice(puzzle: DensePuzzle, variant: Any) -> str:
    """The choice of the puzzle's one option that gives ``variant`` ("" where none does)."""
    option = _only_option(puzzle)
    goal = puzzle.default_target(variant)
    for choice in option.choices if option is not None else ():
        try:
            if puzzle.variant(goal, goal, {option.name: choice}) == variant:
                return choice
        except PuzzleInputError:
            continue
    return ""


def _choice_prefix(puzzle: DensePuzzle, variant: Any) -> str:
    choice = _choice(puzzle, variant)
    return f"{choice}:" if choice else ""


DenseSearch._engine_hooks = DenseTables
