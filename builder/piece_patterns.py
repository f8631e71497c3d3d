"""Pattern databases derived from a puzzle's ``Pieces`` (HOG2's ``PermutationPDB``): the
table of a pattern (a few pieces tracked, the others unseen) as a breadth-first search
over its abstract states, the names a user gives them on the command line, and IDA* on
them towards the goal (``builder.contract.patterns.PatternSearch``).  The moves are the
puzzle's declared data, compiled into the engine's one pair of kernels
(``builder/piece_kernels.py``); no plug-in writes a kernel, a rank or a table for them.

A pattern's table lives at ``data/PUZZLE/patterns/VARIANT/A-B-C.zarr``; its one array,
``estimate``, holds at every abstract state the fewest moves that bring its pieces home.
The default patterns' values combine by their maximum (each is admissible alone).
"""

from __future__ import annotations

import re
from math import perm
from typing import Any

from builder.contract.errors import PuzzleInputError, shown
from builder.contract.patterns import PatternSearch, PatternTable, arrangement_rank
from builder.contract.puzzle import Pieces, Table, offers
from builder.contract.specs import BreadthFirstSearch

FOLDER = "patterns"
ARRAY = "estimate"


def pieces_of(puzzle: Any, variant: Any) -> Pieces | None:
    """The puzzle's pieces for a variant, where its search declares them."""
    from builder.contract.puzzle import Building

    if not offers(puzzle, "pieces"):
        return None
    return Building.of(puzzle).pieces(variant)


def named(pieces: Pieces, text: str) -> tuple[str, ...]:
    """A pattern's pieces from ``A-B-C`` (any case): distinct pieces the moves carry, at
    most all but one of them (the last one's place follows from the others'); a one-line
    error naming them otherwise."""
    by_upper = {name.upper(): name for name in pieces.names}
    found = tuple(by_upper.get(part, part) for part in text.strip().upper().split("-"))
    movable = [pieces.names[place] for place in pieces.movable]
    most = len(movable) - 1
    if not (0 < len(found) <= most and len(set(found)) == len(found)
            and set(found) <= set(movable)):
        fixed = [pieces.names[place] for place in pieces.fixed]
        raise PuzzleInputError(
            f"pattern {shown(text)}: 1 to {most} distinct pieces of {', '.join(movable)} "
            f"joined by '-'" + (f" (not {', '.join(fixed)}: no move carries it)" if fixed
                                else ""))
    return found


def _weights(pieces: Pieces, tracked: int) -> list[int]:
    return [perm(len(pieces.movable) - 1 - number, tracked - 1 - number)
            for number in range(tracked)]


def pattern_rank(pieces: Pieces, tracked: tuple[int, ...], node: Any) -> int:
    """The index of what a pattern tracking pieces ``tracked`` (numbers) sees of ``node``
    (the piece in each place, the orientation of each place) in its table."""
    places, orientations = node
    slots = [pieces.movable.index(places.index(piece)) for piece in tracked]
    digits = 0
    for piece in tracked:
        digits = pieces.orientations * digits + orientations[places.index(piece)]
    return (arrangement_rank(slots, len(pieces.movable)) * pieces.orientations ** len(tracked)
            + digits)


def pattern_table(puzzle: Any, variant: Any, names: tuple[str, ...]) -> Table:
    """The table of the pattern tracking the pieces ``names`` in ``variant``."""
    from builder.piece_kernels import piece_neighbours

    pieces = pieces_of(puzzle, variant)
    if pieces is None:
        raise PuzzleInputError(f"{puzzle.name} declares no pieces: it has no pattern tables")
    names = named(pieces, "-".join(names))
    tracked = tuple(pieces.names.index(name) for name in names)
    slot = {place: number for number, place in enumerate(pieces.movable)}
    goes = [slot[taken.index(place)] for taken, _ in pieces.moves for place in pieces.movable]
    gained = [gain[place] for _, gain in pieces.moves for place in pieces.movable]
    states = perm(len(pieces.movable), len(tracked)) * pieces.orientations ** len(tracked)
    home = (tuple(range(len(pieces.names))), (0,) * len(pieces.names))
    variant_name = puzzle.variant_name(variant)
    shown_names = "-".join(names)
    search = BreadthFirstSearch(
        states, (pattern_rank(pieces, tracked, home),), piece_neighbours, len(pieces.moves),
        parameters=(pieces.orientations, len(tracked), pieces.orientations ** len(tracked),
                    len(pieces.movable), len(pieces.moves), *goes, *gained,
                    *_weights(pieces, len(tracked))))
    return Table(
        puzzle.name, f"{FOLDER}/{variant_name}/{shown_names}",
        {"variant": variant_name, "pieces": list(names)}, searched={ARRAY: search},
        distances={ARRAY: (f"{variant_name} pattern {','.join(names)}", "to solved")},
        about=f"{ARRAY}[rank]: fewest moves ({variant_name}) that bring pieces {shown_names} "
              "home, the others unseen; rank = their places (numbered among the places the "
              "moves carry pieces among) as an arrangement in lexicographic order, times "
              f"{pieces.orientations}^{len(tracked)}, plus their orientations as base-"
              f"{pieces.orientations} digits (the first piece's most significant)")


def default_tables(puzzle: Any) -> list[Table]:
    """The default patterns of every variant the puzzle tabulates."""
    return [table for variant in puzzle.table_variants()
            for table in variant_tables(puzzle, variant)]


def variant_tables(puzzle: Any, variant: Any) -> list[Table]:
    pieces = pieces_of(puzzle, variant)
    return [pattern_table(puzzle, variant, names)
            for names in (pieces.patterns if pieces else ())]


PATTERN_CHOICE = re.compile(r"(?:(?P<variant>[^:]+):)?(?P<pattern>patterns|[^:\s]+)")


def tables_named(puzzle: Any, text: str) -> list[Table] | None:
    """What `builder build NAME TEXT` names among the pattern tables: ``patterns`` (every
    variant's default patterns), ``VARIANT:patterns``, or one pattern ``[VARIANT:]A-B-C``
    (in every variant when none is named); None where the text names none of them."""
    found = PATTERN_CHOICE.fullmatch(text.strip())
    if found is None or not any(pieces_of(puzzle, v) for v in puzzle.table_variants()):
        return None
    chosen = found.group("variant")
    if chosen is not None:
        try:
            variants = [puzzle.variant_named(chosen.strip())]
        except PuzzleInputError:
            return None
    else:
        variants = list(puzzle.table_variants())
    pattern = found.group("pattern")
    if pattern.lower() == "patterns":
        return [table for variant in variants for table in variant_tables(puzzle, variant)]
    pieces = pieces_of(puzzle, variants[0])
    upper = {name.upper() for name in pieces.names} if pieces else set()
    if not set(pattern.upper().split("-")) & upper:
        return None  # not a pattern's pieces: another kind of table choice
    return [pattern_table(puzzle, variant, named(pieces_of(puzzle, variant), pattern))
            for variant in variants]


def search_for(tables: Any, puzzle: Any, variant: Any, node: Any,
               patterns: list[tuple[str, ...]] | None = None) -> PatternSearch | None:
    """IDA* from ``node`` to the goal on the variant's default pattern tables (or those
    of ``patterns``), each a group of its own (the search takes the largest value); None
    where the puzzle declares no pieces or one of the tables is not stored."""
    from builder.piece_kernels import piece_step

    pieces = pieces_of(puzzle, variant)
    chosen = patterns or (pieces.patterns if pieces else ())
    if not chosen:
        return None
    declared = [pattern_table(puzzle, variant, names) for names in chosen]
    variant_name = puzzle.variant_name(variant)
    stored = tables.stored((puzzle.name, FOLDER, variant_name))
    if not all(table.name.split("/")[-1] in stored for table in declared):
        return None
    seen = [tuple(pieces.names.index(name) for name in table.options["pieces"])
            for table in declared]
    places = len(pieces.names)
    most = max(len(tracked) for tracked in seen)
    slot = {place: number for number, place in enumerate(pieces.movable)}
    parameters = [places, pieces.orientations, len(pieces.moves), len(seen), most,
                  *(place for taken, _ in pieces.moves for place in taken),
                  *(gain for _, gained in pieces.moves for gain in gained),
                  *(slot.get(place, -1) for place in range(places))]
    for tracked in seen:
        padding = [0] * (most - len(tracked))
        parameters += [len(tracked), pieces.orientations ** len(tracked), *tracked, *padding,
                       *_weights(pieces, len(tracked)), *padding]
    home = (*range(places), *(0,) * places)
    places_now, orientations = node
    return PatternSearch(
        start=(*places_now, *orientations,
               *(pattern_rank(pieces, tracked, node) for tracked in seen)),
        goal=home,
        patterns=tuple(PatternTable(table, ARRAY, group, f"{variant_name}:patterns"
                                    if patterns is None else
                                    f"{variant_name}:{table.name.split('/')[-1]}")
                       for group, table in enumerate(declared)),
        step=piece_step, moves=len(pieces.moves),
        encode=lambda position: (*position[0], *position[1]),
        parameters=tuple(parameters), indices_at=2 * places, redundant=pieces.redundant)
