"""The one build routine: a plug-in's ``TableSpec`` (``builder/puzzles/base.py``) in,
a published table out.  Is a current table with the spec's identity stored? → fill its
arrays (the generic breadth-first kernel for ``searches``, the plug-in's own ``compute``
for the rest, or its chunk tasks on the executor, resumably) → write them in chunks into
a staging directory → publish atomically.  The catalog is then updated for that table
alone (``builder.catalog``).  Names no puzzle.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from builder import store
from builder.puzzles.base import Computed, Puzzle, TableSpec, resolved


@dataclass(frozen=True)
class BuildResult:
    path: Path
    built: bool
    seconds: float


def table_path(data_dir: Path, spec: TableSpec) -> Path:
    return store.table_path(data_dir, *spec.parts)


def compute_arrays(spec: TableSpec, progress: bool = False,
                   data_dir: Path | None = None) -> dict[str, np.ndarray]:
    """Every array of a spec, in memory."""
    return compute_table(spec, progress, data_dir)[0]


def compute_table(spec: TableSpec, progress: bool = False, data_dir: Path | None = None
                  ) -> tuple[dict[str, np.ndarray], dict]:
    """Every array of a spec, in memory, and the attributes its ``compute`` (or its
    chunk tasks' ``finish``) yielded.  ``data_dir``: where a table derived from stored
    tables (``reads_tables``) reads them."""
    if spec.tasks is not None:
        return _tasks_in_memory(spec, progress)
    if spec.searches:  # its kernel compiles when imported (a third of a second)
        from builder.kernels.graph_bfs import breadth_first
    arrays: dict[str, np.ndarray] = {}
    label = "/".join(spec.parts)
    for name, search in tqdm(spec.searches.items(), desc=label, unit="array",
                             disable=not progress or not spec.searches):
        arrays[name] = breadth_first(search.states, search.sources, resolved(search.neighbours),
                                     search.most_neighbours, search.parameters, search.wide)
    attributes: dict = {}
    if spec.compute is not None:
        if spec.reads_tables:
            from builder.reader import Tables

            if data_dir is None:
                raise ValueError(f"table spec {spec.parts} reads stored tables: give the "
                                 "data directory")
            made = spec.compute(progress, Tables(data_dir))
        else:
            made = spec.compute(progress)
        if isinstance(made, Computed):
            made, attributes = made.arrays, dict(made.attributes)
        arrays.update({name: np.asarray(values) for name, values in made.items()})
    return arrays, attributes


def _tasks_in_memory(spec: TableSpec, progress: bool) -> tuple[dict[str, np.ndarray], dict]:
    tasks = spec.tasks
    arrays = {name: np.zeros(tasks.shape, dtype) for name, dtype in tasks.arrays.items()}
    facts = []
    for arguments in tqdm(tasks.arguments, desc="/".join(spec.parts), unit="task",
                          disable=not progress, mininterval=1.0):
        block = resolved(tasks.function)(*arguments)
        for name, values in block.arrays.items():
            arrays[name][_region(block.offset, values.shape)] = values
        facts.append(block.facts)
    return arrays, (tasks.finish(facts) if tasks.finish else {})


def _region(offset: tuple[int, ...], shape: tuple[int, ...]) -> tuple[slice, ...]:
    return tuple(slice(first, first + size) for first, size in zip(offset, shape))


def run_chunk_task(staging: str, function: str, number: int, *arguments) -> dict:
    """One chunk task, in this process or on a Dask worker: its block written into the
    staging table, then a record of the chunks it wrote (with their checksums) left
    beside them, atomically, so that a resumed build can skip it."""
    import itertools

    import zarr

    block = resolved(function)(*arguments)
    group = zarr.open_group(staging, mode="r+")
    files = []
    for name, values in block.arrays.items():
        array = group[name]
        array[_region(block.offset, values.shape)] = values
        spans = [range(first // chunk, (first + size - 1) // chunk + 1)
                 for first, size, chunk in zip(block.offset, values.shape, array.chunks)]
        files += [f"{name}/c/" + "/".join(map(str, index)) for index in itertools.product(*spans)]
    record = {"task": number, "worker": os.getpid(), "facts": block.facts,
              "crc32": {key: store.file_crc32(Path(staging) / key) for key in files}}
    folder = Path(staging) / "blocks"
    folder.mkdir(exist_ok=True)
    temporary = folder / f".{number}.{os.getpid()}"
    temporary.write_text(json.dumps(record))
    os.replace(temporary, folder / f"{number}.json")
    return record


def _build_by_tasks(path: Path, spec: TableSpec, force: bool, progress: bool, executor,
                    log) -> BuildResult:
    """A table made by chunk tasks, in a fixed staging directory that survives an
    interruption: a rerun skips every task whose chunks still verify."""
    import zarr

    from builder.execute import InProcess

    tasks = spec.tasks
    started = time.perf_counter()
    staging = store.resumable_staging(path)
    existing = store.read_attributes(staging)
    if force or not existing or any(existing.get(key) != value for key, value in
                                    spec.identity.items()) or (
            existing.get("table_format") != store.TABLE_FORMAT):
        shutil.rmtree(staging, ignore_errors=True)
        store.TableWriter(staging, {name: (tasks.shape, dtype, tasks.chunks)
                                    for name, dtype in tasks.arrays.items()},
                          {**spec.identity, **spec.attributes, "encoding": spec.encoding,
                           "spec_built": True})
    records = store.finished_blocks(staging)
    todo = [number for number in range(len(tasks.arguments)) if number not in records]
    if len(todo) < len(tasks.arguments):
        log(f"resuming {path.name}: {len(tasks.arguments) - len(todo)} of "
            f"{len(tasks.arguments)} chunk tasks already built and verified, skipped")
    executor = executor or InProcess()
    for record in executor.run(run_chunk_task,
                               [(str(staging), tasks.function, number, *tasks.arguments[number])
                                for number in todo],
                               desc=" ".join(spec.parts), progress=progress):
        records[record["task"]] = record
    missing = [number for number in range(len(tasks.arguments)) if number not in records]
    if missing:
        raise RuntimeError(f"chunk tasks {missing[:5]} of {path.name} did not finish")
    facts = [records[number]["facts"] for number in range(len(tasks.arguments))]
    group = zarr.open_group(staging, mode="r+")
    group.attrs.update({**(tasks.finish(facts) if tasks.finish else {}),
                        "search_seconds": round(time.perf_counter() - started, 3),
                        "complete": True})
    shutil.rmtree(staging / "blocks", ignore_errors=True)
    store.record_checksums(staging)
    store.publish(staging, path)
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_table(data_dir: Path, spec: TableSpec, force: bool = False,
                progress: bool = True, executor=None, log=print) -> BuildResult:
    """Build (or reuse, if current) one table from its spec; chunk tasks run on
    ``executor`` (``builder.execute``; in this process by default)."""
    if "puzzle" not in spec.identity:
        raise ValueError(f"table spec {spec.parts} has no 'puzzle' in its identity")
    path = table_path(data_dir, spec)
    if not force and store.is_current(path, spec.identity):
        return BuildResult(path, built=False, seconds=0.0)
    if spec.tasks is not None:
        return _build_by_tasks(path, spec, force, progress, executor, log)
    started = time.perf_counter()
    arrays, extra = compute_table(spec, progress, data_dir)
    seconds = time.perf_counter() - started
    extra.update(spec.summarise(arrays) if spec.summarise else {})
    with store.publishing(path) as staging:
        store.write_table(
            staging, arrays,
            {name: (min(spec.chunks.get(name, spec.chunk), max(1, values.size)),)
             if values.ndim == 1 else
             values.shape for name, values in arrays.items()},
            {**spec.identity, **spec.attributes, **extra, "encoding": spec.encoding,
             "spec_built": True,
             "search_seconds": round(seconds, 3)})
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_defaults(data_dir: Path, puzzles: tuple[Puzzle, ...], force: bool = False,
                   progress: bool = True, executor=None) -> list[BuildResult]:
    """Every default table of every given plug-in, in the order each declares them (a
    table derived from others comes after them)."""
    return [build_table(data_dir, spec, force, progress, executor)
            for puzzle in puzzles for spec in puzzle.default_tables()]
