"""Reliability round 3 (issue 42, items 3, 4, 6 and 7): arguments that ran away or came
out as internal errors.  Each is refused in one line naming what is wrong, at once: a
sparse search's files grow with the keys it finds, never with its shards squared, and a
level that cannot fit on the disk is refused; huge sliding boards are refused from their
size alone; time limits and budgets are finite numbers in range; malformed scheduler
addresses, seeds and memory bounds are the user's errors, not the program's.

Anything that ran away before is bounded here: in a subprocess by its timeout (and its
address space), in this process by counting the files a search writes."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from builder.contract.errors import OneLineError
from tests.commands import CommandProcess
from tests.commands import run_command as run
from tests.test_reliability import assert_one_line_error, free_port
from tests.test_sparse import Pancakes

BIN = Path(sys.executable).parent
RUNAWAY_SECONDS = 120
"""A command refused up front answers in a second or two; one past this ran away."""
RUNAWAY_BYTES = 3 * 2**30
"""Address space a bounded command may map (a builder with numba maps about 1 GiB)."""


_runner: list[CommandProcess] = []


def bounded(program: str, *args: str, timeout: float = RUNAWAY_SECONDS
            ) -> subprocess.CompletedProcess:
    """``program args`` in a subprocess bounded in time and address space (one kept for
    the module's commands, started again after one that failed): one that runs away
    fails the test instead of hanging it or swapping the machine."""
    if not _runner or not _runner[0].alive():
        _runner[:] = [CommandProcess(address_space=RUNAWAY_BYTES)]
    return _runner[0].run(program, *args, timeout=timeout)


# --- item 3: --shards runs away -----------------------------------------------------------

class FilesWritten(Exception):
    """A search wrote more files than the test allows (the runaway, cut short)."""


@contextlib.contextmanager
def files_written_at_most(monkeypatch, most: int):
    """Count the files published (every file a search writes ends in ``os.replace``),
    stopping the search past ``most``."""
    written = [0]
    publish = os.replace

    def counted(*args, **kwargs):
        written[0] += 1
        if written[0] > most:
            raise FilesWritten(f"more than {most:,} files written")
        return publish(*args, **kwargs)

    monkeypatch.setattr(os, "replace", counted)
    yield written
    monkeypatch.setattr(os, "replace", publish)


def test_the_most_shards_write_files_by_the_keys_found_not_by_shards_squared(
        tmp_path, monkeypatch):
    from builder.sparse import MAX_SHARDS, sparse_search

    search = Pancakes().sparse_search(5)  # 120 positions, 6 levels a phase
    expected = sparse_search(search, tmp_path / "one")
    # a level once wrote a file per pair of shards: 16.8 M at 4096; now a task per shard
    # with keys, each publishing four files at most (its frontier, its seen keys written
    # and renamed, what it sends), so four for each key of each phase, and the two
    # phases' records of their levels
    most = 4 * 2 * 120 + 2 * 20
    with files_written_at_most(monkeypatch, most) as written:
        found = sparse_search(replace(search, shards=MAX_SHARDS), tmp_path / "most")
    assert all(np.array_equal(a, b) for a, b in zip(expected, found))
    assert 0 < written[0] <= most


def test_a_level_with_no_room_on_its_disk_is_refused_naming_the_shards(tmp_path,
                                                                     monkeypatch):
    from builder.sparse import sparse_search

    class AlmostFull:  # a disk with twenty inodes free
        f_files, f_favail, f_blocks, f_bavail = 10**6, 20, 10**6, 10**6

    monkeypatch.setattr(os, "statvfs", lambda path: AlmostFull())
    with pytest.raises(OneLineError, match="--shards") as refused:
        sparse_search(replace(Pancakes().sparse_search(6), shards=64), tmp_path)
    assert "more than the 20" in str(refused.value)


def test_a_memory_bound_no_shard_count_meets_is_refused_without_running_away(
        tmp_path, monkeypatch):
    """It was doubled through every restart up to 4096 shards (each level of which wrote
    16.8 M files) before a ValueError; now the shards grow as far as the bound says at
    once, and the bound is refused as soon as 4096 cannot meet it."""
    from builder.sparse import sparse_search

    with files_written_at_most(monkeypatch, 20_000), pytest.raises(OneLineError,
                                                                     match="--memory"):
        sparse_search(replace(Pancakes().sparse_search(6), memory=30), tmp_path)


def test_memory_of_one_byte_is_refused_at_once(tmp_path):
    result = bounded("builder", "build", "klotski", "block", "--memory", "1b", "--force",
                     "--data", str(tmp_path))
    assert_one_line_error(result, "--memory")
    assert "0 MiB" not in result.stderr
    # refused up front: no search's progress line ("positions") came before the error
    assert "positions" not in result.stderr.lower().replace("error:", ""), result.stderr
    assert not (tmp_path / "klotski").exists()


# --- item 4: huge sliding boards ----------------------------------------------------------

BOARD_OF_ONE_LONG_ROW = "2" * 600 + ".2" * 200  # 1,000 characters: 201 rows, 600 wide
BOARD_99_BY_9 = ".".join(["123456780"] * 99)


@pytest.mark.parametrize("board, words", [
    ("10000x10000", "at most 9 cells"),  # was a factorial of 10^8: hung
    ("100000x100000", "at most 9 cells"),  # was a 10 GB string first
    ("99x9", "at most 9 cells"),  # was 6,108 characters long
    ("4x5", "2,432,902,008,176,640,000 arrangements"),  # a count still shown where short
    ("²x3", "a board such as 3x3"),  # was an internal error (int('²'))
    ("3x" + "9" * 5000, "a board such as 3x3"),
])
def test_builder_refuses_a_sliding_board_from_its_size_alone(tmp_path, board, words):
    result = bounded("builder", "build", "sliding", board, "--data", str(tmp_path))
    assert_one_line_error(result, words)
    assert len(result.stderr) < 300


@pytest.mark.parametrize("board", [BOARD_OF_ONE_LONG_ROW, BOARD_99_BY_9,
                                   ".".join(["2" * 31] * 31)],
                         ids=["201 rows, the first 600 wide", "99x9", "31x31"])
def test_query_refuses_a_huge_sliding_board_in_one_short_line(data_dir, board):
    result = run("query", "path", board, "--data", str(data_dir))
    assert_one_line_error(result)  # was "internal error" (a count past 4,300 digits)
    assert len(result.stderr) < 300


def test_the_web_refuses_a_huge_sliding_board_as_a_client_error(data_dir):
    from fastapi.testclient import TestClient

    from query.web import create_app

    client = TestClient(create_app(data_dir), raise_server_exceptions=False)
    for board in (BOARD_OF_ONE_LONG_ROW, BOARD_99_BY_9):
        answered = client.get("/api/play/sliding/position", params={"state": board})
        assert 400 <= answered.status_code < 500, (answered.status_code, answered.text[:200])
        assert len(answered.json()["detail"]) < 300


# --- item 6: NaN and infinite limits ------------------------------------------------------

@pytest.mark.parametrize("value", ["inf", "nan", "1e10", "-inf", "-1"])
def test_sql_timeout_must_be_a_finite_number_in_range(data_dir, value):
    result = bounded("query", "sql", "SELECT 1", "--timeout", value, "--data", str(data_dir))
    assert_one_line_error(result, "--timeout")
    assert result.stdout == ""


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_serve_search_seconds_must_be_a_finite_number(data_dir, value):
    result = bounded("query", "serve", "--port", str(free_port()), "--search-seconds", value,
                     "--data", str(data_dir))
    assert_one_line_error(result, "--search-seconds")


def test_random_deal_seconds_must_be_a_finite_number(data_dir):
    result = run("query", "random", "balls", "--seconds", "nan", "--data", str(data_dir))
    assert_one_line_error(result, "--seconds")


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_builder_max_minutes_must_be_a_finite_number(tmp_path, value):
    result = bounded("builder", "balls", "--tubes", "3", "--capacity", "2", "--colours", "2",
                     "--max-minutes", value, "--data", str(tmp_path))
    assert_one_line_error(result, "--max-minutes")
    assert not (tmp_path / "balls").exists()


# --- item 7: small wrongs -----------------------------------------------------------------

@pytest.mark.parametrize("address", ["inproc://x", "tcp://[::1", "tcp://127.0.0.1:99999",
                                     "tcp://10.0.0.5"])
def test_a_malformed_scheduler_address_is_the_users_error(tmp_path, address):
    result = bounded("builder", "tricolore", "--width", "2", "--height", "2", "--force",
                     "--scheduler", address, "--data", str(tmp_path))
    assert_one_line_error(result, "not a scheduler address")


def test_verify_refuses_a_negative_seed(tmp_path):
    assert_one_line_error(run("builder", "verify", "--seed", "-1", "--data", str(tmp_path)),
                          "--seed")


def test_serve_refuses_an_empty_host_instead_of_listening_everywhere(data_dir):
    result = bounded("query", "serve", "--host", "", "--port", str(free_port()),
                     "--data", str(data_dir))
    assert_one_line_error(result, "0.0.0.0: every interface")


def test_the_web_takes_the_budgets_the_command_line_allows(data_dir):
    """A budget over the web's own cap (20 M, below `--max-budget`'s 200 M) was a 422
    whatever the server allowed; now the server's `--max-budget` decides (a 429 here,
    over the default 2 M), and the web refuses only what no server may allow."""
    from fastapi.testclient import TestClient

    from query.web import create_app

    client = TestClient(create_app(data_dir))
    state = "abcd|bcda|cdab|dabc||"
    over_server = client.get("/api/balls/solve", params={"state": state,
                                                         "budget": 50_000_000})
    assert over_server.status_code == 429, over_server.text
    assert "2,000,000" in over_server.json()["detail"]
    from builder.contract.errors import MOST_SOLVER_STATES

    over_any = client.get("/api/balls/solve", params={"state": state,
                                                      "budget": MOST_SOLVER_STATES + 1})
    assert over_any.status_code == 422


def test_an_interrupted_forced_build_says_how_to_resume(tmp_path):
    """`--force` starts a build over: "run the same command again to resume" was wrong
    for it."""
    ignored = signal.getsignal(signal.SIGINT)  # as a terminal's foreground command
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        build = subprocess.Popen([str(BIN / "builder"), "build", "klotski", "block",
                                  "--shards", "16", "--force", "--data", str(tmp_path)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGINT, ignored)
    seen = b""
    deadline = time.monotonic() + RUNAWAY_SECONDS
    while b"positions" not in seen and time.monotonic() < deadline:  # inside the search
        chunk = os.read(build.stderr.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    assert b"positions" in seen and build.poll() is None, seen[-500:]
    build.send_signal(signal.SIGINT)
    _, rest = build.communicate(timeout=30)
    stderr = (seen + (rest or b"")).decode(errors="replace")
    assert build.returncode == 130, stderr[-500:]
    assert "without --force to resume" in stderr and "same command again" not in stderr
