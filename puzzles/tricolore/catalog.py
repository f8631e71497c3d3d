"""Tricolore in the DuckDB catalog: the rows each stored table contributes (per-pair
clicks and their per-start and per-target roll-ups for small boards; click histograms of
exact 4×4 targets; the decomposition sample; the reachability search; the all-pairs
statistics) and the views that publish the document's tables from them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from builder.contract.base import CatalogTable, never_of
from builder.contract.counting import value_counts
from puzzles.tricolore.rules import UNREACHABLE, Tricolore

MAX_PAIRS_IN_CATALOG = 50_000_000
"""All-pairs tables larger than this (5×2 and up) stay in zarr only."""
ROWS_PER_BLOCK = 512
"""Starts rolled up at a time (bounds the memory of the roll-ups)."""
CLICKS_OR_NULL = f"nullif(clicks, {UNREACHABLE})"
"""A stored clicks column as SQL: NULL where the table stores "never"."""

TABLES = (
    CatalogTable("tricolore_table_boards", "width UTINYINT, height UTINYINT, board INTEGER, "
                 "notation VARCHAR, mirror_canonical BOOLEAN"),
    CatalogTable("tricolore_pairs", "width UTINYINT, height UTINYINT, method VARCHAR, "
                 "start INTEGER, target INTEGER, clicks UTINYINT",
                 select=f"width, height, method, start, target, {CLICKS_OR_NULL}",
                 per_source=True),
    CatalogTable("tricolore_start_clicks", "width UTINYINT, height UTINYINT, method VARCHAR, "
                 "start INTEGER, clicks UTINYINT, targets BIGINT",
                 select=f"width, height, method, start, {CLICKS_OR_NULL}, targets"),
    CatalogTable("tricolore_target_clicks", "width UTINYINT, height UTINYINT, "
                 "method VARCHAR, target INTEGER, clicks UTINYINT, starts BIGINT, "
                 "document_starts BIGINT",
                 select=f"width, height, method, target, {CLICKS_OR_NULL}, starts, "
                        "document_starts"),
    CatalogTable("tricolore_4x4_target_clicks", "target VARCHAR, clicks UTINYINT, "
                 "boards BIGINT"),
    CatalogTable("tricolore_4x4_targets", "board BIGINT, notation VARCHAR"),
    CatalogTable("tricolore_4x4_decomposition_sample",
                 "start BIGINT, target BIGINT, clicks UTINYINT, top UTINYINT, "
                 "bottom UTINYINT, extension UTINYINT, exact UTINYINT, exact_job BOOLEAN",
                 select="start, target, clicks, top, bottom, extension, "
                        f"nullif(exact, {UNREACHABLE}), exact_job"),
    CatalogTable("tricolore_4x4_forward_search", "start VARCHAR, boards BIGINT, "
                 "unreached_boards BIGINT, unreached VARCHAR[]"),
    CatalogTable("tricolore_4x4_target_stats", "target VARCHAR, orbit_size INTEGER, "
                 "clicks UTINYINT, boards BIGINT"),
)

VIEWS = """
-- The boards of every shape with an all-pairs table in the catalog (each of its tables
-- lists them: one row per board here).
CREATE VIEW tricolore_boards AS
SELECT DISTINCT width, height, board, notation, mirror_canonical FROM tricolore_table_boards;

CREATE VIEW tricolore_document_starts AS
SELECT width, height, board AS start FROM tricolore_boards WHERE mirror_canonical;

CREATE VIEW tricolore_click_distribution AS
WITH per_clicks AS (
    SELECT c.method, c.clicks, sum(c.targets)::BIGINT AS reached
    FROM tricolore_start_clicks c
    JOIN tricolore_document_starts s USING (width, height, start)
    WHERE c.width = 4 AND c.height = 2 AND c.clicks IS NOT NULL
    GROUP BY ALL
), starts AS (
    SELECT count(*) AS n FROM tricolore_document_starts WHERE width = 4 AND height = 2
), totals AS (
    SELECT method, sum(reached)::BIGINT AS total FROM per_clicks GROUP BY method
)
SELECT method, clicks, reached, round(reached / n, 1) AS average,
       round(100 * reached / total)::INTEGER AS percent
FROM per_clicks JOIN totals USING (method), starts
UNION ALL
SELECT method, NULL, total, round(total / n, 1), 100 FROM totals, starts
ORDER BY method, clicks NULLS LAST;

CREATE VIEW tricolore_click_summary AS
SELECT c.method, count(DISTINCT c.start) AS starts, sum(c.targets)::BIGINT AS reached,
       sum(c.targets) / count(DISTINCT c.start) AS reached_per_start,
       round(sum(c.clicks * c.targets) / sum(c.targets), 1) AS average_clicks,
       sum(c.clicks * c.targets) / sum(c.targets) AS exact_average_clicks
FROM tricolore_start_clicks c JOIN tricolore_document_starts s USING (width, height, start)
WHERE c.width = 4 AND c.height = 2 AND c.clicks IS NOT NULL
GROUP BY c.method ORDER BY c.method;

CREATE VIEW tricolore_click_cumulative AS
SELECT method, clicks, reached,
       round(100 * sum(reached) OVER (PARTITION BY method ORDER BY clicks)
             / sum(reached) OVER (PARTITION BY method), 2) AS percent_at_most
FROM tricolore_click_distribution WHERE clicks IS NOT NULL
ORDER BY method, clicks;

CREATE VIEW tricolore_start_distribution AS
SELECT c.method, b.notation AS start, c.clicks, c.targets
FROM tricolore_start_clicks c
JOIN tricolore_boards b ON b.width = c.width AND b.height = c.height AND b.board = c.start
WHERE c.width = 4 AND c.height = 2 AND c.clicks IS NOT NULL
ORDER BY c.method, b.notation, c.clicks;

CREATE VIEW tricolore_start_summary AS
SELECT c.method, b.notation AS start, b.mirror_canonical, sum(c.targets)::BIGINT AS reached,
       max(c.clicks) AS max_clicks,
       round(sum(c.clicks * c.targets) / sum(c.targets), 2) AS average_clicks
FROM tricolore_start_clicks c
JOIN tricolore_boards b ON b.width = c.width AND b.height = c.height AND b.board = c.start
WHERE c.width = 4 AND c.height = 2 AND c.clicks IS NOT NULL
GROUP BY ALL ORDER BY c.method, b.notation;

CREATE VIEW tricolore_max_clicks_range AS
SELECT method, min(max_clicks) AS least_max_clicks, max(max_clicks) AS most_max_clicks
FROM tricolore_start_summary GROUP BY method ORDER BY method;

-- average: over all 6561 starts; average_document_starts: over the 3321 mirror-canonical
-- starts, the population the document's "reversed" table was compiled over.
CREATE VIEW tricolore_target_summary AS
SELECT c.method, b.notation AS target,
       round(sum(c.clicks * c.starts) / sum(c.starts), 1) AS average,
       max(c.clicks) AS maximum,
       round(sum(c.clicks * c.document_starts) / sum(c.document_starts), 1)
           AS average_document_starts,
       sum(c.clicks * c.starts) / sum(c.starts) AS exact_average,
       coalesce(sum(c.starts) FILTER (WHERE c.clicks IS NULL), 0)::BIGINT AS unreachable_starts
FROM tricolore_target_clicks c
JOIN tricolore_boards b ON b.width = c.width AND b.height = c.height AND b.board = c.target
WHERE c.width = 4 AND c.height = 2
GROUP BY ALL ORDER BY c.method, b.notation;

CREATE VIEW tricolore_4x4_distribution AS
SELECT target, clicks, boards FROM tricolore_4x4_target_clicks WHERE clicks IS NOT NULL
ORDER BY target, clicks;

CREATE VIEW tricolore_4x4_summary AS
SELECT target, sum(boards)::BIGINT AS boards,
       coalesce(sum(boards) FILTER (WHERE clicks IS NULL), 0)::BIGINT AS unreachable,
       max(clicks) AS max_clicks,
       round(sum(clicks * boards) / sum(boards) FILTER (WHERE clicks IS NOT NULL), 3)
           AS mean_clicks
FROM tricolore_4x4_target_clicks GROUP BY target ORDER BY target;

-- "Only all blue is unreachable": every board reaches the forward search's start (its
-- exact table has no unreachable board) and the start reaches every board but these.
CREATE VIEW tricolore_4x4_reachability AS
SELECT f.start, f.boards, f.unreached_boards AS boards_the_start_never_reaches, f.unreached,
       s.unreachable AS boards_that_never_reach_the_start,
       (s.unreachable = 0) AS claim_checked
FROM tricolore_4x4_forward_search f
LEFT JOIN tricolore_4x4_summary s ON s.target = f.start;

CREATE VIEW tricolore_4x4_decomposition_distribution AS
SELECT clicks, count(*) AS pairs, round(100 * count(*) / sum(count(*)) OVER (), 2) AS percent
FROM tricolore_4x4_decomposition_sample WHERE NOT exact_job GROUP BY clicks ORDER BY clicks;

CREATE VIEW tricolore_4x4_decomposition_summary AS
SELECT count(*) AS pairs, max(clicks) AS max_clicks, round(avg(clicks), 3) AS mean_clicks,
       round(avg((clicks <= 16)::INTEGER), 4) AS share_at_most_16,
       count(*) FILTER (WHERE extension > 0) AS border_extensions,
       12.9 AS document_mean_estimate, 0.94 AS document_share_estimate, 23 AS document_bound
FROM tricolore_4x4_decomposition_sample WHERE NOT exact_job;

CREATE VIEW tricolore_4x4_exact_vs_decomposition AS
SELECT b.notation AS target, count(*) AS starts,
       round(avg(d.exact), 3) AS mean_exact, round(avg(d.clicks), 3) AS mean_decomposition,
       max(d.exact) AS max_exact, max(d.clicks) AS max_decomposition,
       count(*) FILTER (WHERE d.clicks < d.exact) AS decomposition_shorter,
       count(*) FILTER (WHERE d.clicks = d.exact) AS decomposition_optimal
FROM tricolore_4x4_decomposition_sample d
JOIN tricolore_4x4_targets b ON b.board = d.target
WHERE d.exact_job GROUP BY b.notation ORDER BY b.notation;

-- Estimate of the 4×4 all-pairs distribution from the random canonical targets computed so
-- far: each target's share of starts at each click count, averaged over targets, with a
-- 95 % normal interval over targets.
CREATE VIEW tricolore_4x4_pairs_estimate AS
WITH targets AS (SELECT DISTINCT target FROM tricolore_4x4_target_stats),
clicks AS (SELECT DISTINCT clicks FROM tricolore_4x4_target_stats),
shares AS (
    SELECT t.target, c.clicks, coalesce(s.boards, 0) / 43046721 AS share
    FROM targets t CROSS JOIN clicks c
    LEFT JOIN tricolore_4x4_target_stats s ON s.target = t.target AND s.clicks = c.clicks
)
SELECT clicks, count(*) AS targets, avg(share) AS share,
       greatest(avg(share) - 1.96 * coalesce(stddev_samp(share), 0) / sqrt(count(*)), 0)
           AS ci_low,
       avg(share) + 1.96 * coalesce(stddev_samp(share), 0) / sqrt(count(*)) AS ci_high
FROM shares GROUP BY clicks ORDER BY clicks;

CREATE VIEW tricolore_4x4_hardest_targets AS
SELECT target, orbit_size, max(clicks) AS max_clicks,
       round(sum(clicks * boards) / sum(boards), 3) AS mean_clicks,
       arg_max(boards, clicks) AS boards_at_max
FROM tricolore_4x4_target_stats GROUP BY target, orbit_size
ORDER BY max_clicks DESC, mean_clicks DESC;
"""


def _histograms(clicks: np.ndarray) -> np.ndarray:
    """(rows, 256): how many entries of each row of ``clicks`` hold each value, a block
    of rows at a time."""
    rows = clicks.shape[0]
    result = np.zeros((rows, 256), np.int64)
    for first in range(0, rows, ROWS_PER_BLOCK):
        block = clicks[first:first + ROWS_PER_BLOCK].astype(np.int64)
        index = (np.arange(len(block))[:, None] * 256 + block).ravel()
        result[first:first + len(block)] = np.bincount(
            index, minlength=len(block) * 256).reshape(len(block), 256)
    return result


def _frame(histograms: np.ndarray, names: tuple[str, str, str], **constants: Any
           ) -> dict[str, Any]:
    """Columns (constants..., row, value, count: as ``names`` says) of the non-zero cells
    of histograms; a constant is given once for every row."""
    rows, values = np.nonzero(histograms)
    return {**constants, names[0]: rows.astype(np.int32), names[1]: values.astype(np.uint8),
            names[2]: histograms[rows, values]}


def rows(attributes: dict, read: Callable[[str], Any]) -> dict[str, list | dict]:
    """The catalog rows of one stored Tricolore table."""
    kind = attributes.get("kind")
    if kind == "reachability":
        return {"tricolore_4x4_forward_search": [(
            attributes["start"], attributes["boards"], attributes["unreached_count"],
            attributes["unreached_boards"])]}
    if kind == "decomposition_sample":
        frame = {name: read(name) for name in
                 ("start", "target", "clicks", "top", "bottom", "extension", "exact")}
        frame["exact_job"] = np.arange(len(frame["start"])) >= attributes["random_pairs"]
        return {"tricolore_4x4_decomposition_sample": frame}
    if kind == "target_stats":
        boards = read("boards")
        rows, clicks = np.nonzero(boards[:, :-1])  # the last column: never
        return {"tricolore_4x4_target_stats": {
            "target": Tricolore(4, 4).format_many(read("target")[rows]).astype(object),
            "orbit_size": read("orbit_size")[rows].astype(np.int32),
            "clicks": clicks.astype(np.uint8), "boards": boards[rows, clicks]}}
    rules = Tricolore(attributes["width"], attributes["height"])
    if "target" in attributes:
        stored = read("clicks")
        counts, never = value_counts(stored), never_of(stored)
        return {"tricolore_4x4_target_clicks": [
                    (attributes["target"], None if clicks == never else int(clicks),
                     int(count))
                    for clicks, count in enumerate(counts) if count],
                "tricolore_4x4_targets": [(rules.parse(attributes["target"]),
                                           attributes["target"])]}
    if rules.n_boards**2 > MAX_PAIRS_IN_CATALOG:
        return {}
    return _all_pairs_rows(rules, attributes["method"], read("clicks"))


def _all_pairs_rows(rules: Tricolore, method: str, clicks: np.ndarray) -> dict:
    boards = rules.all_boards()
    n = rules.n_boards
    shape = {"width": rules.width, "height": rules.height}
    mirror_canonical = rules.mirror_canonical(boards)
    starts = _frame(_histograms(clicks), ("start", "clicks", "targets"), **shape,
                    method=method)
    per_target = _histograms(clicks.T)
    document = _histograms(clicks[mirror_canonical].T)  # the document's starts only
    targets = _frame(per_target, ("target", "clicks", "starts"), **shape, method=method)
    targets["document_starts"] = document[targets["target"], targets["clicks"]]
    return {
        "tricolore_table_boards": {
            **shape,
            "board": boards.astype(np.int32),
            "notation": rules.format_many(boards).astype(object),
            "mirror_canonical": mirror_canonical},
        "tricolore_pairs": {
            **shape, "method": method,
            "start": np.repeat(boards.astype(np.int32), n),
            "target": np.tile(boards.astype(np.int32), n),
            "clicks": clicks.reshape(-1)},
        "tricolore_start_clicks": starts,
        "tricolore_target_clicks": targets,
    }
