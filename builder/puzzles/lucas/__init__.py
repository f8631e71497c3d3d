"""Lucas' inverted pieces (document 003): n pieces A and n pieces B in a row of 2n + 1
cells with one gap.  A move shifts a piece next to the gap into it, or jumps a piece
over exactly one piece of the other colour into the gap; any piece, either way.

Encoding: a state is ``gap * 2**cells + a_mask`` (bit i of a_mask: cell i holds an A;
the other non-gap cells hold B).  The sorted array of every state's code is the perfect
ranking (rank = position in it, found by binary search), so tables are flat arrays.
Notation: ``AAA_BBB`` (``_`` is the gap).  Pure numpy.

The classic rule (``--variant forward``): pieces only move forward, A right and B left
(the document's solution only ever moves them so).  Its table ``lucas/forward`` holds,
for n = 1 .. 10, the fewest classic moves from every arrangement to the goal (255: the
goal can no longer be reached), filled by the engine's generic kernel from
``search.lucas_steps`` over a dense ranking (``dense_rank``).

The document's table (``lucas/tables``, `builder lucas --max-n N`): for n = 1 .. N every
arrangement's moves from the standard start and to the goal, by the level search of
``levels.py``, which also counts the shortest solutions and their jumps: the catalog's
``lucas_summary``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import comb
from typing import Annotated

import numpy as np
import typer

from builder.puzzles import PuzzleInputError, shown
from builder.puzzles.base import CatalogTable, DistanceArray, Move, PuzzleOption, WalkablePuzzle
from builder.puzzles.specs import BreadthFirstSearch, Computed, TableSpec

SHIFT, JUMP = "shift", "jump"


def _masks_with_ones(length: int, ones: int) -> np.ndarray:
    """Every ``length``-bit mask with exactly ``ones`` bits set (int64), built one bit
    position at a time: by_count[k] holds the masks so far with k bits set."""
    by_count = [np.zeros(1, dtype=np.int64)]
    for position in range(length):
        bit = np.int64(1) << position
        by_count = [np.concatenate([by_count[k] if k < len(by_count) else
                                    np.zeros(0, dtype=np.int64),
                                    by_count[k - 1] | bit if k else np.zeros(0, dtype=np.int64)])
                    for k in range(min(len(by_count) + 1, ones + 1))]
    return by_count[ones] if ones < len(by_count) else np.zeros(0, dtype=np.int64)


class LucasError(PuzzleInputError):
    """A malformed arrangement."""


@dataclass(frozen=True)
class Lucas:
    n: int

    def __post_init__(self) -> None:
        if not 1 <= self.n <= 10_000:
            raise LucasError(f"n = {self.n}: from 1 to 10,000 pieces of each colour")

    @property
    def cells(self) -> int:
        return 2 * self.n + 1

    @property
    def start(self) -> str:
        return "A" * self.n + "_" + "B" * self.n

    @property
    def goal(self) -> str:
        return "B" * self.n + "_" + "A" * self.n

    def parse(self, text: str) -> int:
        text = text.strip().upper()
        if len(text) != self.cells or sorted(text) != sorted(self.start):
            raise LucasError(
                f"arrangement {shown(text)} is not {self.n} A's, {self.n} B's and one '_'"
            )
        gap = text.index("_")
        return (gap << self.cells) | sum(1 << i for i, ch in enumerate(text) if ch == "A")

    def format(self, code: int) -> str:
        gap, mask = code >> self.cells, code & ((1 << self.cells) - 1)
        return "".join("_" if i == gap else "A" if mask >> i & 1 else "B"
                       for i in range(self.cells))

    @cached_property
    def codes(self) -> np.ndarray:
        """Every state's code, sorted: the ranking (tables only: n <= 30 fits int64)."""
        if self.n > 30:
            raise LucasError(f"n = {self.n}: a table of every arrangement stops at n = 30")
        others = _masks_with_ones(self.cells - 1, self.n)  # the A's among the other cells
        found = []
        for gap in range(self.cells):  # a zero bit for the gap at position ``gap``
            below = others & ((1 << gap) - 1)
            found.append((gap << self.cells) | below | ((others ^ below) << 1))
        return np.sort(np.concatenate(found))

    def rank(self, codes: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.codes, codes)

    def moves(self, codes: np.ndarray):
        """For each of the four moves (piece from gap-2, gap-1, gap+1, gap+2): the resulting
        codes, which are legal, the move type and the moving piece's letter."""
        cells = self.cells
        gap = codes >> cells
        mask = codes & ((1 << cells) - 1)
        result = []
        for offset in (-2, -1, 1, 2):
            source = gap + offset
            inside = (source >= 0) & (source < cells)
            safe_source = np.clip(source, 0, cells - 1)
            is_a = (mask >> safe_source) & 1
            legal = inside
            if abs(offset) == 2:
                over = np.clip(gap + offset // 2, 0, cells - 1)
                legal = legal & (((mask >> over) & 1) != is_a)
            new_mask = (mask & ~(1 << safe_source)) | (is_a << gap)
            result.append(((safe_source << cells) | new_mask, legal,
                           JUMP if abs(offset) == 2 else SHIFT, is_a))
        return result

    def closed_form(self) -> list[tuple[str, str]]:
        """The document's move pattern, (agent, move type) per move, without search: blocks
        of growing length alternating A (moving right) and B (moving left), each ending in
        a shift; a middle block of n jumps; then the same blocks mirrored."""
        direction: list[int] = []
        action: list[str] = []
        for group in range(1, self.n + 1):
            action += [JUMP] * (group - 1) + [SHIFT]
            direction += [1 if group % 2 else -1] * group
        mirrored_direction, mirrored_action = direction[::-1], action[::-1]
        direction += [-direction[-1]] * self.n + mirrored_direction
        action += [JUMP] * self.n + mirrored_action
        return [("A" if d > 0 else "B", a) for d, a in zip(direction, action)]

    def play(self, text: str, moves: list[tuple[str, str]]) -> list[str]:
        """Arrangements after each move (agent A moves right, B left), checking legality."""
        cells = list(text)
        seen = [text]
        for agent, kind in moves:
            gap = cells.index("_")
            step = 1 if kind == SHIFT else 2
            source = gap - step if agent == "A" else gap + step
            if not 0 <= source < len(cells) or cells[source] != agent:
                raise LucasError(f"move {agent} {kind} is not possible in {''.join(cells)}")
            if kind == JUMP and cells[(source + gap) // 2] == agent:
                raise LucasError(f"{agent} cannot jump its own colour in {''.join(cells)}")
            cells[gap], cells[source] = agent, "_"
            seen.append("".join(cells))
        return seen


FORWARD_MAX_N = 10
"""`make tables` stores the classic rule's distances for n = 1 .. 10 (3.9 M arrangements)."""
FORWARD = "forward"
EITHER_WAY = "either way"


@dataclass(frozen=True)
class ForwardOnly:
    """The classic rule's variant: the same arrangements, moves only forward."""

    rules: Lucas


def dense_rank(rules: Lucas, code: int) -> int:
    """An arrangement's rank in the tables the generic kernel fills: gap * C(2n, n) + the
    colex rank of the A's among the cells that are not the gap (``search._unrank`` inverts it)."""
    gap, mask = code >> rules.cells, code & ((1 << rules.cells) - 1)
    slots = [cell for cell in range(rules.cells) if cell != gap]
    chosen = [slot for slot, cell in enumerate(slots) if mask >> cell & 1]
    return gap * comb(2 * rules.n, rules.n) + sum(comb(slot, i + 1)
                                                  for i, slot in enumerate(chosen))


def forward_search(rules: Lucas, target: int) -> BreadthFirstSearch:
    # neighbours: the arrangements one classic move before (moves undone); moves: after
    return BreadthFirstSearch((2 * rules.n + 1) * comb(2 * rules.n, rules.n),
                              (dense_rank(rules, target),),
                              "builder.puzzles.lucas.search:lucas_steps", 4,
                              parameters=(rules.n, -1),
                              moves="builder.puzzles.lucas.search:classic_moves")


DOCUMENT_MAX_N = 10
"""`make tables` searches n = 1 .. 10 (3.9 million arrangements at n = 10)."""
BYTES_PER_STATE = 80
"""The document search's arrays per arrangement: code, distance, path count, jump bounds,
and the temporaries of one level's four moves."""
MEMORY_BUDGET = 4 * 2**30
DOCUMENT_PARTS = ("lucas", "tables")

VIEWS = """
CREATE VIEW lucas_summary AS
SELECT n, states, reachable_states, moves,
       CASE WHEN fewest_jumps = most_jumps THEN fewest_jumps END AS jumps,
       CASE WHEN fewest_jumps = most_jumps THEN moves - fewest_jumps END AS shifts,
       optimal_solutions
FROM lucas_runs ORDER BY n;
"""


MAX_N_SHOWN = 100
"""Past this, --max-n is refused before its arrangements are counted."""


def check_size(max_n: int) -> None:
    """Refuse, with the numbers, a document table that is empty or would not fit."""
    if max_n < 1:
        raise LucasError(f"--max-n {max_n}: at least 1 (n = 1 .. max-n are searched)")
    if max_n > MAX_N_SHOWN:  # the count below would overflow a float before the budget says no
        raise LucasError(f"--max-n {max_n}: n = {max_n} has more than 10^{MAX_N_SHOWN // 2} "
                         f"arrangements, far over the {MEMORY_BUDGET / 2**30:.0f} GiB budget "
                         "(n <= 11 fits)")
    largest = (2 * max_n + 1) * comb(2 * max_n, max_n)
    needed = largest * BYTES_PER_STATE
    if needed > MEMORY_BUDGET:
        raise LucasError(f"--max-n {max_n}: n = {max_n} has {largest:,.4g} arrangements and "
                         f"needs about {needed / 2**30:,.4g} GiB, over the "
                         f"{MEMORY_BUDGET / 2**30:.0f} GiB budget (n <= 11 fits)")


def document_arrays(max_n: int, progress: bool) -> Computed:
    """Every arrangement of n = 1 .. max_n searched from the standard start and from the
    goal; the summary (moves, jumps, shifts, optimal solutions) comes from the search."""
    from tqdm import tqdm

    from builder.puzzles.lucas.levels import lucas_search

    arrays, summary = {}, []
    for n in tqdm(range(1, max_n + 1), desc="lucas n", unit="n", disable=not progress):
        rules = Lucas(n)
        start, goal = rules.parse(rules.start), rules.parse(rules.goal)
        from_start, paths, fewest, most = lucas_search(rules, start)
        to_goal = lucas_search(rules, goal)[0]
        goal_rank = int(rules.rank(np.array([goal]))[0])
        moves = int(from_start[goal_rank])
        summary.append({
            "n": n, "states": len(rules.codes),
            "reachable_states": int((from_start >= 0).sum()), "moves": moves,
            "fewest_jumps": int(fewest[goal_rank]), "most_jumps": int(most[goal_rank]),
            "optimal_solutions": int(paths[goal_rank]),
            "shifts": moves - int(fewest[goal_rank]),
        })
        arrays.update({f"n{n}_codes": rules.codes, f"n{n}_from_start": from_start,
                       f"n{n}_to_goal": to_goal})
    return Computed(arrays, {"summary": summary})


def document_table(max_n: int) -> TableSpec:
    check_size(max_n)
    return TableSpec(DOCUMENT_PARTS, {"puzzle": "lucas", "max_n": max_n},
                     compute=lambda progress: document_arrays(max_n, progress),
                     encoding="per n: codes (sorted state codes = ranking; code = gap * "
                              "2**cells + mask of A cells), from_start / to_goal: moves from "
                              "the standard start / to the inverted goal, -1 = unreachable")


class LucasPuzzle(WalkablePuzzle):
    """Lucas' pieces as a plug-in: the tables hold, per n, every arrangement's moves to
    the goal and from the standard start (moves are reversible, so also to the start)."""

    name = "lucas"
    summary = "Lucas' inverted pieces: swap n A's and n B's across one gap"
    example = ("AAA_BBB", "BBB_AAA")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "variant", "'forward' (A only moves right, B only left) or 'either way' (the "
        "default)", (FORWARD, EITHER_WAY)),)

    def recognises(self, text: str) -> bool:
        text = text.strip()
        return "_" in text and "|" not in text and all(ch.isalpha() or ch == "_" for ch in text)

    def variant(self, start: str, target: str, options: dict) -> Lucas | ForwardOnly:
        text = start.strip().upper()
        if len(text) % 2 == 0 or text.count("_") != 1:
            raise LucasError(f"arrangement {shown(start)}: n A's, one '_' and n B's")
        rule = str(options.get("variant") or EITHER_WAY).strip().lower()
        if rule not in (FORWARD, EITHER_WAY):
            raise LucasError(f"--variant {shown(rule)}: '{FORWARD}' (A only moves right, B "
                             f"only left) or '{EITHER_WAY}' (the default)")
        rules = Lucas(len(text) // 2)
        return ForwardOnly(rules) if rule == FORWARD else rules

    def parse(self, variant: Lucas | ForwardOnly, text: str) -> int:
        return _rules(variant).parse(text)

    def format(self, variant: Lucas | ForwardOnly, state: int) -> str:
        return _rules(variant).format(state)

    def default_target(self, variant: Lucas | ForwardOnly) -> str:
        return _rules(variant).goal

    def moves(self, variant: Lucas | ForwardOnly, node: int) -> list[Move]:
        rules = _rules(variant)
        gap = node >> rules.cells
        found = []
        for following, legal, kind, is_a in rules.moves(np.array([node])):
            # an A moving right leaves the gap to its left; a B moving left, to its right
            forward = (int(following[0]) >> rules.cells < gap) == bool(is_a[0])
            if legal[0] and (forward or not isinstance(variant, ForwardOnly)):
                found.append(Move(f"{'A' if is_a[0] else 'B'} {kind}", int(following[0])))
        return found

    def distance(self, tables, variant: Lucas | ForwardOnly, node: int,
                 target: int) -> int | None:
        if isinstance(variant, ForwardOnly):
            return self._forward_distance(tables, variant.rules, node, target)
        rules = variant
        table = ("lucas", "tables")
        missing = f"no Lucas table: run `make tables` or `builder lucas --max-n {rules.n}`"
        attributes = tables.require(table, {"puzzle": "lucas"}, missing)
        if rules.n > attributes.get("max_n", 0):
            raise LucasError(f"no Lucas table for n = {rules.n}: run `builder lucas --max-n "
                             f"{rules.n}`")
        if target == rules.parse(rules.goal):
            array = f"n{rules.n}_to_goal"
        elif target == rules.parse(rules.start):
            array = f"n{rules.n}_from_start"
        else:
            raise LucasError(f"the Lucas tables hold distances to {rules.goal} and to "
                             f"{rules.start} only, not to {rules.format(target)}")
        found = tables.value(table, array, int(rules.rank(np.array([node]))[0]), missing)
        return None if found < 0 else found

    def _forward_distance(self, tables, rules: Lucas, node: int, target: int) -> int | None:
        if target == rules.parse(rules.goal) and rules.n <= FORWARD_MAX_N:
            spec = self.table({"puzzle": "lucas", "rule": FORWARD, "max_n": FORWARD_MAX_N})
            found = tables.value(spec.parts, f"n{rules.n}", dense_rank(rules, node),
                                 missing="no table of Lucas' classic rule: run `make tables` "
                                         "or `builder build lucas forward`")
        elif rules.n <= FORWARD_MAX_N:  # another target: searched now (well under a second)
            spec = self.table({"puzzle": "lucas", "rule": FORWARD, "n": rules.n,
                               "target": rules.format(target)})
            found = int(tables.computed(spec)["moves"][dense_rank(rules, node)])
        else:
            raise LucasError(f"n = {rules.n}: the classic rule's tables stop at n = "
                             f"{FORWARD_MAX_N}")
        return None if found == 255 else found

    def table(self, identity: dict) -> TableSpec:
        if identity.get("rule") != FORWARD:
            return document_table(identity.get("max_n", DOCUMENT_MAX_N))
        if "target" in identity:
            rules = Lucas(identity["n"])
            target = rules.parse(identity["target"])
            return TableSpec(("lucas", "forward", identity["target"]),
                             {"puzzle": "lucas", "rule": FORWARD, "n": rules.n,
                              "target": rules.format(target)},
                             {"moves": forward_search(rules, target)},
                             encoding=f"moves[rank]: fewest classic moves to "
                                      f"{rules.format(target)}; {DENSE_RANK}")
        top = identity.get("max_n", FORWARD_MAX_N)
        if not 1 <= top <= FORWARD_MAX_N:
            raise LucasError(f"max n {top}: from 1 to {FORWARD_MAX_N}")
        return TableSpec(("lucas", "forward"), {"puzzle": "lucas", "rule": FORWARD, "max_n": top},
                         {f"n{n}": forward_search(Lucas(n), Lucas(n).parse(Lucas(n).goal))
                          for n in range(1, top + 1)},
                         encoding=f"n{{n}}[rank]: fewest classic moves (A right, B left) to "
                                  f"the goal B.._A..; {DENSE_RANK}")

    def default_tables(self) -> list[TableSpec]:
        return [document_table(DOCUMENT_MAX_N),
                self.table({"puzzle": "lucas", "rule": FORWARD, "max_n": FORWARD_MAX_N})]

    def table_for(self, text: str) -> TableSpec:
        choice = text.strip().lower()
        if choice == FORWARD:
            return self.default_tables()[1]
        if choice.isdigit():
            return document_table(int(choice))
        raise LucasError(f"{shown(text)}: 'forward' (the classic rule's tables) or a largest "
                         "n such as 8 (the document's table, n = 1 .. 8)")

    def build_command(self):
        def lucas(
            max_n: Annotated[int, typer.Option(
                "--max-n", help="Search n = 1 .. this (at most 11: n = 12 has 67.6 million "
                "arrangements).", min=1, max=1000)] = DOCUMENT_MAX_N,
        ) -> list[TableSpec]:
            """Lucas' inverted pieces: every arrangement of n A's, n B's and a gap, searched
            from the start and from the goal, for n = 1 .. max-n (n = 10: 3.9 million
            arrangements); and the classic rule's table (lucas/forward, n = 1 .. 10).

            Example: builder lucas --max-n 8
            """
            return [document_table(max_n), self.default_tables()[1]]

        return lucas

    catalog_tables = (CatalogTable(
        "lucas_runs", "n INTEGER, states BIGINT, reachable_states BIGINT, moves INTEGER, "
        "fewest_jumps INTEGER, most_jumps INTEGER, optimal_solutions BIGINT"),)
    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        if attributes.get("rule") == FORWARD:
            return {}
        return {"lucas_runs": [(r["n"], r["states"], r["reachable_states"], r["moves"],
                                r["fewest_jumps"], r["most_jumps"], r["optimal_solutions"])
                               for r in attributes["summary"]]}

    def print_path(self, tables, walk, start: str, target: str, options: dict,
                   as_json: bool) -> bool:
        """The document's layout for its own rules; a variant's walk is the engine's, its
        text the engine's too, and its JSON the same layout as the document's rules."""
        from builder.puzzles.lucas import commands

        if options.get("variant"):
            if not as_json:
                return False
            variant = self.variant(start, target, options)
            found = walk(self, variant, self.parse(variant, start),
                         self.parse_target(variant, target))
            commands.print_json([self.format(variant, node) for node in found.nodes],
                                [tuple(label.split(" ", 1)) for label in found.labels],
                                found.how, options["variant"])
            return True
        commands.print_path(self, tables, walk, start, target, as_json)
        return True

    def verify_checks(self, attributes: dict) -> str:
        if attributes.get("rule") == FORWARD:
            return ""  # its arrays are the generic kernel's, checked by the engine
        return ("0 moves exactly at the start and at the goal; moves from the start and to "
                "the goal = 1 + the least after a move")

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        if attributes.get("rule") == FORWARD:
            return None
        drawn = rng.integers(1, attributes["max_n"] + 1, samples)
        for n in np.unique(drawn):
            rules = Lucas(int(n))
            codes = read(f"n{n}_codes")
            if not np.array_equal(codes, rules.codes):
                return f"n{n}_codes: not every arrangement in ascending order"
            arrays = {"from_start": (read(f"n{n}_from_start"), rules.parse(rules.start)),
                      "to_goal": (read(f"n{n}_to_goal"), rules.parse(rules.goal))}
            for name, (moves, source) in arrays.items():  # whole: a shifted forgery keeps
                if np.flatnonzero(moves == 0).tolist() != [  # the recurrence elsewhere
                        int(np.searchsorted(codes, source))]:
                    return f"n{n}_{name}: 0 moves is not exactly at {rules.format(source)}"
            for index in rng.integers(0, len(codes), int((drawn == n).sum())):
                name = "from_start" if rng.integers(2) else "to_goal"
                moves, source = arrays[name]
                after = [int(moves[rules.rank(following[legal])[0]])
                         for following, legal, _, _ in rules.moves(codes[[index]])
                         if legal[0]]
                reachable = [value for value in after if value >= 0]
                expected = (0 if codes[index] == source else
                            min(reachable) + 1 if reachable else -1)
                if int(moves[index]) != expected:
                    return (f"n{n}_{name}: {rules.format(int(codes[index]))} holds "
                            f"{int(moves[index])}, the recurrence gives {expected}")
        return None

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        if attributes.get("rule") == FORWARD:
            if "target" in attributes:
                return [DistanceArray(f"n={attributes['n']} forward",
                                      f"to {attributes['target']}", "moves", 255)]
            return [DistanceArray(f"n={n} forward", "to goal", f"n{n}", 255)
                    for n in range(1, attributes["max_n"] + 1)]
        return [DistanceArray(f"n={n}", "to goal", f"n{n}_to_goal", -1)
                for n in range(1, attributes.get("max_n", 0) + 1)]


DENSE_RANK = ("rank = gap * C(2n, n) + colex rank of the A cells among the non-gap cells; "
              "255 = the target can no longer be reached")


def _rules(variant: Lucas | ForwardOnly) -> Lucas:
    return variant.rules if isinstance(variant, ForwardOnly) else variant
