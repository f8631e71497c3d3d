"""Rush Hour as a plug-in from a package of its own: the adapter the engine calls, found
through this package's entry point in the group ``puzzle_tablebase.puzzles``.  The rules
and notation are ``rules.py``; the board on the page ``renderer.js``.

Tables (``rushhour/easy``, ``rushhour/hard``): sparse, every position reachable from a
card's start with its fewest moves until the red car is out, built from the plain-Python
moves (no kernel: the cards are small).
"""

from __future__ import annotations

from builder.contract.base import Move, PuzzleOption
from builder.contract.errors import shown
from builder.contract.puzzle import KeyedPuzzle
from rushhour_tablebase import rules
from rushhour_tablebase.rules import CARDS, RushHourError


class RushHourPuzzle(KeyedPuzzle):
    """The variant is the card's name (a table per card)."""

    name = "rushhour"
    unit = "moves"
    summary = "Rush Hour (6x6): slide the cars until the red car A is out on the right"
    example = (rules.format_start("easy"), "solved")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "card", f"the card whose cars the position has ({', '.join(CARDS)}; default: the "
        "one with the position's cars in their lanes)", tuple(CARDS)),)

    def recognises(self, text: str) -> bool:
        rows = text.strip().split(".")
        return (len(rows) == rules.SIZE and all(len(row) == rules.SIZE for row in rows)
                and rules.RED in text and all(ch.isalpha() or ch in "-." for ch in text))

    def variant(self, start: str, target: str, options: dict) -> str:
        chosen = options.get("card")
        if chosen is not None:
            if chosen not in CARDS:
                raise RushHourError(f"card {shown(chosen)}: choose {' or '.join(CARDS)}")
            return chosen
        fitting = [card.name for card in CARDS.values() if card.fits(start)]
        if not fitting:
            raise RushHourError(f"position {shown(start, 60)} has the cars of no card: "
                                + "; ".join(f"{n} {rules.format_start(n)}" for n in CARDS))
        if len(fitting) > 1:
            raise RushHourError(f"position {shown(start, 60)} has the cars of "
                                f"{' and '.join(fitting)}: choose one with --card")
        return fitting[0]

    def parse(self, card: str, text: str) -> tuple[int, ...]:
        return CARDS[card].parse(text)

    def format_position(self, card: str, position: tuple[int, ...]) -> str:
        return CARDS[card].format(position)

    def moves(self, card: str, node: tuple[int, ...]) -> list[Move]:
        return [Move(label, after) for label, after in CARDS[card].moves(node)]

    def encode(self, card: str, position: tuple[int, ...]) -> int:
        return CARDS[card].encode(position)

    def decode(self, card: str, key: int) -> tuple[int, ...]:
        return CARDS[card].decode(key)

    def is_goal(self, card: str, position: tuple[int, ...]) -> bool:
        return CARDS[card].is_out(position)

    def starts(self, card: str) -> list[tuple[int, ...]]:
        return [CARDS[card].start]
