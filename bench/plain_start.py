"""The plain-Python start (a keyed plug-in's table built from its plain-Python `moves`,
no kernel) against a dict breadth-first search written here over the same `moves`, both
in this process, on two components:

- a Rush Hour card of Fogleman's database (58 moves, 9,192 positions), the plug-in
  written below as a designer would;
- Klotski's classic start (block metric, 25,955 positions), the built-in plug-in with
  its kernel set aside (``sparse_search(..., plain=True)``).

The baseline finds what the table holds: every position reachable from the start (a
forward search), then each one's fewest moves to the goal (a search back from the goal
positions over the same moves, which undo themselves).  Both must find the same positions
and distances.  Each side's time is the least of five runs, the two taking turns.

    .venv/bin/python bench/plain_start.py     # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder import registry
from builder.contract.base import Move
from builder.contract.puzzle import KeyedPuzzle
from builder.sparse import sparse_search
from tests import reference

SIZE, EXIT = 6, 4
"""A 6×6 board; the red car (A) leaves when its left cell is in column 4."""
CARD = "BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN"
"""Fogleman's database: 58 moves, 9,192 positions reachable."""
WARM_UP = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"
"""The database's hardest card (2,332 positions): run once first, for numpy's lazy
imports."""
RUNS = 5


class RushHour(KeyedPuzzle):
    """A card is the variant; a position is each vehicle's offset along its line (letters
    in order); a move slides one vehicle any free distance.  Keys: 3 bits an offset."""

    name = "rushhour-bench"
    summary = "Rush Hour (the benchmark's plug-in)"
    example = (CARD, "solved")

    def recognises(self, text):
        return len(text) == SIZE * SIZE

    def variant(self, start, target, options):
        return start

    @staticmethod
    def vehicles(card: str) -> list[tuple[str, bool, int, int]]:
        """(letter, across, line, length) of each vehicle, by letter."""
        cells: dict[str, list[int]] = {}
        for at, letter in enumerate(card):
            if letter not in "ox":
                cells.setdefault(letter, []).append(at)
        return [(letter, cells[letter][1] - cells[letter][0] == 1,
                 cells[letter][0] // SIZE if cells[letter][1] - cells[letter][0] == 1
                 else cells[letter][0] % SIZE, len(cells[letter]))
                for letter in sorted(cells)]

    def parse(self, card, text):
        return tuple(text.index(letter) % SIZE if across else text.index(letter) // SIZE
                     for letter, across, _, _ in self.vehicles(card))

    def format_position(self, card, offsets):
        board = ["x" if cell == "x" else "o" for cell in card]
        for (letter, across, line, length), offset in zip(self.vehicles(card), offsets):
            for step in range(length):
                board[line * SIZE + offset + step if across
                      else (offset + step) * SIZE + line] = letter
        return "".join(board)

    def moves(self, card, offsets):
        board = self.format_position(card, offsets)
        found = []
        for index, ((letter, across, line, length), offset) in enumerate(
                zip(self.vehicles(card), offsets)):
            def cell(k, across=across, line=line):
                return line * SIZE + k if across else k * SIZE + line
            for way, edge, end in ((-1, offset - 1, -1), (1, offset + length, SIZE)):
                for k in range(edge, end, way):
                    if board[cell(k)] != "o":
                        break
                    moved = k if way < 0 else k - length + 1
                    found.append(Move(f"{letter}{moved - offset:+d}",
                                      offsets[:index] + (moved,) + offsets[index + 1:]))
        return found

    def encode(self, card, offsets):
        return sum(offset << (3 * i) for i, offset in enumerate(offsets))

    def decode(self, card, key):
        return tuple((key >> (3 * i)) & 7 for i in range(len(self.vehicles(card))))

    def starts(self, card):
        return [self.parse(card, card)]

    def is_goal(self, card, offsets):
        return offsets[0] == EXIT

    def table_variants(self):
        return [CARD]

    def variant_name(self, card):
        return card

    def variant_named(self, name):
        return name


def dict_bfs(puzzle: KeyedPuzzle, variant) -> dict:
    """Every position the start reaches, with its fewest moves to the goal (255: never):
    the plain dict search of tests/reference.py, forwards, then back from the goals over
    the same moves (they undo themselves)."""
    moves = lambda position: [move.state for move in puzzle.moves(variant, position)]
    reached = reference.plain_distances(puzzle.starts(variant)[0], moves)
    distance = reference.nearest_distances(
        [position for position in reached if puzzle.is_goal(variant, position)], moves)
    return {position: distance.get(position, 255) for position in reached}


def plain_build(puzzle: KeyedPuzzle, variant) -> tuple:
    search = puzzle.sparse_search(variant, plain=True)
    with tempfile.TemporaryDirectory() as folder:
        return sparse_search(search, Path(folder))


def least_times(*runs) -> list[tuple[float, object]]:
    """Each of ``runs`` (a function and its arguments) run ``RUNS`` times, turn about (a
    load on a shared machine then weighs on both alike): its least time and its result."""
    times: list[list[float]] = [[] for _ in runs]
    made: list[object] = [None] * len(runs)
    for _ in range(RUNS):
        for at, (function, *args) in enumerate(runs):
            started = time.perf_counter()
            made[at] = function(*args)
            times[at].append(time.perf_counter() - started)
    return [(min(spent), result) for spent, result in zip(times, made)]


def bench_component(rows, name: str, puzzle: KeyedPuzzle, variant, what: str) -> None:
    (baseline, expected), (product, (keys, distance)) = least_times(
        (dict_bfs, puzzle, variant), (plain_build, puzzle, variant))
    found = {puzzle.decode(variant, key): int(d)
             for key, d in zip(keys.tolist(), distance.tolist())}
    same = found == expected
    start = expected[puzzle.starts(variant)[0]]
    print(f"{name}: {len(keys):,} positions, start at {start} moves; dict BFS "
          f"{baseline:.3f} s, plain-Python start {product:.3f} s "
          f"({len(keys) / product:,.0f} positions/s), ratio {baseline / product:.2f}; "
          f"same positions and distances: {same}")
    rows.append(row(name, product, baseline,
                    f"{what}: {len(keys):,} positions, the start {start} moves from the "
                    f"goal; the engine's plain-Python build (1 shard, in memory: "
                    f"{len(keys) / product:,.0f} positions/s) against a dict BFS over the "
                    f"same moves (forward, then back from the goals); least of {RUNS} "
                    f"runs each, taking turns; same positions and distances: {same}"))


def bench_rush_hour(rows) -> None:
    rush_hour = RushHour()
    plain_build(rush_hour, WARM_UP)
    bench_component(rows, "plain_start_rush_hour_vs_dict_bfs", rush_hour, CARD,
                    f"Rush Hour card {CARD} (a plug-in written in the bench)")


def bench_klotski(rows) -> None:
    bench_component(rows, "plain_start_klotski_block_vs_dict_bfs",
                    registry.by_name("klotski"), "block",
                    "Klotski from the classic start, block metric (the plug-in's "
                    "plain-Python moves, its kernel set aside)")


if __name__ == "__main__":
    run_alone(__doc__, bench_rush_hour, bench_klotski)
