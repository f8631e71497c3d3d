"""Spot Colour discs (document 002) as a plug-in: the adapter the engine calls.  The discs
and their geometry are ``rules.py``, the random-set table ``tables.py``, the solver
``search.py``, the commands ``cli.py``, the endpoints ``web.py``, the board ``renderer.js``.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
import typer

from builder.contract.base import CatalogTable
from builder.contract.puzzle import OwnSearch, Puzzle, Table
from puzzles.spots.rules import SpotsError
from puzzles.spots.tables import RANDOM_SETS, SEED, VIEWS, dealt_sets, solution_counts


class SpotsSearch(OwnSearch):
    """The Spot Colour discs' own tables: the document's counts, built and catalogued."""

    def table(self, identity: dict) -> Table:
        sets, seed = identity.get("sets", RANDOM_SETS), identity.get("seed", SEED)
        if not 1 <= sets <= 100_000_000:
            raise SpotsError(f"--sets {sets}: from 1 to 100,000,000 random sets")
        return Table(
            self.name, "random_sets", {"sets": sets, "seed": seed},
            make=lambda progress: solution_counts(sets, seed, progress),
            about="solutions[i]: number of solutions of random set i (each disc a "
                     "uniformly random cyclic order of the six colours; blocks of 100,000 "
                     "sets seeded seed + first index)")

    def default_tables(self) -> list[Table]:
        return [self.table({})]

    def build_commands(self) -> dict:
        def spots(
            sets: Annotated[int, typer.Option(help="How many random disc sets.", min=1,
                                              max=100_000_000)] = RANDOM_SETS,
            seed: Annotated[int, typer.Option(help="Random seed, 0 or more.", min=0,
                                              max=2**63 - 1)] = SEED,
        ) -> list[Table]:
            """Spot Colour discs: solve many uniformly random disc sets exhaustively and keep
            each set's number of solutions (views spots_random_summary,
            spots_solution_count_distribution).

            Example: builder spots --sets 1000000
            """
            return [self.table({"sets": sets, "seed": seed})]

        return {self.name: spots}

    catalog_tables = (CatalogTable("spots_solution_counts", "solutions INTEGER, sets BIGINT"),)

    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        counts = np.bincount(read("solutions"))
        return {"spots_solution_counts": [(solutions, int(sets))
                                          for solutions, sets in enumerate(counts) if sets]}

    def query_commands(self) -> dict:
        from puzzles.spots import cli

        return {"solve": cli.solve, "random": cli.deal}

    def web_routes(self, tables):
        from puzzles.spots.web import routes

        return routes()

    def verify_checks(self, attributes: dict) -> str:
        return "a dealt set's solutions counted again"

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        from puzzles.spots.search import count_solutions

        if samples < 1:  # nothing drawn: nothing to deal (dealing none is an error)
            return None
        stored = read("solutions")
        sets, seed = attributes["sets"], attributes["seed"]
        drawn = np.sort(rng.integers(0, sets, samples))
        found = count_solutions(dealt_sets(drawn, seed, sets))
        for index, count in zip(drawn, found):
            if int(stored[index]) != int(count):
                return (f"solutions: random set {int(index)} holds {int(stored[index])}, "
                        f"solving it again gives {int(count)}")
        return None


class SpotsPuzzle(Puzzle):
    """Spot Colour discs as a plug-in: a disc set is solved whole (`query spots solve`);
    it has no positions to walk, so no notation is recognised for paths."""

    own_search = SpotsSearch

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

    renderer = "renderer.js"
