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
The rules alone (no command line, web or database: an import-linter contract keeps
every ``rules.py`` so); the table of random sets is ``tables.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from builder.contract.errors import PuzzleInputError, shown

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


def solutions_of(disc_set) -> list[dict]:
    from puzzles.spots.search import solve as search

    return [describe(disc_set.names, int(row[0]), row[1:], disc_set.colours[int(row[0])])
            for row in search(disc_set.colours)]


LETTERS = "kbgrwy"
"""A colour per letter in the web's disc notation (k: black), in COLOURS order."""


def disc_set_of(text: str) -> DiscSet:
    """Seven discs of six letters (clockwise) joined by '.', e.g. the web's notation."""
    discs = text.strip().lower().split(".")
    if len(discs) != 7 or any(len(disc) != 6 or set(disc) - set(LETTERS) for disc in discs):
        raise SpotsError(f"disc set {shown(text)}: 7 discs of 6 letters from {LETTERS} "
                         "(k black, b blue, g green, r red, w white, y yellow) joined by '.'")
    return DiscSet.from_mapping({f"d{i + 1}": [COLOURS[LETTERS.index(c)] for c in disc]
                                 for i, disc in enumerate(discs)})


def notation_of(disc_set: DiscSet) -> str:
    return ".".join("".join(LETTERS[int(c)] for c in row) for row in disc_set.colours)


def contacts(disc_set: DiscSet, centre: int, satellites: list[int]) -> list[bool]:
    """Whether each of the six contacts matches: the satellite at centre spot k touches the
    centre with its spot of the centre's colour there, and its spot before that (its l-spot)
    meets the spot after it (r-spot) of the satellite at spot k+1 (the module docstring's
    geometry)."""
    left, right = neighbour_tables(disc_set.colours)
    around = disc_set.colours[centre]
    return [bool(left[satellites[k], around[k]] == right[satellites[(k + 1) % 6],
                                                        around[(k + 1) % 6]])
            for k in range(6)]
