"""Reliability: every bad input is one line and a non-zero exit, injected faults are
detected before a wrong answer, builders exclude each other and stop at once on Ctrl-C,
and `query serve` stays up and exact under concurrent requests."""

from __future__ import annotations

import contextlib
import fcntl
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import pytest

from builder.contract.puzzle import Walking
from builder.store import TABLE_FORMAT
from tests.commands import run_command as run
from tests.commands import wait_for

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent
LONG_BOARD = "R" * 41


def assert_one_line_error(result: subprocess.CompletedProcess, words: str = "") -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stdout[-300:], result.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    assert words.lower() in lines[0].lower(), lines[0]
    assert len(lines[0]) < 400, "an error never echoes a long input whole"


# --- bad input, every command -----------------------------------------------------------

QUERY_BAD_INPUTS = [
    (("path", "tricolore:WBXW.WBRB", "RRRR.RRRR"), "letters"),
    (("path", "WBXW.WBRB", "RRRR.RRRR"), "no puzzle's notation"),
    (("path", f"tricolore:{LONG_BOARD}", LONG_BOARD), "at most 39"),
    (("path", "R" * 7 + ".RRRRRRR" * 6, "R" * 7 + ".RRRRRRR" * 6), "at most 39"),
    (("path", "R" * 10_000, "R"), "too long"),
    (("distance", "RRRR.RRRR.RRRR.RRRR.RRRR.RRRR.RRRR.RRRR",
      "RRRR.RRRR.RRRR.RRRR.RRRR.RRRR.RRRR.WRRR"), "GiB"),
    (("path", "AAA_BBB", "BBB_AAA", "--method", "hybrid"), "--method does not apply to lucas"),
    (("path", "rggb|brrg|gbbr|", "cleared", "--method", "hybrid"), "does not apply to balls"),
    (("path", "x-z", "abc"), "no puzzle's notation"),
    (("path", "AAA_BBB", "BBB_AAA", "--puzzle", "chess"), "no puzzle 'chess'"),
    (("moves", "WBWW.WBRB"), "give a TARGET"),
    # (round 9: a target other than the start or the goal is searched now, as under the
    # classic rule, so `moves AAA_BBB AAB_ABB` answers; a target of another size cannot)
    (("moves", "AAA_BBB", "AA_BB"), "not 3 A's, 3 B's"),
    (("moves", "10000.0000.0000.0000"), "rows of"),
    (("path", "A" * 150 + "_" + "B" * 150, "B" * 150 + "_" + "A" * 150), "too many to print"),
    (("path", "rggb|brrg|gbbr|", "RRRR"), "cleared"),
    (("path", "WBWW.WBRB"), "give a TARGET"),  # no single goal, unlike a ball state
    (("path", "WBWW.WBRB", "RRRR.RRRR", "--bogus"), "no such option"),
    (("sql", ""), "empty SQL"),
    (("sql", ";"), "empty SQL"),
    (("sql", "SELEC 1"), "SQL error"),
    (("sql", "COPY (SELECT 42) TO 'x.csv'"), "disabled"),
    (("sql", "EXPORT DATABASE 'exported'"), "disabled"),
    (("sql", "SELECT * FROM read_csv('/etc/passwd')"), "disabled"),
    (("sql", "SELECT * FROM glob('/etc/*')"), "disabled"),
    (("sql", "SET enable_external_access = true"), "SQL error"),
    (("random", "balls", "--seed", "-1"), "--seed"),
    (("random", "spots", "--seed", "-1"), "--seed"),
    (("random", "balls", "--min-moves", "40"), "hardest needs 18"),
    (("plot", "tricolore", "--out", "/proc/nope"), "cannot write"),
    (("plot", "tricolore", "--out", "README.md"), "is a file"),
    (("serve", "--port", "70000"), "--port"),
    (("solvable", "rggx|brrg|gbbr|"), "same number of balls"),
    (("solvable", "rggbb|rrg|gbbr|"), "more than"),
    (("lightsout", "solve", "012.000.000"), "other than 0 and 1"),
    (("spots", "solve", "--set", "3"), "sets 1 and 2"),
    (("stats", "tricolore", "--data", "/nonexistent"), "no catalog"),
]


@pytest.mark.parametrize("args, words", QUERY_BAD_INPUTS,
                         ids=[" ".join(a)[:60] for a, _ in QUERY_BAD_INPUTS])
def test_query_bad_input_is_one_line(data_dir, args, words, tmp_path):
    extra = () if "--data" in args or args[0] in ("lightsout", "spots") or args[:2] == (
        "random", "spots") else (
        "--data", str(data_dir))
    result = run("query", *args, *extra, cwd=ROOT if args[0] == "plot" else tmp_path)
    assert_one_line_error(result, words)
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "exported").exists()


BUILDER_BAD_INPUTS = [
    (("tricolore", "--data", "/etc/passwd"), "not a directory"),
    (("tricolore", "--data", "/proc/nope/data"), "cannot create"),
    (("catalog", "--data", "/nonexistent"), "no data directory"),
    (("spots", "--sets", "0"), "--sets"),
    (("tricolore4x4-decomposition", "--pairs", "0"), "--pairs"),
    (("tricolore4x4-decomposition", "--pairs", "10"), "no unrestricted table"),
    (("verify", "--samples", "-1"), "--samples"),
    (("tricolore", "--force", "--scheduler", "bogus"), "not a scheduler address"),
    (("tricolore", "--workers", "1000"), "local worker processes"),
    (("tables", "--jobs", "-1"), "--jobs"),
    (("tricolore", "--width", "4", "--height", "4"), "does not fit"),
    (("tricolore", "--method", "diagonal"), "unknown method"),
    (("lucas", "--max-n", "0"), "--max-n"),
    (("lucas", "--max-n", "100"), "arrangements"),
    (("lucas", "--max-n", "12"), "GiB"),
    (("balls", "--tubes", "1000"), "64 bits"),
    (("balls", "--capacity", "1000"), "from 1 to 8"),
    (("balls", "--tubes", "62", "--capacity", "1", "--colours", "1"), "fill patterns"),
    (("balls", "--tubes", "6", "--capacity", "4", "--colours", "5"), "minutes"),
    (("balls", "--tubes", "2", "--colours", "3"), "cannot hold"),
    (("tricolore4x4", "--target", "BBBB.BBBB.BBBB.BBBB"), "cannot be reached"),
    (("tricolore4x4", "--target", "RRRR.RRRR"), "not 4 rows"),
    (("tricolore4x4-reachability", "--start", "RRRR"), "not 4 rows"),
    (("nonsense",), "no such command"),
]


@pytest.mark.parametrize("args, words", BUILDER_BAD_INPUTS,
                         ids=[" ".join(a)[:60] for a, _ in BUILDER_BAD_INPUTS])
def test_builder_bad_input_is_one_line(args, words, tmp_path):
    extra = () if "--data" in args or args == ("nonsense",) else ("--data", str(tmp_path))
    result = run("builder", *args, *extra)
    assert_one_line_error(result, words)
    assert not list(tmp_path.rglob("*.zarr")), "nothing is published for a refused build"


# --- a small data directory to damage ---------------------------------------------------

@pytest.fixture(scope="session")
def small_data(tmp_path_factory, worker_id) -> Path:
    """Lucas' document table up to n = 3 (not the classic rule's, whose 3.9 million
    entries every verify of a copy would check again: `test_lucas_forward` verifies it),
    the document's ball game, 3×2 all pairs, a 3×3 target table: built once for the whole
    run, however many pytest-xdist workers share it (each test damages a copy of its
    own), under a lock in their common temporary folder."""
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent
    data, built = shared / "small_data", shared / "small_data.built"
    with open(shared / "small_data.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            shutil.rmtree(data, ignore_errors=True)
            for args in (("build", "lucas", "3"), ("balls",),
                         ("tricolore", "--width", "3", "--height", "2", "--method",
                          "unrestricted"),
                         ("tricolore4x4", "--width", "3", "--height", "3", "--target",
                          "RRR.RRR.RRR")):
                result = run("builder", *args, "--quiet", "--data", str(data), timeout=300)
                assert result.returncode == 0, result.stderr
            verified = run("builder", "verify", "--data", str(data))
            assert verified.returncode == 0 and "FAIL" not in verified.stdout, verified.stdout
            built.touch()
    return data


def damaged_copy(small_data: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(small_data, copy)
    return copy


def flip_a_byte(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x40
    path.write_bytes(bytes(raw))


def tamper_lucas_start(data: Path) -> None:
    """The issue's reproduction: the start's distance to the goal set to 0, the chunk
    rewritten as valid zstd (only the checksum can tell)."""
    import zarr

    array = zarr.open_array(data / "lucas" / "tables.zarr" / "n3_to_goal", mode="r+")
    from puzzles.lucas.rules import Lucas

    rules = Lucas(3)
    values = array[...]
    values[int(rules.rank(np.array([rules.parse(rules.start)]))[0])] = 0
    array[...] = values


FAULTS = {
    "lucas distance tampered": (tamper_lucas_start, ("path", "AAA_BBB", "BBB_AAA"),
                                "lucas", "corrupted"),
    "lucas checksums deleted": (lambda d: (d / "lucas/tables.zarr/checksums.json").unlink(),
                                ("path", "AAA_BBB", "BBB_AAA"), "lucas", "checksums.json"),
    "lucas checksums garbled": (lambda d: (d / "lucas/tables.zarr/checksums.json").write_text(
        "{not json"), ("path", "AAA_BBB", "BBB_AAA"), "lucas", "checksums.json"),
    "tricolore chunk flipped": (lambda d: flip_a_byte(
        d / "tricolore/3x2/unrestricted.zarr/clicks/c/0/0"),
        ("path", "WWW.WWW", "RRR.RRR"), "3x2", "corrupted"),
    "tricolore chunk deleted": (lambda d: (
        d / "tricolore/3x2/unrestricted.zarr/clicks/c/0/0").unlink(),
        ("path", "WWW.WWW", "RRR.RRR"), "3x2", "missing"),
    "tricolore array metadata garbled": (lambda d: (
        d / "tricolore/3x2/unrestricted.zarr/clicks/zarr.json").write_text('{"shape": 3}'),
        ("path", "RRR.RRR", "WWW.WWW"), "3x2", "garbled"),
    "tricolore group metadata garbled": (lambda d: (
        d / "tricolore/3x2/unrestricted.zarr/zarr.json").write_text("\x00\x01"),
        ("distance", "RRR.RRR", "WWW.WWW"), "3x2", "unreadable"),
    "tricolore other table format": (lambda d: (
        d / "tricolore/3x2/unrestricted.zarr/zarr.json").write_text(
        (d / "tricolore/3x2/unrestricted.zarr/zarr.json").read_text().replace(
            f'"table_format": {TABLE_FORMAT}', f'"table_format": {TABLE_FORMAT - 1}')),
        ("path", "RRR.RRR", "WWW.WWW"), "3x2", "format"),
    "ball key index deleted": (lambda d: shutil.rmtree(d / "balls/4_4_3.zarr/class_key_index"),
                               ("solvable", "rggb|brrg|gbbr|"), "4_4_3", "missing"),
    "ball moves chunk flipped": (lambda d: flip_a_byte(
        d / "balls/4_4_3.zarr/moves_to_clear/c/0"),
        ("path", "rggb|brrg|gbbr|", "cleared"), "4_4_3", "corrupted"),
    "target table chunk flipped": (lambda d: flip_a_byte(
        d / "tricolore/3x3/targets/RRR.RRR.RRR.zarr/clicks/c/0"),
        None, "3x3", "corrupted"),
    "catalog truncated": (lambda d: (d / "catalog.duckdb").write_bytes(
        (d / "catalog.duckdb").read_bytes()[:5000]),
        ("sql", "SELECT * FROM lucas_summary"), "catalog", "catalog"),
    "catalog deleted": (lambda d: (d / "catalog.duckdb").unlink(),
                        ("sql", "SELECT 1"), "catalog", "no catalog"),
    # queries on its game fall back to the ball solver (exact, tested in
    # test_balls_solver.py); verify still names the table
    "a catalogued table deleted": (lambda d: shutil.rmtree(d / "balls/4_4_3.zarr"),
                                   None, "4_4_3", None),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_injected_fault_is_named_not_answered(small_data, tmp_path, fault):
    inject, query_args, table_words, error_words = FAULTS[fault]
    data = damaged_copy(small_data, tmp_path)
    inject(data)
    if query_args is not None:
        answered = run("query", *query_args, "--data", str(data))
        assert_one_line_error(answered, error_words)
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 1 and "Traceback" not in verified.stderr, verified.stderr
    failing = [line for line in verified.stdout.splitlines()
               if line.startswith("FAIL") and table_words in line]
    assert failing, verified.stdout


def test_a_damaged_table_is_never_loaded_into_the_catalog(small_data, tmp_path):
    data = damaged_copy(small_data, tmp_path)
    flip_a_byte(data / "tricolore/3x2/unrestricted.zarr/clicks/c/0/0")
    assert_one_line_error(run("builder", "catalog", "--force", "--data", str(data)),
                          "damaged")


def test_lucas_max_n_zero_leaves_the_directory_usable(tmp_path):
    assert_one_line_error(run("builder", "lucas", "--max-n", "0", "--data", str(tmp_path)))
    built = run("builder", "lucas", "--max-n", "2", "--quiet", "--data", str(tmp_path))
    assert built.returncode == 0, built.stderr
    assert run("query", "path", "AA_BB", "BB_AA", "--data", str(tmp_path)).returncode == 0


# --- builders on one data directory -----------------------------------------------------

def test_a_second_builder_is_told_who_holds_the_directory(tmp_path):
    lock = tmp_path / ".builder.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("pid 4242: builder tables, since now")
        held.flush()
        result = run("builder", "lucas", "--max-n", "2", "--data", str(tmp_path))
    assert_one_line_error(result, "being built by another builder (pid 4242: builder tables")
    assert not (tmp_path / "lucas").exists()
    assert run("builder", "lucas", "--max-n", "2", "--quiet",
               "--data", str(tmp_path)).returncode == 0


def test_orphaned_staging_is_swept_when_a_builder_starts(tmp_path):
    orphan = tmp_path / "lucas" / ".tables.zarr.building-deadbeef"
    orphan.mkdir(parents=True)
    (orphan / "zarr.json").write_text("{}")
    assert run("builder", "lucas", "--max-n", "2", "--quiet",
               "--data", str(tmp_path)).returncode == 0
    assert not orphan.exists()


def _started_as_in_a_terminal(command: list[str]) -> subprocess.Popen:
    """``command`` started as a terminal's foreground command, which receives Ctrl-C: a
    test run started in the background (`make test &`) ignores SIGINT, and a child
    inherits an ignored signal (it would never see the Ctrl-C the test sends)."""
    ignored = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGINT, ignored)


def test_ctrl_c_stops_a_build_inside_its_kernel_at_once(tmp_path):
    build = _started_as_in_a_terminal([str(BIN / "builder"), "balls", "--tubes", "5",
                                       "--capacity", "4", "--colours", "4",
                                       "--data", str(tmp_path)])
    # wait for the search's progress bar: the signal must land inside the kernel, not in
    # start-up (imports and loading compiled kernels hold the interpreter a while on a
    # busy machine, and no program can answer a signal then)
    seen = b""
    deadline = time.monotonic() + 120  # (only a hang reaches it)
    while b"search" not in seen and time.monotonic() < deadline:
        chunk = os.read(build.stderr.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    assert b"search" in seen and build.poll() is None, seen[-500:]
    time.sleep(0.05)  # inside the search (about 0.4 s of it since the kernels got faster)
    assert build.poll() is None
    build.send_signal(signal.SIGINT)
    _, rest = build.communicate(timeout=120)  # only a build that ignores Ctrl-C gets near
    stderr = (seen + (rest or b"")).decode(errors="replace")
    assert build.returncode == 130 and "Traceback" not in stderr, stderr
    # at once: the search's last line (its classes that cannot be cleared, written when
    # its kernel returns) never came, whatever the machine's load
    assert "cannot be cleared" not in stderr, stderr[-500:]
    assert "run the same command again" in stderr
    assert not [p for p in tmp_path.rglob("*") if ".building-" in p.name]
    assert not (tmp_path / "balls" / "5_4_4.zarr").exists()


# --- the server under concurrent requests -----------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def started_server(data_dir: Path) -> tuple[subprocess.Popen, int]:
    """`query serve`, answering, its stderr kept for the test to read."""
    from tests.browser import start_server

    return start_server(data_dir, stderr=subprocess.PIPE)


HINTS_A_CLIENT = 30
"""Hints each of the 8 concurrent clients asks (the server's CPU grows with them)."""


def test_server_survives_concurrent_hints_and_every_answer_is_exact(data_dir):
    """8 threads of random 4×4 and 4×2 hints (the generic path's first move), 30 each: no
    crash, no spurious error, and every answer equal to the same question asked of the
    tables here (the engine's walk, its length the plug-in's own hint's count)."""
    from builder import registry
    from puzzles.tricolore import Tricolore
    from query.walk import Tables, walk
    from tests.walks import tricolore_hint

    rng = np.random.default_rng(12)
    big, half = Tricolore(4, 4), Tricolore(4, 2)
    tables = Tables(data_dir)
    puzzle = registry.by_name("tricolore")
    questions = []
    pairs = [(big, int(board), big.parse("RRRR.RRRR.RRRR.RRRR"))
             for board in rng.integers(0, big.n_boards, 300)]
    pairs += [(half, int(board), int(target))
              for board, target in rng.integers(0, half.n_boards - 1, (100, 2))]
    for rules, board, target in pairs:
        _, remaining = tricolore_hint(tables, rules, board, -1, target, "unrestricted")
        query = {"state": rules.format(board), "target": rules.format(target)}
        variant = puzzle.variant(query["state"], query["target"], {})
        found = walk(puzzle, tables, variant, puzzle.parse(variant, query["state"]),
                     Walking.of(puzzle).parse_target(variant, query["target"]))
        assert found.length == remaining
        questions.append((query, int(found.labels[0]) if found.labels else None, remaining))

    server, port = started_server(data_dir)
    try:
        answered, wrong = [0] * 8, []

        def client(number: int) -> None:  # a count, not a time: a busy machine answers all
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            position = number * 37
            while answered[number] < HINTS_A_CLIENT and not wrong:
                query, click, remaining = questions[position % len(questions)]
                position += 1
                try:
                    connection.request("GET", "/api/play/tricolore/path?" + urlencode(query))
                    response = connection.getresponse()
                    body = json.loads(response.read())
                except (OSError, ValueError) as error:
                    wrong.append(f"{query}: {error!r}")
                    return
                first = int(body["moves"][0]["label"]) if body.get("moves") else None
                if response.status != 200 or (first, body["length"]) != (click, remaining):
                    wrong.append(f"{query}: {response.status} {body}")
                answered[number] += 1

        threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert server.poll() is None, "the server died under load"
        assert not wrong, wrong[:3]
        assert answered == [HINTS_A_CLIENT] * 8, answered
    finally:
        server.kill()
        server.wait()


# --- round 2: damaged data never answers, the catalog is never lost -----------------------

def remove_checksum_line(table: Path, key: str) -> None:
    record = json.loads((table / "checksums.json").read_text())
    del record["crc32"][key]
    (table / "checksums.json").write_text(json.dumps(record))


def rerecord_checksums(table: Path) -> None:
    """A forger's last step: every file's checksum recomputed."""
    from builder.store import record_checksums

    record_checksums(table)


def edit_metadata(table: Path, array: str, change) -> None:
    path = table / array / "zarr.json"
    metadata = json.loads(path.read_text())
    change(metadata)
    path.write_text(json.dumps(metadata, indent=2))


PAIRS = "tricolore/3x2/unrestricted.zarr"
BALLS = "balls/4_4_3.zarr"


def _chunk_and_line_gone(data: Path, table: str, key: str) -> None:
    (data / table / key).unlink()
    remove_checksum_line(data / table, key)


def _separator_changed(data: Path) -> None:
    edit_metadata(data / PAIRS, "clicks", lambda m: m["chunk_key_encoding"]["configuration"]
                  .update(separator="."))


def _fill_changed_and_chunk_gone(data: Path) -> None:
    edit_metadata(data / PAIRS, "clicks", lambda m: m.update(fill_value=3))
    _chunk_and_line_gone(data, PAIRS, "clicks/c/0/0")


def _shape_claimed_and_rerecorded(data: Path) -> None:
    edit_metadata(data / PAIRS, "clicks", lambda m: m.update(shape=[600, 729]))
    rerecord_checksums(data / PAIRS)


DATA_FAULTS = {
    "chunk and its checksum line deleted": (
        lambda d: _chunk_and_line_gone(d, PAIRS, "clicks/c/0/0"),
        ("distance", "WWW.WWW", "RRR.RRR"), "3x2", "missing"),
    "ball chunk and its checksum line deleted": (
        lambda d: _chunk_and_line_gone(d, BALLS, "moves_to_clear/c/0"),
        ("solvable", "rggb|brrg|gbbr|"), "4_4_3", "missing"),
    "chunk key separator changed": (_separator_changed, ("distance", "RRR.RRR", "WWW.WWW"),
                                    "3x2", "checksum"),
    "fill value changed and a chunk deleted": (
        _fill_changed_and_chunk_gone, ("distance", "RRR.RRR", "WWW.WWW"), "3x2", "checksum"),
    "sole_click chunk and its line deleted": (
        lambda d: _chunk_and_line_gone(d, PAIRS, "sole_click/c/0/0"),
        ("moves", "WBW.WBR", "RRR.RRR"), "3x2", "missing"),
    "shape claimed larger, checksums recomputed": (
        _shape_claimed_and_rerecorded, ("distance", "BBB.BBW", "RRR.RRR"), "3x2", "claims"),
}


@pytest.mark.parametrize("fault", list(DATA_FAULTS))
def test_damaged_metadata_or_missing_chunks_are_named_before_an_answer(small_data, tmp_path,
                                                                       fault):
    inject, query_args, table_words, error_words = DATA_FAULTS[fault]
    data = damaged_copy(small_data, tmp_path)
    inject(data)
    assert_one_line_error(run("query", *query_args, "--data", str(data)), error_words)
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 1, verified.stdout
    assert [line for line in verified.stdout.splitlines()
            if line.startswith("FAIL") and table_words in line], verified.stdout


def _raise_every_distance(table: Path, array: str) -> None:
    import zarr

    stored = zarr.open_array(table / array, mode="r+")
    values = stored[...]
    never = np.iinfo(values.dtype).max
    stored.with_config({"write_empty_chunks": True})[...] = np.where(
        values == never, values, values + 2)
    rerecord_checksums(table)


def test_verify_fails_a_forged_ball_table_with_recomputed_checksums(small_data, tmp_path):
    """Every distance raised by 2 keeps the recurrence everywhere but at the goal: verify
    checks the goal's own entries, and the histogram against the catalog's."""
    data = damaged_copy(small_data, tmp_path)
    _raise_every_distance(data / BALLS, "moves_to_clear")
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 1
    (failing,) = [line for line in verified.stdout.splitlines() if "4_4_3" in line]
    assert failing.startswith("FAIL") and "cleared" in failing, failing


def test_verify_fails_a_forged_target_table(small_data, tmp_path):
    """A Tricolore distance is at least 1: a table raised by 2 has no board one click from
    its target, whatever the sample."""
    data = damaged_copy(small_data, tmp_path)
    table = data / "tricolore/3x3/targets/RRR.RRR.RRR.zarr"
    for array in ("clicks", "clicks_avoiding_sole"):
        _raise_every_distance(table, array)
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    (failing,) = [line for line in verified.stdout.splitlines() if "RRR.RRR.RRR" in line]
    assert verified.returncode == 1 and failing.startswith("FAIL"), verified.stdout
    assert "least entry is not 1" in failing, failing


def test_verify_fails_a_forged_lights_out_table(data_dir, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(data_dir / "lightsout", data / "lightsout")
    _raise_every_distance(data / "lightsout" / "tables.zarr", "clicks_5x5")
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    (failing,) = [line for line in verified.stdout.splitlines() if "lightsout" in line]
    assert verified.returncode == 1 and failing.startswith("FAIL"), verified.stdout
    assert "dark board" in failing, failing


def test_verify_fails_a_catalog_whose_rows_were_edited(small_data, tmp_path):
    import duckdb

    data = damaged_copy(small_data, tmp_path)
    assert run("builder", "verify", "--samples", "0", "--data", str(data)).returncode == 0
    with duckdb.connect(str(data / "catalog.duckdb")) as con:
        parts = [part for (part,) in con.execute(
            "SELECT part FROM catalog_parts WHERE name = 'tricolore_pairs'").fetchall()]
        assert parts
        for part in parts:
            con.execute(f"UPDATE {part} SET clicks = clicks + 1 WHERE clicks IS NOT NULL")
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 1
    (catalog_line,) = [line for line in verified.stdout.splitlines()
                       if "catalog.duckdb" in line]
    assert catalog_line.startswith("FAIL") and "tricolore_pairs" in catalog_line, catalog_line


def test_verify_names_the_table_whose_histogram_the_catalog_no_longer_holds(small_data,
                                                                             tmp_path):
    import duckdb

    data = damaged_copy(small_data, tmp_path)
    with duckdb.connect(str(data / "catalog.duckdb")) as con:
        con.execute("UPDATE table_distances SET states = states + 1 "
                    "WHERE source = 'lucas/tables.zarr'")
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 1
    (lucas,) = [line for line in verified.stdout.splitlines() if "lucas/tables.zarr" in line]
    assert lucas.startswith("FAIL") and "distance histogram differs" in lucas, lucas
    others = [line for line in verified.stdout.splitlines()
              if "zarr" in line and "lucas/tables.zarr" not in line]
    assert others and all(line.startswith("ok") for line in others), others


def test_a_catalog_rebuild_that_loses_rows_keeps_the_old_catalog(small_data, tmp_path,
                                                                 monkeypatch):
    """A staged catalog is read back before it replaces the old one: here the writes of
    every table's rows are lost (as on a full disk that reports no error)."""
    from builder import catalog

    data = damaged_copy(small_data, tmp_path)
    before = (data / "catalog.duckdb").read_bytes()
    monkeypatch.setattr(catalog, "_load_source", lambda *args: None)
    with pytest.raises(catalog.CatalogNotReplacedError, match="previous catalog is kept"):
        catalog.refresh_catalog(data, force=True)
    assert (data / "catalog.duckdb").read_bytes() == before
    assert not [p for p in data.iterdir() if ".building-" in p.name]


def test_a_catalog_rebuild_on_a_full_disk_keeps_the_old_catalog(small_data, tmp_path):
    """The file-size limit stands in for a full disk: writing fails part way."""
    import resource

    data = damaged_copy(small_data, tmp_path)
    before = (data / "catalog.duckdb").read_bytes()

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

    result = subprocess.run([str(BIN / "builder"), "catalog", "--force", "--data", str(data)],
                            capture_output=True, text=True, preexec_fn=small_files, timeout=120,
                            check=False)
    assert result.returncode != 0 and "rebuilt" not in result.stdout, result.stdout
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1
    assert (data / "catalog.duckdb").read_bytes() == before


def test_tables_in_symlinked_folders_are_found_and_kept(small_data, tmp_path):
    data = damaged_copy(small_data, tmp_path)
    elsewhere = tmp_path / "other_disk"
    elsewhere.mkdir()
    shutil.move(str(data / "balls"), elsewhere / "balls")
    (data / "balls").symlink_to(elsewhere / "balls")
    answered = run("query", "solvable", "rggb|brrg|gbbr|", "--data", str(data))
    assert answered.returncode == 0 and "12" in answered.stdout, answered.stderr
    assert run("builder", "catalog", "--force", "--data", str(data)).returncode == 0
    listed = run("query", "sql", "SELECT count(*) AS n FROM catalog_sources "
                 "WHERE source LIKE 'balls/%'", "--csv", "--data", str(data))
    assert listed.stdout.splitlines()[1] == "1", listed.stdout
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 0 and "balls/4_4_3.zarr" in verified.stdout


def test_a_forced_rebuild_leaves_the_catalog_current(small_data, tmp_path):
    data = damaged_copy(small_data, tmp_path)
    rebuilt = run("builder", "tricolore", "--width", "3", "--height", "2", "--method",
                  "unrestricted", "--force", "--quiet", "--data", str(data))
    assert rebuilt.returncode == 0, rebuilt.stderr
    verified = run("builder", "verify", "--samples", "0", "--data", str(data))
    assert verified.returncode == 0, verified.stdout


# --- round 2: one-line errors, bounded work ---------------------------------------------

def test_a_device_as_a_disc_set_is_refused_without_reading_it_whole(tmp_path):
    """/dev/zero never ends: read whole, it would fill the 3 GiB the process may map (a
    MemoryError, not a one-line refusal) or run to the timeout, which only a hang reaches."""
    import resource

    def bounded_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))

    assert_one_line_error(run("query", "spots", "solve", "/dev/zero", timeout=120,
                              preexec_fn=bounded_memory), "more than")


@pytest.mark.parametrize("spots", ["5", "[null, null, null, null, null, null]"])
def test_disc_sets_of_the_wrong_types_are_one_line(tmp_path, spots):
    discs = {f"d{i}": json.loads(spots) for i in range(1, 8)}
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"discs": discs}))
    assert_one_line_error(run("query", "spots", "solve", str(path)), "must show each")


ROUND_TWO_BUILDER = [
    (("lucas", "--max-n", "600"), "10^50"),
    (("spots", "--seed", "-1"), "--seed"),
    (("build", "hanoi", "4:"), "4:POSITION"),
]


@pytest.mark.parametrize("args, words", ROUND_TWO_BUILDER,
                         ids=[" ".join(a) for a, _ in ROUND_TWO_BUILDER])
def test_builder_round_two_inputs_are_one_line(args, words, tmp_path):
    assert_one_line_error(run("builder", *args, "--data", str(tmp_path)), words)
    assert not list(tmp_path.rglob("*.zarr"))


def test_a_binary_results_file_is_one_line(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_bytes(bytes(range(256)) * 4)
    assert_one_line_error(run("builder", "tricolore4x4-stats", "--results", str(results),
                              "--data", str(tmp_path)), "not text")


@pytest.mark.parametrize("missing", [True, False], ids=["missing", "empty"])
def test_verify_and_catalog_of_no_tables_are_one_line_errors(tmp_path, missing):
    data = tmp_path / "data"
    if not missing:
        data.mkdir()
    assert_one_line_error(run("builder", "verify", "--data", str(data)),
                          "does not exist" if missing else "no tables")
    assert_one_line_error(run("builder", "catalog", "--data", str(data)),
                          "no data directory" if missing else "no tables")
    assert not (data / "catalog.duckdb").exists()


def test_build_table_checks_the_directory_before_searching():
    """/proc/sys cannot be written even by root: refused before any search starts."""
    result = run("query", "path", "WBWW.WBRB.RRRR.RRRR", "BRRR.RRRR.RRRR.RRRW",
                 "--build-table", "--data", "/proc/sys")
    assert_one_line_error(result, "read-only")
    assert "search" not in result.stderr.lower().replace("error:", "")


QUERY_ROUND_TWO = [
    (("random", "balls", "--tubes", "5", "--empty", "2", "--colours", "4"), "give one"),
    (("sql", "SELECT 1", "--json", "--csv"), "choose one"),
    (("sql", "SELECT count(*) FROM range(10000000000000) a, range(1000) b",
      "--timeout", "1"), "stopped after 1 s"),
]


@pytest.mark.parametrize("args, words", QUERY_ROUND_TWO,
                         ids=[" ".join(a)[:50] for a, _ in QUERY_ROUND_TWO])
def test_query_round_two_inputs_are_one_line(data_dir, args, words):
    assert_one_line_error(run("query", *args, "--data", str(data_dir), timeout=60), words)


def test_an_unchecked_deal_at_any_size_is_dealt_at_once(data_dir):
    """At once: dealt without a search (nothing explored), at the largest size."""
    dealt = run("query", "random", "balls", "--colours", "26", "--capacity", "8", "--empty",
                "2", "--seed", "1", "--json", "--data", str(data_dir), timeout=120)
    assert dealt.returncode == 0, dealt.stderr
    found = json.loads(dealt.stdout)
    assert found["verdict"] == "not checked" and found["state"].count("|") == 27
    assert found["explored"] == 0 and found["moves"] is None


def test_a_hopeless_deal_hunt_stops_at_its_time_limit(data_dir):
    hunted = run("query", "random", "balls", "--colours", "14", "--capacity", "8", "--empty",
                 "1", "--min-moves", "255", "--seconds", "2", "--data", str(data_dir),
                 timeout=60)
    assert_one_line_error(hunted, "no deal")


def test_sql_output_is_streamed_batch_by_batch(capsys):
    """The first rows are printed before the last are fetched."""
    from query.cli import _print_batches

    batches = iter([[(1, "a")], [(2, "b")]])

    def fetch():
        try:
            return next(batches)
        except StopIteration:
            raise RuntimeError("fetched past the end") from None

    with pytest.raises(RuntimeError):
        _print_batches(["n", "s"], fetch, False, True)
    assert capsys.readouterr().out.splitlines() == ["n,s", "1,a", "2,b"]


def test_decomposition_of_a_board_to_itself_clicks_at_least_once(data_dir):
    answered = run("query", "path", "RRRR.RRRR.RRRR.RRRR", "RRRR.RRRR.RRRR.RRRR",
                   "--method", "decomposition", "--json", "--data", str(data_dir))
    found = json.loads(answered.stdout)
    exact = run("query", "distance", "RRRR.RRRR.RRRR.RRRR", "RRRR.RRRR.RRRR.RRRR",
                "--data", str(data_dir))
    assert found["length"] >= int(exact.stdout) >= 1
    assert found["boards"][0] == found["boards"][-1] == "RRRR.RRRR.RRRR.RRRR"
    assert len(found["clicks"]) == found["length"]


def test_lucas_json_has_one_layout_for_every_rule_and_route(data_dir):
    layouts = set()
    for args in (("AAA_BBB", "BBB_AAA"), ("AAB_ABB", "BBA_BAA"),
                 ("AAA_BBB", "BBB_AAA", "--variant", "forward")):
        answered = run("query", "path", *args, "--json", "--data", str(data_dir))
        assert answered.returncode == 0, answered.stderr
        layouts.add(tuple(json.loads(answered.stdout)))
    assert len(layouts) == 1, layouts


# --- round 2: a server that cheap requests cannot starve --------------------------------

def test_server_limits_expensive_work_and_says_why(data_dir):
    from fastapi.testclient import TestClient

    from builder.gate import WorkGate
    from query.web import create_app

    client = TestClient(create_app(data_dir, gate=WorkGate(max_budget=10_000)))
    over = client.get("/api/balls/solve", params={"state": "abcd|bcda|cdab|dabc||",
                                                   "budget": 20_000_000})
    assert over.status_code == 429 and "10,000" in over.json()["detail"]
    built = client.post("/api/play/tricolore/table", params={
        "state": "WBWW.WBRB.RRRR.RRRR", "target": "BRRR.RRRR.RRRR.RRRW"})
    assert built.status_code == 403 and "--allow-builds" in built.json()["detail"]
    position = client.get("/api/play/tricolore/position", params={
        "state": "WBWW.WBRB.RRRR.RRRR", "target": "BRRR.RRRR.RRRR.RRRW"}).json()
    assert position["buildable"] is False
    for square in ("-1", "99"):
        clicked = client.get("/api/play/tricolore/position", params={
            "state": "WBWW.WBRB", "target": "RRRR.RRRR", "context": square})
        assert clicked.status_code == 400 and "a square of the board" in clicked.json()["detail"]


@contextlib.contextmanager
def slot_held(gate):
    """Another request holds the gate's one slot for the block."""
    from builder.contract.work import expensive, request_scope

    inside, release = threading.Event(), threading.Event()

    def hold_the_slot() -> None:
        with request_scope(gate), expensive("first"):
            inside.set()
            release.wait(120)  # until the block ends: only a hung test gets near it

    holder = threading.Thread(target=hold_the_slot)
    holder.start()
    assert inside.wait(120), "the first request never had the slot"
    try:
        yield
    finally:
        release.set()
        holder.join()


def test_a_busy_gate_refuses_at_once_and_a_slow_request_stops_at_its_limit():
    from builder.contract.work import ServerBusyError, expensive, request_scope
    from builder.gate import WorkGate

    gate = WorkGate(slots=1, waiting=0, wait_seconds=0.1, request_seconds=0.2)
    with (slot_held(gate), request_scope(gate), pytest.raises(ServerBusyError, match="busy"),
          expensive("second")):
        pass
    with request_scope(gate):
        with expensive("one piece"):
            time.sleep(0.3)
        with pytest.raises(ServerBusyError, match="more than"), expensive("the next piece"):
            pass
    with expensive("outside any request"):  # a command line: never limited
        pass


def test_work_whose_client_has_gone_gives_its_place_in_the_queue_up():
    """The client hangs up while its work waits in the queue (it has asked once whether
    its client is there): the work gives its place up as soon as it notices, long before
    its wait for a slot would end, and the next request finds the place free."""
    from builder.contract.work import (
        AbandonedError,
        ServerBusyError,
        expensive,
        request_scope,
    )
    from builder.gate import WorkGate

    gate = WorkGate(slots=1, waiting=1, wait_seconds=120)  # no busy machine reaches it
    asked = threading.Event()

    def client_gone() -> bool:  # there at the first question, gone at every later one
        if asked.is_set():
            return True
        asked.set()
        return False

    with slot_held(gate):
        with (request_scope(gate, client_gone=client_gone), pytest.raises(AbandonedError),
              expensive("second")):
            pass
        assert asked.is_set()
        with request_scope(gate, client_gone=lambda: False), pytest.raises(ServerBusyError,
                                                                           match="waited"):
            gate.wait_seconds = 0.3
            with expensive("third: its place in the queue is free again"):
                pass


def wait_until(condition, what: str) -> None:
    """Wait for ``condition`` (a state, however long a busy machine takes to reach it)."""
    wait_for(condition, what)


def test_a_server_drops_queued_work_of_clients_that_hung_up(data_dir):
    """A page that moves on abandons its position requests: with the one slot held, four
    requests for expensive work wait in the queue and hang up; each gives its place up,
    so the next client still gets a place in the queue (it waits, rather than being
    refused at once as if the queue were full), and none of the four ever starts its
    work."""
    import uvicorn

    from builder.contract.work import AbandonedError, expensive
    from builder.gate import WorkGate
    from query.web import create_app

    queued: list[str] = []

    class SeenGate(WorkGate):
        """The gate, saying whose work has a place in the queue and waits for the slot."""

        def _wait_for_slot(self, scope: dict, what: str) -> None:
            queued.append(what)
            super()._wait_for_slot(scope, what)

    app = create_app(data_dir, gate=SeenGate(slots=1, waiting=4, wait_seconds=120))
    started, gave_up, release = [], [], threading.Event()

    @app.get("/test/work")
    def work(who: str) -> dict:
        try:
            with expensive(who):
                started.append(who)
                release.wait(120 if who == "holder" else 0)
        except AbandonedError:
            gave_up.append(who)
            raise
        return {"who": who}

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="error"))
    serving = threading.Thread(target=server.run)
    serving.start()
    try:
        wait_until(lambda: server.started, "the server never started")

        def get(who: str) -> tuple[int, str]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.request("GET", f"/test/work?who={who}")
            response = connection.getresponse()
            return response.status, response.read().decode()

        holder = threading.Thread(target=get, args=("holder",))
        holder.start()
        wait_until(lambda: started, "the holder never started")
        for number in range(4):
            who = f"gone{number}"
            with socket.create_connection(("127.0.0.1", port)) as hung_up:
                hung_up.sendall(f"GET /test/work?who={who} HTTP/1.1\r\n"
                                "Host: x\r\n\r\n".encode())
                wait_until(lambda who=who: who in queued, f"{who} never had a place in the queue")
        wait_until(lambda: len(gave_up) == 4, f"queued work kept its place: {gave_up}")
        answered = {}
        asking = threading.Thread(target=lambda: answered.update(next=get("next")))
        asking.start()
        wait_until(lambda: "next" in queued or not asking.is_alive(), "the next never asked")
        release.set()  # the holder ends once the next one waits for its slot
        asking.join()
        assert answered["next"] == (200, '{"who":"next"}')
        assert started == ["holder", "next"]
        holder.join()
    finally:
        release.set()
        server.should_exit = True
        serving.join()


def test_hints_stay_answered_while_clients_loop_expensive_requests(data_dir):
    """One client loops the issue's deal hunt, another solves with the largest budget the
    API takes (20 M states, about 4.5 GiB): the hunt is bounded, the budget refused at once
    (429) by the server's cap, and hints from a third client never fail nor wait behind
    them: the slowest of them (p99) takes a small part of the quickest hunt, timed beside
    them (a hint queued behind a hunt would wait for much of one)."""
    server, port = started_server(data_dir)
    try:
        hinted = threading.Event()
        statuses: dict[str, list[int]] = {"hunt": [], "solve": []}
        hunts: list[float] = []
        requests = {"hunt": "/api/balls/random?colours=14&capacity=8&empty=1&min_moves=255",
                    "solve": "/api/balls/solve?" + urlencode({
                        "state": "abcd|bcda|cdab|dabc||", "budget": 20_000_000})}

        def hunter(kind: str) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            while not hinted.is_set():
                began = time.perf_counter()
                connection.request("GET", requests[kind])
                response = connection.getresponse()
                response.read()
                statuses[kind].append(response.status)
                if kind == "hunt":
                    hunts.append(time.perf_counter() - began)

        hunters = [threading.Thread(target=hunter, args=(kind,)) for kind in requests]
        for thread in hunters:
            thread.start()
        latencies = []
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:  # hints for as long as two hunts take: a count of hunts, not of seconds
            while len(hunts) < 2 or len(latencies) < 100:
                began = time.perf_counter()
                connection.request("GET",
                                   "/api/play/tricolore/path?state=WBWW.WBRB&target=RRRR.RRRR")
                response = connection.getresponse()
                response.read()
                assert response.status == 200
                latencies.append(time.perf_counter() - began)
        finally:
            hinted.set()
            for thread in hunters:
                thread.join()
        assert server.poll() is None
        assert set(statuses["hunt"]) <= {400, 503}, statuses  # one line, never a crash
        assert set(statuses["solve"]) == {429}, statuses
        latencies.sort()
        slowest = latencies[int(0.99 * (len(latencies) - 1))]
        assert slowest < min(hunts) / 4, (slowest, hunts, latencies[-5:])
    finally:
        server.kill()
        server.wait()


def test_a_malformed_chunked_request_is_one_log_line(data_dir):
    server, port = started_server(data_dir)
    try:
        sent = socket.create_connection(("127.0.0.1", port), timeout=120)
        sent.sendall(b"POST /api/play/tricolore/table HTTP/1.1\r\nHost: x\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n")
        assert sent.recv(100).startswith(b"HTTP/1.1 400")
        sent.close()
    finally:
        server.terminate()
        _, log = server.communicate(timeout=120)
    assert b"Traceback" not in log, log.decode()[-500:]


def test_a_folder_that_cannot_be_read_is_an_error_not_a_dropped_table(small_data, tmp_path,
                                                                      monkeypatch):
    """(As root every folder is readable, so the walk's error is made here.)"""
    import os as os_module

    from builder import catalog

    data = damaged_copy(small_data, tmp_path)
    before = (data / "catalog.duckdb").read_bytes()
    walk = os_module.walk

    def failing_walk(top, onerror=None, **kwargs):
        for found in walk(top, onerror=onerror, **kwargs):
            yield found
            if Path(found[0]).name == "balls" and onerror is not None:
                onerror(PermissionError(13, "Permission denied", str(found[0])))

    monkeypatch.setattr(catalog.os, "walk", failing_walk)
    with pytest.raises(catalog.UnreadableFolderError, match="Permission denied"):
        catalog.refresh_catalog(data, force=True)
    assert (data / "catalog.duckdb").read_bytes() == before


def test_builds_on_request_stop_at_the_servers_cap(small_data, tmp_path):
    from fastapi.testclient import TestClient

    from query.web import create_app

    data = damaged_copy(small_data, tmp_path)
    client = TestClient(create_app(data, allow_builds=1))
    first = client.post("/api/play/tricolore/table",
                        params={"state": "RRRR.RRRR.RRRR", "target": "WWWW.WWWW.WWWW"})
    assert first.status_code == 202, first.json()
    second = client.post("/api/play/tricolore/table",
                         params={"state": "RRRR.RRRR.RRRR", "target": "WWWW.WWWW.WWWR"})
    assert second.status_code == 429 and "1 tables" in second.json()["detail"]
    wait_for(lambda: client.get(f"/api/jobs/{first.json()['id']}").json()["state"]
             in ("done", "failed"), "the first table's build to end",
             lambda: time.sleep(0.2))
    assert client.get(f"/api/jobs/{first.json()['id']}").json()["state"] == "done"


def test_a_size_that_is_never_clearable_is_said_at_once_with_advice_that_helps(data_dir):
    """14 colours in tubes of 4 with one empty tube: every deal is proven unclearable, so
    the answer says so after the first few deals, not at the end of the hunt's time, and
    advises an empty tube, not "fewer moves".  (The hunt is given far more time than a
    busy machine takes for those deals: what ends it is their count.)"""
    from puzzles.balls.answers import HOPELESS_DEALS

    hunted = run("query", "random", "balls", "--colours", "14", "--capacity", "4", "--empty",
                 "1", "--clearable", "--seconds", "600", "--data", str(data_dir))
    assert_one_line_error(hunted, "add an empty tube")
    assert f" {HOPELESS_DEALS} random deals tried, each proven unclearable" in hunted.stderr
    assert "fewer moves" not in hunted.stderr
