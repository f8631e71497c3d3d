"""The one build routine: a plug-in's ``TableSpec`` (``builder/contract/specs.py``) in,
a published table out.  Is a current table with the spec's identity stored? → fill its
arrays (the generic breadth-first kernel for ``searches``, an array a task on the
executor, the plug-in's own ``compute`` for the rest, or its chunk tasks on the executor,
resumably) → write them in chunks into a staging directory → publish atomically.  The
catalog is then updated for that table alone (``builder.catalog``).  Names no puzzle.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from builder import store
from builder.compute import compute_table, region
from builder.contract.puzzle import Building, Puzzle
from builder.contract.specs import TableSpec, resolved


@dataclass(frozen=True)
class BuildResult:
    path: Path
    built: bool
    seconds: float


def table_path(data_dir: Path, spec: TableSpec) -> Path:
    """Where a table is stored (given as its spec, or as an own search's ``Table``)."""
    from builder.contract.puzzle import as_spec

    return store.table_path(data_dir, *as_spec(spec).parts)


def _lookup(spec: TableSpec, data_dir: Path):
    """The stored tables a derived table reads (``reads_tables``), else None."""
    if not spec.reads_tables:
        return None
    from builder.reader import Tables

    return Tables(data_dir)


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
        array = group[name].with_config(store.WRITE_EVERY_CHUNK)
        array[region(block.offset, values.shape)] = values
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


def _task_split(tasks) -> str:
    """What a resumed build must share with the one it resumes: the tasks' function and
    arguments (a record says "task 3 done"; task 3 must mean the same block)."""
    import hashlib

    text = json.dumps([tasks.function, [list(arguments) for arguments in tasks.arguments]],
                      default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


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
    # a finished task's record names it by number: the tasks must be the same ones
    split = _task_split(tasks)
    if force or not existing or any(existing.get(key) != value for key, value in
                                    spec.identity.items()) or (
            existing.get("table_format") != store.TABLE_FORMAT
            or existing.get("task_split") != split):
        shutil.rmtree(staging, ignore_errors=True)
        store.TableWriter(staging, {name: (tasks.shape, dtype, tasks.chunks)
                                    for name, dtype in tasks.arrays.items()},
                          {**spec.identity, **spec.attributes, "encoding": spec.encoding,
                           "spec_built": True, "task_split": split})
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


def _sparse_arrays(path: Path, spec: TableSpec, force: bool, progress: bool, executor):
    """A sparse table's arrays, its levels kept in the table's resumable staging folder
    until the table is published (an interrupted build resumes after its last level)."""
    from builder.sparse import sparse_arrays

    folder = store.resumable_staging(path)
    if force:
        shutil.rmtree(folder, ignore_errors=True)
    return sparse_arrays(spec, folder, executor, progress)


def build_table(data_dir: Path, spec: TableSpec, force: bool = False,
                progress: bool = True, executor=None, log=print) -> BuildResult:
    """Build (or reuse, if current) one table from its spec; its tasks (chunk tasks, a
    sparse search's shards, each breadth-first array) run on ``executor``
    (``builder.execute``; in this process by default)."""
    from builder.contract.puzzle import as_spec

    spec = as_spec(spec)
    if "puzzle" not in spec.identity:
        raise ValueError(f"table spec {spec.parts} has no 'puzzle' in its identity")
    path = table_path(data_dir, spec)
    # a table whose declared distance or ascending arrays changed is built again, so the
    # catalog's rows and the key indices follow the declaration
    declared = {key: spec.attributes[key] for key in ("distances", "ascending")
                if key in spec.attributes}
    if not force and store.is_current(path, {**spec.identity, **declared}):
        return BuildResult(path, built=False, seconds=0.0)
    if spec.tasks is not None:
        return _build_by_tasks(path, spec, force, progress, executor, log)
    started = time.perf_counter()
    if spec.sparse is not None:
        arrays, extra = _sparse_arrays(path, spec, force, progress, executor), {}
    else:
        arrays, extra = compute_table(spec, progress, _lookup(spec, data_dir), executor)
    seconds = time.perf_counter() - started
    extra.update(spec.summarise(arrays) if spec.summarise else {})
    with store.publishing(path) as staging:
        store.write_table(
            staging, arrays,
            {name: _chunk_shape(spec, name, values) for name, values in arrays.items()},
            {**spec.identity, **spec.attributes, **extra, "encoding": _described(spec),
             "spec_built": True,
             "search_seconds": round(seconds, 3)})
    if spec.sparse is not None:  # its levels are no longer needed to resume
        shutil.rmtree(store.resumable_staging(path), ignore_errors=True)
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def _chunk_shape(spec: TableSpec, name: str, values) -> tuple[int, ...]:
    """A vector in chunks of the spec's size for it; a 2-D array in chunks of whole rows
    where the spec names its size (two-word keys), else in one chunk."""
    if values.ndim == 1:
        return (min(spec.chunks.get(name, spec.chunk), max(1, values.size)),)
    if name in spec.chunks:
        return (min(spec.chunks[name], max(1, len(values))), *values.shape[1:])
    return values.shape


def build_defaults(data_dir: Path, puzzles: tuple[Puzzle, ...], force: bool = False,
                   progress: bool = True, executor=None, jobs: int = 1) -> list[BuildResult]:
    """Every default table of every given plug-in, in the order each declares them (a
    table derived from others comes after them).  With ``jobs`` > 1, that many plug-ins
    are built at once, each in a process of its own (registered plug-ins only: a worker
    finds its plug-in by name): plug-ins share no tables, and one's compiling or
    single-threaded search overlaps another's work."""
    if jobs <= 1 or len(puzzles) <= 1:
        return [build_table(data_dir, spec, force, progress, executor)
                for puzzle in puzzles for spec in Building.of(puzzle).default_tables()]
    return _build_in_processes(data_dir, puzzles, force, progress, jobs)


class WorkerError(RuntimeError):
    """A plug-in's build failed in a worker process (the message says which and why)."""


def _build_in_processes(data_dir: Path, puzzles: tuple[Puzzle, ...], force: bool,
                        progress: bool, jobs: int) -> list[BuildResult]:
    """``build_defaults`` over worker processes, each given the next plug-in when it has
    finished one; one bar counts the tables (the workers' own bars are off: they would
    interleave).  Pipes, not queues: nothing is left to clean up if Ctrl-C ends this
    process at once."""
    import multiprocessing
    from multiprocessing.connection import wait

    from builder.contract.errors import OneLineError

    context = multiprocessing.get_context("spawn")  # no copy of this process's threads
    waiting = [puzzle.name for puzzle in puzzles]
    workers: dict = {}  # the parent's end of each worker's pipe -> [process, its plug-in]
    for _ in range(min(jobs, len(puzzles))):
        ours, theirs = context.Pipe()
        process = context.Process(target=_plugin_worker, daemon=True,
                                  args=(Path(data_dir), force, theirs, os.getpid()))
        process.start()
        theirs.close()
        workers[ours] = [process, waiting.pop(0)]
        ours.send(workers[ours][1])
    results: dict[str, list[BuildResult]] = {puzzle.name: [] for puzzle in puzzles}
    building: dict = {}
    total = sum(len(Building.of(puzzle).default_tables()) for puzzle in puzzles)
    try:
        with tqdm(total=total, desc="tables", unit="table", disable=not progress) as bar:
            while any(name is not None for _, name in workers.values()):
                for pipe in wait([pipe for pipe, (_, name) in workers.items()
                                  if name is not None]):
                    try:
                        kind, name, payload = pipe.recv()
                    except EOFError:
                        raise WorkerError(f"the process building {workers[pipe][1]}'s tables "
                                          "ended without finishing (out of memory?)") from None
                    if kind == "start":
                        building[pipe] = payload
                    elif kind == "table":
                        results[name].append(payload)
                        bar.update(1)
                    elif kind == "done":
                        building.pop(pipe, None)
                        workers[pipe][1] = waiting.pop(0) if waiting else None
                        pipe.send(workers[pipe][1])
                    else:
                        message, user_error = payload
                        raise (OneLineError if user_error else WorkerError)(message)
                    bar.set_postfix_str(", ".join(building.values()), refresh=False)
    finally:
        for process, name in workers.values():
            if name is not None:
                process.terminate()  # a failure: the others' work is not wanted
            process.join()
    return [result for puzzle in puzzles for result in results[puzzle.name]]


def _plugin_worker(data_dir: Path, force: bool, pipe, parent: int) -> None:
    """A worker process of ``_build_in_processes``: builds the default tables of each
    plug-in named on ``pipe`` (until None) and reports each table back on it."""
    import threading

    from builder import registry
    from builder.contract.errors import OneLineError

    _end_with_parent(parent)
    # tqdm's default lock is a named semaphore shared between processes; killed with its
    # parent, this worker could not release it (Python then warns of a leak). Its bars
    # are off anyway.
    tqdm.set_lock(threading.RLock())
    while (name := pipe.recv()) is not None:
        try:
            for spec in Building.of(registry.by_name(name)).default_tables():
                pipe.send(("start", name, "/".join(spec.parts)))
                pipe.send(("table", name, build_table(data_dir, spec, force, progress=False)))
        except Exception as error:  # noqa: BLE001 (reported to the parent, in words)
            user_error = isinstance(error, OneLineError)
            pipe.send(("error", name, (str(error) if user_error else f"{name}: {error}",
                                       user_error)))
            return
        pipe.send(("done", name, None))


def _end_with_parent(parent: int) -> None:
    """Have Linux kill this worker when the process that started it ends, however it
    ends: a builder stopped by Ctrl-C exits at once, and no worker may go on writing
    tables after it (elsewhere nothing changes: daemonic workers end with a parent that
    exits normally)."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)


def _described(spec: TableSpec) -> str:
    """A table's ``encoding`` attribute: the plug-in's words, and the engine's "never"
    value of each breadth-first array where the plug-in's words leave it out."""
    nevers = sorted({"" if search.wide is None else "65535" if search.wide else "255"
                     for search in spec.searches.values()})
    if not nevers or "never" in spec.encoding:
        return spec.encoding
    shown = " or ".join(never for never in nevers if never)
    return (f"{spec.encoding}; {shown + ' ' if shown else ''}(the largest value of the "
            "array's type): never")
