"""Sparse tables (issue 32), each row against a baseline run in this same process:

- the 2×2×2 cube (half turns, 3,674,160 positions) by the engine's sparse search with the
  plug-in's numba kernel, against a plain Python dict breadth-first search over the
  plug-in's plain-Python turns;
- Klotski (block metric) by the numba kernel, against the plain-Python start (the
  engine's build from the plug-in's plain-Python moves): the same table;
- the 2×2×2 cube's pattern databases, derived by the engine from its pieces: IDA* on
  them against the walk of the full table, on the same positions;
- English peg solitaire, the whole `builder build pegs --force` in this machine's one
  process and on a two-process Dask cluster: wall time and peak memory of the largest
  process, and whether the two tables are the same bytes.

    .venv/bin/python bench/sparse.py     # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder import registry
from builder.sparse import sparse_search


def timed_search(search) -> tuple[float, tuple]:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        made = sparse_search(search, Path(folder))
        return time.perf_counter() - started, made


def dict_bfs(puzzle, variant, start) -> dict:
    distance = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for move in puzzle.moves(variant, node):
            if move.state not in distance:
                distance[move.state] = distance[node] + 1
                queue.append(move.state)
    return distance


def bench_cube(rows) -> None:
    cube = registry.by_name("cube")
    timed_search(cube.sparse_search("quarter"))  # compile or load the kernels
    product, (keys, distance) = timed_search(cube.sparse_search("half"))
    started = time.perf_counter()
    baseline_table = dict_bfs(cube, "half", cube.targets("half")[0])
    baseline = time.perf_counter() - started
    same = (len(baseline_table) == len(keys) and np.array_equal(
        np.bincount(distance), np.bincount(np.fromiter(baseline_table.values(), np.int64))))
    rows.append(row("sparse_cube_half_turns_vs_dict_bfs", product, baseline,
                    f"{len(keys):,} positions, the engine's sparse search (numba kernel, 1 "
                    f"shard) against a Python dict BFS over the plug-in's turns; same "
                    f"distance histogram: {same}"))


def bench_cube_patterns(rows, data: Path) -> None:
    """IDA* on the pattern databases the engine derives from the cube's declared pieces,
    against the walk of the full table, on the same positions drawn from the table."""
    import zarr

    from builder import patterns
    from builder.contract.puzzle import GOAL, Walking
    from query.api import open_tablebase
    from query.walk import Tables

    cube, metric, count = registry.by_name("cube"), "half", 60
    group = zarr.open_group(data / "cube" / f"{metric}.zarr", mode="r")
    keys = group["keys"][...]
    nodes = [cube.decode(metric, int(keys[at]))
             for at in np.random.default_rng(3).choice(len(keys), count + 1, replace=False)]
    tables, walked = Tables(data), open_tablebase(data).puzzle("cube", metric=metric)

    def searched(node) -> int:
        search = Walking.of(cube).pattern_search(tables, metric, node, GOAL)
        return len(patterns.run(tables, search, progress=False).rows) - 1

    def walk(node) -> int:
        return walked.path(cube.format(metric, node)).length

    searched(nodes[0]), walk(nodes[0])  # compile or load the kernels, open the tables
    started = time.process_time()
    by_search = [searched(node) for node in nodes[1:]]
    product = time.process_time() - started
    started = time.process_time()
    by_walk = [walk(node) for node in nodes[1:]]
    baseline = time.process_time() - started
    rows.append(row("sparse_cube_patterns_ida_vs_table_walk", product, baseline,
                    f"{count} positions drawn from cube/{metric} (mean "
                    f"{np.mean(by_walk):.1f} turns): IDA* on the three pattern databases "
                    f"the engine derives from the corners declared as pieces, against the "
                    f"walk of the full table, CPU time; same lengths: {by_search == by_walk}"))


def bench_klotski(rows) -> None:
    klotski = registry.by_name("klotski")
    timed_search(klotski.sparse_search("cell"))  # compile or load the kernels
    product, numba_table = timed_search(klotski.sparse_search("block"))
    baseline, plain_table = timed_search(klotski.sparse_search("block", plain=True))
    same = all(np.array_equal(a, b) for a, b in zip(numba_table, plain_table))
    rows.append(row("sparse_klotski_numba_vs_plain_python_start", product, baseline,
                    f"{len(numba_table[0]):,} positions (block metric): the numba kernel "
                    f"against the plain-Python start; identical tables: {same}"))


MEASURED = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, capture_output=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def build_pegs(data: Path, *options: str) -> tuple[float, float]:
    """Wall seconds and the peak RSS (GiB) of the largest process of one build (measured
    by a process of its own, whose children are that build's processes alone)."""
    builder = str(Path(sys.executable).parent / "builder")
    started = time.perf_counter()
    ran = subprocess.run([sys.executable, "-c", MEASURED, builder, "build", "pegs", "--force",
                          "--quiet", "--data", str(data), *options],
                         check=True, capture_output=True, text=True)
    return time.perf_counter() - started, int(ran.stdout.split()[-1]) / 2**20


def bench_pegs(rows) -> None:
    with tempfile.TemporaryDirectory() as folder:
        alone, cluster = Path(folder) / "alone", Path(folder) / "dask"
        alone_s, alone_gib = build_pegs(alone)
        dask_s, dask_gib = build_pegs(cluster, "--workers", "2")
        table = Path("pegs") / "english.zarr"
        chunks = sorted(p.relative_to(alone / table) for p in (alone / table).rglob("c/*"))
        same = bool(chunks) and all((alone / table / c).read_bytes()
                                    == (cluster / table / c).read_bytes() for c in chunks)
    rows.append(row("sparse_pegs_whole_build_in_process", alone_s, None,
                    f"`builder build pegs --force`: 23,475,688 positions up to symmetry, 4 "
                    f"shards, in one process; peak RSS {alone_gib:.2f} GiB"))
    rows.append(row("sparse_pegs_whole_build_dask_2_workers", dask_s, alone_s,
                    f"the same on a local Dask cluster of 2 worker processes (ratio: "
                    f"in-process time / this); peak RSS of the largest process "
                    f"{dask_gib:.2f} GiB; "
                    f"same chunk bytes: {same}"))


if __name__ == "__main__":
    run_alone(__doc__, bench_cube, bench_cube_patterns, bench_klotski, bench_pegs)
