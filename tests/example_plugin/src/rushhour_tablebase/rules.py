"""Rush Hour in plain Python: the board, its notation, the moves.

The board is 6×6; the exit is on the right of the third row.  A card sets its cars
(length 2) and trucks (length 3), each lying or standing in its own row or column for
good: a car slides along its lane, never across it.  The red car ``A`` lies in the third
row; it is out when it reaches the exit, the last two cells of that row.

Notation: six rows of six cells joined by ``.``, the card's letter on the cells of each
car, ``-`` for an empty cell (``BB---C.D--E-C.DAAE-C.D--E--.F---GG.F-HHH-``, the card
``easy``).  A position is the offset of every car along its lane, in the card's order of
letters; a key packs the offsets three bits each.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.contract.errors import PuzzleInputError, shown

SIZE = 6
EXIT_ROW = 2
RED = "A"
EMPTY = "-"
OUT = SIZE - 2
"""The red car's offset at the exit."""
BITS = 3
"""Bits of a key per car: an offset is at most 4."""


class RushHourError(PuzzleInputError):
    """A Rush Hour position or card that does not fit the rules."""


@dataclass(frozen=True)
class Car:
    letter: str
    lying: bool
    lane: int
    """Its row if it lies, its column if it stands."""
    length: int

    def cells(self, offset: int) -> list[int]:
        if self.lying:
            return [self.lane * SIZE + offset + step for step in range(self.length)]
        return [(offset + step) * SIZE + self.lane for step in range(self.length)]


def read(text: str) -> dict[str, tuple[Car, int]]:
    """Every car of a board in the notation, by letter: the car and its offset."""
    rows = text.strip().split(".")
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise RushHourError(f"position {shown(text, 60)} is not {SIZE} rows of {SIZE} cells "
                            "joined by '.'")
    letters = "".join(rows)
    found = {}
    for letter in sorted(set(letters) - {EMPTY}):
        spots = [i for i, ch in enumerate(letters) if ch == letter]
        if not letter.isalpha():
            raise RushHourError(f"position {shown(text, 60)}: {letter!r} is neither a car's "
                                f"letter nor {EMPTY!r}")
        row, column = divmod(spots[0], SIZE)
        lying = len(spots) > 1 and spots[1] == spots[0] + 1
        car = Car(letter, lying, row if lying else column, len(spots))
        offset = column if lying else row
        if len(spots) not in (2, 3) or car.cells(offset) != spots:
            raise RushHourError(f"position {shown(text, 60)}: car {letter} is not 2 or 3 cells "
                                "in a line")
        found[letter] = car, offset
    red = found.get(RED, (None,))[0]
    if red is None or not (red.lying and red.lane == EXIT_ROW and red.length == 2):
        raise RushHourError(f"position {shown(text, 60)}: the red car {RED} must lie in row "
                            f"{EXIT_ROW + 1}, two cells long")
    return found


@dataclass(frozen=True)
class Card:
    """The cars of a card, in the order of their letters, and where they start."""

    name: str
    cars: tuple[Car, ...]
    start: tuple[int, ...]

    @classmethod
    def of(cls, name: str, text: str) -> Card:
        found = read(text)
        return cls(name, tuple(car for car, _ in found.values()),
                   tuple(offset for _, offset in found.values()))

    def fits(self, text: str) -> bool:
        """Whether a board has this card's cars, each in its lane."""
        return {car for car, _ in read(text).values()} == set(self.cars)

    def parse(self, text: str) -> tuple[int, ...]:
        found = read(text)
        if {car for car, _ in found.values()} != set(self.cars):
            raise RushHourError(f"position {shown(text, 60)} does not have the cars of card "
                                f"{self.name} in their lanes ({self.format(self.start)})")
        return tuple(found[car.letter][1] for car in self.cars)

    def format(self, position: tuple[int, ...]) -> str:
        cells = [EMPTY] * SIZE * SIZE
        for car, offset in zip(self.cars, position):
            for cell in car.cells(offset):
                cells[cell] = car.letter
        return ".".join("".join(cells[row * SIZE:(row + 1) * SIZE]) for row in range(SIZE))

    def moves(self, position: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
        """Every move: a car slid any number of cells along its lane over empty cells, as
        (label, position after); the label names the car, the way and the cells."""
        taken = {cell for car, offset in zip(self.cars, position) for cell in car.cells(offset)}
        found = []
        for index, (car, offset) in enumerate(zip(self.cars, position)):
            ways = ("left", "right") if car.lying else ("up", "down")
            for way, step in zip(ways, (-1, 1)):
                to = offset + step
                while 0 <= to <= SIZE - car.length:
                    entering = car.cells(to)[0 if step < 0 else -1]
                    if entering in taken:
                        break
                    after = (*position[:index], to, *position[index + 1:])
                    found.append((f"{car.letter} {way} {abs(to - offset)}", after))
                    to += step
        return found

    def is_out(self, position: tuple[int, ...]) -> bool:
        return position[[car.letter for car in self.cars].index(RED)] == OUT

    def encode(self, position: tuple[int, ...]) -> int:
        key = 0
        for offset in reversed(position):
            key = (key << BITS) | offset
        return key

    def decode(self, key: int) -> tuple[int, ...]:
        return tuple((key >> (BITS * index)) & 7 for index in range(len(self.cars)))


CARDS = {card.name: card for card in (
    Card.of("easy", "BB---C.D--E-C.DAAE-C.D--E--.F---GG.F-HHH-"),
    Card.of("hard", "BCDDEF.BC--EF.BAAG-H.IIIG-H.JKKK-H.J-LLMM"),
)}
"""The cards the tables are built from, by name."""


def format_start(name: str) -> str:
    card = CARDS[name]
    return card.format(card.start)
