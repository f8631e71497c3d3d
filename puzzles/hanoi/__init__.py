"""The Tower of Hanoi, on three pegs or four (the four-peg one is Dudeney's Reve's
puzzle), with up to 12 discs.

Notation: the peg of each disc, smallest disc first: ``AAAAAA`` is six discs on peg A,
``DDDDDD`` all on peg D.  A move takes the top disc of one peg onto a peg that is empty or
whose top disc is larger.  Positions are ranked ``sum(peg(d) * pegs**d)``.

The plug-in declares its notation, its moves (written once, ``search.hanoi_moves``), how
many ranks a variant takes and the variants `make tables` builds; the engine keeps the
tables (``builder/dense_tables.py``): for 3 and 4 pegs and 1 to 12 discs, the fewest moves
from every position to all discs on the last peg.  All discs on any other peg is the same
table with two pegs' names swapped (``stored_question``); a target that is not all discs
on one peg is searched when asked, unless its table was stored (``builder build hanoi
4:POSITION``).
"""

from __future__ import annotations

import re

from builder.contract.base import PuzzleOption
from builder.contract.errors import shown
from builder.contract.puzzle import DensePuzzle, MoveKernel
from puzzles.hanoi.rules import MAX_DISCS, PEG_LETTERS, HanoiError, rank, swap_pegs, unrank
from puzzles.hanoi.search import hanoi_moves

VARIANT_NAME = re.compile(r"([34]) pegs?, (\d+) discs?")


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

    def positions(self, variant: tuple[int, int]) -> int:
        pegs, discs = variant
        return pegs**discs

    def table_variants(self) -> list[tuple[int, int]]:
        return [(pegs, discs) for pegs in (3, 4) for discs in range(1, MAX_DISCS + 1)]

    def variant_name(self, variant: tuple[int, int]) -> str:
        pegs, discs = variant
        return f"{pegs} pegs, {discs} disc{'s' if discs > 1 else ''}"

    def variant_named(self, name: str) -> tuple[int, int]:
        found = VARIANT_NAME.fullmatch(name.strip())
        if not found or int(found[1]) not in (3, 4) or not 1 <= int(found[2]) <= MAX_DISCS:
            raise HanoiError(f"{shown(name)}: 3 or 4 pegs, 1 to {MAX_DISCS} discs "
                             "('4 pegs, 6 discs')")
        return int(found[1]), int(found[2])

    def stored_question(self, variant: tuple[int, int], node: int, target: int
                        ) -> tuple[int, int]:
        """All discs on any one peg is the table towards all on the last peg, with the two
        pegs' names swapped."""
        pegs, discs = variant
        goal = unrank(pegs, discs, target)
        last = PEG_LETTERS[pegs - 1]
        if len(set(goal)) != 1:
            return node, target
        return (rank(pegs, swap_pegs(unrank(pegs, discs, node), goal[0], last)),
                rank(pegs, last * discs))
