"""Ball-tube benchmarks: the document's game against its own pure-Python search, the large
game (5 tubes of 4, 4 colours) in a process of its own, and queries on the large table
against the same queries on the document's.

Run by `make bench` (through bench/run.py); `python bench/balls.py` runs these rows alone
and merges them into data/bench.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.baselines import document_ball_search
from bench.rows import merge_rows, row

LARGE = (5, 4, 4)

BUILD_IN_A_PROCESS = """
import json, resource, sys, time
from pathlib import Path
from builder import registry
from builder.routine import build_table
from builder.store import directory_size
tubes, capacity, colours, data = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
started = time.perf_counter()
spec = registry.by_name("balls").table({"tubes": tubes, "capacity": capacity, "colours": colours})
result = build_table(Path(data), spec, force=True, progress=False)
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds,
                  "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "disk": directory_size(result.path)}))
"""


def class_build(size):
    """The whole computation of a table: rule tables, class enumeration, search."""
    from puzzles.balls.rules import Balls
    from builder.contract.base import never_of
    from puzzles.balls.search import enumerate_classes, moves_to_clear

    rules = Balls(*size)  # fresh: its cached code tables are built inside the timing
    keys, states = enumerate_classes(rules)
    moves = moves_to_clear(rules, keys)
    initial = rules.initial_states_in_classes(keys, states)
    clearable = moves != never_of(moves)
    return int(states[clearable].sum()), int(initial[clearable].sum())


def bench_document_game(rows):
    class_build((3, 2, 2))  # compile / load the numba cache, start the thread pool
    product, baseline, counts = [], [], None
    for _ in range(5):
        started = time.perf_counter()
        counts = class_build((4, 4, 3))
        product.append(time.perf_counter() - started)
    for _ in range(3):
        started = time.perf_counter()
        expected = document_ball_search()
        baseline.append(time.perf_counter() - started)
    if counts != expected:
        raise SystemExit(f"bench: ball-tube counts differ: {counts} vs the document's {expected}")
    rows.append(row("balls_4_4_3_build", statistics.median(product), statistics.median(baseline),
                    "the whole table of the document's game (rule tables, the 8,759 symmetry "
                    "classes, fewest moves for each) vs the document's pure-Python search "
                    "(801,396 clearable labelled states as strings, no distances); medians of "
                    f"5 and 3 runs; both find {counts[0]:,} clearable and {counts[1]:,} "
                    "clearable starting states"))


def build_in_a_process(size) -> dict:
    """{seconds, peak_rss, disk} of `builder balls` (the build routine) run in a fresh process."""
    with tempfile.TemporaryDirectory() as scratch:
        ran = subprocess.run([sys.executable, "-c", BUILD_IN_A_PROCESS, *map(str, size),
                              scratch], check=True, capture_output=True, text=True, cwd=ROOT)
        return json.loads(ran.stdout)


def bench_large_build(rows):
    measured = build_in_a_process(LARGE)
    rows.append(row("balls_5_4_4_build", measured["seconds"], None,
                    f"`builder balls --tubes 5 --capacity 4 --colours 4` in a fresh process: 4,414,410,000 labelled states "
                    f"in 1,561,821 classes, zarr writes included; peak RSS "
                    f"{measured['peak_rss'] / 2**30:.2f} GiB, {measured['disk'] / 2**20:.1f} MiB "
                    "on disk"))


def clearable_states(data: Path, size, count: int) -> list[tuple[int, ...]]:
    """Uniformly drawn labelled states that can be cleared."""
    from puzzles.balls.answers import BallsTable
    from puzzles.balls.rules import Balls
    from query.walk import Tables

    rules = Balls(*size)
    ranks = np.random.default_rng(11).integers(0, rules.n_states, 20 * count)
    states = rules.codes_of_ranks(ranks)
    moves = BallsTable(Tables(data), rules).moves_of_states(states)
    return [tuple(int(c) for c in s) for s in states[moves != 255][:count]]


def retired_walk(rules, table, state) -> int:
    """The balls-only walk that `query path` used before the one walk (round 9), kept as
    the before of the per-move row: all of a state's moves looked up at once."""
    remaining, moves = table.moves_to_clear(state), 0
    while remaining > 0:
        options = rules.legal_moves(state)
        distances = table.moves_of_states(np.array([following for *_, following in options]))
        state = options[int(np.flatnonzero(distances == remaining - 1)[0])][2]
        remaining, moves = remaining - 1, moves + 1
    return moves


def query_times(data: Path, size, starts: int = 200):
    """Medians of `moves_to_clear` and of a whole path walk per move of the path, each
    from a fresh table reader (chunks read from disk), at random clearable states."""
    from puzzles.balls import BallsPuzzle
    from puzzles.balls.answers import BallsTable
    from puzzles.balls.rules import Balls
    from query.walk import Tables, walk


    rules = Balls(*size)
    states = clearable_states(data, size, starts)
    lookups, paths, before = [], [], []
    for state in states:
        table = BallsTable(Tables(data), rules)
        started = time.perf_counter()
        table.moves_to_clear(state)
        lookups.append(time.perf_counter() - started)
        # each walk opens the game's table in its timed part, as `query path` does
        reader = Tables(data)
        started = time.perf_counter()
        found = walk(BallsPuzzle(), reader, rules, state, "cleared")
        paths.append((time.perf_counter() - started) / max(found.length, 1))
        reader = Tables(data)
        started = time.perf_counter()
        retired_walk(rules, BallsTable(reader, rules), state)
        before.append((time.perf_counter() - started) / max(found.length, 1))
    return statistics.median(lookups), statistics.median(paths), statistics.median(before)


def cold_cli(data: Path, size, runs: int = 7) -> float:
    from puzzles.balls.rules import Balls

    state = Balls(*size).format(clearable_states(data, size, 1)[0])
    query = str(Path(sys.executable).parent / "query")
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([query, "path", state, "cleared", "--data", str(data)], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_queries(rows, data: Path):
    small_lookup, small_path, _ = query_times(data, (4, 4, 3))
    large_lookup, large_path, large_before = query_times(data, LARGE)
    rows.append(row("balls_query_solvable_5_4_4_p50", large_lookup, small_lookup,
                    "fewest moves of one state, fresh reader: the 5_4_4 table (1.56M classes) "
                    "vs the document's 4_4_3 (baseline); ratio near 1 = as fast"))
    rows.append(row("balls_query_path_per_move_5_4_4_p50", large_path, small_path,
                    "shortest path by table walk, fresh reader, time per move of the path: "
                    "5_4_4 vs 4_4_3 (baseline; 5_4_4 paths are longer, up to 25 moves vs 18)"))
    rows.append(row("balls_query_path_per_move_5_4_4_one_walk_vs_before", large_path,
                    large_before,
                    "the same walks, fresh reader, per move: the engine's walk (every "
                    "puzzle's) vs the balls-only walk it replaced; ratio >= 1: no slower"))
    rows.append(row("balls_query_path_cli_5_4_4", cold_cli(data, LARGE),
                    cold_cli(data, (4, 4, 3)),
                    "`query path STATE cleared` as a new process, median of 7: 5_4_4 "
                    "vs 4_4_3 (baseline)"))


def bench_balls(rows, data: Path):
    bench_document_game(rows)
    bench_large_build(rows)
    bench_queries(rows, data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--build", nargs=3, type=int, metavar=("T", "c", "k"),
                        help="only time one size's build in a fresh process and print it")
    args = parser.parse_args()
    if args.build:
        measured = build_in_a_process(args.build)
        print(f"{'_'.join(map(str, args.build))}: {measured['seconds']:.1f} s, peak RSS "
              f"{measured['peak_rss'] / 2**30:.2f} GiB, {measured['disk'] / 2**20:.1f} MiB on disk")
        return
    rows: list[dict] = []
    bench_balls(rows, args.data.resolve())
    merge_rows(args.data, rows)


if __name__ == "__main__":
    main()
