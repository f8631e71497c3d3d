"""The DuckDB catalog ``data/catalog.duckdb``: per-pair tables and the views that
publish the documents' statistics, computed by SQL from the per-pair data.

The catalog is derived entirely from the zarr tables; it is rebuilt (into a
temporary file, then renamed) whenever the set of tables it was made from changes.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import numpy as np

from builder import store
from builder.puzzles.tricolore import METHODS, Tricolore

CATALOG_NAME = "catalog.duckdb"
CATALOG_FORMAT = 1
MAX_PAIRS_IN_CATALOG = 50_000_000
"""All-pairs tables larger than this (5×2 and up) stay in zarr only."""

TRICOLORE_VIEWS = """
CREATE VIEW tricolore_document_starts AS
SELECT width, height, board AS start FROM tricolore_boards WHERE mirror_canonical;

CREATE VIEW tricolore_click_distribution AS
WITH per_clicks AS (
    SELECT p.method, p.clicks, count(*) AS reached
    FROM tricolore_pairs p
    JOIN tricolore_document_starts s USING (width, height, start)
    WHERE p.width = 4 AND p.height = 2 AND p.clicks IS NOT NULL
    GROUP BY ALL
), starts AS (
    SELECT count(*) AS n FROM tricolore_document_starts WHERE width = 4 AND height = 2
), totals AS (
    SELECT method, sum(reached) AS total FROM per_clicks GROUP BY method
)
SELECT method, clicks, reached, round(reached / n, 1) AS average,
       round(100 * reached / total)::INTEGER AS percent
FROM per_clicks JOIN totals USING (method), starts
UNION ALL
SELECT method, NULL, total, round(total / n, 1), 100 FROM totals, starts
ORDER BY method, clicks NULLS LAST;

CREATE VIEW tricolore_click_summary AS
SELECT p.method, count(DISTINCT p.start) AS starts, count(*) AS reached,
       count(*) / count(DISTINCT p.start) AS reached_per_start,
       round(avg(p.clicks), 1) AS average_clicks, avg(p.clicks) AS exact_average_clicks
FROM tricolore_pairs p JOIN tricolore_document_starts s USING (width, height, start)
WHERE p.width = 4 AND p.height = 2 AND p.clicks IS NOT NULL
GROUP BY p.method ORDER BY p.method;

CREATE VIEW tricolore_click_cumulative AS
SELECT method, clicks, reached,
       round(100 * sum(reached) OVER (PARTITION BY method ORDER BY clicks)
             / sum(reached) OVER (PARTITION BY method), 2) AS percent_at_most
FROM tricolore_click_distribution WHERE clicks IS NOT NULL
ORDER BY method, clicks;

CREATE VIEW tricolore_start_distribution AS
SELECT p.method, b.notation AS start, p.clicks, count(*) AS targets
FROM tricolore_pairs p
JOIN tricolore_boards b ON b.width = p.width AND b.height = p.height AND b.board = p.start
WHERE p.width = 4 AND p.height = 2 AND p.clicks IS NOT NULL
GROUP BY ALL ORDER BY ALL;

CREATE VIEW tricolore_start_summary AS
SELECT p.method, b.notation AS start, b.mirror_canonical, count(*) AS reached,
       max(p.clicks) AS max_clicks, round(avg(p.clicks), 2) AS average_clicks
FROM tricolore_pairs p
JOIN tricolore_boards b ON b.width = p.width AND b.height = p.height AND b.board = p.start
WHERE p.width = 4 AND p.height = 2 AND p.clicks IS NOT NULL
GROUP BY ALL ORDER BY ALL;

CREATE VIEW tricolore_max_clicks_range AS
SELECT method, min(max_clicks) AS least_max_clicks, max(max_clicks) AS most_max_clicks
FROM tricolore_start_summary GROUP BY method ORDER BY method;

CREATE VIEW tricolore_target_summary AS
SELECT p.method, b.notation AS target,
       round(avg(p.clicks), 1) AS average, max(p.clicks) AS maximum,
       round(avg(p.clicks) FILTER (WHERE s.start IS NOT NULL), 1) AS average_document_starts,
       avg(p.clicks) AS exact_average,
       count(*) FILTER (WHERE p.clicks IS NULL) AS unreachable_starts
FROM tricolore_pairs p
JOIN tricolore_boards b ON b.width = p.width AND b.height = p.height AND b.board = p.target
LEFT JOIN tricolore_document_starts s
       ON s.width = p.width AND s.height = p.height AND s.start = p.start
WHERE p.width = 4 AND p.height = 2
GROUP BY ALL ORDER BY ALL;
"""


def catalog_path(data_dir: Path) -> Path:
    return Path(data_dir) / CATALOG_NAME


def _tricolore_sources(data_dir: Path) -> list[tuple[Path, dict]]:
    sources = []
    for path in sorted(Path(data_dir).glob("tricolore/*/*.zarr")):
        attributes = store.read_attributes(path)
        if attributes and attributes.get("complete") and attributes.get("puzzle") == "tricolore":
            if attributes.get("table_format") == store.TABLE_FORMAT:
                sources.append((path, attributes))
    return sources


def _source_stamp(sources: list[tuple[Path, dict]]) -> str:
    return ";".join(f"{p.parent.name}/{p.name}:{a['build_id']}" for p, a in sources) + (
        f"|format={CATALOG_FORMAT}"
    )


def catalog_is_current(data_dir: Path) -> bool:
    import duckdb

    path = catalog_path(data_dir)
    if not path.exists():
        return False
    try:
        with duckdb.connect(str(path), read_only=True) as con:
            (stamp,) = con.execute("SELECT stamp FROM catalog_info").fetchone()
    except duckdb.Error:
        return False
    return stamp == _source_stamp(_tricolore_sources(data_dir))


def refresh_catalog(data_dir: Path, force: bool = False) -> bool:
    """Rebuild the catalog if the tables changed; returns True if it was rebuilt."""
    import duckdb
    import zarr

    if not force and catalog_is_current(data_dir):
        return False
    sources = _tricolore_sources(data_dir)
    final = catalog_path(data_dir)
    staging = final.parent / f".{final.name}.building-{uuid.uuid4().hex[:8]}"
    try:
        con = duckdb.connect(str(staging))
        con.execute(
            "CREATE TABLE tricolore_boards (width UTINYINT, height UTINYINT, board INTEGER, "
            "notation VARCHAR, mirror_canonical BOOLEAN)"
        )
        con.execute(
            "CREATE TABLE tricolore_pairs (width UTINYINT, height UTINYINT, method VARCHAR, "
            "start INTEGER, target INTEGER, clicks UTINYINT)"
        )
        shapes_done = set()
        for path, attributes in sources:
            rules = Tricolore(attributes["width"], attributes["height"])
            if rules.n_boards**2 > MAX_PAIRS_IN_CATALOG:
                continue
            boards = rules.all_boards()
            if rules.shape_name not in shapes_done:
                shapes_done.add(rules.shape_name)
                board_frame = {
                    "width": np.full(rules.n_boards, rules.width, np.uint8),
                    "height": np.full(rules.n_boards, rules.height, np.uint8),
                    "board": boards.astype(np.int32),
                    "notation": rules.format_many(boards).astype(object),
                    "mirror_canonical": rules.mirror_canonical(boards),
                }
                con.register("board_frame", board_frame)
                con.execute("INSERT INTO tricolore_boards SELECT * FROM board_frame")
                con.unregister("board_frame")
            clicks = zarr.open_group(path, mode="r")["clicks"][...]
            n = rules.n_boards
            pair_frame = {
                "start": np.repeat(boards.astype(np.int32), n),
                "target": np.tile(boards.astype(np.int32), n),
                "clicks": clicks.reshape(-1),
            }
            con.register("pair_frame", pair_frame)
            con.execute(
                "INSERT INTO tricolore_pairs SELECT ?, ?, ?, start, target, "
                "CASE WHEN clicks = 255 THEN NULL ELSE clicks END FROM pair_frame",
                [rules.width, rules.height, attributes["method"]],
            )
            con.unregister("pair_frame")
        con.execute(TRICOLORE_VIEWS)
        con.execute("CREATE TABLE catalog_info AS SELECT ? AS stamp", [_source_stamp(sources)])
        con.close()
        os.replace(staging, final)
    finally:
        staging.unlink(missing_ok=True)
        Path(f"{staging}.wal").unlink(missing_ok=True)
    return True
