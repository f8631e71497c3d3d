"""Wall time of an all-pairs Tricolore build in this process, and on a local Dask cluster
of 1 and 2 worker processes: the speed-up and Dask's overhead.  Appends its rows to
data/bench.json (replacing rows of the same name).

    python bench/dask_scaling.py --width 4 --height 2 --method hybrid
    python bench/dask_scaling.py --width 5 --height 2 --method unrestricted   # ~10 min
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import row
from builder.execute import Dask, InProcess
from builder.puzzles.tricolore.tables import all_pairs_spec
from builder.routine import build_table


def timed_build(width, height, method, executor) -> float:
    folder = Path(tempfile.mkdtemp(prefix="dask-bench-"))
    try:
        started = time.perf_counter()
        build_table(folder, all_pairs_spec(width, height, method), progress=False,
                    executor=executor)
        return time.perf_counter() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=2)
    parser.add_argument("--method", default="hybrid")
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    args = parser.parse_args()
    shape = f"{args.width}x{args.height}"
    timed_build(3, 2, args.method, InProcess())  # numba cache warm in this process
    in_process = timed_build(args.width, args.height, args.method, InProcess())
    rows = []
    for workers in (1, 2):
        executor = Dask(workers=workers)
        executor.client()
        timed_build(3, 2, args.method, executor)  # warm the workers' numba cache
        seconds = timed_build(args.width, args.height, args.method, executor)
        executor.close()
        rows.append(row(f"tricolore_{shape}_{args.method}_dask_{workers}_workers", seconds,
                        in_process, f"Dask LocalCluster, {workers} worker process(es), 1 "
                        "thread each, vs the in-process build (numba threads on both cores); "
                        "ratio < 1 is Dask's overhead"))
    one, two = rows[0]["product_s"], rows[1]["product_s"]
    rows.append(row(f"tricolore_{shape}_{args.method}_dask_speedup", two, one,
                    "2 worker processes vs 1"))
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
