"""The 3×3×3 cube answered at once: Kociemba's two-phase search (``puzzles/rubik/
twophase.py``) against the ``kociemba`` package (the C two-phase solver on PyPI, where it
is installed: `make bench` installs it, or `.venv/bin/pip install kociemba`; not a
dependency of the project) on the same 20 uniformly random cubes (seeded: random piece
arrangements and orientations of equal parity and sums), each path replayed on the
rules to solved.  Two rows: the first
path of at most 22 turns, and a path of at most 20 (ours within 3 s, then the best found;
the package has no time limit).  Times are one thread's, per cube: median (product_s,
baseline_s), p95 and the longest in the notes, with every length.  And the pruning table's
build by the engine's breadth-first kernel, in a temporary directory.

    .venv/bin/python bench/twophase.py --data data   # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder.reader import Tables
from builder.routine import build_table
from builder.store import directory_size
from puzzles.rubik import twophase
from puzzles.rubik.rules import SOLVED, permutation_parity, stickers_of, turned

CUBES = 20
SEED = 57
SECONDS = 3.0
"""Ours: the longest it looks for a path of at most 20 turns."""


def random_cubes(count: int = CUBES, seed: int = SEED) -> list[tuple]:
    """Uniformly random cubes: any arrangement of the corners and of the edges of equal
    parity, any twists summing to a multiple of 3, any flips to a multiple of 2."""
    rng = np.random.default_rng(seed)
    cubes = []
    for _ in range(count):
        corners = tuple(int(piece) for piece in rng.permutation(8))
        edges = [int(piece) for piece in rng.permutation(12)]
        if permutation_parity(corners) != permutation_parity(tuple(edges)):
            edges[0], edges[1] = edges[1], edges[0]
        twists = [int(twist) for twist in rng.integers(0, 3, 7)]
        flips = [int(flip) for flip in rng.integers(0, 2, 11)]
        cubes.append((corners, (*twists, -sum(twists) % 3), tuple(edges),
                      (*flips, sum(flips) % 2)))
    return cubes


def replays(cube, labels) -> bool:
    for label in labels:
        cube = turned(cube, label[0], {"": 1, "2": 2, "'": 3}[label[1:]])
    return cube == SOLVED


def summary(seconds: list[float], lengths: list[int]) -> str:
    counted = ", ".join(f"{count} of {length}" for length, count in sorted(Counter(
        lengths).items()))
    return (f"median {np.median(seconds) * 1000:.1f} ms, p95 "
            f"{np.percentile(seconds, 95) * 1000:.1f} ms, longest {max(seconds) * 1000:.1f} "
            f"ms; turns: {counted} (mean {np.mean(lengths):.2f})")


def ours(tables, cubes, enough: int, seconds: float) -> tuple[list[float], list[int]]:
    times, lengths = [], []
    for cube in cubes:
        began = time.perf_counter()
        solved = twophase.solve(tables, cube, enough=enough, seconds=seconds)
        times.append(time.perf_counter() - began)
        assert replays(cube, solved.labels)
        lengths.append(len(solved.labels))
    return times, lengths


def theirs(cubes, depth: int) -> tuple[list[float], list[int]] | None:
    try:
        import kociemba
    except ImportError:
        return None
    kociemba.solve(stickers_of(cubes[0]))  # its tables read (or made) once, not timed
    times, lengths = [], []
    for cube in cubes:
        began = time.perf_counter()
        labels = kociemba.solve(stickers_of(cube), max_depth=depth).split()
        times.append(time.perf_counter() - began)
        assert replays(cube, labels)
        lengths.append(len(labels))
    return times, lengths


def bench_twophase(rows: list[dict], data: Path) -> None:
    tables = Tables(data)
    cubes = random_cubes()
    twophase.solve(tables, cubes[0])  # tables read, kernels loaded: not timed
    for enough, seconds, their_depth in ((22, float("inf"), 22), (20, SECONDS, 20)):
        times, lengths = ours(tables, cubes, enough, seconds)
        baseline = theirs(cubes, their_depth)
        limit = f" within {seconds:g} s (then the best found)" if seconds != float(
            "inf") else ""
        rows.append(row(
            f"rubik_twophase_{enough}_turns", float(np.median(times)),
            None if baseline is None else float(np.median(baseline[0])),
            f"{CUBES} uniformly random cubes (seed {SEED}), a path of at most {enough} "
            f"turns{limit}, one thread; ours: {summary(times, lengths)}; "
            + ("the kociemba package not installed: no baseline" if baseline is None else
               f"baseline, the kociemba package (max_depth={their_depth}): "
               f"{summary(*baseline)}")))


def bench_table(rows: list[dict]) -> None:
    table = twophase.pruning_table()
    with tempfile.TemporaryDirectory() as folder:
        result = build_table(Path(folder), table, progress=False, log=lambda *_: None)
        size = directory_size(result.path)
    states = sum(search.states for search in table.searched.values())
    rows.append(row(
        "rubik_twophase_table_build", result.seconds, None,
        f"rubik/twophase/pruning: four breadth-first arrays, {states:,} states in all "
        f"({states / 1e6:.1f} MB in memory, a byte each), {size / 1e6:.1f} MB on disk; "
        "built by the engine's breadth-first kernel in this run"))


if __name__ == "__main__":
    run_alone(__doc__, bench_table, bench_twophase)
