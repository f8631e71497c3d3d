"""`make bench`: every build and query figure against a baseline run in the same process.

Prints one table and writes the same rows to data/bench.json as a list of
{"name", "product_s", "baseline_s", "ratio", "notes"} with ratio = baseline_s /
product_s (the speed-up).  Rows that measure something without a baseline (a full
`make tables`, storage) carry null times or a ratio of sizes, explained in notes.  The
row format, and the main of a bench script run on its own, are bench/rows.py's.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.balls import bench_balls
from bench.baselines import per_start_queue_bfs, pure_python_single_pair
from bench.load import bench_load, bench_solver_load
from bench.plugins import bench_plugins
from bench.rows import environment, merge_rows, row
from builder.compute import compute_arrays
from puzzles.tricolore import METHODS, Tricolore
from puzzles.tricolore.tables import all_pairs_spec

SEARCH_REPEATS = 3
"""Runs of a 4×4 search or target build whose median a row reports."""


def tricolore_all_pairs(rules, method: str, progress: bool = False) -> dict:
    return compute_arrays(all_pairs_spec(rules.width, rules.height, method), progress)


def bench_all_pairs(rows):
    import numba

    rules = Tricolore(4, 2)
    tricolore_all_pairs(Tricolore(2, 2), "hybrid", progress=False)  # compile / load cache
    per_start_queue_bfs(Tricolore(2, 2).successor_table("hybrid"), np.ones(81, bool))
    product, baseline, product_one_thread = 0.0, 0.0, 0.0
    for method in METHODS:
        started = time.perf_counter()
        arrays = tricolore_all_pairs(rules, method, progress=False)
        product += time.perf_counter() - started
        successors = rules.successor_table(method)
        inside = rules.in_state_space(rules.all_boards(), method)
        started = time.perf_counter()
        expected = per_start_queue_bfs(successors, inside)
        baseline += time.perf_counter() - started
        if not np.array_equal(arrays["clicks"], expected):
            raise SystemExit(f"bench: {method} distances differ from the baseline BFS")
        threads = numba.get_num_threads()
        numba.set_num_threads(1)
        started = time.perf_counter()
        tricolore_all_pairs(rules, method, progress=False)
        product_one_thread += time.perf_counter() - started
        numba.set_num_threads(threads)
    rows.append(row("tricolore_4x2_all_pairs", product, baseline,
                    "3 methods, distances + path data, bit-parallel multi-target BFS "
                    f"({numba.get_num_threads()} threads) vs per-start queue BFS in numba "
                    "(1 thread, distances only); distances identical"))
    rows.append(row("tricolore_4x2_all_pairs_one_thread", product_one_thread, baseline,
                    "same, product limited to 1 numba thread"))


def entropy_bytes(values: np.ndarray) -> float:
    _, counts = np.unique(values, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log2(p)).sum() * values.size / 8)


def bench_storage(rows, data: Path):
    import zarr

    from builder.store import directory_size

    for method in METHODS:
        path = data / "tricolore" / "4x2" / f"{method}.zarr"
        group = zarr.open_group(path, mode="r")
        clicks_entropy = entropy_bytes(group["clicks"][...])
        all_entropy = sum(entropy_bytes(group[name][...]) for name in group.array_keys())
        clicks_size = directory_size(path / "clicks")
        total = directory_size(path)
        rows.append(row(
            f"tricolore_4x2_{method}_storage", None, None,
            f"stored {total / 1e6:.2f} MB vs order-0 entropy {all_entropy / 1e6:.2f} MB "
            f"(clicks alone {clicks_size / 1e6:.2f} MB vs {clicks_entropy / 1e6:.2f} MB); "
            "ratio = entropy / stored",
            ratio=all_entropy / total,
        ))


def bench_table_write(rows, data: Path):
    """A 4×4 target table's three arrays (43 M boards each) written by the store, which
    compresses the chunks itself on every core, against zarr's own whole-array write (in
    slabs of chunks, as the store did before) of the same arrays."""
    import tempfile

    import zarr
    from zarr.codecs import ZstdCodec

    from builder import store
    from builder.contract.puzzle import OWN_CHUNK as TARGET_CHUNK  # the target tables'

    group = zarr.open_group(data / "tricolore" / "4x4" / "targets" / "RRRR.RRRR.RRRR.RRRR.zarr",
                            mode="r")
    arrays = {name: group[name][...] for name in group.array_keys()}
    with tempfile.TemporaryDirectory(prefix="write-bench-") as folder:
        started = time.perf_counter()
        store.write_table(Path(folder) / "ours.zarr", arrays,
                          {name: (TARGET_CHUNK,) for name in arrays}, {"puzzle": "bench"})
        product = time.perf_counter() - started
        started = time.perf_counter()
        theirs = zarr.open_group(Path(folder) / "zarr.zarr", mode="w")
        step = TARGET_CHUNK * 64  # the store wrote 64 chunks per zarr call
        for name, values in arrays.items():
            array = theirs.create_array(name, shape=values.shape, chunks=(TARGET_CHUNK,),
                                        dtype=values.dtype, fill_value=0,
                                        compressors=ZstdCodec(level=store.ZSTD_LEVEL))
            for first in range(0, values.size, step):
                array[first:first + step] = values[first:first + step]
        baseline = time.perf_counter() - started
    rows.append(row("table_write_4x4_target", product, baseline,
                    "the three arrays of a 4x4 target table (3 x 43 M bytes, zstd): the "
                    "store's own chunk writer vs zarr's whole-array write in slabs"))


def column_walk(rules, tables, start: int, target: int, method: str):
    """The retired Tricolore-only walk (before the one walk, round 9), as it was: the
    three target columns read once, then its own loop over ``legal_moves`` with the
    node rule of that time (a dict and a reader per node); kept here as the before of
    the rows that compare it with the engine's walk."""
    from puzzles.tricolore.answers import TargetColumns
    from puzzles.tricolore.rules import NO_CLICK, WALK_ARRAYS, InconsistentTable

    def node_clicks(read, board, last, target):
        if board == target and last != NO_CLICK:
            return 0
        if last != NO_CLICK and read("sole_click") == last:
            return read("clicks_avoiding_sole")
        return read("clicks")

    def column_clicks(columns, board, last, target):
        arrays = dict(zip(WALK_ARRAYS, columns))
        return node_clicks(lambda name: int(arrays[name][board]), board, last, target)

    columns = TargetColumns(tables, rules, target, method).columns
    remaining = column_clicks(columns, start, NO_CLICK, target)
    if remaining == 255:
        return None
    board, last, path = start, NO_CLICK, []
    while remaining > 0:
        # legal_moves made every click's board up front then: a list, as here
        for square, following in list(rules.legal_moves(board, last, method)):
            if column_clicks(columns, following, square, target) == remaining - 1:
                break
        else:
            raise InconsistentTable(board, remaining)
        board, last, remaining = following, square, remaining - 1
        path.append((square, board))
    return path


def engine_walk(rules, tables, start: int, target: int, method: str):
    """`query path`'s walk: the engine's, through the plug-in's batched ``distances``."""
    from puzzles.tricolore import TricoloreGame, TricolorePuzzle
    from query.walk import walk

    return walk(TricolorePuzzle(), tables, TricoloreGame(rules, method), start, target)


def bench_query(rows, data: Path):
    from query.walk import Tables

    rules = Tricolore(4, 2)
    rng = random.Random(2026)
    method = "unrestricted"

    def random_pairs(count):
        return [(rng.randrange(6561), rng.randrange(6560)) for _ in range(count)]

    def timed(pairs, table_for_each, walker=engine_walk):
        latencies = []
        for start, target in pairs:
            tables = table_for_each()
            started = time.perf_counter()
            walker(rules, tables, start, target, method)
            latencies.append(time.perf_counter() - started)
        return latencies

    baseline = []
    for start, target in random_pairs(40):
        started = time.perf_counter()
        pure_python_single_pair(rules, start, target, method)
        baseline.append(time.perf_counter() - started)
    b50, b99 = np.percentile(baseline, 50), np.percentile(baseline, 99)

    server = Tables(data)
    timed(random_pairs(3000), lambda: server)  # a long-lived process warms its chunk cache
    pairs = random_pairs(2000)
    steady = timed(pairs, lambda: server)
    before = timed(pairs, lambda: server, column_walk)
    first_touch = timed(random_pairs(300), lambda: Tables(data))
    note = ("table walk over random pairs in a long-lived process (decompressed chunks "
            "cached after a 3000-query warm-up) vs a pure-Python BFS at query time (40 pairs)")
    rows.append(row("query_path_p50", np.percentile(steady, 50), b50, note))
    rows.append(row("query_path_p99", np.percentile(steady, 99), b99, note))
    rows.append(row("query_path_p50_one_walk_vs_before", np.percentile(steady, 50),
                    np.percentile(before, 50),
                    "the same 2000 pairs, warm: the engine's walk (every puzzle's; batched "
                    "distances through the plug-in) vs the Tricolore-only column walk it "
                    "replaced; ratio >= 1: no slower"))
    rows.append(row("query_path_first_touch_p50", np.percentile(first_touch, 50), b50,
                    "same, but each query opens the table afresh and decompresses its "
                    "three chunks (6561 x 16 bytes each)"))


def median_process_time(command: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_cold_cli(rows, data: Path):
    """A whole `query path` process against a Python that imports numpy alone.  One
    untimed run comes first with bytecode writing allowed (PYTHONDONTWRITEBYTECODE, as
    on CI, would otherwise have every timed run compile each module edited since the
    install's compileall), which also leaves the plug-ins' entry points cached, as any
    earlier command does."""
    import os

    query = str(Path(sys.executable).parent / "query")
    command = [query, "path", "WBWW.WBRB", "RRRR.RRRR", "--data", str(data)]
    subprocess.run(command, check=True, capture_output=True,
                   env={name: value for name, value in os.environ.items()
                        if name != "PYTHONDONTWRITEBYTECODE"})
    product = median_process_time(command)
    baseline = median_process_time([sys.executable, "-c", "import numpy"])
    rows.append(row("query_path_cold_cli", product, baseline,
                    "median of 7 `query path` processes (Tricolore 4x2) vs `python -c "
                    "'import numpy'`; target: at most 2x numpy's (ratio >= 0.5)"))
    # the puzzles answered by search, asked a trivial question: the pattern tables opened
    # (mapped, not decompressed) and the search's kernels loaded from numba's cache
    for name, start, target in (
            ("fifteen", "1,0,2,3.4,5,6,7.8,9,10,11.12,13,14,15",
             "0,1,2,3.4,5,6,7.8,9,10,11.12,13,14,15"),
            ("cube", "rubik:R U", "solved")):
        command = [query, "path", start, target, "--data", str(data)]
        subprocess.run(command, check=True, capture_output=True)  # compiled, mapped once
        product = median_process_time(command)
        rows.append(row(f"query_path_cold_cli_{name}", product, baseline,
                        f"median of 7 `query path {start} {target}` processes (a trivial "
                        f"question answered by search) vs `python -c 'import numpy'`: "
                        f"{product - baseline:.2f} s over it; target: at most 0.5 s over"))


def bench_make_tables(rows, data: Path):
    builder = str(Path(sys.executable).parent / "builder")
    started = time.perf_counter()
    subprocess.run([builder, "tables", "--data", str(data)], check=True, capture_output=True)
    reuse = time.perf_counter() - started
    rows.append(row("make_tables_reuse", reuse, None,
                    "`builder tables` with every table current (nothing rebuilt)"))


def bench_make_tables_fresh(rows):
    """`builder tables` into an empty data directory, as a fresh clone's `make tables` runs
    it: with numba's cache empty (cold: every kernel compiles) and then filled (warm); the
    baseline builds one puzzle at a time (`--jobs 1`, with a numba cache of its own)."""
    import os
    import tempfile

    builder = str(Path(sys.executable).parent / "builder")
    with tempfile.TemporaryDirectory(prefix="fresh-tables-") as folder:
        def timed(kind: str, jobs: str) -> float:
            environment = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / f"numba-{jobs}")}
            started = time.perf_counter()
            subprocess.run([builder, "tables", "--quiet", "--jobs", jobs, "--data",
                            str(Path(folder) / f"data-{kind}-{jobs}")], check=True,
                           capture_output=True, env=environment)
            return time.perf_counter() - started

        for kind in ("cold", "warm"):
            product, baseline = timed(kind, "0"), timed(kind, "1")
            rows.append(row(f"make_tables_fresh_{kind}", product, baseline,
                            f"`builder tables` into an empty directory, numba cache {kind} "
                            "(every table and the catalog; make tables also installs the "
                            "venv on a new machine), against one puzzle at a time"))


def bench_stats_targets(rows, count: int = 3):
    """`builder tricolore4x4-stats` per target (the stream search reusing its arrays, the
    histogram and orbit) against the general kernel it replaced, same targets."""
    from puzzles.tricolore.tables import canonical_targets, target_stats_task
    from puzzles.tricolore.target_search import search_target

    rules = Tricolore(4, 4)
    targets = canonical_targets(rules, count, 99)
    target_stats_task(targets[0])  # compile / load the cache, fill the kept arrays
    started = time.perf_counter()
    for target in targets:
        target_stats_task(target)
    product = (time.perf_counter() - started) / count
    started = time.perf_counter()
    for target in targets:
        np.bincount(search_target(rules.half_tables(), target)[0], minlength=256)
    baseline = (time.perf_counter() - started) / count
    rows.append(row("tricolore_4x4_stats_per_target", product, baseline,
                    f"seconds per random canonical target ({count}), stream kernel with kept "
                    "arrays vs the general kernel; the first such run measured 13.6 s a target"))


def bench_target_build_cli(rows, data: Path):
    """`builder tricolore4x4 --target X` as a whole process into a copy of the data
    directory: the search, the publish and the catalog updated for that table alone."""
    import shutil
    import tempfile

    builder = str(Path(sys.executable).parent / "builder")
    with tempfile.TemporaryDirectory(prefix="target-bench-") as folder:
        copy = Path(folder) / "data"
        shutil.copytree(data, copy, ignore=shutil.ignore_patterns(".*"))
        runs = []
        for _ in range(SEARCH_REPEATS):
            shutil.rmtree(copy / "tricolore" / "4x4" / "targets" / "BRRR.RRRR.RRRR.RRRR.zarr",
                          ignore_errors=True)
            started = time.perf_counter()
            subprocess.run([builder, "tricolore4x4", "--target", "BRRR.RRRR.RRRR.RRRR",
                            "--quiet", "--data", str(copy)], check=True, capture_output=True)
            runs.append(time.perf_counter() - started)
    rows.append(row("tricolore_4x4_target_build_cli", statistics.median(runs), None,
                    "`builder tricolore4x4 --target BRRR.RRRR.RRRR.RRRR` whole process with "
                    "every other table built: search, publish, catalog updated for that "
                    f"table alone; median of {SEARCH_REPEATS} ({min(runs):.2f}-{max(runs):.2f}"
                    " s; 34-37 s before the per-table catalog)"))


def bench_tricolore_4x4(rows, data: Path):
    import resource

    from puzzles.tricolore.bidirectional import bidirectional_path
    from puzzles.tricolore.stream_search import search_target_streams
    from puzzles.tricolore.tables import single_target as tricolore_single_target
    from puzzles.tricolore.target_search import search_target
    from query.walk import Tables

    rules = Tricolore(4, 4)
    tricolore_single_target(Tricolore(3, 3), 0, progress=False)  # compile / load the cache
    search_target(Tricolore(3, 3).half_tables(), 0)
    target = rules.parse("RRRR.RRRR.RRRR.RRRR")
    # medians of three, alternating: this machine's speed drifts by up to 2x within minutes
    searches, generals, kept_searches = [], [], []
    kept: dict = {}
    for _ in range(SEARCH_REPEATS):
        started = time.perf_counter()
        tricolore_single_target(rules, target, progress=False)
        searches.append(time.perf_counter() - started)
        if len(searches) == 1:  # before the general kernel's arrays raise it
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
            search_target_streams(4, 4, target, kept=kept)  # the kept arrays' first touch
        started = time.perf_counter()
        search_target(rules.half_tables(), target)
        generals.append(time.perf_counter() - started)
        started = time.perf_counter()
        search_target_streams(4, 4, target, kept=kept)
        kept_searches.append(time.perf_counter() - started)
    rows.append(row("tricolore_4x4_target_search_kept_arrays", statistics.median(kept_searches),
                    statistics.median(generals),
                    f"the same search as the whole-run statistics make it (5,398,082 of them): "
                    f"the stream kernel reusing its arrays, median of {SEARCH_REPEATS} "
                    f"({min(kept_searches):.2f}-{max(kept_searches):.2f} s), against the "
                    "general kernel in the same runs; the goal: <= 0.6 s and <= 0.5x"))
    kept.clear()
    rows.append(row("tricolore_4x4_target_search", statistics.median(searches),
                    statistics.median(generals),
                    f"one backward search over 731M nodes towards all red, median of "
                    f"{SEARCH_REPEATS} alternating runs (product {min(searches):.2f}-"
                    f"{max(searches):.2f} s, baseline {min(generals):.2f}-{max(generals):.2f} "
                    f"s): the stream kernel (product, each run on fresh memory) vs the general "
                    f"single-target kernel it replaced; peak RSS of the bench process after "
                    f"the first {peak:.2f} GiB"))
    from puzzles.tricolore.stream_search import forward_reachable_streams
    from puzzles.tricolore.target_search import forward_reachable

    forward_reachable_streams(3, 3, 0)
    forward_reachable(Tricolore(3, 3).half_tables(), 0)
    started = time.perf_counter()
    streamed = forward_reachable_streams(4, 4, target)
    reachability = time.perf_counter() - started
    started = time.perf_counter()
    plain = forward_reachable(rules.half_tables(), target)
    general_reachability = time.perf_counter() - started
    rows.append(row("tricolore_4x4_reachability", reachability, general_reachability,
                    "forward search over 731M nodes from all red: stream pushes in both "
                    "layouts, a thread each (product) vs the single-threaded per-board push "
                    f"it replaced; same boards reached: {bool(np.array_equal(streamed, plain))}"))
    rng = np.random.default_rng(7)
    starts = [int(s) for s in rng.integers(0, rules.n_boards, 40)]
    walk, before, fallback = [], [], []
    for start in starts:  # each walk on a fresh reader: its chunks read from disk
        for walker, times in ((engine_walk, walk), (column_walk, before)):
            fresh = Tables(data)
            began = time.perf_counter()
            walker(rules, fresh, start, target, "unrestricted")
            times.append(time.perf_counter() - began)
    for start in starts[:8]:
        began = time.perf_counter()
        bidirectional_path(rules, start, target)
        fallback.append(time.perf_counter() - began)
    rows.append(row("query_path_4x4_p50_one_walk_vs_before", float(np.median(walk)),
                    float(np.median(before)),
                    "exact 4x4 path by table walk, fresh reader each (chunks read from "
                    "disk): the engine's walk vs the Tricolore-only column walk it replaced, "
                    "on the same 40 starts"))
    rows.append(row("query_path_4x4_p50", float(np.median(walk)), float(np.median(fallback)),
                    "exact 4x4 path by table walk (fresh chunks) vs the bidirectional search "
                    "used when no table exists"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--full-build", action="store_true",
                        help="also time `builder tricolore --force` (rebuilds the 4x2 tables)")
    parser.add_argument("--cold-query", action="store_true",
                        help="time only the cold `query path` and merge its row into "
                        "bench.json")
    args = parser.parse_args()
    data = args.data.resolve()
    rows: list[dict] = []
    print(environment())
    if args.cold_query:
        bench_cold_cli(rows, data)
        merge_rows(data, rows)
        return
    if args.full_build:
        builder = str(Path(sys.executable).parent / "builder")
        started = time.perf_counter()
        subprocess.run([builder, "tricolore", "--force", "--quiet", "--data", str(data)],
                       check=True, capture_output=True)
        rows.append(row("tricolore_4x2_tables_force", time.perf_counter() - started, None,
                        "`builder tricolore --force`: the three 4x2 searches, zarr writes and "
                        "the DuckDB catalog updated for those three tables"))
    bench_all_pairs(rows)
    bench_balls(rows, data)
    bench_plugins(rows)
    bench_load(rows, data)
    bench_solver_load(rows, data)
    bench_tricolore_4x4(rows, data)
    bench_stats_targets(rows)
    bench_target_build_cli(rows, data)
    bench_table_write(rows, data)
    if args.full_build:
        bench_make_tables_fresh(rows)
    bench_storage(rows, data)
    bench_query(rows, data)
    bench_cold_cli(rows, data)
    bench_make_tables(rows, data)
    width = max(len(r["name"]) for r in rows)

    def shown(value, unit="s"):
        if value is None:
            return "-"
        return f"{value * 1e6:.0f} us" if unit == "s" and value < 0.01 else f"{value:.3f}"

    print(f"{'name':<{width}}  {'product':>10}  {'baseline':>10}  {'ratio':>8}  notes")
    for r in rows:
        ratio = "-" if r["ratio"] is None or math.isnan(r["ratio"]) else f"{r['ratio']:.2f}"
        print(f"{r['name']:<{width}}  {shown(r['product_s']):>10}  {shown(r['baseline_s']):>10}"
              f"  {ratio:>8}  {r['notes']}")
    (data / "bench.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {data / 'bench.json'}")


if __name__ == "__main__":
    main()
