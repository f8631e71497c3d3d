"""A change to any table (a new 4x4 target, a new ball size, an all-pairs table) updates
the catalog in place of rebuilding it, with the same result as a rebuild."""

from __future__ import annotations

import shutil

import duckdb

from builder import catalog
from builder.routine import build_table
from builder.store import SEALED_CATALOG
from puzzles.tricolore.tables import all_pairs_spec
from tests.test_balls import build_balls

QUERIES = (
    "SELECT * FROM balls_move_counts ORDER BY ALL",
    "SELECT * FROM balls_tables ORDER BY tubes, capacity, colours",
    "SELECT * FROM distance_distribution ORDER BY ALL",
    "SELECT * FROM table_summary ORDER BY ALL",
    "SELECT * FROM balls_summary ORDER BY ALL",
)


def snapshot(data) -> list:
    with duckdb.connect(str(data / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as con:
        return [con.execute(query).fetchall() for query in QUERIES]


def test_a_new_or_removed_ball_table_updates_the_catalog_like_a_rebuild(tmp_path,
                                                                         monkeypatch):
    outcomes = []
    incremental = catalog._refresh_incrementally
    monkeypatch.setattr(catalog, "_refresh_incrementally",
                        lambda *args: outcomes.append(incremental(*args)) or outcomes[-1])
    build_balls(tmp_path, 4, 3, 2)
    assert catalog.refresh_catalog(tmp_path) and outcomes == [False]  # the first: built

    build_balls(tmp_path, 3, 2, 2)
    assert catalog.refresh_catalog(tmp_path) and outcomes[-1] is True
    updated = snapshot(tmp_path)
    assert catalog.catalog_is_current(tmp_path)
    assert catalog.refresh_catalog(tmp_path, force=True)
    assert snapshot(tmp_path) == updated
    assert any(row[:3] == (3, 2, 2) for row in updated[1])

    shutil.rmtree(tmp_path / "balls" / "3_2_2.zarr")
    assert catalog.refresh_catalog(tmp_path) and outcomes[-1] is True
    removed = snapshot(tmp_path)
    assert not any(row[:3] == (3, 2, 2) for row in removed[1])
    assert catalog.refresh_catalog(tmp_path, force=True)
    assert snapshot(tmp_path) == removed


TRICOLORE_QUERIES = (
    "SELECT * FROM tricolore_boards ORDER BY ALL",
    "SELECT * FROM tricolore_pairs ORDER BY ALL",
    "SELECT * FROM tricolore_start_clicks ORDER BY ALL",
    "SELECT * FROM tricolore_target_clicks ORDER BY ALL",
    "SELECT * FROM table_summary ORDER BY ALL",
)


def test_an_all_pairs_table_updates_the_catalog_in_place_like_a_rebuild(tmp_path, monkeypatch):
    outcomes = []
    incremental = catalog._refresh_incrementally
    monkeypatch.setattr(catalog, "_refresh_incrementally",
                        lambda *args: outcomes.append(incremental(*args)) or outcomes[-1])
    build_balls(tmp_path, 3, 2, 2)
    catalog.refresh_catalog(tmp_path)
    build_table(tmp_path, all_pairs_spec(2, 2, "unrestricted"), progress=False,
                log=lambda *_: None)
    build_table(tmp_path, all_pairs_spec(2, 2, "hybrid"), progress=False, log=lambda *_: None)
    assert catalog.refresh_catalog(tmp_path) and outcomes[-1] is True

    def tricolore_snapshot() -> list:
        with duckdb.connect(str(tmp_path / "catalog.duckdb"), read_only=True,
                            config=dict(SEALED_CATALOG)) as con:
            return [con.execute(query).fetchall() for query in TRICOLORE_QUERIES]

    updated = tricolore_snapshot()
    assert len(updated[0]) == 81 and len(updated[1]) == 2 * 81 * 81  # boards once per shape
    with duckdb.connect(str(tmp_path / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as con:
        # a value a stored table gives once (its shape and method) is stored once, in the
        # view, and every one of its rows carries it
        assert con.execute("SELECT width, height, method, source, count(*) FROM tricolore_pairs "
                           "GROUP BY ALL ORDER BY ALL").fetchall() == [
            (2, 2, method, f"tricolore/2x2/{method}.zarr", 81 * 81)
            for method in ("hybrid", "unrestricted")]
        for (part,) in con.execute("SELECT part FROM catalog_parts").fetchall():
            stored = [row[0] for row in con.execute(f"DESCRIBE {part}").fetchall()]
            assert stored == ["start", "target", "clicks"]
    assert catalog.refresh_catalog(tmp_path, force=True)
    assert tricolore_snapshot() == updated


def test_a_plugins_table_with_catalog_rows_updates_the_catalog_in_place(tmp_path,
                                                                         monkeypatch):
    from builder import registry, routine

    outcomes = []
    incremental = catalog._refresh_incrementally
    monkeypatch.setattr(catalog, "_refresh_incrementally",
                        lambda *args: outcomes.append(incremental(*args)) or outcomes[-1])
    build_balls(tmp_path, 3, 2, 2)
    catalog.refresh_catalog(tmp_path)
    routine.build_table(tmp_path, registry.by_name("lucas").table({"max_n": 2}),
                        progress=False)
    assert catalog.refresh_catalog(tmp_path) and outcomes[-1] is True
    with duckdb.connect(str(tmp_path / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as con:
        assert con.execute("SELECT count(*) FROM lucas_summary").fetchone() == (2,)


def test_only_published_tables_are_catalogued_not_staging_copies(tmp_path):
    """A table copied into a hidden staging folder (as a build in progress holds it) and a
    complete group inside a table's own folder are not sources: only published tables."""
    build_balls(tmp_path, 3, 2, 2)
    published = tmp_path / "balls" / "3_2_2.zarr"
    shutil.copytree(published, tmp_path / "balls" / ".3_2_2.zarr.building-0000")
    shutil.copytree(published, tmp_path / ".hidden" / "3_2_2.zarr")
    shutil.copytree(published, published / "inner.zarr")
    assert [path for path, _ in catalog._sources(tmp_path)] == [published]


def test_a_plugin_missing_for_one_refresh_leaves_no_rows_twice_when_it_returns(tmp_path,
                                                                              monkeypatch):
    """A plug-in that cannot be loaded at one refresh (uninstalled, or broken for a while)
    has its rows dropped then, its own tables' rows too, though no plug-in is there to
    name those tables; when it returns, the catalog is what a rebuild makes, no row twice."""
    from builder import registry

    build_balls(tmp_path, 3, 2, 2)
    catalog.refresh_catalog(tmp_path)
    before = snapshot(tmp_path)
    assert before[0]  # balls_move_counts has rows to lose

    installed = registry.PUZZLES
    monkeypatch.setattr(registry, "PUZZLES",
                        tuple(puzzle for puzzle in installed if puzzle.name != "balls"))
    assert catalog.refresh_catalog(tmp_path)
    with duckdb.connect(str(tmp_path / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as con:
        left = con.execute("SELECT count(*) FROM balls_move_counts").fetchone()
    assert left == (0,)

    monkeypatch.setattr(registry, "PUZZLES", installed)
    assert catalog.refresh_catalog(tmp_path)
    assert snapshot(tmp_path) == before
