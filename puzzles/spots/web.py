"""The Spot Colour discs' own web endpoints, under /api/spots: deal a set, check a
placement, solve a set (the page plays them with these)."""

from __future__ import annotations

import os

from puzzles.spots.rules import (
    DOCUMENT_SETS,
    DiscSet,
    SpotsError,
    contacts,
    disc_set_of,
    notation_of,
    random_sets,
    solutions_of,
)


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
            return {"discs": notation_of(DiscSet.from_mapping(DOCUMENT_SETS[number]))}
        rng_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        for attempt in range(10_000):
            disc_set = DiscSet(tuple(f"d{i + 1}" for i in range(7)),
                               random_sets(1, rng_seed + attempt)[0])
            if not solvable or solutions_of(disc_set):
                return {"discs": notation_of(disc_set)}
        raise SpotsError("no solvable set in 10,000 random sets")

    @router.get("/check", summary="Check a placement")
    def check(discs: str = notation,
              centre: int = Query(ge=1, le=7, description="the centre disc, 1 to 7"),
              satellites: str = Query(max_length=20, description="the discs at the centre's "
                                      "spots 1 to 6 (clockwise), e.g. 2,3,4,5,6,7")):
        """Which of the six contacts between neighbouring satellites match."""
        disc_set = disc_set_of(discs)
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
        from puzzles.spots.search import solve as search

        disc_set = disc_set_of(discs)
        return {"solutions": [{"centre": int(row[0]) + 1,
                               "satellites": [int(d) + 1 for d in row[1:]]}
                              for row in search(disc_set.colours)]}

    return router
