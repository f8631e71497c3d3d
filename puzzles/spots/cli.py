"""`query spots solve` and `query random spots`: the Spot Colour plug-in's own query
commands (mounted by the query command line from ``SpotsPuzzle.query_commands``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from builder.contract.cli_options import JsonOption
from puzzles.spots.rules import (
    DOCUMENT_SETS,
    DiscSet,
    SpotsError,
    random_sets,
    solutions_of,
)


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
    as_json: JsonOption = False,
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
    solutions = solutions_of(disc_set)
    _print_spots(disc_set, solutions, as_json)
    return 0 if solutions else 1


def deal(
    *,
    solvable: Annotated[bool, typer.Option("--solvable", help="Only a set with a solution.")]
    = False,
    seed: Annotated[int | None, typer.Option(help="Random seed, 0 or more (default: fresh).",
                                             min=0, max=2**63 - 1)] = None,
    as_json: JsonOption = False,
) -> int:
    """Deal a uniformly random Spot Colour disc set (each disc a random cyclic order),
    optionally one that has a solution, and show its solutions.

    Example: query random spots --solvable --json
    """
    rng_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    for attempt in range(10_000):
        colours = random_sets(1, rng_seed + attempt)[0]
        disc_set = DiscSet(tuple(f"d{i + 1}" for i in range(7)), colours)
        solutions = solutions_of(disc_set)
        if solutions or not solvable:
            _print_spots(disc_set, solutions, as_json)
            return 0
    raise SpotsError("no solvable set in 10,000 random sets")


