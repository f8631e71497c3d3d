"""Tricolore's stored tables, declared for the engine (``Table``): the all-pairs
tables of small boards (chunk tasks of target columns, resumable, runnable on Dask), the
exact table towards one target of a large board, the 4×4 decomposition sample, the 4×4
forward reachability search, and the 4×4 all-pairs statistics gathered target by target.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from builder.contract.base import TableLookup, never_of, unreached
from builder.contract.puzzle import Table
from builder.contract.specs import ChunkTasks, TaskBlock
from builder.contract.work import report_progress
from puzzles.tricolore.all_pairs_batch import TARGETS_PER_TASK
from puzzles.tricolore.rules import (
    ALL_PAIRS_MAX_SQUARES,
    METHODS,
    UNREACHABLE,
    WALK_ARRAYS,
    BoardError,
    Tricolore,
    check_method,
)

ARRAYS = WALK_ARRAYS
"""The arrays of every Tricolore distance table: those the walk reads, in its order."""
LARGE_TASK = 1024
"""Target columns per chunk task on boards with room for four such tasks or more: each
parallel pass over the boards then does four times the work, and the 4x2 tables on two
threads take 0.93 s instead of 1.21 s (bench row tricolore_4x2_all_pairs: 12.0x the
per-start BFS, against 9.3x); a 5x2 task holds about 0.5 GB."""


def targets_per_task(n_boards: int) -> int:
    """A table's task width: large where it still leaves four tasks or more to share out
    (resuming and Dask workers need several), else the small one."""
    return LARGE_TASK if n_boards >= 4 * LARGE_TASK else TARGETS_PER_TASK


COLUMNS_PER_CHUNK = 16
"""Target columns per chunk: a path query reads one chunk of each array."""
ENCODING = (
    "arrays [start, target] over board ranks; rank = sum of colour * 3**(n_squares-1-square), "
    "R=0 W=1 B=2, squares row-major from 0 at the top left. clicks = minimum clicks >= 1 "
    "(never: unreachable or outside the method's state space); sole_click = the first click "
    "when it is the only optimal one, else never; clicks_avoiding_sole = minimum clicks when "
    "that sole click is forbidden (never: none)."
)
RULES = (
    "R->W->B->R; clicking red advances it alone, white its 8 neighbours, blue itself and its "
    "neighbours; no square twice in succession. unrestricted: any square; hybrid: bottom row "
    "plus red squares of the row above; restricted: bottom row only. Hybrid and restricted "
    "state spaces exclude boards whose bottom row is all blue."
)
DESCRIPTION = {"rules": RULES}
TARGET_BYTES_PER_BOARD = 28
"""Peak memory of a single-target search per board (measured: 4×4, 43 M boards, 1.2 GB)."""
TARGET_MEMORY_BUDGET = 8 * 2**30
DECOMPOSITION_PAIRS = 100_000
"""Random pairs `make tables` measures the decomposition solver on."""
DECOMPOSITION_SEED = 2026
APPLET_TARGETS_4X4 = ("RRRR.RRRR.RRRR.RRRR", "WWWW.WWWW.WWWW.WWWW", "WBWB.BWBW.WBWB.BWBW")
REACHABILITY_START = "RRRR.RRRR.RRRR.RRRR"


# --- all pairs -------------------------------------------------------------------------

def all_pairs_spec(width: int, height: int, method: str) -> Table:
    """The all-pairs table of one board shape and method, as chunk tasks: one kernel
    batch of target columns (whole chunks) each."""
    rules = Tricolore(width, height)
    check_method(method)
    if rules.n_squares > ALL_PAIRS_MAX_SQUARES:
        raise BoardError(f"an all-pairs table for {rules.shape_name} ({rules.n_boards:,} "
                         f"boards) does not fit: at most {ALL_PAIRS_MAX_SQUARES} squares")
    n = rules.n_boards
    return Table(
        "tricolore", f"{rules.shape_name}/{method}",
        {"width": width, "height": height, "method": method},
        tasks=ChunkTasks(
            shape=(n, n), chunks=(n, COLUMNS_PER_CHUNK),
            arrays={name: "uint8" for name in ARRAYS},
            function=all_pairs_block,
            arguments=tuple((width, height, method, targets_per_task(n), first)
                            for first in range(0, n, targets_per_task(n))),
            finish=lambda facts: {"max_clicks": max(fact["max_clicks"] for fact in facts)},
        ),
        distances={"clicks": (f"{rules.shape_name} {method}", "all pairs")},
        about=ENCODING,
        described=DESCRIPTION,
    )


@lru_cache(maxsize=8)
def _successors(width: int, height: int, method: str) -> np.ndarray:
    return Tricolore(width, height).successor_table(method)


def all_pairs_block(width: int, height: int, method: str, count: int,
                    first: int) -> TaskBlock:
    """One chunk task: the searches towards targets ``first ..`` (``count`` of them, one
    kernel batch).  Targets outside the state space are never a successor: they come out
    unreachable."""
    from puzzles.tricolore.all_pairs_search import search_targets

    blocks, _ = search_targets(_successors(width, height, method), first, count)
    return TaskBlock((0, first), dict(zip(ARRAYS, blocks)),
                     {"max_clicks": _max_clicks(blocks[0])})


# --- one target of a large board -------------------------------------------------------

def single_target(rules: Tricolore, target: int, progress: bool = True):
    """(clicks, sole_click, clicks_avoiding_sole) from every board to one target (unrestricted
    clicks), with a bar per level: by the stream kernel on the boards it covers (4×4 among
    them: ``stream_search.backward_covers``), else by the general single-target kernel."""
    from tqdm import tqdm

    bar = tqdm(desc=f"{rules.format(target)} levels", unit="level", disable=not progress)

    def report(level: int, frontier_nodes: int) -> None:
        bar.update(1)
        bar.set_postfix(frontier_nodes=f"{frontier_nodes:,}")
        report_progress(level, f"{frontier_nodes:,} boards at the frontier")

    try:
        from puzzles.tricolore.stream_search import (
            backward_covers,
            search_target_streams,
        )

        if backward_covers(rules.width, rules.height):
            return search_target_streams(rules.width, rules.height, target, report)
        from puzzles.tricolore.target_search import search_target

        return search_target(rules.half_tables(), target, report)
    finally:
        bar.close()


def target_spec(target: str, width: int = 4, height: int = 4) -> Table:
    """Exact distances from every board to one target (unrestricted), with walk data."""
    rules = Tricolore(width, height)
    needed = rules.n_boards * TARGET_BYTES_PER_BOARD
    if needed > TARGET_MEMORY_BUDGET:
        raise BoardError(f"a table towards one {rules.shape_name} target covers "
                         f"{rules.n_boards:,} boards and needs about {needed / 2**30:,.1f} GiB, "
                         f"over the {TARGET_MEMORY_BUDGET / 2**30:.0f} GiB budget")
    target_rank = rules.parse(target)
    name = rules.format(target_rank)
    if rules.never_reached(target_rank):
        raise BoardError(f"{name} cannot be reached from any board (the last clicked "
                         "square is never blue afterwards): no table to build")

    def make(progress: bool) -> tuple[dict, dict]:
        arrays = dict(zip(ARRAYS, single_target(rules, target_rank, progress)))
        return arrays, {"max_clicks": _max_clicks(arrays["clicks"])}

    return Table(
        "tricolore", f"{rules.shape_name}/targets/{name}",
        {"width": width, "height": height, "method": "unrestricted", "target": name},
        make=make,
        distances={"clicks": (f"{rules.shape_name} unrestricted", f"to {name}")},
        about=ENCODING.replace("arrays [start, target]", "arrays [start] towards the one "
                                                         "target"),
        described=DESCRIPTION,
    )


def _max_clicks(clicks: np.ndarray) -> int:
    reached = clicks[clicks != never_of(clicks)]
    return int(reached.max()) if reached.size else 0


# --- the 4×4 decomposition sample ------------------------------------------------------

def decomposition_spec(exact_targets: list[str], pairs: int = DECOMPOSITION_PAIRS,
                       seed: int = DECOMPOSITION_SEED) -> Table:
    """The document's decomposition solver measured: random (start, target) pairs, and
    for each of ``exact_targets`` (stored exact tables) random starts with their exact
    clicks beside the decomposition's."""
    exact_targets = sorted(exact_targets)

    def make(progress: bool, tables: TableLookup) -> tuple[dict, dict]:
        from puzzles.tricolore.decomposition import DecompositionSolver

        rules = Tricolore(4, 4)
        solver = DecompositionSolver(tables)
        rng = np.random.default_rng(seed)
        all_blue = rules.n_boards - 1
        starts = [rng.integers(0, rules.n_boards, pairs)]
        targets = [rng.integers(0, all_blue, pairs)]  # every board but all blue
        exact_starts = rng.integers(0, rules.n_boards, pairs // 10)
        exact = [unreached(pairs)]  # the random pairs have no exact table
        for name in exact_targets:
            table = ("tricolore", "4x4", "targets", name)
            tables.require(table, {"puzzle": "tricolore", "target": name})
            starts.append(exact_starts)
            targets.append(np.full(len(exact_starts), rules.parse(name)))
            exact.append(tables.vector(table, "clicks").whole()[exact_starts])
        if progress:
            print(f"decomposition sample: {sum(map(len, starts)):,} pairs ...", flush=True)
        starts, targets = np.concatenate(starts), np.concatenate(targets)
        arrays = {"start": starts, "target": targets,
                  **solver.measure(starts, targets), "exact": np.concatenate(exact)}
        return arrays, {"random_pairs": pairs, "exact_starts": len(exact_starts)}

    return Table(
        "tricolore", "4x4/decomposition_sample",
        {"kind": "decomposition_sample", "pairs": pairs, "seed": seed,
         "exact_targets": exact_targets},
        make=make, reads_tables=True, read_whole=True,
        about="one row per (start, target) job: the first `pairs` rows are uniform "
              "random pairs; then `exact_starts` random starts per exact target, with "
              "exact clicks (never: no exact table)")


# --- the 4×4 forward reachability search -----------------------------------------------

def reachability_spec(start: str = REACHABILITY_START, width: int = 4,
                      height: int = 4) -> Table:
    """Settle "only all blue is unreachable": a forward search over every node from
    ``start`` lists the boards it never reaches; with the backward table towards
    ``start`` (every board reaches it) this covers every pair of boards."""
    rules = Tricolore(width, height)
    start = rules.format(rules.parse(start))

    def make(progress: bool) -> tuple[dict, dict]:
        if progress:
            print(f"forward search from {start} over every (board, last click) node ...",
                  flush=True)
        if rules.n_squares <= 16 and rules.height >= 2:  # the stream kernel's range
            from puzzles.tricolore.stream_search import forward_reachable_streams

            reached = forward_reachable_streams(width, height, rules.parse(start))
        else:
            from puzzles.tricolore.target_search import forward_reachable

            reached = forward_reachable(rules.half_tables(), rules.parse(start))
        unreached = np.flatnonzero(~reached).astype(np.int64)
        return {"unreached": unreached}, {
            "boards": rules.n_boards, "unreached_count": len(unreached),
            "unreached_boards": [rules.format(int(b)) for b in unreached[:100]]}

    return Table(
        "tricolore", f"{rules.shape_name}/reachability",
        {"kind": "reachability", "start": start, "width": width, "height": height},
        make=make, read_whole=True,
        about="unreached: the ranks of the boards the forward search never reached")


# --- 4×4 all-pairs statistics, target by target ---------------------------------------

RESULTS_FILE = Path(__file__).resolve().parents[2] / "results" / "tricolore_4x4_targets.jsonl"
"""The committed record of every 4×4 target searched so far, one JSON line per target: a
fresh clone's `make tables` publishes the estimate from it without searching again, and
`builder tricolore4x4-stats` appends to it."""


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


_KEPT_BUFFERS: dict = {}
"""The stream search's arrays, kept by a process that runs statistics tasks one after
another (in process or on a Dask worker): fresh memory is slow to touch."""


def target_stats_task(target: int) -> dict:
    """One task of the 4×4 statistics: the exact search towards one target, returned as
    its record (distance histogram, orbit size, maximum, seconds).  Runs here or on a Dask
    worker; writes nothing."""
    from puzzles.tricolore.stream_search import byte_histogram, search_target_streams

    rules = Tricolore(4, 4)
    started = time.perf_counter()
    clicks = search_target_streams(4, 4, target, kept=_KEPT_BUFFERS)[0]
    histogram, never = byte_histogram(clicks), never_of(clicks)
    perms = list(rules.symmetries("unrestricted").values())
    orbit = {int(rules.apply_symmetry(np.array([target]), p)[0]) for p in perms}
    return {
        "target": rules.format(target), "orbit_size": len(orbit),
        "histogram": {str(c): int(n) for c, n in enumerate(histogram)
                      if n and c != never},
        "unreachable": int(histogram[never]),
        "max_clicks": int(np.flatnonzero(histogram[:never]).max()),
        "seconds": round(time.perf_counter() - started, 2),
    }


def read_target_records(results: Path) -> list[dict]:
    """The records in a results file, in order; a last line cut short by an interrupted
    run is ignored (the target is searched again), and a later record of the same target
    replaces an earlier one."""
    records: dict[str, dict] = {}
    try:
        lines = Path(results).read_text().splitlines()
    except FileNotFoundError:
        return []
    except UnicodeDecodeError:
        raise BoardError(f"{results} is not a results file (not text): give a file of "
                         "target records, one JSON line each") from None
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
            records[record["target"]] = record
        except (ValueError, KeyError, TypeError):
            if number < len(lines):
                raise BoardError(f"{results}: line {number} is not a target record") from None
    return list(records.values())


def run_target_stats(results: Path, count: int, seed: int, progress: bool,
                     executor) -> tuple[int, int]:
    """The records of ``count`` random canonical 4×4 targets in the ``results`` file,
    searching those not there yet on ``executor``; each record is appended as it comes
    in, so an interrupted run resumes.  Returns (computed, skipped)."""
    rules = Tricolore(4, 4)
    results = Path(results)
    results.parent.mkdir(parents=True, exist_ok=True)
    done = {record["target"] for record in read_target_records(results)}
    if results.exists() and results.stat().st_size:
        with results.open("rb+") as handle:  # end the file with a whole line
            text = handle.read()
            if not text.endswith(b"\n"):
                last = text.rfind(b"\n") + 1
                try:
                    json.loads(text[last:])
                    handle.write(b"\n")
                except ValueError:  # cut short by an interrupted run: searched again
                    handle.truncate(last)
    targets = canonical_targets(rules, count, seed)
    todo = [t for t in targets if rules.format(t) not in done]
    computed = 0
    with results.open("a") as out:
        for record in executor.run(target_stats_task, [(t,) for t in todo],
                                   desc="4x4 targets", progress=progress):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            out.flush()
            computed += 1
    return computed, len(targets) - len(todo)


def stats_spec(results: Path = RESULTS_FILE) -> Table:
    """Every target record of the results file gathered into one table: target ranks,
    orbit sizes and click histograms (row per target, column per click count, the boards
    that never reach it in the last column)."""
    records = read_target_records(results)
    names = [record["target"] for record in records]

    def make(progress: bool) -> dict:
        rules = Tricolore(4, 4)
        histograms = np.zeros((len(records), UNREACHABLE + 1), np.int64)
        for row, record in enumerate(records):
            for clicks, boards in record["histogram"].items():
                histograms[row, int(clicks)] = boards
            histograms[row, -1] = record["unreachable"]
        return {"target": np.array([rules.parse(name) for name in names], np.int64),
                "orbit_size": np.array([r["orbit_size"] for r in records], np.int64),
                "boards": histograms}

    return Table(
        "tricolore", "4x4/target_stats", {"kind": "target_stats", "targets": names},
        make=make, read_whole=True,
        about="row per target: target (rank), orbit_size (boards in its symmetry orbit), "
              "boards[row, clicks] (boards that need that many clicks; the last column: "
              "never)")


def default_specs() -> list[Table]:
    """What `make tables` builds for Tricolore, in order (the decomposition sample reads
    the 4×2 tables and the applet's exact tables)."""
    return ([all_pairs_spec(4, 2, method) for method in METHODS]
            + [target_spec(board) for board in APPLET_TARGETS_4X4]
            + [decomposition_spec(list(APPLET_TARGETS_4X4)), reachability_spec()]
            + ([stats_spec()] if read_target_records(RESULTS_FILE) else []))
