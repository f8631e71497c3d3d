"""The 4×2 all-pairs kernel on a busy machine: one other process spinning on a core while
the three tables are computed with numba's two threads, then with one thread, each in a
fresh process (the OpenMP wait policy is read when the threading layer loads).  The
product's two threads must be no slower than its one thread; the same run with OpenMP's
threads left spinning after each parallel region (``OMP_WAIT_POLICY=ACTIVE``, GNU
OpenMP's behaviour before this project set PASSIVE) is printed beside it.

    .venv/bin/python bench/busy_machine.py      # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone

KERNEL_RUN = """
import json, sys, time
import numba
from bench.run import tricolore_all_pairs
from puzzles.tricolore import METHODS, Tricolore
numba.set_num_threads(int(sys.argv[1]))
tricolore_all_pairs(Tricolore(2, 2), "hybrid", progress=False)  # compile / load the cache
rules = Tricolore(4, 2)
started = time.perf_counter()
for method in METHODS:
    tricolore_all_pairs(rules, method, progress=False)
print(json.dumps({"seconds": time.perf_counter() - started,
                  "layer": numba.threading_layer()}))
"""


def kernel_seconds(threads: int, environment: dict[str, str]) -> dict:
    ran = subprocess.run([sys.executable, "-c", KERNEL_RUN, str(threads)], check=True,
                         capture_output=True, text=True, cwd=ROOT, env=environment)
    return json.loads(ran.stdout)


def with_a_spinner(work, *arguments):
    """``work(*arguments)`` while another process keeps one core busy."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        return work(*arguments)
    finally:
        spinner.kill()
        spinner.wait()


def bench_busy_machine(rows: list) -> None:
    product_environment = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    spinning_environment = {**product_environment, "OMP_WAIT_POLICY": "ACTIVE"}
    measured = {}
    for name, environment in (("product", product_environment),
                              ("spinning", spinning_environment)):
        for threads in (2, 1):
            measured[name, threads] = with_a_spinner(kernel_seconds, threads, environment)
    two, one = measured["product", 2], measured["product", 1]
    active_two, active_one = measured["spinning", 2], measured["spinning", 1]
    rows.append(row(
        "tricolore_4x2_all_pairs_busy_machine", two["seconds"], one["seconds"],
        f"the three 4x2 tables beside a process spinning on one core, each in a fresh "
        f"process (numba layer {two['layer']}): 2 threads {two['seconds']:.2f} s against 1 "
        f"thread {one['seconds']:.2f} s (ratio >= 1: two threads no slower); with OpenMP's "
        f"threads spinning after each region (OMP_WAIT_POLICY=ACTIVE): 2 threads "
        f"{active_two['seconds']:.2f} s, 1 thread {active_one['seconds']:.2f} s"))


if __name__ == "__main__":
    run_alone(__doc__, bench_busy_machine)
