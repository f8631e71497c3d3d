"""Quinto / Lights Out rules on any rows × cols board, and their linear algebra over GF(2).

A click inverts the button and its four orthogonal neighbours (document 001).  Clicking
twice cancels, so a solution is a set of buttons: the board after clicking set x from
start s is s xor (A x), where column j of A is button j's click mask.  Solving A x =
start xor target is Gaussian elimination over GF(2) on bit-packed rows (Python ints);
every solution is x0 xor (any combination of the null space), so there are
2^nullity of them, and the fewest clicks is the minimum weight over that coset,
found exactly by enumerating the coset up to ``MAX_EXACT_NULLITY``.

Notation: rows of 0/1 joined by '.', top row first (``111.111.111``); buttons are
numbered row-major from 0, and bit i of a state is button i.

Its table (``lightsout/tables``): the fewest clicks from all off to every 5×5 state, over
every click set (``search.fewest_clicks``), and a summary of every board up to 10×10
(nullity by elimination; the most clicks any solvable state needs, from the same kernel,
for boards of at most 25 buttons), published as the catalog's ``lightsout_summary`` and
``lightsout_5x5_distribution``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from builder.puzzles import (
    MissingTableError,
    PuzzleInputError,
    UnreachableError,
    check_length,
    shown,
)
from builder.puzzles.base import CatalogTable, DistanceArray, FoundPath, Move, WalkablePuzzle
from builder.puzzles.specs import Computed, TableSpec

MAX_EXACT_NULLITY = 22
"""Cosets of up to 2^22 solutions are enumerated exactly for the fewest clicks."""


class LightsOutError(PuzzleInputError):
    """A malformed board or an impossible request."""


@dataclass(frozen=True)
class Solution:
    solvable: bool
    nullity: int
    clicks: tuple[int, ...]  # a minimum-click solution (empty when unsolvable)
    exact_minimum: bool

    @property
    def count(self) -> int:
        return 2**self.nullity if self.solvable else 0


@dataclass(frozen=True)
class LightsOut:
    """The click rule of a rows × cols board.

    >>> LightsOut(3, 3).solve(0, LightsOut(3, 3).all_on).clicks
    (0, 2, 4, 6, 8)
    """

    rows: int
    cols: int

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= 64 and 1 <= self.cols <= 64):
            raise LightsOutError(f"board {self.rows}x{self.cols}: 1 to 64 rows and columns")

    @property
    def n_buttons(self) -> int:
        return self.rows * self.cols

    @property
    def all_on(self) -> int:
        return (1 << self.n_buttons) - 1

    @cached_property
    def click_masks(self) -> tuple[int, ...]:
        masks = []
        for button in range(self.n_buttons):
            row, col = divmod(button, self.cols)
            mask = 1 << button
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < self.rows and 0 <= c < self.cols:
                    mask |= 1 << (r * self.cols + c)
            masks.append(mask)
        return tuple(masks)

    def parse(self, text: str) -> int:
        lines = text.strip().split(".")
        if len(lines) != self.rows or any(len(line) != self.cols for line in lines):
            raise LightsOutError(
                f"board {shown(text)} is not {self.rows} rows of {self.cols} buttons joined by '.'"
            )
        if set("".join(lines)) - set("01"):
            raise LightsOutError(f"board {shown(text)} has characters other than 0 and 1")
        return sum(1 << i for i, ch in enumerate("".join(lines)) if ch == "1")

    @staticmethod
    def shape_of(text: str) -> tuple[int, int]:
        lines = check_length(text, "board", LightsOutError).strip().split(".")
        if not lines[0]:
            raise LightsOutError("empty board")
        return len(lines), len(lines[0])

    def format(self, state: int) -> str:
        bits = "".join("1" if state >> i & 1 else "0" for i in range(self.n_buttons))
        return ".".join(bits[r * self.cols : (r + 1) * self.cols] for r in range(self.rows))

    def press(self, state: int, buttons) -> int:
        for button in buttons:
            state ^= self.click_masks[button]
        return state

    @cached_property
    def _reduced(self) -> tuple[dict[int, list[int]], list[int]]:
        """Gauss–Jordan on the equations [A | I]: per pivot column its reduced row (bits,
        combination of original equations), and the combinations that vanish."""
        n = self.n_buttons
        rows = [[self.click_masks[i], 1 << i] for i in range(n)]
        pivot_of_column: dict[int, list[int]] = {}
        remaining = rows
        for column in range(n):
            index = next((k for k, r in enumerate(remaining) if r[0] >> column & 1), None)
            if index is None:
                continue
            pivot = remaining.pop(index)
            for r in remaining:
                if r[0] >> column & 1:
                    r[0] ^= pivot[0]
                    r[1] ^= pivot[1]
            for r in pivot_of_column.values():
                if r[0] >> column & 1:
                    r[0] ^= pivot[0]
                    r[1] ^= pivot[1]
            pivot_of_column[column] = pivot
        # rows reduced to zero: combinations c with c·A = 0
        return pivot_of_column, [combo for _, combo in remaining]

    @property
    def nullity(self) -> int:
        return len(self._reduced[1])

    @cached_property
    def null_space(self) -> list[int]:
        """Click sets that change nothing (A x = 0); A is symmetric, so the combinations
        of equations that vanish are exactly these."""
        return self._reduced[1]

    def solve(self, start: int, target: int = 0) -> Solution:
        """Which click sets turn ``start`` into ``target``, and one with the fewest clicks."""
        change = start ^ target
        pivots, null_space = self._reduced
        # solvable iff change is orthogonal to the null space (A symmetric: image = kernel⊥)
        if any((change & vector).bit_count() % 2 for vector in null_space):
            return Solution(False, len(null_space), (), True)
        # x = sum over pivot columns of (combination row · change) e_column
        particular = 0
        for column, (bits, combo) in pivots.items():
            if (combo & change).bit_count() % 2:
                particular |= 1 << column
        best, exact = particular, len(null_space) <= MAX_EXACT_NULLITY
        if exact:
            best = _minimum_weight_coset(particular, null_space)
        clicks = tuple(i for i in range(self.n_buttons) if best >> i & 1)
        return Solution(True, len(null_space), clicks, exact)


def _minimum_weight_coset(particular: int, basis: list[int]) -> int:
    """min weight of particular xor span(basis), by a Gray-code walk over the coset."""
    best = current = particular
    best_weight = best.bit_count()
    for step in range(1, 1 << len(basis)):
        current ^= basis[(step & -step).bit_length() - 1]
        weight = current.bit_count()
        if weight < best_weight:
            best, best_weight = current, weight
    return best


TABLE_SHAPE = (5, 5)
"""The board with a stored table (`builder lightsout`): fewest clicks from all off."""
SUMMARY_SIZE = 10
"""`lightsout_summary` covers every board up to 10 × 10."""
TABLE_BUTTONS = 25
"""Boards of up to 25 buttons get a full search (their max_min_clicks is exact)."""
TABLE_PARTS = ("lightsout", "tables")

VIEWS = """
CREATE VIEW lightsout_summary AS
SELECT rows, cols, nullity,
       (1::HUGEINT << (rows * cols - nullity)::INTEGER) AS solvable_states,
       max_min_clicks
FROM lightsout_boards ORDER BY rows, cols;

CREATE VIEW lightsout_5x5_distribution AS
SELECT clicks, states FROM lightsout_5x5_clicks WHERE clicks IS NOT NULL ORDER BY clicks;
"""


def compute_table(progress: bool) -> Computed:
    """The 5×5 table and the summary of every board up to SUMMARY_SIZE squared."""
    from tqdm import tqdm

    from builder.puzzles.lightsout.search import fewest_clicks

    summary = []
    table_5x5 = None
    shapes = [(r, c) for r in range(1, SUMMARY_SIZE + 1) for c in range(1, SUMMARY_SIZE + 1)]
    for rows, cols in tqdm(shapes, desc="lights out boards", unit="board", disable=not progress):
        board = LightsOut(rows, cols)
        max_min_clicks = None
        if board.n_buttons <= TABLE_BUTTONS:
            distances = fewest_clicks(board.click_masks, board.n_buttons)
            max_min_clicks = int(distances[distances != 255].max())
            if (rows, cols) == TABLE_SHAPE:
                table_5x5 = distances
        summary.append({"rows": rows, "cols": cols, "nullity": board.nullity,
                        "max_min_clicks": max_min_clicks})
    return Computed({"clicks_5x5": table_5x5}, {"summary": summary})


class LightsOutPuzzle(WalkablePuzzle):
    """Lights Out as a plug-in: clicks commute and cancel, so the fewest clicks from one
    board to another are the stored fewest clicks from all off to their difference."""

    name = "lightsout"
    summary = "Quinto / Lights Out: a click inverts a button and its four neighbours"
    example = ("00000.00000.00000.00000.00000", "11111.11111.11111.11111.11111")
    unit = "clicks"

    def recognises(self, text: str) -> bool:
        letters = set(text.strip())
        return bool(letters) and letters <= {"0", "1", "."} and letters != {"."}

    def variant(self, start: str, target: str, options: dict) -> LightsOut:
        return LightsOut(*LightsOut.shape_of(start))

    def parse(self, rules: LightsOut, text: str) -> int:
        return rules.parse(text)

    def format(self, rules: LightsOut, state: int) -> str:
        return rules.format(state)

    def default_target(self, rules: LightsOut) -> str:
        return rules.format(0)

    def moves(self, rules: LightsOut, node: int) -> list[Move]:
        return [Move(str(button), node ^ mask) for button, mask in enumerate(rules.click_masks)]

    def distance(self, tables, rules: LightsOut, node: int, target: int) -> int | None:
        if (rules.rows, rules.cols) != TABLE_SHAPE:
            raise MissingTableError(f"only the 5x5 board has a table; solve {rules.rows}x"
                                    f"{rules.cols} boards with `query lightsout solve`")
        table = ("lightsout", "tables")
        tables.require(table, {"puzzle": "lightsout"},
                       "no Lights Out table: run `make tables` or `builder lightsout`")
        found = tables.value(table, "clicks_5x5", node ^ target)
        return None if found == 255 else found

    def search_path(self, rules: LightsOut, node: int, target: int) -> FoundPath | None:
        """The fewest clicks on any board by linear algebra over GF(2) (clicks commute, so
        a shortest path is a minimum-weight solution in any order); None where the
        solutions are too many to enumerate for a proven minimum."""
        solution = rules.solve(node, target)
        if not solution.solvable:
            raise UnreachableError(self.explain_unreachable(rules, node, target))
        if not solution.exact_minimum:
            return None
        nodes = [node]
        for button in solution.clicks:
            nodes.append(nodes[-1] ^ rules.click_masks[button])
        return FoundPath(tuple(nodes), tuple(map(str, solution.clicks)),
                         how="linear algebra over GF(2)")

    def explain_unreachable(self, rules: LightsOut, start: int, target: int) -> str:
        return (f"{rules.format(target)} cannot be reached from {rules.format(start)}: the "
                f"{rules.rows}x{rules.cols} board has nullity {rules.nullity}, so only 1 "
                f"board in {2 ** rules.nullity} is reachable from a given one")

    renderer = "renderer.js"

    def web_routes(self, tables):
        from builder.puzzles.lightsout.commands import routes

        return routes()

    def catalog_distances(self, attributes: dict) -> list[DistanceArray]:
        return [DistanceArray("5x5", "from all off", "clicks_5x5", 255)]

    def table(self, identity: dict) -> TableSpec:
        return TableSpec(
            TABLE_PARTS, {"puzzle": "lightsout", "summary_size": SUMMARY_SIZE,
                          "table_buttons": TABLE_BUTTONS},
            compute=compute_table, chunk=1 << 20,
            encoding="clicks_5x5[state]: fewest clicks between all off and the state "
                     "(bit i = button i, row-major), 255 = unreachable")

    def default_tables(self) -> list[TableSpec]:
        return [self.table({})]

    catalog_tables = (
        CatalogTable("lightsout_boards",
                     "rows INTEGER, cols INTEGER, nullity INTEGER, max_min_clicks INTEGER"),
        CatalogTable("lightsout_5x5_clicks", "clicks UTINYINT, states BIGINT"),
    )
    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        import numpy as np

        counts = np.bincount(read("clicks_5x5"), minlength=256)
        return {
            "lightsout_boards": [(row["rows"], row["cols"], row["nullity"],
                                  row["max_min_clicks"]) for row in attributes["summary"]],
            "lightsout_5x5_clicks": [(None if clicks == 255 else clicks, int(states))
                                     for clicks, states in enumerate(counts) if states],
        }

    def query_commands(self) -> dict:
        from builder.puzzles.lightsout import commands

        return {"solve": commands.solve}

    def verify_checks(self, attributes: dict) -> str:
        return "0 clicks exactly at the dark board; fewest clicks = 1 + the least after a click"

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        board = LightsOut(*TABLE_SHAPE)
        clicks = read("clicks_5x5")
        if np.flatnonzero(clicks == 0).tolist() != [0]:  # checked whole: a forgery that
            return "clicks_5x5 is 0 elsewhere than at the dark board (or not there)"  # shifts all
        for state in rng.integers(0, 1 << board.n_buttons, samples):
            after = [int(clicks[state ^ mask]) for mask in board.click_masks]
            reachable = [value for value in after if value != 255]
            expected = 0 if state == 0 else (min(reachable) + 1 if reachable else 255)
            if int(clicks[state]) != expected:
                return f"clicks_5x5: state {board.format(int(state))} holds " \
                       f"{int(clicks[state])}, the recurrence gives {expected}"
        return None
