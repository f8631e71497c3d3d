"""Every writer of a data directory, command line or server, takes the one lock; staging is
removed only by its owner or once its owner is gone; nothing is published that lacks a
file its arrays call for.  The race is run for real: a `query serve --allow-builds`
building a table on request, and a second builder started as soon as its staging
appears."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from builder import store, workspace
from tests.browser import served, start_server
from tests.commands import run_command

START, TARGET = "RRRR.RRRR.RRRR.RRRR", "WBWB.RRRR.WBWB.RRBR"
TARGETS = (TARGET, "BWBW.RRRR.BWBW.RRRB", "RRRR.WBWB.RRRR.WBWB")
"""Targets a server builds a table towards, one after another until one is caught."""


@pytest.fixture
def small_data(tmp_path) -> Path:
    """A data directory the server accepts (one 3×3 target table and its catalog); it
    holds no 4×4 table, so the server has one to build."""
    from builder.catalog import refresh_catalog
    from builder.routine import build_table
    from puzzles.tricolore.tables import target_spec

    data = tmp_path / "data"
    build_table(data, target_spec("RRR.RRR.RRR", 3, 3), progress=False)
    refresh_catalog(data)
    return data


def _locked(lock: Path) -> bool:
    """True while another process holds the data directory's lock (a lock file may be there
    a moment before it is taken, or after it is let go)."""
    import fcntl

    try:
        descriptor = os.open(lock, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        return False
    finally:
        os.close(descriptor)


def _stamped(lock: Path) -> bool:
    """True once the lock's holder has written its name in the lock file: a holder stopped
    between taking the lock and writing its name cannot be named by anyone."""
    try:
        return bool(lock.read_text().strip())
    except FileNotFoundError:
        return False


def _post(server: str, path: str) -> dict:
    request = urllib.request.Request(f"{server}{path}", method="POST")
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def _get(server: str, path: str) -> dict:
    with urllib.request.urlopen(f"{server}{path}", timeout=120) as answer:
        return json.loads(answer.read())


def _job_ended(server: str, job: int) -> dict:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        state = _get(server, f"/api/jobs/{job}")
        if state["state"] in ("done", "failed"):
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job} did not end")


def test_a_builder_started_during_a_web_build_is_refused_and_the_table_is_whole(small_data):
    """The server's build is held still (SIGSTOP) once it holds the data directory's lock
    and has written its name there, however long a busy machine takes to get there, so
    that the second builder surely starts during it.  A build that ended between the look
    and the stop is let go and the next target tried: the race is for the test's second
    builder to win, not the clock."""
    process, port = start_server(small_data, "--allow-builds", "2")
    server = f"http://127.0.0.1:{port}"
    lock = small_data / workspace.LOCK_NAME
    try:
        for target in TARGETS:
            job = _post(server, f"/api/play/tricolore/table?state={START}&target={target}")
            deadline, looks, caught = time.monotonic() + 300, 0, False  # only a hang ends it
            while not caught and time.monotonic() < deadline:
                if lock.exists():  # stopped, it can neither take nor let go of the lock
                    process.send_signal(signal.SIGSTOP)
                    caught = _locked(lock) and _stamped(lock)
                    if caught:  # stopped while it builds: the second builder starts now
                        break
                    process.send_signal(signal.SIGCONT)
                looks += 1
                if looks % 50 == 0 and _get(server, f"/api/jobs/{job['id']}")["state"] in (
                        "done", "failed"):
                    break
                time.sleep(0.002)
            if caught:
                break
            _job_ended(server, job["id"])
        else:
            pytest.fail(f"no build of {len(TARGETS)} was caught holding the lock")
        try:
            second = run_command("builder", "catalog", "--data", str(small_data))
        finally:
            process.send_signal(signal.SIGCONT)
        assert second.returncode == 2, (second.stdout, second.stderr)
        assert "being built by another builder" in second.stderr, second.stderr
        assert "query serve" in second.stderr, second.stderr
        ended = _job_ended(server, job["id"])
        assert ended["state"] == "done", ended
        table = small_data / "tricolore" / "4x4" / "targets" / f"{target}.zarr"
        assert store.damaged_chunks(table) == []
        assert store.missing_from_build(table) == []
        attributes = store.read_attributes(table)
        assert attributes["arrays"] and all((table / name).is_dir()
                                            for name in attributes["arrays"])
        answer = _get(server, f"/api/play/tricolore/position?state={START}&target={target}"
                              "&method=unrestricted")
        assert answer["answered_by"] == "table", answer
    finally:
        process.terminate()
        process.wait(timeout=120)
    assert run_command("builder", "catalog", "--data", str(small_data)).returncode == 0


def _holder(data: Path) -> subprocess.Popen:
    """Another process holding the data directory's lock, as a command-line builder does,
    until it is killed."""
    holder = subprocess.Popen(
        [sys.executable, "-c", ("import sys, time\n"
                                "from builder import workspace\n"
                                "workspace.hold(sys.argv[1], 'builder tables --data ' + "
                                "sys.argv[1])\nprint('held', flush=True)\ntime.sleep(120)\n"),
         str(data)],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_web_build_while_a_builder_holds_the_directory_fails_in_one_line(small_data):
    holder = _holder(small_data)
    try:
        with served(small_data, "--allow-builds", "2") as server:
            job = _post(server, f"/api/play/tricolore/table?state={START}&target={TARGET}")
            ended = _job_ended(server, job["id"])
    finally:
        holder.kill()
        holder.wait()
    assert ended["state"] == "failed" and "another builder" in ended["detail"], ended
    assert str(small_data) not in ended["detail"] and "\n" not in ended["detail"]
    assert not (small_data / "tricolore" / "4x4").exists()


def test_a_sweep_keeps_a_live_writers_staging_and_removes_a_dead_ones(small_data):
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        folder = small_data / "tricolore"
        live_staging = folder / f".x.zarr.building-{alive.pid}-0123abcd"
        dead_staging = folder / f".y.zarr.building-{dead.pid}-0123abcd"
        unnamed = folder / ".z.zarr.building-0123abcd"  # an older builder's
        for path in (live_staging, dead_staging, unnamed):
            path.mkdir()
        assert run_command("builder", "catalog", "--data", str(small_data)).returncode == 0
        assert live_staging.is_dir()
        assert not dead_staging.exists() and not unnamed.exists()
    finally:
        alive.kill()
        alive.wait()


def test_a_staging_name_names_its_writer():
    name = workspace.staging_name(Path("/d/t.zarr")).name
    assert name.startswith(".t.zarr.building-") and workspace.staging_owner(name) > 0
    assert workspace.staging_owner(".t.zarr.building-0123abcd") is None
    assert workspace.staging_owner(".t.zarr.building") is None


@pytest.mark.parametrize("lost", ["an array", "a chunk", "the checksum record"])
def test_a_build_that_lost_a_file_is_not_published(tmp_path, monkeypatch, lost):
    import shutil

    import numpy as np

    if lost == "the checksum record":  # lost after it is written: the rename is next
        record = store.record_checksums

        def record_then_lose(table):
            record(table)
            (Path(table) / store.CHECKSUMS).unlink()
        monkeypatch.setattr(store, "record_checksums", record_then_lose)
    path = tmp_path / "t.zarr"
    with pytest.raises(store.IncompleteBuildError, match="nothing was published"), \
            store.publishing(path) as staging:
        store.write_table(staging, {"a": np.arange(10, dtype=np.uint8),
                                    "b": np.arange(10, dtype=np.uint8)},
                          {"a": (5,), "b": (5,)}, {"puzzle": "p"})
        if lost == "an array":
            shutil.rmtree(staging / "b")
        elif lost == "a chunk":
            (staging / "a" / "c" / "1").unlink()
    assert not path.exists()
    assert not list(tmp_path.iterdir()), "the staging is removed too"
