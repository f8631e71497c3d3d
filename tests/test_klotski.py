"""Klotski: the published figures (25,955 positions reachable from the classic start, 81
moves to the goal a block any distance, 116 a cell at a time) from the tables, and again
from a breadth-first search written here on strings of block shapes (independent of the
plug-in's rules and keys); the plain-Python start and the numba kernel make the same
table; paths replay legally with the tabled length."""

from __future__ import annotations

import json
from collections import deque

import numpy as np
import pytest

from builder import registry
from builder.contract.puzzle import Walking
from tests.commands import run_command
from tests.conftest import FIGURES

PUBLISHED = FIGURES["klotski"]
KLOTSKI = registry.by_name("klotski")
CLASSIC = "BAAC.BAAC.DEEF.DGHF.I--J"

# ---- an independent search: a position is 20 shape letters (S the 2x2, V standing, H
# lying, o 1x1, - hole); blocks of one shape are interchangeable, so this is canonical


def shapes_of(text: str) -> str:
    cells = text.replace(".", "")
    kind = {}
    for letter in set(cells) - {"-"}:
        spots = [i for i, ch in enumerate(cells) if ch == letter]
        kind[letter] = {4: "S", 1: "o"}.get(len(spots)) or (
            "V" if spots[1] - spots[0] == 4 else "H")
    return "".join(kind.get(ch, "-") for ch in cells)


def pieces(shapes: str) -> list[list[int]]:
    """Each block's cells: a strip of V (or H) tiles one way only, top (left) first."""
    taken, found = set(), []
    for cell, shape in enumerate(shapes):
        if shape == "-" or cell in taken:
            continue
        block = {"o": [cell], "V": [cell, cell + 4], "H": [cell, cell + 1],
                 "S": [cell, cell + 1, cell + 4, cell + 5]}[shape]
        taken.update(block)
        found.append(block)
    return found


def shifted(block: list[int], dx: int, dy: int) -> list[int] | None:
    moved = []
    for cell in block:
        x, y = cell % 4 + dx, cell // 4 + dy
        if not (0 <= x < 4 and 0 <= y < 5):
            return None
        moved.append(y * 4 + x)
    return moved


def next_positions(shapes: str, any_distance: bool) -> set[str]:
    found = set()
    for block in pieces(shapes):
        shape = shapes[block[0]]
        free = {i for i, ch in enumerate(shapes) if ch == "-"} | set(block)
        offsets, queue = {(0, 0)}, deque([(0, 0)])
        while queue:
            dx, dy = queue.popleft()
            for ex, ey in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                offset = (dx + ex, dy + ey)
                cells = shifted(block, *offset)
                if offset in offsets or cells is None or not set(cells) <= free:
                    continue
                offsets.add(offset)
                if any_distance:
                    queue.append(offset)
        for offset in offsets - {(0, 0)}:
            board = ["-" if i in block else ch for i, ch in enumerate(shapes)]
            for cell in shifted(block, *offset):
                board[cell] = shape
            found.add("".join(board))
    return found


def plain_search(any_distance: bool) -> tuple[int, int]:
    """(positions reachable from the classic start, its fewest moves to the goal)."""
    start = shapes_of(CLASSIC)
    seen = {start}
    queue = deque([(start, 0)])
    best = None
    while queue:
        shapes, depth = queue.popleft()
        if best is None and shapes[13:15] == "SS" and shapes[17:19] == "SS":
            best = depth
        for following in next_positions(shapes, any_distance):
            if following not in seen:
                seen.add(following)
                queue.append((following, depth + 1))
    return len(seen), best


@pytest.mark.parametrize("metric", ["block", "cell"])
def test_the_published_figures_from_the_tables_and_a_plain_search(data_for, metric):
    from query.walk import Tables, distance_between

    tables = Tables(data_for(KLOTSKI))
    table = tables.stored(("klotski",))
    assert f"{metric}" in table
    keys = tables.vector(("klotski", metric), "keys").whole()
    fewest = PUBLISHED[f"fewest_moves_{metric}_metric"]
    assert len(keys) == PUBLISHED["reachable_positions"]
    start = KLOTSKI.parse(metric, CLASSIC)
    assert distance_between(KLOTSKI, tables, metric, start,
                            Walking.of(KLOTSKI).parse_target(metric, "solved")) == fewest
    assert plain_search(any_distance=metric == "block") == (len(keys), fewest)


@pytest.mark.parametrize("metric", ["block", "cell"])
def test_the_plain_python_start_makes_the_numba_table(tmp_path, metric):
    from builder.sparse import sparse_search

    made = [sparse_search(KLOTSKI.sparse_search(metric, plain=plain), tmp_path / str(plain))
            for plain in (True, False)]
    assert all(np.array_equal(a, b) for a, b in zip(*made))


@pytest.mark.parametrize("metric", ["block", "cell"])
def test_a_path_replays_legally_and_has_the_tabled_length(data_for, metric):
    out = run_command("query", "path", CLASSIC, "--metric", metric, "--json", "--data", str(data_for(KLOTSKI)), check=True)
    found = json.loads(out.stdout)
    assert found["length"] == PUBLISHED[f"fewest_moves_{metric}_metric"]
    node = KLOTSKI.parse(metric, CLASSIC)
    for label in found["moves"]:
        node = next(m.state for m in KLOTSKI.moves(metric, node) if m.label == label)
    assert KLOTSKI.is_goal(metric, node)


def test_notation_round_trips_and_letters_follow_reading_order():
    cells = KLOTSKI.parse("block", "CAAB.CAAB.FDDE.FGHE.J--I")
    assert KLOTSKI.format("block", cells) == CLASSIC
    assert KLOTSKI.decode("block", KLOTSKI.encode("block", cells)) == cells


@pytest.mark.parametrize(("text", "words"), [
    ("BAAC.BAAC.DEEF.DGHF.I-J", "5 rows of 4"),
    ("BAAC.BAAC.DEEF.DGHF.IJ-J", "rectangle"),
    ("BAAC.BAAC.DEEF.DGGF.I--J", "classic blocks"),
])
def test_bad_positions_are_one_line(text, words):
    out = run_command("query", "path", f"klotski:{text}")
    assert out.returncode != 0 and words in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_verify_finds_a_forged_klotski_table(data_for, tmp_path):
    import shutil

    import zarr

    from builder import store
    from builder.verify import verify_table

    table = tmp_path / "klotski" / "block.zarr"
    shutil.copytree(data_for(KLOTSKI) / "klotski" / "block.zarr", table)
    distance = zarr.open_group(table, mode="r+")["distance"]
    forged = distance[...]
    forged[forged != 255] += 2  # every distance raised: only 0 at the goal shows it
    distance[...] = forged
    store.record_checksums(table)
    verdict = verify_table(table, 50, np.random.default_rng(0))
    assert not verdict.ok and "0 is exactly the targets" in verdict.detail


def test_builder_build_in_three_shards_builds_the_same_table(data_for, tmp_path):
    """(On a Dask cluster too: tests/test_execute.py, one cluster for every kind of task.)"""
    import zarr

    run_command("builder", "build", "klotski", "cell", "--data", str(tmp_path), "--quiet",
                "--shards", "3", check=True)
    ours = zarr.open_group(tmp_path / "klotski" / "cell.zarr", mode="r")
    theirs = zarr.open_group(data_for(KLOTSKI) / "klotski" / "cell.zarr", mode="r")
    for name in ("keys", "distance", "key_index"):
        assert np.array_equal(ours[name][...], theirs[name][...])
    built = tmp_path / "klotski" / "cell.zarr"
    stored = data_for(KLOTSKI) / "klotski" / "cell.zarr"
    chunks = sorted(p.relative_to(built) for p in built.rglob("c/*"))
    assert chunks and all((built / c).read_bytes() == (stored / c).read_bytes() for c in chunks)
    assert not any(".building" in p.name for p in tmp_path.rglob("*"))  # levels removed
