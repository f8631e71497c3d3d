"""`query spots solve` and `query random spots`: the Spot Colour plug-in's own query
commands (mounted by the query command line from ``SpotsPuzzle.query_commands``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from builder.puzzles.spots.rules import DOCUMENT_SETS, DiscSet, SpotsError, describe, random_sets


def _spots_solutions(disc_set) -> list[dict]:
    from builder.puzzles.spots.search import solve as search

    return [describe(disc_set.names, int(row[0]), row[1:], disc_set.colours[int(row[0])])
            for row in search(disc_set.colours)]


def _print_spots(disc_set, solutions: list[dict], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps({"discs": disc_set.to_mapping(), "solutions": solutions}))
        return
    for name, spots in disc_set.to_mapping().items():
        typer.echo(f"{name}: {' '.join(spots)}")
    typer.echo(f"{len(solutions)} solution{'s' if len(solutions) != 1 else ''}")
    for solution in solutions:
        around = ", ".join(f"{colour}: {disc}" for colour, disc in
                           solution["by_centre_colour"].items())
        typer.echo(f"centre {solution['centre']}; satellites by centre spot: {around}")


def solve(
    *,
    file: Annotated[Path | None, typer.Argument(help="JSON: {\"discs\": {\"d1\": [6 colours "
                                                 "clockwise], ...}}")] = None,
    set_number: Annotated[int | None, typer.Option("--set", help="The document's set 1 or 2.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> int:
    """Every solution of a disc set (rotations of the whole assembly counted once): the
    centre disc and which disc sits at each centre spot. Exits 1 when there is none.

    Example: query spots solve --set 1 --json
    """
    if (file is None) == (set_number is None):
        raise SpotsError("give a disc-set FILE or --set 1/2 (one of them)")
    if set_number is not None:
        if set_number not in DOCUMENT_SETS:
            raise SpotsError(f"the document has sets 1 and 2, not {set_number}")
        disc_set = DiscSet.from_mapping(DOCUMENT_SETS[set_number])
    else:
        disc_set = DiscSet.from_file(file)
    solutions = _spots_solutions(disc_set)
    _print_spots(disc_set, solutions, as_json)
    return 0 if solutions else 1


def deal(
    *,
    solvable: Annotated[bool, typer.Option("--solvable", help="Only a set with a solution.")]
    = False,
    seed: Annotated[int | None, typer.Option(help="Random seed, 0 or more (default: fresh).",
                                             min=0, max=2**63 - 1)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> int:
    """Deal a uniformly random Spot Colour disc set (each disc a random cyclic order),
    optionally one that has a solution, and show its solutions.

    Example: query random spots --solvable --json
    """
    rng_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    for attempt in range(10_000):
        colours = random_sets(1, rng_seed + attempt)[0]
        disc_set = DiscSet(tuple(f"d{i + 1}" for i in range(7)), colours)
        solutions = _spots_solutions(disc_set)
        if solutions or not solvable:
            _print_spots(disc_set, solutions, as_json)
            return 0
    raise SpotsError("no solvable set in 10,000 random sets")


LETTERS = "kbgrwy"
"""A colour per letter in the web's disc notation (k: black), in COLOURS order."""


def _disc_set_of(text: str) -> DiscSet:
    """Seven discs of six letters (clockwise) joined by '.', e.g. the web's notation."""
    from builder.puzzles import shown

    discs = text.strip().lower().split(".")
    if len(discs) != 7 or any(len(disc) != 6 or set(disc) - set(LETTERS) for disc in discs):
        raise SpotsError(f"disc set {shown(text)}: 7 discs of 6 letters from {LETTERS} "
                         "(k black, b blue, g green, r red, w white, y yellow) joined by '.'")
    from builder.puzzles.spots.rules import COLOURS

    return DiscSet.from_mapping({f"d{i + 1}": [COLOURS[LETTERS.index(c)] for c in disc]
                                 for i, disc in enumerate(discs)})


def _notation(disc_set: DiscSet) -> str:
    return ".".join("".join(LETTERS[int(c)] for c in row) for row in disc_set.colours)


def contacts(disc_set: DiscSet, centre: int, satellites: list[int]) -> list[bool]:
    """Whether each of the six contacts matches: the satellite at centre spot k touches the
    centre with its spot of the centre's colour there, and its spot before that (its l-spot)
    meets the spot after it (r-spot) of the satellite at spot k+1 (the module docstring's
    geometry)."""
    from builder.puzzles.spots.rules import neighbour_tables

    left, right = neighbour_tables(disc_set.colours)
    around = disc_set.colours[centre]
    return [bool(left[satellites[k], around[k]] == right[satellites[(k + 1) % 6],
                                                        around[(k + 1) % 6]])
            for k in range(6)]


def routes():
    """The endpoints under /api/spots: deal a set, check a placement, solve a set."""
    from fastapi import APIRouter, Query

    router = APIRouter()
    notation = Query(max_length=60, description="7 discs of 6 letters (kbgrwy) clockwise, "
                                                 "joined by '.'")

    @router.get("/deal", summary="A disc set to play")
    def deal_set(number: int | None = Query(None, ge=1, le=2, description="the document's "
                                            "set 1 or 2 (else a random set)"),
                 solvable: bool = Query(True, description="a random set with a solution"),
                 seed: int | None = Query(None, ge=0, lt=2**62)):
        """The document's set 1 or 2, or a uniformly random set (with a solution unless
        SOLVABLE is false)."""
        if number is not None:
            return {"discs": _notation(DiscSet.from_mapping(DOCUMENT_SETS[number]))}
        rng_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        for attempt in range(10_000):
            disc_set = DiscSet(tuple(f"d{i + 1}" for i in range(7)),
                               random_sets(1, rng_seed + attempt)[0])
            if not solvable or _spots_solutions(disc_set):
                return {"discs": _notation(disc_set)}
        raise SpotsError("no solvable set in 10,000 random sets")

    @router.get("/check", summary="Check a placement")
    def check(discs: str = notation,
              centre: int = Query(ge=1, le=7, description="the centre disc, 1 to 7"),
              satellites: str = Query(max_length=20, description="the discs at the centre's "
                                      "spots 1 to 6 (clockwise), e.g. 2,3,4,5,6,7")):
        """Which of the six contacts between neighbouring satellites match."""
        disc_set = _disc_set_of(discs)
        try:
            around = [int(d) - 1 for d in satellites.split(",")]
        except ValueError:
            around = []
        if sorted(around + [centre - 1]) != list(range(7)):
            raise SpotsError("place each disc once: a centre and six different satellites, "
                             "numbered 1 to 7")
        matches = contacts(disc_set, centre - 1, around)
        return {"solved": all(matches), "contacts": matches}

    @router.get("/solve", summary="Every solution of a set")
    def solutions(discs: str = notation):
        """Every solution (rotations of the assembly counted once): the centre disc and the
        discs at its spots 1 to 6, numbered 1 to 7."""
        from builder.puzzles.spots.search import solve as search

        disc_set = _disc_set_of(discs)
        return {"solutions": [{"centre": int(row[0]) + 1,
                               "satellites": [int(d) + 1 for d in row[1:]]}
                              for row in search(disc_set.colours)]}

    return router
