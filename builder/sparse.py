"""Sparse tables: the positions a puzzle can reach, found by a level-synchronous,
partitioned breadth-first search over fixed-width integer keys, stored as sorted keys
with their distances (``builder.puzzles.specs.SparseSearch`` says what to search).

A position is a non-negative integer key (the plug-in's ``encode``): one 64-bit word
(``int64``), or two (``SparseSearch.key_words``; ``builder.puzzles.keys`` holds them as
16-byte records that numpy sorts and searches like numbers).  The search runs in two
phases, each a breadth-first search by levels:

1. *enumerate*: from the spec's ``starts`` over the moves, every position reachable (no
   starts: from the targets over the moves undone, every position that reaches one);
2. *distance*: from the targets (given, or picked by the spec's ``goal`` among the
   positions found) over the moves undone, within the positions found: a position's
   level is its distance; one never reached gets the table's "never".

Keys are split into ``shards`` by a hash.  Each level, each shard expands its frontier
and writes the successors it found to their owners (one ``.npy`` file per owner, in the
staging directory); then each shard merges what it was sent with what it has seen.  A
shard's merge of one level and expansion of the next are one task (a level costs one
round of tasks, each shard's independent of the others'), run by an executor
(``builder.execute``: this process, or Dask workers sharing the directory).  A finished
level is recorded, so an interrupted build resumes at the level after it; the result is
the same bytes whatever the executor or the number of shards.

Moves are either a numba function (compiled, cached; the same type as
``BreadthFirstSearch.neighbours``: ``(key, parameters, out) -> count``) or, for a plug-in
that gives only plain-Python rules, a Python callable from a key to its successors' keys
(the *plain-Python start*: the same table, slower, in this process only).  Names no puzzle.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
from tqdm import tqdm

from builder.execute import InProcess
from builder.puzzles.keys import (
    WIDE,
    empty_keys,
    ints_of,
    keys_of,
    keys_of_words,
    storable,
    words_in,
    words_of,
)
from builder.puzzles.specs import SparseSearch, resolved

NEVER_NARROW = 255
NEVER_WIDE = 65535
EXPAND_BLOCK = 1 << 20
"""Frontier keys expanded at once (the successors of a block are held in memory)."""
_MIX = np.uint64(0x9E3779B97F4A7C15)


def owners(keys: np.ndarray, shards: int) -> np.ndarray:
    """The shard that owns each key (a multiplicative hash: neighbouring keys spread)."""
    if shards == 1:
        return np.zeros(len(keys), np.int64)
    if keys.dtype == WIDE:
        words = words_of(keys)
        mixed = (words[:, 0] * _MIX ^ words[:, 1]) * _MIX
    else:
        mixed = keys.astype(np.uint64) * _MIX
    return ((mixed >> np.uint64(32)) % np.uint64(shards)).astype(np.int64)


def distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct keys, ascending (a sort: numpy's hashing ``unique`` is ten times
    slower on these arrays of millions of int64)."""
    if not isinstance(keys, np.ndarray):
        keys = np.asarray(keys, dtype=np.int64)
    ordered = np.sort(keys if keys.dtype == WIDE else keys.astype(np.int64, copy=False))
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), bool)
    keep[0] = True
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


def successors_of(frontier: np.ndarray, moves, most: int, parameters: tuple[int, ...]
                  ) -> np.ndarray:
    """The distinct keys one move (of ``moves``) from any key of ``frontier``, sorted."""
    words = words_in(frontier)
    if len(frontier) == 0:
        return empty_keys(words)
    if not isinstance(moves, str):  # the plain-Python start: a callable on one key
        found = [other for key in ints_of(frontier) for other in moves(key)]
        return distinct(keys_of(found, words))
    from builder.kernels.graph_bfs import successors, successors_wide  # compiled on import

    kernel = resolved(moves)
    values = np.ascontiguousarray(parameters, dtype=np.int64)
    parts = [distinct(keys_of_words(successors_wide(kernel, values,
                                                    words_of(frontier[i:i + EXPAND_BLOCK]),
                                                    np.int64(most)))
                      if words == 2 else
                      successors(kernel, values,
                                 np.ascontiguousarray(frontier[i:i + EXPAND_BLOCK]),
                                 np.int64(most)))
             for i in range(0, len(frontier), EXPAND_BLOCK)]
    return parts[0] if len(parts) == 1 else distinct(np.concatenate(parts))


# ---- the shards' files ------------------------------------------------------------------

def _save(path: Path, values: np.ndarray) -> None:
    """Write atomically: a task cut short leaves no half-written file behind."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    with open(temporary, "wb") as out:
        np.save(out, values)
    os.replace(temporary, path)


def _load(path: Path, words: int = 1) -> np.ndarray:
    return np.load(path) if path.exists() else empty_keys(words)


def expand_shard(folder: str, level: int, shard: int, shards: int, moves, most: int,
                 parameters: tuple[int, ...], words: int = 1) -> int:
    """Task 1 of a level: shard ``shard``'s frontier expanded, its successors written to
    their owners (``sent/L/FROM-TO.npy``).  Returns how many successors it found."""
    folder_path = Path(folder)
    frontier = _load(folder_path / f"level/{level}/{shard}.npy", words)
    found = successors_of(frontier, moves, most, parameters)
    sent = folder_path / f"sent/{level}"
    sent.mkdir(parents=True, exist_ok=True)
    owner = owners(found, shards)
    for other in range(shards):
        _save(sent / f"{shard}-{other}.npy", found[owner == other])
    return len(found)


def merge_shard(folder: str, level: int, shard: int, shards: int, within: str | None,
                words: int = 1) -> int:
    """Task 2 of a level: what the shards sent to ``shard``, less what it has seen (and,
    in the distance phase, less what lies outside the positions found), is its frontier
    of the next level (``level/L+1/S.npy``) and joins its seen keys.  Returns its size."""
    folder_path = Path(folder)
    received = [_load(folder_path / f"sent/{level}/{other}-{shard}.npy", words)
                for other in range(shards)]
    candidates = distinct(np.concatenate(received)) if received else empty_keys(words)
    seen_path = folder_path / f"seen/{shard}.npy"
    seen = _load(seen_path, words)
    fresh = candidates[~_members(seen, candidates)]
    if within is not None:
        fresh = fresh[_members(_load(Path(within) / f"{shard}.npy", words), fresh)]
    nxt = folder_path / f"level/{level + 1}"
    nxt.mkdir(parents=True, exist_ok=True)
    _save(nxt / f"{shard}.npy", fresh)
    # both runs are sorted: a stable sort merges them in linear time
    _save(seen_path.with_name(f"{shard}.next.npy"),
          np.sort(np.concatenate([seen, fresh]), kind="stable"))
    return len(fresh)


def _members(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if len(sorted_keys) == 0:
        return np.zeros(len(keys), bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


class _Run:
    """A run's record in its folder: the phase's last finished level (a resumed run
    starts after it) and the settings it must share with the run it resumes."""

    def __init__(self, folder: Path, settings: dict):
        self.folder = folder
        self.path = folder / "run.json"
        try:
            record = json.loads(self.path.read_text())
        except (OSError, ValueError):
            record = {}
        if record.get("settings") != settings:
            shutil.rmtree(folder, ignore_errors=True)
            record = {"settings": settings, "finished": -1}
        folder.mkdir(parents=True, exist_ok=True)
        self.record = record
        self._write()

    @property
    def finished(self) -> int:
        return self.record["finished"]

    def finish(self, level: int, counts: dict) -> None:
        self.record["finished"] = level
        self.record.setdefault("counts", {})[str(level)] = counts
        self._write()

    def _write(self) -> None:
        temporary = self.folder / ".run.json"
        temporary.write_text(json.dumps(self.record))
        os.replace(temporary, self.path)


class MoreShards(Exception):
    """A shard's working set would pass the memory bound: the search starts again in more
    shards (the table is the same bytes)."""


BYTES_PER_SEEN_KEY = 24
"""A shard's merge holds its seen keys, their merged copy and the sort's scratch."""


def working_set(seen: int, frontier: int, most: int) -> int:
    """Bytes one shard's tasks hold at a level: its seen keys (merge) or its frontier's
    successors before they are made distinct (expansion), whichever is larger."""
    return max(BYTES_PER_SEEN_KEY * seen, 8 * frontier * max(most, 1) * 2)


def level_search(folder: Path, roots: np.ndarray, moves, most: int,
                 parameters: tuple[int, ...], shards: int, within: Path | None,
                 executor, bar, settings: dict, deepest: int,
                 memory: int | None = None, words: int = 1) -> int:
    """A breadth-first search by levels from ``roots``, partitioned into ``shards``, its
    levels in ``folder/level/L/S.npy`` (resuming after the last finished level).  Returns
    the number of levels (the last one empty).  With ``memory`` (bytes), a shard whose
    next level would need more raises ``MoreShards``."""
    run = _Run(folder, {**settings, "shards": shards})
    if run.finished < 0:
        start = folder / "level/0"
        start.mkdir(parents=True, exist_ok=True)
        (folder / "seen").mkdir(exist_ok=True)
        roots = distinct(roots)
        owner = owners(roots, shards)
        for shard in range(shards):
            _save(start / f"{shard}.npy", roots[owner == shard])
            _save(folder / f"seen/{shard}.npy", roots[owner == shard])
        run.finish(0, {"found": len(roots)})
    level = run.finished
    total = sum(counts["found"] for counts in run.record["counts"].values())
    if bar is not None:
        bar.update(total - bar.n)
    expanded = False  # whether the shards have sent this level's successors yet
    while True:
        frontier = sum(int(np.load(path, mmap_mode="r").shape[0])
                       for path in (folder / f"level/{level}").glob("*.npy"))
        if frontier == 0:
            return level
        if level >= deepest:
            raise ValueError(f"the search goes deeper than {deepest} levels: too deep for "
                             "its table (declare the search wide)")
        if bar is not None:
            bar.set_postfix_str(f"level {level + 1}, {shards} shards", refresh=False)
        if not expanded:  # the first level of a run (or one a shard declined to expand)
            if memory is not None:
                largest = max(working_set(_count(folder / f"seen/{shard}.npy"),
                                          _count(folder / f"level/{level}/{shard}.npy"), most)
                              for shard in range(shards))
                if largest > memory:
                    raise MoreShards(largest)
            list(executor.run(expand_shard, [(str(folder), level, shard, shards, moves, most,
                                              parameters, words) for shard in range(shards)],
                              desc=f"level {level + 1}", progress=False))
        # one round a level: each shard merges this level and expands the next at once
        merged = list(executor.run(merge_and_expand, [
            (str(folder), level, shard, shards, None if within is None else str(within),
             moves, most, parameters, words, memory) for shard in range(shards)],
            desc=f"level {level + 1}", progress=False))
        for shard in range(shards):  # the level counts once every shard has merged it
            os.replace(folder / f"seen/{shard}.next.npy", folder / f"seen/{shard}.npy")
        shutil.rmtree(folder / f"sent/{level}", ignore_errors=True)
        level += 1
        found = sum(fresh for fresh, _ in merged)
        expanded = all(sent for _, sent in merged)
        run.finish(level, {"found": found})
        if bar is not None:
            bar.update(found)


def merge_and_expand(folder: str, level: int, shard: int, shards: int, within: str | None,
                     moves, most: int, parameters: tuple[int, ...], words: int,
                     memory: int | None) -> tuple[int, bool]:
    """A level's two tasks in one, so that a level costs one round of tasks: shard
    ``shard`` merges what it was sent at ``level`` (``merge_shard``), then expands its
    frontier of the next level (``expand_shard``), unless that would pass ``memory``
    (bytes; the search then checks it and starts again in more shards).  Returns the
    size of its new frontier and whether it expanded it."""
    fresh = merge_shard(folder, level, shard, shards, within, words)
    if memory is not None:
        seen = _count(Path(folder) / f"seen/{shard}.next.npy")
        if working_set(seen, fresh, most) > memory:
            return fresh, False
    expand_shard(folder, level + 1, shard, shards, moves, most, parameters, words)
    return fresh, True


def _count(path: Path) -> int:
    return int(np.load(path, mmap_mode="r").shape[0]) if path.exists() else 0


def _levels(folder: Path, shards: int, count: int, words: int
            ) -> Iterator[tuple[int, np.ndarray]]:
    for level in range(count):
        keys = [_load(folder / f"level/{level}/{shard}.npy", words) for shard in range(shards)]
        yield level, np.concatenate(keys)


def sparse_search(search: SparseSearch, folder: Path, executor=None, progress: bool = False,
                  label: str = "sparse") -> tuple[np.ndarray, np.ndarray]:
    """The table's arrays for ``search``: every position's key (ascending) and its
    distance to the targets, built in ``folder`` (resumable; removed by the caller)."""
    plain = not isinstance(search.successors, str)
    if executor is None or plain:  # a plain start's moves are a callable of this process
        executor = InProcess()
    folder = Path(folder)
    if search.memory is None:
        return _search_in_shards(search, folder, executor, progress, label,
                                 max(1, search.shards))
    # the shard count a bounded build settled on is kept, so that a resumed build
    # starts with it
    chosen = folder / "shards.json"
    try:
        shards = int(json.loads(chosen.read_text())["shards"])
    except (OSError, ValueError, KeyError):
        shards = max(1, search.shards)
    while True:
        try:
            return _search_in_shards(search, folder, executor, progress, label, shards)
        except MoreShards as needed:
            if shards >= MAX_SHARDS:
                raise ValueError(f"a shard would need {int(needed.args[0]) / 2**20:,.0f} MiB "
                                 f"even in {MAX_SHARDS} shards: raise the memory bound") from None
            shards *= 2
            for phase in ("enumerate", "distance"):  # begun in too few shards: again
                shutil.rmtree(folder / phase, ignore_errors=True)
            folder.mkdir(parents=True, exist_ok=True)
            chosen.write_text(json.dumps({"shards": shards}))


MAX_SHARDS = 4096


def _search_in_shards(search: SparseSearch, folder: Path, executor, progress: bool,
                      label: str, shards: int) -> tuple[np.ndarray, np.ndarray]:
    never = NEVER_WIDE if search.wide else NEVER_NARROW
    undone = search.predecessors if search.predecessors is not None else search.successors
    settings = {"search": repr(replace(search, memory=None, shards=0))}
    words = search.key_words
    with tqdm(desc=f"{label}: positions", unit=" positions", disable=not progress,
              mininterval=0.5) as bar:
        if search.starts:
            found = folder / "enumerate"
            count = level_search(found, keys_of(search.starts, words), search.successors,
                                 search.most_moves, search.parameters, shards, None,
                                 executor, bar, settings, deepest=1 << 30,
                                 memory=search.memory, words=words)
            within = found / "seen"
        else:
            within = None
        targets = targets_among(search, within, shards)
        bar.reset()
        bar.set_description_str(f"{label}: distances")
        bar.set_postfix_str("")
        distances = folder / "distance"
        count = level_search(distances, targets, undone, search.most_moves,
                             search.parameters, shards, within, executor, bar, settings,
                             deepest=never - 1, memory=search.memory, words=words)
    levels = list(_levels(distances, shards, count, words))
    if within is None:
        keys = np.concatenate([keys for _, keys in levels])
        distance = np.concatenate([np.full(len(keys), level, np.int64)
                                   for level, keys in levels])
    else:
        # each shard's keys are sorted: a stable sort merges the runs
        keys = np.sort(np.concatenate([_load(within / f"{shard}.npy", words)
                                       for shard in range(shards)]), kind="stable")
        distance = np.full(len(keys), never, np.uint16 if search.wide else np.uint8)
        for level, reached in levels:
            distance[np.searchsorted(keys, reached)] = level
        return keys, distance
    order = np.argsort(keys, kind="stable")
    return keys[order], distance[order].astype(np.uint16 if search.wide else np.uint8)


def targets_among(search: SparseSearch, within: Path | None, shards: int) -> np.ndarray:
    """The distance phase's roots: the given targets (those among the positions found),
    and the positions found that the spec's ``goal`` picks."""
    if within is None:
        return distinct(keys_of(search.targets, search.key_words))
    return distinct(np.concatenate([targets_in(search, _load(within / f"{shard}.npy",
                                                             search.key_words))
                                    for shard in range(shards)]))


def targets_in(search: SparseSearch, keys: np.ndarray) -> np.ndarray:
    """The targets among sorted ``keys``: the given ones they hold, and those the spec's
    ``goal`` picks."""
    targets = distinct(keys_of(search.targets, search.key_words))
    picked = [targets[_members(keys, targets)]]
    if search.goal is not None:
        picked.append(keys[np.asarray(resolved(search.goal)(storable(keys), search.parameters),
                                      dtype=bool)])
    return distinct(np.concatenate(picked))


def sparse_arrays(spec, folder: Path, executor=None, progress: bool = False
                  ) -> dict[str, np.ndarray]:
    """A sparse table spec's arrays (``SPARSE_ARRAYS``), its search run in ``folder``."""
    keys, distance = sparse_search(spec.sparse, folder, executor, progress,
                                   label="/".join(spec.parts))
    return {"keys": storable(keys), "distance": distance,
            "key_index": storable(keys[::sparse_chunk(spec)].copy())}


def sparse_chunk(spec) -> int:
    return spec.chunks.get("keys", spec.chunk)
