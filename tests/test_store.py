"""Atomic publication, reuse of current tables, and the query side's zarr reader."""

from __future__ import annotations

import numpy as np
import pytest
import zarr

from builder import reader as tables
from builder import store
from builder.reader import StaleTableError
from builder.routine import build_table, table_path
from puzzles.tricolore import METHODS, Tricolore
from puzzles.tricolore.tables import all_pairs_spec
from query.walk import Tables
from tests import reference
from tests.walks import all_pairs_path, tricolore_path


def method_index(method: str) -> int:
    return METHODS.index(method)


def test_table_format_is_shared_by_builder_and_query():
    assert store.TABLE_FORMAT == tables.TABLE_FORMAT


@pytest.fixture(scope="module")
def small_data(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    for method in METHODS:
        build_table(data, all_pairs_spec(3, 2, method), progress=False)
    return data


@pytest.mark.parametrize("method", METHODS)
def test_small_board_tables_equal_the_plain_bfs_everywhere(small_data, method):
    rules = Tricolore(3, 2)
    clicks = zarr.open_group(table_path(small_data, all_pairs_spec(rules.width, rules.height, method)))["clicks"][...]
    names = rules.format_many(rules.all_boards())
    for start in range(method_index(method), rules.n_boards, 6):
        expected = reference.distances_from(str(names[start]), method, 3, 2)
        row = clicks[start]
        assert {str(names[t]): int(row[t]) for t in np.flatnonzero(row != 255)} == expected


@pytest.mark.parametrize("method", METHODS)
def test_small_board_paths_replay_for_every_pair(small_data, method):
    rules = Tricolore(3, 2)
    table = Tables(small_data)
    clicks = zarr.open_group(all_pairs_path(table, 3, 2, method))["clicks"][...]
    names = rules.format_many(rules.all_boards())
    for start in range(method_index(method), rules.n_boards, 29):
        for target in np.flatnonzero(clicks[start] != 255):
            found = tricolore_path(table, rules, start, int(target), method)
            assert found.length == clicks[start, target]
            replayed = reference.replay(str(names[start]), list(found.clicks), method, 3, 2)
            assert replayed[-1] == names[target]


def test_reader_matches_zarr(small_data):
    path = table_path(small_data, all_pairs_spec(3, 2, "hybrid"))
    for name in ("clicks", "sole_click", "clicks_avoiding_sole"):
        expected = zarr.open_group(path)[name][...]
        array = tables.ColumnChunkedArray(path / name)
        for column in range(expected.shape[1]):
            assert np.array_equal(array.column(column), expected[:, column]), (name, column)


def test_current_tables_are_reused(small_data):
    result = build_table(small_data, all_pairs_spec(3, 2, "restricted"), progress=False)
    assert not result.built


def test_an_interrupted_rebuild_leaves_the_previous_table_usable(small_data):
    from builder.execute import InProcess

    path = table_path(small_data, all_pairs_spec(3, 2, "unrestricted"))
    before = zarr.open_group(path)["clicks"][...]
    build_id = store.read_attributes(path)["build_id"]

    class CtrlC(InProcess):
        def run(self, function, arguments, desc="tasks", progress=True):
            yield function(*arguments[0])  # the first chunk task is written to staging ...
            raise KeyboardInterrupt  # ... then the user presses Ctrl-C

    with pytest.raises(KeyboardInterrupt):
        build_table(small_data, all_pairs_spec(3, 2, "unrestricted"), force=True, progress=False,
                              executor=CtrlC())
    assert store.read_attributes(path)["build_id"] == build_id
    assert np.array_equal(zarr.open_group(path)["clicks"][...], before)
    all_pairs_path(small_data, 3, 2, "unrestricted")
    # the unfinished build waits, out of the readers' way, to be resumed
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == [
        ".unrestricted.zarr.building"]


def test_an_incomplete_table_is_refused(tmp_path):
    group = zarr.open_group(tmp_path / "tricolore" / "4x2" / "hybrid.zarr", mode="w")
    group.attrs.update({"puzzle": "tricolore", "table_format": store.TABLE_FORMAT})
    with pytest.raises(StaleTableError, match="incomplete"):
        all_pairs_path(tmp_path, 4, 2, "hybrid")


def test_a_table_of_another_format_is_stale(tmp_path):
    group = zarr.open_group(tmp_path / "tricolore" / "4x2" / "hybrid.zarr", mode="w")
    group.attrs.update({"complete": True, "table_format": store.TABLE_FORMAT + 1})
    with pytest.raises(StaleTableError, match="make tables FORCE=1"):
        all_pairs_path(tmp_path, 4, 2, "hybrid")


def test_whole_arrays_are_written_as_the_very_chunk_files_zarr_writes(tmp_path):
    """The store compresses whole arrays chunk by chunk itself (zarr's own per-chunk path
    is 4x slower): every chunk file byte for byte what zarr writes for the same array with
    ``write_empty_chunks`` (edge chunks padded, every chunk of the grid written, those of
    the fill value alone included: a missing chunk always means damage), and zarr reads
    it back."""
    from zarr.codecs import ZstdCodec

    rng = np.random.default_rng(11)
    arrays = {"bytes": rng.integers(0, 4, 1000).astype(np.uint8),
              "wide": rng.integers(0, 70_000, 777).astype(np.uint32),
              "matrix": rng.integers(-5, 10**12, (37, 23)),
              "mostly_zero": np.zeros(300, dtype=np.uint16)}
    arrays["mostly_zero"][250] = 9  # every chunk written, the all-zero ones too
    chunks = {"bytes": (64,), "wide": (100,), "matrix": (10, 4), "mostly_zero": (50,)}
    ours = tmp_path / "ours.zarr"
    store.write_table(ours, arrays, chunks, {"puzzle": "test"})
    theirs = zarr.open_group(tmp_path / "theirs.zarr", mode="w")
    for name, values in arrays.items():
        theirs.create_array(name, shape=values.shape, chunks=chunks[name], dtype=values.dtype,
                            compressors=ZstdCodec(level=store.ZSTD_LEVEL),
                            fill_value=0, config={"write_empty_chunks": True})[...] = values
    for name, values in arrays.items():
        assert np.array_equal(zarr.open_group(ours, mode="r")[name][...], values), name
        files = {p.relative_to(ours / name): p.read_bytes()
                 for p in (ours / name).rglob("*") if p.is_file() and p.name != "zarr.json"}
        expected = {p.relative_to(tmp_path / "theirs.zarr" / name): p.read_bytes()
                    for p in (tmp_path / "theirs.zarr" / name).rglob("*")
                    if p.is_file() and p.name != "zarr.json"}
        assert files == expected, name
    assert len(list((ours / "mostly_zero").rglob("c/*"))) == 6
    # values of another type are stored as the array's, as zarr stores them
    writer = store.TableWriter(tmp_path / "cast.zarr", {"narrow": ((10,), np.uint8, (4,))}, {})
    writer.write("narrow", (...,), np.arange(10, dtype=np.int64))
    assert zarr.open_group(tmp_path / "cast.zarr")["narrow"][...].tolist() == list(range(10))


def test_a_whole_array_read_by_the_chunk_reader_equals_zarrs(tmp_path):
    """The catalog reads whole arrays chunk by chunk (faster than zarr for many small
    chunks): the same values as zarr, for vectors and 2-D arrays whose last chunks are
    partial and for chunks never written (all fill value); None for what it cannot read."""
    rng = np.random.default_rng(4)
    arrays = {"vector": rng.integers(0, 255, 1000).astype(np.uint8),
              "matrix": rng.integers(-5, 10**12, (37, 23)),
              "zeros": np.zeros((10, 10), dtype=np.int32),
              "cube": np.zeros((2, 2, 2), dtype=np.uint8)}
    chunks = {"vector": (64,), "matrix": (10, 4), "zeros": (3, 3), "cube": (1, 1, 1)}
    table = tmp_path / "t.zarr"
    store.write_table(table, arrays, chunks, {"puzzle": "test"})
    store.record_checksums(table)
    for name in ("vector", "matrix", "zeros"):
        whole = tables.read_whole(table / name)
        assert whole.dtype == arrays[name].dtype
        assert np.array_equal(whole, zarr.open_group(table, mode="r")[name][...])
    assert tables.read_whole(table / "cube") is None
