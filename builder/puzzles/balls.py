"""Ball tubes (document 004): T tubes of capacity c, k colours with c balls each; tubes
and colours labelled.  A move takes the top ball of a tube onto another tube holding
fewer than c balls whose top ball has the same colour, or that is empty.  Cleared:
every non-empty tube holds c balls of one colour.

Perfect ranking (a bijection between states and 0 .. N-1, vectorised):
``rank = level_index(fill counts) * M + sequence_rank``, where the fill counts are the
tubes' ball counts (compositions of k*c into T parts of at most c, numbered in
lexicographic order), M = (kc)! / (c!)^k, and sequence_rank is the rank among
multiset permutations of the balls read tube by tube, each tube top to bottom.
``sequence_rank = sum_i step[remaining_i, colour_i]`` with ``step`` tabled per
remaining-colour-count vector, so a rank is one table look-up per ball.

Notation: tubes separated by '|', each listed top to bottom, one letter per colour:
``rggb|brrg|gbbr|`` (the last tube empty).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import product
from math import factorial

import numpy as np

from builder.puzzles import PuzzleInputError

LETTERS = "rgbyopcw"
EMPTY = -1


class BallsError(PuzzleInputError):
    """A malformed state or an impossible size."""


@dataclass(frozen=True)
class Balls:
    tubes: int = 4
    capacity: int = 4
    colours: int = 3

    def __post_init__(self) -> None:
        if not 1 <= self.colours <= len(LETTERS):
            raise BallsError(f"{self.colours} colours: from 1 to {len(LETTERS)}")
        if self.tubes < self.colours or self.capacity < 1:
            raise BallsError(
                f"{self.tubes} tubes cannot hold {self.colours} colours of "
                f"{self.capacity} balls (at least one tube per colour)"
            )

    @property
    def balls(self) -> int:
        return self.colours * self.capacity

    @property
    def name(self) -> str:
        return f"{self.tubes}_{self.capacity}_{self.colours}"

    @cached_property
    def levels(self) -> np.ndarray:
        """Every vector of tube fill counts, lexicographic: (L, T)."""
        found = [h for h in product(range(self.capacity + 1), repeat=self.tubes)
                 if sum(h) == self.balls]
        return np.array(found, dtype=np.int64).reshape(-1, self.tubes)

    @cached_property
    def level_index(self) -> np.ndarray:
        """Dense map from a fill vector (base capacity+1) to its index, -1 if not one."""
        index = np.full((self.capacity + 1) ** self.tubes, -1, dtype=np.int64)
        index[self.levels @ self.level_radix] = np.arange(len(self.levels))
        return index

    @cached_property
    def level_radix(self) -> np.ndarray:
        return (self.capacity + 1) ** np.arange(self.tubes - 1, -1, -1, dtype=np.int64)

    @cached_property
    def count_radix(self) -> np.ndarray:
        return (self.capacity + 1) ** np.arange(self.colours - 1, -1, -1, dtype=np.int64)

    @cached_property
    def arrangements(self) -> int:
        """M: orderings of the balls (c of each of k colours)."""
        return factorial(self.balls) // factorial(self.capacity) ** self.colours

    @property
    def n_states(self) -> int:
        return len(self.levels) * self.arrangements

    @cached_property
    def step(self) -> np.ndarray:
        """step[remaining counts code, colour]: sequences that place a smaller colour here."""
        k, c = self.colours, self.capacity
        counts = np.array(list(product(range(c + 1), repeat=k)), dtype=np.int64)
        table = np.zeros(((c + 1) ** k, k), dtype=np.int64)
        for vector in counts:
            code = int(vector @ self.count_radix)
            total = 0
            for colour in range(k):
                if vector[colour]:
                    rest = vector.copy()
                    rest[colour] -= 1
                    table[code, colour] = total
                    total += _multinomial(rest)
                else:
                    table[code, colour] = total
        return table

    @cached_property
    def multinomials(self) -> np.ndarray:
        k, c = self.colours, self.capacity
        table = np.zeros((c + 1) ** k, dtype=np.int64)
        for vector in product(range(c + 1), repeat=k):
            table[int(np.array(vector) @ self.count_radix)] = _multinomial(np.array(vector))
        return table

    # --- codec ------------------------------------------------------------------

    def rank(self, tubes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Ranks of N states given as (N, T, c) colours (top first, EMPTY padding) and
        (N, T) lengths."""
        tubes, lengths = np.asarray(tubes), np.asarray(lengths)
        n = len(tubes)
        level = self.level_index[lengths @ self.level_radix]
        remaining = np.full(n, int(np.full(self.colours, self.capacity) @ self.count_radix))
        sequence = np.zeros(n, dtype=np.int64)
        for tube in range(self.tubes):
            for depth in range(self.capacity):
                present = depth < lengths[:, tube]
                colour = np.where(present, tubes[:, tube, depth], 0)
                sequence += np.where(present, self.step[remaining, colour], 0)
                remaining -= np.where(present, self.count_radix[colour], 0)
        return level * self.arrangements + sequence

    def unrank(self, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ranks = np.asarray(ranks, dtype=np.int64)
        n = len(ranks)
        level, sequence = np.divmod(ranks, self.arrangements)
        lengths = self.levels[level]
        tubes = np.full((n, self.tubes, self.capacity), EMPTY, dtype=np.int64)
        remaining = np.full(n, int(np.full(self.colours, self.capacity) @ self.count_radix))
        for tube in range(self.tubes):
            for depth in range(self.capacity):
                present = depth < lengths[:, tube]
                chosen = np.zeros(n, dtype=np.int64)
                for colour in range(1, self.colours):  # the largest colour whose block holds it
                    left = remaining // self.count_radix[colour] % (self.capacity + 1)
                    fits = present & (left > 0) & (sequence >= self.step[remaining, colour])
                    chosen = np.where(fits, colour, chosen)
                sequence -= np.where(present, self.step[remaining, chosen], 0)
                remaining -= np.where(present, self.count_radix[chosen], 0)
                tubes[:, tube, depth] = np.where(present, chosen, EMPTY)
        return tubes, lengths

    def parse(self, text: str) -> int:
        parts = text.strip().lower().split("|")
        letters = LETTERS[: self.colours]
        if len(parts) != self.tubes:
            raise BallsError(f"state {text!r} has {len(parts)} tubes, not {self.tubes} "
                             f"(tubes separated by '|', e.g. {self.format(self.initial_rank())})")
        for part in parts:
            if len(part) > self.capacity:
                raise BallsError(f"tube {part!r} holds more than {self.capacity} balls")
            unknown = set(part) - set(letters)
            if unknown:
                raise BallsError(f"unknown colour {''.join(sorted(unknown))!r}: the colours are "
                                 f"{', '.join(letters)}")
        for letter in letters:
            count = sum(part.count(letter) for part in parts)
            if count != self.capacity:
                raise BallsError(f"colour {letter!r} has {count} balls, not {self.capacity}")
        tubes = np.full((1, self.tubes, self.capacity), EMPTY, dtype=np.int64)
        lengths = np.zeros((1, self.tubes), dtype=np.int64)
        for t, part in enumerate(parts):
            lengths[0, t] = len(part)
            for depth, letter in enumerate(part):
                tubes[0, t, depth] = letters.index(letter)
        return int(self.rank(tubes, lengths)[0])

    def format(self, rank: int) -> str:
        tubes, lengths = self.unrank(np.array([rank]))
        return "|".join("".join(LETTERS[int(tubes[0, t, d])] for d in range(lengths[0, t]))
                        for t in range(self.tubes))

    @staticmethod
    def shape_of(text: str, colours: int | None = None) -> tuple[int, int, int]:
        """(tubes, capacity, colours) a state's notation implies: capacity = balls per
        colour, colours = distinct letters."""
        parts = text.strip().lower().split("|")
        balls = "".join(parts)
        found = sorted(set(balls))
        if not balls or any(ch not in LETTERS for ch in found):
            raise BallsError(f"state {text!r}: tubes of letters from {LETTERS!r} joined by '|'")
        k = colours or len(found)
        if len(balls) % k:
            raise BallsError(f"state {text!r} has {len(balls)} balls: not {k} equal colours")
        return len(parts), len(balls) // k, k

    # --- the game ---------------------------------------------------------------

    def initial_level(self) -> int:
        fill = np.array([self.capacity] * self.colours + [0] * (self.tubes - self.colours))
        return int(self.level_index[fill @ self.level_radix])

    def initial_rank(self) -> int:
        return self.initial_level() * self.arrangements

    def initial_range(self) -> tuple[int, int]:
        """Ranks of the starting states: the first k tubes full, the rest empty."""
        first = self.initial_rank()
        return first, first + self.arrangements

    def cleared_states(self) -> np.ndarray:
        """Every cleared state: each colour fills a tube of its own."""
        from itertools import permutations

        found = []
        for chosen in permutations(range(self.tubes), self.colours):
            tubes = np.full((1, self.tubes, self.capacity), EMPTY, dtype=np.int64)
            lengths = np.zeros((1, self.tubes), dtype=np.int64)
            for colour, tube in enumerate(chosen):
                tubes[0, tube, :] = colour
                lengths[0, tube] = self.capacity
            found.append(int(self.rank(tubes, lengths)[0]))
        return np.array(sorted(found), dtype=np.int64)

    def legal_moves(self, rank: int) -> list[tuple[int, int, int]]:
        """(from tube, to tube, resulting rank) for every legal move of one state."""
        tubes, lengths = self.unrank(np.array([rank]))
        tubes, lengths = tubes[0], lengths[0]
        moves = []
        for source in range(self.tubes):
            if lengths[source] == 0:
                continue
            ball = tubes[source, 0]
            for destination in range(self.tubes):
                if destination == source or lengths[destination] == self.capacity:
                    continue
                if lengths[destination] and tubes[destination, 0] != ball:
                    continue
                new_tubes, new_lengths = tubes.copy(), lengths.copy()
                new_tubes[source, :-1] = tubes[source, 1:]
                new_tubes[source, -1] = EMPTY
                new_tubes[destination, 1:] = tubes[destination, :-1]
                new_tubes[destination, 0] = ball
                new_lengths[source] -= 1
                new_lengths[destination] += 1
                following = int(self.rank(new_tubes[None], new_lengths[None])[0])
                moves.append((source, destination, following))
        return moves

    def is_cleared(self, rank: int) -> bool:
        tubes, lengths = self.unrank(np.array([rank]))
        return all(length == 0 or (length == self.capacity and len(set(tube[:length])) == 1)
                   for tube, length in zip(tubes[0], lengths[0]))

    def memory_estimate(self) -> int:
        """Bytes a full build needs: distances (1 byte per state), the search queue
        (8 bytes per state) and working space."""
        return self.n_states * 9 + 200 * 2**20


def _multinomial(counts: np.ndarray) -> int:
    total = factorial(int(counts.sum()))
    for count in counts:
        total //= factorial(int(count))
    return total
