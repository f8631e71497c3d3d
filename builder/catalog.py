"""The DuckDB catalog ``data/catalog.duckdb``: per-pair tables and the views that
publish the documents' statistics, computed by SQL from the per-pair data.

The catalog is derived entirely from the zarr tables.  When only tables with a per-table
load change (a 4x4 target, a ball size: ``PER_TABLE_LOADS``) a copy of it is updated and
renamed into place; any other change rebuilds it whole (into a temporary file, then
renamed).  ``catalog_sources`` records what it was made from.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path

import numpy as np

from builder import store
from builder.puzzles.tricolore import Tricolore

CATALOG_NAME = "catalog.duckdb"
CATALOG_FORMAT = 8
MAX_PAIRS_IN_CATALOG = 50_000_000
"""All-pairs tables larger than this (5×2 and up) stay in zarr only."""

TRICOLORE_VIEWS = """
CREATE VIEW tricolore_document_starts AS
SELECT width, height, board AS start FROM tricolore_boards WHERE mirror_canonical;

-- Roll-ups of tricolore_pairs, made once by SQL so that the views below answer at once.
CREATE TABLE tricolore_start_clicks AS
SELECT width, height, method, start, clicks, count(*) AS targets
FROM tricolore_pairs GROUP BY ALL;

CREATE TABLE tricolore_target_clicks AS
SELECT p.width, p.height, p.method, p.target, p.clicks, count(*) AS starts,
       count(*) FILTER (WHERE b.mirror_canonical) AS document_starts
FROM tricolore_pairs p
JOIN tricolore_boards b ON b.width = p.width AND b.height = p.height AND b.board = p.start
GROUP BY ALL;

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
"""


TRICOLORE_4X4_VIEWS = """
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
"""


TARGET_STATS_VIEWS = """
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


def catalog_path(data_dir: Path) -> Path:
    return Path(data_dir) / CATALOG_NAME


def _tricolore_sources(data_dir: Path) -> list[tuple[Path, dict]]:
    sources = []
    for path in sorted(Path(data_dir).glob("tricolore/*/*.zarr")):
        attributes = store.read_attributes(path)
        if attributes and attributes.get("complete") and attributes.get("puzzle") == "tricolore":
            all_pairs = "kind" not in attributes and "target" not in attributes
            if all_pairs and attributes.get("table_format") == store.TABLE_FORMAT:
                sources.append((path, attributes))
    return sources


def _tricolore_4x4_sources(data_dir: Path) -> list[tuple[Path, dict]]:
    """Every other complete table of this format whose puzzle is registered: the ones
    with a load of their own below, and any plug-in's spec-built tables (which the generic
    views summarise with no load of their own)."""
    from builder.puzzles import registry

    known = {puzzle.name for puzzle in registry.PUZZLES}
    all_pairs = {path for path, _ in _tricolore_sources(data_dir)}
    sources = []
    for path in sorted(Path(data_dir).rglob("*.zarr")):
        if path in all_pairs or any(part.startswith(".") for part in
                                    path.relative_to(data_dir).parts):
            continue
        attributes = store.read_attributes(path)
        if (attributes and attributes.get("complete") and attributes.get("puzzle") in known
                and attributes.get("table_format") == store.TABLE_FORMAT):
            sources.append((path, attributes))
    return sources


def _target_stats_files(data_dir: Path) -> list[Path]:
    return sorted((Path(data_dir) / "tricolore" / "4x4" / "target_stats").glob("*.json"))


def _source_stamp(data_dir: Path, sources: list[tuple[Path, dict]]) -> str:
    return ";".join(f"{_source_key(data_dir, p)}:{a['build_id']}" for p, a in sources) + (
        f"|format={CATALOG_FORMAT}"
    )


@contextlib.contextmanager
def _staged_catalog(final: Path):
    """A temporary catalog file beside ``final``, renamed over it when the block ends
    without an error and removed (with its write-ahead log) whatever happens."""
    from builder import workspace

    staging = final.parent / f".{final.name}.building-{uuid.uuid4().hex[:8]}"
    log = Path(f"{staging}.wal")
    workspace.staging_started(staging)
    workspace.staging_started(log)
    try:
        yield staging
        os.replace(staging, final)
    finally:
        staging.unlink(missing_ok=True)
        log.unlink(missing_ok=True)
        workspace.staging_finished(staging)
        workspace.staging_finished(log)


def catalog_is_current(data_dir: Path) -> bool:
    import duckdb

    path = catalog_path(data_dir)
    if not path.exists():
        return False
    try:
        with duckdb.connect(str(path), read_only=True, config=dict(store.SEALED_CATALOG)) as con:
            (stamp,) = con.execute("SELECT stamp FROM catalog_info").fetchone()
    except duckdb.Error:
        return False
    expected = _source_stamp(data_dir, _tricolore_sources(data_dir)
                             + _tricolore_4x4_sources(data_dir))
    return stamp == f"{expected}|stats={len(_target_stats_files(data_dir))}"


def refresh_catalog(data_dir: Path, force: bool = False) -> bool:
    """Rebuild the catalog if the tables changed; returns True if it was rebuilt."""
    import duckdb
    import zarr

    if not force and catalog_is_current(data_dir):
        return False
    sources = _tricolore_sources(data_dir)
    sources_4x4 = _tricolore_4x4_sources(data_dir)
    for path, _ in sources + sources_4x4:  # statistics only from intact tables
        store.check_intact(path)
    stamp = (f"{_source_stamp(data_dir, sources + sources_4x4)}"
             f"|stats={len(_target_stats_files(data_dir))}")
    if not force and _refresh_incrementally(data_dir, sources + sources_4x4, stamp):
        return True
    with _staged_catalog(catalog_path(data_dir)) as staging:
        con = duckdb.connect(str(staging))
        con.execute(
            "CREATE TABLE tricolore_boards (width UTINYINT, height UTINYINT, board INTEGER, "
            "notation VARCHAR, mirror_canonical BOOLEAN)"
        )
        shapes_done = set()
        pair_tables = []
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
            pair_table = f"tricolore_pairs_{rules.shape_name}_{attributes['method']}"
            con.register("pair_frame", pair_frame)
            con.execute(
                f"CREATE TABLE {pair_table} AS SELECT ?::UTINYINT AS width, "
                "?::UTINYINT AS height, ?::VARCHAR AS method, start, target, "
                "nullif(clicks, 255)::UTINYINT AS clicks FROM pair_frame",
                [rules.width, rules.height, attributes["method"]],
            )
            con.unregister("pair_frame")
            pair_tables.append(pair_table)
        # One table per (shape, method) keeps each load a single fast CREATE TABLE AS;
        # the view is what users query.
        con.execute(
            "CREATE VIEW tricolore_pairs AS "
            + " UNION ALL ".join(f"SELECT * FROM {name}" for name in pair_tables)
            if pair_tables
            else "CREATE VIEW tricolore_pairs AS SELECT 0::UTINYINT AS width, "
            "0::UTINYINT AS height, ''::VARCHAR AS method, 0 AS start, 0 AS target, "
            "0::UTINYINT AS clicks WHERE false"
        )
        con.execute(TRICOLORE_VIEWS)
        _load_tricolore_4x4(con, sources_4x4)
        con.execute(TRICOLORE_4X4_VIEWS)
        _create_plugin_tables(con)
        for path, attributes in sources_4x4:
            _load_plugin_rows(con, _source_key(data_dir, path), path, attributes)
        _create_plugin_views(con)
        _load_distances(con, data_dir, sources + sources_4x4)
        stats_files = _target_stats_files(data_dir)
        _load_target_stats(con, stats_files)
        con.execute(TARGET_STATS_VIEWS)
        con.execute("CREATE TABLE catalog_info AS SELECT ? AS stamp", [stamp])
        import json

        con.execute("CREATE TABLE catalog_sources (source VARCHAR, build_id VARCHAR, "
                    "attributes VARCHAR)")
        recorded = [(_source_key(data_dir, path), attributes["build_id"], json.dumps(attributes))
                    for path, attributes in sources + sources_4x4]
        if recorded:  # a catalog of no table (only 4x4 statistics) is still a catalog
            con.executemany("INSERT INTO catalog_sources VALUES (?, ?, ?)", recorded)
        con.close()
    return True


def _load_tricolore_4x4(con, sources: list[tuple[Path, dict]]) -> None:
    """Per-target click histograms of the exact 4×4 tables, and the decomposition sample."""
    import zarr

    con.execute("CREATE TABLE tricolore_4x4_target_clicks "
                "(target VARCHAR, clicks UTINYINT, boards BIGINT)")
    con.execute("CREATE TABLE tricolore_4x4_targets (board BIGINT, notation VARCHAR)")
    con.execute(
        "CREATE TABLE tricolore_4x4_decomposition_sample (start BIGINT, target BIGINT, "
        "clicks UTINYINT, top UTINYINT, bottom UTINYINT, extension UTINYINT, "
        "exact UTINYINT, exact_job BOOLEAN)"
    )
    con.execute("CREATE TABLE tricolore_4x4_forward_search (start VARCHAR, boards BIGINT, "
                "unreached_boards BIGINT, unreached VARCHAR[])")
    for path, attributes in sources:
        group = zarr.open_group(path, mode="r")
        if attributes.get("kind") == "reachability":
            con.execute("INSERT INTO tricolore_4x4_forward_search VALUES (?, ?, ?, ?)",
                        [attributes["start"], attributes["boards"],
                         attributes["unreached_count"], attributes["unreached_boards"]])
            continue
        if attributes.get("kind") == "decomposition_sample":
            frame = {name: group[name][...] for name in
                     ("start", "target", "clicks", "top", "bottom", "extension", "exact")}
            frame["exact_job"] = np.arange(len(frame["start"])) >= attributes["random_pairs"]
            con.register("sample_frame", frame)
            con.execute("INSERT INTO tricolore_4x4_decomposition_sample SELECT start, target, "
                        "clicks, top, bottom, extension, nullif(exact, 255), exact_job "
                        "FROM sample_frame")
            con.unregister("sample_frame")
            continue
        if _is_target_table(attributes):
            _load_target_table(con, "", path, attributes)
        # any other table is a plug-in's spec-built one: the generic views cover it


def _load_target_table(con, key: str, path: Path, attributes: dict) -> None:
    """One exact single-target table's click histogram."""
    import zarr

    group = zarr.open_group(path, mode="r")
    rules = Tricolore(attributes["width"], attributes["height"])
    counts = np.bincount(group["clicks"][...], minlength=256)
    rows = [(attributes["target"], None if clicks == 255 else clicks, int(count))
            for clicks, count in enumerate(counts) if count]
    con.executemany("INSERT INTO tricolore_4x4_target_clicks VALUES (?, ?, ?)", rows)
    con.execute("INSERT INTO tricolore_4x4_targets VALUES (?, ?)",
                [rules.parse(attributes["target"]), attributes["target"]])


def _unload_target_table(con, key: str, attributes: dict) -> None:
    con.execute("DELETE FROM tricolore_4x4_target_clicks WHERE target = ?",
                [attributes["target"]])
    con.execute("DELETE FROM tricolore_4x4_targets WHERE notation = ?", [attributes["target"]])


def _is_target_table(attributes: dict) -> bool:
    return (attributes.get("puzzle") == "tricolore" and "target" in attributes
            and "kind" not in attributes)


def _plugin_of(attributes: dict):
    from builder.puzzles import registry

    try:
        return registry.by_name(attributes.get("puzzle", ""))
    except ValueError:
        return None


def _is_plugin_loaded(attributes: dict) -> bool:
    """A table made by the engine's build routine from a plug-in's spec, or one whose
    plug-in declares catalog tables: the catalog holds its rows of ``table_distances``
    and of the plug-in's own tables, each tagged with its source."""
    puzzle = _plugin_of(attributes)
    return bool(attributes.get("spec_built")) or bool(puzzle and puzzle.catalog_tables)


def _create_plugin_tables(con) -> None:
    from builder.puzzles import registry

    for puzzle in registry.PUZZLES:
        for table in puzzle.catalog_tables:
            con.execute(f"CREATE TABLE {table.name} ({table.columns}, source VARCHAR)")


def _create_plugin_views(con) -> None:
    from builder.puzzles import registry

    for puzzle in registry.PUZZLES:
        if puzzle.catalog_views:
            con.execute(puzzle.catalog_views)


def _load_plugin_rows(con, key: str, path: Path, attributes: dict) -> None:
    """The plug-in's catalog rows of one stored table, tagged with its source."""
    import zarr

    puzzle = _plugin_of(attributes)
    if puzzle is None or not puzzle.catalog_tables:
        return
    group = zarr.open_group(path, mode="r")
    declared = {table.name for table in puzzle.catalog_tables}
    for name, rows in puzzle.catalog_rows(attributes, lambda array: group[array][...]).items():
        if name not in declared:
            raise ValueError(f"{puzzle.name} gave rows for {name}, which is not one of its "
                             f"catalog tables ({', '.join(sorted(declared))})")
        if isinstance(rows, dict):
            frame = {**rows, "source": np.full(len(next(iter(rows.values()), [])), key,
                                               dtype=object)}
            con.register("plugin_frame", frame)
            con.execute(f"INSERT INTO {name} SELECT * FROM plugin_frame")
            con.unregister("plugin_frame")
        elif rows:
            marks = ", ".join("?" * (len(rows[0]) + 1))
            con.executemany(f"INSERT INTO {name} VALUES ({marks})",
                            [(*row, key) for row in rows])


def _unload_plugin_rows(con, key: str, attributes: dict) -> None:
    puzzle = _plugin_of(attributes)
    for table in puzzle.catalog_tables if puzzle else ():
        con.execute(f"DELETE FROM {table.name} WHERE source = ?", [key])


PER_TABLE_LOADS = (
    # (which tables, load one, unload one): a change to such tables alone updates the
    # catalog in place of rebuilding it (a new 4x4 target: seconds, not a minute)
    (_is_target_table, _load_target_table, _unload_target_table),
    (_is_plugin_loaded, _load_plugin_rows, _unload_plugin_rows),
)


def _load_target_stats(con, files: list[Path]) -> None:
    import json

    con.execute("CREATE TABLE tricolore_4x4_target_stats (target VARCHAR, orbit_size INTEGER, "
                "clicks UTINYINT, boards BIGINT)")
    rows = []
    for path in files:
        record = json.loads(path.read_text())
        rows += [(record["target"], record["orbit_size"], int(c), n)
                 for c, n in record["histogram"].items()]
    if rows:
        con.executemany("INSERT INTO tricolore_4x4_target_stats VALUES (?, ?, ?, ?)", rows)


GENERIC_VIEWS = """
CREATE VIEW distance_distribution AS
SELECT puzzle, variant, "table", distance, states FROM table_distances
ORDER BY puzzle, variant, "table", distance NULLS LAST;

CREATE VIEW table_summary AS
SELECT puzzle, variant, "table", sum(states) AS states,
       coalesce(sum(states) FILTER (WHERE distance IS NOT NULL), 0) AS reachable,
       max(distance) AS max_distance,
       sum(distance * states) FILTER (WHERE distance IS NOT NULL)
           / sum(states) FILTER (WHERE distance IS NOT NULL) AS mean_distance
FROM table_distances GROUP BY puzzle, variant, "table"
ORDER BY puzzle, variant, "table";
"""


def _source_key(data_dir: Path, path: Path) -> str:
    """A table's path under the data directory, e.g. ``tricolore/4x2/hybrid.zarr``."""
    return Path(path).relative_to(data_dir).as_posix()


def _load_distances(con, data_dir: Path, sources: list[tuple[Path, dict]]) -> None:
    """Every table's distance histogram, as its plug-in declares its distance arrays: the
    generic views ``distance_distribution`` and ``table_summary`` need no SQL of a
    puzzle's own."""
    con.execute('CREATE TABLE table_distances (source VARCHAR, puzzle VARCHAR, '
                'variant VARCHAR, "table" VARCHAR, distance INTEGER, states HUGEINT)')
    for path, attributes in sources:
        _load_distances_of(con, data_dir, path, attributes)
    con.execute(GENERIC_VIEWS)


def _load_distances_of(con, data_dir: Path, path: Path, attributes: dict) -> None:
    import zarr

    from builder.puzzles import registry

    try:
        puzzle = registry.by_name(attributes.get("puzzle", ""))
    except ValueError:
        return
    declared = puzzle.catalog_distances(attributes)
    if not declared:
        return
    group = zarr.open_group(path, mode="r")
    rows = []
    for spec in declared:
        values = group[spec.array][...].ravel()
        weights = group[spec.weights][...] if spec.weights else None
        lowest = int(values.min()) if values.size else 0
        # exact: counts stay far below 2**53 when weighted (float64 bincount)
        counts = np.bincount((values.astype(np.int64) - lowest), weights=weights)
        for offset in np.flatnonzero(counts):
            value = offset + lowest
            rows.append((_source_key(data_dir, path), puzzle.name, spec.variant, spec.table,
                         None if value == spec.never else int(value),
                         round(float(counts[offset]))))
    if rows:
        con.executemany("INSERT INTO table_distances VALUES (?, ?, ?, ?, ?, ?)", rows)


def _refresh_incrementally(data_dir: Path, sources: list[tuple[Path, dict]],
                           stamp: str) -> bool:
    """Update the catalog in place of rebuilding it when only tables with a per-table
    load changed (added, rebuilt or removed): a copy of the catalog is updated and renamed
    into place.  False when a rebuild is needed."""
    import json
    import shutil

    import duckdb

    final = catalog_path(data_dir)
    try:
        with duckdb.connect(str(final), read_only=True,
                            config=dict(store.SEALED_CATALOG)) as con:
            (old_stamp,) = con.execute("SELECT stamp FROM catalog_info").fetchone()
            recorded = {key: (build_id, json.loads(attributes)) for key, build_id, attributes
                        in con.execute("SELECT * FROM catalog_sources").fetchall()}
    except (duckdb.Error, TypeError, ValueError):
        return False
    if old_stamp.split("|", 1)[1:] != stamp.split("|", 1)[1:]:
        return False  # another catalog format, or the 4x4 statistics changed
    current = {_source_key(data_dir, path): (path, attributes) for path, attributes in sources}
    changed = {key for key in current.keys() | recorded.keys()
               if key not in recorded or key not in current
               or recorded[key][0] != current[key][1]["build_id"]}

    def loads_of(attributes: dict):
        return next((load for load in PER_TABLE_LOADS if load[0](attributes)), None)

    involved = [recorded[key][1] for key in changed if key in recorded] + [
        current[key][1] for key in changed if key in current]
    if not changed or not all(loads_of(attributes) for attributes in involved):
        return False
    with _staged_catalog(final) as staging:
        shutil.copyfile(final, staging)
        con = duckdb.connect(str(staging))
        for key in changed:
            if key in recorded:
                loads_of(recorded[key][1])[2](con, key, recorded[key][1])
                con.execute("DELETE FROM table_distances WHERE source = ?", [key])
                con.execute("DELETE FROM catalog_sources WHERE source = ?", [key])
            if key in current:
                path, attributes = current[key]
                loads_of(attributes)[1](con, key, path, attributes)
                _load_distances_of(con, data_dir, path, attributes)
                con.execute("INSERT INTO catalog_sources VALUES (?, ?, ?)",
                            [key, attributes["build_id"], json.dumps(attributes)])
        con.execute("UPDATE catalog_info SET stamp = ?", [stamp])
        con.close()
    return True
