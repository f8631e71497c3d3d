"""The server's work gate bounds every search a request can start (issue 42, item 5): a
table computed at query time (a Hanoi target not on one peg, each move's value too) waits
for a slot like any search, so concurrent requests never run more than the pool; a search
that reaches its request's limit is cut there, not when it ends; and one whose client has
hung up stops and gives its slot back.

A busy machine slows the searches and the test alike, so no check here is a fixed number
of seconds: a refusal at once is the gate's refusal of a full queue (it never waits); a
search cut at its limit is one whose memory never grew to what the whole search needs; a
search running is one whose memory has grown; and the one bound in seconds is made of the
gate's own limits plus a margin proportional to a search timed in the same run."""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from builder.gate import WorkGate
from tests.browser import start_server
from tests.test_reliability import wait_until

OFF_ONE_PEG = ["ABCDABCDABCD", "DCBADCBADCBA", "ABABABABABAB", "CDCDCDCDCDCD",
               "AABBCCDDAABB", "ABCDDCBAABCD", "CABDCABDCABD", "BDACBDACBDAC"]
"""Twelve-disc, four-peg targets not all on one peg: each a 16.7 M-state search (about a
second and 190 MB here), and all different, so that no cache answers one for another."""

REFERENCE_TARGET = "BADCBADCBADC"
"""One more such target, searched alone to time a search in the test's own run."""

LONG_SEARCH = ("RRRRR.RRRRR.RRRRR.RRRRR", "BWBWB.WBWBW.BWBWB.WBWBB")
"""A 5x4 Tricolore pair with no table, 12 clicks apart: a bidirectional search of about
14 s and 1.1 GB here."""

WHOLE_LONG_SEARCH = 1000 * 2**20
"""What the server's memory grows by (about) while LONG_SEARCH runs to its end."""

RUNNING = 100 * 2**20
"""The server's growth once a 5x4 search is past its click tables (about 50 MB) and into
its levels."""

SHORT_SEARCH = ("RRRRR.RRRRR.RRRRR.RRRWB", "RRRRR.RRRRR.RRRRR.RRRRR")
"""A 5x4 pair 7 clicks apart: about a second of search."""

LIMIT = 1.0
"""The test server's --search-seconds (the least it takes)."""

HANG = 120
"""Seconds after which a client gives up: only a server that hangs gets near it."""


def _started(data_dir: Path, *options: str) -> tuple[subprocess.Popen, int]:
    return start_server(data_dir, "--searches", "1", *options)


@pytest.fixture(scope="module")
def servers(data_dir):
    """Two servers of one search slot, started together: one with a 1-second limit, one
    whose limit no test reaches (a stop there can only be the hang-up's)."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        started = [pool.submit(_started, data_dir, "--search-seconds", f"{LIMIT:g}"),
                   pool.submit(_started, data_dir, "--search-seconds", "120")]
    processes = [future.result() for future in started]
    try:
        yield {"limited": processes[0], "patient": processes[1]}
    finally:
        for process, _ in processes:
            process.kill()
            process.wait()


def _get(port: int, path: str, timeout: float = HANG) -> tuple[int, str, float]:
    """A request's status, its detail (empty when answered) and its seconds; a client that
    gave up after ``timeout`` is status 0."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = json.loads(response.read())
    except TimeoutError:
        return 0, "no answer", time.monotonic() - began
    finally:
        connection.close()
    detail = body.get("detail", "") if isinstance(body, dict) else ""
    return response.status, detail, time.monotonic() - began


def _memory(process: subprocess.Popen, field: str) -> int:
    """The server's resident memory now (VmRSS) or at its peak (VmHWM), in bytes."""
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for the server")


def _peak_reset(process: subprocess.Popen) -> None:
    """The server's VmHWM from now on (the kernel's ``clear_refs`` 5)."""
    Path(f"/proc/{process.pid}/clear_refs").write_text("5")


def _hanoi(target: str) -> str:
    return "/api/play/hanoi/position?" + urlencode(
        {"state": "AAAAAAAAAAAA", "target": target, "values": "true"})


def _tricolore(pair: tuple[str, str]) -> str:
    return "/api/play/tricolore/path?" + urlencode({"state": pair[0], "target": pair[1]})


def test_hanoi_targets_off_one_peg_are_computed_through_the_gate(servers):
    """Eight clients at once, each a different target not on one peg with every move's
    value: one slot runs and four wait, so three are refused at once (503, by the full
    queue, without waiting), each request ends within its wait and its limit, and the
    server's memory grows by about one search, not eight (before: eight searches at once
    outside the gate, every one answered, 1.2 GB more here)."""
    process, port = servers["limited"]
    assert _get(port, _hanoi("DDDDDDDDDDDD"))[0] == 200  # a stored table: the server warm
    _, patient = servers["patient"]
    assert _get(patient, _hanoi("DDDDDDDDDDDD"))[0] == 200
    status, _, one_search = _get(patient, _hanoi(REFERENCE_TARGET))  # alone, no limit
    assert status == 200
    before = _memory(process, "VmRSS")
    with concurrent.futures.ThreadPoolExecutor(len(OFF_ONE_PEG)) as pool:
        answers = list(pool.map(lambda target: _get(port, _hanoi(target)), OFF_ONE_PEG))
    refused = [detail for status, detail, _ in answers if status == 503 and "refused" in detail]
    assert len(refused) >= 3 and all("busy" in detail for detail in refused), answers
    assert all(status == 200 or (status == 503 and any(
        word in detail for word in ("refused", "waited", "stopped")))
        for status, detail, _ in answers), answers
    # the gate's wait and limit, and a margin for what the search does after its stop is
    # raised and for the answer's way back: the time of one search on this machine now
    wait_seconds = WorkGate().wait_seconds  # `query serve` keeps the gate's default wait
    longest = max(seconds for _, _, seconds in answers)
    assert longest < wait_seconds + LIMIT + 2 * one_search, (one_search, answers)
    grown = _memory(process, "VmHWM") - before
    assert grown < 700 * 2**20, f"the server grew by {grown / 2**20:.0f} MB: {answers}"


def test_a_search_past_its_limit_is_cut_at_the_limit(servers):
    """Two long searches at once (14 s and 1.1 GB each here when they run to their end):
    one is stopped at the 1-second limit, and the other, queued, gets the slot and is
    stopped a limit after it came; neither grows to the size of the whole search (before:
    the first answered after 14 s, the second refused after it)."""
    process, port = servers["limited"]
    other = (LONG_SEARCH[0], "WWBBW.BBWWB.WBBWW.BBWRB")  # 12 clicks too
    before = _memory(process, "VmRSS")
    _peak_reset(process)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda pair: _get(port, _tricolore(pair)),
                                (LONG_SEARCH, other)))
    for status, detail, _ in answers:  # "stopped", not "waited": the second had the slot
        assert status == 503 and "stopped" in detail and "more than" in detail, answers
    grown = _memory(process, "VmHWM") - before
    assert grown < WHOLE_LONG_SEARCH / 2, f"grew by {grown / 2**20:.0f} MB: {answers}"
    assert process.poll() is None


def test_a_search_whose_client_hangs_up_stops_and_frees_its_slot(servers):
    """A client asks a 14-second search and hangs up while it runs: the server stops it,
    so the next search gets the only slot within the gate's wait and is answered (before:
    the abandoned search held the slot to its end and the next one was refused after the
    5 s wait)."""
    process, port = servers["patient"]
    before = _memory(process, "VmRSS")
    with socket.create_connection(("127.0.0.1", port)) as hung_up:
        hung_up.sendall(f"GET {_tricolore(LONG_SEARCH)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        wait_until(lambda: _memory(process, "VmRSS") - before > RUNNING,
               "the search never ran")  # past its click tables, into its levels
    status, detail, seconds = _get(port, _tricolore(SHORT_SEARCH))
    assert (status, detail) == (200, ""), (status, detail, seconds)  # not refused: the slot
