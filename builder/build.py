"""Building tables: run a puzzle's search kernel and publish its arrays atomically.

Owns the choice of kernel per puzzle, the array names and chunking of each table,
and the skip-if-current logic that makes re-running ``make tables`` cheap.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from tqdm import tqdm

from builder import store
from builder.puzzles.tricolore import METHODS, BoardError, Tricolore, check_method

TRICOLORE_COLUMNS_PER_CHUNK = 16
"""Target columns per chunk: a path query reads one chunk of each array."""

TRICOLORE_ENCODING = (
    "arrays [start, target] over board ranks; rank = sum of colour * 3**(n_squares-1-square), "
    "R=0 W=1 B=2, squares row-major from 0 at the top left. clicks = minimum clicks >= 1 "
    "(255 = unreachable or outside the method's state space); sole_click = the first click "
    "when it is the only optimal one, else 255; clicks_avoiding_sole = minimum clicks when "
    "that sole click is forbidden (255 = none)."
)
TRICOLORE_RULES = (
    "R->W->B->R; clicking red advances it alone, white its 8 neighbours, blue itself and its "
    "neighbours; no square twice in succession. unrestricted: any square; hybrid: bottom row "
    "plus red squares of the row above; restricted: bottom row only. Hybrid and restricted "
    "state spaces exclude boards whose bottom row is all blue."
)


@dataclass(frozen=True)
class BuildResult:
    path: Path
    built: bool
    seconds: float


def tricolore_table_path(data_dir: Path, rules: Tricolore, method: str) -> Path:
    return store.table_path(data_dir, "tricolore", rules.shape_name, method)


TRICOLORE_ARRAYS = ("clicks", "sole_click", "clicks_avoiding_sole")


def tricolore_batches(rules: Tricolore, method: str, progress: bool = True):
    """Yield (first target, (clicks, sole_click, clicks_avoiding_sole) column blocks)
    for every batch of targets, by the multi-target kernel."""
    from builder.kernels.multi_target_bfs import BATCH, search_targets

    check_method(method)
    successors = rules.successor_table(method)
    for first in tqdm(
        range(0, rules.n_boards, BATCH),
        desc=f"tricolore {rules.shape_name} {method}",
        unit="batch",
        disable=not progress,
        mininterval=1.0,
    ):
        # Targets outside the state space are never a successor: they come out unreachable.
        blocks, _ = search_targets(successors, first)
        yield first, blocks


def tricolore_all_pairs(
    rules: Tricolore, method: str, progress: bool = True
) -> dict[str, np.ndarray]:
    """All-pairs arrays (start × target) for one method, in memory (small boards)."""
    arrays = {name: np.empty((rules.n_boards, rules.n_boards), np.uint8) for name in
              TRICOLORE_ARRAYS}
    for first, blocks in tricolore_batches(rules, method, progress):
        for name, block in zip(TRICOLORE_ARRAYS, blocks):
            arrays[name][:, first : first + block.shape[1]] = block
    return arrays


def tricolore_block(staging: str, width: int, height: int, method: str, first: int) -> dict:
    """One chunk task: the searches towards targets ``first ..`` (one kernel batch, whole
    zarr chunks), written into the staging table, with a record of what it wrote.
    Runs in this process or on a Dask worker."""
    import json
    import os

    import zarr

    from builder.kernels.multi_target_bfs import search_targets

    blocks, _ = search_targets(_successors(width, height, method), first)
    group = zarr.open_group(staging, mode="r+")
    for name, block in zip(TRICOLORE_ARRAYS, blocks):
        group[name][:, first : first + block.shape[1]] = block
    count = blocks[0].shape[1]
    chunks = range(first // TRICOLORE_COLUMNS_PER_CHUNK,
                   (first + count - 1) // TRICOLORE_COLUMNS_PER_CHUNK + 1)
    files = [f"{name}/c/0/{chunk}" for name in TRICOLORE_ARRAYS for chunk in chunks]
    record = {"first": first, "count": count, "worker": os.getpid(),
              "crc32": {key: store.file_crc32(Path(staging) / key) for key in files}}
    reached = blocks[0][blocks[0] != 255]
    record["max_clicks"] = int(reached.max()) if reached.size else 0
    folder = Path(staging) / "blocks"
    folder.mkdir(exist_ok=True)
    temporary = folder / f".{first}.{os.getpid()}"
    temporary.write_text(json.dumps(record))
    os.replace(temporary, folder / f"{first}.json")
    return record


@lru_cache(maxsize=8)
def _successors(width: int, height: int, method: str) -> np.ndarray:
    return Tricolore(width, height).successor_table(method)


def build_tricolore(
    data_dir: Path,
    width: int = 4,
    height: int = 2,
    method: str = "unrestricted",
    force: bool = False,
    progress: bool = True,
    executor=None,
    log=print,
) -> BuildResult:
    """Build (or reuse, if current) the all-pairs table of one shape and method.

    The table is split into chunk tasks (one kernel batch of target columns each), run by
    ``executor`` (in this process by default, or on Dask: ``builder.execute``).  Finished
    tasks leave a record with their chunks' checksums in a fixed staging directory, so an
    interrupted build resumes: tasks whose chunks verify are skipped.
    """
    from builder.execute import InProcess
    from builder.kernels.multi_target_bfs import BATCH

    rules = Tricolore(width, height)
    check_method(method)
    path = tricolore_table_path(data_dir, rules, method)
    identity = {"puzzle": "tricolore", "width": width, "height": height, "method": method}
    if not force and store.is_current(path, identity):
        return BuildResult(path, built=False, seconds=0.0)
    started = time.perf_counter()
    n = rules.n_boards
    staging = store.resumable_staging(path)
    attributes = {**identity, "rules": TRICOLORE_RULES, "encoding": TRICOLORE_ENCODING,
                  "unreachable": 255}
    existing = store.read_attributes(staging)
    if force or not existing or any(existing.get(k) != v for k, v in identity.items()) or (
            existing.get("table_format") != store.TABLE_FORMAT):
        shutil.rmtree(staging, ignore_errors=True)
        store.TableWriter(
            staging,
            {name: ((n, n), np.uint8, (n, TRICOLORE_COLUMNS_PER_CHUNK))
             for name in TRICOLORE_ARRAYS},
            attributes,
        )
    blocks = list(range(0, n, BATCH))
    records = store.finished_blocks(staging)
    todo = [first for first in blocks if first not in records]
    if len(todo) < len(blocks):
        log(f"resuming {path.name}: {len(blocks) - len(todo)} of {len(blocks)} chunk tasks "
            "already built and verified, skipped")
    executor = executor or InProcess()
    for record in executor.run(tricolore_block, [(str(staging), width, height, method, first)
                                                  for first in todo],
                               desc=f"tricolore {rules.shape_name} {method}",
                               progress=progress):
        records[record["first"]] = record
    missing = [first for first in blocks if first not in records]
    if missing:
        raise RuntimeError(f"chunk tasks {missing[:5]} did not finish")
    import zarr

    group = zarr.open_group(staging, mode="r+")
    group.attrs.update({"max_clicks": max(r["max_clicks"] for r in records.values()),
                        "search_seconds": round(time.perf_counter() - started, 3),
                        "complete": True})
    shutil.rmtree(staging / "blocks")
    store.record_checksums(staging)
    store.publish(staging, path)
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_tricolore_methods(
    data_dir: Path, width: int = 4, height: int = 2, force: bool = False, progress: bool = True,
    executor=None,
) -> list[BuildResult]:
    return [build_tricolore(data_dir, width, height, m, force, progress, executor)
            for m in METHODS]


TARGET_CHUNK = 1 << 16
"""Boards per chunk of a single-target table: a path walk reads a few dozen chunks."""
DECOMPOSITION_PAIRS = 100_000
"""Random pairs `make tables` measures the decomposition solver on."""
APPLET_TARGETS_4X4 = ("RRRR.RRRR.RRRR.RRRR", "WWWW.WWWW.WWWW.WWWW", "WBWB.BWBW.WBWB.BWBW")


def tricolore_target_path(data_dir: Path, rules: Tricolore, target: str) -> Path:
    return store.table_path(data_dir, "tricolore", rules.shape_name, "targets", target)


def tricolore_single_target(rules: Tricolore, target: int, progress: bool = True):
    """(clicks, sole_click, clicks_avoiding_sole) from every board to one target,
    by the single-target kernel (unrestricted clicks), with a bar per level."""
    from builder.kernels.single_target_bfs import search_target

    bar = tqdm(desc=f"{rules.format(target)} levels", unit="level", disable=not progress)

    def report(level: int, frontier_nodes: int) -> None:
        bar.update(1)
        bar.set_postfix(frontier_nodes=f"{frontier_nodes:,}")

    try:
        return search_target(rules.half_tables(), target, report)
    finally:
        bar.close()


TARGET_BYTES_PER_BOARD = 28
"""Peak memory of a single-target search per board (measured: 4×4, 43 M boards, 1.2 GB)."""
TARGET_MEMORY_BUDGET = 8 * 2**30


def build_tricolore_target(
    data_dir: Path,
    target: str,
    width: int = 4,
    height: int = 4,
    force: bool = False,
    progress: bool = True,
) -> BuildResult:
    """Exact distances from every board to one target (unrestricted), with walk data."""
    rules = Tricolore(width, height)
    needed = rules.n_boards * TARGET_BYTES_PER_BOARD
    if needed > TARGET_MEMORY_BUDGET:
        raise BoardError(f"a table towards one {rules.shape_name} target covers "
                         f"{rules.n_boards:,} boards and needs about {needed / 2**30:,.1f} GiB, "
                         f"over the {TARGET_MEMORY_BUDGET / 2**30:.0f} GiB budget")
    target_rank = rules.parse(target)
    target = rules.format(target_rank)
    if rules.never_reached(target_rank):
        raise BoardError(f"{target} cannot be reached from any board (the last clicked "
                         "square is never blue afterwards): no table to build")
    path = tricolore_target_path(data_dir, rules, target)
    identity = {"puzzle": "tricolore", "width": width, "height": height,
                "method": "unrestricted", "target": target}
    if not force and store.is_current(path, identity):
        return BuildResult(path, built=False, seconds=0.0)
    started = time.perf_counter()
    arrays = tricolore_single_target(rules, target_rank, progress)
    seconds = time.perf_counter() - started
    clicks = arrays[0]
    reached = clicks[clicks != 255]
    chunk = (min(TARGET_CHUNK, rules.n_boards),)
    with store.publishing(path) as staging:
        store.write_table(
            staging,
            dict(zip(TRICOLORE_ARRAYS, arrays)),
            {name: chunk for name in TRICOLORE_ARRAYS},
            {**identity, "rules": TRICOLORE_RULES,
             "encoding": TRICOLORE_ENCODING.replace("arrays [start, target]",
                                                    "arrays [start] towards the one target"),
             "unreachable": 255, "max_clicks": int(reached.max()) if reached.size else 0,
             "search_seconds": round(seconds, 3)},
        )
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_decomposition_sample(
    data_dir: Path, pairs: int = DECOMPOSITION_PAIRS, seed: int = 2026, force: bool = False,
    progress: bool = True,
) -> BuildResult:
    """Measure the document's decomposition solver: random (start, target) pairs, and for
    the applet's targets with exact tables, exact clicks beside decomposition clicks."""
    from builder.decomposition import DecompositionSolver
    from builder.reader import TricoloreTargetTable, target_table_names

    rules = Tricolore(4, 4)
    path = store.table_path(data_dir, "tricolore", "4x4", "decomposition_sample")
    exact_targets = target_table_names(data_dir, 4, 4)
    identity = {"puzzle": "tricolore", "kind": "decomposition_sample", "pairs": pairs,
                "seed": seed, "exact_targets": exact_targets}
    if not force and store.is_current(path, identity):
        return BuildResult(path, built=False, seconds=0.0)
    started = time.perf_counter()
    solver = DecompositionSolver(data_dir)
    rng = np.random.default_rng(seed)
    all_blue = rules.n_boards - 1
    starts = rng.integers(0, rules.n_boards, pairs)
    targets = rng.integers(0, all_blue, pairs)  # every board but all blue
    exact_starts = rng.integers(0, rules.n_boards, pairs // 10)
    columns: dict[str, list[int]] = {name: [] for name in
                                     ("start", "target", "clicks", "top", "bottom", "extension",
                                      "exact")}
    jobs = [(int(s), int(t), None) for s, t in zip(starts, targets)]
    for name in exact_targets:
        table = TricoloreTargetTable(data_dir, 4, 4, name)
        jobs += [(int(s), rules.parse(name), table) for s in exact_starts]
    for start, target, table in tqdm(jobs, desc="decomposition sample", unit="pair",
                                     disable=not progress, mininterval=1.0):
        found = solver.solve(start, target)
        columns["start"].append(start)
        columns["target"].append(target)
        columns["clicks"].append(found.length)
        columns["top"].append(found.count("top"))
        columns["bottom"].append(found.count("bottom"))
        columns["extension"].append(found.count("extension"))
        columns["exact"].append(255 if table is None else table.clicks[start])
    arrays = {name: np.asarray(values, dtype=np.int64 if name in ("start", "target") else
                               np.uint8) for name, values in columns.items()}
    with store.publishing(path) as staging:
        store.write_table(staging, arrays, {name: (len(jobs),) for name in arrays},
                          {**identity, "random_pairs": pairs, "exact_starts": len(exact_starts),
                           "encoding": "one row per (start, target) job: the first `pairs` rows "
                           "are uniform random pairs; then `exact_starts` random starts per "
                           "exact target, with exact clicks (255 = no exact table)"})
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_reachability(
    data_dir: Path, start: str = "RRRR.RRRR.RRRR.RRRR", width: int = 4, height: int = 4,
    force: bool = False, progress: bool = True,
) -> BuildResult:
    """Settle "only all blue is unreachable": a forward search over every node from
    ``start`` lists the boards it never reaches; with the backward table towards
    ``start`` (every board reaches it) this covers every pair of boards."""
    from builder.kernels.single_target_bfs import forward_reachable

    rules = Tricolore(width, height)
    start = rules.format(rules.parse(start))
    path = store.table_path(data_dir, "tricolore", rules.shape_name, "reachability")
    identity = {"puzzle": "tricolore", "kind": "reachability", "start": start,
                "width": width, "height": height}
    if not force and store.is_current(path, identity):
        return BuildResult(path, built=False, seconds=0.0)
    started = time.perf_counter()
    if progress:
        print(f"forward search from {start} over every (board, last click) node ...",
              flush=True)
    reached = forward_reachable(rules.half_tables(), rules.parse(start))
    unreached = np.flatnonzero(~reached).astype(np.int64)
    with store.publishing(path) as staging:
        store.write_table(
            staging, {"unreached": unreached}, {"unreached": (max(1, len(unreached)),)},
            {**identity, "boards": rules.n_boards, "unreached_count": len(unreached),
             "unreached_boards": [rules.format(int(b)) for b in unreached[:100]],
             "search_seconds": round(time.perf_counter() - started, 3)},
        )
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def canonical_targets(rules: Tricolore, count: int, seed: int) -> list[int]:
    """``count`` distinct symmetry-canonical targets (the smallest rank of each orbit under
    the square's 8 symmetries), drawn by canonicalising uniformly random boards (all blue
    excluded), so a target is drawn in proportion to its orbit, as among all targets."""
    rng = np.random.default_rng(seed)
    perms = list(rules.symmetries("unrestricted").values())
    chosen: dict[int, None] = {}
    while len(chosen) < count:
        boards = rng.integers(0, rules.n_boards - 1, 4 * count)
        canonical = np.min([rules.apply_symmetry(boards, p) for p in perms], axis=0)
        for board in canonical:
            chosen.setdefault(int(board), None)
            if len(chosen) == count:
                break
    return list(chosen)


def target_stats_task(folder: str, target: int) -> str:
    """One chunk task of the 4×4 statistics: the exact search towards one target, its
    distance histogram written atomically to ``folder``.  Runs here or on a Dask worker."""
    import json
    import os

    rules = Tricolore(4, 4)
    name = rules.format(target)
    started = time.perf_counter()
    clicks = tricolore_single_target(rules, target, progress=False)[0]
    histogram = np.bincount(clicks, minlength=256)
    perms = list(rules.symmetries("unrestricted").values())
    orbit = {int(rules.apply_symmetry(np.array([target]), p)[0]) for p in perms}
    record = {
        "target": name, "orbit_size": len(orbit),
        "histogram": {str(c): int(n) for c, n in enumerate(histogram) if n and c != 255},
        "unreachable": int(histogram[255]),
        "max_clicks": int(clicks[clicks != 255].max()),
        "seconds": round(time.perf_counter() - started, 2), "table_format": store.TABLE_FORMAT,
    }
    staging = Path(folder) / f".{name}.json.{os.getpid()}"
    staging.write_text(json.dumps(record))
    os.replace(staging, Path(folder) / f"{name}.json")
    return name


def build_target_stats(
    data_dir: Path, count: int, seed: int = 2026, progress: bool = True, executor=None
) -> tuple[int, int]:
    """Distance histograms of ``count`` random canonical 4×4 targets, one file per target
    (written atomically), so an interrupted run resumes where it stopped.
    Returns (computed, skipped)."""
    from builder.execute import InProcess

    rules = Tricolore(4, 4)
    folder = Path(data_dir) / "tricolore" / "4x4" / "target_stats"
    folder.mkdir(parents=True, exist_ok=True)
    targets = canonical_targets(rules, count, seed)
    todo = [t for t in targets if not (folder / f"{rules.format(t)}.json").exists()]
    executor = executor or InProcess()
    computed = sum(1 for _ in executor.run(target_stats_task, [(str(folder), t) for t in todo],
                                           desc="4x4 targets", progress=progress))
    return computed, len(targets) - len(todo)
