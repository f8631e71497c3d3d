"""Bench rows for the puzzles added as plug-ins on the engine's generic breadth-first
kernel (Hanoi, sliding tiles, Lucas' rules), each against a plain Python breadth-first
search of the same puzzle run here, at a size the plain search finishes in seconds;
the full sizes `make tables` builds are timed beside them (no baseline: the plain search
would take minutes).

    python bench/plugins.py --data data      # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import sys
import time
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder.contract.specs import kernel
from builder.kernels.graph_bfs import breadth_first
from puzzles.hanoi.rules import rank as hanoi_rank
from puzzles.hanoi.search import hanoi_moves as HANOI_MOVES
from puzzles.lucas.rules import Lucas, dense_rank
from puzzles.lucas.search import lucas_steps
from puzzles.sliding.rules import goal_with_blank_at, lehmer_rank
from puzzles.sliding.search import sliding_moves
from tests import reference  # the tests' plain search and rules, the baseline


def timed(work, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def bench_plugins(rows: list[dict]) -> None:
    # warm the numba cache (the kernel and each plug-in's moves) before timing
    breadth_first(16, [15], kernel(HANOI_MOVES), 12, (4, 2))
    breadth_first(24, [0], kernel(sliding_moves), 4, (2, 2))
    breadth_first(6, [0], kernel(lucas_steps), 4, (1, 0))

    def hanoi(discs: int):
        return breadth_first(4**discs, [hanoi_rank(4, "D" * discs)], kernel(HANOI_MOVES), 12,
                             (4, discs))

    discs = 9
    ours = timed(lambda: hanoi(discs))
    plain = timed(lambda: reference.plain_distances("D" * discs, reference.hanoi_moves(4)), 1)
    rows.append(row(f"hanoi_4pegs_{discs}discs_table", ours, plain,
                    f"Hanoi, 4 pegs, {discs} discs ({4**discs:,} positions) to all on one peg: "
                    "the generic kernel vs a plain Python BFS (dict per position)"))
    rows.append(row("hanoi_4pegs_12discs_table", timed(lambda: hanoi(12)), None,
                    "4 pegs, 12 discs (16,777,216 positions): the issue's target is < 2 s"))

    goal = goal_with_blank_at(9, 8)
    ours = timed(lambda: breadth_first(362_880, [lehmer_rank(goal)], kernel(sliding_moves), 4,
                                       (3, 3)))
    plain = timed(lambda: reference.plain_distances(goal, reference.sliding_moves(3, 3)), 1)
    rows.append(row("eight_puzzle_table", ours, plain,
                    "the 8-puzzle to 123.456.780 (181,440 positions reach it): the generic "
                    "kernel vs a plain Python BFS"))
    rows.append(row("eight_puzzle_all_blank_cells", timed(lambda: [
        breadth_first(362_880, [lehmer_rank(goal_with_blank_at(9, blank))],
                      kernel(sliding_moves), 4, (3, 3)) for blank in range(9)]), None,
        "the whole stored 3x3 table: one search per blank cell (9); target < 0.5 s"))

    def lucas(n: int, direction: int):
        rules = Lucas(n)
        return breadth_first((2 * n + 1) * comb(2 * n, n),
                             [dense_rank(rules, rules.parse(rules.goal))], kernel(lucas_steps), 4,
                             (n, direction))

    n = 8
    ours = timed(lambda: lucas(n, 0))
    plain = timed(lambda: reference.plain_distances(
        "B" * n + "_" + "A" * n,
        lambda here: [following for following, _, _ in reference.lucas_moves(here)]), 1)
    rows.append(row(f"lucas_n{n}_either_way", ours, plain,
                    f"Lucas n = {n} ({17 * comb(16, 8):,} arrangements), any piece either "
                    "way, to the goal: the generic kernel vs a plain Python BFS"))
    rows.append(row("lucas_n10_either_way", timed(lambda: lucas(10, 0)), None,
                    "n = 10 (3,879,876 arrangements), either way: the issue's target is < 1 s "
                    "(GamesmanPuzzles, one dict entry per position, was measured at 89 s)"))
    rows.append(row("lucas_forward_n1_to_10", timed(lambda: [lucas(k, -1)
                                                             for k in range(1, 11)]), None,
                    "the classic rule's stored table, n = 1 .. 10 (what make tables builds)"))


if __name__ == "__main__":
    run_alone(__doc__, bench_plugins)
