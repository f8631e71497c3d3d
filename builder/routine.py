"""The one build routine: a plug-in's ``TableSpec`` (``builder/puzzles/base.py``) in,
a published table out.  Is a current table with the spec's identity stored? → fill its
arrays (the generic breadth-first kernel for ``searches``, the plug-in's own ``compute``
for the rest) → write them in chunks into a staging directory → publish atomically.
The catalog is then updated for that table alone (``builder.catalog``).  Names no puzzle.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from builder import store
from builder.build import BuildResult
from builder.puzzles.base import Computed, Puzzle, TableSpec, resolved


def table_path(data_dir: Path, spec: TableSpec) -> Path:
    return store.table_path(data_dir, *spec.parts)


def compute_arrays(spec: TableSpec, progress: bool = False) -> dict[str, np.ndarray]:
    """Every array of a spec, in memory."""
    return compute_table(spec, progress)[0]


def compute_table(spec: TableSpec, progress: bool = False
                  ) -> tuple[dict[str, np.ndarray], dict]:
    """Every array of a spec, in memory, and the attributes its ``compute`` yielded."""
    from builder.kernels.graph_bfs import breadth_first

    arrays: dict[str, np.ndarray] = {}
    label = "/".join(spec.parts)
    for name, search in tqdm(spec.searches.items(), desc=label, unit="array",
                             disable=not progress or not spec.searches):
        arrays[name] = breadth_first(search.states, search.sources, resolved(search.neighbours),
                                     search.most_neighbours, search.parameters, search.wide)
    attributes: dict = {}
    if spec.compute is not None:
        made = spec.compute(progress)
        if isinstance(made, Computed):
            made, attributes = made.arrays, dict(made.attributes)
        arrays.update({name: np.asarray(values) for name, values in made.items()})
    return arrays, attributes


def build_table(data_dir: Path, spec: TableSpec, force: bool = False,
                progress: bool = True) -> BuildResult:
    """Build (or reuse, if current) one table from its spec."""
    if "puzzle" not in spec.identity:
        raise ValueError(f"table spec {spec.parts} has no 'puzzle' in its identity")
    path = table_path(data_dir, spec)
    if not force and store.is_current(path, spec.identity):
        return BuildResult(path, built=False, seconds=0.0)
    started = time.perf_counter()
    arrays, extra = compute_table(spec, progress)
    seconds = time.perf_counter() - started
    extra.update(spec.summarise(arrays) if spec.summarise else {})
    with store.publishing(path) as staging:
        store.write_table(
            staging, arrays,
            {name: (min(spec.chunks.get(name, spec.chunk), max(1, values.size)),)
             if values.ndim == 1 else
             values.shape for name, values in arrays.items()},
            {**spec.identity, **extra, "encoding": spec.encoding, "spec_built": True,
             "search_seconds": round(seconds, 3)})
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_defaults(data_dir: Path, puzzles: tuple[Puzzle, ...], force: bool = False,
                   progress: bool = True) -> list[BuildResult]:
    """Every default table of every given plug-in."""
    return [build_table(data_dir, spec, force, progress)
            for puzzle in puzzles for spec in puzzle.default_tables()]
