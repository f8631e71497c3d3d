"""A puzzle declared by a file (docs/puzzle-files/pyraminx.toml: the tipless Pyraminx, 24
stickers, 8 moves, 933,120 positions) built by the engine, against a dict breadth-first
search written here over the same moves, CPU time, in one run:

- ``puzzle_file_compiled_vs_dict_bfs``: `builder define` and `builder build pyraminx` in
  processes of their own, the puzzle files' move kernel not yet compiled (interpreter
  start, that compilation and the catalog included), the processes' CPU time;
- ``plain_python_build_vs_dict_bfs``: the engine's plain-Python start on the same puzzle
  (its kernel set aside: ``sparse_search(..., plain=True)``), in this process.

The baseline finds what the table holds: every position the moves reach from solved
(a forward search), then each one's fewest moves to solved (a search back over the same
moves: the file's moves include every inverse).  Every side must find the same positions
and distances.

    .venv/bin/python bench/puzzle_files.py     # prints the rows, merges them into bench.json
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone
from builder import registry
from builder.sparse import sparse_search
from tests import reference

FILE = ROOT / "docs" / "puzzle-files" / "pyraminx.toml"
BIN = Path(sys.executable).parent


def dict_bfs(puzzle, variant) -> dict:
    """Every position solved reaches, with its fewest moves back to solved."""
    moves = lambda position: [move.state for move in puzzle.moves(variant, position)]
    reached = reference.plain_distances(puzzle.starts(variant)[0], moves)
    back = reference.nearest_distances(puzzle.targets(variant), moves)
    return {position: back.get(position, 255) for position in reached}


def cpu_of(function, *args):
    started = time.process_time()
    made = function(*args)
    return time.process_time() - started, made


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def forget_compiled_moves() -> int:
    """Remove numba's cache of the puzzle files' move kernels (as on a fresh clone after
    `make tables`, which builds no puzzle file): the next build compiles them.  How many
    cache files went."""
    import puzzles.permutation

    cache = Path(puzzles.permutation.__file__).parent / "__pycache__"
    gone = 0
    for path in [*cache.glob("search*.nbi"), *cache.glob("search*.nbc")]:
        path.unlink()
        gone += 1
    return gone


def replayed_paths(data: Path, puzzle, found: dict, count: int = 20) -> int:
    """Paths `query path` prints for ``count`` positions drawn from the table, replayed by
    the file's own permutations: how many reach solved in as many moves as the table
    says (all of them, or the bench says not)."""
    import json
    import random

    from puzzles.permutation import rules

    definition = rules.read_definition(FILE.read_text(), FILE.name)
    moves = dict(definition.moves)
    solved = definition.stickers(definition.solved)
    good = 0
    for stickers in random.Random(1).sample(sorted(found), count):
        done = subprocess.run([str(BIN / "query"), "path",
                               f"pyraminx:{rules.format_position(definition, stickers)}",
                               "--json", "--data", str(data)],
                              check=True, capture_output=True, text=True)
        answer = json.loads(done.stdout)
        here = stickers
        for move in answer["moves"]:
            here = rules.moved(here, moves[move])
        good += here == solved and answer["length"] == found[stickers]
    return good


def compiled_build(data: Path) -> tuple[float, dict]:
    """`builder define` and `builder build` in processes of their own, the move kernels
    not yet compiled: their CPU time, and the table they wrote as {position: distance}."""
    import zarr

    forget_compiled_moves()
    before = children_cpu()
    for arguments in (("define", str(FILE)), ("build", "pyraminx", "--quiet")):
        subprocess.run([str(BIN / "builder"), *arguments, "--data", str(data)],
                       check=True, capture_output=True)
    spent = children_cpu() - before
    puzzle = registry.use_data(data) and registry.by_name("pyraminx")
    table = zarr.open_group(str(data / "pyraminx" / "solved.zarr"), mode="r")
    keys, distance = table["keys"][:], table["distance"][:]
    return spent, {puzzle.decode("solved", int(key)): int(d)
                   for key, d in zip(keys.tolist(), distance.tolist())}


def plain_build(puzzle) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        keys, distance = sparse_search(puzzle.sparse_search("solved", plain=True),
                                       Path(folder))
    return {puzzle.decode("solved", int(key)): int(d)
            for key, d in zip(keys.tolist(), distance.tolist())}


def bench_puzzle_file(rows) -> None:
    from puzzles.permutation import from_file

    puzzle = from_file(FILE.read_text(), FILE.name)
    baseline, expected = cpu_of(dict_bfs, puzzle, "solved")
    with tempfile.TemporaryDirectory() as folder:
        compiled, built = compiled_build(Path(folder))
        replayed = replayed_paths(Path(folder), puzzle, built)
    print(f"paths replayed at their tabled length: {replayed} of 20")
    plain, planned = cpu_of(plain_build, puzzle)
    deepest = max(expected.values())
    for name, product, found, what in (
            ("puzzle_file_compiled_vs_dict_bfs", compiled, built,
             "`builder define` + `builder build pyraminx` in their own processes, the "
             "move kernel not yet compiled (start-up, its compilation and the catalog "
             "included), their CPU time"),
            ("plain_python_build_vs_dict_bfs", plain, planned,
             "the engine's plain-Python build of the same file puzzle (kernel set aside), "
             "CPU time in this process")):
        same = found == expected
        print(f"{name}: {len(found):,} positions, deepest {deepest}; dict BFS "
              f"{baseline:.2f} CPU-s, product {product:.2f} CPU-s, ratio "
              f"{baseline / product:.2f}; same positions and distances: {same}")
        rows.append(row(name, product, baseline,
                        f"the tipless Pyraminx from docs/puzzle-files/pyraminx.toml "
                        f"({len(found):,} positions, deepest {deepest} turns): {what}, "
                        f"against a dict BFS over the same moves (forward from solved, then "
                        f"back to it), CPU time of one run each; same positions and "
                        f"distances: {same}"
                        + (f"; `query path` on 20 positions drawn from the table: {replayed} "
                           "replayed to solved at the tabled length"
                           if name.startswith("puzzle_file") else "")))


if __name__ == "__main__":
    run_alone(__doc__, bench_puzzle_file)
