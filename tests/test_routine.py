"""The engine's one build routine, generic kernel, generic verify and catalog, run on a
puzzle the product does not know: a plug-in defined here (a ring of positions where a
move goes one or three steps either way), registered for the test only."""

from __future__ import annotations

import duckdb
import numpy as np
import pytest
from numba import njit

from builder import catalog, registry, routine, verify
from builder.contract.base import CatalogTable, DistanceArray, Move
from builder.contract.errors import OneLineError, PuzzleInputError
from builder.contract.puzzle import Building, OwnSearch, WalkablePuzzle
from builder.contract.specs import BreadthFirstSearch, Computed, TableSpec
from builder.kernels.graph_bfs import breadth_first
from builder.store import SEALED_CATALOG
from query.walk import Tables, walk
from tests import reference

RING = 300
STEPS = (1, -1, 3, -3)


@njit(cache=True)
def ring_neighbours(state, parameters, out):
    for i, step in enumerate((1, -1, 3, -3)):
        out[i] = (state + step) % 300
    return 4


@njit(cache=True)
def one_way_neighbours(state, parameters, out):
    """The states one move before ``state`` on a one-way ring (moves go +1 or +3)."""
    out[0] = (state - 1) % 300
    out[1] = (state - 3) % 300
    return 2


@njit(cache=True)
def one_way_moves(state, parameters, out):
    out[0] = (state + 1) % 300
    out[1] = (state + 3) % 300
    return 2


class RingSearch(OwnSearch):
    """Ring's own tables, read and catalogued as a plug-in's own search."""

    def distance(self, tables, variant, node, target):
        if target == 0:
            found = tables.value(("ring", "to_zero"), "steps", node)
        else:
            found = int(tables.computed(self.table({"puzzle": "ring", "to": target}))
                        ["steps"][node])
        return None if found == 255 else found

    def table(self, identity):
        to = identity.get("to", 0)
        if not 0 <= to < RING:
            raise PuzzleInputError(f"no position r{to}")
        parts = ("ring", "to_zero") if to == 0 else ("ring", f"to_{to}")
        searches = {"steps": BreadthFirstSearch(RING, (to,), ring_neighbours, 4),
                    "one_way": BreadthFirstSearch(RING, (to,), one_way_neighbours, 2,
                                                  moves=one_way_moves)}
        return TableSpec(parts, {"puzzle": "ring", "to": to}, searches,
                         compute=lambda progress: Computed({"positions": np.arange(RING)},
                                                           {"positions_stored": RING}),
                         encoding="steps[position]: fewest steps to the target", chunk=64)

    def default_tables(self):
        return [self.table({"puzzle": "ring", "to": 0})]

    def catalog_distances(self, attributes):
        return [DistanceArray("300", f"to r{attributes['to']}", "steps", 255)]

    catalog_tables = (CatalogTable("ring_farthest",
                                   "target INTEGER, position INTEGER, steps INTEGER"),)

    catalog_views = ("CREATE VIEW ring_farthest_count AS SELECT target, count(*) AS positions "
                     "FROM ring_farthest GROUP BY target ORDER BY target")

    def catalog_rows(self, attributes, read):
        steps = read("steps")
        return {"ring_farthest": [(attributes["to"], int(position), int(steps[position]))
                                  for position in np.flatnonzero(steps == steps.max())]}


class Ring(WalkablePuzzle):
    own_search = RingSearch
    name, unit, summary = "ring", "steps", "a ring of 300 positions"
    example = ("r17", "r0")

    def recognises(self, text):
        return text.startswith("r") and text[1:].isdigit()

    def variant(self, start, target, options):
        return RING

    def parse(self, variant, text):
        return int(text[1:]) % RING

    def format(self, variant, state):
        return f"r{state}"

    def moves(self, variant, node):
        return [Move(f"{step:+d}", (node + step) % RING) for step in STEPS]


def farthest_rows(to: int) -> list[tuple[int, int, int]]:
    expected = plain_distances(to, STEPS)
    return [(to, position, steps) for position, steps in enumerate(expected)
            if steps == max(expected)]


def catalog_rows(data, sql: str) -> list[tuple]:
    with duckdb.connect(str(data / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as con:
        return con.execute(sql).fetchall()


def plain_distances(to: int, steps) -> list[int]:
    """Fewest steps from every position to ``to`` (255: never), by a plain search from
    ``to`` over the steps undone."""
    found = reference.plain_distances(to, lambda here: [(here - step) % RING
                                                        for step in steps])
    return [found.get(position, 255) for position in range(RING)]


@pytest.fixture
def ring(monkeypatch):
    puzzle = Ring()
    monkeypatch.setattr(registry, "PUZZLES", (*registry.PUZZLES, puzzle))
    return puzzle


def test_generic_kernel_equals_a_plain_search():
    found = breadth_first(RING, [7], ring_neighbours, 4)
    assert found.tolist() == plain_distances(7, STEPS)
    assert breadth_first(RING, [7], one_way_neighbours, 2).tolist() == plain_distances(7, (1, 3))


def test_generic_kernel_refuses_a_source_outside_the_states():
    with pytest.raises(ValueError, match="outside"):
        breadth_first(RING, [RING], ring_neighbours, 4)


def test_a_spec_builds_once_publishes_and_is_catalogued_and_verified(ring, tmp_path):
    built = routine.build_defaults(tmp_path, (ring,), progress=False)
    assert [result.built for result in built] == [True]
    assert not routine.build_table(tmp_path, ring.default_tables()[0], progress=False).built
    assert not list(tmp_path.rglob(".*building*"))
    assert catalog.refresh_catalog(tmp_path)
    with duckdb.connect(str(tmp_path / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as con:
        summary = con.execute("SELECT states, reachable, max_distance FROM table_summary "
                              "WHERE puzzle = 'ring'").fetchall()
    expected = plain_distances(0, STEPS)
    assert summary == [(RING, RING, max(expected))]
    verdicts = {v.table.name: v for v in verify.verify(tmp_path, samples=2)}
    assert verdicts["to_zero.zarr"].ok, verdicts["to_zero.zarr"].detail


def test_verify_finds_a_wrong_entry_in_a_spec_table(ring, tmp_path):
    spec = ring.default_tables()[0]
    wrong = plain_distances(0, STEPS)
    wrong[0] = 1  # the source itself
    tampered = TableSpec(spec.parts, spec.identity, {"one_way": spec.searches["one_way"]},
                         compute=lambda progress: {"steps": np.array(wrong, np.uint8)}, chunk=64)
    routine.build_table(tmp_path, tampered, progress=False)
    verdict = verify.verify_table(tmp_path / "ring" / "to_zero.zarr", 10,
                                  np.random.default_rng(0))
    # the stored "steps" was not made by the kernel: the spec's own search re-derives it
    assert not verdict.ok and "steps" in verdict.detail


def test_a_new_spec_table_updates_the_catalog_without_a_rebuild(ring, tmp_path, monkeypatch):
    routine.build_defaults(tmp_path, (ring,), progress=False)
    catalog.refresh_catalog(tmp_path)
    outcomes = []
    incremental = catalog._refresh_incrementally
    monkeypatch.setattr(catalog, "_refresh_incrementally",
                        lambda *args: outcomes.append(incremental(*args)) or outcomes[-1])
    routine.build_table(tmp_path, ring.table({"puzzle": "ring", "to": 5}), progress=False)
    assert catalog.refresh_catalog(tmp_path) and outcomes == [True]


def test_a_plugins_catalog_tables_follow_its_stored_tables_one_by_one(ring, tmp_path):
    routine.build_defaults(tmp_path, (ring,), progress=False)
    catalog.refresh_catalog(tmp_path)
    query = "SELECT target, position, steps FROM ring_farthest ORDER BY ALL"
    assert catalog_rows(tmp_path, query) == farthest_rows(0)
    assert catalog_rows(tmp_path, "SELECT * FROM ring_farthest_count") == [
        (0, len(farthest_rows(0)))]
    routine.build_table(tmp_path, ring.table({"puzzle": "ring", "to": 5}), progress=False)
    catalog.refresh_catalog(tmp_path)  # in place (the test above)
    assert catalog_rows(tmp_path, query) == sorted(farthest_rows(0) + farthest_rows(5))
    routine.build_table(tmp_path, ring.table({"puzzle": "ring", "to": 5}), force=True,
                        progress=False)
    catalog.refresh_catalog(tmp_path)  # rebuilt table: its rows replaced, not doubled
    assert catalog_rows(tmp_path, query) == sorted(farthest_rows(0) + farthest_rows(5))
    import shutil

    shutil.rmtree(tmp_path / "ring" / "to_5.zarr")
    catalog.refresh_catalog(tmp_path)
    assert catalog_rows(tmp_path, query) == farthest_rows(0)
    assert catalog.refresh_catalog(tmp_path, force=True)  # a full rebuild agrees
    assert catalog_rows(tmp_path, query) == farthest_rows(0)


def test_attributes_a_computation_yields_are_stored_with_its_arrays(ring, tmp_path):
    from builder.store import read_attributes

    built = routine.build_defaults(tmp_path, (ring,), progress=False)
    assert read_attributes(built[0].path)["positions_stored"] == RING


def test_walk_reads_a_stored_table_or_computes_one_on_demand(ring, tmp_path):
    routine.build_defaults(tmp_path, (ring,), progress=False)
    tables = Tables(tmp_path)
    for start, target in ((17, 0), (17, 150), (299, 3)):
        found = walk(ring, tables, RING, start, target)
        assert found.length == plain_distances(target, STEPS)[start]
        position = start
        for label, following in zip(found.labels, found.nodes[1:]):
            assert following == (position + int(label)) % RING
            position = following
        assert position == target


@njit(cache=True)
def single_step_back(state, parameters, out):
    out[0] = (state - 1) % 300
    return 1


def test_generic_kernel_refuses_distances_too_deep_for_a_byte_unless_wide():
    with pytest.raises(ValueError, match="254 moves"):
        breadth_first(RING, [0], single_step_back, 1)
    wide = breadth_first(RING, [0], single_step_back, 1, wide=True)
    assert wide.dtype == np.uint16 and wide.tolist() == plain_distances(0, (1,))


def test_puzzles_built_in_parallel_processes_equal_those_built_one_at_a_time(data_for,
                                                                             tmp_path):
    """``builder tables`` builds two plug-ins at once, each in a worker process: the same
    tables, reported in the plug-ins' declared order, as those built one at a time (the
    stored ones)."""
    import zarr

    # the longer build first: the other ends first, and is still reported second
    puzzles = (registry.by_name("hanoi"), registry.by_name("lightsout"))
    serial = data_for(*puzzles)
    parallel = routine.build_defaults(tmp_path / "parallel", puzzles, progress=False, jobs=2)
    expected = [routine.table_path(serial, spec) for puzzle in puzzles
                for spec in Building.of(puzzle).default_tables()]
    assert [r.path.relative_to(tmp_path / "parallel") for r in parallel] == [
        path.relative_to(serial) for path in expected]
    assert all(r.built for r in parallel)
    for one, other in zip(expected, parallel):
        first, second = zarr.open_group(one, mode="r"), zarr.open_group(other.path,
                                                                        mode="r")
        assert sorted(first.array_keys()) == sorted(second.array_keys())
        for name in first.array_keys():
            assert np.array_equal(first[name][...], second[name][...])
    again = routine.build_defaults(tmp_path / "parallel", puzzles, progress=False, jobs=2)
    assert not any(r.built for r in again)  # current tables are reused


def test_a_failure_in_a_worker_process_is_reported_and_stops_the_build(tmp_path):
    """A plug-in whose build fails in a worker: the build stops with its message, naming
    the plug-in, and no worker is left running."""
    import multiprocessing

    class Unregistered:  # a worker finds plug-ins by name: this one is not there
        name = "no-such-puzzle"

        def default_tables(self):
            return []

    with pytest.raises(OneLineError, match="no puzzle 'no-such-puzzle'"):
        routine.build_defaults(tmp_path, (Unregistered(), registry.by_name("hanoi")),
                               progress=False, jobs=2)
    assert not multiprocessing.active_children()


def test_an_ascending_array_is_indexed_by_the_engine_and_found_by_value(tmp_path):
    """``Table.ascending``: the engine keeps the first key of every chunk beside the array,
    a look-up by value finds each key where it is (and says absent where it is not), and
    verify's check refuses a forged index or keys out of order."""
    import zarr

    from builder.contract.puzzle import OWN_CHUNK, Table

    keys = np.arange(0, 3 * OWN_CHUNK + 5, dtype=np.int64) * 7 + 3  # three chunks and some
    table = Table("ascending-test", "keys", {"size": len(keys)},
                  make=lambda progress: {"keys": keys}, ascending=("keys",))
    built = routine.build_table(tmp_path, table, progress=False, log=lambda *_: None)
    group = zarr.open_group(built.path, mode="r")
    assert group["keys_index"][...].tolist() == keys[::OWN_CHUNK].tolist()
    wanted = np.array([keys[0], keys[OWN_CHUNK - 1], keys[OWN_CHUNK], keys[-1], 5])
    found = Tables(tmp_path).positions(("ascending-test", "keys"), "keys", wanted,
                                       "keys_index", absent_ok=True)
    assert found.tolist() == [0, OWN_CHUNK - 1, OWN_CHUNK, len(keys) - 1, -1]
    assert verify._check_ascending(group, ["keys"]) is None

    forged = zarr.open_group(built.path, mode="r+")
    forged["keys_index"][1] = keys[OWN_CHUNK + 1]
    assert "keys_index is not the first key" in verify._check_ascending(forged, ["keys"])
    forged["keys_index"][1] = keys[OWN_CHUNK]
    forged["keys"][5] = keys[4]
    assert "keys is not strictly ascending" in verify._check_ascending(forged, ["keys"])
