"""The latencies of `query hardest` and `query random NAME --distance D [--unique]`, as a
user runs them (a fresh process each, median of a few runs), against `query distance` on
the same table in this same run (the baseline: the cheapest question a table answers,
so the ratio says how many distance questions one of these costs); and the Python API's
calls in this process against its `distance`.

    .venv/bin/python bench/levels.py --data data   # prints the rows, merges into bench.json
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone

QUERY = str(Path(sys.executable).parent / "query")
RUNS = 5
CASES = [
    # (name, command after `query`, the distance question of the same table)
    ("levels_query_hardest_klotski_block", ["hardest", "klotski", "block", "-n", "10"],
     ["distance", "BAAC.BAAC.DEEF.DGHF.I--J", "solved"]),
    ("levels_query_random_klotski_block_distance40_unique",
     ["random", "klotski", "block", "--distance", "40", "--unique", "--seed", "1"],
     ["distance", "BAAC.BAAC.DEEF.DGHF.I--J", "solved"]),
    ("levels_query_hardest_cube_half", ["hardest", "cube", "half", "-n", "10"],
     ["distance", "FRBU.BDRD.URUU.FFDF.RLLL.BDLB", "solved"]),
    ("levels_query_random_hanoi_4pegs_12discs_distance40",
     ["random", "hanoi", "4 pegs, 12 discs", "--distance", "40", "--seed", "1"],
     ["distance", "AAAAAAAAAAAA", "DDDDDDDDDDDD"]),
]


def _median_seconds(arguments: list[str], data: Path) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        done = subprocess.run([QUERY, *arguments, "--data", str(data)], check=False,
                              capture_output=True, text=True)
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"query {' '.join(arguments)}: {done.stderr.strip()}")
    return statistics.median(times)


def bench_commands(rows: list[dict], data: Path) -> None:
    for name, arguments, baseline in CASES:
        product, base = _median_seconds(arguments, data), _median_seconds(baseline, data)
        rows.append(row(name, product, base,
                        f"`query {' '.join(arguments)}`: wall time in a fresh process, median of {RUNS}; "
                        f"baseline: `query {' '.join(baseline)}` (one table look-up) in the "
                        "same run (ratio = baseline / command: 0.5, twice a distance "
                        "question's time)"))


def bench_api(rows: list[dict], data: Path) -> None:
    from query.api import open_tablebase

    with open_tablebase(data) as tablebase:
        klotski = tablebase.puzzle("klotski")
        klotski.distance("BAAC.BAAC.DEEF.DGHF.I--J")  # tables opened, caches warm

        def timed(call) -> float:
            started = time.perf_counter()
            for _ in range(RUNS):
                call()
            return (time.perf_counter() - started) / RUNS

        base = timed(lambda: klotski.distance("BAAC.BAAC.DEEF.DGHF.I--J"))
        for name, call in [
                ("levels_api_hardest_klotski_block", lambda: klotski.hardest(10, table="block")),
                ("levels_api_random_klotski_block_distance40_unique",
                 lambda: klotski.random(40, seed=1, unique=True, table="block"))]:
            rows.append(row(name, timed(call), base,
                            f"in this process, tables open, mean of {RUNS}; baseline: "
                            "api distance on the same table"))


if __name__ == "__main__":
    run_alone(__doc__, bench_commands, bench_api)
