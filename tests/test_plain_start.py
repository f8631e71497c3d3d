"""The plain-Python start (a keyed plug-in with no kernel) held in memory: it asks the
plug-in for each position's moves once, finds the distances over the moves it recorded
(no pass through ``unmoves``), and makes the table of the sharded search and of an
independent dict breadth-first search written here; its progress bars never run
backwards.

The puzzle here has moves that cannot be undone: from n, n + 1 and 2n (up to ``TOP``),
and from every multiple of seven a dead end ``TOP + n`` with no move at all.  Its
``unmoves`` is written out, so the sharded search (which calls it) is a second,
independent way to the same table."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

import numpy as np
import pytest
from tqdm import tqdm

from builder import sparse
from builder.contract.base import Move
from builder.contract.puzzle import KeyedPuzzle
from builder.sparse import sparse_search
from tests import reference
from tests.test_sparse import Pancakes

TOP = 200


class Doubling(KeyedPuzzle):
    """Counting up to ``TOP`` by adding one or doubling; the table holds what 1 reaches,
    the goal is ``TOP``.  Counts every call to its moves and its moves undone."""

    name = "doubling-test"
    summary = "test doubling"
    example = ("1", "solved")

    def __init__(self):
        self.asked: list[int] = []
        self.undone: list[int] = []

    def recognises(self, text):
        return text.isdigit()

    def variant(self, start, target, options):
        return "up"

    def parse(self, variant, text):
        return int(text)

    def format_position(self, variant, n):
        return str(n)

    def moves(self, variant, n):
        self.asked.append(n)
        if n > TOP:
            return []
        found = [Move("+1", n + 1)] if n < TOP else []
        found += [Move("x2", 2 * n)] if 2 * n <= TOP else []
        return found + ([Move("stop", TOP + n)] if n % 7 == 0 else [])

    def unmoves(self, variant, n):
        self.undone.append(n)
        if n > TOP:
            return [n - TOP]
        return [m for m in (n - 1, n // 2 if n % 2 == 0 else 0) if m >= 1]

    def encode(self, variant, n):
        return n

    def decode(self, variant, key):
        return key

    def starts(self, variant):
        return [1]

    def is_goal(self, variant, n):
        return n == TOP

    def table_variants(self):
        return ["up"]

    def variant_name(self, variant):
        return variant

    def variant_named(self, name):
        return "up"


def dict_bfs() -> dict[int, int]:
    """Every number 1 reaches with its fewest moves to ``TOP`` (255: never), by a forward
    search for the positions and a backward one over the edges it saw."""
    puzzle = Doubling()
    after = {n: [move.state for move in puzzle.moves("up", n)]
             for n in reference.plain_distances(1, lambda n: [
                 move.state for move in puzzle.moves("up", n)])}
    before: dict[int, list[int]] = {n: [] for n in after}
    for n, following in after.items():
        for m in following:
            before[m].append(n)
    distance = reference.plain_distances(TOP, before.__getitem__)
    return {n: distance.get(n, 255) for n in before}


def test_the_plain_start_asks_each_position_once_and_never_undoes_a_move(tmp_path):
    puzzle = Doubling()
    keys, distance = sparse_search(puzzle.sparse_search("up"), tmp_path)
    expected = dict_bfs()
    assert dict(zip(keys.tolist(), distance.tolist())) == expected
    assert expected[1] == 9 and expected[TOP + 7] == 255  # 1 2 3 6 12 24 25 50 100 200
    assert sorted(puzzle.asked) == sorted(expected)  # each position's moves asked once
    assert puzzle.undone == []


def test_the_sharded_search_through_unmoves_makes_the_same_table(tmp_path):
    puzzle = Doubling()
    whole = sparse_search(puzzle.sparse_search("up"), tmp_path / "memory")
    sharded = sparse_search(replace(puzzle.sparse_search("up"), shards=3), tmp_path / "shards")
    assert puzzle.undone  # the sharded distance phase went through unmoves
    assert all(np.array_equal(a, b) for a, b in zip(whole, sharded))


def test_a_search_from_the_targets_alone_follows_unmoves(tmp_path):
    puzzle = Doubling()
    search = replace(puzzle.sparse_search("up"), starts=(), goal=None, targets=(TOP,))
    keys, distance = sparse_search(search, tmp_path)
    reaching = {n: d for n, d in dict_bfs().items() if d != 255}
    assert dict(zip(keys.tolist(), distance.tolist())) == reaching


class Recorded(tqdm):
    """A tqdm bar that keeps every count it shows."""

    bars: ClassVar[list[Recorded]] = []

    def __init__(self, *args, **kwargs):
        import io

        super().__init__(*args, **{**kwargs, "disable": False, "file": io.StringIO()})
        self.shown = [self.n]
        Recorded.bars.append(self)

    def update(self, n=1):
        super().update(n)
        self.shown.append(self.n)

    def reset(self, total=None):
        super().reset(total)
        self.shown.append(self.n)


@pytest.mark.parametrize("shards", [1, 3])
def test_the_progress_bars_never_run_backwards(tmp_path, monkeypatch, shards):
    Recorded.bars = []
    monkeypatch.setattr(sparse, "tqdm", Recorded)
    puzzle = Pancakes()
    search = replace(puzzle.sparse_search(6), shards=shards)
    keys, _ = sparse_search(search, tmp_path, progress=True)
    phases = [bar.desc.rsplit(": ", 1)[-1] for bar in Recorded.bars]
    assert phases == ["positions", "distances"]
    for bar in Recorded.bars:
        assert bar.shown == sorted(bar.shown), (bar.desc, bar.shown)
        assert bar.shown[-1] == len(keys) == 720  # every position found, then placed
    assert Recorded.bars[1].total == 720
