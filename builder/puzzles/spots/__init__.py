"""Spot Colour discs (document 002): seven discs, each with six coloured spots in a
clockwise cyclic order; one disc in the centre and six satellites around it.

Geometry (worked out from the document's constraint check): the centre's spots, read
clockwise, are c1..c6; the satellite at spot ck turns its own spot of colour ck to
the centre.  Reading that satellite clockwise, l is the spot before ck and r the spot
after it.  Neighbouring satellites touch where the l-spot of the satellite at ck meets
the r-spot of the satellite at c(k+1), cyclically (c7 = c1), and those colours must
match.  A disc holds each colour once, so a satellite's orientation is forced and a
solution is the centre disc plus the assignment centre colour -> satellite disc; the
assembly's rotations give the same assignment, so each is counted once.

Pure numpy; the exhaustive solver is ``search`` (numba, imported only to solve).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import numpy as np
import typer

from builder.puzzles import PuzzleInputError, shown
from builder.puzzles.base import CatalogTable, Puzzle
from builder.puzzles.specs import TableSpec

COLOURS = ("black", "blue", "green", "red", "white", "yellow")
DISCS = 7
SPOTS = 6


DOCUMENT_SETS = {
    1: {"d1": ["blue", "yellow", "red", "white", "black", "green"],
        "d2": ["yellow", "red", "white", "green", "black", "blue"],
        "d3": ["white", "blue", "green", "red", "black", "yellow"],
        "d4": ["white", "red", "green", "yellow", "black", "blue"],
        "d5": ["black", "white", "green", "yellow", "blue", "red"],
        "d6": ["black", "red", "white", "blue", "yellow", "green"],
        "d7": ["red", "white", "blue", "black", "yellow", "green"]},
    2: {"d1": ["black", "red", "white", "blue", "yellow", "green"],
        "d2": ["green", "blue", "yellow", "red", "white", "black"],
        "d3": ["red", "white", "blue", "black", "yellow", "green"],
        "d4": ["black", "yellow", "white", "blue", "green", "red"],
        "d5": ["blue", "green", "red", "black", "yellow", "white"],
        "d6": ["white", "green", "black", "blue", "yellow", "red"],
        "d7": ["black", "yellow", "green", "red", "white", "blue"]},
}
"""The two disc sets of the document (inputs, clockwise): the example and the mixed-up one."""


MAX_DISC_SET_BYTES = 100_000


class SpotsError(PuzzleInputError):
    """A malformed disc set."""


@dataclass(frozen=True)
class DiscSet:
    names: tuple[str, ...]
    colours: np.ndarray  # (7, 6) colour indices, clockwise

    @classmethod
    def from_mapping(cls, discs: dict[str, list[str]]) -> DiscSet:
        if len(discs) != DISCS:
            raise SpotsError(f"a set has {DISCS} discs, not {len(discs)}")
        rows = []
        for name, spots in discs.items():
            if (not isinstance(spots, list) or len(spots) != SPOTS
                    or not all(isinstance(spot, str) for spot in spots)
                    or sorted(spots) != sorted(COLOURS)):
                raise SpotsError(
                    f"disc {name!r} must show each of {', '.join(COLOURS)} once, clockwise; "
                    f"got {shown(json.dumps(spots))}"
                )
            rows.append([COLOURS.index(colour) for colour in spots])
        return cls(tuple(discs), np.array(rows, dtype=np.int8))

    @classmethod
    def from_file(cls, path: Path) -> DiscSet:
        try:
            with open(path, "rb") as source:  # read at most the limit: a device (/dev/zero)
                raw = source.read(MAX_DISC_SET_BYTES + 1)  # has no size to check first
        except OSError as error:
            raise SpotsError(f"cannot read disc set {path}: {error.strerror or error}") from None
        if len(raw) > MAX_DISC_SET_BYTES:
            raise SpotsError(f"disc set {path} has more than {MAX_DISC_SET_BYTES:,} bytes: a "
                             "set of 7 discs is a small JSON file")
        try:
            data = json.loads(raw.decode())
        except ValueError as error:
            reason = str(error).splitlines()[0][:100]
            raise SpotsError(f"cannot read disc set {path}: {reason}") from None
        discs = data.get("discs", data) if isinstance(data, dict) else None
        if not isinstance(discs, dict):
            raise SpotsError(f"{path}: expected {{\"discs\": {{\"d1\": [6 colours], ...}}}}")
        return cls.from_mapping(discs)

    def to_mapping(self) -> dict[str, list[str]]:
        return {name: [COLOURS[c] for c in row] for name, row in zip(self.names, self.colours)}


def neighbour_tables(colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """left[d, c], right[d, c]: the colours before and after colour c on disc d, clockwise."""
    left = np.empty((len(colours), SPOTS), dtype=np.int8)
    right = np.empty_like(left)
    for disc, spots in enumerate(colours):
        for position, colour in enumerate(spots):
            left[disc, colour] = spots[(position - 1) % SPOTS]
            right[disc, colour] = spots[(position + 1) % SPOTS]
    return left, right


def random_sets(count: int, seed: int) -> np.ndarray:
    """(count, 7, 6) uniformly random disc sets: each disc a random cyclic order."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, DISCS, SPOTS)), axis=2).astype(np.int8)


def describe(names, centre: int, satellites: np.ndarray, centre_colours) -> dict:
    """A solution as the CLI prints it: the centre disc and which disc sits at each of its
    spots (by the spot's colour)."""
    return {"centre": names[centre],
            "by_centre_colour": {COLOURS[int(c)]: names[int(satellites[k])]
                                 for k, c in enumerate(centre_colours)}}


RANDOM_SETS = 1_000_000
"""Random disc sets `make tables` solves (spots_random_summary's sample)."""
SEED = 2026
BLOCK = 100_000
"""Sets dealt per seed: block b is ``random_sets(BLOCK, seed + b * BLOCK)``."""

VIEWS = """
-- share of random disc sets with at least one solution, with a 95 % Wilson interval
CREATE VIEW spots_random_summary AS
WITH counts AS (
    SELECT sum(sets)::DOUBLE AS n, sum(sets) FILTER (WHERE solutions > 0)::DOUBLE AS k
    FROM spots_solution_counts
), p AS (SELECT n, k, k / n AS share, 1.959963984540054 AS z FROM counts)
SELECT n::BIGINT AS sets, k::BIGINT AS solvable_sets, share,
       (share + z * z / (2 * n) - z * sqrt(share * (1 - share) / n + z * z / (4 * n * n)))
           / (1 + z * z / n) AS ci_low,
       (share + z * z / (2 * n) + z * sqrt(share * (1 - share) / n + z * z / (4 * n * n)))
           / (1 + z * z / n) AS ci_high
FROM p;

CREATE VIEW spots_solution_count_distribution AS
SELECT solutions, sets FROM spots_solution_counts ORDER BY solutions;
"""


def dealt_sets(indices: np.ndarray, seed: int, sets: int) -> np.ndarray:
    """Random sets ``indices`` (ascending) of a table of ``sets`` dealt from ``seed``."""
    chosen = []
    for first in np.unique(indices - indices % BLOCK):
        block = random_sets(min(BLOCK, sets - int(first)), seed + int(first))
        chosen.append(block[indices[(indices >= first) & (indices < first + BLOCK)] - first])
    return np.concatenate(chosen)


def solution_counts(sets: int, seed: int, progress: bool) -> dict[str, np.ndarray]:
    from tqdm import tqdm

    from builder.puzzles.spots.search import count_solutions

    counts = [count_solutions(random_sets(min(BLOCK, sets - first), seed + first))
              for first in tqdm(range(0, sets, BLOCK), desc="spot colour sets", unit="block",
                                disable=not progress)]
    return {"solutions": np.concatenate(counts).astype(np.int32)}


class SpotsPuzzle(Puzzle):
    """Spot Colour discs as a plug-in: a disc set is solved whole (`query spots solve`);
    it has no positions to walk, so no notation is recognised for paths."""

    name = "spots"
    summary = "Spot Colour discs: place 7 discs so that touching spots match"
    example = ("--set 1", "")

    def recognises(self, text: str) -> bool:
        return False

    def variant(self, start: str, target: str, options: dict):
        raise SpotsError("Spot Colour sets have no paths: use `query spots solve`")

    def parse(self, variant, text: str):
        raise SpotsError("Spot Colour sets have no positions: use `query spots solve`")

    def format(self, variant, state) -> str:
        return str(state)

    def table(self, identity: dict) -> TableSpec:
        sets, seed = identity.get("sets", RANDOM_SETS), identity.get("seed", SEED)
        if not 1 <= sets <= 100_000_000:
            raise SpotsError(f"--sets {sets}: from 1 to 100,000,000 random sets")
        return TableSpec(
            ("spots", "random_sets"), {"puzzle": "spots", "sets": sets, "seed": seed},
            compute=lambda progress: solution_counts(sets, seed, progress), chunk=1 << 20,
            encoding="solutions[i]: number of solutions of random set i (each disc a "
                     "uniformly random cyclic order of the six colours; blocks of 100,000 "
                     "sets seeded seed + first index)")

    def default_tables(self) -> list[TableSpec]:
        return [self.table({})]

    def build_command(self):
        def spots(
            sets: Annotated[int, typer.Option(help="How many random disc sets.", min=1,
                                              max=100_000_000)] = RANDOM_SETS,
            seed: Annotated[int, typer.Option(help="Random seed, 0 or more.", min=0,
                                              max=2**63 - 1)] = SEED,
        ) -> list[TableSpec]:
            """Spot Colour discs: solve many uniformly random disc sets exhaustively and keep
            each set's number of solutions (views spots_random_summary,
            spots_solution_count_distribution).

            Example: builder spots --sets 1000000
            """
            return [self.table({"sets": sets, "seed": seed})]

        return spots

    catalog_tables = (CatalogTable("spots_solution_counts", "solutions INTEGER, sets BIGINT"),)
    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        counts = np.bincount(read("solutions"))
        return {"spots_solution_counts": [(solutions, int(sets))
                                          for solutions, sets in enumerate(counts) if sets]}

    def query_commands(self) -> dict:
        from builder.puzzles.spots import commands

        return {"solve": commands.solve, "random": commands.deal}

    renderer = "renderer.js"

    def web_routes(self, tables):
        from builder.puzzles.spots.commands import routes

        return routes()

    def verify_checks(self, attributes: dict) -> str:
        return "a dealt set's solutions counted again"

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        from builder.puzzles.spots.search import count_solutions

        stored = read("solutions")
        sets, seed = attributes["sets"], attributes["seed"]
        drawn = np.sort(rng.integers(0, sets, samples))
        found = count_solutions(dealt_sets(drawn, seed, sets))
        for index, count in zip(drawn, found):
            if int(stored[index]) != int(count):
                return (f"solutions: random set {int(index)} holds {int(stored[index])}, "
                        f"solving it again gives {int(count)}")
        return None
