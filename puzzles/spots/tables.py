"""Spot Colour's table (``spots/random_sets``, `builder spots`): how many solutions each of
many uniformly random disc sets has, dealt block by block from a seed; the catalog's
views over it.
"""

from __future__ import annotations

import numpy as np

from puzzles.spots.rules import random_sets

RANDOM_SETS = 1_000_000
"""Random disc sets `make tables` solves (spots_random_summary's sample)."""
SEED = 2026
BLOCK = 100_000
"""Sets dealt per seed: block b is ``random_sets(BLOCK, seed + b * BLOCK)``."""

VIEWS = """
-- share of random disc sets with at least one solution, with a 95 % Wilson interval
CREATE VIEW spots_random_summary AS
WITH counts AS (
    SELECT sum(sets)::DOUBLE AS n, sum(sets) FILTER (WHERE solutions > 0)::DOUBLE AS k
    FROM spots_solution_counts
), p AS (SELECT n, k, k / n AS share, 1.959963984540054 AS z FROM counts)
SELECT n::BIGINT AS sets, k::BIGINT AS solvable_sets, share,
       (share + z * z / (2 * n) - z * sqrt(share * (1 - share) / n + z * z / (4 * n * n)))
           / (1 + z * z / n) AS ci_low,
       (share + z * z / (2 * n) + z * sqrt(share * (1 - share) / n + z * z / (4 * n * n)))
           / (1 + z * z / n) AS ci_high
FROM p;

CREATE VIEW spots_solution_count_distribution AS
SELECT solutions, sets FROM spots_solution_counts ORDER BY solutions;
"""


def dealt_sets(indices: np.ndarray, seed: int, sets: int) -> np.ndarray:
    """Random sets ``indices`` (ascending) of a table of ``sets`` dealt from ``seed``."""
    chosen = []
    for first in np.unique(indices - indices % BLOCK):
        block = random_sets(min(BLOCK, sets - int(first)), seed + int(first))
        chosen.append(block[indices[(indices >= first) & (indices < first + BLOCK)] - first])
    return np.concatenate(chosen)


def solution_counts(sets: int, seed: int, progress: bool) -> dict[str, np.ndarray]:
    from tqdm import tqdm

    from puzzles.spots.search import count_solutions

    counts = [count_solutions(random_sets(min(BLOCK, sets - first), seed + first))
              for first in tqdm(range(0, sets, BLOCK), desc="spot colour sets", unit="block",
                                disable=not progress)]
    return {"solutions": np.concatenate(counts).astype(np.int32)}
