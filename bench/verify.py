"""`builder verify`'s whole recurrence pass on the built data (issue 42), against the check
it replaced, run in this same process:

- product: the numba pass over every entry of each breadth-first array and sparse table
  (``builder.verify``'s ``_check_searches`` / ``_check_sparse``, split across the cores);
- baseline: the former sampled check's per-entry loop (the plug-in's move function called
  from Python for one state, its successors looked up one state at a time), timed on
  ``BASELINE_ENTRIES`` entries and scaled to the whole table (noted as such);
- and the whole `builder verify --data DIR` as a user runs it (wall time, no baseline).

    .venv/bin/python bench/verify.py --data data   # prints the rows, merges into bench.json
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone

BASELINE_ENTRIES = 20_000


def _spec_tables(data: Path):
    """(table path, spec, zarr group) of every built table a spec describes with searches
    or a sparse search."""
    import zarr

    from builder import registry, store
    from builder.catalog import table_directories
    from builder.contract.errors import PuzzleInputError
    from builder.contract.puzzle import Building

    for table in table_directories(data):
        attributes = store.read_attributes(table)
        if not attributes or not attributes.get("spec_built"):
            continue
        try:
            spec = Building.of(registry.by_name(attributes["puzzle"])).table(attributes)
        except (PuzzleInputError, ValueError):
            continue
        if spec.sparse is not None or spec.searches:
            yield table, spec, zarr.open_group(table, mode="r")


def _entry_by_entry_sparse(spec, group, entries: int) -> float:
    """The former sampled check's loop on the first ``entries`` keys: seconds."""
    from builder.contract.keys import sortable
    from builder.sparse import successors_of

    search = spec.sparse
    keys, distance = sortable(group["keys"][...]), group["distance"][...]
    started = time.perf_counter()
    for at in range(min(entries, len(keys))):
        after = successors_of(keys[at:at + 1], search.successors, search.most_moves,
                              search.parameters)
        where = np.minimum(np.searchsorted(keys, after), len(keys) - 1)
        held = keys[where] == after
        [int(value) for value in distance[where[held]]]
    return time.perf_counter() - started


def _entry_by_entry_dense(spec, group, entries: int) -> float:
    from builder.contract.specs import resolved

    started = time.perf_counter()
    for name, search in spec.searches.items():
        distance = group[name][...]
        step = resolved(search.moves or search.neighbours)
        parameters = np.asarray(search.parameters, dtype=np.int64)
        found = np.empty(search.most_neighbours, np.int64)
        for state in range(min(entries, search.states)):
            [int(distance[int(other)]) for other in found[:step(state, parameters, found)]]
    return time.perf_counter() - started


def bench_recurrence(rows, data: Path) -> None:
    from builder.verify import _check_searches, _check_sparse

    for table, spec, group in _spec_tables(data):
        name = table.relative_to(data).as_posix().removesuffix(".zarr")
        check = _check_sparse if spec.sparse is not None else _check_searches
        check(spec, group)  # compile or load the kernels, read the arrays once
        started = time.perf_counter()
        problem = check(spec, group)
        product = time.perf_counter() - started
        entries = (group["distance"].shape[0] if spec.sparse is not None
                   else sum(search.states for search in spec.searches.values()))
        if spec.sparse is not None:
            sampled = min(BASELINE_ENTRIES, entries)
            baseline = _entry_by_entry_sparse(spec, group, sampled) * entries / sampled
        else:
            sampled = sum(min(BASELINE_ENTRIES, search.states)
                          for search in spec.searches.values())
            baseline = _entry_by_entry_dense(spec, group, BASELINE_ENTRIES) * entries / sampled
        rows.append(row(f"verify_recurrence_{name.replace('/', '_')}", product, baseline,
                        f"every one of {entries:,} entries checked against 1 + the least "
                        f"after a move ({'holds' if problem is None else problem}); baseline: "
                        f"the former sampled check's per-entry loop on {sampled:,} entries, "
                        "scaled to the table"))


def bench_verify_command(rows, data: Path) -> None:
    started = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).parent / "builder"), "verify",
                           "--data", str(data)], check=False, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    verdicts = [line for line in done.stdout.splitlines() if line[:4] in ("ok  ", "FAIL")]
    failed = sum(line.startswith("FAIL") for line in verdicts)
    rows.append(row("verify_whole_data", seconds, None,
                    f"`builder verify --data DIR` on the built data: {len(verdicts)} verdicts, "
                    f"{failed} FAIL, the recurrence at every entry of every spec table "
                    "(wall time, cold process)"))


if __name__ == "__main__":
    run_alone(__doc__, bench_recurrence, bench_verify_command)
