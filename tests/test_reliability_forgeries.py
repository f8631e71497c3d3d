"""Forgeries that keep a table's distance histogram (two values swapped, another metric's
values copied in) with the checksums recomputed: no answer prints a distance one step of
the recurrence contradicts, and `builder verify` finds them at every entry, whatever its
samples or seed.  The tables are built small in the test, then forged."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from builder import registry
from builder.store import record_checksums
from query.web import create_app
from tests.commands import run_command
from tests.test_reliability import assert_one_line_error

CLASSIC = "BAAC.BAAC.DEEF.DGHF.I--J"


@pytest.fixture(scope="module")
def built(tmp_path_factory, data_for) -> Path:
    """Klotski's tables, copied from those `make tables` built and verified (a build
    costs seconds), and the sliding tiles' 2x3 table built here: the build catalogues
    both."""
    data = tmp_path_factory.mktemp("forgeries") / "data"
    shutil.copytree(data_for(registry.by_name("klotski")) / "klotski", data / "klotski")
    result = run_command("builder", "build", "sliding", "2x3", "--quiet", "--data", str(data),
                         timeout=300)
    assert result.returncode == 0, result.stderr
    return data


@pytest.fixture
def data(built, tmp_path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(built, copy)
    return copy


def _swap(table: Path, array: str, first: int, second: int) -> None:
    """A forger's swap of two entries, the checksums recomputed: the histogram, and so
    the catalog's rows, stay as they were."""
    import zarr

    stored = zarr.open_array(table / array, mode="r+")
    values = stored[...]
    values[[first, second]] = values[[second, first]]
    stored.with_config({"write_empty_chunks": True})[...] = values
    record_checksums(table)


def _first_at(values: np.ndarray, distance: int) -> int:
    return int(np.flatnonzero(values == distance)[0])


def _klotski_swapped(data: Path) -> tuple[str, str]:
    """The block table with a position at 6 and one at 9 swapped: their notations."""
    import zarr

    table = data / "klotski" / "block.zarr"
    group = zarr.open_group(table, mode="r")
    distance, keys = group["distance"][...], group["keys"][...]
    six, nine = _first_at(distance, 6), _first_at(distance, 9)
    _swap(table, "distance", six, nine)
    puzzle = registry.by_name("klotski")
    variant = puzzle.variant_named("block")
    return tuple(puzzle.format(variant, puzzle.decode(variant, int(keys[at])))
                 for at in (six, nine))


def _verify_line(data: Path, table: str, *options: str) -> str:
    verified = run_command("builder", "verify", *options, "--data", str(data))
    (line,) = [line for line in verified.stdout.splitlines() if table in line]
    assert verified.returncode == 1, verified.stdout
    return line


@pytest.mark.parametrize("command", ["distance", "moves", "path"])
def test_a_swapped_sparse_distance_is_refused_not_printed(data, command):
    at_six, at_nine = _klotski_swapped(data)
    for position in (at_six, at_nine):
        result = run_command("query", command, position, "solved", "--data", str(data))
        assert_one_line_error(result, "contradict")


@pytest.mark.parametrize("samples", ["1", "3", "10"])
def test_verify_finds_a_swapped_sparse_distance_at_any_samples(data, samples):
    _klotski_swapped(data)
    line = _verify_line(data, "klotski/block", "--samples", samples, "--seed", samples)
    assert line.startswith("FAIL") and "recurrence gives" in line, line


def test_the_page_refuses_a_swapped_distance(data):
    at_six, _ = _klotski_swapped(data)
    client = TestClient(create_app(data))
    for values in ("false", "true"):
        answer = client.get("/api/play/klotski/position",
                            params={"state": at_six, "values": values})
        assert answer.status_code >= 400 and "contradict" in answer.json()["detail"], (
            answer.status_code, answer.text)
    hint = client.get("/api/play/klotski/path", params={"state": at_six})
    assert hint.status_code >= 400 and "contradict" in hint.json()["detail"], hint.text


def test_another_metrics_distances_copied_in_are_refused_by_path(data):
    """The cell metric's distances in the block table: the classic start held 116, and
    `query path` printed 116 moves as the shortest (the optimum is 81)."""
    import zarr

    cell = zarr.open_group(data / "klotski" / "cell.zarr", mode="r")["distance"][...]
    table = data / "klotski" / "block.zarr"
    zarr.open_array(table / "distance", mode="r+").with_config(
        {"write_empty_chunks": True})[...] = cell
    record_checksums(table)
    assert_one_line_error(run_command("query", "path", CLASSIC, "--data", str(data)),
                          "contradict")
    line = _verify_line(data, "klotski/block")
    assert line.startswith("FAIL"), line


def test_a_solvable_board_swapped_with_a_never_is_refused(data):
    """A dense table: a solvable board's distance swapped with a "never" entry (the other
    parity), so the board reads as never solvable."""
    import zarr

    from puzzles.sliding.rules import lehmer_unrank

    table = data / "sliding" / "2x3.zarr"
    values = zarr.open_group(table, mode="r")["blank5"][...]
    solvable, never = _first_at(values, 7), _first_at(values, 255)
    _swap(table, "blank5", solvable, never)
    puzzle = registry.by_name("sliding")
    board = lehmer_unrank(solvable, 6)
    # the table holds boards relabelled towards the goal 123.450: its ranks are boards
    position = puzzle.format((2, 3), board)
    for command in ("solvable", "distance", "path"):
        result = run_command("query", command, position, "123.450", "--data", str(data))
        assert_one_line_error(result, "contradict")
    line = _verify_line(data, "sliding/2x3", "--samples", "1")
    assert line.startswith("FAIL") and "blank5" in line, line


def test_intact_tables_pass_the_whole_recurrence_and_say_how_long_it_took(built):
    verified = run_command("builder", "verify", "--data", str(built))
    assert verified.returncode == 0, verified.stdout
    lines = [line for line in verified.stdout.splitlines() if ".zarr" in line]
    assert len(lines) == 3 and all(line.startswith("ok") for line in lines), lines
    assert all("recurrence holds at every one of" in line and " s)" in line
               for line in lines), lines


def test_verify_with_no_samples_passes_an_intact_table_of_a_sampling_plugin(data_dir,
                                                                            tmp_path):
    """Spot Colour's own check deals sampled sets: none asked for is not damage."""
    data = tmp_path / "data"
    shutil.copytree(data_dir / "spots", data / "spots")
    assert run_command("builder", "catalog", "--data", str(data)).returncode == 0
    verified = run_command("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 0, verified.stdout
    assert "FAIL" not in verified.stdout


def test_verify_of_one_puzzle_checks_its_tables_alone(data):
    """`builder verify PUZZLE`: that puzzle's tables and the catalog, not the others'."""
    _klotski_swapped(data)
    sliding = run_command("builder", "verify", "sliding", "--data", str(data))
    table_lines = [line for line in sliding.stdout.splitlines() if ".zarr" in line]
    assert sliding.returncode == 0 and table_lines, sliding.stdout
    assert all("sliding/" in line and line.startswith("ok") for line in table_lines)
    klotski = run_command("builder", "verify", "klotski", "--data", str(data))
    assert klotski.returncode == 1 and "FAIL" in klotski.stdout
    assert "sliding/" not in klotski.stdout
