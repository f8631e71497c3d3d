"""Wall time of an all-pairs Tricolore build in this process, and on a local Dask cluster
of 1 and 2 worker processes: the speed-up and Dask's overhead.  Appends its rows to
data/bench.json (replacing rows of the same name).

    python bench/dask_scaling.py --width 4 --height 2 --method hybrid
    python bench/dask_scaling.py --width 5 --height 2 --method unrestricted   # ~10 min
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row
from builder.execute import Dask, InProcess
from builder.routine import build_table
from puzzles.tricolore.tables import all_pairs_spec

RUNS = 3
"""Builds timed per executor (the median is kept: one build's time drifts by a third)."""


def timed_build(width, height, method, executor) -> float:
    folder = Path(tempfile.mkdtemp(prefix="dask-bench-"))
    try:
        started = time.perf_counter()
        build_table(folder, all_pairs_spec(width, height, method), progress=False,
                    executor=executor)
        return time.perf_counter() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def machine_ceiling(width: int, height: int, method: str) -> tuple[float, float]:
    """Seconds of one build alone, and of the slower of two built at once, each in a
    process of its own with one numba thread (as a Dask worker runs it): the processes
    start, compile or load their kernels, then build from the same moment."""
    script = ("import sys, time; sys.path.insert(0, sys.argv[1]); "
              "from bench.dask_scaling import timed_build; "
              "from builder.execute import InProcess; "
              "timed_build(3, 2, sys.argv[4], InProcess()); "
              "time.sleep(max(0.0, float(sys.argv[5]) - time.time())); "
              "print(timed_build(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], "
              "InProcess()))")
    environment = {**os.environ, "NUMBA_NUM_THREADS": "1"}

    def builds(count: int) -> float:
        begin = str(time.time() + 10)  # after every process has started and compiled
        processes = [subprocess.Popen(
            [sys.executable, "-c", script, str(ROOT), str(width), str(height), method, begin],
            env=environment, stdout=subprocess.PIPE, text=True) for _ in range(count)]
        return max(float(process.communicate()[0]) for process in processes)

    return builds(1), builds(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=2)
    parser.add_argument("--method", default="hybrid")
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    args = parser.parse_args()
    shape = f"{args.width}x{args.height}"
    timed_build(3, 2, args.method, InProcess())  # numba cache warm in this process
    in_process = statistics.median(timed_build(args.width, args.height, args.method,
                                               InProcess()) for _ in range(RUNS))
    rows = []
    for workers in (1, 2):
        executor = Dask(workers=workers)
        executor.client()
        timed_build(3, 2, args.method, executor)  # warm the workers' numba cache
        runs = [timed_build(args.width, args.height, args.method, executor)
                for _ in range(RUNS)]
        executor.close()
        rows.append(row(f"tricolore_{shape}_{args.method}_dask_{workers}_workers",
                        statistics.median(runs), in_process,
                        f"Dask LocalCluster, {workers} worker process(es), 1 thread each, "
                        f"median of {RUNS} builds ({min(runs):.2f}-{max(runs):.2f} s), vs the "
                        "in-process build (numba threads on both cores); ratio < 1 is Dask's "
                        "overhead"))
    one, two = rows[0]["product_s"], rows[1]["product_s"]
    rows.append(row(f"tricolore_{shape}_{args.method}_dask_speedup", two, one,
                    "2 worker processes vs 1"))
    alone, together = machine_ceiling(args.width, args.height, args.method)
    rows.append(row(f"tricolore_{shape}_{args.method}_two_processes_ceiling", together / 2,
                    alone, "the machine's own ceiling for two workers, without Dask: two "
                    "independent processes (1 numba thread each) building the table at once "
                    f"(the slower {together:.2f} s) vs one alone ({alone:.2f} s); ratio: the "
                    "throughput gain two processes can have here"))
    for r in rows:
        print(f"{r['name']:<48} {r['product_s']:>9.2f} s {r['baseline_s']:>9.2f} s "
              f"{r['ratio']:>6.2f}  {r['notes']}")
    path = args.data / "bench.json"
    existing = json.loads(path.read_text()) if path.exists() else []
    names = {r["name"] for r in rows}
    path.write_text(json.dumps([r for r in existing if r["name"] not in names] + rows,
                               indent=1) + "\n")


if __name__ == "__main__":
    main()
