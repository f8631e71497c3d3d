"""The 3×3×3 cube by IDA* on pattern databases: seeded random scrambles of 12, 14 and 16
turns (``SCRAMBLES`` of each; a scramble never turns one face twice in a row), each solved
optimally, its path replayed on the rules to solved and no longer than the scramble;
p50/p95 seconds and nodes per second.  Scrambles of 12 and 14 turns on Korf's tables (the
corners and two six-edge patterns, `make tables`) and on the seven-edge set where it is
stored (`builder build rubik half:7-7`, which `make bench` runs first), the first the
baseline; scrambles of 16 turns on the strongest stored set, each within a time limit
(past it, the bound it proved).  The superflip (20 turns from solved) under a node budget:
the bound proved.  And each pattern database's build time and size on disk and in memory:
Korf's set built again in a temporary directory, so the figures are this run's; the
seven-edge set's as its build recorded them.

    .venv/bin/python bench/rubik.py --data data   # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder import patterns, registry
from builder.contract.errors import SearchLimitError
from builder.reader import Tables
from builder.routine import build_table, table_path
from builder.store import directory_size, read_attributes
from puzzles.rubik.rules import FACES
from puzzles.rubik.tables import _search, pattern_set

RUBIK = registry.by_name("rubik")
SCRAMBLES = {12: 20, 14: 10, 16: 10}
"""How many scrambles of each length."""
SEED = 46
LONGEST_SECONDS = 900.0
"""A 16-turn scramble's time limit."""
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
SUPERFLIP_NODES = 1_000_000_000
SETS = {"6-6": "Korf's corners and two six-edge patterns",
        "7-7": "the corners and two seven-edge patterns"}


def scrambles(length: int, count: int) -> list[str]:
    rng = np.random.default_rng(SEED + length)
    found = []
    for _ in range(count):
        turns: list[str] = []
        while len(turns) < length:
            face = FACES[rng.integers(6)]
            if not turns or turns[-1][0] != face:
                turns.append(face + ("", "2", "'")[rng.integers(3)])
        found.append(" ".join(turns))
    return found


def stored(data: Path, name: str) -> bool:
    folder = Tables(data).stored(("rubik", "patterns", "half"))
    return all(table.name.split("/")[-1] in folder for table in pattern_set("half", name))


def search(scramble: str, name: str):
    solved = RUBIK.parse("half", "solved")
    node = RUBIK.parse("half", scramble)
    return node, _search("half", node, solved, pattern_set("half", name), "half", name)


def solve(tables, scramble: str, name: str, seconds: float = float("inf")):
    """(seconds, nodes, length or None, the bound proved where the time ran out)."""
    node, wanted = search(scramble, name)
    started = time.perf_counter()
    try:
        searched = patterns.run(tables, replace(wanted, seconds=seconds), progress=False)
    except SearchLimitError as stopped:
        bound = stopped.lower_bound
        return time.perf_counter() - started, None, None, bound
    took = time.perf_counter() - started
    path = patterns.found_path(RUBIK, "half", node, wanted, searched)
    if not RUBIK.at_target("half", path.nodes[-1], RUBIK.parse("half", "solved")) or (
            path.length > len(scramble.split())):
        raise SystemExit(f"{scramble}: the path does not solve it in at most its turns")
    return took, searched.nodes, path.length, None


def shown(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def summary(results) -> str:
    times = np.array([seconds for seconds, *_ in results])
    solved = [(seconds, nodes) for seconds, nodes, length, _ in results if length is not None]
    nodes = sum(count for _, count in solved)
    lengths = sorted(length for _, _, length, _ in results if length is not None)
    rate = nodes / sum(seconds for seconds, _ in solved) / 1e6 if solved else 0
    return (f"p50 {shown(np.percentile(times, 50))}, p95 {shown(np.percentile(times, 95))}, "
            f"max {shown(times.max())}; {nodes:,} nodes, {rate:.1f} M nodes/s; optimal "
            f"lengths {', '.join(map(str, lengths))}")


def bench_scrambles(rows, data: Path) -> None:
    tables = Tables(data)
    if not stored(data, "6-6"):
        raise SystemExit(f"no rubik pattern tables in {data}: run `make tables`")
    names = ["6-6", *(["7-7"] if stored(data, "7-7") else [])]
    for name in names:
        solve(tables, "R U F", name)  # compile or load the kernels, read the tables
    korf = {}
    for length in (12, 14):
        todo = scrambles(length, SCRAMBLES[length])
        for name in names:
            results = [solve(tables, scramble, name) for scramble in todo]
            total = sum(seconds for seconds, *_ in results)
            if name == "6-6":
                korf[length] = total
            rows.append(row(
                f"rubik_scrambles_{length}_turns_{name.replace('-', '_')}_edges", total,
                korf[length] if name != "6-6" else None,
                f"{len(todo)} random {length}-turn scrambles (seed {SEED + length}), IDA* on "
                f"{SETS[name]}, one thread: {summary(results)}"
                + ("; baseline: the same scrambles on Korf's set" if name != "6-6" else "")))
    name = names[-1]
    todo = scrambles(16, SCRAMBLES[16])
    results = [solve(tables, scramble, name, LONGEST_SECONDS) for scramble in todo]
    stopped = [bound for *_, bound in results if bound is not None]
    rows.append(row(
        "rubik_scrambles_16_turns", sum(seconds for seconds, *_ in results), None,
        f"{len(todo)} random 16-turn scrambles (seed {SEED + 16}), IDA* on {SETS[name]}, "
        f"one thread, {LONGEST_SECONDS:.0f} s each at most: {summary(results)}"
        + (f"; {len(stopped)} stopped at the limit, bounds proved {stopped}" if stopped
           else "")))
    wanted = search(SUPERFLIP, name)[1]
    started = time.perf_counter()
    try:
        patterns.run(tables, replace(wanted, nodes=SUPERFLIP_NODES), progress=False)
        bound = "solved"
    except SearchLimitError as stopped:
        bound = stopped.lower_bound
    rows.append(row(
        "rubik_superflip_bound", time.perf_counter() - started, None,
        f"the superflip ({SUPERFLIP}; optimal 20, Reid 1995), IDA* on {SETS[name]} with a "
        f"budget of {SUPERFLIP_NODES:,} nodes: at least {bound} turns proved (the tables' "
        f"estimate at the start {patterns.start_estimate(tables, wanted)})"))


def table_row(spec, seconds: float, path: Path, how: str) -> dict:
    search = spec.searches["estimate"]
    return row(
        f"rubik_pattern_{spec.parts[-1].replace('-', '_')}_build", seconds, None,
        f"rubik/patterns/half/{spec.parts[-1]}: {search.states:,} abstract states "
        f"({search.states / 1e6:.1f} MB in memory, a byte each), "
        f"{directory_size(path) / 1e6:.1f} MB on disk; {how}")


def bench_tables(rows, data: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="rubik-") as folder:
        for spec in (table.spec() for table in pattern_set("half", "6-6")):
            result = build_table(Path(folder), spec, progress=False, log=lambda *_: None)
            rows.append(table_row(spec, result.seconds, result.path,
                                  "built by the engine's breadth-first kernel in this run"))
    if stored(data, "7-7"):
        for spec in [table.spec() for table in pattern_set("half", "7-7")][1:]:
            path = table_path(data, spec)
            rows.append(table_row(spec, float(read_attributes(path)["search_seconds"]), path,
                                  "the search's time as its build recorded it"))


if __name__ == "__main__":
    run_alone(__doc__, bench_tables, bench_scrambles)
