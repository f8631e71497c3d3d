"""Sparse tables: the positions a puzzle can reach, found by a level-synchronous,
partitioned breadth-first search over fixed-width integer keys, stored as sorted keys
with their distances (``builder.contract.specs.SparseSearch`` says what to search).

A position is a non-negative integer key (the plug-in's ``encode``): one 64-bit word
(``int64``), or two (``SparseSearch.key_words``; ``builder.contract.keys`` holds them as
16-byte records that numpy sorts and searches like numbers).  The search runs in two
phases, each a breadth-first search by levels:

1. *enumerate*: from the spec's ``starts`` over the moves, every position reachable (no
   starts: from the targets over the moves undone, every position that reaches one);
2. *distance*: from the targets (given, or picked by the spec's ``goal`` among the
   positions found) over the moves undone, within the positions found: a position's
   level is its distance; one never reached gets the table's "never".

Keys are split into ``shards`` by a hash.  Each level, each shard expands its frontier
and writes the successors it found in one file, grouped by the shard that owns them (in
the staging directory); then each shard merges the groups it was sent (the search tells
it where they lie) with what it has seen.  No file is written empty and a shard sent
nothing gets no task, so a level writes at most three files a shard, and no more than it
finds keys: never a file per pair of shards (4096 shards would be 16.8 M files a level);
a level that would write more files than the disk has room for is refused before it
starts.  A shard's merge of one level and expansion of the next are one task (a level
costs one round of tasks, each shard's independent of the others'), run by an executor
(``builder.execute``: this process, or Dask workers sharing the directory).  A finished
level is recorded, so an interrupted build resumes at the level after it; the result is
the same bytes whatever the executor or the number of shards.

Moves are either a numba function (compiled, cached; the same type as
``BreadthFirstSearch.neighbours``: ``(key, parameters, out) -> count``) or, for a plug-in
that gives only plain-Python rules, a Python callable from a key to its successors' keys
(the *plain-Python start*: the same table, slower, in this process only).  Such a callable
may offer ``expander()``: a function from a batch of keys to each one's count of
successors and their keys, which may remember the positions it met from one batch to the
next (``plain_expander``).  A plain search in one shard with no memory bound is held in
memory (``plain_search``): each position's moves are asked for once, the successors'
keys made distinct and checked against those seen by numpy, and the distances found
backwards over the moves so recorded, with no second pass through the plug-in's rules.
Names no puzzle.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
from tqdm import tqdm

from builder.contract.errors import PuzzleInputError
from builder.contract.keys import (
    WIDE,
    empty_keys,
    ints_of,
    key_dtype,
    keys_of,
    keys_of_words,
    storable,
    words_in,
    words_of,
)
from builder.contract.specs import MAX_SHARDS, SparseSearch, is_kernel, resolved
from builder.contract.specs import kernel as compiled_kernel
from builder.contract.work import checkpoint
from builder.execute import InProcess

NEVER_NARROW = 255
NEVER_WIDE = 65535
EXPAND_BLOCK = 1 << 20
"""Frontier keys expanded at once (the successors of a block are held in memory)."""
PLAIN_BLOCK = 1 << 13
"""Frontier keys a plain-Python expansion takes at once (their successors' keys are
Python integers until the block is done)."""
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
    if not is_kernel(moves):  # the plain-Python start
        expand = plain_expander(moves)
        return distinct(np.concatenate([expand(frontier[i:i + PLAIN_BLOCK])[1]
                                        for i in range(0, len(frontier), PLAIN_BLOCK)]))
    from builder.kernels.graph_bfs import successors, successors_wide  # compiled on import

    kernel = compiled_kernel(moves, words)
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


def plain_expander(moves) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The expansion of plain-Python ``moves`` by batches: from keys, each one's count of
    successors (int64) and all their keys, key after key.  The callable's own
    ``expander()`` where it has one; else one call per key."""
    made = getattr(moves, "expander", None)
    if made is not None:
        return made()

    def expand(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        found = [list(moves(key)) for key in ints_of(keys)]
        return (np.array([len(after) for after in found], np.int64),
                keys_of([other for after in found for other in after], words_in(keys)))

    return expand


# ---- the shards' files ------------------------------------------------------------------

def _save(path: Path, values: np.ndarray) -> None:
    """Write atomically: a task cut short leaves no half-written file behind."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    with open(temporary, "wb") as out:
        np.save(out, values)
    os.replace(temporary, path)


def _load(path: Path, words: int = 1) -> np.ndarray:
    """A shard's keys; none where no file was written (no file is written empty)."""
    return np.load(path) if path.exists() else empty_keys(words)


def _shards_in(folder: Path) -> list[int]:
    """The shards with an entry (``S.npy`` or a folder ``S``) in ``folder``: those with
    keys there (not the temporary files of ``_save``, nor the ``S.next.npy`` of a merge)."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    return sorted(int(name.removesuffix(".npy")) for name in names
                  if name.removesuffix(".npy").isdigit())


def expand_shard(folder: str, level: int, shard: int, shards: int, moves, most: int,
                 parameters: tuple[int, ...], words: int = 1) -> list[Sent]:
    """Task 1 of a level: shard ``shard``'s frontier expanded, its successors written in
    one file (``sent/L/S.keys``), grouped by the shard that owns them.  Returns where each
    owner's group lies in it (none where it found nothing: no file is written empty)."""
    folder_path = Path(folder)
    frontier = _load(folder_path / f"level/{level}/{shard}.npy", words)
    found = successors_of(frontier, moves, most, parameters)
    if len(found) == 0:
        return []
    found, groups = by_owner(found.astype(key_dtype(words), copy=False), shards)
    sent = folder_path / f"sent/{level}"
    sent.mkdir(parents=True, exist_ok=True)
    # the bare keys, no header: each receiver reads its rows alone, with one seek
    temporary = sent / f".{shard}.{os.getpid()}"
    found.tofile(temporary)
    os.replace(temporary, sent / f"{shard}.keys")
    return [Sent(owner, shard, first, end) for owner, first, end in groups]


class Sent(NamedTuple):
    """Keys one shard sent another at a level: rows ``first`` to ``end`` of the sender's
    file of the level (``sent/L/SENDER.keys``)."""

    owner: int
    sender: int
    first: int
    end: int


def by_owner(keys: np.ndarray, shards: int) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """Sorted ``keys`` grouped by the shard that owns them, each group still sorted, and
    where each group lies: (owner, first, end) for each owner of any (one sort, not a
    pass over the keys per shard)."""
    owner = owners(keys, shards)
    order = np.argsort(owner, kind="stable")
    keys, owner = keys[order], owner[order]
    present, first = np.unique(owner, return_index=True)
    ends = [*first[1:].tolist(), len(keys)]
    return keys, list(zip(present.tolist(), first.tolist(), ends))


def merge_shard(folder: str, level: int, shard: int, within: str | None,
                received: list[Sent], words: int = 1) -> int:
    """Task 2 of a level: what the shards sent to ``shard`` (``received``: where it lies
    in their files), less what it has seen (and, in the distance phase, less what lies
    outside the positions found), is its frontier of the next level (``level/L+1/S.npy``)
    and joins its seen keys.  Returns its size."""
    folder_path = Path(folder)
    dtype = key_dtype(words)
    parts = [np.fromfile(folder_path / f"sent/{level}/{sent.sender}.keys", dtype,
                         count=sent.end - sent.first, offset=sent.first * dtype.itemsize)
             for sent in received]
    candidates = distinct(np.concatenate(parts)) if parts else empty_keys(words)
    seen_path = folder_path / f"seen/{shard}.npy"
    seen = _load(seen_path, words)
    fresh = candidates[~_members(seen, candidates)]
    if within is not None:
        fresh = fresh[_members(_load(Path(within) / f"{shard}.npy", words), fresh)]
    if len(fresh) == 0:  # its seen keys stay as they are: nothing to write
        return 0
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
        roots, groups = by_owner(distinct(roots), shards)
        for shard, first, end in groups:
            _save(start / f"{shard}.npy", roots[first:end])
            _save(folder / f"seen/{shard}.npy", roots[first:end])
        run.finish(0, {"found": len(roots)})
    level = run.finished
    total = sum(counts["found"] for counts in run.record["counts"].values())
    if bar is not None:
        bar.update(total - bar.n)
    inbox = None  # what each shard was sent at this level, once the shards have sent it
    while True:
        checkpoint()  # a table computed for a server's request stops at its limit
        if run.record["counts"][str(level)]["found"] == 0:  # the level's frontier
            return level
        if level >= deepest:
            raise too_deep(deepest)
        if bar is not None:
            bar.set_postfix_str(f"level {level + 1}, {shards} shards", refresh=False)
        if inbox is None:  # the first level of a run (or one a shard declined to expand)
            holding = _shards_in(folder / f"level/{level}")  # the others have no frontier
            if memory is not None:
                largest = max(working_set(_count(folder / f"seen/{shard}.npy"),
                                          _count(folder / f"level/{level}/{shard}.npy"), most)
                              for shard in holding)
                if largest > memory:
                    raise MoreShards(largest)
            check_room(folder, len(holding) + 1, shards)
            inbox = _inbox(executor.run(expand_shard, [
                (str(folder), level, shard, shards, moves, most, parameters, words)
                for shard in holding], desc=f"level {level + 1}", progress=False))
        # one round a level: each shard sent anything merges this level and expands the
        # next at once (a shard sent nothing has nothing to merge, nor a frontier next);
        # each writes three files at most (its frontier, its seen keys, what it sends)
        receiving = sorted(inbox)
        check_room(folder, 3 * len(receiving) + 2, shards)
        merged = list(executor.run(merge_and_expand, [
            (str(folder), level, shard, shards, None if within is None else str(within),
             moves, most, parameters, words, memory, inbox[shard]) for shard in receiving],
            desc=f"level {level + 1}", progress=False))
        for shard in receiving:  # the level counts once every shard has merged it
            merged_seen = folder / f"seen/{shard}.next.npy"
            if merged_seen.exists():  # (none where it found nothing new)
                os.replace(merged_seen, folder / f"seen/{shard}.npy")
        shutil.rmtree(folder / f"sent/{level}", ignore_errors=True)
        level += 1
        found = sum(fresh for fresh, _ in merged)
        inbox = (None if any(sent is None for _, sent in merged)
                 else _inbox(sent for _, sent in merged))
        run.finish(level, {"found": found})
        if bar is not None:
            bar.update(found)


def search_never(search: SparseSearch) -> int:
    """The "never" a search marks unreached positions with as it runs: a byte's, or 16
    bits' where the search is wide or leaves the width to the engine."""
    return NEVER_NARROW if search.wide is False else NEVER_WIDE


def stored_distances(distance: np.ndarray, search: SparseSearch) -> np.ndarray:
    """The distances as the table stores them: bytes or 16 bits as the search says, or,
    where it leaves that to the engine, bytes when every distance fits one (255 then
    "never"), else 16 bits."""
    if search.wide:
        return distance.astype(np.uint16)
    if search.wide is False:
        return distance.astype(np.uint8)
    unreached = distance == NEVER_WIDE
    reached = distance[~unreached]
    if reached.size and int(reached.max()) >= NEVER_NARROW - 1:
        return distance.astype(np.uint16)
    narrow = distance.astype(np.uint8)
    narrow[unreached] = NEVER_NARROW
    return narrow


def too_deep(deepest: int) -> ValueError:
    return ValueError(f"the search goes deeper than {deepest} levels: too deep for its table "
                      "(declare the search wide, or leave its width to the engine)")


def _inbox(sends: Iterable[list[Sent]]) -> dict[int, list[Sent]]:
    """What each shard was sent, from what each shard sent (in any order: Dask gives the
    tasks' results as they finish)."""
    inbox: dict[int, list[Sent]] = {}
    for sent in sends:
        for part in sent:
            inbox.setdefault(part.owner, []).append(part)
    return inbox


def merge_and_expand(folder: str, level: int, shard: int, shards: int, within: str | None,
                     moves, most: int, parameters: tuple[int, ...], words: int,
                     memory: int | None, received: list[Sent]
                     ) -> tuple[int, list[Sent] | None]:
    """A level's two tasks in one, so that a level costs one round of tasks: shard
    ``shard`` merges what it was sent at ``level`` (``merge_shard``), then expands its
    frontier of the next level (``expand_shard``), unless that would pass ``memory``
    (bytes; the search then checks it and starts again in more shards).  Returns the
    size of its new frontier and what it sent (None: it did not expand it)."""
    fresh = merge_shard(folder, level, shard, within, received, words)
    if fresh == 0:
        return 0, []
    if memory is not None:
        seen = _count(Path(folder) / f"seen/{shard}.next.npy")
        if working_set(seen, fresh, most) > memory:
            return fresh, None
    return fresh, expand_shard(folder, level + 1, shard, shards, moves, most, parameters,
                               words)


def _count(path: Path) -> int:
    return int(np.load(path, mmap_mode="r").shape[0]) if path.exists() else 0


class ShardsError(PuzzleInputError):
    """A search its shards or its memory bound cannot carry out: the builder's user
    chooses both (``--shards``, ``--memory``)."""


def check_room(folder: Path, files: int, shards: int) -> None:
    """Refuse, before it starts, a round of tasks that would write more files than the
    disk of ``folder`` has room for (free inodes, and a block each): a disk run out of
    them half-way fails every other writer on it too."""
    disk = os.statvfs(folder)
    # a file system with no fixed count of inodes (btrfs...) reports none at all
    room = min([disk.f_favail] * bool(disk.f_files) + [disk.f_bavail] * bool(disk.f_blocks),
               default=files)
    if files > room:
        raise ShardsError(f"{shards:,} shards: a level of this search writes up to "
                          f"{files:,} files, more than the {room:,} its disk has room "
                          "for: free some, or use fewer shards (--shards)")


def _levels(folder: Path, count: int, words: int
            ) -> Iterator[tuple[int, np.ndarray]]:
    for level in range(count):
        keys = [np.load(folder / f"level/{level}/{shard}.npy")
                for shard in _shards_in(folder / f"level/{level}")]
        yield level, np.concatenate(keys) if keys else empty_keys(words)


def sparse_search(search: SparseSearch, folder: Path, executor=None, progress: bool = False,
                  label: str = "sparse") -> tuple[np.ndarray, np.ndarray]:
    """The table's arrays for ``search``: every position's key (ascending) and its
    distance to the targets, built in ``folder`` (resumable; removed by the caller), or in
    memory for plain-Python moves in one shard with no memory bound (``plain_search``)."""
    plain = search.plain
    if plain and search.memory is None and search.shards <= 1:
        return plain_search(search, progress, label)
    if executor is None or plain:  # a plain start's moves are a callable of this process
        executor = InProcess()
    folder = Path(folder)
    if search.memory is None:
        return _search_in_shards(search, folder, executor, progress, label,
                                 max(1, search.shards))
    check_memory(search)
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
            shards = more_shards(search.memory, shards, int(needed.args[0]))
            for phase in ("enumerate", "distance"):  # begun in too few shards: again
                shutil.rmtree(folder / phase, ignore_errors=True)
            folder.mkdir(parents=True, exist_ok=True)
            chosen.write_text(json.dumps({"shards": shards}))



def more_shards(memory: int, shards: int, largest: int) -> int:
    """The shards to start again in when a shard's task would need ``largest`` bytes in
    ``shards``, over the bound ``memory``: at once as many times more (a power of two) as
    the bound is short, since a shard's keys shrink with their count, rather than
    doubling through every restart; a ShardsError where even ``MAX_SHARDS`` fall short."""
    wanted = shards * largest / memory
    if shards >= MAX_SHARDS or wanted > MAX_SHARDS:
        raise ShardsError(f"a memory bound of {size_text(memory)} would take about "
                          f"{max(wanted, shards + 1):,.0f} shards (a shard's task needs "
                          f"{size_text(largest)} in {shards:,}), more than the {MAX_SHARDS:,} "
                          "a search may have: raise the memory bound (--memory)")
    grown = shards * 2
    while grown < wanted:
        grown *= 2
    return min(grown, MAX_SHARDS)


def check_memory(search: SparseSearch) -> None:
    """Refuse, before any work, a memory bound no count of shards can meet: a task holds
    at least one position's successors (``working_set``)."""
    least = working_set(1, 1, search.most_moves)
    if search.memory is not None and search.memory < least:
        raise ShardsError(f"a memory bound of {size_text(search.memory)} is less than a task "
                          f"needs for one position ({size_text(least)}): raise it (--memory)")


def size_text(count: int) -> str:
    """Bytes as a person reads them (``480 bytes``, ``3.2 MiB``)."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= size:
            return f"{count / size:,.1f} {unit}"
    return f"{count:,} byte{'' if count == 1 else 's'}"


def _search_in_shards(search: SparseSearch, folder: Path, executor, progress: bool,
                      label: str, shards: int) -> tuple[np.ndarray, np.ndarray]:
    never = search_never(search)
    undone = search.predecessors if search.predecessors is not None else search.successors
    settings = {"search": repr(replace(search, memory=None, shards=0))}
    words = search.key_words
    within = None
    if search.starts:
        found = folder / "enumerate"
        with progress_bar(label, "positions", progress) as bar:
            level_search(found, keys_of(search.starts, words), search.successors,
                         search.most_moves, search.parameters, shards, None, executor, bar,
                         settings, deepest=1 << 30, memory=search.memory, words=words)
        within = found / "seen"
    targets = targets_among(search, within, shards)
    # a bar of its own: the count of the positions found never falls back to 0
    total = None if within is None else sum(_count(within / f"{shard}.npy")
                                            for shard in range(shards))
    with progress_bar(label, "distances", progress, total) as bar:
        distances = folder / "distance"
        count = level_search(distances, targets, undone, search.most_moves,
                             search.parameters, shards, within, executor, bar, settings,
                             deepest=never - 1, memory=search.memory, words=words)
    levels = list(_levels(distances, count, words))
    if within is None:
        keys = np.concatenate([keys for _, keys in levels])
        distance = np.concatenate([np.full(len(keys), level, np.int64)
                                   for level, keys in levels])
    else:
        # each shard's keys are sorted: a stable sort merges the runs
        keys = np.sort(np.concatenate([_load(within / f"{shard}.npy", words)
                                       for shard in range(shards)]), kind="stable")
        distance = np.full(len(keys), never, np.uint16)
        for level, reached in levels:
            distance[np.searchsorted(keys, reached)] = level
        return keys, stored_distances(distance, search)
    order = np.argsort(keys, kind="stable")
    return keys[order], stored_distances(distance[order], search)


def progress_bar(label: str, phase: str, progress: bool, total: int | None = None) -> tqdm:
    """A phase's bar of positions (each phase its own: neither count ever falls back)."""
    return tqdm(desc=f"{label}: {phase}", unit=" positions", total=total,
                disable=not progress, mininterval=0.5)


# ---- the plain-Python start in memory ---------------------------------------------------

def plain_search(search: SparseSearch, progress: bool = False, label: str = "sparse"
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``sparse_search`` of plain-Python moves in one shard with no memory bound, held in
    memory (the same table).  Each position's moves are asked for once: with starts, the
    moves met while enumerating are recorded, and the distance phase follows them
    reversed (the moves undone within the positions found are exactly those)."""
    on_positions = getattr(search.successors, "on_positions", None)
    if on_positions is not None:
        return positions_search(search, PositionMoves(*on_positions()), progress, label)
    never = search_never(search)
    words = search.key_words
    if not search.starts:  # every position that reaches a target: its level is its distance
        undone = search.predecessors if search.predecessors is not None else search.successors
        with progress_bar(label, "distances", progress) as bar:
            keys, levels = _plain_levels(distinct(keys_of(search.targets, words)),
                                         plain_expander(undone), never - 1, bar, None)
        distance = np.empty(len(keys), np.uint16)
        for level, reached in enumerate(levels):
            distance[np.searchsorted(keys, reached)] = level
        return keys, stored_distances(distance, search)
    moved: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    # the expansion lives on through the goal test, which may ask it for the positions
    expand = plain_expander(search.successors)
    with progress_bar(label, "positions", progress) as bar:
        keys, _ = _plain_levels(keys_of(search.starts, words), expand, 1 << 30, bar, moved)
    targets = targets_in(search, keys)
    del expand
    with progress_bar(label, "distances", progress, len(keys)) as bar:
        distance = _distances_back(keys, moved, targets, never, bar)
    return keys, stored_distances(distance, search)


class PositionMoves(NamedTuple):
    """A plug-in's plain-Python rules on positions (``on_positions`` of a plain search's
    moves): what ``positions_search`` calls."""

    decode: Callable[[int], object]
    after: Callable[[object], list]
    """The positions one move on."""
    before: Callable[[object], list]
    """The positions one move back (the moves undone)."""
    encode: Callable[[object], int]
    is_goal: Callable[[object], bool]
    """The goal test, where the spec's ``goal`` picks targets among the positions found."""


POLL_POSITIONS = 1 << 12
"""Positions expanded between two looks at a request's gate and the progress bar."""


def positions_search(search: SparseSearch, moves: PositionMoves, progress: bool = False,
                     label: str = "sparse") -> tuple[np.ndarray, np.ndarray]:
    """``plain_search`` on the plug-in's own positions, the way a dict search goes: each
    position found is numbered in a dict as it is met, its moves asked for once and its
    successors kept as numbers; the distances are then found backwards over those numbers
    by numpy, and only at the end is each position encoded, once, into its key.  No key
    is decoded but the starts' and targets'."""
    never = search_never(search)
    forward = bool(search.starts)
    roots = [moves.decode(key) for key in (search.starts if forward else search.targets)]
    number: dict = {}
    for position in roots:
        number.setdefault(position, len(number))
    found = list(number)
    counts: list[int] = []
    successors: list[int] = []
    level_ends = [len(found)]
    step = moves.after if forward else moves.before
    with progress_bar(label, "positions" if forward else "distances", progress) as bar:
        bar.update(len(found))
        expanded = 0
        while expanded < len(found):
            if expanded == level_ends[-1]:
                level_ends.append(len(found))
                if not forward and len(level_ends) > never:
                    raise too_deep(never - 1)
                bar.set_postfix_str(f"level {len(level_ends) - 1}", refresh=False)
            stop = min(len(found), level_ends[-1], expanded + POLL_POSITIONS)
            known = len(found)
            for here in found[expanded:stop]:
                after = step(here)
                if forward:
                    counts.append(len(after))
                for there in after:
                    at = number.get(there)
                    if at is None:
                        at = number[there] = len(found)
                        found.append(there)
                    if forward:
                        successors.append(at)
            expanded = stop
            bar.update(len(found) - known)
            checkpoint()
    level_ends.append(len(found))
    count = len(found)
    if forward:
        targets = [number[p] for p in (moves.decode(key) for key in search.targets)
                   if p in number]
        if search.goal is not None:
            targets += [at for at, position in enumerate(found) if moves.is_goal(position)]
        with progress_bar(label, "distances", progress, count) as bar:
            distance = _distances_back_by_number(np.array(counts, np.int64),
                                                 np.array(successors, np.int64),
                                                 np.unique(np.array(targets, np.int64)),
                                                 never, bar)
    else:
        distance = np.empty(count, np.int64)
        bounds = [0, *level_ends]
        for level, (begin, end) in enumerate(zip(bounds, bounds[1:])):
            distance[begin:end] = level
    del number
    keys = keys_of([moves.encode(position) for position in found], search.key_words)
    del found
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    if len(keys) > 1 and not (keys[1:] != keys[:-1]).all():
        raise ValueError(f"{label}: two positions share a key (the plug-in's encode is not "
                         "one to one)")
    return keys, stored_distances(distance[order], search)


def _distances_back_by_number(counts: np.ndarray, successors: np.ndarray,
                              targets: np.ndarray, never: int, bar) -> np.ndarray:
    """Each numbered position's fewest moves to ``targets`` (``never``: none), by a search
    back from them over the moves recorded: position ``i`` has ``counts[i]`` successors,
    listed in order in ``successors``."""
    count = len(counts)
    return _searched_back(np.repeat(np.arange(count, dtype=np.int64), counts), successors,
                          count, targets, never, bar)


def _searched_back(before: np.ndarray, after: np.ndarray, count: int, targets: np.ndarray,
                   never: int, bar) -> np.ndarray:
    """The fewest moves to position indices ``targets`` of each of ``count`` positions
    (``never``: none), by a breadth-first search back over the moves ``before[i]`` ->
    ``after[i]`` (indices), grouped by the position they lead to."""
    order = np.argsort(after, kind="stable")
    before = before[order]  # grouped by the position they lead to
    del order
    first = np.zeros(count + 1, np.int64)
    np.cumsum(np.bincount(after, minlength=count), out=first[1:])
    del after
    distance = np.full(count, never, np.int64)
    frontier = targets
    distance[frontier] = 0
    bar.update(len(frontier))
    level = 0
    while len(frontier):
        checkpoint()
        if level >= never - 1:
            raise too_deep(never - 1)
        bar.set_postfix_str(f"level {level + 1}", refresh=False)
        reached = before[_spans(first[frontier], first[frontier + 1])]
        frontier = distinct(reached[distance[reached] == never])
        level += 1
        distance[frontier] = level
        bar.update(len(frontier))
    return distance


def _plain_levels(roots: np.ndarray, expand, deepest: int, bar, moved: list | None
                  ) -> tuple[np.ndarray, list[np.ndarray]]:
    """A breadth-first search by levels from ``roots`` over a ``plain_expander``: every
    key found (sorted) and each level's keys.  Each expansion is appended to ``moved``
    (where given): the keys expanded, their counts of successors, the successors."""
    seen = distinct(roots)
    levels = [seen]
    bar.update(len(seen))
    while len(levels[-1]):
        checkpoint()
        frontier, level = levels[-1], len(levels) - 1
        if level >= deepest:
            raise too_deep(deepest)
        bar.set_postfix_str(f"level {level + 1}", refresh=False)
        found = []
        for first in range(0, len(frontier), PLAIN_BLOCK):
            block = frontier[first:first + PLAIN_BLOCK]
            counts, after = expand(block)
            if moved is not None:
                moved.append((block, counts, after))
            found.append(distinct(after))
        candidates = found[0] if len(found) == 1 else distinct(np.concatenate(found))
        fresh = candidates[~_members(seen, candidates)]
        seen = np.insert(seen, np.searchsorted(seen, fresh), fresh)
        levels.append(fresh)
        bar.update(len(fresh))
    return seen, levels


def _distances_back(keys: np.ndarray, moved: list, targets: np.ndarray, never: int, bar
                    ) -> np.ndarray:
    """Each of sorted ``keys``' fewest moves to ``targets`` (``never``: none), by a
    breadth-first search from them over the ``moved`` (``_plain_levels``) reversed: a
    position's predecessors are gathered by index, with no call to the plug-in."""
    count = len(keys)
    index = np.int32 if count < 2**31 else np.int64
    before_parts, after_parts = [], []
    while moved:  # each expansion's keys dropped as soon as they are indices
        expanded, counts, after = moved.pop()
        before_parts.append(np.repeat(np.searchsorted(keys, expanded).astype(index), counts))
        after_parts.append(np.searchsorted(keys, after).astype(index))
    before, after = np.concatenate(before_parts), np.concatenate(after_parts)
    del before_parts, after_parts
    return _searched_back(before, after, count, np.searchsorted(keys, targets), never, bar)


def _spans(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The indices of every range ``starts[i]:ends[i]``, one range after the other."""
    lengths = ends - starts
    return (np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
            + np.arange(int(lengths.sum())))


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
