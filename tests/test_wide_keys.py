"""Sparse tables keyed by two 64-bit words (``key_words = 2``), on a puzzle written here
whose keys need about 120 bits: a strip of 24 slots holding 5-bit tiles, of which the
eight in slots 9..16 (bits 45..84, across the two words; slot 12 straddles them) are
sorted by swapping neighbours.  Expected values come from a dict breadth-first search in
the test and from a stated property: the fewest swaps that sort a row is its number of
inversions (8 tiles: 8! = 40,320 arrangements, at most 28 swaps).  The plain-Python
start, a numba kernel on word pairs and any number of shards make the same table; the
engine's walk, lookup and verify read it."""

from __future__ import annotations

import itertools
import random
from collections import deque
from dataclasses import replace

import numpy as np
import pytest
from numba import njit

from builder import registry
from builder.contract.base import Move
from builder.contract.keys import ints_of, sortable
from builder.contract.puzzle import GOAL, KeyKernel, KeyedPuzzle, KeyedSearch
from builder.routine import build_table
from query.walk import Tables, walk

SLOTS, FIRST, TILES, BITS = 24, 9, 8, 5
FIXED = {slot: 31 - slot % 7 for slot in range(SLOTS) if not FIRST <= slot < FIRST + TILES}
"""Tiles that never move, the highest in slot 23 (bits 115..119): every key needs two
words."""
FIXED_KEY = sum(tile << (BITS * slot) for slot, tile in FIXED.items())
"""The fixed tiles' part of every key (the window's slots are 0 in it)."""
TILE_BASE = 20
"""Tile t of the sorting window is stored as 20 + t (its high bit set: every field of
the window, the straddling one too, has bits on both sides of its middle)."""


def inversions(row: tuple[int, ...]) -> int:
    return sum(a > b for a, b in itertools.combinations(row, 2))


class StripSearch(KeyedSearch):
    """Strip's own tables, read and catalogued as a plug-in's own search."""

    key_words = 2


class Strip(KeyedPuzzle):
    """A position is the window's tiles, left to right (a permutation of 0..7); a move
    swaps the tiles of slots 9+i and 10+i.  The table holds what the sorted row reaches;
    the goal is the sorted row."""

    own_search = StripSearch

    name = "strip-test"
    summary = "test strip"
    example = ("10234567", "solved")

    def recognises(self, text):
        return len(text) == TILES and text.isdigit()

    def variant(self, start, target, options):
        return "swaps"

    def parse(self, variant, text):
        return tuple(int(ch) for ch in text)

    def format_position(self, variant, row):
        return "".join(map(str, row))

    def moves(self, variant, row):
        return [Move(f"swap {i}", row[:i] + (row[i + 1], row[i]) + row[i + 2:])
                for i in range(TILES - 1)]

    def encode(self, variant, row):
        return FIXED_KEY + sum((TILE_BASE + t) << (BITS * (FIRST + i)) for i, t in enumerate(row))

    def decode(self, variant, key):
        return tuple(((key >> (BITS * (FIRST + i))) & 31) - TILE_BASE for i in range(TILES))

    def starts(self, variant):
        return [tuple(range(TILES))]

    def targets(self, variant):
        return [tuple(range(TILES))]

    def table_variants(self):
        return ["swaps"]

    def variant_name(self, variant):
        return variant

    def variant_named(self, name):
        return "swaps"


class KernelStrip(Strip):
    def kernel(self, variant):
        return KeyKernel("tests.test_wide_keys:strip_swaps", TILES - 1)


@njit(cache=True)
def _field(high, low, at):
    five = np.uint64(31)
    if at + BITS <= 64:
        return (low >> np.uint64(at)) & five
    if at >= 64:
        return (high >> np.uint64(at - 64)) & five
    return ((low >> np.uint64(at)) | (high << np.uint64(64 - at))) & five


@njit(cache=True)
def _put(high, low, at, value):
    five = np.uint64(31)
    if at + BITS <= 64:
        low = (low & ~(five << np.uint64(at))) | (value << np.uint64(at))
    elif at >= 64:
        high = (high & ~(five << np.uint64(at - 64))) | (value << np.uint64(at - 64))
    else:  # the field straddles the words: its low bits end the low word
        low = (low & ~(five << np.uint64(at))) | (value << np.uint64(at))
        high = (high & ~(five >> np.uint64(64 - at))) | (value >> np.uint64(64 - at))
    return high, low


@njit(cache=True)  # compiled for the engine's WIDE_MOVES type where a kernel first takes it
def strip_swaps(key, parameters, out):
    """The strip's swaps on a key given as its high and low word (the engine's
    ``WIDE_MOVES`` type), written independently of the plain-Python rules above."""
    high, low = key[0], key[1]
    for i in range(TILES - 1):
        left, right = BITS * (FIRST + i), BITS * (FIRST + i + 1)
        a, b = _field(high, low, left), _field(high, low, right)
        h, lo = _put(high, low, left, b)
        h, lo = _put(h, lo, right, a)
        out[i, 0] = h
        out[i, 1] = lo
    return TILES - 1


def dict_bfs(puzzle: Strip) -> dict[tuple, int]:
    goal = tuple(range(TILES))
    distance, queue = {goal: 0}, deque([goal])
    while queue:  # a swap undoes itself
        row = queue.popleft()
        for move in puzzle.moves("swaps", row):
            if move.state not in distance:
                distance[move.state] = distance[row] + 1
                queue.append(move.state)
    return distance


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The strip's table built and stored by the engine from the plain-Python moves."""
    data = tmp_path_factory.mktemp("wide")
    build_table(data, Strip().table({"variant": "swaps"}), progress=False)
    return data


def test_two_word_keys_hold_every_arrangement_at_its_inversion_count(built):
    import zarr

    puzzle = Strip()
    group = zarr.open_group(built / puzzle.name / "swaps.zarr", mode="r")
    stored = group["keys"][...]
    assert stored.shape == (40_320, 2) and int(stored[:, 0].min()) >= 1 << 51  # slot 23
    keys, distance = sortable(stored), group["distance"][...]
    rows = [puzzle.decode("swaps", key) for key in ints_of(keys)]
    expected = dict_bfs(puzzle)
    assert {row: int(d) for row, d in zip(rows, distance)} == expected
    assert all(int(d) == inversions(row) for row, d in zip(rows, distance))
    assert int(distance.max()) == 28 and ints_of(keys) == sorted(ints_of(keys))
    assert group.attrs["key_words"] == 2


def test_a_numba_kernel_on_word_pairs_and_shards_make_the_same_table(tmp_path):
    from builder.sparse import sparse_search

    plain = sparse_search(Strip().sparse_search("swaps"), tmp_path / "plain")
    kernel = sparse_search(KernelStrip().sparse_search("swaps"), tmp_path / "kernel")
    sharded = sparse_search(replace(KernelStrip().sparse_search("swaps"), shards=3),
                            tmp_path / "sharded")
    for other in (kernel, sharded):
        assert all(np.array_equal(a, b) for a, b in zip(plain, other))


def test_the_walk_and_the_lookup_read_two_word_keys(built):
    puzzle, tables = Strip(), Tables(built)
    rng = random.Random(5)
    for _ in range(20):
        row = tuple(rng.sample(range(TILES), TILES))
        found = walk(puzzle, tables, "swaps", row, GOAL)
        assert found.length == inversions(row)
        for before, label, after in zip(found.nodes, found.labels, found.nodes[1:]):
            assert Move(label, after) in puzzle.moves("swaps", before)
        assert found.nodes[-1] == tuple(range(TILES))


def test_verify_passes_the_table_and_finds_a_forgery(built, tmp_path, monkeypatch):
    import shutil

    import zarr

    from builder import store
    from builder.verify import verify_table

    monkeypatch.setattr(registry, "PUZZLES", (*registry.PUZZLES, Strip()))
    table = built / "strip-test" / "swaps.zarr"
    verdict = verify_table(table, 50, np.random.default_rng(0))
    assert verdict.ok, verdict.detail
    forged_table = tmp_path / "strip-test" / "swaps.zarr"
    shutil.copytree(table, forged_table)
    distance = zarr.open_group(forged_table, mode="r+")["distance"]
    forged = distance[...]
    forged[forged == 1] = 3  # the rows one swap from sorted: the recurrence breaks there
    distance[...] = forged
    store.record_checksums(forged_table)
    verdict = verify_table(forged_table, 2000, np.random.default_rng(0))
    assert not verdict.ok and "recurrence" in verdict.detail


def test_a_key_too_wide_for_its_words_is_refused_by_name():
    class OneWordSearch(StripSearch):
        key_words = 1

    class OneWord(Strip):
        own_search = OneWordSearch

    with pytest.raises(ValueError, match="does not fit 1 word"):
        OneWord().sparse_search("swaps")
