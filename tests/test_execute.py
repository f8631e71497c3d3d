"""Chunk tasks and breadth-first arrays on Dask, resumable builds, checksums and `builder
verify`."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
import zarr

from builder import store
from builder.execute import Dask, InProcess
from builder.reader import CorruptTableError
from builder.routine import build_table, table_path
from puzzles.tricolore import Tricolore
from puzzles.tricolore.tables import ARRAYS, all_pairs_spec
from tests.commands import run_command
from tests.walks import tricolore_path


def arrays(path: Path) -> dict[str, np.ndarray]:
    group = zarr.open_group(path, mode="r")
    return {name: group[name][...] for name in ARRAYS}


def test_a_local_dask_cluster_of_two_processes_builds_identical_tables(tmp_path):
    """Chunk tasks (Tricolore's all-pairs table), breadth-first arrays (each a task: the
    sliding tiles' 3x3 pattern tables, searched then folded, and the cube's) and the
    levels of a sparse search in three shards (a kernel's, on two-word keys) built on the
    workers are the tables built in this process (one cluster for all: starting one costs
    more than the builds)."""
    executor = Dask(workers=2)
    try:
        workers = executor.client().scheduler_info()["workers"]
        assert len(workers) == 2
        # one method on 3x2 boards (729: three chunk tasks for two workers): the methods
        # and sizes differ only in their kernels' arguments, which the in-process builds
        # check; here the point is the tasks shipped to other processes
        spec = all_pairs_spec(3, 2, "hybrid")
        shipped = Counting(executor)
        result = build_table(tmp_path / "there", spec, progress=False, executor=shipped)
        assert shipped.tasks == 3
        expected = arrays(build_table(tmp_path / "here", spec, progress=False).path)
        for name, values in arrays(result.path).items():
            assert np.array_equal(values, expected[name]), name
        pattern_databases_build_to_the_same_bytes(executor, tmp_path)
        sharded_sparse_search_builds_the_same_table(executor, tmp_path)
    finally:
        executor.close()


class Counting:
    """An executor that counts the tasks it hands on to another."""

    def __init__(self, executor):
        self.executor, self.tasks = executor, 0

    def run(self, function, arguments, desc="tasks", progress=True):
        self.tasks += len(arguments)
        yield from self.executor.run(function, arguments, desc, progress)


def stored_bytes(path: Path) -> dict[str, bytes]:
    """Every file of a stored table but those naming its build (the group's attributes,
    and the checksums of them)."""
    return {str(file.relative_to(path)): file.read_bytes() for file in sorted(path.rglob("*"))
            if file.is_file() and str(file.relative_to(path)) not in (
                "zarr.json", store.CHECKSUMS)}


def pattern_databases_build_to_the_same_bytes(executor, folder: Path) -> None:
    from builder import registry

    specs = [*registry.by_name("sliding").table_for("3x3:4-4"),
             *registry.by_name("cube").table_for("half:patterns")]
    shipped = Counting(executor)
    for spec in specs:
        here = build_table(folder / "here", spec, progress=False)
        there = build_table(folder / "there", spec, progress=False, executor=shipped)
        assert stored_bytes(there.path) == stored_bytes(here.path), spec.parts
        assert store.damaged_chunks(there.path) == []
    assert shipped.tasks == sum(len(spec.searches) for spec in specs) == 5


def sharded_sparse_search_builds_the_same_table(executor, folder: Path) -> None:
    """A sparse search with a kernel, on keys of two words (the wide-key tests' strip:
    29 levels), in three shards whose levels the workers expand: the table built here in
    one shard, file for file.  Built here first, its kernel is compiled and cached
    before the workers meet it."""
    from dataclasses import replace

    from tests.test_wide_keys import KernelStrip

    spec = KernelStrip().table({"variant": "swaps"})
    here = build_table(folder / "here", spec, progress=False).path
    shipped = Counting(executor)
    sharded = replace(spec, sparse=replace(spec.sparse, shards=3))
    built = build_table(folder / "sharded", sharded, progress=False, executor=shipped).path
    assert shipped.tasks > 0
    ours, theirs = zarr.open_group(built, mode="r"), zarr.open_group(here, mode="r")
    for name in ("keys", "distance", "key_index"):
        assert np.array_equal(ours[name][...], theirs[name][...]), name
    assert stored_bytes(built) == stored_bytes(here)
    assert not any(".building" in p.name for p in folder.rglob("*"))  # levels removed


class Interrupting(InProcess):
    """Runs ``tasks`` chunk tasks, then behaves as if the user pressed Ctrl-C."""

    def __init__(self, tasks: int):
        self.tasks = tasks

    def run(self, function, arguments, desc="tasks", progress=True):
        for args in arguments[: self.tasks]:
            yield function(*args)
        raise KeyboardInterrupt


def test_an_interrupted_build_resumes_and_skips_finished_tasks(tmp_path):
    rules = Tricolore(3, 2)  # 729 boards: three chunk tasks
    with pytest.raises(KeyboardInterrupt):
        build_table(tmp_path / "a", all_pairs_spec(3, 2, "hybrid"), progress=False,
                              executor=Interrupting(2))
    path = table_path(tmp_path / "a", all_pairs_spec(rules.width, rules.height, "hybrid"))
    assert not path.exists() and store.resumable_staging(path).exists()
    messages: list[str] = []
    ran: list[int] = []

    class Counting(InProcess):
        def run(self, function, arguments, desc="tasks", progress=True):
            ran.extend(args[-1] for args in arguments)
            yield from super().run(function, arguments, desc, progress=False)

    build_table(tmp_path / "a", all_pairs_spec(3, 2, "hybrid"), progress=False,
                          executor=Counting(), log=messages.append)
    assert messages == [("resuming hybrid.zarr: 2 of 3 chunk tasks already built and "
                         "verified, skipped")]
    assert ran == [512]
    clean = build_table(tmp_path / "b", all_pairs_spec(3, 2, "hybrid"), progress=False)
    for name, values in arrays(path).items():
        assert np.array_equal(values, arrays(clean.path)[name])


def test_a_damaged_finished_task_is_recomputed(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        build_table(tmp_path, all_pairs_spec(3, 2, "restricted"), progress=False,
                              executor=Interrupting(2))
    staging = store.resumable_staging(table_path(tmp_path, all_pairs_spec(3, 2, "restricted")))
    chunk = staging / "clicks" / "c" / "0" / "0"
    chunk.write_bytes(chunk.read_bytes()[:-1] + b"\x00")
    assert sorted(store.finished_blocks(staging)) == [1]  # the second task (targets 256..)


@pytest.fixture()
def small_table(tmp_path):
    from builder.catalog import refresh_catalog

    build_table(tmp_path, all_pairs_spec(3, 2, "unrestricted"), progress=False)
    refresh_catalog(tmp_path)  # a data directory is its tables and their catalog
    return tmp_path, table_path(tmp_path, all_pairs_spec(3, 2, "unrestricted"))


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_verify_passes_then_names_a_corrupted_chunk(small_table):
    data, path = small_table
    result = run_command("builder", "verify", "--data", str(data))
    assert result.returncode == 0 and result.stdout.startswith("ok")
    flip_a_byte(path / "sole_click" / "c" / "0" / "3")
    result = run_command("builder", "verify", "--data", str(data))
    assert result.returncode != 0
    assert "FAIL" in result.stdout and "sole_click/c/0/3" in result.stdout


def test_a_query_that_reads_a_corrupted_chunk_fails_clearly(small_table):
    data, path = small_table
    rules = Tricolore(3, 2)
    target = 3 * 16 + 5  # a target column in chunk 3
    flip_a_byte(path / "clicks" / "c" / "0" / "3")
    with pytest.raises(CorruptTableError, match="clicks/c/0/3"):
        tricolore_path(data, rules, 0, target, "unrestricted")
    result = run_command("query", "path", "RRR.RRR", rules.format(target), "--data", str(data))
    assert result.returncode == 2 and "corrupted" in result.stderr
    assert "Traceback" not in result.stderr


def test_queries_use_the_old_table_while_a_rebuild_runs(small_table):
    data, path = small_table
    old_id = store.read_attributes(path)["build_id"]
    paused, resume = threading.Event(), threading.Event()

    class Pausing(InProcess):
        def run(self, function, arguments, desc="tasks", progress=True):
            for index, args in enumerate(arguments):
                if index == 1:
                    paused.set()
                    resume.wait(60)
                yield function(*args)

    rebuild = threading.Thread(target=build_table, args=(data, all_pairs_spec(3, 2, "unrestricted")),
                               kwargs={"force": True, "progress": False, "executor": Pausing()})
    rebuild.start()
    assert paused.wait(60)
    rules = Tricolore(3, 2)
    found = tricolore_path(data, rules, 0, 100, "unrestricted")
    assert found.length >= 1 and store.read_attributes(path)["build_id"] == old_id
    resume.set()
    rebuild.join(120)
    assert store.read_attributes(path)["build_id"] != old_id
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]
    shutil.rmtree(data)
