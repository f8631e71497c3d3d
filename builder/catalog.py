"""The DuckDB catalog ``data/catalog.duckdb``: the rows every stored table contributes
(its distance histograms for the generic views, and whatever its plug-in derives from it
for its own views) and the views that publish the documents' statistics.

The catalog is derived entirely from the zarr tables, and every row in it is tagged with
the table it came from: when tables change, a copy of the catalog has those tables' rows
replaced and is renamed into place; a change of catalog format rebuilds it whole (into a
temporary file, then renamed).  ``catalog_sources`` records what it was made from.
Names no puzzle: plug-ins declare their catalog tables, rows and views.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from builder import store
from builder.contract.counting import value_counts
from builder.contract.errors import OneLineError
from builder.contract.puzzle import Cataloguing

CATALOG_NAME = "catalog.duckdb"
CATALOG_FORMAT = 10
QUIET = "SET enable_progress_bar = false"
"""DuckDB draws no bars of its own while the catalog is written (builder shows its own)."""


def catalog_path(data_dir: Path) -> Path:
    return Path(data_dir) / CATALOG_NAME


def _sources(data_dir: Path) -> list[tuple[Path, dict]]:
    """Every complete table of this format whose puzzle is registered."""
    from builder import registry

    known = {puzzle.name for puzzle in registry.PUZZLES}
    sources = []
    for path in table_directories(Path(data_dir)):
        attributes = store.read_attributes(path)
        if (attributes and attributes.get("complete") and attributes.get("puzzle") in known
                and attributes.get("table_format") == store.TABLE_FORMAT):
            sources.append((path, attributes))
    return sources


class UnreadableFolderError(OneLineError):
    """A folder of the data directory that cannot be listed: its tables are neither loaded
    nor dropped from the catalog."""


def table_directories(data_dir: Path) -> list[Path]:
    """Every ``*.zarr`` directory under ``data_dir`` outside hidden ones (staging), sorted;
    the walk does not enter them (a table's chunk folders hold thousands of files).
    Symlinked folders are followed (tables kept on another disk), each real folder once;
    a folder that cannot be read is an error, never a reason to forget its tables."""
    def unreadable(error: OSError) -> None:
        raise UnreadableFolderError(f"cannot read {error.filename} "
                                    f"({error.strerror or error}): its tables would be "
                                    "missed; fix its permissions or link") from None

    found = []
    seen: set[str] = set()
    for folder, subfolders, _ in os.walk(data_dir, onerror=unreadable, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:  # a link back up the tree
            subfolders.clear()
            continue
        seen.add(real)
        for name in list(subfolders):
            if name.startswith(".") or name.endswith(".zarr"):
                subfolders.remove(name)
                if not name.startswith("."):
                    found.append(Path(folder) / name)
    return sorted(found)


def _source_stamp(data_dir: Path, sources: list[tuple[Path, dict]]) -> str:
    return ";".join(f"{_source_key(data_dir, p)}:{a['build_id']}" for p, a in sources) + (
        f"|format={CATALOG_FORMAT}"
    )


@contextlib.contextmanager
def _staged_catalog(final: Path):
    """A temporary catalog file beside ``final``, renamed over it when the block ends
    without an error and removed (with its write-ahead log) whatever happens."""
    from builder import workspace

    staging = workspace.staging_name(final)
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
    return stamp == _source_stamp(data_dir, _sources(data_dir))


def refresh_catalog(data_dir: Path, force: bool = False) -> bool:
    """Bring the catalog up to date with the tables; returns True if it changed."""
    if not force and catalog_is_current(data_dir):
        return False
    sources = _sources(data_dir)
    stamp = _source_stamp(data_dir, sources)
    if not force and _refresh_incrementally(data_dir, sources, stamp):
        return True
    for path, _ in sources:  # statistics only from intact tables
        store.check_intact(path)
    with _staged_catalog(catalog_path(data_dir)) as staging:
        write_catalog(data_dir, sources, stamp, staging)
        check_staged(staging, sources, stamp)
    return True


def bring_up_to_date(data_dir: Path) -> None:
    """The catalog brought up to date before it is read, where the tables it was made from
    are no longer what it holds: a plug-in installed or removed, a puzzle file defined or
    forgotten (its rows belong only to puzzles that are known now).  A data directory a
    builder holds is read as it stands (the builder refreshes the catalog as it ends); one
    that cannot be written, with a warning."""
    import sys

    import duckdb

    from builder import workspace

    try:
        with duckdb.connect(str(catalog_path(data_dir)), read_only=True,
                            config=dict(store.SEALED_CATALOG)) as con:
            (stamp,) = con.execute("SELECT stamp FROM catalog_info").fetchone()
    except (duckdb.Error, TypeError):
        return  # a damaged catalog is named by its reader, never rebuilt behind its back
    if stamp == _source_stamp(data_dir, _sources(data_dir)):
        return
    if not os.access(data_dir, os.W_OK):
        print(f"warning: the catalog of {data_dir} is out of date and the folder cannot be "
              "written: its views may list puzzles no longer installed (`builder catalog` "
              "where it can be written)", file=sys.stderr)
        return
    try:
        with workspace.holding(data_dir, "catalog refresh before a read"):
            refresh_catalog(data_dir)
    except workspace.DataDirectoryError:
        pass  # a builder holds the folder: it refreshes the catalog as it ends


def write_fresh_catalog(data_dir: Path, destination: Path) -> None:
    """A whole catalog of the data directory's tables as they are now, at ``destination``
    (`builder verify` compares the catalog in place with it)."""
    sources = _sources(data_dir)
    write_catalog(data_dir, sources, _source_stamp(data_dir, sources), destination)


def write_catalog(data_dir: Path, sources: list[tuple[Path, dict]], stamp: str,
                  destination: Path) -> None:
    """A whole catalog of these tables, written to ``destination`` (a new file)."""
    import duckdb

    con = duckdb.connect(str(destination))
    try:
        con.execute(QUIET)
        _create_plugin_tables(con)
        con.execute('CREATE TABLE table_distances (source VARCHAR, puzzle VARCHAR, '
                    'variant VARCHAR, "table" VARCHAR, distance INTEGER, states HUGEINT)')
        con.execute("CREATE TABLE catalog_sources (source VARCHAR, build_id VARCHAR, "
                    "attributes VARCHAR)")
        for path, attributes in sources:
            _load_source(con, data_dir, path, attributes)
        _create_plugin_views(con)
        con.execute(GENERIC_VIEWS)
        con.execute("CREATE TABLE catalog_info AS SELECT ? AS stamp", [stamp])
        con.execute("CHECKPOINT")
    finally:
        con.close()


class CatalogNotReplacedError(OneLineError):
    """A staged catalog that failed its check; the catalog in place was kept."""


def check_staged(staging: Path, sources: list[tuple[Path, dict]], stamp: str) -> None:
    """A staged catalog, read back from disk before it replaces the one in place: it holds
    every table it was made from, its stamp, and every view answers.  A failure (a full
    disk, a write that did not land) keeps the old catalog."""
    import duckdb

    try:
        with duckdb.connect(str(staging), read_only=True,
                            config=dict(store.SEALED_CATALOG)) as con:
            (count,) = con.execute("SELECT count(*) FROM catalog_sources").fetchone()
            (found,) = con.execute("SELECT stamp FROM catalog_info").fetchone()
            views = [name for (name,) in con.execute(
                "SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()]
            for view in views:
                con.execute(f'SELECT count(*) FROM "{view}"').fetchone()
    except (duckdb.Error, TypeError) as error:
        reason = (str(error).splitlines() or [type(error).__name__])[0][:150]
        raise CatalogNotReplacedError(f"the new catalog could not be read back ({reason}); "
                                      "the previous catalog is kept") from None
    if count != len(sources) or found != stamp:
        raise CatalogNotReplacedError(f"the new catalog holds {count} of {len(sources)} "
                                      "tables; the previous catalog is kept")


def _load_source(con, data_dir: Path, path: Path, attributes: dict) -> None:
    """Every row one stored table contributes, tagged with its source.  Each array is read
    once (read-only), for the plug-in's rows and the distance histograms alike."""
    import functools

    import zarr

    from builder.reader import read_whole

    key = _source_key(data_dir, path)
    puzzle = _plugin_of(attributes)
    if puzzle is not None:
        @functools.cache
        def read(array: str) -> np.ndarray:
            values = read_whole(path / array)  # zarr reads many small chunks slowly
            if values is None:
                values = zarr.open_array(path / array, mode="r")[...]
            values.flags.writeable = False
            return values

        _load_plugin_rows(con, key, puzzle, attributes, read)
        _load_distances_of(con, key, puzzle, attributes, read)
    con.execute("INSERT INTO catalog_sources VALUES (?, ?, ?)",
                [key, attributes["build_id"], json.dumps(attributes)])


def _unload_source(con, key: str, attributes: dict) -> None:
    _unload_plugin_rows(con, key, attributes)
    for table in ("table_distances", "catalog_sources"):
        con.execute(f"DELETE FROM {table} WHERE source = ?", [key])


def _plugin_of(attributes: dict):
    from builder import registry

    try:
        return registry.by_name(attributes.get("puzzle", ""))
    except ValueError:
        return None


def _create_plugin_tables(con) -> None:
    from builder import registry

    con.execute("CREATE TABLE catalog_parts (name VARCHAR, part VARCHAR, source VARCHAR, "
                "constants VARCHAR)")
    for puzzle in registry.PUZZLES:
        for table in Cataloguing.of(puzzle).catalog_tables:
            if table.per_source:
                con.execute(f"CREATE TABLE {table.name}__empty ({table.columns})")
                _create_union(con, table.name)
            else:
                con.execute(f"CREATE TABLE {table.name} ({table.columns}, source VARCHAR)")


def _create_union(con, name: str) -> None:
    """The view ``name`` over the per-source tables of a ``per_source`` catalog table; the
    columns each source has one value for come from its ``catalog_parts`` row."""
    types = dict(_declared_columns(con, name))
    parts = con.execute("SELECT part, source, constants FROM catalog_parts WHERE name = ? "
                        "ORDER BY part", [name]).fetchall()
    branches = [f"SELECT *, NULL::VARCHAR AS source FROM {name}__empty"]
    for part, source, constants in parts:
        constants = json.loads(constants)
        selected = [f"{_sql_literal(constants[column])}::{types[column]} AS \"{column}\""
                    if column in constants else f'"{column}"' for column in types]
        branches.append(f"SELECT {', '.join(selected)}, {_sql_literal(source)} AS source "
                        f"FROM {part}")
    con.execute(f"CREATE OR REPLACE VIEW {name} AS " + " UNION ALL ".join(branches))


def _declared_columns(con, name: str) -> list[tuple[str, str]]:
    """(column, SQL type) of a ``per_source`` catalog table, in order."""
    return con.execute(f"SELECT column_name, column_type FROM (DESCRIBE {name}__empty)"
                       ).fetchall()


def _sql_literal(value) -> str:
    """A plain value (None, bool, int, float or str) written as SQL."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    raise ValueError(f"a catalog constant must be a plain value, not {type(value).__name__}")


def _part_name(name: str, key: str) -> str:
    import hashlib

    return f"{name}__{hashlib.sha1(key.encode()).hexdigest()[:12]}"


def _create_plugin_views(con) -> None:
    from builder import registry

    for puzzle in registry.PUZZLES:
        if Cataloguing.of(puzzle).catalog_views:
            con.execute(Cataloguing.of(puzzle).catalog_views)


def _load_plugin_rows(con, key: str, puzzle, attributes: dict,
                      read: Callable[[str], np.ndarray]) -> None:
    """The plug-in's catalog rows of one stored table, tagged with its source."""
    if not Cataloguing.of(puzzle).catalog_tables:
        return
    declared = {table.name: table for table in Cataloguing.of(puzzle).catalog_tables}
    for name, rows in Cataloguing.of(puzzle).catalog_rows(attributes, read).items():
        if name not in declared:
            raise ValueError(f"{puzzle.name} gave rows for {name}, which is not one of its "
                             f"catalog tables ({', '.join(sorted(declared))})")
        if isinstance(rows, dict):
            _insert_columns(con, declared[name], rows, key)
        elif rows:
            if declared[name].per_source:
                raise ValueError(f"{name}: give the rows of a per-source catalog table as "
                                 "columns")
            _insert_rows(con, name, [(*row, key) for row in rows])


ROWS_PER_INSERT = 1000
"""Rows bound into one INSERT statement (executemany runs one statement per row, about
six times slower)."""


def _insert_rows(con, name: str, rows: list[tuple]) -> None:
    """Rows given as tuples of plain values (lists and None included) into table ``name``."""
    marks = "(" + ", ".join("?" * len(rows[0])) + ")"
    for first in range(0, len(rows), ROWS_PER_INSERT):
        batch = rows[first:first + ROWS_PER_INSERT]
        con.execute(f"INSERT INTO {name} VALUES {', '.join([marks] * len(batch))}",
                    [value for row in batch for value in row])


def _unload_plugin_rows(con, key: str, attributes: dict) -> None:
    puzzle = _plugin_of(attributes)
    if puzzle is None:
        _unload_rows_of_a_missing_plugin(con, key)
        return
    for table in Cataloguing.of(puzzle).catalog_tables:
        if table.per_source:
            part = _part_name(table.name, key)
            found = con.execute("DELETE FROM catalog_parts WHERE part = ? RETURNING part",
                                [part]).fetchall()
            if found:
                _create_union(con, table.name)
                con.execute(f"DROP TABLE IF EXISTS {part}")
        else:
            con.execute(f"DELETE FROM {table.name} WHERE source = ?", [key])


def _unload_rows_of_a_missing_plugin(con, key: str) -> None:
    """The rows of ``key`` in a plug-in's own catalog tables when the plug-in cannot be
    loaded now (uninstalled, or failing to import): found by their ``source`` column in
    every base table, since no plug-in names its tables; else they would stay, and be
    loaded a second time when the plug-in returns."""
    for name, part in con.execute("SELECT name, part FROM catalog_parts WHERE source = ?",
                                  [key]).fetchall():
        con.execute("DELETE FROM catalog_parts WHERE part = ?", [part])
        _create_union(con, name)
        con.execute(f"DROP TABLE IF EXISTS {part}")
    engine_tables = ("table_distances", "catalog_sources", "catalog_parts")
    for (name,) in con.execute(
            "SELECT table_name FROM information_schema.columns JOIN information_schema.tables"
            " USING (table_catalog, table_schema, table_name) WHERE column_name = 'source'"
            " AND table_type = 'BASE TABLE'").fetchall():
        if name not in engine_tables:
            con.execute(f'DELETE FROM "{name}" WHERE source = ?', [key])


def _insert_columns(con, table, columns: dict, key: str) -> None:
    """Rows given as numpy columns (a plain value: the same for every row), through the
    table's select list, with ``source`` last."""
    arrays = {name: values for name, values in columns.items()
              if isinstance(values, np.ndarray)}
    constants = [values for name, values in columns.items() if name not in arrays]
    inner = ", ".join(f'"{name}"' if name in arrays else f'? AS "{name}"' for name in columns)
    con.register("plugin_frame", arrays)
    try:
        if table.per_source:
            _insert_part(con, table, inner, constants,
                         [name for name in columns if name not in arrays], key)
        else:
            con.execute(f"INSERT INTO {table.name} SELECT {table.select}, ? FROM "
                        f"(SELECT {inner} FROM plugin_frame)", [key, *constants])
    finally:
        con.unregister("plugin_frame")


def _insert_part(con, table, inner: str, constants: list, constant_names: list[str],
                 key: str) -> None:
    """One stored table's rows of a ``per_source`` catalog table, into a DuckDB table of
    their own.  A column given as a plain value is stored once (in ``catalog_parts``, for
    the view): DuckDB takes about as long to store a repeated constant column as the
    columns that vary."""
    described = _declared_columns(con, table.name)
    selected = f"(SELECT {table.select} FROM (SELECT {inner} FROM plugin_frame))"
    fixed = [position for position, (column, _) in enumerate(described, 1)
             if column in constant_names]
    if len(fixed) == len(described):  # a table needs a column of its own
        fixed = fixed[1:]
    values = (con.execute(f"SELECT {', '.join(f'#{p}' for p in fixed)} FROM {selected} "
                          "LIMIT 1", constants).fetchone() if fixed else None
              ) or [None] * len(fixed)  # no rows: no values to keep
    varying = [(position, column, kind) for position, (column, kind) in enumerate(described, 1)
               if position not in fixed]
    part = _part_name(table.name, key)
    definitions = ", ".join(f'"{column}" {kind}' for _, column, kind in varying)
    con.execute(f"CREATE TABLE {part} ({definitions})")
    con.execute(f"INSERT INTO {part} SELECT {', '.join(f'#{p}' for p, _, _ in varying)} "
                f"FROM {selected}", constants)
    fixed_values = {described[position - 1][0]: value for position, value in zip(fixed, values)}
    con.execute("INSERT INTO catalog_parts VALUES (?, ?, ?, ?)",
                [table.name, part, key, json.dumps(fixed_values)])
    _create_union(con, table.name)


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
    """A table's path under the data directory, e.g. ``NAME/SHAPE/TABLE.zarr``."""
    return Path(path).relative_to(data_dir).as_posix()


def _load_distances_of(con, key: str, puzzle, attributes: dict,
                       read: Callable[[str], np.ndarray]) -> None:
    """The distance histograms of the arrays the plug-in declares (the generic views)."""
    declared = Cataloguing.of(puzzle).catalog_distances(attributes)
    if not declared:
        return
    columns: dict[str, list] = {name: [] for name in ("variant", "table", "distance", "never",
                                                      "states")}
    for spec in declared:
        values = read(spec.array).ravel()
        weights = read(spec.weights) if spec.weights else None
        # unsigned values count as they are; others from their least (bincount's domain)
        unsigned = values.dtype.kind == "u"
        lowest = 0 if unsigned or not values.size else int(values.min())
        # exact: counts stay far below 2**53 when weighted (float64 bincount)
        counts = (value_counts(values) if unsigned and weights is None else
                  np.bincount(values if unsigned else values.astype(np.int64) - lowest,
                              weights=weights))
        offsets = np.flatnonzero(counts)
        distances = offsets.astype(np.int64) + lowest
        columns["variant"].append(np.full(len(offsets), spec.variant, dtype=object))
        columns["table"].append(np.full(len(offsets), spec.table, dtype=object))
        columns["distance"].append(distances)
        columns["never"].append(distances == spec.never_in(values))
        columns["states"].append(np.round(counts[offsets]).astype(np.int64))
    frame = {name: np.concatenate(parts) for name, parts in columns.items()}
    con.register("distance_frame", frame)
    try:  # a distance of "never" is stored as NULL
        con.execute('INSERT INTO table_distances SELECT ?, ?, variant, "table", '
                    "CASE WHEN never THEN NULL ELSE distance END, states FROM distance_frame",
                    [key, puzzle.name])
    finally:
        con.unregister("distance_frame")


def _refresh_incrementally(data_dir: Path, sources: list[tuple[Path, dict]],
                           stamp: str) -> bool:
    """Update the catalog in place of rebuilding it: the rows of the tables added, rebuilt
    or removed are replaced in a copy of the catalog, renamed into place.  False when a
    rebuild is needed (no catalog, or one of another format)."""
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
        return False  # another catalog format
    current = {_source_key(data_dir, path): (path, attributes) for path, attributes in sources}
    changed = sorted(key for key in current.keys() | recorded.keys()
                     if key not in recorded or key not in current
                     or recorded[key][0] != current[key][1]["build_id"])
    if not changed:
        return False
    with _staged_catalog(final) as staging:
        shutil.copyfile(final, staging)
        con = duckdb.connect(str(staging))
        con.execute(QUIET)
        for key in changed:
            if key in recorded:
                _unload_source(con, key, recorded[key][1])
            if key in current:  # statistics only from intact tables (the others were checked
                store.check_intact(current[key][0])  # when they were loaded)
                _load_source(con, data_dir, *current[key])
        con.execute("UPDATE catalog_info SET stamp = ?", [stamp])
        con.execute("CHECKPOINT")
        con.close()
        check_staged(staging, sources, stamp)
    return True
