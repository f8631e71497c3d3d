"""The engine's sparse tables (``builder/sparse.py``, ``builder/contract/puzzle.py``) on a
puzzle written here with plain-Python rules only: pancake flips of a stack of six, keys
by a plain base-8 packing (sparse: 8**6 codes, 720 of them positions).  Expected values
come from a dict breadth-first search written in the test; the table is the same bytes
however many shards and after an interrupted build resumes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from builder.contract.base import Move
from builder.contract.puzzle import KeyedPuzzle
from builder.sparse import sparse_search
from tests import reference


class Pancakes(KeyedPuzzle):
    """Stacks of pancakes 1..n (top first); a move flips the top k >= 2.  The table holds
    what is reachable from the reversed stack; the goal is the sorted stack."""

    name = "pancakes-test"
    summary = "test pancakes"
    example = ("654321", "solved")

    def recognises(self, text):
        return text.isdigit()

    def variant(self, start, target, options):
        return 6

    def parse(self, n, text):
        return tuple(int(ch) for ch in text)

    def format_position(self, n, stack):
        return "".join(map(str, stack))

    def moves(self, n, stack):
        return [Move(f"flip {k}", stack[:k][::-1] + stack[k:]) for k in range(2, n + 1)]

    def encode(self, n, stack):
        return sum(p << (3 * i) for i, p in enumerate(stack))

    def decode(self, n, key):
        return tuple((key >> (3 * i)) & 7 for i in range(n))

    def starts(self, n):
        return [tuple(range(n, 0, -1))]

    def is_goal(self, n, stack):
        return stack == tuple(range(1, n + 1))

    def table_variants(self):
        return [6]

    def variant_name(self, n):
        return str(n)

    def variant_named(self, name):
        return int(name)


def dict_bfs(puzzle: Pancakes, n: int) -> dict[tuple, int]:
    """Distances to the goal of every stack reachable from the start, by a plain dict."""
    flips = lambda stack: [move.state for move in puzzle.moves(n, stack)]
    reached = reference.plain_distances(puzzle.starts(n)[0], flips)
    distance = reference.plain_distances(tuple(range(1, n + 1)), flips)  # a flip undoes itself
    return {stack: distance.get(stack, 255) for stack in reached}


def table(search, folder: Path, executor=None):
    return sparse_search(search, folder, executor)


def test_the_plain_python_start_equals_a_dict_search(tmp_path):
    puzzle = Pancakes()
    keys, distance = table(puzzle.sparse_search(6), tmp_path)
    expected = dict_bfs(puzzle, 6)
    assert len(keys) == len(expected) == 720
    assert (np.diff(keys) > 0).all()
    assert {puzzle.decode(6, int(k)): int(d) for k, d in zip(keys, distance)} == expected
    assert int(distance.max()) == 7  # the pancake number of 6 (OEIS A058986)


@pytest.mark.parametrize("shards", [2, 5])
def test_shards_make_the_same_table(tmp_path, shards):
    from dataclasses import replace

    puzzle = Pancakes()
    one = table(puzzle.sparse_search(6), tmp_path / "one")
    many = table(replace(puzzle.sparse_search(6), shards=shards), tmp_path / "many")
    assert all(np.array_equal(a, b) for a, b in zip(one, many))


def test_a_search_without_starts_holds_what_reaches_the_targets(tmp_path):
    from dataclasses import replace

    puzzle = Pancakes()
    search = puzzle.sparse_search(6)
    goal = puzzle.encode(6, (1, 2, 3, 4, 5, 6))
    keys, distance = table(replace(search, starts=(), goal=None, targets=(goal,)), tmp_path)
    assert len(keys) == 720 and int(distance[np.searchsorted(keys, goal)]) == 0


class Interrupting:
    """An executor that stops the build after ``tasks`` tasks (a Ctrl-C mid-level)."""

    def __init__(self, tasks: int):
        self.left = tasks

    def run(self, function, arguments, desc="", progress=False):
        for args in arguments:
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield function(*args)


def test_an_interrupted_build_resumes_after_its_last_level(tmp_path, monkeypatch):
    from dataclasses import replace

    from builder import sparse

    puzzle = Pancakes()
    search = replace(puzzle.sparse_search(6), shards=3)
    expected = table(search, tmp_path / "whole")
    # 8 tasks: level 0 expanded (1: the one root is one shard's), levels 1 and 2 merged
    # with the next expanded (2 and 3: a task for each shard sent anything), and part of
    # level 3
    monkeypatch.setattr(sparse, "InProcess", lambda: Interrupting(8))
    with pytest.raises(KeyboardInterrupt):
        table(search, tmp_path / "resumed")
    run = (tmp_path / "resumed/enumerate/run.json").read_text()
    assert '"finished": 2' in run
    monkeypatch.undo()
    calls = []
    original = sparse.expand_shard
    monkeypatch.setattr(sparse, "expand_shard",
                        lambda *args: calls.append(args[1]) or original(*args))
    resumed = table(search, tmp_path / "resumed")
    assert all(np.array_equal(a, b) for a, b in zip(expected, resumed))
    assert calls[:3] == [2, 2, 2]  # levels 0 and 1 were not expanded again


def test_a_memory_bound_splits_the_search_into_more_shards_and_keeps_the_table(tmp_path):
    from dataclasses import replace

    puzzle = Pancakes()
    expected = table(puzzle.sparse_search(6), tmp_path / "whole")
    bounded = replace(puzzle.sparse_search(6), memory=4_000)
    found = table(bounded, tmp_path / "bounded")
    assert all(np.array_equal(a, b) for a, b in zip(expected, found))
    import json

    shards = json.loads((tmp_path / "bounded" / "shards.json").read_text())["shards"]
    assert shards > 1
    # the widest level of 720 positions in `shards` parts fits the bound
    assert 24 * 720 / shards <= 4_000 * 2


def test_builder_build_takes_a_memory_bound(tmp_path):
    from tests.commands import run_command

    bad = run_command("builder", "build", "klotski", "cell", "--memory", "lots", "--data",
                      str(tmp_path))
    assert bad.returncode != 0 and "a size such as 512MB" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    ok = run_command("builder", "build", "klotski", "cell", "--memory", "1MB", "--quiet",
                     "--data", str(tmp_path))
    assert ok.returncode == 0, ok.stderr
