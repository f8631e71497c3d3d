"""A table spec's arrays computed in memory: by the generic breadth-first kernel (each
array a task, on the build's executor where it gives one), by the plug-in's own
``compute``, or by its chunk tasks run one after another.  The build routine
(``routine.py``) writes what this makes; the reader's ``Tables.computed`` keeps it for a
query.  Imports neither of them (no cycle between the read and the build side).

A table computed at query time is expensive work (``builder.contract.work``): a server
computes it through its gate, a few at a time and stopped at the request's limit; the
generic kernel polls the gate's stop signal, and the loops here check it between arrays
and tasks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from tqdm import tqdm

from builder.contract.base import TableLookup
from builder.contract.specs import BreadthFirstSearch, Computed, TableSpec, kernel, resolved
from builder.contract.work import checkpoint, expensive, once_per_request
from builder.execute import InProcess


def compute_arrays(spec: TableSpec, progress: bool = False,
                   tables: TableLookup | None = None) -> dict[str, np.ndarray]:
    """Every array of a spec, in memory, computed now for a query (``Tables.computed``):
    through the server's gate when a request asks, and once a request, whatever the
    reader's cache drops meanwhile (a position's moves each ask for the same table, and
    other requests' tables may push it out between them).  ``spec`` may be an own
    search's ``Table``."""
    from builder.contract.puzzle import as_spec

    spec = as_spec(spec)
    key = ("computed", spec.parts, json.dumps(spec.identity, sort_keys=True, default=str))

    def computed() -> dict[str, np.ndarray]:
        with expensive(f"computing {'/'.join(spec.parts)}"):
            return compute_table(spec, progress, tables)[0]

    return once_per_request(key, computed)


def compute_table(spec: TableSpec, progress: bool = False, tables: TableLookup | None = None,
                  executor=None) -> tuple[dict[str, np.ndarray], dict]:
    """Every array of a spec, in memory, and the attributes its ``compute`` (or its
    chunk tasks' ``finish``) yielded.  ``tables``: the stored tables a table derived from
    them (``reads_tables``) reads.  ``executor`` (``builder.execute``): where the
    breadth-first arrays are searched, each a task (on Dask, side by side on its workers);
    None: here, one after another."""
    if spec.tasks is not None:
        return _tasks_in_memory(spec, progress)
    if spec.sparse is not None:
        import tempfile

        from builder.sparse import sparse_arrays

        with tempfile.TemporaryDirectory(prefix="sparse-") as folder:
            return sparse_arrays(spec, Path(folder), progress=progress), {}
    found = dict((executor or InProcess()).run(
        search_array, [(name, search, progress) for name, search in spec.searches.items()],
        desc="/".join(spec.parts), progress=progress and bool(spec.searches)))
    arrays: dict[str, np.ndarray] = {name: found[name] for name in spec.searches}
    for name, fold in spec.folds.items():
        arrays[name] = least_of_runs(arrays[fold.source], fold.width)
    attributes: dict = {}
    if spec.compute is not None:
        if spec.reads_tables:
            if tables is None:
                raise ValueError(f"table spec {spec.parts} reads stored tables: give them")
            made = spec.compute(progress, tables)
        else:
            made = spec.compute(progress)
        if isinstance(made, Computed):
            made, attributes = made.arrays, dict(made.attributes)
        arrays.update({name: np.asarray(values) for name, values in made.items()})
    return arrays, attributes


def search_array(name: str, search: BreadthFirstSearch, progress: bool = False
                 ) -> tuple[str, np.ndarray]:
    """One breadth-first array of a spec, named: a task the build's executor runs in this
    process or on a Dask worker (which imports this module, and the kernel by its path);
    a folded search shows its own bar where ``progress`` (it takes minutes)."""
    from builder.kernels.graph_bfs import (  # compiles when first imported
        breadth_first,
        breadth_first_folded,
    )

    checkpoint()
    if search.folded > 1:
        return name, breadth_first_folded(search.states, search.sources,
                                          kernel(search.neighbours), search.most_neighbours,
                                          search.parameters, search.folded, progress, name)
    return name, breadth_first(search.states, search.sources, kernel(search.neighbours),
                               search.most_neighbours, search.parameters, search.wide)


def least_of_runs(values: np.ndarray, width: int) -> np.ndarray:
    """The least of every run of ``width`` consecutive entries (a ``Fold``)."""
    if width < 1 or len(values) % width:
        raise ValueError(f"{len(values):,} entries do not fall in runs of {width}")
    return values.reshape(-1, width).min(axis=1)


def _tasks_in_memory(spec: TableSpec, progress: bool) -> tuple[dict[str, np.ndarray], dict]:
    tasks = spec.tasks
    arrays = {name: np.zeros(tasks.shape, dtype) for name, dtype in tasks.arrays.items()}
    facts = []
    for arguments in tqdm(tasks.arguments, desc="/".join(spec.parts), unit="task",
                          disable=not progress, mininterval=1.0):
        checkpoint()
        block = resolved(tasks.function)(*arguments)
        for name, values in block.arrays.items():
            arrays[name][region(block.offset, values.shape)] = values
        facts.append(block.facts)
    return arrays, (tasks.finish(facts) if tasks.finish else {})


def region(offset: tuple[int, ...], shape: tuple[int, ...]) -> tuple[slice, ...]:
    return tuple(slice(first, first + size) for first, size in zip(offset, shape))
