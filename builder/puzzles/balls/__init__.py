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

Tables (``balls/T_c_k``, `builder balls`): every class's key, labelled states and fewest
moves to be cleared, by the package's own kernel (``search.py``); the catalog's
``balls_summary``, ``balls_symmetry_classes`` and ``balls_move_distribution``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product
from math import comb, factorial
from typing import Annotated

import numpy as np
import typer

from builder.puzzles import PuzzleInputError, check_length, shown
from builder.puzzles.base import CatalogTable, DistanceArray, FoundPath, Move, WalkablePuzzle
from builder.puzzles.specs import Computed, TableSpec

TABLE_LAYOUT = "symmetry classes"
"""Ball tables hold one entry per class key (older tables, by labelled rank, are stale)."""

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
    def of_state(cls, text: str) -> Balls:
        """The game a state is written in (its tubes, balls per colour, colours and their
        letters)."""
        return cls(*cls.game_of(text))

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
        if not self.has_code_tables:
            return [(source, destination, self.state_of_tubes(following))
                    for source, destination, following
                    in tube_moves(self.tubes_of_state(state), self.capacity)]
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


def tube_moves(tubes: list[list[int]], capacity: int):
    """(from tube, to tube, tubes after) for every legal move, tubes given as colour lists
    bottom first: the rule worked out on the tubes themselves (games too large for code
    tables, and the solver's solutions replayed in a state's own tube numbering)."""
    for source, tube in enumerate(tubes):
        if not tube:
            continue
        for destination, other in enumerate(tubes):
            if destination != source and len(other) < capacity and (
                    not other or other[-1] == tube[-1]):
                following = [list(t) for t in tubes]
                following[destination].append(following[source].pop())
                yield source, destination, following


def _multinomial(counts: np.ndarray) -> int:
    total = factorial(int(counts.sum()))
    for count in counts:
        total //= factorial(int(count))
    return total


TABLE_GAMES = ((4, 4, 3), (5, 4, 4))
"""(tubes, capacity, colours) `make tables` builds: the document's game and the large one."""
CHUNK = 1024
"""Classes per chunk: a query reads one chunk of keys (64 KiB) and one of moves."""
MEMORY_BUDGET = 16 * 2**30
"""Refuse sizes whose build would need more than this (the machine has 24 GiB)."""
SECONDS_PER_CLASS = 8e-6
"""Measured: 5 tubes of 4 with 4 colours, 1.56 M classes in about 12 s on 2 cores."""
MAX_MINUTES = 30.0

VIEWS = """
CREATE VIEW balls_summary AS
SELECT tubes, capacity, colours,
       sum(states)::BIGINT AS all_states,
       (sum(states) FILTER (WHERE moves IS NOT NULL))::BIGINT AS clearable_states,
       (sum(states) FILTER (WHERE initial))::BIGINT AS initial_states,
       coalesce(sum(states) FILTER (WHERE initial AND moves IS NOT NULL), 0)::BIGINT
           AS clearable_initial_states,
       max(moves) AS max_moves_all,
       max(moves) FILTER (WHERE initial) AS max_moves_initial,
       round(sum(moves * states) FILTER (WHERE initial)
             / sum(states) FILTER (WHERE initial AND moves IS NOT NULL), 3)
           AS mean_moves_initial
FROM balls_move_counts GROUP BY ALL ORDER BY ALL;

CREATE VIEW balls_symmetry_classes AS
SELECT t.tubes, t.capacity, t.colours, s.all_states, t.symmetries, t.classes,
       round(s.all_states / t.classes, 1) AS states_per_class, t.search_seconds
FROM balls_tables t JOIN balls_summary s USING (tubes, capacity, colours) ORDER BY ALL;

CREATE VIEW balls_move_distribution AS
SELECT tubes, capacity, colours, 'initial' AS kind, moves, sum(states)::BIGINT AS states
FROM balls_move_counts WHERE initial GROUP BY ALL
UNION ALL
SELECT tubes, capacity, colours, 'all', moves, sum(states)::BIGINT
FROM balls_move_counts GROUP BY ALL
ORDER BY tubes, capacity, colours, kind, moves NULLS LAST;
"""


def check_budget(rules: Balls, max_minutes: float = MAX_MINUTES) -> None:
    """Refuse, before anything starts, a size over the time or memory budget."""
    rules.check_keys_fit()
    needed = rules.memory_estimate()
    minutes = rules.classes_lower_bound() * SECONDS_PER_CLASS / 60
    shape = f"{rules.tubes} tubes x {rules.capacity} balls x {rules.colours} colours"
    if minutes > max_minutes:
        raise BallsError(
            f"{shape} has at least {rules.classes_lower_bound():,} symmetry classes: about "
            f"{minutes:,.0f} minutes and {needed / 2**30:.1f} GiB or more, over the "
            f"{max_minutes:g}-minute budget: not built (--max-minutes raises the budget)")
    if needed > MEMORY_BUDGET:
        raise BallsError(
            f"{shape} has {rules.n_states:,} states in at least "
            f"{rules.classes_lower_bound():,} symmetry classes and needs at least "
            f"{needed / 2**30:.1f} GiB, over the {MEMORY_BUDGET / 2**30:.0f} GiB budget: "
            "not built")


def classes_and_moves(rules: Balls, progress: bool) -> Computed:
    """Every symmetry class (its key and labelled states) and its fewest moves to be
    cleared, by the package's own kernel."""
    from tqdm import tqdm

    from builder.puzzles.balls.search import UNREACHABLE, enumerate_classes, moves_to_clear

    label = f"balls {rules.name}"
    if progress:
        tqdm.write(f"{label}: {rules.n_states:,} states, {rules.symmetries:,} symmetries, "
                   f"at least {rules.classes_lower_bound():,} classes "
                   f"(~{rules.memory_estimate() / 2**20:,.0f} MiB)")
    with tqdm(total=1, desc=f"{label} classes", unit="batch", disable=not progress) as bar:
        def enumerated(done: int, batches: int) -> None:
            bar.total = batches
            bar.update(done - bar.n)

        keys, states = enumerate_classes(rules, progress=enumerated)
        bar.set_postfix_str(f"{len(keys):,} classes")
    if int(states.sum()) != rules.n_states:
        raise RuntimeError(f"{label}: the classes hold {int(states.sum()):,} states, "
                           f"not {rules.n_states:,}")
    with tqdm(total=len(keys), desc=f"{label} search", unit="class", unit_scale=True,
              disable=not progress) as bar:
        moves = moves_to_clear(rules, keys, progress=lambda level, found: bar.update(found))
        never = int((moves == UNREACHABLE).sum())
        bar.update(never)
        bar.set_postfix_str(f"{never:,} classes cannot be cleared")
    return Computed({"class_key": keys, "moves_to_clear": moves, "class_states": states,
                     "key_index": keys[::CHUNK].copy()},
                    {"n_states": rules.n_states, "n_classes": len(keys)})


def moves_of_states(rules: Balls, keys: np.ndarray, moves: np.ndarray,
                    states: np.ndarray) -> np.ndarray:
    """Fewest moves to clear (255: never) of (N, T) tube codes, from whole arrays."""
    found = rules.class_keys(np.asarray(states).reshape(-1, rules.tubes))
    return moves[np.searchsorted(keys, found)]


def check_cleared(target: str) -> str:
    """'cleared', the only target a ball-tube state is played towards."""
    if target.strip().lower() != "cleared":
        raise BallsError(f"ball-tube paths go to 'cleared', not {shown(target)}")
    return "cleared"


class BallsPuzzle(WalkablePuzzle):
    """Ball tubes as a plug-in: a state's distance is its symmetry class's, found by its
    class key in the table of its (tubes, capacity, colours)."""

    name = "balls"
    summary = "ball tubes: move a top ball onto its colour or an empty tube until sorted"
    example = ("rggb|brrg|gbbr|", "cleared")
    renderer = "renderer.js"

    def recognises(self, text: str) -> bool:
        return "|" in text

    def variant(self, start: str, target: str, options: dict) -> Balls:
        return Balls.of_state(start)

    def parse(self, rules: Balls, text: str) -> tuple[int, ...]:
        return rules.parse(text)

    def parse_target(self, rules: Balls, text: str) -> str:
        return check_cleared(text)

    def format(self, rules: Balls, state) -> str:
        return "cleared" if state == "cleared" else rules.format(state)

    def default_target(self, rules: Balls) -> str:
        return "cleared"

    def at_target(self, rules: Balls, node, target) -> bool:
        return rules.is_cleared(node)

    def moves(self, rules: Balls, node: tuple[int, ...]) -> list[Move]:
        return [Move(f"{source} -> {destination}", following)
                for source, destination, following in rules.legal_moves(node)]

    def distance(self, tables, rules: Balls, node: tuple[int, ...], target) -> int | None:
        table = ("balls", rules.name)
        missing = (f"no ball-tube table for {rules.tubes} tubes of {rules.capacity} with "
                   f"{rules.colours} colours: run `builder balls --tubes {rules.tubes} "
                   f"--capacity {rules.capacity} --colours {rules.colours}`")
        tables.require(table, {"puzzle": "balls", "tubes": rules.tubes,
                               "capacity": rules.capacity, "colours": rules.colours,
                               "layout": TABLE_LAYOUT}, missing)
        key = int(rules.class_keys(np.array([node]))[0])
        found = tables.value(table, "moves_to_clear",
                             tables.position(table, "class_key", key, "key_index"))
        return None if found == 255 else found

    goal_words = ("clearable", "cleared")

    def explain_unreachable(self, rules: Balls, start, target) -> str:
        return f"{rules.format(start)} can never be cleared"

    def print_path(self, tables, walk, start: str, target: str, options: dict,
                   as_json: bool) -> bool:
        """Moves from tube to tube, all of a state's moves looked up at once."""
        from builder.puzzles.balls.answers import print_path

        print_path(tables, start, target, as_json)
        return True

    def search_path(self, rules: Balls, node: tuple[int, ...], target) -> FoundPath:
        from builder.puzzles.balls.answers import search_path

        return search_path(rules, node)

    def query_commands(self) -> dict:
        from builder.puzzles.balls.answers import deal, solve

        return {"random": deal, "solve": solve}

    top_level_commands = ("solve",)

    def web_routes(self, tables):
        from builder.puzzles.balls.answers import routes

        return routes(tables)

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        variant = f"{attributes['tubes']}_{attributes['capacity']}_{attributes['colours']}"
        return [DistanceArray(variant, "to cleared", "moves_to_clear", 255,
                              weights="class_states")]

    def table(self, identity: dict) -> TableSpec:
        rules = Balls(identity.get("tubes", 4), identity.get("capacity", 4),
                      identity.get("colours", 3))
        rules.check_keys_fit()
        return TableSpec(
            ("balls", rules.name),
            {"puzzle": "balls", "tubes": rules.tubes, "capacity": rules.capacity,
             "colours": rules.colours, "layout": TABLE_LAYOUT},
            compute=lambda progress: classes_and_moves(rules, progress), chunk=CHUNK,
            chunks={"key_index": 1 << 30},
            encoding="one entry per symmetry class (colour relabelling x tube order), "
                     "ascending class_key as builder/puzzles/balls defines it; "
                     "moves_to_clear: fewest moves to a cleared state, 255 = cannot be "
                     "cleared; class_states: labelled states in the class; key_index: "
                     "the first key of every chunk")

    def default_tables(self) -> list[TableSpec]:
        return [self.table({"tubes": tubes, "capacity": capacity, "colours": colours})
                for tubes, capacity, colours in TABLE_GAMES]

    def table_for(self, text: str) -> TableSpec:
        try:
            tubes, capacity, colours = (int(part) for part in text.strip().split("_"))
        except ValueError:
            raise BallsError(f"{shown(text)}: tubes_capacity_colours, such as 4_4_3") from None
        rules = Balls(tubes, capacity, colours)
        check_budget(rules)
        return self.table({"tubes": tubes, "capacity": capacity, "colours": colours})

    def build_command(self):
        def balls(
            tubes: Annotated[int, typer.Option("--tubes", help="Number of tubes T.")] = 4,
            capacity: Annotated[int, typer.Option("--capacity", help="Balls per tube c.")] = 4,
            colours: Annotated[int, typer.Option("--colours",
                                                 help="Colours k (c balls each).")] = 3,
            max_minutes: Annotated[float, typer.Option(
                "--max-minutes", help="Refuse sizes estimated to take longer than this.",
                min=0)] = MAX_MINUTES,
        ) -> list[TableSpec]:
            """Ball tubes: every state of a (T, c, k) game and its fewest moves to be
            cleared, by a search backwards from all cleared states. One entry per symmetry
            class (relabelling colours and reordering tubes change no distance), each with
            its number of states. Sizes over the memory budget are refused before anything
            starts.

            Example: builder balls --tubes 4 --capacity 3 --colours 3
            """
            check_budget(Balls(tubes, capacity, colours), max_minutes)
            return [self.table({"tubes": tubes, "capacity": capacity, "colours": colours})]

        return balls

    catalog_tables = (
        CatalogTable("balls_move_counts", "tubes INTEGER, capacity INTEGER, colours INTEGER, "
                                          "initial BOOLEAN, moves UTINYINT, states BIGINT"),
        CatalogTable("balls_tables", "tubes INTEGER, capacity INTEGER, colours INTEGER, "
                                     "symmetries BIGINT, classes BIGINT, "
                                     "search_seconds DOUBLE"),
    )
    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        """Labelled-state counts by fewest moves, from a table over symmetry classes: each
        class counts its labelled states, of which the starting states (first k tubes
        full) are the share the rules work out."""
        rules = Balls(attributes["tubes"], attributes["capacity"], attributes["colours"])
        keys, states, moves = read("class_key"), read("class_states"), read("moves_to_clear")
        initial = rules.initial_states_in_classes(keys, states)
        shape = (rules.tubes, rules.capacity, rules.colours)
        counts = []
        for value in np.unique(moves):
            chosen = moves == value
            for is_initial, among in ((True, initial[chosen]),
                                      (False, (states - initial)[chosen])):
                if among.sum():
                    counts.append((*shape, is_initial, None if value == 255 else int(value),
                                   int(among.sum())))
        return {"balls_move_counts": counts,
                "balls_tables": [(*shape, rules.symmetries, len(keys),
                                  attributes.get("search_seconds"))]}

    def verify_checks(self, attributes: dict) -> str:
        return ("classes ascending, adding up to every state, each key its class's "
                "smallest form; 0 moves exactly at the cleared class; fewest moves = 1 + "
                "the least after a move")

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        rules = Balls(attributes["tubes"], attributes["capacity"], attributes["colours"])
        keys, moves = read("class_key"), read("moves_to_clear")
        if not np.all(np.diff(keys) > 0):
            return "class keys are not strictly ascending"
        if int(read("class_states").sum()) != rules.n_states:
            return f"the classes do not add up to {rules.n_states:,} states"
        # 0 exactly at the goal: a forgery that shifts every entry keeps the recurrence
        # everywhere else, so the cleared class is checked whole, never by chance
        goal = np.flatnonzero(moves == 0)
        if goal.tolist() != np.flatnonzero(keys == rules.cleared_key()).tolist():
            return ("moves_to_clear is 0 at other classes than the cleared one (or not at "
                    "it)")
        drawn = keys[rng.integers(0, len(keys), samples)]
        if not np.array_equal(rules.class_keys(rules.codes_of_keys(drawn)), drawn):
            return "a stored key is not its class's smallest form"
        for rank in rng.integers(0, rules.n_states, samples):
            state = rules.state_of_rank(int(rank))
            if rules.is_cleared(state):
                expected = 0
            else:
                options = [following for *_, following in rules.legal_moves(state)]
                best = (int(moves_of_states(rules, keys, moves, np.array(options)).min())
                        if options else 255)
                expected = 255 if best == 255 else best + 1
            if int(moves_of_states(rules, keys, moves, np.array([state]))[0]) != expected:
                return f"state {rules.format(state)} breaks the shortest-path recurrence"
        return None
