"""The 3×3×3 cube proved optimal at depth: IDA* on the symmetry-reduced phase-1 table
looked up in three directions and on the inverse (``puzzles/rubik/optimal.py``, M. Reid's
method as H. Kociemba's optimal solver has it), against IDA* on Korf's pattern databases
(the corners and two patterns of six edges, `make tables`).

Rows:

- the table's build (`builder build rubik optimal`) in a temporary directory: seconds,
  size on disk and in memory;
- scrambles of 15 turns (``SCRAMBLES``, seeded as ``bench/rubik.py``'s), each proved
  optimal by the optimal search with one thread and with two, its path replayed on the
  rules to solved; the baseline, Korf's search on the first ``KORF_SCRAMBLES`` of them
  within ``KORF_SECONDS`` each (past it, the bound it proved);
- uniformly random cubes (``RANDOM_CUBES``, ``bench/twophase.py``'s generator), each
  within ``RANDOM_SECONDS``, one thread and two: how many finished, the median, every
  length.  Long (minutes a cube): ``--only random`` runs these rows alone.

Times are wall seconds and the process's CPU seconds (both threads' together): on a
machine others share, the CPU seconds say more.  The table must be stored in the data
directory (`builder build rubik optimal`); the bench does not make it in memory.

    .venv/bin/python bench/rubik_optimal.py --data data   # prints the rows, merges them
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import environment, merge_rows, row
from bench.rubik import scrambles
from bench.twophase import random_cubes
from builder import patterns, registry
from builder.contract.errors import SearchLimitError
from builder.reader import Tables
from builder.routine import build_table
from builder.store import directory_size, read_attributes
from puzzles.rubik import optimal
from puzzles.rubik.rules import SOLVED
from puzzles.rubik.tables import DEFAULT_SET, _search, pattern_set

RUBIK = registry.by_name("rubik")
SCRAMBLES = 10
KORF_SCRAMBLES = 3
KORF_SECONDS = 300.0
RANDOM_CUBES = 5
RANDOM_SEED = 57
RANDOM_SECONDS = 3600.0
THREADS = (1, 2)


def solved(tables, node, search, seconds: float = float("inf")) -> dict:
    """One search: wall and CPU seconds, nodes, and the length (None: stopped at its
    limit, with the bound it proved); the path replayed on the rules."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        searched = patterns.run(tables, replace(search, seconds=seconds), progress=False)
    except SearchLimitError as stopped:
        return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                "nodes": stopped.nodes, "length": None, "bound": stopped.lower_bound}
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    path = patterns.found_path(RUBIK, "half", node, search, searched)
    assert path.nodes[-1] == SOLVED
    return {"wall": wall, "cpu": cpu, "nodes": searched.nodes, "length": searched.length}


def optimal_search(tables, node, threads: int):
    search = optimal.search_for(tables, node, SOLVED, threads=threads)
    if search is None:
        raise SystemExit("no optimal table stored: `builder build rubik optimal --data ...`")
    return search


def lengths(results: list[dict]) -> str:
    counted = Counter(result["length"] for result in results if result["length"])
    return ", ".join(f"{count} of {length}" for length, count in sorted(counted.items()))


def spread(results: list[dict], key: str) -> str:
    values = [result[key] for result in results]
    return (f"median {np.median(values):.2f} s, p95 {np.percentile(values, 95):.2f} s, "
            f"longest {max(values):.2f} s")


def bench_table(rows: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        result = build_table(Path(folder), optimal.phase1_table(), progress=False,
                             log=lambda *_: None)
        size = directory_size(result.path)
        attributes = read_attributes(result.path)
    rows.append(row(
        "rubik_optimal_table_build", result.seconds, None,
        f"rubik/optimal/phase1: {optimal.ENTRIES:,} entries (64,430 flip-slice classes "
        f"under D4h x 2,187 twists), the fewest turns into H modulo 3, four a byte: "
        f"{(optimal.ENTRIES + 3) // 4 / 1e6:.1f} MB in memory, {size / 1e6:.1f} MB on disk; "
        f"built by the plug-in's breadth-first kernel ({optimal.BUILD_THREADS} threads) in "
        f"this run, a byte an entry while it searches ({optimal.ENTRIES / 1e6:.0f} MB); raw "
        f"coordinates by depth {attributes['coordinates_by_depth']}"))


def bench_scrambles(rows: list[dict], data: Path) -> None:
    tables = Tables(data)
    chosen = scrambles(15, SCRAMBLES)
    nodes = [RUBIK.parse("half", scramble) for scramble in chosen]
    solved(tables, nodes[0], optimal_search(tables, nodes[0], 1))  # table read: not timed
    by_threads = {threads: [solved(tables, node, optimal_search(tables, node, threads))
                            for node in nodes] for threads in THREADS}
    # the baseline on the hardest (most nodes for the optimal search), each within a limit
    hardest = sorted(range(len(nodes)), key=lambda number: -by_threads[1][number]["nodes"])
    hardest = sorted(hardest[:KORF_SCRAMBLES])
    korf = {number: solved(tables, nodes[number], _search(
        "half", nodes[number], SOLVED, pattern_set("half", DEFAULT_SET), "half", DEFAULT_SET),
        KORF_SECONDS) for number in hardest}
    korf_text = "; ".join(
        f"scramble {number + 1}: {result['length']} turns in {result['wall']:.1f} s "
        f"({result['nodes']:,} nodes)" if result["length"] else
        f"scramble {number + 1}: stopped at {KORF_SECONDS:g} s, at least {result['bound']} "
        f"turns proved ({result['nodes']:,} nodes)" for number, result in korf.items())
    finished = all(result["length"] for result in korf.values())
    for threads, results in by_threads.items():
        for number, earlier in korf.items():
            assert earlier["length"] in (None, results[number]["length"])
        mine = sum(results[number]["wall"] for number in hardest)
        theirs = sum(result["wall"] for result in korf.values())
        rows.append(row(
            f"rubik_optimal_15_turns_{threads}_thread{'s' if threads > 1 else ''}",
            mine / len(hardest), theirs / len(hardest),
            f"product_s and baseline_s: the mean wall seconds a scramble of the "
            f"{KORF_SCRAMBLES} hardest. {SCRAMBLES} scrambles of 15 turns (seed as "
            f"bench/rubik.py's), each proved "
            f"optimal, {threads} thread{'s' if threads > 1 else ''}: turns {lengths(results)}"
            f"; wall {spread(results, 'wall')}; CPU {spread(results, 'cpu')}; nodes "
            f"{sum(result['nodes'] for result in results):,} in all. The {KORF_SCRAMBLES} "
            f"hardest ({', '.join(str(number + 1) for number in hardest)}) in {mine:.2f} s "
            f"wall; baseline, IDA* on Korf's pattern databases (make tables' set) on them, "
            f"{theirs:.1f} s wall: {korf_text}"
            + ("" if finished else "; the ratio is at least the one given")))


def bench_random(rows: list[dict], data: Path) -> None:
    tables = Tables(data)
    cubes = random_cubes(RANDOM_CUBES, RANDOM_SEED)
    for threads in THREADS:
        results = []
        for cube in cubes:
            results.append(solved(tables, cube, optimal_search(tables, cube, threads),
                                  RANDOM_SECONDS))
            print(f"  {threads} thread(s): {results[-1]}", flush=True)
        done = [result for result in results if result["length"]]
        walls = [result["wall"] if result["length"] else float("inf") for result in results]
        stopped = [f"at least {result['bound']}" for result in results if not result["length"]]
        rows.append(row(
            f"rubik_optimal_random_{threads}_thread{'s' if threads > 1 else ''}",
            float(np.median(walls)) if len(done) * 2 > len(results) else None, None,
            f"{RANDOM_CUBES} uniformly random cubes (bench/twophase.py's, seed {RANDOM_SEED})"
            f", each within {RANDOM_SECONDS:g} s, {threads} thread"
            f"{'s' if threads > 1 else ''}: {len(done)} of {len(results)} proved optimal "
            f"({lengths(results) or 'none'}"
            f"{'; stopped: ' + ', '.join(stopped) if stopped else ''}); wall seconds each "
            f"{[round(result['wall'], 1) for result in results]}, CPU seconds "
            f"{[round(result['cpu'], 1) for result in results]}, nodes "
            f"{[result['nodes'] for result in results]}; median (product_s) over all "
            "five, a cube stopped counting as longer than any"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--only", choices=("table", "scrambles", "random"))
    arguments = parser.parse_args()
    data = arguments.data.resolve()
    print(environment())
    rows: list[dict] = []
    if arguments.only in (None, "table"):
        bench_table(rows)
    if arguments.only in (None, "scrambles"):
        bench_scrambles(rows, data)
    if arguments.only in (None, "random"):
        bench_random(rows, data)
    merge_rows(data, rows)


if __name__ == "__main__":
    main()
