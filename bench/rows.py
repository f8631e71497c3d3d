"""The bench.json row format and the main every bench script shares.

A row is {"name", "product_s", "baseline_s", "ratio", "notes"} with ratio = baseline_s /
product_s (the speed-up), or a ratio the notes explain where there are no times
(``row``).  `make bench` (bench/run.py) writes every row to data/bench.json; a script
run on its own (``run_alone``, or its own main and ``merge_rows``) prints the environment
and merges its rows into that file, replacing rows of the same name.  Imports nothing of
the other bench scripts, so each of them, bench/run.py included, can import it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def row(name, product_s, baseline_s, notes, ratio=None):
    if ratio is None and product_s and baseline_s:
        ratio = baseline_s / product_s
    return {
        "name": name,
        "product_s": None if product_s is None else round(product_s, 6),
        "baseline_s": None if baseline_s is None else round(baseline_s, 6),
        "ratio": None if ratio is None else round(ratio, 3),
        "notes": notes,
    }


def run_alone(description: str, *benches) -> None:
    """A bench script's main: ``--data``, the environment, each of ``benches(rows)`` (or
    ``bench(rows, data)`` for a bench with a ``data`` parameter: the data directory,
    absolute), the rows printed and merged into the data directory's bench.json."""
    import inspect

    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    data = parser.parse_args().data.resolve()
    print(environment())
    rows: list[dict] = []
    for bench in benches:
        wants_data = "data" in inspect.signature(bench).parameters
        bench(rows, **({"data": data} if wants_data else {}))
    merge_rows(data, rows)


def merge_rows(data: Path, rows: list[dict]) -> None:
    """Print rows and merge them into data/bench.json (replacing rows of the same name):
    how a benchmark run on its own records its figures beside `make bench`'s."""
    for r in rows:
        print(json.dumps(r))
    path = Path(data) / "bench.json"
    kept = [r for r in json.loads(path.read_text())
            if r["name"] not in {n["name"] for n in rows}] if path.exists() else []
    path.write_text(json.dumps(kept + rows, indent=1) + "\n")
    print(f"merged into {path}")


def environment() -> str:
    import numba

    return (
        f"{platform.node()} {platform.machine()} cores={os.cpu_count()} "
        f"python={platform.python_version()} numpy={np.__version__} numba={numba.__version__} "
        f"numba_threads={numba.get_num_threads()}"
    )
