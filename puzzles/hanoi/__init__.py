"""The Tower of Hanoi, on three pegs or four (the four-peg one is Dudeney's Reve's
puzzle), with up to 12 discs.

Notation: the peg of each disc, smallest disc first: ``AAAAAA`` is six discs on peg A,
``DDDDDD`` all on peg D.  A move takes the top disc of one peg onto a peg that is empty or
whose top disc is larger.  Positions are ranked ``sum(peg(d) * pegs**d)``.

Tables (``hanoi/3pegs``, ``hanoi/4pegs``): for every n from 1 to 12, the fewest moves from
every position to all discs on the last peg (array ``n{n}``).  All discs on any other
peg is the same table with two pegs' names swapped; a target that is not all discs on
one peg is searched when asked, unless its table was stored (``builder build hanoi
4:POSITION``).  The adapter says where a distance is stored (``stored_distance``); the
engine reads it.
"""

from __future__ import annotations

from builder.contract.base import DistanceArray, PuzzleOption
from builder.contract.dense import DensePuzzle, MoveKernel, StoredDistance
from builder.contract.errors import shown
from builder.contract.specs import TableSpec
from puzzles.hanoi.rules import MAX_DISCS, PEG_LETTERS, HanoiError, rank, swap_pegs, unrank
from puzzles.hanoi.search import hanoi_moves
from puzzles.hanoi.tables import distance_arrays, towards, towards_last_peg


class HanoiPuzzle(DensePuzzle):
    """The variant is (pegs, discs): four pegs when either position uses peg D, else
    three; `--variant 4` (or 3) says so outright."""

    name = "hanoi"
    unit = "moves"
    summary = "Tower of Hanoi on 3 or 4 pegs (the Reve's puzzle), up to 12 discs"
    example = ("AAAAAA", "DDDDDD")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "variant", "3 or 4 pegs (default: 4 when a position uses peg D)", ("3", "4")),)

    def recognises(self, text: str) -> bool:
        text = text.strip()
        return bool(text) and set(text.upper()) <= set(PEG_LETTERS)

    def variant(self, start: str, target: str, options: dict) -> tuple[int, int]:
        start, target = start.strip().upper(), target.strip().upper()
        chosen = options.get("variant")
        if chosen is None:
            pegs = 4 if "D" in start + target else 3
        elif str(chosen).strip().lower() in ("3", "4", "3 pegs", "4 pegs", "3pegs", "4pegs"):
            pegs = int(str(chosen).strip()[0])
        else:
            raise HanoiError(f"--variant {shown(str(chosen))}: 3 or 4 (pegs)")
        discs = len(start)
        if not 1 <= discs <= MAX_DISCS:
            raise HanoiError(f"{shown(start)}: from 1 to {MAX_DISCS} discs (one peg letter per "
                             f"disc, smallest first); {MAX_DISCS} discs on 4 pegs are already "
                             f"{4**MAX_DISCS:,} positions")
        if target and len(target) != discs:
            raise HanoiError(f"{shown(start)} has {discs} discs but {shown(target)} has "
                             f"{len(target)}")
        return pegs, discs

    def parse(self, variant: tuple[int, int], text: str) -> int:
        pegs, discs = variant
        letters = text.strip().upper()
        allowed = PEG_LETTERS[:pegs]
        if len(letters) != discs or not set(letters) <= set(allowed):
            raise HanoiError(f"position {shown(text)} is not {discs} peg letters from "
                             f"{', '.join(allowed)} (smallest disc first)")
        return rank(pegs, letters)

    def format(self, variant: tuple[int, int], state: int) -> str:
        return unrank(*variant, state)

    def default_target(self, variant: tuple[int, int]) -> str:
        pegs, discs = variant
        return PEG_LETTERS[pegs - 1] * discs

    def drawing(self, variant: tuple[int, int], state: int) -> str:
        pegs, discs = variant
        letters = unrank(pegs, discs, state)
        # each peg a line, its discs bottom (largest) first, by number (1 the smallest)
        return "\n".join(f"{peg} |" + "".join(f" {disc + 1}" for disc in
                                              reversed(range(discs)) if letters[disc] == peg)
                          for peg in PEG_LETTERS[:pegs])

    def move_kernel(self, variant: tuple[int, int]) -> MoveKernel:
        pegs, discs = variant
        return MoveKernel(hanoi_moves, (pegs, discs), pegs * (pegs - 1))

    def move_label(self, variant: tuple[int, int], before: int, after: int) -> str:
        was, now = unrank(*variant, before), unrank(*variant, after)
        disc = next(disc for disc, (old, new) in enumerate(zip(was, now)) if old != new)
        return f"disc {disc + 1} {was[disc]}->{now[disc]}"

    def stored_distance(self, variant: tuple[int, int], node: int,
                        target: int) -> StoredDistance:
        pegs, discs = variant
        goal = unrank(pegs, discs, target)
        if len(set(goal)) == 1:  # all on one peg: the stored table, pegs renamed
            letters = swap_pegs(unrank(pegs, discs, node), goal[0], PEG_LETTERS[pegs - 1])
            return StoredDistance(towards_last_peg(pegs), f"n{discs}", rank(pegs, letters),
                                  build=str(pegs))
        return StoredDistance(towards(pegs, discs, goal), "moves", node,
                              build=f"{pegs}:{goal}", searched_when_missing=True)

    def table(self, identity: dict) -> TableSpec:
        if "target" in identity:
            return towards(identity.get("pegs"), identity["discs"], identity["target"])
        return towards_last_peg(identity.get("pegs"), identity.get("max_discs", MAX_DISCS))

    def default_tables(self) -> list[TableSpec]:
        return [towards_last_peg(pegs) for pegs in (3, 4)]

    def table_for(self, text: str) -> TableSpec:
        """``3`` or ``4``: that many pegs, 1 to 12 discs; ``4:ABCDABCD``: towards one
        position (stored, so later paths to it are read, not searched)."""
        pegs_text, colon, goal = text.strip().upper().partition(":")
        if pegs_text not in ("3", "4") or (colon and not goal.strip()):
            raise HanoiError(f"{shown(text)}: 3 or 4 (pegs), or 4:POSITION for a table "
                             "towards one position")
        pegs = int(pegs_text)
        if not goal:
            return towards_last_peg(pegs)
        variant = self.variant(goal, goal, {"variant": pegs_text})
        return towards(pegs, variant[1], self.format(variant, self.parse(variant, goal)))

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        return distance_arrays(attributes)

    def entry_positions(self, attributes: dict, distances: DistanceArray, entries,
                        read) -> list[tuple[str, str]]:
        pegs = attributes["pegs"]
        if "target" in attributes:
            discs, goal = attributes["discs"], attributes["target"]
        else:
            discs = int(distances.array.removeprefix("n"))
            goal = PEG_LETTERS[pegs - 1] * discs
        return [(unrank(pegs, discs, int(entry)), goal) for entry in entries]

    def table_options(self, attributes: dict) -> dict[str, str]:
        return {"variant": str(attributes["pegs"])}
