"""The 15-puzzle by IDA* on pattern databases: Korf's 100 instances (tests/korf100.json),
each solved optimally (its length asserted equal to the published one), in one thread and
on two; IDA* on the Manhattan distance (the same kernel, a table per tile) on the first 10
as the baseline; and the pattern databases' build times and sizes (built again in a
temporary directory, so the figure is this run's).

    .venv/bin/python bench/korf.py --data data   # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder import patterns, registry
from builder.reader import Tables
from builder.routine import build_table
from builder.store import directory_size
from puzzles.sliding.tables import default_partition, pattern_set, search_for

SLIDING = registry.by_name("sliding")
BOARD = (4, 4)
KORF = json.loads((ROOT / "tests" / "korf100.json").read_text())
BASELINE_INSTANCES = 10


def instances() -> list[tuple[int, tuple, tuple, int]]:
    goal = SLIDING.parse(BOARD, KORF["goal"])
    return [(found["number"], tuple(found["tiles"]), goal, found["length"])
            for found in KORF["instances"]]


def solve(tables, number, start, goal, length, partition=None, reflect=True):
    """(seconds, nodes) of one instance, its length checked against the published one."""
    search = search_for(tables, BOARD, start, goal, partition, reflect)
    if search is None:
        raise SystemExit(f"no pattern tables for 4x4 in {tables.location}: run `make tables`")
    started = time.perf_counter()
    searched = patterns.run(tables, search, progress=False)
    seconds = time.perf_counter() - started
    path = patterns.found_path(SLIDING, BOARD, start, search, searched)
    if searched.length != length or path.length != length or path.nodes[-1] != goal:
        raise SystemExit(f"instance {number}: {searched.length} moves, published {length}")
    return seconds, searched.nodes


def bench_korf(rows, data: Path) -> None:
    tables = Tables(data)
    todo = instances()
    solve(tables, *todo[1])  # compile or load the kernels, read the tables
    started = time.perf_counter()
    solved = [solve(tables, *instance) for instance in todo]
    one_thread = time.perf_counter() - started
    times = np.array([seconds for seconds, _ in solved])
    nodes = sum(count for _, count in solved)
    with ThreadPoolExecutor(2) as pool:
        started = time.perf_counter()
        list(pool.map(lambda instance: solve(tables, *instance), todo))
        two_threads = time.perf_counter() - started
    name = default_partition(*BOARD)
    rows.append(row(
        "korf100_ida_pattern_databases", one_thread, None,
        f"Korf's 100 15-puzzle instances, each at its published optimal length, IDA* on "
        f"the {name} pattern databases and their reflection about the main diagonal (the "
        f"larger sum), one thread: {nodes:,} nodes, {nodes / one_thread / 1e6:.1f} M "
        f"nodes/s; per instance mean {times.mean():.3f} s, p50 {np.percentile(times, 50):.3f}"
        f" s, p95 {np.percentile(times, 95):.3f} s, max {times.max():.2f} s (instance "
        f"{todo[int(times.argmax())][0]})"))
    rows.append(row(
        "korf100_two_threads_vs_one", two_threads, one_thread,
        "the same 100 instances, two at a time on two threads (the kernel releases the "
        "GIL) against one thread: wall time"))
    first = todo[:BASELINE_INSTANCES]
    with tempfile.TemporaryDirectory(prefix="manhattan-") as folder:
        for spec in pattern_set(*BOARD, 0, "manhattan"):
            build_table(Path(folder), spec, progress=False, log=lambda *_: None)
        plain = Tables(Path(folder))
        solve(plain, *first[8], partition="manhattan", reflect=False)  # the quickest
        manhattan = [solve(plain, *instance, partition="manhattan", reflect=False)
                     for instance in first]
    product = times[:BASELINE_INSTANCES].sum()
    baseline = sum(seconds for seconds, _ in manhattan)
    rows.append(row(
        "korf100_first10_pattern_databases_vs_manhattan", product, baseline,
        f"Korf's first {BASELINE_INSTANCES} instances, IDA* in the same kernel: {name} "
        f"pattern databases with the reflection ({sum(c for _, c in solved[:BASELINE_INSTANCES]):,} nodes) "
        f"against the Manhattan distance (a one-tile table per tile, "
        f"{sum(c for _, c in manhattan):,} nodes, "
        f"{sum(c for _, c in manhattan) / baseline / 1e6:.1f} M nodes/s)"))


def bench_tables(rows) -> None:
    specs = pattern_set(*BOARD, 0, default_partition(*BOARD))
    with tempfile.TemporaryDirectory(prefix="patterns-") as folder:
        built = []
        memory = 0
        started = time.perf_counter()
        for spec in specs:
            result = build_table(Path(folder), spec, progress=False, log=lambda *_: None)
            search = spec.searches["abstract"]
            folded = search.states // spec.folds["estimate"].width
            memory += folded
            built.append(
                f"{','.join(map(str, spec.identity['tiles']))}: {result.seconds:.1f} s, "
                f"{directory_size(result.path) / 1e6:.1f} MB on disk, {search.states:,} "
                f"abstract states, estimate {folded:,} bytes in memory")
        seconds = time.perf_counter() - started
    rows.append(row(
        "korf_pattern_tables_build", seconds, None,
        f"the 15-puzzle's {default_partition(*BOARD)} pattern databases towards Korf's goal, "
        f"built by the engine's breadth-first kernel and written with checksums (the "
        f"search reads the folded estimates, {memory / 1e6:.1f} MB in all): "
        + "; ".join(built)))


if __name__ == "__main__":
    run_alone(__doc__, bench_korf, bench_tables)
