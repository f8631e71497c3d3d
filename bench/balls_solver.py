"""Ball-tube solver on app-sized deals: a fixed, seeded set per group (20 random deals
each), per group the share proven optimal / unclearable / unresolved, median and p95
time and states explored; against a plain Python breadth-first search over the same
states (up to tube order) run here on the groups it can finish (the ratio).

    .venv/bin/python -m bench.balls_solver [--deals 20] [--data data]

Water sort's groups (rows ``water_solver_*``) are the same deals under pours.

Run by `make bench`; merges its rows into data/bench.json.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import merge_rows, row
from puzzles.balls.solver import Workspace, solve

GROUPS = ([(k, 4, 2) for k in range(4, 15)] + [(k, 4, 3) for k in range(6, 11)]
          + [(k, 4, 1) for k in range(4, 15)]  # one empty tube: where most deals are stuck
          + [(k, 6, 2) for k in range(6, 13)])
"""(colours, capacity, empty tubes)."""
WATER_GROUPS = [(k, 4, 2) for k in range(4, 15)] + [(k, 4, 1) for k in range(4, 15)]
"""The same deals under water sort's pours."""
BASELINE_GROUPS = {(4, 4, 2), (5, 4, 2)}
"""Where the plain search finishes in seconds per deal."""
SEED = 2026


def deals(colours: int, capacity: int, empty: int, count: int) -> list[list[list[int]]]:
    rng = random.Random(f"{SEED}-{colours}-{capacity}-{empty}")
    found = []
    for _ in range(count):
        balls = [c for c in range(colours) for _ in range(capacity)]
        rng.shuffle(balls)
        found.append([balls[t * capacity:(t + 1) * capacity] for t in range(colours)]
                     + [[] for _ in range(empty)])
    return found


def plain_bfs(tubes: list[list[int]], capacity: int, water: bool = False) -> int | None:
    """Fewest moves (pours with ``water``) by breadth-first search in pure Python (states
    up to tube order)."""
    def key(state):
        return tuple(sorted(tuple(t) for t in state))

    seen, queue = {key(tubes): 0}, deque([tubes])
    while queue:
        state = queue.popleft()
        depth = seen[key(state)]
        if all(not t or (len(t) == capacity and len(set(t)) == 1) for t in state):
            return depth
        for s, tube in enumerate(state):
            for d, other in enumerate(state):
                if tube and d != s and len(other) < capacity and (
                        not other or other[-1] == tube[-1]):
                    following = [list(t) for t in state]
                    following[d].append(following[s].pop())
                    while (water and following[s] and following[s][-1] == tube[-1]
                           and len(following[d]) < capacity):
                        following[d].append(following[s].pop())
                    if key(following) not in seen:
                        seen[key(following)] = depth + 1
                        queue.append(following)
    return None


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench_group(colours: int, capacity: int, empty: int, count: int,
                water: bool = False) -> dict:
    workspace = Workspace(colours + empty, 2_000_000)
    times, explored, verdicts, lengths = [], [], [], []
    for tubes in deals(colours, capacity, empty, count):
        started = time.perf_counter()
        found = solve(tubes, colours, capacity, workspace=workspace, water=water)
        times.append(time.perf_counter() - started)
        explored.append(found.explored)
        verdicts.append(found.verdict)
        if found.verdict == "optimal":
            lengths.append(found.length)
    baseline = None
    if (colours, capacity, empty) in BASELINE_GROUPS:
        started = time.perf_counter()
        expected = [plain_bfs(tubes, capacity, water)
                    for tubes in deals(colours, capacity, empty, count)]
        baseline = time.perf_counter() - started
        solved = [length for length, verdict in zip(expected, verdicts) if length is not None]
        if solved != lengths or sum(v == "unclearable" for v in verdicts) != expected.count(
                None):
            raise SystemExit(f"group {colours}/{capacity}/{empty}: solver and BFS disagree")
    share = {name: sum(v == name for v in verdicts) / count
             for name in ("optimal", "unclearable")}
    unresolved = 1 - share["optimal"] - share["unclearable"]
    notes = (("water sort (pours): " if water else "")
             + f"{count} seeded deals of {colours} colours, tubes of {capacity}, {empty} empty: "
             f"optimal {share['optimal']:.0%}, unclearable {share['unclearable']:.0%}, "
             f"unresolved {unresolved:.0%}; median {statistics.median(times) * 1e3:.1f} ms, "
             f"p95 {percentile(times, 0.95) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms; "
             f"states explored median {statistics.median(explored):,.0f}, "
             f"max {max(explored):,}; mean optimal length "
             + (f"{statistics.mean(lengths):.1f}" if lengths else "- (none clearable)"))
    if baseline is not None:
        notes += "; baseline: plain Python BFS over the same deals, lengths identical"
    name = f"{'water' if water else 'balls'}_solver_{colours}c_{capacity}cap_{empty}e"
    return row(name, sum(times), baseline, notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    options = parser.parse_args()
    solve([[0, 1], [1, 0], []], 2, 2)  # compile / load the cache
    rows = [bench_group(*group, options.deals) for group in GROUPS]
    rows += [bench_group(*group, options.deals, water=True) for group in WATER_GROUPS]
    merge_rows(options.data, rows)


if __name__ == "__main__":
    main()
