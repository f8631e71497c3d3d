"""The 15-puzzle by IDA* on pattern databases: Korf's 100 instances (tests/korf100.json),
each solved optimally (its length asserted equal to the published one), on the 6-6-3
partition (`make tables`) in one thread and on two, and on the 7-8 partition against it
(nodes and CPU seconds, in one process, one instance after another), with and without the
dual look-ups; IDA* on the Manhattan distance (the same kernel, a table per tile) on the
first 10 as the baseline; and the pattern databases' build times and sizes: 6-6-3 built
again in a temporary directory, so the figure is this run's, 7-8 as its build recorded it
(built on first use in the data directory, a few minutes); and the instant path a budget
answers first (a beam search) against the published optima.

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
from builder.routine import build_table, table_path
from builder.store import directory_size, read_attributes
from puzzles.sliding.tables import default_partition, pattern_set, search_for

SLIDING = registry.by_name("sliding")
BOARD = (4, 4)
KORF = json.loads((ROOT / "tests" / "korf100.json").read_text())
BASELINE_INSTANCES = 10
LARGER = "7-8"


def instances() -> list[tuple[int, tuple, tuple, int]]:
    goal = SLIDING.parse(BOARD, KORF["goal"])
    return [(found["number"], tuple(found["tiles"]), goal, found["length"])
            for found in KORF["instances"]]


def solve(tables, number, start, goal, length, partition=None, reflect=True, dual=False):
    """(seconds, nodes) of one instance, its length checked against the published one."""
    search = search_for(tables, BOARD, start, goal, partition, reflect, dual)
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
    name = default_partition(*BOARD)
    solve(tables, *todo[1], partition=name)  # compile or load the kernels, read the tables
    started = time.perf_counter()
    solved = [solve(tables, *instance, partition=name) for instance in todo]
    one_thread = time.perf_counter() - started
    times = np.array([seconds for seconds, _ in solved])
    nodes = sum(count for _, count in solved)
    with ThreadPoolExecutor(2) as pool:
        started = time.perf_counter()
        list(pool.map(lambda instance: solve(tables, *instance, partition=name), todo))
        two_threads = time.perf_counter() - started
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
    first_nodes = sum(count for _, count in solved[:BASELINE_INSTANCES])
    rows.append(row(
        "korf100_first10_pattern_databases_vs_manhattan", product, baseline,
        f"Korf's first {BASELINE_INSTANCES} instances, IDA* in the same kernel: {name} "
        f"pattern databases with the reflection ({first_nodes:,} nodes) "
        f"against the Manhattan distance (a one-tile table per tile, "
        f"{sum(c for _, c in manhattan):,} nodes, "
        f"{sum(c for _, c in manhattan) / baseline / 1e6:.1f} M nodes/s)"))


EIGHTY = "0,12,9,13.15,11,10,14.3,7,2,5.4,8,6,1"
"""A position 80 moves from the default goal, the most any position needs."""


def bench_quick_paths(rows, data: Path) -> None:
    """The instant path a budget or seconds answers first (``approximate_path``, a beam
    search on the smallest stored pattern tables): its length against the published
    optimum of Korf's 100, and its time, the tables read by each call."""
    tables = Tables(data)
    todo = instances()
    SLIDING.approximate_path(tables, BOARD, *todo[0][1:3])  # numpy warmed, tables cached
    times, excess, how = [], [], set()
    for number, start, goal, length in todo:
        started = time.perf_counter()
        found = SLIDING.approximate_path(tables, BOARD, start, goal)
        times.append(time.perf_counter() - started)
        if found.nodes[-1] != goal or found.length < length:
            raise SystemExit(f"instance {number}: a quick path of {found.length} moves, "
                             f"published {length}")
        excess.append(found.length - length)
        how.add(found.how)
    hardest = SLIDING.parse(BOARD, EIGHTY)
    started = time.perf_counter()
    eighty = SLIDING.approximate_path(tables, BOARD, hardest,
                                      SLIDING.parse(BOARD, SLIDING.default_target(BOARD)))
    eighty_seconds = time.perf_counter() - started
    times = np.array(times)
    rows.append(row(
        "korf100_quick_paths", times.sum(), None,
        f"Korf's 100 instances answered at once ({', '.join(sorted(how))}, the path a "
        f"budget or seconds answers first): {np.mean(excess):.2f} moves over the published "
        f"optimum on average, {max(excess)} at most, {excess.count(0)} optimal; per instance "
        f"mean {times.mean():.3f} s, max {times.max():.3f} s; the position 80 moves out: "
        f"{eighty.length} moves in {eighty_seconds:.3f} s"))


def larger_tables(data: Path) -> float | None:
    """The 7-8 pattern databases in ``data``, built there on first use (a few minutes,
    a bar each, a line naming the command that builds them ahead): the seconds this run
    spent building them, None where they were stored."""
    specs = [table.spec() for table in pattern_set(*BOARD, 0, LARGER)]
    if all((table_path(data, spec) / "zarr.json").exists() for spec in specs):
        return None
    print(f"bench/korf.py: building the 15-puzzle's {LARGER} pattern databases in {data} "
          f"once, a few minutes (ahead of time: `builder build sliding 4x4:{LARGER} --data "
          f"{data}`)", file=sys.stderr, flush=True)
    started = time.perf_counter()
    for spec in specs:
        build_table(data, spec, progress=True, log=lambda *_: None)
    return time.perf_counter() - started


def cpu_solve_all(tables, todo, partition: str, dual: bool = False):
    """(CPU seconds, nodes, each instance's CPU seconds) of the instances solved one after
    another in this process (its first search, which reads the tables, excluded)."""
    solve(tables, *todo[1], partition=partition, dual=dual)
    each = []
    nodes = 0
    for instance in todo:
        started = time.process_time()
        nodes += solve(tables, *instance, partition=partition, dual=dual)[1]
        each.append(time.process_time() - started)
    return sum(each), nodes, np.array(each)


def bench_larger(rows, data: Path) -> None:
    """Korf's 100 on the 7-8 tables against 6-6-3, by CPU time (the machine is shared:
    wall time counts the other users)."""
    built = larger_tables(data)
    tables = Tables(data)
    todo = instances()
    started = time.process_time()
    solve(tables, *todo[1], partition=LARGER)
    load = time.process_time() - started
    smaller = default_partition(*BOARD)
    base_cpu, base_nodes, _ = cpu_solve_all(tables, todo, smaller)
    cpu, nodes, each = cpu_solve_all(tables, todo, LARGER)
    dual_cpu, dual_nodes, _ = cpu_solve_all(tables, todo, LARGER, dual=True)
    count = len(todo)
    rows.append(row(
        "korf100_seven_eight_vs_six_six_three_cpu", cpu, base_cpu,
        f"Korf's 100 instances, every length its published optimum, IDA* with the "
        f"reflection, CPU seconds in one thread: the {LARGER} pattern databases "
        f"{nodes:,} nodes ({nodes // count:,} an instance; Felner, Korf and Hanan 2004: "
        f"36,710), {nodes / cpu / 1e6:.1f} M nodes per CPU-s, per instance p50 "
        f"{np.percentile(each, 50):.4f} s, max {each.max():.3f} s (instance "
        f"{todo[int(each.argmax())][0]}); against {smaller}: {base_nodes:,} nodes "
        f"({base_nodes // count:,} an instance), {base_nodes / base_cpu / 1e6:.1f} M nodes "
        f"per CPU-s; the first search of a process reads the {LARGER} tables: "
        f"{load:.2f} CPU-s"))
    rows.append(row(
        "korf100_seven_eight_dual_vs_plain_cpu", dual_cpu, cpu,
        f"the same 100 on {LARGER}, adding the dual look-ups (the tables read on the "
        f"position's dual and its reflection's, for the patterns whose goal cells the "
        f"blank's cell is not among): {dual_nodes:,} nodes against {nodes:,}, CPU seconds"))
    specs = [table.spec() for table in pattern_set(*BOARD, 0, LARGER)]
    described = []
    memory = disk = seconds = searched = 0
    for spec in specs:
        path = table_path(data, spec)
        search = spec.searches["estimate"]
        entries = search.states // search.folded
        recorded = float(read_attributes(path)["search_seconds"])
        memory += entries
        disk += directory_size(path)
        seconds += recorded
        searched = max(searched, 3 * search.states // 8 + entries)
        described.append(
            f"{','.join(map(str, spec.identity['tiles']))}: {recorded:.1f} s, "
            f"{directory_size(path) / 1e6:.1f} MB on disk, {search.states:,} abstract states "
            f"searched a bit each, estimate {entries:,} bytes in memory")
    rows.append(row(
        "korf_pattern_tables_seven_eight_build", seconds, None,
        f"the 15-puzzle's {LARGER} pattern databases towards Korf's goal, searched folded by "
        f"the engine's breadth-first kernel on every core ("
        + ("built by this run" if built is not None else "as their build recorded it")
        + f"): {disk / 1e6:.0f} MB on disk, {memory / 1e6:.0f} MB in memory to search "
        f"with, {searched / 1e9:.1f} GB at most while one is built; " + "; ".join(described)))


def bench_tables(rows) -> None:
    specs = [table.spec() for table in pattern_set(*BOARD, 0, default_partition(*BOARD))]
    with tempfile.TemporaryDirectory(prefix="patterns-") as folder:
        built = []
        memory = 0
        disk = 0
        started = time.perf_counter()
        for spec in specs:
            result = build_table(Path(folder), spec, progress=False, log=lambda *_: None)
            search = spec.searches["abstract"]
            folded = search.states // spec.folds["estimate"].width
            memory += folded
            disk += directory_size(result.path)
            built.append(
                f"{','.join(map(str, spec.identity['tiles']))}: {result.seconds:.1f} s, "
                f"{directory_size(result.path) / 1e6:.1f} MB on disk, {search.states:,} "
                f"abstract states, estimate {folded:,} bytes in memory")
        seconds = time.perf_counter() - started
    rows.append(row(
        "korf_pattern_tables_build", seconds, None,
        f"the 15-puzzle's {default_partition(*BOARD)} pattern databases towards Korf's goal, "
        f"built by the engine's breadth-first kernel and written with checksums (the "
        f"search reads the folded estimates, {memory / 1e6:.1f} MB in all; "
        f"{disk / 1e6:.1f} MB on disk): " + "; ".join(built)))


if __name__ == "__main__":
    run_alone(__doc__, bench_korf, bench_quick_paths, bench_tables, bench_larger)
