"""Forged pattern databases (issue 56, W1): whatever a table says about itself, `builder
verify` re-derives it against the spec its folder names, and a search refuses it before
it reads it.  The forger marks the table as not built by spec, keeps the distance
histogram and recomputes the checksums.  The 2x2x2 cube's pattern tables, copied from
those `make tables` built, stand for every pattern database: with no full table stored,
`query path` answers the cube by IDA* on them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from builder import registry
from builder.store import record_checksums
from tests.commands import BIN, run_command
from tests.test_reliability import assert_one_line_error

ONE_TURN = "UUUU.BBRR.RRFF.DDDD.FFLL.LLBB"
"""The solved cube after one turn of U: one turn from solved, in either metric."""
PATH = ("path", ONE_TURN, "--budget", "1000000")
"""What a player asks; the budget bounds a search on forged estimates (one may never
end)."""
FOLDER = Path("cube") / "patterns" / "half"
U_FACE, R_FACE = "URF-UFL-ULB-UBR.zarr", "URF-UBR-DFR-DRB.zarr"


@pytest.fixture(scope="module")
def built(tmp_path_factory, data_for) -> Path:
    """The cube's pattern tables alone (no full table: a query searches) and a catalog."""
    data = tmp_path_factory.mktemp("forgeries_w1") / "data"
    shutil.copytree(data_for(registry.by_name("cube")) / "cube" / "patterns",
                    data / "cube" / "patterns")
    assert run_command("builder", "catalog", "--data", str(data)).returncode == 0
    return data


@pytest.fixture
def data(built, tmp_path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(built, copy)
    return copy


def _estimate(table: Path) -> np.ndarray:
    import zarr

    return zarr.open_array(table / "estimate", mode="r")[...]


def _forge(table: Path, values: np.ndarray | None = None, shape: list | None = None) -> None:
    """The forger's edit: new values and/or a new shape claimed for ``estimate``, the
    table marked as not built by spec, every checksum recomputed."""
    import zarr

    if values is not None:
        zarr.open_array(table / "estimate", mode="r+").with_config(
            {"write_empty_chunks": True})[...] = values
    if shape is not None:
        path = table / "estimate" / "zarr.json"
        metadata = json.loads(path.read_text())
        metadata["shape"] = shape
        path.write_text(json.dumps(metadata, indent=2))
    path = table / "zarr.json"
    metadata = json.loads(path.read_text())
    metadata["attributes"]["spec_built"] = False
    path.write_text(json.dumps(metadata, indent=2))
    record_checksums(table)


def _verify_line(data: Path, table: str) -> str:
    verified = run_command("builder", "verify", "--data", str(data))
    (line,) = [line for line in verified.stdout.splitlines() if f"{FOLDER}/{table}" in line]
    assert verified.returncode == 1, verified.stdout
    return line


def _path(data: Path):
    return run_command("query", *PATH, "--data", str(data))


def _histogram(values: np.ndarray) -> list[int]:
    return np.bincount(values, minlength=256).tolist()


def test_a_swapped_pattern_entry_is_found_though_the_table_says_it_was_not_built_by_spec(
        data):
    table = data / FOLDER / U_FACE
    values = _estimate(table)
    one, six = int(np.flatnonzero(values == 1)[0]), int(np.flatnonzero(values == 6)[0])
    values[[one, six]] = values[[six, one]]
    _forge(table, values)
    line = _verify_line(data, U_FACE)
    assert line.startswith("FAIL") and "recurrence gives" in line, line
    assert_one_line_error(_path(data), "rebuild")


def test_a_raised_pattern_table_with_its_histogram_kept_is_refused(data):
    """Every entry at 1 exchanged with one at the table's largest value: the histogram,
    and so the catalog's rows, stay as they were."""
    table = data / FOLDER / U_FACE
    values = _estimate(table)
    before = _histogram(values)
    ones = np.flatnonzero(values == 1)
    most = np.flatnonzero(values == values[values != 255].max())[:len(ones)]
    assert len(most) == len(ones)
    values[ones], values[most] = values[most], 1
    assert _histogram(values) == before
    _forge(table, values)
    line = _verify_line(data, U_FACE)
    assert line.startswith("FAIL") and "recurrence gives" in line, line
    assert_one_line_error(_path(data), "rebuild")


def test_another_patterns_values_copied_in_are_refused(data):
    """The R face's estimates in the U face's table: by the cube's symmetry the same
    histogram, and a table that obeys a recurrence, but not the U pattern's."""
    table = data / FOLDER / U_FACE
    copied = _estimate(data / FOLDER / R_FACE)
    assert _histogram(copied) == _histogram(_estimate(table))
    _forge(table, copied)
    line = _verify_line(data, U_FACE)
    assert line.startswith("FAIL"), line
    assert_one_line_error(_path(data), "rebuild")


def test_a_table_moved_into_another_tables_folder_is_refused(data):
    """An intact table, its checksums its own, in the R face's folder: `query` reads a
    table by its folder, so verify checks it against the spec its folder names."""
    shutil.rmtree(data / FOLDER / R_FACE)
    shutil.copytree(data / FOLDER / U_FACE, data / FOLDER / R_FACE)
    line = _verify_line(data, R_FACE)
    assert line.startswith("FAIL") and "folder" in line, line
    assert_one_line_error(_path(data), "rebuild")


def test_a_halved_estimate_shape_is_a_one_line_error_never_a_read_past_the_table(data):
    """The shape claimed in the array's metadata halved: the search would index past the
    end of what it read (a crash, or estimates from another table's bytes)."""
    table = data / FOLDER / U_FACE
    entries = len(_estimate(table))
    _forge(table, shape=[entries // 2])
    result = subprocess.run([str(BIN / "query"), *PATH, "--data", str(data)],
                            capture_output=True, text=True, timeout=120)
    assert_one_line_error(result, "rebuild")
    assert f"{entries:,}" in result.stderr, result.stderr
    assert _verify_line(data, U_FACE).startswith("FAIL")


def test_a_search_samples_the_recurrence_where_a_table_is_too_large_to_check_whole(
        data, monkeypatch):
    """A table larger than the whole check at load (the 3x3x3 cube's) is checked at
    sampled entries: values shuffled (the histogram kept) break it at nearly every one."""
    from builder import patterns
    from builder.reader import CorruptTableError
    from query.api import open_tablebase

    table = data / FOLDER / U_FACE
    values = _estimate(table)
    _forge(table, np.random.default_rng(3).permutation(values))
    monkeypatch.setattr(patterns, "WHOLLY_CHECKED_ENTRIES", 0, raising=False)
    with pytest.raises(CorruptTableError, match="sampled"):
        open_tablebase(data).puzzle("cube", metric="half").path(ONE_TURN, budget=1_000_000)


def _lookups(data: Path, position: str) -> tuple:
    """The cube's search from ``position`` on the intact tables, and the path it finds."""
    from builder import patterns
    from builder.reader import Tables

    cube = registry.by_name("cube")
    search = cube.pattern_search(Tables(data), "half", cube.parse("half", position),
                                 cube.parse("half", "UUUU.RRRR.FFFF.DDDD.LLLL.BBBB"))
    return search, patterns.run(Tables(data), search).rows


def _forge_entry(data: Path, search, pattern: int, entry: int, value: int) -> None:
    table = data.joinpath(*search.patterns[pattern].spec.parts[:-1],
                          search.patterns[pattern].spec.parts[-1] + ".zarr")
    values = _estimate(table)
    values[entry] = value
    _forge(table, values)


@pytest.fixture
def loads_sources_alone(monkeypatch):
    """A search's load checks each table at its sources alone, as on a table far larger
    than its sample."""
    from builder import patterns

    monkeypatch.setattr(patterns, "WHOLLY_CHECKED_ENTRIES", 0, raising=False)
    monkeypatch.setattr(patterns, "SAMPLED_ENTRIES", 0, raising=False)


def test_a_search_checks_the_recurrence_at_the_entries_of_its_start(data,
                                                                    loads_sources_alone):
    """The start's entry raised (one turn from solved, it reads 6) is refused before the
    search trusts it."""
    from builder.reader import CorruptTableError
    from query.api import open_tablebase

    search, _ = _lookups(data, ONE_TURN)
    _forge_entry(data, search, 0, search.start[search.indices_at], 6)
    with pytest.raises(CorruptTableError, match="start"):
        open_tablebase(data).puzzle("cube", metric="half").path(ONE_TURN, budget=1_000_000)


def test_a_search_checks_the_recurrence_along_the_path_it_found(data, loads_sources_alone):
    """Three turns from solved (U, R, then F) the one shortest path passes a position one
    turn from solved; an entry read there lowered from 1 to 0 (the estimates still never
    above the distance: the same path is found) is refused."""
    from builder.reader import CorruptTableError
    from query.api import open_tablebase

    three_turns = "URLF.UBFB.FRDD.RRDL.FDLB.ULUB"
    search, rows = _lookups(data, three_turns)
    assert len(rows) == 4
    looked_up = rows[:, search.indices_at:search.indices_at + len(search.patterns)]
    values = [_estimate(data.joinpath(*table.spec.parts[:-1], table.spec.parts[-1] + ".zarr"))
              for table in search.patterns]
    pattern = next(number for number in range(len(search.patterns))
                   if values[number][looked_up[2, number]] == 1)
    _forge_entry(data, search, pattern, int(looked_up[2, pattern]), 0)
    with pytest.raises(CorruptTableError, match="along the path"):
        open_tablebase(data).puzzle("cube", metric="half").path(three_turns,
                                                                 budget=1_000_000)
