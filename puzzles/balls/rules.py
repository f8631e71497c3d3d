"""Ball tubes (document 004): T tubes of capacity c, k colours with c balls each; tubes
and colours labelled.  A move takes the top ball of a tube onto another tube holding
fewer than c balls whose top ball has the same colour, or that is empty.  Cleared:
every non-empty tube holds c balls of one colour.

Water sort (``water=True``, the rules of the most played apps): a move pours *all* the
top units of one colour from a tube, as many as fit, onto an empty tube or a tube whose
top is that colour.  The same states, notation, symmetries and ranking; other moves.

Perfect ranking (a bijection between states and 0 .. N-1, vectorised):
``rank = level_index(fill counts) * M + sequence_rank``, where the fill counts are the
tubes' ball counts (compositions of k*c into T parts of at most c, numbered in
lexicographic order), M = (kc)! / (c!)^k, and sequence_rank is the rank among
multiset permutations of the balls read tube by tube, each tube top to bottom.
``sequence_rank = sum_i step[remaining_i, colour_i]`` with ``step`` tabled per
remaining-colour-count vector, so a rank is one table look-up per ball.

Tube codes and symmetry classes (what the tables are indexed by): a tube's contents get a
code, ``offset[length] + sum colour_d * k**(length-1-d)`` (top first), so codes order
tubes by length first.  Relabelling colours and reordering tubes preserve the fewest
moves to clear, so a table needs one entry per class of states under those k! * T!
symmetries.  A class is named by its *key*: over every colour relabelling, sort the T
relabelled tube codes ascending and read them as a base-``n_codes`` number; the key is
the smallest such number.  Tables hold the keys of every class in ascending order, so a
class's position in them (a binary search) is its rank.  The labelled ranking above
counts states (the memory estimate; the build checks its classes add up to it) and draws
labelled states uniformly (tests, ``builder verify``).

Notation: tubes separated by '|', each listed top to bottom, one letter per colour:
``rggb|brrg|gbbr|`` (the last tube empty).

The rules alone: no command line, web or database here (an import-linter contract keeps
every plug-in's ``rules.py`` so); the tables are ``tables.py``, the adapter the engine
calls is ``__init__.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product
from math import comb, factorial

import numpy as np

from builder.contract.errors import PuzzleInputError, check_length, shown

LETTERS = "rgbyopcwadefhijklmnqstuvxz"
"""Colour letters in colour order: the first eight as the tables have always numbered
them, then the rest of the alphabet, so any 26 lowercase letters can be written."""
MAX_CAPACITY = 8
MAX_CODE_TABLE = 1 << 20
"""Tube codes up to which a game keeps per-code tables (top, pop, push, settled)."""
EMPTY = -1


MAX_FILL_PATTERNS = 10_000_000
"""Tube fill vectors a table enumerates, (capacity + 1) ** tubes, at most."""


class BallsError(PuzzleInputError):
    """A malformed state or an impossible size."""


@dataclass(frozen=True)
class Balls:
    tubes: int = 4
    capacity: int = 4
    colours: int = 3
    letters: str = ""
    """The letters of the colours in colour order (default: the first ``colours`` of
    LETTERS); a state written with other letters keeps them."""
    water: bool = False
    """Water sort's pours (all the top units of one colour that fit) instead of one ball
    a move."""

    def __post_init__(self) -> None:
        if not 1 <= self.colours <= len(LETTERS):
            raise BallsError(f"{self.colours} colours: from 1 to {len(LETTERS)}")
        if not 1 <= self.capacity <= MAX_CAPACITY:
            raise BallsError(f"tubes of {self.capacity} balls: from 1 to {MAX_CAPACITY}")
        if not self.letters:
            object.__setattr__(self, "letters", LETTERS[: self.colours])
        if len(self.letters) != self.colours:
            raise BallsError(f"{len(self.letters)} letters for {self.colours} colours")
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
        return f"{self.tubes}_{self.capacity}_{self.colours}" + ("_water" if self.water else "")

    @property
    def rules(self) -> str:
        """The rule's name as the option ``rules`` takes it: balls or water."""
        return WATER if self.water else BALLS

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

    # --- tube codes and symmetry classes ------------------------------------------

    @cached_property
    def code_offsets(self) -> np.ndarray:
        """offset[length]: the first code of a tube holding that many balls."""
        return np.concatenate([[0], np.cumsum(self.colours ** np.arange(self.capacity + 1))])

    @property
    def n_codes(self) -> int:
        return int(self.code_offsets[-1])

    @cached_property
    def code_balls(self) -> np.ndarray:
        """(n_codes, c): each code's colours top first, EMPTY below its length."""
        k, c = self.colours, self.capacity
        table = np.full((self.n_codes, c), EMPTY, dtype=np.int64)
        for length in range(1, c + 1):
            values = np.arange(k ** length)
            first = self.code_offsets[length]
            for depth in range(length):
                table[first : first + len(values), depth] = (
                    values // k ** (length - 1 - depth) % k)
        return table

    @cached_property
    def code_length(self) -> np.ndarray:
        return (self.code_balls != EMPTY).sum(axis=1)

    @cached_property
    def code_top(self) -> np.ndarray:
        """The top ball's colour, EMPTY for an empty tube."""
        return self.code_balls[:, 0]

    @cached_property
    def code_pop(self) -> np.ndarray:
        """The code after the top ball leaves (EMPTY for an empty tube)."""
        below = np.full_like(self.code_balls, EMPTY)
        below[:, :-1] = self.code_balls[:, 1:]
        codes = self.codes_of_tubes(below, np.maximum(self.code_length - 1, 0))
        return np.where(self.code_length > 0, codes, EMPTY)

    @cached_property
    def code_push(self) -> np.ndarray:
        """(n_codes, k): the code after a ball of that colour arrives (EMPTY if full)."""
        table = np.full((self.n_codes, self.colours), EMPTY, dtype=np.int64)
        room = self.code_length < self.capacity
        for colour in range(self.colours):
            above = np.full_like(self.code_balls, colour)
            above[:, 1:] = self.code_balls[:, :-1]
            codes = self.codes_of_tubes(above, np.minimum(self.code_length + 1, self.capacity))
            table[:, colour] = np.where(room, codes, EMPTY)
        return table

    @cached_property
    def code_colour_counts(self) -> np.ndarray:
        """(n_codes, k): balls of each colour in the tube."""
        return np.stack([(self.code_balls == colour).sum(axis=1)
                         for colour in range(self.colours)], axis=1)

    @cached_property
    def code_settled(self) -> np.ndarray:
        """True where a tube is as a cleared state leaves it: empty, or full of one colour."""
        return (self.code_length == 0) | (
            (self.code_length == self.capacity) & (self.code_colour_counts.max(axis=1)
                                                   == self.capacity))

    @cached_property
    def code_last_arrival(self) -> np.ndarray:
        """True where the top ball may have been the last to arrive: alone, or on its colour."""
        if self.capacity == 1:  # a tube holds one ball: it is always alone
            return self.code_length == 1
        return (self.code_length == 1) | (
            (self.code_length > 1) & (self.code_balls[:, 0] == self.code_balls[:, 1]))

    @cached_property
    def colour_relabellings(self) -> np.ndarray:
        """(k!, n_codes): every tube code under each relabelling of the colours
        (row 0: the identity)."""
        table = np.empty((factorial(self.colours), self.n_codes), dtype=np.int64)
        for row, order in enumerate(permutations(range(self.colours))):
            relabelled = np.where(self.code_balls == EMPTY, EMPTY,
                                  np.array(order)[self.code_balls])
            table[row] = self.codes_of_tubes(relabelled, self.code_length)
        return table

    def check_keys_fit(self) -> None:
        """Refuse, by arithmetic alone, sizes whose class keys or fill patterns no table can
        hold (before any array is made)."""
        codes = sum(self.colours**length for length in range(self.capacity + 1))
        if self.tubes * math.log2(codes) >= 63:
            raise BallsError(f"{self.tubes} tubes of {self.capacity} with {self.colours} "
                             "colours: class keys would not fit in 64 bits")
        if (self.capacity + 1) ** self.tubes > MAX_FILL_PATTERNS:
            raise BallsError(f"{self.tubes} tubes of {self.capacity}: "
                             f"{(self.capacity + 1) ** self.tubes:,} fill patterns to enumerate "
                             f"(at most {MAX_FILL_PATTERNS:,})")

    @cached_property
    def key_radix(self) -> np.ndarray:
        self.check_keys_fit()
        return self.n_codes ** np.arange(self.tubes - 1, -1, -1, dtype=np.int64)

    @property
    def symmetries(self) -> int:
        return factorial(self.colours) * factorial(self.tubes)

    def codes_of_tubes(self, tubes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Tube codes of (..., c) colour rows (top first) holding ``lengths`` balls."""
        tubes, lengths = np.asarray(tubes), np.asarray(lengths)
        depth = np.arange(self.capacity)
        power = np.where(depth < lengths[..., None],
                         self.colours ** np.maximum(lengths[..., None] - 1 - depth, 0), 0)
        return self.code_offsets[lengths] + (np.maximum(tubes, 0) * power).sum(axis=-1)

    def codes_of_ranks(self, ranks: np.ndarray) -> np.ndarray:
        """(N, T) tube codes of labelled states given by rank."""
        tubes, lengths = self.unrank(ranks)
        return self.codes_of_tubes(tubes, lengths)

    def class_keys(self, codes: np.ndarray) -> np.ndarray:
        """The class key of every state in (N, T) tube codes (see the module docstring)."""
        relabelled = np.sort(self.colour_relabellings[:, np.asarray(codes)], axis=-1)
        return (relabelled @ self.key_radix).min(axis=0)

    def codes_of_keys(self, keys: np.ndarray) -> np.ndarray:
        """(N, T) tube codes, ascending, of each class's representative."""
        return np.asarray(keys, dtype=np.int64)[:, None] // self.key_radix % self.n_codes

    def classes_lower_bound(self) -> int:
        """No fewer classes than states / symmetries (each class holds at most that many)."""
        return -(-self.n_states // self.symmetries)

    def initial_states_in_classes(self, keys: np.ndarray, states: np.ndarray) -> np.ndarray:
        """How many of each class's ``states`` labelled states are starting states.

        A class whose tubes are k full and T - k empty has its states spread evenly over
        the C(T, k) places the full tubes can take (a tube permutation carries one place's
        states onto another's), and exactly one of those places is the start's."""
        lengths = self.code_length[self.codes_of_keys(keys)]
        shaped = ((lengths == self.capacity).sum(axis=1) == self.colours)
        return np.where(shaped, np.asarray(states) // comb(self.tubes, self.colours), 0)

    # --- notation and play (a state is a tuple of T tube codes) ----------------------

    def parse(self, text: str) -> tuple[int, ...]:
        parts = text.strip().lower().split("|")
        letters = self.letters
        if len(parts) != self.tubes:
            raise BallsError(f"state {shown(text)} has {len(parts)} tubes, not {self.tubes} "
                             f"(tubes separated by '|', e.g. {self.format(self.initial_state())})")
        for part in parts:
            if len(part) > self.capacity:
                raise BallsError(f"tube {shown(part)} holds more than {self.capacity} balls")
            unknown = set(part) - set(letters)
            if unknown:
                raise BallsError(f"unknown colour {''.join(sorted(unknown))!r}: the colours are "
                                 f"{', '.join(letters)}")
        for letter in letters:
            count = sum(part.count(letter) for part in parts)
            if count != self.capacity:
                raise BallsError(f"colour {letter!r} has {count} balls, not {self.capacity}")
        tubes = np.full((self.tubes, self.capacity), EMPTY, dtype=np.int64)
        for t, part in enumerate(parts):
            tubes[t, : len(part)] = [letters.index(letter) for letter in part]
        return tuple(int(code) for code in
                     self.codes_of_tubes(tubes, np.array([len(p) for p in parts])))

    def format(self, state: tuple[int, ...]) -> str:
        return "|".join("".join(self.letters[b] for b in self.tube_of_code(code))
                        for code in state)

    def tube_of_code(self, code: int) -> list[int]:
        """A tube's colours, top first, by arithmetic (no code table: there are
        26**8 codes at the largest size)."""
        code = int(code)
        length = int(np.searchsorted(self.code_offsets, code, side="right")) - 1
        value = code - int(self.code_offsets[length])
        return [value // self.colours ** (length - 1 - depth) % self.colours
                for depth in range(length)]

    def tubes_of_state(self, state: tuple[int, ...]) -> list[list[int]]:
        """Every tube's colours bottom first (the solver's order)."""
        return [self.tube_of_code(code)[::-1] for code in state]

    def state_of_tubes(self, tubes: list[list[int]]) -> tuple[int, ...]:
        """The state of tubes given bottom first."""
        return tuple(int(self.code_offsets[len(tube)]) + sum(
            colour * self.colours ** depth for depth, colour in enumerate(tube))
            for tube in tubes)

    def state_of_rank(self, rank: int) -> tuple[int, ...]:
        return tuple(int(code) for code in self.codes_of_ranks(np.array([rank]))[0])

    @classmethod
    def of_state(cls, text: str, rules: str = "balls") -> Balls:
        """The game a state is written in (its tubes, balls per colour, colours and their
        letters), under ``rules`` (balls or water)."""
        return cls(*cls.game_of(text), water=check_rules(rules) == WATER)

    @staticmethod
    def game_of(text: str) -> tuple[int, int, int, str]:
        """(tubes, capacity, colours, letters) of a state's notation: capacity = balls per
        colour, colours = the distinct letters, in LETTERS order."""
        parts = check_length(text, "state", BallsError).strip().lower().split("|")
        balls = "".join(parts)
        found = sorted(set(balls), key=lambda letter: LETTERS.find(letter))
        if not balls or any(ch not in LETTERS for ch in found):
            raise BallsError(f"state {shown(text)}: tubes of lowercase letters (a colour "
                             "each) joined by '|'")
        if len({balls.count(letter) for letter in found}) > 1:
            counts = ", ".join(f"{ch} {balls.count(ch)}" for ch in found)
            raise BallsError(f"state {shown(text)}: every colour needs the same number of "
                             f"balls ({counts})")
        k = len(found)
        capacity = len(balls) // k
        if capacity > MAX_CAPACITY:
            raise BallsError(f"state {shown(text)}: {capacity} balls per colour, at most "
                             f"{MAX_CAPACITY}")
        return len(parts), capacity, k, "".join(found)

    def initial_level(self) -> int:
        fill = np.array([self.capacity] * self.colours + [0] * (self.tubes - self.colours))
        return int(self.level_index[fill @ self.level_radix])

    def initial_range(self) -> tuple[int, int]:
        """Labelled ranks of the starting states: the first k tubes full, the rest empty."""
        first = self.initial_level() * self.arrangements
        return first, first + self.arrangements

    def initial_state(self) -> tuple[int, ...]:
        return self.state_of_rank(self.initial_range()[0])

    def cleared_key(self) -> int:
        """Every cleared state is one class: each colour fills a tube, the rest are empty."""
        rows = np.full((self.tubes, self.capacity), EMPTY, dtype=np.int64)
        rows[: self.colours] = np.arange(self.colours)[:, None]
        lengths = np.array([self.capacity] * self.colours + [0] * (self.tubes - self.colours))
        return int(self.class_keys(self.codes_of_tubes(rows, lengths)[None])[0])

    @property
    def has_code_tables(self) -> bool:
        """Small enough for per-code tables (the tables' games; 26 colours in tubes of 8
        have 2 * 10**11 codes): else moves are worked out from the tubes."""
        return self.n_codes <= MAX_CODE_TABLE

    def legal_moves(self, state: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
        """(from tube, to tube, resulting state) for every legal move of one state."""
        if self.water or not self.has_code_tables:
            return [(source, destination, self.state_of_tubes(following))
                    for source, destination, following
                    in tube_moves(self.tubes_of_state(state), self.capacity, self.water)]
        moves = []
        for source, code in enumerate(state):
            ball = int(self.code_top[code])
            if ball == EMPTY:
                continue
            for destination, other in enumerate(state):
                if destination == source or self.code_length[other] == self.capacity:
                    continue
                if self.code_length[other] and self.code_top[other] != ball:
                    continue
                following = list(state)
                following[source] = int(self.code_pop[code])
                following[destination] = int(self.code_push[other, ball])
                moves.append((source, destination, tuple(following)))
        return moves

    def pour(self, codes: np.ndarray, source: int, destination: int
             ) -> tuple[np.ndarray, np.ndarray]:
        """Many states' move from tube ``source`` to ``destination`` at once ((N, T) tube
        codes): (codes after, which states have the move).  One ball under the ball
        rules; under water sort, the top ball again while the next one has its colour and
        fits (vectorised over the states: the water tables' kernel)."""
        codes = np.array(codes, dtype=np.int64)
        top = self.code_top[codes[:, source]]
        length = self.code_length[codes[:, destination]]
        legal = (top != EMPTY) & (length < self.capacity) & (
            (length == 0) | (self.code_top[codes[:, destination]] == top))
        moving = legal.copy()
        colour = np.where(legal, top, 0)
        while moving.any():
            rows = np.flatnonzero(moving)
            codes[rows, destination] = self.code_push[codes[rows, destination], colour[rows]]
            codes[rows, source] = self.code_pop[codes[rows, source]]
            if not self.water:
                break
            moving[rows] = ((self.code_top[codes[rows, source]] == colour[rows])
                            & (self.code_length[codes[rows, destination]] < self.capacity))
        return codes, legal

    def is_cleared(self, state: tuple[int, ...]) -> bool:
        if not self.has_code_tables:
            return all(not tube or (len(tube) == self.capacity and len(set(tube)) == 1)
                       for tube in self.tubes_of_state(state))
        return bool(self.code_settled[list(state)].all())

    def memory_estimate(self) -> int:
        """Bytes a class build needs at least: per class its key (8), moves (1), state
        count (8) and the search's sort space (8), for no fewer classes than
        ``classes_lower_bound``; plus working space."""
        return self.classes_lower_bound() * 25 + 200 * 2**20


def tube_moves(tubes: list[list[int]], capacity: int, water: bool = False):
    """(from tube, to tube, tubes after) for every legal move, tubes given as colour lists
    bottom first: the rule worked out on the tubes themselves (games too large for code
    tables, water sort, and the solver's solutions replayed in a state's own tube
    numbering).  ``water``: a move pours every top unit of the colour that fits."""
    for source, tube in enumerate(tubes):
        if not tube:
            continue
        for destination, other in enumerate(tubes):
            if destination != source and len(other) < capacity and (
                    not other or other[-1] == tube[-1]):
                following = [list(t) for t in tubes]
                colour = tube[-1]
                following[destination].append(following[source].pop())
                while (water and following[source] and following[source][-1] == colour
                       and len(following[destination]) < capacity):
                    following[destination].append(following[source].pop())
                yield source, destination, following


def _multinomial(counts: np.ndarray) -> int:
    total = factorial(int(counts.sum()))
    for count in counts:
        total //= factorial(int(count))
    return total


BALLS, WATER = "balls", "water"
RULES = (BALLS, WATER)
"""The option ``rules``: a ball a move (the document's), or water sort's pours."""
RULES_HELP = ("balls (a move takes one top ball, the default) or water (water sort: a move "
              "pours every top unit of the colour that fits)")
"""The option's help, wherever it is offered (commands, builds, the web API)."""


def check_rules(rules: str | None) -> str:
    chosen = str(rules or BALLS).strip().lower()
    if chosen not in RULES:
        raise BallsError(f"--rules {shown(chosen)}: 'balls' (a ball a move, the default) or "
                         "'water' (pour every top unit of a colour that fits)")
    return chosen


def check_cleared(target: str) -> str:
    """'cleared', the only target a ball-tube state is played towards."""
    if target.strip().lower() != "cleared":
        raise BallsError(f"ball-tube paths go to 'cleared', not {shown(target)}")
    return "cleared"

