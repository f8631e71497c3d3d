"""Building tables: run a puzzle's search kernel and publish its arrays atomically.

Owns the choice of kernel per puzzle, the array names and chunking of each table,
and the skip-if-current logic that makes re-running ``make tables`` cheap.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from builder import store
from builder.puzzles.tricolore import METHODS, Tricolore, check_method

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


def build_tricolore(
    data_dir: Path,
    width: int = 4,
    height: int = 2,
    method: str = "unrestricted",
    force: bool = False,
    progress: bool = True,
) -> BuildResult:
    """Build (or reuse, if current) the all-pairs table of one shape and method.

    Batches of target columns are written to zarr as they are computed, so memory
    stays at a few batches whatever the board size.
    """
    rules = Tricolore(width, height)
    check_method(method)
    path = tricolore_table_path(data_dir, rules, method)
    identity = {"puzzle": "tricolore", "width": width, "height": height, "method": method}
    if not force and store.is_current(path, identity):
        return BuildResult(path, built=False, seconds=0.0)
    started = time.perf_counter()
    n = rules.n_boards
    max_clicks = 0
    with store.publishing(path) as staging:
        writer = store.TableWriter(
            staging,
            {name: ((n, n), np.uint8, (n, TRICOLORE_COLUMNS_PER_CHUNK)) for name in
             TRICOLORE_ARRAYS},
            {**identity, "rules": TRICOLORE_RULES, "encoding": TRICOLORE_ENCODING,
             "unreachable": 255},
        )
        for first, blocks in tricolore_batches(rules, method, progress):
            for name, block in zip(TRICOLORE_ARRAYS, blocks):
                writer.write(name, (slice(None), slice(first, first + block.shape[1])), block)
            reached = blocks[0][blocks[0] != 255]
            max_clicks = max(max_clicks, int(reached.max()) if reached.size else 0)
        writer.finish(max_clicks=max_clicks, seconds=round(time.perf_counter() - started, 3))
    return BuildResult(path, built=True, seconds=time.perf_counter() - started)


def build_tricolore_methods(
    data_dir: Path, width: int = 4, height: int = 2, force: bool = False, progress: bool = True
) -> list[BuildResult]:
    return [build_tricolore(data_dir, width, height, m, force, progress) for m in METHODS]
